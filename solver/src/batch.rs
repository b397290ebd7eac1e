//! `solver batch`: solves a file of instances and writes one record an instance as soon as it is finished.
//!
//! Durability: each record is encoded whole, written with one `write` and synced, so a kill or power cut
//! loses at most the instances in flight; `--resume` cuts off a torn last line, skips the ids that have a
//! record and appends. Ctrl-C / SIGTERM abandon the searches in flight (nothing partial is written) and
//! print the command that resumes. A second signal ends the process at once, which is just as safe.
//!
//! Parallelism (`--parallel`, measured in BENCHMARKS.md): on the 2-core reference machine one
//! single-threaded search a thread (`instances`) beat every thread on one instance (`search`) and the
//! node-budget hybrid (`trial`) on Korf's 100 and on easy sets, and was the least hurt by other processes
//! (it has no barriers); it loses only when there are few instances, so `auto` picks it unless there are
//! fewer than twice as many instances as threads.

use crate::args::{usage, SearchArgs};
use crate::ida::{Limits, Report, Stop};
use crate::output::{user_moves, MoveStyle};
use crate::record::{read_records, Format, Record, RecordFile, Status};
use crate::report::Summary;
use crate::{shell_quote, Solver};
use anyhow::{anyhow, Context};
use clap::Args;
use indicatif::{HumanDuration, ProgressBar, ProgressStyle};
use puzzle::{Board, Goal, State};
use std::collections::hash_map::Entry;
use std::collections::{HashMap, HashSet};
use std::fs::{File, OpenOptions};
use std::io::{IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::str::FromStr;
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

#[derive(Args)]
pub struct BatchArgs {
    /// Instance file, one position a line (bare tiles, or `id optimal_length tiles...`; `#` comments), or
    /// `-` for stdin. A line without an id gets its line number as id.
    pub input: String,
    /// Record file (default: stdout). Refused if it already holds records, unless --resume.
    #[arg(long, short)]
    pub output: Option<PathBuf>,
    /// jsonl (one JSON object a line) or csv (with a header). Default: csv if OUT ends in .csv, else jsonl.
    #[arg(long, value_enum)]
    pub format: Option<Format>,
    /// Continue OUT: drop a torn last line, skip the ids that have a record, append the rest. A missing
    /// OUT is started afresh, so a job script can always pass --resume.
    #[arg(long)]
    pub resume: bool,
    /// Per instance: stop the search after this many seconds and record status `limit`.
    #[arg(long, value_name = "SECS", value_parser = parse_seconds)]
    pub time_limit: Option<Duration>,
    /// Per instance: stop the search after this many expanded nodes (checked every 16384) and record `limit`.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub node_limit: Option<u64>,
    /// Take every N-th instance starting at the I-th (0-based), e.g. 0/3, 1/3, 2/3 on three machines; merge
    /// the outputs with `solver report`.
    #[arg(long, value_name = "I/N")]
    pub shard: Option<Shard>,
    /// How --threads are used: instances (one thread an instance), search (every thread on one instance at
    /// a time), trial (instances side by side up to 2^20 expanded nodes, the harder ones again afterwards
    /// with every thread), auto (instances if there are at least twice as many as threads, else search).
    #[arg(long, value_enum, default_value = "auto")]
    pub parallel: Parallel,
    #[command(flatten)]
    pub search: SearchArgs,
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
    /// What `Auto` means for `todo` instances on `threads` threads.
    pub fn resolve(self, todo: usize, threads: usize) -> Parallel {
        match self {
            Parallel::Auto if todo >= 2 * threads => Parallel::Instances,
            Parallel::Auto => Parallel::Search,
            p => p,
        }
    }
}

/// `--shard I/N`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: usize,
    pub count: usize,
}

impl FromStr for Shard {
    type Err = String;
    fn from_str(s: &str) -> Result<Shard, String> {
        let bad = || format!("shard '{s}' is not I/N with 0 <= I < N (e.g. 0/4)");
        let (i, n) = s.split_once('/').ok_or_else(bad)?;
        let (index, count) = (i.trim().parse().map_err(|_| bad())?, n.trim().parse().map_err(|_| bad())?);
        if index >= count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

fn parse_seconds(s: &str) -> Result<Duration, String> {
    match s.parse::<f64>() {
        Ok(x) if x > 0.0 && x.is_finite() => Ok(Duration::from_secs_f64(x)),
        _ => Err(format!("'{s}' is not a positive number of seconds")),
    }
}

/// One instance line of the input.
#[derive(Debug)]
pub struct Job {
    pub line: u64,
    pub id: String,
    /// The tiles as written (an invalid line: its text).
    pub tiles: String,
    /// The position and the line's optimal length, or what is wrong with the line.
    pub parsed: Result<(State, Option<u32>), String>,
}

/// The instances of an input text that belong to `shard`. Ids must be unique over the whole input (resume and
/// merging go by id), so a repeated id makes the later line invalid, under the id `ID@LINE`.
pub fn read_jobs(text: &str, board: Board, goal: Goal, shard: Option<Shard>) -> Vec<Job> {
    let mut first_use: HashMap<String, u64> = HashMap::new();
    let mut jobs = Vec::new();
    let mut index = 0;
    for (n, line) in text.lines().enumerate() {
        let line_no = n as u64 + 1;
        let (id, tiles, parsed) = match puzzle::parse_line(board, goal, line) {
            Ok(None) => continue,
            Ok(Some(inst)) => {
                let tiles: Vec<String> = goal.to_internal(inst.state.tiles()).iter().map(u8::to_string).collect();
                (inst.id.unwrap_or_else(|| line_no.to_string()), tiles.join(" "), Ok((inst.state, inst.optimal)))
            }
            Err(e) => {
                let words = puzzle::instance::words(line);
                let id = if words.len() == board.cells() + 2 { words[0].to_string() } else { line_no.to_string() };
                (id, line.split('#').next().unwrap_or("").trim().to_string(), Err(e.to_string()))
            }
        };
        let (id, parsed) = match first_use.entry(id) {
            Entry::Vacant(v) => {
                let id = v.key().clone();
                v.insert(line_no);
                (id, parsed)
            }
            // An invalid line keeps its own problem; only its id is made unique.
            Entry::Occupied(o) => {
                let problem = match parsed {
                    Ok(_) => format!("id '{}' is already used on line {}; ids must be unique", o.key(), o.get()),
                    Err(e) => e,
                };
                (format!("{}@{line_no}", o.key()), Err(problem))
            }
        };
        let mine = shard.is_none_or(|s| index % s.count == s.index);
        index += 1;
        if mine {
            jobs.push(Job { line: line_no, id, tiles, parsed });
        }
    }
    jobs
}

/// Where records go: a file (synced per record) or stdout (flushed per record).
struct Sink {
    file: Option<(File, PathBuf)>,
    format: Format,
    /// A CSV file without its header yet.
    header_pending: bool,
}

impl Sink {
    /// Opens the output; with `resume`, also returns the records already in it (a torn tail cut off). The
    /// file stays locked while the batch runs, so two runs cannot interleave their records in it.
    fn open(path: Option<&Path>, format: Format, resume: bool) -> anyhow::Result<(Sink, Vec<Record>)> {
        let Some(path) = path else {
            return Ok((Sink { file: None, format, header_pending: format == Format::Csv }, Vec::new()));
        };
        let show = path.display();
        let existed = path.exists();
        let verb = if existed { "open" } else { "create" };
        let file =
            OpenOptions::new().create(true).append(true).open(path).with_context(|| format!("cannot {verb} {show}"))?;
        if !existed {
            sync_parent(path);
        }
        // SAFETY: flock on a descriptor we own; the lock goes with the descriptor.
        if unsafe { libc::flock(std::os::fd::AsRawFd::as_raw_fd(&file), libc::LOCK_EX | libc::LOCK_NB) } != 0 {
            anyhow::bail!("{show} is being written by another batch run");
        }
        let len = file.metadata().with_context(|| format!("cannot open {show}"))?.len();
        if len > 0 && !resume {
            anyhow::bail!("{show} already holds records; add --resume to continue it, or choose another file");
        }
        // Only a regular file with something in it is read (a device such as /dev/null reads as empty or endless).
        let old = if len > 0 {
            read_records(path)?
        } else {
            RecordFile { records: Vec::new(), format: None, complete_len: 0, torn_tail: 0 }
        };
        if let Some(f) = old.format.filter(|&f| f != format) {
            anyhow::bail!("{show} is {f:?}, not {format:?} as asked: resume it in its own format (--format)");
        }
        if old.torn_tail > 0 {
            eprintln!("solver: note: {show} ends in an incomplete record ({} bytes, from an interrupted run); removing it, that instance is solved again", old.torn_tail);
            file.set_len(old.complete_len)
                .and_then(|_| file.sync_all())
                .with_context(|| format!("cannot truncate {show}"))?;
        }
        let sink = Sink {
            file: Some((file, path.to_owned())),
            format,
            header_pending: format == Format::Csv && old.complete_len == 0,
        };
        Ok((sink, old.records))
    }

    fn write(&mut self, rec: &Record) -> anyhow::Result<()> {
        let bytes = self.format.encode(rec, self.header_pending)?;
        match &mut self.file {
            Some((f, path)) => f
                .write_all(&bytes)
                .and_then(|_| f.sync_data())
                .with_context(|| format!("cannot write {}", path.display()))?,
            None => {
                let mut out = std::io::stdout().lock();
                out.write_all(&bytes).and_then(|_| out.flush()).context("cannot write stdout")?;
            }
        }
        self.header_pending = false;
        Ok(())
    }
}

/// Makes a new file's directory entry durable too (best effort: not every file system allows it).
fn sync_parent(path: &Path) {
    let parent = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    if let Ok(dir) = File::open(parent) {
        let _ = dir.sync_all();
    }
}

/// What a worker reports to the writer (the main thread).
enum Msg {
    Started(String),
    Finished(Record),
    /// Over the `trial` node budget: queued for a search with every thread.
    Deferred(String),
    /// Cancelled by a signal or a failure: nothing is written.
    Abandoned(String),
    Failed(anyhow::Error),
}

/// What every search of a batch shares.
struct Run<'a> {
    solver: &'a Solver,
    goal: Goal,
    limits: Limits,
    cancel: Arc<AtomicBool>,
    tables: String,
}

impl<'a> Run<'a> {
    /// Solves `jobs` with `workers` threads pulling from one queue, `threads` search threads each. With a
    /// `trial` budget, jobs that exceed it are not recorded but returned.
    fn phase(
        &self,
        jobs: Vec<&'a Job>,
        workers: usize,
        threads: usize,
        trial: Option<u64>,
        tx: &Sender<Msg>,
    ) -> Vec<&'a Job> {
        let queue = Mutex::new(jobs.into_iter());
        let deferred = Mutex::new(Vec::new());
        std::thread::scope(|s| {
            for _ in 0..workers {
                let (queue, deferred, tx) = (&queue, &deferred, tx.clone());
                s.spawn(move || loop {
                    if self.cancel.load(Ordering::Relaxed) {
                        break;
                    }
                    let Some(job) = queue.lock().unwrap().next() else { break };
                    let _ = tx.send(Msg::Started(job.id.clone()));
                    let msg = self.attempt(job, threads, trial);
                    if let Msg::Deferred(_) = msg {
                        deferred.lock().unwrap().push(job);
                    }
                    let _ = tx.send(msg);
                });
            }
        });
        deferred.into_inner().unwrap()
    }

    fn attempt(&self, job: &Job, threads: usize, trial: Option<u64>) -> Msg {
        let (state, expected) = match &job.parsed {
            Ok(p) => *p,
            Err(problem) => return Msg::Finished(self.record(job, None, None, 0, Some(problem.clone()))),
        };
        let mut limits = self.limits.clone();
        let trial = trial.filter(|&t| limits.nodes.is_none_or(|n| t < n));
        if let Some(t) = trial {
            limits.nodes = Some(t);
        }
        let report = match self.solver.solve(&state, threads, &limits) {
            Ok(r) => r,
            Err(e) => return Msg::Failed(e.context(format!("id {} (line {})", job.id, job.line))),
        };
        match report.stopped {
            Some(Stop::Cancelled) => Msg::Abandoned(job.id.clone()),
            Some(Stop::NodeLimit) if trial.is_some() => Msg::Deferred(job.id.clone()),
            stop => {
                let why = stop.map(|s| match s {
                    Stop::TimeLimit => format!(
                        "time limit: stopped after {:.3} s; the optimal length is at least {}",
                        report.seconds, report.bound
                    ),
                    _ => format!(
                        "node limit: stopped after {} expanded nodes; the optimal length is at least {}",
                        report.counts.expanded, report.bound
                    ),
                });
                Msg::Finished(self.record(job, Some((&state, &report)), expected, threads, why))
            }
        }
    }

    fn record(
        &self,
        job: &Job,
        search: Option<(&State, &Report)>,
        expected: Option<u32>,
        threads: usize,
        error: Option<String>,
    ) -> Record {
        let moves = search.and_then(|(s, r)| Some((s, r.moves.as_ref()?)));
        let length = moves.map(|(_, m)| m.len() as u32);
        let status = match (&job.parsed, length) {
            (Err(_), _) => Status::Invalid,
            (Ok(_), Some(_)) => Status::Solved,
            (Ok(_), None) => Status::Limit,
        };
        Record {
            id: job.id.clone(),
            line: job.line,
            tiles: job.tiles.clone(),
            status,
            length,
            moves: moves.map(|(s, m)| user_moves(s, m, self.goal, MoveStyle::Tiles)).unwrap_or_default(),
            nodes: search.map_or(0, |(_, r)| r.counts.generated),
            expanded: search.map_or(0, |(_, r)| r.counts.expanded),
            seconds: search.map_or(0.0, |(_, r)| r.seconds),
            threads,
            lanes: self.solver.lanes(),
            heuristic: self.solver.name().to_string(),
            tables: self.tables.clone(),
            expected,
            matched: length.zip(expected).map(|(l, e)| l == e),
            error,
        }
    }
}

/// The tables of a solver as `file_name:hash` words.
fn table_words(solver: &Solver) -> String {
    let words: Vec<String> = solver
        .tables()
        .iter()
        .map(|(path, hash)| {
            format!(
                "{}:{hash:016x}",
                path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned())
            )
        })
        .collect();
    words.join(" ")
}

static INTERRUPTED: AtomicBool = AtomicBool::new(false);

extern "C" fn on_signal(_: libc::c_int) {
    INTERRUPTED.store(true, Ordering::SeqCst);
}

/// SIGINT and SIGTERM set a flag the writer polls; the handler resets itself, so a second signal kills.
fn catch_signals() {
    // SAFETY: the handler only stores to an atomic, which is async-signal-safe.
    unsafe {
        let mut sa: libc::sigaction = std::mem::zeroed();
        sa.sa_sigaction = on_signal as extern "C" fn(libc::c_int) as usize;
        sa.sa_flags = libc::SA_RESETHAND | libc::SA_RESTART;
        libc::sigemptyset(&mut sa.sa_mask);
        for sig in [libc::SIGINT, libc::SIGTERM] {
            libc::sigaction(sig, &sa, std::ptr::null_mut());
        }
    }
}

/// Progress on stderr: a bar on a terminal, else a plain line every `PLAIN_PROGRESS_EVERY`.
struct Progress {
    bar: Option<ProgressBar>,
    total: u64,
    done: u64,
    by_status: [u64; 3],
    running: Vec<String>,
    start: Instant,
    last_line: Instant,
}

impl Progress {
    fn new(total: u64) -> Progress {
        let bar = std::io::stderr().is_terminal().then(|| {
            let bar = ProgressBar::new(total);
            let style = ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {pos}/{len} ETA {eta}  {msg}")
                .expect("valid template");
            bar.set_style(style.progress_chars("=> "));
            bar.enable_steady_tick(Duration::from_millis(250));
            bar
        });
        let now = Instant::now();
        Progress { bar, total, done: 0, by_status: [0; 3], running: Vec::new(), start: now, last_line: now }
    }

    fn note(&self, msg: &str) {
        match &self.bar {
            Some(bar) => bar.println(msg),
            None => eprintln!("{msg}"),
        }
    }

    fn started(&mut self, id: String) {
        self.running.push(id);
        self.show_running();
    }

    fn ended(&mut self, id: &str) {
        self.running.retain(|r| r != id);
        self.show_running();
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
            bar.set_message(format!("running: {}", self.running.join(", ")));
        }
    }

    fn tick(&mut self) {
        if self.bar.is_some() || self.last_line.elapsed() < PLAIN_PROGRESS_EVERY {
            return;
        }
        self.last_line = Instant::now();
        let elapsed = self.start.elapsed();
        let eta = match self.done {
            0 => "unknown".to_string(),
            d => HumanDuration(elapsed.mul_f64((self.total - d) as f64 / d as f64)).to_string(),
        };
        let [solved, limit, invalid] = self.by_status;
        eprintln!(
            "batch: {}/{} done ({solved} solved, {limit} limit, {invalid} invalid), elapsed {}, ETA {eta}; running: {}",
            self.done,
            self.total,
            HumanDuration(elapsed),
            self.running.join(", ")
        );
    }

    fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

fn read_input(input: &str) -> anyhow::Result<String> {
    let mut text = String::new();
    if input == "-" {
        std::io::stdin().read_to_string(&mut text).context("cannot read stdin")?;
    } else {
        File::open(input)
            .and_then(|mut f| f.read_to_string(&mut text))
            .with_context(|| format!("cannot read {input}"))?;
    }
    Ok(text)
}

/// `solver batch`. Exit code 0, or 1 if a solved length differs from the input's (or on an error), 2 on a
/// usage error, 130 when interrupted.
pub fn run(args: &BatchArgs) -> anyhow::Result<ExitCode> {
    let s = &args.search;
    if args.resume && args.output.is_none() {
        return Err(usage(anyhow!("--resume needs --output: the record file to continue")));
    }
    let text = read_input(&args.input).map_err(usage)?;
    let format = args.format.or(args.output.as_deref().map(Format::for_path)).unwrap_or(Format::Jsonl);
    let (mut sink, mut records) = Sink::open(args.output.as_deref(), format, args.resume).map_err(usage)?;
    let solver = s.solver()?;
    let threads = s.threads();
    let jobs = read_jobs(&text, s.board, s.goal, args.shard);
    let out_name = args.output.as_ref().map_or("stdout".to_string(), |p| p.display().to_string());

    let have: HashMap<&str, &Record> = records.iter().map(|r| (r.id.as_str(), r)).collect();
    for job in &jobs {
        if let Some(r) = have.get(job.id.as_str()).filter(|r| r.tiles != job.tiles) {
            return Err(usage(anyhow!(
                "{out_name} has id '{}' with tiles '{}', but line {} of {} has '{}': is it the output of another input?",
                job.id,
                r.tiles,
                job.line,
                args.input,
                job.tiles
            )));
        }
    }
    let todo: Vec<&Job> = jobs.iter().filter(|j| !have.contains_key(j.id.as_str())).collect();
    drop(have);
    if args.resume && !records.is_empty() {
        eprintln!(
            "solver: resuming {out_name}: {} records there, {} of {} instances to go",
            records.len(),
            todo.len(),
            jobs.len()
        );
    }
    if !jobs.is_empty() && jobs.iter().all(|j| j.parsed.is_err()) {
        eprintln!("solver: warning: no line of {} is a valid {} instance (is --board right?)", args.input, s.board);
    }

    catch_signals();
    let cancel = Arc::new(AtomicBool::new(false));
    let run = Run {
        solver: &solver,
        goal: s.goal,
        limits: Limits { nodes: args.node_limit, time: args.time_limit, cancel: Some(cancel.clone()) },
        cancel: cancel.clone(),
        tables: table_words(&solver),
    };
    let policy = args.parallel.resolve(todo.len(), threads);
    let (workers, threads_each, trial) = match policy {
        _ if threads == 1 => (1, 1, None),
        Parallel::Instances => (threads, 1, None),
        Parallel::Trial => (threads, 1, Some(TRIAL_NODES)),
        Parallel::Search | Parallel::Auto => (1, threads, None), // `resolve` has replaced Auto
    };
    let mut progress = Progress::new(todo.len() as u64);
    let mut failure = None;
    let started = Instant::now();
    let (tx, rx) = mpsc::channel();
    std::thread::scope(|sc| {
        let run = &run;
        sc.spawn(move || {
            let hard = run.phase(todo, workers, threads_each, trial, &tx);
            run.phase(hard, 1, threads, None, &tx);
        });
        loop {
            match rx.recv_timeout(Duration::from_millis(200)) {
                Ok(Msg::Started(id)) => progress.started(id),
                Ok(Msg::Deferred(id) | Msg::Abandoned(id)) => progress.ended(&id),
                // After a failed write nothing more is written: a torn line must stay the last one.
                Ok(Msg::Finished(_)) if failure.is_some() => {}
                Ok(Msg::Finished(rec)) => {
                    if let Err(e) = sink.write(&rec) {
                        failure.get_or_insert(e);
                        cancel.store(true, Ordering::SeqCst);
                        continue;
                    }
                    progress.finished(&rec);
                    if let Some(problem) = rec.error.as_deref().filter(|_| rec.status == Status::Invalid) {
                        progress.note(&format!("solver: line {}: {problem}", rec.line));
                    }
                    if rec.matched == Some(false) {
                        progress.note(&format!(
                            "solver: MISMATCH: id {} (line {}): the optimal length found is {} but the input says {}",
                            rec.id,
                            rec.line,
                            rec.length.unwrap_or_default(),
                            rec.expected.unwrap_or_default()
                        ));
                    }
                    records.push(rec);
                }
                Ok(Msg::Failed(e)) => {
                    failure.get_or_insert(e);
                    cancel.store(true, Ordering::SeqCst);
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => break,
            }
            if INTERRUPTED.load(Ordering::SeqCst) {
                cancel.store(true, Ordering::SeqCst);
            }
            progress.tick();
        }
    });
    progress.finish();

    let summary = Summary::new(&records);
    eprint!("summary of {out_name}:\n{}", summary.text());
    eprintln!(
        "wall time    {:.3} s this run ({} instances, {threads} threads, --parallel {}{})",
        started.elapsed().as_secs_f64(),
        progress.done,
        clap::ValueEnum::to_possible_value(&policy).expect("no variant is skipped").get_name(),
        if args.parallel == Parallel::Auto { " by auto" } else { "" }
    );
    if let Some(e) = failure {
        return Err(e);
    }
    if INTERRUPTED.load(Ordering::SeqCst) {
        let recorded: HashSet<&str> = records.iter().map(|r| r.id.as_str()).collect();
        let left = jobs.iter().filter(|j| !recorded.contains(j.id.as_str())).count();
        eprintln!("solver: interrupted; the searches in flight were abandoned and nothing partial was written ({left} instances left)");
        if args.output.is_some() {
            let mut words: Vec<String> = std::env::args().map(|w| shell_quote(&w)).collect();
            if !args.resume {
                words.push("--resume".into());
            }
            eprintln!("solver: resume with: {}", words.join(" "));
        } else {
            eprintln!("solver: the records went to stdout; to be able to resume a run, give it --output FILE");
        }
        return Ok(ExitCode::from(130));
    }
    if !summary.mismatched.is_empty() {
        eprintln!(
            "solver: MISMATCH: {} solved lengths differ from the input's: {}",
            summary.mismatched.len(),
            summary.mismatched.join(", ")
        );
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_parse_and_partition_the_instance_lines() {
        assert_eq!("1/3".parse(), Ok(Shard { index: 1, count: 3 }));
        for bad in ["3/3", "1", "a/2", "1/0", "-1/2"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
        let text = "# c\n1 2 3 0\n\n0 1 2 3\n1 2 3\n2 0 1 3 # x\n";
        let b = Board::new(2, 2).unwrap();
        let lines = |shard| read_jobs(text, b, Goal::BlankFirst, shard).iter().map(|j| j.line).collect::<Vec<_>>();
        assert_eq!(lines(None), [2, 4, 5, 6]);
        assert_eq!(lines(Some(Shard { index: 0, count: 2 })), [2, 5]);
        assert_eq!(lines(Some(Shard { index: 1, count: 2 })), [4, 6]);
    }

    #[test]
    fn ids_come_from_the_line_or_its_number_and_repeats_are_invalid() {
        let b = Board::new(2, 2).unwrap();
        let text = "a 0 0 1 2 3\n3 1 2 0\nb 5 1 2 3\na 0 0 1 2 3\n2 x 0 1 2 3\n";
        let jobs = read_jobs(text, b, Goal::BlankFirst, None);
        let ids: Vec<&str> = jobs.iter().map(|j| j.id.as_str()).collect();
        assert_eq!(ids, ["a", "2", "3", "a@4", "2@5"]);
        assert_eq!(jobs[0].parsed.as_ref().unwrap().1, Some(0));
        assert_eq!(jobs[1].tiles, "3 1 2 0");
        assert!(jobs[2].parsed.as_ref().unwrap_err().starts_with("expected 4 tiles"));
        assert_eq!(jobs[3].parsed.as_ref().unwrap_err(), "id 'a' is already used on line 1; ids must be unique");
        assert_eq!(jobs[4].parsed.as_ref().unwrap_err(), "the optimal length 'x' is not a number");
    }

    #[test]
    fn tiles_are_recorded_in_the_users_labels() {
        let b = Board::new(2, 2).unwrap();
        let jobs = read_jobs("2 3 1 0\n", b, Goal::BlankLast, None);
        assert_eq!(jobs[0].tiles, "2 3 1 0");
    }

    #[test]
    fn auto_runs_instances_side_by_side_unless_they_are_few() {
        assert_eq!(Parallel::Auto.resolve(4, 2), Parallel::Instances);
        assert_eq!(Parallel::Auto.resolve(3, 2), Parallel::Search);
        assert_eq!(Parallel::Trial.resolve(1, 2), Parallel::Trial);
    }

    #[test]
    fn shell_words_are_quoted_when_needed() {
        assert_eq!(shell_quote("--shard=1/3"), "--shard=1/3");
        assert_eq!(shell_quote("my file"), "'my file'");
        assert_eq!(shell_quote("it's"), r"'it'\''s'");
    }
}
