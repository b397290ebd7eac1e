//! `pdb-builder`: build, inspect and verify pattern database files.

use anyhow::{bail, Context};
use clap::{Parser, Subcommand, ValueEnum};
use indicatif::{ProgressBar, ProgressStyle};
use pdb_builder::{bfs, human_bytes, thousands, Existing, InputError};
use puzzle::partition::file_name;
use puzzle::pdb_file::{Expect, PdbFile};
use puzzle::{Board, Partition};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "pdb-builder",
    version,
    about = "Builds, inspects and verifies additive pattern databases for sliding-tile puzzles"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Build one table per pattern of a partition into the output folder.
    Build {
        /// A named partition (4x4: 7-8, 6-6-3, 5-5-5; 3x3: 4-4; 2x3: 2-3) or tiles like 1,2,3/4,5,6,7,8.
        #[arg(long)]
        partition: String,
        /// Board as ROWSxCOLS (at most 16 cells).
        #[arg(long, default_value = "4x4")]
        board: Board,
        /// Folder the tables are written to, one file per pattern.
        #[arg(long, default_value = "pdbs")]
        out: PathBuf,
        /// Worker threads (default: all cores).
        #[arg(long)]
        threads: Option<usize>,
        /// Refuse to build if the search needs more memory than this, e.g. 2G (default: MemAvailable).
        #[arg(long, value_parser = pdb_builder::parse_size)]
        memory_limit: Option<u64>,
        /// Print nothing but errors.
        #[arg(long)]
        quiet: bool,
        /// Rebuild tables whose valid file already exists.
        #[arg(long)]
        force: bool,
    },
    /// Print the header of each file in words, or as JSON (one object per line).
    Info {
        #[arg(required = true)]
        files: Vec<PathBuf>,
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
    },
    /// Fully check files (payload checksum, recomputed histogram); folders mean their *.pdb files.
    Verify {
        /// Files or folders (default: pdbs).
        paths: Vec<PathBuf>,
        /// Also require every table to be for this board.
        #[arg(long)]
        board: Option<Board>,
    },
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    Text,
    Json,
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(e.exit_code() as u8);
        }
    };
    match run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("pdb-builder: error: {e:#}");
            if e.chain().any(|c| c.is::<InputError>()) {
                ExitCode::from(2)
            } else {
                ExitCode::from(1)
            }
        }
    }
}

fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Build { partition, board, out, threads, memory_limit, quiet, force } => {
            build(&partition, board, &out, threads, memory_limit, quiet, force)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Info { files, format } => {
            for path in files {
                let f = PdbFile::open(&path, &Expect::default())?;
                match format {
                    Format::Text => print!("{}", describe(&f)),
                    Format::Json => println!("{}", info_json(&f)),
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Verify { paths, board } => verify(paths, board),
    }
}

fn build(
    partition: &str,
    board: Board,
    out: &Path,
    threads: Option<usize>,
    memory_limit: Option<u64>,
    quiet: bool,
    force: bool,
) -> anyhow::Result<()> {
    let partition = Partition::parse(board, partition).map_err(InputError::from)?;
    let say = |line: &str| {
        if !quiet {
            eprintln!("{line}");
        }
    };
    let mut todo = Vec::new();
    for pattern in &partition.patterns {
        let path = out.join(file_name(board, pattern));
        match pdb_builder::existing(&path, board, pattern) {
            Existing::Valid if !force => {
                say(&format!("{}: valid table already there, skipped (--force rebuilds it)", path.display()))
            }
            Existing::Invalid(why) => {
                say(&format!("{why}; rebuilding it"));
                todo.push((pattern, path));
            }
            _ => todo.push((pattern, path)),
        }
    }
    let Some((largest, _)) = todo.iter().max_by_key(|(p, _)| bfs::memory_needed(board, p)) else {
        return Ok(());
    };
    let need = bfs::memory_needed(board, largest);
    let (limit, why) = match memory_limit {
        Some(l) => (l, "--memory-limit".to_string()),
        None => (
            pdb_builder::mem_available().context("cannot read MemAvailable from /proc/meminfo; give --memory-limit")?,
            "available memory".to_string(),
        ),
    };
    say(&format!(
        "partition {} on {board}: {} table(s) to build; memory needed {} (the {}-tile table, built one at a time), limit {} ({why})",
        partition.name,
        todo.len(),
        human_bytes(need),
        largest.len(),
        human_bytes(limit)
    ));
    if need > limit {
        let what = format!("the {}-tile table {}", largest.len(), file_name(board, largest));
        return Err(InputError::TooBig { what, need, limit, why }.into());
    }
    pdb_builder::check_writable(out)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.unwrap_or(0))
        .build()
        .context("cannot start worker threads")?;
    for (pattern, path) in todo {
        say(&format!(
            "building {}: {} entries, {} threads",
            path.display(),
            thousands(pattern.size()),
            pool.current_num_threads()
        ));
        let bar = (!quiet && std::io::stderr().is_terminal()).then(|| {
            let bar = ProgressBar::new(pattern.size());
            bar.set_style(
                ProgressStyle::with_template("  [{elapsed_precise}] {bar:40} {percent:>3}% of entries  depth {msg}")
                    .expect("valid template"),
            );
            bar.enable_steady_tick(std::time::Duration::from_millis(250));
            bar
        });
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
                None => say(&line),
            }
        };
        let built = pool
            .install(|| pdb_builder::build_table(board, pattern, &path, &mut progress))
            .with_context(|| format!("building {}", path.display()))?;
        if let Some(bar) = bar {
            bar.finish_and_clear();
        }
        if built.unreachable > 0 {
            say(&format!(
                "  {} placements cannot be reached from the goal; stored as their Manhattan distance",
                thousands(built.unreachable)
            ));
        }
        say(&format!(
            "wrote {}: max value {}, max excess {} -> {} encoding, {}, {:.1} s",
            path.display(),
            built.max_value,
            built.max_excess,
            built.encoding.name(),
            human_bytes(built.file_bytes),
            built.elapsed.as_secs_f64()
        ));
    }
    Ok(())
}

fn describe(f: &PdbFile) -> String {
    let h = &f.header;
    let tiles: Vec<String> = h.tiles.iter().map(|t| t.to_string()).collect();
    let hist: Vec<String> = h.used_histogram().iter().enumerate().map(|(v, c)| format!("{v}:{c}")).collect();
    format!(
        "{}\n  board {}, goal: blank on cell 0, tile t on cell t\n  pattern: {} tiles: {}\n  index: lexicographic rank of the pattern tiles' cells, {} entries\n  encoding: {}, payload {} bytes at offset {}\n  values 0 to {}; histogram (value:count): {}\n  payload xxh3 {:016x}; format version {}; built by {}\n",
        f.path.display(),
        h.board,
        h.tiles.len(),
        tiles.join(" "),
        thousands(h.entries),
        h.encoding.name(),
        thousands(h.payload_len),
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

fn verify(paths: Vec<PathBuf>, board: Option<Board>) -> anyhow::Result<ExitCode> {
    let paths = if paths.is_empty() { vec![PathBuf::from("pdbs")] } else { paths };
    let mut files = Vec::new();
    for p in paths {
        if p.is_dir() {
            let mut found: Vec<PathBuf> = std::fs::read_dir(&p)
                .with_context(|| format!("cannot list {}", p.display()))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|f| f.extension().is_some_and(|x| x == "pdb"))
                .collect();
            if found.is_empty() {
                bail!("{}: no .pdb files in this folder", p.display());
            }
            found.sort();
            files.extend(found);
        } else {
            files.push(p);
        }
    }
    let mut failed = 0;
    for path in &files {
        let checked = PdbFile::open(path, &Expect { board, tiles: None }).and_then(|f| f.verify().map(|()| f));
        match checked {
            Ok(f) => println!(
                "ok {}: {} tiles on {}, {} entries, max value {}",
                path.display(),
                f.header.tiles.len(),
                f.header.board,
                thousands(f.header.entries),
                f.header.max_value
            ),
            Err(e) => {
                println!("FAILED {e}");
                failed += 1;
            }
        }
    }
    if failed > 0 {
        eprintln!("pdb-builder: {failed} of {} file(s) failed verification", files.len());
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}
