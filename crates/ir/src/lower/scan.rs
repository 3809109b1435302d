//! The pre-pass of lowering: facts about the whole program that lowering needs before it emits
//! a single instruction.
//!
//! * the [`FuncId`] of every function name, and every function's locals (parameters, then `var`
//!   variables, in declaration order) with their `address_taken` flags;
//! * whether any `var` local has its address taken anywhere (then a cell reached through a
//!   pointer may be uninitialized, and reads through pointers need `Check::Init`);
//! * for every expression, whether evaluating it may branch (`&&`, `||`) or call a function:
//!   the lowering snapshots a local read early in an expression into a temporary only when
//!   something evaluated after it could split the block or change the local through a pointer.
//!
//! * every field name of the program, sorted, so field ids (and record fields, which are sorted
//!   by id) follow alphabetical order whatever the order of first use.
//!
//! It reads the tree only and never fails: names that do not resolve are left to the lowering.

use std::collections::{BTreeSet, HashMap};
use std::ops::BitOr;

use symex_syntax::ast::{self, BinaryOp, Expr, ExprKind, Program, Stmt, StmtKind};

use crate::cfg::{FuncId, LocalId, LocalInfo, LocalKind, Width};

/// What evaluating an expression may do besides computing its value.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Effects {
    /// It contains `&&` or `||`: its evaluation ends the current block.
    pub branches: bool,
    /// It contains a call: the callee may write any address-taken local through a pointer.
    pub calls: bool,
}

impl Effects {
    pub const NONE: Effects = Effects {
        branches: false,
        calls: false,
    };
}

impl BitOr for Effects {
    type Output = Effects;

    fn bitor(self, other: Effects) -> Effects {
        Effects {
            branches: self.branches || other.branches,
            calls: self.calls || other.calls,
        }
    }
}

/// The locals of one function and how its names map to them.
pub(super) struct Scope<'p> {
    pub names: HashMap<&'p str, LocalId>,
    /// Parameters first, then `var` variables; lowering appends temporaries to a copy.
    pub locals: Vec<LocalInfo>,
}

pub(super) struct Scan<'p> {
    pub functions: HashMap<&'p str, FuncId>,
    /// `scopes[i]` belongs to `program.functions[i]`.
    pub scopes: Vec<Scope<'p>>,
    /// Some `var` local of the program has its address taken.
    pub init_through_pointers: bool,
    /// Every field name used, sorted and without duplicates.
    pub field_names: Vec<String>,
    effects: Vec<Effects>,
}

impl Scan<'_> {
    pub fn effects(&self, e: &Expr) -> Effects {
        // Ids come from the parser and are below `node_count`; an unknown id is treated as
        // doing everything, which only costs a snapshot.
        self.effects
            .get(e.id.0 as usize)
            .copied()
            .unwrap_or(Effects {
                branches: true,
                calls: true,
            })
    }
}

pub(super) fn scan(program: &Program) -> Scan<'_> {
    let mut functions = HashMap::new();
    for (i, f) in program.functions.iter().enumerate() {
        functions
            .entry(f.name.name.as_str())
            .or_insert(FuncId(i as u32));
    }
    let scopes: Vec<Scope> = program.functions.iter().map(scope_of).collect();
    let init_through_pointers = scopes.iter().any(|s| {
        s.locals
            .iter()
            .any(|l| l.kind == LocalKind::Var && l.address_taken)
    });
    Scan {
        functions,
        scopes,
        init_through_pointers,
        field_names: field_names(program),
        effects: effects_table(program),
    }
}

fn field_names(program: &Program) -> Vec<String> {
    let mut names = BTreeSet::new();
    let mut note = |e: &Expr| match &e.kind {
        ExprKind::Field(_, name) => {
            names.insert(name.name.clone());
        }
        ExprKind::Record(fields) => {
            names.extend(fields.iter().map(|(name, _)| name.name.clone()));
        }
        _ => {}
    };
    for f in &program.functions {
        ast::walk_stmts_exprs(&f.body, &mut note);
        ast::walk_expr(&f.ret, &mut note);
    }
    names.into_iter().collect()
}

/// The effects of every expression node, indexed by `NodeId`.
fn effects_table(program: &Program) -> Vec<Effects> {
    let mut table = vec![Effects::NONE; program.node_count as usize];
    for f in &program.functions {
        for_each_top_expr(&f.body, &mut |e| {
            subtree_effects(e, &mut table);
        });
        subtree_effects(&f.ret, &mut table);
    }
    table
}

fn scope_of(f: &ast::Function) -> Scope<'_> {
    let mut names = HashMap::new();
    let mut locals = Vec::with_capacity(f.params.len() + f.locals.len());
    let declared = f
        .params
        .iter()
        .map(|p| (p, LocalKind::Param))
        .chain(f.locals.iter().map(|v| (v, LocalKind::Var)));
    for (ident, kind) in declared {
        let id = LocalId(locals.len() as u32);
        locals.push(LocalInfo {
            name: ident.name.clone(),
            kind,
            span: ident.span,
            address_taken: false,
            width: Width::W32,
            unsigned: false,
            layout: Default::default(),
        });
        // Resolution rejects duplicate names; should one slip through, the first declaration
        // wins, as a reader scanning the parameter list and then the `var`s would expect.
        names.entry(ident.name.as_str()).or_insert(id);
    }
    let mut mark = |e: &Expr| {
        if let ExprKind::AddrOf(inner) = &e.kind {
            if let ExprKind::Var(name) = &inner.kind {
                if let Some(&id) = names.get(name.name.as_str()) {
                    locals[id.index()].address_taken = true;
                }
            }
        }
    };
    ast::walk_stmts_exprs(&f.body, &mut mark);
    ast::walk_expr(&f.ret, &mut mark);
    Scope { names, locals }
}

/// Calls `f` on the outermost expressions of the statements (those not inside another).
fn for_each_top_expr<'a>(stmts: &'a [Stmt], f: &mut dyn FnMut(&'a Expr)) {
    for stmt in stmts {
        match &stmt.kind {
            StmtKind::Assign { target, value } => {
                f(target);
                f(value);
            }
            StmtKind::Output(e) | StmtKind::Assert(e) | StmtKind::Assume(e) => f(e),
            StmtKind::If {
                cond,
                then_branch,
                else_branch,
            } => {
                f(cond);
                for_each_top_expr(std::slice::from_ref(then_branch.as_ref()), f);
                if let Some(e) = else_branch {
                    for_each_top_expr(std::slice::from_ref(e.as_ref()), f);
                }
            }
            StmtKind::While { cond, body } => {
                f(cond);
                for_each_top_expr(std::slice::from_ref(body.as_ref()), f);
            }
            StmtKind::Block(stmts) => for_each_top_expr(stmts, f),
        }
    }
}

/// Fills in the effects of `e` and of every node below it, each computed once.
fn subtree_effects(e: &Expr, table: &mut [Effects]) -> Effects {
    let effects = match &e.kind {
        ExprKind::Number(_)
        | ExprKind::Var(_)
        | ExprKind::Null
        | ExprKind::Input
        | ExprKind::Error => Effects::NONE,
        ExprKind::Unary(_, a)
        | ExprKind::Deref(a)
        | ExprKind::AddrOf(a)
        | ExprKind::Alloc(a)
        | ExprKind::Field(a, _) => subtree_effects(a, table),
        ExprKind::Binary(op, a, b) => {
            let own = Effects {
                branches: matches!(op, BinaryOp::And | BinaryOp::Or),
                calls: false,
            };
            own | subtree_effects(a, table) | subtree_effects(b, table)
        }
        ExprKind::Index(a, i) => subtree_effects(a, table) | subtree_effects(i, table),
        ExprKind::Call(_, args) => args.iter().fold(
            Effects {
                branches: false,
                calls: true,
            },
            |acc, a| acc | subtree_effects(a, table),
        ),
        ExprKind::Record(fields) => fields
            .iter()
            .fold(Effects::NONE, |acc, (_, a)| acc | subtree_effects(a, table)),
        ExprKind::Array(items) => items
            .iter()
            .fold(Effects::NONE, |acc, a| acc | subtree_effects(a, table)),
    };
    if let Some(slot) = table.get_mut(e.id.0 as usize) {
        *slot = effects;
    }
    effects
}
