//! `pdb-builder`: build, inspect and verify pattern database files.
//!
//! Exit status, one rule for every subcommand:
//! - 0: done (also when whoever reads standard output closed it early, as `pdb-builder info ... | head -1`
//!   does: it asked for no more).
//! - 2: the user's input or options: a bad partition, board or option value, a file or folder that does not
//!   exist, a folder without tables, or a build that needs more memory than the limit allows or more disk
//!   space than the output folder has free.
//! - 1: anything else: a corrupt, truncated, misnamed or mismatched table (header or payload alike), and
//!   I/O failures.
//!
//! No signal handler is installed, so Ctrl-C or SIGTERM stops the program at once at any stage, start-up
//! included. A killed build leaves only a hidden temporary file, which the next build in that folder removes.
//!
//! Nothing here uses `eprintln!`/`println!`: they panic when the stream is closed or the device full. Log
//! lines go through `cli_common::log`, which ignores a failed write (a log line is never worth stopping a build for),
//! and results go through `writeln!` on standard output, whose failure stops the command.

use clap::{Parser, Subcommand};
use cli_common::units::{human_bytes, thousands};
use cli_common::Format;
use indicatif::{ProgressBar, ProgressStyle};
use pdb_builder::{bfs, symmetry, Error, Existing};
use puzzle::pdb_file::{Expect, Kind, PdbFile};
use puzzle::{Board, Partition, Pattern};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Option groups in `--help`.
const INPUT: &str = "Input";
const TABLES: &str = "Tables";
const TUNING: &str = "Tuning";
const OUTPUT: &str = "Output";

#[derive(Parser)]
#[command(
    name = "pdb-builder",
    version,
    about = "Builds, inspects and verifies additive pattern databases for sliding-tile puzzles",
    after_long_help = "Examples:
  # the 15-puzzle's 7-8 tables into pdbs/
  pdb-builder build --partition 7-8
  # check every table in pdbs/
  pdb-builder verify
  # all build options, with examples
  pdb-builder build --help"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Build one table per pattern of a partition into the output folder.
    #[command(after_long_help = "Examples:
  # the 15-puzzle's 7-8 tables into pdbs/
  # (needs 1.45 GiB of memory, about 2 minutes on 2 cores)
  pdb-builder build --partition 7-8
  # the small 5-5-5 tables into tables/, with 2 worker threads
  pdb-builder build --partition 5-5-5 -o tables -j 2
  # the 8-puzzle's tables
  pdb-builder build --board 3x3 --partition 4-4 -o pdbs-3x3
  # a custom partition, refused if it needs more than 1 GiB
  pdb-builder build --partition 1,2,3,4,5/6,7,8,9,10/11,12,13,14,15 \\
      --memory-limit 1G")]
    Build {
        /// A named partition (5x5: 7-6-6-5, 6-6-6-6; 4x4: 7-8, 6-6-3, 5-5-5; 3x3: 4-4; 2x3: 2-3) or tiles like
        /// 1,2,3/4,5,6,7,8.
        #[arg(long, value_name = "PARTITION", help_heading = TABLES)]
        partition: String,
        /// The board, rows x columns (at most 25 cells).
        #[arg(long, value_name = "RxC", default_value = "4x4", help_heading = TABLES)]
        board: Board,
        /// Rebuild tables whose valid file already exists.
        #[arg(long, help_heading = TABLES)]
        force: bool,
        /// Blank-aware tables (NAME.blank.pdb): a value for each region the pattern's tiles may leave the
        /// blank in, never below the plain table's and often above; as many times larger as the most regions
        /// (7 for 7 tiles and 8 for 8 tiles on 4x4, 5 for 6 tiles on 5x5). The solver prefers them when both
        /// are there.
        #[arg(long, help_heading = TABLES)]
        blank_aware: bool,
        /// With --blank-aware: entries a placement, 2 or more [default: one a region]. The last entry serves
        /// every region from it up (the least of theirs), so fewer entries give a smaller, weaker table.
        #[arg(long, value_name = "K", requires = "blank_aware", value_parser = clap::value_parser!(u32).range(2..=16), help_heading = TABLES)]
        labels: Option<u32>,
        /// Worker threads, 1 to 256 [default: all cores].
        #[arg(short = 'j', long, value_name = "N", value_parser = cli_common::parse_threads, help_heading = TUNING)]
        threads: Option<usize>,
        /// Refuse to build if the search needs more memory than this, e.g. 2G [default: available memory].
        #[arg(long, value_name = "SIZE", value_parser = parse_memory_limit, help_heading = TUNING)]
        memory_limit: Option<u64>,
        /// Folder the tables are written to, one file per pattern (the folder `solver --pdbs` reads: both
        /// take $STP_PDBS when the option is left out).
        #[arg(short, long, value_name = "DIR", env = "STP_PDBS", default_value = "pdbs", help_heading = OUTPUT)]
        out: PathBuf,
        /// Print nothing but errors.
        #[arg(short, long, help_heading = OUTPUT)]
        quiet: bool,
    },
    /// Print the header of each table in words, or as JSON (one object per line).
    #[command(after_long_help = "Examples:
  pdb-builder info pdbs/4x4-1-2-3-4-5-6-7.pdb
  pdb-builder info pdbs --format json")]
    Info {
        /// Table files, or folders meaning their *.pdb files. Each one's payload checksum is checked too.
        #[arg(required = true, value_name = "PATH", help_heading = INPUT)]
        paths: Vec<PathBuf>,
        /// How to print each table's header.
        #[arg(long, value_enum, default_value = "text", help_heading = OUTPUT)]
        format: Format,
    },
    /// Fully check tables: header, file name, payload checksum and recomputed histogram.
    #[command(after_long_help = "Examples:
  # every table in pdbs/
  pdb-builder verify
  # two tables, which must be for the 4x4 board
  pdb-builder verify --board 4x4 pdbs/4x4-1-2-3-4-5-6-7.pdb \\
      pdbs/4x4-8-9-10-11-12-13-14-15.pdb")]
    Verify {
        /// Table files, or folders meaning their *.pdb files.
        #[arg(value_name = "PATH", default_value = "pdbs", help_heading = INPUT)]
        paths: Vec<PathBuf>,
        /// Also require every table to be for this board.
        #[arg(long, value_name = "RxC", help_heading = TABLES)]
        board: Option<Board>,
    },
}

/// `--memory-limit`: a size such as `2G`.
fn parse_memory_limit(text: &str) -> Result<u64, Error> {
    Ok(cli_common::units::parse_size(text)?)
}

/// Why a command stopped before the end.
enum Stop {
    Failed(Error),
    /// Writing a result to standard output failed.
    Output(std::io::Error),
}

impl From<Error> for Stop {
    fn from(e: Error) -> Stop {
        Stop::Failed(e)
    }
}

impl From<std::io::Error> for Stop {
    fn from(e: std::io::Error) -> Stop {
        Stop::Output(e)
    }
}

impl From<Stop> for anyhow::Error {
    /// Into the error every tool reports the same way (`cli_common::main`): the user's mistakes exit 2.
    fn from(stop: Stop) -> anyhow::Error {
        match stop {
            Stop::Failed(e) => cli_common::classified(e),
            Stop::Output(e) => anyhow::Error::new(e).context("cannot write to standard output"),
        }
    }
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(e.exit_code() as u8);
        }
    };
    cli_common::main("pdb-builder", || run(cli).map_err(anyhow::Error::from))
}

fn run(cli: Cli) -> Result<ExitCode, Stop> {
    match cli.command {
        Command::Build { partition, board, force, blank_aware, labels, threads, memory_limit, out, quiet } => {
            let kind = if blank_aware { Kind::BlankAware } else { Kind::Plain };
            build(&partition, board, (kind, labels), &out, threads, memory_limit, quiet, force)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Info { paths, format } => {
            let mut stdout = std::io::stdout().lock();
            for path in pdb_builder::table_files(&paths)? {
                let f = PdbFile::open(&path, &Expect::default()).map_err(Error::from)?;
                f.verify_checksum().map_err(Error::from)?;
                match format {
                    Format::Text => write!(stdout, "{}", describe(&f))?,
                    Format::Json => writeln!(stdout, "{}", info_json(&f))?,
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Verify { paths, board } => verify(&paths, board),
    }
}

/// A pattern and the file its table is in, or goes to.
type Table<'a> = (&'a Pattern, PathBuf);

/// Where `build` says what it does: the log, unless `--quiet`.
#[derive(Clone, Copy)]
struct Log {
    quiet: bool,
}

impl Log {
    /// Logs `line` (a failed write to stderr loses only the line).
    fn note(self, line: &str) {
        if !self.quiet {
            cli_common::log(line);
        }
    }

    /// A bar over a table's entries, drawn only where someone watches: not quiet, and stderr a terminal.
    fn progress_bar(self, entries: u64) -> Option<ProgressBar> {
        (!self.quiet && std::io::stderr().is_terminal()).then(|| {
            let bar = ProgressBar::new(entries);
            bar.set_style(
                ProgressStyle::with_template("  [{elapsed_precise}] {bar:40} {percent:>3}% of entries  depth {msg}")
                    .expect("valid template"),
            );
            bar.enable_steady_tick(std::time::Duration::from_millis(250));
            bar
        })
    }
}

/// `pdb-builder build`: cleans up after killed builds, sees which tables are missing, refuses a build that
/// does not fit in memory or on the disk, then makes the missing tables one at a time, relabelling a symmetric image of a
/// table already there instead of searching when it can.
#[allow(clippy::too_many_arguments)]
fn build(
    partition: &str,
    board: Board,
    (kind, cap): (Kind, Option<u32>),
    out: &Path,
    threads: Option<usize>,
    memory_limit: Option<u64>,
    quiet: bool,
    force: bool,
) -> Result<(), Error> {
    let partition = Partition::parse(board, partition)?;
    let log = Log { quiet };
    clean_up_killed_builds(out, log);
    let labels = |p: &Pattern| pdb_builder::labels_for(board, p, kind, cap);
    let (mut ready, todo) = survey(board, &partition, kind, &labels, out, force, log);
    let blank_aware = kind == Kind::BlankAware;
    let Some(largest) = todo.iter().map(|(p, _)| *p).max_by_key(|p| bfs::memory_needed(board, p, labels(p))) else {
        return Ok(());
    };
    for (pattern, _) in &todo {
        pdb_builder::check_entries(board, pattern, labels(pattern))?;
    }
    check_memory(board, &partition, kind, todo.len(), (largest, labels(largest)), memory_limit, log)?;
    pdb_builder::check_writable(out)?;
    pdb_builder::check_disk(out, todo.iter().map(|(p, path)| (*p, labels(p), path.as_path())))?;
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads.unwrap_or(0)).build()?;
    for (pattern, path) in todo {
        let sources: Vec<&Pattern> = ready.iter().map(|(p, _)| *p).collect();
        // A symmetry moves the regions' order too, so blank-aware tables are always searched for.
        match symmetry::find_image(board, pattern, &sources).filter(|_| !blank_aware) {
            Some((i, s)) => derive_one(&pool, board, pattern, &path, &ready[i], s, log)?,
            None => build_one(&pool, board, pattern, labels(pattern), &path, log)?,
        }
        ready.push((pattern, path));
    }
    Ok(())
}

/// Removes the temporary files builds killed in `out` left behind, saying so.
fn clean_up_killed_builds(out: &Path, log: Log) {
    for stale in pdb_builder::remove_stale_temporaries(out) {
        log.note(&match stale.removed {
            Ok(()) => format!("removed {}, left by process {} (a killed build)", stale.path.display(), stale.pid),
            Err(e) => format!("cannot remove {}, left by process {}: {e}", stale.path.display(), stale.pid),
        });
    }
}

/// The partition's tables split into those already valid in `out` (kept unless `force`) and those to make,
/// in pattern order.
fn survey<'a>(
    board: Board,
    partition: &'a Partition,
    kind: Kind,
    labels: &dyn Fn(&Pattern) -> u32,
    out: &Path,
    force: bool,
    log: Log,
) -> (Vec<Table<'a>>, Vec<Table<'a>>) {
    let mut todo = Vec::new();
    // Valid tables of this partition, which a symmetric pattern's table can be relabelled from.
    let mut ready = Vec::new();
    for pattern in &partition.patterns {
        let path = out.join(kind.file_name(board, pattern));
        match pdb_builder::existing(&path, board, pattern, labels(pattern)) {
            Existing::Valid if !force => {
                log.note(&format!("{}: valid table already there, skipped (--force rebuilds it)", path.display()));
                ready.push((pattern, path));
            }
            Existing::Invalid(why) => {
                log.note(&format!("{why}; rebuilding it"));
                todo.push((pattern, path));
            }
            _ => todo.push((pattern, path)),
        }
    }
    (ready, todo)
}

/// Says what the build needs and refuses it if `largest`, the table needing most memory (tables are built
/// one at a time), needs more than the limit: `--memory-limit`, else the memory available now (in a container,
/// what its cgroup limit leaves).
fn check_memory(
    board: Board,
    partition: &Partition,
    kind: Kind,
    tables: usize,
    (largest, labels): (&Pattern, u32),
    memory_limit: Option<u64>,
    log: Log,
) -> Result<(), Error> {
    let need = bfs::memory_needed(board, largest, labels);
    let (limit, why) = match memory_limit {
        Some(l) => (l, "--memory-limit".to_string()),
        None => {
            let available = cli_common::resources::available_memory().ok_or(Error::NoMemInfo)?;
            let why = match available.cgroup {
                None => "available memory".to_string(),
                Some(dir) => format!("available memory under the limit of cgroup {}", dir.display()),
            };
            (available.bytes, why)
        }
    };
    log.note(&format!(
        "partition {} on {board}: {} {} table(s) to build; memory needed {} (the {}-tile table, built one at a time), limit {} ({why})",
        partition.name,
        tables,
        kind.name(),
        human_bytes(need),
        largest.len(),
        human_bytes(limit)
    ));
    if need > limit {
        let what = format!("the {}-tile table {}", largest.len(), kind.file_name(board, largest));
        return Err(Error::TooBig { what, need, limit, why });
    }
    Ok(())
}

/// Writes `pattern`'s table to `path` by relabelling `source`'s, which the board symmetry `s` takes onto it.
fn derive_one(
    pool: &rayon::ThreadPool,
    board: Board,
    pattern: &Pattern,
    path: &Path,
    (source, source_path): &Table,
    s: symmetry::Symmetry,
    log: Log,
) -> Result<(), Error> {
    let built = pool.install(|| pdb_builder::derive_table(board, pattern, path, source, source_path, s))?;
    log.note(&format!(
        "wrote {}: the image of {} under a symmetry of the board, {}, {:.1} s",
        path.display(),
        source_path.display(),
        human_bytes(built.file_bytes),
        built.elapsed.as_secs_f64()
    ));
    Ok(())
}

/// Builds `pattern`'s table by a breadth-first search on `pool` and writes it to `path`, reporting each depth
/// as it completes.
fn build_one(
    pool: &rayon::ThreadPool,
    board: Board,
    pattern: &Pattern,
    labels: u32,
    path: &Path,
    log: Log,
) -> Result<(), Error> {
    log.note(&format!(
        "building {}: {} placements{}, {}",
        path.display(),
        thousands(pattern.size()),
        if labels > 1 { format!(", {labels} entries each") } else { String::new() },
        cli_common::text::count(pool.current_num_threads() as u64, "thread")
    ));
    let bar = log.progress_bar(pattern.size());
    let mut progress = |r: &bfs::DepthReport| {
        let line = format!(
            "  depth {:>2}: {:>13} new, {:>13} total ({:5.1}%), {:7.1} s",
            r.depth,
            thousands(r.new_entries),
            thousands(r.reached),
            100.0 * r.reached as f64 / r.entries as f64,
            r.elapsed.as_secs_f64()
        );
        match &bar {
            Some(bar) => {
                bar.println(line);
                bar.set_position(r.reached);
                bar.set_message(r.depth.to_string());
            }
            None => log.note(&line),
        }
    };
    let built = pool.install(|| pdb_builder::build_table_with(board, pattern, labels, path, &mut progress))?;
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    if built.unreachable > 0 {
        log.note(&format!(
            "  {} cannot be reached from the goal; stored as {} Manhattan distance",
            match built.unreachable {
                1 => "1 placement".to_string(),
                n => format!("{} placements", thousands(n)),
            },
            if built.unreachable == 1 { "its" } else { "their" }
        ));
    }
    log.note(&format!(
        "wrote {}: max value {}, max excess {} -> {} encoding, {}, {:.1} s",
        path.display(),
        built.max_value,
        built.max_excess,
        built.encoding.name(),
        human_bytes(built.file_bytes),
        built.elapsed.as_secs_f64()
    ));
    Ok(())
}

fn describe(f: &PdbFile) -> String {
    let h = &f.header;
    let tiles: Vec<String> = h.tiles.iter().map(|t| t.to_string()).collect();
    let hist: Vec<String> = h.used_histogram().iter().enumerate().map(|(v, c)| format!("{v}:{c}")).collect();
    format!(
        "{}\n  board {}, goal: blank on cell 0, tile t on cell t\n  pattern: {} tiles: {}\n  index: {}, {} entries\n  encoding: {}, payload {} at offset {}\n  values 0 to {}; histogram (value:count): {}\n  payload xxh3 {:016x}; format version {}; built by {}\n",
        f.path.display(),
        h.board,
        h.tiles.len(),
        tiles.join(" "),
        match h.kind() {
            Kind::Plain => "lexicographic rank of the pattern tiles' cells (plain: one value wherever the blank is)"
                .to_string(),
            Kind::BlankAware => format!(
                "lexicographic rank of the pattern tiles' cells times {}, plus the label of the blank's region \
                 (blank-aware)",
                h.labels
            ),
        },
        thousands(h.entries),
        h.encoding.name(),
        human_bytes(h.payload_len),
        h.payload_offset,
        h.max_value,
        hist.join(" "),
        h.payload_hash,
        h.version,
        h.builder
    )
}

fn info_json(f: &PdbFile) -> serde_json::Value {
    let h = &f.header;
    serde_json::json!({
        "file": f.path.display().to_string(),
        "board": h.board.to_string(),
        "tiles": h.tiles,
        "kind": h.kind().name(),
        "region_labels": h.labels,
        "entries": h.entries,
        "max_value": h.max_value,
        "histogram": h.used_histogram(),
        "payload_hash": format!("{:016x}", h.payload_hash),
        "encoding": match h.encoding {
            puzzle::pdb_file::Encoding::Nibble => "nibble",
            puzzle::pdb_file::Encoding::Byte => "byte",
        },
        "payload_bytes": h.payload_len,
        "format_version": h.version,
        "builder": h.builder,
    })
}

/// Checks every table, printing one line each; a failed table does not stop the others.
fn verify(paths: &[PathBuf], board: Option<Board>) -> Result<ExitCode, Stop> {
    let files = pdb_builder::table_files(paths)?;
    let mut stdout = std::io::stdout().lock();
    let mut failed = 0;
    for path in &files {
        match pdb_builder::verify_table(path, board) {
            Ok(f) => writeln!(
                stdout,
                "ok {}: {} tiles on {}, {} entries, max value {}",
                path.display(),
                f.header.tiles.len(),
                f.header.board,
                thousands(f.header.entries),
                f.header.max_value
            )?,
            Err(e) => {
                writeln!(stdout, "FAILED {e}")?;
                failed += 1;
            }
        }
    }
    if failed > 0 {
        let files = match files.len() {
            1 => "1 table file".to_string(),
            n => format!("{n} table files"),
        };
        cli_common::log(&format!("pdb-builder: {failed} of {files} failed verification"));
        return Ok(ExitCode::from(cli_common::EXIT_FAILURE));
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    /// Every command's help reads right in an 80-column terminal: no line clap would break without an
    /// indent, and examples as commands with `#` comments above them.
    #[test]
    fn help_keeps_the_layout_at_80_columns() {
        assert_eq!(cli_common::help::faults(&<super::Cli as clap::CommandFactory>::command()), Vec::<String>::new());
    }
}
