//! Duplicate-path pruning for the multi-tile search: an automaton over the blank's cells, as [`crate::fsm`]
//! is for single-tile moves, built from the search's own move rule (the axes alternate).
//!
//! A path is the sequence of the blank's cells; two paths from the same cell that leave the tiles the same
//! way are twins from any position. Every path of up to a few moves is enumerated from every cell; of each
//! family of twins the smallest (shortest, then least in its cells in turn) is kept and the others are
//! forbidden as *substrings* of the search's path, those with no forbidden proper prefix (the others can never
//! be reached). An Aho-Corasick automaton tracks the path's suffix in one table read a move.
//!
//! Why no optimal solution is lost: let `W` be the smallest of the optimal alternating paths. Were a forbidden
//! `P` a substring of `W`, its kept twin `Q` in its place would give a path to the same position no longer than
//! `W` and smaller. If that path moved twice in a row on one axis where `Q` meets the rest, the two moves
//! would merge into one (or none) and give a shorter solution than the optimum; so it alternates, and is a
//! smaller optimal alternating path than `W`, which cannot be. So `W` has no forbidden substring, and all its
//! nodes are within the last iteration's bound (the estimate is admissible): it is searched in full.

use puzzle::Board;
use std::collections::HashMap;

/// A move that completes a forbidden path.
pub(crate) const PRUNED: u32 = u32::MAX;

/// Paths enumerated from all cells together at most (the depth is the largest that keeps within it): about a
/// tenth of a second of building.
const PATH_BUDGET: u64 = 1_500_000;

/// The deepest paths enumerated.
const MAX_DEPTH: usize = 10;

/// The automaton: for each state, axis (0 vertical, 1 horizontal) and child (as the search numbers a node's
/// children on one axis: first the blank 1, 2, ... cells toward line 0, then 1, 2, ... away), the next state
/// or [`PRUNED`]. On 4x4, paths of up to 9 moves: 33,496 forbidden, 84,596 states, 2 MB, built in about
/// 0.15 s (10 moves: 295,456 states, and Korf's 100 no faster). States are 32-bit: 16 bits do not number them.
#[derive(Debug)]
pub(crate) struct MtmFsm {
    next: Vec<u32>,
    /// Entries a state: two axes of `lane` children.
    stride: usize,
    lane: usize,
}

/// The blank's cell after child `i` of a node whose blank is on `cell`, on one axis; `None` if it has no such
/// child.
fn child_cell(board: Board, cell: usize, vertical: bool, i: usize) -> Option<usize> {
    let (line, lines, stride) =
        if vertical { (board.row(cell), board.rows(), board.cols()) } else { (board.col(cell), board.cols(), 1) };
    if i < line {
        Some(cell - (i + 1) * stride)
    } else if i + 1 < lines {
        Some(cell + (i - line + 1) * stride)
    } else {
        None
    }
}

/// The tiles, one a cell, after the blank moves from `from` to `to` on its line (the tiles between slide one
/// cell toward `from`).
fn slide(tiles: &mut [u8], from: usize, to: usize, stride: usize) {
    let mut at = from;
    while at != to {
        let next = if to > at { at + stride } else { at - stride };
        tiles.swap(at, next);
        at = next;
    }
}

/// A path's cells packed, the first in the highest bits, so that among paths of one length integer order is
/// the order of their cells in turn.
type Packed = u128;

/// One enumeration of every alternating path of up to `depth` moves from `start`: `visit` is told each
/// path's cells and tiles, and extends it only when it returns `true`.
fn enumerate(board: Board, depth: usize, start: usize, visit: &mut dyn FnMut(&[u8], &[u8]) -> bool) {
    fn go(
        board: Board,
        depth: usize,
        cells: &mut Vec<u8>,
        tiles: &mut Vec<u8>,
        last: Option<bool>,
        visit: &mut dyn FnMut(&[u8], &[u8]) -> bool,
    ) {
        if cells.len() > depth {
            return;
        }
        let cell = *cells.last().expect("a start") as usize;
        for vertical in [true, false] {
            if last == Some(vertical) {
                continue;
            }
            let stride = if vertical { board.cols() } else { 1 };
            for i in 0.. {
                let Some(to) = child_cell(board, cell, vertical, i) else { break };
                slide(tiles, cell, to, stride);
                cells.push(to as u8);
                if visit(cells, tiles) {
                    go(board, depth, cells, tiles, Some(vertical), visit);
                }
                cells.pop();
                slide(tiles, to, cell, stride);
            }
        }
    }
    let mut tiles: Vec<u8> = (0..board.cells() as u8).collect();
    let mut cells = vec![start as u8];
    go(board, depth, &mut cells, &mut tiles, None, visit);
}

fn pack(xs: &[u8]) -> Packed {
    xs.iter().fold(0, |p, &x| p << 5 | x as Packed)
}

/// The smallest path of up to `depth` moves from `start` to each arrangement it reaches, by the arrangement
/// packed: (its moves, its cells packed).
fn smallest(board: Board, depth: usize, start: usize) -> HashMap<Packed, (usize, Packed)> {
    let mut best = HashMap::new();
    enumerate(board, depth, start, &mut |cells, tiles| {
        let me = (cells.len(), pack(cells));
        let e = best.entry(pack(tiles)).or_insert(me);
        *e = (*e).min(me);
        true
    });
    best
}

/// Every minimal forbidden path of up to `depth` moves from `start`, as its cells.
fn forbidden_from(board: Board, depth: usize, start: usize) -> Vec<Vec<u8>> {
    let best = smallest(board, depth, start);
    let mut out = Vec::new();
    enumerate(board, depth, start, &mut |cells, tiles| {
        let kept = best[&pack(tiles)] == (cells.len(), pack(cells));
        if !kept {
            out.push(cells.to_vec());
        }
        kept
    });
    out
}

impl MtmFsm {
    /// The automaton of `board`'s forbidden paths of as many moves as [`PATH_BUDGET`] allows.
    pub(crate) fn build(board: Board) -> MtmFsm {
        let per = (board.rows() - 1 + board.cols() - 1) as u64;
        let mut depth = 1;
        let mut paths = per;
        while depth < MAX_DEPTH {
            let more = paths * (board.rows().max(board.cols()) - 1) as u64;
            if more * board.cells() as u64 > PATH_BUDGET {
                break;
            }
            paths = more;
            depth += 1;
        }
        MtmFsm::with_depth(board, depth)
    }

    /// The automaton of `board`'s forbidden paths of up to `depth` moves.
    pub(crate) fn with_depth(board: Board, depth: usize) -> MtmFsm {
        let patterns: Vec<Vec<u8>> = (0..board.cells()).flat_map(|s| forbidden_from(board, depth, s)).collect();
        let lane = board.rows().max(board.cols()) - 1;
        // The trie of the forbidden paths' cells: node `c` below `cells` is the single cell `c` (and the state
        // of a path that has only its start there); for every node its parent and its last cell, and whether a
        // forbidden path ends at it (later: or at one of its suffixes).
        let cells = board.cells();
        let mut child: HashMap<(u32, u8), u32> = HashMap::new();
        let mut end: Vec<bool> = vec![false; cells];
        let mut parent: Vec<(u32, u8)> = (0..cells as u32).map(|c| (u32::MAX, c as u8)).collect();
        for p in &patterns {
            let mut v = p[0] as u32;
            for &c in &p[1..] {
                v = match child.get(&(v, c)) {
                    Some(&w) => w,
                    None => {
                        let w = parent.len() as u32;
                        child.insert((v, c), w);
                        end.push(false);
                        parent.push((v, c));
                        w
                    }
                };
            }
            end[v as usize] = true;
        }
        // Failure links, breadth-first (a suffix's node is shallower, so its link is known first): a node's is
        // the longest proper suffix of its cells that is a node, at least its last cell.
        let n = parent.len();
        let mut fail = vec![u32::MAX; n];
        let mut order: Vec<u32> = (0..cells as u32).collect();
        let mut kids: Vec<Vec<u32>> = vec![Vec::new(); n];
        for v in cells..n {
            kids[parent[v].0 as usize].push(v as u32);
        }
        let mut i = 0;
        while i < order.len() {
            let v = order[i] as usize;
            i += 1;
            if v >= cells {
                let (u, c) = parent[v];
                fail[v] = if (u as usize) < cells { c as u32 } else { goto(&child, &fail, cells, fail[u as usize], c) };
                end[v] = end[v] || end[fail[v] as usize];
            }
            order.extend(&kids[v]);
        }
        let stride = 2 * lane;
        let mut next = vec![PRUNED; n * stride];
        for v in 0..n {
            for (a, vertical) in [true, false].into_iter().enumerate() {
                for i in 0..lane {
                    if let Some(c) = child_cell(board, parent[v].1 as usize, vertical, i) {
                        let t = goto(&child, &fail, cells, v as u32, c as u8);
                        if !end[t as usize] {
                            next[v * stride + a * lane + i] = t;
                        }
                    }
                }
            }
        }
        MtmFsm { next, stride, lane }
    }

    /// The state of a path that has only its start, the blank on `cell`: the trie's node of that cell.
    pub(crate) fn start(&self, cell: usize) -> u32 {
        cell as u32
    }

    /// The state after child `i` on the axis (`vertical` or not) of a node in `state`, or [`PRUNED`].
    #[inline(always)]
    pub(crate) fn step(&self, state: u32, vertical: bool, i: usize) -> u32 {
        self.next[state as usize * self.stride + (!vertical as usize) * self.lane + i]
    }
}

/// The trie node reached from node `v` by the cell `c`: its child by `c` if it has one, else the failure
/// target's, down to the single cell `c`.
fn goto(child: &HashMap<(u32, u8), u32>, fail: &[u32], cells: usize, mut v: u32, c: u8) -> u32 {
    loop {
        if let Some(&w) = child.get(&(v, c)) {
            return w;
        }
        if (v as usize) < cells {
            return c as u32;
        }
        v = fail[v as usize];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// On 3x3 every alternating path of up to eight moves from every cell either is the smallest of its twins
    /// or is pruned by the automaton at its first move past a forbidden one.
    #[test]
    fn the_automaton_keeps_exactly_the_smallest_twins() {
        let board = Board::new(3, 3).unwrap();
        let depth = 8;
        let fsm = MtmFsm::with_depth(board, depth);
        let mut pruned = 0;
        for s in 0..board.cells() {
            let best = smallest(board, depth, s);
            // Every arrangement's smallest path survives the automaton.
            let mut survivors = 0;
            enumerate(board, depth, s, &mut |cells, tiles| {
                let mut state = fsm.start(s);
                for w in cells.windows(2) {
                    let (a, b) = (w[0] as usize, w[1] as usize);
                    let vertical = board.col(a) == board.col(b);
                    let i = (0..fsm.lane).find(|&i| child_cell(board, a, vertical, i) == Some(b)).unwrap();
                    state = fsm.step(state, vertical, i);
                    if state == PRUNED {
                        break;
                    }
                }
                let kept = best[&pack(tiles)] == (cells.len(), pack(cells));
                assert_eq!(state != PRUNED, kept, "{cells:?}");
                survivors += kept as usize;
                pruned += !kept as usize;
                kept
            });
            assert_eq!(survivors, best.len());
        }
        assert!(pruned > 0, "twins exist within eight moves on 3x3");
    }
}
