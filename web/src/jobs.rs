//! Solves the page can follow and stop: `POST /api/jobs` takes the body of `/api/solve` and starts it,
//! `GET /api/jobs/{id}` says how far it is (the time since it started, the depth or bound its search has
//! reached, the nodes expanded) and, once it is over, its answer; `DELETE /api/jobs/{id}` stops it. A solve
//! of a hard position runs up to the time limit, and a person wants to see it working and to stop it.
//!
//! A job is the same solve as `/api/solve` (its checks, its place in the queue, its search permit and its
//! time limit): a bad request or a full queue is refused when the job is asked for, not later. Stopping one
//! sets its search's cancel flag (the search ends at its next check of its limits, within milliseconds) and
//! drops what is still waiting (for a permit, for the solver), so its place is free at once. A finished
//! job is kept [`KEEP`] for its answer to be fetched, and at most `MAX_FINISHED` of them.

use crate::error::ApiError;
use adapters::served::Watch;
use serde_json::{json, Value};
use std::collections::hash_map::RandomState;
use std::collections::HashMap;
use std::future::Future;
use std::hash::BuildHasher;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::task::AbortHandle;

/// How long a finished job's answer is kept for its page to fetch: the page polls a few times a second.
pub const KEEP: Duration = Duration::from_secs(60);
/// Finished jobs kept at most: the oldest go first, so many quick jobs in a row cannot pile up answers.
const MAX_FINISHED: usize = 256;

/// A solve under way: its answer (the record `/api/solve` returns), or the refusal it would have met.
pub type Solving = Pin<Box<dyn Future<Output = Result<Value, ApiError>> + Send>>;

struct Job {
    started: Instant,
    watch: Watch,
    /// When it finished, and how.
    end: Mutex<Option<(Instant, Result<Value, ApiError>)>>,
    /// Its task, to drop what it still waits for when it is stopped.
    task: Mutex<Option<AbortHandle>>,
}

/// The jobs running and those finished within [`KEEP`].
///
/// A job's id is unguessable (64 bits from a hash keyed at random when the server starts, over a count), so a
/// page that cannot read the answers of this server (the browser keeps them from other sites) cannot stop or
/// read another page's jobs by counting either.
#[derive(Default)]
pub struct Jobs {
    jobs: Mutex<HashMap<String, Arc<Job>>>,
    count: AtomicU64,
    keys: RandomState,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Jobs {
    /// Starts `solving`, followed by `watch`, as a new job; its id.
    pub fn start(self: &Arc<Self>, solving: Solving, watch: Watch) -> String {
        self.forget_old();
        let id = format!("{:016x}", self.keys.hash_one(self.count.fetch_add(1, Ordering::Relaxed)));
        let job = Arc::new(Job { started: Instant::now(), watch, end: Mutex::new(None), task: Mutex::new(None) });
        lock(&self.jobs).insert(id.clone(), Arc::clone(&job));
        let running = Arc::clone(&job);
        let task = tokio::spawn(async move {
            let answer = solving.await;
            *lock(&running.end) = Some((Instant::now(), answer));
        });
        *lock(&job.task) = Some(task.abort_handle());
        id
    }

    /// Drops finished jobs older than [`KEEP`], and the oldest past [`MAX_FINISHED`].
    fn forget_old(&self) {
        let mut jobs = lock(&self.jobs);
        let now = Instant::now();
        let mut finished: Vec<(Instant, String)> =
            jobs.iter().filter_map(|(id, job)| lock(&job.end).as_ref().map(|(at, _)| (*at, id.clone()))).collect();
        finished.sort_unstable();
        let over = finished.len().saturating_sub(MAX_FINISHED);
        for (k, (at, id)) in finished.into_iter().enumerate() {
            if k < over || now.duration_since(at) > KEEP {
                jobs.remove(&id);
            }
        }
    }

    /// What job `id` is doing: `{"state": "running" | "done" | "failed", "seconds", "depth", "expanded"}`,
    /// with `result` (the record) once done, or `error` and `status` (the HTTP status `/api/solve` would have
    /// answered) if it failed. `None` for a job that does not exist (any more).
    pub fn report(&self, id: &str) -> Option<Value> {
        let job = lock(&self.jobs).get(id).cloned()?;
        let end = lock(&job.end);
        let seconds = end.as_ref().map_or_else(Instant::now, |(at, _)| *at).duration_since(job.started);
        let mut report = json!({
            "id": id,
            "seconds": seconds.as_secs_f64(),
            "depth": job.watch.live.depth(),
            "expanded": job.watch.live.expanded(),
        });
        let fields = match end.as_ref().map(|(_, answer)| answer) {
            None => json!({ "state": "running" }),
            Some(Ok(record)) => json!({ "state": "done", "result": record }),
            Some(Err(e)) => json!({ "state": "failed", "error": e.reason(), "status": e.status().as_u16() }),
        };
        report.as_object_mut().expect("an object").extend(fields.as_object().expect("an object").clone());
        Some(report)
    }

    /// Stops job `id` and forgets it; false if there is no such job.
    pub fn stop(&self, id: &str) -> bool {
        let Some(job) = lock(&self.jobs).remove(id) else { return false };
        job.watch.cancel.store(true, Ordering::Relaxed);
        if let Some(task) = lock(&job.task).take() {
            task.abort();
        }
        true
    }
}
