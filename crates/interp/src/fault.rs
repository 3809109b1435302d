//! Why execution stopped before a normal return, as seen from inside one instruction.
//!
//! A [`Fault`] carries no source location: the execution loop knows which instruction was running
//! and turns the fault into a public [`crate::RunEnd`] with that instruction's span (or, for a
//! failed property, the property's span).

use symex_ir::cfg::PropId;

use crate::config::Limit;
use crate::value::Value;

#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Fault {
    /// A `Check` failed.
    Property(PropId),
    AssumeFailed,
    /// A dynamic type mismatch, with a message for the user.
    Type(String),
    /// The IR broke its own invariants (see [`crate::RunEnd::IrInvariant`]).
    Invariant(String),
    Limit(Limit),
}

/// The fault for an operand of the wrong kind: a type error, or, for an uninitialized value that
/// no `Check::Init` guarded, an IR invariant violation.
pub(crate) fn mismatch(found: &Value, context: impl FnOnce() -> String) -> Fault {
    match found {
        Value::Uninit => Fault::Invariant(format!(
            "{} found an uninitialized value that no initialization check guarded",
            context()
        )),
        _ => Fault::Type(format!("{}, found {}", context(), found.kind_name())),
    }
}

/// Whether the number in `value`, of either width, is non-zero, or the type fault for `what`
/// (a condition, an assertion).
pub(crate) fn expect_truth(value: &Value, what: &str) -> Result<bool, Fault> {
    match *value {
        Value::Int(n) => Ok(n != 0),
        Value::Int64(n) => Ok(n != 0),
        ref other => Err(mismatch(other, || format!("{what} expects a number"))),
    }
}

/// The 32-bit number in `value`, or the type fault for `what` ("an array index", "`+`" ...).
pub(crate) fn expect_int(value: &Value, what: &str) -> Result<i32, Fault> {
    match *value {
        Value::Int(n) => Ok(n),
        ref other => Err(mismatch(other, || format!("{what} expects a number"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uninit_is_an_invariant_violation_other_kinds_type_errors() {
        assert_eq!(expect_int(&Value::Int(4), "x"), Ok(4));
        assert_eq!(
            expect_int(&Value::Null, "the condition"),
            Err(Fault::Type(
                "the condition expects a number, found null".into()
            ))
        );
        assert!(matches!(
            expect_int(&Value::Uninit, "output"),
            Err(Fault::Invariant(_))
        ));
    }
}
