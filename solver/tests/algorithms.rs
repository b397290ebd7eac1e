//! The minimum-step toolkit from the command line: `solve --algorithm` for every algorithm, memory limits,
//! and `explore` against the known figures of small boards.

use harness::{run, TempDir};
use std::process::Output;

const BIN: &str = env!("CARGO_BIN_EXE_solver");
/// Korf's #9 (46 moves): far beyond what breadth-first search can store in a small container.
const KORF9: &str = "3 14 9 11 5 4 8 2 13 12 6 7 10 1 15 0";

fn solver(args: &[&str]) -> Output {
    run(BIN, args, b"")
}

fn json(o: &Output) -> serde_json::Value {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&o.stdout).unwrap()
}

#[test]
fn explore_gives_the_known_figures_and_its_farthest_positions_are_that_far() {
    let v = json(&solver(&["explore", "--board", "3x3", "--format", "json"]));
    assert_eq!((v["reachable"].as_u64(), v["max_distance"].as_u64()), (Some(181_440), Some(31)));
    let counts: Vec<u64> = v["counts"].as_array().unwrap().iter().map(|c| c.as_u64().unwrap()).collect();
    assert_eq!(counts.iter().sum::<u64>(), 181_440);
    let farthest: Vec<&str> = v["farthest"].as_array().unwrap().iter().map(|p| p.as_str().unwrap()).collect();
    assert_eq!((farthest.len(), v["farthest_total"].as_u64()), (2, Some(2)));
    for p in farthest {
        let s = json(&solver(&["solve", "--board", "3x3", "--heuristic", "linear-conflict", "--format", "json", p]));
        assert_eq!(s["length"], 31, "{p}");
    }
    let v = json(&solver(&["explore", "--board", "2x4", "--format", "json"]));
    assert_eq!(v["reachable"], 20_160);
    // Too big for the memory it may use: a usage error before anything is allocated.
    let o = solver(&["explore", "--board", "4x4"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains(
        "exploring 4x4 needs 4.76 TiB (2 bits for each of its 20,922,789,888,000 permutations), over the limit of"
    ));
}

/// In a container whose cgroup allows 100 MiB, `explore` refuses a board needing more (exit 2) instead of
/// being killed by the kernel: its default limit is what the cgroup leaves when that is less than 4 GiB.
#[test]
fn explore_honours_a_cgroup_memory_limit() {
    let Some(container) = harness::fake_cgroup_limit(100 << 20) else { return };
    let Some(o) = harness::run_in_namespace(&container, BIN, &["explore", "--board", "3x4"]) else { return };
    assert_eq!(o.status.code(), Some(2), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stderr).contains("over the limit of 100 MiB"));
}

/// Without --memory-limit, a search that stores states stops at the memory the container leaves (a limit,
/// recorded) instead of growing until the kernel kills it.
#[test]
fn a_search_stops_at_the_memory_a_container_leaves() {
    let Some(container) = harness::fake_cgroup_limit(30 << 20) else { return };
    let args = ["solve", "--algorithm", "bfs", "--time-limit", "20", "--format", "json", KORF9];
    let Some(o) = harness::run_in_namespace(&container, BIN, &args) else { return };
    assert_eq!(o.status.code(), Some(3), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert!(v["error"].as_str().unwrap().starts_with("memory limit"), "{v}");
}

#[test]
fn every_algorithm_finds_the_same_length_and_says_which_ran() {
    // Positions of 3x3 at several distances, among them one of the two farthest (31 moves).
    let empty = TempDir::new("alg-no-tables");
    let no_tables = empty.to_str().unwrap();
    let cases =
        [("8 7 6 0 4 1 2 5 3", 31), ("1 2 0 3 4 5 6 7 8", 2), ("3 1 2 6 4 5 0 7 8", 2), ("3 1 2 4 0 5 6 7 8", 2)];
    for (tiles, length) in cases {
        for alg in ["ida", "astar", "bfs", "bibfs"] {
            let args = ["solve", "--board", "3x3", "--algorithm", alg, "--threads", "2", "--pdbs", no_tables, tiles];
            let args = [&args[..], &["--format", "json"]].concat();
            let v = json(&solver(&[&args[..], &["--heuristic", "manhattan"]].concat()));
            assert_eq!((v["length"].as_u64(), v["algorithm"].as_str()), (Some(length), Some(alg)), "{alg} {tiles}");
            assert_eq!(v["peak_stored"].is_null(), alg == "ida", "{alg}");
            // The record says what ran: the library's searches on one thread, the breadth-first ones with
            // no heuristic (and so no estimate of the start).
            let (threads, heuristic) = match alg {
                "ida" => (2, "manhattan"),
                "astar" => (1, "manhattan"),
                _ => (1, "none"),
            };
            assert_eq!((v["threads"].as_u64(), v["heuristic"].as_str()), (Some(threads), Some(heuristic)), "{alg}");
            assert_eq!(v["root_h"].is_null(), heuristic == "none", "{alg}");
            // Left to choose (`auto`, no tables here), none warns: linear conflict solves a 3x3 in
            // milliseconds (a 4x4 without tables is warned of, in `cli.rs`).
            let o = solver(&args);
            assert!(o.status.success(), "{alg}: {}", String::from_utf8_lossy(&o.stderr));
            assert!(o.stderr.is_empty(), "{alg}: {}", String::from_utf8_lossy(&o.stderr));
        }
        // Greedy: some solution, not promised shortest; a known length is not checked against it.
        let line = format!("g {length} {tiles}");
        let v = json(&solver(&["solve", "--board", "3x3", "--algorithm", "greedy", "--format", "json", &line]));
        assert!(v["length"].as_u64().unwrap() >= length);
        assert!(v["matched"].is_null());
    }
}

#[test]
fn a_star_out_of_memory_stops_with_a_limit_not_a_crash() {
    // Korf #1 (57 moves) with Manhattan distance alone: A* would store tens of millions of states.
    let korf1 = "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3";
    let o = solver(&["solve", "--algorithm", "astar", "--heuristic", "manhattan", "--memory-limit", "50M", korf1]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(3), "{out}{}", String::from_utf8_lossy(&o.stderr));
    assert!(out.starts_with("status limit (memory limit: stopped at ") && out.contains("stored states"), "{out}");
    let o = solver(&["solve", "--algorithm", "bfs", "--memory-limit", "lots", korf1]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("'lots' is not a memory size"));
}

#[test]
fn batch_runs_any_algorithm_and_records_it() {
    let d = TempDir::new("alg-batch");
    let input = d.file("in.txt", "a 2 1 2 0 3 4 5 6 7 8\nb 31 8 7 6 0 4 1 2 5 3\n");
    let out = d.path("out.jsonl");
    let o = run(
        BIN,
        &["batch", input.to_str().unwrap(), "--board", "3x3", "--algorithm", "bibfs", "-o", out.to_str().unwrap()],
        b"",
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(&out).unwrap();
    let recs: Vec<serde_json::Value> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(recs.len(), 2);
    for r in &recs {
        assert_eq!((r["algorithm"].as_str(), r["matched"].as_bool()), (Some("bibfs"), Some(true)), "{r}");
    }
}

/// On a terminal (here a pseudo-terminal from `script`), the library's searches say each new depth on
/// stderr; piped, they say nothing.
#[test]
fn library_searches_show_their_depths_on_a_terminal_only() {
    let command = format!("{BIN} solve --board 3x3 --algorithm bfs '8 7 6 0 4 1 2 5 3'");
    let o = std::process::Command::new("script").args(["-qec", &command, "/dev/null"]).output().unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("bfs: depth 1: 4 states stored, 1 expanded"), "{text}");
    assert!(text.contains("length 31"), "{text}");
    let o = solver(&["solve", "--board", "3x3", "--algorithm", "bfs", "8 7 6 0 4 1 2 5 3"]);
    assert!(o.stderr.is_empty(), "{}", String::from_utf8_lossy(&o.stderr));
}

/// What a batch's progress line reads while an instance runs: every algorithm keeps the shared counters
/// up to date, IDA* with its bound and the library's searches with their depth, and none prints for it.
#[test]
fn every_algorithm_publishes_its_depth_and_nodes_for_other_threads() {
    use adapters::tiles::algorithm::{self, Follow};
    use search::Algorithm;
    use std::sync::Arc;
    let board: puzzle::Board = "3x3".parse().unwrap();
    let sv = harness::table_free(board, engine::HeuristicChoice::Manhattan);
    let state = puzzle::parse_tiles(board, puzzle::Goal::BlankFirst, "8 7 6 0 4 1 2 5 3").unwrap();
    for alg in [Algorithm::Ida, Algorithm::Bfs, Algorithm::Astar] {
        let live = Arc::new(engine::Live::default());
        let limits = search::Limits::default();
        let follow = Follow { live: Some(Arc::clone(&live)), ..Follow::default() };
        let searched = algorithm::solve(&sv, alg, &state, 1, &limits, follow).unwrap();
        let length = match &searched.outcome {
            engine::Outcome::Solved(moves) => moves.len() as u32,
            other => panic!("{alg:?}: {other:?}"),
        };
        assert_eq!(length, 31, "{alg:?}");
        // IDA*'s last bound and A*'s last f are the length; breadth-first search's last finished layer is
        // one short of the goal's.
        assert!(live.depth() >= 30 && live.depth() <= 31, "{alg:?}: depth {}", live.depth());
        assert!(live.expanded() > 0 && live.expanded() <= searched.counts.expanded, "{alg:?}");
    }
}

/// Every algorithm on every board shape the user guide advertises, the wide ones (over 16 cells) among them: a
/// 14-move walk from the goal, solved by each, optimal ones to the same length, in `solve` and in `batch`.
#[test]
fn every_algorithm_solves_every_board_shape() {
    let empty = TempDir::new("alg-shapes");
    let no_tables = empty.to_str().unwrap();
    for board in ["2x2", "2x3", "3x3", "2x4", "3x4", "4x4", "2x8", "3x6", "4x5", "3x7", "2x12", "3x8", "4x6", "5x5"] {
        let gen = solver(&["generate", "--board", board, "--count", "1", "--seed", "5", "--walk", "14"]);
        assert!(gen.status.success(), "{board}: {}", String::from_utf8_lossy(&gen.stderr));
        let text = String::from_utf8(gen.stdout).unwrap();
        let position = text.lines().last().unwrap();
        let mut optimal = None;
        for alg in ["ida", "astar", "bfs", "bibfs", "greedy", "dfs"] {
            let args = ["solve", "--board", board, "--algorithm", alg, "--pdbs", no_tables, "--format", "json"];
            let v = json(&solver(&[&args[..], &[position.trim()]].concat()));
            let length = v["length"].as_u64().unwrap_or_else(|| panic!("{board} {alg}: {v}"));
            if matches!(alg, "greedy" | "dfs") {
                assert!(length >= optimal.unwrap(), "{board} {alg}");
            } else {
                assert_eq!(*optimal.get_or_insert(length), length, "{board} {alg}");
            }
        }
        // A batch with the library's algorithms writes its record too (it once left an empty file).
        let dir = TempDir::new("alg-shapes-batch");
        let input = dir.file("in.txt", position);
        let out = dir.path("out.jsonl");
        let args = ["batch", "--board", board, "--algorithm", "astar", "--pdbs", no_tables, "--output"];
        let o = solver(&[&args[..], &[out.to_str().unwrap(), input.to_str().unwrap()]].concat());
        assert!(o.status.success(), "{board}: {}", String::from_utf8_lossy(&o.stderr));
        let record: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
        assert_eq!(record["length"].as_u64(), optimal, "{board}");
    }
}

/// Breadth-first search consults no heuristic: asking for one is said to be ignored, and `pdb` then needs
/// no tables.
#[test]
fn a_heuristic_for_breadth_first_search_is_said_to_be_ignored() {
    let empty = TempDir::new("bfs-heuristic");
    let args = ["solve", "--board", "3x3", "--algorithm", "bfs", "--heuristic", "pdb", "--format", "json"];
    let o = solver(&[&args[..], &["--pdbs", empty.to_str().unwrap(), "1 2 0 3 4 5 6 7 8"]].concat());
    assert!(String::from_utf8_lossy(&o.stderr).contains("bfs consults no heuristic; --heuristic pdb is ignored"));
    let v = json(&o);
    assert_eq!((v["length"].as_u64(), v["heuristic"].as_str()), (Some(2), Some("none")));
}
