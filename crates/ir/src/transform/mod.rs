//! Transformations of one function's graph into another graph for engines: the original IR is
//! never changed (the concrete interpreter runs it), and every result keeps the original spans
//! and property ids.
//!
//! * [`unwind()`]: loops unwound K times into an acyclic graph with one exit.

mod unwind;

pub use unwind::{unwind, UnwindError, Unwound};
