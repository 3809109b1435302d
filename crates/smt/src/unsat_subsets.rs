//! Unsatisfiable sets answering their supersets (the `unsat` half of KLEE's counterexample
//! cache): once `c1 ∧ … ∧ cn` was found unsatisfiable, every question whose constraints and
//! query include all of `c1 … cn` is unsatisfiable too, whatever else it adds.
//!
//! The query layer keeps the set of every check the solver answered `unsat`: the constraints
//! on the solver's stack and the query. That set is unsatisfiable on its own, whatever the
//! rest of the path condition (the sets independence cuts down are not: they answer the same
//! only while the path condition is satisfiable). A kept set recurs inside the larger
//! questions of later paths (a branch infeasible for a reason that later constraints do not
//! change). Only `unsat` is answered here; a miss says nothing. Nothing here talks to a solver.
//!
//! A lookup costs one hash probe per term of the question plus a merge-walk of each kept set
//! whose largest term the question holds: sets are indexed by their largest term, which every
//! superset must contain. The largest is the newest term (ids count up), the one that tells a
//! set from its neighbours: a loop's path keeps a set per iteration (`n <= k` against the
//! bounds so far), all with the same oldest constraint, so an index by the smallest term put
//! them in one bucket that every lookup walked (a quarter of the time of 16,000 iterations).

use rustc_hash::FxHashMap;

use crate::term::TermId;

/// Kept sets beyond this many are forgotten at once (a bound on memory, not a policy).
const MAX_SETS: usize = 1 << 16;

/// The kept unsatisfiable sets, each sorted, indexed by its largest term.
#[derive(Debug, Default)]
pub(crate) struct UnsatSets {
    by_largest: FxHashMap<TermId, Vec<Box<[TermId]>>>,
    len: usize,
}

impl UnsatSets {
    /// Keeps `set` (sorted, without duplicates), whose conjunction is unsatisfiable; a set that
    /// a kept one already answers adds nothing.
    pub(crate) fn remember(&mut self, set: &[TermId]) {
        debug_assert!(set.windows(2).all(|w| w[0] < w[1]), "sorted and distinct");
        let Some(&largest) = set.last() else {
            return;
        };
        if self.answers(set) {
            return;
        }
        if self.len >= MAX_SETS {
            self.by_largest.clear();
            self.len = 0;
        }
        self.by_largest.entry(largest).or_default().push(set.into());
        self.len += 1;
    }

    /// Whether no set is kept (every lookup misses).
    pub(crate) fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether a kept set is part of `question` (sorted, without duplicates), which is then
    /// unsatisfiable.
    pub(crate) fn answers(&self, question: &[TermId]) -> bool {
        question.iter().enumerate().any(|(at, term)| {
            self.by_largest.get(term).is_some_and(|sets| {
                sets.iter()
                    .any(|set| is_sorted_subset(&set[..set.len() - 1], &question[..at]))
            })
        })
    }
}

/// Whether every term of `small` is in `large` (both sorted, without duplicates).
fn is_sorted_subset(small: &[TermId], large: &[TermId]) -> bool {
    if small.len() > large.len() {
        return false;
    }
    let mut rest = large.iter();
    small
        .iter()
        .all(|term| rest.by_ref().any(|candidate| candidate == term))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::term::TermStore;

    /// Twelve distinct terms in increasing order; `ids(&[i, j])` picks some of them.
    fn terms() -> impl Fn(&[usize]) -> Vec<TermId> {
        let mut store = TermStore::new();
        let mut all: Vec<TermId> = (0..12)
            .map(|i| store.bool_var(format!("b{i}")).expect("var"))
            .collect();
        all.sort_unstable();
        move |picked: &[usize]| picked.iter().map(|&i| all[i]).collect()
    }

    #[test]
    fn a_kept_set_answers_its_supersets_only() {
        let ids = terms();
        let mut sets = UnsatSets::default();
        sets.remember(&ids(&[3, 7]));
        assert!(sets.answers(&ids(&[3, 7])));
        assert!(sets.answers(&ids(&[1, 3, 5, 7, 9])));
        assert!(!sets.answers(&ids(&[3, 5])));
        assert!(!sets.answers(&ids(&[1, 7, 9])));
        assert!(!sets.answers(&[]));
    }

    #[test]
    fn sets_with_the_same_largest_term_are_all_tried() {
        let ids = terms();
        let mut sets = UnsatSets::default();
        sets.remember(&ids(&[2, 8]));
        sets.remember(&ids(&[4, 6, 8]));
        assert!(sets.answers(&ids(&[3, 4, 5, 6, 8])));
        assert!(sets.answers(&ids(&[0, 2, 8])));
        assert!(!sets.answers(&ids(&[4, 6, 9])));
        assert!(!sets.answers(&ids(&[3, 4, 8])));
        // A superset of a kept set adds nothing.
        sets.remember(&ids(&[1, 4, 6, 8]));
        assert_eq!(sets.len, 2);
    }

    #[test]
    fn subsets_of_sorted_slices() {
        let ids = terms();
        assert!(is_sorted_subset(&[], &ids(&[1])));
        assert!(is_sorted_subset(&ids(&[2, 5]), &ids(&[1, 2, 3, 5])));
        assert!(!is_sorted_subset(&ids(&[2, 4]), &ids(&[1, 2, 3, 5])));
        assert!(!is_sorted_subset(&ids(&[6]), &ids(&[1, 2, 3, 5])));
    }
}
