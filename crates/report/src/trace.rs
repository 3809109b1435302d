//! The path of a counterexample: one [`TraceStep`] per event worth showing, in execution order.
//!
//! A step is located by function name, line and column (never by IR ids, so a loaded report needs
//! no module) and carries one [`Event`]. Engines build steps with [`crate::Locator::step`]; the
//! text renderer prints them. Nothing here executes or checks a path.

use std::fmt;

use serde::{Deserialize, Serialize};
use symex_ir::cfg::PropertyKind;

use crate::kind;
use crate::value::ArgValue;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TraceStep {
    pub function: String,
    pub line: u32,
    pub column: u32,
    #[serde(flatten)]
    pub event: Event,
}

/// What happened at a step. In JSON the variant is the `"event"` key (`branch`, `call`,
/// `return`, `assign`, `store`, `alloc`, `free`, `input`, `fail`) and its fields sit beside it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "kebab-case")]
#[non_exhaustive]
pub enum Event {
    /// A branch was decided: its condition was `condition`.
    Branch { condition: bool },
    /// A call of `callee` with these argument values.
    Call { callee: String, args: Vec<ArgValue> },
    /// The step's function returned this value.
    Return { value: ArgValue },
    /// A source variable was assigned this value.
    Assign { var: String, value: ArgValue },
    /// A part of a variable or object was written: `target` is a path from a variable or a
    /// heap object (`a[2]`, `r.f`, `o3.next`), or an address-taken variable written through a
    /// pointer (`x`).
    Store { target: String, value: ArgValue },
    /// A heap object was made (`alloc`; C's `malloc`, `calloc`, `alloca`), holding `value`.
    Alloc { object: String, value: ArgValue },
    /// A heap object was released (C's `free`): a later access through a pointer to it fails.
    Free { object: String },
    /// `input` read the `index`-th input number (0-based), `value`.
    Input { index: u32, value: i32 },
    /// The property's check failed here: the end of the path.
    Fail {
        #[serde(with = "kind::serde_name")]
        kind: PropertyKind,
    },
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::Branch { condition } => write!(f, "condition is {condition}"),
            Event::Call { callee, args } => {
                write!(f, "call {callee}(")?;
                for (i, arg) in args.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{arg}")?;
                }
                f.write_str(")")
            }
            Event::Return { value } => write!(f, "return {value}"),
            Event::Assign { var, value } => write!(f, "{var} = {value}"),
            Event::Store { target, value } => write!(f, "{target} = {value}"),
            Event::Alloc { object, value } => write!(f, "new {object} = {value}"),
            Event::Free { object } => write!(f, "free {object}"),
            Event::Input { index, value } => write!(f, "input #{index} is {value}"),
            Event::Fail { kind } => write!(f, "{} here", kind::failure(*kind)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn step(event: Event) -> TraceStep {
        TraceStep {
            function: "main".into(),
            line: 3,
            column: 7,
            event,
        }
    }

    #[test]
    fn steps_are_flat_json_objects() {
        let s = step(Event::Branch { condition: false });
        let json = serde_json::to_string(&s).unwrap();
        assert_eq!(
            json,
            r#"{"function":"main","line":3,"column":7,"event":"branch","condition":false}"#
        );
        let s = step(Event::Fail {
            kind: PropertyKind::DivByZero,
        });
        assert_eq!(
            serde_json::to_string(&s).unwrap(),
            r#"{"function":"main","line":3,"column":7,"event":"fail","kind":"div-by-zero"}"#
        );
    }

    #[test]
    fn every_event_round_trips() {
        let events = [
            Event::Branch { condition: true },
            Event::Call {
                callee: "f".into(),
                args: vec![ArgValue::Int(1), ArgValue::Int(-2)],
            },
            Event::Return {
                value: ArgValue::Int(0),
            },
            Event::Assign {
                var: "x".into(),
                value: ArgValue::Int(i32::MIN.into()),
            },
            Event::Input {
                index: 2,
                value: -5,
            },
            Event::Store {
                target: "o2.next".into(),
                value: ArgValue::Ref {
                    object: "o3".into(),
                },
            },
            Event::Alloc {
                object: "o3".into(),
                value: ArgValue::Record {
                    record: [("val", ArgValue::Int(1)), ("next", ArgValue::Null)]
                        .into_iter()
                        .collect(),
                },
            },
            Event::Free {
                object: "o3".into(),
            },
            Event::Assign {
                var: "a".into(),
                value: ArgValue::Array {
                    array: vec![ArgValue::Int(1), ArgValue::Uninit(crate::Uninit)],
                },
            },
            Event::Fail {
                kind: PropertyKind::Uninit,
            },
        ];
        for event in events {
            let s = step(event);
            let json = serde_json::to_string(&s).unwrap();
            let back: TraceStep = serde_json::from_str(&json).unwrap();
            assert_eq!(back, s, "{json}");
        }
    }

    #[test]
    fn unknown_events_and_kinds_are_rejected() {
        let bad = r#"{"function":"main","line":1,"column":1,"event":"jump"}"#;
        assert!(serde_json::from_str::<TraceStep>(bad).is_err());
        let bad = r#"{"function":"main","line":1,"column":1,"event":"fail","kind":"oops"}"#;
        assert!(serde_json::from_str::<TraceStep>(bad).is_err());
    }

    #[test]
    fn events_read_like_a_debugger() {
        let call = Event::Call {
            callee: "f".into(),
            args: vec![ArgValue::Int(1), ArgValue::Int(2)],
        };
        assert_eq!(call.to_string(), "call f(1, 2)");
        assert_eq!(
            Event::Input { index: 0, value: 3 }.to_string(),
            "input #0 is 3"
        );
        assert_eq!(
            Event::Fail {
                kind: PropertyKind::DivByZero
            }
            .to_string(),
            "division by zero here"
        );
    }
}
