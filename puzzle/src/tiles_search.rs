//! Sliding tiles as a [`search::Puzzle`], so that the generic algorithms (BFS, bidirectional BFS, A*, IDA*,
//! greedy) solve any board this crate knows.
//!
//! The search state is the packed `u64` ([`State::pack`]): 8 bytes, hashed in one multiply. Successors
//! swap two nibbles in place, with no unpacking; only the heuristic sees a [`State`], since the callers'
//! estimates (Manhattan, linear conflict, a pattern database) are written for it.

use crate::board::{Board, MAX_CELLS};
use crate::heuristic::LinearConflict;
use crate::state::State;

/// A board's sliding-tile puzzle with heuristic `H`. Moves are the tiles slid, as [`State::replay`] takes.
pub struct TilePuzzle<H> {
    board: Board,
    goal: u64,
    /// `neighbors[cell]`: the cells next to `cell`, in [`crate::Dir::ALL`] order.
    neighbors: [Vec<u8>; MAX_CELLS],
    heuristic: H,
}

impl<H: Fn(&State) -> u32> TilePuzzle<H> {
    /// The puzzle on `board` with `heuristic`, which must be admissible for the optimal algorithms.
    pub fn new(board: Board, heuristic: H) -> Self {
        let neighbors = std::array::from_fn(|c| {
            if c < board.cells() {
                board.neighbors(c).map(|n| n as u8).collect()
            } else {
                Vec::new()
            }
        });
        TilePuzzle { board, goal: State::goal(board).pack(), neighbors, heuristic }
    }

    /// The board its states are of.
    pub fn board(&self) -> Board {
        self.board
    }

    /// The position a packed state stands for; `None` if `packed` is not one of this board's.
    pub fn state(&self, packed: u64) -> Option<State> {
        let mut tiles = [0u8; MAX_CELLS];
        for (c, t) in tiles.iter_mut().enumerate().take(self.board.cells()) {
            *t = (packed >> (4 * c) & 0xF) as u8;
        }
        let beyond = packed.checked_shr(4 * self.board.cells() as u32).unwrap_or(0);
        if beyond != 0 {
            return None;
        }
        State::from_tiles(self.board, &tiles[..self.board.cells()])
    }
}

/// Blind search: h = 0 (what BFS effectively uses).
pub fn blind(board: Board) -> TilePuzzle<impl Fn(&State) -> u32> {
    TilePuzzle::new(board, |_: &State| 0)
}

/// The Manhattan distance.
pub fn manhattan(board: Board) -> TilePuzzle<impl Fn(&State) -> u32> {
    TilePuzzle::new(board, |s: &State| s.manhattan())
}

/// Manhattan distance plus linear conflict.
pub fn linear_conflict(board: Board) -> TilePuzzle<impl Fn(&State) -> u32> {
    let lc = LinearConflict::new(board);
    TilePuzzle::new(board, move |s: &State| lc.evaluate(s))
}

/// The cell of the blank (the zero nibble) in a packed state of `cells` cells.
#[inline]
fn blank(packed: u64, cells: usize) -> Option<usize> {
    (0..cells).find(|&c| packed >> (4 * c) & 0xF == 0)
}

impl<H: Fn(&State) -> u32> search::Puzzle for TilePuzzle<H> {
    type State = u64;
    type Move = u8;

    #[inline]
    fn successors(&self, &state: &u64, mut visit: impl FnMut(u8, u64)) {
        let Some(b) = blank(state, self.board.cells()) else { return };
        for &n in &self.neighbors[b] {
            let tile = state >> (4 * n) & 0xF;
            // The blank's nibble is zero: write the tile there and clear its old cell.
            visit(tile as u8, state & !(0xF << (4 * n)) | tile << (4 * b));
        }
    }

    fn is_goal(&self, &state: &u64) -> bool {
        state == self.goal
    }

    /// The caller's heuristic; a packed value that is no position of this board gets 0.
    fn heuristic(&self, &state: &u64) -> u32 {
        self.state(state).map_or(0, |s| (self.heuristic)(&s))
    }

    fn goal(&self) -> Option<u64> {
        Some(self.goal)
    }

    /// The parity rule ([`State::is_solvable`]); a packed value that is no position of this board can
    /// reach no goal either.
    fn unsolvable(&self, &state: &u64) -> bool {
        self.state(state).is_none_or(|s| !s.is_solvable())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use search::Puzzle;

    #[test]
    fn successors_are_the_states_moves() {
        let board: Board = "2x3".parse().unwrap();
        let p = manhattan(board);
        let s = State::from_tiles(board, &[1, 0, 2, 3, 4, 5]).unwrap();
        let mut seen = Vec::new();
        p.successors(&s.pack(), |tile, next| {
            let mut t = s;
            assert!(t.move_tile(tile));
            assert_eq!(next, t.pack());
            seen.push(tile);
        });
        assert_eq!(seen, vec![4, 1, 2]);
        assert!(p.is_goal(&State::goal(board).pack()) && !p.is_goal(&s.pack()));
        assert_eq!(p.heuristic(&s.pack()), 1);
        assert_eq!(p.state(s.pack()), Some(s));
        assert_eq!(p.state(1 << 60), None);
        assert!(p.unsolvable(&(1 << 60)));
        assert!(p.unsolvable(&State::from_tiles(board, &[0, 2, 1, 3, 4, 5]).unwrap().pack()));
        assert!(!p.unsolvable(&s.pack()));
    }
}
