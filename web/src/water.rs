//! Water sort in the web app: `POST /api/solve` and `GET /api/random` with `"puzzle": "water-sort"`.
//!
//! A level comes in either of the forms the `watersort` command reads: a level line (`"name: ab ba - -"`,
//! each tube its colours bottom to top as letters, `-` an empty tube) or the JSON form (an array of tubes,
//! each an array of colour names), with `capacity` (default 4) and `rule` (as `--rule`, default
//! `standard`). The answer is the record `watersort solve --format json` prints, pours included; a level
//! the search proves unsolvable is a record with status `unsolvable` (that takes a search, so it is an
//! answer, not a refused request), and one the server's limits stop has status `limit`.

use crate::app::{bad, failed, time_left, ApiError, App};
use adapters::water::record;
use axum::response::{IntoResponse, Response};
use axum::Json;
use batch::Source;
use serde::de::IgnoredAny;
use serde::{Deserialize, Serialize};
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

/// `POST /api/solve` for water sort.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SolveRequest {
    /// Already read, to choose this type.
    #[serde(default, rename = "puzzle")]
    _puzzle: IgnoredAny,
    /// A level line (a string) or the JSON form (an array of tubes).
    level: serde_json::Value,
    /// Units a tube holds (default 4).
    capacity: Option<usize>,
    /// `standard` (default), `whole-run` or `one-unit`.
    rule: Option<String>,
}

/// The pour rule named `text` (default standard), or a 400 listing the rules.
fn rule(text: Option<&str>) -> Result<Rule, ApiError> {
    Rule::from_name(text.unwrap_or("standard")).map_err(|e| bad(e.to_string()))
}

/// The level of a request, checked (a 400 naming the problem otherwise).
fn level(value: &serde_json::Value, capacity: usize) -> Result<Level, ApiError> {
    let bad_level = |e: watersort::LevelError| bad(format!("bad level: {}", e.problem));
    match value {
        serde_json::Value::String(text) => {
            let mut levels = parse_levels(text, capacity);
            match levels.len() {
                1 => levels.remove(0).map_err(bad_level),
                0 => Err(bad("bad level: no tubes (a level line is `name: ab ba - -`)")),
                n => Err(bad(format!("bad level: {n} levels; a request solves one"))),
            }
        }
        serde_json::Value::Array(_) => parse_json(&value.to_string(), "level", capacity).map_err(bad_level),
        _ => Err(bad("bad level: give a level line (a string) or an array of tubes")),
    }
}

/// The search options of the web app: A* (fewest pours) with the default model under `rule`, stopping at
/// the request's `deadline` or at [`MEMORY`].
fn options(rule: Rule, deadline: Instant) -> Options {
    let limits = search::Limits { time: Some(time_left(deadline)), memory: Some(MEMORY), ..search::Limits::default() };
    Options { algorithm: Algorithm::Astar, model: Model { rule, ..Model::default() }, limits }
}

/// `POST /api/solve` with `"puzzle": "water-sort"`.
pub async fn solve(app: Arc<App>, req: SolveRequest) -> Result<Response, ApiError> {
    let rule = rule(req.rule.as_deref())?;
    let level = level(&req.level, req.capacity.unwrap_or(CAPACITY))?;
    let record = app
        .turn()?
        .search(move |deadline| {
            let options = options(rule, deadline);
            let solution = watersort::solve(&level, &options).map_err(|e| failed(e.to_string()))?;
            let text = level.to_line();
            let src = Source { id: level.name(), line: 1, text: &text, expected: None };
            Ok(record(&src, &options, &solution))
        })
        .await?;
    Ok(Json(record).into_response())
}

/// `GET /api/random?puzzle=water-sort&colors=K&empty=E&capacity=C&rule=R`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RandomQuery {
    #[serde(default, rename = "puzzle")]
    _puzzle: IgnoredAny,
    /// Colours, one full tube each (default 6).
    colors: Option<usize>,
    /// Empty tubes (default 2).
    empty: Option<usize>,
    capacity: Option<usize>,
    rule: Option<String>,
}

/// A level, as `/api/solve` takes it.
#[derive(Serialize)]
pub struct RandomLevel {
    puzzle: &'static str,
    /// The level line; its name says the seed (`s<seed>-1`). `watersort generate --count 1` with the same
    /// seed, colours, empty tubes, capacity and rule writes the same level, unless a draw before it was
    /// solvable but not shown so within the server's [`DRAW_NODES`] (the command has no such limit).
    level: String,
    capacity: usize,
    rule: String,
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
pub async fn random(app: Arc<App>, q: RandomQuery) -> Result<Response, ApiError> {
    let rule = rule(q.rule.as_deref())?;
    let spec = Spec {
        colours: within("colors", q.colors.unwrap_or(6), 1..=MAX_COLOURS)?,
        empty: within("empty", q.empty.unwrap_or(2), 0..=MAX_EMPTY)?,
        capacity: within("capacity", q.capacity.unwrap_or(CAPACITY), 1..=MAX_CAPACITY)?,
        count: 1,
        seed: app.next_seed(),
        attempts: ATTEMPTS,
    };
    let capacity = spec.capacity;
    let levels = app
        .turn()?
        .search(move |deadline| {
            let mut options = options(rule, deadline);
            options.limits.nodes = Some(DRAW_NODES);
            generate(&spec, &options).map_err(|e| match e {
                GenerateError::Solve(_) | GenerateError::WorkersStopped => failed(e.to_string()),
                e => bad(e.to_string()),
            })
        })
        .await?;
    let level = levels.into_iter().next().ok_or_else(|| failed("no level generated"))?;
    Ok(Json(RandomLevel { puzzle: WATER_SORT, level: level.to_line(), capacity, rule: rule.name().to_string() })
        .into_response())
}
