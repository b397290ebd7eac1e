//! The pour rules: how many units one pour moves.

use search::Named;

/// Which pours are allowed and how much they move. In every rule a pour needs a non-empty source, a
/// destination with space, and a destination that is empty or has the source's top colour on top.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Rule {
    /// As much of the source's top run as fits.
    #[default]
    Standard,
    /// Only when the whole top run fits.
    WholeRun,
    /// One unit a move (ball sort).
    OneUnit,
}

impl Rule {
    /// Units moved by a pour whose source has a top run of `run` units onto `free` free places, or
    /// `None` when the rule forbids it. The colour and emptiness conditions are the caller's.
    pub fn amount(self, run: usize, free: usize) -> Option<usize> {
        if run == 0 || free == 0 {
            return None;
        }
        match self {
            Rule::Standard => Some(run.min(free)),
            Rule::WholeRun => (run <= free).then_some(run),
            Rule::OneUnit => Some(1),
        }
    }
}

impl Named for Rule {
    const KIND: &'static str = "rule";
    const ALL: &'static [Rule] = &[Rule::Standard, Rule::WholeRun, Rule::OneUnit];
    const NAMES: &'static [&'static str] = &["standard", "whole-run", "one-unit"];

    fn about(self) -> &'static str {
        match self {
            Rule::Standard => "As much of the source's top run as fits",
            Rule::WholeRun => "Only when the whole top run fits",
            Rule::OneUnit => "One unit a move (ball sort)",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Rule;

    #[test]
    fn amounts() {
        assert_eq!(Rule::Standard.amount(3, 2), Some(2));
        assert_eq!(Rule::Standard.amount(1, 2), Some(1));
        assert_eq!(Rule::WholeRun.amount(3, 2), None);
        assert_eq!(Rule::WholeRun.amount(2, 2), Some(2));
        assert_eq!(Rule::OneUnit.amount(3, 2), Some(1));
        assert_eq!(Rule::Standard.amount(0, 2), None);
        assert_eq!(Rule::Standard.amount(2, 0), None);
    }
}
