//! An IDA* iteration cut into work items and searched item by item gives what the unsplit search gives:
//! every finished iteration's nodes exactly (the cut's and its items' together) and its next bound, and in the
//! last iteration an optimal solution, whatever the item count and the threads that search an item.

use engine::split::{Divided, Worked};
use engine::{Checkpoint, Counts, HeuristicChoice, Limits, Resume, Solver};
use harness::{korf, table_free, table_free_lanes};
use puzzle::{Board, State};
use std::sync::{Arc, Mutex};

/// The iterations of a plain one-thread solve: (bound, nodes, expanded) of each that ended without a
/// solution (from its checkpoints), and the solution's length.
fn plain(solver: &Solver, start: &State) -> (Vec<(u32, Counts)>, usize) {
    let saved: Arc<Mutex<Vec<Checkpoint>>> = Arc::default();
    let keep = Arc::clone(&saved);
    let limits = Limits {
        resume: Resume { from: None, save: Some(Arc::new(move |c: &Checkpoint| keep.lock().unwrap().push(*c))) },
        ..Limits::default()
    };
    let report = solver.solve_with(start, 1, &limits).unwrap();
    let saved = saved.lock().unwrap();
    let mut before = Counts::default();
    let mut bound = report.root_h;
    let mut iterations = Vec::new();
    for c in saved.iter() {
        let total = Counts { generated: c.nodes, expanded: c.expanded };
        let this = Counts { generated: total.generated - before.generated, expanded: total.expanded - before.expanded };
        iterations.push((bound, this));
        (before, bound) = (total, c.bound);
    }
    (iterations, report.moves().unwrap().len())
}

/// Every iteration split into `at_least` items and worked on `threads` threads: each finished iteration's
/// counts and next bound as the plain search's, then a solution at the plain search's length.
fn check(solver: &Solver, start: &State, at_least: usize, threads: usize) {
    let (iterations, length) = plain(solver, start);
    let mut bound = solver.estimate(start);
    loop {
        let cut = solver.split(start, bound, at_least).unwrap();
        let (mut counts, mut next) = (cut.counts, cut.next);
        let items = match cut.outcome {
            Divided::Solved(moves) => {
                assert_eq!(moves.len(), length, "{start}: solved while cutting");
                return;
            }
            Divided::Items(items) => items,
        };
        let mut found = None;
        for prefix in &items {
            let w: Worked = solver.work(start, bound, prefix, threads, &Limits::default()).unwrap();
            assert_eq!(w.stopped, None);
            if let Some(moves) = w.found {
                assert!(moves.starts_with(prefix), "{start}: a solution outside its item");
                found = Some(moves);
                break;
            }
            counts.generated += w.counts.generated;
            counts.expanded += w.counts.expanded;
            next = next.min(w.next);
        }
        if let Some(moves) = found {
            assert_eq!((moves.len(), bound as usize), (length, length), "{start}: not the optimal length");
            return;
        }
        let k = iterations.iter().position(|&(b, _)| b == bound).unwrap_or_else(|| panic!("{start}: bound {bound}"));
        assert_eq!(counts, iterations[k].1, "{start}: bound {bound}, {} items, {threads} threads", items.len());
        let want_next = iterations.get(k + 1).map_or(length as u32, |&(b, _)| b);
        assert_eq!(next, want_next, "{start}: next bound after {bound}");
        bound = next;
    }
}

#[test]
fn a_split_iteration_counts_and_solves_as_the_unsplit_one() {
    let solver = table_free(Board::FOUR, HeuristicChoice::LinearConflict);
    for inst in korf(&["9", "12"]) {
        for (at_least, threads) in [(1, 1), (7, 1), (60, 1), (300, 2)] {
            check(&solver, &inst.state, at_least, threads);
        }
    }
    // Lanes hand work to each other inside an item; a 3x3 with Manhattan; a 5x5 a few dozen moves out.
    check(&table_free_lanes(Board::FOUR, HeuristicChoice::LinearConflict, 3), &korf(&["9"])[0].state, 40, 1);
    let three: Board = "3x3".parse().unwrap();
    let far = puzzle::parse_tiles(three, puzzle::Goal::BlankFirst, "8 7 6 0 4 1 2 5 3").unwrap();
    check(&table_free(three, HeuristicChoice::Manhattan), &far, 20, 1);
    let five: Board = "5x5".parse().unwrap();
    let mut s = State::goal(five);
    for d in "RRDDLLURRDDLURDLLUURRRDDDLLLUURDRDLU".chars() {
        let dir = puzzle::Dir::ALL.into_iter().find(|d2| d2.letter() == d).unwrap();
        assert!(s.move_blank(dir), "walk");
    }
    check(&table_free(five, HeuristicChoice::LinearConflict), &s, 30, 2);
}

#[test]
fn a_prefix_that_is_no_item_is_refused() {
    let solver = table_free(Board::FOUR, HeuristicChoice::LinearConflict);
    let start = &korf(&["9"])[0].state;
    let Divided::Items(items) = solver.split(start, solver.estimate(start) + 4, 10).unwrap().outcome else { panic!() };
    let mut back = items[0].clone();
    back.push(*back.last().unwrap());
    for bad in [vec![99u8], back] {
        let e = solver.work(start, 50, &bad, 1, &Limits::default()).unwrap_err();
        assert!(e.to_string().starts_with("not a work item of this position: move "), "{e}");
    }
}
