//! What counts as one move, and which estimate guides the informed searches.

use search::Named;

/// What one move is. Every metric moves one piece at a time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Metric {
    /// One piece any distance along any path through empty cells, turning as it likes: the usual Klotski
    /// count (横刀立马 in 81).
    #[default]
    Piece,
    /// One piece any distance in one straight line: the usual Rush Hour count.
    Line,
    /// One piece one cell.
    Unit,
}

impl Named for Metric {
    const KIND: &'static str = "metric";
    const ALL: &'static [Metric] = &[Metric::Piece, Metric::Line, Metric::Unit];
    const NAMES: &'static [&'static str] = &["piece", "line", "unit"];

    fn about(self) -> &'static str {
        match self {
            Metric::Piece => "one piece any distance along any path through empty cells is one move (Klotski's count)",
            Metric::Line => "one piece any distance in a straight line is one move (Rush Hour's count)",
            Metric::Unit => "one piece one cell is one move",
        }
    }
}

/// The estimate A*, IDA*, greedy and depth-first search use.
///
/// Both estimates count moves that must be made by distinct pieces, and every metric moves one piece a
/// move, so the counts add up without overlap; that is the whole admissibility argument, detailed on
/// [`Heuristic::Blocking`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Heuristic {
    /// 0: the informed searches become uniform-cost search.
    Zero,
    /// For a piece-at-a-place goal: the goal piece's own moves plus one for each other piece in its way.
    ///
    /// The goal piece's own moves, if it is not at its goal: 1 in the piece metric; in the line metric 1
    /// for a change of row plus 1 for a change of column (a straight move changes one of them); in the
    /// unit metric the Manhattan distance (a move changes one coordinate by one). Each is a lower bound on
    /// the moves of that piece alone.
    ///
    /// The pieces in the way: every other piece covering a cell of the goal piece's goal place must leave
    /// it, so moves at least once; for a goal piece locked to an axis (a Rush Hour car), every cell it
    /// sweeps between where it is and its goal must be cleared too, since it can reach its goal no other
    /// way. Each such piece accounts for at least one move not of the goal piece and not of another such
    /// piece (a move moves one piece), so the sum never exceeds the moves left: admissible in all three
    /// metrics. It is 0 at a goal.
    ///
    /// For a whole-arrangement goal: the pieces not on a goal place of their kind, `Σ_kind |goal places of
    /// the kind not covered by one of its pieces|`. A move changes one piece's place, so this falls by at
    /// most one a move, and it is 0 exactly at the goal: admissible in all three metrics.
    #[default]
    Blocking,
}

impl Named for Heuristic {
    const KIND: &'static str = "heuristic";
    const ALL: &'static [Heuristic] = &[Heuristic::Zero, Heuristic::Blocking];
    const NAMES: &'static [&'static str] = &["zero", "blocking"];

    fn about(self) -> &'static str {
        match self {
            Heuristic::Zero => "0: plain uniform-cost search",
            Heuristic::Blocking => {
                "the goal piece's own moves (1, its row and column changes, or its Manhattan distance by metric) \
                 plus one for each piece in its way; for an arrangement, the pieces off their kind's places"
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trips<T: Named + std::fmt::Debug>() {
        for (&value, &name) in T::ALL.iter().zip(T::NAMES) {
            assert_eq!(T::from_name(name), Ok(value));
            assert!(!value.about().is_empty());
        }
        assert_eq!(T::ALL.len(), T::NAMES.len());
    }

    #[test]
    fn names_round_trip() {
        round_trips::<Metric>();
        round_trips::<Heuristic>();
        assert_eq!(
            Metric::from_name("cell").unwrap_err().to_string(),
            "unknown metric 'cell' (metrics: piece, line, unit)"
        );
    }
}
