//! `symex svcomp TASK.yml --validate WITNESS.yml`: execution-based validation of a violation
//! witness (YAML, format 2.0), symex's own or another tool's. The program is lowered as the
//! property's checks lower it and run in the interpreter; each `function_return` waypoint
//! (`\result == v`, at the closing parenthesis of a call of an input function) gives the value
//! of the call it names, in the order the run reaches them (a value its call's type cannot
//! return is no run: not confirmed). The witness is confirmed where the run passes every such
//! waypoint and fails one of the property's checks at the line of the `target` waypoint, which
//! it must have.
//!
//! A call no waypoint names, and an input that is no call (what `--nondet-locals` and
//! `--nondet-heap` read), gets 0: the validator's choice. `assumption` and `branching`
//! waypoints are not followed (the inputs alone determine the run). Where the property's runs
//! let signed arithmetic wrap around, the run has the `overflow` checks too: a violation
//! reached only through undefined behaviour is not confirmed, as the portfolio does not
//! answer `FALSE` for one (`undefined.rs`). Nothing here searches: a witness that does not
//! replay is "not confirmed", never a verdict about the program.

use std::time::{Duration, Instant};

use symex_interp::RunEnd;
use symex_ir::cfg::PropertyKind;
use symex_syntax::span::{LineCol, LineIndex, Span};

use super::witness::closing_parenthesis;
use super::{rerun, Supported};
use crate::exit::Exit;
use crate::source::SourceFile;

/// One `function_return` waypoint: the value its call returned, at the call's closing
/// parenthesis (its column where the witness gives one).
struct Returned {
    value: i128,
    line: u64,
    column: Option<u64>,
}

impl Returned {
    fn is_at(&self, close: LineCol) -> bool {
        self.line == u64::from(close.line)
            && self.column.is_none_or(|c| c == u64::from(close.column))
    }
}

/// What the witness states.
pub(super) struct Witness {
    returns: Vec<Returned>,
    /// The line of its `target` waypoint.
    target: u64,
    /// The property's formula, from `metadata.task.specification`.
    specification: Option<String>,
}

/// Reads every `violation_sequence` entry of the witness's text (a task's witness file holds
/// one per property found violated), in order.
pub(super) fn parse(text: &str) -> Result<Vec<Witness>, String> {
    let entries: serde_yaml_ng::Value =
        serde_yaml_ng::from_str(text).map_err(|e| format!("the witness is no YAML: {e}"))?;
    let witnesses = (entries.as_sequence().into_iter().flatten())
        .filter(|e| e["entry_type"].as_str() == Some("violation_sequence"))
        .map(parse_entry)
        .collect::<Result<Vec<Witness>, String>>()?;
    if witnesses.is_empty() {
        return Err(
            "the witness has no `violation_sequence` entry (a violation witness, format 2.0)"
                .into(),
        );
    }
    Ok(witnesses)
}

/// One `violation_sequence` entry.
fn parse_entry(entry: &serde_yaml_ng::Value) -> Result<Witness, String> {
    let specification = entry["metadata"]["task"]["specification"]
        .as_str()
        .map(|s| s.trim().to_string());
    let mut returns = Vec::new();
    let mut target = None;
    let waypoints = (entry["content"].as_sequence().into_iter().flatten())
        .flat_map(|segment| segment["segment"].as_sequence().into_iter().flatten())
        .map(|item| &item["waypoint"]);
    for waypoint in waypoints {
        let line = waypoint["location"]["line"].as_u64();
        match waypoint["type"].as_str() {
            Some("function_return") => {
                let constraint = waypoint["constraint"]["value"].as_str().unwrap_or("");
                let value = returned_value(constraint).ok_or_else(|| {
                    format!("a constraint that is not `\\result == N`: {constraint}")
                })?;
                let line = line.ok_or("a `function_return` waypoint without a line")?;
                let column = waypoint["location"]["column"].as_u64();
                returns.push(Returned {
                    value,
                    line,
                    column,
                });
            }
            Some("target") => {
                target = Some(line.ok_or("a `target` waypoint without a line number")?);
            }
            _ => {}
        }
    }
    let target = target.ok_or("the witness has no `target` waypoint")?;
    Ok(Witness {
        returns,
        target,
        specification,
    })
}

/// `N` of `\result == N` (C's integer suffixes allowed).
fn returned_value(constraint: &str) -> Option<i128> {
    let number = constraint
        .trim()
        .strip_prefix("\\result")?
        .trim_start()
        .strip_prefix("==")?
        .trim();
    let number = number
        .strip_prefix('(')
        .and_then(|n| n.strip_suffix(')'))
        .unwrap_or(number);
    number
        .trim()
        .trim_end_matches(['u', 'U', 'l', 'L'])
        .parse()
        .ok()
}

/// The entry of `witnesses` to validate and its property: the first entry whose
/// specification is the formula of one of `candidates` (the task's properties, or the one of
/// `--property`), else the only entry for the only candidate.
pub(super) fn property_of<'a, 'w>(
    witnesses: &'w [Witness],
    candidates: &[(&'a Supported, String)],
) -> Result<(&'a Supported, &'w Witness), String> {
    let stated = |w: &Witness, formula: &str| Some(formula.trim()) == w.specification.as_deref();
    for witness in witnesses {
        if let Some((property, _)) = candidates.iter().find(|(_, f)| stated(witness, f)) {
            return Ok((property, witness));
        }
    }
    match (witnesses, candidates) {
        ([only], [(property, _)]) => Ok((property, only)),
        _ => Err(
            "no entry of the witness states the specification of the property to \
                  validate: give --property"
                .into(),
        ),
    }
}

/// Validates `witness` for `property` of the program `file`; prints one line.
pub(super) fn run(
    file: &SourceFile,
    property: &Supported,
    data_model: &str,
    witness: &Witness,
    timeout: f64,
) -> Exit {
    let deadline = Instant::now() + Duration::from_secs_f64(timeout);
    let name = property.name;
    match replay(file, property, data_model, witness, deadline) {
        Ok(at) => {
            crate::stdout::print(&format!("{name}: witness confirmed: {at}\n"));
            Exit::Violation
        }
        Err(why) => {
            crate::stdout::print(&format!("{name}: witness not confirmed ({why})\n"));
            Exit::Inconclusive
        }
    }
}

/// Runs the program on the witness's values; where the run fails the property at the target's
/// line, that failure (`FALSE(valid-deref) at file:line:column`).
pub(super) fn replay(
    file: &SourceFile,
    property: &Supported,
    data_model: &str,
    witness: &Witness,
    deadline: Instant,
) -> Result<String, String> {
    let mut words: Vec<String> = property.flags.iter().map(|f| f.to_string()).collect();
    if property.wraps_around {
        words.push(super::SIGNED_OVERFLOW.into());
    }
    words.extend(["--data-model".into(), data_model.into()]);
    let lowered = rerun::lower(file, words)?;
    let lines = LineIndex::new(&file.text);
    let model = super::c_data_model(data_model);
    let mut returns = witness.returns.iter().peekable();
    // The low half of a 64-bit value, read by the next input instruction.
    let mut low_half = None;
    // A value the call's type cannot return: the witness describes no run of the program.
    let mut impossible = None;
    let mut choose = |span: Span| -> i32 {
        if let Some(low) = low_half.take() {
            return low;
        }
        let at = lines.line_col(span.start);
        let call = closing_parenthesis(&lines, &file.text, at)
            .and_then(|(callee, close)| Some((symex_c::input_type(&callee, model)?, close)));
        let Some((ty, close)) = call else {
            return 0;
        };
        let Some(returned) = returns.next_if(|r| r.is_at(close)) else {
            return 0;
        };
        if !ty.holds(returned.value) && impossible.is_none() {
            impossible = Some((returned.value, returned.line));
        }
        let inputs = ty.inputs(returned.value);
        low_half = inputs.get(1).copied();
        inputs[0]
    };
    let (end, _) = rerun::run(&lowered, rerun::Given::Chosen(&mut choose), deadline)?;
    if let Some((value, line)) = impossible {
        return Err(format!(
            "the witness gives the call at line {line} the value {value}, which its type cannot \
             return"
        ));
    }
    if let Some(missed) = returns.next() {
        return Err(format!(
            "the run never reaches the call the witness gives a value for at line {}{}",
            missed.line,
            match ended(&end) {
                Some(how) => format!(" ({how})"),
                None => String::new(),
            }
        ));
    }
    judge(&end, property, witness, &lines, &file.name)
}

/// Whether the run's end confirms the witness.
fn judge(
    end: &RunEnd,
    property: &Supported,
    witness: &Witness,
    lines: &LineIndex,
    file_name: &str,
) -> Result<String, String> {
    let RunEnd::RuntimeError { kind, span, .. } = end else {
        let how = ended(end).unwrap_or_default();
        return Err(format!("the run ends without a violation: {how}"));
    };
    let at = lines.line_col(span.start);
    let place = format!("{file_name}:{}:{}", at.line, at.column);
    if *kind == PropertyKind::Overflow && !property.targets().contains(kind) {
        return Err(format!(
            "the run has a signed overflow at {place} (undefined behaviour) before any violation"
        ));
    }
    if !property.targets().contains(kind) {
        return Err(format!(
            "the run fails the {} check at {place}, which is not this property's",
            kind.name()
        ));
    }
    if witness.target != u64::from(at.line) {
        return Err(format!(
            "the run fails at {place}, the witness's target is at line {}",
            witness.target
        ));
    }
    let answer = property.show(&symex_report::svcomp::SvVerdict::False(*kind));
    Ok(format!("{answer} at {place}"))
}

/// How a run without a violation ended, in words (`None` for a runtime error).
fn ended(end: &RunEnd) -> Option<String> {
    Some(match end {
        RunEnd::Returned(_) => "`main` returns".into(),
        RunEnd::AssumeFailed { .. } => "an assumption fails".into(),
        RunEnd::LimitExceeded { limit, .. } => format!("the {limit:?} limit stops it"),
        RunEnd::RuntimeError { .. } => return None,
        other => format!("{other:?}"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn return_values_are_read_with_cs_suffixes() {
        assert_eq!(returned_value("\\result == 5"), Some(5));
        assert_eq!(returned_value("\\result==-7"), Some(-7));
        assert_eq!(returned_value(" \\result == 4294967295U"), Some(4294967295));
        assert_eq!(returned_value("\\result == (-2LL)"), Some(-2));
        assert_eq!(returned_value("x == 5"), None);
        assert_eq!(returned_value("\\result >= 5"), None);
    }

    #[test]
    fn a_witness_needs_its_target_and_values_its_calls_can_return() {
        let witness = |target: &str| {
            format!(
                "- entry_type: violation_sequence\n  content:\n  - segment:\n    - waypoint:\n        \
                 type: function_return\n        action: follow\n        constraint: {{value: \
                 '\\result == 3'}}\n        location: {{file_name: p.c, line: 4}}\n{target}"
            )
        };
        let target =
            "  - segment:\n    - waypoint:\n        type: target\n        action: follow\n        \
                      location: {file_name: p.c, line: 9}\n";
        let targets = |w: Vec<Witness>| w.iter().map(|w| w.target).collect::<Vec<u64>>();
        assert_eq!(parse(&witness(target)).map(targets), Ok(vec![9]));
        let error = parse(&witness("")).err().unwrap_or_default();
        assert!(error.contains("no `target`"), "{error}");
        let error = parse(&witness(&target.replace("9}", "abc}")))
            .err()
            .unwrap_or_default();
        assert!(error.contains("without a line number"), "{error}");
        let char_type = symex_c::InputType {
            bits: 8,
            signed: true,
        };
        assert!(char_type.holds(-128) && char_type.holds(127) && !char_type.holds(128));
        let uchar = symex_c::InputType {
            bits: 8,
            signed: false,
        };
        assert!(uchar.holds(255) && !uchar.holds(-1));
        let ulong = symex_c::InputType {
            bits: 64,
            signed: false,
        };
        assert!(ulong.holds(u64::MAX.into()) && !ulong.holds(i128::from(u64::MAX) + 1));
    }
}
