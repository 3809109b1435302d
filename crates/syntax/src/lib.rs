//! The micro-c front end: source text in, a checked and typed AST out, or located diagnostics.
//!
//! Pipeline: [`lexer`] → [`parser`] (with error recovery) → [`resolve`] (names and placement rules)
//! → [`types`] (unification-based inference with recursive types). Each stage returns all the
//! diagnostics it can find rather than stopping at the first. Nothing here panics on any input,
//! and recursion depth is bounded by [`parser::MAX_NESTING`].

pub mod ast;
pub mod diag;
pub mod lexer;
pub mod parser;
pub mod resolve;
pub mod span;
pub mod types;

use ast::Program;
use diag::Diagnostic;
use types::TypeTable;

/// A program that parsed and resolved; `types` is `Err` with the type errors if inference failed.
#[derive(Debug)]
pub struct Frontend {
    pub program: Program,
    pub types: Result<TypeTable, Vec<Diagnostic>>,
}

/// Parses and resolves `text`. Syntax and resolution errors are fatal (returned as `Err`, in
/// source order); type errors are not, because the concrete interpreter runs ill-typed programs
/// (microc.md "Types"): callers that analyse must reject `types: Err(..)` themselves.
pub fn analyze(text: &str) -> Result<Frontend, Vec<Diagnostic>> {
    analyze_for_entry(text, "main")
}

/// [`analyze`] for a run that starts at `entry`: a program without `main` is accepted when
/// `entry` is another function (whether that function exists is the caller's check).
pub fn analyze_for_entry(text: &str, entry: &str) -> Result<Frontend, Vec<Diagnostic>> {
    let (program, mut errors) = parser::parse(text);
    let parsed_whole = errors.is_empty();
    errors.extend(resolve::check(&program, entry, parsed_whole));
    if !errors.is_empty() {
        errors.sort_by_key(|d| (d.primary.span.start, d.primary.span.end));
        return Err(errors);
    }
    let types = types::infer(&program);
    Ok(Frontend { program, types })
}
