//! Lowering of expressions to operands and rvalues, and of conditions to branches.
//!
//! Evaluation is left to right. An expression's checks are emitted as it is evaluated, and the
//! rvalue that [`FnLowerer::rvalue`] returns must be emitted by the caller right away, so every
//! check sits in the same block as the operation it guards ([`FnLowerer::hold`] keeps that true
//! for an operand consumed after more evaluation).
//! `&&` and `||` never become instructions: they are branches ([`FnLowerer::cond`]), and in a
//! value position they assign 0 or 1 to a temporary in two blocks that join.

use symex_syntax::ast::{BinaryOp, Expr, ExprKind, Ident, UnaryOp};
use symex_syntax::span::Span;

use super::builder::FnLowerer;
use super::place::AccessMode;
use super::scan::Effects;
use crate::cfg::*;

impl FnLowerer<'_, '_> {
    /// Evaluates `e` up to its last operation, which is returned for the caller to emit next.
    pub fn rvalue(&mut self, e: &Expr) -> Rvalue {
        match &e.kind {
            ExprKind::Number(n) => Rvalue::Use(Operand::Const(*n)),
            ExprKind::Null => Rvalue::Use(Operand::Null),
            ExprKind::Var(ident) => Rvalue::Use(self.read_local(ident, e.span)),
            ExprKind::Input => {
                let dst = self.new_temp(e.span, Width::W32);
                self.emit(InstKind::Input { dst }, e.span);
                Rvalue::Use(Operand::Local(dst))
            }
            ExprKind::Unary(op, a) => {
                let a = self.operand(a);
                Rvalue::Unary(un_op(*op), a)
            }
            ExprKind::Binary(op, a, b) => match bin_op(*op) {
                Some(op) => self.binary(e.span, op, a, b),
                None => Rvalue::Use(Operand::Local(self.short_circuit_value(e))),
            },
            ExprKind::Deref(_) | ExprKind::Field(..) | ExprKind::Index(..) => {
                let access = self.access(e, AccessMode::Read, Effects::NONE);
                Rvalue::Read(self.emit_access_checks(access))
            }
            ExprKind::AddrOf(inner) => match &inner.kind {
                ExprKind::Var(ident) => Rvalue::AddrOf(self.local_named(ident)),
                _ => panic!("lower: `&` of a non-variable (lowering requires a resolved program)"),
            },
            ExprKind::Alloc(a) => Rvalue::Alloc(self.operand(a)),
            ExprKind::Call(name, args) => {
                let dst = self.new_temp(e.span, Width::W32);
                self.call(name, args, dst, e.span);
                Rvalue::Use(Operand::Local(dst))
            }
            ExprKind::Record(fields) => self.record(fields),
            ExprKind::Array(items) => Rvalue::Array(self.operands_in_order(items, Effects::NONE)),
            ExprKind::Error => {
                panic!("lower: syntax-error placeholder (lowering requires a parsed program)")
            }
        }
    }

    /// Evaluates `e` to an operand, through a fresh temporary unless it already is one.
    pub fn operand(&mut self, e: &Expr) -> Operand {
        match self.rvalue(e) {
            Rvalue::Use(op) => op,
            value => Operand::Local(self.assign_temp(value, e.span)),
        }
    }

    /// A use of a parameter or `var` variable; a `var` read is checked for initialization.
    pub fn read_local(&mut self, ident: &Ident, span: Span) -> Operand {
        let local = self.local_named(ident);
        if self.kind_of(local) == LocalKind::Var {
            self.emit_check(Check::Init(Place::local(local)), span);
        }
        Operand::Local(local)
    }

    /// Keeps an operand valid until `later` (evaluated before the operand is consumed) is done.
    ///
    /// A `var` local must be read in the block of its `Check::Init`, so it is copied if `later`
    /// branches; an address-taken local may be written by a callee, so it is copied if `later`
    /// calls. Constants and temporaries never change.
    pub fn hold(&mut self, op: Operand, later: Effects, span: Span) -> Operand {
        let Operand::Local(local) = op else {
            return op;
        };
        let may_change = later.calls && self.is_address_taken(local);
        let snapshot = match self.kind_of(local) {
            LocalKind::Temp => false,
            LocalKind::Var => later.branches || may_change,
            LocalKind::Param | LocalKind::Assigned => may_change,
        };
        if snapshot {
            Operand::Local(self.assign_temp(Rvalue::Use(op), span))
        } else {
            op
        }
    }

    /// Evaluates `exprs` left to right, each operand held until all are evaluated and `later`.
    pub fn operands_in_order(&mut self, exprs: &[Expr], later: Effects) -> Vec<Operand> {
        let mut after = vec![later; exprs.len() + 1];
        for i in (0..exprs.len()).rev() {
            after[i] = after[i + 1] | self.scan.effects(&exprs[i]);
        }
        exprs
            .iter()
            .enumerate()
            .map(|(i, e)| {
                let op = self.operand(e);
                self.hold(op, after[i + 1], e.span)
            })
            .collect()
    }

    /// `dst = name(args)`.
    pub fn call(&mut self, name: &Ident, args: &[Expr], dst: LocalId, span: Span) {
        let func = self.function_named(name);
        let args = self.operands_in_order(args, Effects::NONE);
        self.emit(InstKind::Call { dst, func, args }, span);
    }

    fn binary(&mut self, span: Span, op: BinOp, lhs: &Expr, rhs: &Expr) -> Rvalue {
        let a = self.operand(lhs);
        let a = self.hold(a, self.scan.effects(rhs), lhs.span);
        let b = self.operand(rhs);
        if matches!(op, BinOp::Div | BinOp::Rem) {
            self.emit_check(Check::NonZero(b), span);
        }
        Rvalue::Binary(op, a, b)
    }

    /// A record literal: fields evaluated in source order, then sorted by id. Resolution rejects
    /// a repeated field; should one slip through, the last value wins, as with assignments.
    fn record(&mut self, fields: &[(Ident, Expr)]) -> Rvalue {
        let mut after = vec![Effects::NONE; fields.len() + 1];
        for i in (0..fields.len()).rev() {
            after[i] = after[i + 1] | self.scan.effects(&fields[i].1);
        }
        let mut values: Vec<(FieldId, Operand)> = Vec::with_capacity(fields.len());
        for (i, (name, e)) in fields.iter().enumerate() {
            let op = self.operand(e);
            let op = self.hold(op, after[i + 1], e.span);
            values.push((self.field(&name.name), op));
        }
        values.sort_by_key(|&(id, _)| id);
        let mut unique: Vec<(FieldId, Operand)> = Vec::with_capacity(values.len());
        for (id, op) in values {
            match unique.last_mut() {
                Some(last) if last.0 == id => last.1 = op,
                _ => unique.push((id, op)),
            }
        }
        Rvalue::Record(unique)
    }

    /// `a && b` or `a || b` as a value: a temporary set to 1 or 0 on the two outcomes.
    fn short_circuit_value(&mut self, e: &Expr) -> LocalId {
        let result = self.new_temp(e.span, Width::W32);
        let on_true = self.new_block();
        let on_false = self.new_block();
        let join = self.new_block();
        self.cond(e, on_true, on_false);
        for (block, value) in [(on_true, 1), (on_false, 0)] {
            self.switch_to(block);
            let value = Rvalue::Use(Operand::Const(value));
            self.emit(InstKind::Assign { dst: result, value }, e.span);
            self.goto(join, e.span);
        }
        self.switch_to(join);
        result
    }

    /// Evaluates the condition `e` and ends the current block by jumping to `then_block` if it
    /// is non-zero, else to `else_block`; `&&`, `||` and `!` become control flow.
    pub fn cond(&mut self, e: &Expr, then_block: BlockId, else_block: BlockId) {
        match &e.kind {
            ExprKind::Binary(BinaryOp::And, a, b) => {
                let rhs = self.new_block();
                self.cond(a, rhs, else_block);
                self.switch_to(rhs);
                self.cond(b, then_block, else_block);
            }
            ExprKind::Binary(BinaryOp::Or, a, b) => {
                let rhs = self.new_block();
                self.cond(a, then_block, rhs);
                self.switch_to(rhs);
                self.cond(b, then_block, else_block);
            }
            ExprKind::Unary(UnaryOp::Not, a) => self.cond(a, else_block, then_block),
            _ => {
                let cond = self.operand(e);
                let branch = Terminator::Branch {
                    cond,
                    then_block,
                    else_block,
                };
                self.terminate(branch, e.span);
            }
        }
    }
}

fn un_op(op: UnaryOp) -> UnOp {
    match op {
        UnaryOp::Not => UnOp::Not,
        UnaryOp::Neg => UnOp::Neg,
    }
}

/// The three-address operator of a binary operator; `None` for the short-circuit ones.
fn bin_op(op: BinaryOp) -> Option<BinOp> {
    Some(match op {
        BinaryOp::Add => BinOp::Add,
        BinaryOp::Sub => BinOp::Sub,
        BinaryOp::Mul => BinOp::Mul,
        BinaryOp::Div => BinOp::Div,
        BinaryOp::Rem => BinOp::Rem,
        BinaryOp::Eq => BinOp::Eq,
        BinaryOp::Ne => BinOp::Ne,
        BinaryOp::Lt => BinOp::Lt,
        BinaryOp::Le => BinOp::Le,
        BinaryOp::Gt => BinOp::Gt,
        BinaryOp::Ge => BinOp::Ge,
        BinaryOp::And | BinaryOp::Or => return None,
    })
}
