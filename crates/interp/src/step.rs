//! The meaning of one non-call instruction: assignments, stores, input/output, checks, assume.
//!
//! Checks are where the five properties fail: a failing `Check` stops the run with its
//! [`PropId`]. Control flow (calls, terminators) belongs to `exec.rs`; memory places to `place.rs`.

use symex_ir::cfg::{Check, FieldId, InstKind, PropId, Rvalue};
use symex_ir::unreached;
use symex_syntax::span::Span;

use crate::config::Limit;
use crate::exec::Machine;
use crate::fault::{mismatch, Fault};
use crate::ops;
use crate::reachability::{self, RunCells};
use crate::value::{index_in_bounds, Value};

impl Machine<'_> {
    #[inline]
    pub(crate) fn step(&mut self, kind: &InstKind, span: Span) -> Result<(), Fault> {
        match kind {
            InstKind::Assign { dst, value } => match self.int_rvalue(value) {
                Some(n) => self.set_int(*dst, n?),
                None => {
                    let value = self.rvalue(value)?;
                    self.set_local(*dst, value)
                }
            },
            InstKind::Store { place, value } => {
                let value = self.operand(value)?;
                self.store(place, value)
            }
            InstKind::Input { dst } => {
                let n = self.next_input(span);
                self.set_local(*dst, Value::Int(n))
            }
            InstKind::Output(op) => {
                let n = self.int_operand(op, "output")?;
                self.output(n);
                Ok(())
            }
            InstKind::Check { check, prop } => self.check(check, *prop),
            InstKind::Assume(op) => match self.truth_operand(op, "assume")? {
                false => Err(Fault::AssumeFailed),
                true => Ok(()),
            },
            InstKind::Call { .. } => Err(Fault::Invariant(
                "a call reached the instruction stepper".into(),
            )),
        }
    }

    /// The hot case of loops over numbers, without building a [`Value`]: a copy of a 32-bit
    /// number, or an operation on two of them. `None` for every other right-hand side, which
    /// [`Machine::rvalue`] evaluates.
    #[inline]
    fn int_rvalue(&self, rvalue: &Rvalue) -> Option<Result<i32, Fault>> {
        match rvalue {
            Rvalue::Use(op) => self.peek_int(op).map(Ok),
            Rvalue::Binary(op, a, b) => {
                let (x, y) = (self.peek_int(a)?, self.peek_int(b)?);
                Some(ops::int_binary(*op, x, y))
            }
            _ => None,
        }
    }

    #[inline]
    fn rvalue(&mut self, rvalue: &Rvalue) -> Result<Value, Fault> {
        match rvalue {
            Rvalue::Use(op) => self.operand(op),
            Rvalue::Binary(op, a, b) => ops::binary(*op, &self.operand(a)?, &self.operand(b)?),
            Rvalue::Unary(op, a) => ops::unary(*op, &self.operand(a)?),
            Rvalue::Read(place) => self.read(place).cloned(),
            Rvalue::Len(place) => match self.read(place)? {
                Value::Array(array) => Ok(Value::Int(array.len() as i32)),
                other => Err(Fault::Type(format!(
                    "`len` expects an array, found {}",
                    other.kind_name()
                ))),
            },
            Rvalue::Alloc(op) => {
                let value = self.operand(op)?;
                self.memory.alloc(value).map(Value::Ptr)
            }
            Rvalue::AddrOf(local) => match &self.stack[self.base + local.index()] {
                // A cell-backed local's slot holds the pointer to its cell.
                Value::Ptr(cell) if self.cell_backed[local.index()] => Ok(Value::Ptr(*cell)),
                _ => Err(Fault::Invariant("`&` of a local without a cell".into())),
            },
            Rvalue::Record(fields) => {
                let fields = fields
                    .iter()
                    .map(|(field, op)| {
                        let value = self.operand(op)?;
                        self.fits_a_field(*field, &value)?;
                        Ok((*field, value))
                    })
                    .collect::<Result<Vec<_>, Fault>>()?;
                self.within_nesting(Value::record(fields))
            }
            Rvalue::Array(items) => {
                let items = items
                    .iter()
                    .map(|op| self.operand(op))
                    .collect::<Result<Vec<_>, Fault>>()?;
                self.within_nesting(Value::array(items))
            }
            Rvalue::Unreached(roots) => {
                let mut cells = Vec::new();
                for root in roots {
                    reachability::pointees(&self.operand(root)?, &mut cells);
                }
                let memory = RunCells {
                    memory: &self.memory,
                    heap_state: unreached::heap_state_field(self.module),
                };
                unreached::unreached(&memory, cells)
                    .map(Value::Int)
                    .map_err(|_| Fault::Invariant("a pointer to a cell that does not exist".into()))
            }
            Rvalue::LiveObjects => {
                let memory = RunCells {
                    memory: &self.memory,
                    heap_state: unreached::heap_state_field(self.module),
                };
                unreached::live_objects(&memory)
                    .map(Value::Int)
                    .map_err(|_| Fault::Invariant("a cell that does not exist".into()))
            }
        }
    }

    /// Records do not nest (microc.md): a field holding a record is a type error, which the
    /// run meets where the record is put into the field.
    pub(crate) fn fits_a_field(&self, field: FieldId, value: &Value) -> Result<(), Fault> {
        match value {
            Value::Record(_) => Err(Fault::Type(format!(
                "records do not nest: field `{}` would hold a record (use a pointer)",
                self.module
                    .fields
                    .get(field.index())
                    .map_or("?", String::as_str)
            ))),
            _ => Ok(()),
        }
    }

    fn within_nesting(&self, value: Value) -> Result<Value, Fault> {
        if value.depth() > self.max_nesting {
            return Err(Fault::Limit(Limit::Nesting(self.max_nesting)));
        }
        Ok(value)
    }

    fn check(&mut self, check: &Check, prop: PropId) -> Result<(), Fault> {
        let holds = match check {
            Check::Assert(op) => self.truth_operand(op, "assert")?,
            Check::Condition { holds, kind } => self.truth_operand(holds, kind.name())?,
            Check::NonZero(op) => match self.operand(op)? {
                Value::Uninit => return Err(mismatch(&Value::Uninit, || "a division".into())),
                value => value != Value::Int(0) && value != Value::Int64(0),
            },
            Check::NonNull(op) => match self.operand(op)? {
                Value::Uninit => return Err(mismatch(&Value::Uninit, || "a dereference".into())),
                value => value != Value::Null,
            },
            Check::InBounds { array, index } => {
                let len = match self.read(array)? {
                    Value::Array(items) => items.len(),
                    other => return Err(mismatch(other, || "indexing expects an array".into())),
                };
                let index = self.int_operand(index, "an array index")?;
                index_in_bounds(index, len).is_some()
            }
            Check::Init(place) => self.is_initialized(place)?,
            Check::Reach => false,
        };
        if holds {
            Ok(())
        } else {
            Err(Fault::Property(prop))
        }
    }
}

#[cfg(test)]
mod tests {
    use symex_ir::cfg::{BinOp, BlockId, LocalId, Module, Operand, PlaceBase, Terminator};
    use symex_syntax::span::Span;

    use super::*;
    use crate::testing::*;
    use crate::{Limit, RunConfig, RunEnd};

    fn error_of(m: &Module, input: &[i32]) -> (u32, Span) {
        match run(m, input).end {
            RunEnd::RuntimeError { prop, kind, span } => {
                assert_eq!(m.properties[prop.index()].kind, kind);
                (prop.0, span)
            }
            other => panic!("expected a runtime error, got {other:?}"),
        }
    }

    #[test]
    fn input_then_minus_one_and_outputs_in_order() {
        let m = straight(
            3,
            vec![
                inst(InstKind::Input { dst: LocalId(0) }),
                inst(InstKind::Input { dst: LocalId(1) }),
                inst(InstKind::Input { dst: LocalId(2) }),
                inst(InstKind::Output(local(0))),
                inst(InstKind::Output(local(1))),
                inst(InstKind::Output(local(2))),
            ],
            c(0),
        );
        let mut streamed = Vec::new();
        let interp = crate::Interpreter::new(&m).unwrap();
        let entry = crate::Entry::main(&m).unwrap();
        let outcome = interp
            .run_with_sink(&entry, &[4, 5], &RunConfig::default(), &mut |n| {
                streamed.push(n)
            })
            .unwrap();
        assert_eq!(outcome.outputs, [4, 5, -1]);
        assert_eq!(streamed, [4, 5, -1]);
    }

    #[test]
    fn each_check_kind_fails_with_its_property() {
        let assert0 = straight(0, vec![check(Check::Assert(c(0)), 0)], c(0));
        assert_eq!(error_of(&assert0, &[]), (0, Span::new(100, 101)));

        let div = straight(
            2,
            vec![
                inst(InstKind::Input { dst: LocalId(0) }),
                check(Check::NonZero(local(0)), 1),
                binary(1, BinOp::Div, c(10), local(0)),
            ],
            local(1),
        );
        assert_eq!(returned(&div, &[3]), 3);
        assert_eq!(error_of(&div, &[0]).0, 1);

        let null = straight(0, vec![check(Check::NonNull(Operand::Null), 2)], c(0));
        assert_eq!(error_of(&null, &[]).0, 2);

        let oob = |i: i32| {
            straight(
                2,
                vec![
                    assign(0, Rvalue::Array(vec![c(1), c(2)])),
                    check(
                        Check::InBounds {
                            array: local_place(0, vec![]),
                            index: c(i),
                        },
                        3,
                    ),
                    assign(1, Rvalue::Read(local_place(0, vec![index(c(i))]))),
                ],
                local(1),
            )
        };
        assert_eq!(returned(&oob(1), &[]), 2);
        assert_eq!(error_of(&oob(2), &[]).0, 3);
        assert_eq!(error_of(&oob(-1), &[]).0, 3);

        let len = straight(
            2,
            vec![
                assign(0, Rvalue::Array(vec![c(7), c(8), c(9)])),
                assign(1, Rvalue::Len(local_place(0, vec![]))),
            ],
            local(1),
        );
        assert_eq!(returned(&len, &[]), 3);

        let uninit = straight(
            1,
            vec![check(Check::Init(local_place(0, vec![])), 4)],
            local(0),
        );
        assert_eq!(error_of(&uninit, &[]).0, 4);
    }

    #[test]
    fn assume_zero_ends_silently() {
        let m = straight(
            0,
            vec![
                inst(InstKind::Output(c(1))),
                inst_at(InstKind::Assume(c(0)), 40),
                inst(InstKind::Output(c(2))),
            ],
            c(0),
        );
        let outcome = run(&m, &[]);
        assert_eq!(outcome.outputs, [1]);
        assert_eq!(
            outcome.end,
            RunEnd::AssumeFailed {
                span: Span::new(40, 41)
            }
        );
    }

    #[test]
    fn dynamic_type_errors_only_when_they_happen() {
        let output_null = straight(0, vec![inst_at(InstKind::Output(Operand::Null), 7)], c(0));
        assert_eq!(
            run(&output_null, &[]).end,
            RunEnd::TypeError {
                message: "output expects a number, found null".into(),
                span: Span::new(7, 8)
            }
        );
        let mut branch_on_pointer = straight(1, vec![assign(0, Rvalue::Alloc(c(1)))], c(0));
        branch_on_pointer.functions[0].blocks[0].term = Terminator::Branch {
            cond: local(0),
            then_block: BlockId(0),
            else_block: BlockId(0),
        };
        assert!(matches!(
            run(&branch_on_pointer, &[]).end,
            RunEnd::TypeError { span, .. } if span == Span::new(900, 901)
        ));
        // An int stored in a variable that later holds a pointer is fine until it is misused.
        let reuse = straight(
            1,
            vec![
                assign(0, Rvalue::Use(c(1))),
                assign(0, Rvalue::Alloc(c(1))),
                binary(0, BinOp::Eq, local(0), Operand::Null),
            ],
            local(0),
        );
        assert_eq!(returned(&reuse, &[]), 0);
    }

    #[test]
    fn unguarded_uninitialized_use_is_an_ir_invariant_violation() {
        let m = straight(2, vec![binary(1, BinOp::Add, local(0), c(1))], local(1));
        assert!(matches!(run(&m, &[]).end, RunEnd::IrInvariant { .. }));
        let div = straight(1, vec![binary(0, BinOp::Div, c(1), c(0))], local(0));
        assert!(matches!(run(&div, &[]).end, RunEnd::IrInvariant { .. }));
    }

    #[test]
    fn nesting_limit_stops_an_ever_deeper_array() {
        // main() { var a; a = [0]; while (1) { a = [a]; } }
        let m = module(vec![function(
            "main",
            0,
            1,
            vec![
                block(
                    vec![assign(0, Rvalue::Array(vec![c(0)]))],
                    Terminator::Goto(BlockId(1)),
                ),
                block(
                    vec![assign(0, Rvalue::Array(vec![local(0)]))],
                    Terminator::Goto(BlockId(1)),
                ),
            ],
        )]);
        let outcome = run(&m, &[]);
        assert!(matches!(
            outcome.end,
            RunEnd::LimitExceeded {
                limit: Limit::Nesting(crate::DEFAULT_MAX_NESTING),
                ..
            }
        ));
    }

    #[test]
    fn cell_limit_stops_an_allocation_loop() {
        let m = module(vec![function(
            "main",
            0,
            1,
            vec![block(
                vec![assign(0, Rvalue::Alloc(c(0)))],
                Terminator::Goto(BlockId(0)),
            )],
        )]);
        let config = RunConfig {
            max_cells: 10,
            ..RunConfig::default()
        };
        let outcome = run_with(&m, &[], &config);
        assert!(matches!(
            outcome.end,
            RunEnd::LimitExceeded {
                limit: Limit::Cells(10),
                ..
            }
        ));
    }

    #[test]
    fn dereferencing_a_number_is_a_type_error() {
        let m = straight(
            1,
            vec![
                check(Check::NonNull(c(5)), 2),
                assign(0, Rvalue::Read(place(PlaceBase::Deref(c(5)), vec![]))),
            ],
            local(0),
        );
        assert!(
            matches!(run(&m, &[]).end, RunEnd::TypeError { message, .. } if message.contains("expects a pointer"))
        );
    }
}
