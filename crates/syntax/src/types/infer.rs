//! Constraint generation for micro-c, solved on the fly in the union-find [`Store`].
//!
//! One walk over the program in source order gives every expression, parameter, local and
//! function result a node and unifies as each construct demands (TIP, *Static Program
//! Analysis* ch. 3, with the record rules of [`super::store::RecordTerm`]). A failed
//! unification becomes a diagnostic showing both types (as they were before it) and the
//! constructs that forced them, and the walk goes on. At the end, records stored in record
//! fields and `==`/`!=` on records or arrays are reported. Unknown names get fresh variables silently: resolution reports them.

use std::collections::HashMap;

use crate::ast::{BinaryOp, Expr, ExprKind, Function, Ident, Program, Stmt, StmtKind, UnaryOp};
use crate::diag::Diagnostic;
use crate::span::Span;

use super::export::export;
use super::store::{Conflict, FieldSlot, Node, RecordTerm, Store, Term, Why};

/// The nodes of one function's names.
pub(super) struct FunctionNodes<'p> {
    pub(super) params: Vec<Node>,
    pub(super) result: Node,
    /// Parameters then `var` variables, each name once (a redeclaration shares the first node).
    pub(super) locals: Vec<(&'p str, Node)>,
}

/// The solved graph and where each name and expression sits in it.
pub(super) struct Solution<'p> {
    pub(super) store: Store<'p>,
    /// Indexed by `NodeId`.
    pub(super) expr_nodes: Vec<Option<Node>>,
    /// Parallel to `program.functions`.
    pub(super) functions: Vec<FunctionNodes<'p>>,
}

/// What a unification is for; it words the primary label of a mismatch.
#[derive(Clone, Copy)]
enum Reason<'p> {
    Assign,
    Compare(&'static str),
    Operand(&'static str),
    Condition(&'static str),
    Output,
    ArrayIndex,
    Dereference,
    FieldAccess(&'p str),
    Indexing,
    Argument {
        function: &'p str,
        position: usize,
        parameter: &'p Ident,
    },
    Return(&'p str),
    ArrayElement,
}

impl Reason<'_> {
    fn label(self, expected: &str, found: &str) -> String {
        match self {
            Reason::Assign => format!("the target is `{expected}`, the value `{found}`"),
            Reason::Compare(op) => {
                format!("`{op}` compares values of one type, not `{expected}` and `{found}`")
            }
            Reason::Operand(op) => format!("`{op}` needs an `int`, this is `{found}`"),
            Reason::Condition(keyword) => {
                format!("the condition of `{keyword}` must be an `int`, this is `{found}`")
            }
            Reason::Output => format!("`output` prints an `int`, this is `{found}`"),
            Reason::ArrayIndex => format!("an array index must be an `int`, this is `{found}`"),
            Reason::Dereference => format!("`*` needs a pointer, the operand is `{found}`"),
            Reason::FieldAccess(field) => {
                format!("`.{field}` needs a record with field `{field}`, this is `{found}`")
            }
            Reason::Indexing => format!("`[…]` needs an array, this is `{found}`"),
            Reason::Argument {
                function,
                position,
                parameter,
            } => format!(
                "argument {position} is `{found}`, but parameter `{}` of `{function}` is `{expected}`",
                parameter.name
            ),
            Reason::Return(function) => {
                format!("the result of `{function}` is used as `{expected}`, this is `{found}`")
            }
            Reason::ArrayElement => {
                format!("this element is `{found}`, the earlier ones `{expected}`")
            }
        }
    }
}

pub(super) fn solve(program: &Program) -> (Solution<'_>, Vec<Diagnostic>) {
    let mut inferencer = Inferencer {
        program,
        store: Store::default(),
        expr_nodes: vec![None; program.node_count as usize],
        functions: Vec::with_capacity(program.functions.len()),
        by_name: HashMap::new(),
        locals: HashMap::new(),
        comparisons: Vec::new(),
        diagnostics: Vec::new(),
    };
    for (index, function) in program.functions.iter().enumerate() {
        inferencer.declare(function);
        inferencer
            .by_name
            .entry(function.name.name.as_str())
            .or_insert(index);
    }
    for (index, function) in program.functions.iter().enumerate() {
        inferencer.function(index, function);
    }
    inferencer.check_nested_records();
    inferencer.check_comparisons();
    let Inferencer {
        store,
        expr_nodes,
        functions,
        mut diagnostics,
        ..
    } = inferencer;
    diagnostics.sort_by_key(|d| (d.primary.span.start, d.primary.span.end));
    diagnostics.dedup_by(|a, b| a.primary.span == b.primary.span && a.message == b.message);
    let solution = Solution {
        store,
        expr_nodes,
        functions,
    };
    (solution, diagnostics)
}

struct Inferencer<'p> {
    program: &'p Program,
    store: Store<'p>,
    expr_nodes: Vec<Option<Node>>,
    functions: Vec<FunctionNodes<'p>>,
    /// Each function name's first definition.
    by_name: HashMap<&'p str, usize>,
    /// The locals of the function being walked.
    locals: HashMap<&'p str, Node>,
    /// Each `==`/`!=`: its span, operator and left operand's node (both operands share a type).
    comparisons: Vec<(Span, &'static str, Node)>,
    diagnostics: Vec<Diagnostic>,
}

impl<'p> Inferencer<'p> {
    fn declare(&mut self, function: &'p Function) {
        let mut locals: Vec<(&'p str, Node)> = Vec::new();
        // By name too: a search of `locals` per name made 100,000 variables quadratic.
        let mut by_name: HashMap<&'p str, Node> = HashMap::new();
        let mut params = Vec::with_capacity(function.params.len());
        for (position, ident) in function.params.iter().chain(&function.locals).enumerate() {
            let name = ident.name.as_str();
            let node = *by_name.entry(name).or_insert_with(|| {
                let node = self.store.fresh();
                locals.push((name, node));
                node
            });
            if position < function.params.len() {
                params.push(node);
            }
        }
        let result = self.store.fresh();
        self.functions.push(FunctionNodes {
            params,
            result,
            locals,
        });
    }

    fn function(&mut self, index: usize, function: &'p Function) {
        self.locals.clear();
        if let Some(nodes) = self.functions.get(index) {
            self.locals.extend(nodes.locals.iter().copied());
        }
        for stmt in &function.body {
            self.stmt(stmt);
        }
        let value = self.expr(&function.ret);
        if let Some(result) = self.functions.get(index).map(|nodes| nodes.result) {
            let reason = Reason::Return(&function.name.name);
            self.unify(result, value, function.ret.span, reason);
        }
    }

    fn stmt(&mut self, stmt: &'p Stmt) {
        match &stmt.kind {
            StmtKind::Assign { target, value } => {
                let target_node = self.expr(target);
                let value_node = self.expr(value);
                self.unify(target_node, value_node, value.span, Reason::Assign);
            }
            StmtKind::Output(e) => self.require_int(e, Why::Output, Reason::Output),
            StmtKind::Assert(e) => self.condition(e, "assert"),
            StmtKind::Assume(e) => self.condition(e, "assume"),
            StmtKind::If {
                cond,
                then_branch,
                else_branch,
            } => {
                self.condition(cond, "if");
                self.stmt(then_branch);
                if let Some(else_branch) = else_branch {
                    self.stmt(else_branch);
                }
            }
            StmtKind::While { cond, body } => {
                self.condition(cond, "while");
                self.stmt(body);
            }
            StmtKind::Block(stmts) => {
                for stmt in stmts {
                    self.stmt(stmt);
                }
            }
        }
    }

    fn condition(&mut self, cond: &'p Expr, keyword: &'static str) {
        self.require_int(cond, Why::Condition(keyword), Reason::Condition(keyword));
    }

    /// Infers `e` and unifies it with `int`.
    fn require_int(&mut self, e: &'p Expr, why: Why<'p>, reason: Reason<'p>) {
        let found = self.expr(e);
        let int = self.store.constructed(Term::Int, e.span, why);
        self.unify(int, found, e.span, reason);
    }

    fn int(&mut self, span: Span, why: Why<'p>) -> Node {
        self.store.constructed(Term::Int, span, why)
    }

    /// The node of `e`'s type, recorded for the type table.
    fn expr(&mut self, e: &'p Expr) -> Node {
        let node = self.expr_kind(e);
        let index = e.id.0 as usize;
        if index >= self.expr_nodes.len() {
            self.expr_nodes.resize(index + 1, None);
        }
        self.expr_nodes[index] = Some(node);
        node
    }

    fn expr_kind(&mut self, e: &'p Expr) -> Node {
        match &e.kind {
            ExprKind::Number(_) => self.int(e.span, Why::NumberLiteral),
            ExprKind::Input => self.int(e.span, Why::Input),
            ExprKind::Var(ident) => match self.locals.get(ident.name.as_str()) {
                Some(&node) => node,
                None => self.store.fresh(),
            },
            ExprKind::Null => {
                let target = self.store.fresh();
                self.store
                    .constructed(Term::Pointer(target), e.span, Why::Null)
            }
            ExprKind::Unary(op, operand) => {
                let symbol = match op {
                    UnaryOp::Not => "!",
                    UnaryOp::Neg => "-",
                };
                self.require_int(operand, Why::Operand(symbol), Reason::Operand(symbol));
                self.int(e.span, Why::OperatorResult(symbol))
            }
            ExprKind::Binary(op, left, right) => {
                let symbol = op.symbol();
                if matches!(op, BinaryOp::Eq | BinaryOp::Ne) {
                    let left_node = self.expr(left);
                    let right_node = self.expr(right);
                    self.unify(left_node, right_node, e.span, Reason::Compare(symbol));
                    self.comparisons.push((e.span, symbol, left_node));
                } else {
                    self.require_int(left, Why::Operand(symbol), Reason::Operand(symbol));
                    self.require_int(right, Why::Operand(symbol), Reason::Operand(symbol));
                }
                self.int(e.span, Why::OperatorResult(symbol))
            }
            ExprKind::Deref(operand) => {
                let found = self.expr(operand);
                let target = self.store.fresh();
                let pointer =
                    self.store
                        .constructed(Term::Pointer(target), e.span, Why::Dereference);
                self.unify(pointer, found, e.span, Reason::Dereference);
                target
            }
            ExprKind::AddrOf(operand) => {
                let target = self.expr(operand);
                self.store
                    .constructed(Term::Pointer(target), e.span, Why::AddressOf)
            }
            ExprKind::Alloc(operand) => {
                let target = self.expr(operand);
                self.store
                    .constructed(Term::Pointer(target), e.span, Why::Alloc)
            }
            ExprKind::Field(operand, field) => {
                let found = self.expr(operand);
                let value = self.store.fresh();
                let record = RecordTerm {
                    fields: vec![FieldSlot {
                        name: &field.name,
                        ty: value,
                        mention: field.span,
                    }],
                    closed_at: None,
                };
                let why = Why::FieldAccess(&field.name);
                let expected = self
                    .store
                    .constructed(Term::Record(Box::new(record)), e.span, why);
                self.unify(expected, found, e.span, Reason::FieldAccess(&field.name));
                value
            }
            ExprKind::Index(array, index) => {
                let found = self.expr(array);
                let element = self.store.fresh();
                let expected = self
                    .store
                    .constructed(Term::Array(element), e.span, Why::Indexing);
                self.unify(expected, found, e.span, Reason::Indexing);
                self.require_int(index, Why::ArrayIndex, Reason::ArrayIndex);
                element
            }
            ExprKind::Call(callee, args) => self.call(callee, args),
            ExprKind::Record(fields) => {
                let mut slots: Vec<FieldSlot<'p>> = Vec::with_capacity(fields.len());
                for (name, value) in fields {
                    let ty = self.expr(value);
                    // A repeated field is a resolution error; the first one counts.
                    if slots.iter().all(|slot| slot.name != name.name) {
                        slots.push(FieldSlot {
                            name: &name.name,
                            ty,
                            mention: name.span,
                        });
                    }
                }
                slots.sort_by(|a, b| a.name.cmp(b.name));
                let record = RecordTerm {
                    fields: slots,
                    closed_at: Some(e.span),
                };
                self.store
                    .constructed(Term::Record(Box::new(record)), e.span, Why::RecordLiteral)
            }
            ExprKind::Array(elements) => {
                let element = self.store.fresh();
                for value in elements {
                    let found = self.expr(value);
                    self.unify(element, found, value.span, Reason::ArrayElement);
                }
                self.store
                    .constructed(Term::Array(element), e.span, Why::ArrayLiteral)
            }
            ExprKind::Error => self.store.fresh(),
        }
    }

    /// Arguments unify with the parameters (functions are monomorphic, as in TIP); the call
    /// has the function's result type.
    fn call(&mut self, callee: &'p Ident, args: &'p [Expr]) -> Node {
        let target = self.by_name.get(callee.name.as_str()).and_then(|&index| {
            let nodes = self.functions.get(index)?;
            Some((
                self.program.functions.get(index)?,
                nodes.params.clone(),
                nodes.result,
            ))
        });
        for (position, arg) in args.iter().enumerate() {
            let found = self.expr(arg);
            let Some((function, params, _)) = &target else {
                continue;
            };
            // Surplus arguments are a resolution error; they are typed but constrain nothing.
            if let (Some(&param), Some(parameter)) =
                (params.get(position), function.params.get(position))
            {
                let reason = Reason::Argument {
                    function: &callee.name,
                    position: position + 1,
                    parameter,
                };
                self.unify(param, found, arg.span, reason);
            }
        }
        match target {
            Some((_, _, result)) => result,
            None => self.store.fresh(),
        }
    }

    /// Unifies `expected` with `found` for the construct at `at`; on a conflict, reports it
    /// and unifies what agrees, so that the rest of the program is checked against both types.
    fn unify(&mut self, expected: Node, found: Node, at: Span, reason: Reason<'p>) {
        if let Err(conflict) = self.store.unify(expected, found) {
            let diagnostic = self.mismatch(expected, found, at, reason, conflict);
            self.diagnostics.push(diagnostic);
            self.store.unify_lenient(expected, found);
        }
    }

    fn show(&self, node: Node) -> String {
        export(&self.store, node).to_string()
    }

    /// The diagnostic of a failed unification, on the types as they were before it.
    fn mismatch(
        &self,
        expected: Node,
        found: Node,
        at: Span,
        reason: Reason<'p>,
        conflict: Conflict<'p>,
    ) -> Diagnostic {
        let expected_type = self.show(expected);
        let found_type = self.show(found);
        let mismatch = format!("type mismatch: `{expected_type}` vs `{found_type}`");
        let mut labels = Labels::new(at);
        let diagnostic = match conflict {
            Conflict::Clash(left, right) => {
                let (left_type, right_type) = (self.show(left), self.show(right));
                for (node, ty) in [(left, &left_type), (right, &right_type)] {
                    if let Some(origin) = self.store.origin(node) {
                        labels.add(
                            origin.span,
                            format!("`{ty}` from this {}", origin.why.describe()),
                        );
                    }
                }
                let mut diagnostic = Diagnostic::error(at, mismatch)
                    .with_label(reason.label(&expected_type, &found_type));
                if left_type != expected_type || right_type != found_type {
                    diagnostic = diagnostic.with_note(format!(
                        "the types differ inside: `{left_type}` vs `{right_type}`"
                    ));
                }
                diagnostic
            }
            Conflict::MissingField {
                closed,
                field,
                mention,
            } => {
                let record_type = self.show(closed);
                let literal = match self.store.term(closed) {
                    Term::Record(record) => record.closed_at,
                    _ => None,
                };
                if let Some(literal) = literal {
                    labels.add(
                        literal,
                        format!("`{record_type}` built here, without field `{field}`"),
                    );
                }
                labels.add(mention, format!("field `{field}` used here"));
                let fields = match self.store.term(closed) {
                    Term::Record(record) => record
                        .fields
                        .iter()
                        .map(|slot| format!("`{}`", slot.name))
                        .collect::<Vec<_>>()
                        .join(", "),
                    _ => String::new(),
                };
                let has = if fields.is_empty() {
                    "has no fields".to_string()
                } else {
                    format!("has only {fields}")
                };
                match reason {
                    Reason::FieldAccess(accessed)
                        if accessed == field && record_type == found_type =>
                    {
                        Diagnostic::error(at, format!("no field `{field}` in `{record_type}`"))
                            .with_label(format!("unknown field `{field}`"))
                            .with_note(format!(
                                "the record {has}; records have a fixed set of fields"
                            ))
                    }
                    _ => Diagnostic::error(at, mismatch)
                        .with_label(reason.label(&expected_type, &found_type))
                        .with_note(format!(
                            "the record `{record_type}` has no field `{field}` (it {has})"
                        )),
                }
            }
        };
        let diagnostic = match reason {
            Reason::Argument { parameter, .. } => {
                labels.add(parameter.span, format!("parameter `{}`", parameter.name));
                diagnostic
            }
            _ => diagnostic,
        };
        labels.attach(diagnostic)
    }

    /// Records do not nest: a record-typed field is an error, whichever constraints made it so.
    fn check_nested_records(&mut self) {
        let mut nested: Vec<(&'p str, Span, Node)> = Vec::new();
        for (_, record) in self.store.record_roots() {
            for slot in &record.fields {
                if matches!(self.store.term(slot.ty), Term::Record(_)) {
                    nested.push((slot.name, slot.mention, slot.ty));
                }
            }
        }
        for (field, mention, inner) in nested {
            let inner_type = self.show(inner);
            let mut diagnostic = Diagnostic::error(
                mention,
                format!("records do not nest: field `{field}` holds a record; use a pointer"),
            )
            .with_label(format!("field `{field}` holds `{inner_type}`"));
            if let Some(origin) = self.store.origin(inner) {
                if origin.span != mention {
                    diagnostic = diagnostic.with_secondary(
                        origin.span,
                        format!("this record ends up in field `{field}`"),
                    );
                }
            }
            diagnostic = diagnostic.with_note(format!(
                "help: store a pointer to the record in the field (`{field}: alloc {{…}}`) and reach it with `->`"
            ));
            self.diagnostics.push(diagnostic);
        }
    }

    /// `==` and `!=` compare numbers or pointers (as the interpreter does); records and arrays
    /// are values, and comparing them whole is rejected here rather than at run time.
    fn check_comparisons(&mut self) {
        for index in 0..self.comparisons.len() {
            let (at, op, operand) = self.comparisons[index];
            let (kind, help) = match self.store.term(operand) {
                Term::Record(_) => ("records", "compare the fields one by one"),
                Term::Array(_) => ("arrays", "compare the elements one by one"),
                _ => continue,
            };
            let operand_type = self.show(operand);
            let mut diagnostic = Diagnostic::error(
                at,
                format!("`{op}` compares numbers or pointers, not {kind}"),
            )
            .with_label(format!("both sides are `{operand_type}`"));
            if let Some(origin) = self.store.origin(operand) {
                if origin.span != at {
                    diagnostic = diagnostic.with_secondary(
                        origin.span,
                        format!("`{operand_type}` from this {}", origin.why.describe()),
                    );
                }
            }
            self.diagnostics
                .push(diagnostic.with_note(format!("help: {help}")));
        }
    }
}

/// Secondary labels, each span once and never the primary span.
struct Labels {
    primary: Span,
    labels: Vec<(Span, String)>,
}

impl Labels {
    fn new(primary: Span) -> Labels {
        Labels {
            primary,
            labels: Vec::new(),
        }
    }

    fn add(&mut self, span: Span, message: String) {
        if span != self.primary && self.labels.iter().all(|(other, _)| *other != span) {
            self.labels.push((span, message));
        }
    }

    fn attach(self, mut diagnostic: Diagnostic) -> Diagnostic {
        for (span, message) in self.labels {
            diagnostic = diagnostic.with_secondary(span, message);
        }
        diagnostic
    }
}
