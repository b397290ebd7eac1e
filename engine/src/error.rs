//! What can go wrong loading tables or solving, and whose fault it is.

use puzzle::{Board, PartitionError};
use std::path::PathBuf;

/// An engine error. Its `is_usage` (of [`search::Fault`]) tells the user's mistakes (options, input) from the rest (a corrupt
/// table, an I/O failure, a bug), which is what exit codes are made of.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A table the partition needs is not in the folder; the message says how to build it.
    #[error("missing table {}; build the {partition} tables with: pdb-builder build --board {board} --partition {partition} --out {}", path.display(), dir.display())]
    MissingTable {
        /// Where the table was looked for.
        path: PathBuf,
        /// The board it is for.
        board: Board,
        /// The partition it belongs to, as written on the command line.
        partition: String,
        /// The tables' folder, for the build command.
        dir: PathBuf,
    },
    /// The partition named is not one of the board's.
    #[error(transparent)]
    Partition(#[from] PartitionError),
    /// A table that is there but unreadable, corrupt or for something else.
    #[error("cannot load the pattern databases: {0}")]
    Table(#[from] puzzle::pdb_file::PdbError),
    /// The background payload check failed.
    #[error("{0}")]
    CorruptTable(String),
    /// A position of another board than the solver's tables and moves.
    #[error("the position is for a {position} board but the solver is for {solver}")]
    WrongBoard {
        /// The position's board.
        position: Board,
        /// The solver's board.
        solver: Board,
    },
    /// The position is of the half of the permutations no move sequence reaches the goal from.
    #[error("the position is not solvable (wrong permutation parity)")]
    Unsolvable,
    /// A work item whose moves are not those of an iteration's item from its position.
    #[error("not a work item of this position: {0}")]
    BadItem(String),
    /// A setting out of its range, e.g. `the number of lanes must be from 1 to 16, not 0`.
    #[error("{0}")]
    Setting(String),
    /// The thread pool could not be built (the system refused the threads).
    #[error("cannot start the search threads: {0}")]
    Threads(#[source] rayon::ThreadPoolBuildError),
    /// The engine's answer failed its own replay check: a bug, reported rather than printed as a solution.
    #[error("internal error: the solution found does not replay ({0}); please report this")]
    BadSolution(#[source] puzzle::state::ReplayError),
}

impl search::Fault for Error {
    /// The user's options or input, rather than the environment or a bug.
    fn is_usage(&self) -> bool {
        matches!(
            self,
            Error::MissingTable { .. }
                | Error::Partition(_)
                | Error::WrongBoard { .. }
                | Error::Unsolvable
                | Error::Setting(_)
                | Error::BadItem(_)
        )
    }
}
