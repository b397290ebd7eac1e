//! `solver solve`: one position from the command line, or one a line from stdin, each result printed as
//! soon as it is found.

use crate::args::{engine_error, SearchArgs, INPUT, OUTPUT};
use crate::output::{user_tiles, MoveStyle, Recorder, Source};
use anyhow::Context;
use cli_common::{log, usage};
use engine::{Limits, Solver};
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

/// `solver solve`: exit code 0, or 2 if a line of stdin was not a valid position (the others are solved),
/// or 1 if a solved length differs from the one a line gave.
pub fn run(args: &SolveArgs) -> anyhow::Result<ExitCode> {
    let s = &args.search;
    if args.instance != "-" {
        // The argument is read like a line of a file: bare tiles, or `id optimal_length tiles...`.
        let inst = puzzle::parse_line(s.board, s.goal, &args.instance)
            .map_err(|e| usage(anyhow::anyhow!("bad position: {e}")))?
            .ok_or_else(|| usage(anyhow::anyhow!("bad position: no tiles given")))?;
        let solver = s.solver()?;
        let matched =
            print_one(&mut std::io::stdout().lock(), args, &Recorder::new(&solver, s.goal, args.moves), &inst, 1)?;
        return Ok(if matched { ExitCode::SUCCESS } else { ExitCode::from(cli_common::EXIT_FAILURE) });
    }
    let solver = s.solver()?;
    let recorder = Recorder::new(&solver, s.goal, args.moves);
    let (mut bad, mut mismatched) = (0, 0);
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
            Ok(Some(inst)) => {
                if !print_one(&mut out, args, &recorder, &inst, n)? {
                    mismatched += 1;
                }
            }
            Err(e) => {
                bad += 1;
                log(&format!("solver: error: stdin line {n}: {e}"));
            }
        }
    }
    Ok(match (bad, mismatched) {
        (0, 0) => ExitCode::SUCCESS,
        (0, _) => ExitCode::from(cli_common::EXIT_FAILURE),
        _ => ExitCode::from(cli_common::EXIT_USAGE),
    })
}

/// Solves and prints one instance; false when its length differs from the one its line gave (which is
/// also said on stderr).
fn print_one(
    out: &mut impl Write,
    args: &SolveArgs,
    recorder: &Recorder,
    inst: &Instance,
    line: u64,
) -> anyhow::Result<bool> {
    let solver: &Solver = recorder.solver;
    let report = solver.solve(&inst.state, &Limits::default()).map_err(engine_error)?;
    let id = inst.id.clone().unwrap_or_else(|| line.to_string());
    let tiles = user_tiles(&inst.state, args.search.goal);
    let src = Source { id: &id, line, tiles: &tiles, expected: inst.optimal };
    let rec = recorder.searched(&src, &inst.state, &report, solver.threads());
    match args.format {
        SolveFormat::Json => writeln!(out, "{}", serde_json::to_string(&rec)?)?,
        SolveFormat::Text => {
            if let Some(id) = &inst.id {
                write!(out, "{id}: ")?;
            }
            writeln!(
                out,
                "length {}  nodes {} generated, {} expanded  search {:.6} s  threads {}  lanes {}  heuristic {}",
                rec.length.expect("a search without limits ends solved"),
                rec.nodes,
                rec.expanded,
                rec.seconds,
                rec.threads,
                rec.lanes,
                rec.heuristic
            )?;
            writeln!(out, "moves: {}", rec.moves)?;
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
    Ok(rec.matched != Some(false))
}
