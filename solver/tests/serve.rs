//! `solver serve`'s JSON API over plain HTTP: answers are the records `solve --format json` prints, and
//! every bad request is a 4xx with `{"error": reason}`.

use harness as common;

use common::Server;
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
    let cli = common::run(
        BIN,
        &["solve", "--board", "3x3", "--heuristic", "linear-conflict", "--format", "json", "-j", "1", HARD_3X3],
        b"",
    );
    let want: Value = serde_json::from_slice(&cli.stdout).unwrap();
    let keys = |v: &Value| v.as_object().unwrap().keys().cloned().collect::<Vec<_>>();
    assert_eq!(keys(&got), keys(&want));
    for field in ["status", "length", "moves", "tiles", "goal", "heuristic"] {
        assert_eq!(got[field], want[field], "{field}");
    }
    assert_eq!(got["length"], 31);
    assert_eq!(got["goal"], "0 1 2 3 4 5 6 7 8");
    // Blank-last labels both ways, as on the command line.
    let (status, last) = post(&s, r#"{"board": "2x3", "tiles": [1, 2, 3, 4, 0, 5], "goal": "blank-last"}"#);
    assert_eq!((status, &last["moves"], &last["goal"]), (200, &Value::from("5"), &Value::from("1 2 3 4 5 0")));
}

#[test]
fn bad_requests_are_400_with_the_reason_as_json() {
    let s = server();
    let cases = [
        (r#"{"board": "3x3", "tiles": [1, 2"#, "bad JSON"),
        (r#"{"board": "3x3", "tiles": [1, 2, 3, 4, 5, 6, 7, 0]}"#, "expected 9 tiles, found 8"),
        (r#"{"board": "3x3", "tiles": [1, 2, 3, 4, 5, 6, 7, 8, 9]}"#, "tile 9 is out of range"),
        (r#"{"board": "9x9", "tiles": []}"#, "board '9x9'"),
        (r#"{"board": "3x3", "tiles": [0, 1, 2, 3, 4, 5, 6, 8, 7]}"#, "unsolvable"),
        (r#"{"tiles": [0, 1, 2], "colour": "red"}"#, "unknown field `colour`"),
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
    // Unsolvable toward one goal but not the other: the answer names the other.
    let swapped = "0 1 2 3 4 5 6 7 8 9 10 11 12 13 15 14";
    let (status, v) = post(&s, &format!(r#"{{"tiles": {}}}"#, tiles(swapped)));
    assert_eq!(status, 400);
    assert!(v["error"].as_str().unwrap().contains("--goal blank-last"), "{v}");
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
    let started = std::time::Instant::now();
    let (status, v) = post(&s, &format!(r#"{{"tiles": {}, "heuristic": "manhattan"}}"#, tiles(KORF_1)));
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["status"], "limit");
    assert!(v["error"].as_str().unwrap().contains("the optimal length is at least"), "{v}");
    assert!(started.elapsed().as_secs_f64() < 10.0);
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

#[test]
fn random_positions_are_solvable_and_bad_queries_are_400() {
    let s = server();
    for query in ["board=3x3&walk=12", "board=2x3", "board=4x4&walk=40&goal=blank-last"] {
        let (status, text) = s.request("GET", &format!("/api/random?{query}"), b"");
        assert_eq!(status, 200, "{query}: {text}");
        let p: Value = serde_json::from_str(&text).unwrap();
        let body = serde_json::json!({ "board": p["board"], "tiles": p["tiles"], "goal": p["goal"], "heuristic": "linear-conflict" });
        let (status, v) = post(&s, &body.to_string());
        assert_eq!((status, &v["status"]), (200, &Value::from("solved")), "{query}: {text} -> {v}");
        if query.contains("walk=12") {
            assert!(v["length"].as_u64().unwrap() <= 12);
        }
    }
    for (query, reason) in
        [("board=1x1", "board '1x1'"), ("walk=-3", "walk"), ("walk=99999", "longer than"), ("size=3", "unknown field")]
    {
        let (status, text) = s.request("GET", &format!("/api/random?{query}"), b"");
        assert_eq!(status, 400, "{query}: {text}");
        assert!(text.contains(reason), "{query}: {text}");
    }
}

#[test]
fn the_page_and_its_assets_are_served() {
    let s = server();
    for (path, needle) in
        [("/", "<title>Sliding-tile solver</title>"), ("/app.js", "/api/solve"), ("/style.css", ".tile")]
    {
        let (status, text) = s.request("GET", path, b"");
        assert_eq!(status, 200, "{path}");
        assert!(text.contains(needle), "{path}");
    }
}
