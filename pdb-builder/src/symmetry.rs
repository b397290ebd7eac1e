//! Tables that are images of each other under a symmetry of the board, made by relabelling instead of a BFS.
//!
//! A reflection or rotation `s` of the board maps moves to moves and keeps Manhattan distances (a tile's home
//! is its number, and `s` moves homes and cells alike). So if pattern `Q` is `s` applied to pattern `P`, the
//! pattern moves that bring a placement of `Q` home are `s` of those that bring the preimage placement of `P`
//! home, and the two entries are equal, excess included. One condition: a table's goal puts the blank in
//! the region of cell 0, which `s` may move; when each pattern's home placement leaves all its free cells
//! connected, that region is every free cell and the goals correspond. Korf and Felner's 5x5 blocks
//! {3,4,8,9,13,14}, {10,11,15,16,20,21} and {17,18,19,22,23,24} are rotations of each other: one BFS, two
//! relabellings.

use puzzle::{Board, Pattern};

/// A symmetry of the board: optionally transpose (square boards), then optionally flip rows and columns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Symmetry {
    transpose: bool,
    flip_rows: bool,
    flip_cols: bool,
}

impl Symmetry {
    /// Every symmetry of `board` but the identity: 3 on a rectangle, 7 on a square.
    fn all(board: Board) -> impl Iterator<Item = Symmetry> {
        let transposes: &[bool] = if board.is_square() { &[false, true] } else { &[false] };
        transposes.iter().flat_map(|&transpose| {
            [(false, false), (false, true), (true, false), (true, true)].into_iter().filter_map(
                move |(flip_rows, flip_cols)| {
                    (transpose || flip_rows || flip_cols).then_some(Symmetry { transpose, flip_rows, flip_cols })
                },
            )
        })
    }

    /// Where `cell` goes.
    pub fn apply(self, board: Board, cell: usize) -> usize {
        let (mut r, mut c) = (board.row(cell), board.col(cell));
        if self.transpose {
            (r, c) = (c, r);
        }
        if self.flip_rows {
            r = board.rows() - 1 - r;
        }
        if self.flip_cols {
            c = board.cols() - 1 - c;
        }
        r * board.cols() + c
    }
}

/// Whether the free cells of `pattern`'s home placement form one region (see the module notes).
fn home_leaves_one_region(board: Board, pattern: &Pattern) -> bool {
    let taken: u32 = pattern.tiles().iter().fold(0, |m, &t| m | 1 << t);
    let free = ((1u64 << board.cells()) - 1) as u32 & !taken;
    let mut region = 1u32 << free.trailing_zeros();
    loop {
        let grown = (0..board.cells())
            .filter(|&c| region & 1 << c != 0)
            .flat_map(|c| board.neighbors(c))
            .fold(region, |m, n| m | 1 << n)
            & free;
        if grown == region {
            return region == free;
        }
        region = grown;
    }
}

/// A table among `sources` whose image under a symmetry of `board` is `pattern`'s: its index and the
/// symmetry taking its cells to `pattern`'s.
pub fn find_image(board: Board, pattern: &Pattern, sources: &[&Pattern]) -> Option<(usize, Symmetry)> {
    if !home_leaves_one_region(board, pattern) {
        return None;
    }
    let mut want = pattern.tiles().to_vec();
    want.sort_unstable();
    sources.iter().enumerate().find_map(|(i, src)| {
        if src.len() != pattern.len() || !home_leaves_one_region(board, src) {
            return None;
        }
        Symmetry::all(board).find_map(|s| {
            let mut image: Vec<u8> = src.tiles().iter().map(|&t| s.apply(board, t as usize) as u8).collect();
            image.sort_unstable();
            (image == want).then_some((i, s))
        })
    })
}

/// `pattern`'s excess bytes, in rank order, from `source`'s table (`excess_of(rank)`) when `s` takes
/// `source` to `pattern`. Ranks are relabelled in parallel runs of consecutive entries.
pub fn relabel(
    board: Board,
    pattern: &Pattern,
    source: &Pattern,
    s: Symmetry,
    excess_of: &(dyn Fn(u64) -> u8 + Sync),
    out: &mut [u8],
) {
    use rayon::prelude::*;
    let n = board.cells();
    let inverse: Vec<usize> = {
        let mut inv = vec![0; n];
        for c in 0..n {
            inv[s.apply(board, c)] = c;
        }
        inv
    };
    // Pattern tile i (ascending) is the image of source tile `from[i]`'s index in the source's order.
    let slot: Vec<usize> = pattern
        .tiles()
        .iter()
        .map(|&t| source.tiles().iter().position(|&u| u as usize == inverse[t as usize]).expect("an image"))
        .collect();
    let k = pattern.len();
    const CHUNK: usize = 1 << 16;
    out.par_chunks_mut(CHUNK).enumerate().for_each(|(chunk, out)| {
        let mut cells = [0u8; puzzle::rank::MAX_PATTERN_TILES];
        let mut src = [0u8; puzzle::rank::MAX_PATTERN_TILES];
        for (j, e) in out.iter_mut().enumerate() {
            let rank = (chunk * CHUNK + j) as u64;
            pattern.unrank(rank, &mut cells);
            for i in 0..k {
                src[slot[i]] = inverse[cells[i] as usize] as u8;
            }
            *e = excess_of(source.rank(&src[..k]));
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_korf_felner_corner_blocks_are_rotations_and_the_blank_corner_block_is_not() {
        let board: Board = "5x5".parse().unwrap();
        let p = |t: &[u8]| Pattern::new(25, t);
        let (a, b, c, d) = (
            p(&[1, 2, 5, 6, 7, 12]),
            p(&[3, 4, 8, 9, 13, 14]),
            p(&[10, 11, 15, 16, 20, 21]),
            p(&[17, 18, 19, 22, 23, 24]),
        );
        assert_eq!(find_image(board, &a, &[&b, &c, &d]), None, "a's home cuts cell 0 off");
        assert_eq!(find_image(board, &c, &[&a, &b]).map(|(i, _)| i), Some(1));
        assert_eq!(find_image(board, &d, &[&a, &b]).map(|(i, _)| i), Some(1));
        // Tiles 1 and 5 at home cut cell 0 off: its goal is not any other pattern's image.
        assert!(!home_leaves_one_region(board, &p(&[1, 5])));
        assert_eq!(find_image(board, &p(&[1, 5]), &[&p(&[3, 9])]), None);
        // Three 7-tile blocks: the bottom-left one is the top-right one turned half a turn; the third has no image.
        let seven = [p(&[2, 3, 4, 7, 8, 9, 14]), p(&[10, 15, 16, 17, 20, 21, 22]), p(&[11, 12, 13, 18, 19, 23, 24])];
        let found = find_image(board, &seven[1], &[&seven[0]]);
        assert_eq!(found, Some((0, Symmetry { transpose: false, flip_rows: true, flip_cols: true })));
        assert_eq!(find_image(board, &seven[2], &[&seven[0], &seven[1]]), None);
        assert_eq!(Symmetry::all(board).count(), 7);
        assert_eq!(Symmetry::all("3x7".parse().unwrap()).count(), 3);
    }
}
