//! The error types of the solver layer.
//!
//! [`TermError`] reports an ill-formed term (wrong sorts, unsupported widths, an identifier from
//! another store); [`SolverError`] reports a failure to talk to a solver or to use it correctly.
//! Neither is used for solver *answers*: `unknown` and time-outs are results
//! ([`crate::SatResult::Unknown`]), never errors. This module must not panic or print.

use std::fmt;

/// Why a term could not be built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TermError {
    /// An operator got an argument of the wrong sort.
    Sort {
        /// The operator (SMT-LIB name).
        op: &'static str,
        /// What it needed.
        expected: String,
        /// What it got.
        found: String,
    },
    /// A bit-vector width outside `1..=MAX_BV_WIDTH`.
    Width {
        /// What was being built.
        what: &'static str,
        /// The width asked for.
        width: u64,
    },
    /// An extract whose bounds do not fit the argument.
    Extract {
        /// High bit.
        hi: u32,
        /// Low bit.
        lo: u32,
        /// Width of the argument.
        width: u32,
    },
    /// A term or sort identifier that this store never handed out.
    Unknown(String),
    /// An n-ary operator called with too few arguments.
    Arity {
        /// The operator.
        op: &'static str,
        /// The minimum number of arguments.
        min: usize,
        /// How many it got.
        found: usize,
    },
}

impl fmt::Display for TermError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TermError::Sort {
                op,
                expected,
                found,
            } => {
                write!(f, "ill-sorted `{op}`: expected {expected}, found {found}")
            }
            TermError::Width { what, width } => write!(
                f,
                "{what}: bit-vector width {width} is not supported (widths 1..={} are)",
                crate::bv::MAX_BV_WIDTH
            ),
            TermError::Extract { hi, lo, width } => write!(
                f,
                "extract [{hi}:{lo}] does not fit a bit-vector of width {width}"
            ),
            TermError::Unknown(what) => write!(f, "{what} does not belong to this term store"),
            TermError::Arity { op, min, found } => {
                write!(f, "`{op}` needs at least {min} arguments, got {found}")
            }
        }
    }
}

impl std::error::Error for TermError {}

/// Why a term could not be evaluated under an assignment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EvalError {
    /// A variable of the term has no value in the assignment.
    Unassigned(String),
    /// A variable's value does not have the variable's sort.
    WrongSort {
        /// The variable's display name.
        var: String,
        /// Its sort (SMT-LIB text).
        sort: String,
    },
    /// Integer arithmetic left the `i128` range.
    Overflow(&'static str),
    /// The term is not from this store or is ill-formed.
    Term(String),
}

impl fmt::Display for EvalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EvalError::Unassigned(v) => write!(f, "variable `{v}` has no value"),
            EvalError::WrongSort { var, sort } => {
                write!(f, "the value of `{var}` is not of sort {sort}")
            }
            EvalError::Overflow(op) => write!(f, "integer overflow in `{op}` (beyond i128)"),
            EvalError::Term(m) => write!(f, "cannot evaluate: {m}"),
        }
    }
}

impl std::error::Error for EvalError {}

/// Why a solver operation failed. Solver answers (`unknown`, time-outs) are not errors.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolverError {
    /// The solver program could not be started (missing binary, permissions, ...).
    Spawn {
        /// The program that was run.
        program: String,
        /// What the operating system said.
        message: String,
    },
    /// A term was ill-formed or came from another store.
    Term(TermError),
    /// The solver was used with a term store other than the one it started with.
    ForeignStore,
    /// `pop` with no matching `push`.
    PopEmpty,
    /// A model was asked for when the last check did not answer `sat`.
    NoModel,
    /// The solver answered something that cannot be turned into a value or an answer.
    Protocol(String),
    /// The in-process Z3 library reported an error.
    Z3(String),
    /// A query could not be dumped to disk.
    Dump(String),
}

impl fmt::Display for SolverError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolverError::Spawn { program, message } => write!(
                f,
                "cannot start the SMT solver `{program}`: {message} (is `{program}` installed and on PATH?)"
            ),
            SolverError::Term(e) => write!(f, "{e}"),
            SolverError::ForeignStore => {
                write!(f, "a solver must be used with the one term store it started with")
            }
            SolverError::PopEmpty => write!(f, "pop without a matching push"),
            SolverError::NoModel => write!(f, "no model: the last check did not answer sat"),
            SolverError::Protocol(m) => write!(f, "unexpected solver output: {m}"),
            SolverError::Z3(m) => write!(f, "Z3 error: {m}"),
            SolverError::Dump(m) => write!(f, "cannot dump query: {m}"),
        }
    }
}

impl std::error::Error for SolverError {}

impl From<TermError> for SolverError {
    fn from(e: TermError) -> Self {
        SolverError::Term(e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_name_the_problem() {
        let e = SolverError::Spawn {
            program: "cvc5".into(),
            message: "No such file or directory".into(),
        };
        assert!(e.to_string().contains("`cvc5`"));
        let w = TermError::Width {
            what: "bit-vector sort",
            width: 300,
        };
        assert!(w.to_string().contains("300"));
        assert!(w.to_string().contains("128"));
    }
}
