//! Memory cells: the targets of pointers.
//!
//! A cell is created by `alloc` or, once per activation, for every address-taken local, and is
//! never freed during a run (micro-c has no `free`), so a [`CellId`] stays valid for the whole run
//! and pointer equality is id equality. The cell count is bounded by the run's cell limit.
//! Frames and the value semantics of aggregates live elsewhere.

use crate::config::Limit;
use crate::fault::Fault;
use crate::value::{CellId, Value};

#[derive(Debug)]
pub(crate) struct Memory {
    cells: Vec<Value>,
    max_cells: usize,
}

impl Memory {
    pub(crate) fn new(max_cells: usize) -> Memory {
        Memory {
            cells: Vec::new(),
            max_cells,
        }
    }

    /// A fresh cell holding `value`.
    pub(crate) fn alloc(&mut self, value: Value) -> Result<CellId, Fault> {
        let id = u32::try_from(self.cells.len())
            .ok()
            .filter(|_| self.cells.len() < self.max_cells)
            .ok_or(Fault::Limit(Limit::Cells(self.max_cells)))?;
        self.cells.push(value);
        Ok(CellId(id))
    }

    pub(crate) fn get(&self, cell: CellId) -> Result<&Value, Fault> {
        self.cells.get(cell.index()).ok_or_else(dangling)
    }

    /// Every cell, `CellId(i)` at `i`.
    pub(crate) fn cells(&self) -> &[Value] {
        &self.cells
    }

    pub(crate) fn get_mut(&mut self, cell: CellId) -> Result<&mut Value, Fault> {
        self.cells.get_mut(cell.index()).ok_or_else(dangling)
    }
}

fn dangling() -> Fault {
    Fault::Invariant("pointer to a cell that does not exist".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alloc_read_write() {
        let mut m = Memory::new(10);
        let a = m.alloc(Value::Int(1)).unwrap();
        let b = m.alloc(Value::Uninit).unwrap();
        assert_ne!(a, b);
        *m.get_mut(b).unwrap() = Value::Int(2);
        assert_eq!(m.get(a).unwrap(), &Value::Int(1));
        assert_eq!(m.get(b).unwrap(), &Value::Int(2));
        assert!(matches!(m.get(CellId(9)), Err(Fault::Invariant(_))));
    }

    #[test]
    fn cell_limit() {
        let mut m = Memory::new(1);
        assert!(m.alloc(Value::Null).is_ok());
        assert_eq!(m.alloc(Value::Null), Err(Fault::Limit(Limit::Cells(1))));
    }
}
