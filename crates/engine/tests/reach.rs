//! `--reach LINE` on both engines: a reachable line is `violated` with a witness the interpreter
//! replayed up to that line, an unreachable one `safe` (or `safe-up-to K` where the unwinding cut
//! could hide it, never `safe`), a line without a statement an error, and the report holds the
//! reach property alone. Every backward variant must agree. A path into a callee shows the call
//! with its argument values.

use symex_engine::backward::{check_backward, BackwardOptions, BseVariant, Target};
use symex_engine::{check_forward_reach, CheckOptions, EngineError};
use symex_ir::cfg::PropertyKind;
use symex_report::{ArgValue, Event, Report, Status};

const PROGRAM: &str = "\
main() {
  var a, i;
  a = input;
  if (a > 5) {
    if (a < 3) {
      output 1;
    }
  }
  i = 0;
  while (i < a) {
    i = i + 1;
    if (i == 3) {
      output 2;
    }
    if (i == 10) {
      output 3;
    }
  }
  return 0;
}
";

const HEAP_PROGRAM: &str = "\
first(p) {
  var q, r;
  r = 0;
  q = p->next;
  if (q != null) {
    if (q == p) {
      r = 1;
    }
  }
  return r;
}
main() { return 0; }
";

fn reach(
    source: &str,
    entry: &str,
    line: u32,
    engine: Option<BseVariant>,
) -> Result<Report, EngineError> {
    let front = symex_syntax::analyze(source).expect("the test program is valid");
    let types = front.types.expect("the test program type-checks");
    let module = symex_ir::lower(&front.program);
    let options = CheckOptions {
        unwind: Some(4),
        ..CheckOptions::default()
    };
    match engine {
        Some(variant) => check_backward(
            &module,
            &types,
            source,
            "reach.uc",
            entry,
            &options,
            &BackwardOptions {
                variant,
                target: Target::Reach { line },
            },
        ),
        None => check_forward_reach(&module, &types, source, "reach.uc", entry, &options, line),
    }
}

/// Every engine: the forward one (`None`) and the six backward variants.
fn engines() -> Vec<Option<BseVariant>> {
    std::iter::once(None)
        .chain(BseVariant::ALL.into_iter().map(Some))
        .collect()
}

fn only_status(report: &Report, line: u32) -> Status {
    let [p] = report.properties() else {
        panic!(
            "the report has {} properties, not one",
            report.properties().len()
        );
    };
    assert_eq!((p.kind, p.line), (PropertyKind::Reach, line));
    if let Some((witness, confirmed)) = p.verdict.witness() {
        assert!(confirmed, "unconfirmed witness: {:?}", p.verdict.reason());
        let last = witness.trace.last().expect("a path");
        assert_eq!(last.line, line);
        assert_eq!(
            last.event,
            Event::Fail {
                kind: PropertyKind::Reach
            }
        );
    }
    p.verdict.status()
}

#[test]
fn reachable_lines_are_reached_with_replayed_witnesses() {
    for engine in engines() {
        for line in [3, 11, 13, 19] {
            let report = reach(PROGRAM, "main", line, engine).unwrap();
            assert_eq!(
                only_status(&report, line),
                Status::Violated,
                "{engine:?} line {line}"
            );
        }
        for line in [4, 7, 10] {
            let report = reach(HEAP_PROGRAM, "first", line, engine).unwrap();
            assert_eq!(
                only_status(&report, line),
                Status::Violated,
                "{engine:?} line {line}"
            );
        }
    }
}

#[test]
fn unreachable_lines_are_safe_unless_the_bound_could_hide_them() {
    for engine in engines() {
        let report = reach(PROGRAM, "main", 6, engine).unwrap();
        let expected = match engine {
            // The backward search sees that the loop cut lies after line 6.
            Some(_) => Status::Safe,
            None => Status::SafeUpTo,
        };
        assert_eq!(only_status(&report, 6), expected, "{engine:?}");
        // i == 10 needs ten iterations: beyond --unwind 4, so never plain `safe`.
        let report = reach(PROGRAM, "main", 16, engine).unwrap();
        assert_eq!(only_status(&report, 16), Status::SafeUpTo, "{engine:?}");
    }
}

#[test]
fn a_line_without_a_statement_is_an_error() {
    for engine in engines() {
        for line in [2, 8, 20, 40] {
            let err = reach(PROGRAM, "main", line, engine).unwrap_err();
            assert!(
                matches!(&err, EngineError::BadTarget(m) if m.contains(&format!("line {line}"))),
                "{engine:?} line {line}: {err}"
            );
        }
    }
}

#[test]
fn calls_on_the_path_show_their_arguments() {
    let source = "\
g(x, y) {
  var z;
  z = x - y;
  if (z == 7) {
    output z;
  }
  return z;
}
main() {
  var a, r;
  a = input;
  r = g(a, 3);
  return r;
}
";
    for engine in engines() {
        let report = reach(source, "main", 5, engine).unwrap();
        assert_eq!(only_status(&report, 5), Status::Violated, "{engine:?}");
        let (witness, _) = report.properties()[0].verdict.witness().expect("a witness");
        let call = witness
            .trace
            .iter()
            .find_map(|step| match &step.event {
                Event::Call { callee, args } => Some((callee.clone(), args.clone())),
                _ => None,
            })
            .expect("a call step");
        assert_eq!(
            call,
            ("g".to_string(), vec![ArgValue::Int(10), ArgValue::Int(3)]),
            "{engine:?}"
        );
    }
}
