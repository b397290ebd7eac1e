//! Pours on plain, unpacked tubes: the slow, obvious model that checks every solution before it is
//! returned and drives `--show`. Deliberately independent of the packed model the search uses.

use crate::level::Level;
use crate::rule::Rule;
use std::fmt;

/// One pour, tubes numbered from 0 in the level's own order (printed from 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Pour {
    /// The tube poured from.
    pub from: usize,
    /// The tube poured into.
    pub to: usize,
}

impl fmt::Display for Pour {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{} -> {}", self.from + 1, self.to + 1)
    }
}

/// Why a pour cannot be made.
#[derive(Clone, Debug, thiserror::Error, PartialEq, Eq)]
#[error("pour {pour} is not allowed: {why}")]
pub struct IllegalPour {
    /// The pour tried.
    pub pour: Pour,
    /// The rule it breaks.
    pub why: &'static str,
}

/// Tubes being played: colour indices bottom to top.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tubes {
    /// Units a tube holds.
    pub capacity: usize,
    /// Each tube's colour indices, bottom to top.
    pub tubes: Vec<Vec<u8>>,
}

impl Tubes {
    /// The level's tubes as it starts.
    pub fn new(level: &Level) -> Tubes {
        Tubes { capacity: level.capacity(), tubes: level.tubes().to_vec() }
    }

    /// Makes `pour` under `rule`, returning the units moved.
    pub fn pour(&mut self, pour: Pour, rule: Rule) -> Result<usize, IllegalPour> {
        let fail = |why| Err(IllegalPour { pour, why });
        let n = self.tubes.len();
        if pour.from >= n || pour.to >= n {
            return fail("no such tube");
        }
        if pour.from == pour.to {
            return fail("a tube cannot pour into itself");
        }
        let Some(&top) = self.tubes[pour.from].last() else { return fail("the source is empty") };
        if self.tubes[pour.to].last().is_some_and(|&c| c != top) {
            return fail("the destination's top colour differs");
        }
        let run = self.tubes[pour.from].iter().rev().take_while(|&&c| c == top).count();
        let free = self.capacity - self.tubes[pour.to].len();
        let Some(amount) = rule.amount(run, free) else { return fail("the rule forbids it (full, or run too long)") };
        let from = &mut self.tubes[pour.from];
        from.truncate(from.len() - amount);
        self.tubes[pour.to].extend(std::iter::repeat_n(top, amount));
        Ok(amount)
    }

    /// Every tube empty or full of one colour.
    pub fn is_solved(&self) -> bool {
        self.tubes.iter().all(|t| t.is_empty() || (t.len() == self.capacity && t.iter().all(|&c| c == t[0])))
    }
}

/// Replays `pours` on `level`: `Ok` when every pour is legal and the end is solved.
pub fn check(level: &Level, rule: Rule, pours: &[Pour]) -> Result<(), String> {
    let mut tubes = Tubes::new(level);
    for (i, &p) in pours.iter().enumerate() {
        tubes.pour(p, rule).map_err(|e| format!("move {}: {e}", i + 1))?;
    }
    if tubes.is_solved() {
        Ok(())
    } else {
        Err("the pours do not end in a solved position".into())
    }
}
