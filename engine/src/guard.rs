//! The stop conditions one solve shares between its threads: limits, cancellation, and "a solution was
//! found".

use crate::outcome::{Limits, Stop};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// Expanded nodes between checks of the limits.
pub(crate) const CHECK_EVERY: u64 = 1 << 14;

/// Shared stop conditions for one solve, checked every `CHECK_EVERY` expansions.
pub(crate) struct Guard<'a> {
    limits: &'a Limits,
    pub(crate) start: Instant,
    /// Nodes of all threads, flushed at each check.
    nodes: AtomicU64,
    /// Set when a solution is found or a limit is hit: every thread unwinds.
    pub(crate) stop: AtomicBool,
    pub(crate) why: Mutex<Option<Stop>>,
}

impl<'a> Guard<'a> {
    pub(crate) fn new(limits: &'a Limits) -> Self {
        Guard {
            limits,
            start: Instant::now(),
            nodes: AtomicU64::new(0),
            stop: AtomicBool::new(false),
            why: Mutex::new(None),
        }
    }

    /// Adds a thread's nodes since its last check and checks the limits; true when the search must stop.
    pub(crate) fn check(&self, add_nodes: u64) -> bool {
        let total = self.nodes.fetch_add(add_nodes, Ordering::Relaxed) + add_nodes;
        if let Some(p) = &self.limits.progress {
            p.set_expanded(total);
        }
        let why = if self.limits.search.cancel.as_ref().is_some_and(|c| c.load(Ordering::Relaxed)) {
            Some(Stop::Cancelled)
        } else if self.limits.search.nodes.is_some_and(|n| total >= n) {
            Some(Stop::NodeLimit)
        } else if self.limits.search.time.is_some_and(|t| self.start.elapsed() >= t) {
            Some(Stop::TimeLimit)
        } else {
            None
        };
        if let Some(w) = why {
            self.why.lock().unwrap().get_or_insert(w);
            self.stop.store(true, Ordering::Relaxed);
        }
        self.stop.load(Ordering::Relaxed)
    }
}
