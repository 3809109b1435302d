//! The judge: a counterexample's inputs and arguments run through the concrete interpreter,
//! and the run's end described as a [`Replay`] for `Verdict::conclude`; on request, the run's
//! events as the counterexample's trace.
//!
//! The engine never decides whether its own witness is right: a witness the interpreter does
//! not reproduce becomes an internal error in the report. Nothing here builds witnesses.

use std::time::Instant;

use symex_interp::{Entry, Interpreter, RunConfig, RunEnd};
use symex_ir::cfg::Module;
use symex_report::{Event, Locator, Replay, TraceStep, Witness};

use crate::common::steps::StepNamer;

/// Instructions a replay without a deadline may execute: far more than any path the engine
/// explores in a check, so that only a genuinely diverging replay (an engine bug) hits it. A
/// replay with a deadline (the check's `--timeout`) runs until it: a summarized loop's
/// counterexample may need hundreds of millions of iterations (seconds in the interpreter).
pub const REPLAY_STEP_LIMIT: u64 = 50_000_000;

/// Runs `entry(args)` on `inputs` and describes how the run ended.
pub fn replay(module: &Module, entry: &str, args: &[i64], inputs: &[i32]) -> Replay {
    match Entry::with_numbers(module, entry, args) {
        Ok(entry) => run(module, &entry, inputs, None, None).replay,
        Err(e) => Replay::Other(format!("the interpreter refused the entry: {e}")),
    }
}

/// Everything one replay tells.
pub struct Replayed {
    pub replay: Replay,
    /// How many of the witness's inputs the run read (`None` when the run could not start).
    pub inputs_read: Option<usize>,
    /// The run's events, ending with the failing check, when a locator was given (else empty).
    pub trace: Vec<TraceStep>,
}

impl Replayed {
    fn refused(why: String) -> Replayed {
        Replayed {
            replay: Replay::Other(why),
            inputs_read: None,
            trace: Vec::new(),
        }
    }
}

/// Runs a witness: with its input heap document (`docs/heap-json.md`) when it has one, which then
/// holds every argument; otherwise with its numeric arguments.
pub fn replay_witness(module: &Module, entry: &str, witness: &Witness) -> Replay {
    replay_full(module, entry, witness, None, None).replay
}

/// [`replay_witness`], also saying how many of the witness's inputs the run read and, with a
/// `locator`, recording the run's trace; with a `deadline`, the run may execute any number of
/// instructions until then (else [`REPLAY_STEP_LIMIT`]).
pub fn replay_full(
    module: &Module,
    entry: &str,
    witness: &Witness,
    locator: Option<&Locator<'_>>,
    deadline: Option<Instant>,
) -> Replayed {
    let Some(heap) = &witness.heap else {
        let mut numbers = Vec::with_capacity(witness.args.len());
        for (name, value) in witness.args.iter() {
            match value {
                symex_report::ArgValue::Int(n) => numbers.push(*n),
                other => {
                    let why = format!(
                        "argument `{name}` is the pointer {other} but the witness has no input heap"
                    );
                    return Replayed::refused(why);
                }
            }
        }
        return match Entry::with_numbers(module, entry, &numbers) {
            Ok(entry) => run(module, &entry, &witness.inputs, locator, deadline),
            Err(e) => Replayed::refused(format!("the interpreter refused the entry: {e}")),
        };
    };
    match Entry::with_heap_value(module, entry, heap) {
        Ok(entry) => run(module, &entry, &witness.inputs, locator, deadline),
        Err(e) => Replayed::refused(format!("the interpreter refused the input heap: {e}")),
    }
}

fn run(
    module: &Module,
    entry: &Entry,
    inputs: &[i32],
    locator: Option<&Locator<'_>>,
    deadline: Option<Instant>,
) -> Replayed {
    let interpreter = match Interpreter::new(module) {
        Ok(interpreter) => interpreter,
        Err(e) => return Replayed::refused(format!("the interpreter refused the module: {e:?}")),
    };
    let mut config = match deadline {
        Some(deadline) => RunConfig::default().with_deadline(deadline),
        None => RunConfig::default().with_max_steps(REPLAY_STEP_LIMIT),
    };
    config.record_events = locator.is_some();
    match interpreter.run(entry, inputs, &config) {
        Ok(outcome) => {
            let mut trace = Vec::new();
            if let Some(locator) = locator {
                let events = outcome.events.as_deref().unwrap_or_default();
                let mut namer = StepNamer::new(locator, &entry.heap);
                trace = events.iter().filter_map(|e| namer.step(e)).collect();
                if let RunEnd::RuntimeError { prop, kind, .. } = &outcome.end {
                    let site = module.property(*prop);
                    trace.push(locator.step(site.func, site.span, Event::Fail { kind: *kind }));
                }
            }
            Replayed {
                replay: describe(outcome.end),
                inputs_read: Some(outcome.inputs_read),
                trace,
            }
        }
        Err(e) => Replayed::refused(format!("the interpreter refused the entry: {e}")),
    }
}

fn describe(end: RunEnd) -> Replay {
    match end {
        RunEnd::RuntimeError { prop, .. } => Replay::Failed(prop),
        RunEnd::Returned(value) => Replay::Other(format!("the run returned {value:?}")),
        RunEnd::AssumeFailed { span } => {
            Replay::Other(format!("an assumption failed (at byte {})", span.start))
        }
        RunEnd::TypeError { message, .. } => Replay::Other(format!("type error: {message}")),
        RunEnd::LimitExceeded { limit, .. } => {
            Replay::Limited(format!("the run hit a limit: {limit}"))
        }
        RunEnd::IrInvariant { message, .. } => {
            Replay::Other(format!("the IR broke an invariant: {message}"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use symex_ir::cfg::PropId;

    fn module(source: &str) -> Module {
        let front = symex_syntax::analyze(source).expect("valid program");
        symex_ir::lower(&front.program)
    }

    #[test]
    fn a_failing_run_names_its_property() {
        let m = module("main() { var a; a = input; return 10 / a; }");
        let prop = m
            .properties
            .iter()
            .position(|p| p.kind == symex_ir::cfg::PropertyKind::DivByZero)
            .expect("a division check");
        assert_eq!(
            replay(&m, "main", &[], &[0]),
            Replay::Failed(PropId(prop as u32))
        );
        assert!(matches!(replay(&m, "main", &[], &[2]), Replay::Other(_)));
    }

    #[test]
    fn entry_arguments_are_passed() {
        let m = module("f(x) { assert(x != 3); return 0; } main() { return 0; }");
        assert!(matches!(replay(&m, "f", &[3], &[]), Replay::Failed(_)));
        assert!(matches!(replay(&m, "f", &[4], &[]), Replay::Other(_)));
        assert!(matches!(replay(&m, "nope", &[], &[]), Replay::Other(_)));
    }

    #[test]
    fn a_witness_with_an_input_heap_is_replayed_on_that_heap() {
        let m = module("f(p) { return p->val; } main() { return 0; }");
        let witness = |heap: serde_json::Value| Witness {
            inputs: Vec::new(),
            args: symex_report::Args::new(),
            heap: Some(heap),
            trace: Vec::new(),
        };
        let null = witness(serde_json::json!({"args": {"p": null}}));
        assert!(matches!(replay_witness(&m, "f", &null), Replay::Failed(_)));
        let object = witness(serde_json::json!({
            "args": {"p": {"ref": "o1"}},
            "objects": {"o1": {"record": {"val": 4}}}
        }));
        assert!(matches!(replay_witness(&m, "f", &object), Replay::Other(_)));
    }
}
