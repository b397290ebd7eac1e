//! The entry point a command or a batch calls: one level, one set of options, one [`Solution`] whose steps
//! have been replayed and checked.

use crate::board::{cell, row_col, Dir};
use crate::level::{Goal, Level};
use crate::metric::{Heuristic, Metric};
use crate::puzzle::{Blocks, Move, State};
pub use search::{Algorithm, Limits, Outcome, Progress, Stats};
use search::{Named, Puzzle};

/// Everything that decides how a level is searched.
#[derive(Clone, Debug)]
pub struct Options {
    /// The search to run (default A*).
    pub algorithm: Algorithm,
    /// What one move is.
    pub metric: Metric,
    /// The estimate of the informed searches.
    pub heuristic: Heuristic,
    /// When to give up.
    pub limits: Limits,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            algorithm: Algorithm::Astar,
            metric: Metric::default(),
            heuristic: Heuristic::default(),
            limits: Limits::default(),
        }
    }
}

/// One move of a solution: a piece and where its top-left cell goes, and the cell steps it takes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The piece, a capital letter.
    pub letter: char,
    /// Its new top-left row.
    pub row: usize,
    /// Its new top-left column.
    pub col: usize,
    /// The cell steps from where it was, fewest first (one in the unit metric; straight in the line metric).
    pub path: Vec<Dir>,
}

impl std::fmt::Display for Step {
    /// The letter and a `U`/`D`/`L`/`R` per cell step: `BDL` is B one down, then one left.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.letter)?;
        self.path.iter().try_for_each(|d| write!(f, "{}", d.letter()))
    }
}

/// The result of one search.
#[derive(Clone, Debug)]
pub struct Solution {
    /// The steps, checked by replaying them, or why there are none.
    pub outcome: Outcome<Step>,
    /// What the search did.
    pub stats: Stats,
}

/// A request that cannot run, or a failure of the solver itself; never a fact about the level.
#[derive(Clone, Debug, thiserror::Error, PartialEq, Eq)]
pub enum SolveError {
    /// Bidirectional search needs the one goal position to search back from.
    #[error("bidirectional search needs a whole-arrangement goal (=ROWS) to search back from; this level's goal is a piece at a place, which many positions meet: use bfs, astar or ida")]
    NeedsLayout,
    /// The search's moves fail the replay: a bug.
    #[error("internal error: the search returned moves that do not solve the level ({0})")]
    BadSolution(String),
    /// The search library failed.
    #[error("internal error: {0}")]
    Search(#[from] search::SearchError),
}

/// Searches `level` without progress reports.
///
/// ```
/// use blocks::{parse_input, solve, Metric, Options, Outcome};
/// let level = parse_input("heng-dao-li-ma").unwrap();
/// let options = Options { metric: Metric::Piece, ..Options::default() };
/// let Outcome::Solved(steps) = solve(&level, &options).unwrap().outcome else { panic!() };
/// assert_eq!(steps.len(), 81);
/// ```
pub fn solve(level: &Level, options: &Options) -> Result<Solution, SolveError> {
    solve_with_progress(level, options, &mut |_| {})
}

/// Searches `level`, calling `progress` as the search goes.
pub fn solve_with_progress(
    level: &Level,
    options: &Options,
    progress: &mut dyn FnMut(&Progress),
) -> Result<Solution, SolveError> {
    if options.algorithm == Algorithm::Bibfs && !matches!(level.goal(), Goal::Layout(_)) {
        return Err(SolveError::NeedsLayout);
    }
    let puzzle = Blocks::new(level, options.metric, options.heuristic);
    let start = Blocks::start(level);
    let report = search::run(options.algorithm, &puzzle, &start, &options.limits, progress)?;
    let outcome = match report.outcome {
        Outcome::Solved(moves) => {
            let steps = describe(&puzzle, level, start, &moves);
            check(level, options.metric, &steps).map_err(SolveError::BadSolution)?;
            Outcome::Solved(steps)
        }
        Outcome::Unsolvable => Outcome::Unsolvable,
        Outcome::Stopped(stop) => Outcome::Stopped(stop),
    };
    Ok(Solution { outcome, stats: report.stats })
}

/// The steps of `moves` played from `start`.
fn describe(puzzle: &Blocks, level: &Level, start: State, moves: &[Move]) -> Vec<Step> {
    let mut at = start;
    moves
        .iter()
        .map(|&m| {
            let (row, col) = row_col(m.to);
            let step = Step { letter: level.pieces()[m.piece as usize].letter, row, col, path: puzzle.steps(at, m) };
            at = puzzle.apply(at, m);
            step
        })
        .collect()
}

/// Replays `steps` from `level`'s start under `metric`: `Ok` with the position reached (each piece's
/// top-left, indexed as [`Level::pieces`]) if every step is one legal move there (its `path` is not
/// looked at, only where the piece ends) and the last reaches the goal; else what is wrong, naming the step
/// (from 1).
///
/// ```
/// use blocks::{check, parse_level, Metric, Step};
/// let level = parse_level("A../.../... A@1,1", "").unwrap();
/// let step = |letter, row, col| Step { letter, row, col, path: vec![] };
/// assert!(check(&level, Metric::Piece, &[step('A', 1, 1)]).is_ok());
/// assert_eq!(check(&level, Metric::Line, &[step('A', 1, 1)]).unwrap_err(), "step 1: A to row 1, col 1 is not one line move");
/// ```
pub fn check(level: &Level, metric: Metric, steps: &[Step]) -> Result<Vec<(usize, usize)>, String> {
    let puzzle = Blocks::new(level, metric, Heuristic::Zero);
    let mut at = Blocks::start(level);
    for (k, s) in steps.iter().enumerate() {
        at = advance(&puzzle, level, at, s).map_err(|e| format!("step {}: {e}", k + 1))?;
    }
    if !puzzle.is_goal(&at) {
        return Err(format!("the {} steps end away from the goal", steps.len()));
    }
    Ok(crate::puzzle::unpack(at, level.pieces().len()))
}

/// `at` after `step`, if it is one move of the puzzle's metric there.
fn advance(puzzle: &Blocks, level: &Level, at: State, s: &Step) -> Result<State, String> {
    let piece = level.piece_index(s.letter).ok_or_else(|| format!("there is no piece {}", s.letter))?;
    let m = Move { piece: piece as u8, to: cell(s.row.min(7), s.col.min(7)) };
    if s.row >= level.rows() || s.col >= level.cols() || !puzzle.legal(at, m) {
        let metric = puzzle.metric().name();
        return Err(format!("{} to row {}, col {} is not one {metric} move", s.letter, s.row, s.col));
    }
    Ok(puzzle.apply(at, m))
}

/// Every move of `metric` from `level`'s start, with its cell steps: what a player may do next (a page
/// offers these to click or drag), in the order the searches try them.
///
/// ```
/// let level = blocks::parse_input("heng-dao-li-ma").unwrap();
/// let moves = blocks::legal_moves(&level, blocks::Metric::Piece);
/// let names: Vec<String> = moves.iter().map(|s| s.to_string()).collect();
/// assert_eq!(names, ["GD", "GDR", "HDL", "HD", "IR", "IRR", "JLL", "JL"]);
/// ```
pub fn legal_moves(level: &Level, metric: Metric) -> Vec<Step> {
    let puzzle = Blocks::new(level, metric, Heuristic::Zero);
    let start = Blocks::start(level);
    let mut moves = Vec::new();
    puzzle.successors(&start, |m, _| moves.push(m));
    moves.into_iter().map(|m| describe(&puzzle, level, start, &[m]).remove(0)).collect()
}

/// `level` with its start moved by `step`, if that is one move of `metric` there (the step's `path` is
/// not looked at); else what is wrong. A page plays a user's move with it.
///
/// ```
/// let level = blocks::parse_input("heng-dao-li-ma").unwrap();
/// let step = blocks::Step { letter: 'G', row: 4, col: 1, path: vec![] };
/// let next = blocks::play(&level, blocks::Metric::Unit, &step).unwrap();
/// assert_eq!(next.to_text(), "ABBC/ABBC/DEEF/D.HF/IG.J B@3,1");
/// assert!(blocks::play(&level, blocks::Metric::Unit, &blocks::Step { row: 0, ..step }).is_err());
/// ```
pub fn play(level: &Level, metric: Metric, step: &Step) -> Result<Level, String> {
    let puzzle = Blocks::new(level, metric, Heuristic::Zero);
    let at = advance(&puzzle, level, Blocks::start(level), step)?;
    Ok(level.with_start(crate::puzzle::unpack(at, level.pieces().len())))
}
