//! For the sliding-block tests: an independent model of sliding-block levels, written apart from the
//! `blocks` crate and as plainly as possible (a grid of characters, pieces found by scanning it, moves
//! tried cell by cell), with a breadth-first search over the whole reachable space, to check the library's
//! bitboards, canonical states, metrics and searches against.
//!
//! Levels come as the rows of the text form (`A`-`Z` pieces, lowercase locked to their long axis, `.`
//! empty, `#` wall). Pieces not named in `own` are interchangeable with the other pieces of their shape and
//! lock: positions that differ only by swapping such pieces are one class. The model's class key is the
//! grid with each interchangeable piece's letter replaced by a label of its kind; a grid of kind labels
//! still says where every piece is, since a region covered by translates of one rectangle is covered one
//! way only (its first cell in reading order must be a piece's top-left, and so on).

use std::collections::{HashMap, HashSet, VecDeque};

/// What one move is, as the model counts it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Metric {
    /// A piece any distance along any path of unit steps through empty cells.
    Piece,
    /// A piece any distance in one straight line.
    Line,
    /// A piece one cell.
    Unit,
}

/// What solves a level.
#[derive(Clone, Debug)]
pub enum Target {
    /// The piece of this letter with its top-left cell at (row, col).
    Place(char, usize, usize),
    /// This arrangement (rows), up to swapping interchangeable pieces.
    Layout(Vec<String>),
}

/// The whole space reachable from a start.
#[derive(Clone, Debug)]
pub struct Space {
    /// One position of each class (rows), with its distance from the start, in the order found.
    pub positions: Vec<(Vec<String>, u32)>,
    /// `counts[d]`: classes at distance `d`.
    pub counts: Vec<u64>,
    /// Classes that meet the target.
    pub solved: u64,
    /// The distance of the nearest such class.
    pub nearest: Option<u32>,
}

/// A position: `rows` x `cols` characters, row-major.
#[derive(Clone, Debug)]
struct Grid {
    rows: usize,
    cols: usize,
    cells: Vec<u8>,
}

impl Grid {
    fn new(rows: &[&str]) -> Grid {
        let cols = rows[0].len();
        Grid { rows: rows.len(), cols, cells: rows.iter().flat_map(|r| r.bytes()).collect() }
    }

    fn lines(&self) -> Vec<String> {
        self.cells.chunks(self.cols).map(|r| String::from_utf8(r.to_vec()).unwrap()).collect()
    }

    /// The cells of the piece `letter` (either case).
    fn cells_of(&self, letter: u8) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for r in 0..self.rows {
            for c in 0..self.cols {
                if self.cells[r * self.cols + c].eq_ignore_ascii_case(&letter) {
                    out.push((r, c));
                }
            }
        }
        out
    }

    /// The grid with piece `letter` shifted by (dr, dc), if every cell it would cover is on the board and
    /// empty or its own.
    fn shifted(&self, letter: u8, dr: isize, dc: isize) -> Option<Grid> {
        let cells = self.cells_of(letter);
        let ch = self.cells[cells[0].0 * self.cols + cells[0].1];
        let mut next = self.clone();
        for &(r, c) in &cells {
            next.cells[r * self.cols + c] = b'.';
        }
        for &(r, c) in &cells {
            let (nr, nc) = (r as isize + dr, c as isize + dc);
            if nr < 0 || nc < 0 || nr as usize >= self.rows || nc as usize >= self.cols {
                return None;
            }
            let at = nr as usize * self.cols + nc as usize;
            if next.cells[at] != b'.' {
                return None;
            }
            next.cells[at] = ch;
        }
        Some(next)
    }
}

/// The unit steps a piece may take: all four, or along its long axis if it is lowercase.
fn steps(grid: &Grid, letter: u8) -> Vec<(isize, isize)> {
    let cells = grid.cells_of(letter);
    let locked = grid.cells[cells[0].0 * grid.cols + cells[0].1].is_ascii_lowercase();
    let height = cells.iter().map(|c| c.0).max().unwrap() - cells[0].0 + 1;
    let width = cells.iter().map(|c| c.1).max().unwrap() - cells.iter().map(|c| c.1).min().unwrap() + 1;
    let all = [(-1, 0), (1, 0), (0, -1), (0, 1)];
    all.into_iter().filter(|&(dr, _)| !locked || (width > height) == (dr == 0)).collect()
}

/// Every position one move of `metric` away.
fn neighbours(grid: &Grid, metric: Metric) -> Vec<Grid> {
    let mut letters: Vec<u8> =
        grid.cells.iter().filter(|c| c.is_ascii_alphabetic()).map(u8::to_ascii_uppercase).collect();
    letters.sort_unstable();
    letters.dedup();
    let mut out = Vec::new();
    for letter in letters {
        let dirs = steps(grid, letter);
        match metric {
            Metric::Unit => out.extend(dirs.iter().filter_map(|&(dr, dc)| grid.shifted(letter, dr, dc))),
            Metric::Line => {
                for &(dr, dc) in &dirs {
                    let mut k = 1;
                    while let Some(g) = grid.shifted(letter, dr * k, dc * k) {
                        out.push(g);
                        k += 1;
                    }
                }
            }
            Metric::Piece => {
                // Offsets the piece alone reaches by unit steps, breadth-first.
                let mut seen = vec![(0, 0)];
                let mut queue = VecDeque::from([(0isize, 0isize)]);
                while let Some((r, c)) = queue.pop_front() {
                    for &(dr, dc) in &dirs {
                        let (nr, nc) = (r + dr, c + dc);
                        if !seen.contains(&(nr, nc)) && grid.shifted(letter, nr, nc).is_some() {
                            seen.push((nr, nc));
                            queue.push_back((nr, nc));
                        }
                    }
                }
                out.extend(seen[1..].iter().map(|&(r, c)| grid.shifted(letter, r, c).unwrap()));
            }
        }
    }
    out
}

/// Labels cells by class: the letter for a piece in `own` (or every piece when `own` is `*`), else
/// 1000 + an index of the piece's (height, width, locked).
struct Classes {
    own: String,
    kinds: HashMap<u8, u16>,
}

impl Classes {
    fn new(start: &Grid, own: &str) -> Classes {
        let mut shapes: Vec<(usize, usize, bool)> = Vec::new();
        let mut kinds = HashMap::new();
        for &ch in &start.cells {
            if !ch.is_ascii_alphabetic() || kinds.contains_key(&ch.to_ascii_uppercase()) {
                continue;
            }
            let cells = start.cells_of(ch);
            let height = cells.last().unwrap().0 - cells[0].0 + 1;
            let width = cells.len() / height;
            let shape = (height, width, ch.is_ascii_lowercase());
            if !shapes.contains(&shape) {
                shapes.push(shape);
            }
            kinds.insert(ch.to_ascii_uppercase(), 1000 + shapes.iter().position(|s| *s == shape).unwrap() as u16);
        }
        Classes { own: own.to_string(), kinds }
    }

    fn key(&self, grid: &Grid) -> Vec<u16> {
        grid.cells
            .iter()
            .map(|&ch| {
                let upper = ch.to_ascii_uppercase();
                if !ch.is_ascii_alphabetic() || self.own == "*" || self.own.as_bytes().contains(&upper) {
                    ch as u16
                } else {
                    self.kinds[&upper]
                }
            })
            .collect()
    }
}

/// The top-left (row, col) of piece `letter`.
fn top_left(grid: &Grid, letter: char) -> (usize, usize) {
    let cells = grid.cells_of(letter as u8);
    (cells[0].0, cells.iter().map(|c| c.1).min().unwrap())
}

/// Breadth-first search of every class reachable from `rows` under `metric`; pieces in `own` (or all,
/// for `*`) are their own kind.
pub fn space(rows: &[&str], target: &Target, own: &str, metric: Metric) -> Space {
    let start = Grid::new(rows);
    let classes = Classes::new(&start, own);
    let goal_key = match target {
        Target::Layout(layout) => Some(classes.key(&Grid::new(&layout.iter().map(String::as_str).collect::<Vec<_>>()))),
        Target::Place(..) => None,
    };
    let solved = |g: &Grid, key: &[u16]| match target {
        Target::Place(letter, row, col) => top_left(g, *letter) == (*row, *col),
        Target::Layout(_) => goal_key.as_deref() == Some(key),
    };
    let mut seen: HashSet<Vec<u16>> = HashSet::new();
    let mut queue = VecDeque::new();
    let mut out = Space { positions: Vec::new(), counts: Vec::new(), solved: 0, nearest: None };
    let key = classes.key(&start);
    seen.insert(key);
    queue.push_back((start, 0u32));
    while let Some((grid, d)) = queue.pop_front() {
        let key = classes.key(&grid);
        if out.counts.len() <= d as usize {
            out.counts.push(0);
        }
        out.counts[d as usize] += 1;
        if solved(&grid, &key) {
            out.solved += 1;
            out.nearest = out.nearest.or(Some(d));
        }
        for next in neighbours(&grid, metric) {
            let k = classes.key(&next);
            if seen.insert(k) {
                queue.push_back((next, d + 1));
            }
        }
        out.positions.push((grid.lines(), d));
    }
    out
}

/// Whether positions `a` and `b` (rows, the same pieces) are one class when the pieces in `own` (or all,
/// for `*`) are their own kind.
pub fn same_class(a: &[String], b: &[String], own: &str) -> bool {
    let grid = |rows: &[String]| Grid::new(&rows.iter().map(String::as_str).collect::<Vec<_>>());
    let classes = Classes::new(&grid(a), own);
    classes.key(&grid(a)) == classes.key(&grid(b))
}
