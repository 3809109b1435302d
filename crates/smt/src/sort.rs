//! Sorts: Bool, bit-vectors of width `1..=128`, mathematical integers and arrays.
//!
//! A [`Sort`] is a small `Copy` value. Array sorts are hash-consed in a [`SortTable`] (owned by
//! the term store), so two array sorts are equal exactly when their index and element sorts
//! are. This module only describes sorts; it does not build terms.

use rustc_hash::FxHashMap;

use crate::bv::check_width;
use crate::error::TermError;

/// An interned array sort; meaningful only with the [`SortTable`] that made it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct ArraySortId(u32);

/// The sort of a term.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum Sort {
    /// Booleans.
    Bool,
    /// Bit-vectors of the given width (`1..=128`).
    BitVec(u32),
    /// Mathematical (unbounded) integers; constants are limited to `i128`.
    Int,
    /// Arrays; the index and element sorts are in the store's [`SortTable`].
    Array(ArraySortId),
}

/// The interning table of array sorts.
#[derive(Clone, Debug, Default)]
pub struct SortTable {
    arrays: Vec<(Sort, Sort)>,
    index: FxHashMap<(Sort, Sort), ArraySortId>,
}

impl SortTable {
    /// The array sort from `index` to `element`.
    pub fn array(&mut self, index: Sort, element: Sort) -> Result<Sort, TermError> {
        self.check(index)?;
        self.check(element)?;
        if let Some(&id) = self.index.get(&(index, element)) {
            return Ok(Sort::Array(id));
        }
        let id = ArraySortId(
            u32::try_from(self.arrays.len())
                .map_err(|_| TermError::Unknown("array sort (the table is full)".to_string()))?,
        );
        self.arrays.push((index, element));
        self.index.insert((index, element), id);
        Ok(Sort::Array(id))
    }

    /// The index and element sorts of an array sort, or `None` for other sorts.
    pub fn array_parts(&self, sort: Sort) -> Option<(Sort, Sort)> {
        match sort {
            Sort::Array(id) => self.arrays.get(id.0 as usize).copied(),
            _ => None,
        }
    }

    /// Checks that a sort is well formed here (valid width, known array sort).
    pub fn check(&self, sort: Sort) -> Result<(), TermError> {
        match sort {
            Sort::Bool | Sort::Int => Ok(()),
            Sort::BitVec(w) => check_width("bit-vector sort", u64::from(w)).map(|_| ()),
            Sort::Array(id) => {
                if (id.0 as usize) < self.arrays.len() {
                    Ok(())
                } else {
                    Err(TermError::Unknown(format!("array sort #{}", id.0)))
                }
            }
        }
    }

    /// The SMT-LIB2 text of a sort, e.g. `(Array (_ BitVec 32) Bool)`.
    pub fn to_smtlib(&self, sort: Sort) -> String {
        let mut out = String::new();
        self.write_smtlib(sort, &mut out);
        out
    }

    fn write_smtlib(&self, sort: Sort, out: &mut String) {
        match sort {
            Sort::Bool => out.push_str("Bool"),
            Sort::Int => out.push_str("Int"),
            Sort::BitVec(w) => {
                out.push_str("(_ BitVec ");
                out.push_str(&w.to_string());
                out.push(')');
            }
            Sort::Array(_) => match self.array_parts(sort) {
                Some((i, e)) => {
                    out.push_str("(Array ");
                    self.write_smtlib(i, out);
                    out.push(' ');
                    self.write_smtlib(e, out);
                    out.push(')');
                }
                None => out.push_str("<unknown array sort>"),
            },
        }
    }

    /// The number of values of a sort, when it is finite and below `2^127`; `None` otherwise.
    /// Arrays count as infinite (used only to compare array values extensionally).
    pub fn domain_size(&self, sort: Sort) -> Option<u128> {
        match sort {
            Sort::Bool => Some(2),
            Sort::BitVec(w) if w < 127 => Some(1u128 << w),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn array_sorts_are_interned() {
        let mut t = SortTable::default();
        let a = t.array(Sort::BitVec(32), Sort::BitVec(8)).expect("valid");
        let b = t.array(Sort::BitVec(32), Sort::BitVec(8)).expect("valid");
        let c = t.array(Sort::Int, a).expect("valid");
        assert_eq!(a, b);
        assert_ne!(a, c);
        assert_eq!(t.array_parts(c), Some((Sort::Int, a)));
        assert_eq!(
            t.to_smtlib(c),
            "(Array Int (Array (_ BitVec 32) (_ BitVec 8)))"
        );
    }

    #[test]
    fn bad_sorts_are_rejected() {
        let mut t = SortTable::default();
        assert!(t.array(Sort::BitVec(0), Sort::Bool).is_err());
        assert!(t.check(Sort::BitVec(129)).is_err());
        assert!(t.check(Sort::Array(ArraySortId(7))).is_err());
        assert_eq!(t.domain_size(Sort::BitVec(8)), Some(256));
        assert_eq!(t.domain_size(Sort::Int), None);
    }
}
