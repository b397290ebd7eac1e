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
/// tubes, then `empty` empty tubes; a draw is kept only if the solver finds a solution (the greedy depth-first search with the guide heuristic, under
/// `options`' rule: any solution proves solvability), else the next draw is tried. Names are
/// `s<seed>-<index from 1>`.
pub fn generate(spec: &Spec, options: &Options) -> Result<Vec<Level>, GenerateError> {
    if spec.colours > LETTERS.len() {
        return Err(GenerateError::TooManyColours);
    }
    let mut rng = SplitMix64::new(spec.seed);
    let model = Model { heuristic: Heuristic::Guide, ..options.model };
    let check = Options { algorithm: Algorithm::Dfs, model, ..options.clone() };
    let colours: Vec<String> = LETTERS[..spec.colours].iter().map(|&b| (b as char).to_string()).collect();
    let mut levels = Vec::with_capacity(spec.count);
    for index in 1..=spec.count {
        let level = (0..spec.attempts)
            .map(|_| draw(&mut rng, spec, &colours, format!("s{}-{index}", spec.seed)))
            .find_map(|level| match level {
                Err(e) => Some(Err(GenerateError::from(e))),
                Ok(level) => match solve(&level, &check) {
                    Err(e) => Some(Err(e.into())),
                    Ok(s) => matches!(s.outcome, Outcome::Solved(_)).then_some(Ok(level)),
                },
            })
            .unwrap_or(Err(GenerateError::NoSolvable { attempts: spec.attempts, index }))?;
        levels.push(level);
    }
    Ok(levels)
}

fn draw(rng: &mut SplitMix64, spec: &Spec, colours: &[String], name: String) -> Result<Level, Problem> {
    let mut units: Vec<u8> = (0..spec.colours).flat_map(|c| std::iter::repeat_n(c as u8, spec.capacity)).collect();
    for i in (1..units.len()).rev() {
        units.swap(i, rng.below(i as u64 + 1) as usize);
    }
    let mut tubes: Vec<Vec<u8>> = units.chunks(spec.capacity.max(1)).map(<[u8]>::to_vec).collect();
    tubes.extend(std::iter::repeat_n(Vec::new(), spec.empty));
    Level::new(name, spec.capacity, colours.to_vec(), tubes)
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
