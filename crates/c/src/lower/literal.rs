//! C's literals as values: integer constants typed by C's rule, and character constants.
//! Pure functions of the literal's text; nothing here emits IR.

use lang_c::ast::{Constant, Expression, IntegerBase, IntegerSize, UnaryOperator};
use lang_c::span::Node;

use super::types::CType;
use crate::error::CError;

/// The value of an integer literal of a 64-bit type (`2147483648`, `1L` in LP64), under any
/// number of unary `-` and `+` (so `-2147483648`), if `e` is one.
pub(super) fn signed_wide_literal(e: &Node<Expression>, model: crate::DataModel) -> Option<i64> {
    match &e.node {
        Expression::Constant(c) => match &c.node {
            Constant::Integer(integer)
                if !integer.suffix.imaginary && integer_constant(&c.node, model, 0).is_err() =>
            {
                i64::try_from(literal_value(integer)?).ok()
            }
            _ => None,
        },
        Expression::UnaryOperator(u) => {
            let value = signed_wide_literal(&u.node.operand, model)?;
            match u.node.operator.node {
                UnaryOperator::Minus => value.checked_neg(),
                UnaryOperator::Plus => Some(value),
                _ => None,
            }
        }
        _ => None,
    }
}

/// The value of an integer literal's digits, if it fits in 64 bits.
fn literal_value(integer: &lang_c::ast::Integer) -> Option<u64> {
    let radix = match integer.base {
        IntegerBase::Decimal => 10,
        IntegerBase::Octal => 8,
        IntegerBase::Hexadecimal => 16,
        IntegerBase::Binary => 2,
    };
    let digits = integer.number.trim_start_matches('0');
    if digits.is_empty() {
        Some(0)
    } else {
        u64::from_str_radix(digits, radix).ok()
    }
}

/// An integer literal and its type, by C's rule: the first of the types its suffix and base
/// allow that holds its value (`int`, `unsigned int` for octal and hexadecimal, then the `long`
/// types, then the `long long` ones; `long` has 32 bits in ILP32). A literal of a 64-bit type
/// whose value is outside the 32 bits those types are modelled in is refused.
pub(super) fn integer_constant(
    constant: &Constant,
    model: crate::DataModel,
    at: usize,
) -> Result<(i32, CType), CError> {
    let integer = match constant {
        Constant::Integer(integer) => integer,
        Constant::Float(_) => {
            return Err(CError::unsupported("floating-point constants", at));
        }
        Constant::Character(text) => return Ok((character_constant(text, at)?, CType::Int)),
    };
    if integer.suffix.imaginary {
        return Err(CError::unsupported("imaginary constants", at));
    }
    let Some(value) = literal_value(integer) else {
        return Err(CError::invalid(
            format!(
                "the constant `{}` does not fit any integer type",
                integer.number
            ),
            at,
        ));
    };
    // (signed, unsigned) of each rank the suffix allows, narrowest first.
    let long = match model {
        crate::DataModel::Ilp32 => (CType::Int, CType::UInt),
        crate::DataModel::Lp64 => (CType::Long, CType::ULong),
    };
    let ranks = match integer.suffix.size {
        IntegerSize::Int => vec![(CType::Int, CType::UInt), long, (CType::Long, CType::ULong)],
        IntegerSize::Long => vec![long, (CType::Long, CType::ULong)],
        IntegerSize::LongLong => vec![(CType::Long, CType::ULong)],
    };
    // A decimal literal without `u` never becomes unsigned.
    let decimal = integer.base == IntegerBase::Decimal;
    let mut candidates = ranks.into_iter().flat_map(|(signed, unsigned)| {
        let both = [
            (!integer.suffix.unsigned).then_some(signed),
            (integer.suffix.unsigned || !decimal).then_some(unsigned),
        ];
        both.into_iter().flatten()
    });
    let c_range = |ty: CType| match ty {
        CType::Int => i32::MAX as u64,
        CType::UInt => u32::MAX as u64,
        CType::Long => i64::MAX as u64,
        _ => u64::MAX,
    };
    let Some(ty) = candidates.find(|&ty| value <= c_range(ty)) else {
        return Err(CError::invalid(
            format!(
                "the constant `{}` does not fit any integer type",
                integer.number
            ),
            at,
        ));
    };
    match i64::try_from(value) {
        // Within 32 bits the value's bits are the IR number's, read as the type's signedness.
        Ok(v) if ty.holds(v) => Ok((v as u32 as i32, ty)),
        _ => Err(CError::unsupported(
            format!(
                "the constant `{}` of type `{}` (64-bit values are modelled within 32 bits)",
                integer.number,
                match ty {
                    CType::ULong => "unsigned long long",
                    _ => "long long",
                }
            ),
            at,
        )),
    }
}

/// The value of a character constant (`'a'`, `'\n'`, `'\x7f'`, `'\0'`): an `int` holding the
/// `char` (signed, as gcc on x86 has it, so `'\xff'` is -1). Wide and multi-character
/// constants are refused.
fn character_constant(text: &str, at: usize) -> Result<i32, CError> {
    let Some(body) = text.strip_prefix('\'').and_then(|t| t.strip_suffix('\'')) else {
        return Err(CError::unsupported(
            format!("the wide character constant {text}"),
            at,
        ));
    };
    let invalid = || CError::invalid(format!("the character constant {text}"), at);
    let byte: u32 = match body.strip_prefix('\\') {
        None => match body.as_bytes() {
            [byte] => u32::from(*byte),
            _ => {
                return Err(CError::unsupported(
                    format!("the multi-character constant {text}"),
                    at,
                ))
            }
        },
        Some(escape) => match escape.as_bytes() {
            [b'x', digits @ ..] if !digits.is_empty() => {
                u32::from_str_radix(&escape[1..], 16).map_err(|_| invalid())?
            }
            [b'0'..=b'7', ..] if escape.len() <= 3 => {
                u32::from_str_radix(escape, 8).map_err(|_| invalid())?
            }
            [simple] => match simple {
                b'\'' | b'"' | b'?' | b'\\' => u32::from(*simple),
                b'a' => 7,
                b'b' => 8,
                b'f' => 12,
                b'n' => 10,
                b'r' => 13,
                b't' => 9,
                b'v' => 11,
                _ => return Err(invalid()),
            },
            _ => return Err(invalid()),
        },
    };
    match u8::try_from(byte) {
        Ok(byte) => Ok(i32::from(byte as i8)),
        Err(_) => Err(CError::invalid(
            format!("the character constant {text} is outside the range of `char`"),
            at,
        )),
    }
}
