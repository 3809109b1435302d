//! Coverage-guided search: states near an uncovered instruction run first (distance along the
//! control-flow graph and through returns into callers, see `distance.rs`). As in the thesis
//! (seed 002 §2.12), a state is drawn with probability proportional to 1/distance, counting an
//! uncovered instruction as distance 1 (`--search coverage`); or the nearest state runs, ties
//! broken at random (`--search coverage-nearest`). With everything covered both behave like
//! random-state search.
//!
//! The draw is a race, not a roulette over one random stream: every live state has a clock
//! that is due after a random time of rate 1/distance, drawn from the seed, the state's key in
//! the execution tree (the branches from the root to it) and how often it has run, and the
//! state due first runs. The times are exponential, so the state due first is each state with
//! probability proportional to its rate, exactly the roulette's; but a state's draws depend on
//! nothing outside it. When `--subsume` parks or ends states, the others keep their clocks and
//! run in the same order as without it, where one stream shifted every later draw (issue 26).
//! A state whose distance changes keeps the part of its wait still to come, rescaled to its
//! new rate (exponential times have no memory, so that is a fresh draw's distribution).
//!
//! A state's distance changes only when it runs or when coverage grows, so after a step only
//! the state that ran and the states it forked are re-measured, and all states only when
//! coverage changed (at most once per newly covered instruction or branch). The clocks are
//! ordered in a set, so selection does not scan the live states.

use std::collections::BTreeSet;

use rustc_hash::FxHashMap;

use crate::common::rng::mix;
use crate::forward::search::distance::{Distances, FAR};
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

impl Choice {
    /// The rate of a state's clock at `distance` (0: at an uncovered instruction).
    fn rate(self, distance: u32) -> f64 {
        match self {
            Choice::Weighted => 1.0 / (f64::from(distance) + 1.0),
            Choice::Nearest => 1.0,
        }
    }

    /// What orders states before their clocks do.
    fn rank(self, distance: u32) -> u32 {
        match self {
            Choice::Weighted => 0,
            Choice::Nearest => distance,
        }
    }
}

/// A live state's place in the race.
#[derive(Clone, Copy, Debug)]
struct Clock {
    /// The distance it was last measured at.
    distance: u32,
    /// The race time it is due at (never negative, so its bits order as the numbers do).
    due: f64,
    /// How many times it has been selected, which keys its next draw.
    draws: u64,
}

impl Clock {
    fn entry(&self, choice: Choice, id: StateId) -> (u32, u64, StateId) {
        (choice.rank(self.distance), self.due.to_bits(), id)
    }
}

pub struct CoverageGuided {
    choice: Choice,
    seed: u64,
    distances: Distances,
    clocks: FxHashMap<StateId, Clock>,
    /// The live states in the order they run: by rank, then by when they are due.
    queue: BTreeSet<(u32, u64, StateId)>,
    /// Live states to re-measure before the next selection.
    stale: Vec<StateId>,
    /// The coverage epoch the clocks were measured at.
    epoch: Option<u64>,
    /// The race's time: when the state selected last was due.
    now: f64,
}

impl CoverageGuided {
    pub fn new(choice: Choice, seed: u64) -> CoverageGuided {
        CoverageGuided {
            choice,
            seed,
            distances: Distances::default(),
            clocks: FxHashMap::default(),
            queue: BTreeSet::new(),
            stale: Vec::new(),
            epoch: None,
            now: 0.0,
        }
    }

    /// An exponential waiting time of rate 1 for the `draws`-th run of the state at `key`.
    fn wait(&self, key: u64, draws: u64) -> f64 {
        let bits = mix(mix(self.seed, key), draws) >> 11;
        // In (0, 1], so the logarithm is finite.
        let uniform = (bits + 1) as f64 / (1u64 << 53) as f64;
        -uniform.ln()
    }

    /// Records that `id` stands at `distance` now: a new state gets a clock, a state whose
    /// distance changed has the rest of its wait rescaled to its new rate.
    fn measure(&mut self, id: StateId, distance: u32, key: u64) {
        let choice = self.choice;
        let clock = match self.clocks.get(&id).copied() {
            None => Clock {
                distance,
                due: self.now + self.wait(key, 0) / choice.rate(distance),
                draws: 0,
            },
            Some(clock) if clock.distance == distance => return,
            Some(clock) => {
                self.queue.remove(&clock.entry(choice, id));
                let rest = (clock.due - self.now).max(0.0);
                Clock {
                    distance,
                    due: self.now + rest * choice.rate(clock.distance) / choice.rate(distance),
                    ..clock
                }
            }
        };
        self.clocks.insert(id, clock);
        self.queue.insert(clock.entry(choice, id));
    }

    /// Selects the state due first, moves the race's time to it and draws its next wait.
    fn run_first(&mut self, key: impl Fn(StateId) -> u64) -> Option<StateId> {
        let (_, _, id) = self.queue.pop_first()?;
        let mut clock = self.clocks[&id];
        self.now = self.now.max(clock.due);
        clock.draws += 1;
        clock.due = self.now + self.wait(key(id), clock.draws) / self.choice.rate(clock.distance);
        self.clocks.insert(id, clock);
        self.queue.insert(clock.entry(self.choice, id));
        Some(id)
    }
}

impl Searcher for CoverageGuided {
    fn update(&mut self, current: Option<StateId>, added: &[StateId], removed: &[StateId]) {
        self.stale.extend(current);
        self.stale.extend_from_slice(added);
        for id in removed {
            if let Some(clock) = self.clocks.remove(id) {
                self.queue.remove(&clock.entry(self.choice, *id));
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
            // re-measuring does not depend on hashing.
            let mut all: Vec<StateId> = self.clocks.keys().copied().collect();
            all.sort_unstable();
            self.stale.extend(all);
        }
        let mut stale = std::mem::take(&mut self.stale);
        stale.sort_unstable();
        stale.dedup();
        let key = |id: StateId| view.tree.key_of(id).unwrap_or_else(|| mix(!0, id));
        for id in stale {
            let distance = view.states.get(&id).map_or(FAR, |state| {
                let stack: Vec<_> = state
                    .stack
                    .iter()
                    .map(|f| (f.func, f.block, f.inst))
                    .collect();
                self.distances.of_stack(view.module, view.coverage, &stack)
            });
            self.measure(id, distance, key(id));
        }
        self.run_first(key)
    }

    /// Both choices race random waits (the nearest states among themselves).
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
        for choice in [Choice::Weighted, Choice::Nearest] {
            let a = selection_order(&mut CoverageGuided::new(choice, 3), 40);
            let b = selection_order(&mut CoverageGuided::new(choice, 3), 40);
            assert_eq!(a, b);
            assert_eq!(a[0], 0);
        }
    }

    #[test]
    fn a_state_runs_as_often_as_its_rate_says() {
        let mut race = CoverageGuided::new(Choice::Weighted, 7);
        race.measure(0, 0, 10);
        race.measure(1, 3, 11);
        let near = (0..10_000)
            .filter(|_| race.run_first(|id| 10 + id) == Some(0))
            .count();
        // Rates 1 and 1/4: the nearer state runs 4 times in 5.
        assert!((7_700..8_300).contains(&near), "{near}");
    }

    #[test]
    fn the_states_left_run_in_the_same_order_when_one_ends() {
        let order = |ended: bool| -> Vec<StateId> {
            let mut race = CoverageGuided::new(Choice::Weighted, 5);
            for id in 0..4 {
                race.measure(id, id as u32, 100 + id);
            }
            if ended {
                race.update(None, &[], &[2]);
            }
            (0..60)
                .filter_map(|_| race.run_first(|id| 100 + id))
                .collect()
        };
        let all: Vec<_> = order(false).into_iter().filter(|&id| id != 2).collect();
        let without = order(true);
        assert_eq!(all[..], without[..all.len()]);
    }
}
