//! C's 64-bit integers through every engine: the forward and structural engines compute with
//! 64-bit numbers exactly (a violation that needs more than 32 bits is found and replays, a
//! property that 32-bit arithmetic would break is proved), and the backward engine, which models
//! 32 bits only, answers `unknown` with the reason, never a wrong verdict.

use std::time::Duration;

use symex_engine::CheckOptions;
use symex_ir::cfg::PropertyKind;
use symex_report::{Report, Status};

mod support;

/// Line 6 breaks only beyond 32 bits (inputs above 536,870,911 make `a` above 2^31 · 2 - 2);
/// line 7 never breaks (`a` is 4 times an `int`, never 2^33; in 32 bits it would wrap to 0);
/// line 9 breaks for the input 5.
const SOURCE: &str = "\
void reach_error(void);
int main() {
  int i = __VERIFIER_nondet_int();
  long long a = i;
  a = a * 4;
  if (a > 2147483647LL * 2) { reach_error(); }
  if (a == 2147483648LL * 4) { reach_error(); }
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

fn status(report: &Report, line: u32) -> Status {
    let at: Vec<Status> = report
        .properties()
        .iter()
        .filter(|p| p.kind == PropertyKind::Assert && p.line == line)
        .map(|p| p.verdict.status())
        .collect();
    assert_eq!(at.len(), 1, "one assertion at line {line}");
    at[0]
}

#[test]
fn the_forward_and_structural_engines_decide_64_bit_arithmetic_exactly() {
    for (engine, report) in reports() {
        if engine == "backward" {
            continue;
        }
        assert_eq!(status(&report, 6), Status::Violated, "{engine}");
        assert_eq!(status(&report, 7), Status::Safe, "{engine}");
        assert_eq!(status(&report, 9), Status::Violated, "{engine}");
        for p in report.properties() {
            if let Some((_, replayed)) = p.verdict.witness() {
                assert!(
                    replayed,
                    "{engine}, line {}: unconfirmed counterexample",
                    p.line
                );
            }
        }
    }
}

#[test]
fn the_backward_engine_answers_unknown_never_wrong() {
    for (engine, report) in reports().into_iter().filter(|(e, _)| *e == "backward") {
        for (line, violated) in [(6, true), (7, false), (9, true)] {
            let status = status(&report, line);
            let wrong = if violated {
                Status::Safe
            } else {
                Status::Violated
            };
            assert_ne!(status, wrong, "{engine}, line {line}");
            assert_ne!(status, Status::SafeUpTo, "{engine}, line {line}");
        }
        let reasons: Vec<&str> = (report.properties().iter())
            .filter_map(|p| p.verdict.reason())
            .collect();
        assert!(
            reasons.iter().any(|r| r.contains("64-bit numbers")),
            "{engine}: {reasons:?}"
        );
    }
}

/// An `unsigned int` holding 2^32 - 1 is shown as 4294967295 in traces (its input is -1:
/// inputs are 32-bit numbers), by every engine that finds the violation.
#[test]
fn traces_show_unsigned_variables_as_unsigned() {
    let source = "void reach_error(void);
unsigned int twice(unsigned int v) { return v * 2u; }
int main() {
  unsigned int x = __VERIFIER_nondet_uint();
  unsigned int y = twice(x);
  if (x > 4000000000u && y == 4294967294u) { reach_error(); }
  return 0;
}
";
    let translated =
        symex_c::translate_text(source, symex_c::Options::default()).expect("in the subset");
    let program = (&translated.module, &translated.types);
    let options = CheckOptions::default();
    for (engine, report) in support::every_engine(program, source, "unsigned.c", &options) {
        let Some(witness) = (report.properties().iter())
            .find_map(|p| p.verdict.witness().map(|(witness, _)| witness.clone()))
        else {
            continue;
        };
        let shown: Vec<String> = (witness.trace.iter())
            .filter_map(|step| match &step.event {
                symex_report::Event::Assign { var, value } => Some(format!("{var} = {value}")),
                symex_report::Event::Call { args, .. } => Some(format!("call {}", args[0])),
                _ => None,
            })
            .collect();
        for expected in ["x = 4294967295", "call 4294967295", "y = 4294967294"] {
            assert!(shown.iter().any(|s| s == expected), "{engine}: {shown:?}");
        }
    }
}
