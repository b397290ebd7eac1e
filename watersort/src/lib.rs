//! Water sort: tubes of coloured units, a pour moves the top run of one tube onto an empty tube or the
//! same colour; solved when every tube is empty or full of one colour. This crate reads levels, finds the
//! fewest pours with the generic [`search`] crate over packed, tube-order-canonical states, and generates
//! random solvable levels. It knows no command line, batch runner or web app: they call it.
//!
//! A batch runner needs [`parse_levels`] (or [`parse_json`]), [`solve`](fn@solve) with [`Options`], and the
//! [`Solution`] it returns; a command or a request names the rule, heuristic and algorithm through
//! [`Named`].

#![warn(missing_docs)]

pub mod generate;
pub mod heuristic;
pub mod level;
pub mod named;
pub mod play;
pub mod puzzle;
pub mod rule;
pub mod solve;
pub mod state;
pub mod tube;

pub use heuristic::Heuristic;
pub use level::{is_json, parse_json, parse_levels, Level, LevelError, Problem};
pub use named::{Named, UnknownName};
pub use play::{check, Pour, Tubes};
pub use puzzle::{Model, Pruning};
pub use rule::Rule;
pub use solve::{solve, solve_with_progress, Algorithm, Limits, Method, Options, Outcome, Solution, SolveError, Stats};
