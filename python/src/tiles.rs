//! `stp.solve`, `stp.solve_many` and `stp.Solution`: sliding-tile positions read, solved, replayed and
//! recorded exactly as `solver solve` does (the command's own option reading, the adapter's solve and
//! record), with the GIL released during the search.

use crate::errors::{bad, to_py, LimitReached};
use crate::interrupt;
use adapters::tiles::record::{position_error, user_cells, user_moves, MoveStyle, Recorder};
use adapters::tiles::{algorithm, Follow, Tiles};
use batch::{LimitArgs, Source, Status, Task};
use engine::{HeuristicChoice, Lookups, Solver};
use puzzle::{Board, Goal, State};
use pyo3::prelude::*;
use pyo3::types::PyString;
use search::{Algorithm, Named};
use solver::args::SearchArgs;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, SystemTime};

/// The keyword arguments every solving call shares, read into the command's own options.
pub struct Request {
    pub args: SearchArgs,
    pub limits: LimitArgs,
    pub threads: Option<usize>,
}

/// The board argument: `"4x4"`, `(rows, cols)` or None (inferred from the tiles, as the command does).
fn board_arg(board: Option<&Bound<'_, PyAny>>) -> PyResult<Option<Board>> {
    let Some(b) = board else { return Ok(None) };
    if let Ok(text) = b.extract::<String>() {
        return text.parse::<Board>().map(Some).map_err(|e| bad(format!("board '{text}': {e}")));
    }
    let (rows, cols): (usize, usize) =
        b.extract().map_err(|_| bad("board must be a string such as \"4x4\" or a (rows, cols) pair"))?;
    Board::new(rows, cols).map(Some).map_err(|e| bad(format!("board ({rows}, {cols}): {e}")))
}

/// The position argument as the command line would hold it: a string as is, a sequence of ints joined.
pub fn tiles_text(tiles: &Bound<'_, PyAny>) -> PyResult<String> {
    if let Ok(s) = tiles.cast::<PyString>() {
        return Ok(s.to_cow()?.into_owned());
    }
    let cells: Vec<i64> = tiles
        .extract()
        .map_err(|_| bad("tiles must be a sequence of ints or a string of tiles such as \"1 2 0 3\""))?;
    Ok(cells.iter().map(i64::to_string).collect::<Vec<_>>().join(" "))
}

/// A seconds argument as `--time-limit` reads it.
fn seconds_arg(time_limit: Option<f64>) -> PyResult<Option<Duration>> {
    time_limit
        .map(|t| batch::limits::parse_seconds(&t.to_string()).map_err(|e| bad(format!("time_limit: {e}"))))
        .transpose()
}

impl Request {
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        board: Option<&Bound<'_, PyAny>>,
        goal: &str,
        pdbs: Option<PathBuf>,
        heuristic: &str,
        algorithm: &str,
        partition: Vec<String>,
        threads: Option<usize>,
        time_limit: Option<f64>,
        node_limit: Option<u64>,
        textbook: bool,
    ) -> PyResult<Request> {
        let goal: Goal = goal.parse().map_err(|e: String| bad(format!("goal: {e}")))?;
        let algorithm = Algorithm::from_name(algorithm).map_err(|e| bad(e.to_string()))?;
        if !Tiles::ALGORITHMS.contains(&algorithm) {
            return Err(bad(format!("algorithm '{}' is not one for sliding tiles", algorithm.name())));
        }
        let heuristic: HeuristicChoice = heuristic.parse().map_err(|e: String| bad(e))?;
        if node_limit == Some(0) {
            return Err(bad("node_limit: give at least 1 expanded node"));
        }
        let pdbs = pdbs.or_else(|| std::env::var_os("STP_PDBS").map(PathBuf::from)).unwrap_or_else(|| "pdbs".into());
        let args = SearchArgs {
            board: board_arg(board)?,
            goal: Some(goal),
            algorithm,
            heuristic,
            pdbs,
            partition,
            lookups: Lookups::Reflected,
            threads,
            fsm_depth: engine::FSM_DEPTH,
            fsm_wide: false,
            lanes: None,
            dual: false,
            textbook,
        };
        args.settings().map_err(to_py)?;
        // IDA* stores no states: the memory limit, which the command defaults to the memory available (a
        // read of /proc and the cgroup files), bounds only the library's storing algorithms.
        let memory_limit = (algorithm == Algorithm::Ida).then_some(u64::MAX);
        let limits = LimitArgs { time_limit: seconds_arg(time_limit)?, node_limit, memory_limit };
        Ok(Request { args, limits, threads })
    }
}

/// Solvers by what decides them, kept across calls: a solver maps its tables once and builds its
/// duplicate-path automaton once, so a loop of `stp.solve` calls pays for neither again. The key holds
/// the tables folder's modification time, so a table built there since gives a new solver; each entry
/// also keeps its files' stamps, so one rewritten in place (not renamed, as the builder does) does too.
type Key = (String, Option<SystemTime>);

/// What identifies a table file's contents without reading them: inode, size and modification time.
type Stamp = Option<(u64, u64, SystemTime)>;

struct Cached {
    solver: Arc<Solver>,
    stamps: Vec<Stamp>,
}

fn stamps(solver: &Solver) -> Vec<Stamp> {
    use std::os::unix::fs::MetadataExt;
    solver
        .tables()
        .iter()
        .map(|(path, _)| std::fs::metadata(path).ok().and_then(|m| Some((m.ino(), m.len(), m.modified().ok()?))))
        .collect()
}

fn solvers() -> &'static Mutex<HashMap<Key, Cached>> {
    static SOLVERS: OnceLock<Mutex<HashMap<Key, Cached>>> = OnceLock::new();
    SOLVERS.get_or_init(Default::default)
}

/// Forgets every kept solver: after a table error, so that the next call opens the tables again.
pub fn forget_solvers() {
    solvers().lock().unwrap().clear();
}

/// The solver `args` describe (the command's `SearchArgs::solver`), from the cache when it is there.
pub fn solver_for(args: &SearchArgs) -> anyhow::Result<Arc<Solver>> {
    let informed = args.algorithm.informed();
    let key = format!(
        "{} {} {} {:?} {:?} {} {:?}",
        args.board(),
        if informed { args.heuristic.as_str() } else { "none" },
        args.pdbs.display(),
        args.partition,
        args.lookups,
        informed,
        args.textbook.then_some(args.goal().name()),
    );
    let key = (key, std::fs::metadata(&args.pdbs).and_then(|m| m.modified()).ok());
    if let Some(c) = solvers().lock().unwrap().get(&key) {
        if stamps(&c.solver) == c.stamps {
            return Ok(Arc::clone(&c.solver));
        }
    }
    let solver = Arc::new(args.solver()?);
    let cached = Cached { stamps: stamps(&solver), solver: Arc::clone(&solver) };
    solvers().lock().unwrap().insert(key, cached);
    Ok(solver)
}

/// One position read as `solver solve POSITION` reads it: the board inferred from the tile count unless
/// given, the line's optional id and known length, the command's message for a bad one.
pub fn read_position(args: &SearchArgs, text: &str) -> anyhow::Result<(SearchArgs, puzzle::Instance)> {
    let s = args.for_position(text)?;
    let board = s.board();
    let inst = puzzle::parse_line(board, s.goal(), text)
        .map_err(|e| cli_common::usage(anyhow::anyhow!("bad position: {}", position_error(board, s.goal(), text, &e))))?
        .ok_or_else(|| cli_common::usage(anyhow::anyhow!("bad position: no tiles given")))?;
    Ok((s, inst))
}

/// A solved (or stopped) search, as `solver solve --format json` records it, with the replayed boards.
#[pyclass(module = "stp", frozen, get_all)]
pub struct Solution {
    /// Moves of the solution; None when a limit stopped the search.
    pub length: Option<u32>,
    /// The tiles moved, in order, in the labels of the goal the position was given for.
    pub moves: Vec<u32>,
    /// The blank's moves as U, D, L, R (in the goal's orientation).
    pub directions: String,
    /// Generated nodes (children whose heuristic was evaluated).
    pub nodes: u64,
    /// Nodes whose children were generated.
    pub expanded: u64,
    /// Search time, without start-up (mapping tables, building the automaton).
    pub seconds: f64,
    /// The algorithm that ran (`ida`, `astar`, ...).
    pub algorithm: String,
    /// The heuristic as records name it (`pdb 7-8 + reflection`, `linear-conflict`, `none`).
    pub heuristic: String,
    /// `"solved"` or `"limit"`.
    pub status: String,
    /// Why the search stopped, when it did (the record's `error`).
    pub error: Option<String>,
    /// The heuristic estimate of the start, if one was used.
    pub root_h: Option<u32>,
    /// Threads the search ran on.
    pub threads: usize,
    /// The position's id (given in the line, or its place in `solve_many`'s input, from 1).
    pub id: String,
    /// The start, in the labels of the goal given.
    pub tiles: Vec<u32>,
    /// (rows, cols).
    pub board: (usize, usize),
    /// `"blank-first"` or `"blank-last"`.
    pub goal: String,
    /// The optimal length the line gave, if any, and whether the solution matched it.
    pub expected: Option<u32>,
    /// Whether the length found equals the line's known length (None when it gave none).
    pub matched: Option<bool>,
    /// The positions from the start to the goal, replayed (in the goal's labels).
    positions: Vec<Vec<u32>>,
}

#[pymethods]
impl Solution {
    /// The replayed positions: the first the start, the last the goal (just the start when stopped).
    fn boards(&self) -> Vec<Vec<u32>> {
        self.positions.clone()
    }

    fn __repr__(&self) -> String {
        match self.length {
            Some(l) => format!(
                "Solution(length={l}, nodes={}, seconds={:.6}, algorithm='{}', heuristic='{}')",
                self.nodes, self.seconds, self.algorithm, self.heuristic
            ),
            None => format!(
                "Solution(status='limit', nodes={}, error='{}')",
                self.nodes,
                self.error.as_deref().unwrap_or("")
            ),
        }
    }
}

/// Searches `inst` with `solver` on `threads` threads and records it as the command does.
fn search_one(
    solver: &Solver,
    s: &SearchArgs,
    inst: &puzzle::Instance,
    id: &str,
    threads: usize,
    limits: &search::Limits,
) -> anyhow::Result<Solution> {
    let searched = algorithm::solve(solver, s.algorithm, &inst.state, threads, limits, Follow::default())?;
    let goal = s.goal();
    let recorder = Recorder::new(solver, goal, MoveStyle::Tiles);
    let text = adapters::tiles::user_tiles(&inst.state, goal);
    let src = Source { id, line: 1, text: &text, expected: inst.optimal };
    let rec = recorder.searched(&src, &inst.state, &searched);
    let internal = searched.moves().unwrap_or_default();
    // Python ints, not bytes: a list of u8 would cross as a `bytes` object.
    let cells = |s: &State| user_cells(s, goal).into_iter().map(u32::from).collect::<Vec<u32>>();
    let mut positions = vec![cells(&inst.state)];
    let mut at: State = inst.state;
    for &tile in internal {
        at.move_tile(tile);
        positions.push(cells(&at));
    }
    let board = inst.state.board();
    Ok(Solution {
        length: rec.length,
        moves: internal.iter().map(|&t| goal.user_tile(board.cells(), t).into()).collect(),
        directions: user_moves(&inst.state, internal, goal, MoveStyle::Dirs),
        nodes: rec.nodes,
        expanded: rec.expanded,
        seconds: rec.seconds,
        algorithm: rec.algorithm,
        heuristic: rec.heuristic,
        status: if rec.status == Status::Solved { "solved" } else { "limit" }.to_string(),
        error: rec.error,
        root_h: rec.root_h,
        threads: rec.threads,
        id: id.to_string(),
        tiles: cells(&inst.state),
        board: (board.rows(), board.cols()),
        goal: goal.name().to_string(),
        expected: inst.optimal,
        matched: rec.matched,
        positions,
    })
}

/// A stopped search as an exception, when the caller asked for one.
fn limit_error(sol: &Solution) -> PyErr {
    LimitReached::new_err(format!("{}: {}", sol.id, sol.error.clone().unwrap_or_else(|| "stopped".into())))
}

/// Solves one sliding-tile position optimally (or by the algorithm named) and returns the replayed,
/// checked solution.
///
/// tiles: the cells row by row, 0 the blank, as a sequence of ints or a string as `solver solve` reads it
///     (optionally `id length tiles...`, the known length then checked: see `matched`).
/// board: "4x4"-style or (rows, cols); inferred from the tile count when omitted (9: 3x3, 16: 4x4, 25: 5x5).
/// goal: "blank-first" (0 1 2 ... 15, Korf's) or "blank-last" (1 2 ... 15 0); moves are in its labels.
/// pdbs: the folder of pattern databases (default: $STP_PDBS, else "pdbs").
/// heuristic: "auto", "pdb", "linear-conflict" or "manhattan" (auto: tables if a complete set is there).
/// algorithm: "ida" (the engine: fast, all threads), or the generic library's "astar", "bfs", "bibfs",
///     "greedy", "dfs" (one thread).
/// threads: worker threads for "ida" (default: all cores).
/// time_limit, node_limit: seconds, expanded nodes; a search they stop returns status "limit".
/// partition: table partitions to use ("7-8", "6-6-3", "1,2,3/4,5,6,..."), as --partition.
/// raise_on_limit: raise stp.LimitReached instead of returning status "limit".
/// textbook: count nodes as a plain textbook IDA* (algorithm "ida") or A* ("astar") does (one thread,
///     children in the blank's order up, down, left, right, never undoing the previous move; A*'s ties to
///     the least h, then the first pushed; docs/textbook.md), so a student's own search can be checked
///     against `nodes` and `expanded`.
///
/// Raises ValueError for bad input (the command's one-line message), stp.TableError for a missing,
/// corrupt or mismatched table, KeyboardInterrupt on Ctrl-C (the search stopped first). The GIL is
/// released while it searches.
#[pyfunction]
#[pyo3(signature = (tiles, *, board=None, goal="blank-first", pdbs=None, heuristic="auto", algorithm="ida",
    threads=None, time_limit=None, node_limit=None, partition=None, raise_on_limit=false, textbook=false))]
#[allow(clippy::too_many_arguments)]
pub fn solve(
    py: Python<'_>,
    tiles: &Bound<'_, PyAny>,
    board: Option<&Bound<'_, PyAny>>,
    goal: &str,
    pdbs: Option<PathBuf>,
    heuristic: &str,
    algorithm: &str,
    threads: Option<usize>,
    time_limit: Option<f64>,
    node_limit: Option<u64>,
    partition: Option<Vec<String>>,
    raise_on_limit: bool,
    textbook: bool,
) -> PyResult<Solution> {
    let req = Request::new(
        board,
        goal,
        pdbs,
        heuristic,
        algorithm,
        partition.unwrap_or_default(),
        threads,
        time_limit,
        node_limit,
        textbook,
    )?;
    let text = tiles_text(tiles)?;
    let cancel = Arc::new(AtomicBool::new(false));
    let limits = req.limits.limits(Some(Arc::clone(&cancel)));
    let sol = interrupt::run(py, &cancel, || -> anyhow::Result<Solution> {
        let (s, inst) = read_position(&req.args, &text)?;
        let solver = solver_for(&s)?;
        let threads = req.threads.unwrap_or_else(|| solver.threads());
        let id = inst.id.clone().unwrap_or_else(|| "1".into());
        search_one(&solver, &s, &inst, &id, threads, &limits)
    })?
    .map_err(to_py)
    .inspect_err(|e| {
        if e.is_instance_of::<crate::errors::TableError>(py) {
            forget_solvers();
        }
    })?;
    if raise_on_limit && sol.status == "limit" {
        return Err(limit_error(&sol));
    }
    Ok(sol)
}

/// The heuristic estimate of a position with the tables and heuristic named (see `solve` for the
/// arguments): what the search starts its first iteration at.
#[pyfunction]
#[pyo3(signature = (tiles, *, board=None, goal="blank-first", pdbs=None, heuristic="auto", partition=None))]
pub fn estimate(
    py: Python<'_>,
    tiles: &Bound<'_, PyAny>,
    board: Option<&Bound<'_, PyAny>>,
    goal: &str,
    pdbs: Option<PathBuf>,
    heuristic: &str,
    partition: Option<Vec<String>>,
) -> PyResult<u32> {
    let req =
        Request::new(board, goal, pdbs, heuristic, "ida", partition.unwrap_or_default(), None, None, None, false)?;
    let text = tiles_text(tiles)?;
    py.detach(|| -> anyhow::Result<u32> {
        let (s, inst) = read_position(&req.args, &text)?;
        Ok(solver_for(&s)?.estimate(&inst.state))
    })
    .map_err(to_py)
}

/// The solutions of a batch, yielded as they finish (not in input order: see `Solution.id`).
#[pyclass(module = "stp")]
pub struct SolveMany {
    /// Locked only so that the iterator is `Sync`, as a Python object must be.
    done: Option<Mutex<Receiver<anyhow::Result<Solution>>>>,
    cancel: Arc<AtomicBool>,
    left: usize,
    total: usize,
    progress: Option<Py<PyAny>>,
    raise_on_limit: bool,
    workers: Vec<std::thread::JoinHandle<()>>,
}

impl SolveMany {
    /// Stops the searches still running and waits for their threads.
    fn stop(&mut self) {
        self.cancel.store(true, Ordering::Relaxed);
        self.done = None;
        for w in self.workers.drain(..) {
            let _ = w.join();
        }
    }
}

impl Drop for SolveMany {
    fn drop(&mut self) {
        self.stop();
    }
}

#[pymethods]
impl SolveMany {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __len__(&self) -> usize {
        self.total
    }

    fn __next__(&mut self, py: Python<'_>) -> PyResult<Option<Solution>> {
        if self.left == 0 {
            self.stop();
            return Ok(None);
        }
        let Some(done) = self.done.take() else { return Ok(None) };
        let got = loop {
            match py.detach(|| done.lock().unwrap().recv_timeout(interrupt::POLL)) {
                Ok(got) => break got,
                Err(RecvTimeoutError::Timeout) => {
                    if let Err(e) = py.check_signals() {
                        self.stop();
                        return Err(e);
                    }
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(pyo3::exceptions::PyRuntimeError::new_err("internal error: the batch threads failed"))
                }
            }
        };
        self.done = Some(done);
        self.left -= 1;
        let sol = match got {
            Ok(sol) => sol,
            Err(e) => {
                self.stop();
                return Err(to_py(e));
            }
        };
        if let Some(p) = &self.progress {
            p.call1(py, (self.total - self.left, self.total))?;
        }
        if self.raise_on_limit && sol.status == "limit" {
            self.stop();
            return Err(limit_error(&sol));
        }
        Ok(Some(sol))
    }

    /// Stops the searches still running (also done when the iterator is dropped).
    fn close(&mut self) {
        self.stop();
    }
}

/// Solves many positions on all cores, one search a thread, yielding each `Solution` as it finishes.
///
/// instances: an iterable of positions, each as `solve` takes them (ints or a string, optionally with an id
///     and a known length); all are read before the first search, so a bad one raises ValueError at once.
/// threads: searches at once (default: all cores); each search runs on one thread.
/// progress: called as progress(done, total) after each solution.
/// The other arguments are `solve`'s. Dropping or closing the iterator stops the searches still running.
#[pyfunction]
#[pyo3(signature = (instances, *, board=None, goal="blank-first", pdbs=None, heuristic="auto", algorithm="ida",
    threads=None, time_limit=None, node_limit=None, partition=None, progress=None, raise_on_limit=false))]
#[allow(clippy::too_many_arguments)]
pub fn solve_many(
    py: Python<'_>,
    instances: &Bound<'_, PyAny>,
    board: Option<&Bound<'_, PyAny>>,
    goal: &str,
    pdbs: Option<PathBuf>,
    heuristic: &str,
    algorithm: &str,
    threads: Option<usize>,
    time_limit: Option<f64>,
    node_limit: Option<u64>,
    partition: Option<Vec<String>>,
    progress: Option<Py<PyAny>>,
    raise_on_limit: bool,
) -> PyResult<SolveMany> {
    let req = Request::new(
        board,
        goal,
        pdbs,
        heuristic,
        algorithm,
        partition.unwrap_or_default(),
        threads,
        time_limit,
        node_limit,
        false,
    )?;
    let mut texts = Vec::new();
    for item in instances.try_iter()? {
        texts.push(tiles_text(&item?)?);
    }
    let mut jobs = Vec::new();
    for (n, text) in texts.iter().enumerate() {
        let (s, inst) = read_position(&req.args, text).map_err(|e| to_py(e.context(format!("instance {}", n + 1))))?;
        let id = inst.id.clone().unwrap_or_else(|| (n + 1).to_string());
        jobs.push((s, inst, id));
    }
    let Some((first, _, _)) = jobs.first() else {
        let (_, done) = mpsc::channel();
        return Ok(SolveMany {
            done: Some(Mutex::new(done)),
            cancel: Default::default(),
            left: 0,
            total: 0,
            progress,
            raise_on_limit,
            workers: vec![],
        });
    };
    if let Some((other, _, _)) = jobs.iter().find(|(s, _, _)| s.board() != first.board()) {
        return Err(bad(format!(
            "the instances are of several boards ({} and {}): give board=",
            first.board(),
            other.board()
        )));
    }
    let solver = py.detach(|| solver_for(first)).map_err(to_py)?;
    let cancel = Arc::new(AtomicBool::new(false));
    let limits = req.limits.limits(Some(Arc::clone(&cancel)));
    let total = jobs.len();
    let queue = Arc::new(Mutex::new(jobs.into_iter()));
    let (send, done) = mpsc::channel();
    let workers = (0..req.threads.unwrap_or_else(search::cores).clamp(1, total))
        .map(|_| {
            let (queue, send, solver, limits) = (Arc::clone(&queue), send.clone(), Arc::clone(&solver), limits.clone());
            std::thread::spawn(move || loop {
                let Some((s, inst, id)) = queue.lock().unwrap().next() else { return };
                if limits.cancel.as_ref().is_some_and(|c| c.load(Ordering::Relaxed)) {
                    return;
                }
                if send.send(search_one(&solver, &s, &inst, &id, 1, &limits)).is_err() {
                    return;
                }
            })
        })
        .collect();
    Ok(SolveMany { done: Some(Mutex::new(done)), cancel, left: total, total, progress, raise_on_limit, workers })
}

/// Converts a Python position argument for the other modules (tables' lookups).
pub fn cells_of(tiles: &Bound<'_, PyAny>, board: Board) -> PyResult<State> {
    let text = tiles_text(tiles)?;
    match puzzle::parse_line(board, Goal::BlankFirst, &text) {
        Ok(Some(inst)) => Ok(inst.state),
        Ok(None) => Err(bad("bad position: no tiles given")),
        Err(e) => Err(bad(format!("bad position: {}", position_error(board, Goal::BlankFirst, &text, &e)))),
    }
}
