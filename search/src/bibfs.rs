//! Bidirectional breadth-first search: one search forward from the start, one backward from the goal,
//! each a whole layer at a time, always the side whose next layer to expand is the smaller.
//!
//! Moves are reversible, so the backward successors of a state are its ordinary successors, and a path
//! found backward is replayed forward like any other (see [`crate::path`]).
//!
//! Why the first meeting is already a shortest path: say the forward store holds exactly the states at
//! distance `0..=f` from the start and the backward one those at `0..=b` from the goal, with no state in
//! both. Then every path is longer than `f + b` (on a path of at most `f + b` moves, the state `f` moves
//! from the start, or the goal if sooner, would be in both). Expanding the forward layer `f`, a generated
//! state found in the backward store joins a path of `f + 1 + (its distance) <= f + 1 + b` moves, which is
//! at least the shortest, `f + b + 1`: so it is exactly the shortest, and the rest of the layer need not be
//! looked at for a better join (there is none). This holds because every generated state is checked
//! against *complete* layers of the other side; checking frontiers only, or alternating state by state,
//! is what breaks the classic versions. The tests compare every 2x3 position and a 3x3 sample of odd and
//! even lengths with the exhaustive distances.

use crate::bfs::{expand_layer, plant};
use crate::guard::Guard;
use crate::path;
use crate::store::Store;
use crate::{Limits, Outcome, Progress, Puzzle, Report, SearchError, Stop};
use std::ops::Range;

/// One direction of the search: its states and its last complete layer.
struct Side<S> {
    store: Store<S>,
    layer: Range<u32>,
    depth: u32,
}

/// The fewest moves from `start` to [`Puzzle::goal`], or a proof that there is none.
/// [`SearchError::NeedsGoal`] if the puzzle has no single goal.
///
/// # Example
///
/// ```
/// # include!("../doc/steps.rs"); // `Steps`, the crate's example: 0 to 10 in steps of 1 or 3
/// # fn main() {
/// use search::{bibfs, Limits, Outcome};
/// let report = bibfs(&Steps, &0, &Limits::default(), &mut |_| {}).unwrap();
/// assert!(matches!(report.outcome, Outcome::Solved(moves) if moves.len() == 4));
/// # }
/// ```
pub fn bibfs<P: Puzzle>(
    puzzle: &P,
    start: &P::State,
    limits: &Limits,
    progress: &mut dyn FnMut(&Progress),
) -> Result<Report<P::Move>, SearchError> {
    let goal = puzzle.goal().ok_or(SearchError::NeedsGoal)?;
    let mut guard = Guard::new(limits, progress);
    if puzzle.unsolvable(start) {
        return Ok(guard.finish(Outcome::Unsolvable));
    }
    let mut sides =
        [Side { store: Store::new(), layer: 0..1, depth: 0 }, Side { store: Store::new(), layer: 0..1, depth: 0 }];
    let outcome = match search(puzzle, [puzzle.canonical(start), puzzle.canonical(&goal)], &mut sides, &mut guard) {
        Ok(Some(joined)) => Outcome::Solved(path::moves(puzzle, start, &joined)?),
        Ok(None) => Outcome::Unsolvable,
        Err(stop) => Outcome::Stopped(stop),
    };
    Ok(guard.finish(outcome))
}

/// The representatives along a shortest path from the start to the goal, or `None` when one side ran out
/// of states (its component holds no state of the other's).
fn search<P: Puzzle>(
    puzzle: &P,
    roots: [P::State; 2],
    sides: &mut [Side<P::State>; 2],
    guard: &mut Guard,
) -> Result<Option<Vec<P::State>>, Stop> {
    let [start, goal] = roots;
    let start_is_goal = start == goal;
    plant(&mut sides[0].store, start, 0, guard)?;
    if start_is_goal {
        return Ok(Some(sides[0].store.path(0)));
    }
    plant(&mut sides[1].store, goal, 1, guard)?;
    let mut children = Vec::new();
    loop {
        // The forward side on a tie: its layers are counted from the start the user cares about.
        let back = sides[1].layer.len() < sides[0].layer.len();
        let [forward, backward] = sides;
        let (this, other) = if back { (backward, &*forward) } else { (forward, &*backward) };
        if this.layer.is_empty() {
            return Ok(None);
        }
        let others = other.store.len() as u64;
        let hit = |s: &P::State| other.store.id(s).is_some();
        let met = expand_layer(puzzle, &mut this.store, this.layer.clone(), others, guard, &mut children, hit)?;
        if let Some(id) = met {
            let mut here = this.store.path(id);
            let meet = other.store.id(this.store.state(id)).unwrap_or_default();
            let mut there = other.store.path(meet);
            there.pop(); // the meeting state, already ending `here`
            there.reverse();
            here.append(&mut there);
            if back {
                here.reverse();
            }
            return Ok(Some(here));
        }
        this.layer = this.layer.end..this.store.len();
        this.depth += 1;
        let [f, b] = &*sides;
        guard.depth(f.depth + b.depth, f.store.len() as u64 + b.store.len() as u64);
    }
}
