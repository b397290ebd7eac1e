//! `solver check`: replay a solution of a position written in any notation the solver prints, say whether
//! it solves the position, its lengths in both metrics, and how far it is from the optimum in each (searched for with
//! the engine when the board is one it solves, within a time limit); or, with `--batch`, a file of such
//! pairs, one record each and a summary.

use crate::args::{auto_mtm, SearchArgs};
use adapters::tiles::algorithm::{self, Follow};
use anyhow::{anyhow, Context};
use cli_common::heading::{INPUT, OUTPUT, TABLES};
use cli_common::{usage, Format};
use engine::{HeuristicChoice, Lookups, Metric, MtmSolver, Solver};
use puzzle::big::{self, Notation, Position, Size};
use puzzle::Goal;
use search::Algorithm;
use std::collections::hash_map::{Entry, HashMap};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

#[derive(clap::Args)]
#[command(after_long_help = "Examples:
  # the speedsolvers' scramble and a solution in their grouped notation
  solver check \"1 2 3/4 5 6/7 0 8\" \"L\"
  solver check \"1 2 3 4/5 6 7 8/9 10 11 12/13 14 0 15\" \"L\" --format json
  # the blank's directions, as --moves dirs prints them
  solver check --notation dirs \"...\" \"RDLU\"
  # a file of lines `POSITION ; SOLUTION`, a record a line and a summary
  solver check --batch pairs.txt

Exit status: 0 the solution (every one, with --batch) solves its position; 1 one
does not; 2 bad input.")]
pub struct CheckArgs {
    /// The position, as `solve` reads it (rows apart by `/` are the speedsolvers' form, for their goal,
    /// blank last); any board from 2x2 to 16x16.
    #[arg(value_name = "POSITION", help_heading = INPUT, required_unless_present = "batch")]
    pub position: Option<String>,
    /// The solution: tile directions, repeats grouped or not (`R3 U2 L`, `U2LD3R`, `rrrddl`), or the tiles
    /// slid (`3 1 2`), or with --notation dirs the blank's directions.
    #[arg(value_name = "SOLUTION", help_heading = INPUT, required_unless_present = "batch")]
    pub solution: Option<String>,
    /// A file of pairs instead: a position and its solution a line, apart by `;` (`#` comments); `-` is stdin.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["position", "solution"], help_heading = INPUT)]
    pub batch: Option<PathBuf>,
    /// Board size, rows x columns [default: the rows written apart, else the square board of the tile count].
    #[arg(long, value_name = "RxC", help_heading = INPUT)]
    pub board: Option<Size>,
    /// The goal: blank-first (`0 1 2 ...`) or blank-last (`1 2 ... 0`) [default: blank-last for rows apart by
    /// `/`, else blank-first].
    #[arg(long, value_name = "GOAL", env = "STP_GOAL", help_heading = INPUT)]
    pub goal: Option<Goal>,
    /// How the solution is written: auto (digits: tiles; letters: udlr), udlr (each tile's direction, the
    /// speedsolvers' convention and `--moves udlr`), dirs (the blank's directions, `--moves dirs`) or tiles.
    #[arg(long, value_enum, value_name = "NAME", default_value = "auto", help_heading = INPUT)]
    pub notation: NotationArg,
    /// Seconds each optimal search (STM, then MTM) may take (boards of up to 25 cells); 0 skips both.
    #[arg(long, value_name = "SECS", default_value = "10", value_parser = seconds, help_heading = TABLES)]
    pub optimum_limit: Duration,
    /// Folder holding the pattern database files the optimal search uses when there.
    #[arg(long, value_name = "DIR", env = "STP_PDBS", default_value = "pdbs", help_heading = TABLES)]
    pub pdbs: PathBuf,
    /// Worker threads of the optimal search [default: all cores].
    #[arg(long, short = 'j', value_name = "N", help_heading = TABLES)]
    pub threads: Option<usize>,
    /// text, or one JSON record a check.
    #[arg(long, value_enum, value_name = "FORMAT", default_value = "text", help_heading = OUTPUT)]
    pub format: Format,
}

/// `--notation`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum NotationArg {
    Auto,
    Udlr,
    Dirs,
    Tiles,
}

fn seconds(s: &str) -> Result<Duration, String> {
    match s.parse::<f64>() {
        Ok(x) if (0.0..=86400.0).contains(&x) => Ok(Duration::from_secs_f64(x)),
        _ => Err(format!("'{s}' is not a number of seconds from 0 to 86400")),
    }
}

fn s(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// What a check found.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Checked {
    /// The board, e.g. `4x4`.
    pub board: String,
    /// The goal's tiles.
    pub goal: String,
    /// The position's tiles as read.
    pub position: String,
    /// Whether the solution reaches the goal.
    pub solves: bool,
    /// Why not, when it does not.
    pub problem: Option<String>,
    /// Single-tile moves written.
    pub stm: usize,
    /// Multi-tile moves written: runs of moves in one direction (unknown for tiles that cannot be moved).
    pub mtm: Option<usize>,
    /// Manhattan distance plus linear conflicts of the position: no solution is shorter.
    pub lower_bound: u32,
    /// The fewest single-tile moves, when searched for.
    pub optimal_stm: Option<u32>,
    /// Single-tile moves over the optimum, when both are known and the solution solves.
    pub stm_over: Option<i64>,
    /// How the optimum was found, or why it was not.
    pub optimal_stm_note: String,
    /// The fewest multi-tile moves, when searched for.
    pub optimal_mtm: Option<u32>,
    /// Multi-tile moves over that optimum, when both are known and the solution solves.
    pub mtm_over: Option<i64>,
    /// How the multi-tile optimum was found, or why it was not.
    pub optimal_mtm_note: String,
}

/// Optimal searches, one solver a board and metric (positions are searched in the internal labels, whatever
/// their goal), made when first needed.
pub struct Optimum<'a> {
    args: &'a CheckArgs,
    solvers: HashMap<puzzle::Board, Solver>,
    /// The multi-tile solvers, with the threads they search on.
    mtm: HashMap<puzzle::Board, (usize, MtmSolver)>,
}

impl<'a> Optimum<'a> {
    pub fn new(args: &'a CheckArgs) -> Optimum<'a> {
        Optimum { args, solvers: HashMap::new(), mtm: HashMap::new() }
    }

    /// The optimal length of `p` toward `goal` in `metric` and how it was found, or why it was not.
    fn of(&mut self, p: &Position, goal: Goal, metric: Metric) -> anyhow::Result<(Option<u32>, String)> {
        let Some(board) = p.size.board() else {
            return Ok((
                None,
                format!("not computed: the optimal search solves boards of at most 25 cells, not {}", p.size),
            ));
        };
        if self.args.optimum_limit.is_zero() {
            return Ok((None, "not computed: --optimum-limit 0".into()));
        }
        let search = SearchArgs {
            board: Some(board),
            goal: Some(goal),
            algorithm: Algorithm::Ida,
            heuristic: HeuristicChoice::Auto,
            pdbs: self.args.pdbs.clone(),
            partition: Vec::new(),
            lookups: Lookups::Reflected,
            threads: self.args.threads,
            fsm_depth: engine::FSM_DEPTH,
            fsm_wide: false,
            lanes: None,
            dual: false,
            textbook: false,
        };
        let user: Vec<u8> = p.tiles.iter().map(|&t| t as u8).collect();
        let state = puzzle::State::from_tiles(board, &goal.to_internal(&user))
            .ok_or_else(|| anyhow!("internal error: a checked position is no state; please report this"))?;
        let limits = search::Limits { time: Some(self.args.optimum_limit), ..search::Limits::default() };
        let (searched, name, unit) = match metric {
            Metric::Stm => {
                let solver = match self.solvers.entry(board) {
                    Entry::Occupied(e) => e.into_mut(),
                    Entry::Vacant(e) => e.insert(search.solver()?),
                };
                let threads = solver.threads();
                (
                    algorithm::solve(solver, Algorithm::Ida, &state, threads, &limits, Follow::default())?,
                    solver.name().to_string(),
                    "",
                )
            }
            Metric::Mtm => {
                let (threads, mtm) = match self.mtm.entry(board) {
                    Entry::Occupied(e) => e.into_mut(),
                    Entry::Vacant(e) => {
                        // As `solve --metric mtm` takes it: on 4x4 the kept class table when --pdbs has it.
                        let threads = self.args.threads.unwrap_or_else(engine::cores);
                        e.insert((threads, auto_mtm(&search)?))
                    }
                };
                (algorithm::solve_mtm(mtm, &state, *threads, &limits, Follow::default())?, mtm.name(), "MTM ")
            }
        };
        let length = searched.moves().map(|m| match metric {
            Metric::Stm => m.len() as u32,
            Metric::Mtm => engine::mtm::mtm_length(&state, m) as u32,
        });
        Ok(match length {
            Some(l) => (Some(l), format!("IDA* with {name}, {:.3} s", searched.seconds)),
            None => (
                None,
                format!(
                    "not computed: no optimal solution within --optimum-limit {} s (IDA* with {name}; at least {} \
                     {unit}moves)",
                    self.args.optimum_limit.as_secs_f64(),
                    searched.bound.unwrap_or_default()
                ),
            ),
        })
    }
}

impl CheckArgs {
    fn notation(&self) -> Option<Notation> {
        match self.notation {
            NotationArg::Auto => None,
            NotationArg::Udlr => Some(Notation::Udlr),
            NotationArg::Dirs => Some(Notation::Dirs),
            NotationArg::Tiles => Some(Notation::Tiles),
        }
    }

    /// The goal for `position`: --goal, else the form's (`/`: blank-last), else blank-first.
    fn goal_for(&self, position: &str) -> Goal {
        self.goal.or_else(|| puzzle::instance::form_goal(position)).unwrap_or_default()
    }
}

/// Checks one pair; `Err` is bad input (the position or the solution's notation), with the problem and where.
pub fn check(args: &CheckArgs, optimum: &mut Optimum, position: &str, solution: &str) -> anyhow::Result<Checked> {
    let goal = args.goal_for(position);
    let p = big::parse_position(position, args.board, goal).map_err(|e| usage(anyhow!("bad position: {e}")))?;
    let moves = big::parse_moves(solution, args.notation()).map_err(|e| usage(anyhow!("bad solution: {e}")))?;
    let written = moves.tiles.as_ref().map_or(moves.blank.len(), Vec::len);
    let (solves, problem, mtm) = match big::replay(&p, &moves) {
        Ok((end, dirs)) if end.is_goal(goal) => (true, None, Some(big::multi_tile_length(&dirs))),
        Ok((end, dirs)) => {
            let away = end.tiles.iter().zip(p.size.goal(goal)).filter(|&(&a, b)| a != 0 && a != b).count();
            let why = format!(
                "after its {} move{} {away} tile{} not home (Manhattan distance {} from the goal)",
                dirs.len(),
                s(dirs.len()),
                if away == 1 { " is" } else { "s are" },
                end.manhattan(goal)
            );
            (false, Some(why), Some(big::multi_tile_length(&dirs)))
        }
        Err(bad) => {
            let mtm = moves.tiles.is_none().then(|| big::multi_tile_length(&moves.blank));
            (false, Some(format!("move {} cannot be made: {}", bad.at, bad.why)), mtm)
        }
    };
    let (optimal_stm, optimal_stm_note) = optimum.of(&p, goal, Metric::Stm)?;
    let stm_over = optimal_stm.filter(|_| solves).map(|o| written as i64 - o as i64);
    // A damaged multi-tile table loses the MTM optimum only, said in its note.
    let (optimal_mtm, optimal_mtm_note) =
        optimum.of(&p, goal, Metric::Mtm).unwrap_or_else(|e| (None, format!("not computed: {e:#}")));
    let mtm_over = optimal_mtm.filter(|_| solves).and_then(|o| mtm.map(|m| m as i64 - o as i64));
    Ok(Checked {
        board: p.size.to_string(),
        goal: Position::goal(p.size, goal).text(),
        position: p.text(),
        solves,
        problem,
        stm: written,
        mtm,
        lower_bound: p.lower_bound(goal),
        optimal_stm,
        stm_over,
        optimal_stm_note,
        optimal_mtm,
        mtm_over,
        optimal_mtm_note,
    })
}

fn print(out: &mut impl Write, format: Format, c: &Checked) -> anyhow::Result<()> {
    if format == Format::Json {
        writeln!(out, "{}", serde_json::to_string(c)?)?;
        return Ok(());
    }
    writeln!(out, "board {}  goal {}", c.board, c.goal)?;
    match &c.problem {
        None => writeln!(out, "solves: yes")?,
        Some(why) => writeln!(out, "solves: NO: {why}")?,
    }
    let mtm = c.mtm.map_or("unknown".to_string(), |m| m.to_string());
    writeln!(out, "length: {} STM (single-tile moves), {mtm} MTM (multi-tile moves)", c.stm)?;
    for (metric, optimum, over, note) in [
        ("STM", c.optimal_stm, c.stm_over, &c.optimal_stm_note),
        ("MTM", c.optimal_mtm, c.mtm_over, &c.optimal_mtm_note),
    ] {
        match (optimum, over) {
            (Some(o), Some(0)) => writeln!(out, "{metric} optimum: {o} ({note}): this solution is optimal")?,
            (Some(o), Some(d)) => {
                writeln!(out, "{metric} optimum: {o} ({note}): this solution is {d} move{} longer", s(d as usize))?
            }
            (Some(o), None) => writeln!(out, "{metric} optimum: {o} ({note})")?,
            (None, _) => writeln!(out, "{metric} optimum: {note}")?,
        }
    }
    writeln!(out, "lower bound: {} STM (Manhattan distance + linear conflicts)", c.lower_bound)?;
    Ok(())
}

/// `solver check`.
pub fn run(args: &CheckArgs) -> anyhow::Result<ExitCode> {
    let mut optimum = Optimum::new(args);
    let mut out = std::io::stdout().lock();
    let Some(file) = &args.batch else {
        let (position, solution) = (args.position.as_deref().unwrap_or(""), args.solution.as_deref().unwrap_or(""));
        let c = check(args, &mut optimum, position, solution)?;
        print(&mut out, args.format, &c)?;
        return Ok(ExitCode::from(if c.solves { 0 } else { 1 }));
    };
    let text = if file.as_os_str() == "-" {
        std::io::read_to_string(std::io::stdin()).context("cannot read stdin")?
    } else {
        std::fs::read_to_string(file).map_err(|e| usage(anyhow!("cannot read {}: {e}", file.display())))?
    };
    let (mut pairs, mut solved, mut bad) = (0, 0, 0);
    // Optima known and solutions at them, in STM then MTM.
    let (mut known, mut optimal) = ([0; 2], [0; 2]);
    for (n, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("");
        if line.trim().is_empty() {
            continue;
        }
        let Some((position, solution)) = line.split_once(';') else {
            cli_common::log(&format!("solver: error: line {}: no ';' between the position and the solution", n + 1));
            bad += 1;
            continue;
        };
        match check(args, &mut optimum, position, solution) {
            Ok(c) => {
                pairs += 1;
                solved += usize::from(c.solves);
                for (m, over) in [c.stm_over, c.mtm_over].into_iter().enumerate() {
                    known[m] += usize::from(over.is_some());
                    optimal[m] += usize::from(over == Some(0));
                }
                if args.format == Format::Text {
                    writeln!(out, "line {}:", n + 1)?;
                }
                print(&mut out, args.format, &c)?;
            }
            Err(e) => {
                cli_common::log(&format!("solver: error: line {}: {e:#}", n + 1));
                bad += 1;
            }
        }
    }
    let not = pairs - solved;
    let summary = format!(
        "{pairs} pair{}: {solved} solve{} their position, {not} do{} not; STM optimum known for {}, of which {} \
         optimal; MTM optimum known for {}, of which {} optimal; {bad} line{} not read",
        s(pairs),
        if solved == 1 { "s" } else { "" },
        if not == 1 { "es" } else { "" },
        known[0],
        optimal[0],
        known[1],
        optimal[1],
        s(bad)
    );
    match args.format {
        Format::Text => writeln!(out, "{summary}")?,
        Format::Json => cli_common::log(&format!("solver: {summary}")),
    }
    Ok(ExitCode::from(if bad > 0 {
        cli_common::EXIT_USAGE
    } else if solved < pairs {
        1
    } else {
        0
    }))
}
