//! Turning a search into what the user reads: moves in the user's own labels, and records.

use super::algorithm::Searched;
use batch::{stop_text, Record, Source, Status};
use engine::{Metric, MtmSolver, Solver};
use puzzle::{Board, Goal, InstanceError, State};
use search::Named;

/// How moves are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum, Default)]
pub enum MoveStyle {
    /// The tiles slid, in order (e.g. `3 1 2`).
    #[default]
    Tiles,
    /// The blank's directions, U D L R.
    Dirs,
    /// The speedsolving convention (slidy and the sliding-puzzle community): the direction each tile moves,
    /// U D L R, repeats grouped and run together (`U2L3D`; `L3`: three tiles slid left, one row slide in the
    /// multi-tile metric).
    Udlr,
}

/// The moves of a solution as the user wrote the position: tile names and directions follow `goal`'s
/// labelling (internal positions are always blank-first).
pub fn user_moves(start: &State, moves: &[u8], goal: Goal, style: MoveStyle) -> String {
    match style {
        MoveStyle::Tiles => {
            let cells = start.board().cells();
            let words: Vec<String> = moves.iter().map(|&t| goal.user_tile(cells, t).to_string()).collect();
            words.join(" ")
        }
        MoveStyle::Dirs => start.blank_dirs(moves).into_iter().map(|d| goal.user_dir(d).letter()).collect(),
        MoveStyle::Udlr => puzzle::big::grouped_text(&slides(start, moves, goal)),
    }
}

/// Moves written as [`user_moves`] writes them in the tiles style, read back into internal tiles; `Err` with
/// the first word that is not a tile of a board of `cells` cells.
pub fn internal_moves(cells: usize, goal: Goal, text: &str) -> Result<Vec<u8>, String> {
    puzzle::instance::words(text)
        .iter()
        .map(|w| match w.parse::<u8>() {
            Ok(t) if (1..cells).contains(&(t as usize)) => Ok(goal.user_tile(cells, t)),
            _ => Err(w.to_string()),
        })
        .collect()
}

/// The solution as slides: (the direction the tiles move, in `goal`'s orientation; how many in a row). Their
/// count is the solution's length in the multi-tile metric, where sliding a row or column of several tiles
/// at once is one move.
pub fn slides(start: &State, moves: &[u8], goal: Goal) -> Vec<(puzzle::Dir, usize)> {
    let mut runs: Vec<(puzzle::Dir, usize)> = Vec::new();
    for d in start.blank_dirs(moves) {
        // The tile moves opposite to the blank.
        let tile_dir = goal.user_dir(d.opposite());
        match runs.last_mut() {
            Some((last, n)) if *last == tile_dir => *n += 1,
            _ => runs.push((tile_dir, 1)),
        }
    }
    runs
}

/// A position's cells as the user sees them: `goal`'s labels and orientation (the mapping to and from the
/// internal goal is its own inverse).
pub fn user_cells(state: &State, goal: Goal) -> Vec<u8> {
    goal.to_internal(state.tiles())
}

/// A random solvable position in `goal`'s labels, as both the `generate` command and the web app draw one:
/// a walk of `walk` moves from the goal (an easy instance of bounded length), or uniformly random.
pub fn draw(board: Board, walk: Option<u32>, goal: Goal, rng: &mut search::rng::SplitMix64) -> Vec<u8> {
    let state = match walk {
        Some(steps) => puzzle::random::random_walk(board, steps, rng),
        None => puzzle::random::random_position(board, rng),
    };
    user_cells(&state, goal)
}

/// A position's tiles as the user writes them (in `goal`'s labels), space-separated.
pub fn user_tiles(state: &State, goal: Goal) -> String {
    let words: Vec<String> = user_cells(state, goal).iter().map(u8::to_string).collect();
    words.join(" ")
}

/// The goal position in the user's labels, e.g. `0 1 2 ... 15` or `1 2 ... 15 0`: every result says which
/// goal it solved toward, since the two conventions give different answers for the same tiles.
pub fn goal_tiles(board: Board, goal: Goal) -> String {
    user_tiles(&State::goal(board), goal)
}

/// What is wrong with a position, and when the tiles are unsolvable toward `goal` but solvable toward the
/// other convention, the option that says so: the commonest mistake with positions copied from elsewhere.
pub fn position_error(board: Board, goal: Goal, text: &str, e: &InstanceError) -> String {
    match solvable_toward_other(board, goal, text, e) {
        Some(other) => {
            format!("{e}; it is solvable toward the goal {} (--goal {})", goal_tiles(board, other), other.name())
        }
        None => e.to_string(),
    }
}

/// The other goal convention, when `e` says the tiles are unsolvable toward `goal` and they are solvable
/// toward that one; each front end names its own control for it.
pub fn solvable_toward_other(board: Board, goal: Goal, text: &str, e: &InstanceError) -> Option<Goal> {
    let other = goal.other();
    (*e == InstanceError::Unsolvable && matches!(puzzle::parse_line(board, other, text), Ok(Some(_)))).then_some(other)
}

/// The other goal convention, when `text` (tiles written for `goal`) reads as a position clearly closer to it
/// (by Manhattan distance, less than half): the commonest surprise is a position solved toward `0 1 2 ...` that its
/// author meant for `1 2 ... 0`, which on odd boards is solvable either way. `(other goal, its distance,
/// this goal's)`.
pub fn closer_goal(board: Board, goal: Goal, text: &str) -> Option<(Goal, u32, u32)> {
    let here = puzzle::parse_line(board, goal, text).ok()??.state.manhattan();
    let other = goal.other();
    let there = puzzle::parse_line(board, other, text).ok()??.state.manhattan();
    // Clearly closer only: a random position is about as far from both, and a note on it would be noise.
    (2 * there < here).then_some((other, there, here))
}

/// A record with the goal it was solved toward: what `solve --format json` prints and the web API returns.
/// Batch records leave the goal out (it is the same for the whole file, and the CSV columns stay fixed).
#[derive(Debug, Clone, serde::Serialize)]
pub struct Answer {
    /// The record `batch` writes.
    #[serde(flatten)]
    pub record: Record,
    /// The goal in the user's labels (see [`goal_tiles`]).
    pub goal: String,
    /// The metric the length is counted in (`stm`, `mtm`); the web app's are `stm`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub metric: Option<&'static str>,
}

/// Who makes records: the solver (its name, lanes and tables), the goal labels and the move style.
pub struct Recorder<'a> {
    /// The solver whose name, lanes and tables the records give.
    pub solver: &'a Solver,
    /// The labels moves are written in.
    pub goal: Goal,
    /// How moves are written.
    pub style: MoveStyle,
    /// The tables as `file_name:hash` words.
    tables: String,
    /// Searches in the multi-tile metric: their solver (lengths counted in MTM, its heuristic named).
    mtm: Option<&'a MtmSolver>,
}

impl<'a> Recorder<'a> {
    /// Records of `solver`'s searches, moves written in `goal`'s labels in `style`.
    pub fn new(solver: &'a Solver, goal: Goal, style: MoveStyle) -> Recorder<'a> {
        let words: Vec<String> = solver
            .tables()
            .iter()
            .map(|(path, hash)| {
                let name = path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into());
                format!("{name}:{hash:016x}")
            })
            .collect();
        Recorder { solver, goal, style, tables: words.join(" "), mtm: None }
    }

    /// Records of searches in the multi-tile metric by `mtm`: lengths in MTM, its heuristic and no tables.
    /// The known length a line may give is not compared (instance files give single-tile lengths).
    pub fn with_mtm(self, mtm: &'a MtmSolver) -> Recorder<'a> {
        Recorder { mtm: Some(mtm), tables: String::new(), ..self }
    }

    /// This recorder, counting in MTM when a multi-tile solver is given ([`Recorder::with_mtm`]).
    pub fn counting(self, mtm: Option<&'a MtmSolver>) -> Recorder<'a> {
        match mtm {
            Some(m) => self.with_mtm(m),
            None => self,
        }
    }

    /// The multi-tile solver, for records of searches in that metric.
    pub fn mtm(&self) -> Option<&'a MtmSolver> {
        self.mtm
    }

    /// The metric lengths are counted in.
    pub fn metric(&self) -> Metric {
        if self.mtm.is_some() {
            Metric::Mtm
        } else {
            Metric::Stm
        }
    }

    /// The record of a line that is not a valid instance.
    pub fn invalid(&self, src: &Source, problem: String) -> Record {
        self.record(src, None, Some(problem))
    }

    /// The tables as `file_name:hash` words, as records give them.
    pub fn tables(&self) -> &str {
        &self.tables
    }

    /// The record of a search of `state`.
    pub fn searched(&self, src: &Source, state: &State, searched: &Searched) -> Record {
        let (counts, stored) = (searched.counts, searched.peak_stored);
        let error = searched.stopped().map(|s| stop_text(s, searched.seconds, counts.expanded, stored, searched.bound));
        self.record(src, Some((state, searched)), error)
    }

    fn record(&self, src: &Source, search: Option<(&State, &Searched)>, error: Option<String>) -> Record {
        let moves = search.and_then(|(s, r)| Some((s, r.moves()?)));
        let length = moves.map(|(s, m)| match self.mtm {
            Some(_) => engine::mtm::mtm_length(s, m) as u32,
            None => m.len() as u32,
        });
        let status = match (search, length) {
            (None, _) => Status::Invalid,
            (Some(_), Some(_)) => Status::Solved,
            (Some(_), None) => Status::Limit,
        };
        let report = search.map(|(_, r)| r);
        // A breadth-first search uses neither the heuristic nor its tables: the record does not claim them.
        let informed = report.is_none_or(|r| r.algorithm.informed());
        Record {
            length,
            moves: moves.map(|(s, m)| user_moves(s, m, self.goal, self.style)).unwrap_or_default(),
            nodes: report.map_or(0, |r| r.counts.generated),
            expanded: report.map_or(0, |r| r.counts.expanded),
            seconds: report.map_or(0.0, |r| r.seconds),
            threads: report.map_or(0, |r| r.threads),
            lanes: report.map_or(if self.mtm.is_some() { 1 } else { self.solver.lanes() }, |r| r.lanes),
            algorithm: report.map_or(String::new(), |r| r.algorithm.name().to_string()),
            heuristic: match self.mtm {
                Some(m) => m.name(),
                None => if informed { self.solver.name() } else { "none" }.to_string(),
            },
            root_h: report.and_then(|r| r.root_h),
            iterations: report.and_then(|r| r.iterations),
            bounds: report.map(|r| r.bounds()).unwrap_or_default(),
            peak_stored: report.and_then(|r| r.peak_stored),
            tables: if informed { self.tables.clone() } else { String::new() },
            // Only a shortest solution can be checked against the known optimum.
            matched: length
                .zip(src.expected)
                .filter(|_| report.is_some_and(|r| r.algorithm.optimal()) && self.mtm.is_none())
                .map(|(l, e)| l == e),
            error,
            ..src.record(status)
        }
    }
}
