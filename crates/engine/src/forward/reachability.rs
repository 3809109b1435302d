//! `Rvalue::Unreached` on a symbolic state: its memory as the cells that
//! `symex_ir::unreached` counts over. A pointer that is not one cell or null (an `ite` of
//! pointers after a merge or a write at a symbolic index, an input reference) or a heap state
//! that is not a constant is [`Unknown`]: the count is then 0, which claims nothing (a count
//! above 0 is a leak, and only a count of one value may say so). Nothing here decides what
//! the count means.
//!
//! `Rvalue::LiveObjects` is a term, exact under symbolic heap states too: a check that it is
//! 0 claims that nothing is left, so it may not round anything down.

use symex_ir::cfg::{FieldId, HEAP_LIVE};
use symex_ir::unreached::{self, Cells, Unknown};
use symex_smt::{TermId, TermStore};

use crate::common::terms::int_const;
use crate::error::EngineError;

use crate::forward::memory::Memory;
use crate::forward::value::{CellId, SymValue};

/// A state's memory, with the id of its objects' heap-state field.
struct StateCells<'s> {
    memory: &'s Memory,
    store: &'s TermStore,
    heap_state: Option<FieldId>,
}

/// How many live heap objects of `memory` certainly no pointer chain from `roots` reaches
/// (see `symex_ir::unreached`), 0 where a value on the way is not one value.
pub fn unreached(
    memory: &Memory,
    store: &TermStore,
    heap_state: Option<FieldId>,
    roots: &[SymValue],
) -> i32 {
    let cells = StateCells {
        memory,
        store,
        heap_state,
    };
    let mut start = Vec::new();
    let count = roots
        .iter()
        .try_for_each(|root| pointees(root, &mut start))
        .and_then(|()| unreached::unreached(&cells, start));
    count.unwrap_or(0)
}

/// How many cells of `memory` hold a live heap object (`symex_ir::unreached::live_objects`),
/// as a 32-bit term: each cell's heap state (of its record, or of its array's first element)
/// counts 1 where it is [`HEAP_LIVE`], through every `ite` a merge or a symbolic write left.
pub fn live_objects(
    memory: &Memory,
    store: &mut TermStore,
    heap_state: Option<FieldId>,
) -> Result<TermId, EngineError> {
    let zero = int_const(store, 0)?;
    let Some(field) = heap_state else {
        return Ok(zero);
    };
    let count = LiveCount {
        field,
        live: int_const(store, HEAP_LIVE)?,
        one: int_const(store, 1)?,
        zero,
    };
    let mut total = zero;
    for cell in 0..memory.cell_count() {
        let value = memory.get(CellId(cell as u32))?;
        let live = count.of(store, value, false)?;
        total = store.bv_add(total, live)?;
    }
    Ok(total)
}

/// What [`live_objects`] counts by, with its constants made once.
struct LiveCount {
    field: FieldId,
    live: TermId,
    one: TermId,
    zero: TermId,
}

impl LiveCount {
    /// 1 where `value`, a cell's value (`in_state` false) or a heap-state field's (true),
    /// holds a live object's state, else 0.
    fn of(
        &self,
        store: &mut TermStore,
        value: &SymValue,
        in_state: bool,
    ) -> Result<TermId, EngineError> {
        match value {
            SymValue::Ite(cond, then, other) => {
                let then = self.of(store, then, in_state)?;
                let other = self.of(store, other, in_state)?;
                Ok(store.ite(*cond, then, other)?)
            }
            SymValue::Int(state) if in_state => {
                let is_live = store.eq(*state, self.live)?;
                Ok(store.ite(is_live, self.one, self.zero)?)
            }
            SymValue::Record(fields) if !in_state => {
                match fields.iter().find(|(f, _)| *f == self.field) {
                    Some((_, state)) => self.of(store, state, true),
                    None => Ok(self.zero),
                }
            }
            SymValue::Array(elements) if !in_state => match elements.get(0) {
                Some(first) => self.of(store, first, false),
                None => Ok(self.zero),
            },
            SymValue::Logged(log) if !in_state => {
                let first = log.read(self.zero, &[], store)?;
                self.of(store, &first, false)
            }
            _ => Ok(self.zero),
        }
    }
}

impl Cells for StateCells<'_> {
    fn count(&self) -> usize {
        self.memory.cell_count()
    }

    fn state(&self, cell: usize) -> Result<Option<i32>, Unknown> {
        let value = self.memory.get(CellId(cell as u32)).map_err(|_| Unknown)?;
        let record = match value {
            SymValue::Record(fields) => fields,
            SymValue::Array(elements) => match elements.get(0) {
                Some(SymValue::Record(fields)) => fields,
                Some(SymValue::Ite(..)) => return Err(Unknown),
                _ => return Ok(None),
            },
            SymValue::Ite(..) | SymValue::Logged(_) => return Err(Unknown),
            _ => return Ok(None),
        };
        let Some(field) = self.heap_state else {
            return Ok(None);
        };
        match record.iter().find(|(f, _)| *f == field).map(|(_, v)| v) {
            None | Some(SymValue::Uninit) => Ok(None),
            Some(SymValue::Int(t)) => match self.store.as_bv(*t) {
                Some(state) => Ok(Some(state.to_i128() as i32)),
                None => Err(Unknown),
            },
            Some(_) => Err(Unknown),
        }
    }

    fn pointees(&self, cell: usize, out: &mut Vec<usize>) -> Result<(), Unknown> {
        let value = self.memory.get(CellId(cell as u32)).map_err(|_| Unknown)?;
        pointees(value, out)
    }
}

/// Appends every cell a pointer inside `value` points to.
fn pointees(value: &SymValue, out: &mut Vec<usize>) -> Result<(), Unknown> {
    match value {
        SymValue::Cell(cell) => out.push(cell.0 as usize),
        SymValue::Record(fields) => {
            for (_, field) in fields.iter() {
                pointees(field, out)?;
            }
        }
        SymValue::Array(elements) => {
            for element in elements.iter() {
                pointees(element, out)?;
            }
        }
        // Logs hold no pointers (`forward/write_log.rs`).
        SymValue::Logged(_) => {}
        SymValue::Ite(..) | SymValue::Ref(_) => return Err(Unknown),
        SymValue::Int(_) | SymValue::Null | SymValue::Uninit => {}
    }
    Ok(())
}
