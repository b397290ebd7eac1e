//! Limits, the clock, statistics and progress: the bookkeeping every algorithm shares.
//!
//! The node limit is exact and checked at every expansion (one compare). The clock, the cancel flag and
//! the periodic progress tick cost a system call or an atomic load, so they are looked at once every
//! [`CLOCK_EVERY`] expansions. Memory is checked *before* the store grows, against an estimate, so that a
//! memory limit ends the search with a result instead of an out-of-memory kill.

use crate::store::MAX_STATES;
use crate::{Limits, Outcome, Progress, Report, Stats, Stop};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

/// Expansions between looks at the clock and the cancel flag: a few microseconds of work at most.
const CLOCK_EVERY: u64 = 2048;

/// Least time between two [`Progress::Tick`]s.
const TICK_EVERY: Duration = Duration::from_millis(250);

pub(crate) struct Guard<'a> {
    limits: &'a Limits,
    progress: &'a mut dyn FnMut(&Progress),
    start: Instant,
    last_tick: Instant,
    next_clock: u64,
    pub(crate) stats: Stats,
}

impl<'a> Guard<'a> {
    pub(crate) fn new(limits: &'a Limits, progress: &'a mut dyn FnMut(&Progress)) -> Self {
        let start = Instant::now();
        Guard { limits, progress, start, last_tick: start, next_clock: CLOCK_EVERY, stats: Stats::default() }
    }

    /// Counts one expansion, unless a limit says to stop first. `stored` is reported by a tick.
    #[inline]
    pub(crate) fn expand(&mut self, stored: u64) -> Result<(), Stop> {
        if self.limits.nodes.is_some_and(|n| self.stats.expanded >= n) {
            return Err(Stop::NodeLimit);
        }
        self.stats.expanded += 1;
        if self.stats.expanded >= self.next_clock {
            self.next_clock += CLOCK_EVERY;
            self.clock(stored)?;
        }
        Ok(())
    }

    fn clock(&mut self, stored: u64) -> Result<(), Stop> {
        if self.limits.cancel.as_ref().is_some_and(|c| c.load(Ordering::Relaxed)) {
            return Err(Stop::Cancelled);
        }
        let now = Instant::now();
        if self.limits.time.is_some_and(|t| now - self.start >= t) {
            return Err(Stop::TimeLimit);
        }
        if now - self.last_tick >= TICK_EVERY {
            self.last_tick = now;
            let seconds = (now - self.start).as_secs_f64();
            (self.progress)(&Progress::Tick { expanded: self.stats.expanded, stored, seconds });
        }
        Ok(())
    }

    /// Called before the store may grow to `stored` states taking an estimated `bytes`: stops on the
    /// memory limit, or when ids would run out.
    #[inline]
    pub(crate) fn room(&self, stored: u64, bytes: u64) -> Result<(), Stop> {
        if self.limits.memory.is_some_and(|m| bytes > m) || stored > MAX_STATES {
            return Err(Stop::MemoryLimit);
        }
        Ok(())
    }

    /// Records what is stored now, for the peaks in [`Stats`].
    #[inline]
    pub(crate) fn peak(&mut self, stored: u64, bytes: u64) {
        self.stats.peak_stored = self.stats.peak_stored.max(stored);
        self.stats.peak_bytes = self.stats.peak_bytes.max(bytes);
    }

    /// Reports a finished layer, IDA* bound or A* f-value.
    pub(crate) fn depth(&mut self, depth: u32, stored: u64) {
        (self.progress)(&Progress::Depth { depth, stored, expanded: self.stats.expanded });
    }

    pub(crate) fn finish<M>(mut self, outcome: Outcome<M>) -> Report<M> {
        self.stats.seconds = self.start.elapsed().as_secs_f64();
        Report { outcome, stats: self.stats }
    }
}
