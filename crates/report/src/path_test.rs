//! One replayable test per explored path (`symex check --emit-tests DIR`), KLEE's `.ktest`
//! files as JSON: the inputs, the entry's arguments and input heap of one path, and how the
//! path ended (returned, a failing check, an assumption that cannot hold, or a bound that cut
//! it). `symex replay DIR PROGRAM` runs them in the interpreter and measures their coverage.
//! Plain data (docs/tests.md): nothing here runs a program.

use serde::{Deserialize, Serialize};
use symex_ir::cfg::PropertyKind;

use crate::kind;
use crate::value::Args;

/// One test file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PathTest {
    /// The program file, as given on the command line.
    pub program: String,
    /// The SHA-256 of the program's text when the test was made (hexadecimal): `symex replay`
    /// refuses a program that changed since. Absent in tests of earlier versions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub program_sha256: Option<String>,
    /// The entry function.
    pub entry: String,
    /// The front end's options that change the program's meaning (as in a report).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub frontend: Vec<String>,
    /// Every `input` the path reads, in order.
    pub inputs: Vec<i32>,
    /// The entry's arguments (pointers: refs into `heap`).
    pub args: Args,
    /// The input heap document (docs/heap-json.md), for entries with pointer parameters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub heap: Option<serde_json::Value>,
    /// How the path ended in the engine.
    pub end: PathEnd,
}

/// How an explored path ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
pub enum PathEnd {
    /// The entry returned.
    Returned,
    /// The check of a property failed here.
    Failed {
        #[serde(with = "kind::serde_name")]
        property: PropertyKind,
        line: u32,
        column: u32,
    },
    /// An `assume` that cannot hold on this path stopped it.
    AssumeFailed,
    /// A bound or limit cut the path here; a concrete run goes on past it.
    Cut { reason: String },
}

impl PathTest {
    pub fn to_json(&self) -> Result<String, serde_json::Error> {
        serde_json::to_string_pretty(self)
    }

    pub fn from_json(text: &str) -> Result<PathTest, serde_json::Error> {
        serde_json::from_str(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ArgValue;

    #[test]
    fn every_end_round_trips_and_unknown_keys_are_rejected() {
        for end in [
            PathEnd::Returned,
            PathEnd::Failed {
                property: PropertyKind::DivByZero,
                line: 4,
                column: 9,
            },
            PathEnd::AssumeFailed,
            PathEnd::Cut {
                reason: "loop unwinding bound hit".into(),
            },
        ] {
            let test = PathTest {
                program: "p.uc".into(),
                entry: "f".into(),
                frontend: vec![],
                program_sha256: None,
                inputs: vec![3, -1],
                args: [("n", ArgValue::Int(2))].into_iter().collect(),
                heap: None,
                end,
            };
            let json = test.to_json().unwrap();
            assert_eq!(PathTest::from_json(&json).unwrap(), test, "{json}");
        }
        let json = r#"{"program":"p","entry":"main","inputs":[],"args":{},"end":{"kind":"returned"},"x":1}"#;
        assert!(PathTest::from_json(json).is_err());
        let json = r#"{"program":"p","entry":"main","inputs":[],"args":{},"end":{"kind":"failed","property":"oops","line":1,"column":1}}"#;
        assert!(PathTest::from_json(json).is_err());
    }
}
