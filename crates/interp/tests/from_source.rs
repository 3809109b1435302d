//! End-to-end: micro-c source through the front end and lowering into the interpreter.
//!
//! These pin the behaviour the corpus format cannot express: dynamic type errors in ill-typed
//! programs, limits, entry functions with arguments, returned pointers, spans of endings.
//! (The corpus `run:` lines are checked by `crates/corpus/tests/run_lines.rs`.)

use symex_interp::{
    ArgValue, Entry, EventKind, Interpreter, Limit, RunConfig, RunEnd, RunOutcome, Value,
};
use symex_ir::cfg::{Module, PropertyKind};
use symex_syntax::span::LineIndex;

fn module(source: &str) -> Module {
    let frontend = symex_syntax::analyze(source)
        .unwrap_or_else(|d| panic!("front end rejected the test program: {d:?}"));
    symex_ir::lower(&frontend.program)
}

fn run_with(source: &str, input: &[i32], config: &RunConfig) -> RunOutcome {
    let module = module(source);
    Interpreter::new(&module)
        .unwrap()
        .run_main(input, config)
        .unwrap()
}

fn run(source: &str, input: &[i32]) -> RunOutcome {
    run_with(source, input, &RunConfig::default())
}

fn is_ill_typed(source: &str) -> bool {
    symex_syntax::analyze(source).unwrap().types.is_err()
}

/// The message and 1-based line of a type error, or a panic.
fn type_error(source: &str) -> (String, u32) {
    match run(source, &[]).end {
        RunEnd::TypeError { message, span } => (message, LineIndex::new(source).start(span).line),
        other => panic!("expected a type error, got {other:?}"),
    }
}

#[test]
fn ill_typed_program_runs_until_a_mismatch_happens() {
    // The course example: a field holds an int, later a pointer.
    let source = "main() {
  var r, p;
  r = {f: 1};
  output r.f;
  p = alloc 5;
  r.f = p;
  output *(r.f);
  return 0;
}";
    assert!(is_ill_typed(source));
    let outcome = run(source, &[]);
    assert_eq!(outcome.outputs, [1, 5]);
    assert_eq!(outcome.end.returned_int(), Some(0));
}

#[test]
fn dynamic_type_errors_name_the_mismatch_and_its_line() {
    let deref_int = "main() {\n  var x;\n  x = 5;\n  return *x;\n}";
    let (message, line) = type_error(deref_int);
    assert_eq!(line, 4);
    assert!(
        message.contains("expects a pointer, found a number"),
        "{message}"
    );

    let field_of_int = "main() {\n  var x;\n  x = 5;\n  return x.f;\n}";
    assert!(type_error(field_of_int)
        .0
        .contains("expects a record, found a number"));

    let int_plus_null = "main() {\n  var x;\n  x = null;\n  return 1 + x;\n}";
    let (message, line) = type_error(int_plus_null);
    assert_eq!(
        (message.as_str(), line),
        ("`+` expects two numbers, found a number and null", 4)
    );

    let index_int = "main() {\n  var a;\n  a = 3;\n  return a[0];\n}";
    assert!(type_error(index_int)
        .0
        .contains("indexing expects an array, found a number"));

    let missing_field = "main() {\n  var r;\n  r = {f: 1};\n  return r.g;\n}";
    assert_eq!(type_error(missing_field).0, "the record has no field `g`");

    let branch_on_pointer =
        "main() {\n  var p;\n  p = alloc 1;\n  if (p) { output 1; }\n  return 0;\n}";
    assert_eq!(type_error(branch_on_pointer).1, 4);

    let compare_int_pointer = "main() {\n  var p;\n  p = alloc 1;\n  return p == 1;\n}";
    assert!(type_error(compare_int_pointer)
        .0
        .contains("two numbers or two pointers"));
}

#[test]
fn a_mismatch_on_a_path_not_taken_is_harmless() {
    let source = "main() {
  var x, y;
  x = input;
  y = null;
  if (x > 0) { output 1 + y; }
  return x;
}";
    assert!(is_ill_typed(source));
    assert_eq!(run(source, &[0]).end.returned_int(), Some(0));
    assert!(matches!(run(source, &[1]).end, RunEnd::TypeError { .. }));
}

#[test]
fn jvm_int_arithmetic_from_source() {
    let source = "main() {
  var a, b;
  a = input;
  b = input;
  output a / b;
  output a % b;
  output a * 2;
  output -a;
  return a + a;
}";
    let outcome = run(source, &[i32::MIN, -1]);
    assert_eq!(outcome.outputs, [i32::MIN, 0, 0, i32::MIN]);
    assert_eq!(outcome.end.returned_int(), Some(0));
    let outcome = run(source, &[-7, 2]);
    assert_eq!(outcome.outputs, [-3, -1, -14, 7]);
}

#[test]
fn comparisons_not_and_pointer_identity() {
    let source = "main() {
  var p, q;
  p = alloc 1;
  q = alloc 1;
  output p == q;
  output p == p;
  output p != null;
  output null == null;
  output !7;
  output !0;
  output (3 < 4) + (4 <= 4) + (5 > 4) + (4 >= 5);
  return 0;
}";
    assert_eq!(run(source, &[]).outputs, [0, 1, 1, 1, 0, 1, 3]);
}

#[test]
fn runtime_error_reports_property_kind_and_span() {
    let source = "main() {\n  var a;\n  a = [1, 2];\n  return a[input];\n}";
    let module = module(source);
    let outcome = Interpreter::new(&module)
        .unwrap()
        .run_main(&[2], &RunConfig::default())
        .unwrap();
    let RunEnd::RuntimeError { prop, kind, span } = outcome.end else {
        panic!("expected a runtime error, got {:?}", outcome.end)
    };
    assert_eq!(kind, PropertyKind::OutOfBounds);
    assert_eq!(module.properties[prop.index()].span, span);
    assert_eq!(&source[span.range()], "[input]");
}

#[test]
fn assume_failure_is_silent_and_located() {
    let source = "main() {\n  var x;\n  x = input;\n  output 1;\n  assume(x > 0);\n  output 2;\n  return x;\n}";
    let outcome = run(source, &[0]);
    assert_eq!(outcome.outputs, [1]);
    let RunEnd::AssumeFailed { span } = outcome.end else {
        panic!("expected an assume failure, got {:?}", outcome.end)
    };
    assert_eq!(LineIndex::new(source).start(span).line, 5);
    assert_eq!(run(source, &[3]).end.returned_int(), Some(3));
}

#[test]
fn endless_recursion_hits_the_call_depth_limit() {
    let source = "f(n) {\n  return f(n + 1);\n}\nmain() {\n  return f(0);\n}";
    match run(source, &[]).end {
        RunEnd::LimitExceeded { limit, span } => {
            assert_eq!(
                limit,
                Limit::CallDepth(symex_interp::DEFAULT_MAX_CALL_DEPTH)
            );
            assert_eq!(&source[span.range()], "f(n + 1)");
        }
        other => panic!("expected the call depth limit, got {other:?}"),
    }
    let small = run_with(source, &[], &RunConfig::default().with_max_call_depth(10));
    assert!(matches!(
        small.end,
        RunEnd::LimitExceeded {
            limit: Limit::CallDepth(10),
            ..
        }
    ));
}

#[test]
fn endless_loop_hits_the_step_limit() {
    let source = "main() {\n  var i;\n  i = 0;\n  while (1) { i = i + 1; }\n  return i;\n}";
    let outcome = run_with(source, &[], &RunConfig::default().with_max_steps(10_000));
    assert_eq!(outcome.steps, 10_000);
    assert!(matches!(
        outcome.end,
        RunEnd::LimitExceeded {
            limit: Limit::Steps(10_000),
            ..
        }
    ));
}

#[test]
fn any_function_can_be_the_entry() {
    let source = "add(a, b) {\n  return a + b;\n}\nmain() {\n  return 0;\n}";
    let module = module(source);
    let interp = Interpreter::new(&module).unwrap();
    let entry = Entry::new(&module, "add", vec![ArgValue::Int(40), ArgValue::Int(2)]).unwrap();
    let outcome = interp.run(&entry, &[], &RunConfig::default()).unwrap();
    assert_eq!(outcome.end, RunEnd::Returned(Value::Int(42)));
    assert!(Entry::new(&module, "add", vec![ArgValue::Int(1)]).is_err());
}

#[test]
fn an_entry_may_return_a_pointer() {
    let source = "mk(v) {\n  return alloc v;\n}\nmain() {\n  return 0;\n}";
    let module = module(source);
    let interp = Interpreter::new(&module).unwrap();
    let entry = Entry::new(&module, "mk", vec![ArgValue::Int(1)]).unwrap();
    let outcome = interp.run(&entry, &[], &RunConfig::default()).unwrap();
    assert!(matches!(outcome.end, RunEnd::Returned(Value::Ptr(_))));
}

#[test]
fn the_recorded_path_follows_the_branches_taken() {
    let source = "main() {\n  var x;\n  x = input;\n  if (x > 0) { output 1; } else { output 2; }\n  return x;\n}";
    let config = RunConfig::default().with_path();
    let positive = run_with(source, &[5], &config).path.unwrap();
    let negative = run_with(source, &[-5], &config).path.unwrap();
    assert_eq!(positive.len(), negative.len());
    assert_ne!(positive, negative);
    assert_eq!(positive[0], negative[0]);
}

#[test]
fn events_record_inputs_assignments_calls_branches_and_returns() {
    let source = "twice(v) {\n  var t;\n  t = v + v;\n  return t;\n}\nmain() {\n  var x, p, y;\n  x = input;\n  p = &y;\n  *p = 3;\n  if (x > 0) { x = twice(x); }\n  return x;\n}";
    let module = module(source);
    let names = |f: usize, l: u32| module.functions[f].locals[l as usize].name.clone();
    let outcome = Interpreter::new(&module)
        .unwrap()
        .run_main(&[4], &RunConfig::default().with_events())
        .unwrap();
    let lines = LineIndex::new(source);
    let events: Vec<String> = outcome
        .events
        .unwrap()
        .iter()
        .map(|e| {
            let line = lines.start(e.span).line;
            let what = match &e.kind {
                EventKind::Input { index, value } => format!("input #{index}={value}"),
                EventKind::Assign { var, value } => {
                    format!("{}={value:?}", names(e.func.index(), var.0))
                }
                EventKind::Call { callee, args } => format!("call {}{args:?}", callee.0),
                EventKind::Branch { condition } => format!("branch {condition}"),
                EventKind::Return { value } => format!("return {value:?}"),
                EventKind::Alloc { cell, value } => format!("alloc {}={value:?}", cell.0),
                EventKind::LocalCell { var, cell } => {
                    format!("cell {} of {}", cell.0, names(e.func.index(), var.0))
                }
                EventKind::Store {
                    target,
                    path,
                    value,
                } => format!("store {target:?}{path:?}={value:?}"),
            };
            format!("{line}: {what}")
        })
        .collect();
    assert_eq!(
        events,
        [
            "6: cell 0 of y",
            "8: input #0=4",
            "8: x=Int(4)",
            "9: p=Ptr(CellId(0))",
            "10: store Local(LocalId(2))[]=Int(3)",
            "11: branch true",
            "11: call 0[Int(4)]",
            "1: v=Int(4)",
            "3: t=Int(8)",
            "4: return Int(8)",
            "11: x=Int(8)",
            "12: return Int(8)",
        ]
    );
    // Nothing is recorded without `with_events`.
    assert_eq!(run(source, &[4]).events, None);
}

#[test]
fn address_taken_parameter_and_snapshot_before_a_call() {
    let source = "set(p, v) {
  *p = v;
  return 0;
}
main() {
  var x, r;
  x = 1;
  r = x + set(&x, 10) + x;
  return r;
}";
    // Left to right: x (1) is read before the call, set returns 0, the second x is 10.
    assert_eq!(run(source, &[]).end.returned_int(), Some(11));
}

/// Records do not nest (microc.md): the run stops with a type error where a record is put into
/// a record field, by a literal or by a field write; arrays of records stay fine.
#[test]
fn a_record_put_into_a_record_field_stops_the_run() {
    for source in [
        "main() { var r, q; r = {a: 1}; q = {b: r}; return 0; }",
        "main() { var r, q; r = {a: 1}; q = {b: 0}; q.b = r; return 0; }",
        "main() { var r, p; r = {a: 1}; p = alloc {b: 0}; p->b = r; return 0; }",
    ] {
        let outcome = run(source, &[]);
        match &outcome.end {
            RunEnd::TypeError { message, .. } => {
                assert!(message.contains("records do not nest"), "{message}")
            }
            other => panic!("{source}: {other:?}"),
        }
    }
    let fine = run(
        "main() { var a; a = [{x: 1}, {x: 2}]; a[1] = {x: 3}; return a[1].x; }",
        &[],
    );
    assert_eq!(fine.end.returned_int(), Some(3));
}

#[test]
fn inputs_can_be_chosen_by_the_place_that_reads_them() {
    // Each `input` gets its line number times 10; the sites of the reads are recorded.
    let source = "main() {\n  var a, b;\n  a = input;\n  b = input;\n  return a * 100 + b;\n}\n";
    let module = module(source);
    let lines = LineIndex::new(source);
    let mut choose = |span: symex_syntax::span::Span| lines.start(span).line as i32 * 10;
    let config = RunConfig::default().with_input_sites();
    let outcome = Interpreter::new(&module)
        .unwrap()
        .run_choosing(&Entry::main(&module).unwrap(), &mut choose, &config)
        .unwrap();
    assert!(
        matches!(outcome.end, RunEnd::Returned(Value::Int(3040))),
        "{:?}",
        outcome.end
    );
    let sites: Vec<u32> = (outcome.input_sites.expect("recorded").iter())
        .map(|s| lines.start(*s).line)
        .collect();
    assert_eq!(sites, [3, 4]);
    assert_eq!(outcome.inputs_read, 2);
}
