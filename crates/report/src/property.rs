//! One property's entry in a report: what and where (kind, function, line, column) and its
//! [`Verdict`]. Engines build entries with [`crate::Locator::property`]. Plain data: the JSON form
//! is in `json.rs`, the text form in `text.rs`.

use symex_ir::cfg::PropertyKind;
use symex_syntax::span::Span;

use crate::verdict::Verdict;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PropertyReport {
    pub kind: PropertyKind,
    /// The function containing the property.
    pub function: String,
    /// 1-based line of the failing construct's start.
    pub line: u32,
    /// 1-based column, in characters.
    pub column: u32,
    /// The failing construct's byte range, for the underline in text output. Not part of the
    /// JSON: a loaded report has `None`, and text output then marks the character at
    /// `line:column`.
    pub span: Option<Span>,
    pub verdict: Verdict,
}

impl PropertyReport {
    /// The order of properties in every report: by source position, then kind and function.
    pub(crate) fn order_key(&self) -> (u32, u32, PropertyKind, &str) {
        (self.line, self.column, self.kind, &self.function)
    }
}
