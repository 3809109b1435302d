//! An array written at symbolic indices, kept as a *write log*: its elements before the first
//! such write (the base, element by element as `SymValue::Array` holds them) and the writes
//! since, oldest first, each an index term, the fields below the element it writes (C's
//! `a[i].value`) and the value: the theory of arrays' `store` chain over a base. Logs hold no
//! pointers (neither the base nor the writes), so the walks over a state's pointers and heap
//! states have nothing to look for in them.
//!
//! Why: element by element, a write at a symbolic index makes every one of N elements an
//! `ite` and a read at a symbolic index is an `ite` chain over all N, so an array of 1,000
//! numbers written at input indices eight times gave the solver chains of 1,000 `ite`s of
//! `ite`s, and one query took more than 20 s. Here a write is one entry and a read a chain
//! over the entries (and over the base only where the base's elements differ: equal
//! elements fold, so a zeroed or untouched array reads as one value).
//!
//! A log longer than [`MAX_WRITES`] entries, a merge with another value and a projection
//! below an element turn the log back into elements ([`WriteLog::materialize`]), the form
//! every other part of the engine knows. Nothing here decides when an array becomes a log
//! (`SymValue::update`); nothing here reads memory or the path condition.

use std::rc::Rc;

use symex_smt::{TermId, TermStore};

use crate::common::terms;
use crate::error::EngineError;
use crate::forward::chunked::Chunked;
use crate::forward::value::{constant_index, Elements, Step, SymValue, ARRAY_CHUNK};

type Result<T> = std::result::Result<T, EngineError>;

/// Arrays shorter than this stay element by element under symbolic writes: their chains are
/// short, and every part of the engine sees their elements.
pub const MIN_LOGGED_LENGTH: usize = 32;

/// The most writes a log keeps; the next one turns it back into elements (a read walks every
/// entry, so a loop writing on and on would make reads ever longer).
pub const MAX_WRITES: usize = 64;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct WriteLog {
    /// The elements before the first logged write.
    base: Elements,
    /// Oldest first; a later write hides what an earlier one wrote where they overlap.
    writes: Vec<Write>,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Write {
    index: TermId,
    /// Field steps below the element: the part of it written (none: the whole element).
    fields: Rc<[Step]>,
    value: SymValue,
}

impl WriteLog {
    /// The log of the write of `value` at `index` and `fields` below it into `base`, if it can
    /// be logged: `base` long enough, `fields` field steps only, and no pointer written or in
    /// `base`.
    pub fn start(
        base: &Elements,
        index: TermId,
        fields: &[Step],
        value: &SymValue,
    ) -> Option<Self> {
        let loggable = base.len() >= MIN_LOGGED_LENGTH
            && loggable_write(fields, value)
            && base.iter().all(holds_no_pointer);
        loggable.then(|| WriteLog {
            base: Rc::clone(base),
            writes: vec![Write {
                index,
                fields: fields.into(),
                value: value.clone(),
            }],
        })
    }

    pub fn len(&self) -> usize {
        self.base.len()
    }

    /// This log with `value` written at `index` and `fields` below it: another entry, or the
    /// elements once the log is full or the write is not one a log holds.
    pub fn written(
        &self,
        index: TermId,
        fields: &[Step],
        value: SymValue,
        store: &mut TermStore,
    ) -> Result<SymValue> {
        let mut log = self.clone();
        match log.push(index, fields, value, store)? {
            Some(elements) => Ok(elements),
            None => Ok(SymValue::Logged(Rc::new(log))),
        }
    }

    /// [`WriteLog::written`] in place (the log copied first if another state shares it):
    /// `Some` elements where the log gave way to them.
    pub fn write_in_place(
        log: &mut Rc<WriteLog>,
        index: TermId,
        fields: &[Step],
        value: SymValue,
        store: &mut TermStore,
    ) -> Result<Option<SymValue>> {
        Rc::make_mut(log).push(index, fields, value, store)
    }

    fn push(
        &mut self,
        index: TermId,
        fields: &[Step],
        value: SymValue,
        store: &mut TermStore,
    ) -> Result<Option<SymValue>> {
        let write = Write {
            index,
            fields: fields.into(),
            value,
        };
        if self.writes.len() >= MAX_WRITES || !loggable_write(fields, &write.value) {
            let mut elements = self.elements(store)?;
            apply(&mut elements, &write, store)?;
            return Ok(Some(SymValue::Array(Rc::new(elements))));
        }
        self.writes.push(write);
        Ok(None)
    }

    /// The value at `index` and `rest` below it (the index in bounds: the bounds check before
    /// the access excluded the others).
    pub fn read(&self, index: TermId, rest: &[Step], store: &mut TermStore) -> Result<SymValue> {
        let mut steps = Vec::with_capacity(rest.len() + 1);
        steps.push(Step::Index(index));
        steps.extend_from_slice(rest);
        let mut value = SymValue::Array(Rc::clone(&self.base)).project(&steps, store)?;
        for write in &self.writes {
            let written = match overlap(&write.fields, rest) {
                // The write covers the part read: the part of what it wrote.
                Overlap::Covers(below) => write.value.project(below, store)?,
                // The write is inside the part read: that part with it.
                Overlap::Inside(below) => value.update(below, write.value.clone(), store)?,
                Overlap::Apart => continue,
            };
            let here = store.eq(index, write.index)?;
            value = SymValue::ite(store, here, written, value)?;
        }
        Ok(value)
    }

    /// "The value at `index` and `rest` below it is uninitialized" (or a value on the way
    /// is), as a Boolean term.
    pub fn uninit(&self, index: TermId, rest: &[Step], store: &mut TermStore) -> Result<TermId> {
        self.read(index, rest, store)?.uninit_at(&[], store)
    }

    /// The elements the writes leave: a write at a constant index changes one element, one at
    /// a symbolic index makes each element an `ite`.
    pub fn materialize(&self, store: &mut TermStore) -> Result<Elements> {
        Ok(Rc::new(self.elements(store)?))
    }

    fn elements(&self, store: &mut TermStore) -> Result<Chunked<ARRAY_CHUNK>> {
        let mut elements = Chunked::clone(&self.base);
        for write in &self.writes {
            apply(&mut elements, write, store)?;
        }
        Ok(elements)
    }
}

/// How a write's fields and a read's steps below the same element meet.
enum Overlap<'a> {
    /// The write's fields are a prefix of the read's steps: the rest of the read's steps.
    Covers(&'a [Step]),
    /// The read's steps are a proper prefix of the write's fields: the rest of the fields.
    Inside(&'a [Step]),
    /// Different fields: the write does not touch what is read.
    Apart,
}

fn overlap<'a>(fields: &'a [Step], read: &'a [Step]) -> Overlap<'a> {
    let common = fields.iter().zip(read).take_while(|(a, b)| a == b).count();
    if common == fields.len() {
        Overlap::Covers(&read[common..])
    } else if common == read.len() {
        Overlap::Inside(&fields[common..])
    } else {
        Overlap::Apart
    }
}

/// Writes `write` into `elements`, element by element.
fn apply(elements: &mut Chunked<ARRAY_CHUNK>, write: &Write, store: &mut TermStore) -> Result<()> {
    if let Some(k) = constant_index(store, write.index) {
        // Out of range: excluded by the bounds check before the write.
        if let Some(item) = elements.get_mut(k) {
            *item = item.update(&write.fields, write.value.clone(), store)?;
        }
        return Ok(());
    }
    for k in 0..elements.len() {
        let constant = terms::int_const(store, k as i32)?;
        let here = store.eq(write.index, constant)?;
        if store.as_bool(here) == Some(false) {
            continue;
        }
        let Some(item) = elements.get_mut(k) else {
            continue;
        };
        let updated = item.update(&write.fields, write.value.clone(), store)?;
        let old = std::mem::replace(item, SymValue::Uninit);
        *item = SymValue::ite(store, here, updated, old)?;
    }
    Ok(())
}

/// Whether a log may hold this write: field steps only, and no pointer.
fn loggable_write(fields: &[Step], value: &SymValue) -> bool {
    fields.iter().all(|s| matches!(s, Step::Field(_))) && holds_no_pointer(value)
}

/// Whether a value holds numbers and uninitialized values only (no pointer, no log).
fn holds_no_pointer(value: &SymValue) -> bool {
    match value {
        SymValue::Int(_) | SymValue::Uninit => true,
        SymValue::Record(fields) => fields.iter().all(|(_, v)| holds_no_pointer(v)),
        SymValue::Array(items) => items.iter().all(holds_no_pointer),
        SymValue::Ite(_, a, b) => holds_no_pointer(a) && holds_no_pointer(b),
        SymValue::Null | SymValue::Cell(_) | SymValue::Ref(_) | SymValue::Logged(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use symex_ir::cfg::FieldId;
    use symex_smt::{eval, Assignment, BvConst, Value};

    use super::*;
    use crate::common::rng::Rng;

    const LEN: usize = 40;
    const VALUE: FieldId = FieldId(0);
    const ASSIGNED: FieldId = FieldId(1);

    /// An element as C's front end makes one: its value and whether it was assigned.
    type Concrete = Vec<(Option<i32>, Option<i32>)>;

    fn record(s: &mut TermStore, value: Option<i32>, assigned: Option<i32>) -> SymValue {
        let mut leaf = |n: Option<i32>| match n {
            Some(n) => SymValue::Int(terms::int_const(s, n).unwrap()),
            None => SymValue::Uninit,
        };
        SymValue::Record(vec![(VALUE, leaf(value)), (ASSIGNED, leaf(assigned))].into())
    }

    /// The number a value holds under `asg`, `None` where it is uninitialized.
    fn concrete(s: &TermStore, value: &SymValue, asg: &Assignment) -> Option<i32> {
        match value {
            SymValue::Int(t) => Some(eval(s, *t, asg).unwrap().as_bv().unwrap().to_i128() as i32),
            SymValue::Uninit => None,
            SymValue::Ite(c, a, b) => match eval(s, *c, asg).unwrap().as_bool().unwrap() {
                true => concrete(s, a, asg),
                false => concrete(s, b, asg),
            },
            other => panic!("not a number: {other:?}"),
        }
    }

    /// Random writes (whole elements and single fields, at constant and input indices, in
    /// place and copying) and reads of an array of 40 records: every read and `uninit` check
    /// of the log agrees, under several values of the inputs, with an array of numbers
    /// written in order; past [`MAX_WRITES`] writes the log gives way to elements, which
    /// agree too.
    #[test]
    fn logged_reads_agree_with_concrete_writes() {
        let mut s = TermStore::new();
        let vars: Vec<TermId> = (0..3)
            .map(|k| s.bv_var(format!("i{k}"), 32).unwrap())
            .collect();
        let assignments: Vec<(Assignment, Vec<usize>)> = (0..8u64)
            .map(|seed| {
                let mut rng = Rng::new(seed);
                let mut asg = Assignment::new();
                let mut picked = Vec::new();
                for &v in &vars {
                    let k = rng.below(LEN);
                    let bits = BvConst::new(32, k as u128).unwrap();
                    asg.insert(s.var_id(v).unwrap(), Value::Bv(bits));
                    picked.push(k);
                }
                (asg, picked)
            })
            .collect();
        for seed in 0..20 {
            let mut rng = Rng::new(seed);
            let initial: Vec<SymValue> = (0..LEN)
                .map(|k| record(&mut s, Some(k as i32 % 3), (k % 2 == 0).then_some(1)))
                .collect();
            let mut array = SymValue::array(initial);
            let mut models: Vec<Concrete> = assignments
                .iter()
                .map(|_| {
                    (0..LEN)
                        .map(|k| (Some(k as i32 % 3), (k % 2 == 0).then_some(1)))
                        .collect()
                })
                .collect();
            let mut logged = false;
            for step in 0..150 {
                // An input index (which element depends on the assignment) or a constant one.
                let which = rng.below(vars.len() + 1);
                let constant = rng.below(LEN);
                let index = match vars.get(which) {
                    Some(&v) => v,
                    None => terms::int_const(&mut s, constant as i32).unwrap(),
                };
                let at = |picked: &[usize]| picked.get(which).copied().unwrap_or(constant);
                let n = step;
                match rng.below(5) {
                    0 => {
                        let new = record(&mut s, Some(n), Some(1));
                        let steps = [Step::Index(index)];
                        if rng.below(2) == 0 {
                            array.update_in_place(&steps, new, &mut s).unwrap();
                        } else {
                            array = array.update(&steps, new, &mut s).unwrap();
                        }
                        for (model, (_, picked)) in models.iter_mut().zip(&assignments) {
                            model[at(picked)] = (Some(n), Some(1));
                        }
                    }
                    1 => {
                        let field = if rng.below(2) == 0 { VALUE } else { ASSIGNED };
                        let new = SymValue::Int(terms::int_const(&mut s, n).unwrap());
                        let steps = [Step::Index(index), Step::Field(field)];
                        array.update_in_place(&steps, new, &mut s).unwrap();
                        for (model, (_, picked)) in models.iter_mut().zip(&assignments) {
                            let slot = &mut model[at(picked)];
                            match field {
                                VALUE => slot.0 = Some(n),
                                _ => slot.1 = Some(n),
                            }
                        }
                    }
                    kind @ (2 | 3) => {
                        // A field read at once (`a[i].value`), or the element read whole
                        // and its field then (`a[i]`, `.#assigned`).
                        let (field, read) = if kind == 2 {
                            let steps = [Step::Index(index), Step::Field(VALUE)];
                            (VALUE, array.project(&steps, &mut s).unwrap())
                        } else {
                            let element = array.project(&[Step::Index(index)], &mut s).unwrap();
                            let read = element.project(&[Step::Field(ASSIGNED)], &mut s);
                            (ASSIGNED, read.unwrap())
                        };
                        for (model, (asg, picked)) in models.iter().zip(&assignments) {
                            let (value, assigned) = model[at(picked)];
                            let expected = if field == VALUE { value } else { assigned };
                            assert_eq!(
                                concrete(&s, &read, asg),
                                expected,
                                "seed {seed} step {step}"
                            );
                        }
                    }
                    _ => {
                        let steps = [Step::Index(index), Step::Field(ASSIGNED)];
                        let uninit = array.uninit_at(&steps, &mut s).unwrap();
                        for (model, (asg, picked)) in models.iter().zip(&assignments) {
                            let expected = model[at(picked)].1.is_none();
                            let got = eval(&s, uninit, asg).unwrap().as_bool().unwrap();
                            assert_eq!(got, expected, "seed {seed} step {step}");
                        }
                    }
                }
                logged |= matches!(array, SymValue::Logged(_));
            }
            assert!(logged, "seed {seed}: the array was never a log");
        }
    }

    /// A merge of a log with another value is a merge of elements, under its condition.
    #[test]
    fn merged_logs_read_as_either_side() {
        let mut s = TermStore::new();
        let i = s.bv_var("i", 32).unwrap();
        let c = s.bool_var("c").unwrap();
        let zero = SymValue::Int(terms::int_const(&mut s, 0).unwrap());
        let seven = SymValue::Int(terms::int_const(&mut s, 7).unwrap());
        let array = SymValue::array(vec![zero.clone(); LEN]);
        let written = array.update(&[Step::Index(i)], seven, &mut s).unwrap();
        assert!(matches!(written, SymValue::Logged(_)));
        let merged = SymValue::ite(&mut s, c, written, array).unwrap();
        assert!(matches!(merged, SymValue::Array(_)));
        let read = merged.project(&[Step::Index(i)], &mut s).unwrap();
        for (cond, expected) in [(true, 7), (false, 0)] {
            let mut asg = Assignment::new();
            asg.insert(s.var_id(c).unwrap(), Value::Bool(cond));
            asg.insert(
                s.var_id(i).unwrap(),
                Value::Bv(BvConst::new(32, 5).unwrap()),
            );
            assert_eq!(concrete(&s, &read, &asg), Some(expected));
        }
    }

    /// Pointers are never logged: a write of one makes elements, as before logs.
    #[test]
    fn pointers_are_not_logged() {
        let mut s = TermStore::new();
        let i = s.bv_var("i", 32).unwrap();
        let array = SymValue::array(vec![SymValue::Null; LEN]);
        let written = array.update(
            &[Step::Index(i)],
            SymValue::Cell(crate::forward::value::CellId(3)),
            &mut s,
        );
        assert!(matches!(written.unwrap(), SymValue::Array(_)));
        let numbers = SymValue::array(vec![SymValue::Uninit; LEN]);
        let written = numbers
            .update(&[Step::Index(i)], SymValue::Null, &mut s)
            .unwrap();
        assert!(matches!(written, SymValue::Array(_)));
    }
}
