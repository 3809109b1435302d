//! Compiler-style diagnostics shared by every layer that reports a problem in the source.
//!
//! A [`Diagnostic`] is plain data (severity, message, labelled spans, notes); rendering is separate:
//! [`Diagnostic::render`] gives rustc-like text with the file name, `line:col`, the source line and
//! a caret, through `ariadne`. Nothing here prints or exits.

use crate::span::{LineIndex, Span};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    Warning,
    Error,
}

/// A span with a short message attached to it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Label {
    pub span: Span,
    pub message: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    pub message: String,
    /// The main location; its message says what is wrong right there.
    pub primary: Label,
    /// Other locations that explain the problem (e.g. the earlier declaration).
    pub secondary: Vec<Label>,
    /// Free-text help lines ("help: use a pointer").
    pub notes: Vec<String>,
}

impl Diagnostic {
    pub fn error(span: Span, message: impl Into<String>) -> Diagnostic {
        let message = message.into();
        Diagnostic {
            severity: Severity::Error,
            primary: Label {
                span,
                message: String::new(),
            },
            message,
            secondary: Vec::new(),
            notes: Vec::new(),
        }
    }

    pub fn warning(span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(span, message)
        }
    }

    /// Sets the message shown at the primary span.
    pub fn with_label(mut self, message: impl Into<String>) -> Diagnostic {
        self.primary.message = message.into();
        self
    }

    pub fn with_secondary(mut self, span: Span, message: impl Into<String>) -> Diagnostic {
        self.secondary.push(Label {
            span,
            message: message.into(),
        });
        self
    }

    pub fn with_note(mut self, note: impl Into<String>) -> Diagnostic {
        self.notes.push(note.into());
        self
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// One line: `file:line:col: error: message`.
    pub fn headline(&self, file: &str, index: &LineIndex) -> String {
        let kind = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        format!(
            "{file}:{}: {kind}: {}",
            index.start(self.primary.span),
            self.message
        )
    }

    /// The full rendering: headline, the source line(s) with carets and labels, then notes.
    /// `color` selects ANSI colors (for a terminal).
    pub fn render(&self, file: &str, source: &str, color: bool) -> String {
        use ariadne::{Config, Label as AriadneLabel, Report, ReportKind, Source};
        let index = LineIndex::new(source);
        let kind = match self.severity {
            Severity::Error => ReportKind::Error,
            Severity::Warning => ReportKind::Warning,
        };
        let clamp = |span: Span| {
            let len = source.len();
            let start = (span.start as usize).min(len);
            let end = (span.end as usize).clamp(start, len);
            // ariadne counts characters, so convert byte offsets.
            let to_chars = |b: usize| source.get(..b).map_or(b, |s| s.chars().count());
            (file, to_chars(start)..to_chars(end))
        };
        let mut report = Report::build(kind, file, clamp(self.primary.span).1.start)
            .with_config(Config::default().with_color(color))
            .with_message(&self.message);
        let primary_msg = if self.primary.message.is_empty() {
            self.message.clone()
        } else {
            self.primary.message.clone()
        };
        report = report
            .with_label(AriadneLabel::new(clamp(self.primary.span)).with_message(primary_msg));
        for label in &self.secondary {
            report = report
                .with_label(AriadneLabel::new(clamp(label.span)).with_message(&label.message));
        }
        for note in &self.notes {
            report = match note.strip_prefix("help: ") {
                Some(help) => report.with_help(help),
                None => report.with_note(note),
            };
        }
        let mut out = Vec::new();
        if report
            .finish()
            .write((file, Source::from(source)), &mut out)
            .is_err()
        {
            return self.headline(file, &index);
        }
        String::from_utf8_lossy(&out).into_owned()
    }
}
