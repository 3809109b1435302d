//! The properties: every `Check` instruction is a solver question on the path condition.
//!
//! The failure condition is built as a Boolean term (constant for concrete values, so concrete
//! checks never reach the solver). If the path condition allows it, a model becomes a witness:
//! the inputs read so far in order, the entry's arguments, the path; the concrete interpreter
//! replays it and the finding goes to the report, confirmed or not (`Verdict::conclude` judges).
//! A property with a finding is not asked again (one counterexample per property, as in KLEE).
//! The path then goes on under the negated failure condition, if that is satisfiable. In fork
//! index mode an in-bounds access also splits the path per feasible concrete index.

use symex_ir::cfg::{Check, Operand, PropId};
use symex_report::{ArgValue, Args, Finding, Witness};
use symex_smt::{Answer, ModelResult, TermId};

use crate::common::options::IndexMode;
use crate::common::options::TraceRules;
use crate::common::replay::replay_full;
use crate::common::terms::{self, value_as_i32};
use crate::error::EngineError;
use crate::forward::machine::{End, Machine, Outcome};
use crate::forward::state::State;
use crate::forward::summarize::{counterexample_model, LONG_REPLAY};
use crate::forward::value::SymValue;

type Result<T> = std::result::Result<T, EngineError>;

impl Machine<'_> {
    pub fn check(&mut self, state: &mut State, check: &Check, prop: PropId) -> Result<Outcome> {
        let p = prop.index();
        if p >= self.findings.len() {
            return Err(EngineError::Internal(format!("no property #{p}")));
        }
        let fail = self.failure_condition(state, check)?;
        let constant = self.store.as_bool(fail);
        if constant == Some(false) {
            return self.after_check(state, check);
        }
        let mut failure_possible = None;
        if self.findings[p].is_none() {
            let answer = match constant {
                Some(true) => Answer::Yes,
                _ => self.queries.may_be_true(&self.store, &state.pc, fail)?,
            };
            match &answer {
                Answer::Yes => self.report(state, prop, fail)?,
                Answer::Unknown(reason) => self.solver_unknown(reason.clone(), Some(p)),
                Answer::No => {}
            }
            failure_possible = Some(answer);
        }
        if self.heap.is_some() && constant != Some(true) && self.is_error_leaf(state, check)? {
            let answer = match failure_possible.take() {
                Some(answer) => answer,
                None => self.queries.may_be_true(&self.store, &state.pc, fail)?,
            };
            if answer == Answer::Yes {
                self.traces += 1;
            }
            failure_possible = Some(answer);
        }
        if constant == Some(true) {
            return Ok(Outcome::ended(End::Failed));
        }
        if failure_possible != Some(Answer::No) {
            let holds = self.store.not(fail)?;
            match self.queries.may_be_true(&self.store, &state.pc, holds)? {
                Answer::No => return Ok(Outcome::ended(End::Failed)),
                Answer::Yes | Answer::Unknown(_) => state.pc.push(holds),
            }
        }
        self.after_check(state, check)
    }

    /// Whether a possible failure of `check` is a leaf of the computation tree: always, except
    /// a null check of an input reference under `--trace-rules paper` (the paper's
    /// dereference implies non-null).
    fn is_error_leaf(&mut self, state: &State, check: &Check) -> Result<bool> {
        let paper = self
            .heap
            .as_ref()
            .is_some_and(|h| h.rules == TraceRules::Paper);
        Ok(match check {
            Check::NonNull(op) if paper => !self.operand(state, *op)?.has_ref(),
            _ => true,
        })
    }

    /// The condition under which the check fails.
    pub(crate) fn failure_condition(&mut self, state: &State, check: &Check) -> Result<TermId> {
        match check {
            Check::Assert(op) | Check::Condition { holds: op, .. } | Check::NonZero(op) => {
                let value = self.int_operand(state, *op)?;
                let zero = terms::int_const(&mut self.store, 0)?;
                Ok(self.store.eq(value, zero)?)
            }
            Check::NonNull(op) => {
                let pointer = self.operand(state, *op)?;
                pointer.is_null(&mut self.store)
            }
            Check::InBounds { array, index } => {
                let array = self.read_place(state, array)?;
                let index = self.int_operand(state, *index)?;
                array.out_of_bounds(index, &mut self.store)
            }
            Check::Init(place) => self.uninit_place(state, place),
            Check::Reach => Ok(self.store.bool_val(true)?),
        }
    }

    /// Builds, replays and records the counterexample for `prop` on this path.
    fn report(&mut self, state: &State, prop: PropId, fail: TermId) -> Result<()> {
        let inputs_read = state.inputs_read as usize;
        let mut vars: Vec<TermId> = self.input_vars[..inputs_read].to_vec();
        vars.extend(&self.arg_vars);
        if let Some(ctx) = &self.heap {
            vars.extend(ctx.model_vars(&self.store, &state.heap, &self.entry_args));
        }
        let mut constraints = state.pc.clone();
        constraints.push(fail);
        // Summarized loops' iteration counts get values too, small ones if possible.
        let (model, long_runs) = counterexample_model(self, &constraints, &mut vars)?;
        let model = match model {
            ModelResult::Sat(model) => model,
            ModelResult::Unsat => return Ok(()),
            ModelResult::Unknown(reason) => {
                self.solver_unknown(reason, Some(prop.index()));
                return Ok(());
            }
        };
        let number = |t: &TermId| model.get(*t).and_then(value_as_i32).unwrap_or(0);
        let inputs: Vec<i32> = vars[..inputs_read].iter().map(number).collect();
        let args: Vec<i32> = self.arg_vars.iter().map(number).collect();
        let mut witness = Witness {
            inputs: inputs.clone(),
            args: self
                .entry
                .params
                .iter()
                .zip(&args)
                .map(|(name, &v)| (name.clone(), ArgValue::Int(v)))
                .collect::<Args>(),
            heap: None,
            trace: Vec::new(),
        };
        if let Some(ctx) = self.heap.as_mut() {
            let named: Vec<(String, SymValue)> = self
                .entry
                .params
                .iter()
                .cloned()
                .zip(self.entry_args.iter().cloned())
                .collect();
            let value_of = |t: TermId| model.get(t).and_then(value_as_i32);
            let heap = ctx.witness(&self.store, &state.heap, &named, &value_of);
            witness.args = heap.args;
            witness.heap = Some(heap.heap);
        }
        let deadline = self.queries.deadline();
        let replayed = replay_full(
            self.module,
            &self.entry.name,
            &witness,
            Some(&self.locator),
            deadline,
        );
        witness.trace = replayed.trace;
        let replay = replayed.replay;
        if long_runs && replay != symex_report::Replay::Failed(prop) {
            // The replay cannot confirm it within its step limit: unknown, not violated.
            self.solver_unknown(LONG_REPLAY.into(), Some(prop.index()));
            return Ok(());
        }
        if replay == symex_report::Replay::Failed(prop) {
            self.found_violation = true;
        }
        self.findings[prop.index()] = Some(Finding::Reached { witness, replay });
        Ok(())
    }

    /// In fork index mode, splits the path per feasible value of a symbolic index.
    fn after_check(&mut self, state: &mut State, check: &Check) -> Result<Outcome> {
        let Check::InBounds {
            array,
            index: Operand::Local(local),
        } = check
        else {
            return Ok(Outcome::go_on());
        };
        if self.options.index_mode != IndexMode::Fork {
            return Ok(Outcome::go_on());
        }
        let index = self.int_operand(state, Operand::Local(*local))?;
        if self.store.as_bv(index).is_some() {
            return Ok(Outcome::go_on());
        }
        let len = self.read_place(state, array)?.max_len();
        let mut feasible = Vec::new();
        for k in 0..len {
            let constant = terms::int_const(&mut self.store, k as i32)?;
            let is_k = self.store.eq(index, constant)?;
            match self.queries.may_be_true(&self.store, &state.pc, is_k)? {
                Answer::No => {}
                Answer::Yes | Answer::Unknown(_) => feasible.push((constant, is_k)),
            }
        }
        let original = (feasible.len() > 1).then(|| state.clone());
        let mut outcome = Outcome::go_on();
        for (i, (constant, is_k)) in feasible.into_iter().enumerate() {
            if i == 0 {
                state.pc.push(is_k);
                if original.is_some() {
                    state.depth += 1;
                }
                self.write_local(state, *local, SymValue::Int(constant))?;
            } else if let Some(original) = &original {
                let mut forked = original.clone();
                forked.pc.push(is_k);
                forked.depth += 1;
                self.write_local(&mut forked, *local, SymValue::Int(constant))?;
                self.forks += 1;
                outcome.forked.push(forked);
            }
        }
        Ok(outcome)
    }
}
