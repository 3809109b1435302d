//! Search strategies: which live state runs next (`--search`).
//!
//! Every strategy implements [`Searcher`], KLEE's interface: the driver reports after each run
//! which state ran, which states it forked and which ended, and asks for the next one. A
//! strategy sees states only through [`SearchView`]. Random choices come from a [`Rng`]
//! seeded with `--seed`, and no strategy iterates a hash map, so a seed fixes the order.

mod bfs;
mod coverage;
mod dfs;
mod distance;
mod interleaved;
mod random;
mod random_path;
mod set;

use rustc_hash::FxHashMap;
use symex_ir::cfg::Module;

use crate::common::coverage::CoverageMap;
use crate::common::options::SearchStrategy;
use crate::common::rng::Rng;
use crate::forward::state::{State, StateId};
use crate::forward::tree::ExecTree;
use coverage::Choice;

/// What a strategy may look at when it chooses.
pub struct SearchView<'a> {
    pub states: &'a FxHashMap<StateId, State>,
    pub tree: &'a ExecTree,
    pub module: &'a Module,
    pub coverage: &'a CoverageMap,
}

pub trait Searcher {
    /// `current` ran (if any); `added` were forked off; `removed` ended (possibly `current`).
    fn update(&mut self, current: Option<StateId>, added: &[StateId], removed: &[StateId]);

    /// `resumed` waited (parked at a loop header by `--subsume`) and may run again, given in
    /// the order they began to wait. By default they come back as if just forked off.
    fn resume(&mut self, resumed: &[StateId]) {
        self.update(None, resumed, &[]);
    }

    /// The next state to run; `None` when no state is live.
    fn select(&mut self, view: &SearchView<'_>) -> Option<StateId>;

    /// Whether the strategy draws states at random (`--subsume` then does not park states
    /// at loop headers: docs/path-subsumption.md, "Loops"). A random draw lets the paths that
    /// leave a loop finish while a state goes round it, which is what parking is for under a
    /// systematic order, and a state taken out of the draw changes every later draw.
    fn draws_at_random(&self) -> bool {
        false
    }
}

/// The searcher for `strategy`, seeded with `seed`.
pub fn searcher(strategy: SearchStrategy, seed: u64) -> Box<dyn Searcher> {
    match strategy {
        SearchStrategy::Bfs => Box::new(bfs::Bfs::default()),
        SearchStrategy::Dfs => Box::new(dfs::Dfs::default()),
        SearchStrategy::Random => Box::new(random::RandomState::new(Rng::new(seed))),
        SearchStrategy::RandomPath => Box::new(random_path::RandomPath::new(seed)),
        SearchStrategy::Coverage => Box::new(coverage::CoverageGuided::new(Choice::Weighted, seed)),
        SearchStrategy::CoverageNearest => {
            Box::new(coverage::CoverageGuided::new(Choice::Nearest, seed))
        }
        SearchStrategy::Klee => Box::new(interleaved::Interleaved::new(vec![
            Box::new(random_path::RandomPath::new(seed)),
            Box::new(coverage::CoverageGuided::new(
                Choice::Weighted,
                seed.wrapping_add(1),
            )),
        ])),
    }
}

#[cfg(test)]
pub(crate) mod testing {
    use super::*;

    /// A module with one empty function and its coverage map, for views.
    fn empty_module() -> (Module, CoverageMap) {
        let front = symex_syntax::analyze("main() { return 0; }").expect("valid");
        let module = symex_ir::lower(&front.program);
        let coverage = CoverageMap::new(&module, symex_ir::cfg::FuncId(0));
        (module, coverage)
    }

    /// What `searcher` selects first, with an empty tree (for strategies that keep their own
    /// order of states).
    pub fn first_selection(searcher: &mut dyn Searcher) -> Option<StateId> {
        let (module, coverage) = empty_module();
        let view = SearchView {
            states: &FxHashMap::default(),
            tree: &ExecTree::new(0),
            module: &module,
            coverage: &coverage,
        };
        searcher.select(&view)
    }

    /// Runs `searcher` over a fixed fork pattern and returns the order states were selected in.
    pub fn selection_order(searcher: &mut dyn Searcher, rounds: usize) -> Vec<StateId> {
        let (module, coverage) = empty_module();
        let states = FxHashMap::default();
        let mut tree = ExecTree::new(0);
        searcher.update(None, &[0], &[]);
        let mut next = 1;
        let mut order = Vec::new();
        for _ in 0..rounds {
            let view = SearchView {
                states: &states,
                tree: &tree,
                module: &module,
                coverage: &coverage,
            };
            let Some(s) = searcher.select(&view) else {
                break;
            };
            order.push(s);
            // Every selected state forks once; every third selection ends the state instead.
            if order.len() % 3 == 0 {
                tree.remove(s);
                searcher.update(Some(s), &[], &[s]);
            } else {
                tree.fork(s, &[next]);
                searcher.update(Some(s), &[next], &[]);
                next += 1;
            }
        }
        order
    }
}
