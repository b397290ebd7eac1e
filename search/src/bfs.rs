//! Breadth-first search: layer by layer from the start, the goal test when a state is generated (a goal
//! found while expanding layer `d` is at depth `d + 1`, and no shallower goal exists, since layer `d` held
//! none).

use crate::guard::Guard;
use crate::path;
use crate::store::{Store, NO_PARENT};
use crate::{Limits, Outcome, Progress, Puzzle, Report, SearchError, Stop};
use std::ops::Range;

/// The fewest moves from `start` to a goal, or a proof that there is none, storing every state reached.
///
/// # Example
///
/// ```
/// # include!("../doc/steps.rs"); // `Steps`, the crate's example: 0 to 10 in steps of 1 or 3
/// # fn main() {
/// use search::{bfs, Limits, Outcome};
/// let report = bfs(&Steps, &0, &Limits::default(), &mut |_| {}).unwrap();
/// assert!(matches!(report.outcome, Outcome::Solved(moves) if moves.len() == 4));
/// # }
/// ```
pub fn bfs<P: Puzzle>(
    puzzle: &P,
    start: &P::State,
    limits: &Limits,
    progress: &mut dyn FnMut(&Progress),
) -> Result<Report<P::Move>, SearchError> {
    over_store(puzzle, start, limits, progress, search)
}

/// What the searches that keep every state in one store with its parent (breadth-first, depth-first)
/// share: the cheap unsolvability test, the root stored and tested, then `search` from the root's id, its
/// goal's parent links replayed into moves from the real start.
pub(crate) fn over_store<P: Puzzle>(
    puzzle: &P,
    start: &P::State,
    limits: &Limits,
    progress: &mut dyn FnMut(&Progress),
    search: impl FnOnce(&P, u32, &mut Store<P::State>, &mut Guard) -> Result<Option<u32>, Stop>,
) -> Result<Report<P::Move>, SearchError> {
    let mut guard = Guard::new(limits, progress);
    if puzzle.unsolvable(start) {
        return Ok(guard.finish(Outcome::Unsolvable));
    }
    let mut store = Store::new();
    let from_root = || {
        let root = plant(&mut store, puzzle.canonical(start), 0, &mut guard)?;
        if puzzle.is_goal(store.state(root)) {
            return Ok(Some(root));
        }
        search(puzzle, root, &mut store, &mut guard)
    };
    let outcome = match from_root() {
        Ok(Some(goal)) => Outcome::Solved(path::moves(puzzle, start, &store.path(goal))?),
        Ok(None) => Outcome::Unsolvable,
        Err(stop) => Outcome::Stopped(stop),
    };
    Ok(guard.finish(outcome))
}

/// The id of a goal at the least depth from the stored root (not a goal), or `None` once every reachable
/// state is stored.
fn search<P: Puzzle>(
    puzzle: &P,
    root: u32,
    store: &mut Store<P::State>,
    guard: &mut Guard,
) -> Result<Option<u32>, Stop> {
    let mut children = Vec::new();
    let mut layer = root..store.len();
    let mut depth = 0;
    while !layer.is_empty() {
        if let Some(goal) = expand_layer(puzzle, store, layer.clone(), 0, guard, &mut children, |s| puzzle.is_goal(s))?
        {
            return Ok(Some(goal));
        }
        depth += 1;
        layer = layer.end..store.len();
        guard.depth(depth, store.len() as u64);
    }
    Ok(None)
}

/// Stores the root of a breadth-first search in an empty store. `others` counts states stored elsewhere
/// (the other side of a bidirectional search), for the limits.
pub(crate) fn plant<S: std::hash::Hash + Eq + Clone>(
    store: &mut Store<S>,
    root: S,
    others: u64,
    guard: &mut Guard,
) -> Result<u32, Stop> {
    let stored = others + 1;
    guard.room(stored, stored * Store::<S>::ENTRY_BYTES)?;
    guard.peak(stored, stored * Store::<S>::ENTRY_BYTES);
    Ok(store.insert(root, NO_PARENT).unwrap_or_else(|old| old))
}

/// Expands the states with ids in `layer`, storing their new successors (representatives) as the next
/// layer. Returns the id of the first new state `hit` accepts, leaving the layer unfinished, or `None` when
/// the layer is done. `others` counts states stored elsewhere, for the limits; `children` is a buffer
/// reused from call to call so that expanding allocates nothing.
pub(crate) fn expand_layer<P: Puzzle>(
    puzzle: &P,
    store: &mut Store<P::State>,
    layer: Range<u32>,
    others: u64,
    guard: &mut Guard,
    children: &mut Vec<P::State>,
    mut hit: impl FnMut(&P::State) -> bool,
) -> Result<Option<u32>, Stop> {
    let entry = Store::<P::State>::ENTRY_BYTES;
    for id in layer {
        guard.expand(others + store.len() as u64)?;
        children.clear();
        puzzle.successors(store.state(id), |_, s| children.push(puzzle.canonical(&s)));
        guard.stats.generated += children.len() as u64;
        for child in children.drain(..) {
            let stored = others + store.len() as u64 + 1;
            guard.room(stored, stored * entry)?;
            match store.insert(child, id) {
                Ok(new) => {
                    guard.peak(stored, stored * entry);
                    if hit(store.state(new)) {
                        return Ok(Some(new));
                    }
                }
                Err(_) => guard.stats.duplicates += 1,
            }
        }
    }
    Ok(None)
}
