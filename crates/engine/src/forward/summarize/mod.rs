//! Loop summarization (`--summarize`, seed 002 §4.4 and §5.4.4): a state that reaches the
//! header of a loop jumps over whole runs of iterations at once, by symbolic iteration counts,
//! instead of unrolling them one by one.
//!
//! * `expr`: the body's numbers as expressions over the iteration's start values;
//! * `walk`: the paths of the body (the automaton's vertices), composable into macro steps;
//! * `closed`: closed forms of a walk repeated k times (induction variables `x ± c` and
//!   `x ± invariant`, derived values) and its conditions as affine atoms;
//! * `phase`: the exact 32-bit formulas of "this walk k times from these values";
//! * `pda`: the path dependency automaton, its cycles and their periods;
//! * `apply`: the forks a summary makes at the header.
//!
//! The driver's only hook is [`Summarizer::step`], which it calls instead of `Machine::step`.
//! Loops are analysed lazily, once, when a state first reaches their header; a loop that cannot
//! be summarized (its reason is kept) and a state a summary cannot serve (a check in the loop
//! may fail, a local is not a number) go on by plain execution. Summaries are exact: they never
//! cut a path, so they add no `Cut`. Nested loops are not summarized yet (a loop containing a
//! loop runs plainly; its inner loop is summarized on each visit).

mod apply;
mod closed;
mod expr;
mod pda;
mod phase;
mod walk;

use std::collections::BTreeMap;
use std::rc::Rc;

use symex_ir::analysis::LoopId;
use symex_ir::cfg::{FuncId, LocalId};
use symex_smt::{ModelResult, TermId};

use crate::common::terms::WIDTH;
use crate::error::EngineError;
use crate::forward::machine::{Machine, Outcome};
use crate::forward::state::State;
use crate::forward::summarize::closed::ClosedForm;

type Result<T> = std::result::Result<T, EngineError>;

/// What the analysis of one loop found.
pub struct LoopModel {
    /// The body paths with their closed forms.
    pub paths: Vec<ClosedForm>,
    /// The periodic walks of the automaton's cycles; each starts with a different path.
    pub macros: Vec<ClosedForm>,
    /// Locals whose start values some path reads: they must hold numbers.
    pub reads: Vec<LocalId>,
}

/// The summaries of one check: loop models, built on first use, and what became of each loop.
#[derive(Default)]
pub struct Summarizer {
    models: BTreeMap<(FuncId, LoopId), std::result::Result<Rc<LoopModel>, String>>,
    /// Per reached loop: whether a summary was applied at least once.
    applied: BTreeMap<(FuncId, LoopId), bool>,
}

impl Summarizer {
    pub fn new() -> Summarizer {
        Summarizer::default()
    }

    /// One step of `state`: a summary if it stands at the header of a loop that has one and the
    /// summary can serve it (then `true`), else `Machine::step`.
    pub fn step(
        &mut self,
        machine: &mut Machine<'_>,
        state: &mut State,
    ) -> Result<(Outcome, bool)> {
        let plain =
            |machine: &mut Machine<'_>, state: &mut State| Ok((machine.step(state)?, false));
        let Some((func, block, 0)) = state.location() else {
            return plain(machine, state);
        };
        let Some(id) = machine.info.functions[func.index()]
            .loops()
            .loop_of_header(block)
        else {
            return plain(machine, state);
        };
        let key = (func, id);
        if let std::collections::btree_map::Entry::Vacant(slot) = self.models.entry(key) {
            slot.insert(analyse(machine, func, id)?);
        }
        let applied = self.applied.entry(key).or_insert(false);
        let Some(Ok(model)) = self.models.get(&key) else {
            return plain(machine, state);
        };
        match apply::apply(machine, model, state)? {
            Some(outcome) => {
                *applied = true;
                Ok((outcome, true))
            }
            None => plain(machine, state),
        }
    }

    /// (loops summarized at least once, loops reached but never summarized).
    pub fn loop_counts(&self) -> (u64, u64) {
        let summarized = self.applied.values().filter(|&&a| a).count() as u64;
        (summarized, self.applied.len() as u64 - summarized)
    }
}

/// Why a property stays unknown when its only counterexample runs a summarized loop too long
/// for a replay.
pub const LONG_REPLAY: &str =
    "a counterexample runs a summarized loop more often than a replay may execute";

/// The display name of the iteration counts summaries put into path conditions.
const COUNT_NAME: &str = "loop.k";

/// A model of `constraints` for a counterexample, with values for `vars` and for the iteration
/// counts of the summaries in `constraints` (appended to `vars`, so the trace shows the values
/// after each summarized loop). Small counts are preferred (at most 64, then 65536 iterations
/// per summary) so that the interpreter can replay the counterexample within its step limit;
/// the flag says that only larger counts fit (a replay may then run out of steps).
pub fn counterexample_model(
    machine: &mut Machine<'_>,
    constraints: &[TermId],
    vars: &mut Vec<TermId>,
) -> Result<(ModelResult, bool)> {
    let counts: Vec<TermId> = machine
        .store
        .vars_of(constraints)
        .into_iter()
        .map(|v| machine.store.var_info(v))
        .filter(|info| info.name == COUNT_NAME)
        .map(|info| info.term)
        .collect();
    vars.extend(&counts);
    if !counts.is_empty() {
        for limit in [63, (1 << 16) - 1] {
            let mut small = constraints.to_vec();
            let bound = machine.store.bv_signed(WIDTH, limit)?;
            for &k in &counts {
                small.push(machine.store.bv_ule(k, bound)?);
            }
            if let ModelResult::Sat(model) =
                machine.queries.get_model(&machine.store, &small, vars)?
            {
                return Ok((ModelResult::Sat(model), false));
            }
        }
    }
    let model = machine
        .queries
        .get_model(&machine.store, constraints, vars)?;
    Ok((model, !counts.is_empty()))
}

/// The model of loop `id` of `func`, or why it has none.
fn analyse(
    machine: &mut Machine<'_>,
    func: FuncId,
    id: LoopId,
) -> Result<std::result::Result<Rc<LoopModel>, String>> {
    let function = &machine.module.functions[func.index()];
    let info = &machine.info.functions[func.index()];
    let lp = info.loops().get(id);
    let walks = match walk::body_paths(function, lp, &|l| info.is_cell_backed(l)) {
        Ok(walks) if walks.is_empty() => return Ok(Err("no path of its body comes back".into())),
        Ok(walks) => walks,
        Err(reason) => return Ok(Err(reason)),
    };
    let mut paths = Vec::with_capacity(walks.len());
    for walk in walks {
        match ClosedForm::of(walk) {
            Ok(form) => paths.push(form),
            Err(reason) => return Ok(Err(reason)),
        }
    }
    let mut reads: Vec<LocalId> = paths.iter().flat_map(|p| p.walk.reads()).collect();
    reads.sort();
    reads.dedup();
    let mut general: Vec<Option<TermId>> = vec![None; function.locals.len()];
    for &l in &reads {
        let name = format!("loop.{}", function.local(l).name);
        general[l.index()] = Some(machine.store.bv_var(name, WIDTH)?);
    }
    let edges = pda::edges(machine, &paths, &general)?;
    let macros = match pda::cycles(machine, &paths, &edges, &general)? {
        Ok(macros) => macros,
        Err(reason) => return Ok(Err(reason)),
    };
    Ok(Ok(Rc::new(LoopModel {
        paths,
        macros,
        reads,
    })))
}
