//! Random solvable levels, reproducible from a seed forever: the generator is our own splitmix64 and
//! the shuffle our own Fisher–Yates, so no dependency update can change the levels a seed names.

use crate::level::{Level, Problem};
use crate::solve::{solve, Algorithm, Options, Outcome};
use crate::{Heuristic, Model};

pub use search::rng::SplitMix64;

/// What to generate.
#[derive(Clone, Debug)]
pub struct Spec {
    pub colours: usize,
    pub empty: usize,
    pub capacity: usize,
    pub count: usize,
    pub seed: u64,
    /// Draws tried for one level before giving up (a spec with no solvable level would loop forever).
    pub attempts: usize,
}

/// Why levels could not be generated.
#[derive(Clone, Debug, thiserror::Error)]
pub enum GenerateError {
    #[error("at most 52 colours (one letter each)")]
    TooManyColours,
    #[error("{0}")]
    Level(#[from] Problem),
    #[error("no solvable level in {attempts} draws for level {index}: try more empty tubes")]
    NoSolvable { attempts: usize, index: usize },
    #[error(transparent)]
    Solve(#[from] crate::solve::SolveError),
}

const LETTERS: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

/// `spec.count` levels: each a uniform shuffle of `capacity` units of each colour into `colours` full
/// tubes, then `empty` empty tubes; a draw is kept only if the solver finds a solution (the greedy
/// depth-first search with the guide heuristic, under `options`' rule: any solution proves solvability),
/// else the next draw is tried. Names are `s<seed>-<index from 1>`.
///
/// The levels are the first `count` solvable draws of the seed's sequence of draws. Checks run on the
/// calling thread (a server that meters its searches relies on it); see [`generate_on`] for more.
pub fn generate(spec: &Spec, options: &Options) -> Result<Vec<Level>, GenerateError> {
    generate_on(spec, options, 1)
}

/// [`generate`] with draws checked `threads` at a time side by side and then taken in draw order, so the
/// levels do not depend on the number of threads. Most draws at 50 colours and two empty tubes are
/// unsolvable, each rejection a proof by exhaustion, and the checks are what generation spends its time on.
pub fn generate_on(spec: &Spec, options: &Options, threads: usize) -> Result<Vec<Level>, GenerateError> {
    if spec.colours > LETTERS.len() {
        return Err(GenerateError::TooManyColours);
    }
    let mut rng = SplitMix64::new(spec.seed);
    let model = Model { heuristic: Heuristic::Guide, ..options.model };
    let check = Options { algorithm: Algorithm::Dfs, model, ..options.clone() };
    let colours: Vec<String> = LETTERS[..spec.colours].iter().map(|&b| (b as char).to_string()).collect();
    let mut levels = Vec::with_capacity(spec.count);
    // Draws rejected since the last level was found.
    let mut misses = 0;
    while levels.len() < spec.count {
        if misses >= spec.attempts {
            return Err(GenerateError::NoSolvable { attempts: spec.attempts, index: levels.len() + 1 });
        }
        let batch = (0..threads.max(1)).map(|_| draw(&mut rng, spec, &colours)).collect::<Result<Vec<_>, _>>()?;
        let solvable: Vec<Result<bool, crate::solve::SolveError>> = std::thread::scope(|scope| {
            let checks: Vec<_> = batch
                .iter()
                .map(|level| scope.spawn(|| solve(level, &check).map(|s| matches!(s.outcome, Outcome::Solved(_)))))
                .collect();
            checks.into_iter().map(|c| c.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))).collect()
        });
        for (level, solvable) in batch.into_iter().zip(solvable) {
            if levels.len() == spec.count || misses >= spec.attempts {
                break;
            }
            if solvable? {
                levels.push(level.with_name(format!("s{}-{}", spec.seed, levels.len() + 1)));
                misses = 0;
            } else {
                misses += 1;
            }
        }
    }
    Ok(levels)
}

/// One shuffle, named when it is kept.
fn draw(rng: &mut SplitMix64, spec: &Spec, colours: &[String]) -> Result<Level, Problem> {
    let mut units: Vec<u8> = (0..spec.colours).flat_map(|c| std::iter::repeat_n(c as u8, spec.capacity)).collect();
    for i in (1..units.len()).rev() {
        units.swap(i, rng.below(i as u64 + 1) as usize);
    }
    let mut tubes: Vec<Vec<u8>> = units.chunks(spec.capacity.max(1)).map(<[u8]>::to_vec).collect();
    tubes.extend(std::iter::repeat_n(Vec::new(), spec.empty));
    Level::new("", spec.capacity, colours.to_vec(), tubes)
}

#[cfg(test)]
mod tests {
    use super::SplitMix64;

    #[test]
    fn splitmix64_is_fixed_forever() {
        // First outputs for seed 0 of the published reference implementation.
        let mut r = SplitMix64::new(0);
        assert_eq!(r.next_u64(), 0xe220_a839_7b1d_cdaf);
        assert_eq!(r.next_u64(), 0x6e78_9e6a_a1b9_65f4);
    }

    #[test]
    fn below_stays_in_range() {
        let mut r = SplitMix64::new(7);
        assert!((0..1000).all(|_| r.below(3) < 3));
    }
}
