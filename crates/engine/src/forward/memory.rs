//! The cells of one state, shared between states by chunks.
//!
//! Cells live in fixed-size chunks behind `Rc`: cloning a state's memory copies one pointer per
//! chunk, and a write copies only the chunk it touches when another state still shares it. So a
//! fork never copies the whole memory. Nothing here interprets the values.

use std::rc::Rc;

use crate::error::EngineError;
use crate::forward::value::{CellId, SymValue};

const CHUNK: usize = 32;

#[derive(Clone, Debug, Default)]
pub struct Memory {
    chunks: Vec<Rc<Vec<SymValue>>>,
    len: usize,
}

impl Memory {
    /// A new cell holding `value`.
    pub fn alloc(&mut self, value: SymValue) -> CellId {
        let id = CellId(self.len as u32);
        if self.len % CHUNK == 0 {
            self.chunks.push(Rc::new(Vec::with_capacity(CHUNK)));
        }
        if let Some(last) = self.chunks.last_mut() {
            Rc::make_mut(last).push(value);
        }
        self.len += 1;
        id
    }

    pub fn get(&self, cell: CellId) -> Result<&SymValue, EngineError> {
        let i = cell.0 as usize;
        self.chunks
            .get(i / CHUNK)
            .and_then(|chunk| chunk.get(i % CHUNK))
            .ok_or_else(|| EngineError::Internal(format!("a pointer to no cell (#{i})")))
    }

    pub fn set(&mut self, cell: CellId, value: SymValue) -> Result<(), EngineError> {
        let i = cell.0 as usize;
        let slot = self
            .chunks
            .get_mut(i / CHUNK)
            .and_then(|chunk| Rc::make_mut(chunk).get_mut(i % CHUNK))
            .ok_or_else(|| EngineError::Internal(format!("a pointer to no cell (#{i})")))?;
        *slot = value;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clones_share_until_written() {
        let mut a = Memory::default();
        let cells: Vec<CellId> = (0..40).map(|_| a.alloc(SymValue::Null)).collect();
        let b = a.clone();
        a.set(cells[35], SymValue::Uninit).unwrap();
        assert_eq!(a.get(cells[35]).unwrap(), &SymValue::Uninit);
        assert_eq!(b.get(cells[35]).unwrap(), &SymValue::Null);
        assert!(Rc::ptr_eq(&a.chunks[0], &b.chunks[0]));
        assert!(!Rc::ptr_eq(&a.chunks[1], &b.chunks[1]));
        assert_eq!(a.len, 40);
        assert!(a.get(CellId(99)).is_err());
    }
}
