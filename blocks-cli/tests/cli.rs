//! The `blocks` binary: exit codes, one-line errors for bad levels, JSON records whose moves replay,
//! `--show`, explore, generate reproducible from its seed, and batch.

use std::process::Output;

fn blocks(args: &[&str], stdin: &str) -> Output {
    harness::run(env!("CARGO_BIN_EXE_blocks"), args, stdin.as_bytes())
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn every_bad_level_is_one_line_and_exit_2() {
    for (level, expected) in [
        ("AB/BA B@0,0", "piece A is two separate regions: row 1, col 1 is apart from the cells at row 0, col 0"),
        ("AAB/A.B/... A@1,1", "piece A is not a rectangle: row 1, col 1 inside its bounds is not its"),
        ("AA./..B A@1,2", "goal \"A@1,2\": piece A is 1x2, so at row 1, col 2 it leaves the 2x3 board"),
        ("AA./..B/# A@1,0", "row 2 has 1 cells, but row 0 has 3: every row must be as long"),
        ("AA./..B C@1,0", "goal \"C@1,0\": there is no piece C"),
        ("no-such-level", "unknown level 'no-such-level' (levels: heng-dao-li-ma, "),
        ("A.1/... A@1,1", "row 0, col 2: unknown character '1'"),
    ] {
        let out = blocks(&["solve", level], "");
        assert_eq!(out.status.code(), Some(2), "{level}");
        let stderr = text(&out.stderr);
        assert_eq!(stderr.lines().count(), 1, "{level}: {stderr}");
        assert!(stderr.starts_with(&format!("blocks: error: {expected}")), "{level}: {stderr}");
    }
}

/// The moves of a JSON record replay to the goal in the metric named, for every metric.
#[test]
fn json_moves_replay() {
    for (name, metric, length) in
        [("heng-dao-li-ma", "piece", 81), ("heng-dao-li-ma", "unit", 116), ("rush-hour-wall", "line", 60)]
    {
        let out = blocks(&["solve", name, "--metric", metric, "--format", "json"], "");
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(json["length"], length, "{name} {metric}");
        let moves = json["moves"].as_array().unwrap();
        assert_eq!(moves.len(), length);
        let steps: Vec<blocks::Step> = moves
            .iter()
            .map(|m| blocks::Step {
                letter: m["piece"].as_str().unwrap().chars().next().unwrap(),
                row: m["to"][0].as_u64().unwrap() as usize,
                col: m["to"][1].as_u64().unwrap() as usize,
                path: vec![],
            })
            .collect();
        let level = blocks::parse_input(name).unwrap();
        let metric = <blocks::Metric as blocks::Named>::from_name(metric).unwrap();
        assert!(blocks::check(&level, metric, &steps).is_ok(), "{name}: {}", json["moves"]);
    }
}

#[test]
fn text_and_show() {
    let out = blocks(&["solve", "A../.../... A@1,1", "--metric", "line", "--show"], "");
    assert_eq!(out.status.code(), Some(0));
    let stdout = text(&out.stdout);
    assert!(stdout.starts_with("line 1: 2 moves in the line metric (optimal)"), "{stdout}");
    assert!(stdout.contains("move 2/2: "), "{stdout}");
    assert!(stdout.contains("| . A . |"), "the last board: {stdout}");
}

#[test]
fn unsolvable_is_exit_1_and_bidirectional_needs_a_layout() {
    let out = blocks(&["solve", "aa./... A@1,0"], "");
    assert_eq!(out.status.code(), Some(1), "a horizontal car never changes rows");
    assert!(text(&out.stdout).contains("unsolvable"));
    let out = blocks(&["solve", "heng-dao-li-ma", "--algorithm", "bibfs"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).starts_with("blocks: error: bidirectional search needs a whole-arrangement goal"));
    let out = blocks(&["solve", "AB./... =.AB/...", "--algorithm", "bibfs"], "");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}

#[test]
fn explore_counts_and_formats() {
    let out = blocks(&["explore", "heng-dao-li-ma", "--format", "json"], "");
    assert_eq!(out.status.code(), Some(0));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!((json["reachable"].as_u64(), json["fewest_moves"].as_u64()), (Some(25_955), Some(81)));
    let md = text(&blocks(&["explore", "rush-hour-jam", "--format", "markdown", "--metric", "line"], "").stdout);
    assert!(md.contains("| distance | positions |"), "{md}");
    let out = blocks(&["explore", "heng-dao-li-ma", "--max-states", "100"], "");
    assert_eq!(out.status.code(), Some(3));
}

#[test]
fn generate_is_seeded_and_its_levels_solve_within_the_walk() {
    let args = ["generate", "heng-dao-li-ma", "--walk", "30", "--count", "3", "--seed", "9", "--metric", "unit"];
    let (a, b) = (blocks(&args, ""), blocks(&args, ""));
    assert_eq!(a.status.code(), Some(0));
    assert_eq!(a.stdout, b.stdout);
    let lines = text(&a.stdout);
    assert_eq!(lines.lines().count(), 3);
    for line in lines.lines() {
        let level = line.split_once(": ").unwrap().1;
        let out = blocks(&["solve", level, "--metric", "unit", "--format", "json"], "");
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert!(json["length"].as_u64().unwrap() <= 30, "{line}: {json}");
    }
}

#[test]
fn batch_writes_records_and_report_reads_them() {
    let dir = harness::TempDir::new("blocks-batch");
    let input = dir.file("levels.txt", "a: heng-dao-li-ma\nb: rush-hour-jam\nc: AB/BA B@0,0\n");
    let records = dir.path("out.jsonl");
    let (input, records) = (input.to_str().unwrap(), records.to_str().unwrap());
    let out = blocks(&["batch", input, "-o", records, "--metric", "line"], "");
    assert!(out.status.code().is_some(), "{}", text(&out.stderr));
    let written = std::fs::read_to_string(records).unwrap();
    let lines: Vec<serde_json::Value> = written.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 3, "{written}");
    let a = lines.iter().find(|r| r["id"] == "a").unwrap();
    assert_eq!(a["length"], 90);
    assert!(a["settings"].as_str().unwrap().contains("metric=line"), "{a}");
    assert!(adapters::blocks::parse_moves(a["moves"].as_str().unwrap()).unwrap().len() == 90);
    assert_eq!(lines.iter().find(|r| r["id"] == "c").unwrap()["status"], "invalid");
    let report = blocks(&["report", records], "");
    assert_eq!(report.status.code(), Some(0), "{}", text(&report.stderr));
    // Resuming with another metric is refused: its lengths count something else.
    let out = blocks(&["batch", input, "-o", records, "--resume", "--metric", "unit"], "");
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
}
