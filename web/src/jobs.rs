//! Solves the page can follow and stop: `POST /api/jobs` takes the body of `/api/solve` and starts it,
//! `GET /api/jobs/{id}` says how far it is (the time since it started, the depth or bound its search has
//! reached, the nodes expanded) and, once it is over, its answer; `DELETE /api/jobs/{id}` stops it. A solve
//! of a hard position runs up to the time limit, and a person wants to see it working and to stop it.
//!
//! A job is the same solve as `/api/solve` (its checks, its place in the queue, its search permit and its
//! time limit): a bad request or a full queue is refused when the job is asked for, not later. Stopping one
//! sets its search's cancel flag (the search ends at its next check of its limits, within milliseconds) and
//! drops what is still waiting (for a permit, for the solver), so its place is free at once. A finished
//! job is kept [`KEEP`] for its answer to be fetched, and at most [`MAX_FINISHED`] of them.

use crate::app::ApiError;
use search::Live;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::task::AbortHandle;

/// How long a finished job's answer is kept for its page to fetch: the page polls a few times a second.
pub const KEEP: Duration = Duration::from_secs(60);
/// Finished jobs kept at most: the oldest go first, so many quick jobs in a row cannot pile up answers.
const MAX_FINISHED: usize = 256;

/// A solve under way: its answer (the record `/api/solve` returns), or the refusal it would have met.
pub type Solving = Pin<Box<dyn Future<Output = Result<Value, ApiError>> + Send>>;

/// What a search is followed and stopped by: its progress for another thread to read, and its cancel flag.
/// A search nobody follows gets fresh ones, which cost nothing.
#[derive(Clone, Default)]
pub struct Watch {
    /// The depth (IDA*'s bound, A*'s f) and the nodes expanded so far.
    pub live: Arc<Live>,
    /// Set to stop the search.
    pub cancel: Arc<AtomicBool>,
}

struct Job {
    started: Instant,
    watch: Watch,
    /// When it finished, and how.
    end: Mutex<Option<(Instant, Result<Value, ApiError>)>>,
    /// Its task, to drop what it still waits for when it is stopped.
    task: Mutex<Option<AbortHandle>>,
}

/// The jobs running and those finished within [`KEEP`].
#[derive(Default)]
pub struct Jobs {
    jobs: Mutex<HashMap<u64, Arc<Job>>>,
    count: AtomicU64,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Jobs {
    /// Starts `solving`, followed by `watch`, as a new job; its id.
    pub fn start(self: &Arc<Self>, solving: Solving, watch: Watch) -> u64 {
        self.forget_old();
        let id = self.count.fetch_add(1, Ordering::Relaxed) + 1;
        let job = Arc::new(Job { started: Instant::now(), watch, end: Mutex::new(None), task: Mutex::new(None) });
        lock(&self.jobs).insert(id, Arc::clone(&job));
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
        let mut finished: Vec<(Instant, u64)> =
            jobs.iter().filter_map(|(&id, job)| lock(&job.end).as_ref().map(|(at, _)| (*at, id))).collect();
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
    pub fn report(&self, id: u64) -> Option<Value> {
        let job = lock(&self.jobs).get(&id).cloned()?;
        let end = lock(&job.end);
        let seconds = end.as_ref().map_or_else(Instant::now, |(at, _)| *at).duration_since(job.started);
        let mut report = json!({
            "id": id.to_string(),
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
    pub fn stop(&self, id: u64) -> bool {
        let Some(job) = lock(&self.jobs).remove(&id) else { return false };
        job.watch.cancel.store(true, Ordering::Relaxed);
        if let Some(task) = lock(&job.task).take() {
            task.abort();
        }
        true
    }
}
