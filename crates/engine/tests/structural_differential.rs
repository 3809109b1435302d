//! Differential test of the structural engine against the forward one on generated programs
//! with calls (pure and writing callees, heaps, arrays, divisions, loops of at most two
//! iterations): a violation one engine finds must not be `safe` in the other, and neither may
//! report a counterexample the interpreter does not replay. Both lazy refinement and eager
//! inlining are compared.

use std::time::Duration;

use symex_engine::{check_forward, check_structural, CheckOptions, RefineMode, StructuralOptions};
use symex_gen::{generate, GenConfig};

mod support;

const UNWIND: u32 = 2;

/// Compares the engines on one program; returns how many violations they agreed on.
fn compare(source: &str, seed: u64, refine: RefineMode, failures: &mut Vec<String>) -> usize {
    let front = symex_syntax::analyze(source).expect("generated programs parse");
    let types = front.types.expect("generated programs are well typed");
    let module = symex_ir::lower(&front.program);
    let options = CheckOptions {
        unwind: Some(UNWIND),
        timeout: Some(Duration::from_secs(10)),
        ..CheckOptions::default()
    };
    let forward = check_forward(&module, &types, source, "gen.uc", "main", &options)
        .expect("the forward check runs");
    let structural = StructuralOptions {
        refine,
        ..StructuralOptions::default()
    };
    let report = match check_structural(
        &module,
        &types,
        source,
        "gen.uc",
        "main",
        &options,
        &structural,
    ) {
        Ok(report) => report,
        Err(e) => {
            failures.push(format!("seed {seed}: the structural check failed: {e}"));
            return 0;
        }
    };
    support::agreeing_violations(
        &forward,
        &report,
        ["forward", &format!("structural ({})", refine.name())],
        seed,
        source,
        failures,
    )
}

/// Several functions calling earlier ones, with heaps, arrays and divisions; linear arithmetic
/// (products of two computed 32-bit values make single queries take seconds).
fn config() -> GenConfig {
    GenConfig {
        functions: 4,
        statements: 4,
        nested_statements: 2,
        max_block_depth: 2,
        max_loop_depth: 1,
        loop_percent: 5,
        for_percent: 10,
        if_percent: 25,
        max_loop_bound: 2,
        calls: true,
        heap: true,
        arrays: true,
        divisions: true,
        asserts: true,
        linear: true,
        ..GenConfig::default()
    }
}

/// Six generated programs under one refinement mode; one test per mode, so that the test
/// harness runs them side by side.
fn agree_on_generated_programs(refine: RefineMode) {
    let mut failures = Vec::new();
    let mut agreed = 0;
    for seed in 0..6 {
        let source = generate(&config(), seed);
        agreed += compare(&source, seed, refine, &mut failures);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(
        agreed >= 5,
        "only {agreed} violations found by both engines"
    );
}

#[test]
fn lazy_refinement_and_forward_agree_on_generated_programs_with_calls() {
    agree_on_generated_programs(RefineMode::Lazy);
}

#[test]
fn eager_inlining_and_forward_agree_on_generated_programs_with_calls() {
    agree_on_generated_programs(RefineMode::Eager);
}
