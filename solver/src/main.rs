//! `solver`: optimal sliding-tile puzzle solving from the command line.

use anyhow::Context;
use clap::{Args, Parser, Subcommand};
use puzzle::{Board, Goal};
use solver::ida::Limits;
use solver::output::{user_moves, MoveStyle, SolveRecord};
use solver::{HeuristicChoice, Solver, TableSpec};
use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "solver", version, about = "Solves sliding-tile puzzles (the 15-puzzle above all) optimally with IDA* over pattern databases")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Solve one position, or several read from stdin (`-`), printing one result each.
    Solve(SolveArgs),
}

/// Options shared by every command that searches: board, goal, heuristic and tables.
#[derive(Args, Clone)]
struct SearchArgs {
    /// Board size, rows x columns (e.g. 4x4, 3x3, 2x3).
    #[arg(long, default_value = "4x4")]
    board: Board,
    /// The goal the input is written for: blank-first (`0 1 2 ... 15`, Korf's) or blank-last
    /// (`1 2 ... 15 0`). Blank-last input is converted exactly (a half turn and relabelling), and moves are
    /// printed back in its labels.
    #[arg(long, default_value = "blank-first")]
    goal: Goal,
    /// Heuristic: auto (pattern databases if present, else linear conflict with a warning), pdb,
    /// linear-conflict, manhattan.
    #[arg(long, value_enum, default_value = "auto")]
    heuristic: HeuristicChoice,
    /// Folder holding the pattern database files (see `pdb-builder build`).
    #[arg(long, default_value = "pdbs")]
    pdbs: PathBuf,
    /// Which tables to use: 7-8, 6-6-3, 5-5-5 (4x4), 4-4 (3x3), 2-3 (2x3), or a custom partition such as
    /// 1,2,3,4,5,6,7/8,9,10,11,12,13,14,15. Default: the board's first catalogue entry.
    #[arg(long)]
    partition: Option<String>,
    /// Worker threads for one search (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
}

impl SearchArgs {
    fn threads(&self) -> usize {
        self.threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
    }

    fn solver(&self) -> anyhow::Result<Solver> {
        let partition = self.partition.clone().or_else(|| solver::default_partition(self.board).map(String::from)).unwrap_or_default();
        let spec = TableSpec { dir: self.pdbs.clone(), partition };
        let choice = if spec.partition.is_empty() && self.heuristic == HeuristicChoice::Auto { HeuristicChoice::LinearConflict } else { self.heuristic };
        Solver::new(self.board, choice, &spec, &mut |w| eprintln!("{w}")).map_err(|e| usage(e))
    }
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

/// An error caused by the user's input or usage: exit code 2.
#[derive(Debug)]
struct Usage(anyhow::Error);

impl std::fmt::Display for Usage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:#}", self.0)
    }
}

impl std::error::Error for Usage {}

fn usage(e: impl Into<anyhow::Error>) -> anyhow::Error {
    anyhow::Error::new(Usage(e.into()))
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
    }
}

fn solve(args: SolveArgs) -> anyhow::Result<ExitCode> {
    let s = &args.search;
    let solver = s.solver()?;
    let threads = s.threads();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    if args.instance != "-" {
        let state = puzzle::parse_tiles(s.board, s.goal, &args.instance).map_err(|e| usage(anyhow::anyhow!("bad position: {e}")))?;
        print_one(&mut out, &args, &solver, None, &state, threads)?;
        return Ok(ExitCode::SUCCESS);
    }
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

fn print_one(out: &mut impl Write, args: &SolveArgs, solver: &Solver, id: Option<String>, state: &puzzle::State, threads: usize) -> anyhow::Result<()> {
    let report = solver.solve(state, threads, &Limits::default())?;
    let goal = args.search.goal;
    match args.format {
        Format::Json => {
            let rec = SolveRecord::new(id, state, &report, goal, args.moves, solver.name(), threads);
            writeln!(out, "{}", serde_json::to_string(&rec)?)?;
        }
        Format::Text => {
            let moves = report.moves.as_deref().expect("no limits were set");
            if let Some(id) = id {
                write!(out, "{id}: ")?;
            }
            writeln!(
                out,
                "length {}  nodes {} generated, {} expanded  search {:.6} s  threads {threads}  heuristic {}",
                moves.len(),
                report.counts.generated,
                report.counts.expanded,
                report.seconds,
                solver.name()
            )?;
            writeln!(out, "moves: {}", user_moves(state, moves, goal, args.moves))?;
        }
    }
    out.flush()?;
    Ok(())
}
