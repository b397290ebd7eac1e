//! Textbook IDA*: the plain recursive search of the textbooks, kept apart from the fast one (`ida`, `lanes`)
//! so that its node counts follow one convention a student can implement and check theirs against
//! (docs/textbook.md), whatever the fast search's order, pruning and threads do.
//!
//! A node is visited when the search calls itself on it: over the bound, its f lowers the next bound;
//! at the goal, the search ends there (so the goal's later siblings are never generated); else it is
//! expanded, and its children are generated one by one (each counted when its heuristic is computed) in the
//! order the blank moves up, down, left, right, the move back to the parent left out, and each is visited
//! before the next is generated. The root is visited, never generated.

use crate::guard::{Guard, CHECK_EVERY};
use crate::heuristic::Heuristic;
use crate::outcome::Counts;
use puzzle::{Board, Dir, Goal, MAX_CELLS};
use std::sync::atomic::Ordering;

/// One iteration of textbook IDA*.
pub(crate) struct Textbook<'a, H: Heuristic> {
    heur: &'a H,
    board: Board,
    /// The blank's directions in the internal (blank-first) frame, in the user's up, down, left, right.
    order: [Dir; 4],
    guard: &'a Guard<'a>,
    bound: u32,
    next: u32,
    counts: Counts,
    /// Expanded nodes at the last limit check.
    checked: u64,
    stopped: bool,
    tiles: [u8; MAX_CELLS],
    path: Vec<u8>,
}

impl<'a, H: Heuristic> Textbook<'a, H> {
    /// A search of `board` for input written for `goal`, under `guard`'s limits.
    pub(crate) fn new(heur: &'a H, board: Board, goal: Goal, guard: &'a Guard<'a>) -> Self {
        Textbook {
            heur,
            board,
            order: Dir::ALL.map(|d| goal.user_dir(d)),
            guard,
            bound: 0,
            next: u32::MAX,
            counts: Counts::default(),
            checked: 0,
            stopped: false,
            tiles: [0; MAX_CELLS],
            path: Vec::new(),
        }
    }

    /// The iteration at `bound` from the position `tiles` (its node `root`, its blank on `blank`): the
    /// moves of a solution found (none when stopped by a limit), the next bound and the iteration's nodes.
    pub(crate) fn iteration(
        &mut self,
        tiles: &[u8; MAX_CELLS],
        root: &H::Node,
        blank: usize,
        bound: u32,
    ) -> (Option<Vec<u8>>, u32, Counts) {
        self.tiles = *tiles;
        self.bound = bound;
        self.next = u32::MAX;
        self.counts = Counts::default();
        self.checked = 0;
        self.path.clear();
        let found = self.visit(root, blank, 0, None) && !self.stopped;
        self.guard.check(self.counts.expanded - self.checked);
        (found.then(|| self.path.clone()), self.next, self.counts)
    }

    /// Visits `node` (blank on `blank`, `g` moves from the root, reached by the blank moving `came`): true
    /// when the goal is found below it (the path then holds the moves) or a limit stopped the search.
    fn visit(&mut self, node: &H::Node, blank: usize, g: u32, came: Option<Dir>) -> bool {
        let h = H::h(node);
        if g + h > self.bound {
            self.next = self.next.min(g + h);
            return false;
        }
        if h == 0 {
            return true;
        }
        self.counts.expanded += 1;
        if self.counts.expanded - self.checked >= CHECK_EVERY {
            let n = self.counts.expanded - self.checked;
            self.checked = self.counts.expanded;
            if self.guard.check(n) || self.guard.stop.load(Ordering::Relaxed) {
                self.stopped = true;
                return true;
            }
        }
        for dir in self.order {
            if came.is_some_and(|c| c.opposite() == dir) {
                continue;
            }
            let Some(from) = self.board.step(blank, dir) else { continue };
            let tile = self.tiles[from];
            let mut child = H::Node::default();
            self.heur.child(node, &self.tiles, tile, from, blank, &mut child);
            // The whole estimate, not only enough to prune: the next bound is the least f over the bound.
            self.heur.settle(&mut child, u32::MAX);
            self.counts.generated += 1;
            self.tiles[blank] = tile;
            self.tiles[from] = 0;
            self.path.push(tile);
            if self.visit(&child, from, g + 1, Some(dir)) {
                return true;
            }
            self.path.pop();
            self.tiles[from] = tile;
            self.tiles[blank] = 0;
        }
        false
    }
}
