//! The operators on values: 32-bit wrap-around arithmetic exactly like a JVM `Int` (64-bit like
//! a JVM `Long`), comparisons yielding a 32-bit 0/1, pointer equality by cell identity, the
//! conversions between the widths. Pure functions; division by zero is the caller's
//! `Check::NonZero` business, so reaching it here means the IR skipped its check.

use symex_ir::cfg::{BinOp, UnOp};

use crate::fault::{mismatch, Fault};
use crate::value::Value;

/// The operations of [`BinOp`] on one width of numbers, written once for `i32` and `i64`.
macro_rules! wrapping_binary {
    ($name:ident, $int:ty, $uint:ty) => {
        /// `a op b` on numbers of this width; comparisons and `MulFits` give 0 or 1.
        #[inline]
        pub(crate) fn $name(op: BinOp, a: $int, b: $int) -> Result<$int, Fault> {
            const BITS: u32 = <$int>::BITS;
            Ok(match op {
                BinOp::Add => a.wrapping_add(b),
                BinOp::Sub => a.wrapping_sub(b),
                BinOp::Mul => a.wrapping_mul(b),
                // wrapping_div/rem give MIN / -1 == MIN and MIN % -1 == 0, like the JVM.
                _ if op.divides() && b == 0 => {
                    return Err(Fault::Invariant(format!(
                        "`{}` by zero without a division check",
                        op.symbol()
                    )))
                }
                BinOp::Div => a.wrapping_div(b),
                BinOp::Rem => a.wrapping_rem(b),
                BinOp::Eq => <$int>::from(a == b),
                BinOp::Ne => <$int>::from(a != b),
                BinOp::Lt => <$int>::from(a < b),
                BinOp::Le => <$int>::from(a <= b),
                BinOp::Gt => <$int>::from(a > b),
                BinOp::Ge => <$int>::from(a >= b),
                // SMT-LIB's meaning for amounts of the width or more (C's shifts are checked
                // before).
                BinOp::Shl => u32::try_from(b as $uint)
                    .ok()
                    .and_then(|b| a.checked_shl(b))
                    .unwrap_or(0),
                BinOp::AShr => u32::try_from(b as $uint)
                    .ok()
                    .and_then(|b| a.checked_shr(b))
                    .unwrap_or(a >> (BITS - 1)),
                BinOp::LShr => u32::try_from(b as $uint)
                    .ok()
                    .and_then(|b| (a as $uint).checked_shr(b))
                    .unwrap_or(0) as $int,
                BinOp::UDiv => ((a as $uint) / (b as $uint)) as $int,
                BinOp::URem => ((a as $uint) % (b as $uint)) as $int,
                BinOp::ULt => <$int>::from((a as $uint) < (b as $uint)),
                BinOp::ULe => <$int>::from((a as $uint) <= (b as $uint)),
                BinOp::UGt => <$int>::from((a as $uint) > (b as $uint)),
                BinOp::UGe => <$int>::from((a as $uint) >= (b as $uint)),
                BinOp::BitAnd => a & b,
                BinOp::BitOr => a | b,
                BinOp::BitXor => a ^ b,
                BinOp::MulFits => <$int>::from(a.checked_mul(b).is_some()),
            })
        }
    };
}

wrapping_binary!(int_binary, i32, u32);
wrapping_binary!(int64_binary, i64, u64);

/// `a op b` on any values: numbers, or `==`/`!=` on pointers and null.
pub(crate) fn binary(op: BinOp, a: &Value, b: &Value) -> Result<Value, Fault> {
    match (a, b) {
        (Value::Int(x), Value::Int(y)) => return int_binary(op, *x, *y).map(Value::Int),
        (Value::Int64(x), Value::Int64(y)) => {
            let n = int64_binary(op, *x, *y)?;
            return Ok(match op.yields_truth() {
                true => Value::Int(n as i32),
                false => Value::Int64(n),
            });
        }
        (Value::Int(_), Value::Int64(_)) | (Value::Int64(_), Value::Int(_)) => {
            return Err(Fault::Type(format!(
                "`{}` expects two numbers of one width, found a number and a 64-bit number",
                op.symbol()
            )))
        }
        _ => {}
    }
    let pointer_like = |v: &Value| matches!(v, Value::Null | Value::Ptr(_));
    match op {
        BinOp::Eq | BinOp::Ne if pointer_like(a) && pointer_like(b) => {
            let equal = a == b;
            Ok(Value::Int((equal == (op == BinOp::Eq)) as i32))
        }
        _ => {
            let expected = match op {
                BinOp::Eq | BinOp::Ne => "two numbers or two pointers",
                _ => "two numbers",
            };
            if matches!(a, Value::Uninit) || matches!(b, Value::Uninit) {
                return Err(mismatch(&Value::Uninit, || format!("`{}`", op.symbol())));
            }
            Err(Fault::Type(format!(
                "`{}` expects {expected}, found {} and {}",
                op.symbol(),
                a.kind_name(),
                b.kind_name()
            )))
        }
    }
}

/// `op v` on a number; `!` gives a 32-bit 0 or 1 at either width.
pub(crate) fn unary(op: UnOp, v: &Value) -> Result<Value, Fault> {
    let what = || format!("`{}`", op.symbol().trim());
    Ok(match (op, v) {
        (UnOp::Not, Value::Int(n)) => Value::Int(i32::from(*n == 0)),
        (UnOp::Not, Value::Int64(n)) => Value::Int(i32::from(*n == 0)),
        (UnOp::Neg, Value::Int(n)) => Value::Int(n.wrapping_neg()),
        (UnOp::Neg, Value::Int64(n)) => Value::Int64(n.wrapping_neg()),
        (UnOp::BitNot, Value::Int(n)) => Value::Int(!n),
        (UnOp::BitNot, Value::Int64(n)) => Value::Int64(!n),
        (UnOp::SignExtend, Value::Int(n)) => Value::Int64(i64::from(*n)),
        (UnOp::ZeroExtend, Value::Int(n)) => Value::Int64(i64::from(*n as u32)),
        (UnOp::Truncate, Value::Int64(n)) => Value::Int(*n as i32),
        (UnOp::Truncate, other) => {
            return Err(mismatch(other, || {
                format!("{} expects a 64-bit number", what())
            }))
        }
        (_, other) => return Err(mismatch(other, || format!("{} expects a number", what()))),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::CellId;

    #[test]
    fn wrap_around_like_a_jvm_int() {
        assert_eq!(int_binary(BinOp::Add, i32::MAX, 1), Ok(i32::MIN));
        assert_eq!(int_binary(BinOp::Sub, i32::MIN, 1), Ok(i32::MAX));
        assert_eq!(int_binary(BinOp::Mul, 65536, 65536), Ok(0));
        assert_eq!(int_binary(BinOp::Mul, 46341, 46341), Ok(-2147479015));
        assert_eq!(int_binary(BinOp::Div, i32::MIN, -1), Ok(i32::MIN));
        assert_eq!(int_binary(BinOp::Rem, i32::MIN, -1), Ok(0));
        assert_eq!(
            unary(UnOp::Neg, &Value::Int(i32::MIN)),
            Ok(Value::Int(i32::MIN))
        );
    }

    #[test]
    fn sixty_four_bit_numbers_wrap_at_their_width_and_compare_to_a_32_bit_truth() {
        let wide = |op, a: i64, b: i64| binary(op, &Value::Int64(a), &Value::Int64(b));
        assert_eq!(wide(BinOp::Add, i64::MAX, 1), Ok(Value::Int64(i64::MIN)));
        assert_eq!(
            wide(BinOp::Mul, 1 << 31, 1 << 31),
            Ok(Value::Int64(1 << 62))
        );
        assert_eq!(wide(BinOp::Div, i64::MIN, -1), Ok(Value::Int64(i64::MIN)));
        assert_eq!(wide(BinOp::Shl, 1, 40), Ok(Value::Int64(1 << 40)));
        assert_eq!(wide(BinOp::Shl, 1, 64), Ok(Value::Int64(0)));
        assert_eq!(wide(BinOp::AShr, -8, 70), Ok(Value::Int64(-1)));
        assert_eq!(wide(BinOp::LShr, -1, 32), Ok(Value::Int64(0xffff_ffff)));
        assert_eq!(wide(BinOp::ULt, -1, 0), Ok(Value::Int(0)));
        assert_eq!(wide(BinOp::Lt, -1, 0), Ok(Value::Int(1)));
        assert_eq!(wide(BinOp::MulFits, 1 << 32, 1 << 30), Ok(Value::Int(1)));
        assert_eq!(wide(BinOp::MulFits, 1 << 32, 1 << 31), Ok(Value::Int(0)));
        assert!(matches!(
            binary(BinOp::Add, &Value::Int64(1), &Value::Int(1)),
            Err(Fault::Type(_))
        ));
    }

    #[test]
    fn conversions_extend_and_truncate() {
        assert_eq!(
            unary(UnOp::SignExtend, &Value::Int(-2)),
            Ok(Value::Int64(-2))
        );
        assert_eq!(
            unary(UnOp::ZeroExtend, &Value::Int(-2)),
            Ok(Value::Int64(0xffff_fffe))
        );
        assert_eq!(
            unary(UnOp::Truncate, &Value::Int64(0x1_8000_0001)),
            Ok(Value::Int(i32::MIN + 1))
        );
        assert_eq!(unary(UnOp::Not, &Value::Int64(1 << 40)), Ok(Value::Int(0)));
        assert!(matches!(
            unary(UnOp::Truncate, &Value::Int(1)),
            Err(Fault::Type(_))
        ));
    }

    #[test]
    fn division_truncates_and_remainder_follows_the_dividend() {
        assert_eq!(int_binary(BinOp::Div, -7, 2), Ok(-3));
        assert_eq!(int_binary(BinOp::Div, 7, -2), Ok(-3));
        assert_eq!(int_binary(BinOp::Rem, -7, 3), Ok(-1));
        assert_eq!(int_binary(BinOp::Rem, 7, -3), Ok(1));
        assert!(matches!(
            int_binary(BinOp::Div, 1, 0),
            Err(Fault::Invariant(_))
        ));
        assert!(matches!(
            int_binary(BinOp::Rem, 1, 0),
            Err(Fault::Invariant(_))
        ));
    }

    #[test]
    fn comparisons_and_not_yield_zero_or_one() {
        assert_eq!(int_binary(BinOp::Lt, -1, 0), Ok(1));
        assert_eq!(int_binary(BinOp::Ge, -1, 0), Ok(0));
        assert_eq!(int_binary(BinOp::Eq, 3, 3), Ok(1));
        assert_eq!(int_binary(BinOp::Ne, 3, 3), Ok(0));
        assert_eq!(unary(UnOp::Not, &Value::Int(7)), Ok(Value::Int(0)));
        assert_eq!(unary(UnOp::Not, &Value::Int(0)), Ok(Value::Int(1)));
    }

    #[test]
    fn pointer_equality_is_cell_identity() {
        let p = Value::Ptr(CellId(1));
        let q = Value::Ptr(CellId(2));
        assert_eq!(binary(BinOp::Eq, &p, &p), Ok(Value::Int(1)));
        assert_eq!(binary(BinOp::Eq, &p, &q), Ok(Value::Int(0)));
        assert_eq!(binary(BinOp::Ne, &p, &Value::Null), Ok(Value::Int(1)));
        assert_eq!(
            binary(BinOp::Eq, &Value::Null, &Value::Null),
            Ok(Value::Int(1))
        );
    }

    #[test]
    fn mixed_kinds_are_type_errors() {
        let err = binary(BinOp::Add, &Value::Int(1), &Value::Null).unwrap_err();
        assert_eq!(
            err,
            Fault::Type("`+` expects two numbers, found a number and null".into())
        );
        assert!(matches!(
            binary(BinOp::Eq, &Value::Int(0), &Value::Null),
            Err(Fault::Type(_))
        ));
        assert!(matches!(
            binary(BinOp::Lt, &Value::Null, &Value::Null),
            Err(Fault::Type(_))
        ));
        assert!(matches!(
            binary(BinOp::Add, &Value::Uninit, &Value::Int(1)),
            Err(Fault::Invariant(_))
        ));
        assert!(matches!(
            unary(UnOp::Neg, &Value::Null),
            Err(Fault::Type(_))
        ));
    }
}
