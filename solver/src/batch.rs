//! `solver batch`: the shared batch runner (`batch` crate) with sliding tiles as its puzzle.

use crate::args::{SearchArgs, Textbook};
use adapters::tiles::{MoveStyle, Recorder, Tiles};
use std::process::ExitCode;

#[derive(clap::Args)]
#[command(after_long_help = "Examples:
  solver batch tests/data/korf100.txt -o results/korf100.jsonl
  # after a kill, crash or Ctrl-C: only what is missing
  solver batch FILE -o out.jsonl --resume
  solver batch FILE -o out.csv --time-limit 60 --node-limit 100000000
  # on 4 machines; merge with: solver report shard-*.jsonl
  solver batch FILE -o shard-$I.jsonl --shard $I/4")]
pub struct TilesBatchArgs {
    #[command(flatten)]
    pub batch: batch::BatchArgs,
    #[command(flatten)]
    pub search: SearchArgs,
    #[command(flatten)]
    pub textbook: Textbook,
}

/// `solver batch`: see `batch::run` for the exit codes.
pub fn run(args: &TilesBatchArgs) -> anyhow::Result<ExitCode> {
    let search = &args.textbook.apply(&args.search);
    let solver = search.solver()?;
    let recorder = Recorder::new(&solver, search.goal, MoveStyle::Tiles);
    let tiles = Tiles { board: search.board(), algorithm: search.algorithm, recorder };
    batch::run(&args.batch, &tiles)
}
