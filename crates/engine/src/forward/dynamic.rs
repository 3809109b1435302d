//! Dynamic state merging (`--merge dynamic`; Kuznetsov et al. PLDI'12 §4, seed 002 §4.3.2,
//! which the thesis described but never built).
//!
//! States are not held at join points (as `aggressive` and `qce` hold them): they stop there
//! and go back to the search, and a state that arrives at a join point where a live state with
//! the same call stack stands is merged into it when the query count estimate allows it (the
//! driver does that with [`JoinIndex`] and `qce::Estimates::similar`). So that states meet,
//! [`FastForward`] wraps any search strategy: a state at most δ IR instructions (along the
//! control-flow graph of its function) before a join point where another state with the same
//! callers stands runs first, nearest first, lowest state number on ties; otherwise the
//! wrapped strategy chooses. The paper compares a state with the recent predecessors of the
//! others; comparing with the states standing at join points asks for no snapshots and meets
//! at the same places, because only join points can merge.
//!
//! Nothing here merges or runs states; which states are similar is decided at the meeting,
//! the fast-forwarding only checks that the call stacks can meet. Every choice is ordered
//! (by distance and state number), so the wrapper keeps the strategy's determinism under
//! `--seed`.

use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

use rustc_hash::FxHashMap;
use symex_ir::cfg::{BlockId, FuncId, Module};

use crate::forward::program::ProgramInfo;
use crate::forward::search::{SearchView, Searcher};
use crate::forward::state::{State, StateId};

/// Where a state stands at a join point: stack depth, function, block.
pub type JoinKey = (usize, FuncId, BlockId);

const FAR: u32 = u32::MAX;

/// The live states standing at the first instruction of a join point, by place. Entries are
/// checked against the live states when read (a state that ran on or ended is dropped then).
#[derive(Debug, Default)]
pub struct JoinIndex {
    at: BTreeMap<JoinKey, BTreeSet<StateId>>,
}

impl JoinIndex {
    pub fn insert(&mut self, key: JoinKey, id: StateId) {
        self.at.entry(key).or_default().insert(id);
    }

    /// The states still standing at `key`, in number order.
    pub fn standing(&mut self, key: JoinKey, states: &FxHashMap<StateId, State>) -> Vec<StateId> {
        let Some(ids) = self.at.get_mut(&key) else {
            return Vec::new();
        };
        ids.retain(|id| states.get(id).is_some_and(|s| join_key(s) == Some(key)));
        let out: Vec<StateId> = ids.iter().copied().collect();
        if out.is_empty() {
            self.at.remove(&key);
        }
        out
    }

    /// The join points of function `func` at stack depth `depth` where some state stands.
    fn keys_in(&self, depth: usize, func: FuncId) -> Vec<JoinKey> {
        self.at
            .range((depth, func, BlockId(0))..=(depth, func, BlockId(u32::MAX)))
            .map(|(&k, _)| k)
            .collect()
    }
}

/// The state's place if it stands at the first instruction of a block (whether that block is
/// a join point is the caller's business).
fn join_key(state: &State) -> Option<JoinKey> {
    let frame = state.frame()?;
    (frame.inst == 0).then_some((state.stack.len(), frame.func, frame.block))
}

/// The fast-forwarding wrapper around a search strategy (see the module documentation).
pub struct FastForward {
    inner: Box<dyn Searcher>,
    delta: u32,
    /// Per function and join block: the instructions from each block's start to the join.
    to_join: Vec<FxHashMap<BlockId, Vec<u32>>>,
    /// Per function and block: the instructions of the block (its terminator included).
    lengths: Vec<Vec<u32>>,
    /// Per function and block: its successors.
    successors: Vec<Vec<Vec<BlockId>>>,
    /// States that ran or were created since the last selection.
    pending: Vec<StateId>,
    standing: JoinIndex,
    /// States to run first: (distance to the join, state).
    candidates: BTreeSet<(u32, StateId)>,
}

impl FastForward {
    pub fn new(inner: Box<dyn Searcher>, module: &Module, info: &ProgramInfo, delta: u32) -> Self {
        let lengths: Vec<Vec<u32>> = module
            .functions
            .iter()
            .map(|f| f.blocks.iter().map(|b| b.insts.len() as u32 + 1).collect())
            .collect();
        let to_join = module
            .functions
            .iter()
            .enumerate()
            .map(|(f, function)| {
                let fi = &info.functions[f];
                function
                    .block_ids()
                    .filter(|&b| fi.is_join(b))
                    .map(|join| {
                        let mut dist = vec![FAR; function.blocks.len()];
                        dist[join.index()] = 0;
                        // Bellman-Ford backward from the join; distances only shrink.
                        loop {
                            let mut changed = false;
                            for b in function.block_ids() {
                                if b == join {
                                    continue;
                                }
                                let best = function
                                    .block(b)
                                    .successors()
                                    .map(|s| dist[s.index()])
                                    .min()
                                    .unwrap_or(FAR)
                                    .saturating_add(lengths[f][b.index()]);
                                if best < dist[b.index()] {
                                    dist[b.index()] = best;
                                    changed = true;
                                }
                            }
                            if !changed {
                                break;
                            }
                        }
                        (join, dist)
                    })
                    .collect()
            })
            .collect();
        let successors = module
            .functions
            .iter()
            .map(|f| f.blocks.iter().map(|b| b.successors().collect()).collect())
            .collect();
        FastForward {
            inner,
            delta,
            to_join,
            lengths,
            successors,
            pending: Vec::new(),
            standing: JoinIndex::default(),
            candidates: BTreeSet::new(),
        }
    }

    /// Instructions from the state's place to the start of `join` (0 when it stands there).
    fn distance(&self, state: &State, join: BlockId) -> u32 {
        let Some(frame) = state.frame() else {
            return FAR;
        };
        if frame.block == join && frame.inst == 0 {
            return 0;
        }
        let f = frame.func.index();
        let b = frame.block.index();
        let (Some(table), Some(length), Some(successors)) = (
            self.to_join.get(f).and_then(|t| t.get(&join)),
            self.lengths.get(f).and_then(|l| l.get(b)),
            self.successors.get(f).and_then(|s| s.get(b)),
        ) else {
            return FAR;
        };
        successors
            .iter()
            .map(|s| table.get(s.index()).copied().unwrap_or(FAR))
            .min()
            .unwrap_or(FAR)
            .saturating_add(length.saturating_sub(frame.inst as u32))
    }

    /// How far the state is from the nearest join point where another state it could merge
    /// with stands, if that is within δ (and not where it stands itself).
    fn nearest_partner(&mut self, id: StateId, states: &FxHashMap<StateId, State>) -> Option<u32> {
        let state = states.get(&id)?;
        let frame = state.frame()?;
        let mut best: Option<u32> = None;
        for key in self.standing.keys_in(state.stack.len(), frame.func) {
            let d = self.distance(state, key.2);
            if d == 0 || d > self.delta || best.is_some_and(|b| b <= d) {
                continue;
            }
            let partners = self.standing.standing(key, states);
            if partners
                .iter()
                .any(|p| *p != id && states.get(p).is_some_and(|other| may_meet(state, other)))
            {
                best = Some(d);
            }
        }
        best
    }
}

/// Whether two states can be merged once they stand at the same place: the same callers (the
/// same frames below the top, compared by place and loop counters) and the same input heap.
fn may_meet(a: &State, b: &State) -> bool {
    let (Some(top_a), Some(top_b)) = (a.stack.back(), b.stack.back()) else {
        return false;
    };
    let below_a = a.stack.iter().take(a.stack.len() - 1);
    let below_b = b.stack.iter().take(b.stack.len() - 1);
    top_a.func == top_b.func
        && top_a.return_to == top_b.return_to
        && a.heap == b.heap
        && a.stack.len() == b.stack.len()
        && below_a.zip(below_b).all(|(x, y)| {
            Rc::ptr_eq(x, y)
                || (x.func == y.func
                    && x.block == y.block
                    && x.inst == y.inst
                    && x.return_to == y.return_to
                    && x.iterations == y.iterations)
        })
}

impl Searcher for FastForward {
    fn update(&mut self, current: Option<StateId>, added: &[StateId], removed: &[StateId]) {
        self.inner.update(current, added, removed);
        self.pending.extend(current);
        self.pending.extend_from_slice(added);
    }

    fn select(&mut self, view: &SearchView<'_>) -> Option<StateId> {
        let mut pending = std::mem::take(&mut self.pending);
        pending.sort_unstable();
        pending.dedup();
        let mut new_places = BTreeSet::new();
        for &id in &pending {
            let Some(key) = view.states.get(&id).and_then(join_key) else {
                continue;
            };
            if self
                .to_join
                .get(key.1.index())
                .is_some_and(|t| t.contains_key(&key.2))
            {
                self.standing.insert(key, id);
                new_places.insert(key);
            }
        }
        // A state now standing at a join point may draw others: measure every live state in
        // the same function and depth (their order does not matter: candidates are sorted).
        let mut measure: BTreeSet<StateId> = pending.into_iter().collect();
        if !new_places.is_empty() {
            measure.extend(view.states.iter().filter_map(|(&id, s)| {
                let frame = s.frame()?;
                new_places
                    .iter()
                    .any(|&(depth, func, _)| depth == s.stack.len() && func == frame.func)
                    .then_some(id)
            }));
        }
        for id in measure {
            if let Some(d) = self.nearest_partner(id, view.states) {
                self.candidates.insert((d, id));
            }
        }
        while let Some((_, id)) = self.candidates.pop_first() {
            if self.nearest_partner(id, view.states).is_some() {
                return Some(id);
            }
        }
        self.inner.select(view)
    }

    fn draws_at_random(&self) -> bool {
        self.inner.draws_at_random()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::common::coverage::CoverageMap;
    use crate::common::options::SearchStrategy;
    use crate::forward::search::testing::selection_order;
    use crate::forward::search::{searcher, SearchView};
    use crate::forward::tree::ExecTree;

    #[test]
    fn without_partners_the_wrapped_strategy_chooses() {
        let front = symex_syntax::analyze("main() { return 0; }").expect("valid");
        let module = symex_ir::lower(&front.program);
        let info = ProgramInfo::new(&module);
        let inner = searcher(SearchStrategy::Dfs, 0);
        let mut wrapped = FastForward::new(inner, &module, &info, 32);
        let mut plain = searcher(SearchStrategy::Dfs, 0);
        assert_eq!(
            selection_order(&mut wrapped, 6),
            selection_order(&mut *plain, 6)
        );
        // A view with no states: nothing to forward.
        let states = FxHashMap::default();
        let tree = ExecTree::new(0);
        let coverage = CoverageMap::new(&module, FuncId(0));
        let view = SearchView {
            states: &states,
            tree: &tree,
            module: &module,
            coverage: &coverage,
        };
        let mut empty = FastForward::new(searcher(SearchStrategy::Bfs, 0), &module, &info, 8);
        assert_eq!(empty.select(&view), None);
    }
}
