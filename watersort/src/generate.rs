//! Random solvable levels, reproducible from a seed forever: the generator is our own splitmix64 and
//! the shuffle our own Fisher–Yates, so no dependency update can change the levels a seed names.

use crate::level::{Level, Problem};
use crate::solve::{solve, Algorithm, Options, Outcome};
use crate::{Heuristic, Model};
use search::Limits;
use std::collections::BTreeMap;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex};

pub use search::rng::SplitMix64;

/// What to generate.
#[derive(Clone, Debug)]
pub struct Spec {
    /// Colours, each filling one tube.
    pub colours: usize,
    /// Empty tubes added to the full ones.
    pub empty: usize,
    /// Units a tube holds.
    pub capacity: usize,
    /// Levels to generate.
    pub count: usize,
    /// The seed that names the sequence of draws.
    pub seed: u64,
    /// Draws tried for one level before giving up (a spec with no solvable level would loop forever).
    pub attempts: usize,
}

/// Why levels could not be generated.
#[derive(Clone, Debug, thiserror::Error)]
pub enum GenerateError {
    /// More colours than there are letters to write them with.
    #[error("at most 52 colours (one letter each)")]
    TooManyColours,
    /// The spec makes no valid level (a zero capacity, say).
    #[error("{0}")]
    Level(#[from] Problem),
    /// Every draw for one level was unsolvable.
    #[error("no solvable level in {attempts} draws for level {index}: try more empty tubes")]
    NoSolvable {
        /// Draws tried.
        attempts: usize,
        /// The level's number, from 1.
        index: usize,
    },
    /// Every walk backwards for one level ended with part-full tubes.
    #[error("no walk of {attempts} ended with every tube full or empty, for level {index}")]
    NoShape {
        /// Walks tried.
        attempts: usize,
        /// The level's number, from 1.
        index: usize,
    },
    /// The threads checking draws ended before the run did: a bug.
    #[error("internal error: the checking threads stopped before the run was over")]
    WorkersStopped,
    /// The solver failed on a draw.
    #[error(transparent)]
    Solve(#[from] crate::solve::SolveError),
}

/// The letters colours are written with, in order.
pub(crate) const LETTERS: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

/// `spec.count` levels: each a uniform shuffle of `capacity` units of each colour into `colours` full
/// tubes, then `empty` empty tubes; a draw is kept only if the solver finds a solution (the depth-first
/// search, ordered by the `bottoms` estimate, under `options`' rule: any solution proves solvability),
/// else the next draw is tried. Names are `s<seed>-<index from 1>`. Without a node limit the verdict is
/// the same whatever orders the search, so the order is chosen for speed: `bottoms` is cheaper to compute
/// than greedy's `guide`, and most draws at many colours are rejections, whose proofs visit every state
/// whatever the order (generating the ten K = 30 levels of seed 1: 0.72 of the time with `guide`).
///
/// The levels are the first `count` solvable draws of the seed's sequence of draws. Checks run on the
/// calling thread (a server that meters its searches relies on it); see [`generate_each`] for more.
pub fn generate(spec: &Spec, options: &Options) -> Result<Vec<Level>, GenerateError> {
    let mut levels = Vec::with_capacity(spec.count);
    generate_each(spec, options, 1, &mut |_, level| {
        levels.extend(level);
        ControlFlow::Continue(())
    })?;
    Ok(levels)
}

/// How far [`generate_each`] has got: draws decided (in draw order) and levels kept among them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Draws decided, in draw order.
    pub draws: usize,
    /// Levels kept among them.
    pub levels: usize,
}

/// [`generate`] with draws checked `threads` at a time side by side. `keep` hears of every draw in draw
/// order as soon as it and every draw before it are decided (with the level when it is kept), so a long
/// run can show its progress and loses nothing when it is stopped, and the levels do not depend on the
/// number of threads. Most draws at 50 colours and two empty tubes are unsolvable, each rejection a proof
/// by exhaustion, and the checks are what generation spends its time on. `keep` may stop the run early
/// with [`ControlFlow::Break`]. Returns the final tally. With more than one thread the checks are
/// cancelled by the run's own flag, in place of any in `options.limits`.
pub fn generate_each(
    spec: &Spec,
    options: &Options,
    threads: usize,
    keep: &mut dyn FnMut(Tally, Option<Level>) -> ControlFlow<()>,
) -> Result<Tally, GenerateError> {
    if spec.colours > LETTERS.len() {
        return Err(GenerateError::TooManyColours);
    }
    if spec.count == 0 {
        return Ok(Tally::default());
    }
    if spec.attempts == 0 {
        return Err(GenerateError::NoSolvable { attempts: 0, index: 1 });
    }
    let model = Model { heuristic: Heuristic::Bottoms, ..options.model };
    let check = Options { algorithm: Algorithm::Dfs, model, ..options.clone() };
    let mut draws = Draws { rng: SplitMix64::new(spec.seed), next: 0, spec, colours: colour_names(spec.colours) };
    let mut order = InOrder { spec, tally: Tally::default(), misses: 0, keep };
    if threads <= 1 {
        loop {
            let (_, level) = draws.next();
            let (solvable, level) = verdict(level, &check)?;
            if order.decide(level, solvable)?.is_break() {
                return Ok(order.tally);
            }
        }
    }
    // Workers take the next draw under a lock (the draws are one sequence), check it, and send the
    // verdict here; verdicts, failures included, are taken in draw order. When the run is over, `done`
    // stops the workers and cancels the checks still running; it is also set when a worker or this thread
    // unwinds from a panic, so that the others stop and the panic reaches the caller instead of a hang.
    let done = Arc::new(AtomicBool::new(false));
    let check = Options { limits: Limits { cancel: Some(Arc::clone(&done)), ..check.limits.clone() }, ..check };
    let draws = Mutex::new(draws);
    let (send, receive) = mpsc::channel::<Verdict>();
    std::thread::scope(|scope| {
        for _ in 0..threads {
            let (send, draws, check, done) = (send.clone(), &draws, &check, &done);
            scope.spawn(move || {
                let _stop = SetOnDrop(done);
                while !done.load(Ordering::Relaxed) {
                    let (i, level) = draws.lock().unwrap_or_else(|poison| poison.into_inner()).next();
                    let verdict = verdict(level, check);
                    let failed = verdict.is_err();
                    if send.send((i, verdict)).is_err() || failed {
                        return;
                    }
                }
            });
        }
        drop(send);
        let _stop = SetOnDrop(&done);
        order.take_all(receive.iter())
    })
}

/// A draw's index and what its check found: solvable or not, with the level.
type Verdict = (usize, Result<(bool, Level), GenerateError>);

/// Sets the flag when dropped: at the end of the run, and when a thread unwinds.
struct SetOnDrop<'a>(&'a AtomicBool);

impl Drop for SetOnDrop<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// The seed's sequence of draws.
struct Draws<'a> {
    rng: SplitMix64,
    next: usize,
    spec: &'a Spec,
    colours: Vec<String>,
}

impl Draws<'_> {
    /// The next draw's index from 0, and the draw.
    fn next(&mut self) -> (usize, Result<Level, GenerateError>) {
        self.next += 1;
        (self.next - 1, draw(&mut self.rng, self.spec, &self.colours).map_err(GenerateError::from))
    }
}

/// Verdicts taken in draw order: the kept levels named and handed on, rejections since the last level
/// counted against `spec.attempts`.
struct InOrder<'a, 'k> {
    spec: &'a Spec,
    tally: Tally,
    misses: usize,
    keep: &'k mut dyn FnMut(Tally, Option<Level>) -> ControlFlow<()>,
}

impl InOrder<'_, '_> {
    /// Takes the next draw's verdict; `Break` when the run is over.
    fn decide(&mut self, level: Level, solvable: bool) -> Result<ControlFlow<()>, GenerateError> {
        self.tally.draws += 1;
        let kept = if solvable {
            self.tally.levels += 1;
            self.misses = 0;
            Some(level.with_name(format!("s{}-{}", self.spec.seed, self.tally.levels)))
        } else {
            self.misses += 1;
            None
        };
        if (self.keep)(self.tally, kept).is_break() {
            return Ok(ControlFlow::Break(()));
        }
        if self.misses >= self.spec.attempts {
            return Err(GenerateError::NoSolvable { attempts: self.spec.attempts, index: self.tally.levels + 1 });
        }
        Ok(if self.tally.levels == self.spec.count { ControlFlow::Break(()) } else { ControlFlow::Continue(()) })
    }

    /// Takes verdicts arriving in any order, holding each until the draws before it are decided.
    fn take_all(&mut self, verdicts: impl Iterator<Item = Verdict>) -> Result<Tally, GenerateError> {
        let mut waiting = BTreeMap::new();
        for (i, verdict) in verdicts {
            waiting.insert(i, verdict);
            while let Some(verdict) = waiting.remove(&self.tally.draws) {
                let (solvable, level) = verdict?;
                if self.decide(level, solvable)?.is_break() {
                    return Ok(self.tally);
                }
            }
        }
        Err(GenerateError::WorkersStopped)
    }
}

/// What the check finds for a draw: whether it solves the level, with the level.
fn verdict(level: Result<Level, GenerateError>, check: &Options) -> Result<(bool, Level), GenerateError> {
    let level = level?;
    Ok((matches!(solve(&level, check)?.outcome, Outcome::Solved(_)), level))
}

/// One letter a colour.
pub(crate) fn colour_names(colours: usize) -> Vec<String> {
    LETTERS[..colours].iter().map(|&b| (b as char).to_string()).collect()
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
    use super::*;

    fn spec(colours: usize, empty: usize, count: usize, attempts: usize) -> Spec {
        Spec { colours, empty, capacity: 4, count, seed: 9, attempts }
    }

    /// What `keep` heard: each draw's tally and the level's line when it was kept.
    type Heard = Vec<(Tally, Option<String>)>;

    /// Every draw and kept level as `keep` hears of them, on `threads` threads.
    fn run(spec: &Spec, threads: usize) -> (Result<Tally, GenerateError>, Heard) {
        let mut heard = Vec::new();
        let tally = generate_each(spec, &Options::default(), threads, &mut |tally, level| {
            heard.push((tally, level.map(|l| l.to_line())));
            ControlFlow::Continue(())
        });
        (tally, heard)
    }

    #[test]
    fn threads_do_not_change_the_draws_or_the_levels() {
        // One empty tube: most draws are unsolvable, so verdicts arrive out of order and wait.
        let spec = spec(6, 1, 4, 10_000);
        let (tally, heard) = run(&spec, 1);
        let tally = tally.unwrap();
        assert_eq!(tally.levels, 4);
        assert!(tally.draws > 8, "most draws should be rejected: {tally:?}");
        assert_eq!(heard.len(), tally.draws);
        for threads in [2, 3] {
            let (other, other_heard) = run(&spec, threads);
            assert_eq!(other.unwrap(), tally);
            assert_eq!(other_heard, heard);
        }
        let levels: Vec<String> = heard.into_iter().filter_map(|(_, l)| l).collect();
        let plain: Vec<String> = generate(&spec, &Options::default()).unwrap().iter().map(Level::to_line).collect();
        assert_eq!(plain, levels);
        assert!(levels[3].starts_with("s9-4: "), "{}", levels[3]);
    }

    #[test]
    fn keep_can_stop_the_run() {
        for threads in [1, 2] {
            let tally = generate_each(&spec(6, 2, 100, 1000), &Options::default(), threads, &mut |_, level| {
                if level.is_some() {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            });
            assert_eq!(tally.unwrap().levels, 1);
        }
    }

    #[test]
    fn too_many_rejections_in_a_row_is_an_error() {
        // No empty tube: only a draw that came out sorted could be kept, and none of these five did.
        for threads in [1, 2] {
            let (tally, heard) = run(&spec(6, 0, 2, 5), threads);
            assert!(matches!(tally, Err(GenerateError::NoSolvable { attempts: 5, index: 1 })), "{tally:?}");
            assert_eq!(heard.len(), 5);
        }
        assert_eq!(run(&spec(6, 2, 0, 5), 2).0.unwrap(), Tally::default());
        // No attempts allowed: an error before any draw, as before the pool.
        let (tally, heard) = run(&spec(6, 2, 1, 0), 2);
        assert!(matches!(tally, Err(GenerateError::NoSolvable { attempts: 0, index: 1 })), "{tally:?}");
        assert!(heard.is_empty());
    }

    /// A panic while the pool runs stops the workers and reaches the caller: the run must not hang.
    #[test]
    fn a_panic_in_keep_reaches_the_caller() {
        let run = std::panic::AssertUnwindSafe(|| {
            generate_each(&spec(6, 2, 100, 1000), &Options::default(), 2, &mut |_, _| panic!("keep failed"))
        });
        assert!(std::panic::catch_unwind(run).is_err());
    }

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
