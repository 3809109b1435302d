//! Instruction and terminator semantics of the forward engine: one step of one state.
//!
//! Branches fork only into feasible directions (constant conditions never reach the solver),
//! `assume` constrains the path or drops it, calls push frames and returns pop them, `input`
//! reads a fresh symbol `#k`. `--unwind K` is applied here: a path is cut when it would take a
//! loop's back edge for the (K+1)-th time since it entered the loop (per frame), or when a
//! call would make K+1 activations of the same function active. `--max-depth N` lets a path
//! fork N times; beyond, it follows the `then` side only and the search is marked cut.
//! Properties are in `checks.rs`; nothing here picks the next state.

use std::convert::Infallible;
use std::ops::Range;

use symex_ir::cfg::{
    BinOp, BlockId, FuncId, Inst, InstKind, Operand, PlaceBase, Rvalue, Terminator,
};
use symex_report::{Cut, PathEnd};
use symex_smt::{Answer, TermId};

use crate::common::terms::{self, int_const};
use crate::error::EngineError;
use crate::forward::machine::{End, Machine, Outcome};
use crate::forward::program::EdgeKind;
use crate::forward::reachability;
use crate::forward::state::{replace_locals, Frame, State};
use crate::forward::value::SymValue;

type Result<T> = std::result::Result<T, EngineError>;

fn internal(message: &str) -> EngineError {
    EngineError::Internal(message.to_string())
}

impl Machine<'_> {
    /// Executes the state's next instruction or terminator.
    pub fn step(&mut self, state: &mut State) -> Result<Outcome> {
        let (func, block, index) = state
            .location()
            .ok_or_else(|| internal("a state without a frame"))?;
        let module = self.module;
        let body = module
            .functions
            .get(func.index())
            .and_then(|f| f.blocks.get(block.index()))
            .ok_or_else(|| internal("a location outside the module"))?;
        self.coverage.cover_instruction(func, block, index);
        match body.insts.get(index) {
            Some(inst) => {
                if self.heap.is_some() {
                    if let Some(outcome) = self.prepare_heap_access(state, inst)? {
                        return Ok(outcome);
                    }
                }
                state.frame_mut().ok_or_else(|| internal("no frame"))?.inst += 1;
                self.instruction(state, inst)
            }
            None => self.terminator(state, func, block, &body.term),
        }
    }

    fn instruction(&mut self, state: &mut State, inst: &Inst) -> Result<Outcome> {
        match &inst.kind {
            InstKind::Assign { dst, value } => {
                let value = self.rvalue(state, value)?;
                self.write_local(state, *dst, value)?;
            }
            InstKind::Store { place, value } => {
                let value = self.operand(state, *value)?;
                if let (PlaceBase::Local(local), true) = (place.base, place.projections.is_empty())
                {
                    self.write_local(state, local, value)?;
                } else {
                    self.write_place(state, place, value)?;
                }
            }
            InstKind::Call {
                dst,
                func: callee,
                args,
            } => {
                if let Some(k) = self.options.unwind {
                    if state.activations(*callee) >= k as usize {
                        return Ok(Outcome::ended(End::Cut(Cut::Unwind(k))));
                    }
                }
                let values = args
                    .iter()
                    .map(|&a| self.operand(state, a))
                    .collect::<Result<Vec<_>>>()?;
                self.push_frame(state, *callee, values, Some(*dst))?;
            }
            InstKind::Input { dst } => {
                let index = state.inputs_read;
                let symbol = self.input_var(index)?;
                state.inputs_read += 1;
                self.write_local(state, *dst, SymValue::Int(symbol))?;
            }
            InstKind::Output(_) => {}
            InstKind::Check { check, prop } => return self.check(state, check, *prop),
            InstKind::Assume(op) => return self.assume(state, *op),
        }
        Ok(Outcome::go_on())
    }

    fn rvalue(&mut self, state: &mut State, value: &Rvalue) -> Result<SymValue> {
        Ok(match value {
            Rvalue::Use(op) => self.operand(state, *op)?,
            Rvalue::Unary(op, a) => {
                let a = self.int_operand(state, *a)?;
                SymValue::Int(terms::unary(&mut self.store, *op, a)?)
            }
            Rvalue::Binary(op, a, b) => {
                let (a, b) = (self.operand(state, *a)?, self.operand(state, *b)?);
                let pointers = a.is_pointer_like() || b.is_pointer_like();
                if pointers && matches!(op, BinOp::Eq | BinOp::Ne) {
                    let mut eq = a.pointer_eq(&b, &mut self.store)?;
                    if *op == BinOp::Ne {
                        eq = self.store.not(eq)?;
                    }
                    SymValue::Int(terms::from_bool(&mut self.store, eq)?)
                } else {
                    let (a, b) = (a.as_int(&mut self.store)?, b.as_int(&mut self.store)?);
                    SymValue::Int(terms::binary(&mut self.store, *op, a, b)?)
                }
            }
            Rvalue::Alloc(op) => {
                let v = self.operand(state, *op)?;
                SymValue::Cell(state.memory.alloc(v))
            }
            Rvalue::AddrOf(local) => {
                let frame = state.frame().ok_or_else(|| internal("no frame"))?;
                match frame.locals.get(local.index()) {
                    Some(cell @ SymValue::Cell(_)) => cell.clone(),
                    _ => return Err(internal("the address of a local without a cell")),
                }
            }
            Rvalue::Record(fields) => {
                let values = fields
                    .iter()
                    .map(|(f, op)| Ok((*f, self.operand(state, *op)?)))
                    .collect::<Result<Vec<_>>>()?;
                SymValue::Record(values.into())
            }
            Rvalue::Array(items) => {
                let values = items
                    .iter()
                    .map(|op| self.operand(state, *op))
                    .collect::<Result<Vec<_>>>()?;
                SymValue::array(values)
            }
            Rvalue::Read(place) => self.read_place(state, place)?,
            Rvalue::Len(place) => {
                let array = self.read_place(state, place)?;
                SymValue::Int(array.length(&mut self.store)?)
            }
            Rvalue::Unreached(roots) => {
                let roots = roots
                    .iter()
                    .map(|op| self.operand(state, *op))
                    .collect::<Result<Vec<_>>>()?;
                let lost = reachability::unreached(
                    &state.memory,
                    &self.store,
                    self.info.heap_state,
                    &roots,
                );
                SymValue::Int(int_const(&mut self.store, lost)?)
            }
            Rvalue::LiveObjects => {
                let live = reachability::live_objects(
                    &state.memory,
                    &mut self.store,
                    self.info.heap_state,
                )?;
                SymValue::Int(live)
            }
        })
    }

    fn assume(&mut self, state: &mut State, op: Operand) -> Result<Outcome> {
        let value = self.int_operand(state, op)?;
        let cond = terms::truth(&mut self.store, value)?;
        let cond = state.pc.rewrite(&mut self.store, cond)?;
        let holds = match self.store.as_bool(cond) {
            Some(true) => return Ok(Outcome::go_on()),
            Some(false) => Answer::No,
            None => self.queries.may_be_true(&self.store, &state.pc, cond)?,
        };
        match holds {
            Answer::No => {
                self.emit_test(state, None, PathEnd::AssumeFailed)?;
                Ok(Outcome::ended(End::Dropped))
            }
            Answer::Yes | Answer::Unknown(_) => {
                self.constrain(state, cond)?;
                Ok(Outcome::go_on())
            }
        }
    }

    fn terminator(
        &mut self,
        state: &mut State,
        func: FuncId,
        block: BlockId,
        term: &Terminator,
    ) -> Result<Outcome> {
        match *term {
            Terminator::Goto(target) => Ok(self.move_or_cut(state, func, target)),
            Terminator::Branch {
                cond,
                then_block,
                else_block,
            } => {
                let value = self.int_operand(state, cond)?;
                let cond = terms::truth(&mut self.store, value)?;
                let cond = state.pc.rewrite(&mut self.store, cond)?;
                let targets = [(true, then_block), (false, else_block)];
                if let Some(direction) = self.store.as_bool(cond) {
                    let (_, target) = targets[usize::from(!direction)];
                    return self.take(state, func, block, direction, None, target);
                }
                let negated = self.store.not(cond)?;
                let then_possible = self.queries.may_be_true(&self.store, &state.pc, cond)?;
                if then_possible == Answer::No {
                    // The path condition is satisfiable, so the else side is implied.
                    return self.take(state, func, block, false, None, else_block);
                }
                let else_possible = self.queries.may_be_true(&self.store, &state.pc, negated)?;
                if else_possible == Answer::No {
                    return self.take(state, func, block, true, None, then_block);
                }
                // The bound ends the path, as KLEE's does (following one side on, it ran a loop
                // over an input's range without end).
                if let Some(limit) = self.options.max_depth {
                    if state.depth >= limit {
                        return Ok(Outcome::ended(End::Cut(Cut::Depth(limit))));
                    }
                }
                self.forks += 1;
                state.depth += 1;
                let mut other = state.clone();
                let mut outcome = self.take(state, func, block, true, Some(cond), then_block)?;
                let other_outcome =
                    self.take(&mut other, func, block, false, Some(negated), else_block)?;
                self.forget_unread(state);
                self.forget_unread(&mut other);
                match other_outcome.end {
                    Some(End::Cut(cut)) => self.cuts.hit(cut),
                    _ => outcome.forked.push(other),
                }
                Ok(outcome)
            }
            Terminator::Return(op) => {
                let value = self.operand(state, op)?;
                let frame = state.stack.pop_back().ok_or_else(|| internal("no frame"))?;
                if state.frame().is_none() {
                    return Ok(Outcome::ended(End::Returned));
                }
                if let Some(dst) = frame.return_to {
                    self.write_local(state, dst, value)?;
                }
                Ok(Outcome::go_on())
            }
        }
    }

    /// Forgets the values of the top frame's locals that nothing reads from the state's block
    /// on (`Locals::forget`), so that a state waiting after a fork does not keep the chunks
    /// its sibling copies. Not where loop summaries or subsumption look at the values of
    /// locals whatever their liveness, nor within a block (forks end blocks).
    fn forget_unread(&mut self, state: &mut State) {
        if self.options.summarize || self.options.subsume {
            return;
        }
        let Some(&Frame {
            func,
            block,
            inst: 0,
            ..
        }) = state.frame()
        else {
            return;
        };
        let reads = self.info.functions[func.index()].reads(&self.module.functions[func.index()]);
        // State matching compares whether dead `Init`-checked locals are assigned: kept.
        let (live, checked) = (reads.live_in(block), reads.init_checked());
        let kept = |locals: Range<usize>| live.any_in(locals.clone()) || checked.any_in(locals);
        if let Some(frame) = state.frame_mut() {
            frame.locals.forget(kept);
        }
    }

    /// Follows one direction of a branch: constrains the path (if `constraint`), records the
    /// decision and moves.
    #[allow(clippy::too_many_arguments)]
    fn take(
        &mut self,
        state: &mut State,
        func: FuncId,
        block: BlockId,
        direction: bool,
        constraint: Option<TermId>,
        target: BlockId,
    ) -> Result<Outcome> {
        if let Some(c) = constraint {
            self.constrain(state, c)?;
        }
        self.coverage.cover_branch(func, block, direction);
        Ok(self.move_or_cut(state, func, target))
    }

    /// Adds `constraint` to the path condition. Where the path then fixes terms to numbers
    /// (`#3 == 5`, or `0 < #3` and `#3 <= 1`; see `PathCondition::constrain`), the top frame's
    /// locals that hold such a term get the number instead: conditions on them are then
    /// constant and reach no solver (KLEE's implied-value concretization; on this path both
    /// are the same value, so nothing else changes).
    pub(crate) fn constrain(&mut self, state: &mut State, constraint: TermId) -> Result<()> {
        let fixed = state.pc.constrain(&mut self.store, constraint)?;
        if fixed.is_empty() {
            return Ok(());
        }
        let number_of = |v: &SymValue| match v {
            SymValue::Int(t) => fixed.iter().find(|(term, _)| term == t).map(|&(_, n)| n),
            _ => None,
        };
        if let Some(frame) = state.stack.back_mut() {
            let replaced = |v: &SymValue| Ok::<_, Infallible>(number_of(v).map(SymValue::Int));
            let Ok(()) = replace_locals(frame, replaced);
        }
        Ok(())
    }

    /// Moves to `target`, counting loop iterations; cut when `--unwind` is exceeded.
    fn move_or_cut(&mut self, state: &mut State, func: FuncId, target: BlockId) -> Outcome {
        let unwind = self.options.unwind;
        let info = &self.info.functions[func.index()];
        let Some(frame) = state.frame_mut() else {
            return Outcome::ended(End::Dropped);
        };
        match info.edge_kind(frame.block, target) {
            EdgeKind::Back(l) => {
                frame.iterations[l] += 1;
                if let Some(k) = unwind {
                    if frame.iterations[l] > k {
                        return Outcome::ended(End::Cut(Cut::Unwind(k)));
                    }
                }
            }
            EdgeKind::Enter(l) => frame.iterations[l] = 0,
            EdgeKind::Plain => {}
        }
        frame.block = target;
        frame.inst = 0;
        Outcome::go_on()
    }
}
