//! `solver solve` made visible: boards along the solution, the goal stated, grids on stdin, limits, and the
//! hint toward the other goal convention.

const BIN: &str = env!("CARGO_BIN_EXE_solver");
const HARD_3X3: &str = "8 0 6 5 4 7 2 3 1";

fn solve(args: &[&str], stdin: &str) -> (Option<i32>, String, String) {
    let mut all = vec!["solve", "-j", "1"];
    if !args.contains(&"--heuristic") {
        all.extend(["--heuristic", "linear-conflict"]);
    }
    all.extend(args);
    let o = harness::run(BIN, &all, stdin.as_bytes());
    (o.status.code(), String::from_utf8(o.stdout).unwrap(), String::from_utf8(o.stderr).unwrap())
}

/// The boards drawn in `out`: each one's lines of cells, as words.
fn boards(out: &str) -> Vec<Vec<String>> {
    let mut all = Vec::new();
    let mut rows: Vec<String> = Vec::new();
    for line in out.lines() {
        if let Some(cells) = line.strip_prefix('|').and_then(|l| l.strip_suffix('|')) {
            rows.push(
                cells
                    .split('|')
                    .map(|c| if c.trim().is_empty() { "0" } else { c.trim() })
                    .collect::<Vec<_>>()
                    .join(" "),
            );
        } else if !line.starts_with('+') && !rows.is_empty() {
            all.push(std::mem::take(&mut rows));
        }
    }
    if !rows.is_empty() {
        all.push(rows);
    }
    all
}

#[test]
fn show_draws_the_start_and_every_board_to_the_goal_as_plain_text_when_piped() {
    let (code, out, _) = solve(&["--board", "3x3", "--show", HARD_3X3], "");
    assert_eq!(code, Some(0));
    assert!(!out.contains('\x1b'), "no terminal codes in a pipe: {out}");
    assert!(out.contains("goal 0 1 2 3 4 5 6 7 8\n"), "{out}");
    let drawn = boards(&out);
    assert_eq!(drawn.len(), 32, "the start and 31 moves");
    assert_eq!(drawn[0], ["8 0 6", "5 4 7", "2 3 1"]);
    assert_eq!(drawn[31], ["0 1 2", "3 4 5", "6 7 8"]);
    // --moves boards is the same; --every 10 keeps the start, every tenth and the goal.
    let (_, same, _) = solve(&["--board", "3x3", "--moves", "boards", HARD_3X3], "");
    assert_eq!(boards(&same), drawn);
    let (_, some, _) = solve(&["--board", "3x3", "--show", "--every", "10", HARD_3X3], "");
    let kept = boards(&some);
    assert_eq!(kept, [0, 10, 20, 30, 31].map(|i| drawn[i].clone()));
    // --animate on a pipe prints the boards one after another instead of redrawing.
    let (_, animated, _) = solve(&["--board", "3x3", "--animate", "--delay", "0.001", HARD_3X3], "");
    assert_eq!(boards(&animated), drawn);
}

#[test]
fn the_goal_is_stated_in_text_and_json_and_blank_last_boards_use_its_labels() {
    let (code, out, _) = solve(&["--board", "2x3", "--goal", "blank-last", "--show", "1 2 3 4 0 5"], "");
    assert_eq!(code, Some(0));
    assert!(out.contains("goal 1 2 3 4 5 0\niterations: bound 1: 3 generated, 1 expanded\nmoves: 5\n"), "{out}");
    assert_eq!(boards(&out).last().unwrap(), &["1 2 3", "4 5 0"]);
    let (_, json, _) = solve(&["--board", "2x3", "--format", "json", "1 2 0 3 4 5"], "");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!((v["goal"].as_str(), v["length"].as_u64()), (Some("0 1 2 3 4 5"), Some(2)));
}

#[test]
fn an_unsolvable_position_names_the_goal_it_is_solvable_toward() {
    let swapped = "0 1 2 3 4 5 6 7 8 9 10 11 12 13 15 14";
    let (code, _, err) = solve(&[swapped], "");
    assert_eq!(code, Some(2));
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("unsolvable") && err.contains("--goal blank-last"), "{err}");
    let (code, _, err) = solve(&["--goal", "blank-last", "1 2 3 4 5 6 7 8 9 10 11 12 13 15 14 0"], "");
    assert_eq!(code, Some(2));
    assert!(err.contains("--goal blank-first"), "{err}");
}

#[test]
fn positions_may_be_typed_as_grids_on_stdin() {
    let input = "8 0 6\n5 4 7\n2 3 1\n\n1 2 0 3 4 5 6 7 8\n# a comment\n1 2 5\n3 4 0\n6 7 8\n";
    let (code, out, err) = solve(&["--board", "3x3", "-"], input);
    assert_eq!(code, Some(0), "{err}");
    let lengths: Vec<&str> =
        out.lines().filter(|l| l.starts_with("length")).map(|l| l.split(' ').nth(1).unwrap()).collect();
    assert_eq!(lengths, ["31", "2", "3"]);
    // An incomplete grid is an error naming its first line; the rest is still solved.
    let (code, out, err) = solve(&["--board", "3x3", "-"], "1 2\n\n1 2 0 3 4 5 6 7 8\n");
    assert_eq!(code, Some(2));
    assert!(err.contains("stdin line 1: expected 9 tiles"), "{err}");
    assert!(out.starts_with("length 2"), "{out}");
}

#[test]
fn a_search_stopped_by_a_limit_prints_status_limit_and_a_bound_and_exits_3() {
    let korf1 = "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3";
    let (code, out, _) = solve(&["--heuristic", "manhattan", "--node-limit", "1000", korf1], "");
    assert_eq!(code, Some(3), "{out}");
    assert!(out.starts_with("status limit (node limit: stopped after "), "{out}");
    assert!(out.contains("the optimal length is at least"), "{out}");
    let (code, out, _) = solve(&["--heuristic", "manhattan", "--time-limit", "0.1", "--format", "json", korf1], "");
    assert_eq!(code, Some(3));
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["status"], "limit");
    assert!(v["error"].as_str().unwrap().starts_with("time limit"), "{v}");
}

#[test]
fn no_progress_lines_when_stderr_is_not_a_terminal() {
    let (code, _, err) = solve(&["--board", "3x3", HARD_3X3], "");
    assert_eq!((code, err.as_str()), (Some(0), ""));
}
