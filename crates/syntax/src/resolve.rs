//! Name resolution and placement rules of micro-c: the semantic checks that need no types.
//!
//! [`check`] reports, with located and explanatory diagnostics: undeclared variables, calls of
//! undefined functions and calls with the wrong number of arguments; names declared twice
//! (functions, parameters and `var` variables of one function, fields of one record literal);
//! variables named like a function; a missing `main` or a `main` with parameters; functions used
//! as values; `&` of anything but a local variable; and record literals nested in record
//! literals (type inference catches the nestings that are not syntactic).
//!
//! It only reads the AST and never changes it, records nothing about names for later stages
//! (locals are found by name again where needed), and checks nothing that needs types. Syntax
//! errors are the parser's: [`ExprKind::Error`] placeholders are skipped silently.

use std::collections::HashMap;

use crate::ast::{Expr, ExprKind, Function, Ident, Program, Stmt, StmtKind};
use crate::diag::Diagnostic;
use crate::span::Span;

/// Runs every check on `program` and returns the diagnostics (all errors) in source order. A
/// program must have `main` unless `entry` names another function to start at (a library
/// function analysed on its own), or the parser gave up on some function (`parsed_whole`
/// false: `main` may be the one it left out, and "no `main`" would mislead).
pub fn check(program: &Program, entry: &str, parsed_whole: bool) -> Vec<Diagnostic> {
    let mut resolver = Resolver {
        functions: HashMap::new(),
        diagnostics: Vec::new(),
    };
    resolver.collect_functions(program);
    let needs_main = entry == "main" && parsed_whole;
    if needs_main || resolver.functions.contains_key("main") {
        resolver.check_main(program);
    }
    for function in &program.functions {
        resolver.check_function(function);
    }
    let mut diagnostics = resolver.diagnostics;
    diagnostics.sort_by_key(|d| (d.primary.span.start, d.primary.span.end));
    diagnostics
}

struct Resolver<'p> {
    /// The first definition of each function name (later ones are reported as duplicates).
    functions: HashMap<&'p str, &'p Function>,
    diagnostics: Vec<Diagnostic>,
}

/// The locals (parameters and `var` variables) of the function being checked.
struct Scope<'p> {
    function: &'p Function,
    /// Each name's first declaration.
    locals: HashMap<&'p str, &'p Ident>,
}

impl<'p> Resolver<'p> {
    fn report(&mut self, diagnostic: Diagnostic) {
        self.diagnostics.push(diagnostic);
    }

    fn collect_functions(&mut self, program: &'p Program) {
        for function in &program.functions {
            let name = function.name.name.as_str();
            match self.functions.get(name) {
                Some(first) => {
                    let first_span = first.name.span;
                    self.report(
                        Diagnostic::error(
                            function.name.span,
                            format!("function `{name}` is defined twice"),
                        )
                        .with_label("second definition")
                        .with_secondary(first_span, format!("`{name}` first defined here"))
                        .with_note(
                            "help: rename one of the two functions (calls always go to the first)",
                        ),
                    );
                }
                None => {
                    self.functions.insert(name, function);
                }
            }
        }
    }

    fn check_main(&mut self, program: &Program) {
        match self.functions.get("main") {
            None => {
                let end = program
                    .functions
                    .iter()
                    .map(|f| f.span.end)
                    .max()
                    .unwrap_or(0);
                let at = Span { start: end, end };
                self.report(
                    Diagnostic::error(at, "no `main` function: execution starts at `main()`")
                        .with_label("`main` is missing")
                        .with_note("help: add `main() { ... return 0; }`, or name the function to start at with `symex check --entry f`"),
                );
            }
            Some(main) if !main.params.is_empty() => {
                let first = main.params[0].span;
                let last = main.params[main.params.len() - 1].span;
                let main_span = main.name.span;
                self.report(
                    Diagnostic::error(first.to(last), "`main` must not have parameters")
                        .with_label("`main()` is called with no arguments")
                        .with_secondary(main_span, "the program starts here")
                        .with_note("help: use `symex check --entry f` to analyse a function with parameters"),
                );
            }
            Some(_) => {}
        }
    }

    fn check_function(&mut self, function: &'p Function) {
        let mut scope = Scope {
            function,
            locals: HashMap::new(),
        };
        for ident in function.params.iter().chain(&function.locals) {
            self.declare(&mut scope, ident);
        }
        for stmt in &function.body {
            self.check_stmt(&scope, stmt);
        }
        self.check_expr(&scope, &function.ret);
    }

    /// Adds a parameter or `var` variable to the scope, reporting a clash with an earlier
    /// local or with a function.
    fn declare(&mut self, scope: &mut Scope<'p>, ident: &'p Ident) {
        let name = ident.name.as_str();
        if let Some(first) = scope.locals.get(name) {
            let first_span = first.span;
            let function_name = &scope.function.name.name;
            self.report(
                Diagnostic::error(
                    ident.span,
                    format!("`{name}` is declared twice in function `{function_name}`"),
                )
                .with_label("second declaration")
                .with_secondary(first_span, format!("`{name}` first declared here"))
                .with_note(
                    "help: parameters and `var` variables share one scope; remove or rename one",
                ),
            );
            return;
        }
        if let Some(function) = self.functions.get(name) {
            let function_span = function.name.span;
            self.report(
                Diagnostic::error(
                    ident.span,
                    format!("`{name}` is a function; choose another name for the variable"),
                )
                .with_label("this variable has the name of a function")
                .with_secondary(function_span, format!("function `{name}` defined here")),
            );
        }
        scope.locals.insert(name, ident);
    }

    fn check_stmt(&mut self, scope: &Scope<'p>, stmt: &'p Stmt) {
        match &stmt.kind {
            StmtKind::Assign { target, value } => {
                self.check_expr(scope, target);
                self.check_expr(scope, value);
            }
            StmtKind::Output(e) | StmtKind::Assert(e) | StmtKind::Assume(e) => {
                self.check_expr(scope, e);
            }
            StmtKind::If {
                cond,
                then_branch,
                else_branch,
            } => {
                self.check_expr(scope, cond);
                self.check_stmt(scope, then_branch);
                if let Some(else_branch) = else_branch {
                    self.check_stmt(scope, else_branch);
                }
            }
            StmtKind::While { cond, body } => {
                self.check_expr(scope, cond);
                self.check_stmt(scope, body);
            }
            StmtKind::Block(stmts) => {
                for stmt in stmts {
                    self.check_stmt(scope, stmt);
                }
            }
        }
    }

    fn check_expr(&mut self, scope: &Scope<'p>, expr: &'p Expr) {
        match &expr.kind {
            ExprKind::Number(_) | ExprKind::Null | ExprKind::Input | ExprKind::Error => {}
            ExprKind::Var(ident) => self.check_variable_use(scope, ident),
            ExprKind::AddrOf(operand) => {
                self.check_address_of(operand);
                self.check_expr(scope, operand);
            }
            ExprKind::Unary(_, operand)
            | ExprKind::Deref(operand)
            | ExprKind::Alloc(operand)
            | ExprKind::Field(operand, _) => self.check_expr(scope, operand),
            ExprKind::Binary(_, left, right) | ExprKind::Index(left, right) => {
                self.check_expr(scope, left);
                self.check_expr(scope, right);
            }
            ExprKind::Call(callee, args) => {
                self.check_call(scope, expr, callee, args);
                for arg in args {
                    self.check_expr(scope, arg);
                }
            }
            ExprKind::Record(fields) => {
                self.check_record_literal(fields);
                for (_, value) in fields {
                    self.check_expr(scope, value);
                }
            }
            ExprKind::Array(elements) => {
                for element in elements {
                    self.check_expr(scope, element);
                }
            }
        }
    }

    /// A name in expression position must be a local of the enclosing function.
    fn check_variable_use(&mut self, scope: &Scope<'p>, ident: &Ident) {
        let name = ident.name.as_str();
        if scope.locals.contains_key(name) {
            return;
        }
        if let Some(function) = self.functions.get(name) {
            let function_span = function.name.span;
            self.report(
                Diagnostic::error(
                    ident.span,
                    format!("function `{name}` used as a value; functions can only be called: `{name}(...)`"),
                )
                .with_label("a function is not a value")
                .with_secondary(function_span, format!("function `{name}` defined here"))
                .with_note("micro-c has no function values: functions cannot be assigned, compared, stored or pointed to"),
            );
            return;
        }
        let function_name = &scope.function.name.name;
        let mut diagnostic = Diagnostic::error(ident.span, format!("undeclared variable `{name}`"))
            .with_label(format!(
                "not a parameter or `var` variable of `{function_name}`"
            ));
        if let Some(similar) = closest_name(name, scope.locals.keys().copied()) {
            diagnostic = diagnostic.with_note(format!(
                "help: a local with a similar name exists: `{similar}`"
            ));
        }
        diagnostic = diagnostic.with_note(format!(
            "help: declare it at the top of `{function_name}`: `var {name};` (micro-c has no global variables)"
        ));
        self.report(diagnostic);
    }

    /// `&` applies to a local variable only; other operands are reported with a hint.
    fn check_address_of(&mut self, operand: &Expr) {
        let hint = match &operand.kind {
            // A name is checked as a variable use (local, function or undeclared).
            ExprKind::Var(_) | ExprKind::Error => return,
            ExprKind::Deref(_) => "help: `&*p` is just `p`",
            ExprKind::Field(..) => {
                "help: fields have no address; keep the value in a heap cell (`c = alloc v;`) and store the pointer `c` in the field"
            }
            ExprKind::Index(..) => {
                "help: array elements have no address; keep the value in a heap cell (`c = alloc v;`) and store the pointer `c` in the array"
            }
            _ => "help: to get a pointer to a fresh cell holding a value, use `alloc e`",
        };
        self.report(
            Diagnostic::error(
                operand.span,
                "`&` takes the address of a local variable only",
            )
            .with_label("not a local variable")
            .with_note(hint),
        );
    }

    fn check_call(&mut self, scope: &Scope<'p>, call: &Expr, callee: &Ident, args: &[Expr]) {
        let name = callee.name.as_str();
        let Some(function) = self.functions.get(name) else {
            let diagnostic = if let Some(local) = scope.locals.get(name) {
                Diagnostic::error(
                    callee.span,
                    format!("`{name}` is a variable, not a function"),
                )
                .with_label("only functions can be called")
                .with_secondary(local.span, format!("`{name}` declared here as a variable"))
            } else {
                let mut diagnostic =
                    Diagnostic::error(callee.span, format!("call of undefined function `{name}`"))
                        .with_label("no function of this name in the program");
                if let Some(similar) = closest_name(name, self.functions.keys().copied()) {
                    diagnostic = diagnostic.with_note(format!(
                        "help: a function with a similar name exists: `{similar}`"
                    ));
                }
                diagnostic
            };
            self.report(diagnostic);
            return;
        };
        let expected = function.params.len();
        let found = args.len();
        if expected != found {
            let definition = function.name.span;
            self.report(
                Diagnostic::error(
                    call.span,
                    format!(
                        "function `{name}` takes {} but {} given",
                        count(expected, "argument"),
                        were(found)
                    ),
                )
                .with_label(format!("expected {expected}, found {found}"))
                .with_secondary(
                    definition,
                    format!(
                        "`{name}` defined here with {}",
                        count(expected, "parameter")
                    ),
                ),
            );
        }
    }

    fn check_record_literal(&mut self, fields: &[(Ident, Expr)]) {
        let mut seen: HashMap<&str, Span> = HashMap::new();
        for (name, value) in fields {
            if let Some(&first) = seen.get(name.name.as_str()) {
                self.report(
                    Diagnostic::error(
                        name.span,
                        format!("field `{}` appears twice in this record", name.name),
                    )
                    .with_label("second occurrence")
                    .with_secondary(first, "first occurrence")
                    .with_note("help: a record has each field once; remove one of them"),
                );
            } else {
                seen.insert(&name.name, name.span);
            }
            if let ExprKind::Record(inner) = &value.kind {
                let inner_fields: Vec<String> = inner
                    .iter()
                    .map(|(inner_name, _)| format!("{}: …", inner_name.name))
                    .collect();
                self.report(
                    Diagnostic::error(value.span, "records do not nest")
                        .with_label(format!("a record as the value of field `{}`", name.name))
                        .with_note(format!(
                            "help: store a pointer to the inner record: `{{{}: alloc {{{}}}}}`",
                            name.name,
                            inner_fields.join(", ")
                        )),
                );
            }
        }
    }
}

/// "1 argument", "2 arguments".
fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// "1 was", "2 were".
fn were(n: usize) -> String {
    if n == 1 {
        "1 was".to_string()
    } else {
        format!("{n} were")
    }
}

/// The candidate nearest to `name` by edit distance, if it is near enough to be a likely typo;
/// ties go to the alphabetically first, so the hint is deterministic.
fn closest_name<'a>(name: &str, candidates: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    let limit = (name.chars().count() / 3).max(1);
    candidates
        .filter(|candidate| *candidate != name)
        .map(|candidate| (edit_distance(name, candidate), candidate))
        .filter(|&(distance, _)| distance <= limit)
        .min()
        .map(|(_, candidate)| candidate)
}

/// Edit distance over characters where a swap of two neighbours counts as one edit
/// (optimal string alignment), so `cuont` is one edit from `count`.
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    // Rows i-2, i-1 and i of the distance matrix.
    let mut before: Vec<usize> = vec![0; b.len() + 1];
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    let mut current = vec![0; b.len() + 1];
    for i in 1..=a.len() {
        current[0] = i;
        for j in 1..=b.len() {
            let substitution = previous[j - 1] + usize::from(a[i - 1] != b[j - 1]);
            let mut best = substitution.min(previous[j] + 1).min(current[j - 1] + 1);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(before[j - 2] + 1);
            }
            current[j] = best;
        }
        std::mem::swap(&mut before, &mut previous);
        std::mem::swap(&mut previous, &mut current);
    }
    previous[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parser;

    /// Parses `source` (which must be syntactically valid) and resolves it.
    fn resolve(source: &str) -> Vec<Diagnostic> {
        let (program, syntax_errors) = parser::parse(source);
        assert!(syntax_errors.is_empty(), "syntax errors: {syntax_errors:?}");
        check(&program, "main", true)
    }

    fn messages(source: &str) -> Vec<String> {
        resolve(source).into_iter().map(|d| d.message).collect()
    }

    /// The text a span covers.
    fn text(source: &str, span: Span) -> &str {
        &source[span.range()]
    }

    #[test]
    fn a_correct_program_has_no_diagnostics() {
        let source = "
            length(l) { var n; n = 0; while (l != null) { l = l->next; n = n + 1; } return n; }
            main() { var a, p; a = alloc {val: input, next: null}; p = &a; output length(*p);
                     return [1, 2][0] + {f: 1}.f; }";
        assert_eq!(messages(source), Vec::<String>::new());
    }

    #[test]
    fn undeclared_variable_points_at_the_name_and_suggests_a_declaration() {
        let source = "main() { var count; count = 1; return cuont; }";
        let diagnostics = resolve(source);
        assert_eq!(diagnostics.len(), 1);
        let d = &diagnostics[0];
        assert_eq!(d.message, "undeclared variable `cuont`");
        assert_eq!(text(source, d.primary.span), "cuont");
        assert!(
            d.notes.iter().any(|n| n.contains("`count`")),
            "{:?}",
            d.notes
        );
        assert!(
            d.notes.iter().any(|n| n.contains("var cuont;")),
            "{:?}",
            d.notes
        );
    }

    #[test]
    fn call_of_undefined_function_and_of_a_variable() {
        let source = "main() { var x; x = fo(1); x = x(2); return 0; } foo(a) { return a; }";
        let diagnostics = resolve(source);
        assert_eq!(diagnostics.len(), 2);
        assert_eq!(diagnostics[0].message, "call of undefined function `fo`");
        assert!(diagnostics[0].notes[0].contains("`foo`"));
        assert_eq!(diagnostics[1].message, "`x` is a variable, not a function");
        assert_eq!(text(source, diagnostics[1].secondary[0].span), "x");
    }

    #[test]
    fn wrong_argument_count_says_expected_and_found_and_points_at_the_definition() {
        let source = "f(a, b) { return a + b; }\nmain() { var x; x = f(1); x = f(1, 2, 3); return f(1, 2); }";
        let diagnostics = resolve(source);
        assert_eq!(diagnostics.len(), 2);
        assert_eq!(
            diagnostics[0].message,
            "function `f` takes 2 arguments but 1 was given"
        );
        assert_eq!(text(source, diagnostics[0].primary.span), "f(1)");
        assert_eq!(diagnostics[0].primary.message, "expected 2, found 1");
        assert_eq!(text(source, diagnostics[0].secondary[0].span), "f");
        assert_eq!(diagnostics[0].secondary[0].span.start, 0);
        assert_eq!(
            diagnostics[0].secondary[0].message,
            "`f` defined here with 2 parameters"
        );
        assert_eq!(
            diagnostics[1].message,
            "function `f` takes 2 arguments but 3 were given"
        );
    }

    #[test]
    fn duplicate_function_names_point_at_both() {
        let source = "f() { return 1; }\nf() { return 2; }\nmain() { return f(); }";
        let diagnostics = resolve(source);
        assert_eq!(diagnostics.len(), 1);
        assert_eq!(diagnostics[0].message, "function `f` is defined twice");
        assert_eq!(diagnostics[0].primary.span.start, 18);
        assert_eq!(diagnostics[0].secondary[0].span.start, 0);
    }

    #[test]
    fn parameters_and_locals_share_one_scope() {
        let source = "f(a, b, a) { var b, c; var c; return 0; } main() { return 0; }";
        let diagnostics = resolve(source);
        let found: Vec<(&str, String)> = diagnostics
            .iter()
            .map(|d| (text(source, d.primary.span), d.message.clone()))
            .collect();
        assert_eq!(
            found,
            vec![
                ("a", "`a` is declared twice in function `f`".to_string()),
                ("b", "`b` is declared twice in function `f`".to_string()),
                ("c", "`c` is declared twice in function `f`".to_string()),
            ]
        );
        // Each points back at the first declaration.
        assert_eq!(diagnostics[0].secondary[0].span.start, 2);
    }

    #[test]
    fn a_variable_named_like_a_function() {
        let source = "g() { return 1; } main() { var g; g = 1; return g; }";
        let diagnostics = resolve(source);
        assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
        assert_eq!(
            diagnostics[0].message,
            "`g` is a function; choose another name for the variable"
        );
        assert_eq!(diagnostics[0].primary.span.start, 31);
        assert_eq!(diagnostics[0].secondary[0].span.start, 0);
    }

    #[test]
    fn duplicate_fields_in_one_record_literal() {
        let source = "main() { var r; r = {f: 1, g: 2, f: 3}; return 0; }";
        let diagnostics = resolve(source);
        assert_eq!(diagnostics.len(), 1);
        assert_eq!(
            diagnostics[0].message,
            "field `f` appears twice in this record"
        );
        assert_eq!(diagnostics[0].primary.span.start, 33);
        assert_eq!(diagnostics[0].secondary[0].span.start, 21);
    }

    #[test]
    fn missing_main_is_reported_at_the_end_of_the_program() {
        let source = "f() { return 1; }";
        let diagnostics = resolve(source);
        assert_eq!(diagnostics.len(), 1);
        assert_eq!(
            diagnostics[0].message,
            "no `main` function: execution starts at `main()`"
        );
        assert_eq!(diagnostics[0].primary.span, Span::new(17, 17));
        assert_eq!(resolve("").len(), 1);
    }

    #[test]
    fn another_entry_needs_no_main_but_a_main_is_still_checked() {
        let (library, errors) = parser::parse("f() { return 1; }");
        assert!(errors.is_empty());
        assert!(check(&library, "f", true).is_empty());
        assert_eq!(check(&library, "main", true).len(), 1);
        let (with_main, _) = parser::parse("f() { return 1; } main(a) { return a; }");
        assert_eq!(check(&with_main, "f", true).len(), 1);
    }

    #[test]
    fn main_with_parameters_suggests_entry() {
        let source = "main(a, b) { return a + b; }";
        let diagnostics = resolve(source);
        assert_eq!(diagnostics.len(), 1);
        assert_eq!(diagnostics[0].message, "`main` must not have parameters");
        assert_eq!(text(source, diagnostics[0].primary.span), "a, b");
        assert!(diagnostics[0].notes[0].contains("symex check --entry f"));
    }

    #[test]
    fn functions_used_as_values() {
        let source = "f() { return 1; }
g() { return 2; }
main() { var x, p; f = 3; x = f; x = f == g; p = alloc f; p = &f; return 0; }";
        let diagnostics = resolve(source);
        let spans: Vec<&str> = diagnostics
            .iter()
            .map(|d| text(source, d.primary.span))
            .collect();
        assert_eq!(spans, vec!["f", "f", "f", "g", "f", "f"]);
        for d in &diagnostics {
            let name = text(source, d.primary.span);
            assert_eq!(
                d.message,
                format!("function `{name}` used as a value; functions can only be called: `{name}(...)`")
            );
            assert_eq!(d.secondary.len(), 1);
        }
    }

    #[test]
    fn address_of_something_that_is_not_a_local() {
        let source =
            "main() { var p, r, a; p = &*p; p = &r.f; p = &3; p = &a[0]; p = &(r); return 0; }";
        let diagnostics = resolve(source);
        let spans: Vec<&str> = diagnostics
            .iter()
            .map(|d| text(source, d.primary.span))
            .collect();
        assert_eq!(spans, vec!["*p", "r.f", "3", "a[0]"]);
        for d in &diagnostics {
            assert_eq!(d.message, "`&` takes the address of a local variable only");
            assert_eq!(d.notes.len(), 1);
        }
        assert_eq!(diagnostics[0].notes[0], "help: `&*p` is just `p`");
    }

    #[test]
    fn address_of_an_undeclared_name_is_one_error() {
        let messages = messages("main() { var p; p = &q; return 0; }");
        assert_eq!(messages, vec!["undeclared variable `q`"]);
    }

    #[test]
    fn syntactically_nested_records_suggest_a_pointer() {
        let source = "main() { var r; r = {a: {b: 1, c: 2}, d: alloc {e: 1}}; return 0; }";
        let diagnostics = resolve(source);
        assert_eq!(diagnostics.len(), 1);
        let d = &diagnostics[0];
        assert_eq!(d.message, "records do not nest");
        assert_eq!(text(source, d.primary.span), "{b: 1, c: 2}");
        assert_eq!(
            d.notes,
            vec!["help: store a pointer to the inner record: `{a: alloc {b: …, c: …}}`"]
        );
    }

    #[test]
    fn error_placeholders_are_skipped() {
        let (program, syntax_errors) = parser::parse("main() { var x; x = ; return x; }");
        assert!(!syntax_errors.is_empty());
        assert_eq!(check(&program, "main", true), Vec::new());
    }

    #[test]
    fn diagnostics_come_in_source_order() {
        let source = "main() { var x; x = b; x = a; return c; }";
        let spans: Vec<&str> = resolve(source)
            .iter()
            .map(|d| text(source, d.primary.span))
            .collect();
        assert_eq!(spans, vec!["b", "a", "c"]);
    }

    #[test]
    fn edit_distance_and_closest_name() {
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("", "ab"), 2);
        assert_eq!(edit_distance("ab", ""), 2);
        assert_eq!(edit_distance("cuont", "count"), 1);
        assert_eq!(
            closest_name("lenght", ["length", "main"].into_iter()),
            Some("length")
        );
        assert_eq!(closest_name("x", ["y", "z"].into_iter()), Some("y"));
        assert_eq!(closest_name("total", ["main"].into_iter()), None);
    }
}
