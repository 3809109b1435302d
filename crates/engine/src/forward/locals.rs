//! A frame's local variables, shared between forked states by chunks: a state copies a chunk
//! on its first write to it, not the whole frame. An inlined C `main` has thousands of locals
//! (an ECA task's 2,200 temporaries: 57 KB a state when a fork copied them whole, 8.45 GB after
//! 30 s of depth-first search), of which a state between two forks writes a part.
//!
//! Values only: what a local means (a cell's address, a number) is the machine's business.

use std::ops::{Index, Range};
use std::rc::Rc;

use crate::forward::value::SymValue;

/// Locals per chunk: a write copies this many values (24 bytes each) at most.
const CHUNK: usize = 16;

/// The locals of one frame, in [`CHUNK`]-sized shared pieces (the last one shorter).
#[derive(Clone, Debug)]
pub struct Locals {
    chunks: Vec<Rc<[SymValue]>>,
    len: usize,
}

impl Locals {
    pub fn new(values: Vec<SymValue>) -> Locals {
        let len = values.len();
        let chunks = values.chunks(CHUNK).map(Rc::from).collect();
        Locals { chunks, len }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn get(&self, index: usize) -> Option<&SymValue> {
        self.chunks.get(index / CHUNK)?.get(index % CHUNK)
    }

    /// The local at `index`, its chunk copied first if another frame shares it.
    pub fn get_mut(&mut self, index: usize) -> Option<&mut SymValue> {
        let chunk = self.chunks.get_mut(index / CHUNK)?;
        unique(chunk).get_mut(index % CHUNK)
    }

    pub fn iter(&self) -> impl Iterator<Item = &SymValue> + '_ {
        self.chunks.iter().flat_map(|chunk| chunk.iter())
    }

    /// Forgets the values of every chunk none of whose locals is `read_later`: it becomes the
    /// one blank chunk all frames share. A fork's two states share their chunks, and the one
    /// that goes on copies each it writes; once the chunks of dead temporaries are blank, the
    /// one that waits keeps nothing of them (a frame of thousands of temporaries, each written
    /// once a round, kept half its chunks per waiting state). The caller answers for
    /// `read_later`, which says whether a local of a range of indices may be read later (a
    /// value forgotten is `Uninit`).
    pub fn forget(&mut self, read_later: impl Fn(Range<usize>) -> bool) {
        BLANK.with(|blank| {
            for (k, chunk) in self.chunks.iter_mut().enumerate() {
                let start = k * CHUNK;
                let whole = chunk.len() == CHUNK;
                if whole && !Rc::ptr_eq(chunk, blank) && !read_later(start..start + CHUNK) {
                    *chunk = Rc::clone(blank);
                }
            }
        });
    }

    /// Replaces every value for which `change` gives a new one, copying only the chunks that
    /// change; whether any did.
    pub fn replace<E>(
        &mut self,
        mut change: impl FnMut(&SymValue) -> Result<Option<SymValue>, E>,
    ) -> Result<bool, E> {
        let mut changed = false;
        for chunk in &mut self.chunks {
            for offset in 0..chunk.len() {
                if let Some(new) = change(&chunk[offset])? {
                    unique(chunk)[offset] = new;
                    changed = true;
                }
            }
        }
        Ok(changed)
    }

    /// The locals `combine(x, y)` of two frames' locals of one length, pairwise; a chunk the
    /// two share stays shared (`combine` of equal values must give the value).
    pub fn zip_with<E>(
        &self,
        other: &Locals,
        mut combine: impl FnMut(&SymValue, &SymValue) -> Result<SymValue, E>,
    ) -> Result<Locals, E> {
        debug_assert_eq!(self.len, other.len);
        let chunks = (self.chunks.iter().zip(&other.chunks))
            .map(|(x, y)| match Rc::ptr_eq(x, y) {
                true => Ok(Rc::clone(x)),
                false => (x.iter().zip(y.iter()))
                    .map(|(u, v)| combine(u, v))
                    .collect::<Result<Rc<[SymValue]>, E>>(),
            })
            .collect::<Result<_, E>>()?;
        Ok(Locals {
            chunks,
            len: self.len,
        })
    }
}

impl Index<usize> for Locals {
    type Output = SymValue;

    fn index(&self, index: usize) -> &SymValue {
        match self.get(index) {
            Some(value) => value,
            None => panic!("local {index} of {}", self.len),
        }
    }
}

thread_local! {
    /// The chunk of forgotten values (`Locals::forget`); a frame's last chunk, shorter, is
    /// never forgotten.
    static BLANK: Rc<[SymValue]> = Rc::from(vec![SymValue::Uninit; CHUNK]);
}

/// `chunk`, copied first if it is shared.
fn unique(chunk: &mut Rc<[SymValue]>) -> &mut [SymValue] {
    if Rc::get_mut(chunk).is_none() {
        *chunk = Rc::from(&chunk[..]);
    }
    Rc::get_mut(chunk).expect("a chunk just copied has one owner")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::forward::value::CellId;

    /// Distinct values without a term store.
    fn number(n: u32) -> SymValue {
        SymValue::Cell(CellId(n))
    }

    fn numbers(count: u32) -> Locals {
        Locals::new((0..count).map(number).collect())
    }

    #[test]
    fn a_write_copies_only_its_chunk() {
        let a = numbers(40);
        let mut b = a.clone();
        *b.get_mut(17).unwrap() = SymValue::Null;
        assert_eq!(a[17], number(17));
        assert_eq!(b[17], SymValue::Null);
        assert!(Rc::ptr_eq(&a.chunks[0], &b.chunks[0]));
        assert!(!Rc::ptr_eq(&a.chunks[1], &b.chunks[1]));
        assert!(Rc::ptr_eq(&a.chunks[2], &b.chunks[2]));
        // A chunk the state owns alone is written in place.
        let before = Rc::as_ptr(&b.chunks[1]);
        *b.get_mut(18).unwrap() = SymValue::Null;
        assert_eq!(Rc::as_ptr(&b.chunks[1]), before);
    }

    #[test]
    fn indices_iteration_and_length_agree_with_a_vector() {
        for count in [0, 1, 15, 16, 17, 40] {
            let locals = numbers(count);
            assert_eq!(locals.len(), count as usize);
            let seen: Vec<&SymValue> = locals.iter().collect();
            assert_eq!(seen.len(), count as usize);
            for (i, value) in seen.into_iter().enumerate() {
                assert_eq!(value, &number(i as u32));
                assert_eq!(locals.get(i), Some(value));
            }
            assert_eq!(locals.get(count as usize), None);
        }
    }

    #[test]
    fn forgotten_chunks_are_the_one_blank_chunk() {
        let a = numbers(40);
        let mut b = a.clone();
        // Locals 0..16 are dead, 16..32 all but 20, 32..40 (the short last chunk) too.
        b.forget(|r| r.contains(&20));
        assert_eq!(b[3], SymValue::Uninit);
        assert_eq!(b[20], number(20));
        assert_eq!(b[21], number(21));
        assert_eq!(b[35], number(35));
        assert!(Rc::ptr_eq(&a.chunks[1], &b.chunks[1]));
        assert!(Rc::ptr_eq(&a.chunks[2], &b.chunks[2]));
        let mut c = a.clone();
        c.forget(|r| r.contains(&20));
        assert!(Rc::ptr_eq(&b.chunks[0], &c.chunks[0]));
        // Writing into a forgotten chunk copies the blank one, which stays blank.
        *c.get_mut(1).unwrap() = SymValue::Null;
        assert_eq!(b[1], SymValue::Uninit);
        assert_eq!(c[1], SymValue::Null);
    }

    #[test]
    fn replace_and_zip_copy_only_what_changes() {
        let a = numbers(40);
        let mut b = a.clone();
        let the_33rd = |v: &SymValue| Ok::<_, ()>((*v == number(33)).then_some(SymValue::Null));
        assert!(b.replace(the_33rd).unwrap());
        assert!(!b.replace(the_33rd).unwrap());
        assert_eq!(b[33], SymValue::Null);
        assert!(Rc::ptr_eq(&a.chunks[0], &b.chunks[0]));
        assert!(!Rc::ptr_eq(&a.chunks[2], &b.chunks[2]));
        let zipped = a
            .zip_with(&b, |u, v| {
                Ok::<_, ()>(if u == v { u.clone() } else { SymValue::Uninit })
            })
            .unwrap();
        assert!(Rc::ptr_eq(&zipped.chunks[1], &a.chunks[1]));
        assert_eq!(zipped[33], SymValue::Uninit);
        assert_eq!(zipped[32], number(32));
        assert_eq!(zipped.len(), 40);
    }
}
