//! Levels with hidden units (`?`): `solve` gives the pours up to the first reveal, `play` plays the level
//! to the end, asking for the colour of each unit a pour uncovers. The library's `mystery` module chooses
//! the pours; this file reads and words.

use crate::{invalid, pours_word, read_input, render, ModelArgs};
use anyhow::anyhow;
use batch::{LimitArgs, Verdict};
use cli_common::{log, usage, Format};
use serde_json::json;
use std::io::{BufRead, IsTerminal, Write};
use std::process::ExitCode;
use watersort::mystery::{plan, plan_with_progress, Mystery, Plan, PlanError, PlanProgress, Sampling};
use watersort::{Model, Options, Tubes};

#[derive(clap::Args)]
pub struct PlayArgs {
    /// The level as the game shows it: a level line with `?` for each hidden unit (`m: ??a ?bb ?ab -`), or
    /// a file holding one or a JSON level with "?" units (stdin is for the answers).
    input: String,
    #[command(flatten)]
    model: ModelArgs,
    #[command(flatten)]
    sampling: SamplingArgs,
    /// As for `solve`; they bound each plan (the searches between two reveals), not the time spent
    /// waiting for answers.
    #[command(flatten)]
    limits: LimitArgs,
}

/// How many assignments of the hidden units a plan checks.
#[derive(clap::Args)]
struct SamplingArgs {
    /// Check every assignment of the hidden units when there are at most N (the plan's claims are then
    /// proved).
    #[arg(long, value_name = "N", default_value_t = Sampling::default().exhaustive_up_to)]
    exhaustive_up_to: u64,
    /// Otherwise check N assignments drawn at random (reproducibly).
    #[arg(long, value_name = "N", default_value_t = Sampling::default().sample)]
    sample: usize,
}

impl SamplingArgs {
    fn sampling(&self) -> Sampling {
        Sampling { exhaustive_up_to: self.exhaustive_up_to, sample: self.sample.max(1), ..Sampling::default() }
    }
}

/// `watersort solve` on levels with hidden units: each level's plan.
pub fn solve(text: &str, name: &str, capacity: usize, options: &Options, format: Format) -> anyhow::Result<ExitCode> {
    let levels = Mystery::parse_input(text, name, capacity);
    if levels.is_empty() {
        return Err(usage(anyhow!("no level in the input")));
    }
    // The worst outcome decides the exit code, as for levels in sight: a bad level, then an unsolvable one,
    // then a limit.
    let mut worst = Verdict::Solved;
    for (n, level) in levels.into_iter().enumerate() {
        let mystery = match level {
            Ok(mystery) => mystery,
            Err(e) => {
                invalid(&e, n, format)?;
                worst = Verdict::Invalid;
                continue;
            }
        };
        let started = std::time::Instant::now();
        let planned = match plan(&mystery, options, &Sampling::default()) {
            Err(e @ (PlanError::WholeRun | PlanError::Waiting | PlanError::Solve(_))) => return Err(plan_error(e)),
            other => other,
        };
        let seconds = started.elapsed().as_secs_f64();
        let verdict = match &planned {
            Ok(_) => Verdict::Solved,
            Err(PlanError::Stopped(_)) => Verdict::Limit,
            Err(_) => Verdict::Failed,
        };
        worst = worst.max(verdict);
        match (format, planned) {
            (Format::Json, Ok(plan)) => println!("{}", plan_json(&mystery, &plan)),
            (Format::Text, Ok(plan)) => print!("{}", plan_text(&mystery, &plan)),
            (Format::Json, Err(e)) => println!("{}", no_plan_json(&mystery, &e, seconds)),
            (Format::Text, Err(e)) => println!("{}: {}, after {seconds:.3} s", mystery.name(), no_plan_text(&e)),
        }
    }
    Ok(ExitCode::from(worst.exit_code()))
}

/// Why a level has no plan, as its text line says it: a limit (`stopped (time limit) before the plan was
/// known`) or a proof.
fn no_plan_text(e: &PlanError) -> String {
    match e {
        PlanError::Stopped(why) => format!("stopped ({why}) before the plan was known"),
        other => other.to_string(),
    }
}

/// The record of a level without a plan: status `limit` or `unsolvable` with the reason in `error`, as a
/// record of a level in sight says it (and as the web app answers).
fn no_plan_json(mystery: &Mystery, e: &PlanError, seconds: f64) -> serde_json::Value {
    let status = if matches!(e, PlanError::Stopped(_)) { "limit" } else { "unsolvable" };
    json!({
        "id": mystery.name(),
        "level": mystery.to_line(),
        "status": status,
        "error": no_plan_text(e),
        "seconds": seconds,
    })
}

/// A plan failure as the user's (an unsolvable level, a rule) or a limit's.
fn plan_error(e: PlanError) -> anyhow::Error {
    match e {
        PlanError::Solve(e) => anyhow!(e),
        other => usage(anyhow!(other)),
    }
}

/// How sure a plan is, in words.
fn sureness(plan: &Plan) -> String {
    let drawn = plan.checked + plan.unsortable;
    let mut how = if plan.exhaustive && drawn == 1 {
        "the one assignment of the hidden units checked".to_string()
    } else if plan.exhaustive {
        format!("all {drawn} assignments of the hidden units checked")
    } else {
        format!("{drawn} of {} assignments of the hidden units drawn at random", plain_count(plan.assignments))
    };
    if plan.unsortable > 0 {
        how += &format!(", {} of them unsortable from the start", plan.unsortable);
    }
    if plan.safe() {
        format!("safe: every sortable one stays sortable ({how})")
    } else {
        format!("not safe: {} of {} sortable ones stay sortable ({how})", plan.sortable_for, plan.checked)
    }
}

/// A count that saturated at `u64::MAX` said as such.
fn plain_count(n: u64) -> String {
    if n == u64::MAX {
        "over 1.8e19".into()
    } else {
        n.to_string()
    }
}

fn plan_text(mystery: &Mystery, plan: &Plan) -> String {
    let pours: Vec<String> = plan.pours.iter().map(ToString::to_string).collect();
    if plan.pours.is_empty() {
        return format!("{}: sorted already whatever is hidden\n", mystery.name());
    }
    let what = if plan.reveals { "up to the first reveal" } else { "to the end (no reveal needed)" };
    format!(
        "{}: {} {what}; {}; best case {} in all\n{}\n",
        mystery.name(),
        pours_word(plan.pours.len()),
        sureness(plan),
        pours_word(plan.best_case),
        pours.join(", ")
    )
}

fn plan_json(mystery: &Mystery, plan: &Plan) -> serde_json::Value {
    json!({
        "id": mystery.name(),
        "level": mystery.to_line(),
        "status": "plan",
        "pours": plan.pours.iter().map(ToString::to_string).collect::<Vec<_>>(),
        "reveals": plan.reveals,
        "safe": plan.safe(),
        "checked": plan.checked,
        "sortable_for": plan.sortable_for,
        "unsortable": plan.unsortable,
        "exhaustive": plan.exhaustive,
        "assignments": plan.assignments,
        "best_case": plan.best_case,
    })
}

/// The colours a hidden unit may be, apart (`a, b, c`), each of which no unit shows yet marked `(new)`: the
/// player is asked about a colour not yet on the board as well.
fn choices(seen: &Mystery) -> String {
    let mut units = seen.hidden_units();
    units.dedup();
    let shown = |c: u8| seen.tubes().iter().flatten().any(|&u| u == c);
    let names: Vec<String> = units
        .iter()
        .map(|&u| {
            let name = &seen.colours()[u as usize];
            if shown(u) {
                name.clone()
            } else {
                format!("{name} (new)")
            }
        })
        .collect();
    names.join(", ")
}

/// `watersort play`: plan, pour, ask, until sorted. Prompts and pours go to stdout, one a line, so a
/// script can drive it; answers are read a line each from stdin.
pub fn play(args: &PlayArgs) -> anyhow::Result<ExitCode> {
    if args.input == "-" {
        return Err(usage(anyhow!("play reads the revealed colours on stdin: give the level inline or as a file")));
    }
    let (text, name) = read_input(&args.input)?;
    let mut levels = Mystery::parse_input(&text, &name, args.model.capacity);
    if levels.len() != 1 {
        return Err(usage(anyhow!("play takes one level; the input holds {}", levels.len())));
    }
    let mut seen = levels.remove(0).map_err(|e| usage(anyhow!("{e}")))?;
    let options = Options {
        model: Model { rule: args.model.rule, ..Model::default() },
        limits: args.limits.limits(None),
        ..Options::default()
    };
    let sampling = args.sampling.sampling();
    let watch = std::io::stderr().is_terminal();
    let letters = seen.letters();
    // Colours of level lines are letters; JSON names are drawn as letters, with this key.
    if seen.colours().iter().any(|name| name.chars().count() != 1) {
        let key: Vec<String> = letters.iter().zip(seen.colours()).map(|(l, name)| format!("{l} {name}")).collect();
        writeln!(std::io::stdout(), "colours: {}", key.join(", "))?;
    }
    let colour = std::io::stdout().is_terminal();
    let mut out = std::io::stdout().lock();
    let mut answers = std::io::stdin().lock();
    let mut made = 0;
    loop {
        let tubes = Tubes { capacity: seen.capacity(), tubes: seen.tubes().to_vec() };
        writeln!(out, "{}", render::draw(&tubes, &letters, colour))?;
        if seen.is_sorted() {
            writeln!(out, "sorted in {}", pours_word(made))?;
            return Ok(ExitCode::SUCCESS);
        }
        let mut ticker = Ticker::default();
        let planned = plan_with_progress(&seen, &options, &sampling, &mut |p| {
            if watch {
                ticker.tick(p);
            }
        });
        let plan = match planned {
            Err(PlanError::Stopped(why)) => {
                writeln!(out, "stopped ({why}) before the plan was known, after {}", pours_word(made))?;
                return Ok(ExitCode::from(cli_common::EXIT_LIMIT));
            }
            Err(PlanError::Unsolvable) if made > 0 => {
                writeln!(
                    out,
                    "dead end after {}: no placement of the units still hidden can be sorted from here",
                    pours_word(made)
                )?;
                return Ok(ExitCode::from(cli_common::EXIT_FAILURE));
            }
            other => other.map_err(plan_error)?,
        };
        if plan.pours.is_empty() {
            writeln!(out, "sorted in {} (the units still hidden are buried in sorted tubes)", pours_word(made))?;
            return Ok(ExitCode::SUCCESS);
        }
        writeln!(out, "plan: {}", plan_text(&seen, &plan).lines().next().unwrap_or(""))?;
        for &pour in &plan.pours {
            made += 1;
            writeln!(out, "pour {made}: {pour}")?;
            let mut uncovered = seen.pour(pour, options.model.rule).map_err(|e| anyhow!("internal error: {e}"))?;
            while let Some(tube) = uncovered {
                let height = seen.tubes()[tube].len();
                let choices = choices(&seen);
                writeln!(
                    out,
                    "tube {}, unit {height} from the bottom, is uncovered: which colour? [{choices}]",
                    tube + 1
                )?;
                out.flush()?;
                let mut line = String::new();
                if answers.read_line(&mut line)? == 0 {
                    log("watersort play: stopped: no answer on stdin");
                    return Ok(ExitCode::from(cli_common::EXIT_USAGE));
                }
                let answer = line.trim();
                match seen.colours().iter().position(|c| c == answer) {
                    Some(c) => match seen.reveal(tube, c as u8) {
                        Ok(next) => uncovered = next,
                        Err(e) => writeln!(out, "{e}; try again")?,
                    },
                    None => writeln!(
                        out,
                        "'{}' is not a colour of this level [{choices}]; try again",
                        cli_common::text::printable(answer)
                    )?,
                }
            }
        }
    }
}

/// The progress of a long plan on a terminal: a line on stderr once a second after the first second (a
/// quick plan shows nothing), as `solver solve` shows a long search.
#[derive(Default)]
struct Ticker {
    last: f64,
}

impl Ticker {
    fn tick(&mut self, p: &PlanProgress) {
        if p.seconds >= 1.0 && p.seconds - self.last >= 1.0 {
            self.last = p.seconds;
            log(&progress_line(p));
        }
    }
}

/// One progress line of a plan.
fn progress_line(p: &PlanProgress) -> String {
    format!(
        "watersort play: planning: {:.0} s  {} nodes expanded  {} search{} done",
        p.seconds,
        p.expanded,
        p.searches,
        if p.searches == 1 { "" } else { "es" }
    )
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_progress_line_says_time_nodes_and_searches() {
        let p = super::PlanProgress { expanded: 3_000_000, searches: 12, seconds: 2.04 };
        assert_eq!(super::progress_line(&p), "watersort play: planning: 2 s  3000000 nodes expanded  12 searches done");
    }
}
