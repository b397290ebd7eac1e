//! A puzzle's side of a batch: what the runner asks of it. The task reads lines into the input's types
//! (`jobs`), so this module depends on `jobs` and never the other way round.

use crate::jobs::{Line, Source};
use crate::record::Record;
use search::{Limits, Live, Resume, Stop};
use std::sync::Arc;

/// A puzzle's side of a batch: reading its instance lines and solving them into records.
pub trait Task: Sync {
    /// A parsed instance.
    type Instance: Send + Sync;

    /// The algorithms the puzzle can be searched with, the default first: what `--algorithm` offers, by the
    /// names [`search::Named`] gives them, the same in every tool.
    const ALGORITHMS: &'static [search::Algorithm];

    /// The estimates the puzzle can be searched with (its own type, named by [`search::Named`]).
    type Heuristic: search::Named + Send + Sync;

    /// The heuristics `--heuristic` offers, in the order its help lists them.
    const HEURISTICS: &'static [Self::Heuristic];

    /// The command's name, for messages (`solver`, `watersort`).
    fn name(&self) -> &str;

    /// What a solution's length counts, as summaries name it: `moves` of tiles, `pours` of water.
    const STEPS: &'static str;

    /// What decides a result besides the instance, as `name`/value pairs (the board or capacity, the goal or
    /// rule, the algorithm, the heuristic and its tables, how moves are written): every batch record stores
    /// them, and `--resume` refuses a file whose records were made with others, naming them. Thread and lane
    /// counts and limits are left out: they change node counts or which instances finish, not what a result
    /// means.
    fn settings(&self) -> Vec<(&'static str, String)>;

    /// Reads one line (without its newline), or the rows of a grid joined by spaces (see [`Task::rows`]):
    /// `None` for a blank or comment line.
    fn parse(&self, line: &str) -> Option<Line<Self::Instance>>;

    /// What a row is, if an instance may be written as a grid, one row a line (`crate::rows`): such rows are
    /// joined and parsed as one line, whose number is the first row's. `None` (the default): a line each.
    fn rows(&self) -> Option<crate::rows::Row> {
        None
    }

    /// The record of a line that is not a valid instance.
    fn invalid(&self, src: &Source, problem: String) -> Record;

    /// Searches one instance on `threads` threads within `limits`, keeping `live` up to date as the search
    /// goes (for the progress line), starting from and reporting checkpoints as `resume` says (a task whose
    /// [`Task::checkpoint_key`] is `None` is never given any). A search the limits' `cancel` stopped is
    /// reported as [`Stop::Cancelled`], and nothing is written of it.
    fn solve(
        &self,
        inst: &Self::Instance,
        src: &Source,
        threads: usize,
        limits: &Limits,
        live: &Arc<Live>,
        resume: &Resume,
    ) -> anyhow::Result<Attempt>;

    /// What searches the instances, if its searches can be carried across runs by checkpoints (see
    /// `checkpoint`): a checkpoint is used only by a search with the same key, since another heuristic or
    /// pruning would count other nodes. `None` (the default): no checkpoints.
    fn checkpoint_key(&self) -> Option<String> {
        None
    }

    /// The threads the batch may use (the tool's `--threads`).
    fn threads(&self) -> usize;

    /// Whether one search can use several threads; if not, instances always run side by side.
    fn parallel_search(&self) -> bool;

    /// What to suggest when no line of the input is valid (e.g. `is --board right?`).
    fn no_valid_hint(&self) -> String;
}

/// One search's record, and why it stopped if it did.
pub struct Attempt {
    /// The instance's record.
    pub record: Record,
    /// Why the search stopped without an answer (a limit or a cancel), if it did: the runner defers an
    /// instance a trial's node budget stopped and abandons a cancelled one.
    pub stop: Option<Stop>,
}
