//! Independence kept per path: the constraints of a long path condition that a question
//! depends on, in the time of the question's group rather than the path's length.
//!
//! Independence (`independence.rs`) rebuilds its groups from the whole path condition for
//! every question. On a path of 100,000 constraints that asks a question answered `unsat` in
//! every round of a loop (model reuse answers only `sat`), that is the path's length per
//! question. Here the partition of a path's variables into groups connected by its
//! constraints is kept under the number of the prefix it covers ([`PathCondition`]: a number
//! names one prefix of one path), as the models of `path_models.rs` are: a question on `pc`
//! looks for the partition of the longest prefix of `pc` among its last [`WALK_BACK`],
//! extends it by the constraints after that prefix, keeps it for `pc`, and reads off the
//! groups of the question's variables. Partitions are persistent maps, so keeping one costs
//! what its last constraints changed; joining two groups moves the smaller one.
//!
//! A partition is built from the start only for a path whose recent prefix asked before and
//! found none either (a state that runs on and asks again, as depth-first search's does):
//! the first question of a path answers from `Independence::relevant` over the whole path and
//! keeps nothing, so a search that takes turns among thousands of long paths (random-path)
//! does not build and keep a partition of every one of them (a review's program of 8,192
//! states on paths of 3,000 constraints took 5 GB so). Kept partitions are bounded by what
//! they cost: a generation holds at most [`GENERATION`] partitions and [`GENERATION_WEIGHT`]
//! constraints added (all of a path's for one built from the start, the new ones for one
//! extended).
//!
//! What is selected is what `Independence::relevant` selects from the same constraints (the
//! constraints connected to the question, and those without variables), in the path's order;
//! it is sound for the same reason and under the same premise (the path condition is
//! satisfiable). Nothing here talks to a solver or evaluates a term.

use rustc_hash::{FxBuildHasher, FxHashMap, FxHashSet};

use crate::independence::Independence;
use crate::path::PathCondition;
use crate::term::{TermId, TermStore, VarId};

/// How many constraints back from a path's end a kept partition is looked for (a lookup is a
/// hash probe; a state may add a few constraints between questions: checks, heap accesses).
const WALK_BACK: usize = 64;

/// The constraints added into the partitions of one generation, and the partitions in one;
/// when the newer is full, the older is forgotten (and so are the paths that asked without a
/// partition: [`ASKED`]). A constraint costs about a kilobyte in a partition's maps, and so
/// does each partition kept (the nodes its last change copied): with 8,192 partitions
/// (as many as path models) `bench/long_paths/unsat_checks.c` took 1.59 GB at N = 100,000,
/// with 1,024 1.32 GB, in the same time.
const GENERATION_WEIGHT: usize = 1 << 16;
const GENERATION: usize = 1 << 10;

/// Paths remembered per generation as having asked without a partition.
const ASKED: usize = 1 << 12;

type SharedMap<K, V> =
    imbl::GenericHashMap<K, V, FxBuildHasher, imbl::shared_ptr::DefaultSharedPtr>;

/// The groups of one path prefix. A group is named by one of its variables.
#[derive(Clone, Debug, Default)]
struct Partition {
    /// How many constraints of the path it covers.
    len: usize,
    group_of: SharedMap<VarId, VarId>,
    groups: SharedMap<VarId, Group>,
    /// The positions of the constraints without variables.
    ground: imbl::Vector<u32>,
}

#[derive(Clone, Debug, Default)]
struct Group {
    vars: imbl::Vector<VarId>,
    /// The positions of its constraints in the path (not in order after a join).
    constraints: imbl::Vector<u32>,
}

impl Partition {
    /// Adds the constraint at `position`, whose variables are `vars`.
    fn add(&mut self, position: u32, vars: &[VarId]) {
        let Some(&first) = vars.first() else {
            self.ground.push_back(position);
            return;
        };
        let names = self.groups_of(vars);
        // The largest group stays; the others move into it.
        let target = names
            .iter()
            .copied()
            .max_by_key(|name| (self.groups.get(name).map_or(0, |g| g.vars.len()), *name))
            .unwrap_or(first);
        let mut group = self.groups.remove(&target).unwrap_or_default();
        for name in names.into_iter().filter(|&name| name != target) {
            if let Some(moved) = self.groups.remove(&name) {
                for &v in &moved.vars {
                    self.group_of.insert(v, target);
                }
                group.vars.append(moved.vars);
                group.constraints.append(moved.constraints);
            }
        }
        for &v in vars {
            if self.group_of.insert(v, target).is_none() {
                group.vars.push_back(v);
            }
        }
        group.constraints.push_back(position);
        self.groups.insert(target, group);
    }

    /// The names of the groups that `vars` are in (sorted, each once).
    fn groups_of(&self, vars: &[VarId]) -> Vec<VarId> {
        let mut names: Vec<VarId> = (vars.iter())
            .filter_map(|v| self.group_of.get(v))
            .copied()
            .collect();
        names.sort_unstable();
        names.dedup();
        names
    }

    /// The positions of the constraints connected to `vars`, and of those without variables,
    /// in increasing order.
    fn relevant(&self, vars: &[VarId]) -> Vec<u32> {
        let names = self.groups_of(vars);
        let mut positions: Vec<u32> = self.ground.iter().copied().collect();
        for name in names {
            if let Some(group) = self.groups.get(&name) {
                positions.extend(group.constraints.iter().copied());
            }
        }
        positions.sort_unstable();
        positions
    }
}

/// The partitions kept per path prefix. See the module documentation.
#[derive(Debug, Default)]
pub(crate) struct PathGroups {
    newer: FxHashMap<u64, Partition>,
    older: FxHashMap<u64, Partition>,
    /// The constraints added into the partitions of `newer`.
    newer_weight: usize,
    /// The numbers of paths that asked and found no partition, in two generations.
    asked: [FxHashSet<u64>; 2],
}

impl PathGroups {
    /// The constraints of `pc` connected to `query` through shared variables, and those
    /// without variables, in the order of `pc`.
    pub(crate) fn relevant(
        &mut self,
        store: &TermStore,
        independence: &mut Independence,
        pc: &PathCondition,
        query: TermId,
    ) -> Vec<TermId> {
        let query_vars = independence.vars_of(store, query).to_vec();
        self.relevant_to(store, independence, pc, &query_vars)
    }

    /// The constraints of `pc` connected to `vars` through shared variables, and those
    /// without variables, in the order of `pc`.
    pub(crate) fn relevant_to(
        &mut self,
        store: &TermStore,
        independence: &mut Independence,
        pc: &PathCondition,
        vars: &[VarId],
    ) -> Vec<TermId> {
        let Some(partition) = self.partition_of(store, independence, pc) else {
            return independence.relevant_to(store, &pc.to_vec(), vars);
        };
        partition
            .relevant(vars)
            .into_iter()
            .filter_map(|position| pc.get(position as usize))
            .collect()
    }

    /// The partition of the whole of `pc`, from the kept one of its longest recent prefix, or
    /// from the start where a recent prefix asked before (see the module documentation); it
    /// is kept for `pc`. `None` where there is none to extend and `pc` asks for the first time.
    fn partition_of(
        &mut self,
        store: &TermStore,
        independence: &mut Independence,
        pc: &PathCondition,
    ) -> Option<Partition> {
        let len = pc.len();
        let number = pc.number_of_prefix(len);
        if let Some(kept) = self.kept(number) {
            return Some(kept.clone());
        }
        let recent = len.saturating_sub(WALK_BACK)..len;
        let found = recent
            .clone()
            .rev()
            .find_map(|k| self.kept(pc.number_of_prefix(k)));
        let mut partition = match found {
            Some(kept) => kept.clone(),
            // The path itself may have asked before (a second question before it grows).
            None if (recent.start..=len).any(|k| self.asked_before(pc.number_of_prefix(k))) => {
                Partition::default()
            }
            None => {
                if self.asked[0].len() >= ASKED {
                    self.asked[1] = std::mem::take(&mut self.asked[0]);
                }
                self.asked[0].insert(number);
                return None;
            }
        };
        let weight = len - partition.len;
        for position in partition.len..len {
            if let Some(term) = pc.get(position) {
                partition.add(position as u32, independence.vars_of(store, term));
            }
        }
        partition.len = len;
        if self.newer_weight + weight > GENERATION_WEIGHT || self.newer.len() >= GENERATION {
            self.older = std::mem::take(&mut self.newer);
            self.asked[1] = std::mem::take(&mut self.asked[0]);
            self.newer_weight = 0;
        }
        self.newer_weight += weight;
        self.newer.insert(number, partition.clone());
        Some(partition)
    }

    fn kept(&self, number: u64) -> Option<&Partition> {
        self.newer.get(&number).or_else(|| self.older.get(&number))
    }

    fn asked_before(&self, number: u64) -> bool {
        self.asked.iter().any(|asked| asked.contains(&number))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Along paths that grow, fork, shrink (`pop`, `prefix`) and grow again, the selection is
    /// always what independence selects from the whole path, whether a partition was kept,
    /// extended, built from the start or not used.
    #[test]
    fn selects_what_independence_selects_on_growing_and_forked_paths() {
        let mut s = TermStore::new();
        let vars: Vec<TermId> = (0..12)
            .map(|i| s.bv_var(format!("v{i}"), 8).expect("var"))
            .collect();
        let three = s.bv_val(8, 3).expect("c");
        let mut groups = PathGroups::default();
        let mut independence = Independence::default();
        let mut paths = vec![PathCondition::new()];
        // A fixed pseudo-random walk: each step adds a constraint over one or two variables
        // (or none) to some path, sometimes forking it first or cutting it back.
        let mut seed = 7u64;
        let mut next = |bound: usize| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as usize % bound
        };
        let mut kept_any = false;
        for step in 0..600 {
            let which = next(paths.len());
            match next(8) {
                0 | 1 => {
                    let copy = paths[which].clone();
                    paths.push(copy);
                }
                2 => {
                    paths[which].pop();
                }
                3 => {
                    let len = paths[which].len();
                    paths[which] = paths[which].prefix(next(len + 1));
                }
                _ => {}
            }
            let (a, b) = (vars[next(12)], vars[next(12)]);
            let constraint = match next(5) {
                0 => s.bv_ult(a, b).expect("c"),
                1 => s.bv_ult(three, three).expect("c"),
                _ => s.bv_ult(a, three).expect("c"),
            };
            paths[which].push(constraint);
            let query = s.eq(vars[next(12)], three).expect("q");
            let path = &paths[which];
            let whole = path.to_vec();
            assert_eq!(
                groups.relevant(&s, &mut independence, path, query),
                independence.relevant(&s, &whole, query),
                "step {step}"
            );
            kept_any |= groups.kept(path.number_of_prefix(path.len())).is_some();
        }
        assert!(kept_any, "no partition was ever kept");
    }
}
