//! Ground truth for small boards: exact distances of every solvable position by breadth-first search.
#![allow(dead_code)] // each test binary uses its own subset

use puzzle::{Board, Dir, State};
use std::collections::HashMap;

/// Distance to the goal of every solvable position of `board`, keyed by `State::pack`.
pub fn bfs_distances(board: Board) -> HashMap<u64, u8> {
    let goal = State::goal(board);
    let mut dist = HashMap::from([(goal.pack(), 0u8)]);
    let mut frontier = vec![goal];
    let mut d = 0u8;
    while !frontier.is_empty() {
        d += 1;
        let mut next = Vec::new();
        for s in &frontier {
            for dir in Dir::ALL {
                let mut t = *s;
                if t.move_blank(dir) && !dist.contains_key(&t.pack()) {
                    dist.insert(t.pack(), d);
                    next.push(t);
                }
            }
        }
        frontier = next;
    }
    dist
}

/// Every `step`-th position in a fixed order, with its distance: a deterministic sample.
pub fn sample(board: Board, dist: &HashMap<u64, u8>, step: usize) -> Vec<(State, u8)> {
    let mut all: Vec<(u64, u8)> = dist.iter().map(|(&k, &v)| (k, v)).collect();
    all.sort_unstable();
    all.iter().step_by(step).map(|&(k, v)| (State::unpack(board, k).unwrap(), v)).collect()
}
