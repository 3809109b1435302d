//! One module per subcommand; shared steps (load, analyse, report front-end errors) live here.

pub mod bench;
pub mod cfg;
pub mod check;
pub mod gen;
pub mod run;
pub mod types;

use crate::exit::Exit;
use crate::source::{self, ColorChoice, SourceFile};
use symex_syntax::diag::Diagnostic;
use symex_syntax::Frontend;

/// The program file argument shared by commands that take nothing else.
#[derive(clap::Args)]
pub struct FileArg {
    /// The micro-c program (`.uc`).
    pub file: String,
}

/// Loads and analyses a program. On failure the errors are printed and the exit code returned.
/// Type errors are left in `Frontend::types` for the caller to judge.
pub fn load_and_analyze(path: &str, color: ColorChoice) -> Result<(SourceFile, Frontend), Exit> {
    let file = load(path)?;
    let frontend = analyze(&file, color)?;
    Ok((file, frontend))
}

/// Loads a program file; a file that cannot be read is reported and ends in
/// [`Exit::ProgramError`].
pub fn load(path: &str) -> Result<SourceFile, Exit> {
    source::load(path).map_err(|message| {
        eprintln!("error: {message}");
        Exit::ProgramError
    })
}

/// Analyses a loaded program; syntax and name errors are printed and end in
/// [`Exit::ProgramError`]. Type errors are left in `Frontend::types` for the caller to judge.
pub fn analyze(file: &SourceFile, color: ColorChoice) -> Result<Frontend, Exit> {
    symex_syntax::analyze(&file.text).map_err(|errors| {
        file.emit(&errors, color);
        Exit::ProgramError
    })
}

/// Prints type errors as warnings: for commands that work on ill-typed programs too.
pub fn warn_type_errors(file: &SourceFile, frontend: &Frontend, color: ColorChoice) {
    if let Err(errors) = &frontend.types {
        let warnings: Vec<Diagnostic> = errors
            .iter()
            .cloned()
            .map(|d| Diagnostic {
                severity: symex_syntax::diag::Severity::Warning,
                ..d
            })
            .collect();
        file.emit(&warnings, color);
    }
}
