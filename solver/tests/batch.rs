//! End-to-end tests of `solver batch`, `solver report` and `solver generate`: real child processes, real
//! files, real signals. Instances are easy (random walks, the easiest Korf instances) and solved with linear
//! conflict, so the whole file runs in seconds.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant, SystemTime};

use harness::TempDir as Dir;

const BIN: &str = env!("CARGO_BIN_EXE_solver");

/// Korf instances that linear conflict solves in milliseconds (9, 12: 44k and 102k expansions) or a tenth of a
/// second (5, 8: 1.3 and 2.7 million), with their optimal lengths.
const EASY_KORF: &str = "\
9 46 3 14 9 11 5 4 8 2 13 12 6 7 10 1 15 0
12 45 14 1 9 6 4 8 12 5 7 2 3 0 10 11 13 15
5 56 4 7 14 13 10 3 9 12 11 5 6 15 1 2 8 0
8 50 12 11 15 3 8 0 4 2 6 13 9 5 14 1 10 7
";
/// Korf #1: 4.7 million expansions with linear conflict; limits stop it long before.
const KORF1: &str = "1 57 14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3\n";
/// A 70-move position: hours with linear conflict, so it is always in flight when a test interrupts.
const HARD: &str = "h 70 15 14 3 7 11 10 6 2 12 9 5 4 13 8 1 0\n";

fn solver(args: &[&str]) -> Command {
    let mut c = Command::new(BIN);
    c.args(args).args(["--heuristic", "linear-conflict"]).stdin(Stdio::null());
    c
}

fn run(args: &[&str]) -> Output {
    solver(args).output().unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn generate(count: u32, seed: u32, walk: u32) -> String {
    let o = Command::new(BIN)
        .args(["generate", "--count", &count.to_string(), "--seed", &seed.to_string(), "--walk", &walk.to_string()])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    String::from_utf8(o.stdout).unwrap()
}

/// Records of a JSON-lines file, read with serde_json alone.
fn jsonl(path: &Path) -> Vec<serde_json::Value> {
    let text = std::fs::read_to_string(path).unwrap();
    assert!(text.is_empty() || text.ends_with('\n'), "a torn last line in {}", path.display());
    text.lines().map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}"))).collect()
}

fn ids(records: &[serde_json::Value]) -> Vec<String> {
    records.iter().map(|r| r["id"].as_str().unwrap().to_string()).collect()
}

fn assert_each_once(records: &[serde_json::Value], expected: impl IntoIterator<Item = String>) {
    let mut got = ids(records);
    got.sort();
    let mut want: Vec<String> = expected.into_iter().collect();
    want.sort();
    assert_eq!(got, want, "every instance exactly once");
}

/// The ids of a generated file of n instances: line numbers, 2..=n+1 (`generate` writes its command first).
fn numbers(n: u32) -> impl Iterator<Item = String> {
    (2..=n + 1).map(|i| i.to_string())
}

fn wait_for_records(path: &Path, at_least: usize, child: &mut std::process::Child) {
    let start = Instant::now();
    while std::fs::read_to_string(path).map_or(0, |t| t.lines().count()) < at_least {
        assert!(child.try_wait().unwrap().is_none(), "the batch ended before it could be interrupted");
        assert!(start.elapsed() < Duration::from_secs(30), "no records appeared");
        std::thread::sleep(Duration::from_millis(5));
    }
}

#[test]
fn killed_with_sigkill_at_random_points_then_resumed_gives_every_instance_once() {
    let d = Dir::new("kill");
    let input = d.file("in.txt", &generate(60, 11, 60));
    let out = d.path("out.jsonl");
    // The kills' delays come from a seed, printed so that a failure can be replayed: STP_KILL_SEED=N.
    let nanos = match std::env::var("STP_KILL_SEED") {
        Ok(seed) => seed.parse::<u64>().expect("STP_KILL_SEED is a number"),
        Err(_) => SystemTime::now().duration_since(SystemTime::UNIX_EPOCH).unwrap().subsec_nanos() as u64,
    };
    eprintln!("kill delays from seed {nanos} (replay with STP_KILL_SEED={nanos})");
    for round in 0..3u64 {
        let mut child = solver(&["batch", input.to_str().unwrap(), "--output", out.to_str().unwrap(), "--resume"])
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let delay = Duration::from_millis(20 + (nanos >> (round * 8)) % 300);
        std::thread::sleep(delay);
        child.kill().unwrap(); // SIGKILL
        child.wait().unwrap();
        // Whatever the kill left, every complete line is a record and no id is there twice.
        let text = std::fs::read_to_string(&out).unwrap_or_default();
        let complete: Vec<&str> = text.split_inclusive('\n').filter(|l| l.ends_with('\n')).collect();
        let seen: Vec<String> = complete
            .iter()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["id"].as_str().unwrap().to_string())
            .collect();
        assert_eq!(
            seen.iter().collect::<BTreeSet<_>>().len(),
            seen.len(),
            "a doubled record after a kill at {delay:?}"
        );
    }
    let o = run(&["batch", input.to_str().unwrap(), "--output", out.to_str().unwrap(), "--resume"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let records = jsonl(&out);
    assert_each_once(&records, numbers(60));
    assert!(records.iter().all(|r| r["status"] == "solved"));
}

#[test]
fn a_torn_last_line_is_dropped_and_its_instance_solved_again() {
    let d = Dir::new("torn");
    let input = d.file("in.txt", EASY_KORF);
    for (name, format) in [("out.jsonl", "jsonl"), ("out.csv", "csv")] {
        let out = d.path(name);
        let o = run(&["batch", input.to_str().unwrap(), "-o", out.to_str().unwrap()]);
        assert!(o.status.success(), "{}", stderr(&o));
        // Keep two complete records and half of the third, as a kill in the middle of a write would.
        let text = std::fs::read_to_string(&out).unwrap();
        let header = usize::from(format == "csv");
        let lines: Vec<&str> = text.lines().collect();
        let torn = format!("{}\n{}", lines[..header + 2].join("\n"), &lines[header + 2][..20]);
        std::fs::write(&out, torn).unwrap();
        let o = run(&["batch", input.to_str().unwrap(), "-o", out.to_str().unwrap(), "--resume"]);
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(stderr(&o).contains("incomplete record"), "{}", stderr(&o));
        let ids: Vec<String> = match format {
            "jsonl" => ids(&jsonl(&out)),
            _ => csv::Reader::from_path(&out).unwrap().records().map(|r| r.unwrap()[0].to_string()).collect(),
        };
        let set: BTreeSet<&str> = ids.iter().map(String::as_str).collect();
        assert_eq!((ids.len(), set), (4, BTreeSet::from(["12", "5", "8", "9"])), "{format}");
    }
}

/// CSV files of the versions before records had `finished`, `settings`, `next_bound` and `bounds` (each
/// column was added at the end) go on in their own columns.
#[test]
fn a_csv_file_of_an_older_version_is_resumed_in_its_own_columns() {
    for dropped in [1, 2, 3, 4] {
        let d = Dir::new("old-csv");
        let input = d.file("in.txt", EASY_KORF);
        let out = d.path("out.csv");
        let o = run(&["batch", input.to_str().unwrap(), "-o", out.to_str().unwrap()]);
        assert!(o.status.success(), "{}", stderr(&o));
        // The header and two records as the older version wrote them: without the last columns.
        let text = std::fs::read_to_string(&out).unwrap();
        let mut rows = csv::ReaderBuilder::new().has_headers(false).from_reader(text.as_bytes());
        let mut w = csv::Writer::from_writer(Vec::new());
        for row in rows.records().take(3) {
            let row = row.unwrap();
            w.write_record(row.iter().take(row.len() - dropped)).unwrap();
        }
        std::fs::write(&out, w.into_inner().unwrap()).unwrap();
        let columns = 24 - dropped;
        let o = run(&["batch", input.to_str().unwrap(), "-o", out.to_str().unwrap(), "--resume"]);
        assert!(o.status.success(), "{}", stderr(&o));
        assert_eq!(stderr(&o).contains("do not say their settings"), dropped >= 3, "{}", stderr(&o));
        let mut reader = csv::Reader::from_path(&out).unwrap();
        assert_eq!(reader.headers().unwrap().len(), columns);
        let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
        assert_eq!(rows.len(), 4);
        assert!(rows.iter().all(|r| r.len() == columns && &r[3] == "solved"));
        // And it reports as any other, its chart on the summed search time when it has no finish times.
        let plots = d.path("plots");
        let o = run_report(&["report", out.to_str().unwrap(), "--plot", plots.to_str().unwrap()]);
        assert!(o.status.success(), "{}", stderr(&o));
        let svg = std::fs::read_to_string(plots.join("solved-by-time.svg")).unwrap();
        assert_eq!(svg.contains("search time summed in file order"), dropped == 4);
    }
}

/// Every record says what made it, and a run with another heuristic, goal or algorithm does
/// not append to a file of another's: the results would mean different things.
#[test]
fn resuming_with_other_settings_is_refused_and_names_them() {
    let d = Dir::new("settings");
    let input = d.file("in.txt", EASY_KORF);
    let out = d.path("out.jsonl");
    let (input, out) = (input.to_str().unwrap(), out.to_str().unwrap());
    let base = ["batch", input, "-o", out, "--resume"];
    let o = run_report(&[&base[..], &["--heuristic", "linear-conflict", "--shard", "1/2"]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(out).unwrap();
    let first: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    assert_eq!(
        first["settings"],
        "board=4x4; goal=blank-first; moves=tiles; algorithm=ida; heuristic=linear-conflict; tables="
    );
    for (other, named) in [
        (&["--heuristic", "manhattan"][..], "heuristic 'linear-conflict' there, 'manhattan' now"),
        (&["--heuristic", "linear-conflict", "--goal", "blank-last"], "goal 'blank-first' there, 'blank-last' now"),
        (&["--heuristic", "linear-conflict", "--algorithm", "astar"], "algorithm 'ida' there, 'astar' now"),
    ] {
        let o = run_report(&[&base[..], other].concat());
        assert_eq!(o.status.code(), Some(2), "{other:?}: {}", stderr(&o));
        assert!(stderr(&o).contains("was made with other settings") && stderr(&o).contains(named), "{}", stderr(&o));
        assert_eq!(std::fs::read_to_string(out).unwrap(), text, "{other:?}: nothing appended");
    }
    let o = run_report(&[&base[..], &["--heuristic", "linear-conflict"]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(out).unwrap().lines().count(), 4);
}

/// `solver report` (which takes no search options).
fn run_report(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().unwrap()
}

#[test]
fn sigterm_abandons_the_search_in_flight_writes_nothing_partial_and_says_how_to_resume_and_the_file_is_locked_meanwhile(
) {
    let d = Dir::new("term");
    // Easy instances first, then one that takes far longer than the test waits.
    let input = d.file("in.txt", &format!("{EASY_KORF}{HARD}"));
    let out = d.path("out.jsonl");
    let mut child = solver(&["batch", input.to_str().unwrap(), "-o", out.to_str().unwrap(), "--parallel", "search"])
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    wait_for_records(&out, 4, &mut child);
    // While it runs, the file is locked against a second run.
    let second = run(&["batch", input.to_str().unwrap(), "-o", out.to_str().unwrap(), "--resume"]);
    assert_eq!(second.status.code(), Some(2));
    assert!(stderr(&second).contains("is being written by another batch run"), "{}", stderr(&second));
    // SAFETY: kill(2) on our own child's pid.
    assert_eq!(unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGTERM) }, 0);
    let o = child.wait_with_output().unwrap();
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(130), "{err}");
    assert!(err.contains("interrupted") && err.contains("(1 instance left)"), "{err}");
    let resume = err.lines().find_map(|l| l.strip_prefix("solver: resume with: ")).expect("a resume command");
    assert!(resume.ends_with("--resume"), "{resume}");
    assert_eq!(ids(&jsonl(&out)), ["9", "12", "5", "8"], "nothing for the abandoned instance");
}

/// Records on stdout cannot be resumed from: an interrupted batch says so, under the tool's name.
#[test]
fn an_interrupted_batch_on_stdout_says_to_give_it_an_output_file() {
    use std::io::BufRead;
    let d = Dir::new("term-stdout");
    let input = d.file("in.txt", &format!("{EASY_KORF}{HARD}"));
    let mut child = solver(&["batch", input.to_str().unwrap(), "--parallel", "search"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Once the four easy records are out, the hard instance is in flight and the signals are caught.
    let mut stdout = std::io::BufReader::new(child.stdout.take().unwrap());
    for n in 1..=4 {
        let mut line = String::new();
        stdout.read_line(&mut line).unwrap();
        assert!(line.ends_with('\n'), "record {n} of the easy instances: {line:?}");
    }
    // SAFETY: kill(2) on our own child's pid.
    assert_eq!(unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) }, 0);
    let o = child.wait_with_output().unwrap();
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(130), "{err}");
    let note = "solver: the records went to stdout; to be able to resume a run, give it --output FILE";
    assert!(err.lines().any(|l| l == note), "{err}");
}

/// Checkpoint lines of `path` (`OUT.checkpoints`).
fn checkpoints(path: &Path) -> Vec<serde_json::Value> {
    jsonl(Path::new(&format!("{}.checkpoints", path.display())))
}

#[test]
fn an_instance_stopped_in_flight_resumes_from_its_last_finished_iteration() {
    let d = Dir::new("checkpoint-signal");
    let input = d.file("in.txt", HARD);
    let out = d.path("out.jsonl");
    let ckpt = d.path("out.jsonl.checkpoints");
    let mut child = solver(&["batch", input.to_str().unwrap(), "-o", out.to_str().unwrap(), "--checkpoint-after", "0"])
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    wait_for_records(&ckpt, 3, &mut child);
    // SAFETY: kill(2) on our own child's pid.
    assert_eq!(unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) }, 0);
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(130), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&out).unwrap_or_default(), "", "no record of the instance in flight");
    let saved = checkpoints(&out);
    let last = saved.last().unwrap();
    assert!(saved.iter().all(|c| c["id"] == "h" && c["search"] == last["search"]), "{saved:?}");
    let bounds: Vec<u64> = saved.iter().map(|c| c["bound"].as_u64().unwrap()).collect();
    assert!(bounds.windows(2).all(|w| w[1] == w[0] + 2), "one line a finished iteration: {bounds:?}");
    // Resumed under a node limit: it starts at the last bound, and its record counts both runs.
    let o = run(&["batch", input.to_str().unwrap(), "-o", out.to_str().unwrap(), "--resume", "--node-limit", "100000"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let note =
        format!("solver: id h starts at bound {}, its checkpoint: {} iterations,", last["bound"], last["iterations"]);
    assert!(stderr(&o).contains(&note), "{}", stderr(&o));
    let rec = &jsonl(&out)[0];
    assert_eq!(rec["status"], "limit");
    assert!(rec["iterations"].as_u64() > last["iterations"].as_u64(), "{rec}");
    assert!(rec["nodes"].as_u64() > last["nodes"].as_u64(), "{rec}");
    assert!(rec["seconds"].as_f64() >= last["seconds"].as_f64(), "{rec}");
    // The node limit covers both runs (the first may have used it up; the limit is checked every 2^14
    // expansions a thread).
    let expanded = rec["expanded"].as_u64().unwrap();
    let floor = last["expanded"].as_u64().unwrap().max(100_000);
    assert!((floor..floor + (1 << 16)).contains(&expanded), "{rec}");
    let bound = rec["error"].as_str().unwrap().rsplit(' ').next().unwrap().parse::<u64>().unwrap();
    assert!(bound >= last["bound"].as_u64().unwrap(), "{rec}");
}

#[test]
fn a_resumed_search_counts_what_an_uninterrupted_one_does_and_ignores_another_searchs_checkpoint() {
    let d = Dir::new("checkpoint-equal");
    let input = d.file("in.txt", EASY_KORF);
    let whole = d.path("whole.jsonl");
    let batch = |out: &Path, more: &[&str]| {
        let mut args = vec!["batch", input.to_str().unwrap(), "-o", out.to_str().unwrap(), "--threads", "1"];
        args.extend(more);
        let o = run(&args);
        assert!(o.status.success(), "{}", stderr(&o));
        stderr(&o)
    };
    batch(&whole, &["--checkpoint-after", "0"]);
    let by_id = |path: &Path| -> BTreeMap<String, serde_json::Value> {
        jsonl(path).into_iter().map(|r| (r["id"].as_str().unwrap().to_string(), r)).collect()
    };
    let expected = by_id(&whole);
    let saved: Vec<serde_json::Value> = checkpoints(&whole).into_iter().filter(|c| c["id"] == "8").collect();
    assert!(saved.len() >= 3, "{saved:?}");
    let middle = &saved[saved.len() / 2];
    for (name, search, resumed) in [("same", middle["search"].clone(), true), ("other", "ida; manhattan".into(), false)]
    {
        let out = d.path(&format!("{name}.jsonl"));
        let mut line = middle.clone();
        line["search"] = search;
        std::fs::write(d.path(&format!("{name}.jsonl.checkpoints")), format!("{line}\n")).unwrap();
        let err = batch(&out, &["--resume"]);
        let note = format!("id 8 starts at bound {}", middle["bound"]);
        assert_eq!(err.contains(&note), resumed, "{err}");
        assert_eq!(err.contains("is of another search"), !resumed, "{err}");
        let got = by_id(&out);
        for (id, r) in &expected {
            for field in ["status", "length", "moves", "nodes", "expanded", "iterations"] {
                assert_eq!(got[id][field], r[field], "{name}: id {id}: {field}");
            }
        }
    }
    // Without --resume, a fresh run removes the checkpoints of the records it replaces.
    std::fs::remove_file(&whole).unwrap();
    batch(&whole, &[]);
    assert!(!d.path("whole.jsonl.checkpoints").exists(), "quick searches write none by default");
}

/// A limit record is final for `--resume`; with `--retry-limits` its instance is searched again from its
/// checkpoint under the new limits and a record appended. An id's last record is the one the batch's summary
/// and `report` count, and a solved one is never searched again.
#[test]
fn retry_limits_searches_limit_stops_again_from_their_checkpoints_and_the_last_record_counts() {
    let d = Dir::new("retry-limits");
    let input = d.file("in.txt", EASY_KORF);
    let out = d.path("out.jsonl");
    let batch = |more: &[&str]| {
        let mut args = vec!["batch", input.to_str().unwrap(), "-o", out.to_str().unwrap(), "--threads", "1"];
        args.extend_from_slice(&["--checkpoint-after", "0"]);
        args.extend(more);
        let o = run(&args);
        assert!(o.status.success(), "{}", stderr(&o));
        stderr(&o)
    };
    let status = |r: &serde_json::Value| r["status"].as_str().unwrap().to_string();
    // 9 and 12 take 44k and 102k expansions, 5 and 8 millions.
    batch(&["--node-limit", "200000"]);
    let first = jsonl(&out);
    assert_eq!(first.iter().map(status).collect::<Vec<_>>(), ["solved", "solved", "limit", "limit"]);
    batch(&["--resume"]);
    assert_eq!(jsonl(&out), first, "a plain resume keeps limit records");
    let err = batch(&["--resume", "--retry-limits", "--node-limit", "200000"]);
    assert!(err.contains("2 limit stops are not searched again: this run's limits do not go past"), "{err}");
    assert_eq!(jsonl(&out), first, "limits no larger than before get no further");

    let o = run(&["batch", input.to_str().unwrap(), "-o", d.path("x.jsonl").to_str().unwrap(), "--retry-limits"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("--resume"), "{}", stderr(&o));

    let saved = checkpoints(&out);
    let err = batch(&["--resume", "--retry-limits"]);
    let all = jsonl(&out);
    assert_eq!(ids(&all), ["9", "12", "5", "8", "5", "8"]);
    for (again, before) in all[4..].iter().zip(&first[2..]) {
        let last = saved.iter().rfind(|c| c["id"] == again["id"]).unwrap();
        let note = format!("id {} starts at bound {}", again["id"].as_str().unwrap(), last["bound"]);
        assert!(err.contains(&note), "{note}: {err}");
        assert_eq!((status(again), again["matched"].as_bool()), ("solved".into(), Some(true)), "{again}");
        assert!(again["nodes"].as_u64() > before["nodes"].as_u64(), "{again}");
    }
    assert_eq!((summary_field(&err, "records"), summary_field(&err, "solved")), ("4", "4"), "{err}");
    assert_eq!(summary_field(&err, "limit"), "0", "{err}");
    let rep = run_report(&["report", out.to_str().unwrap()]);
    assert!(rep.status.success(), "{}", stderr(&rep));
    assert!(stderr(&rep).contains("2 records of ids recorded again later are not counted"), "{}", stderr(&rep));
    let text = String::from_utf8(rep.stdout).unwrap();
    for name in ["records", "solved", "limit", "nodes"] {
        assert_eq!(summary_field(&text, name), summary_field(&err, name));
    }
    batch(&["--resume", "--retry-limits"]);
    assert_eq!(jsonl(&out).len(), 6, "solved records stand");

    // Records of one id must be of one instance: refused before anything is searched or written.
    let mut other = all[5].clone();
    other["instance"] = all[0]["instance"].clone();
    let mut text = std::fs::read_to_string(&out).unwrap();
    text.push_str(&format!("{other}\n"));
    std::fs::write(&out, &text).unwrap();
    let o = run(&["batch", input.to_str().unwrap(), "-o", out.to_str().unwrap(), "--resume", "--retry-limits"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("id '8' has records of two instances"), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), text);
    let rep = run_report(&["report", out.to_str().unwrap()]);
    assert_eq!(rep.status.code(), Some(2), "{}", stderr(&rep));
}

#[test]
fn shards_cover_the_file_exactly_once_and_report_merges_them() {
    let d = Dir::new("shard");
    // Lines 1-4: Korf instances with ids k9 ...; 5: the opening comment of `generate`; 6-15: walks (ids 6
    // to 15); 16: a bad line; 17: a repeated id.
    let korf = EASY_KORF.lines().map(|l| format!("k{l}\n")).collect::<String>();
    let text = format!("{korf}{}not an instance\n{}", generate(10, 3, 30), korf.lines().next().unwrap());
    let input = d.file("in.txt", &text);
    let mut all = Vec::new();
    let mut outs = Vec::new();
    for i in 0..3 {
        let out = d.path(&format!("out{i}.jsonl"));
        let o = run(&["batch", input.to_str().unwrap(), "-o", out.to_str().unwrap(), "--shard", &format!("{i}/3")]);
        assert!(o.status.success(), "{}", stderr(&o));
        let recs = jsonl(&out);
        assert!(recs.len() == 5 || recs.len() == 6);
        all.extend(recs);
        outs.push(out.to_str().unwrap().to_string());
    }
    assert_each_once(
        &all,
        ["k9", "k12", "k5", "k8", "16", "k9@17"].map(String::from).into_iter().chain((6..=15).map(|i| i.to_string())),
    );
    let merged = Command::new(BIN).arg("report").args(&outs).args(["--format", "json"]).output().unwrap();
    assert!(merged.status.success(), "{}", stderr(&merged));
    let summary: serde_json::Value = serde_json::from_slice(&merged.stdout).unwrap();
    assert_eq!(
        (summary["records"].as_u64(), summary["invalid"].as_u64(), summary["checked"].as_u64()),
        (Some(16), Some(2), Some(4))
    );
    let nodes: u64 = all.iter().map(|r| r["nodes"].as_u64().unwrap()).sum();
    assert_eq!(summary["nodes"].as_u64(), Some(nodes));
    // The same shard twice is not a merge of shards.
    let twice = Command::new(BIN).args(["report", &outs[0], &outs[0]]).output().unwrap();
    assert_eq!(twice.status.code(), Some(1));
    assert!(stderr(&twice).contains("again in"), "{}", stderr(&twice));
}

#[test]
fn invalid_lines_become_records_naming_line_and_problem() {
    let d = Dir::new("invalid");
    let input = d.file(
        "in.txt",
        "# comment\n1 2 3\n0 2 1 3 4 5 6 7 8 9 10 11 12 13 14 15\n9 46 3 14 9 11 5 4 8 2 13 12 6 7 10 1 15 0\n0 1 2 3 4 5 6 7 8 9 10 11 12 13 15 15\n",
    );
    let out = d.path("out.jsonl");
    let o = run(&["batch", input.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let by_line: BTreeMap<u64, serde_json::Value> =
        jsonl(&out).into_iter().map(|r| (r["line"].as_u64().unwrap(), r)).collect();
    assert_eq!(by_line.keys().copied().collect::<Vec<_>>(), [2, 3, 4, 5]);
    assert_eq!(by_line[&2]["status"], "invalid");
    assert_eq!(by_line[&2]["id"], "2");
    assert_eq!(by_line[&2]["error"], "expected 16 tiles (or an id, an optimal length and 16 tiles), found 3 words");
    assert_eq!(by_line[&3]["status"], "unsolvable");
    assert!(by_line[&3]["error"].as_str().unwrap().starts_with("no sequence of moves reaches the goal"));
    assert_eq!(by_line[&4]["status"], "solved");
    assert_eq!(by_line[&5]["error"], "tile 15 appears twice");
    assert!(stderr(&o).contains("solver: line 5: tile 15 appears twice"), "{}", stderr(&o));
}

/// Tiles of the wrong parity are an answer (no moves reach the goal), not a bad line: the record, the batch's
/// summary and `report` all say `unsolvable`.
#[test]
fn a_position_of_the_wrong_parity_is_unsolvable_in_record_summary_and_report() {
    let d = Dir::new("unsolvable");
    let input = d.file(
        "in.txt",
        "1 2 3 4 5 6 8 7 0
8 2 0 4 6 1 3 7 5
1 2 3\n",
    );
    let out = d.path("out.jsonl");
    let o = run(&["batch", input.to_str().unwrap(), "--board", "3x3", "-o", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let statuses: Vec<String> = jsonl(&out).iter().map(|r| r["status"].as_str().unwrap().to_string()).collect();
    assert_eq!(statuses, ["unsolvable", "solved", "invalid"]);
    let err = stderr(&o);
    assert_eq!((summary_field(&err, "unsolvable"), summary_field(&err, "invalid")), ("1", "1"), "{err}");
    let rep = Command::new(BIN).args(["report", out.to_str().unwrap(), "--format", "json"]).output().unwrap();
    let summary: serde_json::Value = serde_json::from_slice(&rep.stdout).unwrap();
    assert_eq!((summary["unsolvable"].as_u64(), summary["invalid"].as_u64()), (Some(1), Some(1)));
}

#[test]
fn csv_and_jsonl_parse_back_with_standard_readers_and_agree() {
    let d = Dir::new("formats");
    let input = d.file("in.txt", &format!("{EASY_KORF}bad line\n"));
    let (j, c) = (d.path("out.jsonl"), d.path("out.csv"));
    for out in [&j, &c] {
        let o = run(&["batch", input.to_str().unwrap(), "-o", out.to_str().unwrap(), "--threads", "1"]);
        assert!(o.status.success(), "{}", stderr(&o));
    }
    let json = jsonl(&j);
    let mut reader = csv::Reader::from_path(&c).unwrap();
    let header: Vec<String> = reader.headers().unwrap().iter().map(String::from).collect();
    let want = [
        "id",
        "line",
        "instance",
        "status",
        "length",
        "moves",
        "nodes",
        "expanded",
        "seconds",
        "threads",
        "lanes",
        "algorithm",
        "heuristic",
        "root_h",
        "iterations",
        "peak_stored",
        "tables",
        "expected",
        "matched",
        "error",
        "finished",
        "settings",
        "next_bound",
        "bounds",
    ];
    assert_eq!(header, want);
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), json.len());
    for (row, rec) in rows.iter().zip(&json) {
        let keys: BTreeSet<&str> = rec.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(keys, BTreeSet::from(want));
        // One thread: the search and its counts are exactly reproducible, so the two runs agree field by field.
        for (k, v) in header.iter().zip(row.iter()) {
            let j = match &rec[k.as_str()] {
                serde_json::Value::Null => String::new(),
                serde_json::Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            if k != "seconds" && k != "finished" {
                assert_eq!(v, j, "field {k} of id {}", &row[0]);
            }
        }
    }
    let korf9 = json.iter().find(|r| r["id"] == "9").unwrap();
    assert_eq!(
        (korf9["length"].as_u64(), korf9["expected"].as_u64(), korf9["matched"].as_bool()),
        (Some(46), Some(46), Some(true))
    );
    assert_eq!(korf9["moves"].as_str().unwrap().split(' ').count(), 46);
    assert_eq!(korf9["heuristic"], "linear-conflict");
}

/// `name   value...` lines of the summary on stderr.
fn summary_field<'a>(err: &'a str, name: &str) -> &'a str {
    err.lines()
        .find_map(|l| l.strip_prefix(name).filter(|r| r.starts_with(' ')))
        .map(str::trim)
        .unwrap_or_else(|| panic!("no {name} in {err}"))
}

#[test]
fn the_summary_figures_equal_the_records() {
    let d = Dir::new("summary");
    let input = d.file("in.txt", &format!("{}{EASY_KORF}{KORF1}0 0 1\n", generate(20, 9, 50)));
    let out = d.path("out.jsonl");
    let o = run(&["batch", input.to_str().unwrap(), "-o", out.to_str().unwrap(), "--node-limit", "50000"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let err = stderr(&o);
    let recs = jsonl(&out);
    let count = |s: &str| recs.iter().filter(|r| r["status"] == s).count().to_string();
    assert_eq!(summary_field(&err, "records"), recs.len().to_string());
    assert_eq!(summary_field(&err, "solved"), count("solved"));
    assert_eq!(summary_field(&err, "limit"), count("limit"));
    assert_eq!(summary_field(&err, "invalid"), count("invalid"));
    let sum = |k: &str| recs.iter().map(|r| r[k].as_u64().unwrap()).sum::<u64>();
    let nodes = summary_field(&err, "nodes");
    assert!(nodes.starts_with(&format!("{} generated, {} expanded", sum("nodes"), sum("expanded"))), "{nodes}");
    let seconds: f64 = recs.iter().map(|r| r["seconds"].as_f64().unwrap()).sum();
    // In the unit of its scale (`373.4 µs`, `1.234 s`): a run of fast instances is not `0.000 s`.
    assert_eq!(summary_field(&err, "search time").split(';').next().unwrap(), cli_common::units::seconds(seconds));
    let checked = recs.iter().filter(|r| !r["matched"].is_null()).count();
    assert!(summary_field(&err, "checked").starts_with(&format!("{checked} lengths")));
    let slowest =
        recs.iter().max_by(|a, b| a["seconds"].as_f64().unwrap().total_cmp(&b["seconds"].as_f64().unwrap())).unwrap();
    assert!(summary_field(&err, "slowest").starts_with(&format!("{} (", slowest["id"].as_str().unwrap())));
    // `report` on the output prints the same figures.
    let rep = Command::new(BIN).args(["report", out.to_str().unwrap()]).output().unwrap();
    let text = String::from_utf8(rep.stdout).unwrap();
    for name in ["records", "solved", "limit", "invalid", "nodes", "search time"] {
        assert_eq!(summary_field(&text, name), summary_field(&err, name));
    }
}

#[test]
fn limits_give_limit_records_and_the_batch_goes_on() {
    let d = Dir::new("limits");
    let input = d.file("in.txt", &format!("{HARD}{EASY_KORF}"));
    // The time limit is generous for the easy instances (milliseconds) even on a loaded machine.
    for (flag, value, why) in [("--node-limit", "200000", "node limit"), ("--time-limit", "1", "time limit")] {
        let out = d.path(&format!("out{flag}.jsonl"));
        let o = run(&["batch", input.to_str().unwrap(), "-o", out.to_str().unwrap(), flag, value]);
        assert!(o.status.success(), "{}", stderr(&o));
        let recs = jsonl(&out);
        assert_eq!(recs.len(), 5);
        let hard = recs.iter().find(|r| r["id"] == "h").unwrap();
        assert_eq!(
            (hard["status"].as_str(), hard["length"].as_u64(), hard["matched"].as_bool()),
            (Some("limit"), None, None)
        );
        let e = hard["error"].as_str().unwrap();
        assert!(e.starts_with(why) && e.contains("the optimal length is at least"), "{e}");
        for easy in ["9", "12"] {
            assert_eq!(recs.iter().find(|r| r["id"] == easy).unwrap()["status"], "solved", "{flag}");
        }
    }
}

#[test]
fn a_wrong_known_length_is_a_loud_mismatch_and_a_failure() {
    let d = Dir::new("mismatch");
    let input = d.file("in.txt", &EASY_KORF.replace("12 45 ", "12 47 "));
    let out = d.path("out.csv");
    let o = run(&["batch", input.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("MISMATCH: id 12 (line 2): the optimal length found is 45 but the input says 47"), "{err}");
    let row = csv::Reader::from_path(&out).unwrap().records().map(Result::unwrap).find(|r| &r[0] == "12").unwrap();
    assert_eq!((&row[17], &row[18]), ("47", "false"));
    let rep = Command::new(BIN).args(["report", out.to_str().unwrap(), "--format", "markdown"]).output().unwrap();
    assert_eq!(rep.status.code(), Some(1));
    assert!(String::from_utf8(rep.stdout).unwrap().contains("| mismatched | 1 (ids 12) |"));
}

#[test]
fn bad_outputs_and_options_are_clear_one_line_errors() {
    let d = Dir::new("errors");
    let input = d.file("in.txt", EASY_KORF);
    let input = input.to_str().unwrap();
    let one_line = |args: &[&str], want: &str| {
        let o = run(args);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.starts_with("solver: error: ") && err.contains(want), "{err}");
    };
    one_line(
        &["batch", input, "-o", "/nonexistent-dir/out.jsonl"],
        "cannot create /nonexistent-dir/out.jsonl: No such file or directory",
    );
    one_line(&["batch", input, "--resume"], "--resume needs --output");
    one_line(
        &["batch", "/nonexistent-file", "-o", d.path("x.jsonl").to_str().unwrap()],
        "cannot read /nonexistent-file",
    );
    let out = d.file("full.jsonl", "{\"id\":\"1\"}\n");
    one_line(&["batch", input, "-o", out.to_str().unwrap()], "already holds records; add --resume");
    one_line(&["batch", input, "-o", out.to_str().unwrap(), "--resume"], "line 1: missing field");
    // A record file from another input is not resumed into.
    let other = d.path("other.jsonl");
    assert!(run(&["batch", input, "-o", other.to_str().unwrap()]).status.success());
    let changed = d.file("changed.txt", &EASY_KORF.replace("9 46 3 14", "9 46 14 3"));
    one_line(&["batch", changed.to_str().unwrap(), "-o", other.to_str().unwrap(), "--resume"], "has id '9' as");
    let o = run(&["batch", input, "--shard", "3/3"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("shard '3/3' is not I/N with 0 <= I < N"));
}

/// A batch file may hold a position as a grid, one row a line (pasted from a page): one instance, whose id
/// and line are its first row's. A file in the speedsolvers' form is read for their goal, every line of it,
/// and a line of that form in a file read for the other goal is refused unless `--goal` says which.
#[test]
fn a_batch_file_reads_grids_and_scrambles() {
    let d = Dir::new("forms");
    let input = d.file("grid.txt", "# pasted\n8 2 0\n4 6 1\n3 7 5\n\n1 2 0 3 4 5 6 7 8\n8 2 0\n4 6 1\n3 7 5\n");
    let o = run(&["batch", input.to_str().unwrap(), "--board", "3x3", "-q"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let recs: Vec<serde_json::Value> =
        String::from_utf8(o.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let got: Vec<(&str, u64, &str)> = recs
        .iter()
        .map(|r| (r["id"].as_str().unwrap(), r["line"].as_u64().unwrap(), r["status"].as_str().unwrap()))
        .collect();
    assert_eq!(got, [("2", 2, "solved"), ("6", 6, "solved"), ("7", 7, "solved")]);
    assert_eq!((recs[0]["instance"].as_str(), recs[0]["length"].as_u64()), (Some("8 2 0 4 6 1 3 7 5"), Some(24)));

    let scrambles = d.file("scrambles.txt", "1 2 3/4 0 5\n1 2 3 4 0 5\n");
    let o = run(&["batch", scrambles.to_str().unwrap(), "--board", "2x3"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let recs: Vec<serde_json::Value> =
        String::from_utf8(o.stdout.clone()).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert!(recs.iter().all(|r| r["length"] == 1), "both read for the blank-last goal: {recs:?}");
    assert!(stderr(&o).contains("line 1: rows apart by '/' are the speedsolvers' form"), "{}", stderr(&o));
    let mixed = d.file("mixed.txt", "1 2 3 4 0 5\n1 2 3/4 0 5\n");
    let o = run(&["batch", mixed.to_str().unwrap(), "--board", "2x3", "-q"]);
    let recs: Vec<serde_json::Value> =
        String::from_utf8(o.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!((recs[0]["status"].as_str(), recs[1]["status"].as_str()), (Some("solved"), Some("invalid")));
    assert!(recs[1]["error"].as_str().unwrap().contains("give --goal to read every line for one"), "{recs:?}");
    let o = run(&["batch", mixed.to_str().unwrap(), "--board", "2x3", "-q", "--goal", "blank-first"]);
    let recs: Vec<serde_json::Value> =
        String::from_utf8(o.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert!(recs.iter().all(|r| r["status"] == "solved"), "{recs:?}");
}

/// One instance on one thread is said so, not "1 instances, 1 threads".
#[test]
fn the_wall_time_line_counts_in_the_singular() {
    let d = Dir::new("singular");
    let input = d.file("in.txt", EASY_KORF.lines().next().unwrap());
    let o = run(&["batch", input.to_str().unwrap(), "--threads", "1", "-o", d.path("out.jsonl").to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains(" s this run (1 instance, 1 thread, --parallel "), "{}", stderr(&o));
}

#[test]
fn a_failed_write_stops_the_batch_with_an_error_naming_the_file() {
    let d = Dir::new("full");
    let input = d.file("in.txt", EASY_KORF);
    let o = run(&["batch", input.to_str().unwrap(), "-o", "/dev/full"]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    // The error comes first, where it is seen, then the summary of what was written before it.
    let error = err.find("solver: error: cannot write /dev/full: No space left on device (os error 28)\n");
    let summary = err.find("summary of /dev/full");
    assert!(error.is_some() && error < summary, "{err}");
}

#[test]
fn generate_is_reproducible_and_its_instances_are_solvable() {
    let a = Command::new(BIN).args(["generate", "--count", "3", "--seed", "42"]).output().unwrap();
    let b = Command::new(BIN).args(["generate", "--count", "3", "--seed", "42"]).output().unwrap();
    assert_eq!(a.stdout, b.stdout);
    let text = String::from_utf8(a.stdout).unwrap();
    // Fixed forever: the generator is our own splitmix64, independent of crate versions.
    assert_eq!(text.lines().nth(1).unwrap(), "13 15 5 6 8 1 12 10 7 14 9 0 4 3 2 11");
    let small =
        Command::new(BIN).args(["generate", "--count", "30", "--seed", "1", "--board", "3x3"]).output().unwrap();
    let o = solver(&["batch", "-", "--board", "3x3"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    o.stdin.as_ref().unwrap().write_all(&small.stdout).unwrap();
    let o = o.wait_with_output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let recs: Vec<serde_json::Value> =
        String::from_utf8(o.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(recs.len(), 30);
    assert!(recs.iter().all(|r| r["status"] == "solved" && r["length"].as_u64().unwrap() <= 31));
}

#[test]
fn bad_options_are_refused_before_anything_is_written() {
    let d = Dir::new("bad-options");
    let input = d.file("in.txt", EASY_KORF);
    let out = d.path("out.jsonl");
    for (args, want) in [
        (vec!["--threads", "0"], "--threads: the number of threads must be from 1 to"),
        (vec!["--time-limit", "1e20"], "1e20 seconds is more than a year"),
        (vec!["--time-limit=-1"], "'-1' is not a positive number of seconds"),
        (vec!["--heuristic", "pdb", "--pdbs", "/nonexistent"], "missing table"),
    ] {
        let mut all = vec!["batch", input.to_str().unwrap(), "-o", out.to_str().unwrap()];
        all.extend(&args);
        let o = Command::new(BIN).args(&all).stdin(Stdio::null()).output().unwrap();
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(want), "{args:?}: {}", stderr(&o));
        assert!(!out.exists(), "{args:?} left {}", out.display());
    }
    let o = run(&["batch", d.path("missing.txt").to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(!out.exists());
    // A wrong input is said alone, before the tables are looked for (their warning would come first and
    // their loading take seconds): a missing file, and a folder.
    for (input, want) in [("missing.txt", "No such file or directory"), ("", "it is a folder, not a file")] {
        let path = d.path(input);
        let o = Command::new(BIN)
            .args(["batch", path.to_str().unwrap(), "--pdbs", "/nonexistent"])
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.starts_with(&format!("solver: error: cannot read {}", path.display())), "{err}");
        assert!(err.contains(want), "{err}");
    }
}

#[test]
fn records_can_go_to_a_device_and_an_invalid_utf8_line_is_one_invalid_record() {
    let d = Dir::new("devnull");
    let input = d.file("in.txt", EASY_KORF);
    let o = run(&["batch", input.to_str().unwrap(), "-o", "/dev/null"]);
    assert!(o.status.success(), "{}", stderr(&o));

    let mut bytes = b"bad \xff line\n".to_vec();
    bytes.extend(EASY_KORF.lines().next().unwrap().as_bytes());
    let input = d.path("utf8.txt");
    std::fs::write(&input, &bytes).unwrap();
    let out = d.path("utf8.jsonl");
    let o = run(&["batch", input.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let recs = jsonl(&out);
    assert_eq!(recs.len(), 2);
    assert_eq!((recs[0]["status"].as_str(), recs[0]["line"].as_u64()), (Some("invalid"), Some(1)));
    assert_eq!(recs[0]["error"], "not UTF-8 text (byte 5 of the line)");
    assert_eq!(recs[1]["status"], "solved");
}

#[test]
fn a_summary_of_nothing_solved_has_no_means_and_no_negative_zero() {
    let d = Dir::new("nothing");
    let input = d.file("in.txt", "1 2 3\n");
    let o = run(&["batch", input.to_str().unwrap(), "-o", d.path("out.jsonl").to_str().unwrap()]);
    let err = stderr(&o);
    assert!(err.contains("search time  0 s; mean - a solved instance"), "{err}");
    assert!(err.contains("mean - generated") && !err.contains("-0.000"), "{err}");
}

/// An endless stdin is worked on as it arrives: the first instance is recorded while stdin is still open.
#[test]
fn stdin_is_streamed_not_read_to_the_end_first() {
    use std::io::Write;
    let d = Dir::new("stream");
    let out = d.path("out.jsonl");
    let mut child = solver(&["batch", "-", "-o", out.to_str().unwrap()])
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(EASY_KORF.lines().next().unwrap().as_bytes()).unwrap();
    stdin.write_all(b"\n").unwrap();
    stdin.flush().unwrap();
    let start = Instant::now();
    while std::fs::read_to_string(&out).map_or(true, |t| t.lines().count() < 1) {
        assert!(start.elapsed() < Duration::from_secs(30), "no record while stdin is open");
        std::thread::sleep(Duration::from_millis(20));
    }
    stdin.write_all(EASY_KORF.lines().nth(1).unwrap().as_bytes()).unwrap();
    drop(stdin);
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(ids(&jsonl(&out)), ["9", "12"]);
}

/// A line is read no further than 64 KiB: a 10 MB line between good ones is one invalid record quoting its
/// beginning, and a stream without a newline (`/dev/zero`, here 50 MB of zero bytes from a file and from a
/// pipe) is one too, where the whole line used to be read first (a 99 MB line cost 1.9 GB; `/dev/zero` grew
/// until the allocator aborted).
#[test]
fn a_line_past_the_cap_is_one_invalid_record_and_the_batch_goes_on() {
    use std::io::Write;
    let d = Dir::new("long-line");
    let (first, second) = (EASY_KORF.lines().next().unwrap(), EASY_KORF.lines().nth(1).unwrap());
    let input = d.file("in.txt", &format!("{first}\n{}\n{second}\n", "7 ".repeat(5 << 20)));
    let out = d.path("out.jsonl");
    let o = run(&["batch", input.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let recs = jsonl(&out);
    let got: Vec<(&str, &str)> =
        recs.iter().map(|r| (r["id"].as_str().unwrap(), r["status"].as_str().unwrap())).collect();
    assert_eq!(got, [("9", "solved"), ("2", "invalid"), ("12", "solved")]);
    let quoted = format!("{}…", "7 ".repeat(24));
    assert_eq!(recs[1]["instance"], quoted.as_str());
    let problem = format!("longer than 64 KiB, the most an instance line may be (it begins '{quoted}')");
    assert_eq!(recs[1]["error"], problem.as_str());
    assert!(stderr(&o).contains(&format!("solver: line 2: {problem}")), "{}", stderr(&o));

    let zeros = vec![0u8; 50 << 20];
    let input = d.path("zeros.txt");
    std::fs::write(&input, &zeros).unwrap();
    let out = d.path("zeros.jsonl");
    let o = run(&["batch", input.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let recs = jsonl(&out);
    assert_eq!((recs.len(), recs[0]["status"].as_str()), (1, Some("invalid")));
    assert!(stderr(&o).contains(r"(it begins '\u{0}\u{0}\u{0}"), "{}", stderr(&o));

    // From a pipe, and the line after the zeros is solved.
    let out = d.path("piped.jsonl");
    let mut child = solver(&["batch", "-", "-o", out.to_str().unwrap()])
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(&zeros).unwrap();
    stdin.write_all(format!("\n{first}\n").as_bytes()).unwrap();
    drop(stdin);
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let statuses: Vec<_> = jsonl(&out).iter().map(|r| r["status"].as_str().unwrap().to_string()).collect();
    assert_eq!(statuses, ["invalid", "solved"]);
}

/// Ids and lines of the input are printed with their control characters escaped, in the notes of problems,
/// the mismatches and the summary: a terminal would act on an escape sequence in them.
#[test]
fn control_characters_of_the_input_are_printed_escaped() {
    let d = Dir::new("escape");
    let first = EASY_KORF.lines().next().unwrap().replacen("9 46", "\x1b]0;pwned\x07\x1b[2J 40", 1);
    let input = d.file("in.txt", &format!("{first}\n{first}\nbad\x1b[31m line\n"));
    let o = run(&["batch", input.to_str().unwrap(), "-o", d.path("out.jsonl").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "a mismatch: {}", stderr(&o));
    let err = stderr(&o);
    assert!(!err.chars().any(|c| c.is_control() && c != '\n'), "{err:?}");
    let id = r"\u{1b}]0;pwned\u{7}\u{1b}[2J";
    assert!(err.contains(&format!("MISMATCH: id {id} (line 1)")), "{err}");
    assert!(err.contains(&format!("line 2: id '{id}' is already used on line 1")), "{err}");
    assert!(err.contains(&format!("differ from the input's: {id}")), "{err}");
}

/// `--claim` on an output begun without it: the worker claims the lines it has records for before any
/// other, so a second worker takes neither those nor the one in flight when the first was interrupted.
#[test]
fn a_claiming_worker_keeps_its_recorded_lines_and_its_claim_in_flight() {
    let d = Dir::new("claim-recorded");
    let korf = |id: &str| EASY_KORF.lines().find(|l| l.starts_with(&format!("{id} "))).unwrap().to_string();
    let input = d.file("in.txt", &format!("{}\n{HARD}{}\n{}\n", korf("9"), korf("12"), korf("5")));
    let input = input.to_str().unwrap();
    let (a, b, claims) = (d.path("a.jsonl"), d.path("b.jsonl"), d.path("claims"));
    let (a, b, claims) = (a.to_str().unwrap(), b.to_str().unwrap(), claims.to_str().unwrap());
    let o = run(&["batch", input, "--shard", "0/2", "-o", a, "-q"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(ids(&jsonl(Path::new(a))), ["9", "12"]);
    let child = solver(&["batch", input, "--claim", claims, "-o", a, "--resume", "--threads", "1", "-q"])
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while !Path::new(claims).join("2").exists() {
        assert!(start.elapsed() < Duration::from_secs(30), "the hard line was not claimed within 30 s");
        std::thread::sleep(Duration::from_millis(20));
    }
    // SAFETY: kill(2) on our own child's pid.
    assert_eq!(unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) }, 0);
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(130), "{}", stderr(&o));
    let o = run(&["batch", input, "--claim", claims, "-o", b, "-q"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(ids(&jsonl(Path::new(b))), ["5"], "the second worker takes only the line nobody had");
    assert_eq!(ids(&jsonl(Path::new(a))), ["9", "12"]);
}

/// Claims go by line number over a fixed input, and `trial` would leave the hard instances to one worker at
/// the end: both are refused before the output is touched.
#[test]
fn claiming_refuses_stdin_and_trial_before_writing_anything() {
    let d = Dir::new("claim-refused");
    let input = d.file("in.txt", EASY_KORF);
    let (out, claims) = (d.path("out.jsonl"), d.path("claims"));
    let (out_s, claims_s) = (out.to_str().unwrap(), claims.to_str().unwrap());
    for (args, problem) in [
        (vec!["-"], "--claim needs an input file"),
        (vec![input.to_str().unwrap(), "--parallel", "trial"], "--parallel trial leaves the hard instances"),
    ] {
        let o = run(&[&["batch", "--claim", claims_s, "-o", out_s][..], &args[..]].concat());
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(stderr(&o).contains(problem), "{}", stderr(&o));
        assert!(!out.exists() && !claims.exists());
    }
}

/// Two hosts writing the same node-local record path share a claim folder: each instance is searched by one
/// of them (played here by one machine under two host names, the second run on a fresh file at the path the
/// first one's records were moved from, once the first has claimed everything).
#[test]
fn two_hosts_with_the_same_record_path_search_each_instance_once() {
    let d = Dir::new("claim-hosts");
    let input = d.file("in.txt", EASY_KORF);
    let (out, claims) = (d.path("out.jsonl"), d.path("claims"));
    let (input, out_s, claims_s) = (input.to_str().unwrap(), out.to_str().unwrap(), claims.to_str().unwrap());
    let on = |host: &str, more: &[&str]| {
        let o = solver(&[&["batch", input, "--claim", claims_s, "-o", out_s, "-q"][..], more].concat())
            .env("BATCH_CLAIM_HOST", host)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", stderr(&o));
    };
    let all = ["9", "12", "5", "8"].map(String::from);
    on("node-a", &[]);
    std::fs::rename(&out, d.path("a.jsonl")).unwrap();
    on("node-b", &[]);
    assert_each_once(&jsonl(&d.path("a.jsonl")), all.clone());
    let second = if out.exists() { ids(&jsonl(&out)) } else { Vec::new() };
    assert_eq!(second, Vec::<String>::new(), "the second host takes nothing the first had claimed");
    // The first host, run again on its file, takes back its claims: every line is its own, and done.
    std::fs::rename(d.path("a.jsonl"), &out).unwrap();
    on("node-a", &["--resume"]);
    assert_each_once(&jsonl(&out), all);
}

/// A FIFO under a line's claim name would block a reader for good, and a file naming no worker once skipped
/// its line unsaid: neither is waited on, each is reported by name, and the other lines are searched.
#[test]
fn a_fifo_or_a_junk_file_under_a_claim_name_is_reported_and_its_line_left() {
    let d = Dir::new("claim-junk");
    let input = d.file("in.txt", EASY_KORF);
    let (out, claims) = (d.path("out.jsonl"), d.path("claims"));
    std::fs::create_dir_all(&claims).unwrap();
    let fifo = std::ffi::CString::new(claims.join("2").to_str().unwrap()).unwrap();
    // SAFETY: mkfifo on a NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) }, 0);
    std::fs::write(claims.join("3"), "\u{0}\u{1}junk").unwrap();
    let (input, out_s, claims_s) = (input.to_str().unwrap(), out.to_str().unwrap(), claims.to_str().unwrap());
    let mut child = solver(&["batch", input, "--claim", claims_s, "-o", out_s, "-q"])
        .stderr(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(60) {
            child.kill().unwrap();
            panic!("the batch still runs after 60 s: a claim blocked it");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let err = stderr(&o);
    for (line, why) in [(2, "is a FIFO, not a regular file"), (3, "names no worker")] {
        let said = format!("{} {why}: line {line} is left unsearched", claims.join(line.to_string()).display());
        assert!(err.contains(&said), "{said:?} not in {err}");
    }
    assert_eq!(ids(&jsonl(&out)), ["9", "8"]);
}

/// `--dual` is named in every record's heuristic, so a file of records made without it is not resumed with
/// it (nor the other way round); it is refused, naming the option, where it does not apply.
#[test]
fn dual_lookups_are_recorded_and_a_mix_is_refused() {
    let d = Dir::new("dual");
    let board = puzzle::Board::new(3, 3).unwrap();
    let pdbs = d.path("pdbs");
    std::fs::create_dir_all(&pdbs).unwrap();
    for pattern in &puzzle::partition::Partition::parse(board, "4-4").unwrap().patterns {
        let path = pdbs.join(puzzle::partition::file_name(board, pattern));
        pdb_builder::build_table_with(board, pattern, 1, &path, &mut |_| {}).unwrap();
    }
    let input = d.file("in.txt", "8 6 7 2 5 4 3 0 1\n6 4 7 8 5 0 3 2 1\n1 2 0 3 4 5 6 7 8\n");
    let (input, pdbs) = (input.to_str().unwrap(), pdbs.to_str().unwrap());
    let tables = ["--board", "3x3", "--heuristic", "pdb", "--partition", "4-4", "--pdbs", pdbs];
    let records = |out: &Path| -> Vec<serde_json::Value> {
        std::fs::read_to_string(out).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect()
    };
    let mut lengths = Vec::new();
    for (dual, other) in [(true, false), (false, true)] {
        let out = d.path(&format!("out-{dual}.jsonl"));
        let o = run_report(
            &[&["batch", input, "-o", out.to_str().unwrap()][..], &tables, &["--dual"][..dual as usize]].concat(),
        );
        assert!(o.status.success(), "{}", stderr(&o));
        let recs = records(&out);
        assert_eq!(recs.len(), 3);
        lengths.push(recs.iter().map(|r| r["length"].as_u64().unwrap()).collect::<Vec<_>>());
        for r in &recs {
            assert_eq!(r["heuristic"].as_str().unwrap().ends_with(" + dual"), dual, "{r}");
            assert!(
                r["settings"]
                    .as_str()
                    .unwrap()
                    .contains(&format!("heuristic=pdb 4-4 + reflection{}", ["", " + dual"][dual as usize])),
                "{r}"
            );
        }
        let again =
            [&["batch", input, "-o", out.to_str().unwrap(), "--resume"][..], &tables, &["--dual"][..other as usize]]
                .concat();
        let o = run_report(&again);
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(stderr(&o).contains("was made with other settings") && stderr(&o).contains("dual"), "{}", stderr(&o));
    }
    assert_eq!(lengths[0], lengths[1], "lengths with --dual, without");
    for (extra, says) in [
        (&["--algorithm", "astar"][..], "--dual is for the engine's IDA*"),
        (&["--textbook"][..], "--dual does not go with --textbook"),
    ] {
        let o = run_report(&[&["solve", "8 6 7 2 5 4 3 0 1", "--dual"][..], &tables, extra].concat());
        assert_eq!(o.status.code(), Some(2), "{extra:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(says), "{extra:?}: {}", stderr(&o));
    }
    let o = run_report(&["solve", "8 6 7 2 5 4 3 0 1", "--board", "3x3", "--dual", "--heuristic", "linear-conflict"]);
    assert!(!o.status.success() && stderr(&o).contains("dual lookups read tables"), "{}", stderr(&o));
}
