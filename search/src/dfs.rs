//! Depth-first search with a table of seen states: from each state, go on at once from its most promising
//! new successor (least heuristic estimate, then the puzzle's own order), and back up only when a state has
//! no new successor. It finds *a* solution, often long, usually after visiting few states when the puzzle's
//! move order and estimate point the right way; best-first greedy search instead keeps every open state in
//! a heap and jumps among them, which costs more a state and, on long plateaus of equal estimates, wanders.
//! No state is visited twice, so a puzzle without a solution is proved unsolvable by exhausting it.

use crate::bfs::over_store;
use crate::guard::Guard;
use crate::store::Store;
use crate::{Limits, Progress, Puzzle, Report, SearchError, Stop};
use std::cmp::Reverse;

/// Some sequence of moves from `start` to a goal (not necessarily the fewest), or a proof there is none.
/// The heuristic only orders the successors: it need not be admissible.
///
/// # Example
///
/// ```
/// # include!("../doc/steps.rs"); // `Steps`, the crate's example: 0 to 10 in steps of 1 or 3
/// # fn main() {
/// use search::{dfs, Limits, Outcome};
/// let report = dfs(&Steps, &0, &Limits::default(), &mut |_| {}).unwrap();
/// let Outcome::Solved(moves) = report.outcome else { panic!("{:?}", report.outcome) };
/// // It reaches 10; the fewest moves are 4, so it takes at least that many.
/// assert!(moves.iter().sum::<i32>() == 10 && moves.len() >= 4);
/// # }
/// ```
pub fn dfs<P: Puzzle>(
    puzzle: &P,
    start: &P::State,
    limits: &Limits,
    progress: &mut dyn FnMut(&Progress),
) -> Result<Report<P::Move>, SearchError> {
    over_store(puzzle, start, limits, progress, search)
}

/// Bytes a stored state costs here: the store's, and at most one id on the stack.
fn bytes<S: std::hash::Hash + Eq + Clone>(stored: u64) -> u64 {
    stored * (Store::<S>::ENTRY_BYTES + std::mem::size_of::<u32>() as u64)
}

/// The id of a goal, or `None` once every reachable state is stored, from the stored root (not a goal).
/// The goal test is made when a state is first stored, so a goal ends the search as soon as it is seen.
fn search<P: Puzzle>(
    puzzle: &P,
    root: u32,
    store: &mut Store<P::State>,
    guard: &mut Guard,
) -> Result<Option<u32>, Stop> {
    // Ids still to expand, the next on top. A state's parent is the state that first reached it, so the
    // parent links give a path however the stack was unwound.
    let mut stack = vec![root];
    let mut children = Vec::new();
    let mut fresh: Vec<(u32, u32)> = Vec::new();
    while let Some(id) = stack.pop() {
        guard.expand(store.len() as u64)?;
        children.clear();
        puzzle.successors(store.state(id), |_, s| children.push(puzzle.canonical(&s)));
        guard.stats.generated += children.len() as u64;
        fresh.clear();
        for child in children.drain(..) {
            let stored = store.len() as u64 + 1;
            guard.room(stored, bytes::<P::State>(stored))?;
            match store.insert(child, id) {
                Ok(new) => {
                    guard.peak(stored, bytes::<P::State>(stored));
                    let state = store.state(new);
                    if puzzle.is_goal(state) {
                        return Ok(Some(new));
                    }
                    fresh.push((puzzle.heuristic(state), new));
                }
                Err(_) => guard.stats.duplicates += 1,
            }
        }
        // Pushed so that the least estimate, and of equal ones the earliest successor, is on top: reversed,
        // then a stable sort by decreasing estimate.
        fresh.reverse();
        fresh.sort_by_key(|&(h, _)| Reverse(h));
        stack.extend(fresh.iter().map(|&(_, id)| id));
    }
    Ok(None)
}
