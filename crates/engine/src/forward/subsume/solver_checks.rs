//! Which coverage checks may ask the solver, under a time limit: once [`FREE_FRUITLESS`]
//! checks have asked it and covered nothing (plus [`FRUITLESS_PER_COVER`] for each that asked
//! and covered), a check is answered only from what the query layer keeps (its caches and
//! models), except at ever sparser checks (the gaps between them double), and at loop headers
//! that got an invariant, whose checks are what the proof is for.
//!
//! Why: the payoff cap (`payoff.rs`) bounds the solver work that pays nothing to a share of
//! the search's, but it lets all of that share go to checks that cover nothing. On the 3-deep
//! `gen_6` of the generated sets with errors (`--search klee`, default seed), the fourth
//! violation comes at the same selection with and without `--subsume`, at 1.5-1.7 s without
//! and 3.1-3.3 s with it and no such account; with one per location, 32 checks still asked the
//! solver (0.74 s) and none covered; with this one, 18 (0.21 s), and the violation came at
//! 2.1 s in one run and after 3 s in another (docs/path-subsumption.md, "Bounds and costs"). The checks that covered there were
//! answered without the solver, and still are.
//!
//! A check that is not asked answers "not covered" and the state runs on: skipping one hides
//! nothing, the search only prunes less. Counts, not time, decide, so the same program,
//! options and seed ask the same checks. Without a time limit every check may ask (what a
//! proof needs most is every pruning, and time is no concern then).
//!
//! Nothing here asks the solver or decides what is covered.

use rustc_hash::FxHashSet;

use super::Location;

/// Coverage checks that may ask the solver and cover nothing before later ones are spread
/// out.
const FREE_FRUITLESS: u32 = 8;

/// More such checks allowed for each check that asked the solver and covered its state.
const FRUITLESS_PER_COVER: u32 = 8;

/// The widest gap between two checks that may ask, as a power of two.
const MAX_GAP_LOG: u32 = 16;

#[derive(Default)]
pub struct SolverChecks {
    /// Whether the search runs under a time limit (else every check may ask).
    limited: bool,
    /// Checks that asked the solver and covered nothing.
    fruitless: u32,
    /// Checks that asked the solver and covered their state.
    covering: u32,
    /// Checks so far that came to the solver's question (a kept model did not answer it).
    checks: u64,
    /// The check from which one may ask again, once the free ones are spent.
    next_asking: u64,
    /// Loop headers that got an invariant: their checks always may ask.
    invariant_headers: FxHashSet<Location>,
}

impl SolverChecks {
    pub fn new(limited: bool) -> SolverChecks {
        SolverChecks {
            limited,
            ..SolverChecks::default()
        }
    }

    /// Counts a check at `location` that came to the solver's question; whether the solver
    /// may be asked (else only what the query layer keeps answers it).
    pub fn may_ask(&mut self, location: Location) -> bool {
        self.checks += 1;
        // The counts first: the set is looked up only once the free checks are spent.
        !self.limited
            || self.fruitless < self.allowance()
            || self.checks >= self.next_asking
            || self.invariant_headers.contains(&location)
    }

    fn allowance(&self) -> u32 {
        FREE_FRUITLESS.saturating_add(FRUITLESS_PER_COVER.saturating_mul(self.covering))
    }

    /// A check that may have asked the solver ended: it asked (or the query layer answered
    /// it), and it covered the state or not.
    pub fn checked(&mut self, asked_solver: bool, covered: bool) {
        if !asked_solver {
            return;
        }
        if covered {
            self.covering += 1;
        } else {
            self.fruitless += 1;
            if let Some(over) = self.fruitless.checked_sub(self.allowance()) {
                self.next_asking = self.checks + (1 << over.min(MAX_GAP_LOG));
            }
        }
    }

    /// The annotation at `location` became an invariant: its checks always may ask.
    pub fn invariant_at(&mut self, location: Location) {
        self.invariant_headers.insert(location);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use symex_ir::cfg::{BlockId, FuncId};

    const JOIN: Location = (0, FuncId(0), BlockId(1));
    const HEADER: Location = (0, FuncId(0), BlockId(2));
    const FRUITLESS: bool = false;
    const COVERING: bool = true;

    /// Which of `count` more checks at `location` may ask the solver; each that may asks, and
    /// covers or not.
    fn asking(checks: &mut SolverChecks, location: Location, count: u64, covers: bool) -> Vec<u64> {
        (1..=count)
            .filter(|_| {
                let ask = checks.may_ask(location);
                if ask {
                    checks.checked(true, covers);
                }
                ask
            })
            .collect()
    }

    #[test]
    fn fruitless_checks_are_spread_out() {
        let free = u64::from(FREE_FRUITLESS);
        let mut checks = SolverChecks::new(true);
        // The free checks, one more, then gaps of 2, 4, 8, 16, ...
        let asked = asking(&mut checks, JOIN, free + 32, FRUITLESS);
        let expected: Vec<u64> = (1..=free + 1)
            .chain([free + 3, free + 7, free + 15, free + 31])
            .collect();
        assert_eq!(asked, expected);
    }

    #[test]
    fn checks_that_cover_earn_more_and_invariant_headers_always_ask() {
        let free = u64::from(FREE_FRUITLESS);
        let per_cover = u64::from(FRUITLESS_PER_COVER);
        let mut checks = SolverChecks::new(true);
        assert_eq!(asking(&mut checks, JOIN, 1, COVERING), vec![1]);
        // The free checks and those the covering one earned, then one more.
        let asked = asking(&mut checks, JOIN, free + per_cover + 1, FRUITLESS);
        assert_eq!(asked.len() as u64, free + per_cover + 1);
        // Spent: the next check may not ask, but one at a proved header may.
        assert!(!checks.may_ask(JOIN));
        checks.invariant_at(HEADER);
        assert_eq!(asking(&mut checks, HEADER, 5, FRUITLESS).len(), 5);
    }

    #[test]
    fn only_fruitless_solver_checks_under_a_time_limit_count() {
        let mut unlimited = SolverChecks::new(false);
        assert_eq!(asking(&mut unlimited, JOIN, 40, FRUITLESS).len(), 40);
        // Checks that the query layer answered without the solver open no gap.
        let mut checks = SolverChecks::new(true);
        for _ in 0..40 {
            assert!(checks.may_ask(JOIN));
            checks.checked(false, FRUITLESS);
        }
    }
}
