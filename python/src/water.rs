//! `stp.watersort`: levels read, solved and hinted by the water sort library, answered with the records
//! `watersort solve --format json` and `watersort hint --format json` print (as JSON text that the Python
//! side turns into dicts).

use crate::errors::bad;
use crate::interrupt;
use batch::Source;
use pyo3::prelude::*;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use watersort::hint::{hint, replay};
use watersort::{parse_input, parse_pours, Heuristic, Level, Model, Named, Options, Rule};

/// The one level in `text` (a `name: tubes` line, bare tubes, or the JSON form), or the command's message.
fn level_of(text: &str, capacity: usize) -> PyResult<Level> {
    if capacity == 0 {
        return Err(bad("capacity: give at least 1 unit a tube"));
    }
    let mut levels = parse_input(text, "level", capacity);
    match (levels.pop(), levels.is_empty()) {
        (Some(Ok(level)), true) => Ok(level),
        (Some(Err(e)), true) => Err(bad(e.to_string())),
        (None, _) => Err(bad("no level in the input")),
        (Some(_), false) => Err(bad("give one level a call (several lines were given)")),
    }
}

fn limits(time_limit: Option<f64>, node_limit: Option<u64>, cancel: &Arc<AtomicBool>) -> PyResult<search::Limits> {
    let time = time_limit
        .map(|t| batch::limits::parse_seconds(&t.to_string()).map_err(|e| bad(format!("time_limit: {e}"))))
        .transpose()?;
    Ok(search::Limits { nodes: node_limit, time, memory: None, cancel: Some(Arc::clone(cancel)) })
}

/// Solves a level; the record as JSON text. The heuristic defaults as the command's do: `bottoms` for the
/// optimal algorithms, `guide` for greedy and dfs; an inadmissible one is refused for the optimal ones.
#[pyfunction]
#[pyo3(signature = (level, capacity=4, algorithm="astar", heuristic=None, rule="standard", time_limit=None, node_limit=None))]
#[allow(clippy::too_many_arguments)]
pub fn water_solve(
    py: Python<'_>,
    level: &str,
    capacity: usize,
    algorithm: &str,
    heuristic: Option<&str>,
    rule: &str,
    time_limit: Option<f64>,
    node_limit: Option<u64>,
) -> PyResult<String> {
    let parsed = level_of(level, capacity)?;
    let algorithm = search::Algorithm::from_name(algorithm).map_err(|e| bad(e.to_string()))?;
    if algorithm == search::Algorithm::Bibfs {
        return Err(bad("bibfs needs a single goal, which a water sort level does not have"));
    }
    let heuristic = match heuristic.map(Heuristic::from_name).transpose().map_err(|e| bad(e.to_string()))? {
        Some(h) if algorithm.optimal() && !h.admissible() => {
            return Err(bad(format!("heuristic {} is for algorithm greedy or dfs only", h.name())))
        }
        Some(h) => h,
        None if !algorithm.optimal() => Heuristic::Guide,
        None => Heuristic::Bottoms,
    };
    let rule = Rule::from_name(rule).map_err(|e| bad(e.to_string()))?;
    let cancel = Arc::new(AtomicBool::new(false));
    let options = Options {
        algorithm,
        model: Model { rule, heuristic, ..Model::default() },
        limits: limits(time_limit, node_limit, &cancel)?,
    };
    let solution =
        interrupt::run(py, &cancel, || watersort::solve(&parsed, &options))?.map_err(|e| bad(e.to_string()))?;
    let text = parsed.to_line();
    let src = Source { id: parsed.name(), line: 1, text: &text, expected: None };
    let record = adapters::water::record(&src, &options, &solution);
    serde_json::to_string(&record).map_err(|e| bad(e.to_string()))
}

/// A hint for a level (after the pours of `history`, e.g. "1->3 2->1"), as JSON text.
#[pyfunction]
#[pyo3(signature = (level, capacity=4, history=None, rule="standard", time_limit=None, node_limit=None))]
pub fn water_hint(
    py: Python<'_>,
    level: &str,
    capacity: usize,
    history: Option<&str>,
    rule: &str,
    time_limit: Option<f64>,
    node_limit: Option<u64>,
) -> PyResult<String> {
    let start = level_of(level, capacity)?;
    let rule = Rule::from_name(rule).map_err(|e| bad(e.to_string()))?;
    let cancel = Arc::new(AtomicBool::new(false));
    let options = Options {
        model: Model { rule, ..Model::default() },
        limits: limits(time_limit, node_limit, &cancel)?,
        ..Options::default()
    };
    let pours = parse_pours(history.unwrap_or("")).map_err(|e| bad(format!("history: {e}")))?;
    let positions = replay(&start, &options, &pours).map_err(|e| bad(format!("history: {e}")))?;
    let position = positions.last().expect("replay returns the start at least").clone();
    let help = interrupt::run(py, &cancel, || hint(&position, &options))?.map_err(|e| bad(e.to_string()))?;
    serde_json::to_string(&adapters::water::hint_json(&position, &help)).map_err(|e| bad(e.to_string()))
}

/// A level as the Python side draws it: name, colour names, tubes (bottom to top, colour indices), line.
type Drawn = (String, Vec<String>, Vec<Vec<u32>>, String);

/// A level's name, colour names and tubes (bottom to top, colour indices), for drawing it.
#[pyfunction]
#[pyo3(signature = (level, capacity=4))]
pub fn water_level(level: &str, capacity: usize) -> PyResult<Drawn> {
    let l = level_of(level, capacity)?;
    let tubes = l.tubes().iter().map(|t| t.iter().map(|&u| u.into()).collect()).collect();
    Ok((l.name().to_string(), l.colours().to_vec(), tubes, l.to_line()))
}
