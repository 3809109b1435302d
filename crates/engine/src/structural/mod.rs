//! The structural engine (seed 004, Babić's Calysto, thesis chapters 3 and 4):
//! structure-preserving symbolic execution of each function into a maximally shared term graph,
//! one summary per side effect, and structural abstraction and refinement of calls.
//!
//! * `effects`: the side effects and goals of every function, known before any is executed;
//! * `gating`: gating path expressions (Definition 4) of an acyclic graph;
//! * `value`, `exec`: Algorithms 1 and 2 over a function unwound K times
//!   ([`symex_ir::transform::unwind`]), giving a `summary`;
//! * `instances`: summary operators in calling contexts, expanded one side effect at a time;
//! * `refine`: Algorithms 3–5, the abstraction–refinement loop on one incremental solver;
//! * `driver`: [`check_structural`], one VC per property and per cut kind.
//!
//! Where the thesis approximates (one node per allocation site, loops unrolled once and closed
//! by an assumption, non-aliased terminal pointers), this engine is exact or says so: memory is
//! one SMT array per heap slot, a loop iteration beyond K is a cut that makes verdicts
//! `safe up to K`, and a construct it does not model is a cut that makes them `unknown`.
//! Design and differences: `docs/engine-structural.md`.

mod driver;
mod effects;
mod exec;
mod gating;
mod instances;
mod refine;
mod summary;
mod value;

pub use driver::{check_structural, RefineMode, StructuralOptions, DEFAULT_UNWIND};
