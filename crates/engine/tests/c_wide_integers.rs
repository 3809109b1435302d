//! C's 64-bit integers, modelled within 32 bits, through every engine: an assertion that only
//! runs beyond that range can break must never be `safe` (the run that leaves the range fails
//! an `unmodelled` check and is not followed: the report says `unknown`), and a violation on a
//! run that stays within the range is found and replayed.

use std::time::Duration;

use symex_engine::CheckOptions;
use symex_ir::cfg::PropertyKind;
use symex_report::{Report, Status};

mod support;

/// Line 6 breaks only for inputs above 600,000,000 (`a` is then 2.4e9, beyond 32 bits); line 8
/// breaks for the input 5, within them.
const SOURCE: &str = "\
void reach_error(void);
int main() {
  int i = __VERIFIER_nondet_int();
  long long a = i;
  a = a * 4;
  if (a > 2147483647 - 2) { reach_error(); }
  unsigned long long u = i;
  if (u == 5) { reach_error(); }
  return 0;
}
";

fn reports() -> Vec<(&'static str, Report)> {
    let translated =
        symex_c::translate_text(SOURCE, symex_c::Options::default()).expect("in the subset");
    let options = CheckOptions {
        timeout: Some(Duration::from_secs(20)),
        ..CheckOptions::default()
    };
    let program = (&translated.module, &translated.types);
    support::every_engine(program, SOURCE, "wide.c", &options)
}

fn status(report: &Report, kind: PropertyKind, line: u32) -> Status {
    let at: Vec<Status> = report
        .properties()
        .iter()
        .filter(|p| p.kind == kind && p.line == line)
        .map(|p| p.verdict.status())
        .collect();
    assert_eq!(at.len(), 1, "one {} at line {line}", kind.name());
    at[0]
}

#[test]
fn no_engine_calls_safe_what_a_run_beyond_the_range_may_break() {
    for (engine, report) in reports() {
        assert_eq!(
            status(&report, PropertyKind::Assert, 6),
            Status::Unknown,
            "{engine}"
        );
        assert_ne!(
            status(&report, PropertyKind::Unmodelled, 5),
            Status::Violated,
            "{engine}: leaving the range is no violation"
        );
        for p in report.properties() {
            assert!(
                p.verdict.witness().is_none_or(|(_, replayed)| replayed),
                "{engine}: unconfirmed counterexample at line {}",
                p.line
            );
        }
    }
}

#[test]
fn a_violation_within_the_range_is_found() {
    let (_, forward) = &reports()[0];
    assert_eq!(status(forward, PropertyKind::Assert, 8), Status::Violated);
}
