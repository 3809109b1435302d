//! Annotations in disjunctive normal form: a location's annotation is a set of disjuncts, each a
//! sorted set of atoms.
//!
//! Why: a pruned path carries its pruner's whole annotation back and records it, changed, at the
//! locations it passed; kept as nested terms, each such record holds a substituted copy of the
//! annotation it came from, so the annotation doubles with every pruning (a 16-path loop reached
//! millions of term nodes). As sets, the copies that say the same thing are one disjunct, a
//! disjunct that implies another (a superset of its atoms) is dropped, and the annotation grows
//! with what the paths say, not with how often they said it.
//!
//! Nothing here decides what an annotation means: every step is an equivalence, except
//! [`Disjuncts::add`]'s cap, which drops disjuncts (an annotation that covers fewer states, never
//! a wrong one).

use symex_smt::{Node, Op, TermId, TermStore};

use crate::error::EngineError;
use crate::forward::subsume::induction::flatten;

type Result<T> = std::result::Result<T, EngineError>;

/// At most this many conjunctions are built when a term is multiplied out; beyond, the term
/// stays one opaque atom (invariants of many two-atom clauses would otherwise grow
/// exponentially).
const EXPANSION_BUDGET: usize = 4096;

/// At most this many disjuncts per location: a path's further ones are not recorded.
pub const MAX_DISJUNCTS: usize = 512;

/// An annotation as disjuncts of atoms.
#[derive(Default)]
pub struct Disjuncts(Vec<Vec<TermId>>);

impl Disjuncts {
    /// The disjuncts of `t`, multiplied out within [`EXPANSION_BUDGET`].
    pub fn of(store: &TermStore, t: TermId) -> Disjuncts {
        let mut budget = EXPANSION_BUDGET;
        let disjuncts = expand(store, t, &mut budget).unwrap_or_else(|| vec![vec![t]]);
        let mut normal = Disjuncts::default();
        for d in disjuncts {
            normal.insert(store, d);
        }
        normal
    }

    /// Adds every disjunct of `other` this set does not imply already; `false` when nothing
    /// changed.
    pub fn add(&mut self, store: &TermStore, other: Disjuncts) -> bool {
        let mut grew = false;
        for d in other.0 {
            if self.0.len() >= MAX_DISJUNCTS {
                break;
            }
            grew |= self.insert(store, d);
        }
        grew
    }

    /// The disjunction as a term: atoms in sorted order, disjuncts in insertion order, so equal
    /// sets built alike give the same term.
    pub fn term(&self, store: &mut TermStore) -> Result<TermId> {
        self.disjunction_where(store, |_, _| Ok(true))
    }

    /// The disjunction of the disjuncts (each as a conjunction term) that `keep` accepts.
    pub fn disjunction_where(
        &self,
        store: &mut TermStore,
        mut keep: impl FnMut(&mut TermStore, TermId) -> Result<bool>,
    ) -> Result<TermId> {
        let mut disjunction = store.bool_val(false)?;
        for d in &self.0 {
            let conjunction = store.and_all(d)?;
            if keep(store, conjunction)? {
                disjunction = store.or(disjunction, conjunction)?;
            }
        }
        Ok(disjunction)
    }

    /// Inserts one conjunction of atoms unless a disjunct already implied by it is there; drops
    /// the disjuncts it is implied by. `false` when nothing changed.
    fn insert(&mut self, store: &TermStore, mut atoms: Vec<TermId>) -> bool {
        atoms.sort_unstable();
        atoms.dedup();
        if contradictory(store, &atoms) {
            return false;
        }
        if self.0.iter().any(|d| is_subset(d, &atoms)) {
            return false;
        }
        self.0.retain(|d| !is_subset(&atoms, d));
        self.0.push(atoms);
        true
    }
}

/// Multiplies `t` out into conjunctions of atoms; `None` when that would build more than
/// `budget` conjunctions. `true` is one empty conjunction, `false` none.
fn expand(store: &TermStore, t: TermId, budget: &mut usize) -> Option<Vec<Vec<TermId>>> {
    match *store.node(t) {
        Node::Bool(true) => Some(vec![Vec::new()]),
        Node::Bool(false) => Some(Vec::new()),
        Node::App2(Op::Or, _, _) => {
            let mut parts = Vec::new();
            flatten(store, t, Op::Or, &mut parts);
            let mut all = Vec::new();
            for part in parts {
                all.extend(expand(store, part, budget)?);
            }
            Some(all)
        }
        Node::App2(Op::And, _, _) => {
            let mut parts = Vec::new();
            flatten(store, t, Op::And, &mut parts);
            let mut product = vec![Vec::new()];
            for part in parts {
                let factor = expand(store, part, budget)?;
                *budget = budget.checked_sub(product.len() * factor.len())?;
                let mut next = Vec::with_capacity(product.len() * factor.len());
                for left in &product {
                    for right in &factor {
                        let mut conjunction = Vec::with_capacity(left.len() + right.len());
                        conjunction.extend_from_slice(left);
                        conjunction.extend_from_slice(right);
                        next.push(conjunction);
                    }
                }
                product = next;
            }
            Some(product)
        }
        _ => Some(vec![vec![t]]),
    }
}

/// Whether sorted `small` is contained in sorted `large`.
fn is_subset(small: &[TermId], large: &[TermId]) -> bool {
    let mut rest = large.iter();
    small.iter().all(|a| rest.any(|b| b == a))
}

/// Whether the atoms hold `false`, or some atom and its negation.
fn contradictory(store: &TermStore, atoms: &[TermId]) -> bool {
    atoms.iter().any(|&a| match *store.node(a) {
        Node::Bool(false) => true,
        Node::App1(Op::Not, inner) => atoms.binary_search(&inner).is_ok(),
        _ => false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn atoms(store: &mut TermStore) -> [TermId; 3] {
        let [a, b, c] = ["a", "b", "c"].map(|n| store.bool_var(n).unwrap());
        [a, b, c]
    }

    #[test]
    fn conjunctions_of_disjunctions_are_multiplied_out() {
        let mut store = TermStore::new();
        let [a, b, c] = atoms(&mut store);
        let b_or_c = store.or(b, c).unwrap();
        let t = store.and(a, b_or_c).unwrap();
        let normal = Disjuncts::of(&store, t);
        assert_eq!(normal.0.len(), 2);
        assert!(normal.0.iter().all(|d| d.len() == 2 && d.contains(&a)));
    }

    #[test]
    fn a_disjunct_implied_by_another_is_dropped() {
        let mut store = TermStore::new();
        let [a, b, _] = atoms(&mut store);
        let ab = store.and(a, b).unwrap();
        let mut normal = Disjuncts::of(&store, ab);
        assert!(normal.add(&store, Disjuncts::of(&store, a)));
        assert_eq!(normal.0, vec![vec![a]]);
        // `a ∧ b` again adds nothing: `a` covers it.
        assert!(!normal.add(&store, Disjuncts::of(&store, ab)));
    }

    #[test]
    fn contradictions_and_false_vanish() {
        let mut store = TermStore::new();
        let [a, _, _] = atoms(&mut store);
        let not_a = store.not(a).unwrap();
        let t = store.and(a, not_a).unwrap();
        assert!(Disjuncts::of(&store, t).0.is_empty());
        let no = store.bool_val(false).unwrap();
        let mut normal = Disjuncts::of(&store, no);
        assert!(normal.0.is_empty());
        let yes = store.bool_val(true).unwrap();
        normal.add(&store, Disjuncts::of(&store, yes));
        let term = normal.term(&mut store).unwrap();
        assert_eq!(store.as_bool(term), Some(true));
    }

    #[test]
    fn the_expansion_budget_keeps_a_term_whole() {
        let mut store = TermStore::new();
        // (x0 ∨ y0) ∧ (x1 ∨ y1) ∧ … has 2^n disjuncts.
        let mut t = store.bool_val(true).unwrap();
        for i in 0..16 {
            let x = store.bool_var(format!("x{i}")).unwrap();
            let y = store.bool_var(format!("y{i}")).unwrap();
            let clause = store.or(x, y).unwrap();
            t = store.and(t, clause).unwrap();
        }
        let normal = Disjuncts::of(&store, t);
        assert_eq!(normal.0, vec![vec![t]]);
    }
}
