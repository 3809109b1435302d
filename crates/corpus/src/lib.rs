//! The expectation corpus: finding its `.uc` files and parsing their `//!` headers.
//!
//! This crate is the one place that knows the header format (`shared/corpus/README.md`). It runs
//! nothing: each engine's tests call [`all_files`] and check the lines that apply to them (the
//! concrete interpreter checks `run:` lines in `tests/run_lines.rs`; symbolic engines check
//! `verdict:`, `bound:`, `paths:` and `traces:`).
//!
//! ```text
//! for file in symex_corpus::all_files().map_err(report)? {
//!     for run in &file.runs { /* run main on run.input, compare run.output and run.end */ }
//! }
//! ```

mod discover;
mod error;
mod header;
mod model;

pub use discover::{
    all_files, files_in_folders, load, project_corpus_dir, shared_corpus_dir, shared_dir,
    uc_files_in, vendor_dir, SHARED_CORPUS_ENV,
};
pub use error::CorpusError;
pub use header::parse;
pub use model::{CorpusFile, ExpectedEnd, Origin, RunLine, Traces, Verdict};
