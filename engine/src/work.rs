//! Work items of a parallel iteration (nodes below the root handed to a thread), the queue they wait in,
//! and how a worker is told where its work comes from.

use crate::guard::Guard;
use puzzle::MAX_CELLS;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::Duration;

/// Rounds a waiting thread polls (yielding) before it sleeps: a donation usually comes within a few.
const SPIN_ROUNDS: u32 = 256;
/// The longest a waiting thread sleeps before it looks again: a backstop, since work, the end of the iteration
/// and a solution all wake it at once; only a limit's stop is noticed by this.
const NAP: Duration = Duration::from_millis(1);

/// Where a worker's nodes come from in one iteration.
pub(crate) enum Source<'q, N> {
    /// The serial search: one item, the root.
    Root(Item<N>),
    /// A parallel iteration: the shared queue, until it is empty and every thread waits.
    Queue(&'q Queue<N>),
}

/// The work of a parallel iteration not yet taken, in serial order, and how many threads wait for it.
pub(crate) struct Queue<N> {
    items: Mutex<VecDeque<Item<N>>>,
    /// `items.len()`, readable without the lock.
    queued: AtomicUsize,
    /// Threads waiting for work.
    pub(crate) idle: AtomicUsize,
    threads: usize,
    /// Wakes sleeping waiters when work arrives or the last thread runs out of it.
    wake: Condvar,
}

impl<N> Queue<N> {
    pub(crate) fn new(items: Vec<Item<N>>, threads: usize) -> Self {
        Queue {
            queued: AtomicUsize::new(items.len()),
            items: Mutex::new(items.into()),
            idle: AtomicUsize::new(0),
            threads,
            wake: Condvar::new(),
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.queued.load(Ordering::Relaxed)
    }

    pub(crate) fn pop(&self) -> Option<Item<N>> {
        if self.len() == 0 {
            return None;
        }
        let mut q = self.items.lock().unwrap();
        let it = q.pop_front();
        self.queued.store(q.len(), Ordering::Relaxed);
        it
    }

    /// Puts work at the front: it is what the giving thread would have searched next.
    pub(crate) fn push_front(&self, it: Item<N>) {
        let mut q = self.items.lock().unwrap();
        q.push_front(it);
        self.queued.store(q.len(), Ordering::Relaxed);
        self.wake.notify_one();
    }

    /// Wakes every waiting thread (the search stops).
    pub(crate) fn wake_all(&self) {
        let _q = self.items.lock().unwrap();
        self.wake.notify_all();
    }

    /// Waits for work: true when some arrived, false when every thread is waiting (the iteration is done)
    /// or the search stops. It polls briefly, then sleeps, so a long wait leaves the core to others (on a
    /// 2-core machine a spinning waiter would take half of it).
    pub(crate) fn wait(&self, guard: &Guard) -> bool {
        if self.idle.fetch_add(1, Ordering::SeqCst) + 1 == self.threads {
            self.wake_all();
        }
        let mut rounds = 0;
        loop {
            if guard.stop.load(Ordering::Relaxed) || self.idle.load(Ordering::SeqCst) == self.threads {
                return false;
            }
            if self.len() > 0 {
                self.idle.fetch_sub(1, Ordering::SeqCst);
                return true;
            }
            if rounds < SPIN_ROUNDS {
                rounds += 1;
                std::thread::yield_now();
            } else {
                // Looked at again under the lock that every waker takes, so that no wake-up is missed.
                let q = self.items.lock().unwrap();
                let done = guard.stop.load(Ordering::Relaxed) || self.idle.load(Ordering::SeqCst) == self.threads;
                if q.is_empty() && !done {
                    drop(self.wake.wait_timeout(q, NAP).unwrap());
                }
            }
        }
    }
}

/// A node below the root handed to a worker: its position, heuristic node and the moves that led there.
pub(crate) struct Item<N> {
    pub(crate) tiles: [u8; MAX_CELLS],
    pub(crate) node: N,
    pub(crate) blank: usize,
    pub(crate) state: u32,
    pub(crate) path: Vec<u8>,
}

impl<N> Item<N> {
    pub(crate) fn depth(&self) -> u32 {
        self.path.len() as u32
    }
}
