//! `solver report` with pictures and comparisons: the charts are SVG files with their text, the summary
//! has the length distribution and percentiles, and two runs of the same instances compare per instance.

use harness::TempDir;

const BIN: &str = env!("CARGO_BIN_EXE_solver");

fn solver(args: &[&str]) -> std::process::Output {
    harness::run(BIN, args, b"")
}

/// Two runs of the same 3x3 instances: linear conflict, then Manhattan distance (more nodes each).
fn two_runs(d: &TempDir) -> (String, String) {
    let gen = solver(&["generate", "--board", "3x3", "--count", "12", "--seed", "5"]);
    let input = d.file("in.txt", &String::from_utf8(gen.stdout).unwrap());
    let out = |name: &str, heuristic: &str| {
        let path = d.path(name).to_str().unwrap().to_string();
        let o =
            solver(&["batch", input.to_str().unwrap(), "-o", &path, "--board", "3x3", "--heuristic", heuristic, "-q"]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        path
    };
    (out("lc.jsonl", "linear-conflict"), out("md.jsonl", "manhattan"))
}

#[test]
fn the_summary_has_the_length_distribution_and_percentiles() {
    let d = TempDir::new("report-summary");
    let (lc, _) = two_runs(&d);
    let o = solver(&["report", &lc]);
    let text = String::from_utf8(o.stdout).unwrap();
    let line = |name: &str| text.lines().find(|l| l.starts_with(name)).unwrap_or_else(|| panic!("{name}: {text}"));
    let counts: usize = line("lengths ")
        .split_whitespace()
        .skip(1)
        .map(|w| w.split(':').nth(1).unwrap().parse::<usize>().unwrap())
        .sum();
    assert_eq!(counts, 12);
    assert!(line("seconds ").contains("p50 ") && line("generated ").contains("max "), "{text}");
    let json = solver(&["report", &lc, "--format", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert!(v["nodes_spread"]["p90"].as_f64().unwrap() <= v["nodes_spread"]["max"].as_f64().unwrap());
}

#[test]
fn two_runs_compare_per_instance_and_plot_as_svg() {
    let d = TempDir::new("report-compare");
    let (lc, md) = two_runs(&d);
    let plots = d.path("plots");
    let o = solver(&["report", "--compare", &lc, &md, "--plot", plots.to_str().unwrap()]);
    let text = String::from_utf8(o.stdout).unwrap();
    assert_eq!(o.status.code(), Some(0), "{text}{}", String::from_utf8_lossy(&o.stderr));
    assert!(text.contains("== lc ==") && text.contains("== md =="), "{text}");
    assert!(text.contains("compared     md against lc: 12 instances solved by both"), "{text}");
    assert!(text.contains("lengths      differ on none"), "{text}");
    let ratio: f64 =
        text.lines().find_map(|l| l.strip_prefix("node ratio   ")).unwrap().split(' ').next().unwrap().parse().unwrap();
    assert!(ratio >= 1.0, "Manhattan distance never expands fewer nodes than linear conflict: {ratio}");
    for name in ["lengths", "time-by-length", "nodes-by-length", "solved-by-time", "compare-nodes", "compare-time"] {
        let svg = std::fs::read_to_string(plots.join(format!("{name}.svg"))).unwrap();
        assert!(svg.starts_with("<svg") && svg.contains("<text"), "{name}");
    }
    // The markdown form has a row an instance.
    let md_out = solver(&["report", "--compare", &lc, &md, "--format", "markdown"]);
    let md_text = String::from_utf8(md_out.stdout).unwrap();
    let table = md_text.split("| id | generated lc |").nth(1).unwrap_or_else(|| panic!("{md_text}"));
    assert_eq!(table.lines().filter(|l| l.starts_with("| ")).count(), 12, "{md_text}");
    // --compare takes two runs or more.
    let o = solver(&["report", "--compare", &lc]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--compare takes two or more record files"));
}

/// Three runs of the same file (IDA* with linear conflict, IDA* with Manhattan distance, A* with Manhattan
/// distance): a table of every run, then each run against the first, in text, Markdown, JSON, the page and
/// the charts; with two runs the output is as it was.
#[test]
fn three_runs_compare_each_with_the_first() {
    let d = TempDir::new("report-three");
    let (lc, md) = two_runs(&d);
    let input = d.path("in.txt");
    let astar = d.path("astar.jsonl").to_str().unwrap().to_string();
    let args = ["batch", input.to_str().unwrap(), "-o", &astar, "--board", "3x3", "--heuristic", "manhattan"];
    let o = solver(&[&args[..], &["--algorithm", "astar", "-q"]].concat());
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let plots = d.path("plots3");
    let page = d.path("three.html");
    let o = solver(&[
        "report",
        "--compare",
        &lc,
        &md,
        &astar,
        "--plot",
        plots.to_str().unwrap(),
        "--html",
        page.to_str().unwrap(),
    ]);
    let text = String::from_utf8(o.stdout).unwrap();
    assert_eq!(o.status.code(), Some(0), "{text}{}", String::from_utf8_lossy(&o.stderr));
    assert!(text.contains("== lc ==") && text.contains("== md ==") && text.contains("== astar =="), "{text}");
    assert!(text.contains("every run against lc (geometric means over the instances both solved)"), "{text}");
    let row = |name: &str| text.lines().find(|l| l.split_whitespace().next() == Some(name)).map(str::to_string);
    assert!(row("lc").unwrap().contains("12  ") && row("astar").unwrap().ends_with("none"), "{text}");
    for other in ["md", "astar"] {
        assert!(text.contains(&format!("compared     {other} against lc: 12 instances solved by both")), "{text}");
    }
    let md_out = solver(&["report", "--compare", &lc, &md, &astar, "--format", "markdown"]);
    let md_text = String::from_utf8(md_out.stdout).unwrap();
    assert!(md_text.contains("| run | solved | node ratio | time ratio | lengths differ |"), "{md_text}");
    assert_eq!(md_text.matches("| id | generated lc |").count(), 2, "{md_text}");
    let json = solver(&["report", "--compare", &lc, &md, &astar, "--format", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    let against: Vec<(&str, &str)> = v["comparisons"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["name"].as_str().unwrap(), c["against"].as_str().unwrap()))
        .collect();
    assert_eq!((against, v["runs"].as_array().unwrap().len()), (vec![("md", "lc"), ("astar", "lc")], 3));
    // Two runs: one comparison, as before.
    let json = solver(&["report", "--compare", &lc, &md, "--format", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert!(v["comparison"]["pairs"].is_array() && v.get("comparisons").is_none(), "{v}");
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("every run against lc") && html.contains("astar against lc"), "astar");
    let svg = std::fs::read_to_string(plots.join("compare-nodes.svg")).unwrap();
    assert!(svg.contains("each run / lc") && svg.contains("astar (geometric mean"), "{svg}");
}

#[test]
fn the_html_report_is_one_page_with_the_summary_figures_and_inline_charts() {
    let d = TempDir::new("report-html");
    let (lc, _) = two_runs(&d);
    let page = d.path("report.html");
    let o = solver(&["report", &lc, "--format", "markdown", "--html", page.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.starts_with("<!doctype html>") && html.trim_end().ends_with("</html>"));
    // Every figure of the markdown summary, in a table row of the page.
    let markdown = String::from_utf8(o.stdout).unwrap();
    let figures = markdown.lines().skip(2).take_while(|l| l.starts_with("| ")).map(|l| {
        let cells: Vec<&str> = l.trim_matches('|').split(" | ").map(str::trim).collect();
        (cells[0].to_string(), cells[1].to_string())
    });
    let mut n = 0;
    for (name, value) in figures {
        assert!(html.contains(&format!("<tr><th>{name}</th><td>{value}</td></tr>")), "{name} {value}");
        n += 1;
    }
    assert!(n >= 15, "{markdown}");
    // The charts are inline, and nothing is fetched.
    assert_eq!(html.matches("<svg").count(), 4);
    assert!(!html.contains("src=") && !html.contains("href="));
    // Batch records carry finish times: the chart is on the run's clock.
    assert!(html.contains("wall-clock time since the run began"));
    // A path that cannot be created: one line, the user's error.
    let o = solver(&["report", &lc, "--html", "/nonexistent-dir/report.html"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("solver: error: cannot create /nonexistent-dir/report.html: No such file"), "{err}");
    // The same for a --plot folder that cannot be made (a file stands in the way).
    let file = d.path("plain-file");
    std::fs::write(&file, "").unwrap();
    let o = solver(&["report", &lc, "--plot", &format!("{}/charts", file.display())]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!((o.status.code(), err.lines().count()), (Some(2), 1), "{err}");
    assert!(err.contains("cannot create"), "{err}");
}

/// A solved record of `seconds` and `nodes`, as a JSON line (`id` written as JSON, so it may escape anything).
fn record(id: &str, seconds: &str, nodes: u64) -> String {
    format!(
        r#"{{"id":"{id}","line":1,"instance":"1 2 0 3","status":"solved","length":3,"moves":"1 2 3","nodes":{nodes},"expanded":{nodes},"seconds":{seconds},"threads":1,"heuristic":"manhattan","tables":"","expected":null,"matched":null,"error":null,"finished":1790000000.5}}"#
    ) + "\n"
}

/// Any finite figures are summarised and drawn, and soon: a search time of 1e305 s beside one of 1e-5 s
/// made plotters step through its log axis forever (as did 1.7e308 s alone), and three records of 2^64-1
/// nodes were summed to a wrapped total. Each run has a minute, far more than it takes.
#[test]
fn a_report_of_extreme_figures_finishes_and_sums_without_wrapping() {
    let d = TempDir::new("report-extreme");
    let max = u64::MAX;
    let a = [record("1", "1e305", max), record("2", "0.00001", max), record("3", "1.7e308", max)].concat();
    let b = [record("1", "0", 1), record("2", "1e305", max), record("3", "5e-324", 1)].concat();
    let (a, b) = (d.file("a.jsonl", &a), d.file("b.jsonl", &b));
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
    let (plots, page) = (d.path("plots"), d.path("page.html"));
    let (plots, page) = (plots.to_str().unwrap(), page.to_str().unwrap());
    let limit = std::time::Duration::from_secs(60);
    for args in [vec!["report", a, "--plot", plots, "--html", page], vec!["report", "--compare", a, b, "--plot", plots]]
    {
        let o = harness::run_within(BIN, &args, limit);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", String::from_utf8_lossy(&o.stderr));
    }
    let o = harness::run_within(BIN, &["report", a], limit);
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(text.contains("nodes        55340232221128654845 generated, 55340232221128654845 expanded"), "{text}");
    let json = harness::run_within(BIN, &["report", "--compare", a, b, "--format", "json"], limit);
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(v["runs"][0]["summary"]["nodes"].as_f64(), Some(3.0 * u64::MAX as f64));
}

/// A time no search takes is refused, naming the file and line, rather than summed into the figures.
#[test]
fn a_record_of_a_negative_time_is_refused_naming_its_line() {
    let d = TempDir::new("report-negative");
    let file = d.file("neg.jsonl", &[record("1", "0.5", 3), record("2", "-1", 3)].concat());
    let o = solver(&["report", file.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("neg.jsonl is not a batch record file: line 2: seconds is -1, not a time"), "{err}");
}

/// Ids come from record files, which anyone can write: no report prints a control character from one (a
/// terminal would act on an escape sequence), in any format, and the page escapes markup.
#[test]
fn ids_with_control_characters_are_printed_escaped() {
    let d = TempDir::new("report-escape");
    let id = r"\u001b]0;pwned\u0007\u001b[2J<i>";
    let mut mismatched =
        record(id, "0.5", 3).replace(r#""expected":null,"matched":null"#, r#""expected":4,"matched":false"#);
    mismatched.push_str(&record("2", "0.25", 3));
    let (a, b) = (
        d.file("a.jsonl", &mismatched),
        d.file("b.jsonl", &record(id, "1", 5).replace(r#""length":3"#, r#""length":4"#)),
    );
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
    let page = d.path("page.html");
    for args in [
        vec!["report", a],
        vec!["report", a, "--format", "markdown"],
        vec!["report", "--compare", a, b],
        vec!["report", "--compare", a, b, "--format", "markdown", "--html", page.to_str().unwrap()],
    ] {
        let o = solver(&args);
        assert_eq!(o.status.code(), Some(1), "{args:?}: a mismatch");
        let out = [o.stdout, o.stderr].concat();
        let text = String::from_utf8_lossy(&out);
        assert!(!text.chars().any(|c| c.is_control() && c != '\n'), "{args:?}: {text:?}");
        assert!(text.contains(r"\u{1b}]0;pwned\u{7}\u{1b}[2J<i>"), "{args:?}: {text}");
    }
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(!html.chars().any(|c| c.is_control() && c != '\n'));
    assert!(html.contains(r"\u{1b}[2J&lt;i&gt;") && !html.contains("<i>"), "{html}");
    // The comparison keeps its line breaks: one line of the page for each line of the text.
    assert!(!html.contains(r"\u{a}"), "{html}");
    assert!(html.lines().any(|l| l.starts_with("lengths      differ on")), "{html}");
}
