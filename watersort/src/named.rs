//! The choices users name: the pour rule, the heuristic, the algorithm. Each type lists its values with
//! their names and a line on what they do, so the command's options, its `--help` and the web app's
//! requests all read the same spelling from one place, without the library knowing any of them.

/// A choice named in options and requests. Implementors list every value in [`Named::ALL`] with its
/// name at the same place in [`Named::NAMES`], and implement `FromStr` by [`Named::from_name`].
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
    /// What was being named: `rule`, `heuristic` or `algorithm`.
    pub kind: &'static str,
    /// The name given.
    pub given: String,
    /// The names it could have been.
    pub names: &'static [&'static str],
}

#[cfg(test)]
mod tests {
    use super::{Named, UnknownName};
    use crate::{Heuristic, Method, Rule};

    /// Every name leads back to its value, through `Named` and through `FromStr`, and nothing else parses.
    fn round_trips<T: Named + std::fmt::Debug + std::str::FromStr<Err = UnknownName>>() {
        assert_eq!(T::ALL.len(), T::NAMES.len());
        for (&value, &name) in T::ALL.iter().zip(T::NAMES) {
            assert_eq!(value.name(), name);
            assert_eq!(T::from_name(name), Ok(value));
            assert_eq!(name.parse::<T>(), Ok(value));
            assert!(!value.about().is_empty());
        }
        let err = "magic".parse::<T>().unwrap_err();
        assert_eq!(err.to_string(), format!("unknown {} 'magic' ({}s: {})", T::KIND, T::KIND, T::NAMES.join(", ")));
    }

    #[test]
    fn names_round_trip() {
        round_trips::<Rule>();
        round_trips::<Heuristic>();
        round_trips::<Method>();
    }

    /// The web app's message for a bad rule.
    #[test]
    fn unknown_lists_the_names() {
        assert_eq!(
            "Standard".parse::<Rule>().unwrap_err().to_string(),
            "unknown rule 'Standard' (rules: standard, whole-run, one-unit)"
        );
    }
}
