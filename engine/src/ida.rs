//! IDA*: the iterations, and the parallel form that splits each iteration below the root. The depth-first
//! search inside an iteration is in `lanes`.
//!
//! Duplicate paths, stepping straight back among them, are pruned by a move automaton (see `fsm`).
//!
//! Node counts: `generated` counts every child whose heuristic was evaluated, `expanded` every node whose
//! children were generated. One thread's counts are exact and reproducible for a given number of lanes (the
//! lanes change the order of the last iteration, which stops at the first solution); in parallel runs the
//! last iteration stops as soon as any thread proves a solution, so its counts depend on timing.

use crate::fsm::{MoveFsm, TableRef, Transitions};
use crate::guard::Guard;
use crate::heuristic::Heuristic;
use crate::lanes::Worker;
use crate::moves::{after_move, Moves, MAX_PATH};
use crate::outcome::{Checkpoint, Counts, Iteration, Limits, Outcome, Report};
use crate::textbook::Textbook;
use crate::work::{Item, Queue, Source};
use puzzle::{Goal, State};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Mutex;
use std::time::Duration;
/// An iteration predicted to generate fewer nodes than this runs on one thread: splitting it and waiting
/// for the pool at its end would cost more than sharing it saves.
const PARALLEL_FROM: u64 = 1 << 11;
/// How much larger each IDA* iteration is than the one before, roughly (the bound grows by 2).
const ITERATION_GROWTH: u64 = 4;
/// The first `FRONT_ITEMS` work items are split again, `FRONT_ROUNDS` times (see `parallel_iteration`).
const FRONT_ITEMS: usize = 8;
const FRONT_ROUNDS: usize = 4;

/// The children of `it` within `bound`, in the serial search's order; `Err` with the moves when one of
/// them is the goal. Children over the bound lower `next`.
pub(crate) fn expand<H: Heuristic, T: Transitions>(
    heur: &H,
    moves: &Moves<T>,
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
        heur.settle(&mut child, bound.saturating_sub(it.depth() + 1));
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

/// How the iterations are searched.
#[derive(Clone, Copy)]
pub(crate) enum Mode<'a> {
    /// The fast search: with `lanes` interleaved depth-first searches on each thread (1: a plain
    /// depth-first search), and with a `pool`, iterations large enough to be worth sharing split over its
    /// threads.
    Fast { pool: Option<&'a rayon::ThreadPool>, lanes: usize },
    /// The textbook's, for input written for this goal (see `textbook`).
    Textbook(Goal),
}

/// Solves `start` optimally, pruning duplicate paths with `fsm` (built for the start's board), searching
/// as `mode` says.
pub(crate) fn solve<H: Heuristic>(heur: &H, fsm: &MoveFsm, start: &State, mode: Mode, limits: &Limits) -> Report {
    // One copy of the search for each width of the automaton's table, so that stepping through the
    // 16-bit table (every board up to 16 cells) tests no width.
    match fsm.table() {
        TableRef::Narrow(table) => iterate(heur, &Moves::new(start.board(), fsm, table), start, mode, limits),
        TableRef::Wide(table) => iterate(heur, &Moves::new(start.board(), fsm, table), start, mode, limits),
    }
}

/// [`solve`] with the moves made: iterations with a growing bound until one finds a solution or a limit
/// stops the search. Everything here runs once an iteration; the search of each node is in `lanes`.
fn iterate<H: Heuristic, T: Transitions>(
    heur: &H,
    moves: &Moves<T>,
    start: &State,
    mode: Mode,
    limits: &Limits,
) -> Report {
    let (pool, lanes) = match mode {
        Mode::Fast { pool, lanes } => (pool, lanes),
        Mode::Textbook(_) => (None, 1),
    };
    let tiles = start.tile_array();
    let root = heur.root(&tiles);
    let first =
        || Item { tiles, node: root, blank: start.blank(), state: moves.fsm.start(start.blank()), path: vec![] };
    // Resumed: the iterations below the checkpoint's bound are done, and the limits cover them too.
    let earlier = limits.resume.from.unwrap_or_default();
    let shortened = limits.resume.from.map(|c| left_after(limits, &c));
    let limits = shortened.as_ref().unwrap_or(limits);
    let guard = Guard::new(limits);
    let seconds = || earlier.seconds + guard.start.elapsed().as_secs_f64();
    let root_h = H::h(&root);
    let mut report = Report {
        outcome: Outcome::Stopped(crate::outcome::Stop::Cancelled),
        counts: Counts { generated: earlier.nodes, expanded: earlier.expanded },
        iterations: earlier.iterations,
        root_h,
        bound: root_h,
        seconds: 0.0,
        per_iteration: Vec::new(),
    };
    if root_h == 0 {
        report.outcome = Outcome::Solved(Vec::new());
        return report;
    }
    // No position on `board` is this far away; the search would never end past it.
    let hopeless = MAX_PATH as u32 - 1;
    let mut bound = root_h.max(earlier.bound);
    let mut last = Counts::default();
    let mut opening = true;
    let mut serial = Worker::new(heur, moves, &guard, lanes);
    let mut textbook = match mode {
        Mode::Textbook(goal) => Some(Textbook::new(heur, start.board(), goal, &guard)),
        Mode::Fast { .. } => None,
    };
    loop {
        report.iterations += 1;
        report.bound = bound;
        if let Some(p) = &limits.progress {
            p.set_depth(bound);
        }
        // A run's first iteration is shared too: its size is unknown, and it may be the last.
        let share = pool.filter(|_| opening || last.generated * ITERATION_GROWTH >= PARALLEL_FROM);
        opening = false;
        let (found, next, counts) = match (&mut textbook, share) {
            (Some(t), _) => t.iteration(&tiles, &root, start.blank(), bound),
            (None, None) => serial_iteration(&mut serial, &guard, bound, first()),
            (None, Some(pool)) => pool.install(|| {
                let threads = pool.current_num_threads();
                parallel_iteration(heur, moves, &guard, first(), bound, threads, lanes)
            }),
        };
        last = counts;
        report.per_iteration.push(Iteration { bound, counts });
        report.counts.generated += counts.generated;
        report.counts.expanded += counts.expanded;
        if let Some(outcome) = ended(found, &guard) {
            report.outcome = outcome;
            break;
        }
        if next == u32::MAX || next > hopeless {
            unreachable!(
                "IDA* exhausted every bound on a solvable position: the heuristic or the move generator is wrong"
            );
        }
        bound = next;
        if let Some(save) = &limits.resume.save {
            let (iterations, Counts { generated: nodes, expanded }) = (report.iterations, report.counts);
            save(&Checkpoint { bound, iterations, nodes, expanded, seconds: seconds() });
        }
    }
    report.seconds = seconds();
    report
}

/// `limits` less what the run resumed from `c` spent: its time and its expanded nodes.
fn left_after(limits: &Limits, c: &Checkpoint) -> Limits {
    let time = limits.search.time.map(|t| t.saturating_sub(Duration::from_secs_f64(c.seconds)));
    let nodes = limits.search.nodes.map(|n| n.saturating_sub(c.expanded));
    Limits { search: search::Limits { time, nodes, ..limits.search.clone() }, ..limits.clone() }
}

/// One iteration on this thread, from `root`: the solution found (unless a limit stopped the search), the
/// next bound and the nodes.
fn serial_iteration<H: Heuristic, T: Transitions>(
    worker: &mut Worker<H, T>,
    guard: &Guard,
    bound: u32,
    root: Item<H::Node>,
) -> (Option<Vec<u8>>, u32, Counts) {
    let found = worker.search(bound, Source::Root(root)).filter(|_| !guard.stop.load(Ordering::Relaxed));
    (found, worker.next_bound(), worker.counts())
}

/// How the search ends after an iteration, if it does: with the iteration's solution, else with the limit
/// that stopped it.
fn ended(found: Option<Vec<u8>>, guard: &Guard) -> Option<Outcome> {
    match found {
        Some(moves) => Some(Outcome::Solved(moves)),
        None => guard.why.lock().unwrap().map(Outcome::Stopped),
    }
}

/// One iteration on the pool below `first` (the root, or a split iteration's work item): the nodes a few
/// moves below it become work items; a solution shallower than that is found (and bound-checked) while
/// splitting, so short solutions are never skipped.
pub(crate) fn parallel_iteration<H: Heuristic, T: Transitions>(
    heur: &H,
    moves: &Moves<T>,
    guard: &Guard,
    first: Item<H::Node>,
    bound: u32,
    threads: usize,
    lanes: usize,
) -> (Option<Vec<u8>>, u32, Counts) {
    let mut counts = Counts::default();
    let mut next = u32::MAX;
    let mut items = vec![first];
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
        let hit = worker.search(bound, Source::Queue(&queue));
        if let Some(moves) = hit.filter(|_| !guard.stop.load(Ordering::Relaxed)) {
            let mut f = found.lock().unwrap();
            if f.is_none() {
                *f = Some(moves);
                guard.stop.store(true, Ordering::Relaxed);
                // A thread asleep waiting for work must see the stop now, not at its next look.
                queue.wake_all();
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
    use crate::guard::Guard;
    use crate::heuristic::LinearConflictH;
    use puzzle::Board;

    /// An iteration that finds no solution visits every node within its bound exactly once, however it is
    /// searched: the counts and the next bound must equal the plain depth-first search's exactly, with any
    /// number of lanes (which hand work to each other) and threads (which split and donate work). On 4x4 and
    /// on 5x5 (Korf and Felner's instance 40).
    #[test]
    fn an_iteration_without_a_solution_visits_the_same_nodes_with_any_lanes_and_threads() {
        check_iterations(
            "4x4",
            &[
                ("14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3", 8),
                ("13 5 4 10 9 12 8 14 2 3 7 1 0 15 11 6", 8),
                ("14 7 8 2 13 11 10 4 9 12 5 0 3 6 1 15", 10),
            ],
        );
        check_iterations("5x5", &[("2 17 4 13 7 12 10 3 0 16 21 24 8 5 18 20 15 19 14 9 22 11 6 1 23", 8)]);
    }

    fn check_iterations(board: &str, cases: &[(&str, u32)]) {
        let board: Board = board.parse().unwrap();
        let heur = LinearConflictH::new(board);
        let fsm = MoveFsm::build(board, 12);
        let TableRef::Narrow(table) = fsm.table() else { panic!("a 16-bit automaton") };
        let moves = Moves::new(board, &fsm, table);
        let limits = Limits::default();
        let pools: Vec<_> =
            [2, 3].map(|t| rayon::ThreadPoolBuilder::new().num_threads(t).build().unwrap()).into_iter().collect();
        for &(tiles, extra) in cases {
            let start = puzzle::parse_tiles(board, puzzle::Goal::BlankFirst, tiles).unwrap();
            let tiles = start.tile_array();
            let root = heur.root(&tiles);
            let bound = LinearConflictH::h(&root) + extra;
            let item =
                || Item { tiles, node: root, blank: start.blank(), state: fsm.start(start.blank()), path: vec![] };
            let guard = Guard::new(&limits);
            let serial = |lanes| {
                let mut w = Worker::new(&heur, &moves, &guard, lanes);
                assert_eq!(w.search(bound, Source::Root(item())), None, "{start}: a solution within {bound}");
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
                    let (found, next, counts) =
                        pool.install(|| parallel_iteration(&heur, &moves, &guard, item(), bound, threads, lanes));
                    assert_eq!((found, (counts, next)), (None, plain), "{start}: {threads} threads, {lanes} lanes");
                }
            }
        }
    }
}
