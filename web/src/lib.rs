//! The local web app that `solver serve` runs, over the puzzles' adapters (`adapters`). One page (HTML, CSS and
//! JavaScript compiled into the binary: no build step, nothing fetched) and a JSON API, on tokio and axum.
//! The runtime exists only while serving, so the other subcommands start as fast as before.
//!
//! Every puzzle of [`adapters::registry`] is served, and none is named here: a request names its puzzle
//! (`"puzzle"`, the registry's first when it names none), the puzzle reads the rest of the request and hands
//! back the work to run ([`adapters::served::WebPuzzle`]), and the page loads each puzzle's module from
//! `/puzzles/NAME.js` into the shared shell.
//!
//! Modules: [`app`] (the state, the permits and running a puzzle's work), [`error`] (a refusal as it is
//! sent), [`jobs`] (solves the page follows and stops), `page` (the page's files), [`gate`] (the checks
//! every request passes first: its `Host`, where it comes from, its declared length, a POST's
//! `Content-Type`), [`listen`] (connections, with their timeouts, their cap and shutdown); this file routes
//! requests to the puzzle a request names.

#![warn(missing_docs)]

pub mod app;
pub mod error;
pub mod gate;
pub mod jobs;
pub mod listen;
mod page;

use adapters::registry;
use adapters::served::{Fields, Watch, WebPuzzle};
use anyhow::Context;
use app::App;
use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, FromRequest, Path, Request, State};
use axum::http::{StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use batch::limits::parse_seconds;
use cli_common::heading::{LIMITS, TABLES, TUNING};
use error::{bad, ApiError};
use gate::Gate;
use jobs::Solving;
use serde_json::{json, Value};
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

/// The largest request body taken: a position is a few hundred bytes.
const MAX_BODY: usize = 16 * 1024;
/// The time a client has to send a request's body once its headers are in (then: 408). [`MAX_BODY`] takes
/// a fraction of a second on any network.
const BODY_TIMEOUT: Duration = Duration::from_secs(5);

#[derive(clap::Args)]
#[command(after_long_help = after_help())]
/// The options of `solver serve`.
pub struct ServeArgs {
    /// Folder holding the pattern database files; boards without tables use linear conflict.
    #[arg(long, value_name = "DIR", env = "STP_PDBS", default_value = "pdbs", help_heading = TABLES)]
    pub pdbs: PathBuf,
    /// TCP port (0: any free port; the address is logged on stderr).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// Address to listen on: loopback by default, as the app has no authentication (any other address is
    /// warned about).
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1")]
    pub bind: IpAddr,
    /// Also answer requests whose `Host` is NAME (with the server's port), such as a name this machine has
    /// on the network; repeatable. localhost and IP addresses are always answered; other names are refused,
    /// so that a web page cannot reach the server through a name of its own (DNS rebinding).
    #[arg(long, value_name = "NAME", value_parser = gate::parse_host_name)]
    pub allow_host: Vec<String>,
    /// Searches running at once, one thread each, 1 to 256; further requests wait their turn [default: all
    /// cores].
    #[arg(long, short = 'j', value_name = "N", value_parser = cli_common::parse_threads, help_heading = TUNING)]
    pub threads: Option<usize>,
    /// Requests that may wait for a search thread; past them a request is refused at once (503 with
    /// Retry-After) [default: twice --threads].
    #[arg(long, value_name = "N", help_heading = TUNING)]
    pub queue: Option<u16>,
    /// Each request stops after this many seconds with status `limit` (sliding tiles: with a lower bound).
    /// The time counts from the request's arrival: waiting for a search thread (a request still waiting at
    /// the limit is refused with 503) and loading the tables of a board's first request count in it.
    #[arg(long, value_name = "SECS", default_value = "10", value_parser = parse_seconds, help_heading = LIMITS)]
    pub time_limit: Duration,
}

/// The end of `serve --help`: examples, and the limits every client meets (from the constants that set them).
fn after_help() -> String {
    format!(
        "Examples:
  # http://127.0.0.1:8080/
  solver serve
  # any free port (the address is logged)
  solver serve --pdbs pdbs --port 0
  curl -s localhost:8080/api/solve -H 'Content-Type: application/json' \\
       -d '{{\"board\":\"3x3\",\"tiles\":[8,6,7,2,5,4,3,0,1]}}'
  curl -s 'localhost:8080/api/random?board=4x4&walk=40'
  curl -s localhost:8080/api/solve -H 'Content-Type: application/json' \\
       -d '{{\"puzzle\":\"water-sort\",\"level\":\"abab baba - -\",\"capacity\":4}}'
  curl -s \\
       'localhost:8080/api/random?puzzle=water-sort&colors=6&empty=2&capacity=4'
  curl -s localhost:8080/api/hint -H 'Content-Type: application/json' \\
       -d '{{\"puzzle\":\"water-sort\",\"level\":\"ab ba - -\",\"capacity\":2}}'

What a web page could send on its own is refused, so that a page the user
visits cannot drive the server: a POST must be sent with Content-Type:
application/json (else 415), and the Host must be localhost or an IP address
with the server's port, or a name given with --allow-host (else 403). A
request's headers must arrive within {headers} s and its body within {body} s
more; at most {connections} connections are open at once (more wait to be
accepted). Ctrl-C or SIGTERM stops the server: requests under way get {grace} s
to finish.",
        headers = listen::HEADER_TIMEOUT.as_secs(),
        body = BODY_TIMEOUT.as_secs(),
        connections = listen::MAX_CONNECTIONS,
        grace = listen::GRACE.as_secs(),
    )
}

/// The app's routes over shared state: the page, its shell and each puzzle's module, and the API, each
/// request through the `gate`'s checks first.
pub fn router(app: Arc<App>, gate: Gate) -> Router {
    Router::new()
        .route("/", get(page::index))
        .route("/style.css", get(page::style))
        .route("/app.js", get(page::script))
        .route("/puzzles/{module}", get(module))
        .route("/api/solve", post(solve))
        .route("/api/jobs", post(start_job))
        .route("/api/jobs/{id}", get(job).delete(stop_job))
        .route("/api/check", post(check))
        .route("/api/hint", post(hint))
        .route("/api/random", get(random))
        .route("/api/puzzles", get(puzzles))
        .route("/api/boards", get(boards))
        .fallback(error::not_found)
        .method_not_allowed_fallback(error::wrong_method)
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(axum::middleware::from_fn_with_state(Arc::new(gate), gate::check))
        .with_state(app)
}

/// The puzzle a request names in its `puzzle` field (the registry's first when it names none).
fn puzzle(f: &mut Fields) -> Result<&'static dyn WebPuzzle, ApiError> {
    match f.text("puzzle")? {
        None => Ok(registry::default_puzzle()),
        Some(name) => registry::find(&name)
            .ok_or_else(|| bad(format!("unknown puzzle '{name}' (this server knows {})", registry::names()))),
    }
}

/// A POST's body as fields, once it has arrived within [`BODY_TIMEOUT`].
async fn body(request: Request) -> Result<Fields, ApiError> {
    let body = tokio::time::timeout(BODY_TIMEOUT, Bytes::from_request(request, &()))
        .await
        .map_err(|_| {
            ApiError::new(StatusCode::REQUEST_TIMEOUT, format!("the body did not arrive within {BODY_TIMEOUT:?}"))
        })?
        .map_err(|e| ApiError::new(e.status(), e.body_text()))?;
    Ok(Fields::body(&body)?)
}

/// A query string's fields (`?board=4x4&walk=40`).
fn query(uri: &Uri) -> Result<Fields, ApiError> {
    let axum::extract::Query(pairs) = axum::extract::Query::<Vec<(String, String)>>::try_from_uri(uri)
        .map_err(|_| bad("the query string is not name=value pairs joined by &"))?;
    Ok(Fields::query(pairs)?)
}

/// A solve of the puzzle `f` names, checked and queued: what `/api/solve` awaits and a job runs.
fn start(app: &Arc<App>, mut f: Fields, watch: Watch) -> Result<Solving, ApiError> {
    let work = puzzle(&mut f)?.solve(&app.host, f)?;
    app.start(work, watch)
}

/// `POST /api/solve`: the record the puzzle's `solve --format json` prints (status `limit` when the time
/// ran out).
async fn solve(State(app): State<Arc<App>>, request: Request) -> Result<Response, ApiError> {
    let solving = start(&app, body(request).await?, Watch::default())?;
    Ok(Json(solving.await?).into_response())
}

/// `POST /api/jobs`: the body of `/api/solve`, started as a job (202 with its `id`); refused at once as
/// `/api/solve` would be.
async fn start_job(State(app): State<Arc<App>>, request: Request) -> Result<Response, ApiError> {
    let watch = Watch::default();
    let solving = start(&app, body(request).await?, watch.clone())?;
    let id = app.jobs.start(solving, watch);
    Ok((StatusCode::ACCEPTED, Json(json!({ "id": id }))).into_response())
}

fn no_job(id: &str) -> ApiError {
    ApiError::new(StatusCode::NOT_FOUND, format!("no job '{id}' (a finished job is kept {} s)", jobs::KEEP.as_secs()))
}

/// `GET /api/jobs/ID`: how far the job is, and its answer once it has one (see [`jobs::Jobs::report`]).
async fn job(State(app): State<Arc<App>>, Path(id): Path<String>) -> Result<Json<Value>, ApiError> {
    app.jobs.report(&id).map(Json).ok_or_else(|| no_job(&id))
}

/// `DELETE /api/jobs/ID`: stops the job (its search ends within milliseconds) and forgets it.
async fn stop_job(State(app): State<Arc<App>>, Path(id): Path<String>) -> Result<Json<Value>, ApiError> {
    if app.jobs.stop(&id) {
        Ok(Json(json!({ "id": id, "state": "stopped" })))
    } else {
        Err(no_job(&id))
    }
}

/// `POST /api/check`: the puzzle's verdict on a position or level, without solving it.
async fn check(request: Request) -> Result<Json<Value>, ApiError> {
    let mut f = body(request).await?;
    Ok(Json(puzzle(&mut f)?.check(f)?))
}

/// `POST /api/hint`: help from a position, for the puzzles that give it.
async fn hint(State(app): State<Arc<App>>, request: Request) -> Result<Json<Value>, ApiError> {
    let mut f = body(request).await?;
    let work = puzzle(&mut f)?.hint(&app.host, f)?;
    Ok(Json(app.start(work, Watch::default())?.await?))
}

/// `GET /api/random?board=4x4&walk=40`, or `?puzzle=NAME&...`: a random instance, as the body `/api/solve`
/// takes.
async fn random(State(app): State<Arc<App>>, uri: Uri) -> Result<Json<Value>, ApiError> {
    let mut f = query(&uri)?;
    let work = puzzle(&mut f)?.random(&app.host, f)?;
    Ok(Json(app.start(work, Watch::default())?.await?))
}

/// `GET /api/puzzles`: every puzzle served, in the page's order, with its name, title, what the page
/// offers of it, whether it gives hints, and where its page module is.
async fn puzzles(State(app): State<Arc<App>>) -> Json<Value> {
    let all: Vec<Value> = registry::puzzles()
        .iter()
        .map(|p| {
            json!({
                "name": p.name(),
                "title": p.title(),
                "hints": p.has_hints(),
                "module": format!("/puzzles/{}.js", p.name()),
                "about": p.about(&app.host),
            })
        })
        .collect();
    Json(json!({ "puzzles": all, "time_limit": app.host.time_limit().as_secs_f64() }))
}

/// `GET /api/boards`: what the page offers of the default puzzle (the sliding-tile boards, with the
/// heuristic each gets here).
async fn boards(State(app): State<Arc<App>>) -> Json<Value> {
    Json(registry::default_puzzle().about(&app.host))
}

/// `GET /puzzles/NAME.js`: a puzzle's page module.
async fn module(Path(module): Path<String>) -> Result<Response, ApiError> {
    let found = module.strip_suffix(".js").and_then(registry::find);
    let p = found.ok_or_else(|| ApiError::new(StatusCode::NOT_FOUND, format!("no page module '{module}'")))?;
    Ok(page::module(p.page()))
}

/// `solver serve`: serves until Ctrl-C or SIGTERM (then exit code 130, as every command that is interrupted).
pub fn run(args: &ServeArgs) -> anyhow::Result<ExitCode> {
    let threads = args.threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let queue = args.queue.map_or(2 * threads, usize::from);
    let app = Arc::new(App::new(args.pdbs.clone(), args.time_limit, threads, queue));
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
        let searches = match threads {
            1 => "one search at a time".to_string(),
            n => format!("{n} searches at once"),
        };
        cli_common::log(&format!("solver: serving on http://{local}/ ({searches}; Ctrl-C stops)"));
        if let Some(warning) = exposed(local) {
            cli_common::log(&warning);
        }
        let gate = Gate { port: local.port(), names: args.allow_host.clone(), max_body: MAX_BODY };
        listen::serve(listener, router(app, gate), stopped()).await;
        anyhow::Ok(())
    })?;
    // Searches still running are abandoned with the process, not waited for.
    runtime.shutdown_background();
    Ok(ExitCode::from(cli_common::EXIT_INTERRUPTED))
}

/// The warning for a server that listens beyond this machine (`--bind` other than loopback): nothing stops
/// anyone who reaches it.
fn exposed(local: SocketAddr) -> Option<String> {
    (!local.ip().is_loopback()).then(|| {
        format!(
            "solver: warning: listening on {local} as --bind asks: the API has no authentication, and anyone who \
             can reach this address can run searches here"
        )
    })
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn listening_beyond_loopback_is_warned_about() {
        for addr in ["0.0.0.0:8080", "[::]:8080", "192.168.1.5:80"] {
            let warning = exposed(addr.parse().unwrap()).unwrap();
            assert!(warning.contains("no authentication") && warning.contains(addr), "{warning}");
        }
        for addr in ["127.0.0.1:8080", "[::1]:8080", "127.0.0.2:9000"] {
            assert_eq!(exposed(addr.parse().unwrap()), None);
        }
    }
}
