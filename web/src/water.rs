//! Water sort in the web app: `POST /api/solve` (and its job), `POST /api/check` and `GET /api/random` with
//! `"puzzle": "water-sort"`.
//!
//! A level comes in either of the forms the `watersort` command reads: a level line (`"name: ab ba - -"`,
//! each tube its colours bottom to top as letters, `-` an empty tube) or the JSON form (an array of tubes,
//! each an array of colour names), with `capacity` (default 4) and `rule` (as `--rule`, default
//! `standard`). The answer is the record `watersort solve --format json` prints, pours included; a level
//! the search proves unsolvable is a record with status `unsolvable` (that takes a search, so it is an
//! answer, not a refused request), and one the server's limits stop has status `limit`.

use crate::app::{bad, failed, time_left, ApiError, App};
use crate::fields::Fields;
use crate::jobs::{Solving, Watch};
use adapters::water::record;
use batch::Source;
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::Instant;
use watersort::generate::{generate, GenerateError, Spec};
use watersort::{parse_json, parse_levels, Algorithm, Level, Model, Named, Options, Rule};

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
fn rule(text: Option<String>) -> Result<Rule, ApiError> {
    Rule::from_name(text.as_deref().unwrap_or("standard")).map_err(|e| bad(e.to_string()))
}

/// The level of a request (`level`, a level line or an array of tubes, and `capacity`, default 4), or why
/// it is not one: the problem the watersort parser names.
fn level(f: &mut Fields) -> Result<Result<Level, String>, ApiError> {
    let value = f.value("level").ok_or_else(|| Fields::missing("level"))?;
    let capacity = f.count("capacity")?.unwrap_or(CAPACITY);
    let bad_level = |e: watersort::LevelError| format!("bad level: {}", e.problem);
    Ok(match value {
        Value::String(text) => {
            let mut levels = parse_levels(&text, capacity);
            match levels.len() {
                1 => levels.remove(0).map_err(bad_level),
                0 => Err("bad level: no tubes (a level line is `name: ab ba - -`)".to_string()),
                n => Err(format!("bad level: {n} levels; a request solves one")),
            }
        }
        Value::Array(_) => parse_json(&value.to_string(), "level", capacity).map_err(bad_level),
        _ => Err("bad level: give a level line (a string) or an array of tubes".to_string()),
    })
}

/// The search options of the web app: A* (fewest pours) with the default model under `rule`, stopping at
/// the request's `deadline`, at [`MEMORY`], or when `watch` is cancelled.
fn options(rule: Rule, deadline: Instant, watch: &Watch) -> Options {
    let limits = search::Limits {
        time: Some(time_left(deadline)),
        memory: Some(MEMORY),
        cancel: Some(Arc::clone(&watch.cancel)),
        ..search::Limits::default()
    };
    Options { algorithm: Algorithm::Astar, model: Model { rule, ..Model::default() }, limits }
}

/// `POST /api/solve` with `"puzzle": "water-sort"` (`level`, `capacity`, `rule`): the level checked and its
/// place in the queue taken now, the search once a permit is free.
pub fn solve(app: &Arc<App>, mut f: Fields, watch: Watch) -> Result<Solving, ApiError> {
    let level = level(&mut f)?;
    let rule = rule(f.text("rule")?)?;
    f.done()?;
    let level = level.map_err(bad)?;
    let turn = app.turn()?;
    Ok(Box::pin(async move {
        let record = turn
            .search(move |deadline| {
                let options = options(rule, deadline, &watch);
                let solution = watersort::solve_with_progress(&level, &options, &mut |p| watch.live.note(p))
                    .map_err(|e| failed(e.to_string()))?;
                let text = level.to_line();
                let src = Source { id: level.name(), line: 1, text: &text, expected: None };
                Ok(record(&src, &options, &solution))
            })
            .await?;
        serde_json::to_value(record).map_err(|e| failed(e.to_string()))
    }))
}

/// `POST /api/check` with `"puzzle": "water-sort"`: whether the level is one (`valid`, else `error` with
/// the parser's reason), and what the page's fields show of it: its line as the solver reads it, its
/// colours, empty tubes and capacity. A verdict, not a refusal: only a malformed request is a 400.
pub fn check(mut f: Fields) -> Result<Value, ApiError> {
    let level = level(&mut f)?;
    f.done()?;
    Ok(match level {
        Ok(level) => json!({
            "valid": true,
            "level": level.to_line(),
            "colors": level.colours().len(),
            "empty": level.tubes().iter().filter(|t| t.is_empty()).count(),
            "capacity": level.capacity(),
        }),
        Err(error) => json!({ "valid": false, "error": error }),
    })
}

/// A number of a random query within `range`, or a 400 naming the parameter.
fn within(name: &str, value: usize, range: std::ops::RangeInclusive<usize>) -> Result<usize, ApiError> {
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
pub async fn random(app: Arc<App>, mut f: Fields) -> Result<Value, ApiError> {
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
        seed: app.next_seed(),
        attempts: ATTEMPTS,
    };
    let capacity = spec.capacity;
    let levels = app
        .turn()?
        .search(move |deadline| {
            let mut options = options(rule, deadline, &Watch::default());
            options.limits.nodes = Some(DRAW_NODES);
            generate(&spec, &options).map_err(|e| match e {
                GenerateError::Solve(_) | GenerateError::WorkersStopped => failed(e.to_string()),
                e => bad(e.to_string()),
            })
        })
        .await?;
    let level = levels.into_iter().next().ok_or_else(|| failed("no level generated"))?;
    Ok(json!({ "puzzle": WATER_SORT, "level": level.to_line(), "capacity": capacity, "rule": rule.name() }))
}
