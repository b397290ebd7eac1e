//! Summaries of batch records: what a tool's `batch` prints at the end and its `report` prints for one or
//! more record files (the shards of one run, say).

use crate::record::{read_records, Record, Status};
use anyhow::bail;
use clap::Args;
use serde::Serialize;
use std::collections::{BTreeSet, HashMap};
use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

/// A figure, or `-` when there is none.
fn or_dash(x: Option<String>) -> String {
    x.unwrap_or_else(|| "-".to_string())
}

/// How many of the slowest instances a summary lists.
const SLOWEST: usize = 5;

/// Figures over a set of records. Every figure is a plain sum or count over the records.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Summary {
    pub records: usize,
    pub solved: usize,
    pub limit: usize,
    pub unsolvable: usize,
    pub invalid: usize,
    /// Solved records whose input gave an optimal length to check against.
    pub checked: usize,
    /// Ids whose length differs from the input's.
    pub mismatched: Vec<String>,
    /// Generated nodes over all records (limits included).
    pub nodes: u64,
    pub expanded: u64,
    /// Generated nodes a solved instance (mean over solved records; none when nothing was solved).
    pub mean_nodes: Option<f64>,
    /// Search seconds over all records.
    pub seconds: f64,
    pub mean_seconds: Option<f64>,
    pub slowest: Vec<Slow>,
    /// Each distinct `heuristic [tables]` seen; more than one means the records are not comparable.
    pub heuristics: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Slow {
    pub id: String,
    pub status: Status,
    pub length: Option<u32>,
    pub nodes: u64,
    pub seconds: f64,
}

impl Summary {
    pub fn new<'a>(records: impl IntoIterator<Item = &'a Record>) -> Summary {
        let records: Vec<&Record> = records.into_iter().collect();
        let count = |s: Status| records.iter().filter(|r| r.status == s).count();
        let solved = count(Status::Solved);
        let solved_nodes: u64 = records.iter().filter(|r| r.status == Status::Solved).map(|r| r.nodes).sum();
        // Summed from +0.0: `Sum for f64` starts at -0.0, which prints as `-0.000` for no records.
        let total = |it: &mut dyn Iterator<Item = f64>| it.fold(0.0, |a, x| a + x);
        let solved_seconds = total(&mut records.iter().filter(|r| r.status == Status::Solved).map(|r| r.seconds));
        let mean = |x: f64| (solved > 0).then(|| x / solved as f64);
        let mut by_time: Vec<&&Record> = records.iter().filter(|r| r.status != Status::Invalid).collect();
        by_time.sort_by(|a, b| b.seconds.total_cmp(&a.seconds));
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
            invalid: count(Status::Invalid),
            checked: records.iter().filter(|r| r.matched.is_some()).count(),
            mismatched: records.iter().filter(|r| r.matched == Some(false)).map(|r| r.id.clone()).collect(),
            nodes: records.iter().map(|r| r.nodes).sum(),
            expanded: records.iter().map(|r| r.expanded).sum(),
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
        let _ = writeln!(
            s,
            "checked      {} lengths against the input, {} mismatched{}",
            self.checked,
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
            "search time  {:.3} s; mean {} s a solved instance",
            self.seconds,
            or_dash(self.mean_seconds.map(|m| format!("{m:.3}")))
        );
        let slow: Vec<String> =
            self.slowest.iter().map(|r| format!("{} ({:.3} s, {})", r.id, r.seconds, r.outcome())).collect();
        let _ = writeln!(s, "slowest      {}", if slow.is_empty() { "-".to_string() } else { slow.join(", ") });
        for h in &self.heuristics {
            let _ = writeln!(s, "heuristic    {h}");
        }
        s
    }

    /// A Markdown table of the figures and one of the slowest instances.
    pub fn markdown(&self) -> String {
        let mut s = String::from("| | |\n|---|---:|\n");
        let rows = [
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
            ("search time (s)", format!("{:.3}", self.seconds)),
            ("mean search time (s, solved)", or_dash(self.mean_seconds.map(|m| format!("{m:.3}")))),
        ];
        for (k, v) in rows {
            let _ = writeln!(s, "| {k} | {v} |");
        }
        for h in &self.heuristics {
            let _ = writeln!(s, "| heuristic | {} |", h.replace('|', "\\|"));
        }
        if !self.slowest.is_empty() {
            s.push_str("\n| slowest | outcome | generated nodes | seconds |\n|---|---|---:|---:|\n");
            for r in &self.slowest {
                let _ = writeln!(s, "| {} | {} | {} | {:.3} |", r.id, r.outcome(), r.nodes, r.seconds);
            }
        }
        s
    }

    fn mismatch_ids(&self) -> String {
        if self.mismatched.is_empty() {
            String::new()
        } else {
            format!(" (ids {})", self.mismatched.join(", "))
        }
    }
}

impl Slow {
    fn outcome(&self) -> String {
        match self.length {
            Some(l) => format!("{l} moves"),
            None => self.status.as_str().to_string(),
        }
    }
}

/// How `report` prints a summary.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ReportFormat {
    Text,
    Markdown,
    Json,
}

#[derive(Args)]
pub struct ReportArgs {
    /// Record files written by `batch` (JSON lines or CSV), e.g. the outputs of every shard.
    #[arg(required = true, value_name = "FILES")]
    pub files: Vec<PathBuf>,
    /// text (aligned lines), markdown (tables for a paper or an issue) or json.
    #[arg(long, value_enum, value_name = "FORMAT", default_value = "text")]
    pub format: ReportFormat,
}

/// A tool's `report` (`name` is the tool's, for messages): merges record files and prints their summary.
/// Exit code 1 if any length mismatched.
pub fn run(name: &str, args: &ReportArgs) -> anyhow::Result<ExitCode> {
    let mut all = Vec::new();
    let mut seen: HashMap<String, PathBuf> = HashMap::new();
    for path in &args.files {
        let file = read_records(path).map_err(cli_common::usage)?;
        if file.torn_tail > 0 {
            cli_common::log(&format!(
                "{name}: note: {} ends in an incomplete record ({} bytes), not counted",
                path.display(),
                file.torn_tail
            ));
        }
        for r in file.records {
            if let Some(first) = seen.insert(r.id.clone(), path.clone()) {
                bail!(
                    "id '{}' is in {} and again in {}: are these shards of one run?",
                    r.id,
                    first.display(),
                    path.display()
                );
            }
            all.push(r);
        }
    }
    let summary = Summary::new(&all);
    match args.format {
        ReportFormat::Text => print!("{}", summary.text()),
        ReportFormat::Markdown => print!("{}", summary.markdown()),
        ReportFormat::Json => println!("{}", serde_json::to_string_pretty(&summary)?),
    }
    if summary.heuristics.len() > 1 {
        cli_common::log(&format!(
            "{name}: warning: the records come from {} different heuristics or tables",
            summary.heuristics.len()
        ));
    }
    Ok(if summary.mismatched.is_empty() { ExitCode::SUCCESS } else { ExitCode::from(1) })
}
