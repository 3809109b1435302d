//! The forward engine (seed 002, Rozhoň; KLEE): states run forward from the entry, fork at
//! feasible branches, and every check is a solver query on the path condition.
//!
//! * `state`, `memory`, `value`, `trace`: what a state is, shared structurally between forks;
//! * `machine`, `exec`, `access`, `checks`: one step of one state;
//! * `program`: per-function facts computed once (cell-backed locals, loops for `--unwind`);
//! * `tree`, `search`: the execution tree and the strategies that pick the next state;
//! * `merge`: state merging at join points (`--merge`); `qce`: the query count estimates that
//!   decide which states `--merge qce|dynamic` merge; `dynamic`: the fast-forwarding of
//!   `--merge dynamic`;
//! * `subsume`: path subsumption by annotations (`--subsume`);
//! * `summarize`: loop summarization at loop headers (`--summarize`);
//! * `driver`: the main loop, the limits and the report; `progress`: the status line;
//! * `heap_hooks`: where the heap models of `crate::heap` enter a step (pointer parameters).

mod access;
mod checks;
mod driver;
mod dynamic;
mod exec;
mod heap_hooks;
mod machine;
mod memory;
mod merge;
mod program;
mod progress;
mod qce;
mod search;
mod state;
mod subsume;
mod summarize;
mod trace;
mod tree;
pub(crate) mod value;

pub use driver::check_forward;
