//! The blank's regions: for a set of cells a pattern's tiles leave free, its connected parts, labelled by
//! their order. The builder searches over (placement, region) states, and a blank-aware table stores a value
//! per region, which the search finds by the label of the region its blank is in; both take labels from here.
//!
//! A region is labelled by its place among the free set's regions ordered by their smallest cells. On boards
//! of up to [`TABLED_CELLS`] cells the labels (and, if asked for, the regions) of every cell set are tabled,
//! made once by bit-parallel flood fill; larger boards (2^25 cell sets on 5x5 would take gigabytes) flood-fill
//! per lookup.

use crate::board::Board;

/// Largest board whose region tables are made: 16 cells (labels 512 KiB, regions 2 MiB).
pub const TABLED_CELLS: usize = 16;

/// A board's cell masks (bit `c` = cell `c`) and, on small boards, its region tables.
#[derive(Clone)]
pub struct Regions {
    /// Every cell of the board.
    pub all: u32,
    not_first_col: u32,
    not_last_col: u32,
    cols: u32,
    /// `components[free << 4 | c]`: the connected part of the cell set `free` that holds cell `c` (a flood fill
    /// instead is a chain of dependent shifts per step). Empty unless asked for on a tabled board.
    components: Vec<u16>,
    /// `labels[free]`: nibble `c` is the label of the region of `free` holding cell `c`. Empty on boards of
    /// more than [`TABLED_CELLS`] cells.
    labels: Vec<u64>,
}

impl Regions {
    /// The masks, the labels on a board of at most [`TABLED_CELLS`] cells, and the regions too if
    /// `components`.
    pub fn new(board: Board, components: bool) -> Regions {
        let mut g = Regions::untabled(board);
        let n = board.cells();
        if n > TABLED_CELLS {
            return g;
        }
        let mut parts = if components { vec![0u16; 16 << n] } else { Vec::new() };
        let mut labels = vec![0u64; 1 << n];
        for free in 0..1u32 << n {
            for (l, part) in g.regions(free, free).enumerate() {
                for x in bits(part) {
                    if components {
                        parts[(free << 4) as usize | x] = part as u16;
                    }
                    labels[free as usize] |= (l as u64) << (4 * x);
                }
            }
        }
        (g.components, g.labels) = (parts, labels);
        g
    }

    /// The masks without the tables: every region is flood-filled.
    pub fn untabled(board: Board) -> Regions {
        let n = board.cells();
        let mut g = Regions {
            all: ((1u64 << n) - 1) as u32,
            not_first_col: 0,
            not_last_col: 0,
            cols: board.cols() as u32,
            components: Vec::new(),
            labels: Vec::new(),
        };
        for c in 0..n {
            if board.col(c) != 0 {
                g.not_first_col |= 1 << c;
            }
            if board.col(c) + 1 != board.cols() {
                g.not_last_col |= 1 << c;
            }
        }
        g
    }

    /// The regions of `free` that hold a cell of `starts` (a subset of `free`), in the order of their lowest
    /// cell in `starts`. With `starts == free` the `l`-th is the region labelled `l`; with `starts` the free
    /// cells below some cell, they are the regions whose smallest cell is below it.
    #[inline]
    pub fn regions(&self, free: u32, starts: u32) -> impl Iterator<Item = u32> + '_ {
        let mut rest = starts;
        std::iter::from_fn(move || {
            (rest != 0).then(|| {
                let r = self.region(free, rest.trailing_zeros() as usize);
                rest &= !r;
                r
            })
        })
    }

    /// The label of the region of `free` holding `cell` (a cell of `free`): how many regions have their
    /// smallest cell below this region's.
    #[inline]
    pub fn label_of(&self, free: u32, cell: usize) -> u32 {
        if self.labels.is_empty() {
            let region = self.flood(1 << cell, free);
            let below = free & ((region & region.wrapping_neg()) - 1);
            return self.regions(free, below).count() as u32;
        }
        (self.labels[free as usize] >> (4 * cell) & 15) as u32
    }

    /// The label of the region of `free` holding `cell`, or `most` if it is larger: what a blank-aware table
    /// with `most + 1` entries a placement reads. Untabled, it spends no more flood fills than that needs: the
    /// blank's region and the lowest free cell's are filled a step at a time each, until they meet (label 0,
    /// the usual answer) or either is whole without the other (a pocket closes in a step or two); only past
    /// label 1 are the regions below counted.
    #[inline]
    pub fn label_capped(&self, free: u32, cell: usize, most: u32) -> u32 {
        if !self.labels.is_empty() {
            return self.label_of(free, cell).min(most);
        }
        let (mut blank, mut first) = (1 << cell, free & free.wrapping_neg());
        while blank & first == 0 {
            let (b, f) = ((blank | self.spread(blank)) & free, (first | self.spread(first)) & free);
            if b & f == 0 && (b == blank || f == first) {
                if most <= 1 {
                    return most;
                }
                let region = self.flood(b, free);
                let below = free & ((region & region.wrapping_neg()) - 1) & !self.flood(f, free);
                return 1 + self.regions(free, below).take(most as usize - 1).count() as u32;
            }
            (blank, first) = (b, f);
        }
        0
    }

    /// The connected part of `free` holding `cell` (a cell of `free`).
    #[inline]
    pub fn region(&self, free: u32, cell: usize) -> u32 {
        if self.components.is_empty() {
            return self.flood(1 << cell, free);
        }
        self.components[(free << 4) as usize | cell] as u32
    }

    /// Cells adjacent to some cell of `m`.
    #[inline]
    pub fn spread(&self, m: u32) -> u32 {
        ((m << 1 & self.not_first_col) | (m >> 1 & self.not_last_col) | m << self.cols | m >> self.cols) & self.all
    }

    /// The connected part of `free` containing `from` (a subset of `free`).
    #[inline]
    pub fn flood(&self, from: u32, free: u32) -> u32 {
        let mut r = from;
        loop {
            let next = (r | self.spread(r)) & free;
            if next == r {
                return r;
            }
            r = next;
        }
    }

    /// The most regions the free cells fall into when `k` cells of the board are taken, over every set of
    /// `k` cells (at most C(25, 12) = 5.2 M flood fills; 480,700 for seven tiles on 5x5, a few milliseconds):
    /// how many labels a pattern of `k` tiles needs.
    pub fn most(&self, k: usize) -> u32 {
        let n = self.all.count_ones();
        if k == 0 || k as u32 >= n {
            return 1;
        }
        let mut most = 1;
        let mut occ = (1u32 << k) - 1;
        while occ <= self.all {
            let free = self.all & !occ;
            most = most.max(self.regions(free, free).count() as u32);
            // The next set of `k` cells in increasing order (Gosper's hack).
            let low = occ & occ.wrapping_neg();
            let ripple = occ + low;
            occ = (((ripple ^ occ) >> 2) / low) | ripple;
        }
        most
    }
}

/// The set bits of `m`, lowest first.
pub fn bits(mut m: u32) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (m != 0).then(|| {
            let b = m.trailing_zeros();
            m &= m - 1;
            b as usize
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flood_fill_and_labels() {
        let g = Regions::new(Board::FOUR, true);
        // Pattern tiles on cells 1 and 4 cut cell 0 off.
        let free = g.all & !(1 << 1 | 1 << 4);
        assert_eq!(g.flood(1, free), 1);
        let rest = g.flood(1 << 15, free);
        assert_eq!(rest, free & !1);
        // A wrap-around must not connect cell 3 to cell 4.
        assert_eq!(g.flood(1 << 3, 1 << 3 | 1 << 4), 1 << 3);
        assert_eq!(g.region(free, 15), rest);
        assert_eq!(g.region(free, 0), 1);
        assert_eq!(g.label_of(free, 0), 0);
        assert_eq!(g.label_of(free, 15), 1);
    }

    /// Boards too big for the region tables flood fill per lookup, with the same answers.
    #[test]
    fn untabled_regions_agree_with_the_tables() {
        let board: Board = "4x4".parse().unwrap();
        let tables = Regions::new(board, true);
        let plain = Regions::untabled(board);
        for free in (0..1u32 << 16).step_by(97) {
            for c in bits(free) {
                assert_eq!(
                    (plain.region(free, c), plain.label_of(free, c)),
                    (tables.region(free, c), tables.label_of(free, c))
                );
            }
        }
        for free in (0..1u32 << 16).step_by(89) {
            for c in bits(free) {
                for most in 0..9 {
                    let capped = tables.label_of(free, c).min(most);
                    assert_eq!(
                        (plain.label_capped(free, c, most), tables.label_capped(free, c, most)),
                        (capped, capped)
                    );
                }
            }
        }
        let five = Regions::new("5x5".parse().unwrap(), true);
        assert!(five.labels.is_empty());
        // Tiles on cells 1 and 5 cut cell 0 off; the rest is one region.
        let free = five.all & !(1 << 1 | 1 << 5);
        assert_eq!((five.region(free, 0), five.label_of(free, 0), five.label_of(free, 24)), (1, 0, 1));
        // Labels count regions, not free cells: cells 0 and 24 cut off, the region of cell 24 is the third.
        let free = five.all & !(1 << 1 | 1 << 5 | 1 << 19 | 1 << 23);
        assert_eq!((five.label_of(free, 0), five.label_of(free, 2), five.label_of(free, 24)), (0, 1, 2));
        assert_eq!(five.regions(free, free).collect::<Vec<_>>(), [1, free & !(1 | 1 << 24), 1 << 24]);
        let capped = |c, most| five.label_capped(free, c, most);
        assert_eq!((capped(0, 1), capped(2, 1), capped(24, 1), capped(24, 2), capped(24, 5)), (0, 1, 1, 2, 2));
    }

    /// The slot width of the builder and the size of a blank-aware table follow the most regions a pattern's
    /// tiles can make, found by trying every cell set.
    #[test]
    fn most_regions() {
        let most = |board: &str, k| Regions::untabled(board.parse().unwrap()).most(k);
        // Two opposite corners of a 2x2 board split the other two; a single cell splits nothing.
        assert_eq!((most("2x2", 1), most("2x2", 2), most("2x2", 3)), (1, 2, 1));
        // Cells 1, 3, 4, 6 of a 3x3 board leave four corners and the centre apart.
        assert_eq!(most("3x3", 4), 5);
        // What the builder's 16-bit slots rest on: every 4x4 pattern, and 6 and 7 tiles on 5x5.
        assert!((1..16).all(|k| most("4x4", k) <= 8));
        assert_eq!((most("5x5", 6), most("5x5", 7)), (5, 6));
    }
}
