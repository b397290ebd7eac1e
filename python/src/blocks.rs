//! `stp.blocks`: sliding-block levels (Klotski, Rush Hour) read, solved and explored by the `blocks`
//! library, answered with the records `blocks solve --format json` prints (as JSON text that the Python
//! side turns into dicts).

use crate::errors::bad;
use crate::interrupt;
use batch::Source;
use blocks::{parse_input, Heuristic, Level, Metric, Named, Options};
use pyo3::prelude::*;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

fn level_of(text: &str) -> PyResult<Level> {
    parse_input(text.trim()).map_err(|e| bad(format!("bad level: {e}")))
}

fn named<T: Named>(text: &str) -> PyResult<T> {
    T::from_name(text).map_err(|e| bad(e.to_string()))
}

/// Solves a level in `metric`; the record as JSON text, its `moves` the list of `{"piece", "to"}`.
#[pyfunction]
#[pyo3(signature = (level, metric="piece", algorithm="astar", heuristic=None, time_limit=None, node_limit=None))]
pub fn blocks_solve(
    py: Python<'_>,
    level: &str,
    metric: &str,
    algorithm: &str,
    heuristic: Option<&str>,
    time_limit: Option<f64>,
    node_limit: Option<u64>,
) -> PyResult<String> {
    let parsed = level_of(level)?;
    let heuristic = heuristic.map(named::<Heuristic>).transpose()?.unwrap_or_default();
    let cancel = Arc::new(AtomicBool::new(false));
    let time = time_limit
        .map(|t| batch::limits::parse_seconds(&t.to_string()).map_err(|e| bad(format!("time_limit: {e}"))))
        .transpose()?;
    let options = Options {
        algorithm: named(algorithm)?,
        metric: named(metric)?,
        heuristic,
        limits: search::Limits { nodes: node_limit, time, memory: None, cancel: Some(Arc::clone(&cancel)) },
    };
    let solution =
        interrupt::run(py, &cancel, || blocks::solve(&parsed, &options))?.map_err(|e| bad(e.to_string()))?;
    let text = parsed.to_text();
    let src = Source { id: parsed.name(), line: 1, text: &text, expected: None };
    let record = adapters::blocks::record(&src, &options, &solution);
    Ok(adapters::blocks::record_json(&record).to_string())
}

/// The whole space reachable from a level in `metric`, as JSON text: `reachable`, `solved`, `by_distance`
/// (positions at each distance from the start), `nearest_solved` (the fewest moves that solve the start) and
/// `farthest` (the largest distance).
#[pyfunction]
#[pyo3(signature = (level, metric="piece", max_states=50_000_000))]
pub fn blocks_explore(py: Python<'_>, level: &str, metric: &str, max_states: u64) -> PyResult<String> {
    let parsed = level_of(level)?;
    let metric: Metric = named(metric)?;
    let cancel = Arc::new(AtomicBool::new(false));
    let found = interrupt::run(py, &cancel, || blocks::explore(&parsed, metric, max_states))?
        .map_err(|e| bad(e.to_string()))?;
    let answer = serde_json::json!({
        "reachable": found.reachable(),
        "solved": found.solved,
        "nearest_solved": found.nearest_solved,
        "by_distance": found.counts,
        "farthest": found.max_distance(),
    });
    Ok(answer.to_string())
}

/// The built-in levels: (name, Chinese name, English name, text form).
#[pyfunction]
pub fn blocks_levels() -> Vec<(&'static str, &'static str, &'static str, &'static str)> {
    blocks::levels::ALL.iter().map(|b| (b.name, b.chinese, b.english, b.text)).collect()
}

/// A level's picture (rows, cols, walls, pieces, goal, exit) as JSON text, and its text form.
#[pyfunction]
pub fn blocks_level(level: &str) -> PyResult<(String, String)> {
    let l = level_of(level)?;
    let picture = serde_json::to_string(&blocks::draw::picture(&l)).map_err(|e| bad(e.to_string()))?;
    Ok((picture, l.to_text()))
}
