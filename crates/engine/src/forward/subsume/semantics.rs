//! The scalar fragment of the IR as terms over an environment of locals, shared by the backward
//! walk (`wp.rs`, where locals are placeholders) and the loop-invariant check (`induction.rs`,
//! where they are a loop path's values).
//!
//! Only what can be said about numbers held in plain (not cell-backed) locals is translated;
//! everything else (pointers, memory, records, arrays) answers `None`, and callers then refuse to
//! annotate rather than guess. Nothing here walks paths.

use symex_ir::cfg::LocalId;
use symex_ir::cfg::{Check, Operand, Place, PlaceBase, Rvalue};
use symex_smt::{TermId, TermStore};

use crate::common::terms;
use crate::error::EngineError;

type Result<T> = std::result::Result<T, EngineError>;

/// Reads a local's number, or `None` when it is not a plain number local.
pub trait Locals {
    fn number(&mut self, store: &mut TermStore, local: LocalId) -> Result<Option<TermId>>;
    fn initialized(&mut self, store: &mut TermStore, local: LocalId) -> Result<Option<TermId>>;
}

pub fn operand(
    store: &mut TermStore,
    env: &mut impl Locals,
    op: Operand,
) -> Result<Option<TermId>> {
    Ok(match op {
        Operand::Const(n) => Some(terms::int_const(store, n)?),
        Operand::Null => None,
        Operand::Local(l) => env.number(store, l)?,
    })
}

/// The number an rvalue computes, when it computes one from numbers alone.
pub fn rvalue(
    store: &mut TermStore,
    env: &mut impl Locals,
    value: &Rvalue,
) -> Result<Option<TermId>> {
    Ok(match value {
        Rvalue::Use(op) => operand(store, env, *op)?,
        Rvalue::Unary(op, a) => match operand(store, env, *a)? {
            Some(a) => Some(terms::unary(store, *op, a)?),
            None => None,
        },
        Rvalue::Binary(op, a, b) => match (operand(store, env, *a)?, operand(store, env, *b)?) {
            (Some(a), Some(b)) => Some(terms::binary(store, *op, a, b)?),
            _ => None,
        },
        Rvalue::Alloc(_)
        | Rvalue::AddrOf(_)
        | Rvalue::Record(_)
        | Rvalue::Array(_)
        | Rvalue::Read(_) => None,
    })
}

/// A plain local named by a place without projections.
pub fn plain_local(place: &Place) -> Option<LocalId> {
    match (place.base, place.projections.is_empty()) {
        (PlaceBase::Local(l), true) => Some(l),
        _ => None,
    }
}

/// The condition under which a check passes, when it is about numbers in plain locals.
pub fn check_passes(
    store: &mut TermStore,
    env: &mut impl Locals,
    check: &Check,
) -> Result<Option<TermId>> {
    Ok(match check {
        Check::Assert(op) | Check::NonZero(op) => match operand(store, env, *op)? {
            Some(t) => Some(terms::truth(store, t)?),
            None => None,
        },
        Check::Init(place) => match plain_local(place) {
            Some(l) => env.initialized(store, l)?,
            None => None,
        },
        Check::Reach => Some(store.bool_val(false)?),
        Check::NonNull(_) | Check::InBounds { .. } => None,
    })
}

/// The truth of a branch or `assume` operand.
pub fn condition(
    store: &mut TermStore,
    env: &mut impl Locals,
    op: Operand,
) -> Result<Option<TermId>> {
    match operand(store, env, op)? {
        Some(t) => Ok(Some(terms::truth(store, t)?)),
        None => Ok(None),
    }
}
