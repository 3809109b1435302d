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
    /// For an own line whose text the preprocessor respaced (it turns a run of blanks into one
    /// space, a tab into a space): `(preprocessed column, original column)` where each run of
    /// non-blank characters starts, the same characters in both. Empty where the texts are
    /// equal, or differ in more than blanks (a macro expanded): columns then map one to one.
    respaced: Vec<Vec<(usize, usize)>>,
}

/// Where each run of non-blank characters of `preprocessed` starts in it and in `original`,
/// if the two lines differ in blanks only; `None` otherwise.
fn respacing(preprocessed: &[u8], original: &[u8]) -> Option<Vec<(usize, usize)>> {
    let (mut i, mut j) = (0, 0);
    let mut anchors = Vec::new();
    loop {
        while preprocessed.get(i).is_some_and(u8::is_ascii_whitespace) {
            i += 1;
        }
        while original.get(j).is_some_and(u8::is_ascii_whitespace) {
            j += 1;
        }
        match (preprocessed.get(i), original.get(j)) {
            (None, None) => return Some(anchors),
            (Some(_), Some(_)) => {
                anchors.push((i, j));
                while let (Some(a), Some(b)) = (preprocessed.get(i), original.get(j)) {
                    if a.is_ascii_whitespace() || b.is_ascii_whitespace() {
                        break;
                    }
                    if a != b {
                        return None;
                    }
                    i += 1;
                    j += 1;
                }
                let blank = |c: Option<&u8>| c.is_none_or(u8::is_ascii_whitespace);
                if !(blank(preprocessed.get(i)) && blank(original.get(j))) {
                    return None;
                }
            }
            _ => return None,
        }
    }
}

fn line_starts(text: &str) -> Vec<usize> {
    std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .collect()
}

/// The bytes of line `line` of `text` (whose lines start at `starts`), without its newline.
fn line_text<'t>(starts: &[usize], text: &'t str, line: usize) -> &'t [u8] {
    let start = starts[line];
    let end = starts.get(line + 1).map_or(text.len(), |&next| next - 1);
    &text.as_bytes()[start..end.max(start)]
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
            respaced: Vec::new(),
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
        let original_lines = line_starts(original);
        let respaced = (origin.iter().enumerate())
            .map(|(line, &(original_line, own))| {
                if !own || original_line >= original_lines.len() {
                    return Vec::new();
                }
                let here = line_text(&preprocessed_lines, preprocessed, line);
                let there = line_text(&original_lines, original, original_line);
                if here == there {
                    return Vec::new();
                }
                respacing(here, there).unwrap_or_default()
            })
            .collect();
        SourceMap {
            preprocessed_lines,
            origin,
            original_lines,
            original_len: original.len(),
            respaced,
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
            let column = offset - self.preprocessed_lines[line];
            let anchors = self.respaced.get(line).map_or(&[][..], Vec::as_slice);
            let column = match anchors.partition_point(|&(here, _)| here <= column) {
                0 => column,
                k => {
                    let (here, there) = anchors[k - 1];
                    there + (column - here)
                }
            };
            (start + column).min(end)
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
    fn respaced_lines_map_columns_to_the_same_characters() {
        // gcc -E turns the tab into a space and the two blanks into one.
        let original = "int main() {\n\ttmp =  f();\n}\n";
        let preprocessed = "# 1 \"p.c\"\nint main() {\n tmp = f();\n}\n";
        let map = SourceMap::from_markers(preprocessed, original);
        let call = preprocessed.find("f()").unwrap();
        assert_eq!(map.offset(call), original.find("f()").unwrap());
        let tmp = preprocessed.find("tmp").unwrap();
        assert_eq!(map.offset(tmp), original.find("tmp").unwrap());
        // A line that differs in more than blanks (a macro expanded) maps column by column.
        assert_eq!(respacing(b"x = 1;", b"x = ONE;"), None);
        assert_eq!(respacing(b" a  b", b"a b"), Some(vec![(1, 0), (4, 2)]));
    }

    #[test]
    fn markers_are_recognized() {
        assert_eq!(line_marker("# 12 \"a.c\" 2"), Some((12, "a.c")));
        assert_eq!(line_marker("#line 3 \"b.c\""), Some((3, "b.c")));
        assert_eq!(line_marker("#pragma once"), None);
    }
}
