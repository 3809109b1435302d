//! The properties: every `Check` instruction is a solver question on the path condition.
//!
//! The failure condition is built as a Boolean term (constant for concrete values, so concrete
//! checks never reach the solver). If the path condition allows it, a model becomes a witness:
//! the inputs read so far in order, the entry's arguments, the path; the concrete interpreter
//! replays it and the finding goes to the report, confirmed or not (`Verdict::conclude` judges).
//! A property with a finding is not asked again (one counterexample per property, as in KLEE).
//! The path then goes on under the negated failure condition, if that is satisfiable. In fork
//! index mode an in-bounds access also splits the path per feasible concrete index.

use symex_ir::cfg::{Check, Operand, PropId, PropertyKind};
use symex_report::{Finding, Witness};
use symex_smt::{Answer, TermId};

use crate::common::options::IndexMode;
use crate::common::options::TraceRules;
use crate::common::replay::{replay_full, Replayed};
use crate::common::terms;
use crate::error::EngineError;
use crate::forward::emit::PathWitness;
use crate::forward::machine::{End, Machine, Outcome};
use crate::forward::state::State;
use crate::forward::summarize::LONG_REPLAY;
use crate::forward::value::SymValue;

type Result<T> = std::result::Result<T, EngineError>;

/// How many runs past `unmodelled` checks with a counterexample one search replays: each costs
/// a model and a concrete run where a path ends anyway.
const MAX_REPLAYS_PAST_UNMODELLED: u32 = 256;

impl Machine<'_> {
    pub fn check(&mut self, state: &mut State, check: &Check, prop: PropId) -> Result<Outcome> {
        let p = prop.index();
        if p >= self.findings.len() {
            return Err(EngineError::Internal(format!("no property #{p}")));
        }
        let fail = self.failure_condition(state, check)?;
        let fail = state.pc.rewrite(&mut self.store, fail)?;
        let constant = self.store.as_bool(fail);
        if constant == Some(false) {
            return self.after_check(state, check);
        }
        let mut failure_possible = None;
        let known = self.findings[p].is_some();
        let past_unmodelled = known
            && self.module.properties[p].kind == PropertyKind::Unmodelled
            && self.replays_past_unmodelled < MAX_REPLAYS_PAST_UNMODELLED;
        // A property with a counterexample is not asked again, unless every failing path
        // gets a test or its run may fail another property beyond it.
        if !known || self.options.emit_tests.is_on() || past_unmodelled {
            let answer = match constant {
                Some(true) => Answer::Yes,
                _ => self.queries.may_be_true(&self.store, &state.pc, fail)?,
            };
            match &answer {
                Answer::Yes if past_unmodelled => self.replay_past_unmodelled(state, fail)?,
                Answer::Yes if known => {}
                Answer::Yes => self.report(state, prop, fail)?,
                Answer::Unknown(_) if known => {}
                Answer::Unknown(reason) => self.solver_unknown(reason.clone(), Some(p)),
                Answer::No => {}
            }
            if answer == Answer::Yes {
                self.emit_failure(state, prop, fail)?;
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
                Answer::Yes | Answer::Unknown(_) => self.constrain(state, holds)?,
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
                let zero = terms::zero_like(&mut self.store, value)?;
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

    /// Whether every property that can fail has a confirmed violation (`infallible` from
    /// `verdict::cannot_fail`): the exact test behind the count of confirmed violations, so
    /// that stopping there never rests on the count alone.
    pub fn all_decided(&self, infallible: &[bool]) -> bool {
        self.findings.iter().enumerate().all(|(p, finding)| {
            infallible.get(p) == Some(&true)
                || matches!(finding, Some(Finding::Reached { replay, .. })
                    if *replay == symex_report::Replay::Failed(PropId(p as u32)))
        })
    }

    /// Builds, replays and records the counterexample for `prop` on this path.
    fn report(&mut self, state: &State, prop: PropId, fail: TermId) -> Result<()> {
        let (mut witness, long_runs) = match self.path_witness(state, Some(fail))? {
            PathWitness::Found { witness, long_runs } => (witness, long_runs),
            PathWitness::Infeasible => return Ok(()),
            PathWitness::Unknown(reason) => {
                self.solver_unknown(reason, Some(prop.index()));
                return Ok(());
            }
        };
        let replayed = self.replay(&witness);
        witness.trace = replayed.trace;
        let replay = replayed.replay;
        if long_runs && replay != symex_report::Replay::Failed(prop) {
            // The replay cannot confirm it within its step limit: unknown, not violated.
            self.solver_unknown(LONG_REPLAY.into(), Some(prop.index()));
            return Ok(());
        }
        if let symex_report::Replay::Failed(failed) = replay {
            // The run failed another property first (this path's check of it was less precise
            // than the run: a count over memory that a merge made one of several values): the
            // interpreter has confirmed that one's violation, reported under the property it
            // fails, beside this one's unconfirmed claim.
            if failed != prop {
                self.confirm_other(failed, &witness);
                // An `unmodelled` check the run did not reach is no bug of symex: the engine
                // stopped there where the run went on to fail the other property first.
                if self.module.properties[prop.index()].kind == PropertyKind::Unmodelled {
                    let reason = "a run may leave what symex models here; the run of this \
                                  path's inputs fails another property before it"
                        .to_string();
                    self.findings[prop.index()] = Some(Finding::GaveUp { reason });
                    return Ok(());
                }
            }
        }
        if replay == symex_report::Replay::Failed(prop) {
            self.confirmed_violations += 1;
            let kind = self.module.properties[prop.index()].kind;
            self.stop_now |= self.options.stop_on_first.stops_at(kind);
        }
        self.findings[prop.index()] = Some(Finding::Reached { witness, replay });
        Ok(())
    }

    /// The interpreter's run of `witness`, with its trace, until the check's deadline or the
    /// replay's own (`--replay-timeout`).
    fn replay(&self, witness: &Witness) -> Replayed {
        let deadline = self.queries.deadline().max(self.replay_deadline);
        replay_full(
            self.module,
            &self.entry.name,
            witness,
            Some(&self.locator),
            deadline,
        )
    }

    /// A path that may fail an `unmodelled` check ends there, where the program goes on: its
    /// run may fail another property beyond it (a leak at `main`'s return that a count over a
    /// symbolic memory could not see). The first such path's run is replayed as the check's
    /// counterexample; each later one's run (up to [`MAX_REPLAYS_PAST_UNMODELLED`]) is replayed
    /// for the property it fails, if another.
    fn replay_past_unmodelled(&mut self, state: &State, fail: TermId) -> Result<()> {
        self.replays_past_unmodelled += 1;
        let PathWitness::Found { mut witness, .. } = self.path_witness(state, Some(fail))? else {
            return Ok(());
        };
        let replayed = self.replay(&witness);
        if let symex_report::Replay::Failed(failed) = replayed.replay {
            if self.module.properties[failed.index()].kind != PropertyKind::Unmodelled {
                witness.trace = replayed.trace;
                self.confirm_other(failed, &witness);
            }
        }
        Ok(())
    }

    /// Records `witness`, whose replay failed `prop`, as `prop`'s counterexample, unless one
    /// was confirmed for it before.
    fn confirm_other(&mut self, prop: PropId, witness: &Witness) {
        let replay = symex_report::Replay::Failed(prop);
        let Some(finding) = self.findings.get(prop.index()) else {
            return;
        };
        if matches!(finding, Some(Finding::Reached { replay: r, .. }) if *r == replay) {
            return;
        }
        self.confirmed_violations += 1;
        let kind = self.module.properties[prop.index()].kind;
        self.stop_now |= self.options.stop_on_first.stops_at(kind);
        let witness = witness.clone();
        self.findings[prop.index()] = Some(Finding::Reached { witness, replay });
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
        // A fork like a branch's: at `--max-depth` the path ends.
        if let Some(limit) = self
            .options
            .max_depth
            .filter(|&l| feasible.len() > 1 && state.depth >= l)
        {
            return Ok(Outcome::ended(End::Cut(symex_report::Cut::Depth(limit))));
        }
        let original = (feasible.len() > 1).then(|| state.clone());
        let mut outcome = Outcome::go_on();
        for (i, (constant, is_k)) in feasible.into_iter().enumerate() {
            if i == 0 {
                self.constrain(state, is_k)?;
                if original.is_some() {
                    state.depth += 1;
                }
                self.write_local(state, *local, SymValue::Int(constant))?;
            } else if let Some(original) = &original {
                let mut forked = original.clone();
                self.constrain(&mut forked, is_k)?;
                forked.depth += 1;
                self.write_local(&mut forked, *local, SymValue::Int(constant))?;
                self.forks += 1;
                outcome.forked.push(forked);
            }
        }
        Ok(outcome)
    }
}
