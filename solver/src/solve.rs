//! `solver solve`: one position from the command line, or one a line from stdin, each result printed as
//! soon as it is found.

use crate::args::{engine_error, SearchArgs, INPUT, LIMITS, OUTPUT};
use crate::batch::parse_seconds;
use crate::input::Positions;
use crate::output::{goal_tiles, position_error, user_tiles, Answer, MoveStyle, Recorder, Source};
use crate::show::{show, Show};
use crate::watch::Watch;
use anyhow::Context;
use cli_common::{log, usage};
use engine::{Limits, Progress, Solver};
use puzzle::Instance;
use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

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
    /// positions from stdin: one a line (`#` comments), or as a grid, one row a line, with a blank line
    /// between positions.
    #[arg(value_name = "POSITION", help_heading = INPUT)]
    pub instance: String,
    #[command(flatten)]
    pub search: SearchArgs,
    /// text, or one JSON record a position (the fields of `batch` records: `length`, `moves`, `nodes` =
    /// generated nodes, `expanded`, `seconds` = search time without start-up, `heuristic`, ..., and `goal`).
    #[arg(long, value_enum, value_name = "FORMAT", default_value = "text", help_heading = OUTPUT)]
    pub format: Format,
    /// How moves are printed: tiles (the tiles slid), dirs (the blank's directions, U D L R) or boards
    /// (the tiles, then the boards as with --show).
    #[arg(long, value_enum, value_name = "STYLE", default_value = "tiles", help_heading = OUTPUT)]
    pub moves: MovesArg,
    /// Draw the start and the board after each move (the moved tile highlighted on a terminal).
    #[arg(long, help_heading = OUTPUT)]
    pub show: bool,
    /// With --show: draw only every K-th board (and always the start and the goal).
    #[arg(long, value_name = "K", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..), help_heading = OUTPUT)]
    pub every: u32,
    /// Replay the solution on one board redrawn in place (on a terminal; piped, it is --show).
    #[arg(long, help_heading = OUTPUT)]
    pub animate: bool,
    /// With --animate: seconds between moves.
    #[arg(long, value_name = "SECS", default_value = "0.2", value_parser = parse_seconds, help_heading = OUTPUT)]
    pub delay: Duration,
    /// Per position: stop the search after this many seconds; the result has status `limit` and the
    /// proven lower bound, and the exit code is 1.
    #[arg(long, value_name = "SECS", value_parser = parse_seconds, help_heading = LIMITS)]
    pub time_limit: Option<Duration>,
    /// Per position: stop the search after this many expanded nodes (checked every 16384), as --time-limit.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..), help_heading = LIMITS)]
    pub node_limit: Option<u64>,
}

/// `--moves`: a record's move style, or the tiles with the boards drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum MovesArg {
    Tiles,
    Dirs,
    Boards,
}

impl SolveArgs {
    fn style(&self) -> MoveStyle {
        match self.moves {
            MovesArg::Dirs => MoveStyle::Dirs,
            MovesArg::Tiles | MovesArg::Boards => MoveStyle::Tiles,
        }
    }

    /// How solutions are drawn, if at all (text output only: JSON stays one record a line).
    fn drawing(&self) -> Option<Show> {
        if self.format != Format::Text {
            None
        } else if self.animate {
            Some(Show::Animate { delay: self.delay })
        } else if self.show || self.moves == MovesArg::Boards {
            Some(Show::Boards { every: self.every as usize })
        } else {
            None
        }
    }

    fn limits(&self) -> Limits {
        Limits { nodes: self.node_limit, time: self.time_limit, ..Limits::default() }
    }
}

/// How one position ended, for the exit code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ended {
    Solved,
    /// Solved, but not to the length the input gave; or stopped by a limit.
    Failed,
}

/// How `solve` prints a result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Text,
    Json,
}

/// `solver solve`: exit code 0; 2 if a position was not valid (the others are solved); else 1 if a solved
/// length differs from the one the input gave or a limit stopped a search.
pub fn run(args: &SolveArgs) -> anyhow::Result<ExitCode> {
    let s = &args.search;
    let failure = ExitCode::from(cli_common::EXIT_FAILURE);
    if args.instance != "-" {
        // The argument is read like a line of a file: bare tiles, or `id optimal_length tiles...`.
        let inst = puzzle::parse_line(s.board, s.goal, &args.instance)
            .map_err(|e| {
                usage(anyhow::anyhow!("bad position: {}", position_error(s.board, s.goal, &args.instance, &e)))
            })?
            .ok_or_else(|| usage(anyhow::anyhow!("bad position: no tiles given")))?;
        let solver = s.solver()?;
        let mut limits = args.limits();
        // A single search may take long: on a terminal, say how far it is.
        let _watch = std::io::stderr().is_terminal().then(|| {
            let progress = Arc::new(Progress::default());
            limits.progress = Some(Arc::clone(&progress));
            Watch::start(progress)
        });
        let recorder = Recorder::new(&solver, s.goal, args.style());
        let ended = print_one(&mut std::io::stdout().lock(), args, &recorder, &inst, 1, &limits)?;
        return Ok(if ended == Ended::Solved { ExitCode::SUCCESS } else { failure });
    }
    let solver = s.solver()?;
    let recorder = Recorder::new(&solver, s.goal, args.style());
    let limits = args.limits();
    let (mut bad, mut failed) = (0, 0);
    let mut out = std::io::stdout().lock();
    for item in Positions::new(std::io::stdin().lock(), s.board) {
        let (n, text) = item.context("cannot read stdin")?;
        let parsed = text.and_then(|text| {
            puzzle::parse_line(s.board, s.goal, &text).map_err(|e| position_error(s.board, s.goal, &text, &e))
        });
        match parsed {
            Ok(None) => {}
            Ok(Some(inst)) => {
                if print_one(&mut out, args, &recorder, &inst, n, &limits)? == Ended::Failed {
                    failed += 1;
                }
            }
            Err(e) => {
                bad += 1;
                log(&format!("solver: error: stdin line {n}: {e}"));
            }
        }
    }
    Ok(match (bad, failed) {
        (0, 0) => ExitCode::SUCCESS,
        (0, _) => failure,
        _ => ExitCode::from(cli_common::EXIT_USAGE),
    })
}

/// Solves and prints one instance: whether it was solved, and to the length its line gave (a mismatch is
/// also said on stderr).
fn print_one(
    out: &mut impl Write,
    args: &SolveArgs,
    recorder: &Recorder,
    inst: &Instance,
    line: u64,
    limits: &Limits,
) -> anyhow::Result<Ended> {
    let solver: &Solver = recorder.solver;
    let goal = args.search.goal;
    let report = solver.solve(&inst.state, limits).map_err(engine_error)?;
    let id = inst.id.clone().unwrap_or_else(|| line.to_string());
    let tiles = user_tiles(&inst.state, goal);
    let src = Source { id: &id, line, tiles: &tiles, expected: inst.optimal };
    let answer = Answer {
        record: recorder.searched(&src, &inst.state, &report, solver.threads()),
        goal: goal_tiles(inst.state.board(), goal),
    };
    let rec = &answer.record;
    match args.format {
        Format::Json => writeln!(out, "{}", serde_json::to_string(&answer)?)?,
        Format::Text => {
            if let Some(id) = &inst.id {
                write!(out, "{id}: ")?;
            }
            let outcome = match (rec.length, &rec.error) {
                (Some(l), _) => format!("length {l}"),
                (None, e) => format!("status limit ({})", e.as_deref().unwrap_or_default()),
            };
            writeln!(
                out,
                "{outcome}  nodes {} generated, {} expanded  search {:.6} s  threads {}  lanes {}  heuristic {}",
                rec.nodes, rec.expanded, rec.seconds, rec.threads, rec.lanes, rec.heuristic
            )?;
            writeln!(out, "goal {}", answer.goal)?;
            if let Some(moves) = report.moves() {
                writeln!(out, "moves: {}", rec.moves)?;
                if let Some(how) = args.drawing() {
                    show(out, &inst.state, moves, goal, how, std::io::stdout().is_terminal())?;
                }
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
    Ok(if rec.length.is_some() && rec.matched != Some(false) { Ended::Solved } else { Ended::Failed })
}
