//! Boards of more than 16 cells (5x5, 3x7, 2x12): positions a few dozen moves from the goal, solved by the
//! engine with small tables or linear conflict, against an independent reference search.

use engine::{Checkpoint, HeuristicChoice, Limits, Lookups, Resume, Settings, Solver, TableSpec};
use harness::TempDir;
use puzzle::partition::{file_name, Partition};
use puzzle::{Board, Dir, State};
use std::sync::{Arc, Mutex};

/// A random walk of `steps` blank moves from the goal that never steps straight back (xorshift, seeded).
fn walk(board: Board, steps: usize, seed: &mut u64) -> State {
    let mut s = State::goal(board);
    let mut last: Option<Dir> = None;
    let mut done = 0;
    while done < steps {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        let d = Dir::ALL[(*seed >> 33) as usize % 4];
        if Some(d.opposite()) == last {
            continue;
        }
        if s.move_blank(d) {
            last = Some(d);
            done += 1;
        }
    }
    s
}

/// The reference: textbook IDA* with the Manhattan distance over `State`, pruning only the move straight
/// back. It shares no code with the engine's search (no lanes, automaton, tables or incremental nodes).
fn reference_length(start: &State) -> u32 {
    fn dfs(s: &mut State, g: u32, bound: u32, back: Option<Dir>, next: &mut u32) -> bool {
        let f = g + s.manhattan();
        if f > bound {
            *next = (*next).min(f);
            return false;
        }
        if s.is_goal() {
            return true;
        }
        for d in Dir::ALL {
            if Some(d) == back || !s.move_blank(d) {
                continue;
            }
            let found = dfs(s, g + 1, bound, Some(d.opposite()), next);
            s.move_blank(d.opposite());
            if found {
                return true;
            }
        }
        false
    }
    let mut bound = start.manhattan();
    loop {
        let mut next = u32::MAX;
        if dfs(&mut start.clone(), 0, bound, None, &mut next) {
            return bound;
        }
        bound = next;
    }
}

fn pdb_solver(board: Board, partition: &str, dir: &TempDir, lookups: Lookups) -> Solver {
    for pattern in &Partition::parse(board, partition).unwrap().patterns {
        let path = dir.path(&file_name(board, pattern));
        if !path.exists() {
            pdb_builder::build_table(board, pattern, puzzle::pdb_file::Kind::Plain, &path, &mut |_| {}).unwrap();
        }
    }
    let spec = TableSpec { dir: dir.path(""), partitions: vec![partition.to_string()], lookups };
    Solver::new(board, HeuristicChoice::Pdb, &spec, Settings::default(), &mut |w| panic!("unexpected warning {w}"))
        .unwrap()
}

/// Every solver finds the reference's optimal length, on one thread and on two, with the same node
/// counts in every iteration that ends without a solution (the checkpoints each reports); only the last
/// iteration, which stops at its first solution, may differ between them. At least one walk has such an
/// iteration, so the comparison is never empty.
fn check(board: Board, solvers: &[(&str, Solver)], walks: usize, steps: usize, seed: u64) {
    let mut seed = seed;
    let mut compared = 0;
    for _ in 0..walks {
        let s = walk(board, steps, &mut seed);
        let want = reference_length(&s);
        for (name, sv) in solvers {
            assert!(sv.estimate(&s) <= want, "{board} {name}: {s}: estimate {} over {want}", sv.estimate(&s));
            let finished = |threads: usize| {
                let kept = Arc::new(Mutex::new(Vec::new()));
                let keep = kept.clone();
                let save = Arc::new(move |c: &Checkpoint| keep.lock().unwrap().push((c.bound, c.nodes, c.expanded)));
                let limits = Limits { resume: Resume { from: None, save: Some(save) }, ..Limits::default() };
                let r = sv.solve_with(&s, threads, &limits).unwrap();
                assert_eq!(r.moves().map(|m| m.len() as u32), Some(want), "{board} {name} threads {threads}: {s}");
                let kept = kept.lock().unwrap().clone();
                kept
            };
            let one = finished(1);
            assert_eq!(one, finished(2), "{board} {name}: {s}: the iterations without a solution differ");
            compared += one.len();
        }
    }
    assert!(compared > 0, "{board}: no search had an iteration without a solution to compare");
}

#[test]
fn five_by_five_with_small_tables_reflection_and_linear_conflict() {
    let board: Board = "5x5".parse().unwrap();
    let dir = TempDir::new("big-5x5");
    let partition = "1,2,5/6,7,12/3,4,8/9,13,14/10,11,15/16,20,21/17,18,22/19,23,24";
    let solvers = [
        ("3-tile tables + reflection", pdb_solver(board, partition, &dir, Lookups::Reflected)),
        ("3-tile tables", pdb_solver(board, partition, &dir, Lookups::Regular)),
        ("linear conflict", harness::table_free(board, HeuristicChoice::LinearConflict)),
    ];
    check(board, &solvers, 12, 40, 0x5EED_0025);
}

#[test]
fn three_by_seven() {
    let b37: Board = "3x7".parse().unwrap();
    let dir = TempDir::new("big-3x7");
    let solvers = [
        (
            "4-tile tables",
            pdb_solver(b37, "1,2,3,4/8,9,10,11/5,6,7,12/13,14,15,16/17,18,19,20", &dir, Lookups::Regular),
        ),
        ("linear conflict", harness::table_free(b37, HeuristicChoice::LinearConflict)),
    ];
    check(b37, &solvers, 8, 36, 0x37);
}

#[test]
fn two_by_twelve() {
    let b212: Board = "2x12".parse().unwrap();
    let dir = TempDir::new("big-2x12");
    let solvers = [
        (
            "3-tile tables",
            pdb_solver(b212, "1,2,3/4,5,6/7,8,9/10,11/12,13,14/15,16,17/18,19,20/21,22,23", &dir, Lookups::Regular),
        ),
        ("linear conflict", harness::table_free(b212, HeuristicChoice::LinearConflict)),
    ];
    check(b212, &solvers, 8, 36, 0x212);
}

/// The duplicate-path automata on 5x5 (the deepest that fits 16-bit states, and the full depth with 32-bit
/// states) never prune an optimal path: many short random positions, solved with each and with parent
/// pruning only, against the reference; the deeper one prunes more.
#[test]
fn the_five_by_five_automaton_never_prunes_an_optimal_path() {
    let board: Board = "5x5".parse().unwrap();
    let with = |depth: usize, wide: bool| {
        let settings = Settings::default().with_fsm_depth(depth).unwrap().with_fsm_wide(wide).with_lanes(1).unwrap();
        harness::table_free_with(board, HeuristicChoice::LinearConflict, settings)
    };
    let (full, wide, plain) = (with(engine::FSM_DEPTH, false), with(engine::FSM_DEPTH, true), with(2, false));
    let mut seed = 0xA070_0025u64;
    let (mut pruned_less, mut wide_pruned_more) = (0u64, 0u64);
    for i in 0..150 {
        let s = walk(board, 14 + i % 17, &mut seed);
        let want = reference_length(&s);
        let a = full.solve_with(&s, 1, &Limits::default()).unwrap();
        let w = wide.solve_with(&s, 1, &Limits::default()).unwrap();
        let b = plain.solve_with(&s, 1, &Limits::default()).unwrap();
        assert_eq!(a.moves().map(|m| m.len() as u32), Some(want), "automaton: {s}");
        assert_eq!(w.moves().map(|m| m.len() as u32), Some(want), "32-bit automaton: {s}");
        assert_eq!(b.moves().map(|m| m.len() as u32), Some(want), "parent pruning: {s}");
        pruned_less += b.counts.generated.saturating_sub(a.counts.generated);
        wide_pruned_more += a.counts.generated.saturating_sub(w.counts.generated);
    }
    assert!(pruned_less > 0, "the automaton pruned nothing");
    assert!(wide_pruned_more > 0, "the deeper automaton pruned nothing more");
}

/// Korf and Felner's fifty 24-puzzle instances (tests/data) parse, are solvable, and linear conflict never
/// estimates more than their published optimal lengths.
#[test]
fn the_korf_felner_instances_read_and_estimate_admissibly() {
    let board: Board = "5x5".parse().unwrap();
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/data/korf_felner_24puzzle50.txt"))
            .unwrap();
    let lc = harness::table_free(board, HeuristicChoice::LinearConflict);
    let mut count = 0;
    for line in text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let inst = puzzle::parse_line(board, puzzle::Goal::BlankFirst, line).unwrap().unwrap();
        let optimal = inst.optimal.unwrap();
        assert!(inst.state.is_solvable() && lc.estimate(&inst.state) <= optimal, "{line}");
        count += 1;
    }
    assert_eq!(count, 50);
}
