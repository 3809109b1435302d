//! A report read as SV-COMP's answer for the property `unreach-call` ("no call of
//! `reach_error` is reachable"): `TRUE`, `FALSE` or `UNKNOWN` with the reason.
//!
//! The C front end makes every call of an error function an `assert` check that always fails,
//! so `FALSE` is a confirmed violation of an `assert` property (replayed like every
//! counterexample). `TRUE` needs more than every `assert` being safe: a failing check of another
//! kind (an uninitialized read, a division by zero) ends the paths it fails on, so a call beyond
//! it was never explored; `TRUE` is said only when every property of the program is `safe`.
//! Nothing here runs an engine.

use std::fmt;

use symex_ir::cfg::PropertyKind;

use crate::report::Report;
use crate::verdict::Verdict;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SvVerdict {
    True,
    False,
    Unknown(String),
}

impl fmt::Display for SvVerdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SvVerdict::True => f.write_str("TRUE"),
            SvVerdict::False => f.write_str("FALSE"),
            SvVerdict::Unknown(why) => write!(f, "UNKNOWN ({why})"),
        }
    }
}

/// The `unreach-call` answer of a report of a C program.
pub fn unreach_call(report: &Report) -> SvVerdict {
    let properties = report.properties();
    if properties
        .iter()
        .any(|p| p.kind == PropertyKind::Assert && matches!(p.verdict, Verdict::Violated(_)))
    {
        return SvVerdict::False;
    }
    match properties
        .iter()
        .find(|p| !matches!(p.verdict, Verdict::Safe))
    {
        None => SvVerdict::True,
        Some(p) => {
            let what = match &p.verdict {
                Verdict::Violated(_) => "is violated, which cuts the paths through it".to_string(),
                other => format!("is {}", other.reason().unwrap_or("not proved safe")),
            };
            SvVerdict::Unknown(format!(
                "the {} property at {}:{} {what}",
                p.kind.name(),
                p.line,
                p.column
            ))
        }
    }
}
