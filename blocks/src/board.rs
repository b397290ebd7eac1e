//! Cells as bits of a `u64`: cell (row, col) is bit `8 * row + col` whatever the board's width, so a board
//! of up to 8x8 is one word, a step down is a shift by 8, a step right a shift by 1, and a piece's cells are
//! its shape's bits shifted to its top-left cell. That is the reason for the 8x8 limit.

/// The widest and tallest board: its cells must fit the 64 bits of a [`Cells`] word.
pub const MAX_SIDE: usize = 8;

/// A set of cells, bit `8 * row + col` for (row, col).
pub type Cells = u64;

/// Column 0 of every row: where a step right must not land (it would have wrapped from column 7).
const COL0: Cells = 0x0101_0101_0101_0101;
/// Column 7 of every row: where a step left must not land.
const COL7: Cells = COL0 << 7;

/// The bit index of (row, col).
pub fn cell(row: usize, col: usize) -> u8 {
    (8 * row + col) as u8
}

/// (row, col) of a bit index.
pub fn row_col(cell: u8) -> (usize, usize) {
    (cell as usize / 8, cell as usize % 8)
}

/// The cells of a `height` x `width` rectangle with its top-left at bit 0.
pub fn rectangle(height: usize, width: usize) -> Cells {
    let row = if width >= 8 { u8::MAX as Cells } else { (1 << width) - 1 };
    (0..height).fold(0, |cells, r| cells | row << (8 * r))
}

/// One of the four steps a piece can make, as solutions spell it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dir {
    /// Up: row - 1.
    Up,
    /// Down: row + 1.
    Down,
    /// Left: col - 1.
    Left,
    /// Right: col + 1.
    Right,
}

impl Dir {
    /// All four, in the order moves are generated.
    pub const ALL: [Dir; 4] = [Dir::Up, Dir::Down, Dir::Left, Dir::Right];

    /// The letter solutions write: `U`, `D`, `L`, `R`.
    pub fn letter(self) -> char {
        match self {
            Dir::Up => 'U',
            Dir::Down => 'D',
            Dir::Left => 'L',
            Dir::Right => 'R',
        }
    }

    /// Whether it moves along a row (left or right).
    pub fn horizontal(self) -> bool {
        matches!(self, Dir::Left | Dir::Right)
    }

    /// Every cell of `cells` moved one step this way; cells that would leave the 8-wide grid are dropped.
    #[inline]
    pub fn shift(self, cells: Cells) -> Cells {
        match self {
            Dir::Up => cells >> 8,
            Dir::Down => cells << 8,
            Dir::Left => (cells >> 1) & !COL7,
            Dir::Right => (cells << 1) & !COL0,
        }
    }
}

/// The top-left cells where a `height` x `width` piece lies wholly in `free`. Only meaningful inside the
/// caller's anchor mask (top-left cells whose rectangle stays on the board), which keeps the shifts below
/// from reading across a row's end.
#[inline]
pub fn fits(free: Cells, height: usize, width: usize) -> Cells {
    let mut row = free;
    for dc in 1..width {
        row &= free >> dc;
    }
    let mut all = row;
    for dr in 1..height {
        all &= row >> (8 * dr);
    }
    all
}

/// The cells of bits set in `cells`, lowest first.
pub fn bits(mut cells: Cells) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        (cells != 0).then(|| {
            let at = cells.trailing_zeros() as u8;
            cells &= cells - 1;
            at
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_and_shifts() {
        assert_eq!(rectangle(2, 2), 0b11 | 0b11 << 8);
        assert_eq!(rectangle(1, 8), 0xff);
        assert_eq!(Dir::Right.shift(1 << 7), 0, "no wrap from column 7 to the next row");
        assert_eq!(Dir::Left.shift(1 << 8), 0, "no wrap from column 0 to the row above");
        assert_eq!(Dir::Up.shift(1 << 3), 0);
        assert_eq!(bits(0b1010_0001).collect::<Vec<_>>(), [0, 5, 7]);
        // A 2x2 fits at (0,0) of an all-free 3x3 region, and not at (0,2) if column 3 is taken.
        let free = rectangle(3, 3);
        assert_eq!(fits(free, 2, 2) & rectangle(2, 2), rectangle(2, 2));
        assert_eq!(fits(free, 2, 2) & (1 << 2), 0);
    }
}
