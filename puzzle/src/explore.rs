//! The whole state space of a board, breadth-first from the goal: how many positions lie at each distance,
//! the largest distance, and the positions at it.
//!
//! A hash set of 239 million visited positions (3x4, 2x6) would take gigabytes; instead every permutation
//! gets two bits at its rank ([`Pattern`] over tiles `1..cells`, whose placements fix the blank too):
//! unreached, closed, or one of two frontier codes that alternate from layer to layer. Expanding layer `d`
//! finds its entries by scanning the array a word at a time (32 entries compared in a few instructions) and
//! marks unreached successors with the other frontier code; then a second pass closes layer `d`, so that
//! the code is free again for layer `d + 2`. (Distance mod 3 in the two bits would save that pass but not
//! the scan: the scan for layer `d` would also find `d - 3`, `d - 6`, ... and expand them all again.)
//! The last layer is never closed, which is how its positions are listed at the end.
//!
//! Layers are expanded on every core: a successor is claimed with an atomic OR, safe because within a
//! layer the only value ever written is the next layer's code over an unreached (zero) entry, so racing
//! writers write the same bits, and only the first sees them clear.

use crate::board::Board;
use crate::rank::Pattern;
use crate::state::State;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::Instant;

/// At most this many of the farthest positions are listed (the total is always counted).
pub const MAX_LISTED: usize = 1000;

/// Entries of two bits in a word.
const PER_WORD: u64 = 32;

/// Words one parallel task scans: large enough to amortise scheduling, small enough to balance two cores.
const CHUNK_WORDS: usize = 1024;

/// Successor ranks gathered before any is claimed. The array is far larger than the caches, and claiming
/// one successor at a time waits for one cache miss at a time; touching the words of a whole batch first
/// lets the processor fetch many lines at once.
const BATCH: usize = 512;

/// Bits set at the low end of every two-bit entry.
const LOW_BITS: u64 = 0x5555_5555_5555_5555;

/// Why a board cannot be explored.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExploreError {
    /// The visited array would pass the memory limit: refused before allocating.
    #[error("exploring {board} needs {needed} bytes (2 bits for each of its {ranks} permutations), over the {limit}-byte limit")]
    TooBig {
        /// The board asked for.
        board: Board,
        /// Its permutations (`cells!`, saturating), solvable or not.
        ranks: u128,
        /// Bytes the visited array takes (saturating).
        needed: u128,
        /// Bytes allowed.
        limit: u64,
    },
    /// Within the limit, but the system refused the memory.
    #[error("could not allocate the {needed} bytes exploring {board} needs")]
    OutOfMemory {
        /// The board asked for.
        board: Board,
        /// Bytes the visited array takes.
        needed: u64,
    },
}

/// The distances of a whole state space.
#[derive(Debug, Clone, PartialEq)]
pub struct Exploration {
    /// The board explored.
    pub board: Board,
    /// `counts[d]`: positions exactly `d` moves from the goal; the last is the largest distance.
    pub counts: Vec<u64>,
    /// The positions at the largest distance, in rank order: all of them, or the first [`MAX_LISTED`].
    pub farthest: Vec<State>,
}

impl Exploration {
    /// Positions reachable from the goal (the solvable ones).
    pub fn reachable(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// The largest distance from the goal: the most moves any position needs.
    pub fn max_distance(&self) -> u32 {
        self.counts.len() as u32 - 1
    }

    /// How many positions lie at the largest distance (`farthest` may list only some).
    pub fn farthest_total(&self) -> u64 {
        self.counts.last().copied().unwrap_or(0)
    }
}

/// A finished layer, for progress reports.
#[derive(Debug, Clone, PartialEq)]
pub struct Layer {
    /// Moves from the goal.
    pub distance: u32,
    /// Positions at exactly that distance.
    pub count: u64,
    /// Positions reached so far, this layer included.
    pub reached: u64,
    /// Time since the exploration started.
    pub seconds: f64,
}

/// Bytes of the visited array of `board`: two bits for each of its `cells!` permutations (saturating: 25!
/// is past any u64, and boards past 34 cells past u128).
pub fn bytes_needed(board: Board) -> u128 {
    ranks(board).div_ceil(PER_WORD as u128).saturating_mul(8)
}

fn ranks(board: Board) -> u128 {
    (1..=board.cells() as u128).try_fold(1u128, |product, k| product.checked_mul(k)).unwrap_or(u128::MAX)
}

/// Enumerates every position of `board` reachable from the goal, refusing with [`ExploreError::TooBig`]
/// (before allocating anything) if the visited array would exceed `max_bytes`. Uses every core of the
/// current rayon pool; `progress` hears of each layer as it is finished.
pub fn explore(board: Board, max_bytes: u64, progress: &mut dyn FnMut(&Layer)) -> Result<Exploration, ExploreError> {
    explore_listing(board, max_bytes, MAX_LISTED, progress)
}

/// [`explore`], listing at most `max_listed` of the farthest positions.
fn explore_listing(
    board: Board,
    max_bytes: u64,
    max_listed: usize,
    progress: &mut dyn FnMut(&Layer),
) -> Result<Exploration, ExploreError> {
    let needed = bytes_needed(board);
    if needed > max_bytes as u128 {
        return Err(ExploreError::TooBig { board, ranks: ranks(board), needed, limit: max_bytes });
    }
    let words = ranks(board).div_ceil(PER_WORD as u128) as usize;
    let mut bits = Vec::new();
    // Within `max_bytes` (a u64) here, so the count fits.
    bits.try_reserve_exact(words).map_err(|_| ExploreError::OutOfMemory { board, needed: needed as u64 })?;
    bits.resize_with(words, || AtomicU64::new(0));

    let space = Space::new(board);
    let start = Instant::now();
    let goal = space.rank_of(&State::goal(board).positions());
    claim(&bits, goal, frontier(0));
    let mut counts = vec![1u64];
    progress(&Layer { distance: 0, count: 1, reached: 1, seconds: 0.0 });
    loop {
        let d = counts.len() as u32 - 1;
        let (this, next) = (frontier(d), frontier(d + 1));
        let found: u64 = bits
            .par_chunks(CHUNK_WORDS)
            .enumerate()
            .map_init(
                || Vec::with_capacity(BATCH + 4),
                |batch, (chunk, words)| {
                    let first = (chunk * CHUNK_WORDS) as u64 * PER_WORD;
                    let mut found = 0;
                    space.each_with(words, first, this, |rank| {
                        space.successors(rank, batch);
                        if batch.len() >= BATCH {
                            found += claim_all(&bits, batch, next);
                        }
                    });
                    found + claim_all(&bits, batch, next)
                },
            )
            .sum();
        if found == 0 {
            break;
        }
        bits.par_chunks(CHUNK_WORDS).for_each(|words| close(words, this));
        counts.push(found);
        let reached = counts.iter().sum();
        progress(&Layer { distance: d + 1, count: found, reached, seconds: start.elapsed().as_secs_f64() });
    }

    let last = frontier(counts.len() as u32 - 1);
    let mut farthest = Vec::new();
    for (i, chunk) in bits.chunks(CHUNK_WORDS).enumerate() {
        space.each_with(chunk, (i * CHUNK_WORDS) as u64 * PER_WORD, last, |rank| {
            if farthest.len() < max_listed {
                farthest.extend(space.state(rank));
            }
        });
        if farthest.len() >= max_listed {
            break;
        }
    }
    Ok(Exploration { board, counts, farthest })
}

/// The two-bit code of an expanded entry. An unreached one is 0; 1 and 2 are the frontier codes.
const CLOSED: u64 = 3;

/// The two-bit code of layer `d` while it is a frontier: 1 and 2 in turn.
fn frontier(d: u32) -> u64 {
    (d % 2 + 1) as u64
}

/// Entries of `words` holding `code`, as the low bit of each matching two-bit entry.
#[inline]
fn matches(word: u64, code: u64) -> u64 {
    let x = word ^ (code * LOW_BITS);
    // An entry matches when both its bits are clear in `x`.
    !(x | x >> 1) & LOW_BITS
}

/// Closes the entries of `words` holding the frontier `code`, by setting the bit that code lacks. Each word
/// belongs to one task, and no one else writes during this pass.
fn close(words: &[AtomicU64], code: u64) {
    for w in words {
        let v = w.load(Relaxed);
        let frontier = matches(v, code);
        // Most words hold no entry of a given layer: leaving them unwritten spares the memory bandwidth.
        if frontier != 0 {
            w.store(v | (frontier * (CLOSED ^ code)), Relaxed);
        }
    }
}

/// Ranking and moves on one board.
struct Space {
    board: Board,
    /// Tiles `1..cells`: a rank is the placement of every tile but the blank.
    pattern: Pattern,
}

impl Space {
    fn new(board: Board) -> Space {
        let tiles: Vec<u8> = (1..board.cells() as u8).collect();
        Space { board, pattern: Pattern::new(board.cells(), &tiles) }
    }

    /// The rank of the position where tile `t` stands on `positions[t]`.
    fn rank_of(&self, positions: &[u8]) -> u64 {
        self.pattern.rank(&positions[1..self.board.cells()])
    }

    /// Tile positions (`[t]` = cell of tile `t`, the blank's included) of a rank.
    fn positions(&self, rank: u64) -> [u8; 16] {
        let n = self.board.cells();
        let mut pos = [0u8; 16];
        self.pattern.unrank(rank, &mut pos[1..n]);
        let used = pos[1..n].iter().fold(0u32, |m, &c| m | 1 << c);
        pos[0] = (!used & ((1u32 << n) - 1)).trailing_zeros() as u8;
        pos
    }

    /// The position of a rank (`None` only for a rank past the permutations, which is never marked).
    fn state(&self, rank: u64) -> Option<State> {
        let pos = self.positions(rank);
        let mut tiles = [0u8; 16];
        for (t, &c) in pos.iter().enumerate().take(self.board.cells()) {
            tiles[c as usize] = t as u8;
        }
        State::from_tiles(self.board, &tiles[..self.board.cells()])
    }

    /// Calls `visit(rank)` for every entry of `words` holding `code`; `first` is the rank of the first entry.
    #[inline]
    fn each_with(&self, words: &[AtomicU64], first: u64, code: u64, mut visit: impl FnMut(u64)) {
        for (i, w) in words.iter().enumerate() {
            let mut hits = matches(w.load(Relaxed), code);
            while hits != 0 {
                visit(first + i as u64 * PER_WORD + hits.trailing_zeros() as u64 / 2);
                hits &= hits - 1;
            }
        }
    }

    /// Appends the ranks of the successors of `rank` to `out`. A move changes the rank by
    /// [`Pattern::delta`], which needs only the tiles between the two cells: much cheaper than ranking
    /// each successor afresh.
    #[inline]
    fn successors(&self, rank: u64, out: &mut Vec<u64>) {
        let n = self.board.cells();
        let pos = self.positions(rank);
        let blank = pos[0] as usize;
        let mut tile_at = [0u8; 16];
        for (t, &c) in pos.iter().enumerate().take(n) {
            tile_at[c as usize] = t as u8;
        }
        for cell in self.board.neighbors(blank) {
            let tile = tile_at[cell] as usize;
            let (lo, hi) = (cell.min(blank), cell.max(blank));
            // Pattern index of tile t is t - 1; the blank is at an end, never between.
            let between = tile_at[lo + 1..hi].iter().map(|&t| t as usize - 1);
            out.push(rank.wrapping_add_signed(self.pattern.delta(tile - 1, cell, blank, between)));
        }
    }
}

/// Sets entry `rank` to `code` if it is unreached: 1 if this call set it, else 0.
#[inline]
fn claim(bits: &[AtomicU64], rank: u64, code: u64) -> u64 {
    let word = &bits[(rank / PER_WORD) as usize];
    let shift = 2 * (rank % PER_WORD);
    if word.load(Relaxed) >> shift & 3 != 0 {
        return 0;
    }
    (word.fetch_or(code << shift, Relaxed) >> shift & 3 == 0) as u64
}

/// Claims every rank in `ranks` for `code` (see [`claim`]) and empties it; returns how many were claimed.
fn claim_all(bits: &[AtomicU64], ranks: &mut Vec<u64>, code: u64) -> u64 {
    let touched = ranks.iter().fold(0, |acc, &r| acc ^ bits[(r / PER_WORD) as usize].load(Relaxed));
    std::hint::black_box(touched);
    let claimed = ranks.iter().map(|&r| claim(bits, r, code)).sum();
    ranks.clear();
    claimed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exhaustive::distances;

    fn run(board: &str) -> Exploration {
        let board = board.parse().unwrap();
        let mut layers = Vec::new();
        let ex = explore(board, 1 << 30, &mut |l| layers.push(l.clone())).unwrap();
        assert_eq!(layers.len(), ex.counts.len(), "one report a layer");
        assert_eq!(layers.last().map(|l| l.reached), Some(ex.reachable()));
        ex
    }

    #[test]
    fn eight_puzzle_has_181440_positions_and_two_at_31() {
        let ex = run("3x3");
        assert_eq!(ex.reachable(), 181_440);
        assert_eq!(ex.max_distance(), 31);
        assert_eq!(ex.farthest_total(), 2);
        let truth = distances(ex.board);
        for s in &ex.farthest {
            assert_eq!(truth.get(&s.pack()), Some(&31), "{s}");
        }
        assert_eq!(ex.farthest.len(), 2);
    }

    #[test]
    fn small_boards_match_the_exhaustive_distances() {
        for board in ["2x3", "2x4"] {
            let ex = run(board);
            let mut histogram = vec![0u64; ex.counts.len()];
            for &d in distances(ex.board).values() {
                histogram[d as usize] += 1;
            }
            assert_eq!(ex.counts, histogram, "{board}");
        }
        assert_eq!(run("2x4").reachable(), 20_160);
    }

    #[test]
    fn lists_the_first_farthest_positions_and_counts_them_all() {
        let board = "3x3".parse().unwrap();
        let all = explore(board, 1 << 30, &mut |_| {}).unwrap();
        let capped = explore_listing(board, 1 << 30, 1, &mut |_| {}).unwrap();
        assert_eq!((capped.farthest.len(), capped.farthest_total()), (1, 2));
        assert_eq!(capped.farthest[0], all.farthest[0], "the first in rank order");
        assert_eq!(capped.counts, all.counts);
    }

    #[test]
    fn closing_sets_only_the_frontier_entries() {
        let word = AtomicU64::new(0b11_10_01_00);
        close(std::slice::from_ref(&word), 1);
        assert_eq!(word.load(Relaxed), 0b11_10_11_00);
        close(std::slice::from_ref(&word), 2);
        assert_eq!(word.load(Relaxed), 0b11_11_11_00);
        assert_eq!(matches(0b11_10_01_00, 0) & 0xFF, 0b00_00_00_01, "the unreached entry");
    }

    #[test]
    fn refuses_a_board_over_the_memory_limit_before_allocating() {
        let err = explore(Board::FOUR, 1 << 30, &mut |_| {}).unwrap_err();
        assert!(matches!(err, ExploreError::TooBig { ranks: 20_922_789_888_000, .. }), "{err}");
        assert_eq!(bytes_needed("3x4".parse().unwrap()), 119_750_400);
    }
}
