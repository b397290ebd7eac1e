//! Sliding-block puzzles: Klotski (华容道) and Rush Hour, and any rectangle-piece puzzle on a board of up to
//! 8x8 with walls. Pieces move one at a time, each freely or locked to its long axis; a level is solved when
//! one piece reaches a place, or when the whole board matches an arrangement. This crate reads levels, finds
//! the fewest moves in three metrics ([`Metric`]) with the generic [`search`] crate over packed states
//! canonical under swapping interchangeable pieces, explores whole spaces, generates random solvable
//! positions and draws boards. It knows no command line, batch runner or web app: they call it.
//!
//! A command needs [`parse_input`] (a built-in name, JSON or the text form, see [`level`]), [`solve`](fn@solve)
//! with [`Options`], and the [`Solution`] it returns; [`explore`](fn@explore), [`generate`](fn@generate)
//! and [`draw`](fn@draw) for the other jobs. Metric, heuristic and algorithm are named through [`Named`].
//!
//! ```
//! use blocks::{parse_input, solve, Metric, Options, Outcome};
//! let level = parse_input("rush-hour-jam").unwrap();
//! let solution = solve(&level, &Options { metric: Metric::Line, ..Options::default() }).unwrap();
//! let Outcome::Solved(steps) = solution.outcome else { panic!() };
//! assert_eq!(steps.last().unwrap().letter, 'A');
//! ```

#![warn(missing_docs)]

pub mod board;
pub mod draw;
pub mod explore;
pub mod generate;
pub mod level;
pub mod levels;
pub mod metric;
pub mod puzzle;
pub mod solve;

pub use board::Dir;
pub use draw::draw;
pub use explore::{explore, Exploration, ExploreError};
pub use generate::{generate, GenerateError};
pub use level::{parse_input, parse_json, parse_level, Axis, Distinct, Goal, Level, LevelError, Piece};
pub use metric::{Heuristic, Metric};
pub use search::{Named, UnknownName};
pub use solve::{
    check, legal_moves, play, solve, solve_with_progress, Algorithm, Limits, Options, Outcome, Solution, SolveError,
    Stats, Step,
};
