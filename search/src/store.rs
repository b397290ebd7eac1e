//! The state store: every state a search keeps, once, with the link to the state it was reached from.
//!
//! States live in an arena (`Vec`) and are named by their index, a `u32` id; the hash table holds ids only
//! and hashes through the arena, so a state is never stored twice. Breadth-first searches also get their
//! layers for free: ids are handed out in insertion order, so a layer is a range of ids.

use crate::hash::FastBuild;
use hashbrown::hash_table::{Entry, HashTable};
use std::hash::{BuildHasher, Hash};

/// The parent of a root.
pub(crate) const NO_PARENT: u32 = u32::MAX;

/// The most states a store can hold: ids are `u32` and `u32::MAX` means "no parent".
pub(crate) const MAX_STATES: u64 = u32::MAX as u64 - 1;

/// Bytes a stored state costs beyond its own size: the parent id (4) in the arena, and in the table an id
/// (4) plus a control byte (1) at a load of 7/8 right before growing, rounded up to 12 to cover some of the
/// slack of a table or arena that has just doubled. An estimate for limits, not an exact count.
pub(crate) const ENTRY_OVERHEAD: u64 = 12;

pub(crate) struct Store<S> {
    states: Vec<S>,
    parents: Vec<u32>,
    index: HashTable<u32>,
}

impl<S: Hash + Eq + Clone> Store<S> {
    pub(crate) fn new() -> Self {
        Store { states: Vec::new(), parents: Vec::new(), index: HashTable::new() }
    }

    /// The estimated bytes of one stored state (see [`ENTRY_OVERHEAD`]).
    pub(crate) const ENTRY_BYTES: u64 = std::mem::size_of::<S>() as u64 + ENTRY_OVERHEAD;

    pub(crate) fn len(&self) -> u32 {
        self.states.len() as u32
    }

    /// The id of `state`, if stored.
    #[inline]
    pub(crate) fn id(&self, state: &S) -> Option<u32> {
        let states = &self.states;
        self.index.find(FastBuild.hash_one(state), |&i| states[i as usize] == *state).copied()
    }

    /// Stores `state` reached from `parent`: `Ok(new id)`, or `Err(id)` of the copy already stored (which
    /// keeps its parent). The caller keeps the count under [`MAX_STATES`].
    #[inline]
    pub(crate) fn insert(&mut self, state: S, parent: u32) -> Result<u32, u32> {
        let states = &self.states;
        let entry = self.index.entry(
            FastBuild.hash_one(&state),
            |&i| states[i as usize] == state,
            |&i| FastBuild.hash_one(&states[i as usize]),
        );
        match entry {
            Entry::Occupied(e) => Err(*e.get()),
            Entry::Vacant(e) => {
                let id = self.states.len() as u32;
                e.insert(id);
                self.states.push(state);
                self.parents.push(parent);
                Ok(id)
            }
        }
    }

    #[inline]
    pub(crate) fn state(&self, id: u32) -> &S {
        &self.states[id as usize]
    }

    /// Reroutes `id` through a cheaper parent (A* finding a shorter way to a stored state).
    pub(crate) fn set_parent(&mut self, id: u32, parent: u32) {
        self.parents[id as usize] = parent;
    }

    /// The states from the root to `id`, following parent links.
    pub(crate) fn path(&self, id: u32) -> Vec<S> {
        let mut path = Vec::new();
        let mut at = id;
        while at != NO_PARENT {
            path.push(self.states[at as usize].clone());
            at = self.parents[at as usize];
        }
        path.reverse();
        path
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_once_and_follows_parents() {
        let mut store = Store::new();
        assert_eq!(store.insert(10u64, NO_PARENT), Ok(0));
        assert_eq!(store.insert(11, 0), Ok(1));
        assert_eq!(store.insert(12, 1), Ok(2));
        assert_eq!(store.insert(11, 2), Err(1), "a duplicate keeps its first id and parent");
        assert_eq!(store.id(&12), Some(2));
        assert_eq!(store.id(&13), None);
        assert_eq!(store.path(2), vec![10, 11, 12]);
        store.set_parent(2, 0);
        assert_eq!(store.path(2), vec![10, 12]);
        for s in 100..20_000u64 {
            store.insert(s, 0).unwrap();
        }
        assert!((100..20_000u64).all(|s| store.state(store.id(&s).unwrap()) == &s));
    }
}
