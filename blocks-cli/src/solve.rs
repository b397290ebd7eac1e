//! `blocks solve`: each level searched, printed as words or as the record `batch` writes (its `moves` a
//! JSON list), optionally drawn after every move (`--show`) or replayed on one board redrawn in place
//! (`--animate`).

use crate::{input, SearchArgs};
use adapters::blocks::{invalid_record, record, record_json};
use batch::{LimitArgs, Source, Verdict};
use blocks::{Level, Metric, Named, Outcome, SolveError, Step};
use cli_common::{log, usage, Format};
use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::time::Duration;

#[derive(clap::Args)]
pub struct SolveArgs {
    /// A level (a built-in name, `ROWS GOAL`, a JSON object), a file of level lines or one JSON level, or
    /// `-` for stdin.
    input: String,
    #[command(flatten)]
    search: SearchArgs,
    #[command(flatten)]
    limits: LimitArgs,
    /// text, or one JSON record a level (the fields of `batch` records, `moves` a list).
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// Draw the board at the start and after every move.
    #[arg(long)]
    show: bool,
    /// Replay the solution on one board redrawn in place (on a terminal; piped, it is --show).
    #[arg(long)]
    animate: bool,
    /// With --animate: seconds between moves.
    #[arg(long, value_name = "SECS", default_value = "0.3", value_parser = parse_seconds)]
    delay: Duration,
}

fn parse_seconds(text: &str) -> Result<Duration, String> {
    match text.parse::<f64>() {
        Ok(s) if (0.0..=60.0).contains(&s) => Ok(Duration::from_secs_f64(s)),
        _ => Err(format!("'{text}' is not a delay (seconds from 0 to 60)")),
    }
}

pub fn run(args: &SolveArgs) -> anyhow::Result<ExitCode> {
    let options = args.search.options(args.limits.limits(None));
    let levels = input::levels(&args.input)?;
    if levels.is_empty() {
        return Err(usage(anyhow::anyhow!("no level in the input")));
    }
    // The worst outcome decides the exit code: a bad level (the user's), then an unsolvable one, then a limit.
    let mut worst = Verdict::Solved;
    let mut out = std::io::stdout().lock();
    for (line, level) in levels {
        let text = match &level {
            Ok(level) => level.to_text(),
            Err(_) => String::new(),
        };
        let id = match &level {
            Ok(level) if !level.name().is_empty() => level.name().to_string(),
            _ => format!("line {line}"),
        };
        let src = Source { id: &id, line, text: &text, expected: None };
        let solved = level.map_err(|e| e.to_string()).and_then(|level| match blocks::solve(&level, &options) {
            Ok(solution) => Ok((level, solution)),
            Err(e @ SolveError::NeedsLayout) => Err(e.to_string()),
            Err(e) => Err(format!("internal: {e}")),
        });
        let (level, solution) = match solved {
            Ok(found) => found,
            Err(problem) if problem.starts_with("internal: ") => return Err(anyhow::anyhow!(problem)),
            Err(problem) => {
                if args.format == Format::Json {
                    writeln!(out, "{}", record_json(&invalid_record(&src, problem.clone())))?;
                }
                log(&format!("blocks: error: {problem}"));
                worst = worst.max(Verdict::Invalid);
                continue;
            }
        };
        let rec = record(&src, &options, &solution);
        match args.format {
            Format::Json => writeln!(out, "{}", record_json(&rec))?,
            Format::Text => {
                let stats = &solution.stats;
                let work =
                    format!("nodes {} generated, {} expanded, {:.4} s", stats.generated, stats.expanded, stats.seconds);
                let metric = options.metric.name();
                match &solution.outcome {
                    Outcome::Solved(steps) => {
                        let kind = if options.algorithm.optimal() { "optimal" } else { "not necessarily fewest" };
                        writeln!(
                            out,
                            "{id}: {} in the {metric} metric ({kind}), {work}",
                            cli_common::text::count(steps.len() as u64, "move")
                        )?;
                        let words: Vec<String> = steps.iter().map(Step::to_string).collect();
                        writeln!(out, "{}", words.join(" "))?;
                    }
                    Outcome::Unsolvable => {
                        writeln!(out, "{id}: unsolvable, proved by examining every reachable position, {work}")?
                    }
                    Outcome::Stopped(why) => writeln!(out, "{id}: stopped ({why}), {work}")?,
                }
            }
        }
        if let Outcome::Solved(steps) = &solution.outcome {
            if args.animate && std::io::stdout().is_terminal() {
                animate(&mut out, &level, options.metric, steps, args.delay)?;
            } else if args.show || args.animate {
                show(&mut out, &level, options.metric, steps)?;
            }
        }
        worst = worst.max(Verdict::of(&rec));
    }
    Ok(ExitCode::from(worst.exit_code()))
}

/// The positions after each step, the start first (the steps were replayed and checked by `solve`).
fn frames(level: &Level, metric: Metric, steps: &[Step]) -> Vec<Level> {
    let mut all = vec![level.clone()];
    for step in steps {
        match blocks::play(all.last().unwrap(), metric, step) {
            Ok(next) => all.push(next),
            Err(_) => break,
        }
    }
    all
}

/// Draws the start and the board after each move.
fn show(out: &mut impl Write, level: &Level, metric: Metric, steps: &[Step]) -> std::io::Result<()> {
    let frames = frames(level, metric, steps);
    writeln!(out, "start\n{}", blocks::draw(&frames[0]))?;
    for (k, (step, frame)) in steps.iter().zip(&frames[1..]).enumerate() {
        writeln!(out, "move {}/{}: {step}\n{}", k + 1, steps.len(), blocks::draw(frame))?;
    }
    Ok(())
}

/// Replays the moves on one board, redrawn in place with the cursor moved back over it.
fn animate(
    out: &mut impl Write,
    level: &Level,
    metric: Metric,
    steps: &[Step],
    delay: Duration,
) -> std::io::Result<()> {
    let frames = frames(level, metric, steps);
    let height = blocks::draw(level).lines().count() + 1;
    for (k, frame) in frames.iter().enumerate() {
        if k > 0 {
            write!(out, "\x1b[{height}A")?;
        }
        let head = if k == 0 { "start".to_string() } else { format!("move {k}/{}: {}", steps.len(), steps[k - 1]) };
        write!(out, "\x1b[2K{head}\n{}", blocks::draw(frame))?;
        out.flush()?;
        std::thread::sleep(delay);
    }
    Ok(())
}
