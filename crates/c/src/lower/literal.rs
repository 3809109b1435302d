//! C's literals as values: integer constants typed by C's rule, and character constants.
//! Pure functions of the literal's text; nothing here emits IR.

use lang_c::ast::{Constant, IntegerBase, IntegerSize};

use super::types::CType;
use crate::error::CError;

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
/// types, then the `long long` ones; `long` has 32 bits in ILP32). The value is the type's: an
/// `unsigned long long` above `i64::MAX` comes as its bits.
pub(super) fn integer_constant(
    constant: &Constant,
    model: crate::DataModel,
    at: usize,
) -> Result<(i64, CType), CError> {
    let integer = match constant {
        Constant::Integer(integer) => integer,
        Constant::Float(_) => {
            return Err(CError::unsupported("floating-point constants", at));
        }
        Constant::Character(text) => {
            return Ok((i64::from(character_constant(text, at)?), CType::Int))
        }
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
    Ok((value as i64, ty))
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
        Some(escape) => escape_value(escape).ok_or_else(invalid)?,
    };
    match u8::try_from(byte) {
        Ok(byte) => Ok(i32::from(byte as i8)),
        Err(_) => Err(CError::invalid(
            format!("the character constant {text} is outside the range of `char`"),
            at,
        )),
    }
}

/// The value of the escape sequence `escape` (after its backslash): `x41`, `101`, `n`, ...
fn escape_value(escape: &str) -> Option<u32> {
    match escape.as_bytes() {
        [b'x', digits @ ..] if !digits.is_empty() => u32::from_str_radix(&escape[1..], 16).ok(),
        [b'0'..=b'7', ..] if escape.len() <= 3 => u32::from_str_radix(escape, 8).ok(),
        [simple] => match simple {
            b'\'' | b'"' | b'?' | b'\\' => Some(u32::from(*simple)),
            b'a' => Some(7),
            b'b' => Some(8),
            b'f' => Some(12),
            b'n' => Some(10),
            b'r' => Some(13),
            b't' => Some(9),
            b'v' => Some(11),
            _ => None,
        },
        _ => None,
    }
}

/// The bytes of a string literal (its adjacent parts joined, each as the parser keeps it, in
/// quotes) followed by the terminating 0. Wide and UTF-8 prefixed literals are refused.
pub(super) fn string_bytes(parts: &[String], at: usize) -> Result<Vec<u8>, CError> {
    let mut bytes = Vec::new();
    for part in parts {
        let Some(body) = part.strip_prefix('"').and_then(|p| p.strip_suffix('"')) else {
            return Err(CError::unsupported(
                format!("the prefixed string literal {part}"),
                at,
            ));
        };
        let invalid = || CError::invalid(format!("the string literal {part}"), at);
        let mut rest = body;
        while let Some(c) = rest.chars().next() {
            if c != '\\' {
                let mut buf = [0; 4];
                bytes.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                rest = &rest[c.len_utf8()..];
                continue;
            }
            let after = &rest[1..];
            // Hexadecimal escapes take every hex digit; octal ones at most three digits.
            let len = match after.as_bytes().first() {
                Some(b'x') => 1 + after[1..].bytes().take_while(u8::is_ascii_hexdigit).count(),
                Some(b'0'..=b'7') => after
                    .bytes()
                    .take(3)
                    .take_while(|b| (b'0'..=b'7').contains(b))
                    .count(),
                Some(_) => after.chars().next().map_or(1, char::len_utf8),
                None => return Err(invalid()),
            };
            let value = escape_value(&after[..len]).ok_or_else(invalid)?;
            bytes.push(u8::try_from(value).map_err(|_| invalid())?);
            rest = &after[len..];
        }
    }
    bytes.push(0);
    Ok(bytes)
}
