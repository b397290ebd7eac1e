//! Runs of the same instances side by side (`solver report --compare A B [C ...]`): per instance, how many
//! nodes and how much time each run after the first took relative to the first, and whether they agree on
//! every length; with three or more runs, a table of every run against the first ([`table`]).

use crate::record::{Record, Status};
use cli_common::text::printable;
use cli_common::units::seconds;
use serde::Serialize;
use std::cmp::Ordering;
use std::collections::HashMap;
use std::fmt::Write as _;

/// One instance solved by both runs.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Pair {
    /// The instance's id.
    pub id: String,
    /// Generated nodes in the first run and in the second.
    pub nodes: (u64, u64),
    /// Search seconds in the first run and in the second.
    pub seconds: (f64, f64),
}

/// The second run against the first over the instances both solved.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Comparison {
    /// Instances solved by both runs, in id order ([`natural_order`]).
    pub pairs: Vec<Pair>,
    /// Ids only the first run solved.
    pub only_first: Vec<String>,
    /// Ids only the second run solved.
    pub only_second: Vec<String>,
    /// Ids the runs solved to different lengths: one of them is wrong.
    pub length_differs: Vec<String>,
    /// The geometric mean of second / first generated nodes: below 1, the second run was cheaper.
    pub nodes_ratio: Option<f64>,
    /// The same for search seconds.
    pub seconds_ratio: Option<f64>,
}

/// The geometric mean of the ratios b/a, over pairs where both are positive.
fn geometric_mean(pairs: impl Iterator<Item = (f64, f64)>) -> Option<f64> {
    let logs: Vec<f64> = pairs.filter(|&(a, b)| a > 0.0 && b > 0.0).map(|(a, b)| (b / a).ln()).collect();
    (!logs.is_empty()).then(|| (logs.iter().sum::<f64>() / logs.len() as f64).exp())
}

/// Ids in the order people count: runs of digits compared as numbers (`9` before `10`, `s1-2` before
/// `s1-10`), the rest as text. Records come in the order searches finished, so every list of ids a report
/// prints is sorted by this.
pub fn natural_order(a: &str, b: &str) -> Ordering {
    /// The next run of digits or of other characters.
    fn run(s: &str) -> (&str, &str) {
        let digits = s.starts_with(|c: char| c.is_ascii_digit());
        let end = s.find(|c: char| c.is_ascii_digit() != digits).unwrap_or(s.len());
        s.split_at(end)
    }
    let (mut x, mut y) = (a, b);
    while !x.is_empty() && !y.is_empty() {
        let ((rx, tx), (ry, ty)) = (run(x), run(y));
        let numbers = rx.starts_with(|c: char| c.is_ascii_digit()) && ry.starts_with(|c: char| c.is_ascii_digit());
        let order = if numbers {
            // Without leading zeros, a longer run of digits is the larger number, however long.
            let (nx, ny) = (rx.trim_start_matches('0'), ry.trim_start_matches('0'));
            nx.len().cmp(&ny.len()).then_with(|| nx.cmp(ny))
        } else {
            rx.cmp(ry)
        };
        if order != Ordering::Equal {
            return order;
        }
        (x, y) = (tx, ty);
    }
    x.len().cmp(&y.len()).then_with(|| a.cmp(b))
}

/// A ratio as every report shows it (text, Markdown, chart titles): three decimals.
pub fn ratio_text(r: f64) -> String {
    format!("{r:.3}")
}

impl Comparison {
    /// `second` against `first`, each a run's records (only the solved ones are compared).
    pub fn new(first: &[Record], second: &[Record]) -> Comparison {
        let solved =
            |rs: &[Record]| -> Vec<Record> { rs.iter().filter(|r| r.status == Status::Solved).cloned().collect() };
        let (a, b) = (solved(first), solved(second));
        let by_id: HashMap<&str, &Record> = b.iter().map(|r| (r.id.as_str(), r)).collect();
        let in_a: HashMap<&str, &Record> = a.iter().map(|r| (r.id.as_str(), r)).collect();
        let mut pairs = Vec::new();
        let mut length_differs = Vec::new();
        for ra in &a {
            if let Some(rb) = by_id.get(ra.id.as_str()) {
                if ra.length != rb.length {
                    length_differs.push(ra.id.clone());
                }
                pairs.push(Pair { id: ra.id.clone(), nodes: (ra.nodes, rb.nodes), seconds: (ra.seconds, rb.seconds) });
            }
        }
        let sorted = |mut ids: Vec<String>| {
            ids.sort_by(|x, y| natural_order(x, y));
            ids
        };
        pairs.sort_by(|x, y| natural_order(&x.id, &y.id));
        Comparison {
            nodes_ratio: geometric_mean(pairs.iter().map(|p| (p.nodes.0 as f64, p.nodes.1 as f64))),
            seconds_ratio: geometric_mean(pairs.iter().map(|p| p.seconds)),
            only_first: sorted(a.iter().filter(|r| !by_id.contains_key(r.id.as_str())).map(|r| r.id.clone()).collect()),
            only_second: sorted(b.iter().filter(|r| !in_a.contains_key(r.id.as_str())).map(|r| r.id.clone()).collect()),
            length_differs: sorted(length_differs),
            pairs,
        }
    }

    /// Aligned plain text, `first` and `second` naming the runs (ids printable: see [`printable`]).
    pub fn text(&self, first: &str, second: &str) -> String {
        let ratio = |r: Option<f64>| r.map_or("-".to_string(), ratio_text);
        let ids = |v: &[String]| match v {
            [] => "none".to_string(),
            v => v.iter().map(|id| printable(id)).collect::<Vec<_>>().join(", "),
        };
        let mut s = String::new();
        let both = cli_common::text::count(self.pairs.len() as u64, "instance");
        let _ = writeln!(s, "compared     {second} against {first}: {both} solved by both");
        let _ = writeln!(
            s,
            "node ratio   {} (geometric mean of {second} / {first}, generated nodes)",
            ratio(self.nodes_ratio)
        );
        let _ = writeln!(s, "time ratio   {} (geometric mean of {second} / {first})", ratio(self.seconds_ratio));
        let _ = writeln!(s, "lengths      differ on {}", ids(&self.length_differs));
        let _ =
            writeln!(s, "only solved  by {first}: {}; by {second}: {}", ids(&self.only_first), ids(&self.only_second));
        s
    }

    /// A Markdown table of the figures and one row an instance.
    pub fn markdown(&self, first: &str, second: &str) -> String {
        let ratio = |a: f64, b: f64| if a > 0.0 { ratio_text(b / a) } else { "-".into() };
        let mut s = self.text(first, second).lines().map(|l| format!("{l}  \n")).collect::<String>();
        let _ = writeln!(
            s,
            "\n| id | generated {first} | generated {second} | ratio | time {first} | time {second} | ratio |\n|---|---:|---:|---:|---:|---:|---:|"
        );
        for p in &self.pairs {
            let _ = writeln!(
                s,
                "| {} | {} | {} | {} | {} | {} | {} |",
                printable(&p.id).replace('|', "\\|"),
                p.nodes.0,
                p.nodes.1,
                ratio(p.nodes.0 as f64, p.nodes.1 as f64),
                seconds(p.seconds.0),
                seconds(p.seconds.1),
                ratio(p.seconds.0, p.seconds.1)
            );
        }
        s
    }
}

/// Every run in one table (aligned text, or Markdown): how many instances it solved, its node and time
/// ratios against the first run (geometric means over the instances both solved) and the ids whose lengths
/// differ from the first's. `others`: each run after the first, with its comparison; `solved`: each run's
/// solved count, the first's first.
pub fn table(first: &str, others: &[(&str, Comparison)], solved: &[usize], markdown: bool) -> String {
    let ratio = |r: Option<f64>| r.map_or("-".to_string(), ratio_text);
    let differ = |c: &Comparison| match &c.length_differs[..] {
        [] => "none".to_string(),
        ids => ids.iter().map(|id| printable(id)).collect::<Vec<_>>().join(", "),
    };
    let head = ["run", "solved", "node ratio", "time ratio", "lengths differ"];
    let mut rows = vec![[first.to_string(), solved[0].to_string(), ratio_text(1.0), ratio_text(1.0), "-".into()]];
    for ((name, c), solved) in others.iter().zip(&solved[1..]) {
        rows.push([name.to_string(), solved.to_string(), ratio(c.nodes_ratio), ratio(c.seconds_ratio), differ(c)]);
    }
    let mut s = format!("every run against {first} (geometric means over the instances both solved)\n");
    if markdown {
        s = format!("{s}\n| {} |\n|---|---:|---:|---:|---|\n", head.join(" | "));
        for row in &rows {
            let _ = writeln!(s, "| {} |", row.iter().map(|c| c.replace('|', "\\|")).collect::<Vec<_>>().join(" | "));
        }
        return s;
    }
    let widths: Vec<usize> = (0..head.len())
        .map(|i| rows.iter().map(|r| r[i].chars().count()).chain([head[i].len()]).max().unwrap_or(0))
        .collect();
    for row in std::iter::once(head.map(String::from)).chain(rows) {
        let cells: Vec<String> = row.iter().zip(&widths).map(|(c, &w)| format!("{c:<w$}")).collect();
        let _ = writeln!(s, "{}", cells.join("  ").trim_end());
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(id: &str, length: u32, nodes: u64, seconds: f64) -> Record {
        Record { id: id.into(), status: Status::Solved, length: Some(length), nodes, seconds, ..Record::default() }
    }

    #[test]
    fn ratios_are_geometric_means_over_common_solved_ids() {
        let a = [rec("1", 40, 100, 1.0), rec("2", 42, 100, 2.0), rec("3", 44, 10, 1.0)];
        let b = [rec("2", 42, 400, 2.0), rec("1", 41, 25, 1.0), rec("4", 50, 1, 1.0)];
        let c = Comparison::new(&a, &b);
        assert_eq!(c.pairs.len(), 2);
        assert!((c.nodes_ratio.unwrap() - 1.0).abs() < 1e-12, "4 and 1/4");
        assert!((c.seconds_ratio.unwrap() - 1.0).abs() < 1e-12);
        assert_eq!(
            (c.length_differs, c.only_first, c.only_second),
            (vec!["1".into()], vec!["3".into()], vec!["4".into()])
        );
    }

    /// Records arrive in the order searches finished; every list of ids is in counting order.
    #[test]
    fn ids_are_listed_in_counting_order() {
        let ids = ["10", "9", "s1-10", "2", "s1-2", "b", "a", "010", "99999999999999999999999"];
        let a: Vec<Record> = ids.iter().map(|id| rec(id, 40, 1, 1.0)).collect();
        let b: Vec<Record> = ids.iter().map(|id| rec(id, 41, 1, 1.0)).collect();
        let c = Comparison::new(&a, &b);
        let counted = ["2", "9", "010", "10", "99999999999999999999999", "a", "b", "s1-2", "s1-10"];
        assert_eq!(c.length_differs, counted);
        assert_eq!(c.pairs.iter().map(|p| p.id.as_str()).collect::<Vec<_>>(), counted);
        assert!(c.text("a", "b").contains("differ on 2, 9, 010, 10, 99999999999999999999999, a, b, s1-2, s1-10"));
        let c = Comparison::new(&a, &b[..0]);
        assert_eq!(c.only_first, counted);
    }

    /// Three runs: a table of every run against the first, aligned, and in Markdown a row a run.
    #[test]
    fn every_run_is_a_row_of_the_table_against_the_first() {
        let a = [rec("1", 40, 100, 1.0), rec("2", 42, 100, 2.0)];
        let b = [rec("1", 40, 25, 0.5), rec("2", 42, 25, 0.5)];
        let c = [rec("1", 41, 100, 1.0)];
        let others = [("astar", Comparison::new(&a, &b)), ("ida", Comparison::new(&a, &c))];
        let text = table("bfs", &others, &[2, 2, 1], false);
        let want = "every run against bfs (geometric means over the instances both solved)\n\
                    run    solved  node ratio  time ratio  lengths differ\n\
                    bfs    2       1.000       1.000       -\n\
                    astar  2       0.250       0.354       none\n\
                    ida    1       1.000       1.000       1\n";
        assert_eq!(text, want);
        let md = table("bfs", &others, &[2, 2, 1], true);
        assert!(md.contains("| run | solved | node ratio | time ratio | lengths differ |"), "{md}");
        assert!(md.contains("| astar | 2 | 0.250 | 0.354 | none |"), "{md}");
    }

    #[test]
    fn ids_are_printed_escaped() {
        let (a, b) = ([rec("x\u{1b}[31m|", 40, 1, 1.0)], [rec("x\u{1b}[31m|", 42, 1, 1.0)]);
        let c = Comparison::new(&a, &b);
        assert!(c.text("a", "b").contains(r"lengths      differ on x\u{1b}[31m|"), "{}", c.text("a", "b"));
        assert!(c.markdown("a", "b").contains(r"| x\u{1b}[31m\| | 1 | 1 |"), "{}", c.markdown("a", "b"));
    }
}
