//! Undefined behaviour on a counterexample. Under `unreach-call` and `valid-memsafety` the
//! program is lowered without the `overflow` checks, so signed arithmetic wraps around; C
//! leaves an overflow undefined (C11 6.5p5), and SV-COMP's tasks assume none. A counterexample
//! that reaches the error only through one is no `FALSE`: SV-COMP dropped `unreach-call` from
//! tasks whose error needs one (`loop-zilu/benchmark01_conjunctive`, whose `y` doubles until
//! it wraps below 1), and a gcc build may well never reach it. This module replays a
//! counterexample's inputs on the program lowered with the `overflow` checks and says where it
//! overflows, if it does before the violation. Nothing here searches.

use std::time::Instant;

use symex_interp::RunEnd;
use symex_ir::cfg::PropertyKind;
use symex_report::{Report, Verdict};
use symex_syntax::span::LineIndex;

use super::{rerun, translate};
use crate::commands::FrontendArgs;
use crate::source::SourceFile;

/// What the replay with the `overflow` checks found on a counterexample's way.
pub(super) enum OnTheWay {
    /// A signed overflow, at `line:column`.
    Overflow(String),
    /// The replay could not tell (the reason).
    Undecided(String),
}

impl std::fmt::Display for OnTheWay {
    /// What the counterexample has, as a sentence's predicate.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OnTheWay::Overflow(at) => {
                write!(f, "has a signed overflow at {at} (undefined behaviour)")
            }
            OnTheWay::Undecided(why) => write!(f, "could not be checked for overflows ({why})"),
        }
    }
}

/// Whether the counterexample of the violated `target` check of `report` (a run of `file`
/// lowered with `frontend`, without the `overflow` checks) overflows on its way; `None` if
/// the program has no `overflow` check that can fail (no replay is needed: `unsigned`
/// arithmetic only, or operations on constants), or if its replay with the checks reaches the
/// violation or ends without one. The replay runs until `deadline` at most (as `symex
/// check`'s own: a summarized loop's counterexample may take seconds); one that cannot tell
/// (the deadline stops it, the interpreter refuses) answers as an overflow would, with the
/// reason.
pub(super) fn overflow_on_the_way(
    file: &SourceFile,
    frontend: FrontendArgs,
    report: &Report,
    target: PropertyKind,
    deadline: Instant,
) -> Option<OnTheWay> {
    let inputs = report.properties().iter().find_map(|p| match &p.verdict {
        Verdict::Violated(cex) if p.kind == target => Some(cex.witness().inputs.clone()),
        _ => None,
    })?;
    let checked = FrontendArgs {
        signed_overflow: true,
        ..frontend
    };
    let Some(lowered) = translate(file, checked) else {
        let why = "the program with overflow checks is outside the supported subset";
        return Some(OnTheWay::Undecided(why.into()));
    };
    let module = &lowered.module;
    let can_overflow = (module.properties.iter())
        .zip(module.infallible_properties())
        .any(|(p, infallible)| p.kind == PropertyKind::Overflow && !infallible);
    if !can_overflow {
        return None;
    }
    let end = match rerun::run(&lowered, rerun::Given::Numbers(&inputs), deadline) {
        Ok((end, _)) => end,
        Err(why) => {
            return Some(OnTheWay::Undecided(format!(
                "the interpreter refused: {why}"
            )))
        }
    };
    match end {
        RunEnd::RuntimeError {
            kind: PropertyKind::Overflow,
            span,
            ..
        } => {
            let at = LineIndex::new(&file.text).line_col(span.start);
            Some(OnTheWay::Overflow(format!("{}:{}", at.line, at.column)))
        }
        RunEnd::LimitExceeded { limit, .. } => Some(OnTheWay::Undecided(format!(
            "its replay stopped at the {limit:?} limit"
        ))),
        _ => None,
    }
}
