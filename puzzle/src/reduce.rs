//! A fast, not optimal, solver for boards of any size ([`big`](crate::big)): reduction. The top row of the
//! unsolved part is solved, then its left column, and so on until a 3x3 block is left (toward the blank-last
//! goal; the other goal is its half turn), which is solved optimally. Solved tiles stay fixed.
//!
//! Two ways of placing a line's tiles:
//! - [`Method::Search`]: a line's tiles are placed two at a time (the first alone when their count is odd),
//!   each pair by an exact A* search over the positions of those two tiles and the blank (the other unfixed
//!   tiles free to be disturbed; the estimate, each tile's distance home by free cells): the fewest moves
//!   that bring that pair home with the tiles already placed kept. While more than 144 cells are free (boards
//!   past 12x12), a line's tiles but its last two go one at a time, by the same search over one tile.
//! - [`Method::Greedy`], the simple method to compare with: each tile walks a shortest path of cells to its
//!   home (around the fixed ones), the blank brought in front of it each step by the shortest way around
//!   the tile; a line's last two tiles are placed together as above (no walk of one tile places them).

use crate::big::Position;
use crate::instance::Goal;
use crate::Dir;
use std::collections::VecDeque;

/// The most free cells at which a line's tiles are placed two at a time (12x12 and smaller boards always).
const PAIRS_UP_TO: usize = 144;

/// How a line's tiles are placed (module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// An exact search for each pair of a line's tiles.
    Search,
    /// Each tile along a fixed shortest path of cells; only a line's last two searched together.
    Greedy,
}

/// A reduction solver's solution.
#[derive(Clone, Debug)]
pub struct Solution {
    /// The blank's moves, in the user's orientation (the position's goal convention).
    pub blank: Vec<Dir>,
}

/// Solves `start` (written for `goal`, solvable toward it; at least 3x3) by reduction with `method`; the
/// solution is replayed to the goal before it is returned (an `Err` is an internal error).
pub fn solve(start: &Position, goal: Goal, method: Method) -> Result<Solution, String> {
    if start.size.rows < 3 || start.size.cols < 3 {
        return Err(format!("the reduction solver needs at least 3 rows and 3 columns, not {}", start.size));
    }
    if !start.is_solvable(goal) {
        return Err("the position is unsolvable".into());
    }
    let last = match goal {
        Goal::BlankLast => start.clone(),
        Goal::BlankFirst => start.half_turn(),
    };
    let mut r = Reducer::new(&last);
    r.run(method)?;
    let blank: Vec<Dir> = match goal {
        Goal::BlankLast => r.moves,
        Goal::BlankFirst => r.moves.into_iter().map(Dir::opposite).collect(),
    };
    let mut p = start.clone();
    for &d in &blank {
        if !p.move_blank(d) {
            return Err("internal error: the reduction's solution leaves the board; please report this".into());
        }
    }
    if !p.is_goal(goal) {
        return Err("internal error: the reduction's solution does not reach the goal; please report this".into());
    }
    Ok(Solution { blank })
}

/// The board being reduced, toward the blank-last goal (tile `t` home on cell `t - 1`).
struct Reducer {
    rows: usize,
    cols: usize,
    tiles: Vec<u16>,
    blank: usize,
    fixed: Vec<bool>,
    moves: Vec<Dir>,
}

impl Reducer {
    fn new(p: &Position) -> Reducer {
        Reducer {
            rows: p.size.rows,
            cols: p.size.cols,
            tiles: p.tiles.clone(),
            blank: p.blank(),
            fixed: vec![false; p.tiles.len()],
            moves: Vec::new(),
        }
    }

    fn step(&self, cell: usize, d: Dir) -> Option<usize> {
        let (r, c) = (cell / self.cols, cell % self.cols);
        match d {
            Dir::Up if r > 0 => Some(cell - self.cols),
            Dir::Down if r + 1 < self.rows => Some(cell + self.cols),
            Dir::Left if c > 0 => Some(cell - 1),
            Dir::Right if c + 1 < self.cols => Some(cell + 1),
            _ => None,
        }
        .filter(|&n| !self.fixed[n])
    }

    fn move_blank_to(&mut self, to: usize) {
        let d = Dir::ALL.into_iter().find(|&d| self.step(self.blank, d) == Some(to)).expect("an adjacent free cell");
        self.tiles.swap(self.blank, to);
        self.blank = to;
        self.moves.push(d);
    }

    fn cell_of(&self, tile: u16) -> usize {
        self.tiles.iter().position(|&t| t == tile).expect("every tile is on the board")
    }

    fn run(&mut self, method: Method) -> Result<(), String> {
        let (mut top, mut left) = (0, 0);
        while self.rows - top > 3 || self.cols - left > 3 {
            if self.rows - top > 3 {
                let cells: Vec<usize> = (left..self.cols).map(|c| top * self.cols + c).collect();
                self.line(&cells, method)?;
                top += 1;
            }
            if self.cols - left > 3 {
                let cells: Vec<usize> = (top..self.rows).map(|r| r * self.cols + left).collect();
                self.line(&cells, method)?;
                left += 1;
            }
        }
        self.last_block(top, left)
    }

    /// Places the tiles whose homes are `cells` (a row or column of the unsolved part, in order), fixing them.
    fn line(&mut self, cells: &[usize], method: Method) -> Result<(), String> {
        let k = cells.len();
        let goal = |i: usize| (cells[i] as u16 + 1, cells[i]);
        let mut i = 0;
        // Pairs search free^3 states: past 12x12 the first lines' tiles go one at a time, all but their last
        // two (a random 16x16 board in 1.1 s instead of 6.9 s, 15 % longer).
        let free = self.fixed.iter().filter(|&&f| !f).count();
        let pairs = free <= PAIRS_UP_TO;
        while i + 2 < k {
            match method {
                // Two at a time, so that the last two of the line are a pair, the first alone if the count is odd.
                Method::Search if pairs && (k - i).is_multiple_of(2) => {
                    self.search(&[goal(i), goal(i + 1)])?;
                    self.fixed[cells[i]] = true;
                    self.fixed[cells[i + 1]] = true;
                    i += 2;
                    continue;
                }
                Method::Search => self.search(&[goal(i)])?,
                Method::Greedy => self.walk(goal(i).0, cells[i])?,
            }
            self.fixed[cells[i]] = true;
            i += 1;
        }
        self.search(&[goal(k - 2), goal(k - 1)])?;
        self.fixed[cells[k - 2]] = true;
        self.fixed[cells[k - 1]] = true;
        Ok(())
    }

    /// The fewest moves that bring each `(tile, home)` of `goals` (one or two) home, the fixed tiles kept:
    /// a search over the positions of those tiles and the blank, on the free cells.
    fn search(&mut self, goals: &[(u16, usize)]) -> Result<(), String> {
        let free: Vec<usize> = (0..self.tiles.len()).filter(|&c| !self.fixed[c]).collect();
        let m = free.len();
        let mut index = vec![usize::MAX; self.tiles.len()];
        for (i, &c) in free.iter().enumerate() {
            index[c] = i;
        }
        // Neighbours of each free cell among the free cells, by index.
        let next: Vec<Vec<usize>> = free
            .iter()
            .map(|&c| Dir::ALL.into_iter().filter_map(|d| self.step(c, d)).map(|n| index[n]).collect())
            .collect();
        let two = goals.len() == 2;
        let at = |tile: u16| index[self.cell_of(tile)];
        let (a0, b0) = (at(goals[0].0), if two { at(goals[1].0) } else { 0 });
        let (ta, tb) = (index[goals[0].1], if two { index[goals[1].1] } else { 0 });
        let states = if two { m * m * m } else { m * m };
        let id = |a: usize, b: usize, z: usize| if two { (a * m + b) * m + z } else { a * m + z };
        let start = id(a0, b0, index[self.blank]);
        // A* over the tiles' distances home by free cells (each move moves one tile one cell: consistent),
        // with a queue of buckets by estimate; the first goal taken out is a shortest one.
        let home_a = self.free_distances(goals[0].1, &index, m);
        let home_b = if two { self.free_distances(goals[1].1, &index, m) } else { vec![0; m] };
        let h = |a: usize, b: usize| home_a[a] + if two { home_b[b] } else { 0 };
        let mut parent = vec![u32::MAX; states];
        let mut g = vec![u16::MAX; states];
        parent[start] = start as u32;
        g[start] = 0;
        let mut buckets: Vec<Vec<u32>> = vec![Vec::new(); 64];
        let first = h(a0, b0) as usize;
        if buckets.len() <= first {
            buckets.resize(first + 1, Vec::new());
        }
        buckets[first].push(start as u32);
        let mut f = first;
        let mut found = None;
        'search: while f < buckets.len() {
            while let Some(s) = buckets[f].pop() {
                let s = s as usize;
                let (z, ab) = (s % m, s / m);
                let (a, b) = if two { (ab / m, ab % m) } else { (ab, 0) };
                let gs = g[s] as usize;
                if gs + h(a, b) as usize != f {
                    continue;
                }
                if a == ta && (!two || b == tb) {
                    found = Some(s);
                    break 'search;
                }
                for &n in &next[z] {
                    let (mut na, mut nb) = (a, b);
                    if n == a {
                        na = z;
                    } else if two && n == b {
                        nb = z;
                    }
                    let t = id(na, nb, n);
                    if (g[t] as usize) > gs + 1 {
                        g[t] = (gs + 1) as u16;
                        parent[t] = s as u32;
                        let ft = gs + 1 + h(na, nb) as usize;
                        if buckets.len() <= ft {
                            buckets.resize(ft + 1, Vec::new());
                        }
                        buckets[ft].push(t as u32);
                    }
                }
            }
            f += 1;
        }
        let Some(mut s) = found else {
            return Err("internal error: a tile of the reduction cannot be placed; please report this".into());
        };
        let mut path = Vec::new();
        while s != start {
            path.push(free[s % m]);
            s = parent[s] as usize;
        }
        for &cell in path.iter().rev() {
            self.move_blank_to(cell);
        }
        Ok(())
    }

    /// Distances by free cells from `home` to each free cell, by index (`m` free cells).
    fn free_distances(&self, home: usize, index: &[usize], m: usize) -> Vec<u32> {
        let full = self.distances(home, None);
        let mut d = vec![u32::MAX / 4; m];
        for (cell, &i) in index.iter().enumerate() {
            if i != usize::MAX && full[cell] != usize::MAX {
                d[i] = full[cell] as u32;
            }
        }
        d
    }

    /// Walks `tile` home along a shortest path of free cells, bringing the blank in front of it each step by
    /// the shortest way that does not move it.
    fn walk(&mut self, tile: u16, home: usize) -> Result<(), String> {
        let stuck = || "internal error: a tile of the reduction cannot be walked home; please report this".to_string();
        loop {
            let at = self.cell_of(tile);
            if at == home {
                return Ok(());
            }
            // The next cell on a shortest path home: a neighbour nearer by breadth-first distance from home.
            let dist = self.distances(home, None);
            let next = Dir::ALL
                .into_iter()
                .filter_map(|d| self.step(at, d))
                .filter(|&n| dist[n] != usize::MAX)
                .min_by_key(|&n| dist[n])
                .ok_or_else(stuck)?;
            let from_blank = self.distances(next, Some(at));
            if from_blank[self.blank] == usize::MAX {
                return Err(stuck());
            }
            while self.blank != next {
                let b = self.blank;
                let to = Dir::ALL
                    .into_iter()
                    .filter_map(|d| self.step(b, d))
                    .filter(|&n| n != at)
                    .find(|&n| from_blank[n] + 1 == from_blank[b])
                    .ok_or_else(stuck)?;
                self.move_blank_to(to);
            }
            self.move_blank_to(at);
        }
    }

    /// Breadth-first distances over free cells from `from`, never through `avoid`.
    fn distances(&self, from: usize, avoid: Option<usize>) -> Vec<usize> {
        let mut dist = vec![usize::MAX; self.tiles.len()];
        dist[from] = 0;
        let mut queue = VecDeque::from([from]);
        while let Some(c) = queue.pop_front() {
            for d in Dir::ALL {
                if let Some(n) = self.step(c, d) {
                    if Some(n) != avoid && dist[n] == usize::MAX {
                        dist[n] = dist[c] + 1;
                        queue.push_back(n);
                    }
                }
            }
        }
        dist
    }

    /// The 3x3 block left at (`top`, `left`), solved optimally by IDA* over Manhattan distance.
    fn last_block(&mut self, top: usize, left: usize) -> Result<(), String> {
        let cols = self.cols;
        let cell = move |i: usize| (top + i / 3) * cols + left + i % 3;
        // The block's tiles relabelled 1..8 (blank-last), by their homes' places in the block.
        let mut local = [0u8; 9];
        for (i, slot) in local.iter_mut().enumerate() {
            let t = self.tiles[cell(i)];
            if t != 0 {
                let home = t as usize - 1;
                let (r, c) = (home / self.cols, home % self.cols);
                if r < top || c < left {
                    return Err("internal error: a tile outside the last block; please report this".into());
                }
                *slot = ((r - top) * 3 + (c - left) + 1) as u8;
            }
        }
        let path = solve_3x3(local);
        for i in path {
            self.move_blank_to(cell(i));
        }
        Ok(())
    }
}

/// The cells the blank visits on a shortest solution of a 3x3 position (blank-last goal, 0 the blank).
fn solve_3x3(mut tiles: [u8; 9]) -> Vec<usize> {
    fn h(tiles: &[u8; 9]) -> u32 {
        let mut d = 0;
        for (c, &t) in tiles.iter().enumerate() {
            if t != 0 {
                let home = t as usize - 1;
                d += ((c / 3).abs_diff(home / 3) + (c % 3).abs_diff(home % 3)) as u32;
            }
        }
        d
    }
    fn dfs(tiles: &mut [u8; 9], blank: usize, g: u32, bound: u32, prev: usize, path: &mut Vec<usize>) -> Option<u32> {
        let f = g + h(tiles);
        if f > bound {
            return Some(f);
        }
        if tiles[..8].iter().enumerate().all(|(c, &t)| t as usize == c + 1) {
            return None;
        }
        let mut least = u32::MAX;
        let (r, c) = (blank / 3, blank % 3);
        let mut next = [usize::MAX; 4];
        if r > 0 {
            next[0] = blank - 3;
        }
        if r < 2 {
            next[1] = blank + 3;
        }
        if c > 0 {
            next[2] = blank - 1;
        }
        if c < 2 {
            next[3] = blank + 1;
        }
        for n in next {
            if n == usize::MAX || n == prev {
                continue;
            }
            tiles.swap(blank, n);
            path.push(n);
            match dfs(tiles, n, g + 1, bound, blank, path) {
                None => return None,
                Some(f) => least = least.min(f),
            }
            path.pop();
            tiles.swap(blank, n);
        }
        Some(least)
    }
    let blank = tiles.iter().position(|&t| t == 0).expect("a blank");
    let mut bound = h(&tiles);
    let mut path = Vec::new();
    loop {
        match dfs(&mut tiles, blank, 0, bound, usize::MAX, &mut path) {
            None => return path,
            Some(next) => bound = next,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::big::Size;
    use search::rng::SplitMix64;

    #[test]
    fn solves_random_boards_of_every_shape_both_ways() {
        let mut rng = SplitMix64::new(11);
        for (r, c) in [(3, 3), (4, 4), (5, 5), (6, 6), (3, 7), (7, 4), (8, 8)] {
            let size = Size::new(r, c).unwrap();
            for goal in [Goal::BlankLast, Goal::BlankFirst] {
                let p = Position::random(size, goal, &mut rng);
                for method in [Method::Search, Method::Greedy] {
                    let s = solve(&p, goal, method).unwrap();
                    assert!(s.blank.len() as u32 >= p.lower_bound(goal));
                    let mut q = p.clone();
                    assert!(s.blank.iter().all(|&d| q.move_blank(d)));
                    assert!(q.is_goal(goal), "{size} {goal:?} {method:?}");
                }
            }
        }
    }

    /// The largest board, where the first lines' tiles go one at a time.
    #[test]
    fn solves_the_largest_board() {
        let size = Size::new(crate::big::MAX_SIDE, crate::big::MAX_SIDE).unwrap();
        let p = Position::random(size, Goal::BlankLast, &mut SplitMix64::new(4));
        let s = solve(&p, Goal::BlankLast, Method::Search).unwrap();
        assert!(s.blank.len() as u32 >= p.lower_bound(Goal::BlankLast));
    }

    #[test]
    fn the_last_block_is_solved_optimally_against_every_distance() {
        let dist = crate::exhaustive::distances(crate::Board::new(3, 3).unwrap());
        let mut rng = SplitMix64::new(2);
        let size = Size::new(3, 3).unwrap();
        for _ in 0..200 {
            let p = Position::random(size, Goal::BlankLast, &mut rng);
            let local: Vec<u8> = p.tiles.iter().map(|&t| t as u8).collect();
            let state =
                crate::State::from_tiles(crate::Board::new(3, 3).unwrap(), &Goal::BlankLast.to_internal(&local));
            let path = solve_3x3(local.clone().try_into().unwrap());
            assert_eq!(path.len() as u8, dist[&state.unwrap().pack()], "{local:?}");
        }
        // 8 6 7 / 2 5 4 / 3 0 1 is one of the two 3x3 positions 31 moves from the goal.
        assert_eq!(solve_3x3([8, 6, 7, 2, 5, 4, 3, 0, 1]).len(), 31);
        assert_eq!(solve_3x3([1, 2, 3, 4, 5, 6, 7, 8, 0]).len(), 0);
    }
}
