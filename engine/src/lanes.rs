//! The depth-first part of an IDA* iteration: a few searches ("lanes") interleaved on one thread.
//!
//! Why: with the 7-8 tables most of a node's cost is waiting for its children's table entries, which miss
//! the caches. A lane makes a node's children (which starts their reads) and hands over to the next lane;
//! when its turn comes again the entries have arrived. The lanes search disjoint subtrees of the same
//! iteration, so every node within the bound is still visited exactly once; only the order changes, and
//! order matters only in the last iteration, where any solution found is optimal. On 5x5 the interleaving was
//! measured to cost more than it hides, with every table set: one lane is the default there (`settings`).
//!
//! A lane that runs out of work takes the next work item of a parallel iteration or, failing that, a piece
//! of another lane's: the next untried child of its deepest node that is still far enough from the bound to
//! be worth handing over, which is the work that comes next in the serial order. A thread whose peers wait
//! gives them such a piece through the shared queue. Keeping every lane and thread near the front of the
//! serial order matters in the last iteration: siblings are searched best-first, so the solution tends to
//! lie there, and work past it is wasted.

use crate::fsm::Transitions;
use crate::guard::{Guard, CHECK_EVERY};
use crate::heuristic::Heuristic;
use crate::moves::{after_move, Moves, MAX_PATH};
use crate::outcome::Counts;
use crate::work::{Item, Queue, Source};
use puzzle::MAX_CELLS;
use std::sync::atomic::Ordering;

/// Nodes a lone lane expands per turn: the turn's bookkeeping (limits, donation) is paid once per this many.
const SOLO_BUDGET: u32 = 64;

/// Subtrees at least this far from the bound may be handed to another lane or thread; smaller ones cost
/// more to hand over than to search.
const HANDOVER_MIN_LEFT: u32 = 4;

#[derive(Clone, Copy, Default)]
struct Kid<N> {
    node: N,
    /// The cell the moved tile comes from (the child's blank).
    from: u8,
    /// The move automaton's state after the move.
    state: u32,
}

/// A node on a lane's path: its children (settled and ordered on the lane's next turn after they are
/// made), how many have been taken, and its blank. Children stay where they were made; the child being
/// searched is the parent its own children are made from, and `order` says which one that is.
#[derive(Clone, Copy, Default)]
struct Frame<N> {
    kids: [Kid<N>; 4],
    /// Indices into `kids`, best estimate first.
    order: [u8; 4],
    n: u8,
    taken: u8,
    blank: u8,
    /// The index of this frame's node among its parent's kids (frame 0's node is the lane's root): kept
    /// only by a search with BPMX, which backs estimates up to it.
    pick: u8,
}

impl<N> Frame<N> {
    fn exhausted(&self) -> bool {
        self.taken == self.n
    }

    /// The index of the next child to try.
    fn next(&self) -> usize {
        self.order[self.taken as usize] as usize
    }
}

/// One depth-first search with an explicit stack.
struct Lane<N> {
    /// The position at the deepest frame.
    tiles: [u8; MAX_CELLS],
    /// Frame 0's node (the work item's).
    root: N,
    frames: Vec<Frame<N>>,
    /// Frames in use; 0 when the lane is idle.
    top: usize,
    /// No frame below this one has an untried child.
    low: usize,
    /// Depth of frame 0's node.
    g0: u32,
    /// `path[d]`: the tile moved from frame d's node to frame d + 1's.
    path: [u8; MAX_PATH],
    /// The moves from the root to frame 0's node.
    prefix: Vec<u8>,
}

/// What a lane's turn ended with.
enum Turn {
    /// Made a node's children; their entries are on the way.
    Made,
    /// The lane's subtree is searched.
    Idle,
    /// `path[..top]` reaches the goal.
    Found,
}

/// What all lanes of a thread share.
struct Shared<'a, H: Heuristic, T> {
    heur: &'a H,
    moves: &'a Moves<'a, T>,
    bound: u32,
    next_bound: u32,
    counts: Counts,
}

impl<N: Copy + Default> Lane<N> {
    fn new() -> Self {
        Lane {
            tiles: [0; MAX_CELLS],
            root: N::default(),
            frames: Vec::new(),
            top: 0,
            low: 0,
            g0: 0,
            path: [0; MAX_PATH],
            prefix: Vec::new(),
        }
    }

    /// Pushes a frame for child `pick` of the deepest frame (`None`: for `root`), whose blank is on `blank`
    /// and automaton in `state`, making its children.
    #[inline(always)]
    fn push<H: Heuristic<Node = N>, T: Transitions>(
        &mut self,
        sh: &mut Shared<H, T>,
        pick: Option<usize>,
        blank: usize,
        state: u32,
    ) {
        if self.top == self.frames.len() {
            self.frames.push(Frame::default());
        }
        let (below, at) = self.frames.split_at_mut(self.top);
        let node = match pick {
            Some(k) => &below[self.top - 1].kids[k].node,
            None => &self.root,
        };
        let f = &mut at[0];
        let mut n = 0;
        for (from, next) in sh.moves.from(blank, state) {
            let kid = &mut f.kids[n];
            sh.heur.child(node, &self.tiles, self.tiles[from], from, blank, &mut kid.node);
            kid.from = from as u8;
            kid.state = next;
            sh.moves.prefetch(next);
            n += 1;
        }
        f.n = n as u8;
        f.taken = 0;
        f.blank = blank as u8;
        if H::BPMX {
            f.pick = pick.unwrap_or(0) as u8;
        }
        self.low = self.low.min(self.top);
        self.top += 1;
        sh.counts.expanded += 1;
        sh.counts.generated += n as u64;
    }

    fn start<H: Heuristic<Node = N>, T: Transitions>(&mut self, sh: &mut Shared<H, T>, it: Item<N>) {
        self.tiles = it.tiles;
        self.g0 = it.depth();
        self.prefix = it.path;
        self.root = it.node;
        self.top = 0;
        self.low = 0;
        self.push(sh, None, it.blank, it.state);
    }

    /// Settles the children made on the last turn, then walks the path until it has made `budget` more
    /// nodes' children (settling each before going on, except the last), finds the goal, or runs out of
    /// work. A budget of 1 hands over after every node; a lone lane has nobody to hand over to.
    #[inline(always)]
    fn turn<H: Heuristic<Node = N>, T: Transitions>(&mut self, sh: &mut Shared<H, T>, budget: u32) -> Turn {
        let mut made = 0;
        'settle: loop {
            let f = &mut self.frames[self.top - 1];
            let n = f.n as usize;
            // The children are at depth g0 + top.
            let limit = sh.bound.saturating_sub(self.g0 + self.top as u32);
            for k in &mut f.kids[..n] {
                sh.heur.settle(&mut k.node, limit);
            }
            // Most promising first: it changes nothing in an iteration that finds no solution, and in the
            // last one it tends to reach the goal sooner. Indices are sorted, not the nodes: moving a node
            // just written field by field would stall on store forwarding.
            f.order = [0, 1, 2, 3];
            let kids = &f.kids;
            let h = |k: u8| H::h(&kids[k as usize].node);
            // Insertion sort, inline: the library's sort of so few is the same stable insertion sort (so the
            // same order and nodes) behind a call.
            for i in 1..n {
                let k = f.order[i];
                let mut j = i;
                while j > 0 && h(k) < h(f.order[j - 1]) {
                    f.order[j] = f.order[j - 1];
                    j -= 1;
                }
                f.order[j] = k;
            }
            if H::BPMX {
                self.bpmx_down(sh);
            }
            loop {
                let d = self.top - 1;
                let f = &mut self.frames[d];
                if !f.exhausted() {
                    let k = f.next();
                    let kid = &f.kids[k];
                    f.taken += 1;
                    let h = H::h(&kid.node);
                    let cost = self.g0 + d as u32 + 1 + h;
                    if cost > sh.bound {
                        // The rest are no better.
                        sh.next_bound = sh.next_bound.min(cost);
                        f.taken = f.n;
                        continue;
                    }
                    let (blank, from) = (f.blank as usize, kid.from as usize);
                    let tile = self.tiles[from];
                    self.path[d] = tile;
                    if h == 0 {
                        return Turn::Found;
                    }
                    let state = kid.state;
                    self.tiles[blank] = tile;
                    self.tiles[from] = 0;
                    self.push(sh, Some(k), from, state);
                    made += 1;
                    if made == budget {
                        return Turn::Made;
                    }
                    continue 'settle;
                }
                // Back to the parent: undo the move that led here.
                if d == 0 {
                    self.top = 0;
                    return Turn::Idle;
                }
                self.tiles[f.blank as usize] = self.path[d - 1];
                self.tiles[self.frames[d - 1].blank as usize] = 0;
                self.top = d;
                if H::BPMX {
                    self.bpmx_up(sh, d);
                }
            }
        }
    }

    /// Frame `d`'s node: the lane's root, or the child of frame `d - 1` that frame `d` searches (BPMX only).
    fn node_mut(&mut self, d: usize) -> &mut N {
        if d == 0 {
            return &mut self.root;
        }
        let pick = self.frames[d].pick as usize;
        &mut self.frames[d - 1].kids[pick].node
    }

    /// BPMX from the children of the deepest frame, just settled, to its node and back: the node's estimate
    /// is at least the largest child's less one, and each child's at least the node's less one. A node that
    /// is then over the bound has its children cut.
    #[inline(always)]
    fn bpmx_down<H: Heuristic<Node = N>, T: Transitions>(&mut self, sh: &mut Shared<H, T>) {
        let d = self.top - 1;
        let f = &self.frames[d];
        let most = f.kids[..f.n as usize].iter().map(|k| H::h(&k.node)).max().unwrap_or(0);
        let x = self.node_mut(d);
        H::raise(x, most.saturating_sub(1));
        let h = H::h(x);
        let cost = self.g0 + d as u32 + h;
        let f = &mut self.frames[d];
        if cost > sh.bound {
            sh.next_bound = sh.next_bound.min(cost);
            f.taken = f.n;
        } else if h > 1 {
            for k in &mut f.kids[..f.n as usize] {
                H::raise(&mut k.node, h - 1);
            }
        }
    }

    /// BPMX back up, after frame `d`'s subtree is searched: frame `d - 1`'s node's estimate is at least frame
    /// `d`'s node's less one; over the bound, its untried children are cut.
    #[inline(always)]
    fn bpmx_up<H: Heuristic<Node = N>, T: Transitions>(&mut self, sh: &mut Shared<H, T>, d: usize) {
        let h = H::h(self.node_mut(d));
        let g = self.g0 + d as u32 - 1;
        let parent = self.node_mut(d - 1);
        H::raise(parent, h.saturating_sub(1));
        let cost = g + H::h(parent);
        let f = &mut self.frames[d - 1];
        if cost > sh.bound && !f.exhausted() {
            sh.next_bound = sh.next_bound.min(cost);
            f.taken = f.n;
        }
    }

    /// The moves from the root to the goal, after [`Turn::Found`].
    fn solution(&self) -> Vec<u8> {
        let mut moves = self.prefix.clone();
        moves.extend_from_slice(&self.path[..self.top]);
        moves
    }

    /// Takes, as a work item, the next untried child of the deepest node whose children are at least
    /// `min_left` moves from the bound. Only frames whose children are settled (all but the deepest) count;
    /// children found over the bound on the way are dropped, as the search would.
    fn steal<H: Heuristic<Node = N>, T: Transitions>(
        &mut self,
        sh: &mut Shared<H, T>,
        min_left: u32,
    ) -> Option<Item<N>> {
        let bound = sh.bound;
        if self.top < 2 {
            return None;
        }
        while self.low + 1 < self.top && self.frames[self.low].exhausted() {
            self.low += 1;
        }
        // Frame d's children are at depth g0 + d + 1; those at least `min_left` from the bound qualify.
        let reach = (bound as i64 - min_left as i64 - self.g0 as i64).clamp(0, self.top as i64 - 1) as usize;
        for d in (self.low..reach).rev() {
            let f = &mut self.frames[d];
            if f.exhausted() {
                continue;
            }
            let g = self.g0 + d as u32 + 1;
            let kid = f.kids[f.next()];
            let cost = g + H::h(&kid.node);
            if cost > bound {
                sh.next_bound = sh.next_bound.min(cost);
                f.taken = f.n;
                continue;
            }
            f.taken += 1;
            // The position at frame d: undo the moves below it, then make the child's move.
            let mut tiles = self.tiles;
            for e in (d + 1..self.top).rev() {
                tiles[self.frames[e].blank as usize] = self.path[e - 1];
                tiles[self.frames[e - 1].blank as usize] = 0;
            }
            let (tiles, tile) = after_move(&tiles, self.frames[d].blank as usize, kid.from as usize);
            let mut path = Vec::with_capacity(g as usize);
            path.extend_from_slice(&self.prefix);
            path.extend_from_slice(&self.path[..d]);
            path.push(tile);
            return Some(Item { tiles, node: kid.node, blank: kid.from as usize, state: kid.state, path });
        }
        None
    }
}

/// One thread's share of an iteration: its lanes, and where it reports.
pub(crate) struct Worker<'a, H: Heuristic, T> {
    sh: Shared<'a, H, T>,
    guard: &'a Guard<'a>,
    lanes: Vec<Lane<H::Node>>,
}

impl<'a, H: Heuristic, T: Transitions> Worker<'a, H, T> {
    pub(crate) fn new(heur: &'a H, moves: &'a Moves<'a, T>, guard: &'a Guard<'a>, lanes: usize) -> Self {
        Worker {
            sh: Shared { heur, moves, bound: 0, next_bound: u32::MAX, counts: Counts::default() },
            guard,
            lanes: (0..lanes.max(1)).map(|_| Lane::new()).collect(),
        }
    }

    pub(crate) fn next_bound(&self) -> u32 {
        self.sh.next_bound
    }

    pub(crate) fn counts(&self) -> Counts {
        self.sh.counts
    }

    /// Searches every node within `bound` below the root (serial) or below the items of the queue
    /// (parallel); [`Worker::counts`] and [`Worker::next_bound`] then tell this search's nodes and next bound.
    /// Returns the moves of a solution, or `None` when there is none within the bound or the search was
    /// stopped.
    pub(crate) fn search(&mut self, bound: u32, source: Source<H::Node>) -> Option<Vec<u8>> {
        self.sh.bound = bound;
        self.sh.next_bound = u32::MAX;
        self.sh.counts = Counts::default();
        let queue = match source {
            Source::Root(it) => {
                self.lanes[0].start(&mut self.sh, it);
                None
            }
            Source::Queue(q) => Some(q),
        };
        let mut checked = 0;
        let budget = if self.lanes.len() == 1 { SOLO_BUDGET } else { 1 };
        loop {
            let mut busy = 0;
            for k in 0..self.lanes.len() {
                if self.lanes[k].top == 0 {
                    let Some(it) = self.work_for(k, queue) else { continue };
                    self.lanes[k].start(&mut self.sh, it);
                }
                busy += 1;
                if let Turn::Found = self.lanes[k].turn(&mut self.sh, budget) {
                    let moves = self.lanes[k].solution();
                    self.finish(checked);
                    return Some(moves);
                }
            }
            if self.sh.counts.expanded - checked >= CHECK_EVERY {
                let n = self.sh.counts.expanded - checked;
                checked = self.sh.counts.expanded;
                if self.guard.check(n) {
                    self.finish(checked);
                    return None;
                }
            }
            if let Some(q) = queue {
                // Another thread's solution ends the iteration for all: stop within one round.
                if self.guard.stop.load(Ordering::Relaxed) {
                    break;
                }
                if q.idle.load(Ordering::Relaxed) > 0 {
                    self.donate(q);
                }
                if busy == 0 && q.wait(self.guard) {
                    continue;
                }
            }
            if busy == 0 {
                break;
            }
        }
        self.finish(checked);
        None
    }

    fn finish(&mut self, checked: u64) {
        self.guard.check(self.sh.counts.expanded - checked);
        for lane in &mut self.lanes {
            lane.top = 0;
        }
    }

    /// Work for idle lane `k`: the queue's next item, else a piece of another lane's (see `Lane::steal`).
    fn work_for(&mut self, k: usize, queue: Option<&Queue<H::Node>>) -> Option<Item<H::Node>> {
        if let Some(it) = queue.and_then(|q| q.pop()) {
            return Some(it);
        }
        (0..self.lanes.len()).filter(|&j| j != k).find_map(|j| self.lanes[j].steal(&mut self.sh, HANDOVER_MIN_LEFT))
    }

    /// Gives a waiting thread a piece of these lanes' work, if one is worth handing over.
    #[cold]
    fn donate(&mut self, q: &Queue<H::Node>) {
        if q.len() > 0 {
            return;
        }
        if let Some(it) = self.lanes.iter_mut().find_map(|l| l.steal(&mut self.sh, HANDOVER_MIN_LEFT)) {
            q.push_front(it);
        }
    }
}
