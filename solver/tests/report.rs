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
    let table = md_text.split("| id | nodes lc |").nth(1).unwrap_or_else(|| panic!("{md_text}"));
    assert_eq!(table.lines().filter(|l| l.starts_with("| ")).count(), 12, "{md_text}");
    // --compare takes exactly two runs.
    let o = solver(&["report", "--compare", &lc]);
    assert_eq!(o.status.code(), Some(2));
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
