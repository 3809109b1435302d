//! IR operations as solver terms: numbers are bit-vectors of their width (32 or 64 bits), truth
//! values are Booleans.
//!
//! The semantics match the concrete interpreter exactly: `+ - *` wrap around, `/` is `bvsdiv`
//! and `%` is `bvsrem` (truncation, sign of the dividend, `INT_MIN / -1 == INT_MIN`; the zero
//! divisor never gets here because the `NonZero` check precedes the division), comparisons are
//! signed and yield 0 or 1. Everything goes through the store's simplifying constructors, so
//! constant operands fold to constants. Nothing here knows about states or memory.

use symex_ir::cfg::{BinOp, UnOp};
use symex_smt::{Node, Op, Sort, TermId, TermResult, TermStore, Value};

/// The width of micro-c numbers (and of C's types up to `int`).
pub const WIDTH: u32 = 32;

/// The width of C's `long long`.
pub const WIDE: u32 = 64;

/// The number `n`.
pub fn int_const(store: &mut TermStore, n: i32) -> TermResult {
    store.bv_signed(WIDTH, i128::from(n))
}

/// The 64-bit number `n`.
pub fn int64_const(store: &mut TermStore, n: i64) -> TermResult {
    store.bv_signed(WIDE, i128::from(n))
}

/// The width of the number `t` (a non-number gets [`WIDTH`], and the operation that uses it
/// then reports the sort error).
pub fn width(store: &TermStore, t: TermId) -> u32 {
    match store.sort(t) {
        Sort::BitVec(w) => w,
        _ => WIDTH,
    }
}

/// 0 of the width of the number `t`.
pub fn zero_like(store: &mut TermStore, t: TermId) -> TermResult {
    let w = width(store, t);
    store.bv_signed(w, 0)
}

/// `ite(b, 1, 0)`: a truth value as a micro-c number.
pub fn from_bool(store: &mut TermStore, b: TermId) -> TermResult {
    let one = int_const(store, 1)?;
    let zero = int_const(store, 0)?;
    store.ite(b, one, zero)
}

/// `t != 0` as a Boolean; `ite(c, 1, 0) != 0` is `c` itself, so comparisons used as conditions
/// stay small.
pub fn truth(store: &mut TermStore, t: TermId) -> TermResult {
    if let Node::App3(Op::Ite, c, a, b) = *store.node(t) {
        let (ta, tb) = (store.as_bv(a), store.as_bv(b));
        if let (Some(ta), Some(tb)) = (ta, tb) {
            match (ta.is_zero(), tb.is_zero()) {
                (false, true) => return Ok(c),
                (true, false) => return store.not(c),
                (false, false) => return store.bool_val(true),
                (true, true) => return store.bool_val(false),
            }
        }
    }
    let zero = zero_like(store, t)?;
    store.neq(t, zero)
}

/// `a op b` on numbers.
pub fn binary(store: &mut TermStore, op: BinOp, a: TermId, b: TermId) -> TermResult {
    let compare = |store: &mut TermStore, c: TermResult| c.and_then(|c| from_bool(store, c));
    match op {
        BinOp::Add => store.bv_add(a, b),
        BinOp::Sub => store.bv_sub(a, b),
        BinOp::Mul => store.bv_mul(a, b),
        BinOp::Div => store.bv_sdiv(a, b),
        BinOp::Rem => store.bv_srem(a, b),
        BinOp::Shl => store.bv_shl(a, b),
        BinOp::AShr => store.bv_ashr(a, b),
        BinOp::LShr => store.bv_lshr(a, b),
        BinOp::UDiv => store.bv_udiv(a, b),
        BinOp::URem => store.bv_urem(a, b),
        BinOp::BitAnd => store.bv_and(a, b),
        BinOp::BitOr => store.bv_or(a, b),
        BinOp::BitXor => store.bv_xor(a, b),
        BinOp::MulFits => {
            let w = width(store, a);
            // Operands whose ranges bound the product within the width (promoted `short`s)
            // need no 2w-bit product, which the solver would bit-blast.
            if let (Some((lo1, hi1)), Some((lo2, hi2))) =
                (store.signed_range(a), store.signed_range(b))
            {
                let half = 1i128 << (w - 1);
                let corners = [lo1 * lo2, lo1 * hi2, hi1 * lo2, hi1 * hi2];
                if corners.iter().all(|c| (-half..half).contains(c)) {
                    return int_const(store, 1);
                }
            }
            // The exact product of the sign-extended operands equals the sign-extended
            // wrapped product exactly when the product fits.
            let exact = {
                let (wide_a, wide_b) = (store.sign_extend(w, a)?, store.sign_extend(w, b)?);
                store.bv_mul(wide_a, wide_b)?
            };
            let wrapped = store.bv_mul(a, b)?;
            let wrapped = store.sign_extend(w, wrapped)?;
            let c = store.eq(exact, wrapped);
            compare(store, c)
        }
        BinOp::Eq => {
            let c = store.eq(a, b);
            compare(store, c)
        }
        BinOp::Ne => {
            let c = store.neq(a, b);
            compare(store, c)
        }
        BinOp::Lt => {
            let c = store.bv_slt(a, b);
            compare(store, c)
        }
        BinOp::Le => {
            let c = store.bv_sle(a, b);
            compare(store, c)
        }
        BinOp::Gt => {
            let c = store.bv_sgt(a, b);
            compare(store, c)
        }
        BinOp::Ge => {
            let c = store.bv_sge(a, b);
            compare(store, c)
        }
        BinOp::ULt => {
            let c = store.bv_ult(a, b);
            compare(store, c)
        }
        BinOp::ULe => {
            let c = store.bv_ule(a, b);
            compare(store, c)
        }
        BinOp::UGt => {
            let c = store.bv_ugt(a, b);
            compare(store, c)
        }
        BinOp::UGe => {
            let c = store.bv_uge(a, b);
            compare(store, c)
        }
    }
}

/// `op a` on a number.
pub fn unary(store: &mut TermStore, op: UnOp, a: TermId) -> TermResult {
    match op {
        UnOp::Neg => store.bv_neg(a),
        UnOp::BitNot => store.bv_not(a),
        UnOp::Not => {
            let zero = zero_like(store, a)?;
            let c = store.eq(a, zero)?;
            from_bool(store, c)
        }
        UnOp::SignExtend => store.sign_extend(WIDE - WIDTH, a),
        UnOp::ZeroExtend => store.zero_extend(WIDE - WIDTH, a),
        UnOp::Truncate => store.extract(WIDTH - 1, 0, a),
    }
}

/// The micro-c number a model value stands for (32-bit bit-vectors only).
pub fn value_as_i32(value: &Value) -> Option<i32> {
    value.as_bv().map(|bv| bv.bits() as u32 as i32)
}

/// The signed number a 32- or 64-bit model value stands for.
pub fn value_as_i64(value: &Value) -> Option<i64> {
    let bv = value.as_bv()?;
    Some(match bv.width() {
        WIDE => bv.bits() as u64 as i64,
        _ => i64::from(bv.bits() as u32 as i32),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use symex_smt::{eval, Assignment};

    fn num(store: &TermStore, t: TermId) -> i32 {
        let v = eval(store, t, &Assignment::new()).expect("closed term");
        value_as_i32(&v).expect("a number")
    }

    #[test]
    fn arithmetic_matches_the_interpreter() {
        let mut s = TermStore::new();
        let cases = [
            (BinOp::Div, -7, 2, -3),
            (BinOp::Rem, -7, 2, -1),
            (BinOp::Rem, 7, -2, 1),
            (BinOp::Div, i32::MIN, -1, i32::MIN),
            (BinOp::Rem, i32::MIN, -1, 0),
            (BinOp::Add, i32::MAX, 1, i32::MIN),
            (BinOp::Mul, 65536, 65536, 0),
            (BinOp::Lt, -1, 0, 1),
            (BinOp::Ge, -1, 0, 0),
            (BinOp::Ne, 3, 3, 0),
            (BinOp::UDiv, -1, 2, i32::MAX),
            (BinOp::URem, -1, 10, 5),
            (BinOp::ULt, -1, 0, 0),
            (BinOp::ULe, 0, -1, 1),
            (BinOp::UGt, -1, 0, 1),
            (BinOp::UGe, 0, -1, 0),
            (BinOp::BitAnd, 6, 3, 2),
            (BinOp::BitOr, 6, 3, 7),
            (BinOp::BitXor, -1, 5, -6),
            (BinOp::Shl, 3, 4, 48),
            (BinOp::Shl, 1, 31, i32::MIN),
            (BinOp::Shl, 1, 32, 0),
            (BinOp::AShr, -16, 2, -4),
            (BinOp::AShr, -16, 40, -1),
            (BinOp::LShr, -16, 28, 15),
            (BinOp::LShr, -16, 32, 0),
            (BinOp::MulFits, 65536, 32767, 1),
            (BinOp::MulFits, 65536, 32768, 0),
            (BinOp::MulFits, -65536, 32768, 1),
            (BinOp::MulFits, i32::MIN, -1, 0),
            (BinOp::MulFits, i32::MIN, 1, 1),
            (BinOp::MulFits, -1, -1, 1),
        ];
        for (op, a, b, expected) in cases {
            let (ta, tb) = (int_const(&mut s, a).unwrap(), int_const(&mut s, b).unwrap());
            let t = binary(&mut s, op, ta, tb).unwrap();
            assert_eq!(num(&s, t), expected, "{a} {} {b}", op.symbol());
        }
        let m = int_const(&mut s, i32::MIN).unwrap();
        let neg = unary(&mut s, UnOp::Neg, m).unwrap();
        assert_eq!(num(&s, neg), i32::MIN);
        let five = int_const(&mut s, 5).unwrap();
        let not = unary(&mut s, UnOp::Not, five).unwrap();
        assert_eq!(num(&s, not), 0);
        let complement = unary(&mut s, UnOp::BitNot, five).unwrap();
        assert_eq!(num(&s, complement), -6);
    }

    #[test]
    fn products_of_promoted_shorts_fit_without_a_product_term() {
        let mut s = TermStore::new();
        let x = s.bv_var("x", 16).unwrap();
        let promoted = s.sign_extend(16, x).unwrap();
        let negated = unary(&mut s, UnOp::Neg, promoted).unwrap();
        let fits = binary(&mut s, BinOp::MulFits, promoted, negated).unwrap();
        assert_eq!(s.as_bv(fits).map(|c| c.to_i128()), Some(1));
        // An `int` times its negation may not fit: the solver's question stays.
        let y = s.bv_var("y", 32).unwrap();
        let negated = unary(&mut s, UnOp::Neg, y).unwrap();
        let fits = binary(&mut s, BinOp::MulFits, y, negated).unwrap();
        assert_eq!(s.as_bv(fits), None);
    }

    #[test]
    fn sixty_four_bit_terms_match_the_interpreter() {
        let mut s = TermStore::new();
        let wide = |s: &mut TermStore, n: i64| int64_const(s, n).unwrap();
        let as_i64 = |s: &TermStore, t: TermId| {
            let v = eval(s, t, &Assignment::new()).expect("closed term");
            v.as_bv().expect("a number").bits() as u64 as i64
        };
        let cases = [
            (BinOp::Add, i64::MAX, 1, i64::MIN),
            (BinOp::Mul, 1 << 31, 1 << 31, 1 << 62),
            (BinOp::Div, i64::MIN, -1, i64::MIN),
            (BinOp::Shl, 1, 64, 0),
            (BinOp::AShr, -8, 70, -1),
            (BinOp::MulFits, 1 << 32, 1 << 30, 1),
            (BinOp::MulFits, 1 << 32, 1 << 31, 0),
            (BinOp::Lt, -1, 0, 1),
        ];
        for (op, a, b, expected) in cases {
            let (ta, tb) = (wide(&mut s, a), wide(&mut s, b));
            let t = binary(&mut s, op, ta, tb).unwrap();
            let got = match op.yields_truth() {
                true => i64::from(num(&s, t)),
                false => as_i64(&s, t),
            };
            assert_eq!(got, expected, "{a} {} {b}", op.symbol());
        }
        let minus_two = int_const(&mut s, -2).unwrap();
        let sext = unary(&mut s, UnOp::SignExtend, minus_two).unwrap();
        assert_eq!(as_i64(&s, sext), -2);
        let zext = unary(&mut s, UnOp::ZeroExtend, minus_two).unwrap();
        assert_eq!(as_i64(&s, zext), 0xffff_fffe);
        let big = wide(&mut s, 0x1_8000_0001);
        let low = unary(&mut s, UnOp::Truncate, big).unwrap();
        assert_eq!(num(&s, low), i32::MIN + 1);
        let not = unary(&mut s, UnOp::Not, big).unwrap();
        assert_eq!(num(&s, not), 0);
        let holds = truth(&mut s, big).unwrap();
        assert_eq!(s.as_bool(holds), Some(true));
    }

    #[test]
    fn truth_sees_through_comparisons() {
        let mut s = TermStore::new();
        let x = s.bv_var("x", WIDTH).unwrap();
        let zero = int_const(&mut s, 0).unwrap();
        let lt = s.bv_slt(x, zero).unwrap();
        let as_num = from_bool(&mut s, lt).unwrap();
        assert_eq!(truth(&mut s, as_num).unwrap(), lt);
        let seven = int_const(&mut s, 7).unwrap();
        let t = truth(&mut s, seven).unwrap();
        assert_eq!(s.as_bool(t), Some(true));
    }
}
