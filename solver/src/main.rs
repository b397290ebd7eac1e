//! `solver`: optimal sliding-tile puzzle solving from the command line. Exit codes: see `cli_common`.

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "solver",
    version,
    about = "Solves sliding-tile puzzles (the 15-puzzle above all) optimally with IDA* over pattern databases",
    after_long_help = format!(
        "Tables: built by `pdb-builder build`, looked for in --pdbs or $STP_PDBS\n(default ./pdbs).\n\n{}\n\n{}",
        cli_common::NODES_HELP,
        cli_common::EXIT_STATUS_HELP
    )
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Solve one position, or several read from stdin (`-`), printing one result each.
    Solve(solver::solve::SolveArgs),
    /// Solve a file of instances, writing one record (JSON lines or CSV) an instance as it finishes;
    /// resumable, interruptible, shardable.
    Batch(solver::batch::TilesBatchArgs),
    /// Merge record files of `batch` (e.g. its shards) and print their summary.
    #[command(after_long_help = "Examples:
  # the shards of one run, merged
  solver report shard-*.jsonl --format markdown
  # and SVG charts in plots/
  solver report --plot plots/ results.jsonl
  # two runs of the same instances, side by side
  solver report --compare old.jsonl new.jsonl
  # three or more: each against the first (BFS, A*, IDA* of one file)
  solver report --compare bfs.jsonl astar.jsonl ida.jsonl")]
    Report(batch::report::ReportArgs),
    /// Cut one IDA* iteration of a position into work items for many machines (see `work`, `merge`).
    Split(solver::split::SplitArgs),
    /// Search work items of a split iteration: a batch over the items file, one record an item, resumable
    /// and shardable (one shard a machine or array task).
    Work(solver::split::WorkArgs),
    /// Merge the workers' records of a split iteration: the solution, or the next bound to split at.
    Merge(solver::split::MergeArgs),
    /// Replay a solution of a position: whether it solves it, its lengths in both metrics, and how far it is
    /// from the optimum.
    Check(solver::check::CheckArgs),
    /// Write reproducible random solvable instances, one a line.
    Generate(solver::generate::GenerateArgs),
    /// Enumerate every position of a small board: how many at each distance from the goal, and the farthest.
    Explore(solver::explore::ExploreArgs),
    /// A local web app: pick, shuffle or type a position, solve it and watch the solution (and a JSON API).
    #[cfg(feature = "web")]
    Serve(web::ServeArgs),
    /// A local web app (not in this build: the main job, `make run`, builds the solver without it).
    #[cfg(not(feature = "web"))]
    Serve {
        #[arg(trailing_var_arg = true, allow_hyphen_values = true, hide = true)]
        args: Vec<String>,
    },
}

fn main() -> ExitCode {
    let argv: Vec<String> = std::env::args().collect();
    if solver::fast::wanted(&argv) {
        // Boards past the optimal search's 25 cells, with options of their own (solver::fast).
        let words = std::iter::once("solver solve".to_string()).chain(argv.into_iter().skip(2));
        let args = <solver::fast::FastArgs as clap::Parser>::parse_from(words);
        return cli_common::main("solver", || solver::fast::run(&args));
    }
    let cli = Cli::try_parse().unwrap_or_else(|e| {
        // `solver solve 1 2 3 ...` unquoted: clap sees the second tile as a stray argument.
        let stray = e.get(clap::error::ContextKind::InvalidArg).map(|a| a.to_string()).unwrap_or_default();
        if e.kind() == clap::error::ErrorKind::UnknownArgument && stray.parse::<u32>().is_ok() {
            let _ = e.print();
            eprintln!(
                "hint: quote the position so that it is one argument: solver solve \"1 2 3 ...\" (or pass - and \
                 write it on stdin)"
            );
            std::process::exit(cli_common::EXIT_USAGE.into());
        }
        e.exit()
    });
    cli_common::main("solver", || match cli.command {
        Command::Solve(args) => solver::solve::run(&args),
        Command::Batch(args) => solver::batch::run(&args),
        Command::Report(args) => batch::report::run(batch::report::Tool { name: "solver", steps: "moves" }, &args),
        Command::Split(args) => solver::split::split(&args),
        Command::Work(args) => solver::split::work(&args),
        Command::Merge(args) => solver::split::merge(&args),
        Command::Check(args) => solver::check::run(&args),
        Command::Generate(args) => solver::generate::run(&args).map(|()| ExitCode::SUCCESS),
        Command::Explore(args) => solver::explore::run(&args),
        #[cfg(feature = "web")]
        Command::Serve(args) => web::run(&args),
        #[cfg(not(feature = "web"))]
        Command::Serve { .. } => Err(cli_common::usage(anyhow::anyhow!(
            "this solver was built without the web app (as `make run` builds it): build it with `cargo build \
             --release -p solver`"
        ))),
    })
}

#[cfg(test)]
mod tests {
    /// Every command's help reads right in an 80-column terminal: no line clap would break without an
    /// indent, and examples as commands with `#` comments above them (`serve`'s included, from the web
    /// crate).
    #[test]
    fn help_keeps_the_layout_at_80_columns() {
        let cli = <super::Cli as clap::CommandFactory>::command();
        assert_eq!(cli_common::help::faults(&cli), Vec::<String>::new());
    }
}
