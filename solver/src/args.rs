//! Command-line options shared by every subcommand that searches, and the usage-error marker (exit code 2).

use crate::{HeuristicChoice, Solver, TableSpec};
use clap::Args;
use puzzle::{Board, Goal};
use std::path::PathBuf;

/// Options shared by every command that searches: board, goal, heuristic and tables.
#[derive(Args, Clone)]
pub struct SearchArgs {
    /// Board size, rows x columns (e.g. 4x4, 3x3, 2x3).
    #[arg(long, default_value = "4x4")]
    pub board: Board,
    /// The goal the input is written for: blank-first (`0 1 2 ... 15`, Korf's) or blank-last
    /// (`1 2 ... 15 0`). Blank-last input is converted exactly (a half turn and relabelling), and moves are
    /// printed back in its labels.
    #[arg(long, default_value = "blank-first")]
    pub goal: Goal,
    /// Heuristic: auto (pattern databases if present, else linear conflict with a warning), pdb,
    /// linear-conflict, manhattan.
    #[arg(long, value_enum, default_value = "auto")]
    pub heuristic: HeuristicChoice,
    /// Folder holding the pattern database files (see `pdb-builder build`).
    #[arg(long, default_value = "pdbs")]
    pub pdbs: PathBuf,
    /// Which tables to use: 7-8, 6-6-3, 5-5-5 (4x4), 4-4 (3x3), 2-3 (2x3), or a custom partition such as
    /// 1,2,3,4,5,6,7/8,9,10,11,12,13,14,15. Default: the board's first catalogue entry.
    #[arg(long)]
    pub partition: Option<String>,
    /// Table lookups at every node: regular (the position only) or reflected (also its reflection about
    /// the main diagonal, on square boards; the default).
    #[arg(long, value_enum, default_value = "reflected")]
    pub lookups: crate::Lookups,
    /// Duplicate-path pruning: the length of the move strings the pruning automaton learns, 2 (never undo
    /// the last move) to 14 (the default; 56,602 states on 4x4, built in about 0.15 s).
    #[arg(long, default_value_t = crate::FSM_DEPTH)]
    pub fsm_depth: usize,
    /// Depth-first searches each thread interleaves, so that one's table reads are in flight while the
    /// others compute: 1 is a plain depth-first search. Default: 3 with tables (about 1.35x faster with the
    /// 7-8 tables), 1 without (nothing to wait for). It changes the order of the last iteration, so its node
    /// count and which optimal solution is found; never the length.
    #[arg(long)]
    pub lanes: Option<usize>,
    /// Worker threads for one search (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
}

impl SearchArgs {
    pub fn threads(&self) -> usize {
        self.threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
    }

    pub fn solver(&self) -> anyhow::Result<Solver> {
        let partition = self
            .partition
            .clone()
            .or_else(|| crate::default_partition(self.board).map(String::from))
            .unwrap_or_default();
        let spec = TableSpec { dir: self.pdbs.clone(), partition, lookups: self.lookups };
        let mut solver = Solver::new(self.board, self.heuristic, &spec, &mut |w| eprintln!("{w}")).map_err(usage)?;
        solver.set_fsm_depth(self.fsm_depth).map_err(usage)?;
        if let Some(lanes) = self.lanes {
            solver.set_lanes(lanes).map_err(usage)?;
        }
        Ok(solver)
    }
}

/// An error caused by the user's input or usage: exit code 2.
#[derive(Debug)]
pub struct Usage(pub anyhow::Error);

impl std::fmt::Display for Usage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:#}", self.0)
    }
}

impl std::error::Error for Usage {}

pub fn usage(e: impl Into<anyhow::Error>) -> anyhow::Error {
    anyhow::Error::new(Usage(e.into()))
}
