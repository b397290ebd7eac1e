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
//!   labels are below the most regions `k` pattern tiles can cut the board into ([`max_regions`]: 5 for six
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
use puzzle::rank::MAX_PATTERN_TILES;
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
pub struct Table {
    /// Each placement's `(value - md) / 2`, by rank.
    pub excess: Zeroed<u8>,
    /// Placements of each value, from 0: what the file's header records and the tests compare.
    pub histogram: Vec<u64>,
    /// The largest excess, which decides the file's encoding.
    pub max_excess: u8,
    /// Placements the goal cannot reach (none on 4x4); stored with excess 0, i.e. value = Manhattan distance,
    /// which is admissible because no solvable position has them.
    pub unreachable: u64,
}

/// Bytes the search for `pattern` holds at its peak: the slot words, the one-byte excess array and the
/// region tables (the slots are freed before the payload is encoded, and the payload is never larger than
/// the excess array).
pub fn memory_needed(board: Board, pattern: &Pattern) -> u64 {
    let entries = pattern.size();
    let slots = 64 / slot_bits(board, pattern) as u64;
    let tables = if tabled(board) { (1u64 << board.cells()) * (16 * 2 + 8) } else { 0 };
    entries.div_ceil(slots) * 8 + entries + tables
}

/// Whether regions and labels come from tables over all cell sets (see the module notes).
fn tabled(board: Board) -> bool {
    board.cells() <= TABLED_CELLS
}

/// Largest board whose region tables are made: 16 cells, 2.5 MiB.
const TABLED_CELLS: usize = 16;

/// A slot holds a seen and a frontier bit per possible region label.
fn slot_bits(board: Board, pattern: &Pattern) -> u32 {
    match max_regions(&BoardGraph::untabled(board), pattern.len()) {
        0..=8 => 16,
        9..=16 => 32,
        _ => 64,
    }
}

/// The most regions the free cells fall into when `k` cells of the board are taken, over every set of `k`
/// cells (at most C(25, 12) = 5.2 M flood fills; 480,700 for seven tiles on 5x5, a few milliseconds).
fn max_regions(geo: &BoardGraph, k: usize) -> u32 {
    let n = geo.all.count_ones();
    if k == 0 || k as u32 >= n {
        return 1;
    }
    let mut most = 1;
    let mut occ = (1u32 << k) - 1;
    while occ <= geo.all {
        let free = geo.all & !occ;
        most = most.max(geo.regions(free, free).count() as u32);
        // The next set of `k` cells in increasing order (Gosper's hack).
        let low = occ & occ.wrapping_neg();
        let ripple = occ + low;
        occ = (((ripple ^ occ) >> 2) / low) | ripple;
    }
    most
}

/// Computes the table of `pattern` on `board` in the current rayon pool, calling `progress` after each depth.
pub fn build(board: Board, pattern: &Pattern, progress: &mut dyn FnMut(&DepthReport)) -> std::io::Result<Table> {
    let ctx = Ctx::new(board, pattern);
    match slot_bits(board, pattern) {
        16 => search::<16>(&ctx, progress),
        32 => search::<32>(&ctx, progress),
        _ => search::<64>(&ctx, progress),
    }
}

/// Cell masks of a board (bit `c` = cell `c`).
struct BoardGraph {
    all: u32,
    not_first_col: u32,
    not_last_col: u32,
    cols: u32,
    neighbors: [u32; MAX_CELLS],
    /// Cells whose row + col is odd.
    odd: u32,
    /// `components[free << 4 | c]`: the connected part of the cell set `free` that holds cell `c` (2 MiB on
    /// 4x4; a flood fill instead is a chain of dependent shifts per step). Empty on boards of more than
    /// [`TABLED_CELLS`] cells, which flood fill instead.
    components: Vec<u16>,
    /// `labels[free]`: nibble `c` is the label of the region of `free` holding cell `c`. Looked up once per
    /// child, so it is kept small (512 KiB on 4x4) to stay in L2 next to the slot words. Empty like
    /// `components`.
    labels: Vec<u64>,
}

impl BoardGraph {
    fn new(board: Board) -> BoardGraph {
        let mut g = BoardGraph::untabled(board);
        if !tabled(board) {
            return g;
        }
        let n = board.cells();
        let mut components = vec![0u16; 16 << n];
        let mut labels = vec![0u64; 1 << n];
        for free in 0..1u32 << n {
            for (l, part) in g.regions(free, free).enumerate() {
                for x in bits(part) {
                    components[(free << 4) as usize | x] = part as u16;
                    labels[free as usize] |= (l as u64) << (4 * x);
                }
            }
        }
        (g.components, g.labels) = (components, labels);
        g
    }

    /// The masks without the region tables: every region is flood-filled.
    fn untabled(board: Board) -> BoardGraph {
        let n = board.cells();
        let mut g = BoardGraph {
            all: (1 << n) - 1,
            not_first_col: 0,
            not_last_col: 0,
            cols: board.cols() as u32,
            neighbors: [0; MAX_CELLS],
            odd: 0,
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
            if (board.row(c) + board.col(c)) % 2 == 1 {
                g.odd |= 1 << c;
            }
            g.neighbors[c] = board.neighbors(c).fold(0, |m, x| m | 1 << x);
        }
        g
    }

    /// The regions of `free` that hold a cell of `starts` (a subset of `free`), in the order of their lowest
    /// cell in `starts`. With `starts == free` the `l`-th is the region labelled `l`; with `starts` the free
    /// cells below some cell, they are the regions whose smallest cell is below it.
    #[inline]
    fn regions(&self, free: u32, starts: u32) -> impl Iterator<Item = u32> + '_ {
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
    fn label_of(&self, free: u32, cell: usize) -> u32 {
        if self.labels.is_empty() {
            let region = self.flood(1 << cell, free);
            let below = free & ((region & region.wrapping_neg()) - 1);
            return self.regions(free, below).count() as u32;
        }
        (self.labels[free as usize] >> (4 * cell) & 15) as u32
    }

    /// The connected part of `free` holding `cell` (a cell of `free`).
    #[inline]
    fn region(&self, free: u32, cell: usize) -> u32 {
        if self.components.is_empty() {
            return self.flood(1 << cell, free);
        }
        self.components[(free << 4) as usize | cell] as u32
    }

    /// Cells adjacent to some cell of `m`.
    #[inline]
    fn spread(&self, m: u32) -> u32 {
        ((m << 1 & self.not_first_col) | (m >> 1 & self.not_last_col) | m << self.cols | m >> self.cols) & self.all
    }

    /// The connected part of `free` containing `from` (a subset of `free`).
    #[inline]
    fn flood(&self, from: u32, free: u32) -> u32 {
        let mut r = from;
        loop {
            let next = (r | self.spread(r)) & free;
            if next == r {
                return r;
            }
            r = next;
        }
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

fn bits(mut m: u32) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (m != 0).then(|| {
            let b = m.trailing_zeros();
            m &= m - 1;
            b as usize
        })
    })
}

struct Ctx<'a> {
    geo: BoardGraph,
    pattern: &'a Pattern,
    k: usize,
    /// Placements sharing the first `k-1` tiles: `cells - k + 1` consecutive ranks.
    run: usize,
    /// `md[i][c]`: Manhattan distance of pattern tile `i` standing on cell `c`.
    md: [[u32; MAX_CELLS]; MAX_PATTERN_TILES],
}

impl Ctx<'_> {
    fn new(board: Board, pattern: &Pattern) -> Ctx<'_> {
        let mut md = [[0; MAX_CELLS]; MAX_PATTERN_TILES];
        for (i, &t) in pattern.tiles().iter().enumerate() {
            for (c, d) in md[i].iter_mut().enumerate().take(board.cells()) {
                *d = board.manhattan(t as usize, c);
            }
        }
        Ctx { geo: BoardGraph::new(board), pattern, k: pattern.len(), run: board.cells() - pattern.len() + 1, md }
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
        let later = ctx.geo.all & !others & !((2 << c) - 1);
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
        let last = select(ctx.geo.all & !self.occ, (index - self.base) as u32) as usize;
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
        prefetch(&self.words[word]);
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

#[inline]
fn prefetch(p: &AtomicU64) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: prefetching is a hint with no architectural effect; the address is a valid reference anyway.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>((p as *const AtomicU64).cast())
    };
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
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
    let mut excess = Zeroed::<u8>::new(entries)?;

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
            .par_chunks_mut(CHUNK_WORDS * slots)
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
    if unreachable > 0 {
        for (value, count) in unreached_by_manhattan::<LB>(ctx, &words).into_iter().enumerate() {
            if histogram.len() <= value {
                histogram.resize(value + 1, 0);
            }
            histogram[value] += count;
        }
    }
    Ok(Table { excess, histogram, max_excess, unreachable })
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
                if (value & low_bits(half)) as u32 == frontier {
                    // First reached now: the PDB value is `depth`.
                    let md = placement.md;
                    assert!(
                        depth >= md && (depth - md).is_multiple_of(2),
                        "depth {depth} and Manhattan distance {md} differ in parity"
                    );
                    let e = ((depth - md) / 2) as u8;
                    out[index - first_entry] = e;
                    stats.found += 1;
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

/// Queues every child of the states (`placement`, region labelled `l`) for each bit `l` of `frontier`.
#[inline]
fn expand<const LB: u32>(ctx: &Ctx, placement: &Placement, rank: usize, frontier: u32, pending: &mut Pending<LB>) {
    let geo = &ctx.geo;
    let free = geo.all & !placement.occ;
    let mut pattern_index = [0u8; MAX_CELLS];
    for (i, &c) in placement.cells[..ctx.k].iter().enumerate() {
        pattern_index[c as usize] = i as u8;
    }
    for (l, region) in geo.regions(free, free).enumerate().take(32 - frontier.leading_zeros() as usize) {
        if frontier >> l & 1 == 0 {
            continue;
        }
        // Each pattern tile next to the region moves into any region cell next to it; the blank ends on the
        // cell the tile left.
        for from in bits(geo.spread(region) & placement.occ) {
            let i = pattern_index[from] as usize;
            for to in bits(geo.neighbors[from] & region) {
                let free_after = free ^ (1 << to) ^ (1 << from);
                let (lo, hi) = (from.min(to), from.max(to));
                let between = placement.occ & ((1 << hi) - 1) & !((2 << lo) - 1);
                let delta = ctx.pattern.delta(i, from, to, bits(between).map(|c| pattern_index[c] as usize));
                pending.push((rank as i64 + delta) as usize, geo.label_of(free_after, from));
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
    fn flood_fill_and_labels() {
        let g = BoardGraph::new(Board::FOUR);
        // Pattern tiles on cells 1 and 4 cut cell 0 off.
        let free = g.all & !(1 << 1 | 1 << 4);
        assert_eq!(g.flood(1, free), 1);
        let rest = g.flood(1 << 15, free);
        assert_eq!(rest, free & !1);
        assert_eq!(select(free, 1), 2);
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
        let tables = BoardGraph::new(board);
        let mut plain = BoardGraph::new(board);
        (plain.components, plain.labels) = (Vec::new(), Vec::new());
        for free in (0..1u32 << 16).step_by(97) {
            for c in bits(free) {
                assert_eq!(
                    (plain.region(free, c), plain.label_of(free, c)),
                    (tables.region(free, c), tables.label_of(free, c))
                );
            }
        }
        let five = BoardGraph::new("5x5".parse().unwrap());
        assert!(five.labels.is_empty());
        // Tiles on cells 1 and 5 cut cell 0 off; the rest is one region.
        let free = five.all & !(1 << 1 | 1 << 5);
        assert_eq!((five.region(free, 0), five.label_of(free, 0), five.label_of(free, 24)), (1, 0, 1));
        // Labels count regions, not free cells: cells 0 and 24 cut off, the region of cell 24 is the third.
        let free = five.all & !(1 << 1 | 1 << 5 | 1 << 19 | 1 << 23);
        assert_eq!((five.label_of(free, 0), five.label_of(free, 2), five.label_of(free, 24)), (0, 1, 2));
        assert_eq!(five.regions(free, free).collect::<Vec<_>>(), [1, free & !(1 | 1 << 24), 1 << 24]);
    }

    /// The slot width follows the most regions a pattern's tiles can make, found by trying every cell set.
    #[test]
    fn most_regions() {
        let most = |board: &str, k| max_regions(&BoardGraph::untabled(board.parse().unwrap()), k);
        // Two opposite corners of a 2x2 board split the other two; a single cell splits nothing.
        assert_eq!((most("2x2", 1), most("2x2", 2), most("2x2", 3)), (1, 2, 1));
        // Cells 1, 3, 4, 6 of a 3x3 board leave four corners and the centre apart.
        assert_eq!(most("3x3", 4), 5);
        // What the slot widths rest on: 16-bit slots for every 4x4 pattern and for 6 and 7 tiles on 5x5.
        assert!((1..16).all(|k| most("4x4", k) <= 8));
        assert_eq!((most("5x5", 6), most("5x5", 7)), (5, 6));
    }

    #[test]
    fn cursor_walks_ranks_like_unrank() {
        let board: Board = "3x4".parse().unwrap();
        let pattern = Pattern::new(12, &[2, 5, 7, 11]);
        let ctx = Ctx::new(board, &pattern);
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
