//! Help from where a player is stuck: whether the position can still be sorted, the fewest pours left and
//! the next one, which pours from here lead to a dead end, and, from a dead position with the pours that
//! led to it, how far back the last position that could still be sorted was.
//!
//! A position is a [`Level`] (tubes may be part full; the colour counts are those of the start). The
//! verdicts come from the solver: the fewest pours from an optimal search (A* with `bottoms`, under the
//! caller's rule and limits), "dead" from a proof by exhaustion (depth-first, ordered by `bottoms`, as
//! `generate` checks its draws). A search stopped by a limit is reported as such, never as dead.

use crate::level::Level;
use crate::play::{Pour, Tubes};
use crate::solve::{solve, solve_with_progress, time_left, Algorithm, Options, Outcome, Progress, SolveError, Stats};
use crate::{Heuristic, Model};
use search::Stop;
use std::time::Instant;

/// What a position allows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Sortable: the fewest pours left, and the first of such a sequence.
    Solvable {
        /// The fewest pours that sort the position.
        pours_left: usize,
        /// The first pour of a fewest-pours sequence (`None` when the position is sorted).
        next: Option<Pour>,
    },
    /// No sequence of pours sorts it.
    Dead,
    /// A limit stopped the search before it knew.
    Unknown(Stop),
}

/// Whether a position can be sorted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sortable {
    /// Some sequence of pours sorts it.
    Yes,
    /// None does (proved by exhaustion).
    No,
    /// A limit stopped the check first.
    Unknown(Stop),
}

/// The help for one position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hint {
    /// Whether the position can be sorted, and how.
    pub verdict: Verdict,
    /// Every legal pour from the position, in tube order, with whether the position it leads to can still
    /// be sorted ([`Sortable::No`]: a dead end).
    pub pours: Vec<(Pour, Sortable)>,
}

/// Hints for `position` under `options`' rule and limits (its algorithm and heuristic are the module's);
/// the time limit holds for the hint as a whole, all its searches together.
pub fn hint(position: &Level, options: &Options) -> Result<Hint, SolveError> {
    let started = Instant::now();
    let optimal = Options {
        algorithm: Algorithm::Astar,
        model: Model { heuristic: Heuristic::Bottoms, ..options.model },
        ..options.clone()
    };
    let verdict = match solve(position, &time_left(&optimal, started))?.outcome {
        Outcome::Solved(pours) => Verdict::Solvable { pours_left: pours.len(), next: pours.first().copied() },
        Outcome::Unsolvable => Verdict::Dead,
        Outcome::Stopped(why) => Verdict::Unknown(why),
    };
    let mut pours = Vec::new();
    for (pour, after) in legal_pours(position, options) {
        let leads = match &verdict {
            Verdict::Dead => Sortable::No,
            _ => solvable(&after, &time_left(options, started))?,
        };
        pours.push((pour, leads));
    }
    Ok(Hint { verdict, pours })
}

/// Whether `position` can be sorted.
pub fn solvable(position: &Level, options: &Options) -> Result<Sortable, SolveError> {
    Ok(solvable_with_progress(position, options, &mut |_| {})?.0)
}

/// [`solvable`], calling `progress` as the search goes, with what the search did.
pub fn solvable_with_progress(
    position: &Level,
    options: &Options,
    progress: &mut dyn FnMut(&Progress),
) -> Result<(Sortable, Stats), SolveError> {
    let check = Options {
        algorithm: Algorithm::Dfs,
        model: Model { heuristic: Heuristic::Bottoms, ..options.model },
        ..options.clone()
    };
    let solution = solve_with_progress(position, &check, progress)?;
    let sortable = match solution.outcome {
        Outcome::Solved(_) => Sortable::Yes,
        Outcome::Unsolvable => Sortable::No,
        Outcome::Stopped(why) => Sortable::Unknown(why),
    };
    Ok((sortable, solution.stats))
}

/// Every legal pour from `position` under the rule, with the position it leads to.
pub fn legal_pours(position: &Level, options: &Options) -> Vec<(Pour, Level)> {
    let n = position.tubes().len();
    let mut out = Vec::new();
    for from in 0..n {
        for to in (0..n).filter(|&to| to != from) {
            let pour = Pour { from, to };
            let mut tubes = Tubes::new(position);
            if tubes.pour(pour, options.model.rule).is_ok() {
                out.push((pour, position.with_tubes(tubes.tubes)));
            }
        }
    }
    out
}

/// Where a player's pours went wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Trail {
    /// The position after every pour can still be sorted.
    StillSolvable,
    /// The last position that could be sorted came after `at` pours (0: the start), `back` pours before
    /// the end.
    LastSolvable {
        /// Pours made before it.
        at: usize,
        /// Pours to take back.
        back: usize,
    },
    /// Not even the start can be sorted.
    StartDead,
    /// A limit stopped a check, `at` pours in, before the answer was known.
    Unknown {
        /// Pours made before the position whose check stopped.
        at: usize,
        /// The limit.
        why: Stop,
    },
}

/// Why a history cannot be replayed.
#[derive(Clone, Debug, thiserror::Error, PartialEq, Eq)]
#[error("pour {number} of the history: {why}")]
pub struct BadHistory {
    /// The pour, from 1.
    pub number: usize,
    /// Why it cannot be made.
    pub why: String,
}

/// The positions along `history` from `start`: the start, then one after each pour.
pub fn replay(start: &Level, options: &Options, history: &[Pour]) -> Result<Vec<Level>, BadHistory> {
    let mut tubes = Tubes::new(start);
    let mut positions = vec![start.clone()];
    for (i, &pour) in history.iter().enumerate() {
        tubes.pour(pour, options.model.rule).map_err(|e| BadHistory { number: i + 1, why: e.why.to_string() })?;
        positions.push(start.with_tubes(tubes.tubes.clone()));
    }
    Ok(positions)
}

/// The last position along `positions` (from [`replay`]) that can still be sorted, searched from the end.
pub fn trail(positions: &[Level], options: &Options) -> Result<Trail, SolveError> {
    let started = Instant::now();
    for (at, position) in positions.iter().enumerate().rev() {
        match solvable(position, &time_left(options, started))? {
            Sortable::Yes if at + 1 == positions.len() => return Ok(Trail::StillSolvable),
            Sortable::Yes => return Ok(Trail::LastSolvable { at, back: positions.len() - 1 - at }),
            Sortable::No => {}
            Sortable::Unknown(why) => return Ok(Trail::Unknown { at, why }),
        }
    }
    Ok(Trail::StartDead)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse_levels;

    fn level(line: &str, capacity: usize) -> Level {
        parse_levels(line, capacity).remove(0).unwrap()
    }

    /// The fewest pours left, by A* with the plain `zero` estimate (uniform-cost search): `None` when dead.
    fn truth(position: &Level) -> Option<usize> {
        let plain = Options { model: Model { heuristic: Heuristic::Zero, ..Model::default() }, ..Options::default() };
        match solve(position, &plain).unwrap().outcome {
            Outcome::Solved(p) => Some(p.len()),
            _ => None,
        }
    }

    /// Every position within three pours of two small levels: the hint's verdict, each pour's verdict and
    /// the trail back from each history agree with uniform-cost search.
    #[test]
    fn hints_and_trails_agree_with_exhaustive_search() {
        let options = Options::default();
        let mut dead_seen = 0;
        for start in [level("y: aab bba -", 3), level("w: ab cd ca db -", 2), level("v: abc bca cab -", 3)] {
            let mut frontier: Vec<Vec<Pour>> = vec![vec![]];
            let mut histories = frontier.clone();
            for _ in 0..3 {
                frontier = frontier
                    .iter()
                    .flat_map(|h| {
                        let here = replay(&start, &options, h).unwrap().pop().unwrap();
                        legal_pours(&here, &options).into_iter().map(|(pour, _)| [h.clone(), vec![pour]].concat())
                    })
                    .collect();
                histories.extend(frontier.iter().cloned());
            }
            for h in &histories {
                let positions = replay(&start, &options, h).unwrap();
                let here = positions.last().unwrap();
                let hint = hint(here, &options).unwrap();
                match (truth(here), &hint.verdict) {
                    (Some(n), Verdict::Solvable { pours_left, next }) => {
                        assert_eq!(n, *pours_left);
                        if let Some(next) = next {
                            let after = legal_pours(here, &options).into_iter().find(|(p, _)| p == next).unwrap();
                            assert_eq!(truth(&after.1), Some(n - 1), "the next pour starts a fewest sequence");
                        }
                    }
                    (None, Verdict::Dead) => dead_seen += 1,
                    (t, v) => panic!("{}: truth {t:?}, hint {v:?}", here.to_line()),
                }
                for ((pour, leads), (same, after)) in hint.pours.iter().zip(legal_pours(here, &options)) {
                    assert_eq!(*pour, same);
                    let sortable = if truth(&after).is_some() { Sortable::Yes } else { Sortable::No };
                    assert_eq!(*leads, sortable, "{} then {pour}", here.to_line());
                }
                let expected = match (0..positions.len()).rev().find(|&i| truth(&positions[i]).is_some()) {
                    Some(i) if i + 1 == positions.len() => Trail::StillSolvable,
                    Some(at) => Trail::LastSolvable { at, back: positions.len() - 1 - at },
                    None => Trail::StartDead,
                };
                assert_eq!(trail(&positions, &options).unwrap(), expected);
            }
        }
        assert!(dead_seen > 0, "no dead position among the histories: the test checks nothing dead");
    }

    #[test]
    fn a_history_that_cannot_be_played_names_its_pour() {
        let start = level("z: aab bba -", 3);
        let bad = replay(&start, &Options::default(), &[Pour { from: 0, to: 2 }, Pour { from: 2, to: 2 }]);
        assert_eq!(bad.unwrap_err().to_string(), "pour 2 of the history: a tube cannot pour into itself");
    }
}
