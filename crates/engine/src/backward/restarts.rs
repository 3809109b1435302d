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
//! Nothing here builds formulas or reads models; a back end without a conflict count (the
//! solver processes) gets one unbounded check.

use std::time::Instant;

use symex_smt::{SatResult, Solver, TermId, TermStore};

use crate::backward::disj::set_remaining;
use crate::backward::encode::SearchStats;
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

/// Checks the conjunction of `assertions`, which `solver` holds (asserted in this order and
/// never checked), restarting in fresh solvers as the module doc says. Returns the answer and,
/// when a restart gave it, the solver that did (its model is the one to read).
pub(super) fn check_entry(
    solver: &mut dyn Solver,
    assertions: &[TermId],
    fresh_solver: &FreshSolver<'_>,
    store: &TermStore,
    deadline: Option<Instant>,
    stats: &mut SearchStats,
) -> Result<(SatResult, Option<Box<dyn Solver>>), EngineError> {
    let limited = solver.set_conflict_limit(Some(BUDGETS[0]));
    let result = timed_check(solver, store, deadline, stats)?;
    if !limited || !matches!(result, SatResult::Unknown(_)) {
        return Ok((result, None));
    }
    let mut rng = Rng::new(0);
    let mut order: Vec<usize> = (0..assertions.len()).rev().collect();
    let mut last = result;
    for attempt in 1..=BUDGETS.len() {
        if deadline.is_some_and(|d| Instant::now() >= d) {
            return Ok((SatResult::Unknown("time limit reached".into()), None));
        }
        if attempt > 1 {
            shuffle(&mut order, &mut rng);
        }
        let mut restarted = fresh_solver()?;
        for &i in &order {
            restarted.assert(store, assertions[i])?;
        }
        restarted.set_conflict_limit(BUDGETS.get(attempt).copied());
        stats.solver_calls += 1;
        let result = timed_check(&mut *restarted, store, deadline, stats)?;
        if !matches!(result, SatResult::Unknown(_)) {
            return Ok((result, Some(restarted)));
        }
        last = result;
    }
    Ok((last, None))
}

fn timed_check(
    solver: &mut dyn Solver,
    store: &TermStore,
    deadline: Option<Instant>,
    stats: &mut SearchStats,
) -> Result<SatResult, EngineError> {
    set_remaining(solver, deadline);
    let started = Instant::now();
    let result = solver.check(store, &[])?;
    stats.solver_time += started.elapsed();
    Ok(result)
}

/// Fisher–Yates with the engine's seeded generator.
fn shuffle(order: &mut [usize], rng: &mut Rng) {
    for i in (1..order.len()).rev() {
        order.swap(i, rng.below(i + 1));
    }
}
