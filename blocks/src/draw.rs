//! The board for a terminal: the letter grid in a frame, with a gap in the frame where the goal piece
//! leaves (the sides its goal place touches; none for an arrangement goal or a goal place inside the board).
//!
//! ```text
//! +---------+
//! | A B B C |
//! | A B B C |
//! | D E E F |
//! | D G H F |
//! | I . . J |
//! +---    --+
//! ```

use crate::level::{Axis, Goal, Level};

/// Which cells of the frame are open where the goal piece leaves: per column at the top and bottom, per row
/// at the left and right.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Exit {
    /// Columns open at the top.
    pub top: Vec<bool>,
    /// Columns open at the bottom.
    pub bottom: Vec<bool>,
    /// Rows open on the left.
    pub left: Vec<bool>,
    /// Rows open on the right.
    pub right: Vec<bool>,
}

/// The sides of the board the goal piece's goal place touches (none for an arrangement goal).
pub fn exit(level: &Level) -> Exit {
    let (rows, cols) = (level.rows(), level.cols());
    let mut exit =
        Exit { top: vec![false; cols], bottom: vec![false; cols], left: vec![false; rows], right: vec![false; rows] };
    if let Goal::Place { piece, row, col } = *level.goal() {
        let p = &level.pieces()[piece];
        let (across, down) = (col..col + p.width, row..row + p.height);
        if row == 0 {
            across.clone().for_each(|c| exit.top[c] = true);
        }
        if row + p.height == rows {
            across.for_each(|c| exit.bottom[c] = true);
        }
        if col == 0 {
            down.clone().for_each(|r| exit.left[r] = true);
        }
        if col + p.width == cols {
            down.for_each(|r| exit.right[r] = true);
        }
    }
    exit
}

/// `level` at its start, drawn (see the module doc); lines end in `\n`.
///
/// ```
/// let level = blocks::parse_level("....../....../.aa.../....../....../...... A@2,4", "").unwrap();
/// assert_eq!(blocks::draw(&level).lines().nth(3), Some("| . a a . . .  "), "the exit: row 2's right side");
/// ```
pub fn draw(level: &Level) -> String {
    let Exit { top, bottom, left, right } = exit(level);
    let edge = |open: &[bool]| {
        let mut line = String::from("+-");
        for &o in open {
            line.push_str(if o { "  " } else { "--" });
        }
        line.push_str("+\n");
        line
    };
    let mut out = edge(&top);
    for (r, line) in level.layout(level.start()).iter().enumerate() {
        out.push(if left[r] { ' ' } else { '|' });
        for c in line.chars() {
            out.push(' ');
            out.push(c);
        }
        out.push(' ');
        out.push(if right[r] { ' ' } else { '|' });
        out.push('\n');
    }
    out + &edge(&bottom)
}

/// One piece as a page draws it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct PiecePicture {
    /// Its letter.
    pub letter: char,
    /// Its top-left row.
    pub row: usize,
    /// Its top-left column.
    pub col: usize,
    /// Rows it covers.
    pub height: usize,
    /// Columns it covers.
    pub width: usize,
    /// `free`, `horizontal` or `vertical`.
    pub axis: &'static str,
    /// Whether it is the piece the goal names.
    pub target: bool,
}

/// A level's start as data a page draws from (and serialises as JSON): the board, the walls, the pieces,
/// the goal and the exit.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Picture {
    /// Rows of the board.
    pub rows: usize,
    /// Columns of the board.
    pub cols: usize,
    /// The wall cells, `[row, col]`.
    pub walls: Vec<[usize; 2]>,
    /// The pieces at the start.
    pub pieces: Vec<PiecePicture>,
    /// The goal in the text form's syntax (`B@3,1`, or `=ROWS`).
    pub goal: String,
    /// Where the frame opens for the goal piece.
    pub exit: Exit,
}

/// `level`'s start as a [`Picture`].
///
/// ```
/// let picture = blocks::draw::picture(&blocks::parse_input("heng-dao-li-ma").unwrap());
/// let json = serde_json::to_value(&picture).unwrap();
/// assert_eq!(json["goal"], "B@3,1");
/// assert_eq!(json["pieces"].as_array().unwrap().len(), 10);
/// ```
pub fn picture(level: &Level) -> Picture {
    let target = match level.goal() {
        Goal::Place { piece, .. } => Some(*piece),
        Goal::Layout(_) => None,
    };
    let pieces = level
        .pieces()
        .iter()
        .zip(level.start())
        .enumerate()
        .map(|(i, (p, &(row, col)))| PiecePicture {
            letter: p.letter,
            row,
            col,
            height: p.height,
            width: p.width,
            axis: match p.axis {
                Axis::Free => "free",
                Axis::Horizontal => "horizontal",
                Axis::Vertical => "vertical",
            },
            target: target == Some(i),
        })
        .collect();
    let walls = crate::board::bits(level.walls()).map(|c| {
        let (r, c) = crate::board::row_col(c);
        [r, c]
    });
    let text = level.to_text();
    let goal = text.split(' ').nth(1).unwrap_or_default().to_string();
    Picture { rows: level.rows(), cols: level.cols(), walls: walls.collect(), pieces, goal, exit: exit(level) }
}
