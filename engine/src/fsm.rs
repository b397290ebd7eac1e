//! Duplicate-path pruning with a finite-state machine over the blank's moves (Taylor and Korf, 1993).
//!
//! Depth-first search sees the same position along many paths. Two blank-move strings that start on the
//! same cell and permute the tiles the same way reach the same position from any start; the search needs
//! only the smaller one, shortest first and then in direction order. A breadth-first search over move
//! strings up to a depth finds every string that reaches a position a smaller string already reached; those
//! strings are forbidden as *suffixes* of the search path, and an Aho-Corasick automaton over the blank's
//! cells tracks the path's suffix in one table load per move.
//!
//! Why no optimal solution is lost: replacing a forbidden substring of a path by its smaller twin gives a
//! path to the same position that is no longer and is smaller in (length, lexicographic) order, so the
//! smallest optimal path contains no forbidden substring. Every node of an optimal path has `f` within the
//! last iteration's bound (the heuristic is admissible), so that path is searched in full.
//!
//! Parent pruning (the blank stepping straight back) is the shortest such rule and is included.

use puzzle::{Board, Dir, MAX_CELLS};
use std::collections::HashSet;

/// A move that completes a forbidden string.
pub const PRUNED: u32 = u16::MAX as u32;
const NONE: u32 = u32::MAX;

/// The automaton: for each state and blank direction, the next state or [`PRUNED`]. States are 16-bit: the
/// table is read at every node, and at 452 KB (4x4, depth 14) it shares the caches with the pattern
/// databases better than at twice that. Every board of up to 16 cells stays below 65,535 states at
/// `MAX_DEPTH` (4x4: 56,602; a test builds them all); bigger boards get the deepest automaton that fits
/// (see [`MoveFsm::build`]), unless 32-bit states are asked for ([`MoveFsm::build_wide`]).
pub struct MoveFsm {
    next: Table,
    start: [u32; MAX_CELLS],
    forbidden: usize,
    depth: usize,
}

/// The transition table: 16-bit states when they fit, else 32-bit. Either way [`PRUNED`] is the marker, so
/// a 32-bit automaton never gives that number to a state.
enum Table {
    Narrow(Vec<[u16; 4]>),
    Wide(Vec<[u32; 4]>),
}

/// A transition table the search steps through, either width: the search is compiled once for each (see
/// `ida::solve`), so the 16-bit table costs no test of its width at every move.
pub(crate) trait Transitions: Copy + Send + Sync {
    /// The state after the blank moves `dir` (index into `Dir::ALL`), or [`PRUNED`].
    fn step(self, state: u32, dir: usize) -> u32;

    /// Starts loading `state`'s row, which [`Transitions::step`] reads when the search expands a node in that
    /// state: on 5x5 the table (490 KB) loses its lines to the pattern databases' reads, and a child is
    /// expanded only after its siblings are made and settled.
    fn prefetch(self, state: u32);
}

/// Either width: 16-bit states widen to the same numbers, [`PRUNED`] included.
impl<E: Copy + Into<u32> + Send + Sync> Transitions for &[[E; 4]] {
    #[inline(always)]
    fn step(self, state: u32, dir: usize) -> u32 {
        self[state as usize][dir].into()
    }

    #[inline(always)]
    fn prefetch(self, state: u32) {
        puzzle::prefetch::line(self.as_ptr().wrapping_add(state as usize));
    }
}

/// The table of a [`MoveFsm`], by width.
pub(crate) enum TableRef<'a> {
    Narrow(&'a [[u16; 4]]),
    Wide(&'a [[u32; 4]]),
}

/// The most states a 32-bit automaton may have: a 64 MB table, far beyond what `MAX_DEPTH` needs on any
/// board (5x5 at depth 14: 300,526).
const WIDE_STATES: usize = 1 << 22;

struct Node {
    /// The blank's cell at this point of the string.
    cell: u8,
    child: [u32; 4],
    fail: u32,
    terminal: bool,
}

impl MoveFsm {
    /// Learns the forbidden strings of up to `depth` moves on `board` and builds the automaton. If its
    /// states would not fit 16 bits (boards of more than 16 cells at the full depth), learning stops at the
    /// last depth that fits: a shallower automaton prunes less but never wrongly, and a small table read at
    /// every node is worth more than the last level of pruning (and learning it costs seconds on 5x5).
    pub fn build(board: Board, depth: usize) -> MoveFsm {
        MoveFsm::build_within(board, depth, PRUNED as usize)
    }

    /// [`MoveFsm::build`] with 32-bit states where 16 bits do not hold the depth asked for (boards of more
    /// than 16 cells): it prunes more (5x5 at depth 14: 6–12 % fewer nodes than the 16-bit depth 12), but
    /// its bigger table makes each node dearer, and learning it takes about 1.2 s and some 300 MB (5x5,
    /// depth 14).
    pub fn build_wide(board: Board, depth: usize) -> MoveFsm {
        MoveFsm::build_within(board, depth, WIDE_STATES)
    }

    fn build_within(board: Board, depth: usize, max_states: usize) -> MoveFsm {
        let threads = search::cores();
        let (patterns, depth) = forbidden_strings(board, depth, threads, max_states);
        MoveFsm::from_strings(board, &patterns, depth)
    }

    /// The automaton forbidding `patterns` (at most `depth` moves) as suffixes.
    fn from_strings(board: Board, patterns: &[Vec<u8>], depth: usize) -> MoveFsm {
        let n = board.cells();
        // Node 0 is the root; nodes 1..=n are the one-cell strings, one for each starting cell.
        let mut nodes: Vec<Node> = (0..=n)
            .map(|i| Node { cell: i.saturating_sub(1) as u8, child: [NONE; 4], fail: 0, terminal: false })
            .collect();
        for p in patterns {
            let mut u = 1 + p[0] as usize;
            for w in p.windows(2) {
                let d = dir_index(board, w[0], w[1]);
                if nodes[u].child[d] == NONE {
                    if nodes.len() == PRUNED as usize {
                        // The marker's number: a node no string reaches takes it.
                        nodes.push(Node { cell: 0, child: [NONE; 4], fail: 0, terminal: false });
                    }
                    nodes[u].child[d] = nodes.len() as u32;
                    nodes.push(Node { cell: w[1], child: [NONE; 4], fail: 0, terminal: false });
                }
                u = nodes[u].child[d] as usize;
            }
            nodes[u].terminal = true;
        }
        // Failure links (longest proper suffix that is also in the trie), breadth first, then the full
        // transition function; a terminal anywhere along the failure chain forbids the state.
        let mut order: Vec<usize> = (1..=n).collect();
        let mut next = vec![[PRUNED; 4]; nodes.len()];
        let mut i = 0;
        while i < order.len() {
            let u = order[i];
            i += 1;
            let f = nodes[u].fail as usize;
            if f != 0 && nodes[f].terminal {
                nodes[u].terminal = true;
            }
            for (d, dir) in Dir::ALL.into_iter().enumerate() {
                let Some(to) = board.step(nodes[u].cell as usize, dir) else { continue };
                // Where the suffix automaton goes from u's longest proper suffix (already computed).
                let via_fail = if f == 0 { 1 + to as u32 } else { next[f][d] };
                match nodes[u].child[d] {
                    NONE => next[u][d] = via_fail,
                    v => {
                        nodes[v as usize].fail = if via_fail == PRUNED { 0 } else { via_fail };
                        next[u][d] = v;
                        order.push(v as usize);
                    }
                }
            }
        }
        // A transition into a forbidden state is a pruned move.
        for row in next.iter_mut() {
            for t in row.iter_mut() {
                if *t != PRUNED && nodes[*t as usize].terminal {
                    *t = PRUNED;
                }
            }
        }
        let start = std::array::from_fn(|c| if c < n { 1 + c as u32 } else { 0 });
        let next = if next.len() <= PRUNED as usize {
            Table::Narrow(next.iter().map(|row| row.map(|t| t as u16)).collect())
        } else {
            Table::Wide(next)
        };
        MoveFsm { next, start, forbidden: patterns.len(), depth }
    }

    /// The state of an empty path with the blank on `cell`.
    #[inline(always)]
    pub fn start(&self, cell: usize) -> u32 {
        self.start[cell]
    }

    /// The state after the blank moves `dir` (index into `Dir::ALL`), or [`PRUNED`]. The search steps
    /// through `MoveFsm::table` instead, without this test of the width.
    pub fn step(&self, state: u32, dir: usize) -> u32 {
        match self.table() {
            TableRef::Narrow(next) => next.step(state, dir),
            TableRef::Wide(next) => next.step(state, dir),
        }
    }

    pub(crate) fn table(&self) -> TableRef<'_> {
        match &self.next {
            Table::Narrow(next) => TableRef::Narrow(next),
            Table::Wide(next) => TableRef::Wide(next),
        }
    }

    /// The automaton's size: one state per prefix of a forbidden string, for reports and tests.
    pub fn states(&self) -> usize {
        match &self.next {
            Table::Narrow(next) => next.len(),
            Table::Wide(next) => next.len(),
        }
    }

    /// Whether states take 32 bits.
    pub fn wide(&self) -> bool {
        matches!(self.next, Table::Wide(_))
    }

    /// How many move strings it forbids.
    pub fn forbidden(&self) -> usize {
        self.forbidden
    }

    /// The longest forbidden strings' moves: the depth asked for, or less on a big board.
    pub fn depth(&self) -> usize {
        self.depth
    }
}

fn dir_index(board: Board, from: u8, to: u8) -> usize {
    let d = board.dir_between(from as usize, to as usize).expect("adjacent cells");
    Dir::ALL.iter().position(|&x| x == d).unwrap()
}

/// Deepest automaton: a string of `depth` moves has `depth + 1` cells, packed 5 bits each (25 cells) with
/// the length in the top 8 bits of a `u128`.
pub const MAX_DEPTH: usize = 14;

/// Bits a cell or token in [`Cells`] and in the arrangements of `forbidden_strings`.
const CELL_BITS: usize = 5;
const CELL_MASK: u128 = (1 << CELL_BITS) - 1;
/// Where [`Cells`] keeps its length.
const LEN_AT: usize = 120;

/// A move string: the blank's cells (start included), 5 bits each from the lowest, and the count on top.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Cells(u128);

impl Cells {
    fn new(cell: usize) -> Cells {
        Cells(cell as u128 | 1 << LEN_AT)
    }
    fn len(self) -> usize {
        (self.0 >> LEN_AT) as usize
    }
    fn push(self, cell: usize) -> Cells {
        let n = self.len();
        Cells((self.0 & !(0xFF << LEN_AT)) | (cell as u128) << (CELL_BITS * n) | ((n + 1) as u128) << LEN_AT)
    }
    fn get(self, i: usize) -> u8 {
        (self.0 >> (CELL_BITS * i) & CELL_MASK) as u8
    }
    /// The string from its `k`-th cell on.
    fn suffix(self, k: usize) -> Cells {
        let n = self.len() - k;
        Cells((self.0 & ((1 << LEN_AT) - 1)) >> (CELL_BITS * k) | (n as u128) << LEN_AT)
    }
    fn to_vec(self) -> Vec<u8> {
        (0..self.len()).map(|i| self.get(i)).collect()
    }
}

/// A fast hasher for keys that are already well mixed words (arrangements, packed strings).
#[derive(Default, Clone, Copy)]
struct MulHasher(u64);

impl std::hash::Hasher for MulHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0 ^ x).wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(29);
    }
    fn write_u128(&mut self, x: u128) {
        self.write_u64(x as u64);
        self.write_u64((x >> 64) as u64);
    }
}

type FastSet<T> = HashSet<T, std::hash::BuildHasherDefault<MulHasher>>;

/// Every move string (as the blank's cells, start included) of up to `depth` moves that reaches a position
/// some smaller string from the same cell reached, and that has no shorter forbidden suffix; and the depth
/// reached, which is less than `depth` if the next level's strings would take the automaton (one state per
/// starting cell and per distinct prefix of two or more cells, plus the root) to `max_states`.
/// `threads` share each level's starting cells; the result does not depend on how many there are.
fn forbidden_strings(board: Board, depth: usize, threads: usize, max_states: usize) -> (Vec<Vec<u8>>, usize) {
    assert!(depth <= MAX_DEPTH, "automaton depth {depth} exceeds {MAX_DEPTH}");
    let n = board.cells();
    // Tokens: cell c starts with token c; the arrangement identifies the permutation a string makes.
    let initial: u128 = (0..n).map(|c| (c as u128) << (CELL_BITS * c)).sum();
    let mut starts: Vec<FromCell> = (0..n)
        .map(|c| FromCell { seen: FastSet::from_iter([initial]), level: vec![(initial, Cells::new(c))] })
        .collect();
    let mut known: FastSet<Cells> = FastSet::default();
    let mut found = Vec::new();
    let threads = threads.clamp(1, n);
    // Breadth first, all starting cells a level at a time and each in direction order, so the first string
    // to reach an arrangement is the smallest, and shorter forbidden strings are known before longer ones.
    // Within a level the starting cells are independent (the suffix test reads only shorter strings), so
    // they are shared among threads; their results are merged in cell order, as one thread would find them.
    let mut prefixes: FastSet<Cells> = FastSet::default();
    for level_depth in 1..=depth {
        let known_now = &known;
        let level: Vec<Vec<Cells>> = std::thread::scope(|s| {
            let chunk = n.div_ceil(threads);
            let handles: Vec<_> = starts
                .chunks_mut(chunk)
                .map(|group| {
                    s.spawn(move || group.iter_mut().map(|st| extend(board, st, known_now)).collect::<Vec<_>>())
                })
                .collect();
            handles.into_iter().flat_map(|h| h.join().expect("automaton builder thread")).collect()
        });
        let level: Vec<Cells> = level.into_iter().flatten().collect();
        let before = prefixes.len();
        for p in &level {
            for k in 2..=p.len() {
                prefixes.insert(Cells(p.0 & ((1 << (CELL_BITS * k)) - 1) | (k as u128) << LEN_AT));
            }
        }
        if n + 1 + prefixes.len() >= max_states {
            debug_assert!(n + 1 + before < max_states);
            return (found, level_depth - 1);
        }
        for p in level {
            known.insert(p);
            found.push(p.to_vec());
        }
    }
    (found, depth)
}

/// The breadth-first search from one starting cell: the arrangements reached, and the strings of the current
/// length with the arrangement each makes.
struct FromCell {
    seen: FastSet<u128>,
    level: Vec<(u128, Cells)>,
}

/// Extends one starting cell's strings by a move; returns the new forbidden ones, in the order found.
fn extend(board: Board, from: &mut FromCell, known: &FastSet<Cells>) -> Vec<Cells> {
    let mut found = Vec::new();
    let mut deeper = Vec::with_capacity(from.level.len() * 2);
    for &(arr, path) in &from.level {
        let blank = path.get(path.len() - 1) as usize;
        for d in Dir::ALL {
            let Some(to) = board.step(blank, d) else { continue };
            let (a, b) = (CELL_BITS * blank, CELL_BITS * to);
            let (ta, tb) = (arr >> a & CELL_MASK, arr >> b & CELL_MASK);
            let next = arr & !(CELL_MASK << a) & !(CELL_MASK << b) | tb << a | ta << b;
            let p = path.push(to);
            if !from.seen.insert(next) {
                // Redundant if a shorter suffix is already forbidden (that one prunes it first).
                if !(1..p.len() - 2).any(|k| known.contains(&p.suffix(k))) {
                    found.push(p);
                }
            } else {
                deeper.push((next, p));
            }
        }
    }
    from.level = deeper;
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    /// Walks a direction string through the automaton; true if some move is pruned.
    fn pruned(fsm: &MoveFsm, board: Board, start: usize, dirs: &[Dir]) -> bool {
        let (mut s, mut cell) = (fsm.start(start), start);
        for &d in dirs {
            let i = Dir::ALL.iter().position(|&x| x == d).unwrap();
            s = fsm.step(s, i);
            if s == PRUNED {
                return true;
            }
            cell = board.step(cell, d).unwrap();
        }
        false
    }

    #[test]
    fn the_forbidden_strings_do_not_depend_on_the_thread_count() {
        for (board, depth) in [("3x3", 12), ("4x4", 10), ("2x5", 12)] {
            let board: Board = board.parse().unwrap();
            let one = forbidden_strings(board, depth, 1, PRUNED as usize);
            assert!(one.0.len() > 100, "{board}: {}", one.0.len());
            for threads in [2, 3, 16] {
                assert_eq!(
                    forbidden_strings(board, depth, threads, PRUNED as usize),
                    one,
                    "{board} depth {depth}, {threads} threads"
                );
            }
        }
    }

    #[test]
    fn every_board_of_up_to_16_cells_fits_16_bit_states_at_the_full_depth() {
        let mut largest = (0, String::new());
        for rows in 2..=8 {
            for cols in 2..=8 {
                let Ok(board) = Board::new(rows, cols) else { continue };
                if board.cells() > 16 {
                    continue;
                }
                let fsm = MoveFsm::build(board, MAX_DEPTH);
                assert!(fsm.states() < PRUNED as usize);
                assert_eq!(fsm.depth(), MAX_DEPTH);
                largest = largest.max((fsm.states(), board.to_string()));
            }
        }
        assert_eq!(largest, (56_602, "4x4".to_string()));
    }

    /// Bigger boards get the deepest automaton that fits: the same as asking for that depth.
    #[test]
    fn a_big_board_gets_the_deepest_automaton_that_fits() {
        let board: Board = "5x5".parse().unwrap();
        let fsm = MoveFsm::build(board, MAX_DEPTH);
        assert!(fsm.states() < PRUNED as usize && (10..MAX_DEPTH).contains(&fsm.depth()), "depth {}", fsm.depth());
        let same = MoveFsm::build(board, fsm.depth());
        assert_eq!((same.states(), same.forbidden(), same.depth()), (fsm.states(), fsm.forbidden(), fsm.depth()));
        assert_eq!(MoveFsm::build(board, 6).depth(), 6);
    }

    /// Past 65,535 states the table is 32-bit, one number (the marker's) is left to an unreachable node,
    /// and the automaton still prunes exactly the walks that end a forbidden string: random walks on 5x5
    /// checked against the strings themselves.
    #[test]
    fn a_32_bit_automaton_prunes_exactly_the_forbidden_strings() {
        let board: Board = "5x5".parse().unwrap();
        let depth = 13;
        let fsm = MoveFsm::build_wide(board, depth);
        assert!(fsm.wide() && fsm.states() > PRUNED as usize && fsm.depth() == depth, "{}", fsm.states());
        assert!(!MoveFsm::build(board, depth).wide());
        let (strings, _) = forbidden_strings(board, depth, 2, WIDE_STATES);
        let strings: std::collections::HashSet<Vec<u8>> = strings.into_iter().collect();
        let mut seed = 0x5EED_u64;
        let mut next = || {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (seed >> 33) as usize
        };
        let (mut pruned, mut walks) = (0, 0);
        while walks < 20_000 {
            let start = next() % board.cells();
            let (mut state, mut cells) = (fsm.start(start), vec![start as u8]);
            for _ in 0..depth + 4 {
                let dir = Dir::ALL[next() % 4];
                let Some(to) = board.step(*cells.last().unwrap() as usize, dir) else { continue };
                cells.push(to as u8);
                state = fsm.step(state, Dir::ALL.iter().position(|&d| d == dir).unwrap());
                let forbidden = (0..cells.len() - 1).any(|k| strings.contains(&cells[k..]));
                assert_eq!(state == PRUNED, forbidden, "{cells:?}");
                if forbidden {
                    pruned += 1;
                    break;
                }
            }
            walks += 1;
        }
        assert!(pruned > 1000, "{pruned} of {walks} walks pruned");
    }

    #[test]
    fn forbids_undoing_a_move_and_going_round_a_square_the_long_way() {
        use Dir::*;
        let b = Board::FOUR;
        let fsm = MoveFsm::build(b, 12);
        assert!(pruned(&fsm, b, 5, &[Right, Left]));
        assert!(pruned(&fsm, b, 0, &[Down, Up]));
        assert!(!pruned(&fsm, b, 5, &[Right, Down, Left, Up]));
        // Three times round a 2x2 block is the identity: forbidden.
        let round = [Right, Down, Left, Up].repeat(3);
        assert!(pruned(&fsm, b, 5, &round));
    }

    /// The automaton never forbids the smallest shortest path to a position: for every 2x3 position, a
    /// breadth-first search that only follows allowed moves still reaches it at its true distance.
    #[test]
    fn pruned_breadth_first_search_still_finds_every_2x3_distance() {
        let board: Board = "2x3".parse().unwrap();
        for depth in [2, 6, 12] {
            let fsm = MoveFsm::build(board, depth);
            let plain = puzzle::exhaustive::distances(board);
            // Tree search (no duplicate detection) limited by the automaton alone, to the diameter.
            let mut best: HashMap<u64, u32> = HashMap::new();
            let mut stack = vec![(puzzle::State::goal(board), fsm.start(0), 0u32)];
            while let Some((s, st, g)) = stack.pop() {
                let e = best.entry(s.pack()).or_insert(g);
                *e = (*e).min(g);
                if g == 21 {
                    continue;
                }
                for (i, dir) in Dir::ALL.into_iter().enumerate() {
                    let mut t = s;
                    if t.move_blank(dir) {
                        let ns = fsm.step(st, i);
                        if ns != PRUNED {
                            stack.push((t, ns, g + 1));
                        }
                    }
                }
            }
            assert_eq!(best.len(), plain.len(), "depth {depth}");
            for (k, v) in &plain {
                assert_eq!(best[k], *v as u32, "depth {depth}");
            }
        }
    }
}
