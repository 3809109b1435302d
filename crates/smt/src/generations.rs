//! A bounded map that forgets its oldest half, not everything: two generations of entries.
//!
//! Inserts go into the current generation; when it holds `capacity` entries it becomes the
//! previous one and the one before is dropped. A lookup finds an entry of either. So the
//! entries inserted last (at least `capacity` of them) are always kept, and memory stays
//! below two generations. This is for caches whose recent entries are the ones wanted (model
//! reuse: a search's live states look up the models of their own last questions); a map
//! cleared whole at its bound forgot every live state's model at once, and each state then
//! paid a solver call. Nothing here decides what is worth keeping beyond age.

use std::borrow::Borrow;
use std::hash::Hash;

use rustc_hash::FxHashMap;

/// A map of at most `2 × capacity` entries that forgets the older generation first.
#[derive(Debug)]
pub(crate) struct Generations<K, V> {
    current: FxHashMap<K, V>,
    previous: FxHashMap<K, V>,
    capacity: usize,
}

impl<K: Hash + Eq, V> Generations<K, V> {
    /// An empty map whose generations hold `capacity` entries each.
    pub(crate) fn new(capacity: usize) -> Self {
        Generations {
            current: FxHashMap::default(),
            previous: FxHashMap::default(),
            capacity: capacity.max(1),
        }
    }

    /// The entry of `key`, from the current generation or else the previous one.
    pub(crate) fn get<Q>(&self, key: &Q) -> Option<&V>
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        self.current.get(key).or_else(|| self.previous.get(key))
    }

    /// Puts `value` under `key` in the current generation, which first becomes the previous
    /// one if it is full.
    pub(crate) fn insert(&mut self, key: K, value: V) {
        if self.current.len() >= self.capacity && !self.current.contains_key(&key) {
            self.previous = std::mem::take(&mut self.current);
        }
        self.current.insert(key, value);
    }

    /// How many entries the two generations hold (a key in both counts twice).
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.current.len() + self.previous.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_capacity_entries_are_always_kept() {
        let mut map = Generations::new(3);
        for i in 0..10u32 {
            map.insert(i, i * 10);
            // The last three inserted are found, whatever generation holds them.
            for kept in i.saturating_sub(2)..=i {
                assert_eq!(map.get(&kept), Some(&(kept * 10)));
            }
            assert!(map.len() <= 6);
        }
        // The oldest generation was dropped.
        assert_eq!(map.get(&0), None);
    }

    #[test]
    fn an_entry_of_the_previous_generation_is_found_and_updated_in_the_current() {
        let mut map = Generations::new(2);
        map.insert("a", 1);
        map.insert("b", 2);
        map.insert("c", 3);
        assert_eq!(map.get("a"), Some(&1));
        map.insert("a", 4);
        assert_eq!(map.get("a"), Some(&4));
    }
}
