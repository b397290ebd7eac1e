//! `blocks explore`: the whole space reachable from a level's start, as aligned text, a Markdown table or
//! JSON.

use crate::input;
use blocks::{Exploration, Level, Metric, Named};
use cli_common::{named, SummaryFormat};
use std::io::Write;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct ExploreArgs {
    /// The level (a built-in name, `ROWS GOAL`, a JSON object, a file holding one, or `-`).
    level: String,
    /// What one move is.
    #[arg(long, value_parser = named(Metric::ALL), default_value = "piece")]
    metric: Metric,
    #[arg(long, value_enum, default_value = "text")]
    format: SummaryFormat,
    /// Stop, with exit code 3, once more positions than this are found.
    #[arg(long, value_name = "N", default_value_t = 50_000_000)]
    max_states: u64,
    /// Farthest positions to print (all are counted).
    #[arg(long, value_name = "N", default_value_t = 10)]
    list: usize,
}

pub fn run(args: &ExploreArgs) -> anyhow::Result<ExitCode> {
    let level = input::one_level(&args.level)?;
    let started = std::time::Instant::now();
    let space = match blocks::explore(&level, args.metric, args.max_states) {
        Ok(space) => space,
        Err(e) => {
            cli_common::log(&format!("blocks: {e}"));
            return Ok(ExitCode::from(cli_common::EXIT_LIMIT));
        }
    };
    let seconds = started.elapsed().as_secs_f64();
    let mut out = std::io::stdout().lock();
    match args.format {
        SummaryFormat::Json => writeln!(out, "{}", json(&level, &space, args.list, seconds))?,
        SummaryFormat::Text => text(&mut out, &level, &space, args.list, seconds)?,
        SummaryFormat::Markdown => markdown(&mut out, &level, &space, args.list)?,
    }
    Ok(ExitCode::SUCCESS)
}

fn farthest(space: &Exploration, list: usize) -> Vec<String> {
    space.farthest.iter().take(list).map(Level::to_text).collect()
}

fn json(level: &Level, space: &Exploration, list: usize, seconds: f64) -> serde_json::Value {
    serde_json::json!({
        "level": level.to_text(),
        "metric": space.metric.name(),
        "reachable": space.reachable(),
        "solved": space.solved,
        "fewest_moves": space.nearest_solved,
        "max_distance": space.max_distance(),
        "farthest_count": space.counts.last(),
        "farthest": farthest(space, list),
        "counts": space.counts,
        "seconds": seconds,
    })
}

fn summary(space: &Exploration) -> String {
    let fewest = space
        .nearest_solved
        .map_or("unsolvable".to_string(), |d| format!("solved in {}", cli_common::text::count(u64::from(d), "move")));
    format!(
        "{} positions reachable, {} of them solved; the start is {fewest}; the farthest ({}) are {} moves away ({} metric)",
        space.reachable(),
        space.solved,
        space.counts.last().unwrap_or(&0),
        space.max_distance(),
        space.metric.name()
    )
}

fn text(out: &mut impl Write, level: &Level, space: &Exploration, list: usize, seconds: f64) -> std::io::Result<()> {
    writeln!(out, "{}\n{}, {seconds:.4} s", level.to_text(), summary(space))?;
    writeln!(out, "distance  positions")?;
    for (d, n) in space.counts.iter().enumerate() {
        writeln!(out, "{d:>8}  {n:>9}")?;
    }
    for f in farthest(space, list) {
        writeln!(out, "farthest: {f}")?;
    }
    Ok(())
}

fn markdown(out: &mut impl Write, level: &Level, space: &Exploration, list: usize) -> std::io::Result<()> {
    writeln!(out, "`{}`: {}.\n", level.to_text(), summary(space))?;
    writeln!(out, "| distance | positions |\n|---:|---:|")?;
    for (d, n) in space.counts.iter().enumerate() {
        writeln!(out, "| {d} | {n} |")?;
    }
    if list > 0 {
        writeln!(out, "\nFarthest positions:\n")?;
        for f in farthest(space, list) {
            writeln!(out, "- `{f}`")?;
        }
    }
    Ok(())
}
