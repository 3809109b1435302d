//! Narrowing: arithmetic on extended values done at the width of the values.
//!
//! A C front end computes with `char` and `short` in 32 bits (integer promotion) and converts
//! back by masking (`x & 0xff`) and sign extension (`((x & 0xff) ^ 0x80) - 0x80`). Bit-blasted,
//! a 32-bit remainder is a circuit about sixteen times an 8-bit one, and a chain of them
//! (Euclid's algorithm on bytes) is out of a solver's reach at 32 bits while trivial at 8. These
//! rules recognize the two idioms as `zero_extend`/`sign_extend` of an `extract`, take the low
//! bits of a ring operation from the low bits of its operands, and do remainders, bitwise
//! operations, comparisons and equalities of two equally extended operands at the operands'
//! width.
//!
//! Every rule is exact for every assignment, division by zero included: SMT-LIB's `x % 0 = x`
//! survives narrowing, but `x / 0 = all ones` does not, so quotients stay wide (as does `sdiv`,
//! whose `-128 / -1` leaves 8 bits). A rule looks at most a few levels below the new node, so
//! the rewriting of one node stays bounded.

use crate::build::TermResult;
use crate::bv::BvConst;
use crate::error::TermError;
use crate::sort::Sort;
use crate::term::{Node, Op, TermId, TermStore};

/// How deep [`extract_low`] looks for operands whose low bits come cheaply.
const NARROWABLE_DEPTH: u32 = 2;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Zero,
    Sign,
}

/// A term read as `kind`-extension by `by` bits of the narrow term `arg`.
#[derive(Clone, Copy, Debug)]
struct Extension {
    kind: Kind,
    by: u32,
    arg: TermId,
}

fn width(st: &TermStore, t: TermId) -> Option<u32> {
    match st.sort(t) {
        Sort::BitVec(w) => Some(w),
        _ => None,
    }
}

fn extension(st: &TermStore, t: TermId) -> Option<Extension> {
    match *st.node(t) {
        Node::ZeroExtend { by, arg } => Some(Extension {
            kind: Kind::Zero,
            by,
            arg,
        }),
        Node::SignExtend { by, arg } => Some(Extension {
            kind: Kind::Sign,
            by,
            arg,
        }),
        _ => None,
    }
}

fn extend(st: &mut TermStore, kind: Kind, by: u32, arg: TermId) -> TermResult {
    match kind {
        Kind::Zero => st.zero_extend(by, arg),
        Kind::Sign => st.sign_extend(by, arg),
    }
}

/// `c` as an extension like `like`: the narrow constant, if extending it gives `c` back.
fn constant_like(
    st: &mut TermStore,
    c: BvConst,
    like: Extension,
) -> Result<Option<Extension>, TermError> {
    if c.width() <= like.by {
        return Ok(None);
    }
    let narrow_width = c.width() - like.by;
    let narrow = c.extract(narrow_width - 1, 0);
    let back = match like.kind {
        Kind::Zero => narrow.zero_extend(like.by)?,
        Kind::Sign => narrow.sign_extend(like.by)?,
    };
    if back != c {
        return Ok(None);
    }
    Ok(Some(Extension {
        arg: st.bv_const(narrow)?,
        ..like
    }))
}

/// How two operands look as extensions.
enum Shapes {
    /// Both are extensions of the same kind by the same amount (a constant takes the shape of
    /// the other side where its value allows).
    Alike(Extension, Extension),
    /// One is an extension, the other a constant that no such extension gives.
    OutOfRange,
    Unlike,
}

fn shapes(st: &mut TermStore, a: TermId, b: TermId) -> Result<Shapes, TermError> {
    let (ea, eb) = (extension(st, a), extension(st, b));
    Ok(match (ea, eb, st.as_bv(a), st.as_bv(b)) {
        (Some(x), Some(y), _, _) if x.kind == y.kind && x.by == y.by => Shapes::Alike(x, y),
        (Some(x), None, _, Some(c)) => match constant_like(st, c, x)? {
            Some(y) => Shapes::Alike(x, y),
            None => Shapes::OutOfRange,
        },
        (None, Some(y), Some(c), _) => match constant_like(st, c, y)? {
            Some(x) => Shapes::Alike(x, y),
            None => Shapes::OutOfRange,
        },
        _ => Shapes::Unlike,
    })
}

/// The narrowing rules of a binary node whose other rules did not apply.
pub(super) fn binary(
    st: &mut TermStore,
    op: Op,
    a: TermId,
    b: TermId,
) -> Result<Option<TermId>, TermError> {
    let narrowed = matches!(
        op,
        Op::Eq
            | Op::BvUlt
            | Op::BvUle
            | Op::BvSlt
            | Op::BvSle
            | Op::BvAnd
            | Op::BvOr
            | Op::BvXor
            | Op::BvSub
            | Op::BvSrem
            | Op::BvUrem
    );
    let Some(w) = width(st, a).filter(|_| narrowed) else {
        return Ok(None);
    };
    match op {
        Op::BvAnd => {
            if let Some(t) = low_mask(st, a, b, w)? {
                return Ok(Some(t));
            }
        }
        Op::BvSub => {
            if let Some(t) = sign_extension_idiom(st, a, b)? {
                return Ok(Some(t));
            }
        }
        _ => {}
    }
    let (x, y) = match shapes(st, a, b)? {
        Shapes::Alike(x, y) => (x, y),
        Shapes::OutOfRange if op == Op::Eq => return Ok(Some(st.bool_val(false)?)),
        Shapes::OutOfRange | Shapes::Unlike => return Ok(None),
    };
    let (kind, by) = (x.kind, x.by);
    let (x, y) = (x.arg, y.arg);
    Ok(Some(match (op, kind) {
        (Op::Eq, _) => st.eq(x, y)?,
        (Op::BvUlt, _) => st.bv_ult(x, y)?,
        (Op::BvUle, _) => st.bv_ule(x, y)?,
        // Zero extension by at least one bit makes both values non-negative.
        (Op::BvSlt, Kind::Sign) => st.bv_slt(x, y)?,
        (Op::BvSle, Kind::Sign) => st.bv_sle(x, y)?,
        (Op::BvSlt, Kind::Zero) if by > 0 => st.bv_ult(x, y)?,
        (Op::BvSle, Kind::Zero) if by > 0 => st.bv_ule(x, y)?,
        (Op::BvAnd, _) => {
            let t = st.bv_and(x, y)?;
            extend(st, kind, by, t)?
        }
        (Op::BvOr, _) => {
            let t = st.bv_or(x, y)?;
            extend(st, kind, by, t)?
        }
        (Op::BvXor, _) => {
            let t = st.bv_xor(x, y)?;
            extend(st, kind, by, t)?
        }
        // |x % y| < |y| fits the narrow width, and x % 0 = x at every width.
        (Op::BvSrem, Kind::Sign) => {
            let t = st.bv_srem(x, y)?;
            st.sign_extend(by, t)?
        }
        (Op::BvUrem, Kind::Zero) | (Op::BvSrem, Kind::Zero) if by > 0 => {
            let t = st.bv_urem(x, y)?;
            st.zero_extend(by, t)?
        }
        _ => return Ok(None),
    }))
}

/// `x & (2^k - 1)` as `zero_extend(extract(k - 1, 0, x))`.
fn low_mask(st: &mut TermStore, a: TermId, b: TermId, w: u32) -> Result<Option<TermId>, TermError> {
    let (x, mask) = match (st.as_bv(a), st.as_bv(b)) {
        (None, Some(c)) => (a, c),
        (Some(c), None) => (b, c),
        _ => return Ok(None),
    };
    let k = mask.bits().count_ones();
    if k == 0 || k >= w || mask.bits() != (1u128 << k) - 1 {
        return Ok(None);
    }
    let low = st.extract(k - 1, 0, x)?;
    Ok(Some(st.zero_extend(w - k, low)?))
}

/// `(zero_extend(y) ^ s) - s`, with `s` the weight of `y`'s sign bit, as `sign_extend(y)`:
/// flipping the sign bit and subtracting its weight is how the C front end sign-extends. The
/// exclusive or is found either wide or, as the rules above leave it, narrowed:
/// `zero_extend(y ^ s') - s`. At `y`'s own width the same flip is `+ s`, so there
/// `(y ^ s) - s` is `y`.
fn sign_extension_idiom(
    st: &mut TermStore,
    a: TermId,
    b: TermId,
) -> Result<Option<TermId>, TermError> {
    let Some(s) = st.as_bv(b) else {
        return Ok(None);
    };
    let xor_with = |st: &TermStore, t: TermId, s: TermId| match *st.node(t) {
        Node::App2(Op::BvXor, p, q) if p == s => Some(q),
        Node::App2(Op::BvXor, p, q) if q == s => Some(p),
        _ => None,
    };
    if s.bits() == 1u128 << (s.width() - 1) {
        if let Some(y) = xor_with(st, a, b) {
            return Ok(Some(y));
        }
    }
    let Some(Extension {
        kind: Kind::Zero,
        by,
        arg,
    }) = extension(st, a)
    else {
        return Ok(None);
    };
    let narrow = s.width() - by;
    if by == 0 || s.bits() != 1u128 << (narrow - 1) {
        return Ok(None);
    }
    let narrow_sign = st.bv_const(s.extract(narrow - 1, 0))?;
    Ok(match xor_with(st, arg, narrow_sign) {
        Some(y) => Some(st.sign_extend(by, y)?),
        None => None,
    })
}

/// `extract(hi, 0, arg)` of a term narrower than `arg`, where its low bits come cheaply: from
/// an extension's argument, or from the low bits of a ring operation's operands (the low `k`
/// bits of `x + y`, `x * y`, `-x`, `x & y`, ... depend only on the low `k` bits of `x` and `y`).
pub(super) fn extract_low(
    st: &mut TermStore,
    hi: u32,
    arg: TermId,
) -> Result<Option<TermId>, TermError> {
    let k = hi + 1;
    if let Some(ext) = extension(st, arg) {
        let Some(wx) = width(st, ext.arg) else {
            return Ok(None);
        };
        return Ok(Some(if k <= wx {
            st.extract(hi, 0, ext.arg)?
        } else {
            extend(st, ext.kind, k - wx, ext.arg)?
        }));
    }
    if !narrowable(st, arg, NARROWABLE_DEPTH) {
        return Ok(None);
    }
    Ok(Some(match *st.node(arg) {
        Node::App1(op @ (Op::BvNot | Op::BvNeg), x) => {
            let x = st.extract(hi, 0, x)?;
            if op == Op::BvNot {
                st.bv_not(x)?
            } else {
                st.bv_neg(x)?
            }
        }
        Node::App2(op, x, y) => {
            let (x, y) = (st.extract(hi, 0, x)?, st.extract(hi, 0, y)?);
            match op {
                Op::BvAdd => st.bv_add(x, y)?,
                Op::BvSub => st.bv_sub(x, y)?,
                Op::BvMul => st.bv_mul(x, y)?,
                Op::BvAnd => st.bv_and(x, y)?,
                Op::BvOr => st.bv_or(x, y)?,
                _ => st.bv_xor(x, y)?,
            }
        }
        Node::App3(Op::Ite, c, x, y) => {
            let (x, y) = (st.extract(hi, 0, x)?, st.extract(hi, 0, y)?);
            st.ite(c, x, y)?
        }
        _ => return Ok(None),
    }))
}

/// Whether taking the low bits of `t` gives a smaller term: `t` is a constant, an extension or
/// extraction, or a ring operation (or `ite`) of such terms, `depth` levels down at most.
fn narrowable(st: &TermStore, t: TermId, depth: u32) -> bool {
    let below = |u: TermId| {
        matches!(
            st.node(u),
            Node::Bv(_) | Node::ZeroExtend { .. } | Node::SignExtend { .. } | Node::Extract { .. }
        ) || (depth > 0 && narrowable(st, u, depth - 1))
    };
    match *st.node(t) {
        Node::App1(Op::BvNot | Op::BvNeg, x) => below(x),
        Node::App2(Op::BvAdd | Op::BvSub | Op::BvMul | Op::BvAnd | Op::BvOr | Op::BvXor, x, y) => {
            below(x) && below(y)
        }
        Node::App3(Op::Ite, _, x, y) => below(x) && below(y),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use crate::build::TermResult;
    use crate::bv::BvConst;
    use crate::eval::{eval, Assignment};
    use crate::term::{Node, Op, TermId, TermStore};
    use crate::value::Value;

    /// `x` converted to `signed char` as the C front end does it: `((x & 0xff) ^ 0x80) - 0x80`.
    fn schar(st: &mut TermStore, x: TermId) -> TermResult {
        let mask = st.bv_val(32, 0xff)?;
        let sign = st.bv_val(32, 0x80)?;
        let low = st.bv_and(x, mask)?;
        let flipped = st.bv_xor(low, sign)?;
        st.bv_sub(flipped, sign)
    }

    /// `(signed char)(schar(x) % schar(y))`, `schar(x) <= schar(y)`, `schar(x) != 0` and
    /// `(unsigned char)(schar(x) + schar(y))`: Euclid's step and its conditions on bytes.
    fn byte_terms(st: &mut TermStore, x: TermId, y: TermId) -> Vec<TermId> {
        let build = |st: &mut TermStore| -> Result<Vec<TermId>, crate::TermError> {
            let (a, b) = (schar(st, x)?, schar(st, y)?);
            let rem = st.bv_srem(a, b)?;
            let zero = st.bv_val(32, 0)?;
            let nonzero = st.eq(b, zero)?;
            let le = st.bv_sle(a, b)?;
            let sum = st.bv_add(a, b)?;
            let mask = st.bv_val(32, 0xff)?;
            let uchar = st.bv_and(sum, mask)?;
            let neg = st.bv_neg(a)?;
            Ok(vec![
                schar(st, rem)?,
                nonzero,
                le,
                uchar,
                schar(st, neg)?,
                a,
            ])
        };
        build(st).expect("well-sorted")
    }

    #[test]
    fn byte_idioms_keep_their_meaning_on_every_pair_of_bytes() {
        let mut plain = TermStore::without_simplification();
        let mut simp = TermStore::new();
        let (px, py) = (
            plain.bv_var("x", 32).unwrap(),
            plain.bv_var("y", 32).unwrap(),
        );
        let (sx, sy) = (simp.bv_var("x", 32).unwrap(), simp.bv_var("y", 32).unwrap());
        let wide = byte_terms(&mut plain, px, py);
        let narrow = byte_terms(&mut simp, sx, sy);
        for x in 0..256u128 {
            for y in 0..256u128 {
                // High bits that the conversions must ignore.
                let value = |v: u128| Value::Bv(BvConst::new(32, v | 0x1234_5600).unwrap());
                let mut asg = Assignment::new();
                asg.insert(plain.var_id(px).unwrap(), value(x));
                asg.insert(plain.var_id(py).unwrap(), value(y));
                for (w, n) in wide.iter().zip(&narrow) {
                    assert_eq!(eval(&simp, *n, &asg), eval(&plain, *w, &asg), "x={x} y={y}");
                }
            }
        }
    }

    #[test]
    fn byte_arithmetic_is_done_at_eight_bits() {
        let mut st = TermStore::new();
        let (x, y) = (st.bv_var("x", 32).unwrap(), st.bv_var("y", 32).unwrap());
        let terms = byte_terms(&mut st, x, y);
        // The conversion is a sign extension of the low byte.
        let Node::SignExtend { by: 24, arg } = *st.node(terms[5]) else {
            panic!("not a sign extension: {:?}", st.node(terms[5]));
        };
        assert!(matches!(st.node(arg), Node::Extract { hi: 7, lo: 0, .. }));
        // The remainder is an 8-bit one, the comparison too, and no 32-bit division is left.
        let Node::SignExtend { arg: rem, .. } = *st.node(terms[0]) else {
            panic!("not a sign extension: {:?}", st.node(terms[0]));
        };
        assert!(matches!(st.node(rem), Node::App2(Op::BvSrem, ..)));
        assert_eq!(st.sort(rem), crate::sort::Sort::BitVec(8));
        assert!(matches!(st.node(terms[2]), Node::App2(Op::BvSle, a, _)
            if st.sort(*a) == crate::sort::Sort::BitVec(8)));
        let Node::ZeroExtend { arg: sum, .. } = *st.node(terms[3]) else {
            panic!("not a zero extension: {:?}", st.node(terms[3]));
        };
        assert!(matches!(st.node(sum), Node::App2(Op::BvAdd, ..)));
    }
}
