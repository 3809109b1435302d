//! `Rvalue::Unreached` in a concrete run: the interpreter's memory as the cells that
//! `symex_ir::unreached` counts over. Nothing here decides what the count means.

use symex_ir::cfg::FieldId;
use symex_ir::unreached::{Cells, Unknown};

use crate::memory::Memory;
use crate::value::Value;

/// The run's memory, with the id of its objects' heap-state field.
pub(crate) struct RunCells<'m> {
    pub memory: &'m Memory,
    pub heap_state: Option<FieldId>,
}

impl Cells for RunCells<'_> {
    fn count(&self) -> usize {
        self.memory.cells().len()
    }

    fn state(&self, cell: usize) -> Result<Option<i32>, Unknown> {
        let record = match self.memory.cells().get(cell) {
            Some(Value::Record(record)) => record,
            Some(Value::Array(array)) => match array.items().first() {
                Some(Value::Record(record)) => record,
                _ => return Ok(None),
            },
            _ => return Ok(None),
        };
        Ok(match self.heap_state.and_then(|field| record.get(field)) {
            Some(Value::Int(state)) => Some(*state),
            _ => None,
        })
    }

    fn pointees(&self, cell: usize, out: &mut Vec<usize>) -> Result<(), Unknown> {
        if let Some(value) = self.memory.cells().get(cell) {
            pointees(value, out);
        }
        Ok(())
    }
}

/// Appends every cell a pointer inside `value` points to.
pub(crate) fn pointees(value: &Value, out: &mut Vec<usize>) {
    match value {
        Value::Ptr(cell) => out.push(cell.index()),
        Value::Record(record) => record.fields().iter().for_each(|(_, v)| pointees(v, out)),
        Value::Array(array) => array.items().iter().for_each(|v| pointees(v, out)),
        Value::Uninit | Value::Int(_) | Value::Int64(_) | Value::Null => {}
    }
}
