//! Reading instances: a bare list of tiles, or Korf's `id optimal_length t0 .. tN` lines.

use crate::board::Board;
use crate::state::State;
use std::str::FromStr;

/// Which goal the input is written for. Internally everything uses `BlankFirst` (Korf's).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Goal {
    /// `0 1 2 ... N-1`: blank top-left.
    #[default]
    BlankFirst,
    /// `1 2 ... N-1 0`: blank bottom-right.
    BlankLast,
}

impl Goal {
    /// The name options and files use: `blank-first` or `blank-last`.
    pub fn name(self) -> &'static str {
        match self {
            Goal::BlankFirst => "blank-first",
            Goal::BlankLast => "blank-last",
        }
    }

    /// The other convention: what a position unsolvable toward this goal may have been written for.
    pub fn other(self) -> Goal {
        match self {
            Goal::BlankFirst => Goal::BlankLast,
            Goal::BlankLast => Goal::BlankFirst,
        }
    }

    /// Maps a tile list written for this goal to the internal goal. `BlankLast` input is rotated by 180
    /// degrees and tile `t` renamed `N - t`: an exact symmetry, so every distance is preserved.
    pub fn to_internal(self, tiles: &[u8]) -> Vec<u8> {
        match self {
            Goal::BlankFirst => tiles.to_vec(),
            Goal::BlankLast => {
                let n = tiles.len() as u8;
                tiles.iter().rev().map(|&t| if t == 0 { 0 } else { n - t }).collect()
            }
        }
    }

    /// The user's name for an internal tile (the relabelling is its own inverse).
    pub fn user_tile(self, cells: usize, tile: u8) -> u8 {
        match self {
            Goal::BlankFirst => tile,
            Goal::BlankLast => cells as u8 - tile,
        }
    }

    /// The user's blank direction for an internal one (a half turn reverses every direction).
    pub fn user_dir(self, dir: crate::Dir) -> crate::Dir {
        match self {
            Goal::BlankFirst => dir,
            Goal::BlankLast => dir.opposite(),
        }
    }
}

impl FromStr for Goal {
    type Err = String;
    fn from_str(s: &str) -> Result<Goal, String> {
        match s {
            "blank-first" => Ok(Goal::BlankFirst),
            "blank-last" => Ok(Goal::BlankLast),
            _ => Err(format!("unknown goal '{s}' (expected blank-first or blank-last)")),
        }
    }
}

/// What is wrong with an instance.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InstanceError {
    /// A line of an instance file with neither the tiles alone nor id, length and tiles.
    #[error("expected {expected} tiles (or an id, an optimal length and {expected} tiles), found {found} word{}", if *found == 1 { "" } else { "s" })]
    WrongCount {
        /// The board's cells.
        expected: usize,
        /// Words on the line.
        found: usize,
    },
    /// A tile list (a position given alone) of the wrong length.
    #[error("expected {expected} tiles, found {found}")]
    WrongTileCount {
        /// The board's cells.
        expected: usize,
        /// Tiles given.
        found: usize,
    },
    /// A tile that is not a number.
    #[error("'{0}' is not a number")]
    NotANumber(String),
    /// A tile number the board does not have.
    #[error("tile {tile} is out of range: a {board} board has tiles 0 to {max}", max = .board.cells() - 1)]
    OutOfRange {
        /// The number read.
        tile: u64,
        /// The board it was read for.
        board: Board,
    },
    /// Not a permutation: this tile is there twice (and another is missing).
    #[error("tile {0} appears twice")]
    Duplicate(u8),
    /// The optimal-length column of an instance file is not a number.
    #[error("the optimal length '{0}' is not a number")]
    BadLength(String),
    /// The position is in the half of the permutations that the moves never connect to the goal.
    #[error("no sequence of moves reaches the goal from this position (it is unsolvable: the tiles' permutation parity does not match the blank's distance from its home cell)")]
    Unsolvable,
}

/// One instance read from a line, converted to the internal goal and checked solvable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Instance {
    /// The id from the file's first column, for records and reports.
    pub id: Option<String>,
    /// The published optimal length, checked against the solver's when given.
    pub optimal: Option<u32>,
    /// The position, in the internal (blank-first) goal convention.
    pub state: State,
}

/// Parses a tile list (whitespace or commas) into a checked, solvable state.
pub fn parse_tiles(board: Board, goal: Goal, text: &str) -> Result<State, InstanceError> {
    let tokens = tokens(text);
    if tokens.len() != board.cells() {
        first_non_number(&tokens)?;
        return Err(InstanceError::WrongTileCount { expected: board.cells(), found: tokens.len() });
    }
    state_from_tokens(board, goal, &tokens)
}

/// Parses one line of an instance file. `Ok(None)` for blank lines and `#` comments. A line holds either
/// the tiles alone or `id optimal_length tiles...` (Korf's format).
pub fn parse_line(board: Board, goal: Goal, line: &str) -> Result<Option<Instance>, InstanceError> {
    let tokens = words(line);
    let n = board.cells();
    if tokens.is_empty() {
        return Ok(None);
    }
    let (id, optimal, tiles) = if tokens.len() == n + 2 {
        let optimal = tokens[1].parse().map_err(|_| InstanceError::BadLength(tokens[1].to_string()))?;
        (Some(tokens[0].to_string()), Some(optimal), &tokens[2..])
    } else if tokens.len() == n {
        (None, None, &tokens[..])
    } else {
        // A word that is not a number says more than the count does (the first may be an id).
        first_non_number(&tokens[1..])?;
        return Err(InstanceError::WrongCount { expected: n, found: tokens.len() });
    };
    let state = state_from_tokens(board, goal, tiles)?;
    Ok(Some(Instance { id, optimal, state }))
}

/// The words of an instance line: numbers (or an id) separated by whitespace or commas, up to a `#` comment.
pub fn words(line: &str) -> Vec<&str> {
    tokens(line.split('#').next().unwrap_or(""))
}

fn tokens(text: &str) -> Vec<&str> {
    text.split(|c: char| c.is_whitespace() || c == ',').filter(|t| !t.is_empty()).collect()
}

/// The first word that is not a number, as the error.
fn first_non_number(tokens: &[&str]) -> Result<(), InstanceError> {
    match tokens.iter().find(|t| t.parse::<u64>().is_err()) {
        Some(t) => Err(InstanceError::NotANumber(t.to_string())),
        None => Ok(()),
    }
}

fn state_from_tokens(board: Board, goal: Goal, tokens: &[&str]) -> Result<State, InstanceError> {
    let mut seen = 0u64;
    let mut tiles = Vec::with_capacity(tokens.len());
    for tok in tokens {
        let t: u64 = tok.parse().map_err(|_| InstanceError::NotANumber(tok.to_string()))?;
        if t >= board.cells() as u64 {
            return Err(InstanceError::OutOfRange { tile: t, board });
        }
        if seen & 1 << t != 0 {
            return Err(InstanceError::Duplicate(t as u8));
        }
        seen |= 1 << t;
        tiles.push(t as u8);
    }
    let state = State::from_permutation(board, &goal.to_internal(&tiles));
    if !state.is_solvable() {
        return Err(InstanceError::Unsolvable);
    }
    Ok(state)
}

#[cfg(test)]
mod tests {
    use super::*;

    const KORF1: &str = "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3";

    #[test]
    fn reads_both_line_formats() {
        let a = parse_line(Board::FOUR, Goal::BlankFirst, KORF1).unwrap().unwrap();
        assert_eq!((a.id.as_deref(), a.optimal), (None, None));
        let b = parse_line(Board::FOUR, Goal::BlankFirst, &format!("1 57 {KORF1}  # Korf #1")).unwrap().unwrap();
        assert_eq!((b.id.as_deref(), b.optimal, b.state), (Some("1"), Some(57), a.state));
        let c = parse_tiles(Board::FOUR, Goal::BlankFirst, &KORF1.replace(' ', ",")).unwrap();
        assert_eq!(c, a.state);
        assert_eq!(parse_line(Board::FOUR, Goal::BlankFirst, "  # only a comment").unwrap(), None);
        assert_eq!(parse_line(Board::FOUR, Goal::BlankFirst, "").unwrap(), None);
    }

    #[test]
    fn every_bad_input_names_its_problem() {
        let b = Board::FOUR;
        let err = |s: &str| parse_tiles(b, Goal::BlankFirst, s).unwrap_err().to_string();
        let line = |s: &str| parse_line(b, Goal::BlankFirst, s).unwrap_err().to_string();
        assert_eq!(line("1 2 3"), "expected 16 tiles (or an id, an optimal length and 16 tiles), found 3 words");
        assert_eq!(line("7"), "expected 16 tiles (or an id, an optimal length and 16 tiles), found 1 word");
        assert_eq!(line("hello world"), "'world' is not a number");
        assert_eq!(line("x 1 2 y"), "'y' is not a number");
        let tiles = |t: &str| parse_tiles(Board::FOUR, Goal::BlankFirst, t).unwrap_err().to_string();
        assert_eq!(tiles("1 2 3"), "expected 16 tiles, found 3");
        assert_eq!(tiles("hello world"), "'hello' is not a number");
        assert_eq!(err("14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 x"), "'x' is not a number");
        assert_eq!(
            err("14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 16"),
            "tile 16 is out of range: a 4x4 board has tiles 0 to 15"
        );
        assert_eq!(err("14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 10"), "tile 10 appears twice");
        assert!(err("0 2 1 3 4 5 6 7 8 9 10 11 12 13 14 15").starts_with("no sequence of moves reaches the goal"));
        let bad_len = parse_line(b, Goal::BlankFirst, &format!("7 abc {KORF1}")).unwrap_err();
        assert_eq!(bad_len.to_string(), "the optimal length 'abc' is not a number");
    }

    #[test]
    fn blank_last_goal_converts_exactly() {
        let b = Board::FOUR;
        let goal = parse_tiles(b, Goal::BlankLast, "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0").unwrap();
        assert!(goal.is_goal());
        // One move from the blank-last goal: tile 15 slid right. Internally one move from the goal.
        let near = parse_tiles(b, Goal::BlankLast, "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15").unwrap();
        assert_eq!(near.manhattan(), 1);
        assert_eq!(Goal::BlankLast.user_tile(16, near.tiles()[0]), 15);
    }
}
