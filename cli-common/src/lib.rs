//! What the project's command-line tools share, so that they behave alike: one mapping from errors to exit
//! codes, a `main` that reports errors in one line, log output that can never stop the work, shell quoting
//! and the progress-bar style.
//!
//! Exit codes, for every tool:
//! - 0: done (for `solve`: every instance solved and, where the input gave a length, matching it; for `batch`:
//!   every instance recorded, whatever its record says);
//! - 1: anything else: an I/O error, a corrupt or mismatched table, a length mismatch, a bug;
//! - 2: the user's input or options (a malformed position, a bad option value, a missing table);
//! - 3: `solve` only: a search stopped by a limit (time, nodes, memory) before it had an answer;
//! - 130: interrupted by Ctrl-C or SIGTERM (after writing everything finished).

#![warn(missing_docs)]

/// The exit codes as `--help` of a solving tool states them (the module's list, in the user's words), one
/// code a line, wrapped with a hanging indent (see [`help`]).
pub const EXIT_STATUS_HELP: &str = "\
Exit status:
  0    done (solve: every instance solved; batch: every instance has a record,
       whatever it says, since a limit, an unsolvable or an invalid line is a
       result its record gives)
  1    a failure (I/O, a corrupt table, a length that differs from the input's,
       a level solve proves unsolvable)
  2    bad input or options
  3    solve only: a search stopped by a limit (--time-limit, --node-limit,
       --memory-limit)
  130  interrupted (everything finished is written)";

/// What "nodes" means wherever a tool prints or records them (text, JSON, CSV, reports), in every tool's
/// `--help`: one meaning, so that figures from any of them compare.
pub const NODES_HELP: &str = "\
Nodes: a node is a position the search reached. `nodes` (in text, JSON and
reports) counts generated nodes, the successors the search produced; `expanded`
counts the nodes whose successors were generated, which --node-limit limits.";

pub mod help;
pub mod resources;
pub mod signals;
pub mod text;
pub mod units;

/// Help headings, the same in every command, so that `--help` reads alike everywhere.
pub mod heading {
    /// Where the positions come from.
    pub const INPUT: &str = "Input";
    /// How to search: the algorithm, its estimate and the tables behind it.
    pub const TABLES: &str = "Algorithm, heuristic and tables";
    /// Settings that change speed, never answers.
    pub const TUNING: &str = "Search tuning";
    /// What is printed or written, and in which format.
    pub const OUTPUT: &str = "Output";
    /// When to give up: time, nodes, memory.
    pub const LIMITS: &str = "Limits";
}

use std::fmt;
use std::io::{ErrorKind, Write};
use std::process::ExitCode;

/// Done: every answer found (or proved not to exist).
pub const EXIT_OK: u8 = 0;
/// Anything not the user's fault: I/O, a bad table, a length mismatch, a bug.
pub const EXIT_FAILURE: u8 = 1;
/// The user's input or options ([`Usage`]).
pub const EXIT_USAGE: u8 = 2;
/// A search stopped by a limit before it had an answer.
pub const EXIT_LIMIT: u8 = 3;
/// Ctrl-C or SIGTERM: 128 + SIGINT, as shells report an interrupted command.
pub const EXIT_INTERRUPTED: u8 = 130;

/// An error caused by the user's input or options: exit code 2.
#[derive(Debug)]
pub struct Usage(pub anyhow::Error);

impl fmt::Display for Usage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&one_line(&self.0))
    }
}

impl std::error::Error for Usage {}

/// An error and its causes in one line, `outer: cause: ...`, each cause's text once: many errors already
/// end with their cause's text (`cannot load ...: {0}`), which `{:#}` would print twice.
pub fn one_line(e: &anyhow::Error) -> String {
    let mut line = String::new();
    for cause in e.chain() {
        let text = cause.to_string();
        if line.contains(&text) {
            continue;
        }
        if !line.is_empty() {
            line.push_str(": ");
        }
        line.push_str(&text);
    }
    line
}

/// Marks an error as the user's (exit code 2).
pub fn usage(e: impl Into<anyhow::Error>) -> anyhow::Error {
    anyhow::Error::new(Usage(e.into()))
}

/// An error of a library, marked as the user's (exit code 2) when its type says so ([`search::Fault`]): the
/// one bridge from the libraries' errors to the commands' exit codes.
pub fn classified(e: impl search::Fault) -> anyhow::Error {
    if e.is_usage() {
        usage(e)
    } else {
        e.into()
    }
}

/// The exit code for an error: 2 if any cause in its chain is marked [`Usage`], else 1.
pub fn exit_code(e: &anyhow::Error) -> u8 {
    if e.chain().any(|c| c.is::<Usage>()) {
        EXIT_USAGE
    } else {
        EXIT_FAILURE
    }
}

/// Whether the error is a write to a closed pipe (stdout piped into `head`, say): not a failure to report.
fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| c.downcast_ref::<std::io::Error>().is_some_and(|io| io.kind() == ErrorKind::BrokenPipe))
}

/// Runs a tool's `run` and turns its result into the process's exit code: an error is printed as one line,
/// `NAME: error: ...`, on stderr. A closed stdout ends the tool quietly with code 0, as `head` expects. A
/// panic is a bug, and ends the tool with one line and [`EXIT_FAILURE`] (see `report_panics`).
pub fn main(name: &str, run: impl FnOnce() -> anyhow::Result<ExitCode>) -> ExitCode {
    report_panics(name);
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(run)) {
        Ok(Ok(code)) => code,
        Ok(Err(e)) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Ok(Err(e)) => {
            log(&format!("{name}: error: {}", one_line(&e)));
            ExitCode::from(exit_code(&e))
        }
        // The hook has said what it was.
        Err(_) => ExitCode::from(EXIT_FAILURE),
    }
}

/// Makes a panic one line on stderr, `NAME: internal error (a bug; please report it): panicked at FILE:LINE:
/// MESSAGE` (with `RUST_BACKTRACE` set, the standard report too), and its exit code [`EXIT_FAILURE`]
/// whichever way the build handles panics.
///
/// The release profile aborts on a panic (`panic = "abort"`: no unwinding paths in the search's hot code, and
/// a bug stops everything rather than leaving a half-updated state to run on). Then the process ends here,
/// with the exit code rather than SIGABRT; nothing is lost that a SIGKILL would keep, because every record
/// is written and synced as it is made and `--resume` completes the file (the kill-and-resume tests). A build
/// that unwinds (tests, or a caller that catches a panic where one request should not end the others)
/// returns from the hook, and the panic goes to whoever catches it: [`main`] makes it [`EXIT_FAILURE`].
fn report_panics(name: &str) {
    let name = name.to_string();
    let standard = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        log(&format!("{name}: internal error (a bug; please report it): {}", info.to_string().replace('\n', " ")));
        if std::env::var_os("RUST_BACKTRACE").is_some_and(|v| v != "0") {
            standard(info);
        }
        if cfg!(panic = "abort") {
            std::process::exit(EXIT_FAILURE.into());
        }
    }));
}

/// Writes one line to stderr. Progress and logs must never stop the work: a closed, full or dead stderr
/// loses the line and nothing else (`eprintln!` would panic).
pub fn log(line: &str) {
    // Whatever a message quotes (an id, a line of input), it cannot drive the terminal: control characters
    // are printed escaped, the message's own line breaks kept.
    let shown: Vec<_> = line.split('\n').map(text::printable).collect();
    let mut err = std::io::stderr().lock();
    let _ = err.write_all(shown.join("\n").as_bytes()).and_then(|_| err.write_all(b"\n"));
}

/// `--threads`: 0 is refused rather than read as "all cores", which is what leaving the option out means, so
/// that each value has one meaning.
pub fn parse_threads(text: &str) -> Result<usize, String> {
    match text.trim().parse::<usize>() {
        Ok(n) if (1..=search::MAX_THREADS).contains(&n) => Ok(n),
        _ => Err(format!(
            "give a whole number of worker threads from 1 to {} (leave the option out for all cores)",
            search::MAX_THREADS
        )),
    }
}

/// The parser of an option naming one of `values` (an algorithm, a rule, a heuristic): clap checks the name
/// against theirs (with its usual error and suggestions), and `--help` lists each name with its line. A
/// command offers the values its puzzle supports, so the same name means the same thing in every tool.
pub fn named<T: search::Named + Send + Sync>(values: &'static [T]) -> impl clap::builder::TypedValueParser<Value = T> {
    use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
    PossibleValuesParser::new(values.iter().map(|v| PossibleValue::new(v.name()).help(v.about())))
        .try_map(|name| T::from_name(&name))
}

/// `--format` of the commands that print results: words for people, or one JSON object a result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Lines of words for people.
    Text,
    /// One JSON object a result, a line each.
    Json,
}

/// `--format` of the commands that print a summary (`report`, `explore`): aligned lines of words, Markdown
/// tables, or JSON. The variants have no doc comments of their own because clap would print them in `--help`
/// as a second description of each value, beside the one the option gives.
#[allow(missing_docs)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum SummaryFormat {
    Text,
    Markdown,
    Json,
}

/// A command-line word quoted for a POSIX shell when it needs it.
pub fn shell_quote(w: &str) -> String {
    if !w.is_empty() && w.chars().all(|c| c.is_ascii_alphanumeric() || "-_./=:,@%+".contains(c)) {
        w.to_string()
    } else {
        format!("'{}'", w.replace('\'', r"'\''"))
    }
}

/// The style of every progress bar: elapsed time, bar, position, ETA, message.
pub fn bar_style() -> indicatif::ProgressStyle {
    indicatif::ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {pos}/{len} ETA {eta}  {msg}")
        .expect("a valid template")
        .progress_chars("=> ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shell_words_are_quoted_when_needed() {
        assert_eq!(shell_quote("--shard=1/3"), "--shard=1/3");
        assert_eq!(shell_quote("my file"), "'my file'");
        assert_eq!(shell_quote("it's"), r"'it'\''s'");
        assert_eq!(shell_quote(""), "''");
    }

    /// An error whose text already ends with its cause's (as `#[error("...: {0}")]` with `#[from]` writes
    /// it) is said once; causes that add something are all kept, in order.
    #[test]
    fn one_line_says_each_cause_once() {
        #[derive(Debug)]
        struct Load(std::io::Error);
        impl fmt::Display for Load {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "cannot load t.pdb: {}", self.0)
            }
        }
        impl std::error::Error for Load {
            fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
                Some(&self.0)
            }
        }
        let io = std::io::Error::new(ErrorKind::NotFound, "no such file");
        let e = anyhow::Error::new(Load(io)).context("solving line 3");
        assert_eq!(format!("{e:#}"), "solving line 3: cannot load t.pdb: no such file: no such file");
        assert_eq!(one_line(&e), "solving line 3: cannot load t.pdb: no such file");
        let e = usage(anyhow::anyhow!("tile 9 twice").context("bad position")).context("stdin line 2");
        assert_eq!(one_line(&e), "stdin line 2: bad position: tile 9 twice");
    }

    #[test]
    fn usage_anywhere_in_the_chain_is_exit_code_2() {
        let e = usage(anyhow::anyhow!("bad position")).context("line 3");
        assert_eq!(exit_code(&e), EXIT_USAGE);
        assert_eq!(exit_code(&anyhow::anyhow!("disk full")), EXIT_FAILURE);
        let pipe = anyhow::Error::new(std::io::Error::from(ErrorKind::BrokenPipe)).context("writing stdout");
        assert!(is_broken_pipe(&pipe));
    }
}
