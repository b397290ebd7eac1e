//! The harness every crate's tests share: ground truth for small boards (exact distances of every solvable
//! position by breadth-first search), Korf's instances, table-free solvers, scratch folders and running a
//! binary; in [`water`], the water sort reference model; and in [`blocks`], the sliding-block one. The
//! end-to-end tests of the binaries are in `tests/`.

use engine::{HeuristicChoice, Lookups, Settings, Solver, TableSpec};
use puzzle::{Board, Goal, Instance, State};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

pub mod blocks;
pub mod water;

pub use puzzle::exhaustive::distances as bfs_distances;

/// Every `step`-th position in a fixed order, with its distance: a deterministic sample.
pub fn sample(board: Board, dist: &HashMap<u64, u8>, step: usize) -> Vec<(State, u8)> {
    let mut all: Vec<(u64, u8)> = dist.iter().map(|(&k, &v)| (k, v)).collect();
    all.sort_unstable();
    all.iter().step_by(step).map(|&(k, v)| (State::unpack(board, k).unwrap(), v)).collect()
}

/// A solver whose heuristic needs no tables (Manhattan or linear conflict).
pub fn table_free(board: Board, choice: HeuristicChoice) -> Solver {
    table_free_with(board, choice, Settings::default())
}

/// A table-free solver running `lanes` depth-first searches a thread.
pub fn table_free_lanes(board: Board, choice: HeuristicChoice, lanes: usize) -> Solver {
    table_free_with(board, choice, Settings::default().with_lanes(lanes).unwrap())
}

/// A table-free solver with these settings.
pub fn table_free_with(board: Board, choice: HeuristicChoice, settings: Settings) -> Solver {
    let spec = TableSpec { dir: "/nonexistent".into(), partitions: Vec::new(), lookups: Lookups::default() };
    Solver::new(board, choice, &spec, settings, &mut |w| panic!("unexpected warning {w}")).unwrap()
}

/// The instances of `tests/data/korf100.txt` with these ids, in file order; every id must be there.
pub fn korf(ids: &[&str]) -> Vec<Instance> {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/data/korf100.txt")).unwrap();
    let found: Vec<Instance> = text
        .lines()
        .filter_map(|line| puzzle::parse_line(Board::FOUR, Goal::BlankFirst, line).unwrap())
        .filter(|inst| ids.contains(&inst.id.as_deref().unwrap()))
        .collect();
    assert_eq!(found.len(), ids.len(), "ids missing from korf100.txt");
    found
}

/// Runs a binary with `args` and `stdin`, returning what it did.
pub fn run(bin: &str, args: &[&str], stdin: &[u8]) -> std::process::Output {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(bin)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {bin}: {e}"));
    let mut input = child.stdin.take().unwrap();
    let _ = input.write_all(stdin);
    drop(input);
    child.wait_with_output().unwrap()
}

/// Runs a binary with `args` and an empty stdin, as [`run`] does, but for at most `limit`: a run still going
/// then is killed and the test fails naming it, rather than hanging the suite (for what used to hang).
pub fn run_within(bin: &str, args: &[&str], limit: std::time::Duration) -> std::process::Output {
    use std::process::{Command, Stdio};
    use std::sync::atomic::{AtomicUsize, Ordering};
    static RUNS: AtomicUsize = AtomicUsize::new(0);
    // Output goes to files, so that nothing has to read pipes while the child is watched.
    let dir = TempDir::new(&format!("run-within-{}", RUNS.fetch_add(1, Ordering::Relaxed)));
    let (out, err) = (dir.path("stdout"), dir.path("stderr"));
    let file = |p: &Path| std::fs::File::create(p).unwrap();
    let mut child = Command::new(bin)
        .args(args)
        .stdin(Stdio::null())
        .stdout(file(&out))
        .stderr(file(&err))
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {bin}: {e}"));
    let start = std::time::Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{bin} {args:?} still running after {limit:?}");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    std::process::Output { status, stdout: std::fs::read(&out).unwrap(), stderr: std::fs::read(&err).unwrap() }
}

/// A scratch folder, fresh for this test process and `name`, removed when dropped.
pub struct TempDir(PathBuf);

impl TempDir {
    pub fn new(name: &str) -> TempDir {
        let d = std::env::temp_dir().join(format!("solver-test-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        TempDir(d)
    }

    /// Writes `text` to the file `name` in the folder and returns its path.
    pub fn file(&self, name: &str, text: &str) -> PathBuf {
        let p = self.0.join(name);
        std::fs::write(&p, text).unwrap();
        p
    }

    pub fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl std::ops::Deref for TempDir {
    type Target = Path;

    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for TempDir {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Starts `command` and waits until `find` recognises a line of its stderr (where servers and browsers say
/// where they listen), returning what `find` returned; the rest of stderr is drained in the background, so
/// that the child never blocks on a full pipe. `what` names the child if it ends before saying it.
pub fn spawn_announcing(
    mut command: std::process::Command,
    what: &str,
    find: impl Fn(&str) -> Option<String>,
) -> (std::process::Child, String) {
    use std::io::BufRead;
    use std::process::Stdio;
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {what}: {e}"));
    let mut err = std::io::BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    let found = loop {
        line.clear();
        if err.read_line(&mut line).unwrap() == 0 {
            let _ = child.kill();
            panic!("{what} ended before saying where it listens: {}", child.wait_with_output().unwrap().status);
        }
        if let Some(found) = find(line.trim()) {
            break found;
        }
    };
    std::thread::spawn(move || std::io::copy(&mut err, &mut std::io::sink()));
    (child, found)
}

/// A `solver serve` child on a free loopback port, killed when dropped.
pub struct Server {
    child: std::process::Child,
    /// `127.0.0.1:PORT`.
    pub addr: String,
}

impl Server {
    /// Starts `bin serve --port 0` with `args` and waits for the address it logs.
    pub fn start(bin: &str, args: &[&str]) -> Server {
        let mut command = std::process::Command::new(bin);
        command.args(["serve", "--port", "0", "--bind", "127.0.0.1"]).args(args);
        let (child, addr) = spawn_announcing(command, "the server", |line| {
            line.split("http://").nth(1).map(|rest| rest.split('/').next().unwrap().to_string())
        });
        Server { child, addr }
    }

    /// `http://127.0.0.1:PORT`.
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// One HTTP/1.1 request; returns the status code and the body.
    pub fn request(&self, method: &str, path: &str, body: &[u8]) -> (u16, String) {
        use std::io::{Read, Write};
        let mut s = std::net::TcpStream::connect(&self.addr).unwrap();
        s.set_read_timeout(Some(std::time::Duration::from_secs(60))).unwrap();
        let head = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
            self.addr,
            body.len()
        );
        s.write_all(head.as_bytes()).unwrap();
        // A server refusing a large body may close before reading it all.
        let _ = s.write_all(body);
        let mut text = Vec::new();
        let _ = s.read_to_end(&mut text);
        let text = String::from_utf8_lossy(&text).into_owned();
        let (head, rest) = text.split_once("\r\n\r\n").unwrap_or_else(|| panic!("no HTTP answer: {text:?}"));
        let status = head.split(' ').nth(1).and_then(|c| c.parse().ok()).unwrap_or_else(|| panic!("{head}"));
        let body = if head.to_ascii_lowercase().contains("transfer-encoding: chunked") {
            unchunk(rest)
        } else {
            rest.to_string()
        };
        (status, body)
    }
}

/// The body of a chunked HTTP response.
fn unchunk(mut rest: &str) -> String {
    let mut body = String::new();
    while let Some((size, tail)) = rest.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 {
            break;
        }
        body.push_str(&tail[..n]);
        rest = &tail[n + 2..];
    }
    body
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Says that this machine lacks what a test needs (user namespaces, a cgroup file system, Chromium,
/// Slurm...), as the test returns without checking anything. Outside CI the test then passes with a line on
/// stderr saying why; under `CI=true`, where everything the tests need is installed by contract (`.ci/run`),
/// it fails instead, so a CI machine that lost a tool cannot pass by checking less.
pub fn lacking(what: &str) {
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!("CI=true, and this test cannot run here: {what}");
    }
    eprintln!("skipped: this test cannot run here: {what} (with CI=true it fails)");
}

/// Runs `bin ARGS` after the shell commands `setup`, as root of a user and mount namespace of its own, where
/// mounts change nothing outside: `None` where such namespaces are not allowed (said by [`lacking`]; then a
/// test has nothing to check).
pub fn run_in_namespace(setup: &str, bin: &str, args: &[&str]) -> Option<std::process::Output> {
    let namespace = |script: &str| {
        std::process::Command::new("unshare")
            .args(["--user", "--map-root-user", "--mount", "sh", "-c", script, bin])
            .args(args)
            .output()
    };
    if !namespace("mount -t tmpfs none /mnt").is_ok_and(|o| o.status.success()) {
        lacking("no user and mount namespaces here to mount a tmpfs in (`unshare --user --map-root-user --mount`)");
        return None;
    }
    Some(namespace(&format!(r#"{setup} && exec "$0" "$@""#)).unwrap())
}

/// Shell commands for [`run_in_namespace`] that make this machine look like a container whose cgroup allows
/// `bytes` of memory: a tmpfs over each cgroup mount, holding a limit (v1 and v2 names) at the mount point,
/// which is the top of every cgroup chain. `None` where no cgroup file system is mounted (said by
/// [`lacking`]).
pub fn fake_cgroup_limit(bytes: u64) -> Option<String> {
    let mountinfo = std::fs::read_to_string("/proc/self/mountinfo").unwrap_or_default();
    let fake: Vec<String> = mountinfo
        .lines()
        .filter(|l| l.contains(" - cgroup"))
        .filter_map(|l| l.split(' ').nth(4))
        .map(|p| {
            format!(
                "mount -t tmpfs none {p} && echo {bytes} >{p}/memory.max && echo {bytes} >{p}/memory.limit_in_bytes"
            )
        })
        .collect();
    if fake.is_empty() {
        lacking("no cgroup file system mounted here");
        return None;
    }
    Some(fake.join(" && "))
}

/// The distance in the multi-tile metric of every position within `depth` moves of the goal (`u8::MAX`:
/// every solvable position), by breadth-first search: a move is the blank stepping 1 or more cells one way
/// along its row or column (the tiles between sliding one cell each), written here without the engine's
/// code. Keys are [`State::pack_wide`]s.
pub fn mtm_distances(board: Board, depth: u8) -> HashMap<u128, u8> {
    let goal = State::goal(board);
    let mut dist = HashMap::from([(goal.pack_wide(), 0u8)]);
    let mut frontier = vec![goal];
    let mut d = 0u8;
    while !frontier.is_empty() && d < depth {
        let mut next = Vec::new();
        for s in &frontier {
            for dir in puzzle::Dir::ALL {
                let mut t = *s;
                while t.move_blank(dir) {
                    if let std::collections::hash_map::Entry::Vacant(e) = dist.entry(t.pack_wide()) {
                        e.insert(d + 1);
                        next.push(t);
                    }
                }
            }
        }
        frontier = next;
        d += 1;
    }
    dist
}

/// The slides of a solution printed in the speedsolvers' grouped notation, read here without the project's
/// parser: (the tiles' direction letter, how many cells). The printed form is run together (`U2LD3R`), so a
/// space or any other character is a failure.
pub fn grouped_slides(text: &str) -> Vec<(char, usize)> {
    let mut slides: Vec<(char, usize)> = Vec::new();
    let mut count = String::new();
    let close = |slides: &mut Vec<(char, usize)>, count: &mut String| {
        if let Some(last) = slides.last_mut() {
            last.1 = if count.is_empty() { 1 } else { count.parse().unwrap() };
        }
        count.clear();
    };
    for c in text.chars() {
        match c {
            'U' | 'D' | 'L' | 'R' => {
                close(&mut slides, &mut count);
                slides.push((c, 1));
            }
            '0'..='9' if !slides.is_empty() => count.push(c),
            _ => panic!("{c:?} in the grouped notation {text:?} (run together: letters and counts only)"),
        }
    }
    close(&mut slides, &mut count);
    slides
}
