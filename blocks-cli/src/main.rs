//! `blocks`: solve, explore, batch-solve and generate sliding-block levels (Klotski 华容道, Rush Hour) from
//! the command line. A thin shell over the `blocks` library and its adapter; errors and exit codes go
//! through `cli_common` like every tool's (0 every level solved, 1 unsolvable or an internal failure, 2 bad
//! input or usage, 3 stopped by a limit).

mod explore;
mod input;
mod solve;

use adapters::blocks::Levels;
use batch::Task;
use blocks::{Heuristic, Metric, Named, Options};
use clap::{Args, Parser, Subcommand};
use cli_common::{log, named, usage};
use search::Algorithm;
use std::io::Write;
use std::process::ExitCode;

const EXAMPLES: &str = "\
Examples:
  blocks levels
  blocks solve heng-dao-li-ma
  blocks solve 'ABBC/ABBC/DEEF/DGHF/I..J B@3,1' --metric unit --show
  # Rush Hour: lowercase cars move only along their long side
  blocks solve rush-hour-wall --metric line --format json
  blocks explore heng-dao-li-ma --format markdown
  blocks generate heng-dao-li-ma --walk 200 --count 10 --seed 1 > walks.txt
  # one record a level, resumable (--resume), shardable
  blocks batch walks.txt -o walks.jsonl
  blocks report walks.jsonl

Level text: ROWS GOAL [distinct | distinct=LETTERS]. ROWS are the board's
rows joined by `/`: a letter is a cell of that piece (a rectangle), lowercase
for a piece locked to its long axis, `.` empty, `#` a wall. GOAL is P@ROW,COL
(piece P's top-left cell there, from 0) or =ROWS (a whole arrangement). Pieces
of one shape and lock are interchangeable unless marked distinct; the goal
piece is always its own. A level may also be a built-in name (`blocks
levels`), a JSON object {\"rows\": [...], \"goal\": \"B@3,1\"}, a file of level
lines (`name: LEVEL`), or `-` for stdin. Moves print as the piece and its cell
steps (`GDR`: G one down, then one right); records (--format json, batch) list
them in `moves` as {\"piece\": \"G\", \"to\": [4, 2]}, the piece's top-left
cell after the move.";

#[derive(Parser)]
#[command(name = "blocks", version, about = "Solves sliding-block puzzles (Klotski, Rush Hour) in the fewest moves", after_help = format!("{EXAMPLES}\n\n{}\n\n{}", cli_common::NODES_HELP, cli_common::EXIT_STATUS_HELP))]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Solve levels: a level given inline, a built-in name, a file of level lines or a JSON level, or `-`
    /// for stdin.
    Solve(solve::SolveArgs),
    /// Solve a file of level lines, writing one record (JSON lines or CSV) a level as it finishes;
    /// resumable, interruptible, shardable (the same machinery as `solver batch`).
    Batch(LevelsBatchArgs),
    /// Merge record files of `batch` (e.g. its shards) and print their summary, or compare runs (two or
    /// more, each against the first).
    Report(batch::report::ReportArgs),
    /// Every position reachable from a level's start: how many at each distance, how many solved, the
    /// farthest.
    Explore(explore::ExploreArgs),
    /// Write random solvable positions of a level as level lines: random walks from a solved position,
    /// reproducible from the seed.
    Generate(GenerateArgs),
    /// List the built-in levels.
    Levels,
}

/// How levels are searched: shared by `solve` and `batch`.
#[derive(Args)]
pub(crate) struct SearchArgs {
    /// What one move is.
    #[arg(long, value_parser = named(Metric::ALL), default_value = "piece")]
    pub(crate) metric: Metric,
    #[arg(long, value_parser = named(Levels::ALGORITHMS), default_value = "astar")]
    pub(crate) algorithm: Algorithm,
    /// Estimate of the moves left (admissible: the fewest moves with astar and ida).
    #[arg(long, value_parser = named(Levels::HEURISTICS), default_value = "blocking")]
    pub(crate) heuristic: Heuristic,
}

impl SearchArgs {
    pub(crate) fn options(&self, limits: search::Limits) -> Options {
        Options { algorithm: self.algorithm, metric: self.metric, heuristic: self.heuristic, limits }
    }
}

#[derive(Args)]
struct LevelsBatchArgs {
    #[command(flatten)]
    batch: batch::BatchArgs,
    #[command(flatten)]
    search: SearchArgs,
    /// Levels searched side by side, one a thread, 1 to 256 [default: all cores].
    #[arg(long, short = 'j', value_name = "N", value_parser = cli_common::parse_threads)]
    threads: Option<usize>,
}

#[derive(Args)]
struct GenerateArgs {
    /// The level whose pieces and goal are used (a built-in name, the text form, JSON, a file or `-`).
    #[arg(default_value = "heng-dao-li-ma")]
    level: String,
    /// Moves in each walk (of --metric).
    #[arg(long, default_value_t = 100)]
    walk: u32,
    /// The metric the walks move in.
    #[arg(long, value_parser = named(Metric::ALL), default_value = "piece")]
    metric: Metric,
    /// Positions to write.
    #[arg(long, default_value_t = 1)]
    count: u64,
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    cli_common::main("blocks", || run(cli))
}

fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Solve(args) => solve::run(&args),
        Command::Batch(args) => {
            let threads = args.threads.unwrap_or_else(search::cores);
            batch::run(&args.batch, &Levels { options: args.search.options(search::Limits::default()), threads })
        }
        Command::Report(args) => batch::report::run(batch::report::Tool { name: "blocks", steps: "moves" }, &args),
        Command::Explore(args) => explore::run(&args),
        Command::Generate(args) => generate(&args),
        Command::Levels => {
            let mut out = std::io::stdout().lock();
            for b in blocks::levels::ALL {
                writeln!(out, "{:<18} {} ({})\n{:<18} {}", b.name, b.chinese, b.english, "", b.text)?;
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// `generate`: walk `count` times from the level's solved position, seeds `seed`, `seed + 1`, ...
fn generate(args: &GenerateArgs) -> anyhow::Result<ExitCode> {
    let level = input::one_level(&args.level)?;
    let mut out = std::io::stdout().lock();
    for k in 0..args.count {
        let seed = args.seed.wrapping_add(k);
        let position = blocks::generate(&level, args.metric, args.walk, seed).map_err(usage)?;
        let name = if level.name().is_empty() { "level" } else { level.name() };
        writeln!(out, "{name}-{seed}: {}", position.to_text())?;
    }
    let (positions, metric) = (cli_common::text::count(args.count, "position"), args.metric.name());
    log(&format!(
        "blocks generate: {positions}, {} a walk",
        cli_common::text::count(args.walk as u64, &format!("{metric} move"))
    ));
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    /// Every command's help reads right in an 80-column terminal.
    #[test]
    fn help_keeps_the_layout_at_80_columns() {
        assert_eq!(cli_common::help::faults(&<super::Cli as clap::CommandFactory>::command()), Vec::<String>::new());
    }
}
