//! The choices users name: an algorithm here; a puzzle's own (water sort's pour rule and heuristic) in its
//! crate. Each type lists its values with their names and a line on what they do, so every command's
//! options, its `--help` and the web app's requests read the same spelling from one place, and parse it
//! with the same message when it is none of them.

/// A choice named in options and requests. Implementors list every value in [`Named::ALL`] with its
/// name at the same place in [`Named::NAMES`]; [`Named::from_name`] reads one.
pub trait Named: Copy + Eq + 'static {
    /// What one is called in messages: `rule`, `heuristic`, `algorithm`.
    const KIND: &'static str;
    /// Every value, in the order lists show them.
    const ALL: &'static [Self];
    /// The name of each value of [`Named::ALL`], as users type it.
    const NAMES: &'static [&'static str];

    /// A line for users on what it does: the one `--help` shows next to its name.
    fn about(self) -> &'static str;

    /// Its name, as users type it.
    fn name(self) -> &'static str {
        let at = Self::ALL.iter().position(|&v| v == self);
        Self::NAMES[at.expect("ALL lists every value")]
    }

    /// The value named `text`, or an error listing the names.
    fn from_name(text: &str) -> Result<Self, UnknownName> {
        let at = Self::NAMES.iter().position(|&name| name == text);
        at.map(|at| Self::ALL[at]).ok_or_else(|| UnknownName {
            kind: Self::KIND,
            given: text.to_string(),
            names: Self::NAMES,
        })
    }
}

/// A name that is none of a choice's, e.g. `unknown rule 'x' (rules: standard, whole-run, one-unit)`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown {kind} '{given}' ({kind}s: {})", .names.join(", "))]
pub struct UnknownName {
    /// What was named: `algorithm`, `rule`, ...
    pub kind: &'static str,
    /// What the user typed.
    pub given: String,
    /// The names it could have been.
    pub names: &'static [&'static str],
}

impl Named for crate::Algorithm {
    const KIND: &'static str = "algorithm";
    const ALL: &'static [Self] = &[Self::Ida, Self::Astar, Self::Bfs, Self::Bibfs, Self::Greedy, Self::Dfs];
    const NAMES: &'static [&'static str] = &["ida", "astar", "bfs", "bibfs", "greedy", "dfs"];

    fn about(self) -> &'static str {
        use crate::Algorithm::*;
        match self {
            Ida => "iterative-deepening A*: the fewest moves in memory linear in the depth",
            Astar => "A* with the heuristic: the fewest moves; stores every state it sees",
            Bfs => "breadth-first: the fewest moves, no heuristic; stores every state up to the solution's depth",
            Bibfs => "bidirectional breadth-first, from the start and from the goal: the fewest moves, no heuristic",
            Greedy => "greedy best-first by the heuristic: some solution fast, not necessarily the fewest moves",
            Dfs => {
                "depth-first, the most promising move first, never a state twice: some solution fast, not \
                 necessarily the fewest moves (or a proof that there is none)"
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Named, UnknownName};
    use crate::Algorithm;

    /// Every name leads back to its value, and nothing else is read.
    #[test]
    fn algorithm_names_round_trip() {
        assert_eq!(Algorithm::ALL.len(), Algorithm::NAMES.len());
        for (&value, &name) in Algorithm::ALL.iter().zip(Algorithm::NAMES) {
            assert_eq!(value.name(), name);
            assert_eq!(Algorithm::from_name(name), Ok(value));
            assert!(!value.about().is_empty());
        }
        let err: UnknownName = Algorithm::from_name("Greedy").unwrap_err();
        assert_eq!(err.to_string(), "unknown algorithm 'Greedy' (algorithms: ida, astar, bfs, bibfs, greedy, dfs)");
    }
}
