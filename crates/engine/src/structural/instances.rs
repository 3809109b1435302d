//! Summary operators in calling contexts (thesis §4.2.1): an *instance* is one call of a function
//! with its actual inputs expressed over the entry's variables; each of its side effects is a
//! variable (the summary operator) that stays unconstrained until [`Instances::expand`] defines
//! it by the callee's summary with the actuals substituted for the formals.
//!
//! The callee's own calls become child instances when an expansion first needs them, so
//! expansion proceeds one side effect at a time. Instances are hash-consed by callee, actual
//! inputs and the callee's recursion depth: two calls that receive the same inputs share their
//! operators (the merging of deterministic summary operators, §4.2.4; every micro-c function is
//! deterministic in its inputs, `input` included, because the input cursor is an input). A call
//! that would make more than K activations of one function active is a *cut* instance: it does
//! not return (`cfc` false), meets no property, and meets the `Recursion` cut. Nothing here asks
//! a solver; the caller asserts each definition.

use std::collections::BTreeMap;
use std::rc::Rc;

use rustc_hash::FxHashMap;
use symex_ir::cfg::FuncId;
use symex_smt::{TermId, TermStore};

use crate::error::EngineError;
use crate::structural::effects::{CutKind, Effect, Goal};
use crate::structural::summary::Summary;

pub struct Instance {
    pub func: FuncId,
    pub actuals: Vec<TermId>,
    /// Activations of each function on the chain from the entry to this call, this one included.
    active: Rc<FxHashMap<FuncId, u32>>,
    /// The summary operator of each side effect.
    pub vars: BTreeMap<Effect, TermId>,
    /// Child instance of each call site of the callee, once needed.
    children: FxHashMap<usize, usize>,
    /// Beyond the recursion bound.
    pub cut: bool,
}

pub struct Instances<'s> {
    summaries: &'s [Summary],
    bound: u32,
    list: Vec<Instance>,
    keys: FxHashMap<(FuncId, u32, Vec<TermId>), usize>,
    /// Summary operator -> (instance, side effect).
    owners: FxHashMap<TermId, (usize, Effect)>,
    /// Term nodes of each function's side effect (what expanding one adds at most).
    costs: FxHashMap<(FuncId, Effect), usize>,
    /// Expanded operators and their definitions (`None`: left unconstrained, a cut instance).
    definitions: FxHashMap<TermId, Option<TermId>>,
}

impl<'s> Instances<'s> {
    /// `summaries[i]` is the summary of `FuncId(i)`; `bound` is the recursion bound K.
    pub fn new(summaries: &'s [Summary], bound: u32) -> Instances<'s> {
        Instances {
            summaries,
            bound,
            list: Vec::new(),
            keys: FxHashMap::default(),
            owners: FxHashMap::default(),
            costs: FxHashMap::default(),
            definitions: FxHashMap::default(),
        }
    }

    /// The root context: `entry` called with its own formals, no cell allocated yet and no
    /// input read.
    pub fn root(&mut self, store: &mut TermStore, entry: FuncId) -> Result<usize, EngineError> {
        let formals = &self.summaries[entry.index()].formals;
        let mut actuals = formals.all();
        let n = actuals.len();
        // Address 0 is null; input heap cells (none here) would be negative.
        actuals[n - 2] = crate::common::terms::int_const(store, 1)?;
        actuals[n - 1] = crate::common::terms::int_const(store, 0)?;
        self.instance(store, entry, actuals, &Rc::new(FxHashMap::default()))
    }

    /// Any context: `func` called with its formals unconstrained (every caller's call is one
    /// of these), for VCs checked before they are lifted.
    pub fn free(&mut self, store: &mut TermStore, func: FuncId) -> Result<usize, EngineError> {
        let actuals = self.summaries[func.index()].formals.all();
        self.instance(store, func, actuals, &Rc::new(FxHashMap::default()))
    }

    fn instance(
        &mut self,
        store: &mut TermStore,
        func: FuncId,
        actuals: Vec<TermId>,
        caller_active: &Rc<FxHashMap<FuncId, u32>>,
    ) -> Result<usize, EngineError> {
        let depth = caller_active.get(&func).copied().unwrap_or(0) + 1;
        let key = (func, depth, actuals);
        if let Some(&i) = self.keys.get(&key) {
            return Ok(i);
        }
        let (func, depth, actuals) = key;
        let index = self.list.len();
        let summary = &self.summaries[func.index()];
        let mut vars = BTreeMap::new();
        for (&effect, &root) in &summary.effects {
            let v = store.var(format!("i{index}:{effect:?}"), store.sort(root))?;
            vars.insert(effect, v);
            self.owners.insert(v, (index, effect));
        }
        let mut active = (**caller_active).clone();
        active.insert(func, depth);
        self.keys.insert((func, depth, actuals.clone()), index);
        self.list.push(Instance {
            func,
            actuals,
            active: Rc::new(active),
            vars,
            children: FxHashMap::default(),
            cut: depth > self.bound,
        });
        Ok(index)
    }

    /// The root of `effect` of instance `i`: its summary with the actuals substituted and the
    /// callee's summary operators replaced by those of child instances. A goal the function
    /// cannot meet is `false`.
    pub fn instantiate(
        &mut self,
        store: &mut TermStore,
        i: usize,
        effect: Effect,
    ) -> Result<TermId, EngineError> {
        let summary = &self.summaries[self.list[i].func.index()];
        match summary.effects.get(&effect) {
            Some(&root) => self.substitute(store, i, root),
            None => Ok(store.bool_val(false)?),
        }
    }

    /// `term` (over instance `i`'s function's vocabulary) over the entry's.
    fn substitute(
        &mut self,
        store: &mut TermStore,
        i: usize,
        term: TermId,
    ) -> Result<TermId, EngineError> {
        let summary = &self.summaries[self.list[i].func.index()];
        let mut map: FxHashMap<TermId, TermId> = FxHashMap::default();
        for (formal, actual) in summary
            .formals
            .all()
            .into_iter()
            .zip(self.list[i].actuals.clone())
        {
            if formal != actual {
                map.insert(formal, actual);
            }
        }
        for var in store.vars_of(&[term]) {
            let t = store.var_info(var).term;
            if let Some(&(site, effect)) = summary.operators.get(&t) {
                let child = self.child(store, i, site)?;
                let replacement =
                    self.list[child].vars.get(&effect).copied().ok_or_else(|| {
                        EngineError::Internal(format!("no operator for {effect:?}"))
                    })?;
                map.insert(t, replacement);
            }
        }
        Ok(store.substitute(term, &map)?)
    }

    /// The instance of call site `site` of instance `i`'s function.
    fn child(
        &mut self,
        store: &mut TermStore,
        i: usize,
        site: usize,
    ) -> Result<usize, EngineError> {
        if let Some(&c) = self.list[i].children.get(&site) {
            return Ok(c);
        }
        let call = &self.summaries[self.list[i].func.index()].calls[site];
        let callee = call.callee;
        let mut actuals = Vec::with_capacity(call.actuals.len());
        for a in call.actuals.clone() {
            actuals.push(self.substitute(store, i, a)?);
        }
        let active = Rc::clone(&self.list[i].active);
        let c = self.instance(store, callee, actuals, &active)?;
        self.list[i].children.insert(site, c);
        Ok(c)
    }

    /// How many term nodes the summary behind operator `v` has (0 for no operator).
    pub fn cost(&mut self, store: &TermStore, v: TermId) -> usize {
        let Some(&(i, effect)) = self.owners.get(&v) else {
            return 0;
        };
        let func = self.list[i].func;
        let summaries = self.summaries;
        *self.costs.entry((func, effect)).or_insert_with(|| {
            summaries[func.index()]
                .effects
                .get(&effect)
                .map_or(0, |&root| store.postorder(&[root]).len())
        })
    }

    /// Whether `t` is a summary operator.
    pub fn is_operator(&self, t: TermId) -> bool {
        self.owners.contains_key(&t)
    }

    /// The definition of an operator built so far: `Some(None)` for one left unconstrained.
    pub fn definition(&self, t: TermId) -> Option<Option<TermId>> {
        self.definitions.get(&t).copied()
    }

    /// The definition of operator `v` (built once): `None` for one left unconstrained (a side
    /// effect of a cut instance other than its `cfc` and goals).
    pub fn expand(
        &mut self,
        store: &mut TermStore,
        v: TermId,
    ) -> Result<Option<TermId>, EngineError> {
        if let Some(&known) = self.definitions.get(&v) {
            return Ok(known);
        }
        let &(i, effect) = self.owners.get(&v).ok_or_else(|| {
            EngineError::Internal("expanding a variable that is no summary operator".into())
        })?;
        let definition = if self.list[i].cut {
            match effect {
                Effect::Cfc | Effect::Goal(Goal::Fail(_)) => Some(store.bool_val(false)?),
                Effect::Passed => Some(store.bool_val(true)?),
                Effect::Goal(Goal::Cut(kind)) => Some(store.bool_val(kind == CutKind::Recursion)?),
                _ => None,
            }
        } else {
            Some(self.instantiate(store, i, effect)?)
        };
        self.definitions.insert(v, definition);
        Ok(definition)
    }

    /// How many operators exist and how many are expanded.
    pub fn counts(&self) -> (usize, usize) {
        (self.owners.len(), self.definitions.len())
    }
}
