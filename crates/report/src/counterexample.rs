//! Counterexamples and the rule that only a replayed one is reportable.
//!
//! An engine's model becomes a [`Witness`] (inputs, entry arguments, input heap, path). A witness
//! is only a claim: [`Witness::confirm`] takes the concrete interpreter's [`Replay`] of it and gives
//! either a [`Counterexample`] (the only thing a `violated` verdict can hold, and it cannot be
//! built any other way outside this crate) or an [`Unconfirmed`] internal error. Nothing here runs
//! the interpreter: the engine replays and describes the outcome.

use serde::{Deserialize, Serialize};
use symex_ir::cfg::PropId;

use crate::trace::TraceStep;
use crate::value::Args;

/// What an engine claims reaches a property: the values to run with and the path they take.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Witness {
    /// The model's value for every `input` read, in order.
    pub inputs: Vec<i32>,
    /// The entry function's arguments (empty for `main`).
    pub args: Args,
    /// The input heap document (docs/heap-json.md) of an entry with pointer parameters; absent
    /// when every argument is a number.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub heap: Option<serde_json::Value>,
    /// The path, ending with the failing check.
    pub trace: Vec<TraceStep>,
}

/// How the concrete interpreter ended when it ran a witness's inputs and arguments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Replay {
    /// It stopped on this property's check.
    Failed(PropId),
    /// It ended some other way, described for the user ("returned 0", "assume failed at 4:3").
    Other(String),
    /// It stopped at one of the interpreter's own limits (call depth, steps, memory, time)
    /// before the run could end: it neither reproduces the counterexample nor refutes it.
    Limited(String),
}

/// A witness the interpreter reproduced: the payload of a `violated` verdict.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Counterexample {
    witness: Witness,
}

/// A witness the interpreter did not reproduce: a bug in the engine, reported loudly and never as
/// `violated`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unconfirmed {
    witness: Box<Witness>,
    reason: String,
}

impl Witness {
    /// Judges the witness for property `prop` by the interpreter's replay of it.
    pub fn confirm(self, prop: PropId, replay: &Replay) -> Result<Counterexample, Unconfirmed> {
        let observed = match replay {
            Replay::Failed(p) if *p == prop => return Ok(Counterexample { witness: self }),
            Replay::Failed(other) => format!("it stopped on another property (#{})", other.0),
            Replay::Other(how) | Replay::Limited(how) => how.clone(),
        };
        Err(Unconfirmed {
            witness: Box::new(self),
            reason: format!(
                "internal error: the interpreter does not reproduce the counterexample: {observed}"
            ),
        })
    }
}

impl Counterexample {
    pub fn witness(&self) -> &Witness {
        &self.witness
    }

    pub fn into_witness(self) -> Witness {
        self.witness
    }

    /// For the JSON reader: a document that says `"confirmed": true` was confirmed by its writer.
    pub(crate) fn loaded(witness: Witness) -> Counterexample {
        Counterexample { witness }
    }
}

impl Unconfirmed {
    pub fn witness(&self) -> &Witness {
        &self.witness
    }

    /// Starts with `internal error:` and says what the interpreter did instead.
    pub fn reason(&self) -> &str {
        &self.reason
    }

    /// For the JSON reader.
    pub(crate) fn loaded(witness: Witness, reason: String) -> Unconfirmed {
        Unconfirmed {
            witness: Box::new(witness),
            reason,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn witness() -> Witness {
        Witness {
            inputs: vec![2],
            ..Witness::default()
        }
    }

    #[test]
    fn replay_on_the_same_property_confirms() {
        let cex = witness()
            .confirm(PropId(3), &Replay::Failed(PropId(3)))
            .unwrap();
        assert_eq!(cex.witness().inputs, vec![2]);
        assert_eq!(cex.into_witness(), witness());
    }

    #[test]
    fn replay_elsewhere_is_an_internal_error() {
        let u = witness()
            .confirm(PropId(3), &Replay::Failed(PropId(1)))
            .unwrap_err();
        assert!(u.reason().starts_with("internal error:"));
        assert!(u.reason().contains("another property (#1)"));
        let u = witness()
            .confirm(PropId(3), &Replay::Other("returned 0".into()))
            .unwrap_err();
        assert!(u.reason().ends_with("returned 0"));
        assert_eq!(u.witness(), &witness());
    }

    #[test]
    fn heap_is_absent_from_json_unless_set() {
        let json = serde_json::to_string(&witness()).unwrap();
        assert_eq!(json, r#"{"inputs":[2],"args":{},"trace":[]}"#);
    }
}
