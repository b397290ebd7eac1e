//! One position's IDA* iterations split into items, worked by several workers (shards) and merged, by hand:
//! the same optimal length as a plain solve, a solution that replays, and clear refusals when records are
//! missing, doubled or made with other settings.

use harness::{run, TempDir};
use std::process::Output;

const BIN: &str = env!("CARGO_BIN_EXE_solver");

fn solver(args: &[&str]) -> Output {
    run(BIN, args, b"")
}

fn ok(o: &Output) -> String {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout.clone()).unwrap()
}

/// `merge --format json` of an items file and its record files.
fn merged(items: &str, records: &[String]) -> serde_json::Value {
    let args =
        [&["merge", "--format", "json", items][..], &records.iter().map(String::as_str).collect::<Vec<_>>()].concat();
    serde_json::from_str(&ok(&solver(&args))).unwrap()
}

/// Splits every iteration of `position` into about `items` items, works them in `workers` shards and merges,
/// until a merge gives the solution; returns its length and the iterations it took.
fn split_solve(board: &str, position: &str, items: &str, workers: usize) -> (u64, usize) {
    let dir = TempDir::new("split-by-hand");
    let h = ["--board", board, "--heuristic", "linear-conflict", "--pdbs", "/nonexistent"];
    let mut bound: Option<u64> = None;
    for iteration in 1.. {
        let file = dir.path(&format!("iter-{iteration}.items"));
        let file = file.to_str().unwrap();
        let mut args = vec!["split", "--items", items, "-o", file, position];
        let b = bound.map(|b| b.to_string());
        if let Some(b) = &b {
            args.extend(["--bound", b]);
        }
        ok(&solver(&[&args[..], &h[..]].concat()));
        let mut outs = Vec::new();
        for w in 0..workers {
            let out = dir.path(&format!("iter-{iteration}-{w}.jsonl")).to_str().unwrap().to_string();
            let shard = format!("{w}/{workers}");
            ok(&solver(&[&["work", file, "--shard", &shard, "-o", &out, "-q"][..], &h[2..]].concat()));
            outs.push(out);
        }
        let merged = ok(&solver(
            &[&["merge", "--format", "json", file][..], &outs.iter().map(String::as_str).collect::<Vec<_>>()].concat(),
        ));
        let v: serde_json::Value = serde_json::from_str(&merged).unwrap();
        match v["status"].as_str().unwrap() {
            "solved" => {
                assert_eq!(v["length"], v["bound"], "{merged}");
                return (v["length"].as_u64().unwrap(), iteration);
            }
            "next" => {
                let next = v["next"].as_u64().unwrap();
                assert!(bound.is_none_or(|b| next > b), "{merged}");
                bound = Some(next);
            }
            s => panic!("{s}: {merged}"),
        }
    }
    unreachable!()
}

#[test]
fn split_work_and_merge_give_the_plain_solves_length() {
    for (board, position, items, workers) in [
        ("4x4", "14 1 9 6 4 8 12 5 7 2 3 0 10 11 13 15", "40", 3),
        ("4x4", "3 14 9 11 5 4 8 2 13 12 6 7 10 1 15 0", "200", 2),
        ("3x3", "8 7 6 0 4 1 2 5 3", "5", 4),
        ("2x3", "1 2 0 3 4 5", "3", 2),
        ("5x5", "5 1 2 3 4 6 0 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24", "1", 1),
    ] {
        let plain =
            ok(&solver(&["solve", "--board", board, "--heuristic", "linear-conflict", "--format", "json", position]));
        let plain: serde_json::Value = serde_json::from_str(&plain).unwrap();
        let (length, iterations) = split_solve(board, position, items, workers);
        assert_eq!(Some(length), plain["length"].as_u64(), "{board} {position}");
        assert_eq!(Some(iterations as u64), plain["iterations"].as_u64(), "{board} {position}");
    }
}

/// The heuristic options of the bound-43 iteration's workers.
const H: [&str; 4] = ["--heuristic", "linear-conflict", "--pdbs", "/nonexistent"];

/// A 4x4 position split at bound 43 (its optimum is 45) into `dir`'s `it.items`: its path.
fn bound_43(dir: &TempDir) -> String {
    let position = "14 1 9 6 4 8 12 5 7 2 3 0 10 11 13 15";
    let items = dir.path("it.items").to_str().unwrap().to_string();
    ok(&solver(&[&["split", "--bound", "43", "--items", "30", "-o", &items, position][..], &H[..]].concat()));
    items
}

#[test]
fn merge_refuses_missing_doubled_and_foreign_records() {
    let dir = TempDir::new("split-refusals");
    let position = "14 1 9 6 4 8 12 5 7 2 3 0 10 11 13 15";
    let h = ["--heuristic", "linear-conflict", "--pdbs", "/nonexistent"];
    let items = dir.path("it.items");
    let items = items.to_str().unwrap();
    // Bound 43: every item is searched without a solution (the optimum is 45).
    ok(&solver(&[&["split", "--bound", "43", "--items", "30", "-o", items, position][..], &h[..]].concat()));
    let (a, b) = (dir.path("a.jsonl"), dir.path("b.jsonl"));
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
    ok(&solver(&[&["work", items, "--shard", "0/2", "-o", a, "-q"][..], &h[..]].concat()));
    let o = solver(&["merge", items, a]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("items have no record yet"), "{o:?}");
    ok(&solver(&[&["work", items, "--shard", "1/2", "-o", b, "-q"][..], &h[..]].concat()));
    let merged = ok(&solver(&["merge", items, a, b]));
    assert!(merged.starts_with("no solution at bound 43: next bound 45"), "{merged}");
    let o = solver(&["merge", items, a, b, a]);
    assert!(String::from_utf8_lossy(&o.stderr).contains("items with records in more than one file"), "{o:?}");
    // A worker with another heuristic is refused before it searches.
    let c = dir.path("c.jsonl");
    let o = solver(&["work", items, "--heuristic", "manhattan", "-o", c.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("the items were cut with"), "{o:?}");
    assert!(!c.exists());
}

/// Records are checked against their items: a record of another iteration (its bound), or one whose next
/// bound is not above the bound, is refused naming the item, where a match by number alone merged them.
#[test]
fn merge_refuses_records_of_another_iteration_and_a_next_bound_not_above_the_bound() {
    let dir = TempDir::new("split-foreign");
    let (items, h) = (bound_43(&dir), H);
    let items = items.as_str();
    let a = dir.path("a.jsonl");
    let a = a.to_str().unwrap();
    ok(&solver(&[&["work", items, "-o", a, "-q"][..], &h[..]].concat()));
    let records = std::fs::read_to_string(a).unwrap();
    assert!(records.contains(" bound 43 prefix ") && records.contains(r#""next_bound":45"#), "{records}");
    for (name, edited, refusal) in [
        ("other.jsonl", records.replace(" bound 43 prefix ", " bound 41 prefix "), "not of this iteration's item"),
        ("low.jsonl", records.replace(r#""next_bound":45"#, r#""next_bound":43"#), "not above the bound 43"),
    ] {
        let file = dir.file(name, &edited);
        let o = solver(&["merge", items, file.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(1), "{name}: {o:?}");
        assert!(String::from_utf8_lossy(&o.stderr).contains(refusal), "{name}: {o:?}");
    }
}

/// An items file edited after `split` is refused by `work` before any search: a changed line by its checksum,
/// and lines changed with the checksum made again (an item replaced by a renumbered copy of another, a bound
/// lowered) by the cut made again.
#[test]
fn work_refuses_an_edited_items_file() {
    let dir = TempDir::new("split-edited");
    let (items, h) = (bound_43(&dir), H);
    let text = std::fs::read_to_string(&items).unwrap();
    let (header, body) = text.split_once('\n').unwrap();
    let lines: Vec<&str> = body.lines().collect();
    let copy = lines[1].replace(r#""item":2,"#, r#""item":1,"#);
    let resum = |body: &str| {
        let sum = format!("{:016x}", xxhash_rust::xxh3::xxh3_64(body.as_bytes()));
        let old = header.split(r#""checksum":""#).nth(1).unwrap().split('"').next().unwrap();
        format!("{}\n{body}", header.replace(old, &sum))
    };
    let replaced = format!("{copy}\n{}\n", lines[1..].join("\n"));
    for (name, edited, refusal) in [
        ("lowered", text.replacen(r#""bound":43"#, r#""bound":41"#, 2), "do not match the checksum"),
        ("replaced", resum(&replaced), "is not the cut of its iteration"),
    ] {
        let file = dir.file(&format!("{name}.items"), &edited);
        let out = dir.path(&format!("{name}.jsonl"));
        let o = solver(&[&["work", file.to_str().unwrap(), "-o", out.to_str().unwrap(), "-q"][..], &h[..]].concat());
        assert_eq!(o.status.code(), Some(2), "{name}: {o:?}");
        assert!(String::from_utf8_lossy(&o.stderr).contains(refusal), "{name}: {o:?}");
        assert!(!out.exists(), "{name}");
    }
}

/// More items asked for than the iteration has: the file holds what there is, and `split` says so.
#[test]
fn split_says_when_the_iteration_has_fewer_items_than_asked_for() {
    let dir = TempDir::new("split-narrow");
    let items = dir.path("it.items");
    let position = "8 7 6 0 4 1 2 5 3";
    let o = solver(&[
        "split",
        "--board",
        "3x3",
        "--bound",
        "20",
        "--items",
        "10000000",
        "-o",
        items.to_str().unwrap(),
        position,
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(err.contains("10000000 items asked for, but the iteration at bound 20 is no wider than"), "{err}");
}

/// After `work --resume --retry-limits` an item's last record counts, as in a batch's summary: the limit stop
/// before it is not a second record.
#[test]
fn merge_takes_each_items_last_record_after_a_retry() {
    let dir = TempDir::new("split-retry");
    let (items, h) = (bound_43(&dir), H);
    let items = items.as_str();
    let a = dir.path("a.jsonl");
    let a = a.to_str().unwrap();
    ok(&solver(&[&["work", items, "-o", a, "-q", "--node-limit", "100"][..], &h[..]].concat()));
    assert!(std::fs::read_to_string(a).unwrap().contains(r#""status":"limit""#));
    ok(&solver(&[&["work", items, "-o", a, "-q", "--resume", "--retry-limits"][..], &h[..]].concat()));
    let merged = ok(&solver(&["merge", items, a]));
    assert!(merged.starts_with("no solution at bound 43: next bound 45"), "{merged}");
}

/// Shards planned by the previous iteration's item sizes: every item taken by exactly one worker (its
/// planned shard), the iteration's nodes as dealt round-robin, and a worker given another shard count refused.
#[test]
fn shards_planned_by_the_previous_iteration_take_every_item_once() {
    let dir = TempDir::new("split-planned");
    let position = "15 2 12 11 14 13 9 5 1 3 8 7 0 10 6 4";
    let h = ["--heuristic", "linear-conflict", "--pdbs", "/nonexistent"];
    let path = |name: &str| dir.path(name).to_str().unwrap().to_string();
    let (first, before) = (path("55.items"), path("55.jsonl"));
    ok(&solver(&[&["split", "--bound", "55", "--items", "200", "-o", &first, position][..], &h[..]].concat()));
    ok(&solver(&[&["work", &first, "-o", &before, "-q"][..], &h[..]].concat()));
    // The same bound dealt round-robin, for the node count.
    let (plain_items, plain) = (path("57.items"), path("57.jsonl"));
    ok(&solver(&[&["split", "--bound", "57", "--items", "200", "-o", &plain_items, position][..], &h[..]].concat()));
    ok(&solver(&[&["work", &plain_items, "-o", &plain, "-q"][..], &h[..]].concat()));
    let want = merged(&plain_items, &[plain]);
    let planned = path("57p.items");
    let args =
        ["split", "--bound", "57", "--items", "200", "--shards", "3", "--plan", &before, "-o", &planned, position];
    ok(&solver(&[&args[..], &h[..]].concat()));
    let mut outs = Vec::new();
    for w in 0..3 {
        let out = path(&format!("57p-{w}.jsonl"));
        ok(&solver(&[&["work", &planned, "--shard", &format!("{w}/3"), "-o", &out, "-q"][..], &h[..]].concat()));
        outs.push(out);
    }
    let got = merged(&planned, &outs);
    assert_eq!((got["nodes"].clone(), got["next"].clone()), (want["nodes"].clone(), want["next"].clone()), "{got}");
    let o = solver(&[&["work", &planned, "--shard", "0/2", "-o", &path("x.jsonl")][..], &h[..]].concat());
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("planned for 3 shards: give --shard I/3"), "{o:?}");
}

/// Workers that claim items (`work --claim`) run side by side as processes: every item searched by exactly
/// one of them, the iteration's nodes those of one plain worker; items ordered by the previous iteration's
/// sizes (`split --plan` without `--shards`) come largest first; and a worker cut off before a record takes
/// its claimed item back on `--resume`, which no other worker had taken.
#[test]
fn claiming_workers_take_every_item_once_and_a_resumed_one_its_own() {
    let dir = TempDir::new("split-claimed");
    let position = "15 2 12 11 14 13 9 5 1 3 8 7 0 10 6 4";
    let path = |name: &str| dir.path(name).to_str().unwrap().to_string();
    fn with_h<'a>(args: &[&'a str]) -> Vec<&'a str> {
        [args, &["--heuristic", "linear-conflict", "--pdbs", "/nonexistent"][..]].concat()
    }
    let (first, before) = (path("55.items"), path("55.jsonl"));
    ok(&solver(&with_h(&["split", "--bound", "55", "--items", "200", "-o", &first, position])));
    ok(&solver(&with_h(&["work", &first, "-o", &before, "-q"])));
    let (plain_items, plain) = (path("57.items"), path("57.jsonl"));
    ok(&solver(&with_h(&["split", "--bound", "57", "--items", "200", "-o", &plain_items, position])));
    ok(&solver(&with_h(&["work", &plain_items, "-o", &plain, "-q"])));
    let want = merged(&plain_items, std::slice::from_ref(&plain));

    let ordered = path("57o.items");
    ok(&solver(&with_h(&["split", "--bound", "57", "--items", "200", "--plan", &before, "-o", &ordered, position])));
    // Largest first by the bound-55 sizes, each prefix's.
    let sizes: std::collections::HashMap<String, u64> = std::fs::read_to_string(&before)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .map(|r| {
            let prefix = r["instance"].as_str().unwrap().split_once(" prefix ").unwrap().1.to_string();
            (prefix, r["nodes"].as_u64().unwrap())
        })
        .collect();
    let text = std::fs::read_to_string(&ordered).unwrap();
    let predicted: Vec<u64> = text
        .lines()
        .skip(1)
        .map(|l| sizes[serde_json::from_str::<serde_json::Value>(l).unwrap()["prefix"].as_str().unwrap()])
        .collect();
    assert!(predicted.len() > 100 && predicted.windows(2).all(|w| w[0] >= w[1]), "{predicted:?}");

    let claims = path("claims");
    let outs: Vec<String> = (0..3).map(|w| path(&format!("57o-{w}.jsonl"))).collect();
    let workers: Vec<_> = outs
        .iter()
        .map(|out| {
            std::process::Command::new(BIN)
                .args(with_h(&["work", &ordered, "--claim", &claims, "-o", out, "-q"]))
                .spawn()
                .unwrap()
        })
        .collect();
    for mut w in workers {
        assert!(w.wait().unwrap().success());
    }
    // A worker that found every item claimed before it started writes no file: the race decides who works.
    let outs: Vec<String> = outs.into_iter().filter(|o| std::path::Path::new(o).exists()).collect();
    let got = merged(&ordered, &outs);
    assert_eq!((got["nodes"].clone(), got["next"].clone()), (want["nodes"].clone(), want["next"].clone()), "{got}");

    // The busiest worker "cut off" before its last record: merge misses that item; the others do not take it,
    // the cut one resumed does, and the merge is whole again.
    let count = |out: &str| std::fs::read_to_string(out).unwrap().lines().count();
    let cut = (0..outs.len()).max_by_key(|&k| count(&outs[k])).unwrap();
    let records = std::fs::read_to_string(&outs[cut]).unwrap();
    let kept: Vec<&str> = records.lines().collect();
    assert!(kept.len() > 1, "the busiest worker took {} items", kept.len());
    std::fs::write(&outs[cut], kept[..kept.len() - 1].join("\n") + "\n").unwrap();
    let o = solver(&[&["merge", &ordered][..], &outs.iter().map(String::as_str).collect::<Vec<_>>()].concat());
    assert!(String::from_utf8_lossy(&o.stderr).contains("1 of"), "{o:?}");
    let others: Vec<(&String, usize)> =
        outs.iter().enumerate().filter(|&(k, _)| k != cut).map(|(_, o)| (o, count(o))).collect();
    for (out, want) in others.into_iter().chain([(&outs[cut], kept.len())]) {
        ok(&solver(&with_h(&["work", &ordered, "--claim", &claims, "-o", out, "--resume"])));
        assert_eq!(count(out), want, "{out}");
    }
    assert_eq!(merged(&ordered, &outs)["nodes"], want["nodes"]);
    let o = solver(&with_h(&["work", &ordered, "--claim", &claims, "--shard", "0/2", "-o", &path("x.jsonl")]));
    assert_eq!(o.status.code(), Some(2), "{o:?}");
}

/// Merged at a bound above the optimum (23 moves here), an iteration cannot tell the optimum: a shorter
/// solution than the bound is refused, saying so, and one as long as the bound is given with what its
/// optimality rests on, every bound below searched without a solution (in JSON too).
#[test]
fn merge_above_the_optimum_says_optimality_needs_every_lower_bound_exhausted() {
    let dir = TempDir::new("split-above");
    let h = ["--board", "3x3", "--heuristic", "linear-conflict", "--pdbs", "/nonexistent"];
    let position = "8 4 2 7 5 0 1 6 3";
    let (mut refused, mut solved) = (0, 0);
    for bound in ["25", "27", "29"] {
        let items = dir.path(&format!("{bound}.items")).to_str().unwrap().to_string();
        let out = dir.path(&format!("{bound}.jsonl")).to_str().unwrap().to_string();
        ok(&solver(&[&["split", "--bound", bound, "--items", "20", "-o", &items, position][..], &h[..]].concat()));
        ok(&solver(&[&["work", &items, "-o", &out, "-q"][..], &h[2..]].concat()));
        let text = solver(&["merge", &items, &out]);
        if text.status.success() {
            let text = String::from_utf8_lossy(&text.stdout).into_owned();
            let said = format!("solved at bound {bound}: length {bound} ");
            assert!(text.starts_with(&said), "{text}");
            assert!(text.contains("the length is the optimum if every bound below it was searched"), "{text}");
            let json = merged(&items, &[out]);
            assert_eq!(json["optimal_if"], format!("every bound below {bound} was searched without a solution"));
            solved += 1;
        } else {
            let err = String::from_utf8_lossy(&text.stderr).into_owned();
            assert!(err.contains(&format!("at bound {bound}: the bound is above the optimum")), "{err}");
            refused += 1;
        }
    }
    assert!(solved > 0 && refused > 0, "{solved} solved, {refused} refused");
}
