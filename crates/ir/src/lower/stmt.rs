//! Lowering of statements and function bodies: assignments, `output`, `assert`, `assume`,
//! `if`, `while`, blocks, and the final `return`.
//!
//! `if` and `while` branch on their condition through [`FnLowerer::cond`]; a `while` loop gets a
//! header block of its own, so the entry block is never a jump target. An assignment to a
//! variable is one `Assign` (or a `Call`/`Input` straight into it); any other target is an
//! access: its operands, then the right side, then its checks, then the `Store`.

use symex_syntax::ast::{self, Expr, ExprKind, Stmt, StmtKind};
use symex_syntax::span::Span;

use super::builder::FnLowerer;
use super::place::AccessMode;
use crate::cfg::*;

impl FnLowerer<'_, '_> {
    pub fn lower_body(&mut self, f: &ast::Function) {
        for stmt in &f.body {
            self.stmt(stmt);
        }
        let value = self.operand(&f.ret);
        self.terminate(Terminator::Return(value), f.ret_span);
    }

    fn stmt(&mut self, stmt: &Stmt) {
        let span = stmt.span;
        match &stmt.kind {
            StmtKind::Assign { target, value } => self.assign(target, value, span),
            StmtKind::Output(e) => {
                let value = self.operand(e);
                self.emit(InstKind::Output(value), span);
            }
            StmtKind::Assert(e) => {
                let value = self.operand(e);
                self.emit_check(Check::Assert(value), span);
            }
            StmtKind::Assume(e) => {
                let value = self.operand(e);
                self.emit(InstKind::Assume(value), span);
            }
            StmtKind::If {
                cond,
                then_branch,
                else_branch,
            } => {
                let then_block = self.new_block();
                let join = self.new_block();
                let else_block = match else_branch {
                    Some(_) => self.new_block(),
                    None => join,
                };
                self.cond(cond, then_block, else_block);
                self.switch_to(then_block);
                self.stmt(then_branch);
                self.goto(join, span);
                if let Some(else_branch) = else_branch {
                    self.switch_to(else_block);
                    self.stmt(else_branch);
                    self.goto(join, span);
                }
                self.switch_to(join);
            }
            StmtKind::While { cond, body } => {
                let header = self.new_block();
                let body_block = self.new_block();
                let exit = self.new_block();
                self.goto(header, span);
                self.switch_to(header);
                self.cond(cond, body_block, exit);
                self.switch_to(body_block);
                self.stmt(body);
                self.goto(header, span);
                self.switch_to(exit);
            }
            StmtKind::Block(stmts) => {
                for stmt in stmts {
                    self.stmt(stmt);
                }
            }
        }
    }

    fn assign(&mut self, target: &Expr, value: &Expr, span: Span) {
        if let ExprKind::Var(ident) = &target.kind {
            let dst = self.local_named(ident);
            match &value.kind {
                ExprKind::Call(name, args) => self.call(name, args, dst, span),
                ExprKind::Input => self.emit(InstKind::Input { dst }, span),
                _ => {
                    let value = self.rvalue(value);
                    self.emit(InstKind::Assign { dst, value }, span);
                }
            }
            return;
        }
        let access = self.access(target, AccessMode::Write, self.scan.effects(value));
        let value = self.operand(value);
        let place = self.emit_access_checks(access);
        self.emit(InstKind::Store { place, value }, span);
    }
}
