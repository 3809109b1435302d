//! Structural abstraction and refinement (thesis ch. 4, Algorithms 3–5): a VC whose calls are
//! unconstrained summary operators is checked on one incremental solver; a falsifying model
//! is walked from the VC's root, and the first unexpanded operator the falsification depends
//! on gets its definition asserted; until the VC holds or the falsification depends on no
//! unexpanded operator.
//!
//! The walk follows the absorptive elements of the model (Definition 9): of a false
//! conjunction only one false conjunct, of a true disjunction one true disjunct, of an `ite`
//! the condition and the branch taken (both branches and not the condition where they have
//! the same value), of a true implication its true consequent or its false antecedent; every
//! child elsewhere. Consequents go first (§4.2.4): of two conjuncts the one
//! that is not itself a conjunction (the asserted condition, not the control-flow context) is
//! walked first. Definitions are valid facts, so they stay asserted for every later VC; the VC
//! itself is only an assumption of each check. `--refine eager` expands every operator in the
//! VC's cone before the first check (inlining, for comparison). Each VC's definitions live in a
//! scope of their own, so a query carries only the summaries its VC needed; a definition built
//! for an earlier VC is asserted up front when the new VC's cone reaches it. Nothing here knows programs:
//! the caller turns a model into inputs.

use std::time::{Duration, Instant};

use rustc_hash::FxHashSet;
use symex_report::Cut;
use symex_smt::{eval_subterms, Model, Node, Op, SatResult, Solver, TermId, TermStore};

use crate::common::budget::Budget;
use crate::error::EngineError;
use crate::structural::instances::Instances;

/// What a VC's check found.
pub enum Decision {
    /// The goal cannot be met: the VC is valid.
    Unreachable,
    /// A model that depends on no unexpanded summary operator.
    Reached(Model),
    /// A limit ran out: the whole check's time or memory, or this VC's time.
    Stopped(Cut),
    /// The solver gave out.
    Unknown(String),
}

/// Counts for the statistics.
#[derive(Clone, Copy, Debug, Default)]
pub struct RefineStats {
    pub vcs: u64,
    pub refinements: u64,
    pub queries: u64,
    pub solver_time: Duration,
}

pub struct Refiner<'s> {
    /// The Boolean that makes callees' checks count (`Vocabulary::strict`).
    strict: TermId,
    pub store: TermStore,
    pub solver: Box<dyn Solver>,
    pub instances: Instances<'s>,
    pub eager: bool,
    /// The whole check's limits.
    budget: &'s Budget,
    /// How long one VC may take (the thesis's per-VC limit).
    pub vc_limit: Duration,
    /// Per-query limit of the solver (`--solver-timeout`).
    pub query_timeout: Option<Duration>,
    pub stats: RefineStats,
    /// Operators whose definitions the current VC's scope asserts (or leaves unconstrained).
    asserted: FxHashSet<TermId>,
}

impl<'s> Refiner<'s> {
    pub fn new(
        store: TermStore,
        solver: Box<dyn Solver>,
        instances: Instances<'s>,
        eager: bool,
        strict: TermId,
        budget: &'s Budget,
    ) -> Refiner<'s> {
        Refiner {
            strict,
            store,
            solver,
            instances,
            eager,
            budget,
            vc_limit: Duration::MAX,
            query_timeout: None,
            stats: RefineStats::default(),
            asserted: FxHashSet::default(),
        }
    }

    /// Decides whether `root` is satisfiable under the summaries' definitions; a model also
    /// gives the values of `wanted`. A *weak* VC (`strict` false) lets callees fail their
    /// checks and still return: it over-approximates the paths, so `Unreachable` is final, but
    /// a model may stop on another property first (the replay says so), and never needs the
    /// callees' checks, which are often their expensive part. The definitions asserted for a
    /// VC are dropped afterwards (kept in `instances`, so a later VC that needs one asserts it
    /// without rebuilding it): each VC's query holds only the summaries its falsifications
    /// needed.
    pub fn decide(
        &mut self,
        root: TermId,
        wanted: &[TermId],
        strict: bool,
    ) -> Result<Decision, EngineError> {
        self.stats.vcs += 1;
        if self.store.as_bool(root) == Some(false) {
            return Ok(Decision::Unreachable);
        }
        let mode = if strict {
            self.strict
        } else {
            self.store.not(self.strict)?
        };
        let root = self.store.and(root, mode)?;
        self.solver.push()?;
        let decision = self.refine_until_decided(root, wanted);
        self.solver.pop()?;
        self.asserted.clear();
        decision
    }

    fn refine_until_decided(
        &mut self,
        root: TermId,
        wanted: &[TermId],
    ) -> Result<Decision, EngineError> {
        let vc_deadline = Instant::now().checked_add(self.vc_limit);
        let deadline = match (self.budget.deadline(), vc_deadline) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        self.expand_cone(root, deadline, self.eager)?;
        loop {
            let timeout = match deadline {
                Some(deadline) => {
                    let left = deadline.saturating_duration_since(Instant::now());
                    if let Some(cut) = self.ran_out(Some(deadline)) {
                        return Ok(Decision::Stopped(cut));
                    }
                    Some(self.query_timeout.map_or(left, |q| q.min(left)))
                }
                None => self.query_timeout,
            };
            self.solver.set_timeout(timeout);
            let start = Instant::now();
            let answer = self.solver.check(&self.store, &[root])?;
            self.stats.queries += 1;
            self.stats.solver_time += start.elapsed();
            match answer {
                SatResult::Unsat => return Ok(Decision::Unreachable),
                SatResult::Unknown(reason) => {
                    return Ok(match self.ran_out(deadline) {
                        Some(cut) => Decision::Stopped(cut),
                        None => Decision::Unknown(reason),
                    })
                }
                SatResult::Sat => {
                    let roots = self.cone(root);
                    let mut vars: Vec<TermId> = self
                        .store
                        .vars_of(&roots)
                        .into_iter()
                        .map(|v| self.store.var_info(v).term)
                        .collect();
                    vars.extend_from_slice(wanted);
                    let model = self.solver.model(&self.store, &vars)?;
                    let values =
                        eval_subterms(&self.store, &roots, &model.to_assignment(&self.store))
                            .map_err(|e| {
                                EngineError::Internal(format!("evaluating a model: {e}"))
                            })?;
                    match self.candidate(root, &values) {
                        Some(operator) => self.refine(operator)?,
                        None => return Ok(Decision::Reached(model)),
                    }
                }
            }
        }
    }

    /// Which limit has run out, if any: the whole check's or this VC's time.
    fn ran_out(&self, vc_deadline: Option<Instant>) -> Option<Cut> {
        self.budget.exhausted().or_else(|| {
            vc_deadline
                .is_some_and(|d| Instant::now() >= d)
                .then_some(Cut::Timeout {
                    ms: self.vc_limit.as_millis() as u64,
                })
        })
    }

    /// Asserts the definition of one summary operator.
    fn refine(&mut self, operator: TermId) -> Result<(), EngineError> {
        if let Some(definition) = self.instances.expand(&mut self.store, operator)? {
            let equation = self.store.eq(operator, definition)?;
            self.solver.assert(&self.store, equation)?;
        }
        self.asserted.insert(operator);
        self.stats.refinements += 1;
        Ok(())
    }

    /// The definition of an operator this VC has asserted: `Some(None)` if it is left
    /// unconstrained, `None` if not expanded here.
    fn defined(&self, operator: TermId) -> Option<Option<TermId>> {
        if self.asserted.contains(&operator) {
            self.instances.definition(operator)
        } else {
            None
        }
    }

    /// `root` and the definitions of the expanded operators it reaches, transitively.
    fn cone(&self, root: TermId) -> Vec<TermId> {
        let mut roots = vec![root];
        let mut seen: FxHashSet<TermId> = FxHashSet::default();
        seen.insert(root);
        let mut next = 0;
        while next < roots.len() {
            let batch: Vec<TermId> = roots[next..].to_vec();
            next = roots.len();
            for v in self.store.vars_of(&batch) {
                let t = self.store.var_info(v).term;
                if let Some(Some(definition)) = self.defined(t) {
                    if seen.insert(definition) {
                        roots.push(definition);
                    }
                }
            }
        }
        roots
    }

    /// Asserts the definitions of the operators the VC can reach that earlier VCs have built
    /// (refinements are facts: a later VC needs no query to rediscover them), and with `all`
    /// (eager inlining) of every operator it can reach.
    fn expand_cone(
        &mut self,
        root: TermId,
        deadline: Option<Instant>,
        all: bool,
    ) -> Result<(), EngineError> {
        loop {
            let roots = self.cone(root);
            let pending: Vec<TermId> = self
                .store
                .vars_of(&roots)
                .into_iter()
                .map(|v| self.store.var_info(v).term)
                .filter(|&t| {
                    self.instances.is_operator(t)
                        && self.defined(t).is_none()
                        && (all || self.instances.definition(t).is_some())
                })
                .collect();
            if pending.is_empty() {
                return Ok(());
            }
            for operator in pending {
                if deadline.is_some_and(|d| Instant::now() >= d)
                    || self.budget.exhausted().is_some()
                {
                    return Ok(());
                }
                self.refine(operator)?;
            }
        }
    }

    /// Algorithms 4 and 5: an unexpanded operator the falsification depends on; of several,
    /// the one whose summary is smallest (cheapest to add to the query), the first met among
    /// equals.
    fn candidate(
        &mut self,
        root: TermId,
        values: &rustc_hash::FxHashMap<TermId, symex_smt::Value>,
    ) -> Option<TermId> {
        let truth = |t: TermId| values.get(&t).and_then(|v| v.as_bool());
        let mut stack = vec![root];
        let mut seen: FxHashSet<TermId> = FxHashSet::default();
        let mut found: Vec<TermId> = Vec::new();
        while let Some(t) = stack.pop() {
            if !seen.insert(t) {
                continue;
            }
            if self.instances.is_operator(t) {
                match self.defined(t) {
                    Some(Some(definition)) => stack.push(definition),
                    Some(None) => {}
                    None => found.push(t),
                }
                continue;
            }
            match *self.store.node(t) {
                Node::App2(Op::And, a, b) => {
                    let (first, second) = consequent_first(&self.store, a, b);
                    if truth(t) == Some(false) {
                        let absorbing = if truth(first) == Some(false) {
                            first
                        } else {
                            second
                        };
                        stack.push(absorbing);
                    } else {
                        stack.push(second);
                        stack.push(first);
                    }
                }
                Node::App2(Op::Or, a, b) => {
                    if truth(t) == Some(true) {
                        stack.push(if truth(a) == Some(true) { a } else { b });
                    } else {
                        stack.push(a);
                        stack.push(b);
                    }
                }
                Node::App2(Op::Implies, a, b) => {
                    if truth(t) == Some(true) {
                        stack.push(if truth(b) == Some(true) { b } else { a });
                    } else {
                        stack.push(a);
                        stack.push(b);
                    }
                }
                // Where both branches have the same value the condition cannot matter, so
                // neither can the operators only it reads (Algorithm 5's rule for ITE).
                Node::App3(Op::Ite, _, a, b)
                    if values.get(&a).is_some() && values.get(&a) == values.get(&b) =>
                {
                    stack.push(b);
                    stack.push(a);
                }
                Node::App3(Op::Ite, c, a, b) => {
                    stack.push(if truth(c) == Some(true) { a } else { b });
                    stack.push(c);
                }
                node => stack.extend(node.args().iter().rev().copied()),
            }
        }
        found
            .into_iter()
            .enumerate()
            .min_by_key(|&(order, operator)| (self.instances.cost(&self.store, operator), order))
            .map(|(_, operator)| operator)
    }
}

/// Of two conjuncts, the consequent (not itself a conjunction) first.
fn consequent_first(store: &TermStore, a: TermId, b: TermId) -> (TermId, TermId) {
    let is_and = |t: TermId| matches!(store.node(t), Node::App2(Op::And, _, _));
    if is_and(a) && !is_and(b) {
        (b, a)
    } else {
        (a, b)
    }
}
