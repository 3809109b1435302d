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

use symex_ir::cfg::LocalId;
use symex_smt::{Answer, TermId};

use crate::common::terms::WIDTH;
use crate::error::EngineError;
use crate::forward::machine::{End, Machine, Outcome};
use crate::forward::state::State;
use crate::forward::summarize::closed::ClosedForm;
use crate::forward::summarize::phase::Phase;
use crate::forward::summarize::{LoopModel, COUNT_NAME};
use crate::forward::trace::SymEvent;
use crate::forward::value::SymValue;

type Result<T> = std::result::Result<T, EngineError>;

/// One way the runs from the header can begin, and the constraint to add to it.
struct Fork {
    constraint: TermId,
    values: Vec<Option<TermId>>,
    form: usize,
}

/// The summary's outcome for `state` at the loop header, or `None` if it cannot serve it.
pub fn apply(
    machine: &mut Machine<'_>,
    model: &LoopModel,
    state: &mut State,
) -> Result<Option<Outcome>> {
    let Some(start) = start_values(machine, model, state)? else {
        return Ok(None);
    };
    let forms: Vec<&ClosedForm> = model.paths.iter().chain(&model.macros).collect();
    let store = &mut machine.store;
    // Which walks can begin here, and what each begins with.
    let mut begins = Vec::with_capacity(forms.len());
    for form in &forms {
        let phase = Phase {
            form,
            start: &start,
        };
        begins.push(phase.taken_from(store, &start)?);
    }
    let mut open = Vec::new();
    for (i, &begin) in begins.iter().enumerate() {
        if machine
            .queries
            .may_be_true(&machine.store, &state.pc, begin)?
            != Answer::No
        {
            open.push(i);
        }
    }
    // Every check of a walk that can begin must hold at every iteration of every run.
    for &i in &open {
        let phase = Phase {
            form: forms[i],
            start: &start,
        };
        let store = &mut machine.store;
        let index = store.bv_var("loop.j", WIDTH)?;
        let reached = phase.taken_throughout(store, index)?;
        for (_, fails) in phase.failures_at(store, index)? {
            let failing = machine.store.and_all(&[reached, fails])?;
            if machine
                .queries
                .may_be_true(&machine.store, &state.pc, failing)?
                != Answer::No
            {
                return Ok(None);
            }
        }
    }
    let mut forks = Vec::new();
    for &i in &open {
        let form = forms[i];
        let phase = Phase {
            form,
            start: &start,
        };
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
    let mut outcome_forks = Vec::new();
    for fork in forks {
        if machine
            .queries
            .may_be_true(&machine.store, &state.pc, fork.constraint)?
            == Answer::No
        {
            continue;
        }
        let mut next = state.clone();
        next.pc.push(fork.constraint);
        next.depth += 1;
        enter(machine, forms[fork.form], &fork.values, &mut next)?;
        machine.forks += 1;
        outcome_forks.push(next);
    }
    // The runs that leave the loop at once.
    let mut stays = Vec::with_capacity(model.paths.len());
    for &begin in &begins[..model.paths.len()] {
        stays.push(machine.store.not(begin)?);
    }
    let leaves = machine.store.and_all(&stays)?;
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

/// The start value of every local the loop reads, `None` if one is not a number.
fn start_values(
    machine: &mut Machine<'_>,
    model: &LoopModel,
    state: &State,
) -> Result<Option<Vec<Option<TermId>>>> {
    let locals = state.frame().map_or(0, |f| f.locals.len());
    let mut start = vec![None; locals];
    for &l in &model.reads {
        match machine.read_local(state, l)? {
            SymValue::Int(t) => start[l.index()] = Some(t),
            _ => return Ok(None),
        }
    }
    Ok(Some(start))
}

/// Puts the values of a phase into `state`, traces the source variables it changed and covers
/// the walk's blocks.
fn enter(
    machine: &mut Machine<'_>,
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
    for (l, f) in form.forms.iter().enumerate() {
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
