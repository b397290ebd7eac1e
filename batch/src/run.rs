//! The batch runner: solves a file of instances and writes one record an instance as soon as it is finished,
//! for any puzzle that implements [`Task`]. This module is the flow of one run; the workers are in `pool`,
//! the progress display in `progress`.
//!
//! Durability: each record is encoded whole, written with one `write` and synced, so a kill or power cut
//! loses at most the instances in flight; `--resume` cuts off a torn last line, skips the ids that have a
//! record and appends. Ctrl-C / SIGTERM abandon the searches in flight (nothing partial is written) and
//! print the command that resumes. A second signal ends the process at once, which is just as safe.
//!
//! Input: a file is read whole first (its instances are counted for the progress bar and `--parallel auto`);
//! stdin is read one instance at a time as the workers take them, so an endless stream is worked on at once.

use crate::args::{BatchArgs, Parallel};
use crate::claim::Claims;
use crate::jobs::{Job, JobReader, Parse};
use crate::limits::LimitArgs;
use crate::pool::{Msg, Pool, Shape, Todo};
use crate::progress::Progress;
use crate::record::{latest, Record, RecordFormat, Status};
use crate::report::Summary;
use crate::rows::Row;
use crate::settings;
use crate::sink::Sink;
use crate::task::Task;
use anyhow::{anyhow, Context};
use cli_common::text::{count, printable};
use cli_common::{log, one_line, shell_quote, signals, usage};
use std::collections::HashMap;
use std::fs::File;
use std::io::{BufRead, BufReader};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{Duration, Instant};

/// The instances of a batch, in input order.
enum Input<'t, I> {
    /// A file, read whole first: the number of instances is known, and a mismatch with the records being
    /// resumed is found before any work.
    Listed(Vec<Job<I>>),
    /// Stdin, read as the workers take the instances.
    Streamed(Box<JobReader<'t, Box<dyn BufRead + Send>, I>>),
}

/// A tool's `batch`, for the puzzle `task` (already built from the tool's options, so that everything the
/// user can get wrong is checked before the output is touched). Exit code 0, or 1 if a solved length differs
/// from the input's (or on an error), 2 on a usage error, 130 when interrupted.
pub fn run<T: Task>(args: &BatchArgs, task: &T) -> anyhow::Result<ExitCode> {
    if args.resume && args.output.is_none() {
        return Err(usage(anyhow!("--resume needs --output: the record file to continue")));
    }
    if args.claim.is_some() && args.input == "-" {
        return Err(usage(anyhow!(
            "--claim needs an input file: claims go by line number, and stdin's lines are not the same for every worker"
        )));
    }
    if args.claim.is_some() && args.parallel == Parallel::Trial {
        return Err(usage(anyhow!(
            "--parallel trial leaves the hard instances to the end, which claiming cannot even out: use instances or search"
        )));
    }
    let parse = |line: &str| task.parse(line);
    let input = read_input(args, &parse, task.rows())?;
    let format = args.format.or(args.output.as_deref().map(RecordFormat::for_path)).unwrap_or(RecordFormat::Jsonl);
    let (mut sink, records) = Sink::open(task.name(), args.output.as_deref(), format, args.resume).map_err(usage)?;
    let claims = match (&args.claim, &args.output) {
        (Some(dir), Some(out)) => match open_claims(task.name(), args, dir, out, &records) {
            Ok(claims) => Some(claims),
            Err(e) => {
                sink.close();
                return Err(usage(e));
            }
        },
        _ => None,
    };
    let result = run_into(args, task, input, &mut sink, records, claims.as_ref());
    sink.close();
    result
}

/// The claims of a worker sharing its input (`--claim`). The lines its output already has records for are
/// claimed first, so that no other worker takes them again (an output begun without `--claim`).
fn open_claims(
    name: &str,
    args: &BatchArgs,
    dir: &std::path::Path,
    out: &std::path::Path,
    records: &[Record],
) -> anyhow::Result<Claims> {
    let claims = Claims::open(dir, &args.input, out)?;
    let mut theirs = Vec::new();
    for r in records {
        if !claims.take(r.line)? {
            theirs.push(r.line);
        }
    }
    if !theirs.is_empty() && !args.quiet {
        let lines: Vec<String> = theirs.iter().take(10).map(u64::to_string).collect();
        log(&format!(
            "{name}: note: {} recorded in {} are claimed by other workers too (lines {}): the merged records will hold them twice",
            count(theirs.len() as u64, "line"),
            out.display(),
            lines.join(", ")
        ));
    }
    Ok(claims)
}

/// The input: a file read whole, or stdin to be read as it is worked on.
fn read_input<'t, I>(args: &BatchArgs, parse: Parse<'t, I>, rows: Option<Row>) -> anyhow::Result<Input<'t, I>> {
    if args.input == "-" {
        let stdin: Box<dyn BufRead + Send> = Box::new(BufReader::new(std::io::stdin()));
        return Ok(Input::Streamed(Box::new(JobReader::new(stdin, parse, args.shard).with_rows(rows))));
    }
    let file = open_input(&args.input)?;
    let jobs =
        JobReader::new(BufReader::new(file), parse, args.shard).with_rows(rows).collect::<std::io::Result<Vec<_>>>();
    Ok(Input::Listed(jobs.with_context(|| format!("cannot read {}", args.input)).map_err(usage)?))
}

/// The input file opened for reading, or the user's error naming it (missing, unreadable, a folder).
fn open_input(input: &str) -> anyhow::Result<File> {
    let opened = File::open(input).and_then(|file| match file.metadata() {
        Ok(m) if m.is_dir() => Err(std::io::Error::other("it is a folder, not a file")),
        _ => Ok(file),
    });
    opened.with_context(|| format!("cannot read {input}")).map_err(usage)
}

/// Checks that the batch's input can be read (stdin always can), so that a tool can say a wrong file name
/// first, before the warnings and work of building its solver (loading tables).
pub fn check_input(args: &BatchArgs) -> anyhow::Result<()> {
    if args.input != "-" {
        open_input(&args.input)?;
    }
    Ok(())
}

/// Runs the batch into an open sink that already holds `records` (when resumed), and says how it ended.
fn run_into<T: Task>(
    args: &BatchArgs,
    task: &T,
    mut input: Input<'_, T::Instance>,
    sink: &mut Sink,
    records: Vec<Record>,
    claims: Option<&Claims>,
) -> anyhow::Result<ExitCode> {
    let name = task.name();
    let out_name = args.output.as_ref().map_or("stdout".to_string(), |p| p.display().to_string());
    let listed = match &input {
        Input::Listed(jobs) => Some(jobs.len()),
        Input::Streamed(_) => None,
    };
    let settings = settings::encode(&task.settings());
    if settings::check_resume(&records, &settings, &out_name)? {
        say(args, &format!("{name}: note: records of {out_name} from an older version do not say their settings; they were not checked against this run's"));
    }
    let counted = latest(&records).map_err(|e| usage(anyhow!("{out_name}: {e}")))?;
    let recorded = Recorded::new(&counted, args.retry_limits.then_some(&args.limits), &out_name, &args.input);
    if recorded.stuck > 0 {
        let stuck = recorded.stuck;
        say(
            args,
            &format!(
                "{name}: {stuck} limit stops are not searched again: this run's limits do not go past what they spent"
            ),
        );
    }
    let (mut todo, total) = todo(&mut input, recorded, claims)?;
    if let (Some(instances), Some(total), true) = (listed, total, args.resume && !records.is_empty()) {
        let (had, instances) = (count(records.len() as u64, "record"), count(instances as u64, "instance"));
        say(args, &format!("{name}: resuming {out_name}: {had} there, {total} of {instances} to go"));
    }

    signals::catch_interrupts();
    let pool = Pool::new(args, task)?;
    let shape = Shape::new(task, args.parallel, total);
    let started = Instant::now();
    let progress = Progress::new(total.map(|t| t as u64), args.quiet);
    let mut writer = Writer { name, settings, sink, records, progress, failure: None, cancel: &pool.cancel };
    writer.run(&pool, &mut todo, shape);
    drop(todo);

    let (read, valid) = match &input {
        Input::Streamed(reader) => (reader.jobs, reader.valid),
        Input::Listed(_) => {
            let records = &writer.records;
            (records.len() as u64, records.iter().filter(|r| r.status != Status::Invalid).count() as u64)
        }
    };
    if read > 0 && valid == 0 {
        log(&format!("{name}: warning: no line of {} is a valid instance ({})", args.input, task.no_valid_hint()));
    }
    let summary = summarize(args, &out_name, &writer, T::STEPS, shape, started);
    Ok(exit_code(args, name, writer, &summary, listed))
}

/// The ids already recorded, with their instances: an input line with a recorded id is skipped, unless its
/// instance differs, which means the records are of another input, or (`--retry-limits`) its last record
/// is a limit stop.
struct Recorded<'a> {
    /// Each id's instance, and whether it is searched again, by its last record.
    have: HashMap<String, (String, bool)>,
    /// Limit stops that `--retry-limits` leaves: this run's limits do not go past what they spent.
    stuck: usize,
    out_name: &'a str,
    input: &'a str,
}

impl<'a> Recorded<'a> {
    /// From each id's last record ([`latest`]); `retry`: the limits of a run with `--retry-limits`.
    fn new(counted: &[&Record], retry: Option<&LimitArgs>, out_name: &'a str, input: &'a str) -> Recorded<'a> {
        let mut stuck = 0;
        let mut again = |r: &Record| match retry {
            Some(limits) if r.status == Status::Limit => {
                let further = limits.go_past(r.expanded, r.seconds);
                stuck += usize::from(!further);
                further
            }
            _ => false,
        };
        let have = counted.iter().map(|r| (r.id.clone(), (r.instance.clone(), again(r)))).collect();
        Recorded { have, stuck, out_name, input }
    }

    /// `job`, unless it has a record that stands.
    fn unless_recorded<I>(&self, job: Job<I>) -> anyhow::Result<Option<Job<I>>> {
        match self.have.get(&job.id) {
            None => Ok(Some(job)),
            Some((text, again)) if *text == job.text => Ok(again.then_some(job)),
            Some((text, _)) => Err(usage(anyhow!(
                "{} has id '{}' as '{}', but line {} of {} has '{}': is it the output of another input?",
                self.out_name,
                printable(&job.id),
                printable(text),
                job.line,
                self.input,
                printable(&job.text)
            ))),
        }
    }
}

/// The jobs of `input` that have no record yet, and how many there are (`None` for a stream, or when shared
/// by `claims`: which are this worker's is known only as they are claimed, one at a time as it takes them).
/// A listed input is checked against the records whole before any work; a stream, as it is read.
fn todo<'a, I: Send + 'a>(
    input: &'a mut Input<'_, I>,
    recorded: Recorded<'a>,
    claims: Option<&'a Claims>,
) -> anyhow::Result<(Todo<'a, I>, Option<usize>)> {
    let (todo, total): (Todo<'a, I>, _) = match input {
        Input::Listed(jobs) => {
            let jobs = std::mem::take(jobs).into_iter().filter_map(|j| recorded.unless_recorded(j).transpose());
            let todo = jobs.collect::<anyhow::Result<Vec<_>>>()?;
            let total = todo.len();
            (Box::new(todo.into_iter().map(Ok)), Some(total))
        }
        Input::Streamed(reader) => {
            let jobs = reader.by_ref().map(|j| j.context("cannot read stdin"));
            let todo = jobs.filter_map(move |j| j.and_then(|j| recorded.unless_recorded(j)).transpose());
            (Box::new(todo), None)
        }
    };
    let Some(claims) = claims else { return Ok((todo, total)) };
    let claimed = todo.filter_map(move |j| j.and_then(|j| Ok(claims.take(j.line)?.then_some(j))).transpose());
    Ok((Box::new(claimed), None))
}

/// The main thread's side of a run: the only writer of records, so no record is ever torn by another.
struct Writer<'a> {
    name: &'a str,
    /// The task's settings, stored in every record.
    settings: String,
    sink: &'a mut Sink,
    /// Every record of the output: those resumed, then those written.
    records: Vec<Record>,
    progress: Progress,
    /// The first failure (a read error, a failed write, another input's records): the batch stops.
    failure: Option<anyhow::Error>,
    /// The pool's: set on a failure or a signal.
    cancel: &'a AtomicBool,
}

impl Writer<'_> {
    /// Runs `pool` on `todo` and takes its messages until its last worker has ended.
    fn run<T: Task>(&mut self, pool: &Pool<'_, T>, todo: &mut Todo<'_, T::Instance>, shape: Shape) {
        let (tx, rx) = mpsc::channel();
        std::thread::scope(|sc| {
            sc.spawn(move || pool.run(todo, shape, &tx));
            loop {
                match rx.recv_timeout(Duration::from_millis(200)) {
                    Ok(msg) => self.take(msg),
                    Err(RecvTimeoutError::Timeout) => {}
                    Err(RecvTimeoutError::Disconnected) => break,
                }
                if signals::interrupted() {
                    self.cancel.store(true, Ordering::SeqCst);
                }
                self.progress.tick();
            }
        });
        self.progress.finish();
    }

    fn take(&mut self, msg: Msg) {
        match msg {
            Msg::Started(running) => self.progress.started(running),
            Msg::Deferred(id) | Msg::Abandoned(id) => self.progress.ended(&id),
            Msg::Note(text) => self.progress.note(&text),
            // After a failed write nothing more is written: a torn line must stay the last one.
            Msg::Finished(_) if self.failure.is_some() => {}
            Msg::Finished(rec) => self.write(*rec),
            Msg::Failed(e) => self.fail(e),
        }
    }

    /// Writes a finished record, and says what is wrong with it, if anything.
    fn write(&mut self, mut rec: Record) {
        rec.finished = Some(unix_seconds());
        rec.settings.clone_from(&self.settings);
        if let Err(e) = self.sink.write(&rec) {
            return self.fail(e);
        }
        self.progress.finished(&rec);
        let name = self.name;
        if let Some(problem) = rec.error.as_deref().filter(|_| rec.status == Status::Invalid) {
            self.progress.note(&format!("{name}: line {}: {problem}", rec.line));
        }
        if rec.matched == Some(false) {
            self.progress.note(&format!(
                "{name}: MISMATCH: id {} (line {}): the optimal length found is {} but the input says {}",
                rec.id,
                rec.line,
                rec.length.unwrap_or_default(),
                rec.expected.unwrap_or_default()
            ));
        }
        self.records.push(rec);
    }

    /// Stops the batch: the searches in flight are abandoned.
    fn fail(&mut self, e: anyhow::Error) {
        self.failure.get_or_insert(e);
        self.cancel.store(true, Ordering::SeqCst);
    }
}

/// The closing lines on stderr: a failure first (the summary after it shows what was recorded before it),
/// the summary of the whole output, and this run's wall time.
fn summarize(
    args: &BatchArgs,
    out_name: &str,
    writer: &Writer,
    steps: &'static str,
    shape: Shape,
    started: Instant,
) -> Summary {
    if let Some(e) = &writer.failure {
        log(&format!("{}: error: {}", writer.name, one_line(e)));
    }
    // A record searched again (`--retry-limits`) replaces the earlier one. The records of one id are of one
    // instance (checked before any search, and the new ones are of the input's).
    let counted = latest(&writer.records).unwrap_or_else(|_| writer.records.iter().collect());
    let summary = Summary::new(counted, steps);
    say(args, &format!("summary of {out_name}:\n{}", summary.text().trim_end()));
    say(
        args,
        &format!(
            "wall time    {:.3} s this run ({}, {}, --parallel {}{})",
            started.elapsed().as_secs_f64(),
            count(writer.progress.done, "instance"),
            count(shape.threads as u64, "thread"),
            clap::ValueEnum::to_possible_value(&shape.policy).expect("no variant is skipped").get_name(),
            if args.parallel == Parallel::Auto { " by auto" } else { "" }
        ),
    );
    summary
}

/// How the run ended: a failure's code (said in the summary), interrupted (with how to resume), a length
/// that differs from the input's, or done. `listed`: the instances of a listed input.
fn exit_code(args: &BatchArgs, name: &str, writer: Writer, summary: &Summary, listed: Option<usize>) -> ExitCode {
    if let Some(e) = writer.failure {
        // A usage error (another input's records) keeps its exit code.
        return ExitCode::from(cli_common::exit_code(&e));
    }
    if signals::interrupted() {
        let left = match listed {
            _ if args.claim.is_some() => {
                "its unclaimed instances are left to the other workers, and its claimed ones to --resume".to_string()
            }
            Some(_) => format!("{} left", count(writer.progress.left().unwrap_or_default(), "instance")),
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
        return ExitCode::from(cli_common::EXIT_INTERRUPTED);
    }
    if !summary.mismatched.is_empty() {
        log(&format!(
            "{name}: MISMATCH: {} solved lengths differ from the input's: {}",
            summary.mismatched.len(),
            summary.mismatched.iter().map(|id| printable(id)).collect::<Vec<_>>().join(", ")
        ));
        return ExitCode::from(cli_common::EXIT_FAILURE);
    }
    ExitCode::SUCCESS
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
