//! Lowering: a resolved micro-c program becomes a [`Module`] of three-address control-flow
//! graphs in which every runtime error is an explicit [`Check`](crate::cfg::Check) with a property site.
//!
//! The input must have passed `symex_syntax::resolve::check` (every name resolves, arities
//! match, `&` only of variables); it may be ill-typed, and lowering never looks at types.
//!
//! # Rules
//! * **Order**: expressions are evaluated left to right, operands before the operation, as a C
//!   programmer expects; `&&`/`||` short-circuit by branching and yield 0/1 in a temporary when
//!   used as values; in `if`/`while` conditions they (and `!`) branch directly.
//! * **Checks** precede the operation they guard, in the same block:
//!   `a / b`, `a % b`: `NonZero(b)` (span: the division); `*p`, `p->f`: `NonNull(p)` (span: the
//!   dereference); `a[i]`: `InBounds` (span: the subscript `[i]`); a read of a `var` variable: `Init(x)`
//!   (span: the occurrence); `assert(e)`: `Assert` (span: the statement). `assume(e)` is an
//!   `Assume` instruction, not a property.
//! * **Accesses** (see `place`): all locating operands first, then the checks, then the
//!   `Read`/`Store`; a place has one dereference at most, at its base; writing part of a `var`
//!   aggregate (`r.f = 1`) reads it and so checks `Init(r)`.
//! * **Uninitialized cells**: reads through a pointer (and partial writes) check
//!   `Init(*p)` only if the program takes the address of some `var` variable anywhere, since
//!   otherwise every cell a pointer can reach holds an initialized value.
//! * **Snapshots**: a local read is used directly as an operand, unless something evaluated
//!   before its use could invalidate that (a branch for a `var`, whose check must share the
//!   block; a call for an address-taken local, which the callee may overwrite): then it is
//!   copied to a temporary at the point of the read.
//! * **Layout**: locals are parameters, then `var`s, then temporaries `%0, %1, ...`; blocks are
//!   numbered in reverse postorder with no unreachable block; field ids follow the alphabetical
//!   order of the names; property ids follow emission order, function by function.

mod builder;
mod expr;
pub(crate) mod layout;

pub use layout::in_reverse_postorder;
mod place;
mod scan;
mod stmt;

use symex_syntax::ast::Program;

use crate::cfg::{FuncId, Module};
use builder::{FnLowerer, Shared};

/// Lowers a resolved program. Never panics on a program that passed name resolution.
///
/// In debug builds the result is checked with [`crate::verify`].
///
/// # Panics
/// On a program that did not pass resolution (an unknown name, `&` of a non-variable, a syntax
/// error placeholder): that is a bug in the caller. In debug builds also when the lowered module
/// breaks an IR invariant: that is a bug in lowering.
pub fn lower(program: &Program) -> Module {
    let scan = scan::scan(program);
    let mut shared = Shared::with_fields(&scan.field_names);
    let mut functions = Vec::with_capacity(program.functions.len());
    for (i, f) in program.functions.iter().enumerate() {
        let mut lowerer = FnLowerer::new(&scan, &mut shared, FuncId(i as u32));
        lowerer.lower_body(f);
        let function = lowerer.finish(&f.name, f.span, f.params.len() as u32);
        functions.push(layout::in_reverse_postorder(function));
    }
    let module = Module {
        functions,
        fields: shared.fields,
        properties: shared.properties,
    };
    // Debug builds check every lowered module: a violation is a lowering bug, never a user error.
    #[cfg(debug_assertions)]
    if let Err(problems) = crate::verify(&module) {
        panic!("lowering produced IR that breaks its invariants (a bug in symex): {problems:#?}");
    }
    module
}

#[cfg(test)]
mod tests;
