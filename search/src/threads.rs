//! How many threads a search or a table build may use: one cap and one default for every command and
//! library of the project, so that `--threads` means the same everywhere.

/// The most threads one search or build may use: far above any machine this runs on (more than the cores
/// only adds switching, and the searches are bound by memory latency), low enough that a mistyped
/// `--threads 100000` does not spend minutes starting threads, and fixed, so that a command valid on one
/// machine is valid on all.
pub const MAX_THREADS: usize = 256;

/// The cores this process may use: the default number of threads.
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}
