//! Source spans: byte ranges into one source file.
//!
//! Every AST node and every IR instruction carries a [`Span`]; diagnostics and reports turn it into
//! `line:column` with [`LineIndex`]. Spans never own text.

use std::ops::Range;

/// A half-open byte range `start..end` into the program's source text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Span {
    pub start: u32,
    pub end: u32,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Span {
        Span {
            start: start as u32,
            end: end as u32,
        }
    }

    /// The smallest span covering both.
    pub fn to(self, other: Span) -> Span {
        Span {
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }

    pub fn range(self) -> Range<usize> {
        self.start as usize..self.end as usize
    }
}

/// A 1-based line and column (columns count characters, not bytes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LineCol {
    pub line: u32,
    pub column: u32,
}

impl std::fmt::Display for LineCol {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

/// Maps byte offsets of one source text to lines and columns.
#[derive(Clone, Debug)]
pub struct LineIndex {
    line_starts: Vec<u32>,
    text: std::sync::Arc<str>,
    /// Whether every character is one byte: a column is then a difference of offsets, where
    /// counting characters made locations on one line of 100,000 statements quadratic.
    ascii: bool,
}

impl LineIndex {
    pub fn new(text: &str) -> LineIndex {
        let mut line_starts = vec![0];
        line_starts.extend(
            text.bytes()
                .enumerate()
                .filter(|&(_, b)| b == b'\n')
                .map(|(i, _)| i as u32 + 1),
        );
        LineIndex {
            line_starts,
            text: text.into(),
            ascii: text.is_ascii(),
        }
    }

    /// Line and column of a byte offset (clamped to the text).
    pub fn line_col(&self, offset: u32) -> LineCol {
        let offset = offset.min(self.text.len() as u32);
        let line = self.line_starts.partition_point(|&s| s <= offset) - 1;
        let start = self.line_starts[line] as usize;
        let column = match self.ascii {
            true => offset as usize - start,
            false => (self.text.get(start..offset as usize))
                .map_or(offset as usize - start, |s| s.chars().count()),
        };
        LineCol {
            line: line as u32 + 1,
            column: column as u32 + 1,
        }
    }

    /// The start of a span as line and column.
    pub fn start(&self, span: Span) -> LineCol {
        self.line_col(span.start)
    }

    /// The byte offset of a line and column (both from 1), the inverse of
    /// [`LineIndex::line_col`]; `None` past the end of the line or the text.
    pub fn offset(&self, at: LineCol) -> Option<usize> {
        let start = *self.line_starts.get(at.line.checked_sub(1)? as usize)? as usize;
        let line = self.text[start..].split('\n').next().unwrap_or_default();
        let column = at.column.checked_sub(1)? as usize;
        line.char_indices()
            .map(|(i, _)| i)
            .chain(std::iter::once(line.len()))
            .nth(column)
            .map(|i| start + i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_of_line_cols_invert_line_col() {
        let idx = LineIndex::new("ab\ncé\n\nx");
        for offset in [0, 1, 2, 3, 4, 6, 7, 8] {
            assert_eq!(idx.offset(idx.line_col(offset)), Some(offset as usize));
        }
        assert_eq!(idx.offset(LineCol { line: 1, column: 9 }), None);
        assert_eq!(idx.offset(LineCol { line: 9, column: 1 }), None);
        assert_eq!(idx.offset(LineCol { line: 1, column: 0 }), None);
    }

    #[test]
    fn line_col_of_offsets() {
        let idx = LineIndex::new("ab\ncd\n\nx");
        assert_eq!(idx.line_col(0), LineCol { line: 1, column: 1 });
        assert_eq!(idx.line_col(1), LineCol { line: 1, column: 2 });
        assert_eq!(idx.line_col(3), LineCol { line: 2, column: 1 });
        assert_eq!(idx.line_col(7), LineCol { line: 4, column: 1 });
        assert_eq!(idx.line_col(100), LineCol { line: 4, column: 2 });
    }
}
