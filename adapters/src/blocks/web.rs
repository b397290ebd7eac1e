//! Sliding blocks in the web app (`"puzzle": "sliding-block"`): `POST /api/check` says whether a level is
//! one and gives what the page plays it with (its picture, the legal moves from it in the chosen metric,
//! each with the level it leads to, and whether it is solved), `POST /api/solve` answers with the record
//! `blocks solve --format json` prints plus the places of every piece after each move, and `GET
//! /api/random` walks at random from a solved position of a built-in level.
//!
//! A level is a built-in level's name, the text form (`ABBC/ABBC/DEEF/DGHF/I..J B@3,1`) or the JSON form,
//! with `metric` (`piece` by default, as the command's), `algorithm` (A* by default) and `heuristic`.

use super::{moves_json, record, record_json};
use crate::served::{bad, failed, Answer, Fields, Host, Refusal, WebPuzzle, Work};
use batch::Source;
use blocks::puzzle::Blocks;
use blocks::{Heuristic, Level, Metric, Named, Options};
use search::{Algorithm, Puzzle};
use serde_json::{json, Value};
use std::sync::Arc;

/// The puzzle's name in requests and answers.
pub const SLIDING_BLOCK: &str = "sliding-block";
/// Bytes of stored states one search may take: A* and BFS keep what they see.
const MEMORY: u64 = 1 << 30;
/// The longest random walk served.
const MAX_WALK: u64 = 10_000;
/// The level a random draw starts from when the request names none.
const DEFAULT_LEVEL: &str = "heng-dao-li-ma";

/// A field naming one of `T`'s values (`metric`, `algorithm`, `heuristic`), or `default`.
fn named<T: Named>(f: &mut Fields, field: &'static str, default: T) -> Result<T, Refusal> {
    match f.text(field)? {
        None => Ok(default),
        Some(text) => T::from_name(&text).map_err(|e| bad(format!("field '{field}': {e}"))),
    }
}

/// The level a request gives (`level`: a built-in name, the text form, or the JSON form as a string or
/// an object), or why it is not one, in the parser's words.
fn level(f: &mut Fields) -> Result<Result<Level, String>, Refusal> {
    let value = f.value("level").ok_or_else(|| Fields::missing("level"))?;
    let text = match value {
        Value::String(text) => text,
        object @ Value::Object(_) => object.to_string(),
        other => return Err(bad(format!("field 'level': expected a level's text or JSON, found {other}"))),
    };
    Ok(blocks::parse_input(text.trim()).map_err(|e| format!("bad level: {e}")))
}

/// Whether `level`'s start is solved.
fn solved(level: &Level, metric: Metric) -> bool {
    let puzzle = Blocks::new(level, metric, Heuristic::Zero);
    puzzle.is_goal(&Blocks::start(level))
}

/// `POST /api/check`: the verdict, and for a valid level what the page plays it with.
fn check(mut f: Fields) -> Answer {
    let given = level(&mut f)?;
    let metric = named(&mut f, "metric", Metric::default())?;
    named(&mut f, "algorithm", Algorithm::Astar)?;
    named(&mut f, "heuristic", Heuristic::default())?;
    f.done()?;
    let level = match given {
        Ok(level) => level,
        Err(error) => return Ok(json!({ "valid": false, "error": error })),
    };
    let legal: Vec<Value> = blocks::legal_moves(&level, metric)
        .into_iter()
        .map(|step| {
            let next = blocks::play(&level, metric, &step).map(|l| l.to_text()).map_err(failed)?;
            Ok(json!({
                "piece": step.letter.to_string(),
                "to": [step.row, step.col],
                "path": step.path.iter().map(|d| d.letter()).collect::<String>(),
                "level": next,
            }))
        })
        .collect::<Result<_, Refusal>>()?;
    Ok(json!({
        "valid": true,
        "level": level.to_text(),
        "picture": blocks::draw::picture(&level),
        "solved": solved(&level, metric),
        "legal": legal,
    }))
}

/// `POST /api/solve`: the level checked now, the search once a permit is free; the answer is the record
/// with `frames`, each piece's top-left after each move (the start first), indexed as `picture`'s pieces.
fn solve(mut f: Fields) -> Result<Work, Refusal> {
    let given = level(&mut f)?;
    let metric = named(&mut f, "metric", Metric::default())?;
    let algorithm = named(&mut f, "algorithm", Algorithm::Astar)?;
    let heuristic = named(&mut f, "heuristic", Heuristic::default())?;
    f.done()?;
    let level = given.map_err(bad)?;
    let options = Options { algorithm, metric, heuristic, ..Options::default() };
    if algorithm == Algorithm::Bibfs && !matches!(level.goal(), blocks::Goal::Layout(_)) {
        return Err(bad(blocks::SolveError::NeedsLayout.to_string()));
    }
    Ok(Work::search(move |cx| {
        let limits = search::Limits { memory: Some(MEMORY), ..cx.watch.limits(cx.deadline) };
        let options = Options { limits, ..options };
        let solution = blocks::solve_with_progress(&level, &options, &mut |p| cx.watch.live.note(p))
            .map_err(|e| failed(e.to_string()))?;
        let text = level.to_text();
        let src = Source { id: level.name(), line: 1, text: &text, expected: None };
        let mut answer = record_json(&record(&src, &options, &solution));
        if let search::Outcome::Solved(steps) = &solution.outcome {
            let mut at = level.clone();
            let mut frames = vec![at.start().to_vec()];
            for step in steps {
                at = blocks::play(&at, metric, step).map_err(failed)?;
                frames.push(at.start().to_vec());
            }
            answer["frames"] = json!(frames);
            answer["moves"] = moves_json(steps);
        }
        answer["picture"] = json!(blocks::draw::picture(&level));
        answer["metric"] = json!(metric.name());
        Ok(answer)
    }))
}

/// `GET /api/random` (`level`, default 横刀立马; `metric`; `walk`, default 40): a position `walk` random
/// moves from a solved position of the level, as `blocks generate` draws it; the body `/api/solve` takes.
fn random(host: &Host, mut f: Fields) -> Result<Work, Refusal> {
    let name = f.text("level")?.unwrap_or_else(|| DEFAULT_LEVEL.to_string());
    let metric = named(&mut f, "metric", Metric::default())?;
    let walk = f.whole("walk")?.unwrap_or(40);
    f.done()?;
    if walk > MAX_WALK {
        return Err(bad(format!("walk {walk} is longer than {MAX_WALK} moves")));
    }
    let level = blocks::parse_input(&name).map_err(|e| bad(format!("bad level: {e}")))?;
    let seed = host.next_seed();
    Ok(Work::draw(move |_| {
        let drawn = blocks::generate(&level, metric, walk as u32, seed).map_err(|e| bad(e.to_string()))?;
        Ok(json!({ "puzzle": SLIDING_BLOCK, "level": drawn.to_text(), "metric": metric.name() }))
    }))
}

/// What the page offers: the built-in levels, the metrics, the algorithms and heuristics.
fn about() -> Value {
    let levels: Vec<Value> = blocks::levels::ALL
        .iter()
        .map(|b| json!({ "name": b.name, "chinese": b.chinese, "english": b.english, "level": b.text }))
        .collect();
    let names = |all: &[(&str, &str)]| all.iter().map(|(n, a)| json!({ "name": n, "about": a })).collect::<Vec<_>>();
    let metrics: Vec<(&str, &str)> = Metric::ALL.iter().map(|m| (m.name(), m.about())).collect();
    let heuristics: Vec<(&str, &str)> = Heuristic::ALL.iter().map(|h| (h.name(), h.about())).collect();
    json!({
        "levels": levels,
        "metrics": names(&metrics),
        "heuristics": names(&heuristics),
        "algorithms": ["astar", "ida", "bfs", "bibfs"],
    })
}

/// Sliding blocks as the web app serves them.
pub struct SlidingBlocks;

impl WebPuzzle for SlidingBlocks {
    fn name(&self) -> &'static str {
        SLIDING_BLOCK
    }

    fn title(&self) -> &'static str {
        "Sliding blocks (Klotski, Rush Hour)"
    }

    fn page(&self) -> &'static str {
        include_str!("page.js")
    }

    fn about(&self, _host: &Host) -> Value {
        about()
    }

    fn check(&self, f: Fields) -> Answer {
        check(f)
    }

    fn solve(&self, _host: &Arc<Host>, f: Fields) -> Result<Work, Refusal> {
        solve(f)
    }

    fn random(&self, host: &Arc<Host>, f: Fields) -> Result<Work, Refusal> {
        random(host, f)
    }
}
