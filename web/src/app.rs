//! What every request shares: the app's state (the search permits, the time limit, the solvers made so
//! far), refusing a request (a 4xx or 5xx with `{"error": "the reason"}`), reading its body or query, and
//! running a search on a blocking thread once a permit is free. Each puzzle's API is in its own module
//! ([`crate::tiles`], [`crate::water`]) and uses only this.

use axum::extract::rejection::QueryRejection;
use axum::extract::Query;
use axum::http::{StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::Json;
use engine::{HeuristicChoice, Lookups, Settings, Solver, TableSpec};
use puzzle::Board;
use serde::de::DeserializeOwned;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::Semaphore;

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

/// A request refused: its status and the reason, sent as `{"error": reason}`.
#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    reason: String,
}

impl ApiError {
    /// A refusal with this status.
    pub fn new(status: StatusCode, reason: impl Into<String>) -> ApiError {
        ApiError { status, reason: reason.into() }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, Json(serde_json::json!({ "error": self.reason }))).into_response()
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
    ApiError { status: StatusCode::BAD_REQUEST, reason: reason.into() }
}

/// A 500: the server failed on a good request.
pub fn failed(reason: impl Into<String>) -> ApiError {
    ApiError { status: StatusCode::INTERNAL_SERVER_ERROR, reason: reason.into() }
}

/// A 404 for any other path.
pub async fn not_found() -> ApiError {
    ApiError { status: StatusCode::NOT_FOUND, reason: "no such page or API call".into() }
}

/// A 405 for a known path asked with the wrong method.
pub async fn wrong_method() -> ApiError {
    ApiError {
        status: StatusCode::METHOD_NOT_ALLOWED,
        reason: "wrong method: POST /api/solve, GET /api/random and the page".into(),
    }
}

/// A JSON body as `T`; any problem is a 400 saying where.
pub fn json_body<T: DeserializeOwned>(body: &[u8]) -> Result<T, ApiError> {
    serde_json::from_slice(body).map_err(|e| bad(format!("bad JSON: {e}")))
}

/// The query string as `T`; any problem is a 400.
pub fn query<T: DeserializeOwned>(uri: &Uri) -> Result<T, ApiError> {
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

impl App {
    /// The state of a server with tables in `pdbs`, each search stopped after `time_limit`, at most
    /// `threads` searches at once.
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
    pub fn solver(&self, board: Board, choice: HeuristicChoice) -> Result<Arc<Solver>, ApiError> {
        let mut solvers = self.solvers.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(s) = solvers.get(&(board, choice.as_str())) {
            return Ok(Arc::clone(s));
        }
        let spec = TableSpec { dir: self.pdbs.clone(), partitions: Vec::new(), lookups: Lookups::default() };
        let settings = Settings::default().with_threads(1).map_err(|e| failed(e.to_string()))?;
        let solver = Solver::new(board, choice, &spec, settings, &mut |w| cli_common::log(&format!("solver: {w}")))
            .map_err(refused)?;
        let solver = Arc::new(solver);
        solvers.insert((board, choice.as_str()), Arc::clone(&solver));
        Ok(solver)
    }
}
