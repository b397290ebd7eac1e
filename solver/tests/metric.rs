//! `--metric`: shortest solutions in the multi-tile metric, checked against an exhaustive breadth-first
//! search in that metric, and the options it refuses.

use puzzle::{Board, State};
use std::process::Output;

fn solver(args: &[&str], stdin: &str) -> Output {
    harness::run(env!("CARGO_BIN_EXE_solver"), args, stdin.as_bytes())
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Every position of 2x3, read from stdin, solved in exactly its MTM distance; the notation's words are
/// the MTM moves, and they expand, letter by letter, into the blank's moves that replay to the goal.
#[test]
fn every_2x3_position_solved_in_its_mtm_distance() {
    let b = Board::new(2, 3).unwrap();
    let dist = harness::mtm_distances(b, u8::MAX);
    let mut keys: Vec<u128> = dist.keys().copied().collect();
    keys.sort_unstable();
    let lines: Vec<String> = keys
        .iter()
        .map(|&k| {
            let s = State::unpack_wide(b, k).unwrap();
            s.tiles().iter().map(u8::to_string).collect::<Vec<_>>().join(" ")
        })
        .collect();
    let o = solver(
        &["solve", "--board", "2x3", "--metric", "mtm", "--format", "json", "--moves", "udlr", "-"],
        &lines.join("\n"),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let records: Vec<serde_json::Value> =
        String::from_utf8(o.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(records.len(), keys.len());
    for (r, &k) in records.iter().zip(&keys) {
        let s = State::unpack_wide(b, k).unwrap();
        assert_eq!(r["metric"], "mtm");
        assert_eq!(r["length"].as_u64().unwrap(), dist[&k] as u64, "{:?}", s.tiles());
        let slides = harness::grouped_slides(r["moves"].as_str().unwrap());
        assert_eq!(slides.len(), dist[&k] as usize);
        // Each slide is the tiles' direction and a count; the blank goes the other way that many cells.
        let mut t = s;
        for (d, n) in slides {
            let blank = match d {
                'U' => puzzle::Dir::Down,
                'D' => puzzle::Dir::Up,
                'L' => puzzle::Dir::Right,
                _ => puzzle::Dir::Left,
            };
            for _ in 0..n {
                assert!(t.move_blank(blank), "{d}{n} leaves the board");
            }
        }
        assert!(t.is_goal());
    }
}

/// The text form says the metric; the default stays the single-tile metric, and says so in JSON.
#[test]
fn the_metric_is_said() {
    let o = solver(&["solve", "--metric", "mtm", "--moves", "udlr", "1 2 0 3 4 5 6 7 8"], "");
    assert!(o.status.success(), "{}", stderr(&o));
    let out = String::from_utf8(o.stdout).unwrap();
    assert!(out.starts_with("length 1 (multi-tile metric)"), "{out}");
    assert!(out.contains("heuristic mtm-walking-distance"), "{out}");
    assert!(out.ends_with("moves: R2\n"), "{out}");
    let o = solver(&["solve", "--format", "json", "1 2 0 3 4 5 6 7 8"], "");
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!((v["metric"].as_str(), v["length"].as_u64()), (Some("stm"), Some(2)));
    // Blank-last input: the moves are in its orientation, as with the single-tile metric.
    let o = solver(&["solve", "--metric", "mtm", "--moves", "udlr", "--goal", "blank-last", "1 2 3 4 5 6 0 7 8"], "");
    assert!(String::from_utf8(o.stdout).unwrap().ends_with("moves: L2\n"));
}

/// What the multi-tile search does not offer is refused with a usage error naming the option.
#[test]
fn refused_combinations() {
    for (extra, says) in [
        (&["--algorithm", "astar"][..], "--algorithm ida"),
        (&["--heuristic", "pdb"][..], "--heuristic pdb"),
        (&["--textbook"][..], "--textbook"),
        (&["--partition", "4-4"][..], "--partition"),
    ] {
        let args = [&["solve", "--metric", "mtm"][..], extra, &["1 2 0 3 4 5 6 7 8"]].concat();
        let o = solver(&args, "");
        assert_eq!(o.status.code(), Some(2), "{extra:?}");
        let e = stderr(&o);
        assert!(e.contains("--metric mtm") && e.contains(says) && e.lines().count() == 1, "{extra:?}: {e}");
    }
    let o = solver(&["solve", "--metric", "sideways", "1 2 0 3 4 5 6 7 8"], "");
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("unknown metric 'sideways'"), "{}", stderr(&o));
}

/// `batch --metric mtm`: each record's length is the MTM distance and its settings say the metric, so that
/// `--resume` in the other metric (or the other way round) refuses to append to the file.
#[test]
fn batch_records_say_the_metric_and_resume_refuses_a_mix() {
    let b = Board::new(3, 3).unwrap();
    let dist = harness::mtm_distances(b, u8::MAX);
    let mut keys: Vec<u128> = dist.keys().copied().collect();
    keys.sort_unstable();
    let picked: Vec<u128> = keys.iter().step_by(9973).copied().collect();
    let text: String = picked
        .iter()
        .map(|&k| {
            State::unpack_wide(b, k).unwrap().tiles().iter().map(u8::to_string).collect::<Vec<_>>().join(" ") + "\n"
        })
        .collect();
    let d = harness::TempDir::new("metric-batch");
    let (input, out) = (d.file("in.txt", &text), d.path("out.jsonl"));
    let (input, out) = (input.to_str().unwrap(), out.to_str().unwrap());
    let o = solver(&["batch", input, "-o", out, "--board", "3x3", "--metric", "mtm", "--quiet"], "");
    assert!(o.status.success(), "{}", stderr(&o));
    let written = std::fs::read_to_string(out).unwrap();
    let records: Vec<serde_json::Value> = written.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(records.len(), picked.len());
    for r in &records {
        let k = picked[r["line"].as_u64().unwrap() as usize - 1];
        assert_eq!(r["length"].as_u64().unwrap(), dist[&k] as u64, "{r}");
        assert!(
            r["settings"].as_str().unwrap().ends_with("heuristic=mtm-walking-distance; tables=; metric=mtm"),
            "{r}"
        );
    }
    for metric in ["stm", "mtm"] {
        let args = ["batch", input, "-o", out, "--board", "3x3", "--metric", metric, "--resume", "--quiet"];
        let o = solver(&args, "");
        if metric == "stm" {
            assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
            assert!(stderr(&o).contains("was made with other settings"), "{}", stderr(&o));
        } else {
            assert!(o.status.success(), "{}", stderr(&o));
        }
        assert_eq!(std::fs::read_to_string(out).unwrap(), written, "--metric {metric}: nothing appended");
    }
}

/// `--classes`: the relabelled-goal table joins the walking distance (the heuristic's name says so), the
/// lengths stay the MTM distances; a bad labelling, or one without --metric mtm, is a usage error.
#[test]
fn classes_keep_the_lengths_and_bad_ones_are_refused() {
    let b = Board::new(3, 3).unwrap();
    let dist = harness::mtm_distances(b, u8::MAX);
    let mut keys: Vec<u128> = dist.keys().copied().collect();
    keys.sort_unstable();
    let picked: Vec<u128> = keys.iter().step_by(4999).copied().collect();
    let text: String = picked
        .iter()
        .map(|&k| {
            State::unpack_wide(b, k).unwrap().tiles().iter().map(u8::to_string).collect::<Vec<_>>().join(" ") + "\n"
        })
        .collect();
    let args =
        ["solve", "--board", "3x3", "--metric", "mtm", "--classes", "0,1,1,2,2,1,3,3,2", "--format", "json", "-"];
    let o = solver(&args, &text);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = String::from_utf8(o.stdout).unwrap();
    for (line, &k) in out.lines().zip(&picked) {
        let r: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(r["length"].as_u64().unwrap(), dist[&k] as u64, "{r}");
        assert_eq!(r["heuristic"], "mtm-walking-distance+classes 0,1,1,2,2,1,3,3,2");
    }
    assert_eq!(out.lines().count(), picked.len());
    for (args, says) in [
        (&["solve", "--classes", "0,1,1,2,2,1,3,3,2", "1 2 0 3 4 5 6 7 8"][..], "--classes is for --metric mtm"),
        (&["solve", "--metric", "mtm", "--classes", "0,1,x", "1 2 0 3 4 5 6 7 8"], "'x' is not a class number"),
        (&["solve", "--metric", "mtm", "--classes", "0,1,1", "1 2 0 3 4 5 6 7 8"], "3 labels for 9 tiles"),
        (&["solve", "--metric", "mtm", "--classes", "4x4", "1 2 0 3 4 5 6 7 8"], "a labelling of 4x4, not 3x3"),
    ] {
        let o = solver(args, "");
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains(says) && stderr(&o).lines().count() == 1, "{args:?}: {}", stderr(&o));
    }
}

/// A `--classes` table is kept in --pdbs: written on the first run, read on the next (same answers), and
/// a damaged file is said and built again.
#[test]
fn classes_tables_are_kept_in_the_pdbs_folder() {
    let d = harness::TempDir::new("metric-classes");
    let dir = d.path("pdbs");
    std::fs::create_dir(&dir).unwrap();
    let args = ["solve", "--metric", "mtm", "--classes", "0,1,1,2,2,1,3,3,2", "--pdbs", dir.to_str().unwrap()];
    let run = || {
        let o = solver(&[&args[..], &["--format", "json", "8 6 7 2 5 4 3 0 1"]].concat(), "");
        assert!(o.status.success(), "{}", stderr(&o));
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        (v["length"].as_u64().unwrap(), v["nodes"].as_u64().unwrap(), stderr(&o))
    };
    let first = run();
    let file = dir.join("mtm-classes-3x3-0-1-1-2-2-1-3-3-2.bin");
    let bytes = std::fs::read(&file).expect("the table is kept");
    let second = run();
    assert_eq!((first.0, first.1), (second.0, second.1));
    assert!(second.2.is_empty(), "{}", second.2);
    let mut bad = bytes.clone();
    let last = bad.len() - 1;
    bad[last] ^= 1;
    std::fs::write(&file, &bad).unwrap();
    let third = run();
    assert_eq!((first.0, first.1), (third.0, third.1));
    assert!(third.2.contains("not a whole table of these classes"), "{}", third.2);
    assert_eq!(std::fs::read(&file).unwrap(), bytes, "built and written again");
}

/// Without --classes, the 4x4's default table is looked for in --pdbs (never built there): a folder that
/// lacks it gets the walking distance alone and one note saying how to build it, for solve and batch; a
/// damaged file of that name is an error naming it. Boards without a default table say nothing.
#[test]
fn the_default_table_is_looked_for_in_the_pdbs_folder() {
    let d = harness::TempDir::new("metric-default-table");
    let dir = d.path("pdbs");
    std::fs::create_dir(&dir).unwrap();
    let pdbs = dir.to_str().unwrap();
    let near = "1 2 3 0 4 5 6 7 8 9 10 11 12 13 14 15";
    let o = solver(&["solve", "--metric", "mtm", "--format", "json", "--pdbs", pdbs, near], "");
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!((v["length"].as_u64(), v["heuristic"].as_str()), (Some(1), Some("mtm-walking-distance")));
    let note = stderr(&o);
    assert_eq!(note.lines().count(), 1, "{note}");
    assert!(note.contains(&format!("make pdbs-mtm PDBS={pdbs}")) && note.contains("--classes 4x4"), "{note}");
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0, "nothing is built");
    let out = d.path("out.jsonl");
    let o = solver(&["batch", "--metric", "mtm", "--pdbs", pdbs, "--output", out.to_str().unwrap(), "-"], near);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("make pdbs-mtm"), "{}", stderr(&o));
    // A file of the table's name that is not the table.
    let file = dir.join("mtm-classes-4x4-0-4-2-2-4-4-2-2-4-3-3-1-3-3-3-1.bin");
    std::fs::write(&file, "stp mtm classes 1\n4x4 0,4,2,2,4,4,2,2,4,3,3,1,3,3,3,1\ncut short").unwrap();
    let o = solver(&["solve", "--metric", "mtm", "--pdbs", pdbs, near], "");
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let e = stderr(&o);
    assert!(e.lines().count() == 1 && e.contains(file.to_str().unwrap()) && e.contains("not a whole table"), "{e}");
    let o = solver(&["solve", "--metric", "mtm", "--pdbs", pdbs, "1 2 0 3 4 5 6 7 8"], "");
    assert!(o.status.success() && stderr(&o).is_empty(), "{}", stderr(&o));
}

/// `--threads`: the multi-tile search on two threads gives each 4x4 position the solution and the nodes of
/// one thread, and its records say the threads.
#[test]
fn threads_keep_the_solution_and_the_nodes() {
    // Random walks of 40, 50 and 60 single moves from the goal (drawn once): 18, 22 and 23 MTM moves.
    let lines = [
        "0 2 7 15 6 4 3 11 1 5 9 10 8 12 13 14",
        "5 1 0 6 12 4 3 2 8 7 10 14 13 9 15 11",
        "4 8 1 2 13 0 6 3 5 15 7 11 10 9 14 12",
    ]
    .join("\n");
    let run = |threads: &str| -> Vec<serde_json::Value> {
        let o = solver(&["solve", "-", "--metric", "mtm", "--format", "json", "--threads", threads], &lines);
        assert!(o.status.success(), "{}", stderr(&o));
        String::from_utf8(o.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect()
    };
    let (one, two) = (run("1"), run("2"));
    assert_eq!(one.len(), 3);
    for (a, b) in one.iter().zip(&two) {
        assert_eq!(
            (a["status"].as_str(), a["threads"].as_u64(), b["threads"].as_u64()),
            (Some("solved"), Some(1), Some(2))
        );
        for key in ["moves", "length", "nodes", "expanded", "bounds"] {
            assert_eq!(a[key], b[key], "{key}: {a} against {b}");
        }
    }
}
