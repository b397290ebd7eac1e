//! What can go wrong loading tables or solving, and whose fault it is.

use puzzle::{Board, PartitionError};
use std::path::PathBuf;

/// An engine error. [`Error::is_usage`] tells the user's mistakes (options, input) from the rest (a corrupt
/// table, an I/O failure, a bug), which is what exit codes are made of.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("missing table {}; build the {partition} tables with: pdb-builder build --board {board} --partition {partition} --out {}", path.display(), dir.display())]
    MissingTable { path: PathBuf, board: Board, partition: String, dir: PathBuf },
    #[error(transparent)]
    Partition(#[from] PartitionError),
    /// A table that is there but unreadable, corrupt or for something else.
    #[error("cannot load the pattern databases: {0}")]
    Table(#[from] puzzle::pdb_file::PdbError),
    /// The background payload check failed.
    #[error("{0}")]
    CorruptTable(String),
    #[error("the position is for a {position} board but the solver is for {solver}")]
    WrongBoard { position: Board, solver: Board },
    #[error("the position is not solvable (wrong permutation parity)")]
    Unsolvable,
    /// A setting out of its range, e.g. `the number of lanes must be from 1 to 16, not 0`.
    #[error("{0}")]
    Setting(String),
    #[error("cannot start the search threads: {0}")]
    Threads(#[source] rayon::ThreadPoolBuildError),
    #[error("internal error: the solution found does not replay ({0}); please report this")]
    BadSolution(#[source] puzzle::state::ReplayError),
}

impl Error {
    /// Whether the user's options or input caused it (exit code 2), rather than the environment or a bug.
    pub fn is_usage(&self) -> bool {
        matches!(
            self,
            Error::MissingTable { .. }
                | Error::Partition(_)
                | Error::WrongBoard { .. }
                | Error::Unsolvable
                | Error::Setting(_)
        )
    }
}
