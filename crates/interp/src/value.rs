//! Runtime values of micro-c: numbers, null, pointers to cells, records, arrays, and `Uninit`.
//!
//! Records and arrays are *values* (`b = a` copies): they sit behind an `Rc` and are copied on
//! write with `Rc::make_mut`, so a copy is O(1) and only a write pays. Every aggregate carries an
//! upper bound of its nesting depth so that dropping, comparing or printing a value never recurses
//! deeper than the interpreter's nesting limit. Nothing here touches memory cells or frames.

use std::rc::Rc;

use symex_ir::cfg::FieldId;

/// The identity of a memory cell (a heap cell from `alloc`, or the cell of an address-taken
/// local). Pointer equality is cell identity.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CellId(pub u32);

impl CellId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// One micro-c value. Kept at 16 bytes: the interpreter moves these around on every instruction.
#[derive(Clone, Debug, PartialEq, Default)]
pub enum Value {
    /// A `var` local or a cell that was never assigned.
    #[default]
    Uninit,
    Int(i32),
    /// A 64-bit number (C's `long long`).
    Int64(i64),
    Null,
    Ptr(CellId),
    Record(Rc<Record>),
    Array(Rc<Array>),
}

/// A record value: fields sorted by [`FieldId`], no duplicates.
#[derive(Clone, Debug)]
pub struct Record {
    depth: u32,
    fields: Vec<(FieldId, Value)>,
}

/// A fixed-length array value.
#[derive(Clone, Debug)]
pub struct Array {
    depth: u32,
    items: Vec<Value>,
}

impl Value {
    /// A short name of the value's kind, for type-error messages ("a number", "null", ...).
    pub fn kind_name(&self) -> &'static str {
        match self {
            Value::Uninit => "an uninitialized value",
            Value::Int(_) => "a number",
            Value::Int64(_) => "a 64-bit number",
            Value::Null => "null",
            Value::Ptr(_) => "a pointer",
            Value::Record(_) => "a record",
            Value::Array(_) => "an array",
        }
    }

    /// Nesting depth: 0 for scalars, 1 + the deepest element for aggregates (an upper bound).
    pub fn depth(&self) -> u32 {
        match self {
            Value::Record(r) => r.depth,
            Value::Array(a) => a.depth,
            _ => 0,
        }
    }

    pub fn as_int(&self) -> Option<i32> {
        match *self {
            Value::Int(n) => Some(n),
            _ => None,
        }
    }

    /// Builds an array value, one level deeper than its deepest element (the interpreter checks
    /// the result against its nesting limit).
    pub fn array(items: Vec<Value>) -> Value {
        let depth = 1u32.saturating_add(items.iter().map(Value::depth).max().unwrap_or(0));
        Value::Array(Rc::new(Array { depth, items }))
    }

    /// Builds a record value from fields sorted by id.
    pub fn record(fields: Vec<(FieldId, Value)>) -> Value {
        let depth = 1u32.saturating_add(fields.iter().map(|(_, v)| v.depth()).max().unwrap_or(0));
        Value::Record(Rc::new(Record { depth, fields }))
    }
}

impl Record {
    pub fn fields(&self) -> &[(FieldId, Value)] {
        &self.fields
    }

    pub fn get(&self, field: FieldId) -> Option<&Value> {
        self.fields
            .iter()
            .find(|(f, _)| *f == field)
            .map(|(_, v)| v)
    }

    /// The field's slot; also raises the recorded depth to `min_depth` because the caller is
    /// about to store something that deep (minus one) into it.
    pub(crate) fn get_mut_for_store(
        &mut self,
        field: FieldId,
        min_depth: u32,
    ) -> Option<&mut Value> {
        self.depth = self.depth.max(min_depth);
        self.fields
            .iter_mut()
            .find(|(f, _)| *f == field)
            .map(|(_, v)| v)
    }
}

impl Array {
    pub fn items(&self) -> &[Value] {
        &self.items
    }

    pub fn len(&self) -> usize {
        self.items.len()
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// The element slot; raises the recorded depth like [`Record::get_mut_for_store`].
    pub(crate) fn get_mut_for_store(&mut self, index: usize, min_depth: u32) -> Option<&mut Value> {
        self.depth = self.depth.max(min_depth);
        self.items.get_mut(index)
    }
}

// Depth is only a bound, so equality ignores it.
impl PartialEq for Record {
    fn eq(&self, other: &Record) -> bool {
        self.fields == other.fields
    }
}

impl PartialEq for Array {
    fn eq(&self, other: &Array) -> bool {
        self.items == other.items
    }
}

/// Whether `index` (a micro-c number) is a valid index of an array of length `len`.
pub fn index_in_bounds(index: i32, len: usize) -> Option<usize> {
    usize::try_from(index).ok().filter(|&i| i < len)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn value_is_sixteen_bytes() {
        assert!(std::mem::size_of::<Value>() <= 16);
    }

    #[test]
    fn copies_are_independent_after_a_write() {
        let a = Value::array(vec![Value::Int(1), Value::Int(2)]);
        let mut b = a.clone();
        if let Value::Array(rc) = &mut b {
            *Rc::make_mut(rc).get_mut_for_store(0, 0).unwrap() = Value::Int(9);
        }
        assert_eq!(a, Value::array(vec![Value::Int(1), Value::Int(2)]));
        assert_eq!(b, Value::array(vec![Value::Int(9), Value::Int(2)]));
    }

    #[test]
    fn depth_counts_nesting() {
        let inner = Value::array(vec![Value::Int(1)]);
        let outer = Value::array(vec![inner.clone(), Value::Int(0)]);
        assert_eq!(inner.depth(), 1);
        assert_eq!(outer.depth(), 2);
        let rec = Value::record(vec![(FieldId(0), outer)]);
        assert_eq!(rec.depth(), 3);
        assert_eq!(Value::Int(3).depth(), 0);
    }

    #[test]
    fn record_lookup_by_field() {
        let r = Value::record(vec![(FieldId(1), Value::Int(5)), (FieldId(3), Value::Null)]);
        let Value::Record(r) = r else { unreachable!() };
        assert_eq!(r.get(FieldId(1)), Some(&Value::Int(5)));
        assert_eq!(r.get(FieldId(2)), None);
    }

    #[test]
    fn bounds() {
        assert_eq!(index_in_bounds(0, 2), Some(0));
        assert_eq!(index_in_bounds(1, 2), Some(1));
        assert_eq!(index_in_bounds(2, 2), None);
        assert_eq!(index_in_bounds(-1, 2), None);
        assert_eq!(index_in_bounds(i32::MIN, 0), None);
    }
}
