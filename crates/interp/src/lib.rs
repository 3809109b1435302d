//! The concrete interpreter of micro-c over the IR: the project's reference semantics and the
//! judge that replays every counterexample of the symbolic engines.
//!
//! Semantics (`shared/docs/microc.md`): 32-bit wrap-around numbers like a JVM `Int`; pointers to
//! cells compared by identity; records and arrays as values with copy semantics; dynamic typing,
//! so an ill-typed program runs until a mismatch actually happens ([`RunEnd::TypeError`]); the
//! five properties fail exactly where the IR's `Check` instructions say ([`RunEnd::RuntimeError`]).
//! `input` yields -1 once the input list is exhausted.
//!
//! Design: a module is validated once ([`Interpreter::new`]); a run keeps all frames' locals in one
//! contiguous stack (no Rust recursion per micro-c call), counts instructions, and stops cleanly at
//! the limits of [`RunConfig`]. It never panics on a module that `lower` produces, and it never
//! reads the source text or the static types.
//!
//! ```text
//! let interp = Interpreter::new(&module)?;
//! let outcome = interp.run_main(&[1, 2], &RunConfig::default())?;
//! // an entry whose pointer parameters point into an input heap (docs/heap-json.md):
//! let entry = Entry::with_heap_json(&module, "length", r#"{"args": {"l": null}}"#)?;
//! let outcome = interp.run(&entry, &[], &RunConfig::default())?;
//! ```

mod config;
mod entry;
mod exec;
mod fault;
mod heap;
mod interpreter;
mod memory;
mod ops;
mod outcome;
mod place;
mod prepare;
mod reachability;
mod record;
mod step;
#[cfg(test)]
mod testing;
mod value;

pub use config::{
    Limit, RunConfig, DEADLINE_POLL, DEFAULT_MAX_CALL_DEPTH, DEFAULT_MAX_CELLS, DEFAULT_MAX_NESTING,
};
pub use entry::{ArgValue, Entry, EntryError};
pub use heap::{HeapContents, HeapError, HeapObject, HeapSite, InputHeap, ObjectId};
pub use interpreter::Interpreter;
pub use outcome::{
    Access, EventKind, PathStep, RunCoverage, RunEnd, RunEvent, RunOutcome, StoreTarget,
};
pub use prepare::ModuleError;
pub use record::MAX_EVENTS;
pub use value::{Array, CellId, Record, Value};
