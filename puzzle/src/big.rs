//! Boards of any size from 2x2 to 16x16 (the optimal search's boards stop at 25 cells): reading and drawing
//! positions, replaying and checking solutions in the notations the solver prints, a proven lower bound
//! (Manhattan distance and linear conflicts), and a fast, not optimal, solver by reduction
//! ([`reduce`](crate::reduce)).
//!
//! Positions here are kept as the user writes them, in the user's goal convention ([`Goal`]): no relabelling,
//! so moves are read and printed in the user's own directions.

use crate::instance::Goal;
use crate::Dir;
use search::rng::SplitMix64;
use std::fmt;
use std::str::FromStr;

/// The longest side of a board here.
pub const MAX_SIDE: usize = 16;

/// A board's size, rows x columns, each 2 to [`MAX_SIDE`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Size {
    /// Rows.
    pub rows: usize,
    /// Columns.
    pub cols: usize,
}

impl Size {
    /// A size of `rows` x `cols`, if both are 2 to [`MAX_SIDE`].
    pub fn new(rows: usize, cols: usize) -> Result<Size, String> {
        if rows < 2 || cols < 2 {
            return Err(format!("board {rows}x{cols} is too narrow: a board has at least 2 rows and 2 columns"));
        }
        if rows > MAX_SIDE || cols > MAX_SIDE {
            return Err(format!("board {rows}x{cols} is too large: at most {MAX_SIDE} rows and {MAX_SIDE} columns"));
        }
        Ok(Size { rows, cols })
    }

    /// Cells, the blank's included.
    pub fn cells(self) -> usize {
        self.rows * self.cols
    }

    /// The board of the optimal search, when it has one (at most 25 cells).
    pub fn board(self) -> Option<crate::Board> {
        crate::Board::new(self.rows, self.cols).ok()
    }

    /// The cell the blank reaches from `cell` going `dir`, if on the board.
    pub fn step(self, cell: usize, dir: Dir) -> Option<usize> {
        let (r, c) = (cell / self.cols, cell % self.cols);
        match dir {
            Dir::Up if r > 0 => Some(cell - self.cols),
            Dir::Down if r + 1 < self.rows => Some(cell + self.cols),
            Dir::Left if c > 0 => Some(cell - 1),
            Dir::Right if c + 1 < self.cols => Some(cell + 1),
            _ => None,
        }
    }

    /// The goal's tiles toward `goal`: `0 1 ... N-1` or `1 2 ... N-1 0`.
    pub fn goal(self, goal: Goal) -> Vec<u16> {
        let n = self.cells() as u16;
        match goal {
            Goal::BlankFirst => (0..n).collect(),
            Goal::BlankLast => (1..n).chain([0]).collect(),
        }
    }
}

impl FromStr for Size {
    type Err = String;
    fn from_str(s: &str) -> Result<Size, String> {
        let syntax = || format!("board '{s}' is not of the form RxC (e.g. 4x4, 10x10, 6x8)");
        let (r, c) = s.trim().split_once(['x', 'X']).ok_or_else(syntax)?;
        Size::new(r.parse().map_err(|_| syntax())?, c.parse().map_err(|_| syntax())?)
    }
}

impl fmt::Display for Size {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.rows, self.cols)
    }
}

/// A position as written: the tiles row by row, 0 the blank, in the user's goal convention.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    /// Its board.
    pub size: Size,
    /// The tile on each cell, row by row.
    pub tiles: Vec<u16>,
}

impl Position {
    /// The goal position toward `goal`.
    pub fn goal(size: Size, goal: Goal) -> Position {
        Position { size, tiles: size.goal(goal) }
    }

    /// The blank's cell.
    pub fn blank(&self) -> usize {
        self.tiles.iter().position(|&t| t == 0).expect("a position has a blank")
    }

    /// Whether this is the goal toward `goal`.
    pub fn is_goal(&self, goal: Goal) -> bool {
        self.tiles == self.size.goal(goal)
    }

    /// The home cell of `tile` toward `goal`.
    pub fn home(size: Size, goal: Goal, tile: u16) -> usize {
        match (goal, tile) {
            (Goal::BlankFirst, t) => t as usize,
            (Goal::BlankLast, 0) => size.cells() - 1,
            (Goal::BlankLast, t) => t as usize - 1,
        }
    }

    /// Whether moves reach the goal toward `goal`: the permutation's parity (as cells to home cells) equals
    /// the parity of the blank's distance from its home.
    pub fn is_solvable(&self, goal: Goal) -> bool {
        let n = self.tiles.len();
        let mut seen = vec![false; n];
        let mut transpositions = 0;
        for start in 0..n {
            let mut cell = start;
            let mut len = 0usize;
            while !seen[cell] {
                seen[cell] = true;
                cell = Position::home(self.size, goal, self.tiles[cell]);
                len += 1;
            }
            transpositions += len.saturating_sub(1);
        }
        let blank = self.blank();
        let home = Position::home(self.size, goal, 0);
        let c = self.size.cols;
        let d = (blank / c).abs_diff(home / c) + (blank % c).abs_diff(home % c);
        transpositions % 2 == d % 2
    }

    /// Moves the blank `dir`; false (and nothing moved) off the board.
    pub fn move_blank(&mut self, dir: Dir) -> bool {
        let blank = self.blank();
        match self.size.step(blank, dir) {
            Some(to) => {
                self.tiles.swap(blank, to);
                true
            }
            None => false,
        }
    }

    /// The position as the other goal convention writes it: a half turn and tile `t` renamed `N - t`, an exact
    /// symmetry that maps one goal onto the other (and every blank direction onto its opposite).
    pub fn half_turn(&self) -> Position {
        let n = self.tiles.len() as u16;
        let tiles = self.tiles.iter().rev().map(|&t| if t == 0 { 0 } else { n - t }).collect();
        Position { size: self.size, tiles }
    }

    /// The tiles, space-separated.
    pub fn text(&self) -> String {
        let words: Vec<String> = self.tiles.iter().map(u16::to_string).collect();
        words.join(" ")
    }

    /// Manhattan distance to the goal toward `goal` (the blank not counted).
    pub fn manhattan(&self, goal: Goal) -> u32 {
        let c = self.size.cols;
        let mut d = 0;
        for (cell, &t) in self.tiles.iter().enumerate() {
            if t != 0 {
                let home = Position::home(self.size, goal, t);
                d += ((cell / c).abs_diff(home / c) + (cell % c).abs_diff(home % c)) as u32;
            }
        }
        d
    }

    /// A proven lower bound on the moves to the goal toward `goal`: the Manhattan distance plus two moves for
    /// each tile that must leave its home row (or column) to let the others of that line pass: in a line, the
    /// tiles at home in it less the longest run of them already in order (the fewest that can stay).
    pub fn lower_bound(&self, goal: Goal) -> u32 {
        let (rows, cols) = (self.size.rows, self.size.cols);
        let mut extra = 0;
        let mut line = Vec::with_capacity(MAX_SIDE);
        for r in 0..rows {
            line.clear();
            for c in 0..cols {
                let t = self.tiles[r * cols + c];
                let home = Position::home(self.size, goal, t);
                if t != 0 && home / cols == r {
                    line.push(home % cols);
                }
            }
            extra += line.len() - longest_increasing(&line);
        }
        for c in 0..cols {
            line.clear();
            for r in 0..rows {
                let t = self.tiles[r * cols + c];
                let home = Position::home(self.size, goal, t);
                if t != 0 && home % cols == c {
                    line.push(home / cols);
                }
            }
            extra += line.len() - longest_increasing(&line);
        }
        self.manhattan(goal) + 2 * extra as u32
    }

    /// A uniformly random solvable position toward `goal` (Fisher-Yates, then the first two tiles swapped if
    /// unsolvable: that pairs each unsolvable permutation with one solvable one).
    pub fn random(size: Size, goal: Goal, rng: &mut SplitMix64) -> Position {
        let mut tiles: Vec<u16> = (0..size.cells() as u16).collect();
        for i in (1..tiles.len()).rev() {
            tiles.swap(i, rng.below(i as u64 + 1) as usize);
        }
        let mut p = Position { size, tiles };
        if !p.is_solvable(goal) {
            let mut nonblank = (0..p.tiles.len()).filter(|&c| p.tiles[c] != 0);
            let (a, b) = (nonblank.next().expect("two tiles"), nonblank.next().expect("two tiles"));
            p.tiles.swap(a, b);
        }
        p
    }

    /// A random walk of `steps` blank moves from the goal toward `goal`, never stepping straight back.
    pub fn random_walk(size: Size, goal: Goal, steps: u32, rng: &mut SplitMix64) -> Position {
        let mut p = Position::goal(size, goal);
        let mut back = None;
        for _ in 0..steps {
            let blank = p.blank();
            let dirs: Vec<Dir> =
                Dir::ALL.into_iter().filter(|&d| Some(d) != back && size.step(blank, d).is_some()).collect();
            let d = dirs[rng.below(dirs.len() as u64) as usize];
            p.move_blank(d);
            back = Some(d.opposite());
        }
        p
    }
}

/// The length of the longest strictly increasing subsequence of `xs`.
fn longest_increasing(xs: &[usize]) -> usize {
    let mut tails: Vec<usize> = Vec::new();
    for &x in xs {
        let i = tails.partition_point(|&t| t < x);
        if i == tails.len() {
            tails.push(x);
        } else {
            tails[i] = x;
        }
    }
    tails.len()
}

/// Reads a position: the tiles row by row (spaces or commas, a Python list, or rows apart by `/`), on
/// `size` when given, else on the board its rows say (when written apart), else the square board its tile
/// count says; checked to be a permutation solvable toward `goal`. Errors name the problem and where.
pub fn parse_position(text: &str, size: Option<Size>, goal: Goal) -> Result<Position, String> {
    let words = crate::instance::words(text);
    if words.is_empty() {
        return Err("no tiles given".into());
    }
    let mut tiles = Vec::with_capacity(words.len());
    for (i, w) in words.iter().enumerate() {
        let t: u16 = w.parse().map_err(|_| format!("'{w}' is not a tile (word {} of the position)", i + 1))?;
        tiles.push(t);
    }
    let n = tiles.len();
    let rows_written = text.split('#').next().unwrap_or("").split('/').filter(|r| !r.trim().is_empty()).count();
    let size = match size {
        Some(s) => s,
        None if rows_written >= 2 => {
            if !n.is_multiple_of(rows_written) {
                return Err(format!("{n} tiles in {rows_written} rows: every row of a board is as long"));
            }
            Size::new(rows_written, n / rows_written)?
        }
        None => match (2..=MAX_SIDE).find(|k| k * k == n) {
            Some(k) => Size::new(k, k)?,
            None => return Err(format!("{n} tiles are no square board: give --board RxC")),
        },
    };
    if n != size.cells() {
        return Err(format!("expected {} tiles for a {size} board, found {n}", size.cells()));
    }
    let mut seen = vec![false; n];
    for &t in &tiles {
        if t as usize >= n {
            return Err(format!("tile {t} is out of range: a {size} board has tiles 0 to {}", n - 1));
        }
        if std::mem::replace(&mut seen[t as usize], true) {
            return Err(format!("tile {t} appears twice"));
        }
    }
    let p = Position { size, tiles };
    if !p.is_solvable(goal) {
        let other = goal.other();
        let hint = if p.is_solvable(other) {
            format!("; it is solvable toward --goal {}", other.name())
        } else {
            String::new()
        };
        return Err(format!(
            "no sequence of moves reaches the goal {} from this position (it is unsolvable){hint}",
            goal.name()
        ));
    }
    Ok(p)
}

/// How a solution is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Notation {
    /// Numbers: the tiles slid, in order.
    Tiles,
    /// Letters: the direction each tile moves (the speedsolvers' convention), a count after a letter for a
    /// row of tiles slid together (`R3`, `U2LD3R`).
    Udlr,
    /// Letters: the blank's directions (as `--moves dirs` prints them), counts allowed as in `Udlr`.
    Dirs,
}

/// A solution read: the blank's directions, one a single-tile move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Moves {
    /// The blank's directions (a tile moving right is the blank moving left).
    pub blank: Vec<Dir>,
    /// For tiles notation, the tile named by each move (checked when replayed).
    pub tiles: Option<Vec<u16>>,
}

/// Reads a solution in `notation`, or, when `None`, in tiles notation if it has digits only (and
/// separators), else in `Udlr`. A character that is no move is an error naming it and its place (from 1).
pub fn parse_moves(text: &str, notation: Option<Notation>) -> Result<Moves, String> {
    let letters = text.chars().any(|c| c.is_ascii_alphabetic());
    let notation = notation.unwrap_or(if letters { Notation::Udlr } else { Notation::Tiles });
    if notation == Notation::Tiles {
        let mut tiles = Vec::new();
        let mut place = 0;
        for w in text.split(|c: char| c.is_whitespace() || c == ',') {
            if !w.is_empty() {
                place += 1;
                let t = w.parse::<u16>().ok().filter(|&t| t > 0).ok_or_else(|| {
                    format!("'{w}' is not a tile (move {place} of the solution; tiles notation: the tiles slid)")
                })?;
                tiles.push(t);
            }
        }
        return Ok(Moves { blank: Vec::new(), tiles: Some(tiles) });
    }
    let mut blank = Vec::new();
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let place = i + 1;
        if c.is_whitespace() || c == ',' {
            i += 1;
            continue;
        }
        let dir = match c.to_ascii_uppercase() {
            'U' => Dir::Up,
            'D' => Dir::Down,
            'L' => Dir::Left,
            'R' => Dir::Right,
            _ if c.is_ascii_digit() => {
                return Err(format!("'{c}' at character {place} of the solution: a count follows a move letter"))
            }
            _ => {
                return Err(format!(
                    "'{c}' at character {place} of the solution is no move (U, D, L or R, each with an optional count)"
                ))
            }
        };
        i += 1;
        let start = i;
        while i < chars.len() && chars[i].is_ascii_digit() {
            i += 1;
        }
        let count: usize = if i == start {
            1
        } else {
            let digits: String = chars[start..i].iter().collect();
            match digits.parse::<usize>() {
                Ok(n) if (1..=MAX_SIDE).contains(&n) => n,
                _ => {
                    return Err(format!(
                        "count '{digits}' at character {} of the solution: a row slides 1 to {} tiles",
                        start + 1,
                        MAX_SIDE - 1
                    ))
                }
            }
        };
        let blank_dir = if notation == Notation::Udlr { dir.opposite() } else { dir };
        blank.extend(std::iter::repeat_n(blank_dir, count));
    }
    Ok(Moves { blank, tiles: None })
}

/// A move that cannot be made, from 1.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadMove {
    /// Its place among the single-tile moves, from 1.
    pub at: usize,
    /// What is wrong.
    pub why: String,
}

/// Replays `moves` from `start`: the position reached, or the first move that cannot be made.
pub fn replay(start: &Position, moves: &Moves) -> Result<(Position, Vec<Dir>), BadMove> {
    let mut p = start.clone();
    let size = p.size;
    let mut dirs = Vec::new();
    if let Some(tiles) = &moves.tiles {
        for (k, &t) in tiles.iter().enumerate() {
            let blank = p.blank();
            let d = Dir::ALL.into_iter().find(|&d| size.step(blank, d).is_some_and(|c| p.tiles[c] == t));
            let Some(d) = d else {
                let why = if t as usize >= size.cells() {
                    format!("tile {t} is not on a {size} board")
                } else {
                    format!("tile {t} is not next to the blank")
                };
                return Err(BadMove { at: k + 1, why });
            };
            p.move_blank(d);
            dirs.push(d);
        }
    } else {
        for (k, &d) in moves.blank.iter().enumerate() {
            if !p.move_blank(d) {
                let tile_dir = d.opposite();
                return Err(BadMove {
                    at: k + 1,
                    why: format!(
                        "no tile can move {} (the blank is on the board's {} edge)",
                        word(tile_dir),
                        word(d).replace("up", "top").replace("down", "bottom")
                    ),
                });
            }
            dirs.push(d);
        }
    }
    Ok((p, dirs))
}

fn word(d: Dir) -> &'static str {
    match d {
        Dir::Up => "up",
        Dir::Down => "down",
        Dir::Left => "left",
        Dir::Right => "right",
    }
}

/// The multi-tile length of a sequence of blank moves: its runs in one direction (a row or column of tiles
/// slid together is one move).
pub fn multi_tile_length(blank: &[Dir]) -> usize {
    blank.iter().enumerate().filter(|&(i, d)| i == 0 || blank[i - 1] != *d).count()
}

/// Blank moves written in the speedsolvers' grouped notation: each tile's direction, repeats counted, run
/// together as slidy and the speedsolving community write them (`R3U2L`).
pub fn udlr_text(blank: &[Dir]) -> String {
    let mut runs: Vec<(Dir, usize)> = Vec::new();
    for &d in blank {
        match runs.last_mut() {
            Some((last, n)) if *last == d.opposite() => *n += 1,
            _ => runs.push((d.opposite(), 1)),
        }
    }
    grouped_text(&runs)
}

/// Slides written in the speedsolvers' grouped notation: (the direction the tiles move, how many in a row)
/// as the letter and, for more than one, the count, with nothing between slides (`U2LD3R`). [`parse_moves`]
/// reads it back, as it reads the same with spaces or without counts.
pub fn grouped_text(runs: &[(Dir, usize)]) -> String {
    let mut text = String::new();
    for &(d, n) in runs {
        text.push(d.letter());
        if n != 1 {
            text.push_str(&n.to_string());
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse_and_refuse() {
        assert_eq!("10x10".parse::<Size>().unwrap().cells(), 100);
        assert_eq!("6x8".parse::<Size>().unwrap(), Size { rows: 6, cols: 8 });
        assert!("17x4".parse::<Size>().unwrap_err().contains("too large"));
        assert!("1x4".parse::<Size>().unwrap_err().contains("too narrow"));
        assert!("44".parse::<Size>().unwrap_err().contains("RxC"));
    }

    #[test]
    fn solvability_matches_the_optimal_boards() {
        let mut rng = SplitMix64::new(5);
        let board = crate::Board::FOUR;
        for _ in 0..300 {
            let s = crate::random::random_position(board, &mut rng);
            let mut tiles: Vec<u16> = s.tiles().iter().map(|&t| t as u16).collect();
            let size = Size::new(4, 4).unwrap();
            assert!(Position { size, tiles: tiles.clone() }.is_solvable(Goal::BlankFirst));
            tiles.swap(1, 2);
            let swapped = Position { size, tiles };
            let expect = swapped.tiles.iter().map(|&t| t as u8).collect::<Vec<_>>();
            let solvable = crate::State::from_tiles(board, &expect).unwrap().is_solvable();
            assert_eq!(swapped.is_solvable(Goal::BlankFirst), solvable);
        }
    }

    #[test]
    fn lower_bound_counts_conflicts() {
        let size = Size::new(3, 3).unwrap();
        // 2 1 3 / 4 5 6 / 7 8 0: Manhattan 2, one conflict in the top row.
        let p = Position { size, tiles: vec![2, 1, 3, 4, 5, 6, 7, 8, 0] };
        assert_eq!(p.manhattan(Goal::BlankLast), 2);
        assert_eq!(p.lower_bound(Goal::BlankLast), 4);
        // 3 2 1: two of the three must leave the row.
        let q = Position { size, tiles: vec![3, 2, 1, 4, 5, 6, 7, 8, 0] };
        assert_eq!(q.lower_bound(Goal::BlankLast), 4 + 4);
    }

    #[test]
    fn moves_read_in_every_notation() {
        let up = parse_moves("U2LD3R", None).unwrap().blank;
        use Dir::*;
        assert_eq!(up, vec![Down, Down, Right, Up, Up, Up, Left]);
        assert_eq!(parse_moves("u2 l", None).unwrap().blank, vec![Down, Down, Right]);
        assert_eq!(parse_moves("UL", Some(Notation::Dirs)).unwrap().blank, vec![Up, Left]);
        assert_eq!(parse_moves("3 1 2", None).unwrap().tiles, Some(vec![3, 1, 2]));
        let e = parse_moves("RRUX", None).unwrap_err();
        assert!(e.contains("'X' at character 4"), "{e}");
        assert!(parse_moves("R0", None).unwrap_err().contains("count '0' at character 2"));
        assert_eq!(udlr_text(&[Left, Left, Left, Up]), "R3D");
        assert_eq!(udlr_text(&[Up, Down, Down]), "DU2");
        // Run together, a count is read back as the count of the letter before it (`R12`, not `R1` `2`).
        let long: Vec<Dir> = std::iter::repeat_n(Left, 12).chain([Up, Up, Right]).collect();
        assert_eq!(udlr_text(&long), "R12D2L");
        assert_eq!(parse_moves(&udlr_text(&long), None).unwrap().blank, long);
        assert_eq!(multi_tile_length(&[Left, Left, Left, Up, Left]), 3);
    }
}
