//! IDA*: the iterations, and the parallel form that splits each iteration below the root. The depth-first
//! search inside an iteration is in `lanes`.
//!
//! Duplicate paths, stepping straight back among them, are pruned by a move automaton (see `fsm`).
//!
//! Node counts: `generated` counts every child whose heuristic was evaluated, `expanded` every node whose
//! children were generated. One thread's counts are exact and reproducible for a given number of lanes (the
//! lanes change the order of the last iteration, which stops at the first solution); in parallel runs the
//! last iteration stops as soon as any thread proves a solution, so its counts depend on timing.

use crate::fsm::{MoveFsm, PRUNED};
use crate::heuristic::Heuristic;
use crate::lanes::Worker;
use puzzle::{Board, State, MAX_CELLS};
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Longest solution the path buffer holds; far beyond any 4x4 optimum (80).
pub(crate) const MAX_PATH: usize = 256;
/// Expanded nodes between checks of the limits.
pub(crate) const CHECK_EVERY: u64 = 1 << 14;
/// An iteration predicted to generate fewer nodes than this runs on one thread: splitting it and waiting
/// for the pool at its end would cost more than sharing it saves.
const PARALLEL_FROM: u64 = 1 << 11;
/// How much larger each IDA* iteration is than the one before, roughly (the bound grows by 2).
const ITERATION_GROWTH: u64 = 4;
/// The first `FRONT_ITEMS` work items are split again, `FRONT_ROUNDS` times (see `parallel_iteration`).
const FRONT_ITEMS: usize = 8;
const FRONT_ROUNDS: usize = 4;

/// When to give up on an instance.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub nodes: Option<u64>,
    pub time: Option<Duration>,
    /// Set from outside (Ctrl-C, a batch shutting down) to abandon the search.
    pub cancel: Option<std::sync::Arc<AtomicBool>>,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub generated: u64,
    pub expanded: u64,
}

/// Why a search ended without a solution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    NodeLimit,
    TimeLimit,
    Cancelled,
}

impl Stop {
    pub fn as_str(self) -> &'static str {
        match self {
            Stop::NodeLimit => "node limit",
            Stop::TimeLimit => "time limit",
            Stop::Cancelled => "cancelled",
        }
    }
}

/// The outcome of one search.
#[derive(Clone, Debug)]
pub struct Report {
    /// Tiles moved, in order; `None` if the search was stopped.
    pub moves: Option<Vec<u8>>,
    pub stopped: Option<Stop>,
    pub counts: Counts,
    /// Iterations run (bounds tried).
    pub iterations: u32,
    /// The heuristic estimate of the start.
    pub root_h: u32,
    /// The last bound searched (on a stop: a proven lower bound on the optimal length).
    pub bound: u32,
    pub seconds: f64,
}

/// The moves from each cell: the blank's neighbours, their direction, and the duplicate-path automaton.
pub(crate) struct Moves<'a> {
    cells: [[u8; 4]; MAX_CELLS],
    dirs: [[u8; 4]; MAX_CELLS],
    count: [u8; MAX_CELLS],
    fsm: &'a MoveFsm,
}

impl<'a> Moves<'a> {
    fn new(board: Board, fsm: &'a MoveFsm) -> Moves<'a> {
        let mut m = Moves { cells: [[0; 4]; MAX_CELLS], dirs: [[0; 4]; MAX_CELLS], count: [0; MAX_CELLS], fsm };
        for c in 0..board.cells() {
            for (d, dir) in puzzle::Dir::ALL.into_iter().enumerate() {
                if let Some(to) = board.step(c, dir) {
                    let k = m.count[c] as usize;
                    m.cells[c][k] = to as u8;
                    m.dirs[c][k] = d as u8;
                    m.count[c] += 1;
                }
            }
        }
        m
    }

    /// The allowed moves of the blank from `blank` in automaton state `state`: (cell the tile comes from,
    /// next state).
    #[inline(always)]
    pub(crate) fn from(&self, blank: usize, state: u32) -> impl Iterator<Item = (usize, u32)> + '_ {
        let k = self.count[blank] as usize;
        self.cells[blank][..k]
            .iter()
            .zip(&self.dirs[blank][..k])
            .map(move |(&c, &d)| (c as usize, self.fsm.step(state, d as usize)))
            .filter(|&(_, next)| next != PRUNED)
    }
}

/// Shared stop conditions for one solve, checked every `CHECK_EVERY` expansions.
pub(crate) struct Guard<'a> {
    limits: &'a Limits,
    start: Instant,
    /// Nodes of all threads, flushed at each check.
    nodes: AtomicU64,
    /// Set when a solution is found or a limit is hit: every thread unwinds.
    pub(crate) stop: AtomicBool,
    why: Mutex<Option<Stop>>,
}

impl<'a> Guard<'a> {
    fn new(limits: &'a Limits) -> Self {
        Guard {
            limits,
            start: Instant::now(),
            nodes: AtomicU64::new(0),
            stop: AtomicBool::new(false),
            why: Mutex::new(None),
        }
    }

    pub(crate) fn check(&self, add_nodes: u64) -> bool {
        let total = self.nodes.fetch_add(add_nodes, Ordering::Relaxed) + add_nodes;
        let why = if self.limits.cancel.as_ref().is_some_and(|c| c.load(Ordering::Relaxed)) {
            Some(Stop::Cancelled)
        } else if self.limits.nodes.is_some_and(|n| total >= n) {
            Some(Stop::NodeLimit)
        } else if self.limits.time.is_some_and(|t| self.start.elapsed() >= t) {
            Some(Stop::TimeLimit)
        } else {
            None
        };
        if let Some(w) = why {
            self.why.lock().unwrap().get_or_insert(w);
            self.stop.store(true, Ordering::Relaxed);
        }
        self.stop.load(Ordering::Relaxed)
    }
}

/// The work of a parallel iteration not yet taken, in serial order, and how many threads wait for it.
pub(crate) struct Queue<N> {
    items: Mutex<std::collections::VecDeque<Item<N>>>,
    /// `items.len()`, readable without the lock.
    queued: AtomicUsize,
    /// Threads waiting for work.
    pub(crate) idle: AtomicUsize,
    threads: usize,
}

impl<N> Queue<N> {
    fn new(items: Vec<Item<N>>, threads: usize) -> Self {
        Queue {
            queued: AtomicUsize::new(items.len()),
            items: Mutex::new(items.into()),
            idle: AtomicUsize::new(0),
            threads,
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.queued.load(Ordering::Relaxed)
    }

    pub(crate) fn pop(&self) -> Option<Item<N>> {
        if self.len() == 0 {
            return None;
        }
        let mut q = self.items.lock().unwrap();
        let it = q.pop_front();
        self.queued.store(q.len(), Ordering::Relaxed);
        it
    }

    /// Puts work at the front: it is what the giving thread would have searched next.
    pub(crate) fn push_front(&self, it: Item<N>) {
        let mut q = self.items.lock().unwrap();
        q.push_front(it);
        self.queued.store(q.len(), Ordering::Relaxed);
    }

    /// Waits for work: true when some arrived, false when every thread is waiting (the iteration is done)
    /// or the search stops.
    pub(crate) fn wait(&self, guard: &Guard) -> bool {
        self.idle.fetch_add(1, Ordering::SeqCst);
        loop {
            if guard.stop.load(Ordering::Relaxed) || self.idle.load(Ordering::SeqCst) == self.threads {
                return false;
            }
            if self.len() > 0 {
                self.idle.fetch_sub(1, Ordering::SeqCst);
                return true;
            }
            std::thread::yield_now();
        }
    }
}

/// A node below the root handed to a worker: its position, heuristic node and the moves that led there.
pub(crate) struct Item<N> {
    pub(crate) tiles: [u8; MAX_CELLS],
    pub(crate) node: N,
    pub(crate) blank: usize,
    pub(crate) state: u32,
    pub(crate) path: Vec<u8>,
}

impl<N> Item<N> {
    pub(crate) fn depth(&self) -> u32 {
        self.path.len() as u32
    }
}

/// The position after the tile on `from` slides into the blank on `blank`, and that tile.
pub(crate) fn after_move(tiles: &[u8; MAX_CELLS], blank: usize, from: usize) -> ([u8; MAX_CELLS], u8) {
    let mut t = *tiles;
    let tile = t[from];
    t[blank] = tile;
    t[from] = 0;
    (t, tile)
}

/// The children of `it` within `bound`, in the serial search's order; `Err` with the moves when one of
/// them is the goal. Children over the bound lower `next`.
fn expand<H: Heuristic>(
    heur: &H,
    moves: &Moves,
    it: &Item<H::Node>,
    bound: u32,
    counts: &mut Counts,
    next: &mut u32,
) -> Result<Vec<Item<H::Node>>, Vec<u8>> {
    counts.expanded += 1;
    let mut kids = Vec::with_capacity(4);
    for (from, state) in moves.from(it.blank, it.state) {
        let tile = it.tiles[from];
        let mut child = H::Node::default();
        heur.child(&it.node, &it.tiles, tile, from, it.blank, &mut child);
        heur.settle(&mut child);
        counts.generated += 1;
        let f = it.depth() + 1 + H::h(&child);
        if f > bound {
            *next = (*next).min(f);
            continue;
        }
        let mut path = it.path.clone();
        path.push(tile);
        if H::h(&child) == 0 {
            return Err(path);
        }
        kids.push(Item { tiles: after_move(&it.tiles, it.blank, from).0, node: child, blank: from, state, path });
    }
    kids.sort_by_key(|it| H::h(&it.node));
    Ok(kids)
}

/// Solves `start` optimally, pruning duplicate paths with `fsm` (built for the start's board), with `lanes`
/// interleaved depth-first searches on each thread (1: a plain depth-first search). With a `pool`,
/// iterations large enough to be worth sharing are split over its threads.
pub fn solve<H: Heuristic>(
    heur: &H,
    fsm: &MoveFsm,
    start: &State,
    pool: Option<&rayon::ThreadPool>,
    lanes: usize,
    limits: &Limits,
) -> Report {
    let board = start.board();
    let moves = Moves::new(board, fsm);
    let tiles = start.tile_array();
    let root = heur.root(&tiles);
    let guard = Guard::new(limits);
    let root_h = H::h(&root);
    let mut report = Report {
        moves: None,
        stopped: None,
        counts: Counts::default(),
        iterations: 0,
        root_h,
        bound: root_h,
        seconds: 0.0,
    };
    if root_h == 0 {
        report.moves = Some(Vec::new());
        return report;
    }
    // No position on `board` is this far away; the search would never end past it.
    let hopeless = MAX_PATH as u32 - 1;
    let mut bound = root_h;
    let mut last = Counts::default();
    let mut serial = Worker::new(heur, &moves, &guard, lanes);
    loop {
        report.iterations += 1;
        report.bound = bound;
        // The first iteration is shared too: its size is unknown, and it may be the last.
        let share = pool.filter(|_| report.iterations == 1 || last.generated * ITERATION_GROWTH >= PARALLEL_FROM);
        let (found, next, counts) = match share {
            None => {
                let first =
                    Item { tiles, node: root, blank: start.blank(), state: fsm.start(start.blank()), path: vec![] };
                let found = serial.search(bound, Some(first), None).filter(|_| !guard.stop.load(Ordering::Relaxed));
                (found, serial.next_bound(), serial.counts())
            }
            Some(pool) => pool.install(|| {
                parallel_iteration(
                    heur,
                    &moves,
                    &guard,
                    tiles,
                    root,
                    start.blank(),
                    bound,
                    pool.current_num_threads(),
                    lanes,
                )
            }),
        };
        last = counts;
        report.counts.generated += counts.generated;
        report.counts.expanded += counts.expanded;
        if let Some(moves) = found {
            report.moves = Some(moves);
            break;
        }
        if let Some(why) = *guard.why.lock().unwrap() {
            report.stopped = Some(why);
            break;
        }
        if next == u32::MAX || next > hopeless {
            unreachable!(
                "IDA* exhausted every bound on a solvable position: the heuristic or the move generator is wrong"
            );
        }
        bound = next;
    }
    report.seconds = guard.start.elapsed().as_secs_f64();
    report
}

/// One iteration on the pool: the nodes at a small depth become work items; a solution shallower than that
/// depth is found (and bound-checked) while splitting, so short solutions are never skipped.
#[allow(clippy::too_many_arguments)]
fn parallel_iteration<H: Heuristic>(
    heur: &H,
    moves: &Moves,
    guard: &Guard,
    tiles: [u8; MAX_CELLS],
    root: H::Node,
    blank: usize,
    bound: u32,
    threads: usize,
    lanes: usize,
) -> (Option<Vec<u8>>, u32, Counts) {
    let mut counts = Counts::default();
    let mut next = u32::MAX;
    let mut items = vec![Item { tiles, node: root, blank, state: moves.fsm.start(blank), path: Vec::new() }];
    // Enough items that the pool stays busy to the end of the iteration.
    while items.len() < 64 * threads && items[0].depth() < bound {
        let mut deeper = Vec::with_capacity(items.len() * 3);
        for it in &items {
            match expand(heur, moves, it, bound, &mut counts, &mut next) {
                Ok(kids) => deeper.extend(kids),
                Err(solution) => return (Some(solution), next, counts),
            }
        }
        items = deeper;
        if items.is_empty() {
            return (None, next, counts);
        }
    }
    // The front of the order, split finer: in the last iteration the solution usually lies there (siblings
    // are ordered by estimate), and small items let every thread take part in searching it.
    for _ in 0..FRONT_ROUNDS {
        let k = FRONT_ITEMS.min(items.len());
        let mut front = Vec::new();
        for it in &items[..k] {
            match expand(heur, moves, it, bound, &mut counts, &mut next) {
                Ok(kids) => front.extend(kids),
                Err(solution) => return (Some(solution), next, counts),
            }
        }
        items.splice(..k, front);
        if items.is_empty() {
            return (None, next, counts);
        }
    }
    let next_bound = AtomicU32::new(next);
    let found: Mutex<Option<Vec<u8>>> = Mutex::new(None);
    let total = Mutex::new(counts);
    // Every thread's lanes take the next item in order, so the threads advance through the iteration side
    // by side the way the serial search would; a solution early in the order (sibling ordering makes that
    // common in the last iteration) is reached sooner. A thread that finds the queue empty waits; a busy
    // thread seeing that gives it the work that comes next in its own serial order (`Worker::donate`).
    let queue = Queue::new(items, threads);
    rayon::broadcast(|_| {
        let mut worker = Worker::new(heur, moves, guard, lanes);
        let hit = worker.search(bound, None, Some(&queue));
        if let Some(moves) = hit.filter(|_| !guard.stop.load(Ordering::Relaxed)) {
            let mut f = found.lock().unwrap();
            if f.is_none() {
                *f = Some(moves);
                guard.stop.store(true, Ordering::Relaxed);
            }
        }
        next_bound.fetch_min(worker.next_bound(), Ordering::Relaxed);
        let mut t = total.lock().unwrap();
        t.generated += worker.counts().generated;
        t.expanded += worker.counts().expanded;
    });
    let found = found.into_inner().unwrap();
    if found.is_some() {
        // The stop flag was ours, not a limit's.
        guard.stop.store(false, Ordering::Relaxed);
    }
    (found, next_bound.into_inner(), total.into_inner().unwrap())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heuristic::LinearConflictH;

    /// An iteration that finds no solution visits every node within its bound exactly once, however it is
    /// searched: the counts and the next bound must equal the plain depth-first search's exactly, with any
    /// number of lanes (which hand work to each other) and threads (which split and donate work).
    #[test]
    fn an_iteration_without_a_solution_visits_the_same_nodes_with_any_lanes_and_threads() {
        let board = Board::FOUR;
        let heur = LinearConflictH::new(board);
        let fsm = MoveFsm::build(board, 12);
        let moves = Moves::new(board, &fsm);
        let limits = Limits::default();
        let pools: Vec<_> =
            [2, 3].map(|t| rayon::ThreadPoolBuilder::new().num_threads(t).build().unwrap()).into_iter().collect();
        for (tiles, extra) in [
            ("14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3", 8),
            ("13 5 4 10 9 12 8 14 2 3 7 1 0 15 11 6", 8),
            ("14 7 8 2 13 11 10 4 9 12 5 0 3 6 1 15", 10),
        ] {
            let start = puzzle::parse_tiles(board, puzzle::Goal::BlankFirst, tiles).unwrap();
            let tiles = start.tile_array();
            let root = heur.root(&tiles);
            let bound = LinearConflictH::h(&root) + extra;
            let item =
                || Item { tiles, node: root, blank: start.blank(), state: fsm.start(start.blank()), path: vec![] };
            let guard = Guard::new(&limits);
            let serial = |lanes| {
                let mut w = Worker::new(&heur, &moves, &guard, lanes);
                assert_eq!(w.search(bound, Some(item()), None), None, "{start}: a solution within {bound}");
                (w.counts(), w.next_bound())
            };
            let plain = serial(1);
            assert!(plain.0.expanded > 10_000, "{start}: too small an iteration to test ({plain:?})");
            for lanes in [2, 3, 5, 8] {
                assert_eq!(serial(lanes), plain, "{start}: {lanes} lanes");
            }
            for pool in &pools {
                for lanes in [1, 3] {
                    let threads = pool.current_num_threads();
                    let (found, next, counts) = pool.install(|| {
                        parallel_iteration(&heur, &moves, &guard, tiles, root, start.blank(), bound, threads, lanes)
                    });
                    assert_eq!((found, (counts, next)), (None, plain), "{start}: {threads} threads, {lanes} lanes");
                }
            }
        }
    }
}
