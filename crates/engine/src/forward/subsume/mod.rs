//! Path subsumption (`--subsume`, seed 002 §4.2 and §5.4.2, after McMillan's lazy annotation).
//!
//! Every finished path leaves *annotations*: carried back along its blocks (`wp.rs`), it says at
//! each block start "a state here that follows this suffix passes every check"; a location's
//! annotation is the disjunction of what its paths left. A state arriving at a join point whose
//! path condition implies the annotation there (with its own values put in) can reach no error,
//! so it is pruned, and its pruning annotates its own prefix in turn. Paths that fail a check or
//! are cut by a bound leave nothing, so an annotation only ever stands for explored, error-free,
//! complete suffixes: pruning never hides a reachable error.
//!
//! Annotations are per location *and calling context* (the return sites of the callers), since
//! what follows a return depends on the caller. Loops: a state coming round a back edge to a
//! header the annotations do not yet cover is parked (under a systematic search; under one that
//! draws at random the attempt is made at once); when nothing else can run, `induction.rs`
//! tries to turn the header's annotation into an inductive invariant that covers every number of
//! iterations, and the parked states are checked against it and go on if it does not cover them.
//! Nothing here executes instructions or picks states.

mod dnf;
mod equalities;
mod facts;
mod induction;
mod payoff;
mod placeholders;
mod semantics;
mod solver_checks;
mod track;
mod wp;

use std::time::Instant;

use rustc_hash::FxHashMap;
use symex_ir::cfg::{BlockId, FuncId, Module, Operand, Terminator};
use symex_smt::{eval_all_lazy, Answer, Assignment, Sort, TermId, TermStore, Value, VarId};

use crate::common::solver::Queries;
use crate::error::EngineError;
use crate::forward::program::ProgramInfo;
use crate::forward::state::State;
use crate::forward::value::SymValue;
use dnf::Disjuncts;
use facts::FunctionFacts;
use payoff::Payoff;
use placeholders::{Placeholders, Role};
use solver_checks::SolverChecks;
pub use track::{begins_visit, Track, Visit};
use wp::{After, Walk, WalkLimits};

type Result<T> = std::result::Result<T, EngineError>;

/// A block start in a calling context.
pub type Location = (u32, FuncId, BlockId);

/// How many times one loop header (in one context) may try to become an invariant.
const MAX_INDUCTION_ATTEMPTS: u32 = 8;

/// How many visits a finished path's annotation is carried back.
const MAX_WALK_VISITS: usize = 1024;

/// How many new terms one walk may make. A walk's annotation can grow at every visit it is
/// carried through (each disjunct rewritten, conditions added): on a generated program the
/// walks of long paths round a loop made 0.3-1.3 million terms each, in 0.2-0.7 s, and the
/// walks, which no payoff cap counts, took four fifths of a 3-s run (docs/path-subsumption.md,
/// "Bounds and costs"). Below this, a walk takes some 20 ms.
const MAX_WALK_TERMS: usize = 100_000;

/// A coverage check whose instance holds more products, quotients or remainders of two
/// non-constant terms than this is not asked: the state is not covered. On the generated sets
/// such checks took up to 1.9 s each (Z3 bit-blasts every one into a circuit of its own) and
/// almost never covered (docs/path-subsumption.md, "Bounds and costs").
const MAX_COVER_NONLINEAR: usize = 8;

/// How a path ended, for the annotation it leaves.
pub enum PathEnd {
    /// The entry returned: `true` after the last block.
    Returned,
    /// An `assume` could not hold: nothing after it runs.
    Dropped,
    /// Pruned at its current location by this annotation.
    Subsumed(TermId),
}

/// A location's annotation: its disjuncts (`dnf.rs`), which is how it grows, and their
/// disjunction as a term, which coverage checks and invariant attempts read. The term is
/// rebuilt when it is read after growing, not at every growth: a walk adds to every location
/// it passes, and most are never read before they grow again.
pub struct Annotation {
    /// The disjunction, up to date unless `stale`.
    pub term: TermId,
    /// The placeholders it speaks of, kept with `term` (a coverage check reads them at every
    /// visit: looking them up each time took half of the checks' time once most of them
    /// ended at a kept model).
    vars: Vec<VarId>,
    stale: bool,
    disjuncts: Disjuncts,
    /// The version at which it last grew.
    grown_at: u64,
}

impl Annotation {
    /// Rebuilds the term if the disjuncts grew since it was built.
    fn refresh(&mut self, store: &mut TermStore) -> Result<()> {
        if self.stale {
            self.term = self.disjuncts.term(store)?;
            self.vars = store.vars_of(&[self.term]);
            self.stale = false;
        }
        Ok(())
    }
}

#[derive(Default)]
struct LoopAttempts {
    attempts: u32,
    /// The annotation version at the last attempt.
    version: u64,
    /// The blocks (in the header's context and function) whose annotations the last attempt
    /// read, if it ran to its end: an attempt depends on nothing else that grows, so it is
    /// tried again only once one of these has grown. `None`: the last attempt was cut short
    /// (by its query budget or the payoff cap) or never ran, and any growth may let it finish.
    read: Option<Vec<BlockId>>,
}

impl LoopAttempts {
    /// Whether another attempt at `location` could end otherwise than the last one.
    fn may_retry(
        &self,
        location: Location,
        annotations: &FxHashMap<Location, Annotation>,
        version: u64,
    ) -> bool {
        let (context, func, _) = location;
        let grown = |block: &BlockId| {
            annotations
                .get(&(context, func, *block))
                .is_some_and(|a| a.grown_at > self.version)
        };
        match &self.read {
            _ if self.attempts == 0 => true,
            Some(read) => read.iter().any(grown),
            None => self.version != version,
        }
    }
}

#[derive(Default)]
pub struct Subsumption {
    /// When the check's time is up (walks stop there).
    deadline: Option<Instant>,
    ph: Placeholders,
    annotations: FxHashMap<Location, Annotation>,
    contexts: FxHashMap<Vec<(FuncId, BlockId, usize)>, u32>,
    /// Grows whenever some annotation grows.
    version: u64,
    loops: FxHashMap<Location, LoopAttempts>,
    /// Loop headers whose exit condition was symbolic for some state (a fork there): only
    /// these are worth an invariant; a loop with a concrete bound just runs.
    symbolic_headers: rustc_hash::FxHashSet<Location>,
    /// Per function of the module, computed at the first use.
    facts: Vec<FunctionFacts>,
    /// What the work that paid nothing has cost (`payoff.rs`).
    payoff: Payoff,
    /// Which coverage checks may ask the solver (`solver_checks.rs`).
    solver_checks: SolverChecks,
    /// The most terms one walk may make ([`MAX_WALK_TERMS`]).
    max_walk_terms: usize,
    /// States pruned.
    pub pruned: u64,
    /// Loop headers that got an inductive annotation.
    pub invariants: u64,
}

impl Subsumption {
    pub fn new(deadline: Option<Instant>) -> Subsumption {
        Subsumption {
            deadline,
            payoff: Payoff::new(deadline),
            solver_checks: SolverChecks::new(deadline.is_some()),
            max_walk_terms: MAX_WALK_TERMS,
            ..Subsumption::default()
        }
    }

    /// The solver work of subsumption's work that paid nothing (`payoff.rs`), counted under
    /// a time limit only.
    pub fn unpaid_work(&self) -> Option<u64> {
        self.payoff.unpaid_work()
    }

    /// Computes the functions' facts, once.
    fn ensure_facts(&mut self, module: &Module, info: &ProgramInfo) {
        if self.facts.is_empty() {
            self.facts = module
                .functions
                .iter()
                .zip(&info.functions)
                .map(|(function, info)| FunctionFacts::compute(function, info))
                .collect();
        }
    }

    /// The calling context of the state's top frame.
    fn context(&mut self, state: &State) -> u32 {
        let callers: Vec<(FuncId, BlockId, usize)> = state
            .stack
            .iter()
            .take(state.stack.len().saturating_sub(1))
            .map(|f| (f.func, f.block, f.inst))
            .collect();
        let next = self.contexts.len() as u32;
        *self.contexts.entry(callers).or_insert(next)
    }

    /// The visit the state is about to begin.
    fn visit(&mut self, state: &State) -> Option<Visit> {
        let frame = state.frame()?;
        let depth = state.stack.len();
        let context = match state.annotation_track.last() {
            Some(last) if last.depth == depth => last.context,
            _ => self.context(state),
        };
        Some(Visit {
            func: frame.func,
            block: frame.block,
            start: frame.inst,
            depth,
            context,
            inputs_read: state.inputs_read,
        })
    }

    /// Records the block the state is about to run, if it begins a new visit.
    pub fn before_step(&mut self, state: &mut State) {
        if begins_visit(state) {
            if let Some(visit) = self.visit(state) {
                state.annotation_track.push(visit);
            }
        }
    }

    /// Notes that the state, which has just forked, did so at a loop header's exit condition.
    pub fn forked(&mut self, info: &ProgramInfo, state: &State) {
        let (Some(frame), Some(visit)) = (state.frame(), state.annotation_track.last()) else {
            return;
        };
        let header = info.functions[visit.func.index()]
            .loops()
            .loop_of_header(visit.block);
        if header.is_some() && visit.depth == state.stack.len() && frame.block != visit.block {
            self.symbolic_headers
                .insert((visit.context, visit.func, visit.block));
        }
    }

    /// The location of a state at a block start.
    pub fn location(&mut self, state: &State) -> Option<Location> {
        let frame = state.frame()?;
        if frame.inst != 0 {
            return None;
        }
        let visit = self.visit(state)?;
        Some((visit.context, visit.func, visit.block))
    }

    /// If the state's path condition implies the annotation of its location: the part of the
    /// annotation that covers it, which its path carries back.
    ///
    /// The part leaves out every disjunct that the state's values make `false` outright: such
    /// a disjunct plays no part in covering the state, and carried back it would describe
    /// suffixes no state on this path can follow (a loop's disjunct for four more iterations,
    /// shifted by one at each iteration walked back: the annotations would grow without end).
    pub fn covers(
        &mut self,
        store: &mut TermStore,
        queries: &mut Queries,
        state: &State,
    ) -> Result<Option<TermId>> {
        let started = self.payoff.work(queries);
        if !self.payoff.may_work(started) {
            return Ok(None);
        }
        let covered = self.covering_part(store, queries, state, started)?;
        if covered.is_none() {
            let now = self.payoff.work(queries);
            self.payoff.charge(started, now);
        }
        Ok(covered)
    }

    fn covering_part(
        &mut self,
        store: &mut TermStore,
        queries: &mut Queries,
        state: &State,
        work: u64,
    ) -> Result<Option<TermId>> {
        let Some(location) = self.location(state) else {
            return Ok(None);
        };
        let Some(annotation) = self.annotations.get_mut(&location) else {
            return Ok(None);
        };
        annotation.refresh(store)?;
        let vars = &annotation.vars;
        let Some(bindings) = bindings(store, &mut self.ph, state, vars)? else {
            return Ok(None);
        };
        if falsified_on_a_known_input(store, queries, state, annotation.term, vars, &bindings) {
            return Ok(None);
        }
        let instance = instance(store, state, annotation.term, &bindings)?;
        if store.more_nonlinear_than(&[instance], MAX_COVER_NONLINEAR) {
            return Ok(None);
        }
        // A check that may not ask the solver is answered from what the query layer keeps:
        // its share ends where the solver's work stands now.
        let share_end = if self.solver_checks.may_ask(location) {
            self.payoff.share_end(work)
        } else {
            Some(queries.solver_work())
        };
        let asked_before = queries.stats().solver_queries;
        let answer = within_share(queries, share_end, |queries| {
            Ok(queries
                .on_second_solver(|queries| queries.must_be_true(store, &state.pc, instance))?)
        })?;
        let covered = matches!(answer, Answer::Yes);
        let asked_solver = queries.stats().solver_queries != asked_before;
        self.solver_checks.checked(asked_solver, covered);
        if !covered {
            return Ok(None);
        }
        self.pruned += 1;
        let ph = &mut self.ph;
        let part = annotation
            .disjuncts
            .disjunction_where(store, |store, disjunct| {
                let instance = instantiate(store, ph, state, disjunct)?;
                Ok(instance.is_none_or(|t| store.as_bool(t) != Some(false)))
            })?;
        Ok(Some(part))
    }

    /// Carries the annotation a finished path leaves back along it. Never skipped for the
    /// payoff cap's sake, and free of it (the walk asks the solver nothing): a path that left
    /// nothing would be missing from every annotation for good, and proofs that need it would
    /// fail at any time limit.
    pub fn path_ended(
        &mut self,
        store: &mut TermStore,
        module: &Module,
        info: &ProgramInfo,
        state: &State,
        end: PathEnd,
    ) -> Result<()> {
        let (after, annotation) = match end {
            PathEnd::Returned => (After::ReturnedFromEntry, store.bool_val(true)?),
            // The last visit ends at the failed `assume(c)`, which leaves `¬c ∨ false`.
            PathEnd::Dropped => {
                let Some(frame) = state.frame() else {
                    return Ok(());
                };
                let assumed = module
                    .functions
                    .get(frame.func.index())
                    .and_then(|f| f.blocks.get(frame.block.index()))
                    .and_then(|b| b.insts.get(frame.inst.wrapping_sub(1)))
                    .is_some_and(|i| matches!(i.kind, symex_ir::cfg::InstKind::Assume(_)));
                if !assumed {
                    return Ok(());
                }
                (After::StoppedAt(frame.inst), store.bool_val(false)?)
            }
            PathEnd::Subsumed(annotation) => {
                let Some(visit) = self.visit(state) else {
                    return Ok(());
                };
                let at_path = renumber_inputs(
                    store,
                    &mut self.ph,
                    annotation,
                    visit.inputs_read,
                    Renumber::LaterToPath,
                )?;
                (After::Visit(visit), at_path)
            }
        };
        self.ensure_facts(module, info);
        let track = state.annotation_track.clone();
        let mut recorded: Vec<(Location, TermId)> = Vec::new();
        let mut walk = Walk {
            store,
            ph: &mut self.ph,
            module,
            info,
            facts: &self.facts,
        };
        let limits = WalkLimits {
            max_visits: MAX_WALK_VISITS,
            max_new_terms: self.max_walk_terms,
            deadline: self.deadline,
        };
        walk.back(&track, after, annotation, limits, |store, ph, visit, a| {
            let relative = renumber_inputs(store, ph, a, visit.inputs_read, Renumber::PathToLater)?;
            recorded.push(((visit.context, visit.func, visit.block), relative));
            Ok(())
        })?;
        for (location, a) in recorded {
            self.add(store, location, a)?;
        }
        Ok(())
    }

    /// Brings every annotation's term up to date with its disjuncts (before an invariant
    /// attempt, which may read any of them).
    fn refresh_terms(&mut self, store: &mut TermStore) -> Result<()> {
        for annotation in self.annotations.values_mut() {
            annotation.refresh(store)?;
        }
        Ok(())
    }

    /// Adds a disjunct to a location's annotation.
    fn add(&mut self, store: &mut TermStore, location: Location, a: TermId) -> Result<()> {
        let added = Disjuncts::of(store, a);
        let none = store.bool_val(false)?;
        let annotation = self
            .annotations
            .entry(location)
            .or_insert_with(|| Annotation {
                term: none,
                vars: Vec::new(),
                stale: false,
                disjuncts: Disjuncts::default(),
                grown_at: 0,
            });
        if annotation.disjuncts.add(store, added) {
            annotation.stale = true;
            self.version += 1;
            annotation.grown_at = self.version;
        }
        Ok(())
    }

    /// Whether a state at a loop header, come round the back edge, should have the header's
    /// annotation tried as an invariant (the driver parks it for the attempt, or makes the
    /// attempt at once): the header's exit condition was symbolic for some state, or it has
    /// none (`while (1)`: the loop ends, if ever, inside its body, where no fork at the header
    /// tells that it may run on forever).
    pub fn wants_invariant(
        &mut self,
        module: &Module,
        info: &ProgramInfo,
        state: &State,
        queries: &mut Queries,
    ) -> bool {
        let Some(frame) = state.frame() else {
            return false;
        };
        let (checks, work) = (queries.stats().solver_queries, self.payoff.work(queries));
        if !self.payoff.may_attempt(checks, work) {
            return false;
        }
        let function = &info.functions[frame.func.index()];
        let Some(id) = function.loops().loop_of_header(frame.block) else {
            return false;
        };
        if frame.inst != 0 || frame.iterations.get(id.index()).copied().unwrap_or(0) == 0 {
            return false;
        }
        let Some(location) = self.location(state) else {
            return false;
        };
        let header = &module.functions[frame.func.index()].block(frame.block).term;
        let exit_is_constant = !matches!(
            header,
            Terminator::Branch {
                cond: Operand::Local(_),
                ..
            }
        );
        if !exit_is_constant && !self.symbolic_headers.contains(&location) {
            return false;
        }
        let attempts = self.loops.entry(location).or_default();
        attempts.attempts < MAX_INDUCTION_ATTEMPTS
            && attempts.may_retry(location, &self.annotations, self.version)
    }

    /// Tries to make the annotation of a loop header inductive (`induction.rs`) for `parked`, a
    /// state at the header (waiting there, or just come round); true if the header got a new
    /// annotation.
    pub fn try_invariant(
        &mut self,
        store: &mut TermStore,
        queries: &mut Queries,
        module: &Module,
        info: &ProgramInfo,
        location: Location,
        parked: &State,
    ) -> Result<bool> {
        let checks_before = queries.stats().solver_queries;
        let work_before = self.payoff.work(queries);
        if !self.payoff.may_attempt(checks_before, work_before) {
            // A turn the payoff cap forbids is used up all the same: its states would
            // otherwise park again at the next iteration, and wait again, for nothing.
            self.attempted(location, None);
            return Ok(false);
        }
        let unknown_before = queries.stats().unknown;
        let attempt = within_share(queries, self.payoff.share_end(work_before), |queries| {
            queries.on_second_solver(|queries| {
                self.prove_invariant(store, queries, module, info, location, parked)
            })
        })?;
        if attempt.proved {
            self.payoff.proved();
        } else {
            let checks = queries.stats().solver_queries - checks_before;
            let work = self.payoff.work(queries);
            self.payoff.charge_failed_attempt(checks, work_before, work);
        }
        // An answer the solver could not give (a time or work limit) may come another time.
        let cut = attempt.cut || queries.stats().unknown != unknown_before;
        self.attempted(location, (!cut).then_some(attempt.read));
        Ok(attempt.proved)
    }

    /// Counts an attempt at `location` at the current annotation version, which read the
    /// annotations of `read` (`None`: cut short).
    fn attempted(&mut self, location: Location, read: Option<Vec<BlockId>>) {
        let attempts = self.loops.entry(location).or_default();
        attempts.attempts += 1;
        attempts.version = self.version;
        attempts.read = read;
    }

    fn prove_invariant(
        &mut self,
        store: &mut TermStore,
        queries: &mut Queries,
        module: &Module,
        info: &ProgramInfo,
        location: Location,
        parked: &State,
    ) -> Result<Attempt> {
        self.ensure_facts(module, info);
        self.refresh_terms(store)?;
        let (context, func, _) = location;
        let Some(facts) = self.facts.get(func.index()) else {
            return Err(EngineError::Internal(
                "subsumption: a loop outside the module".into(),
            ));
        };
        let mut check = induction::Induction {
            store,
            queries,
            ph: &mut self.ph,
            module,
            info,
            facts,
            annotations: &self.annotations,
            location,
            parked,
            budget: induction::QUERY_BUDGET,
            read: Vec::new(),
        };
        let invariants = check.invariants()?;
        let (read, cut) = (std::mem::take(&mut check.read), check.budget == 0);
        let Some(invariants) = invariants else {
            return Ok(Attempt {
                proved: false,
                read,
                cut,
            });
        };
        let mut grew = false;
        for (header, invariant) in invariants {
            let version = self.version;
            self.add(store, (context, func, header), invariant)?;
            if self.version != version {
                self.invariants += 1;
                self.solver_checks.invariant_at((context, func, header));
                grew = true;
            }
        }
        Ok(Attempt {
            proved: grew,
            read,
            cut,
        })
    }
}

/// What an invariant attempt came to.
struct Attempt {
    /// Some header got a new annotation.
    proved: bool,
    /// The blocks whose annotations it read (`induction::Induction::read`).
    read: Vec<BlockId>,
    /// It ran out of its query budget.
    cut: bool,
}

/// `ask` with no solver check starting once the solver's work has reached `share_end` (the
/// payoff cap's share).
fn within_share<T>(
    queries: &mut Queries,
    share_end: Option<u64>,
    ask: impl FnOnce(&mut Queries) -> Result<T>,
) -> Result<T> {
    queries.set_work_share(share_end);
    let result = ask(queries);
    queries.set_work_share(None);
    result
}

/// The annotation with the state's values in place of the placeholders; `None` when it
/// speaks of a local that does not hold a number.
pub(super) fn instantiate(
    store: &mut TermStore,
    ph: &mut Placeholders,
    state: &State,
    annotation: TermId,
) -> Result<Option<TermId>> {
    let vars = store.vars_of(&[annotation]);
    let Some(bindings) = bindings(store, ph, state, &vars)? else {
        return Ok(None);
    };
    instance(store, state, annotation, &bindings).map(Some)
}

/// The annotation with `bindings` put in, exact on the state's path: what its path condition
/// fixes or bounds is put in too (`PathCondition::rewrite`), so a check the path decides costs
/// no query, and a disjunct the path makes false is left out of the covering part like one the
/// values make false.
fn instance(
    store: &mut TermStore,
    state: &State,
    annotation: TermId,
    bindings: &FxHashMap<TermId, TermId>,
) -> Result<TermId> {
    let instance = store.substitute(annotation, bindings)?;
    Ok(state.pc.rewrite(store, instance)?)
}

/// What the placeholders among `vars` (an annotation's variables) stand for in the state: its
/// values, or scratch variables where it has none (an uninitialized local, an input not read
/// yet); placeholders of memory ([`Role::Any`]) are left unbound, any other variable stands
/// for itself. `None` when a placeholder stands for a local that does not hold a number.
fn bindings(
    store: &mut TermStore,
    ph: &mut Placeholders,
    state: &State,
    vars: &[VarId],
) -> Result<Option<FxHashMap<TermId, TermId>>> {
    let mut map = FxHashMap::default();
    // Scratch variables used so far, per sort (truth values, 32-bit, 64-bit numbers): a
    // coverage check runs at every visit of an annotated location, so no map is allocated.
    let mut used = [0usize; 3];
    let mut scratch = |store: &mut TermStore, ph: &mut Placeholders, sort: Sort| {
        let k = &mut used[match sort {
            Sort::Bool => 0,
            Sort::BitVec(32) => 1,
            _ => 2,
        }];
        *k += 1;
        ph.scratch(store, *k - 1, sort)
    };
    for &var in vars {
        let term = store.var_info(var).term;
        let Some(role) = ph.role(var) else {
            // Not a placeholder: a variable of the path, which stands for itself (bound, so
            // that a check refuted on a known input reads its value there).
            map.insert(term, term);
            continue;
        };
        let local = |frame: usize, local: symex_ir::cfg::LocalId| {
            state
                .stack
                .get(frame)
                .and_then(|f| f.locals.get(local.index()))
        };
        let replacement = match role {
            // A local of the other width is another function's (the frame runs another one).
            Role::Value(frame, l) => match local(frame, l) {
                Some(SymValue::Int(t)) if store.sort(*t) == store.sort(term) => *t,
                Some(SymValue::Uninit) | None => scratch(store, ph, store.sort(term))?,
                Some(_) => return Ok(None),
            },
            // A merged local can be assigned on one side only (`c ? x : uninit`): it is
            // assigned exactly where its value is not `Uninit`, a condition, not a constant.
            Role::Init(frame, l) => match local(frame, l) {
                Some(value) => {
                    let uninit = value.uninit_at(&[], store)?;
                    store.not(uninit)?
                }
                None => scratch(store, ph, Sort::Bool)?,
            },
            Role::LaterInput(_) | Role::PathInput(_) => scratch(store, ph, placeholders::INPUT)?,
            Role::Any => continue,
        };
        map.insert(term, replacement);
    }
    Ok(Some(map))
}

/// Whether the state's values on some input of its path, as a model the query layer keeps
/// gives them, make the annotation false: then the state is not covered, and the instance need
/// not be built. Placeholders left unbound (memory: any value) take their sorts' defaults
/// (one value shows the annotation can fail). Most coverage checks end here: on a generated program (5-deep
/// `gen_12`, `--search klee --seed 2`, 10 s) 11,000 of 11,300 checks ended with a kept
/// model falsifying the instance or with an instance made `false` by its values, and building
/// those instances took three fifths of the search's own time (BENCHMARKS.md).
fn falsified_on_a_known_input(
    store: &TermStore,
    queries: &mut Queries,
    state: &State,
    annotation: TermId,
    vars: &[VarId],
    bindings: &FxHashMap<TermId, TermId>,
) -> bool {
    let (bound, terms): (Vec<TermId>, Vec<TermId>) = bindings.iter().map(|(&p, &t)| (p, t)).unzip();
    let Some(values) = queries.known_values(store, &state.pc, &terms) else {
        return false;
    };
    let mut assignment = Assignment::new();
    for (placeholder, value) in bound.into_iter().zip(values) {
        if let Some(var) = store.var_id(placeholder) {
            assignment.insert(var, value);
        }
    }
    for &var in vars {
        if assignment.get(var).is_none() {
            let sort = store.sort(store.var_info(var).term);
            assignment.insert(var, Value::default_of(store.sorts(), sort));
        }
    }
    matches!(
        eval_all_lazy(store, &[annotation], &assignment).as_deref(),
        Ok([Value::Bool(false)])
    )
}

/// Which way input placeholders are renumbered at a location where `inputs_read` inputs had been
/// read: annotations store inputs counted from their location, walks count from the path's start.
#[derive(Clone, Copy)]
enum Renumber {
    LaterToPath,
    PathToLater,
}

/// `a` with its input placeholders renumbered.
fn renumber_inputs(
    store: &mut TermStore,
    ph: &mut Placeholders,
    a: TermId,
    inputs_read: u32,
    direction: Renumber,
) -> Result<TermId> {
    let mut map = FxHashMap::default();
    for var in store.vars_of(&[a]) {
        let replacement = match (direction, ph.role(var)) {
            (Renumber::LaterToPath, Some(Role::LaterInput(k))) => {
                ph.path_input(store, inputs_read + k)?
            }
            (Renumber::PathToLater, Some(Role::PathInput(k))) => match k.checked_sub(inputs_read) {
                Some(later) => ph.later_input(store, later)?,
                None => {
                    return Err(EngineError::Internal(
                        "an annotation reads an input from before its location".into(),
                    ))
                }
            },
            _ => continue,
        };
        map.insert(store.var_info(var).term, replacement);
    }
    Ok(store.substitute(a, &map)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn annotation(store: &mut TermStore, grown_at: u64) -> Annotation {
        Annotation {
            term: store.bool_val(true).expect("a constant"),
            vars: Vec::new(),
            stale: false,
            disjuncts: Disjuncts::default(),
            grown_at,
        }
    }

    #[test]
    fn a_finished_attempt_is_repeated_only_when_what_it_read_has_grown() {
        let mut store = TermStore::new();
        let at = |block: u32| (0, FuncId(0), BlockId(block));
        let mut annotations = FxHashMap::default();
        annotations.insert(at(1), annotation(&mut store, 3));
        annotations.insert(at(2), annotation(&mut store, 5));
        let never = LoopAttempts::default();
        assert!(never.may_retry(at(1), &annotations, 5));
        let read_header = LoopAttempts {
            attempts: 1,
            version: 5,
            read: Some(vec![BlockId(1)]),
        };
        // Block 2 grew at version 5, before the attempt; nothing it read grew since.
        assert!(!read_header.may_retry(at(1), &annotations, 9));
        annotations.insert(at(1), annotation(&mut store, 6));
        assert!(read_header.may_retry(at(1), &annotations, 9));
        // An attempt that read nothing (its segments could not be enumerated) fails again.
        let read_nothing = LoopAttempts {
            read: Some(Vec::new()),
            ..read_header
        };
        assert!(!read_nothing.may_retry(at(1), &annotations, 9));
        // One cut short may finish once anything has grown.
        let cut = LoopAttempts {
            read: None,
            ..read_nothing
        };
        assert!(!cut.may_retry(at(1), &annotations, 5));
        assert!(cut.may_retry(at(1), &annotations, 6));
    }

    /// A walk stops once it has made its limit of new terms (a long path round a loop rewrites
    /// the whole annotation at every visit): it records fewer annotations, never wrong ones.
    #[test]
    fn a_walk_stops_after_its_limit_of_new_terms() {
        use crate::forward::machine::{with_machine, End};
        let source = "main() {\n  var i, s;\n  s = input;\n  i = 0;\n  while (i < 20) { s = s * 3 + i; i = i + 1; }\n  assert(s != 7);\n  return 0;\n}\n";
        // How often the annotations grew when the one path of `source` ended.
        let growths = |max_walk_terms: usize| {
            let mut grown = 0;
            with_machine(source, |machine, mut state| {
                let mut subsumption = Subsumption::new(None);
                subsumption.max_walk_terms = max_walk_terms;
                loop {
                    subsumption.before_step(&mut state);
                    let outcome = machine.step(&mut state).expect("steps");
                    if let Some(end) = outcome.end {
                        assert_eq!(end, End::Returned);
                        break;
                    }
                }
                subsumption
                    .path_ended(
                        &mut machine.store,
                        machine.module,
                        &machine.info,
                        &state,
                        PathEnd::Returned,
                    )
                    .expect("walks");
                grown = subsumption.version;
            });
            grown
        };
        let whole = growths(MAX_WALK_TERMS);
        // A visit to each block of each of the 20 iterations, each with its own annotation.
        assert!(whole >= 40, "{whole}");
        let cut = growths(100);
        assert!(0 < cut && cut < whole / 2, "{cut} of {whole}");
    }
}
