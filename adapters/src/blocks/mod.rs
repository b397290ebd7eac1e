//! Sliding-block puzzles (Klotski, Rush Hour) in the batch machinery every tool shares (`batch`): a level
//! line read as a job, a search written as the common record. `blocks solve --format json` prints the same
//! record, with its moves as a JSON list ([`record_json`]).
//!
//! A record's `moves` is the list `[{"piece":"B","to":[3,1]}, ...]`, each move the piece's letter and its
//! top-left cell (row, column from 0) after the move, so any program can replay it; in a batch file, where
//! every puzzle's `moves` is one text field, it is that list written as JSON text. The metric the length
//! counts is named in the record's settings and in `heuristic`'s company: `metric=piece` and so on.

use batch::{Attempt, Line, Record, Source, Status, Task};
use blocks::{parse_input, solve_with_progress, Heuristic, Level, Named, Options, Solution, SolveError, Step};
use std::sync::Arc;

/// A batch of level lines, all solved with one set of options (their limits replaced by the batch's).
pub struct Levels {
    /// The algorithm, metric, heuristic and limits every level is searched with.
    pub options: Options,
    /// Threads the batch may use: one search a thread (a sliding-block search runs on one).
    pub threads: usize,
}

/// The heuristic a search consults, by name: `none` for the breadth-first ones, which consult none.
pub fn heuristic_name(options: &Options) -> &'static str {
    if options.algorithm.informed() {
        options.heuristic.name()
    } else {
        "none"
    }
}

/// Moves as the JSON list records carry: `[{"piece": "B", "to": [3, 1]}, ...]`.
///
/// ```
/// let step = blocks::Step { letter: 'B', row: 3, col: 1, path: vec![] };
/// assert_eq!(adapters::blocks::moves_json(&[step]).to_string(), r#"[{"piece":"B","to":[3,1]}]"#);
/// ```
pub fn moves_json(steps: &[Step]) -> serde_json::Value {
    steps.iter().map(|s| serde_json::json!({ "piece": s.letter.to_string(), "to": [s.row, s.col] })).collect()
}

/// Reads the list [`moves_json`] writes (as a record's `moves` text) back into steps without paths, for
/// [`blocks::check`] or [`blocks::play`]; what is wrong if it is not one.
pub fn parse_moves(text: &str) -> Result<Vec<Step>, String> {
    #[derive(serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Move {
        piece: String,
        to: [usize; 2],
    }
    let moves: Vec<Move> = serde_json::from_str(text).map_err(|e| format!("moves: {e}"))?;
    moves
        .into_iter()
        .enumerate()
        .map(|(k, m)| {
            let mut letters = m.piece.chars();
            match (letters.next(), letters.next()) {
                (Some(letter), None) => Ok(Step { letter, row: m.to[0], col: m.to[1], path: Vec::new() }),
                _ => Err(format!("move {}: piece {:?} is not one letter", k + 1, m.piece)),
            }
        })
        .collect()
}

/// The settings a record of these options carries: the metric, the algorithm and the heuristic (a
/// length in another metric is another count).
pub fn settings(options: &Options) -> Vec<(&'static str, String)> {
    vec![
        ("metric", options.metric.name().to_string()),
        ("algorithm", options.algorithm.name().to_string()),
        ("heuristic", heuristic_name(options).to_string()),
    ]
}

/// The record of one search of `level`.
pub fn record(src: &Source, options: &Options, solution: &Solution) -> Record {
    let by = (options.algorithm, heuristic_name(options));
    let moves = |s: &[Step]| moves_json(s).to_string();
    crate::searched::record(src, &solution.outcome, &solution.stats, by, moves, "positions")
}

/// `record` as a JSON object whose `moves` is the list itself (an empty list unless solved), as
/// `blocks solve --format json` prints it and a web page reads it.
pub fn record_json(record: &Record) -> serde_json::Value {
    let mut json = serde_json::to_value(record).expect("a record serialises");
    let moves = serde_json::from_str(&record.moves).unwrap_or_else(|_| serde_json::Value::Array(Vec::new()));
    json["moves"] = moves;
    json
}

/// The record of a line that is not a valid level, or of a search that cannot run on it.
pub fn invalid_record(src: &Source, problem: String) -> Record {
    Record { error: Some(problem), ..src.record(Status::Invalid) }
}

/// A level line: `name: LEVEL` (the name is the record's id) or a bare `LEVEL`, where `LEVEL` is a
/// built-in level's name, the text form or a JSON object; `#` starts a comment. `None` for a blank line.
///
/// ```
/// let (id, level) = adapters::blocks::parse_line("start: ABBC/ABBC/DEEF/DGHF/I..J B@3,1 # 横刀立马").unwrap();
/// assert_eq!((id.as_deref(), level.unwrap().pieces().len()), (Some("start"), 10));
/// assert!(adapters::blocks::parse_line("  # nothing").is_none());
/// ```
pub fn parse_line(line: &str) -> Option<(Option<String>, Result<Level, String>)> {
    let text = line.split('#').next().unwrap_or("").trim();
    if text.is_empty() {
        return None;
    }
    let (id, level) = match text.split_once(':') {
        Some((name, rest)) if !name.trim_start().starts_with('{') => (Some(name.trim().to_string()), rest.trim()),
        _ => (None, text),
    };
    let parsed = parse_input(level).map(|l| match &id {
        Some(name) => l.with_name(name.clone()),
        None => l,
    });
    Some((id, parsed.map_err(|e| e.to_string())))
}

impl Task for Levels {
    type Instance = Level;
    const ALGORITHMS: &'static [search::Algorithm] = {
        use search::Algorithm::*;
        &[Astar, Bfs, Bibfs, Ida, Greedy, Dfs]
    };
    type Heuristic = Heuristic;
    const HEURISTICS: &'static [Heuristic] = <Heuristic as Named>::ALL;

    fn name(&self) -> &str {
        "blocks"
    }

    const STEPS: &'static str = "moves";

    fn settings(&self) -> Vec<(&'static str, String)> {
        settings(&self.options)
    }

    fn parse(&self, line: &str) -> Option<Line<Level>> {
        let text = line.split('#').next().unwrap_or("").trim().to_string();
        let (id, parsed) = parse_line(line)?;
        Some(Line { id, text, parsed: parsed.map(|l| (l, None)) })
    }

    fn invalid(&self, src: &Source, problem: String) -> Record {
        invalid_record(src, problem)
    }

    /// A level the options cannot search (bidirectional search of a piece-at-a-place goal) is recorded
    /// as invalid, saying why, rather than stopping the batch.
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
        let solution = match solve_with_progress(level, &options, &mut |p| live.note(p)) {
            Ok(solution) => solution,
            Err(e @ SolveError::NeedsLayout) => {
                return Ok(Attempt { record: invalid_record(src, e.to_string()), stop: None })
            }
            Err(e) => return Err(e.into()),
        };
        Ok(crate::searched::attempt(record(src, &options, &solution), &solution.outcome))
    }

    fn threads(&self) -> usize {
        self.threads
    }

    fn parallel_search(&self) -> bool {
        false
    }

    fn no_valid_hint(&self) -> String {
        "is each line a level (ROWS GOAL, a JSON object or a built-in name)?".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_round_trip_and_replay() {
        let level = parse_input("rush-hour-jam").unwrap();
        let options = Options { metric: blocks::Metric::Line, ..Options::default() };
        let solution = blocks::solve(&level, &options).unwrap();
        let src = Source { id: "jam", line: 1, text: "rush-hour-jam", expected: Some(7) };
        let rec = record(&src, &options, &solution);
        assert_eq!((rec.status, rec.length, rec.matched), (Status::Solved, Some(7), Some(true)));
        let steps = parse_moves(&rec.moves).unwrap();
        assert!(blocks::check(&level, blocks::Metric::Line, &steps).is_ok());
        assert_eq!(record_json(&rec)["moves"].as_array().unwrap().len(), 7);
        assert!(parse_moves(r#"[{"piece":"AB","to":[0,0]}]"#).unwrap_err().contains("not one letter"));
    }

    #[test]
    fn a_bad_line_or_an_impossible_request_is_an_invalid_record() {
        let task =
            Levels { options: Options { algorithm: search::Algorithm::Bibfs, ..Options::default() }, threads: 1 };
        let bad = task.parse("x: AB/BA B@0,0").unwrap();
        assert_eq!(bad.id.as_deref(), Some("x"));
        assert!(bad.parsed.unwrap_err().contains("two separate regions"));
        let line = task.parse("heng-dao-li-ma").unwrap();
        let (level, _) = line.parsed.unwrap();
        let src = Source { id: "1", line: 1, text: &line.text, expected: None };
        let live = Arc::new(search::Live::default());
        let attempt =
            task.solve(&level, &src, 1, &search::Limits::default(), &live, &batch::Resume::default()).unwrap();
        assert_eq!(attempt.record.status, Status::Invalid);
        assert!(attempt.record.error.unwrap().contains("bidirectional"));
    }
}

pub mod web;
