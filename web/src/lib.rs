//! The local web app that `solver serve` runs, over the puzzles' adapters (`adapters`). One page (HTML, CSS and JavaScript compiled into the
//! binary: no build step, nothing fetched) and a JSON API, on tokio and axum. The runtime exists only while
//! serving, so the other subcommands start as fast as before.
//!
//! Two puzzles are served: requests name theirs (`"puzzle"`: `sliding-tile`, the default, or
//! `water-sort`), so each keeps its own fields and the first's API did not change when the second came.

//!
//! Modules: [`app`] (the state and the request plumbing every puzzle shares), [`tiles`] and [`water`] (each
//! puzzle's side of the API, using only `app`), `page` (the page's files); this file routes requests and
//! picks the puzzle a request names.

#![warn(missing_docs)]

pub mod app;
mod page;
pub mod tiles;
pub mod water;

use anyhow::Context;
use app::{bad, json_body, query, searching, ApiError, App};
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::Uri;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use batch::limits::parse_seconds;
use cli_common::heading::{LIMITS, TABLES, TUNING};
use serde::Deserialize;
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;
use tiles::SLIDING_TILE;
use water::WATER_SORT;

/// The largest request body taken: a position is a few hundred bytes.
const MAX_BODY: usize = 16 * 1024;

#[derive(clap::Args)]
#[command(after_long_help = "Examples:
  solver serve                         # http://127.0.0.1:8080/
  solver serve --pdbs pdbs --port 0    # any free port (the address is logged)
  curl -s localhost:8080/api/solve -d '{\"board\":\"3x3\",\"tiles\":[8,6,7,2,5,4,3,0,1]}'
  curl -s 'localhost:8080/api/random?board=4x4&walk=40'
  curl -s localhost:8080/api/solve -d '{\"puzzle\":\"water-sort\",\"level\":\"abab baba - -\",\"capacity\":4}'
  curl -s 'localhost:8080/api/random?puzzle=water-sort&colors=6&empty=2&capacity=4'")]
/// The options of `solver serve`.
pub struct ServeArgs {
    /// Folder holding the pattern database files; boards without tables use linear conflict.
    #[arg(long, value_name = "DIR", env = "STP_PDBS", default_value = "pdbs", help_heading = TABLES)]
    pub pdbs: PathBuf,
    /// TCP port (0: any free port; the address is logged on stderr).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// Address to listen on: loopback by default, as the app has no authentication.
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1")]
    pub bind: IpAddr,
    /// Searches running at once, one thread each, 1 to 256; further requests wait their turn [default: all
    /// cores].
    #[arg(long, short = 'j', value_name = "N", value_parser = cli_common::parse_threads, help_heading = TUNING)]
    pub threads: Option<usize>,
    /// Each solve stops after this many seconds with status `limit` (sliding tiles: with a lower bound).
    #[arg(long, value_name = "SECS", default_value = "10", value_parser = parse_seconds, help_heading = LIMITS)]
    pub time_limit: Duration,
}

/// The app's routes over shared state: the page and its assets, and the API.
pub fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/", get(page::index))
        .route("/style.css", get(page::style))
        .route("/app.js", get(page::script))
        .route("/api/solve", post(solve))
        .route("/api/random", get(random))
        .fallback(app::not_found)
        .method_not_allowed_fallback(app::wrong_method)
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(app)
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

fn puzzle(which: Which) -> Result<Puzzle, ApiError> {
    match which.puzzle.as_deref().unwrap_or(SLIDING_TILE) {
        SLIDING_TILE => Ok(Puzzle::SlidingTile),
        WATER_SORT => Ok(Puzzle::WaterSort),
        other => Err(bad(format!("unknown puzzle '{other}' (this server knows {SLIDING_TILE} and {WATER_SORT})"))),
    }
}

/// `POST /api/solve`: the record the puzzle's `solve --format json` prints (status `limit` when the time
/// ran out).
async fn solve(State(app): State<Arc<App>>, body: Result<Bytes, BytesRejection>) -> Result<Response, ApiError> {
    let body = body.map_err(|e| ApiError::new(e.status(), e.body_text()))?;
    match puzzle(json_body(&body)?)? {
        Puzzle::SlidingTile => {
            let job = json_body::<tiles::SolveRequest>(&body)?.check()?;
            Ok(Json(searching(app, move |app| tiles::solve(app, &job)).await?).into_response())
        }
        Puzzle::WaterSort => water::solve(app, json_body(&body)?).await,
    }
}

/// `GET /api/random?board=4x4&walk=40`, or `?puzzle=water-sort&...` (see [`water::random`]).
async fn random(State(app): State<Arc<App>>, uri: Uri) -> Result<Response, ApiError> {
    match puzzle(query(&uri)?)? {
        Puzzle::SlidingTile => Ok(Json(tiles::random(&app, query(&uri)?)?).into_response()),
        Puzzle::WaterSort => water::random(app, query(&uri)?).await,
    }
}

/// `solver serve`: serves until Ctrl-C or SIGTERM (then exit code 130, as every command that is interrupted).
pub fn run(args: &ServeArgs) -> anyhow::Result<ExitCode> {
    let threads = args.threads.unwrap_or_else(search::cores);
    let app = Arc::new(App::new(args.pdbs.clone(), args.time_limit, threads));
    // Two workers are plenty for the I/O; the searches run on blocking threads, bounded by `threads`.
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    runtime.block_on(async {
        let addr = SocketAddr::new(args.bind, args.port);
        let listener = tokio::net::TcpListener::bind(addr).await.with_context(|| format!("cannot listen on {addr}"))?;
        let local = listener.local_addr()?;
        cli_common::log(&format!("solver: serving on http://{local}/ ({threads} searches at once; Ctrl-C stops)"));
        axum::serve(listener, router(app)).with_graceful_shutdown(stopped()).await.context("serving")
    })?;
    Ok(ExitCode::from(cli_common::EXIT_INTERRUPTED))
}

/// Resolves on Ctrl-C or SIGTERM.
async fn stopped() {
    let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()).ok();
    let term = async move {
        match term.as_mut() {
            Some(t) => {
                t.recv().await;
            }
            None => std::future::pending::<()>().await,
        }
    };
    tokio::select! {
        _ = tokio::signal::ctrl_c() => {}
        _ = term => {}
    }
}
