//! The values of the structural engine's locations: one term (a number or pointer as a 32-bit
//! word, a heap slot as an array, a flag as a Boolean), a record or an array (of fixed length)
//! of values, or the placeholder of a local not yet assigned.
//!
//! [`Val::ite`] is the γ of the thesis on values: two values of the same shape merge part by
//! part into `ite` terms, and the placeholder gives way to the other side (a read of an
//! unassigned local is stopped by its `Init` check, so the placeholder is never used). Values
//! of different shapes cannot merge: the caller treats that as an instruction it does not
//! model. Nothing here reads locations.

use std::rc::Rc;

use symex_ir::cfg::FieldId;
use symex_smt::{TermId, TermStore};

use crate::error::EngineError;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Val {
    Term(TermId),
    /// Fields sorted by id.
    Record(Rc<[(FieldId, Val)]>),
    /// A micro-c array value: its length is known, its index may be symbolic.
    Array(Rc<[Val]>),
    Uninit,
}

/// One step into an aggregate value: a field, or an element at an index (a 32-bit term).
#[derive(Clone, Copy, Debug)]
pub enum Step {
    Field(FieldId),
    Index(TermId),
}

/// Why two values cannot be merged or used as asked.
#[derive(Debug)]
pub enum Shape {
    /// A term error or other internal failure.
    Engine(EngineError),
    /// A value of a shape this engine does not model here (a record where a word was expected,
    /// records with different fields).
    Unmodelled(String),
}

impl From<EngineError> for Shape {
    fn from(e: EngineError) -> Shape {
        Shape::Engine(e)
    }
}

impl From<symex_smt::TermError> for Shape {
    fn from(e: symex_smt::TermError) -> Shape {
        Shape::Engine(e.into())
    }
}

impl Val {
    /// `cond ? a : b`.
    pub fn ite(store: &mut TermStore, cond: TermId, a: &Val, b: &Val) -> Result<Val, Shape> {
        match store.as_bool(cond) {
            Some(true) => return Ok(a.clone()),
            Some(false) => return Ok(b.clone()),
            None => {}
        }
        if a == b {
            return Ok(a.clone());
        }
        match (a, b) {
            (Val::Uninit, other) | (other, Val::Uninit) => Ok(other.clone()),
            (Val::Term(x), Val::Term(y)) => Ok(Val::Term(store.ite(cond, *x, *y)?)),
            (Val::Record(x), Val::Record(y))
                if x.len() == y.len() && x.iter().zip(y.iter()).all(|(p, q)| p.0 == q.0) =>
            {
                let mut fields = Vec::with_capacity(x.len());
                for ((f, u), (_, v)) in x.iter().zip(y.iter()) {
                    fields.push((*f, Val::ite(store, cond, u, v)?));
                }
                Ok(Val::Record(fields.into()))
            }
            (Val::Array(x), Val::Array(y)) if x.len() == y.len() => {
                let mut items = Vec::with_capacity(x.len());
                for (u, v) in x.iter().zip(y.iter()) {
                    items.push(Val::ite(store, cond, u, v)?);
                }
                Ok(Val::Array(items.into()))
            }
            _ => Err(Shape::Unmodelled(
                "a variable holding values of different shapes on different paths".into(),
            )),
        }
    }

    /// The part of this value that `steps` lead to. An index past the end gives the placeholder:
    /// the `InBounds` check before the access has stopped that path.
    pub fn project(&self, store: &mut TermStore, steps: &[Step]) -> Result<Val, Shape> {
        let Some((first, rest)) = steps.split_first() else {
            return Ok(self.clone());
        };
        let part = match (*first, self) {
            (Step::Field(f), _) => self.field(f)?,
            (Step::Index(i), Val::Array(items)) => {
                let mut parts = Vec::with_capacity(items.len());
                for item in items.iter() {
                    parts.push(item.project(store, rest)?);
                }
                return select_item(store, i, &parts);
            }
            (Step::Index(_), Val::Uninit) => Val::Uninit,
            (Step::Index(_), _) => {
                return Err(Shape::Unmodelled(
                    "an index into a value that is not an array".into(),
                ))
            }
        };
        part.project(store, rest)
    }

    /// This value with the part `steps` lead to replaced by `new` (at a symbolic index, every
    /// element becomes `ite(index == k, updated, old)`).
    pub fn update(&self, store: &mut TermStore, steps: &[Step], new: Val) -> Result<Val, Shape> {
        let Some((first, rest)) = steps.split_first() else {
            return Ok(new);
        };
        match (*first, self) {
            (Step::Field(f), _) => {
                let inner = self.field(f)?.update(store, rest, new)?;
                self.with_field(f, inner)
            }
            (Step::Index(i), Val::Array(items)) => {
                let mut updated = Vec::with_capacity(items.len());
                for (k, item) in items.iter().enumerate() {
                    let at = crate::common::terms::int_const(store, k as i32)?;
                    let here = store.eq(i, at)?;
                    let changed = item.update(store, rest, new.clone())?;
                    updated.push(Val::ite(store, here, &changed, item)?);
                }
                Ok(Val::Array(updated.into()))
            }
            _ => Err(Shape::Unmodelled(
                "an index into a value that is not an array".into(),
            )),
        }
    }

    /// The length of an array value.
    pub fn len(&self) -> Result<usize, Shape> {
        match self {
            Val::Array(items) => Ok(items.len()),
            _ => Err(Shape::Unmodelled(
                "an index into a value that is not an array".into(),
            )),
        }
    }

    /// The word this value holds (a number or a pointer).
    pub fn word(&self, store: &mut TermStore) -> Result<TermId, Shape> {
        match self {
            Val::Term(t) => Ok(*t),
            // Only reachable on paths an `Init` check has already stopped.
            Val::Uninit => Ok(crate::common::terms::int_const(store, 0)?),
            Val::Record(_) | Val::Array(_) => Err(Shape::Unmodelled(
                "a record or array value where a number or pointer is used".into(),
            )),
        }
    }

    /// The field `f` of a record value.
    pub fn field(&self, f: FieldId) -> Result<Val, Shape> {
        match self {
            Val::Record(fields) => fields
                .iter()
                .find(|(g, _)| *g == f)
                .map(|(_, v)| v.clone())
                .ok_or_else(|| Shape::Unmodelled("a record without the field read".into())),
            Val::Uninit => Ok(Val::Uninit),
            Val::Term(_) | Val::Array(_) => Err(Shape::Unmodelled(
                "a field of a value that is not a record".into(),
            )),
        }
    }

    /// The record with field `f` replaced by `v`.
    pub fn with_field(&self, f: FieldId, v: Val) -> Result<Val, Shape> {
        match self {
            Val::Record(fields) if fields.iter().any(|(g, _)| *g == f) => Ok(Val::Record(
                fields
                    .iter()
                    .map(|(g, old)| (*g, if *g == f { v.clone() } else { old.clone() }))
                    .collect(),
            )),
            _ => Err(Shape::Unmodelled(
                "a field write into a value that is not a record with that field".into(),
            )),
        }
    }
}

/// `parts[index]` as one value: an `ite` chain over the positions, the last one the default.
fn select_item(store: &mut TermStore, index: TermId, parts: &[Val]) -> Result<Val, Shape> {
    let Some((last, rest)) = parts.split_last() else {
        return Ok(Val::Uninit);
    };
    if let Some(k) = store.as_bv(index).map(|c| c.bits() as u32 as i32) {
        return Ok(usize::try_from(k)
            .ok()
            .and_then(|k| parts.get(k))
            .cloned()
            .unwrap_or(Val::Uninit));
    }
    let mut value = last.clone();
    for (k, part) in rest.iter().enumerate().rev() {
        let at = crate::common::terms::int_const(store, k as i32)?;
        let here = store.eq(index, at)?;
        value = Val::ite(store, here, part, &value)?;
    }
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_merge_field_by_field_and_the_placeholder_gives_way() {
        let mut s = TermStore::new();
        let c = s.bool_var("c").unwrap();
        let (x, y) = (s.bv_var("x", 32).unwrap(), s.bv_var("y", 32).unwrap());
        let r1 = Val::Record(vec![(FieldId(0), Val::Term(x))].into());
        let r2 = Val::Record(vec![(FieldId(0), Val::Term(y))].into());
        let merged = Val::ite(&mut s, c, &r1, &r2).unwrap();
        let expected = s.ite(c, x, y).unwrap();
        assert_eq!(merged.field(FieldId(0)).unwrap(), Val::Term(expected));
        assert_eq!(Val::ite(&mut s, c, &Val::Uninit, &r1).unwrap(), r1);
        assert!(matches!(
            Val::ite(&mut s, c, &Val::Term(x), &r1),
            Err(Shape::Unmodelled(_))
        ));
    }

    #[test]
    fn a_symbolic_index_reads_and_writes_every_element_under_its_condition() {
        use symex_smt::{eval, Assignment, Value};
        let mut s = TermStore::new();
        let i = s.bv_var("i", 32).unwrap();
        let items: Vec<Val> = (0..3)
            .map(|k| Val::Term(crate::common::terms::int_const(&mut s, 10 * k).unwrap()))
            .collect();
        let array = Val::Array(items.into());
        let seven = Val::Term(crate::common::terms::int_const(&mut s, 7).unwrap());
        let written = array.update(&mut s, &[Step::Index(i)], seven).unwrap();
        let Val::Term(read) = written.project(&mut s, &[Step::Index(i)]).unwrap() else {
            panic!("a number");
        };
        let two = crate::common::terms::int_const(&mut s, 2).unwrap();
        let Val::Term(other) = written.project(&mut s, &[Step::Index(two)]).unwrap() else {
            panic!("a number");
        };
        for k in 0..3 {
            let mut asg = Assignment::new();
            asg.insert(
                s.var_id(i).unwrap(),
                Value::Bv(symex_smt::BvConst::new(32, k).unwrap()),
            );
            let at = |t| crate::common::terms::value_as_i32(&eval(&s, t, &asg).unwrap());
            assert_eq!(at(read), Some(7));
            assert_eq!(at(other), Some(if k == 2 { 7 } else { 20 }));
        }
    }
}
