//! How reports name and describe the property kinds.
//!
//! The JSON name is the IR's [`PropertyKind::name`] (`assert`, `div-by-zero`, ...), shared with the
//! corpus headers; the phrases here are for human text. Nothing here decides a verdict.

use serde::{Deserialize, Deserializer, Serializer};
use symex_ir::cfg::PropertyKind;

/// What goes wrong when the property fails, as a noun phrase ("division by zero").
pub fn failure(kind: PropertyKind) -> &'static str {
    match kind {
        PropertyKind::Assert => "assertion failure",
        PropertyKind::DivByZero => "division by zero",
        PropertyKind::NullDeref => "null dereference",
        PropertyKind::OutOfBounds => "index out of bounds",
        PropertyKind::Uninit => "read of an uninitialized variable",
        PropertyKind::Reach => "execution of the target line (reached)",
        PropertyKind::ShiftOutOfRange => "shift by a negative amount or by the width or more",
        PropertyKind::Overflow => "signed integer overflow",
        PropertyKind::Unmodelled => "a value or an operation outside what symex models",
        PropertyKind::UseAfterFree => "use of freed memory",
        PropertyKind::UseAfterReturn => "use of a local variable after its function returned",
        PropertyKind::InvalidPointer => "access through a pointer to no object",
        PropertyKind::InvalidFree => "invalid free",
        PropertyKind::LiteralWrite => "write into a string literal",
        PropertyKind::MemoryLeak => "memory leak",
    }
}

/// What the failing construct does on the counterexample's path (a diagnostic's label).
pub fn label(kind: PropertyKind) -> &'static str {
    match kind {
        PropertyKind::Assert => "this assertion fails",
        PropertyKind::DivByZero => "the divisor is zero here",
        PropertyKind::NullDeref => "this pointer is null here",
        PropertyKind::OutOfBounds => "this index is out of bounds here",
        PropertyKind::Uninit => "this is read before it is assigned",
        PropertyKind::Reach => "this line is executed",
        PropertyKind::ShiftOutOfRange => "the shift amount is out of range here",
        PropertyKind::Overflow => "the result does not fit its signed type here",
        PropertyKind::Unmodelled => "this value or operation leaves what symex models",
        PropertyKind::UseAfterFree => "this object was freed before",
        PropertyKind::UseAfterReturn => "this variable's function returned before",
        PropertyKind::InvalidPointer => {
            "this pointer was made from an integer and points to no object"
        }
        PropertyKind::InvalidFree => "this pointer is not to a live heap object",
        PropertyKind::LiteralWrite => "this writes into a string literal, which is read-only",
        PropertyKind::MemoryLeak => "heap memory is still allocated here and nothing can reach it",
    }
}

/// Serde adapter: a [`PropertyKind`] as its report name.
pub(crate) mod serde_name {
    use super::*;

    pub fn serialize<S: Serializer>(kind: &PropertyKind, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(kind.name())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<PropertyKind, D::Error> {
        let name = String::deserialize(d)?;
        parse(&name).map_err(serde::de::Error::custom)
    }
}

/// The kind called `name`, or a message listing the valid names.
pub(crate) fn parse(name: &str) -> Result<PropertyKind, String> {
    PropertyKind::from_name(name).ok_or_else(|| {
        let names: Vec<&str> = PropertyKind::ALL.iter().map(|k| k.name()).collect();
        format!(
            "unknown property kind `{name}` (expected one of: {})",
            names.join(", ")
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_parses_back_from_its_name() {
        for kind in PropertyKind::ALL {
            assert_eq!(parse(kind.name()), Ok(kind));
            assert!(!failure(kind).is_empty() && !label(kind).is_empty());
        }
        assert!(parse("overflows").unwrap_err().contains("div-by-zero"));
    }
}
