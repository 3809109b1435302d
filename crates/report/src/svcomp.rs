//! A report read as SV-COMP's answer for one property: `TRUE`, `FALSE` or `UNKNOWN` with the
//! reason. `unreach-call` ("no call of `reach_error` is reachable") is the `assert` kind: the C
//! front end makes every call of an error function an `assert` check that always fails.
//! `no-overflow` is the `overflow` kind, which the front end checks on request; `valid-deref`
//! (of `valid-memsafety`) the `null-deref` and `out-of-bounds` kinds.
//!
//! `FALSE` is a confirmed violation of one of the property's kinds (replayed like every
//! counterexample). `TRUE` needs more than every check of that kind being safe: a failing check
//! of another kind (an uninitialized read, a division by zero) ends the paths it fails on, so a
//! violation beyond it was never explored; `TRUE` is said only when every property of the
//! program is `safe`. Nothing here runs an engine.

use std::fmt;

use symex_ir::cfg::PropertyKind;

use crate::property::PropertyReport;
use crate::report::Report;
use crate::verdict::Verdict;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SvVerdict {
    True,
    /// A confirmed violation of a check of this kind.
    False(PropertyKind),
    Unknown(String),
}

impl fmt::Display for SvVerdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SvVerdict::True => f.write_str("TRUE"),
            SvVerdict::False(_) => f.write_str("FALSE"),
            SvVerdict::Unknown(why) => write!(f, "UNKNOWN ({why})"),
        }
    }
}

/// The answer, from a report of a C program, for the property whose violations are the checks
/// of the `targets` kinds (`assert` for `unreach-call`, `overflow` for `no-overflow`). The
/// first violated one in the report's order answers, except that a `memory-leak` (found where
/// `main` returns, after whatever else its run does) answers only when nothing else is violated.
pub fn answer(report: &Report, targets: &[PropertyKind]) -> SvVerdict {
    let properties = report.properties();
    let violated = |p: &&PropertyReport| {
        targets.contains(&p.kind) && matches!(p.verdict, Verdict::Violated(_))
    };
    if let Some(p) = properties
        .iter()
        .filter(violated)
        .min_by_key(|p| p.kind == PropertyKind::MemoryLeak)
    {
        return SvVerdict::False(p.kind);
    }
    // The reason names the property that stands in the way: a run that left what symex
    // models first (it makes the others unknown too), then one of the answer's own kinds.
    let rank = |p: &&PropertyReport| match p.kind {
        PropertyKind::Unmodelled => 0,
        kind if targets.contains(&kind) => 1,
        _ => 2,
    };
    match properties
        .iter()
        .filter(|p| !matches!(p.verdict, Verdict::Safe))
        .min_by_key(rank)
    {
        None => SvVerdict::True,
        Some(p) => {
            let what = match &p.verdict {
                Verdict::Violated(_) => "is violated, which cuts the paths through it".to_string(),
                other => match other.reason() {
                    Some(reason) => format!("is {}: {reason}", other.status().name()),
                    None => "is not proved safe".to_string(),
                },
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::property::PropertyReport;
    use crate::sample;

    /// The sample report's properties that `keep` selects, as a report of their own.
    fn report_with(keep: impl Fn(&PropertyReport) -> bool) -> Report {
        let sample = sample::report();
        let props: Vec<PropertyReport> = sample
            .properties()
            .iter()
            .filter(|p| keep(p))
            .cloned()
            .collect();
        Report::new(sample::FILE, "forward", "g", props, sample.stats.clone())
    }

    #[test]
    fn a_violation_of_the_kind_is_false_and_of_another_kind_is_unknown() {
        let report = report_with(|p| p.kind == PropertyKind::DivByZero);
        assert_eq!(
            answer(&report, &[PropertyKind::DivByZero]),
            SvVerdict::False(PropertyKind::DivByZero)
        );
        match answer(&report, &[PropertyKind::Assert]) {
            SvVerdict::Unknown(why) => assert!(why.contains("div-by-zero"), "{why}"),
            other => panic!("expected UNKNOWN, got {other}"),
        }
    }

    #[test]
    fn true_needs_every_property_safe() {
        let safe = report_with(|p| matches!(p.verdict, Verdict::Safe));
        assert_eq!(answer(&safe, &[PropertyKind::Overflow]), SvVerdict::True);
        assert_eq!(answer(&safe, &[PropertyKind::Assert]), SvVerdict::True);
        // `safe up to K` is not `safe`.
        let bounded = report_with(|p| p.kind == PropertyKind::Assert);
        assert!(matches!(
            answer(&bounded, &[PropertyKind::Assert]),
            SvVerdict::Unknown(_)
        ));
    }
}
