//! Parser tests: precedence, literals, structure, recovery, nesting limits.

use super::*;

fn parse_ok(text: &str) -> Program {
    let (program, errors) = parse(text);
    assert!(errors.is_empty(), "unexpected errors: {errors:?}");
    program
}

fn messages(text: &str) -> Vec<String> {
    parse(text).1.into_iter().map(|d| d.message).collect()
}

/// The body's first statement's right-hand side, printed fully parenthesised.
fn rhs(expr_text: &str) -> String {
    let program = parse_ok(&format!("main() {{ var x; x = {expr_text}; return 0; }}"));
    match &program.functions[0].body[0].kind {
        StmtKind::Assign { value, .. } => show(value),
        other => panic!("not an assignment: {other:?}"),
    }
}

fn show(e: &Expr) -> String {
    match &e.kind {
        ExprKind::Number(n) => n.to_string(),
        ExprKind::Var(x) => x.name.clone(),
        ExprKind::Null => "null".into(),
        ExprKind::Input => "input".into(),
        ExprKind::Unary(op, a) => format!("({}{})", op.symbol(), show(a)),
        ExprKind::Binary(op, a, b) => format!("({} {} {})", show(a), op.symbol(), show(b)),
        ExprKind::Deref(a) => format!("(*{})", show(a)),
        ExprKind::AddrOf(a) => format!("(&{})", show(a)),
        ExprKind::Alloc(a) => format!("(alloc {})", show(a)),
        ExprKind::Field(a, f) => format!("{}.{}", show(a), f.name),
        ExprKind::Index(a, i) => format!("{}[{}]", show(a), show(i)),
        ExprKind::Call(f, args) => {
            format!(
                "{}({})",
                f.name,
                args.iter().map(show).collect::<Vec<_>>().join(", ")
            )
        }
        ExprKind::Record(fs) => format!(
            "{{{}}}",
            fs.iter()
                .map(|(f, e)| format!("{}: {}", f.name, show(e)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        ExprKind::Array(es) => {
            format!("[{}]", es.iter().map(show).collect::<Vec<_>>().join(", "))
        }
        ExprKind::Error => "<error>".into(),
    }
}

#[test]
fn precedence_and_associativity() {
    assert_eq!(rhs("1 + 2 * 3 - 4"), "((1 + (2 * 3)) - 4)");
    assert_eq!(
        rhs("a || b && c == d < e + f * g"),
        "(a || (b && (c == (d < (e + (f * g))))))"
    );
    assert_eq!(rhs("a - b - c"), "((a - b) - c)");
    assert_eq!(rhs("a / b % c"), "((a / b) % c)");
    assert_eq!(rhs("!a + b"), "((!a) + b)");
    assert_eq!(rhs("*p.f"), "(*p.f)");
    assert_eq!(rhs("(*p).f[2]"), "(*p).f[2]");
}

#[test]
fn negative_literals_and_subtraction() {
    assert_eq!(rhs("-5"), "-5");
    assert_eq!(rhs("x-1"), "(x - 1)");
    assert_eq!(rhs("x - -2147483648"), "(x - -2147483648)");
    assert_eq!(rhs("-x"), "(-x)");
    assert_eq!(rhs("--5"), "(--5)");
}

#[test]
fn arrow_is_deref_then_field() {
    assert_eq!(rhs("p->next->val"), "(*(*p).next).val");
}

#[test]
fn unary_forms_records_arrays_calls() {
    assert_eq!(
        rhs("alloc {val: input, next: null}"),
        "(alloc {val: input, next: null})"
    );
    assert_eq!(rhs("&x"), "(&x)");
    assert_eq!(rhs("f(1, g(x), [])[0]"), "f(1, g(x), [])[0]");
    assert_eq!(rhs("[[1, 2], [3]][1][0]"), "[[1, 2], [3]][1][0]");
}

#[test]
fn statements_and_structure() {
    let program = parse_ok(
        "f(a, b) { var x; var y, z; if (a) { x = 1; } else x = 2; while (b) {} \
         output x; assert(x > 0); assume(y == y); m[1][2] = 0; p->f = 3; return x; }",
    );
    let f = &program.functions[0];
    assert_eq!(f.params.len(), 2);
    assert_eq!(
        f.locals.iter().map(|l| l.name.as_str()).collect::<Vec<_>>(),
        ["x", "y", "z"]
    );
    assert_eq!(f.body.len(), 7);
}

#[test]
fn node_ids_are_dense_and_unique() {
    let program = parse_ok("main() { var x; x = 1 + 2 * input; return x; }");
    let mut ids = Vec::new();
    crate::ast::walk_stmts_exprs(&program.functions[0].body, &mut |e| ids.push(e.id.0));
    crate::ast::walk_expr(&program.functions[0].ret, &mut |e| ids.push(e.id.0));
    ids.sort();
    assert_eq!(ids, (0..program.node_count).collect::<Vec<_>>());
}

#[test]
fn misplaced_var_and_return() {
    assert_eq!(
        messages("main() { var x; x = 1; var y; return x; }"),
        ["`var` declaration after a statement"]
    );
    assert_eq!(
        messages("main() { if (1) { return 1; } return 0; }"),
        ["`return` in the middle of a function"]
    );
    assert_eq!(
        messages("main() { return 1; output 2; }"),
        ["statement after the final `return`"]
    );
    assert_eq!(
        messages("main() { output 1; }"),
        ["function `main` has no final `return`"]
    );
}

#[test]
fn several_errors_in_one_run() {
    let errors = messages(
        "f(x) {\n var y;\n y = x + ;\n output y\n if (x > 1 { y = 2; }\n g(3);\n return y;\n}\n\
         main() { var a; a = 99999999999; return a }\n",
    );
    assert_eq!(
        errors,
        [
            "expected an expression, found `;`",
            "expected `;`, found `if`",
            "expected `)`, found `{`",
            "expression used as a statement",
            "integer literal out of range",
            "expected `;`, found `}`",
        ]
    );
}

#[test]
fn errors_say_what_was_expected_where() {
    let text = "main() {\n  var x;\n  x = 1\n  return x;\n}\n";
    let (_, errors) = parse(text);
    let rendered = errors[0].render("t.uc", text, false);
    assert!(
        rendered.contains("expected `;`, found `return`"),
        "{rendered}"
    );
    assert!(rendered.contains("t.uc:3:8"), "{rendered}");
    assert!(rendered.contains("  x = 1"), "{rendered}");
}

#[test]
fn literal_range() {
    assert_eq!(rhs("2147483647"), "2147483647");
    assert_eq!(
        messages("main() { return 2147483648; }"),
        ["integer literal out of range"]
    );
    assert_eq!(
        messages("main() { return -2147483649; }"),
        ["integer literal out of range"]
    );
}

#[test]
fn keywords_are_not_identifiers_but_continue_is() {
    parse_ok("main() { var continue; continue = 1; return continue; }");
    assert_eq!(
        messages("main() { var while; return 0; }"),
        ["expected a variable name, found keyword `while`"]
    );
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    let deep = format!(
        "main() {{ return {}1{}; }}",
        "(".repeat(100_000),
        ")".repeat(100_000)
    );
    assert_eq!(messages(&deep), ["program too deeply nested"]);
    let deep_blocks = format!(
        "main() {{ {} {} return 0; }}",
        "{".repeat(50_000),
        "}".repeat(50_000)
    );
    assert_eq!(messages(&deep_blocks), ["program too deeply nested"]);
    let unary = format!("main() {{ return {}1; }}", "-".repeat(100_000));
    assert_eq!(messages(&unary), ["program too deeply nested"]);
    let fields = format!("main() {{ var r; return r{}; }}", ".f".repeat(100_000));
    assert_eq!(messages(&fields), ["program too deeply nested"]);
    let arrows = format!("main() {{ var r; return r{}; }}", "->f".repeat(100_000));
    assert_eq!(messages(&arrows), ["program too deeply nested"]);
    let indices = format!("main() {{ var r; return r{}; }}", "[0]".repeat(100_000));
    assert_eq!(messages(&indices), ["program too deeply nested"]);
    // A long chain is a deep tree: fine up to the limit, an error beyond.
    let chain = |n| format!("main() {{ return 1{}; }}", " + 1".repeat(n));
    assert!(parse(&chain(200)).1.is_empty());
    assert_eq!(messages(&chain(100_000)), ["program too deeply nested"]);
}

#[test]
fn garbage_is_reported_not_fatal() {
    assert_eq!(
        messages("main() { x = 1 # 2; return 0; }"),
        ["unexpected character `#`"]
    );
    assert_eq!(
        messages("/* open"),
        ["expected a function definition, found an unterminated `/*` comment"]
    );
    assert!(!messages("}}}{{{").is_empty());
    assert!(messages("").is_empty());
}
