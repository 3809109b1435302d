//! The solver interface shared by every back end.
//!
//! A [`Solver`] is an incremental assertion stack over the terms of one [`TermStore`] (it
//! refuses others: translations are cached by term id). `check` answers [`SatResult`]; an
//! `unknown`, a time-out, a crashed or babbling solver process are all
//! `SatResult::Unknown(reason)`, never an `Err` and never a panic. Errors are for misuse
//! (pop without push, model without sat, a foreign store) and for a solver that cannot be
//! started at all. This module defines the contract and the shared bookkeeping; it contains no
//! back end.

use std::time::{Duration, Instant};

use rustc_hash::FxHashMap;

use crate::error::SolverError;
use crate::eval::Assignment;
use crate::sort::Sort;
use crate::term::{StoreId, TermId, TermStore};
use crate::value::Value;

/// The time limit a new solver starts with.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

/// A nominal rate of [`Solver::work`]: what Z3 4.8.12 counts per second of the forward
/// engine's solver time (the median over the generated sets with errors, BENCHMARKS.md
/// "Subsumption's share in solver work"). It converts a time into work where a share of the
/// search is given as a time, and the time of back ends without a count into work.
pub const WORK_PER_SECOND: u64 = 4_000_000;

/// `time` of checks in units of [`Solver::work`], at [`WORK_PER_SECOND`].
pub fn work_of(time: Duration) -> u64 {
    (time.as_secs_f64() * WORK_PER_SECOND as f64) as u64
}

/// The answer to a satisfiability check.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum SatResult {
    /// Satisfiable: a model is available.
    Sat,
    /// Unsatisfiable.
    Unsat,
    /// The solver could not decide; the reason (time-out, crash, incompleteness, ...).
    Unknown(String),
}

impl SatResult {
    /// Whether the answer is `Sat`.
    pub fn is_sat(&self) -> bool {
        matches!(self, SatResult::Sat)
    }

    /// Whether the answer is `Unsat`.
    pub fn is_unsat(&self) -> bool {
        matches!(self, SatResult::Unsat)
    }
}

/// Values of variables, as found by a solver.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Model {
    values: FxHashMap<TermId, Value>,
}

impl Model {
    /// An empty model.
    pub fn new() -> Self {
        Self::default()
    }

    /// The value of the variable `var`, if the model has it.
    pub fn get(&self, var: TermId) -> Option<&Value> {
        self.values.get(&var)
    }

    /// Sets the value of `var`.
    pub fn insert(&mut self, var: TermId, value: Value) {
        self.values.insert(var, value);
    }

    /// The number of variables with a value.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Whether the model is empty.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// All (variable, value) pairs, in no particular order.
    pub fn iter(&self) -> impl Iterator<Item = (TermId, &Value)> {
        self.values.iter().map(|(t, v)| (*t, v))
    }

    /// The model as an assignment for [`crate::eval()`].
    pub fn to_assignment(&self, store: &TermStore) -> Assignment {
        let mut asg = Assignment::new();
        for (t, v) in self.iter() {
            if let Some(var) = store.var_id(t) {
                asg.insert(var, v.clone());
            }
        }
        asg
    }
}

/// What a solver has done so far.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SolverStats {
    /// Number of `check` calls.
    pub checks: u64,
    /// Checks answered `sat`.
    pub sat: u64,
    /// Checks answered `unsat`.
    pub unsat: u64,
    /// Checks answered `unknown` (including time-outs and solver faults).
    pub unknown: u64,
    /// Wall-clock time spent in checks and model queries.
    pub time: Duration,
    /// Times a solver was started again: a solver process after a fault, in-process Z3 after a
    /// check cut short or a failed call (rebuilt in a new context).
    pub restarts: u64,
    /// Checks that Z3's incremental core left undecided in its share of the time and that
    /// Z3's one-shot solver was asked again (in-process Z3 only).
    pub one_shot: u64,
}

impl SolverStats {
    /// Records one check.
    pub fn record(&mut self, result: &SatResult, elapsed: Duration) {
        self.checks += 1;
        self.time += elapsed;
        match result {
            SatResult::Sat => self.sat += 1,
            SatResult::Unsat => self.unsat += 1,
            SatResult::Unknown(_) => self.unknown += 1,
        }
    }
}

/// An incremental SMT solver over the terms of one [`TermStore`].
pub trait Solver {
    /// A short description (back end and version or command).
    fn name(&self) -> String;

    /// Opens a new assertion scope.
    fn push(&mut self) -> Result<(), SolverError>;

    /// Drops the assertions of the innermost scope.
    fn pop(&mut self) -> Result<(), SolverError>;

    /// The number of open scopes.
    fn level(&self) -> usize;

    /// Adds a Boolean assertion to the current scope.
    fn assert(&mut self, store: &TermStore, term: TermId) -> Result<(), SolverError>;

    /// Checks the assertions, together with the Boolean `assumptions` (which are forgotten
    /// afterwards). Time-outs and solver faults are `Ok(SatResult::Unknown(reason))`.
    fn check(
        &mut self,
        store: &TermStore,
        assumptions: &[TermId],
    ) -> Result<SatResult, SolverError>;

    /// The values of the variables `vars` in the model of the last check, which must have
    /// answered `sat` with no change to the assertions since. A variable the solver has never
    /// seen is unconstrained and gets the default value of its sort.
    fn model(&mut self, store: &TermStore, vars: &[TermId]) -> Result<Model, SolverError>;

    /// Sets the time limit of each later check (`None`: no limit).
    fn set_timeout(&mut self, timeout: Option<Duration>);

    /// The current time limit of a check.
    fn timeout(&self) -> Option<Duration>;

    /// A hard deadline for all the solver's work from now on (`None`: none). A time limit
    /// (`set_timeout`) covers checks only; past the deadline, a back end that can interrupt
    /// its work (Z3 in process) stops whatever it is doing, including asserting and scopes,
    /// and every later check answers `Unknown`. Back ends without such a means ignore it (a
    /// solver process is killed when a check outlives its time limit).
    fn set_deadline(&mut self, deadline: Option<Instant>) {
        let _ = deadline;
    }

    /// Whether a deadline of [`Solver::set_deadline`] is in force and the solver stops at it
    /// on its own (so a caller need not shorten each check's time limit as it nears).
    fn keeps_deadline(&self) -> bool {
        false
    }

    /// What the solver has done so far.
    fn stats(&self) -> &SolverStats;

    /// A deterministic count of the solver's work so far (Z3's `rlimit count`): the same
    /// checks count the same whatever the machine's speed or load, which a time does not
    /// (`None`: the back end has no such count).
    fn work(&mut self) -> Option<u64> {
        None
    }

    /// Bounds the work of each later check by a deterministic resource count (`None`: no
    /// bound); a check that runs out answers `Unknown`. Unlike a time limit, the same query
    /// under the same bound gets the same answer whatever the load. Returns whether the back
    /// end honours the bound: one without such a count ignores it and says so.
    fn set_resource_limit(&mut self, limit: Option<u32>) -> bool {
        let _ = limit;
        false
    }

    /// Bounds each later check by a number of conflicts of the solver's search (`None`: no
    /// bound); a check that runs out answers `Unknown`. Deterministic like
    /// [`Solver::set_resource_limit`], and honoured by Z3 where its `rlimit` is not (checks
    /// without assumptions in Z3's one-shot mode). Returns whether the back end honours it.
    fn set_conflict_limit(&mut self, limit: Option<u32>) -> bool {
        let _ = limit;
        false
    }
}

impl<S: Solver + ?Sized> Solver for Box<S> {
    fn name(&self) -> String {
        (**self).name()
    }
    fn push(&mut self) -> Result<(), SolverError> {
        (**self).push()
    }
    fn pop(&mut self) -> Result<(), SolverError> {
        (**self).pop()
    }
    fn level(&self) -> usize {
        (**self).level()
    }
    fn assert(&mut self, store: &TermStore, term: TermId) -> Result<(), SolverError> {
        (**self).assert(store, term)
    }
    fn check(
        &mut self,
        store: &TermStore,
        assumptions: &[TermId],
    ) -> Result<SatResult, SolverError> {
        (**self).check(store, assumptions)
    }
    fn model(&mut self, store: &TermStore, vars: &[TermId]) -> Result<Model, SolverError> {
        (**self).model(store, vars)
    }
    fn set_timeout(&mut self, timeout: Option<Duration>) {
        (**self).set_timeout(timeout)
    }
    fn timeout(&self) -> Option<Duration> {
        (**self).timeout()
    }
    fn set_deadline(&mut self, deadline: Option<Instant>) {
        (**self).set_deadline(deadline)
    }
    fn keeps_deadline(&self) -> bool {
        (**self).keeps_deadline()
    }
    fn stats(&self) -> &SolverStats {
        (**self).stats()
    }
    fn work(&mut self) -> Option<u64> {
        (**self).work()
    }
    fn set_resource_limit(&mut self, limit: Option<u32>) -> bool {
        (**self).set_resource_limit(limit)
    }

    fn set_conflict_limit(&mut self, limit: Option<u32>) -> bool {
        (**self).set_conflict_limit(limit)
    }
}

/// The terms asserted in each open scope, the base level first: for solver wrappers that must
/// replay or print the whole assertion stack of the solver they wrap.
#[derive(Clone, Debug)]
pub(crate) struct AssertionStack {
    scopes: Vec<Vec<TermId>>,
}

impl Default for AssertionStack {
    fn default() -> Self {
        AssertionStack {
            scopes: vec![Vec::new()],
        }
    }
}

impl AssertionStack {
    pub(crate) fn push(&mut self) {
        self.scopes.push(Vec::new());
    }

    /// Drops the innermost scope; the base level stays.
    pub(crate) fn pop(&mut self) {
        if self.scopes.len() > 1 {
            self.scopes.pop();
        }
    }

    pub(crate) fn assert(&mut self, term: TermId) {
        if let Some(scope) = self.scopes.last_mut() {
            scope.push(term);
        }
    }

    /// The number of open scopes above the base level.
    pub(crate) fn level(&self) -> usize {
        self.scopes.len() - 1
    }

    /// The assertions of each level, the base level first.
    pub(crate) fn scopes(&self) -> impl Iterator<Item = &[TermId]> {
        self.scopes.iter().map(Vec::as_slice)
    }

    /// Every assertion, oldest first.
    pub(crate) fn all(&self) -> impl Iterator<Item = TermId> + '_ {
        self.scopes.iter().flatten().copied()
    }
}

/// Ties a solver to the first store it sees and validates incoming terms.
#[derive(Clone, Debug, Default)]
pub(crate) struct StoreBinding {
    store: Option<StoreId>,
}

impl StoreBinding {
    /// Checks that `store` is the bound store (binding it on first use).
    pub(crate) fn bind(&mut self, store: &TermStore) -> Result<(), SolverError> {
        match self.store {
            None => {
                self.store = Some(store.id());
                Ok(())
            }
            Some(id) if id == store.id() => Ok(()),
            Some(_) => Err(SolverError::ForeignStore),
        }
    }

    /// Checks the store and that every term is a Boolean term of it.
    pub(crate) fn booleans(
        &mut self,
        store: &TermStore,
        terms: &[TermId],
    ) -> Result<(), SolverError> {
        self.bind(store)?;
        for &t in terms {
            let sort = store.check_term(t)?;
            if sort != Sort::Bool {
                return Err(SolverError::Term(crate::TermError::Sort {
                    op: "assert",
                    expected: "Bool".into(),
                    found: store.sort_name(sort),
                }));
            }
        }
        Ok(())
    }

    /// Checks the store and that every term is a variable of it.
    pub(crate) fn variables(
        &mut self,
        store: &TermStore,
        terms: &[TermId],
    ) -> Result<(), SolverError> {
        self.bind(store)?;
        for &t in terms {
            store.check_term(t)?;
            if store.var_id(t).is_none() {
                return Err(SolverError::Term(crate::TermError::Unknown(format!(
                    "model request for term #{} (not a variable)",
                    t.index()
                ))));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_assertion_stack_follows_push_and_pop_and_keeps_its_base() {
        let mut store = TermStore::new();
        let [a, b, c] = ["a", "b", "c"].map(|n| store.bool_var(n).expect("var"));
        let mut stack = AssertionStack::default();
        stack.assert(a);
        stack.push();
        stack.assert(b);
        stack.push();
        stack.assert(c);
        assert_eq!(stack.level(), 2);
        assert_eq!(stack.all().collect::<Vec<_>>(), vec![a, b, c]);
        stack.pop();
        let scopes: Vec<&[TermId]> = stack.scopes().collect();
        assert_eq!(scopes, vec![&[a][..], &[b][..]]);
        stack.pop();
        stack.pop();
        assert_eq!(stack.level(), 0);
        assert_eq!(stack.all().collect::<Vec<_>>(), vec![a]);
    }

    #[test]
    fn stats_count_answers() {
        let mut s = SolverStats::default();
        s.record(&SatResult::Sat, Duration::from_millis(2));
        s.record(
            &SatResult::Unknown("timeout".into()),
            Duration::from_millis(3),
        );
        assert_eq!((s.checks, s.sat, s.unknown), (2, 1, 1));
        assert_eq!(s.time, Duration::from_millis(5));
    }

    #[test]
    fn binding_refuses_foreign_stores_and_bad_terms() {
        let mut a = TermStore::new();
        let b = TermStore::new();
        let x = a.bv_var("x", 8).expect("var");
        let p = a.bool_var("p").expect("var");
        let mut bind = StoreBinding::default();
        assert!(bind.booleans(&a, &[p]).is_ok());
        assert!(bind.booleans(&a, &[x]).is_err());
        assert_eq!(bind.bind(&b), Err(SolverError::ForeignStore));
        let ult = a.bv_ult(x, x).expect("ult");
        assert!(bind.variables(&a, &[ult]).is_err());
        assert!(bind.variables(&a, &[x]).is_ok());
    }

    #[test]
    fn solvers_and_stores_can_move_between_threads() {
        fn is_send<T: Send>() {}
        is_send::<TermStore>();
        is_send::<crate::Z3Solver>();
        is_send::<crate::ProcessSolver>();
        is_send::<crate::QueryEngine<Box<dyn Solver + Send>>>();
    }

    #[test]
    fn models_become_assignments() {
        let mut s = TermStore::new();
        let x = s.int_var("x").expect("var");
        let mut m = Model::new();
        m.insert(x, Value::Int(4));
        let asg = m.to_assignment(&s);
        assert_eq!(asg.get(s.var_id(x).expect("var")), Some(&Value::Int(4)));
    }
}
