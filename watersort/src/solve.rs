//! The entry point a command or a batch calls: one level, one set of options, one [`Solution`].

use crate::level::{unit_bits, Level};
use crate::play::{check, Pour};
use crate::puzzle::{Model, WaterSort};
use crate::state::words_needed;
use crate::tube::TubeCode;
use search::Named;
pub use search::{Algorithm, Limits, Outcome, Progress, Report, Stats};

/// Everything that decides how a level is searched.
#[derive(Clone, Debug)]
pub struct Options {
    /// The search to run.
    pub algorithm: Algorithm,
    /// The puzzle as the search sees it: rule, heuristic, pruning, symmetry.
    pub model: Model,
    /// When to give up.
    pub limits: Limits,
}

impl Default for Options {
    fn default() -> Self {
        Options { algorithm: Algorithm::Astar, model: Model::default(), limits: Limits::default() }
    }
}

/// The result of one search: the pours (in the level's tube numbering, checked by replaying them) or why
/// there are none, and what the search did.
#[derive(Clone, Debug)]
pub struct Solution {
    /// The pours, in the level's tube numbering, or why there are none.
    pub outcome: Outcome<Pour>,
    /// What the search did: nodes, stored states, time.
    pub stats: Stats,
    /// 64-bit words a stored state took.
    pub words: usize,
}

/// A failure of the solver itself, never of the level: a level that reached [`solve`] was checked.
#[derive(Clone, Debug, thiserror::Error)]
pub enum SolveError {
    /// The search's pours fail the replay: a bug.
    #[error("internal error: the search returned pours that do not solve the level ({0})")]
    BadSolution(String),
    /// An optimal search was asked to use a heuristic that may overestimate.
    #[error("the {} heuristic is not admissible: use it with greedy or depth-first search only", .0.name())]
    Inadmissible(crate::Heuristic),
    /// The search library failed.
    #[error("internal error: {0}")]
    Search(#[from] search::SearchError),
}

/// Searches `level`, calling `progress` as the search goes.
pub fn solve_with_progress(
    level: &Level,
    options: &Options,
    progress: &mut dyn FnMut(&Progress),
) -> Result<Solution, SolveError> {
    if matches!(options.algorithm, Algorithm::Astar | Algorithm::Ida) && !options.model.heuristic.admissible() {
        return Err(SolveError::Inadmissible(options.model.heuristic));
    }
    let code = TubeCode::new(unit_bits(level.colours().len()), level.capacity() as u32);
    let needed = words_needed(code, level.tubes().len());
    // Sizes the state is compiled for; a level takes the smallest that holds it. A level has at most 64
    // tubes of at most 64 bits, so 64 words always suffice.
    let (report, words) = match needed {
        0..=1 => run::<1>(level, options, progress),
        2 => run::<2>(level, options, progress),
        3..=4 => run::<4>(level, options, progress),
        5..=6 => run::<6>(level, options, progress),
        7..=8 => run::<8>(level, options, progress),
        9..=12 => run::<12>(level, options, progress),
        13..=16 => run::<16>(level, options, progress),
        17..=20 => run::<20>(level, options, progress),
        21..=24 => run::<24>(level, options, progress),
        25..=32 => run::<32>(level, options, progress),
        33..=48 => run::<48>(level, options, progress),
        _ => run::<64>(level, options, progress),
    };
    let report = report?;
    if let Outcome::Solved(pours) = &report.outcome {
        check(level, options.model.rule, pours).map_err(SolveError::BadSolution)?;
    }
    Ok(Solution { outcome: report.outcome, stats: report.stats, words })
}

/// `options` for a search that is one of several answering one question begun at `started`: the time
/// limit is what is left of it, so that the question as a whole keeps to it (a search given no time at
/// all stops at once with the time limit).
pub fn time_left(options: &Options, started: std::time::Instant) -> Options {
    let time = options.limits.time.map(|limit| limit.saturating_sub(started.elapsed()));
    Options { limits: Limits { time, ..options.limits.clone() }, ..options.clone() }
}

/// Searches `level` without progress reports.
pub fn solve(level: &Level, options: &Options) -> Result<Solution, SolveError> {
    solve_with_progress(level, options, &mut |_| {})
}

fn run<const W: usize>(
    level: &Level,
    options: &Options,
    progress: &mut dyn FnMut(&Progress),
) -> (Result<Report<Pour>, search::SearchError>, usize) {
    let (puzzle, start) = WaterSort::<W>::new(level, options.model);
    let report = search::run(options.algorithm, &puzzle, &start, &options.limits, progress).map(|mut report| {
        if let Outcome::Solved(pours) = &report.outcome {
            report.outcome = Outcome::Solved(puzzle.user_pours(level, pours));
        }
        report
    });
    (report, W)
}
