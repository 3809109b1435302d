//! Model reuse (KLEE's counterexample cache): answering `sat` without the solver when a model
//! built from earlier answers already satisfies a query.
//!
//! Every model the solver gives for a satisfiable set of constraints is kept under that set,
//! restricted to the set's variables. For a new question `C ∧ q`, the constraints `C` are split
//! into groups that share no variable; when every group has a kept model, their union
//! satisfies `C` (each model satisfies its group, and the groups share no variable, so the
//! models do not clash), and the query needs only to evaluate to true under it, with
//! variables of no group at their sorts' defaults. Only `sat` is answered here: a miss says
//! nothing, and the caller asks the solver.
//!
//! A path condition grows one branch at a time, and each branch's question was answered (and
//! its model kept) when the branch was taken, so the final check of a path whose constraints
//! are independent of each other costs a few evaluations instead of a solver call. Nothing here
//! talks to a solver.

use rustc_hash::FxHashMap;

use crate::eval::{eval, Assignment};
use crate::independence::Independence;
use crate::term::{TermId, TermStore, VarId};
use crate::value::Value;

/// Kept models beyond this many are forgotten at once (a bound on memory, not a policy).
const MAX_MODELS: usize = 1 << 16;

/// The kept models, by the sorted set of constraints each satisfies.
#[derive(Debug, Default)]
pub(crate) struct ModelCache {
    models: FxHashMap<Box<[TermId]>, Assignment>,
}

/// The sorted, de-duplicated set of `terms` (the key of a model).
fn key_of(terms: impl IntoIterator<Item = TermId>) -> Box<[TermId]> {
    let mut key: Vec<TermId> = terms.into_iter().collect();
    key.sort_unstable();
    key.dedup();
    key.into_boxed_slice()
}

impl ModelCache {
    /// Keeps `model` (restricted to `vars`, the variables of `satisfied`), which satisfies
    /// every term of `satisfied`.
    pub(crate) fn remember(&mut self, satisfied: &[TermId], vars: &[VarId], model: &Assignment) {
        if self.models.len() >= MAX_MODELS {
            self.models.clear();
        }
        let mut kept = Assignment::new();
        for &var in vars {
            match model.get(var) {
                Some(value) => kept.insert(var, value.clone()),
                // A model without a value for one of the variables is not kept.
                None => return,
            }
        }
        self.models.insert(key_of(satisfied.iter().copied()), kept);
    }

    /// Whether kept models show `constraints ∧ query` satisfiable.
    pub(crate) fn satisfies(
        &self,
        store: &TermStore,
        independence: &mut Independence,
        constraints: &[TermId],
        query: Option<TermId>,
    ) -> bool {
        let (groups, ground) = independence.components(store, constraints);
        let mut assignment = Assignment::new();
        let holds = |t: TermId, asg: &Assignment| eval(store, t, asg) == Ok(Value::Bool(true));
        if !ground.iter().all(|&c| holds(c, &assignment)) {
            return false;
        }
        for group in &groups {
            let Some(model) = self.models.get(&key_of(group.iter().copied())) else {
                return false;
            };
            assignment.extend(model);
        }
        let Some(query) = query else {
            return true;
        };
        for &var in independence.vars_of(store, query) {
            if assignment.get(var).is_none() {
                let sort = store.sort(store.var_info(var).term);
                assignment.insert(var, Value::default_of(store.sorts(), sort));
            }
        }
        holds(query, &assignment)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bv::BvConst;

    #[test]
    fn independent_groups_combine_and_the_query_is_evaluated() {
        let mut s = TermStore::new();
        let x = s.bv_var("x", 32).expect("var");
        let y = s.bv_var("y", 32).expect("var");
        let bv = |n: u128| BvConst::new(32, n).expect("fits");
        let one = s.bv_const(bv(1)).expect("const");
        let two = s.bv_const(bv(2)).expect("const");
        let x_big = s.bv_ugt(x, one).expect("term");
        let y_big = s.bv_ugt(y, two).expect("term");
        let sum = s.bv_add(x, y).expect("term");
        let ten = s.bv_const(bv(10)).expect("const");
        let sum_is_ten = s.eq(sum, ten).expect("term");
        let sum_not_ten = s.not(sum_is_ten).expect("term");
        let model = |value: u128, var| {
            let mut a = Assignment::new();
            a.insert(s.var_id(var).expect("a var"), Value::Bv(bv(value)));
            a
        };
        let (mx, my) = (model(5, x), model(3, y));
        let mut cache = ModelCache::default();
        let mut independence = Independence::default();
        let pc = [x_big, y_big];
        // Nothing kept for y's group yet.
        let vars = |t| s.vars_of(&[t]);
        cache.remember(&[x_big], &vars(x_big), &mx);
        assert!(!cache.satisfies(&s, &mut independence, &pc, Some(sum_not_ten)));
        cache.remember(&[y_big], &vars(y_big), &my);
        // x = 5, y = 3: the sum is 8.
        assert!(cache.satisfies(&s, &mut independence, &pc, Some(sum_not_ten)));
        assert!(!cache.satisfies(&s, &mut independence, &pc, Some(sum_is_ten)));
        assert!(cache.satisfies(&s, &mut independence, &pc, None));
    }
}
