//! Two runs of the same instances side by side (`solver report --compare A B`): per instance, how many nodes
//! and how much time the second run took relative to the first, and whether they agree on every length.

use crate::record::{Record, Status};
use cli_common::text::printable;
use serde::Serialize;
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
    /// Instances solved by both runs, in the first run's order.
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
        Comparison {
            nodes_ratio: geometric_mean(pairs.iter().map(|p| (p.nodes.0 as f64, p.nodes.1 as f64))),
            seconds_ratio: geometric_mean(pairs.iter().map(|p| p.seconds)),
            only_first: a.iter().filter(|r| !by_id.contains_key(r.id.as_str())).map(|r| r.id.clone()).collect(),
            only_second: b.iter().filter(|r| !in_a.contains_key(r.id.as_str())).map(|r| r.id.clone()).collect(),
            length_differs,
            pairs,
        }
    }

    /// Aligned plain text, `first` and `second` naming the runs (ids printable: see [`printable`]).
    pub fn text(&self, first: &str, second: &str) -> String {
        let ratio = |r: Option<f64>| r.map_or("-".to_string(), |r| format!("{r:.3}"));
        let ids = |v: &[String]| match v {
            [] => "none".to_string(),
            v => v.iter().map(|id| printable(id)).collect::<Vec<_>>().join(", "),
        };
        let mut s = String::new();
        let _ = writeln!(s, "compared     {second} against {first}: {} instances solved by both", self.pairs.len());
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
        let ratio = |a: f64, b: f64| if a > 0.0 { format!("{:.3}", b / a) } else { "-".into() };
        let mut s = self.text(first, second).lines().map(|l| format!("{l}  \n")).collect::<String>();
        let _ = writeln!(
            s,
            "\n| id | generated {first} | generated {second} | ratio | s {first} | s {second} | ratio |\n|---|---:|---:|---:|---:|---:|---:|"
        );
        for p in &self.pairs {
            let _ = writeln!(
                s,
                "| {} | {} | {} | {} | {:.3} | {:.3} | {} |",
                printable(&p.id).replace('|', "\\|"),
                p.nodes.0,
                p.nodes.1,
                ratio(p.nodes.0 as f64, p.nodes.1 as f64),
                p.seconds.0,
                p.seconds.1,
                ratio(p.seconds.0, p.seconds.1)
            );
        }
        s
    }
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

    #[test]
    fn ids_are_printed_escaped() {
        let (a, b) = ([rec("x\u{1b}[31m|", 40, 1, 1.0)], [rec("x\u{1b}[31m|", 42, 1, 1.0)]);
        let c = Comparison::new(&a, &b);
        assert!(c.text("a", "b").contains(r"lengths      differ on x\u{1b}[31m|"), "{}", c.text("a", "b"));
        assert!(c.markdown("a", "b").contains(r"| x\u{1b}[31m\| | 1 | 1 |"), "{}", c.markdown("a", "b"));
    }
}
