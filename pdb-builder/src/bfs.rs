//! The breadth-first search that computes one pattern's table.
//!
//! A PDB value is the fewest moves of pattern tiles that bring the pattern home, minimised over where the
//! blank is; the other tiles are indistinguishable and move for free. So the search runs over states
//! (placement of the pattern tiles, blank region), where the region is the connected set of non-pattern cells
//! the blank roams without moving a pattern tile. Every edge moves one pattern tile into the region (cost 1),
//! so a plain BFS from the goal gives exact distances; a placement's value is the depth at which any of its
//! regions is first reached. The goal state is the goal placement with the region holding the blank's home,
//! cell 0 (checked against the reference histograms).
//!
//! Layout, chosen for the 8-tile table (518,918,400 placements) on 2 cores in under 2 GiB:
//! - A region is labelled by its place among the placement's regions ordered by their smallest cells, so
//!   labels are below the most regions `k` pattern tiles can cut the board into (`Regions::most`: 5 for six
//!   tiles on 5x5, where the free cells number 19). Each placement has a *slot* of `LB` bits: `LB/2` "seen"
//!   bits, one per region label, then `LB/2` "frontier" bits. Slots are packed into `AtomicU64` words (four
//!   16-bit slots when there are at most 8 regions, two 32-bit slots when at most 16, else one 64-bit slot),
//!   so checking and marking a child is one cache line and one `fetch_or`. (Labelling a region by the rank
//!   of its smallest free cell, as before, needs a bit per free cell: 64-bit slots on 5x5, four times the
//!   memory, which put 7-tile tables out of reach.)
//! - Every move of a pattern tile flips the parity of the sum of the pattern cells' (row + col). So the
//!   states at depth `d` are exactly the frontier bits of placements of one parity, and their children all
//!   have the other parity: one array serves as current and next frontier. Pass `d` scans every word, expands
//!   the frontier slots of parity `d`, and clears them.
//! - A placement is first reached at depth `d` exactly when, in pass `d`, its seen bits equal its frontier
//!   bits. The scan then writes the entry's final value right away, in index order, so no random writes
//!   are spent on values, and the histogram is the per-pass count.
//! - Placements sharing their first `k-1` tiles form a contiguous run of `cells - k + 1` ranks; the scan
//!   walks runs with an odometer instead of unranking every entry.
//! - Children's ranks come from the parent's by [`Pattern::delta`]; regions and region labels from tables
//!   over all cell sets, made once by bit-parallel flood fill, on boards of up to 16 cells (2^25 cell sets
//!   of a 5x5 board would take gigabytes; there the flood fill runs per lookup). Children are queued in a small ring with
//!   their cache lines prefetched, so several misses on the big array are in flight at once.

use crate::mem::Zeroed;
use puzzle::pdb_file::Encoding;
use puzzle::rank::MAX_PATTERN_TILES;
use puzzle::regions::{bits, Regions, TABLED_CELLS};
use puzzle::{Board, Pattern, MAX_CELLS};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

/// One finished BFS depth, for progress reports.
#[derive(Clone, Debug)]
pub struct DepthReport {
    /// The value (moves of the pattern's tiles) just finished.
    pub depth: u32,
    /// Placements whose value is `depth`.
    pub new_entries: u64,
    /// Placements with a value so far.
    pub reached: u64,
    /// All placements of the pattern.
    pub entries: u64,
    /// Time since the build started.
    pub elapsed: Duration,
}

/// A computed table: one excess `(value - md) / 2` a byte, in rank order, and the value histogram.
///
/// A plain table has an entry a placement: the fewest moves over every region the blank may be in. A
/// blank-aware one has `labels` entries a placement (entry `rank * labels + l`): for `l < labels - 1` the
/// fewest moves with the blank in the region labelled `l` (see `puzzle::regions`), and for the last the
/// fewest with the blank in any region labelled `labels - 1` or above (all the placement's regions can have
/// an entry each, or fewer entries keep the table small). Entries are never below the plain value, and an
/// entry no region of the placement has holds it. The search reads the entry of its blank's region.
pub struct Table {
    /// Each entry's `(value - md) / 2`, by index, in `encoding`.
    pub excess: Zeroed<u8>,
    /// How `excess` holds entries: a byte each in a plain table (the file's encoding is chosen after), a
    /// nibble each in a blank-aware one, which then fails if an excess is over 15.
    pub encoding: Encoding,
    /// Entries of each value, from 0: what the file's header records and the tests compare.
    pub histogram: Vec<u64>,
    /// The largest excess, which decides the file's encoding.
    pub max_excess: u8,
    /// Placements the goal cannot reach (none on 4x4); stored with excess 0, i.e. value = Manhattan distance,
    /// which is admissible because no solvable position has them.
    pub unreachable: u64,
}

/// Bytes the search for `pattern` holds at its peak: the slot words, the excess array (a byte an entry, a
/// nibble in a blank-aware table) and the region tables (the slots are freed before the payload is encoded,
/// and the payload is never larger than the excess array).
pub fn memory_needed(board: Board, pattern: &Pattern, labels: u32) -> u64 {
    let entries = pattern.size();
    let slots = 64 / slot_bits(board, pattern) as u64;
    let tables = if board.cells() <= TABLED_CELLS { (1u64 << board.cells()) * (16 * 2 + 8) } else { 0 };
    let excess = if labels > 1 { (entries * labels as u64).div_ceil(2) } else { entries };
    entries.div_ceil(slots) * 8 + excess + tables
}

/// A slot holds a seen and a frontier bit per possible region label.
fn slot_bits(board: Board, pattern: &Pattern) -> u32 {
    match Regions::untabled(board).most(pattern.len()) {
        0..=8 => 16,
        9..=16 => 32,
        _ => 64,
    }
}

/// Computes the table of `pattern` on `board` in the current rayon pool, calling `progress` after each depth.
/// A placement has `labels` entries: 1 for a plain table, from 2 up to the most regions its tiles can leave for
/// a blank-aware one (see [`Table`]).
pub fn build(
    board: Board,
    pattern: &Pattern,
    labels: u32,
    progress: &mut dyn FnMut(&DepthReport),
) -> std::io::Result<Table> {
    assert!(labels >= 1 && labels <= Regions::untabled(board).most(pattern.len()).max(1));
    let ctx = Ctx::new(board, pattern, labels as usize);
    match slot_bits(board, pattern) {
        16 => search::<16>(&ctx, progress),
        32 => search::<32>(&ctx, progress),
        _ => search::<64>(&ctx, progress),
    }
}

/// Cell masks of a board (bit `c` = cell `c`) and its regions.
struct BoardGraph {
    /// Regions and labels, tabled with the regions themselves on boards of up to 16 cells (2 MiB on 4x4).
    r: Regions,
    neighbors: [u32; MAX_CELLS],
    /// Cells whose row + col is odd.
    odd: u32,
}

impl BoardGraph {
    fn new(board: Board) -> BoardGraph {
        let mut g = BoardGraph { r: Regions::new(board, true), neighbors: [0; MAX_CELLS], odd: 0 };
        for c in 0..board.cells() {
            if (board.row(c) + board.col(c)) % 2 == 1 {
                g.odd |= 1 << c;
            }
            g.neighbors[c] = board.neighbors(c).fold(0, |m, x| m | 1 << x);
        }
        g
    }
}

/// The `j`-th set bit of `m`.
#[inline]
fn select(mut m: u32, j: u32) -> u32 {
    for _ in 0..j {
        m &= m - 1;
    }
    m.trailing_zeros()
}

struct Ctx<'a> {
    board: Board,
    geo: BoardGraph,
    pattern: &'a Pattern,
    k: usize,
    /// Placements sharing the first `k-1` tiles: `cells - k + 1` consecutive ranks.
    run: usize,
    /// `md[i][c]`: Manhattan distance of pattern tile `i` standing on cell `c`.
    md: [[u32; MAX_CELLS]; MAX_PATTERN_TILES],
    /// Entries a placement has: 1, or the most region labels in a blank-aware table.
    labels: usize,
}

impl Ctx<'_> {
    fn new(board: Board, pattern: &Pattern, labels: usize) -> Ctx<'_> {
        let mut md = [[0; MAX_CELLS]; MAX_PATTERN_TILES];
        for (i, &t) in pattern.tiles().iter().enumerate() {
            for (c, d) in md[i].iter_mut().enumerate().take(board.cells()) {
                *d = board.manhattan(t as usize, c);
            }
        }
        Ctx {
            board,
            geo: BoardGraph::new(board),
            pattern,
            k: pattern.len(),
            run: board.cells() - pattern.len() + 1,
            md,
            labels,
        }
    }
}

/// A full placement: where each pattern tile stands, the occupied cells, parity and Manhattan distance.
struct Placement {
    cells: [u8; MAX_PATTERN_TILES],
    occ: u32,
    parity: u32,
    md: u32,
}

/// Walks ranks in increasing order, keeping the placement of the first `k-1` tiles (the run's prefix).
struct Cursor<'a> {
    ctx: &'a Ctx<'a>,
    /// Rank of the first placement of the current run.
    base: usize,
    /// `cells[..k-1]`: the prefix tiles' cells.
    cells: [u8; MAX_PATTERN_TILES],
    occ: u32,
    parity: u32,
    md: u32,
}

impl<'a> Cursor<'a> {
    fn new(ctx: &'a Ctx<'a>, index: usize) -> Cursor<'a> {
        let mut c = Cursor { ctx, base: 0, cells: [0; MAX_PATTERN_TILES], occ: 0, parity: 0, md: 0 };
        c.jump(index - index % ctx.run);
        c
    }

    /// Positions the cursor on the run starting at `base` by unranking.
    fn jump(&mut self, base: usize) {
        let ctx = self.ctx;
        self.base = base;
        ctx.pattern.unrank(base as u64, &mut self.cells);
        (self.occ, self.parity, self.md) = (0, 0, 0);
        for i in 0..ctx.k - 1 {
            let c = self.cells[i] as usize;
            self.occ |= 1 << c;
            self.parity ^= ctx.geo.odd >> c & 1;
            self.md += ctx.md[i][c];
        }
    }

    /// The next run: the last prefix tile moves to the next free cell, or, on a carry, unrank afresh.
    fn step(&mut self) {
        let ctx = self.ctx;
        let base = self.base + ctx.run;
        let i = ctx.k - 2;
        let c = self.cells[i] as u32;
        let others = self.occ & !(1 << c);
        let later = ctx.geo.r.all & !others & !((2 << c) - 1);
        if later == 0 {
            return self.jump(base);
        }
        let to = later.trailing_zeros();
        self.base = base;
        self.cells[i] = to as u8;
        self.occ = others | 1 << to;
        self.parity ^= (ctx.geo.odd >> c ^ ctx.geo.odd >> to) & 1;
        self.md = self.md + ctx.md[i][to as usize] - ctx.md[i][c as usize];
    }

    /// The placement of rank `index`, which must not be below the previous one asked for.
    #[inline]
    fn seek(&mut self, index: usize) -> Placement {
        let ctx = self.ctx;
        if index >= self.base + ctx.run {
            if index < self.base + 4 * ctx.run {
                while index >= self.base + ctx.run {
                    self.step();
                }
            } else {
                self.jump(index - index % ctx.run);
            }
        }
        let last = select(ctx.geo.r.all & !self.occ, (index - self.base) as u32) as usize;
        let mut cells = self.cells;
        cells[ctx.k - 1] = last as u8;
        Placement {
            cells,
            occ: self.occ | 1 << last,
            parity: self.parity ^ (ctx.geo.odd >> last & 1),
            md: self.md + ctx.md[ctx.k - 1][last],
        }
    }
}

/// Children waiting to be marked, their cache lines prefetched on arrival.
struct Pending<'a, const LB: u32> {
    words: &'a [AtomicU64],
    ring: [(usize, u64); RING],
    head: usize,
    len: usize,
}

const RING: usize = 64;

impl<'a, const LB: u32> Pending<'a, LB> {
    const LANES: usize = (64 / LB) as usize;

    fn new(words: &'a [AtomicU64]) -> Self {
        Pending { words, ring: [(0, 0); RING], head: 0, len: 0 }
    }

    #[inline]
    fn push(&mut self, child: usize, label: u32) {
        let word = child / Self::LANES;
        let bits = (1u64 << label | 1u64 << (label + LB / 2)) << (child % Self::LANES * LB as usize);
        puzzle::prefetch::line(&self.words[word]);
        if self.len == RING {
            let (w, b) = self.ring[self.head];
            self.mark(w, b);
            self.len -= 1;
            self.head = (self.head + 1) % RING;
        }
        self.ring[(self.head + self.len) % RING] = (word, bits);
        self.len += 1;
    }

    /// Sets a child's seen and frontier bits unless the region was seen already (checked with a plain load
    /// first: most children are old states, and a locked instruction costs far more than a load). The old
    /// value is not needed, so this is a single `lock or`, not a compare-exchange loop.
    #[inline]
    fn mark(&mut self, word: usize, bits: u64) {
        let w = &self.words[word];
        if w.load(Relaxed) & bits & seen_mask(LB) == 0 {
            w.fetch_or(bits, Relaxed);
        }
    }

    fn flush(&mut self) {
        while self.len > 0 {
            let (w, b) = self.ring[self.head];
            self.mark(w, b);
            self.len -= 1;
            self.head = (self.head + 1) % RING;
        }
    }
}

/// The seen bits of every slot of a word.
const fn seen_mask(lb: u32) -> u64 {
    let slot_seen = low_bits(lb / 2);
    match lb {
        16 => slot_seen * 0x0001_0001_0001_0001,
        32 => slot_seen * 0x0000_0001_0000_0001,
        _ => slot_seen,
    }
}

/// The lowest `n` bits set, for `n` up to 64.
const fn low_bits(n: u32) -> u64 {
    if n == 64 {
        u64::MAX
    } else {
        (1 << n) - 1
    }
}

/// Totals of one pass over a chunk of words.
#[derive(Default, Clone, Copy)]
struct PassStats {
    /// Placements first reached at this depth.
    found: u64,
    /// States of this depth (the BFS ends at the first depth without any).
    expanded: u64,
    max_excess: u8,
}

impl PassStats {
    fn merge(self, o: PassStats) -> PassStats {
        PassStats {
            found: self.found + o.found,
            expanded: self.expanded + o.expanded,
            max_excess: self.max_excess.max(o.max_excess),
        }
    }
}

/// Words a parallel task scans.
const CHUNK_WORDS: usize = 4096;
/// Words tested together for frontier bits.
const SKIP_WORDS: usize = 8;

fn search<const LB: u32>(ctx: &Ctx, progress: &mut dyn FnMut(&DepthReport)) -> std::io::Result<Table> {
    let start = Instant::now();
    let slots = (64 / LB) as usize;
    let entries = ctx.pattern.size() as usize;
    let words = Zeroed::<AtomicU64>::new(entries.div_ceil(slots))?;
    // A blank-aware table is kept in nibbles from the start: its entries are several times a plain table's.
    let encoding = if ctx.labels > 1 { Encoding::Nibble } else { Encoding::Byte };
    let mut excess = Zeroed::<u8>::new(encoding.payload_len((entries * ctx.labels) as u64) as usize)?;

    // The goal: every pattern tile on its home cell (its number), the blank's region the one holding cell 0,
    // which is the smallest free cell, hence label 0.
    let goal = ctx.pattern.rank(ctx.pattern.tiles()) as usize;
    let goal_parity = ctx.pattern.tiles().iter().fold(0, |p, &t| p ^ (ctx.geo.odd >> t & 1));
    words[goal / slots].fetch_or((1 | 1 << (LB / 2)) << (goal % slots * LB as usize), Relaxed);

    let mut histogram = Vec::new();
    let mut reached = 0u64;
    let mut max_excess = 0u8;
    for depth in 0u32.. {
        let parity = goal_parity ^ (depth & 1);
        let stats = excess
            .par_chunks_mut(encoding.payload_len((CHUNK_WORDS * slots * ctx.labels) as u64) as usize)
            .enumerate()
            .map(|(chunk, out)| scan::<LB>(ctx, &words, chunk * CHUNK_WORDS, out, depth, parity))
            .reduce(PassStats::default, PassStats::merge);
        if stats.expanded == 0 {
            break;
        }
        histogram.push(stats.found);
        reached += stats.found;
        max_excess = max_excess.max(stats.max_excess);
        progress(&DepthReport {
            depth,
            new_entries: stats.found,
            reached,
            entries: entries as u64,
            elapsed: start.elapsed(),
        });
    }
    let unreachable = entries as u64 - reached;
    if ctx.labels > 1 {
        // Entries, not placements: every label's value, counted from the entries themselves.
        histogram = puzzle::pdb_file::histogram_of(ctx.board, ctx.pattern, encoding, &excess, ctx.labels as u32);
    } else if unreachable > 0 {
        for (value, count) in unreached_by_manhattan::<LB>(ctx, &words).into_iter().enumerate() {
            if histogram.len() <= value {
                histogram.resize(value + 1, 0);
            }
            histogram[value] += count;
        }
    }
    Ok(Table { excess, encoding, histogram, max_excess, unreachable })
}

/// Pass `depth` over the words `first..first + CHUNK_WORDS`; `out` holds their entries' excess bytes.
fn scan<const LB: u32>(
    ctx: &Ctx,
    words: &[AtomicU64],
    first: usize,
    out: &mut [u8],
    depth: u32,
    parity: u32,
) -> PassStats {
    let slots = (64 / LB) as usize;
    let half = LB / 2;
    let slot_mask = low_bits(LB);
    let frontier_mask = seen_mask(LB) << half;
    let first_entry = first * slots;
    let mut cursor = Cursor::new(ctx, first_entry);
    let mut pending = Pending::<LB>::new(words);
    let mut stats = PassStats::default();
    let end = (first + CHUNK_WORDS).min(words.len());
    for block in (first..end).step_by(SKIP_WORDS) {
        let block = block..(block + SKIP_WORDS).min(end);
        // Most words have no frontier bits in most passes: test several at once with one branch.
        if words[block.clone()].iter().fold(0, |acc, w| acc | w.load(Relaxed)) & frontier_mask == 0 {
            continue;
        }
        for w in block {
            let word = &words[w];
            let bits = word.load(Relaxed);
            if bits & frontier_mask == 0 {
                continue;
            }
            let mut expanded = 0u64;
            for slot in 0..slots {
                let value = bits >> (slot * LB as usize) & slot_mask;
                let frontier = (value >> half) as u32;
                if frontier == 0 {
                    continue;
                }
                let index = w * slots + slot;
                let placement = cursor.seek(index);
                if placement.parity != parity {
                    continue; // a child marked in this pass
                }
                let md = placement.md;
                assert!(
                    depth >= md && (depth - md).is_multiple_of(2),
                    "depth {depth} and Manhattan distance {md} differ in parity"
                );
                let e = ((depth - md) / 2) as u8;
                let at = (index - first_entry) * ctx.labels;
                if (value & low_bits(half)) as u32 == frontier {
                    // First reached now: the PDB value is `depth`, and every label's entry starts at it (a
                    // label no region of this placement has keeps it).
                    if ctx.labels == 1 {
                        out[at] = e;
                    } else {
                        (0..ctx.labels).for_each(|l| put_nibble(out, at + l, e));
                    }
                    stats.found += 1;
                    stats.max_excess = stats.max_excess.max(e);
                } else if ctx.labels > 1 {
                    // A blank-aware table: the regions reached now are `depth` moves away. The last entry takes
                    // the first depth at which any region labelled from it up is reached.
                    let last = ctx.labels - 1;
                    let seen_before = (value & low_bits(half)) as u32 & !frontier;
                    for l in puzzle::regions::bits(frontier) {
                        if l < last {
                            put_nibble(out, at + l, e);
                        } else if seen_before >> last == 0 {
                            put_nibble(out, at + last, e);
                            break;
                        }
                    }
                    stats.max_excess = stats.max_excess.max(e);
                }
                stats.expanded += frontier.count_ones() as u64;
                expand(ctx, &placement, index, frontier, &mut pending);
                expanded |= (frontier as u64) << (slot * LB as usize + half as usize);
            }
            if expanded != 0 {
                word.fetch_and(!expanded, Relaxed);
            }
        }
    }
    pending.flush();
    stats
}

/// Sets entry `i` of a nibble-packed array (an excess over 15 is cut to its low bits, and the build fails).
#[inline]
fn put_nibble(out: &mut [u8], i: usize, e: u8) {
    let shift = (i & 1) * 4;
    out[i / 2] = out[i / 2] & !(0xF << shift) | (e & 0xF) << shift;
}

/// Queues every child of the states (`placement`, region labelled `l`) for each bit `l` of `frontier`.
#[inline]
fn expand<const LB: u32>(ctx: &Ctx, placement: &Placement, rank: usize, frontier: u32, pending: &mut Pending<LB>) {
    let geo = &ctx.geo;
    let free = geo.r.all & !placement.occ;
    let mut pattern_index = [0u8; MAX_CELLS];
    for (i, &c) in placement.cells[..ctx.k].iter().enumerate() {
        pattern_index[c as usize] = i as u8;
    }
    for (l, region) in geo.r.regions(free, free).enumerate().take(32 - frontier.leading_zeros() as usize) {
        if frontier >> l & 1 == 0 {
            continue;
        }
        // Each pattern tile next to the region moves into any region cell next to it; the blank ends on the
        // cell the tile left.
        for from in bits(geo.r.spread(region) & placement.occ) {
            let i = pattern_index[from] as usize;
            for to in bits(geo.neighbors[from] & region) {
                let free_after = free ^ (1 << to) ^ (1 << from);
                let (lo, hi) = (from.min(to), from.max(to));
                let between = placement.occ & ((1 << hi) - 1) & !((2 << lo) - 1);
                let delta = ctx.pattern.delta(i, from, to, bits(between).map(|c| pattern_index[c] as usize));
                pending.push((rank as i64 + delta) as usize, geo.r.label_of(free_after, from));
            }
        }
    }
}

/// Manhattan-distance histogram of the placements never reached (their seen bits are all clear).
fn unreached_by_manhattan<const LB: u32>(ctx: &Ctx, words: &[AtomicU64]) -> Vec<u64> {
    let slots = (64 / LB) as usize;
    let entries = ctx.pattern.size() as usize;
    let mut cursor = Cursor::new(ctx, 0);
    let mut hist = Vec::new();
    for index in 0..entries {
        let value = words[index / slots].load(Relaxed) >> (index % slots * LB as usize) & low_bits(LB / 2);
        if value == 0 {
            let md = cursor.seek(index).md as usize;
            if hist.len() <= md {
                hist.resize(md + 1, 0);
            }
            hist[md] += 1;
        }
    }
    hist
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cursor_walks_ranks_like_unrank() {
        let board: Board = "3x4".parse().unwrap();
        let pattern = Pattern::new(12, &[2, 5, 7, 11]);
        let ctx = Ctx::new(board, &pattern, 1);
        let mut cursor = Cursor::new(&ctx, 0);
        let mut cells = [0u8; MAX_PATTERN_TILES];
        for index in (0..pattern.size() as usize).step_by(7) {
            let p = cursor.seek(index);
            pattern.unrank(index as u64, &mut cells);
            assert_eq!(p.cells[..4], cells[..4], "rank {index}");
            assert_eq!(p.md, puzzle::pdb_file::pattern_manhattan(board, &pattern, &cells[..4]));
        }
    }
}
