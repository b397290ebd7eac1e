//! Search settings, validated once when they are made: threads, lanes and the automaton's depth.

use crate::error::Error;
use crate::fsm;

/// How many moves deep the duplicate-path automaton learns by default (see `fsm` and BENCHMARKS.md).
pub const FSM_DEPTH: usize = fsm::MAX_DEPTH;
/// Depth-first searches interleaved on each thread by default with tables (see `lanes` and BENCHMARKS.md).
/// Without tables there are no reads to wait for, and one lane is fastest.
pub const LANES: usize = 3;
/// The most lanes a thread may run.
pub const MAX_LANES: usize = 16;
pub use search::{cores, MAX_THREADS};

/// Settings of a [`crate::Solver`]. Every setter checks its range, so a `Settings` is always valid.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    threads: usize,
    lanes: Option<usize>,
    fsm_depth: usize,
    fsm_wide: bool,
}

impl Default for Settings {
    /// All cores, the heuristic's default lanes, the default automaton depth.
    fn default() -> Settings {
        Settings { threads: cores(), lanes: None, fsm_depth: FSM_DEPTH, fsm_wide: false }
    }
}

impl Settings {
    /// Threads for one search: 1 to [`MAX_THREADS`].
    pub fn threads(self) -> usize {
        self.threads
    }

    /// The longest move strings the duplicate-path automaton learns (see [`Settings::with_fsm_depth`]).
    pub fn fsm_depth(self) -> usize {
        self.fsm_depth
    }

    /// Whether the automaton may take 32-bit states (see [`crate::fsm::MoveFsm::build_wide`]).
    pub fn fsm_wide(self) -> bool {
        self.fsm_wide
    }

    /// 32-bit automaton states where 16 bits would cut the depth short (boards of more than 16 cells).
    pub fn with_fsm_wide(mut self, wide: bool) -> Settings {
        self.fsm_wide = wide;
        self
    }

    /// Sets the threads for one search; [`Error::Setting`] outside 1 to [`MAX_THREADS`].
    pub fn with_threads(mut self, threads: usize) -> Result<Settings, Error> {
        if !(1..=MAX_THREADS).contains(&threads) {
            return Err(Error::Setting(format!(
                "the number of threads must be from 1 to {MAX_THREADS}, not {threads}"
            )));
        }
        self.threads = threads;
        Ok(self)
    }

    /// Depth-first searches each thread interleaves, 1 to [`MAX_LANES`] (1 is a plain depth-first search in
    /// the serial order). Unset: [`LANES`] with tables, 1 without.
    pub fn with_lanes(mut self, lanes: usize) -> Result<Settings, Error> {
        if !(1..=MAX_LANES).contains(&lanes) {
            return Err(Error::Setting(format!("the number of lanes must be from 1 to {MAX_LANES}, not {lanes}")));
        }
        self.lanes = Some(lanes);
        Ok(self)
    }

    /// The duplicate-path automaton's depth in moves: 2 (parent pruning only) to [`fsm::MAX_DEPTH`].
    pub fn with_fsm_depth(mut self, depth: usize) -> Result<Settings, Error> {
        if !(2..=fsm::MAX_DEPTH).contains(&depth) {
            return Err(Error::Setting(format!(
                "the duplicate-pruning depth must be from 2 to {}, not {depth}",
                fsm::MAX_DEPTH
            )));
        }
        self.fsm_depth = depth;
        Ok(self)
    }

    pub(crate) fn lanes_for(self, tables: bool) -> usize {
        self.lanes.unwrap_or(if tables { LANES } else { 1 })
    }
}
