//! What every request shares: the [`Host`] every puzzle is told of, the permits searches and draws wait
//! for, what the puzzles' work needs made once (a sliding-tile solver with its tables), and the jobs; and
//! running a puzzle's [`Work`] under them. Puzzles are known here only as the work they hand over.
//!
//! A request's time limit starts when its work is started: the wait for what it needs made counts in it,
//! and so does the wait for a search permit. What a puzzle needs made is made once a key on a thread of its
//! own (mapping tables and checking them can take longer than the limit); a request that cannot wait for
//! that long is answered 503, and it is ready for a later one. Only so many requests wait for a search
//! permit; past them a request is refused at once (503 with `Retry-After`) rather than queued for minutes.
//! Random draws have permits of their own, so a flood of them cannot keep a solve from its thread. A moment
//! after the deadline the work's watch is cancelled, which stops a piece of work of several searches (a hint, a
//! plan) as a whole; the timer ends with the work.

use crate::error::{failed, ApiError};
use crate::jobs::{Jobs, Solving};
use adapters::served::{Context, Host, Need, Pool, Watch, Work};
use std::any::Any;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::{watch, OwnedSemaphorePermit, Semaphore};

/// Something made for a puzzle's work, shared by every request with its key.
type Made = Arc<dyn Any + Send + Sync>;
/// How long after its deadline a piece of work is cancelled: each of its searches stops at the deadline by
/// its own time limit (and says so: status `limit`); the cancel ends what would run on past it.
const GRACE: Duration = Duration::from_millis(250);
/// A [`Need`] being made on a thread of its own: `None` until it is made (or making it failed).
type Making = watch::Receiver<Option<Result<Made, ApiError>>>;

/// What every request shares.
pub struct App {
    /// What every puzzle is told: the tables' folder, the time limit, seeds.
    pub host: Arc<Host>,
    /// One permit a running search (each on one thread).
    permits: Arc<Semaphore>,
    /// One place a search running or waiting for a permit: the permits and `--queue` more.
    places: Arc<Semaphore>,
    /// One permit a random draw running: as many as search threads, apart from theirs.
    draws: Arc<Semaphore>,
    /// What the puzzles' work needs, made or being made, by the need's key.
    made: Mutex<HashMap<String, Making>>,
    /// Solves followed and stopped by the page (`/api/jobs`).
    pub jobs: Arc<Jobs>,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl App {
    /// The state of a server with tables in `pdbs`, each request's work stopped `time_limit` after it came,
    /// at most `threads` searches at once and `queue` more requests waiting for one.
    pub fn new(pdbs: PathBuf, time_limit: Duration, threads: usize, queue: usize) -> App {
        // Random levels are named after their seed: a short one reads better (`s4821-1`), and any start does.
        let seed = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| u64::from(d.subsec_micros()) % 10_000);
        App {
            host: Arc::new(Host::new(pdbs, time_limit, seed)),
            permits: Arc::new(Semaphore::new(threads)),
            places: Arc::new(Semaphore::new(threads + queue)),
            draws: Arc::new(Semaphore::new(threads)),
            made: Mutex::new(HashMap::new()),
            jobs: Arc::default(),
        }
    }

    /// A 503 for a server too busy: `Retry-After` is the time limit, within which every running search ends.
    fn busy(&self, reason: impl Into<String>) -> ApiError {
        let limit = self.host.time_limit();
        ApiError::busy(reason, limit.as_secs() + u64::from(limit.subsec_nanos() > 0))
    }

    /// Starts `work`, followed and stopped by `watch`, its time starting now: its place is taken at once
    /// (refused with 503 when every search thread is taken and `--queue` requests wait already, or every
    /// draw permit is taken), and the rest happens when the answer is awaited.
    pub fn start(self: &Arc<Self>, work: Work, watch: Watch) -> Result<Solving, ApiError> {
        let deadline = Instant::now() + self.host.time_limit();
        let place = match work.pool {
            Pool::Search => Arc::clone(&self.places).try_acquire_owned().map_err(|_| {
                self.busy("busy: every search thread is taken and the queue of waiting requests is full")
            })?,
            Pool::Draw => Arc::clone(&self.draws)
                .try_acquire_owned()
                .map_err(|_| self.busy("busy: every thread for random draws is taken"))?,
        };
        let app = Arc::clone(self);
        Ok(Box::pin(async move { app.run(work, watch, place, deadline).await }))
    }

    /// Runs `work` holding `place`: what it needs made, then a search permit (searches only), then the work
    /// on a blocking thread, its watch cancelled a moment after `deadline`.
    async fn run(
        self: Arc<Self>,
        work: Work,
        watch: Watch,
        place: OwnedSemaphorePermit,
        deadline: Instant,
    ) -> Result<serde_json::Value, ApiError> {
        let made = match work.need {
            Some(need) => Some(self.made(need, deadline).await?),
            None => None,
        };
        let permit = match work.pool {
            Pool::Search => Some(
                tokio::time::timeout_at(deadline.into(), Arc::clone(&self.permits).acquire_owned())
                    .await
                    .map_err(|_| self.busy("busy: no search thread came free within the time limit"))?
                    .map_err(|e| failed(e.to_string()))?,
            ),
            Pool::Draw => None,
        };
        let cx = Context { deadline, watch: watch.clone(), made };
        let run = work.run;
        let mut task = tokio::task::spawn_blocking(move || {
            let _held = (place, permit);
            run(cx)
        });
        let joined = tokio::select! {
            joined = &mut task => joined,
            () = tokio::time::sleep_until((deadline + GRACE).into()) => {
                watch.cancel.store(true, Ordering::Relaxed);
                task.await
            }
        };
        Ok(joined.map_err(|e| failed(format!("the search failed: {e}")))??)
    }

    /// What `need` makes, made on first use of its key on a thread of its own; a request waits for it until
    /// its `deadline`, then gets a 503 (it is still made, for later requests). Making one that failed is not
    /// kept: the next request tries again (the tables may be there by then).
    async fn made(self: &Arc<Self>, need: Need, deadline: Instant) -> Result<Made, ApiError> {
        let Need { key, what, make } = need;
        let mut making = {
            let mut all = lock(&self.made);
            match all.get(&key) {
                Some(making) => making.clone(),
                None => {
                    let (done, making) = watch::channel(None);
                    all.insert(key.clone(), making.clone());
                    let app = Arc::clone(self);
                    tokio::task::spawn_blocking(move || {
                        let made = make().map_err(ApiError::from);
                        if made.is_err() {
                            lock(&app.made).remove(&key);
                        }
                        done.send_replace(Some(made));
                    });
                    making
                }
            }
        };
        let made = tokio::time::timeout_at(deadline.into(), making.wait_for(Option::is_some))
            .await
            .map_err(|_| self.busy(format!("{what} is not ready yet (it is made once); try again shortly")))?
            .map_err(|_| failed(format!("making {what} failed")))?;
        made.clone().unwrap_or_else(|| Err(failed(format!("{what} was not made"))))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use adapters::served::Fields;

    /// A hint or a plan is cancelled at its deadline by a timer that ends with the work: quick requests
    /// under a long time limit leave no task behind (a timer each, alive until its deadline an hour on,
    /// would be one task a request here).
    #[test]
    fn quick_requests_leave_no_timer_behind() {
        let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
        let app = Arc::new(App::new(std::env::temp_dir(), Duration::from_secs(3600), 2, 4));
        let water = adapters::registry::find("water-sort").unwrap();
        let hint = r#"{"level": "w: ab ba -", "capacity": 2}"#;
        let plan = r#"{"level": "m: ??a ?bb ?ab -", "capacity": 3}"#;
        rt.block_on(async {
            for _ in 0..100 {
                for (body, is_hint) in [(hint, true), (plan, false)] {
                    let Ok(f) = Fields::body(body.as_bytes()) else { panic!("{body}") };
                    let work = if is_hint { water.hint(&app.host, f) } else { water.solve(&app.host, f) };
                    let Ok(work) = work else { panic!("{body}") };
                    let Ok(solving) = app.start(work, Watch::default()) else { panic!("{body}") };
                    assert!(solving.await.is_ok(), "{body}");
                }
            }
        });
        assert_eq!(rt.metrics().num_alive_tasks(), 0);
    }
}
