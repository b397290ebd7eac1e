//! The algorithms on small puzzles written only for these tests: they exercise the trait's corners
//! (canonical forms, no single goal, no solution, an inconsistent heuristic, limits) on graphs small enough
//! to check by hand or by a plain breadth-first search written here.

use search::{astar, run, Algorithm, AstarOptions, Limits, Outcome, Progress, Puzzle, SearchError, Stop};
use std::collections::{HashMap, VecDeque};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

const ALL: [Algorithm; 6] =
    [Algorithm::Bfs, Algorithm::Bibfs, Algorithm::Astar, Algorithm::Ida, Algorithm::Greedy, Algorithm::Dfs];
const OPTIMAL: [Algorithm; 4] = [Algorithm::Bfs, Algorithm::Bibfs, Algorithm::Astar, Algorithm::Ida];

fn quiet() -> impl FnMut(&Progress) {
    |_| {}
}

/// A counter on `-radius..=radius`: add one, subtract one, or double. Mirror images (`x` and `-x`) are
/// equally far from the goals `±target`, so the canonical form is `|x|`: the search stores half the states.
struct Mirror {
    radius: i64,
    target: i64,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Op {
    Inc,
    Dec,
    Double,
}

impl Puzzle for Mirror {
    type State = i64;
    type Move = Op;

    fn successors(&self, &x: &i64, mut visit: impl FnMut(Op, i64)) {
        for (op, y) in [(Op::Inc, x + 1), (Op::Dec, x - 1), (Op::Double, 2 * x)] {
            if y.abs() <= self.radius {
                visit(op, y);
            }
        }
    }

    fn is_goal(&self, x: &i64) -> bool {
        x.abs() == self.target
    }

    fn canonical(&self, x: &i64) -> i64 {
        x.abs()
    }
}

fn apply(mut x: i64, moves: &[Op]) -> i64 {
    for m in moves {
        x = match m {
            Op::Inc => x + 1,
            Op::Dec => x - 1,
            Op::Double => 2 * x,
        };
    }
    x
}

/// Distances to the nearest goal by a breadth-first search over the raw states, no canonical forms.
fn raw_distances(p: &Mirror, start: i64) -> Option<usize> {
    let mut dist = HashMap::from([(start, 0)]);
    let mut queue = VecDeque::from([start]);
    while let Some(x) = queue.pop_front() {
        if p.is_goal(&x) {
            return Some(dist[&x]);
        }
        let d = dist[&x];
        p.successors(&x, |_, y| {
            dist.entry(y).or_insert_with(|| {
                queue.push_back(y);
                d + 1
            });
        });
    }
    None
}

#[test]
fn canonical_forms_halve_the_store_and_solutions_replay_from_the_real_start() {
    let p = Mirror { radius: 40, target: 37 };
    for start in -40..=40 {
        let truth = raw_distances(&p, start).unwrap();
        for alg in [Algorithm::Bfs, Algorithm::Astar, Algorithm::Ida] {
            let report = run(alg, &p, &start, &Limits::default(), &mut quiet()).unwrap();
            let Outcome::Solved(moves) = report.outcome else { panic!("{alg:?} from {start}: {:?}", report.outcome) };
            assert_eq!(moves.len(), truth, "{alg:?} from {start}");
            assert_eq!(apply(start, &moves).abs(), 37, "{alg:?} from {start}: {moves:?}");
            if alg == Algorithm::Bfs {
                assert!(report.stats.peak_stored <= 41, "only |x| is stored: {:?}", report.stats);
            }
        }
        for alg in [Algorithm::Greedy, Algorithm::Dfs] {
            let report = run(alg, &p, &start, &Limits::default(), &mut quiet()).unwrap();
            let Outcome::Solved(moves) = report.outcome else { panic!("{alg:?} from {start}") };
            assert_eq!(apply(start, &moves).abs(), 37);
        }
    }
}

#[test]
fn bidirectional_search_needs_a_single_goal() {
    let p = Mirror { radius: 10, target: 5 };
    assert_eq!(run(Algorithm::Bibfs, &p, &0, &Limits::default(), &mut quiet()).unwrap_err(), SearchError::NeedsGoal);
}

/// `Mirror`'s canonical form without its symmetry: the only move is +1, which `-x` cannot mirror. A search
/// among representatives finds "answers" that do not exist from the real start; the replay must catch it.
struct Lopsided;

impl Puzzle for Lopsided {
    type State = i64;
    type Move = ();

    fn successors(&self, &x: &i64, mut visit: impl FnMut((), i64)) {
        if x < 10 {
            visit((), x + 1);
        }
    }

    fn is_goal(&self, x: &i64) -> bool {
        x.abs() == 3
    }

    fn canonical(&self, x: &i64) -> i64 {
        x.abs()
    }
}

#[test]
fn a_canonical_form_that_breaks_the_moves_is_an_error_not_a_wrong_answer() {
    for alg in [Algorithm::Bfs, Algorithm::Astar, Algorithm::Ida, Algorithm::Greedy, Algorithm::Dfs] {
        let result = run(alg, &Lopsided, &-1, &Limits::default(), &mut quiet());
        assert_eq!(result.unwrap_err(), SearchError::NotReplayable { step: 0 }, "{alg:?}");
    }
}

/// Cells `0..len` on a line, a step left or right; one goal, reversible moves. With `goal` off the line
/// nothing is solvable; `ring` joins the ends, so that there are cycles.
struct Line {
    len: u32,
    goal: u32,
    ring: bool,
}

impl Puzzle for Line {
    type State = u32;
    type Move = i8;

    fn successors(&self, &x: &u32, mut visit: impl FnMut(i8, u32)) {
        if x >= self.len {
            return;
        }
        if x > 0 || self.ring {
            visit(-1, (x + self.len - 1) % self.len);
        }
        if x + 1 < self.len || self.ring {
            visit(1, (x + 1) % self.len);
        }
    }

    fn is_goal(&self, &x: &u32) -> bool {
        x == self.goal
    }

    fn heuristic(&self, &x: &u32) -> u32 {
        if self.ring {
            0
        } else {
            x.abs_diff(self.goal).min(self.len)
        }
    }

    fn goal(&self) -> Option<u32> {
        Some(self.goal)
    }
}

#[test]
fn bidirectional_search_finds_odd_and_even_lengths_on_a_ring() {
    // On a ring both directions around meet; each distance is the shorter way round.
    for len in [7, 8] {
        for goal in 0..len {
            for start in 0..len {
                let p = Line { len, goal, ring: true };
                let report = run(Algorithm::Bibfs, &p, &start, &Limits::default(), &mut quiet()).unwrap();
                let Outcome::Solved(moves) = report.outcome else { panic!() };
                let d = start.abs_diff(goal);
                assert_eq!(moves.len() as u32, d.min(len - d), "{start} to {goal} on {len}");
                let end = moves.iter().fold(start as i64, |x, &m| (x + m as i64).rem_euclid(len as i64));
                assert_eq!(end, goal as i64);
            }
        }
    }
}

#[test]
fn exhausting_the_states_proves_there_is_no_solution() {
    let p = Line { len: 50, goal: 99, ring: false };
    for alg in ALL {
        let report = run(alg, &p, &20, &Limits::default(), &mut quiet()).unwrap();
        assert_eq!(report.outcome, Outcome::Unsolvable, "{alg:?}");
        assert!(report.stats.expanded >= 1, "{alg:?} must search to prove it");
    }
    let report = run(Algorithm::Bfs, &p, &20, &Limits::default(), &mut quiet()).unwrap();
    assert_eq!((report.stats.expanded, report.stats.peak_stored), (50, 50));
    assert_eq!(report.stats.generated, 98);
    assert_eq!(report.stats.duplicates, 49);
}

#[test]
fn ida_cannot_prove_a_cycle_unsolvable_and_stops_at_its_limit() {
    let p = Line { len: 50, goal: 99, ring: true };
    let limits = Limits { nodes: Some(10_000), ..Limits::default() };
    let report = run(Algorithm::Ida, &p, &20, &limits, &mut quiet()).unwrap();
    assert_eq!(report.outcome, Outcome::Stopped(Stop::NodeLimit));
    assert_eq!(report.stats.expanded, 10_000);
    for alg in [Algorithm::Bfs, Algorithm::Bibfs, Algorithm::Astar, Algorithm::Greedy, Algorithm::Dfs] {
        assert_eq!(run(alg, &p, &20, &Limits::default(), &mut quiet()).unwrap().outcome, Outcome::Unsolvable);
    }
}

#[test]
fn every_limit_stops_every_algorithm() {
    let p = Line { len: 10_000_000, goal: 9_999_999, ring: false };
    let blind = Line { len: 10_000_000, goal: 9_999_999, ring: true };
    let cancel = Arc::new(AtomicBool::new(true));
    let cases = [
        (Limits { nodes: Some(5_000), ..Limits::default() }, Stop::NodeLimit),
        (Limits { time: Some(Duration::ZERO), ..Limits::default() }, Stop::TimeLimit),
        (Limits { memory: Some(4_000), ..Limits::default() }, Stop::MemoryLimit),
        (Limits { cancel: Some(cancel), ..Limits::default() }, Stop::Cancelled),
    ];
    for (limits, stop) in cases {
        for alg in ALL {
            // Informed A* and greedy would walk straight to the goal; make them search blind.
            let report = if matches!(alg, Algorithm::Astar | Algorithm::Greedy | Algorithm::Ida) {
                run(alg, &blind, &5_000_000, &limits, &mut quiet())
            } else {
                run(alg, &p, &5_000_000, &limits, &mut quiet())
            }
            .unwrap();
            assert_eq!(report.outcome, Outcome::Stopped(stop), "{alg:?}");
            if stop == Stop::NodeLimit {
                assert_eq!(report.stats.expanded, 5_000, "{alg:?}");
            }
            if stop == Stop::MemoryLimit {
                assert!(report.stats.peak_bytes <= 4_000 && report.stats.peak_bytes > 0, "{alg:?}: {:?}", report.stats);
            }
        }
    }
}

/// A small explicit graph (nodes by number, the move is the node moved to) with an admissible heuristic that
/// is inconsistent at node 1: h(1) = 4 is exact, but its neighbour 3 has h = 0.
///
/// ```text
///   0 -> 1 -> 3 -> 4 -> 5 -> 6 (goal)      shortest: 0 1 3 4 5 6, five moves
///   0 -> 7 -> 8 -> 3                       a detour to 3 that looks cheaper
/// ```
/// A* reaches 3 by the detour and expands it before 1 (f = 5 at g = 1 waits behind the deeper entries);
/// when 1 finally offers 3 at g = 2, only re-opening 3 recovers the five-move path.
struct Trap;

const TRAP: [&[u8]; 9] = [&[1, 7], &[3], &[], &[4], &[5], &[6], &[], &[8], &[3]];

impl Puzzle for Trap {
    type State = u8;
    type Move = u8;

    fn successors(&self, &x: &u8, mut visit: impl FnMut(u8, u8)) {
        for &y in TRAP[x as usize] {
            visit(y, y);
        }
    }

    fn is_goal(&self, &x: &u8) -> bool {
        x == 6
    }

    fn heuristic(&self, &x: &u8) -> u32 {
        if x == 1 {
            4
        } else {
            0
        }
    }
}

#[test]
fn astar_needs_reopening_for_an_inconsistent_heuristic() {
    let solve = |reopen| {
        let report = astar(&Trap, &0, &Limits::default(), AstarOptions { reopen }, &mut quiet()).unwrap();
        let Outcome::Solved(moves) = report.outcome else { panic!() };
        moves
    };
    assert_eq!(solve(true), vec![1, 3, 4, 5, 6]);
    assert_eq!(solve(false), vec![7, 8, 3, 4, 5, 6], "without re-opening the detour stands");
}

#[test]
fn depth_first_takes_the_least_estimate_then_the_first_move() {
    // Guided by the distance, it walks straight to the goal, expanding only the states on the way.
    let p = Line { len: 30, goal: 11, ring: false };
    let report = run(Algorithm::Dfs, &p, &0, &Limits::default(), &mut quiet()).unwrap();
    assert_eq!(report.outcome, Outcome::Solved(vec![1; 11]));
    assert_eq!(report.stats.expanded, 11);
    // Blind on a ring, it takes the first move (-1) all the way round: a long way, but a valid one.
    let p = Line { len: 30, goal: 11, ring: true };
    let report = run(Algorithm::Dfs, &p, &0, &Limits::default(), &mut quiet()).unwrap();
    assert_eq!(report.outcome, Outcome::Solved(vec![-1; 19]));
    // The trap: 0's successors are 1 (h 4) and 7 (h 0); 7 is tried first and leads to the goal.
    let report = run(Algorithm::Dfs, &Trap, &0, &Limits::default(), &mut quiet()).unwrap();
    assert_eq!(report.outcome, Outcome::Solved(vec![7, 8, 3, 4, 5, 6]));
}

#[test]
fn a_goal_start_is_solved_with_no_moves() {
    let p = Line { len: 10, goal: 4, ring: false };
    for alg in ALL {
        let report = run(alg, &p, &4, &Limits::default(), &mut quiet()).unwrap();
        assert_eq!(report.outcome, Outcome::Solved(vec![]), "{alg:?}");
        assert_eq!(report.stats.expanded, 0, "{alg:?}");
    }
}

#[test]
fn every_optimal_algorithm_agrees_on_a_line() {
    let p = Line { len: 30, goal: 11, ring: false };
    for start in 0..30 {
        for alg in OPTIMAL {
            let report = run(alg, &p, &start, &Limits::default(), &mut quiet()).unwrap();
            assert_eq!(
                report.outcome,
                Outcome::Solved(vec![if start < 11 { 1 } else { -1 }; start.abs_diff(11) as usize])
            );
        }
    }
}

/// Counting up to 10 by ones and twos, one way only: the goal 3 cannot be reached from 5, but searching
/// backward from 3 with the forward moves "reaches" 5.
struct OneWay;

impl Puzzle for OneWay {
    type State = u32;
    type Move = ();

    fn successors(&self, &x: &u32, mut visit: impl FnMut((), u32)) {
        for y in [x + 1, x + 2] {
            if y <= 10 {
                visit((), y);
            }
        }
    }

    fn is_goal(&self, &x: &u32) -> bool {
        x == 3
    }

    fn goal(&self) -> Option<u32> {
        Some(3)
    }
}

#[test]
fn bidirectional_search_on_irreversible_moves_is_an_error_not_a_wrong_answer() {
    let result = run(Algorithm::Bibfs, &OneWay, &5, &Limits::default(), &mut quiet());
    assert_eq!(result.unwrap_err(), SearchError::NotReplayable { step: 0 });
    assert_eq!(
        run(Algorithm::Bfs, &OneWay, &5, &Limits::default(), &mut quiet()).unwrap().outcome,
        Outcome::Unsolvable
    );
    let forward = run(Algorithm::Bibfs, &OneWay, &0, &Limits::default(), &mut quiet()).unwrap();
    assert_eq!(forward.outcome, Outcome::Solved(vec![(); 2]));
}

#[test]
fn progress_reports_each_new_depth_of_ida_and_astar() {
    // h = 0 on a ring: IDA* raises its bound by one a round, and A* meets every f from 0 to the answer.
    let p = Line { len: 40, goal: 9, ring: true };
    for alg in [Algorithm::Ida, Algorithm::Astar, Algorithm::Bfs] {
        let mut depths = Vec::new();
        let report = run(alg, &p, &0, &Limits::default(), &mut |progress| {
            if let Progress::Depth { depth, .. } = progress {
                depths.push(*depth);
            }
        })
        .unwrap();
        assert_eq!(report.outcome, Outcome::Solved(vec![1; 9]), "{alg:?}");
        let expected: Vec<u32> = if alg == Algorithm::Bfs { (1..9).collect() } else { (0..=9).collect() };
        assert_eq!(depths, expected, "{alg:?}");
    }
}
