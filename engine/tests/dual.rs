//! Which dual estimates of the tile puzzle are admissible, settled exhaustively on boards small enough to
//! enumerate, with tables built by the real builder (plain and blank-aware), and on random positions of 3x4
//! and 4x4 against optimal lengths. The argument is in `engine::dual`'s module doc.

use engine::dual::{Dual, DualEstimate};
use engine::{HeuristicChoice, Limits, Lookups, Settings, Solver, TableSpec};
use harness::{bfs_distances, TempDir};
use puzzle::partition::Partition;
use puzzle::pdb_file::{Expect, Kind, PdbFile};
use puzzle::random::{random_position, random_walk};
use puzzle::{Board, State};
use search::rng::SplitMix64;
use std::path::Path;

/// Builds the tables of `partition` of `kind` into `dir` and opens them in pattern order.
fn tables(board: Board, partition: &str, kind: Kind, dir: &Path) -> Vec<PdbFile> {
    let p = Partition::parse(board, partition).unwrap();
    p.patterns
        .iter()
        .map(|pattern| {
            let path = dir.join(kind.file_name(board, pattern));
            let labels = pdb_builder::labels_for(board, pattern, kind, None);
            pdb_builder::build_table_with(board, pattern, labels, &path, &mut |_| {}).unwrap();
            PdbFile::open(&path, &Expect::default()).unwrap()
        })
        .collect()
}

/// The two readings the module doc rejects, for the counterexamples.
struct Rejected {
    /// The inverse read as an ordinary position (tile 0 its blank).
    inverse: u32,
    /// The acting blank's reading without the goal shift `δ`.
    unshifted: u32,
}

fn rejected(est: &DualEstimate, board: Board, partition: &[PdbFile], s: &State) -> Rejected {
    let dual = Dual::of(s);
    let b = dual.acting_blank;
    let mut r = Rejected { inverse: 0, unshifted: board.manhattan(0, dual.cells[0] as usize) };
    for (p, table) in partition.iter().enumerate() {
        let tiles = table.header.tiles.clone();
        let cells: Vec<u8> = tiles.iter().map(|&t| dual.cells[t as usize]).collect();
        r.inverse += est.value(p, &cells, dual.cells[0] as usize);
        r.unshifted += if tiles.contains(&b) {
            est.manhattan(&tiles, &cells) - board.manhattan(b as usize, 0)
        } else {
            est.value(p, &cells, 0)
        };
    }
    r
}

/// Every solvable position of `board`: the dual estimate never overestimates and has the distance's parity;
/// returns (positions where it beats the regular lookup, where the inverse overestimates, where the unshifted
/// reading does).
fn exhaustive(board: Board, partition: &str, kind: Kind) -> (usize, usize, usize) {
    let dir = TempDir::new(&format!("dual-{board}-{}", kind.name()));
    let files = tables(board, partition, kind, &dir);
    let est = DualEstimate::new(board, &files);
    let spec = TableSpec { dir: dir.to_path_buf(), partitions: vec![partition.into()], lookups: Lookups::Regular };
    let regular = Solver::new(board, HeuristicChoice::Pdb, &spec, Settings::default(), &mut |_| {}).unwrap();
    let (mut better, mut inverse_over, mut unshifted_over) = (0, 0, 0);
    let (mut acting_wins, mut home_wins) = (0, 0);
    for (&packed, &d) in &bfs_distances(board) {
        let s = State::unpack(board, packed).unwrap();
        let (h, d) = (est.estimate(&s), d as u32);
        assert!(h <= d, "{board} {partition} {}: {s}: dual estimate {h}, true distance {d}", kind.name());
        assert_eq!((d - h) % 2, 0, "{s}: parity");
        better += (h > regular.estimate(&s)) as usize;
        let (acting, home) = (est.acting_blank(&s), est.via_home(&s).unwrap_or(0));
        acting_wins += (acting > home) as usize;
        home_wins += (home > acting) as usize;
        let r = rejected(&est, board, &files, &s);
        inverse_over += (r.inverse > d) as usize;
        unshifted_over += (r.unshifted > d) as usize;
    }
    eprintln!(
        "{board} {partition} {}: acting blank above the walk home on {acting_wins}, below on {home_wins}",
        kind.name()
    );
    (better, inverse_over, unshifted_over)
}

#[test]
fn the_shifted_dual_is_admissible_on_every_small_position_and_the_simpler_readings_are_not() {
    let mut inverse_over = 0;
    let mut unshifted_over = 0;
    for (board, partition) in [("2x3", "2-3"), ("3x3", "4-4"), ("3x3", "1,2,3/4,5,6,7,8"), ("2x4", "1,2,3/4,5,6,7")] {
        let board: Board = board.parse().unwrap();
        for kind in [Kind::Plain, Kind::BlankAware] {
            let (better, inv, unsh) = exhaustive(board, partition, kind);
            eprintln!("{board} {partition} {}: dual above regular on {better}, inverse over on {inv}, unshifted over on {unsh}", kind.name());
            // The dual must add something somewhere, or admissibility proves little.
            assert!(better > 0, "{board} {partition}: the dual never beats the regular lookup");
            inverse_over += inv;
            unshifted_over += unsh;
        }
    }
    assert!(inverse_over > 0, "the plain inverse never overestimated: its counterexample is gone");
    assert!(unshifted_over > 0, "the unshifted reading never overestimated: the shift would be needless");
}

/// What a dual search's jump relies on: a position whose blank is home is exactly as far from the goal as its
/// dual, an ordinary position then; with the blank elsewhere the inverse is often at another distance.
#[test]
fn a_blank_home_position_and_its_dual_are_equally_far_and_others_need_not_be() {
    for board in ["2x3", "3x3", "2x4"] {
        let board: Board = board.parse().unwrap();
        let dist = bfs_distances(board);
        let (mut home, mut changed, mut elsewhere_differ) = (0, 0, 0);
        for (&packed, &d) in &dist {
            let s = State::unpack(board, packed).unwrap();
            let dual = Dual::of(&s);
            match dual.home_position(board) {
                Some(t) => {
                    assert_eq!(s.blank(), 0);
                    assert_eq!(dist.get(&t.pack()), Some(&d), "{board} {s}: its dual {t} is at another distance");
                    home += 1;
                    changed += (t != s) as usize;
                }
                None => {
                    assert_ne!(s.blank(), 0);
                    let mut inverse = [0u8; puzzle::MAX_CELLS];
                    for (cell, &tile) in s.tiles().iter().enumerate() {
                        inverse[tile as usize] = cell as u8;
                    }
                    let t = State::from_tiles(board, &inverse[..board.cells()]).unwrap();
                    elsewhere_differ += (dist.get(&t.pack()) != Some(&d)) as usize;
                }
            }
        }
        assert_eq!(
            home,
            dist.len() / board.cells(),
            "{board}: a position in every {} has its blank home",
            board.cells()
        );
        assert!(changed > home / 2, "{board}: the dual is mostly the position itself: not an inverse");
        assert!(
            elsewhere_differ > 0,
            "{board}: the inverse of every position is as far: the restriction would be needless"
        );
    }
}

#[test]
fn the_simpler_readings_overestimate_the_recorded_counterexamples() {
    // The plain inverse on 2x3 (16 with these tables, 17 with a reflection added as first recorded).
    let board: Board = "2x3".parse().unwrap();
    let dir = TempDir::new("dual-counterexample-2x3");
    let files = tables(board, "2-3", Kind::Plain, &dir);
    let est = DualEstimate::new(board, &files);
    let s = State::from_tiles(board, &[4, 5, 3, 0, 1, 2]).unwrap();
    let d = bfs_distances(board)[&s.pack()] as u32;
    assert_eq!((rejected(&est, board, &files, &s).inverse, d), (16, 11), "the inverse's estimate, the true distance");
    assert!(est.estimate(&s) <= d);

    // The acting blank without the shift on 3x3: the blank is on cell 7, so tile 7 plays it, and the home of
    // tiles 1-3 walls cell 0 in, away from cell 7 (a shift of 4, which the admissible estimate takes off).
    let board: Board = "3x3".parse().unwrap();
    let dir = TempDir::new("dual-counterexample-3x3");
    let files = tables(board, "1,2,3/4,5,6,7,8", Kind::Plain, &dir);
    let est = DualEstimate::new(board, &files);
    let s = State::from_tiles(board, &[3, 1, 2, 4, 8, 7, 6, 0, 5]).unwrap();
    let d = bfs_distances(board)[&s.pack()] as u32;
    assert_eq!((rejected(&est, board, &files, &s).unshifted, d), (11, 7), "the unshifted estimate, the true distance");
    assert_eq!(est.shift(0, 7), Some(4));
    assert!(est.estimate(&s) <= d);
}

#[test]
fn the_goal_shift_is_what_a_blank_aware_table_holds_at_home() {
    // With every region labelled, the home placement's entry for the region of cell b is exactly δ.
    for (board, partition) in [("3x3", "4-4"), ("4x4", "5-5-5"), ("2x4", "1,2,3/4,5,6,7")] {
        let board: Board = board.parse().unwrap();
        let dir = TempDir::new(&format!("dual-shift-{board}"));
        let files = tables(board, partition, Kind::BlankAware, &dir);
        let est = DualEstimate::new(board, &files);
        for (p, f) in files.iter().enumerate() {
            let home = f.header.tiles.clone();
            for b in (0..board.cells()).filter(|b| !home.contains(&(*b as u8))) {
                assert_eq!(est.shift(p, b).map(u32::from), Some(est.value(p, &home, b)), "{board} pattern {p} b {b}");
            }
        }
    }
}

#[test]
fn the_dual_never_exceeds_optimal_lengths_on_random_3x4_and_4x4_positions() {
    let mut rng = SplitMix64::new(0xd0a1);
    for (board, partition, count) in [("3x4", "1,2,3,4,5/6,7,8,9,10,11", 40), ("4x4", "5-5-5", 25)] {
        let board: Board = board.parse().unwrap();
        for kind in [Kind::Plain, Kind::BlankAware] {
            let dir = TempDir::new(&format!("dual-random-{board}-{}", kind.name()));
            let files = tables(board, partition, kind, &dir);
            let est = DualEstimate::new(board, &files);
            let spec =
                TableSpec { dir: dir.to_path_buf(), partitions: vec![partition.into()], lookups: Lookups::Reflected };
            let sv = Solver::new(board, HeuristicChoice::Pdb, &spec, Settings::default(), &mut |_| {}).unwrap();
            for _ in 0..count {
                let s = if board.cells() == 16 {
                    random_walk(board, 60, &mut rng)
                } else {
                    random_position(board, &mut rng)
                };
                let d = sv.solve_with(&s, 2, &Limits::default()).unwrap().moves().unwrap().len() as u32;
                let h = est.estimate(&s);
                assert!(h <= d && (d - h).is_multiple_of(2), "{board} {}: {s}: dual {h}, optimal {d}", kind.name());
            }
        }
    }
}
