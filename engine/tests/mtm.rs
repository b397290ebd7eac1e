//! The multi-tile metric: the walking-distance estimate against exact MTM distances of every position of
//! small boards, and the search's lengths against them.

use engine::mtm::mtm_length;
use engine::{Limits, MtmSolver};
use harness::mtm_distances;
use puzzle::{Board, State};
use search::rng::SplitMix64;
use std::collections::HashMap;

fn board(r: usize, c: usize) -> Board {
    Board::new(r, c).unwrap()
}

/// The estimate never exceeds the exact MTM distance, on every solvable position; with the tables and with
/// the line-distance bound that replaces them on large boards. It is 0 only at the goal.
#[test]
fn estimate_is_admissible_on_every_position() {
    for b in [board(2, 3), board(3, 2), board(3, 3), board(2, 4), board(4, 2)] {
        let dist = mtm_distances(b, u8::MAX);
        assert_eq!(dist.len(), (1..=b.cells()).product::<usize>() / 2, "{b}: every solvable position");
        for solver in [MtmSolver::new(b), MtmSolver::with_max_states(b, 0)] {
            let mut gained = 0u64;
            for (&key, &d) in &dist {
                let s = State::unpack_wide(b, key).unwrap();
                let h = solver.estimate(&s);
                assert!(h <= d as u32, "{b} {}: estimate {h} > distance {d} for {:?}", solver.name(), s.tiles());
                assert_eq!(h == 0, d == 0, "{b}: estimate 0 exactly at the goal");
                gained += h as u64;
            }
            // Not a trivial bound: on average it is most of the distance (the tables) or some of it.
            let total: u64 = dist.values().map(|&d| d as u64).sum();
            assert!(gained * 3 > total, "{b} {}: estimates sum {gained} of {total}", solver.name());
        }
    }
}

/// The tables are the strong term: on 3x3 they beat the line-distance bound on average.
#[test]
fn tables_beat_the_line_bound() {
    let b = board(3, 3);
    let dist = mtm_distances(b, u8::MAX);
    let (wd, line) = (MtmSolver::new(b), MtmSolver::with_max_states(b, 0));
    assert_eq!(wd.name(), "mtm-walking-distance");
    let sum =
        |s: &MtmSolver| -> u64 { dist.keys().map(|&k| s.estimate(&State::unpack_wide(b, k).unwrap()) as u64).sum() };
    assert!(sum(&wd) > sum(&line));
}

/// Every `step`-th position in key order, with its distance.
fn sample(b: Board, dist: &HashMap<u128, u8>, step: usize) -> Vec<(State, u8)> {
    let mut all: Vec<(u128, u8)> = dist.iter().map(|(&k, &v)| (k, v)).collect();
    all.sort_unstable();
    all.iter().step_by(step).map(|&(k, v)| (State::unpack_wide(b, k).unwrap(), v)).collect()
}

fn check_solution(solver: &MtmSolver, s: &State, d: u8) {
    let r = solver.solve(s, &Limits::default()).unwrap();
    let moves = r.moves().expect("solved");
    let end = s.replay(moves).expect("the moves replay to the goal");
    assert!(end.is_goal());
    assert_eq!(mtm_length(s, moves), d as usize, "{:?}: MTM length", s.tiles());
    assert_eq!(r.bound, d as u32);
}

/// Every position of 2x2, 2x3 and 3x2, and samples of 3x3 and 2x4, solved in exactly their MTM distance (with the
/// tables, and with the weaker bound, which must find the same lengths).
#[test]
fn solutions_are_mtm_optimal_on_small_boards() {
    for (b, step) in
        [(board(2, 2), 1), (board(2, 3), 1), (board(3, 2), 1), (board(3, 3), 97), (board(2, 4), 41), (board(4, 2), 43)]
    {
        let dist = mtm_distances(b, u8::MAX);
        let solvers = [MtmSolver::new(b), MtmSolver::with_max_states(b, 0)];
        for (s, d) in sample(b, &dist, step) {
            for solver in &solvers {
                check_solution(solver, &s, d);
            }
        }
    }
}

/// Random short scrambles of 4x4 (and 5x5, whose axes take the line bound) against a breadth-first ball of
/// exact MTM distances around the goal; those outside it must come out longer than its radius.
#[test]
fn random_scrambles_of_large_boards() {
    for (b, radius, walks) in [(Board::FOUR, 7u8, 40), (board(5, 5), 5, 8)] {
        let ball = mtm_distances(b, radius);
        let solver = MtmSolver::new(b);
        let mut rng = SplitMix64::new(7);
        let mut inside = 0;
        for i in 0..walks {
            let s = puzzle::random::random_walk(b, 8 + i % 16, &mut rng);
            match ball.get(&s.pack_wide()) {
                Some(&d) => {
                    inside += 1;
                    check_solution(&solver, &s, d)
                }
                None => {
                    let r = solver.solve(&s, &Limits::default()).unwrap();
                    assert!(r.bound > radius as u32, "{:?} is outside the ball", s.tiles());
                    assert!(s.replay(r.moves().unwrap()).is_ok());
                }
            }
        }
        assert!(inside >= walks / 4, "{b}: {inside} of {walks} walks inside the ball");
    }
}

/// Solving refuses an unsolvable position and one of another board, with an error rather than a panic.
#[test]
fn bad_positions_are_refused() {
    let b = board(3, 3);
    let solver = MtmSolver::new(b);
    let swapped = State::from_tiles(b, &[0, 2, 1, 3, 4, 5, 6, 7, 8]).unwrap();
    assert!(matches!(solver.solve(&swapped, &Limits::default()), Err(engine::Error::Unsolvable)));
    let other = State::goal(board(2, 3));
    assert!(matches!(solver.solve(&other, &Limits::default()), Err(engine::Error::WrongBoard { .. })));
}

/// A node limit stops the search with a stop, not a wrong answer.
#[test]
fn limits_stop_the_search() {
    let s = harness::korf(&["1"]).remove(0).state;
    let limits = Limits { search: search::Limits { nodes: Some(10_000), ..Default::default() }, ..Default::default() };
    let r = MtmSolver::new(Board::FOUR).solve(&s, &limits).unwrap();
    assert_eq!(r.stopped(), Some(engine::Stop::NodeLimit));
}

/// Labellings of small boards for the relabelled-goal table: on 3x3 (read reflected too) and 2x4.
const CLASSES_3X3: [u8; 9] = [0, 1, 1, 2, 2, 1, 3, 3, 2];
const CLASSES_2X4: [u8; 8] = [0, 1, 1, 2, 3, 3, 2, 2];

/// With a relabelled-goal table the estimate stays a lower bound on every position (direct and reflected
/// lookups), is at least the walking distance, beats it somewhere, and the lengths stay the distances.
#[test]
fn class_tables_are_admissible_and_keep_lengths() {
    for (b, labels, step) in [(board(3, 3), &CLASSES_3X3[..], 89), (board(2, 4), &CLASSES_2X4[..], 37)] {
        let dist = mtm_distances(b, u8::MAX);
        let (wd, classes) = (MtmSolver::new(b), MtmSolver::with_classes(b, labels).unwrap());
        assert!(classes.name().ends_with("+classes 0,1,1,2,3,3,2,2") || b != board(2, 4), "{}", classes.name());
        let mut better = 0;
        for (&key, &d) in &dist {
            let s = State::unpack_wide(b, key).unwrap();
            let (h, w) = (classes.estimate(&s), wd.estimate(&s));
            assert!(
                w <= h && h <= d as u32,
                "{b}: walking distance {w}, with classes {h}, distance {d}: {:?}",
                s.tiles()
            );
            better += usize::from(h > w);
        }
        assert!(better > 0, "{b}: the table never beats the walking distance");
        for (s, d) in sample(b, &dist, step) {
            check_solution(&classes, &s, d);
        }
    }
}

/// A labelling that is not one is refused with what is wrong.
#[test]
fn bad_labellings_are_refused() {
    let e = MtmSolver::with_classes(board(3, 3), &[0, 1, 1, 2]).unwrap_err();
    assert!(e.contains("4 labels for 9 tiles"), "{e}");
    let e = MtmSolver::with_classes(board(2, 3), &[0, 1, 0, 1, 1, 1]).unwrap_err();
    assert!(e.contains("blank"), "{e}");
}

/// A kept table is only read, never built, by `with_kept_classes`: nothing when the folder lacks it, the
/// same estimates as a table built in memory when it is there, and an error naming the file when the file
/// is damaged (where `with_classes_in` would build it again).
#[test]
fn kept_class_tables_are_found_read_and_damaged_ones_refused() {
    let b = board(3, 3);
    let d = harness::TempDir::new("engine-kept-classes");
    assert!(MtmSolver::with_kept_classes(b, &CLASSES_3X3, &d).unwrap().is_none());
    assert_eq!(std::fs::read_dir(&*d).unwrap().count(), 0, "nothing is built when the table is missing");
    MtmSolver::with_classes_in(b, &CLASSES_3X3, Some(&d), &mut |w| panic!("{w}")).unwrap();
    let file = d.join(MtmSolver::classes_file_name(b, &CLASSES_3X3));
    assert_eq!(file.file_name().unwrap(), "mtm-classes-3x3-0-1-1-2-2-1-3-3-2.bin");
    let kept = MtmSolver::with_kept_classes(b, &CLASSES_3X3, &d).unwrap().expect("the table in the folder");
    let built = MtmSolver::with_classes(b, &CLASSES_3X3).unwrap();
    assert_eq!((kept.name(), kept.class_entries()), (built.name(), built.class_entries()));
    for (&key, _) in mtm_distances(b, u8::MAX).iter().step_by(7) {
        let s = State::unpack_wide(b, key).unwrap();
        assert_eq!(kept.estimate(&s), built.estimate(&s), "{:?}", s.tiles());
    }
    // Another labelling's table is not this one's.
    assert!(MtmSolver::with_kept_classes(b, &[0, 1, 1, 1, 2, 2, 2, 3, 3], &d).unwrap().is_none());
    let mut bytes = std::fs::read(&file).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::write(&file, &bytes).unwrap();
    let e = MtmSolver::with_kept_classes(b, &CLASSES_3X3, &d).unwrap_err();
    assert!(e.contains("mtm-classes-3x3-") && e.contains("not a whole table"), "{e}");
    std::fs::write(&file, &bytes[..bytes.len() / 2]).unwrap();
    assert!(MtmSolver::with_kept_classes(b, &CLASSES_3X3, &d).unwrap_err().contains("not a whole table"));
}

/// The search compiled for any processor and the one using BMI2 (where the processor has it) find the same
/// solutions with the same node counts: with the class tables of 3x3 and 2x4, and with the walking distance
/// alone on 4x4 scrambles.
#[test]
fn portable_and_bmi2_searches_agree() {
    let mut rng = SplitMix64::new(5);
    let cases: [(fn() -> MtmSolver, u32); 3] = [
        (|| MtmSolver::with_classes(board(3, 3), &CLASSES_3X3).unwrap(), 30),
        (|| MtmSolver::with_classes(board(2, 4), &CLASSES_2X4).unwrap(), 30),
        (|| MtmSolver::new(Board::FOUR), 24),
    ];
    for (make, walk) in cases {
        let (solver, portable) = (make(), make().portable());
        let b = solver.board();
        for i in 0..12 {
            let s = puzzle::random::random_walk(b, walk + i, &mut rng);
            let (a, p) =
                (solver.solve(&s, &Limits::default()).unwrap(), portable.solve(&s, &Limits::default()).unwrap());
            assert_eq!(a.moves(), p.moves(), "{b} {:?}", s.tiles());
            assert_eq!((a.counts, a.bound, a.iterations), (p.counts, p.bound, p.iterations), "{b} {:?}", s.tiles());
        }
    }
}

/// On several threads the search finds the solution one thread finds, with the same nodes in every iteration
/// (the work items are searched in the serial order, and those after the first solution do not count): on
/// 4x4 scrambles with the walking distance, on 3x3 with a class table, and on 5x5 (the line bound) short
/// walks, whose iterations are small enough that the items are cut close to the root.
#[test]
fn threads_find_the_one_thread_solution_with_its_nodes() {
    let mut rng = SplitMix64::new(11);
    let cases: [(MtmSolver, u32, u32); 3] = [
        (MtmSolver::new(Board::FOUR), 30, 10),
        (MtmSolver::with_classes(board(3, 3), &CLASSES_3X3).unwrap(), 40, 10),
        (MtmSolver::new(board(5, 5)), 14, 4),
    ];
    for (solver, walk, runs) in cases {
        let b = solver.board();
        for i in 0..runs {
            let s = puzzle::random::random_walk(b, walk + i, &mut rng);
            let one = solver.solve(&s, &Limits::default()).unwrap();
            for threads in [2, 3] {
                let many = solver.solve_with(&s, threads, &Limits::default()).unwrap();
                assert_eq!(many.moves(), one.moves(), "{b} {:?} on {threads} threads", s.tiles());
                assert_eq!(many.per_iteration, one.per_iteration, "{b} {:?} on {threads} threads", s.tiles());
                assert_eq!((many.counts, many.bound), (one.counts, one.bound));
            }
        }
    }
}

/// On several threads a node limit still stops the search, with a stop and no solution, and a search that
/// is not stopped solves the goal itself at once.
#[test]
fn threads_stop_at_limits() {
    let s = harness::korf(&["1"]).remove(0).state;
    let limits = Limits { search: search::Limits { nodes: Some(50_000), ..Default::default() }, ..Default::default() };
    let solver = MtmSolver::new(Board::FOUR);
    let r = solver.solve_with(&s, 2, &limits).unwrap();
    assert_eq!(r.stopped(), Some(engine::Stop::NodeLimit));
    assert!(r.moves().is_none());
    let goal = solver.solve_with(&State::goal(Board::FOUR), 2, &Limits::default()).unwrap();
    assert_eq!(goal.moves(), Some(&[][..]));
}
