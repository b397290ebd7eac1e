//! Reproducible random instances: uniformly random solvable positions, or random walks from the goal.
//!
//! The generator is `search::rng`'s splitmix64, so a seed gives the same instances on every platform and with
//! every version of every dependency.

use clap::Args;
use puzzle::{Board, State};
use std::io::Write;

pub use search::rng::SplitMix64;

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
        let dirs: Vec<puzzle::Dir> =
            puzzle::Dir::ALL.into_iter().filter(|&d| Some(d) != back && board.step(s.blank(), d).is_some()).collect();
        let d = dirs[rng.below(dirs.len() as u64) as usize];
        s.move_blank(d);
        back = Some(d.opposite());
    }
    s
}

#[derive(Args)]
#[command(after_long_help = "Examples:
  solver generate --count 1000 --seed 7 > random.txt            # uniformly random solvable 15-puzzles
  solver generate --count 100 --seed 7 --walk 40 --board 3x3    # random walks of 40 moves from the goal")]
pub struct GenerateArgs {
    /// How many instances.
    #[arg(long, short = 'n', value_name = "N")]
    pub count: u64,
    /// Seed of the random generator: the same seed gives the same instances, on every machine and version.
    #[arg(long, value_name = "N")]
    pub seed: u64,
    /// Random walks of this many moves from the goal (easy instances of bounded length) instead of
    /// uniformly random positions.
    #[arg(long, value_name = "MOVES")]
    pub walk: Option<u32>,
    /// Board size, rows x columns.
    #[arg(long, value_name = "RxC", default_value = "4x4")]
    pub board: Board,
}

/// `solver generate`: one position a line (bare tiles, blank-first goal), so line k is instance k for
/// `solver batch`; a closing comment line records the command.
pub fn run(args: &GenerateArgs) -> anyhow::Result<()> {
    let mut rng = SplitMix64::new(args.seed);
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    for _ in 0..args.count {
        let s = match args.walk {
            Some(steps) => random_walk(args.board, steps, &mut rng),
            None => random_position(args.board, &mut rng),
        };
        writeln!(out, "{s}")?;
    }
    let walk = args.walk.map(|w| format!(" --walk {w}")).unwrap_or_default();
    writeln!(
        out,
        "# solver generate --count {} --seed {}{walk} --board {} (goal: blank first)",
        args.count, args.seed, args.board
    )?;
    out.flush()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix_matches_the_reference_sequence() {
        // First outputs for seed 1234567 from the reference C implementation.
        let mut r = SplitMix64::new(1234567);
        assert_eq!(
            [r.next_u64(), r.next_u64(), r.next_u64()],
            [6457827717110365317, 3203168211198807973, 9817491932198370423]
        );
    }

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
