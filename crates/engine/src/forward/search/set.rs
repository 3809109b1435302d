//! A set of live states with O(1) insertion, removal and indexing, in a deterministic order
//! (insertion order, disturbed only by swap-removal), for strategies that pick by position.

use rustc_hash::FxHashMap;

use crate::forward::state::StateId;

#[derive(Debug, Default)]
pub struct StateSet {
    items: Vec<StateId>,
    position: FxHashMap<StateId, usize>,
}

impl StateSet {
    pub fn insert(&mut self, id: StateId) {
        if self.position.contains_key(&id) {
            return;
        }
        self.position.insert(id, self.items.len());
        self.items.push(id);
    }

    pub fn remove(&mut self, id: StateId) {
        let Some(at) = self.position.remove(&id) else {
            return;
        };
        self.items.swap_remove(at);
        if let Some(&moved) = self.items.get(at) {
            self.position.insert(moved, at);
        }
    }

    pub fn as_slice(&self) -> &[StateId] {
        &self.items
    }

    /// Applies a searcher update.
    pub fn update(&mut self, added: &[StateId], removed: &[StateId]) {
        for &id in added {
            self.insert(id);
        }
        for &id in removed {
            self.remove(id);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn removal_keeps_positions_right() {
        let mut set = StateSet::default();
        set.update(&[1, 2, 3, 4], &[]);
        set.remove(2);
        assert_eq!(set.as_slice(), &[1, 4, 3]);
        set.remove(3);
        set.remove(9);
        set.insert(1);
        assert_eq!(set.as_slice(), &[1, 4]);
    }
}
