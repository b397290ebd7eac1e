//! One iteration of the multi-tile search on several threads, with the nodes and the solution of one.
//!
//! The iteration is first searched as one thread would, down to a depth chosen so that there are enough
//! nodes there (`ITEMS_A_THREAD` a thread): those nodes are kept as work items, in the serial order, each
//! with what one thread had counted on reaching it. The threads then take the items in that order. A thread
//! that finds a solution in item `k` says so, and the items after `k` are given up (those being searched stop
//! at their next look at the limits); the items before `k` are searched to the end, since one of them may
//! hold a solution that comes first. The solution is then the first in the serial order, and the nodes are
//! those one thread would have counted: the cut's up to item `k`, and items `0..=k`'s. Without a solution
//! every item is searched, and the counts and the next bound are the cut's and all the items'.

use super::{Child, Dfs, Found, Pos, MAX_LINE};
use crate::outcome::Counts;
use puzzle::State;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering::Relaxed};

/// Work items wanted a thread: enough that the threads finish an iteration close together.
const ITEMS_A_THREAD: usize = 64;

/// A node kept by the cut, to be searched below by some thread.
pub(super) struct Item {
    g: u32,
    rs: u32,
    cs: u32,
    last: u8,
    pos: Pos,
    /// The tiles slid to reach it.
    path: Vec<u8>,
    /// Its children, evaluated (`Dfs::first_looks`) before it was reached.
    kids: [Child; MAX_LINE],
    n: usize,
    /// What one thread had counted on reaching it: all before the iteration, and the cut's up to here.
    before: Counts,
}

/// What the threads of one iteration share.
pub(super) struct Shared {
    /// The next item to take.
    next: AtomicUsize,
    /// The first item (in the serial order) found to hold a solution so far; `usize::MAX` none.
    solved_at: AtomicUsize,
    /// A thread stopped for a limit: the others stop too.
    halted: AtomicBool,
    /// Every thread's expanded nodes, and all before the items, for the node limit and the progress.
    expanded: AtomicU64,
}

impl Shared {
    /// `Some(Found::Dropped)` if item `ordinal` is given up: a solution before it, or a halt.
    pub(super) fn given_up(&self, ordinal: usize) -> Option<Found> {
        (self.halted.load(Relaxed) || ordinal > self.solved_at.load(Relaxed)).then_some(Found::Dropped)
    }

    /// Adds `n` expanded nodes; every thread's total.
    pub(super) fn add_expanded(&self, n: u64) -> u64 {
        self.expanded.fetch_add(n, Relaxed) + n
    }

    /// Stops every thread at its next look at the limits.
    pub(super) fn halt(&self) {
        self.halted.store(true, Relaxed);
    }
}

fn add(a: Counts, b: Counts) -> Counts {
    Counts { generated: a.generated + b.generated, expanded: a.expanded + b.expanded }
}

impl Dfs<'_> {
    /// Keeps the node reached at the cut (cost `g`, abstractions `rs` and `cs`, previous move on `last`, its
    /// `n` children at `ahead[slot..]`) as an item; below it is searched later.
    #[cold]
    #[inline(never)]
    pub(super) fn keep(&mut self, g: u32, rs: u32, cs: u32, last: u8, slot: usize, n: usize) -> Found {
        let mut kids = [Child::default(); MAX_LINE];
        kids[..n].copy_from_slice(&self.ahead[slot..slot + n]);
        let before = self.counts;
        self.items.push(Item { g, rs, cs, last, pos: self.pos, path: self.path.clone(), kids, n, before });
        Found::No(u32::MAX)
    }

    /// Searches below `item` at `bound`, as the serial search would on reaching it.
    fn item(&mut self, item: &Item, bound: u32) -> Found {
        self.pos = item.pos;
        self.path.clone_from(&item.path);
        // The room of the children of a depth `g - 1` node's children, which nothing deeper uses.
        let slot = (item.g as usize + 1) * self.lane * self.lane;
        self.make_room(bound);
        self.ahead[slot..slot + item.n].copy_from_slice(&item.kids[..item.n]);
        self.descend(item.g, bound, item.rs, item.cs, item.last, slot, item.n)
    }
}

/// The iteration at `bound` from `state` (abstractions `rs`, `cs`) on `threads` threads, `dfs` being the
/// one thread's search: its counts and, with a solution, its path are left as one thread's would be.
pub(super) fn iteration(dfs: &mut Dfs<'_>, state: &State, bound: u32, rs: u32, cs: u32, threads: usize) -> Found {
    let before = dfs.counts;
    let mut cut = 1;
    let least = loop {
        // Each cut is searched from the iteration's start, and looks at the limits as soon as it would have.
        dfs.counts = before;
        dfs.next_check = dfs.next_check.min(before.expanded + super::CHECK_EVERY);
        dfs.items.clear();
        dfs.cut = cut;
        let found = dfs.root(bound, rs, cs);
        dfs.cut = u32::MAX;
        match found {
            Found::No(_) if !dfs.items.is_empty() && dfs.items.len() < ITEMS_A_THREAD * threads && cut < bound => {
                cut += 1
            }
            Found::No(least) => break least,
            done => return done,
        }
    };
    let items = std::mem::take(&mut dfs.items);
    if items.is_empty() {
        return Found::No(least);
    }
    let shared = Shared {
        next: AtomicUsize::new(0),
        solved_at: AtomicUsize::new(usize::MAX),
        halted: AtomicBool::new(false),
        expanded: AtomicU64::new(dfs.counts.expanded),
    };
    let (s, limits, started) = (dfs.s, dfs.limits, dfs.started);
    // Each item's outcome, counts and (with a solution) path, in the serial order.
    let mut done: Vec<(usize, Found, Counts, Vec<u8>)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut w = Dfs::new(s, state, limits, started);
                    w.shared = Some(&shared);
                    let mut done = Vec::new();
                    loop {
                        let i = shared.next.fetch_add(1, Relaxed);
                        if i >= items.len() || shared.given_up(i).is_some() {
                            break;
                        }
                        w.ordinal = i;
                        let start = w.counts;
                        let found = w.item(&items[i], bound);
                        if found == Found::Yes {
                            shared.solved_at.fetch_min(i, Relaxed);
                        }
                        let counts = Counts {
                            generated: w.counts.generated - start.generated,
                            expanded: w.counts.expanded - start.expanded,
                        };
                        let path = if found == Found::Yes { std::mem::take(&mut w.path) } else { Vec::new() };
                        done.push((i, found, counts, path));
                    }
                    done
                })
            })
            .collect();
        workers.into_iter().flat_map(|w| w.join().expect("a search thread panicked")).collect()
    });
    done.sort_unstable_by_key(|d| d.0);
    // The first solution counts when every item before it was searched to the end, even if a thread on a
    // later item stopped for a limit meanwhile: one thread would have met it first.
    if let Some(k) = done.iter().position(|d| d.1 == Found::Yes) {
        if done[..k].iter().enumerate().all(|(j, d)| d.0 == j && matches!(d.1, Found::No(_))) {
            dfs.counts = done[..=k].iter().fold(items[done[k].0].before, |c, d| add(c, d.2));
            dfs.path = std::mem::take(&mut done[k].3);
            return Found::Yes;
        }
    }
    if let Some(stop) = done.iter().find_map(|d| match d.1 {
        Found::Stopped(stop) => Some(stop),
        _ => None,
    }) {
        dfs.counts = done.iter().fold(dfs.counts, |c, d| add(c, d.2));
        return Found::Stopped(stop);
    }
    debug_assert!(done.iter().all(|d| matches!(d.1, Found::No(_))), "no solution, no stop, every item searched");
    dfs.counts = done.iter().fold(dfs.counts, |c, d| add(c, d.2));
    Found::No(done.iter().fold(least, |l, d| match d.1 {
        Found::No(n) => l.min(n),
        _ => l,
    }))
}
