//! The executor's shared context: the module, the term store, the query layer, the options,
//! the findings per property and the cuts; and the step function that advances one state by
//! one instruction or terminator.
//!
//! A step returns what became of the state (it goes on, it ended, it forked). The machine never
//! chooses which state runs next (the searchers do) and never builds the report (the driver
//! does). Instruction semantics are in `exec.rs`, memory access in `access.rs`, properties in
//! `checks.rs`.

use std::rc::Rc;
use std::time::Instant;

use symex_ir::cfg::{FuncId, Module, Width};
use symex_report::{Cut, Cuts, Finding, Locator};
use symex_smt::{PathCondition, TermId, TermStore};

use crate::common::coverage::CoverageMap;
use crate::common::entry::EntrySetup;
use crate::common::options::CheckOptions;
use crate::common::solver::Queries;
use crate::common::terms::{WIDE, WIDTH};
use crate::error::EngineError;
use crate::forward::locals::Locals;
use crate::forward::memory::Memory;
use crate::forward::merge::PathCount;
use crate::forward::program::ProgramInfo;
use crate::forward::state::{Frame, Stack, State};
use crate::forward::value::SymValue;
use crate::heap::{HeapContext, HeapState};

/// How a state's run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum End {
    /// The entry function returned: one complete feasible path.
    Returned,
    /// Dropped silently: an `assume` that cannot hold.
    Dropped,
    /// Every continuation fails a check (e.g. `assert(0)`).
    Failed,
    /// A bound stopped the path.
    Cut(Cut),
}

/// What one step did to a state.
#[derive(Debug, Default)]
pub struct Outcome {
    /// The state ended (it is not run again).
    pub end: Option<End>,
    /// New states split off the stepped one.
    pub forked: Vec<State>,
}

impl Outcome {
    pub fn go_on() -> Outcome {
        Outcome::default()
    }

    pub fn ended(end: End) -> Outcome {
        Outcome {
            end: Some(end),
            forked: Vec::new(),
        }
    }
}

pub struct Machine<'m> {
    pub module: &'m Module,
    pub info: ProgramInfo,
    pub store: TermStore,
    pub queries: Queries,
    pub options: &'m CheckOptions,
    pub entry: EntrySetup,
    /// The symbols of the entry's parameters, in order.
    pub arg_vars: Vec<TermId>,
    /// `#k` for every `input` read so far by some path.
    pub input_vars: Vec<TermId>,
    /// The first finding per property (one counterexample per property, as in KLEE).
    pub findings: Vec<Option<Finding>>,
    /// Until when a counterexample's replay may run beyond the check's own deadline
    /// (`CheckOptions::replay_timeout`).
    pub replay_deadline: Option<Instant>,
    /// Cuts that concern one property only (a solver `unknown` on its check).
    pub property_cuts: Vec<Cuts>,
    /// Cuts that concern the whole search.
    pub cuts: Cuts,
    pub coverage: CoverageMap,
    pub locator: Locator<'m>,
    pub forks: u64,
    /// Properties with a confirmed violation (to stop once every property is decided).
    pub confirmed_violations: usize,
    /// Whether a confirmed violation ends the search (`--stop-on-first`).
    pub stop_now: bool,
    /// The input-heap model, when the entry has pointer parameters.
    pub heap: Option<HeapContext>,
    /// The entry's argument values in the initial state (for witnesses with a heap).
    pub entry_args: Vec<SymValue>,
    /// Leaves of the symbolic computation tree so far (`stats.traces`).
    pub traces: u64,
    /// Runs replayed past an `unmodelled` check that had its counterexample already
    /// (`Machine::replay_past_unmodelled`).
    pub replays_past_unmodelled: u32,
}

impl<'m> Machine<'m> {
    pub fn new(
        module: &'m Module,
        source: &str,
        entry: EntrySetup,
        options: &'m CheckOptions,
        queries: Queries,
    ) -> Result<Machine<'m>, EngineError> {
        let mut store = TermStore::new();
        let function = module.function(entry.func);
        let arg_vars = (entry.params.iter())
            .zip(function.params())
            .map(|(name, param)| {
                let width = match function.local(param).width {
                    Width::W64 => WIDE,
                    Width::W32 => WIDTH,
                };
                store.bv_var(name.clone(), width)
            })
            .collect::<Result<Vec<_>, _>>()?;
        let properties = module.properties.len();
        let mut heap = entry
            .has_pointers()
            .then(|| HeapContext::new(module, options));
        let mut entry_args = Vec::with_capacity(arg_vars.len());
        for (i, &var) in arg_vars.iter().enumerate() {
            entry_args.push(match (&mut heap, &entry.pointees[i]) {
                (Some(ctx), Some(pointee)) => {
                    let key = ctx.intern_type(pointee);
                    SymValue::Ref(ctx.reference(&mut store, &entry.params[i], key, 0)?)
                }
                _ => SymValue::Int(var),
            });
        }
        Ok(Machine {
            module,
            info: ProgramInfo::new(module),
            store,
            queries,
            options,
            coverage: CoverageMap::new(module, entry.func),
            entry,
            arg_vars,
            input_vars: Vec::new(),
            findings: vec![None; properties],
            replay_deadline: options.replay_timeout.map(|limit| Instant::now() + limit),
            property_cuts: vec![Cuts::new(); properties],
            cuts: Cuts::new(),
            locator: Locator::new(module, source),
            forks: 0,
            replays_past_unmodelled: 0,
            confirmed_violations: 0,
            stop_now: false,
            heap,
            entry_args,
            traces: 0,
        })
    }

    /// The state at the entry function's first instruction, its parameters symbolic.
    pub fn initial_state(&mut self) -> Result<State, EngineError> {
        let mut state = State {
            stack: Stack::new(),
            memory: Memory::default(),
            pc: PathCondition::new(),
            inputs_read: 0,
            depth: 0,
            paths: PathCount::default(),
            annotation_track: Default::default(),
            heap: HeapState::default(),
        };
        let args = self.entry_args.clone();
        self.push_frame(&mut state, self.entry.func, args, None)?;
        Ok(state)
    }

    /// Calls `func` with `args`: a new frame whose cell-backed locals get their cells.
    pub fn push_frame(
        &mut self,
        state: &mut State,
        func: FuncId,
        args: Vec<SymValue>,
        return_to: Option<symex_ir::cfg::LocalId>,
    ) -> Result<(), EngineError> {
        let function =
            self.module.functions.get(func.index()).ok_or_else(|| {
                EngineError::Internal(format!("a call to no function (#{})", func.0))
            })?;
        let info = &self.info.functions[func.index()];
        if args.len() != function.param_count as usize {
            return Err(EngineError::Internal(format!(
                "`{}` called with {} arguments",
                function.name,
                args.len()
            )));
        }
        let mut locals = args;
        locals.resize(function.locals.len(), SymValue::Uninit);
        for (index, value) in locals.iter_mut().enumerate() {
            if info.cell_backed[index] {
                let cell = state
                    .memory
                    .alloc(std::mem::replace(value, SymValue::Uninit));
                *value = SymValue::Cell(cell);
            }
        }
        state.stack.push_back(Rc::new(Frame {
            func,
            block: symex_ir::cfg::Function::ENTRY,
            inst: 0,
            locals: Locals::new(locals),
            return_to,
            iterations: vec![0; info.loop_count()],
        }));
        Ok(())
    }

    /// The symbol of the `index`-th input.
    pub fn input_var(&mut self, index: u32) -> Result<TermId, EngineError> {
        while self.input_vars.len() <= index as usize {
            let k = self.input_vars.len();
            let var = self.store.bv_var(format!("#{k}"), WIDTH)?;
            self.input_vars.push(var);
        }
        Ok(self.input_vars[index as usize])
    }

    /// Records a solver `unknown` that leaves the search incomplete.
    pub fn solver_unknown(&mut self, reason: String, property: Option<usize>) {
        let cut = Cut::SolverUnknown { reason };
        match property {
            Some(p) => self.property_cuts[p].hit(cut),
            None => self.cuts.hit(cut),
        }
    }
}

/// Runs `test` on a machine for `source`'s `main`, with default options, and its initial
/// state (for unit tests that step states by hand).
#[cfg(test)]
pub(crate) fn with_machine(source: &str, test: impl FnOnce(&mut Machine<'_>, State)) {
    let front = symex_syntax::analyze(source).expect("valid");
    let types = front.types.expect("typed");
    let module = symex_ir::lower(&front.program);
    let setup = crate::common::entry::resolve_entry(&module, &types, "main").expect("main");
    let options = CheckOptions::default();
    let queries = crate::common::solver::query_engine(&options.solver, &options.query).expect("z3");
    let mut machine = Machine::new(&module, source, setup, &options, queries).expect("ok");
    let state = machine.initial_state().expect("state");
    test(&mut machine, state);
}
