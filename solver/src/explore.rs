//! `solver explore`: every position of a small board, by breadth-first search from the goal over a compact
//! visited array (two bits a permutation rank; see `puzzle::explore`): how many positions lie at each
//! distance, the largest distance, and the positions at it.

use cli_common::heading::OUTPUT;
use cli_common::units::{human_bytes, thousands};
use cli_common::SummaryFormat;
use cli_common::{log, usage};
use puzzle::explore::{explore, ExploreError};
use puzzle::Board;
use serde::Serialize;
use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::time::Instant;

#[derive(clap::Args)]
#[command(after_long_help = "Examples:
  # 181,440 positions, the farthest 31 moves away
  solver explore --board 3x3
  # 239,500,800 positions: about a minute on 2 cores
  solver explore --board 3x4 --format markdown")]
pub struct ExploreArgs {
    /// The board, rows x columns; boards of up to 12 cells fit in a few hundred MB.
    #[arg(long, value_name = "RxC", default_value = "3x3")]
    pub board: Board,
    /// Refuse boards whose visited array (2 bits a permutation) needs more memory than this [default: 4G, or
    /// the memory available if less].
    #[arg(long, value_name = "SIZE", value_parser = parse_size)]
    pub memory_limit: Option<u64>,
    /// text, json (one object) or markdown (a table of the distribution).
    #[arg(long, value_enum, value_name = "FORMAT", default_value = "text", help_heading = OUTPUT)]
    pub format: SummaryFormat,
    /// No per-distance progress on stderr.
    #[arg(long, short, help_heading = OUTPUT)]
    pub quiet: bool,
}

fn parse_size(s: &str) -> Result<u64, String> {
    cli_common::units::parse_size(s).map_err(|e| e.to_string())
}

/// The most `explore` takes without `--memory-limit`: enough for every board of up to 13 cells (1.45 GiB),
/// while a 14-cell board would need 20.3 GiB and hours.
const DEFAULT_LIMIT: u64 = 4 << 30;

/// `--memory-limit`, else [`DEFAULT_LIMIT`] or the memory available if less: in a container, what its cgroup
/// limit leaves, so that a board that cannot fit is refused instead of the process being killed.
fn memory_limit(args: &ExploreArgs) -> u64 {
    args.memory_limit.unwrap_or_else(|| {
        cli_common::resources::available_memory().map_or(DEFAULT_LIMIT, |a| a.bytes.min(DEFAULT_LIMIT))
    })
}

/// Why a board cannot be explored, in the sizes every tool prints (the library's error carries byte counts):
/// too big for the limit is the user's choice of board or limit (exit code 2).
fn refusal(e: ExploreError) -> anyhow::Error {
    match e {
        ExploreError::TooBig { board, ranks, needed, limit } => usage(anyhow::anyhow!(
            "exploring {board} needs {} (2 bits for each of its {} permutations), over the limit of {}",
            human_bytes(needed),
            thousands(ranks),
            human_bytes(limit)
        )),
        ExploreError::OutOfMemory { board, needed } => {
            anyhow::anyhow!("could not allocate the {} exploring {board} needs", human_bytes(needed))
        }
    }
}

/// What `explore` reports, as JSON.
#[derive(Serialize)]
struct Summary {
    board: String,
    reachable: u64,
    max_distance: u32,
    /// `counts[d]`: positions exactly `d` moves from the goal.
    counts: Vec<u64>,
    /// Positions at the largest distance (all of them, or the first 1,000), tiles row by row.
    farthest: Vec<String>,
    farthest_total: u64,
    seconds: f64,
}

/// Ctrl-C or SIGTERM ends an exploration at once with a line saying so and exit code 130: it keeps nothing
/// that a stop part way could write (the counts of a whole space are its answer), and it may run for minutes.
fn stop_on_interrupt(start: Instant) {
    cli_common::signals::catch_interrupts();
    std::thread::spawn(move || loop {
        if cli_common::signals::interrupted() {
            log(&format!(
                "explore: interrupted after {:.1} s; a part of the space is no answer, so nothing is written",
                start.elapsed().as_secs_f64()
            ));
            std::process::exit(i32::from(cli_common::EXIT_INTERRUPTED));
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    });
}

pub fn run(args: &ExploreArgs) -> anyhow::Result<ExitCode> {
    let show = !args.quiet && std::io::stderr().is_terminal();
    let start = Instant::now();
    stop_on_interrupt(start);
    let ex = explore(args.board, memory_limit(args), &mut |layer| {
        if show {
            log(&format!(
                "explore: distance {:>3}: {:>12} positions ({} reached, {:.1} s)",
                layer.distance, layer.count, layer.reached, layer.seconds
            ));
        }
    })
    .map_err(refusal)?;
    let s = Summary {
        board: args.board.to_string(),
        reachable: ex.reachable(),
        max_distance: ex.max_distance(),
        counts: ex.counts.clone(),
        farthest: ex.farthest.iter().map(|p| p.to_string()).collect(),
        farthest_total: ex.farthest_total(),
        seconds: start.elapsed().as_secs_f64(),
    };
    let mut out = std::io::stdout().lock();
    match args.format {
        SummaryFormat::Json => writeln!(out, "{}", serde_json::to_string(&s)?)?,
        SummaryFormat::Text => {
            writeln!(
                out,
                "board {}: {} positions reachable from the goal; the farthest are {} moves away ({} of them); {:.3} s",
                s.board, s.reachable, s.max_distance, s.farthest_total, s.seconds
            )?;
            writeln!(out, "distance  positions")?;
            for (d, n) in s.counts.iter().enumerate() {
                writeln!(out, "{d:>8}  {n}")?;
            }
            writeln!(out, "farthest ({} moves{}):", s.max_distance, listed_note(&s))?;
            for p in &s.farthest {
                writeln!(out, "{p}")?;
            }
        }
        SummaryFormat::Markdown => {
            writeln!(
                out,
                "{} positions of {} reachable from the goal; the farthest are {} moves away ({} of them).\n",
                s.reachable, s.board, s.max_distance, s.farthest_total
            )?;
            writeln!(out, "| distance | positions |\n|---:|---:|")?;
            for (d, n) in s.counts.iter().enumerate() {
                writeln!(out, "| {d} | {n} |")?;
            }
            writeln!(out, "\nThe farthest ({}{}):\n", s.max_distance, listed_note(&s))?;
            for p in &s.farthest {
                writeln!(out, "- `{p}`")?;
            }
        }
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// Says when only some of the farthest positions are listed.
fn listed_note(s: &Summary) -> String {
    if (s.farthest.len() as u64) < s.farthest_total {
        format!("; the first {} of {}", s.farthest.len(), s.farthest_total)
    } else {
        String::new()
    }
}
