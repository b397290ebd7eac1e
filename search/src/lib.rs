//! Generic minimum-step search. A puzzle implements [`Puzzle`]; the algorithms return an optimal move
//! sequence (or a proof that there is none) with statistics. The library never prints: progress goes
//! through a callback, and limits stop any algorithm cleanly.

use std::fmt::Debug;
use std::hash::Hash;

/// A puzzle whose moves all cost one.
///
/// States are stored by the thousands or millions: make them small and cheap to hash (a packed integer).
pub trait Puzzle {
    /// A position.
    type State: Clone + Eq + Hash + Debug;
    /// A move, as solutions report it.
    type Move: Clone + Debug + PartialEq;

    /// Calls `visit(move, next)` for every position one move from `state`, always in the same order.
    fn successors(&self, state: &Self::State, visit: impl FnMut(Self::Move, Self::State));

    /// Whether `state` is solved.
    fn is_goal(&self, state: &Self::State) -> bool;

    /// An admissible estimate of the moves left: never more than the true fewest. 0 when there is none.
    fn heuristic(&self, _state: &Self::State) -> u32 {
        0
    }

    /// The representative of `state`'s class under the puzzle's symmetries (e.g. tubes in sorted order):
    /// positions of one class must have the same distance to a goal. The algorithms store and compare only
    /// representatives, and translate a solution back into moves from the real start.
    fn canonical(&self, state: &Self::State) -> Self::State {
        state.clone()
    }

    /// The one goal position, for puzzles that have exactly one and whose every move can be undone by a
    /// move; bidirectional search needs both, and refuses a puzzle without them.
    fn goal(&self) -> Option<Self::State> {
        None
    }

    /// A cheap proof that no goal can be reached from `state` (a parity argument, say); `false` when it
    /// cannot tell.
    fn unsolvable(&self, _state: &Self::State) -> bool {
        false
    }
}
