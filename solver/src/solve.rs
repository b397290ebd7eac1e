//! `solver solve`: one position from the command line, or one a line from stdin, each result printed as
//! soon as it is found.

use crate::algorithm;
use crate::args::SearchArgs;
use crate::output::{user_tiles, MoveStyle, Recorder};
use anyhow::Context;
use batch::{LimitArgs, Source, Status};
use cli_common::heading::{INPUT, OUTPUT};
use cli_common::{log, usage};
use engine::Solver;
use puzzle::Instance;
use std::io::{BufRead, Write};
use std::process::ExitCode;

#[derive(clap::Args)]
#[command(after_long_help = "Examples:
  solver solve \"14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3\"
  solver solve --format json --moves dirs \"...\"
  solver solve - < tests/data/korf100.txt          # one result a line
  solver solve --board 3x3 --heuristic linear-conflict \"8 6 7 2 5 4 3 0 1\"
  solver solve --goal blank-last \"...\"             # input written for the goal 1 2 ... 15 0")]
pub struct SolveArgs {
    /// The position: the tiles row by row, 0 the blank, separated by spaces or commas (quote it), optionally
    /// after an id and the known optimal length (`id length tiles...`, as in instance files); or `-` to read
    /// one position a line from stdin (`#` comments).
    #[arg(value_name = "POSITION", help_heading = INPUT)]
    pub instance: String,
    #[command(flatten)]
    pub search: SearchArgs,
    #[command(flatten)]
    pub limits: LimitArgs,
    /// text, or one JSON record a position (the fields of `batch` records: `length`, `moves`, `nodes` =
    /// generated nodes, `expanded`, `seconds` = search time without start-up, `heuristic`, ...).
    #[arg(long, value_enum, value_name = "FORMAT", default_value = "text", help_heading = OUTPUT)]
    pub format: SolveFormat,
    /// How moves are printed: tiles (the tiles slid) or dirs (the blank's directions, U D L R).
    #[arg(long, value_enum, value_name = "STYLE", default_value = "tiles", help_heading = OUTPUT)]
    pub moves: MoveStyle,
}

/// How `solve` prints a result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum SolveFormat {
    Text,
    Json,
}

/// How one position ended, for the exit code.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Verdict {
    Solved,
    /// Stopped by a limit (exit code 3).
    Limit,
    /// Solved, but not in the length its line gave (exit code 1).
    Mismatch,
}

/// `solver solve`: exit code 0; 2 if a line of stdin was not a valid position (the others are solved); 1 if
/// a solved length differs from the one a line gave; 3 if a limit stopped a search (the worst of these).
pub fn run(args: &SolveArgs) -> anyhow::Result<ExitCode> {
    let s = &args.search;
    if args.instance != "-" {
        // The argument is read like a line of a file: bare tiles, or `id optimal_length tiles...`.
        let inst = puzzle::parse_line(s.board, s.goal, &args.instance)
            .map_err(|e| usage(anyhow::anyhow!("bad position: {e}")))?
            .ok_or_else(|| usage(anyhow::anyhow!("bad position: no tiles given")))?;
        let solver = s.solver()?;
        let recorder = Recorder::new(&solver, s.goal, args.moves);
        let verdict = print_one(&mut std::io::stdout().lock(), args, &recorder, &inst, 1)?;
        return Ok(exit_code(verdict, false));
    }
    let solver = s.solver()?;
    let recorder = Recorder::new(&solver, s.goal, args.moves);
    let (mut bad, mut worst) = (false, Verdict::Solved);
    let mut stdin = std::io::stdin().lock();
    let mut out = std::io::stdout().lock();
    let mut raw = Vec::new();
    for n in 1.. {
        raw.clear();
        if stdin.read_until(b'\n', &mut raw).context("cannot read stdin")? == 0 {
            break;
        }
        let parsed = std::str::from_utf8(&raw)
            .map_err(|e| format!("not UTF-8 text (byte {} of the line)", e.valid_up_to() + 1))
            .and_then(|line| puzzle::parse_line(s.board, s.goal, line).map_err(|e| e.to_string()));
        match parsed {
            Ok(None) => {}
            Ok(Some(inst)) => worst = worst.max(print_one(&mut out, args, &recorder, &inst, n)?),
            Err(e) => {
                bad = true;
                log(&format!("solver: error: stdin line {n}: {e}"));
            }
        }
    }
    Ok(exit_code(worst, bad))
}

/// A bad line is the user's mistake and outranks the rest; then a mismatch (a bug or a wrong reference),
/// then a limit.
fn exit_code(worst: Verdict, bad_line: bool) -> ExitCode {
    match (bad_line, worst) {
        (true, _) => ExitCode::from(cli_common::EXIT_USAGE),
        (false, Verdict::Mismatch) => ExitCode::from(cli_common::EXIT_FAILURE),
        (false, Verdict::Limit) => ExitCode::from(cli_common::EXIT_LIMIT),
        (false, Verdict::Solved) => ExitCode::SUCCESS,
    }
}

/// Solves and prints one instance. A length that differs from the one its line gave is also said on stderr.
fn print_one(
    out: &mut impl Write,
    args: &SolveArgs,
    recorder: &Recorder,
    inst: &Instance,
    line: u64,
) -> anyhow::Result<Verdict> {
    let solver: &Solver = recorder.solver;
    let limits = args.limits.limits(None);
    let searched = algorithm::solve(solver, args.search.algorithm, &inst.state, solver.threads(), &limits)?;
    let id = inst.id.clone().unwrap_or_else(|| line.to_string());
    let tiles = user_tiles(&inst.state, args.search.goal);
    let src = Source { id: &id, line, text: &tiles, expected: inst.optimal };
    let rec = recorder.searched(&src, &inst.state, &searched, solver.threads());
    match args.format {
        SolveFormat::Json => writeln!(out, "{}", serde_json::to_string(&rec)?)?,
        SolveFormat::Text => {
            if let Some(id) = &inst.id {
                write!(out, "{id}: ")?;
            }
            let result = match rec.length {
                Some(length) => format!("length {length}"),
                None => format!("{}: {}", rec.status.as_str(), rec.error.as_deref().unwrap_or_default()),
            };
            let stored = rec.peak_stored.map(|p| format!("  stored {p}")).unwrap_or_default();
            writeln!(
                out,
                "{result}  nodes {} generated, {} expanded{stored}  search {:.6} s  threads {}  lanes {}  algorithm {}  heuristic {}",
                rec.nodes,
                rec.expanded,
                rec.seconds,
                rec.threads,
                rec.lanes,
                rec.algorithm,
                rec.heuristic
            )?;
            if rec.status == Status::Solved {
                writeln!(out, "moves: {}", rec.moves)?;
            }
        }
    }
    out.flush()?;
    if rec.matched == Some(false) {
        log(&format!(
            "solver: MISMATCH: {} (line {line}): the optimal length found is {} but the line says {}",
            id,
            rec.length.unwrap_or_default(),
            rec.expected.unwrap_or_default()
        ));
    }
    Ok(match (rec.status, rec.matched) {
        (_, Some(false)) => Verdict::Mismatch,
        (Status::Solved, _) => Verdict::Solved,
        _ => Verdict::Limit,
    })
}
