//! Lowering of accesses: `x`, `*e`, `e.f`, `e[i]` and their chains, read or written, become a
//! [`Place`] plus the checks the access needs.
//!
//! An access first evaluates, left to right, every operand that locates it (the pointer of a
//! dereference, the indices); only then, immediately before the read or write, come its checks,
//! outermost first: `NonNull` of the pointer, `Init` of the base, `InBounds` of each index. So
//! `a[i][j]` evaluates `i` and `j` before checking either bound (as C computes an address
//! before touching memory), and the checks always share a block with the access even when an
//! index contains `&&`.
//!
//! A place has at most one dereference, at its base: `(*(*p).next).val` reads `(*p).next` into
//! a temporary first. A chain rooted at a non-place value (`f().x`) reads it from a temporary.
//!
//! Initialization: the base of an access is checked with `Init` when the access reads it, or
//! writes only part of it (`r.f = 1` reads `r` to update it); writing a whole `*p` needs none.
//! A `var` base is always checked; a dereferenced cell only when the program takes the address
//! of some `var` variable, since only such a cell (`&x` of an unassigned `x`) can be
//! uninitialized: `alloc e` cells start with the value of `e`, which was itself checked.

use symex_syntax::ast::{Expr, ExprKind, Ident};
use symex_syntax::span::Span;

use super::builder::FnLowerer;
use super::scan::Effects;
use crate::cfg::*;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum AccessMode {
    Read,
    Write,
}

/// A located place whose checks are not emitted yet.
pub(super) struct Access {
    place: Place,
    checks: Vec<(Check, Span)>,
}

/// One projection of an access chain, as written.
enum Step<'e> {
    Field(&'e Ident),
    /// The index expression and the span of its subscript `[i]`: the property's location, so
    /// that the checks of `m[i][j]` stand at different columns.
    Index(&'e Expr, Span),
}

impl FnLowerer<'_, '_> {
    /// Evaluates the operands that locate `e`; `later` is what the caller evaluates after this
    /// and before [`FnLowerer::emit_access_checks`] (the right side of an assignment).
    pub fn access(&mut self, e: &Expr, mode: AccessMode, later: Effects) -> Access {
        let mut steps = Vec::new();
        let mut root = e;
        loop {
            match &root.kind {
                ExprKind::Field(inner, name) => {
                    steps.push(Step::Field(name));
                    root = inner.as_ref();
                }
                ExprKind::Index(inner, index) => {
                    let subscript = Span {
                        start: inner.span.end,
                        end: root.span.end,
                    };
                    steps.push(Step::Index(index, subscript));
                    root = inner.as_ref();
                }
                _ => break,
            }
        }
        steps.reverse();
        // after[k]: what is evaluated from step k on, then `later`.
        let mut after = vec![later; steps.len() + 1];
        for k in (0..steps.len()).rev() {
            after[k] = after[k + 1]
                | match steps[k] {
                    Step::Index(index, _) => self.scan.effects(index),
                    Step::Field(_) => Effects::NONE,
                };
        }
        let reads_base = mode == AccessMode::Read || !steps.is_empty();
        let mut checks = Vec::new();
        let base = self.access_base(root, reads_base, after[0], &mut checks);
        let mut place = Place {
            base,
            projections: Vec::with_capacity(steps.len()),
        };
        for (k, step) in steps.iter().enumerate() {
            match *step {
                Step::Field(name) => {
                    let field = self.field(&name.name);
                    place.projections.push(Projection::Field(field));
                }
                Step::Index(index_expr, span) => {
                    let index = self.operand(index_expr);
                    let index = self.hold(index, after[k + 1], index_expr.span);
                    let array = place.clone();
                    checks.push((Check::InBounds { array, index }, span));
                    place.projections.push(Projection::Index(index));
                }
            }
        }
        Access { place, checks }
    }

    fn access_base(
        &mut self,
        root: &Expr,
        reads_base: bool,
        later: Effects,
        checks: &mut Vec<(Check, Span)>,
    ) -> PlaceBase {
        match &root.kind {
            ExprKind::Var(ident) => {
                let local = self.local_named(ident);
                if reads_base && self.kind_of(local) == LocalKind::Var {
                    checks.push((Check::Init(Place::local(local)), root.span));
                }
                PlaceBase::Local(local)
            }
            ExprKind::Deref(pointer) => {
                let p = self.operand(pointer);
                let p = self.hold(p, later, pointer.span);
                checks.push((Check::NonNull(p), root.span));
                if reads_base && self.scan.init_through_pointers {
                    checks.push((Check::Init(Place::deref(p)), root.span));
                }
                PlaceBase::Deref(p)
            }
            _ => {
                let value = self.operand(root);
                let temp = match value {
                    Operand::Local(t) if self.kind_of(t) == LocalKind::Temp => t,
                    _ => self.assign_temp(Rvalue::Use(value), root.span),
                };
                PlaceBase::Local(temp)
            }
        }
    }

    /// Emits the checks of an access and returns its place; the caller emits the access next.
    pub fn emit_access_checks(&mut self, access: Access) -> Place {
        for (check, span) in access.checks {
            self.emit_check(check, span);
        }
        access.place
    }
}
