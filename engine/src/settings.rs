//! Search settings, validated once when they are made: threads, lanes and the automaton's depth.

use crate::error::Error;
use crate::fsm;

/// How many moves deep the duplicate-path automaton learns by default (see `fsm` and BENCHMARKS.md).
pub const FSM_DEPTH: usize = fsm::MAX_DEPTH;
/// Depth-first searches interleaved on each thread by default with tables on boards of up to
/// [`LANES_MAX_CELLS`] cells (see `lanes` and BENCHMARKS.md). Without tables there are no reads to wait for,
/// and one lane is fastest.
pub const LANES: usize = 3;
/// The largest board that gets [`LANES`] lanes by default. On 5x5 one lane was measured faster with every
/// table set (6-6-6-6, 7-6-6-5 and the two together: 1.1-1.25x the nodes a second on one and on two threads,
/// BENCHMARKS.md), while on 4x4 three lanes stay faster (1.1-1.2x, with one set and with two); larger boards
/// than 4x4 take one lane.
pub const LANES_MAX_CELLS: usize = 16;
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
    /// Textbook mode, with the goal the input is written for (see [`Settings::with_textbook`]).
    textbook: Option<puzzle::Goal>,
    /// Dual lookups with BPMX (see [`Settings::with_dual`]).
    dual: bool,
}

impl Default for Settings {
    /// All cores, the heuristic's default lanes, the default automaton depth.
    fn default() -> Settings {
        Settings { threads: cores(), lanes: None, fsm_depth: FSM_DEPTH, fsm_wide: false, textbook: None, dual: false }
    }
}

impl Settings {
    /// Threads for one search: 1 to [`MAX_THREADS`].
    pub fn threads(self) -> usize {
        if self.textbook.is_some() {
            1
        } else {
            self.threads
        }
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
    /// the serial order). Unset: [`LANES`] with tables on boards of up to [`LANES_MAX_CELLS`] cells, else 1.
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

    /// Textbook mode (`Some`): the plain IDA* a student writes from a textbook, whose node counts can be
    /// checked against theirs (docs/textbook.md): one thread, no lanes, no pruning beyond never undoing the
    /// previous move, children in the order the blank moves up, down, left, right on the board as `goal`'s
    /// input is written (a blank-last position is searched turned half round, so its directions are
    /// reversed here), unordered, the goal tested when a node is visited. Thread, lane and automaton
    /// settings are then not used.
    pub fn with_textbook(mut self, goal: Option<puzzle::Goal>) -> Settings {
        self.textbook = goal;
        self
    }

    /// Dual lookups (`true`): every node the tables' estimate keeps is also looked up at its dual (and, with
    /// the reflected lookups, at its reflection's), and the estimates are propagated with BPMX (see
    /// [`crate::dual`]). Fewer nodes, more work a node; one partition of 2 to 4 tables only.
    pub fn with_dual(mut self, dual: bool) -> Settings {
        self.dual = dual;
        self
    }

    /// Whether dual lookups are on (see [`Settings::with_dual`]).
    pub fn dual(self) -> bool {
        self.dual
    }

    /// The goal of textbook mode, if it is on (see [`Settings::with_textbook`]).
    pub fn textbook(self) -> Option<puzzle::Goal> {
        self.textbook
    }

    /// The lanes a search on a board of `cells` cells runs, with or without tables.
    pub(crate) fn lanes_for(self, tables: bool, cells: usize) -> usize {
        if self.textbook.is_some() {
            return 1;
        }
        self.lanes.unwrap_or(if tables && cells <= LANES_MAX_CELLS { LANES } else { 1 })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Three lanes by default only with tables on boards up to 4x4; one without tables or on larger boards;
    /// a lane count that was set is kept everywhere.
    #[test]
    fn default_lanes_depend_on_tables_and_board_size() {
        let unset = Settings::default();
        assert_eq!(unset.lanes_for(true, 16), LANES);
        assert_eq!(unset.lanes_for(true, 9), LANES);
        assert_eq!(unset.lanes_for(true, 25), 1);
        assert_eq!(unset.lanes_for(true, 20), 1);
        assert_eq!(unset.lanes_for(false, 16), 1);
        let set = unset.with_lanes(5).unwrap();
        for (tables, cells) in [(true, 16), (true, 25), (false, 9)] {
            assert_eq!(set.lanes_for(tables, cells), 5);
        }
    }
}
