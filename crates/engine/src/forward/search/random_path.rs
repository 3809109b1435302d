//! Random-path search (seed 002 §3, KLEE): a random walk from the execution tree's root to a
//! leaf. The tree itself is kept by the driver; this strategy only walks it.

use crate::common::rng::Rng;
use crate::forward::search::{SearchView, Searcher};
use crate::forward::state::StateId;

pub struct RandomPath {
    rng: Rng,
}

impl RandomPath {
    pub fn new(rng: Rng) -> RandomPath {
        RandomPath { rng }
    }
}

impl Searcher for RandomPath {
    fn update(&mut self, _current: Option<StateId>, _added: &[StateId], _removed: &[StateId]) {}

    fn select(&mut self, view: &SearchView<'_>) -> Option<StateId> {
        view.tree.random_leaf(&mut self.rng)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::forward::search::testing::selection_order;

    #[test]
    fn selects_live_states_reproducibly() {
        let a = selection_order(&mut RandomPath::new(Rng::new(3)), 40);
        let b = selection_order(&mut RandomPath::new(Rng::new(3)), 40);
        assert_eq!(a, b);
        assert!(!a.is_empty());
    }
}
