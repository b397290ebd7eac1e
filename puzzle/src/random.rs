//! Reproducible random positions: uniformly random solvable ones, or random walks from the goal. The
//! generator is `search::rng`'s splitmix64, so a seed gives the same positions on every platform and with
//! every version of every dependency.

use crate::{Board, Dir, State};
use search::rng::SplitMix64;

/// A uniformly random solvable position: a uniform permutation (Fisher-Yates), and if it is unsolvable the
/// first two tiles swapped. The swap pairs every unsolvable permutation with exactly one solvable one, so
/// the result is uniform over solvable positions.
pub fn random_position(board: Board, rng: &mut SplitMix64) -> State {
    let mut tiles: Vec<u8> = (0..board.cells() as u8).collect();
    for i in (1..tiles.len()).rev() {
        tiles.swap(i, rng.below(i as u64 + 1) as usize);
    }
    let state = State::from_tiles(board, &tiles).expect("a permutation of the board's tiles");
    if state.is_solvable() {
        return state;
    }
    let mut nonblank = (0..tiles.len()).filter(|&c| tiles[c] != 0);
    let (a, b) = (nonblank.next().unwrap(), nonblank.next().unwrap());
    tiles.swap(a, b);
    let state = State::from_tiles(board, &tiles).expect("a permutation of the board's tiles");
    assert!(state.is_solvable(), "one swap of two tiles fixes the parity");
    state
}

/// A random walk of `steps` blank moves from the goal, never stepping straight back: the optimal length is
/// at most `steps` and has its parity.
pub fn random_walk(board: Board, steps: u32, rng: &mut SplitMix64) -> State {
    let mut s = State::goal(board);
    let mut back = None;
    for _ in 0..steps {
        let dirs: Vec<Dir> =
            Dir::ALL.into_iter().filter(|&d| Some(d) != back && board.step(s.blank(), d).is_some()).collect();
        let d = dirs[rng.below(dirs.len() as u64) as usize];
        s.move_blank(d);
        back = Some(d.opposite());
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_are_solvable_and_cover_both_blank_parities() {
        let mut rng = SplitMix64::new(7);
        let mut blanks = [0; 16];
        for _ in 0..2000 {
            let s = random_position(Board::FOUR, &mut rng);
            assert!(s.is_solvable());
            blanks[s.blank()] += 1;
        }
        // Uniform: the blank is on each cell about 1/16 of the time.
        assert!(blanks.iter().all(|&n| (60..190).contains(&n)), "{blanks:?}");
    }

    #[test]
    fn walks_stay_within_their_length() {
        let mut rng = SplitMix64::new(3);
        for steps in [0, 1, 5, 20] {
            let s = random_walk(Board::new(3, 3).unwrap(), steps, &mut rng);
            assert!(s.manhattan() <= steps && s.manhattan() % 2 == steps % 2);
        }
    }
}
