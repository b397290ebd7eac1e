//! Board geometry: cells, neighbours, directions and the diagonal reflection.
//!
//! Cells are numbered row-major from the top-left corner. The goal is Korf's: the blank on cell 0 and tile `t`
//! on cell `t`, so a tile's number is also its home cell. Everything that builds or reads tables agrees on this
//! numbering, which is why it lives here and nowhere else.

use std::fmt;
use std::str::FromStr;

/// Most cells a board may have: 5x5, and every rectangle up to 25 cells (4x6, 3x8, 2x12, ...). Cell sets
/// fit a `u32` mask and a cell or tile number fits 5 bits; fixed-size arrays of this length hold positions.
pub const MAX_CELLS: usize = 25;

/// A direction the blank moves in. The tile moved goes the opposite way.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dir {
    /// To the cell above: one row back.
    Up,
    /// To the cell below: one row on.
    Down,
    /// To the previous cell in the row.
    Left,
    /// To the next cell in the row.
    Right,
}

impl Dir {
    /// Every direction, in the order move tables index them.
    pub const ALL: [Dir; 4] = [Dir::Up, Dir::Down, Dir::Left, Dir::Right];

    /// `U`, `D`, `L` or `R`, as solutions are written.
    pub fn letter(self) -> char {
        match self {
            Dir::Up => 'U',
            Dir::Down => 'D',
            Dir::Left => 'L',
            Dir::Right => 'R',
        }
    }

    /// The move that undoes this one.
    pub fn opposite(self) -> Dir {
        match self {
            Dir::Up => Dir::Down,
            Dir::Down => Dir::Up,
            Dir::Left => Dir::Right,
            Dir::Right => Dir::Left,
        }
    }
}

/// A board that cannot be read or is not supported.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    /// Not `RxC`.
    #[error("board '{0}' is not of the form RxC (e.g. 4x4, 5x5, 2x3)")]
    Syntax(String),
    /// A single row or column: the tiles could only shift along it, never reorder.
    #[error("board {rows}x{cols} is too narrow: supported boards have at least 2 rows and 2 columns")]
    TooNarrow {
        /// Rows asked for.
        rows: usize,
        /// Columns asked for.
        cols: usize,
    },
    /// More than [`MAX_CELLS`] cells.
    #[error(
        "board {rows}x{cols} is too large: supported boards have at most {MAX_CELLS} cells (5x5, 4x6, 3x8, 2x12, ...)"
    )]
    TooLarge {
        /// Rows asked for.
        rows: usize,
        /// Columns asked for.
        cols: usize,
    },
}

/// A rectangular board of `rows` x `cols` cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    rows: u8,
    cols: u8,
}

impl Board {
    /// The 15-puzzle's board, the default everywhere.
    pub const FOUR: Board = Board { rows: 4, cols: 4 };

    /// A board of `rows` x `cols`, if supported: at least 2x2, at most [`MAX_CELLS`] cells.
    pub fn new(rows: usize, cols: usize) -> Result<Board, BoardError> {
        if rows < 2 || cols < 2 {
            return Err(BoardError::TooNarrow { rows, cols });
        }
        // Checked: sides parsed from user input may multiply past `usize` and wrap to a small count.
        if rows.checked_mul(cols).is_none_or(|cells| cells > MAX_CELLS) {
            return Err(BoardError::TooLarge { rows, cols });
        }
        Ok(Board { rows: rows as u8, cols: cols as u8 })
    }

    /// The number of rows.
    pub fn rows(self) -> usize {
        self.rows as usize
    }

    /// The number of columns: a row's length, cells being numbered row by row.
    pub fn cols(self) -> usize {
        self.cols as usize
    }

    /// The number of cells, the blank's included: tiles are 1 to `cells - 1`.
    pub fn cells(self) -> usize {
        self.rows() * self.cols()
    }

    /// The row of `cell`, from 0 at the top.
    pub fn row(self, cell: usize) -> usize {
        cell / self.cols()
    }

    /// The column of `cell`, from 0 at the left.
    pub fn col(self, cell: usize) -> usize {
        cell % self.cols()
    }

    /// Whether the board has the diagonal reflection that reflected table lookups use.
    pub fn is_square(self) -> bool {
        self.rows == self.cols
    }

    /// The cell the blank reaches from `cell` going `dir`, if it stays on the board.
    pub fn step(self, cell: usize, dir: Dir) -> Option<usize> {
        let (r, c) = (self.row(cell), self.col(cell));
        match dir {
            Dir::Up if r > 0 => Some(cell - self.cols()),
            Dir::Down if r + 1 < self.rows() => Some(cell + self.cols()),
            Dir::Left if c > 0 => Some(cell - 1),
            Dir::Right if c + 1 < self.cols() => Some(cell + 1),
            _ => None,
        }
    }

    /// The direction that takes the blank from `from` to the adjacent cell `to`.
    pub fn dir_between(self, from: usize, to: usize) -> Option<Dir> {
        Dir::ALL.into_iter().find(|&d| self.step(from, d) == Some(to))
    }

    /// Neighbouring cells of `cell`, in `Dir::ALL` order.
    pub fn neighbors(self, cell: usize) -> impl Iterator<Item = usize> {
        Dir::ALL.into_iter().filter_map(move |d| self.step(cell, d))
    }

    /// Manhattan distance of a tile from its home cell (the tile's number) when it stands on `cell`.
    pub fn manhattan(self, tile: usize, cell: usize) -> u32 {
        (self.row(tile).abs_diff(self.row(cell)) + self.col(tile).abs_diff(self.col(cell))) as u32
    }

    /// Reflection about the main diagonal: cell (r, c) goes to (c, r). Only square boards have it; it maps
    /// the goal onto itself once tiles are relabelled by the same map (a tile's number is its home cell).
    pub fn transpose(self, cell: usize) -> usize {
        debug_assert!(self.is_square());
        self.col(cell) * self.cols() + self.row(cell)
    }
}

impl FromStr for Board {
    type Err = BoardError;

    fn from_str(s: &str) -> Result<Board, BoardError> {
        let syntax = || BoardError::Syntax(s.to_string());
        let (r, c) = s.trim().split_once(['x', 'X']).ok_or_else(syntax)?;
        let rows = r.parse().map_err(|_| syntax())?;
        let cols = c.parse().map_err(|_| syntax())?;
        Board::new(rows, cols)
    }
}

impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.rows, self.cols)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_rejects_boards() {
        assert_eq!("4x4".parse::<Board>().unwrap(), Board::FOUR);
        assert_eq!("2x3".parse::<Board>().unwrap().cells(), 6);
        assert_eq!("5x5".parse::<Board>().unwrap().cells(), 25);
        assert_eq!("2x12".parse::<Board>().unwrap().cells(), 24);
        assert!(matches!("5x6".parse::<Board>(), Err(BoardError::TooLarge { .. })));
        assert!(matches!("2x13".parse::<Board>(), Err(BoardError::TooLarge { .. })));
        // 2^32 x 2^32 cells is 2^64, which would wrap to 0 unchecked.
        assert!(matches!("4294967296x4294967296".parse::<Board>(), Err(BoardError::TooLarge { .. })));
        assert!(matches!("1x4".parse::<Board>(), Err(BoardError::TooNarrow { .. })));
        assert!(matches!("4x0".parse::<Board>(), Err(BoardError::TooNarrow { .. })));
        assert!(matches!("44".parse::<Board>(), Err(BoardError::Syntax(_))));
    }

    #[test]
    fn steps_stay_on_board_and_invert() {
        let b: Board = "3x4".parse().unwrap();
        for cell in 0..b.cells() {
            for d in Dir::ALL {
                if let Some(n) = b.step(cell, d) {
                    assert_eq!(b.step(n, d.opposite()), Some(cell));
                    assert_eq!(b.manhattan(cell, n), 1);
                }
            }
        }
        assert_eq!(b.neighbors(0).count(), 2);
        assert_eq!(b.neighbors(5).count(), 4);
    }

    #[test]
    fn transpose_is_an_involution() {
        let b = Board::FOUR;
        for cell in 0..16 {
            assert_eq!(b.transpose(b.transpose(cell)), cell);
        }
        assert_eq!(b.transpose(1), 4);
        assert_eq!(b.transpose(7), 13);
        let five: Board = "5x5".parse().unwrap();
        assert_eq!((five.transpose(1), five.transpose(7), five.transpose(24)), (5, 11, 24));
    }
}
