//! What `solver serve` refuses before it searches, so that a web page the user visits, or a client that
//! never finishes, cannot use it: a POST that is not JSON (415), a `Host` that is not this server (403), a
//! declared body over the limit (413 at once), and more requests than the search threads and the queue
//! hold (503 with `Retry-After`). The slow and the signalled clients are in `scripts/attack-serve.py`.

use harness::Server;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_solver");
/// Korf's instance 60, the hardest of his 100 (66 moves): hours with Manhattan distance.
const KORF_60: &str = "[11, 14, 13, 1, 2, 3, 12, 4, 15, 7, 9, 5, 10, 6, 8, 0]";
const EASY_3X3: &str = r#"{"board": "3x3", "tiles": [1, 0, 2, 3, 4, 5, 6, 7, 8]}"#;

/// An answer: its status, its header block (lowercase) and its body.
struct Answer {
    status: u16,
    head: String,
    body: String,
}

/// Sends `head` (the request line and headers, each ending with CRLF, without the blank line) and `body`
/// as they are, and reads the answer to its end.
fn raw(s: &Server, head: &str, body: &str) -> Answer {
    let mut stream = TcpStream::connect(&s.addr).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    stream.write_all(format!("{head}Connection: close\r\n\r\n").as_bytes()).unwrap();
    // A server refusing the request may close before reading the body.
    let _ = stream.write_all(body.as_bytes());
    let mut text = Vec::new();
    let _ = stream.read_to_end(&mut text);
    let text = String::from_utf8_lossy(&text).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or_else(|| panic!("no HTTP answer: {text:?}"));
    let status = head.split(' ').nth(1).and_then(|c| c.parse().ok()).unwrap_or_else(|| panic!("{head}"));
    Answer { status, head: head.to_ascii_lowercase(), body: body.to_string() }
}

/// `POST /api/solve` with `body` and these extra header lines.
fn post(s: &Server, headers: &str, body: &str) -> Answer {
    raw(s, &format!("POST /api/solve HTTP/1.1\r\n{headers}Content-Length: {}\r\n", body.len()), body)
}

fn server(args: &[&str]) -> Server {
    Server::start(BIN, &[&["--pdbs", "/nonexistent"], args].concat())
}

#[test]
fn a_post_that_is_not_json_is_415() {
    let s = server(&[]);
    let host = format!("Host: {}\r\n", s.addr);
    for kind in ["application/x-www-form-urlencoded", "text/plain", "multipart/form-data; boundary=x"] {
        let a = post(&s, &format!("{host}Content-Type: {kind}\r\n"), EASY_3X3);
        assert_eq!(a.status, 415, "{kind}: {}", a.body);
        assert!(a.body.contains("Content-Type: application/json"), "{kind}: {}", a.body);
    }
    assert_eq!(post(&s, &host, EASY_3X3).status, 415, "no Content-Type");
    let a = post(&s, &format!("{host}Content-Type: application/json; charset=utf-8\r\n"), EASY_3X3);
    assert_eq!(a.status, 200, "{}", a.body);
}

#[test]
fn a_host_that_is_not_this_server_is_403() {
    let s = server(&["--allow-host", "My-Box.lan"]);
    let port = s.addr.rsplit(':').next().unwrap();
    let json = "Content-Type: application/json\r\n";
    for host in [format!("rebound.example:{port}"), format!("localhost:{}", port.parse::<u16>().unwrap() ^ 1)] {
        let a = post(&s, &format!("Host: {host}\r\n{json}"), EASY_3X3);
        assert_eq!(a.status, 403, "{host}: {}", a.body);
        assert!(a.body.contains("--allow-host"), "{host}: {}", a.body);
        let page = raw(&s, &format!("GET / HTTP/1.1\r\nHost: {host}\r\n"), "");
        assert_eq!(page.status, 403, "the page for {host}");
    }
    for host in [format!("localhost:{port}"), format!("[::1]:{port}"), format!("my-box.lan:{port}")] {
        let a = post(&s, &format!("Host: {host}\r\n{json}"), EASY_3X3);
        assert_eq!(a.status, 200, "{host}: {}", a.body);
    }
    assert_eq!(raw(&s, "GET / HTTP/1.0\r\n", "").status, 400, "no Host");
}

#[test]
fn a_declared_length_over_the_limit_is_413_before_the_body() {
    let s = server(&[]);
    // One byte of a body declared at 10^14 bytes: the answer cannot wait for the rest, which never comes (a
    // server that waited would leave `raw` to its read timeout, with no status).
    let head = format!(
        "POST /api/solve HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n",
        s.addr, 100_000_000_000_000u64
    );
    let a = raw(&s, &head, "{");
    assert_eq!(a.status, 413, "{}", a.body);
    assert!(a.body.contains("over the limit"), "{}", a.body);
}

#[test]
fn past_the_queue_a_request_is_503_with_retry_after_at_once() {
    // One search at a time and no queue: while one hard search runs, the next request is refused.
    let s = server(&["--threads", "1", "--queue", "0", "--time-limit", "3"]);
    let json = format!("Host: {}\r\nContent-Type: application/json\r\n", s.addr);
    // The 4x4 solver with Manhattan distance made first (its automaton can take seconds on a loaded
    // machine, and a request meanwhile is refused as not ready), so that the hard search below searches.
    let started = Instant::now();
    let one_move = r#"{"tiles": [1, 0, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15], "heuristic": "manhattan"}"#;
    loop {
        let a = post(&s, &json, one_move);
        if a.status == 200 {
            break;
        }
        assert!(a.body.contains("not ready"), "{}: {}", a.status, a.body);
        assert!(started.elapsed() < Duration::from_secs(120), "the 4x4 solver was never ready: {}", a.body);
        std::thread::sleep(Duration::from_millis(50));
    }
    std::thread::scope(|scope| {
        for attempt in 1.. {
            let hard = scope.spawn(|| post(&s, &json, &format!(r#"{{"tiles": {KORF_60}, "heuristic": "manhattan"}}"#)));
            // Easy requests until one is refused as busy: the hard search then holds the one permit. One that
            // came first is answered (200); one that found a solver still loading is refused as not ready.
            let started = Instant::now();
            let refused = loop {
                if hard.is_finished() {
                    break None;
                }
                let a = post(&s, &json, EASY_3X3);
                if a.status == 503 && a.body.contains("busy") {
                    break Some(a);
                }
                assert!(a.status == 200 || a.body.contains("not ready"), "{}: {}", a.status, a.body);
                assert!(started.elapsed() < Duration::from_secs(120), "never refused: {}", a.body);
                std::thread::sleep(Duration::from_millis(20));
            };
            let Some(a) = refused else {
                // An easy request held the permit when the hard one came, and the hard one was refused: again.
                let hard = hard.join().unwrap();
                assert!(hard.status == 503 && hard.body.contains("busy"), "ended unrefused: {}", hard.body);
                assert!(attempt < 50, "the hard request never came first");
                continue;
            };
            assert!(a.head.contains("retry-after: 3"), "{}", a.head);
            // Refused at once, not queued: a queued request would be answered only after the hard search.
            assert!(!hard.is_finished(), "the refusal came after the hard search ended: queued, not refused");
            // The search stops at the limit; on a machine so loaded that making the 4x4 solver took all of it,
            // the request is refused as not ready.
            let hard = hard.join().unwrap();
            let stopped = hard.status == 200 && hard.body.contains(r#""status":"limit""#);
            assert!(stopped || (hard.status == 503 && hard.body.contains("not ready")), "{}", hard.body);
            break;
        }
    });
    assert_eq!(post(&s, &json, EASY_3X3).status, 200, "answered once the search is done");
}
