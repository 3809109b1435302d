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
}

/// A union-find over variables, created per query.
#[derive(Default)]
struct Groups {
    parent: FxHashMap<VarId, VarId>,
}

impl Groups {
    fn find(&mut self, v: VarId) -> VarId {
        let mut root = v;
        while let Some(&p) = self.parent.get(&root) {
            if p == root {
                break;
            }
            root = p;
        }
        // Path compression.
        let mut cur = v;
        while cur != root {
            let next = self.parent.get(&cur).copied().unwrap_or(root);
            self.parent.insert(cur, root);
            cur = next;
        }
        self.parent.entry(root).or_insert(root);
        root
    }

    /// Puts all of `vars` into one group.
    fn join(&mut self, vars: &[VarId]) {
        if let Some((&first, rest)) = vars.split_first() {
            self.find(first);
            for &v in rest {
                self.union(first, v);
            }
        }
    }

    fn union(&mut self, a: VarId, b: VarId) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra != rb {
            self.parent.insert(ra, rb);
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

    /// The union-find of the variables that `constraints` connect.
    fn groups(&mut self, store: &TermStore, constraints: &[TermId]) -> Groups {
        let mut groups = Groups::default();
        for &c in constraints {
            groups.join(self.vars_of(store, c));
        }
        groups
    }

    /// `constraints` split into groups connected through shared variables, each in the
    /// original order, and the constraints without variables apart.
    pub(crate) fn components(
        &mut self,
        store: &TermStore,
        constraints: &[TermId],
    ) -> (Vec<Vec<TermId>>, Vec<TermId>) {
        let mut groups = self.groups(store, constraints);
        let mut index: FxHashMap<VarId, usize> = FxHashMap::default();
        let mut components: Vec<Vec<TermId>> = Vec::new();
        let mut ground = Vec::new();
        for &c in constraints {
            match self.vars_of(store, c).first().copied() {
                None => ground.push(c),
                Some(v) => {
                    let root = groups.find(v);
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
        let mut groups = self.groups(store, constraints);
        let query_vars = self.vars_of(store, query).to_vec();
        let wanted: Vec<VarId> = query_vars.iter().map(|&v| groups.find(v)).collect();
        constraints
            .iter()
            .copied()
            .filter(|&c| match self.vars_of(store, c).first().copied() {
                None => true,
                Some(v) => {
                    let root = groups.find(v);
                    wanted.contains(&root)
                }
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
    let roots: Vec<VarId> = vars.iter().map(|&v| groups.find(v)).collect();
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
