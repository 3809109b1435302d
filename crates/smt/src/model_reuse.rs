//! Model reuse (KLEE's counterexample cache): answering `sat` without the solver when a model
//! built from earlier answers already satisfies a query.
//!
//! Every model the solver gives for a satisfiable set of constraints is kept under that set,
//! restricted to the set's variables. For a new question `C ∧ q`, the constraints `C` are split
//! into groups that share no variable; when every group has a kept model, their union
//! satisfies `C` (each model satisfies its group, and the groups share no variable, so the
//! models do not clash), and the query needs only to evaluate to true under it. A variable of
//! no group (one the query brings in) is tried at its sort's default and, for bit-vectors,
//! failing that at a value of its own (its number plus one, skipping values the assignment
//! holds): a fresh input is most often wanted zero or different from everything (a new
//! object's identity, a counter that must not be 0), and the evaluation is cheap where a
//! solver call is not. The value follows the variable's number rather than the assignment
//! alone because independence splits the path condition: a variable fresh to one group must
//! still differ from the fresh variables of the others, which join it later. Only `sat` is
//! answered here: a miss says nothing, and the caller asks the solver. The model that answered
//! is returned; where values were chosen for it (fresh inputs, or one of the last few kept
//! models for a group of constraints no kept model is known to satisfy), the caller keeps it
//! for the longer path condition the query starts (keeping every hit's model filled the cache
//! on programs with many paths and cost 20 % on the 16-branch bench).
//!
//! A path condition grows one branch at a time, and each branch's question was answered (and
//! its model kept) when the branch was taken, so the final check of a path whose constraints
//! are independent of each other costs a few evaluations instead of a solver call. Nothing here
//! talks to a solver.

use std::collections::VecDeque;
use std::sync::Arc;

use rustc_hash::{FxHashMap, FxHashSet};

use crate::bv::BvConst;
use crate::eval::{eval, eval_all, Assignment};
use crate::independence::Independence;
use crate::sort::Sort;
use crate::term::{TermId, TermStore, VarId};
use crate::value::Value;

/// Kept models beyond this many are forgotten at once (a bound on memory, not a policy).
const MAX_MODELS: usize = 1 << 16;

/// The most recent models tried for a group of constraints no kept model is known to satisfy.
const RECENT_MODELS: usize = 4;

/// The kept models, by the sorted set of constraints each satisfies.
#[derive(Debug, Default)]
pub(crate) struct ModelCache {
    models: FxHashMap<Box<[TermId]>, Arc<Assignment>>,
    /// The last models kept, newest last (shared with `models`).
    recent: VecDeque<Arc<Assignment>>,
}

/// A model that kept models show satisfies a question.
pub(crate) struct Reused {
    pub(crate) model: Assignment,
    /// Whether values were chosen here (for new inputs, or a recent model for a group), not
    /// only read from models kept under the question's groups: such a model is kept again,
    /// under the set the answer starts, or the next question along the path would miss.
    pub(crate) built: bool,
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
        let kept = Arc::new(kept);
        if self.recent.len() == RECENT_MODELS {
            self.recent.pop_front();
        }
        self.recent.push_back(Arc::clone(&kept));
        self.models.insert(key_of(satisfied.iter().copied()), kept);
    }

    /// A model of `constraints ∧ query` built from kept models, if they show it satisfiable.
    pub(crate) fn satisfies(
        &self,
        store: &TermStore,
        independence: &mut Independence,
        constraints: &[TermId],
        query: Option<TermId>,
    ) -> Option<Reused> {
        let (groups, ground) = independence.components(store, constraints);
        let mut assignment = Assignment::new();
        if !ground.iter().all(|&c| holds(store, c, &assignment)) {
            return None;
        }
        let mut built = false;
        for group in &groups {
            match self.models.get(&key_of(group.iter().copied())) {
                Some(model) => assignment.extend(model),
                None => {
                    assignment = self.recent_model_of(store, independence, group, assignment)?;
                    built = true;
                }
            }
        }
        let Some(query) = query else {
            return Some(Reused {
                model: assignment,
                built,
            });
        };
        let vars = independence.vars_of(store, query);
        let (model, completed) = complete(store, assignment, vars, &[query])?;
        Some(Reused {
            model,
            built: built || completed,
        })
    }

    /// `assignment` extended to satisfy `group` (constraints no kept model is known to
    /// satisfy, such as those a path adds without asking) by one of the recent models.
    fn recent_model_of(
        &self,
        store: &TermStore,
        independence: &mut Independence,
        group: &[TermId],
        assignment: Assignment,
    ) -> Option<Assignment> {
        let vars = independence.vars_of_all(store, group);
        self.recent.iter().rev().find_map(|recent| {
            let mut candidate = assignment.clone();
            for &var in &vars {
                if let Some(value) = recent.get(var) {
                    candidate.insert(var, value.clone());
                }
            }
            complete(store, candidate, &vars, group).map(|(model, _)| model)
        })
    }
}

fn holds(store: &TermStore, t: TermId, asg: &Assignment) -> bool {
    eval(store, t, asg) == Ok(Value::Bool(true))
}

/// `assignment` with values for the variables of `vars` it lacks, such that every term of
/// `terms` holds: all at their sorts' defaults, or else bit-vectors at fresh values; and
/// whether it lacked any.
fn complete(
    store: &TermStore,
    assignment: Assignment,
    vars: &[VarId],
    terms: &[TermId],
) -> Option<(Assignment, bool)> {
    // One evaluation of all the terms, sharing their common subterms.
    let all_hold = |asg: &Assignment| {
        eval_all(store, terms, asg)
            .is_ok_and(|values| values.iter().all(|v| *v == Value::Bool(true)))
    };
    let missing: Vec<VarId> = vars
        .iter()
        .copied()
        .filter(|&var| assignment.get(var).is_none())
        .collect();
    if missing.is_empty() {
        return all_hold(&assignment).then_some((assignment, false));
    }
    let mut defaults = assignment.clone();
    for &var in &missing {
        let sort = store.sort(store.var_info(var).term);
        defaults.insert(var, Value::default_of(store.sorts(), sort));
    }
    if all_hold(&defaults) {
        return Some((defaults, true));
    }
    let fresh = with_fresh_values(store, assignment, &missing);
    all_hold(&fresh).then_some((fresh, true))
}

/// `assignment` with every bit-vector variable of `missing` at a value of its own: its number
/// plus one, or the next one up that the assignment does not hold (the others at their sorts'
/// defaults).
fn with_fresh_values(
    store: &TermStore,
    mut assignment: Assignment,
    missing: &[VarId],
) -> Assignment {
    let mut used: FxHashSet<BvConst> = assignment.values().filter_map(Value::as_bv).collect();
    for &var in missing {
        let sort = store.sort(store.var_info(var).term);
        let fresh = match sort {
            Sort::BitVec(width) => {
                let mask = u128::MAX >> (128 - width);
                // At most `used.len()` values are taken, so this ends within that many steps
                // unless the width has fewer values than that.
                (0..=used.len() as u128)
                    .map(|step| (var.index() as u128 + 1 + step) & mask)
                    .filter(|&bits| bits != 0)
                    .filter_map(|bits| BvConst::new(width, bits).ok())
                    .find(|c| !used.contains(c))
            }
            _ => None,
        };
        let value = match fresh {
            Some(c) => {
                used.insert(c);
                Value::Bv(c)
            }
            None => Value::default_of(store.sorts(), sort),
        };
        assignment.insert(var, value);
    }
    assignment
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
        assert!(cache
            .satisfies(&s, &mut independence, &pc, Some(sum_not_ten))
            .is_none());
        cache.remember(&[y_big], &vars(y_big), &my);
        // x = 5, y = 3: the sum is 8.
        assert!(cache
            .satisfies(&s, &mut independence, &pc, Some(sum_not_ten))
            .is_some());
        assert!(cache
            .satisfies(&s, &mut independence, &pc, Some(sum_is_ten))
            .is_none());
        assert!(cache.satisfies(&s, &mut independence, &pc, None).is_some());
    }

    /// A constraint the path added without a question has no kept model of its own: the last
    /// kept models are tried on it (evaluated, so a model that fails it is not used).
    #[test]
    fn a_group_without_a_kept_model_is_tried_with_recent_models() {
        let mut s = TermStore::new();
        let x = s.bv_var("x", 32).expect("var");
        let bv = |n: u128| BvConst::new(32, n).expect("fits");
        let one = s.bv_const(bv(1)).expect("const");
        let hundred = s.bv_const(bv(100)).expect("const");
        let x_big = s.bv_ugt(x, one).expect("term");
        let x_small = s.bv_ult(x, hundred).expect("term");
        let x_huge = s.bv_ugt(x, hundred).expect("term");
        let mut model = Assignment::new();
        model.insert(s.var_id(x).expect("a var"), Value::Bv(bv(5)));
        let mut cache = ModelCache::default();
        let mut independence = Independence::default();
        cache.remember(&[x_big], &s.vars_of(&[x_big]), &model);
        let reused = cache
            .satisfies(&s, &mut independence, &[x_big, x_small], None)
            .expect("x = 5 satisfies both");
        assert!(
            reused.built,
            "a model chosen here is kept again by the caller"
        );
        assert!(cache
            .satisfies(&s, &mut independence, &[x_big, x_huge], None)
            .is_none());
    }
}
