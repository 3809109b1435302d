//! What a corpus file claims: the parsed `//!` header as plain data (see
//! `shared/corpus/README.md` for the format). Nothing here reads files or runs programs.

use std::path::PathBuf;

use symex_ir::cfg::PropertyKind;

/// Which corpus folder a file comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Origin {
    /// `vendor/corpus`, copied from `../shared/corpus` (the expectation corpus shared by every
    /// engine).
    Shared,
    /// The project's own `corpus/` folder.
    Project,
}

/// One `.uc` program and the facts its header states.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CorpusFile {
    pub path: PathBuf,
    pub origin: Origin,
    /// The file name, e.g. `basic_mod_zero.uc`.
    pub name: String,
    pub source: String,
    /// `verdict:` lines, in order.
    pub verdicts: Vec<Verdict>,
    /// `entry:` (the analysed function; `run:` lines always run `main`).
    pub entry: Option<String>,
    pub runs: Vec<RunLine>,
    pub bound: Option<u32>,
    pub paths: Option<u64>,
    pub traces: Option<Traces>,
    pub notes: Vec<String>,
    pub sources: Vec<String>,
}

impl CorpusFile {
    /// `origin/name`, e.g. `shared/basic_mod_zero.uc`: short and unique, for reports.
    pub fn label(&self) -> String {
        let folder = match self.origin {
            Origin::Shared => "shared",
            Origin::Project => "project",
        };
        format!("{folder}/{}", self.name)
    }

    /// The analysed function: `entry:` or `main`.
    pub fn entry_function(&self) -> &str {
        self.entry.as_deref().unwrap_or("main")
    }

    pub fn is_safe(&self) -> bool {
        self.verdicts.contains(&Verdict::Safe)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// No runtime error is reachable (up to `bound` if the file has one).
    Safe,
    /// The error `kind` is reachable at source line `line`.
    Violated { kind: PropertyKind, line: u32 },
}

/// A concrete run of `main`: `run: input=… output=… result=N` or `… error=KIND line N`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunLine {
    /// The line of the header this run is written on (1-based), for messages.
    pub header_line: u32,
    pub input: Vec<i32>,
    pub output: Vec<i32>,
    pub end: ExpectedEnd,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExpectedEnd {
    /// `main` returns this number.
    Result(i32),
    /// The run stops with the runtime error `kind` whose site starts on source line `line`.
    Error { kind: PropertyKind, line: u32 },
}

impl std::fmt::Display for ExpectedEnd {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ExpectedEnd::Result(n) => write!(f, "result={n}"),
            ExpectedEnd::Error { kind, line } => write!(f, "error={} line {line}", kind.name()),
        }
    }
}

/// `traces: li=A lazier#=B pose=C`: trace counts of the heap engines (each optional).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Traces {
    pub li: Option<u64>,
    pub lazier: Option<u64>,
    pub pose: Option<u64>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expected_end_prints_in_header_syntax() {
        assert_eq!(ExpectedEnd::Result(-3).to_string(), "result=-3");
        assert_eq!(
            ExpectedEnd::Error {
                kind: PropertyKind::OutOfBounds,
                line: 9
            }
            .to_string(),
            "error=out-of-bounds line 9"
        );
    }
}
