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

/// Reads pours as people write them: `1>3`, `1->3` or `1 -> 3`, tubes from 1, separated by commas or
/// spaces (the text `solve` prints reads back). An error names the piece that is not a pour.
pub fn parse_pours(text: &str) -> Result<Vec<Pour>, String> {
    let mut joined = text.replace("->", ">");
    while joined.contains(" >") || joined.contains("> ") {
        joined = joined.replace(" >", ">").replace("> ", ">");
    }
    joined
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|piece| !piece.is_empty())
        .map(|piece| {
            let tube = |s: &str| s.parse::<usize>().ok().filter(|&t| t >= 1).map(|t| t - 1);
            match piece.split_once('>') {
                Some((from, to)) => match (tube(from), tube(to)) {
                    (Some(from), Some(to)) => Ok(Pour { from, to }),
                    _ => Err(format!("'{piece}' is not a pour (tubes are numbered from 1, as in '1>3')")),
                },
                None => Err(format!("'{piece}' is not a pour (write a pour as '1>3': from tube 1 to tube 3)")),
            }
        })
        .collect()
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pours_read_in_every_written_form() {
        let p = |from, to| Pour { from, to };
        assert_eq!(parse_pours("1>3 2->4, 3 -> 1,4>2").unwrap(), vec![p(0, 2), p(1, 3), p(2, 0), p(3, 1)]);
        assert_eq!(parse_pours("  ").unwrap(), vec![]);
        let printed: Vec<String> = [p(0, 1), p(9, 2)].iter().map(ToString::to_string).collect();
        assert_eq!(parse_pours(&printed.join(", ")).unwrap(), vec![p(0, 1), p(9, 2)]);
        assert_eq!(parse_pours("1>3 0>2").unwrap_err(), "'0>2' is not a pour (tubes are numbered from 1, as in '1>3')");
        assert!(parse_pours("13").unwrap_err().contains("'13' is not a pour"));
        assert!(parse_pours("a>b").is_err());
    }
}
