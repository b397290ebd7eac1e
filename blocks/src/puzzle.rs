//! A level as the `search` crate sees it: the state, the moves of each metric, the canonical form, the goal
//! test and the estimates.
//!
//! A state is a `u128` holding each piece's top-left cell (bit index `8 * row + col`, see [`crate::board`])
//! in 6 bits, piece `i` at bits `6i..6i + 6`; 21 pieces fit. Pieces of one kind are interchangeable, so the
//! canonical form sorts the cells within each kind (a kind is a run of consecutive pieces, see
//! [`Level::pieces`]): 横刀立马's four soldiers and four vertical generals then count once per arrangement of
//! cells, not 4! · 4! times. Pieces of another kind, the goal piece and pieces marked distinct are never
//! reordered, so two positions that differ in them never share a representative.
//!
//! Moves are found on bitboards: with the other pieces and the walls as obstacles, `fits` is the set of
//! top-left cells where the piece would lie on free cells; the metric's moves are then the cells of `fits`
//! one step away (unit), reached by repeating one step (line), or reached by a flood fill of steps (piece).

use crate::board::{bits, cell, fits, rectangle, row_col, Cells, Dir};
use crate::level::{Axis, Goal, Level};
use crate::metric::{Heuristic, Metric};
use std::ops::Range;

/// A position: each piece's top-left cell in 6 bits (see the module doc).
pub type State = u128;

/// One move as the search makes it: the piece (an index into [`Level::pieces`]) and its new top-left cell
/// (bit index).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move {
    /// The piece's index.
    pub piece: u8,
    /// Its new top-left cell, `8 * row + col`.
    pub to: u8,
}

/// What moving a piece needs, precomputed.
#[derive(Clone, Debug)]
struct Part {
    shape: Cells,
    height: usize,
    width: usize,
    /// Top-left cells where the piece lies on the board (walls aside).
    anchors: Cells,
    /// The directions it may move in.
    dirs: Vec<Dir>,
    axis: Axis,
}

/// What solves the level, as the search tests it.
#[derive(Clone, Debug)]
enum Target {
    Place {
        piece: usize,
        cell: u8,
    },
    /// The canonical goal state, and each kind's goal cells (for the estimate).
    Layout {
        state: State,
        kinds: Vec<(Range<usize>, Cells)>,
    },
}

/// A level under one metric and estimate: a [`search::Puzzle`].
#[derive(Clone, Debug)]
pub struct Blocks {
    metric: Metric,
    heuristic: Heuristic,
    parts: Vec<Part>,
    walls: Cells,
    /// The kinds of more than one piece: the runs the canonical form sorts.
    shared: Vec<Range<usize>>,
    target: Target,
}

/// The cell of piece `i` in `state`.
#[inline]
pub fn place(state: State, i: usize) -> u8 {
    (state >> (6 * i)) as u8 & 63
}

/// `state` with piece `i` at `cell`.
#[inline]
fn set(state: State, i: usize, cell: u8) -> State {
    state & !(63 << (6 * i)) | (cell as State) << (6 * i)
}

/// The state with piece `i` at `cells[i]`.
pub fn pack(cells: impl IntoIterator<Item = u8>) -> State {
    cells.into_iter().enumerate().fold(0, |s, (i, c)| set(s, i, c))
}

/// The (row, col) of every piece in `state`, for `pieces` pieces.
pub fn unpack(state: State, pieces: usize) -> Vec<(usize, usize)> {
    (0..pieces).map(|i| row_col(place(state, i))).collect()
}

/// The kinds of `level` as runs of piece indices.
fn kinds(level: &Level) -> Vec<Range<usize>> {
    let mut runs: Vec<Range<usize>> = Vec::new();
    for (i, p) in level.pieces().iter().enumerate() {
        match runs.last_mut() {
            Some(run) if level.pieces()[run.start].kind == p.kind => run.end = i + 1,
            _ => runs.push(i..i + 1),
        }
    }
    runs
}

impl Blocks {
    /// The puzzle of `level` under `metric`, guided by `heuristic`.
    pub fn new(level: &Level, metric: Metric, heuristic: Heuristic) -> Blocks {
        let board = rectangle(level.rows(), level.cols());
        let parts = level
            .pieces()
            .iter()
            .map(|p| Part {
                shape: p.shape(),
                height: p.height,
                width: p.width,
                anchors: rectangle(level.rows() + 1 - p.height, level.cols() + 1 - p.width),
                dirs: Dir::ALL
                    .into_iter()
                    .filter(|d| match p.axis {
                        Axis::Free => true,
                        Axis::Horizontal => d.horizontal(),
                        Axis::Vertical => !d.horizontal(),
                    })
                    .collect(),
                axis: p.axis,
            })
            .collect();
        let runs = kinds(level);
        let shared = runs.iter().filter(|r| r.len() > 1).cloned().collect();
        let mut puzzle = Blocks {
            metric,
            heuristic,
            parts,
            walls: level.walls() | !board,
            shared,
            target: Target::Place { piece: 0, cell: 0 },
        };
        puzzle.target = match level.goal() {
            Goal::Place { piece, row, col } => Target::Place { piece: *piece, cell: cell(*row, *col) },
            Goal::Layout(places) => {
                let state = pack(places.iter().map(|&(r, c)| cell(r, c)));
                let kinds = runs.into_iter().map(|r| (r.clone(), r.map(|i| 1 << place(state, i)).sum())).collect();
                Target::Layout { state: puzzle.canonical_of(state), kinds }
            }
        };
        puzzle
    }

    /// The metric it counts moves in.
    pub fn metric(&self) -> Metric {
        self.metric
    }

    /// The state of `level`'s start (not canonical: piece `i` is the level's piece `i`).
    pub fn start(level: &Level) -> State {
        pack(level.start().iter().map(|&(r, c)| cell(r, c)))
    }

    /// The cells of each kind sorted (a kind's pieces are consecutive, so its cells are one run of 6-bit
    /// fields). An insertion sort in place: kinds have a handful of pieces, and this runs once a child.
    #[inline]
    fn canonical_of(&self, state: State) -> State {
        let mut s = state;
        for run in &self.shared {
            for i in run.start + 1..run.end {
                let cell = place(s, i);
                let mut j = i;
                while j > run.start && place(s, j - 1) > cell {
                    s = set(s, j, place(s, j - 1));
                    j -= 1;
                }
                s = set(s, j, cell);
            }
        }
        s
    }

    /// Each piece's cells in `state`, and all of them with the walls and the off-board cells.
    #[inline]
    fn masks(&self, state: State) -> ([Cells; crate::level::MAX_PIECES], Cells) {
        let mut masks = [0; crate::level::MAX_PIECES];
        let mut taken = self.walls;
        for (i, part) in self.parts.iter().enumerate() {
            masks[i] = part.shape << place(state, i);
            taken |= masks[i];
        }
        (masks, taken)
    }

    /// Where piece `i` may lie with the others as they are in `state`: its top-left cells on free cells.
    #[inline]
    fn room(&self, i: usize, masks: &[Cells], taken: Cells) -> Cells {
        let part = &self.parts[i];
        part.anchors & fits(!(taken & !masks[i]), part.height, part.width)
    }

    /// The top-left cells piece `i` can reach in one move of the metric, its own excluded.
    #[inline]
    fn destinations(&self, i: usize, from: u8, room: Cells) -> Cells {
        let from = 1 << from;
        let dirs = &self.parts[i].dirs;
        match self.metric {
            Metric::Unit => dirs.iter().fold(0, |to, d| to | d.shift(from)) & room,
            Metric::Line => {
                let mut to = 0;
                for d in dirs {
                    let mut at = d.shift(from) & room;
                    while at != 0 {
                        to |= at;
                        at = d.shift(at) & room;
                    }
                }
                to
            }
            Metric::Piece => {
                let mut reached = from;
                loop {
                    let next = reached | dirs.iter().fold(0, |to, d| to | d.shift(reached)) & room;
                    if next == reached {
                        break reached & !from;
                    }
                    reached = next;
                }
            }
        }
    }

    /// The cell-by-cell steps of a move (fewest steps, through free cells), for a move's text.
    pub fn steps(&self, state: State, m: Move) -> Vec<Dir> {
        let i = m.piece as usize;
        let (masks, taken) = self.masks(state);
        let room = self.room(i, &masks, taken);
        // Breadth-first over the cells of `room`, remembering how each was entered.
        let mut how = [None::<(Dir, u8)>; 64];
        let (from, to) = (place(state, i), m.to);
        let mut seen: Cells = 1 << from;
        let mut layer = vec![from];
        while !layer.is_empty() && seen >> to & 1 == 0 {
            let mut next = Vec::new();
            for &c in &layer {
                for &d in &self.parts[i].dirs {
                    let n = d.shift(1 << c) & room & !seen;
                    if n != 0 {
                        let at = n.trailing_zeros() as u8;
                        seen |= n;
                        how[at as usize] = Some((d, c));
                        next.push(at);
                    }
                }
            }
            layer = next;
        }
        let mut path = Vec::new();
        let mut at = to;
        while let Some((d, back)) = how[at as usize] {
            path.push(d);
            at = back;
        }
        path.reverse();
        path
    }

    /// Whether `m` is a move of the metric from `state`.
    pub fn legal(&self, state: State, m: Move) -> bool {
        let i = m.piece as usize;
        if i >= self.parts.len() || m.to >= 64 {
            return false;
        }
        let (masks, taken) = self.masks(state);
        self.destinations(i, place(state, i), self.room(i, &masks, taken)) >> m.to & 1 == 1
    }

    /// `state` after `m` (not checked: see [`Blocks::legal`]).
    pub fn apply(&self, state: State, m: Move) -> State {
        set(state, m.piece as usize, m.to)
    }
}

impl search::Puzzle for Blocks {
    type State = State;
    type Move = Move;

    #[inline]
    fn successors(&self, state: &State, mut visit: impl FnMut(Move, State)) {
        let (masks, taken) = self.masks(*state);
        for i in 0..self.parts.len() {
            // Every move begins with one cell step, onto a free cell beside the piece: a piece with none
            // (most of them, on a board as full as Klotski's) is passed over before its room is worked out.
            let beside = self.parts[i].dirs.iter().fold(0, |cells, d| cells | d.shift(masks[i]));
            if beside & !taken == 0 {
                continue;
            }
            let from = place(*state, i);
            for to in bits(self.destinations(i, from, self.room(i, &masks, taken))) {
                visit(Move { piece: i as u8, to }, set(*state, i, to));
            }
        }
    }

    #[inline]
    fn is_goal(&self, state: &State) -> bool {
        match &self.target {
            Target::Place { piece, cell } => place(*state, *piece) == *cell,
            Target::Layout { state: goal, .. } => self.canonical_of(*state) == *goal,
        }
    }

    fn heuristic(&self, state: &State) -> u32 {
        if self.heuristic == Heuristic::Zero {
            return 0;
        }
        match &self.target {
            Target::Place { piece, cell } => self.blocking(*state, *piece, *cell),
            Target::Layout { kinds, .. } => kinds
                .iter()
                .map(|(run, goal)| {
                    let here: Cells = run.clone().map(|i| 1 << place(*state, i)).sum();
                    (goal & !here).count_ones()
                })
                .sum(),
        }
    }

    #[inline]
    fn canonical(&self, state: &State) -> State {
        self.canonical_of(*state)
    }

    fn goal(&self) -> Option<State> {
        match &self.target {
            Target::Place { .. } => None,
            Target::Layout { state, .. } => Some(*state),
        }
    }

    /// A locked piece never leaves its line: a goal off it cannot be reached.
    fn unsolvable(&self, state: &State) -> bool {
        match &self.target {
            Target::Place { piece, cell } => !self.on_line(*piece, place(*state, *piece), *cell),
            Target::Layout { state: goal, kinds } => kinds.iter().any(|(run, _)| {
                // Each locked piece keeps its row (horizontal) or column (vertical); in a kind they may
                // swap, so compare the kind's sorted lines.
                let line = |s: State| {
                    let mut lines: Vec<usize> = run
                        .clone()
                        .map(|i| {
                            let (r, c) = row_col(place(s, i));
                            if self.parts[i].axis == Axis::Horizontal {
                                r
                            } else {
                                c
                            }
                        })
                        .collect();
                    lines.sort_unstable();
                    lines
                };
                self.parts[run.start].axis != Axis::Free && line(*state) != line(*goal)
            }),
        }
    }
}

impl Blocks {
    /// Whether piece `i` could go from `from` to `to` along its axis.
    fn on_line(&self, i: usize, from: u8, to: u8) -> bool {
        let ((r, c), (gr, gc)) = (row_col(from), row_col(to));
        match self.parts[i].axis {
            Axis::Free => true,
            Axis::Horizontal => r == gr,
            Axis::Vertical => c == gc,
        }
    }

    /// [`Heuristic::Blocking`] for the goal of piece `t` at `goal`.
    fn blocking(&self, state: State, t: usize, goal: u8) -> u32 {
        let at = place(state, t);
        if at == goal {
            return 0;
        }
        let part = &self.parts[t];
        let ((r, c), (gr, gc)) = (row_col(at), row_col(goal));
        let own = match self.metric {
            Metric::Piece => 1,
            Metric::Line => (r != gr) as u32 + (c != gc) as u32,
            Metric::Unit => (r.abs_diff(gr) + c.abs_diff(gc)) as u32,
        };
        let way = match part.axis {
            Axis::Free => part.shape << goal,
            Axis::Horizontal if r == gr => rectangle(part.height, c.abs_diff(gc) + part.width) << cell(r, c.min(gc)),
            Axis::Vertical if c == gc => rectangle(r.abs_diff(gr) + part.height, part.width) << cell(r.min(gr), c),
            _ => return own,
        };
        let (masks, _) = self.masks(state);
        let blockers = (0..self.parts.len()).filter(|&j| j != t && masks[j] & way != 0).count() as u32;
        own + blockers
    }
}
