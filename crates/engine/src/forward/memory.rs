//! The cells of one state, shared between states by chunks.
//!
//! Cells live in fixed-size chunks behind `Rc`, and the chunks in a persistent vector (`imbl`,
//! a tree of `Rc` nodes): cloning a state's memory copies a few pointers (at most 6, whatever
//! its size), dropping a clone releases as many, and a write copies the chunk it touches (and
//! the vector's path to it) only when another state still shares them. So neither a fork nor the end of a path costs the
//! size of the memory: with one pointer per chunk in a plain vector, a program of 200,000
//! cells spent 24 % of its run cloning states (BENCHMARKS.md, "Forward engine: states of
//! large memories"). Nothing here interprets the values.

use std::rc::Rc;

use imbl::shared_ptr::RcK;

use crate::error::EngineError;
use crate::forward::value::{CellId, SymValue};

const CHUNK: usize = 32;

type Chunk = Rc<Vec<SymValue>>;

#[derive(Clone, Debug, Default)]
pub struct Memory {
    chunks: imbl::GenericVector<Chunk, RcK>,
    len: usize,
}

impl Memory {
    /// A new cell holding `value`.
    pub fn alloc(&mut self, value: SymValue) -> CellId {
        let id = CellId(self.len as u32);
        if self.len % CHUNK == 0 {
            self.chunks.push_back(Rc::new(Vec::with_capacity(CHUNK)));
        }
        if let Some(last) = self.chunks.back_mut() {
            Rc::make_mut(last).push(value);
        }
        self.len += 1;
        id
    }

    /// How many cells there are (`CellId(0)` to `CellId(cell_count() - 1)`).
    pub fn cell_count(&self) -> usize {
        self.len
    }

    pub fn get(&self, cell: CellId) -> Result<&SymValue, EngineError> {
        let i = cell.0 as usize;
        self.chunks
            .get(i / CHUNK)
            .and_then(|chunk| chunk.get(i % CHUNK))
            .ok_or_else(|| no_cell(i))
    }

    /// Cell by cell: `join(a, b)` where both memories have the cell, the longer memory's cell
    /// beyond the shorter one (the other state has no pointer to it). Chunks both share stay
    /// shared.
    pub fn zip_with(
        &self,
        other: &Memory,
        mut join: impl FnMut(&SymValue, &SymValue) -> Result<SymValue, EngineError>,
    ) -> Result<Memory, EngineError> {
        let (longer, shorter) = if self.len >= other.len {
            (self, other)
        } else {
            (other, self)
        };
        let mut chunks = imbl::GenericVector::new();
        let mut theirs_all = shorter.chunks.iter();
        for chunk in longer.chunks.iter() {
            match theirs_all.next() {
                Some(theirs) if Rc::ptr_eq(chunk, theirs) => chunks.push_back(Rc::clone(chunk)),
                Some(theirs) => {
                    let (mine, theirs) = if self.len >= other.len {
                        (chunk, theirs)
                    } else {
                        (theirs, chunk)
                    };
                    let mut merged = Vec::with_capacity(CHUNK);
                    for k in 0..mine.len().max(theirs.len()) {
                        merged.push(match (mine.get(k), theirs.get(k)) {
                            (Some(a), Some(b)) => join(a, b)?,
                            (Some(v), None) | (None, Some(v)) => v.clone(),
                            (None, None) => SymValue::Uninit,
                        });
                    }
                    chunks.push_back(Rc::new(merged));
                }
                None => chunks.push_back(Rc::clone(chunk)),
            }
        }
        Ok(Memory {
            chunks,
            len: longer.len,
        })
    }

    /// Replaces every cell value `replace` maps to a new one; chunks without a change stay
    /// shared.
    pub fn replace_values(
        &mut self,
        mut replace: impl FnMut(&SymValue) -> Result<Option<SymValue>, EngineError>,
    ) -> Result<(), EngineError> {
        let mut changes: Vec<(usize, usize, SymValue)> = Vec::new();
        for (c, chunk) in self.chunks.iter().enumerate() {
            for (i, v) in chunk.iter().enumerate() {
                if let Some(new) = replace(v)? {
                    changes.push((c, i, new));
                }
            }
        }
        for (c, i, new) in changes {
            if let Some(chunk) = self.chunks.get_mut(c) {
                Rc::make_mut(chunk)[i] = new;
            }
        }
        Ok(())
    }

    /// Every cell's value, in cell order.
    pub fn values(&self) -> impl Iterator<Item = &SymValue> {
        self.chunks.iter().flat_map(|chunk| chunk.iter())
    }

    pub fn set(&mut self, cell: CellId, value: SymValue) -> Result<(), EngineError> {
        *self.get_mut(cell)? = value;
        Ok(())
    }

    /// The cell's value, to be changed where it is (its chunk copied first if another state
    /// shares it).
    pub fn get_mut(&mut self, cell: CellId) -> Result<&mut SymValue, EngineError> {
        let i = cell.0 as usize;
        self.chunks
            .get_mut(i / CHUNK)
            .and_then(|chunk| Rc::make_mut(chunk).get_mut(i % CHUNK))
            .ok_or_else(|| no_cell(i))
    }
}

fn no_cell(i: usize) -> EngineError {
    EngineError::Internal(format!("a pointer to no cell (#{i})"))
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

    #[test]
    fn a_clone_of_a_large_memory_copies_one_pointer() {
        let mut a = Memory::default();
        for _ in 0..10 * CHUNK * 64 {
            a.alloc(SymValue::Null);
        }
        let mut b = a.clone();
        assert!(a.chunks.ptr_eq(&b.chunks));
        // One holder of each chunk: the vector's node, which both memories share.
        assert_eq!(Rc::strong_count(&a.chunks[600]), 1);
        let middle = CellId((300 * CHUNK + 5) as u32);
        b.set(middle, SymValue::Uninit).unwrap();
        assert!(!a.chunks.ptr_eq(&b.chunks));
        assert_eq!(a.get(middle).unwrap(), &SymValue::Null);
        assert_eq!(b.get(middle).unwrap(), &SymValue::Uninit);
        // The write copied one leaf of at most 64 chunk pointers (its other chunks now have
        // two holders) and left the rest of the tree shared (one holder).
        let held_twice = (0..a.chunks.len())
            .filter(|&c| Rc::strong_count(&a.chunks[c]) == 2)
            .count();
        assert!(
            (1..64).contains(&held_twice),
            "{held_twice} chunks held twice"
        );
        assert_eq!(Rc::strong_count(&a.chunks[600]), 1);
        assert!(Rc::ptr_eq(&a.chunks[600], &b.chunks[600]));
    }

    #[test]
    fn zipping_joins_common_cells_and_keeps_the_rest() {
        let mut a = Memory::default();
        for _ in 0..40 {
            a.alloc(SymValue::Null);
        }
        let mut b = a.clone();
        b.set(CellId(33), SymValue::Uninit).unwrap();
        let extra = b.alloc(SymValue::Cell(CellId(0)));
        let calls = std::cell::Cell::new(0);
        let z = a
            .zip_with(&b, |x, y| {
                calls.set(calls.get() + 1);
                Ok(if x == y { x.clone() } else { SymValue::Uninit })
            })
            .unwrap();
        assert_eq!(z.len, 41);
        assert!(Rc::ptr_eq(&z.chunks[0], &a.chunks[0]));
        assert_eq!(calls.get(), 8);
        assert_eq!(z.get(CellId(33)).unwrap(), &SymValue::Uninit);
        assert_eq!(z.get(extra).unwrap(), &SymValue::Cell(CellId(0)));
    }
}
