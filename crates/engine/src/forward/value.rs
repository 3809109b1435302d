//! Symbolic values of the forward engine and the term-level questions asked about them.
//!
//! Numbers are 32-bit terms; pointers are concrete (allocation is concrete: a cell id or null);
//! records and arrays are values with a concrete shape (arrays have a concrete length). An
//! `Ite` value stands for "one of two values under a condition": state merging creates them for
//! pointers and aggregates, and symbolic array indices in ite mode create them for elements that
//! are not numbers. Every question (is it null, are two pointers equal, is it uninitialized) is
//! answered with a Boolean term that is constant for concrete values, so concrete programs never
//! reach the solver. An array of numbers written at a symbolic index may be a write log
//! instead (`forward/write_log.rs`). A `Ref` is a pointer into a symbolic input heap (`crate::heap`): a 32-bit
//! term over the input reference symbols, 0 being null; it never equals a cell. Nothing here
//! reads memory or the path condition.

use std::rc::Rc;

use rustc_hash::FxHashMap;

use symex_ir::cfg::FieldId;
use symex_smt::{TermId, TermStore};

use crate::common::terms;
use crate::error::EngineError;
use crate::forward::chunked::Chunked;
use crate::forward::write_log::WriteLog;

/// A memory cell: an `alloc` cell or the cell of an address-taken local (one per activation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CellId(pub u32);

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum SymValue {
    Int(TermId),
    Null,
    Cell(CellId),
    /// Fields sorted by id.
    Record(Rc<[(FieldId, SymValue)]>),
    Array(Elements),
    /// An array of numbers as its elements before writes at symbolic indices and those
    /// writes (`forward/write_log.rs`).
    Logged(Rc<WriteLog>),
    Uninit,
    /// `cond ? then : else`.
    Ite(TermId, Rc<SymValue>, Rc<SymValue>),
    /// A pointer into the input heap of a heap model, as a term (0 is null).
    Ref(TermId),
}

/// Elements per chunk of an array value: arrays up to this length are one chunk.
pub(crate) const ARRAY_CHUNK: usize = 128;

/// An array value's elements, shared by chunks (`forward/chunked.rs`): a write to an array
/// that another state shares (after a fork) copies one chunk, not the whole array. A
/// 100,000-element array written on each iteration of a forking loop was copied whole each
/// time, 77 % of the run (`array-industry-pattern/array_ptr_single_elem_init-2`).
pub type Elements = Rc<Chunked<ARRAY_CHUNK>>;

/// A located projection: a field, or an index already turned into a term.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Step {
    Field(FieldId),
    Index(TermId),
}

type Result<T> = std::result::Result<T, EngineError>;

fn shape_error(what: &str, value: &SymValue) -> EngineError {
    EngineError::Internal(format!("expected {what}, found {}", describe(value)))
}

fn describe(value: &SymValue) -> &'static str {
    match value {
        SymValue::Int(_) => "a number",
        SymValue::Null | SymValue::Cell(_) | SymValue::Ref(_) => "a pointer",
        SymValue::Record(_) => "a record",
        SymValue::Array(_) | SymValue::Logged(_) => "an array",
        SymValue::Uninit => "an uninitialized value",
        SymValue::Ite(..) => "a conditional value",
    }
}

impl SymValue {
    /// The array of `items`, in order.
    pub fn array(items: Vec<SymValue>) -> SymValue {
        SymValue::Array(Rc::new(Chunked::new(items)))
    }

    /// `cond ? a : b`, folded when the condition is constant or both sides are equal; two
    /// numbers become one `ite` term, two records of the same fields one record.
    pub fn ite(store: &mut TermStore, cond: TermId, a: SymValue, b: SymValue) -> Result<SymValue> {
        match store.as_bool(cond) {
            Some(true) => return Ok(a),
            Some(false) => return Ok(b),
            None => {}
        }
        if a == b {
            return Ok(a);
        }
        if matches!(a, SymValue::Logged(_)) || matches!(b, SymValue::Logged(_)) {
            let (a, b) = (a.materialized(store)?, b.materialized(store)?);
            return SymValue::ite(store, cond, a, b);
        }
        match (&a, &b) {
            (SymValue::Int(x), SymValue::Int(y)) => {
                return Ok(SymValue::Int(store.ite(cond, *x, *y)?))
            }
            (SymValue::Ref(x), SymValue::Ref(y)) => {
                return Ok(SymValue::Ref(store.ite(cond, *x, *y)?))
            }
            // Field by field: a record written through pointers that may alias it is then one
            // record of `ite`s, which a later write of one field updates in one place, not an
            // `ite` of whole records that every write copies and wraps once more (a red-black
            // tree's new node, written through POSE references, was 1,400 such `ite`s deep and
            // each write took longer than the check's time limit).
            (SymValue::Record(x), SymValue::Record(y))
                if x.len() == y.len() && x.iter().zip(y.iter()).all(|(f, g)| f.0 == g.0) =>
            {
                let mut fields = Vec::with_capacity(x.len());
                for ((field, u), (_, v)) in x.iter().zip(y.iter()) {
                    fields.push((*field, SymValue::ite(store, cond, u.clone(), v.clone())?));
                }
                return Ok(SymValue::Record(fields.into()));
            }
            // Element by element, for the same reason: a byte array written through a pointer
            // that may denote two cells (a union's bytes in `ua[x & 1]`) was an `ite` of whole
            // arrays nested once more by every byte written, and each read walked both sides of
            // every level (time and memory doubling with each write).
            (SymValue::Array(x), SymValue::Array(y)) if x.len() == y.len() => {
                let items =
                    x.zip_with(y, |u, v| SymValue::ite(store, cond, u.clone(), v.clone()))?;
                return Ok(SymValue::Array(Rc::new(items)));
            }
            _ => {}
        }
        Ok(SymValue::Ite(cond, Rc::new(a), Rc::new(b)))
    }

    /// A write log as its elements; any other value as it is.
    fn materialized(self, store: &mut TermStore) -> Result<SymValue> {
        Ok(match self {
            SymValue::Logged(log) => SymValue::Array(log.materialize(store)?),
            other => other,
        })
    }

    /// The number this value holds on every feasible path: branches that are not numbers
    /// (uninitialized, which a preceding `Init` check excluded) are left out.
    pub fn as_int(&self, store: &mut TermStore) -> Result<TermId> {
        self.int_part(store)?
            .ok_or_else(|| shape_error("a number", self))
    }

    fn int_part(&self, store: &mut TermStore) -> Result<Option<TermId>> {
        Ok(match self {
            SymValue::Int(t) => Some(*t),
            SymValue::Ite(c, a, b) => match (a.int_part(store)?, b.int_part(store)?) {
                (Some(x), Some(y)) => Some(store.ite(*c, x, y)?),
                (x, None) => x,
                (None, y) => y,
            },
            _ => None,
        })
    }

    /// The number if this value is one, without failing (for traces).
    pub fn int_if_any(&self, store: &mut TermStore) -> Option<TermId> {
        self.int_part(store).ok().flatten()
    }

    /// Whether the value is a pointer somewhere (so `==` compares pointers).
    pub fn is_pointer_like(&self) -> bool {
        match self {
            SymValue::Null | SymValue::Cell(_) | SymValue::Ref(_) => true,
            SymValue::Ite(_, a, b) => a.is_pointer_like() || b.is_pointer_like(),
            _ => false,
        }
    }

    /// `self == null` as a Boolean term.
    pub fn is_null(&self, store: &mut TermStore) -> Result<TermId> {
        self.is_null_memo(store, &mut FxHashMap::default())
    }

    /// `is_null`, each shared `ite` node once (see [`address`]).
    fn is_null_memo(
        &self,
        store: &mut TermStore,
        memo: &mut FxHashMap<usize, TermId>,
    ) -> Result<TermId> {
        if let Some(&t) = memo.get(&address(self)) {
            return Ok(t);
        }
        let t = match self {
            SymValue::Null => store.bool_val(true)?,
            // An uninitialized pointer is excluded by its own `Init` check.
            SymValue::Cell(_) | SymValue::Uninit => store.bool_val(false)?,
            SymValue::Ref(t) => {
                let null = terms::int_const(store, 0)?;
                store.eq(*t, null)?
            }
            SymValue::Ite(c, a, b) => {
                let x = a.is_null_memo(store, memo)?;
                let y = b.is_null_memo(store, memo)?;
                store.ite(*c, x, y)?
            }
            other => return Err(shape_error("a pointer", other)),
        };
        memo.insert(address(self), t);
        Ok(t)
    }

    /// `self == other` for pointers, as a Boolean term.
    pub fn pointer_eq(&self, other: &SymValue, store: &mut TermStore) -> Result<TermId> {
        self.pointer_eq_memo(other, store, &mut FxHashMap::default())
    }

    /// `pointer_eq` memoized by the addresses of the two values compared (see [`address`]):
    /// rbt_put at depth 10 spent minutes in one comparison `g->left == parent`.
    fn pointer_eq_memo(
        &self,
        other: &SymValue,
        store: &mut TermStore,
        memo: &mut FxHashMap<(usize, usize), TermId>,
    ) -> Result<TermId> {
        let key = (address(self), address(other));
        if let Some(&t) = memo.get(&key) {
            return Ok(t);
        }
        let t = match (self, other) {
            (SymValue::Ite(c, a, b), _) => {
                let x = a.pointer_eq_memo(other, store, memo)?;
                let y = b.pointer_eq_memo(other, store, memo)?;
                store.ite(*c, x, y)?
            }
            (_, SymValue::Ite(..)) => other.pointer_eq_memo(self, store, memo)?,
            (SymValue::Null, SymValue::Null) => store.bool_val(true)?,
            (SymValue::Cell(x), SymValue::Cell(y)) => store.bool_val(x == y)?,
            (SymValue::Null, SymValue::Cell(_)) | (SymValue::Cell(_), SymValue::Null) => {
                store.bool_val(false)?
            }
            (SymValue::Ref(x), SymValue::Ref(y)) => store.eq(*x, *y)?,
            (SymValue::Ref(_), SymValue::Null) => self.is_null(store)?,
            (SymValue::Null, SymValue::Ref(_)) => other.is_null(store)?,
            // Input cells are never `alloc` cells: equal only if both are null, and a cell is not.
            (SymValue::Ref(_), SymValue::Cell(_)) | (SymValue::Cell(_), SymValue::Ref(_)) => {
                store.bool_val(false)?
            }
            // Uninitialized operands are excluded by their checks; any answer is sound.
            (SymValue::Uninit, _) | (_, SymValue::Uninit) => store.bool_val(false)?,
            (a, _) => return Err(shape_error("two pointers", a)),
        };
        memo.insert(key, t);
        Ok(t)
    }

    /// Whether the value at `steps` below this one is uninitialized, as a Boolean term (an
    /// uninitialized value on the way counts, as in the interpreter).
    pub fn uninit_at(&self, steps: &[Step], store: &mut TermStore) -> Result<TermId> {
        self.uninit_at_memo(steps, store, &mut FxHashMap::default())
    }

    /// `uninit_at`, each shared value once per suffix of `steps` (see [`address`]).
    fn uninit_at_memo(
        &self,
        steps: &[Step],
        store: &mut TermStore,
        memo: &mut FxHashMap<(usize, usize), TermId>,
    ) -> Result<TermId> {
        let key = (address(self), steps.len());
        if let Some(&t) = memo.get(&key) {
            return Ok(t);
        }
        let t = self.uninit_at_uncached(steps, store, memo)?;
        memo.insert(key, t);
        Ok(t)
    }

    fn uninit_at_uncached(
        &self,
        steps: &[Step],
        store: &mut TermStore,
        memo: &mut FxHashMap<(usize, usize), TermId>,
    ) -> Result<TermId> {
        match self {
            SymValue::Uninit => return Ok(store.bool_val(true)?),
            SymValue::Ite(c, a, b) => {
                let x = a.uninit_at_memo(steps, store, memo)?;
                let y = b.uninit_at_memo(steps, store, memo)?;
                return Ok(store.ite(*c, x, y)?);
            }
            _ => {}
        }
        let Some((first, rest)) = steps.split_first() else {
            return Ok(store.bool_val(false)?);
        };
        match (first, self) {
            (Step::Field(f), SymValue::Record(_)) => match self.field(*f) {
                Some(value) => value.uninit_at_memo(rest, store, memo),
                None => Ok(store.bool_val(false)?),
            },
            (Step::Index(i), SymValue::Array(items)) => {
                let Some(last) = items.last() else {
                    return Ok(store.bool_val(false)?);
                };
                if let Some(k) = constant_index(store, *i) {
                    return match items.get(k) {
                        Some(item) => item.uninit_at_memo(rest, store, memo),
                        None => Ok(store.bool_val(false)?),
                    };
                }
                let mut acc = last.uninit_at_memo(rest, store, memo)?;
                for k in (0..items.len() - 1).rev() {
                    let here = items[k].uninit_at_memo(rest, store, memo)?;
                    let is_k = index_is(store, *i, k)?;
                    acc = store.ite(is_k, here, acc)?;
                }
                Ok(acc)
            }
            (Step::Index(i), SymValue::Logged(log)) => log.uninit(*i, rest, store),
            (_, other) => Err(shape_error("a record or an array", other)),
        }
    }

    /// The field `f` of a record value, if it has one. A record without it is reached only
    /// through a conditional pointer whose other objects the path condition keeps (a C
    /// `void *` may point to objects of several record types, and the front end's check of
    /// the type tag excludes the others before the access): such a read or write is excluded
    /// as an index out of bounds is.
    ///
    /// A reference, not a copy: the memoized walks key values by their addresses
    /// ([`address`]), and copies made one after another on the stack share an address (an
    /// array of records read at a symbolic index took every element's field for the first
    /// one's).
    pub(crate) fn field(&self, f: FieldId) -> Option<&SymValue> {
        match self {
            SymValue::Record(fields) => fields.iter().find(|(id, _)| *id == f).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The value `steps` below this one.
    pub fn project(&self, steps: &[Step], store: &mut TermStore) -> Result<SymValue> {
        let Some((first, rest)) = steps.split_first() else {
            return Ok(self.clone());
        };
        match (first, self) {
            (_, SymValue::Ite(c, a, b)) => {
                let (x, y) = (a.project(steps, store)?, b.project(steps, store)?);
                SymValue::ite(store, *c, x, y)
            }
            // Excluded by the `Init` check before the access; keep the shape.
            (_, SymValue::Uninit) => Ok(SymValue::Uninit),
            (Step::Field(f), SymValue::Record(_)) => match self.field(*f) {
                Some(value) => value.project(rest, store),
                // Excluded by the type check before the access ([`SymValue::field`]).
                None => Ok(SymValue::Uninit),
            },
            (Step::Index(i), SymValue::Array(items)) => {
                if let Some(k) = constant_index(store, *i) {
                    return match items.get(k) {
                        Some(item) => item.project(rest, store),
                        // Excluded by the `InBounds` check before the access.
                        None => Ok(SymValue::Uninit),
                    };
                }
                let Some(last) = items.last() else {
                    return Ok(SymValue::Uninit);
                };
                // Out-of-range indices are excluded by the bounds check: the last element
                // stands for them.
                let mut acc = last.project(rest, store)?;
                for k in (0..items.len() - 1).rev() {
                    let here = items[k].project(rest, store)?;
                    let is_k = index_is(store, *i, k)?;
                    acc = SymValue::ite(store, is_k, here, acc)?;
                }
                Ok(acc)
            }
            (Step::Index(i), SymValue::Logged(log)) => log.read(*i, rest, store),
            (_, other) => Err(shape_error("a record or an array", other)),
        }
    }

    /// [`SymValue::update`] in place: a record or array that no other state shares is written
    /// where it is (`Rc::make_mut` copies one that is shared), so a loop filling an array of N
    /// elements costs O(N), not O(N²). Conditional values and symbolic indices take the
    /// copying path.
    pub fn update_in_place(
        &mut self,
        steps: &[Step],
        new: SymValue,
        store: &mut TermStore,
    ) -> Result<()> {
        let Some((first, rest)) = steps.split_first() else {
            *self = new;
            return Ok(());
        };
        let index = match first {
            Step::Index(i) => constant_index(store, *i),
            Step::Field(_) => None,
        };
        match (first, index, &mut *self) {
            (Step::Field(f), _, SymValue::Record(fields)) => {
                let fields = Rc::make_mut(fields);
                match fields.iter_mut().find(|(id, _)| id == f) {
                    Some(slot) => slot.1.update_in_place(rest, new, store),
                    // Excluded by the type check before the access ([`SymValue::field`]).
                    None => Ok(()),
                }
            }
            // An index out of range is excluded by the bounds check before the write.
            (Step::Index(_), Some(k), SymValue::Array(items)) => {
                if let Some(item) = Rc::make_mut(items).get_mut(k) {
                    item.update_in_place(rest, new, store)?;
                }
                Ok(())
            }
            (&Step::Index(i), _, SymValue::Logged(log)) => {
                if let Some(elements) = WriteLog::write_in_place(log, i, rest, new, store)? {
                    *self = elements;
                }
                Ok(())
            }
            _ => {
                *self = self.update(steps, new, store)?;
                Ok(())
            }
        }
    }

    /// This value with the part `steps` below it replaced by `new`.
    pub fn update(&self, steps: &[Step], new: SymValue, store: &mut TermStore) -> Result<SymValue> {
        let Some((first, rest)) = steps.split_first() else {
            return Ok(new);
        };
        match (first, self) {
            (_, SymValue::Ite(c, a, b)) => {
                let x = a.update(steps, new.clone(), store)?;
                let y = b.update(steps, new, store)?;
                SymValue::ite(store, *c, x, y)
            }
            (_, SymValue::Uninit) => Ok(SymValue::Uninit),
            (Step::Field(f), SymValue::Record(fields)) => {
                let mut out: Vec<(FieldId, SymValue)> = fields.to_vec();
                match out.iter_mut().find(|(id, _)| id == f) {
                    Some(slot) => slot.1 = slot.1.update(rest, new, store)?,
                    // Excluded by the type check before the access ([`SymValue::field`]).
                    None => return Ok(self.clone()),
                }
                Ok(SymValue::Record(out.into()))
            }
            (Step::Index(i), SymValue::Array(items)) => {
                if let Some(k) = constant_index(store, *i) {
                    let mut out = Chunked::clone(items);
                    if let Some(item) = out.get_mut(k) {
                        *item = item.update(rest, new, store)?;
                    }
                    return Ok(SymValue::Array(Rc::new(out)));
                }
                if let Some(log) = WriteLog::start(items, *i, rest, &new) {
                    return Ok(SymValue::Logged(Rc::new(log)));
                }
                let mut out = Vec::with_capacity(items.len());
                for (k, item) in items.iter().enumerate() {
                    let updated = item.update(rest, new.clone(), store)?;
                    let is_k = index_is(store, *i, k)?;
                    out.push(SymValue::ite(store, is_k, updated, item.clone())?);
                }
                Ok(SymValue::array(out))
            }
            (Step::Index(i), SymValue::Logged(log)) => log.written(*i, rest, new, store),
            (_, other) => Err(shape_error("a record or an array", other)),
        }
    }

    /// `index <s 0 ∨ index >=s len` for the array this value is, as a Boolean term.
    pub fn out_of_bounds(&self, index: TermId, store: &mut TermStore) -> Result<TermId> {
        match self {
            SymValue::Array(_) | SymValue::Logged(_) => {
                let zero = terms::int_const(store, 0)?;
                let len = terms::int_const(store, self.max_len() as i32)?;
                let below = store.bv_slt(index, zero)?;
                let above = store.bv_sge(index, len)?;
                Ok(store.or(below, above)?)
            }
            SymValue::Ite(c, a, b) => {
                let (x, y) = (
                    a.out_of_bounds(index, store)?,
                    b.out_of_bounds(index, store)?,
                );
                Ok(store.ite(*c, x, y)?)
            }
            // Excluded by the `Init` check before the access.
            SymValue::Uninit => Ok(store.bool_val(false)?),
            other => Err(shape_error("an array", other)),
        }
    }

    /// The length of this array value, as a term (an `ite` of lengths where merged).
    pub fn length(&self, store: &mut TermStore) -> Result<TermId> {
        match self {
            SymValue::Array(_) | SymValue::Logged(_) => {
                Ok(terms::int_const(store, self.max_len() as i32)?)
            }
            SymValue::Ite(c, a, b) => {
                let (x, y) = (a.length(store)?, b.length(store)?);
                Ok(store.ite(*c, x, y)?)
            }
            other => Err(shape_error("an array", other)),
        }
    }

    /// The largest array length this value can have (for forking per index).
    pub fn max_len(&self) -> usize {
        match self {
            SymValue::Array(items) => items.len(),
            SymValue::Logged(log) => log.len(),
            SymValue::Ite(_, a, b) => a.max_len().max(b.max_len()),
            _ => 0,
        }
    }

    /// Whether the value holds a pointer into an input heap somewhere.
    pub fn has_ref(&self) -> bool {
        self.has_ref_memo(&mut FxHashMap::default())
    }

    /// `has_ref`, each shared value once (see [`address`]).
    fn has_ref_memo(&self, memo: &mut FxHashMap<usize, bool>) -> bool {
        if let Some(&known) = memo.get(&address(self)) {
            return known;
        }
        let found = match self {
            SymValue::Ref(_) => true,
            SymValue::Ite(_, a, b) => a.has_ref_memo(memo) || b.has_ref_memo(memo),
            SymValue::Record(fields) => fields.iter().any(|(_, v)| v.has_ref_memo(memo)),
            SymValue::Array(items) => items.iter().any(|v| v.has_ref_memo(memo)),
            // Logs hold no pointers (`forward/write_log.rs`).
            SymValue::Logged(_) => false,
            _ => false,
        };
        memo.insert(address(self), found);
        found
    }

    /// The input references this pointer may be, each once with the condition (conjoined
    /// with `guard`) under which it is.
    pub fn ref_targets(
        &self,
        guard: TermId,
        store: &mut TermStore,
    ) -> Result<Vec<(TermId, TermId)>> {
        let leaves = self.leaf_conditions(store, &mut FxHashMap::default(), &|v| match v {
            SymValue::Ref(t) => Ok(Some(*t)),
            _ => Ok(None),
        })?;
        leaves
            .iter()
            .map(|&(t, cond)| Ok((store.and(guard, cond)?, t)))
            .collect()
    }

    /// The cells this pointer may point to, each once with the condition (conjoined with
    /// `guard`) under which it does (null is left out: the `NonNull` check excluded it).
    pub fn targets(&self, guard: TermId, store: &mut TermStore) -> Result<Vec<(TermId, CellId)>> {
        let leaves = self.leaf_conditions(store, &mut FxHashMap::default(), &|v| match v {
            SymValue::Cell(cell) => Ok(Some(*cell)),
            // Input references are written by the heap model (`crate::heap`).
            SymValue::Null | SymValue::Uninit | SymValue::Ref(_) => Ok(None),
            other => Err(shape_error("a pointer", other)),
        })?;
        leaves
            .iter()
            .map(|&(cell, cond)| Ok((store.and(guard, cond)?, cell)))
            .collect()
    }

    /// The leaves of this value's `ite` DAG that `pick` names, each once with the condition
    /// under which the value is it, in first-occurrence order (then-branch first); each
    /// shared node once (see [`address`]), where a walk of the paths through the DAG, one
    /// condition per path, is exponential in its depth.
    fn leaf_conditions<K: Copy + PartialEq>(
        &self,
        store: &mut TermStore,
        memo: &mut FxHashMap<usize, Rc<Vec<(K, TermId)>>>,
        pick: &impl Fn(&SymValue) -> Result<Option<K>>,
    ) -> Result<Rc<Vec<(K, TermId)>>> {
        if let Some(known) = memo.get(&address(self)) {
            return Ok(Rc::clone(known));
        }
        let leaves = match self {
            SymValue::Ite(c, a, b) => {
                let then = a.leaf_conditions(store, memo, pick)?;
                let otherwise = b.leaf_conditions(store, memo, pick)?;
                let not_c = store.not(*c)?;
                let mut out = Vec::with_capacity(then.len() + otherwise.len());
                for &(k, x) in then.iter() {
                    let cond = match otherwise.iter().find(|(j, _)| *j == k) {
                        Some(&(_, y)) => store.ite(*c, x, y)?,
                        None => store.and(*c, x)?,
                    };
                    out.push((k, cond));
                }
                for &(k, y) in otherwise.iter() {
                    if !then.iter().any(|(j, _)| *j == k) {
                        out.push((k, store.and(not_c, y)?));
                    }
                }
                out
            }
            leaf => match pick(leaf)? {
                Some(k) => vec![(k, store.bool_val(true)?)],
                None => Vec::new(),
            },
        };
        let leaves = Rc::new(leaves);
        memo.insert(address(self), Rc::clone(&leaves));
        Ok(leaves)
    }
}

/// The address of a value, which names it while the value is borrowed: the memo key of the
/// walks over `ite` values. An `ite` value is a DAG (`Rc` branches shared, as POSE's alias
/// updates share every older value and a merge shares both states' values), and a walk of it
/// as a tree is exponential in its depth.
pub(crate) fn address(value: &SymValue) -> usize {
    value as *const SymValue as usize
}

/// The index as a machine number if the term is constant (negative numbers are out of range).
pub fn constant_index(store: &TermStore, index: TermId) -> Option<usize> {
    store.as_bv(index).map(|bv| {
        let n = bv.bits() as u32 as i32;
        usize::try_from(n).unwrap_or(usize::MAX)
    })
}

fn index_is(store: &mut TermStore, index: TermId, k: usize) -> Result<TermId> {
    let constant = terms::int_const(store, k as i32)?;
    Ok(store.eq(index, constant)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn num(store: &mut TermStore, n: i32) -> SymValue {
        SymValue::Int(terms::int_const(store, n).unwrap())
    }

    /// An `ite` value is a DAG of shared branches: every walk visits a shared node once (as
    /// a tree, this value has 2^64 paths).
    #[test]
    fn walks_visit_shared_ite_branches_once() {
        let mut s = TermStore::new();
        let c0 = s.bool_var("c0").unwrap();
        let (one, two) = (SymValue::Cell(CellId(1)), SymValue::Cell(CellId(2)));
        let mut v = SymValue::Ite(c0, Rc::new(one), Rc::new(two));
        for k in 1..64 {
            let c = s.bool_var(format!("c{k}")).unwrap();
            let shared = Rc::new(v);
            v = SymValue::Ite(c, Rc::clone(&shared), shared);
        }
        let always = s.bool_val(true).unwrap();
        let targets = v.targets(always, &mut s).unwrap();
        let not_c0 = s.not(c0).unwrap();
        assert_eq!(targets, vec![(c0, CellId(1)), (not_c0, CellId(2))]);
        let never = s.bool_val(false).unwrap();
        assert_eq!(v.is_null(&mut s).unwrap(), never);
        assert_eq!(v.uninit_at(&[], &mut s).unwrap(), never);
        assert!(!v.has_ref());
        assert!(v.ref_targets(always, &mut s).unwrap().is_empty());
    }

    #[test]
    fn ite_folds_constants_and_equal_sides() {
        let mut s = TermStore::new();
        let c = s.bool_var("c").unwrap();
        let t = s.bool_val(true).unwrap();
        assert_eq!(
            SymValue::ite(&mut s, t, SymValue::Null, SymValue::Uninit).unwrap(),
            SymValue::Null
        );
        let v = SymValue::ite(&mut s, c, SymValue::Null, SymValue::Null).unwrap();
        assert_eq!(v, SymValue::Null);
        let (one, two) = (num(&mut s, 1), num(&mut s, 2));
        assert!(matches!(
            SymValue::ite(&mut s, c, one, two).unwrap(),
            SymValue::Int(_)
        ));
    }

    /// Records of the same fields merge field by field, so writes through aliasing pointers
    /// do not nest whole records: a hundred conditional writes of one field leave a record
    /// whose other field is untouched.
    #[test]
    fn ite_of_records_is_a_record_of_ites() {
        let mut s = TermStore::new();
        let (f, g) = (FieldId(0), FieldId(1));
        let (zero, one) = (num(&mut s, 0), num(&mut s, 1));
        let mut record = SymValue::Record(vec![(f, zero.clone()), (g, one.clone())].into());
        for i in 0..100 {
            let c = s.bool_var(format!("c{i}")).unwrap();
            let written = record
                .update(&[Step::Field(f)], num(&mut s, i), &mut s)
                .unwrap();
            record = SymValue::ite(&mut s, c, written, record).unwrap();
        }
        let SymValue::Record(fields) = &record else {
            panic!("a record: {record:?}");
        };
        assert_eq!(fields[1], (g, one));
        assert!(matches!(fields[0].1, SymValue::Int(_)));
    }

    #[test]
    fn ite_pointers_answer_with_terms() {
        let mut s = TermStore::new();
        let c = s.bool_var("c").unwrap();
        let p = SymValue::ite(&mut s, c, SymValue::Cell(CellId(1)), SymValue::Null).unwrap();
        let null = p.is_null(&mut s).unwrap();
        let not_c = s.not(c).unwrap();
        assert_eq!(null, not_c);
        let eq = p.pointer_eq(&SymValue::Cell(CellId(1)), &mut s).unwrap();
        assert_eq!(eq, c);
        let t = s.bool_val(true).unwrap();
        let targets = p.targets(t, &mut s).unwrap();
        assert_eq!(targets, vec![(c, CellId(1))]);
    }

    #[test]
    fn in_place_writes_agree_with_copying_ones_and_spare_shared_copies() {
        let mut s = TermStore::new();
        let record = |s: &mut TermStore, n| {
            SymValue::Record(vec![(FieldId(0), num(s, n)), (FieldId(1), num(s, 0))].into())
        };
        let items: Vec<SymValue> = (0..3).map(|n| record(&mut s, n)).collect();
        let array = SymValue::array(items);
        let (one, i) = (
            terms::int_const(&mut s, 1).unwrap(),
            s.bv_var("i", 32).unwrap(),
        );
        for steps in [
            vec![Step::Index(one), Step::Field(FieldId(1))],
            vec![Step::Index(i), Step::Field(FieldId(0))],
        ] {
            let seven = num(&mut s, 7);
            let copied = array.update(&steps, seven.clone(), &mut s).unwrap();
            // `shared` holds the array as another state would.
            let shared = array.clone();
            let mut in_place = array.clone();
            in_place.update_in_place(&steps, seven, &mut s).unwrap();
            assert_eq!(in_place, copied);
            assert_eq!(shared, array);
        }
    }

    /// An array longer than one chunk: writes, in place or copying, at constant and symbolic
    /// indices, leave the other elements and a shared copy as they were.
    #[test]
    fn arrays_of_several_chunks_read_and_write_by_element() {
        let mut s = TermStore::new();
        let len = 3 * ARRAY_CHUNK + 5;
        let items: Vec<SymValue> = (0..len as i32).map(|n| num(&mut s, n)).collect();
        let array = SymValue::array(items);
        let at = |s: &mut TermStore, v: &SymValue, k: usize| {
            let index = terms::int_const(s, k as i32).unwrap();
            v.project(&[Step::Index(index)], s).unwrap()
        };
        let far = terms::int_const(&mut s, (2 * ARRAY_CHUNK + 1) as i32).unwrap();
        let minus_one = num(&mut s, -1);
        let mut in_place = array.clone();
        in_place
            .update_in_place(&[Step::Index(far)], minus_one.clone(), &mut s)
            .unwrap();
        let copied = array
            .update(&[Step::Index(far)], minus_one.clone(), &mut s)
            .unwrap();
        assert_eq!(in_place, copied);
        for k in [
            0,
            ARRAY_CHUNK,
            2 * ARRAY_CHUNK,
            2 * ARRAY_CHUNK + 2,
            len - 1,
        ] {
            let expected = num(&mut s, k as i32);
            assert_eq!(at(&mut s, &in_place, k), expected, "element {k}");
        }
        assert_eq!(at(&mut s, &in_place, 2 * ARRAY_CHUNK + 1), minus_one);
        assert_eq!(
            at(&mut s, &array, 2 * ARRAY_CHUNK + 1),
            num(&mut s, (2 * ARRAY_CHUNK + 1) as i32)
        );
        let i = s.bv_var("i", 32).unwrap();
        let written = array.update(&[Step::Index(i)], minus_one, &mut s).unwrap();
        assert_eq!(written.max_len(), len);
        // Each element is now `i == k ? -1 : k`.
        let last = at(&mut s, &written, len - 1);
        assert!(matches!(last, SymValue::Int(_)));
        assert_ne!(last, num(&mut s, (len - 1) as i32));
    }

    #[test]
    fn symbolic_indices_read_and_write_every_element() {
        let mut s = TermStore::new();
        let i = s.bv_var("i", 32).unwrap();
        let items: Vec<SymValue> = (0..3).map(|n| num(&mut s, n * 10)).collect();
        let array = SymValue::array(items);
        let read = array.project(&[Step::Index(i)], &mut s).unwrap();
        assert!(matches!(read, SymValue::Int(_)));
        let seven = num(&mut s, 7);
        let written = array.update(&[Step::Index(i)], seven, &mut s).unwrap();
        let SymValue::Array(out) = &written else {
            panic!("an array")
        };
        assert_eq!(out.len(), 3);
        let zero = terms::int_const(&mut s, 0).unwrap();
        let first = written.project(&[Step::Index(zero)], &mut s).unwrap();
        assert_ne!(first, num(&mut s, 0));
        let oob = array.out_of_bounds(zero, &mut s).unwrap();
        assert_eq!(s.as_bool(oob), Some(false));
    }

    #[test]
    fn uninit_is_seen_on_the_way() {
        let mut s = TermStore::new();
        let f = FieldId(0);
        let record = SymValue::Record(vec![(f, SymValue::Uninit)].into());
        let u = record.uninit_at(&[Step::Field(f)], &mut s).unwrap();
        assert_eq!(s.as_bool(u), Some(true));
        let u = SymValue::Uninit
            .uninit_at(&[Step::Field(f)], &mut s)
            .unwrap();
        assert_eq!(s.as_bool(u), Some(true));
        let one = num(&mut s, 1);
        let u = one.uninit_at(&[], &mut s).unwrap();
        assert_eq!(s.as_bool(u), Some(false));
    }
}
