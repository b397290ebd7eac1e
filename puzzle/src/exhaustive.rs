//! Ground truth for boards small enough to enumerate: the exact distance of every position.

use crate::board::{Board, Dir};
use crate::state::State;
use std::collections::HashMap;

/// The distance to the goal of every solvable position of `board`, keyed by [`State::pack`], by
/// breadth-first search from the goal. 181,440 positions on 3x3; do not call it for 4x4.
pub fn distances(board: Board) -> HashMap<u64, u8> {
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
                if !t.move_blank(dir) {
                    continue;
                }
                if let std::collections::hash_map::Entry::Vacant(e) = dist.entry(t.pack()) {
                    e.insert(d);
                    next.push(t);
                }
            }
        }
        frontier = next;
    }
    dist
}

#[cfg(test)]
mod tests {
    #[test]
    fn eight_puzzle_has_its_known_size_and_diameter() {
        let dist = super::distances("3x3".parse().unwrap());
        assert_eq!(dist.len(), 181_440);
        assert_eq!(dist.values().max(), Some(&31));
        assert_eq!(super::distances("2x3".parse().unwrap()).len(), 360);
    }
}
