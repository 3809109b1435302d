//! Coverage-guided search: the state nearest to an uncovered instruction runs next (distance
//! along the control-flow graph, see `distance.rs`); ties are broken at random (seeded), so with
//! everything covered it behaves like random-state search.

use crate::common::rng::Rng;
use crate::forward::search::distance::Distances;
use crate::forward::search::set::StateSet;
use crate::forward::search::{SearchView, Searcher};
use crate::forward::state::StateId;

pub struct CoverageGuided {
    states: StateSet,
    distances: Distances,
    rng: Rng,
}

impl CoverageGuided {
    pub fn new(rng: Rng) -> CoverageGuided {
        CoverageGuided {
            states: StateSet::default(),
            distances: Distances::default(),
            rng,
        }
    }
}

impl Searcher for CoverageGuided {
    fn update(&mut self, _current: Option<StateId>, added: &[StateId], removed: &[StateId]) {
        self.states.update(added, removed);
    }

    fn select(&mut self, view: &SearchView<'_>) -> Option<StateId> {
        self.distances.refresh(view.module, view.coverage);
        let mut best: Option<(u32, StateId)> = None;
        let mut ties = 0usize;
        for &id in self.states.as_slice() {
            let distance = view
                .states
                .get(&id)
                .and_then(|s| s.location())
                .map_or(u32::MAX, |at| {
                    self.distances.of(view.module, view.coverage, at)
                });
            match best {
                Some((d, _)) if distance > d => {}
                Some((d, _)) if distance == d => {
                    // Reservoir sampling: each tied state is equally likely.
                    ties += 1;
                    if self.rng.below(ties) == 0 {
                        best = Some((distance, id));
                    }
                }
                _ => {
                    best = Some((distance, id));
                    ties = 1;
                }
            }
        }
        best.map(|(_, id)| id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::forward::search::testing::selection_order;

    #[test]
    fn selects_live_states_reproducibly() {
        let a = selection_order(&mut CoverageGuided::new(Rng::new(3)), 40);
        let b = selection_order(&mut CoverageGuided::new(Rng::new(3)), 40);
        assert_eq!(a, b);
        assert_eq!(a[0], 0);
    }
}
