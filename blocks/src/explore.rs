//! The whole space reachable from a position, breadth-first: how many positions (canonical: interchangeable
//! pieces swapped count once) lie at each distance from it in a metric, how many of them are solved, and
//! the farthest ones.
//!
//! Klotski and Rush Hour spaces are small (tens of thousands of positions from 横刀立马), so a hash set of
//! packed states does; `max_states` refuses a space too big for memory before it fills it.

use crate::level::Level;
use crate::metric::{Heuristic, Metric};
use crate::puzzle::{unpack, Blocks, State};
use search::Puzzle;
use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

/// At most this many of the farthest positions are listed (all are counted).
pub const MAX_LISTED: usize = 1000;

/// The space reachable from a level's start.
#[derive(Clone, Debug, PartialEq)]
pub struct Exploration {
    /// The metric distances are counted in.
    pub metric: Metric,
    /// `counts[d]`: positions exactly `d` moves from the start; the last is the largest distance.
    pub counts: Vec<u64>,
    /// Reachable positions that meet the goal.
    pub solved: u64,
    /// The distance of the nearest solved position (the fewest moves that solve the start), if any.
    pub nearest_solved: Option<u32>,
    /// Positions at the largest distance, as levels (the same pieces and goal), in the order of their packed
    /// states: all of them, or the first [`MAX_LISTED`].
    pub farthest: Vec<Level>,
}

impl Exploration {
    /// Positions reachable from the start, the start included.
    pub fn reachable(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// The largest distance from the start.
    pub fn max_distance(&self) -> u32 {
        self.counts.len() as u32 - 1
    }
}

/// Why a space was not explored.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ExploreError {
    /// More positions than allowed.
    #[error("more than {limit} positions are reachable: the exploration stopped there")]
    TooMany {
        /// The limit given.
        limit: u64,
    },
}

/// A multiply-shift hash of a packed state: the states are well spread already, and the default SipHash
/// costs more than the rest of a step.
#[derive(Default)]
struct Mix(u64);

impl Hasher for Mix {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ b as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        }
    }

    fn write_u128(&mut self, n: u128) {
        self.0 =
            ((n as u64) ^ ((n >> 64) as u64).wrapping_mul(0xc2b2_ae3d_27d4_eb4f)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }

    fn finish(&self) -> u64 {
        self.0 ^ (self.0 >> 32)
    }
}

/// Every position reachable from `level`'s start under `metric`, or [`ExploreError::TooMany`] once more
/// than `max_states` are found.
///
/// ```
/// let level = blocks::parse_input("heng-dao-li-ma").unwrap();
/// let space = blocks::explore(&level, blocks::Metric::Piece, 1_000_000).unwrap();
/// assert_eq!(space.nearest_solved, Some(81));
/// ```
pub fn explore(level: &Level, metric: Metric, max_states: u64) -> Result<Exploration, ExploreError> {
    let puzzle = Blocks::new(level, metric, Heuristic::Zero);
    let root = puzzle.canonical(&Blocks::start(level));
    let mut seen: HashSet<State, BuildHasherDefault<Mix>> = HashSet::default();
    seen.insert(root);
    let mut layer = vec![root];
    let mut next = Vec::new();
    let mut counts = Vec::new();
    let (mut solved, mut nearest_solved) = (0, None);
    loop {
        counts.push(layer.len() as u64);
        let goals = layer.iter().filter(|s| puzzle.is_goal(s)).count() as u64;
        if goals > 0 && nearest_solved.is_none() {
            nearest_solved = Some(counts.len() as u32 - 1);
        }
        solved += goals;
        for s in &layer {
            puzzle.successors(s, |_, child| {
                let child = puzzle.canonical(&child);
                if seen.insert(child) {
                    next.push(child);
                }
            });
        }
        if seen.len() as u64 > max_states {
            return Err(ExploreError::TooMany { limit: max_states });
        }
        if next.is_empty() {
            break;
        }
        std::mem::swap(&mut layer, &mut next);
        next.clear();
    }
    layer.sort_unstable();
    let pieces = level.pieces().len();
    let farthest = layer.iter().take(MAX_LISTED).map(|&s| level.with_start(unpack(s, pieces))).collect();
    Ok(Exploration { metric, counts, solved, nearest_solved, farthest })
}
