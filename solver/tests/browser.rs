//! The web app in a real browser: headless Chromium, driven over the Chrome DevTools Protocol, loads the
//! page, enters a position (or switches to water sort and enters or builds a level), solves it, steps
//! through the solution to the end and checks that the board shown is the goal (the tubes are sorted); the
//! keyboard, the goal hint beside the board and a solve in progress (its time shown, Cancel stopping it)
//! too; for water sort, pours played by hand with a hint from the position reached, and a level with hidden
//! units planned, its reveals told on the palette, until it is sorted. Any console error or uncaught
//! exception in the page fails the test.
//!
//! Screenshots of the tile and water-sort views at 1280 and 390 px wide go to `$STP_SCREENSHOTS` (relative
//! to the workspace: `STP_SCREENSHOTS=docs/screenshots cargo test -p solver --test integration browser::`
//! refreshes the README's), else to `target/tmp`, so that a test run leaves the tree as it was.
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
/// Korf's instance 60, the hardest of his 100 (66 moves): hours with Manhattan distance.
const KORF_60: &str = "11 14 13 1 2 3 12 4 15 7 9 5 10 6 8 0";

/// A headless Chromium with its DevTools socket, closed and killed when dropped.
struct Browser {
    child: Child,
    ws: WebSocket<TcpStream>,
    next_id: u64,
    /// The page's session on the browser socket.
    session: Option<String>,
    /// Console errors and uncaught exceptions the page has reported so far.
    errors: Vec<String>,
    _profile: TempDir,
}

/// The console error or uncaught exception a DevTools event reports, if it is one.
fn page_error(event: &Value) -> Option<String> {
    let params = &event["params"];
    match event["method"].as_str()? {
        "Runtime.exceptionThrown" => Some(format!("exception: {}", params["exceptionDetails"])),
        "Runtime.consoleAPICalled" if matches!(params["type"].as_str(), Some("error" | "assert")) => {
            Some(format!("console.{}: {}", params["type"], params["args"]))
        }
        "Log.entryAdded" if params["entry"]["level"] == "error" => Some(format!("log: {}", params["entry"])),
        _ => None,
    }
}

impl Browser {
    /// A headless Chromium, or `None` (said by [`harness::lacking`]) where the machine has none.
    fn launch() -> Option<Browser> {
        let bin = std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into());
        if !std::path::Path::new(&bin).exists() {
            harness::lacking(&format!("no Chromium at {bin} (apt-get install -y chromium)"));
            return None;
        }
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
        Some(Browser { child, ws, next_id: 0, session: None, errors: Vec::new(), _profile: profile })
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
            self.errors.extend(page_error(&v));
            if v["id"] == id {
                assert!(v.get("error").is_none(), "{method}: {v}");
                return v["result"].clone();
            }
        }
    }

    /// Opens `url` in a new tab and talks to it from then on, its console errors and exceptions collected
    /// from the start.
    fn open(&mut self, url: &str) {
        let target = self.call("Target.createTarget", json!({ "url": "about:blank" }))["targetId"].clone();
        let session = self.call("Target.attachToTarget", json!({ "targetId": target, "flatten": true }));
        self.session = Some(session["sessionId"].as_str().unwrap().to_string());
        for domain in ["Runtime.enable", "Log.enable", "Page.enable"] {
            self.call(domain, json!({}));
        }
        self.call("Page.navigate", json!({ "url": url }));
    }

    /// Fails on any console error or exception the page has reported.
    fn assert_no_errors(&mut self) {
        // A round trip, so that every event sent before it has been read.
        self.eval("1");
        assert!(self.errors.is_empty(), "the page reported errors: {:#?}", self.errors);
    }

    /// Presses `key` (a DOM key name such as `ArrowLeft` or ` `) on the page, outside any field.
    fn press(&mut self, key: &str) {
        self.eval("document.activeElement && document.activeElement.blur()");
        let (code, vk) = match key {
            "ArrowLeft" => ("ArrowLeft", 37),
            "ArrowUp" => ("ArrowUp", 38),
            "ArrowRight" => ("ArrowRight", 39),
            "ArrowDown" => ("ArrowDown", 40),
            " " => ("Space", 32),
            "Escape" => ("Escape", 27),
            "End" => ("End", 35),
            "Home" => ("Home", 36),
            other => panic!("no key {other}"),
        };
        for kind in ["keyDown", "keyUp"] {
            let params = json!({ "type": kind, "key": key, "code": code, "windowsVirtualKeyCode": vk });
            self.call("Input.dispatchKeyEvent", params);
        }
    }

    /// Shows the page `width` px wide (a phone's screen below 600 px).
    fn resize(&mut self, width: u32) {
        let metrics = json!({ "width": width, "height": 900, "deviceScaleFactor": 1, "mobile": width < 600 });
        self.call("Emulation.setDeviceMetricsOverride", metrics);
    }

    /// The value of a JavaScript expression in the page.
    fn eval(&mut self, expr: &str) -> Value {
        let r =
            self.call("Runtime.evaluate", json!({ "expression": expr, "returnByValue": true, "awaitPromise": true }));
        assert!(r.get("exceptionDetails").is_none(), "{expr}: {r}");
        r["result"]["value"].clone()
    }

    /// Saves a picture of the whole page, `width` px wide, as `NAME-WIDTH.png` in the screenshots folder
    /// (see the module's doc), after checking that nothing is wider than the screen.
    fn screenshot(&mut self, name: &str, width: u32) {
        self.resize(width);
        // Let the layout settle, and the last slide or pour finish.
        std::thread::sleep(Duration::from_millis(400));
        let overflow = self.eval("document.documentElement.scrollWidth - window.innerWidth");
        assert_eq!(overflow, json!(0), "{name} at {width} px is wider than the screen");
        let height = self.eval("document.documentElement.scrollHeight").as_u64().unwrap();
        let clip = json!({ "x": 0, "y": 0, "width": width, "height": height, "scale": 1 });
        let params = json!({ "format": "png", "clip": clip, "captureBeyondViewport": true });
        let shot = self.call("Page.captureScreenshot", params);
        let png = base64::engine::general_purpose::STANDARD.decode(shot["data"].as_str().unwrap()).unwrap();
        assert!(png.starts_with(b"\x89PNG"));
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let dir = std::env::var_os("STP_SCREENSHOTS")
            .map_or_else(|| std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")), |d| root.join(d));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(format!("{name}-{width}.png")), png).unwrap();
        self.resize(420);
    }

    /// Waits until `expr` is true in the page: generously, so that a loaded machine gives a slow pass.
    fn wait_for(&mut self, expr: &str) {
        self.wait_up_to(Duration::from_secs(60), expr);
    }

    /// Waits until `expr` is true in the page, failing after `limit`.
    fn wait_up_to(&mut self, limit: Duration, expr: &str) {
        let start = Instant::now();
        while self.eval(expr) != json!(true) {
            assert!(start.elapsed() < limit, "timed out waiting for {expr}");
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
/// sliding-tile puzzle) and filled the board menu from the server; `None` without a browser.
fn page() -> Option<(Server, Browser)> {
    page_of(&[])
}

/// [`page`] of a server with these options besides.
fn page_of(args: &[&str]) -> Option<(Server, Browser)> {
    let mut b = Browser::launch()?;
    let server = Server::start(BIN, &[&["--pdbs", "/nonexistent"], args].concat());
    b.open(&format!("{}/", server.url()));
    b.wait_for(
        "document.readyState === 'complete' && document.querySelectorAll('#view .tile').length === 15
         && document.getElementById('board-note').textContent !== ''",
    );
    Some((server, b))
}

/// Chooses `value` in the menu `id`, as a user would (its change event fired).
fn choose(b: &mut Browser, id: &str, value: &str) {
    b.eval(&format!(
        "{{ const m = document.getElementById('{id}'); m.value = '{value}'; m.dispatchEvent(new Event('change')); }}"
    ));
}

/// Types `tiles` into the position field and sets it, as a user would, until the board shows them.
fn type_position(b: &mut Browser, tiles: &str) {
    b.eval(&format!(
        "document.getElementById('tiles').value = '{tiles}';
         document.getElementById('typed').requestSubmit();"
    ));
    b.wait_for(&format!("document.getElementById('view').dataset.cells === '{tiles}'"));
}

/// The cells the board shows.
fn cells(b: &mut Browser) -> Value {
    b.eval("document.getElementById('view').dataset.cells")
}

/// The text of the element `id`.
fn text(b: &mut Browser, id: &str) -> Value {
    b.eval(&format!("document.getElementById('{id}').textContent"))
}

/// The move list's marked item: its index and text, or null when none is.
const NOW: &str = "(() => { const items = [...document.querySelectorAll('#moves li')];
    const now = items.filter((li) => li.classList.contains('now'));
    return now.length === 1 ? [items.indexOf(now[0]), now[0].textContent] : null; })()";

#[test]
fn the_page_solves_a_position_and_plays_it_to_the_goal() {
    let Some((_server, mut b)) = page() else { return };
    // The page's goal is blank last; Korf's positions are written for blank first.
    assert_eq!(b.eval("document.getElementById('goal').value"), json!("blank-last"));
    choose(&mut b, "goal", "blank-first");
    choose(&mut b, "heuristic", "linear-conflict");
    // Type the position and solve it, as a user would.
    type_position(&mut b, KORF_9);
    b.eval("document.getElementById('solve').click()");
    b.wait_for("!document.getElementById('player').hidden");
    let length = text(&mut b, "length");
    assert!(length.as_str().unwrap().starts_with("46 moves ("), "{length}");
    assert_eq!(text(&mut b, "counter"), json!("0 / 46"));
    assert_eq!(b.eval(NOW), Value::Null);
    // Step through the whole solution, one move a click, the move just made marked in the list.
    let moves: Vec<Value> =
        serde_json::from_value(b.eval("[...document.querySelectorAll('#moves li')].map((li) => li.textContent)"))
            .unwrap();
    assert_eq!(moves.len(), 46);
    for k in 1..=46 {
        b.eval("document.getElementById('step').click()");
        assert_eq!(text(&mut b, "counter"), json!(format!("{k} / 46")));
        assert_eq!(b.eval(NOW), json!([k - 1, moves[k - 1]]));
    }
    let goal: Vec<String> = (0..16).map(|t| t.to_string()).collect();
    assert_eq!(cells(&mut b), json!(goal.join(" ")));
    // At the end neither Step nor Play can go on.
    assert_eq!(
        b.eval("document.getElementById('step').disabled && document.getElementById('play').disabled"),
        json!(true)
    );
    // The speedsolving notation: fewer items (a row slide is one), the last one marked.
    choose(&mut b, "notation", "udlr");
    let udlr = b.eval("[...document.querySelectorAll('#moves li')].map((li) => li.textContent)");
    let udlr: Vec<String> = serde_json::from_value(udlr).unwrap();
    assert!(udlr.iter().all(|w| w.starts_with(['U', 'D', 'L', 'R'])), "{udlr:?}");
    assert_eq!(b.eval(NOW), json!([udlr.len() - 1, udlr.last().unwrap()]));
    assert!(length.as_str().unwrap().contains(&format!("({} in the multi-tile metric)", udlr.len())), "{length}");
    // One back and play: the player ends at the goal again.
    b.eval("document.getElementById('back').click(); document.getElementById('play').click()");
    b.wait_for("document.getElementById('counter').textContent === '46 / 46'");
    for width in [1280, 390] {
        b.screenshot("tiles", width);
    }
    // Scrambling by clicking: a tile next to the blank slides, one elsewhere does not.
    b.eval("document.querySelector('#view .tile[data-tile=\"15\"]').click()");
    b.eval("document.querySelector('#view .tile[data-tile=\"1\"]').click()");
    let moved = format!("1 0 {}", goal[2..].join(" "));
    assert_eq!(cells(&mut b), json!(moved));
    assert_eq!(b.eval("document.getElementById('player').hidden"), json!(true));
    b.assert_no_errors();
}

#[test]
fn arrow_keys_slide_tiles_and_step_through_a_solution() {
    let Some((_server, mut b)) = page() else { return };
    choose(&mut b, "board", "3x3");
    assert_eq!(cells(&mut b), json!("1 2 3 4 5 6 7 8 0"));
    // An arrow moves the tile beside the blank that way: none moves left into a blank at the right edge.
    b.press("ArrowLeft");
    assert_eq!(cells(&mut b), json!("1 2 3 4 5 6 7 8 0"));
    b.press("ArrowRight");
    assert_eq!(cells(&mut b), json!("1 2 3 4 5 6 7 0 8"));
    b.press("ArrowDown");
    assert_eq!(cells(&mut b), json!("1 2 3 4 0 6 7 5 8"));
    b.press("ArrowUp");
    b.press("ArrowDown");
    assert_eq!(cells(&mut b), json!("1 2 3 4 0 6 7 5 8"));
    // Solved: the arrows now step through the solution, Space plays it, Escape leaves it.
    b.eval("document.getElementById('solve').click()");
    b.wait_for("!document.getElementById('player').hidden");
    assert_eq!(text(&mut b, "counter"), json!("0 / 2"));
    b.press("ArrowRight");
    assert_eq!((text(&mut b, "counter"), cells(&mut b)), (json!("1 / 2"), json!("1 2 3 4 5 6 7 0 8")));
    b.press("ArrowRight");
    assert_eq!((text(&mut b, "counter"), cells(&mut b)), (json!("2 / 2"), json!("1 2 3 4 5 6 7 8 0")));
    assert_eq!(b.eval("document.getElementById('play').disabled"), json!(true));
    b.press(" ");
    assert_eq!(text(&mut b, "counter"), json!("2 / 2"), "Space at the end plays nothing");
    b.press("Home");
    assert_eq!(text(&mut b, "counter"), json!("0 / 2"));
    b.press(" ");
    b.wait_for("document.getElementById('counter').textContent === '2 / 2'");
    b.press("ArrowLeft");
    assert_eq!(text(&mut b, "counter"), json!("1 / 2"));
    b.press("Escape");
    assert_eq!(b.eval("document.getElementById('player').hidden"), json!(true));
    b.press("ArrowLeft");
    assert_eq!(cells(&mut b), json!("1 2 3 4 5 6 7 8 0"), "free play again");
    // Keys typed into a field are the field's.
    b.eval("document.getElementById('tiles').focus()");
    b.call(
        "Input.dispatchKeyEvent",
        json!({ "type": "keyDown", "key": "ArrowRight", "code": "ArrowRight", "windowsVirtualKeyCode": 39 }),
    );
    assert_eq!(cells(&mut b), json!("1 2 3 4 5 6 7 8 0"));
    b.assert_no_errors();
}

#[test]
fn the_goal_hint_beside_the_board_names_the_goal_menu() {
    let Some((_server, mut b)) = page() else { return };
    b.resize(1280);
    choose(&mut b, "board", "3x3");
    assert_eq!(b.eval("document.getElementById('goal-hint').hidden"), json!(true));
    // Solved toward blank first, shown with the page's goal, blank last: the hint names the Goal menu.
    b.eval(
        "document.getElementById('tiles').value = '0 1 2 3 4 5 6 7 8';
         document.getElementById('typed').requestSubmit();",
    );
    b.wait_for("!document.getElementById('goal-hint').hidden");
    let hint = text(&mut b, "goal-hint");
    let hint = hint.as_str().unwrap();
    assert!(hint.contains("closer to the goal 0 1 2 3 4 5 6 7 8") && hint.contains("Goal menu"), "{hint}");
    assert!(!hint.contains("--goal"), "{hint}");
    // Beside the board: to its right, level with it.
    let beside = b.eval(
        "(() => { const h = document.getElementById('goal-hint').getBoundingClientRect();
                  const v = document.getElementById('view').getBoundingClientRect();
                  return h.left >= v.right && h.top < v.bottom && h.bottom > v.top; })()",
    );
    assert_eq!(beside, json!(true));
    // Taking that goal keeps the tiles, and the hint goes.
    b.eval("document.getElementById('use-goal').click()");
    b.wait_for("document.getElementById('goal-hint').hidden");
    assert_eq!(b.eval("document.getElementById('goal').value"), json!("blank-first"));
    assert_eq!(cells(&mut b), json!("0 1 2 3 4 5 6 7 8"));
    // 5x5 is offered, saying its heuristic and what to expect.
    choose(&mut b, "board", "5x5");
    assert_eq!(b.eval("document.querySelectorAll('#view .tile').length"), json!(24));
    let note = text(&mut b, "board-note");
    assert!(note.as_str().unwrap().contains("linear conflict") && note.as_str().unwrap().contains("limit"), "{note}");
    b.assert_no_errors();
}

#[test]
fn a_solve_in_progress_shows_its_time_and_bound_and_cancel_stops_it() {
    // One search at a time and no queue; a limit far away: only Cancel can free the search thread.
    let Some((server, mut b)) = page_of(&["--threads", "1", "--queue", "0", "--time-limit", "300"]) else { return };
    choose(&mut b, "goal", "blank-first");
    choose(&mut b, "heuristic", "manhattan");
    type_position(&mut b, KORF_60);
    b.eval("document.getElementById('solve').click()");
    // Making the 4x4 solver comes first: on a loaded machine that takes a while.
    b.wait_up_to(
        Duration::from_secs(90),
        r"/^Solving… \d+\.\d s · bound \d+ · [\d,]+ nodes expanded$/.test(document.getElementById('progress').textContent)",
    );
    assert_eq!(
        b.eval("document.getElementById('solve').disabled && !document.getElementById('cancel').hidden"),
        json!(true)
    );
    // The time goes on.
    let seconds = |b: &mut Browser| -> f64 {
        let t = text(b, "progress");
        t.as_str().unwrap().trim_start_matches("Solving… ").split(' ').next().unwrap().parse().unwrap()
    };
    let first = seconds(&mut b);
    b.wait_for(&format!("parseFloat(document.getElementById('progress').textContent.slice(9)) > {first}"));
    b.eval("document.getElementById('cancel').click()");
    let status = text(&mut b, "status");
    assert!(status.as_str().unwrap().starts_with("Cancelled after "), "{status}");
    assert_eq!(
        b.eval("document.getElementById('progress').hidden && !document.getElementById('solve').disabled"),
        json!(true)
    );
    // The server's one search thread is free again within moments (else a solve is refused as busy).
    let easy = br#"{"board": "3x3", "tiles": [1, 0, 2, 3, 4, 5, 6, 7, 8]}"#;
    let stopped = Instant::now();
    while server.request("POST", "/api/solve", easy).0 != 200 {
        assert!(stopped.elapsed() < Duration::from_secs(60), "the search was not stopped");
        std::thread::sleep(Duration::from_millis(50));
    }
    b.assert_no_errors();
}

/// The tubes the page draws, read from the DOM: each tube's unit letters, bottom to top.
const TUBES: &str = "[...document.querySelectorAll('#tubes .tube')]
    .map((t) => [...t.querySelectorAll('.unit')].map((u) => u.textContent).join(''))";

/// The fewest pours of `level`, by the watersort crate.
fn fewest(level: &str, capacity: usize) -> usize {
    let parsed = watersort::parse_levels(level, capacity).remove(0).unwrap();
    match watersort::solve(&parsed, &watersort::Options::default()).unwrap().outcome {
        watersort::Outcome::Solved(p) => p.len(),
        other => panic!("{other:?}"),
    }
}

/// Switches the page to water sort.
fn water_page() -> Option<(Server, Browser)> {
    let (server, mut b) = page()?;
    choose(&mut b, "puzzle", "water-sort");
    assert_eq!(b.eval("document.getElementById('tile-ui').hidden"), json!(true));
    assert_eq!(b.eval("document.title"), json!("Water sort solver"));
    Some((server, b))
}

#[test]
fn the_page_solves_a_water_sort_level_and_pours_it_sorted() {
    let Some((_server, mut b)) = water_page() else { return };
    // Type a level and solve it, as a user would: its capacity (5) follows the longest tube, the colours
    // and empty tubes the level.
    let level = "demo: abcab cabca bcabc - -";
    b.eval(&format!(
        "document.getElementById('level').value = '{level}';
         document.getElementById('typed-level').requestSubmit();"
    ));
    b.wait_for("document.getElementById('capacity').value === '5'");
    assert_eq!(b.eval(TUBES), json!(["abcab", "cabca", "bcabc", "", ""]));
    assert_eq!(
        b.eval("[document.getElementById('colors').value, document.getElementById('empty').value]"),
        json!(["3", "2"])
    );
    b.eval("document.getElementById('solve').click()");
    b.wait_for("!document.getElementById('player').hidden");
    let fewest = fewest(level, 5);
    assert_eq!(text(&mut b, "pours"), json!(fewest.to_string()));
    assert_eq!(text(&mut b, "counter"), json!(format!("0 / {fewest}")));
    for k in 1..=fewest {
        b.eval("document.getElementById('step').click()");
        assert_eq!(text(&mut b, "counter"), json!(format!("{k} / {fewest}")));
        assert_eq!(b.eval(NOW).get(0), Some(&json!(k - 1)));
    }
    // Sorted: every tube empty or full of one colour, each colour in one tube.
    let tubes: Vec<String> = serde_json::from_value(b.eval(TUBES)).unwrap();
    let mut full: Vec<&str> = tubes.iter().map(String::as_str).filter(|t| !t.is_empty()).collect();
    full.sort_unstable();
    assert_eq!(full, ["aaaaa", "bbbbb", "ccccc"], "{tubes:?}");
    assert_eq!(b.eval("document.getElementById('step').disabled"), json!(true));
    for width in [1280, 390] {
        b.screenshot("water-sort", width);
    }
    // Back to the start and play: the player ends sorted again.
    b.eval("document.getElementById('first').click(); document.getElementById('play').click()");
    b.wait_for(&format!("document.getElementById('counter').textContent === '{fewest} / {fewest}'"));
    assert_eq!(b.eval("document.getElementById('tubes').dataset.tubes").as_str().unwrap().matches('-').count(), 2);
    // A random level from the server is drawn and solved.
    b.eval(
        "document.getElementById('colors').value = '4';
         document.getElementById('capacity').value = '4';
         document.getElementById('random-level').click();",
    );
    b.wait_for(&format!("document.getElementById('level').value !== '{level}'"));
    b.eval("document.getElementById('solve').click()");
    b.wait_for("!document.getElementById('player').hidden");
    assert_eq!(b.eval(&format!("{TUBES}.length")), json!(6));
    b.assert_no_errors();
}

#[test]
fn the_level_editor_builds_a_level_and_solves_it_and_set_refuses_an_invalid_one() {
    let Some((_server, mut b)) = water_page() else { return };
    // The demo's five tubes emptied, two taken away, two units a tube.
    b.eval("document.getElementById('clear-tubes').click()");
    b.eval("{ const c = document.getElementById('capacity'); c.value = '2'; c.dispatchEvent(new Event('change')); }");
    b.eval("document.getElementById('remove-tube').click(); document.getElementById('remove-tube').click()");
    assert_eq!(b.eval(TUBES), json!(["", "", ""]));
    // Colour by colour, units clicked into tubes; the eraser takes a wrong one back.
    let click = |b: &mut Browser, pick: &str, tube: usize| {
        b.eval(&format!(
            "document.querySelector('#palette [data-pick=\"{pick}\"]').click();
             document.querySelector('#tubes .tube[data-tube=\"{tube}\"]').click();"
        ));
    };
    click(&mut b, "a", 1);
    click(&mut b, "b", 1);
    click(&mut b, "b", 2);
    click(&mut b, "c", 2);
    click(&mut b, "", 2);
    click(&mut b, "a", 2);
    assert_eq!(b.eval(TUBES), json!(["ab", "ba", ""]));
    // A full tube takes no more.
    click(&mut b, "a", 1);
    assert_eq!(b.eval(TUBES), json!(["ab", "ba", ""]));
    assert!(text(&mut b, "status").as_str().unwrap().contains("full"));
    // The level line and the fields follow.
    assert_eq!(b.eval("document.getElementById('level').value"), json!("custom: ab ba -"));
    assert_eq!(
        b.eval("[document.getElementById('colors').value, document.getElementById('empty').value]"),
        json!(["2", "1"])
    );
    b.eval("document.getElementById('add-tube').click()");
    assert_eq!(b.eval("document.getElementById('level').value"), json!("custom: ab ba - -"));
    b.eval("document.getElementById('solve').click()");
    b.wait_for("!document.getElementById('player').hidden");
    assert_eq!(text(&mut b, "pours"), json!(fewest("custom: ab ba - -", 2).to_string()));
    // An invalid level is refused on Set, with the server's reason, and the tubes stay.
    b.eval("{ const c = document.getElementById('capacity'); c.value = '4'; }");
    b.eval(
        "document.getElementById('level').value = 'x: aab ab - -';
         document.getElementById('typed-level').requestSubmit();",
    );
    b.wait_for("document.getElementById('status').classList.contains('error')");
    let status = text(&mut b, "status");
    assert!(status.as_str().unwrap().contains("colour a has 3 units, not a multiple of the capacity 4"), "{status}");
    assert_eq!(b.eval(&format!("{TUBES}.length")), json!(4));
    b.assert_no_errors();
}

/// Sets the level typed in the level field, at capacity `capacity`, and waits until the tubes show it.
fn set_level(b: &mut Browser, level: &str, capacity: usize) {
    b.eval(&format!(
        "document.getElementById('capacity').value = '{capacity}';
         document.getElementById('level').value = '{level}';
         document.getElementById('typed-level').requestSubmit();"
    ));
    b.wait_for(&format!("document.getElementById('tubes').dataset.tubes === '{}'", level.split(": ").nth(1).unwrap()));
}

/// Clicks the palette's choice `pick` (a colour letter, `?`, `pour`, or empty for the eraser).
fn pick(b: &mut Browser, pick: &str) {
    b.eval(&format!("document.querySelector('#palette [data-pick=\"{pick}\"]').click()"));
}

/// Clicks tube `tube` (from 1).
fn click_tube(b: &mut Browser, tube: usize) {
    b.eval(&format!("document.querySelector('#tubes .tube[data-tube=\"{tube}\"]').click()"));
}

/// The tubes (from 1) that have class `class`.
fn tubes_with(b: &mut Browser, class: &str) -> Value {
    b.eval(&format!("[...document.querySelectorAll('#tubes .tube.{class}')].map((t) => Number(t.dataset.tube))"))
}

#[test]
fn a_hint_from_the_position_played_to_shows_the_next_pour_and_marks_dead_ends() {
    let Some((_server, mut b)) = water_page() else { return };
    set_level(&mut b, "w: ab cd ca db -", 2);
    b.eval("document.getElementById('hint').click()");
    b.wait_for("document.getElementById('status').textContent.startsWith('Still solvable')");
    let status = text(&mut b, "status");
    let said = status.as_str().unwrap();
    assert!(said.contains("5 pours left at fewest; next pour 4 → 5"), "{said}");
    assert!(said.contains("dead end: 2 → 5, 3 → 5"), "{said}");
    assert_eq!((tubes_with(&mut b, "hint-from"), tubes_with(&mut b, "hint-to")), (json!([4]), json!([5])));
    // Tube 2 picked to pour from: the pour into tube 5 is marked as leading to a dead end.
    pick(&mut b, "pour");
    click_tube(&mut b, 2);
    assert_eq!((tubes_with(&mut b, "chosen"), tubes_with(&mut b, "dead")), (json!([2]), json!([5])));
    // Poured anyway: the position is dead, and a hint from there says so.
    click_tube(&mut b, 5);
    assert_eq!(b.eval(TUBES), json!(["ab", "c", "ca", "db", "d"]));
    assert_eq!(b.eval("document.getElementById('level').value"), json!("w: ab c ca db d"));
    assert_eq!(tubes_with(&mut b, "hint-from"), json!([]));
    b.eval("document.getElementById('hint').click()");
    b.wait_for("document.getElementById('status').textContent.startsWith('Dead')");
    // A pour the rule forbids is refused, and nothing moves.
    click_tube(&mut b, 1);
    click_tube(&mut b, 2);
    assert!(text(&mut b, "status").as_str().unwrap().contains("cannot pour into tube 2"));
    assert_eq!(b.eval(TUBES), json!(["ab", "c", "ca", "db", "d"]));
    // While stepping through a solution, the hint is from the step reached.
    set_level(&mut b, "demo: abcab cabca bcabc - -", 5);
    b.eval("document.getElementById('solve').click()");
    b.wait_for("!document.getElementById('player').hidden");
    let fewest = fewest("demo: abcab cabca bcabc - -", 5);
    b.eval("document.getElementById('step').click(); document.getElementById('hint').click()");
    b.wait_for("document.getElementById('status').textContent.startsWith('Still solvable')");
    let left = format!("{} pours left", fewest - 1);
    assert!(text(&mut b, "status").as_str().unwrap().contains(&left), "{left}");
    b.assert_no_errors();
}

#[test]
fn a_level_with_hidden_units_is_planned_its_reveals_told_and_played_to_the_end() {
    let Some((_server, mut b)) = water_page() else { return };
    // The level as the game shows it, and what it hides (one assignment that can be sorted).
    let shown = "m: ??a ?bb ?ab -";
    let truth = ["cca", "cbb", "aab", ""];
    // The editor's hidden unit: a `?` drawn grey with a question mark.
    pick(&mut b, "?");
    assert_eq!(b.eval("document.querySelector('#palette [data-pick=\"?\"] .unit').textContent"), json!("?"));
    set_level(&mut b, shown, 3);
    assert_eq!(b.eval("document.querySelectorAll('#tubes .unit.hidden-unit').length"), json!(4));
    // Three colours, one of them not in sight yet.
    assert_eq!(b.eval("document.getElementById('colors').value"), json!("3"));
    b.eval("document.getElementById('solve').click()");
    b.wait_for("!document.getElementById('player').hidden");
    let status = text(&mut b, "status");
    assert!(status.as_str().unwrap().starts_with("Plan: 1 pour up to the first reveal"), "{status}");
    assert!(status.as_str().unwrap().contains("safe: the level stays solvable for every one of the 3"), "{status}");
    for width in [1280, 390] {
        b.screenshot("water-sort-hidden", width);
    }
    // Played to the end: each plan stepped through, each unit it uncovers told as the truth has it (a
    // colour all in sight refused first), then planned again, until the tubes are sorted.
    let mut refused_once = false;
    let mut told = 0;
    for _ in 0..10 {
        b.wait_for("!document.getElementById('player').hidden");
        b.eval("document.getElementById('last').click()");
        let tubes: Vec<String> = serde_json::from_value(b.eval(TUBES)).unwrap();
        // Sorted, maybe with hidden units left under runs of their own colour, which nothing uncovers.
        if text(&mut b, "status").as_str().unwrap().starts_with("Nothing to pour") || !tubes.concat().contains('?') {
            break;
        }
        let waiting = tubes_with(&mut b, "waiting");
        let status = text(&mut b, "status");
        let tube = waiting[0].as_u64().unwrap_or_else(|| panic!("no tube waits: {tubes:?} {status}")) as usize;
        assert_eq!(waiting.as_array().unwrap().len(), 1);
        // Only a top is ever asked about.
        assert!(tubes[tube - 1].ends_with('?'), "{tubes:?}");
        assert!(text(&mut b, "status").as_str().unwrap().starts_with(&format!("Tube {tube} shows a unit")));
        if !refused_once {
            let full = ["a", "b", "c"].into_iter().find(|c| tubes.concat().matches(c).count() == 3);
            if let Some(c) = full {
                pick(&mut b, c);
                assert!(text(&mut b, "status").as_str().unwrap().contains("in sight already"));
                refused_once = true;
            }
        }
        let colour = &truth[tube - 1][tubes[tube - 1].len() - 1..tubes[tube - 1].len()];
        pick(&mut b, colour);
        told += 1;
        b.wait_for("document.getElementById('player').hidden === false || document.getElementById('status').classList.contains('error')");
    }
    let tubes: Vec<String> = serde_json::from_value(b.eval(TUBES)).unwrap();
    let mut full: Vec<String> =
        tubes.iter().filter(|t| !t.is_empty()).map(|t| t.replace('?', &t[t.len() - 1..])).collect();
    full.sort_unstable();
    assert_eq!(full, ["aaa", "bbb", "ccc"], "{tubes:?}");
    assert!(refused_once, "no colour all in sight was offered: the refusal is not checked");
    assert!(told >= 2, "a single reveal: planning again after one is not checked");
    b.assert_no_errors();
}

#[test]
fn free_play_counts_moves_until_solved_and_the_algorithm_menu_is_searched() {
    let Some((_server, mut b)) = page() else { return };
    choose(&mut b, "board", "3x3");
    b.wait_for("document.querySelectorAll('#view .tile').length === 8");
    type_position(&mut b, "1 2 3 4 5 6 0 7 8");
    assert_eq!(text(&mut b, "free-play"), json!(""));
    b.eval("document.querySelector('#view .tile[data-tile=\"7\"]').click()");
    assert!(text(&mut b, "free-play").as_str().unwrap().starts_with("1 move · "));
    b.eval("document.querySelector('#view .tile[data-tile=\"8\"]').click()");
    let said = text(&mut b, "free-play");
    assert!(said.as_str().unwrap().starts_with("Solved: 2 moves in "), "{said}");
    // The same position searched by BFS from the menu: the same length, the algorithm named.
    type_position(&mut b, "1 2 3 4 5 6 0 7 8");
    choose(&mut b, "algorithm", "bfs");
    b.eval("document.getElementById('solve').click()");
    b.wait_for("!document.getElementById('player').hidden");
    assert_eq!((text(&mut b, "counter"), text(&mut b, "algo")), (json!("0 / 2"), json!("BFS")));
    b.assert_no_errors();
}

#[test]
fn water_sort_is_played_by_hand_with_undo_and_a_dead_hint_goes_back_to_the_last_sortable_position() {
    let Some((_server, mut b)) = water_page() else { return };
    // The capacity follows a typed level that says it (every colour two units), shrinking from 4.
    set_level(&mut b, "w: ab cd ca db -", 4);
    assert_eq!(b.eval("document.getElementById('capacity').value"), json!("2"));
    // Play mode: two taps pour, with no tool picked first; Undo takes it back.
    assert_eq!(b.eval("document.getElementById('palette').hidden"), json!(true));
    click_tube(&mut b, 4);
    click_tube(&mut b, 5);
    assert_eq!(b.eval(TUBES), json!(["ab", "cd", "ca", "d", "b"]));
    b.eval("document.getElementById('undo').click()");
    assert_eq!(b.eval(TUBES), json!(["ab", "cd", "ca", "db", ""]));
    // A pour into a dead end: the hint says so, how far back, and goes there.
    click_tube(&mut b, 2);
    click_tube(&mut b, 5);
    b.eval("document.getElementById('hint').click()");
    b.wait_for("document.getElementById('status').textContent.startsWith('Dead')");
    assert!(text(&mut b, "status").as_str().unwrap().contains("1 pour back"));
    b.eval("document.getElementById('go-back').click()");
    assert_eq!(b.eval(TUBES), json!(["ab", "cd", "ca", "db", ""]));
    // On a phone, a level refused on Set says why beside the Set button, in sight.
    b.resize(390);
    b.eval(
        "document.getElementById('level').value = 'x: aab ab - -';
         document.getElementById('typed-level').requestSubmit();",
    );
    b.wait_for("document.querySelector('#typed-level + .said.error') !== null");
    let beside = b.eval(
        "(() => { const r = document.querySelector('#typed-level + .said').getBoundingClientRect();
                  return r.top >= 0 && r.bottom <= window.innerHeight; })()",
    );
    assert_eq!(beside, json!(true));
    b.assert_no_errors();
}

#[test]
fn the_page_plays_and_solves_a_klotski_level() {
    let Some((_server, mut b)) = page() else { return };
    choose(&mut b, "puzzle", "sliding-block");
    b.wait_for("document.querySelectorAll('#blocks .block').length === 10");
    assert_eq!(b.eval("document.title"), json!("Sliding-block solver"));
    // A piece picked shows where it can go; a click there moves it and counts the move.
    b.eval("document.querySelector('#blocks .block[data-piece=\"G\"]').click()");
    b.wait_for("document.querySelectorAll('#blocks .target').length > 0");
    b.eval("document.querySelector('#blocks .target').click()");
    b.wait_for("document.getElementById('block-play').textContent.startsWith('1 move')");
    b.eval("document.getElementById('block-reset').click()");
    b.wait_for("document.getElementById('block-play').textContent === ''");
    for width in [1280, 390] {
        b.screenshot("klotski", width);
    }
    b.eval("document.getElementById('solve').click()");
    b.wait_for("!document.getElementById('player').hidden");
    assert_eq!(text(&mut b, "counter"), json!("0 / 81"));
    b.eval("document.getElementById('last').click()");
    assert_eq!(b.eval("document.querySelector('#blocks .block[data-piece=\"B\"]').dataset.at"), json!("3,1"));
    b.eval("document.getElementById('back').click()");
    assert_eq!(text(&mut b, "counter"), json!("80 / 81"));
    b.assert_no_errors();
}
