//! SV-COMP violation witnesses (YAML, format 2.0): a `FALSE` answer written as one
//! `violation_sequence` entry whose waypoints are the confirmed counterexample's inputs, one
//! `function_return` waypoint per `__VERIFIER_nondet_*` call it went through (constraint
//! `\result == v`, at the call's closing parenthesis), then a `target` waypoint at the
//! violation. The inputs alone determine the run, so a validator that follows them reaches
//! the violation; `symex svcomp --witness` tests read them back and replay them in the
//! interpreter. Inputs that are no call (the arbitrary values `--nondet-locals` and
//! `--nondet-heap` give locals and allocated memory never written) have no waypoint: C leaves
//! them indeterminate, and a validator chooses them.
//!
//! The entry is deterministic: its UUID is derived from the program's hash and the waypoints,
//! and its creation time is `SOURCE_DATE_EPOCH` when that is set (reproducible-build
//! convention), else now. Nothing here decides a verdict; the report it reads is replayed.

use std::time::{Duration, SystemTime};

use serde::Serialize;
use sha2::{Digest, Sha256};
use symex_ir::cfg::PropertyKind;
use symex_report::{Report, Verdict};
use symex_syntax::span::{LineCol, LineIndex, Span};

/// The program as a counterexample's run read it, and where that run read each input.
pub type Rerun = (symex_c::Translated, Vec<Span>);

/// What the witness says about its task.
pub struct TaskFacts<'a> {
    /// The program's file name as the task definition gives it.
    pub file_name: &'a str,
    /// The program's text (locations are looked up in it).
    pub text: &'a str,
    /// The property file's formula, e.g. `CHECK( init(main()), LTL(G ! overflow) )`.
    pub specification: String,
    pub data_model: symex_c::DataModel,
    /// The program lowered as the report's run read it, and where that run read each input,
    /// for the report's counterexample's inputs (`rerun.rs`); `None` if it cannot be made
    /// again.
    pub rerun: &'a dyn Fn(&[i32]) -> Option<Rerun>,
}

#[derive(Serialize)]
struct Entry<'a> {
    entry_type: &'static str,
    metadata: Metadata<'a>,
    content: Vec<Segment<'a>>,
}

#[derive(Serialize)]
struct Metadata<'a> {
    format_version: &'static str,
    uuid: String,
    creation_time: String,
    producer: Producer,
    task: Task<'a>,
}

#[derive(Serialize)]
struct Producer {
    name: &'static str,
    version: &'static str,
}

#[derive(Serialize)]
struct Task<'a> {
    input_files: Vec<&'a str>,
    input_file_hashes: std::collections::BTreeMap<&'a str, String>,
    specification: &'a str,
    data_model: &'static str,
    language: &'static str,
}

#[derive(Serialize)]
struct Segment<'a> {
    segment: Vec<WaypointItem<'a>>,
}

#[derive(Serialize)]
struct WaypointItem<'a> {
    waypoint: Waypoint<'a>,
}

#[derive(Serialize)]
struct Waypoint<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    action: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    constraint: Option<Constraint>,
    location: Location<'a>,
}

#[derive(Serialize)]
struct Constraint {
    value: String,
    format: &'static str,
}

#[derive(Serialize)]
struct Location<'a> {
    file_name: &'a str,
    line: u32,
    column: u32,
    function: String,
}

/// The witness of the first confirmed violation of kind `target` in `report`, as YAML text;
/// `None` when the report has none or its run cannot be made again.
pub fn violation_witness(
    report: &Report,
    target: PropertyKind,
    task: &TaskFacts,
) -> Option<String> {
    let (property, cex) = report.properties().iter().find_map(|p| match &p.verdict {
        Verdict::Violated(cex) if p.kind == target => Some((p, cex)),
        _ => None,
    })?;
    let inputs = &cex.witness().inputs;
    // Where each input was read: the counterexample's trace keeps only its first events, so
    // the run is made again (the program as the report's front-end options lowered it).
    let (program, sites) = (task.rerun)(inputs)?;
    let lines = LineIndex::new(task.text);
    let location = |at: LineCol, function: &str| {
        let offset = lines.offset(at);
        let defined_in = offset.and_then(|o| program.function_at(o));
        Location {
            file_name: task.file_name,
            line: at.line,
            column: at.column,
            function: defined_in.unwrap_or(function).to_string(),
        }
    };
    let mut content = Vec::new();
    let mut read = 0;
    while read < sites.len() {
        let at = lines.line_col(sites[read].start);
        // An input that is no call (`--nondet-locals`) has no waypoint: a validator chooses
        // it; a call that cannot be found in the text (inside a macro) only loses guidance.
        let call = closing_parenthesis(&lines, task.text, at).and_then(|(callee, close)| {
            Some((symex_c::input_type(&callee, task.data_model)?, close))
        });
        let Some((ty, close)) = call else {
            read += 1;
            continue;
        };
        // A 64-bit input is two, the high half first; one read past the inputs is -1.
        let count = if ty.bits == 64 { 2 } else { 1 };
        let values: Vec<i32> = (read..read + count)
            .map(|k| inputs.get(k).copied().unwrap_or(-1))
            .collect();
        read += count;
        content.push(Segment {
            segment: vec![WaypointItem {
                waypoint: Waypoint {
                    kind: "function_return",
                    action: "follow",
                    constraint: Some(Constraint {
                        value: format!("\\result == {}", ty.value(&values)),
                        format: "acsl_expression",
                    }),
                    location: location(close, "main"),
                },
            }],
        });
    }
    content.push(Segment {
        segment: vec![WaypointItem {
            waypoint: Waypoint {
                kind: "target",
                action: "follow",
                constraint: None,
                location: location(
                    LineCol {
                        line: property.line,
                        column: property.column,
                    },
                    &property.function,
                ),
            },
        }],
    });
    let file_hash = crate::commands::sha256_hex(task.text);
    let waypoints = serde_yaml_ng::to_string(&content).ok()?;
    let entry_time = creation_time();
    let entry = Entry {
        entry_type: "violation_sequence",
        metadata: Metadata {
            format_version: "2.0",
            uuid: uuid_from(&[
                file_hash.as_bytes(),
                task.specification.as_bytes(),
                waypoints.as_bytes(),
            ]),
            creation_time: entry_time.clone(),
            producer: Producer {
                name: "symex",
                version: env!("CARGO_PKG_VERSION"),
            },
            task: Task {
                input_files: vec![task.file_name],
                input_file_hashes: [(task.file_name, file_hash)].into_iter().collect(),
                specification: &task.specification,
                data_model: match task.data_model {
                    symex_c::DataModel::Ilp32 => "ILP32",
                    symex_c::DataModel::Lp64 => "LP64",
                },
                language: "C",
            },
        },
        content,
    };
    let text = serde_yaml_ng::to_string(&[entry]).ok()?;
    // The format's `creation_time` is a string; unquoted, a YAML 1.1 reader (PyYAML, and the
    // validators built on it) reads the timestamp as a date-time and rejects it.
    let time = &entry_time;
    Some(text.replacen(
        &format!("creation_time: {time}"),
        &format!("creation_time: '{time}'"),
        1,
    ))
}

/// The callee and the line and column (from 1) of the `)` that closes the call starting at
/// `at` in the program whose text `lines` indexes (`None` where no call starts there).
pub(super) fn closing_parenthesis(
    lines: &LineIndex,
    text: &str,
    at: LineCol,
) -> Option<(String, LineCol)> {
    let start = lines.offset(at)?;
    let rest = &text[start..];
    let name_len = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    let callee = &rest[..name_len];
    if callee.is_empty() {
        return None;
    }
    let open = name_len + rest[name_len..].find(|c: char| !c.is_whitespace())?;
    if !rest[open..].starts_with('(') {
        return None;
    }
    let mut depth = 0usize;
    for (i, c) in rest[open..].char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    let close = lines.line_col((start + open + i) as u32);
                    return Some((callee.to_string(), close));
                }
            }
            _ => {}
        }
    }
    None
}

/// A UUID (RFC 9562 version 8: custom) made of the SHA-256 of `parts`.
fn uuid_from(parts: &[&[u8]]) -> String {
    let mut hasher = Sha256::new();
    for part in parts {
        hasher.update(part);
    }
    let mut b: [u8; 16] = hasher.finalize()[..16].try_into().expect("16 of 32 bytes");
    b[6] = (b[6] & 0x0f) | 0x80;
    b[8] = (b[8] & 0x3f) | 0x80;
    let h = crate::commands::hex(&b);
    format!(
        "{}-{}-{}-{}-{}",
        &h[..8],
        &h[8..12],
        &h[12..16],
        &h[16..20],
        &h[20..]
    )
}

/// `SOURCE_DATE_EPOCH` (seconds since 1970) when set, else now, in RFC 3339.
fn creation_time() -> String {
    let time = std::env::var("SOURCE_DATE_EPOCH")
        .ok()
        .and_then(|s| s.trim().parse::<u64>().ok())
        .map_or_else(SystemTime::now, |s| {
            SystemTime::UNIX_EPOCH + Duration::from_secs(s)
        });
    humantime::format_rfc3339_seconds(time).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_closing_parenthesis_of_a_nondet_call_is_found() {
        let text = "int main() {\n  int x = __VERIFIER_nondet_uchar ( );\n  return x;\n}\n";
        let lines = LineIndex::new(text);
        let at = |line, column| LineCol { line, column };
        assert_eq!(
            closing_parenthesis(&lines, text, at(2, 11)),
            Some(("__VERIFIER_nondet_uchar".to_string(), at(2, 37)))
        );
        // No call, and no such place.
        assert_eq!(closing_parenthesis(&lines, text, at(3, 3)), None);
        assert_eq!(closing_parenthesis(&lines, text, at(2, 0)), None);
    }

    #[test]
    fn uuids_are_well_formed_and_deterministic() {
        let a = uuid_from(&[b"x", b"y"]);
        assert_eq!(a, uuid_from(&[b"x", b"y"]));
        assert_ne!(a, uuid_from(&[b"x", b"z"]));
        assert_eq!(a.len(), 36);
        assert_eq!(&a[14..15], "8");
    }
}
