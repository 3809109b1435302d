//! A whole report: which program, engine and entry were checked, every property's verdict in a
//! fixed order, the statistics, and the exit class `symex check` ends with.
//!
//! [`Report::new`] sorts the properties (by source position), so every renderer prints them in the
//! same order whatever order the engine found them in. Nothing here renders or exits.

use serde::Serialize;

use symex_ir::cfg::PropertyKind;
use symex_syntax::span::Span;

use crate::property::PropertyReport;
use crate::stats::Stats;
use crate::verdict::{Status, Verdict};

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Report {
    /// The program's file name as given on the command line.
    pub program: String,
    /// The engine's `--engine` name.
    pub engine: String,
    /// The entry function's name.
    pub entry: String,
    /// The front end's options that change the program's meaning (`--signed-overflow`,
    /// `--data-model ilp32`), as command-line words: `replay:` lines repeat them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub frontend: Vec<String>,
    properties: Vec<PropertyReport>,
    pub stats: Stats,
}

/// How many properties got each verdict; `internal_errors` are the unconfirmed counterexamples
/// (their status is `unknown`, but they are not counted in `unknown`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub violated: usize,
    pub safe: usize,
    pub safe_up_to: usize,
    pub unknown: usize,
    pub internal_errors: usize,
}

impl Counts {
    pub fn total(&self) -> usize {
        self.violated + self.safe + self.safe_up_to + self.unknown + self.internal_errors
    }
}

/// Which documented exit code `symex check` ends with (`docs/exit-codes.md`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ExitClass {
    /// 0: every property is `safe` (or there are none).
    AllSafe,
    /// 10: some property is `violated`.
    Violation,
    /// 20: no violation, but some property is `safe-up-to` or `unknown`.
    Inconclusive,
    /// 101: an engine claimed a counterexample the interpreter does not reproduce (a bug in
    /// symex). It wins over a violation, so a script cannot mistake a broken run for a result.
    InternalError,
}

impl ExitClass {
    pub fn code(self) -> i32 {
        match self {
            ExitClass::AllSafe => 0,
            ExitClass::Violation => 10,
            ExitClass::Inconclusive => 20,
            ExitClass::InternalError => 101,
        }
    }
}

impl Report {
    /// A report; the properties are sorted into report order.
    pub fn new(
        program: impl Into<String>,
        engine: impl Into<String>,
        entry: impl Into<String>,
        mut properties: Vec<PropertyReport>,
        stats: Stats,
    ) -> Report {
        properties.sort_by(|a, b| a.order_key().cmp(&b.order_key()));
        let mut properties = merge_copies(properties);
        limit_to_modelled_runs(&mut properties);
        Report {
            program: program.into(),
            engine: engine.into(),
            entry: entry.into(),
            frontend: Vec::new(),
            properties,
            stats,
        }
    }

    /// The properties, by source position.
    pub fn properties(&self) -> &[PropertyReport] {
        &self.properties
    }

    pub fn counts(&self) -> Counts {
        let mut counts = Counts::default();
        for p in &self.properties {
            let slot = match (&p.verdict, p.verdict.status()) {
                (Verdict::Unconfirmed(_), _) => &mut counts.internal_errors,
                (_, Status::Violated) => &mut counts.violated,
                (_, Status::Safe) => &mut counts.safe,
                (_, Status::SafeUpTo) => &mut counts.safe_up_to,
                (_, Status::Unknown) => &mut counts.unknown,
            };
            *slot += 1;
        }
        counts
    }

    pub fn exit_class(&self) -> ExitClass {
        let counts = self.counts();
        if counts.internal_errors > 0 {
            ExitClass::InternalError
        } else if counts.violated > 0 {
            ExitClass::Violation
        } else if counts.safe_up_to + counts.unknown > 0 {
            ExitClass::Inconclusive
        } else {
            ExitClass::AllSafe
        }
    }
}

/// One property per source position and kind (`properties` in report order): a check the
/// program has once may be several checks of the IR (an inlined function's at each call under
/// `--inline-calls`, a unit of several bytes read through a view checked at each byte). The
/// property is broken where any copy is, so the copy with the gravest verdict stands for it:
/// an internal error, then a violation, `unknown`, `safe up to` the smallest bound, `safe`.
fn merge_copies(properties: Vec<PropertyReport>) -> Vec<PropertyReport> {
    let mut out: Vec<PropertyReport> = Vec::with_capacity(properties.len());
    for property in properties {
        match out.last_mut() {
            Some(last)
                if (last.line, last.column, last.kind)
                    == (property.line, property.column, property.kind) =>
            {
                if gravity(&property.verdict) > gravity(&last.verdict) {
                    *last = property;
                }
            }
            _ => out.push(property),
        }
    }
    out
}

/// How grave a verdict is, for [`merge_copies`] (a smaller bound is graver).
fn gravity(verdict: &Verdict) -> (u8, std::cmp::Reverse<u32>) {
    match verdict {
        Verdict::Safe => (0, std::cmp::Reverse(0)),
        Verdict::SafeUpTo { bound, .. } => (1, std::cmp::Reverse(*bound)),
        Verdict::Unknown { .. } => (2, std::cmp::Reverse(0)),
        Verdict::Violated(_) => (3, std::cmp::Reverse(0)),
        Verdict::Unconfirmed(_) => (4, std::cmp::Reverse(0)),
    }
}

/// The rule for [`PropertyKind::Unmodelled`] checks: a run that fails one has left what the
/// front end models (a 64-bit value outside 32 bits, `free` of a pointer into an object) and was not followed further, so it is no
/// violation of the program, and a property no violation was found for may be broken on the
/// part of that run that was cut: `unknown`. A property some run violates before leaving the
/// range keeps its counterexample (the values up to it were exact).
fn limit_to_modelled_runs(properties: &mut [PropertyReport]) {
    let Some(leaves) = first_left(properties).map(|p| p.line) else {
        return;
    };
    for p in properties.iter_mut() {
        let reason = if p.kind == PropertyKind::Unmodelled {
            if p.verdict.status() != Status::Violated {
                continue;
            }
            leaving_reason(UNMODELLED_CAUSES)
        } else if matches!(p.verdict.status(), Status::Safe | Status::SafeUpTo) {
            cut_reason(leaves, UNMODELLED_CAUSES)
        } else {
            continue;
        };
        p.verdict = Verdict::Unknown { reason };
    }
}

/// The first `unmodelled` check that some run may fail, where [`limit_to_modelled_runs`]
/// says the runs leave what symex models.
fn first_left(properties: &[PropertyReport]) -> Option<&PropertyReport> {
    properties.iter().find(|p| {
        p.kind == PropertyKind::Unmodelled
            && !matches!(p.verdict.status(), Status::Safe | Status::SafeUpTo)
    })
}

/// The reason of an `unmodelled` check a run fails, `causes` being what it may stand for.
fn leaving_reason(causes: &str) -> String {
    format!("a run leaves what symex models here ({causes}); it was not followed further")
}

/// The reason of a property no violation was found for, where a run may leave what symex
/// models at line `leaves`, `causes` being what that check may stand for.
fn cut_reason(leaves: u32, causes: &str) -> String {
    format!(
        "a run may leave what symex models at line {leaves} ({causes}), and the rest of it was \
         not searched"
    )
}

impl Report {
    /// Names in the reasons of [`limit_to_modelled_runs`] what each `unmodelled` check stands
    /// for, as `cause_at` tells it by the check's span (the C front end's
    /// `Translated::unmodelled_causes`), instead of every cause the kind may stand for.
    pub fn name_unmodelled_causes(&mut self, cause_at: impl Fn(Span) -> Option<String>) {
        let named = |p: &PropertyReport| p.span.and_then(&cause_at);
        let Some(first) = first_left(&self.properties) else {
            return;
        };
        let (leaves, first_cause) = (first.line, named(first));
        let (generic_leaving, generic_cut) = (
            leaving_reason(UNMODELLED_CAUSES),
            cut_reason(leaves, UNMODELLED_CAUSES),
        );
        for p in &mut self.properties {
            let Verdict::Unknown { reason } = &p.verdict else {
                continue;
            };
            let named = if p.kind == PropertyKind::Unmodelled {
                (*reason == generic_leaving)
                    .then(|| named(p))
                    .flatten()
                    .map(|cause| leaving_reason(&cause))
            } else {
                (*reason == generic_cut)
                    .then(|| {
                        first_cause
                            .as_deref()
                            .map(|cause| cut_reason(leaves, cause))
                    })
                    .flatten()
            };
            if let Some(reason) = named {
                p.verdict = Verdict::Unknown { reason };
            }
        }
    }
}

/// What an `unmodelled` check stops (the C front end's checks), for the reasons of reports.
const UNMODELLED_CAUSES: &str = "`free` of a pointer into an object, heap objects that may still be reachable at `exit` (or, where a global can hold a \
    pointer, when `main` returns), a heap array of a computed length outside 1 to 64, an index \
    of a pointer into an array beyond `int`, pointers into two arrays subtracted or ordered, a \
    `void *` converted to a pointer to another type than its object's, a `memset`, `memcpy` or the like of a part of an object, beyond a whole object \
    or between overlapping objects, a byte written through a `char *` into an integer never \
    assigned, a byte of a struct's padding read through one, such a pointer cast back to \
    the objects' type off an object's first byte, the bytes of a pointer stored in a union \
    read as another member, or a pointer to a freed object or to a variable whose function \
    returned compared with another pointer";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::counterexample::{Replay, Witness};
    use crate::cuts::{Cut, Cuts};
    use crate::verdict::Finding;
    use symex_ir::cfg::PropId;

    fn prop(line: u32, column: u32, verdict: Verdict) -> PropertyReport {
        PropertyReport {
            kind: PropertyKind::Assert,
            function: "main".into(),
            line,
            column,
            span: None,
            verdict,
        }
    }

    fn safe() -> Verdict {
        Verdict::conclude(PropId(0), Finding::NotReached, &Cuts::new())
    }

    fn bounded() -> Verdict {
        let cuts: Cuts = [Cut::Unwind(2)].into_iter().collect();
        Verdict::conclude(PropId(0), Finding::NotReached, &cuts)
    }

    fn reached(replay: Replay) -> Verdict {
        let found = Finding::Reached {
            witness: Witness::default(),
            replay,
        };
        Verdict::conclude(PropId(0), found, &Cuts::new())
    }

    fn report(verdicts: Vec<Verdict>) -> Report {
        let props = verdicts
            .into_iter()
            .enumerate()
            .map(|(i, v)| prop(i as u32 + 1, 1, v))
            .collect();
        Report::new("p.uc", "forward", "main", props, Stats::default())
    }

    #[test]
    fn properties_are_sorted_by_position() {
        let r = Report::new(
            "p.uc",
            "forward",
            "main",
            vec![prop(9, 1, safe()), prop(2, 5, safe()), prop(2, 3, safe())],
            Stats::default(),
        );
        let positions: Vec<(u32, u32)> =
            r.properties().iter().map(|p| (p.line, p.column)).collect();
        assert_eq!(positions, [(2, 3), (2, 5), (9, 1)]);
    }

    #[test]
    fn a_run_leaving_the_modelled_range_leaves_every_undecided_property_unknown() {
        let unmodelled = |verdict| PropertyReport {
            kind: PropertyKind::Unmodelled,
            ..prop(5, 1, verdict)
        };
        let violated = reached(Replay::Failed(PropId(0)));
        // Every range check safe: nothing changes.
        let kept = Report::new(
            "p.c",
            "forward",
            "main",
            vec![
                unmodelled(safe()),
                prop(1, 1, safe()),
                prop(2, 1, bounded()),
            ],
            Stats::default(),
        );
        assert_eq!(kept.counts().safe, 2);
        // A run leaves the range: no property may stay safe, a violation stays one, and the
        // range check itself is no violation of the program.
        let cut = Report::new(
            "p.c",
            "forward",
            "main",
            vec![
                unmodelled(violated.clone()),
                prop(1, 1, safe()),
                prop(2, 1, bounded()),
                prop(3, 1, violated),
            ],
            Stats::default(),
        );
        let statuses: Vec<Status> = cut
            .properties()
            .iter()
            .map(|p| p.verdict.status())
            .collect();
        assert_eq!(
            statuses,
            [
                Status::Unknown,
                Status::Unknown,
                Status::Violated,
                Status::Unknown
            ]
        );
        assert!(cut.properties()[0]
            .verdict
            .reason()
            .is_some_and(|r| r.contains("line 5")));
        assert_eq!(cut.exit_class(), ExitClass::Violation);
    }

    /// The front end's cause of an `unmodelled` check replaces the list of every cause in
    /// the reasons of the check and of the properties it cut; reasons of their own stay.
    #[test]
    fn unmodelled_reasons_name_the_front_ends_cause() {
        let at = |line: u32| Some(Span::new(line as usize * 10, line as usize * 10 + 3));
        let unmodelled = |line, verdict| PropertyReport {
            kind: PropertyKind::Unmodelled,
            span: at(line),
            ..prop(line, 1, verdict)
        };
        let violated = || reached(Replay::Failed(PropId(0)));
        let timed_out = Verdict::Unknown {
            reason: "time limit of 1 ms reached".into(),
        };
        let mut r = Report::new(
            "p.c",
            "forward",
            "main",
            vec![
                unmodelled(5, violated()),
                unmodelled(6, violated()),
                unmodelled(7, violated()),
                prop(1, 1, safe()),
                prop(2, 1, timed_out.clone()),
            ],
            Stats::default(),
        );
        let causes = [
            (5, "a length outside 1 to 64"),
            (6, "a write into a literal"),
        ];
        r.name_unmodelled_causes(|span| {
            (causes.iter())
                .find(|(line, _)| at(*line) == Some(span))
                .map(|(_, cause)| cause.to_string())
        });
        let reasons: Vec<String> = (r.properties().iter())
            .map(|p| p.verdict.reason().unwrap_or_default().to_string())
            .collect();
        assert_eq!(reasons[0], cut_reason(5, "a length outside 1 to 64"));
        assert_eq!(reasons[1], timed_out.reason().unwrap_or_default());
        assert_eq!(reasons[2], leaving_reason("a length outside 1 to 64"));
        assert_eq!(reasons[3], leaving_reason("a write into a literal"));
        // A check the front end gave no cause keeps the list of every cause.
        assert_eq!(reasons[4], leaving_reason(UNMODELLED_CAUSES));
    }

    /// Copies of one check (an inlined function's at each call) are one property, as grave
    /// as its gravest copy; other functions' copies at the same position count too.
    #[test]
    fn copies_of_a_check_are_one_property_as_grave_as_the_gravest() {
        let violated = reached(Replay::Failed(PropId(0)));
        let in_check = |verdict| PropertyReport {
            function: "check".into(),
            ..prop(3, 7, verdict)
        };
        let r = Report::new(
            "p.c",
            "forward",
            "main",
            vec![
                in_check(safe()),
                prop(3, 7, violated),
                prop(3, 7, bounded()),
                prop(4, 1, bounded()),
                prop(4, 1, safe()),
                PropertyReport {
                    kind: PropertyKind::DivByZero,
                    ..prop(4, 1, safe())
                },
            ],
            Stats::default(),
        );
        let statuses: Vec<(u32, PropertyKind, Status)> = r
            .properties()
            .iter()
            .map(|p| (p.line, p.kind, p.verdict.status()))
            .collect();
        assert_eq!(
            statuses,
            [
                (3, PropertyKind::Assert, Status::Violated),
                (4, PropertyKind::Assert, Status::SafeUpTo),
                (4, PropertyKind::DivByZero, Status::Safe),
            ]
        );
        assert_eq!(r.counts().total(), 3);
    }

    #[test]
    fn exit_class_follows_the_verdicts() {
        assert_eq!(report(vec![]).exit_class(), ExitClass::AllSafe);
        assert_eq!(
            report(vec![safe(), safe()]).exit_class(),
            ExitClass::AllSafe
        );
        assert_eq!(
            report(vec![safe(), bounded()]).exit_class(),
            ExitClass::Inconclusive
        );
        let unknown = Verdict::Unknown { reason: "x".into() };
        assert_eq!(report(vec![unknown]).exit_class().code(), 20);
        let violated = reached(Replay::Failed(PropId(0)));
        assert_eq!(
            report(vec![bounded(), violated.clone()]).exit_class(),
            ExitClass::Violation
        );
        let broken = reached(Replay::Other("returned 1".into()));
        let r = report(vec![violated, broken, safe(), bounded()]);
        assert_eq!(r.exit_class(), ExitClass::InternalError);
        assert_eq!(r.exit_class().code(), 101);
        let counts = r.counts();
        assert_eq!(
            (counts.violated, counts.internal_errors, counts.unknown),
            (1, 1, 0)
        );
        assert_eq!(counts.total(), 4);
        assert_eq!(
            [ExitClass::AllSafe, ExitClass::Violation].map(ExitClass::code),
            [0, 10]
        );
    }
}
