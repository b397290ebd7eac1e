//! The PDB heuristic against exhaustive truth on small boards, with tables built by the real builder, and
//! what the solver does with a bad table.

use engine::Limits;
use engine::{HeuristicChoice, Lookups, Settings, Solver, TableSpec};
use harness::{bfs_distances, sample, table_free, TempDir};
use puzzle::partition::{file_name, Partition};
use puzzle::pdb_file::Kind;
use puzzle::{Board, State};
use std::collections::HashMap;
use std::path::Path;

/// Builds every plain table of `partition` into `dir` with the builder's library.
fn build(board: Board, partition: &str, dir: &Path) {
    build_kind(board, partition, dir, Kind::Plain, None)
}

/// Builds every table of `partition` of `kind` into `dir` (blank-aware ones with up to `cap` entries a
/// placement).
fn build_kind(board: Board, partition: &str, dir: &Path, kind: Kind, cap: Option<u32>) {
    let p = Partition::parse(board, partition).unwrap();
    for pattern in &p.patterns {
        let labels = pdb_builder::labels_for(board, pattern, kind, cap);
        let path = dir.join(kind.file_name(board, pattern));
        pdb_builder::build_table_with(board, pattern, labels, &path, &mut |_| {}).unwrap();
    }
}

fn pdb_solver(board: Board, partition: &str, dir: &Path, lookups: Lookups) -> Solver {
    let spec = TableSpec { dir: dir.to_path_buf(), partitions: vec![partition.to_string()], lookups };
    Solver::new(board, HeuristicChoice::Pdb, &spec, Settings::default(), &mut |w| panic!("unexpected warning {w}"))
        .unwrap()
}

/// Asserts that `sv` solves every `step`-th position of `dist` (sorted) in its true distance, serially and on
/// two threads.
fn assert_optimal(sv: &Solver, board: Board, dist: &HashMap<u64, u8>, step: usize, what: &str) {
    for (s, d) in sample(board, dist, step) {
        for threads in [1, 2] {
            let r = sv.solve_with(&s, threads, &Limits::default()).unwrap();
            assert_eq!(r.moves().map(|m| m.len()), Some(d as usize), "{what}: {s} threads {threads}");
        }
    }
}

/// Asserts on every position of `dist` that `lower`'s estimate <= `sv`'s <= the true distance, of the true
/// distance's parity; returns on how many `sv`'s is above `lower`'s.
fn count_above(lower: &Solver, sv: &Solver, board: Board, dist: &HashMap<u64, u8>, what: &str) -> usize {
    let mut above = 0;
    for (&packed, &d) in dist {
        let s = State::unpack(board, packed).unwrap();
        let (l, h) = (lower.estimate(&s), sv.estimate(&s));
        assert!(l <= h && h <= d as u32, "{what}: {s}: {l} below, {h}, true {d}");
        assert_eq!((d as u32 - h) % 2, 0, "{what}: {s}");
        above += (h > l) as usize;
    }
    above
}

/// For every lookup variant: admissible on every state, at least Manhattan, right parity; optimal IDA* on a
/// sample, serial and parallel.
fn check_against_bfs(board: Board, partitions: &[&str], step: usize) {
    let dist = bfs_distances(board);
    let dir = TempDir::new(&format!("pdb-{board}"));
    let md = table_free(board, HeuristicChoice::Manhattan);
    for partition in partitions {
        build(board, partition, &dir);
    }
    for (partition, lookups) in partitions.iter().flat_map(|p| [Lookups::Regular, Lookups::Reflected].map(|l| (p, l))) {
        let sv = pdb_solver(board, partition, &dir, lookups);
        let what = format!("{partition} {lookups:?}, Manhattan below");
        let above_md = count_above(&md, &sv, board, &dist, &what);
        assert!(
            above_md > 0 || partition.split('/').count() == board.cells() - 1,
            "{partition}: the tables add nothing"
        );
        assert_optimal(&sv, board, &dist, step, &what);
    }
}

#[test]
fn three_by_three_pdbs_with_reflection_are_admissible_and_optimal() {
    // Two patterns (the catalogue's 4-4), three patterns, and single tiles (which is Manhattan exactly).
    check_against_bfs("3x3".parse().unwrap(), &["4-4", "1,2/3,4,5/6,7,8", "1/2/3/4/5/6/7/8"], 500);
}

#[test]
fn non_square_boards_use_the_plain_lookup() {
    check_against_bfs("2x3".parse().unwrap(), &["2-3"], 1);
    check_against_bfs("2x4".parse().unwrap(), &["1,2,3/4,5,6,7"], 50);
}

#[test]
fn korf_instances_with_5_5_5_tables_match_their_known_lengths() {
    let dir = TempDir::new("pdb-555");
    build(Board::FOUR, "5-5-5", &dir);
    let svs = [Lookups::Regular, Lookups::Reflected].map(|l| pdb_solver(Board::FOUR, "5-5-5", &dir, l));
    let easy = ["2", "5", "8", "9", "12", "16", "18", "21", "34", "38", "39", "55"];
    let instances = harness::korf(&easy);
    for inst in &instances {
        for sv in &svs {
            let r = sv.solve_with(&inst.state, 2, &Limits::default()).unwrap();
            assert_eq!(
                r.moves().map(|m| m.len() as u32),
                inst.optimal,
                "Korf #{} {}",
                inst.id.as_deref().unwrap(),
                sv.name()
            );
        }
    }
    assert_eq!(instances.len(), easy.len());
}

#[test]
fn a_corrupt_or_mismatched_table_is_an_error_not_a_wrong_heuristic() {
    let board: Board = "3x3".parse().unwrap();
    let dir = TempDir::new("pdb-corrupt");
    build(board, "4-4", &dir);
    let s = puzzle::parse_tiles(board, puzzle::Goal::BlankFirst, "8 6 7 2 5 4 3 0 1").unwrap();
    let table = dir.join("3x3-1-2-3-4.pdb");
    let bytes = std::fs::read(&table).unwrap();

    // A flipped payload byte: tables load instantly, but no result comes out of them.
    let mut flipped = bytes.clone();
    flipped[4096 + 17] ^= 0x10;
    std::fs::write(&table, &flipped).unwrap();
    let sv = pdb_solver(board, "4-4", &dir, Lookups::Reflected);
    let err = sv.solve_with(&s, 1, &Limits::default()).unwrap_err().to_string();
    assert!(err.contains("3x3-1-2-3-4.pdb") && err.contains("payload checksum mismatch"), "{err}");

    // Truncated by one byte: refused on open.
    std::fs::write(&table, &bytes[..bytes.len() - 1]).unwrap();
    let spec = TableSpec { dir: dir.to_path_buf(), partitions: vec!["4-4".into()], lookups: Lookups::Reflected };
    for choice in [HeuristicChoice::Pdb, HeuristicChoice::Auto] {
        let err = format!(
            "{:#}",
            Solver::new(board, choice, &spec, Settings::default(), &mut |_| {}).err().expect("must fail")
        );
        assert!(err.contains("3x3-1-2-3-4.pdb") && err.contains("truncated"), "{err}");
    }

    // A table for another pattern under this pattern's name.
    std::fs::copy(dir.join("3x3-5-6-7-8.pdb"), &table).unwrap();
    let err = format!(
        "{:#}",
        Solver::new(board, HeuristicChoice::Pdb, &spec, Settings::default(), &mut |_| {}).err().expect("must fail")
    );
    assert!(err.contains("expected board 3x3, tiles [1, 2, 3, 4]"), "{err}");
}

/// One rule for `auto`: a table that is there but corrupt is an error even when another is missing (an
/// overnight batch must not silently run a hundred times slower); only a folder without a complete set
/// falls back, with a warning naming what it found; with no partition named, the strongest complete set in
/// the folder is used, and the choice is said.
#[test]
fn auto_uses_the_strongest_complete_set_and_never_skips_a_corrupt_table() {
    let board = Board::FOUR;
    let dir = TempDir::new("auto-rule");
    build(board, "5-5-5", &dir);
    let spec = |partition: Option<&str>| TableSpec {
        dir: dir.to_path_buf(),
        partitions: partition.into_iter().map(String::from).collect(),
        lookups: Lookups::Reflected,
    };
    let load = |partition: Option<&str>| {
        let mut said = Vec::new();
        let sv = Solver::new(board, HeuristicChoice::Auto, &spec(partition), Settings::default(), &mut |w| {
            said.push(w.to_string())
        });
        (sv, said)
    };
    let (sv, said) = load(None);
    assert_eq!(sv.unwrap().name(), "pdb 5-5-5 + reflection");
    assert_eq!(said.len(), 1, "{said:?}");
    assert!(said[0].contains("using the 5-5-5 tables") && said[0].contains("no complete 7-8, 6-6-3 set"), "{said:?}");

    // 6-6-3 partly there: one of its tables corrupt, another missing. An error, not a fallback.
    let p663 = Partition::parse(board, "6-6-3").unwrap();
    let first = dir.join(file_name(board, &p663.patterns[0]));
    std::fs::write(&first, b"not a table").unwrap();
    for partition in [None, Some("6-6-3")] {
        let err = load(partition).0.err().expect("a corrupt table must fail").to_string();
        assert!(err.contains(first.file_name().unwrap().to_str().unwrap()), "{partition:?}: {err}");
        assert!(!err.contains("falling back"), "{err}");
    }

    // Nothing complete, nothing corrupt: linear conflict, with a warning that says what is there.
    std::fs::remove_file(&first).unwrap();
    let (sv, said) = load(Some("6-6-3"));
    assert_eq!(sv.unwrap().name(), "linear-conflict");
    assert!(said[0].contains("no complete set") && said[0].contains("6-6-3: 0 of 3 tables"), "{said:?}");
}

/// On 5x5, `auto` looks first for 7-6-6-5 and 6-6-6-6 together (their estimates maxed): a folder without
/// them gets linear conflict, and the warning gives the two builds that make the pair, the second
/// blank-aware.
#[test]
fn auto_on_5x5_names_the_builds_of_the_combined_default() {
    let board: Board = "5x5".parse().unwrap();
    let dir = TempDir::new("auto-5x5");
    let spec = TableSpec { dir: dir.to_path_buf(), partitions: Vec::new(), lookups: Lookups::Reflected };
    let mut said = Vec::new();
    let sv = Solver::new(board, HeuristicChoice::Auto, &spec, Settings::default(), &mut |w| said.push(w.to_string()));
    assert_eq!(sv.unwrap().name(), "linear-conflict");
    let d = dir.display();
    let want = format!(
        "(build them with: pdb-builder build --board 5x5 --partition 7-6-6-5 --out {d}; pdb-builder build --board \
         5x5 --partition 6-6-6-6 --blank-aware --labels 2 --out {d})"
    );
    assert!(said.len() == 1 && said[0].ends_with(&want), "{said:?}");
    assert!(said[0].contains("7-6-6-5: 0 of 4 tables; 6-6-6-6: 0 of 4 tables)"), "{said:?}");
}

/// Two partitions given (two tables each, and two against three): the estimate is on every 3x3 position
/// exactly the larger of the two sets' (so admissible), each set wins somewhere, and searches with it are
/// optimal, serial and parallel; so with three and four sets. More sets, or a set of more tables than the
/// combined heuristic holds, are refused by name.
#[test]
fn two_partitions_give_the_larger_estimate_and_stay_optimal() {
    let board: Board = "3x3".parse().unwrap();
    let dist = bfs_distances(board);
    let dir = TempDir::new("pdb-max");
    // Blocks of the first rows against columns: they cut the tiles apart differently.
    let (a, b) = ("4-4", "1,4,7/2,5,8/3,6");
    build(board, a, &dir);
    build(board, b, &dir);
    let spec = |names: &[&str]| TableSpec {
        dir: dir.to_path_buf(),
        partitions: names.iter().map(|n| n.to_string()).collect(),
        lookups: Lookups::Reflected,
    };
    let open = |names: &[&str], choice| {
        Solver::new(board, choice, &spec(names), Settings::default(), &mut |w| panic!("unexpected warning {w}"))
    };
    // Two tables in each set (nodes of the smaller kind) and two against three.
    let rows = "1,2,4,5/3,6,7,8";
    build(board, rows, &dir);
    for (b, tables) in [(b, 5), (rows, 4)] {
        let max = open(&[a, b], HeuristicChoice::Pdb).unwrap();
        assert_eq!(max.name(), format!("pdb max({a}, {b}) + reflection"));
        assert_eq!(open(&[a, b], HeuristicChoice::Auto).unwrap().name(), max.name());
        assert_eq!(max.tables().len(), tables);
        let (sa, sb) = (pdb_solver(board, a, &dir, Lookups::Reflected), pdb_solver(board, b, &dir, Lookups::Reflected));
        let (mut a_wins, mut b_wins) = (0, 0);
        for (&packed, &d) in &dist {
            let s = State::unpack(board, packed).unwrap();
            let (h, ha, hb) = (max.estimate(&s), sa.estimate(&s), sb.estimate(&s));
            assert_eq!(h, ha.max(hb), "{s}");
            assert!(h <= d as u32, "{s}: {h} over the true {d}");
            a_wins += (ha > hb) as usize;
            b_wins += (hb > ha) as usize;
        }
        assert!(a_wins > 0 && b_wins > 0, "{a} higher on {a_wins}, {b} on {b_wins}: one adds nothing");
        assert_optimal(&max, board, &dist, 500, max.name());
    }

    // Three sets, and four (the fourth the first again, its tables read once): the largest of the sets'
    // estimates, which the third raises somewhere over the first two; a fifth set is refused by name.
    let singles = [a, b, rows].map(|p| pdb_solver(board, p, &dir, Lookups::Reflected));
    for names in [&[a, b, rows][..], &[a, b, rows, a]] {
        let max = open(names, HeuristicChoice::Pdb).unwrap();
        assert_eq!(max.name(), format!("pdb max({}) + reflection", names.join(", ")));
        let mut third_raises = 0;
        for (&packed, &d) in &dist {
            let s = State::unpack(board, packed).unwrap();
            let h: Vec<u32> = singles.iter().map(|sv| sv.estimate(&s)).collect();
            assert_eq!(max.estimate(&s), h[0].max(h[1]).max(h[2]), "{s}");
            third_raises += (h[2] > h[0].max(h[1])) as usize;
            assert!(h[2] <= d as u32);
        }
        assert!(third_raises > 0, "{rows} never above both of {a} and {b}");
        assert_optimal(&max, board, &dist, 500, max.name());
    }
    for choice in [HeuristicChoice::Pdb, HeuristicChoice::Auto] {
        let err = open(&[a, b, a, b, a], choice).err().expect("five sets").to_string();
        assert!(err.contains("5 partitions named") && err.contains("at most 4"), "{err}");
    }
    // Under auto, both sets must be complete, or it falls back and says what each has.
    let unbuilt = "1,2/3,4,5,6,7,8";
    let mut said = Vec::new();
    let sv = Solver::new(board, HeuristicChoice::Auto, &spec(&[a, unbuilt]), Settings::default(), &mut |w| {
        said.push(w.to_string())
    });
    assert_eq!(sv.unwrap().name(), "linear-conflict");
    assert!(said[0].contains("4-4: 2 of 2 tables") && said[0].contains(&format!("{unbuilt}: 0 of 2")), "{said:?}");
    assert!(said[0].contains(&format!("--partition {unbuilt} ")) && !said[0].contains("--partition 4-4"), "{said:?}");

    let five = "1,2,3,4/5/6/7/8";
    build(board, five, &dir);
    let err = open(&[a, five], HeuristicChoice::Pdb).err().expect("five tables").to_string();
    assert!(err.contains("at most 4 tables each; one has 5"), "{err}");
}

/// Blank-aware tables on every 3x3 position: admissible, never below the plain tables of the same partition
/// and above them somewhere, with both lookups; searches with them optimal, serial and parallel; with both
/// kinds in the folder the solver takes the blank-aware ones; and two or three sets of them give the largest
/// estimate (two tables against two, and against three).
/// The third partition's tables keep two entries a placement, the second serving every region but the first.
#[test]
fn blank_aware_tables_are_admissible_never_weaker_and_optimal() {
    let board: Board = "3x3".parse().unwrap();
    let dist = bfs_distances(board);
    let (plain, blank) = (TempDir::new("pdb-plain"), TempDir::new("pdb-blank"));
    let partitions = ["4-4", "1,2/3,4,5/6,7,8", "1,4,7/2,5,8/3,6", "1,2,4,5/3,6,7,8"];
    for partition in partitions {
        build(board, partition, &plain);
        let cap = (partition == partitions[2]).then_some(2);
        build_kind(board, partition, &blank, Kind::BlankAware, cap);
    }
    build(board, "4-4", &blank);
    for (partition, lookups) in partitions.iter().flat_map(|p| [Lookups::Regular, Lookups::Reflected].map(|l| (p, l))) {
        let (sp, sb) = (pdb_solver(board, partition, &plain, lookups), pdb_solver(board, partition, &blank, lookups));
        assert!(
            sb.tables().iter().all(|(path, _)| path.to_string_lossy().ends_with(".blank.pdb")),
            "{:?}",
            sb.tables()
        );
        assert!(sb.name().contains("blank-aware"), "{}", sb.name());
        let what = format!("{partition} {lookups:?}, blank-aware over plain");
        assert!(count_above(&sp, &sb, board, &dist, &what) > 0, "{what}: never above");
        assert_optimal(&sb, board, &dist, 500, &what);
    }
    // Two sets of two tables (the smaller nodes), two against three (the capped one), and three sets.
    let one = |p| pdb_solver(board, p, &blank, Lookups::Reflected);
    for sets in [
        &[partitions[0], partitions[3]][..],
        &[partitions[0], partitions[2]],
        &[partitions[0], partitions[2], partitions[3]],
    ] {
        let spec = TableSpec {
            dir: blank.to_path_buf(),
            partitions: sets.iter().map(|p| p.to_string()).collect(),
            lookups: Lookups::Reflected,
        };
        let max = Solver::new(board, HeuristicChoice::Pdb, &spec, Settings::default(), &mut |w| panic!("{w}")).unwrap();
        let singles: Vec<Solver> = sets.iter().map(|p| one(p)).collect();
        for (&packed, &d) in &dist {
            let s = State::unpack(board, packed).unwrap();
            let h = max.estimate(&s);
            assert_eq!(h, singles.iter().map(|sv| sv.estimate(&s)).max().unwrap(), "{sets:?}: {s}");
            assert!(h <= d as u32);
        }
        assert_optimal(&max, board, &dist, 500, max.name());
    }
}
