//! Running the `symex` binary of this build from a test: colors off, output captured. Shared by
//! the CLI test files (`#[path = "support/run.rs"] mod run;`).

use std::process::{Command, Output};

/// `symex ARGS...`, waited for.
pub fn symex(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_symex"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("the symex binary runs")
}
