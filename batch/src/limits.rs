//! `--time-limit`, `--node-limit` and `--memory-limit`, the same for every search command.

use cli_common::heading::LIMITS;
use search::Limits;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

/// Per instance: when to give up on a search (it is then reported with status `limit`).
#[derive(clap::Args, Clone, Debug, Default)]
pub struct LimitArgs {
    /// Stop the search after this many seconds.
    #[arg(long, value_name = "SECS", value_parser = parse_seconds, help_heading = LIMITS)]
    pub time_limit: Option<Duration>,
    /// Stop the search after this many expanded nodes (checked every few thousand).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..), help_heading = LIMITS)]
    pub node_limit: Option<u64>,
    /// Stop before the stored states need more than this much memory, e.g. 2G (an estimate; searches that
    /// store no states, such as IDA*, ignore it) [default: the memory available when the search starts,
    /// within any container's (cgroup's) limit, so that a search is stopped and recorded rather than killed].
    #[arg(long, value_name = "SIZE", value_parser = parse_memory, help_heading = LIMITS)]
    pub memory_limit: Option<u64>,
}

impl LimitArgs {
    /// The limits, with `cancel` to abandon a search from outside; the memory limit defaults to what the
    /// machine (or the container) has available now.
    pub fn limits(&self, cancel: Option<Arc<AtomicBool>>) -> Limits {
        let memory = self.memory_limit.or_else(|| cli_common::resources::available_memory().map(|m| m.bytes));
        Limits { nodes: self.node_limit, time: self.time_limit, memory, cancel }
    }

    /// Whether a search that stopped at a limit after `expanded` nodes and `seconds` (counted from its start,
    /// as a resumed search counts them) gets further under these limits: each one given is past what it spent.
    pub fn go_past(&self, expanded: u64, seconds: f64) -> bool {
        self.node_limit.is_none_or(|n| n > expanded) && self.time_limit.is_none_or(|t| t.as_secs_f64() > seconds)
    }
}

/// The longest time limit taken: a year. Longer ones are surely typos, and `Duration` has an end.
const MAX_SECONDS: f64 = 365.0 * 24.0 * 3600.0;

/// A positive number of seconds, at most a year.
pub fn parse_seconds(s: &str) -> Result<Duration, String> {
    match s.parse::<f64>() {
        Ok(x) if x > 0.0 && x <= MAX_SECONDS => Ok(Duration::from_secs_f64(x)),
        Ok(x) if x > MAX_SECONDS => Err(format!("{s} seconds is more than a year ({MAX_SECONDS} s)")),
        _ => Err(format!("'{s}' is not a positive number of seconds")),
    }
}

fn parse_memory(s: &str) -> Result<u64, String> {
    cli_common::units::parse_size(s).map_err(|e| e.to_string())
}
