//! Random solvable positions: a seeded random walk from a solved position. Every move can be undone, so the
//! walk's end is solvable in at most as many moves as the walk took (often fewer: walks wander back).

use crate::level::{Goal, Level};
use crate::metric::{Heuristic, Metric};
use crate::puzzle::{unpack, Blocks, State};
use crate::solve::{solve, Options, Outcome};
use search::rng::SplitMix64;
use search::{Algorithm, Puzzle};

/// Why no position was generated.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GenerateError {
    /// The level's goal cannot be reached from its start, so there is no solved position to walk from.
    #[error("the level cannot be solved, so it has no solved position to walk from")]
    Unsolvable,
    /// Finding a solved position failed inside the solver.
    #[error(transparent)]
    Solve(#[from] crate::solve::SolveError),
}

/// A position `walk` random moves (of `metric`, never straight back unless there is no other) from a solved
/// position of `level`: its goal arrangement, or for a piece-at-a-place goal the start if solved, else the
/// end of a shortest solution. The same `seed` gives the same position. The level keeps its name.
///
/// ```
/// let level = blocks::parse_input("heng-dao-li-ma").unwrap();
/// let a = blocks::generate(&level, blocks::Metric::Unit, 50, 7).unwrap();
/// assert_eq!(a, blocks::generate(&level, blocks::Metric::Unit, 50, 7).unwrap());
/// ```
pub fn generate(level: &Level, metric: Metric, walk: u32, seed: u64) -> Result<Level, GenerateError> {
    let solved = match level.goal() {
        Goal::Layout(places) => level.with_start(places.clone()),
        Goal::Place { .. } => {
            let options = Options { algorithm: Algorithm::Bfs, metric, ..Options::default() };
            match solve(level, &options)?.outcome {
                Outcome::Solved(steps) => {
                    let end =
                        crate::solve::check(level, metric, &steps).map_err(crate::solve::SolveError::BadSolution)?;
                    level.with_start(end)
                }
                _ => return Err(GenerateError::Unsolvable),
            }
        }
    };
    let puzzle = Blocks::new(&solved, metric, Heuristic::Zero);
    let mut rng = SplitMix64::new(seed);
    let (mut at, mut before): (State, Option<State>) = (Blocks::start(&solved), None);
    let mut next = Vec::new();
    for _ in 0..walk {
        next.clear();
        puzzle.successors(&at, |_, s| next.push(s));
        if next.len() > 1 {
            next.retain(|&s| Some(s) != before);
        }
        let Some(&s) = next.get(rng.below(next.len().max(1) as u64) as usize) else { break };
        before = Some(at);
        at = s;
    }
    Ok(solved.with_start(unpack(at, level.pieces().len())))
}
