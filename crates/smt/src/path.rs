//! A path condition as engines keep it: a persistent sequence of Boolean constraints, each
//! numbered when it is added.
//!
//! Forking a state copies its path condition, and a path may hold a hundred thousand
//! constraints (a loop over a large array that branches on every element): the sequence
//! shares its entries between copies, so a copy and an added constraint cost a constant, not
//! the length of the path. The numbers let the query layer recognize a path it has answered
//! before without comparing constraints: a number is drawn once per added constraint in the
//! whole process and so names exactly one prefix of one path (copies share it, and nothing
//! else ever has it).
//!
//! The path also keeps what its constraints imply about single terms ([`Implied`]: the
//! numbers they fix), learned where a constraint is added with [`PathCondition::constrain`].
//! One copy per path, not one per constraint: kept per constraint, the persistent maps' path
//! copies would cost kilobytes per added bound on a path of a hundred thousand. So a path
//! that loses constraints (`pop`, `prefix`) forgets it all: it knows less, never more than
//! its constraints imply. Nothing here asks a solver.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use crate::build::TermResult;
use crate::error::TermError;
use crate::implied::Implied;
use crate::term::{TermId, TermStore};

/// The next number an added constraint gets (0 is the empty prefix's).
static NEXT_NUMBER: AtomicU64 = AtomicU64::new(1);

/// A conjunction of Boolean terms in the order they were added. See the module documentation.
#[derive(Clone, Debug, Default)]
pub struct PathCondition {
    entries: imbl::Vector<Entry>,
    /// What the constraints imply (learned from those added by `constrain`; `None`: nothing).
    implied: Option<Arc<Implied>>,
}

#[derive(Clone, Copy, Debug)]
struct Entry {
    term: TermId,
    /// Names the prefix that ends with this entry.
    number: u64,
}

impl PathCondition {
    /// The empty path condition (true).
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds `term` at the end, without learning from it (what is known stays known).
    pub fn push(&mut self, term: TermId) {
        let number = NEXT_NUMBER.fetch_add(1, Ordering::Relaxed);
        self.entries.push_back(Entry { term, number });
    }

    /// Adds `term` at the end and learns what it implies with what the path implied before:
    /// returns the terms it fixed, each with its number (a constant term).
    pub fn constrain(
        &mut self,
        store: &mut TermStore,
        term: TermId,
    ) -> Result<Vec<(TermId, TermId)>, TermError> {
        self.push(term);
        let empty = Implied::default();
        let before = self.implied.as_deref().unwrap_or(&empty);
        Ok(match before.learn(store, term)? {
            Some(learned) => {
                self.implied = Some(Arc::new(learned.implied));
                learned.fixed
            }
            None => Vec::new(),
        })
    }

    /// `t` with the terms the path fixes replaced by their numbers (simplified); `t` itself
    /// where the path fixes none.
    pub fn rewrite(&self, store: &mut TermStore, t: TermId) -> TermResult {
        match self.implied.as_deref() {
            Some(implied) => implied.rewrite(store, t),
            None => Ok(t),
        }
    }

    /// Removes the last constraint (and forgets what the path implied).
    pub fn pop(&mut self) -> Option<TermId> {
        self.implied = None;
        self.entries.pop_back().map(|e| e.term)
    }

    /// The number of constraints.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether there is no constraint.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The constraint at `index`.
    pub fn get(&self, index: usize) -> Option<TermId> {
        self.entries.get(index).map(|e| e.term)
    }

    /// The constraints in order.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = TermId> + '_ {
        self.entries.iter().map(|e| e.term)
    }

    /// The constraints as a vector (a copy: linear in the length).
    pub fn to_vec(&self) -> Vec<TermId> {
        self.iter().collect()
    }

    /// The path condition of the first `len` constraints (shares their numbers; knows what
    /// `self` implies only if that is all of them).
    pub fn prefix(&self, len: usize) -> PathCondition {
        PathCondition {
            entries: self.entries.take(len.min(self.len())),
            implied: (len >= self.len()).then(|| self.implied.clone()).flatten(),
        }
    }

    /// The constraints from position `from` on.
    pub fn after(&self, from: usize) -> Vec<TermId> {
        let from = from.min(self.len());
        let rest = self.entries.clone().split_off(from);
        rest.iter().map(|e| e.term).collect()
    }

    /// The length of the longest prefix `self` and `other` share (equal constraints in the
    /// same order): where their numbers say so without a look at the constraints (a prefix
    /// they got from a common ancestor), then constraint by constraint.
    pub fn shared_prefix_len(&self, other: &PathCondition) -> usize {
        let shortest = self.len().min(other.len());
        // Equal numbers at a length mean equal numbers at every shorter one: the longest
        // prefix both inherited is found by bisection.
        let (mut inherited, mut past) = (0, shortest + 1);
        while past - inherited > 1 {
            let mid = inherited + (past - inherited) / 2;
            if self.number_of_prefix(mid) == other.number_of_prefix(mid) {
                inherited = mid;
            } else {
                past = mid;
            }
        }
        let after = (self.entries.clone().split_off(inherited).into_iter())
            .zip(other.entries.clone().split_off(inherited))
            .take_while(|(a, b)| a.term == b.term)
            .count();
        inherited + after
    }

    /// Whether `prefix` is a prefix of `self` that `self` got from it (a copy of it, extended),
    /// told by numbers alone.
    pub fn extends(&self, prefix: &PathCondition) -> bool {
        let len = prefix.len();
        len <= self.len() && self.number_of_prefix(len) == prefix.number_of_prefix(len)
    }

    /// The number naming the prefix of the first `len` constraints (0 for the empty one).
    /// Equal numbers mean equal prefixes.
    pub(crate) fn number_of_prefix(&self, len: usize) -> u64 {
        match len.checked_sub(1).and_then(|i| self.entries.get(i)) {
            Some(e) => e.number,
            None => 0,
        }
    }
}

impl PartialEq for PathCondition {
    /// Equal constraints in the same order, whatever their numbers.
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl Eq for PathCondition {}

impl Extend<TermId> for PathCondition {
    fn extend<I: IntoIterator<Item = TermId>>(&mut self, terms: I) {
        for t in terms {
            self.push(t);
        }
    }
}

impl FromIterator<TermId> for PathCondition {
    fn from_iter<I: IntoIterator<Item = TermId>>(terms: I) -> Self {
        let mut pc = PathCondition::new();
        pc.extend(terms);
        pc
    }
}

impl From<Vec<TermId>> for PathCondition {
    fn from(terms: Vec<TermId>) -> Self {
        terms.into_iter().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::term::TermStore;

    #[test]
    fn copies_share_their_prefix_numbers_and_diverge_after_it() {
        let mut s = TermStore::new();
        let x = s.bool_var("x").expect("var");
        let y = s.bool_var("y").expect("var");
        let mut a = PathCondition::new();
        a.push(x);
        let mut b = a.clone();
        a.push(y);
        b.push(y);
        assert_eq!(a, b);
        assert_eq!(a.number_of_prefix(1), b.number_of_prefix(1));
        // The same constraint added twice is two different prefixes.
        assert_ne!(a.number_of_prefix(2), b.number_of_prefix(2));
        assert_eq!(a.number_of_prefix(0), 0);
        assert_eq!(a.prefix(1).number_of_prefix(1), a.number_of_prefix(1));
        assert_eq!(a.to_vec(), vec![x, y]);
        // Paths built apart share what their constraints share.
        let c: PathCondition = vec![x, x, y].into();
        assert_eq!((a.shared_prefix_len(&c), c.shared_prefix_len(&a)), (1, 1));
        let mut d = a.clone();
        d.push(x);
        assert_eq!((a.shared_prefix_len(&d), d.shared_prefix_len(&a)), (2, 2));
        assert_eq!(PathCondition::new().shared_prefix_len(&d), 0);
        assert_eq!(a.shared_prefix_len(&b), 2);
        assert_eq!(a.after(1), vec![y]);
        assert!(d.extends(&a) && a.extends(&a.prefix(1)) && a.extends(&PathCondition::new()));
        assert!(!a.extends(&b) && !a.extends(&d) && !c.extends(&a.prefix(1)));
        assert_eq!(b.pop(), Some(y));
        assert_eq!(b.len(), 1);
    }

    #[test]
    fn a_path_forgets_what_it_implied_when_it_loses_a_constraint() {
        let mut s = TermStore::new();
        let x = s.bv_var("x", 32).expect("var");
        let y = s.bv_var("y", 32).expect("var");
        let five = s.bv_val(32, 5).expect("c");
        let is_five = s.eq(x, five).expect("eq");
        let sum = s.bv_add(x, y).expect("add");
        let mut pc = PathCondition::new();
        pc.push(is_five);
        assert_eq!(
            pc.rewrite(&mut s, sum).expect("rewrite"),
            sum,
            "push learns nothing"
        );
        let mut pc = PathCondition::new();
        assert_eq!(
            pc.constrain(&mut s, is_five).expect("learn"),
            vec![(x, five)]
        );
        let b = s.bool_var("b").expect("var");
        pc.push(b);
        let plus_five = s.bv_add(five, y).expect("add");
        assert_eq!(pc.rewrite(&mut s, sum).expect("rewrite"), plus_five);
        assert_eq!(
            pc.prefix(2).rewrite(&mut s, sum).expect("rewrite"),
            plus_five
        );
        assert_eq!(pc.prefix(1).rewrite(&mut s, sum).expect("rewrite"), sum);
        pc.pop();
        assert_eq!(pc.rewrite(&mut s, sum).expect("rewrite"), sum);
    }
}
