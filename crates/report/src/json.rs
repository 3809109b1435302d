//! The JSON form of a report (`symex check --format json`, schema in `docs/report-json.md`) and
//! its reader.
//!
//! Keys come out in struct-field order and every map is ordered, so the same report always gives
//! the same bytes. Optional keys are absent, never `null`. The reader checks what the types
//! cannot: which keys each status needs, and that only a `violated` property carries a
//! confirmed counterexample (an unconfirmed one is read back as the internal error it was).
//! Unknown keys are ignored, so older readers accept newer statistics.

use std::fmt;

use serde::ser::SerializeStruct;
use serde::{Deserialize, Serialize, Serializer};

use crate::counterexample::{Counterexample, Unconfirmed, Witness};
use crate::kind;
use crate::property::PropertyReport;
use crate::report::Report;
use crate::stats::Stats;
use crate::trace::TraceStep;
use crate::value::Args;
use crate::verdict::{Status, Verdict};

/// Why a JSON document is not a report.
#[derive(Debug)]
pub enum ReadError {
    /// Not JSON, or a key or value of the wrong shape.
    Json(serde_json::Error),
    /// Property number `index` (0-based) breaks a rule of the schema.
    Property { index: usize, message: String },
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::Json(e) => write!(f, "not a symex report: {e}"),
            ReadError::Property { index, message } => write!(f, "property {index}: {message}"),
        }
    }
}

impl std::error::Error for ReadError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ReadError::Json(e) => Some(e),
            ReadError::Property { .. } => None,
        }
    }
}

impl Report {
    /// The report as pretty-printed JSON (two-space indent, no trailing newline).
    pub fn to_json(&self) -> Result<String, serde_json::Error> {
        serde_json::to_string_pretty(self)
    }

    /// Reads a report written by [`Report::to_json`]. Spans are not in the JSON, so every
    /// property's `span` is `None`.
    pub fn from_json(text: &str) -> Result<Report, ReadError> {
        let doc: ReportDoc = serde_json::from_str(text).map_err(ReadError::Json)?;
        let properties = doc
            .properties
            .into_iter()
            .enumerate()
            .map(|(index, p)| {
                p.into_report()
                    .map_err(|message| ReadError::Property { index, message })
            })
            .collect::<Result<Vec<_>, _>>()?;
        let mut report = Report::new(doc.program, doc.engine, doc.entry, properties, doc.stats);
        report.frontend = doc.frontend;
        Ok(report)
    }
}

/// The `counterexample` object, as written.
#[derive(Serialize)]
struct CexOut<'a> {
    inputs: &'a [i32],
    args: &'a Args,
    #[serde(skip_serializing_if = "Option::is_none")]
    heap: Option<&'a serde_json::Value>,
    trace: &'a [TraceStep],
    confirmed: bool,
}

impl Serialize for PropertyReport {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let verdict = &self.verdict;
        let bound = verdict.bound();
        let reason = verdict.reason();
        let witness = verdict.witness();
        let fields = 5
            + usize::from(bound.is_some())
            + usize::from(reason.is_some())
            + usize::from(witness.is_some());
        let mut s = serializer.serialize_struct("Property", fields)?;
        s.serialize_field("kind", self.kind.name())?;
        s.serialize_field("function", &self.function)?;
        s.serialize_field("line", &self.line)?;
        s.serialize_field("column", &self.column)?;
        s.serialize_field("status", verdict.status().name())?;
        if let Some(bound) = bound {
            s.serialize_field("bound", &bound)?;
        }
        if let Some(reason) = reason {
            s.serialize_field("reason", reason)?;
        }
        if let Some((w, confirmed)) = witness {
            let cex = CexOut {
                inputs: &w.inputs,
                args: &w.args,
                heap: w.heap.as_ref(),
                trace: &w.trace,
                confirmed,
            };
            s.serialize_field("counterexample", &cex)?;
        }
        s.end()
    }
}

#[derive(Deserialize)]
struct ReportDoc {
    program: String,
    engine: String,
    entry: String,
    #[serde(default)]
    frontend: Vec<String>,
    properties: Vec<PropertyDoc>,
    stats: Stats,
}

#[derive(Deserialize)]
struct PropertyDoc {
    kind: String,
    function: String,
    line: u32,
    column: u32,
    status: String,
    bound: Option<u32>,
    reason: Option<String>,
    counterexample: Option<CexIn>,
}

#[derive(Deserialize)]
struct CexIn {
    inputs: Vec<i32>,
    args: Args,
    #[serde(default)]
    heap: Option<serde_json::Value>,
    trace: Vec<TraceStep>,
    confirmed: bool,
}

impl CexIn {
    fn into_witness(self) -> (Witness, bool) {
        let witness = Witness {
            inputs: self.inputs,
            args: self.args,
            heap: self.heap,
            trace: self.trace,
        };
        (witness, self.confirmed)
    }
}

impl PropertyDoc {
    fn into_report(self) -> Result<PropertyReport, String> {
        let kind = kind::parse(&self.kind)?;
        let status = Status::from_name(&self.status).ok_or_else(|| {
            format!(
                "unknown status `{}` (expected violated, safe, safe-up-to or unknown)",
                self.status
            )
        })?;
        let cex = self.counterexample.map(CexIn::into_witness);
        let verdict = match (status, self.bound, self.reason, cex) {
            (Status::Violated, None, None, Some((w, true))) => {
                Verdict::Violated(Counterexample::loaded(w))
            }
            (Status::Violated, _, _, Some((_, false))) => {
                return Err("a violated property's counterexample must be confirmed".into())
            }
            (Status::Safe, None, None, None) => Verdict::Safe,
            (Status::SafeUpTo, Some(bound), Some(reason), None) => {
                Verdict::SafeUpTo { bound, reason }
            }
            (Status::Unknown, None, Some(reason), None) => Verdict::Unknown { reason },
            (Status::Unknown, None, Some(reason), Some((w, false))) => {
                Verdict::Unconfirmed(Unconfirmed::loaded(w, reason))
            }
            (Status::Unknown, _, _, Some((_, true))) => {
                return Err("only a violated property has a confirmed counterexample".into())
            }
            (status, ..) => {
                return Err(format!(
                    "wrong keys for status `{}`: {}",
                    status.name(),
                    expected_keys(status)
                ))
            }
        };
        Ok(PropertyReport {
            kind,
            function: self.function,
            line: self.line,
            column: self.column,
            span: None,
            verdict,
        })
    }
}

fn expected_keys(status: Status) -> &'static str {
    match status {
        Status::Violated => "needs `counterexample`, and has no `bound` or `reason`",
        Status::Safe => "has no `bound`, `reason` or `counterexample`",
        Status::SafeUpTo => "needs `bound` and `reason`, and has no `counterexample`",
        Status::Unknown => "needs `reason`, and has no `bound`",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sample;

    #[test]
    fn sample_report_matches_the_golden_json() {
        let json = sample::report().to_json().unwrap();
        assert_eq!(json, sample::JSON.trim_end());
    }

    #[test]
    fn the_documented_example_is_the_golden_json() {
        let doc = include_str!("../../../docs/report-json.md");
        assert!(doc.contains(sample::JSON.trim_end()));
        assert!(doc.contains(sample::SOURCE));
    }

    #[test]
    fn json_round_trips() {
        let report = sample::report();
        let json = report.to_json().unwrap();
        let back = Report::from_json(&json).unwrap();
        assert_eq!(back, sample::without_spans(report));
        assert_eq!(back.to_json().unwrap(), json);
    }

    #[test]
    fn the_same_report_gives_the_same_bytes() {
        let a = sample::report().to_json().unwrap();
        let b = sample::report().to_json().unwrap();
        assert_eq!(a, b);
    }

    #[test]
    fn an_unconfirmed_counterexample_is_never_violated_in_json() {
        let report = sample::report();
        let json: serde_json::Value = serde_json::from_str(&report.to_json().unwrap()).unwrap();
        let props = json["properties"].as_array().cloned().unwrap_or_default();
        let mut unconfirmed = 0;
        for p in &props {
            let confirmed = p["counterexample"]["confirmed"].as_bool();
            if p["status"] == "violated" {
                assert_eq!(confirmed, Some(true));
            }
            if confirmed == Some(false) {
                unconfirmed += 1;
                assert_eq!(p["status"], "unknown");
                assert!(p["reason"]
                    .as_str()
                    .unwrap_or_default()
                    .starts_with("internal error"));
            }
        }
        assert_eq!(unconfirmed, 1);
    }

    fn one_property(property: &str) -> String {
        format!(
            r#"{{"program":"p.uc","engine":"forward","entry":"main","properties":[{property}],
            "stats":{{"paths":0,"states":0,"queries":0,"solver_ms":0,"time_ms":0,"future":1}}}}"#
        )
    }

    fn read_property(property: &str) -> Result<Verdict, ReadError> {
        let report = Report::from_json(&one_property(property))?;
        Ok(report.properties()[0].verdict.clone())
    }

    #[test]
    fn the_reader_enforces_the_status_rules() {
        let head = r#""kind":"assert","function":"main","line":1,"column":1"#;
        let cex = |confirmed: bool| {
            format!(
                r#""counterexample":{{"inputs":[],"args":{{}},"trace":[],"confirmed":{confirmed}}}"#
            )
        };
        let ok = [
            format!(r#"{{{head},"status":"safe"}}"#),
            format!(r#"{{{head},"status":"safe-up-to","bound":3,"reason":"r"}}"#),
            format!(r#"{{{head},"status":"unknown","reason":"r"}}"#),
            format!(
                r#"{{{head},"status":"unknown","reason":"r",{}}}"#,
                cex(false)
            ),
            format!(r#"{{{head},"status":"violated",{}}}"#, cex(true)),
        ];
        for p in &ok {
            assert!(read_property(p).is_ok(), "{p}");
        }
        let bad = [
            format!(r#"{{{head},"status":"violated",{}}}"#, cex(false)),
            format!(r#"{{{head},"status":"violated"}}"#),
            format!(r#"{{{head},"status":"safe","bound":3}}"#),
            format!(r#"{{{head},"status":"safe-up-to","reason":"r"}}"#),
            format!(r#"{{{head},"status":"unknown"}}"#),
            format!(
                r#"{{{head},"status":"unknown","reason":"r",{}}}"#,
                cex(true)
            ),
            format!(r#"{{{head},"status":"proved"}}"#),
            r#"{"kind":"underflow","function":"main","line":1,"column":1,"status":"safe"}"#.into(),
        ];
        for p in &bad {
            match read_property(p) {
                Err(ReadError::Property { index: 0, message }) => assert!(!message.is_empty()),
                other => panic!("{p} was read as {other:?}"),
            }
        }
        let err = Report::from_json("{").unwrap_err();
        assert!(err.to_string().starts_with("not a symex report"));
    }

    #[test]
    fn a_loaded_unconfirmed_counterexample_stays_an_internal_error() {
        let p = r#"{"kind":"assert","function":"main","line":1,"column":1,"status":"unknown",
            "reason":"internal error: x","counterexample":{"inputs":[1],"args":{},"trace":[],
            "confirmed":false}}"#;
        let v = read_property(p).unwrap();
        assert!(matches!(v, Verdict::Unconfirmed(_)));
        assert_eq!(v.status(), Status::Unknown);
    }
}
