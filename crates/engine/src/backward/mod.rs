//! The backward engine (seeds 000 and 001, Husák et al., AskTheCode): from one target property
//! back to the entry, over the program unwound into an acyclic graph, with the heap in the theory
//! of arrays and the input heap kept apart from allocated cells.
//!
//! * `options`: `--bse-variant` (the six algorithms of the paper's Table 3), `--target`;
//! * `ops`, `graph`, `types`: the unwound graph of atomic operations (loops unwound and calls
//!   inlined to `--unwind` K, cuts recorded);
//! * `heap`: the [`heap::SymbolicHeap`] trait and the array model of P §4; `typing`: the tags
//!   of input cells when the entry reaches several kinds of cell;
//! * `encode`, `disj`, `conj`: disjunct propagation and conjunct combination;
//! * `model`, `walk`, `witness`: the counterexample (arguments, input heap document, path, heap
//!   graphs);
//! * `driver`: [`check_backward`], one search per property.
//!
//! Nothing here decides a verdict: `Verdict::conclude` does, from the findings and cuts.

mod conj;
mod disj;
mod driver;
mod encode;
pub mod graph;
pub mod heap;
mod model;
pub mod ops;
pub mod options;
#[cfg(test)]
mod paper_tables;
mod restarts;
mod simplify;
mod types;
pub mod typing;
mod walk;
mod witness;

pub use driver::{check_backward, check_backward_traced, search, BackwardOutcome};
pub use encode::{SearchOutcome, SearchStats};
pub use options::{BackwardOptions, BseVariant, Target, DEFAULT_UNWIND};
pub use types::TypeFacts;
