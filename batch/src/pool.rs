//! The worker pool: threads that take jobs from the todo list, search them and report to the writer (the
//! main thread) by message. Nothing here writes a record; a search that is cancelled is only reported.
//!
//! Parallelism (`--parallel`, measured in BENCHMARKS.md): on the 2-core reference machine one
//! single-threaded search a thread (`instances`) beat every thread on one instance (`search`) and the
//! node-budget hybrid (`trial`) on Korf's 100 and on easy sets, and was the least hurt by other processes
//! (it has no barriers); it loses only when there are few instances, so `auto` picks it unless there are
//! fewer than twice as many instances as threads (or they come from stdin, or are claimed one at a time, and
//! their number is unknown).

use crate::args::{BatchArgs, Parallel};
use crate::checkpoint::{Checkpoints, Entry, SAVE_AFTER};
use crate::jobs::Job;
use crate::progress::Running;
use crate::record::Record;
use crate::task::Task;
use cli_common::{log, one_line, usage};
use search::{Checkpoint, Limits, Live, Resume, Stop};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;
use std::sync::{Arc, Mutex};

/// Expanded nodes an instance may take single-threaded under `--parallel trial` before it counts as hard
/// and is searched again with every thread: about 50 ms with linear conflict. The search thrown away is a
/// few percent of a hard instance's, and the instances below it, for which a parallel search's start-up and
/// per-iteration barriers cost most, run one a thread.
const TRIAL_NODES: u64 = 1 << 20;

/// The jobs still to do, in input order. An error (a read error, an input that does not match the records
/// being resumed) stops the batch.
pub type Todo<'a, I> = Box<dyn Iterator<Item = anyhow::Result<Job<I>>> + Send + 'a>;

/// What a worker reports to the writer (the main thread).
pub enum Msg {
    Started(Running),
    Finished(Box<Record>),
    /// Over the `trial` node budget: queued for a search with every thread.
    Deferred(String),
    /// Cancelled by a signal or a failure: nothing is written.
    Abandoned(String),
    Failed(anyhow::Error),
    /// A line for stderr (already filtered by `--quiet` where it is only news).
    Note(String),
}

/// How a batch shares out its threads.
#[derive(Clone, Copy)]
pub struct Shape {
    /// The `--parallel` policy, `auto` resolved.
    pub policy: Parallel,
    /// Every thread the batch may use: the jobs a `trial` deferred are searched with all of them.
    pub threads: usize,
    /// Jobs searched side by side in the first phase, on `threads_each` threads each.
    workers: usize,
    threads_each: usize,
    /// `trial`: the node budget past which a job is deferred.
    trial: Option<u64>,
}

impl Shape {
    /// How `task` runs `todo` instances (`None`: a stream of unknown length) under `--parallel`.
    pub fn new(task: &impl Task, parallel: Parallel, todo: Option<usize>) -> Shape {
        let threads = task.threads();
        let policy = if task.parallel_search() { parallel.resolve(todo, threads) } else { Parallel::Instances };
        let (workers, threads_each, trial) = match policy {
            _ if threads == 1 => (1, 1, None),
            Parallel::Instances => (threads, 1, None),
            Parallel::Trial => (threads, 1, Some(TRIAL_NODES)),
            Parallel::Search | Parallel::Auto => (1, threads, None), // `resolve` has replaced Auto
        };
        Shape { policy, threads, workers, threads_each, trial }
    }
}

/// What every search of a batch shares.
pub struct Pool<'a, T: Task> {
    task: &'a T,
    limits: Limits,
    /// Set by the writer (on a signal or a failure) to abandon the searches in flight and take no more.
    pub cancel: Arc<AtomicBool>,
    /// With `--output`, for a task that takes them.
    checkpoints: Option<Arc<Checkpoints>>,
    /// `--checkpoint-after`.
    save_after: f64,
    quiet: bool,
}

impl<'a, T: Task> Pool<'a, T> {
    /// The pool of a batch of `task`, with its checkpoint file opened (or, without `--resume`, removed).
    pub fn new(args: &BatchArgs, task: &'a T) -> anyhow::Result<Pool<'a, T>> {
        let checkpoints = match (&args.output, task.checkpoint_key()) {
            (Some(out), Some(_)) => Some(Arc::new(Checkpoints::open(out, args.resume).map_err(usage)?)),
            _ => None,
        };
        if let Some(c) = checkpoints.as_ref().filter(|c| !c.damaged().is_empty()) {
            let lines: Vec<String> = c.damaged().iter().map(usize::to_string).collect();
            log(&format!(
                "{}: warning: {} has damaged lines ({}), a write cut short; their instances resume from an earlier \
                 checkpoint",
                task.name(),
                c.path().display(),
                lines.join(", ")
            ));
        }
        let cancel = Arc::new(AtomicBool::new(false));
        let limits = args.limits.limits(Some(Arc::clone(&cancel)));
        if let (Some(_), None, false) = (args.checkpoint_after, task.checkpoint_key(), args.quiet) {
            log(&format!("{}: note: these searches keep no checkpoints; --checkpoint-after is ignored", task.name()));
        }
        let (save_after, quiet) = (args.checkpoint_after.unwrap_or(SAVE_AFTER), args.quiet);
        Ok(Pool { task, limits, cancel, checkpoints, save_after, quiet })
    }

    /// Solves the jobs of `todo` as `shape` says, reporting to `tx`: first side by side, then the jobs a
    /// `trial` deferred one at a time with every thread.
    pub fn run(&self, todo: &mut Todo<'_, T::Instance>, shape: Shape, tx: &Sender<Msg>) {
        let hard = self.phase(todo, shape.workers, shape.threads_each, shape.trial, tx);
        self.phase(&mut hard.into_iter().map(Ok), 1, shape.threads, None, tx);
    }

    /// Solves the queue's jobs with `workers` threads pulling from it, `threads` search threads each. With
    /// a `trial` budget, jobs that exceed it are not recorded but returned. A queue that fails stops the
    /// batch.
    fn phase(
        &self,
        jobs: &mut (dyn Iterator<Item = anyhow::Result<Job<T::Instance>>> + Send),
        workers: usize,
        threads: usize,
        trial: Option<u64>,
        tx: &Sender<Msg>,
    ) -> Vec<Job<T::Instance>> {
        let queue = Mutex::new(jobs);
        let deferred = Mutex::new(Vec::new());
        std::thread::scope(|s| {
            for _ in 0..workers {
                let (queue, deferred, tx) = (&queue, &deferred, tx.clone());
                s.spawn(move || loop {
                    if self.cancel.load(Ordering::Relaxed) {
                        break;
                    }
                    let Some(next) = queue.lock().unwrap().next() else { break };
                    let job = match next {
                        Ok(job) => job,
                        Err(e) => {
                            let _ = tx.send(Msg::Failed(e));
                            break;
                        }
                    };
                    let live = Arc::new(Live::default());
                    let expected = job.parsed.as_ref().ok().and_then(|(_, e)| *e);
                    let _ = tx.send(Msg::Started(Running::new(job.id.clone(), Arc::clone(&live), expected)));
                    let msg = self.attempt(&job, threads, trial, &live, &tx);
                    if let Msg::Deferred(_) = msg {
                        deferred.lock().unwrap().push(job);
                    }
                    let _ = tx.send(msg);
                });
            }
        });
        deferred.into_inner().unwrap()
    }

    /// One search of `job`, as the message that reports it.
    fn attempt(
        &self,
        job: &Job<T::Instance>,
        threads: usize,
        trial: Option<u64>,
        live: &Arc<Live>,
        tx: &Sender<Msg>,
    ) -> Msg {
        let (inst, expected) = match &job.parsed {
            Ok((inst, expected)) => (inst, *expected),
            Err(problem) => return Msg::Finished(Box::new(self.task.invalid(&job.source(None), problem.clone()))),
        };
        let mut limits = self.limits.clone();
        let trial = trial.filter(|&t| limits.nodes.is_none_or(|n| t < n));
        if let Some(t) = trial {
            limits.nodes = Some(t);
        }
        let resume = self.resume(job, tx);
        let attempt = match self.task.solve(inst, &job.source(expected), threads, &limits, live, &resume) {
            Ok(a) => a,
            Err(e) => return Msg::Failed(e.context(format!("id {} (line {})", job.id, job.line))),
        };
        match attempt.stop {
            Some(Stop::Cancelled) => Msg::Abandoned(job.id.clone()),
            Some(Stop::NodeLimit) if trial.is_some() => Msg::Deferred(job.id.clone()),
            _ => Msg::Finished(Box::new(attempt.record)),
        }
    }

    /// Where `job`'s search starts (its checkpoint, if one of the same search of the same instance was saved)
    /// and how its checkpoints are saved.
    fn resume(&self, job: &Job<T::Instance>, tx: &Sender<Msg>) -> Resume {
        let (Some(store), Some(key)) = (&self.checkpoints, self.task.checkpoint_key()) else {
            return Resume::default();
        };
        let name = self.task.name();
        let from = match store.earlier(&job.id) {
            Some(e) if e.instance == job.text && e.search == key => {
                let c = e.checkpoint;
                if !self.quiet {
                    let _ = tx.send(Msg::Note(format!(
                        "{name}: id {} starts at bound {}, its checkpoint: {}, {} generated nodes, {:.1} s before",
                        job.id,
                        c.bound,
                        cli_common::text::count(c.iterations as u64, "iteration"),
                        c.nodes,
                        c.seconds
                    )));
                }
                Some(c)
            }
            Some(e) => {
                let (why, what) = match e.instance != job.text {
                    true => ("another instance", &e.instance),
                    false => ("another search", &e.search),
                };
                let _ = tx.send(Msg::Note(format!(
                    "{name}: id {}: the checkpoint in {} is of {why} ('{what}'); starting afresh",
                    job.id,
                    store.path().display()
                )));
                None
            }
            None => None,
        };
        let (store, tx) = (Arc::clone(store), Mutex::new(tx.clone()));
        let (id, instance, name, save_after) = (job.id.clone(), job.text.clone(), name.to_string(), self.save_after);
        let save = move |c: &Checkpoint| {
            if c.seconds < save_after {
                return;
            }
            let entry = Entry { id: id.clone(), instance: instance.clone(), search: key.clone(), checkpoint: *c };
            if let Err(e) = store.save(&entry) {
                let _ = tx
                    .lock()
                    .unwrap()
                    .send(Msg::Note(format!("{name}: warning: {}; the search goes on", one_line(&e))));
            }
        };
        Resume { from, save: Some(Arc::new(save)) }
    }
}
