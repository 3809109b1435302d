//! The forward engine (seed 002, Rozhoň; KLEE): states run forward from the entry, fork at
//! feasible branches, and every check is a solver query on the path condition.
//!
//! * `state`, `memory`, `value`: what a state is, shared structurally between forks;
//! * `machine`, `exec`, `access`, `checks`: one step of one state;
//! * `program`: per-function facts computed once (cell-backed locals, loops for `--unwind`);
//! * `tree`, `search`: the execution tree and the strategies that pick the next state;
//! * `merge`: state merging at join points (`--merge`); `qce`: the query count estimates that
//!   decide which states `--merge qce|dynamic` merge; `dynamic`: the fast-forwarding of
//!   `--merge dynamic`;
//! * `subsume`: path subsumption by annotations (`--subsume`);
//! * `matching`: pruning states equal to one seen before at a loop header (`--match-states`),
//!   by what `live` (strong liveness) says their futures can observe;
//! * `summarize`: loop summarization at loop headers (`--summarize`);
//! * `driver`: the main loop, the limits and the report; `progress`: the status line;
//! * `heap_hooks`: where the heap models of `crate::heap` enter a step (pointer parameters).

mod access;
mod checks;
mod chunked;
mod driver;
mod dynamic;
mod emit;
mod exec;
mod heap_hooks;
mod live;
mod locals;
mod machine;
mod matching;
mod memory;
mod merge;
mod program;
mod qce;
mod reachability;
mod search;
mod state;
mod subsume;
mod summarize;
mod tree;
pub(crate) mod value;
mod write_log;

pub use driver::check_forward;

/// `--reach LINE` on the forward engine: is there an input with which `entry` executes a
/// statement of `line`? The report holds only that reach property (`common::reach`).
pub fn check_forward_reach(
    module: &symex_ir::cfg::Module,
    types: &symex_syntax::types::TypeTable,
    source: &str,
    program_name: &str,
    entry: &str,
    options: &crate::CheckOptions,
    line: u32,
) -> Result<symex_report::Report, crate::EngineError> {
    let (module, _) = crate::common::reach::reach_module(module, source, line)?;
    check_forward(&module, types, source, program_name, entry, options)
        .map(crate::common::reach::reach_report)
}
