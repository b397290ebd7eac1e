//! Boards past the optimal search's 25 cells: `generate` draws them, `solve --algorithm fast` solves them
//! (each solution replayed here, by this file's own rules, and never shorter than its lower bound), and
//! `check` replays solutions on them.

use std::process::Output;

fn solver(args: &[&str]) -> Output {
    harness::run(env!("CARGO_BIN_EXE_solver"), args, b"")
}

fn ok(o: &Output) -> String {
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// `solver generate`'s positions (after its comment line).
fn generate(board: &str, seed: &str, extra: &[&str]) -> Vec<String> {
    let out = ok(&solver(&[&["generate", "--board", board, "--seed", seed, "--count", "3"][..], extra].concat()));
    let mut lines = out.lines();
    assert!(lines.next().unwrap().starts_with(&format!("# solver generate --count 3 --seed {seed}")));
    lines.map(String::from).collect()
}

/// Replays the blank's directions (`--moves dirs`) from `tiles` on a `rows` x `cols` board.
fn replay(rows: usize, cols: usize, tiles: &[u32], dirs: &str) -> Vec<u32> {
    let mut t = tiles.to_vec();
    let mut blank = t.iter().position(|&x| x == 0).unwrap();
    for d in dirs.chars() {
        let (r, c) = (blank / cols, blank % cols);
        let to = match d {
            'U' if r > 0 => blank - cols,
            'D' if r + 1 < rows => blank + cols,
            'L' if c > 0 => blank - 1,
            'R' if c + 1 < cols => blank + 1,
            _ => panic!("move {d} leaves the board"),
        };
        t.swap(blank, to);
        blank = to;
    }
    t
}

#[test]
fn generate_draws_big_boards_reproducibly() {
    for board in ["6x6", "10x10", "7x12"] {
        let (r, c): (usize, usize) = {
            let (r, c) = board.split_once('x').unwrap();
            (r.parse().unwrap(), c.parse().unwrap())
        };
        let lines = generate(board, "5", &[]);
        assert_eq!(lines, generate(board, "5", &[]));
        assert_ne!(lines, generate(board, "6", &[]));
        for line in &lines {
            let mut tiles: Vec<u32> = line.split(' ').map(|w| w.parse().unwrap()).collect();
            tiles.sort();
            assert_eq!(tiles, (0..(r * c) as u32).collect::<Vec<_>>(), "{board}: {line}");
        }
    }
    // A walk of 10 moves is within 10 moves of the goal: the fast solver's lower bound says at most 10.
    for line in generate("10x10", "2", &["--walk", "10", "--goal", "blank-last"]) {
        let v: serde_json::Value = serde_json::from_str(&ok(&solver(&[
            "solve",
            "--algorithm",
            "fast",
            "--goal",
            "blank-last",
            "--format",
            "json",
            &line,
        ])))
        .unwrap();
        assert!(v["lower_bound"].as_u64().unwrap() <= 10, "{v}");
    }
}

#[test]
fn fast_solutions_replay_to_the_goal_above_their_lower_bound() {
    for (board, goal) in [
        ("6x6", "blank-first"),
        ("8x8", "blank-last"),
        ("10x10", "blank-first"),
        ("6x9", "blank-last"),
        ("11x4", "blank-first"),
    ] {
        let (rows, cols): (usize, usize) = {
            let (r, c) = board.split_once('x').unwrap();
            (r.parse().unwrap(), c.parse().unwrap())
        };
        for line in generate(board, "9", &["--goal", goal]) {
            let tiles: Vec<u32> = line.split(' ').map(|w| w.parse().unwrap()).collect();
            for algorithm in ["fast", "fast-simple"] {
                let args = [
                    "solve",
                    "--algorithm",
                    algorithm,
                    "--board",
                    board,
                    "--goal",
                    goal,
                    "--format",
                    "json",
                    "--moves",
                    "dirs",
                    &line,
                ];
                let v: serde_json::Value = serde_json::from_str(&ok(&solver(&args))).unwrap();
                let dirs = v["moves"].as_str().unwrap();
                let n = (rows * cols) as u32;
                let want: Vec<u32> = if goal == "blank-first" { (0..n).collect() } else { (1..n).chain([0]).collect() };
                assert_eq!(replay(rows, cols, &tiles, dirs), want, "{board} {algorithm}: {line}");
                let length = v["length"].as_u64().unwrap();
                assert_eq!(length as usize, dirs.len());
                let bound = v["lower_bound"].as_u64().unwrap();
                assert!(0 < bound && bound <= length, "{v}");
                assert_eq!(v["gap_at_most"].as_u64(), Some(length - bound));
                let runs = dirs.as_bytes().windows(2).filter(|w| w[0] != w[1]).count() + 1;
                assert_eq!(v["mtm"].as_u64(), Some(runs as u64));
            }
        }
    }
}

/// `check` on a big board: the fast solver's solution in the grouped notation solves it, with no optimum
/// (the board is past the optimal search's) and the reason why; one move less does not.
#[test]
fn check_replays_big_board_solutions() {
    let line = generate("8x8", "4", &[]).remove(0);
    let v: serde_json::Value = serde_json::from_str(&ok(&solver(&[
        "solve",
        "--algorithm",
        "fast",
        "--format",
        "json",
        "--moves",
        "udlr",
        &line,
    ])))
    .unwrap();
    let moves = v["moves"].as_str().unwrap();
    let o = solver(&["check", "--format", "json", &line, moves]);
    let c: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(o.status.code(), Some(0), "{c}");
    assert_eq!((c["stm"].as_u64(), c["mtm"].as_u64()), (v["length"].as_u64(), v["mtm"].as_u64()));
    assert_eq!(c["lower_bound"], v["lower_bound"]);
    assert!(c["optimal_stm"].is_null() && c["optimal_stm_note"].as_str().unwrap().contains("at most 25 cells"));
    // Run together: the last character is the last slide's letter or count, and without it the moves fall short.
    assert!(!moves.contains(' '), "{moves}");
    let shorter = &moves[..moves.len() - 1];
    assert_eq!(solver(&["check", &line, shorter]).status.code(), Some(1));
}

#[test]
fn fast_refuses_bad_input_in_one_line() {
    let o = solver(&["solve", "--algorithm", "fast", "--board", "10x10", "1 2 3"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("expected 100 tiles for a 10x10 board, found 3") && err.lines().count() == 1, "{err}");
    let o = solver(&["solve", "--algorithm", "fast", "--board", "17x17", "1"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("too large"));
}

/// A solution as long as the lower bound is optimal, and the text says so instead of a gap of 0.
#[test]
fn a_solution_meeting_the_bound_is_called_optimal() {
    let mut tiles: Vec<String> = (1..36).map(|t| t.to_string()).chain(["0".to_string()]).collect();
    tiles.swap(34, 35);
    let line = tiles.join(" ");
    let out = ok(&solver(&["solve", "--algorithm", "fast", "--goal", "blank-last", &line]));
    let first = out.lines().next().unwrap();
    assert!(first.starts_with("length 1 ") && first.contains("optimal, as it meets the bound"), "{out}");
    // Without --goal, blank-first: tile 1 slid right (into the blank on its right) is the goal 0 1 2 ... 35.
    let first: Vec<String> = [1, 0].into_iter().chain(2..36).map(|t: u32| t.to_string()).collect();
    let args = ["solve", "--algorithm", "fast", "--format", "json", "--moves", "udlr", &first.join(" ")];
    let v: serde_json::Value = serde_json::from_str(&ok(&solver(&args))).unwrap();
    assert_eq!((v["length"].as_u64(), v["moves"].as_str(), v["gap_at_most"].as_u64()), (Some(1), Some("R"), Some(0)));
}
