//! A problem with a corpus file: unreadable, or a header line that does not parse. Always names
//! the file, and the line when there is one.

use std::path::PathBuf;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CorpusError {
    pub path: PathBuf,
    /// 1-based line of the file, when the problem is on one line.
    pub line: Option<u32>,
    pub message: String,
}

impl std::fmt::Display for CorpusError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.line {
            Some(line) => write!(f, "{}:{line}: {}", self.path.display(), self.message),
            None => write!(f, "{}: {}", self.path.display(), self.message),
        }
    }
}

impl std::error::Error for CorpusError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_file_and_line() {
        let e = CorpusError {
            path: "a/b.uc".into(),
            line: Some(3),
            message: "unknown key `foo`".into(),
        };
        assert_eq!(e.to_string(), "a/b.uc:3: unknown key `foo`");
        let e = CorpusError { line: None, ..e };
        assert_eq!(e.to_string(), "a/b.uc: unknown key `foo`");
    }
}
