//! Command-line options shared by every subcommand that searches, and turning them into a solver.

use adapters::tiles::Tiles;
use batch::Task;
use clap::builder::TypedValueParser;
use cli_common::heading::{INPUT, TABLES, TUNING};
use cli_common::usage;
use engine::{HeuristicChoice, Lookups, Settings, Solver, TableSpec};
use puzzle::{Board, Goal};
use search::Algorithm;
use std::path::PathBuf;

fn lookups_parser() -> impl clap::builder::TypedValueParser<Value = Lookups> {
    clap::builder::PossibleValuesParser::new(Lookups::NAMES).map(|s| s.parse::<Lookups>().expect("one of the names"))
}

/// Options shared by every command that searches: board, goal, heuristic, tables and tuning.
#[derive(clap::Args, Clone)]
pub struct SearchArgs {
    /// Board size, rows x columns (e.g. 4x4, 5x5, 3x3, 2x3; at most 25 cells). Default: a position given on
    /// the command line is on the square board its tile count says (9 tiles: 3x3, 25: 5x5); else 4x4.
    #[arg(long, value_name = "RxC", help_heading = INPUT)]
    pub board: Option<Board>,
    /// The goal the input is written for: blank-first (`0 1 2 ... 15`, Korf's) or blank-last
    /// (`1 2 ... 15 0`). Blank-last input is converted exactly (a half turn and relabelling), and moves are
    /// printed back in its labels. [default: the goal of the position's form (the speedsolvers' rows apart
    /// by `/` are written for blank-last), else blank-first]
    #[arg(long, value_name = "GOAL", env = "STP_GOAL", help_heading = INPUT)]
    pub goal: Option<Goal>,
    /// ida: the engine's IDA* (fast; threads, lanes); astar, greedy (best-first) and dfs (depth-first; both
    /// fast, not necessarily shortest): the generic library's over the same heuristic; bfs, bibfs
    /// (bidirectional): the library's, with no heuristic. The library's run on one thread. `solve` also
    /// takes fast: a short solution, not the shortest, of boards from 3x3 to 16x16 (10x10 in well under a
    /// second), with a proven lower bound (see `solver solve --algorithm fast --help`).
    #[arg(long, value_name = "NAME", default_value = "ida", value_parser = cli_common::named(Tiles::ALGORITHMS), help_heading = TABLES)]
    pub algorithm: Algorithm,
    /// The estimate that guides the search. With auto, the tables are the named partitions', else the
    /// strongest complete set in --pdbs: on 5x5, 7-6-6-5 and 6-6-6-6 together (the larger of their
    /// estimates) when both are there, else either alone.
    #[arg(long, value_name = "NAME", default_value = "auto", value_parser = cli_common::named(Tiles::HEURISTICS), help_heading = TABLES)]
    pub heuristic: HeuristicChoice,
    /// Folder holding the pattern database files (see `pdb-builder build`).
    #[arg(long, value_name = "DIR", env = "STP_PDBS", default_value = "pdbs", help_heading = TABLES)]
    pub pdbs: PathBuf,
    /// Which tables: 7-6-6-5, 6-6-6-6 (5x5), 7-8, 6-6-3, 5-5-5 (4x4), 4-4 (3x3), 2-3 (2x3), or a custom
    /// partition such as 1,2,3,4,5,6,7/8,9,10,11,12,13,14,15. Default: with --heuristic pdb the board's
    /// first catalogue entry; with auto the strongest complete set in --pdbs. Given two to four times (e.g.
    /// --partition 7-6-6-5 --partition 6-6-6-6), the estimate is the largest of the sets' (up to 4 tables
    /// each): fewer nodes, more work a node. A set is read only where those before it keep a node, so name
    /// the stronger first.
    #[arg(long, value_name = "PARTITION", help_heading = TABLES)]
    pub partition: Vec<String>,
    /// Table lookups at every node: regular (the position only) or reflected (also its reflection about
    /// the main diagonal, on square boards).
    #[arg(long, value_name = "HOW", default_value = "reflected", value_parser = lookups_parser(), help_heading = TABLES, hide_short_help = true)]
    pub lookups: Lookups,
    /// Worker threads, 1 to 256 [default: all cores].
    #[arg(long, short = 'j', value_name = "N", help_heading = TUNING)]
    pub threads: Option<usize>,
    /// Duplicate-path pruning: the length of the move strings the pruning automaton learns, 2 (never undo
    /// the last move) to 14 (56,602 states on 4x4, built in about 0.15 s).
    #[arg(long, value_name = "N", default_value_t = engine::FSM_DEPTH, help_heading = TUNING, hide_short_help = true)]
    pub fsm_depth: usize,
    /// Let the pruning automaton have 32-bit states, so that boards of more than 16 cells get the whole
    /// `--fsm-depth` (5x5 otherwise stops at 12): 6-12 % fewer nodes on 5x5 at depth 14, but no faster,
    /// and about 1.2 s and 300 MB more to start (5x5, depth 14).
    #[arg(long, help_heading = TUNING, hide_short_help = true)]
    pub fsm_wide: bool,
    /// Depth-first searches each thread interleaves, so that one's table reads are in flight while the
    /// others compute: 1 is a plain depth-first search [default: 3 with tables (about 1.35x faster with the
    /// 7-8 tables), 1 without]. It changes the order of the last iteration, so its node count and which
    /// optimal solution is found; never the length.
    #[arg(long, value_name = "N", help_heading = TUNING, hide_short_help = true)]
    pub lanes: Option<usize>,
    /// Dual lookups: each node the tables keep is also looked up at its dual (the inverse permutation, read
    /// with the blank's cell as the acting blank; with reflected lookups, the reflection's dual too), and the
    /// estimates are propagated with BPMX. Fewer nodes, more work a node (BENCHMARKS.md); the engine's IDA*
    /// with one partition of 2 to 4 tables (7-8, 6-6-6-6, 7-6-6-5). Records name it in their heuristic.
    #[arg(long, help_heading = TUNING, hide_short_help = true)]
    pub dual: bool,
    /// Textbook mode (`solve` and `batch` set it from their `--textbook`; see [`Textbook`]).
    #[arg(skip)]
    pub textbook: bool,
}

/// `--metric`, for the commands that solve positions.
#[derive(clap::Args, Clone)]
pub struct MetricArg {
    /// The metric solutions are shortest in: stm (each tile slid one cell is a move) or mtm (the
    /// speedsolvers' multi-tile metric: sliding a line of tiles of the blank's row or column at once is one
    /// move; its own IDA* on --threads threads, with the multi-tile walking distance as heuristic, and on 4x4 the
    /// `--classes 4x4` table too when --pdbs has it: `make pdbs-mtm` builds it).
    #[arg(long, value_name = "METRIC", default_value = "stm", value_parser = |s: &str| s.parse::<engine::Metric>(), help_heading = TABLES)]
    pub metric: engine::Metric,
    /// With --metric mtm: also a relabelled-goal table (built at start, kept in memory), maxed with the
    /// walking distance: the class of each tile of the blank-first goal, comma-separated, 0 for the blank
    /// (e.g. 0,1,1,2,2,1,3,3,2 on 3x3), or `4x4` for the 4x4's of four classes (151 million entries, minutes
    /// to build). Kept in --pdbs when that folder exists (`mtm-classes-RxC-LABELS.bin`), read from there
    /// next time.
    #[arg(long, value_name = "LABELS", help_heading = TABLES)]
    pub classes: Option<String>,
}

/// The 4x4's labelling for `--classes 4x4`: tiles grouped in four classes of 2, 4, 5 and 4.
pub const CLASSES_4X4: [u8; 16] = [0, 4, 2, 2, 4, 4, 2, 2, 4, 3, 3, 1, 3, 3, 3, 1];

impl MetricArg {
    /// The single-tile solver `search` describes, and with `--metric mtm` the multi-tile one (see
    /// [`SearchArgs::mtm_recorder`]).
    pub fn solvers(&self, search: &SearchArgs) -> anyhow::Result<(Solver, Option<engine::MtmSolver>)> {
        match (self.metric, &self.classes) {
            (engine::Metric::Stm, Some(_)) => Err(usage(anyhow::anyhow!("--classes is for --metric mtm"))),
            (engine::Metric::Stm, None) => Ok((search.solver()?, None)),
            (engine::Metric::Mtm, classes) => {
                let solver = search.mtm_recorder()?;
                let Some(text) = classes else { return Ok((solver, Some(auto_mtm(search)?))) };
                let bad = |e: String| usage(anyhow::anyhow!("--classes {text}: {e}"));
                let labels: Vec<u8> = if text == "4x4" {
                    if search.board() != puzzle::Board::FOUR {
                        return Err(bad(format!("is a labelling of 4x4, not {}", search.board())));
                    }
                    CLASSES_4X4.to_vec()
                } else {
                    text.split(',')
                        .map(|w| w.trim().parse::<u8>().map_err(|_| bad(format!("'{w}' is not a class number"))))
                        .collect::<anyhow::Result<_>>()?
                };
                let mut note = |w: &str| cli_common::log(&format!("solver: note: {w}"));
                let dir = search.pdbs.is_dir().then_some(search.pdbs.as_path());
                let mtm = engine::MtmSolver::with_classes_in(search.board(), &labels, dir, &mut note).map_err(bad)?;
                Ok((solver, Some(mtm)))
            }
        }
    }
}

/// The relabelled-goal table `--heuristic auto` uses in the multi-tile metric when it is in --pdbs, by
/// board: `make pdbs-mtm` builds them.
pub const DEFAULT_CLASSES: &[(Board, &[u8])] = &[(Board::FOUR, &CLASSES_4X4)];

/// The multi-tile solver `--metric mtm` takes without `--classes` (`--heuristic auto`) for `search`'s board:
/// the board's default table (see [`DEFAULT_CLASSES`]) when --pdbs has it, read and never built; else the
/// walking distance alone, with a note saying how to build the table. A damaged table file is an error
/// naming it. Each solver is made once: its walking distance and duplicate-path automaton are built at start.
pub fn auto_mtm(search: &SearchArgs) -> anyhow::Result<engine::MtmSolver> {
    let board = search.board();
    let plain = || engine::MtmSolver::new(board);
    let Some((_, labels)) = DEFAULT_CLASSES.iter().find(|(b, _)| *b == board) else { return Ok(plain()) };
    match engine::MtmSolver::with_kept_classes(board, labels, &search.pdbs) {
        Ok(Some(mtm)) => Ok(mtm),
        Ok(None) => {
            let dir = search.pdbs.display();
            let name = engine::MtmSolver::classes_file_name(board, labels);
            cli_common::log(&format!(
                "solver: note: no {name} in {dir}, so the walking distance alone; `make pdbs-mtm PDBS={dir}` (or \
                 `solver solve --metric mtm --classes {board} --pdbs {dir}` on any position) builds it once: {BUILD_TIME}"
            ));
            Ok(plain())
        }
        Err(e) => Err(anyhow::anyhow!(
            "{e} (remove it, or build it again with `solver solve --metric mtm --classes {board} --pdbs {}`)",
            search.pdbs.display()
        )),
    }
}

/// What building the 4x4's default multi-tile table takes, for the note that says how.
const BUILD_TIME: &str = "2 to 4 minutes, 170 MB";

/// `--textbook`, for the commands whose node counts a student compares with their own search.
#[derive(clap::Args, Clone)]
pub struct Textbook {
    /// Count nodes as a textbook IDA* or A* does, so that a student's own search can be checked against
    /// them (docs/textbook.md): one thread, one lane, no pruning but never undoing the previous move,
    /// children in the order the blank moves up, down, left, right, unordered; IDA* tests the goal when a
    /// node is visited, A* when it is popped (least f, then least h, then first pushed). --algorithm ida
    /// (the default) or astar, with any heuristic.
    #[arg(long, help_heading = TUNING)]
    pub textbook: bool,
}

impl Textbook {
    /// `search` with textbook mode on when it was asked for.
    pub fn apply(&self, search: &SearchArgs) -> SearchArgs {
        SearchArgs { textbook: self.textbook, ..search.clone() }
    }
}

impl SearchArgs {
    /// The board: `--board`, else 4x4.
    pub fn board(&self) -> Board {
        self.board.unwrap_or(Board::FOUR)
    }

    /// The goal: `--goal` (or `$STP_GOAL`), else blank-first.
    pub fn goal(&self) -> Goal {
        self.goal.unwrap_or_default()
    }

    /// The goal `position` is read for: `--goal` (or `$STP_GOAL`) when given, else the goal its form brings
    /// (the speedsolvers' rows apart by `/`: blank-last), else blank-first; with the note to give on stderr
    /// when the form's goal is applied, or set aside for a given one that differs.
    pub fn goal_for(&self, position: &str) -> (Goal, Option<String>) {
        let Some(form) = puzzle::instance::form_goal(position) else { return (self.goal(), None) };
        let what = "rows apart by '/' are the speedsolvers' form, written for their goal (the blank last)";
        match self.goal {
            None => (form, Some(format!("{what}: solved toward it, as --goal {} would", form.name()))),
            Some(given) if given != form => {
                (given, Some(format!("{what}, but --goal (or $STP_GOAL) says {}: solved toward that", given.name())))
            }
            Some(given) => (given, None),
        }
    }

    /// These options with the board and goal `position` is on. The board: `--board` when given, else the one
    /// its rows say when written apart (`1 2 3/4 5 0`: 2x3), else the square board its tile count says (with
    /// or without an id and a length before the tiles; 16 tiles, the 15-puzzle, as well); a count that is no
    /// square board is refused, naming the boards with that many cells, and a word that is no tile first.
    /// The goal: see [`SearchArgs::goal_for`], whose note is given here.
    pub fn for_position(&self, position: &str) -> anyhow::Result<SearchArgs> {
        let mut args = self.clone();
        args.board = Some(self.board_for(position)?);
        let (goal, note) = self.goal_for(position);
        if let Some(note) = note {
            cli_common::log(&format!("solver: note: {note}"));
        }
        args.goal = Some(goal);
        Ok(args)
    }

    /// The board of [`SearchArgs::for_position`].
    fn board_for(&self, position: &str) -> anyhow::Result<Board> {
        if let Some(board) = self.board {
            return Ok(board);
        }
        let bad = |e: puzzle::InstanceError| usage(anyhow::anyhow!("bad position: {e}"));
        if let Some(board) = puzzle::instance::form_board(position).map_err(bad)? {
            return Ok(board);
        }
        let n = puzzle::instance::words(position).len();
        let square = |cells: usize| (2..=5).find(|k| k * k == cells);
        let with_id = square(n.saturating_sub(2)).filter(|&k| k >= 3);
        if let Some(k) = square(n).or(with_id).or((n < 4).then_some(4)) {
            return Ok(Board::new(k, k).expect("2x2 to 5x5 are boards"));
        }
        let fits: Vec<String> = (2..=n / 2)
            .filter(|&r| n.is_multiple_of(r) && n / r >= 2)
            .filter_map(|r| Board::new(r, n / r).ok())
            .map(|b| b.to_string())
            .collect();
        if let Some(e) = puzzle::instance::stray_word(position) {
            return Err(bad(e));
        }
        let fits = if fits.is_empty() { String::new() } else { format!(" (boards of {n} cells: {})", fits.join(", ")) };
        Err(usage(anyhow::anyhow!("{n} tiles are no square board: give --board RxC{fits}")))
    }

    /// The settings, validated: a bad value is a usage error naming the option.
    pub fn settings(&self) -> anyhow::Result<Settings> {
        let mut s = Settings::default()
            .with_fsm_depth(self.fsm_depth)
            .map_err(|e| usage(e).context("--fsm-depth"))?
            .with_fsm_wide(self.fsm_wide);
        if let Some(t) = self.threads {
            s = s.with_threads(t).map_err(|e| usage(e).context("--threads"))?;
        }
        if let Some(l) = self.lanes {
            s = s.with_lanes(l).map_err(|e| usage(e).context("--lanes"))?;
        }
        if self.dual {
            let refused = |what: String| Err(usage(anyhow::anyhow!("--dual {what}")));
            if self.algorithm != Algorithm::Ida {
                return refused(format!(
                    "is for the engine's IDA* (--algorithm ida), not {}",
                    search::Named::name(self.algorithm)
                ));
            }
            if self.textbook {
                return refused("does not go with --textbook, which counts a plain IDA*'s nodes".into());
            }
            s = s.with_dual(true);
        }
        if self.textbook {
            let refused = |what: String| Err(usage(anyhow::anyhow!("--textbook {what}")));
            match (self.threads, self.lanes, self.algorithm) {
                (Some(t), ..) if t > 1 => return refused(format!("searches on one thread, not --threads {t}")),
                (_, Some(l), _) if l > 1 => return refused(format!("searches one lane, not --lanes {l}")),
                (_, _, Algorithm::Ida | Algorithm::Astar) => {}
                (_, _, a) => {
                    return refused(format!(
                        "counts the nodes of IDA* or A* (--algorithm ida or astar), not {}",
                        search::Named::name(a)
                    ))
                }
            }
            s = s.with_textbook(Some(self.goal()));
        }
        Ok(s)
    }

    /// For `--metric mtm`: the single-tile solver that records are made with (table-free: it is never
    /// searched with). Refused, naming the option, with what the multi-tile search does not offer: another
    /// algorithm, textbook counts, a heuristic or tables of its own choosing.
    pub fn mtm_recorder(&self) -> anyhow::Result<Solver> {
        let refused = |what: String| Err(usage(anyhow::anyhow!("--metric mtm {what}")));
        if self.algorithm != Algorithm::Ida {
            return refused(format!(
                "searches with IDA* (--algorithm ida), not {}",
                search::Named::name(self.algorithm)
            ));
        }
        if self.textbook {
            return refused("has no textbook counts (--textbook)".into());
        }
        if self.dual {
            return refused("has no dual lookups (--dual)".into());
        }
        if self.heuristic != HeuristicChoice::Auto {
            return refused(format!(
                "uses its own heuristic (the multi-tile walking distance), not --heuristic {}",
                self.heuristic.as_str()
            ));
        }
        if !self.partition.is_empty() {
            return refused("uses no pattern databases (--partition)".into());
        }
        let plain = SearchArgs { heuristic: HeuristicChoice::Manhattan, ..self.clone() };
        plain.solver()
    }

    /// The solver these options describe; warnings go to stderr. A breadth-first search consults no
    /// heuristic, so it looks for no tables (and warns of none missing), and a heuristic asked for is
    /// said to be ignored.
    pub fn solver(&self) -> anyhow::Result<Solver> {
        let spec = TableSpec { dir: self.pdbs.clone(), partitions: self.partition.clone(), lookups: self.lookups };
        let heuristic = match self.heuristic {
            h if !self.algorithm.informed() => {
                if h != HeuristicChoice::Auto {
                    cli_common::log(&format!(
                        "solver: note: {} consults no heuristic; --heuristic {} is ignored",
                        search::Named::name(self.algorithm),
                        h.as_str()
                    ));
                }
                HeuristicChoice::Manhattan
            }
            h => h,
        };
        Solver::new(self.board(), heuristic, &spec, self.settings()?, &mut |w| cli_common::log(&format!("solver: {w}")))
            .map_err(cli_common::classified)
    }
}
