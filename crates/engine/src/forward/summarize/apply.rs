//! Applying a loop's summary to a state at the loop's header (seed 002 §4.4: "the state is
//! duplicated, one state for each trace").
//!
//! The runs from the header are split exactly, by their first walk:
//! * runs that leave at once: the state itself, constrained so that no body path is taken
//!   (it then steps into the header and out of the loop by plain execution);
//! * per body path p (and per periodic macro walk w): runs that repeat it k ≥ 1 times, k a fresh
//!   symbol (or the term of the start values the stopping atom fixes, [`stop_forks`]): a new state at the header with the closed-form values after k iterations, under
//!   "taken at every iteration of 0..k, in range" and "not taken at k". A path p that begins a
//!   macro walk w only covers the runs that do not begin with w;
//! * runs whose repetition leaves the 32-bit range of a condition side (where the linear
//!   encoding stops being exact): a new state at the header at the first such iteration, whose
//!   next summary starts from its real values.
//!
//! Each such state reaches the header again and is summarized again, so a trace of the
//! automaton (a path per phase) is enumerated by successive forks. Before any fork, every check
//! of every walk that can start here is asked whether it can fail at some iteration of a run;
//! if one can (or the solver cannot tell) the summary is refused and the state runs plainly,
//! which finds the violation with an exact trace. Nothing here chooses the next state.
//!
//! A loop with inner loops (seed 002 §4.4.3) is applied per *case*: a combination of results
//! of its inner-loop runs (its slots). An inner run's results are found by running the inner
//! summary from the run's entry values to its end, phase by phase (each one a split like the
//! above), the thesis's trace enumeration Init → … → Accept; the cases are exact and disjoint
//! because an inner loop without input is deterministic and starts from the same values at
//! every outer iteration. The inner search must show that every inner run ends (no walk may
//! repeat 2^32 times) within `INNER_PHASES` phases, and the cases must be at most `MAX_CASES`;
//! otherwise the outer summary is refused for the state (its inner loops are then summarized
//! on each visit by plain execution of the outer loop). An inner loop with a path that ends
//! the run (`abort`, a failing check) must leave by its exit wherever a run stops; where it
//! may not, the condition under which it may not splits the state when that condition is one
//! of the state's own values ([`Application::RefusedWhere`]): plain execution for it, the
//! summary, asked again, for the rest.

use rustc_hash::{FxHashMap, FxHashSet};
use symex_ir::analysis::LoopId;
use symex_ir::cfg::{FuncId, LocalId};
use symex_smt::{eval_all, Answer, Assignment, ModelResult, Node, Op, Sort, TermId, TermStore};

use crate::common::terms::{self, WIDTH};
use crate::error::EngineError;
use crate::forward::machine::{End, Machine, Outcome};
use crate::forward::state::State;
use crate::forward::summarize::closed::ClosedForm;
use crate::forward::summarize::phase::{condition_holds, Phase, Stop};
use crate::forward::summarize::walk::Inner;
use crate::forward::summarize::{LoopModel, COUNT_NAME};
use crate::forward::value::SymValue;

type Result<T> = std::result::Result<T, EngineError>;

/// The most summary phases examined to find the results of the inner-loop runs of one
/// application.
const INNER_PHASES: usize = 16;

/// The most cases (combinations of inner-loop results) a summary is applied in.
const MAX_CASES: usize = 16;

/// The most candidates [`settle`] tries to prove equal to a value.
const SETTLE_PROOFS: usize = 3;

/// One way the runs from the header can begin, and the constraint to add to it.
struct Fork {
    constraint: TermId,
    values: Vec<Option<TermId>>,
    form: usize,
    /// The fork's iteration count: a fresh symbol (in an exact fork of an inner search it
    /// appears in no constraint).
    count: TermId,
    /// The values are written with a term of the start values for the count, not the count.
    exact: bool,
}

/// The runs from a loop header, split by their first walk: the forks that may happen and the
/// constraint of the runs that leave at once.
struct Split {
    forks: Vec<Fork>,
    leaves: TermId,
}

/// A condition on the inputs and the values it gives to some locals.
type Case = (TermId, Vec<Option<TermId>>);

/// An inner loop and the values it starts from.
type RunKey = (FuncId, LoopId, Vec<Option<TermId>>);

/// The ways an inner run ends: conditions and the values of the slot's pseudo-locals.
type Ends = Vec<(TermId, Vec<TermId>)>;

/// The inner-loop runs searched so far in one check, by function, loop and entry values: the
/// path condition each search ran under and the ways the runs end (conditions and the slot's
/// pseudo-local values, see [`InnerRun::ends`]). The ways hold under every
/// path condition that includes that one (a stronger condition only makes some impossible),
/// so an outer loop whose states reach its header again with the same inner entry values
/// (every state a summary forks does) does not search again.
#[derive(Default)]
pub struct InnerRuns {
    found: FxHashMap<RunKey, Vec<(Vec<TermId>, Ends)>>,
}

impl InnerRuns {
    /// The ways a run from `entry` ends, if a search under a path condition included in `pc`
    /// found them.
    fn get(&self, key: &RunKey, pc: &[TermId]) -> Option<Ends> {
        let known = self.found.get(key)?;
        let here: FxHashSet<TermId> = pc.iter().copied().collect();
        known
            .iter()
            .find(|(under, _)| under.iter().all(|c| here.contains(c)))
            .map(|(_, ends)| ends.clone())
    }
}

/// What one application may spend and reuse while it searches inner-loop runs.
struct Search<'a> {
    /// Summary phases it may still examine.
    budget: usize,
    runs: &'a mut InnerRuns,
    /// The length of the state's path condition, which every search's condition extends.
    base: usize,
    /// Where an inner run was found that may end inside its body: the conditions added to the
    /// state's path condition on the way there, and the end's.
    inside: Vec<TermId>,
}

/// What a summary does for a state at its loop's header.
pub enum Application {
    /// It serves the state: the state and the forks are its outcome.
    Applied(Outcome),
    /// It cannot serve the state.
    Refused,
    /// It cannot serve the state because an inner run ends inside its body for every input
    /// of the state (a reason of this state, not of the loop).
    RefusedHere,
    /// It cannot serve the state where this condition (of the state's inputs) holds, since an
    /// inner run may then end inside its body, and may serve it where it does not.
    RefusedWhere(TermId),
}

/// The summary's outcome for `state` at the loop header, or why it cannot serve it.
pub fn apply(
    machine: &mut Machine<'_>,
    model: &LoopModel,
    state: &mut State,
    runs: &mut InnerRuns,
) -> Result<Application> {
    let Some(start) = start_values(machine, model, state)? else {
        return Ok(Application::Refused);
    };
    let mut search = Search {
        budget: INNER_PHASES,
        runs,
        base: state.pc.len(),
        inside: Vec::new(),
    };
    let pc = state.pc.to_vec();
    let Some(split) = split(machine, model, state, &start, &pc, false, &mut search)? else {
        return refusal(machine, state, &start, &search.inside);
    };
    let forms: Vec<&ClosedForm> = model.paths.iter().chain(&model.macros).collect();
    let mut outcome_forks = Vec::new();
    let bases = distinct_numbers(machine, &start);
    for fork in split.forks {
        let fork = settle_count(machine, &pc, &bases, fork)?;
        let mut next = state.clone();
        next.pc.push(fork.constraint);
        next.depth += 1;
        enter(machine, model, forms[fork.form], &fork.values, &mut next)?;
        machine.forks += 1;
        outcome_forks.push(next);
    }
    // The runs that leave the loop at once.
    let leaves = split.leaves;
    let mut outcome = match machine.store.as_bool(leaves) {
        Some(true) => machine.step(state)?,
        Some(false) => Outcome::ended(End::Dropped),
        None => match machine
            .queries
            .may_be_true(&machine.store, &state.pc, leaves)?
        {
            Answer::No => Outcome::ended(End::Dropped),
            Answer::Yes | Answer::Unknown(_) => {
                state.pc.push(leaves);
                machine.step(state)?
            }
        },
    };
    outcome.forked.extend(outcome_forks);
    Ok(Application::Applied(outcome))
}

/// Why the summary cannot serve `state` (whose start values are `start`): where inner runs may
/// end inside their bodies (`inside`), a condition of the state's own values that the summary
/// may serve the rest of the state without, if there is one (no fresh count of an inner phase
/// in it, and the rest possible).
fn refusal(
    machine: &mut Machine<'_>,
    state: &State,
    start: &[Option<TermId>],
    inside: &[TermId],
) -> Result<Application> {
    if inside.is_empty() {
        return Ok(Application::Refused);
    }
    let condition = machine.store.or_all(inside)?;
    let mut known = state.pc.to_vec();
    known.extend(start.iter().flatten());
    let known: FxHashSet<_> = machine.store.vars_of(&known).into_iter().collect();
    if !(machine.store.vars_of(&[condition]).iter()).all(|v| known.contains(v)) {
        return Ok(Application::Refused);
    }
    let rest = machine.store.not(condition)?;
    Ok(
        match machine
            .queries
            .may_be_true(&machine.store, &state.pc, rest)?
        {
            Answer::No => Application::RefusedHere,
            _ => Application::RefusedWhere(condition),
        },
    )
}

/// The runs of `model`'s loop from `start` under `pc`, split by their first walk, over every
/// case of its inner loops' results; `None` if a check in the loop may fail, if `ending` and a
/// walk may repeat forever, or if the inner loops' results are out of reach.
fn split(
    machine: &mut Machine<'_>,
    model: &LoopModel,
    header: &State,
    start: &[Option<TermId>],
    pc: &[TermId],
    ending: bool,
    search: &mut Search<'_>,
) -> Result<Option<Split>> {
    let Some(cases) = cases(machine, model, header, start, pc, search)? else {
        return Ok(None);
    };
    let mut forks = Vec::new();
    let mut leaves = Vec::with_capacity(cases.len());
    for (case, start) in cases {
        let mut case_pc = pc.to_vec();
        push_conjuncts(&machine.store, case, &mut case_pc);
        let Some(part) = split_case(machine, model, &start, &case_pc, ending)? else {
            return Ok(None);
        };
        for mut fork in part.forks {
            fork.constraint = machine.store.and_all(&[case, fork.constraint])?;
            forks.push(fork);
        }
        leaves.push(machine.store.and_all(&[case, part.leaves])?);
    }
    let leaves = machine.store.or_all(&leaves)?;
    Ok(Some(Split { forks, leaves }))
}

/// [`split`] for start values that include the results of the inner loops.
fn split_case(
    machine: &mut Machine<'_>,
    model: &LoopModel,
    start: &[Option<TermId>],
    pc: &[TermId],
    ending: bool,
) -> Result<Option<Split>> {
    let forms: Vec<&ClosedForm> = model.paths.iter().chain(&model.macros).collect();
    let store = &mut machine.store;
    // Which walks can begin here, and what each begins with.
    let mut begins = Vec::with_capacity(forms.len());
    for form in &forms {
        let phase = Phase { form, start };
        begins.push(phase.taken_from(store, start)?);
    }
    let mut open = Vec::new();
    for (i, &begin) in begins.iter().enumerate() {
        if machine.queries.may_be_true(&machine.store, pc, begin)? != Answer::No {
            open.push(i);
        }
    }
    // Every check of a walk that can begin must hold at every iteration of every run; a run
    // whose results an outer loop needs must end.
    for &i in &open {
        let phase = Phase {
            form: forms[i],
            start,
        };
        let store = &mut machine.store;
        let index = store.bv_var("loop.j", WIDTH)?;
        let reached = phase.taken_throughout(store, index)?;
        let mut failing = Vec::new();
        for (_, fails) in phase.failures_at(store, index)? {
            failing.push(store.and_all(&[reached, fails])?);
        }
        if ending {
            let all = store.bv_val(WIDTH, u128::from(u32::MAX))?;
            failing.push(phase.taken_throughout(store, all)?);
        }
        for bad in failing {
            if machine.queries.may_be_true(&machine.store, pc, bad)? != Answer::No {
                return Ok(None);
            }
        }
    }
    // Escapes first: a depth-first search follows the newest state, and an escape can lead to
    // another one without end (`for (i = 0; i <= n; i++)` with `n = UINT_MAX` never leaves),
    // while the runs that stop end the loop.
    let mut escapes = Vec::new();
    let mut forks = Vec::new();
    for &i in &open {
        let form = forms[i];
        let phase = Phase { form, start };
        let store = &mut machine.store;
        // A single path gives way to the macro walk that begins with it.
        let mut excluded = Vec::new();
        if i < model.paths.len() {
            for (m, w) in model.macros.iter().enumerate() {
                if w.walk.paths.first() == Some(&i) {
                    let begin = begins[model.paths.len() + m];
                    excluded.push(store.not(begin)?);
                }
            }
        }
        forks.extend(stop_forks(store, &phase, i, &excluded, !ending)?);
        let last_in = store.bv_var(COUNT_NAME, WIDTH)?;
        let upto = phase.taken_throughout(store, last_in)?;
        let out = phase.out_of_range_after(store, last_in)?;
        let escaped = phase.values_after(store, last_in)?;
        let goes_on = phase.taken_from(store, &escaped)?;
        let mut parts = vec![upto, out, goes_on];
        parts.extend(&excluded);
        escapes.push(Fork {
            constraint: store.and_all(&parts)?,
            values: escaped,
            form: i,
            count: last_in,
            exact: false,
        });
    }
    escapes.append(&mut forks);
    let forks = escapes;
    let mut feasible = Vec::with_capacity(forks.len());
    for fork in forks {
        match machine
            .queries
            .may_be_true(&machine.store, pc, fork.constraint)?
        {
            Answer::No => {}
            // The results of an inner loop are needed exactly: give up rather than carry
            // a case the solver could not decide through the rest of the search.
            Answer::Unknown(_) if ending => return Ok(None),
            _ => feasible.push(fork),
        }
    }
    let mut stays = Vec::with_capacity(model.paths.len());
    for &begin in &begins[..model.paths.len()] {
        stays.push(machine.store.not(begin)?);
    }
    let leaves = machine.store.and_all(&stays)?;
    Ok(Some(Split {
        forks: feasible,
        leaves,
    }))
}

/// The runs that repeat `phase`'s walk (the `form`-th) at least once and then stop, split by
/// the first atom that fails: where that atom fixes the count ([`Stop::After`]), the
/// fork's constraint and values are written with that count, a term of the start values, so
/// no later question carries a fresh count (listing 4.13's inner phases: `x` counts up to `z`,
/// then both to `n`); the runs stopped by other atoms keep a fresh count. `keep_count` keeps
/// a fresh count in every constraint (equal to its term), for counterexamples that prefer
/// short runs (`counterexample_model`).
fn stop_forks(
    store: &mut TermStore,
    phase: &Phase<'_>,
    form: usize,
    excluded: &[TermId],
    keep_count: bool,
) -> Result<Vec<Fork>> {
    let stops = phase.stops(store)?;
    let last = store.bv_var(COUNT_NAME, WIDTH)?;
    let mut forks = Vec::new();
    for (i, stop) in stops.iter().enumerate() {
        let Stop::After(count) = *stop else { continue };
        let after = phase.values_after(store, count)?;
        let mut parts = vec![phase.taken_throughout(store, count)?];
        // The first of these atoms to fail (others may fail too: the rest is theirs).
        for (earlier, _) in
            (stops[..i].iter().enumerate()).filter(|(_, s)| matches!(s, Stop::After(_)))
        {
            parts.push(phase.holds_at(store, earlier, &after)?);
        }
        let fails = phase.holds_at(store, i, &after)?;
        parts.push(store.not(fails)?);
        parts.extend(excluded);
        if keep_count {
            parts.push(store.eq(last, count)?);
        }
        forks.push(Fork {
            constraint: store.and_all(&parts)?,
            values: after,
            form,
            count: last,
            exact: true,
        });
    }
    // The runs stopped by the other atoms alone, with a fresh count.
    let after = phase.values_after(store, last)?;
    let mut parts = vec![phase.taken_throughout(store, last)?];
    let mut fails = Vec::new();
    let mut only_out_of_range = true;
    for (i, stop) in stops.iter().enumerate() {
        let holds = phase.holds_at(store, i, &after)?;
        match stop {
            Stop::After(_) => parts.push(holds),
            Stop::Never => {}
            Stop::OutOfRange | Stop::Open => {
                fails.push(store.not(holds)?);
                only_out_of_range &= *stop == Stop::OutOfRange;
            }
        }
    }
    if only_out_of_range {
        parts.push(phase.out_of_range_after(store, last)?);
    }
    parts.push(store.or_all(&fails)?);
    parts.extend(excluded);
    let constraint = store.and_all(&parts)?;
    if store.as_bool(constraint) != Some(false) {
        forks.push(Fork {
            constraint,
            values: after,
            form,
            count: last,
            exact: false,
        });
    }
    Ok(forks)
}

/// The cases of the results of `model`'s inner-loop runs from `start` under `pc`: disjoint
/// conditions that together hold whenever the runs happen, each with `start` extended by the
/// results (the slots' pseudo-locals); `None` if they are out of reach.
fn cases(
    machine: &mut Machine<'_>,
    model: &LoopModel,
    header: &State,
    start: &[Option<TermId>],
    pc: &[TermId],
    search: &mut Search<'_>,
) -> Result<Option<Vec<Case>>> {
    let Some((func, _, _)) = header.location() else {
        return Err(EngineError::Internal("a state without a frame".into()));
    };
    let mut cases = vec![(machine.store.bool_val(true)?, start.to_vec())];
    for slot in &model.slots {
        let (inner, inner_model) = &model.inners[slot.inner];
        let mut next = Vec::new();
        for (case, values) in cases {
            let store = &mut machine.store;
            let read = |m: LocalId| values.get(m.index()).copied().flatten();
            let mut entry = vec![None; inner_model.width];
            for (&l, e) in inner.control.iter().zip(&slot.control) {
                entry[l.index()] = Some(e.to_term(store, &read)?);
            }
            let mut added_to = Vec::with_capacity(slot.accumulated.len());
            for (&l, e) in inner.accumulated.iter().zip(&slot.accumulated) {
                let before = e.to_term(store, &read)?;
                entry[l.index()] = Some(before);
                added_to.push(before);
            }
            let mut case_pc = pc.to_vec();
            case_pc.push(case);
            let Some(entry) = memory_values(machine, inner_model, header, entry)? else {
                return Ok(None);
            };
            let key = (func, inner.id, entry);
            let ends = match search.runs.get(&key, &case_pc) {
                Some(known) => known,
                None => {
                    let bases = distinct_numbers(machine, &values);
                    let run = InnerRun {
                        inner,
                        model: inner_model,
                        added_to: &added_to,
                        bases: &bases,
                    };
                    let entry = key.2.clone();
                    let Some(found) = run.ends(machine, header, entry, &case_pc, search)? else {
                        return Ok(None);
                    };
                    let known = search.runs.found.entry(key).or_default();
                    known.push((case_pc, found.clone()));
                    found
                }
            };
            for (result, pseudo_values) in ends {
                let mut extended = values.clone();
                for (&pseudo, &v) in slot.results.iter().chain(&slot.deltas).zip(&pseudo_values) {
                    extended[pseudo.index()] = Some(v);
                }
                next.push((machine.store.and_all(&[case, result])?, extended));
            }
        }
        let next = merge_equal(machine, next)?;
        if next.len() > MAX_CASES {
            return Ok(None);
        }
        cases = next;
    }
    Ok(Some(cases))
}

/// One run of an inner loop in an outer body path.
struct InnerRun<'a> {
    inner: &'a Inner,
    model: &'a LoopModel,
    /// The values the accumulated locals have before the run.
    added_to: &'a [TermId],
    /// Terms the results may be settled to (the outer loop's start values).
    bases: &'a [TermId],
}

impl InnerRun<'_> {
    /// Every way the run from `entry` under `pc` can end: its condition and the values of the
    /// slot's pseudo-locals (results, then deltas), each settled to a simpler equal term where
    /// one is found; `None` if the run's ends are out of reach (see [`outcomes`]).
    fn ends(
        &self,
        machine: &mut Machine<'_>,
        header: &State,
        entry: Vec<Option<TermId>>,
        pc: &[TermId],
        search: &mut Search<'_>,
    ) -> Result<Option<Ends>> {
        let Some(found) = outcomes(machine, self.model, header, entry, pc, search)? else {
            return Ok(None);
        };
        let mut ends = Vec::with_capacity(found.len());
        for (result, out) in found {
            let value = |l: LocalId| out.get(l.index()).copied().flatten();
            let mut here = pc.to_vec();
            here.push(result);
            let mut pseudo_values = Vec::new();
            for &l in &self.inner.written {
                // A written local that is no control local (the inner loop never reads it) has
                // no value after a run that did not write it: its result would be the value
                // before the run, which the outer summary does not know.
                let Some(v) = value(l) else {
                    return Ok(None);
                };
                pseudo_values.push(settle(machine, &here, v, self.bases, false)?);
            }
            for (&l, &before) in self.inner.accumulated.iter().zip(self.added_to) {
                let after = value(l).ok_or_else(|| {
                    EngineError::Internal(format!("no inner-loop result for local %{}", l.0))
                })?;
                let delta = machine.store.bv_sub(after, before)?;
                pseudo_values.push(settle(machine, &here, delta, self.bases, false)?);
            }
            ends.push((result, pseudo_values));
        }
        Ok(Some(ends))
    }
}

/// `cases` (complete: together they always hold) with the cases that give the same values
/// joined into one whose condition is their disjunction, in order of first appearance. A loop
/// to a bound ends with the same values however its phases went (listing 4.13's inner loop
/// ends at `x = z = n` in five ways); one case left holds always, and the outer summary's
/// queries no longer carry the inner phases' conditions.
fn merge_equal(machine: &mut Machine<'_>, cases: Vec<Case>) -> Result<Vec<Case>> {
    let mut groups: Vec<(Vec<TermId>, Vec<Option<TermId>>)> = Vec::new();
    for (condition, values) in cases {
        match groups.iter_mut().find(|(_, v)| *v == values) {
            Some((conditions, _)) => conditions.push(condition),
            None => groups.push((vec![condition], values)),
        }
    }
    if let [(_, values)] = groups.as_mut_slice() {
        let values = std::mem::take(values);
        return Ok(vec![(machine.store.bool_val(true)?, values)]);
    }
    groups
        .into_iter()
        .map(|(conditions, values)| Ok((machine.store.or_all(&conditions)?, values)))
        .collect()
}

/// `fork` with its iteration count replaced in the closed forms by a term of the start values
/// it equals whenever the fork is taken (`n - 1 - i` for a loop counting `i` up to `n`), if
/// [`settle`] finds one: `res + n * n` instead of a product of a count and `n`. The constraint
/// keeps the count, with the equation added, so that counterexamples can still prefer small
/// counts (`counterexample_model`), which the interpreter can replay. Exact forks (see
/// [`stop_forks`]) are written with such a term already.
fn settle_count(
    machine: &mut Machine<'_>,
    pc: &[TermId],
    bases: &[TermId],
    fork: Fork,
) -> Result<Fork> {
    if fork.exact {
        return Ok(fork);
    }
    let mut asked = pc.to_vec();
    asked.push(fork.constraint);
    let count = settle(machine, &asked, fork.count, bases, true)?;
    if count == fork.count {
        return Ok(fork);
    }
    let replace = FxHashMap::from_iter([(fork.count, count)]);
    let store = &mut machine.store;
    let values = fork
        .values
        .iter()
        .map(|v| v.map(|t| store.substitute(t, &replace)).transpose())
        .collect::<std::result::Result<_, _>>()?;
    let equation = store.eq(fork.count, count)?;
    Ok(Fork {
        constraint: store.and(fork.constraint, equation)?,
        values,
        form: fork.form,
        count: fork.count,
        exact: true,
    })
}

/// The distinct 32-bit terms among `values`.
fn distinct_numbers(machine: &Machine<'_>, values: &[Option<TermId>]) -> Vec<TermId> {
    let mut out: Vec<TermId> = values
        .iter()
        .flatten()
        .copied()
        .filter(|&t| machine.store.sort(t) == Sort::BitVec(WIDTH))
        .collect();
    out.sort();
    out.dedup();
    out
}

/// `value`, or a simpler term it equals whenever `pc` holds: a constant, one of `bases`, or
/// (with `differences`) `a - b + d` or `a + d` for bases a and b and d in -1..=1. An inner loop's result written
/// with iteration counts is often one number (a loop to a constant bound) or a start value (a
/// loop to the bound `n` ends at `n`), and a simpler term keeps the outer loop's closed forms
/// linear for the solver (`10 * n` instead of a product of two counts). Candidates are chosen
/// by their value in one model of `pc`, so few are proved (at most [`SETTLE_PROOFS`]).
fn settle(
    machine: &mut Machine<'_>,
    pc: &[TermId],
    value: TermId,
    bases: &[TermId],
    differences: bool,
) -> Result<TermId> {
    if machine.store.as_bv(value).is_some() {
        return Ok(value);
    }
    let store = &machine.store;
    let mut roots = vec![value];
    roots.extend(bases);
    let vars: Vec<TermId> = store
        .vars_of(&roots)
        .into_iter()
        .map(|v| store.var_info(v).term)
        .collect();
    let ModelResult::Sat(model) = machine.queries.get_model(store, pc, &vars)? else {
        return Ok(value);
    };
    let mut assignment = Assignment::new();
    for &t in &vars {
        if let (Some(v), Some(x)) = (store.var_id(t), model.get(t)) {
            assignment.insert(v, x.clone());
        }
    }
    let Ok(numbers) = eval_all(store, &roots, &assignment) else {
        return Ok(value);
    };
    let numbers: Vec<Option<i32>> = numbers.iter().map(terms::value_as_i32).collect();
    let Some(target) = numbers[0] else {
        return Ok(value);
    };
    let base = |i: usize| numbers[i + 1];
    let mut tries = vec![terms::int_const(&mut machine.store, target)?];
    if !differences {
        for (i, &a) in bases.iter().enumerate() {
            if base(i) == Some(target) {
                tries.push(a);
            }
        }
    } else {
        // Iteration counts: `a - b + d` (a count from `b` up to `a`) or `a + d`, d in -1..=1.
        let zero = terms::int_const(&mut machine.store, 0)?;
        let mut pairs = vec![(None, 0)];
        pairs.extend(bases.iter().enumerate().map(|(j, &b)| (Some(b), j + 1)));
        for (i, &a) in bases.iter().enumerate() {
            for &(b, j) in &pairs {
                if tries.len() > SETTLE_PROOFS || j == i + 1 {
                    continue;
                }
                let (Some(x), Some(y)) = (base(i), if j == 0 { Some(0) } else { base(j - 1) })
                else {
                    continue;
                };
                let d = target.wrapping_sub(x.wrapping_sub(y));
                if !(-1..=1).contains(&d) {
                    continue;
                }
                let store = &mut machine.store;
                let gap = store.bv_sub(a, b.unwrap_or(zero))?;
                let d = terms::int_const(store, d)?;
                tries.push(store.bv_add(gap, d)?);
            }
        }
    }
    for candidate in tries.into_iter().take(SETTLE_PROOFS) {
        let other = machine.store.neq(value, candidate)?;
        if machine.queries.may_be_true(&machine.store, pc, other)? == Answer::No {
            return Ok(candidate);
        }
    }
    Ok(value)
}

/// Every way a run of `model`'s loop from `entry` under `pc` can end: the condition and the
/// values at the header when it leaves; `None` if a run may not end, a check in it may fail,
/// or the search needs more phases than its budget allows.
fn outcomes(
    machine: &mut Machine<'_>,
    model: &LoopModel,
    header: &State,
    entry: Vec<Option<TermId>>,
    pc: &[TermId],
    search: &mut Search<'_>,
) -> Result<Option<Vec<Case>>> {
    let mut work = vec![(machine.store.bool_val(true)?, entry)];
    let mut ends = Vec::new();
    while let Some((reached, values)) = work.pop() {
        if search.budget == 0 {
            return Ok(None);
        }
        search.budget -= 1;
        let mut here = pc.to_vec();
        push_conjuncts(&machine.store, reached, &mut here);
        let Some(split) = split(machine, model, header, &values, &here, true, search)? else {
            return Ok(None);
        };
        let leaves = machine.store.and_all(&[reached, split.leaves])?;
        if machine.queries.may_be_true(&machine.store, pc, leaves)? != Answer::No {
            // A run that takes no walk may end inside the body instead of leaving: the outer
            // summary has no case for that, so plain execution must follow it.
            if model.aborts {
                let exits = exit_condition(&mut machine.store, model, &values)?;
                let stays = machine.store.not(exits)?;
                let inside = machine.store.and(leaves, stays)?;
                if machine.queries.may_be_true(&machine.store, pc, inside)? != Answer::No {
                    let mut way = pc[search.base.min(pc.len())..].to_vec();
                    way.push(inside);
                    let way = machine.store.and_all(&way)?;
                    search.inside.push(way);
                    return Ok(None);
                }
            }
            ends.push((leaves, values));
        }
        for fork in split.forks {
            let constraint = machine.store.and_all(&[reached, fork.constraint])?;
            work.push((constraint, fork.values));
        }
    }
    Ok(Some(ends))
}

/// Some path leaving `model`'s loop is taken from the header values `values`.
fn exit_condition(
    store: &mut TermStore,
    model: &LoopModel,
    values: &[Option<TermId>],
) -> Result<TermId> {
    let mut exits = Vec::with_capacity(model.exits.len());
    for conds in &model.exits {
        let mut parts = Vec::with_capacity(conds.len());
        for (cond, direction) in conds {
            parts.push(condition_holds(store, cond, *direction, values)?);
        }
        exits.push(store.and_all(&parts)?);
    }
    Ok(store.or_all(&exits)?)
}

/// Appends the conjuncts of `t` to `pc`: a phase's "stops" (`¬ taken again`) then stands
/// alone, and the query layer's fast path answers the next phase's "can this walk begin" for
/// the same walk without the solver.
fn push_conjuncts(store: &TermStore, t: TermId, pc: &mut Vec<TermId>) {
    let mut todo = vec![t];
    while let Some(t) = todo.pop() {
        match *store.node(t) {
            Node::App2(Op::And, a, b) => todo.extend([b, a]),
            _ if store.as_bool(t) == Some(true) => {}
            _ => pc.push(t),
        }
    }
}

/// The start value of every local the loop reads and of every memory read of its body, `None`
/// if one is not a number, if a value the summary replaces is not a number, or if a check
/// guarding a memory read of this loop or of a loop inside it may fail.
fn start_values(
    machine: &mut Machine<'_>,
    model: &LoopModel,
    state: &State,
) -> Result<Option<Vec<Option<TermId>>>> {
    let mut start = vec![None; model.width];
    for &l in model.reads.iter().filter(|l| l.index() < model.locals) {
        match machine.read_local(state, l)? {
            SymValue::Int(t) if is_32_bit(machine, t) => start[l.index()] = Some(t),
            _ => return Ok(None),
        }
    }
    // A replaced value must replace a number: then the local is assigned before and after,
    // as in every run the summary stands for.
    for &l in &model.numbers {
        match machine.read_local(state, l)? {
            SymValue::Int(t) if is_32_bit(machine, t) => {}
            _ => return Ok(None),
        }
    }
    // Nothing in the loop writes memory or the locals naming the places read, so each guard
    // fails at its first execution or never: it must not be able to fail here.
    if model.reads_memory() {
        if machine.heap.is_some() {
            return Ok(None);
        }
        for check in model.memory_checks() {
            let fails = machine.failure_condition(state, &check)?;
            if machine
                .queries
                .may_be_true(&machine.store, &state.pc, fails)?
                != Answer::No
            {
                return Ok(None);
            }
        }
    }
    memory_values(machine, model, state, start)
}

/// `values` with the value of every memory read of `model`'s body (read from `header`: the
/// places do not change in the loop), `None` if one is not a number.
fn memory_values(
    machine: &mut Machine<'_>,
    model: &LoopModel,
    header: &State,
    mut values: Vec<Option<TermId>>,
) -> Result<Option<Vec<Option<TermId>>>> {
    for (place, l) in &model.memory.places {
        match machine.read_place(header, place)? {
            SymValue::Int(t) if is_32_bit(machine, t) => values[l.index()] = Some(t),
            _ => return Ok(None),
        }
    }
    Ok(Some(values))
}

/// Whether `t` is a 32-bit number: closed forms compute in 32 bits (a loop over 64-bit
/// numbers is executed, not summarized).
fn is_32_bit(machine: &Machine<'_>, t: TermId) -> bool {
    terms::width(&machine.store, t) == WIDTH
}

/// Puts the values of a phase into `state` and covers the walk's blocks.
fn enter(
    machine: &mut Machine<'_>,
    model: &LoopModel,
    form: &ClosedForm,
    values: &[Option<TermId>],
    state: &mut State,
) -> Result<()> {
    let Some((func, _, _)) = state.location() else {
        return Err(EngineError::Internal("a state without a frame".into()));
    };
    for (l, f) in form.forms.iter().enumerate().take(model.locals) {
        if f.is_none() {
            continue;
        }
        let local = LocalId(l as u32);
        let value = values[l]
            .ok_or_else(|| EngineError::Internal(format!("no closed-form value for local %{l}")))?;
        machine.write_local(state, local, SymValue::Int(value))?;
    }
    // What the walk writes to memory: the value of its last write (a derived value).
    for (place, l) in &model.memory.writes {
        if form.forms[l.index()].is_some() {
            let value = values[l.index()].ok_or_else(|| {
                EngineError::Internal(format!("no closed-form value for memory write %{}", l.0))
            })?;
            machine.write_place(state, place, SymValue::Int(value))?;
        }
    }
    let function = &machine.module.functions[func.index()];
    for &(block, direction) in &form.walk.steps {
        for index in 0..=function.block(block).insts.len() {
            machine.coverage.cover_instruction(func, block, index);
        }
        if let Some(d) = direction {
            machine.coverage.cover_branch(func, block, d);
        }
    }
    Ok(())
}
