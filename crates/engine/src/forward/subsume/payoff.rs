//! The payoff cap of path subsumption: what its own work has cost the search, and whether it
//! may go on. Its own work is every coverage check that pruned nothing and every invariant
//! attempt that proved nothing; a pruning or an invariant pays for itself.
//!
//! Three accounts, all needed, all in deterministic units so that the same program, options
//! and seed get the same report whatever the machine's speed or load:
//! * **Solver checks**, always: the checks of failed attempts may not exceed the search's own
//!   by more than [`FREE_ATTEMPT_CHECKS`].
//! * **Solver work** ([`Queries::solver_work`], Z3's `rlimit count`), only under a time limit
//!   (time is what the search must not lose then): the unpaid work may count at most a
//!   quarter of the rest of the search's solver work ([`SEARCH_PART`]), plus a tenth of the
//!   limit at the nominal rate [`symex_smt::WORK_PER_SECOND`] ([`FREE_PART`]: a proof that
//!   needs a slow first attempt is made before the search has run long). Past that, no
//!   coverage check, parking or attempt until the search has caught up; a piece of work that
//!   starts within its share starts no solver check past the share's end (a check under way
//!   runs to its end: docs/path-subsumption.md, "Bounds and costs"). So a violation that the
//!   search without `--subsume` finds after some solver work is not pushed far past 1.25
//!   times that by subsumption's own (one check of a loop body's products of inputs can take
//!   0.5 s of a 3-s run). Until session 73 the share was as much as the rest's: on a
//!   generated program whose attempts all failed, the search got half the solver's work and
//!   lost a violation it found without `--subsume` at 2 s of 3; proofs needed no more than the
//!   free part (BENCHMARKS.md, "Does `--subsume` lose violations?"). Until session 59 this
//!   account was kept in wall time, and a proof made in 0.3 s was lost at a 3-s limit in some
//!   runs and not in others (docs/path-subsumption.md).
//! * **Failed attempts**, only under a time limit: after [`FREE_FAILED_ATTEMPTS`] invariant
//!   attempts that asked the solver and proved nothing, no more attempts (nor parking) unless
//!   attempts have proved something, [`FAILED_ATTEMPTS_PER_PROOF`] more failures per proof.
//!   In all 60 runs of the proof benches that proved anything (random-path, 3 s, session 75),
//!   the first attempt that asked the solver proved, and later proofs came after at most 6
//!   failures. On the 5-deep `gen_5` of the generated sets with errors (`random-path --seed
//!   1`, 3 s), where no header became an invariant, coverage checks and attempts took 1.0 s,
//!   and the third violation, found at 1.8 s without `--subsume`, came at 2.97 s or not at
//!   all (session 76, BENCHMARKS.md "Does `--subsume` lose violations?").
//!
//! Which coverage checks may ask the solver at all, within the share, is counted apart
//! (`solver_checks.rs`: checks that keep covering nothing ask it less).
//!
//! Walks carry a path's annotation back without the solver: they cost neither account, and are
//! never skipped (a path that left nothing would be missing from the annotations for good).
//!
//! Nothing here asks the solver or decides what is covered.

use std::time::{Duration, Instant};

use symex_smt::work_of;

use crate::common::solver::Queries;

/// Solver checks that invariant attempts which proved nothing may spend before they must be
/// paid for by as many checks of the search itself.
const FREE_ATTEMPT_CHECKS: u64 = 200;

/// The part of the time limit (at [`symex_smt::WORK_PER_SECOND`]) the unpaid work may count beyond its
/// share of the rest of the search's.
const FREE_PART: u64 = 10;

/// The part of the rest of the search's solver work that the unpaid work may count.
const SEARCH_PART: u64 = 4;

/// Invariant attempts that asked the solver and proved nothing, under a time limit, before
/// attempts stop until one proves something.
const FREE_FAILED_ATTEMPTS: u32 = 4;

/// More failed attempts allowed, under a time limit, for each attempt that proved something.
const FAILED_ATTEMPTS_PER_PROOF: u32 = 8;

#[derive(Default)]
pub struct Payoff {
    /// The solver work the unpaid work may count beyond its share of the rest's, if the search
    /// runs under a time limit (else the work account is off).
    free_work: Option<u64>,
    /// Solver work of the work that paid nothing.
    unpaid_work: u64,
    /// Solver checks spent by invariant attempts that proved nothing.
    failed_attempt_checks: u64,
    /// Invariant attempts that asked the solver and proved nothing.
    failed_attempts: u32,
    /// Invariant attempts that proved something.
    proofs: u32,
}

impl Payoff {
    pub fn new(deadline: Option<Instant>) -> Payoff {
        let limit = |d: Instant| d.saturating_duration_since(Instant::now());
        Payoff {
            free_work: deadline.map(|d| free_work(limit(d))),
            ..Payoff::default()
        }
    }

    /// The solver's work so far, read only where the work account is on (reading it asks Z3
    /// for its statistics).
    pub fn work(&self, queries: &mut Queries) -> u64 {
        if self.free_work.is_some() {
            queries.solver_work()
        } else {
            0
        }
    }

    /// How much solver work the unpaid work may still count, with `work` spent by the whole
    /// search so far (`None`: no time limit).
    fn share_left(&self, work: u64) -> Option<u64> {
        let free = self.free_work?;
        let rest = work.saturating_sub(self.unpaid_work);
        Some((rest / SEARCH_PART + free).saturating_sub(self.unpaid_work))
    }

    /// The solver work of the work that paid nothing (`None`: no time limit, not counted).
    pub fn unpaid_work(&self) -> Option<u64> {
        self.free_work.map(|_| self.unpaid_work)
    }

    /// Whether a coverage check may run now, with `work` spent by the whole search.
    pub fn may_work(&self, work: u64) -> bool {
        self.share_left(work).is_none_or(|left| left > 0)
    }

    /// Whether a state may be parked for an invariant attempt and an attempt may start, with
    /// `solver_checks` and `work` spent by the whole search so far.
    pub fn may_attempt(&self, solver_checks: u64, work: u64) -> bool {
        let search = solver_checks.saturating_sub(self.failed_attempt_checks);
        self.failed_attempt_checks <= search + FREE_ATTEMPT_CHECKS
            && self.may_work(work)
            && self.attempts_pay()
    }

    /// Whether attempts have proved enough to go on failing: under a time limit, at most
    /// [`FREE_FAILED_ATTEMPTS`] failures, and [`FAILED_ATTEMPTS_PER_PROOF`] more per proof.
    fn attempts_pay(&self) -> bool {
        self.free_work.is_none()
            || self.failed_attempts < FREE_FAILED_ATTEMPTS + FAILED_ATTEMPTS_PER_PROOF * self.proofs
    }

    /// An invariant attempt proved something.
    pub fn proved(&mut self) {
        self.proofs += 1;
    }

    /// The solver work at which a piece of work starting now (with `work` spent) must stop
    /// starting solver checks (`None`: no time limit).
    pub fn share_end(&self, work: u64) -> Option<u64> {
        self.share_left(work).map(|left| work + left)
    }

    /// Work that began when the solver's work was `since` and ends at `now` paid nothing.
    pub fn charge(&mut self, since: u64, now: u64) {
        self.unpaid_work += now.saturating_sub(since);
    }

    /// An invariant attempt that spent `checks` solver checks, and the solver work from
    /// `since` to `now`, proved nothing.
    pub fn charge_failed_attempt(&mut self, checks: u64, since: u64, now: u64) {
        self.failed_attempt_checks += checks;
        if checks > 0 {
            self.failed_attempts += 1;
        }
        self.charge(since, now);
    }
}

/// A tenth of `limit` in solver work.
fn free_work(limit: Duration) -> u64 {
    work_of(limit) / FREE_PART
}

#[cfg(test)]
mod tests {
    use super::*;
    use symex_smt::WORK_PER_SECOND;

    #[test]
    fn without_a_time_limit_only_failed_attempt_checks_count() {
        let mut payoff = Payoff::new(None);
        payoff.unpaid_work = u64::MAX / 2;
        assert!(payoff.may_work(0));
        assert_eq!(payoff.share_end(0), None);
        assert!(payoff.may_attempt(0, 0));
        payoff.charge_failed_attempt(FREE_ATTEMPT_CHECKS + 1, 0, 0);
        assert!(!payoff.may_attempt(FREE_ATTEMPT_CHECKS + 1, 0));
        // Once the search has spent as many checks of its own, attempts are affordable again.
        assert!(payoff.may_attempt(2 * (FREE_ATTEMPT_CHECKS + 1), 0));
    }

    #[test]
    fn under_a_time_limit_unpaid_work_waits_for_the_search() {
        let payoff = Payoff::new(Some(Instant::now() + Duration::from_secs(10)));
        let free = payoff.free_work.expect("timed");
        // About a tenth of the limit is free from the start (the limit was read a moment late).
        assert!(free <= WORK_PER_SECOND && free > WORK_PER_SECOND * 9 / 10);
        let mut payoff = Payoff {
            free_work: Some(1_000),
            ..Payoff::default()
        };
        assert!(payoff.may_work(0));
        assert_eq!(payoff.share_end(0), Some(1_000));
        // Unpaid work past the free part stops more of it...
        payoff.charge(0, 1_000);
        assert!(!payoff.may_work(1_000));
        assert!(!payoff.may_attempt(0, 1_000));
        assert_eq!(payoff.share_end(1_000), Some(1_000));
        // ...until the search has worked on: a quarter of its own work is the share.
        assert!(payoff.may_work(1_500));
        assert_eq!(payoff.share_end(1_500), Some(1_625));
        assert!(payoff.may_attempt(0, 1_500));
    }

    #[test]
    fn under_a_time_limit_failed_attempts_stop_unless_attempts_prove() {
        let timed = || Payoff {
            free_work: Some(u64::MAX / 4),
            ..Payoff::default()
        };
        let fail = |payoff: &mut Payoff, times: u32| {
            for _ in 0..times {
                assert!(payoff.may_attempt(0, 0));
                payoff.charge_failed_attempt(1, 0, 0);
            }
        };
        let mut payoff = timed();
        // An attempt that asked the solver nothing (it read no annotation) costs nothing.
        payoff.charge_failed_attempt(0, 0, 0);
        fail(&mut payoff, FREE_FAILED_ATTEMPTS);
        assert!(!payoff.may_attempt(0, 0));
        // A proof buys more failures.
        let mut payoff = timed();
        fail(&mut payoff, FREE_FAILED_ATTEMPTS - 1);
        payoff.proved();
        fail(&mut payoff, FAILED_ATTEMPTS_PER_PROOF + 1);
        assert!(!payoff.may_attempt(0, 0));
        // Without a time limit failures count only in solver checks.
        let mut untimed = Payoff::new(None);
        fail(&mut untimed, 2 * FREE_FAILED_ATTEMPTS);
        assert!(untimed.may_attempt(0, 0));
    }
}
