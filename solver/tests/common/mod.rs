//! Ground truth for small boards: exact distances of every solvable position by breadth-first search.
#![allow(dead_code)] // each test binary uses its own subset

use puzzle::{Board, State};
use std::collections::HashMap;

pub use puzzle::exhaustive::distances as bfs_distances;

/// Every `step`-th position in a fixed order, with its distance: a deterministic sample.
pub fn sample(board: Board, dist: &HashMap<u64, u8>, step: usize) -> Vec<(State, u8)> {
    let mut all: Vec<(u64, u8)> = dist.iter().map(|(&k, &v)| (k, v)).collect();
    all.sort_unstable();
    all.iter().step_by(step).map(|&(k, v)| (State::unpack(board, k).unwrap(), v)).collect()
}
