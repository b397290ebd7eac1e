//! What a search is given (limits) and what it gives back (an outcome with its counts).

use std::sync::Arc;

/// When to give up on an instance, and how the caller follows the search.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// The nodes (expanded, checked every few thousand), time and cancel flag every search command shares.
    /// The memory limit is not read: the engine stores no states.
    pub search: search::Limits,
    /// Where the search publishes how far it got (the bound as the depth), for a caller that shows it (a
    /// progress line, a batch, a server).
    pub progress: Option<Arc<Live>>,
    /// The checkpoint to start from (same position, heuristic and automaton) and where to report new ones.
    pub resume: Resume,
}

/// Nodes a search visited.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Children whose heuristic was evaluated.
    pub generated: u64,
    /// Nodes whose children were generated.
    pub expanded: u64,
}

/// The generic library's types, so that every search command reports stops and progress alike and keeps one
/// kind of checkpoint (the engine never stops for memory: it stores no states).
pub use search::{Checkpoint, Live, Resume, Stop};

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
    /// Each iteration this run searched, in order (a resumed run's earlier iterations are in its
    /// checkpoint's totals only): what a student's own IDA* can be checked against, bound by bound.
    pub per_iteration: Vec<Iteration>,
}

/// One IDA* iteration: its bound and the nodes it generated and expanded (with several threads, those of
/// the last iteration depend on timing; see `ida`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Iteration {
    /// The cost bound searched.
    pub bound: u32,
    /// Its nodes.
    pub counts: Counts,
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
