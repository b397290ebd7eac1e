//! Summaries of batch records: what a tool's `batch` prints at the end and its `report` prints for one or
//! more record files (the shards of one run, say).

use crate::compare::{natural_order, Comparison};
use crate::plot::{plot_all, Run};
use crate::record::{latest, read_records, Record, Status};
use anyhow::{bail, Context};
use clap::Args;
use cli_common::text::{escape_html, escape_html_lines, printable};
use cli_common::units::seconds;
use cli_common::SummaryFormat;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// A figure, or `-` when there is none.
fn or_dash(x: Option<String>) -> String {
    x.unwrap_or_else(|| "-".to_string())
}

/// How many of the slowest instances a summary lists.
const SLOWEST: usize = 5;
/// The columns of the slowest instances' table.
const SLOWEST_COLUMNS: [&str; 4] = ["slowest", "outcome", "generated nodes", "search time"];
/// Search times closer than this are the same to the slowest list, which then puts the one with more nodes
/// first: a record's clock does not tell apart instances that take under a microsecond (their times are
/// noise at that scale), while their node counts are exact.
const TIME_RESOLUTION: f64 = 1e-6;

/// Figures over a set of records. Every figure is a plain sum or count over the records.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Summary {
    /// Records summarised.
    pub records: usize,
    /// Records with status `solved`.
    pub solved: usize,
    /// Records with status `limit`.
    pub limit: usize,
    /// Records with status `unsolvable`.
    pub unsolvable: usize,
    /// Work items searched to their bound without a solution (`solver work`).
    pub exhausted: usize,
    /// Records with status `invalid`.
    pub invalid: usize,
    /// Solved records whose input gave an optimal length to check against.
    pub checked: usize,
    /// Ids whose length differs from the input's, in id order ([`natural_order`]).
    pub mismatched: Vec<String>,
    /// Generated nodes over all records (limits included). Summed wider than a record's count, so that no
    /// total of counts a record can hold wraps around.
    pub nodes: u128,
    /// Expanded nodes over all records.
    pub expanded: u128,
    /// Generated nodes a solved instance (mean over solved records; none when nothing was solved).
    pub mean_nodes: Option<f64>,
    /// Search seconds over all records.
    pub seconds: f64,
    /// Search seconds a solved instance (mean over solved records; none when nothing was solved).
    pub mean_seconds: Option<f64>,
    /// The slowest instances, slowest first (invalid lines are left out).
    pub slowest: Vec<Slow>,
    /// Each distinct `heuristic [tables]` seen; more than one means the records are not comparable.
    pub heuristics: Vec<String>,
    /// Solved instances by optimal length.
    pub lengths: BTreeMap<u32, usize>,
    /// Percentiles of the search time of solved instances.
    pub seconds_spread: Option<Spread>,
    /// Percentiles of the generated nodes of solved instances.
    pub nodes_spread: Option<Spread>,
    /// What a length counts (`moves`, `pours`), for the words of the summary; not a figure.
    #[serde(skip)]
    pub steps: &'static str,
}

/// Percentiles (nearest rank) of a figure over solved instances: the mean hides that a few instances
/// usually cost more than all the others.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Spread {
    /// The median.
    pub p50: f64,
    /// The 90th percentile.
    pub p90: f64,
    /// The 99th percentile.
    pub p99: f64,
    /// The largest value.
    pub max: f64,
}

impl Spread {
    fn of(mut values: Vec<f64>) -> Option<Spread> {
        values.sort_by(f64::total_cmp);
        let rank = |p: f64| values[((p * values.len() as f64).ceil() as usize).clamp(1, values.len()) - 1];
        (!values.is_empty()).then(|| Spread { p50: rank(0.5), p90: rank(0.9), p99: rank(0.99), max: rank(1.0) })
    }

    /// `p50 x  p90 x  p99 x  max x`: counts as whole numbers, times in the unit of their scale (search times
    /// span from microseconds to hours: see [`cli_common::units::seconds`]).
    fn text(&self, whole: bool) -> String {
        let sig = |x: f64| if whole { format!("{x:.0}") } else { cli_common::units::seconds(x) };
        format!("p50 {}  p90 {}  p99 {}  max {}", sig(self.p50), sig(self.p90), sig(self.p99), sig(self.max))
    }
}

/// One of the slowest instances, as a summary lists it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Slow {
    /// The instance's id.
    pub id: String,
    /// How it ended.
    pub status: Status,
    /// Its optimal length, if solved.
    pub length: Option<u32>,
    /// Generated nodes.
    pub nodes: u64,
    /// Search seconds.
    pub seconds: f64,
}

impl Summary {
    /// The figures over `records`, whose lengths count `steps` (`moves`, `pours`).
    pub fn new<'a>(records: impl IntoIterator<Item = &'a Record>, steps: &'static str) -> Summary {
        let records: Vec<&Record> = records.into_iter().collect();
        let solved_records = || records.iter().filter(|r| r.status == Status::Solved);
        let count = |s: Status| records.iter().filter(|r| r.status == s).count();
        let solved = count(Status::Solved);
        let solved_nodes: u128 = solved_records().map(|r| u128::from(r.nodes)).sum();
        // Summed from +0.0: `Sum for f64` starts at -0.0, which prints as `-0.000` for no records.
        let total = |it: &mut dyn Iterator<Item = f64>| it.fold(0.0, |a, x| a + x);
        let solved_seconds = total(&mut records.iter().filter(|r| r.status == Status::Solved).map(|r| r.seconds));
        let mean = |x: f64| (solved > 0).then(|| x / solved as f64);
        let mut by_time: Vec<&&Record> = records.iter().filter(|r| r.status != Status::Invalid).collect();
        let tick = |r: &Record| (r.seconds / TIME_RESOLUTION).floor();
        by_time.sort_by(|a, b| tick(b).total_cmp(&tick(a)).then(b.nodes.cmp(&a.nodes)));
        let heuristics: BTreeSet<String> = records
            .iter()
            .filter(|r| r.status != Status::Invalid)
            .map(|r| if r.tables.is_empty() { r.heuristic.clone() } else { format!("{} [{}]", r.heuristic, r.tables) })
            .collect();
        Summary {
            records: records.len(),
            solved,
            limit: count(Status::Limit),
            unsolvable: count(Status::Unsolvable),
            exhausted: count(Status::Exhausted),
            invalid: count(Status::Invalid),
            checked: records.iter().filter(|r| r.matched.is_some()).count(),
            mismatched: {
                let mut ids: Vec<String> =
                    records.iter().filter(|r| r.matched == Some(false)).map(|r| r.id.clone()).collect();
                ids.sort_by(|x, y| natural_order(x, y));
                ids
            },
            nodes: records.iter().map(|r| u128::from(r.nodes)).sum(),
            expanded: records.iter().map(|r| u128::from(r.expanded)).sum(),
            mean_nodes: mean(solved_nodes as f64),
            seconds: total(&mut records.iter().map(|r| r.seconds)),
            mean_seconds: mean(solved_seconds),
            slowest: by_time
                .iter()
                .take(SLOWEST)
                .map(|r| Slow {
                    id: r.id.clone(),
                    status: r.status,
                    length: r.length,
                    nodes: r.nodes,
                    seconds: r.seconds,
                })
                .collect(),
            heuristics: heuristics.into_iter().collect(),
            lengths: records.iter().filter_map(|r| r.length).fold(BTreeMap::new(), |mut m, l| {
                *m.entry(l).or_insert(0) += 1;
                m
            }),
            seconds_spread: Spread::of(solved_records().map(|r| r.seconds).collect()),
            nodes_spread: Spread::of(solved_records().map(|r| r.nodes as f64).collect()),
            steps,
        }
    }

    /// The length distribution as `length:count` words.
    fn length_words(&self) -> String {
        let words: Vec<String> = self.lengths.iter().map(|(l, n)| format!("{l}:{n}")).collect();
        if words.is_empty() {
            "-".to_string()
        } else {
            words.join(" ")
        }
    }

    /// Aligned plain text, one figure a line.
    pub fn text(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "records      {}", self.records);
        let _ = writeln!(s, "solved       {}", self.solved);
        let _ = writeln!(s, "limit        {}", self.limit);
        let _ = writeln!(s, "unsolvable   {}", self.unsolvable);
        let _ = writeln!(s, "invalid      {}", self.invalid);
        if self.exhausted > 0 {
            let _ = writeln!(s, "exhausted    {} work items without a solution at their bound", self.exhausted);
        }
        let _ = writeln!(
            s,
            "checked      {} against the input, {} mismatched{}",
            cli_common::text::count(self.checked as u64, "length"),
            self.mismatched.len(),
            self.mismatch_ids()
        );
        let _ = writeln!(
            s,
            "nodes        {} generated, {} expanded; mean {} generated a solved instance",
            self.nodes,
            self.expanded,
            or_dash(self.mean_nodes.map(|m| format!("{m:.0}")))
        );
        let _ = writeln!(
            s,
            "search time  {}; mean {} a solved instance",
            seconds(self.seconds),
            or_dash(self.mean_seconds.map(seconds))
        );
        let slow: Vec<String> = self
            .slowest
            .iter()
            .map(|r| format!("{} ({}, {})", printable(&r.id), seconds(r.seconds), r.outcome(self.steps)))
            .collect();
        let _ = writeln!(s, "slowest      {}", if slow.is_empty() { "-".to_string() } else { slow.join(", ") });
        for h in &self.heuristics {
            let _ = writeln!(s, "heuristic    {}", printable(h));
        }
        let _ = writeln!(s, "lengths      {}", self.length_words());
        let _ = writeln!(s, "seconds      {}", or_dash(self.seconds_spread.map(|p| p.text(false))));
        let _ = writeln!(s, "generated    {}", or_dash(self.nodes_spread.map(|p| p.text(true))));
        s
    }

    /// The figures as (name, value) rows: the rows of the Markdown and the HTML tables.
    fn rows(&self) -> Vec<(&'static str, String)> {
        let mut rows = vec![
            ("records", self.records.to_string()),
            ("solved", self.solved.to_string()),
            ("limit", self.limit.to_string()),
            ("unsolvable", self.unsolvable.to_string()),
            ("invalid", self.invalid.to_string()),
            ("lengths checked", self.checked.to_string()),
            ("mismatched", format!("{}{}", self.mismatched.len(), self.mismatch_ids())),
            ("generated nodes", self.nodes.to_string()),
            ("expanded nodes", self.expanded.to_string()),
            ("mean generated nodes (solved)", or_dash(self.mean_nodes.map(|m| format!("{m:.0}")))),
            ("search time", seconds(self.seconds)),
            ("mean search time (solved)", or_dash(self.mean_seconds.map(seconds))),
        ];
        if self.exhausted > 0 {
            rows.insert(5, ("exhausted work items", self.exhausted.to_string()));
        }
        rows.extend(self.heuristics.iter().map(|h| ("heuristic", printable(h).into_owned())));
        rows.push(("lengths (length:count)", self.length_words()));
        rows.push(("search time (solved)", or_dash(self.seconds_spread.map(|p| p.text(false)))));
        rows.push(("generated nodes (solved)", or_dash(self.nodes_spread.map(|p| p.text(true)))));
        rows
    }

    /// The slowest instances as rows of [`SLOWEST_COLUMNS`] (ids printable).
    fn slowest_rows(&self) -> Vec<[String; 4]> {
        self.slowest
            .iter()
            .map(|r| [printable(&r.id).into_owned(), r.outcome(self.steps), r.nodes.to_string(), seconds(r.seconds)])
            .collect()
    }

    /// A Markdown table of the figures and one of the slowest instances.
    pub fn markdown(&self) -> String {
        let mut s = String::from("| | |\n|---|---:|\n");
        for (k, v) in self.rows() {
            let _ = writeln!(s, "| {k} | {} |", v.replace('|', "\\|"));
        }
        if !self.slowest.is_empty() {
            let _ = writeln!(s, "\n| {} |\n|---|---|---:|---:|", SLOWEST_COLUMNS.join(" | "));
            for row in self.slowest_rows() {
                let _ = writeln!(s, "| {} |", row.map(|c| c.replace('|', "\\|")).join(" | "));
            }
        }
        s
    }

    /// HTML tables of the same figures as [`Summary::markdown`].
    pub fn html(&self) -> String {
        let mut s = String::from("<table class=\"figures\">\n");
        for (k, v) in self.rows() {
            let _ = writeln!(s, "<tr><th>{}</th><td>{}</td></tr>", escape_html(k), escape_html(&v));
        }
        s.push_str("</table>\n");
        if !self.slowest.is_empty() {
            let head: Vec<String> = SLOWEST_COLUMNS.iter().map(|c| format!("<th>{}</th>", escape_html(c))).collect();
            let _ = writeln!(s, "<table class=\"slowest\">\n<tr>{}</tr>", head.concat());
            for row in self.slowest_rows() {
                let cells: Vec<String> = row.iter().map(|c| format!("<td>{}</td>", escape_html(c))).collect();
                let _ = writeln!(s, "<tr>{}</tr>", cells.concat());
            }
            s.push_str("</table>\n");
        }
        s
    }

    /// ` (ids a, b)`, printable, or nothing without a mismatch.
    fn mismatch_ids(&self) -> String {
        if self.mismatched.is_empty() {
            String::new()
        } else {
            let ids: Vec<_> = self.mismatched.iter().map(|id| printable(id)).collect();
            format!(" (ids {})", ids.join(", "))
        }
    }
}

impl Slow {
    /// `15 moves` (or `pours`), or how it ended without a length.
    fn outcome(&self, steps: &str) -> String {
        match self.length {
            Some(l) => format!("{l} {steps}"),
            None => self.status.as_str().to_string(),
        }
    }
}

/// The options of every tool's `report`.
#[derive(Args)]
pub struct ReportArgs {
    /// Record files written by `batch` (JSON lines or CSV), e.g. the outputs of every shard.
    #[arg(required = true, value_name = "FILES")]
    pub files: Vec<PathBuf>,
    /// text (aligned lines), markdown (tables for a paper or an issue) or json.
    #[arg(long, value_enum, value_name = "FORMAT", default_value = "text")]
    pub format: SummaryFormat,
    /// The files are two or more runs of the same instances (not shards of one), e.g. BFS, A* and IDA*
    /// batches of one file: summarise each, then each run after the first against the first (nodes and time
    /// per instance and their ratio, lengths that differ), with three or more a table of every run first.
    #[arg(long)]
    pub compare: bool,
    /// Also draw SVG charts into DIR: lengths, time and nodes by length (log scale), instances solved
    /// against wall-clock time since the run began, and with --compare each run's nodes and time against
    /// the first's.
    #[arg(long, value_name = "DIR")]
    pub plot: Option<PathBuf>,
    /// Also write one self-contained HTML page to FILE: the summary (the same figures as --format
    /// markdown) and every chart of --plot, inlined as SVG; nothing is fetched when it is opened.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
}

/// The records of `files` as one run: an id twice is an error (shards never overlap).
fn load(name: &str, files: &[PathBuf]) -> anyhow::Result<Vec<Record>> {
    let mut all = Vec::new();
    let mut seen: HashMap<String, PathBuf> = HashMap::new();
    for path in files {
        let file = read_records(path).map_err(cli_common::usage)?;
        if file.torn_tail > 0 {
            cli_common::log(&format!(
                "{name}: note: {} ends in an incomplete record ({}), not counted",
                path.display(),
                cli_common::units::human_bytes(file.torn_tail)
            ));
        }
        let records: Vec<Record> = latest(&file.records)
            .map_err(|e| cli_common::usage(anyhow::anyhow!("{}: {e}", path.display())))?
            .into_iter()
            .cloned()
            .collect();
        let left_out = file.records.len() - records.len();
        if left_out > 0 {
            cli_common::log(&format!(
                "{name}: note: {}: {} of ids recorded again later are not counted (an id's last record counts)",
                path.display(),
                cli_common::text::count(left_out as u64, "record")
            ));
        }
        for r in records {
            if let Some(first) = seen.insert(r.id.clone(), path.clone()) {
                bail!(
                    "id '{}' is in {} and again in {}: are these shards of one run? (--compare compares runs)",
                    printable(&r.id),
                    first.display(),
                    path.display()
                );
            }
            all.push(r);
        }
    }
    Ok(all)
}

/// A run's name in comparisons and chart legends: its file name without the extension, printable.
fn run_name(path: &Path) -> String {
    let name = path.file_stem().map_or_else(|| path.display().to_string(), |s| s.to_string_lossy().into_owned());
    printable(&name).into_owned()
}

fn print_summary(name: &str, summary: &Summary, format: SummaryFormat) -> anyhow::Result<()> {
    match format {
        SummaryFormat::Text => print!("{}", summary.text()),
        SummaryFormat::Markdown => print!("{}", summary.markdown()),
        SummaryFormat::Json => println!("{}", serde_json::to_string_pretty(summary)?),
    }
    if summary.heuristics.len() > 1 {
        cli_common::log(&format!(
            "{name}: warning: the records come from {} different heuristics or tables",
            summary.heuristics.len()
        ));
    }
    Ok(())
}

/// The report page's style, inline so that the page is one file.
const PAGE_STYLE: &str = "\
body { font-family: system-ui, sans-serif; max-width: 60rem; margin: 1rem auto; padding: 0 1rem; color: #222; }
table { border-collapse: collapse; margin: 0.8rem 0; }
th, td { border: 1px solid #ccc; padding: 0.2rem 0.6rem; text-align: left; }
table.figures td, table.slowest td:nth-child(n+3) { text-align: right; font-variant-numeric: tabular-nums; }
figure { margin: 1rem 0; }
svg { max-width: 100%; height: auto; }
";

/// `--html FILE`: the summaries (one a run), the comparison of two runs if any, and the charts, in one
/// page with its style inline. A path that cannot be created is the user's option (exit code 2), as a
/// batch's output; a failed write after that is a failure (1).
fn write_html(
    path: &Path,
    Tool { name: tool, steps }: Tool,
    files: &[PathBuf],
    summaries: &[Summary],
    comparison: Option<&str>,
    runs: &[Run],
) -> anyhow::Result<()> {
    let charts = crate::plot::charts(runs, steps)?;
    let sources: Vec<String> = files.iter().map(|f| escape_html(&f.display().to_string())).collect();
    let mut page = format!(
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{tool} report</title>\n\
         <style>\n{PAGE_STYLE}</style>\n</head>\n<body>\n<h1>{tool} report</h1>\n<p>Records: {}</p>\n",
        sources.join(", ")
    );
    for (run, summary) in runs.iter().zip(summaries) {
        let _ = write!(page, "<h2>{}</h2>\n{}", escape_html(&run.name), summary.html());
    }
    if let Some(text) = comparison {
        let _ = write!(page, "<h2>Comparison</h2>\n<pre>{}</pre>\n", escape_html_lines(text));
    }
    page.push_str("<h2>Charts</h2>\n");
    for (chart, svg) in charts {
        let _ = write!(page, "<figure id=\"{}\">\n{svg}\n</figure>\n", chart.trim_end_matches(".svg"));
    }
    page.push_str("</body>\n</html>\n");
    let mut file = std::fs::File::create(path)
        .with_context(|| format!("cannot create {}", path.display()))
        .map_err(cli_common::usage)?;
    file.write_all(page.as_bytes()).with_context(|| format!("cannot write {}", path.display()))
}

/// `report --compare --format json`: the comparison (of two runs; of three or more, each run after the
/// first against it, in `comparisons`) and each run's summary. Serialised as it is, not through
/// `serde_json::Value`, which cannot hold the summaries' node totals past u64.
#[derive(Serialize)]
struct Compared<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    comparison: Option<&'a Comparison>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    comparisons: Vec<NamedComparison<'a>>,
    runs: Vec<NamedSummary<'a>>,
}

/// A run against the first, with both names.
#[derive(Serialize)]
struct NamedComparison<'a> {
    name: &'a str,
    against: &'a str,
    comparison: &'a Comparison,
}

/// A run's summary, with the run's name.
#[derive(Serialize)]
struct NamedSummary<'a> {
    name: &'a str,
    summary: &'a Summary,
}

/// The tool whose records a report reads: its name, for messages and the page's title, and what a solution's
/// length counts there (`moves` of tiles, `pours` of water), wherever the report names a length.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tool {
    /// The command's name (`solver`, `watersort`).
    pub name: &'static str,
    /// What a length counts (`moves`, `pours`), as [`crate::Task::STEPS`].
    pub steps: &'static str,
}

/// A tool's `report`: merges record files and prints their summary, or compares two runs. Exit code 1 if
/// any length mismatched or two runs disagree on one.
pub fn run(tool: Tool, args: &ReportArgs) -> anyhow::Result<ExitCode> {
    let name = tool.name;
    if args.compare && args.files.len() < 2 {
        return Err(cli_common::usage(anyhow::anyhow!(
            "--compare takes two or more record files (runs of the same instances), not {}",
            args.files.len()
        )));
    }
    let runs: Vec<(String, Vec<Record>)> = if args.compare {
        args.files
            .iter()
            .map(|f| Ok((run_name(f), load(name, std::slice::from_ref(f))?)))
            .collect::<anyhow::Result<_>>()?
    } else {
        vec![(args.files.first().map(|f| run_name(f)).unwrap_or_default(), load(name, &args.files)?)]
    };
    let summaries: Vec<Summary> = runs.iter().map(|(_, r)| Summary::new(r, tool.steps)).collect();
    let mut ok = summaries.iter().all(|s| s.mismatched.is_empty());
    // Each run after the first against the first.
    let comparisons: Vec<(&str, Comparison)> = match &runs[..] {
        [(_, first), others @ ..] if args.compare => {
            others.iter().map(|(name, records)| (name.as_str(), Comparison::new(first, records))).collect()
        }
        _ => Vec::new(),
    };
    let comparison_text = |markdown: bool| {
        let a_name = runs[0].0.as_str();
        let mut s = String::new();
        if comparisons.len() > 1 {
            let solved: Vec<usize> = summaries.iter().map(|s| s.solved).collect();
            let _ = writeln!(s, "{}", crate::compare::table(a_name, &comparisons, &solved, markdown));
        }
        for (i, (b_name, c)) in comparisons.iter().enumerate() {
            if markdown {
                let _ = write!(s, "### {b_name} against {a_name}\n\n{}", c.markdown(a_name, b_name));
            } else {
                let _ = write!(s, "{}{}", if i > 0 { "\n" } else { "" }, c.text(a_name, b_name));
            }
        }
        s
    };
    if !comparisons.is_empty() {
        ok &= comparisons.iter().all(|(_, c)| c.length_differs.is_empty());
        match args.format {
            SummaryFormat::Json => {
                let first = runs[0].0.as_str();
                let runs = runs.iter().zip(&summaries).map(|((name, _), summary)| NamedSummary { name, summary });
                let all = match &comparisons[..] {
                    [(_, c)] => Compared { comparison: Some(c), comparisons: Vec::new(), runs: runs.collect() },
                    many => Compared {
                        comparison: None,
                        comparisons: many
                            .iter()
                            .map(|(name, comparison)| NamedComparison { name, against: first, comparison })
                            .collect(),
                        runs: runs.collect(),
                    },
                };
                println!("{}", serde_json::to_string_pretty(&all)?);
            }
            format => {
                for ((name, _), summary) in runs.iter().zip(&summaries) {
                    println!(
                        "{}",
                        if format == SummaryFormat::Markdown {
                            format!("### {name}\n")
                        } else {
                            format!("== {name} ==")
                        }
                    );
                    print_summary(name, summary, format)?;
                    println!();
                }
                print!("{}", comparison_text(format == SummaryFormat::Markdown));
            }
        }
    } else {
        print_summary(name, &summaries[0], args.format)?;
    }
    let plotted: Vec<Run> = runs.iter().map(|(name, records)| Run { name: name.clone(), records }).collect();
    if let Some(dir) = &args.plot {
        for path in plot_all(dir, &plotted, tool.steps)? {
            cli_common::log(&format!("{name}: wrote {}", path.display()));
        }
    }
    if let Some(path) = &args.html {
        let comparison = match &comparisons[..] {
            [] => None,
            [(b_name, c)] => Some(format!("{b_name} against {}\n\n{}", runs[0].0, c.text(&runs[0].0, b_name))),
            _ => Some(comparison_text(false)),
        };
        write_html(path, tool, &args.files, &summaries, comparison.as_deref(), &plotted)?;
        cli_common::log(&format!("{name}: wrote {}", path.display()));
    }
    Ok(if ok { ExitCode::SUCCESS } else { ExitCode::from(cli_common::EXIT_FAILURE) })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn solved(id: &str, nodes: u64, seconds: f64) -> Record {
        Record {
            id: id.into(),
            status: Status::Solved,
            length: Some(3),
            nodes,
            expanded: nodes,
            seconds,
            ..Record::default()
        }
    }

    /// Three records of the most nodes a record holds total three times that, not what a u64 wraps to.
    #[test]
    fn node_totals_never_wrap() {
        let records = [solved("a", u64::MAX, 1.0), solved("b", u64::MAX, 1.0), solved("c", u64::MAX, 1.0)];
        let s = Summary::new(&records, "moves");
        assert_eq!((s.nodes, s.expanded), (3 * u128::from(u64::MAX), 3 * u128::from(u64::MAX)));
        assert!(s.text().contains("nodes        55340232221128654845 generated, 55340232221128654845 expanded"));
        assert_eq!(s.mean_nodes, Some(u64::MAX as f64));
        let json = serde_json::to_string(&s).unwrap();
        assert!(json.contains(r#""nodes":55340232221128654845,"#), "{json}");
    }

    /// Fast instances: times in the unit of their scale, and the slowest by nodes where their times are
    /// within the clock's resolution of each other (`b` took more nodes than `a` in the same microsecond).
    #[test]
    fn fast_instances_have_times_that_mean_something() {
        let records = [solved("a", 10, 0.000_012_3), solved("b", 500, 0.000_012_1), solved("c", 7, 0.000_002)];
        let s = Summary::new(&records, "moves");
        let ids: Vec<&str> = s.slowest.iter().map(|r| r.id.as_str()).collect();
        assert_eq!(ids, ["b", "a", "c"]);
        let text = s.text();
        assert!(text.contains("search time  26.40 µs; mean 8.800 µs a solved instance"), "{text}");
        assert!(text.contains("slowest      b (12.10 µs, 3 moves), a (12.30 µs, 3 moves)"), "{text}");
        assert!(text.contains("seconds      p50 12.10 µs  p90 12.30 µs"), "{text}");
        assert!(s.markdown().contains("| search time | 26.40 µs |"), "{}", s.markdown());
        let zero = [solved("x", 1, 0.0), solved("y", 9, 0.0)];
        assert_eq!(Summary::new(&zero, "moves").slowest[0].id, "y");
        // One of a thing in the singular.
        let mut one = solved("a", 1, 1.0);
        one.matched = Some(true);
        let text = Summary::new([&one], "moves").text();
        assert!(text.contains("checked      1 length against the input, 0 mismatched"), "{text}");
        let c = Comparison::new(std::slice::from_ref(&one), std::slice::from_ref(&one));
        assert!(c.text("a", "b").contains("b against a: 1 instance solved by both"), "{}", c.text("a", "b"));
    }

    /// Ids and heuristics come from record files: whatever they hold, a report never prints a control
    /// character, and the HTML page escapes what HTML would read as markup.
    #[test]
    fn ids_and_names_from_records_are_printed_escaped() {
        let mut mismatched = solved("m\u{1b}[2J|<b>'", 7, 2.0);
        mismatched.matched = Some(false);
        mismatched.heuristic = "h\u{7}".into();
        let s = Summary::new([&mismatched], "moves");
        let text = s.text();
        assert!(text.contains(r"(ids m\u{1b}[2J|<b>')") && text.contains(r"heuristic    h\u{7}"), "{text}");
        let md = s.markdown();
        assert!(md.contains(r"| m\u{1b}[2J\|<b>' | 3 moves |"), "{md}");
        let html = s.html();
        assert!(html.contains(r"<td>m\u{1b}[2J|&lt;b&gt;&#39;</td>"), "{html}");
        for out in [text, md, html] {
            assert!(!out.chars().any(|c| c.is_control() && c != '\n'), "{out:?}");
        }
        assert_eq!(run_name(Path::new("/tmp/run\u{1b}]0;x\u{7}.jsonl")), r"run\u{1b}]0;x\u{7}");
    }
}
