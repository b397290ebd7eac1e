//! `solver batch`: the shared batch runner (`batch` crate) with sliding tiles as its puzzle.

use crate::args::{MetricArg, SearchArgs, Textbook};
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
    #[command(flatten)]
    pub metric: MetricArg,
}

/// `solver batch`: see `batch::run` for the exit codes.
pub fn run(args: &TilesBatchArgs) -> anyhow::Result<ExitCode> {
    // A wrong file name is said first, not after the tables' warnings and loading.
    batch::check_input(&args.batch)?;
    let mut search = args.textbook.apply(&args.search);
    let goal_given = search.goal.is_some();
    if let Some((line, text)) = first_position(&args.batch.input).filter(|_| !goal_given) {
        let (goal, note) = search.goal_for(&text);
        if let Some(note) = note {
            cli_common::log(&format!("solver: note: {} line {line}: {note} (every line of it)", args.batch.input));
        }
        search.goal = Some(goal);
    }
    let (solver, mtm) = args.metric.solvers(&search)?;
    let recorder = Recorder::new(&solver, search.goal(), MoveStyle::Tiles).counting(mtm.as_ref());
    let tiles = Tiles { board: search.board(), algorithm: search.algorithm, recorder, goal_given };
    batch::run(&args.batch, &tiles)
}

/// The first line of an input file that holds words, and its number, for the goal its form may bring
/// (stdin is not read ahead: its lines are read for the given goal or the default).
fn first_position(input: &str) -> Option<(u64, String)> {
    use batch::lines::{read_line, skip_line, Fit, MAX_LINE};
    if input == "-" {
        return None;
    }
    let mut file = std::io::BufReader::new(std::fs::File::open(input).ok()?);
    let mut buf = Vec::new();
    for line in 1.. {
        let fit = read_line(&mut file, &mut buf, MAX_LINE).ok()??;
        if fit == Fit::TooLong {
            skip_line(&mut file).ok()?;
            continue;
        }
        let text = String::from_utf8_lossy(&buf);
        if !puzzle::instance::words(&text).is_empty() {
            return Some((line, text.trim().to_string()));
        }
    }
    None
}
