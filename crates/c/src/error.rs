//! Why a C file cannot be checked: a construct symex does not support, a syntax error, a program
//! that is not valid C, or a preprocessor failure, each located in the file the user wrote.

use std::fmt;

use symex_syntax::span::LineIndex;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// Valid C that symex does not translate (yet): never translated approximately.
    Unsupported,
    /// The parser rejected the text.
    Syntax,
    /// Not a valid C program (an undeclared name, a wrong number of arguments, ...).
    Invalid,
    /// The preprocessor could not be run or failed.
    Preprocessor,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CError {
    pub kind: ErrorKind,
    pub message: String,
    /// Byte offset in the original file, when the error has a place.
    pub offset: Option<usize>,
}

impl CError {
    pub fn unsupported(what: impl Into<String>, offset: usize) -> CError {
        CError {
            kind: ErrorKind::Unsupported,
            message: what.into(),
            offset: Some(offset),
        }
    }

    pub fn invalid(what: impl Into<String>, offset: usize) -> CError {
        CError {
            kind: ErrorKind::Invalid,
            message: what.into(),
            offset: Some(offset),
        }
    }

    /// One line for the user: `unsupported: <construct> at file:line:col`, `error: ...`.
    pub fn render(&self, file: &str, original: &str) -> String {
        let prefix = match self.kind {
            ErrorKind::Unsupported => "unsupported",
            ErrorKind::Syntax => "syntax error",
            ErrorKind::Invalid => "error",
            ErrorKind::Preprocessor => "preprocessor error",
        };
        match self.offset {
            Some(offset) => {
                let at =
                    LineIndex::new(original).start(symex_syntax::span::Span::new(offset, offset));
                format!(
                    "{prefix}: {} at {file}:{}:{}",
                    self.message, at.line, at.column
                )
            }
            None => format!("{prefix}: {}", self.message),
        }
    }
}

impl fmt::Display for CError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for CError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rendered_errors_say_what_and_where() {
        let e = CError::unsupported("pointer types", 9);
        assert_eq!(
            e.render("p.c", "int x;\nint *p;\n"),
            "unsupported: pointer types at p.c:2:3"
        );
    }
}
