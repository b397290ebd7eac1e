//! Puzzle states, moves, solvability and solution replay.

use crate::board::{Board, Dir, MAX_CELLS};

/// Largest board [`State::pack`] takes: 4 bits a cell in a `u64`.
pub const PACK_CELLS: usize = 16;

/// A position: which tile stands on each cell (0 is the blank).
///
/// The search keeps its own packed copy; this type is the checked, convenient one that crosses API borders.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct State {
    board: Board,
    tiles: [u8; MAX_CELLS],
    blank: u8,
}

/// Where a move sequence went wrong when it was replayed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    /// A tile that cannot slide into the blank.
    #[error("move {index} (tile {tile}) is not next to the blank")]
    NotAdjacent {
        /// Which move, from 0.
        index: usize,
        /// The tile it names.
        tile: u8,
    },
    /// A tile number the board does not have.
    #[error("move {index}: there is no tile {tile} on a {board} board")]
    NoSuchTile {
        /// Which move, from 0.
        index: usize,
        /// The tile it names.
        tile: u8,
        /// The board replayed on.
        board: Board,
    },
    /// Every move legal, but the last position is not the goal: its Manhattan distance is given.
    #[error("the moves end {0} move{s} (Manhattan) away from the goal, not at it", s = if *.0 == 1 { "" } else { "s" })]
    NotAtGoal(u32),
}

impl State {
    /// The goal: blank on cell 0, tile `t` on cell `t`.
    pub fn goal(board: Board) -> State {
        let mut tiles = [0u8; MAX_CELLS];
        for (cell, t) in tiles.iter_mut().enumerate().take(board.cells()) {
            *t = cell as u8;
        }
        State { board, tiles, blank: 0 }
    }

    /// Builds a state from a permutation of `0..cells`; the caller (the parser) has checked that it is one.
    pub(crate) fn from_permutation(board: Board, perm: &[u8]) -> State {
        debug_assert_eq!(perm.len(), board.cells());
        let mut tiles = [0u8; MAX_CELLS];
        tiles[..perm.len()].copy_from_slice(perm);
        let blank = perm.iter().position(|&t| t == 0).expect("a permutation has a blank") as u8;
        State { board, tiles, blank }
    }

    /// The board the position is on.
    pub fn board(&self) -> Board {
        self.board
    }

    /// Tile on each cell, `board.cells()` long.
    pub fn tiles(&self) -> &[u8] {
        &self.tiles[..self.board.cells()]
    }

    /// The tiles in a fixed-size array (cells past the board hold 0): the form the search works on.
    pub fn tile_array(&self) -> [u8; MAX_CELLS] {
        self.tiles
    }

    /// The blank's cell, kept so that moves need not search for it.
    pub fn blank(&self) -> usize {
        self.blank as usize
    }

    /// Whether every tile is home (the internal goal: blank on cell 0, tile `t` on cell `t`).
    pub fn is_goal(&self) -> bool {
        self.tiles().iter().enumerate().all(|(c, &t)| c == t as usize)
    }

    /// The cell of every tile: `positions()[t]` is where tile `t` stands.
    pub fn positions(&self) -> [u8; MAX_CELLS] {
        let mut pos = [0u8; MAX_CELLS];
        for (cell, &t) in self.tiles().iter().enumerate() {
            pos[t as usize] = cell as u8;
        }
        pos
    }

    /// 4 bits a cell, cell 0 in the lowest nibble: the compact key for boards of up to [`PACK_CELLS`] cells
    /// (every board small enough to enumerate). Use [`State::pack_wide`] for any board.
    ///
    /// # Panics
    /// On a board of more than [`PACK_CELLS`] cells, whose tiles do not fit 4 bits: a caller's bug.
    pub fn pack(&self) -> u64 {
        assert!(self.board.cells() <= PACK_CELLS, "State::pack on a {} board; use pack_wide", self.board);
        self.tiles().iter().enumerate().fold(0u64, |acc, (c, &t)| acc | (t as u64) << (4 * c))
    }

    /// Inverse of [`State::pack`]; `None` if `packed` is not a permutation of the board's tiles or the
    /// board has more than [`PACK_CELLS`] cells.
    pub fn unpack(board: Board, packed: u64) -> Option<State> {
        (board.cells() <= PACK_CELLS).then_some(())?;
        let perm: Vec<u8> = (0..board.cells()).map(|c| (packed >> (4 * c) & 0xF) as u8).collect();
        (packed.checked_shr(4 * board.cells() as u32).unwrap_or(0) == 0).then_some(())?;
        State::from_tiles(board, &perm)
    }

    /// 5 bits a cell, cell 0 lowest: a key for every board (25 cells take 125 bits).
    pub fn pack_wide(&self) -> u128 {
        self.tiles().iter().enumerate().fold(0u128, |acc, (c, &t)| acc | (t as u128) << (5 * c))
    }

    /// Inverse of [`State::pack_wide`]; `None` if `packed` is not a permutation of the board's tiles.
    pub fn unpack_wide(board: Board, packed: u128) -> Option<State> {
        let perm: Vec<u8> = (0..board.cells()).map(|c| (packed >> (5 * c) & 0x1F) as u8).collect();
        (packed.checked_shr(5 * board.cells() as u32).unwrap_or(0) == 0).then_some(())?;
        State::from_tiles(board, &perm)
    }

    /// The state with `tiles[cell]` on each cell; `None` unless `tiles` is a permutation of the board's tiles.
    /// Solvability is not checked (see [`State::is_solvable`]).
    pub fn from_tiles(board: Board, tiles: &[u8]) -> Option<State> {
        let mut seen = 0u32;
        for &t in tiles {
            if t as usize >= board.cells() || seen & 1 << t != 0 {
                return None;
            }
            seen |= 1 << t;
        }
        (tiles.len() == board.cells()).then(|| State::from_permutation(board, tiles))
    }

    /// The parity rule: a move swaps the blank with a tile (one transposition) and moves the blank one cell,
    /// so a state is reachable iff its permutation parity equals the parity of the blank's distance from
    /// home. This form holds for every rectangular board.
    pub fn is_solvable(&self) -> bool {
        let n = self.board.cells();
        let mut seen = [false; MAX_CELLS];
        let mut transpositions = 0;
        for start in 0..n {
            let mut len = 0;
            let mut c = start;
            while !seen[c] {
                seen[c] = true;
                c = self.tiles[c] as usize;
                len += 1;
            }
            if len > 0 {
                transpositions += len - 1;
            }
        }
        transpositions % 2 == self.board.manhattan(0, self.blank()) as usize % 2
    }

    /// Sum of the tiles' Manhattan distances (the blank does not count).
    pub fn manhattan(&self) -> u32 {
        self.tiles()
            .iter()
            .enumerate()
            .filter(|&(_, &t)| t != 0)
            .map(|(c, &t)| self.board.manhattan(t as usize, c))
            .sum()
    }

    /// Moves the blank one step; `false` (and no change) if that leaves the board.
    pub fn move_blank(&mut self, dir: Dir) -> bool {
        match self.board.step(self.blank(), dir) {
            Some(to) => {
                self.tiles[self.blank()] = self.tiles[to];
                self.tiles[to] = 0;
                self.blank = to as u8;
                true
            }
            None => false,
        }
    }

    /// Slides `tile` into the blank; `false` (and no change) if it is not next to the blank.
    pub fn move_tile(&mut self, tile: u8) -> bool {
        let Some(from) = self.tiles().iter().position(|&t| t == tile) else { return false };
        match self.board.dir_between(self.blank(), from) {
            Some(dir) if tile != 0 => self.move_blank(dir),
            _ => false,
        }
    }

    /// Plays `moves` (tiles slid, in order) from this state and checks that they end at the goal. Every
    /// reported solution goes through this: a solver bug must never reach the user as a wrong answer.
    pub fn replay(&self, moves: &[u8]) -> Result<State, ReplayError> {
        let mut s = *self;
        for (index, &tile) in moves.iter().enumerate() {
            if tile == 0 || tile as usize >= self.board.cells() {
                return Err(ReplayError::NoSuchTile { index, tile, board: self.board });
            }
            if !s.move_tile(tile) {
                return Err(ReplayError::NotAdjacent { index, tile });
            }
        }
        if !s.is_goal() {
            return Err(ReplayError::NotAtGoal(s.manhattan()));
        }
        Ok(s)
    }

    /// The blank's directions for a sequence of tile moves (tiles must be legal from this state).
    pub fn blank_dirs(&self, moves: &[u8]) -> Vec<Dir> {
        let mut s = *self;
        moves
            .iter()
            .map(|&tile| {
                let from = s.tiles().iter().position(|&t| t == tile).expect("tile on board");
                let dir = self.board.dir_between(s.blank(), from).expect("move replayed before");
                s.move_blank(dir);
                dir
            })
            .collect()
    }

    /// The state reflected about the main diagonal (square boards): the tile on cell `c` goes to the
    /// transposed cell and is renamed to its transposed home. Distances to the goal are unchanged.
    pub fn transposed(&self) -> State {
        let b = self.board;
        let mut perm = [0u8; MAX_CELLS];
        for (c, &t) in self.tiles().iter().enumerate() {
            perm[b.transpose(c)] = b.transpose(t as usize) as u8;
        }
        State::from_permutation(b, &perm[..b.cells()])
    }
}

impl std::fmt::Display for State {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let words: Vec<String> = self.tiles().iter().map(|t| t.to_string()).collect();
        f.write_str(&words.join(" "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A random walk from the goal: always solvable, of known parity.
    fn walk(board: Board, dirs: &[u8]) -> State {
        let mut s = State::goal(board);
        for &d in dirs {
            s.move_blank(Dir::ALL[d as usize % 4]);
        }
        s
    }

    proptest! {
        #[test]
        fn pack_roundtrips(dirs in proptest::collection::vec(0u8..4, 0..200)) {
            let s = walk(Board::FOUR, &dirs);
            prop_assert_eq!(State::unpack(Board::FOUR, s.pack()), Some(s));
            prop_assert_eq!(State::unpack_wide(Board::FOUR, s.pack_wide()), Some(s));
            let five: Board = "5x5".parse().unwrap();
            let s = walk(five, &dirs);
            prop_assert_eq!(State::unpack_wide(five, s.pack_wide()), Some(s));
        }

        #[test]
        fn move_then_inverse_is_identity(dirs in proptest::collection::vec(0u8..4, 0..100), d in 0usize..4) {
            let s = walk(Board::FOUR, &dirs);
            let mut t = s;
            if t.move_blank(Dir::ALL[d]) {
                prop_assert!(t.move_blank(Dir::ALL[d].opposite()));
            }
            prop_assert_eq!(t, s);
        }

        #[test]
        fn walks_are_solvable_and_a_swap_is_not(dirs in proptest::collection::vec(0u8..4, 0..200), r in 2usize..6, c in 2usize..6) {
            let board = Board::new(r, c).unwrap();
            let s = walk(board, &dirs);
            prop_assert!(s.is_solvable());
            // Swapping two tiles flips the permutation parity and keeps the blank: unsolvable.
            let mut perm = s.tiles().to_vec();
            let (a, b) = if perm[0] == 0 || perm[1] == 0 { (2, 3) } else { (0, 1) };
            perm.swap(a, b);
            prop_assert!(!State::from_permutation(board, &perm).is_solvable());
            prop_assert!(!board.is_square() || s.transposed().is_solvable());
        }
    }

    #[test]
    fn from_tiles_takes_exactly_the_permutations() {
        let board: Board = "2x3".parse().unwrap();
        let s = State::from_tiles(board, &[1, 0, 2, 3, 4, 5]).unwrap();
        assert_eq!((s.blank(), s.tiles()), (1, &[1, 0, 2, 3, 4, 5][..]));
        assert_eq!(State::from_tiles(board, &[1, 1, 2, 3, 4, 5]), None, "a duplicate");
        assert_eq!(State::from_tiles(board, &[6, 0, 2, 3, 4, 5]), None, "out of range");
        assert_eq!(State::from_tiles(board, &[0, 1, 2, 3, 4]), None, "too short");
        assert_eq!(State::unpack(board, 0x1_0054_3210), None, "bits past the board");
        let five: Board = "5x5".parse().unwrap();
        assert_eq!(State::unpack(five, 0), None, "too big for 4 bits a cell");
        assert_eq!(State::unpack_wide(five, State::goal(five).pack_wide() | 1 << 125), None, "bits past the board");
        assert!(State::from_tiles(five, &(0..25).rev().collect::<Vec<u8>>()).is_some());
    }

    #[test]
    fn replay_checks_the_goal() {
        let mut s = State::goal(Board::FOUR);
        s.move_blank(Dir::Right);
        s.move_blank(Dir::Down);
        assert_eq!(s.replay(&[5, 1]).map(|g| g.is_goal()), Ok(true));
        assert_eq!(s.replay(&[5]), Err(ReplayError::NotAtGoal(1)));
        assert_eq!(
            ReplayError::NotAtGoal(1).to_string(),
            "the moves end 1 move (Manhattan) away from the goal, not at it"
        );
        assert_eq!(s.replay(&[15]), Err(ReplayError::NotAdjacent { index: 0, tile: 15 }));
        assert_eq!(s.replay(&[16]), Err(ReplayError::NoSuchTile { index: 0, tile: 16, board: Board::FOUR }));
        assert_eq!(s.blank_dirs(&[5, 1]), vec![Dir::Up, Dir::Left]);
    }
}
