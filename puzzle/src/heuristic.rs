//! Manhattan distance and linear conflict, from scratch and line by line.
//!
//! Linear conflict, the standard admissible form: in each row (column), the tiles whose home is in that row
//! (column) must, to reach home, pass each other if they stand in the wrong order; at least
//! `count - longest increasing run of their home order` of them must leave the line and come back, two extra
//! moves each. Rows and columns count independently of each other and of the Manhattan distance.
//!
//! A line's conflicts depend only on which of its own tiles stand where in it, so they are tabulated by a
//! key of 3 bits a cell: the search recomputes the two lines a move touches with a few loads.

use crate::board::{Board, MAX_CELLS};
use crate::state::State;

/// One row or column: its cells in order, and for every tile its code in this line (home index within
/// the line, or `len` for tiles that live elsewhere and for the blank).
#[derive(Clone, Debug)]
pub struct Line {
    /// The line's cells, top to bottom or left to right.
    pub cells: Vec<u8>,
    /// By tile: its home index within the line, or the line's length for the blank and for tiles whose home
    /// is elsewhere.
    pub code: [u8; MAX_CELLS],
    table: Vec<u8>,
}

/// Bits a cell in a line key.
pub const KEY_BITS: usize = 3;
const MAX_TABLE_LEN: usize = 7;

impl Line {
    fn new(board: Board, cells: Vec<u8>) -> Line {
        let len = cells.len();
        let mut code = [len as u8; MAX_CELLS];
        for (i, &c) in cells.iter().enumerate() {
            if c != 0 {
                code[c as usize] = i as u8; // tile c's home is cell c
            }
        }
        let _ = board;
        let table = if len <= MAX_TABLE_LEN {
            (0..1usize << (KEY_BITS * len))
                .map(|key| {
                    let codes: Vec<u8> = (0..len).map(|j| (key >> (KEY_BITS * j) & 7) as u8).collect();
                    conflicts(&codes, len as u8)
                })
                .collect()
        } else {
            Vec::new()
        };
        Line { cells, code, table }
    }

    /// Key of the line's contents, `tile_at(cell)` giving the tile on a cell.
    #[inline]
    fn key(&self, tile_at: impl Fn(usize) -> u8) -> usize {
        self.cells
            .iter()
            .enumerate()
            .fold(0, |k, (j, &c)| k | (self.code[tile_at(c as usize) as usize] as usize) << (KEY_BITS * j))
    }

    /// Tiles that must leave the line, for the contents `tile_at`.
    #[inline]
    pub fn conflicts(&self, tile_at: impl Fn(usize) -> u8) -> u8 {
        if self.table.is_empty() {
            let codes: Vec<u8> = self.cells.iter().map(|&c| self.code[tile_at(c as usize) as usize]).collect();
            conflicts(&codes, self.cells.len() as u8)
        } else {
            self.table[self.key(tile_at)]
        }
    }

    /// Tabulated conflicts of a key (lines of at most 7 cells).
    #[cfg(test)]
    fn by_key(&self, key: usize) -> u8 {
        self.table[key]
    }

    #[cfg(test)]
    fn has_table(&self) -> bool {
        !self.table.is_empty()
    }
}

/// Number of tiles (codes below `none`) that are not in the longest increasing subsequence.
fn conflicts(codes: &[u8], none: u8) -> u8 {
    let own: Vec<u8> = codes.iter().copied().filter(|&c| c < none).collect();
    let mut best = vec![1u8; own.len()];
    for i in 0..own.len() {
        for j in 0..i {
            if own[j] < own[i] {
                best[i] = best[i].max(best[j] + 1);
            }
        }
    }
    own.len() as u8 - best.iter().copied().max().unwrap_or(0)
}

/// The rows and columns of a board, rows first.
#[derive(Clone, Debug)]
pub struct LinearConflict {
    /// The board the lines are of.
    pub board: Board,
    /// Rows, then columns.
    pub lines: Vec<Line>,
}

impl LinearConflict {
    /// Every row and column of `board`, with their conflict tables.
    pub fn new(board: Board) -> LinearConflict {
        let (r, c) = (board.rows(), board.cols());
        let rows = (0..r).map(|i| Line::new(board, (0..c).map(|j| (i * c + j) as u8).collect()));
        let cols = (0..c).map(|j| Line::new(board, (0..r).map(|i| (i * c + j) as u8).collect()));
        LinearConflict { board, lines: rows.chain(cols).collect() }
    }

    /// Index of the row line of `cell`.
    pub fn row_line(&self, cell: usize) -> usize {
        self.board.row(cell)
    }

    /// Index of the column line of `cell`.
    pub fn col_line(&self, cell: usize) -> usize {
        self.board.rows() + self.board.col(cell)
    }

    /// Total tiles that must leave their line, over all lines.
    pub fn conflicts(&self, state: &State) -> u32 {
        let tiles = state.tiles();
        self.lines.iter().map(|l| l.conflicts(|c| tiles[c]) as u32).sum()
    }

    /// Manhattan distance plus linear conflict, from scratch.
    pub fn evaluate(&self, state: &State) -> u32 {
        state.manhattan() + 2 * self.conflicts(state)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::instance::{parse_tiles, Goal};

    #[test]
    fn counts_known_conflicts() {
        assert_eq!(conflicts(&[1, 0, 4, 4], 4), 1);
        assert_eq!(conflicts(&[3, 2, 1, 0], 4), 3);
        assert_eq!(conflicts(&[0, 4, 2, 1], 4), 1);
        let lc = LinearConflict::new(Board::FOUR);
        let goal = State::goal(Board::FOUR);
        assert_eq!(lc.evaluate(&goal), 0);
        // Tiles 1 and 2 swapped in the top row, 4 and 5 in the next: one conflict in each row.
        let s = parse_tiles(Board::FOUR, Goal::BlankFirst, "0 2 1 3 5 4 6 7 8 9 10 11 12 13 14 15").unwrap();
        assert_eq!(lc.conflicts(&s), 2);
        assert_eq!(lc.evaluate(&s), 4 + 4);
    }

    #[test]
    fn table_agrees_with_direct_count() {
        let lc = LinearConflict::new("2x8".parse().unwrap());
        assert!(lc.lines[0].table.is_empty() && lc.lines[2].has_table());
        let lc4 = LinearConflict::new(Board::FOUR);
        for key in 0..1usize << 12 {
            let codes: Vec<u8> = (0..4).map(|j| (key >> (3 * j) & 7) as u8).collect();
            assert_eq!(lc4.lines[0].by_key(key), conflicts(&codes, 4));
        }
    }
}
