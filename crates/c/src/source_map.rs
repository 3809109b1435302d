//! Positions in the preprocessed text mapped back to the file the user wrote.
//!
//! The preprocessor's output carries line markers (`# 12 "prog.c" 2`). Every construct is
//! located in the original file: code that came from an included header is located at the
//! `#include` line that brought it in (the last line of the main file before it). A `.i` file is
//! its own original (the identity map). Nothing here parses C.

use symex_syntax::span::Span;

pub struct SourceMap {
    /// Byte offset where each preprocessed line starts.
    preprocessed_lines: Vec<usize>,
    /// For each preprocessed line: the 0-based line of the original file it stands for, and
    /// whether it is that line's own text (false: a header's line, placed at its `#include`).
    origin: Vec<(usize, bool)>,
    /// Byte offset where each original line starts.
    original_lines: Vec<usize>,
    original_len: usize,
}

fn line_starts(text: &str) -> Vec<usize> {
    std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .collect()
}

/// `(line, file)` of a line marker `# 12 "file" flags` or `#line 12 "file"`.
fn line_marker(line: &str) -> Option<(usize, &str)> {
    let rest = line.strip_prefix('#')?.trim_start();
    let rest = rest.strip_prefix("line").unwrap_or(rest).trim_start();
    let digits = rest
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(rest.len());
    let number = rest[..digits].parse().ok()?;
    let file = rest[digits..].trim_start().strip_prefix('"')?;
    Some((number, &file[..file.find('"')?]))
}

impl SourceMap {
    /// The map of a text that is its own original.
    pub fn identity(text: &str) -> SourceMap {
        let lines = line_starts(text);
        SourceMap {
            origin: (0..lines.len()).map(|l| (l, true)).collect(),
            preprocessed_lines: lines.clone(),
            original_lines: lines,
            original_len: text.len(),
        }
    }

    /// The map of `preprocessed`, the preprocessor's output for `original`. The main file is the
    /// one the first line marker names.
    pub fn from_markers(preprocessed: &str, original: &str) -> SourceMap {
        let preprocessed_lines = line_starts(preprocessed);
        let mut origin = Vec::with_capacity(preprocessed_lines.len());
        let mut main_file: Option<&str> = None;
        // The next line's number in its file, and whether that file is the main file.
        let mut next_line = 0usize;
        let mut in_main = true;
        let mut last_main_line = 0usize;
        for text in preprocessed.split('\n') {
            if let Some((number, file)) = line_marker(text) {
                let main = *main_file.get_or_insert(file);
                in_main = file == main;
                next_line = number.saturating_sub(1);
                origin.push((last_main_line, false));
                continue;
            }
            if in_main {
                last_main_line = next_line;
                origin.push((next_line, true));
            } else {
                origin.push((last_main_line, false));
            }
            next_line += 1;
        }
        SourceMap {
            preprocessed_lines,
            origin,
            original_lines: line_starts(original),
            original_len: original.len(),
        }
    }

    /// The original byte offset of preprocessed offset `offset`.
    pub fn offset(&self, offset: usize) -> usize {
        let line = self
            .preprocessed_lines
            .partition_point(|&start| start <= offset)
            - 1;
        let (original, own) = self.origin.get(line).copied().unwrap_or((0, false));
        let Some(&start) = self.original_lines.get(original) else {
            return self.original_len;
        };
        let end = self
            .original_lines
            .get(original + 1)
            .map_or(self.original_len, |&next| next.saturating_sub(1));
        if own {
            (start + (offset - self.preprocessed_lines[line])).min(end)
        } else {
            start
        }
    }

    /// The original span of a preprocessed span (empty where the end maps before the start).
    pub fn span(&self, span: lang_c::span::Span) -> Span {
        let start = self.offset(span.start);
        let end = self.offset(span.end).max(start);
        Span::new(start, end)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identity_keeps_offsets() {
        let map = SourceMap::identity("int a;\nint b;\n");
        assert_eq!(map.offset(9), 9);
    }

    #[test]
    fn markers_map_lines_back_and_headers_to_their_include() {
        let original = "#include \"h.h\"\nint main() {\n  return 0;\n}\n";
        let preprocessed =
            "# 1 \"p.c\"\n# 1 \"h.h\" 1\nint x;\n# 2 \"p.c\" 2\nint main() {\n  return 0;\n}\n";
        let map = SourceMap::from_markers(preprocessed, original);
        let ret = preprocessed.find("return").unwrap();
        assert_eq!(map.offset(ret), original.find("return").unwrap());
        let header = preprocessed.find("int x").unwrap();
        assert_eq!(map.offset(header), 0);
    }

    #[test]
    fn markers_are_recognized() {
        assert_eq!(line_marker("# 12 \"a.c\" 2"), Some((12, "a.c")));
        assert_eq!(line_marker("#line 3 \"b.c\""), Some((3, "b.c")));
        assert_eq!(line_marker("#pragma once"), None);
    }
}
