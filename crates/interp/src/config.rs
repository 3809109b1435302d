//! Run configuration: the resource limits of one run and whether to record the executed path
//! and its events.
//!
//! Every limit turns what would be a hang, a crash or an out-of-memory into a clean
//! [`crate::RunEnd::LimitExceeded`] outcome. This module only holds numbers; `exec` enforces them.

use std::time::Instant;

/// Default maximum number of active micro-c frames (`main` counts as one). Frames live on an
/// explicit stack, so this protects memory and time, not the Rust stack: 100,000 frames of a
/// typical function take a few megabytes.
pub const DEFAULT_MAX_CALL_DEPTH: usize = 100_000;

/// Default maximum number of memory cells (heap cells from `alloc` plus cells of address-taken
/// locals, one per activation). 16 million cells are 256 MiB of 16-byte values.
pub const DEFAULT_MAX_CELLS: usize = 16 * 1024 * 1024;

/// Default maximum nesting of record/array values (`[[[1]]]` has depth 3). Course programs nest
/// two or three levels; the bound keeps dropping and comparing values free of deep recursion.
pub const DEFAULT_MAX_NESTING: u32 = 1_000;

/// Instructions between two readings of the clock when a run has a deadline: a power of two
/// (a mask test per instruction), about a millisecond of execution.
pub const DEADLINE_POLL: u64 = 1 << 16;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunConfig {
    /// Stop with [`Limit::CallDepth`] when a call would make more frames active than this.
    pub max_call_depth: usize,
    /// Stop with [`Limit::Steps`] after this many IR instructions (terminators included);
    /// `None` runs until the program ends.
    pub max_steps: Option<u64>,
    /// Stop with [`Limit::Time`] at this instant (the clock is read every
    /// [`DEADLINE_POLL`] instructions).
    pub deadline: Option<Instant>,
    /// Stop with [`Limit::Cells`] when a run would create more memory cells than this.
    pub max_cells: usize,
    /// Stop with [`Limit::Nesting`] when a record/array value would nest deeper than this.
    pub max_nesting: u32,
    /// Record the executed path (every block entered) in the outcome.
    pub record_path: bool,
    /// Record the run's events (branches, calls, returns, assignments, inputs) in the outcome.
    pub record_events: bool,
    /// Record which instructions and branch directions the run executed, in the outcome.
    pub record_coverage: bool,
    /// Record the span of every `input` instruction the run executed, in order (all of them,
    /// unlike events): where each input number was read.
    pub record_input_sites: bool,
}

impl Default for RunConfig {
    fn default() -> RunConfig {
        RunConfig {
            max_call_depth: DEFAULT_MAX_CALL_DEPTH,
            max_steps: None,
            deadline: None,
            max_cells: DEFAULT_MAX_CELLS,
            max_nesting: DEFAULT_MAX_NESTING,
            record_path: false,
            record_events: false,
            record_coverage: false,
            record_input_sites: false,
        }
    }
}

impl RunConfig {
    pub fn with_max_steps(mut self, steps: u64) -> RunConfig {
        self.max_steps = Some(steps);
        self
    }

    pub fn with_deadline(mut self, deadline: Instant) -> RunConfig {
        self.deadline = Some(deadline);
        self
    }

    pub fn with_max_call_depth(mut self, depth: usize) -> RunConfig {
        self.max_call_depth = depth;
        self
    }

    pub fn with_path(mut self) -> RunConfig {
        self.record_path = true;
        self
    }

    pub fn with_events(mut self) -> RunConfig {
        self.record_events = true;
        self
    }

    pub fn with_coverage(mut self) -> RunConfig {
        self.record_coverage = true;
        self
    }

    pub fn with_input_sites(mut self) -> RunConfig {
        self.record_input_sites = true;
        self
    }
}

/// Which limit stopped a run, with the limit's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    CallDepth(usize),
    Steps(u64),
    Cells(usize),
    Nesting(u32),
    /// The run's deadline passed.
    Time,
}

impl std::fmt::Display for Limit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Limit::CallDepth(n) => write!(f, "call depth limit exceeded ({n} frames)"),
            Limit::Steps(n) => write!(f, "step limit exceeded ({n} instructions)"),
            Limit::Cells(n) => write!(f, "memory limit exceeded ({n} cells)"),
            Limit::Nesting(n) => write!(f, "value nesting limit exceeded (depth {n})"),
            Limit::Time => write!(f, "time limit reached"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_and_builders() {
        let c = RunConfig::default();
        assert_eq!(c.max_call_depth, DEFAULT_MAX_CALL_DEPTH);
        assert_eq!(c.max_steps, None);
        assert!(!c.record_path);
        let c = c.with_max_steps(10).with_max_call_depth(3).with_path();
        assert_eq!(
            (c.max_steps, c.max_call_depth, c.record_path),
            (Some(10), 3, true)
        );
    }

    #[test]
    fn limit_messages_name_the_limit() {
        assert_eq!(
            Limit::CallDepth(5).to_string(),
            "call depth limit exceeded (5 frames)"
        );
        assert!(Limit::Steps(7)
            .to_string()
            .starts_with("step limit exceeded"));
    }
}
