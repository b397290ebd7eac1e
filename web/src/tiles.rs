//! Sliding tiles in the web app: `POST /api/solve` (and its job), `POST /api/check`, `GET /api/random` and
//! `GET /api/boards` (the default puzzle). A position is its tiles row by row in the goal's labels, with the
//! board, goal and heuristic; the answer is the record `solver solve --format json` prints, with the moves in
//! every notation of `--moves` besides. Searches share one solver (mapped tables) per board and heuristic,
//! and run the engine's IDA* on one thread within the server's time limit.

use crate::app::{bad, failed, time_left, ApiError, App};
use crate::fields::Fields;
use crate::jobs::{Solving, Watch};
use adapters::tiles::{
    self, closer_goal, goal_tiles, position_error, record::slides, user_moves, user_tiles, Answer, Follow, MoveStyle,
    Recorder,
};
use batch::Source;
use engine::{HeuristicChoice, Solver};
use puzzle::{Board, Goal};
use search::rng::SplitMix64;
use search::Algorithm;
use serde::Serialize;
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::Instant;

/// The puzzle every request is about unless it names another.
pub const SLIDING_TILE: &str = "sliding-tile";

/// The longest random walk served: longer walks are no more random than a uniform position.
const MAX_WALK: u64 = 10_000;

/// The boards the page offers, smallest first.
const BOARDS: [&str; 6] = ["2x2", "2x3", "3x3", "3x4", "4x4", "5x5"];

fn board(text: Option<String>) -> Result<Board, ApiError> {
    let text = text.as_deref().unwrap_or("4x4");
    text.parse().map_err(|e| bad(format!("board '{text}': {e}")))
}

/// The goal a request names; without one, Korf's blank-first, as on the command line (the page asks for
/// blank-last by name).
fn goal(text: Option<String>) -> Result<Goal, ApiError> {
    text.as_deref().unwrap_or("blank-first").parse().map_err(bad)
}

/// A position as a request gives it: its board, its goal, and its tiles as the command line reads them.
struct Given {
    board: Board,
    goal: Goal,
    text: String,
}

/// Reads `board`, `goal` and `tiles`.
fn given(f: &mut Fields) -> Result<Given, ApiError> {
    let board = board(f.text("board")?)?;
    let tiles = f.whole_numbers("tiles")?.ok_or_else(|| Fields::missing("tiles"))?;
    let goal = goal(f.text("goal")?)?;
    let words: Vec<String> = tiles.iter().map(u64::to_string).collect();
    Ok(Given { board, goal, text: words.join(" ") })
}

impl Given {
    /// The position, or why it is not one (naming the other goal when the tiles suit that one).
    fn state(&self) -> Result<puzzle::State, String> {
        puzzle::parse_tiles(self.board, self.goal, &self.text)
            .map_err(|e| format!("bad position: {}", position_error(self.board, self.goal, &self.text, &e)))
    }
}

/// A solve request checked: what the search needs.
struct Job {
    state: puzzle::State,
    goal: Goal,
    choice: HeuristicChoice,
}

/// The moves of a solution in every notation of `solver solve --moves`, so the page can switch between
/// them without solving again.
#[derive(Serialize)]
struct Notations {
    /// The tiles slid, in the goal's labels.
    tiles: String,
    /// The blank's directions.
    dirs: String,
    /// The speedsolving convention: the direction the tiles move, repeats grouped (`L3`).
    udlr: String,
    /// The length in the multi-tile metric (a row or column slide of several tiles counting once).
    slides: usize,
}

/// The answer of a sliding-tile solve: `solve --format json`'s record, and the moves in every notation.
#[derive(Serialize)]
struct Solved {
    #[serde(flatten)]
    answer: Answer,
    /// Absent when there is no solution.
    notation: Option<Notations>,
}

/// `POST /api/solve` for sliding tiles: everything that needs no search is checked now (a bad request is
/// answered at once, not after waiting for a search thread) and the request takes its place in the queue;
/// the solve then waits for its solver (made on first use) and a search permit, all within its time.
pub fn solve(app: &Arc<App>, mut f: Fields, watch: Watch) -> Result<Solving, ApiError> {
    let given = given(&mut f)?;
    let choice: HeuristicChoice = f.text("heuristic")?.as_deref().unwrap_or("auto").parse().map_err(bad)?;
    f.done()?;
    let job = Job { state: given.state().map_err(bad)?, goal: given.goal, choice };
    let turn = app.turn()?;
    let app = Arc::clone(app);
    Ok(Box::pin(async move {
        let solver = app.solver(job.state.board(), job.choice, turn.deadline).await?;
        let solved = turn.search(move |deadline| search(&solver, &job, deadline, &watch)).await?;
        serde_json::to_value(solved).map_err(|e| failed(e.to_string()))
    }))
}

/// Solves a checked request on this (blocking) thread, stopping at `deadline` or when `watch` says.
fn search(solver: &Solver, job: &Job, deadline: Instant, watch: &Watch) -> Result<Solved, ApiError> {
    let limits = search::Limits {
        time: Some(time_left(deadline)),
        cancel: Some(Arc::clone(&watch.cancel)),
        ..Default::default()
    };
    let follow = Follow { live: Some(Arc::clone(&watch.live)), ..Follow::default() };
    let searched = tiles::solve(solver, Algorithm::Ida, &job.state, 1, &limits, follow)
        .map_err(|e| failed(cli_common::one_line(&e)))?;
    let tiles = user_tiles(&job.state, job.goal);
    let src = Source { id: "1", line: 1, text: &tiles, expected: None };
    let record = Recorder::new(solver, job.goal, MoveStyle::Tiles).searched(&src, &job.state, &searched);
    let notation = searched.moves().map(|moves| {
        let written = |style| user_moves(&job.state, moves, job.goal, style);
        Notations {
            tiles: written(MoveStyle::Tiles),
            dirs: written(MoveStyle::Dirs),
            udlr: written(MoveStyle::Udlr),
            slides: slides(&job.state, moves, job.goal).len(),
        }
    });
    Ok(Solved { answer: Answer { record, goal: goal_tiles(job.state.board(), job.goal) }, notation })
}

/// `POST /api/check` for sliding tiles: whether the tiles are a position of the board toward the goal
/// (`valid`, else `error` says why), and `closer` when the position is clearly closer to the other goal
/// (the rule `solver solve` notes it by): the goal's name and tiles, and the Manhattan distances to it and
/// to the goal asked for. A verdict, not a refusal: only a malformed request is a 400.
pub fn check(mut f: Fields) -> Result<Value, ApiError> {
    let given = given(&mut f)?;
    f.done()?;
    if let Err(error) = given.state() {
        return Ok(json!({ "valid": false, "error": error }));
    }
    let closer = closer_goal(given.board, given.goal, &given.text).map(|(other, there, here)| {
        json!({
            "goal": other.name(),
            "tiles": goal_tiles(given.board, other),
            "distance": there,
            "distance_here": here,
        })
    });
    Ok(json!({ "valid": true, "closer": closer }))
}

/// `GET /api/random` for sliding tiles (`board`, `goal`, `walk`): a uniformly random solvable position, or
/// a random walk of `walk` moves from the goal, in the goal's labels; the body `/api/solve` takes.
pub fn random(app: &App, mut f: Fields) -> Result<Value, ApiError> {
    let board = board(f.text("board")?)?;
    let goal = goal(f.text("goal")?)?;
    let walk = f.whole("walk")?;
    f.done()?;
    if let Some(w) = walk.filter(|&w| w > MAX_WALK) {
        return Err(bad(format!("walk {w} is longer than {MAX_WALK} moves")));
    }
    let walk = walk.map(|w| w as u32);
    let tiles = tiles::draw(board, walk, goal, &mut SplitMix64::new(app.next_seed()));
    Ok(json!({ "puzzle": SLIDING_TILE, "board": board.to_string(), "goal": goal.name(), "tiles": tiles }))
}

/// `GET /api/boards`: the boards the page offers, each with the heuristic `auto` uses on it here (tables
/// when the `--pdbs` folder has a complete set) and what a person can expect of it within the time limit.
pub fn boards(app: &App) -> Value {
    let limit = app.time_limit.as_secs_f64();
    let boards: Vec<Value> = BOARDS
        .iter()
        .map(|name| {
            let board: Board = name.parse().expect("a board the page offers");
            let tables = engine::auto_choice(board, app.pdbs()).map(|names| names.join(" and "));
            let heuristic =
                tables.as_ref().map_or_else(|| "linear conflict".to_string(), |p| format!("pattern databases {p}"));
            let about = match (board.cells(), tables) {
                (..=12, _) => "any position in well under a second".to_string(),
                (16, Some(_)) => "most positions in under a second".to_string(),
                (16, None) => format!(
                    "no tables: random positions take seconds to minutes; a search stops at the {limit} s limit \
                     with a lower bound"
                ),
                (_, Some(_)) => format!(
                    "random positions take minutes to hours: a search stops at the {limit} s limit with a lower \
                     bound; shuffles of up to about 60 moves solve in seconds"
                ),
                (_, None) => format!(
                    "no tables: only short shuffles (about 30 moves) solve; random positions stop at the {limit} s \
                     limit with a lower bound"
                ),
            };
            json!({ "board": name, "heuristic": heuristic, "about": about })
        })
        .collect();
    json!({ "boards": boards, "time_limit": limit })
}
