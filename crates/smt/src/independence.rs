//! Constraint independence (KLEE's optimisation): of a set of constraints, keep only those that
//! share variables, directly or through other constraints, with a query.
//!
//! Variable sets are cached per constraint term, and the selection is a union-find over the
//! variables of the constraints (linear in their total size), not a fixpoint iteration.
//! Constraints without variables are always kept (they cannot be attributed to a group). The
//! selection preserves the order of the input. Dropping the other constraints is sound only
//! when they are satisfiable on their own, which engines guarantee for path conditions; this
//! module does not check that.

use rustc_hash::FxHashMap;

use crate::term::{TermId, TermStore, VarId};

/// Caches the variables of constraint terms and selects relevant constraints.
#[derive(Debug, Default)]
pub(crate) struct Independence {
    vars: FxHashMap<TermId, Box<[VarId]>>,
    groups: Groups,
}

/// A union-find over variables, indexed by the variables' numbers and emptied in constant
/// time between queries (an entry older than the current epoch is a singleton). Every query
/// rebuilds its groups, so this is on the solver's hot path: arrays, not hash maps.
#[derive(Debug)]
struct Groups {
    parent: Vec<u32>,
    /// The epoch in which each entry of `parent` was set (0: never; epochs start at 1).
    epoch_of: Vec<u32>,
    epoch: u32,
}

impl Default for Groups {
    fn default() -> Self {
        Groups {
            parent: Vec::new(),
            epoch_of: Vec::new(),
            epoch: 1,
        }
    }
}

impl Groups {
    /// Makes every variable a singleton again.
    fn clear(&mut self) {
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            // Once in 2^32 queries: stale entries could look current.
            self.epoch_of.iter_mut().for_each(|e| *e = 0);
            self.epoch = 1;
        }
    }

    fn parent(&mut self, v: u32) -> u32 {
        let i = v as usize;
        if i >= self.parent.len() {
            let len = (i + 1).next_power_of_two();
            self.parent.resize(len, 0);
            self.epoch_of.resize(len, 0);
        }
        if self.epoch_of[i] != self.epoch {
            self.epoch_of[i] = self.epoch;
            self.parent[i] = v;
        }
        self.parent[i]
    }

    fn find(&mut self, v: VarId) -> u32 {
        let v = v.index() as u32;
        let mut root = v;
        loop {
            let p = self.parent(root);
            if p == root {
                break;
            }
            root = p;
        }
        // Path compression.
        let mut cur = v;
        while cur != root {
            let next = self.parent[cur as usize];
            self.parent[cur as usize] = root;
            cur = next;
        }
        root
    }

    /// Puts all of `vars` into one group.
    fn join(&mut self, vars: &[VarId]) {
        if let Some((&first, rest)) = vars.split_first() {
            let mut root = self.find(first);
            for &v in rest {
                let other = self.find(v);
                if other != root {
                    self.parent[root as usize] = other;
                    root = other;
                }
            }
        }
    }
}

impl Independence {
    /// The variables of `t` (cached).
    pub(crate) fn vars_of(&mut self, store: &TermStore, t: TermId) -> &[VarId] {
        self.vars
            .entry(t)
            .or_insert_with(|| store.vars_of(&[t]).into_boxed_slice())
    }

    /// The variables of all `terms` (each term's cached), sorted and de-duplicated.
    pub(crate) fn vars_of_all(&mut self, store: &TermStore, terms: &[TermId]) -> Vec<VarId> {
        let mut vars: Vec<VarId> = Vec::new();
        for &t in terms {
            vars.extend_from_slice(self.vars_of(store, t));
        }
        vars.sort_unstable();
        vars.dedup();
        vars
    }

    /// Fills `self.groups` with the union-find of the variables that `constraints` connect.
    fn build_groups(&mut self, store: &TermStore, constraints: &[TermId]) {
        self.groups.clear();
        for &c in constraints {
            let vars = self
                .vars
                .entry(c)
                .or_insert_with(|| store.vars_of(&[c]).into_boxed_slice());
            self.groups.join(vars);
        }
    }

    /// The group of the first variable of `t` (`None` for a term without variables).
    fn group_of(&mut self, store: &TermStore, t: TermId) -> Option<u32> {
        let first = self.vars_of(store, t).first().copied()?;
        Some(self.groups.find(first))
    }

    /// `constraints` split into groups connected through shared variables, each in the
    /// original order, and the constraints without variables apart.
    pub(crate) fn components(
        &mut self,
        store: &TermStore,
        constraints: &[TermId],
    ) -> (Vec<Vec<TermId>>, Vec<TermId>) {
        self.build_groups(store, constraints);
        let mut index: FxHashMap<u32, usize> = FxHashMap::default();
        let mut components: Vec<Vec<TermId>> = Vec::new();
        let mut ground = Vec::new();
        for &c in constraints {
            match self.group_of(store, c) {
                None => ground.push(c),
                Some(root) => {
                    let next = components.len();
                    let at = *index.entry(root).or_insert(next);
                    if at == next {
                        components.push(Vec::new());
                    }
                    components[at].push(c);
                }
            }
        }
        (components, ground)
    }

    /// The constraints of `constraints` connected to `query` through shared variables, in
    /// their original order.
    pub(crate) fn relevant(
        &mut self,
        store: &TermStore,
        constraints: &[TermId],
        query: TermId,
    ) -> Vec<TermId> {
        let query_vars = self.vars_of(store, query).to_vec();
        self.relevant_to(store, constraints, &query_vars)
    }

    /// The constraints of `constraints` connected to `vars` through shared variables, and
    /// those without variables, in their original order.
    pub(crate) fn relevant_to(
        &mut self,
        store: &TermStore,
        constraints: &[TermId],
        vars: &[VarId],
    ) -> Vec<TermId> {
        self.build_groups(store, constraints);
        let mut wanted: Vec<u32> = vars.iter().map(|&v| self.groups.find(v)).collect();
        wanted.sort_unstable();
        wanted.dedup();
        constraints
            .iter()
            .copied()
            .filter(|&c| match self.group_of(store, c) {
                None => true,
                Some(root) => wanted.binary_search(&root).is_ok(),
            })
            .collect()
    }
}

/// Whether some term of `terms` shares a variable with `vars`, directly or through the
/// constraints of `context` (which connect the variables each of them mentions).
pub fn connected(store: &TermStore, context: &[TermId], terms: &[TermId], vars: &[VarId]) -> bool {
    let mut groups = Groups::default();
    for &c in context.iter().chain(terms) {
        groups.join(&store.vars_of(&[c]));
    }
    let roots: Vec<u32> = vars.iter().map(|&v| groups.find(v)).collect();
    terms.iter().any(|&t| {
        store
            .vars_of(&[t])
            .first()
            .is_some_and(|&v| roots.contains(&groups.find(v)))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_only_transitively_connected_constraints() {
        let mut s = TermStore::new();
        let x = s.bv_var("x", 32).expect("var");
        let y = s.bv_var("y", 32).expect("var");
        let z = s.bv_var("z", 32).expect("var");
        let w = s.bv_var("w", 32).expect("var");
        let c1 = s.bv_ult(x, y).expect("c"); // x-y
        let c2 = s.bv_ult(y, z).expect("c"); // y-z
        let c3 = s.bv_ult(w, w).expect("c"); // folds to false: no variables
        let five = s.bv_val(32, 5).expect("c");
        let c4 = s.bv_ult(w, five).expect("c"); // w alone
        let q = s.eq(z, five).expect("q");
        let mut ind = Independence::default();
        assert_eq!(ind.relevant(&s, &[c1, c2, c3, c4], q), vec![c1, c2, c3]);
        let qw = s.eq(w, five).expect("q");
        assert_eq!(ind.relevant(&s, &[c1, c2, c4], qw), vec![c4]);
    }

    /// The groups of one query do not leak into the next (they are emptied by epoch).
    #[test]
    fn each_query_starts_from_singletons() {
        let mut s = TermStore::new();
        let x = s.bv_var("x", 32).expect("var");
        let y = s.bv_var("y", 32).expect("var");
        let five = s.bv_val(32, 5).expect("c");
        let joined = s.bv_ult(x, y).expect("c");
        let x_small = s.bv_ult(x, five).expect("c");
        let y_small = s.bv_ult(y, five).expect("c");
        let mut ind = Independence::default();
        assert_eq!(
            ind.relevant(&s, &[joined, x_small], y_small),
            vec![joined, x_small]
        );
        assert_eq!(ind.relevant(&s, &[x_small], y_small), Vec::<TermId>::new());
        let (groups, ground) = ind.components(&s, &[x_small, y_small]);
        assert_eq!((groups.len(), ground.len()), (2, 0));
    }

    #[test]
    fn long_chains_are_linear() {
        let mut s = TermStore::new();
        let vars: Vec<TermId> = (0..5000)
            .map(|i| s.bv_var(format!("v{i}"), 8).expect("var"))
            .collect();
        let cs: Vec<TermId> = vars
            .windows(2)
            .map(|w| s.bv_ule(w[0], w[1]).expect("c"))
            .collect();
        let mut ind = Independence::default();
        let zero = s.bv_val(8, 0).expect("c");
        let q = s.eq(vars[4999], zero).expect("q");
        assert_eq!(ind.relevant(&s, &cs, q).len(), cs.len());
    }
}
