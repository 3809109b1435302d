//! The documented exit codes of `symex` (see `docs/exit-codes.md`); one place so they stay distinct
//! and the same across commands.

/// How a `symex` invocation ended, as seen by the shell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// The command did its job (for `run`: the program returned normally).
    Success = 0,
    /// The program was rejected: unreadable or non-UTF-8 file, syntax, name or type errors.
    ProgramError = 1,
    /// Bad command line (unknown option, malformed value); clap uses this code too.
    Usage = 2,
    /// `run`: the program stopped with a runtime error (assert, div-by-zero, null-deref,
    /// out-of-bounds, uninit).
    RuntimeError = 3,
    /// `run`: an `assume` failed, so the input is outside the program's precondition.
    AssumeFailed = 4,
    /// `run`: the run stopped without a property error: a runtime type error (the interpreter
    /// is dynamically typed) or a call-depth, memory or step limit.
    Aborted = 5,
    /// `check`: a confirmed violation was found.
    Violation = 10,
    /// `check`: no violation, but a bound, timeout or approximation cut the search, so some
    /// property is `safe-up-to K` or `unknown`.
    Inconclusive = 20,
    /// Memory ran out faster than the memory limit could stop the check: an allocation failed,
    /// so no report was written (`allocator.rs`).
    OutOfMemory = 30,
    /// A bug in symex (as Rust's own exit code for a panic), e.g. a counterexample that the
    /// interpreter does not reproduce.
    Internal = 101,
}

impl From<symex_report::ExitClass> for Exit {
    fn from(class: symex_report::ExitClass) -> Exit {
        match class {
            symex_report::ExitClass::AllSafe => Exit::Success,
            symex_report::ExitClass::Violation => Exit::Violation,
            symex_report::ExitClass::Inconclusive => Exit::Inconclusive,
            symex_report::ExitClass::InternalError => Exit::Internal,
        }
    }
}

impl Exit {
    pub fn code(self) -> i32 {
        self as i32
    }
}
