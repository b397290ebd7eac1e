//! Progress on stderr while a batch runs: a bar on a terminal, else a plain line every ten seconds, both
//! naming the instances in flight with their time, depth and nodes.

use crate::record::Record;
use cli_common::log;
use cli_common::text::printable;
use indicatif::{HumanDuration, ProgressBar};
use search::Live;
use std::io::IsTerminal;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How often a progress line is printed when stderr is not a terminal.
const PLAIN_PROGRESS_EVERY: Duration = Duration::from_secs(10);

/// An instance being searched, as the progress line shows it.
pub struct Running {
    pub id: String,
    since: Instant,
    live: Arc<Live>,
    /// The optimal length the input gave, if any: how far the search's depth still has to go.
    expected: Option<u32>,
}

impl Running {
    /// An instance whose search starts now and publishes to `live`.
    pub fn new(id: String, live: Arc<Live>, expected: Option<u32>) -> Running {
        Running { id, since: Instant::now(), live, expected }
    }

    /// `6 (14 minutes, depth 99 of 101, 4.12e10 expanded)`: what an overnight run's log needs to tell a
    /// slow instance from a stuck one. The depth is IDA*'s bound; searches that say no depth show none.
    fn describe(&self) -> String {
        let mut parts = vec![span(self.since.elapsed())];
        match (self.live.depth(), self.expected) {
            (0, _) => {}
            (d, Some(e)) => parts.push(format!("depth {d} of {e}")),
            (d, None) => parts.push(format!("depth {d}")),
        }
        if self.live.expanded() > 0 {
            parts.push(format!("{:.2e} expanded", self.live.expanded() as f64));
        }
        format!("{} ({})", self.id, parts.join(", "))
    }
}

/// A duration for the progress line. `HumanDuration` rounds to one unit, so 93 minutes would read "2 hours";
/// past an hour an overnight log needs the minutes too.
fn span(d: Duration) -> String {
    let s = d.as_secs();
    if s < 3600 {
        HumanDuration(d).to_string()
    } else {
        format!("{} h {} min", s / 3600, s % 3600 / 60)
    }
}

/// Progress on stderr: a bar on a terminal, else a plain line every `PLAIN_PROGRESS_EVERY`.
pub struct Progress {
    bar: Option<ProgressBar>,
    quiet: bool,
    /// Instances to do; `None` for a stream.
    total: Option<u64>,
    /// Instances recorded so far.
    pub done: u64,
    by_status: [u64; 5],
    running: Vec<Running>,
    start: Instant,
    last_line: Instant,
}

impl Progress {
    /// Instances not yet recorded; `None` for a stream.
    pub fn left(&self) -> Option<u64> {
        self.total.map(|t| t.saturating_sub(self.done))
    }

    /// Progress for `total` instances (`None`: unknown); `quiet`: none at all.
    pub fn new(total: Option<u64>, quiet: bool) -> Progress {
        let bar = (!quiet && std::io::stderr().is_terminal()).then(|| {
            let bar = total.map_or_else(ProgressBar::no_length, ProgressBar::new);
            bar.set_style(cli_common::bar_style());
            bar.enable_steady_tick(Duration::from_millis(250));
            bar
        });
        let now = Instant::now();
        Progress { bar, quiet, total, done: 0, by_status: [0; 5], running: Vec::new(), start: now, last_line: now }
    }

    /// A line above the bar: notes of problems are shown even when quiet. Notes quote ids and lines of the
    /// input, so they are printed printable.
    pub fn note(&self, msg: &str) {
        let msg = printable(msg);
        match &self.bar {
            Some(bar) => bar.println(msg),
            None => log(&msg),
        }
    }

    pub fn started(&mut self, running: Running) {
        self.running.push(running);
        self.show_running();
    }

    pub fn ended(&mut self, id: &str) {
        self.running.retain(|r| r.id != id);
        self.show_running();
    }

    /// The instances in flight, described (printable: their ids are the input's).
    fn running_text(&self) -> String {
        let all = self.running.iter().map(Running::describe).collect::<Vec<_>>().join(", ");
        printable(&all).into_owned()
    }

    pub fn finished(&mut self, rec: &Record) {
        self.ended(&rec.id);
        self.done += 1;
        self.by_status[rec.status as usize] += 1;
        if let Some(bar) = &self.bar {
            bar.inc(1);
        }
    }

    fn show_running(&self) {
        if let Some(bar) = &self.bar {
            bar.set_message(format!("running: {}", self.running_text()));
        }
    }

    pub fn tick(&mut self) {
        if self.bar.is_some() {
            self.show_running();
            return;
        }
        if self.quiet || self.last_line.elapsed() < PLAIN_PROGRESS_EVERY {
            return;
        }
        self.last_line = Instant::now();
        let elapsed = self.start.elapsed();
        let eta = match (self.done, self.total) {
            (0, _) | (_, None) => "unknown".to_string(),
            (d, Some(t)) => span(elapsed.mul_f64(t.saturating_sub(d) as f64 / d as f64)),
        };
        let total = self.total.map_or("?".to_string(), |t| t.to_string());
        let [solved, limit, unsolvable, invalid, exhausted] = self.by_status;
        let exhausted = if exhausted > 0 { format!(", {exhausted} exhausted") } else { String::new() };
        log(&format!(
            "batch: {}/{total} done ({solved} solved, {limit} limit, {unsolvable} unsolvable, {invalid} invalid{exhausted}), elapsed {}, ETA {eta}; running: {}",
            self.done,
            span(elapsed),
            self.running_text()
        ));
    }

    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_running_instance_says_how_long_how_deep_and_how_many_nodes() {
        let live = Arc::new(Live::default());
        let running = |expected| Running::new("6".into(), Arc::clone(&live), expected);
        // Nothing published yet (a search that says no depth): the time alone.
        assert_eq!(running(Some(101)).describe(), "6 (0 seconds)");
        live.set_depth(99);
        live.set_expanded(41_234_000_000);
        assert_eq!(running(Some(101)).describe(), "6 (0 seconds, depth 99 of 101, 4.12e10 expanded)");
        assert_eq!(running(None).describe(), "6 (0 seconds, depth 99, 4.12e10 expanded)");
    }

    #[test]
    fn durations_past_an_hour_keep_their_minutes() {
        assert_eq!(span(Duration::from_secs(20)), "20 seconds");
        assert_eq!(span(Duration::from_secs(14 * 60 + 5)), "14 minutes");
        assert_eq!(span(Duration::from_secs(93 * 60 + 59)), "1 h 33 min");
        assert_eq!(span(Duration::from_secs(7 * 3600)), "7 h 0 min");
    }
}
