//! The search with dual lookups (`Settings::with_dual`): its lookups equal the exhaustively checked
//! estimate of `engine::dual` (of the position and its reflection), and its solutions are optimal: every
//! position of 2x3, a sample of every position of 3x3 and 2x4 against breadth-first distances, random 3x4
//! and 4x4 positions against the default search, with plain and blank-aware tables. An iteration that finds
//! no solution visits no node more than the default search's at the same bound: the estimate is never
//! lower, and BPMX only prunes.

use engine::dual::{DualEstimate, DualLookups};
use engine::{HeuristicChoice, Limits, Lookups, Report, Settings, Solver, TableSpec};
use harness::{bfs_distances, TempDir};
use puzzle::partition::Partition;
use puzzle::pdb_file::{Expect, Kind, PdbFile};
use puzzle::random::{random_position, random_walk};
use puzzle::{Board, State};
use search::rng::SplitMix64;
use std::path::Path;
use std::sync::Arc;

/// Builds the tables of `partition` of `kind` into `dir`.
fn build(board: Board, partition: &str, kind: Kind, dir: &Path) {
    for pattern in &Partition::parse(board, partition).unwrap().patterns {
        let path = dir.join(kind.file_name(board, pattern));
        let labels = pdb_builder::labels_for(board, pattern, kind, None);
        pdb_builder::build_table_with(board, pattern, labels, &path, &mut |_| {}).unwrap();
    }
}

/// The tables of `partition` in `dir`, in pattern order.
fn open(board: Board, partition: &str, kind: Kind, dir: &Path) -> Vec<PdbFile> {
    let p = Partition::parse(board, partition).unwrap();
    p.patterns
        .iter()
        .map(|pat| PdbFile::open(&dir.join(kind.file_name(board, pat)), &Expect::default()).unwrap())
        .collect()
}

/// The solver of `partition`'s tables in `dir`, with dual lookups or without.
fn solver(board: Board, partition: &str, dir: &Path, dual: bool) -> Solver {
    let spec = TableSpec { dir: dir.to_path_buf(), partitions: vec![partition.into()], lookups: Lookups::Reflected };
    let settings = Settings::default().with_dual(dual);
    Solver::new(board, HeuristicChoice::Pdb, &spec, settings, &mut |_| {}).unwrap()
}

/// Each iteration both searches ran at the same bound without finding a solution: the dual search's
/// counts are no higher. Returns how many nodes fewer it expanded in them.
fn no_more_nodes(s: &State, plain: &Report, dual: &Report) -> u64 {
    let done = |r: &Report| r.per_iteration[..r.per_iteration.len().saturating_sub(1)].to_vec();
    let mut fewer = 0;
    for d in done(dual) {
        if let Some(p) = done(plain).into_iter().find(|p| p.bound == d.bound) {
            assert!(
                d.counts.expanded <= p.counts.expanded && d.counts.generated <= p.counts.generated,
                "{s}: bound {}: {:?} with dual lookups, {:?} without",
                d.bound,
                d.counts,
                p.counts
            );
            fewer += p.counts.expanded - d.counts.expanded;
        }
    }
    fewer
}

/// On every position of `board`, the search's dual lookups are the larger of the estimate of the position and
/// of its reflection (square boards), never above the distance; read with a limit, they are exact within it
/// and over it otherwise, never above the full value.
fn lookups_match(board: &str, partition: &str, kind: Kind) -> usize {
    let board: Board = board.parse().unwrap();
    let dir = TempDir::new(&format!("dual-lookups-{board}-{}", kind.name()));
    build(board, partition, kind, &dir);
    let files = open(board, partition, kind, &dir);
    let est = DualEstimate::new(board, &files);
    let lookups = DualLookups::new(board, Arc::new(open(board, partition, kind, &dir)), true);
    let mut cut = 0;
    for (&packed, &d) in &bfs_distances(board) {
        let s = State::unpack(board, packed).unwrap();
        let mut want = est.estimate(&s);
        if board.is_square() {
            want = want.max(est.estimate(&s.transposed()));
        }
        let (tiles, blank) = (s.tile_array(), s.blank());
        let full = lookups.estimate(&tiles, blank, u32::MAX);
        assert_eq!(full, want, "{board} {partition} {}: {s}", kind.name());
        assert!(full <= d as u32, "{s}: {full} over the distance {d}");
        for limit in full.saturating_sub(6)..full {
            let h = lookups.estimate(&tiles, blank, limit);
            assert!(h > limit && h <= full, "{s}: {h} at limit {limit}, full {full}");
            cut += (h < full) as usize;
        }
    }
    cut
}

#[test]
fn the_searchs_dual_lookups_are_the_checked_estimate_of_the_position_and_its_reflection() {
    let mut cut = 0;
    for (board, partition) in [("2x3", "2-3"), ("3x3", "4-4"), ("2x4", "1,2,3/4,5,6,7")] {
        for kind in [Kind::Plain, Kind::BlankAware] {
            cut += lookups_match(board, partition, kind);
        }
    }
    // A limit must stop the readings somewhere, or the lazy path is untested.
    assert!(cut > 0, "a limit never stopped the readings early");
}

/// Solves every `step`-th position of `board` with and without dual lookups: lengths equal the
/// breadth-first distance, solutions replay, and finished iterations visit no more nodes with them.
fn optimal_on_every_position(board: &str, partition: &str, kind: Kind, step: usize) {
    let board: Board = board.parse().unwrap();
    let dir = TempDir::new(&format!("dual-solve-{board}-{}", kind.name()));
    build(board, partition, kind, &dir);
    let (plain, dual) = (solver(board, partition, &dir, false), solver(board, partition, &dir, true));
    assert!(dual.name().ends_with(" + dual"), "{}", dual.name());
    let mut distances: Vec<(u64, u8)> = bfs_distances(board).into_iter().collect();
    distances.sort_unstable();
    let (mut fewer, mut solved) = (0, 0);
    for (k, &(packed, d)) in distances.iter().enumerate().filter(|(k, _)| k % step == 0) {
        let s = State::unpack(board, packed).unwrap();
        let threads = 1 + k % 2;
        let (p, r) = (
            plain.solve_with(&s, threads, &Limits::default()).unwrap(),
            dual.solve_with(&s, threads, &Limits::default()).unwrap(),
        );
        let moves = r.moves().unwrap();
        assert_eq!(moves.len(), d as usize, "{board} {partition} {}: {s}", kind.name());
        s.replay(moves).unwrap();
        fewer += no_more_nodes(&s, &p, &r);
        solved += 1;
    }
    assert!(solved > 300, "{board}: only {solved} positions");
    assert!(fewer > 0, "{board} {partition} {}: the dual lookups never saved a node", kind.name());
}

#[test]
fn dual_lookups_find_optimal_solutions_on_2x3_3x3_and_2x4() {
    for kind in [Kind::Plain, Kind::BlankAware] {
        optimal_on_every_position("2x3", "2-3", kind, 1);
        optimal_on_every_position("3x3", "4-4", kind, 97);
        optimal_on_every_position("2x4", "1,2,3/4,5,6,7", kind, 23);
    }
}

#[test]
fn dual_lookups_find_optimal_solutions_on_random_3x4_and_4x4_positions() {
    let mut rng = SplitMix64::new(0xd0a15);
    for (board, partition, count) in [("3x4", "1,2,3,4,5/6,7,8,9,10,11", 30), ("4x4", "5-5-5", 15)] {
        let board: Board = board.parse().unwrap();
        for kind in [Kind::Plain, Kind::BlankAware] {
            let dir = TempDir::new(&format!("dual-random-search-{board}-{}", kind.name()));
            build(board, partition, kind, &dir);
            let (plain, dual) = (solver(board, partition, &dir, false), solver(board, partition, &dir, true));
            let mut fewer = 0;
            for k in 0..count {
                let s = if board.cells() == 16 {
                    random_walk(board, 60, &mut rng)
                } else {
                    random_position(board, &mut rng)
                };
                let threads = 1 + k % 2;
                let p = plain.solve_with(&s, threads, &Limits::default()).unwrap();
                let r = dual.solve_with(&s, threads, &Limits::default()).unwrap();
                let moves = r.moves().unwrap();
                assert_eq!(moves.len(), p.moves().unwrap().len(), "{board} {}: {s}", kind.name());
                s.replay(moves).unwrap();
                fewer += no_more_nodes(&s, &p, &r);
            }
            assert!(fewer > 0, "{board} {}: the dual lookups never saved a node", kind.name());
        }
    }
}

#[test]
fn dual_lookups_are_refused_without_one_partition_of_tables_and_in_textbook_mode() {
    let board = "3x3".parse::<Board>().unwrap();
    let dir = TempDir::new("dual-refused");
    build(board, "4-4", Kind::Plain, &dir);
    let spec = |partitions: Vec<String>| TableSpec { dir: dir.to_path_buf(), partitions, lookups: Lookups::Reflected };
    let dual = Settings::default().with_dual(true);
    let err = |choice, spec: &TableSpec, settings: Settings| {
        Solver::new(board, choice, spec, settings, &mut |_| {}).err().expect("refused").to_string()
    };
    let none = err(HeuristicChoice::LinearConflict, &spec(vec![]), dual);
    assert!(none.contains("dual lookups read tables"), "{none}");
    let two = err(HeuristicChoice::Pdb, &spec(vec!["4-4".into(), "4-4".into()]), dual);
    assert!(two.contains("one partition of 2 to 4 tables, not 2"), "{two}");
    let textbook =
        err(HeuristicChoice::Pdb, &spec(vec!["4-4".into()]), dual.with_textbook(Some(puzzle::Goal::BlankFirst)));
    assert!(textbook.contains("textbook"), "{textbook}");
}
