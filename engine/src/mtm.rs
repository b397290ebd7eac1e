//! Optimal solving in the multi-tile metric (MTM), the speedsolvers' count: sliding a line of 1 to k tiles
//! of the blank's row or column one cell toward the blank is one move (in the single-tile metric, STM, each
//! tile slid is one). In the blank's terms an MTM move is a jump of 1 to `rows - 1` cells along its column or
//! 1 to `cols - 1` along its row.
//!
//! This is a search of its own, apart from the STM engine (`ida`, `lanes`): the STM hot path is not touched
//! and pays nothing for it.
//!
//! # Duplicate pruning
//!
//! Two moves in a row along the same axis are never needed: while the blank moves along one column, the
//! column's tiles keep their order and only the blank's place among them changes, so any run of vertical
//! moves ends where a single vertical move (or none) ends. A shortest solution therefore alternates axes,
//! and the search only tries moves on the other axis than the previous one's (at most `rows - 1` or
//! `cols - 1` children a node, 3 on 4x4). Beyond that, a duplicate-path automaton (`mtm_fsm`) prunes every
//! path that has a smaller twin of up to 9 moves on 4x4 (on Korf's 100, 20% fewer nodes).
//!
//! # The heuristic: walking distance in the multi-tile metric
//!
//! Ken'ichiro Takahashi's walking distance, with its abstract moves taken in MTM. The *row abstraction* of a
//! position is the matrix `M[r][g]` (how many tiles of goal row `g` stand in row `r`) with the blank's row;
//! the *column abstraction* is the same for columns. A vertical MTM move of the blank by `k` rows takes one
//! tile from each of the `k` rows it passes into the row before it (toward the blank's start): in the row
//! abstraction that is `k` single steps in the same direction, each moving one tile of some goal row one
//! row; a horizontal move leaves the row abstraction as it is (tiles stay in their rows, the blank too).
//! The tables hold, for every abstract state, its breadth-first distance to the goal's state in the abstract
//! graph whose edges are those runs of 1 to `lines - 1` same-direction steps, each of cost 1 (`Wd::build`).
//!
//! Admissibility: take any solution of `V` vertical and `H` horizontal MTM moves. Projected onto the row
//! abstraction, each vertical move is one edge of the abstract graph (the tiles it moves are of some goal
//! rows, and the abstract graph has the edge for every choice of goal rows) and each horizontal move is no
//! move at all, so the projection is a path of `V` edges from the position's row state to the goal's:
//! `V >= WDrow`. Likewise `H >= WDcol`. So the length `V + H >= WDrow + WDcol`, the estimate. It is also
//! consistent: a move changes one of the two abstractions by one edge, so one term by at most 1.
//!
//! # The search
//!
//! IDA* over MTM moves. A node's children on one axis are all evaluated before any is searched: the
//! walking distance of each first (its transitions and distances are small tables that stay in cache), which
//! cuts many with no further read; the relabelled-goal table's entries of the others, direct and reflected,
//! are then asked of the memory together (prefetched) so that their misses overlap, and read, the reflected
//! one only where the direct one does not cut. The children kept are searched least estimate first, then
//! least sum of the table's two values: any order is as optimal, and this one meets a solution sooner in the
//! last iteration. Where the processor has BMI2 (checked at run time) the search is compiled for it and ranks
//! in the table by `pext`. The table is read as residues modulo 4 (`mtm_pdb`), each child's value from its
//! parent's.
//!
//! On several threads each iteration is cut a few moves down into work items taken in the serial order
//! (`parallel`), so that the solution and the node counts are those of one thread.
//!
//! When an axis's abstract space is too large to tabulate (over [`WD_MAX_STATES`] states: 5x5 and long
//! boards), that axis's term is the weaker `ceil(D / (lines - 1))`, where `D` is the tiles' summed
//! distance to their goal lines along that axis: an MTM move along the axis moves at most `lines - 1`
//! tiles one line each, so it lowers `D` by at most `lines - 1`, and the other axis's moves leave `D` as
//! it is; the sum of the two terms stays admissible by the same argument.

mod parallel;

use crate::mtm_fsm::{MtmFsm, PRUNED};
use crate::mtm_pdb::{ClassPdb, Dist, MAX_CLASSES};
use crate::outcome::{Counts, Iteration, Limits, Outcome, Report, Stop};
use puzzle::{Board, State, MAX_CELLS};
use std::collections::HashMap;
use std::time::Instant;

/// The largest abstract space (one axis) a walking-distance table is built for: 4x4 has 24,964 states an
/// axis. 5x5 has 65,650,495 (2.6 GB of transitions, a minute or more to build, several GB at the peak): too
/// much to pay at every start for what it gains there, so 5x5 takes the line bound.
pub const WD_MAX_STATES: usize = 300_000;

/// How moves are counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Metric {
    /// Single-tile: each tile slid one cell is a move.
    #[default]
    Stm,
    /// Multi-tile: sliding a line of tiles of the blank's row or column, one cell each, is one move.
    Mtm,
}

impl Metric {
    /// Every metric, as options list them.
    pub const ALL: [Metric; 2] = [Metric::Stm, Metric::Mtm];

    /// `stm` or `mtm`, as options and records say it.
    pub fn as_str(self) -> &'static str {
        match self {
            Metric::Stm => "stm",
            Metric::Mtm => "mtm",
        }
    }
}

impl std::fmt::Display for Metric {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for Metric {
    type Err = String;
    fn from_str(s: &str) -> Result<Metric, String> {
        Metric::ALL
            .into_iter()
            .find(|m| m.as_str() == s)
            .ok_or_else(|| format!("unknown metric '{s}': expected stm or mtm"))
    }
}

/// No state: a step the abstract position does not allow.
const NONE: u32 = u32::MAX;

/// One axis's walking-distance table: the abstract states, their single-step transitions and their MTM
/// distances to the goal.
#[derive(Debug)]
struct Wd {
    /// Lines along the axis (rows for the row abstraction), which is also the number of tile classes.
    lines: usize,
    /// `step[(s * 2 + d) * lines + g]`: the state after a tile of class `g` moves into the blank's line from
    /// the line before it (`d = 0`: the blank moves to a lower line) or after it (`d = 1`); [`NONE`] if
    /// that line has no such tile or there is no such line.
    step: Vec<u32>,
    /// The same transitions in 16 bits (u16::MAX for [`NONE`]) when there are fewer than 65,535 states
    /// (4x4 has 24,964), `step` then left empty: half the bytes, so that both axes' tables stay in the
    /// processor's second-level cache beside the search's other reads.
    short: Vec<u16>,
    /// MTM distance of each state to the goal's.
    dist: Vec<u8>,
    /// Each state's number, by its key.
    index: HashMap<u128, u32>,
    key: Key,
}

impl Wd {
    /// The table for `lines` lines of `width` cells each (the goal's blank on line 0), or `None` if its
    /// space passes `max_states` or its key does not fit in 128 bits (the column axes of 2x8 to 2x12 and
    /// 3x8, of 10^8 states and more).
    fn build(lines: usize, width: usize, max_states: usize) -> Option<Wd> {
        let key = Key::new(lines, width)?;
        // Every state, breadth-first by single steps from the goal's, with its transitions.
        let mut goal = 0u128;
        for l in 0..lines {
            goal = key.add(goal, l, l, width as u128);
        }
        goal = key.add(goal, 0, 0, u128::MAX); // one less: the blank's cell
        let mut index: HashMap<u128, u32> = HashMap::new();
        let mut keys: Vec<u128> = vec![goal];
        index.insert(goal, 0);
        let mut step: Vec<u32> = Vec::new();
        let mut s = 0;
        while s < keys.len() {
            let k = keys[s];
            let blank = key.blank(k);
            for d in 0..2 {
                let from = if d == 0 { blank.checked_sub(1) } else { Some(blank + 1).filter(|&b| b < lines) };
                for g in 0..lines {
                    let next = match from {
                        Some(f) if key.count(k, f, g) > 0 => {
                            let n = key.with_blank(key.add(key.add(k, f, g, u128::MAX), blank, g, 1), f);
                            let fresh = keys.len() as u32;
                            match index.get(&n) {
                                Some(&i) => i,
                                None => {
                                    if keys.len() >= max_states {
                                        return None;
                                    }
                                    index.insert(n, fresh);
                                    keys.push(n);
                                    fresh
                                }
                            }
                        }
                        _ => NONE,
                    };
                    step.push(next);
                }
            }
            s += 1;
        }
        drop(keys);
        let dist = Wd::distances(&step, lines);
        let short: Vec<u16> = if dist.len() < u16::MAX as usize {
            step.iter().map(|&t| if t == NONE { u16::MAX } else { t as u16 }).collect()
        } else {
            Vec::new()
        };
        let step = if short.is_empty() { step } else { Vec::new() };
        Some(Wd { lines, step, short, dist, index, key })
    }

    /// Each state's MTM distance to the goal's (state 0): breadth-first in the abstract graph whose edges are
    /// runs of single steps one way. A run is at most `lines - 1` steps without counting them (the blank's
    /// line moves one way, and there are no more lines), so the search is 0-1 breadth-first over (state,
    /// direction of the run it was reached by): continuing the run costs 0, beginning one costs 1. The
    /// graph is symmetric (a run's reverse is a run the other way), so distances from the goal are to it.
    fn distances(step: &[u32], lines: usize) -> Vec<u8> {
        let n = step.len() / (2 * lines);
        // `by_run[s * 2 + d]`: the fewest runs from the goal that end at `s` with a run the way `d`.
        let mut by_run = vec![u8::MAX; n * 2];
        let next =
            |s: usize, d: usize| step[(s * 2 + d) * lines..(s * 2 + d + 1) * lines].iter().filter(|&&t| t != NONE);
        let mut layer: Vec<u32> = Vec::new();
        for d in 0..2 {
            for &t in next(0, d) {
                if by_run[t as usize * 2 + d] == u8::MAX {
                    by_run[t as usize * 2 + d] = 1;
                    layer.push(t * 2 + d as u32);
                }
            }
        }
        let mut depth = 1u8;
        while !layer.is_empty() {
            let mut further = Vec::new();
            let mut i = 0;
            // The layer grows while it is read: the states its runs continue to, at the same depth.
            while i < layer.len() {
                let (s, d) = ((layer[i] / 2) as usize, (layer[i] % 2) as usize);
                i += 1;
                if by_run[s * 2 + d] != depth {
                    continue; // reached again sooner, by a run continued
                }
                for e in 0..2 {
                    let cost = depth + u8::from(e != d);
                    for &t in next(s, e) {
                        let at = t as usize * 2 + e;
                        if by_run[at] > cost {
                            by_run[at] = cost;
                            if e == d { &mut layer } else { &mut further }.push(at as u32);
                        }
                    }
                }
            }
            layer = further;
            depth += 1;
        }
        let mut dist: Vec<u8> = by_run.chunks(2).map(|p| p[0].min(p[1])).collect();
        dist[0] = 0;
        dist
    }

    /// The state of the abstraction whose counts matrix (line-major: `counts[l * lines + g]` tiles of class
    /// `g` on line `l`) and blank line are given; `None` if no position has it.
    fn state_of(&self, counts: &[u8], blank: usize) -> Option<u32> {
        let mut k = self.key.with_blank(0, blank);
        for (i, &c) in counts.iter().enumerate() {
            k = self.key.add(k, i / self.lines, i % self.lines, c as u128);
        }
        self.index.get(&k).copied()
    }
}

/// An abstract state packed in 128 bits: the counts matrix, `bits` a count, line-major, then the blank's line
/// in the top bits.
#[derive(Clone, Copy, Debug)]
struct Key {
    lines: usize,
    bits: u32,
}

impl Key {
    /// The packing for `lines` lines of `width` cells, if it fits.
    fn new(lines: usize, width: usize) -> Option<Key> {
        let bits = usize::BITS - width.leading_zeros();
        (lines * lines * bits as usize + 8 <= 128).then_some(Key { lines, bits })
    }

    fn shift(&self, l: usize, g: usize) -> u32 {
        (l * self.lines + g) as u32 * self.bits
    }

    fn count(&self, k: u128, l: usize, g: usize) -> u128 {
        k >> self.shift(l, g) & ((1 << self.bits) - 1)
    }

    /// `k` with `v` (wrapping: `u128::MAX` is one less) added to the count of class `g` on line `l`.
    fn add(&self, k: u128, l: usize, g: usize, v: u128) -> u128 {
        k.wrapping_add(v.wrapping_shl(self.shift(l, g)))
    }

    fn blank(&self, k: u128) -> usize {
        (k >> 120) as usize
    }

    fn with_blank(&self, k: u128, blank: usize) -> u128 {
        k & ((1 << 120) - 1) | (blank as u128) << 120
    }
}

/// One axis's term of the estimate: its walking-distance table, or, when that is too large, the bound
/// `ceil(D / (lines - 1))` on the summed line distance `D` (see the module's comment).
#[derive(Clone, Debug)]
enum Axis {
    /// Shared by both axes of a square board, whose row and column abstractions have the same space.
    Table(std::sync::Arc<Wd>),
    Bound {
        lines: usize,
    },
}

impl Axis {
    fn new(lines: usize, width: usize, max_states: usize) -> Axis {
        Wd::build(lines, width, max_states).map_or(Axis::Bound { lines }, |wd| Axis::Table(wd.into()))
    }

    /// The abstract state of a position whose tiles stand on lines `line[cell]` and belong on lines
    /// `class[tile]`.
    fn start(&self, tiles: &[u8], line: impl Fn(usize) -> usize, class: &[u8; MAX_CELLS]) -> u32 {
        match self {
            Axis::Table(wd) => {
                let lines = wd.lines;
                let mut counts = vec![0u8; lines * lines];
                let mut blank = 0;
                for (c, &t) in tiles.iter().enumerate() {
                    if t == 0 {
                        blank = line(c);
                    } else {
                        counts[line(c) * lines + class[t as usize] as usize] += 1;
                    }
                }
                wd.state_of(&counts, blank).expect("every position's abstraction is in the table")
            }
            Axis::Bound { .. } => tiles
                .iter()
                .enumerate()
                .filter(|&(_, &t)| t != 0)
                .map(|(c, &t)| line(c).abs_diff(class[t as usize] as usize) as u32)
                .sum(),
        }
    }

    /// The state after a tile of class `g` moves from line `from` into the blank's line `to` (`d` 0: the
    /// blank moves to the lower line `from = to - 1`; 1: to `to + 1`). The position must have such a tile.
    #[inline(always)]
    fn step(&self, s: u32, d: usize, g: usize, from: usize, to: usize) -> u32 {
        match self {
            Axis::Table(wd) => {
                let i = (s as usize * 2 + d) * wd.lines + g;
                match wd.short.get(i) {
                    Some(&t) => t as u32,
                    None => wd.step[i],
                }
            }
            Axis::Bound { .. } => s + to.abs_diff(g) as u32 - from.abs_diff(g) as u32,
        }
    }

    #[inline(always)]
    fn h(&self, s: u32) -> u32 {
        match self {
            Axis::Table(wd) => wd.dist[s as usize] as u32,
            Axis::Bound { lines } => s.div_ceil(*lines as u32 - 1),
        }
    }

    fn name(&self) -> &'static str {
        match self {
            Axis::Table(_) => "walking distance",
            Axis::Bound { .. } => "line distance",
        }
    }
}

/// An optimal solver in the multi-tile metric for one board: its two walking-distance tables, built once.
#[derive(Debug)]
pub struct MtmSolver {
    board: Board,
    /// The row abstraction (lines = rows, `cols` cells each).
    rows: Axis,
    /// The column abstraction (lines = columns, `rows` cells each).
    cols: Axis,
    row_class: [u8; MAX_CELLS],
    col_class: [u8; MAX_CELLS],
    /// A relabelled-goal pattern database, if one was asked for, maxed with the walking distance.
    classes: Option<Classes>,
    /// Whether the search may use BMI2 and `popcnt` (the processor has them, and they are not turned off).
    bmi2: bool,
    /// The duplicate-path automaton.
    fsm: MtmFsm,
}

/// A relabelled-goal table and how a position is looked up in it, directly and (square boards) reflected
/// about the main diagonal, which has the same distance.
#[derive(Debug)]
struct Classes {
    pdb: ClassPdb,
    /// The class of tile `t` in the reflected position: the class of its reflected home.
    reflected_label: Option<[u8; MAX_CELLS]>,
    /// Each cell's reflection.
    transpose: [u8; MAX_CELLS],
}

/// The largest relabelled-goal table built: 2^31 entries (2 GiB).
pub const MAX_CLASS_ENTRIES: u64 = 1 << 31;

/// A relabelled-goal table as a file: a header naming the board and labelling, the entry count and the
/// xxh3-64 checksum of the entries (8 bytes each, little-endian), then the entries.
struct KeptClasses {
    board: Board,
    labels: Vec<u8>,
    classes: usize,
    size: u64,
    header: String,
}

impl KeptClasses {
    /// The table of `labels`, checked, and refused when it would be too large.
    fn new(board: Board, labels: &[u8]) -> Result<KeptClasses, String> {
        let classes = ClassPdb::check(board.rows(), board.cols(), labels)?;
        let size = ClassPdb::size(labels, classes);
        if size > MAX_CLASS_ENTRIES {
            return Err(format!("the table of these classes would have {size} entries; at most {MAX_CLASS_ENTRIES}"));
        }
        let words: Vec<String> = labels.iter().map(u8::to_string).collect();
        let header = format!("stp mtm classes 1\n{board} {}\n", words.join(","));
        Ok(KeptClasses { board, labels: labels.to_vec(), classes, size, header })
    }

    fn file_name(&self) -> String {
        MtmSolver::classes_file_name(self.board, &self.labels)
    }

    /// The table in the file `path`: `Ok(None)` when there is no such file, `Err` when it cannot be read or
    /// is not a whole table of these classes.
    fn read(&self, path: &std::path::Path) -> Result<Option<ClassPdb>, String> {
        let fail = |e: std::io::Error| format!("{}: {e}", path.display());
        let file = match std::fs::File::open(path) {
            Ok(file) => file,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(fail(e)),
        };
        let len = file.metadata().map_err(fail)?.len();
        let start = self.header.len() + 16;
        if len != start as u64 + self.size {
            return Err(format!("{}: not a whole table of these classes", path.display()));
        }
        // One private copy in 2 MiB pages (see `Dist`), the entries read in place from byte `start`.
        let copy = puzzle::backing::Backing::copy(&file, len as usize).map_err(fail)?;
        let whole = copy.starts_with(self.header.as_bytes())
            && copy[start - 16..start - 8] == self.size.to_le_bytes()
            && copy[start - 8..start] == xxhash_rust::xxh3::xxh3_64(&copy[start..]).to_le_bytes();
        if !whole {
            return Err(format!("{}: not a whole table of these classes", path.display()));
        }
        Ok(Some(ClassPdb::with_dist(self.board.cells(), &self.labels, self.classes, Dist::Read { copy, start })))
    }

    /// Writes `pdb` to `path` atomically (a temporary file renamed), the entries straight from the table (no
    /// second copy of them in memory).
    fn write(&self, path: &std::path::Path, pdb: &ClassPdb) -> std::io::Result<()> {
        use std::io::Write;
        let tmp = path.with_extension("bin.tmp");
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(self.header.as_bytes())?;
        f.write_all(&self.size.to_le_bytes())?;
        f.write_all(&xxhash_rust::xxh3::xxh3_64(pdb.bytes()).to_le_bytes())?;
        f.write_all(pdb.bytes())?;
        drop(f);
        std::fs::rename(&tmp, path)
    }
}

/// How an iteration's depth-first search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Found {
    Yes,
    /// No solution within the bound: the least `g + h` over it (`u32::MAX` if none).
    No(u32),
    Stopped(Stop),
    /// Given up, in a search on several threads: a solution earlier in the serial order was found, or
    /// another thread stopped for a limit. What it found does not count.
    Dropped,
}

impl MtmSolver {
    /// The solver for `board` (builds its tables: milliseconds on 4x4).
    pub fn new(board: Board) -> MtmSolver {
        MtmSolver::with_max_states(board, WD_MAX_STATES)
    }

    /// The solver for `board` whose walking-distance tables are built only for an axis of at most
    /// `max_states` abstract states; the other axes take the line-distance bound (0 forces it everywhere).
    pub fn with_max_states(board: Board, max_states: usize) -> MtmSolver {
        let (r, c) = (board.rows(), board.cols());
        let mut row_class = [0u8; MAX_CELLS];
        let mut col_class = [0u8; MAX_CELLS];
        for t in 0..board.cells() {
            row_class[t] = (t / c) as u8;
            col_class[t] = (t % c) as u8;
        }
        let rows = Axis::new(r, c, max_states);
        let cols = if r == c { rows.clone() } else { Axis::new(c, r, max_states) };
        MtmSolver {
            board,
            rows,
            cols,
            row_class,
            col_class,
            classes: None,
            bmi2: has_bmi2(),
            fsm: MtmFsm::build(board),
        }
    }

    /// The solver for `board` whose estimate is also the relabelled-goal table of `labels` (`labels[t]` the
    /// class of tile `t`, 0 for the blank only, classes 1.. each used; see `mtm_pdb`), built here: the larger
    /// of the two is taken, and on square boards the table is read for the reflected position too. `Err`
    /// names what is wrong with the labelling, or says the table would be too large.
    pub fn with_classes(board: Board, labels: &[u8]) -> Result<MtmSolver, String> {
        MtmSolver::with_classes_in(board, labels, None, &mut |_| {})
    }

    /// As [`MtmSolver::with_classes`], the table kept in the folder `dir` when given: read from its file
    /// there when that file is whole (its header names the board and labelling, its length and xxh3-64
    /// checksum agree), else built and written there (atomically; `note` is told when it cannot be, and
    /// when a file there is refused).
    pub fn with_classes_in(
        board: Board,
        labels: &[u8],
        dir: Option<&std::path::Path>,
        note: &mut dyn FnMut(&str),
    ) -> Result<MtmSolver, String> {
        let kept = KeptClasses::new(board, labels)?;
        let path = dir.map(|d| d.join(kept.file_name()));
        let read = path.as_ref().and_then(|p| match kept.read(p) {
            Ok(pdb) => pdb,
            Err(e) => {
                note(&format!("{e}; building it again"));
                None
            }
        });
        let pdb = match read {
            Some(pdb) => pdb,
            None => {
                let pdb = ClassPdb::build(board.rows(), board.cols(), labels, kept.classes);
                if let Some(p) = &path {
                    if let Err(e) = kept.write(p, &pdb) {
                        note(&format!("cannot keep the table in {}: {e}", p.display()));
                    }
                }
                pdb
            }
        };
        Ok(MtmSolver::with_pdb(board, pdb))
    }

    /// The solver with the relabelled-goal table of `labels` read from the folder `dir`, never built:
    /// `Ok(None)` when the folder has no file of that table, `Err` naming the file when it has one that is
    /// not whole (or names another table), or naming what is wrong with the labelling.
    pub fn with_kept_classes(board: Board, labels: &[u8], dir: &std::path::Path) -> Result<Option<MtmSolver>, String> {
        let kept = KeptClasses::new(board, labels)?;
        Ok(kept.read(&dir.join(kept.file_name()))?.map(|pdb| MtmSolver::with_pdb(board, pdb)))
    }

    /// The file name a relabelled-goal table of `labels` is kept under in a tables folder
    /// (`mtm-classes-RxC-LABELS.bin`).
    pub fn classes_file_name(board: Board, labels: &[u8]) -> String {
        let words: Vec<String> = labels.iter().map(u8::to_string).collect();
        format!("mtm-classes-{board}-{}.bin", words.join("-"))
    }

    /// The solver whose estimate is also `pdb`, looked up directly and, on a square board, reflected.
    fn with_pdb(board: Board, pdb: ClassPdb) -> MtmSolver {
        let mut transpose = [0u8; MAX_CELLS];
        for (cell, t) in transpose.iter_mut().enumerate().take(board.cells()) {
            *t = if board.is_square() { board.transpose(cell) as u8 } else { cell as u8 };
        }
        let reflected_label = board.is_square().then(|| {
            let mut l = [0u8; MAX_CELLS];
            for (t, x) in l.iter_mut().enumerate().take(board.cells()) {
                *x = pdb.label[board.transpose(t)];
            }
            l
        });
        MtmSolver { classes: Some(Classes { pdb, reflected_label, transpose }), ..MtmSolver::new(board) }
    }

    /// The same solver, its search compiled for any processor even where BMI2 is there (to compare the two).
    #[doc(hidden)]
    pub fn portable(self) -> MtmSolver {
        MtmSolver { bmi2: false, ..self }
    }

    /// Entries of the relabelled-goal table, if there is one.
    pub fn class_entries(&self) -> Option<usize> {
        self.classes.as_ref().map(|c| c.pdb.len())
    }

    /// The board it solves.
    pub fn board(&self) -> Board {
        self.board
    }

    /// The heuristic's name, as records give it: `mtm-walking-distance` when both axes are tabulated.
    pub fn name(&self) -> String {
        let wd = match (self.rows.name(), self.cols.name()) {
            ("walking distance", "walking distance") => "mtm-walking-distance".into(),
            (a, b) => format!("mtm-{}+{}", a.replace(' ', "-"), b.replace(' ', "-")),
        };
        match &self.classes {
            Some(c) => {
                let words: Vec<String> = c.pdb.label[..self.board.cells()].iter().map(u8::to_string).collect();
                format!("{wd}+classes {}", words.join(","))
            }
            None => wd,
        }
    }

    /// The estimate of `state`'s MTM distance to the goal: a lower bound (see the module's comment).
    pub fn estimate(&self, state: &State) -> u32 {
        let (rs, cs) = self.abstractions(state);
        let (masks, tmasks) = self.masks(state);
        self.h(rs, cs, &masks, &tmasks, state.blank())
    }

    /// Each class's cells, of the position and of its reflection.
    fn masks(&self, state: &State) -> ([u32; MAX_CLASSES], [u32; MAX_CLASSES]) {
        let (mut m, mut tm) = ([0u32; MAX_CLASSES], [0u32; MAX_CLASSES]);
        if let Some(c) = &self.classes {
            for (cell, &t) in state.tiles().iter().enumerate() {
                if t != 0 {
                    m[c.pdb.label[t as usize] as usize] |= 1 << cell;
                    if let Some(rl) = &c.reflected_label {
                        tm[rl[t as usize] as usize] |= 1 << c.transpose[cell];
                    }
                }
            }
        }
        (m, tm)
    }

    /// The estimate of a node: the walking distance, or the table's value (of the position or its
    /// reflection) where larger.
    #[inline(always)]
    fn h(&self, rs: u32, cs: u32, masks: &[u32; MAX_CLASSES], tmasks: &[u32; MAX_CLASSES], blank: usize) -> u32 {
        let wd = self.rows.h(rs) + self.cols.h(cs);
        match &self.classes {
            None => wd,
            Some(c) => {
                let direct = c.pdb.at(c.pdb.rank(masks, blank));
                let reflected = match c.reflected_label {
                    Some(_) => c.pdb.at(c.pdb.rank(tmasks, c.transpose[blank] as usize)),
                    None => 0,
                };
                wd.max(direct).max(reflected)
            }
        }
    }

    fn abstractions(&self, state: &State) -> (u32, u32) {
        let (b, tiles) = (self.board, state.tiles());
        (self.rows.start(tiles, |c| b.row(c), &self.row_class), self.cols.start(tiles, |c| b.col(c), &self.col_class))
    }

    /// Solves `state` optimally in MTM by IDA* on one thread. The solution's moves are the tiles slid one at a
    /// time (an MTM move of k tiles is k of them, in order), replayed to the goal and counted in MTM before
    /// they are returned; the report's bound is the MTM length. `limits.resume` is not used (no checkpoints).
    ///
    /// # Errors
    /// A position on another board than the solver's, or one that is not solvable.
    pub fn solve(&self, state: &State, limits: &Limits) -> Result<Report, crate::Error> {
        self.solve_with(state, 1, limits)
    }

    /// As [`MtmSolver::solve`], on `threads` threads (at least 1): each iteration's subtrees a few moves
    /// down are shared out (`parallel`). The nodes and the solution are those of one thread. A node limit
    /// counts every thread's nodes, those searched past the first solution too, so it can stop a search
    /// that one thread would have finished within it.
    ///
    /// # Errors
    /// As [`MtmSolver::solve`].
    pub fn solve_with(&self, state: &State, threads: usize, limits: &Limits) -> Result<Report, crate::Error> {
        let threads = threads.max(1);
        if state.board() != self.board {
            return Err(crate::Error::WrongBoard { position: state.board(), solver: self.board });
        }
        if !state.is_solvable() {
            return Err(crate::Error::Unsolvable);
        }
        let started = Instant::now();
        let (rs, cs) = self.abstractions(state);
        let (masks, tmasks) = self.masks(state);
        let root_h = self.h(rs, cs, &masks, &tmasks, state.blank());
        let mut dfs = Dfs::new(self, state, limits, started);
        let mut bound = root_h;
        let mut per_iteration = Vec::new();
        loop {
            if let Some(live) = &limits.progress {
                live.set_depth(bound);
            }
            let before = dfs.counts;
            let found = match threads {
                1 => dfs.root(bound, rs, cs),
                _ => parallel::iteration(&mut dfs, state, bound, rs, cs, threads),
            };
            let this = Counts {
                generated: dfs.counts.generated - before.generated,
                expanded: dfs.counts.expanded - before.expanded,
            };
            let total = dfs.counts;
            per_iteration.push(Iteration { bound, counts: this });
            let outcome = match found {
                Found::Yes => {
                    let moves = dfs.path.clone();
                    state.replay(&moves).map_err(crate::Error::BadSolution)?;
                    if mtm_length(state, &moves) != bound as usize {
                        return Err(crate::Error::Setting(format!(
                            "internal error: the multi-tile solution has {} moves, not its bound {bound}; please report this",
                            mtm_length(state, &moves)
                        )));
                    }
                    Outcome::Solved(moves)
                }
                Found::Stopped(stop) => Outcome::Stopped(stop),
                Found::Dropped => unreachable!("only a thread's item is dropped"),
                Found::No(next) => {
                    bound = next;
                    continue;
                }
            };
            return Ok(Report {
                outcome,
                counts: total,
                iterations: per_iteration.len() as u32,
                root_h,
                bound,
                seconds: started.elapsed().as_secs_f64(),
                per_iteration,
            });
        }
    }
}

/// Whether the processor has BMI2 and `popcnt`.
fn has_bmi2() -> bool {
    #[cfg(target_arch = "x86_64")]
    return std::is_x86_feature_detected!("bmi2") && std::is_x86_feature_detected!("popcnt");
    #[cfg(not(target_arch = "x86_64"))]
    false
}

/// The MTM length of a move sequence: its runs of blank moves in one direction.
pub fn mtm_length(start: &State, moves: &[u8]) -> usize {
    let dirs = start.blank_dirs(moves);
    dirs.iter().enumerate().filter(|&(i, d)| i == 0 || dirs[i - 1] != *d).count()
}

/// Expanded nodes between looks at the limits.
const CHECK_EVERY: u64 = 1 << 12;

/// How the search is compiled: for any processor, or with x86-64's BMI2 and `popcnt` instructions (ranking
/// in the table by `pext`), chosen at run time. The recursion goes through [`Isa::search`], so the whole
/// search below the root is in one instruction set.
trait Isa {
    /// [`Dfs::search`].
    #[allow(clippy::too_many_arguments)]
    fn search(dfs: &mut Dfs<'_>, g: u32, bound: u32, rs: u32, cs: u32, last: u8, slot: usize, n: usize) -> Found;
    /// [`ClassPdb::rank`].
    fn rank(pdb: &ClassPdb, masks: &[u32; MAX_CLASSES], blank: usize) -> usize;
}

/// Any processor.
struct Portable;

impl Isa for Portable {
    fn search(dfs: &mut Dfs<'_>, g: u32, bound: u32, rs: u32, cs: u32, last: u8, slot: usize, n: usize) -> Found {
        dfs.search::<Portable>(g, bound, rs, cs, last, slot, n)
    }

    #[inline(always)]
    fn rank(pdb: &ClassPdb, masks: &[u32; MAX_CLASSES], blank: usize) -> usize {
        pdb.rank(masks, blank)
    }
}

/// x86-64 with BMI2 and `popcnt`: used only where [`MtmSolver::bmi2`] found them.
#[cfg(target_arch = "x86_64")]
struct Bmi2;

#[cfg(target_arch = "x86_64")]
impl Isa for Bmi2 {
    #[inline(always)]
    fn search(dfs: &mut Dfs<'_>, g: u32, bound: u32, rs: u32, cs: u32, last: u8, slot: usize, n: usize) -> Found {
        // SAFETY: `Bmi2` is chosen only when the processor has BMI2 and popcnt (`MtmSolver::bmi2`).
        unsafe { search_bmi2(dfs, g, bound, rs, cs, last, slot, n) }
    }

    #[inline(always)]
    fn rank(pdb: &ClassPdb, masks: &[u32; MAX_CLASSES], blank: usize) -> usize {
        // SAFETY: as above.
        unsafe { pdb.rank_bmi2(masks, blank) }
    }
}

/// [`Dfs::search`] compiled with BMI2 and `popcnt`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2,popcnt")]
#[allow(clippy::too_many_arguments)]
fn search_bmi2(dfs: &mut Dfs<'_>, g: u32, bound: u32, rs: u32, cs: u32, last: u8, slot: usize, n: usize) -> Found {
    dfs.search::<Bmi2>(g, bound, rs, cs, last, slot, n)
}

/// Room for a tile or cell number used as an index: 32, a power of two above [`MAX_CELLS`], so that an index
/// masked by `WIDE - 1` needs no bounds check.
const WIDE: usize = 32;

/// The position the search changes in place (a tile slid forth, then back): each class's cells (with a
/// relabelled-goal table) and in the reflected position, the tiles one a cell, the blank's cell, and the
/// table's values there (direct and reflected), from which its children's are read off their residues
/// ([`ClassPdb::near`]).
#[derive(Clone, Copy)]
struct Pos {
    masks: [u32; MAX_CLASSES],
    tmasks: [u32; MAX_CLASSES],
    tiles: [u8; MAX_CELLS],
    blank: u8,
    direct: u8,
    reflected: u8,
}

/// One depth-first search's state: the position, changed in place and restored.
struct Dfs<'a> {
    s: &'a MtmSolver,
    pos: Pos,
    /// Each tile's class in the table, and in the reflected position (0 for every tile without a table, or
    /// without reflection: class 0's mask is then kept but never read), indexed by tile.
    label: [u8; WIDE],
    rlabel: [u8; WIDE],
    /// Each cell's reflection (itself on a board that is not square).
    transpose: [u8; WIDE],
    /// The relabelled-goal table and its residues ([`ClassPdb::packed`]), if there is one; whether it is read
    /// reflected too.
    pdb: Option<&'a ClassPdb>,
    entries: &'a [u8],
    reflect: bool,
    cols: usize,
    /// The tiles slid so far, one a cell.
    path: Vec<u8>,
    /// Children evaluated ahead ([`Dfs::first_looks`]), by depth: the root's on both axes at `0` and `lane`,
    /// those of the `i`-th child of a node of depth `g` at `((g + 2) * lane + i) * lane` (past the root's
    /// even when `lane` is 1), so that every kept child's are asked of the memory before the first of them
    /// is searched.
    ahead: Vec<Child>,
    /// The most children a node has on one axis (the longest line's cells less one).
    lane: usize,
    counts: Counts,
    limits: &'a Limits,
    started: Instant,
    next_check: u64,
    /// The depth at which nodes are kept as work items instead of searched (`parallel`); `u32::MAX` never.
    cut: u32,
    items: Vec<parallel::Item>,
    /// On several threads: what the threads share, the item searched (its place in the serial order), and
    /// the expanded nodes already added to the shared count.
    shared: Option<&'a parallel::Shared>,
    ordinal: usize,
    told: u64,
}

/// The axis of the previous move: none yet, vertical or horizontal.
const VERTICAL: u8 = 1;
const HORIZONTAL: u8 = 2;

impl<'a> Dfs<'a> {
    /// The search of `state` by `s`, not yet begun.
    fn new(s: &'a MtmSolver, state: &State, limits: &'a Limits, started: Instant) -> Dfs<'a> {
        let (masks, tmasks) = s.masks(state);
        let (mut label, mut rlabel, mut transpose) = ([0u8; WIDE], [0u8; WIDE], [0u8; WIDE]);
        for (c, t) in transpose.iter_mut().enumerate() {
            *t = c as u8;
        }
        if let Some(c) = &s.classes {
            label[..MAX_CELLS].copy_from_slice(&c.pdb.label);
            transpose[..MAX_CELLS].copy_from_slice(&c.transpose);
            if let Some(rl) = &c.reflected_label {
                rlabel[..MAX_CELLS].copy_from_slice(rl);
            }
        }
        let (direct, reflected) = match &s.classes {
            Some(c) => {
                let reflected =
                    c.reflected_label.map_or(0, |_| c.pdb.at(c.pdb.rank(&tmasks, c.transpose[state.blank()] as usize)));
                (c.pdb.at(c.pdb.rank(&masks, state.blank())), reflected)
            }
            None => (0, 0),
        };
        Dfs {
            s,
            pos: Pos {
                masks,
                tmasks,
                tiles: state.tile_array(),
                blank: state.blank() as u8,
                direct: direct as u8,
                reflected: reflected as u8,
            },
            label,
            rlabel,
            transpose,
            pdb: s.classes.as_ref().map(|c| &c.pdb),
            entries: s.classes.as_ref().map_or(&[][..], |c| c.pdb.packed()),
            reflect: s.classes.as_ref().is_some_and(|c| c.reflected_label.is_some()),
            cols: s.board.cols(),
            path: Vec::new(),
            ahead: Vec::new(),
            lane: s.board.rows().max(s.board.cols()) - 1,
            counts: Counts::default(),
            limits,
            started,
            next_check: CHECK_EVERY,
            cut: u32::MAX,
            items: Vec::new(),
            shared: None,
            ordinal: 0,
            told: 0,
        }
    }

    /// One iteration's search from the root, compiled for the processor's instructions where it has them.
    fn root(&mut self, bound: u32, rs: u32, cs: u32) -> Found {
        self.descend(0, bound, rs, cs, 0, 0, 0)
    }

    /// [`Dfs::search`] below the node where the position is (cost `g`, its children at `ahead[slot..]`),
    /// compiled for the processor's instructions where it has them.
    #[allow(clippy::too_many_arguments)]
    fn descend(&mut self, g: u32, bound: u32, rs: u32, cs: u32, last: u8, slot: usize, n: usize) -> Found {
        self.make_room(bound);
        #[cfg(target_arch = "x86_64")]
        if self.s.bmi2 {
            return Bmi2::search(self, g, bound, rs, cs, last, slot, n);
        }
        Portable::search(self, g, bound, rs, cs, last, slot, n)
    }

    /// Room in `ahead` for every depth of an iteration at `bound`.
    fn make_room(&mut self, bound: u32) {
        let need = (bound as usize + 4) * self.lane * self.lane;
        if self.ahead.len() < need {
            self.ahead.resize(need, Child::default());
        }
    }

    /// Whether the search stops here: a limit reached (on several threads, counting every thread's nodes,
    /// and telling the others), or, on several threads, its item given up.
    fn limit_hit(&mut self) -> Option<Found> {
        self.next_check = self.counts.expanded + CHECK_EVERY;
        let expanded = match self.shared {
            None => self.counts.expanded,
            Some(sh) => {
                if let Some(given_up) = sh.given_up(self.ordinal) {
                    return Some(given_up);
                }
                let new = self.counts.expanded - std::mem::replace(&mut self.told, self.counts.expanded);
                sh.add_expanded(new)
            }
        };
        let l = &self.limits.search;
        if let Some(live) = &self.limits.progress {
            live.set_expanded(expanded);
        }
        let stop = if l.cancel.as_ref().is_some_and(|c| c.load(std::sync::atomic::Ordering::Relaxed)) {
            Stop::Cancelled
        } else if l.nodes.is_some_and(|n| expanded >= n) {
            Stop::NodeLimit
        } else if l.time.is_some_and(|t| self.started.elapsed() >= t) {
            Stop::TimeLimit
        } else {
            return None;
        };
        if let Some(sh) = self.shared {
            sh.halt();
        }
        Some(Found::Stopped(stop))
    }

    fn is_goal(&self) -> bool {
        self.pos.tiles[..self.s.board.cells()].iter().enumerate().all(|(c, &t)| c == t as usize)
    }

    /// Slides the tile on `from` (next to the blank) into the blank.
    #[inline(always)]
    fn slide(&mut self, from: usize) {
        let p = &mut self.pos;
        let (from, blank) = (from & (WIDE - 1), p.blank as usize & (WIDE - 1));
        let t = p.tiles[from] as usize & (WIDE - 1);
        p.masks[self.label[t] as usize & (MAX_CLASSES - 1)] ^= 1 << from | 1 << blank;
        p.tmasks[self.rlabel[t] as usize & (MAX_CLASSES - 1)] ^=
            1 << (self.transpose[from] & 31) | 1 << (self.transpose[blank] & 31);
        p.tiles[blank] = t as u8;
        p.tiles[from] = 0;
        p.blank = from as u8;
    }

    /// Searches below a node of cost `g` whose abstractions are `rs` and `cs`, the previous move on axis
    /// `last`: its `n` children, on the other axis, already evaluated ahead at `ahead[slot..]` (the root,
    /// `last` 0, evaluates its own, on both axes).
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn search<I: Isa>(&mut self, g: u32, bound: u32, rs: u32, cs: u32, last: u8, slot: usize, n: usize) -> Found {
        let s = self.s;
        // The goal's estimate is 0, so its walking distance is too: only such nodes are compared.
        if s.rows.h(rs) + s.cols.h(cs) == 0 && self.is_goal() {
            return Found::Yes;
        }
        if g == self.cut {
            return self.keep(g, rs, cs, last, slot, n);
        }
        self.counts.expanded += 1;
        if self.counts.expanded >= self.next_check {
            if let Some(stop) = self.limit_hit() {
                return stop;
            }
        }
        if last != 0 {
            return self.children::<I>(g, bound, last == HORIZONTAL, slot, n);
        }
        // The root: its children on both axes evaluated, then the axis whose best child is the better searched
        // first. On Korf's 100 the vertical axis always first took 11% more nodes: the last iteration met a
        // solution later.
        let lane = self.lane;
        let mut n = [0; 2];
        let mut best = [(u32::MAX, 0); 2];
        for (a, vertical) in [true, false].into_iter().enumerate() {
            n[a] = self.first_looks::<I>(g, bound, rs, cs, vertical, a * lane, s.fsm.start(self.pos.blank as usize));
            for k in &self.ahead[a * lane..a * lane + n[a]] {
                let mut k = *k;
                if self.pdb.is_some() {
                    k.look_up(self.entries, &self.pos, g, bound, self.reflect);
                }
                if k.f <= bound {
                    best[a] = best[a].min((k.f, k.sum));
                }
            }
        }
        let first = usize::from(best[1] < best[0]);
        let mut least = u32::MAX;
        for a in [first, 1 - first] {
            match self.children::<I>(g, bound, a == 0, a * lane, n[a]) {
                Found::No(n) => least = least.min(n),
                done => return done,
            }
        }
        Found::No(least)
    }

    /// Searches the `n` children of a node of cost `g` on one axis, evaluated ahead at `ahead[slot..]`: their
    /// table entries read (asked for when they were evaluated), then, for those the estimate keeps, their
    /// own children evaluated (so that all of those entries are on their way), then the searches below them,
    /// least estimate first. The node's position is as it was when this returns without a solution.
    #[inline(always)]
    fn children<I: Isa>(&mut self, g: u32, bound: u32, vertical: bool, slot: usize, n: usize) -> Found {
        let (line, stride) = if vertical {
            (self.pos.blank as usize / self.cols, self.cols)
        } else {
            (self.pos.blank as usize % self.cols, 1)
        };
        if self.pdb.is_some() {
            let (entries, node) = (self.entries, &self.pos);
            for k in &mut self.ahead[slot..slot + n] {
                k.look_up(entries, node, g, bound, self.reflect);
            }
        }
        let kids = &self.ahead[slot..slot + n];
        let mut least = u32::MAX;
        let mut order = [0u8; MAX_LINE];
        let mut kept = 0;
        for (i, k) in kids.iter().enumerate() {
            // Children the automaton prunes (`f` the largest, no ranks) are not generated.
            self.counts.generated += (k.f != u32::MAX) as u64;
            if k.f > bound {
                least = least.min(k.f);
            } else {
                order[kept] = i as u8;
                kept += 1;
            }
        }
        // The least estimate first, then the least sum of the table's two values (ties in the order above),
        // so that the last iteration tends to meet a solution sooner (on Korf's 100, 9% fewer nodes for the
        // first key, 5% more for the second; the sum of all three terms, or the largest sum first, did worse).
        for a in 1..kept {
            let mut b = a;
            let key = |i: u8| (kids[i as usize].f, kids[i as usize].sum);
            while b > 0 && key(order[b - 1]) > key(order[b]) {
                order.swap(b - 1, b);
                b -= 1;
            }
        }
        let next = if vertical { VERTICAL } else { HORIZONTAL };
        // Children 0..line are the blank 1..=line cells toward line 0, the others away from it.
        let place = |i: usize| if i < line { (true, i + 1) } else { (false, i - line + 1) };
        let lane = self.lane;
        let node = (self.pos.direct, self.pos.reflected);
        let mut counts = [0u8; MAX_LINE];
        for &i in &order[..kept] {
            let i = i as usize;
            let (toward, far) = place(i);
            for _ in 0..far {
                self.slide(if toward { self.pos.blank as usize - stride } else { self.pos.blank as usize + stride });
            }
            let k = self.ahead[slot + i];
            (self.pos.direct, self.pos.reflected) = (k.direct_h, k.reflected_h);
            counts[i] = self.first_looks::<I>(
                g + 1,
                bound,
                k.rs,
                k.cs,
                !vertical,
                ((g as usize + 2) * lane + i) * lane,
                k.state,
            ) as u8;
            for _ in 0..far {
                self.slide(if toward { self.pos.blank as usize + stride } else { self.pos.blank as usize - stride });
            }
        }
        for &i in &order[..kept] {
            let i = i as usize;
            let (toward, far) = place(i);
            for _ in 0..far {
                let from = if toward { self.pos.blank as usize - stride } else { self.pos.blank as usize + stride };
                self.path.push(self.pos.tiles[from]);
                self.slide(from);
            }
            let k = self.ahead[slot + i];
            (self.pos.direct, self.pos.reflected) = (k.direct_h, k.reflected_h);
            let below = ((g as usize + 2) * lane + i) * lane;
            match I::search(self, g + 1, bound, k.rs, k.cs, next, below, counts[i] as usize) {
                Found::No(n) => least = least.min(n),
                done => return done,
            }
            for _ in 0..far {
                self.slide(if toward { self.pos.blank as usize + stride } else { self.pos.blank as usize - stride });
                self.path.pop();
            }
        }
        (self.pos.direct, self.pos.reflected) = node;
        Found::No(least)
    }

    /// Evaluates the children of the node (cost `g`, abstractions `rs` and `cs`) whose moves are on one axis
    /// into `ahead[slot..]`, by [`Dfs::first_look`] (the blank slid one cell further each time, then slid
    /// back); how many.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn first_looks<I: Isa>(
        &mut self,
        g: u32,
        bound: u32,
        rs: u32,
        cs: u32,
        vertical: bool,
        slot: usize,
        state: u32,
    ) -> usize {
        let s = self.s;
        let blank = self.pos.blank as usize;
        let (line, lines, stride) =
            if vertical { (blank / self.cols, s.board.rows(), self.cols) } else { (blank % self.cols, self.cols, 1) };
        let mut n = 0;
        for d in 0..2 {
            let steps = if d == 0 { line } else { lines - 1 - line };
            let (mut r, mut c, mut at) = (rs, cs, line);
            for _ in 0..steps {
                let blank = self.pos.blank as usize;
                let (from, from_line) = if d == 0 { (blank - stride, at - 1) } else { (blank + stride, at + 1) };
                let t = self.pos.tiles[from] as usize;
                if vertical {
                    r = s.rows.step(r, d, s.row_class[t] as usize, from_line, at);
                } else {
                    c = s.cols.step(c, d, s.col_class[t] as usize, from_line, at);
                }
                self.slide(from);
                at = from_line;
                let next = s.fsm.step(state, vertical, n);
                self.ahead[slot + n] = if next == PRUNED {
                    Child { f: u32::MAX, direct: NONE, reflected: NONE, ..Child::default() }
                } else {
                    Child { state: next, ..self.first_look::<I>(g, bound, r, c) }
                };
                n += 1;
            }
            for _ in 0..steps {
                let blank = self.pos.blank as usize;
                self.slide(if d == 0 { blank + stride } else { blank - stride });
            }
        }
        n
    }

    /// A child's walking distance, and, unless the walking distance alone cuts it, its position and where
    /// the table holds its entries (prefetched).
    #[inline(always)]
    fn first_look<I: Isa>(&self, g: u32, bound: u32, rs: u32, cs: u32) -> Child {
        let s = self.s;
        let f = g + 1 + s.rows.h(rs) + s.cols.h(cs);
        let mut kid = Child { rs, cs, f, direct: NONE, reflected: NONE, ..Child::default() };
        if f <= bound {
            if let Some(pdb) = self.pdb {
                let blank = self.pos.blank as usize;
                kid.direct = I::rank(pdb, &self.pos.masks, blank) as u32;
                puzzle::prefetch::line(self.entries.as_ptr().wrapping_add(kid.direct as usize >> 2));
                if self.reflect {
                    kid.reflected = I::rank(pdb, &self.pos.tmasks, self.transpose[blank & (WIDE - 1)] as usize) as u32;
                    puzzle::prefetch::line(self.entries.as_ptr().wrapping_add(kid.reflected as usize >> 2));
                }
            }
        }
        kid
    }
}

/// Room for the children on one axis: a line has at most 12 cells (2x12), so at most 11.
const MAX_LINE: usize = MAX_CELLS / 2;

/// A child of a node, evaluated with its siblings before any of them is searched.
#[derive(Clone, Copy, Default)]
struct Child {
    /// Its abstractions.
    rs: u32,
    cs: u32,
    /// `g + 1 + h`: the walking distance, then the larger of it and the table's values once they are read.
    /// When a term passes the bound the rest are not read: the child is cut either way, and the least such
    /// value, at most its full estimate, still bounds the next iteration from below.
    f: u32,
    /// Its ranks in the table, direct and reflected ([`NONE`]: not needed).
    direct: u32,
    reflected: u32,
    /// The table's values read, summed: the second key of the order the children are searched in.
    sum: u32,
    /// The table's values read, direct and reflected (a child the estimate keeps has both).
    direct_h: u8,
    reflected_h: u8,
    /// The duplicate-path automaton's state after its move.
    state: u32,
}

impl Child {
    /// Reads the table's values (already asked for) from its residues, by those of the parent `node`, the
    /// reflected one (if `reflect`) only if the direct one does not cut; a child the estimate keeps has both.
    #[inline(always)]
    fn look_up(&mut self, entries: &[u8], node: &Pos, g: u32, bound: u32, reflect: bool) {
        if self.direct != NONE {
            let direct = ClassPdb::near(entries, self.direct, node.direct as u32);
            self.direct_h = direct as u8;
            self.f = self.f.max(g + 1 + direct);
            self.sum += direct;
            if reflect && self.f <= bound {
                let reflected = ClassPdb::near(entries, self.reflected, node.reflected as u32);
                self.reflected_h = reflected as u8;
                self.f = self.f.max(g + 1 + reflected);
                self.sum += reflected;
            }
        }
    }
}
