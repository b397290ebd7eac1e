//! Water sort: tubes of coloured units, a pour moves the top run of one tube onto an empty tube or the
//! same colour; solved when every tube is empty or full of one colour. This crate reads levels, finds the
//! fewest pours with the generic [`search`] crate over packed, tube-order-canonical states, generates
//! random solvable levels, and draws positions.
//!
//! A batch runner needs [`parse_levels`] (or [`parse_json`]), [`solve`] with [`Options`], and the
//! [`Solution`] it returns.

pub mod generate;
pub mod heuristic;
pub mod level;
pub mod play;
pub mod puzzle;
pub mod render;
pub mod rule;
pub mod solve;
pub mod state;
pub mod task;
pub mod tube;

pub use heuristic::Heuristic;
pub use level::{is_json, parse_json, parse_levels, Level, LevelError, Problem};
pub use play::{check, Pour, Tubes};
pub use puzzle::{Model, Pruning};
pub use rule::Rule;
pub use solve::{solve, solve_with_progress, Algorithm, Limits, Options, Outcome, Solution, SolveError, Stats};
