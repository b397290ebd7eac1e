//! What a search is given (limits) and what it gives back (an outcome with its counts).

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

/// When to give up on an instance.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Expanded nodes (checked every few thousand).
    pub nodes: Option<u64>,
    /// Wall-clock time (with `resume`, both runs' together).
    pub time: Option<Duration>,
    /// Set from outside (Ctrl-C, a batch shutting down) to abandon the search.
    pub cancel: Option<Arc<AtomicBool>>,
    /// Where the search publishes how far it got (the bound as the depth), for a caller that shows it (a
    /// progress line, a batch, a server).
    pub progress: Option<Arc<Live>>,
    /// Where an earlier search of the same position with the same heuristic and automaton stopped: the search
    /// starts at its bound, its counts and seconds are added to the report's, and the node and time limits
    /// cover both runs.
    pub resume: Option<Checkpoint>,
    /// Told after every iteration that ends without a solution where a later search could start.
    pub on_checkpoint: Option<OnCheckpoint>,
}

/// IDA* iterations that ended without a solution: every solution shorter than `bound` is ruled out. A later
/// search of the same position starts there instead of at the start's estimate; the iterations below it
/// visit the same nodes however they are searched (threads, lanes), so the counts carried over are exact.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Checkpoint {
    /// The next iteration's bound.
    pub bound: u32,
    /// Iterations finished.
    pub iterations: u32,
    /// Nodes those iterations visited.
    pub counts: Counts,
    /// Search time of those iterations.
    pub seconds: f64,
}

/// What is called with each [`Checkpoint`] (a batch appends it to a file).
#[derive(Clone)]
pub struct OnCheckpoint(pub Arc<dyn Fn(&Checkpoint) + Send + Sync>);

impl std::fmt::Debug for OnCheckpoint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("OnCheckpoint")
    }
}

/// Nodes a search visited.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Children whose heuristic was evaluated.
    pub generated: u64,
    /// Nodes whose children were generated.
    pub expanded: u64,
}

/// Why a search ended without a solution: the generic library's type, so that every search command reports
/// stops alike (the engine never stops for memory: it stores no states).
pub use search::{Live, Stop};

/// How a search ended: with an optimal solution, or stopped before it had one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The tiles moved, in order: an optimal solution, replayed to the goal before it is returned.
    Solved(Vec<u8>),
    /// A limit or a cancel ended the search first.
    Stopped(Stop),
}

/// One search: its outcome and what it cost.
#[derive(Clone, Debug)]
pub struct Report {
    /// The solution, or why there is none.
    pub outcome: Outcome,
    /// Nodes visited, by every thread (and, when resumed, the earlier run).
    pub counts: Counts,
    /// Iterations run (bounds tried).
    pub iterations: u32,
    /// The heuristic estimate of the start.
    pub root_h: u32,
    /// The last bound searched (on a stop: a proven lower bound on the optimal length).
    pub bound: u32,
    /// Search time (with the earlier run's, when resumed).
    pub seconds: f64,
}

impl Outcome {
    /// The solution's moves, if solved.
    pub fn moves(&self) -> Option<&[u8]> {
        match self {
            Outcome::Solved(m) => Some(m),
            Outcome::Stopped(_) => None,
        }
    }

    /// Why the search stopped, if it did.
    pub fn stopped(&self) -> Option<Stop> {
        match *self {
            Outcome::Solved(_) => None,
            Outcome::Stopped(s) => Some(s),
        }
    }
}

impl Report {
    /// The solution's moves, if solved.
    pub fn moves(&self) -> Option<&[u8]> {
        self.outcome.moves()
    }

    /// Why the search stopped, if it did.
    pub fn stopped(&self) -> Option<Stop> {
        self.outcome.stopped()
    }
}
