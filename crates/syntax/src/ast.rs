//! The micro-c abstract syntax tree (`docs/microc.md` in `../shared`).
//!
//! A faithful tree of what was written, with a [`Span`] on every node and a [`NodeId`] on every
//! expression (the key of the type table). It is built by the parser and only read afterwards:
//! name resolution and type inference keep their results in side tables, never in the tree.

use crate::span::Span;

/// Dense id of an expression node, unique within one [`Program`]; indexes side tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId(pub u32);

/// A name as written, with its span.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Ident {
    pub name: String,
    pub span: Span,
}

#[derive(Clone, Debug, Default)]
pub struct Program {
    pub functions: Vec<Function>,
    /// Number of expression nodes: every [`NodeId`] is below this.
    pub node_count: u32,
}

impl Program {
    pub fn function(&self, name: &str) -> Option<&Function> {
        self.functions.iter().find(|f| f.name.name == name)
    }
}

#[derive(Clone, Debug)]
pub struct Function {
    pub name: Ident,
    pub params: Vec<Ident>,
    /// Variables of all `var` statements, in order.
    pub locals: Vec<Ident>,
    pub body: Vec<Stmt>,
    /// The expression of the final `return`.
    pub ret: Expr,
    /// Span of the `return` keyword through its `;`.
    pub ret_span: Span,
    /// The whole function.
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum StmtKind {
    /// `target = value;` where `target` is an lvalue expression: `x`, `*e`, `e.f`, `e->f`, `e[i]`.
    Assign {
        target: Expr,
        value: Expr,
    },
    Output(Expr),
    If {
        cond: Expr,
        then_branch: Box<Stmt>,
        else_branch: Option<Box<Stmt>>,
    },
    While {
        cond: Expr,
        body: Box<Stmt>,
    },
    Block(Vec<Stmt>),
    Assert(Expr),
    Assume(Expr),
}

#[derive(Clone, Debug)]
pub struct Expr {
    pub id: NodeId,
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnaryOp {
    /// `!e`: 1 if `e == 0`, else 0.
    Not,
    /// `-e`, wrapping.
    Neg,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinaryOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    /// Short-circuit `&&`.
    And,
    /// Short-circuit `||`.
    Or,
}

impl BinaryOp {
    pub fn symbol(self) -> &'static str {
        match self {
            BinaryOp::Add => "+",
            BinaryOp::Sub => "-",
            BinaryOp::Mul => "*",
            BinaryOp::Div => "/",
            BinaryOp::Rem => "%",
            BinaryOp::Eq => "==",
            BinaryOp::Ne => "!=",
            BinaryOp::Lt => "<",
            BinaryOp::Le => "<=",
            BinaryOp::Gt => ">",
            BinaryOp::Ge => ">=",
            BinaryOp::And => "&&",
            BinaryOp::Or => "||",
        }
    }
}

impl UnaryOp {
    pub fn symbol(self) -> &'static str {
        match self {
            UnaryOp::Not => "!",
            UnaryOp::Neg => "-",
        }
    }
}

#[derive(Clone, Debug)]
pub enum ExprKind {
    /// A number literal; `-5` written as a literal is folded to `Number(-5)`.
    Number(i32),
    /// A local variable or parameter (or, wrongly, a function name: resolution reports it).
    Var(Ident),
    Null,
    Input,
    Unary(UnaryOp, Box<Expr>),
    Binary(BinaryOp, Box<Expr>, Box<Expr>),
    /// `*e`
    Deref(Box<Expr>),
    /// `&x`: the operand is kept as an expression so resolution can report `&` of a non-local.
    AddrOf(Box<Expr>),
    /// `alloc e`
    Alloc(Box<Expr>),
    /// `e.f`, and `e->f` desugared to `(*e).f` (the `Deref` node then spans `e->f` too).
    Field(Box<Expr>, Ident),
    /// `e[i]`
    Index(Box<Expr>, Box<Expr>),
    /// `f(args)`: callee by name only.
    Call(Ident, Vec<Expr>),
    /// `{f: e, g: e}`
    Record(Vec<(Ident, Expr)>),
    /// `[e, e, e]`
    Array(Vec<Expr>),
    /// Placeholder left by error recovery; never present in a program without syntax errors.
    Error,
}

impl Expr {
    /// Whether this expression may stand left of `=` (syntactically).
    pub fn is_lvalue(&self) -> bool {
        matches!(
            self.kind,
            ExprKind::Var(_) | ExprKind::Deref(_) | ExprKind::Field(..) | ExprKind::Index(..)
        )
    }
}

/// Depth-first visit of every expression in a statement list (pre-order).
pub fn walk_stmts_exprs<'a>(stmts: &'a [Stmt], f: &mut dyn FnMut(&'a Expr)) {
    for stmt in stmts {
        walk_stmt_exprs(stmt, f);
    }
}

pub fn walk_stmt_exprs<'a>(stmt: &'a Stmt, f: &mut dyn FnMut(&'a Expr)) {
    match &stmt.kind {
        StmtKind::Assign { target, value } => {
            walk_expr(target, f);
            walk_expr(value, f);
        }
        StmtKind::Output(e) | StmtKind::Assert(e) | StmtKind::Assume(e) => walk_expr(e, f),
        StmtKind::If {
            cond,
            then_branch,
            else_branch,
        } => {
            walk_expr(cond, f);
            walk_stmt_exprs(then_branch, f);
            if let Some(e) = else_branch {
                walk_stmt_exprs(e, f);
            }
        }
        StmtKind::While { cond, body } => {
            walk_expr(cond, f);
            walk_stmt_exprs(body, f);
        }
        StmtKind::Block(stmts) => walk_stmts_exprs(stmts, f),
    }
}

pub fn walk_expr<'a>(expr: &'a Expr, f: &mut dyn FnMut(&'a Expr)) {
    f(expr);
    match &expr.kind {
        ExprKind::Number(_)
        | ExprKind::Var(_)
        | ExprKind::Null
        | ExprKind::Input
        | ExprKind::Error => {}
        ExprKind::Unary(_, e)
        | ExprKind::Deref(e)
        | ExprKind::AddrOf(e)
        | ExprKind::Alloc(e)
        | ExprKind::Field(e, _) => walk_expr(e, f),
        ExprKind::Binary(_, a, b) | ExprKind::Index(a, b) => {
            walk_expr(a, f);
            walk_expr(b, f);
        }
        ExprKind::Call(_, args) | ExprKind::Array(args) => {
            args.iter().for_each(|a| walk_expr(a, f))
        }
        ExprKind::Record(fields) => fields.iter().for_each(|(_, e)| walk_expr(e, f)),
    }
}
