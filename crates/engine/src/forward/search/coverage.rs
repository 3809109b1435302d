//! Coverage-guided search: states near an uncovered instruction run first (distance along the
//! control-flow graph and through returns into callers, see `distance.rs`). As in the thesis
//! (seed 002 §2.12), a state is drawn with probability proportional to 1/distance, counting an
//! uncovered instruction as distance 1 (`--search coverage`); or the nearest state runs, ties
//! broken at random (`--search coverage-nearest`). The draws are seeded, and with everything
//! covered both behave like random-state search.
//!
//! States are kept in buckets by distance. A state's distance changes only when it runs or when
//! coverage grows, so after a step only the state that ran and the states it forked are
//! re-measured, and all states only when coverage changed (at most once per newly covered
//! instruction or branch). Selection takes a random state of the nearest bucket, so it does not
//! scan the live states.

use std::collections::BTreeMap;

use rustc_hash::FxHashMap;

use crate::common::rng::Rng;
use crate::forward::search::distance::{Distances, FAR};
use crate::forward::search::set::StateSet;
use crate::forward::search::{SearchView, Searcher};
use crate::forward::state::StateId;

/// How the next state is chosen from the measured ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice {
    /// With probability proportional to 1/distance (the thesis).
    Weighted,
    /// The nearest.
    Nearest,
}

pub struct CoverageGuided {
    choice: Choice,
    distances: Distances,
    rng: Rng,
    /// Live states by their distance when last measured.
    buckets: BTreeMap<u32, StateSet>,
    /// The bucket each live state is in.
    bucket_of: FxHashMap<StateId, u32>,
    /// Live states to re-measure before the next selection.
    stale: Vec<StateId>,
    /// The coverage epoch the buckets were measured at.
    epoch: Option<u64>,
}

impl CoverageGuided {
    pub fn new(choice: Choice, rng: Rng) -> CoverageGuided {
        CoverageGuided {
            choice,
            distances: Distances::default(),
            rng,
            buckets: BTreeMap::new(),
            bucket_of: FxHashMap::default(),
            stale: Vec::new(),
            epoch: None,
        }
    }

    fn place(&mut self, id: StateId, distance: u32) {
        if let Some(old) = self.bucket_of.insert(id, distance) {
            if old == distance {
                return;
            }
            self.take_out_of(old, id);
        }
        self.buckets.entry(distance).or_default().insert(id);
    }

    fn take_out_of(&mut self, bucket: u32, id: StateId) {
        if let Some(set) = self.buckets.get_mut(&bucket) {
            set.remove(id);
            if set.as_slice().is_empty() {
                self.buckets.remove(&bucket);
            }
        }
    }
}

impl Searcher for CoverageGuided {
    fn update(&mut self, current: Option<StateId>, added: &[StateId], removed: &[StateId]) {
        self.stale.extend(current);
        self.stale.extend_from_slice(added);
        for &id in removed {
            if let Some(bucket) = self.bucket_of.remove(&id) {
                self.take_out_of(bucket, id);
            }
        }
        // A state that ended needs no measuring; one never seen is new (measured below).
        self.stale.retain(|id| !removed.contains(id));
    }

    fn select(&mut self, view: &SearchView<'_>) -> Option<StateId> {
        self.distances.refresh(view.module, view.coverage);
        if self.epoch != Some(view.coverage.epoch()) {
            self.epoch = Some(view.coverage.epoch());
            // Coverage grew: every distance may have changed. Sorted, so the order of
            // re-measuring (and so the buckets' order) does not depend on hashing.
            let mut all: Vec<StateId> = self.bucket_of.keys().copied().collect();
            all.sort_unstable();
            self.stale.extend(all);
        }
        let mut stale = std::mem::take(&mut self.stale);
        stale.sort_unstable();
        stale.dedup();
        for id in stale {
            let distance = view.states.get(&id).map_or(FAR, |state| {
                let stack: Vec<_> = state
                    .stack
                    .iter()
                    .map(|f| (f.func, f.block, f.inst))
                    .collect();
                self.distances.of_stack(view.module, view.coverage, &stack)
            });
            self.place(id, distance);
        }
        let bucket = match self.choice {
            Choice::Nearest => self.buckets.values().next()?,
            Choice::Weighted => {
                // Roulette over the buckets in integers: each state weighs 2^32 / distance.
                let weight = |d: u32, states: usize| {
                    (WEIGHT_SCALE / (u64::from(d) + 1)).max(1) * states as u64
                };
                let total: u64 = self
                    .buckets
                    .iter()
                    .map(|(&d, set)| weight(d, set.as_slice().len()))
                    .sum();
                let mut ticket = self.rng.below(usize::try_from(total).ok()?.max(1)) as u64;
                let mut chosen = None;
                for (&d, set) in &self.buckets {
                    let w = weight(d, set.as_slice().len());
                    if ticket < w {
                        chosen = Some(set);
                        break;
                    }
                    ticket -= w;
                }
                chosen.or_else(|| self.buckets.values().next())?
            }
        };
        let candidates = bucket.as_slice();
        Some(candidates[self.rng.below(candidates.len())])
    }
}

/// The weight of a state at an uncovered instruction (distance 0 here, 1 in the thesis).
const WEIGHT_SCALE: u64 = 1 << 32;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::forward::search::testing::selection_order;

    #[test]
    fn selects_live_states_reproducibly() {
        for choice in [Choice::Weighted, Choice::Nearest] {
            let a = selection_order(&mut CoverageGuided::new(choice, Rng::new(3)), 40);
            let b = selection_order(&mut CoverageGuided::new(choice, Rng::new(3)), 40);
            assert_eq!(a, b);
            assert_eq!(a[0], 0);
        }
    }
}
