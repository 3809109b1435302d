//! The judge: a counterexample's inputs and arguments run through the concrete interpreter,
//! and the run's end described as a [`Replay`] for `Verdict::conclude`.
//!
//! The engine never decides whether its own witness is right: a witness the interpreter does
//! not reproduce becomes an internal error in the report. Nothing here builds witnesses.

use symex_interp::{ArgValue, Entry, Interpreter, RunConfig, RunEnd};
use symex_ir::cfg::Module;
use symex_report::Replay;

/// Instructions a replay may execute: far more than any path the engine explores in a check,
/// so that only a genuinely diverging replay (an engine bug) hits it.
pub const REPLAY_STEP_LIMIT: u64 = 50_000_000;

/// Runs `entry(args)` on `inputs` and describes how the run ended.
pub fn replay(module: &Module, entry: &str, args: &[i32], inputs: &[i32]) -> Replay {
    let interpreter = match Interpreter::new(module) {
        Ok(interpreter) => interpreter,
        Err(e) => return Replay::Other(format!("the interpreter refused the module: {e:?}")),
    };
    let entry = match Entry::new(
        module,
        entry,
        args.iter().map(|&a| ArgValue::Int(a)).collect(),
    ) {
        Ok(entry) => entry,
        Err(e) => return Replay::Other(format!("the interpreter refused the entry: {e}")),
    };
    let config = RunConfig::default().with_max_steps(REPLAY_STEP_LIMIT);
    match interpreter.run(&entry, inputs, &config) {
        Ok(outcome) => describe(outcome.end),
        Err(e) => Replay::Other(format!("the interpreter refused the entry: {e}")),
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
            Replay::Other(format!("the run hit a limit: {limit}"))
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
}
