//! Reading and writing a state's locals, cells and places.
//!
//! A cell-backed local lives in its cell; a place is a base (a local, or the cell(s) a pointer
//! may point to) and projections whose indices are already terms. Writes through an ite-valued
//! pointer update every possible target under its condition. Nothing here checks properties:
//! the `Check` instructions that precede every access did that.

use symex_ir::cfg::{LocalId, Operand, Place, PlaceBase, Projection};
use symex_smt::TermId;

use crate::common::terms;
use crate::error::EngineError;
use crate::forward::machine::Machine;
use crate::forward::state::State;
use crate::forward::value::{Step, SymValue};

type Result<T> = std::result::Result<T, EngineError>;

fn no_frame() -> EngineError {
    EngineError::Internal("a state without a frame".to_string())
}

impl Machine<'_> {
    pub fn read_local(&self, state: &State, local: LocalId) -> Result<SymValue> {
        let frame = state.frame().ok_or_else(no_frame)?;
        let slot = frame
            .locals
            .get(local.index())
            .ok_or_else(|| EngineError::Internal(format!("no local %{}", local.0)))?;
        if self.info.functions[frame.func.index()].is_cell_backed(local) {
            if let SymValue::Cell(cell) = slot {
                return state.memory.get(*cell).cloned();
            }
        }
        Ok(slot.clone())
    }

    pub fn write_local(
        &mut self,
        state: &mut State,
        local: LocalId,
        value: SymValue,
    ) -> Result<()> {
        let func = state.frame().ok_or_else(no_frame)?.func;
        let cell_backed = self.info.functions[func.index()].is_cell_backed(local);
        let frame = state.frame_mut().ok_or_else(no_frame)?;
        let slot = frame
            .locals
            .get_mut(local.index())
            .ok_or_else(|| EngineError::Internal(format!("no local %{}", local.0)))?;
        if cell_backed {
            if let SymValue::Cell(cell) = *slot {
                return state.memory.set(cell, value);
            }
        }
        *slot = value;
        Ok(())
    }

    pub fn operand(&mut self, state: &State, op: Operand) -> Result<SymValue> {
        match op {
            Operand::Const(n) => Ok(SymValue::Int(terms::int_const(&mut self.store, n)?)),
            Operand::Const64(n) => Ok(SymValue::Int(terms::int64_const(&mut self.store, n)?)),
            Operand::Null => Ok(SymValue::Null),
            Operand::Local(l) => self.read_local(state, l),
        }
    }

    pub fn int_operand(&mut self, state: &State, op: Operand) -> Result<TermId> {
        self.operand(state, op)?.as_int(&mut self.store)
    }

    /// The place's projections with their indices as terms.
    pub fn steps_of(&mut self, state: &State, place: &Place) -> Result<Vec<Step>> {
        place
            .projections
            .iter()
            .map(|p| match *p {
                Projection::Field(f) => Ok(Step::Field(f)),
                Projection::Index(op) => Ok(Step::Index(self.int_operand(state, op)?)),
            })
            .collect()
    }

    /// The value a pointer points to (an ite over its possible cells).
    pub fn deref(&mut self, state: &State, pointer: &SymValue) -> Result<Option<SymValue>> {
        Ok(match pointer {
            SymValue::Cell(cell) => Some(state.memory.get(*cell)?.clone()),
            SymValue::Ite(c, a, b) => match (self.deref(state, a)?, self.deref(state, b)?) {
                (Some(x), Some(y)) => Some(SymValue::ite(&mut self.store, *c, x, y)?),
                (x, None) => x,
                (None, y) => y,
            },
            // Null is excluded by the `NonNull` check before every dereference.
            SymValue::Null | SymValue::Uninit => None,
            other => {
                return Err(EngineError::Internal(format!(
                    "dereference of a non-pointer ({other:?})"
                )))
            }
        })
    }

    fn base_value(&mut self, state: &State, base: &PlaceBase) -> Result<SymValue> {
        match *base {
            PlaceBase::Local(l) => self.read_local(state, l),
            PlaceBase::Deref(op) => {
                let pointer = self.operand(state, op)?;
                Ok(self.deref(state, &pointer)?.unwrap_or(SymValue::Uninit))
            }
        }
    }

    pub fn read_place(&mut self, state: &State, place: &Place) -> Result<SymValue> {
        let steps = self.steps_of(state, place)?;
        if let Some(pointer) = self.input_pointer(state, &place.base)? {
            return self.read_through(state, &pointer, &steps);
        }
        let base = self.base_value(state, &place.base)?;
        base.project(&steps, &mut self.store)
    }

    /// "The value at the place is uninitialized" as a Boolean term.
    pub fn uninit_place(&mut self, state: &State, place: &Place) -> Result<TermId> {
        let steps = self.steps_of(state, place)?;
        if let Some(pointer) = self.input_pointer(state, &place.base)? {
            return self
                .read_through(state, &pointer, &steps)?
                .uninit_at(&[], &mut self.store);
        }
        let base = self.base_value(state, &place.base)?;
        base.uninit_at(&steps, &mut self.store)
    }

    pub fn write_place(&mut self, state: &mut State, place: &Place, value: SymValue) -> Result<()> {
        let steps = self.steps_of(state, place)?;
        match place.base {
            PlaceBase::Local(l) => {
                let func = state.frame().ok_or_else(no_frame)?.func;
                if self.info.functions[func.index()].is_cell_backed(l) {
                    let frame = state.frame().ok_or_else(no_frame)?;
                    if let Some(&SymValue::Cell(cell)) = frame.locals.get(l.index()) {
                        let slot = state.memory.get_mut(cell)?;
                        return slot.update_in_place(&steps, value, &mut self.store);
                    }
                    let old = self.read_local(state, l)?;
                    let new = old.update(&steps, value, &mut self.store)?;
                    return self.write_local(state, l, new);
                }
                let frame = state.frame_mut().ok_or_else(no_frame)?;
                let slot = frame
                    .locals
                    .get_mut(l.index())
                    .ok_or_else(|| EngineError::Internal(format!("no local %{}", l.0)))?;
                slot.update_in_place(&steps, value, &mut self.store)
            }
            PlaceBase::Deref(op) => {
                let pointer = self.operand(state, op)?;
                let always = self.store.bool_val(true)?;
                for (guard, cell) in pointer.targets(always, &mut self.store)? {
                    if guard == always {
                        // The one cell: written where it is (a loop filling a heap array of N
                        // elements costs O(N), not O(N²)).
                        let slot = state.memory.get_mut(cell)?;
                        slot.update_in_place(&steps, value.clone(), &mut self.store)?;
                        continue;
                    }
                    let old = state.memory.get(cell)?.clone();
                    let updated = old.update(&steps, value.clone(), &mut self.store)?;
                    let new = SymValue::ite(&mut self.store, guard, updated, old)?;
                    state.memory.set(cell, new)?;
                }
                if pointer.has_ref() {
                    self.write_input(state, &pointer, &steps, value)?;
                }
                Ok(())
            }
        }
    }
}
