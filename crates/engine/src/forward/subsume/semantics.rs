//! The scalar fragment of the IR as terms over an environment of locals, shared by the backward
//! walk (`wp.rs`, where locals are placeholders) and the loop-invariant check (`induction.rs`,
//! where they are a loop path's values).
//!
//! Only what can be said about numbers held in plain (not cell-backed) locals is translated;
//! everything else (pointers, memory, records, arrays) answers `None`, and callers then refuse to
//! annotate rather than guess. The exceptions are checks that static facts (`facts.rs`) decide:
//! a dereference of a local that only ever holds fresh cells, an index into a local that only
//! ever holds array literals. Nothing here walks paths.

use symex_ir::cfg::LocalId;
use symex_ir::cfg::{Check, Operand, Place, PlaceBase, Rvalue};
use symex_smt::{TermId, TermStore};

use crate::common::terms;
use crate::error::EngineError;
use crate::forward::subsume::facts::{never_null_operand, FunctionFacts};

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
        Operand::Const64(n) => Some(terms::int64_const(store, n)?),
        Operand::Null => None,
        Operand::Local(l) => env.number(store, l)?,
    })
}

/// Whether an rvalue computes a number from memory (what it holds, or a count over it), which
/// the annotations do not track: any value stands for it.
pub fn reads_memory(value: &Rvalue) -> bool {
    matches!(
        value,
        Rvalue::Read(_) | Rvalue::Len(_) | Rvalue::Unreached(_) | Rvalue::LiveObjects
    )
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
        | Rvalue::Read(_)
        | Rvalue::Len(_)
        | Rvalue::Unreached(_)
        | Rvalue::LiveObjects => None,
    })
}

/// A plain local named by a place without projections.
pub fn plain_local(place: &Place) -> Option<LocalId> {
    match (place.base, place.projections.is_empty()) {
        (PlaceBase::Local(l), true) => Some(l),
        _ => None,
    }
}

/// A condition under which a check passes, when it is about numbers in plain locals or decided
/// by the function's facts. For those it is sufficient, not necessary (an array may be longer
/// than the shortest literal its local is assigned): an annotation may only be stronger.
pub fn check_passes(
    store: &mut TermStore,
    env: &mut impl Locals,
    facts: &FunctionFacts,
    check: &Check,
) -> Result<Option<TermId>> {
    Ok(match check {
        Check::Assert(op) | Check::Condition { holds: op, .. } | Check::NonZero(op) => {
            match operand(store, env, *op)? {
                Some(t) => Some(terms::truth(store, t)?),
                None => None,
            }
        }
        Check::Init(place) => match plain_local(place) {
            Some(l) => env.initialized(store, l)?,
            None => None,
        },
        Check::Reach => Some(store.bool_val(false)?),
        Check::NonNull(op) => match never_null_operand(facts, *op) {
            Some(l) => env.initialized(store, l)?,
            None => None,
        },
        Check::InBounds { array, index } => {
            let known = plain_local(array).and_then(|l| Some((l, facts.array_len(l)?)));
            match (known, operand(store, env, *index)?) {
                (Some((l, len)), Some(index)) => match env.initialized(store, l)? {
                    Some(init) => {
                        let len = terms::int_const(store, i32::try_from(len).unwrap_or(i32::MAX))?;
                        let zero = terms::int_const(store, 0)?;
                        let above = store.bv_sle(zero, index)?;
                        let below = store.bv_slt(index, len)?;
                        let inside = store.and(above, below)?;
                        Some(store.and(init, inside)?)
                    }
                    None => None,
                },
                _ => None,
            }
        }
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
