//! The operators on values: 32-bit wrap-around arithmetic exactly like a JVM `Int`, comparisons
//! yielding 0/1, pointer equality by cell identity. Pure functions; division by zero is the
//! caller's `Check::NonZero` business, so reaching it here means the IR skipped its check.

use symex_ir::cfg::{BinOp, UnOp};

use crate::fault::{expect_int, mismatch, Fault};
use crate::value::Value;

/// `a op b` on numbers.
#[inline]
pub(crate) fn int_binary(op: BinOp, a: i32, b: i32) -> Result<i32, Fault> {
    Ok(match op {
        BinOp::Add => a.wrapping_add(b),
        BinOp::Sub => a.wrapping_sub(b),
        BinOp::Mul => a.wrapping_mul(b),
        // wrapping_div/rem give i32::MIN / -1 == i32::MIN and i32::MIN % -1 == 0, like the JVM.
        _ if op.divides() && b == 0 => {
            return Err(Fault::Invariant(format!(
                "`{}` by zero without a division check",
                op.symbol()
            )))
        }
        BinOp::Div => a.wrapping_div(b),
        BinOp::Rem => a.wrapping_rem(b),
        BinOp::Eq => (a == b) as i32,
        BinOp::Ne => (a != b) as i32,
        BinOp::Lt => (a < b) as i32,
        BinOp::Le => (a <= b) as i32,
        BinOp::Gt => (a > b) as i32,
        BinOp::Ge => (a >= b) as i32,
        // SMT-LIB's meaning for amounts of 32 or more (C's shifts are checked before).
        BinOp::Shl => a.checked_shl(b as u32).unwrap_or(0),
        BinOp::AShr => a.checked_shr(b as u32).unwrap_or(a >> 31),
        BinOp::LShr => (a as u32).checked_shr(b as u32).unwrap_or(0) as i32,
        BinOp::UDiv => ((a as u32) / (b as u32)) as i32,
        BinOp::URem => ((a as u32) % (b as u32)) as i32,
        BinOp::ULt => ((a as u32) < (b as u32)) as i32,
        BinOp::ULe => ((a as u32) <= (b as u32)) as i32,
        BinOp::UGt => ((a as u32) > (b as u32)) as i32,
        BinOp::UGe => ((a as u32) >= (b as u32)) as i32,
        BinOp::BitAnd => a & b,
        BinOp::BitOr => a | b,
        BinOp::BitXor => a ^ b,
        BinOp::MulFits => a.checked_mul(b).is_some() as i32,
    })
}

/// `a op b` on any values: numbers, or `==`/`!=` on pointers and null.
pub(crate) fn binary(op: BinOp, a: &Value, b: &Value) -> Result<Value, Fault> {
    if let (Value::Int(x), Value::Int(y)) = (a, b) {
        return int_binary(op, *x, *y).map(Value::Int);
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

pub(crate) fn unary(op: UnOp, v: &Value) -> Result<i32, Fault> {
    let what = match op {
        UnOp::Not => "`!`",
        UnOp::Neg => "unary `-`",
        UnOp::BitNot => "`~`",
    };
    let n = expect_int(v, what)?;
    Ok(match op {
        UnOp::Not => (n == 0) as i32,
        UnOp::Neg => n.wrapping_neg(),
        UnOp::BitNot => !n,
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
        assert_eq!(unary(UnOp::Neg, &Value::Int(i32::MIN)), Ok(i32::MIN));
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
        assert_eq!(unary(UnOp::Not, &Value::Int(7)), Ok(0));
        assert_eq!(unary(UnOp::Not, &Value::Int(0)), Ok(1));
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
