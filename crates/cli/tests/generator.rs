//! The generator's promises checked with the interpreter (`symex-gen` itself does not depend on
//! it): guaranteed errors fire exactly for their selecting input, and null pointers and symbolic
//! indices really make null dereferences and out-of-bounds accesses reachable.

use symex_gen::{generate, GenConfig};
use symex_interp::{Interpreter, RunConfig, RunEnd};
use symex_ir::PropertyKind;

/// A config whose only possible runtime errors are the ones a test switches back on.
fn quiet() -> GenConfig {
    GenConfig {
        functions: 2,
        statements: 6,
        divisions: false,
        asserts: false,
        null_pointers: false,
        symbolic_indices: false,
        ..GenConfig::default()
    }
}

/// Runs `main` of `source` on `input`; the end of the run and the 1-based line it ended on.
fn run(source: &str, input: &[i32]) -> (RunEnd, usize) {
    let front = symex_syntax::analyze(source).expect("generated programs are valid");
    assert!(front.types.is_ok(), "ill-typed:\n{source}");
    let module = symex_ir::lower(&front.program);
    let interpreter = Interpreter::new(&module).expect("valid module");
    let end = interpreter
        .run_main(input, &RunConfig::default().with_max_steps(2_000_000))
        .expect("main runs")
        .end;
    let at = match &end {
        RunEnd::RuntimeError { span, .. } => source[..span.start as usize].lines().count(),
        _ => 0,
    };
    (end, at)
}

/// The selector constants of the guaranteed errors, with the line of each failing statement.
fn guaranteed(source: &str) -> Vec<(i32, usize)> {
    source
        .lines()
        .enumerate()
        .filter_map(|(i, line)| {
            let c = line.strip_prefix("  if (sel == ")?.strip_suffix(") {")?;
            // The failing statement is the last one of the block (a null error sets first).
            let last = source
                .lines()
                .skip(i + 1)
                .take_while(|l| l != &"  }")
                .count();
            Some((c.parse().ok()?, i + 1 + last))
        })
        .collect()
}

#[test]
fn each_guaranteed_error_fires_for_its_input_and_no_other_error_happens() {
    for seed in 0..25 {
        let source = generate(
            &GenConfig {
                errors: 3,
                ..quiet()
            },
            seed,
        );
        let errors = guaranteed(&source);
        assert_eq!(errors.len(), 3, "{source}");
        for (selector, line) in &errors {
            let (end, at) = run(&source, &[*selector, 5, -2, 0, 3]);
            assert!(
                matches!(end, RunEnd::RuntimeError { .. }) && at == *line,
                "seed {seed}: selector {selector} expected an error on line {line}, got {end:?} on line {at}\n{source}"
            );
        }
        let (end, _) = run(&source, &[0, 5, -2, 0, 3]);
        assert!(
            matches!(end, RunEnd::Returned(_) | RunEnd::LimitExceeded { .. }),
            "seed {seed}: {end:?}\n{source}"
        );
    }
}

/// The error kinds that runs of programs for seeds `0..30` of `config` meet on small inputs.
fn kinds_met(config: &GenConfig) -> Vec<PropertyKind> {
    let mut kinds = Vec::new();
    for seed in 0..30 {
        let source = generate(config, seed);
        for input in [[0, 0, 0, 0], [1, -1, 2, 5], [7, 3, -4, 2], [-6, 9, 4, -1]] {
            if let (RunEnd::RuntimeError { kind, .. }, _) = run(&source, &input) {
                if !kinds.contains(&kind) {
                    kinds.push(kind);
                }
            }
        }
    }
    kinds
}

#[test]
fn the_quiet_config_never_fails() {
    assert_eq!(kinds_met(&quiet()), []);
}

#[test]
fn null_pointers_make_null_dereferences_reachable() {
    let kinds = kinds_met(&GenConfig {
        null_pointers: true,
        ..quiet()
    });
    assert_eq!(kinds, [PropertyKind::NullDeref]);
}

#[test]
fn symbolic_indices_make_out_of_bounds_reachable() {
    let kinds = kinds_met(&GenConfig {
        symbolic_indices: true,
        ..quiet()
    });
    assert_eq!(kinds, [PropertyKind::OutOfBounds]);
}
