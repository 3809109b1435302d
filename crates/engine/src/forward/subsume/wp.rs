//! Carrying an annotation back along a finished path: the weakest precondition of the path's
//! blocks, visit by visit (seed 002 §4.2): a branch conjoins the direction taken, an assignment
//! substitutes, a check conjoins the condition under which it passes, `assume(c)` gives
//! `¬c ∨ A`, a call binds the callee's parameters, a return binds the caller's destination.
//!
//! The result at a block's start is "a state here that follows this path's suffix passes every
//! check on it", so it may be added (as a disjunct) to that location's annotation. Whatever is
//! not about numbers in plain locals makes the annotation `false` when the annotation depends on
//! it, which is always sound. Nothing here decides when paths end or checks states.

use std::time::Instant;

use rustc_hash::FxHashMap;
use symex_ir::cfg::{FuncId, Function, Inst, InstKind, LocalId, Module, Operand, Terminator};
use symex_smt::{TermId, TermStore, VarId};

use crate::error::EngineError;
use crate::forward::program::ProgramInfo;
use crate::forward::subsume::facts::FunctionFacts;
use crate::forward::subsume::placeholders::{Placeholders, Role};
use crate::forward::subsume::semantics::{self, Locals};
use crate::forward::subsume::track::{Track, Visit};

type Result<T> = std::result::Result<T, EngineError>;

fn internal(message: &str) -> EngineError {
    EngineError::Internal(format!("subsumption: {message}"))
}

/// Where the path went after a visit.
#[derive(Clone, Copy, Debug)]
pub enum After {
    /// On to this visit (the next one on the path, or where the path was pruned).
    Visit(Visit),
    /// The entry function returned from the visited block.
    ReturnedFromEntry,
    /// The path stopped in the visited block before this instruction.
    StoppedAt(usize),
}

/// How far one walk may go back.
#[derive(Clone, Copy, Debug)]
pub struct WalkLimits {
    pub max_visits: usize,
    /// The most terms one walk may add to the store.
    pub max_new_terms: usize,
    pub deadline: Option<Instant>,
}

/// The locals of one frame as placeholders.
struct FrameLocals<'a> {
    ph: &'a mut Placeholders,
    frame: usize,
    function: &'a Function,
    cell_backed: &'a [bool],
}

impl Locals for FrameLocals<'_> {
    fn number(&mut self, store: &mut TermStore, local: LocalId) -> Result<Option<TermId>> {
        if self.cell_backed.get(local.index()).copied().unwrap_or(true) {
            return Ok(None);
        }
        let width = self.function.local(local).width;
        Ok(Some(self.ph.value(store, self.frame, local, width)?))
    }

    fn initialized(&mut self, store: &mut TermStore, local: LocalId) -> Result<Option<TermId>> {
        if self.cell_backed.get(local.index()).copied().unwrap_or(true) {
            return Ok(None);
        }
        Ok(Some(self.ph.init(store, self.frame, local)?))
    }
}

pub struct Walk<'a> {
    pub store: &'a mut TermStore,
    pub ph: &'a mut Placeholders,
    pub module: &'a Module,
    pub info: &'a ProgramInfo,
    /// Per function of the module.
    pub facts: &'a [FunctionFacts],
}

impl Walk<'_> {
    /// Carries `annotation` (true where the path stopped) back along `track`, handing every
    /// visit that began at a block's start, with the annotation there, to `record`.
    pub fn back(
        &mut self,
        track: &Track,
        mut after: After,
        mut annotation: TermId,
        limits: WalkLimits,
        mut record: impl FnMut(&mut TermStore, &mut Placeholders, &Visit, TermId) -> Result<()>,
    ) -> Result<()> {
        let terms_before = self.store.len();
        for (walked, visit) in track.newest_first().enumerate() {
            // Each step rewrites the whole annotation, so a long path costs its length times the
            // annotation's size: the walk stops early (leaving fewer annotations, never wrong ones).
            if self.store.as_bool(annotation) == Some(false)
                || walked >= limits.max_visits
                || self.store.len() - terms_before >= limits.max_new_terms
                || limits.deadline.is_some_and(|d| Instant::now() >= d)
            {
                break;
            }
            annotation = self.through_visit(visit, after, annotation)?;
            if visit.start == 0 && self.store.as_bool(annotation) != Some(false) {
                record(self.store, self.ph, visit, annotation)?;
            }
            after = After::Visit(*visit);
        }
        Ok(())
    }

    fn locals<'b>(
        ph: &'b mut Placeholders,
        module: &'b Module,
        info: &'b ProgramInfo,
        frame: usize,
        func: FuncId,
    ) -> FrameLocals<'b> {
        FrameLocals {
            ph,
            frame,
            function: &module.functions[func.index()],
            cell_backed: &info.functions[func.index()].cell_backed,
        }
    }

    fn through_visit(&mut self, visit: &Visit, after: After, mut a: TermId) -> Result<TermId> {
        let module = self.module;
        let function = module
            .functions
            .get(visit.func.index())
            .ok_or_else(|| internal("a visit outside the module"))?;
        let block = function
            .blocks
            .get(visit.block.index())
            .ok_or_else(|| internal("a visit outside the function"))?;
        let frame = visit
            .depth
            .checked_sub(1)
            .ok_or_else(|| internal("a visit without a frame"))?;
        let mut end = block.insts.len();
        match after {
            After::Visit(next) if next.depth == visit.depth + 1 => {
                let call = (visit.start..block.insts.len())
                    .find(|&i| matches!(block.insts[i].kind, InstKind::Call { .. }))
                    .ok_or_else(|| internal("a deeper visit without a call"))?;
                let InstKind::Call {
                    func: callee, args, ..
                } = &block.insts[call].kind
                else {
                    return Err(internal("a call that is not one"));
                };
                a = self.back_into_call(a, frame, visit.func, *callee, args)?;
                end = call;
            }
            After::Visit(next) if next.depth + 1 == visit.depth => {
                let Terminator::Return(value) = block.term else {
                    return Err(internal("a shallower visit without a return"));
                };
                let caller = module
                    .functions
                    .get(next.func.index())
                    .and_then(|f| f.blocks.get(next.block.index()))
                    .and_then(|b| b.insts.get(next.start.wrapping_sub(1)))
                    .ok_or_else(|| internal("a return to no call"))?;
                let InstKind::Call { dst, .. } = caller.kind else {
                    return Err(internal("a return to no call"));
                };
                let value = semantics::operand(
                    self.store,
                    &mut Self::locals(self.ph, self.module, self.info, frame, visit.func),
                    value,
                )?;
                a = self.assign(a, frame - 1, next.func, dst, value)?;
            }
            After::Visit(next) => {
                if let Terminator::Branch {
                    cond,
                    then_block,
                    else_block,
                } = block.term
                {
                    if then_block != else_block {
                        a = self.branch(a, frame, visit.func, cond, next.block == then_block)?;
                    }
                }
            }
            After::ReturnedFromEntry => {}
            After::StoppedAt(inst) => end = inst.min(block.insts.len()),
        }
        let mut inputs = visit.inputs_read
            + block.insts[visit.start.min(end)..end]
                .iter()
                .filter(|i| matches!(i.kind, InstKind::Input { .. }))
                .count() as u32;
        for inst in block.insts[visit.start.min(end)..end].iter().rev() {
            if matches!(inst.kind, InstKind::Input { .. }) {
                inputs -= 1;
            }
            a = self.through_inst(a, frame, visit.func, inst, inputs)?;
            if self.store.as_bool(a) == Some(false) {
                break;
            }
        }
        Ok(a)
    }

    fn branch(
        &mut self,
        a: TermId,
        frame: usize,
        func: FuncId,
        cond: Operand,
        taken: bool,
    ) -> Result<TermId> {
        let Some(c) = semantics::condition(
            self.store,
            &mut Self::locals(self.ph, self.module, self.info, frame, func),
            cond,
        )?
        else {
            return Ok(self.store.bool_val(false)?);
        };
        let c = if taken { c } else { self.store.not(c)? };
        Ok(self.store.and(c, a)?)
    }

    fn through_inst(
        &mut self,
        a: TermId,
        frame: usize,
        func: FuncId,
        inst: &Inst,
        input: u32,
    ) -> Result<TermId> {
        match &inst.kind {
            InstKind::Assign { dst, value } => {
                let number = semantics::rvalue(
                    self.store,
                    &mut Self::locals(self.ph, self.module, self.info, frame, func),
                    value,
                )?;
                // What memory held is not tracked: any value (the annotation must then hold
                // for every one).
                let number = match (number, value) {
                    (None, value) if semantics::reads_memory(value) => {
                        let width = self.module.functions[func.index()].local(*dst).width;
                        Some(self.ph.any_value(self.store, width)?)
                    }
                    (number, _) => number,
                };
                self.assign(a, frame, func, *dst, number)
            }
            InstKind::Store { place, value } => match semantics::plain_local(place) {
                Some(local) => {
                    let value = semantics::operand(
                        self.store,
                        &mut Self::locals(self.ph, self.module, self.info, frame, func),
                        *value,
                    )?;
                    self.assign(a, frame, func, local, value)
                }
                // Memory, which annotations never mention.
                None => Ok(a),
            },
            InstKind::Input { dst } => {
                let value = self.ph.path_input(self.store, input)?;
                self.assign(a, frame, func, *dst, Some(value))
            }
            InstKind::Output(_) => Ok(a),
            InstKind::Check { check, .. } => {
                let facts = self
                    .facts
                    .get(func.index())
                    .ok_or_else(|| internal("a function without facts"))?;
                match semantics::check_passes(
                    self.store,
                    &mut Self::locals(self.ph, self.module, self.info, frame, func),
                    facts,
                    check,
                )? {
                    Some(c) => Ok(self.store.and(c, a)?),
                    None => Ok(self.store.bool_val(false)?),
                }
            }
            InstKind::Assume(op) => {
                match semantics::condition(
                    self.store,
                    &mut Self::locals(self.ph, self.module, self.info, frame, func),
                    *op,
                )? {
                    Some(c) => {
                        let failed = self.store.not(c)?;
                        Ok(self.store.or(failed, a)?)
                    }
                    // `a` implies `¬c ∨ a`.
                    None => Ok(a),
                }
            }
            InstKind::Call { .. } => Err(internal("a call inside a visit")),
        }
    }

    /// `a[dst := value]`, `dst` initialized; `value` `None` (not a number) forgets whatever `a`
    /// said about `dst`.
    fn assign(
        &mut self,
        a: TermId,
        frame: usize,
        func: FuncId,
        dst: LocalId,
        value: Option<TermId>,
    ) -> Result<TermId> {
        if self.info.functions[func.index()].is_cell_backed(dst) {
            // Annotations never mention cell-backed locals (their reads translate to `None`).
            return Ok(a);
        }
        let width = self.module.functions[func.index()].local(dst).width;
        let var = self.ph.value(self.store, frame, dst, width)?;
        let init = self.ph.init(self.store, frame, dst)?;
        let mut map = FxHashMap::default();
        let yes = self.store.bool_val(true)?;
        map.insert(init, yes);
        match value {
            Some(t) => {
                map.insert(var, t);
            }
            None => {
                if mentions(self.store, a, var) {
                    return Ok(self.store.bool_val(false)?);
                }
            }
        }
        Ok(self.store.substitute(a, &map)?)
    }

    /// Back from the callee's first block to its call: parameters take the arguments, the other
    /// locals are uninitialized and may hold anything.
    fn back_into_call(
        &mut self,
        a: TermId,
        frame: usize,
        caller: FuncId,
        callee: FuncId,
        args: &[Operand],
    ) -> Result<TermId> {
        let callee_frame = frame + 1;
        let params = self
            .module
            .functions
            .get(callee.index())
            .ok_or_else(|| internal("a call to no function"))?
            .param_count as usize;
        let vars: Vec<VarId> = self.store.vars_of(&[a]);
        let mut map = FxHashMap::default();
        for var in vars {
            let Some(role) = self.ph.role(var) else {
                continue;
            };
            let term = self.store.var_info(var).term;
            match role {
                Role::Value(f, local) if f == callee_frame => {
                    let replacement = if local.index() < params {
                        let arg = args
                            .get(local.index())
                            .copied()
                            .ok_or_else(|| internal("too few arguments"))?;
                        match semantics::operand(
                            self.store,
                            &mut Self::locals(self.ph, self.module, self.info, frame, caller),
                            arg,
                        )? {
                            Some(t) => t,
                            None => return Ok(self.store.bool_val(false)?),
                        }
                    } else {
                        self.ph.any_like(self.store, term)?
                    };
                    map.insert(term, replacement);
                }
                Role::Init(f, local) if f == callee_frame => {
                    let initialized = self.store.bool_val(local.index() < params)?;
                    map.insert(term, initialized);
                }
                _ => {}
            }
        }
        Ok(self.store.substitute(a, &map)?)
    }
}

/// Whether `var` occurs in `t`.
pub fn mentions(store: &TermStore, t: TermId, var: TermId) -> bool {
    t == var || store.postorder_where(&[t], |_| true).contains(&var)
}
