//! The expectation corpus checked with the structural engine, with lazy refinement and with
//! eager inlining: every expected violation found within the file's bound (or an unwinding of
//! 4) and replayed, no violation the header does not list, no unconfirmed counterexample, and
//! every bounded safe file answered `safe-up-to` (never `safe`) where the unwinding cut it.
//! Properties in code the engine does not model (arrays, input heaps, records read whole
//! through pointers) must say so (`unknown`), and a time limit may end a search `unknown`;
//! nothing else is excused.

use std::time::Duration;

use symex_corpus::CorpusFile;
use symex_engine::{check_structural, CheckOptions, RefineMode, StructuralOptions};
use symex_report::{Event, Report, Verdict};

mod support;
use support::check_report;

/// The unwinding for files whose header gives no bound: deep enough for every unbounded file's
/// violations, and the backward engine's default.
const UNBOUNDED_UNWIND: u32 = 4;

/// Files whose violation needs more time than the others' 5 s (every other file with a
/// violation takes under 1 s; course_brainfuck, with none listed, runs to the limit):
/// wrap_factorial_monotone expands two chains of 16 nested calls one side effect at a time
/// (about 8 s).
const SLOW: &[(&str, u64)] = &[("wrap_factorial_monotone.uc", 30)];

fn excused(reason: Option<&str>) -> bool {
    reason.is_some_and(|r| r.contains("does not model") || r.contains("time limit"))
}

fn mismatches(file: &CorpusFile, refine: RefineMode) -> Vec<String> {
    let front = match symex_syntax::analyze(&file.source) {
        Ok(front) => front,
        Err(e) => return vec![format!("does not parse: {e:?}")],
    };
    let Ok(types) = front.types else {
        return vec!["does not type-check".into()];
    };
    let module = symex_ir::lower(&front.program);
    let options = CheckOptions {
        unwind: Some(support::unwind_for(file).unwrap_or(UNBOUNDED_UNWIND)),
        timeout: Some(Duration::from_secs(
            SLOW.iter()
                .find(|(name, _)| *name == file.name)
                .map_or(5, |&(_, s)| s),
        )),
        ..CheckOptions::default()
    };
    let structural = StructuralOptions {
        refine,
        ..StructuralOptions::default()
    };
    match check_structural(
        &module,
        &types,
        &file.source,
        &file.name,
        file.entry_function(),
        &options,
        &structural,
    ) {
        Ok(report) => {
            let mut problems = check_report(file, &report, excused);
            problems.extend(untraced_violations(&report));
            problems
        }
        Err(e) => vec![format!("engine error: {e}")],
    }
}

/// Every counterexample's trace (the replay's events) must read the witness's inputs, in order,
/// and lead to the failing check.
fn untraced_violations(report: &Report) -> Vec<String> {
    let mut problems = Vec::new();
    for p in report.properties() {
        let Verdict::Violated(cex) = &p.verdict else {
            continue;
        };
        let witness = cex.witness();
        let read: Vec<i32> = witness
            .trace
            .iter()
            .filter_map(|step| match step.event {
                Event::Input { value, .. } => Some(value),
                _ => None,
            })
            .collect();
        let ends_there = witness.trace.last().is_some_and(|step| {
            step.event == Event::Fail { kind: p.kind }
                && (step.line, step.column) == (p.line, p.column)
        });
        if read != witness.inputs || !ends_there {
            problems.push(format!(
                "{}:{}: the trace does not read the inputs and end in the failure",
                p.line, p.column
            ));
        }
    }
    problems
}

/// Every corpus file under one refinement mode; one test per mode, so that the test harness
/// runs them side by side.
fn corpus_under(refine: RefineMode) {
    support::assert_corpus(refine.name(), |file| mismatches(file, refine));
}

#[test]
fn corpus_with_lazy_refinement() {
    corpus_under(RefineMode::Lazy);
}

#[test]
fn corpus_with_eager_inlining() {
    corpus_under(RefineMode::Eager);
}

/// The verdicts of the assertions of `source` under the structural engine with unwinding
/// `unwind` and a time limit of `seconds`, in report order.
fn structural_verdicts(
    source: &str,
    unwind: u32,
    seconds: u64,
    refine: RefineMode,
) -> Vec<Verdict> {
    let front = symex_syntax::analyze(source).expect("the program parses");
    let types = front.types.expect("the program type-checks");
    let module = symex_ir::lower(&front.program);
    let options = CheckOptions {
        unwind: Some(unwind),
        timeout: Some(Duration::from_secs(seconds)),
        ..CheckOptions::default()
    };
    let structural = StructuralOptions {
        refine,
        ..StructuralOptions::default()
    };
    let report = check_structural(
        &module,
        &types,
        source,
        "t.uc",
        "main",
        &options,
        &structural,
    )
    .expect("the check runs");
    (report.properties().iter())
        .filter(|p| p.kind == symex_ir::cfg::PropertyKind::Assert)
        .map(|p| p.verdict.clone())
        .collect()
}

/// With `--unwind 0` every call is cut (one activation is more than 0): a callee's assertion
/// is `safe up to 0`, never `safe` (a review's program was `safe`: the call used the callee's
/// constant "no cut reached" instead of its cut instance).
#[test]
fn unwinding_zero_cuts_every_call() {
    let source = "g(x) {\n  assert(x != 4);\n  return x;\n}\nmain() {\n  var a;\n  a = g(input);\n  return a;\n}\n";
    for refine in [RefineMode::Lazy, RefineMode::Eager] {
        let verdicts = structural_verdicts(source, 0, 10, refine);
        assert!(
            matches!(verdicts[0], Verdict::SafeUpTo { bound: 0, .. }),
            "{}: {:?}",
            refine.name(),
            verdicts[0]
        );
    }
}

/// Building summaries stops at the time limit: a loop unwound 100,000 times took 160 s past a
/// limit of 10 s (the limit was checked only between functions).
#[test]
fn summaries_stop_at_the_time_limit() {
    let source = "main() {\n  var i;\n  i = 0;\n  while (i < 5) {\n    assert(i != 3);\n    i = i + 1;\n  }\n  return 0;\n}\n";
    let verdicts = structural_verdicts(source, 100_000, 1, RefineMode::Lazy);
    assert!(
        matches!(&verdicts[0], Verdict::Unknown { reason } if reason.contains("while building summaries")),
        "{:?}",
        verdicts[0]
    );
}
