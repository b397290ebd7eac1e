//! Heuristics in the form the search wants: a small per-node value updated per move, never recomputed.
//!
//! Every heuristic here includes the Manhattan distance, so `h == 0` exactly at the goal; the search uses
//! that as its goal test.

use puzzle::heuristic::LinearConflict;
use puzzle::pdb_file::{Encoding, PdbFile};
use puzzle::regions::Regions;
use puzzle::{Board, MAX_CELLS};
use std::sync::Arc;

/// A heuristic evaluated incrementally along the search path.
pub trait Heuristic: Sync {
    /// What a node carries: enough to update the estimate when one tile moves.
    type Node: Copy + Default + Send + Sync;

    /// The node of a whole position (`tiles[cell]` = tile on it).
    fn root(&self, tiles: &[u8; MAX_CELLS]) -> Self::Node;

    /// The estimate a node carries: admissible, and 0 exactly at the goal.
    fn h(node: &Self::Node) -> u32;

    /// Writes to `out` the child node when `tile` slides from cell `from` into the blank on `to`; `tiles` is
    /// the position before the move. (Written in place, not returned: a node built on the stack field by field
    /// and then copied whole into the search's frame stalls on store forwarding.) Table-based heuristics only start loading their entries here: the search makes
    /// all siblings, lets other lanes run (see `lanes`), and only then calls [`Heuristic::settle`] on each,
    /// so the reads overlap each other and other work.
    fn child(&self, node: &Self::Node, tiles: &[u8; MAX_CELLS], tile: u8, from: usize, to: usize, out: &mut Self::Node);

    /// Finishes a child made by [`Heuristic::child`]: reads what it started loading and sets `h`. `limit` is
    /// the largest estimate at which the search keeps the child: once the estimate is known to be over it,
    /// the rest of the reads may be skipped, leaving an `h` that is over `limit` and admissible but maybe not
    /// the largest. The search never makes children of such a node, so nothing it skipped is needed later.
    #[inline(always)]
    fn settle(&self, _node: &mut Self::Node, _limit: u32) {}

    /// Whether the search propagates estimates with BPMX (a child's estimate less one bounds its parent's,
    /// and a parent's less one its children's): for an inconsistent estimate such as the dual lookups'. A
    /// constant, so a search without it has no trace of it.
    const BPMX: bool = false;

    /// Raises the estimate a node carries to `h`, a bound BPMX found (only called when [`Heuristic::BPMX`]).
    #[inline(always)]
    fn raise(_node: &mut Self::Node, _h: u32) {}

    /// The tables it reads, set by set in pattern order, with their headers: what a result records it was
    /// solved with (none for a heuristic computed from the position alone).
    fn files(&self) -> Vec<&PdbFile> {
        Vec::new()
    }
}

/// `md[tile][cell]`: a tile's Manhattan distance from home on each cell (0 for the blank).
fn manhattan_table(board: Board) -> [[u8; MAX_CELLS]; MAX_CELLS] {
    let mut md = [[0u8; MAX_CELLS]; MAX_CELLS];
    for (t, row) in md.iter_mut().enumerate().take(board.cells()).skip(1) {
        for (c, v) in row.iter_mut().enumerate().take(board.cells()) {
            *v = board.manhattan(t, c) as u8;
        }
    }
    md
}

fn manhattan_of(md: &[[u8; MAX_CELLS]; MAX_CELLS], tiles: &[u8; MAX_CELLS]) -> u32 {
    tiles.iter().enumerate().map(|(c, &t)| md[t as usize][c] as u32).sum()
}

/// Plain Manhattan distance.
pub struct Manhattan {
    md: [[u8; MAX_CELLS]; MAX_CELLS],
}

impl Manhattan {
    /// Precomputes every tile's distance from every cell to its home on `board`.
    pub fn new(board: Board) -> Manhattan {
        Manhattan { md: manhattan_table(board) }
    }
}

impl Heuristic for Manhattan {
    type Node = u32;

    fn root(&self, tiles: &[u8; MAX_CELLS]) -> u32 {
        manhattan_of(&self.md, tiles)
    }

    #[inline(always)]
    fn h(node: &u32) -> u32 {
        *node
    }

    #[inline(always)]
    fn child(&self, node: &u32, _tiles: &[u8; MAX_CELLS], tile: u8, from: usize, to: usize, out: &mut u32) {
        let row = &self.md[tile as usize];
        *out = node + row[to] as u32 - row[from] as u32;
    }
}

/// Manhattan distance plus linear conflict. A horizontal move changes only the two columns' conflicts (the
/// order within the row is kept), a vertical one only the two rows'; those two lines are re-read.
pub struct LinearConflictH {
    md: [[u8; MAX_CELLS]; MAX_CELLS],
    lc: LinearConflict,
}

/// Most lines (rows plus columns) of a board: 14, on 2x12.
const MAX_LINES: usize = 2 + MAX_CELLS / 2;

/// Manhattan distance, total line conflicts, and each line's conflicts (rows first).
#[derive(Clone, Copy, Debug, Default)]
pub struct LcNode {
    md: u16,
    conflicts: u16,
    lines: [u8; MAX_LINES],
}

impl LinearConflictH {
    /// Precomputes the Manhattan distances and the line conflicts of `board`.
    pub fn new(board: Board) -> LinearConflictH {
        LinearConflictH { md: manhattan_table(board), lc: LinearConflict::new(board) }
    }
}

impl Heuristic for LinearConflictH {
    type Node = LcNode;

    fn root(&self, tiles: &[u8; MAX_CELLS]) -> LcNode {
        let mut lines = [0u8; MAX_LINES];
        for (v, line) in lines.iter_mut().zip(&self.lc.lines) {
            *v = line.conflicts(|c| tiles[c]);
        }
        LcNode { md: manhattan_of(&self.md, tiles) as u16, conflicts: lines.iter().map(|&x| x as u16).sum(), lines }
    }

    #[inline(always)]
    fn h(node: &LcNode) -> u32 {
        node.md as u32 + 2 * node.conflicts as u32
    }

    #[inline(always)]
    fn child(&self, node: &LcNode, tiles: &[u8; MAX_CELLS], tile: u8, from: usize, to: usize, out: &mut LcNode) {
        let row = &self.md[tile as usize];
        *out = *node;
        let n = out;
        n.md = n.md + row[to] as u16 - row[from] as u16;
        let (a, b) = if from.abs_diff(to) == 1 {
            (self.lc.col_line(from), self.lc.col_line(to))
        } else {
            (self.lc.row_line(from), self.lc.row_line(to))
        };
        let after = |c: usize| {
            if c == to {
                tile
            } else if c == from {
                0
            } else {
                tiles[c]
            }
        };
        for l in [a, b] {
            let new = self.lc.lines[l].conflicts(after);
            n.conflicts = n.conflicts + new as u16 - n.lines[l] as u16;
            n.lines[l] = new;
        }
    }
}

/// One way of looking a position up in the tables: the position itself, or its reflection about the main
/// diagonal (square boards), which maps the goal onto itself and so gives a second admissible estimate.
#[derive(Clone, Copy)]
struct View {
    /// A cell as seen in this view (the map is its own inverse).
    cell: [u8; MAX_CELLS],
    /// For each tile of the real position, the pattern and index in it of the tile it is in this view;
    /// `NONE` for the blank.
    slot: [(u8, u8); MAX_CELLS],
}

const NONE: u8 = 0xFF;

impl View {
    /// The view of the position reflected about the main diagonal of the square `board`, given which
    /// pattern and index each tile has (`owner`): real tile t appears as tile transpose(t) on the transposed
    /// cell.
    fn reflected(board: Board, owner: &[(u8, u8); MAX_CELLS]) -> View {
        let mut cell = [0u8; MAX_CELLS];
        let mut slot = [(NONE, NONE); MAX_CELLS];
        for c in 0..board.cells() {
            cell[c] = board.transpose(c) as u8;
            if c != 0 {
                slot[c] = owner[board.transpose(c)];
            }
        }
        View { cell, slot }
    }
}

/// A table's payload, decoded without bounds checks in the search.
#[derive(Clone, Copy)]
struct Payload {
    ptr: *const u8,
    /// 1 for 4-bit entries (index >> 1, nibble by index & 1), 0 for one-byte entries.
    nibble: u32,
    mask: u8,
    entries: u64,
    /// Entries a placement has: 1, or the region labels of a blank-aware table.
    labels: u32,
    /// A nibble 1 for each label: a placement's group of entries all equal to `x` is `x * ones`.
    ones: u64,
    /// Bytes of the payload.
    bytes: usize,
}

impl Payload {
    /// No table: what the slots past the last table hold.
    const NONE: Payload =
        Payload { ptr: std::ptr::null(), nibble: 0, mask: 0, entries: 0, labels: 1, ones: 1, bytes: 0 };

    /// `f`'s payload, read in place in its mapping.
    fn of(f: &PdbFile) -> Payload {
        let nibble = (f.header.encoding == Encoding::Nibble) as u32;
        Payload {
            ptr: f.payload().as_ptr(),
            nibble,
            mask: if nibble == 1 { 0xF } else { 0xFF },
            entries: f.header.entries,
            labels: f.header.labels,
            ones: (0..f.header.labels).fold(0, |m, l| m | 1 << (4 * l)),
            bytes: f.payload().len(),
        }
    }

    /// The entries of every label of one placement of a blank-aware table (nibbles, which the header check
    /// guarantees), the first at `first`: label `l` in bits `4l..4l + 4`.
    ///
    /// # Safety
    /// `first` is a placement's first entry: `first + labels <= entries`.
    #[inline(always)]
    unsafe fn group(&self, first: u32) -> u64 {
        debug_assert!(first as u64 + self.labels as u64 <= self.entries && self.nibble == 1);
        let byte = (first >> 1) as usize;
        if self.labels == 2 {
            // Two entries a placement (`--labels 2`): `first` is even, so the group is the byte at `byte`.
            // SAFETY: `byte` is inside the payload, since `first` is an entry.
            return unsafe { *self.ptr.add(byte) } as u64;
        }
        let word = if byte + 8 <= self.bytes {
            // SAFETY: bytes `byte..byte + 8` are inside the payload (checked just above); the read is unaligned.
            u64::from_le(unsafe { self.ptr.add(byte).cast::<u64>().read_unaligned() })
        } else {
            // The payload's last few bytes: read no further than its end.
            // SAFETY: the payload is `bytes` bytes from `ptr`, mapped as long as the heuristic lives, and
            // `byte` is inside it since `first` is an entry.
            let tail = unsafe { std::slice::from_raw_parts(self.ptr.add(byte), self.bytes - byte) };
            tail.iter().rev().fold(0u64, |w, &b| w << 8 | b as u64)
        };
        // At most 8 labels and a nibble of offset: 36 bits of the 64.
        word >> ((first & 1) * 4) & (self.ones * 0xF)
    }

    /// # Safety
    /// `index < self.entries`.
    #[inline(always)]
    unsafe fn get(&self, index: u32) -> u8 {
        debug_assert!((index as u64) < self.entries);
        // SAFETY: the caller guarantees index < entries, and the mapping holds
        // `Encoding::payload_len(entries)` bytes (checked by `PdbFile::open` against the file length).
        let byte = unsafe { *self.ptr.add((index >> self.nibble) as usize) };
        byte >> ((index & self.nibble) * 4) & self.mask
    }

    #[inline(always)]
    fn prefetch(&self, index: u32) {
        puzzle::prefetch::line(self.ptr.wrapping_add((index >> self.nibble) as usize));
    }
}

/// Additive disjoint PDBs: `S` sets (partitions of the tiles) of up to `P` tables each, each set looked up as
/// the position and, on square boards, its reflection: `h = md + 2 * max over sets and views of the summed
/// excesses`. The sets share all but their tables: the Manhattan distance, the move's geometry and the tiles a
/// vertical move passes are found once a move, and each set then re-ranks and rereads only the table of the
/// moved tile in each view (a table two sets both hold is read once). A child is read set by set
/// and view by view only until it is known to be over the search's bound, so the second set costs its reads
/// only at children the first keeps. Two sets cut apart differently miss different interactions (on 5x5,
/// 6-6-6-6 and 7-6-6-5 together average 82.77 at random positions against 82.45 for the better alone). Not
/// maxed with linear conflict: on random positions that beats 7-8 + reflection once in 33,000 (BENCHMARKS.md).
pub struct PdbHeuristic<const P: usize, const S: usize, const Q: usize = 0> {
    md: [[u8; MAX_CELLS]; MAX_CELLS],
    /// `views[s][v]`: set `s` seen in view `v` (0: the position, 1: its reflection).
    views: [[View; 2]; S],
    nviews: usize,
    /// `weight[s][v][x]`: the rank weight of real tile `x` in set `s` as seen in view `v`.
    weight: [[[i32; MAX_CELLS]; 2]; S],
    /// `pass[s][v][x][y]`: what real tile `x` moving past real tile `y` adds to the rank's change in set `s`'s
    /// view `v` (before the direction's sign): `y`'s weight if `y` is a later tile of the same pattern, minus
    /// `x`'s weight if an earlier one, else 0. The blank and other patterns' tiles give 0.
    pass: [[[[i32; MAX_CELLS]; MAX_CELLS]; 2]; S],
    /// `geo[to][from]`: a move's shape in each view.
    geo: Box<[[Geometry; MAX_CELLS]; MAX_CELLS]>,
    /// Cells strictly between a move's ends in cell order, for a vertical move in a view: `cols - 1`.
    between: usize,
    payloads: [[Payload; P]; S],
    /// `same[s][p]`: the pattern of set 0 whose table is the very table of set `s`'s pattern `p` (same tiles,
    /// same kind, same payload hash), else `NONE`. Such a table's entry is set 0's in every view (a view maps
    /// a tile to the same tiles in both sets), so `settle` copies it instead of rereading it: 7-6-6-5 and
    /// 6-6-6-6 share their 17-18-19-22-23-24 table. The rank is still updated, which costs less than a test.
    same: [[u8; P]; S],
    /// The blank's regions, in a heuristic for blank-aware tables (`Q == P`): such a table's entry is found by
    /// the label of the region the blank is in among the cells its pattern's tiles leave free (labels tabled
    /// on boards of up to 16 cells), and only where the placement's entries differ.
    regions: Option<Regions>,
    /// `shifts[to * MAX_CELLS + from]`: what a move from `from` to `to` changes in a blank-aware node (empty
    /// unless `Q > 0`).
    shifts: Vec<Shift>,
    /// Owns the mappings the payload pointers point into.
    sets: [Arc<Vec<PdbFile>>; S],
}

/// A move from one cell to a neighbour as the views see it. Every move is horizontal in one view and
/// vertical in the other (the reflection swaps them), and only a vertical move passes cells between its
/// ends in cell order, whose tiles change the rank; so one list of cells serves both views.
#[derive(Clone, Copy, Default)]
struct Geometry {
    /// The change of the moved tile's cell number in each view.
    step: [i8; 2],
    /// Per view: the sign of `step` if the move is vertical in that view, else 0.
    passes: [i8; 2],
    /// The view the move is vertical in (1 for a horizontal move without reflection: a view never read).
    vertical: u8,
    /// The real cells strictly between the move's ends in that view's cell order, padded with the blank's
    /// cell, whose tile passes nothing.
    between: [u8; MAX_BETWEEN],
}

/// Cells between a vertical move's ends: `cols - 1`, at most 11 (a 2x12 board); the first `FAST_BETWEEN`
/// are read unconditionally (all of them up to 4 columns), the rest only on wider boards.
const MAX_BETWEEN: usize = MAX_CELLS / 2 - 1;
const FAST_BETWEEN: usize = 3;

// SAFETY: the raw payload pointers point into read-only mappings owned by `sets`, which live as long as
// the heuristic and are never written; sharing read-only memory between threads is sound.
unsafe impl<const P: usize, const S: usize, const Q: usize> Send for PdbHeuristic<P, S, Q> {}
// SAFETY: as above; nothing is mutated through a shared reference.
unsafe impl<const P: usize, const S: usize, const Q: usize> Sync for PdbHeuristic<P, S, Q> {}

/// A node of [`PdbHeuristic`]: the Manhattan distance and, for each set and view, each table's rank and
/// entry, so that a move re-ranks and rereads only the table of the tile it moved.
#[derive(Clone, Copy, Debug)]
pub struct PdbNode<const P: usize, const S: usize, const Q: usize = 0> {
    md: u16,
    h: u16,
    sums: [[u16; 2]; S],
    /// Each table's rank times its labels: the index of the placement's (first) entry.
    ranks: [[[u32; P]; 2]; S],
    excess: [[[u8; P]; 2]; S],
    /// The pattern whose rank the last move changed, per set and view (to be read by `settle`).
    moved: [[u8; 2]; S],
    /// The cells each pattern's tiles stand on, per set and view, and the blank's cell per view: kept only
    /// by a heuristic that reads blank-aware tables (`Q == P`; none when `Q == 0`).
    occ: [[[u32; Q]; 2]; S],
    blank: [u8; 2],
}

impl<const P: usize, const S: usize, const Q: usize> Default for PdbNode<P, S, Q> {
    fn default() -> Self {
        PdbNode {
            md: 0,
            h: 0,
            sums: [[0; 2]; S],
            ranks: [[[0; P]; 2]; S],
            excess: [[[0; P]; 2]; S],
            moved: [[0; 2]; S],
            occ: [[[0; Q]; 2]; S],
            blank: [0; 2],
        }
    }
}

impl<const P: usize, const S: usize, const Q: usize> PdbNode<P, S, Q> {
    /// The estimate from the Manhattan distance and the sums: the largest sum counts.
    #[inline(always)]
    fn set_h(&mut self) {
        let mut best = 0;
        for sums in &self.sums {
            best = best.max(sums[0]).max(sums[1]);
        }
        self.h = self.md + 2 * best;
    }
}

impl<const P: usize, const S: usize, const Q: usize> PdbHeuristic<P, S, Q> {
    /// Each set's tables in pattern order, validated (board, goal, tiles) by the caller's `PdbFile::open`.
    /// `reflect` adds the diagonal reflection (square boards only).
    pub fn new(board: Board, sets: [Arc<Vec<PdbFile>>; S], reflect: bool) -> PdbHeuristic<P, S, Q> {
        let reflect = reflect && board.is_square();
        let nviews = 1 + reflect as usize;
        let plain = View { cell: std::array::from_fn(|c| c as u8), slot: [(NONE, NONE); MAX_CELLS] };
        let mut views = [[plain; 2]; S];
        let mut weight = [[[0; MAX_CELLS]; 2]; S];
        let mut pass = [[[[0; MAX_CELLS]; MAX_CELLS]; 2]; S];
        for (s, files) in sets.iter().enumerate() {
            assert!(files.len() <= P);
            let (owner, weights) = owners::<P>(files);
            let identity = View { slot: owner, ..plain };
            views[s] = [identity, if reflect { View::reflected(board, &owner) } else { identity }];
            (weight[s], pass[s]) = rank_weights(board.cells(), &views[s][..nviews], &weights);
        }
        let payloads: [[Payload; P]; S] =
            std::array::from_fn(|s| std::array::from_fn(|p| sets[s].get(p).map_or(Payload::NONE, Payload::of)));
        let same = std::array::from_fn(|s| {
            std::array::from_fn(|p| {
                let (Some(f), true) = (sets[s].get(p), s > 0) else { return NONE };
                sets[0].iter().position(|g| f.header.same_table(&g.header)).map_or(NONE, |q| q as u8)
            })
        });
        let blank_aware = payloads.iter().flatten().any(|p| p.labels > 1);
        assert!(Q == 0 || Q == P, "Q is P (blank-aware tables) or 0");
        assert!(!blank_aware || Q == P, "blank-aware tables need the heuristic that keeps the patterns' cells");
        PdbHeuristic {
            md: manhattan_table(board),
            views,
            nviews,
            weight,
            pass,
            geo: geometry(board, &views[0][..nviews]),
            between: board.cols() - 1,
            payloads,
            same,
            regions: (Q > 0).then(|| Regions::new(board, false)),
            shifts: if Q > 0 { shifts(board, &views[0][..nviews]) } else { Vec::new() },
            sets,
        }
    }

    /// The trip count of the loops over views in `child` and `settle`: with three or more sets, 2 (a view
    /// past the last breaks out), which the compiler unrolls: about 10 % fewer instructions a node with three
    /// sets; with one or two, the views in use, which is faster there (callgrind, BENCHMARKS.md).
    const VIEW_LOOP: Option<usize> = if S > 2 { Some(2) } else { None };

    /// The entry of set `s`'s table `p` to read for the placement whose first entry is `first`, with the blank
    /// on `blank` and that pattern's tiles on `occ` (in the view's cells).
    fn entry(&self, s: usize, p: usize, first: u32, occ: u32, blank: usize) -> u32 {
        match &self.regions {
            Some(regions) if self.payloads[s][p].labels > 1 => {
                first + regions.label_capped(regions.all & !occ, blank, self.payloads[s][p].labels - 1)
            }
            _ => first,
        }
    }

    /// What the tiles a move passes add to each set's rank change in the view the move is vertical in
    /// (before the direction's sign): the table-driven part of `puzzle::rank::Pattern::delta`. The passed
    /// tiles are read once for all sets.
    #[inline(always)]
    fn passed(&self, g: &Geometry, tiles: &[u8; MAX_CELLS], tile: u8) -> [i32; S] {
        // Plain loops rather than `array::from_fn`, which is not always inlined here.
        let mut near = [0u8; FAST_BETWEEN];
        for (t, &c) in near.iter_mut().zip(&g.between) {
            *t = tiles[c as usize];
        }
        let mut passed = [0i32; S];
        for (s, sum) in passed.iter_mut().enumerate() {
            let pass = &self.pass[s][g.vertical as usize][tile as usize];
            for &t in &near {
                *sum = sum.wrapping_add(pass[t as usize]);
            }
            if self.between > FAST_BETWEEN {
                for &c in &g.between[FAST_BETWEEN..self.between] {
                    *sum = sum.wrapping_add(pass[tiles[c as usize] as usize]);
                }
            }
        }
        passed
    }
}

/// For each tile, the pattern it belongs to and its index there (`(NONE, NONE)` for the blank); and for each
/// pattern, the rank weight of each index times the table's labels, so that the search's "rank" of a
/// blank-aware table is the index of the placement's first entry (the weights wrap in i32 as the deltas do:
/// entries fit in u32, which is all that counts).
fn owners<const P: usize>(files: &[PdbFile]) -> ([(u8, u8); MAX_CELLS], [[i32; MAX_CELLS]; P]) {
    let mut owner = [(NONE, NONE); MAX_CELLS];
    let mut weights = [[0i32; MAX_CELLS]; P];
    for (p, f) in files.iter().enumerate() {
        let pattern = f.header.pattern();
        for (i, &t) in pattern.tiles().iter().enumerate() {
            owner[t as usize] = (p as u8, i as u8);
            weights[p][i] = (pattern.weight(i) * f.header.labels as u64) as u32 as i32;
        }
    }
    (owner, weights)
}

/// One set's `weight` and `pass` (see [`PdbHeuristic`]) for each of `views` (the rest left 0), on a board of
/// `n` cells, from each pattern's rank weights.
fn rank_weights<const P: usize>(
    n: usize,
    views: &[View],
    weights: &[[i32; MAX_CELLS]; P],
) -> ([[i32; MAX_CELLS]; 2], [[[i32; MAX_CELLS]; MAX_CELLS]; 2]) {
    let mut weight = [[0i32; MAX_CELLS]; 2];
    let mut pass = [[[0i32; MAX_CELLS]; MAX_CELLS]; 2];
    for (v, view) in views.iter().enumerate() {
        let slot = &view.slot;
        for x in 1..n {
            let (p, i) = slot[x];
            weight[v][x] = weights[p as usize][i as usize];
            for y in 1..n {
                let (q, j) = slot[y];
                if q == p && j > i {
                    pass[v][x][y] = weights[p as usize][j as usize];
                } else if q == p && j < i {
                    pass[v][x][y] = -weights[p as usize][i as usize];
                }
            }
        }
    }
    (weight, pass)
}

/// `*to = *from` in inline vector moves. A plain assignment of a node over 128 bytes (two sets of four tables and
/// their cells: 164 bytes) compiles to a call to `memcpy`, about 30 instructions a node in the search.
#[inline(always)]
fn copy_node<T: Copy>(from: &T, to: &mut T) {
    type Chunk = std::mem::MaybeUninit<[u8; 32]>;
    type Byte = std::mem::MaybeUninit<u8>;
    let size = std::mem::size_of::<T>();
    if size <= 128 {
        // Smaller nodes (one set, or two of two tables) are copied inline as they are.
        *to = *from;
        return;
    }
    let (src, dst) = (from as *const T, to as *mut T);
    // SAFETY: `src` and `dst` are valid for `size` bytes each and do not overlap (a shared and an exclusive
    // reference); every read and write is within them, unaligned, and as `MaybeUninit`, so padding is copied
    // as it is. `T: Copy`, so a bytewise copy is a valid value of `T`.
    unsafe {
        for k in 0..size / 32 {
            dst.cast::<Chunk>().add(k).write_unaligned(src.cast::<Chunk>().add(k).read_unaligned());
        }
        for k in size / 32 * 32..size {
            dst.cast::<Byte>().add(k).write(src.cast::<Byte>().add(k).read());
        }
    }
}

/// A move as a blank-aware node sees it, per view (views map cells alike in every set): kept apart from
/// [`Geometry`], which the plain search reads, so that its moves stay as small as they were.
#[derive(Clone, Copy, Default)]
struct Shift {
    /// The move's two cells, which the moved tile's pattern takes and leaves.
    flip: [u32; 2],
    /// The cell the blank lands on (the one the tile left).
    blank: [u8; 2],
}

/// [`PdbHeuristic`]'s `shifts`, indexed `to * MAX_CELLS + from`, for every move on `board` in each of `views`.
fn shifts(board: Board, views: &[View]) -> Vec<Shift> {
    let mut shifts = vec![Shift::default(); MAX_CELLS * MAX_CELLS];
    for to in 0..board.cells() {
        for from in board.neighbors(to) {
            let shift = &mut shifts[to * MAX_CELLS + from];
            for (v, view) in views.iter().enumerate() {
                shift.flip[v] = 1 << view.cell[from] | 1 << view.cell[to];
                shift.blank[v] = view.cell[from];
            }
        }
    }
    shifts
}

/// [`PdbHeuristic`]'s `geo`: the shape in each of `views` of every move on `board`.
fn geometry(board: Board, views: &[View]) -> Box<[[Geometry; MAX_CELLS]; MAX_CELLS]> {
    let mut geo = Box::new([[Geometry::default(); MAX_CELLS]; MAX_CELLS]);
    for to in 0..board.cells() {
        for from in board.neighbors(to) {
            let g = &mut geo[to][from];
            g.vertical = 1;
            g.between = [to as u8; MAX_BETWEEN];
            for (v, view) in views.iter().enumerate() {
                let cell = &view.cell;
                let (a, b) = (cell[from] as usize, cell[to] as usize);
                g.step[v] = (b as i64 - a as i64) as i8;
                if a.abs_diff(b) > 1 {
                    g.vertical = v as u8;
                    g.passes[v] = g.step[v].signum();
                    for (k, c) in (a.min(b) + 1..a.max(b)).enumerate() {
                        g.between[k] = cell[c];
                    }
                }
            }
        }
    }
    geo
}

impl<const P: usize, const S: usize, const Q: usize> Heuristic for PdbHeuristic<P, S, Q> {
    type Node = PdbNode<P, S, Q>;

    fn root(&self, tiles: &[u8; MAX_CELLS]) -> PdbNode<P, S, Q> {
        let mut node = PdbNode { md: manhattan_of(&self.md, tiles) as u16, ..PdbNode::default() };
        for (s, files) in self.sets.iter().enumerate() {
            for v in 0..self.nviews {
                let view = &self.views[s][v];
                let mut cells = [[0u8; MAX_CELLS]; P];
                for (c, &t) in tiles.iter().enumerate() {
                    let (p, i) = view.slot[t as usize];
                    if p != NONE {
                        cells[p as usize][i as usize] = view.cell[c];
                    }
                }
                let blank = view.cell[tiles.iter().position(|&t| t == 0).expect("a blank")] as usize;
                if Q > 0 {
                    node.blank[v] = blank as u8;
                }
                for (p, f) in files.iter().enumerate() {
                    let pattern = f.header.pattern();
                    let cells = &cells[p][..pattern.len()];
                    let first = (pattern.rank(cells) * f.header.labels as u64) as u32;
                    let occ = cells.iter().fold(0, |m, &c| m | 1 << c);
                    node.ranks[s][v][p] = first;
                    if Q > 0 {
                        node.occ[s][v][p] = occ;
                    }
                    node.excess[s][v][p] = f.excess(self.entry(s, p, first, occ, blank) as u64);
                    node.sums[s][v] += node.excess[s][v][p] as u16;
                }
            }
        }
        node.set_h();
        node
    }

    #[inline(always)]
    fn h(node: &PdbNode<P, S, Q>) -> u32 {
        node.h as u32
    }

    fn files(&self) -> Vec<&PdbFile> {
        self.sets.iter().flat_map(|set| set.iter()).collect()
    }

    #[inline(always)]
    fn child(
        &self,
        node: &PdbNode<P, S, Q>,
        tiles: &[u8; MAX_CELLS],
        tile: u8,
        from: usize,
        to: usize,
        out: &mut PdbNode<P, S, Q>,
    ) {
        let row = &self.md[tile as usize];
        copy_node(node, out);
        let n = out;
        n.md = n.md + row[to] as u16 - row[from] as u16;
        let g = &self.geo[to][from];
        // Read only by a blank-aware heuristic (`Q` is a constant: the plain search has no trace of it).
        let shift = if Q > 0 { self.shifts[to * MAX_CELLS + from] } else { Shift::default() };
        if Q > 0 {
            n.blank = shift.blank;
        }
        let passed = self.passed(g, tiles, tile);
        for (s, passed) in passed.into_iter().enumerate() {
            for v in 0..Self::VIEW_LOOP.unwrap_or(self.nviews) {
                if v == self.nviews {
                    break;
                }
                let p = self.views[s][v].slot[tile as usize].0 as usize;
                n.moved[s][v] = p as u8;
                let weight = self.weight[s][v][tile as usize];
                let delta =
                    weight.wrapping_mul(g.step[v] as i32).wrapping_add((g.passes[v] as i32).wrapping_mul(passed));
                // Ranks of a 7-tile 5x5 table reach 2.4e9, and of the blank-aware 8-tile 4x4 table 4.2e9, past
                // i32: the delta wraps in i32 and the sum in u32, to the true rank.
                let rank = n.ranks[s][v][p].wrapping_add_signed(delta);
                n.ranks[s][v][p] = rank;
                if Q > 0 {
                    n.occ[s][v][p] ^= shift.flip[v];
                }
                self.payloads[s][p].prefetch(rank);
            }
        }
    }

    #[inline(always)]
    fn settle(&self, n: &mut PdbNode<P, S, Q>, limit: u32) {
        let mut best = 0;
        if S == 1 {
            for v in 0..self.nviews {
                if self.read(n, 0, v, &mut best, limit) {
                    return;
                }
            }
        } else {
            // View by view, every set's before the next view's: a child is found over the bound after fewer
            // instructions than set by set (0.8 % fewer in the search with the 5x5 pair; BENCHMARKS.md), and a
            // table set 0 shares is still read by set 0 first in each view.
            for v in 0..Self::VIEW_LOOP.unwrap_or(self.nviews) {
                if v == self.nviews {
                    break;
                }
                for s in 0..S {
                    if self.read(n, s, v, &mut best, limit) {
                        return;
                    }
                }
            }
        }
        n.h = n.md + 2 * best;
    }
}

impl<const P: usize, const S: usize, const Q: usize> PdbHeuristic<P, S, Q> {
    /// Reads set `s`'s entry in view `v` for the pattern the last move changed, updates that view's sum and
    /// `best` (the largest sum so far), and says whether the child is known to be over `limit` (then its `h`
    /// is set): the other reads matter only if the child is kept, and a child over the bound is usually found
    /// so by the first read.
    #[inline(always)]
    fn read(&self, n: &mut PdbNode<P, S, Q>, s: usize, v: usize, best: &mut u16, limit: u32) -> bool {
        let p = n.moved[s][v] as usize;
        let pay = &self.payloads[s][p];
        let q = self.same[s][p] as usize;
        // `Q > 0` first: a constant, so a plain heuristic's settle has no trace of regions.
        let e = if S > 1 && s > 0 && q != NONE as usize {
            // The same table's entry, which set 0 read a moment ago in this view.
            n.excess[0][v][q]
        } else if Q > 0 && pay.labels > 1 {
            // SAFETY: `ranks[s][v][p]` is the rank of a placement of set s's pattern p (the delta keeps
            // it exact, as the rank and search tests check) times the labels: its first entry.
            let group = unsafe { pay.group(n.ranks[s][v][p]) };
            let first = group & 0xF;
            match &self.regions {
                Some(regions) if group != first * pay.ones => {
                    // The last entry serves every label from it up.
                    let free = regions.all & !n.occ[s][v][p];
                    let l = regions.label_capped(free, n.blank[v] as usize, pay.labels - 1);
                    (group >> (4 * l) & 0xF) as u8
                }
                _ => first as u8,
            }
        } else {
            // SAFETY: `ranks[s][v][p]` is the rank of a placement of set s's pattern p (as above), below
            // the table's entry count.
            unsafe { pay.get(n.ranks[s][v][p]) }
        };
        n.sums[s][v] = n.sums[s][v] + e as u16 - n.excess[s][v][p] as u16;
        n.excess[s][v][p] = e;
        *best = (*best).max(n.sums[s][v]);
        if (s + 1 < S || v + 1 < self.nviews) && (n.md + 2 * *best) as u32 > limit {
            n.h = n.md + 2 * *best;
            return true;
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{open_tables, Lookups, TableSpec};
    use puzzle::partition::Partition;
    use puzzle::pdb_file::Kind;
    use puzzle::{Dir, State};

    /// Plain tables for `partition`, built into a fresh folder.
    fn tables(board: Board, partition: &str) -> Arc<Vec<PdbFile>> {
        tables_of(board, partition, Kind::Plain, None)
    }

    /// Tables of `kind` for `partition` (blank-aware ones with up to `cap` entries a placement), built into a
    /// fresh folder.
    fn tables_of(board: Board, partition: &str, kind: Kind, cap: Option<u32>) -> Arc<Vec<PdbFile>> {
        static FOLDERS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let k = FOLDERS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("solver-heur-{board}-{}-{k}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for pattern in &Partition::parse(board, partition).unwrap().patterns {
            let labels = pdb_builder::labels_for(board, pattern, kind, cap);
            let path = dir.join(kind.file_name(board, pattern));
            pdb_builder::build_table_with(board, pattern, labels, &path, &mut |_| {}).unwrap();
        }
        let spec = TableSpec { dir: dir.clone(), partitions: vec![partition.into()], lookups: Lookups::Reflected };
        let files = open_tables(board, &spec).unwrap().remove(0).1;
        std::fs::remove_dir_all(&dir).unwrap();
        Arc::new(files)
    }

    /// Two 4x4 partitions cut apart differently: by rows and by columns.
    const ROWS: &str = "1,2,3,4/5,6,7,8/9,10,11,12/13,14,15";
    const COLS: &str = "1,5,9,13/2,6,10,14/3,7,11,15/4,8,12";
    /// A partition that shares the top row's and the bottom row's tables with `ROWS`.
    const SHARED: &str = "1,2,3,4/5,6,9,10/7,8,11,12/13,14,15";

    /// Walks 5,000 random moves from the goal and checks that the node updated move by move (ranks, entries,
    /// estimate) equals the node computed from scratch; returns how many moves were vertical.
    fn walk<const S: usize>(board: &str, sets: [&str; S], reflect: bool) -> usize {
        walk_kind(board, sets, reflect, Kind::Plain, None)
    }

    /// [`walk`] with tables of `kind`.
    fn walk_kind<const S: usize>(board: &str, sets: [&str; S], reflect: bool, kind: Kind, cap: Option<u32>) -> usize {
        let board: Board = board.parse().unwrap();
        let sets = sets.map(|p| tables_of(board, p, kind, cap));
        match kind {
            Kind::Plain => walk_with(board, &PdbHeuristic::<{ MAX_CELLS }, S>::new(board, sets, reflect), reflect),
            Kind::BlankAware => {
                walk_with(board, &PdbHeuristic::<{ MAX_CELLS }, S, { MAX_CELLS }>::new(board, sets, reflect), reflect)
            }
        }
    }

    /// [`walk`] with `heur`.
    fn walk_with<const S: usize, const Q: usize>(
        board: Board,
        heur: &PdbHeuristic<{ MAX_CELLS }, S, Q>,
        reflect: bool,
    ) -> usize {
        assert_eq!(heur.nviews, 1 + reflect as usize);
        let mut state = State::goal(board);
        let mut tiles = state.tile_array();
        let mut node = heur.root(&tiles);
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut vertical = 0;
        for step in 0..5000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let dir = Dir::ALL[(seed >> 32) as usize % 4];
            let blank = state.blank();
            let Some(from) = board.step(blank, dir) else { continue };
            let mut child = PdbNode::default();
            heur.child(&node, &tiles, tiles[from], from, blank, &mut child);
            heur.settle(&mut child, u32::MAX);
            vertical += (from.abs_diff(blank) > 1) as usize;
            state.move_blank(dir);
            tiles = state.tile_array();
            let fresh = heur.root(&tiles);
            assert_eq!(
                (child.ranks, child.excess, child.h, child.occ, child.blank),
                (fresh.ranks, fresh.excess, fresh.h, fresh.occ, fresh.blank),
                "{board} {:?} step {step}: {state}",
                heur.files().iter().map(|f| f.path.file_name().unwrap()).collect::<Vec<_>>()
            );
            node = child;
        }
        vertical
    }

    /// Along a long random walk the incremental node equals the node from scratch: on a square board with the
    /// reflected view, on a board wider than the fast path of the rank change (5 columns), on the widest board
    /// (8 columns: 7 cells between), and with two, three and four sets sharing the move's work.
    #[test]
    fn the_incremental_node_equals_the_node_from_scratch_along_a_random_walk() {
        for vertical in [
            walk("4x4", [ROWS], true),
            walk("3x5", ["1,2,3,4,5/6,7,8,9,10/11,12,13,14"], false),
            walk("2x8", ["1,2,3/4,5,6/7,8,9/10,11,12/13,14,15"], false),
            walk("4x4", [ROWS, COLS], true),
            walk("3x5", ["1,2,3,4,5/6,7,8,9,10/11,12,13,14", "1,6,11,2,7/12,3,8,13/4,9,14,5,10"], false),
            // Blank-aware tables: labels tabled on 4x4, flood-filled on 3x6 (18 cells).
            walk_kind("4x4", [ROWS, COLS], true, Kind::BlankAware, None),
            walk_kind("3x6", ["1,2,3,4/5,6,7,8/9,10,11,12/13,14,15,16,17"], false, Kind::BlankAware, None),
            // Two entries a placement, the second serving every region but the first; tabled and flood-filled.
            walk_kind("4x4", [ROWS], true, Kind::BlankAware, Some(2)),
            walk_kind("3x6", ["1,2,3,4/5,6,7,8/9,10,11,12/13,14,15,16,17"], false, Kind::BlankAware, Some(2)),
            // Three sets (with one view and with two), and four of which the last shares all its tables with the first.
            walk("4x4", [ROWS, COLS, SHARED], true),
            walk(
                "3x5",
                [
                    "1,2,3,4,5/6,7,8,9,10/11,12,13,14",
                    "1,6,11,2,7/12,3,8,13/4,9,14,5,10",
                    "1,2,6,7,11/3,4,8,9,12/5,10,13,14",
                ],
                false,
            ),
            walk_kind("4x4", [ROWS, COLS, SHARED, ROWS], true, Kind::BlankAware, Some(2)),
        ] {
            assert!(vertical > 1000, "only {vertical} vertical moves");
        }
    }

    /// Two sets that hold the same tables (here the top row's and the bottom row's, built apart) read them
    /// once, in set 0, and the node still equals the node from scratch along a random walk; with plain and with
    /// blank-aware tables.
    #[test]
    fn a_table_two_sets_share_is_read_once_and_the_node_stays_exact() {
        let board = Board::FOUR;
        let mut shared = [NONE; MAX_CELLS];
        (shared[0], shared[3]) = (0, 3);
        for kind in [Kind::Plain, Kind::BlankAware] {
            let sets = [ROWS, SHARED].map(|p| tables_of(board, p, kind, None));
            let vertical = match kind {
                Kind::Plain => {
                    let heur = PdbHeuristic::<{ MAX_CELLS }, 2>::new(board, sets, true);
                    assert_eq!((heur.same[0], heur.same[1]), ([NONE; MAX_CELLS], shared));
                    walk_with(board, &heur, true)
                }
                Kind::BlankAware => {
                    let heur = PdbHeuristic::<{ MAX_CELLS }, 2, { MAX_CELLS }>::new(board, sets, true);
                    assert_eq!((heur.same[0], heur.same[1]), ([NONE; MAX_CELLS], shared));
                    walk_with(board, &heur, true)
                }
            };
            assert!(vertical > 1000, "only {vertical} vertical moves");
        }
    }

    /// Two sets' estimate is the larger of each set's own, at every position of a random walk.
    #[test]
    fn two_sets_estimate_the_larger_of_each_sets_estimate() {
        let board: Board = "4x4".parse().unwrap();
        let (a, b) = (tables(board, ROWS), tables(board, COLS));
        let both = PdbHeuristic::<4, 2>::new(board, [a.clone(), b.clone()], true);
        let (one, other) = (PdbHeuristic::<4, 1>::new(board, [a], true), PdbHeuristic::<4, 1>::new(board, [b], true));
        let mut state = State::goal(board);
        let (mut higher, mut seed) = ([0; 2], 7u64);
        for _ in 0..3000 {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            state.move_blank(Dir::ALL[(seed >> 33) as usize % 4]);
            let tiles = state.tile_array();
            let (x, y) = (one.root(&tiles).h, other.root(&tiles).h);
            assert_eq!(both.root(&tiles).h, x.max(y), "{state}");
            if x != y {
                higher[(y > x) as usize] += 1;
            }
        }
        assert!(higher[0] > 0 && higher[1] > 0, "each set should be the larger somewhere: {higher:?}");
    }

    /// The estimate of the child of `tiles` whose tile on `from` moves to `blank`, settled with `limit`.
    fn settled<const S: usize>(
        heur: &PdbHeuristic<4, S>,
        tiles: &[u8; MAX_CELLS],
        from: usize,
        blank: usize,
        limit: u32,
    ) -> u32 {
        let mut child = PdbNode::default();
        heur.child(&heur.root(tiles), tiles, tiles[from], from, blank, &mut child);
        heur.settle(&mut child, limit);
        child.h as u32
    }

    /// A child settled with a limit has the full estimate when that is within the limit, and otherwise an
    /// estimate over the limit and no higher than the full one: with one set, with two, and with two that share
    /// tables.
    #[test]
    fn a_limited_settle_is_exact_within_the_limit_and_over_it_otherwise() {
        let board: Board = "4x4".parse().unwrap();
        let (a, b) = (tables(board, ROWS), tables(board, COLS));
        let one = PdbHeuristic::<4, 1>::new(board, [a.clone()], true);
        let two = PdbHeuristic::<4, 2>::new(board, [a.clone(), b], true);
        let shared = PdbHeuristic::<4, 2>::new(board, [a, tables(board, SHARED)], true);
        let mut skipped = [0; 3];
        let mut state = State::goal(board);
        let mut seed = 11u64;
        for _ in 0..3000 {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            state.move_blank(Dir::ALL[(seed >> 33) as usize % 4]);
            let tiles = state.tile_array();
            let blank = state.blank();
            for from in board.neighbors(blank) {
                let check = |k: usize, full: u32, limited: &dyn Fn(u32) -> u32, skipped: &mut [usize; 3]| {
                    for limit in full.saturating_sub(8)..full + 3 {
                        let h = limited(limit);
                        if full <= limit {
                            assert_eq!(h, full, "{state} limit {limit}");
                        } else {
                            assert!(h > limit && h <= full, "{state}: {h} for {full} at limit {limit}");
                            skipped[k] += (h < full) as usize;
                        }
                    }
                };
                let settled1 = |limit| settled(&one, &tiles, from, blank, limit);
                let settled2 = |limit| settled(&two, &tiles, from, blank, limit);
                check(0, settled1(u32::MAX), &settled1, &mut skipped);
                check(1, settled2(u32::MAX), &settled2, &mut skipped);
                let settled3 = |limit| settled(&shared, &tiles, from, blank, limit);
                check(2, settled3(u32::MAX), &settled3, &mut skipped);
            }
        }
        assert!(skipped.iter().all(|&k| k > 0), "a limit never skipped a higher entry: {skipped:?}");
    }
}
