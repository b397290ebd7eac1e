//! A search of the generic library written as the one record: what the puzzles that solve through the
//! `search` crate on one thread (water sort, sliding blocks) share, so that their records say a limit, an
//! unsolvable instance and a match with the expected length in the same words.

use batch::{stop_text, Attempt, Record, Source, Status};
use search::{Algorithm, Named, Outcome, Stats};

/// The record of one search of `src`: its `outcome` and `stats`, by `algorithm` with `heuristic` (by name),
/// the moves of a solution written by `moves`, and `space` naming what an exhaustive search examined when it
/// proved there is no solution ("states", "positions").
pub fn record<T>(
    src: &Source,
    outcome: &Outcome<T>,
    stats: &Stats,
    (algorithm, heuristic): (Algorithm, &str),
    moves: impl FnOnce(&[T]) -> String,
    space: &str,
) -> Record {
    let (status, error, solution) = match outcome {
        Outcome::Solved(s) => (Status::Solved, None, Some(s.as_slice())),
        Outcome::Unsolvable => {
            (Status::Unsolvable, Some(format!("no solution: all {} reachable {space} examined", stats.expanded)), None)
        }
        Outcome::Stopped(stop) => {
            (Status::Limit, Some(stop_text(*stop, stats.seconds, stats.expanded, Some(stats.peak_stored), None)), None)
        }
    };
    let length = solution.map(|s| s.len() as u32);
    Record {
        length,
        moves: solution.map(moves).unwrap_or_default(),
        nodes: stats.generated,
        expanded: stats.expanded,
        seconds: stats.seconds,
        threads: 1,
        lanes: 1,
        algorithm: algorithm.name().to_string(),
        heuristic: heuristic.to_string(),
        peak_stored: Some(stats.peak_stored),
        matched: length.zip(src.expected).filter(|_| algorithm.optimal()).map(|(l, e)| l == e),
        error,
        ..src.record(status)
    }
}

/// A batch's attempt at one instance: its `record`, and the limit that stopped the search if one did (what
/// `--retry-limits` reads).
pub fn attempt<T>(record: Record, outcome: &Outcome<T>) -> Attempt {
    let stop = match outcome {
        Outcome::Stopped(s) => Some(*s),
        _ => None,
    };
    Attempt { record, stop }
}
