//! The batch machinery every solver command shares: instance lines read one at a time (with ids, shards
//! and resumption), record files written whole and synced, searches run side by side or one at a time with
//! every thread, progress, signals, and summaries of record files. A puzzle plugs in through [`Task`]:
//! how it reads a line and solves an instance into a [`Record`].

#![warn(missing_docs)]

mod args;
pub mod checkpoint;
mod claim;
pub mod compare;
pub mod jobs;
pub mod limits;
pub mod lines;
pub mod plot;
mod pool;
mod progress;
pub mod record;
pub mod report;
pub mod rows;
mod run;
pub mod settings;
mod sink;
mod task;

pub use args::{BatchArgs, Parallel};
pub use jobs::{Job, Line, Shard, Source};
pub use limits::LimitArgs;
pub use record::{stop_text, Record, RecordFormat, Status, Verdict};
pub use run::{check_input, run};
/// A task's searches start from and report checkpoints through it (see `checkpoint`).
pub use search::Resume;
pub use task::{Attempt, Task};
