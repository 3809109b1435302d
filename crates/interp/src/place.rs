//! Places: reading, writing and checking the initialization of a local, a cell `*p`, and the
//! fields/elements below them.
//!
//! Writes go through `Rc::make_mut`, so a record or array shared by an earlier copy is copied
//! first (value semantics). The guarding checks (`NonNull`, `InBounds`) come before in the IR;
//! if one is missing, reaching null or an out-of-range index here is an IR invariant violation,
//! never a property.

use std::rc::Rc;

use symex_ir::cfg::{FieldId, Operand, Place, PlaceBase, Projection};

use crate::config::Limit;
use crate::exec::Machine;
use crate::fault::{mismatch, Fault};
use crate::outcome::Access;
use crate::value::{index_in_bounds, CellId, Value};

impl Machine<'_> {
    /// The value stored at `place` (borrowed; the caller clones if it keeps it).
    pub(crate) fn read(&self, place: &Place) -> Result<&Value, Fault> {
        let mut value = self.base_value(&place.base)?;
        for projection in &place.projections {
            value = self.project(value, self.step_of(projection)?)?;
        }
        Ok(value)
    }

    /// Whether `place` and everything on the way to it was assigned (`Check::Init`).
    pub(crate) fn is_initialized(&self, place: &Place) -> Result<bool, Fault> {
        let mut value = self.base_value(&place.base)?;
        for projection in &place.projections {
            if matches!(value, Value::Uninit) {
                return Ok(false);
            }
            value = self.project(value, self.step_of(projection)?)?;
        }
        Ok(!matches!(value, Value::Uninit))
    }

    /// `place = value`.
    pub(crate) fn store(&mut self, place: &Place, value: Value) -> Result<(), Fault> {
        // Evaluate index operands before borrowing the target mutably, into a buffer reused
        // across stores so that a store allocates nothing.
        let mut steps = std::mem::take(&mut self.store_steps);
        steps.clear();
        let result = self
            .eval_steps(&place.projections, &mut steps)
            .and_then(|()| self.store_at(&place.base, &steps, value));
        self.store_steps = steps;
        result
    }

    fn store_at(&mut self, base: &PlaceBase, steps: &[Access], value: Value) -> Result<(), Fault> {
        if let Some(Access::Field(field)) = steps.last() {
            self.fits_a_field(*field, &value)?;
        }
        let outer_depth = value.depth().saturating_add(steps.len() as u32);
        if !steps.is_empty() && outer_depth > self.max_nesting {
            return Err(Fault::Limit(Limit::Nesting(self.max_nesting)));
        }
        let module = self.module;
        let fields = &module.fields;
        let mut target: &mut Value = match base {
            PlaceBase::Local(local) => {
                let slot = &mut self.stack[self.base + local.index()];
                match slot {
                    Value::Ptr(cell) if self.cell_backed[local.index()] => {
                        self.memory.get_mut(*cell)?
                    }
                    _ => slot,
                }
            }
            PlaceBase::Deref(pointer) => {
                let cell = pointer_of(self.operand(pointer)?)?;
                self.memory.get_mut(cell)?
            }
        };
        for (level, step) in steps.iter().enumerate() {
            // The container at this level will hold `value` this many levels down.
            let depth = outer_depth - level as u32;
            target = match (*step, target) {
                (Access::Field(field), Value::Record(record)) => Rc::make_mut(record)
                    .get_mut_for_store(field, depth)
                    .ok_or_else(|| missing_field(fields, field))?,
                (Access::Index(index), Value::Array(array)) => {
                    let len = array.len();
                    let index =
                        index_in_bounds(index, len).ok_or_else(|| unchecked_index(index, len))?;
                    match Rc::make_mut(array).get_mut_for_store(index, depth) {
                        Some(element) => element,
                        None => return Err(unchecked_index(index as i32, len)),
                    }
                }
                (step, other) => return Err(step_mismatch(fields, step, other)),
            };
        }
        *target = value;
        Ok(())
    }

    fn eval_steps(&self, projections: &[Projection], into: &mut Vec<Access>) -> Result<(), Fault> {
        for projection in projections {
            into.push(self.step_of(projection)?);
        }
        Ok(())
    }

    fn step_of(&self, projection: &Projection) -> Result<Access, Fault> {
        Ok(match projection {
            Projection::Field(field) => Access::Field(*field),
            Projection::Index(index) => Access::Index(self.int_operand(index, "an array index")?),
        })
    }

    fn base_value(&self, base: &PlaceBase) -> Result<&Value, Fault> {
        match base {
            PlaceBase::Local(local) => self.local(*local),
            PlaceBase::Deref(pointer) => {
                let cell = self.pointer_operand(pointer)?;
                self.memory.get(cell)
            }
        }
    }

    fn pointer_operand(&self, op: &Operand) -> Result<CellId, Fault> {
        match op {
            Operand::Local(local) => match self.local(*local)? {
                Value::Ptr(cell) => Ok(*cell),
                other => pointer_of(other.clone()),
            },
            Operand::Const(n) => pointer_of(Value::Int(*n)),
            Operand::Const64(n) => pointer_of(Value::Int64(*n)),
            Operand::Null => pointer_of(Value::Null),
        }
    }

    fn project<'v>(&self, value: &'v Value, step: Access) -> Result<&'v Value, Fault> {
        let fields = &self.module.fields;
        match (step, value) {
            (Access::Field(field), Value::Record(record)) => record
                .get(field)
                .ok_or_else(|| missing_field(fields, field)),
            (Access::Index(index), Value::Array(array)) => index_in_bounds(index, array.len())
                .map(|i| &array.items()[i])
                .ok_or_else(|| unchecked_index(index, array.len())),
            (step, other) => Err(step_mismatch(fields, step, other)),
        }
    }
}

fn pointer_of(value: Value) -> Result<CellId, Fault> {
    match value {
        Value::Ptr(cell) => Ok(cell),
        Value::Null => Err(Fault::Invariant(
            "dereference of null without a null check".into(),
        )),
        other => Err(mismatch(&other, || "dereference expects a pointer".into())),
    }
}

fn field_name(fields: &[String], field: FieldId) -> &str {
    fields.get(field.index()).map_or("?", String::as_str)
}

fn missing_field(fields: &[String], field: FieldId) -> Fault {
    Fault::Type(format!(
        "the record has no field `{}`",
        field_name(fields, field)
    ))
}

fn unchecked_index(index: i32, len: usize) -> Fault {
    Fault::Invariant(format!(
        "index {index} out of bounds of an array of length {len} without a bounds check"
    ))
}

fn step_mismatch(fields: &[String], step: Access, found: &Value) -> Fault {
    match step {
        Access::Field(field) => mismatch(found, || {
            format!(
                "field access `.{}` expects a record",
                field_name(fields, field)
            )
        }),
        Access::Index(_) => mismatch(found, || "indexing expects an array".into()),
    }
}

#[cfg(test)]
mod tests {
    use symex_ir::cfg::{BinOp, Check, InstKind, LocalId, Operand, Rvalue};

    use super::*;
    use crate::testing::*;
    use crate::RunEnd;

    fn record(fields: Vec<(u32, Operand)>) -> Rvalue {
        Rvalue::Record(fields.into_iter().map(|(f, op)| (FieldId(f), op)).collect())
    }

    fn store(place: Place, value: Operand) -> symex_ir::cfg::Inst {
        inst(InstKind::Store { place, value })
    }

    fn deref(op: Operand, projections: Vec<Projection>) -> Place {
        place(PlaceBase::Deref(op), projections)
    }

    #[test]
    fn records_are_copied_on_assignment() {
        // r = {f: 1, g: 2}; s = r; s.f = 9; return r.f * 10 + s.f;
        let m = straight(
            5,
            vec![
                assign(0, record(vec![(0, c(1)), (1, c(2))])),
                assign(1, Rvalue::Use(local(0))),
                store(local_place(1, vec![field(0)]), c(9)),
                assign(2, Rvalue::Read(local_place(0, vec![field(0)]))),
                assign(3, Rvalue::Read(local_place(1, vec![field(0)]))),
                binary(4, BinOp::Mul, local(2), c(10)),
                binary(4, BinOp::Add, local(4), local(3)),
            ],
            local(4),
        );
        assert_eq!(returned(&m, &[]), 19);
    }

    #[test]
    fn arrays_of_arrays_write_in_place() {
        // m = [[1,2,3],[4,5,6]]; m[1][2] = 0; return m[1][2] * 100 + m[0][2];
        let m = straight(
            6,
            vec![
                assign(0, Rvalue::Array(vec![c(1), c(2), c(3)])),
                assign(1, Rvalue::Array(vec![c(4), c(5), c(6)])),
                assign(2, Rvalue::Array(vec![local(0), local(1)])),
                store(local_place(2, vec![index(c(1)), index(c(2))]), c(0)),
                assign(
                    3,
                    Rvalue::Read(local_place(2, vec![index(c(1)), index(c(2))])),
                ),
                assign(
                    4,
                    Rvalue::Read(local_place(2, vec![index(c(0)), index(c(2))])),
                ),
                binary(5, BinOp::Mul, local(3), c(100)),
                binary(5, BinOp::Add, local(5), local(4)),
                // the inner array copied into m is unchanged
                assign(3, Rvalue::Read(local_place(1, vec![index(c(2))]))),
                binary(5, BinOp::Mul, local(5), c(10)),
                binary(5, BinOp::Add, local(5), local(3)),
            ],
            local(5),
        );
        assert_eq!(returned(&m, &[]), 36);
    }

    #[test]
    fn heap_records_are_shared_through_pointers_and_copied_out() {
        // p = alloc {f: 1, next: null}; q = p; q->f = 5; r = *p; r.f = 7; return p->f;
        let m = straight(
            4,
            vec![
                assign(0, record(vec![(0, c(1)), (2, Operand::Null)])),
                assign(0, Rvalue::Alloc(local(0))),
                assign(1, Rvalue::Use(local(0))),
                store(deref(local(1), vec![field(0)]), c(5)),
                assign(2, Rvalue::Read(deref(local(0), vec![]))),
                store(local_place(2, vec![field(0)]), c(7)),
                assign(3, Rvalue::Read(deref(local(0), vec![field(0)]))),
            ],
            local(3),
        );
        assert_eq!(returned(&m, &[]), 5);
    }

    #[test]
    fn missing_field_and_non_record_are_type_errors() {
        let missing = straight(
            2,
            vec![
                assign(0, record(vec![(0, c(1))])),
                assign(1, Rvalue::Read(local_place(0, vec![field(1)]))),
            ],
            local(1),
        );
        assert!(matches!(run(&missing, &[]).end,
            RunEnd::TypeError { message, .. } if message == "the record has no field `g`"));
        let store_missing = straight(
            1,
            vec![
                assign(0, record(vec![(0, c(1))])),
                store(local_place(0, vec![field(1)]), c(2)),
            ],
            c(0),
        );
        assert!(matches!(
            run(&store_missing, &[]).end,
            RunEnd::TypeError { .. }
        ));
        let field_of_int = straight(
            2,
            vec![
                assign(0, Rvalue::Use(c(3))),
                assign(1, Rvalue::Read(local_place(0, vec![field(0)]))),
            ],
            local(1),
        );
        assert!(matches!(run(&field_of_int, &[]).end,
            RunEnd::TypeError { message, .. } if message == "field access `.f` expects a record, found a number"));
        let index_of_record = straight(
            1,
            vec![
                assign(0, record(vec![(0, c(1))])),
                store(local_place(0, vec![index(c(0))]), c(2)),
            ],
            c(0),
        );
        assert!(matches!(run(&index_of_record, &[]).end,
            RunEnd::TypeError { message, .. } if message == "indexing expects an array, found a record"));
    }

    #[test]
    fn init_check_through_a_pointer_to_an_unassigned_local() {
        // var x, p, r; p = &x; check init(*p); r = *p
        let mut m = straight(
            3,
            vec![
                assign(1, Rvalue::AddrOf(LocalId(0))),
                check(Check::Init(deref(local(1), vec![])), 4),
                assign(2, Rvalue::Read(deref(local(1), vec![]))),
            ],
            local(2),
        );
        mark_address_taken(&mut m.functions[0], 0);
        assert!(matches!(run(&m, &[]).end, RunEnd::RuntimeError { prop, .. } if prop.0 == 4));
    }

    #[test]
    fn unchecked_null_or_index_is_an_ir_invariant_violation() {
        let null = straight(
            1,
            vec![assign(0, Rvalue::Read(deref(Operand::Null, vec![])))],
            local(0),
        );
        assert!(matches!(run(&null, &[]).end, RunEnd::IrInvariant { .. }));
        let oob = straight(
            1,
            vec![
                assign(0, Rvalue::Array(vec![c(1)])),
                store(local_place(0, vec![index(c(1))]), c(0)),
            ],
            c(0),
        );
        assert!(matches!(run(&oob, &[]).end, RunEnd::IrInvariant { .. }));
    }
}
