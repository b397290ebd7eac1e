//! Generic minimum-step search. A puzzle implements [`Puzzle`]; the algorithms return an optimal move
//! sequence (or a proof that there is none) with statistics. The library never prints: progress goes
//! through a callback, and limits stop any algorithm cleanly.
//!
//! The algorithms — [`bfs`], [`bibfs`], [`astar`], [`ida`], [`greedy`], [`dfs`], or [`run`] to pick one by
//! [`Algorithm`] — share one shape: `(puzzle, start, limits, progress) -> Result<Report, SearchError>`.
//! The `Result` is for requests that cannot run ([`SearchError::NeedsGoal`]) and puzzles whose
//! [`Puzzle::canonical`] breaks its own moves; everything about the position itself (solved, unsolvable,
//! stopped by a limit) is in the [`Report`]'s [`Outcome`].
//!
//! All of them store and compare only representatives ([`Puzzle::canonical`]), each once, and turn the
//! path they find back into moves from the real start by replaying it, which also checks that it ends at
//! a goal: no algorithm returns a path that was not played out.
//!
//! # Example
//!
//! A puzzle needs only its moves ([`Puzzle::successors`]) and its goal test; the rest of the trait is
//! optional knowledge that some algorithms use. This one is the example of every algorithm's page too (the
//! crate's `examples/` folder has the 8-puzzle and the two-jug riddle):
//!
//! ```
#![doc = include_str!("../doc/steps.rs")]
//!
//! fn main() {
//!     use search::{astar, AstarOptions, Limits, Outcome};
//!     let report = astar(&Steps, &0, &Limits::default(), AstarOptions::default(), &mut |_| {}).unwrap();
//!     assert!(matches!(report.outcome, Outcome::Solved(moves) if moves.len() == 4));
//! }
//! ```

#![warn(missing_docs)]

mod astar;
mod best_first;
mod bfs;
mod bibfs;
mod dfs;
mod fault;
mod greedy;
mod guard;
mod hash;
mod ida;
mod named;
mod path;
pub mod rng;
mod store;
pub mod threads;

pub use astar::{astar, AstarOptions};
pub use bfs::bfs;
pub use bibfs::bibfs;
pub use dfs::dfs;
pub use fault::Fault;
pub use greedy::greedy;
pub use ida::ida;
pub use named::{Named, UnknownName};
pub use threads::{cores, MAX_THREADS};

use std::fmt::Debug;
use std::hash::Hash;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};

/// A puzzle whose moves all cost one.
///
/// States are stored by the thousands or millions: make them small and cheap to hash (a packed integer).
pub trait Puzzle {
    /// A position.
    type State: Clone + Eq + Hash + Debug;
    /// A move, as solutions report it.
    type Move: Clone + Debug + PartialEq;

    /// Calls `visit(move, next)` for every position one move from `state`, always in the same order.
    fn successors(&self, state: &Self::State, visit: impl FnMut(Self::Move, Self::State));

    /// Whether `state` is solved.
    fn is_goal(&self, state: &Self::State) -> bool;

    /// An admissible estimate of the moves left: never more than the true fewest. 0 when there is none.
    fn heuristic(&self, _state: &Self::State) -> u32 {
        0
    }

    /// The representative of `state`'s class under the puzzle's symmetries (e.g. tubes in sorted order):
    /// positions of one class must have the same distance to a goal. The algorithms store and compare only
    /// representatives, and translate a solution back into moves from the real start.
    fn canonical(&self, state: &Self::State) -> Self::State {
        state.clone()
    }

    /// The one goal position, for puzzles that have exactly one and whose every move can be undone by a
    /// move; bidirectional search needs both, and refuses a puzzle without them.
    fn goal(&self) -> Option<Self::State> {
        None
    }

    /// A cheap proof that no goal can be reached from `state` (a parity argument, say); `false` when it
    /// cannot tell.
    fn unsolvable(&self, _state: &Self::State) -> bool {
        false
    }
}

/// When to give up. Every algorithm checks these regularly and stops cleanly with [`Outcome::Stopped`].
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Expanded nodes.
    pub nodes: Option<u64>,
    /// Wall-clock time from the start of the search.
    pub time: Option<std::time::Duration>,
    /// Bytes of stored states (the estimate in [`Stats::peak_bytes`]); checked before the store grows.
    pub memory: Option<u64>,
    /// Set from outside (Ctrl-C, a server shutting down) to abandon the search.
    pub cancel: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
}

/// IDA* iterations that ended without a solution: every solution shorter than `bound` is ruled out. A later
/// search of the same position (with the same heuristic and pruning) starts there instead of at the start's
/// estimate; the iterations below it visit the same nodes however they are searched (threads, lanes), so the
/// counts carried over are exact. A batch keeps them in a file (`OUT.checkpoints`), under these field names.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Checkpoint {
    /// The next iteration's bound.
    pub bound: u32,
    /// Iterations finished.
    pub iterations: u32,
    /// Generated nodes of those iterations (children whose heuristic was evaluated).
    pub nodes: u64,
    /// Expanded nodes of those iterations (nodes whose children were generated).
    pub expanded: u64,
    /// Their search time.
    pub seconds: f64,
}

/// Where one search starts and where it reports how far it got: the caller's side of [`Checkpoint`]s. A
/// search that keeps none (every one but the engine's IDA*) is given the default, which asks for none.
#[derive(Clone, Default)]
pub struct Resume {
    /// Where an earlier search of the same position stopped: the search starts at its bound, its counts and
    /// seconds are added to the report's, and the node and time limits cover both runs.
    pub from: Option<Checkpoint>,
    /// Called after each iteration that ends without a solution (a batch appends it to a file).
    pub save: Option<OnCheckpoint>,
}

/// What a search calls with each [`Checkpoint`]: from any of its threads, hence `Send + Sync`.
pub type OnCheckpoint = std::sync::Arc<dyn Fn(&Checkpoint) + Send + Sync>;

impl Debug for Resume {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Resume").field("from", &self.from).field("save", &self.save.is_some()).finish()
    }
}

/// Why a search stopped without an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// [`Limits::nodes`] nodes were expanded.
    NodeLimit,
    /// [`Limits::time`] ran out.
    TimeLimit,
    /// Storing more states would pass [`Limits::memory`].
    MemoryLimit,
    /// [`Limits::cancel`] was set.
    Cancelled,
}

impl std::fmt::Display for Stop {
    /// In words, as messages and records say it: `node limit`, `time limit`, `memory limit`, `cancelled`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Stop::NodeLimit => "node limit",
            Stop::TimeLimit => "time limit",
            Stop::MemoryLimit => "memory limit",
            Stop::Cancelled => "cancelled",
        })
    }
}

/// How a search ended.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome<M> {
    /// The moves from the start to a goal: the fewest there are, except from [`Algorithm::Greedy`] and
    /// [`Algorithm::Dfs`].
    Solved(Vec<M>),
    /// Proved: no goal can be reached (by [`Puzzle::unsolvable`] or by exhausting every reachable state).
    Unsolvable,
    /// A limit or a cancel ended the search first.
    Stopped(Stop),
}

/// What a search did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Stats {
    /// Nodes whose successors were generated.
    pub expanded: u64,
    /// Successors generated.
    pub generated: u64,
    /// Successors dropped because their state was already stored (or, in A*, stored with a better cost;
    /// in IDA*, which stores nothing, because they stepped straight back to the state just left).
    pub duplicates: u64,
    /// The most states stored at once (closed and open sets together; for IDA*, the path and the
    /// successors waiting on it).
    pub peak_stored: u64,
    /// An estimate of the peak memory of the stored states, in bytes: stored states times the state's
    /// size plus a per-state overhead (12 bytes in the store, 5 more for A*'s costs, 16 a heap entry).
    /// The arena and table grow by doubling, so the memory actually reserved can be up to twice this.
    pub peak_bytes: u64,
    /// Wall-clock time the search took.
    pub seconds: f64,
}

/// The result of a search.
#[derive(Clone, Debug)]
pub struct Report<M> {
    /// The answer, or why there is none.
    pub outcome: Outcome<M>,
    /// What it cost, whatever the outcome.
    pub stats: Stats,
}

/// Which algorithm to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Algorithm {
    /// Breadth-first search.
    Bfs,
    /// Bidirectional breadth-first search (needs [`Puzzle::goal`]).
    Bibfs,
    /// A* with the puzzle's heuristic.
    Astar,
    /// Iterative-deepening A*: memory linear in the depth.
    Ida,
    /// Greedy best-first: some solution fast, not the shortest.
    Greedy,
    /// Depth-first with a table of seen states, most promising successor first: some solution, not the
    /// shortest; fast when the puzzle's move order is good.
    Dfs,
}

impl Algorithm {
    /// Whether its solutions have the fewest moves.
    pub fn optimal(self) -> bool {
        !matches!(self, Algorithm::Greedy | Algorithm::Dfs)
    }

    /// Whether it is guided by the puzzle's heuristic: the breadth-first searches are not, so a record of
    /// theirs names no heuristic.
    pub fn informed(self) -> bool {
        !matches!(self, Algorithm::Bfs | Algorithm::Bibfs)
    }
}

/// How far a running search is, readable from another thread while it runs: for a progress line, or a
/// batch's list of the instances in flight. A search stores into it only where it already stops to check
/// its limits and at each new depth, so being watched costs it nothing measurable; the callback
/// ([`Progress`]) is for the thread that runs the search, this for any other.
#[derive(Debug, Default)]
pub struct Live {
    expanded: AtomicU64,
    depth: AtomicU32,
}

impl Live {
    /// Expanded nodes so far, all threads, as of the last store.
    pub fn expanded(&self) -> u64 {
        self.expanded.load(Ordering::Relaxed)
    }

    /// The depth reached, as [`Progress::Depth`] says it (IDA*: the bound of the iteration running); 0
    /// before the first.
    pub fn depth(&self) -> u32 {
        self.depth.load(Ordering::Relaxed)
    }

    /// Publishes the count of expanded nodes (the search's own, or the sum of its threads').
    pub fn set_expanded(&self, n: u64) {
        self.expanded.store(n, Ordering::Relaxed);
    }

    /// Publishes the depth reached, on the same scale as [`Progress::Depth`].
    pub fn set_depth(&self, d: u32) {
        self.depth.store(d, Ordering::Relaxed);
    }

    /// Stores what a [`Progress`] report says, for a search that reports through the callback.
    pub fn note(&self, p: &Progress) {
        match *p {
            Progress::Depth { depth, expanded, .. } => {
                self.set_depth(depth);
                self.set_expanded(expanded);
            }
            Progress::Tick { expanded, .. } => self.set_expanded(expanded),
        }
    }
}

/// What a search reports while it runs, at most a few times a second or once a depth.
#[derive(Clone, Debug)]
pub enum Progress {
    /// A new depth: breadth-first search finished layer `depth` (bidirectional: the two sides' depths
    /// added); IDA* starts a round bounded by f = `depth`; A* takes its first open state of f = `depth`.
    Depth {
        /// The depth, or f-bound, now reached.
        depth: u32,
        /// States stored at that moment.
        stored: u64,
        /// Nodes expanded so far.
        expanded: u64,
    },
    /// Periodic: counts so far.
    Tick {
        /// Nodes expanded so far.
        expanded: u64,
        /// States stored now.
        stored: u64,
        /// Wall-clock time since the start.
        seconds: f64,
    },
}

/// A search that could not run, or whose answer could not be trusted. Unlike [`Outcome`], these are
/// mistakes in the request or in the puzzle's implementation, not facts about the position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SearchError {
    /// Bidirectional search was asked for a puzzle whose [`Puzzle::goal`] is `None`.
    #[error("bidirectional search needs the puzzle's single goal, and this puzzle has none (Puzzle::goal)")]
    NeedsGoal,
    /// The path found among representatives could not be replayed from the real start: at move `step` no
    /// successor had the next representative, or the replay did not end at a goal. The puzzle breaks its
    /// contract: its `canonical` does not agree with its `successors` or `is_goal` (positions of one class
    /// must have successors of the same classes, and be goals alike), or, for bidirectional search, its
    /// moves cannot all be undone. Returned instead of a wrong answer.
    #[error("the path found does not replay from the start at move {step}: the puzzle's canonical form disagrees with its moves or goal test, or (bidirectional search) its moves are not reversible")]
    NotReplayable {
        /// The index of the move that could not be replayed (the path's length if the replay ended
        /// away from a goal).
        step: usize,
    },
}

/// Runs `algorithm` (A* with [`AstarOptions::default`]).
///
/// # Example
///
/// ```
/// # include!("../doc/steps.rs"); // `Steps`, the crate's example: 0 to 10 in steps of 1 or 3
/// # fn main() {
/// use search::{run, Algorithm, Limits, Outcome};
/// let all = [Algorithm::Bfs, Algorithm::Bibfs, Algorithm::Astar, Algorithm::Ida, Algorithm::Greedy, Algorithm::Dfs];
/// for algorithm in all {
///     let report = run(algorithm, &Steps, &0, &Limits::default(), &mut |_| {}).unwrap();
///     let Outcome::Solved(moves) = report.outcome else { panic!("{algorithm:?}: {:?}", report.outcome) };
///     assert_eq!(moves.iter().sum::<i32>(), 10);
///     // 4 moves from the algorithms that promise the fewest; the others may take more.
///     assert!(moves.len() == 4 || (!algorithm.optimal() && moves.len() > 4), "{algorithm:?}: {moves:?}");
/// }
/// # }
/// ```
pub fn run<P: Puzzle>(
    algorithm: Algorithm,
    puzzle: &P,
    start: &P::State,
    limits: &Limits,
    progress: &mut dyn FnMut(&Progress),
) -> Result<Report<P::Move>, SearchError> {
    match algorithm {
        Algorithm::Bfs => bfs(puzzle, start, limits, progress),
        Algorithm::Bibfs => bibfs(puzzle, start, limits, progress),
        Algorithm::Astar => astar(puzzle, start, limits, AstarOptions::default(), progress),
        Algorithm::Ida => ida(puzzle, start, limits, progress),
        Algorithm::Greedy => greedy(puzzle, start, limits, progress),
        Algorithm::Dfs => dfs(puzzle, start, limits, progress),
    }
}
