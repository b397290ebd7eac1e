//! What a puzzle serves to the web app: one trait, [`WebPuzzle`], that each puzzle's adapter implements
//! once, beside its [`batch::Task`] (what the commands run). The web crate knows puzzles only through
//! this trait and the [`crate::registry`]: it routes a request to the puzzle it names, gives it the
//! request's fields, and runs the [`Work`] it gets back under the server's permits and time limit. So
//! the web app never names a puzzle's library, and a new puzzle adds no line to it.
//!
//! Nothing here knows HTTP or an async runtime: a refusal is a [`Refusal`] (a status code and one line),
//! and the work is a closure run on a blocking thread, which the server stops through the [`Watch`]'s
//! cancel flag and the deadline it passes in.

pub mod fields;

pub use fields::Fields;

use search::Live;
use serde_json::Value;
use std::any::Any;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A request refused: the HTTP status it is answered with, and the reason in one line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    /// 400 when the request is wrong, 500 when the server failed, 503 when it is busy.
    pub status: u16,
    /// Why, in one line.
    pub reason: String,
}

/// A 400: the request is wrong, and `reason` says how.
pub fn bad(reason: impl Into<String>) -> Refusal {
    Refusal { status: 400, reason: reason.into() }
}

/// A 500: the server failed on a good request.
pub fn failed(reason: impl Into<String>) -> Refusal {
    Refusal { status: 500, reason: reason.into() }
}

/// A library's error as a refusal: a 400 when the user caused it ([`search::Fault`]), else a 500; the same
/// classification as the commands' exit codes.
pub fn refused(e: impl search::Fault) -> Refusal {
    if e.is_usage() {
        bad(e.to_string())
    } else {
        failed(e.to_string())
    }
}

/// What a search is followed and stopped by: its progress for another thread to read, and its cancel
/// flag. A search nobody follows gets fresh ones, which cost nothing.
#[derive(Clone, Default)]
pub struct Watch {
    /// The depth (IDA*'s bound, A*'s f) and the nodes expanded so far.
    pub live: Arc<Live>,
    /// Set to stop the search: by a job's stop, and by the server at the request's deadline.
    pub cancel: Arc<AtomicBool>,
}

impl Watch {
    /// The limits of a search that must end by `deadline` or when this watch is cancelled.
    pub fn limits(&self, deadline: Instant) -> search::Limits {
        search::Limits {
            time: Some(time_left(deadline)),
            cancel: Some(Arc::clone(&self.cancel)),
            ..search::Limits::default()
        }
    }

    /// Whether the search was stopped by the server at its deadline rather than by the user.
    pub fn stopped_by(&self, why: search::Stop, deadline: Instant) -> search::Stop {
        if why == search::Stop::Cancelled && Instant::now() >= deadline {
            search::Stop::TimeLimit
        } else {
            why
        }
    }
}

/// The time left before `deadline`, as a search limit (zero once it has passed: the search stops at once
/// with what it knows).
pub fn time_left(deadline: Instant) -> Duration {
    deadline.saturating_duration_since(Instant::now())
}

/// What the server tells every puzzle: where the tables are, the time a request may take, and fresh seeds.
pub struct Host {
    pdbs: PathBuf,
    time_limit: Duration,
    seed: AtomicU64,
}

impl Host {
    /// A server reading tables from `pdbs`, each request within `time_limit`, its random draws seeded from
    /// `seed` on.
    pub fn new(pdbs: PathBuf, time_limit: Duration, seed: u64) -> Host {
        Host { pdbs, time_limit, seed: AtomicU64::new(seed) }
    }

    /// The folder the tables are read from (`--pdbs`).
    pub fn pdbs(&self) -> &Path {
        &self.pdbs
    }

    /// Each request's time limit (`--time-limit`).
    pub fn time_limit(&self) -> Duration {
        self.time_limit
    }

    /// A fresh seed for a random position or level: each request a different one.
    pub fn next_seed(&self) -> u64 {
        self.seed.fetch_add(1, Ordering::Relaxed)
    }
}

/// What a request's work is given when it runs: its deadline, its watch, and what its [`Need`] made.
pub struct Context {
    /// When the request's time is up (the server also cancels the watch then).
    pub deadline: Instant,
    /// Progress to report and the cancel flag to heed.
    pub watch: Watch,
    /// What the work's [`Need`] made, if it had one.
    pub made: Option<Arc<dyn Any + Send + Sync>>,
}

impl Context {
    /// What the [`Need`] made, as the type its puzzle made it.
    pub fn made<T: Any + Send + Sync>(&self) -> Result<Arc<T>, Refusal> {
        let made = self.made.clone().ok_or_else(|| failed("the work's solver was not made"))?;
        made.downcast::<T>().map_err(|_| failed("the work's solver is of another kind"))
    }
}

/// Something a puzzle's work needs made once and shared by every later request that names the same key
/// (a sliding-tile solver: its tables mapped and checked). The server makes it on a thread of its own; a
/// request that cannot wait for it within its time is answered 503, and the next one finds it made.
pub struct Need {
    /// What it is made for: requests with the same key share it.
    pub key: String,
    /// What it is, for the 503 of a request that could not wait ("the 4x4 auto solver").
    pub what: String,
    /// Makes it (blocking).
    pub make: Box<dyn FnOnce() -> Result<Arc<dyn Any + Send + Sync>, Refusal> + Send>,
}

/// Which of the server's permits a piece of work waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pool {
    /// A search a user asked for: a solve, a hint.
    Search,
    /// A random draw: kept off the search permits, so that a flood of draws cannot starve the solves.
    Draw,
}

/// The answer a request gets once its work has run.
pub type Answer = Result<Value, Refusal>;

/// A request checked and ready to run: what it needs made first, which permits it waits for, and the
/// search itself, run on a blocking thread within the request's time.
pub struct Work {
    /// Made once and shared, before the search.
    pub need: Option<Need>,
    /// The permits it waits for.
    pub pool: Pool,
    /// The search: the answer, or why there is none.
    pub run: Box<dyn FnOnce(Context) -> Answer + Send>,
}

impl Work {
    /// A search waiting for a search permit, needing nothing made first.
    pub fn search(run: impl FnOnce(Context) -> Answer + Send + 'static) -> Work {
        Work { need: None, pool: Pool::Search, run: Box::new(run) }
    }

    /// A random draw, on the draw permits.
    pub fn draw(run: impl FnOnce(Context) -> Answer + Send + 'static) -> Work {
        Work { need: None, pool: Pool::Draw, run: Box::new(run) }
    }
}

/// A puzzle as the web app serves it. Every request names its puzzle (`"puzzle"`, the registry's first
/// when it names none); the server has read that field, and the puzzle reads the rest with [`Fields`],
/// ending with [`Fields::done`] so a misspelt field is refused. Everything that needs no search is
/// checked in these calls (a bad request is answered at once, not after waiting for a permit).
pub trait WebPuzzle: Send + Sync {
    /// The name requests give (`sliding-tile`): lowercase words joined by `-`.
    fn name(&self) -> &'static str;

    /// The name a person reads (`Sliding tiles`).
    fn title(&self) -> &'static str;

    /// The page's module for this puzzle: an ES module whose default export the page's shell drives (see
    /// the shell's comment for what it must have).
    fn page(&self) -> &'static str;

    /// What the page offers of it (boards or levels, heuristics, algorithms, what to expect within the
    /// time limit): `GET /api/puzzles` lists each puzzle's with its name and title.
    fn about(&self, host: &Host) -> Value;

    /// `POST /api/check`: whether the instance is one (`valid`, else `error` saying why), and what the page
    /// shows of it. A verdict, not a refusal: only a malformed request is refused.
    fn check(&self, f: Fields) -> Answer;

    /// `POST /api/solve` and `/api/jobs`: the instance solved; the answer is the record the puzzle's
    /// command prints with `--format json`, with whatever the page needs besides.
    fn solve(&self, host: &Arc<Host>, f: Fields) -> Result<Work, Refusal>;

    /// `POST /api/hint`: help from a position; refused by puzzles that have none.
    fn hint(&self, host: &Arc<Host>, f: Fields) -> Result<Work, Refusal> {
        let _ = (host, f);
        Err(bad(format!("hints are not given for {} (the puzzles with hints: {})", self.name(), with_hints())))
    }

    /// Whether [`WebPuzzle::hint`] gives hints.
    fn has_hints(&self) -> bool {
        false
    }

    /// `GET /api/random`: a random instance, as the body `/api/solve` takes.
    fn random(&self, host: &Arc<Host>, f: Fields) -> Result<Work, Refusal>;
}

/// The names of the registered puzzles that give hints, for a refusal.
fn with_hints() -> String {
    let names: Vec<&str> = crate::registry::puzzles().iter().filter(|p| p.has_hints()).map(|p| p.name()).collect();
    if names.is_empty() {
        "none".to_string()
    } else {
        names.join(", ")
    }
}
