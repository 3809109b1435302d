//! Random-state search: every live state is equally likely to run next (seeded).

use crate::common::rng::Rng;
use crate::forward::search::set::StateSet;
use crate::forward::search::{SearchView, Searcher};
use crate::forward::state::StateId;

pub struct RandomState {
    states: StateSet,
    rng: Rng,
}

impl RandomState {
    pub fn new(rng: Rng) -> RandomState {
        RandomState {
            states: StateSet::default(),
            rng,
        }
    }
}

impl Searcher for RandomState {
    fn update(&mut self, _current: Option<StateId>, added: &[StateId], removed: &[StateId]) {
        self.states.update(added, removed);
    }

    fn select(&mut self, _view: &SearchView<'_>) -> Option<StateId> {
        let all = self.states.as_slice();
        all.get(self.rng.below(all.len())).copied()
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
    fn the_seed_fixes_the_order() {
        let a = selection_order(&mut RandomState::new(Rng::new(5)), 30);
        let b = selection_order(&mut RandomState::new(Rng::new(5)), 30);
        assert_eq!(a, b);
        let c = selection_order(&mut RandomState::new(Rng::new(6)), 30);
        assert_ne!(a, c);
    }
}
