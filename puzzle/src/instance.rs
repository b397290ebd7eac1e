//! Reading instances: a bare list of tiles, or Korf's `id optimal_length t0 .. tN` lines. The tiles may be
//! written as a Python list (`[1, 2, 3, ...]`, or nested, a list a row), or in the speedsolvers' scramble
//! form, rows separated by `/` (`1 2 3/4 5 0`), which is written for their goal, the blank last: see
//! [`form_goal`]. Rows, however written, give the board ([`form_board`]).

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
    /// A word that is not a tile (nor, first on a line, an id), and where it is: the n-th word, from 1.
    #[error("'{word}' is not a tile (word {at} of the position)")]
    NotATile {
        /// The word as written.
        word: String,
        /// Its place among the position's words, from 1.
        at: usize,
    },
    /// Rows written apart (`/` or a list a row) of different lengths.
    #[error("row {row} has {len} tiles, but row 1 has {first}: every row of a board is as long")]
    RaggedRows {
        /// The row that differs, from 1.
        row: usize,
        /// Its tiles.
        len: usize,
        /// The first row's tiles.
        first: usize,
    },
    /// Rows written apart that are not the board's.
    #[error("the rows written have {cols} tiles each, but a {board} board's rows have {}", .board.cols())]
    RowsNotTheBoards {
        /// Tiles a row written.
        cols: usize,
        /// The board the position was read for.
        board: Board,
    },
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

/// Parses a tile list (whitespace or commas, a Python list, or rows apart) into a checked, solvable state.
pub fn parse_tiles(board: Board, goal: Goal, text: &str) -> Result<State, InstanceError> {
    let form = Form::read(text);
    let tokens = &form.words;
    if tokens.len() != board.cells() {
        first_non_number(tokens, 0)?;
        return Err(InstanceError::WrongTileCount { expected: board.cells(), found: tokens.len() });
    }
    form.fits(board, 0)?;
    state_from_tokens(board, goal, tokens, 0)
}

/// Parses one line of an instance file. `Ok(None)` for blank lines and `#` comments. A line holds either
/// the tiles alone or `id optimal_length tiles...` (Korf's format).
pub fn parse_line(board: Board, goal: Goal, line: &str) -> Result<Option<Instance>, InstanceError> {
    let form = Form::read(line.split('#').next().unwrap_or(""));
    let tokens = &form.words;
    let n = board.cells();
    if tokens.is_empty() {
        return Ok(None);
    }
    let (id, optimal, skip) = if tokens.len() == n + 2 {
        let optimal = tokens[1].parse().map_err(|_| InstanceError::BadLength(tokens[1].to_string()))?;
        (Some(tokens[0].to_string()), Some(optimal), 2)
    } else if tokens.len() == n {
        (None, None, 0)
    } else {
        // A word that is not a number says more than the count does (the first may be an id).
        first_non_number(&tokens[1..], 1)?;
        return Err(InstanceError::WrongCount { expected: n, found: tokens.len() });
    };
    form.fits(board, skip)?;
    let state = state_from_tokens(board, goal, &tokens[skip..], skip)?;
    Ok(Some(Instance { id, optimal, state }))
}

/// The words of an instance line: numbers (or an id) separated by whitespace or commas, without the
/// brackets of a Python list or the `/` between rows, up to a `#` comment.
pub fn words(line: &str) -> Vec<&str> {
    Form::read(line.split('#').next().unwrap_or("")).words
}

/// The goal a position's form brings: the speedsolvers' rows apart (`1 2 3/4 5 0`) are written for their
/// goal, `1 2 ... 0` ([`Goal::BlankLast`]); any other form brings none.
pub fn form_goal(line: &str) -> Option<Goal> {
    Form::read(line.split('#').next().unwrap_or("")).slashes.then_some(Goal::BlankLast)
}

/// The board a position's rows say, when they are written apart (`/` between them, or a list a row):
/// `1 2 3/4 5 0` is on 2x3. Rows of different lengths (after an id and a length before the first) are an
/// error; rows that make no board (over 25 cells) say none.
pub fn form_board(line: &str) -> Result<Option<Board>, InstanceError> {
    let form = Form::read(line.split('#').next().unwrap_or(""));
    let Some(rows) = form.rows.as_ref() else { return Ok(None) };
    let cols = rows[rows.len() - 1];
    let skip = if rows[0] == cols + 2 { 2 } else { 0 };
    if let Some((row, len, first)) = form.ragged(skip) {
        return Err(InstanceError::RaggedRows { row, len, first });
    }
    Ok(Board::new(rows.len(), cols).ok())
}

/// A position's words and the rows they were written in.
struct Form<'a> {
    /// The words: tiles, or an id and a length and tiles.
    words: Vec<&'a str>,
    /// The words of each row, when two or more rows are written apart.
    rows: Option<Vec<usize>>,
    /// Whether the rows are apart by `/` (the speedsolvers' form).
    slashes: bool,
}

impl<'a> Form<'a> {
    /// Reads `text` (no comment): words apart by whitespace or commas, brackets at their edges (a Python
    /// list's) and `/` within words of digits (the scramble form's) taken off; rows by `/` or by the inner
    /// lists of a nested list. A word of other characters (an id) is kept whole, brackets or `/` and all.
    fn read(text: &'a str) -> Form<'a> {
        let mut words = Vec::new();
        let mut rows: Vec<usize> = Vec::new();
        let (mut depth, mut row_start, mut slashes, mut nested) = (0usize, 0usize, false, false);
        let end_row = |rows: &mut Vec<usize>, row_start: &mut usize, words: usize| {
            if words > *row_start {
                rows.push(words - *row_start);
            }
            *row_start = words;
        };
        for raw in text.split(|c: char| c.is_whitespace() || c == ',').filter(|w| !w.is_empty()) {
            let inner = raw.trim_start_matches('[');
            // An id and a length before a nested list count with its first row, as with `/`.
            depth += raw.len() - inner.len();
            nested |= depth >= 2;
            let core = inner.trim_end_matches(']');
            if core.contains('/') && core.chars().all(|c| c.is_ascii_digit() || c == '/') {
                for (k, part) in core.split('/').enumerate() {
                    if k > 0 {
                        slashes = true;
                        end_row(&mut rows, &mut row_start, words.len());
                    }
                    if !part.is_empty() {
                        words.push(part);
                    }
                }
            } else if !core.is_empty() {
                words.push(core);
            }
            for _ in 0..inner.len() - core.len() {
                if depth == 2 {
                    end_row(&mut rows, &mut row_start, words.len());
                }
                depth = depth.saturating_sub(1);
            }
        }
        if slashes || nested {
            end_row(&mut rows, &mut row_start, words.len());
        }
        let rows = (rows.len() >= 2).then_some(rows);
        Form { words, slashes: slashes && rows.is_some(), rows }
    }

    /// The first row (from 1) whose length differs from the first's, the first counted without the `skip`
    /// words of an id and a length: `(row, its length, the first's)`.
    fn ragged(&self, skip: usize) -> Option<(usize, usize, usize)> {
        let rows = self.rows.as_ref()?;
        let first = rows[0].checked_sub(skip)?;
        rows.iter().enumerate().skip(1).find(|(_, &len)| len != first).map(|(r, &len)| (r + 1, len, first))
    }

    /// Checks rows written apart against `board` (`skip`: the words of an id and a length before them).
    fn fits(&self, board: Board, skip: usize) -> Result<(), InstanceError> {
        if let Some((row, len, first)) = self.ragged(skip) {
            return Err(InstanceError::RaggedRows { row, len, first });
        }
        match self.rows.as_ref().map(|rows| rows[rows.len() - 1]) {
            Some(cols) if cols != board.cols() => Err(InstanceError::RowsNotTheBoards { cols, board }),
            _ => Ok(()),
        }
    }
}

/// The first word that is not a number, as the error (`before`: the words before `tokens`).
fn first_non_number(tokens: &[&str], before: usize) -> Result<(), InstanceError> {
    match tokens.iter().position(|t| t.parse::<u64>().is_err()) {
        Some(i) => Err(InstanceError::NotATile { word: tokens[i].to_string(), at: before + i + 1 }),
        None => Ok(()),
    }
}

/// The first word of `line` that is neither a tile nor, first, an id: what to say of a line before its
/// count of tiles is looked at (a stray word makes a count no board has).
pub fn stray_word(line: &str) -> Option<InstanceError> {
    let tokens = words(line);
    let number = |t: &&str| t.parse::<u64>().is_ok();
    // `id length tiles`: the id may be any word, the length must be a number.
    let skip = usize::from(!tokens.first().is_none_or(number) && tokens.get(1).is_some_and(number));
    first_non_number(&tokens[skip..], skip).err()
}

fn state_from_tokens(board: Board, goal: Goal, tokens: &[&str], before: usize) -> Result<State, InstanceError> {
    let mut seen = 0u64;
    let mut tiles = Vec::with_capacity(tokens.len());
    for (i, tok) in tokens.iter().enumerate() {
        let t: u64 = tok.parse().map_err(|_| InstanceError::NotATile { word: tok.to_string(), at: before + i + 1 })?;
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
        assert_eq!(line("hello world"), "'world' is not a tile (word 2 of the position)");
        assert_eq!(line("x 1 2 y"), "'y' is not a tile (word 4 of the position)");
        let tiles = |t: &str| parse_tiles(Board::FOUR, Goal::BlankFirst, t).unwrap_err().to_string();
        assert_eq!(tiles("1 2 3"), "expected 16 tiles, found 3");
        assert_eq!(tiles("hello world"), "'hello' is not a tile (word 1 of the position)");
        assert_eq!(err("14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 x"), "'x' is not a tile (word 16 of the position)");
        assert_eq!(
            err("14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 16"),
            "tile 16 is out of range: a 4x4 board has tiles 0 to 15"
        );
        assert_eq!(err("14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 10"), "tile 10 appears twice");
        assert!(err("0 2 1 3 4 5 6 7 8 9 10 11 12 13 14 15").starts_with("no sequence of moves reaches the goal"));
        let bad_len = parse_line(b, Goal::BlankFirst, &format!("7 abc {KORF1}")).unwrap_err();
        assert_eq!(bad_len.to_string(), "the optimal length 'abc' is not a number");
    }

    /// A Python list, flat or a list a row, reads as the tiles it lists; nested lists and `/` give rows, and
    /// so the board; only `/` brings a goal (the speedsolvers' blank-last).
    #[test]
    fn lists_and_rows_apart_read_as_their_tiles() {
        let b3 = Board::new(3, 3).unwrap();
        let plain = parse_tiles(b3, Goal::BlankFirst, "8 2 0 4 6 1 3 7 5").unwrap();
        for text in ["[8, 2, 0, 4, 6, 1, 3, 7, 5]", "[[8,2,0],[4,6,1],[3,7,5]]", "[[8, 2, 0], [4, 6, 1], [3, 7, 5]]"] {
            assert_eq!(parse_tiles(b3, Goal::BlankFirst, text), Ok(plain), "{text}");
            assert_eq!(form_goal(text), None, "{text}");
        }
        assert_eq!(form_board("[[8,2,0],[4,6,1],[3,7,5]]"), Ok(Some(b3)));
        assert_eq!(form_board("[8, 2, 0, 4, 6, 1, 3, 7, 5]"), Ok(None));
        let line = parse_line(b3, Goal::BlankFirst, "e 20 [[8,2,0],[4,6,1],[3,7,5]]").unwrap().unwrap();
        assert_eq!((line.id.as_deref(), line.optimal, line.state), (Some("e"), Some(20), plain));
        assert_eq!(form_board("e 20 [[8,2,0],[4,6,1],[3,7,5]]"), Ok(Some(b3)));

        let scramble = "1 2 3 4/5 6 7 8/9 10 11 12/13 14 15 0";
        assert_eq!((form_goal(scramble), form_board(scramble)), (Some(Goal::BlankLast), Ok(Some(Board::FOUR))));
        assert!(parse_tiles(Board::FOUR, Goal::BlankLast, scramble).unwrap().is_goal());
        let wide = Board::new(2, 3).unwrap();
        assert_eq!((form_goal("1 2 3/4 5 0"), form_board("1 2 3/4 5 0")), (Some(Goal::BlankLast), Ok(Some(wide))));
        assert_eq!(form_board("x 7 1 2 3/4 5 0"), Ok(Some(wide)));
        assert_eq!(
            form_board("1 2 3/4 5 0 6").unwrap_err().to_string(),
            "row 2 has 4 tiles, but row 1 has 3: every row of a board is as long"
        );
        assert_eq!(form_board("1 2 3/4 5 6/7 8 9/10 11 12/13 14 15/16 17 18/19 20 21/22 23 24/25 26 0"), Ok(None));
        assert_eq!(form_goal("1 2 3 4 5 0"), None);
        let err = |board: Board, s: &str| parse_tiles(board, Goal::BlankLast, s).unwrap_err().to_string();
        assert_eq!(
            err(Board::new(2, 4).unwrap(), "1 2 3/4 5 6 7 0"),
            "row 2 has 5 tiles, but row 1 has 3: every row of a board is as long"
        );
        assert_eq!(
            err(Board::new(3, 2).unwrap(), "1 2 3/4 5 0"),
            "the rows written have 3 tiles each, but a 3x2 board's rows have 2"
        );
    }

    /// A word that is no tile is named with its place, before any count of tiles is looked at.
    #[test]
    fn a_stray_word_is_named_with_its_place() {
        assert_eq!(
            stray_word("1 2 3 4 5 6 7 8 0 x").map(|e| e.to_string()).as_deref(),
            Some("'x' is not a tile (word 10 of the position)")
        );
        assert_eq!(stray_word("id 7 1 2 3 4 5 6 7 8 0"), None);
        assert_eq!(
            stray_word("id x 1 2 3").map(|e| e.to_string()).as_deref(),
            Some("'id' is not a tile (word 1 of the position)")
        );
        assert_eq!(stray_word("[1, 2, 3] # a comment"), None);
        // An id keeps its brackets and slashes: only numbers' are taken off.
        assert_eq!(words("a[1]/b 7 [1,2]"), ["a[1]/b", "7", "1", "2"]);
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
