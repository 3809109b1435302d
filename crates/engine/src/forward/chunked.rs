//! A sequence of values that states share by chunks of `N`: a copy shares every chunk, and a
//! write copies the one chunk it touches (and the list of chunks), not the whole sequence.
//! Frames' locals (`forward/locals.rs`) and array values (`SymValue::Array`) are such
//! sequences: a fork's two states share them, and each goes on to write a few values of
//! sequences of thousands (an ECA task's 2,200 temporaries, an SV-COMP task's arrays of
//! 100,000 numbers).
//!
//! Chunks start at multiples of `N` (the last one shorter), so two sequences of equal values
//! have equal chunks: equality and hashing are the values'.

use std::ops::Index;
use std::rc::Rc;

use crate::forward::value::SymValue;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Chunked<const N: usize> {
    pub(super) chunks: Vec<Rc<[SymValue]>>,
    len: usize,
}

impl<const N: usize> Chunked<N> {
    /// The sequence of `values`, cut into chunks of `N`.
    pub fn new(values: Vec<SymValue>) -> Self {
        const { assert!(N > 0, "chunks hold at least one value") };
        let len = values.len();
        let chunks = values.chunks(N).map(Rc::from).collect();
        Chunked { chunks, len }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn get(&self, index: usize) -> Option<&SymValue> {
        self.chunks.get(index / N)?.get(index % N)
    }

    pub fn last(&self) -> Option<&SymValue> {
        self.chunks.last()?.last()
    }

    /// The value at `index`, its chunk copied first if another sequence shares it.
    pub fn get_mut(&mut self, index: usize) -> Option<&mut SymValue> {
        let chunk = self.chunks.get_mut(index / N)?;
        unique(chunk).get_mut(index % N)
    }

    pub fn iter(&self) -> impl Iterator<Item = &SymValue> + '_ {
        self.chunks.iter().flat_map(|chunk| chunk.iter())
    }

    /// The sequence with every value for which `change` gives a new one replaced, sharing
    /// the chunks that do not change; `None` (nothing copied) where none does.
    pub fn replaced<E>(
        &self,
        mut change: impl FnMut(&SymValue) -> Result<Option<SymValue>, E>,
    ) -> Result<Option<Self>, E> {
        let mut out: Option<Self> = None;
        for (k, chunk) in self.chunks.iter().enumerate() {
            for (offset, value) in chunk.iter().enumerate() {
                if let Some(new) = change(value)? {
                    let out = out.get_or_insert_with(|| self.clone());
                    unique(&mut out.chunks[k])[offset] = new;
                }
            }
        }
        Ok(out)
    }

    /// The sequence `combine(x, y)` of two sequences of one length, pairwise; a chunk the two
    /// share stays shared (`combine` of equal values must give the value).
    pub fn zip_with<E>(
        &self,
        other: &Self,
        mut combine: impl FnMut(&SymValue, &SymValue) -> Result<SymValue, E>,
    ) -> Result<Self, E> {
        assert_eq!(self.len, other.len, "combining sequences of two lengths");
        let chunks = (self.chunks.iter().zip(&other.chunks))
            .map(|(x, y)| match Rc::ptr_eq(x, y) {
                true => Ok(Rc::clone(x)),
                false => (x.iter().zip(y.iter()))
                    .map(|(u, v)| combine(u, v))
                    .collect::<Result<Rc<[SymValue]>, E>>(),
            })
            .collect::<Result<_, E>>()?;
        Ok(Chunked {
            chunks,
            len: self.len,
        })
    }
}

impl<const N: usize> Index<usize> for Chunked<N> {
    type Output = SymValue;

    fn index(&self, index: usize) -> &SymValue {
        match self.get(index) {
            Some(value) => value,
            None => panic!("value {index} of {}", self.len),
        }
    }
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

    type Sixteen = Chunked<16>;

    /// Distinct values without a term store.
    fn number(n: u32) -> SymValue {
        SymValue::Cell(CellId(n))
    }

    fn numbers(count: u32) -> Sixteen {
        Sixteen::new((0..count).map(number).collect())
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
        // A chunk the sequence owns alone is written in place.
        let before = Rc::as_ptr(&b.chunks[1]);
        *b.get_mut(18).unwrap() = SymValue::Null;
        assert_eq!(Rc::as_ptr(&b.chunks[1]), before);
    }

    #[test]
    fn indices_iteration_and_length_agree_with_a_vector() {
        for count in [0, 1, 15, 16, 17, 40] {
            let values = numbers(count);
            assert_eq!(values.len(), count as usize);
            let seen: Vec<&SymValue> = values.iter().collect();
            assert_eq!(seen.len(), count as usize);
            for (i, value) in seen.iter().enumerate() {
                assert_eq!(*value, &number(i as u32));
                assert_eq!(values.get(i), Some(*value));
            }
            assert_eq!(values.get(count as usize), None);
            assert_eq!(values.last(), seen.last().copied());
        }
    }

    #[test]
    fn equal_values_are_equal_sequences_however_shared() {
        let a = numbers(40);
        let mut b = a.clone();
        *b.get_mut(20).unwrap() = SymValue::Null;
        assert_ne!(a, b);
        *b.get_mut(20).unwrap() = number(20);
        assert!(!Rc::ptr_eq(&a.chunks[1], &b.chunks[1]));
        assert_eq!(a, b);
        let hash = |s: &Sixteen| {
            use std::hash::{BuildHasher, BuildHasherDefault};
            BuildHasherDefault::<rustc_hash::FxHasher>::default().hash_one(s)
        };
        assert_eq!(hash(&a), hash(&b));
    }

    #[test]
    fn replace_and_zip_copy_only_what_changes() {
        let a = numbers(40);
        let the_33rd = |v: &SymValue| Ok::<_, ()>((*v == number(33)).then_some(SymValue::Null));
        let b = a.replaced(the_33rd).unwrap().expect("the 33rd changes");
        assert_eq!(b.replaced(the_33rd), Ok(None));
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
