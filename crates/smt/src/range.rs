//! Signed ranges of bit-vector terms read off their structure: a sign extension of a 16-bit
//! term lies in [-2^15, 2^15 - 1] whatever it is, a negation or a sum of bounded terms in the
//! range their bounds give. A check that a range decides needs no solver: the product of two
//! promoted `short`s always fits an `int`, while the solver bit-blasts the 64-bit product that
//! asks it (seconds, or its time limit).
//!
//! A range encloses every value the term takes under every assignment (an operation whose
//! bounds would leave the width's range may wrap: its range is the whole width's). Nothing
//! here builds terms; it looks at most [`MAX_DEPTH`] nodes down.

use crate::sort::Sort;
use crate::term::{Node, Op, TermId, TermStore};

/// How many nodes below the term the walk looks (each level at most doubles the work).
const MAX_DEPTH: u32 = 6;

/// The widest bit-vector whose ranges are computed (its bounds and their products fit `i128`).
const MAX_WIDTH: u32 = 64;

/// A closed interval of signed values.
pub type SignedRange = (i128, i128);

impl TermStore {
    /// The signed values the bit-vector term `t` may take, as far as its structure tells:
    /// `None` for a term that is not a bit-vector of at most 64 bits.
    pub fn signed_range(&self, t: TermId) -> Option<SignedRange> {
        range(self, t, MAX_DEPTH)
    }
}

/// Every signed value of `width` bits.
fn full(width: u32) -> SignedRange {
    let half = 1i128 << (width - 1);
    (-half, half - 1)
}

/// `(lo, hi)` where it lies within `width` bits' signed values, else all of them (the
/// operation may wrap).
fn within(width: u32, (lo, hi): SignedRange) -> SignedRange {
    let (min, max) = full(width);
    match lo >= min && hi <= max {
        true => (lo, hi),
        false => (min, max),
    }
}

fn bv_width(store: &TermStore, t: TermId) -> Option<u32> {
    match store.sort(t) {
        Sort::BitVec(width) => Some(width),
        _ => None,
    }
}

fn range(store: &TermStore, t: TermId, depth: u32) -> Option<SignedRange> {
    let width = bv_width(store, t).filter(|w| (1..=MAX_WIDTH).contains(w))?;
    if depth == 0 {
        return Some(full(width));
    }
    let below = |t: TermId| range(store, t, depth - 1).unwrap_or(full(width));
    let operands = |a: TermId, b: TermId| (below(a), below(b));
    Some(match *store.node(t) {
        Node::Bv(c) => (c.to_i128(), c.to_i128()),
        // The same value, in more bits.
        Node::SignExtend { arg, .. } => range(store, arg, depth - 1)?,
        Node::ZeroExtend { by, arg } if by > 0 => {
            let narrow = bv_width(store, arg)?;
            match range(store, arg, depth - 1) {
                Some((lo, hi)) if lo >= 0 => (lo, hi),
                _ => (0, (1i128 << narrow) - 1),
            }
        }
        Node::App1(Op::BvNeg, a) => {
            let (lo, hi) = below(a);
            within(width, (-hi, -lo))
        }
        Node::App2(Op::BvAdd, a, b) => {
            let ((lo1, hi1), (lo2, hi2)) = operands(a, b);
            within(width, (lo1 + lo2, hi1 + hi2))
        }
        Node::App2(Op::BvSub, a, b) => {
            let ((lo1, hi1), (lo2, hi2)) = operands(a, b);
            within(width, (lo1 - hi2, hi1 - lo2))
        }
        Node::App2(Op::BvMul, a, b) => {
            let ((lo1, hi1), (lo2, hi2)) = operands(a, b);
            let corners = [lo1 * lo2, lo1 * hi2, hi1 * lo2, hi1 * hi2];
            let (lo, hi) = corners.iter().fold((i128::MAX, i128::MIN), |(lo, hi), &c| {
                (lo.min(c), hi.max(c))
            });
            within(width, (lo, hi))
        }
        // A mask that clears the sign bit bounds the value by itself.
        Node::App2(Op::BvAnd, a, b) => match (store.as_bv(a), store.as_bv(b)) {
            (Some(mask), _) | (_, Some(mask)) if !mask.is_negative() => (0, mask.to_i128()),
            _ => full(width),
        },
        Node::App3(Op::Ite, _, a, b) => {
            let ((lo1, hi1), (lo2, hi2)) = operands(a, b);
            (lo1.min(lo2), hi1.max(hi2))
        }
        _ => full(width),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bv::BvConst;
    use crate::eval::{eval, Assignment};
    use crate::value::Value;

    /// Terms over two 16-bit inputs promoted to 32 bits, as a C front end makes them.
    fn promoted_terms(store: &mut TermStore) -> (TermId, TermId, Vec<TermId>) {
        let x = store.bv_var("x", 16).unwrap();
        let y = store.bv_var("y", 8).unwrap();
        let sx = store.sign_extend(16, x).unwrap();
        let zy = store.zero_extend(24, y).unwrap();
        let neg = store.bv_neg(sx).unwrap();
        let product = store.bv_mul(sx, neg).unwrap();
        let sum = store.bv_add(sx, zy).unwrap();
        let difference = store.bv_sub(zy, sx).unwrap();
        let square = store.bv_mul(product, product).unwrap();
        let mask = store.bv_val(32, 0x7f).unwrap();
        let masked = store.bv_and(square, mask).unwrap();
        let c = store.bv_slt(sx, zy).unwrap();
        let choice = store.ite(c, neg, zy).unwrap();
        let terms = vec![
            sx, zy, neg, product, sum, difference, square, masked, choice,
        ];
        (x, y, terms)
    }

    #[test]
    fn ranges_enclose_every_value_and_bound_promoted_arithmetic() {
        let mut store = TermStore::new();
        let (x, y, terms) = promoted_terms(&mut store);
        let ranges: Vec<SignedRange> = terms
            .iter()
            .map(|&t| store.signed_range(t).unwrap())
            .collect();
        // `sx * -sx` lies within an `int`; its square may wrap.
        assert_eq!(ranges[3], (-(1 << 30), 32767 * 32768));
        assert_eq!(ranges[6], full(32));
        assert_eq!(ranges[7], (0, 0x7f));
        for xv in [-32768i128, -32767, -1, 0, 1, 255, 32767] {
            for yv in [0i128, 1, 127, 128, 255] {
                let mut assignment = Assignment::new();
                let value = |w: u32, v: i128| Value::Bv(BvConst::from_i128(w, v).unwrap());
                assignment.insert(store.var_id(x).unwrap(), value(16, xv));
                assignment.insert(store.var_id(y).unwrap(), value(8, yv));
                for (&t, &(lo, hi)) in terms.iter().zip(&ranges) {
                    let Ok(Value::Bv(v)) = eval(&store, t, &assignment) else {
                        panic!("a bit-vector value");
                    };
                    let v = v.to_i128();
                    assert!(lo <= v && v <= hi, "{v} outside [{lo}, {hi}]");
                }
            }
        }
    }
}
