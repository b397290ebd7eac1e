//! Sliding tiles as a [`search::Puzzle`], so that the generic algorithms (BFS, bidirectional BFS, A*, IDA*,
//! greedy) solve any board this crate knows.
//!
//! The search state is a packed [`Key`]: a `u64` of 4 bits a cell on boards of up to 16 cells ([`State::pack`]),
//! a `u128` of 5 bits a cell on larger ones ([`State::pack_wide`]). Either is hashed in a multiply or two, and
//! successors move one tile's bits in place, with no unpacking; only the heuristic sees a [`State`], since the
//! callers' estimates (Manhattan, linear conflict, a pattern database) are written for it.

use std::fmt::Debug;
use std::hash::Hash;

use crate::board::{Board, MAX_CELLS};
use crate::heuristic::LinearConflict;
use crate::state::{State, PACK_CELLS};

/// A packed position: `BITS` bits a cell, cell 0 lowest, for boards of at most `CELLS` cells.
pub trait Key: Copy + Eq + Hash + Debug {
    /// Bits a cell.
    const BITS: u32;
    /// The most cells a key holds.
    const CELLS: usize;
    /// The tile on `cell`.
    fn tile(self, cell: usize) -> u8;
    /// The key with the tile on `from` slid to the blank on `blank`.
    fn slide(self, from: usize, blank: usize) -> Self;
    /// `state` packed; its board has at most `CELLS` cells.
    fn of(state: &State) -> Self;
    /// The position `self` stands for on `board`; `None` if it is not one of the board's.
    fn state(self, board: Board) -> Option<State>;
}

impl Key for u64 {
    const BITS: u32 = 4;
    const CELLS: usize = PACK_CELLS;
    #[inline]
    fn tile(self, cell: usize) -> u8 {
        (self >> (4 * cell) & 0xF) as u8
    }
    #[inline]
    fn slide(self, from: usize, blank: usize) -> Self {
        // The blank's bits are zero: write the tile there and clear its old cell.
        self & !(0xF << (4 * from)) | (self >> (4 * from) & 0xF) << (4 * blank)
    }
    fn of(state: &State) -> Self {
        state.pack()
    }
    fn state(self, board: Board) -> Option<State> {
        State::unpack(board, self)
    }
}

impl Key for u128 {
    const BITS: u32 = 5;
    const CELLS: usize = MAX_CELLS;
    #[inline]
    fn tile(self, cell: usize) -> u8 {
        (self >> (5 * cell) & 0x1F) as u8
    }
    #[inline]
    fn slide(self, from: usize, blank: usize) -> Self {
        self & !(0x1F << (5 * from)) | (self >> (5 * from) & 0x1F) << (5 * blank)
    }
    fn of(state: &State) -> Self {
        state.pack_wide()
    }
    fn state(self, board: Board) -> Option<State> {
        State::unpack_wide(board, self)
    }
}

/// A board's sliding-tile puzzle with heuristic `H` over keys `K` (`u64` up to 16 cells, `u128` beyond).
/// Moves are the tiles slid, as [`State::replay`] takes.
pub struct TilePuzzle<H, K = u64> {
    board: Board,
    goal: K,
    /// `neighbors[cell]`: the cells next to `cell`, in [`crate::Dir::ALL`] order.
    neighbors: [Vec<u8>; MAX_CELLS],
    heuristic: H,
}

/// A board has more cells than the key type holds: 4x5, 5x5 and the like need `u128` keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("a {board} board does not fit a {bits}-bit key; use 128-bit keys")]
pub struct TooWide {
    /// The board asked for.
    pub board: Board,
    /// The key's width in bits.
    pub bits: u32,
}

impl<H: Fn(&State) -> u32, K: Key> TilePuzzle<H, K> {
    /// The puzzle on `board` with `heuristic`, which must be admissible for the optimal algorithms; an error
    /// if `board` has more cells than a `K` holds.
    pub fn new(board: Board, heuristic: H) -> Result<Self, TooWide> {
        if board.cells() > K::CELLS {
            return Err(TooWide { board, bits: K::BITS * K::CELLS as u32 });
        }
        let neighbors = std::array::from_fn(|c| {
            if c < board.cells() {
                board.neighbors(c).map(|n| n as u8).collect()
            } else {
                Vec::new()
            }
        });
        Ok(TilePuzzle { board, goal: K::of(&State::goal(board)), neighbors, heuristic })
    }

    /// The board its states are of.
    pub fn board(&self) -> Board {
        self.board
    }

    /// The position a packed state stands for; `None` if `packed` is not one of this board's.
    pub fn state(&self, packed: K) -> Option<State> {
        packed.state(self.board)
    }
}

/// Blind search on a board of at most 16 cells: h = 0 (what BFS effectively uses).
pub fn blind(board: Board) -> Result<TilePuzzle<impl Fn(&State) -> u32>, TooWide> {
    TilePuzzle::new(board, |_: &State| 0)
}

/// The Manhattan distance, on a board of at most 16 cells.
pub fn manhattan(board: Board) -> Result<TilePuzzle<impl Fn(&State) -> u32>, TooWide> {
    TilePuzzle::new(board, |s: &State| s.manhattan())
}

/// Manhattan distance plus linear conflict, on a board of at most 16 cells.
pub fn linear_conflict(board: Board) -> Result<TilePuzzle<impl Fn(&State) -> u32>, TooWide> {
    let lc = LinearConflict::new(board);
    TilePuzzle::new(board, move |s: &State| lc.evaluate(s))
}

impl<H: Fn(&State) -> u32, K: Key> search::Puzzle for TilePuzzle<H, K> {
    type State = K;
    type Move = u8;

    #[inline]
    fn successors(&self, &state: &K, mut visit: impl FnMut(u8, K)) {
        let Some(b) = (0..self.board.cells()).find(|&c| state.tile(c) == 0) else { return };
        for &n in &self.neighbors[b] {
            let n = n as usize;
            visit(state.tile(n), state.slide(n, b));
        }
    }

    fn is_goal(&self, state: &K) -> bool {
        *state == self.goal
    }

    /// The caller's heuristic; a packed value that is no position of this board gets 0.
    fn heuristic(&self, &state: &K) -> u32 {
        self.state(state).map_or(0, |s| (self.heuristic)(&s))
    }

    fn goal(&self) -> Option<K> {
        Some(self.goal)
    }

    /// The parity rule ([`State::is_solvable`]); a packed value that is no position of this board can
    /// reach no goal either.
    fn unsolvable(&self, &state: &K) -> bool {
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
        let p = manhattan(board).unwrap();
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
