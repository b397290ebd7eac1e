//! Sliding tiles in the web app: `POST /api/solve` and `GET /api/random` (the default puzzle). A position
//! is its tiles row by row in the goal's labels, with the board, goal and heuristic; the answer is the
//! record `solver solve --format json` prints. Searches share one solver (mapped tables) per board and
//! heuristic, and run the engine's IDA* on one thread within the server's time limit.

use crate::app::{bad, failed, time_left, ApiError, App};
use adapters::tiles::{self, goal_tiles, position_error, user_tiles, Answer, Follow, MoveStyle, Recorder};
use axum::response::{IntoResponse, Response};
use axum::Json;
use batch::Source;
use engine::{HeuristicChoice, Solver};
use puzzle::{Board, Goal};
use search::rng::SplitMix64;
use search::Algorithm;
use serde::de::IgnoredAny;
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use std::time::Instant;

/// The puzzle every request is about unless it names another.
pub const SLIDING_TILE: &str = "sliding-tile";

/// The longest random walk served: longer walks are no more random than a uniform position.
const MAX_WALK: u32 = 10_000;

fn board(text: Option<&str>) -> Result<Board, ApiError> {
    let text = text.unwrap_or("4x4");
    text.parse().map_err(|e| bad(format!("board '{text}': {e}")))
}

fn goal(text: Option<&str>) -> Result<Goal, ApiError> {
    text.unwrap_or("blank-first").parse().map_err(bad)
}

/// `POST /api/solve`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SolveRequest {
    /// Already read (by [`Which`]).
    #[serde(default, rename = "puzzle")]
    _puzzle: IgnoredAny,
    /// `RxC`, default 4x4.
    board: Option<String>,
    /// The tiles row by row, 0 the blank, in `goal`'s labels.
    tiles: Vec<u64>,
    /// `blank-first` (default) or `blank-last`.
    goal: Option<String>,
    /// As `--heuristic`, default auto.
    heuristic: Option<String>,
}

/// A solve request checked: what the search needs.
struct Job {
    state: puzzle::State,
    goal: Goal,
    choice: HeuristicChoice,
}

impl SolveRequest {
    /// Checks everything that needs no search, so a bad request is answered at once, not after waiting
    /// for a search thread.
    fn check(&self) -> Result<Job, ApiError> {
        let board = board(self.board.as_deref())?;
        let goal = goal(self.goal.as_deref())?;
        let choice: HeuristicChoice = self.heuristic.as_deref().unwrap_or("auto").parse().map_err(bad)?;
        let words: Vec<String> = self.tiles.iter().map(u64::to_string).collect();
        let text = words.join(" ");
        let state = puzzle::parse_tiles(board, goal, &text)
            .map_err(|e| bad(format!("bad position: {}", position_error(board, goal, &text, &e))))?;
        Ok(Job { state, goal, choice })
    }
}

/// `POST /api/solve` for sliding tiles: the request checked, then its solver (made on first use) and a
/// search permit, all within its time.
pub async fn solve(app: Arc<App>, req: SolveRequest) -> Result<Response, ApiError> {
    let job = req.check()?;
    let turn = app.turn()?;
    let solver = app.solver(job.state.board(), job.choice, turn.deadline).await?;
    Ok(Json(turn.search(move |deadline| search(&solver, &job, deadline)).await?).into_response())
}

/// Solves a checked request on this (blocking) thread, stopping at `deadline`.
fn search(solver: &Solver, job: &Job, deadline: Instant) -> Result<Answer, ApiError> {
    let limits = search::Limits { time: Some(time_left(deadline)), ..search::Limits::default() };
    let searched = tiles::solve(solver, Algorithm::Ida, &job.state, 1, &limits, Follow::default())
        .map_err(|e| failed(cli_common::one_line(&e)))?;
    let tiles = user_tiles(&job.state, job.goal);
    let src = Source { id: "1", line: 1, text: &tiles, expected: None };
    let record = Recorder::new(solver, job.goal, MoveStyle::Tiles).searched(&src, &job.state, &searched);
    Ok(Answer { record, goal: goal_tiles(job.state.board(), job.goal) })
}

/// `GET /api/random` parameters.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RandomQuery {
    /// Already read (by [`Which`]).
    #[serde(default, rename = "puzzle")]
    _puzzle: IgnoredAny,
    board: Option<String>,
    /// A random walk of this many moves from the goal; without it, a uniformly random solvable position.
    walk: Option<u32>,
    goal: Option<String>,
}

/// A position, as `/api/solve` takes it.
#[derive(Serialize)]
pub struct Position {
    puzzle: &'static str,
    board: String,
    goal: String,
    tiles: Vec<u8>,
}

/// `GET /api/random` for sliding tiles: a uniformly random solvable position, or a random walk from the
/// goal, in the goal's labels.
pub fn random(app: &App, q: RandomQuery) -> Result<Position, ApiError> {
    let board = board(q.board.as_deref())?;
    let goal = goal(q.goal.as_deref())?;
    if let Some(w) = q.walk.filter(|&w| w > MAX_WALK) {
        return Err(bad(format!("walk {w} is longer than {MAX_WALK} moves")));
    }
    let tiles = tiles::draw(board, q.walk, goal, &mut SplitMix64::new(app.next_seed()));
    Ok(Position { puzzle: SLIDING_TILE, board: board.to_string(), goal: goal.name().to_string(), tiles })
}
