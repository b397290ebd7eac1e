//! What every request shares: the app's state (the search permits, the time limit, the solvers made so
//! far, the jobs), refusing a request (a 4xx or 5xx with `{"error": "the reason"}`), and running a search
//! on a blocking thread once a permit is free. Each puzzle's API is in its own module
//! ([`crate::tiles`], [`crate::water`]) and uses only this.
//!
//! A request's time limit starts when it asks for its [`Turn`]: the wait for a search permit counts in it,
//! and so does the wait for its solver, which is made once a board and heuristic on a thread of its own
//! (mapping tables and checking them can take longer than the limit; a request that cannot wait for that
//! long is answered 503, and the solver is ready for a later one). Only so many requests wait for a permit;
//! past them a request is refused at once (503 with `Retry-After`) rather than queued for minutes.

use crate::jobs::Jobs;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use engine::{HeuristicChoice, Lookups, Settings, Solver, TableSpec};
use puzzle::{Board, State};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::{watch, OwnedSemaphorePermit, Semaphore};

/// What every request shares.
pub struct App {
    pdbs: PathBuf,
    /// Each search's time limit (`--time-limit`), whatever the puzzle.
    pub time_limit: Duration,
    /// One permit a running search (each on one thread).
    permits: Arc<Semaphore>,
    /// One place a search running or waiting for a permit: the permits and `--queue` more.
    places: Arc<Semaphore>,
    /// Solvers made or being made, by board and heuristic: the tables are mapped once and shared.
    solvers: Mutex<HashMap<SolverKey, Making>>,
    /// Seeds of `/api/random`: each request a different position.
    seed: AtomicU64,
    /// Solves followed and stopped by the page (`/api/jobs`).
    pub jobs: Arc<Jobs>,
}

/// What a solver is made for: a board, and a heuristic by name.
type SolverKey = (Board, &'static str);
/// A solver being made on a thread of its own: `None` until it is made (or making it failed).
type Making = watch::Receiver<Option<Result<Arc<Solver>, ApiError>>>;

/// A request refused: its status and the reason, sent as `{"error": reason}`.
#[derive(Clone, Debug)]
pub struct ApiError {
    status: StatusCode,
    reason: String,
    /// Seconds after which the same request may succeed (a busy server's 503), sent as `Retry-After`.
    retry_after: Option<u64>,
}

impl ApiError {
    /// A refusal with this status.
    pub fn new(status: StatusCode, reason: impl Into<String>) -> ApiError {
        ApiError { status, reason: reason.into(), retry_after: None }
    }

    /// Why the request was refused.
    pub fn reason(&self) -> &str {
        &self.reason
    }

    /// The HTTP status it is answered with.
    pub fn status(&self) -> StatusCode {
        self.status
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut response = (self.status, Json(serde_json::json!({ "error": self.reason }))).into_response();
        if let Some(seconds) = self.retry_after {
            response.headers_mut().insert(header::RETRY_AFTER, seconds.into());
        }
        response
    }
}

/// A library's error as the answer to a request: a 400 when the user caused it ([`search::Fault`]), else a
/// 500; the same classification as the commands' exit codes.
pub fn refused(e: impl search::Fault) -> ApiError {
    if e.is_usage() {
        bad(e.to_string())
    } else {
        failed(e.to_string())
    }
}

/// A 400: the request is wrong, and `reason` says how.
pub fn bad(reason: impl Into<String>) -> ApiError {
    ApiError::new(StatusCode::BAD_REQUEST, reason)
}

/// A 500: the server failed on a good request.
pub fn failed(reason: impl Into<String>) -> ApiError {
    ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, reason)
}

/// A 404 for any other path.
pub async fn not_found() -> ApiError {
    ApiError::new(StatusCode::NOT_FOUND, "no such page or API call")
}

/// A 405 for a known path asked with the wrong method.
pub async fn wrong_method() -> ApiError {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "wrong method: POST /api/solve, /api/check, /api/hint and /api/jobs, GET and DELETE /api/jobs/ID, GET /api/random and \
         /api/boards, and GET the page",
    )
}

/// A request's turn at a search: its place among the searches running or waiting (`--threads` and
/// `--queue`), and its deadline.
pub struct Turn {
    app: Arc<App>,
    place: OwnedSemaphorePermit,
    /// `--time-limit` after the request asked for its turn: what it waits for counts in its time.
    pub deadline: Instant,
}

impl Turn {
    /// Runs `work` on a blocking thread once a search permit is free, giving it the deadline: every search
    /// of every puzzle waits its turn here, so at most `threads` run at once. A request still waiting at its
    /// deadline is refused (503 with `Retry-After`).
    pub async fn search<T: Send + 'static>(
        self,
        work: impl FnOnce(Instant) -> Result<T, ApiError> + Send + 'static,
    ) -> Result<T, ApiError> {
        let Turn { app, place, deadline } = self;
        let permit = tokio::time::timeout_at(deadline.into(), Arc::clone(&app.permits).acquire_owned())
            .await
            .map_err(|_| app.busy("busy: no search thread came free within the time limit"))?
            .map_err(|e| failed(e.to_string()))?;
        tokio::task::spawn_blocking(move || {
            let _held = (place, permit);
            work(deadline)
        })
        .await
        .map_err(|e| failed(format!("the search failed: {e}")))?
    }
}

/// The time left before `deadline`, as a search limit (zero once it has passed: the search stops at once
/// with what it knows, a lower bound at least).
pub fn time_left(deadline: Instant) -> Duration {
    deadline.saturating_duration_since(Instant::now())
}

impl App {
    /// The folder the tables are read from (`--pdbs`).
    pub fn pdbs(&self) -> &std::path::Path {
        &self.pdbs
    }

    /// A fresh seed for a random position or level: each request a different one.
    pub fn next_seed(&self) -> u64 {
        self.seed.fetch_add(1, Ordering::Relaxed)
    }

    /// A request's turn at a search, its time starting now; refused at once (503 with `Retry-After`) when
    /// every search thread is taken and `--queue` requests wait already.
    pub fn turn(self: &Arc<Self>) -> Result<Turn, ApiError> {
        let deadline = Instant::now() + self.time_limit;
        let place = Arc::clone(&self.places)
            .try_acquire_owned()
            .map_err(|_| self.busy("busy: every search thread is taken and the queue of waiting requests is full"))?;
        Ok(Turn { app: Arc::clone(self), place, deadline })
    }

    /// A 503 for a server too busy for a search: `Retry-After` is the time limit, within which every
    /// running search ends.
    fn busy(&self, reason: impl Into<String>) -> ApiError {
        let seconds = self.time_limit.as_secs() + u64::from(self.time_limit.subsec_nanos() > 0);
        ApiError { retry_after: Some(seconds.max(1)), ..ApiError::new(StatusCode::SERVICE_UNAVAILABLE, reason) }
    }
}

impl App {
    /// The state of a server with tables in `pdbs`, each request's search stopped `time_limit` after it
    /// came, at most `threads` searches at once and `queue` more requests waiting for one.
    pub fn new(pdbs: PathBuf, time_limit: Duration, threads: usize, queue: usize) -> App {
        // Random levels are named after their seed: a short one reads better (`s4821-1`), and any start does.
        let seed = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| u64::from(d.subsec_micros()) % 10_000);
        App {
            pdbs,
            time_limit,
            permits: Arc::new(Semaphore::new(threads)),
            places: Arc::new(Semaphore::new(threads + queue)),
            solvers: Mutex::new(HashMap::new()),
            seed: AtomicU64::new(seed),
            jobs: Arc::default(),
        }
    }

    /// The shared solver for a board and heuristic, made on first use on a thread of its own; a request
    /// waits for it until its `deadline`, then gets a 503 (the solver is still made, for later requests).
    /// Making one failed is not kept: the next request tries again (the tables may be there by then).
    pub async fn solver(
        self: &Arc<Self>,
        board: Board,
        choice: HeuristicChoice,
        deadline: Instant,
    ) -> Result<Arc<Solver>, ApiError> {
        let key = (board, choice.as_str());
        let mut making = {
            let mut solvers = self.solvers.lock().unwrap_or_else(|e| e.into_inner());
            match solvers.get(&key) {
                Some(making) => making.clone(),
                None => {
                    let (made, making) = watch::channel(None);
                    solvers.insert(key, making.clone());
                    let app = Arc::clone(self);
                    tokio::task::spawn_blocking(move || {
                        let solver = app.make_solver(board, choice);
                        if solver.is_err() {
                            app.solvers.lock().unwrap_or_else(|e| e.into_inner()).remove(&key);
                        }
                        made.send_replace(Some(solver));
                    });
                    making
                }
            }
        };
        let made = tokio::time::timeout_at(deadline.into(), making.wait_for(Option::is_some))
            .await
            .map_err(|_| {
                self.busy(format!(
                    "the {board} {} solver is not ready yet (its tables and move automaton are made once); try \
                     again shortly",
                    choice.as_str()
                ))
            })?
            .map_err(|_| failed(format!("making the {board} solver failed")))?;
        made.clone().unwrap_or_else(|| Err(failed("no solver")))
    }

    /// Makes a solver (blocking: it maps tables) and gets it ready to answer at once: its first solve builds
    /// the move automaton and waits for the tables' checksums, so a position already solved (the goal)
    /// does that here, where no request's search is timed.
    fn make_solver(&self, board: Board, choice: HeuristicChoice) -> Result<Arc<Solver>, ApiError> {
        let spec = TableSpec { dir: self.pdbs.clone(), partitions: Vec::new(), lookups: Lookups::default() };
        let settings = Settings::default().with_threads(1).map_err(|e| failed(e.to_string()))?;
        let solver = Solver::new(board, choice, &spec, settings, &mut |w| cli_common::log(&format!("solver: {w}")))
            .map_err(refused)?;
        solver.solve(&State::goal(board), &engine::Limits::default()).map_err(refused)?;
        Ok(Arc::new(solver))
    }
}
