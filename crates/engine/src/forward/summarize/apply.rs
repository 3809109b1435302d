//! Applying a loop's summary to a state at the loop's header (seed 002 §4.4: "the state is
//! duplicated, one state for each trace").
//!
//! The runs from the header are split exactly, by their first walk:
//! * runs that leave at once: the state itself, constrained so that no body path is taken
//!   (it then steps into the header and out of the loop by plain execution);
//! * per body path p (and per periodic macro walk w): runs that repeat it k ≥ 1 times, k a fresh
//!   symbol: a new state at the header with the closed-form values after k iterations, under
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
//! on each visit by plain execution of the outer loop).

use symex_ir::cfg::LocalId;
use symex_smt::{Answer, ModelResult, TermId};

use crate::common::terms::{self, WIDTH};
use crate::error::EngineError;
use crate::forward::machine::{End, Machine, Outcome};
use crate::forward::state::State;
use crate::forward::summarize::closed::ClosedForm;
use crate::forward::summarize::phase::Phase;
use crate::forward::summarize::{LoopModel, COUNT_NAME};
use crate::forward::trace::SymEvent;
use crate::forward::value::SymValue;

type Result<T> = std::result::Result<T, EngineError>;

/// The most summary phases examined to find the results of the inner-loop runs of one
/// application.
const INNER_PHASES: usize = 16;

/// The most cases (combinations of inner-loop results) a summary is applied in.
const MAX_CASES: usize = 16;

/// One way the runs from the header can begin, and the constraint to add to it.
struct Fork {
    constraint: TermId,
    values: Vec<Option<TermId>>,
    form: usize,
}

/// The runs from a loop header, split by their first walk: the forks that may happen and the
/// constraint of the runs that leave at once.
struct Split {
    forks: Vec<Fork>,
    leaves: TermId,
}

/// A condition on the inputs and the values it gives to some locals.
type Case = (TermId, Vec<Option<TermId>>);

/// The summary's outcome for `state` at the loop header, or `None` if it cannot serve it.
pub fn apply(
    machine: &mut Machine<'_>,
    model: &LoopModel,
    state: &mut State,
) -> Result<Option<Outcome>> {
    let Some(start) = start_values(machine, model, state)? else {
        return Ok(None);
    };
    let mut budget = INNER_PHASES;
    let Some(split) = split(machine, model, state, &start, &state.pc, false, &mut budget)? else {
        return Ok(None);
    };
    let forms: Vec<&ClosedForm> = model.paths.iter().chain(&model.macros).collect();
    let mut outcome_forks = Vec::new();
    for fork in split.forks {
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
    Ok(Some(outcome))
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
    budget: &mut usize,
) -> Result<Option<Split>> {
    let Some(cases) = cases(machine, model, header, start, pc, budget)? else {
        return Ok(None);
    };
    let mut forks = Vec::new();
    let mut leaves = Vec::with_capacity(cases.len());
    for (case, start) in cases {
        let mut case_pc = pc.to_vec();
        case_pc.push(case);
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
        let last = store.bv_var(COUNT_NAME, WIDTH)?;
        let run = phase.taken_throughout(store, last)?;
        let after = phase.values_after(store, last)?;
        let again = phase.taken_from(store, &after)?;
        let stops = store.not(again)?;
        let mut parts = vec![run, stops];
        parts.extend(&excluded);
        forks.push(Fork {
            constraint: store.and_all(&parts)?,
            values: after,
            form: i,
        });
        let last_in = store.bv_var(COUNT_NAME, WIDTH)?;
        let upto = phase.taken_throughout(store, last_in)?;
        let out = phase.out_of_range_after(store, last_in)?;
        let escaped = phase.values_after(store, last_in)?;
        let goes_on = phase.taken_from(store, &escaped)?;
        let mut parts = vec![upto, out, goes_on];
        parts.extend(&excluded);
        forks.push(Fork {
            constraint: store.and_all(&parts)?,
            values: escaped,
            form: i,
        });
    }
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

/// The cases of the results of `model`'s inner-loop runs from `start` under `pc`: disjoint
/// conditions that together hold whenever the runs happen, each with `start` extended by the
/// results (the slots' pseudo-locals); `None` if they are out of reach.
fn cases(
    machine: &mut Machine<'_>,
    model: &LoopModel,
    header: &State,
    start: &[Option<TermId>],
    pc: &[TermId],
    budget: &mut usize,
) -> Result<Option<Vec<Case>>> {
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
            let Some(results) = outcomes(machine, inner_model, header, entry, &case_pc, budget)?
            else {
                return Ok(None);
            };
            for (result, out) in results {
                let mut extended = values.clone();
                let value = |l: LocalId| {
                    out.get(l.index()).copied().flatten().ok_or_else(|| {
                        EngineError::Internal(format!("no inner-loop result for local %{}", l.0))
                    })
                };
                let condition = machine.store.and_all(&[case, result])?;
                let mut here = pc.to_vec();
                here.push(condition);
                for (&l, &pseudo) in inner.written.iter().zip(&slot.results) {
                    let result = settle(machine, &here, value(l)?)?;
                    extended[pseudo.index()] = Some(result);
                }
                for ((&l, &pseudo), &before) in
                    inner.accumulated.iter().zip(&slot.deltas).zip(&added_to)
                {
                    let after = value(l)?;
                    let delta = machine.store.bv_sub(after, before)?;
                    extended[pseudo.index()] = Some(settle(machine, &here, delta)?);
                }
                next.push((condition, extended));
            }
        }
        if next.len() > MAX_CASES {
            return Ok(None);
        }
        cases = next;
    }
    Ok(Some(cases))
}

/// `value`, or the constant it equals whenever `pc` holds: an inner loop's result written
/// with iteration counts is often one number (a loop to a constant bound), and a constant keeps
/// the outer loop's closed forms linear for the solver.
fn settle(machine: &mut Machine<'_>, pc: &[TermId], value: TermId) -> Result<TermId> {
    if machine.store.as_bv(value).is_some() {
        return Ok(value);
    }
    let probe = machine.store.bv_var("loop.result", WIDTH)?;
    let mut asked = pc.to_vec();
    asked.push(machine.store.eq(probe, value)?);
    let ModelResult::Sat(model) = machine
        .queries
        .get_model(&machine.store, &asked, &[probe])?
    else {
        return Ok(value);
    };
    let Some(number) = model.get(probe).and_then(terms::value_as_i32) else {
        return Ok(value);
    };
    let constant = terms::int_const(&mut machine.store, number)?;
    let other = machine.store.neq(value, constant)?;
    Ok(
        match machine.queries.may_be_true(&machine.store, pc, other)? {
            Answer::No => constant,
            _ => value,
        },
    )
}

/// Every way a run of `model`'s loop from `entry` under `pc` can end: the condition and the
/// values at the header when it leaves; `None` if a run may not end, a check in it may fail,
/// or the search needs more phases than `budget` allows.
fn outcomes(
    machine: &mut Machine<'_>,
    model: &LoopModel,
    header: &State,
    entry: Vec<Option<TermId>>,
    pc: &[TermId],
    budget: &mut usize,
) -> Result<Option<Vec<Case>>> {
    let mut work = vec![(machine.store.bool_val(true)?, entry)];
    let mut ends = Vec::new();
    while let Some((reached, values)) = work.pop() {
        if *budget == 0 {
            return Ok(None);
        }
        *budget -= 1;
        let mut here = pc.to_vec();
        here.push(reached);
        let Some(split) = split(machine, model, header, &values, &here, true, budget)? else {
            return Ok(None);
        };
        let leaves = machine.store.and_all(&[reached, split.leaves])?;
        if machine.queries.may_be_true(&machine.store, pc, leaves)? != Answer::No {
            ends.push((leaves, values));
        }
        for fork in split.forks {
            let constraint = machine.store.and_all(&[reached, fork.constraint])?;
            work.push((constraint, fork.values));
        }
    }
    Ok(Some(ends))
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
            SymValue::Int(t) => start[l.index()] = Some(t),
            _ => return Ok(None),
        }
    }
    // A replaced value must replace a number: then the local is assigned before and after,
    // as in every run the summary stands for.
    for &l in &model.numbers {
        if !matches!(machine.read_local(state, l)?, SymValue::Int(_)) {
            return Ok(None);
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
            SymValue::Int(t) => values[l.index()] = Some(t),
            _ => return Ok(None),
        }
    }
    Ok(Some(values))
}

/// Puts the values of a phase into `state`, traces the source variables it changed and covers
/// the walk's blocks.
fn enter(
    machine: &mut Machine<'_>,
    model: &LoopModel,
    form: &ClosedForm,
    values: &[Option<TermId>],
    state: &mut State,
) -> Result<()> {
    let Some((func, header, _)) = state.location() else {
        return Err(EngineError::Internal("a state without a frame".into()));
    };
    let span = machine.module.functions[func.index()]
        .block(header)
        .term_span;
    for (l, f) in form.forms.iter().enumerate().take(model.locals) {
        if f.is_none() {
            continue;
        }
        let local = LocalId(l as u32);
        let value = values[l]
            .ok_or_else(|| EngineError::Internal(format!("no closed-form value for local %{l}")))?;
        if machine.info.functions[func.index()].is_traced(local) {
            state
                .trace
                .push(func, span, SymEvent::Assign { var: local, value });
        }
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
