//! A frame's local variables, shared between forked states by chunks (`forward/chunked.rs`):
//! a state copies a chunk on its first write to it, not the whole frame. An inlined C `main`
//! has thousands of locals (an ECA task's 2,200 temporaries: 57 KB a state when a fork copied
//! them whole, 8.45 GB after 30 s of depth-first search), of which a state between two forks
//! writes a part; and a fork forgets the chunks nothing reads again.
//!
//! Values only: what a local means (a cell's address, a number) is the machine's business.

use std::ops::Range;
use std::rc::Rc;

use crate::forward::chunked::Chunked;
use crate::forward::value::SymValue;

/// Locals per chunk: a write copies this many values (24 bytes each) at most.
const CHUNK: usize = 16;

/// The locals of one frame, in [`CHUNK`]-sized shared pieces (the last one shorter).
pub type Locals = Chunked<CHUNK>;

impl Locals {
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
}

thread_local! {
    /// The chunk of forgotten values (`Locals::forget`); a frame's last chunk, shorter, is
    /// never forgotten.
    static BLANK: Rc<[SymValue]> = Rc::from(vec![SymValue::Uninit; CHUNK]);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::forward::value::CellId;

    /// Distinct values without a term store.
    fn number(n: u32) -> SymValue {
        SymValue::Cell(CellId(n))
    }

    #[test]
    fn forgotten_chunks_are_the_one_blank_chunk() {
        let a = Locals::new((0..40).map(number).collect());
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
}
