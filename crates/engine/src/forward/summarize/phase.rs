//! A phase: one walk repeated k times from known start values, as exact formulas over the
//! 32-bit semantics.
//!
//! The value of an affine expression after j iterations is `v0 + s·j` modulo 2^32 (wrapping
//! addition and multiplication are a ring homomorphism from the integers), so its integer lift
//! `V(j) = sext(v0) + sext(s)·j`, computed in 72 bits, agrees with the real value exactly while
//! it stays in the 32-bit range. While both sides of every condition stay in range, a signed
//! comparison is a linear inequality in j, whose truth on all of `0..k` follows from its ends
//! (and `==`, `!=` from a divisibility test). So "the walk is taken at every iteration of
//! `0..k`" is encoded exactly together with "every side is in range on `0..k`"; runs that leave
//! the range are not lost: the caller continues them from the first iteration out of range
//! (an escape). Iteration counts are 72-bit terms in `1..=2^33` (more distinct states than
//! that a walk of 32-bit induction variables cannot have). Nothing here decides what to fork.

use symex_ir::cfg::{BinOp, LocalId, PropId};
use symex_smt::{TermId, TermStore};

use crate::common::terms::{self, WIDTH};
use crate::error::EngineError;
use crate::forward::summarize::closed::{Atom, ClosedForm, Form};
use crate::forward::summarize::expr::Slope;

type Result<T> = std::result::Result<T, EngineError>;

/// Width of iteration counts and integer lifts.
pub const WIDE: u32 = 72;

/// Iteration counts range over `0..=MAX_COUNT`.
const MAX_COUNT: i128 = 1 << 33;

/// A walk's closed form applied to the start values of one state.
pub struct Phase<'a> {
    pub form: &'a ClosedForm,
    /// Each local's 32-bit start value (`None` for locals the walk does not read).
    pub start: &'a [Option<TermId>],
}

impl Phase<'_> {
    fn start_of(&self, l: LocalId) -> Option<TermId> {
        self.start.get(l.index()).copied().flatten()
    }

    /// The values of the invariants and induction variables after `count` iterations.
    fn inductions_at(&self, store: &mut TermStore, count: TermId) -> Result<Vec<Option<TermId>>> {
        let mut values = self.start.to_vec();
        for (l, form) in self.form.forms.iter().enumerate() {
            if let Some(Form::Induction(d)) = form {
                let start = &|m: LocalId| self.start_of(m);
                let step = d.to_term(store, start)?;
                let step = store.sign_extend(WIDE - WIDTH, step)?;
                let x0 = self.start_of(LocalId(l as u32)).ok_or_else(|| missing(l))?;
                let x0 = store.sign_extend(WIDE - WIDTH, x0)?;
                // The low 32 bits of the integer lift: the same number modulo 2^32 as
                // `x0 + d·count`, sharing its adder with the range conditions.
                let lifted = affine(store, x0, step, count)?;
                values[l] = Some(store.extract(WIDTH - 1, 0, lifted)?);
            }
        }
        Ok(values)
    }

    /// Every local's value after `count >= 1` iterations (derived ones from iteration
    /// `count - 1`); unchanged locals keep their start values.
    pub fn values_after(&self, store: &mut TermStore, count: TermId) -> Result<Vec<Option<TermId>>> {
        let mut values = self.inductions_at(store, count)?;
        let one = store.bv_signed(WIDE, 1)?;
        let previous = store.bv_sub(count, one)?;
        let before = self.inductions_at(store, previous)?;
        for (l, form) in self.form.forms.iter().enumerate() {
            if let Some(Form::Derived(e)) = form {
                values[l] = Some(e.to_term(store, &|m: LocalId| before[m.index()])?);
            }
        }
        Ok(values)
    }

    /// The walk is taken from the values `values` (exact, 32-bit).
    pub fn taken_from(&self, store: &mut TermStore, values: &[Option<TermId>]) -> Result<TermId> {
        let mut parts = Vec::with_capacity(self.form.walk.conds.len());
        for (cond, direction) in &self.form.walk.conds {
            let value = cond.to_term(store, &|m: LocalId| values.get(m.index()).copied().flatten())?;
            let truth = terms::truth(store, value)?;
            parts.push(if *direction { truth } else { store.not(truth)? });
        }
        Ok(store.and_all(&parts)?)
    }

    /// The walk is taken at every iteration of `0..count` and every side of its conditions
    /// stays in the 32-bit range there; `1 <= count <= 2^33`.
    pub fn taken_throughout(&self, store: &mut TermStore, count: TermId) -> Result<TermId> {
        let one = store.bv_signed(WIDE, 1)?;
        let max = store.bv_signed(WIDE, MAX_COUNT)?;
        let mut parts = vec![store.bv_sle(one, count)?, store.bv_sle(count, max)?];
        let last = store.bv_sub(count, one)?;
        for atom in &self.form.atoms {
            let (a0, da) = self.lift(store, atom, true)?;
            let (b0, db) = self.lift(store, atom, false)?;
            for (v0, dv) in [(a0, da), (b0, db)] {
                if let Some(dv) = dv {
                    let end = affine(store, v0, dv, last)?;
                    parts.push(in_range(store, end)?);
                }
            }
            let zero = store.bv_signed(WIDE, 0)?;
            let d0 = store.bv_sub(a0, b0)?;
            let dd = match (da, db) {
                (None, None) => zero,
                (Some(x), None) => x,
                (None, Some(y)) => store.bv_neg(y)?,
                (Some(x), Some(y)) => store.bv_sub(x, y)?,
            };
            let d_last = affine(store, d0, dd, last)?;
            parts.push(match atom.op {
                BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                    let first = compare(store, atom.op, d0, zero)?;
                    let end = compare(store, atom.op, d_last, zero)?;
                    store.and_all(&[first, end])?
                }
                BinOp::Eq => {
                    let first = store.eq(d0, zero)?;
                    let constant = store.eq(dd, zero)?;
                    let once = store.eq(count, one)?;
                    let either = store.or_all(&[constant, once])?;
                    store.and_all(&[first, either])?
                }
                _ => {
                    // No j in 0..count with d0 + dd·j == 0.
                    let constant = store.eq(dd, zero)?;
                    let nonzero = store.neq(d0, zero)?;
                    let rem = store.bv_srem(d0, dd)?;
                    let divides = store.eq(rem, zero)?;
                    let minus = store.bv_neg(d0)?;
                    let root = store.bv_sdiv(minus, dd)?;
                    let after = store.bv_sle(zero, root)?;
                    let before = store.bv_slt(root, count)?;
                    let hit = store.and_all(&[divides, after, before])?;
                    let missed = store.not(hit)?;
                    store.ite(constant, nonzero, missed)?
                }
            });
        }
        Ok(store.and_all(&parts)?)
    }

    /// Some side of some condition is out of the 32-bit range at iteration `count`.
    pub fn out_of_range_at(&self, store: &mut TermStore, count: TermId) -> Result<TermId> {
        let mut parts = Vec::new();
        for atom in &self.form.atoms {
            for first in [true, false] {
                if let (v0, Some(dv)) = self.lift(store, atom, first)? {
                    let at = affine(store, v0, dv, count)?;
                    let inside = in_range(store, at)?;
                    parts.push(store.not(inside)?);
                }
            }
        }
        Ok(store.or_all(&parts)?)
    }

    /// Per check of the walk: the condition under which it fails at iteration `index`.
    pub fn failures_at(&self, store: &mut TermStore, index: TermId) -> Result<Vec<(PropId, TermId)>> {
        let values = self.inductions_at(store, index)?;
        let zero = terms::int_const(store, 0)?;
        let mut out = Vec::new();
        for (prop, e) in &self.form.checks {
            let value = e.to_term(store, &|m: LocalId| values[m.index()])?;
            out.push((*prop, store.eq(value, zero)?));
        }
        Ok(out)
    }

    /// The lift of one side of an atom: its start value and slope (`None`: constant), 72 bits.
    fn lift(&self, store: &mut TermStore, atom: &Atom, first: bool) -> Result<(TermId, Option<TermId>)> {
        let (e, slope) = if first {
            (&atom.a, &atom.slope_a)
        } else {
            (&atom.b, &atom.slope_b)
        };
        let start = &|m: LocalId| self.start_of(m);
        let v0 = e.to_term(store, start)?;
        let v0 = store.sign_extend(WIDE - WIDTH, v0)?;
        let dv = match slope {
            Slope::Zero => None,
            Slope::By(d) => {
                let d = d.to_term(store, start)?;
                Some(store.sign_extend(WIDE - WIDTH, d)?)
            }
        };
        Ok((v0, dv))
    }
}

fn missing(l: usize) -> EngineError {
    EngineError::Internal(format!("no start value for induction variable %{l}"))
}

/// `v0 + dv·j`, without a multiplier for the common slopes 0 and ±1 (a 72-bit product with
/// an all-ones constant is costly to bit-blast).
fn affine(store: &mut TermStore, v0: TermId, dv: TermId, j: TermId) -> Result<TermId> {
    let width = match store.sort(dv) {
        symex_smt::Sort::BitVec(w) => w,
        _ => WIDE,
    };
    if dv == store.bv_signed(width, 0)? {
        return Ok(v0);
    }
    if dv == store.bv_signed(width, 1)? {
        return Ok(store.bv_add(v0, j)?);
    }
    if dv == store.bv_signed(width, -1)? {
        return Ok(store.bv_sub(v0, j)?);
    }
    let grown = store.bv_mul(dv, j)?;
    Ok(store.bv_add(v0, grown)?)
}

/// The 72-bit `v` is a 32-bit signed number.
fn in_range(store: &mut TermStore, v: TermId) -> Result<TermId> {
    let low = store.bv_signed(WIDE, i128::from(i32::MIN))?;
    let high = store.bv_signed(WIDE, i128::from(i32::MAX))?;
    let above = store.bv_sle(low, v)?;
    let below = store.bv_sle(v, high)?;
    Ok(store.and_all(&[above, below])?)
}

fn compare(store: &mut TermStore, op: BinOp, a: TermId, b: TermId) -> Result<TermId> {
    Ok(match op {
        BinOp::Lt => store.bv_slt(a, b)?,
        BinOp::Le => store.bv_sle(a, b)?,
        BinOp::Gt => store.bv_sgt(a, b)?,
        _ => store.bv_sge(a, b)?,
    })
}
