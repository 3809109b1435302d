//! The entry check with restarts over assertion orders.
//!
//! Z3's time on the backward engine's entry queries is heavy-tailed in the order in which the
//! formula's ASTs are made: the same (4, 5) degree-counting query took 45 s in the engine's order
//! and 1.5 s with its assertions reversed, and random orders ranged from 1.5 s to over a minute
//! (BENCHMARKS.md, "Why in-process Z3 was slower"). So the entry check runs under a conflict
//! budget, and each time the budget runs out a fresh solver (a new Z3 context, so new AST ids)
//! gets the same assertions in another order: reversed, then seeded permutations, with budgets
//! that double every second attempt; the last attempt has none. Conflicts, not time, so the
//! same query gets the same answer from the same attempt on every run, whatever the load.
//! Every attempt checks the same formula, so the answer is the one a single check would give.
//!
//! A `sat` answer counts only when its model satisfies the assertions under the term store's own
//! evaluator: Z3 4.8.12 in process, with the engine's search settings, has returned a model that
//! falsifies the query it answered (a small `disj-set` query of a heap program), and the
//! witness would not replay. Such an answer is taken like a budget running out: the next
//! attempt, in a fresh solver and another order, decides.
//!
//! Budgets are for conjunct combination's entry formulas, which were measured. Disjunct
//! propagation's are checked once (restarting only on a bad model): on the (2, 5) `disj-set`
//! formula, restarts kept Z3 busy for 15 minutes past a 60 s limit, in work its time limit does
//! not interrupt.
//!
//! Nothing here builds formulas or reads the entry's values; a back end without a conflict
//! count (the solver processes) gets one unbounded check (and restarts only on a bad model).

use std::time::Instant;

use symex_smt::{eval_all, SatResult, Solver, TermId, TermStore, Value};

use crate::backward::disj::set_remaining;
use crate::backward::encode::SearchStats;
use crate::common::budget::Budget;
use crate::common::rng::Rng;
use crate::error::EngineError;

/// A solver that has never been checked: for the entry check after intermediate ones, and for
/// each restart.
pub type FreshSolver<'a> = dyn Fn() -> Result<Box<dyn Solver>, EngineError> + 'a;

/// The conflict budget of each attempt but the last (which has none). Measured on the dumped
/// degree-counting entry queries (BENCHMARKS.md): every row up to (3, 6) is answered within the
/// first 10,000 conflicts in the engine's order, so restarts cost those rows nothing.
const BUDGETS: [u32; 8] = [
    10_000, 10_000, 20_000, 20_000, 40_000, 40_000, 80_000, 80_000,
];

/// The reason of an answer whose model falsifies the query (see the module doc).
const BAD_MODEL: &str = "the solver's model does not satisfy the query";

/// Checks the conjunction of `assertions`, which `solver` holds (asserted in this order and
/// never checked), restarting in fresh solvers as the module doc says; without `budgeted`, only
/// a bad model restarts. Returns the answer and, when a restart gave it, the solver that did
/// (its model is the one to read).
pub(super) fn check_entry(
    budgeted: bool,
    solver: &mut dyn Solver,
    assertions: &[TermId],
    fresh_solver: &FreshSolver<'_>,
    store: &TermStore,
    budget: &Budget,
    stats: &mut SearchStats,
) -> Result<(SatResult, Option<Box<dyn Solver>>), EngineError> {
    let limited = budgeted && solver.set_conflict_limit(Some(BUDGETS[0]));
    // Whether another attempt could answer where this one did not.
    let retry = |result: &SatResult| match result {
        SatResult::Unknown(reason) => limited || reason == BAD_MODEL,
        SatResult::Sat | SatResult::Unsat => false,
    };
    let mut last = attempt(solver, assertions, store, budget, stats)?;
    if !retry(&last) {
        return Ok((last, None));
    }
    let mut rng = Rng::new(0);
    let mut order: Vec<usize> = (0..assertions.len()).rev().collect();
    for number in 1..=BUDGETS.len() {
        if let Some(cut) = budget.exhausted() {
            return Ok((SatResult::Unknown(cut.to_string()), None));
        }
        if number > 1 {
            shuffle(&mut order, &mut rng);
        }
        let mut restarted = fresh_solver()?;
        for &i in &order {
            restarted.assert(store, assertions[i])?;
        }
        if limited {
            restarted.set_conflict_limit(BUDGETS.get(number).copied());
        }
        stats.solver_calls += 1;
        last = attempt(&mut *restarted, assertions, store, budget, stats)?;
        if !retry(&last) {
            return Ok((last, Some(restarted)));
        }
    }
    Ok((last, None))
}

/// One check of `solver`, which holds `assertions`; a `sat` whose model falsifies them is
/// [`BAD_MODEL`].
fn attempt(
    solver: &mut dyn Solver,
    assertions: &[TermId],
    store: &TermStore,
    budget: &Budget,
    stats: &mut SearchStats,
) -> Result<SatResult, EngineError> {
    set_remaining(solver, budget);
    let started = Instant::now();
    let result = solver.check(store, &[])?;
    stats.solver_time += started.elapsed();
    if result == SatResult::Sat && !model_satisfies(solver, assertions, store)? {
        return Ok(SatResult::Unknown(BAD_MODEL.into()));
    }
    Ok(result)
}

/// Whether the model of `solver`'s last `sat` makes every assertion true under the term
/// store's evaluator (an assertion it cannot evaluate counts as false).
fn model_satisfies(
    solver: &mut dyn Solver,
    assertions: &[TermId],
    store: &TermStore,
) -> Result<bool, EngineError> {
    let vars: Vec<TermId> = (store.vars_of(assertions).into_iter())
        .map(|v| store.var_info(v).term)
        .collect();
    let assignment = solver.model(store, &vars)?.to_assignment(store);
    Ok(eval_all(store, assertions, &assignment)
        .is_ok_and(|values| values.iter().all(|v| *v == Value::Bool(true))))
}

/// Fisher–Yates with the engine's seeded generator.
fn shuffle(order: &mut [usize], rng: &mut Rng) {
    for i in (1..order.len()).rev() {
        order.swap(i, rng.below(i + 1));
    }
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};
    use std::time::Duration;

    use symex_smt::{BvConst, Model, SolverError, SolverStats};

    use super::*;

    /// What the scripted solvers did: each one's assertions, in order.
    type Log = Arc<Mutex<Vec<Vec<TermId>>>>;

    /// A solver whose checks answer from a shared script and whose models give `x` one value.
    struct Scripted {
        script: Arc<Mutex<Vec<(SatResult, i64)>>>,
        log: Log,
        me: usize,
        limited: bool,
        x_value: i64,
        stats: SolverStats,
    }

    impl Solver for Scripted {
        fn name(&self) -> String {
            "scripted".into()
        }
        fn push(&mut self) -> Result<(), SolverError> {
            Ok(())
        }
        fn pop(&mut self) -> Result<(), SolverError> {
            Ok(())
        }
        fn level(&self) -> usize {
            0
        }
        fn assert(&mut self, _: &TermStore, term: TermId) -> Result<(), SolverError> {
            self.log.lock().unwrap()[self.me].push(term);
            Ok(())
        }
        fn check(&mut self, _: &TermStore, _: &[TermId]) -> Result<SatResult, SolverError> {
            let (result, x_value) = self.script.lock().unwrap().remove(0);
            self.x_value = x_value;
            Ok(result)
        }
        fn model(&mut self, _: &TermStore, vars: &[TermId]) -> Result<Model, SolverError> {
            let mut model = Model::new();
            for &v in vars {
                let value = BvConst::new(8, self.x_value as u128).unwrap();
                model.insert(v, Value::Bv(value));
            }
            Ok(model)
        }
        fn set_timeout(&mut self, _: Option<Duration>) {}
        fn timeout(&self) -> Option<Duration> {
            None
        }
        fn stats(&self) -> &SolverStats {
            &self.stats
        }
        fn set_conflict_limit(&mut self, _: Option<u32>) -> bool {
            self.limited
        }
    }

    /// Runs `check_entry` on `x = 1` and `x != 2` with the scripted answers; gives the answer,
    /// whether a restart gave it, and each solver's assertion order.
    fn run(script: Vec<(SatResult, i64)>, limited: bool) -> (SatResult, bool, Vec<Vec<TermId>>) {
        let mut store = TermStore::new();
        let x = store.bv_var("x", 8).unwrap();
        let one = store.bv_val(8, 1).unwrap();
        let two = store.bv_val(8, 2).unwrap();
        let assertions = [store.eq(x, one).unwrap(), store.neq(x, two).unwrap()];
        let script = Arc::new(Mutex::new(script));
        let log: Log = Arc::new(Mutex::new(vec![Vec::new()]));
        let make = |me| Scripted {
            script: Arc::clone(&script),
            log: Arc::clone(&log),
            me,
            limited,
            x_value: 0,
            stats: SolverStats::default(),
        };
        let mut first = make(0);
        for &a in &assertions {
            first.assert(&store, a).unwrap();
        }
        let fresh = || -> Result<Box<dyn Solver>, EngineError> {
            let mut log = log.lock().unwrap();
            log.push(Vec::new());
            Ok(Box::new(make(log.len() - 1)))
        };
        let mut stats = SearchStats::default();
        let (result, restarted) = check_entry(
            true,
            &mut first,
            &assertions,
            &fresh,
            &store,
            &Budget::untimed(),
            &mut stats,
        )
        .unwrap();
        let orders = log.lock().unwrap().clone();
        (result, restarted.is_some(), orders)
    }

    #[test]
    fn an_answer_within_the_budget_needs_no_restart() {
        let (result, restarted, orders) = run(vec![(SatResult::Sat, 1)], true);
        assert_eq!(result, SatResult::Sat);
        assert!(!restarted);
        assert_eq!(orders.len(), 1);
    }

    #[test]
    fn a_budget_that_runs_out_restarts_with_the_assertions_reversed() {
        let out = SatResult::Unknown("max-conflicts-reached".into());
        let (result, restarted, orders) = run(vec![(out, 0), (SatResult::Unsat, 0)], true);
        assert_eq!(result, SatResult::Unsat);
        assert!(restarted);
        let reversed: Vec<TermId> = orders[0].iter().rev().copied().collect();
        assert_eq!(orders[1], reversed);
    }

    #[test]
    fn a_model_that_falsifies_the_query_is_not_an_answer() {
        // x = 3 falsifies `x = 1`: the next attempt's model (x = 1) is the answer.
        let (result, restarted, _) = run(vec![(SatResult::Sat, 3), (SatResult::Sat, 1)], false);
        assert_eq!(result, SatResult::Sat);
        assert!(restarted);
        // Every attempt's model bad: unknown, never sat.
        let bad = vec![(SatResult::Sat, 3); BUDGETS.len() + 1];
        let (result, _, orders) = run(bad, true);
        assert_eq!(result, SatResult::Unknown(BAD_MODEL.into()));
        assert_eq!(orders.len(), BUDGETS.len() + 1);
    }

    #[test]
    fn without_a_conflict_count_an_unknown_is_final() {
        let out = SatResult::Unknown("timeout".into());
        let (result, restarted, orders) = run(vec![(out.clone(), 0)], false);
        assert_eq!(result, out);
        assert!(!restarted);
        assert_eq!(orders.len(), 1);
    }
}
