//! Greedy best-first search: always expand the state that looks closest to a goal (least h, the deeper on a
//! tie), never a state twice. Finds some solution fast when the heuristic is informative; not the shortest.

use crate::best_first::{self, Priority};
use crate::{Limits, Progress, Puzzle, Report, SearchError};

/// Some sequence of moves from `start` to a goal (not necessarily the fewest), or a proof there is none.
///
/// # Example
///
/// ```
/// # include!("../doc/steps.rs"); // `Steps`, the crate's example: 0 to 10 in steps of 1 or 3
/// # fn main() {
/// use search::{greedy, Limits, Outcome};
/// let report = greedy(&Steps, &0, &Limits::default(), &mut |_| {}).unwrap();
/// let Outcome::Solved(moves) = report.outcome else { panic!("{:?}", report.outcome) };
/// // It reaches 10; the fewest moves are 4, so it takes at least that many.
/// assert!(moves.iter().sum::<i32>() == 10 && moves.len() >= 4);
/// # }
/// ```
pub fn greedy<P: Puzzle>(
    puzzle: &P,
    start: &P::State,
    limits: &Limits,
    progress: &mut dyn FnMut(&Progress),
) -> Result<Report<P::Move>, SearchError> {
    best_first::search(puzzle, start, limits, progress, Priority::Greedy)
}
