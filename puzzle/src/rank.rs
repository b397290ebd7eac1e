//! Ranking the placements of a pattern's tiles: the table index shared, bit for bit, by builder and solver.
//!
//! A placement of the `k` pattern tiles (in ascending tile order) on `n` cells is a partial permutation; its
//! rank is the lexicographic one in `n!/(n-k)!`. Tile `i`'s digit is its cell minus the number of earlier
//! pattern tiles on lower cells, in radix `n - i`, the first tile most significant.
//!
//! The point of this scheme is that a move changes the rank by a small, cheaply computed amount (see
//! [`Pattern::delta`]): a horizontal move changes one digit by one; a vertical move also shifts the digits of
//! the pattern tiles on the cells in between. Search and builder both update ranks per move instead of
//! re-ranking.

use crate::board::MAX_CELLS;

/// Index scheme identifier recorded in PDB headers.
pub const INDEX_SCHEME_LEX: u8 = 1;

/// Most tiles a pattern may have: what a PDB header has room for, and far more than any table that fits in
/// memory (16 tiles on 4x4 would be 16! entries).
pub const MAX_PATTERN_TILES: usize = 16;

/// A pattern: a set of tiles on a board of `cells` cells, with the weights of its rank's digits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pattern {
    cells: usize,
    tiles: Vec<u8>,
    /// `weights[i]` = product of the radices of the digits after `i`.
    weights: Vec<u64>,
}

impl Pattern {
    /// `tiles` must be distinct, non-zero and below `cells`; they are sorted here.
    pub fn new(cells: usize, tiles: &[u8]) -> Pattern {
        let mut tiles = tiles.to_vec();
        tiles.sort_unstable();
        tiles.dedup();
        assert!(
            cells <= MAX_CELLS
                && tiles.len() < cells
                && tiles.len() <= MAX_PATTERN_TILES
                && tiles.iter().all(|&t| t != 0 && (t as usize) < cells)
        );
        let k = tiles.len();
        let mut weights = vec![1u64; k];
        for i in (0..k.saturating_sub(1)).rev() {
            weights[i] = weights[i + 1] * (cells - i - 1) as u64;
        }
        Pattern { cells, tiles, weights }
    }

    /// Cells of the board the tiles are placed on.
    pub fn cells(&self) -> usize {
        self.cells
    }

    /// The pattern's tiles, ascending: the order their cells are ranked in.
    pub fn tiles(&self) -> &[u8] {
        &self.tiles
    }

    /// The number of tiles (`k`).
    pub fn len(&self) -> usize {
        self.tiles.len()
    }

    /// Whether there are no tiles (a partition never holds such a pattern).
    pub fn is_empty(&self) -> bool {
        self.tiles.is_empty()
    }

    /// The place value of the `i`-th tile's cell in a rank: the placements of the tiles after it.
    pub fn weight(&self, i: usize) -> u64 {
        self.weights[i]
    }

    /// Number of placements: `cells! / (cells - k)!`.
    pub fn size(&self) -> u64 {
        (self.cells - self.len() + 1..=self.cells).map(|x| x as u64).product()
    }

    /// Rank of a placement; `cells[i]` is where pattern tile `i` stands.
    #[inline]
    pub fn rank(&self, cells: &[u8]) -> u64 {
        let mut used = 0u32;
        let mut rank = 0u64;
        for (i, &c) in cells.iter().enumerate().take(self.len()) {
            let below = (used & ((1u32 << c) - 1)).count_ones();
            rank += (c as u64 - below as u64) * self.weights[i];
            used |= 1 << c;
        }
        rank
    }

    /// The placement of a rank, written into `cells[..k]`.
    pub fn unrank(&self, mut rank: u64, cells: &mut [u8]) {
        let mut used = 0u32;
        for (cell, &w) in cells.iter_mut().zip(&self.weights) {
            let digit = (rank / w) as u32;
            rank %= w;
            // The digit-th free cell.
            let mut free = !used & ((1u32 << self.cells) - 1);
            for _ in 0..digit {
                free &= free - 1;
            }
            let c = free.trailing_zeros();
            *cell = c as u8;
            used |= 1 << c;
        }
    }

    /// Change of rank when pattern tile `i` moves from cell `from` to cell `to` (a free cell), given the
    /// pattern indices of the pattern tiles standing strictly between the two cells in cell order.
    ///
    /// Tile `i`'s digit changes by `to - from` minus the earlier tiles it passes; every later tile it passes
    /// gains or loses one (it no longer, or now, counts tile `i` below itself).
    #[inline]
    pub fn delta(&self, i: usize, from: usize, to: usize, between: impl Iterator<Item = usize>) -> i64 {
        let sign: i64 = if to > from { 1 } else { -1 };
        let mut digit = to as i64 - from as i64;
        let mut later = 0i64;
        for j in between {
            if j < i {
                digit -= sign;
            } else {
                later += self.weights[j] as i64;
            }
        }
        digit * self.weights[i] as i64 + sign * later
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn sizes_match_the_pdb_catalogue() {
        assert_eq!(Pattern::new(16, &[1, 2, 3, 4, 5, 6, 7]).size(), 57_657_600);
        assert_eq!(Pattern::new(16, &[8, 9, 10, 11, 12, 13, 14, 15]).size(), 518_918_400);
        assert_eq!(Pattern::new(16, &[4, 8, 9]).size(), 3360);
    }

    #[test]
    fn ranks_are_a_bijection_on_a_small_board() {
        let p = Pattern::new(6, &[1, 3, 4]);
        let mut seen = vec![false; p.size() as usize];
        let mut cells = [0u8; 3];
        for r in 0..p.size() {
            p.unrank(r, &mut cells);
            assert_eq!(p.rank(&cells), r);
            assert!(!std::mem::replace(&mut seen[r as usize], true));
        }
    }

    proptest! {
        /// The incremental update equals re-ranking, for every single-cell move on a 4x4 board (horizontal
        /// moves: `to = from ± 1`; vertical: `± 4`).
        #[test]
        fn delta_matches_rerank(seed in 0u64..518_918_400, k in 1usize..9, who in 0usize..8, step in 0usize..4) {
            let tiles: Vec<u8> = (1..=k as u8).collect();
            let p = Pattern::new(16, &tiles);
            let mut cells = [0u8; 16];
            p.unrank(seed % p.size(), &mut cells);
            let i = who % k;
            let from = cells[i] as usize;
            let to = match step { 0 => from as i64 - 4, 1 => from as i64 + 4, 2 => from as i64 - 1, _ => from as i64 + 1 };
            prop_assume!((0..16).contains(&to));
            let to = to as usize;
            prop_assume!(step < 2 || to / 4 == from / 4);
            prop_assume!(!cells[..k].contains(&(to as u8)));
            let (lo, hi) = (from.min(to), from.max(to));
            let between: Vec<usize> = (0..k).filter(|&j| (lo + 1..hi).contains(&(cells[j] as usize))).collect();
            let before = p.rank(&cells[..k]);
            cells[i] = to as u8;
            let after = p.rank(&cells[..k]);
            prop_assert_eq!(before as i64 + p.delta(i, from, to, between.into_iter()), after as i64);
        }
    }
}
