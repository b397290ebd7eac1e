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
pub mod hint;
pub mod level;
pub mod mystery;
pub mod play;
pub mod puzzle;
pub mod reverse;
pub mod rule;
pub mod solve;
pub mod state;
pub mod tube;

pub use heuristic::Heuristic;
pub use level::{is_json, parse_input, parse_json, parse_levels, Level, LevelError, Problem};
pub use play::{check, parse_pours, Pour, Tubes};
pub use puzzle::{Model, Pruning};
pub use rule::Rule;
pub use search::{Named, UnknownName};
pub use solve::{solve, solve_with_progress, Algorithm, Limits, Options, Outcome, Solution, SolveError, Stats};

#[cfg(test)]
mod tests {
    use crate::{Heuristic, Named, Rule, UnknownName};

    /// Every name leads back to its value, and nothing else is read.
    fn round_trips<T: Named + std::fmt::Debug>() {
        assert_eq!(T::ALL.len(), T::NAMES.len());
        for (&value, &name) in T::ALL.iter().zip(T::NAMES) {
            assert_eq!(value.name(), name);
            assert_eq!(T::from_name(name), Ok(value));
            assert!(!value.about().is_empty());
        }
        let err: UnknownName = T::from_name("magic").unwrap_err();
        assert_eq!(err.to_string(), format!("unknown {} 'magic' ({}s: {})", T::KIND, T::KIND, T::NAMES.join(", ")));
    }

    #[test]
    fn names_round_trip() {
        round_trips::<Rule>();
        round_trips::<Heuristic>();
    }

    /// The web app's message for a bad rule.
    #[test]
    fn unknown_lists_the_names() {
        assert_eq!(
            Rule::from_name("Standard").unwrap_err().to_string(),
            "unknown rule 'Standard' (rules: standard, whole-run, one-unit)"
        );
    }
}
