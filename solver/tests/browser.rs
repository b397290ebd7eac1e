//! The web app in a real browser: headless Chromium, driven over the Chrome DevTools Protocol, loads the
//! page, enters a position (or switches to water sort and enters a level), solves it, steps through the
//! solution to the end and checks that the board shown is the goal (the tubes are sorted). Screenshots are
//! left in `target/tmp/browser-page.png` and `target/tmp/browser-watersort.png`.
//!
//! Needs Chromium (`apt-get install -y chromium`; `.ci/run` installs it), found at $CHROMIUM or
//! /usr/bin/chromium.

use base64::Engine as _;
use harness::{Server, TempDir};
use serde_json::{json, Value};
use std::net::TcpStream;
use std::process::{Child, Command};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};
use tungstenite::{Message, WebSocket};

const BIN: &str = env!("CARGO_BIN_EXE_solver");
/// Korf's instance 9: 46 moves, milliseconds with linear conflict.
const KORF_9: &str = "3 14 9 11 5 4 8 2 13 12 6 7 10 1 15 0";

/// A headless Chromium with its DevTools socket, closed and killed when dropped.
struct Browser {
    child: Child,
    ws: WebSocket<TcpStream>,
    next_id: u64,
    /// The page's session on the browser socket.
    session: Option<String>,
    _profile: TempDir,
}

impl Browser {
    fn launch() -> Browser {
        let bin = std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into());
        assert!(std::path::Path::new(&bin).exists(), "no Chromium at {bin}: apt-get install -y chromium");
        // A profile a browser: Chromium refuses a profile another one is using, and the tests run at once.
        static LAUNCHED: AtomicUsize = AtomicUsize::new(0);
        let profile = TempDir::new(&format!("chromium-profile-{}", LAUNCHED.fetch_add(1, Ordering::Relaxed)));
        let mut command = Command::new(&bin);
        command
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--hide-scrollbars",
                "--window-size=420,1000",
                "--remote-debugging-port=0",
                "about:blank",
            ])
            .arg(format!("--user-data-dir={}", profile.display()));
        // Chromium says where its DevTools socket is on stderr.
        let (child, url) = harness::spawn_announcing(command, "Chromium", |line| {
            line.strip_prefix("DevTools listening on ").map(String::from)
        });
        let addr = url.trim_start_matches("ws://").split('/').next().unwrap().to_string();
        let stream = TcpStream::connect(addr).unwrap();
        stream.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
        let (ws, _) = tungstenite::client(url.as_str(), stream).unwrap();
        Browser { child, ws, next_id: 0, session: None, _profile: profile }
    }

    /// Sends a command (to the page's session once there is one) and returns its result.
    fn call(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        let mut msg = json!({ "id": id, "method": method, "params": params });
        if let Some(s) = &self.session {
            msg["sessionId"] = json!(s);
        }
        self.ws.send(Message::text(msg.to_string())).unwrap();
        loop {
            let text = match self.ws.read().unwrap() {
                Message::Text(t) => t,
                _ => continue,
            };
            let v: Value = serde_json::from_str(&text).unwrap();
            if v["id"] == id {
                assert!(v.get("error").is_none(), "{method}: {v}");
                return v["result"].clone();
            }
        }
    }

    /// Opens `url` in a new tab and talks to it from then on.
    fn open(&mut self, url: &str) {
        let target = self.call("Target.createTarget", json!({ "url": url }))["targetId"].clone();
        let session = self.call("Target.attachToTarget", json!({ "targetId": target, "flatten": true }));
        self.session = Some(session["sessionId"].as_str().unwrap().to_string());
    }

    /// The value of a JavaScript expression in the page.
    fn eval(&mut self, expr: &str) -> Value {
        let r =
            self.call("Runtime.evaluate", json!({ "expression": expr, "returnByValue": true, "awaitPromise": true }));
        assert!(r.get("exceptionDetails").is_none(), "{expr}: {r}");
        r["result"]["value"].clone()
    }

    /// Saves a picture of the page as `target/tmp/NAME`.
    fn screenshot(&mut self, name: &str) {
        let shot = self.call("Page.captureScreenshot", json!({ "format": "png" }));
        let png = base64::engine::general_purpose::STANDARD.decode(shot["data"].as_str().unwrap()).unwrap();
        assert!(png.starts_with(b"\x89PNG"));
        std::fs::write(std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(name), png).unwrap();
    }

    /// Waits until `expr` is true in the page.
    fn wait_for(&mut self, expr: &str) {
        let start = Instant::now();
        while self.eval(expr) != json!(true) {
            assert!(start.elapsed() < Duration::from_secs(20), "timed out waiting for {expr}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Browser {
    /// Asks Chromium to close (so it ends its helper processes too), killing it if it has not within 5 s.
    fn drop(&mut self) {
        let close = json!({ "id": 0, "method": "Browser.close" });
        let _ = self.ws.send(Message::text(close.to_string()));
        let start = Instant::now();
        while matches!(self.child.try_wait(), Ok(None)) && start.elapsed() < Duration::from_secs(5) {
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A server and a browser showing its page, once the page's script has drawn the tiles (it opens on the
/// sliding-tile puzzle).
fn page() -> (Server, Browser) {
    let server = Server::start(BIN, &["--pdbs", "/nonexistent"]);
    let mut b = Browser::launch();
    b.open(&format!("{}/", server.url()));
    b.wait_for("document.readyState === 'complete' && document.querySelectorAll('#view .tile').length === 15");
    (server, b)
}

#[test]
fn the_page_solves_a_position_and_plays_it_to_the_goal() {
    let (_server, mut b) = page();
    // Type the position and solve it, as a user would.
    b.eval(&format!(
        "document.getElementById('heuristic').value = 'linear-conflict';
         document.getElementById('tiles').value = '{KORF_9}';
         document.getElementById('typed').requestSubmit();
         document.getElementById('solve').click();"
    ));
    assert_eq!(b.eval("document.getElementById('view').dataset.cells"), json!(KORF_9));
    b.wait_for("!document.getElementById('player').hidden");
    assert_eq!(b.eval("document.getElementById('length').textContent"), json!("46 moves"));
    assert_eq!(b.eval("document.getElementById('counter').textContent"), json!("0 / 46"));
    // Step through the whole solution, one move a click.
    for k in 1..=46 {
        b.eval("document.getElementById('step').click()");
        assert_eq!(b.eval("document.getElementById('counter').textContent"), json!(format!("{k} / 46")));
    }
    let goal: Vec<String> = (0..16).map(|t| t.to_string()).collect();
    assert_eq!(b.eval("document.getElementById('view').dataset.cells"), json!(goal.join(" ")));
    assert_eq!(b.eval("document.getElementById('step').disabled"), json!(true));
    // One back and play: the player ends at the goal again.
    b.eval("document.getElementById('back').click(); document.getElementById('play').click()");
    b.wait_for("document.getElementById('counter').textContent === '46 / 46'");
    // Let the last slide finish before the picture.
    std::thread::sleep(Duration::from_millis(300));
    b.screenshot("browser-page.png");
    // Scrambling by clicking: a tile next to the blank slides, one elsewhere does not.
    b.eval("document.querySelector('#view .tile[data-tile=\"15\"]').click()");
    b.eval("document.querySelector('#view .tile[data-tile=\"1\"]').click()");
    let moved = format!("1 0 {}", goal[2..].join(" "));
    assert_eq!(b.eval("document.getElementById('view').dataset.cells"), json!(moved));
    assert_eq!(b.eval("document.getElementById('player').hidden"), json!(true));
}

/// The tubes the page draws, read from the DOM: each tube's unit letters, bottom to top.
const TUBES: &str = "[...document.querySelectorAll('#tubes .tube')]
    .map((t) => [...t.querySelectorAll('.unit')].map((u) => u.textContent).join(''))";

#[test]
fn the_page_solves_a_water_sort_level_and_pours_it_sorted() {
    let (_server, mut b) = page();
    b.eval(
        "{ const p = document.getElementById('puzzle');
           p.value = 'water-sort';
           p.dispatchEvent(new Event('change')); }",
    );
    assert_eq!(b.eval("document.getElementById('tile-ui').hidden"), json!(true));
    assert_eq!(b.eval("document.title"), json!("Water sort solver"));
    // Type a level and solve it, as a user would.
    let level = "demo: abcab cabca bcabc - -";
    b.eval(&format!(
        "document.getElementById('capacity').value = '5';
         document.getElementById('level').value = '{level}';
         document.getElementById('typed-level').requestSubmit();
         document.getElementById('solve').click();"
    ));
    assert_eq!(b.eval(TUBES), json!(["abcab", "cabca", "bcabc", "", ""]));
    b.wait_for("!document.getElementById('player').hidden");
    let parsed = watersort::parse_levels(level, 5).remove(0).unwrap();
    let fewest = match watersort::solve(&parsed, &watersort::Options::default()).unwrap().outcome {
        watersort::Outcome::Solved(p) => p.len(),
        other => panic!("{other:?}"),
    };
    assert_eq!(b.eval("document.getElementById('pours').textContent"), json!(fewest.to_string()));
    assert_eq!(b.eval("document.getElementById('counter').textContent"), json!(format!("0 / {fewest}")));
    for k in 1..=fewest {
        b.eval("document.getElementById('step').click()");
        assert_eq!(b.eval("document.getElementById('counter').textContent"), json!(format!("{k} / {fewest}")));
    }
    // Sorted: every tube empty or full of one colour, each colour in one tube.
    let tubes: Vec<String> = serde_json::from_value(b.eval(TUBES)).unwrap();
    let mut full: Vec<&str> = tubes.iter().map(String::as_str).filter(|t| !t.is_empty()).collect();
    full.sort_unstable();
    assert_eq!(full, ["aaaaa", "bbbbb", "ccccc"], "{tubes:?}");
    assert_eq!(b.eval("document.getElementById('step').disabled"), json!(true));
    std::thread::sleep(Duration::from_millis(400));
    b.screenshot("browser-watersort.png");
    // Back to the start and play: the player ends sorted again.
    b.eval("document.getElementById('first').click(); document.getElementById('play').click()");
    b.wait_for(&format!("document.getElementById('counter').textContent === '{fewest} / {fewest}'"));
    assert_eq!(b.eval("document.getElementById('tubes').dataset.tubes").as_str().unwrap().matches('-').count(), 2);
    // A random level from the server is drawn and solved.
    b.eval(
        "document.getElementById('colors').value = '4';
         document.getElementById('random-level').click();",
    );
    b.wait_for(&format!("document.getElementById('level').value !== '{level}'"));
    b.eval("document.getElementById('solve').click()");
    b.wait_for("!document.getElementById('player').hidden");
    assert_eq!(b.eval(&format!("{TUBES}.length")), json!(6));
}
