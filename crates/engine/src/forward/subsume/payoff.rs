//! The payoff cap of path subsumption: what its own work has cost the search, and whether it
//! may go on. Its own work is every coverage check that pruned nothing, every walk that carried
//! a path's annotation back, and every invariant attempt that proved nothing; a pruning or an
//! invariant pays for itself.
//!
//! Two accounts, both needed:
//! * **Solver checks**, always: the checks of failed attempts may not exceed the search's own
//!   by more than [`FREE_ATTEMPT_CHECKS`]. Counted, not timed, so that without a time limit a
//!   report does not depend on the machine's speed.
//! * **Time**, only under a time limit (a report then depends on the machine's speed anyway,
//!   and time is what the search must not lose): the unpaid work may take at most as long as
//!   everything else the search did, plus a tenth of the limit ([`FREE_PART`]: a proof that
//!   needs a slow first attempt is made before the search has run long). Past that, no
//!   coverage check, parking or attempt until the search has caught up (walks go on: one
//!   skipped would be missing from the annotations for good); a piece of work that starts within its
//!   share starts no solver check past the share's end (a check under way runs to its end:
//!   docs/path-subsumption.md, "Bounds and costs"). So a violation that the search without
//!   `--subsume` finds at time `t` is not pushed far past `2t` by subsumption's own work (one
//!   check of a loop body's products of inputs can take 0.5 s of a 3-s run).
//!
//! Nothing here asks the solver or decides what is covered.

use std::time::{Duration, Instant};

/// Solver checks that invariant attempts which proved nothing may spend before they must be
/// paid for by as many checks of the search itself.
const FREE_ATTEMPT_CHECKS: u64 = 200;

/// The part of the time limit the unpaid work may take beyond the rest of the search's.
const FREE_PART: u32 = 10;

#[derive(Default)]
pub struct Payoff {
    /// When the search started, if it runs under a time limit (else the time account is off).
    started: Option<Instant>,
    /// The time the unpaid work may take beyond the rest of the search's: a tenth of the limit.
    free_time: Duration,
    /// Time spent on work that paid nothing.
    unpaid: Duration,
    /// Solver checks spent by invariant attempts that proved nothing.
    failed_attempt_checks: u64,
}

impl Payoff {
    pub fn new(deadline: Option<Instant>) -> Payoff {
        let started = Instant::now();
        Payoff {
            started: deadline.map(|_| started),
            free_time: deadline.map_or(Duration::ZERO, |d| d.saturating_duration_since(started))
                / FREE_PART,
            ..Payoff::default()
        }
    }

    /// How long the unpaid work may still take (`None`: no time limit).
    fn share_left(&self) -> Option<Duration> {
        let started = self.started?;
        let rest = started.elapsed().saturating_sub(self.unpaid);
        Some((rest + self.free_time).saturating_sub(self.unpaid))
    }

    /// Whether a coverage check or a walk may run now.
    pub fn may_work(&self) -> bool {
        self.share_left().is_none_or(|left| !left.is_zero())
    }

    /// Whether a state may be parked for an invariant attempt and an attempt may start, with
    /// `solver_checks` spent by the whole search so far.
    pub fn may_attempt(&self, solver_checks: u64) -> bool {
        let search = solver_checks.saturating_sub(self.failed_attempt_checks);
        self.failed_attempt_checks <= search + FREE_ATTEMPT_CHECKS && self.may_work()
    }

    /// When a piece of work starting now must stop starting solver checks (`None`: no time
    /// limit).
    pub fn share_deadline(&self) -> Option<Instant> {
        self.share_left().map(|left| Instant::now() + left)
    }

    /// Work that began at `since` paid nothing.
    pub fn charge(&mut self, since: Instant) {
        self.unpaid += since.elapsed();
    }

    /// An invariant attempt that began at `since` and spent `checks` solver checks proved
    /// nothing.
    pub fn charge_failed_attempt(&mut self, checks: u64, since: Instant) {
        self.failed_attempt_checks += checks;
        self.charge(since);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn without_a_time_limit_only_failed_attempt_checks_count() {
        let mut payoff = Payoff::new(None);
        payoff.unpaid = Duration::from_secs(3600);
        assert!(payoff.may_work());
        assert_eq!(payoff.share_deadline(), None);
        assert!(payoff.may_attempt(0));
        payoff.charge_failed_attempt(FREE_ATTEMPT_CHECKS + 1, Instant::now());
        assert!(!payoff.may_attempt(FREE_ATTEMPT_CHECKS + 1));
        // Once the search has spent as many checks of its own, attempts are affordable again.
        assert!(payoff.may_attempt(2 * (FREE_ATTEMPT_CHECKS + 1)));
    }

    #[test]
    fn under_a_time_limit_unpaid_work_waits_for_the_search() {
        let mut payoff = Payoff::new(Some(Instant::now() + Duration::from_secs(10)));
        assert!(payoff.may_work());
        // A tenth of the limit is free from the start.
        let share = payoff.share_left().expect("timed");
        assert!(share >= Duration::from_secs(1));
        // Unpaid work longer than the search's own time and the free time stops more of it.
        payoff.unpaid = Duration::from_secs(3600);
        assert!(!payoff.may_work());
        assert!(!payoff.may_attempt(0));
        assert!(payoff.share_deadline().is_some_and(|d| d <= Instant::now()));
    }
}
