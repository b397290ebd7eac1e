//! IDA*: serial depth-first iterations, and a parallel form that splits each iteration below the root.
//!
//! The position lives in one `[u8; 16]` that is changed and restored around each recursion; the heuristic's
//! node travels by value. Nothing is allocated inside an iteration (the path has room for any solution).
//! Duplicate paths, stepping straight back among them, are pruned by a move automaton (see `fsm`).
//!
//! Node counts: `generated` counts every child whose heuristic was evaluated, `expanded` every node whose
//! children were generated. One thread's counts are exact and reproducible; in parallel runs the last
//! iteration stops as soon as any thread proves a solution, so its counts depend on timing.

use crate::fsm::{MoveFsm, PRUNED};
use crate::heuristic::Heuristic;
use puzzle::{Board, State, MAX_CELLS};
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Longest solution the path buffer holds; far beyond any 4x4 optimum (80).
const MAX_PATH: usize = 256;
/// Expanded nodes between checks of the limits.
const CHECK_EVERY: u64 = 1 << 14;
/// An iteration predicted to generate fewer nodes than this runs on one thread: splitting it and waiting
/// for the pool at its end would cost more than sharing it saves.
const PARALLEL_FROM: u64 = 1 << 11;
/// How much larger each IDA* iteration is than the one before, roughly (the bound grows by 2).
const ITERATION_GROWTH: u64 = 4;
/// Subtrees at least this far from the bound may be handed to an idle thread.
const DONATE_MIN_DEPTH: u32 = 4;
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
struct Moves<'a> {
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
    fn from(&self, blank: usize, state: u32) -> impl Iterator<Item = (usize, u32)> + '_ {
        let k = self.count[blank] as usize;
        self.cells[blank][..k]
            .iter()
            .zip(&self.dirs[blank][..k])
            .map(move |(&c, &d)| (c as usize, self.fsm.step(state, d as usize)))
            .filter(|&(_, next)| next != PRUNED)
    }
}

/// Shared stop conditions for one solve, checked every `CHECK_EVERY` expansions.
struct Guard<'a> {
    limits: &'a Limits,
    start: Instant,
    /// Nodes of all threads, flushed at each check.
    nodes: AtomicU64,
    /// Set when a solution is found or a limit is hit: every thread unwinds.
    stop: AtomicBool,
    why: Mutex<Option<Stop>>,
}

impl Guard<'_> {
    fn check(&self, add_nodes: u64) -> bool {
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

/// One thread's depth-first search state.
struct Dfs<'a, H: Heuristic> {
    heur: &'a H,
    moves: &'a Moves<'a>,
    guard: &'a Guard<'a>,
    /// In a parallel iteration: where to give work away when another thread is idle, and the moves from
    /// the root to this search's own root.
    share: Option<(&'a Queue<H::Node>, &'a [u8])>,
    tiles: [u8; MAX_CELLS],
    path: [u8; MAX_PATH],
    len: usize,
    bound: u32,
    next_bound: u32,
    counts: Counts,
    unflushed: u64,
}

impl<'a, H: Heuristic> Dfs<'a, H> {
    fn new(heur: &'a H, moves: &'a Moves<'a>, guard: &'a Guard<'a>, tiles: [u8; MAX_CELLS]) -> Self {
        Dfs {
            heur,
            moves,
            guard,
            share: None,
            tiles,
            path: [0; MAX_PATH],
            len: 0,
            bound: 0,
            next_bound: u32::MAX,
            counts: Counts::default(),
            unflushed: 0,
        }
    }

    /// Searches below a node at depth `g` with the blank on `blank` and the move automaton in `state`.
    /// Returns true when a solution is in `path[..len]`, or when the search must stop (the guard says which).
    /// `SHARE`: may give work to idle threads (parallel iterations); the serial search is compiled without it.
    fn search<const SHARE: bool>(&mut self, node: H::Node, blank: usize, state: u32, g: u32) -> bool {
        self.counts.expanded += 1;
        self.unflushed += 1;
        if self.unflushed >= CHECK_EVERY {
            let n = std::mem::take(&mut self.unflushed);
            if self.guard.check(n) {
                return true;
            }
        }
        // All children first, so that a table heuristic's reads for them are in flight together.
        let mut kids = [(H::Node::default(), 0usize, 0u32); 4];
        let mut n = 0;
        for (from, next) in self.moves.from(blank, state) {
            kids[n] = (self.heur.child(&node, &self.tiles, self.tiles[from], from, blank), from, next);
            n += 1;
        }
        for (child, _, _) in &mut kids[..n] {
            self.heur.settle(child);
        }
        self.counts.generated += n as u64;
        // Most promising first: it changes nothing in an iteration that finds no solution, and in the last
        // one it tends to reach the goal sooner.
        let kids = &mut kids[..n];
        kids.sort_unstable_by_key(|(c, _, _)| H::h(c));
        let mut end = kids.len();
        let mut i = 0;
        while i < end {
            let (child, from, next) = kids[i];
            i += 1;
            let h = H::h(&child);
            let f = g + 1 + h;
            if f > self.bound {
                self.next_bound = self.next_bound.min(f);
                continue;
            }
            let tile = self.tiles[from];
            self.path[self.len] = tile;
            self.len += 1;
            if h == 0 {
                return true;
            }
            if SHARE && i < end && self.should_donate(g) {
                self.donate(&kids[i..end], blank, g);
                end = i;
            }
            self.tiles[blank] = tile;
            self.tiles[from] = 0;
            if self.search::<SHARE>(child, from, next, g + 1) {
                return true;
            }
            self.tiles[from] = tile;
            self.tiles[blank] = 0;
            self.len -= 1;
        }
        false
    }

    /// Whether to hand this node's remaining children to an idle thread: only in a parallel iteration, only
    /// when one is waiting, and only subtrees deep enough to be worth the hand-over.
    #[inline(always)]
    fn should_donate(&self, g: u32) -> bool {
        self.share.is_some_and(|(q, _)| q.idle.load(Ordering::Relaxed) > 0) && self.bound - g >= DONATE_MIN_DEPTH
    }

    /// Puts the untried `kids` (in search order, at depth `g + 1`) at the front of the queue: they are
    /// what this thread would search next, so an idle thread searching them keeps both near the front of
    /// the serial order, where the last iteration's solution usually is.
    #[cold]
    fn donate(&self, kids: &[(H::Node, usize, u32)], blank: usize, g: u32) {
        let Some((queue, prefix)) = self.share else { return };
        let mut given = Vec::new();
        for &(child, from, next) in kids {
            if g + 1 + H::h(&child) > self.bound {
                continue;
            }
            let (tiles, tile) = after_move(&self.tiles, blank, from);
            let mut path = prefix.to_vec();
            path.extend_from_slice(&self.path[..self.len - 1]);
            path.push(tile);
            given.push(Item { tiles, node: child, blank: from, state: next, path });
        }
        let mut q = queue.items.lock().unwrap();
        for it in given.into_iter().rev() {
            q.push_front(it);
        }
    }

    fn flush(&mut self) {
        let n = std::mem::take(&mut self.unflushed);
        self.guard.check(n);
    }
}

/// The work of a parallel iteration not yet taken, in serial order, and how many threads wait for it.
struct Queue<N> {
    items: Mutex<std::collections::VecDeque<Item<N>>>,
    idle: AtomicUsize,
}

/// A node below the root handed to a worker: its position, heuristic node and the moves that led there.
struct Item<N> {
    tiles: [u8; MAX_CELLS],
    node: N,
    blank: usize,
    state: u32,
    path: Vec<u8>,
}

impl<N> Item<N> {
    fn depth(&self) -> u32 {
        self.path.len() as u32
    }
}

/// The position after the tile on `from` slides into the blank on `blank`, and that tile.
fn after_move(tiles: &[u8; MAX_CELLS], blank: usize, from: usize) -> ([u8; MAX_CELLS], u8) {
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
        let mut child = heur.child(&it.node, &it.tiles, tile, from, it.blank);
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

/// Solves `start` optimally, pruning duplicate paths with `fsm` (built for the start's board). With a
/// `pool`, iterations large enough to be worth sharing are split over its threads; without, this is the
/// exact serial search.
pub fn solve<H: Heuristic>(
    heur: &H,
    fsm: &MoveFsm,
    start: &State,
    pool: Option<&rayon::ThreadPool>,
    limits: &Limits,
) -> Report {
    let board = start.board();
    let moves = Moves::new(board, fsm);
    let tiles = start.tile_array();
    let root = heur.root(&tiles);
    let guard = Guard {
        limits,
        start: Instant::now(),
        nodes: AtomicU64::new(0),
        stop: AtomicBool::new(false),
        why: Mutex::new(None),
    };
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
    loop {
        report.iterations += 1;
        report.bound = bound;
        // The first iteration is shared too: its size is unknown, and it may be the last.
        let share = pool.filter(|_| report.iterations == 1 || last.generated * ITERATION_GROWTH >= PARALLEL_FROM);
        let (found, next, counts) = match share {
            None => {
                let mut dfs = Dfs::new(heur, &moves, &guard, tiles);
                dfs.bound = bound;
                let found = dfs.search::<false>(root, start.blank(), fsm.start(start.blank()), 0);
                dfs.flush();
                let path = (found && !guard.stop.load(Ordering::Relaxed)).then(|| dfs.path[..dfs.len].to_vec());
                (path, dfs.next_bound, dfs.counts)
            }
            Some(pool) => pool.install(|| {
                parallel_iteration(heur, &moves, &guard, tiles, root, start.blank(), bound, pool.current_num_threads())
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
    // Every thread takes the next item in order, so the threads advance through the iteration side by side
    // the way the serial search would; a solution early in the order (sibling ordering makes that common
    // in the last iteration) is reached about `threads` times sooner. A thread that finds the queue empty
    // waits; a busy thread seeing that gives it the children it would search next (`Dfs::donate`).
    let queue = Queue { items: Mutex::new(items.into()), idle: AtomicUsize::new(0) };
    rayon::broadcast(|ctx| loop {
        let taken = queue.items.lock().unwrap().pop_front();
        let Some(it) = taken else {
            queue.idle.fetch_add(1, Ordering::SeqCst);
            loop {
                if guard.stop.load(Ordering::Relaxed) || queue.idle.load(Ordering::SeqCst) == ctx.num_threads() {
                    return;
                }
                if !queue.items.lock().unwrap().is_empty() {
                    queue.idle.fetch_sub(1, Ordering::SeqCst);
                    break;
                }
                std::thread::yield_now();
            }
            continue;
        };
        if guard.stop.load(Ordering::Relaxed) {
            continue;
        }
        let mut dfs = Dfs::new(heur, moves, guard, it.tiles);
        dfs.share = Some((&queue, &it.path));
        dfs.bound = bound;
        let hit = dfs.search::<true>(it.node, it.blank, it.state, it.depth());
        dfs.flush();
        if hit && !guard.stop.load(Ordering::Relaxed) {
            let mut f = found.lock().unwrap();
            if f.is_none() {
                let mut moves = it.path.clone();
                moves.extend_from_slice(&dfs.path[..dfs.len]);
                *f = Some(moves);
                guard.stop.store(true, Ordering::Relaxed);
            }
        }
        next_bound.fetch_min(dfs.next_bound, Ordering::Relaxed);
        let mut t = total.lock().unwrap();
        t.generated += dfs.counts.generated;
        t.expanded += dfs.counts.expanded;
    });
    let found = found.into_inner().unwrap();
    if found.is_some() {
        // The stop flag was ours, not a limit's.
        guard.stop.store(false, Ordering::Relaxed);
    }
    (found, next_bound.into_inner(), total.into_inner().unwrap())
}
