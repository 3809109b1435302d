//! The micro-c intermediate representation: per-function control-flow graphs of three-address
//! instructions with every runtime-error check explicit (layer 2 of `docs/architecture.md`).
//!
//! * [`mod@cfg`]: the data contract shared by the interpreter and every engine;
//! * [`lower()`]: a resolved AST ([`symex_syntax::analyze`]) becomes a [`Module`];
//! * [`build`]: the block and check bookkeeping every front end's lowering shares;
//!   [`promote`]: the removal of `Init` checks that every path passes (front ends other than
//!   micro-c);
//! * [`verify()`]: checks the invariants of [`mod@cfg`] (used by tests on every lowered program);
//! * [`analysis`]: reverse postorder, dominators, post-dominators, dominance frontiers, natural
//!   loops and their nesting;
//! * [`transform`]: loop unwinding into an acyclic graph (engines that work on whole graphs);
//! * [`reach`]: a `--reach LINE` target added to a module as a property of kind `reach`;
//! * [`unreached`]: what [`Rvalue::Unreached`] counts, over any memory of cells;
//! * [`mod@print`] and [`dot`]: deterministic text and Graphviz renderings (`symex cfg`).
//!
//! Nothing here executes a program or consults a solver, and lowering never depends on types:
//! ill-typed programs lower like any other, because the concrete interpreter runs them.

pub mod analysis;
pub mod build;
pub mod cfg;
pub mod dot;
pub mod lower;
pub mod print;
pub mod promote;
pub mod reach;
pub mod transform;
pub mod unreached;
pub mod verify;
mod visit;

#[cfg(test)]
mod test_support;

pub use cfg::*;
pub use lower::lower;
pub use promote::promote_assigned_vars;
pub use reach::{instrument_reach, NoStatement};
pub use verify::verify;
