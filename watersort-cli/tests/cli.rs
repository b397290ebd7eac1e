//! The `watersort` binary: exit codes, one-line errors for every malformed level, JSON input and output,
//! `--show`, and `generate` reproducible from its seed.

use std::process::Output;

fn watersort(args: &[&str], stdin: &str) -> Output {
    harness::run(env!("CARGO_BIN_EXE_watersort"), args, stdin.as_bytes())
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn solves_and_prints_pours_one_based() {
    let out = watersort(&["solve", "demo: ab ba -", "--capacity", "2"], "");
    assert_eq!(out.status.code(), Some(0));
    let stdout = text(&out.stdout);
    assert!(stdout.starts_with("demo: 3 pours (optimal)"), "{stdout}");
    assert!(stdout.lines().nth(1).unwrap().contains(" -> 3"), "{stdout}");
}

/// "nodes" means one thing in text and in JSON, as in `solver`: the generated nodes, beside the expanded.
#[test]
fn text_and_json_count_the_same_nodes() {
    let level = "demo: abab baba - -";
    let json: serde_json::Value =
        serde_json::from_slice(&watersort(&["solve", level, "--format", "json"], "").stdout).unwrap();
    let (nodes, expanded) = (json["nodes"].as_u64().unwrap(), json["expanded"].as_u64().unwrap());
    assert!(nodes > expanded, "{json}");
    let stdout = text(&watersort(&["solve", level], "").stdout);
    assert!(stdout.contains(&format!(", nodes {nodes} generated, {expanded} expanded, ")), "{stdout}");
}

#[test]
fn every_malformed_level_is_one_line_and_exit_2() {
    for (level, expected) in [
        ("x: aaaaa -", "line 1: tube 1 holds 5 units, over the capacity 4"),
        ("x: aaaa a1aa -", "line 1: tube 2: unknown character '1'"),
        ("x: aaaa a?aa -", "line 1: colour a shows 7 units, but with hidden units every colour fills one tube of 4"),
        ("x: aaa? bbbb -", "line 1: tube 1: its top unit is hidden, but a game always shows it"),
        ("x: aaaa bbb -", "line 1: colour b has 3 units, not a multiple of the capacity 4"),
        ("x: aaaa b -", "line 1: colour b has 1 unit, not a multiple of the capacity 4"),
        ("x: aaaa", "line 1: 1 tube: a level needs at least two"),
    ] {
        let out = watersort(&["solve", "-"], level);
        assert_eq!(out.status.code(), Some(2), "{level}");
        let stderr = text(&out.stderr);
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains(expected), "{stderr} lacks {expected}");
    }
}

#[test]
fn a_bad_line_among_good_ones_still_solves_the_rest_and_exits_2() {
    let out = watersort(&["solve", "-"], "a: aaaa -\n# comment\nb: aab -\nc: abab baba - -\n");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("line 3:"));
    assert_eq!(text(&out.stdout).lines().filter(|l| l.contains("(optimal)")).count(), 2);
}

#[test]
fn usage_errors_exit_2_and_help_has_examples() {
    assert_eq!(watersort(&["solve"], "").status.code(), Some(2));
    assert_eq!(watersort(&["solve", "x: ab ba -", "--algorithm", "magic"], "").status.code(), Some(2));
    assert_eq!(watersort(&["solve", "x: ab ba -", "--heuristic", "guide"], "").status.code(), Some(2));
    assert_eq!(watersort(&["solve", "x: ab ba -", "--capacity", "0"], "").status.code(), Some(2));
    let help = watersort(&["--help"], "");
    assert!(text(&help.stdout).contains("Examples:"));
}

#[test]
fn a_level_of_empty_tubes_is_already_solved() {
    let out = watersort(&["solve", "void: - -"], "");
    assert_eq!(out.status.code(), Some(0));
    assert!(text(&out.stdout).starts_with("void: 0 pours"), "{}", text(&out.stdout));
}

#[test]
fn unsolvable_is_proved_and_exits_1() {
    let out = watersort(&["solve", "stuck: ab ba", "--capacity", "2"], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stdout).contains("stuck: unsolvable, proved by examining"), "{}", text(&out.stdout));
}

#[test]
fn limits_stop_the_search_and_exit_3() {
    let level = "hard: abcd bcda cdab dabc - -";
    let out = watersort(&["solve", level, "--node-limit", "1", "--algorithm", "bfs"], "");
    assert_eq!(out.status.code(), Some(3));
    assert!(text(&out.stdout).contains("stopped (node limit)"), "{}", text(&out.stdout));
}

#[test]
fn reads_json_and_writes_json() {
    let path = std::env::temp_dir().join(format!("watersort-cli-{}.json", std::process::id()));
    std::fs::write(&path, r#"[["Red","Blue"],["Blue","Red"],["Empty","Empty"]]"#).unwrap();
    let out = watersort(&["solve", path.to_str().unwrap(), "--capacity", "2", "--format", "json"], "");
    std::fs::remove_file(&path).unwrap();
    assert_eq!(out.status.code(), Some(0));
    let record: serde_json::Value = serde_json::from_str(text(&out.stdout).trim()).unwrap();
    // The record every tool's batch writes.
    assert_eq!((record["status"].as_str(), record["algorithm"].as_str()), (Some("solved"), Some("astar")));
    assert_eq!(record["length"], 3);
    assert_eq!(record["moves"].as_str().unwrap().split(' ').count(), 3);
}

#[test]
fn show_draws_plain_letters_when_not_a_terminal() {
    let out = watersort(&["solve", "d: ab ba -", "--capacity", "2", "--show"], "");
    let stdout = text(&out.stdout);
    assert!(stdout.contains("start\n |b| |a| | |\n |a| |b| | |\n"), "{stdout}");
    assert!(!stdout.contains('\x1b'));
    assert_eq!(stdout.matches("pour ").count(), 3);
}

#[test]
fn generate_is_reproducible_from_the_seed() {
    let args = ["generate", "--colors", "6", "--empty", "2", "--count", "5", "--seed", "42"];
    let first = watersort(&args, "");
    assert_eq!(first.status.code(), Some(0));
    assert_eq!(first.stdout, watersort(&args, "").stdout);
    let other = watersort(&["generate", "--colors", "6", "--empty", "2", "--count", "5", "--seed", "43"], "");
    assert_ne!(first.stdout, other.stdout);
    // The levels it writes read back and solve.
    let solved = watersort(&["solve", "-"], &text(&first.stdout));
    assert_eq!(solved.status.code(), Some(0));
    assert_eq!(text(&solved.stdout).matches("(optimal)").count(), 5);
    // Fixed forever: the first level for this seed.
    assert_eq!(text(&first.stdout).lines().next().unwrap(), FIRST_LEVEL_SEED_42);
}

/// Levels made backwards: at 40 colours (where shuffles are almost never solvable), every one solves, the
/// run is reproducible, and `--steps` belongs to this method only.
#[test]
fn generate_reverse_makes_big_solvable_levels() {
    let args = ["generate", "--method", "reverse", "--colors", "40", "--count", "3", "--seed", "7"];
    let first = watersort(&args, "");
    assert_eq!(first.status.code(), Some(0), "{}", text(&first.stderr));
    assert_eq!(first.stdout, watersort(&args, "").stdout);
    let levels = text(&first.stdout);
    assert_eq!(levels.lines().count(), 3);
    assert!(levels.lines().all(|l| l.starts_with("r7-") && l.split_whitespace().count() == 43), "{levels}");
    assert!(text(&first.stderr).contains("3 levels from"), "{}", text(&first.stderr));
    let solved = watersort(&["solve", "-", "--algorithm", "greedy"], &levels);
    assert_eq!(solved.status.code(), Some(0), "{}", text(&solved.stdout));
    let wrong = watersort(&["generate", "--colors", "4", "--steps", "10"], "");
    assert_eq!(wrong.status.code(), Some(2));
    assert!(text(&wrong.stderr).contains("--steps is for --method reverse"), "{}", text(&wrong.stderr));
}

/// One of a thing is said in the singular: the one pour `hint` checks, the one assignment of a level whose
/// hidden units can only be one colour, a solution of one pour.
#[test]
fn one_of_a_thing_is_singular() {
    // Tubes `ba`, `a`, `b`: the only pour is 1 -> 2.
    let o = watersort(&["hint", "w: ba a b", "--capacity", "2"], "");
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert!(text(&o.stdout).ends_with("the one pour from here keeps it sortable\n"), "{}", text(&o.stdout));
    let o = watersort(&["solve", "m: ?a ?a -", "--capacity", "2"], "");
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert!(text(&o.stdout).contains("(the one assignment of the hidden units checked)"), "{}", text(&o.stdout));
    let o = watersort(&["solve", "w: aa b b", "--capacity", "2"], "");
    assert!(text(&o.stdout).starts_with("w: 1 pour (optimal)"), "{}", text(&o.stdout));
}

/// `hint` from a sortable position, from a dead one with the pours that led there, in text and JSON, and
/// a history that cannot be played.
#[test]
fn hint_says_what_is_left_what_is_dead_and_how_far_back() {
    let level = "w: ab cd ca db -";
    let ok = watersort(&["hint", level, "--capacity", "2", "--history", "1>5"], "");
    assert_eq!(ok.status.code(), Some(0), "{}", text(&ok.stderr));
    assert_eq!(
        text(&ok.stdout),
        "w: a cd ca db b\ncan still be sorted: 4 pours left at fewest; next pour 3 -> 1\n\
         every one of the 2 pours from here keeps it sortable\n"
    );
    let dead = watersort(&["hint", level, "--capacity", "2", "--history", "2 -> 5"], "");
    assert_eq!(dead.status.code(), Some(1));
    assert_eq!(
        text(&dead.stdout),
        "w: ab c ca db d\ndead: no sequence of pours sorts this position\n\
         the start was the last sortable position: take back 1 pour\n"
    );
    let json = watersort(&["hint", level, "--capacity", "2", "--history", "1>5,3>1,4>5", "--format", "json"], "");
    assert_eq!(json.status.code(), Some(0));
    let record: serde_json::Value = serde_json::from_str(&text(&json.stdout)).unwrap();
    assert_eq!((record["history"].as_u64(), record["pours_left"].as_u64()), (Some(3), Some(2)), "{record}");
    assert_eq!(record["position"], "w: aa cd c d bb");
    let start = watersort(&["hint", level, "--capacity", "2", "--format", "json"], "");
    let record: serde_json::Value = serde_json::from_str(&text(&start.stdout)).unwrap();
    assert_eq!(record["sortable"], "yes");
    let leads: Vec<&str> =
        record["pours"].as_array().unwrap().iter().map(|p| p["leads_to"].as_str().unwrap()).collect();
    assert!(leads.contains(&"dead end") && leads.contains(&"sortable"), "{record}");
    let bad = watersort(&["hint", level, "--capacity", "2", "--history", "5>1"], "");
    assert_eq!(bad.status.code(), Some(2));
    assert_eq!(text(&bad.stderr).trim(), "watersort: error: --history: pour 1 of the history: the source is empty");
}

/// `play` driven end to end as a player would: the pours it prints are made on the true level, and each
/// colour it asks for is the true one at the place it names. On 100 generated levels seen as such games
/// show them (every unit below the tops hidden), every session ends sorted. Sampling is smaller than the
/// default, for time.
#[test]
fn play_with_scripted_reveals_sorts_100_mystery_levels() {
    use std::io::{BufRead, BufReader, Write};
    use watersort::generate::{generate, Spec};
    use watersort::mystery::Mystery;
    use watersort::{parse_pours, Options, Rule, Tubes};
    // Three empty tubes: with two, a few sessions meet a position where no plan is safe and the real
    // colours are among the unlucky ones (3 of these 100; BENCHMARKS.md, "Hidden colours").
    let spec = Spec { colours: 5, empty: 3, capacity: 4, count: 100, seed: 3, attempts: 10_000 };
    let mut failed = Vec::new();
    for truth in generate(&spec, &Options::default()).unwrap() {
        let line = Mystery::hiding(&truth).to_line();
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_watersort"))
            .args(["play", &line, "--exhaustive-up-to", "300", "--sample", "60"])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let mut answers = child.stdin.take().unwrap();
        let mut real = Tubes::new(&truth);
        let mut before = real.clone();
        let mut transcript = String::new();
        for out in BufReader::new(child.stdout.take().unwrap()).lines() {
            let out = out.unwrap();
            transcript += &format!("{out}\n");
            if let Some(pour) = out.strip_prefix("pour ").and_then(|p| p.split_once(": ")).map(|p| p.1) {
                before = real.clone();
                real.pour(parse_pours(pour).unwrap()[0], Rule::Standard).unwrap();
            } else if let Some(rest) = out.strip_prefix("tube ") {
                let (tube, rest) = rest.split_once(", unit ").unwrap();
                let height: usize = rest.split_whitespace().next().unwrap().parse().unwrap();
                let tube: usize = tube.parse().unwrap();
                let colour = before.tubes[tube - 1][height - 1];
                writeln!(answers, "{}", truth.colours()[colour as usize]).unwrap();
            }
        }
        let ok = child.wait().unwrap().success() && real.is_solved() && transcript.contains("\nsorted in ");
        if !ok {
            failed.push(format!("{}\n{transcript}", truth.to_line()));
        }
    }
    assert!(failed.is_empty(), "{} sessions did not end sorted; the first:\n{}", failed.len(), failed[0]);
}

/// Hidden units in a JSON level: `solve` plans as for the same level line, and `play` names the colours and
/// takes the answers by name (colours never seen are `unseen 1`, ...).
#[test]
fn hidden_units_in_json_levels() {
    let json = r#"[["?","?","Red"],["?","Blue","Blue"],["?","Red","Blue"],[]]"#;
    let plan = |level: &str| {
        let o = watersort(&["solve", level, "--capacity", "3", "--format", "json"], "");
        assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
        serde_json::from_str::<serde_json::Value>(&text(&o.stdout)).unwrap()
    };
    // An inline JSON level is named `level`. Colour names may hold `#`, which is no comment in JSON.
    assert_eq!(plan(json), plan("level: ??a ?bb ?ab -"));
    assert_eq!(plan(&json.replace("Red", "#f00")), plan("level: ??a ?bb ?ab -"));
    // The truth: Red at the bottom of tube 1 and in tube 2, the unseen colour under everything else.
    let o = watersort(
        &["play", json, "--capacity", "3"],
        "unseen 1
unseen 1
Red
unseen 1
Red
Blue
Blue
",
    );
    let out = text(&o.stdout);
    assert!(out.starts_with("colours: a Red, b Blue, c unseen 1\n"), "{out}");
    // Colours apart, the one no unit shows yet marked.
    assert!(out.contains("which colour? [Red, unseen 1 (new)]"), "{out}");
    assert_eq!(o.status.code(), Some(0), "{out}{}", text(&o.stderr));
    assert!(out.contains("\nsorted in "), "{out}");
}

const FIRST_LEVEL_SEED_42: &str = "s42-1: eccb dffe acdd facb dfea bbae - -";

/// The batch machinery is the tile solver's: records as levels finish, invalid and unsolvable lines recorded,
/// resumption, and a report of the file (also as a page).
#[test]
fn batch_writes_a_record_a_level_resumes_and_reports() {
    let dir = std::env::temp_dir().join(format!("watersort-batch-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let input = dir.join("levels.txt");
    std::fs::write(&input, "a: ab ba -\nstuck: ab ba\nbad: a?b -\n").unwrap();
    let out = dir.join("out.jsonl");
    let args = ["batch", input.to_str().unwrap(), "-o", out.to_str().unwrap(), "--capacity", "2"];
    let o = watersort(&args, "");
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert!(text(&o.stderr).contains("3 pours)"), "the closing summary counts pours: {}", text(&o.stderr));
    let records: Vec<serde_json::Value> =
        std::fs::read_to_string(&out).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let mut by_id: Vec<(String, String)> = records
        .iter()
        .map(|r| (r["id"].as_str().unwrap().to_string(), r["status"].as_str().unwrap().to_string()))
        .collect();
    by_id.sort();
    let want = [("a", "solved"), ("bad", "invalid"), ("stuck", "unsolvable")];
    assert_eq!(by_id, want.map(|(a, b)| (a.to_string(), b.to_string())));
    // Resumed: nothing left to do, nothing written twice.
    let mut resume = args.to_vec();
    resume.push("--resume");
    let o = watersort(&resume, "");
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert_eq!(std::fs::read_to_string(&out).unwrap().lines().count(), 3);
    // Each record says what made it; resuming under another rule or algorithm would mix lengths of
    // different puzzles, and is refused, naming what differs.
    assert!(records.iter().all(|r| r["settings"] == "capacity=2; rule=standard; algorithm=astar; heuristic=bottoms"));
    for (other, named) in [
        (["--rule", "one-unit"], "rule 'standard' there, 'one-unit' now"),
        (["--algorithm", "greedy"], "algorithm 'astar' there, 'greedy' now"),
    ] {
        let o = watersort(&[&resume[..], &other[..]].concat(), "");
        assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
        assert!(text(&o.stderr).contains(named), "{}", text(&o.stderr));
    }
    assert_eq!(std::fs::read_to_string(&out).unwrap().lines().count(), 3);
    let page = dir.join("report.html");
    let report = watersort(&["report", out.to_str().unwrap(), "--html", page.to_str().unwrap()], "");
    assert_eq!(report.status.code(), Some(0));
    assert!(text(&report.stdout).contains("unsolvable   1"), "{}", text(&report.stdout));
    // A level's length is its pours, in the summary, on the page and on the charts' axes.
    assert!(text(&report.stdout).contains(", 3 pours)") && !text(&report.stdout).contains("moves"));
    // The shared report's page: the same figures, and the charts on the batch's clock.
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("<td>3 pours</td>") && html.contains("optimal length (pours)") && !html.contains("moves"));
    assert!(html.contains("<tr><th>unsolvable</th><td>1</td></tr>") && html.contains("<svg"));
    assert!(html.contains("wall-clock time since the run began"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn every_subcommand_explains_itself() {
    for sub in ["solve", "batch", "report", "generate"] {
        let o = watersort(&[sub, "--help"], "");
        assert_eq!(o.status.code(), Some(0), "{sub}: {}", text(&o.stderr));
        assert!(text(&o.stdout).contains("Usage: watersort"), "{sub}");
    }
}

/// Each algorithm name means the same search as in `solver`: `greedy` is best-first by the estimate,
/// `dfs` depth-first; both find a solution that is replayed, and records name what ran. `bibfs` needs a
/// single goal, which a level does not have, so it is not offered.
#[test]
fn algorithms_have_the_names_solver_gives_them() {
    let level = "demo: abca bcab cabc - -";
    for name in ["astar", "bfs", "ida", "greedy", "dfs"] {
        let out = watersort(&["solve", level, "--algorithm", name, "--format", "json"], "");
        assert_eq!(out.status.code(), Some(0), "{name}: {}", text(&out.stderr));
        let rec: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!((rec["algorithm"].as_str(), rec["status"].as_str()), (Some(name), Some("solved")), "{rec}");
    }
    let out = watersort(&["solve", level, "--algorithm", "bibfs"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("possible values: astar, bfs, ida, greedy, dfs"), "{}", text(&out.stderr));
}

/// An inadmissible heuristic with an optimal algorithm is refused in the words the option takes.
#[test]
fn an_inadmissible_heuristic_is_named_as_typed() {
    let out = watersort(&["solve", "demo: ab ba -", "--capacity", "2", "--heuristic", "guide"], "");
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("--heuristic guide is for --algorithm greedy or dfs only"), "{stderr}");
}

/// Options that do nothing for the search asked for are said to be ignored, not silently accepted: a
/// heuristic for breadth-first search (whose record says `none`), checkpoints for searches that keep none.
#[test]
fn options_the_search_ignores_are_said_to_be_ignored() {
    let o = watersort(
        &["solve", "--algorithm", "bfs", "--heuristic", "bottoms", "--format", "json", "ab ba -", "--capacity", "2"],
        "",
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert!(
        text(&o.stderr).contains("bfs consults no heuristic; --heuristic bottoms is ignored"),
        "{}",
        text(&o.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["heuristic"], "none");
    let dir = harness::TempDir::new("ws-checkpoint");
    let input = dir.file("in.txt", "a: abab baba - -\n");
    let out = dir.path("out.jsonl");
    let args = ["batch", input.to_str().unwrap(), "-o", out.to_str().unwrap(), "--algorithm", "ida"];
    let o = watersort(&[&args[..], &["--checkpoint-after", "0"]].concat(), "");
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert!(text(&o.stderr).contains("keep no checkpoints; --checkpoint-after is ignored"), "{}", text(&o.stderr));
    assert!(!dir.path("out.jsonl.checkpoints").exists());
}

/// A single word on the command line names a file, and one that is not there is said to be missing (not
/// read as a level); a bad line among good ones gets an `invalid` JSON record, as in `solver`.
#[test]
fn a_missing_file_and_a_bad_line_are_answered() {
    let o = watersort(&["solve", "no-such-levels.txt"], "");
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("no file no-such-levels.txt"), "{}", text(&o.stderr));
    let o = watersort(&["solve", "-", "--format", "json", "--capacity", "2"], "ab ba -\nx: a1b -\nab ba -\n");
    assert_eq!(o.status.code(), Some(2));
    let records: Vec<serde_json::Value> = text(&o.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let statuses: Vec<&str> = records.iter().map(|r| r["status"].as_str().unwrap()).collect();
    assert_eq!(statuses, ["solved", "invalid", "solved"]);
    assert!(records[1]["error"].as_str().unwrap().contains("unknown character '1'"), "{}", records[1]);
    // Among levels with hidden units likewise.
    let o = watersort(&["solve", "-", "--format", "json", "--capacity", "3"], "m: ??a ?bb ?ab -\nx: ?a? -\n");
    assert_eq!(o.status.code(), Some(2));
    let records: Vec<serde_json::Value> = text(&o.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(records[0]["safe"], true);
    assert_eq!(records[1]["status"], "invalid");
    assert!(records[1]["error"].as_str().unwrap().contains("top unit is hidden"), "{}", records[1]);
}

/// The batch machinery's caps and safe charts hold for water sort too: a level file that is one endless line
/// (50 MB of zero bytes) is one invalid record, and a report of a record whose search time is 1e305 s (beside
/// one of 1e-5 s) is drawn, where both used to run until memory or patience ran out.
#[test]
fn an_endless_line_is_one_invalid_record_and_extreme_figures_are_drawn() {
    let dir = std::env::temp_dir().join(format!("watersort-extreme-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let input = dir.join("zeros.txt");
    std::fs::write(&input, vec![0u8; 50 << 20]).unwrap();
    let out = dir.join("out.jsonl");
    let o = watersort(&["batch", input.to_str().unwrap(), "-o", out.to_str().unwrap()], "");
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let records = std::fs::read_to_string(&out).unwrap();
    let record: serde_json::Value = serde_json::from_str(records.trim_end()).unwrap();
    assert_eq!(record["status"], "invalid");
    assert!(record["error"].as_str().unwrap().starts_with("longer than 64 KiB"), "{record}");

    let solved = |id: &str, seconds: &str| {
        format!(
            r#"{{"id":"{id}","line":1,"instance":"ab ba -","status":"solved","length":3,"moves":"1->3 2->1 2->3","nodes":9,"expanded":4,"seconds":{seconds},"threads":1,"heuristic":"misplaced","tables":"","expected":null,"matched":null,"error":null,"finished":1790000000.5}}"#
        ) + "\n"
    };
    let records = dir.join("extreme.jsonl");
    std::fs::write(&records, solved("a", "1e305") + &solved("b", "0.00001")).unwrap();
    let (plots, page) = (dir.join("plots"), dir.join("page.html"));
    let args =
        ["report", records.to_str().unwrap(), "--plot", plots.to_str().unwrap(), "--html", page.to_str().unwrap()];
    let o = harness::run_within(env!("CARGO_BIN_EXE_watersort"), &args, std::time::Duration::from_secs(60));
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert!(std::fs::read_to_string(&page).unwrap().contains("<svg"));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `solve -` reads its input whole, to a cap: an endless stream is refused rather than held in memory.
#[test]
fn an_endless_stdin_is_refused_at_the_cap() {
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_watersort"))
        .args(["solve", "-"])
        .stdin(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let zeros = vec![0u8; 1 << 20];
    // The writes fail once the solver has given up and closed its end.
    let writer = std::thread::spawn(move || while std::io::Write::write_all(&mut stdin, &zeros).is_ok() {});
    let o = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("stdin is over 64 MiB"), "{}", text(&o.stderr));
}

#[test]
fn a_device_or_a_folder_is_named_for_what_it_is() {
    // /dev/null is a file with nothing in it, not a missing one.
    let o = watersort(&["solve", "/dev/null"], "");
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(text(&o.stderr).trim(), "watersort: error: no level in the input");
    let o = watersort(&["solve", "/"], "");
    assert_eq!(
        (o.status.code(), text(&o.stderr).trim()),
        (Some(2), "watersort: error: / is a folder, not a file of levels")
    );
}

/// A wrong answer to `play`'s colour question is echoed with its control characters escaped, so an escape
/// sequence typed or piped in cannot move the terminal's cursor.
#[test]
fn play_echoes_a_wrong_answer_printable() {
    let o = watersort(&["play", "m: ??a ?bb ?ab -", "--capacity", "3"], "\u{1b}[2Jx\n");
    let out = text(&o.stdout);
    assert!(out.contains("'\\u{1b}[2Jx' is not a colour of this level [a, c (new)]; try again"), "{out}");
    assert!(!out.contains('\u{1b}'), "{out}");
}

/// A level with hidden units, every unit below the tops hidden: its plan samples 200 assignments and
/// searches each, far more than a millisecond of work.
fn hidden_level() -> String {
    use watersort::generate::{generate, Spec};
    let spec = Spec { colours: 8, empty: 2, capacity: 4, count: 1, seed: 1, attempts: 10_000 };
    let level = generate(&spec, &watersort::Options::default()).unwrap().remove(0);
    watersort::mystery::Mystery::hiding(&level).to_line()
}

/// A limit that stops a plan is answered as for a level in sight: a `limit` record (or a line saying
/// so) and exit code 3, not a usage error.
#[test]
fn a_limit_stops_a_plan_with_a_limit_record_and_exit_3() {
    let line = hidden_level();
    let o = watersort(&["solve", &line, "--time-limit", "0.001", "--format", "json"], "");
    assert_eq!(o.status.code(), Some(3), "{}{}", text(&o.stdout), text(&o.stderr));
    let record: serde_json::Value = serde_json::from_str(text(&o.stdout).trim()).unwrap();
    assert_eq!(record["status"], "limit", "{record}");
    assert_eq!(record["level"].as_str(), Some(line.as_str()));
    assert!(record["error"].as_str().unwrap().contains("stopped (time limit) before the plan was known"), "{record}");
    let o = watersort(&["solve", &line, "--node-limit", "1"], "");
    assert_eq!(o.status.code(), Some(3), "{}", text(&o.stderr));
    assert!(
        text(&o.stdout).contains(": stopped (node limit) before the plan was known, after "),
        "{}",
        text(&o.stdout)
    );
    // A plan found is a record with status `plan`.
    let o = watersort(&["solve", "m: ??a ?bb ?ab -", "--capacity", "3", "--format", "json"], "");
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let record: serde_json::Value = serde_json::from_str(text(&o.stdout).trim()).unwrap();
    assert_eq!(record["status"], "plan", "{record}");
}

/// `play` takes the limits of `solve`, for each plan: a plan they stop ends the session with a line
/// saying so and exit code 3.
#[test]
fn play_stops_at_its_time_limit() {
    let line = hidden_level();
    let o = watersort(&["play", &line, "--time-limit", "0.001"], "");
    assert_eq!(o.status.code(), Some(3), "{}{}", text(&o.stdout), text(&o.stderr));
    assert!(
        text(&o.stdout).ends_with("stopped (time limit) before the plan was known, after 0 pours\n"),
        "{}",
        text(&o.stdout)
    );
    // Generous limits change nothing.
    let o = watersort(&["play", "m: ?a ?a -", "--capacity", "2", "--time-limit", "60"], "b\nb\n");
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert!(text(&o.stdout).contains("\nsorted in "), "{}", text(&o.stdout));
}

/// Sizes no level can have are refused before any walk, at once, in one line (a walk keeps the number of
/// tubes, and walks this long would take minutes).
#[test]
fn generate_reverse_refuses_too_many_tubes_at_once() {
    let started = std::time::Instant::now();
    let args = ["generate", "--method", "reverse", "--colors", "52", "--empty", "13", "--steps", "1000000"];
    let o = watersort(&args, "");
    let seconds = started.elapsed().as_secs_f64();
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert_eq!(text(&o.stderr), "watersort: error: 65 tubes: at most 64 are supported\n");
    assert!(o.stdout.is_empty());
    assert!(seconds < 5.0, "{seconds:.1} s");
}
