//! The generic search algorithms on sliding tiles, against ground truth: every 2x3 position and a
//! deterministic sample of 3x3 positions, each answer replayed.

use puzzle::exhaustive::distances;
use puzzle::tiles_search::{blind, linear_conflict, manhattan, TilePuzzle};
use puzzle::{Board, State};
use search::{astar, run, Algorithm, AstarOptions, Limits, Outcome, Puzzle, Report};

const OPTIMAL: [Algorithm; 4] = [Algorithm::Bfs, Algorithm::Bibfs, Algorithm::Astar, Algorithm::Ida];

fn board(s: &str) -> Board {
    s.parse().unwrap()
}

/// Every `step`-th position of `board` in packed order, and the first two at every distance, with their
/// true distances.
fn sample(board: Board, step: usize) -> Vec<(u64, u8)> {
    let mut all: Vec<(u64, u8)> = distances(board).into_iter().collect();
    all.sort_unstable();
    let mut per_distance = [0; 256];
    let mut sample: Vec<(u64, u8)> = all.iter().copied().step_by(step).collect();
    sample.extend(all.iter().filter(|&&(_, d)| std::mem::replace(&mut per_distance[d as usize], 1) == 0));
    sample.extend(all.iter().filter(|&&(_, d)| std::mem::replace(&mut per_distance[d as usize], 2) == 1));
    sample
}

/// The moves of a solved report, checked to replay from `start` to the goal.
fn replayed(board: Board, start: u64, report: &Report<u8>) -> Vec<u8> {
    let Outcome::Solved(moves) = &report.outcome else { panic!("{start:x}: {:?}", report.outcome) };
    let state = State::unpack(board, start).unwrap();
    state.replay(moves).unwrap_or_else(|e| panic!("{state}: {moves:?} does not replay: {e}"));
    moves.clone()
}

fn check_optimal<H: Fn(&State) -> u32>(puzzle: &TilePuzzle<H>, positions: &[(u64, u8)], algorithms: &[Algorithm]) {
    for &(start, dist) in positions {
        for &alg in algorithms {
            let report = run(alg, puzzle, &start, &Limits::default(), &mut |_| {}).unwrap();
            let moves = replayed(puzzle.board(), start, &report);
            assert_eq!(moves.len(), dist as usize, "{alg:?} from {start:x}");
            assert!(report.stats.peak_stored > 0 && report.stats.peak_bytes > 0, "{alg:?}: {:?}", report.stats);
        }
    }
}

#[test]
fn every_2x3_position_gets_its_true_distance_from_every_algorithm() {
    let b = board("2x3");
    let all = sample(b, 1);
    assert_eq!(all.len(), 360 + 2 * 22, "every position, and two repeated at each distance 0..=21");
    check_optimal(&manhattan(b).unwrap(), &all, &OPTIMAL);
    check_optimal(&blind(b).unwrap(), &all, &[Algorithm::Astar, Algorithm::Ida]);
}

#[test]
fn a_3x3_sample_gets_its_true_distance() {
    let b = board("3x3");
    let positions = sample(b, 601);
    assert!(positions.len() > 300);
    // Odd and even lengths, short and long, for the bidirectional join in particular.
    let lengths: std::collections::BTreeSet<u8> = positions.iter().map(|p| p.1).collect();
    assert_eq!(lengths.len(), 32, "{lengths:?}");
    check_optimal(&linear_conflict(b).unwrap(), &positions, &[Algorithm::Bibfs, Algorithm::Astar, Algorithm::Ida]);
    check_optimal(&manhattan(b).unwrap(), &positions[..positions.len() / 4], &[Algorithm::Bfs, Algorithm::Astar]);
}

#[test]
fn the_two_hardest_3x3_positions_take_31_moves_both_ways() {
    let b = board("3x3");
    let hardest: Vec<(u64, u8)> = distances(b).into_iter().filter(|&(_, d)| d == 31).collect();
    assert_eq!(hardest.len(), 2);
    check_optimal(&manhattan(b).unwrap(), &hardest, &OPTIMAL);
}

#[test]
fn greedy_finds_a_path_that_replays() {
    for (name, step) in [("2x3", 1), ("3x3", 997), ("2x4", 211)] {
        let b = board(name);
        let p = linear_conflict(b).unwrap();
        for (start, dist) in sample(b, step) {
            let report = run(Algorithm::Greedy, &p, &start, &Limits::default(), &mut |_| {}).unwrap();
            assert!(replayed(b, start, &report).len() >= dist as usize);
        }
    }
}

#[test]
fn wrong_parity_is_unsolvable_without_expanding() {
    let b = board("3x3");
    let start = State::from_tiles(b, &[0, 2, 1, 3, 4, 5, 6, 7, 8]).unwrap().pack();
    for alg in OPTIMAL.into_iter().chain([Algorithm::Greedy]) {
        let report = run(alg, &manhattan(b).unwrap(), &start, &Limits::default(), &mut |_| {}).unwrap();
        assert_eq!(report.outcome, Outcome::Unsolvable, "{alg:?}");
        assert_eq!(report.stats.expanded, 0, "{alg:?}");
    }
}

/// Admissible (never above Manhattan) and inconsistent: it drops to zero on about half the positions, so
/// f can fall along a path and a state can be reached more cheaply after it was expanded.
fn patchy(s: &State) -> u32 {
    if s.pack().wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 63 == 0 {
        s.manhattan()
    } else {
        0
    }
}

#[test]
fn astar_with_reopening_stays_optimal_under_an_inconsistent_heuristic() {
    let b = board("3x3");
    let p: TilePuzzle<_> = TilePuzzle::new(b, patchy).unwrap();
    let positions = sample(b, 601);
    let inconsistent = positions.iter().any(|&(s, _)| {
        let mut drop = false;
        p.successors(&s, |_, t| drop |= p.heuristic(&s) > p.heuristic(&t) + 1);
        drop
    });
    assert!(inconsistent, "the heuristic must really be inconsistent for this test to mean anything");
    for &(start, dist) in &positions {
        let report = astar(&p, &start, &Limits::default(), AstarOptions { reopen: true }, &mut |_| {}).unwrap();
        assert_eq!(replayed(b, start, &report).len(), dist as usize);
    }
}

#[test]
fn progress_reports_every_bfs_layer() {
    let b = board("3x3");
    let (start, dist) = sample(b, 1).into_iter().find(|&(_, d)| d == 20).unwrap();
    let mut depths = Vec::new();
    let report = run(Algorithm::Bfs, &blind(b).unwrap(), &start, &Limits::default(), &mut |p| {
        if let search::Progress::Depth { depth, .. } = p {
            depths.push(*depth)
        }
    })
    .unwrap();
    replayed(b, start, &report);
    assert_eq!(depths, (1..dist as u32).collect::<Vec<_>>());
}

/// Boards over 16 cells take 128-bit keys: every algorithm solves a position a known number of moves from
/// the goal on each such shape, and a 64-bit key is refused for them rather than packed wrongly.
#[test]
fn boards_over_16_cells_are_searched_with_wide_keys() {
    for name in ["3x6", "4x5", "2x9", "5x5", "2x12", "3x8", "4x6"] {
        let b = board(name);
        assert!(manhattan(b).is_err(), "{name}");
        let p: TilePuzzle<_, u128> = TilePuzzle::new(b, |s: &State| s.manhattan()).unwrap();
        // A 14-move random walk from the goal (xorshift, fixed seed): IDA* gives its optimal length, and
        // the other optimal algorithms must agree.
        let mut s = State::goal(b);
        let mut rng = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..14 {
            let moves: Vec<u8> = {
                let mut m = Vec::new();
                p.successors(&s.pack_wide(), |tile, _| m.push(tile));
                m
            };
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            assert!(s.move_tile(moves[rng as usize % moves.len()]));
        }
        let start = s.pack_wide();
        let ida = run(Algorithm::Ida, &p, &start, &Limits::default(), &mut |_| {}).unwrap();
        let Outcome::Solved(best) = &ida.outcome else { panic!("{name}: {:?}", ida.outcome) };
        s.replay(best).unwrap();
        for alg in [Algorithm::Bfs, Algorithm::Bibfs, Algorithm::Astar, Algorithm::Greedy, Algorithm::Dfs] {
            let r = run(alg, &p, &start, &Limits::default(), &mut |_| {}).unwrap();
            let Outcome::Solved(moves) = &r.outcome else { panic!("{name} {alg:?}: {:?}", r.outcome) };
            s.replay(moves).unwrap_or_else(|e| panic!("{name} {alg:?}: {e}"));
            if alg.optimal() {
                assert_eq!(moves.len(), best.len(), "{name} {alg:?}");
            }
        }
        assert_eq!(p.state(start), Some(s));
        assert_eq!(p.state(1 << 127), None);
    }
}
