//! The execution loop: one explicit frame stack, no Rust recursion per micro-c call.
//!
//! All frames' locals live in one contiguous `Vec<Value>`; a frame is a base offset into it plus
//! the caller's resume position. The loop walks blocks of the (already validated) module directly,
//! counts every instruction and terminator, and turns a [`Fault`] into the public [`RunEnd`] with
//! the span of the instruction that raised it. Places, checks and instruction semantics are in
//! `place.rs` and `step.rs`; this file only binds the entry's arguments (after loading its input
//! heap) and moves control.

use std::time::Instant;

use symex_ir::cfg::{BlockId, FuncId, Function, InstKind, LocalId, Module, Operand, Terminator};
use symex_syntax::span::Span;

use crate::config::{Limit, RunConfig, DEADLINE_POLL};
use crate::entry::Entry;
use crate::fault::{expect_int, expect_truth, Fault};
use crate::memory::Memory;
use crate::outcome::Access;
use crate::outcome::{RunCoverage, RunEnd, RunOutcome};
use crate::prepare::FunctionInfo;
use crate::record::Recorder;
use crate::value::Value;

/// A suspended caller: where to resume and where to put the callee's result.
struct Frame {
    func: FuncId,
    block: BlockId,
    next_inst: usize,
    base: usize,
    result: LocalId,
}

pub(crate) struct Machine<'r> {
    pub(crate) module: &'r Module,
    infos: &'r [FunctionInfo],
    /// The locals of every active frame, the current one last.
    pub(crate) stack: Vec<Value>,
    frames: Vec<Frame>,
    /// Offset of the current frame's locals in `stack`.
    pub(crate) base: usize,
    /// The current function's `cell_backed` flags.
    pub(crate) cell_backed: &'r [bool],
    pub(crate) memory: Memory,
    input: Inputs<'r>,
    next_input: usize,
    outputs: Vec<i32>,
    sink: &'r mut dyn FnMut(i32),
    steps: u64,
    step_limit: u64,
    deadline: Option<Instant>,
    max_call_depth: usize,
    pub(crate) max_nesting: u32,
    pub(crate) recorder: Recorder,
    /// Scratch buffer of `store` (see `place.rs`).
    pub(crate) store_steps: Vec<Access>,
}

/// Where a run's input numbers come from.
pub(crate) enum Inputs<'r> {
    /// These, in order; past their end every input is -1.
    Numbers(&'r [i32]),
    /// Chosen one by one by the caller, from the span of the `input` instruction reading it
    /// (a witness validator gives a call's value from the call's place).
    Chosen(&'r mut dyn FnMut(Span) -> i32),
}

impl<'r> Machine<'r> {
    pub(crate) fn new(
        module: &'r Module,
        infos: &'r [FunctionInfo],
        input: Inputs<'r>,
        config: &RunConfig,
        sink: &'r mut dyn FnMut(i32),
    ) -> Machine<'r> {
        Machine {
            module,
            infos,
            stack: Vec::new(),
            frames: Vec::new(),
            base: 0,
            cell_backed: &[],
            memory: Memory::new(config.max_cells),
            input,
            next_input: 0,
            outputs: Vec::new(),
            sink,
            steps: 0,
            step_limit: config.max_steps.unwrap_or(u64::MAX),
            deadline: config.deadline,
            max_call_depth: config.max_call_depth,
            max_nesting: config.max_nesting,
            recorder: Recorder {
                path: config.record_path.then(Vec::new),
                events: config.record_events.then(Vec::new),
                coverage: config.record_coverage.then(|| RunCoverage::new(module)),
                input_sites: config.record_input_sites.then(Vec::new),
            },
            store_steps: Vec::new(),
        }
    }

    /// Runs `entry` to its end: loads its input heap into fresh cells, binds its arguments, and
    /// executes. The entry was checked by the caller (function, argument count, references).
    pub(crate) fn run(mut self, entry: &Entry) -> RunOutcome {
        let end = match self
            .bind(entry)
            .and_then(|args| self.execute(entry.func, args))
        {
            Ok(value) => RunEnd::Returned(value),
            Err((fault, span)) => self.end_of(fault, span),
        };
        RunOutcome {
            outputs: self.outputs,
            end,
            steps: self.steps,
            inputs_read: self.next_input,
            path: self.recorder.path,
            events: self.recorder.events,
            coverage: self.recorder.coverage,
            input_sites: self.recorder.input_sites,
        }
    }

    /// The entry's argument values, after loading its input heap into memory. A failure (the
    /// cell limit) is located at the entry function.
    fn bind(&mut self, entry: &Entry) -> Result<Vec<Value>, (Fault, Span)> {
        let span = |fault| {
            let func = self.module.functions.get(entry.func.index());
            (fault, func.map_or_else(Span::default, |f| f.span))
        };
        let cells = entry.heap.load(&mut self.memory).map_err(span)?;
        entry
            .args
            .iter()
            .map(|a| a.to_value(&cells))
            .collect::<Result<Vec<Value>, Fault>>()
            .map_err(span)
    }

    fn end_of(&self, fault: Fault, span: Span) -> RunEnd {
        match fault {
            Fault::Property(prop) => {
                let property = &self.module.properties[prop.index()];
                RunEnd::RuntimeError {
                    prop,
                    kind: property.kind,
                    span: property.span,
                }
            }
            Fault::AssumeFailed => RunEnd::AssumeFailed { span },
            Fault::Type(message) => RunEnd::TypeError { message, span },
            Fault::Invariant(message) => RunEnd::IrInvariant { message, span },
            Fault::Limit(limit) => RunEnd::LimitExceeded { limit, span },
        }
    }

    fn execute(&mut self, entry: FuncId, args: Vec<Value>) -> Result<Value, (Fault, Span)> {
        let module = self.module;
        let mut func_id = entry;
        let mut func: &'r Function = &module.functions[entry.index()];
        if self.max_call_depth == 0 {
            return Err((Fault::Limit(Limit::CallDepth(0)), func.span));
        }
        self.stack.extend(args);
        self.activate(entry, 0).map_err(|f| (f, func.span))?;
        self.record_local_cells(entry, func.span);
        let mut block_id = Function::ENTRY;
        let mut block = func.block(block_id);
        let mut pc = 0;
        self.record_block(func_id, block_id);
        loop {
            while let Some(inst) = block.insts.get(pc) {
                pc += 1;
                self.tick().map_err(|f| (f, inst.span))?;
                self.record_instruction(func_id, block_id, pc - 1);
                if let InstKind::Call {
                    dst,
                    func: callee,
                    args,
                } = &inst.kind
                {
                    self.call(*callee, args, *dst, func_id, block_id, pc)
                        .map_err(|f| (f, inst.span))?;
                    if self.records_events() {
                        self.record_call(func_id, inst.span, *callee);
                    }
                    func_id = *callee;
                    func = &module.functions[callee.index()];
                    block_id = Function::ENTRY;
                    block = func.block(block_id);
                    pc = 0;
                    self.record_block(func_id, block_id);
                } else {
                    let inputs_before = self.next_input;
                    self.step(&inst.kind, inst.span)
                        .map_err(|f| (f, inst.span))?;
                    if self.records_events() {
                        self.record_inst(func_id, inst, inputs_before);
                    }
                }
            }
            let term_span = block.term_span;
            self.tick().map_err(|f| (f, term_span))?;
            self.record_instruction(func_id, block_id, block.insts.len());
            block_id = match &block.term {
                Terminator::Goto(target) => *target,
                Terminator::Branch {
                    cond,
                    then_block,
                    else_block,
                } => {
                    let cond = match self.peek_int(cond) {
                        Some(n) => n != 0,
                        None => self
                            .truth_operand(cond, "the condition")
                            .map_err(|f| (f, term_span))?,
                    };
                    if self.records_events() {
                        self.record_branch(func_id, term_span, cond);
                    }
                    self.record_direction(func_id, block_id, cond);
                    if cond {
                        *then_block
                    } else {
                        *else_block
                    }
                }
                Terminator::Return(op) => {
                    let value = self.operand(op).map_err(|f| (f, term_span))?;
                    if self.records_events() {
                        self.record_return(func_id, term_span, &value);
                    }
                    let Some(caller) = self.frames.pop() else {
                        return Ok(value);
                    };
                    self.stack.truncate(self.base);
                    self.base = caller.base;
                    func_id = caller.func;
                    func = &module.functions[func_id.index()];
                    self.cell_backed = &self.infos[func_id.index()].cell_backed;
                    block_id = caller.block;
                    block = func.block(block_id);
                    pc = caller.next_inst;
                    let call_span = block
                        .insts
                        .get(pc.saturating_sub(1))
                        .map_or(block.term_span, |call| call.span);
                    self.set_local(caller.result, value)
                        .map_err(|f| (f, call_span))?;
                    if self.records_events() {
                        self.record_assign(func_id, call_span, caller.result);
                    }
                    continue;
                }
            };
            block = func.block(block_id);
            pc = 0;
            self.record_block(func_id, block_id);
        }
    }

    /// Counts one instruction, or stops if the step budget is spent.
    #[inline]
    fn tick(&mut self) -> Result<(), Fault> {
        if self.steps == self.step_limit {
            return Err(Fault::Limit(Limit::Steps(self.step_limit)));
        }
        self.steps += 1;
        if self.steps & (DEADLINE_POLL - 1) == 0 {
            if let Some(deadline) = self.deadline {
                if Instant::now() >= deadline {
                    return Err(Fault::Limit(Limit::Time));
                }
            }
        }
        Ok(())
    }

    /// Suspends the current frame (resuming at `next_inst` of `block`) and activates `callee`.
    fn call(
        &mut self,
        callee: FuncId,
        args: &[Operand],
        result: LocalId,
        func: FuncId,
        block: BlockId,
        next_inst: usize,
    ) -> Result<(), Fault> {
        let target = &self.module.functions[callee.index()];
        if args.len() != target.param_count as usize {
            return Err(Fault::Type(format!(
                "`{}` takes {} argument(s) but {} were given",
                target.name,
                target.param_count,
                args.len()
            )));
        }
        // `frames` holds the callers of the current frame: active frames = frames + 1.
        if self.frames.len() + 1 >= self.max_call_depth {
            return Err(Fault::Limit(Limit::CallDepth(self.max_call_depth)));
        }
        let new_base = self.stack.len();
        for arg in args {
            let value = self.operand(arg)?;
            self.stack.push(value);
        }
        self.frames.push(Frame {
            func,
            block,
            next_inst,
            base: self.base,
            result,
        });
        self.activate(callee, new_base)
    }

    /// Makes `func` the current frame at `base`, whose parameters are already on the stack:
    /// adds its other locals (uninitialized) and moves cell-backed locals into fresh cells.
    fn activate(&mut self, func: FuncId, base: usize) -> Result<(), Fault> {
        let info = &self.infos[func.index()];
        let local_count = self.module.functions[func.index()].locals.len();
        self.stack.resize(base + local_count, Value::Uninit);
        self.base = base;
        self.cell_backed = &info.cell_backed;
        if info.has_cell_backed {
            for (slot, _) in info.cell_backed.iter().enumerate().filter(|(_, &b)| b) {
                let initial = std::mem::take(&mut self.stack[base + slot]);
                let cell = self.memory.alloc(initial)?;
                self.stack[base + slot] = Value::Ptr(cell);
            }
        }
        Ok(())
    }

    /// The value of a local: its frame slot, or its cell if the local is cell-backed.
    #[inline]
    pub(crate) fn local(&self, local: LocalId) -> Result<&Value, Fault> {
        let slot = &self.stack[self.base + local.index()];
        match slot {
            Value::Ptr(cell) if self.cell_backed[local.index()] => self.memory.get(*cell),
            _ => Ok(slot),
        }
    }

    #[inline]
    pub(crate) fn set_local(&mut self, local: LocalId, value: Value) -> Result<(), Fault> {
        let slot = &mut self.stack[self.base + local.index()];
        match slot {
            Value::Ptr(cell) if self.cell_backed[local.index()] => {
                *self.memory.get_mut(*cell)? = value;
            }
            _ => *slot = value,
        }
        Ok(())
    }

    /// [`Machine::set_local`] of a number: a slot that holds a number already is overwritten
    /// in place (no value to drop, a 4-byte store).
    #[inline]
    pub(crate) fn set_int(&mut self, local: LocalId, n: i32) -> Result<(), Fault> {
        match &mut self.stack[self.base + local.index()] {
            Value::Int(slot) => {
                *slot = n;
                Ok(())
            }
            _ => self.set_local(local, Value::Int(n)),
        }
    }

    #[inline]
    pub(crate) fn operand(&self, op: &Operand) -> Result<Value, Fault> {
        Ok(match op {
            Operand::Const(n) => Value::Int(*n),
            Operand::Const64(n) => Value::Int64(*n),
            Operand::Null => Value::Null,
            Operand::Local(l) => self.local(*l)?.clone(),
        })
    }

    /// The 32-bit number an operand holds, or the type fault for `what`.
    #[inline]
    pub(crate) fn int_operand(&self, op: &Operand, what: &str) -> Result<i32, Fault> {
        match op {
            Operand::Const(n) => Ok(*n),
            Operand::Local(l) => expect_int(self.local(*l)?, what),
            Operand::Const64(n) => expect_int(&Value::Int64(*n), what),
            Operand::Null => expect_int(&Value::Null, what),
        }
    }

    /// Whether the number an operand holds (of either width) is non-zero, or the type fault for
    /// `what`.
    #[inline]
    pub(crate) fn truth_operand(&self, op: &Operand, what: &str) -> Result<bool, Fault> {
        match op {
            Operand::Const(n) => Ok(*n != 0),
            Operand::Const64(n) => Ok(*n != 0),
            Operand::Local(l) => expect_truth(self.local(*l)?, what),
            Operand::Null => expect_truth(&Value::Null, what),
        }
    }

    /// The 32-bit number an operand holds, if it holds one (no clone, no fault).
    #[inline]
    pub(crate) fn peek_int(&self, op: &Operand) -> Option<i32> {
        match op {
            Operand::Const(n) => Some(*n),
            Operand::Local(l) => self.local(*l).ok()?.as_int(),
            Operand::Const64(_) | Operand::Null => None,
        }
    }

    /// The next input number for the `input` instruction at `span`: the given numbers' next,
    /// or -1 once they are exhausted (the course convention), or the caller's choice.
    pub(crate) fn next_input(&mut self, span: Span) -> i32 {
        self.record_input_site(span);
        let n = match &mut self.input {
            Inputs::Numbers(numbers) => match numbers.get(self.next_input) {
                Some(&n) => n,
                None => return -1,
            },
            Inputs::Chosen(choose) => choose(span),
        };
        self.next_input += 1;
        n
    }

    pub(crate) fn output(&mut self, n: i32) {
        self.outputs.push(n);
        (self.sink)(n);
    }
}

#[cfg(test)]
mod tests {
    use symex_ir::cfg::{BinOp, BlockId, Rvalue};

    use super::*;
    use crate::testing::*;
    use crate::{Limit, RunConfig};

    /// `fib(n) { if (n < 2) return n; return fib(n-1) + fib(n-2) }` and `main() { return fib(arg) }`.
    pub(crate) fn fib_module(arg: i32) -> Module {
        let fib = function(
            "fib",
            1,
            7,
            vec![
                block(
                    vec![binary(1, BinOp::Lt, local(0), c(2))],
                    Terminator::Branch {
                        cond: local(1),
                        then_block: BlockId(1),
                        else_block: BlockId(2),
                    },
                ),
                block(vec![], Terminator::Return(local(0))),
                block(
                    vec![
                        binary(2, BinOp::Sub, local(0), c(1)),
                        call(3, 0, vec![local(2)]),
                        binary(4, BinOp::Sub, local(0), c(2)),
                        call(5, 0, vec![local(4)]),
                        binary(6, BinOp::Add, local(3), local(5)),
                    ],
                    Terminator::Return(local(6)),
                ),
            ],
        );
        let main = function(
            "main",
            0,
            1,
            vec![block(
                vec![call(0, 0, vec![c(arg)])],
                Terminator::Return(local(0)),
            )],
        );
        module(vec![fib, main])
    }

    /// `f(n) { if (n == 0) return 0; return f(n - 1) + 1 }`, `main() { return f(arg) }`.
    fn linear_recursion(arg: i32) -> Module {
        let f = function(
            "f",
            1,
            4,
            vec![
                block(
                    vec![binary(1, BinOp::Eq, local(0), c(0))],
                    Terminator::Branch {
                        cond: local(1),
                        then_block: BlockId(1),
                        else_block: BlockId(2),
                    },
                ),
                block(vec![], Terminator::Return(c(0))),
                block(
                    vec![
                        binary(2, BinOp::Sub, local(0), c(1)),
                        call(3, 0, vec![local(2)]),
                        binary(3, BinOp::Add, local(3), c(1)),
                    ],
                    Terminator::Return(local(3)),
                ),
            ],
        );
        let main = function(
            "main",
            0,
            1,
            vec![block(
                vec![call(0, 0, vec![c(arg)])],
                Terminator::Return(local(0)),
            )],
        );
        module(vec![f, main])
    }

    #[test]
    fn recursive_fibonacci() {
        assert_eq!(returned(&fib_module(10), &[]), 55);
        assert_eq!(returned(&fib_module(20), &[]), 6765);
    }

    #[test]
    fn counts_instructions_and_terminators() {
        let m = module(vec![function(
            "main",
            0,
            1,
            vec![block(
                vec![binary(0, BinOp::Add, c(1), c(2))],
                Terminator::Return(local(0)),
            )],
        )]);
        let outcome = run(&m, &[]);
        assert_eq!(outcome.end, RunEnd::Returned(Value::Int(3)));
        assert_eq!(outcome.steps, 2);
        // fib(1): main's call, fib's compare and branch, fib's return, main's return.
        assert_eq!(run(&fib_module(1), &[]).steps, 5);
    }

    #[test]
    fn deep_recursion_uses_no_rust_stack() {
        assert_eq!(returned(&linear_recursion(90_000), &[]), 90_000);
    }

    #[test]
    fn call_depth_limit_stops_cleanly() {
        let config = RunConfig::default().with_max_call_depth(100);
        let at_limit = run_with(&linear_recursion(98), &[], &config);
        assert_eq!(at_limit.end.returned_int(), Some(98));
        let over = run_with(&linear_recursion(99), &[], &config);
        assert_eq!(
            over.end,
            RunEnd::LimitExceeded {
                limit: Limit::CallDepth(100),
                span: Span::new(1, 2)
            }
        );
    }

    #[test]
    fn step_limit_stops_an_endless_loop() {
        let m = module(vec![function(
            "main",
            0,
            0,
            vec![block(vec![], Terminator::Goto(BlockId(0)))],
        )]);
        let outcome = run_with(&m, &[], &RunConfig::default().with_max_steps(1000));
        assert_eq!(outcome.steps, 1000);
        assert!(matches!(
            outcome.end,
            RunEnd::LimitExceeded {
                limit: Limit::Steps(1000),
                ..
            }
        ));
    }

    #[test]
    fn a_deadline_stops_an_endless_loop_within_one_poll() {
        let m = module(vec![function(
            "main",
            0,
            0,
            vec![block(vec![], Terminator::Goto(BlockId(0)))],
        )]);
        let config = RunConfig::default().with_deadline(std::time::Instant::now());
        let outcome = run_with(&m, &[], &config);
        assert_eq!(outcome.steps, crate::DEADLINE_POLL);
        assert!(matches!(
            outcome.end,
            RunEnd::LimitExceeded {
                limit: Limit::Time,
                ..
            }
        ));
    }

    #[test]
    fn records_the_path_across_calls() {
        let outcome = run_with(&fib_module(2), &[], &RunConfig::default().with_path());
        let blocks: Vec<(u32, u32)> = outcome
            .path
            .unwrap()
            .iter()
            .map(|s| (s.func.0, s.block.0))
            .collect();
        // main, fib(2) -> else, fib(1) -> then, fib(0) -> then.
        assert_eq!(
            blocks,
            [(1, 0), (0, 0), (0, 2), (0, 0), (0, 1), (0, 0), (0, 1)]
        );
        assert_eq!(run(&fib_module(2), &[]).path, None);
    }

    #[test]
    fn wrong_argument_count_is_a_type_error() {
        let mut m = fib_module(3);
        let InstKind::Call { args, .. } = &mut m.functions[1].blocks[0].insts[0].kind else {
            unreachable!()
        };
        args.push(c(1));
        assert!(
            matches!(run(&m, &[]).end, RunEnd::TypeError { message, .. } if message.contains("`fib` takes 1"))
        );
    }

    #[test]
    fn address_taken_locals_live_in_cells() {
        // main() { var x, p, r; x = 1; p = &x; *p = 5; x = x + 4; r = *p; p = 2 + 3;
        //          r = r + p; return r; }
        // `x = x + 4` takes the numbers' fast path: its slot holds the cell's pointer, and the
        // sum must land in the cell; `p = 2 + 3` writes a number over a pointer in a plain slot.
        let mut main = function(
            "main",
            0,
            3,
            vec![block(
                vec![
                    assign(0, Rvalue::Use(c(1))),
                    assign(1, Rvalue::AddrOf(LocalId(0))),
                    inst(InstKind::Store {
                        place: place(symex_ir::cfg::PlaceBase::Deref(local(1)), vec![]),
                        value: c(5),
                    }),
                    assign(0, Rvalue::Binary(BinOp::Add, local(0), c(4))),
                    assign(
                        2,
                        Rvalue::Read(place(symex_ir::cfg::PlaceBase::Deref(local(1)), vec![])),
                    ),
                    assign(1, Rvalue::Binary(BinOp::Add, c(2), c(3))),
                    assign(2, Rvalue::Binary(BinOp::Add, local(2), local(1))),
                ],
                Terminator::Return(local(2)),
            )],
        );
        mark_address_taken(&mut main, 0);
        assert_eq!(returned(&module(vec![main]), &[]), 14);
    }

    #[test]
    fn a_pointer_to_a_finished_frames_local_stays_valid() {
        // f(a) { var p; p = &a; return p; }  main() { var q, r; q = f(7); r = *q; return r; }
        let mut f = function(
            "f",
            1,
            2,
            vec![block(
                vec![assign(1, Rvalue::AddrOf(LocalId(0)))],
                Terminator::Return(local(1)),
            )],
        );
        mark_address_taken(&mut f, 0);
        let main = function(
            "main",
            0,
            2,
            vec![block(
                vec![
                    call(0, 0, vec![c(7)]),
                    assign(
                        1,
                        Rvalue::Read(place(symex_ir::cfg::PlaceBase::Deref(local(0)), vec![])),
                    ),
                ],
                Terminator::Return(local(1)),
            )],
        );
        assert_eq!(returned(&module(vec![f, main]), &[]), 7);
    }

    #[test]
    fn entry_with_integer_arguments() {
        let m = fib_module(0);
        let interp = crate::Interpreter::new(&m).unwrap();
        let entry = crate::Entry::new(&m, "fib", vec![crate::ArgValue::Int(12)]).unwrap();
        let outcome = interp.run(&entry, &[], &RunConfig::default()).unwrap();
        assert_eq!(outcome.end.returned_int(), Some(144));
    }
}
