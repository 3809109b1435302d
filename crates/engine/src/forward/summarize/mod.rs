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
//! Strong liveness (`forward::live`) says whose values a summary may replace by fresh ones.
//! The driver's only hook is [`Summarizer::step`], which it calls instead of `Machine::step`.
//! Loops are analysed lazily, once, when a state first reaches their header; a loop that cannot
//! be summarized (its reason is kept) and a state a summary cannot serve (a check in the loop
//! may fail, a local is not a number) go on by plain execution. Summaries are exact: they never
//! cut a path, so they add no `Cut`. Nested loops are summarized inner loop first (seed 002
//! §4.4.3): an inner loop with a summary is a segment of the outer body's paths whose results
//! are pseudo-locals, which `apply` obtains by running the inner summary to its end; an outer
//! loop that cannot be summarized runs plainly, and its inner loops are summarized on each
//! visit.

mod apply;
mod closed;
mod expr;
mod pda;
mod phase;
mod walk;

use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

use symex_ir::analysis::{Loop, LoopId};
use symex_ir::cfg::{Check, FuncId, Function, LocalId, LocalKind, Place, PlaceBase};
use symex_smt::{ModelResult, PathCondition, TermId};

use crate::common::terms::WIDTH;
use crate::error::EngineError;
use crate::forward::live::Liveness;
use crate::forward::machine::{Machine, Outcome};
use crate::forward::state::State;
use crate::forward::summarize::apply::Application;
use crate::forward::summarize::closed::{ClosedForm, Form};
use crate::forward::summarize::walk::{BodyPaths, Inner, MemoryReads, Slot};

type Result<T> = std::result::Result<T, EngineError>;

/// What the analysis of one loop found.
pub struct LoopModel {
    /// The body paths with their closed forms.
    pub paths: Vec<ClosedForm>,
    /// The periodic walks of the automaton's cycles; each starts with a different path.
    pub macros: Vec<ClosedForm>,
    /// Locals whose start values some path reads: they must hold numbers (pseudo-locals
    /// included, which are not the function's).
    pub reads: Vec<LocalId>,
    /// The runs of inner loops on the paths; their results are pseudo-locals.
    pub slots: Vec<Slot>,
    /// The loops directly inside, with their models (`Slot::inner` indexes this).
    pub inners: Vec<(Inner, Rc<LoopModel>)>,
    /// Locals (not temporaries) whose values the summary replaces by fresh numbers: never
    /// observed after the loop (see `live`).
    pub havoc: Vec<LocalId>,
    /// Locals that must hold numbers at the header, so that whether they are assigned stays
    /// exact: those of `havoc` that some path checks before writing, and every local an inner
    /// loop's summary replaces (the outer body keeps a stale value for it, which must at least
    /// be assigned when the real one is); only locals that `Init` checks read (no temporaries,
    /// no locals assigned before every read).
    pub numbers: Vec<LocalId>,
    /// The memory the body reads (loop-invariant places) and the checks guarding it.
    pub memory: MemoryReads,
    /// The function's locals; pseudo-locals are numbered from here to `width`.
    pub locals: usize,
    pub width: usize,
    /// Some run can end inside the body (`assume 0`, [`walk::BodyPaths::aborts`]).
    pub aborts: bool,
    /// The conditions of the paths that leave the loop ([`walk::BodyPaths::exits`]).
    pub exits: Vec<walk::Conditions>,
}

impl LoopModel {
    /// Whether this loop or a loop inside it reads memory.
    fn reads_memory(&self) -> bool {
        !self.memory.places.is_empty()
            || !self.memory.checks.is_empty()
            || self.inners.iter().any(|(_, m)| m.reads_memory())
    }

    /// The places this loop and the loops inside it read.
    fn places_read(&self) -> Vec<Place> {
        let mut out: Vec<Place> = self.memory.places.iter().map(|(p, _)| p.clone()).collect();
        for (inner, _) in &self.inners {
            out.extend(inner.reads.iter().cloned());
        }
        out
    }

    /// The checks guarding the memory reads of this loop and of the loops inside it.
    fn memory_checks(&self) -> Vec<Check> {
        let mut out = self.memory.checks.clone();
        for (_, m) in &self.inners {
            out.extend(m.memory_checks());
        }
        out
    }

    /// Marks this loop and every loop inside it whose summary it uses.
    fn used(&self, func: FuncId, id: LoopId, applied: &mut BTreeMap<(FuncId, LoopId), bool>) {
        applied.insert((func, id), true);
        for (inner, model) in &self.inners {
            model.used(func, inner.id, applied);
        }
    }
}

/// The summaries of one check: loop models, built on first use, and what became of each loop.
#[derive(Default)]
pub struct Summarizer {
    models: BTreeMap<(FuncId, LoopId), std::result::Result<Rc<LoopModel>, String>>,
    /// Per reached loop: whether a summary was applied at least once.
    applied: BTreeMap<(FuncId, LoopId), bool>,
    /// Loops with inner loops whose summary a state could not use: searching the inner
    /// loops' results is costly, so they run plainly from then on.
    nested_refused: BTreeSet<(FuncId, LoopId)>,
    /// The inner-loop runs outer summaries have searched.
    inner_runs: apply::InnerRuns,
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
        self.applied.entry((func, id)).or_insert(false);
        if self.nested_refused.contains(&(func, id)) {
            return plain(machine, state);
        }
        let Ok(model) = self.model(machine, func, id)? else {
            return plain(machine, state);
        };
        match apply::apply(machine, &model, state, &mut self.inner_runs)? {
            Application::Applied(outcome) => {
                model.used(func, id, &mut self.applied);
                Ok((outcome, true))
            }
            Application::Refused => {
                self.refused(&model, func, id);
                plain(machine, state)
            }
            Application::RefusedHere => plain(machine, state),
            Application::RefusedWhere(inside) => {
                // Plain execution follows the inputs where an inner run may end inside its
                // body; the summary serves the others if it can.
                let mut rest = state.clone();
                let outside = machine.store.not(inside)?;
                rest.pc.push(outside);
                state.pc.push(inside);
                let mut outcome = machine.step(state)?;
                let (more, summarized) =
                    match apply::apply(machine, &model, &mut rest, &mut self.inner_runs)? {
                        Application::Applied(more) => {
                            model.used(func, id, &mut self.applied);
                            (more, true)
                        }
                        refusal => {
                            if matches!(refusal, Application::Refused) {
                                self.refused(&model, func, id);
                            }
                            (machine.step(&mut rest)?, false)
                        }
                    };
                if more.end.is_none() {
                    outcome.forked.push(rest);
                }
                outcome.forked.extend(more.forked);
                Ok((outcome, summarized))
            }
        }
    }

    /// Notes that the summary of loop `id` of `func` was refused for a reason of the loop: one
    /// with inner loops is not tried again (searching their runs is costly).
    fn refused(&mut self, model: &LoopModel, func: FuncId, id: LoopId) {
        if !model.slots.is_empty() {
            self.nested_refused.insert((func, id));
        }
    }

    /// The model of loop `id` of `func` (analysed on first use, inner loops first), or why
    /// it has none.
    fn model(
        &mut self,
        machine: &mut Machine<'_>,
        func: FuncId,
        id: LoopId,
    ) -> Result<std::result::Result<Rc<LoopModel>, String>> {
        if let Some(known) = self.models.get(&(func, id)) {
            return Ok(known.clone());
        }
        let children = machine.info.functions[func.index()]
            .loops()
            .get(id)
            .children
            .clone();
        let mut inners = Vec::with_capacity(children.len());
        for child in children {
            let described = match self.model(machine, func, child)? {
                Ok(model) => {
                    let function = &machine.module.functions[func.index()];
                    let lp = machine.info.functions[func.index()].loops().get(child);
                    inner_of(function, child, lp, &model).map(|inner| (inner, model))
                }
                Err(reason) => Err(reason),
            };
            match described {
                Ok(inner) => inners.push(inner),
                Err(reason) => {
                    // The innermost reason, once: an inner loop's own is already this form.
                    let refused = match reason.starts_with(INNER_REFUSED) {
                        true => Err(reason),
                        false => Err(format!("{INNER_REFUSED} ({reason})")),
                    };
                    self.models.insert((func, id), refused.clone());
                    return Ok(refused);
                }
            }
        }
        let liveness =
            machine.info.functions[func.index()].liveness(&machine.module.functions[func.index()]);
        let model = analyse(machine, func, id, inners, &liveness)?;
        self.models.insert((func, id), model.clone());
        Ok(model)
    }

    /// The loops reached that have no summary, with the reason, in loop order.
    pub fn refusals(&self) -> impl Iterator<Item = (FuncId, LoopId, &str)> + '_ {
        (self.applied.keys()).filter_map(|key| match self.models.get(key) {
            Some(Err(reason)) => Some((key.0, key.1, reason.as_str())),
            _ => None,
        })
    }

    /// (loops summarized at least once, loops reached but never summarized).
    pub fn loop_counts(&self) -> (u64, u64) {
        let summarized = self.applied.values().filter(|&&a| a).count() as u64;
        (summarized, self.applied.len() as u64 - summarized)
    }
}

/// The start of the reason of a loop that has no summary because an inner loop has none.
const INNER_REFUSED: &str = "an inner loop has no summary";

/// Why a property stays unknown when its only counterexample runs a summarized loop too long
/// for a replay.
pub const LONG_REPLAY: &str =
    "a counterexample runs a summarized loop more often than a replay may execute";

/// The display name of the iteration counts summaries put into path conditions.
const COUNT_NAME: &str = "loop.k";

/// A model of `constraints` for a counterexample, with values for `vars` and for the iteration
/// counts of the summaries in `constraints` (appended to `vars`, so the trace shows the values
/// after each summarized loop). Small counts are preferred (at most 64, 2^16, 2^20, then 2^24
/// iterations per summary) so that the interpreter can replay the counterexample quickly; the
/// flag says that only larger counts fit (a replay may then run out of time).
pub fn counterexample_model(
    machine: &mut Machine<'_>,
    pc: &PathCondition,
    vars: &mut Vec<TermId>,
) -> Result<(ModelResult, bool)> {
    let constraints = pc.to_vec();
    let counts: Vec<TermId> = machine
        .store
        .vars_of(&constraints)
        .into_iter()
        .map(|v| machine.store.var_info(v))
        .filter(|info| info.name == COUNT_NAME)
        .map(|info| info.term)
        .collect();
    vars.extend(&counts);
    if !counts.is_empty() {
        for limit in [63, (1 << 16) - 1, (1 << 20) - 1, (1 << 24) - 1] {
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
    let model = machine.queries.get_model(&machine.store, pc, vars)?;
    Ok((model, !counts.is_empty()))
}

/// What an outer loop needs to know of its inner loop `lp` (numbered `id`) whose model is
/// `model`, or why the outer loop cannot use it.
fn inner_of(
    function: &Function,
    id: LoopId,
    lp: &Loop,
    model: &LoopModel,
) -> std::result::Result<Inner, String> {
    if !model.memory.writes.is_empty() {
        // Its writes would be results too; not modelled.
        return Err("it writes memory".into());
    }
    // An outer summary takes the inner runs' ends from its walks, where a run that ends inside
    // is no case: `apply` tells the two apart by the exit conditions at the end (and refuses
    // the outer summary where a run may end inside), so those must read only values it has.
    let known = |l: LocalId| l.index() < model.locals && model.reads.contains(&l);
    if model.aborts && !(model.exits.iter().flatten()).all(|(c, _)| !c.reads(&|l| !known(l))) {
        return Err("a run can end inside it (`abort`)".into());
    }
    let exit = match lp.exits.as_slice() {
        [(from, to)] if *from == lp.header => *to,
        _ => return Err("it leaves from elsewhere than its header".into()),
    };
    let locals = function.locals.len();
    let mut written: Vec<LocalId> = model
        .paths
        .iter()
        .flat_map(|p| p.forms.iter().enumerate().filter(|(_, f)| f.is_some()))
        .map(|(l, _)| LocalId(l as u32))
        .filter(|l| l.index() < locals)
        .collect();
    written.sort();
    written.dedup();
    // A local only added to: every path adds an amount to it (or leaves it), and nothing else
    // in the inner loop reads it, so its course and the amounts do not depend on its value.
    // A temporary's value at the end of an iteration is never read (each use assigns it
    // first), so C's `t = k; k = t + 1` leaves `k` only added to.
    let is_temp = |m: usize| {
        function
            .locals
            .get(m)
            .is_some_and(|l| l.kind == LocalKind::Temp)
    };
    let read_elsewhere =
        |a: LocalId| {
            let reads_a = |e: &Rc<expr::Expr>| e.reads(&|l| l == a);
            model.paths.iter().any(|p| {
                p.walk.conds.iter().any(|(c, _)| reads_a(c))
                    || p.walk.checks.iter().any(|(_, e)| reads_a(e))
                    || p.walk
                        .segments
                        .iter()
                        .any(|s| s.control.iter().any(reads_a))
                    || p.walk.env.iter().enumerate().any(|(m, e)| {
                        m != a.index() && !is_temp(m) && e.as_ref().is_some_and(reads_a)
                    })
            })
        };
    // Temporaries of the inner loop's expressions (lowering makes a fresh one per use, assigned
    // right before it) are dead outside it: their values before and after do not matter.
    written.retain(|&l| model.reads.contains(&l) || function.local(l).kind != LocalKind::Temp);
    // Values the inner summary replaces by fresh ones are never observed after it: the outer
    // loop keeps no result for them (`apply` requires them to hold numbers, so that they stay
    // assigned).
    written.retain(|l| !model.havoc.contains(l));
    let (accumulated, written): (Vec<LocalId>, Vec<LocalId>) =
        written.into_iter().partition(|&a| {
            model
                .paths
                .iter()
                .all(|p| matches!(p.forms[a.index()], None | Some(Form::Induction(_))))
                && !read_elsewhere(a)
        });
    // A written local whose value at the header the inner loop never reads decides only its
    // own value after a run that never writes it: such a run has no result for it (`apply`
    // refuses the outer summary there), so it is no control local, and the outer loop may
    // change it between inner runs (`v = 0; for (v = 0; ...)` run again and again).
    let mut control: Vec<LocalId> = model
        .reads
        .iter()
        .copied()
        .filter(|l| l.index() < locals && !accumulated.contains(l))
        .chain(written.iter().copied().filter(|l| model.reads.contains(l)))
        .collect();
    control.sort();
    control.dedup();
    Ok(Inner {
        id,
        header: lp.header,
        blocks: lp.blocks.clone(),
        exit,
        control,
        written,
        accumulated,
        fixed: model.memory.fixed.clone(),
        reads: model.places_read(),
    })
}

/// The model of loop `id` of `func`, whose inner loops are `inners`, or why it has none.
fn analyse(
    machine: &mut Machine<'_>,
    func: FuncId,
    id: LoopId,
    inners: Vec<(Inner, Rc<LoopModel>)>,
    liveness: &Liveness,
) -> Result<std::result::Result<Rc<LoopModel>, String>> {
    let function = &machine.module.functions[func.index()];
    let info = &machine.info.functions[func.index()];
    let lp = info.loops().get(id);
    let described: Vec<Inner> = inners.iter().map(|(i, _)| i.clone()).collect();
    let body = match walk::body_paths(function, lp, &described, &|l| info.is_cell_backed(l)) {
        Ok(body) if body.walks.is_empty() => {
            return Ok(Err("no path of its body comes back".into()))
        }
        Ok(body) => body,
        Err(reason) => return Ok(Err(reason)),
    };
    // A path that ends the run inside the body may read what the walks never read: no value
    // is given up where one does.
    let own_havoc = if body.aborts {
        Vec::new()
    } else {
        unobserved(function, lp, &body, liveness, &|l| info.is_cell_backed(l))
    };
    let mut paths = Vec::with_capacity(body.walks.len());
    for walk in body.walks {
        match ClosedForm::of(walk, &body.slots, &own_havoc) {
            Ok(form) => paths.push(form),
            Err(reason) => return Ok(Err(reason)),
        }
    }
    // Arrays and pointers the body reads memory through are read by `Init` checks too; their
    // values are not numbers, and they do not change in the loop, so those checks join the
    // memory checks (asked once at the header) instead of requiring numbers.
    let values_read: BTreeSet<LocalId> = paths
        .iter()
        .flat_map(|p| p.walk.value_reads(&body.slots))
        .collect();
    let mut memory = body.memory;
    let mut reads: Vec<LocalId> = Vec::new();
    for l in paths.iter().flat_map(|p| p.walk.reads(&body.slots)) {
        if own_havoc.contains(&l) {
            continue;
        }
        if memory.fixed.contains(&l) && !values_read.contains(&l) {
            memory.check(&Check::Init(Place {
                base: PlaceBase::Local(l),
                projections: Vec::new(),
            }));
        } else {
            reads.push(l);
        }
    }
    // Temporaries are assigned before every use (an IR invariant) and have no `Init` checks,
    // so whether they are assigned needs no care.
    let havoc: Vec<LocalId> = own_havoc
        .iter()
        .copied()
        .filter(|&l| function.local(l).kind != LocalKind::Temp)
        .collect();
    // A local every path writes before checking it is assigned after any run that writes it,
    // as the fresh value is; one checked first must be assigned already.
    let mut numbers: Vec<LocalId> = havoc
        .iter()
        .copied()
        .filter(|l| paths.iter().any(|p| p.walk.inits.contains(l)))
        .collect();
    for (_, inner) in &inners {
        numbers.extend(inner.havoc.iter().chain(&inner.numbers).copied());
    }
    // Whether a local is assigned is observed only by `Init` checks, which locals assigned
    // before every read have none of (an inlined call's parameter, `int c = ...`).
    numbers.retain(|&l| {
        !matches!(
            function.local(l).kind,
            LocalKind::Temp | LocalKind::Assigned
        )
    });
    numbers.sort();
    numbers.dedup();
    reads.sort();
    reads.dedup();
    let locals = function.locals.len();
    let mut general: Vec<Option<TermId>> = vec![None; body.width];
    for &l in &reads {
        let name = match function.locals.get(l.index()) {
            Some(local) => format!("loop.{}", local.name),
            None => format!("loop.inner{}", l.index() - locals),
        };
        general[l.index()] = Some(machine.store.bv_var(name, WIDTH)?);
    }
    let edges = pda::edges(machine, &paths, &general)?;
    let macros = match pda::cycles(machine, &paths, &body.slots, &own_havoc, &edges, &general)? {
        Ok(macros) => macros,
        Err(reason) => return Ok(Err(reason)),
    };
    Ok(Ok(Rc::new(LoopModel {
        paths,
        macros,
        reads,
        slots: body.slots,
        inners,
        havoc,
        numbers,
        memory,
        locals,
        width: body.width,
        aborts: body.aborts,
        exits: body.exits,
    })))
}

/// The locals a summary of `lp` may replace by fresh numbers: written on some body path, not
/// strongly live where the loop exits, and read by no condition, check or inner-loop entry of
/// the body, nor by the value of any local outside the set (the largest such set, found by
/// removing what is read from the candidates until nothing changes). Their values are observed
/// by nothing, so the summary stays exact for every property.
fn unobserved(
    function: &Function,
    lp: &Loop,
    body: &BodyPaths,
    liveness: &Liveness,
    cell_backed: &dyn Fn(LocalId) -> bool,
) -> Vec<LocalId> {
    let locals = function.locals.len();
    let changed = |w: &walk::Walk, l: usize| {
        w.env[l]
            .as_ref()
            .is_some_and(|e| **e != expr::Expr::Start(LocalId(l as u32)))
    };
    let mut set: BTreeSet<LocalId> = (0..locals)
        .filter(|&l| body.walks.iter().any(|w| changed(w, l)))
        .map(|l| LocalId(l as u32))
        .filter(|&l| !cell_backed(l))
        .filter(|&l| !lp.exits.iter().any(|&(_, to)| liveness.live_at(to, l)))
        .collect();
    let mut observed = Vec::new();
    for w in &body.walks {
        for (c, _) in &w.conds {
            c.starts(&mut observed);
        }
        for (_, e) in &w.checks {
            e.starts(&mut observed);
        }
        for segment in &w.segments {
            segment.control.iter().for_each(|e| e.starts(&mut observed));
        }
    }
    for slot in &body.slots {
        for e in slot.control.iter().chain(&slot.accumulated) {
            e.starts(&mut observed);
        }
    }
    for l in &observed {
        set.remove(l);
    }
    loop {
        let mut read = Vec::new();
        for w in &body.walks {
            for (m, e) in w.env.iter().enumerate() {
                if let Some(e) = e {
                    if !set.contains(&LocalId(m as u32)) && changed(w, m) {
                        e.starts(&mut read);
                    }
                }
            }
        }
        let before = set.len();
        for l in &read {
            set.remove(l);
        }
        if set.len() == before {
            return set.into_iter().collect();
        }
    }
}
