//! Greedy best-first search: always expand the state that looks closest to a goal (least h, the deeper on a
//! tie), never a state twice. Finds some solution fast when the heuristic is informative; not the shortest.

use crate::best_first::{self, Priority};
use crate::{Limits, Progress, Puzzle, Report, SearchError};

/// Some sequence of moves from `start` to a goal (not necessarily the fewest), or a proof there is none.
pub fn greedy<P: Puzzle>(
    puzzle: &P,
    start: &P::State,
    limits: &Limits,
    progress: &mut dyn FnMut(&Progress),
) -> Result<Report<P::Move>, SearchError> {
    best_first::search(puzzle, start, limits, progress, Priority::Greedy)
}
