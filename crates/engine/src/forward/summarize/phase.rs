//! A phase: one walk repeated from known start values, as exact formulas over the 32-bit
//! semantics. A phase is described by the index `m` of its last iteration (a 32-bit number:
//! iterations `0..=m`, so `m + 1` of them).
//!
//! The value of an affine expression at iteration j is `v0 + s·j` modulo 2^32 (wrapping
//! addition and multiplication are a ring homomorphism from the integers), so closed forms wrap
//! exactly like the program. Its integer value `v0 + s·j` equals the real one while it stays in
//! the 32-bit range of its comparison (signed, or unsigned for C's unsigned comparisons: then
//! `v0` is read as unsigned, the slope `s` still as signed, so that `x -= 2` counts down); while
//! both sides of every condition stay in range, a comparison is a linear inequality in j, whose
//! truth on all of `0..=m` follows from its ends (and `==`, `!=` from the slopes or a
//! divisibility test). So "the walk is taken at every iteration of `0..=m`"
//! is encoded exactly together with "every side is in range on `0..=m`"; runs that leave the
//! range are not lost: the caller continues them from the first iteration out of range (an
//! escape). With constant slopes everything stays in 32 bits (the range is a bound on m);
//! symbolic slopes use 72-bit integer lifts. Every phase fits: a side with a non-zero slope stays
//! in range for fewer than 2^32 iterations, and a walk whose sides never change repeats states
//! with period 2^32. Nothing here decides what to fork.

use std::rc::Rc;

use symex_ir::cfg::{BinOp, LocalId, PropId};
use symex_smt::{TermId, TermStore};

use crate::common::terms::{self, WIDTH};
use crate::error::EngineError;
use crate::forward::summarize::closed::{Atom, ClosedForm, Form};
use crate::forward::summarize::expr::{Expr, Slope};

type Result<T> = std::result::Result<T, EngineError>;

/// The display name of the fresh values of [`Form::Havoc`] locals.
const HAVOC_NAME: &str = "loop.havoc";

/// Width of the integer lifts of sides with symbolic slopes.
const WIDE: u32 = 72;

/// Width of the iteration counts of series (`k(k−1)` for `k` up to 2^32 fits).
const SERIES_WIDTH: u32 = 66;

/// A walk's closed form applied to the start values of one state.
pub struct Phase<'a> {
    pub form: &'a ClosedForm,
    /// Each local's 32-bit start value (`None` for locals the walk does not read).
    pub start: &'a [Option<TermId>],
}

/// One side of a condition: its value at iteration 0, its slope, and whether its range is
/// the unsigned one (the side of an unsigned comparison).
struct Side {
    v0: TermId,
    slope: SideSlope,
    unsigned: bool,
}

enum SideSlope {
    Constant(i32),
    Symbolic(TermId),
}

/// How a run that repeats a walk, taken on `0..=m` with the sides of its conditions in range,
/// can stop because one atom fails (in 32 bits) at `m + 1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// Only at this `m`, a term of the start values: a side moving by one towards a side that
    /// does not move, in an order or `!=` (`a < b` or `a != b` with `a` counting up:
    /// `b - a - 1`; `a <= b`: `b - a`; likewise downwards and for the unsigned orders; `a != b`
    /// with `a` past `b` leaves its range before it fails). Such a side can leave its
    /// range only from the other side's value, so the 32-bit comparison fails first where the
    /// integer one does, and the gap closes by one per iteration.
    After(TermId),
    /// Only where a side leaves its range at `m + 1`: an order of sides that move alike, whose
    /// integer distance stays.
    OutOfRange,
    /// Never: sides that do not move, or `==`/`!=` of sides that move alike (their 32-bit
    /// difference stays).
    Never,
    /// At counts the start values do not fix.
    Open,
}

impl Phase<'_> {
    fn start_of(&self, l: LocalId) -> Option<TermId> {
        self.start.get(l.index()).copied().flatten()
    }

    /// The values of the invariants, induction variables and series at iteration `index`
    /// (after `index` iterations; `wide` is the same number in [`SERIES_WIDTH`] bits, which a
    /// series needs whole: `index` wraps at 2^32 iterations, its `k(k−1)/2` does not).
    fn inductions_at(
        &self,
        store: &mut TermStore,
        index: TermId,
        wide: TermId,
    ) -> Result<Vec<Option<TermId>>> {
        let mut values = self.start.to_vec();
        let start = &|m: LocalId| self.start_of(m);
        for (l, form) in self.form.forms.iter().enumerate() {
            let x0 = || self.start_of(LocalId(l as u32)).ok_or_else(|| missing(l));
            match form {
                Some(Form::Induction(d)) => {
                    let step = d.to_term(store, start)?;
                    let grown = multiply(store, step, index)?;
                    values[l] = Some(store.bv_add(x0()?, grown)?);
                }
                Some(Form::Series { amount, growth }) => {
                    let first = amount.to_term(store, start)?;
                    let growth = growth.to_term(store, start)?;
                    let linear = multiply(store, first, index)?;
                    let pairs = pairs_below(store, wide)?;
                    let quadratic = multiply(store, growth, pairs)?;
                    let grown = store.bv_add(linear, quadratic)?;
                    values[l] = Some(store.bv_add(x0()?, grown)?);
                }
                _ => {}
            }
        }
        Ok(values)
    }

    /// Every local's value after iterations `0..=last` (derived ones computed in iteration
    /// `last`); unchanged locals keep their start values.
    pub fn values_after(&self, store: &mut TermStore, last: TermId) -> Result<Vec<Option<TermId>>> {
        let one = terms::int_const(store, 1)?;
        let count = store.bv_add(last, one)?;
        let wide_last = store.zero_extend(SERIES_WIDTH - WIDTH, last)?;
        let wide_one = store.bv_val(SERIES_WIDTH, 1)?;
        let wide_count = store.bv_add(wide_last, wide_one)?;
        let mut values = self.inductions_at(store, count, wide_count)?;
        let before = self.inductions_at(store, last, wide_last)?;
        for (l, form) in self.form.forms.iter().enumerate() {
            match form {
                Some(Form::Derived(e)) => {
                    values[l] = Some(e.to_term(store, &|m: LocalId| before[m.index()])?);
                }
                Some(Form::Havoc) => values[l] = Some(store.bv_var(HAVOC_NAME, WIDTH)?),
                _ => {}
            }
        }
        Ok(values)
    }

    /// The walk is taken from the values `values` (exact, 32-bit).
    pub fn taken_from(&self, store: &mut TermStore, values: &[Option<TermId>]) -> Result<TermId> {
        let mut parts = Vec::with_capacity(self.form.walk.conds.len());
        for i in 0..self.form.walk.conds.len() {
            parts.push(self.holds_at(store, i, values)?);
        }
        Ok(store.and_all(&parts)?)
    }

    /// The walk's `i`-th condition (its atom `i`) holds on the values `values` (exact, 32-bit).
    pub fn holds_at(
        &self,
        store: &mut TermStore,
        i: usize,
        values: &[Option<TermId>],
    ) -> Result<TermId> {
        let (cond, direction) = &self.form.walk.conds[i];
        condition_holds(store, cond, *direction, values)
    }

    /// Per atom, how a run taken on `0..=m` (its sides in range) can stop because this atom
    /// fails (in 32 bits) at `m + 1`; see [`Stop`].
    pub fn stops(&self, store: &mut TermStore) -> Result<Vec<Stop>> {
        let mut stops = Vec::with_capacity(self.form.atoms.len());
        for atom in &self.form.atoms {
            if atom.once {
                // It holds at iteration 0 and fails at 1.
                stops.push(Stop::After(terms::int_const(store, 0)?));
                continue;
            }
            let a = self.side(store, atom, true)?;
            let b = self.side(store, atom, false)?;
            let (SideSlope::Constant(sa), SideSlope::Constant(sb)) = (&a.slope, &b.slope) else {
                stops.push(Stop::Open);
                continue;
            };
            let op = as_signed(atom.op);
            let ordered = matches!(op, BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge);
            if sa == sb {
                stops.push(if ordered && *sa != 0 {
                    Stop::OutOfRange
                } else {
                    Stop::Never
                });
                continue;
            }
            // The gap that closes by one per iteration, and whether the atom wants it positive
            // (strict) or non-negative.
            let (low, high, strict) = match (op, *sa, *sb) {
                (BinOp::Lt, 1, 0) | (BinOp::Lt, 0, -1) => (a.v0, b.v0, true),
                (BinOp::Le, 1, 0) | (BinOp::Le, 0, -1) => (a.v0, b.v0, false),
                (BinOp::Gt, -1, 0) | (BinOp::Gt, 0, 1) => (b.v0, a.v0, true),
                (BinOp::Ge, -1, 0) | (BinOp::Ge, 0, 1) => (b.v0, a.v0, false),
                // `!=` fails where the gap reaches 0, as `<` does; from the other side the
                // moving side leaves its range first, and the count, wrapped, is past it.
                (BinOp::Ne, 1, 0) | (BinOp::Ne, 0, -1) => (a.v0, b.v0, true),
                (BinOp::Ne, -1, 0) | (BinOp::Ne, 0, 1) => (b.v0, a.v0, true),
                _ => {
                    stops.push(Stop::Open);
                    continue;
                }
            };
            let gap = store.bv_sub(high, low)?;
            stops.push(Stop::After(if strict {
                let one = terms::int_const(store, 1)?;
                store.bv_sub(gap, one)?
            } else {
                gap
            }));
        }
        Ok(stops)
    }

    /// The walk is taken at every iteration of `0..=last` and every side of its conditions
    /// stays in the 32-bit range there.
    pub fn taken_throughout(&self, store: &mut TermStore, last: TermId) -> Result<TermId> {
        let mut parts = Vec::new();
        for atom in &self.form.atoms {
            let a = self.side(store, atom, true)?;
            let b = self.side(store, atom, false)?;
            for side in [&a, &b] {
                parts.push(in_range_until(store, side, last)?);
            }
            if atom.once {
                let first = match atom.op {
                    BinOp::Eq => store.eq(a.v0, b.v0)?,
                    _ => store.neq(a.v0, b.v0)?,
                };
                let zero = terms::int_const(store, 0)?;
                let only_first = store.eq(last, zero)?;
                parts.push(store.and(first, only_first)?);
                continue;
            }
            parts.push(match (&a.slope, &b.slope) {
                (SideSlope::Constant(sa), SideSlope::Constant(sb)) => {
                    let (sa, sb) = (*sa, *sb);
                    let a_last = at(store, &a, last)?;
                    let b_last = at(store, &b, last)?;
                    match atom.op {
                        BinOp::Lt
                        | BinOp::Le
                        | BinOp::Gt
                        | BinOp::Ge
                        | BinOp::ULt
                        | BinOp::ULe
                        | BinOp::UGt
                        | BinOp::UGe => {
                            let first = compare(store, atom.op, a.v0, b.v0)?;
                            let end = compare(store, atom.op, a_last, b_last)?;
                            store.and_all(&[first, end])?
                        }
                        BinOp::Eq if sa == sb => store.eq(a.v0, b.v0)?,
                        BinOp::Eq => {
                            let first = store.eq(a.v0, b.v0)?;
                            let zero = terms::int_const(store, 0)?;
                            let once = store.eq(last, zero)?;
                            store.and_all(&[first, once])?
                        }
                        _ if sa == sb => store.neq(a.v0, b.v0)?,
                        _ => wide_atom(store, atom.op, &a, &b, last)?,
                    }
                }
                _ => wide_atom(store, atom.op, &a, &b, last)?,
            });
        }
        Ok(store.and_all(&parts)?)
    }

    /// Some side of some condition leaves its 32-bit range at iteration `last + 1`, having been
    /// in range on `0..=last`.
    pub fn out_of_range_after(&self, store: &mut TermStore, last: TermId) -> Result<TermId> {
        // Sides (start value, constant slope, range) that some atom keeps strictly below (above)
        // another side at every iteration the walk is taken: at most MAX - 1 (at least MIN + 1).
        let mut below_max = Vec::new();
        let mut above_min = Vec::new();
        for atom in &self.form.atoms {
            for first in [true, false] {
                let side = self.side(store, atom, first)?;
                if let SideSlope::Constant(s) = side.slope {
                    let key = (side.v0, s, side.unsigned);
                    match side_op(atom.op, first) {
                        BinOp::Lt => below_max.push(key),
                        BinOp::Gt => above_min.push(key),
                        _ => {}
                    }
                }
            }
        }
        let mut parts = Vec::new();
        for atom in &self.form.atoms {
            for first in [true, false] {
                let side = self.side(store, atom, first)?;
                let other = self.side(store, atom, !first)?;
                let other = match other.slope {
                    SideSlope::Constant(t) => Some((other.v0, t, other.unsigned)),
                    SideSlope::Symbolic(_) => None,
                };
                // `a <= b` with `b <= MAX - 1`: a step of 1 keeps `a` in range (`>=` likewise).
                let bounded = |s: i32| match side_op(atom.op, first) {
                    BinOp::Le => s == 1 && other.is_some_and(|o| below_max.contains(&o)),
                    BinOp::Ge => s == -1 && other.is_some_and(|o| above_min.contains(&o)),
                    _ => false,
                };
                match side.slope {
                    SideSlope::Constant(0) => {}
                    SideSlope::Constant(s) if stays_in_range(atom.op, first, s) || bounded(s) => {}
                    SideSlope::Constant(s) => {
                        let limit = steps_in_range(store, &side, s)?;
                        parts.push(store.bv_uge(last, limit)?);
                    }
                    SideSlope::Symbolic(_) => {
                        let j = store.zero_extend(WIDE - WIDTH, last)?;
                        let one = store.bv_signed(WIDE, 1)?;
                        let next = store.bv_add(j, one)?;
                        let value = lift_wide(store, &side, next)?;
                        let inside = wide_in_range(store, &side, value)?;
                        parts.push(store.not(inside)?);
                    }
                }
            }
        }
        Ok(store.or_all(&parts)?)
    }

    /// Per check of the walk: the condition under which it fails at iteration `index`.
    pub fn failures_at(
        &self,
        store: &mut TermStore,
        index: TermId,
    ) -> Result<Vec<(PropId, TermId)>> {
        let wide = store.zero_extend(SERIES_WIDTH - WIDTH, index)?;
        let values = self.inductions_at(store, index, wide)?;
        let zero = terms::int_const(store, 0)?;
        let mut out = Vec::new();
        for (prop, e) in &self.form.checks {
            let value = e.to_term(store, &|m: LocalId| values[m.index()])?;
            out.push((*prop, store.eq(value, zero)?));
        }
        Ok(out)
    }

    fn side(&self, store: &mut TermStore, atom: &Atom, first: bool) -> Result<Side> {
        let (e, slope) = if first {
            (&atom.a, &atom.slope_a)
        } else {
            (&atom.b, &atom.slope_b)
        };
        let start = &|m: LocalId| self.start_of(m);
        let v0 = e.to_term(store, start)?;
        let slope = match slope {
            Slope::Zero => SideSlope::Constant(0),
            Slope::By(d) => match d.constant_value() {
                Some(c) => SideSlope::Constant(c),
                None => SideSlope::Symbolic(d.to_term(store, start)?),
            },
        };
        Ok(Side {
            v0,
            slope,
            unsigned: is_unsigned(atom.op),
        })
    }
}

fn missing(l: usize) -> EngineError {
    EngineError::Internal(format!("no start value for induction variable %{l}"))
}

/// `k(k−1)/2` modulo 2^32 for the [`SERIES_WIDTH`]-bit iteration count `k` (at most 2^32):
/// the product of two numbers below 2^33 fits, and it is even, so the halving is exact.
fn pairs_below(store: &mut TermStore, k: TermId) -> Result<TermId> {
    let one = store.bv_val(SERIES_WIDTH, 1)?;
    let previous = store.bv_sub(k, one)?;
    let product = store.bv_mul(k, previous)?;
    let half = store.bv_lshr(product, one)?;
    Ok(store.extract(WIDTH - 1, 0, half)?)
}

/// `step · index` (32-bit), without a multiplier for the slopes 0 and ±1.
fn multiply(store: &mut TermStore, step: TermId, index: TermId) -> Result<TermId> {
    match store.as_bv(step).map(|c| c.bits() as u32 as i32) {
        Some(0) => Ok(terms::int_const(store, 0)?),
        Some(1) => Ok(index),
        Some(-1) => Ok(store.bv_neg(index)?),
        _ => Ok(store.bv_mul(step, index)?),
    }
}

/// A side's 32-bit value at iteration `index`.
fn at(store: &mut TermStore, side: &Side, index: TermId) -> Result<TermId> {
    let step = match side.slope {
        SideSlope::Constant(0) => return Ok(side.v0),
        SideSlope::Constant(c) => terms::int_const(store, c)?,
        SideSlope::Symbolic(s) => s,
    };
    let grown = multiply(store, step, index)?;
    Ok(store.bv_add(side.v0, grown)?)
}

/// The largest j (unsigned 32-bit) with `v0 + s·j` in the side's 32-bit range, for a constant
/// `s != 0`.
fn steps_in_range(store: &mut TermStore, side: &Side, s: i32) -> Result<TermId> {
    let v0 = side.v0;
    let room = match (s > 0, side.unsigned) {
        (true, false) => {
            let max = terms::int_const(store, i32::MAX)?;
            store.bv_sub(max, v0)?
        }
        (false, false) => {
            let min = terms::int_const(store, i32::MIN)?;
            store.bv_sub(v0, min)?
        }
        (true, true) => store.bv_not(v0)?,
        (false, true) => v0,
    };
    let magnitude = s.unsigned_abs();
    if magnitude == 1 {
        return Ok(room);
    }
    let divisor = store.bv_val(WIDTH, u128::from(magnitude))?;
    Ok(store.bv_udiv(room, divisor)?)
}

/// The comparison `a op b` seen from the side it names (`first`: `a`), e.g. `b > a` for `b`.
/// Unsigned comparisons give their signed counterparts: the side's range says which is meant.
fn side_op(op: BinOp, first: bool) -> BinOp {
    match (as_signed(op), first) {
        (op, true) => op,
        (BinOp::Lt, false) => BinOp::Gt,
        (BinOp::Gt, false) => BinOp::Lt,
        (BinOp::Le, false) => BinOp::Ge,
        (BinOp::Ge, false) => BinOp::Le,
        (op, false) => op,
    }
}

fn is_unsigned(op: BinOp) -> bool {
    matches!(op, BinOp::ULt | BinOp::ULe | BinOp::UGt | BinOp::UGe)
}

/// The signed comparison of the same shape: on sides that stay in their range (integer lifts)
/// both orders agree.
fn as_signed(op: BinOp) -> BinOp {
    match op {
        BinOp::ULt => BinOp::Lt,
        BinOp::ULe => BinOp::Le,
        BinOp::UGt => BinOp::Gt,
        BinOp::UGe => BinOp::Ge,
        op => op,
    }
}

/// Whether a side with the constant slope `s` (the atom's first side if `first`) cannot leave
/// its 32-bit range one iteration after the atom held with both sides in range: `a < b` bounds
/// `a` by `MAX - 1`, so a step of 1 keeps it in range (`a > b` likewise bounds it from below;
/// the same holds for unsigned comparisons in the unsigned range).
/// Such sides need no escape case, which saves the solver its hardest questions.
fn stays_in_range(op: BinOp, first: bool, s: i32) -> bool {
    match side_op(op, first) {
        BinOp::Lt => (0..=1).contains(&s),
        BinOp::Gt => (-1..=0).contains(&s),
        _ => s == 0,
    }
}

/// The side stays in the 32-bit range on iterations `0..=last`.
fn in_range_until(store: &mut TermStore, side: &Side, last: TermId) -> Result<TermId> {
    match side.slope {
        SideSlope::Constant(0) => Ok(store.bool_val(true)?),
        SideSlope::Constant(s) => {
            let limit = steps_in_range(store, side, s)?;
            Ok(store.bv_ule(last, limit)?)
        }
        SideSlope::Symbolic(_) => {
            let end = lift(store, side, last)?;
            wide_in_range(store, side, end)
        }
    }
}

/// The integer value of the side at iteration `index` (72 bits).
fn lift(store: &mut TermStore, side: &Side, index: TermId) -> Result<TermId> {
    let j = store.zero_extend(WIDE - WIDTH, index)?;
    lift_wide(store, side, j)
}

/// The integer value of the side at the 72-bit iteration number `j`.
fn lift_wide(store: &mut TermStore, side: &Side, j: TermId) -> Result<TermId> {
    let v0 = if side.unsigned {
        store.zero_extend(WIDE - WIDTH, side.v0)?
    } else {
        store.sign_extend(WIDE - WIDTH, side.v0)?
    };
    let s = match side.slope {
        SideSlope::Constant(0) => return Ok(v0),
        SideSlope::Constant(c) => store.bv_signed(WIDE, i128::from(c))?,
        SideSlope::Symbolic(s) => store.sign_extend(WIDE - WIDTH, s)?,
    };
    let product = store.bv_mul(s, j)?;
    Ok(store.bv_add(v0, product)?)
}

/// `a op b` at every iteration of `0..=last`, sides in range, with integer lifts.
fn wide_atom(store: &mut TermStore, op: BinOp, a: &Side, b: &Side, last: TermId) -> Result<TermId> {
    let zero = store.bv_signed(WIDE, 0)?;
    let first = terms::int_const(store, 0)?;
    let a0 = lift(store, a, first)?;
    let b0 = lift(store, b, first)?;
    let a_last = lift(store, a, last)?;
    let b_last = lift(store, b, last)?;
    let d0 = store.bv_sub(a0, b0)?;
    let d_last = store.bv_sub(a_last, b_last)?;
    Ok(match as_signed(op) {
        op @ (BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge) => {
            let first = compare(store, op, d0, zero)?;
            let end = compare(store, op, d_last, zero)?;
            store.and_all(&[first, end])?
        }
        BinOp::Eq => {
            let first = store.eq(d0, zero)?;
            let end = store.eq(d_last, zero)?;
            store.and_all(&[first, end])?
        }
        _ => {
            // No j in 0..=last with d0 + dd·j == 0, where dd is the per-iteration change.
            let one = terms::int_const(store, 1)?;
            let a1 = lift(store, a, one)?;
            let b1 = lift(store, b, one)?;
            let d1 = store.bv_sub(a1, b1)?;
            let dd = store.bv_sub(d1, d0)?;
            let constant = store.eq(dd, zero)?;
            let nonzero = store.neq(d0, zero)?;
            let rem = store.bv_srem(d0, dd)?;
            let divides = store.eq(rem, zero)?;
            let minus = store.bv_neg(d0)?;
            let root = store.bv_sdiv(minus, dd)?;
            let after = store.bv_sle(zero, root)?;
            let j_last = store.zero_extend(WIDE - WIDTH, last)?;
            let before = store.bv_sle(root, j_last)?;
            let hit = store.and_all(&[divides, after, before])?;
            let missed = store.not(hit)?;
            store.ite(constant, nonzero, missed)?
        }
    })
}

/// The 72-bit `v` is in the side's 32-bit range.
fn wide_in_range(store: &mut TermStore, side: &Side, v: TermId) -> Result<TermId> {
    let (low, high) = if side.unsigned {
        (0, i128::from(u32::MAX))
    } else {
        (i128::from(i32::MIN), i128::from(i32::MAX))
    };
    let low = store.bv_signed(WIDE, low)?;
    let high = store.bv_signed(WIDE, high)?;
    let above = store.bv_sle(low, v)?;
    let below = store.bv_sle(v, high)?;
    Ok(store.and_all(&[above, below])?)
}

fn compare(store: &mut TermStore, op: BinOp, a: TermId, b: TermId) -> Result<TermId> {
    Ok(match op {
        BinOp::Lt => store.bv_slt(a, b)?,
        BinOp::Le => store.bv_sle(a, b)?,
        BinOp::Gt => store.bv_sgt(a, b)?,
        BinOp::ULt => store.bv_ult(a, b)?,
        BinOp::ULe => store.bv_ule(a, b)?,
        BinOp::UGt => store.bv_ugt(a, b)?,
        BinOp::UGe => store.bv_uge(a, b)?,
        _ => store.bv_sge(a, b)?,
    })
}

/// A branch condition taken in `direction` holds on the values `values` (exact, 32-bit).
pub fn condition_holds(
    store: &mut TermStore,
    cond: &Rc<Expr>,
    direction: bool,
    values: &[Option<TermId>],
) -> Result<TermId> {
    let value = cond.to_term(store, &|m: LocalId| {
        values.get(m.index()).copied().flatten()
    })?;
    let truth = terms::truth(store, value)?;
    Ok(if direction { truth } else { store.not(truth)? })
}

#[cfg(test)]
mod tests {
    //! The phase formulas against iterating the loop by hand, on start values around the edges
    //! of the 32-bit range, for constant slopes (32-bit encoding), `!=` with a slope (integer
    //! lifts) and a symbolic slope.

    use symex_smt::{eval, Assignment, Value};

    use super::*;
    use crate::forward::program::ProgramInfo;
    use crate::forward::summarize::walk::{body_paths, BodyPaths};

    /// The closed form of the first path of the only loop of `source`'s `main`.
    fn loop_form(source: &str) -> ClosedForm {
        let front = symex_syntax::analyze(source).expect("valid");
        let module = symex_ir::lower(&front.program);
        let info = ProgramInfo::new(&module);
        let function = &module.functions[0];
        let loops = info.functions[0].loops();
        let body = body_paths(function, &loops.loops[0], &[], &|_| false).expect("summarizable");
        ClosedForm::of(body.walks[0].clone(), &body.slots, &[]).expect("closed form")
    }

    fn truth(store: &TermStore, t: TermId) -> bool {
        matches!(eval(store, t, &Assignment::new()), Ok(Value::Bool(true)))
    }

    fn number(store: &TermStore, t: TermId) -> i32 {
        let v = eval(store, t, &Assignment::new()).expect("closed");
        terms::value_as_i32(&v).expect("number")
    }

    /// Checks `taken_throughout`, `values_after` and `out_of_range_after` for iterations
    /// `0..=m`, m < 6, against `cond(x_j)` and the integer values `x0 + step·j`.
    fn agree(
        source: &str,
        x: LocalId,
        others: &[(LocalId, i32)],
        step: i64,
        cond: fn(i32, i64, i32) -> bool,
    ) {
        let form = loop_form(source);
        let edges = [
            i32::MIN,
            i32::MIN + 1,
            -7,
            -1,
            0,
            1,
            2,
            5,
            i32::MAX - 4,
            i32::MAX - 1,
            i32::MAX,
        ];
        for &x0 in &edges {
            for &n in &edges {
                let mut store = TermStore::new();
                let mut start = vec![None; 8];
                start[x.index()] = Some(terms::int_const(&mut store, x0).unwrap());
                for &(l, v) in others {
                    start[l.index()] = Some(terms::int_const(&mut store, v).unwrap());
                }
                let n_local = others[0].0;
                start[n_local.index()] = Some(terms::int_const(&mut store, n).unwrap());
                let phase = Phase {
                    form: &form,
                    start: &start,
                };
                let signed = i64::from(i32::MIN)..=i64::from(i32::MAX);
                let holds = |v: i64| cond(v as i32, v, n);
                let what = format!("x0 {x0} n {n}: {source}");
                iterations_agree(
                    &phase,
                    &mut store,
                    x,
                    x0.into(),
                    step,
                    signed,
                    &holds,
                    &what,
                );
            }
        }
    }

    /// Checks `taken_throughout`, `values_after` and `out_of_range_after` of `phase` for
    /// iterations `0..=m`, m < 6, against iterating by hand: `x` takes the integer values
    /// `x0 + step·j`, which must stay in `range` and satisfy `holds` for the walk to be taken.
    #[allow(clippy::too_many_arguments)]
    fn iterations_agree(
        phase: &Phase<'_>,
        store: &mut TermStore,
        x: LocalId,
        x0: i64,
        step: i64,
        range: std::ops::RangeInclusive<i64>,
        holds: &dyn Fn(i64) -> bool,
        what: &str,
    ) {
        let integer = |j: i64| x0 + step * j;
        for m in 0..6i64 {
            let last = terms::int_const(store, m as i32).unwrap();
            let expected = (0..=m).all(|j| range.contains(&integer(j)) && holds(integer(j)));
            let got = phase.taken_throughout(store, last).unwrap();
            assert_eq!(truth(store, got), expected, "{what}, m {m}");
            let after = phase.values_after(store, last).unwrap();
            let wrapped = integer(m + 1) as u32 as i32;
            assert_eq!(
                number(store, after[x.index()].unwrap()),
                wrapped,
                "{what}, m {m}"
            );
            if expected {
                let out = phase.out_of_range_after(store, last).unwrap();
                let left = !range.contains(&integer(m + 1));
                assert_eq!(truth(store, out), left, "{what}, m {m}");
            }
        }
    }

    #[test]
    fn a_side_said_to_stay_in_range_does_after_one_more_step() {
        let edges = [
            i32::MIN,
            i32::MIN + 1,
            i32::MIN + 2,
            -1,
            0,
            1,
            i32::MAX - 2,
            i32::MAX - 1,
            i32::MAX,
        ];
        let holds = |op: BinOp, a: i32, b: i32| match op {
            BinOp::Lt => a < b,
            BinOp::Le => a <= b,
            BinOp::Gt => a > b,
            _ => a >= b,
        };
        let mut kept = 0;
        for op in [BinOp::Lt, BinOp::Le, BinOp::Gt, BinOp::Ge] {
            for first in [true, false] {
                for step in -2..=2 {
                    if !stays_in_range(op, first, step) {
                        continue;
                    }
                    kept += 1;
                    for a in edges {
                        for b in edges {
                            let side = if first { a } else { b };
                            if holds(op, a, b) {
                                assert!(
                                    side.checked_add(step).is_some(),
                                    "{a} {op:?} {b}: side {side} + {step} leaves the range"
                                );
                            }
                        }
                    }
                }
            }
        }
        // A strict comparison keeps two slopes per side (0 and one step towards the other
        // side); `<=` and `>=` keep only 0.
        assert_eq!(kept, 2 * 2 * 2 + 2 * 2);
    }

    #[test]
    fn constant_slopes_match_iteration() {
        agree(
            "main() { var x, n; x = input; n = input; while (x < n) { x = x + 3; } return x; }",
            LocalId(0),
            &[(LocalId(1), 0)],
            3,
            |x, _, n| x < n,
        );
        agree(
            "main() { var x, n; x = input; n = input; while (x >= n) { x = x - 2; } return x; }",
            LocalId(0),
            &[(LocalId(1), 0)],
            -2,
            |x, _, n| x >= n,
        );
    }

    #[test]
    fn inequality_with_a_slope_matches_iteration() {
        agree(
            "main() { var x, n; x = input; n = input; while (x != n) { x = x + 2; } return x; }",
            LocalId(0),
            &[(LocalId(1), 0)],
            2,
            |x, _, n| x != n,
        );
    }

    /// The closed form of the first path of the only loop of a C program's `main`, and its
    /// locals `x` and `n`.
    fn c_loop_form(source: &str) -> (ClosedForm, LocalId, LocalId) {
        let (body, x, n) = c_loop_body(source);
        let form = ClosedForm::of(body.walks[0].clone(), &body.slots, &[]).expect("closed form");
        (form, x, n)
    }

    /// The body paths of the only loop of a C program's `main`, and its locals `x` and `n`.
    fn c_loop_body(source: &str) -> (BodyPaths, LocalId, LocalId) {
        let translated =
            symex_c::translate_text(source, symex_c::Options::default()).expect("valid C");
        let module = translated.module;
        let info = ProgramInfo::new(&module);
        let index = module
            .functions
            .iter()
            .position(|f| f.name == "main")
            .expect("main");
        let function = &module.functions[index];
        let local = |name: &str| {
            let i = function.locals.iter().position(|l| l.name == name);
            LocalId(i.expect("a local of the test program") as u32)
        };
        let loops = info.functions[index].loops();
        let body = body_paths(function, &loops.loops[0], &[], &|_| false).expect("summarizable");
        (body, local("x"), local("n"))
    }

    /// Divisibility tests (`x % c == 0` and its negation, `int` and `unsigned`, c a power of
    /// two) against iterating by hand from start values around the edges of the range: a
    /// path is taken on `0..=m` exactly when its test holds at `x0 + d·j` (wrapping) for every
    /// `j <= m`, and only the `!=` paths of tests modulo more than 2 whose residue moves have
    /// no closed form.
    #[test]
    fn divisibility_tests_match_iteration() {
        let starts = [
            i32::MIN,
            i32::MIN + 1,
            -6,
            -1,
            0,
            1,
            2,
            3,
            6,
            i32::MAX - 1,
            i32::MAX,
        ];
        let mut runs = 0;
        for (ty, nondet) in [("int", "int"), ("unsigned", "uint")] {
            for c in [2i32, 4, 8] {
                for d in [1i32, 2, 3, 4, 6, -1, -2] {
                    let source = format!(
                        "{ty} __VERIFIER_nondet_{nondet}(void);\n\
                         int main() {{ {ty} x = __VERIFIER_nondet_{nondet}(); {ty} n = 0; \
                         while (1) {{ if (x % {c} == 0) {{ n += 1; }} x += {d}; }} return 0; }}"
                    );
                    let (body, x, _) = c_loop_body(&source);
                    assert_eq!(body.walks.len(), 2, "{source}");
                    for walk in &body.walks {
                        let divisible = walk.conds[0].1;
                        let holds = |v: i32| (v.rem_euclid(c) == 0) == divisible;
                        let Ok(form) = ClosedForm::of(walk.clone(), &body.slots, &[]) else {
                            assert!(!divisible && c > 2 && d % c != 0, "{source}: refused");
                            continue;
                        };
                        for &x0 in &starts {
                            let mut store = TermStore::new();
                            let mut start = vec![None; form.forms.len()];
                            start[x.index()] = Some(terms::int_const(&mut store, x0).unwrap());
                            let phase = Phase {
                                form: &form,
                                start: &start,
                            };
                            let at = |j: i32| x0.wrapping_add(d.wrapping_mul(j));
                            for m in 0..6 {
                                let last = terms::int_const(&mut store, m).unwrap();
                                let run = phase.taken_throughout(&mut store, last).unwrap();
                                let expected = (0..=m).all(|j| holds(at(j)));
                                let what = format!("{source}: divisible {divisible}, x0 {x0}");
                                assert_eq!(truth(&store, run), expected, "{what}, m {m}");
                                runs += usize::from(expected);
                            }
                        }
                    }
                }
            }
        }
        assert!(runs > 300, "only {runs} runs taken");
    }

    /// Unsigned comparisons read their sides in the unsigned range: the phase formulas against
    /// iterating C's `while (x < n) x += step;` (and `x > n`) by hand on `unsigned` values
    /// around the edges of that range, where `x` wraps past `UINT_MAX` or below 0.
    #[test]
    fn unsigned_comparisons_match_iteration() {
        let edges = [0u32, 1, 2, 7, 1 << 31, u32::MAX - 4, u32::MAX - 1, u32::MAX];
        type Holds = fn(u32, u32) -> bool;
        let cases: [(&str, i64, Holds); 3] = [
            ("x < n", 3, |x, n| x < n),
            ("x > n", -2, |x, n| x > n),
            ("x <= n", 1, |x, n| x <= n),
        ];
        for (cond, step, holds) in cases {
            let update = if step > 0 {
                format!("x += {step}u;")
            } else {
                format!("x -= {}u;", -step)
            };
            let source = format!(
                "unsigned __VERIFIER_nondet_uint(void);\n\
                 int main() {{ unsigned x = __VERIFIER_nondet_uint(); \
                 unsigned n = __VERIFIER_nondet_uint(); while ({cond}) {{ {update} }} return 0; }}"
            );
            let (form, x, n_local) = c_loop_form(&source);
            for &x0 in &edges {
                for &n in &edges {
                    let mut store = TermStore::new();
                    let mut start = vec![None; form.forms.len()];
                    start[x.index()] = Some(terms::int_const(&mut store, x0 as i32).unwrap());
                    start[n_local.index()] = Some(terms::int_const(&mut store, n as i32).unwrap());
                    let phase = Phase {
                        form: &form,
                        start: &start,
                    };
                    let unsigned = 0..=i64::from(u32::MAX);
                    let holds_here = |v: i64| holds(v as u32, n);
                    let what = format!("{cond}: x0 {x0} n {n}");
                    iterations_agree(
                        &phase,
                        &mut store,
                        x,
                        x0.into(),
                        step,
                        unsigned,
                        &holds_here,
                        &what,
                    );
                }
            }
        }
    }

    /// `stops` against iterating C's `while (x op n)` by hand, in `int` and `unsigned`,
    /// with either side moving by one towards the other, from start values around the edges
    /// of both ranges: whenever the walk is taken on `0..=m` and its atom fails at `m + 1`,
    /// the count is `m`; atoms whose failure does not fix the count have none.
    #[test]
    fn stop_counts_match_iteration() {
        let edges = [
            i32::MIN,
            i32::MIN + 1,
            i32::MIN + 3,
            -2,
            0,
            3,
            i32::MAX - 3,
            i32::MAX - 1,
            i32::MAX,
        ];
        let mut stops = 0;
        for ty in ["int", "unsigned"] {
            for (cond, update) in [
                ("x < n", "x += 1;"),
                ("x < n", "n -= 1;"),
                ("x <= n", "x += 1;"),
                ("x <= n", "n -= 1;"),
                ("x > n", "x -= 1;"),
                ("x > n", "n += 1;"),
                ("x >= n", "x -= 1;"),
                ("x >= n", "n += 1;"),
                ("x != n", "x += 1;"),
                ("x != n", "n -= 1;"),
                ("x != n", "x -= 1;"),
                ("x != n", "n += 1;"),
                ("x < n", "x += 2;"),
            ] {
                let nondet = if ty == "int" { "int" } else { "uint" };
                let source = format!(
                    "{ty} __VERIFIER_nondet_{nondet}(void);\n\
                     int main() {{ {ty} x = __VERIFIER_nondet_{nondet}(); \
                     {ty} n = __VERIFIER_nondet_{nondet}(); while ({cond}) {{ {update} }} \
                     return 0; }}"
                );
                let (form, x, n_local) = c_loop_form(&source);
                let what = format!("{ty}: while ({cond}) {update}");
                for &x0 in &edges {
                    for d in [-3, -1, 0, 1, 2, 5] {
                        for n in [x0.wrapping_add(d), edges[(x0 as usize + 2) % edges.len()]] {
                            let mut store = TermStore::new();
                            let mut start = vec![None; form.forms.len()];
                            start[x.index()] = Some(terms::int_const(&mut store, x0).unwrap());
                            start[n_local.index()] = Some(terms::int_const(&mut store, n).unwrap());
                            let phase = Phase {
                                form: &form,
                                start: &start,
                            };
                            let Stop::After(count) = phase.stops(&mut store).unwrap()[0] else {
                                assert_eq!(update, "x += 2;", "{what}: no count");
                                continue;
                            };
                            for m in 0..6 {
                                let last = terms::int_const(&mut store, m).unwrap();
                                let run = phase.taken_throughout(&mut store, last).unwrap();
                                let after = phase.values_after(&mut store, last).unwrap();
                                let again = phase.holds_at(&mut store, 0, &after).unwrap();
                                if truth(&store, run) && !truth(&store, again) {
                                    stops += 1;
                                    assert_eq!(number(&store, count), m, "{what}: x0 {x0} n {n}");
                                }
                            }
                        }
                    }
                }
            }
        }
        assert!(
            stops > 100,
            "only {stops} runs stopped within six iterations"
        );
    }

    /// A series (`s = s + 3 * i` while `i` counts by 2) against iterating by hand, on start
    /// values around the edges of the range (its values wrap like the program's), and after
    /// 2^32 iterations of an odd growth, where the count itself no longer fits 32 bits.
    #[test]
    fn series_match_iteration() {
        let source = "main() { var i, n, s; i = input; n = input; s = input; \
                      while (i < n) { s = s + i * 3; i = i + 2; } return s; }";
        let form = loop_form(source);
        let (i, s) = (LocalId(0), LocalId(2));
        assert!(matches!(form.forms[s.index()], Some(Form::Series { .. })));
        let edges = [i32::MIN, -7, 0, 5, i32::MAX - 4];
        for &i0 in &edges {
            for &s0 in &edges {
                let mut store = TermStore::new();
                let mut start = vec![None; 8];
                start[i.index()] = Some(terms::int_const(&mut store, i0).unwrap());
                start[1] = Some(terms::int_const(&mut store, 0).unwrap());
                start[s.index()] = Some(terms::int_const(&mut store, s0).unwrap());
                let phase = Phase {
                    form: &form,
                    start: &start,
                };
                let (mut i_now, mut s_now) = (i0, s0);
                for m in 0..6 {
                    s_now = s_now.wrapping_add(i_now.wrapping_mul(3));
                    i_now = i_now.wrapping_add(2);
                    let last = terms::int_const(&mut store, m).unwrap();
                    let after = phase.values_after(&mut store, last).unwrap();
                    assert_eq!(
                        number(&store, after[s.index()].unwrap()),
                        s_now,
                        "i0 {i0} s0 {s0} m {m}"
                    );
                }
            }
        }
        let odd = loop_form(
            "main() { var i, n, s; i = input; n = input; s = 0; \
             while (i < n) { s = s + i; i = i + 1; } return s; }",
        );
        let mut store = TermStore::new();
        let zero = terms::int_const(&mut store, 0).unwrap();
        let start = vec![Some(zero); odd.forms.len()];
        let phase = Phase {
            form: &odd,
            start: &start,
        };
        let last = terms::int_const(&mut store, -1).unwrap();
        let after = phase.values_after(&mut store, last).unwrap();
        // 0 + 1 + … + (2^32 − 1) = 2^31 · (2^32 − 1), which is 2^31 modulo 2^32.
        assert_eq!(number(&store, after[2].unwrap()), i32::MIN);
    }

    /// An odd growth repeats its values only after 2^33 iterations: a loop no condition
    /// bounds (here `n > 0`, which the loop does not change) keeps no such series; an even
    /// growth repeats after 2^32 like everything else.
    #[test]
    fn an_unbounded_series_needs_an_even_growth() {
        let form = |body: &str| {
            let source = format!(
                "main() {{ var i, n, s; i = input; n = input; s = 0; \
                 while (n > 0) {{ {body} }} return s; }}"
            );
            let front = symex_syntax::analyze(&source).expect("valid");
            let module = symex_ir::lower(&front.program);
            let info = ProgramInfo::new(&module);
            let loops = info.functions[0].loops();
            let body = body_paths(&module.functions[0], &loops.loops[0], &[], &|_| false)
                .expect("summarizable");
            ClosedForm::of(body.walks[0].clone(), &body.slots, &[])
        };
        assert!(form("s = s + i; i = i + 1;").is_err());
        assert!(form("s = s + 2 * i; i = i + 1;").is_ok());
    }

    #[test]
    fn symbolic_slopes_match_iteration() {
        for s in [1, 4, -3] {
            let source = "main() { var x, n, s; x = input; n = input; s = input; while (x < n) { x = x + s; } return x; }";
            let form = loop_form(source);
            assert!(matches!(
                form.atoms[0].slope_a,
                Slope::By(ref d) if d.constant_value().is_none()
            ));
            agree(
                source,
                LocalId(0),
                &[(LocalId(1), 0), (LocalId(2), s)],
                i64::from(s),
                |x, _, n| x < n,
            );
        }
    }
}
