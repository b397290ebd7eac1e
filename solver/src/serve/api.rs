//! The JSON API: `POST /api/solve` and `GET /api/random`, for each puzzle a request names (`"puzzle"`:
//! `sliding-tile`, the default, or `water-sort`, whose side is in [`super::water`]). Every bad request gets
//! a 4xx answer whose body is `{"error": "the reason"}`; searches run on blocking threads, at most `threads`
//! at once, each with the server's time limit; sliding-tile searches share one solver (mapped tables) per
//! board and heuristic.

use crate::algorithm::{self, Algorithm, Follow};
use crate::generate::{random_position, random_walk, SplitMix64};
use crate::output::{goal_tiles, position_error, user_cells, user_tiles, Answer, MoveStyle, Recorder};
use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, QueryRejection};
use axum::extract::{Query, State};
use axum::http::{StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::Json;
use batch::Source;
use engine::{HeuristicChoice, Lookups, Settings, Solver, TableSpec};
use puzzle::{Board, Goal};
use serde::de::{DeserializeOwned, IgnoredAny};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::Semaphore;

/// The puzzle every request is about unless it names another.
const SLIDING_TILE: &str = "sliding-tile";
/// The second puzzle served.
pub const WATER_SORT: &str = "water-sort";
/// The longest random walk served: longer walks are no more random than a uniform position.
const MAX_WALK: u32 = 10_000;

/// What every request shares.
pub struct App {
    pdbs: PathBuf,
    /// Each search's time limit (`--time-limit`), whatever the puzzle.
    pub time_limit: Duration,
    /// One permit a running search (each on one thread).
    permits: Arc<Semaphore>,
    /// Solvers made so far, by board and heuristic: the tables are mapped once and shared.
    solvers: Mutex<HashMap<(Board, &'static str), Arc<Solver>>>,
    /// Seeds of `/api/random`: each request a different position.
    seed: AtomicU64,
}

/// The puzzles served.
#[derive(Clone, Copy)]
enum Puzzle {
    SlidingTile,
    WaterSort,
}

/// Only the `puzzle` field of a request (its other fields are read once the puzzle is known, by the
/// puzzle's own request type, which refuses fields it does not know).
#[derive(Deserialize)]
struct Which {
    puzzle: Option<String>,
}

/// A request refused: its status and the reason, sent as `{"error": reason}`.
#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    reason: String,
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, Json(serde_json::json!({ "error": self.reason }))).into_response()
    }
}

pub fn bad(reason: impl Into<String>) -> ApiError {
    ApiError { status: StatusCode::BAD_REQUEST, reason: reason.into() }
}

pub fn failed(reason: impl Into<String>) -> ApiError {
    ApiError { status: StatusCode::INTERNAL_SERVER_ERROR, reason: reason.into() }
}

pub async fn not_found() -> ApiError {
    ApiError { status: StatusCode::NOT_FOUND, reason: "no such page or API call".into() }
}

pub async fn wrong_method() -> ApiError {
    ApiError {
        status: StatusCode::METHOD_NOT_ALLOWED,
        reason: "wrong method: POST /api/solve, GET /api/random and the page".into(),
    }
}

fn board(text: Option<&str>) -> Result<Board, ApiError> {
    let text = text.unwrap_or("4x4");
    text.parse().map_err(|e| bad(format!("board '{text}': {e}")))
}

fn goal(text: Option<&str>) -> Result<Goal, ApiError> {
    text.unwrap_or("blank-first").parse().map_err(bad)
}

fn puzzle(which: Which) -> Result<Puzzle, ApiError> {
    match which.puzzle.as_deref().unwrap_or(SLIDING_TILE) {
        SLIDING_TILE => Ok(Puzzle::SlidingTile),
        WATER_SORT => Ok(Puzzle::WaterSort),
        other => Err(bad(format!("unknown puzzle '{other}' (this server knows {SLIDING_TILE} and {WATER_SORT})"))),
    }
}

/// A JSON body as `T`; any problem is a 400 saying where.
fn json_body<T: DeserializeOwned>(body: &[u8]) -> Result<T, ApiError> {
    serde_json::from_slice(body).map_err(|e| bad(format!("bad JSON: {e}")))
}

/// The query string as `T`; any problem is a 400.
fn query<T: DeserializeOwned>(uri: &Uri) -> Result<T, ApiError> {
    Query::try_from_uri(uri).map(|Query(q)| q).map_err(|e: QueryRejection| bad(e.body_text()))
}

/// Runs `work` on a blocking thread once a search permit is free: every search of every puzzle waits
/// its turn here, so at most `threads` run at once.
pub async fn searching<T: Send + 'static>(
    app: Arc<App>,
    work: impl FnOnce(&App) -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    let permit = Arc::clone(&app.permits).acquire_owned().await.map_err(|e| failed(e.to_string()))?;
    tokio::task::spawn_blocking(move || {
        let _permit = permit;
        work(&app)
    })
    .await
    .map_err(|e| failed(format!("the search failed: {e}")))?
}

impl App {
    /// A fresh seed for a random position or level: each request a different one.
    pub fn next_seed(&self) -> u64 {
        self.seed.fetch_add(1, Ordering::Relaxed)
    }
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

impl App {
    pub fn new(pdbs: PathBuf, time_limit: Duration, threads: usize) -> App {
        let seed =
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64);
        App {
            pdbs,
            time_limit,
            permits: Arc::new(Semaphore::new(threads)),
            solvers: Mutex::new(HashMap::new()),
            seed: AtomicU64::new(seed),
        }
    }

    /// The shared solver for a board and heuristic, made on first use (blocking: it maps tables).
    fn solver(&self, board: Board, choice: HeuristicChoice) -> Result<Arc<Solver>, ApiError> {
        let mut solvers = self.solvers.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(s) = solvers.get(&(board, choice.as_str())) {
            return Ok(Arc::clone(s));
        }
        let spec = TableSpec { dir: self.pdbs.clone(), partitions: Vec::new(), lookups: Lookups::default() };
        let settings = Settings::default().with_threads(1).map_err(|e| failed(e.to_string()))?;
        let solver = Solver::new(board, choice, &spec, settings, &mut |w| cli_common::log(&format!("solver: {w}")))
            .map_err(|e| if e.is_usage() { bad(e.to_string()) } else { failed(e.to_string()) })?;
        let solver = Arc::new(solver);
        solvers.insert((board, choice.as_str()), Arc::clone(&solver));
        Ok(solver)
    }

    /// Solves a checked request on this (blocking) thread.
    fn solve(&self, job: &Job) -> Result<Answer, ApiError> {
        let solver = self.solver(job.state.board(), job.choice)?;
        let limits = search::Limits { time: Some(self.time_limit), ..search::Limits::default() };
        let searched = algorithm::solve(&solver, Algorithm::Ida, &job.state, 1, &limits, Follow::default())
            .map_err(|e| failed(cli_common::one_line(&e)))?;
        let tiles = user_tiles(&job.state, job.goal);
        let src = Source { id: "1", line: 1, text: &tiles, expected: None };
        let record = Recorder::new(&solver, job.goal, MoveStyle::Tiles).searched(&src, &job.state, &searched);
        Ok(Answer { record, goal: goal_tiles(job.state.board(), job.goal) })
    }
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

/// `POST /api/solve`: the record the puzzle's `solve --format json` prints (status `limit` when the time
/// ran out).
pub async fn solve(State(app): State<Arc<App>>, body: Result<Bytes, BytesRejection>) -> Result<Response, ApiError> {
    let body = body.map_err(|e| ApiError { status: e.status(), reason: e.body_text() })?;
    match puzzle(json_body(&body)?)? {
        Puzzle::SlidingTile => {
            let job = json_body::<SolveRequest>(&body)?.check()?;
            Ok(Json(searching(app, move |app| app.solve(&job)).await?).into_response())
        }
        Puzzle::WaterSort => super::water::solve(app, json_body(&body)?).await,
    }
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

/// `GET /api/random?board=4x4&walk=40`, or `?puzzle=water-sort&...` (see [`super::water::random`]).
pub async fn random(State(app): State<Arc<App>>, uri: Uri) -> Result<Response, ApiError> {
    match puzzle(query(&uri)?)? {
        Puzzle::SlidingTile => Ok(Json(random_tiles(&app, query(&uri)?)?).into_response()),
        Puzzle::WaterSort => super::water::random(app, query(&uri)?).await,
    }
}

fn random_tiles(app: &App, q: RandomQuery) -> Result<Position, ApiError> {
    let board = board(q.board.as_deref())?;
    let goal = goal(q.goal.as_deref())?;
    let mut rng = SplitMix64::new(app.next_seed());
    let state = match q.walk {
        Some(w) if w > MAX_WALK => return Err(bad(format!("walk {w} is longer than {MAX_WALK} moves"))),
        Some(w) => random_walk(board, w, &mut rng),
        None => random_position(board, &mut rng),
    };
    Ok(Position {
        puzzle: SLIDING_TILE,
        board: board.to_string(),
        goal: goal.name().to_string(),
        tiles: user_cells(&state, goal),
    })
}
