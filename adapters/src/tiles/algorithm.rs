//! Which algorithm solves a position: the engine's IDA* (the fast one, and the default), or one of the
//! generic library's (A*, breadth-first, bidirectional breadth-first, greedy) over the same heuristic, for
//! teaching and for comparing them.

use super::engine_error;
use anyhow::{anyhow, bail};
use engine::{Counts, Limits, Live, Outcome, Solver, Stop};
use puzzle::tiles_search::TilePuzzle;
use puzzle::State;
use std::sync::Arc;

/// An algorithm, as `--algorithm` names it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Algorithm {
    /// IDA* with the engine's lanes, threads and duplicate-path automaton: the fast one.
    #[default]
    Ida,
    /// A* (memory grows with the states it stores: give --memory-limit).
    Astar,
    /// Breadth-first search: no heuristic; every state up to the solution's depth is stored.
    Bfs,
    /// Bidirectional breadth-first search from the position and from the goal.
    Bibfs,
    /// Greedy best-first by the heuristic: some solution fast, usually not the shortest.
    Greedy,
}

impl Algorithm {
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Ida => "ida",
            Algorithm::Astar => "astar",
            Algorithm::Bfs => "bfs",
            Algorithm::Bibfs => "bibfs",
            Algorithm::Greedy => "greedy",
        }
    }

    /// Whether its solutions are the shortest (and so can be checked against a known optimum).
    pub fn optimal(self) -> bool {
        self != Algorithm::Greedy
    }

    /// Whether it is guided by the heuristic: the breadth-first searches are not.
    pub fn informed(self) -> bool {
        !matches!(self, Algorithm::Bfs | Algorithm::Bibfs)
    }
}

/// What a search did, whichever algorithm ran.
#[derive(Clone, Debug)]
pub struct Searched {
    pub algorithm: Algorithm,
    pub outcome: Outcome,
    pub counts: Counts,
    pub seconds: f64,
    /// The heuristic estimate of the start, if the algorithm used one.
    pub root_h: Option<u32>,
    /// The threads and lanes it ran on (the library's algorithms run on one thread, one lane).
    pub threads: usize,
    pub lanes: usize,
    /// IDA* only: iterations run, and the last bound searched (a proven lower bound when stopped).
    pub iterations: Option<u32>,
    pub bound: Option<u32>,
    /// The algorithms that store states: the most stored at once.
    pub peak_stored: Option<u64>,
}

impl Searched {
    pub fn moves(&self) -> Option<&[u8]> {
        self.outcome.moves()
    }

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
    let Follow { live: progress, say_depths, resume } = follow;
    let library = match algorithm {
        Algorithm::Ida => {
            let limits = Limits { search: limits.clone(), progress, resume };
            let r = solver.solve_with(state, threads, &limits).map_err(engine_error)?;
            return Ok(Searched {
                algorithm,
                outcome: r.outcome,
                counts: r.counts,
                seconds: r.seconds,
                root_h: Some(r.root_h),
                threads,
                lanes: solver.lanes(),
                iterations: Some(r.iterations),
                bound: Some(r.bound),
                peak_stored: None,
            });
        }
        Algorithm::Astar => search::Algorithm::Astar,
        Algorithm::Bfs => search::Algorithm::Bfs,
        Algorithm::Bibfs => search::Algorithm::Bibfs,
        Algorithm::Greedy => search::Algorithm::Greedy,
    };
    if resume.from.is_some() {
        bail!("internal error: only IDA* starts from a checkpoint; please report this");
    }
    if state.board() != solver.board() {
        return Err(engine_error(engine::Error::WrongBoard { position: state.board(), solver: solver.board() }));
    }
    let puzzle = TilePuzzle::new(state.board(), |s: &State| solver.estimate(s));
    let mut report = |p: &search::Progress| {
        if let Some(live) = &progress {
            live.note(p);
        }
        if let (true, search::Progress::Depth { depth, stored, expanded }) = (say_depths, p) {
            cli_common::log(&format!(
                "{}: depth {depth}: {stored} states stored, {expanded} expanded",
                algorithm.name()
            ));
        }
    };
    let r = search::run(library, &puzzle, &state.pack(), limits, &mut report)
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
        peak_stored: Some(r.stats.peak_stored),
    })
}
