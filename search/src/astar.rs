//! A*: best-first by f = g + h, optimal when the heuristic is admissible. With a consistent heuristic a
//! state is never reached more cheaply after it was expanded; with an inconsistent one it can be, and
//! re-opening (expanding it again with the better cost) is what keeps the answer optimal.

use crate::best_first::{self, Priority};
use crate::{Limits, Progress, Puzzle, Report, SearchError};

/// How A* treats a state reached more cheaply after it was expanded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AstarOptions {
    /// Expand it again with the better cost. Needed for optimality with an inconsistent heuristic; costs
    /// nothing with a consistent one (it never happens). Off, such a state is dropped: fewer expansions,
    /// and an answer that can then be longer than the fewest.
    pub reopen: bool,
}

impl Default for AstarOptions {
    fn default() -> Self {
        AstarOptions { reopen: true }
    }
}

/// The fewest moves from `start` to a goal, guided by [`Puzzle::heuristic`] (which must be admissible).
pub fn astar<P: Puzzle>(
    puzzle: &P,
    start: &P::State,
    limits: &Limits,
    options: AstarOptions,
    progress: &mut dyn FnMut(&Progress),
) -> Result<Report<P::Move>, SearchError> {
    best_first::search(puzzle, start, limits, progress, Priority::Astar { reopen: options.reopen })
}
