//! The errors that stop an engine before it can produce a report.
//!
//! Everything a search can meet inside a well-typed program (bounds, limits, solver `unknown`s,
//! unconfirmed counterexamples) ends up in the report instead; these errors are for what makes
//! a report impossible. Nothing here decides verdicts.

use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    /// No function of that name.
    UnknownEntry(String),
    /// The entry function has a parameter the engine cannot make symbolic.
    UnsupportedEntry {
        function: String,
        parameter: String,
        reason: String,
    },
    /// The requested target does not exist (`--reach` on a line without a statement).
    BadTarget(String),
    /// The solver could not be started or failed outright (not an `unknown` answer).
    Solver(String),
    /// The program did something the engine cannot represent (a value of the wrong shape: an
    /// ill-typed program slipped through, or an engine bug).
    Internal(String),
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::UnknownEntry(name) => write!(f, "no function named `{name}` to analyse"),
            EngineError::UnsupportedEntry {
                function,
                parameter,
                reason,
            } => write!(
                f,
                "cannot analyse `{function}` from its parameter `{parameter}`: {reason}"
            ),
            EngineError::BadTarget(message) => f.write_str(message),
            EngineError::Solver(message) => write!(f, "solver error: {message}"),
            EngineError::Internal(message) => write!(f, "internal error in the engine: {message}"),
        }
    }
}

impl std::error::Error for EngineError {}

impl From<symex_smt::SolverError> for EngineError {
    fn from(e: symex_smt::SolverError) -> EngineError {
        EngineError::Solver(e.to_string())
    }
}

impl From<symex_smt::TermError> for EngineError {
    fn from(e: symex_smt::TermError) -> EngineError {
        EngineError::Internal(format!("term construction failed: {e}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_name_what_went_wrong() {
        let e = EngineError::UnsupportedEntry {
            function: "swap".into(),
            parameter: "n".into(),
            reason: "not supported yet: input heaps come with the heap engines".into(),
        };
        assert_eq!(
            e.to_string(),
            "cannot analyse `swap` from its parameter `n`: not supported yet: input heaps come with the heap engines"
        );
        assert_eq!(
            EngineError::UnknownEntry("f".into()).to_string(),
            "no function named `f` to analyse"
        );
    }
}
