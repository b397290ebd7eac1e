//! The user's path through both tools: build tables with `pdb-builder`, check them, solve with `solver`.
//!
//! The binaries are found next to this test executable (`cargo test --workspace` builds them); the tables
//! are small 3x3 ones, so exhaustive search gives the truth.

use harness::TempDir;
use puzzle::{Board, State};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn bin(name: &str) -> PathBuf {
    static BUILT: std::sync::Once = std::sync::Once::new();
    let exe = std::env::current_exe().unwrap();
    let dir = exe.parent().unwrap().parent().unwrap();
    let path = dir.join(name);
    // `cargo test --workspace` has built both binaries; `cargo test -p harness` alone has not.
    BUILT.call_once(|| {
        if !dir.join("solver").exists() || !dir.join("pdb-builder").exists() {
            let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
            let ok = Command::new(cargo)
                .args(["build", "-p", "solver", "-p", "pdb-builder"])
                .status()
                .is_ok_and(|s| s.success());
            assert!(ok, "could not build the solver and pdb-builder binaries");
        }
    });
    assert!(path.exists(), "{} is missing: run `cargo test --workspace` or `cargo build` first", path.display());
    path
}

fn run(name: &str, args: &[&str]) -> Output {
    Command::new(bin(name)).args(args).output().unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn build(dir: &Path) {
    let o = run(
        "pdb-builder",
        &["build", "--board", "3x3", "--partition", "4-4", "--out", dir.to_str().unwrap(), "--quiet"],
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
}

#[test]
fn built_tables_verify_describe_themselves_and_solve_optimally() {
    let dir = TempDir::new("solve");
    build(&dir);
    let d = dir.to_str().unwrap();
    let o = run("pdb-builder", &["verify", d]);
    assert!(o.status.success(), "{}{}", text(&o.stdout), text(&o.stderr));
    let o = run("pdb-builder", &["info", "--format", "json", &format!("{d}/3x3-1-2-3-4.pdb")]);
    let info: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(info["tiles"], serde_json::json!([1, 2, 3, 4]));
    assert_eq!(info["entries"], 3024);
    let hist: u64 = info["histogram"].as_array().unwrap().iter().map(|c| c.as_u64().unwrap()).sum();
    assert_eq!(hist, 3024);

    // A deterministic spread of positions, all solved through the CLI with the tables, lengths exact.
    let board: Board = "3x3".parse().unwrap();
    let dist = puzzle::exhaustive::distances(board);
    let mut keys: Vec<&u64> = dist.keys().collect();
    keys.sort_unstable();
    let input: String =
        keys.iter().step_by(4001).map(|&&k| format!("{}\n", State::unpack(board, k).unwrap())).collect();
    let path = dir.join("positions.txt");
    std::fs::write(&path, &input).unwrap();
    let o = Command::new(bin("solver"))
        .args([
            "solve",
            "-",
            "--board",
            "3x3",
            "--heuristic",
            "pdb",
            "--partition",
            "4-4",
            "--pdbs",
            d,
            "--format",
            "json",
        ])
        .stdin(std::fs::File::open(&path).unwrap())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o.stderr));
    let results: Vec<serde_json::Value> = text(&o.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(results.len(), input.lines().count());
    for (line, r) in input.lines().zip(&results) {
        let s = puzzle::parse_tiles(board, puzzle::Goal::BlankFirst, line).unwrap();
        assert_eq!(r["length"].as_u64().unwrap(), dist[&s.pack()] as u64, "{line}");
        assert_eq!(r["heuristic"], "pdb 4-4 + reflection");
    }
}

/// `--partition` twice: both sets are built by the user, the solver maxes their estimates, says so in its
/// records, lists both sets' tables, and every length is exact; a third is refused with a usage error.
#[test]
fn two_partitions_given_take_the_larger_estimate() {
    let dir = TempDir::new("max");
    build(&dir);
    let d = dir.to_str().unwrap();
    let columns = "1,4,7/2,5,8/3,6";
    let o = run("pdb-builder", &["build", "--board", "3x3", "--partition", columns, "--out", d, "--quiet"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let board: Board = "3x3".parse().unwrap();
    let dist = puzzle::exhaustive::distances(board);
    let mut keys: Vec<&u64> = dist.keys().collect();
    keys.sort_unstable();
    let positions: Vec<String> =
        keys.iter().step_by(20011).map(|&&k| State::unpack(board, k).unwrap().to_string()).collect();
    let path = dir.join("positions.txt");
    std::fs::write(&path, positions.join("\n")).unwrap();
    let o = Command::new(bin("solver"))
        .args(["solve", "-", "--board", "3x3", "--heuristic", "pdb", "--pdbs", d, "--format", "json"])
        .args(["--partition", "4-4", "--partition", columns])
        .stdin(std::fs::File::open(&path).unwrap())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o.stderr));
    let results: Vec<serde_json::Value> = text(&o.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(results.len(), positions.len());
    for (p, r) in positions.iter().zip(&results) {
        let s = puzzle::parse_tiles(board, puzzle::Goal::BlankFirst, p).unwrap();
        assert_eq!(r["length"].as_u64().unwrap(), dist[&s.pack()] as u64, "{p}");
        assert_eq!(r["heuristic"], format!("pdb max(4-4, {columns}) + reflection"));
        assert_eq!(r["tables"].as_str().unwrap().split(' ').count(), 5, "{r}");
    }
    let fifth = ["4-4"; 5].iter().flat_map(|p| ["--partition", p]).collect::<Vec<_>>();
    let o = run("solver", &[&["solve", "--board", "3x3", "--pdbs", d, "8 6 7 2 5 4 3 0 1"][..], &fifth].concat());
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert!(text(&o.stderr).contains("at most 4"), "{}", text(&o.stderr));
}

#[test]
fn a_damaged_table_stops_both_tools_with_its_name() {
    let dir = TempDir::new("damaged");
    build(&dir);
    let d = dir.to_str().unwrap();
    let table = dir.join("3x3-5-6-7-8.pdb");
    let mut bytes = std::fs::read(&table).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x11;
    std::fs::write(&table, &bytes).unwrap();

    let o = run("pdb-builder", &["verify", d]);
    assert!(!o.status.success());
    assert!(text(&o.stdout).contains("3x3-5-6-7-8.pdb") || text(&o.stderr).contains("3x3-5-6-7-8.pdb"));

    let o = run(
        "solver",
        &["solve", "--board", "3x3", "--heuristic", "pdb", "--partition", "4-4", "--pdbs", d, "8 6 7 2 5 4 3 0 1"],
    );
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    assert!(o.stdout.is_empty(), "no result may come out of a corrupt table: {}", text(&o.stdout));
    let err = text(&o.stderr);
    assert!(err.contains("3x3-5-6-7-8.pdb") && err.contains("payload checksum mismatch"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

/// A 5x5 board through every command: tables built, verified and described by `pdb-builder`; random walks
/// from `generate` solved by `solve` (tables, linear conflict, the blank-last goal) and by `batch`, whose
/// records `report` reads. Lengths agree across heuristics and goals, and never exceed the walk.
#[test]
fn five_by_five_through_every_command() {
    let dir = TempDir::new("five");
    let d = dir.to_str().unwrap();
    let partition = "1,2,5/6,7,12/3,4,8/9,13,14/10,11,15/16,20,21/17,18,22/19,23,24";
    let o = run("pdb-builder", &["build", "--board", "5x5", "--partition", partition, "--out", d, "--quiet"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let o = run("pdb-builder", &["verify", d]);
    assert!(o.status.success(), "{}{}", text(&o.stdout), text(&o.stderr));
    let o = run("pdb-builder", &["info", "--format", "json", &format!("{d}/5x5-1-2-5.pdb")]);
    let info: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!((info["entries"].as_u64(), info["board"].as_str()), (Some(25 * 24 * 23), Some("5x5")));

    let o = run("solver", &["generate", "--board", "5x5", "--count", "6", "--seed", "25", "--walk", "30"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let positions = dir.file("walks.txt", &text(&o.stdout));
    let solve = |extra: &[&str]| -> Vec<u64> {
        let mut args = vec!["solve", "-", "--board", "5x5", "--format", "json"];
        args.extend_from_slice(extra);
        let stdin = std::fs::File::open(&positions).unwrap();
        let o = Command::new(bin("solver")).args(&args).stdin(stdin).output().unwrap();
        assert!(o.status.success(), "{extra:?}: {}", text(&o.stderr));
        text(&o.stdout)
            .lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["length"].as_u64().unwrap())
            .collect()
    };
    let with_tables = solve(&["--heuristic", "pdb", "--pdbs", d, "--partition", partition]);
    assert_eq!(with_tables.len(), 6);
    assert!(with_tables.iter().all(|&n| n <= 30 && n % 2 == 0), "{with_tables:?}");
    assert_eq!(solve(&["--heuristic", "linear-conflict", "--threads", "2"]), with_tables);

    // The same positions written for the blank-last goal (turned by 180 degrees, tile t renamed 25 - t) are
    // just as far away.
    let flipped: String = text(&std::fs::read(&positions).unwrap())
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            l.split_whitespace()
                .rev()
                .map(|t| ((25 - t.parse::<u32>().unwrap()) % 25).to_string())
                .collect::<Vec<_>>()
                .join(" ")
                + "\n"
        })
        .collect();
    std::fs::write(&positions, flipped).unwrap();
    assert_eq!(solve(&["--heuristic", "linear-conflict", "--goal", "blank-last"]), with_tables);

    let records = dir.path("records.jsonl");
    let o = run(
        "solver",
        &[
            "batch",
            positions.to_str().unwrap(),
            "--board",
            "5x5",
            "--goal",
            "blank-last",
            "--heuristic",
            "linear-conflict",
            "-o",
            records.to_str().unwrap(),
            "--quiet",
        ],
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    let o = run("solver", &["report", "--format", "json", records.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(
        text(&o.stdout).contains("\"solved\":6") || text(&o.stdout).contains("\"solved\": 6"),
        "{}",
        text(&o.stdout)
    );
}
