//! What a run leaves behind besides its result: the blocks it entered and its events, each
//! recorded only when [`crate::RunConfig`] asks for it.
//!
//! The execution loop calls these hooks after an instruction or terminator has taken effect, so
//! a recorded value is the value the program actually holds. Nothing here changes the run: a hook
//! only reads the machine.

use symex_ir::cfg::{BlockId, FuncId, Inst, InstKind, LocalId, LocalKind, PlaceBase, Rvalue};
use symex_syntax::span::Span;

use crate::exec::Machine;
use crate::outcome::{EventKind, PathStep, RunCoverage, RunEvent, StoreTarget};
use crate::value::{CellId, Value};

/// At most this many events are kept: a replay may run millions of loop iterations (a
/// summarized loop's witness), and a trace is for reading. Later events are dropped.
pub const MAX_EVENTS: usize = 100_000;

/// The recordings a run keeps; `None` where the configuration did not ask.
#[derive(Default)]
pub(crate) struct Recorder {
    pub(crate) path: Option<Vec<PathStep>>,
    pub(crate) events: Option<Vec<RunEvent>>,
    pub(crate) coverage: Option<RunCoverage>,
    pub(crate) input_sites: Option<Vec<Span>>,
}

impl Machine<'_> {
    #[inline]
    pub(crate) fn record_block(&mut self, func: FuncId, block: BlockId) {
        if let Some(path) = &mut self.recorder.path {
            path.push(PathStep { func, block });
        }
    }

    /// Instruction `index` of the block (`index == insts.len()`: its terminator) starts.
    #[inline]
    pub(crate) fn record_instruction(&mut self, func: FuncId, block: BlockId, index: usize) {
        if let Some(coverage) = &mut self.recorder.coverage {
            if let Some(flag) = coverage.instructions[func.index()][block.index()].get_mut(index) {
                *flag = true;
            }
        }
    }

    /// The block's conditional branch went to its `then` side (`true`) or its `else` side.
    #[inline]
    pub(crate) fn record_direction(&mut self, func: FuncId, block: BlockId, then: bool) {
        if let Some(coverage) = &mut self.recorder.coverage {
            coverage.branches[func.index()][block.index()][usize::from(!then)] = true;
        }
    }

    /// An `input` instruction at `span` reads a number.
    #[inline]
    pub(crate) fn record_input_site(&mut self, span: Span) {
        if let Some(sites) = &mut self.recorder.input_sites {
            sites.push(span);
        }
    }

    #[inline]
    pub(crate) fn records_events(&self) -> bool {
        self.recorder.events.is_some()
    }

    fn push_event(&mut self, func: FuncId, span: Span, kind: EventKind) {
        if let Some(events) = &mut self.recorder.events {
            if events.len() < MAX_EVENTS {
                events.push(RunEvent { func, span, kind });
            }
        }
    }

    /// After the non-call instruction `inst` of `func` ran; `inputs_before` is how many inputs
    /// had been read before it.
    pub(crate) fn record_inst(&mut self, func: FuncId, inst: &Inst, inputs_before: usize) {
        let written = match &inst.kind {
            InstKind::Assign { dst, value } => {
                if let (Rvalue::Alloc(_), Ok(&Value::Ptr(cell))) = (value, self.local(*dst)) {
                    if let Ok(value) = self.memory.get(cell) {
                        let value = value.clone();
                        self.push_event(func, inst.span, EventKind::Alloc { cell, value });
                    }
                }
                *dst
            }
            InstKind::Store { place, value } => match &place.base {
                PlaceBase::Local(local) if place.projections.is_empty() => *local,
                base => {
                    let target = match base {
                        PlaceBase::Local(local) if self.is_source(func, *local) => {
                            StoreTarget::Local(*local)
                        }
                        PlaceBase::Local(_) => return,
                        // A write through a pointer to a variable of this very call is a write
                        // of that variable.
                        PlaceBase::Deref(pointer) => match self.operand(pointer) {
                            Ok(Value::Ptr(cell)) => match self.own_variable(func, cell) {
                                Some(local) => StoreTarget::Local(local),
                                None => StoreTarget::Cell(cell),
                            },
                            _ => return,
                        },
                    };
                    if let Ok(value) = self.operand(value) {
                        // `store` leaves the evaluated projections of the last store here.
                        let path = self.store_steps.clone();
                        let kind = EventKind::Store {
                            target,
                            path,
                            value,
                        };
                        self.push_event(func, inst.span, kind);
                    }
                    return;
                }
            },
            InstKind::Input { dst } => {
                if let Ok(&Value::Int(value)) = self.local(*dst) {
                    let index = inputs_before as u32;
                    self.push_event(func, inst.span, EventKind::Input { index, value });
                }
                *dst
            }
            _ => return,
        };
        self.record_assign(func, inst.span, written);
    }

    /// The source variable of the current call (a call of `func`) that lives in `cell`.
    fn own_variable(&self, func: FuncId, cell: CellId) -> Option<LocalId> {
        (0..self.cell_backed.len())
            .filter(|&i| self.cell_backed[i])
            .map(|i| LocalId(i as u32))
            .find(|&local| {
                self.stack[self.base + local.index()] == Value::Ptr(cell)
                    && self.is_source(func, local)
            })
    }

    fn is_source(&self, func: FuncId, local: LocalId) -> bool {
        self.module.functions[func.index()]
            .locals
            .get(local.index())
            .is_some_and(|l| l.kind != LocalKind::Temp)
    }

    /// When `func` starts: the cells its address-taken source variables live in.
    pub(crate) fn record_local_cells(&mut self, func: FuncId, span: Span) {
        if !self.records_events() {
            return;
        }
        for (index, &backed) in self.cell_backed.iter().enumerate() {
            let var = LocalId(index as u32);
            if let (true, Value::Ptr(cell)) = (backed, &self.stack[self.base + index]) {
                if self.is_source(func, var) {
                    let cell = *cell;
                    self.push_event(func, span, EventKind::LocalCell { var, cell });
                }
            }
        }
    }

    /// After `local` of the current frame (a frame of `func`) was written as a whole.
    pub(crate) fn record_assign(&mut self, func: FuncId, span: Span, local: LocalId) {
        if self.is_source(func, local) {
            if let Ok(value) = self.local(local) {
                let value = value.clone();
                self.push_event(func, span, EventKind::Assign { var: local, value });
            }
        }
    }

    /// After `caller` called `callee` at `span`: the callee's frame is current and its first
    /// locals are the arguments.
    pub(crate) fn record_call(&mut self, caller: FuncId, span: Span, callee: FuncId) {
        let count = self.module.functions[callee.index()].param_count as usize;
        let args = self.stack[self.base..self.base + count]
            .iter()
            .enumerate()
            .map(|(i, slot)| match slot {
                Value::Ptr(cell) if self.cell_backed[i] => {
                    self.memory.get(*cell).cloned().unwrap_or_default()
                }
                other => other.clone(),
            })
            .collect();
        self.push_event(caller, span, EventKind::Call { callee, args });
        let callee_span = self.module.functions[callee.index()].span;
        self.record_local_cells(callee, callee_span);
        // The parameters as assignments in the callee, so that a trace names them.
        for index in 0..count {
            let var = LocalId(index as u32);
            if self.is_source(callee, var) {
                self.record_assign(callee, callee_span, var);
            }
        }
    }

    pub(crate) fn record_branch(&mut self, func: FuncId, span: Span, condition: bool) {
        self.push_event(func, span, EventKind::Branch { condition });
    }

    pub(crate) fn record_return(&mut self, func: FuncId, span: Span, value: &Value) {
        let value = value.clone();
        self.push_event(func, span, EventKind::Return { value });
    }
}
