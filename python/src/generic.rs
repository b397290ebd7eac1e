//! The generic `search` crate's algorithms on any Python object that has `successors(state)` and
//! `is_goal(state)` (and optionally `heuristic(state)` and `goal_state()`): the object is wrapped as a
//! `search::Puzzle` whose states are Python values, stored and compared by their hash and `==`.
//!
//! What a node costs: the search calls `successors` once an expanded node and, for the informed
//! algorithms, `heuristic` once a generated node; each state it stores costs its Python `hash` once and an
//! `==` on each hash-table probe that meets an equal hash. Those Python calls dominate: the library's own
//! work is a hash-table insert and a heap push, well under a microsecond. The GIL is held throughout (the
//! puzzle is Python code); Ctrl-C is checked every `SIGNAL_EVERY` expansions.

use crate::errors::{bad, LimitReached};
use pyo3::prelude::*;
use search::{Algorithm, Named, Outcome, Puzzle};
use std::cell::{Cell, RefCell};
use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Expansions between looks for a pending signal (Ctrl-C).
const SIGNAL_EVERY: u64 = 1024;

/// A Python value as a search state: the object and its hash, taken once.
struct Value {
    object: Py<PyAny>,
    hash: isize,
}

impl Value {
    fn new(object: Bound<'_, PyAny>) -> PyResult<Value> {
        Ok(Value { hash: object.hash()?, object: object.unbind() })
    }
}

impl Clone for Value {
    fn clone(&self) -> Self {
        Python::attach(|py| Value { object: self.object.clone_ref(py), hash: self.hash })
    }
}

impl PartialEq for Value {
    /// Python's `==`; an exception in it counts as unequal (states must compare without raising).
    fn eq(&self, other: &Self) -> bool {
        self.hash == other.hash
            && (self.object.is(&other.object)
                || Python::attach(|py| self.object.bind(py).eq(other.object.bind(py)).unwrap_or(false)))
    }
}

impl Eq for Value {}

impl Hash for Value {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.hash.hash(state);
    }
}

impl std::fmt::Debug for Value {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        Python::attach(|py| write!(f, "{}", self.object.bind(py)))
    }
}

/// A Python object as a puzzle. The first exception a method raises (a bug in it, or KeyboardInterrupt)
/// is kept and cancels the search, and the call raises it.
struct PyPuzzle<'py> {
    successors: Bound<'py, PyAny>,
    is_goal: Bound<'py, PyAny>,
    heuristic: Option<Bound<'py, PyAny>>,
    goal: Option<Value>,
    error: RefCell<Option<PyErr>>,
    cancel: Arc<AtomicBool>,
    expansions: Cell<u64>,
}

impl PyPuzzle<'_> {
    fn fail(&self, e: PyErr) {
        self.error.borrow_mut().get_or_insert(e);
        self.cancel.store(true, Ordering::Relaxed);
    }

    fn each_successor(&self, state: &Value, mut visit: impl FnMut(Py<PyAny>, Value)) -> PyResult<()> {
        let py = self.successors.py();
        let n = self.expansions.get() + 1;
        self.expansions.set(n);
        if n.is_multiple_of(SIGNAL_EVERY) {
            py.check_signals()?;
        }
        for item in self.successors.call1((state.object.bind(py),))?.try_iter()? {
            let (step, next): (Bound<'_, PyAny>, Bound<'_, PyAny>) =
                item?.extract().map_err(|_| bad("successors(state) must yield (move, state) pairs"))?;
            visit(step.unbind(), Value::new(next)?);
        }
        Ok(())
    }
}

/// A move: compared with Python's `==` when the path found is replayed.
struct Step(Py<PyAny>);

impl Clone for Step {
    fn clone(&self) -> Self {
        Python::attach(|py| Step(self.0.clone_ref(py)))
    }
}

impl PartialEq for Step {
    fn eq(&self, other: &Self) -> bool {
        self.0.is(&other.0) || Python::attach(|py| self.0.bind(py).eq(other.0.bind(py)).unwrap_or(false))
    }
}

impl std::fmt::Debug for Step {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        Python::attach(|py| write!(f, "{}", self.0.bind(py)))
    }
}

impl Puzzle for PyPuzzle<'_> {
    type State = Value;
    type Move = Step;

    fn successors(&self, state: &Value, mut visit: impl FnMut(Step, Value)) {
        if self.cancel.load(Ordering::Relaxed) {
            return;
        }
        if let Err(e) = self.each_successor(state, |m, s| visit(Step(m), s)) {
            self.fail(e);
        }
    }

    fn is_goal(&self, state: &Value) -> bool {
        let py = self.is_goal.py();
        match self.is_goal.call1((state.object.bind(py),)).and_then(|r| r.is_truthy()) {
            Ok(g) => g,
            Err(e) => {
                self.fail(e);
                false
            }
        }
    }

    fn heuristic(&self, state: &Value) -> u32 {
        let Some(h) = &self.heuristic else { return 0 };
        let py = h.py();
        let value = h.call1((state.object.bind(py),)).and_then(|r| {
            r.extract::<u32>()
                .map_err(|_| bad("heuristic(state) must return a whole number from 0 (an estimate of the moves left)"))
        });
        value.unwrap_or_else(|e| {
            self.fail(e);
            0
        })
    }

    fn goal(&self) -> Option<Value> {
        self.goal.clone()
    }
}

/// What a search of a Python puzzle found.
#[pyclass(module = "stp.search", frozen, get_all)]
pub struct SearchResult {
    /// Moves of the solution found; None when there is none (unsolvable) or the search stopped.
    pub length: Option<usize>,
    /// The moves, as `successors` named them.
    pub moves: Vec<Py<PyAny>>,
    /// The states from the start to the goal (the start alone when there is no solution).
    pub states: Vec<Py<PyAny>>,
    /// Successors generated.
    pub nodes: u64,
    /// States whose successors were generated.
    pub expanded: u64,
    /// The most states stored at once.
    pub peak_stored: u64,
    /// Search time.
    pub seconds: f64,
    /// `"solved"`, `"unsolvable"` (every reachable state seen) or `"limit"`.
    pub status: String,
    /// The algorithm's name.
    pub algorithm: String,
}

#[pymethods]
impl SearchResult {
    fn __repr__(&self) -> String {
        format!(
            "SearchResult(algorithm='{}', status='{}', length={}, nodes={}, expanded={}, seconds={:.6})",
            self.algorithm,
            self.status,
            self.length.map_or("None".to_string(), |l| l.to_string()),
            self.nodes,
            self.expanded,
            self.seconds
        )
    }
}

/// Runs algorithm `name` on `puzzle` from `start`; the Python wrappers in `stp.search` document each.
#[pyfunction]
#[pyo3(signature = (name, puzzle, start, *, time_limit=None, node_limit=None, memory_limit=None, raise_on_limit=false))]
#[allow(clippy::too_many_arguments)]
pub fn search_run(
    name: &str,
    puzzle: &Bound<'_, PyAny>,
    start: &Bound<'_, PyAny>,
    time_limit: Option<f64>,
    node_limit: Option<u64>,
    memory_limit: Option<u64>,
    raise_on_limit: bool,
) -> PyResult<SearchResult> {
    let algorithm = Algorithm::from_name(name).map_err(|e| bad(e.to_string()))?;
    let method = |m: &str| puzzle.getattr(m).map_err(|_| bad(format!("the puzzle has no {m}(state) method")));
    let optional = |m: &str| puzzle.getattr(m).ok().filter(|a| !a.is_none());
    let goal = match optional("goal_state") {
        Some(g) => Some(Value::new(g.call0()?)?),
        None if algorithm == Algorithm::Bibfs => {
            return Err(bad("bidirectional search needs the puzzle's goal_state() (and moves that can be undone)"));
        }
        None => None,
    };
    let heuristic = optional("heuristic");
    if heuristic.is_none() && matches!(algorithm, Algorithm::Astar | Algorithm::Ida | Algorithm::Greedy) {
        return Err(bad(format!("{} needs the puzzle's heuristic(state) method", algorithm.name())));
    }
    let cancel = Arc::new(AtomicBool::new(false));
    let time = time_limit
        .map(|t| batch::limits::parse_seconds(&t.to_string()).map_err(|e| bad(format!("time_limit: {e}"))))
        .transpose()?;
    let limits = search::Limits { nodes: node_limit, time, memory: memory_limit, cancel: Some(Arc::clone(&cancel)) };
    let p = PyPuzzle {
        successors: method("successors")?,
        is_goal: method("is_goal")?,
        heuristic,
        goal,
        error: RefCell::new(None),
        cancel,
        expansions: Cell::new(0),
    };
    let first = Value::new(start.clone())?;
    let report = search::run(algorithm, &p, &first, &limits, &mut |_| {});
    if let Some(e) = p.error.borrow_mut().take() {
        return Err(e);
    }
    let report = report.map_err(|e| bad(e.to_string()))?;
    let stats = &report.stats;
    let (status, steps) = match report.outcome {
        Outcome::Solved(steps) => ("solved", steps),
        Outcome::Unsolvable => ("unsolvable", vec![]),
        Outcome::Stopped(stop) => {
            if raise_on_limit {
                return Err(LimitReached::new_err(format!("{}: stopped by the {stop}", algorithm.name())));
            }
            ("limit", vec![])
        }
    };
    let states = replay(&p, &first, &steps)?;
    Ok(SearchResult {
        length: (status == "solved").then_some(steps.len()),
        moves: steps.into_iter().map(|s| s.0).collect(),
        states: states.into_iter().map(|s| s.object).collect(),
        nodes: stats.generated,
        expanded: stats.expanded,
        peak_stored: stats.peak_stored,
        seconds: stats.seconds,
        status: status.to_string(),
        algorithm: algorithm.name().to_string(),
    })
}

/// The states along `steps` from `start`, each the successor its move names (the library has already
/// replayed the path to a goal; this walks it again to hand the states back).
fn replay(p: &PyPuzzle<'_>, start: &Value, steps: &[Step]) -> PyResult<Vec<Value>> {
    let mut states = vec![start.clone()];
    for step in steps {
        let at = states.last().expect("the start is there");
        let mut next = None;
        p.each_successor(at, |m, s| {
            if next.is_none() && Step(m) == *step {
                next = Some(s);
            }
        })?;
        states.push(next.ok_or_else(|| bad(format!("the move {step:?} is no longer among the successors")))?);
    }
    Ok(states)
}
