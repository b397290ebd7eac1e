//! The `solver solve` command as a user runs it: output formats, exit codes and error messages.

use std::io::Write;
use std::process::{Command, Output, Stdio};

const KORF9: &str = "3 14 9 11 5 4 8 2 13 12 6 7 10 1 15 0";

fn solver(args: &[&str], stdin: &str) -> Output {
    harness::run(env!("CARGO_BIN_EXE_solver"), args, stdin.as_bytes())
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn solves_korf_instance_with_json_output() {
    let o = solver(&["solve", "--heuristic", "linear-conflict", "--format", "json", KORF9], "");
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["length"], 46);
    // The same record as `batch` writes: moves as space-separated tiles.
    assert_eq!(v["status"], "solved");
    assert_eq!(v["moves"].as_str().unwrap().split(' ').count(), 46);
    assert!(v["nodes"].as_u64().unwrap() > 0 && v["seconds"].as_f64().is_some());
    assert_eq!(v["heuristic"], "linear-conflict");
    // The moves really solve it.
    let start = puzzle::parse_tiles(puzzle::Board::FOUR, puzzle::Goal::BlankFirst, KORF9).unwrap();
    let moves: Vec<u8> = v["moves"].as_str().unwrap().split(' ').map(|m| m.parse().unwrap()).collect();
    assert!(start.replay(&moves).is_ok());
}

/// `--fsm-wide` reaches the engine: on 5x5 the deeper 32-bit automaton it allows prunes more, and the
/// length stays the same (38 moves; `solver generate --board 5x5 --walk 60 --seed 4`, linear conflict).
#[test]
fn fsm_wide_prunes_more_on_5x5_with_the_same_length() {
    let position = "6 5 3 12 4 1 2 8 9 14 10 16 11 13 19 17 20 7 18 24 15 21 22 23 0";
    let run = |extra: &[&str]| {
        let args = [&["solve", "--board", "5x5", "--heuristic", "linear-conflict", "--threads", "1"][..], extra]
            .concat()
            .into_iter()
            .chain(["--format", "json", position])
            .collect::<Vec<_>>();
        let o = solver(&args, "");
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        (v["length"].as_u64().unwrap(), v["nodes"].as_u64().unwrap())
    };
    let (narrow, wide) = (run(&[]), run(&["--fsm-wide"]));
    assert_eq!(narrow.0, wide.0);
    assert!(wide.1 < narrow.1, "{wide:?} against {narrow:?}");
}

#[test]
fn stdin_lines_keep_their_ids_and_bad_lines_are_named() {
    let input = format!("# a comment\n9 46 {KORF9}\n\n1 2 3\n{}\n", KORF9.replace("15", "1S"));
    let o = solver(&["solve", "-", "--heuristic", "linear-conflict", "--format", "json", "--moves", "dirs"], &input);
    assert_eq!(o.status.code(), Some(2));
    let lines: Vec<serde_json::Value> =
        String::from_utf8_lossy(&o.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 1);
    assert_eq!((lines[0]["id"].as_str(), lines[0]["length"].as_u64()), (Some("9"), Some(46)));
    assert_eq!(lines[0]["moves"].as_str().unwrap().len(), 46);
    let err = stderr(&o);
    assert!(
        err.contains("stdin line 4: expected 16 tiles (or an id, an optimal length and 16 tiles), found 3 words"),
        "{err}"
    );
    assert!(err.contains("stdin line 5: '1S' is not a tile (word 15 of the position)"), "{err}");
}

#[test]
fn eight_puzzle_and_blank_last_goal() {
    // One of the two hardest 8-puzzle positions for the goal 1 2 3 4 5 6 7 8 0: 31 moves.
    let o = solver(
        &["solve", "--board", "3x3", "--goal", "blank-last", "--heuristic", "linear-conflict", "8 6 7 2 5 4 3 0 1"],
        "",
    );
    assert!(o.status.success());
    assert!(String::from_utf8_lossy(&o.stdout).starts_with("length 31 "), "{}", String::from_utf8_lossy(&o.stdout));
    // One move from the blank-last goal: tile 15 slides right, the blank goes left... in the user's frame.
    let o = solver(
        &["solve", "--goal", "blank-last", "--heuristic", "manhattan", "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15"],
        "",
    );
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(out.contains("length 1 ") && out.contains("moves: 15"), "{out}");
    let o = solver(
        &[
            "solve",
            "--goal",
            "blank-last",
            "--moves",
            "dirs",
            "--heuristic",
            "manhattan",
            "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15",
        ],
        "",
    );
    assert!(String::from_utf8_lossy(&o.stdout).contains("moves: R"));
}

#[test]
fn bad_positions_exit_2_with_one_clear_line() {
    let cases = [
        ("1 2 3", "expected 16 tiles"),
        ("3 14 9 11 5 4 8 2 13 12 6 7 10 1 15 x", "'x' is not a tile (word 16 of the position)"),
        // A stray word is named, not counted as a tile of a board no count fits.
        ("1 2 3 4 5 6 7 8 0 x", "'x' is not a tile (word 10 of the position)"),
        ("1 2 3/4 5 0/6 7", "row 3 has 2 tiles, but row 1 has 3"),
        ("3 14 9 11 5 4 8 2 13 12 6 7 10 1 15 16", "tile 16 is out of range"),
        ("3 14 9 11 5 4 8 2 13 12 6 7 10 1 15 15", "tile 15 appears twice"),
        ("1 0 2 3 4 5 6 7 8 9 10 11 12 13 15 14", "unsolvable"),
    ];
    for (input, want) in cases {
        let o = solver(&["solve", input], "");
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{input}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.starts_with("solver: error: bad position: ") && err.contains(want), "{input}: {err}");
    }
    let o = solver(&["solve", "--board", "9x9", KORF9], "");
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("board 9x9 is too large: supported boards have at most 25 cells"), "{}", stderr(&o));
    for (option, value, want) in [
        ("--lanes", "0", "the number of lanes must be from 1 to 16, not 0"),
        ("--fsm-depth", "15", "the duplicate-pruning depth must be from 2 to 14, not 15"),
        ("--threads", "0", "--threads: the number of threads must be from 1 to"),
        ("--threads", "100000", "from 1 to 256, not 100000"),
    ] {
        let o = solver(&["solve", option, value, "--heuristic", "manhattan", KORF9], "");
        assert_eq!((o.status.code(), stderr(&o).lines().count()), (Some(2), 1), "{}", stderr(&o));
        assert!(stderr(&o).contains(want), "{}", stderr(&o));
    }
}

#[test]
fn missing_tables_fail_pdb_and_warn_under_auto() {
    let dir = harness::TempDir::new("cli-empty");
    let d = dir.to_str().unwrap();
    let o = solver(&["solve", "--heuristic", "pdb", "--pdbs", d, KORF9], "");
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.contains("missing table")
            && err.contains("4x4-1-2-3-4-5-6-7.pdb")
            && err.contains("pdb-builder build --board 4x4 --partition 7-8"),
        "{err}"
    );
    let o = solver(&["solve", "--pdbs", d, KORF9], "");
    assert!(o.status.success());
    assert!(stderr(&o).contains("falling back to linear conflict"));
    assert!(String::from_utf8_lossy(&o.stdout).contains("heuristic linear-conflict"));
}

#[test]
fn a_position_argument_may_carry_its_id_and_length_and_a_wrong_length_is_a_mismatch() {
    let o = solver(&["solve", "--heuristic", "linear-conflict", &format!("9 46 {KORF9}")], "");
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(String::from_utf8_lossy(&o.stdout).starts_with("9: length 46"));
    let o = solver(&["solve", "--heuristic", "linear-conflict", &format!("9 47 {KORF9}")], "");
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("MISMATCH: 9 (line 1): the optimal length found is 46 but the line says 47"));
    // The same on stdin: the result is printed, the disagreement said, the exit code 1.
    let o = solver(&["solve", "-", "--heuristic", "linear-conflict"], &format!("9 47 {KORF9}\n"));
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("MISMATCH"), "{}", stderr(&o));
    assert!(String::from_utf8_lossy(&o.stdout).starts_with("9: length 46"));
}

#[test]
fn words_that_are_not_numbers_are_named() {
    let o = solver(&["solve", "hello world"], "");
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(stderr(&o), "solver: error: bad position: 'world' is not a tile (word 2 of the position)\n");
}

#[test]
fn an_invalid_utf8_line_on_stdin_is_one_error_and_the_rest_is_solved() {
    let mut input = b"\xff\xfe 1 2\n".to_vec();
    input.extend(format!("9 46 {KORF9}\n").as_bytes());
    let mut child = Command::new(env!("CARGO_BIN_EXE_solver"))
        .args(["solve", "-", "--heuristic", "linear-conflict"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(&input).unwrap();
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(stderr(&o), "solver: error: stdin line 1: not UTF-8 text (byte 1 of the line)\n");
    assert!(String::from_utf8_lossy(&o.stdout).starts_with("9: length 46"));
}

/// Output cut short by a reader that goes away (`| head -1`) ends the command quietly, and a log that
/// cannot be written never stops the work.
#[test]
fn a_closed_stdout_ends_quietly_and_a_closed_stderr_stops_nothing() {
    let lines = format!("9 46 {KORF9}\n").repeat(200);
    let mut child = Command::new(env!("CARGO_BIN_EXE_solver"))
        .args(["solve", "-", "--heuristic", "linear-conflict", "--threads", "1"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let _ = child.stdin.take().unwrap().write_all(lines.as_bytes());
    let o = child.wait_with_output().unwrap();
    assert_eq!((o.status.code(), stderr(&o)), (Some(0), String::new()));

    // Warnings (tables missing: a fallback) and the batch's summary go to a closed stderr.
    let dir = harness::TempDir::new("cli-closed-stderr");
    let out = dir.path("out.jsonl");
    let input = dir.file("in.txt", &format!("9 46 {KORF9}\n"));
    let mut child = Command::new(env!("CARGO_BIN_EXE_solver"))
        .args(["batch", input.to_str().unwrap(), "-o", out.to_str().unwrap(), "--pdbs", dir.to_str().unwrap()])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stderr.take());
    assert_eq!(child.wait().unwrap().code(), Some(0));
    assert_eq!(std::fs::read_to_string(&out).unwrap().lines().count(), 1);
}

#[test]
fn every_subcommand_explains_itself() {
    for sub in ["solve", "batch", "report", "generate", "explore"] {
        for flag in ["-h", "--help"] {
            let o = solver(&[sub, flag], "");
            assert!(o.status.success(), "{sub} {flag}: {}", stderr(&o));
            let text = String::from_utf8_lossy(&o.stdout);
            assert!(text.contains("Usage: solver"), "{sub} {flag}: {text}");
            if flag == "--help" {
                assert!(text.contains("Examples:"), "{sub} --help has no examples");
            }
        }
    }
}

/// A first minute as people have it: the board from the tile count, a hint for unquoted tiles, a note when the
/// position is closer to the other goal, plain words for an unsolvable position, and tables warnings only
/// where they matter.
#[test]
fn a_casual_first_solve_goes_right() {
    let json = |o: &Output| -> serde_json::Value {
        assert!(o.status.success(), "{}", stderr(o));
        serde_json::from_slice(&o.stdout).unwrap()
    };
    // 9 tiles: 3x3; 25: 5x5; with an id and a length too. No tables warning on a 3x3.
    let o = solver(&["solve", "--format", "json", "--pdbs", "/nonexistent", "1 2 0 3 4 5 6 7 8"], "");
    assert_eq!((json(&o)["length"].as_u64(), stderr(&o).as_str()), (Some(2), ""));
    let five = "1 0 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24";
    let o = solver(&["solve", "--format", "json", "--heuristic", "linear-conflict", five], "");
    assert_eq!(json(&o)["goal"].as_str().unwrap().split(' ').count(), 25);
    let o = solver(&["solve", "--format", "json", "x 2 1 2 0 3 4 5 6 7 8"], "");
    assert_eq!((json(&o)["id"].as_str(), json(&o)["matched"].as_bool()), (Some("x"), Some(true)));
    let o = solver(&["solve", "1 2 3 4 5 6"], "");
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("6 tiles are no square board: give --board RxC (boards of 6 cells: 2x3, 3x2)"));
    // Unquoted tiles.
    let o = solver(&["solve", "1", "2", "0", "3", "4", "5", "6", "7", "8"], "");
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("hint: quote the position"), "{}", stderr(&o));
    // Solved, in the other common convention: said, with the option.
    let o = solver(&["solve", "1 2 3 4 5 6 7 8 0"], "");
    assert_eq!(json(&solver(&["solve", "--format", "json", "1 2 3 4 5 6 7 8 0"], ""))["length"], 22);
    assert!(
        stderr(&o).contains("closer to the goal 1 2 3 4 5 6 7 8 0 (Manhattan distance 0, against 12")
            && stderr(&o).contains("add --goal blank-last"),
        "{}",
        stderr(&o)
    );
    assert!(!stderr(&solver(&["solve", "--goal", "blank-last", "1 2 3 4 5 6 7 8 0"], "")).contains("closer"));
    // Plain words first.
    let o = solver(&["solve", "0 2 1 3 4 5 6 7 8"], "");
    assert!(stderr(&o).contains("bad position: no sequence of moves reaches the goal from this position"));
    // A tables folder that is not there is said to be missing, where tables matter (4x4).
    let o = solver(&["solve", "--pdbs", "/nonexistent/pdbs", KORF9], "");
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("the tables folder /nonexistent/pdbs does not exist"), "{}", stderr(&o));
}

/// `STP_GOAL` is the default of every `--goal`, so a user of the blank-last goal sets it once: `solve`,
/// `batch` and `generate` take it, an explicit `--goal` wins over it, and a bad value is the user's error.
#[test]
fn stp_goal_is_the_default_goal() {
    let with_goal = |goal: &str, args: &[&str], stdin: &str| {
        let mut child = Command::new(env!("CARGO_BIN_EXE_solver"))
            .args(args)
            .env("STP_GOAL", goal)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(stdin.as_bytes()).unwrap();
        child.wait_with_output().unwrap()
    };
    // One move from the blank-last goal, 53 from the blank-first one.
    let near_last = "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15";
    let o = with_goal("blank-last", &["solve", "--heuristic", "manhattan", near_last], "");
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(o.status.success() && out.starts_with("length 1 ") && out.contains("moves: 15"), "{out}{}", stderr(&o));
    let o = with_goal("blank-last", &["solve", "--goal", "blank-first", "--heuristic", "manhattan", near_last], "");
    assert!(!String::from_utf8_lossy(&o.stdout).starts_with("length 1 "), "--goal wins over STP_GOAL");
    let o = with_goal("blank-last", &["batch", "-", "-o", "/dev/stdout", "-q", "--heuristic", "manhattan"], near_last);
    let record: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(record["length"], 1, "{record}");
    assert!(record["settings"].as_str().unwrap().contains("blank-last"), "{record}");
    let o = with_goal("blank-last", &["generate"], "");
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.lines().next().unwrap().ends_with("--goal blank-last"), "{text}");
    let o = with_goal("blank-middle", &["solve", near_last], "");
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}

/// A position may be a Python list (flat or a list a row) or the speedsolvers' scramble, rows apart by `/`,
/// whose board is its rows' and whose goal is theirs (the blank last), said on stderr in one line; a
/// `--goal` or `$STP_GOAL` that says otherwise is kept, and said so.
#[test]
fn python_lists_and_speedsolver_scrambles_are_positions() {
    let json = |o: &Output| -> serde_json::Value {
        assert!(o.status.success(), "{}", stderr(o));
        serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&o.stdout)))
    };
    let solve = |position: &str, extra: &[&str]| {
        solver(&[&["solve", "--heuristic", "manhattan", "--format", "json", position][..], extra].concat(), "")
    };
    let plain = json(&solve("8 2 0 4 6 1 3 7 5", &[]));
    for list in ["[8, 2, 0, 4, 6, 1, 3, 7, 5]", "[[8,2,0],[4,6,1],[3,7,5]]"] {
        let o = solve(list, &[]);
        assert_eq!(json(&o)["length"], plain["length"], "{list}");
        assert_eq!(stderr(&o), "", "{list}");
    }
    // One move from 1..15 then the blank: the speedsolvers' goal, taken with their form.
    let o = solve("1 2 3 4/5 6 7 8/9 10 11 12/13 14 0 15", &[]);
    let v = json(&o);
    assert_eq!((v["length"].as_u64(), v["goal"].as_str()), (Some(1), Some("1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0")));
    let err = stderr(&o);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("solver: note: rows apart by '/' are the speedsolvers' form")
            && err.contains("--goal blank-last"),
        "{err}"
    );
    // A rectangular board from its rows.
    let v = json(&solve("1 2 3/4 0 5", &[]));
    assert_eq!((v["length"].as_u64(), v["goal"].as_str()), (Some(1), Some("1 2 3 4 5 0")));
    // A given goal that differs is kept, and said so; so is $STP_GOAL's.
    let o = solve("1 2 3/4 0 5", &["--goal", "blank-first"]);
    assert_eq!(json(&o)["goal"], "0 1 2 3 4 5");
    assert!(stderr(&o).contains("but --goal (or $STP_GOAL) says blank-first: solved toward that"), "{}", stderr(&o));
    let o = Command::new(env!("CARGO_BIN_EXE_solver"))
        .args(["solve", "--heuristic", "manhattan", "--format", "json", "1 2 3/4 0 5"])
        .env("STP_GOAL", "blank-first")
        .output()
        .unwrap();
    assert_eq!(json(&o)["goal"], "0 1 2 3 4 5");
    // A given goal that agrees needs no note.
    let o = solve("1 2 3/4 0 5", &["--goal", "blank-last"]);
    assert_eq!((json(&o)["length"].as_u64(), stderr(&o)), (Some(1), String::new()));
    // On stdin each position is read for its own form's goal; the note is given once.
    let o = solver(
        &["solve", "-", "--board", "2x3", "--heuristic", "manhattan", "--format", "json"],
        "1 2 3/4 0 5\n1 2 3 4 0 5\n1 2 3/4 0 5\n",
    );
    let goals: Vec<String> = String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["goal"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(goals, ["1 2 3 4 5 0", "0 1 2 3 4 5", "1 2 3 4 5 0"]);
    assert_eq!(stderr(&o).lines().filter(|l| l.contains("speedsolvers")).count(), 1, "{}", stderr(&o));
}

/// `generate` needs no options (one position, seed 1, as `watersort generate`), and writes for either goal:
/// the same draw in the other goal's labels, solved toward it to the same length.
#[test]
fn generate_defaults_and_writes_for_either_goal() {
    let first = solver(&["generate"], "");
    assert!(first.status.success(), "{}", stderr(&first));
    let text = String::from_utf8(first.stdout).unwrap();
    assert_eq!(text.lines().count(), 2, "{text}");
    // The command first, so that the last line is a position (`solver generate | tail -1`).
    assert!(text.starts_with("# solver generate --count 1 --seed 1 --board 4x4 --goal blank-first\n"), "{text}");
    let last = text.lines().last().unwrap();
    assert!(puzzle::parse_line(puzzle::Board::FOUR, puzzle::Goal::BlankFirst, last).unwrap().is_some(), "{text}");
    let args = ["generate", "--board", "3x3", "--walk", "20", "--count", "5", "--seed", "3"];
    let a = solver(&args, "");
    let b = solver(&[&args[..], &["--goal", "blank-last"]].concat(), "");
    let lengths = |out: &[u8], goal: &str| {
        let o = solver(
            &["solve", "-", "--board", "3x3", "--goal", goal, "--format", "json"],
            &String::from_utf8_lossy(out),
        );
        assert!(o.status.success(), "{}", stderr(&o));
        let text = String::from_utf8(o.stdout).unwrap();
        text.lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["length"].clone())
            .collect::<Vec<_>>()
    };
    assert_ne!(a.stdout, b.stdout);
    assert_eq!(lengths(&a.stdout, "blank-first"), lengths(&b.stdout, "blank-last"));
}

/// The speedsolving notation: the direction each tile moves, repeats grouped, in the goal's orientation, with
/// the solution's length in the multi-tile metric; the moves replay as the tiles' do.
#[test]
fn moves_in_the_speedsolving_notation() {
    let text = |args: &[&str]| {
        let o = solver(args, "");
        assert!(o.status.success(), "{}", stderr(&o));
        String::from_utf8(o.stdout).unwrap()
    };
    let out = text(&["solve", "--moves", "udlr", "1 2 0 3 4 5 6 7 8"]);
    assert!(out.starts_with("length 2 (this solution: 1 in the multi-tile metric)"), "{out}");
    assert!(out.ends_with("moves: R2\n"), "{out}");
    assert!(text(&["solve", "--moves", "udlr", "--goal", "blank-last", "1 2 3 4 5 6 0 7 8"]).ends_with("moves: L2\n"));
    // Grouped letters expand to the blank's directions reversed, move for move. One thread: the two runs must
    // find the same of the position's optimal solutions, and threads may finish in either order.
    let args = ["solve", "--heuristic", "linear-conflict", "-j", "1", KORF9];
    let udlr = text(&[&args[..], &["--moves", "udlr"]].concat());
    let dirs = text(&[&args[..], &["--moves", "dirs"]].concat());
    let last = |s: &str| s.lines().last().unwrap().trim_start_matches("moves: ").to_string();
    let expanded: String = harness::grouped_slides(&last(&udlr))
        .into_iter()
        .flat_map(|(d, n)| {
            let blank = match d {
                'U' => 'D',
                'D' => 'U',
                'L' => 'R',
                _ => 'L',
            };
            std::iter::repeat_n(blank, n)
        })
        .collect();
    assert_eq!(expanded, last(&dirs));
}

/// A message quoting an id from the input cannot drive the terminal: its control characters print escaped.
#[test]
fn messages_print_control_characters_escaped() {
    let o = solver(&["solve", "-", "--board", "3x3"], "a\u{1b}]0;pwned\u{7} 5 1 2 0 3 4 5 6 7 8\n");
    let err = stderr(&o);
    assert!(err.contains(r"MISMATCH: a\u{1b}]0;pwned\u{7}"), "{err}");
    assert!(!err.contains('\u{1b}') && !err.contains('\u{7}'), "{err:?}");
}

/// A search that does not promise the fewest moves says so beside its length, as `watersort` does.
#[test]
fn a_greedy_length_is_marked_not_necessarily_fewest() {
    for (alg, marked) in [("greedy", true), ("dfs", true), ("astar", false)] {
        let o = solver(&["solve", "--algorithm", alg, "8 7 6 0 4 1 2 5 3"], "");
        let out = String::from_utf8_lossy(&o.stdout).into_owned();
        assert_eq!(out.lines().next().unwrap().contains("(not necessarily fewest)"), marked, "{alg}: {out}");
    }
}

/// `--textbook` counts what a textbook IDA* counts (11,597 generated with Manhattan distance here, where the
/// fast search counts 8,624), prints each iteration, records it as `bound:generated:expanded`, and refuses
/// the settings it cannot honour.
#[test]
fn textbook_mode_prints_and_records_the_textbook_counts() {
    let position = "8 6 7 2 5 4 3 0 1";
    let o = solver(&["solve", "--textbook", "--heuristic", "manhattan", position], "");
    assert!(o.status.success(), "{}", stderr(&o));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("nodes 11597 generated, 7061 expanded"), "{text}");
    assert!(text.contains("iterations: bound 19: 4 generated, 2 expanded; bound 21: 108 generated"), "{text}");
    let o = solver(&["solve", "--textbook", "--heuristic", "manhattan", "--format", "json", position], "");
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["bounds"], "19:4:2 21:108:68 23:720:445 25:3347:2044 27:7418:4502");
    // A*'s counts (the convention's A* is checked in tests/tests/textbook.rs), in the text and the record.
    let o = solver(&["solve", "--textbook", "--algorithm", "astar", "--heuristic", "manhattan", position], "");
    assert!(o.status.success(), "{}", stderr(&o));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("nodes 3977 generated, 2509 expanded"), "{text}");
    assert!(!text.contains("iterations"), "{text}");
    let o = solver(&["solve", "--textbook", "--algorithm", "astar", "--format", "json", position], "");
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!((v["algorithm"].as_str(), v["length"].as_u64()), (Some("astar"), Some(27)), "{v}");
    for refused in [&["--threads", "2"][..], &["--lanes", "2"], &["--algorithm", "bfs"]] {
        let args = [&["solve", "--textbook", position][..], refused].concat();
        let o = solver(&args, "");
        assert_eq!(o.status.code(), Some(2), "{refused:?}");
        assert!(stderr(&o).starts_with("solver: error: --textbook "), "{}", stderr(&o));
    }
}

/// Ctrl-C during a long exploration: a line saying so and exit code 130, at once.
#[test]
fn an_interrupted_explore_says_so_and_exits_130() {
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_solver"))
        .args(["explore", "--board", "3x4"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Long after its start (its handler is set before it explores; the 3x4 space takes minutes).
    std::thread::sleep(std::time::Duration::from_secs(2));
    let kill = std::process::Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    assert!(kill.success());
    let started = std::time::Instant::now();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130), "{out:?}");
    assert!(started.elapsed() < std::time::Duration::from_secs(30), "it took {:?}", started.elapsed());
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("explore: interrupted after") && out.stdout.is_empty(), "{said}");
}
