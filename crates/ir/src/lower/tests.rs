//! Lowering tests: each construct's instructions, compared in the printed form, plus the
//! module-level facts (property sites and spans, fields, flags, layout).

use symex_syntax::span::LineIndex;

use crate::analysis::{Dominators, LoopForest};
use crate::cfg::*;
use crate::test_support::{body, lower_ok};

fn main_body(statements: &str) -> String {
    body(&format!("main() {{\n{statements}\n}}\n"), "main")
}

#[test]
fn division_checks_its_divisor_and_var_reads_their_initialization() {
    let text = "main() { var x, y; x = input; y = 10 / x; return y % 3; }";
    assert_eq!(
        body(text, "main"),
        "bb0:
  x = input
  check uninit x
  check div-by-zero x
  y = 10 / x
  check uninit y
  check div-by-zero 3
  %0 = y % 3
  return %0
"
    );
}

#[test]
fn parameters_and_temporaries_need_no_init_check() {
    let text = "f(a) { return a + 1; } main() { return f(2); }";
    assert_eq!(body(text, "f"), "bb0:\n  %0 = a + 1\n  return %0\n");
    assert_eq!(body(text, "main"), "bb0:\n  %0 = f(2)\n  return %0\n");
}

#[test]
fn dereferences_use_one_place_per_pointer() {
    let got = main_body(
        "var p, y;
         p = alloc {val: 1, next: null};
         y = (*(*p).next).val;
         (*p).val = 3;
         *p = y;
         return p->val;",
    );
    assert_eq!(
        got,
        "bb0:
  %0 = {next: null, val: 1}
  p = alloc %0
  check uninit p
  check null-deref p
  %1 = (*p).next
  check null-deref %1
  y = (*%1).val
  check uninit p
  check null-deref p
  (*p).val = 3
  check uninit p
  check uninit y
  check null-deref p
  *p = y
  check uninit p
  check null-deref p
  %2 = (*p).val
  return %2
"
    );
}

#[test]
fn indices_are_evaluated_before_all_bound_checks() {
    let got = main_body(
        "var m, x;
         m = [[1, 2], [3]];
         x = 1;
         m[x][0] = m[0][x % 2];
         return 0;",
    );
    assert_eq!(
        got,
        "bb0:
  %0 = [1, 2]
  %1 = [3]
  m = [%0, %1]
  x = 1
  check uninit x
  check uninit x
  check div-by-zero 2
  %2 = x % 2
  check uninit m
  check out-of-bounds m[0]
  check out-of-bounds m[0][%2]
  %3 = m[0][%2]
  check uninit m
  check out-of-bounds m[x]
  check out-of-bounds m[x][0]
  m[x][0] = %3
  return 0
"
    );
}

#[test]
fn index_behind_a_pointer() {
    let got = main_body(
        "var p, i;
         p = alloc {a: [1, 2]};
         i = 1;
         (*p).a[i] = 5;
         return (*p).a[0];",
    );
    assert_eq!(
        got,
        "bb0:
  %0 = [1, 2]
  %1 = {a: %0}
  p = alloc %1
  i = 1
  check uninit p
  check uninit i
  check null-deref p
  check out-of-bounds (*p).a[i]
  (*p).a[i] = 5
  check uninit p
  check null-deref p
  check out-of-bounds (*p).a[0]
  %2 = (*p).a[0]
  return %2
"
    );
}

#[test]
fn writing_part_of_a_var_reads_it_but_writing_all_of_it_does_not() {
    let got = main_body("var r; r = {f: 0}; r.f = 1; return 0;");
    assert_eq!(
        got,
        "bb0:\n  r = {f: 0}\n  check uninit r\n  r.f = 1\n  return 0\n"
    );
}

#[test]
fn reads_through_pointers_check_initialization_when_a_var_address_is_taken() {
    let text = "main() { var x, p, y; p = &x; *p = 1; y = *p; return y; }";
    assert_eq!(
        body(text, "main"),
        "bb0:
  p = &x
  check uninit p
  check null-deref p
  *p = 1
  check uninit p
  check null-deref p
  check uninit *p
  y = *p
  check uninit y
  return y
"
    );
    let module = lower_ok(text);
    assert!(module.functions[0].locals[0].address_taken);
    // Taking only a parameter's address cannot expose an uninitialized cell.
    let text = "f(a) { var p; p = &a; return *p; } main() { return f(1); }";
    assert!(!body(text, "f").contains("check uninit *p"));
    // Nor can a program that takes no address at all.
    let text = "main() { var p; p = alloc 1; return *p; }";
    assert!(!body(text, "main").contains("check uninit *p"));
}

#[test]
fn partial_writes_through_pointers_check_the_cell() {
    let text = "main() { var r, p; p = &r; (*p).f = 1; return 0; }";
    let got = body(text, "main");
    assert!(got.contains("check null-deref p\n  check uninit *p\n  (*p).f = 1\n"));
}

#[test]
fn assert_assume_output_input() {
    let got = main_body("var x; x = input; assume(x > 0); output x; assert(x); return input;");
    assert_eq!(
        got,
        "bb0:
  x = input
  check uninit x
  %0 = x > 0
  assume %0
  check uninit x
  output x
  check uninit x
  check assert x
  %1 = input
  return %1
"
    );
}

#[test]
fn short_circuit_values_are_zero_or_one() {
    let got = main_body("var a, b; a = input; b = a && input; return a || b;");
    assert_eq!(
        got,
        "bb0:
  a = input
  check uninit a
  branch a ? bb1 : bb3
bb1:
  %1 = input
  branch %1 ? bb2 : bb3
bb2:
  %0 = 1
  goto bb4
bb3:
  %0 = 0
  goto bb4
bb4:
  b = %0
  check uninit a
  branch a ? bb6 : bb5
bb5:
  check uninit b
  branch b ? bb6 : bb7
bb6:
  %2 = 1
  goto bb8
bb7:
  %2 = 0
  goto bb8
bb8:
  return %2
"
    );
}

#[test]
fn conditions_branch_directly_and_not_swaps_the_arms() {
    let got = main_body(
        "var x; x = input;
         while (!(x < 0) && x != 5) { x = x - 1; }
         if (x) { output 1; }
         return 0;",
    );
    assert_eq!(
        got,
        "bb0:
  x = input
  goto bb1
bb1:
  check uninit x
  %0 = x < 0
  branch %0 ? bb4 : bb2
bb2:
  check uninit x
  %1 = x != 5
  branch %1 ? bb3 : bb4
bb3:
  check uninit x
  x = x - 1
  goto bb1
bb4:
  check uninit x
  branch x ? bb5 : bb6
bb5:
  output 1
  goto bb6
bb6:
  return 0
"
    );
}

#[test]
fn if_else_joins() {
    let got = main_body("var x; if (input) { x = 1; } else { x = 2; } return x;");
    assert_eq!(
        got,
        "bb0:
  %0 = input
  branch %0 ? bb1 : bb2
bb1:
  x = 1
  goto bb3
bb2:
  x = 2
  goto bb3
bb3:
  check uninit x
  return x
"
    );
}

#[test]
fn calls_evaluate_arguments_left_to_right() {
    let text =
        "g(a, b) { return a - b; } main() { var x; x = g(input, input); return g(x, 1) + 2; }";
    assert_eq!(
        body(text, "main"),
        "bb0:
  %0 = input
  %1 = input
  x = g(%0, %1)
  check uninit x
  %2 = g(x, 1)
  %3 = %2 + 2
  return %3
"
    );
    let module = lower_ok(text);
    let InstKind::Call { func, .. } = &module.functions[1].blocks[0].insts[2].kind else {
        panic!("expected a call");
    };
    assert_eq!(module.function(*func).name, "g");
}

#[test]
fn a_local_read_before_a_call_that_may_change_it_is_copied() {
    let text = "set(p) { *p = 5; return 0; } main() { var x; x = 1; return x + set(&x); }";
    assert_eq!(
        body(text, "main"),
        "bb0:
  x = 1
  check uninit x
  %0 = x
  %2 = &x
  %1 = set(%2)
  %3 = %0 + %1
  return %3
"
    );
    // Without `&x` the call cannot change `x`: no copy.
    let text = "f() { return 0; } main() { var x; x = 1; return x + f(); }";
    assert!(body(text, "main").contains("%1 = x + %0"));
}

#[test]
fn a_var_read_before_a_short_circuit_is_copied_into_its_block() {
    let got = main_body("var x, y; x = 1; y = x + (x && 2); return y;");
    assert!(got.starts_with("bb0:\n  x = 1\n  check uninit x\n  %0 = x\n"));
    assert!(got.contains("y = %0 + %1"));
}

#[test]
fn literals_alloc_and_address_of() {
    let got = main_body(
        "var r, a, p; r = {z: 1, a: null}; a = []; p = alloc [1, input]; p = &r; return 0;",
    );
    assert_eq!(
        got,
        "bb0:
  r = {a: null, z: 1}
  a = []
  %0 = input
  %1 = [1, %0]
  p = alloc %1
  p = &r
  return 0
"
    );
}

#[test]
fn accesses_to_values_that_are_not_places_go_through_a_temporary() {
    let text = "f() { return {v: 4}; } main() { var q; q = [1, 2][1]; return f().v + q; }";
    assert_eq!(
        body(text, "main"),
        "bb0:
  %0 = [1, 2]
  check out-of-bounds %0[1]
  q = %0[1]
  %1 = f()
  %2 = %1.v
  check uninit q
  %3 = %2 + q
  return %3
"
    );
}

#[test]
fn ill_typed_programs_lower_too() {
    let text = "main() { var x, y; x = 1; y = x.f; x = *5; y = null[0]; return y; }";
    let front = symex_syntax::analyze(text).expect("resolves");
    assert!(front.types.is_err());
    let module = crate::lower(&front.program);
    crate::verify(&module).expect("verifies");
    let got = body(text, "main");
    assert!(got.contains("check null-deref 5\n  x = *5\n"));
    assert!(got.contains("check out-of-bounds %0[0]"));
}

#[test]
fn property_sites_span_the_failing_construct() {
    let text = "main() {
  var a, p, x;
  x = input;
  a = [1];
  p = alloc 1;
  x = 7 / x;
  x = a[x] + *p;
  assert(x > 0);
  return 0;
}
";
    let module = lower_ok(text);
    let slices: Vec<(&str, &str)> = module
        .properties
        .iter()
        .map(|p| (p.kind.name(), &text[p.span.range()]))
        .collect();
    assert_eq!(
        slices,
        vec![
            ("uninit", "x"),
            ("div-by-zero", "7 / x"),
            ("uninit", "x"),
            ("uninit", "a"),
            ("out-of-bounds", "[x]"),
            ("uninit", "p"),
            ("null-deref", "*p"),
            ("uninit", "x"),
            ("assert", "assert(x > 0);"),
        ]
    );
    assert!(module.properties.iter().all(|p| p.func == FuncId(0)));
    // Every check refers to its own property, in emission order.
    let props: Vec<u32> = module.functions[0].blocks[0]
        .insts
        .iter()
        .filter_map(|i| match i.kind {
            InstKind::Check { prop, .. } => Some(prop.0),
            _ => None,
        })
        .collect();
    assert_eq!(props, (0..9).collect::<Vec<_>>());
}

#[test]
fn arrow_dereference_spans_the_arrow_expression() {
    let text = "main() { var p; p = alloc {f: 1}; return p->f; }";
    let module = lower_ok(text);
    let null = module
        .properties
        .iter()
        .find(|p| p.kind == PropertyKind::NullDeref)
        .expect("a null check");
    assert_eq!(&text[null.span.range()], "p->f");
}

#[test]
fn fields_are_interned_alphabetically_and_records_sorted() {
    let module = lower_ok("main() { var r; r = {z: 1, m: 2}; r.a = 3; return r.m; }");
    assert_eq!(module.fields, vec!["a", "m", "z"]);
    assert_eq!(module.field_id("z"), Some(FieldId(2)));
}

#[test]
fn every_instruction_keeps_a_source_span() {
    let text = "main() { var x; x = input; while (x > 0) { x = x - 1; } return x; }";
    let module = lower_ok(text);
    let lines = LineIndex::new(text);
    for block in &module.functions[0].blocks {
        for inst in &block.insts {
            assert!(inst.span.end > inst.span.start, "{:?}", inst.kind);
            assert_eq!(lines.start(inst.span).line, 1);
        }
        assert!(block.term_span.end > block.term_span.start);
    }
}

#[test]
fn loops_nest_as_written_and_blocks_are_in_reverse_postorder() {
    let text = "main() {
  var i, j, s;
  i = 0; s = 0;
  while (i < 3) {
    j = 0;
    while (j < i) { s = s + j; j = j + 1; }
    i = i + 1;
  }
  while (s > 100) { s = s - 100; }
  return s;
}";
    let module = lower_ok(text);
    let func = &module.functions[0];
    let dom = Dominators::compute(func);
    let order: Vec<BlockId> = dom.reverse_postorder().collect();
    assert_eq!(order, func.block_ids().collect::<Vec<_>>());
    let loops = LoopForest::compute(&dom);
    assert_eq!(loops.loops.len(), 3);
    assert_eq!(loops.roots.len(), 2);
    assert_eq!(loops.loops[1].parent, Some(loops.roots[0]));
    assert_eq!(loops.loops[1].depth, 2);
    assert!(loops.is_reducible());
    assert!(func.predecessors()[0].is_empty());
}

#[test]
fn a_function_with_an_empty_body_is_one_block() {
    assert_eq!(main_body("return 0;"), "bb0:\n  return 0\n");
    assert_eq!(
        main_body("if (1) {} else {} while (0) {} return 0;"),
        "bb0:
  branch 1 ? bb1 : bb2
bb1:
  goto bb3
bb2:
  goto bb3
bb3:
  goto bb4
bb4:
  branch 0 ? bb5 : bb6
bb5:
  goto bb4
bb6:
  return 0
"
    );
}

/// `make(depth)` for the largest depth the front end accepts.
fn deepest_accepted(make: impl Fn(usize) -> String) -> symex_syntax::Frontend {
    let (mut ok, mut too_deep) = (1, 600);
    while too_deep - ok > 1 {
        let mid = (ok + too_deep) / 2;
        if symex_syntax::analyze(&make(mid)).is_ok() {
            ok = mid;
        } else {
            too_deep = mid;
        }
    }
    symex_syntax::analyze(&make(ok)).expect("accepted at this depth")
}

#[test]
fn the_deepest_programs_the_parser_accepts_lower_on_a_test_thread() {
    let shapes: [fn(usize) -> String; 6] = [
        |d| format!("({}1{})", "(1 + ".repeat(d), ")".repeat(d)),
        |d| format!("{}1{}", "(input && ".repeat(d), ")".repeat(d)),
        |d| format!("{}x", "!".repeat(d)),
        |d| format!("a{}", "[0]".repeat(d)),
        |d| format!("{}x{}", "a[".repeat(d), "]".repeat(d)),
        |d| format!("f({}1{})", "f(".repeat(d), ")".repeat(d)),
    ];
    for shape in shapes {
        let front = deepest_accepted(|d| {
            format!(
                "f(n) {{ return n; }} main() {{ var x, a; x = 0; a = [0]; x = {}; return x; }}",
                shape(d)
            )
        });
        crate::verify(&crate::lower(&front.program)).expect("verifies");
    }
    let front = deepest_accepted(|d| {
        format!(
            "main() {{ var x; x = input; {}output 1;{} return x; }}",
            "if (x) { while (x) ".repeat(d),
            " }".repeat(d)
        )
    });
    crate::verify(&crate::lower(&front.program)).expect("verifies");
}
