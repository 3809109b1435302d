//! What a path condition implies about single terms: the numbers it fixes them to.
//!
//! KLEE rewrites a branch condition with the equalities of its path (`x = 5` makes `x` 5 in
//! it) before it asks a solver, and gives the program's variables the numbers those
//! equalities fix (implied-value concretization). [`Implied`] is what both need, learned from
//! constraints of three shapes:
//!
//! * an equality with a number, also through an invertible step (`x + 3 = 5` fixes `x + 3`
//!   and `x`; likewise `-x`, `~x`, `x - 3`, `3 - x`, `x ^ 3`);
//! * bounds that leave one number (`0 < x` and `¬(1 < x)` fix `x` to 1; a disequality with an
//!   end of the bounds moves that end);
//! * an equality between two terms, which passes a number fixed on either side to the other.
//!
//! Why bounds and equalities between terms: in a generated program the bounds of a loop that
//! ran once fix its counter, which an equality makes equal to a linear sum, and the next
//! branch asks about a cubic product of that sum. On the path the product is `1·1·0`; Z3
//! substitutes the sum for the counter instead and spent 0.6 to 4.5 s on a 32-bit cubic
//! product (BENCHMARKS.md, "Values the path fixes").
//!
//! A rewritten term has each fixed term replaced by its number and each comparison of a bounded
//! term with a number that the bounds decide (`x < -5` where `0 <= x`) replaced by its truth.
//!
//! Everything learned holds on every assignment that satisfies the constraints it was learned
//! from, so rewriting a term with it changes nothing on the path. Nothing here asks a solver
//! or looks into a term deeper than one invertible step at a time; contradictory facts (bounds
//! that leave no number, a second number for a fixed term) are not used.

use std::sync::Arc;

use imbl::{OrdMap, Vector};

use crate::build::TermResult;
use crate::bv::BvConst;
use crate::error::TermError;
use crate::sort::Sort;
use crate::term::{Node, Op, TermId, TermStore};

/// The numbers, bounds and equalities that a conjunction of constraints implies for
/// bit-vector terms. Cheap to copy (persistent maps). See the module documentation.
#[derive(Clone, Debug, Default)]
pub struct Implied {
    /// Terms fixed to a number: the value is the constant term.
    values: OrdMap<TermId, TermId>,
    /// Bounds of terms compared with numbers (and not fixed yet). Behind a pointer: a path
    /// that adds a bound per step keeps one version of the map per live state, and the
    /// maps' nodes are copied per version (56-byte values inline made `unsat_checks.c` of
    /// `bench/long_paths` take 15 % more memory).
    bounds: OrdMap<TermId, Arc<Bounds>>,
    /// Non-constant terms an equality makes equal, both ways.
    equal: OrdMap<TermId, Vector<TermId>>,
}

/// What [`Implied::learn`] found in a constraint.
#[derive(Debug)]
pub struct Learned {
    /// The knowledge with the constraint's facts added.
    pub implied: Implied,
    /// The terms the constraint fixed, each with its number (a constant term).
    pub fixed: Vec<(TermId, TermId)>,
}

/// Inclusive bounds of a term of `width` bits, read both as signed and as unsigned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Bounds {
    width: u32,
    signed: (i128, i128),
    unsigned: (u128, u128),
}

impl Bounds {
    fn full(width: u32) -> Bounds {
        let max = u128::MAX >> (128 - width);
        let signed_max = (max >> 1) as i128;
        Bounds {
            width,
            signed: (-signed_max - 1, signed_max),
            unsigned: (0, max),
        }
    }

    fn is_empty(&self) -> bool {
        self.signed.0 > self.signed.1 || self.unsigned.0 > self.unsigned.1
    }

    /// The one number the bounds leave, if they leave one.
    fn single(&self) -> Option<BvConst> {
        if self.signed.0 == self.signed.1 {
            BvConst::from_i128(self.width, self.signed.0).ok()
        } else if self.unsigned.0 == self.unsigned.1 {
            BvConst::new(self.width, self.unsigned.0).ok()
        } else {
            None
        }
    }

    /// Moves each end that is `c` one step inwards (the term is not `c`).
    fn exclude(&mut self, c: BvConst) {
        let (s, u) = (c.to_i128(), c.bits());
        if self.signed.0 == s {
            self.signed.0 = s.saturating_add(1);
        } else if self.signed.1 == s {
            self.signed.1 = s.saturating_sub(1);
        }
        if self.unsigned.0 == u {
            self.unsigned.0 = u.saturating_add(1);
        } else if self.unsigned.1 == u {
            self.unsigned.1 = u.saturating_sub(1);
        }
    }
}

/// A bound that a comparison with a number puts on a term.
#[derive(Clone, Copy, Debug)]
enum Limit {
    SignedAtLeast(i128),
    SignedAtMost(i128),
    UnsignedAtLeast(u128),
    UnsignedAtMost(u128),
}

impl Implied {
    /// The number `t` is fixed to, as a constant term.
    pub fn value(&self, t: TermId) -> Option<TermId> {
        self.values.get(&t).copied()
    }

    /// `t` with every fixed term in it replaced by its number and every comparison of a
    /// bounded term with a number that the bounds decide replaced by its truth, simplified;
    /// `t` itself when nothing is known.
    pub fn rewrite(&self, store: &mut TermStore, t: TermId) -> TermResult {
        if self.values.is_empty() && self.bounds.is_empty() {
            return Ok(t);
        }
        // One walk: a term is replaced by its number, or decided by the bounds.
        let truths = [store.bool_val(false)?, store.bool_val(true)?];
        store.replace_where(t, |store, u| {
            (self.value(u)).or_else(|| Some(truths[usize::from(self.decide(store, u)?)]))
        })
    }

    /// The truth of `u` where it compares a bounded term with a number and the bounds decide it.
    fn decide(&self, store: &TermStore, u: TermId) -> Option<bool> {
        let Node::App2(op, a, b) = *store.node(u) else {
            return None;
        };
        let (term, c, term_left) = match (store.as_bv(a), store.as_bv(b)) {
            (None, Some(c)) => (a, c, true),
            (Some(c), None) => (b, c, false),
            _ => return None,
        };
        let bounds = self.bounds.get(&term)?;
        let (signed, unsigned) = (c.to_i128(), c.bits());
        match op {
            Op::Eq => {
                let outside = |(lo, hi): (i128, i128)| signed < lo || signed > hi;
                let outside_unsigned = unsigned < bounds.unsigned.0 || unsigned > bounds.unsigned.1;
                (outside(bounds.signed) || outside_unsigned).then_some(false)
            }
            Op::BvSlt => compare(bounds.signed, signed, true, term_left),
            Op::BvSle => compare(bounds.signed, signed, false, term_left),
            Op::BvUlt => compare(bounds.unsigned, unsigned, true, term_left),
            Op::BvUle => compare(bounds.unsigned, unsigned, false, term_left),
            _ => None,
        }
    }

    /// The knowledge with `constraint`'s facts added, or `None` when it adds none.
    pub fn learn(
        &self,
        store: &mut TermStore,
        constraint: TermId,
    ) -> Result<Option<Learned>, TermError> {
        let mut next = Learning {
            implied: self.clone(),
            fixed: Vec::new(),
            changed: false,
        };
        // (literal, polarity); conjunctions are split without recursion.
        let mut literals = vec![(constraint, true)];
        while let Some((c, positive)) = literals.pop() {
            match (*store.node(c), positive) {
                (Node::App1(Op::Not, a), _) => literals.push((a, !positive)),
                (Node::App2(Op::And, a, b), true) | (Node::App2(Op::Or, a, b), false) => {
                    literals.push((b, positive));
                    literals.push((a, positive));
                }
                (Node::App2(Op::Eq, a, b), true) => next.equality(store, a, b)?,
                (Node::App2(Op::Eq, a, b), false) => next.disequality(store, a, b)?,
                (Node::App2(op, a, b), _) => next.comparison(store, op, a, b, positive)?,
                _ => {}
            }
        }
        Ok(next.changed.then_some(Learned {
            implied: next.implied,
            fixed: next.fixed,
        }))
    }
}

/// [`Implied::learn`] at work.
struct Learning {
    implied: Implied,
    fixed: Vec<(TermId, TermId)>,
    changed: bool,
}

impl Learning {
    fn equality(&mut self, store: &mut TermStore, a: TermId, b: TermId) -> Result<(), TermError> {
        if !matches!(store.sort(a), Sort::BitVec(_)) {
            return Ok(());
        }
        match (store.as_bv(a), store.as_bv(b)) {
            (Some(_), Some(_)) => Ok(()),
            (Some(c), None) => self.fix(store, b, c),
            (None, Some(c)) => self.fix(store, a, c),
            (None, None) => {
                let known = |t| self.implied.value(t).and_then(|v| store.as_bv(v));
                match (known(a), known(b)) {
                    (Some(c), _) => self.fix(store, b, c),
                    (None, Some(c)) => self.fix(store, a, c),
                    (None, None) => {
                        self.link(a, b);
                        self.link(b, a);
                        self.changed = true;
                        Ok(())
                    }
                }
            }
        }
    }

    fn link(&mut self, from: TermId, to: TermId) {
        let mut others = self.implied.equal.get(&from).cloned().unwrap_or_default();
        if !others.contains(&to) {
            others.push_back(to);
            self.implied.equal.insert(from, others);
        }
    }

    fn disequality(
        &mut self,
        store: &mut TermStore,
        a: TermId,
        b: TermId,
    ) -> Result<(), TermError> {
        let (t, c) = match (store.as_bv(a), store.as_bv(b)) {
            (None, Some(c)) => (a, c),
            (Some(c), None) => (b, c),
            _ => return Ok(()),
        };
        let Some(mut bounds) = self.implied.bounds.get(&t).map(|b| **b) else {
            return Ok(());
        };
        bounds.exclude(c);
        self.narrow(store, t, bounds)
    }

    /// `a op b` (or its negation, if not `positive`) where one side is a number.
    fn comparison(
        &mut self,
        store: &mut TermStore,
        op: Op,
        a: TermId,
        b: TermId,
        positive: bool,
    ) -> Result<(), TermError> {
        // ¬(a < b) is b ≤ a and ¬(a ≤ b) is b < a: as (strict, signed, lesser, greater).
        let (strict, signed) = match op {
            Op::BvSlt => (true, true),
            Op::BvSle => (false, true),
            Op::BvUlt => (true, false),
            Op::BvUle => (false, false),
            _ => return Ok(()),
        };
        let (strict, lesser, greater) = if positive {
            (strict, a, b)
        } else {
            (!strict, b, a)
        };
        // term < c or term ≤ c bounds the term from above; c < term or c ≤ term from below.
        let (term, c, from_above) = match (store.as_bv(lesser), store.as_bv(greater)) {
            (None, Some(c)) => (lesser, c, true),
            (Some(c), None) => (greater, c, false),
            _ => return Ok(()),
        };
        let step = u8::from(strict);
        let limit = match (signed, from_above) {
            (true, true) => (c.to_i128().checked_sub(step.into())).map(Limit::SignedAtMost),
            (true, false) => (c.to_i128().checked_add(step.into())).map(Limit::SignedAtLeast),
            (false, true) => (c.bits().checked_sub(step.into())).map(Limit::UnsignedAtMost),
            (false, false) => (c.bits().checked_add(step.into())).map(Limit::UnsignedAtLeast),
        };
        // A limit past the end of the numbers is a contradiction: not used.
        let (Some(limit), Sort::BitVec(width)) = (limit, store.sort(term)) else {
            return Ok(());
        };
        if self.implied.values.contains_key(&term) {
            return Ok(());
        }
        let known = self.implied.bounds.get(&term).map(|b| **b);
        let mut bounds = known.unwrap_or(Bounds::full(width));
        match limit {
            Limit::SignedAtLeast(n) => bounds.signed.0 = bounds.signed.0.max(n),
            Limit::SignedAtMost(n) => bounds.signed.1 = bounds.signed.1.min(n),
            Limit::UnsignedAtLeast(n) => bounds.unsigned.0 = bounds.unsigned.0.max(n),
            Limit::UnsignedAtMost(n) => bounds.unsigned.1 = bounds.unsigned.1.min(n),
        }
        self.narrow(store, term, bounds)
    }

    /// Keeps `bounds` for `t`, and fixes `t` if they leave one number.
    fn narrow(
        &mut self,
        store: &mut TermStore,
        t: TermId,
        bounds: Bounds,
    ) -> Result<(), TermError> {
        if bounds.is_empty() || self.implied.bounds.get(&t).is_some_and(|b| **b == bounds) {
            return Ok(());
        }
        self.changed = true;
        match bounds.single() {
            Some(c) => self.fix(store, t, c),
            None => {
                self.implied.bounds.insert(t, Arc::new(bounds));
                Ok(())
            }
        }
    }

    /// Fixes `t` to `c`, and with it what an invertible step below `t` or an equality makes
    /// follow.
    fn fix(&mut self, store: &mut TermStore, t: TermId, c: BvConst) -> Result<(), TermError> {
        let mut work = vec![(t, c)];
        while let Some((t, c)) = work.pop() {
            if store.sort(t) != Sort::BitVec(c.width()) || self.implied.values.contains_key(&t) {
                continue;
            }
            let number = store.bv_const(c)?;
            self.implied.values.insert(t, number);
            self.implied.bounds.remove(&t);
            self.fixed.push((t, number));
            self.changed = true;
            if let Some(others) = self.implied.equal.get(&t) {
                work.extend(others.iter().map(|&u| (u, c)));
            }
            work.extend(inverse(store, t, c));
        }
        Ok(())
    }
}

/// The truth of `term < c` (`strict`) or `term <= c` where `term_left`, else of `c < term` or
/// `c <= term`, for a term within `(lo, hi)`, where the bounds decide it.
fn compare<N: Ord + Copy>((lo, hi): (N, N), c: N, strict: bool, term_left: bool) -> Option<bool> {
    let (always, never) = match (term_left, strict) {
        (true, true) => (hi < c, lo >= c),
        (true, false) => (hi <= c, lo > c),
        (false, true) => (lo > c, hi <= c),
        (false, false) => (lo >= c, hi < c),
    };
    if always {
        Some(true)
    } else if never {
        Some(false)
    } else {
        None
    }
}

/// The operand of `t` that `t = c` fixes, with its number, where one step inverts exactly.
fn inverse(store: &TermStore, t: TermId, c: BvConst) -> Option<(TermId, BvConst)> {
    let number = |u: TermId| store.as_bv(u);
    match *store.node(t) {
        Node::App1(Op::BvNeg, u) => Some((u, c.bvneg())),
        Node::App1(Op::BvNot, u) => Some((u, c.bvnot())),
        Node::App2(op @ (Op::BvAdd | Op::BvSub | Op::BvXor), a, b) => {
            match (op, number(a), number(b)) {
                (Op::BvAdd, Some(k), None) => Some((b, c.bvsub(k))),
                (Op::BvAdd, None, Some(k)) => Some((a, c.bvsub(k))),
                (Op::BvSub, Some(k), None) => Some((b, k.bvsub(c))),
                (Op::BvSub, None, Some(k)) => Some((a, c.bvadd(k))),
                (Op::BvXor, Some(k), None) => Some((b, c.bvxor(k))),
                (Op::BvXor, None, Some(k)) => Some((a, c.bvxor(k))),
                _ => None,
            }
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn learn(store: &mut TermStore, implied: &Implied, c: TermId) -> Implied {
        match implied.learn(store, c).expect("learn") {
            Some(learned) => learned.implied,
            None => implied.clone(),
        }
    }

    fn value(store: &TermStore, implied: &Implied, t: TermId) -> Option<i128> {
        implied
            .value(t)
            .and_then(|v| store.as_bv(v))
            .map(BvConst::to_i128)
    }

    #[test]
    fn bounds_that_leave_one_number_fix_the_term_and_equalities_pass_it_on() {
        let mut s = TermStore::new();
        let (x, y, z) = (
            s.bv_var("x", 32).expect("var"),
            s.bv_var("y", 32).expect("var"),
            s.bv_var("z", 32).expect("var"),
        );
        let sum = s.bv_add(y, z).expect("add");
        let (zero, one) = (s.bv_val(32, 0).expect("c"), s.bv_val(32, 1).expect("c"));
        let positive = s.bv_slt(zero, x).expect("slt");
        let linked = s.eq(x, sum).expect("eq");
        let at_most_one = {
            let above = s.bv_slt(one, x).expect("slt");
            s.not(above).expect("not")
        };
        let mut implied = Implied::default();
        for c in [positive, linked] {
            implied = learn(&mut s, &implied, c);
        }
        assert_eq!(value(&s, &implied, x), None, "1 ≤ x is not one number");
        let learned = implied
            .learn(&mut s, at_most_one)
            .expect("learn")
            .expect("news");
        let implied = learned.implied;
        assert_eq!(learned.fixed.len(), 2, "x and the sum");
        assert_eq!(value(&s, &implied, x), Some(1));
        assert_eq!(value(&s, &implied, sum), Some(1));
        // (y + z) * (y + z) < 0 is false on this path.
        let square = s.bv_mul(sum, sum).expect("mul");
        let negative = s.bv_slt(square, zero).expect("slt");
        let rewritten = implied.rewrite(&mut s, negative).expect("rewrite");
        assert_eq!(s.as_bool(rewritten), Some(false));
        // Nothing new: no new knowledge.
        assert!(implied.learn(&mut s, positive).expect("learn").is_none());
    }

    #[test]
    fn an_equality_with_a_number_fixes_the_steps_it_inverts() {
        let mut s = TermStore::new();
        let x = s.bv_var("x", 8).expect("var");
        let three = s.bv_val(8, 3).expect("c");
        let plus = s.bv_add(x, three).expect("add");
        let negated = s.bv_neg(plus).expect("neg");
        let five = s.bv_val(8, 5).expect("c");
        let c = s.eq(negated, five).expect("eq");
        let implied = learn(&mut s, &Implied::default(), c);
        // -(x + 3) = 5: x + 3 = -5, x = -8.
        assert_eq!(value(&s, &implied, plus), Some(-5));
        assert_eq!(value(&s, &implied, x), Some(-8));
        let y = s.bv_var("y", 8).expect("var");
        let product = s.bv_mul(x, y).expect("mul");
        assert!(implied.value(product).is_none());
        assert_eq!(implied.rewrite(&mut s, y).expect("rewrite"), y);
    }

    #[test]
    fn unsigned_bounds_disequalities_and_negated_disjunctions_count() {
        let mut s = TermStore::new();
        let x = s.bv_var("x", 8).expect("var");
        let (two, four) = (s.bv_val(8, 2).expect("c"), s.bv_val(8, 4).expect("c"));
        // ¬(x <u 2 ∨ 4 <u x): 2 ≤ x ≤ 4.
        let below = s.bv_ult(x, two).expect("ult");
        let above = s.bv_ult(four, x).expect("ult");
        let outside = s.or(below, above).expect("or");
        let inside = s.not(outside).expect("not");
        let implied = learn(&mut s, &Implied::default(), inside);
        assert_eq!(value(&s, &implied, x), None);
        let not_four = s.neq(x, four).expect("neq");
        let not_two = s.neq(x, two).expect("neq");
        let implied = learn(&mut s, &implied, not_four);
        let implied = learn(&mut s, &implied, not_two);
        assert_eq!(value(&s, &implied, x), Some(3));
    }

    #[test]
    fn bounds_decide_the_comparisons_and_equalities_they_settle() {
        let mut s = TermStore::new();
        let x = s.bv_var("x", 32).expect("var");
        let y = s.bv_var("y", 32).expect("var");
        let n = |s: &mut TermStore, v: i128| s.bv_signed(32, v).expect("c");
        let (zero, ten) = (n(&mut s, 0), n(&mut s, 10));
        // 0 <= x < 10.
        let low = s.bv_sle(zero, x).expect("sle");
        let high = s.bv_slt(x, ten).expect("slt");
        let implied = learn(&mut s, &Implied::default(), low);
        let implied = learn(&mut s, &implied, high);
        let truth = |s: &mut TermStore, t: TermId| {
            let rewritten = implied.rewrite(s, t).expect("rewrite");
            s.as_bool(rewritten)
        };
        let minus_five = n(&mut s, -5);
        let (nine, twenty) = (n(&mut s, 9), n(&mut s, 20));
        let cases = [
            (s.bv_slt(x, minus_five).expect("slt"), Some(false)),
            (s.bv_sle(x, nine).expect("sle"), Some(true)),
            (s.bv_slt(minus_five, x).expect("slt"), Some(true)),
            (s.bv_sle(ten, x).expect("sle"), Some(false)),
            (s.bv_slt(x, nine).expect("slt"), None),
            // Unsigned: 0 <= x < 10 signed is x <u 10 as well, but only the signed bounds are
            // known; the unsigned ones stay whole.
            (s.bv_ult(x, twenty).expect("ult"), None),
            (s.eq(x, twenty).expect("eq"), Some(false)),
            (s.eq(x, nine).expect("eq"), None),
            (s.bv_slt(y, zero).expect("slt"), None),
        ];
        for (i, (t, expected)) in cases.into_iter().enumerate() {
            assert_eq!(truth(&mut s, t), expected, "case {i}");
        }
        // Inside a larger term: (x < -5) ∨ (y < 0) is y < 0.
        let below = s.bv_slt(x, minus_five).expect("slt");
        let negative = s.bv_slt(y, zero).expect("slt");
        let either = s.or(below, negative).expect("or");
        assert_eq!(implied.rewrite(&mut s, either).expect("rewrite"), negative);
    }

    #[test]
    fn on_random_paths_every_fact_and_rewrite_holds_on_every_satisfying_assignment() {
        // Two 4-bit variables, every assignment tried: constraints drawn from the shapes the
        // module learns from (and others), then for each satisfying assignment, every fixed
        // term has its number and every drawn question its rewritten truth.
        use crate::eval::{eval, Assignment};
        use crate::value::Value;
        let mut s = TermStore::new();
        let vars = [
            s.bv_var("x", 4).expect("var"),
            s.bv_var("y", 4).expect("var"),
        ];
        let mut seed = 0x2545_f491_u64;
        let mut next = |n: u64| {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            (seed >> 33) % n
        };
        let term = |s: &mut TermStore, next: &mut dyn FnMut(u64) -> u64| {
            let v = vars[next(2) as usize];
            let k = s.bv_val(4, u128::from(next(16))).expect("c");
            match next(6) {
                0 | 1 => v,
                2 => s.bv_add(v, k).expect("t"),
                3 => s.bv_sub(k, v).expect("t"),
                4 => s.bv_add(vars[0], vars[1]).expect("t"),
                _ => s.bv_mul(v, vars[1]).expect("t"),
            }
        };
        // A comparison of a drawn term (or of one in `pool`, the terms of earlier atoms, half
        // the time: questions about what the constraints bound).
        let atom = |s: &mut TermStore, next: &mut dyn FnMut(u64) -> u64, pool: &mut Vec<TermId>| {
            let a = match pool.len() {
                n if n > 0 && next(2) == 0 => pool[next(n as u64) as usize],
                _ => term(s, next),
            };
            pool.push(a);
            let b = match next(3) {
                0 => term(s, next),
                _ => s.bv_val(4, u128::from(next(16))).expect("c"),
            };
            let (a, b) = if next(2) == 0 { (a, b) } else { (b, a) };
            let atom = match next(5) {
                0 => s.eq(a, b),
                1 => s.bv_slt(a, b),
                2 => s.bv_sle(a, b),
                3 => s.bv_ult(a, b),
                _ => s.bv_ule(a, b),
            }
            .expect("atom");
            if next(2) == 0 {
                s.not(atom).expect("not")
            } else {
                atom
            }
        };
        let assignments: Vec<Assignment> = (0..256u128)
            .map(|xy| {
                let mut asg = Assignment::new();
                for (i, &v) in vars.iter().enumerate() {
                    let bits = (xy >> (4 * i)) & 15;
                    let value = Value::Bv(BvConst::new(4, bits).expect("c"));
                    asg.insert(s.var_id(v).expect("a var"), value);
                }
                asg
            })
            .collect();
        let holds = |s: &TermStore, t: TermId, asg: &Assignment| {
            eval(s, t, asg).expect("eval") == Value::Bool(true)
        };
        let (mut fixed_seen, mut decided_seen) = (0, 0);
        for _ in 0..3000 {
            let mut implied = Implied::default();
            let mut constraints = Vec::new();
            let mut pool = Vec::new();
            for _ in 0..1 + next(4) {
                let c = atom(&mut s, &mut next, &mut pool);
                if let Some(learned) = implied.learn(&mut s, c).expect("learn") {
                    implied = learned.implied;
                    fixed_seen += learned.fixed.len();
                }
                constraints.push(c);
            }
            let questions: Vec<TermId> =
                (0..4).map(|_| atom(&mut s, &mut next, &mut pool)).collect();
            let rewritten: Vec<TermId> = (questions.iter())
                .map(|&q| implied.rewrite(&mut s, q).expect("rewrite"))
                .collect();
            decided_seen += (questions.iter().zip(&rewritten))
                .filter(|(q, r)| s.as_bool(**q).is_none() && s.as_bool(**r).is_some())
                .count();
            for asg in &assignments {
                if !constraints.iter().all(|&c| holds(&s, c, asg)) {
                    continue;
                }
                for (t, number) in &implied.values {
                    assert_eq!(eval(&s, *t, asg), eval(&s, *number, asg), "{t:?}");
                }
                for (q, r) in questions.iter().zip(&rewritten) {
                    assert_eq!(holds(&s, *q, asg), holds(&s, *r, asg), "{q:?} as {r:?}");
                }
            }
        }
        assert!(fixed_seen > 500, "the draws fix terms: {fixed_seen}");
        assert!(
            decided_seen > 500,
            "bounds and fixed terms decide questions: {decided_seen}"
        );
    }

    #[test]
    fn contradictions_are_not_used() {
        let mut s = TermStore::new();
        let x = s.bv_var("x", 8).expect("var");
        let (one, two) = (s.bv_val(8, 1).expect("c"), s.bv_val(8, 2).expect("c"));
        let min = s.bv_signed(8, -128).expect("c");
        let is_one = s.eq(x, one).expect("eq");
        let is_two = s.eq(x, two).expect("eq");
        let below_min = s.bv_slt(x, min).expect("slt");
        let implied = learn(&mut s, &Implied::default(), is_one);
        let implied = learn(&mut s, &implied, is_two);
        assert_eq!(value(&s, &implied, x), Some(1), "the first number stays");
        let y = s.bv_var("y", 8).expect("var");
        let y_below_min = s.bv_slt(y, min).expect("slt");
        assert!(Implied::default()
            .learn(&mut s, y_below_min)
            .expect("learn")
            .is_none());
        assert!(implied.learn(&mut s, below_min).expect("learn").is_none());
    }
}
