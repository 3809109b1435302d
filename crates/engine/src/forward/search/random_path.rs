//! Random-path search (seed 002 §3, KLEE): a random walk from the execution tree's root to a
//! leaf. The tree itself is kept by the driver; this strategy only walks it.

use crate::forward::search::{SearchView, Searcher};
use crate::forward::state::StateId;

pub struct RandomPath {
    seed: u64,
}

impl RandomPath {
    pub fn new(seed: u64) -> RandomPath {
        RandomPath { seed }
    }
}

impl Searcher for RandomPath {
    fn update(&mut self, _current: Option<StateId>, _added: &[StateId], _removed: &[StateId]) {}

    fn select(&mut self, view: &SearchView<'_>) -> Option<StateId> {
        view.tree.random_leaf(self.seed)
    }

    fn draws_at_random(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::forward::search::testing::selection_order;

    #[test]
    fn selects_live_states_reproducibly() {
        let a = selection_order(&mut RandomPath::new(3), 40);
        let b = selection_order(&mut RandomPath::new(3), 40);
        assert_eq!(a, b);
        assert!(!a.is_empty());
    }
}
