//! One IDA* iteration cut into work items for other machines: the subtrees below the nodes a few moves from
//! the start, each named by the moves that reach it (its prefix), searched anywhere at the same bound.
//!
//! The cut expands nodes exactly as the iteration itself would (the same automaton, the same pruning by the
//! bound), so the cut's nodes and its items' nodes add up to the nodes of the unsplit iteration, and the
//! smallest f-value any of them cut off is the next bound. An item is rebuilt from its prefix by replaying
//! it through the automaton: a prefix the automaton forbids is refused, since its subtree is not part of the
//! iteration.

use crate::fsm::Transitions;
use crate::guard::Guard;
use crate::heuristic::Heuristic;
use crate::ida::{expand, parallel_iteration};
use crate::lanes::Worker;
use crate::moves::{after_move, Moves};
use crate::outcome::{Counts, Limits, Stop};
use crate::work::{Item, Source};
use puzzle::State;
use std::sync::atomic::Ordering;

/// An iteration cut into items.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Split {
    /// The items' prefixes in the iteration's order (the serial search's), or a solution found while
    /// cutting (shorter than the items' depth).
    pub outcome: Divided,
    /// The nodes the cut itself expanded and generated.
    pub counts: Counts,
    /// The smallest f-value above the bound among the nodes the cut pruned (`u32::MAX` if none).
    pub next: u32,
}

/// What cutting an iteration gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Divided {
    /// A solution within the bound, found above the items' depth: the iteration needs no items.
    Solved(Vec<u8>),
    /// The items' prefixes (tiles moved, internal labels); none when every node was pruned.
    Items(Vec<Vec<u8>>),
}

/// One item searched at its bound.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Worked {
    /// A solution in the item's subtree (its prefix and the rest), replayed from the start.
    pub found: Option<Vec<u8>>,
    /// The smallest f-value above the bound in the subtree (`u32::MAX` if none): without a solution
    /// anywhere, the least of every item's is the next bound.
    pub next: u32,
    /// The subtree's nodes: the item itself expanded, and everything below it.
    pub counts: Counts,
    /// The limit that stopped the search before it had covered the subtree, if one did.
    pub stopped: Option<Stop>,
}

/// Cuts the iteration at `bound` from `start` into at least `at_least` items where the tree is that wide,
/// expanding the nodes of most slack first (items are at different depths).
pub(crate) fn split<H: Heuristic, T: Transitions>(
    heur: &H,
    moves: &Moves<T>,
    start: &State,
    bound: u32,
    at_least: usize,
) -> Split {
    let mut counts = Counts::default();
    let mut next = u32::MAX;
    let root = root_item(heur, moves, start);
    if H::h(&root.node) == 0 {
        return Split { outcome: Divided::Solved(Vec::new()), counts, next };
    }
    if H::h(&root.node) > bound {
        return Split { outcome: Divided::Items(Vec::new()), counts, next: H::h(&root.node) };
    }
    // A node's subtree within the bound grows about exponentially with its slack (the bound less its f), so
    // the nodes of the largest slack are cut finer, all of them at once and in place (the items stay in the
    // search's order), until there are enough items: the items' subtrees come out of similar size, where a
    // cut at one depth leaves a few giants that a cluster would wait for.
    let slack = |it: &Item<H::Node>| bound - it.depth() - H::h(&it.node);
    let mut items = vec![root];
    while items.len() < at_least {
        let Some(most) = items.iter().map(slack).max().filter(|&m| m > 0) else { break };
        let mut finer = Vec::with_capacity(items.len() * 2);
        for it in items {
            if slack(&it) < most {
                finer.push(it);
                continue;
            }
            match expand(heur, moves, &it, bound, &mut counts, &mut next) {
                Ok(kids) => finer.extend(kids),
                Err(solution) => return Split { outcome: Divided::Solved(solution), counts, next },
            }
        }
        items = finer;
    }
    Split { outcome: Divided::Items(items.into_iter().map(|it| it.path).collect()), counts, next }
}

/// The start as the iteration's root item.
fn root_item<H: Heuristic, T: Transitions>(heur: &H, moves: &Moves<T>, start: &State) -> Item<H::Node> {
    let tiles = start.tile_array();
    Item { tiles, node: heur.root(&tiles), blank: start.blank(), state: moves.fsm.start(start.blank()), path: vec![] }
}

/// The item `prefix` leads to from `start`; `Err` naming the first move that the board or the automaton does
/// not allow (the prefix is then not one of an iteration's items).
pub(crate) fn item_at<H: Heuristic, T: Transitions>(
    heur: &H,
    moves: &Moves<T>,
    start: &State,
    prefix: &[u8],
) -> Result<Item<H::Node>, String> {
    let mut it = root_item(heur, moves, start);
    for (k, &tile) in prefix.iter().enumerate() {
        let Some((from, state)) = moves.from(it.blank, it.state).find(|&(from, _)| it.tiles[from] == tile) else {
            return Err(format!("move {} (tile {tile}) is not a move the search makes there", k + 1));
        };
        it.tiles = after_move(&it.tiles, it.blank, from).0;
        it.blank = from;
        it.state = state;
    }
    it.node = heur.root(&it.tiles);
    it.path = prefix.to_vec();
    Ok(it)
}

/// Searches `item`'s subtree within `bound`, on `pool` if there is one.
pub(crate) fn work<H: Heuristic, T: Transitions>(
    heur: &H,
    moves: &Moves<T>,
    item: Item<H::Node>,
    bound: u32,
    pool: Option<&rayon::ThreadPool>,
    lanes: usize,
    limits: &Limits,
) -> Worked {
    let guard = Guard::new(limits);
    let (found, next, counts) = match pool {
        None => {
            let mut worker = Worker::new(heur, moves, &guard, lanes);
            let found = worker.search(bound, Source::Root(item)).filter(|_| !guard.stop.load(Ordering::Relaxed));
            (found, worker.next_bound(), worker.counts())
        }
        Some(pool) => {
            pool.install(|| parallel_iteration(heur, moves, &guard, item, bound, pool.current_num_threads(), lanes))
        }
    };
    let stopped = if found.is_some() { None } else { *guard.why.lock().unwrap() };
    Worked { found, next, counts, stopped }
}
