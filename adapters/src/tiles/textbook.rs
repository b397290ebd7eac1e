//! Textbook A*: the plain A* of the textbooks, kept apart from the generic library's (which orders ties
//! its own way and tests for the goal when a state is generated) so that its node counts follow one
//! convention a student can implement and check theirs against (docs/textbook.md, "A*").
//!
//! The open list is ordered by least f = g + h, then least h, then first pushed (FIFO). A popped entry
//! whose g is worse than the best known for its position is skipped (a leftover of a shorter path found
//! later): it is not counted. Otherwise the popped node is tested for the goal; if it is the goal the
//! search ends, else it is expanded (counted) and closed. Its children are made in the order the blank
//! moves up, down, left, right (moves off the board and the move back to the parent left out); a child
//! whose position already has a path as short or shorter (open or closed) is dropped before its heuristic
//! is computed; every other is generated (counted, its heuristic computed) and pushed. A closed position
//! reached by a shorter path is thus reopened (pushed again, expanded again when popped); with a
//! consistent heuristic (Manhattan distance, linear conflict, the tables' maximum or sum) that never
//! happens. The start is pushed with its estimate but never counted as generated.

use engine::{Counts, Outcome, Solver, Stop};
use puzzle::{Dir, Goal, State};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::sync::atomic::Ordering;
use std::time::Instant;

/// Expansions between looks at the clock, the cancel flag and the progress counters.
const CHECK_EVERY: u64 = 1024;

/// What a textbook A* did.
pub struct Run {
    /// The tiles moved (an optimal solution), or the limit that stopped it.
    pub outcome: Outcome,
    /// Nodes generated and expanded, as the convention counts them.
    pub counts: Counts,
    /// Positions stored (open or closed) at the end: the most at once, since none is ever dropped.
    pub stored: u64,
    /// Search time.
    pub seconds: f64,
}

/// One node pushed: its position, the node it was made from, the tile that moved, its g and the blank's
/// move that made it.
struct Node {
    state: State,
    parent: usize,
    tile: u8,
    g: u32,
    came: Option<Dir>,
}

/// Bytes one node takes, with its entries in the open list and the table of best g (an estimate, for the
/// memory limit).
const NODE_BYTES: u64 = (std::mem::size_of::<Node>() + 2 * std::mem::size_of::<State>() + 64) as u64;

/// Textbook A* from `start` (in the solver's internal frame) for input written for `goal`, with the
/// solver's heuristic, within `limits` (nodes count expansions, as everywhere), reporting to `tick`.
pub fn astar(
    solver: &Solver,
    goal: Goal,
    start: &State,
    limits: &search::Limits,
    tick: &mut dyn FnMut(&search::Progress),
) -> anyhow::Result<Run> {
    let began = Instant::now();
    let board = start.board();
    // The blank's directions in the internal frame, in the order the user's up, down, left, right.
    let order = Dir::ALL.map(|d| goal.user_dir(d));
    let mut counts = Counts::default();
    let mut nodes = vec![Node { state: *start, parent: usize::MAX, tile: 0, g: 0, came: None }];
    let mut best: HashMap<State, u32> = HashMap::from([(*start, 0)]);
    let h = solver.estimate(start);
    // Least f, then least h, then least index: the nodes are numbered in the order they are pushed.
    let mut open = BinaryHeap::from([Reverse((h, h, 0usize))]);
    let stopped = |why: Stop, counts: Counts, stored: usize| Run {
        outcome: Outcome::Stopped(why),
        counts,
        stored: stored as u64,
        seconds: began.elapsed().as_secs_f64(),
    };
    while let Some(Reverse((_, _, i))) = open.pop() {
        let (state, g, came) = (nodes[i].state, nodes[i].g, nodes[i].came);
        if best.get(&state).is_some_and(|&known| known < g) {
            continue;
        }
        if state.is_goal() {
            let mut moves = Vec::new();
            let mut at = i;
            while at != 0 {
                moves.push(nodes[at].tile);
                at = nodes[at].parent;
            }
            moves.reverse();
            return Ok(Run {
                outcome: Outcome::Solved(moves),
                counts,
                stored: best.len() as u64,
                seconds: began.elapsed().as_secs_f64(),
            });
        }
        if limits.nodes.is_some_and(|n| counts.expanded >= n) {
            return Ok(stopped(Stop::NodeLimit, counts, best.len()));
        }
        counts.expanded += 1;
        if counts.expanded.is_multiple_of(CHECK_EVERY) {
            if limits.cancel.as_ref().is_some_and(|c| c.load(Ordering::Relaxed)) {
                return Ok(stopped(Stop::Cancelled, counts, best.len()));
            }
            let seconds = began.elapsed().as_secs_f64();
            if limits.time.is_some_and(|t| seconds >= t.as_secs_f64()) {
                return Ok(stopped(Stop::TimeLimit, counts, best.len()));
            }
            tick(&search::Progress::Tick { expanded: counts.expanded, stored: best.len() as u64, seconds });
        }
        for dir in order {
            if came.is_some_and(|c| c.opposite() == dir) {
                continue;
            }
            let Some(from) = board.step(state.blank(), dir) else { continue };
            let tile = state.tiles()[from];
            let mut child = state;
            child.move_blank(dir);
            if best.get(&child).is_some_and(|&known| known <= g + 1) {
                continue;
            }
            if limits.memory.is_some_and(|m| (nodes.len() as u64 + 1) * NODE_BYTES > m) {
                return Ok(stopped(Stop::MemoryLimit, counts, best.len()));
            }
            let h = solver.estimate(&child);
            counts.generated += 1;
            best.insert(child, g + 1);
            open.push(Reverse((g + 1 + h, h, nodes.len())));
            nodes.push(Node { state: child, parent: i, tile, g: g + 1, came: Some(dir) });
        }
    }
    anyhow::bail!("internal error: textbook A* found no path from a solvable position; please report this")
}
