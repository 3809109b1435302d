//! The C front end against the micro-c front end: every corpus program that uses only numbers
//! is written as C (`corpus/c/<name>.c`, generated here, each statement on its original line) and
//! checked with the forward engine both ways; the two versions must agree on every property they
//! both decide (a violation in one and `safe` in the other fails), and must report the same
//! violations by kind and line.
//!
//! The C files are committed; this test fails when one is stale. `SYMEX_WRITE_C_CORPUS=1 cargo
//! test --test c_equivalence` rewrites them.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::PathBuf;
use std::time::Duration;

use symex_corpus::CorpusFile;
use symex_engine::{check_forward, CheckOptions};
use symex_report::{Report, Status};
use symex_syntax::ast::{BinaryOp, Expr, ExprKind, Function, Program, Stmt, StmtKind, UnaryOp};
use symex_syntax::span::LineIndex;
use symex_syntax::types::{Type, TypeTable};

mod support;

/// Words that are C keywords or SV-COMP functions: a micro-c name equal to one gets a `_`.
const RESERVED: &[&str] = &[
    "auto",
    "break",
    "case",
    "char",
    "const",
    "continue",
    "default",
    "do",
    "double",
    "else",
    "enum",
    "extern",
    "float",
    "for",
    "goto",
    "if",
    "inline",
    "int",
    "long",
    "register",
    "restrict",
    "return",
    "short",
    "signed",
    "sizeof",
    "static",
    "struct",
    "switch",
    "typedef",
    "union",
    "unsigned",
    "void",
    "volatile",
    "while",
    "abort",
    "exit",
    "reach_error",
];

fn c_name(name: &str) -> String {
    if RESERVED.contains(&name) {
        format!("{name}_")
    } else {
        name.to_string()
    }
}

/// Writes micro-c as C, keeping every statement on its line.
struct Printer<'s> {
    lines: LineIndex,
    out: String,
    line: u32,
    _source: &'s str,
}

impl Printer<'_> {
    fn at_line_of(&mut self, span: symex_syntax::span::Span) {
        let target = self.lines.start(span).line;
        while self.line < target {
            self.out.push('\n');
            self.line += 1;
        }
    }

    fn expr(&mut self, e: &Expr) -> String {
        match &e.kind {
            ExprKind::Number(n) if *n == i32::MIN => "(-2147483647 - 1)".into(),
            ExprKind::Number(n) if *n < 0 => format!("({n})"),
            ExprKind::Number(n) => n.to_string(),
            ExprKind::Var(v) => c_name(&v.name),
            ExprKind::Input => "__VERIFIER_nondet_int()".into(),
            ExprKind::Unary(op, a) => {
                let symbol = match op {
                    UnaryOp::Not => "!",
                    UnaryOp::Neg => "-",
                };
                format!("({symbol}{})", self.expr(a))
            }
            ExprKind::Binary(op, a, b) => {
                let (a, b) = (self.expr(a), self.expr(b));
                let symbol = match op {
                    BinaryOp::And => "&&",
                    BinaryOp::Or => "||",
                    other => other.symbol(),
                };
                format!("({a} {symbol} {b})")
            }
            ExprKind::Call(f, args) => {
                let args: Vec<String> = args.iter().map(|a| self.expr(a)).collect();
                format!("{}({})", c_name(&f.name), args.join(", "))
            }
            other => unreachable!("not a numbers-only expression: {other:?}"),
        }
    }

    fn stmt(&mut self, s: &Stmt) {
        self.at_line_of(s.span);
        match &s.kind {
            StmtKind::Assign { target, value } => {
                let (t, v) = (self.expr(target), self.expr(value));
                let _ = write!(self.out, "{t} = {v}; ");
            }
            StmtKind::Output(e) => {
                let e = self.expr(e);
                let _ = write!(self.out, "{e}; ");
            }
            StmtKind::Assert(e) => {
                let e = self.expr(e);
                let _ = write!(self.out, "if (!{e}) reach_error(); ");
            }
            StmtKind::Assume(e) => {
                let e = self.expr(e);
                let _ = write!(self.out, "__VERIFIER_assume({e}); ");
            }
            StmtKind::If {
                cond,
                then_branch,
                else_branch,
            } => {
                let c = self.expr(cond);
                let _ = write!(self.out, "if ({c}) {{ ");
                self.stmt(then_branch);
                self.out.push_str("} ");
                if let Some(e) = else_branch {
                    self.out.push_str("else { ");
                    self.stmt(e);
                    self.out.push_str("} ");
                }
            }
            StmtKind::While { cond, body } => {
                let c = self.expr(cond);
                let _ = write!(self.out, "while ({c}) {{ ");
                self.stmt(body);
                self.out.push_str("} ");
            }
            StmtKind::Block(stmts) => {
                self.out.push_str("{ ");
                for s in stmts {
                    self.stmt(s);
                }
                self.out.push_str("} ");
            }
        }
    }

    fn function(&mut self, f: &Function) {
        self.at_line_of(f.span);
        let params: Vec<String> = f
            .params
            .iter()
            .map(|p| format!("int {}", c_name(&p.name)))
            .collect();
        let params = if params.is_empty() {
            "void".to_string()
        } else {
            params.join(", ")
        };
        let _ = write!(self.out, "int {}({params}) {{ ", c_name(&f.name.name));
        if !f.locals.is_empty() {
            let names: Vec<String> = f.locals.iter().map(|l| c_name(&l.name)).collect();
            let _ = write!(self.out, "int {}; ", names.join(", "));
        }
        for s in &f.body {
            self.stmt(s);
        }
        self.at_line_of(f.ret_span);
        let r = self.expr(&f.ret);
        let _ = write!(self.out, "return {r}; }}");
    }
}

fn numbers_only_expr(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Number(_) | ExprKind::Var(_) | ExprKind::Input => true,
        ExprKind::Unary(_, a) => numbers_only_expr(a),
        ExprKind::Binary(_, a, b) => numbers_only_expr(a) && numbers_only_expr(b),
        ExprKind::Call(_, args) => args.iter().all(numbers_only_expr),
        _ => false,
    }
}

/// Whether every local, parameter and result of `program` is a number and no expression
/// builds or reads anything else.
fn numbers_only(program: &Program, types: &TypeTable) -> bool {
    program.functions.iter().all(|f| {
        let name = &f.name.name;
        let int = |local: &str| types.local_type(name, local) == Some(Type::Int);
        let mut exprs_ok = true;
        symex_syntax::ast::walk_stmts_exprs(&f.body, &mut |e| {
            exprs_ok &=
                numbers_only_expr(e) || matches!(e.kind, ExprKind::Var(_) | ExprKind::Number(_));
        });
        f.params.iter().chain(&f.locals).all(|l| int(&l.name))
            && matches!(types.function_type(name), Some(Type::Function(_, r)) if *r == Type::Int)
            && exprs_ok
            && numbers_only_expr(&f.ret)
    })
}

/// The C version of a numbers-only corpus program, or `None` for any other program.
fn c_version(file: &CorpusFile) -> Option<String> {
    let front = symex_syntax::analyze(&file.source).ok()?;
    let types = front.types.ok()?;
    if !numbers_only(&front.program, &types) {
        return None;
    }
    let mut printer = Printer {
        lines: LineIndex::new(&file.source),
        out: String::new(),
        line: 1,
        _source: &file.source,
    };
    // The header lines stay (they are comments in C too); the declaration C needs goes on the
    // line of the first function.
    for line in file.source.lines().take_while(|l| l.starts_with("//!")) {
        printer.out.push_str(line);
        printer.out.push('\n');
        printer.line += 1;
    }
    for (i, f) in front.program.functions.iter().enumerate() {
        if i == 0 {
            printer.at_line_of(f.span);
            printer.out.push_str("void reach_error(void); ");
        }
        printer.function(f);
    }
    let _ = write!(
        printer.out,
        "\n// The C version of {}, written by crates/engine/tests/c_equivalence.rs: `input` is \
         __VERIFIER_nondet_int(), `assert(e)` a call of reach_error() when e is 0, `output e` \
         just evaluates e (so run: lines print nothing).\n",
        file.name
    );
    Some(printer.out)
}

fn c_corpus_dir() -> PathBuf {
    symex_corpus::project_corpus_dir().join("c")
}

/// (kind, line) → statuses of the properties there.
fn statuses(report: &Report) -> BTreeMap<(String, u32), Vec<Status>> {
    let mut map: BTreeMap<(String, u32), Vec<Status>> = BTreeMap::new();
    for p in report.properties() {
        map.entry((p.kind.name().to_string(), p.line))
            .or_default()
            .push(p.verdict.status());
    }
    map
}

#[test]
fn c_versions_of_the_integer_corpus_get_the_same_verdicts() {
    let write = std::env::var_os("SYMEX_WRITE_C_CORPUS").is_some();
    let files = symex_corpus::all_files().expect("the corpus loads");
    let mut compared = 0;
    let mut failures = Vec::new();
    for file in &files {
        let Some(c_text) = c_version(file) else {
            continue;
        };
        let c_path = c_corpus_dir().join(file.name.replace(".uc", ".c"));
        if write {
            std::fs::create_dir_all(c_corpus_dir()).expect("corpus/c");
            std::fs::write(&c_path, &c_text).expect("written");
        }
        match std::fs::read_to_string(&c_path) {
            Ok(committed) if committed == c_text => {}
            _ => {
                failures.push(format!(
                    "{}: stale or missing; run SYMEX_WRITE_C_CORPUS=1 cargo test --test c_equivalence",
                    c_path.display()
                ));
                continue;
            }
        }
        let options = CheckOptions {
            timeout: Some(Duration::from_secs(2)),
            // Bounded like the backward engine's corpus test, so that no file runs to the limit.
            unwind: Some(support::unwind_for(file).unwrap_or(4)),
            ..CheckOptions::default()
        };
        let entry = file.entry_function();
        let front = symex_syntax::analyze(&file.source).expect("parsed above");
        let types = front.types.expect("typed above");
        let module = symex_ir::lower(&front.program);
        let microc = check_forward(&module, &types, &file.source, &file.name, entry, &options)
            .expect("micro-c checks");
        let translated = match symex_c::translate(
            &c_path.to_string_lossy(),
            &c_text,
            symex_c::Options::default(),
        ) {
            Ok(t) => t,
            Err(e) => {
                failures.push(format!("{}: {}", file.name, e.render("c", &c_text)));
                continue;
            }
        };
        let c = check_forward(
            &translated.module,
            &translated.types,
            &c_text,
            &file.name,
            entry,
            &options,
        )
        .expect("C checks");
        compared += 1;
        let (microc, c) = (statuses(&microc), statuses(&c));
        for (place, micro_statuses) in &microc {
            let c_statuses = c.get(place).cloned().unwrap_or_default();
            let violated = |s: &[Status]| s.contains(&Status::Violated);
            let decided_safe = |s: &[Status]| !s.is_empty() && s.iter().all(|&x| x == Status::Safe);
            if (violated(micro_statuses) && decided_safe(&c_statuses))
                || (decided_safe(micro_statuses) && violated(&c_statuses))
                || violated(micro_statuses) != violated(&c_statuses)
                    && !c_statuses.contains(&Status::Unknown)
                    && !micro_statuses.contains(&Status::Unknown)
            {
                failures.push(format!(
                    "{} {} line {}: micro-c {micro_statuses:?}, C {c_statuses:?}",
                    file.name, place.0, place.1
                ));
            }
        }
        for (place, c_statuses) in &c {
            if c_statuses.contains(&Status::Violated) && !microc.contains_key(place) {
                failures.push(format!(
                    "{} {} line {}: violated only in C",
                    file.name, place.0, place.1
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(compared >= 20, "only {compared} programs compared");
}
