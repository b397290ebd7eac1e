//! Levels: the text and JSON forms, the checks that make a level well formed, and the text it is written
//! back in.
//!
//! # Text form
//!
//! `ROWS GOAL [OPTION]`, separated by spaces:
//!
//! * `ROWS`: the board's rows top to bottom, joined by `/`. A letter is a cell of the piece of that name,
//!   `.` an empty cell, `#` a wall. A piece is a rectangle of one letter; a piece written in lowercase is
//!   locked to its long axis (a Rush Hour car: a 1x3 `ccc` moves only left and right), so a lowercase piece
//!   must not be square. Pieces are named by their letter in capitals everywhere else (goal, moves).
//! * `GOAL`: `P@ROW,COL`, piece `P` with its top-left cell at (ROW, COL), counted from 0 (Klotski's
//!   `B@3,1`, Rush Hour's `A@2,4`); or `=ROWS`, a whole arrangement in the `ROWS` syntax, same board, same
//!   walls, the same pieces with the same shapes.
//! * `OPTION`: `distinct` makes every piece its own; `distinct=GH` makes pieces G and H their own. Without
//!   it, pieces of the same shape and lock are interchangeable (four Klotski soldiers are one kind), except
//!   the goal piece, which is always its own.
//!
//! 横刀立马: `ABBC/ABBC/DEEF/DGHF/I..J B@3,1`.
//!
//! # JSON form
//!
//! An object: `{"rows": ["ABBC", "ABBC", "DEEF", "DGHF", "I..J"], "goal": "B@3,1"}`, with optional
//! `"name": "..."` and `"distinct": true` (every piece) or `"distinct": "GH"`. `rows` are the rows of the
//! text form, `goal` its goal (`"=ABBC/..."` for an arrangement); unknown fields are refused.

use crate::board::{cell, rectangle, row_col, Cells, MAX_SIDE};
use thiserror::Error;

/// Most pieces: a state packs each piece's top-left cell in 6 bits of a `u128`.
pub const MAX_PIECES: usize = 21;

/// Which way a piece may move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Axis {
    /// Any of the four directions (Klotski).
    Free,
    /// Left and right only (a horizontal Rush Hour car).
    Horizontal,
    /// Up and down only.
    Vertical,
}

/// One piece: a rectangle with a letter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Piece {
    /// Its name, a capital letter.
    pub letter: char,
    /// Rows it covers.
    pub height: usize,
    /// Columns it covers.
    pub width: usize,
    /// How it may move.
    pub axis: Axis,
    /// Its kind: pieces of one kind are interchangeable. Kinds are numbered from 0 in piece order.
    pub kind: usize,
}

impl Piece {
    /// Its cells with its top-left at bit 0.
    pub fn shape(&self) -> Cells {
        rectangle(self.height, self.width)
    }
}

/// What solves a level.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Goal {
    /// A piece (an index into [`Level::pieces`]) with its top-left at (row, col).
    Place {
        /// The piece's index.
        piece: usize,
        /// Row of its top-left cell.
        row: usize,
        /// Column of its top-left cell.
        col: usize,
    },
    /// Every piece's top-left cell (indexed as [`Level::pieces`]); interchangeable pieces may swap.
    Layout(Vec<(usize, usize)>),
}

/// Which pieces the level marks as their own kind, as the text form says it.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum Distinct {
    /// Only the goal piece (the default).
    #[default]
    Default,
    /// Every piece.
    All,
    /// These pieces (capital letters), besides the goal piece.
    Some(String),
}

/// A well-formed level. Pieces are ordered by kind, and by letter within a kind, so that each kind is a
/// run of consecutive indices.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Level {
    name: String,
    rows: usize,
    cols: usize,
    walls: Cells,
    pieces: Vec<Piece>,
    start: Vec<(usize, usize)>,
    goal: Goal,
    distinct: Distinct,
}

/// What is wrong with a level, and where (rows and columns counted from 0).
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum LevelError {
    /// Nothing to read.
    #[error("empty level: expected ROWS GOAL, e.g. ABBC/ABBC/DEEF/DGHF/I..J B@3,1")]
    Empty,
    /// No goal after the rows.
    #[error("no goal after the rows: add P@ROW,COL or =ROWS")]
    NoGoal,
    /// A row of another length than the first.
    #[error("{what}row {row} has {len} cells, but row 0 has {expected}: every row must be as long")]
    Ragged {
        /// `goal layout: ` when it is in the goal, else empty.
        what: &'static str,
        /// The row.
        row: usize,
        /// Its cells.
        len: usize,
        /// The first row's.
        expected: usize,
    },
    /// More than 8 rows or columns.
    #[error(
        "the board is {rows}x{cols}: at most {MAX_SIDE}x{MAX_SIDE} (a board's cells are the bits of a 64-bit word)"
    )]
    TooBig {
        /// Rows given.
        rows: usize,
        /// Columns given.
        cols: usize,
    },
    /// A character that is no piece, `.` or `#`.
    #[error("{what}row {row}, col {col}: unknown character {found:?} (letters are pieces, lowercase ones locked to their long axis, `.` empty, `#` a wall)")]
    BadCharacter {
        /// `goal layout: ` or empty.
        what: &'static str,
        /// Where.
        row: usize,
        /// Where.
        col: usize,
        /// What.
        found: char,
    },
    /// A letter whose cells are connected but do not fill their bounding rectangle.
    #[error("{what}piece {letter} is not a rectangle: row {row}, col {col} inside its bounds is not its")]
    NotRectangle {
        /// `goal layout: ` or empty.
        what: &'static str,
        /// The piece.
        letter: char,
        /// A cell of its bounding box that is not the piece's.
        row: usize,
        /// Same.
        col: usize,
    },
    /// A letter used for two separate regions.
    #[error("{what}piece {letter} is two separate regions: row {row}, col {col} is apart from the cells at row {first_row}, col {first_col}")]
    TwoRegions {
        /// `goal layout: ` or empty.
        what: &'static str,
        /// The piece.
        letter: char,
        /// A cell not connected to the first.
        row: usize,
        /// Same.
        col: usize,
        /// The piece's first cell (reading order).
        first_row: usize,
        /// Same.
        first_col: usize,
    },
    /// A piece written in both capitals and lowercase.
    #[error(
        "{what}piece {letter} mixes capitals and lowercase (at row {row}, col {col}): lowercase locks the whole piece"
    )]
    MixedCase {
        /// `goal layout: ` or empty.
        what: &'static str,
        /// The piece.
        letter: char,
        /// The first cell of the other case.
        row: usize,
        /// Same.
        col: usize,
    },
    /// A lowercase (locked) piece that is square, so has no long axis.
    #[error("piece {letter} (row {row}, col {col}) is {size}x{size} and lowercase: a square piece has no long axis to lock to (write it in capitals)")]
    LockedSquare {
        /// The piece.
        letter: char,
        /// Its top-left cell.
        row: usize,
        /// Same.
        col: usize,
        /// Its side.
        size: usize,
    },
    /// No piece at all.
    #[error("the board has no piece")]
    NoPieces,
    /// More pieces than a state packs.
    #[error("{count} pieces: at most {MAX_PIECES} (a state packs each piece's cell in 6 bits of 128)")]
    TooManyPieces {
        /// Pieces given.
        count: usize,
    },
    /// A goal in neither form.
    #[error("goal {text:?}: expected P@ROW,COL (e.g. B@3,1) or =ROWS")]
    BadGoal {
        /// The goal as given.
        text: String,
    },
    /// A goal naming a letter that is no piece.
    #[error("goal {text:?}: there is no piece {letter}")]
    UnknownGoalPiece {
        /// The goal as given.
        text: String,
        /// The letter.
        letter: char,
    },
    /// The goal piece at its goal would leave the board.
    #[error("goal {text:?}: piece {letter} is {height}x{width}, so at row {row}, col {col} it leaves the {rows}x{cols} board")]
    GoalOutside {
        /// The goal as given.
        text: String,
        /// The piece.
        letter: char,
        /// Its rows.
        height: usize,
        /// Its columns.
        width: usize,
        /// The goal's row.
        row: usize,
        /// The goal's column.
        col: usize,
        /// The board's rows.
        rows: usize,
        /// The board's columns.
        cols: usize,
    },
    /// The goal piece at its goal would cover a wall.
    #[error("goal {text:?}: piece {letter} there covers the wall at row {row}, col {col}")]
    GoalOnWall {
        /// The goal as given.
        text: String,
        /// The piece.
        letter: char,
        /// The wall.
        row: usize,
        /// Same.
        col: usize,
    },
    /// A goal arrangement that is not the start's board and pieces rearranged.
    #[error("goal layout: {0}")]
    LayoutMismatch(String),
    /// An option that is not `distinct` or `distinct=LETTERS`, or text after it.
    #[error("unknown option {text:?} after the goal (options: distinct, distinct=LETTERS)")]
    BadOption {
        /// What was given.
        text: String,
    },
    /// `distinct=` naming a letter that is no piece.
    #[error("distinct: there is no piece {letter}")]
    UnknownDistinct {
        /// The letter.
        letter: char,
    },
    /// A name that is no built-in level.
    #[error("unknown level '{name}' (levels: {})", crate::levels::names().join(", "))]
    UnknownLevel {
        /// What was given.
        name: String,
    },
    /// JSON that does not parse or does not follow the schema.
    #[error("JSON: {0}")]
    Json(String),
}

/// A piece as read from the rows: letter, top-left, size, locked.
#[derive(Clone, Copy, Debug)]
struct Found {
    letter: char,
    row: usize,
    col: usize,
    height: usize,
    width: usize,
    locked: bool,
}

/// The cells of some rows: walls and pieces, in order of first appearance.
struct Grid {
    rows: usize,
    cols: usize,
    walls: Cells,
    pieces: Vec<Found>,
}

/// Reads `ROWS` (`what` prefixes errors: `goal layout: ` for a goal arrangement).
fn read_grid(rows: &[&str], what: &'static str) -> Result<Grid, LevelError> {
    let cells: Vec<Vec<char>> = rows.iter().map(|r| r.chars().collect()).collect();
    let expected = cells.first().map_or(0, Vec::len);
    if expected == 0 {
        return Err(LevelError::Empty);
    }
    if let Some((row, r)) = cells.iter().enumerate().find(|(_, r)| r.len() != expected) {
        return Err(LevelError::Ragged { what, row, len: r.len(), expected });
    }
    let (nrows, ncols) = (cells.len(), expected);
    if nrows > MAX_SIDE || ncols > MAX_SIDE {
        return Err(LevelError::TooBig { rows: nrows, cols: ncols });
    }
    let mut walls = 0;
    let mut letters: Vec<char> = Vec::new();
    for (row, r) in cells.iter().enumerate() {
        for (col, &c) in r.iter().enumerate() {
            match c {
                '.' => {}
                '#' => walls |= 1 << cell(row, col),
                c if c.is_ascii_alphabetic() => {
                    let upper = c.to_ascii_uppercase();
                    if !letters.contains(&upper) {
                        letters.push(upper);
                    }
                }
                found => return Err(LevelError::BadCharacter { what, row, col, found }),
            }
        }
    }
    let pieces = letters.iter().map(|&letter| read_piece(&cells, letter, what)).collect::<Result<_, _>>()?;
    Ok(Grid { rows: nrows, cols: ncols, walls, pieces })
}

/// The one rectangle of `letter` (either case) in `cells`.
fn read_piece(cells: &[Vec<char>], letter: char, what: &'static str) -> Result<Found, LevelError> {
    let at = |row: usize, col: usize| cells[row][col].to_ascii_uppercase() == letter;
    let mut mine = Vec::new();
    for (row, r) in cells.iter().enumerate() {
        for col in 0..r.len() {
            if at(row, col) {
                mine.push((row, col));
            }
        }
    }
    let (first_row, first_col) = mine[0];
    let locked = cells[first_row][first_col].is_ascii_lowercase();
    if let Some(&(row, col)) = mine.iter().find(|&&(r, c)| cells[r][c].is_ascii_lowercase() != locked) {
        return Err(LevelError::MixedCase { what, letter, row, col });
    }
    // Connected to the first cell?
    let mut reached = vec![mine[0]];
    let mut next = 0;
    while next < reached.len() {
        let (r, c) = reached[next];
        next += 1;
        for (dr, dc) in [(-1, 0), (1, 0), (0, -1), (0, 1)] {
            let (nr, nc) = (r as isize + dr, c as isize + dc);
            let neighbour = (nr as usize, nc as usize);
            if nr >= 0 && nc >= 0 && mine.contains(&neighbour) && !reached.contains(&neighbour) {
                reached.push(neighbour);
            }
        }
    }
    if let Some(&(row, col)) = mine.iter().find(|cell| !reached.contains(cell)) {
        return Err(LevelError::TwoRegions { what, letter, row, col, first_row, first_col });
    }
    let (top, bottom) = (mine.iter().map(|c| c.0).min().unwrap(), mine.iter().map(|c| c.0).max().unwrap());
    let (left, right) = (mine.iter().map(|c| c.1).min().unwrap(), mine.iter().map(|c| c.1).max().unwrap());
    for row in top..=bottom {
        for col in left..=right {
            if !at(row, col) {
                return Err(LevelError::NotRectangle { what, letter, row, col });
            }
        }
    }
    let (height, width) = (bottom - top + 1, right - left + 1);
    if locked && height == width {
        return Err(LevelError::LockedSquare { letter, row: top, col: left, size: height });
    }
    Ok(Found { letter, row: top, col: left, height, width, locked })
}

impl Found {
    fn axis(&self) -> Axis {
        match (self.locked, self.width > self.height) {
            (false, _) => Axis::Free,
            (true, true) => Axis::Horizontal,
            (true, false) => Axis::Vertical,
        }
    }
}

/// Parses one level in the text form (see the module doc), named `name`.
///
/// ```
/// let level = blocks::parse_level("ABBC/ABBC/DEEF/DGHF/I..J B@3,1", "heng-dao-li-ma").unwrap();
/// assert_eq!((level.rows(), level.cols(), level.pieces().len()), (5, 4, 10));
/// let err = blocks::parse_level("AB/BA B@0,0", "").unwrap_err();
/// assert_eq!(err.to_string(), "piece A is two separate regions: row 1, col 1 is apart from the cells at row 0, col 0");
/// ```
pub fn parse_level(text: &str, name: &str) -> Result<Level, LevelError> {
    let mut words = text.split_whitespace();
    let rows = words.next().ok_or(LevelError::Empty)?;
    let goal = words.next().ok_or(LevelError::NoGoal)?;
    let distinct = match (words.next(), words.next()) {
        (None, _) => Distinct::Default,
        (Some("distinct"), None) => Distinct::All,
        (Some(option), None) if option.starts_with("distinct=") && option.len() > "distinct=".len() => {
            Distinct::Some(option["distinct=".len()..].to_ascii_uppercase())
        }
        (Some(option), rest) => {
            let text = rest.map_or(option.to_string(), |r| format!("{option} {r}"));
            return Err(LevelError::BadOption { text });
        }
    };
    build(name, &rows.split('/').collect::<Vec<_>>(), goal, distinct)
}

/// The JSON form (see the module doc).
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct JsonLevel {
    #[serde(default)]
    name: Option<String>,
    rows: Vec<String>,
    goal: String,
    #[serde(default)]
    distinct: Option<JsonDistinct>,
}

#[derive(serde::Deserialize)]
#[serde(untagged)]
enum JsonDistinct {
    All(bool),
    Some(String),
}

/// Parses one level in the JSON form (see the module doc); `name` is used when the object has none.
///
/// ```
/// let level = blocks::parse_json(r#"{"rows": ["AAB", "..B"], "goal": "A@1,0"}"#, "tiny").unwrap();
/// assert_eq!(level.name(), "tiny");
/// ```
pub fn parse_json(text: &str, name: &str) -> Result<Level, LevelError> {
    let json: JsonLevel = serde_json::from_str(text).map_err(|e| LevelError::Json(e.to_string()))?;
    let distinct = match json.distinct {
        None | Some(JsonDistinct::All(false)) => Distinct::Default,
        Some(JsonDistinct::All(true)) => Distinct::All,
        Some(JsonDistinct::Some(letters)) => Distinct::Some(letters.to_ascii_uppercase()),
    };
    let rows: Vec<&str> = json.rows.iter().map(String::as_str).collect();
    build(json.name.as_deref().unwrap_or(name), &rows, &json.goal, distinct)
}

/// A level given any way a user may: a built-in level's name, a JSON object (starting with `{`), or the
/// text form.
///
/// ```
/// let level = blocks::parse_input("heng-dao-li-ma").unwrap();
/// assert_eq!(level.to_text(), "ABBC/ABBC/DEEF/DGHF/I..J B@3,1");
/// assert_eq!(blocks::parse_input("no-such").unwrap_err().to_string().split(" (").next(), Some("unknown level 'no-such'"));
/// ```
pub fn parse_input(text: &str) -> Result<Level, LevelError> {
    let text = text.trim();
    if text.starts_with('{') {
        return parse_json(text, "");
    }
    if !text.contains(char::is_whitespace) && !text.contains('/') {
        let builtin = crate::levels::find(text).ok_or_else(|| LevelError::UnknownLevel { name: text.to_string() })?;
        return parse_level(builtin.text, builtin.name);
    }
    parse_level(text, "")
}

fn build(name: &str, rows: &[&str], goal: &str, distinct: Distinct) -> Result<Level, LevelError> {
    let grid = read_grid(rows, "")?;
    if grid.pieces.is_empty() {
        return Err(LevelError::NoPieces);
    }
    if grid.pieces.len() > MAX_PIECES {
        return Err(LevelError::TooManyPieces { count: grid.pieces.len() });
    }
    let has = |letter: char| grid.pieces.iter().any(|p| p.letter == letter);
    if let Distinct::Some(letters) = &distinct {
        if let Some(letter) = letters.chars().find(|&l| !has(l)) {
            return Err(LevelError::UnknownDistinct { letter });
        }
    }
    // The goal: a piece's place (that piece its own kind), or an arrangement.
    enum Wanted {
        Place(char, usize, usize),
        Layout(Grid),
    }
    let wanted = if let Some(layout) = goal.strip_prefix('=') {
        let target = read_grid(&layout.split('/').collect::<Vec<_>>(), "goal layout: ")?;
        Wanted::Layout(target)
    } else {
        let bad = || LevelError::BadGoal { text: goal.to_string() };
        let (letter, place) = goal.split_once('@').ok_or_else(bad)?;
        let (row, col) = place.split_once(',').ok_or_else(bad)?;
        let mut letter_chars = letter.chars();
        let (Some(letter), None) = (letter_chars.next(), letter_chars.next()) else { return Err(bad()) };
        let (Ok(row), Ok(col)) = (row.parse::<usize>(), col.parse::<usize>()) else { return Err(bad()) };
        let letter = letter.to_ascii_uppercase();
        if !letter.is_ascii_alphabetic() || !has(letter) {
            return Err(LevelError::UnknownGoalPiece { text: goal.to_string(), letter });
        }
        Wanted::Place(letter, row, col)
    };
    let own = |p: &Found| match (&distinct, &wanted) {
        (Distinct::All, _) => true,
        (_, Wanted::Place(target, ..)) if *target == p.letter => true,
        (Distinct::Some(letters), _) => letters.contains(p.letter),
        _ => false,
    };
    // Kinds: a shape and lock shared by pieces not marked their own; ordered by their first letter.
    let mut found = grid.pieces.clone();
    found.sort_by_key(|p| p.letter);
    let key = |p: &Found| if own(p) { (0, 0, Axis::Free, p.letter) } else { (p.height, p.width, p.axis(), '\0') };
    let mut kinds: Vec<(usize, usize, Axis, char)> = Vec::new();
    for p in &found {
        if !kinds.contains(&key(p)) {
            kinds.push(key(p));
        }
    }
    found.sort_by_key(|p| (kinds.iter().position(|k| *k == key(p)), p.letter));
    let pieces: Vec<Piece> = found
        .iter()
        .map(|p| Piece {
            letter: p.letter,
            height: p.height,
            width: p.width,
            axis: p.axis(),
            kind: kinds.iter().position(|k| *k == key(p)).unwrap(),
        })
        .collect();
    let start = found.iter().map(|p| (p.row, p.col)).collect();
    let goal = match wanted {
        Wanted::Place(letter, row, col) => {
            let piece = pieces.iter().position(|p| p.letter == letter).unwrap();
            let p = &pieces[piece];
            if row + p.height > grid.rows || col + p.width > grid.cols {
                let (height, width, rows, cols) = (p.height, p.width, grid.rows, grid.cols);
                return Err(LevelError::GoalOutside {
                    text: goal.to_string(),
                    letter,
                    height,
                    width,
                    row,
                    col,
                    rows,
                    cols,
                });
            }
            let on_wall = (p.shape() << cell(row, col)) & grid.walls;
            if on_wall != 0 {
                let (row, col) = row_col(on_wall.trailing_zeros() as u8);
                return Err(LevelError::GoalOnWall { text: goal.to_string(), letter, row, col });
            }
            Goal::Place { piece, row, col }
        }
        Wanted::Layout(target) => Goal::Layout(match_layout(&grid, &target, &pieces)?),
    };
    Ok(Level {
        name: name.to_string(),
        rows: grid.rows,
        cols: grid.cols,
        walls: grid.walls,
        pieces,
        start,
        goal,
        distinct,
    })
}

/// Each piece's top-left in the goal arrangement `target`, checked to be the start's board rearranged.
fn match_layout(start: &Grid, target: &Grid, pieces: &[Piece]) -> Result<Vec<(usize, usize)>, LevelError> {
    let mismatch = |text: String| Err(LevelError::LayoutMismatch(text));
    if (target.rows, target.cols) != (start.rows, start.cols) {
        return mismatch(format!("it is {}x{}, the board {}x{}", target.rows, target.cols, start.rows, start.cols));
    }
    if target.walls != start.walls {
        let (row, col) = row_col((target.walls ^ start.walls).trailing_zeros() as u8);
        return mismatch(format!("its walls differ from the board's at row {row}, col {col}"));
    }
    let mut places = Vec::new();
    for p in pieces {
        let Some(t) = target.pieces.iter().find(|t| t.letter == p.letter) else {
            return mismatch(format!("piece {} is missing", p.letter));
        };
        if (t.height, t.width, t.axis()) != (p.height, p.width, p.axis) {
            let (th, tw, ph, pw) = (t.height, t.width, p.height, p.width);
            return mismatch(format!(
                "piece {} is {th}x{tw}{} there but {ph}x{pw}{} at the start",
                p.letter,
                if t.locked { " locked" } else { "" },
                if p.axis != Axis::Free { " locked" } else { "" },
            ));
        }
        places.push((t.row, t.col));
    }
    if let Some(extra) = target.pieces.iter().find(|t| !pieces.iter().any(|p| p.letter == t.letter)) {
        return mismatch(format!("piece {} is not on the board", extra.letter));
    }
    Ok(places)
}

impl Level {
    /// Its name: a built-in level's, the JSON's, or what the caller gave.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The same level under another name.
    pub fn with_name(self, name: impl Into<String>) -> Level {
        Level { name: name.into(), ..self }
    }

    /// Rows of the board.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Columns of the board.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// The wall cells (bit `8 * row + col`).
    pub fn walls(&self) -> Cells {
        self.walls
    }

    /// The pieces, ordered by kind, then letter.
    pub fn pieces(&self) -> &[Piece] {
        &self.pieces
    }

    /// Each piece's top-left cell (row, col) at the start, indexed as [`Level::pieces`].
    pub fn start(&self) -> &[(usize, usize)] {
        &self.start
    }

    /// What solves it.
    pub fn goal(&self) -> &Goal {
        &self.goal
    }

    /// The index of the piece named `letter` (either case).
    pub fn piece_index(&self, letter: char) -> Option<usize> {
        let letter = letter.to_ascii_uppercase();
        self.pieces.iter().position(|p| p.letter == letter)
    }

    /// The same level with the pieces at `start` (indexed as [`Level::pieces`]): a position reached from
    /// this one by moves, which keep every piece on the board and off the others.
    pub fn with_start(&self, start: Vec<(usize, usize)>) -> Level {
        Level { start, ..self.clone() }
    }

    /// The board's rows with the pieces at `places`: letters (lowercase when locked), `.` and `#`.
    pub fn layout(&self, places: &[(usize, usize)]) -> Vec<String> {
        let mut grid = vec![vec!['.'; self.cols]; self.rows];
        for (row, line) in grid.iter_mut().enumerate() {
            for (col, c) in line.iter_mut().enumerate() {
                if self.walls >> cell(row, col) & 1 == 1 {
                    *c = '#';
                }
            }
        }
        for (p, &(row, col)) in self.pieces.iter().zip(places) {
            let letter = if p.axis == Axis::Free { p.letter } else { p.letter.to_ascii_lowercase() };
            for line in &mut grid[row..row + p.height] {
                line[col..col + p.width].fill(letter);
            }
        }
        grid.into_iter().map(|line| line.into_iter().collect()).collect()
    }

    /// The level in the text form, which [`parse_level`] reads back to the same level.
    pub fn to_text(&self) -> String {
        let goal = match &self.goal {
            Goal::Place { piece, row, col } => format!("{}@{row},{col}", self.pieces[*piece].letter),
            Goal::Layout(places) => format!("={}", self.layout(places).join("/")),
        };
        let option = match &self.distinct {
            Distinct::Default => String::new(),
            Distinct::All => " distinct".to_string(),
            Distinct::Some(letters) => format!(" distinct={letters}"),
        };
        format!("{} {goal}{option}", self.layout(&self.start).join("/"))
    }
}
