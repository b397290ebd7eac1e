//! The options of every tool's `batch`, and how it may use its threads.

use crate::checkpoint;
use crate::jobs::Shard;
use crate::limits::LimitArgs;
use crate::record::RecordFormat;
use clap::Args;
use cli_common::heading::{INPUT, OUTPUT, TUNING};
use std::path::PathBuf;

/// The options of every tool's `batch` (its puzzle's own options are flattened beside them).
#[derive(Args, Clone)]
pub struct BatchArgs {
    /// Instance file, one instance a line (`#` comments; see the tool's `solve --help` for the line format,
    /// which may start with an id and the known optimal length), or `-` for stdin, read as it arrives. A
    /// line without an id gets its line number as id.
    #[arg(value_name = "FILE")]
    pub input: String,
    /// Take every N-th instance starting at the I-th (0-based), e.g. 0/3, 1/3, 2/3 on three machines; merge
    /// the outputs with the tool's `report`.
    #[arg(long, value_name = "I/N", help_heading = INPUT)]
    pub shard: Option<Shard>,
    /// Share the input file with other workers (on this machine or others, over a shared file system): each
    /// instance is searched by the first worker to claim it in DIR (a hard link named by its line), so a
    /// faster worker takes more and all end at about the same time. Needs --output; run again with --resume
    /// and the same OUT, a worker takes back the instances it had claimed and not finished. One folder an
    /// input; not with stdin or --parallel trial.
    #[arg(long, value_name = "DIR", conflicts_with = "shard", requires = "output", help_heading = INPUT)]
    pub claim: Option<PathBuf>,
    /// Record file (default: stdout). Refused if it already holds records, unless --resume.
    #[arg(long, short, value_name = "OUT", help_heading = OUTPUT)]
    pub output: Option<PathBuf>,
    /// jsonl (one JSON object a line) or csv (with a header) [default: csv if OUT ends in .csv, else jsonl].
    #[arg(long, value_enum, value_name = "FORMAT", help_heading = OUTPUT)]
    pub format: Option<RecordFormat>,
    /// Continue OUT: drop a torn last line, skip the ids that have a record, append the rest; an instance
    /// that was in flight starts from its checkpoint in OUT.checkpoints (the IDA* iterations it had
    /// finished, saved once a search passes 10 s). A missing OUT is started afresh, so a job script can
    /// always pass --resume.
    #[arg(long, help_heading = OUTPUT)]
    pub resume: bool,
    /// With --resume: search again the instances whose last record is a limit stop, from their checkpoints,
    /// under this run's limits (which count what the checkpoint had spent: give larger ones; a stop these
    /// limits do not go past is left as it is). The new record is appended; an id's last record is the one
    /// that counts, in `report` too.
    #[arg(long, requires = "resume", help_heading = OUTPUT)]
    pub retry_limits: bool,
    /// Save a sliding-tile IDA* search's finished iterations to OUT.checkpoints once it has run this long
    /// (default 10), so that --resume after a kill, crash or Ctrl-C starts the instance there rather than
    /// from nothing (0: after every iteration). Other searches (the library's algorithms, water sort) keep
    /// no checkpoints, and say so when this is given.
    #[arg(long, value_name = "SECS", value_parser = checkpoint::parse_after, help_heading = OUTPUT)]
    pub checkpoint_after: Option<f64>,
    /// No progress or summary on stderr; errors only.
    #[arg(long, short, help_heading = OUTPUT)]
    pub quiet: bool,
    /// When to give up on an instance.
    #[command(flatten)]
    pub limits: LimitArgs,
    /// How --threads are used: instances (one thread an instance), search (every thread on one instance at
    /// a time), trial (instances side by side up to 2^20 expanded nodes, the harder ones again afterwards
    /// with every thread), auto (instances if there are at least twice as many as threads, else search).
    #[arg(long, value_enum, value_name = "HOW", default_value = "auto", help_heading = TUNING)]
    pub parallel: Parallel,
}

/// How a batch uses its threads (measured in BENCHMARKS.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Parallel {
    /// `instances` when there are at least twice as many instances to do as threads, else `search`.
    Auto,
    /// One single-threaded search a thread: no synchronisation at all, the best throughput; idle threads only
    /// at the end, when fewer instances than threads are left.
    Instances,
    /// One instance at a time with every thread.
    Search,
    /// Instances side by side under a node budget; those that exceed it (the hard ones) again afterwards,
    /// one at a time with every thread.
    Trial,
}

impl Parallel {
    /// What `Auto` means for `todo` instances (`None`: a stream of unknown length) on `threads` threads.
    pub fn resolve(self, todo: Option<usize>, threads: usize) -> Parallel {
        match self {
            Parallel::Auto if todo.is_none_or(|n| n >= 2 * threads) => Parallel::Instances,
            Parallel::Auto => Parallel::Search,
            p => p,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn auto_runs_instances_side_by_side_unless_they_are_few() {
        assert_eq!(Parallel::Auto.resolve(Some(4), 2), Parallel::Instances);
        assert_eq!(Parallel::Auto.resolve(Some(3), 2), Parallel::Search);
        assert_eq!(Parallel::Auto.resolve(None, 2), Parallel::Instances);
        assert_eq!(Parallel::Trial.resolve(Some(1), 2), Parallel::Trial);
    }
}
