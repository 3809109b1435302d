//! The report API as an engine and the CLI use it from outside the crate: locate properties of a
//! lowered program, conclude verdicts, build the report, render it, read it back, and match on
//! verdicts (`Safe` and `SafeUpTo` are matched with `{ .. }`, since only `conclude` builds them).

use symex_ir::cfg::{FuncId, PropId, PropertyKind};
use symex_report::{
    ArgValue, Cut, Cuts, Event, ExitClass, Finding, Locator, Replay, Report, Stats, Verdict,
    Witness,
};
use symex_syntax::span::Span;

const SOURCE: &str = "\
main() {
  var a, i;
  a = input;
  i = 0;
  while (i < 3) {
    i = i + 1;
  }
  assert(i == 3);
  return 100 / a;
}
";

fn module() -> symex_ir::cfg::Module {
    let front = symex_syntax::analyze(SOURCE).expect("the program is valid");
    symex_ir::lower(&front.program)
}

fn prop_of(module: &symex_ir::cfg::Module, kind: PropertyKind) -> PropId {
    let index = module
        .properties
        .iter()
        .position(|p| p.kind == kind)
        .expect("the program has this property");
    PropId(index as u32)
}

#[test]
fn an_engine_builds_a_report_the_cli_renders() {
    let module = module();
    let loc = Locator::new(&module, SOURCE);
    let div = prop_of(&module, PropertyKind::DivByZero);
    let assert = prop_of(&module, PropertyKind::Assert);
    let main = FuncId(0);
    let at = |needle: &str| {
        let start = SOURCE.find(needle).unwrap_or(0);
        Span::new(start, start + needle.len())
    };
    let witness = Witness {
        inputs: vec![0],
        trace: vec![
            loc.step(main, at("input"), Event::Input { index: 0, value: 0 }),
            loc.step(
                main,
                at("100 / a"),
                Event::Fail {
                    kind: PropertyKind::DivByZero,
                },
            ),
        ],
        ..Witness::default()
    };
    let mut cuts = Cuts::new();
    cuts.hit(Cut::Unwind(3));
    let found = Finding::Reached {
        witness,
        replay: Replay::Failed(div),
    };
    let props = vec![
        loc.property(div, Verdict::conclude(div, found, &cuts))
            .expect("in range"),
        loc.property(
            assert,
            Verdict::conclude(assert, Finding::NotReached, &cuts),
        )
        .expect("in range"),
    ];
    let report = Report::new("loop.uc", "forward", "main", props, Stats::default());
    assert_eq!(report.exit_class(), ExitClass::Violation);
    assert_eq!(report.exit_class().code(), 10);

    let statuses: Vec<&str> = report
        .properties()
        .iter()
        .map(|p| match &p.verdict {
            Verdict::Violated(cex) => {
                assert_eq!(cex.witness().inputs, [0]);
                "violated"
            }
            Verdict::Safe { .. } => "safe",
            Verdict::SafeUpTo { bound, .. } => {
                assert_eq!(*bound, 3);
                "safe-up-to"
            }
            Verdict::Unknown { .. } | Verdict::Unconfirmed(_) => "unknown",
        })
        .collect();
    assert_eq!(statuses, ["safe-up-to", "violated"]);

    let text = report.to_text(SOURCE, false);
    assert!(text.contains("loop.uc:9:10"), "{text}");
    assert!(text.contains("return 100 / a;"), "{text}");
    assert!(text.contains("loop.uc:8:"), "{text}");
    assert!(
        text.contains("assert: safe up to 3 (loop unwinding bound hit)"),
        "{text}"
    );
    assert!(
        text.contains("replay: symex run loop.uc --input 0"),
        "{text}"
    );

    let json = report.to_json().expect("reports always serialize");
    let back = Report::from_json(&json).expect("our own JSON reads back");
    assert_eq!(back.to_json().expect("serializes"), json);
    assert_eq!(back.exit_class(), ExitClass::Violation);
}

#[test]
fn entry_arguments_keep_their_order() {
    let mut witness = Witness::default();
    witness.args.push("y", ArgValue::Int(2));
    witness.args.push("x", ArgValue::Int(1));
    let names: Vec<&str> = witness.args.iter().map(|(n, _)| n).collect();
    assert_eq!(names, ["y", "x"]);
}
