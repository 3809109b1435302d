//! Concrete values of terms: what models contain and what the evaluator computes.
//!
//! Arrays are finite maps with a default ([`ArrayValue`]), kept normalised (no entry equal to
//! the default) so that equal functions over an infinite or large index domain have equal
//! representations. This module knows nothing about solvers or terms.

use std::collections::BTreeMap;
use std::fmt;

use crate::bv::BvConst;
use crate::sort::{Sort, SortTable};

/// A concrete value.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Value {
    /// A Boolean.
    Bool(bool),
    /// A bit-vector.
    Bv(BvConst),
    /// An integer (limited to `i128`).
    Int(i128),
    /// An array.
    Array(ArrayValue),
}

/// An array value: `default` everywhere except at the indices of `entries`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ArrayValue {
    default: Box<Value>,
    entries: BTreeMap<Value, Value>,
}

impl ArrayValue {
    /// The array that is `default` everywhere.
    pub fn constant(default: Value) -> Self {
        ArrayValue {
            default: Box::new(default),
            entries: BTreeMap::new(),
        }
    }

    /// The element at `index`.
    pub fn get(&self, index: &Value) -> &Value {
        self.entries.get(index).unwrap_or(&self.default)
    }

    /// Writes `value` at `index` (keeping the representation normalised).
    pub fn set(&mut self, index: Value, value: Value) {
        if value == *self.default {
            self.entries.remove(&index);
        } else {
            self.entries.insert(index, value);
        }
    }

    /// The default element.
    pub fn default_value(&self) -> &Value {
        &self.default
    }

    /// The indices where the array differs from its default, in order.
    pub fn entries(&self) -> impl Iterator<Item = (&Value, &Value)> {
        self.entries.iter()
    }

    /// Extensional equality, given the number of indices (`None`: infinite or huge). It differs
    /// from `==` only when the explicit entries cover the whole index domain.
    pub fn equals(&self, other: &ArrayValue, domain_size: Option<u128>) -> bool {
        let keys: std::collections::BTreeSet<&Value> =
            self.entries.keys().chain(other.entries.keys()).collect();
        if keys.iter().any(|k| self.get(k) != other.get(k)) {
            return false;
        }
        let covered = domain_size.is_some_and(|n| n <= keys.len() as u128);
        covered || self.default == other.default
    }
}

impl Value {
    /// The Boolean, if this is one.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// The bit-vector, if this is one.
    pub fn as_bv(&self) -> Option<BvConst> {
        match self {
            Value::Bv(c) => Some(*c),
            _ => None,
        }
    }

    /// The integer, if this is one.
    pub fn as_int(&self) -> Option<i128> {
        match self {
            Value::Int(i) => Some(*i),
            _ => None,
        }
    }

    /// The array, if this is one.
    pub fn as_array(&self) -> Option<&ArrayValue> {
        match self {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }

    /// The default value of a sort: false, zero, or the constant array of the default.
    pub fn default_of(sorts: &SortTable, sort: Sort) -> Value {
        match sort {
            Sort::Bool => Value::Bool(false),
            Sort::BitVec(w) => Value::Bv(BvConst::zero(w)),
            Sort::Int => Value::Int(0),
            Sort::Array(_) => match sorts.array_parts(sort) {
                Some((_, e)) => Value::Array(ArrayValue::constant(Value::default_of(sorts, e))),
                None => Value::Bool(false),
            },
        }
    }

    /// Whether this value belongs to `sort`.
    pub fn has_sort(&self, sorts: &SortTable, sort: Sort) -> bool {
        match (self, sort) {
            (Value::Bool(_), Sort::Bool) | (Value::Int(_), Sort::Int) => true,
            (Value::Bv(c), Sort::BitVec(w)) => c.width() == w,
            (Value::Array(a), Sort::Array(_)) => match sorts.array_parts(sort) {
                Some((i, e)) => {
                    a.default.has_sort(sorts, e)
                        && a.entries
                            .iter()
                            .all(|(k, v)| k.has_sort(sorts, i) && v.has_sort(sorts, e))
                }
                None => false,
            },
            _ => false,
        }
    }
}

impl fmt::Display for Value {
    /// Booleans as `true`/`false`, bit-vectors as unsigned decimal with the width
    /// (`42:bv32`), integers in decimal, arrays as `[i -> v, ..., else -> d]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Bool(b) => write!(f, "{b}"),
            Value::Bv(c) => write!(f, "{}:bv{}", c.bits(), c.width()),
            Value::Int(i) => write!(f, "{i}"),
            Value::Array(a) => {
                write!(f, "[")?;
                for (k, v) in &a.entries {
                    write!(f, "{k} -> {v}, ")?;
                }
                write!(f, "else -> {}]", a.default)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bv8(v: u128) -> Value {
        Value::Bv(BvConst::new(8, v).expect("valid"))
    }

    #[test]
    fn arrays_stay_normalised() {
        let mut a = ArrayValue::constant(bv8(0));
        a.set(bv8(1), bv8(5));
        a.set(bv8(2), bv8(0));
        assert_eq!(a.entries().count(), 1);
        assert_eq!(a.get(&bv8(1)), &bv8(5));
        assert_eq!(a.get(&bv8(9)), &bv8(0));
        a.set(bv8(1), bv8(0));
        assert_eq!(a, ArrayValue::constant(bv8(0)));
    }

    #[test]
    fn extensional_equality_over_a_covered_domain() {
        // Bool -> Bool arrays: {false->true, true->true, else false} equals const true.
        let mut a = ArrayValue::constant(Value::Bool(false));
        a.set(Value::Bool(false), Value::Bool(true));
        a.set(Value::Bool(true), Value::Bool(true));
        let b = ArrayValue::constant(Value::Bool(true));
        assert!(a.equals(&b, Some(2)));
        assert!(!a.equals(&b, None));
    }

    #[test]
    fn display_and_sorts() {
        let mut t = SortTable::default();
        let arr = t.array(Sort::BitVec(8), Sort::BitVec(8)).expect("sort");
        let d = Value::default_of(&t, arr);
        assert!(d.has_sort(&t, arr));
        assert!(!bv8(1).has_sort(&t, Sort::BitVec(9)));
        assert_eq!(bv8(42).to_string(), "42:bv8");
        assert_eq!(d.to_string(), "[else -> 0:bv8]");
    }
}
