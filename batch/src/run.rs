//! The batch runner: solves a file of instances and writes one record an instance as soon as it is finished,
//! for any puzzle that implements [`Task`].
//!
//! Durability: each record is encoded whole, written with one `write` and synced, so a kill or power cut
//! loses at most the instances in flight; `--resume` cuts off a torn last line, skips the ids that have a
//! record and appends. Ctrl-C / SIGTERM abandon the searches in flight (nothing partial is written) and
//! print the command that resumes. A second signal ends the process at once, which is just as safe.
//!
//! Input: a file is read whole first (its instances are counted for the progress bar and `--parallel auto`);
//! stdin is read one instance at a time as the workers take them, so an endless stream is worked on at once.
//!
//! Parallelism (`--parallel`, measured in BENCHMARKS.md): on the 2-core reference machine one
//! single-threaded search a thread (`instances`) beat every thread on one instance (`search`) and the
//! node-budget hybrid (`trial`) on Korf's 100 and on easy sets, and was the least hurt by other processes
//! (it has no barriers); it loses only when there are few instances, so `auto` picks it unless there are
//! fewer than twice as many instances as threads (or they come from stdin, and their number is unknown).

use crate::checkpoint::{self, Checkpoints, Entry, SAVE_AFTER};
use crate::jobs::{Job, JobReader, Line, Shard, Source};
use crate::limits::LimitArgs;
use crate::record::{Record, RecordFormat, Status};
use crate::report::Summary;
use crate::sink::Sink;
use anyhow::{anyhow, Context};
use clap::Args;
use cli_common::heading::{INPUT, OUTPUT, TUNING};
use cli_common::{log, one_line, shell_quote, signals, usage};
use indicatif::{HumanDuration, ProgressBar};
use search::{Checkpoint, Limits, Live, Resume, Stop};
use std::collections::HashMap;
use std::fs::File;
use std::io::{BufRead, BufReader, IsTerminal};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Expanded nodes an instance may take single-threaded under `--parallel trial` before it counts as hard
/// and is searched again with every thread: about 50 ms with linear conflict. The search thrown away is a
/// few percent of a hard instance's, and the instances below it, for which a parallel search's start-up and
/// per-iteration barriers cost most, run one a thread.
const TRIAL_NODES: u64 = 1 << 20;
/// How often a progress line is printed when stderr is not a terminal.
const PLAIN_PROGRESS_EVERY: Duration = Duration::from_secs(10);

/// The options of every tool's `batch` (its puzzle's own options are flattened beside them).
#[derive(Args)]
pub struct BatchArgs {
    /// Instance file, one instance a line (`#` comments; see the tool's `solve --help` for the line format,
    /// which may start with an id and the known optimal length), or `-` for stdin, read as it arrives. A
    /// line without an id gets its line number as id.
    #[arg(value_name = "FILE")]
    pub input: String,
    /// Take every N-th instance starting at the I-th (0-based), e.g. 0/3, 1/3, 2/3 on three machines; merge
    /// the outputs with the tool's `report`.
    #[arg(long, value_name = "I/N", help_heading = INPUT)]
    pub shard: Option<Shard>,
    /// Record file (default: stdout). Refused if it already holds records, unless --resume.
    #[arg(long, short, value_name = "OUT", help_heading = OUTPUT)]
    pub output: Option<PathBuf>,
    /// jsonl (one JSON object a line) or csv (with a header) [default: csv if OUT ends in .csv, else jsonl].
    #[arg(long, value_enum, value_name = "FORMAT", help_heading = OUTPUT)]
    pub format: Option<RecordFormat>,
    /// Continue OUT: drop a torn last line, skip the ids that have a record, append the rest; an instance
    /// that was in flight starts from its checkpoint in OUT.checkpoints (the IDA* iterations it had
    /// finished, saved once a search passes 10 s). A missing OUT is started afresh, so a job script can
    /// always pass --resume.
    #[arg(long, help_heading = OUTPUT)]
    pub resume: bool,
    /// Save an IDA* search's finished iterations to OUT.checkpoints once it has run this long, so that
    /// --resume after a kill, crash or Ctrl-C starts the instance there rather than from nothing (0: after
    /// every iteration). Searches other than IDA* keep no checkpoints.
    #[arg(long, value_name = "SECS", default_value_t = SAVE_AFTER, value_parser = checkpoint::parse_after, help_heading = OUTPUT)]
    pub checkpoint_after: f64,
    /// No progress or summary on stderr; errors only.
    #[arg(long, short, help_heading = OUTPUT)]
    pub quiet: bool,
    #[command(flatten)]
    pub limits: LimitArgs,
    /// How --threads are used: instances (one thread an instance), search (every thread on one instance at
    /// a time), trial (instances side by side up to 2^20 expanded nodes, the harder ones again afterwards
    /// with every thread), auto (instances if there are at least twice as many as threads, else search).
    #[arg(long, value_enum, value_name = "HOW", default_value = "auto", help_heading = TUNING)]
    pub parallel: Parallel,
}

/// How a batch uses its threads (measured in BENCHMARKS.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Parallel {
    /// `instances` when there are at least twice as many instances to do as threads, else `search`.
    Auto,
    /// One single-threaded search a thread: no synchronisation at all, the best throughput; idle threads only
    /// at the end, when fewer instances than threads are left.
    Instances,
    /// One instance at a time with every thread.
    Search,
    /// Instances side by side under a node budget; those that exceed it (the hard ones) again afterwards,
    /// one at a time with every thread.
    Trial,
}

impl Parallel {
    /// What `Auto` means for `todo` instances (`None`: a stream of unknown length) on `threads` threads.
    pub fn resolve(self, todo: Option<usize>, threads: usize) -> Parallel {
        match self {
            Parallel::Auto if todo.is_none_or(|n| n >= 2 * threads) => Parallel::Instances,
            Parallel::Auto => Parallel::Search,
            p => p,
        }
    }
}

/// What a worker reports to the writer (the main thread).
enum Msg {
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

/// A puzzle's side of a batch: reading its instance lines and solving them into records.
pub trait Task: Sync {
    /// A parsed instance.
    type Instance: Send + Sync;

    /// The command's name, for messages (`solver`, `watersort`).
    fn name(&self) -> &str;

    /// Reads one line (without its newline): `None` for a blank or comment line.
    fn parse(&self, line: &str) -> Option<Line<Self::Instance>>;

    /// The record of a line that is not a valid instance.
    fn invalid(&self, src: &Source, problem: String) -> Record;

    /// Searches one instance on `threads` threads within `limits`, keeping `live` up to date as the search
    /// goes (for the progress line), starting from and reporting checkpoints as `resume` says (a task whose
    /// [`Task::checkpoint_key`] is `None` is never given any). A search the limits' `cancel` stopped is
    /// reported as [`Stop::Cancelled`], and nothing is written of it.
    fn solve(
        &self,
        inst: &Self::Instance,
        src: &Source,
        threads: usize,
        limits: &Limits,
        live: &Arc<Live>,
        resume: &Resume,
    ) -> anyhow::Result<Attempt>;

    /// What searches the instances, if its searches can be carried across runs by checkpoints (see
    /// `checkpoint`): a checkpoint is used only by a search with the same key, since another heuristic or
    /// pruning would count other nodes. `None` (the default): no checkpoints.
    fn checkpoint_key(&self) -> Option<String> {
        None
    }

    /// The threads the batch may use (the tool's `--threads`).
    fn threads(&self) -> usize;

    /// Whether one search can use several threads; if not, instances always run side by side.
    fn parallel_search(&self) -> bool;

    /// What to suggest when no line of the input is valid (e.g. `is --board right?`).
    fn no_valid_hint(&self) -> String;
}

/// One search's record, and why it stopped if it did.
pub struct Attempt {
    pub record: Record,
    pub stop: Option<Stop>,
}

/// What every search of a batch shares.
struct Run<'a, T: Task> {
    task: &'a T,
    limits: Limits,
    cancel: Arc<AtomicBool>,
    /// With `--output`, for a task that takes them.
    checkpoints: Option<Arc<Checkpoints>>,
    /// `--checkpoint-after`.
    save_after: f64,
    quiet: bool,
}

impl<'a, T: Task> Run<'a, T> {
    /// Solves the queue's jobs with `workers` threads pulling from it, `threads` search threads each. With
    /// a `trial` budget, jobs that exceed it are not recorded but returned. A queue that fails (a read error,
    /// an input that does not match the records being resumed) stops the batch.
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
                    let running =
                        Running { id: job.id.clone(), since: Instant::now(), live: Arc::clone(&live), expected };
                    let _ = tx.send(Msg::Started(running));
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
                        "{name}: id {} starts at bound {}, its checkpoint: {} iterations, {} nodes, {:.1} s before",
                        job.id, c.bound, c.iterations, c.nodes, c.seconds
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

/// An instance being searched, as the progress line shows it.
struct Running {
    id: String,
    since: Instant,
    live: Arc<Live>,
    /// The optimal length the input gave, if any: how far the search's depth still has to go.
    expected: Option<u32>,
}

impl Running {
    /// `6 (14 minutes, depth 99 of 101, 4.12e10 expanded)`: what an overnight run's log needs to tell a
    /// slow instance from a stuck one. The depth is IDA*'s bound; searches that say no depth show none.
    fn describe(&self) -> String {
        let mut parts = vec![span(self.since.elapsed())];
        match (self.live.depth(), self.expected) {
            (0, _) => {}
            (d, Some(e)) => parts.push(format!("depth {d} of {e}")),
            (d, None) => parts.push(format!("depth {d}")),
        }
        if self.live.expanded() > 0 {
            parts.push(format!("{:.2e} expanded", self.live.expanded() as f64));
        }
        format!("{} ({})", self.id, parts.join(", "))
    }
}

/// A duration for the progress line. `HumanDuration` rounds to one unit, so 93 minutes would read "2 hours";
/// past an hour an overnight log needs the minutes too.
fn span(d: Duration) -> String {
    let s = d.as_secs();
    if s < 3600 {
        HumanDuration(d).to_string()
    } else {
        format!("{} h {} min", s / 3600, s % 3600 / 60)
    }
}

/// Progress on stderr: a bar on a terminal, else a plain line every `PLAIN_PROGRESS_EVERY`.
struct Progress {
    bar: Option<ProgressBar>,
    quiet: bool,
    /// Instances to do; `None` for a stream.
    total: Option<u64>,
    done: u64,
    by_status: [u64; 4],
    running: Vec<Running>,
    start: Instant,
    last_line: Instant,
}

impl Progress {
    /// Progress for `total` instances (`None`: unknown); `quiet`: none at all.
    fn new(total: Option<u64>, quiet: bool) -> Progress {
        let bar = (!quiet && std::io::stderr().is_terminal()).then(|| {
            let bar = total.map_or_else(ProgressBar::no_length, ProgressBar::new);
            bar.set_style(cli_common::bar_style());
            bar.enable_steady_tick(Duration::from_millis(250));
            bar
        });
        let now = Instant::now();
        Progress { bar, quiet, total, done: 0, by_status: [0; 4], running: Vec::new(), start: now, last_line: now }
    }

    /// A line above the bar: notes of problems are shown even when quiet.
    fn note(&self, msg: &str) {
        match &self.bar {
            Some(bar) => bar.println(msg),
            None => log(msg),
        }
    }

    fn started(&mut self, running: Running) {
        self.running.push(running);
        self.show_running();
    }

    fn ended(&mut self, id: &str) {
        self.running.retain(|r| r.id != id);
        self.show_running();
    }

    fn running_text(&self) -> String {
        self.running.iter().map(Running::describe).collect::<Vec<_>>().join(", ")
    }

    fn finished(&mut self, rec: &Record) {
        self.ended(&rec.id);
        self.done += 1;
        self.by_status[rec.status as usize] += 1;
        if let Some(bar) = &self.bar {
            bar.inc(1);
        }
    }

    fn show_running(&self) {
        if let Some(bar) = &self.bar {
            bar.set_message(format!("running: {}", self.running_text()));
        }
    }

    fn tick(&mut self) {
        if self.bar.is_some() {
            self.show_running();
            return;
        }
        if self.quiet || self.last_line.elapsed() < PLAIN_PROGRESS_EVERY {
            return;
        }
        self.last_line = Instant::now();
        let elapsed = self.start.elapsed();
        let eta = match (self.done, self.total) {
            (0, _) | (_, None) => "unknown".to_string(),
            (d, Some(t)) => span(elapsed.mul_f64(t.saturating_sub(d) as f64 / d as f64)),
        };
        let total = self.total.map_or("?".to_string(), |t| t.to_string());
        let [solved, limit, unsolvable, invalid] = self.by_status;
        log(&format!(
            "batch: {}/{total} done ({solved} solved, {limit} limit, {unsolvable} unsolvable, {invalid} invalid), elapsed {}, ETA {eta}; running: {}",
            self.done,
            span(elapsed),
            self.running_text()
        ));
    }

    fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// The instances of a batch, in input order.
enum Input<'t, T: Task> {
    /// A file, read whole first: the number of instances is known, and a mismatch with the records being
    /// resumed is found before any work.
    Listed(Vec<Job<T::Instance>>),
    /// Stdin, read as the workers take the instances.
    Streamed(JobReader<'t, Box<dyn BufRead + Send>, T>),
}

/// A tool's `batch`, for the puzzle `task` (already built from the tool's options, so that everything the
/// user can get wrong is checked before the output is touched). Exit code 0, or 1 if a solved length differs
/// from the input's (or on an error), 2 on a usage error, 130 when interrupted.
pub fn run<T: Task>(args: &BatchArgs, task: &T) -> anyhow::Result<ExitCode> {
    if args.resume && args.output.is_none() {
        return Err(usage(anyhow!("--resume needs --output: the record file to continue")));
    }
    let reader: Box<dyn BufRead + Send> = if args.input == "-" {
        Box::new(BufReader::new(std::io::stdin()))
    } else {
        let file = File::open(&args.input).with_context(|| format!("cannot read {}", args.input)).map_err(usage)?;
        Box::new(BufReader::new(file))
    };
    let mut reader = JobReader::new(reader, task, args.shard);
    let input = if args.input == "-" {
        Input::Streamed(reader)
    } else {
        let jobs = reader.by_ref().collect::<std::io::Result<Vec<_>>>();
        Input::Listed(jobs.with_context(|| format!("cannot read {}", args.input)).map_err(usage)?)
    };
    let format = args.format.or(args.output.as_deref().map(RecordFormat::for_path)).unwrap_or(RecordFormat::Jsonl);
    let (mut sink, records) = Sink::open(task.name(), args.output.as_deref(), format, args.resume).map_err(usage)?;
    let result = run_into(args, task, input, &mut sink, records);
    sink.close();
    result
}

fn run_into<T: Task>(
    args: &BatchArgs,
    task: &T,
    input: Input<'_, T>,
    sink: &mut Sink,
    mut records: Vec<Record>,
) -> anyhow::Result<ExitCode> {
    let name = task.name();
    let threads = task.threads();
    let out_name = args.output.as_ref().map_or("stdout".to_string(), |p| p.display().to_string());
    // The ids already recorded, with their instances: an input line with a recorded id is skipped, unless
    // its instance differs, which means the records are of another input.
    let have: HashMap<String, String> = records.iter().map(|r| (r.id.clone(), r.instance.clone())).collect();
    let recorded = |job: Job<T::Instance>| -> anyhow::Result<Option<Job<T::Instance>>> {
        match have.get(&job.id) {
            None => Ok(Some(job)),
            Some(text) if *text == job.text => Ok(None),
            Some(text) => Err(usage(anyhow!(
                "{out_name} has id '{}' as '{text}', but line {} of {} has '{}': is it the output of another input?",
                job.id,
                job.line,
                args.input,
                job.text
            ))),
        }
    };
    let (mut listed, mut streamed) = (None, None);
    type Todo<'a, I> = Box<dyn Iterator<Item = anyhow::Result<Job<I>>> + Send + 'a>;
    let (mut todo, total): (Todo<'_, T::Instance>, _) = match input {
        Input::Listed(jobs) => {
            let count = jobs.len();
            let todo: Vec<_> =
                jobs.into_iter().filter_map(|j| recorded(j).transpose()).collect::<anyhow::Result<_>>()?;
            let total = todo.len();
            if args.resume && !records.is_empty() {
                say(
                    args,
                    &format!(
                        "{name}: resuming {out_name}: {} records there, {total} of {count} instances to go",
                        records.len()
                    ),
                );
            }
            listed = Some(count);
            (Box::new(todo.into_iter().map(Ok)), Some(total))
        }
        Input::Streamed(reader) => {
            let reader = streamed.insert(reader);
            let todo = reader
                .by_ref()
                .map(|j| j.context("cannot read stdin"))
                .filter_map(move |j| j.and_then(&recorded).transpose());
            (Box::new(todo), None)
        }
    };

    signals::catch_interrupts();
    let cancel = Arc::new(AtomicBool::new(false));
    let checkpoints = match (&args.output, task.checkpoint_key()) {
        (Some(out), Some(_)) => Some(Arc::new(Checkpoints::open(out, args.resume).map_err(usage)?)),
        _ => None,
    };
    let limits = args.limits.limits(Some(cancel.clone()));
    let save_after = args.checkpoint_after;
    let run = Run { task, limits, cancel: cancel.clone(), checkpoints, save_after, quiet: args.quiet };
    let policy = if task.parallel_search() { args.parallel.resolve(total, threads) } else { Parallel::Instances };
    let (workers, threads_each, trial) = match policy {
        _ if threads == 1 => (1, 1, None),
        Parallel::Instances => (threads, 1, None),
        Parallel::Trial => (threads, 1, Some(TRIAL_NODES)),
        Parallel::Search | Parallel::Auto => (1, threads, None), // `resolve` has replaced Auto
    };
    let mut progress = Progress::new(total.map(|t| t as u64), args.quiet);
    let mut failure = None;
    let started = Instant::now();
    let (tx, rx) = mpsc::channel();
    std::thread::scope(|sc| {
        let run = &run;
        let todo = &mut todo;
        sc.spawn(move || {
            let hard = run.phase(todo, workers, threads_each, trial, &tx);
            run.phase(&mut hard.into_iter().map(Ok), 1, threads, None, &tx);
        });
        loop {
            match rx.recv_timeout(Duration::from_millis(200)) {
                Ok(Msg::Started(running)) => progress.started(running),
                Ok(Msg::Deferred(id) | Msg::Abandoned(id)) => progress.ended(&id),
                Ok(Msg::Note(text)) => progress.note(&text),
                // After a failed write nothing more is written: a torn line must stay the last one.
                Ok(Msg::Finished(_)) if failure.is_some() => {}
                Ok(Msg::Finished(mut rec)) => {
                    rec.finished = Some(unix_seconds());
                    if let Err(e) = sink.write(&rec) {
                        failure.get_or_insert(e);
                        cancel.store(true, Ordering::SeqCst);
                        continue;
                    }
                    progress.finished(&rec);
                    if let Some(problem) = rec.error.as_deref().filter(|_| rec.status == Status::Invalid) {
                        progress.note(&format!("{name}: line {}: {problem}", rec.line));
                    }
                    if rec.matched == Some(false) {
                        progress.note(&format!(
                            "{name}: MISMATCH: id {} (line {}): the optimal length found is {} but the input says {}",
                            rec.id,
                            rec.line,
                            rec.length.unwrap_or_default(),
                            rec.expected.unwrap_or_default()
                        ));
                    }
                    records.push(*rec);
                }
                Ok(Msg::Failed(e)) => {
                    failure.get_or_insert(e);
                    cancel.store(true, Ordering::SeqCst);
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => break,
            }
            if signals::interrupted() {
                cancel.store(true, Ordering::SeqCst);
            }
            progress.tick();
        }
    });
    progress.finish();
    drop(todo);

    let (read, valid) = match (&streamed, listed) {
        (Some(r), _) => (r.jobs, r.valid),
        (None, _) => (records.len() as u64, records.iter().filter(|r| r.status != Status::Invalid).count() as u64),
    };
    if read > 0 && valid == 0 {
        log(&format!("{name}: warning: no line of {} is a valid instance ({})", args.input, task.no_valid_hint()));
    }
    // A failure is said first: the summary after it shows what was recorded before it.
    if let Some(e) = &failure {
        log(&format!("{name}: error: {}", one_line(e)));
    }
    let summary = Summary::new(&records);
    say(args, &format!("summary of {out_name}:\n{}", summary.text().trim_end()));
    say(
        args,
        &format!(
            "wall time    {:.3} s this run ({} instances, {threads} threads, --parallel {}{})",
            started.elapsed().as_secs_f64(),
            progress.done,
            clap::ValueEnum::to_possible_value(&policy).expect("no variant is skipped").get_name(),
            if args.parallel == Parallel::Auto { " by auto" } else { "" }
        ),
    );
    if let Some(e) = failure {
        // Said above, before the summary, where it is seen; a usage error (another input's records) keeps
        // its exit code.
        return Ok(ExitCode::from(cli_common::exit_code(&e)));
    }
    if signals::interrupted() {
        let left = match listed {
            Some(count) => format!("{} instances left", count.saturating_sub(records.len())),
            None => "the rest of stdin was not read".to_string(),
        };
        log(&format!(
            "{name}: interrupted; the searches in flight were abandoned and nothing partial was written ({left})"
        ));
        if args.output.is_some() {
            let mut words: Vec<String> = std::env::args().map(|w| shell_quote(&w)).collect();
            if !args.resume {
                words.push("--resume".into());
            }
            log(&format!("{name}: resume with: {}", words.join(" ")));
        } else {
            log(&format!("{name}: the records went to stdout; to be able to resume a run, give it --output FILE"));
        }
        return Ok(ExitCode::from(cli_common::EXIT_INTERRUPTED));
    }
    if !summary.mismatched.is_empty() {
        log(&format!(
            "{name}: MISMATCH: {} solved lengths differ from the input's: {}",
            summary.mismatched.len(),
            summary.mismatched.join(", ")
        ));
        return Ok(ExitCode::from(cli_common::EXIT_FAILURE));
    }
    Ok(ExitCode::SUCCESS)
}

/// Now, in seconds since the Unix epoch (0 on a clock set before it, which no real run has).
fn unix_seconds() -> f64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0.0, |d| d.as_secs_f64())
}

/// A line of progress or summary on stderr, unless `--quiet`.
fn say(args: &BatchArgs, line: &str) {
    if !args.quiet {
        log(line)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn auto_runs_instances_side_by_side_unless_they_are_few() {
        assert_eq!(Parallel::Auto.resolve(Some(4), 2), Parallel::Instances);
        assert_eq!(Parallel::Auto.resolve(Some(3), 2), Parallel::Search);
        assert_eq!(Parallel::Auto.resolve(None, 2), Parallel::Instances);
        assert_eq!(Parallel::Trial.resolve(Some(1), 2), Parallel::Trial);
    }

    #[test]
    fn a_running_instance_says_how_long_how_deep_and_how_many_nodes() {
        let live = Arc::new(Live::default());
        let running = |expected| Running { id: "6".into(), since: Instant::now(), live: Arc::clone(&live), expected };
        // Nothing published yet (a search that says no depth): the time alone.
        assert_eq!(running(Some(101)).describe(), "6 (0 seconds)");
        live.set_depth(99);
        live.set_expanded(41_234_000_000);
        assert_eq!(running(Some(101)).describe(), "6 (0 seconds, depth 99 of 101, 4.12e10 expanded)");
        assert_eq!(running(None).describe(), "6 (0 seconds, depth 99, 4.12e10 expanded)");
    }

    #[test]
    fn durations_past_an_hour_keep_their_minutes() {
        assert_eq!(span(Duration::from_secs(20)), "20 seconds");
        assert_eq!(span(Duration::from_secs(14 * 60 + 5)), "14 minutes");
        assert_eq!(span(Duration::from_secs(93 * 60 + 59)), "1 h 33 min");
        assert_eq!(span(Duration::from_secs(7 * 3600)), "7 h 0 min");
    }
}
