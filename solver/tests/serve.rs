//! `solver serve`'s JSON API over plain HTTP: answers are the records `solve --format json` prints, and
//! every bad request is a 4xx with `{"error": reason}`, worded alike whether the field came in a body or a
//! query. Solves run as jobs too, followed and stopped.

use harness::Server;
use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_solver");
/// A 3x3 position 31 moves from the goal, the hardest there is.
const HARD_3X3: &str = "8 0 6 5 4 7 2 3 1";
/// Korf's instance 1: far too hard for Manhattan distance in a fraction of a second.
const KORF_1: &str = "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3";

fn server() -> Server {
    Server::start(BIN, &["--pdbs", "/nonexistent", "--threads", "2"])
}

fn post(s: &Server, body: &str) -> (u16, Value) {
    let (status, text) = s.request("POST", "/api/solve", body.as_bytes());
    (status, serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}")))
}

fn tiles(text: &str) -> String {
    format!("[{}]", text.replace(' ', ","))
}

#[test]
fn a_solve_answers_with_the_fields_of_solve_json() {
    let s = server();
    let body = format!(r#"{{"board": "3x3", "tiles": {}, "heuristic": "linear-conflict"}}"#, tiles(HARD_3X3));
    let (status, got) = post(&s, &body);
    assert_eq!(status, 200, "{got}");
    let cli = harness::run(
        BIN,
        &["solve", "--board", "3x3", "--heuristic", "linear-conflict", "--format", "json", "-j", "1", HARD_3X3],
        b"",
    );
    let want: Value = serde_json::from_slice(&cli.stdout).unwrap();
    // The command's record, and the moves in every notation of `--moves` besides.
    let keys = |v: &Value| v.as_object().unwrap().keys().cloned().collect::<Vec<_>>();
    let mut with_notation = keys(&want);
    with_notation.push("notation".into());
    with_notation.sort();
    assert_eq!(keys(&got), with_notation);
    for field in ["status", "length", "moves", "tiles", "goal", "heuristic"] {
        assert_eq!(got[field], want[field], "{field}");
    }
    assert_eq!(got["length"], 31);
    assert_eq!(got["notation"]["tiles"], got["moves"]);
    for (style, field) in [("dirs", "dirs"), ("udlr", "udlr")] {
        let cli = harness::run(
            BIN,
            &[
                "solve",
                "--board",
                "3x3",
                "--heuristic",
                "linear-conflict",
                "--format",
                "json",
                "--moves",
                style,
                HARD_3X3,
            ],
            b"",
        );
        let want: Value = serde_json::from_slice(&cli.stdout).unwrap();
        assert_eq!(got["notation"][field], want["moves"], "{style}");
    }
    let slides = harness::grouped_slides(got["notation"]["udlr"].as_str().unwrap()).len();
    assert_eq!(got["notation"]["slides"], slides);
    assert_eq!(got["goal"], "0 1 2 3 4 5 6 7 8");
    // Blank-last labels both ways, as on the command line.
    let (status, last) = post(&s, r#"{"board": "2x3", "tiles": [1, 2, 3, 4, 0, 5], "goal": "blank-last"}"#);
    assert_eq!((status, &last["moves"], &last["goal"]), (200, &Value::from("5"), &Value::from("1 2 3 4 5 0")));
}

#[test]
fn bad_requests_are_400_with_the_reason_as_json() {
    let s = server();
    let cases = [
        (r#"{"board": "3x3", "tiles": [1, 2"#, "the body is not complete JSON (it ends at line 1 column 31)"),
        (r#"{"board": "3x3", "tiles": [1, 2] x"#, "the body is not JSON (a mistake at line 1 column 34)"),
        (r#"[1, 2]"#, "the body must be a JSON object of fields, not [1,2]"),
        (r#"{"board": "3x3"}"#, "missing field 'tiles'"),
        (
            r#"{"board": "3x3", "tiles": "1 2 3"}"#,
            "field 'tiles': expected an array of whole numbers, 0 or more, found \"1 2 3\"",
        ),
        (r#"{"board": 3, "tiles": []}"#, "field 'board': expected text, found 3"),
        (r#"{"board": "3x3", "tiles": [1, 2, 3, 4, 5, 6, 7, 0]}"#, "expected 9 tiles, found 8"),
        (r#"{"board": "3x3", "tiles": [1, 2, 3, 4, 5, 6, 7, 8, 9]}"#, "tile 9 is out of range"),
        (r#"{"board": "9x9", "tiles": []}"#, "board '9x9'"),
        (r#"{"board": "3x3", "tiles": [0, 1, 2, 3, 4, 5, 6, 8, 7]}"#, "unsolvable"),
        (
            r#"{"tiles": [0, 1, 2], "colour": "red"}"#,
            "unknown field 'colour' (this request takes: puzzle, board, tiles, goal, heuristic, algorithm, textbook)",
        ),
        (r#"{"puzzle": "rubik", "tiles": []}"#, "unknown puzzle 'rubik'"),
        (
            r#"{"board": "3x3", "tiles": [0, 1, 2, 3, 4, 5, 6, 7, 8], "heuristic": "magic"}"#,
            "unknown heuristic 'magic'",
        ),
    ];
    for (body, reason) in cases {
        let (status, v) = post(&s, body);
        assert_eq!(status, 400, "{body}: {v}");
        assert!(v["error"].as_str().unwrap().contains(reason), "{body}: {v}");
    }
    // Unsolvable toward one goal but not the other: the answer names the other, as the page's Goal menu
    // and the request's field say it (a web user has no command-line options).
    let swapped = "0 1 2 3 4 5 6 7 8 9 10 11 12 13 15 14";
    let (status, v) = post(&s, &format!(r#"{{"tiles": {}}}"#, tiles(swapped)));
    assert_eq!(status, 400);
    let reason = v["error"].as_str().unwrap();
    assert!(reason.contains(r#"Goal menu ("goal": "blank-last")"#) && !reason.contains("--"), "{v}");
    let (status, v) = post(&s, &format!(r#"{{"tiles": [{}]}}"#, "1,".repeat(20_000)));
    assert_eq!(status, 413, "{v}");
    assert!(v["error"].as_str().is_some(), "{v}");
    for (method, path, code) in [("GET", "/api/nothing", 404), ("GET", "/api/solve", 405)] {
        let (status, text) = s.request(method, path, b"");
        assert_eq!(status, code, "{method} {path}");
        assert!(text.contains("\"error\""), "{method} {path}: {text}");
    }
}

#[test]
fn a_search_past_the_time_limit_answers_limit_with_a_lower_bound() {
    let s = Server::start(BIN, &["--pdbs", "/nonexistent", "--time-limit", "0.2"]);
    let body = format!(r#"{{"tiles": {}, "heuristic": "manhattan"}}"#, tiles(KORF_1));
    // Making the 4x4 solver (its move automaton) can take longer than the limit: a request meanwhile is
    // refused within its limit, and the solver goes on loading for the next.
    let (status, v) = loop {
        let started = std::time::Instant::now();
        let (status, v) = post(&s, &body);
        // Generous (a slow machine gives a slow pass): a request that waited for the solver would wait minutes.
        assert!(started.elapsed().as_secs_f64() < 60.0, "{status} {v} after {:?}", started.elapsed());
        if status != 503 {
            break (status, v);
        }
        assert!(v["error"].as_str().unwrap().contains("not ready yet"), "{v}");
        std::thread::sleep(std::time::Duration::from_millis(100));
    };
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["status"], "limit");
    assert!(v["error"].as_str().unwrap().contains("the optimal length is at least"), "{v}");
}

#[test]
fn concurrent_requests_all_get_their_answer() {
    let s = server();
    let positions = [HARD_3X3, "6 4 7 8 5 0 3 2 1", "1 0 2 3 4 5 6 7 8", "0 1 2 3 4 5 6 7 8"];
    let lengths: Vec<Value> = std::thread::scope(|scope| {
        let handles: Vec<_> = positions
            .iter()
            .map(|p| {
                scope.spawn(|| post(&s, &format!(r#"{{"board": "3x3", "tiles": {}}}"#, tiles(p))).1["length"].clone())
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert_eq!(lengths, [31, 25, 1, 0].map(Value::from));
}

/// `GET /api/random?QUERY`, which must answer 200: its body.
fn random(s: &Server, query: &str) -> String {
    let (status, text) = s.request("GET", &format!("/api/random?{query}"), b"");
    assert_eq!(status, 200, "{query}: {text}");
    text
}

/// `GET /api/random?QUERY`, which must be refused with a 400 giving `reason`.
fn random_refused(s: &Server, query: &str, reason: &str) {
    let (status, text) = s.request("GET", &format!("/api/random?{query}"), b"");
    assert_eq!(status, 400, "{query}: {text}");
    let error = serde_json::from_str::<Value>(&text).unwrap()["error"].as_str().unwrap().to_string();
    assert!(error.contains(reason), "{query}: {error}");
}

#[test]
fn random_positions_are_solvable_and_bad_queries_are_400() {
    let s = server();
    for query in ["board=3x3&walk=12", "board=2x3", "board=4x4&walk=40&goal=blank-last"] {
        let text = random(&s, query);
        let p: Value = serde_json::from_str(&text).unwrap();
        let body = serde_json::json!({ "board": p["board"], "tiles": p["tiles"], "goal": p["goal"], "heuristic": "linear-conflict" });
        let (status, v) = post(&s, &body.to_string());
        assert_eq!((status, &v["status"]), (200, &Value::from("solved")), "{query}: {text} -> {v}");
        if query.contains("walk=12") {
            assert!(v["length"].as_u64().unwrap() <= 12);
        }
    }
    for (query, reason) in [
        ("board=1x1", "board '1x1'"),
        ("walk=-3", r#"field 'walk': expected a whole number, 0 or more, found "-3""#),
        ("walk=99999", "longer than"),
        ("size=3", "unknown field 'size' (this request takes: puzzle, board, goal, walk)"),
        ("walk=3&walk=4", "field 'walk' is given twice"),
    ] {
        random_refused(&s, query, reason);
    }
}

#[test]
fn the_page_and_its_assets_are_served() {
    let s = server();
    for (path, needle) in [("/", "<title>Puzzle solver</title>"), ("/app.js", "/api/puzzles"), ("/style.css", ".tile")]
    {
        let (status, text) = s.request("GET", path, b"");
        assert_eq!(status, 200, "{path}");
        assert!(text.contains(needle), "{path}");
    }
}

/// A water-sort request for `level` (a level line or the JSON form) with these extra fields.
fn water(level: Value, extra: Value) -> String {
    let mut body = serde_json::json!({ "puzzle": "water-sort", "level": level });
    body.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
    body.to_string()
}

/// The pours of a record (`1->3 2->1`), numbered from 0 as the watersort crate does.
fn pours(moves: &Value) -> Vec<watersort::Pour> {
    let pour = |w: &str| {
        let (from, to) = w.split_once("->").unwrap();
        watersort::Pour { from: from.parse::<usize>().unwrap() - 1, to: to.parse::<usize>().unwrap() - 1 }
    };
    moves.as_str().unwrap().split_whitespace().map(pour).collect()
}

/// The fewest pours by breadth-first search, which needs no heuristic to be right.
fn bfs_length(level: &watersort::Level, rule: watersort::Rule) -> usize {
    let options = watersort::Options {
        algorithm: watersort::Algorithm::Bfs,
        model: watersort::Model { rule, ..watersort::Model::default() },
        ..watersort::Options::default()
    };
    match watersort::solve(level, &options).unwrap().outcome {
        watersort::Outcome::Solved(p) => p.len(),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_water_sort_level_is_solved_in_the_fewest_pours_which_replay_to_sorted_tubes() {
    use watersort::Rule;
    let s = server();
    let cases = [
        (Value::from("demo: abcab cabca bcabc - -"), 5, Rule::Standard),
        (Value::from("ab ba -"), 2, Rule::OneUnit),
        (serde_json::json!([["Red", "Blue", "Red"], ["Blue", "Red", "Blue"], []]), 3, Rule::WholeRun),
    ];
    for (level, capacity, rule) in cases {
        let rule_name = format!("{rule:?}").replace("Run", "-run").replace("Unit", "-unit").to_lowercase();
        let (status, got) =
            post(&s, &water(level.clone(), serde_json::json!({"capacity": capacity, "rule": rule_name})));
        assert_eq!((status, &got["status"]), (200, &Value::from("solved")), "{level}: {got}");
        // Every field of a batch record, as `watersort solve --format json` prints.
        let want = serde_json::to_value(batch::Record::default()).unwrap();
        let keys = |v: &Value| v.as_object().unwrap().keys().cloned().collect::<Vec<_>>();
        assert_eq!(keys(&got), keys(&want));
        let parsed = match &level {
            Value::String(line) => watersort::parse_levels(line, capacity).remove(0).unwrap(),
            json => watersort::parse_json(&json.to_string(), "level", capacity).unwrap(),
        };
        let pours = pours(&got["moves"]);
        assert_eq!(watersort::check(&parsed, rule, &pours), Ok(()), "{level}: {got}");
        assert_eq!(pours.len(), bfs_length(&parsed, rule), "{level}: {got}");
        assert_eq!(got["length"], pours.len());
        assert_eq!(got["instance"], parsed.to_line());
    }
}

#[test]
fn a_bad_water_sort_level_is_400_naming_the_problem() {
    let s = server();
    let cases = [
        (water("x: aaaaa -".into(), serde_json::json!({})), "tube 1 holds 5 units, over the capacity 4"),
        (water("x: aaaa a1aa -".into(), serde_json::json!({})), "tube 2: unknown character '1'"),
        (water("x: aaa -".into(), serde_json::json!({})), "colour a has 3 units, not a multiple of the capacity 4"),
        (water("x: aaaa".into(), serde_json::json!({})), "a level needs at least two"),
        (water("".into(), serde_json::json!({})), "no tubes"),
        (water("aaaa -\nbbbb -".into(), serde_json::json!({})), "2 levels"),
        (water(serde_json::json!([["Red"], 3]), serde_json::json!({})), "tube 2: must be an array"),
        (water(7.into(), serde_json::json!({})), "a level line"),
        (water("aa -".into(), serde_json::json!({"capacity": 0})), "capacity must be at least 1"),
        (water("aa -".into(), serde_json::json!({"rule": "gravity"})), "unknown rule 'gravity'"),
        (
            water("aa -".into(), serde_json::json!({"tiles": [1]})),
            "unknown field 'tiles' (this request takes: puzzle, level, capacity, rule)",
        ),
        (water("aa -".into(), serde_json::json!({"capacity": "4"})), "field 'capacity': expected a whole number"),
        (r#"{"puzzle": "water-sort"}"#.to_string(), "missing field 'level'"),
        (r#"{"puzzle": 3, "level": "aa -"}"#.to_string(), "field 'puzzle': expected text, found 3"),
    ];
    for (body, reason) in cases {
        let (status, v) = post(&s, &body);
        assert_eq!(status, 400, "{body}: {v}");
        assert!(v["error"].as_str().unwrap().contains(reason), "{body}: {v}");
    }
}

#[test]
fn an_unsolvable_water_sort_level_is_a_record_saying_so() {
    let s = server();
    // Both tubes full, their tops differ: no pour at all.
    let (status, v) = post(&s, &water("stuck: ab ba".into(), serde_json::json!({"capacity": 2})));
    assert_eq!((status, &v["status"]), (200, &Value::from("unsolvable")), "{v}");
    assert!(v["error"].as_str().unwrap().contains("no solution"), "{v}");
    assert_eq!((&v["length"], &v["moves"]), (&Value::Null, &Value::from("")));
}

#[test]
fn a_water_sort_search_past_the_time_limit_answers_limit() {
    let s = Server::start(BIN, &["--pdbs", "/nonexistent", "--time-limit", "0.001"]);
    // Thirty colours (`watersort generate --colors 30 --seed 5`): A* takes about a second (BENCHMARKS.md),
    // a thousand times the limit.
    let level = "s5-1: arDo Cwbw keDe lpsn ftlC zjrp pAnf onnC dufg dbxg ydxd cbDi aicv zBah sure vylh fwAh sxgo \
                 usok jmtA Bmyr kpBu Bjkc ieaC mzmh zqvt Avxq lqjg btwq iyDc - -";
    let (status, v) = post(&s, &water(level.into(), serde_json::json!({})));
    assert_eq!((status, &v["status"]), (200, &Value::from("limit")), "{v}");
    assert!(v["error"].as_str().unwrap().contains("time limit"), "{v}");
}

#[test]
fn random_water_sort_levels_are_solved_and_bad_queries_are_400() {
    let s = server();
    for query in ["colors=3&empty=2&capacity=3", "colors=4", "colors=3&empty=1&capacity=2&rule=one-unit"] {
        let text = random(&s, &format!("puzzle=water-sort&{query}"));
        // The answer is a request as it stands.
        let (status, v) = post(&s, &text);
        assert_eq!((status, &v["status"]), (200, &Value::from("solved")), "{query}: {text} -> {v}");
    }
    let level: Value = serde_json::from_str(&random(&s, "puzzle=water-sort&colors=5&empty=1&capacity=3")).unwrap();
    assert_eq!((&level["capacity"], &level["rule"]), (&Value::from(3), &Value::from("standard")));
    let tubes: Vec<&str> = level["level"].as_str().unwrap().split(": ").nth(1).unwrap().split(' ').collect();
    assert_eq!(tubes.len(), 6, "{level}");
    // Named after its seed, which is short, so the name reads at a glance.
    let name = level["level"].as_str().unwrap().split(": ").next().unwrap();
    assert!(name.len() <= 8 && name.starts_with('s') && name.ends_with("-1"), "{level}");
    for (query, reason) in [
        ("colors=99", "colors 99 is not in 1..=16"),
        ("capacity=9", "capacity 9"),
        ("empty=7", "empty 7"),
        ("colors=4&walk=3", "unknown field 'walk' (this request takes: puzzle, colors, empty, capacity, rule)"),
        ("colors=four", r#"field 'colors': expected a whole number, 0 or more, found "four""#),
        ("rule=sideways", "unknown rule 'sideways'"),
        ("colors=4&empty=0", "no solvable level"),
    ] {
        random_refused(&s, &format!("puzzle=water-sort&{query}"), reason);
    }
}

/// `POST /api/check` with `body`, which must answer 200: its verdict.
fn check(s: &Server, body: &str) -> Value {
    let (status, text) = s.request("POST", "/api/check", body.as_bytes());
    assert_eq!(status, 200, "{body}: {text}");
    serde_json::from_str(&text).unwrap()
}

#[test]
fn a_check_says_when_a_position_is_closer_to_the_other_goal_and_why_a_level_is_invalid() {
    let s = server();
    // Solved toward blank-first, asked toward blank-last: the other goal, by name, with both distances.
    let v = check(&s, r#"{"board": "3x3", "tiles": [0, 1, 2, 3, 4, 5, 6, 7, 8], "goal": "blank-last"}"#);
    assert_eq!(v["valid"], true, "{v}");
    let closer = &v["closer"];
    assert_eq!((&closer["goal"], &closer["tiles"]), (&Value::from("blank-first"), &Value::from("0 1 2 3 4 5 6 7 8")));
    assert_eq!(closer["distance"], 0);
    assert!(closer["distance_here"].as_u64().unwrap() > 0, "{v}");
    let v = check(&s, r#"{"board": "3x3", "tiles": [1, 2, 3, 4, 5, 6, 7, 8, 0], "goal": "blank-last"}"#);
    assert_eq!((&v["valid"], &v["closer"]), (&Value::from(true), &Value::Null), "{v}");
    // An invalid position is a verdict with the reason /api/solve gives.
    let v = check(&s, r#"{"board": "3x3", "tiles": [0, 1, 2, 3, 4, 5, 6, 8, 7]}"#);
    assert_eq!(v["valid"], false);
    assert!(v["error"].as_str().unwrap().contains("unsolvable"), "{v}");
    // Water sort: the parser's reason, or what the level holds.
    let v = check(&s, &water("x: aab abb - -".into(), serde_json::json!({"capacity": 4})));
    assert_eq!(v["valid"], false);
    assert_eq!(v["error"], "bad level: colour a has 3 units, not a multiple of the capacity 4", "{v}");
    let v = check(&s, &water("demo: abcab cabca bcabc - -".into(), serde_json::json!({"capacity": 5})));
    assert_eq!(
        v,
        serde_json::json!({
            "valid": true, "level": "demo: abcab cabca bcabc - -", "colors": 3, "empty": 2, "capacity": 5, "hidden": 0
        })
    );
    // Hidden units: the colours not in sight yet counted, and a hidden top refused with the parser's reason.
    let v = check(&s, &water("m: ??a ?bb ?ab -".into(), serde_json::json!({"capacity": 3})));
    assert_eq!(
        v,
        serde_json::json!({"valid": true, "level": "m: ??a ?bb ?ab -", "colors": 3, "empty": 1, "capacity": 3, "hidden": 4})
    );
    let v = check(&s, &water("m: ??a ?bb ?a? -".into(), serde_json::json!({"capacity": 3})));
    assert_eq!(v["error"], "bad level: tube 3: its top unit is hidden, but a game always shows it", "{v}");
    // The same level as an array of named colours, "?" for a hidden unit.
    let tubes = serde_json::json!([["?", "?", "Red"], ["?", "Blue", "Blue"], ["?", "Red", "Blue"], []]);
    let v = check(&s, &water(tubes, serde_json::json!({"capacity": 3})));
    assert_eq!(
        v,
        serde_json::json!({"valid": true, "level": "level: ??a ?bb ?ab -", "colors": 3, "empty": 1, "capacity": 3, "hidden": 4})
    );
    // A malformed request is refused as /api/solve refuses it.
    let (status, text) = s.request("POST", "/api/check", br#"{"board": "3x3"}"#);
    assert_eq!(status, 400, "{text}");
    assert!(text.contains("missing field 'tiles'"), "{text}");
}

/// `POST /api/jobs` with `body`, which must be accepted: the job's id.
fn start_job(s: &Server, body: &str) -> String {
    let (status, text) = s.request("POST", "/api/jobs", body.as_bytes());
    assert_eq!(status, 202, "{body}: {text}");
    serde_json::from_str::<Value>(&text).unwrap()["id"].as_str().unwrap().to_string()
}

fn job(s: &Server, id: &str) -> (u16, Value) {
    let (status, text) = s.request("GET", &format!("/api/jobs/{id}"), b"");
    (status, serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}")))
}

/// Polls job `id` until it is no longer running: its last report.
fn finished(s: &Server, id: &str) -> Value {
    let started = std::time::Instant::now();
    loop {
        let (status, v) = job(s, id);
        assert_eq!(status, 200, "{v}");
        if v["state"] != "running" {
            return v;
        }
        assert!(started.elapsed().as_secs() < 60, "{v}");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

#[test]
fn a_job_answers_as_a_solve_does_and_reports_how_far_it_is() {
    let s = server();
    let body = format!(r#"{{"board": "3x3", "tiles": {}, "heuristic": "linear-conflict"}}"#, tiles(HARD_3X3));
    let (_, direct) = post(&s, &body);
    let id = start_job(&s, &body);
    let v = finished(&s, &id);
    assert_eq!(v["state"], "done", "{v}");
    for field in ["status", "length", "moves", "notation", "goal"] {
        assert_eq!(v["result"][field], direct[field], "{field}");
    }
    // IDA*'s last bound is the length; the time and nodes are the job's.
    assert_eq!(v["depth"], 31);
    assert!(v["seconds"].as_f64().unwrap() > 0.0 && v["expanded"].as_u64().unwrap() > 0, "{v}");
    // Water sort too, its depth A*'s f.
    let id = start_job(&s, &water("demo: abcab cabca bcabc - -".into(), serde_json::json!({"capacity": 5})));
    let v = finished(&s, &id);
    assert_eq!((&v["state"], &v["result"]["status"]), (&Value::from("done"), &Value::from("solved")), "{v}");
    // A bad request is refused when the job is asked for, as /api/solve refuses it.
    let (status, text) = s.request("POST", "/api/jobs", br#"{"board": "3x3", "tiles": [1]}"#);
    assert_eq!(status, 400, "{text}");
    assert!(text.contains("expected 9 tiles"), "{text}");
    for (method, path) in [("GET", "/api/jobs/999999"), ("DELETE", "/api/jobs/999999"), ("GET", "/api/jobs/x")] {
        let (status, text) = s.request(method, path, b"");
        assert_eq!(status, 404, "{method} {path}: {text}");
        assert!(text.contains("no job"), "{text}");
    }
}

#[test]
fn a_job_that_fails_says_so_in_its_report() {
    let s = server();
    // No tables in the folder: asking for them fails once the job looks for the solver.
    let id = start_job(&s, r#"{"board": "3x3", "tiles": [1, 0, 2, 3, 4, 5, 6, 7, 8], "heuristic": "pdb"}"#);
    let v = finished(&s, &id);
    assert_eq!((&v["state"], &v["status"]), (&Value::from("failed"), &Value::from(400)), "{v}");
    assert!(v["error"].as_str().unwrap().contains("/nonexistent"), "{v}");
}

#[test]
fn stopping_a_job_ends_its_search_and_frees_its_thread() {
    // One search at a time and no queue: while a job searches, a solve is refused as busy.
    let s = Server::start(BIN, &["--pdbs", "/nonexistent", "--threads", "1", "--queue", "0", "--time-limit", "120"]);
    let easy = r#"{"board": "3x3", "tiles": [1, 0, 2, 3, 4, 5, 6, 7, 8]}"#;
    let id = start_job(&s, &format!(r#"{{"tiles": {}, "heuristic": "manhattan"}}"#, tiles(KORF_1)));
    // Searching (its bound reported), not only waiting for its solver.
    let started = std::time::Instant::now();
    while job(&s, &id).1["depth"].as_u64().unwrap() == 0 {
        assert!(started.elapsed().as_secs() < 60, "the search never started");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let (status, v) = post(&s, easy);
    assert_eq!(status, 503, "{v}");
    let (status, text) = s.request("DELETE", &format!("/api/jobs/{id}"), b"");
    assert_eq!(status, 200, "{text}");
    assert_eq!(job(&s, &id).0, 404);
    // The search stops within milliseconds (its time limit is two minutes away).
    let stopped = std::time::Instant::now();
    loop {
        let (status, v) = post(&s, easy);
        if status == 200 {
            break;
        }
        assert!(stopped.elapsed().as_secs() < 60, "still busy: {v}");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

#[test]
fn boards_say_which_heuristic_auto_uses_and_what_to_expect() {
    let boards = |s: &Server| -> Value {
        let (status, text) = s.request("GET", "/api/boards", b"");
        assert_eq!(status, 200, "{text}");
        let v: Value = serde_json::from_str(&text).unwrap();
        let five = v["boards"].as_array().unwrap().iter().find(|b| b["board"] == "5x5").cloned();
        five.unwrap_or_else(|| panic!("no 5x5: {v}"))
    };
    let five = boards(&server());
    assert_eq!(five["heuristic"], "linear conflict", "{five}");
    assert!(five["about"].as_str().unwrap().contains("no tables"), "{five}");
    // A folder with the 6-6-6-6 set (empty files stand for the tables: only their presence is looked at).
    let dir = harness::TempDir::new("boards-pdbs");
    let board: puzzle::Board = "5x5".parse().unwrap();
    for pattern in puzzle::partition::Partition::parse(board, "6-6-6-6").unwrap().patterns {
        std::fs::write(dir.join(puzzle::partition::file_name(board, &pattern)), b"").unwrap();
    }
    let s = Server::start(BIN, &["--pdbs", dir.to_str().unwrap()]);
    let five = boards(&s);
    assert_eq!(five["heuristic"], "pattern databases 6-6-6-6", "{five}");
    assert!(five["about"].as_str().unwrap().contains("10 s limit"), "{five}");
    // With 7-6-6-5 beside it, both together, as `auto` takes them.
    for pattern in puzzle::partition::Partition::parse(board, "7-6-6-5").unwrap().patterns {
        std::fs::write(dir.join(puzzle::partition::file_name(board, &pattern)), b"").unwrap();
    }
    let s = Server::start(BIN, &["--pdbs", dir.to_str().unwrap()]);
    assert_eq!(boards(&s)["heuristic"], "pattern databases 7-6-6-5 and 6-6-6-6");
}

#[test]
fn refusals_use_no_serde_wording_in_bodies_or_queries() {
    let s = server();
    let bodies = [
        r#"{"board": "3x3", "tiles": [1, 2"#,
        r#"{"tiles": [-1]}"#,
        r#"{"tiles": [1.5]}"#,
        r#"{"tiles": {}}"#,
        r#"{"goal": 7, "tiles": []}"#,
        r#"{"goal": "sideways", "tiles": []}"#,
        r#"{"colour": 1, "tiles": []}"#,
        r#"{"puzzle": "water-sort", "level": "ab -", "capacity": -2}"#,
        r#"{"puzzle": "water-sort", "level": "ab -", "rule": ["x"]}"#,
        r#"{"puzzle": "water-sort", "levels": "ab -"}"#,
        "",
    ];
    let queries = ["walk=x", "board=4x4&goal=up", "puzzle=water-sort&capacity=-1", "puzzle=water-sort&colors=", "x=1"];
    let serde_words = ["`", "expected one of", "invalid type", "invalid value", "missing field `", "u64", "usize"];
    let answers = bodies
        .iter()
        .flat_map(|b| {
            ["/api/solve", "/api/check", "/api/jobs", "/api/hint"]
                .map(|path| (path.to_string(), s.request("POST", path, b.as_bytes())))
        })
        .chain(queries.iter().map(|q| (q.to_string(), s.request("GET", &format!("/api/random?{q}"), b""))));
    for (what, (status, text)) in answers {
        assert_eq!(status, 400, "{what}: {text}");
        let error = serde_json::from_str::<Value>(&text).unwrap()["error"].as_str().unwrap().to_string();
        assert!(!serde_words.iter().any(|w| error.contains(w)), "{what}: {error}");
    }
}

/// `POST /api/hint` with `body`: its status and answer.
fn hint(s: &Server, body: &str) -> (u16, Value) {
    let (status, text) = s.request("POST", "/api/hint", body.as_bytes());
    (status, serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}")))
}

#[test]
fn a_hint_says_the_fewest_pours_left_the_next_and_the_pours_to_dead_ends() {
    let s = server();
    let line = "w: ab cd ca db -";
    let (status, v) = hint(&s, &water(line.into(), serde_json::json!({"capacity": 2})));
    assert_eq!(status, 200, "{v}");
    // What the watersort crate says of the position, in the words of `watersort hint --format json`.
    let level = watersort::parse_levels(line, 2).remove(0).unwrap();
    let want = watersort::hint::hint(&level, &watersort::Options::default()).unwrap();
    let watersort::hint::Verdict::Solvable { pours_left, next: Some(next) } = want.verdict else { panic!("{want:?}") };
    assert_eq!((pours_left, bfs_length(&level, watersort::Rule::Standard)), (5, 5));
    assert_eq!((&v["sortable"], &v["pours_left"], &v["next"]), (&"yes".into(), &5.into(), &next.to_string().into()));
    let leads: Vec<(String, String)> =
        v["pours"].as_array().unwrap().iter().map(|p| (p["pour"].to_string(), p["leads_to"].to_string())).collect();
    let words = |s: &watersort::hint::Sortable| match s {
        watersort::hint::Sortable::Yes => "sortable",
        watersort::hint::Sortable::No => "dead end",
        watersort::hint::Sortable::Unknown(_) => "unknown",
    };
    let expected: Vec<(String, String)> =
        want.pours.iter().map(|(p, s)| (format!("\"{p}\""), format!("\"{}\"", words(s)))).collect();
    assert_eq!(leads, expected);
    assert!(leads.iter().any(|(_, l)| l == "\"dead end\""), "{v}");
    assert_eq!((&v["position"], &v["error"]), (&line.into(), &Value::Null));
    // Part full, after the dead-end pour 2 -> 5 from there: dead, and no pour left at all.
    let (status, v) = hint(&s, &water("w: ab c ca db d".into(), serde_json::json!({"capacity": 2})));
    assert_eq!((status, &v["sortable"], &v["pours_left"], &v["next"]), (200, &"no".into(), &Value::Null, &Value::Null));
    assert_eq!(v["pours"], serde_json::json!([]), "{v}");
}

#[test]
fn a_hint_for_what_is_no_position_is_refused_and_a_stopped_one_says_unknown() {
    let s = server();
    for (body, reason) in [
        (
            water("x: aab -".into(), serde_json::json!({"capacity": 3})),
            "colour a has 2 units, not a multiple of the capacity 3",
        ),
        (water("m: ??a ?bb ?ab -".into(), serde_json::json!({"capacity": 3})), "a hint needs every unit in sight"),
        (water("ab ba -".into(), serde_json::json!({"rule": "sideways"})), "unknown rule 'sideways'"),
        (
            r#"{"tiles": [1, 0, 2, 3], "board": "2x2"}"#.to_string(),
            "hints are not given for sliding-tile (the puzzles with hints: water-sort",
        ),
    ] {
        let (status, v) = hint(&s, &body);
        assert_eq!(status, 400, "{body}: {v}");
        assert!(v["error"].as_str().unwrap().contains(reason), "{body}: {v}");
    }
    let s = Server::start(BIN, &["--pdbs", "/nonexistent", "--time-limit", "0.001"]);
    let level = "s5-1: arDo Cwbw keDe lpsn ftlC zjrp pAnf onnC dufg dbxg ydxd cbDi aicv zBah sure vylh fwAh sxgo \
                 usok jmtA Bmyr kpBu Bjkc ieaC mzmh zqvt Avxq lqjg btwq iyDc - -";
    let (status, v) = hint(&s, &water(level.into(), serde_json::json!({})));
    assert_eq!((status, &v["sortable"]), (200, &"unknown".into()), "{v}");
    assert_eq!(v["error"], "the search stopped (time limit) before it knew", "{v}");
}

#[test]
fn a_level_with_hidden_units_is_answered_with_the_plan_up_to_the_first_reveal() {
    let s = server();
    let line = "m: ??a ?bb ?ab -";
    let (status, v) = post(&s, &water(line.into(), serde_json::json!({"capacity": 3})));
    assert_eq!((status, &v["status"]), (200, &"plan".into()), "{v}");
    let mystery = watersort::mystery::Mystery::parse(line, 1, 3).unwrap();
    let want =
        watersort::mystery::plan(&mystery, &watersort::Options::default(), &watersort::mystery::Sampling::default())
            .unwrap();
    assert_eq!(pours(&v["moves"]), want.pours);
    assert_eq!(v["length"], want.pours.len());
    assert_eq!(
        (&v["reveals"], &v["safe"], &v["exhaustive"]),
        (&want.reveals.into(), &want.safe().into(), &want.exhaustive.into())
    );
    for (field, n) in [
        ("checked", want.checked as u64),
        ("sortable_for", want.sortable_for as u64),
        ("unsortable", want.unsortable as u64),
        ("assignments", want.assignments),
        ("best_case", want.best_case as u64),
    ] {
        assert_eq!(v[field], n, "{field}: {v}");
    }
    assert_eq!((&v["instance"], &v["safe"], &v["assignments"]), (&line.into(), &true.into(), &4.into()));
    // As a job too, and refused as the parser or the rule says.
    let id = start_job(&s, &water(line.into(), serde_json::json!({"capacity": 3})));
    assert_eq!(finished(&s, &id)["result"]["moves"], v["moves"]);
    for (extra, level, reason) in [
        (
            serde_json::json!({"capacity": 3}),
            "m: ??a ?bb ?a? -",
            "tube 3: its top unit is hidden, but a game always shows it",
        ),
        (serde_json::json!({"capacity": 3, "rule": "whole-run"}), line, "standard and one-unit rules only"),
    ] {
        let (status, v) = post(&s, &water(level.into(), extra));
        assert_eq!(status, 400, "{level}: {v}");
        assert!(v["error"].as_str().unwrap().contains(reason), "{level}: {v}");
    }
}

/// The seam: every puzzle `/api/puzzles` lists is served on every route the same way — its page module,
/// a random instance that `/api/check` takes as valid, a solve of it (within the time limit: solved, a
/// plan, or a limit), a job of it, and a hint or the refusal naming the puzzles that give them — so a
/// puzzle that joins the registry is checked here without a line of its own.
#[test]
fn every_registered_puzzle_answers_every_route() {
    let s = Server::start(BIN, &["--pdbs", "/nonexistent", "--time-limit", "2"]);
    let (status, text) = s.request("GET", "/api/puzzles", b"");
    assert_eq!(status, 200, "{text}");
    let listed: Value = serde_json::from_str(&text).unwrap();
    let puzzles = listed["puzzles"].as_array().unwrap();
    assert!(puzzles.len() >= 2, "{listed}");
    let with_hints: Vec<&str> =
        puzzles.iter().filter(|p| p["hints"] == true).map(|p| p["name"].as_str().unwrap()).collect();
    for p in puzzles {
        let name = p["name"].as_str().unwrap();
        assert!(!p["title"].as_str().unwrap().is_empty() && p["about"].is_object(), "{p}");
        let (status, module) = s.request("GET", p["module"].as_str().unwrap(), b"");
        assert!(status == 200 && module.contains("export default function"), "{name}: {status}");
        let (status, drawn) = s.request("GET", &format!("/api/random?puzzle={name}"), b"");
        assert_eq!(status, 200, "{name}: {drawn}");
        let body: Value = serde_json::from_str(&drawn).unwrap();
        assert_eq!(body["puzzle"], name, "{body}");
        let (status, verdict) = s.request("POST", "/api/check", drawn.as_bytes());
        assert_eq!((status, serde_json::from_str::<Value>(&verdict).unwrap()["valid"].clone()), (200, true.into()));
        // What a puzzle needs made once (a tile solver) may take longer than the first request can wait.
        let mut solved = post(&s, &drawn);
        for _ in 0..60 {
            if solved.0 != 503 {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(500));
            solved = post(&s, &drawn);
        }
        let (status, record) = solved;
        assert_eq!(status, 200, "{name}: {record}");
        assert!(["solved", "plan", "limit"].contains(&record["status"].as_str().unwrap()), "{name}: {record}");
        let id = start_job(&s, &drawn);
        assert_eq!(finished(&s, &id)["state"], "done", "{name}");
        let (status, help) = hint(&s, &drawn);
        if p["hints"] == true {
            assert_eq!(status, 200, "{name}: {help}");
        } else {
            assert_eq!(status, 400, "{name}: {help}");
            let reason = help["error"].as_str().unwrap();
            assert!(reason.contains(name) && with_hints.iter().all(|h| reason.contains(h)), "{reason}");
        }
    }
    let (status, text) = s.request("GET", "/puzzles/rubik.js", b"");
    assert_eq!(status, 404, "{text}");
}

/// A hint given the pours made by hand (`history`, from `level`): a dead position says how many pours back
/// the last sortable one was, as `watersort hint --history` does.
#[test]
fn a_hint_with_the_pours_made_says_how_far_back_the_last_sortable_position_was() {
    let s = server();
    let body = |history: &str| {
        serde_json::json!({"puzzle": "water-sort", "level": "w: ab cd ca db -", "capacity": 2, "history": history})
            .to_string()
    };
    let (status, v) = hint(&s, &body("2->5"));
    assert_eq!(status, 200, "{v}");
    assert_eq!(
        (v["sortable"].clone(), v["take_back"].clone(), v["last_sortable_after"].clone()),
        ("no".into(), 1.into(), 0.into())
    );
    let (status, v) = hint(&s, &body("4->5"));
    assert_eq!((status, v["sortable"].clone(), v["take_back"].clone()), (200, "yes".into(), Value::Null));
    let (status, v) = hint(&s, &body("1->2"));
    assert_eq!(status, 400, "{v}");
    assert!(v["error"].as_str().unwrap().starts_with("field 'history'"), "{v}");
}

/// Sliding blocks: 横刀立马 in the fewest moves of each metric, the frames ending with Cao Cao (B) at the
/// exit, and a bad level refused naming its problem.
#[test]
fn a_klotski_level_is_solved_in_each_metric_and_a_bad_level_is_refused() {
    let s = server();
    let mut lengths = Vec::new();
    for metric in ["piece", "line", "unit"] {
        let body = format!(r#"{{"puzzle": "sliding-block", "level": "heng-dao-li-ma", "metric": "{metric}"}}"#);
        let (status, v) = post(&s, &body);
        assert_eq!((status, v["status"].as_str()), (200, Some("solved")), "{v}");
        let length = v["length"].as_u64().unwrap();
        let frames = v["frames"].as_array().unwrap();
        assert_eq!((v["moves"].as_array().unwrap().len() as u64, frames.len() as u64), (length, length + 1));
        let b = v["picture"]["pieces"].as_array().unwrap().iter().position(|p| p["letter"] == "B").unwrap();
        assert_eq!(frames.last().unwrap()[b], serde_json::json!([3, 1]), "{metric}");
        lengths.push(length);
    }
    // 81 in the piece metric, as puzzle books give it; a line or unit move is never more than a piece move.
    assert_eq!(lengths[0], 81);
    assert!(lengths[0] <= lengths[1] && lengths[1] <= lengths[2], "{lengths:?}");
    for (level, reason) in [("AB/BA A@1,1", "bad level"), ("no-such-level", "bad level")] {
        let (status, v) = post(&s, &format!(r#"{{"puzzle": "sliding-block", "level": "{level}"}}"#));
        assert_eq!(status, 400, "{v}");
        assert!(v["error"].as_str().unwrap().contains(reason), "{v}");
    }
}

/// No request ends the server (the release build aborts on a panic, so none may panic): every route of
/// every puzzle gets its random instance with each field in turn removed or replaced by a value of the
/// wrong kind or size, and unknown fields and queries besides; each is answered (2xx or 4xx, or 503 while a
/// solver is made; never a 500) and the server still answers a plain solve at the end.
#[test]
fn no_request_ends_the_server() {
    let s = Server::start(BIN, &["--pdbs", "/nonexistent", "--time-limit", "0.3"]);
    let (_, text) = s.request("GET", "/api/puzzles", b"");
    let listed: Value = serde_json::from_str(&text).unwrap();
    let odd: Vec<Value> = serde_json::from_str(
        r#"[null, 0, -1, 1.5, 1e308, 18446744073709551616, "", "x", "-", "?", "@", "٣", "💥",
            "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
            [], [0], [[]], [["a"]], [-1, 2], {}, {"a": 1}, true]"#,
    )
    .unwrap();
    let mut sent = 0;
    for p in listed["puzzles"].as_array().unwrap() {
        let name = p["name"].as_str().unwrap();
        let (_, drawn) = s.request("GET", &format!("/api/random?puzzle={name}"), b"");
        let base: serde_json::Map<String, Value> = serde_json::from_str(&drawn).unwrap();
        let mut bodies = Vec::new();
        for field in base.keys().filter(|k| *k != "puzzle") {
            let mut without = base.clone();
            without.remove(field);
            bodies.push(without);
            for value in &odd {
                let mut changed = base.clone();
                changed.insert(field.clone(), value.clone());
                bodies.push(changed);
            }
        }
        let mut extra = base.clone();
        extra.insert("colour".into(), "red".into());
        bodies.push(extra);
        for body in bodies {
            let text = Value::Object(body.clone()).to_string();
            for route in ["/api/check", "/api/solve", "/api/hint"] {
                let (status, answer) = s.request("POST", route, text.as_bytes());
                assert!((200..500).contains(&status) || status == 503, "{route} {text}: {status} {answer}");
                sent += 1;
            }
            let query: Vec<String> =
                body.iter().map(|(k, v)| format!("{k}={}", v.as_str().map_or(v.to_string(), str::to_string))).collect();
            let query = query.join("&").replace(' ', "%20").replace('#', "%23");
            let (status, answer) = s.request("GET", &format!("/api/random?{query}"), b"");
            assert!((200..500).contains(&status), "random?{query}: {status} {answer}");
            sent += 1;
        }
    }
    assert!(sent > 500, "{sent}");
    let (status, v) = post(&s, r#"{"board": "3x3", "tiles": [8, 6, 7, 2, 5, 4, 3, 0, 1]}"#);
    assert_eq!((status, v["status"].as_str()), (200, Some("solved")), "{v}");
}

/// The textbook mode through the API: the node counts of a plain textbook IDA* (docs/textbook.md), with the
/// figures of each iteration, and of a plain textbook A* with `"algorithm": "astar"` (the command's); refused
/// for another algorithm.
#[test]
fn a_textbook_solve_counts_as_a_plain_textbook_ida() {
    let s = server();
    let body = r#"{"board": "3x3", "tiles": [8, 6, 7, 2, 5, 4, 3, 0, 1], "heuristic": "manhattan", "textbook": true}"#;
    let (status, v) = post(&s, body);
    assert_eq!(status, 200, "{v}");
    assert_eq!(
        (v["length"].as_u64(), v["nodes"].as_u64(), v["expanded"].as_u64()),
        (Some(27), Some(11_597), Some(7_061))
    );
    assert!(v["bounds"].as_str().unwrap().starts_with("19:4:"), "{v}");
    let astar = body.replace(r#""textbook": true"#, r#""textbook": true, "algorithm": "astar""#);
    let (status, v) = post(&s, &astar);
    assert_eq!(status, 200, "{v}");
    let args = ["solve", "--textbook", "--algorithm", "astar", "--heuristic", "manhattan", "--format", "json"];
    let o = harness::run(BIN, &[&args[..], &["8 6 7 2 5 4 3 0 1"]].concat(), b"");
    let command: Value = serde_json::from_slice(&o.stdout).unwrap();
    for field in ["length", "nodes", "expanded", "moves", "algorithm"] {
        assert_eq!(v[field], command[field], "{field}: {v}");
    }
    assert_eq!(v["algorithm"], "astar");
    let (status, v) = post(&s, &body.replace(r#""textbook": true"#, r#""textbook": true, "algorithm": "bfs""#));
    assert_eq!(status, 400, "{v}");
    let (status, v) = post(&s, &body.replace("true", "\"yes\""));
    assert_eq!(status, 400, "{v}");
}
