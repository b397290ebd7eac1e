//! The best-first engine behind A* and greedy search: a binary heap of open states, the state store as the
//! closed and open sets, the best known cost of every stored state beside it.
//!
//! The heap is never searched or updated in place. When a cheaper way to a state is found, a new entry is
//! pushed and the old one stays behind, *stale*: an entry whose cost is no longer its state's best cost, or
//! whose state is already expanded, is skipped when it comes out. Ties in the priority go to the deeper
//! entry (larger g): near the end of an A* search many states share the optimal f, and the deepest of them
//! is the closest to a goal.

use crate::guard::Guard;
use crate::path;
use crate::store::{Store, NO_PARENT};
use crate::{Limits, Outcome, Progress, Puzzle, Report, SearchError, Stop};
use std::collections::BinaryHeap;

/// What orders the heap.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Priority {
    /// f = g + h; the goal test when a state is expanded, so the first goal expanded is optimal (h
    /// admissible, and consistent or `reopen` set).
    Astar { reopen: bool },
    /// h alone; the goal test when a state is generated; a state is never reached twice.
    Greedy,
}

/// A heap entry. The derived order compares `key` first: the priority, inverted so that the max-heap pops
/// the least, in the high half, and g in the low half, so that of equal priorities the deepest pops first.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Entry {
    key: u64,
    id: u32,
}

impl Entry {
    fn new(priority: u32, g: u32, id: u32) -> Entry {
        Entry { key: ((u32::MAX - priority) as u64) << 32 | g as u64, id }
    }

    fn priority(self) -> u32 {
        u32::MAX - (self.key >> 32) as u32
    }

    fn g(self) -> u32 {
        self.key as u32
    }
}

/// Bytes per stored state beyond the store's own: its best cost (4) and its expanded flag (1).
const COST_BYTES: u64 = 5;

/// Everything a best-first search keeps.
struct Open<S> {
    store: Store<S>,
    /// Best known moves from the root, by id.
    g: Vec<u32>,
    /// Whether the state was expanded with its current `g`.
    closed: Vec<bool>,
    heap: BinaryHeap<Entry>,
}

impl<S: std::hash::Hash + Eq + Clone> Open<S> {
    fn stored(&self) -> u64 {
        self.store.len() as u64
    }

    /// The estimated bytes with `states` stored and `entries` in the heap.
    fn bytes(states: u64, entries: u64) -> u64 {
        states * (Store::<S>::ENTRY_BYTES + COST_BYTES) + entries * std::mem::size_of::<Entry>() as u64
    }

    /// Checks the memory for one more state and one more heap entry.
    fn room(&self, guard: &Guard, new_state: bool) -> Result<(), Stop> {
        let states = self.stored() + new_state as u64;
        guard.room(states, Self::bytes(states, self.heap.len() as u64 + 1))
    }

    fn push(&mut self, guard: &mut Guard, entry: Entry) {
        self.heap.push(entry);
        guard.peak(self.stored(), Self::bytes(self.stored(), self.heap.len() as u64));
    }
}

pub(crate) fn search<P: Puzzle>(
    puzzle: &P,
    start: &P::State,
    limits: &Limits,
    progress: &mut dyn FnMut(&Progress),
    priority: Priority,
) -> Result<Report<P::Move>, SearchError> {
    let mut guard = Guard::new(limits, progress);
    if puzzle.unsolvable(start) {
        return Ok(guard.finish(Outcome::Unsolvable));
    }
    let mut open = Open { store: Store::new(), g: Vec::new(), closed: Vec::new(), heap: BinaryHeap::new() };
    let outcome = match run(puzzle, puzzle.canonical(start), &mut open, &mut guard, priority) {
        Ok(Some(goal)) => Outcome::Solved(path::moves(puzzle, start, &open.store.path(goal))?),
        Ok(None) => Outcome::Unsolvable,
        Err(stop) => Outcome::Stopped(stop),
    };
    Ok(guard.finish(outcome))
}

/// The id of the goal found, or `None` when the open set ran dry.
fn run<P: Puzzle>(
    puzzle: &P,
    root: P::State,
    open: &mut Open<P::State>,
    guard: &mut Guard,
    priority: Priority,
) -> Result<Option<u32>, Stop> {
    let key = |g: u32, h: u32| match priority {
        Priority::Astar { .. } => g.saturating_add(h),
        Priority::Greedy => h,
    };
    let h = puzzle.heuristic(&root);
    let root_is_goal = puzzle.is_goal(&root);
    open.room(guard, true)?;
    let root = open.store.insert(root, NO_PARENT).unwrap_or_else(|old| old);
    open.g.push(0);
    open.closed.push(false);
    guard.peak(1, Open::<P::State>::bytes(1, 0));
    if root_is_goal {
        return Ok(Some(root));
    }
    open.push(guard, Entry::new(key(0, h), 0, root));

    let mut children = Vec::new();
    let mut reported = None;
    while let Some(entry) = open.heap.pop() {
        let (id, g) = (entry.id, entry.g());
        if g != open.g[id as usize] || open.closed[id as usize] {
            continue; // stale
        }
        if let Priority::Astar { .. } = priority {
            if reported.is_none_or(|f| entry.priority() > f) {
                reported = Some(entry.priority());
                guard.depth(entry.priority(), open.stored());
            }
            if puzzle.is_goal(open.store.state(id)) {
                return Ok(Some(id));
            }
        }
        guard.expand(open.stored())?;
        open.closed[id as usize] = true;
        children.clear();
        puzzle.successors(open.store.state(id), |_, s| children.push(puzzle.canonical(&s)));
        guard.stats.generated += children.len() as u64;
        let g = g + 1;
        for child in children.drain(..) {
            open.room(guard, true)?;
            match open.store.insert(child, id) {
                Err(old) => {
                    let better = g < open.g[old as usize];
                    let may_reopen = match priority {
                        Priority::Astar { reopen } => reopen || !open.closed[old as usize],
                        Priority::Greedy => false,
                    };
                    if better && may_reopen {
                        open.g[old as usize] = g;
                        open.closed[old as usize] = false;
                        open.store.set_parent(old, id);
                        let h = puzzle.heuristic(open.store.state(old));
                        open.push(guard, Entry::new(key(g, h), g, old));
                    } else {
                        guard.stats.duplicates += 1;
                    }
                }
                Ok(new) => {
                    open.g.push(g);
                    open.closed.push(false);
                    let child = open.store.state(new);
                    if matches!(priority, Priority::Greedy) && puzzle.is_goal(child) {
                        return Ok(Some(new));
                    }
                    let h = puzzle.heuristic(child);
                    open.push(guard, Entry::new(key(g, h), g, new));
                }
            }
        }
    }
    Ok(None)
}
