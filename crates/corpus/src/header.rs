//! The one parser of `//!` corpus headers.
//!
//! The header is the run of `//! key: value` lines at the top of a file; a `//!` line further
//! down, an unknown key, a malformed value or a repeated single-valued key is an error naming the
//! file and line. All problems of a file are reported, not just the first. Never panics.

use std::path::Path;

use symex_ir::cfg::PropertyKind;

use crate::error::CorpusError;
use crate::model::{CorpusFile, ExpectedEnd, Origin, RunLine, Traces, Verdict};

const MARKER: &str = "//!";

/// Parses the header of `source` (the text of the file at `path`).
pub fn parse(path: &Path, origin: Origin, source: &str) -> Result<CorpusFile, Vec<CorpusError>> {
    let mut file = CorpusFile {
        path: path.to_path_buf(),
        origin,
        name: path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default(),
        source: source.to_string(),
        verdicts: Vec::new(),
        entry: None,
        runs: Vec::new(),
        bound: None,
        paths: None,
        traces: None,
        notes: Vec::new(),
        sources: Vec::new(),
    };
    let mut errors = Vec::new();
    let mut in_header = true;
    for (index, text) in source.lines().enumerate() {
        let line = index as u32 + 1;
        let Some(rest) = text.strip_prefix(MARKER) else {
            in_header = false;
            continue;
        };
        let result = if in_header {
            apply(&mut file, line, rest)
        } else {
            Err("header line after the program text started (headers go at the top)".into())
        };
        if let Err(message) = result {
            errors.push(CorpusError {
                path: path.to_path_buf(),
                line: Some(line),
                message,
            });
        }
    }
    if file.is_safe() && file.verdicts.len() > 1 {
        errors.push(CorpusError {
            path: path.to_path_buf(),
            line: None,
            message: "`verdict: safe` together with `violated` verdicts".into(),
        });
    }
    if errors.is_empty() {
        Ok(file)
    } else {
        Err(errors)
    }
}

/// Records one header line (`rest` is the text after `//!`).
fn apply(file: &mut CorpusFile, line: u32, rest: &str) -> Result<(), String> {
    let (key, value) = rest
        .split_once(':')
        .ok_or_else(|| format!("expected `{MARKER} key: value`, found `{MARKER}{rest}`"))?;
    let (key, value) = (key.trim(), value.trim());
    match key {
        "verdict" => file.verdicts.push(verdict(value)?),
        "entry" => set_once(&mut file.entry, key, identifier(value)?)?,
        "run" => file.runs.push(run_line(line, value)?),
        "bound" => set_once(&mut file.bound, key, number(value, "bound")?)?,
        "paths" => set_once(&mut file.paths, key, number(value, "paths")?)?,
        "traces" => set_once(&mut file.traces, key, traces(value)?)?,
        "source" => file.sources.push(free_text(value, key)?),
        "note" => file.notes.push(free_text(value, key)?),
        _ => return Err(format!("unknown header key `{key}`")),
    }
    Ok(())
}

fn set_once<T>(slot: &mut Option<T>, key: &str, value: T) -> Result<(), String> {
    if slot.is_some() {
        return Err(format!("`{key}` given twice"));
    }
    *slot = Some(value);
    Ok(())
}

fn free_text(value: &str, key: &str) -> Result<String, String> {
    if value.is_empty() {
        return Err(format!("`{key}` needs a text"));
    }
    Ok(value.to_string())
}

fn identifier(value: &str) -> Result<String, String> {
    let mut chars = value.chars();
    let valid = chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_');
    if valid {
        Ok(value.to_string())
    } else {
        Err(format!("`{value}` is not a function name"))
    }
}

fn number<T: std::str::FromStr>(text: &str, what: &str) -> Result<T, String> {
    text.parse()
        .map_err(|_| format!("`{text}` is not a valid {what}"))
}

fn kind(name: &str) -> Result<PropertyKind, String> {
    PropertyKind::from_name(name).ok_or_else(|| {
        format!(
            "unknown error kind `{name}` (expected assert, div-by-zero, null-deref, out-of-bounds or uninit)"
        )
    })
}

/// `KIND line N` (the words after `violated` or `error=`).
fn kind_at_line(words: &[&str]) -> Result<(PropertyKind, u32), String> {
    match words {
        [name, "line", n] => Ok((kind(name)?, number(n, "line number")?)),
        _ => Err(format!(
            "expected `KIND line N`, found `{}`",
            words.join(" ")
        )),
    }
}

fn verdict(value: &str) -> Result<Verdict, String> {
    let words: Vec<&str> = value.split_whitespace().collect();
    match words.as_slice() {
        ["safe"] => Ok(Verdict::Safe),
        ["violated", rest @ ..] => {
            let (kind, line) = kind_at_line(rest)?;
            Ok(Verdict::Violated { kind, line })
        }
        _ => Err(format!(
            "expected `safe` or `violated KIND line N`, found `{value}`"
        )),
    }
}

/// `1,-2,3` (empty text is the empty list).
fn number_list(text: &str) -> Result<Vec<i32>, String> {
    if text.is_empty() {
        return Ok(Vec::new());
    }
    text.split(',')
        .map(|n| number(n.trim(), "32-bit number"))
        .collect()
}

fn run_line(header_line: u32, value: &str) -> Result<RunLine, String> {
    let words: Vec<&str> = value.split_whitespace().collect();
    let (mut input, mut output, mut end) = (None, None, None);
    let mut i = 0;
    while let Some(word) = words.get(i) {
        let (key, text) = word
            .split_once('=')
            .ok_or_else(|| format!("expected `key=value` in a run line, found `{word}`"))?;
        i += 1;
        let fresh = match key {
            "input" => input.replace(number_list(text)?).is_none(),
            "output" => output.replace(number_list(text)?).is_none(),
            "result" => end
                .replace(ExpectedEnd::Result(number(text, "result")?))
                .is_none(),
            "error" => {
                let mut kind_words = vec![text];
                kind_words.extend(&words[i..(i + 2).min(words.len())]);
                i += 2;
                let (kind, line) = kind_at_line(&kind_words)?;
                end.replace(ExpectedEnd::Error { kind, line }).is_none()
            }
            _ => return Err(format!("unknown run field `{key}`")),
        };
        if !fresh {
            return Err(format!(
                "run field `{key}` given twice (or both result and error)"
            ));
        }
    }
    match (input, output, end) {
        (Some(input), Some(output), Some(end)) => Ok(RunLine {
            header_line,
            input,
            output,
            end,
        }),
        _ => Err("a run line needs `input=`, `output=` and `result=` or `error=`".into()),
    }
}

fn traces(value: &str) -> Result<Traces, String> {
    let mut traces = Traces::default();
    for word in value.split_whitespace() {
        let (key, n) = word
            .split_once('=')
            .ok_or_else(|| format!("expected `engine=N` in traces, found `{word}`"))?;
        let n = number(n, "trace count")?;
        let slot = match key {
            "li" => &mut traces.li,
            "lazier#" => &mut traces.lazier,
            "pose" => &mut traces.pose,
            _ => return Err(format!("unknown traces field `{key}` (li, lazier#, pose)")),
        };
        set_once(slot, key, n)?;
    }
    if traces == Traces::default() {
        return Err("`traces` needs at least one `engine=N`".into());
    }
    Ok(traces)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_text(text: &str) -> Result<CorpusFile, Vec<CorpusError>> {
        parse(Path::new("t/x.uc"), Origin::Project, text)
    }

    fn first_error(text: &str) -> (Option<u32>, String) {
        let errors = parse_text(text).unwrap_err();
        (errors[0].line, errors[0].message.clone())
    }

    #[test]
    fn full_header() {
        let f = parse_text(
            "//! verdict: violated div-by-zero line 13\n\
             //! verdict: violated assert line 2\n\
             //! entry: sum\n\
             //! run: input=7,0 output= error=div-by-zero line 13\n\
             //! run: input= output=-1,2 result=-2\n\
             //! bound: 4\n\
             //! traces: li=23 lazier#=23 pose=1\n\
             //! source: somewhere: with a colon\n\
             //! note: a note\n\
             \n\
             main() { return 0; }\n",
        )
        .unwrap();
        assert_eq!(f.name, "x.uc");
        assert_eq!(
            f.verdicts,
            [
                Verdict::Violated {
                    kind: PropertyKind::DivByZero,
                    line: 13
                },
                Verdict::Violated {
                    kind: PropertyKind::Assert,
                    line: 2
                }
            ]
        );
        assert_eq!(f.entry_function(), "sum");
        assert_eq!(
            f.runs,
            [
                RunLine {
                    header_line: 4,
                    input: vec![7, 0],
                    output: vec![],
                    end: ExpectedEnd::Error {
                        kind: PropertyKind::DivByZero,
                        line: 13
                    }
                },
                RunLine {
                    header_line: 5,
                    input: vec![],
                    output: vec![-1, 2],
                    end: ExpectedEnd::Result(-2)
                }
            ]
        );
        assert_eq!(f.bound, Some(4));
        assert_eq!(f.paths, None);
        assert_eq!(
            f.traces,
            Some(Traces {
                li: Some(23),
                lazier: Some(23),
                pose: Some(1)
            })
        );
        assert_eq!(f.sources, ["somewhere: with a colon"]);
        assert_eq!(f.notes, ["a note"]);
        assert!(!f.is_safe());
        assert_eq!(f.label(), "project/x.uc");
    }

    #[test]
    fn extreme_numbers() {
        let f = parse_text("//! run: input=-2147483648,-1 output=0 result=-2147483648\n").unwrap();
        assert_eq!(f.runs[0].input, [i32::MIN, -1]);
        assert_eq!(f.runs[0].end, ExpectedEnd::Result(i32::MIN));
        assert!(first_error("//! run: input=2147483648 output= result=0\n")
            .1
            .contains("2147483648"));
    }

    #[test]
    fn errors_name_the_line() {
        assert_eq!(
            first_error("//! verdict: safe\n//! color: red\n"),
            (Some(2), "unknown header key `color`".into())
        );
        assert_eq!(first_error("//! nonsense\n").0, Some(1));
        assert!(first_error("//! verdict: violated underflow line 3\n")
            .1
            .contains("unknown error kind `underflow`"));
        assert!(first_error("//! verdict: violated assert 3\n")
            .1
            .contains("KIND line N"));
        assert!(first_error("//! bound: -1\n").1.contains("bound"));
        assert!(first_error("//! entry: a\n//! entry: b\n")
            .1
            .contains("twice"));
        assert!(first_error("//! entry: 1x\n").1.contains("function name"));
        assert!(first_error("//! run: input=1 result=0\n")
            .1
            .contains("output="));
        assert!(first_error("//! run: input= output= result=0 result=1\n")
            .1
            .contains("twice"));
        assert!(first_error("//! run: input= output= error=assert line\n")
            .1
            .contains("KIND line N"));
        assert!(first_error("//! run: input= output= error=assert\n")
            .1
            .contains("KIND line N"));
        assert!(first_error("//! run: input=a output= result=0\n")
            .1
            .contains("`a`"));
        assert!(first_error("//! traces: li=1 foo=2\n").1.contains("foo"));
        assert!(first_error("//! note:\n").1.contains("needs a text"));
        assert_eq!(
            first_error("main() { return 0; }\n//! verdict: safe\n").0,
            Some(2)
        );
        assert_eq!(
            first_error("//! verdict: safe\n//! verdict: violated assert line 1\n").0,
            None
        );
    }

    #[test]
    fn reports_every_problem() {
        let errors = parse_text("//! a: 1\n//! b: 2\n//! verdict: safe\n").unwrap_err();
        assert_eq!(errors.len(), 2);
        assert_eq!(errors[1].line, Some(2));
    }
}
