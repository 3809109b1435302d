//! Tests of type inference: the corpus, recursive types, the table, and the wording and
//! locations of type errors.

use super::*;
use crate::ast::{walk_expr, walk_stmts_exprs, Expr, ExprKind};
use crate::diag::Diagnostic;
use crate::span::Span;
use crate::{parser, resolve};

/// Parses and resolves `source`, which must be free of syntax and resolution errors.
fn program(source: &str) -> Program {
    let (program, syntax_errors) = parser::parse(source);
    assert!(
        syntax_errors.is_empty(),
        "syntax errors: {syntax_errors:#?}"
    );
    let resolve_errors = resolve::check(&program, "main", true);
    assert!(
        resolve_errors.is_empty(),
        "resolution errors: {resolve_errors:#?}"
    );
    program
}

fn typed(source: &str) -> (Program, TypeTable) {
    let program = program(source);
    match infer(&program) {
        Ok(table) => (program, table),
        Err(errors) => panic!("type errors: {errors:#?}"),
    }
}

fn type_errors(source: &str) -> Vec<Diagnostic> {
    match infer(&program(source)) {
        Ok(table) => panic!(
            "expected type errors, got\n{}",
            table.render(&program(source))
        ),
        Err(errors) => errors,
    }
}

fn local(table: &TypeTable, function: &str, name: &str) -> String {
    match table.local_type(function, name) {
        Some(ty) => ty.to_string(),
        None => panic!("no local `{name}` in `{function}`"),
    }
}

fn text(source: &str, span: Span) -> &str {
    &source[span.range()]
}

/// Secondary labels as (covered text, message).
fn secondary<'s>(source: &'s str, diagnostic: &Diagnostic) -> Vec<(&'s str, String)> {
    diagnostic
        .secondary
        .iter()
        .map(|label| (text(source, label.span), label.message.clone()))
        .collect()
}

/// The first expression (pre-order) whose source text is `wanted`.
fn find_expr<'p>(program: &'p Program, source: &str, wanted: &str) -> &'p Expr {
    let mut found = None;
    for function in &program.functions {
        let mut visit = |e: &'p Expr| {
            if found.is_none() && text(source, e.span) == wanted {
                found = Some(e);
            }
        };
        walk_stmts_exprs(&function.body, &mut visit);
        walk_expr(&function.ret, &mut visit);
    }
    match found {
        Some(e) => e,
        None => panic!("no expression `{wanted}`"),
    }
}

const MICROC_EXAMPLE: &str = "
length(l) {
  var n;
  n = 0;
  while (l != null && n < 10) { l = l->next; n = n + 1; }
  return n;
}
main() {
  var a, b;
  a = alloc {val: input, next: null};
  b = alloc {val: input, next: a};
  if ((*a).val > 5) { a->next = b; }
  assert(length(b) < 10);
  return 0;
}
";

#[test]
fn every_corpus_program_type_checks() {
    let directory = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../vendor/corpus");
    let entries = match std::fs::read_dir(&directory) {
        Ok(entries) => entries,
        Err(error) => panic!("cannot read {}: {error}", directory.display()),
    };
    let mut paths: Vec<_> = entries
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "uc"))
        .collect();
    paths.sort();
    assert!(paths.len() >= 50, "only {} corpus files", paths.len());
    let mut failures = Vec::new();
    for path in &paths {
        let source = std::fs::read_to_string(path).unwrap_or_default();
        let name = path
            .file_name()
            .map_or(String::new(), |n| n.to_string_lossy().into_owned());
        match crate::analyze(&source) {
            Err(errors) => failures.push(format!(
                "{name}: {}",
                errors[0].render(&name, &source, false)
            )),
            Ok(frontend) => {
                if let Err(errors) = frontend.types {
                    failures.push(format!(
                        "{name}: {}",
                        errors[0].render(&name, &source, false)
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_microc_example_types_length_over_a_recursive_record() {
    let (program, table) = typed(MICROC_EXAMPLE);
    assert_eq!(
        table.render(&program),
        "length: (μα.↑{next: α, val: int}) -> int
  l: μα.↑{next: α, val: int}
  n: int
main: () -> int
  a: μα.↑{next: α, val: int}
  b: μα.↑{next: α, val: int}
"
    );
    let length = table.function_type("length");
    assert_eq!(
        length,
        Some(Type::Function(
            vec![Type::Recursive(
                0,
                Box::new(Type::Pointer(Box::new(Type::Record(vec![
                    ("next".to_string(), Type::RecVar(0)),
                    ("val".to_string(), Type::Int),
                ]))))
            )],
            Box::new(Type::Int)
        ))
    );
}

#[test]
fn helpers_see_through_mu() {
    let (_, table) = typed(MICROC_EXAMPLE);
    let list = table.local_type("length", "l").unwrap_or(Type::Unknown);
    assert!(list.is_pointer());
    assert!(!list.is_int() && !list.is_record() && !list.is_array());
    let node = list.pointee().unwrap_or(Type::Unknown);
    assert!(node.is_record());
    let fields = node.record_fields().unwrap_or_default();
    let names: Vec<&str> = fields.iter().map(|(name, _)| name.as_str()).collect();
    assert_eq!(names, vec!["next", "val"]);
    assert!(node.field("val").is_some_and(|ty| ty.is_int()));
    // The next field is the list type again.
    let next = node.field("next").unwrap_or(Type::Unknown);
    assert_eq!(next.to_string(), list.to_string());
    assert!(next
        .pointee()
        .and_then(|n| n.field("next"))
        .is_some_and(|ty| ty.is_pointer()));
    assert_eq!(node.field("missing"), None);
    assert_eq!(Type::Int.pointee(), None);
    assert!(table
        .local_type("length", "n")
        .is_some_and(|ty| ty.is_int()));
    assert_eq!(table.local_type("length", "zz"), None);
    assert_eq!(table.local_type("nowhere", "n"), None);
    assert_eq!(table.function_type("nowhere"), None);
}

#[test]
fn expression_types() {
    let (program, table) = typed(MICROC_EXAMPLE);
    let next = find_expr(&program, MICROC_EXAMPLE, "l->next");
    assert_eq!(
        table.expr_type(next.id).to_string(),
        "μα.↑{next: α, val: int}"
    );
    // `l->next` is `(*l).next`: the inner dereference has the node type.
    let ExprKind::Field(deref, _) = &next.kind else {
        panic!("`l->next` is not a field access");
    };
    assert_eq!(
        table.expr_type(deref.id).to_string(),
        "μα.{next: ↑α, val: int}"
    );
    let comparison = find_expr(&program, MICROC_EXAMPLE, "l != null");
    assert_eq!(table.expr_type(comparison.id), Type::Int);
    let null = find_expr(&program, MICROC_EXAMPLE, "null");
    assert!(table.expr_type(null.id).is_pointer());
    let record = find_expr(&program, MICROC_EXAMPLE, "{val: input, next: null}");
    assert!(table.expr_type(record.id).is_record());
    assert_eq!(table.expr_type(NodeId(u32::MAX)), Type::Unknown);
}

#[test]
fn trees_and_doubly_linked_lists() {
    let source = "
main() {
  var t, n, d;
  t = alloc {left: null, right: null, key: 1};
  n = t;
  while (n->left != null) { n = n->left; }
  n->left = alloc {left: null, right: null, key: 0};
  n = n->right;
  d = alloc {prev: null, next: null, val: 0};
  d->next = alloc {prev: d, next: null, val: 1};
  d = d->next;
  return t->left->key + d->prev->val;
}";
    let (_, table) = typed(source);
    assert_eq!(
        local(&table, "main", "t"),
        "μα.↑{key: int, left: α, right: α}"
    );
    assert_eq!(
        local(&table, "main", "d"),
        "μα.↑{next: α, prev: α, val: int}"
    );
}

#[test]
fn records_of_different_shapes_stay_apart() {
    let source = "
main() {
  var p, q;
  p = alloc {val: 1, next: null};
  q = alloc {data: null};
  q->data = q;
  return p->val;
}";
    let (_, table) = typed(source);
    assert_eq!(local(&table, "main", "p"), "↑{next: ↑α, val: int}");
    assert_eq!(local(&table, "main", "q"), "μα.↑{data: α}");
}

#[test]
fn open_records_from_field_accesses_take_the_fields_of_the_argument() {
    let source = "
second(p) { return p->next->val; }
untouched(q) { return q->val; }
main() { var a; a = alloc {val: 1, next: alloc {val: 2, next: null}}; return second(a); }";
    let (program, table) = typed(source);
    assert_eq!(
        table.render(&program),
        "second: (↑{next: ↑{next: ↑α, val: int}, val: int}) -> int
  p: ↑{next: ↑{next: ↑α, val: int}, val: int}
untouched: (↑{val: α}) -> α
  q: ↑{val: α}
main: () -> int
  a: ↑{next: ↑{next: ↑α, val: int}, val: int}
"
    );
}

#[test]
fn arrays_and_unconstrained_variables() {
    let source = "
id(x) { return x; }
main() {
  var m, e, p;
  m = [[1, 2], [3]];
  m[1][0] = 4;
  e = [];
  p = [alloc 1, null];
  return m[0][1] + *p[1];
}";
    let (program, table) = typed(source);
    assert_eq!(local(&table, "main", "m"), "[[int]]");
    assert_eq!(local(&table, "main", "e"), "[α]");
    assert_eq!(local(&table, "main", "p"), "[↑int]");
    assert_eq!(
        table.function_type("id").map(|t| t.to_string()).as_deref(),
        Some("(α) -> α")
    );
    let m = table.local_type("main", "m").unwrap_or(Type::Unknown);
    assert!(m
        .element()
        .is_some_and(|row| row.element().is_some_and(|cell| cell.is_int())));
    assert!(table.render(&program).starts_with("id: (α) -> α\n  x: α\n"));
}

#[test]
fn records_may_hold_arrays_and_sit_in_arrays() {
    let source = "
main() {
  var r, a;
  r = {items: [1, 2], next: null};
  a = [{k: 1}, {k: 2}];
  return r.items[0] + a[1].k;
}";
    let (_, table) = typed(source);
    assert_eq!(local(&table, "main", "r"), "{items: [int], next: ↑α}");
    assert_eq!(local(&table, "main", "a"), "[{k: int}]");
}

#[test]
fn a_mismatch_shows_both_types_and_where_they_came_from() {
    let source = "main() {
  var x;
  x = 1;
  x = alloc 1;
  return 0;
}";
    let errors = type_errors(source);
    assert_eq!(errors.len(), 1);
    let error = &errors[0];
    assert_eq!(error.message, "type mismatch: `int` vs `↑int`");
    assert_eq!(text(source, error.primary.span), "alloc 1");
    assert_eq!(
        error.primary.message,
        "the target is `int`, the value `↑int`"
    );
    assert_eq!(
        secondary(source, error),
        vec![("1", "`int` from this number literal".to_string())]
    );
    let rendered = error.render("bad.uc", source, false);
    assert!(
        rendered.contains("type mismatch: `int` vs `↑int`"),
        "{rendered}"
    );
    assert!(rendered.contains("bad.uc:4:7"), "{rendered}");
    assert!(
        rendered.contains("`int` from this number literal"),
        "{rendered}"
    );
    assert!(rendered.contains("x = alloc 1;"), "{rendered}");
}

#[test]
fn a_field_holding_an_int_and_later_a_pointer_is_rejected() {
    // The interpreter runs this (it is dynamically typed); the type checker does not.
    let source = "main() {
  var p;
  p = alloc {f: 1};
  p->f = alloc 2;
  return 0;
}";
    let errors = type_errors(source);
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].message, "type mismatch: `int` vs `↑int`");
    assert_eq!(text(source, errors[0].primary.span), "alloc 2");
    assert_eq!(
        secondary(source, &errors[0]),
        vec![("1", "`int` from this number literal".to_string())]
    );
}

#[test]
fn a_record_stored_in_a_field_is_rejected_with_use_a_pointer() {
    let source = "main() {
  var r, s;
  r = {b: 1};
  s = {a: r};
  return 0;
}";
    let errors = type_errors(source);
    assert_eq!(errors.len(), 1);
    let error = &errors[0];
    assert_eq!(
        error.message,
        "records do not nest: field `a` holds a record; use a pointer"
    );
    assert_eq!(text(source, error.primary.span), "a");
    assert_eq!(error.primary.message, "field `a` holds `{b: int}`");
    assert_eq!(
        secondary(source, error),
        vec![("{b: 1}", "this record ends up in field `a`".to_string())]
    );
    assert!(error.notes[0].contains("alloc"));
}

#[test]
fn a_pair_of_types_shares_its_variable_names() {
    let pointer = |ty: Type| Type::Pointer(Box::new(ty));
    assert_eq!(
        display_pair(&pointer(Type::Var(7)), &pointer(Type::Var(3))),
        ("↑α".to_string(), "↑β".to_string())
    );
    assert_eq!(
        display_pair(&Type::Var(3), &pointer(Type::Var(3))),
        ("α".to_string(), "↑α".to_string())
    );
}

#[test]
fn comparing_records_or_arrays_is_rejected_where_the_interpreter_would_stop() {
    let source = "f(p, q) { var a; a = [1, 2]; assert(*p == *q); p->x = 1; return a != [3]; }
main() { return 0; }";
    let errors = type_errors(source);
    let found: Vec<(&str, &str, &str)> = errors
        .iter()
        .map(|e| {
            (
                e.message.as_str(),
                text(source, e.primary.span),
                e.primary.message.as_str(),
            )
        })
        .collect();
    assert_eq!(
        found,
        vec![
            (
                "`==` compares numbers or pointers, not records",
                "*p == *q",
                "both sides are `{x: int}`"
            ),
            (
                "`!=` compares numbers or pointers, not arrays",
                "a != [3]",
                "both sides are `[int]`"
            ),
        ]
    );
    assert_eq!(errors[0].notes, vec!["help: compare the fields one by one"]);
    // Numbers, pointers and values nothing constrains still compare.
    let fine = "f(p, q, x) { var u, v; assert(p == q && x != 1 && u == v); return *p; }
main() { return 0; }";
    typed(fine);
}

#[test]
fn a_record_stored_through_a_field_write_is_rejected_too() {
    let source = "set(p) { p->inner = {x: 1}; return 0; }
main() { var c; c = alloc {inner: null}; c->inner = null; return set(alloc {inner: {x: 2}}); }";
    // The syntactic nesting is resolve's; `set` alone nests through types.
    let (program, _) = parser::parse(source);
    let resolve_messages: Vec<String> = resolve::check(&program, "main", true)
        .into_iter()
        .map(|d| d.message)
        .collect();
    assert_eq!(resolve_messages, vec!["records do not nest"]);
    let errors = type_errors("set(p) { p->inner = {x: 1}; return 0; } main() { return 0; }");
    assert_eq!(errors.len(), 1);
    assert_eq!(
        errors[0].message,
        "records do not nest: field `inner` holds a record; use a pointer"
    );
}

#[test]
fn an_unknown_field_names_the_record_and_its_fields() {
    let source = "main() {
  var p;
  p = alloc {val: 1, next: null};
  return p->nxt;
}";
    let errors = type_errors(source);
    assert_eq!(errors.len(), 1);
    let error = &errors[0];
    assert_eq!(error.message, "no field `nxt` in `{next: ↑α, val: int}`");
    assert_eq!(text(source, error.primary.span), "p->nxt");
    assert_eq!(
        secondary(source, error),
        vec![
            (
                "{val: 1, next: null}",
                "`{next: ↑α, val: int}` built here, without field `nxt`".to_string()
            ),
            ("nxt", "field `nxt` used here".to_string()),
        ]
    );
    assert_eq!(
        error.notes,
        vec!["the record has only `next`, `val`; records have a fixed set of fields"]
    );
}

#[test]
fn records_with_different_fields_do_not_mix() {
    let source = "main() {
  var r;
  r = {a: 1};
  r = {b: 1};
  return 0;
}";
    let errors = type_errors(source);
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].message, "type mismatch: `{a: int}` vs `{b: int}`");
    assert_eq!(
        errors[0].notes,
        vec!["the record `{b: int}` has no field `a` (it has only `b`)"]
    );
}

#[test]
fn a_nested_conflict_names_the_inner_types_and_their_origins() {
    let source = "main() {
  var p, q;
  p = alloc 1;
  q = alloc alloc 2;
  p = q;
  return 0;
}";
    let errors = type_errors(source);
    assert_eq!(errors.len(), 1);
    let error = &errors[0];
    assert_eq!(error.message, "type mismatch: `↑int` vs `↑↑int`");
    assert_eq!(text(source, error.primary.span), "q");
    assert_eq!(
        secondary(source, error),
        vec![
            ("1", "`int` from this number literal".to_string()),
            ("alloc 2", "`↑int` from this `alloc`".to_string()),
        ]
    );
    assert_eq!(
        error.notes,
        vec!["the types differ inside: `int` vs `↑int`"]
    );
}

#[test]
fn an_argument_mismatch_points_at_the_parameter() {
    let source = "deref(p) { return *p; }
main() { return deref(7); }";
    let errors = type_errors(source);
    assert_eq!(errors.len(), 1);
    let error = &errors[0];
    assert_eq!(error.message, "type mismatch: `↑α` vs `int`");
    assert_eq!(text(source, error.primary.span), "7");
    assert_eq!(
        error.primary.message,
        "argument 1 is `int`, but parameter `p` of `deref` is `↑α`"
    );
    assert_eq!(
        secondary(source, error),
        vec![
            ("*p", "`↑α` from this dereference".to_string()),
            ("p", "parameter `p`".to_string()),
        ]
    );
}

#[test]
fn operators_conditions_and_output_need_ints() {
    let source = "main() {
  var p, q, r, a;
  p = alloc 1;
  q = alloc 1;
  r = alloc 1;
  a = [1];
  output p + 1;
  if (a) { output 1; }
  output null;
  a[q] = 2;
  return r == 3;
}";
    let errors = type_errors(source);
    let found: Vec<(&str, &str)> = errors
        .iter()
        .map(|e| (text(source, e.primary.span), e.message.as_str()))
        .collect();
    assert_eq!(
        found,
        vec![
            ("p", "type mismatch: `int` vs `↑int`"),
            ("a", "type mismatch: `int` vs `[int]`"),
            ("null", "type mismatch: `int` vs `↑α`"),
            ("q", "type mismatch: `int` vs `↑int`"),
            ("r == 3", "type mismatch: `↑int` vs `int`"),
        ]
    );
    assert_eq!(
        errors[0].primary.message,
        "`+` needs an `int`, this is `↑int`"
    );
    assert_eq!(
        errors[1].primary.message,
        "the condition of `if` must be an `int`, this is `[int]`"
    );
    assert_eq!(
        errors[2].primary.message,
        "`output` prints an `int`, this is `↑α`"
    );
    assert_eq!(
        errors[3].primary.message,
        "an array index must be an `int`, this is `↑int`"
    );
    assert_eq!(
        errors[4].primary.message,
        "`==` compares values of one type, not `↑int` and `int`"
    );
}

#[test]
fn dereference_indexing_and_field_access_of_the_wrong_kind() {
    let source = "main() {
  var a, b, c, r;
  a = 1;
  b = 2;
  c = 3;
  r = {f: 1};
  a = *a;
  b = b[0];
  c = c.f;
  a = r[0];
  return 0;
}";
    let labels: Vec<String> = type_errors(source)
        .into_iter()
        .map(|e| e.primary.message)
        .collect();
    assert_eq!(
        labels,
        vec![
            "`*` needs a pointer, the operand is `int`",
            "`[…]` needs an array, this is `int`",
            "`.f` needs a record with field `f`, this is `int`",
            "`[…]` needs an array, this is `{f: int}`",
        ]
    );
}

#[test]
fn independent_errors_are_all_reported() {
    // A bad argument must not hide a later, unrelated misuse of the variable behind the parameter.
    let source = "second(p) {
  return p->next->val;
}
main() {
  var n, a;
  n = alloc {val: 1, next: null};
  output second(n) + second(3);
  n->next = 5;
  a = [1, null];
  return 0;
}";
    let errors = type_errors(source);
    let found: Vec<(&str, &str)> = errors
        .iter()
        .map(|e| (text(source, e.primary.span), e.message.as_str()))
        .collect();
    assert_eq!(
        found,
        vec![
            (
                "3",
                "type mismatch: `↑{next: ↑{val: int}, val: int}` vs `int`"
            ),
            ("5", "type mismatch: `↑{val: int}` vs `int`"),
            ("null", "type mismatch: `int` vs `↑α`"),
        ]
    );
    assert_eq!(
        errors[2].primary.message,
        "this element is `↑α`, the earlier ones `int`"
    );
}

#[test]
fn later_uses_are_judged_against_the_first_type() {
    let source = "main() {
  var x, y;
  x = 1;
  x = alloc 1;
  y = *x;
  y = y + 1;
  x = 2;
  return y;
}";
    let errors = type_errors(source);
    let found: Vec<(&str, String)> = errors
        .iter()
        .map(|e| (text(source, e.primary.span), e.primary.message.clone()))
        .collect();
    assert_eq!(
        found,
        vec![
            (
                "alloc 1",
                "the target is `int`, the value `↑int`".to_string()
            ),
            (
                "*x",
                "`*` needs a pointer, the operand is `int`".to_string()
            ),
        ]
    );
}

#[test]
fn return_values_and_call_results_agree() {
    let source = "make() { return alloc 1; }
main() { var x; x = make(); return *x + 1; }";
    let (program, table) = typed(source);
    assert!(table.render(&program).starts_with("make: () -> ↑int\n"));
    let errors = type_errors(
        "use() { var x; x = make() + 1; return x; }\nmake() { return alloc 1; }\nmain() { return use(); }",
    );
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].message, "type mismatch: `int` vs `↑int`");
    assert_eq!(
        errors[0].primary.message,
        "the result of `make` is used as `int`, this is `↑int`"
    );
}

#[test]
fn address_of_a_local() {
    let source = "inc(p) { *p = *p + 1; return 0; }
main() { var x, y; x = 1; y = inc(&x); return x; }";
    let (program, table) = typed(source);
    assert_eq!(
        table.render(&program),
        "inc: (↑int) -> int\n  p: ↑int\nmain: () -> int\n  x: int\n  y: int\n"
    );
}

#[test]
fn a_function_used_as_a_value_is_a_resolution_error() {
    let errors = match crate::analyze("f() { return 1; } main() { var x; x = f; return x; }") {
        Err(errors) => errors,
        Ok(_) => panic!("a function used as a value passed the front end"),
    };
    assert_eq!(errors.len(), 1);
    assert_eq!(
        errors[0].message,
        "function `f` used as a value; functions can only be called: `f(...)`"
    );
}

#[test]
fn ill_formed_programs_do_not_crash_inference() {
    let sources = [
        "main() { var x; x = y + f; return g(1, 2); }",
        "f(a) { return a; } f(b, c) { return *b; } main() { var main; main = f(1, 2, 3); return f(); }",
        "main() { var r; r = {a: 1, a: alloc 2}; r = {a: {b: {c: 1}}}; return &r.a; }",
        "main() { var x; x = ; return x +; }",
        "main( { return 1 }",
        "",
        "main() { var p; p = alloc p; p = *p; return p == null; }",
    ];
    for source in sources {
        let (program, _) = parser::parse(source);
        let _ = resolve::check(&program, "main", true);
        if let Ok(table) = infer(&program) {
            let _ = table.render(&program);
        }
    }
}

#[test]
fn a_self_referencing_pointer_is_a_recursive_type() {
    // `p = alloc p` is legal: p is a cell holding a pointer to a cell holding ...
    let (_, table) = typed("main() { var p; p = alloc p; return 0; }");
    assert_eq!(local(&table, "main", "p"), "μα.↑α");
    let p = table.local_type("main", "p").unwrap_or(Type::Unknown);
    assert!(p.pointee().is_some_and(|t| t.is_pointer()));
}

#[test]
fn variable_names_are_consistent_within_one_type_and_restart_per_type() {
    let (program, table) = typed(
        "pair(a, b) { var r; r = alloc {first: a, second: b, again: a}; return r; }\nmain() { return 0; }",
    );
    assert_eq!(
        table.render(&program),
        "pair: (α, β) -> ↑{again: α, first: α, second: β}
  a: α
  b: α
  r: ↑{again: α, first: α, second: β}
main: () -> int
"
    );
}

#[test]
fn variable_names_run_past_the_greek_alphabet() {
    let mut names = VariableNames::default();
    let all: Vec<String> = (0..24).map(|i| names.name(false, i)).collect();
    assert_eq!(all[0], "α");
    assert_eq!(all[21], "ω");
    assert_eq!(all[22], "α1");
    assert_eq!(all[23], "β1");
    assert_eq!(names.name(false, 0), "α");
    assert_eq!(names.name(true, 0), "γ1");
}

#[test]
fn unfolding_substitutes_the_whole_type() {
    let list = Type::Recursive(
        3,
        Box::new(Type::Pointer(Box::new(Type::Record(vec![
            ("next".to_string(), Type::RecVar(3)),
            ("val".to_string(), Type::Int),
        ])))),
    );
    let unfolded = list.unfold().into_owned();
    assert_eq!(
        unfolded,
        Type::Pointer(Box::new(Type::Record(vec![
            ("next".to_string(), list.clone()),
            ("val".to_string(), Type::Int),
        ])))
    );
    assert_eq!(Type::Int.unfold().as_ref(), &Type::Int);
    let shadowed = Type::Recursive(
        1,
        Box::new(Type::Array(Box::new(Type::Recursive(
            1,
            Box::new(Type::Pointer(Box::new(Type::RecVar(1)))),
        )))),
    );
    assert_eq!(
        shadowed.unfold().into_owned(),
        Type::Array(Box::new(Type::Recursive(
            1,
            Box::new(Type::Pointer(Box::new(Type::RecVar(1))))
        )))
    );
}

#[test]
fn equivalence_sees_through_the_placement_of_mu() {
    let (program, table) = typed(MICROC_EXAMPLE);
    let list = table.local_type("length", "l").unwrap_or(Type::Unknown);
    let deref = find_expr(&program, MICROC_EXAMPLE, "(*a)");
    let node = table.expr_type(deref.id);
    assert_eq!(node.to_string(), "μα.{next: ↑α, val: int}");
    let pointee = list.pointee().unwrap_or(Type::Unknown);
    assert_ne!(pointee, node);
    assert!(pointee.equivalent(&node) && node.equivalent(&pointee));
    assert!(list.equivalent(&Type::Pointer(Box::new(node.clone()))));
    assert!(!list.equivalent(&node));
    assert!(!Type::Var(0).equivalent(&Type::Var(1)));
    let other_list = Type::Recursive(
        0,
        Box::new(Type::Pointer(Box::new(Type::Record(vec![
            ("next".to_string(), Type::RecVar(0)),
            ("val".to_string(), Type::Pointer(Box::new(Type::Int))),
        ])))),
    );
    assert!(!list.equivalent(&other_list));
    let unrolled = Type::Pointer(Box::new(Type::Record(vec![
        ("next".to_string(), list.clone()),
        ("val".to_string(), Type::Int),
    ])));
    assert!(unrolled.equivalent(&list));
}

/// A program of about `lines` lines: list-building and list-walking functions.
fn generated_program(lines: usize) -> String {
    let mut source = String::new();
    let functions = lines / 10;
    for i in 0..functions {
        source.push_str(&format!(
            "f{i}(l, k) {{
  var n, c;
  n = 0;
  c = alloc {{val: k, next: l}};
  while (c != null) {{ n = n + c->val; c = c->next; }}
  if (n > {i}) {{ output n; }} else {{ n = n - 1; }}
  assert(n >= -{i});
  l = alloc {{val: n, next: l}};
  return l;
}}
"
        ));
    }
    source.push_str("main() {\n  var l;\n  l = null;\n");
    for i in 0..functions {
        source.push_str(&format!("  l = f{i}(l, {i});\n"));
    }
    source.push_str("  return 0;\n}\n");
    source
}

#[test]
fn a_ten_thousand_line_program_goes_through() {
    let source = generated_program(10_000);
    assert!(source.lines().count() >= 10_000);
    let frontend = match crate::analyze(&source) {
        Ok(frontend) => frontend,
        Err(errors) => panic!("{errors:#?}"),
    };
    let table = match frontend.types {
        Ok(table) => table,
        Err(errors) => panic!("{errors:#?}"),
    };
    assert_eq!(local(&table, "f999", "l"), "μα.↑{next: α, val: int}");
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    /// Random expressions over locals `x`, `y`, `z`, fields `f`, `g` and the function `h`.
    fn expression() -> impl Strategy<Value = String> {
        let leaf = prop_oneof![
            (0..10i32).prop_map(|n| n.to_string()),
            Just("input".to_string()),
            Just("null".to_string()),
            Just("&x".to_string()),
            prop_oneof![Just("x"), Just("y"), Just("z")].prop_map(str::to_string),
        ];
        leaf.prop_recursive(4, 24, 3, |inner| {
            prop_oneof![
                (
                    inner.clone(),
                    inner.clone(),
                    prop_oneof![Just("+"), Just("=="), Just("<"), Just("&&")]
                )
                    .prop_map(|(a, b, op)| format!("({a} {op} {b})")),
                inner.clone().prop_map(|a| format!("(!{a})")),
                inner.clone().prop_map(|a| format!("(*{a})")),
                inner.clone().prop_map(|a| format!("(alloc {a})")),
                (inner.clone(), prop_oneof![Just("f"), Just("g")])
                    .prop_map(|(a, f)| format!("({a}).{f}")),
                (inner.clone(), inner.clone()).prop_map(|(a, i)| format!("({a})[{i}]")),
                (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("{{f: {a}, g: {b}}}")),
                proptest::collection::vec(inner.clone(), 0..3)
                    .prop_map(|v| format!("[{}]", v.join(", "))),
                inner.clone().prop_map(|a| format!("h({a})")),
            ]
        })
    }

    fn statement() -> impl Strategy<Value = String> {
        let target = prop_oneof![
            Just("x".to_string()),
            Just("y".to_string()),
            Just("*z".to_string()),
            Just("x.f".to_string()),
            Just("y[0]".to_string()),
        ];
        prop_oneof![
            (target, expression()).prop_map(|(t, e)| format!("{t} = {e};")),
            expression().prop_map(|e| format!("output {e};")),
            (expression(), expression()).prop_map(|(c, e)| format!("if ({c}) {{ x = {e}; }}")),
            expression().prop_map(|e| format!("assert({e});")),
        ]
    }

    fn source() -> impl Strategy<Value = String> {
        (proptest::collection::vec(statement(), 0..6), expression()).prop_map(|(stmts, ret)| {
            format!(
                "h(p) {{ var q; q = p; return q; }}\nmain() {{ var x, y, z; {} return {ret}; }}",
                stmts.join(" ")
            )
        })
    }

    /// In a well-typed program every construct's typing rule holds in the table.
    fn check_rules(program: &Program, table: &TypeTable) {
        for function in &program.functions {
            let mut visit = |e: &Expr| {
                let ty = |e: &Expr| table.expr_type(e.id);
                let same = |a: Option<Type>, b: Type| {
                    assert!(
                        a.as_ref().is_some_and(|a| a.equivalent(&b)),
                        "{a:?} vs {b:?}"
                    );
                };
                match &e.kind {
                    ExprKind::Deref(p) => same(ty(p).pointee(), ty(e)),
                    ExprKind::Field(r, f) => same(ty(r).field(&f.name), ty(e)),
                    ExprKind::Index(a, i) => {
                        same(ty(a).element(), ty(e));
                        assert!(ty(i).is_int());
                    }
                    ExprKind::Binary(op, a, b) => {
                        assert!(ty(e).is_int());
                        if matches!(op, crate::ast::BinaryOp::Eq | crate::ast::BinaryOp::Ne) {
                            same(Some(ty(a)), ty(b));
                        } else {
                            assert!(ty(a).is_int() && ty(b).is_int());
                        }
                    }
                    ExprKind::Alloc(v) | ExprKind::AddrOf(v) => same(ty(e).pointee(), ty(v)),
                    ExprKind::Record(fields) => {
                        for (name, value) in fields {
                            same(ty(e).field(&name.name), ty(value));
                            assert!(!ty(value).is_record(), "a record in a field passed");
                        }
                    }
                    _ => {}
                }
            };
            walk_stmts_exprs(&function.body, &mut visit);
            walk_expr(&function.ret, &mut visit);
        }
    }

    proptest! {
        // No failure persistence: the test must not write files into the repository; a failure
        // prints its shrunk program, which belongs in a unit test like the one below.
        #![proptest_config(ProptestConfig {
            cases: 600,
            failure_persistence: None,
            ..ProptestConfig::default()
        })]

        #[test]
        fn inference_never_panics_and_agrees_with_the_typing_rules(source in source()) {
            let (program, syntax_errors) = parser::parse(&source);
            prop_assert!(syntax_errors.is_empty(), "{source}: {syntax_errors:?}");
            let resolved = resolve::check(&program, "main", true).is_empty();
            match infer(&program) {
                Ok(table) => {
                    let rendered = table.render(&program);
                    prop_assert!(rendered.starts_with("h: "));
                    if resolved {
                        check_rules(&program, &table);
                    }
                    // Deterministic.
                    let again = infer(&program).map(|t| t.render(&program)).unwrap_or_default();
                    prop_assert_eq!(rendered, again);
                }
                Err(errors) => {
                    prop_assert!(!errors.is_empty());
                    prop_assert!(errors.windows(2).all(|w| w[0].primary.span.start <= w[1].primary.span.start));
                    for error in &errors {
                        let _ = error.render("p.uc", &source, false);
                    }
                }
            }
        }
    }

    /// Found by the property: `x` is `μα.{f: ↑α}`, and `&x`'s pointee is the same type with
    /// its binder elsewhere.
    #[test]
    fn a_self_pointing_record_variable() {
        let source =
            "h(p) { var q; q = p; return q; }\nmain() { var x, y, z;  return [&x, (x).f]; }";
        let (program, table) = typed(source);
        check_rules(&program, &table);
        assert_eq!(local(&table, "main", "x"), "μα.{f: ↑α}");
    }
}

#[test]
fn declared_tables_keep_recursive_types() {
    // `struct node { int v; struct node *next; }` as the C front end declares it: a pointer to
    // a μ record whose `next` points back to it (a table that made it `int` sent every input
    // list of a C `--entry` function into an internal error).
    let node = Type::Recursive(
        0,
        Box::new(Type::Record(vec![
            ("next".into(), Type::Pointer(Box::new(Type::RecVar(0)))),
            ("v".into(), Type::Int),
        ])),
    );
    let pointer = Type::Pointer(Box::new(node.clone()));
    let params = [("p".to_string(), pointer.clone())];
    let locals = [("q".to_string(), pointer.clone())];
    let table = TypeTable::declared([("walk", &params[..], &locals[..])]);
    for name in ["p", "q"] {
        let ty = table.local_type("walk", name).expect("declared");
        assert!(ty.equivalent(&pointer), "{name}: {ty}");
        let next = ty
            .pointee()
            .and_then(|n| n.field("next"))
            .expect("a next field");
        assert!(next.equivalent(&pointer), "{name}.next: {next}");
    }
}
