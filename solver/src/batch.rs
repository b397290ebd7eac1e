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

use crate::args::{engine_error, SearchArgs, INPUT, LIMITS, OUTPUT, TUNING};
use crate::output::{user_tiles, MoveStyle, Recorder, Source};
use crate::record::{read_records, Record, RecordFile, RecordFormat, Status};
use crate::report::Summary;
use anyhow::{anyhow, Context};
use clap::Args;
use cli_common::{log, shell_quote, usage};
use engine::{Limits, Solver, Stop};
use indicatif::{HumanDuration, ProgressBar};
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
#[command(after_long_help = "Examples:
  solver batch tests/data/korf100.txt -o results/korf100.jsonl
  solver batch FILE -o out.jsonl --resume              # after a kill, crash or Ctrl-C: only what is missing
  solver batch FILE -o out.csv --time-limit 60 --node-limit 100000000
  solver batch FILE -o shard-$I.jsonl --shard $I/4     # on 4 machines; merge with: solver report shard-*.jsonl")]
pub struct BatchArgs {
    /// Instance file, one position a line (bare tiles, or `id optimal_length tiles...`; `#` comments), or
    /// `-` for stdin. A line without an id gets its line number as id.
    #[arg(value_name = "FILE")]
    pub input: String,
    /// Record file (default: stdout). Refused if it already holds records, unless --resume.
    #[arg(long, short, value_name = "OUT", help_heading = OUTPUT)]
    pub output: Option<PathBuf>,
    /// jsonl (one JSON object a line) or csv (with a header) [default: csv if OUT ends in .csv, else jsonl].
    #[arg(long, value_enum, value_name = "FORMAT", help_heading = OUTPUT)]
    pub format: Option<RecordFormat>,
    /// Continue OUT: drop a torn last line, skip the ids that have a record, append the rest. A missing
    /// OUT is started afresh, so a job script can always pass --resume.
    #[arg(long, help_heading = OUTPUT)]
    pub resume: bool,
    /// No progress or summary on stderr; errors only.
    #[arg(long, short, help_heading = OUTPUT)]
    pub quiet: bool,
    /// Per instance: stop the search after this many seconds and record status `limit`.
    #[arg(long, value_name = "SECS", value_parser = parse_seconds, help_heading = LIMITS)]
    pub time_limit: Option<Duration>,
    /// Per instance: stop the search after this many expanded nodes (checked every 16384) and record `limit`.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..), help_heading = LIMITS)]
    pub node_limit: Option<u64>,
    /// Take every N-th instance starting at the I-th (0-based), e.g. 0/3, 1/3, 2/3 on three machines; merge
    /// the outputs with `solver report`.
    #[arg(long, value_name = "I/N", help_heading = INPUT)]
    pub shard: Option<Shard>,
    /// How --threads are used: instances (one thread an instance), search (every thread on one instance at
    /// a time), trial (instances side by side up to 2^20 expanded nodes, the harder ones again afterwards
    /// with every thread), auto (instances if there are at least twice as many as threads, else search).
    #[arg(long, value_enum, value_name = "HOW", default_value = "auto", help_heading = TUNING)]
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

/// The longest time limit taken: a year. Longer ones are surely typos, and `Duration` has an end.
const MAX_SECONDS: f64 = 365.0 * 24.0 * 3600.0;

/// A positive number of seconds, at most a year.
pub fn parse_seconds(s: &str) -> Result<Duration, String> {
    match s.parse::<f64>() {
        Ok(x) if x > 0.0 && x <= MAX_SECONDS => Ok(Duration::from_secs_f64(x)),
        Ok(x) if x > MAX_SECONDS => Err(format!("{s} seconds is more than a year ({MAX_SECONDS} s)")),
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

impl Job {
    fn source(&self, expected: Option<u32>) -> Source<'_> {
        Source { id: &self.id, line: self.line, tiles: &self.tiles, expected }
    }
}

/// The instances of an input text that belong to `shard`. Ids must be unique over the whole input (resume and
/// merging go by id), so a repeated id makes the later line invalid, under the id `ID@LINE`.
pub fn read_jobs(text: &[u8], board: Board, goal: Goal, shard: Option<Shard>) -> Vec<Job> {
    let mut first_use: HashMap<String, u64> = HashMap::new();
    let mut jobs = Vec::new();
    let mut index = 0;
    for (n, raw) in text.split(|&b| b == b'\n').enumerate() {
        let line_no = n as u64 + 1;
        let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
        let line = match std::str::from_utf8(raw) {
            Ok(line) => line,
            Err(e) => {
                let (id, text) = (line_no.to_string(), String::from_utf8_lossy(raw).trim().to_string());
                let problem = format!("not UTF-8 text (byte {} of the line)", e.valid_up_to() + 1);
                if shard.is_none_or(|s| index % s.count == s.index) {
                    jobs.push(Job { line: line_no, id, tiles: text, parsed: Err(problem) });
                }
                index += 1;
                continue;
            }
        };
        let (id, tiles, parsed) = match puzzle::parse_line(board, goal, line) {
            Ok(None) => continue,
            Ok(Some(inst)) => {
                let tiles = user_tiles(&inst.state, goal);
                (inst.id.unwrap_or_else(|| line_no.to_string()), tiles, Ok((inst.state, inst.optimal)))
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

/// Where records go: a file (synced per record when it is a regular file) or stdout (flushed per record).
struct Sink {
    file: Option<OutFile>,
    format: RecordFormat,
    /// A CSV file without its header yet.
    header_pending: bool,
}

struct OutFile {
    file: File,
    path: PathBuf,
    /// A regular file is synced after every record; a device (`/dev/null`, a pipe) cannot be.
    sync: bool,
    /// Created by this run: removed again if the run fails before writing a record.
    created: bool,
    written: bool,
}

impl Sink {
    /// Opens the output; with `resume`, also returns the records already in it (a torn tail cut off). The
    /// file stays locked while the batch runs, so two runs cannot interleave their records in it.
    fn open(path: Option<&Path>, format: RecordFormat, resume: bool) -> anyhow::Result<(Sink, Vec<Record>)> {
        let Some(path) = path else {
            return Ok((Sink { file: None, format, header_pending: format == RecordFormat::Csv }, Vec::new()));
        };
        let show = path.display();
        let existed = path.exists();
        let verb = if existed { "open" } else { "create" };
        let file =
            OpenOptions::new().create(true).append(true).open(path).with_context(|| format!("cannot {verb} {show}"))?;
        if !existed {
            sync_parent(path);
        }
        let meta = file.metadata().with_context(|| format!("cannot open {show}"))?;
        let regular = meta.file_type().is_file();
        let out = OutFile { file, path: path.to_owned(), sync: regular, created: !existed, written: false };
        // From here on, a failure removes the file this run created.
        let fail = |out: OutFile, e: anyhow::Error| {
            out.discard();
            Err(e)
        };
        if regular {
            match out.file.try_lock() {
                Ok(()) => {}
                Err(std::fs::TryLockError::WouldBlock) => {
                    return fail(out, anyhow!("{show} is being written by another batch run"))
                }
                Err(std::fs::TryLockError::Error(e)) => {
                    return fail(out, anyhow!(e).context(format!("cannot lock {show}")))
                }
            }
        }
        // Only a regular file with something in it is read (a device such as /dev/null reads as empty or endless).
        let len = if regular { meta.len() } else { 0 };
        if len > 0 && !resume {
            anyhow::bail!("{show} already holds records; add --resume to continue it, or choose another file");
        }
        let old = if len > 0 {
            read_records(path)?
        } else {
            RecordFile { records: Vec::new(), format: None, csv_header: None, complete_len: 0, torn_tail: 0 }
        };
        if let Some(f) = old.format.filter(|&f| f != format) {
            anyhow::bail!("{show} is {f:?}, not {format:?} as asked: resume it in its own format (--format)");
        }
        if let Some(h) = old.csv_header.as_deref().filter(|&h| h != RecordFormat::csv_header()) {
            anyhow::bail!(
                "{show} has the CSV columns '{h}', not this version's; finish it with the version that started it, \
                 or start a new file"
            );
        }
        if old.torn_tail > 0 {
            log(&format!("solver: note: {show} ends in an incomplete record ({} bytes, from an interrupted run); removing it, that instance is solved again", old.torn_tail));
            out.file
                .set_len(old.complete_len)
                .and_then(|_| out.file.sync_all())
                .with_context(|| format!("cannot truncate {show}"))?;
        }
        let header_pending = format == RecordFormat::Csv && old.complete_len == 0;
        Ok((Sink { file: Some(out), format, header_pending }, old.records))
    }

    fn write(&mut self, rec: &Record) -> anyhow::Result<()> {
        let bytes = self.format.encode(rec, self.header_pending)?;
        match &mut self.file {
            Some(out) => {
                out.written = true;
                out.file
                    .write_all(&bytes)
                    .and_then(|_| if out.sync { out.file.sync_data() } else { Ok(()) })
                    .with_context(|| format!("cannot write {}", out.path.display()))?
            }
            None => {
                let mut stdout = std::io::stdout().lock();
                stdout.write_all(&bytes).and_then(|_| stdout.flush()).context("cannot write stdout")?;
            }
        }
        self.header_pending = false;
        Ok(())
    }

    /// Ends the output: a file this run created and never wrote to is removed, so a failed start leaves
    /// nothing behind.
    fn close(self) {
        if let Some(out) = self.file.filter(|o| o.created && !o.written) {
            out.discard();
        }
    }
}

impl OutFile {
    fn discard(self) {
        if self.created && !self.written {
            let _ = std::fs::remove_file(&self.path);
        }
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
    Finished(Box<Record>),
    /// Over the `trial` node budget: queued for a search with every thread.
    Deferred(String),
    /// Cancelled by a signal or a failure: nothing is written.
    Abandoned(String),
    Failed(anyhow::Error),
}

/// What every search of a batch shares.
struct Run<'a> {
    solver: &'a Solver,
    recorder: Recorder<'a>,
    limits: Limits,
    cancel: Arc<AtomicBool>,
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
            Err(problem) => return Msg::Finished(Box::new(self.recorder.invalid(&job.source(None), problem.clone()))),
        };
        let mut limits = self.limits.clone();
        let trial = trial.filter(|&t| limits.nodes.is_none_or(|n| t < n));
        if let Some(t) = trial {
            limits.nodes = Some(t);
        }
        let report = match self.solver.solve_with(&state, threads, &limits) {
            Ok(r) => r,
            Err(e) => return Msg::Failed(engine_error(e).context(format!("id {} (line {})", job.id, job.line))),
        };
        match report.stopped() {
            Some(Stop::Cancelled) => Msg::Abandoned(job.id.clone()),
            Some(Stop::NodeLimit) if trial.is_some() => Msg::Deferred(job.id.clone()),
            _ => Msg::Finished(Box::new(self.recorder.searched(&job.source(expected), &state, &report, threads))),
        }
    }
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
    quiet: bool,
    total: u64,
    done: u64,
    by_status: [u64; 3],
    running: Vec<String>,
    start: Instant,
    last_line: Instant,
}

impl Progress {
    /// Progress for `total` instances; `quiet`: none at all.
    fn new(total: u64, quiet: bool) -> Progress {
        let bar = (!quiet && std::io::stderr().is_terminal()).then(|| {
            let bar = ProgressBar::new(total);
            bar.set_style(cli_common::bar_style());
            bar.enable_steady_tick(Duration::from_millis(250));
            bar
        });
        let now = Instant::now();
        Progress { bar, quiet, total, done: 0, by_status: [0; 3], running: Vec::new(), start: now, last_line: now }
    }

    /// A line above the bar: notes of problems are shown even when quiet.
    fn note(&self, msg: &str) {
        match &self.bar {
            Some(bar) => bar.println(msg),
            None => log(msg),
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
        if self.quiet || self.bar.is_some() || self.last_line.elapsed() < PLAIN_PROGRESS_EVERY {
            return;
        }
        self.last_line = Instant::now();
        let elapsed = self.start.elapsed();
        let eta = match self.done {
            0 => "unknown".to_string(),
            d => HumanDuration(elapsed.mul_f64((self.total - d) as f64 / d as f64)).to_string(),
        };
        let [solved, limit, invalid] = self.by_status;
        log(&format!(
            "batch: {}/{} done ({solved} solved, {limit} limit, {invalid} invalid), elapsed {}, ETA {eta}; running: {}",
            self.done,
            self.total,
            HumanDuration(elapsed),
            self.running.join(", ")
        ));
    }

    fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// The input's bytes: a file, or stdin for `-`. Lines are decoded one by one (see [`read_jobs`]), so a
/// stray invalid byte spoils one line, not the file.
fn read_input(input: &str) -> anyhow::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    if input == "-" {
        std::io::stdin().read_to_end(&mut bytes).context("cannot read stdin")?;
    } else {
        File::open(input)
            .and_then(|mut f| f.read_to_end(&mut bytes))
            .with_context(|| format!("cannot read {input}"))?;
    }
    Ok(bytes)
}

/// `solver batch`. Exit code 0, or 1 if a solved length differs from the input's (or on an error), 2 on a
/// usage error, 130 when interrupted.
pub fn run(args: &BatchArgs) -> anyhow::Result<ExitCode> {
    let s = &args.search;
    if args.resume && args.output.is_none() {
        return Err(usage(anyhow!("--resume needs --output: the record file to continue")));
    }
    // Everything the user can get wrong is checked before the output is touched.
    let solver = s.solver()?;
    let input = read_input(&args.input).map_err(usage)?;
    let format = args.format.or(args.output.as_deref().map(RecordFormat::for_path)).unwrap_or(RecordFormat::Jsonl);
    let (mut sink, records) = Sink::open(args.output.as_deref(), format, args.resume).map_err(usage)?;
    let result = run_into(args, &solver, &input, &mut sink, records);
    sink.close();
    result
}

fn run_into(
    args: &BatchArgs,
    solver: &Solver,
    input: &[u8],
    sink: &mut Sink,
    mut records: Vec<Record>,
) -> anyhow::Result<ExitCode> {
    let s = &args.search;
    let threads = solver.threads();
    let jobs = read_jobs(input, s.board, s.goal, args.shard);
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
    let say = |line: &str| {
        if !args.quiet {
            log(line)
        }
    };
    if args.resume && !records.is_empty() {
        say(&format!(
            "solver: resuming {out_name}: {} records there, {} of {} instances to go",
            records.len(),
            todo.len(),
            jobs.len()
        ));
    }
    if !jobs.is_empty() && jobs.iter().all(|j| j.parsed.is_err()) {
        log(&format!("solver: warning: no line of {} is a valid {} instance (is --board right?)", args.input, s.board));
    }

    catch_signals();
    let cancel = Arc::new(AtomicBool::new(false));
    let run = Run {
        solver,
        recorder: Recorder::new(solver, s.goal, MoveStyle::Tiles),
        limits: Limits { nodes: args.node_limit, time: args.time_limit, cancel: Some(cancel.clone()), progress: None },
        cancel: cancel.clone(),
    };
    let policy = args.parallel.resolve(todo.len(), threads);
    let (workers, threads_each, trial) = match policy {
        _ if threads == 1 => (1, 1, None),
        Parallel::Instances => (threads, 1, None),
        Parallel::Trial => (threads, 1, Some(TRIAL_NODES)),
        Parallel::Search | Parallel::Auto => (1, threads, None), // `resolve` has replaced Auto
    };
    let mut progress = Progress::new(todo.len() as u64, args.quiet);
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
                    records.push(*rec);
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

    // A failure is said first: the summary after it shows what was recorded before it.
    if let Some(e) = &failure {
        log(&format!("solver: error: {e:#}"));
    }
    let summary = Summary::new(&records);
    if !args.quiet {
        log(&format!("summary of {out_name}:\n{}", summary.text().trim_end()));
        log(&format!(
            "wall time    {:.3} s this run ({} instances, {threads} threads, --parallel {}{})",
            started.elapsed().as_secs_f64(),
            progress.done,
            clap::ValueEnum::to_possible_value(&policy).expect("no variant is skipped").get_name(),
            if args.parallel == Parallel::Auto { " by auto" } else { "" }
        ));
    }
    if failure.is_some() {
        // Said above, before the summary, where it is seen.
        return Ok(ExitCode::from(cli_common::EXIT_FAILURE));
    }
    if INTERRUPTED.load(Ordering::SeqCst) {
        let recorded: HashSet<&str> = records.iter().map(|r| r.id.as_str()).collect();
        let left = jobs.iter().filter(|j| !recorded.contains(j.id.as_str())).count();
        log(&format!("solver: interrupted; the searches in flight were abandoned and nothing partial was written ({left} instances left)"));
        if args.output.is_some() {
            let mut words: Vec<String> = std::env::args().map(|w| shell_quote(&w)).collect();
            if !args.resume {
                words.push("--resume".into());
            }
            log(&format!("solver: resume with: {}", words.join(" ")));
        } else {
            log("solver: the records went to stdout; to be able to resume a run, give it --output FILE");
        }
        return Ok(ExitCode::from(cli_common::EXIT_INTERRUPTED));
    }
    if !summary.mismatched.is_empty() {
        log(&format!(
            "solver: MISMATCH: {} solved lengths differ from the input's: {}",
            summary.mismatched.len(),
            summary.mismatched.join(", ")
        ));
        return Ok(ExitCode::from(cli_common::EXIT_FAILURE));
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
        let lines =
            |shard| read_jobs(text.as_bytes(), b, Goal::BlankFirst, shard).iter().map(|j| j.line).collect::<Vec<_>>();
        assert_eq!(lines(None), [2, 4, 5, 6]);
        assert_eq!(lines(Some(Shard { index: 0, count: 2 })), [2, 5]);
        assert_eq!(lines(Some(Shard { index: 1, count: 2 })), [4, 6]);
    }

    #[test]
    fn ids_come_from_the_line_or_its_number_and_repeats_are_invalid() {
        let b = Board::new(2, 2).unwrap();
        let text = "a 0 0 1 2 3\n3 1 2 0\nb 5 1 2 3\na 0 0 1 2 3\n2 x 0 1 2 3\n";
        let jobs = read_jobs(text.as_bytes(), b, Goal::BlankFirst, None);
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
        let jobs = read_jobs(b"2 3 1 0\n", b, Goal::BlankLast, None);
        assert_eq!(jobs[0].tiles, "2 3 1 0");
    }

    #[test]
    fn auto_runs_instances_side_by_side_unless_they_are_few() {
        assert_eq!(Parallel::Auto.resolve(4, 2), Parallel::Instances);
        assert_eq!(Parallel::Auto.resolve(3, 2), Parallel::Search);
        assert_eq!(Parallel::Trial.resolve(1, 2), Parallel::Trial);
    }
}
