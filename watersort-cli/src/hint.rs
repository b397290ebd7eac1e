//! `watersort hint`: help from the position a player is stuck in (the library's `hint` module does the
//! work; this file reads the arguments and words the answer).

use crate::{pours_word, read_levels, ModelArgs};
use adapters::water::hint_json;
use anyhow::anyhow;
use batch::LimitArgs;
use cli_common::{usage, Format};
use std::process::ExitCode;
use watersort::hint::{hint, replay, trail, Hint, Sortable, Trail, Verdict};
use watersort::{parse_pours, Level, Model, Options, Pour};

#[derive(clap::Args)]
pub struct HintArgs {
    /// The position: a level line (`name: ab ba -`, tubes may be part full), a file holding one, or `-`
    /// for stdin. With --history, the level the pours start from.
    input: String,
    /// The pours made from INPUT to reach the position, as `solve` prints them or shorter: `1>3 2>1`. When
    /// the position is dead, the hint also says how many pours back the last position that could still be
    /// sorted was.
    #[arg(long, value_name = "POURS", allow_hyphen_values = true)]
    history: Option<String>,
    #[command(flatten)]
    model: ModelArgs,
    #[command(flatten)]
    limits: LimitArgs,
    /// text, or one JSON object.
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
}

/// Exit status: 0 the position can be sorted, 1 it is dead, 3 a limit stopped the search first.
pub fn run(args: &HintArgs) -> anyhow::Result<ExitCode> {
    let mut levels = read_levels(&args.input, args.model.capacity)?;
    if levels.len() != 1 {
        return Err(usage(anyhow!("hint takes one position; the input holds {}", levels.len())));
    }
    let start = levels.remove(0).map_err(|e| usage(anyhow!("{e}")))?;
    let options = Options {
        model: Model { rule: args.model.rule, ..Model::default() },
        limits: args.limits.limits(None),
        ..Options::default()
    };
    let history = match &args.history {
        Some(text) => parse_pours(text).map_err(|e| usage(anyhow!("--history: {e}")))?,
        None => Vec::new(),
    };
    let positions = replay(&start, &options, &history).map_err(|e| usage(anyhow!("--history: {e}")))?;
    let position = positions.last().expect("replay returns the start at least");
    let help = hint(position, &options)?;
    let back = match (&help.verdict, history.is_empty()) {
        (Verdict::Dead, false) => Some(trail(&positions, &options)?),
        _ => None,
    };
    match args.format {
        Format::Json => println!("{}", as_json(position, &help, back.as_ref(), &history)),
        Format::Text => print!("{}", as_text(position, &help, back.as_ref(), &history)),
    }
    Ok(ExitCode::from(match help.verdict {
        Verdict::Solvable { .. } => cli_common::EXIT_OK,
        Verdict::Dead => cli_common::EXIT_FAILURE,
        Verdict::Unknown(_) => cli_common::EXIT_LIMIT,
    }))
}

fn as_text(position: &Level, help: &Hint, back: Option<&Trail>, history: &[Pour]) -> String {
    let (verdict, pours) = (&help.verdict, &help.pours);
    let mut out = format!("{}\n", position.to_line());
    out += &match verdict {
        Verdict::Solvable { pours_left: 0, .. } => "sorted already\n".to_string(),
        Verdict::Solvable { pours_left, next: Some(next) } => {
            format!("can still be sorted: {} left at fewest; next pour {next}\n", pours_word(*pours_left))
        }
        Verdict::Solvable { .. } => unreachable!("a position with pours left has a next pour"),
        Verdict::Dead => "dead: no sequence of pours sorts this position\n".to_string(),
        Verdict::Unknown(why) => format!("unknown: the search stopped ({why}) before it knew\n"),
    };
    if !pours.is_empty() && !matches!(verdict, Verdict::Dead) {
        let dead: Vec<String> = pours.iter().filter(|p| p.1 == Sortable::No).map(|p| p.0.to_string()).collect();
        out += &if dead.is_empty() {
            match pours.len() {
                1 => "the one pour from here keeps it sortable\n".to_string(),
                n => format!("every one of the {n} pours from here keeps it sortable\n"),
            }
        } else {
            format!("pours that lead to a dead end: {}\n", dead.join(", "))
        };
    }
    out += &match back {
        Some(Trail::LastSolvable { at: 0, back }) => {
            format!("the start was the last sortable position: take back {}\n", pours_word(*back))
        }
        Some(Trail::LastSolvable { at, back }) => format!(
            "the last sortable position came after pour {at} ({}): take back {}\n",
            history[at - 1],
            pours_word(*back)
        ),
        Some(Trail::StartDead) => "the start itself cannot be sorted\n".to_string(),
        Some(Trail::Unknown { at, why }) => format!("the position after pour {at} stopped the search ({why})\n"),
        Some(Trail::StillSolvable) | None => String::new(),
    };
    out
}

fn as_json(position: &Level, help: &Hint, back: Option<&Trail>, history: &[Pour]) -> serde_json::Value {
    let (last_sortable_after, take_back) = match back {
        Some(Trail::LastSolvable { at, back }) => (Some(*at), Some(*back)),
        _ => (None, None),
    };
    let mut answer = hint_json(position, help);
    answer.insert("history".into(), history.len().into());
    answer.insert("last_sortable_after".into(), last_sortable_after.into());
    answer.insert("take_back".into(), take_back.into());
    serde_json::Value::Object(answer)
}
