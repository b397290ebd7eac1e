//! `solver`: optimal sliding-tile puzzle solving from the command line.

use anyhow::Context;
use clap::{Args, Parser, Subcommand};
use solver::args::{usage, SearchArgs, Usage};
use solver::ida::Limits;
use solver::output::{user_moves, MoveStyle, SolveRecord};
use solver::Solver;
use std::io::{BufRead, Write};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "solver",
    version,
    about = "Solves sliding-tile puzzles (the 15-puzzle above all) optimally with IDA* over pattern databases"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Solve one position, or several read from stdin (`-`), printing one result each.
    Solve(SolveArgs),
    /// Solve a file of instances, writing one record (JSON lines or CSV) an instance as it finishes;
    /// resumable, interruptible, shardable.
    Batch(solver::batch::BatchArgs),
    /// Merge record files of `batch` (e.g. its shards) and print their summary.
    Report(solver::report::ReportArgs),
    /// Write reproducible random solvable instances, one a line.
    Generate(solver::generate::GenerateArgs),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Format {
    Text,
    Json,
}

#[derive(Args)]
struct SolveArgs {
    /// The position: N*N tiles, row-major, 0 the blank, separated by spaces or commas (quote it), or `-`
    /// to read one position a line from stdin (bare tiles or `id optimal_length tiles...`; `#` comments).
    instance: String,
    #[command(flatten)]
    search: SearchArgs,
    /// Output: text, or one JSON object a position (`length`, `moves`, `nodes` = generated nodes,
    /// `expanded`, `seconds` = search time without start-up and table loading, `heuristic`, ...).
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// How moves are printed: tiles (the tiles slid) or dirs (the blank's directions, U D L R).
    #[arg(long, value_enum, default_value = "tiles")]
    moves: MoveStyle,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("solver: error: {e:#}");
            if e.downcast_ref::<Usage>().is_some() {
                ExitCode::from(2)
            } else {
                ExitCode::from(1)
            }
        }
    }
}

fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Solve(args) => solve(args),
        Command::Batch(args) => solver::batch::run(&args),
        Command::Report(args) => solver::report::run(&args),
        Command::Generate(args) => solver::generate::run(&args).map(|()| ExitCode::SUCCESS),
    }
}

fn solve(args: SolveArgs) -> anyhow::Result<ExitCode> {
    let s = &args.search;
    let threads = s.threads();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    if args.instance != "-" {
        let state = puzzle::parse_tiles(s.board, s.goal, &args.instance)
            .map_err(|e| usage(anyhow::anyhow!("bad position: {e}")))?;
        print_one(&mut out, &args, &s.solver()?, None, &state, threads)?;
        return Ok(ExitCode::SUCCESS);
    }
    let solver = s.solver()?;
    let mut bad = 0;
    for (n, line) in std::io::stdin().lock().lines().enumerate() {
        let line = line.context("reading stdin")?;
        match puzzle::parse_line(s.board, s.goal, &line) {
            Ok(None) => {}
            Ok(Some(inst)) => print_one(&mut out, &args, &solver, inst.id, &inst.state, threads)?,
            Err(e) => {
                bad += 1;
                eprintln!("solver: error: stdin line {}: {e}", n + 1);
            }
        }
    }
    Ok(if bad > 0 { ExitCode::from(2) } else { ExitCode::SUCCESS })
}

fn print_one(
    out: &mut impl Write,
    args: &SolveArgs,
    solver: &Solver,
    id: Option<String>,
    state: &puzzle::State,
    threads: usize,
) -> anyhow::Result<()> {
    let report = solver.solve(state, threads, &Limits::default())?;
    let goal = args.search.goal;
    match args.format {
        Format::Json => {
            let rec = SolveRecord::new(id, state, &report, goal, args.moves, solver, threads);
            writeln!(out, "{}", serde_json::to_string(&rec)?)?;
        }
        Format::Text => {
            let moves = report.moves.as_deref().expect("no limits were set");
            if let Some(id) = id {
                write!(out, "{id}: ")?;
            }
            writeln!(
                out,
                "length {}  nodes {} generated, {} expanded  search {:.6} s  threads {threads}  lanes {}  heuristic {}",
                moves.len(),
                report.counts.generated,
                report.counts.expanded,
                report.seconds,
                solver.lanes(),
                solver.name()
            )?;
            writeln!(out, "moves: {}", user_moves(state, moves, goal, args.moves))?;
        }
    }
    out.flush()?;
    Ok(())
}
