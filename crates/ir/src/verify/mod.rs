//! The IR verifier: checks a [`Module`] against the invariants of [`crate::cfg`] and reports
//! every violation found, each located by function, block and instruction.
//!
//! * `structure`: ids in range, parameters first, record fields sorted, calls with the
//!   callee's arity, checks registered under a property of their kind and function, `&` only of
//!   address-taken parameters and variables, an entry block without predecessors, and every
//!   block reachable from the entry;
//! * `guards`: every operation that can fail is preceded in its block by the check guarding it
//!   (see the module for the exact rule), and `var` locals are read only after an `Init` check
//!   or an assignment in the same block;
//! * `temps`: temporaries are assigned before use on every path (a must-assigned data flow);
//! * `widths`: every operation's numbers have the widths it needs, and every local receives
//!   numbers of its declared width.
//!
//! A failure on lowered code is a lowering bug: tests run the verifier on every program they
//! lower. The verifier never panics, whatever the module.

mod guards;
mod structure;
mod temps;
mod widths;

use std::fmt::Display;

use crate::cfg::*;

/// Checks every invariant; `Err` lists all violations found, one message each, in function
/// and block order.
pub fn verify(module: &Module) -> Result<(), Vec<String>> {
    let mut errors = Vec::new();
    structure::check_properties(module, &mut errors);
    // Reads through pointers must check initialization exactly when some `var` can be pointed to.
    let init_through_pointers = module.functions.iter().any(|f| {
        f.locals
            .iter()
            .any(|l| l.kind == LocalKind::Var && l.address_taken)
    });
    for (i, func) in module.functions.iter().enumerate() {
        let mut report = Report {
            func: &func.name,
            errors: &mut errors,
            count: 0,
        };
        structure::check_function(module, FuncId(i as u32), func, &mut report);
        // The flow checks index by id: run them only on a structurally sound function.
        if report.count == 0 {
            guards::check_function(func, init_through_pointers, &mut report);
            temps::check_function(func, &mut report);
            widths::check_function(module, func, &mut report);
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

/// Where in a block a problem is.
#[derive(Clone, Copy)]
pub(super) enum At {
    Inst(usize),
    Terminator,
}

/// Collects the errors of one function, prefixed with their location.
pub(super) struct Report<'a> {
    func: &'a str,
    errors: &'a mut Vec<String>,
    count: usize,
}

impl Report<'_> {
    pub fn function(&mut self, message: impl Display) {
        self.errors.push(format!("fn {}: {message}", self.func));
        self.count += 1;
    }

    pub fn at(&mut self, block: BlockId, at: At, message: impl Display) {
        let location = match at {
            At::Inst(i) => format!("bb{}[{i}]", block.0),
            At::Terminator => format!("bb{} terminator", block.0),
        };
        self.errors
            .push(format!("fn {}: {location}: {message}", self.func));
        self.count += 1;
    }
}

/// Every local whose current value an instruction reads: its operands, and the base local of
/// each place it reads from (a `Store` into part of a local reads the rest of it).
pub(super) fn for_each_read_local(kind: &InstKind, mut f: impl FnMut(LocalId)) {
    kind.for_each_operand(|op| {
        if let Operand::Local(l) = op {
            f(l);
        }
    });
    let place = match kind {
        InstKind::Assign {
            value: Rvalue::Read(place) | Rvalue::Len(place),
            ..
        } => Some(place),
        InstKind::Store { place, .. } if !place.projections.is_empty() => Some(place),
        InstKind::Check {
            check: Check::InBounds { array: place, .. } | Check::Init(place),
            ..
        } => Some(place),
        _ => None,
    };
    if let Some(l) = place.and_then(Place::base_local) {
        f(l);
    }
}

#[cfg(test)]
mod tests;
