//! `solver check`: solutions replayed in each notation the solver prints, their lengths in both metrics and
//! their distance from the optimum; bad input named with its place; a batch of pairs.

use std::process::Output;

fn solver(args: &[&str]) -> Output {
    harness::run(env!("CARGO_BIN_EXE_solver"), args, b"")
}

fn json(o: &Output) -> serde_json::Value {
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&o.stderr)))
}

fn check(position: &str, solution: &str, extra: &[&str]) -> (Option<i32>, serde_json::Value) {
    let args = [&["check", "--format", "json", position, solution][..], extra].concat();
    let o = solver(&args);
    (o.status.code(), json(&o))
}

/// The 3x3 scramble one move from the speedsolvers' goal, and solutions of it: one optimal, one two moves
/// longer (the tile slid back and forth), one that leaves it unsolved, one that cannot be made.
#[test]
fn known_solutions_of_a_scramble() {
    let p = "1 2 3/4 5 6/7 0 8";
    let (code, v) = check(p, "L", &[]);
    assert_eq!(code, Some(0));
    assert_eq!((v["solves"].as_bool(), v["stm"].as_u64(), v["mtm"].as_u64()), (Some(true), Some(1), Some(1)));
    assert_eq!((v["optimal_stm"].as_u64(), v["stm_over"].as_i64()), (Some(1), Some(0)));
    assert_eq!(v["goal"], "1 2 3 4 5 6 7 8 0");
    assert_eq!((v["optimal_mtm"].as_u64(), v["mtm_over"].as_i64()), (Some(1), Some(0)));
    assert!(v["optimal_mtm_note"].as_str().unwrap().contains("mtm-walking-distance"), "{v}");

    let (code, v) = check(p, "LRL", &[]);
    assert_eq!(code, Some(0));
    assert_eq!((v["stm"].as_u64(), v["mtm"].as_u64(), v["stm_over"].as_i64()), (Some(3), Some(3), Some(2)));
    assert_eq!(v["mtm_over"], 2);

    // The tile above the blank slid down: legal, but not the goal.
    let (code, v) = check(p, "D", &[]);
    assert_eq!(code, Some(1));
    assert_eq!(v["solves"], false);
    assert!(v["problem"].as_str().unwrap().contains("Manhattan distance 2"), "{v}");
    assert!(v["stm_over"].is_null());

    // A tile sliding right needs one on the blank's left, and the blank is on the left edge.
    let (code, v) = check("1 2 3/4 5 6/0 7 8", "R", &[]);
    assert_eq!(code, Some(1));
    assert!(v["problem"].as_str().unwrap().starts_with("move 1 cannot be made"), "{v}");
}

/// Grouped and ungrouped letters, lower case, the blank's directions and the tiles slid are the same
/// solution; the multi-tile length counts a row slid together once.
#[test]
fn every_notation_reads_the_same_solution() {
    // 1 2 3 / 4 5 6 / 0 7 8: two tiles slid left at once.
    let p = "1 2 3/4 5 6/0 7 8";
    for (solution, extra) in [("L2", &[][..]), ("LL", &[]), ("l l", &[]), ("RR", &["--notation", "dirs"]), ("7 8", &[])]
    {
        let (code, v) = check(p, solution, extra);
        assert_eq!(code, Some(0), "{solution}: {v}");
        assert_eq!((v["stm"].as_u64(), v["mtm"].as_u64()), (Some(2), Some(1)), "{solution}");
        assert_eq!(v["stm_over"], 0, "{solution}");
        assert_eq!((v["optimal_mtm"].as_u64(), v["mtm_over"].as_i64()), (Some(1), Some(0)), "{solution}");
    }
    // Tiles that are not next to the blank.
    let (code, v) = check(p, "8 7", &[]);
    assert_eq!(code, Some(1));
    assert!(v["problem"].as_str().unwrap().contains("tile 8 is not next to the blank"), "{v}");
}

#[test]
fn a_malformed_solution_names_the_character_and_its_place() {
    let o = solver(&["check", "1 2 3/4 5 6/0 7 8", "L2X"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("'X' at character 3"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    let o = solver(&["check", "1 2 3/4 5 6/0 7 8", "L0"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("count '0' at character 2"));
    let o = solver(&["check", "1 2 3/4 5 6/0 7 9", "L"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("tile 9 is out of range"));
}

/// The goal in force: blank-first unless the form or --goal says otherwise; the same tiles and moves solve
/// toward one goal and not the other.
#[test]
fn the_goal_in_force_decides() {
    let (code, v) = check("1 0 2 3 4 5 6 7 8", "R", &[]);
    assert_eq!((code, v["goal"].as_str()), (Some(0), Some("0 1 2 3 4 5 6 7 8")));
    let (code, v) = check("1 2 3 4 5 6 7 0 8", "L", &["--goal", "blank-last"]);
    assert_eq!((code, v["solves"].as_bool()), (Some(0), Some(true)));
    let (code, v) = check("1 2 3 4 5 6 7 0 8", "L", &["--goal", "blank-first"]);
    assert_eq!((code, v["solves"].as_bool()), (Some(1), Some(false)));
    // On 4x4 the half of the positions solvable toward one goal is unsolvable toward the other.
    let o = solver(&["check", "--goal", "blank-first", "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15", "L"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("solvable toward --goal blank-last"));
}

/// An optimal solution from `solve`, written as it prints it, checks as optimal; the same one on a 4x4
/// (linear conflict, no tables) with the optimal search skipped says why.
#[test]
fn solve_output_checks_as_optimal() {
    let p = "8 6 7/2 5 4/3 0 1";
    let o = solver(&["solve", "--format", "json", "--moves", "udlr", p]);
    let moves = json(&o)["moves"].as_str().unwrap().to_string();
    let (code, v) = check(p, &moves, &[]);
    assert_eq!(code, Some(0), "{v}");
    assert_eq!((v["stm"].as_u64(), v["optimal_stm"].as_u64(), v["stm_over"].as_i64()), (Some(31), Some(31), Some(0)));
    assert!(v["lower_bound"].as_u64().unwrap() <= 31);
    // STM-optimal, but 25 multi-tile moves where 20 do; `solve --metric mtm`'s solution is those 20.
    assert_eq!((v["mtm"].as_u64(), v["optimal_mtm"].as_u64(), v["mtm_over"].as_i64()), (Some(25), Some(20), Some(5)));
    let o = solver(&["solve", "--format", "json", "--moves", "udlr", "--metric", "mtm", p]);
    let moves = json(&o)["moves"].as_str().unwrap().to_string();
    let (code, v) = check(p, &moves, &[]);
    assert_eq!(code, Some(0), "{v}");
    assert_eq!((v["mtm"].as_u64(), v["mtm_over"].as_i64()), (Some(20), Some(0)), "{v}");
    assert!(v["stm_over"].as_i64().unwrap() >= 0);
    let (_, v) = check("1 2 3 4/5 6 7 8/9 10 11 12/13 14 0 15", "L", &["--optimum-limit", "0"]);
    assert!(v["optimal_stm"].is_null() && v["optimal_stm_note"].as_str().unwrap().contains("--optimum-limit 0"));
    assert!(v["optimal_mtm"].is_null() && v["optimal_mtm_note"].as_str().unwrap().contains("--optimum-limit 0"));
    let (_, v) = check("1 2 3 4/5 6 7 8/9 10 11 12/13 14 0 15", "L", &[]);
    assert_eq!(v["stm_over"], 0);
}

#[test]
fn a_batch_of_pairs_reports_how_many_are_optimal() {
    let dir = std::env::temp_dir().join(format!("check-batch-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("pairs.txt");
    std::fs::write(
        &file,
        "# scramble ; solution\n1 2 3/4 5 6/7 0 8 ; L\n1 2 3/4 5 6/7 0 8 ; LRL\n1 2 3/4 5 6/0 7 8 ; L\n",
    )
    .unwrap();
    let o = solver(&["check", "--batch", file.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains(
            "3 pairs: 2 solve their position, 1 does not; STM optimum known for 2, of which 1 optimal; MTM optimum \
             known for 2, of which 1 optimal"
        ),
        "{out}"
    );
    let o = solver(&["check", "--format", "json", "--batch", file.to_str().unwrap()]);
    let lines: Vec<serde_json::Value> =
        String::from_utf8_lossy(&o.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.iter().map(|v| v["stm_over"].as_i64()).collect::<Vec<_>>(), [Some(0), Some(2), None]);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A damaged multi-tile table in --pdbs loses the MTM optimum only: the check still replays the solution and
/// gives the STM optimum, and the note names the file.
#[test]
fn a_damaged_multi_tile_table_loses_only_the_mtm_optimum() {
    let d = harness::TempDir::new("check-damaged-mtm");
    d.file("mtm-classes-4x4-0-4-2-2-4-4-2-2-4-3-3-1-3-3-3-1.bin", "not a table");
    let pdbs = d.to_str().unwrap();
    let (code, v) = check("1 2 3 4/5 6 7 8/9 10 11 12/13 14 0 15", "L", &["--pdbs", pdbs]);
    assert_eq!(code, Some(0), "{v}");
    assert_eq!((v["optimal_stm"].as_u64(), v["stm_over"].as_i64()), (Some(1), Some(0)));
    assert!(v["optimal_mtm"].is_null(), "{v}");
    let note = v["optimal_mtm_note"].as_str().unwrap();
    assert!(
        note.starts_with("not computed: ") && note.contains("mtm-classes-4x4-") && note.contains("not a whole table"),
        "{note}"
    );
}
