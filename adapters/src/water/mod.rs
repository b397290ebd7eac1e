//! Water sort in the batch machinery every tool shares (`batch`): a level line read as a job, a search
//! written as the common record. `watersort solve --format json` prints the same record.

pub mod web;

use batch::{Attempt, Line, Record, Source, Status, Task};
use search::Named;
use std::sync::Arc;
use watersort::hint::{Hint, Sortable, Verdict};
use watersort::{parse_levels, solve_with_progress, Level, Options, Solution};

/// A batch of level lines, all solved with one set of options (their limits replaced by the batch's).
pub struct Levels {
    /// Units a tube holds: how each line is read.
    pub capacity: usize,
    /// The algorithm, model and limits every level is searched with (the limits replaced by the batch's).
    pub options: Options,
    /// Threads the batch may use: one search a thread (a water sort search runs on one).
    pub threads: usize,
}

/// The heuristic a search consults, by name: `none` for the breadth-first one, which consults none.
fn heuristic_name(options: &Options) -> &'static str {
    if options.algorithm.informed() {
        options.model.heuristic.name()
    } else {
        "none"
    }
}

/// A hint as a JSON object, the fields `watersort hint --format json` and the web app's `/api/hint` share:
/// the `position`'s line, whether it is `sortable` (`yes`, `no`, `unknown`), the fewest `pours_left` and
/// the `next` pour, and every legal pour with what it `leads_to` (`sortable`, `dead end`, `unknown`).
pub fn hint_json(position: &Level, help: &Hint) -> serde_json::Map<String, serde_json::Value> {
    let (sortable, left, next) = match &help.verdict {
        Verdict::Solvable { pours_left, next } => ("yes", Some(*pours_left), next.map(|p| p.to_string())),
        Verdict::Dead => ("no", None, None),
        Verdict::Unknown(_) => ("unknown", None, None),
    };
    let leads = |s: &Sortable| match s {
        Sortable::Yes => "sortable",
        Sortable::No => "dead end",
        Sortable::Unknown(_) => "unknown",
    };
    let pours: Vec<serde_json::Value> =
        help.pours.iter().map(|(p, s)| serde_json::json!({ "pour": p.to_string(), "leads_to": leads(s) })).collect();
    let mut object = serde_json::Map::new();
    object.insert("position".into(), position.to_line().into());
    object.insert("sortable".into(), sortable.into());
    object.insert("pours_left".into(), left.into());
    object.insert("next".into(), next.into());
    object.insert("pours".into(), pours.into());
    object
}

/// The record of one search of `level`.
pub fn record(src: &Source, options: &Options, solution: &Solution) -> Record {
    let pours =
        |p: &[watersort::Pour]| p.iter().map(|p| format!("{}->{}", p.from + 1, p.to + 1)).collect::<Vec<_>>().join(" ");
    let by = (options.algorithm, heuristic_name(options));
    crate::searched::record(src, &solution.outcome, &solution.stats, by, pours, "states")
}

impl Levels {
    /// The record of a line that is not a valid level, whoever read it (a batch, or `solve`).
    pub fn invalid_record(src: &Source, problem: String) -> Record {
        Record { error: Some(problem), ..src.record(Status::Invalid) }
    }
}

impl Task for Levels {
    type Instance = Level;
    /// Bidirectional search needs a single goal, which a level does not have (any sorted arrangement of the
    /// tubes is one).
    const ALGORITHMS: &'static [search::Algorithm] = {
        use search::Algorithm::*;
        &[Astar, Bfs, Ida, Greedy, Dfs]
    };
    type Heuristic = watersort::Heuristic;
    const HEURISTICS: &'static [watersort::Heuristic] = <watersort::Heuristic as Named>::ALL;

    fn name(&self) -> &str {
        "watersort"
    }

    const STEPS: &'static str = "pours";

    /// The capacity lines are read with, the pour rule, and what searched: a length under another rule is
    /// another puzzle's.
    fn settings(&self) -> Vec<(&'static str, String)> {
        let o = &self.options;
        vec![
            ("capacity", self.capacity.to_string()),
            ("rule", o.model.rule.name().to_string()),
            ("algorithm", o.algorithm.name().to_string()),
            ("heuristic", heuristic_name(o).to_string()),
        ]
    }

    /// A level line: `name: tubes` (the name is the record's id) or bare tubes.
    fn parse(&self, line: &str) -> Option<Line<Level>> {
        let text = line.split('#').next().unwrap_or("").trim();
        if text.is_empty() {
            return None;
        }
        let id = text.split_once(':').map(|(name, _)| name.trim().to_string());
        let parsed = parse_levels(text, self.capacity).pop()?;
        Some(Line { id, text: text.to_string(), parsed: parsed.map(|l| (l, None)).map_err(|e| e.problem.to_string()) })
    }

    fn invalid(&self, src: &Source, problem: String) -> Record {
        Levels::invalid_record(src, problem)
    }

    fn solve(
        &self,
        level: &Level,
        src: &Source,
        _threads: usize,
        limits: &search::Limits,
        live: &Arc<search::Live>,
        _: &batch::Resume,
    ) -> anyhow::Result<Attempt> {
        let options = Options { limits: limits.clone(), ..self.options.clone() };
        let solution = solve_with_progress(level, &options, &mut |p| live.note(p))?;
        Ok(crate::searched::attempt(record(src, &options, &solution), &solution.outcome))
    }

    fn threads(&self) -> usize {
        self.threads
    }

    fn parallel_search(&self) -> bool {
        false
    }

    fn no_valid_hint(&self) -> String {
        format!("is --capacity {} right?", self.capacity)
    }
}
