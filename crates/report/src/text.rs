//! The human text of `symex check`: compiler-style.
//!
//! Each violated property is a diagnostic (rendered by `symex_syntax`'s [`Diagnostic::render`]:
//! `file:line:col`, the source line, a caret under the failing construct) followed by the inputs,
//! the entry arguments, the path and a `symex run` command that replays it. An unconfirmed
//! counterexample gets the same layout under an `internal error` headline, and is never called
//! a violation. Every other property takes one line (`file:line:col kind: safe up to 4 (...)`),
//! then one summary line closes the report. This module only formats: it prints nothing and
//! decides no verdict.

use std::fmt::Write as _;

use symex_syntax::diag::Diagnostic;
use symex_syntax::span::{LineCol, LineIndex, Span};

use crate::counterexample::Witness;
use crate::kind;
use crate::property::PropertyReport;
use crate::report::Report;
use crate::value::ArgValue;
use crate::verdict::Verdict;

impl Report {
    /// The last line of the text report alone (what `symex check --quiet` prints): the counts
    /// of each verdict, paths, queries and time.
    pub fn summary_line(&self) -> String {
        format!("{}\n", summary(self))
    }

    /// The text report. `source` is the program's text (for the source lines under diagnostics);
    /// `color` selects ANSI colors for the diagnostics.
    pub fn to_text(&self, source: &str, color: bool) -> String {
        let mut out = String::new();
        for p in self.properties() {
            match &p.verdict {
                Verdict::Violated(cex) => {
                    let diag = Diagnostic::error(span_for(p, source), kind::failure(p.kind))
                        .with_label(kind::label(p.kind));
                    out.push_str(&diag.render(&self.program, source, color));
                    witness_lines(&mut out, self, cex.witness(), "");
                    out.push('\n');
                }
                Verdict::Unconfirmed(u) => {
                    let message = format!(
                        "internal error: symex claims that `{}` fails here ({}), but the \
                         interpreter does not reproduce it",
                        p.kind.name(),
                        kind::failure(p.kind)
                    );
                    let diag = Diagnostic::error(span_for(p, source), message)
                        .with_label("claimed to fail here")
                        .with_note("this is a bug in symex: please report it with the program");
                    out.push_str(&diag.render(&self.program, source, color));
                    let _ = writeln!(out, "  {}", u.reason());
                    witness_lines(&mut out, self, u.witness(), "unconfirmed ");
                    out.push('\n');
                }
                _ => {}
            }
        }
        for p in self.properties() {
            if let Some(line) = compact_line(self, p) {
                out.push_str(&line);
                out.push('\n');
            }
        }
        out.push_str(&summary(self));
        out.push('\n');
        out
    }
}

/// The underlined range: the property's span, or for a loaded report the character at its
/// `line:column`.
fn span_for(p: &PropertyReport, source: &str) -> Span {
    if let Some(span) = p.span {
        return span;
    }
    let at = LineCol {
        line: p.line,
        column: p.column,
    };
    let start = LineIndex::new(source).offset(at).unwrap_or(source.len());
    let ch = source[start..]
        .chars()
        .next()
        .filter(|&c| c != '\n')
        .map_or(0, char::len_utf8);
    Span::new(start, start + ch)
}

/// Inputs, arguments, path and the replay command, indented under a diagnostic. `qualifier`
/// marks data that is not a confirmed counterexample.
fn witness_lines(out: &mut String, report: &Report, w: &Witness, qualifier: &str) {
    let inputs = join(w.inputs.iter());
    let inputs = if inputs.is_empty() { "(none)" } else { &inputs };
    let _ = writeln!(out, "  {qualifier}inputs: {inputs}");
    if !w.args.is_empty() {
        let args: Vec<String> = w.args.iter().map(|(n, v)| format!("{n} = {v}")).collect();
        let _ = writeln!(out, "  {qualifier}args: {}", args.join(", "));
    }
    if let Some(heap) = &w.heap {
        let _ = writeln!(out, "  {qualifier}heap: {heap}");
    }
    if !w.trace.is_empty() {
        let _ = writeln!(out, "  {qualifier}path:");
        let places: Vec<String> = w
            .trace
            .iter()
            .map(|s| format!("{}:{}:{}", s.function, s.line, s.column))
            .collect();
        let width = places.iter().map(String::len).max().unwrap_or(0);
        for (place, step) in places.iter().zip(&w.trace) {
            let _ = writeln!(out, "    {place:<width$}  {}", step.event);
        }
    }
    let _ = writeln!(out, "  replay: {}", replay_command(report, w));
}

/// The `symex run` command line that runs the counterexample: the program lowered with the
/// same front-end options, the entry, its arguments (an input heap as its JSON document,
/// quoted) and the inputs.
pub(crate) fn replay_command(report: &Report, w: &Witness) -> String {
    let mut cmd = format!("symex run {}", shell_word(&report.program));
    for word in &report.frontend {
        let _ = write!(cmd, " {}", shell_word(word));
    }
    if report.entry != "main" || !w.args.is_empty() {
        let _ = write!(cmd, " --entry {}", shell_word(&report.entry));
        if let Some(heap) = &w.heap {
            let _ = write!(cmd, " --heap {}", shell_word(&heap.to_string()));
        } else if !w.args.is_empty() {
            let values: Vec<&ArgValue> = w.args.iter().map(|(_, v)| v).collect();
            cmd.push_str(&option("--args", &join(values.into_iter())));
        }
    }
    if !w.inputs.is_empty() {
        cmd.push_str(&option("--input", &join(w.inputs.iter())));
    }
    cmd
}

/// ` --name list`, or ` --name=list` when the list starts with `-` (so it is not read as an
/// option).
fn option(name: &str, list: &str) -> String {
    if list.starts_with('-') {
        format!(" {name}={list}")
    } else {
        format!(" {name} {list}")
    }
}

fn join<T: std::fmt::Display>(items: impl Iterator<Item = T>) -> String {
    items.map(|x| x.to_string()).collect::<Vec<_>>().join(",")
}

/// `word`, single-quoted if the shell would split or expand it.
fn shell_word(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_./-+:,=@%".contains(c));
    if plain {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

/// `file:line:col kind: status (reason)` for a property that is not a counterexample.
fn compact_line(report: &Report, p: &PropertyReport) -> Option<String> {
    let status = match &p.verdict {
        Verdict::Safe => "safe".to_string(),
        Verdict::SafeUpTo { bound, reason } => format!("safe up to {bound} ({reason})"),
        Verdict::Unknown { reason } => format!("unknown ({reason})"),
        Verdict::Violated(_) | Verdict::Unconfirmed(_) => return None,
    };
    Some(format!(
        "{}:{}:{} {}: {status}",
        report.program,
        p.line,
        p.column,
        p.kind.name()
    ))
}

fn summary(report: &Report) -> String {
    let c = report.counts();
    let total = c.total();
    let noun = if total == 1 { "property" } else { "properties" };
    let mut line = format!(
        "summary: {total} {noun} of {} (entry {}, engine {}): {} violated, {} safe, {} safe up to \
         a bound, {} unknown",
        report.program, report.entry, report.engine, c.violated, c.safe, c.safe_up_to, c.unknown
    );
    if c.internal_errors > 0 {
        let _ = write!(
            line,
            ", {} internal error{}",
            c.internal_errors,
            if c.internal_errors == 1 { "" } else { "s" }
        );
    }
    let s = &report.stats;
    let _ = write!(
        line,
        "; {} path{}, {} solver quer{}, {} ms",
        s.paths,
        if s.paths == 1 { "" } else { "s" },
        s.queries,
        if s.queries == 1 { "y" } else { "ies" },
        s.time_ms
    );
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sample;

    fn text() -> String {
        sample::report().to_text(sample::SOURCE, false)
    }

    #[test]
    fn a_violation_shows_location_source_inputs_path_and_replay() {
        let text = text();
        assert!(text.contains("p.uc:2:10"), "{text}");
        assert!(text.contains("return 10 / x;"), "{text}");
        assert!(text.contains("division by zero"), "{text}");
        assert!(
            text.contains("  inputs: 5\n  args: n = 3\n  path:\n"),
            "{text}"
        );
        assert!(text.contains("    g:6:7   input #0 is 5\n"), "{text}");
        assert!(
            text.contains("    f:2:10  division by zero here\n"),
            "{text}"
        );
        assert!(
            text.contains("  replay: symex run p.uc --entry g --args 3 --input 5\n"),
            "{text}"
        );
        let violation = text.find("Error: division by zero").unwrap_or(usize::MAX);
        let inputs = text.find("  inputs: 5").unwrap_or(0);
        assert!(violation < inputs, "{text}");
    }

    #[test]
    fn other_properties_take_one_line_each() {
        let text = text();
        let expected = "\
p.uc:12:10 div-by-zero: safe
p.uc:12:10 uninit: unknown (time limit of 30000 ms reached)
p.uc:16:3 assert: safe up to 4 (loop unwinding bound hit)
summary: 5 properties of p.uc (entry g, engine forward): 1 violated, 1 safe, 1 safe up to a \
bound, 1 unknown, 1 internal error; 3 paths, 12 solver queries, 15 ms
";
        assert!(text.ends_with(expected), "{text}");
    }

    #[test]
    fn an_unconfirmed_counterexample_is_an_internal_error_not_a_violation() {
        let text = text();
        assert!(
            text.contains("Error: internal error: symex claims that `uninit` fails here (read of an uninitialized"),
            "{text}"
        );
        assert!(text.contains("p.uc:17:10"), "{text}");
        assert!(text.contains("  unconfirmed inputs: -1\n"), "{text}");
        assert!(
            text.contains("  replay: symex run p.uc --entry g --args 0 --input=-1\n"),
            "{text}"
        );
        assert!(text.contains("this is a bug in symex"), "{text}");
        // Only the confirmed division is counted as violated.
        assert!(text.contains(": 1 violated,"), "{text}");
        assert_eq!(text.matches("Error: division by zero").count(), 1, "{text}");
    }

    #[test]
    fn a_loaded_report_underlines_at_line_and_column() {
        let report = sample::without_spans(sample::report());
        let text = report.to_text(sample::SOURCE, false);
        assert!(text.contains("p.uc:2:10"), "{text}");
        assert!(text.contains("return 10 / x;"), "{text}");
        let p = &report.properties()[0];
        assert_eq!(span_for(p, sample::SOURCE), sample::span_in("10 / x", 0, 1));
        let far = PropertyReport {
            line: 99,
            column: 99,
            ..p.clone()
        };
        let end = sample::SOURCE.len();
        assert_eq!(span_for(&far, sample::SOURCE), Span::new(end, end));
    }

    #[test]
    fn shell_words_are_quoted_when_needed() {
        assert_eq!(shell_word("dir/p.uc"), "dir/p.uc");
        assert_eq!(shell_word("my file.uc"), "'my file.uc'");
        assert_eq!(shell_word("it's.uc"), r"'it'\''s.uc'");
        assert_eq!(option("--input", "1,-2"), " --input 1,-2");
        assert_eq!(option("--input", "-1,2"), " --input=-1,2");
    }

    #[test]
    fn an_empty_report_still_has_a_summary() {
        let report = Report::new("e.uc", "forward", "main", Vec::new(), Default::default());
        assert_eq!(
            report.to_text("", false),
            "summary: 0 properties of e.uc (entry main, engine forward): 0 violated, 0 safe, 0 \
             safe up to a bound, 0 unknown; 0 paths, 0 solver queries, 0 ms\n"
        );
    }
}
