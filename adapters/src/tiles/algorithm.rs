//! Which algorithm solves a position: the engine's IDA* (the fast one, and the default), or one of the
//! generic library's (A*, breadth-first, bidirectional breadth-first, greedy best-first, depth-first) over
//! the same heuristic, for teaching and for comparing them.

use anyhow::{anyhow, bail};
use cli_common::classified;
use engine::{Counts, Limits, Live, MtmSolver, Outcome, Solver, Stop};
use puzzle::tiles_search::{Key, TilePuzzle};
use puzzle::State;
use search::{Algorithm, Named};
use std::sync::Arc;

/// What a search did, whichever algorithm ran.
#[derive(Clone, Debug)]
pub struct Searched {
    /// The algorithm that ran.
    pub algorithm: Algorithm,
    /// The moves of a solution, or why the search stopped.
    pub outcome: Outcome,
    /// Nodes generated and expanded.
    pub counts: Counts,
    /// Search time, without start-up (mapping tables, building the automaton).
    pub seconds: f64,
    /// The heuristic estimate of the start, if the algorithm used one.
    pub root_h: Option<u32>,
    /// The threads it ran on (the library's algorithms run on one).
    pub threads: usize,
    /// Depth-first searches interleaved on each thread (the library's run one).
    pub lanes: usize,
    /// IDA* only: iterations run.
    pub iterations: Option<u32>,
    /// IDA* only: the last bound searched (a proven lower bound on the length when stopped).
    pub bound: Option<u32>,
    /// IDA* only: each iteration's bound and nodes (this run's, when resumed from a checkpoint).
    pub per_iteration: Vec<engine::Iteration>,
    /// The algorithms that store states: the most stored at once.
    pub peak_stored: Option<u64>,
}

impl Searched {
    /// Each IDA* iteration as `bound:generated:expanded`, space-separated, as records give them.
    pub fn bounds(&self) -> String {
        let words: Vec<String> = self
            .per_iteration
            .iter()
            .map(|i| format!("{}:{}:{}", i.bound, i.counts.generated, i.counts.expanded))
            .collect();
        words.join(" ")
    }

    /// The tiles moved, if the search found a solution.
    pub fn moves(&self) -> Option<&[u8]> {
        self.outcome.moves()
    }

    /// Why the search stopped without a solution, if it did.
    pub fn stopped(&self) -> Option<Stop> {
        self.outcome.stopped()
    }
}

/// How a caller follows a search.
#[derive(Clone, Default)]
pub struct Follow {
    /// The search's nodes and depth (IDA*'s bound), for another thread to show.
    pub live: Option<Arc<Live>>,
    /// The library's algorithms also print a line on stderr at each new depth (the library itself never
    /// prints).
    pub say_depths: bool,
    /// IDA* only: the checkpoint it starts from and where it saves its own (a batch's).
    pub resume: search::Resume,
}

/// Solves `state` with `algorithm` on `threads` threads (IDA* only; the others run on one), within `limits`
/// (the memory limit bounds the algorithms that store states), followed as `follow` says. A solution is
/// replayed to the goal before it is returned.
pub fn solve(
    solver: &Solver,
    algorithm: Algorithm,
    state: &State,
    threads: usize,
    limits: &search::Limits,
    follow: Follow,
) -> anyhow::Result<Searched> {
    if algorithm == Algorithm::Ida {
        return engine_ida(solver, state, threads, limits, follow);
    }
    if follow.resume.from.is_some() {
        bail!("internal error: only IDA* starts from a checkpoint; please report this");
    }
    if state.board() != solver.board() {
        return Err(classified(engine::Error::WrongBoard { position: state.board(), solver: solver.board() }));
    }
    if let (Algorithm::Astar, Some(goal)) = (algorithm, solver.textbook_goal()) {
        return textbook_astar(solver, goal, state, limits, &follow);
    }
    let mut report = |p: &search::Progress| {
        if let Some(live) = &follow.live {
            live.note(p);
        }
        if let (true, search::Progress::Depth { depth, stored, expanded }) = (follow.say_depths, p) {
            cli_common::log(&format!(
                "{}: depth {depth}: {stored} states stored, {expanded} expanded",
                algorithm.name()
            ));
        }
    };
    // Boards of up to 16 cells pack into a u64; larger ones (4x5, 5x5, 2x12, ...) into a u128.
    let r = if state.board().cells() <= u64::CELLS {
        library_run::<u64>(solver, algorithm, state, limits, &mut report)
    } else {
        library_run::<u128>(solver, algorithm, state, limits, &mut report)
    }
    .map_err(|e| anyhow!("internal error in {}: {e}; please report this", algorithm.name()))?;
    let outcome = match r.outcome {
        search::Outcome::Solved(moves) => {
            if let Err(e) = state.replay(&moves) {
                bail!("internal error: the {} solution does not replay ({e}); please report this", algorithm.name());
            }
            Outcome::Solved(moves)
        }
        search::Outcome::Unsolvable => {
            bail!("internal error: {} found no solution of a solvable position; please report this", algorithm.name())
        }
        search::Outcome::Stopped(stop) => Outcome::Stopped(stop),
    };
    Ok(Searched {
        algorithm,
        outcome,
        counts: Counts { generated: r.stats.generated, expanded: r.stats.expanded },
        seconds: r.stats.seconds,
        root_h: algorithm.informed().then(|| solver.estimate(state)),
        threads: 1,
        lanes: 1,
        iterations: None,
        bound: None,
        per_iteration: Vec::new(),
        peak_stored: Some(r.stats.peak_stored),
    })
}

/// Textbook mode's A* (see [`super::textbook`]): its counts, the solution replayed.
fn textbook_astar(
    solver: &Solver,
    goal: puzzle::Goal,
    state: &State,
    limits: &search::Limits,
    follow: &Follow,
) -> anyhow::Result<Searched> {
    if !state.is_solvable() {
        return Err(classified(engine::Error::Unsolvable));
    }
    let mut tick = |p: &search::Progress| {
        if let Some(live) = &follow.live {
            live.note(p);
        }
    };
    let run = super::textbook::astar(solver, goal, state, limits, &mut tick)?;
    if let Outcome::Solved(moves) = &run.outcome {
        if let Err(e) = state.replay(moves) {
            bail!("internal error: the textbook A* solution does not replay ({e}); please report this");
        }
    }
    Ok(Searched {
        algorithm: Algorithm::Astar,
        outcome: run.outcome,
        counts: run.counts,
        seconds: run.seconds,
        root_h: Some(solver.estimate(state)),
        threads: 1,
        lanes: 1,
        iterations: None,
        bound: None,
        per_iteration: Vec::new(),
        peak_stored: Some(run.stored),
    })
}

/// The multi-tile metric's IDA* on `threads` threads (no checkpoints): the solution replayed and counted in
/// MTM by the search before it is returned.
pub fn solve_mtm(
    solver: &MtmSolver,
    state: &State,
    threads: usize,
    limits: &search::Limits,
    follow: Follow,
) -> anyhow::Result<Searched> {
    if follow.resume.from.is_some() {
        bail!("internal error: the multi-tile search starts from no checkpoint; please report this");
    }
    let limits = Limits { search: limits.clone(), progress: follow.live, resume: follow.resume };
    let r = solver.solve_with(state, threads, &limits).map_err(classified)?;
    Ok(ida_searched(r, threads.max(1), 1))
}

/// The engine's IDA*: threads, lanes and checkpoints.
fn engine_ida(
    solver: &Solver,
    state: &State,
    threads: usize,
    limits: &search::Limits,
    follow: Follow,
) -> anyhow::Result<Searched> {
    let limits = Limits { search: limits.clone(), progress: follow.live, resume: follow.resume };
    let r = solver.solve_with(state, threads, &limits).map_err(classified)?;
    Ok(ida_searched(r, solver.threads().min(threads), solver.lanes()))
}

/// An engine IDA* report (either metric's) as a search of this crate.
fn ida_searched(r: engine::Report, threads: usize, lanes: usize) -> Searched {
    Searched {
        algorithm: Algorithm::Ida,
        outcome: r.outcome,
        counts: r.counts,
        seconds: r.seconds,
        root_h: Some(r.root_h),
        threads,
        lanes,
        iterations: Some(r.iterations),
        bound: Some(r.bound),
        per_iteration: r.per_iteration,
        peak_stored: None,
    }
}

/// One of the library's algorithms over keys `K`, which hold `state`'s board.
fn library_run<K: Key>(
    solver: &Solver,
    algorithm: Algorithm,
    state: &State,
    limits: &search::Limits,
    report: &mut dyn FnMut(&search::Progress),
) -> anyhow::Result<search::Report<u8>> {
    let puzzle: TilePuzzle<_, K> = TilePuzzle::new(state.board(), |s: &State| solver.estimate(s))?;
    Ok(search::run(algorithm, &puzzle, &K::of(state), limits, report)?)
}
