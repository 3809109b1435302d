//! Concrete inputs for a path: a model of its path condition as a witness (inputs, the entry's
//! arguments and input heap), for a counterexample (`checks.rs`) and for the test of every
//! explored path (`--emit-tests`: returned, failed, assumption that cannot hold, cut). A test
//! never makes a verdict wrong: a path the solver cannot give inputs for is left without one
//! (its solver time counts against `--timeout`, docs/tests.md).

use symex_ir::cfg::PropId;
use symex_report::{ArgValue, Args, Event, PathEnd, PathTest, Witness};
use symex_smt::{ModelResult, TermId};

use crate::common::terms::{value_as_i32, value_as_i64};
use crate::error::EngineError;
use crate::forward::machine::Machine;
use crate::forward::state::State;
use crate::forward::summarize::counterexample_model;
use crate::forward::value::SymValue;

type Result<T> = std::result::Result<T, EngineError>;

/// What a model of a path gives.
pub enum PathWitness {
    /// Inputs for the path; `long_runs`: a summarized loop runs so often that the replay may
    /// not reach the end.
    Found { witness: Witness, long_runs: bool },
    /// No input takes the path.
    Infeasible,
    /// The solver could not tell.
    Unknown(String),
}

impl Machine<'_> {
    /// The witness of `state`'s path, with `extra` (a failure condition) added to its path
    /// condition; its trace is left empty.
    pub(crate) fn path_witness(
        &mut self,
        state: &State,
        extra: Option<TermId>,
    ) -> Result<PathWitness> {
        let inputs_read = state.inputs_read as usize;
        let mut vars: Vec<TermId> = self.input_vars[..inputs_read].to_vec();
        vars.extend(&self.arg_vars);
        if let Some(ctx) = &self.heap {
            vars.extend(ctx.model_vars(&self.store, &state.heap, &self.entry_args));
        }
        let mut constraints = state.pc.clone();
        constraints.extend(extra);
        // Summarized loops' iteration counts get values too, small ones if possible.
        let (model, long_runs) = counterexample_model(self, &constraints, &mut vars)?;
        let model = match model {
            ModelResult::Sat(model) => model,
            ModelResult::Unsat => return Ok(PathWitness::Infeasible),
            ModelResult::Unknown(reason) => return Ok(PathWitness::Unknown(reason)),
        };
        let number = |t: &TermId| model.get(*t).and_then(value_as_i32).unwrap_or(0);
        let inputs: Vec<i32> = vars[..inputs_read].iter().map(number).collect();
        let args: Vec<i64> = (self.arg_vars.iter())
            .map(|t| model.get(*t).and_then(value_as_i64).unwrap_or(0))
            .collect();
        let mut witness = Witness {
            inputs,
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
        Ok(PathWitness::Found { witness, long_runs })
    }

    /// With `--emit-tests`: the test of `state`'s path, which ended as `end` (its path
    /// condition with `extra` added).
    pub(crate) fn emit_test(
        &mut self,
        state: &State,
        extra: Option<TermId>,
        end: PathEnd,
    ) -> Result<()> {
        if !self.options.emit_tests.is_on() {
            return Ok(());
        }
        if let PathWitness::Found { witness, .. } = self.path_witness(state, extra)? {
            // The caller names the program and the front end's options, as in a report.
            self.options.emit_tests.emit(PathTest {
                program: String::new(),
                program_sha256: None,
                entry: self.entry.name.clone(),
                frontend: Vec::new(),
                inputs: witness.inputs,
                args: witness.args,
                heap: witness.heap,
                end,
            });
        }
        Ok(())
    }

    /// With `--emit-tests`: the test of the path on which `prop`'s check fails (`fail`).
    pub(crate) fn emit_failure(&mut self, state: &State, prop: PropId, fail: TermId) -> Result<()> {
        if !self.options.emit_tests.is_on() {
            return Ok(());
        }
        let site = self.module.property(prop);
        let kind = site.kind;
        let at = self
            .locator
            .step(site.func, site.span, Event::Fail { kind });
        let end = PathEnd::Failed {
            property: kind,
            line: at.line,
            column: at.column,
        };
        self.emit_test(state, Some(fail), end)
    }
}
