//! The progress line of a long single search on a terminal: the bound, nodes and speed once a second on
//! stderr, read from the search's [`Live`] counters (the engine never prints).

use engine::Live;
use std::sync::mpsc::{channel, RecvTimeoutError, Sender};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// A thread printing a search's progress until dropped.
pub struct Watch {
    stop: Option<Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl Watch {
    /// Starts printing `progress` once a second, after the first second (a quick search shows nothing). The
    /// speed is over the last second, so a change of pace (a new iteration) shows at once.
    pub fn start(progress: Arc<Live>) -> Watch {
        let (stop, stopped) = channel::<()>();
        let thread = std::thread::spawn(move || {
            let start = Instant::now();
            let (mut when, mut before) = (start, 0);
            while let Err(RecvTimeoutError::Timeout) = stopped.recv_timeout(Duration::from_secs(1)) {
                let (now, expanded) = (Instant::now(), progress.expanded());
                let rate = (expanded - before) as f64 / (now - when).as_secs_f64();
                cli_common::log(&line((now - start).as_secs_f64(), progress.depth(), expanded, rate));
                (when, before) = (now, expanded);
            }
        });
        Watch { stop: Some(stop), thread: Some(thread) }
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        drop(self.stop.take());
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// One progress line; `rate`: expanded nodes a second since the line before.
fn line(seconds: f64, bound: u32, expanded: u64, rate: f64) -> String {
    format!("solver: {seconds:.0} s  bound {bound}  {expanded} nodes expanded  {:.2} M expanded/s", rate / 1e6)
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_progress_line_says_bound_nodes_and_speed() {
        assert_eq!(
            super::line(2.0, 52, 3_000_000, 1.5e6),
            "solver: 2 s  bound 52  3000000 nodes expanded  1.50 M expanded/s"
        );
    }
}
