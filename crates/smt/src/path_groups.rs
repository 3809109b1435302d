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
//! What is selected is what `Independence::relevant` selects from the same constraints (the
//! constraints connected to the question, and those without variables), in the path's order;
//! it is sound for the same reason and under the same premise (the path condition is
//! satisfiable). Nothing here talks to a solver or evaluates a term.

use rustc_hash::{FxBuildHasher, FxHashMap};

use crate::independence::Independence;
use crate::path::PathCondition;
use crate::term::{TermId, TermStore, VarId};

/// How many constraints back from a path's end a kept partition is looked for (a lookup is a
/// hash probe; a state may add a few constraints between questions: checks, heap accesses).
const WALK_BACK: usize = 64;

/// Partitions kept in one generation; when the newer is full the older is forgotten. A
/// partition is looked for only near the end of a live state's path, so few are ever found
/// again: with 8,192 (as many as path models) `bench/long_paths/unsat_checks.c` took 1.59 GB
/// at N = 100,000, with 1,024 1.32 GB, in the same time.
const GENERATION: usize = 1 << 10;

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
        let partition = self.partition_of(store, independence, pc);
        let query_vars = independence.vars_of(store, query);
        partition
            .relevant(query_vars)
            .into_iter()
            .filter_map(|position| pc.get(position as usize))
            .collect()
    }

    /// The partition of the whole of `pc`, from the kept one of its longest recent prefix (or
    /// from the start); it is kept for `pc`.
    fn partition_of(
        &mut self,
        store: &TermStore,
        independence: &mut Independence,
        pc: &PathCondition,
    ) -> Partition {
        let len = pc.len();
        let number = pc.number_of_prefix(len);
        if let Some(kept) = self.kept(number) {
            return kept.clone();
        }
        let shortest = len.saturating_sub(WALK_BACK);
        let mut partition = (shortest..len)
            .rev()
            .find_map(|k| self.kept(pc.number_of_prefix(k)).cloned())
            .unwrap_or_default();
        for position in partition.len..len {
            if let Some(term) = pc.get(position) {
                partition.add(position as u32, independence.vars_of(store, term));
            }
        }
        partition.len = len;
        if self.newer.len() >= GENERATION {
            self.older = std::mem::take(&mut self.newer);
        }
        self.newer.insert(number, partition.clone());
        partition
    }

    fn kept(&self, number: u64) -> Option<&Partition> {
        self.newer.get(&number).or_else(|| self.older.get(&number))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Along a path that grows and forks, the selection is always what independence selects
    /// from the whole path.
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
        // (or none) to some path, sometimes forking it first.
        let mut seed = 7u64;
        let mut next = |bound: usize| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as usize % bound
        };
        for step in 0..400 {
            let which = next(paths.len());
            if next(4) == 0 {
                let copy = paths[which].clone();
                paths.push(copy);
            }
            let (a, b) = (vars[next(12)], vars[next(12)]);
            let constraint = match next(5) {
                0 => s.bv_ult(a, b).expect("c"),
                1 => s.bv_ult(three, three).expect("c"),
                _ => s.bv_ult(a, three).expect("c"),
            };
            paths[which].push(constraint);
            if step % 3 == 0 {
                let query = s.eq(vars[next(12)], three).expect("q");
                let path = &paths[which];
                let whole = path.to_vec();
                assert_eq!(
                    groups.relevant(&s, &mut independence, path, query),
                    independence.relevant(&s, &whole, query),
                    "step {step}"
                );
            }
        }
    }
}
