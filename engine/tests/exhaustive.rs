//! Optimality and admissibility against exhaustive search on boards small enough to enumerate.

use engine::HeuristicChoice;
use engine::Limits;
use harness::{bfs_distances, sample, table_free as solver};
use puzzle::Board;

#[test]
fn manhattan_and_linear_conflict_never_overestimate_on_any_3x3_state() {
    let board: Board = "3x3".parse().unwrap();
    let dist = bfs_distances(board);
    let md = solver(board, HeuristicChoice::Manhattan);
    let lc = solver(board, HeuristicChoice::LinearConflict);
    let mut strictly_better = 0;
    for (&packed, &d) in &dist {
        let s = puzzle::State::unpack(board, packed).unwrap();
        let (m, l) = (md.estimate(&s), lc.estimate(&s));
        assert!(m <= l && l <= d as u32, "{s}: manhattan {m}, linear conflict {l}, true {d}");
        assert_eq!((d as u32 - l) % 2, 0, "{s}: parity");
        strictly_better += (l > m) as usize;
    }
    // Linear conflict must actually add something, or the test above proves nothing about it.
    assert!(strictly_better > 50_000, "{strictly_better}");
}

#[test]
fn ida_is_optimal_on_sampled_3x3_states_serial_and_parallel() {
    let board: Board = "3x3".parse().unwrap();
    let dist = bfs_distances(board);
    let lcs = [1, 3, 8].map(|lanes| (lanes, harness::table_free_lanes(board, HeuristicChoice::LinearConflict, lanes)));
    let md = solver(board, HeuristicChoice::Manhattan);
    for (i, (s, d)) in sample(board, &dist, 600).into_iter().enumerate() {
        for (lanes, lc) in &lcs {
            for threads in [1, 2] {
                let r = lc.solve_with(&s, threads, &Limits::default()).unwrap();
                assert_eq!(r.moves().map(<[u8]>::len), Some(d as usize), "{s} threads {threads} lanes {lanes}");
            }
        }
        if i % 4 == 0 {
            let r = md.solve_with(&s, 1, &Limits::default()).unwrap();
            assert_eq!(r.moves().map(|m| m.len()), Some(d as usize), "{s} manhattan");
        }
    }
}

#[test]
fn every_2x3_state_end_to_end() {
    let board: Board = "2x3".parse().unwrap();
    let dist = bfs_distances(board);
    assert_eq!(dist.len(), 360);
    for choice in [HeuristicChoice::Manhattan, HeuristicChoice::LinearConflict] {
        for lanes in [1, 2, 3, 5] {
            let sv = harness::table_free_lanes(board, choice, lanes);
            for (s, d) in sample(board, &dist, 1) {
                assert!(sv.estimate(&s) <= d as u32);
                for threads in [1, 2, 3] {
                    let r = sv.solve_with(&s, threads, &Limits::default()).unwrap();
                    assert_eq!(
                        r.moves().map(|m| m.len()),
                        Some(d as usize),
                        "{s} {choice:?} threads {threads} lanes {lanes}"
                    );
                }
            }
        }
    }
}

#[test]
fn short_solutions_are_found_below_the_parallel_split_depth() {
    // The parallel search splits a few levels below the root; a goal above that level must still be found,
    // and found at its true depth (not at the split depth).
    let board = Board::FOUR;
    let lc = solver(board, HeuristicChoice::LinearConflict);
    let mut s = puzzle::State::goal(board);
    for (k, dir) in [puzzle::Dir::Right, puzzle::Dir::Down, puzzle::Dir::Right, puzzle::Dir::Down, puzzle::Dir::Left]
        .into_iter()
        .enumerate()
    {
        s.move_blank(dir);
        for threads in [1, 2, 4] {
            let r = lc.solve_with(&s, threads, &Limits::default()).unwrap();
            assert_eq!(r.moves().map(|m| m.len()), Some(k + 1), "{s} threads {threads}");
        }
    }
    let goal = lc.solve_with(&puzzle::State::goal(board), 2, &Limits::default()).unwrap();
    assert_eq!(goal.moves(), Some(&[][..]));
}

#[test]
fn limits_stop_the_search_with_a_lower_bound() {
    let s =
        puzzle::parse_tiles(Board::FOUR, puzzle::Goal::BlankFirst, "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3").unwrap();
    let lc = solver(Board::FOUR, HeuristicChoice::LinearConflict);
    let limits = search::Limits { nodes: Some(100_000), ..search::Limits::default() };
    for threads in [1, 2] {
        let r = lc.solve_with(&s, threads, &Limits { search: limits.clone(), ..Limits::default() }).unwrap();
        assert_eq!((r.moves(), r.stopped()), (None, Some(engine::Stop::NodeLimit)));
        assert!(r.bound >= r.root_h && r.bound <= 57);
    }
    let cancel = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    let limits = search::Limits { cancel: Some(cancel), ..search::Limits::default() };
    let r = lc.solve_with(&s, 1, &Limits { search: limits, ..Limits::default() }).unwrap();
    assert_eq!(r.stopped(), Some(engine::Stop::Cancelled));
}
