//! Water sort in the web app: `POST /api/solve` (and its job), `POST /api/hint`, `POST /api/check` and
//! `GET /api/random` with `"puzzle": "water-sort"`.
//!
//! A level comes in either of the forms the `watersort` command reads: a level line (`"name: ab ba - -"`,
//! each tube its colours bottom to top as letters, `-` an empty tube, `?` a hidden unit) or the JSON form
//! (an array of tubes, each an array of colour names), with `capacity` (default 4) and `rule` (as
//! `--rule`, default `standard`). Tubes may be part full: a position in the middle of a game is a level.
//! The answer is the record `watersort solve --format json` prints, pours included; a level the search
//! proves unsolvable is a record with status `unsolvable` (that takes a search, so it is an answer, not a
//! refused request), and one the server's limits stop has status `limit`. A level with hidden units is
//! answered with a plan instead (status `plan`): the pours up to the first reveal, as
//! [`watersort::mystery::plan`] chooses them, and how sure they are.

use super::{hint_json, record};
use crate::served::{bad, failed, Answer, Context, Fields, Host, Refusal, WebPuzzle, Work};
use batch::Source;
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::Instant;
use watersort::generate::{generate, GenerateError, Spec};
use watersort::hint::{replay, trail, Hint, Trail, Verdict};
use watersort::mystery::{has_hidden, plan, Mystery, Plan, PlanError, Sampling};
use watersort::{parse_json, parse_levels, Algorithm, Level, LevelError, Model, Named, Options, Pour, Rule};

/// The puzzle's name in requests and answers.
pub const WATER_SORT: &str = "water-sort";
/// The capacity when a request gives none, as the `watersort` command's.
const CAPACITY: usize = 4;
/// Bytes of stored states one search may take: A* keeps every state it sees, and a large level could
/// fill the machine's memory within the time limit, for every search running at once.
const MEMORY: u64 = 1 << 30;
/// Bounds of `/api/random`: generating is fast at these sizes (a depth-first check a draw), and the levels
/// stay small enough to solve optimally within seconds or to stop at the time limit.
const MAX_COLOURS: usize = 16;
const MAX_EMPTY: usize = 4;
const MAX_CAPACITY: usize = 8;
/// Draws tried for a random level, each checked by a depth-first search of at most `DRAW_NODES` expansions:
/// together a bound on the time one request takes.
const ATTEMPTS: usize = 200;
const DRAW_NODES: u64 = 20_000;

/// The pour rule named `text` (default standard), or a 400 listing the rules.
fn rule(text: Option<String>) -> Result<Rule, Refusal> {
    Rule::from_name(text.as_deref().unwrap_or("standard")).map_err(|e| bad(e.to_string()))
}

/// A level as a request gives it.
enum Given {
    /// Every unit in sight.
    Seen(Level),
    /// Some hidden (`?` in its line).
    Hidden(Mystery),
}

fn bad_level(e: LevelError) -> String {
    format!("bad level: {}", e.problem)
}

/// The one level of a level line's parse, or why there is not one.
fn one<T>(mut levels: Vec<Result<T, LevelError>>) -> Result<T, String> {
    match levels.len() {
        1 => levels.remove(0).map_err(bad_level),
        0 => Err("bad level: no tubes (a level line is `name: ab ba - -`)".to_string()),
        n => Err(format!("bad level: {n} levels; a request solves one")),
    }
}

/// The level of a request (`level`, a level line or an array of tubes, and `capacity`, default 4), or why
/// it is not one: the problem the watersort parser names.
fn level(f: &mut Fields) -> Result<Result<Given, String>, Refusal> {
    let value = f.value("level").ok_or_else(|| Fields::missing("level"))?;
    let capacity = f.count("capacity")?.unwrap_or(CAPACITY);
    Ok(match value {
        Value::String(text) if text.contains('?') => one(Mystery::parse_all(&text, capacity)).map(Given::Hidden),
        Value::String(text) => one(parse_levels(&text, capacity)).map(Given::Seen),
        Value::Array(_) => {
            let json = value.to_string();
            if has_hidden(&json) {
                Mystery::parse_json(&json, "level", capacity).map(Given::Hidden).map_err(bad_level)
            } else {
                parse_json(&json, "level", capacity).map(Given::Seen).map_err(bad_level)
            }
        }
        _ => Err("bad level: give a level line (a string) or an array of tubes".to_string()),
    })
}

/// The search options of the web app: A* (fewest pours) with the default model under `rule`, stopping at
/// the request's deadline, at [`MEMORY`], or when its watch is cancelled (the server cancels it at the
/// deadline, which bounds a hint or a plan as a whole, one search after another).
fn options(rule: Rule, cx: &Context) -> Options {
    let limits = search::Limits { memory: Some(MEMORY), ..cx.watch.limits(cx.deadline) };
    Options { algorithm: Algorithm::Astar, model: Model { rule, ..Model::default() }, limits }
}

/// `POST /api/solve` with `"puzzle": "water-sort"` (`level`, `capacity`, `rule`): the level checked and its
/// place in the queue taken now, the search once a permit is free. A level with hidden units gets a plan
/// (see [`planned`]).
fn solve(mut f: Fields) -> Result<Work, Refusal> {
    let given = level(&mut f)?;
    let rule = rule(f.text("rule")?)?;
    f.done()?;
    let level = match given.map_err(bad)? {
        Given::Seen(level) => level,
        Given::Hidden(mystery) => return planned(mystery, rule),
    };
    Ok(Work::search(move |cx| {
        let options = options(rule, &cx);
        let solution = watersort::solve_with_progress(&level, &options, &mut |p| cx.watch.live.note(p))
            .map_err(|e| failed(e.to_string()))?;
        let text = level.to_line();
        let src = Source { id: level.name(), line: 1, text: &text, expected: None };
        serde_json::to_value(record(&src, &options, &solution)).map_err(|e| failed(e.to_string()))
    }))
}

/// A solve of a level with hidden units: the plan of [`watersort::mystery::plan`] (assignments sampled as
/// by default: all of them up to a thousand), within the time limit as a whole.
fn planned(mystery: Mystery, rule: Rule) -> Result<Work, Refusal> {
    if rule == Rule::WholeRun {
        return Err(bad(PlanError::WholeRun.to_string()));
    }
    Ok(Work::search(move |cx| {
        let options = options(rule, &cx);
        let started = Instant::now();
        let planned = plan(&mystery, &options, &Sampling::default());
        plan_answer(&mystery, planned, started.elapsed().as_secs_f64(), &cx)
    }))
}

/// Pours as a record writes them: `1->3 2->1`.
fn pours_text(pours: &[Pour]) -> String {
    pours.iter().map(|p| format!("{}->{}", p.from + 1, p.to + 1)).collect::<Vec<_>>().join(" ")
}

/// The answer of a plan: status `plan` with the pours (`moves`, `length`), whether the last reveals a unit,
/// and the library's account of how sure they are (`safe`, `checked`, `sortable_for`, `unsortable`,
/// `exhaustive`, `assignments`, `best_case`); else status `unsolvable` or `limit` with `error`, as a
/// record says it.
fn plan_answer(mystery: &Mystery, planned: Result<Plan, PlanError>, seconds: f64, cx: &Context) -> Answer {
    let (status, error) = match planned {
        Ok(p) => {
            return Ok(json!({
                "status": "plan",
                "instance": mystery.to_line(),
                "moves": pours_text(&p.pours),
                "length": p.pours.len(),
                "reveals": p.reveals,
                "safe": p.safe(),
                "checked": p.checked,
                "sortable_for": p.sortable_for,
                "unsortable": p.unsortable,
                "exhaustive": p.exhaustive,
                "assignments": p.assignments,
                "best_case": p.best_case,
                "seconds": seconds,
            }))
        }
        Err(e @ PlanError::Unsolvable) => ("unsolvable", e.to_string()),
        Err(PlanError::Stopped(why)) => (
            "limit",
            format!(
                "{}: stopped after {seconds:.3} s, before the plan was known",
                cx.watch.stopped_by(why, cx.deadline)
            ),
        ),
        Err(e @ (PlanError::WholeRun | PlanError::Waiting)) => return Err(bad(e.to_string())),
        Err(e @ PlanError::Solve(_)) => return Err(failed(e.to_string())),
    };
    Ok(json!({ "status": status, "instance": mystery.to_line(), "moves": "", "length": null, "error": error,
               "seconds": seconds }))
}

/// `POST /api/hint` with `"puzzle": "water-sort"` (`level`, `capacity`, `rule`): help from the position
/// the level line gives (tubes part full, as the middle of a game is), as `watersort hint --format json`
/// words it: `sortable` (`yes`, `no` or `unknown`, then with the limit in `error`), the fewest `pours_left`
/// and the `next` pour, and every legal pour from it with what it `leads_to` (`sortable`, `dead end` or
/// `unknown`). Searched under a permit within the time limit, as a solve; a position with hidden units is
/// refused (a plan is what helps there).
fn hint(mut f: Fields) -> Result<Work, Refusal> {
    let given = level(&mut f)?;
    let rule = rule(f.text("rule")?)?;
    let history = f.text("history")?;
    f.done()?;
    let start = match given.map_err(bad)? {
        Given::Seen(level) => level,
        Given::Hidden(_) => {
            return Err(bad(
                "a hint needs every unit in sight: for a level with hidden units (?), Solve plans the pours up to \
                 the first reveal",
            ))
        }
    };
    let history = match history {
        Some(text) => watersort::play::parse_pours(&text).map_err(|e| bad(format!("field 'history': {e}")))?,
        None => Vec::new(),
    };
    let model = Model { rule, ..Model::default() };
    let positions = replay(&start, &Options { model, ..Options::default() }, &history)
        .map_err(|e| bad(format!("field 'history': {e}")))?;
    Ok(Work::search(move |cx| {
        let options = options(rule, &cx);
        let position = positions.last().expect("a replay holds its start");
        let help = watersort::hint::hint(position, &options).map_err(|e| failed(e.to_string()))?;
        let back = match help.verdict {
            Verdict::Dead if positions.len() > 1 => {
                Some(trail(&positions, &options).map_err(|e| failed(e.to_string()))?)
            }
            _ => None,
        };
        Ok(hint_answer(position, &help, back, &cx))
    }))
}

/// A hint in the words and fields of `watersort hint --format json` (with `--history` when the request
/// gives the pours made: then a dead position says how many pours back the last sortable one was), with
/// the limit that stopped it in `error`.
fn hint_answer(position: &Level, help: &Hint, back: Option<Trail>, cx: &Context) -> Value {
    let error = match help.verdict {
        Verdict::Unknown(why) => {
            Some(format!("the search stopped ({}) before it knew", cx.watch.stopped_by(why, cx.deadline)))
        }
        _ => None,
    };
    let (after, take_back) = match back {
        Some(Trail::LastSolvable { at, back }) => (Some(at), Some(back)),
        _ => (None, None),
    };
    let mut answer = hint_json(position, help);
    answer.insert("error".into(), error.into());
    answer.insert("last_sortable_after".into(), after.into());
    answer.insert("take_back".into(), take_back.into());
    Value::Object(answer)
}

/// `POST /api/check` with `"puzzle": "water-sort"`: whether the level is one (`valid`, else `error` with
/// the parser's reason), and what the page's fields show of it: its line as the solver reads it, its
/// colours (those not in sight yet included), empty tubes, capacity and hidden units. A verdict, not a
/// refusal: only a malformed request is a 400.
fn check(mut f: Fields) -> Answer {
    let given = level(&mut f)?;
    // The body of a solve is checked whole: a rule that is none is refused as the solve would refuse it.
    rule(f.text("rule")?)?;
    f.done()?;
    let (line, colours, tubes, capacity, hidden) = match given {
        Ok(Given::Seen(l)) => (l.to_line(), l.colours().len(), l.tubes().to_vec(), l.capacity(), 0),
        Ok(Given::Hidden(m)) => (m.to_line(), m.colours().len(), m.tubes().to_vec(), m.capacity(), m.hidden()),
        Err(error) => return Ok(json!({ "valid": false, "error": error })),
    };
    Ok(json!({
        "valid": true,
        "level": line,
        "colors": colours,
        "empty": tubes.iter().filter(|t| t.is_empty()).count(),
        "capacity": capacity,
        "hidden": hidden,
    }))
}

/// A number of a random query within `range`, or a 400 naming the parameter.
fn within(name: &str, value: usize, range: std::ops::RangeInclusive<usize>) -> Result<usize, Refusal> {
    if range.contains(&value) {
        Ok(value)
    } else {
        Err(bad(format!("{name} {value} is not in {}..={}", range.start(), range.end())))
    }
}

/// `GET /api/random?puzzle=water-sort`: a random level the watersort crate's generator proved solvable
/// (its depth-first check, at most [`DRAW_NODES`] expansions a draw), drawn under a search permit as it
/// searches.
///
/// The answer is a request as it stands: `level` (the level line, named after its seed, `s<seed>-1`:
/// `watersort generate --count 1` with the same seed, colours, empty tubes, capacity and rule writes the same
/// level, unless a draw before it was solvable but not shown so within the server's [`DRAW_NODES`], a limit
/// the command does not have), `capacity` and `rule`.
fn random(host: &Host, mut f: Fields) -> Result<Work, Refusal> {
    let colours = f.count("colors")?;
    let empty = f.count("empty")?;
    let capacity = f.count("capacity")?;
    let rule = rule(f.text("rule")?)?;
    f.done()?;
    let spec = Spec {
        colours: within("colors", colours.unwrap_or(6), 1..=MAX_COLOURS)?,
        empty: within("empty", empty.unwrap_or(2), 0..=MAX_EMPTY)?,
        capacity: within("capacity", capacity.unwrap_or(CAPACITY), 1..=MAX_CAPACITY)?,
        count: 1,
        seed: host.next_seed(),
        attempts: ATTEMPTS,
    };
    Ok(Work::draw(move |cx| {
        let capacity = spec.capacity;
        let mut options = options(rule, &cx);
        options.limits.nodes = Some(DRAW_NODES);
        let levels = generate(&spec, &options).map_err(|e| match e {
            GenerateError::Solve(_) | GenerateError::WorkersStopped => failed(e.to_string()),
            e => bad(e.to_string()),
        })?;
        let level = levels.into_iter().next().ok_or_else(|| failed("no level generated"))?;
        Ok(json!({ "puzzle": WATER_SORT, "level": level.to_line(), "capacity": capacity, "rule": rule.name() }))
    }))
}

/// Water sort as the web app serves it.
pub struct WaterSort;

impl WebPuzzle for WaterSort {
    fn name(&self) -> &'static str {
        WATER_SORT
    }

    fn title(&self) -> &'static str {
        "Water sort"
    }

    fn page(&self) -> &'static str {
        include_str!("page.js")
    }

    /// The bounds of a random level and the rules, for the page's fields.
    fn about(&self, _host: &Host) -> Value {
        let rules: Vec<&str> = Rule::ALL.iter().map(|r| r.name()).collect();
        json!({
            "capacity": CAPACITY,
            "colors": { "max": MAX_COLOURS },
            "empty": { "max": MAX_EMPTY },
            "capacity_max": MAX_CAPACITY,
            "rules": rules,
        })
    }

    fn check(&self, f: Fields) -> Answer {
        check(f)
    }

    fn solve(&self, _host: &Arc<Host>, f: Fields) -> Result<Work, Refusal> {
        solve(f)
    }

    fn hint(&self, _host: &Arc<Host>, f: Fields) -> Result<Work, Refusal> {
        hint(f)
    }

    fn has_hints(&self) -> bool {
        true
    }

    fn random(&self, host: &Arc<Host>, f: Fields) -> Result<Work, Refusal> {
        random(host, f)
    }
}
