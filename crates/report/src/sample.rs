//! Test support: a report over a real program with one property of each verdict, shared by the
//! JSON and text tests; its golden JSON is `testdata/sample.json`.

use symex_ir::cfg::{PropId, PropertyKind};
use symex_syntax::span::{LineIndex, Span};

use crate::counterexample::{Replay, Witness};
use crate::cuts::{Cut, Cuts};
use crate::property::PropertyReport;
use crate::report::Report;
use crate::stats::{Coverage, Ratio, Stats};
use crate::trace::{Event, TraceStep};
use crate::value::{ArgValue, Args};
use crate::verdict::{Finding, Verdict};

pub const FILE: &str = "p.uc";

pub const SOURCE: &str = "\
f(x) {
  return 10 / x;
}
g(n) {
  var a, r;
  a = input;
  if (a > n) {
    r = f(a - 5);
  } else {
    r = 1;
  }
  output r % 7;
  while (a > 0) {
    a = a - 1;
  }
  assert(a == 0);
  return r;
}
";

/// The span of the first `needle` in [`SOURCE`].
pub fn span_of(needle: &str) -> Span {
    span_in(needle, 0, needle.len())
}

/// `len` bytes at `offset` into the first `needle` in [`SOURCE`].
pub fn span_in(needle: &str, offset: usize, len: usize) -> Span {
    let start = SOURCE.find(needle).unwrap_or(0) + offset;
    Span::new(start, start + len)
}

fn property(kind: PropertyKind, function: &str, span: Span, verdict: Verdict) -> PropertyReport {
    let at = LineIndex::new(SOURCE).start(span);
    PropertyReport {
        kind,
        function: function.into(),
        line: at.line,
        column: at.column,
        span: Some(span),
        verdict,
    }
}

fn step(function: &str, needle: &str, event: Event) -> TraceStep {
    let at = LineIndex::new(SOURCE).start(span_of(needle));
    TraceStep {
        function: function.into(),
        line: at.line,
        column: at.column,
        event,
    }
}

fn witness() -> Witness {
    Witness {
        inputs: vec![5],
        args: [("n", ArgValue::Int(3))].into_iter().collect::<Args>(),
        heap: None,
        trace: vec![
            step("g", "input", Event::Input { index: 0, value: 5 }),
            step(
                "g",
                "a = input",
                Event::Assign {
                    var: "a".into(),
                    value: ArgValue::Int(5),
                },
            ),
            step("g", "a > n", Event::Branch { condition: true }),
            step(
                "g",
                "f(a - 5)",
                Event::Call {
                    callee: "f".into(),
                    args: vec![ArgValue::Int(0)],
                },
            ),
            step(
                "f",
                "10 / x",
                Event::Fail {
                    kind: PropertyKind::DivByZero,
                },
            ),
        ],
    }
}

/// Five properties, given out of order: violated, safe, unknown, safe up to 4, unconfirmed.
pub fn report() -> Report {
    let p = PropId(0);
    let none = Cuts::new();
    let violated = Verdict::conclude(
        p,
        Finding::Reached {
            witness: witness(),
            replay: Replay::Failed(p),
        },
        &none,
    );
    let unconfirmed = Verdict::conclude(
        p,
        Finding::Reached {
            witness: Witness {
                inputs: vec![-1],
                args: [("n", ArgValue::Int(0))].into_iter().collect(),
                heap: None,
                trace: Vec::new(),
            },
            replay: Replay::Other("it returned 1".into()),
        },
        &none,
    );
    let safe = Verdict::conclude(p, Finding::NotReached, &none);
    let unwound: Cuts = [Cut::Unwind(4)].into_iter().collect();
    let safe_up_to = Verdict::conclude(p, Finding::NotReached, &unwound);
    let timed_out: Cuts = [Cut::Timeout { ms: 30000 }].into_iter().collect();
    let unknown = Verdict::conclude(p, Finding::NotReached, &timed_out);
    let props = vec![
        property(
            PropertyKind::Uninit,
            "g",
            span_in("return r;", 7, 1),
            unconfirmed,
        ),
        property(PropertyKind::Uninit, "g", span_in("r % 7", 0, 1), unknown),
        property(
            PropertyKind::Assert,
            "g",
            span_of("assert(a == 0)"),
            safe_up_to,
        ),
        property(PropertyKind::DivByZero, "g", span_of("r % 7"), safe),
        property(PropertyKind::DivByZero, "f", span_of("10 / x"), violated),
    ];
    let stats = Stats {
        paths: 3,
        states: 9,
        queries: 12,
        solver_ms: 4,
        time_ms: 15,
        forks: Some(2),
        coverage: Some(Coverage {
            instructions: Ratio {
                covered: 20,
                total: 24,
            },
            branches: Ratio {
                covered: 3,
                total: 4,
            },
        }),
        ..Stats::default()
    };
    Report::new(FILE, "forward", "g", props, stats)
}

/// The report as the JSON reader gives it back: without spans.
pub fn without_spans(mut report: Report) -> Report {
    let props = report
        .properties()
        .iter()
        .cloned()
        .map(|p| PropertyReport { span: None, ..p })
        .collect();
    report = Report::new(
        report.program,
        report.engine,
        report.entry,
        props,
        report.stats,
    );
    report
}

/// The golden JSON of [`report`] (with a final newline, which `to_json` does not write).
pub const JSON: &str = include_str!("testdata/sample.json");
