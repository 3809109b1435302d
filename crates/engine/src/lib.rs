//! `symex-engine`: the symbolic-execution engines of symex (layer 5 of `docs/architecture.md`).
//!
//! * [`common`]: what every engine shares: [`CheckOptions`] and its bounds, entry set-up,
//!   translation of IR operations into solver terms, and the replay of counterexamples through
//!   the concrete interpreter;
//! * [`forward`]: the KLEE-style forward engine (seed 002, Rozhoň §3 and §5), behind
//!   [`check_forward`];
//! * [`backward`]: backward symbolic execution with a heap in the theory of arrays (seeds 000
//!   and 001, AskTheCode), behind [`check_backward`].
//! * [`heap`]: symbolic input heaps for entries with pointer parameters (seed 003): lazy
//!   initialization, lazier#, POSE, as heap models of the forward engine (`--heap`).
//! * [`structural`]: structure-preserving symbolic execution with structural abstraction and
//!   refinement (seed 004, Calysto), behind [`check_structural`].
//!
//! An engine never decides a verdict itself: it reports findings and cuts, and
//! `symex_report::Verdict::conclude` applies the two rules (no `safe` after a cut, no
//! `violated` without a confirmed replay). Nothing here parses, prints or exits.
//!
//! ```text
//! let report = check_forward(&module, &types, &source, "p.uc", "main", &CheckOptions::default())?;
//! std::process::exit(report.exit_class().code());
//! ```

pub mod backward;
pub mod common;
mod error;
pub mod forward;
pub mod heap;
pub mod structural;

pub use backward::{check_backward, BackwardOptions, BseVariant};
pub use common::options::{
    CheckOptions, HeapModel, IndexMode, MergeMode, MergeOptions, QceEstimate, SearchStrategy,
    SolverChoice, StopOnFirst, TraceRules,
};
pub use error::EngineError;
pub use forward::{check_forward, check_forward_reach};
pub use structural::{check_structural, RefineMode, StructuralOptions};
