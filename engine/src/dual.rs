//! Dual lookups: a second estimate of a position from the same tables, read at the position's dual.
//!
//! **What the dual is.** A position is a map `s` from cells to tiles (the blank is tile 0), the goal the
//! identity, and a move swaps the contents of two neighbouring cells, one of which holds the blank: the
//! operators are named by locations. Let `o_1 .. o_L` solve `s`, so `s ∘ o_1 ∘ … ∘ o_L = id`. The same swaps,
//! applied to the goal, lead from the goal to `s⁻¹`, the *dual*, which the reversed swaps bring back. In a
//! puzzle whose every swap were always allowed, `s` and `s⁻¹` would be equally far from the goal. In the tile
//! puzzle a swap needs the blank on one of its cells, and along the replayed path the cell the real path's
//! blank is on holds, in the dual, the tile numbered by the blank's starting cell `b` (induction on the
//! steps: that cell's content is `p(p⁻¹(b)) = b`, where `p = o_1 ∘ … ∘ o_i`). So the replayed path is a legal
//! solution of `s⁻¹` in the puzzle **whose blank is tile `b`** (tile 0 an ordinary tile, at home on cell 0):
//! `d(s) = d_b(s⁻¹)`. Only when the blank is home (`b = 0`) is that the ordinary puzzle; elsewhere reading the
//! inverse as an ordinary position overestimates (2x3, `4 5 3 0 1 2`: 17 against a true 11), which is why the
//! plain inverse is no estimate at all.
//!
//! **Where it stands.** Dual tile `t` stands on the cell numbered by the tile on cell `t` of `s`, so the
//! acting blank `b` stands on cell 0 (the real blank is on cell `b`), and dual tile 0 on the number of the tile
//! on cell 0.
//!
//! **What may be read.** A lower bound on `d_b(s⁻¹)` is a sum over any partition of the tiles other than `b`
//! of lower bounds on the moves of each part's tiles (every move moves one tile). Take the tables' patterns:
//! - the pattern holding `b` (if any) with tile 0 added can only get its Manhattan distance;
//! - a pattern `P` without `b` sees the same abstract space in the dual's puzzle as in the real one (its tiles,
//!   one blank, indistinguishable others), but not always the same goal: its table's goal is `P` home with the
//!   blank in the region of cell 0, the dual's is `P` home with the blank in the region of cell `b`. When `P`'s
//!   home leaves cell 0 and cell `b` connected these are one node; otherwise the table's value at the dual's
//!   node `x` may exceed the dual's distance by as much as the distance `δ` between the two goal nodes (7-8 on
//!   4x4: the home of tiles 1-7 walls cell 0 in, and `δ = 6` for an acting blank of 8 to 15). By the triangle inequality
//!   `dist(x, goal_b) ≥ dist(x, goal_0) − δ`, so the entry less `δ` (never below the part's Manhattan distance)
//!   is a bound. `δ` is even (both goal nodes place `P` home), so the estimate keeps the parity of the
//!   Manhattan distance, which the dual's sum equals (dual tile `t` stands as far from home as the tile on
//!   cell `t` does). The blank of a blank-aware entry is the acting blank, on cell 0; a plain entry is the
//!   least over the regions, so less again.
//!
//! **A second reading.** Walking the blank home first (up then left, or left then up: `k` moves, its
//! Manhattan distance) gives a position `t` with `d(s) >= d(t) - k` and the blank home, where the dual is an
//! ordinary position and every table applies; its estimate less `k` keeps the parity too (`d(t)` and `d(s)`
//! differ by `k` modulo 2). It is above the acting blank's reading on most positions of 3x3 and 2x4 (and below
//! on many), so the estimate is the larger of the two.
//!
//! **No dual search.** A dual search (DIDA*) goes on from the dual where its estimate is larger. Here the
//! dual is a position of the same puzzle only where the blank is home ([`Dual::home_position`]); elsewhere
//! it is one of the puzzle whose blank is tile `b`, whose only bound is the shifted reading above, weaker than
//! the ordinary lookups, so a jump would take the search to the weaker side. The jumps that are possible gain
//! nothing on Korf's 100 (`examples/dual_nodes.rs` with `DIDA=1`; BENCHMARKS.md).
//!
//! The exhaustive test (engine/tests/dual.rs) checks on every position of 2x3, 3x3 and 2x4, with plain and
//! blank-aware tables, that this estimate never overestimates and that the two simpler readings do: the plain
//! inverse, and the acting blank without `δ`.

use crate::heuristic::Heuristic;
use puzzle::pdb_file::PdbFile;
use puzzle::regions::Regions;
use puzzle::{Board, Dir, Pattern, State, MAX_CELLS};
use std::collections::HashSet;

/// A position's dual, as a position of the puzzle whose blank is tile `acting_blank`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dual {
    /// The tile that plays the blank: the number of the cell the real blank is on. It stands on cell 0.
    pub acting_blank: u8,
    /// `cells[t]`: the cell dual tile `t` stands on, which is the number of the tile on cell `t`.
    pub cells: [u8; MAX_CELLS],
}

impl Dual {
    /// The dual of `s`.
    pub fn of(s: &State) -> Dual {
        let mut cells = [0u8; MAX_CELLS];
        cells[..s.tiles().len()].copy_from_slice(s.tiles());
        Dual { acting_blank: s.blank() as u8, cells }
    }

    /// The dual as an ordinary position of `board` (cell `cells[t]` holds tile `t`) when the acting blank is
    /// tile 0, i.e. the real blank is home: then it is exactly as far from the goal as the position (the module
    /// doc), which is what a dual search may jump to. `None` elsewhere, where it is a position of another puzzle.
    pub fn home_position(&self, board: Board) -> Option<State> {
        if self.acting_blank != 0 {
            return None;
        }
        let mut tiles = [0u8; MAX_CELLS];
        for t in 0..board.cells() {
            tiles[self.cells[t] as usize] = t as u8;
        }
        State::from_tiles(board, &tiles[..board.cells()])
    }
}

/// Steps the search for `δ` takes before giving up on a pattern's dual lookup (which then falls back to the
/// Manhattan distance); the goal nodes of the tables built here are 6 apart at most.
const SHIFT_CAP: u32 = 8;

/// The dual estimate of one partition's tables (see the module doc).
pub struct DualEstimate<'a> {
    board: Board,
    tables: &'a [PdbFile],
    patterns: Vec<Pattern>,
    regions: Regions,
    /// `shift[p][b]`: `δ` for pattern `p` when the acting blank is tile `b` (a tile not in `p`), `None` when
    /// it is over [`SHIFT_CAP`].
    shift: Vec<[Option<u8>; MAX_CELLS]>,
}

impl<'a> DualEstimate<'a> {
    /// The estimate over `tables`, the tables of one partition of `board`'s tiles.
    pub fn new(board: Board, tables: &'a [PdbFile]) -> DualEstimate<'a> {
        let regions = Regions::untabled(board);
        let patterns: Vec<Pattern> = tables.iter().map(|t| t.header.pattern()).collect();
        let shift = patterns
            .iter()
            .map(|p| std::array::from_fn(|b| (b < board.cells()).then(|| goal_shift(board, &regions, p, b)).flatten()))
            .collect();
        DualEstimate { board, tables, patterns, regions, shift }
    }

    /// `δ` for pattern `p` when the acting blank is tile `b` (see the module doc), if found.
    pub fn shift(&self, p: usize, b: usize) -> Option<u8> {
        self.shift[p][b]
    }

    /// The value table `p` holds for its tiles on `cells` (in pattern order) with the blank on cell `blank`.
    pub fn value(&self, p: usize, cells: &[u8], blank: usize) -> u32 {
        let (table, pattern) = (&self.tables[p], &self.patterns[p]);
        let labels = table.header.labels;
        let mut index = pattern.rank(cells) * labels as u64;
        if labels > 1 {
            let occ = cells.iter().fold(0u32, |m, &c| m | 1 << c);
            index += self.regions.label_capped(self.regions.all & !occ, blank, labels - 1) as u64;
        }
        self.manhattan(pattern.tiles(), cells) + 2 * table.excess(index) as u32
    }

    /// The Manhattan distance of `tiles` standing on `cells`.
    pub fn manhattan(&self, tiles: &[u8], cells: &[u8]) -> u32 {
        tiles.iter().zip(cells).map(|(&t, &c)| self.board.manhattan(t as usize, c as usize)).sum()
    }

    /// The dual estimate of `s`: a lower bound on its distance (see the module doc), the larger of the
    /// acting blank's reading and the reading after the blank is walked home.
    pub fn estimate(&self, s: &State) -> u32 {
        self.acting_blank(s).max(self.via_home(s).unwrap_or(0))
    }

    /// The reading after walking the blank home, up then left or left then up: `k` moves (the blank's Manhattan
    /// distance) lead to a position `t` whose blank is home, so `d(s) >= d(t) - k`, and `t`'s dual is an ordinary
    /// position at `t`'s distance, whose tables all apply. `None` where that is below `k`.
    pub fn via_home(&self, s: &State) -> Option<u32> {
        let k = self.board.manhattan(0, s.blank());
        [[Dir::Up, Dir::Left], [Dir::Left, Dir::Up]]
            .iter()
            .filter_map(|order| {
                let mut t = *s;
                for &dir in order {
                    while t.move_blank(dir) {}
                }
                self.acting_blank(&t).checked_sub(k)
            })
            .max()
    }

    /// The acting blank's reading of `s` (see the module doc).
    pub fn acting_blank(&self, s: &State) -> u32 {
        let dual = Dual::of(s);
        let b = dual.acting_blank;
        // Tile 0 is an ordinary tile of the dual's puzzle, at home on cell 0.
        let mut h = self.board.manhattan(0, dual.cells[0] as usize);
        for (p, pattern) in self.patterns.iter().enumerate() {
            let tiles = pattern.tiles();
            let cells: Vec<u8> = tiles.iter().map(|&t| dual.cells[t as usize]).collect();
            if tiles.contains(&b) {
                h += tiles
                    .iter()
                    .zip(&cells)
                    .filter(|(&t, _)| t != b)
                    .map(|(&t, &c)| self.board.manhattan(t as usize, c as usize))
                    .sum::<u32>();
                continue;
            }
            let md = self.manhattan(tiles, &cells);
            h += match self.shift[p][b as usize] {
                Some(delta) => (self.value(p, &cells, 0).saturating_sub(delta as u32)).max(md),
                None => md,
            };
        }
        h
    }
}

/// `δ`: the fewest moves of `pattern`'s tiles between its goal with the blank in the region of cell `b` and
/// its goal with the blank in the region of cell 0, by breadth-first search over (placement, blank region)
/// up to [`SHIFT_CAP`] moves; 0 when one region holds both, `None` for a tile of the pattern or past the cap.
fn goal_shift(board: Board, regions: &Regions, pattern: &Pattern, b: usize) -> Option<u8> {
    let home: Vec<u8> = pattern.tiles().to_vec();
    if home.contains(&(b as u8)) {
        return None;
    }
    let occ_home = home.iter().fold(0u32, |m, &c| m | 1 << c);
    let free_home = regions.all & !occ_home;
    let target = (home.clone(), regions.region(free_home, 0));
    let mut layer = vec![(home, regions.region(free_home, b))];
    let mut seen: HashSet<(Vec<u8>, u32)> = layer.iter().cloned().collect();
    for depth in 0..=SHIFT_CAP {
        if layer.contains(&target) {
            return Some(depth as u8);
        }
        let mut next = Vec::new();
        for (cells, region) in &layer {
            let occ = cells.iter().fold(0u32, |m, &c| m | 1 << c);
            for (i, &from) in cells.iter().enumerate() {
                for to in board.neighbors(from as usize).filter(|&to| region >> to & 1 == 1) {
                    let mut moved = cells.clone();
                    moved[i] = to as u8;
                    let free = regions.all & !(occ ^ 1 << from ^ 1 << to);
                    let state = (moved, regions.region(free, from as usize));
                    if seen.insert(state.clone()) {
                        next.push(state);
                    }
                }
            }
        }
        layer = next;
    }
    None
}

/// No goal shift found (see [`DualEstimate::shift`]): the pattern's dual lookup falls back to its Manhattan
/// distance.
const NO_SHIFT: u8 = 0xFF;

/// One table as the search's dual lookups read it.
struct DualTable {
    pattern: Pattern,
    labels: u32,
    /// Entries a payload byte holds, as a shift: 1 for 4-bit entries, 0 for bytes.
    nibble: u32,
    /// `shift[b]`: `δ` with acting blank `b`, or [`NO_SHIFT`].
    shift: [u8; MAX_CELLS],
}

/// The most tables of the partition the search's dual lookups read.
pub const MAX_DUAL_TABLES: usize = 4;

/// Readings of a position: the acting blank's and the two walks home's, for the position and its reflection.
const MAX_READINGS: usize = 6;

/// One reading's Manhattan part, what its walk home costs, and its tables' entries to read.
#[derive(Clone, Copy, Default)]
struct Reading {
    md: u32,
    walk: u32,
    reads: u8,
    /// (table, entry, `δ`).
    read: [(u8, u64, u8); MAX_DUAL_TABLES],
}

/// The dual lookups of the search (`--dual`): [`DualEstimate::estimate`]'s value, for the position and, with
/// the reflected lookups, for its reflection too, without allocating. Every reading's entries are asked of
/// the cache first, so that their misses overlap, and then read until the estimate is over the search's
/// limit.
pub struct DualLookups {
    board: Board,
    /// `md[t][c]`: tile `t`'s distance from home on cell `c`, tile 0 counted too (in the dual it is an
    /// ordinary tile, at home on cell 0).
    md: [[u8; MAX_CELLS]; MAX_CELLS],
    transpose: [u8; MAX_CELLS],
    reflect: bool,
    /// Whether the CPU counts bits in one instruction (see [`DualLookups::estimate_popcnt`]).
    #[cfg(target_arch = "x86_64")]
    popcnt: bool,
    regions: Regions,
    files: std::sync::Arc<Vec<PdbFile>>,
    tables: Vec<DualTable>,
}

impl DualLookups {
    /// The lookups of the tables `files` (a partition of `board`'s tiles, in pattern order, at most
    /// [`MAX_DUAL_TABLES`]), with the reflection's dual too when `reflect` (square boards only).
    pub fn new(board: Board, files: std::sync::Arc<Vec<PdbFile>>, reflect: bool) -> DualLookups {
        assert!(files.len() <= MAX_DUAL_TABLES, "at most {MAX_DUAL_TABLES} tables");
        let est = DualEstimate::new(board, &files);
        let tables = files
            .iter()
            .enumerate()
            .map(|(p, f)| DualTable {
                pattern: f.header.pattern(),
                labels: f.header.labels,
                nibble: (f.header.encoding == puzzle::pdb_file::Encoding::Nibble) as u32,
                shift: std::array::from_fn(|b| {
                    if b < board.cells() {
                        est.shift(p, b).unwrap_or(NO_SHIFT)
                    } else {
                        NO_SHIFT
                    }
                }),
            })
            .collect();
        let mut md = [[0u8; MAX_CELLS]; MAX_CELLS];
        let mut transpose = [0u8; MAX_CELLS];
        let reflect = reflect && board.is_square();
        for c in 0..board.cells() {
            for (t, row) in md.iter_mut().enumerate().take(board.cells()) {
                row[c] = board.manhattan(t, c) as u8;
            }
            transpose[c] = if reflect { board.transpose(c) as u8 } else { c as u8 };
        }
        DualLookups {
            board,
            md,
            transpose,
            reflect,
            #[cfg(target_arch = "x86_64")]
            popcnt: std::is_x86_feature_detected!("popcnt"),
            regions: Regions::new(board, false),
            files,
            tables,
        }
    }

    /// The dual estimate of the position `tiles` (blank on `blank`): the largest of the readings (the acting
    /// blank's and the walks home's, of the position and of its reflection), read until it is over `limit`.
    /// Never above the distance (module doc). In two rounds: the acting blank's readings (of the position and
    /// its reflection), then, where those keep the node, the walks home's; each round's entries are asked of
    /// the cache before the first is read.
    pub fn estimate(&self, tiles: &[u8; MAX_CELLS], blank: usize, limit: u32) -> u32 {
        #[cfg(target_arch = "x86_64")]
        if self.popcnt {
            // SAFETY: the CPU has the instruction (checked when the lookups were made).
            return unsafe { self.estimate_popcnt(tiles, blank, limit) };
        }
        self.estimate_here(tiles, blank, limit)
    }

    /// [`DualLookups::estimate`] compiled with the popcount instruction, which the ranks use (the build's
    /// baseline target has none: its software count was a third of the readings' instructions).
    ///
    /// # Safety
    /// The CPU has the instruction.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt")]
    unsafe fn estimate_popcnt(&self, tiles: &[u8; MAX_CELLS], blank: usize, limit: u32) -> u32 {
        self.estimate_here(tiles, blank, limit)
    }

    #[inline(always)]
    fn estimate_here(&self, tiles: &[u8; MAX_CELLS], blank: usize, limit: u32) -> u32 {
        // The dual's Manhattan distance is the position's: dual tile t stands on the cell numbered by the
        // tile on cell t, as far from home as that tile is.
        let mut md = 0u32;
        for (c, &t) in tiles.iter().enumerate().take(self.board.cells()) {
            md += self.md[t as usize][c] as u32;
        }
        md -= self.md[0][blank] as u32;
        let mut views = [(*tiles, blank); 2];
        let nviews = 1 + self.reflect as usize;
        if self.reflect {
            let (reflected, b) = &mut views[1];
            for c in 0..self.board.cells() {
                reflected[self.transpose[c] as usize] = self.transpose[tiles[c] as usize];
            }
            *b = self.transpose[blank] as usize;
        }
        let mut readings = [Reading::default(); MAX_READINGS];
        for (r, (t, b)) in readings.iter_mut().zip(&views[..nviews]) {
            *r = self.reading(t, *b, md, 0);
        }
        let best = self.read(&readings[..nviews], 0, limit);
        if best > limit || blank == 0 {
            return best;
        }
        let mut n = 0;
        for (t, b) in &views[..nviews] {
            n = self.walks(t, *b, md, &mut readings, n);
        }
        self.read(&readings[..n], best, limit)
    }

    /// The largest of `best` and `readings`, read until it is over `limit`; every entry is asked of the cache
    /// first.
    #[inline(always)]
    fn read(&self, readings: &[Reading], mut best: u32, limit: u32) -> u32 {
        for r in readings {
            for &(p, index, _) in &r.read[..r.reads as usize] {
                let t = &self.tables[p as usize];
                let payload = self.files[p as usize].payload();
                puzzle::prefetch::line(payload.as_ptr().wrapping_add((index >> t.nibble) as usize));
            }
        }
        for r in readings {
            let mut h = r.md;
            for &(p, index, delta) in &r.read[..r.reads as usize] {
                h += (2 * self.files[p as usize].excess(index) as u32).saturating_sub(delta as u32);
            }
            best = best.max(h.saturating_sub(r.walk));
            if best > limit {
                break;
            }
        }
        best
    }

    /// Writes the readings of the walks home from `tiles` (blank on `blank`, not home; Manhattan distance `md`)
    /// from `readings[at]` on: up then left, left then up, one walk when the blank is in the first row or
    /// column (see [`DualEstimate::via_home`]). Returns where the next reading goes.
    #[inline(always)]
    fn walks(&self, tiles: &[u8; MAX_CELLS], blank: usize, md: u32, readings: &mut [Reading], mut at: usize) -> usize {
        let cols = self.board.cols();
        let (row, col) = (blank / cols, blank % cols);
        let walk = (row + col) as u32;
        for up_first in [true, false] {
            if !up_first && (row == 0 || col == 0) {
                break;
            }
            let (mut t, mut b, mut md) = (*tiles, blank, md);
            for up in [up_first, !up_first] {
                let (steps, by) = if up { (row, cols) } else { (col, 1) };
                for _ in 0..steps {
                    let tile = t[b - by] as usize;
                    md = md + self.md[tile][b] as u32 - self.md[tile][b - by] as u32;
                    t[b] = tile as u8;
                    b -= by;
                }
            }
            t[0] = 0;
            readings[at] = self.reading(&t, 0, md, walk);
            at += 1;
        }
        at
    }

    /// The acting blank's reading of the position `tiles` (blank on `blank`, Manhattan distance `md`; see
    /// [`DualEstimate::acting_blank`]), less `walk` when read.
    #[inline(always)]
    fn reading(&self, tiles: &[u8; MAX_CELLS], blank: usize, md: u32, walk: u32) -> Reading {
        let mut r = Reading { md, walk, ..Reading::default() };
        for (p, table) in self.tables.iter().enumerate() {
            let delta = table.shift[blank];
            if delta == NO_SHIFT {
                continue;
            }
            let mut cells = [0u8; MAX_CELLS];
            let mut occ = 0u32;
            for (c, &t) in cells.iter_mut().zip(table.pattern.tiles()) {
                *c = tiles[t as usize];
                occ |= 1 << *c;
            }
            let mut index = table.pattern.rank(&cells[..table.pattern.len()]) * table.labels as u64;
            if table.labels > 1 {
                index += self.regions.label_capped(self.regions.all & !occ, 0, table.labels - 1) as u64;
            }
            r.read[r.reads as usize] = (p as u8, index, delta);
            r.reads += 1;
        }
        r
    }
}

/// A heuristic with the dual lookups maxed in (`--dual`): `H`'s estimate first, and where that keeps a node
/// (is within the search's limit), the dual lookups'. The dual estimate is not consistent (a move may change
/// it by more than one), so the search propagates it with BPMX ([`Heuristic::BPMX`]).
pub struct WithDual<H> {
    inner: H,
    dual: DualLookups,
}

impl<H> WithDual<H> {
    /// `inner` maxed with `dual`.
    pub fn new(inner: H, dual: DualLookups) -> WithDual<H> {
        WithDual { inner, dual }
    }
}

/// A node of [`WithDual`]: the inner heuristic's, the position (the dual lookups read it whole) and the
/// estimate.
#[derive(Clone, Copy, Default)]
pub struct DualNode<N> {
    inner: N,
    tiles: [u8; MAX_CELLS],
    blank: u8,
    h: u16,
}

impl<H: Heuristic> Heuristic for WithDual<H> {
    type Node = DualNode<H::Node>;
    const BPMX: bool = true;

    fn root(&self, tiles: &[u8; MAX_CELLS]) -> Self::Node {
        let inner = self.inner.root(tiles);
        let blank = tiles.iter().position(|&t| t == 0).expect("a blank");
        let h = H::h(&inner).max(self.dual.estimate(tiles, blank, u32::MAX));
        DualNode { inner, tiles: *tiles, blank: blank as u8, h: h as u16 }
    }

    #[inline(always)]
    fn h(node: &Self::Node) -> u32 {
        node.h as u32
    }

    #[inline(always)]
    fn child(
        &self,
        node: &Self::Node,
        tiles: &[u8; MAX_CELLS],
        tile: u8,
        from: usize,
        to: usize,
        out: &mut Self::Node,
    ) {
        self.inner.child(&node.inner, tiles, tile, from, to, &mut out.inner);
        out.tiles = *tiles;
        out.tiles[to] = tile;
        out.tiles[from] = 0;
        out.blank = from as u8;
    }

    #[inline(always)]
    fn settle(&self, node: &mut Self::Node, limit: u32) {
        self.inner.settle(&mut node.inner, limit);
        let h = H::h(&node.inner);
        // Lazily: only where the inner estimate keeps the node (and not at the goal, whose estimate is 0).
        let h =
            if h > limit || h == 0 { h } else { h.max(self.dual.estimate(&node.tiles, node.blank as usize, limit)) };
        node.h = h as u16;
    }

    #[inline(always)]
    fn raise(node: &mut Self::Node, h: u32) {
        node.h = node.h.max(h as u16);
    }

    fn files(&self) -> Vec<&PdbFile> {
        self.inner.files()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shifts_of_the_15_puzzle_7_8_tables() {
        let board = Board::FOUR;
        let regions = Regions::untabled(board);
        let seven = Pattern::new(16, &[1, 2, 3, 4, 5, 6, 7]);
        let eight = Pattern::new(16, &[8, 9, 10, 11, 12, 13, 14, 15]);
        let s7: Vec<_> = (0..16).map(|b| goal_shift(board, &regions, &seven, b)).collect();
        let s8: Vec<_> = (0..16).map(|b| goal_shift(board, &regions, &eight, b)).collect();
        // Tiles 1-7 at home wall cell 0 in: from the region of cells 8-15 six moves of theirs lead to it.
        let mut want7 = vec![None; 16];
        want7[0] = Some(0);
        want7[8..].fill(Some(6));
        assert_eq!(s7, want7);
        // Tiles 8-15 at home leave cells 0-7 one region.
        let mut want8 = vec![Some(0); 8];
        want8.resize(16, None);
        assert_eq!(s8, want8);
    }
}
