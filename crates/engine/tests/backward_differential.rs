//! Differential test of the backward engine against the forward one on generated heap programs:
//! `symex_gen` programs with local heaps and calls (entry `main`, small loop bounds) and
//! `symex_gen::lists` functions whose pointer parameters are input heaps (entry `f`, lists; entry
//! `g`, a list and a tree: typed input cells). For every
//! property, a violation one engine finds must not be `safe` in the other, and neither engine
//! may report a counterexample the interpreter does not replay (`violated` is only ever a
//! replayed witness; an unconfirmed one is a failure here).

use std::time::Duration;

use symex_engine::backward::{check_backward, BackwardOptions};
use symex_engine::{check_forward, CheckOptions, EngineError};
use symex_gen::{generate, GenConfig};

mod support;

const UNWIND: u32 = 2;

/// Compares the two engines on one program; returns how many violations they agreed on.
fn compare(source: &str, entry: &str, seed: u64, failures: &mut Vec<String>) -> usize {
    let front = symex_syntax::analyze(source).expect("generated programs parse");
    let types = front.types.expect("generated programs are well typed");
    let module = symex_ir::lower(&front.program);
    let options = CheckOptions {
        unwind: Some(UNWIND),
        timeout: Some(Duration::from_secs(10)),
        ..CheckOptions::default()
    };
    let forward = check_forward(&module, &types, source, "gen.uc", entry, &options)
        .expect("the forward check runs");
    let backward = match check_backward(
        &module,
        &types,
        source,
        "gen.uc",
        entry,
        &options,
        &BackwardOptions::default(),
    ) {
        Ok(report) => report,
        Err(EngineError::UnsupportedEntry { .. }) => return 0,
        Err(e) => {
            failures.push(format!("seed {seed}: the backward check failed: {e}"));
            return 0;
        }
    };
    support::agreeing_violations(
        &forward,
        &backward,
        ["forward", "backward"],
        seed,
        source,
        failures,
    )
}

/// Local heaps, calls (inlined by the backward engine), loops of at most two iterations; no
/// arrays (the backward engine leaves them `unknown`) and linear arithmetic.
fn config() -> GenConfig {
    GenConfig {
        functions: 1,
        statements: 3,
        nested_statements: 2,
        max_block_depth: 1,
        max_loop_depth: 1,
        loop_percent: 5,
        for_percent: 10,
        if_percent: 25,
        max_loop_bound: 2,
        arrays: false,
        symbolic_indices: false,
        divisions: false,
        linear: true,
        ..GenConfig::default()
    }
}

#[test]
fn backward_and_forward_agree_on_generated_heap_programs() {
    let mut failures = Vec::new();
    let mut agreed = 0;
    for seed in 0..2 {
        agreed += compare(&generate(&config(), seed), "main", seed, &mut failures);
    }
    for seed in 0..6 {
        let source = symex_gen::lists::pointer_entry_program(seed);
        agreed += compare(&source, "f", seed, &mut failures);
    }
    // Two record types from the parameters: typed input cells.
    for seed in 0..4 {
        let source = symex_gen::lists::two_kind_entry_program(seed);
        agreed += compare(&source, "g", seed, &mut failures);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(
        agreed >= 10,
        "only {agreed} violations found by both engines"
    );
}
