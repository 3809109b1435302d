//! `Rvalue::Unreached` on a symbolic state: its memory as the cells that
//! `symex_ir::unreached` counts over. A pointer that is not one cell or null (an `ite` of
//! pointers after a merge or a write at a symbolic index, an input reference) or a heap state
//! that is not a constant is [`Unknown`]: the count is then 0, which claims nothing (a count
//! above 0 is a leak, and only a count of one value may say so). Nothing here decides what
//! the count means.

use symex_ir::cfg::FieldId;
use symex_ir::unreached::{self, Cells, Unknown};
use symex_smt::TermStore;

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
            SymValue::Ite(..) => return Err(Unknown),
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
        SymValue::Ite(..) | SymValue::Ref(_) => return Err(Unknown),
        SymValue::Int(_) | SymValue::Null | SymValue::Uninit => {}
    }
    Ok(())
}
