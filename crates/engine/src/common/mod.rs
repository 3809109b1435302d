//! What every engine shares: options and bounds ([`options`]), the time and memory limits
//! every engine polls ([`budget`]), the entry function's set-up
//! ([`entry`]), the translation of IR operations into terms ([`terms`]), the solver stack
//! ([`solver`]), the replay of counterexamples through the concrete interpreter ([`replay`]),
//! coverage bookkeeping ([`coverage`]), a seeded random source ([`rng`]), `--reach` targets
//! ([`reach`]) and a property's verdict from an engine's finding ([`verdict`]).
//!
//! Nothing here explores paths or chooses states: that is each engine's job.

pub mod budget;
pub mod coverage;
pub mod emitted;
pub mod entry;
pub mod options;
pub mod progress;
pub mod reach;
pub mod replay;
pub mod rng;
pub mod shared;
pub mod solver;
pub mod steps;
pub mod terms;
pub mod verdict;
