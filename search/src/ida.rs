//! IDA*: depth-first searches bounded by f = g + h, the bound raised each round to the least f that
//! exceeded it. Memory is the current path and its pending siblings, whatever the depth; the price is
//! re-expanding the shallow levels every round and, with no table of seen states, re-expanding states
//! reached by several paths. The one duplicate pruned is the cheapest to spot: stepping straight back to
//! the state just left.
//!
//! Without a table IDA* cannot always prove that no goal exists: it reports [`Outcome::Unsolvable`] only
//! when a round prunes nothing (the reachable states form a finite tree under the bound); on a puzzle with
//! cycles and no goal it runs until a limit stops it. Use [`Puzzle::unsolvable`], or another algorithm.

use crate::guard::Guard;
use crate::path;
use crate::{Limits, Outcome, Progress, Puzzle, Report, SearchError, Stop};

/// The depth-first stack: the representatives on the current path, and for each the successors not yet
/// tried. The buffers are kept from round to round, so a search allocates only as it reaches new depths.
struct Stack<S> {
    path: Vec<S>,
    pending: Vec<Vec<S>>,
    /// States held in `pending`, for the memory estimate.
    buffered: u64,
}

/// How a bounded round ended.
enum Round {
    Found,
    /// No goal within the bound; the least f beyond it, `None` if nothing was pruned.
    Exceeded(Option<u32>),
}

/// The fewest moves from `start` to a goal, guided by [`Puzzle::heuristic`] (which must be admissible).
///
/// # Example
///
/// ```
/// # include!("../doc/steps.rs"); // `Steps`, the crate's example: 0 to 10 in steps of 1 or 3
/// # fn main() {
/// use search::{ida, Limits, Outcome};
/// let report = ida(&Steps, &0, &Limits::default(), &mut |_| {}).unwrap();
/// assert!(matches!(report.outcome, Outcome::Solved(moves) if moves.len() == 4));
/// # }
/// ```
pub fn ida<P: Puzzle>(
    puzzle: &P,
    start: &P::State,
    limits: &Limits,
    progress: &mut dyn FnMut(&Progress),
) -> Result<Report<P::Move>, SearchError> {
    let mut guard = Guard::new(limits, progress);
    if puzzle.unsolvable(start) {
        return Ok(guard.finish(Outcome::Unsolvable));
    }
    let root = puzzle.canonical(start);
    let mut bound = puzzle.heuristic(&root);
    let mut stack = Stack { path: Vec::new(), pending: Vec::new(), buffered: 0 };
    let outcome = loop {
        guard.depth(bound, 0);
        match round(puzzle, &root, bound, &mut stack, &mut guard) {
            Ok(Round::Found) => break Outcome::Solved(path::moves(puzzle, start, &stack.path)?),
            Ok(Round::Exceeded(Some(next))) => bound = next,
            Ok(Round::Exceeded(None)) => break Outcome::Unsolvable,
            Err(stop) => break Outcome::Stopped(stop),
        }
    };
    Ok(guard.finish(outcome))
}

/// One depth-first search from `root` under `bound`; on [`Round::Found`] the stack's path ends at a goal.
fn round<P: Puzzle>(
    puzzle: &P,
    root: &P::State,
    bound: u32,
    stack: &mut Stack<P::State>,
    guard: &mut Guard,
) -> Result<Round, Stop> {
    let state_bytes = std::mem::size_of::<P::State>() as u64;
    stack.path.clear();
    stack.buffered = 0;
    let mut next = None;
    if puzzle.is_goal(root) {
        guard.peak(1, state_bytes);
        stack.path.push(root.clone());
        return Ok(Round::Found);
    }
    enter(puzzle, root.clone(), stack, guard)?;
    while let Some(depth) = stack.path.len().checked_sub(1) {
        let Some(child) = stack.pending[depth].pop() else {
            stack.path.pop();
            continue;
        };
        stack.buffered -= 1;
        let g = depth as u32 + 1;
        let f = g.saturating_add(puzzle.heuristic(&child));
        if f > bound {
            next = Some(next.map_or(f, |n: u32| n.min(f)));
            continue;
        }
        if puzzle.is_goal(&child) {
            stack.path.push(child);
            return Ok(Round::Found);
        }
        enter(puzzle, child, stack, guard)?;
    }
    Ok(Round::Exceeded(next))
}

/// Expands `state` and pushes it on the path, with its successors (bar the state just left) pending.
fn enter<P: Puzzle>(puzzle: &P, state: P::State, stack: &mut Stack<P::State>, guard: &mut Guard) -> Result<(), Stop> {
    let depth = stack.path.len();
    guard.expand(depth as u64 + stack.buffered)?;
    if stack.pending.len() <= depth {
        stack.pending.push(Vec::new());
    }
    let back = depth.checked_sub(1).map(|d| &stack.path[d]);
    let pending = &mut stack.pending[depth];
    pending.clear();
    let mut generated = 0;
    puzzle.successors(&state, |_, s| {
        generated += 1;
        let s = puzzle.canonical(&s);
        if back != Some(&s) {
            pending.push(s);
        }
    });
    // Popped from the back: reverse so that successors are tried in the puzzle's order.
    pending.reverse();
    guard.stats.generated += generated;
    guard.stats.duplicates += generated - pending.len() as u64;
    // The buffers' capacity stays from earlier expansions: what counts is the states kept from now on.
    let stored = depth as u64 + 1 + stack.buffered + pending.len() as u64;
    let bytes = stored * std::mem::size_of::<P::State>() as u64;
    guard.room(stored, bytes)?;
    guard.peak(stored, bytes);
    stack.buffered += pending.len() as u64;
    stack.path.push(state);
    Ok(())
}
