//! Differential test of the heap models: on generated functions over pointer parameters
//! (aliasing, null fields, cycles, writes through aliases), lazy initialization, lazier# and
//! POSE report the same violated properties, each with an input heap that the interpreter
//! replays to the same failure, and POSE never forks more often than lazy initialization
//! (each lazy-initialization leaf lies on one program path; POSE forks only between paths).
//!
//! The functions (`symex_gen::lists`) take their heap as input, which is what the heap models
//! are for.

use std::collections::BTreeSet;
use std::time::Duration;

use symex_engine::common::replay::replay_witness;
use symex_engine::{check_forward, CheckOptions, HeapModel, MergeMode};
use symex_report::{Replay, Status, Verdict};

/// The violated properties of a report, as (kind, line).
type Violations = BTreeSet<(String, u32)>;

#[test]
fn heap_models_agree_on_generated_programs() {
    let mut failures = Vec::new();
    let mut violations = 0;
    for seed in 0..40 {
        let source = symex_gen::lists::pointer_entry_program(seed);
        let front = symex_syntax::analyze(&source).expect("generated programs parse");
        let types = front.types.expect("generated programs are well typed");
        let module = symex_ir::lower(&front.program);
        let mut found: Vec<(HeapModel, Violations, u64)> = Vec::new();
        for model in HeapModel::ALL {
            let options = CheckOptions {
                heap: model,
                timeout: Some(Duration::from_secs(20)),
                ..CheckOptions::default()
            };
            let report = check_forward(&module, &types, &source, "gen.uc", "f", &options)
                .expect("the check runs");
            let mut violated = BTreeSet::new();
            for p in report.properties() {
                match &p.verdict {
                    Verdict::Violated(cex) => {
                        violated.insert((p.kind.name().to_string(), p.line));
                        let witness = cex.witness();
                        if witness.heap.is_none() {
                            failures.push(format!("seed {seed} {model}: a witness without a heap"));
                        }
                        if !matches!(replay_witness(&module, "f", witness), Replay::Failed(_)) {
                            failures.push(format!("seed {seed} {model}: witness does not replay"));
                        }
                    }
                    v if v.status() == Status::Unknown => failures.push(format!(
                        "seed {seed} {model}: {} line {} unknown: {:?}",
                        p.kind.name(),
                        p.line,
                        v.reason()
                    )),
                    _ => {}
                }
            }
            found.push((model, violated, report.stats.forks.unwrap_or(0)));
        }
        violations += found[0].1.len();
        for (model, violated, _) in &found[1..] {
            if *violated != found[0].1 {
                failures.push(format!(
                    "seed {seed}: li found {:?}, {model} found {violated:?}\n{source}",
                    found[0].1
                ));
            }
        }
        let (li, pose) = (found[0].2, found[2].2);
        if pose > li {
            failures.push(format!("seed {seed}: pose forked {pose} times, li {li}"));
        }
    }
    assert!(
        violations > 20,
        "the generator found only {violations} violations"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// An input reference that is an `ite` over a symbol lazy initialization has not resolved yet
/// and another reference, dereferenced: an element read at a symbolic index, a pointer local
/// merged at a join (`--merge aggressive`, lazier# leaves the loaded `p->next` unresolved) and
/// a record whose pointer field `SymValue::ite` merged. Every model, merged or not, reports
/// the same violations (each assertion fails only on an aliasing input heap), and every
/// witness replays. Lazy initialization and lazier# once only resolved a reference that was a
/// plain symbol and stopped with "an access through an unresolved input reference".
#[test]
fn ite_references_are_resolved_at_their_leaves() {
    let programs = [
        (
            "g(p, q, i) {\n  var a, r;\n  a = [p, q];\n  if (i >= 0 && i < 2) {\n    r = a[i];\n    \
             r->val = 7;\n    q->val = 1;\n    assert(i != 0 || p->val == 7);\n  }\n  return 0;\n}\n\
             main() { var o; o = alloc {val: 0}; return g(o, o, 0); }\n",
            [("null-deref", 6), ("null-deref", 7), ("assert", 8)],
        ),
        (
            "g(p, c) {\n  var n, r;\n  n = p->next;\n  p->val = 1;\n  r = p;\n  if (c > 0) {\n    \
             r = n;\n  }\n  r->val = 5;\n  assert(c <= 0 || p->val == 1);\n  return 0;\n}\n\
             main() { var o; o = alloc {val: 0, next: null}; return g(o, 1); }\n",
            [("null-deref", 3), ("null-deref", 9), ("assert", 10)],
        ),
        (
            "g(p, q, c) {\n  var s, r;\n  if (c > 0) {\n    s = {x: p, y: 1};\n  } else {\n    \
             s = {x: q, y: 2};\n  }\n  r = s.x;\n  r->val = 5;\n  q->val = 1;\n  \
             assert(c <= 0 || p->val == 5);\n  return 0;\n}\n\
             main() { var o; o = alloc {val: 0}; return g(o, o, 0); }\n",
            [("null-deref", 9), ("null-deref", 10), ("assert", 11)],
        ),
    ];
    let mut failures = Vec::new();
    for (source, expected) in programs {
        let expected: Violations = expected.iter().map(|&(k, l)| (k.to_string(), l)).collect();
        let front = symex_syntax::analyze(source).expect("parses");
        let types = front.types.expect("types");
        let module = symex_ir::lower(&front.program);
        for model in HeapModel::ALL {
            for merge in [MergeMode::None, MergeMode::Aggressive] {
                let options = CheckOptions {
                    heap: model,
                    merge,
                    ..CheckOptions::default()
                };
                let report = match check_forward(&module, &types, source, "g.uc", "g", &options) {
                    Ok(report) => report,
                    Err(e) => {
                        failures.push(format!("{model}, merge {merge}: {e}\n{source}"));
                        continue;
                    }
                };
                let mut violated = Violations::new();
                for p in report.properties() {
                    if let Verdict::Violated(cex) = &p.verdict {
                        violated.insert((p.kind.name().to_string(), p.line));
                        if !matches!(
                            replay_witness(&module, "g", cex.witness()),
                            Replay::Failed(_)
                        ) {
                            failures.push(format!(
                                "{model}, merge {merge}: line {} does not replay\n{source}",
                                p.line
                            ));
                        }
                    }
                }
                if violated != expected {
                    failures.push(format!(
                        "{model}, merge {merge}: found {violated:?}, expected {expected:?}\n{source}"
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A cycle, aliasing and a null field in one witness: the assertion fails only on a
/// one-node cycle reached through an alias, and the input heap says so.
#[test]
fn witnesses_carry_aliasing_and_cycles() {
    let source = "g(p, q) {\n  assume(p != null);\n  if (p->next == q && q == p) {\n    assert(0);\n  }\n  return 0;\n}\n\
                  main() { var x; x = alloc {next: null}; return g(x, x); }\n";
    let front = symex_syntax::analyze(source).expect("parses");
    let types = front.types.expect("types");
    let module = symex_ir::lower(&front.program);
    for model in HeapModel::ALL {
        let options = CheckOptions {
            heap: model,
            ..CheckOptions::default()
        };
        let report = check_forward(&module, &types, source, "g.uc", "g", &options).expect("runs");
        let violated: Vec<_> = report
            .properties()
            .iter()
            .filter_map(|p| match &p.verdict {
                Verdict::Violated(cex) => Some(cex.witness().clone()),
                _ => None,
            })
            .collect();
        assert_eq!(violated.len(), 1, "{model}");
        let heap = violated[0].heap.as_ref().expect("a heap");
        let p = &heap["args"]["p"]["ref"];
        assert_eq!(&heap["args"]["q"]["ref"], p, "{model}: {heap}");
        let id = p.as_str().expect("an object id");
        assert_eq!(
            &heap["objects"][id]["record"]["next"]["ref"], p,
            "{model}: {heap}"
        );
    }
}

/// Heap bounds are bounds: a walk over an input list of any length is cut, so its properties
/// are `safe up to N` (never `safe`), and a violation within the bound is still found.
#[test]
fn heap_bounds_cut_unbounded_walks() {
    let source = "walk(l) {\n  var n;\n  n = 0;\n  while (l != null && n < 10) {\n    l = l->next;\n    n = n + 1;\n  }\n  assert(n != 2);\n  return n;\n}\n\
                  main() { var x; x = alloc {next: null}; return walk(x); }\n";
    let front = symex_syntax::analyze(source).expect("parses");
    let types = front.types.expect("types");
    let module = symex_ir::lower(&front.program);
    for model in HeapModel::ALL {
        for (objects, depth) in [(Some(3), None), (None, Some(3))] {
            let options = CheckOptions {
                heap: model,
                max_heap_objects: objects,
                max_access_depth: depth,
                ..CheckOptions::default()
            };
            let report =
                check_forward(&module, &types, source, "w.uc", "walk", &options).expect("runs");
            for p in report.properties() {
                let status = p.verdict.status();
                if p.line == 8 && p.kind.name() == "assert" {
                    assert_eq!(
                        status,
                        Status::Violated,
                        "{model}: {:?}",
                        p.verdict.reason()
                    );
                } else if p.line == 11 || p.kind.name() == "uninit" {
                    // `main`'s checks: no call from the entry `walk` reaches them; `n` is
                    // assigned before every read (`Module::infallible_properties`).
                    assert_eq!(status, Status::Safe, "{model} line {}", p.line);
                } else {
                    assert_eq!(status, Status::SafeUpTo, "{model} line {}", p.line);
                    let reason = p.verdict.reason().unwrap_or_default();
                    assert!(reason.contains("bound"), "{model}: {reason}");
                }
            }
        }
    }
}

/// POSE on a list walk (hasNull, seed 003 §2): each step's reference is one `ite` chain over
/// the objects it may be, so the term graph grows with the square of the walk's length (the
/// references and the slots' alias chains), not with its cube; and the walk's questions,
/// whether each new reference may be null, are answered by model reuse (a fresh identity at
/// zero, or different from all others) without the solver.
#[test]
fn pose_walks_a_list_in_quadratic_terms_without_the_solver() {
    let walk = |max: u32| {
        let source = format!(
            "has_null(self) {{\n  var s, i;\n  assume(self != null);\n  s = self->next;\n  i = 1;\n  \
             while (s != null && i <= {max}) {{\n    s = s->next;\n    i = i + 1;\n  }}\n  \
             return s == null;\n}}\nmain() {{ var a; a = alloc {{next: null}}; return has_null(a); }}\n"
        );
        let front = symex_syntax::analyze(&source).expect("parses");
        let types = front.types.expect("types");
        let module = symex_ir::lower(&front.program);
        let options = CheckOptions {
            heap: HeapModel::Pose,
            ..CheckOptions::default()
        };
        let report =
            check_forward(&module, &types, &source, "h.uc", "has_null", &options).expect("runs");
        assert!(report
            .properties()
            .iter()
            .all(|p| p.verdict.status() == Status::Safe));
        assert_eq!(report.stats.solver_calls, Some(0), "max {max}");
        report
            .stats
            .term_nodes
            .expect("the forward engine counts terms")
    };
    let (short, long) = (walk(20), walk(40));
    // Twice the length: four times the terms for a square, eight for a cube.
    assert!(
        long < 5 * short,
        "{short} terms for 20 steps, {long} for 40"
    );
}
