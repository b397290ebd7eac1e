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
///
/// # Example
///
/// ```
/// # include!("../doc/steps.rs"); // `Steps`, the crate's example: 0 to 10 in steps of 1 or 3
/// # fn main() {
/// use search::{astar, AstarOptions, Limits, Outcome};
/// let report = astar(&Steps, &0, &Limits::default(), AstarOptions::default(), &mut |_| {}).unwrap();
/// assert!(matches!(report.outcome, Outcome::Solved(moves) if moves.len() == 4));
/// # }
/// ```
pub fn astar<P: Puzzle>(
    puzzle: &P,
    start: &P::State,
    limits: &Limits,
    options: AstarOptions,
    progress: &mut dyn FnMut(&Progress),
) -> Result<Report<P::Move>, SearchError> {
    best_first::search(puzzle, start, limits, progress, Priority::Astar { reopen: options.reopen })
}
