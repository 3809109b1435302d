//! Symbolic input heaps (seed 003, Braione & Denaro): the pointer parameters of an entry point
//! into a heap nobody wrote, whose shape the analysis discovers as the program accesses it.
//!
//! Three heap models plug into the forward engine (`--heap li|lazier|pose`); they share one
//! representation and differ only in *when* a state forks:
//! * an input reference is a `SymValue::Ref` holding a 32-bit term over input reference
//!   symbols (`s`, `s.next`, …; 0 is null); POSE builds `ite` terms over them;
//! * an input object (`objects::InputObject`) has an identity term (its symbol under POSE, a
//!   constant once lazy initialization resolved a reference to it) and lazily initialized
//!   slots (fields, or the whole cell of a non-record pointee);
//! * `access` refines (binds objects, initializes slots, ties aliases' initial values),
//!   reads through reference terms (Getfield c1/c2) and writes with alias updates (`update`);
//! * `resolve` is lazy initialization and lazier#: the forks over null / aliases / fresh;
//! * `witness` turns a model into the input-heap document of docs/heap-json.md, `context`
//!   holds what a whole check shares (symbols, pointee types, bounds).
//!
//! Nothing here chooses states, checks properties or builds reports: the forward engine does,
//! calling [`HeapContext`] before and during the instructions that touch input references.

mod access;
mod context;
mod objects;
mod resolve;
#[cfg(test)]
mod tests;
mod witness;

pub use access::{leaves, Access, Refined};
pub use context::{HeapContext, TypeKey};
pub use objects::{HeapState, InputObject, Slot};
pub use resolve::{substitute as resolve_substitute, Resolution};
pub use witness::{bookkeeping_at_input, HeapWitness};
