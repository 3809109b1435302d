//! Helpers shared by the integration tests: back-end constructors that fail loudly (naming the
//! missing solver) and a small deterministic random generator.

#![allow(dead_code)] // each test file uses its own subset

use symex_smt::{ProcessConfig, ProcessSolver, Z3Solver};

/// Z3 through the C API.
pub fn z3_api() -> Z3Solver {
    Z3Solver::new().unwrap_or_else(|e| panic!("the Z3 C API back end does not start: {e}"))
}

/// A solver process; a missing binary fails the test with the install hint.
pub fn process(config: ProcessConfig) -> ProcessSolver {
    let program = config.program.clone();
    ProcessSolver::new(config).unwrap_or_else(|e| {
        panic!("these tests need the `{program}` binary (apt-get install -y z3 cvc5): {e}")
    })
}

/// `z3 -in` as a process.
pub fn z3_process() -> ProcessSolver {
    process(ProcessConfig::z3())
}

/// `cvc5 --incremental --lang smt2` as a process.
pub fn cvc5_process() -> ProcessSolver {
    process(ProcessConfig::cvc5())
}

/// Runs a solver binary on a file and returns its first output line.
pub fn run_binary(program: &str, args: &[&str]) -> String {
    let out = std::process::Command::new(program)
        .args(args)
        .output()
        .unwrap_or_else(|e| {
            panic!("these tests need the `{program}` binary (apt-get install -y z3 cvc5): {e}")
        });
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .next()
        .unwrap_or("")
        .trim()
        .to_string()
}

/// xorshift64*: deterministic, good enough for generating test queries.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed.max(1))
    }

    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// Uniform in `0..n` (n > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len() as u64) as usize]
    }
}
