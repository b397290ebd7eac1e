//! `solver solve`: one position from the command line, or several from stdin, each result printed as soon
//! as it is found.

use crate::args::{MetricArg, SearchArgs, Textbook};
use crate::input::Positions;
use crate::show::{show, Show};
use crate::watch::Watch;
use adapters::tiles::algorithm::{self, Follow};
use adapters::tiles::record::{
    closer_goal, goal_tiles, position_error, slides, user_tiles, Answer, MoveStyle, Recorder,
};
use anyhow::Context;
use batch::limits::parse_seconds;
use batch::{LimitArgs, Source, Verdict};
use cli_common::heading::{INPUT, OUTPUT};
use cli_common::Format;
use cli_common::{log, usage};
use engine::{Live, Metric, Solver};
use puzzle::{Goal, Instance};
use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

#[derive(clap::Args)]
#[command(after_long_help = "Examples:
  solver solve \"14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3\"
  solver solve --format json --moves dirs \"...\"
  # a result each
  solver solve - < tests/data/korf100.txt
  solver solve --heuristic linear-conflict --show \"8 6 7 2 5 4 3 0 1\"
  solver solve --board 3x3 --algorithm astar \"8 6 7 2 5 4 3 0 1\"
  # input written for the goal 1 2 ... 15 0
  solver solve --goal blank-last \"...\"")]
pub struct SolveArgs {
    /// The position: the tiles row by row, 0 the blank, separated by spaces or commas (quote it), optionally
    /// after an id and the known optimal length (`id length tiles...`, as in instance files), also as a
    /// Python list (`[[8,2,0],[4,6,1],[3,7,5]]`) or the speedsolvers' scramble, rows apart by `/` (their goal,
    /// blank last, unless --goal says otherwise); or `-` to read positions from stdin: one a line (`#`
    /// comments), or as a grid, one row a line, with a blank line between positions.
    #[arg(value_name = "POSITION", help_heading = INPUT)]
    pub instance: String,
    #[command(flatten)]
    pub search: SearchArgs,
    #[command(flatten)]
    pub textbook: Textbook,
    #[command(flatten)]
    pub limits: LimitArgs,
    #[command(flatten)]
    pub metric: MetricArg,
    /// text, or one JSON record a position (the fields of `batch` records: `length`, `moves`, `nodes` =
    /// generated nodes, `expanded`, `seconds` = search time without start-up, `heuristic`, ..., and `goal`).
    #[arg(long, value_enum, value_name = "FORMAT", default_value = "text", help_heading = OUTPUT)]
    pub format: Format,
    /// How moves are printed: tiles (the tiles slid), dirs (the blank's directions, U D L R), udlr (the
    /// speedsolving convention: the direction each tile moves, repeats grouped and run together, `U2LD3R`,
    /// so `D3` slides three tiles down, one move in the multi-tile metric whose count is printed too) or
    /// boards (the tiles, then the boards as with --show).
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
}

/// `--moves`: a record's move style, or the tiles with the boards drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum MovesArg {
    Tiles,
    Dirs,
    Udlr,
    Boards,
}

impl SolveArgs {
    fn style(&self) -> MoveStyle {
        match self.moves {
            MovesArg::Dirs => MoveStyle::Dirs,
            MovesArg::Udlr => MoveStyle::Udlr,
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
}

/// `solver solve`: exit code 0; 2 if a position was not valid (the others are solved); 1 if a solved length
/// differs from the one the input gave; 3 if a limit stopped a search (the worst of these).
pub fn run(args: &SolveArgs) -> anyhow::Result<ExitCode> {
    if args.instance != "-" {
        let s = &args.textbook.apply(&args.search).for_position(&args.instance)?;
        let board = s.board();
        // The argument is read like a line of a file: bare tiles, or `id optimal_length tiles...`.
        let inst = puzzle::parse_line(board, s.goal(), &args.instance)
            .map_err(|e| {
                usage(anyhow::anyhow!("bad position: {}", position_error(board, s.goal(), &args.instance, &e)))
            })?
            .ok_or_else(|| usage(anyhow::anyhow!("bad position: no tiles given")))?;
        if let Some((other, there, here)) = closer_goal(board, s.goal(), &args.instance) {
            cli_common::log(&format!(
                "solver: note: this position is closer to the goal {} (Manhattan distance {there}, against {here} \
                 to {}); if that is the goal meant, add --goal {}",
                goal_tiles(board, other),
                goal_tiles(board, s.goal()),
                other.name()
            ));
        }
        let (solver, mtm) = args.metric.solvers(s)?;
        // A single search may take long: on a terminal, say how far it is.
        let progress = std::io::stderr().is_terminal().then(|| Arc::new(Live::default()));
        let _watch = progress.as_ref().map(|p| Watch::start(Arc::clone(p)));
        let recorder = Recorder::new(&solver, s.goal(), args.style()).counting(mtm.as_ref());
        let verdict = print_one(&mut std::io::stdout().lock(), args, &recorder, &inst, 1, progress)?;
        return Ok(ExitCode::from(verdict.exit_code()));
    }
    let s = &args.textbook.apply(&args.search);
    let board = s.board();
    let (solver, mtm) = args.metric.solvers(s)?;
    // Each position is read for its own goal (a form may bring one), its moves written in that goal's labels.
    let recorders = [Goal::BlankFirst, Goal::BlankLast]
        .map(|goal| Recorder::new(&solver, goal, args.style()).counting(mtm.as_ref()));
    let mut noted = false;
    let mut worst = Verdict::Solved;
    let mut out = std::io::stdout().lock();
    for item in Positions::new(std::io::stdin().lock(), board) {
        let (n, text) = item.context("cannot read stdin")?;
        let parsed = text.and_then(|text| {
            let (goal, note) = s.goal_for(&text);
            if let Some(note) = note.filter(|_| !std::mem::replace(&mut noted, true)) {
                log(&format!("solver: note: stdin line {n}: {note} (said once)"));
            }
            puzzle::parse_line(board, goal, &text)
                .map(|inst| inst.map(|inst| (inst, goal)))
                .map_err(|e| position_error(board, goal, &text, &e))
        });
        match parsed {
            Ok(None) => {}
            Ok(Some((inst, goal))) => {
                let recorder = &recorders[usize::from(goal == Goal::BlankLast)];
                worst = worst.max(print_one(&mut out, args, recorder, &inst, n, None)?)
            }
            Err(e) => {
                worst = Verdict::Invalid;
                log(&format!("solver: error: stdin line {n}: {e}"));
            }
        }
    }
    Ok(ExitCode::from(worst.exit_code()))
}

/// Solves and prints one instance, reporting its progress to `progress` if given. A length that differs
/// from the one its line gave is also said on stderr.
fn print_one(
    out: &mut impl Write,
    args: &SolveArgs,
    recorder: &Recorder,
    inst: &Instance,
    line: u64,
    progress: Option<Arc<Live>>,
) -> anyhow::Result<Verdict> {
    let solver: &Solver = recorder.solver;
    let goal = recorder.goal;
    let limits = args.limits.limits(None);
    let follow = Follow { say_depths: progress.is_some(), live: progress, ..Follow::default() };
    let searched = match recorder.mtm() {
        Some(mtm) => algorithm::solve_mtm(mtm, &inst.state, solver.threads(), &limits, follow)?,
        None => algorithm::solve(solver, args.search.algorithm, &inst.state, solver.threads(), &limits, follow)?,
    };
    let id = inst.id.clone().unwrap_or_else(|| line.to_string());
    let tiles = user_tiles(&inst.state, goal);
    let src = Source { id: &id, line, text: &tiles, expected: inst.optimal };
    let answer = Answer {
        record: recorder.searched(&src, &inst.state, &searched),
        goal: goal_tiles(inst.state.board(), goal),
        metric: Some(recorder.metric().as_str()),
    };
    let rec = &answer.record;
    match args.format {
        Format::Json => writeln!(out, "{}", serde_json::to_string(&answer)?)?,
        Format::Text => {
            if let Some(id) = &inst.id {
                write!(out, "{id}: ")?;
            }
            let result = match (rec.length, searched.moves()) {
                (Some(length), _) if recorder.metric() == Metric::Mtm => format!("length {length} (multi-tile metric)"),
                (Some(length), Some(moves)) if args.moves == MovesArg::Udlr => {
                    let multi = slides(&inst.state, moves, goal).len();
                    format!("length {length} (this solution: {multi} in the multi-tile metric)")
                }
                (Some(length), _) if !searched.algorithm.optimal() => {
                    format!("length {length} (not necessarily fewest)")
                }
                (Some(length), _) => format!("length {length}"),
                (None, _) => format!("status {} ({})", rec.status.as_str(), rec.error.as_deref().unwrap_or_default()),
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
            writeln!(out, "goal {}", answer.goal)?;
            if !searched.per_iteration.is_empty() {
                let each: Vec<String> = searched
                    .per_iteration
                    .iter()
                    .map(|i| {
                        format!("bound {}: {} generated, {} expanded", i.bound, i.counts.generated, i.counts.expanded)
                    })
                    .collect();
                writeln!(out, "iterations: {}", each.join("; "))?;
            }
            if let Some(moves) = searched.moves() {
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
    Ok(Verdict::of(rec))
}
