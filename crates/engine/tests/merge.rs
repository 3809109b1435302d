//! State merging (`--merge aggressive`) on a program built to explode: ten sequential if/else
//! on inputs. Merging must create far fewer states than the 2^10 of plain forward execution
//! while every verdict, the path count and the counterexample's replay stay the same. It does
//! not test when merging pays off in time (the path count asks the solver per constituent).
//! Then `qce` and `dynamic`: no merge where a hot variable would turn symbolic, merges where
//! the states differ only in cold (or already symbolic) variables, under every strategy.

use symex_engine::{
    check_forward, CheckOptions, MergeMode, MergeOptions, QceEstimate, SearchStrategy,
};
use symex_report::{Event, Report, Status};

fn program() -> String {
    let mut body = String::from("main() {\n  var s, k;\n  s = 0;\n");
    for _ in 0..10 {
        body.push_str("  k = input;\n  if (k > 0) { s = s + 1; } else { s = s - 1; }\n");
    }
    body.push_str("  assert(s != 10);\n  assert(s < 11);\n  return s;\n}\n");
    body
}

fn check(source: &str, search: SearchStrategy, merge: MergeMode) -> Report {
    check_with(source, search, merge, MergeOptions::default())
}

fn check_with(
    source: &str,
    search: SearchStrategy,
    merge: MergeMode,
    merge_options: MergeOptions,
) -> Report {
    let front = symex_syntax::analyze(source).expect("valid");
    let types = front.types.expect("typed");
    let module = symex_ir::lower(&front.program);
    let options = CheckOptions {
        search,
        merge,
        merge_options,
        ..CheckOptions::default()
    };
    check_forward(&module, &types, source, "ifs.uc", "main", &options).expect("runs")
}

fn statuses(r: &Report) -> Vec<(u32, u32, Status)> {
    r.properties()
        .iter()
        .map(|p| (p.line, p.column, p.verdict.status()))
        .collect()
}

/// Seed 002's listing 4.7 inside a loop: `a` is concrete on both sides of the `if`, and the
/// loop's branch and the division ask about it. `both_symbolic` makes it symbolic on both
/// sides instead.
fn hot_program(both_symbolic: bool) -> String {
    let (then, other) = if both_symbolic {
        ("a = x;", "a = 0 - x;")
    } else {
        ("a = 2;", "a = 4;")
    };
    format!(
        "main() {{ var x, a, i, s; x = input; a = 1; \
         if (x > 0) {{ {then} }} else {{ {other} }} \
         s = 0; i = 0; \
         while (i < 8) {{ if (a > 3) {{ s = s + 1; }} i = i + 1; }} \
         return 100 / (a + 1000); }}"
    )
}

#[test]
fn qce_merges_fewer_states_than_aggressive_where_a_hot_variable_differs() {
    let source = hot_program(false);
    for search in [SearchStrategy::Dfs, SearchStrategy::Bfs] {
        let plain = check(&source, search, MergeMode::None);
        let aggressive = check(&source, search, MergeMode::Aggressive);
        assert!(aggressive.stats.merges.unwrap() >= 1, "{search}");
        for estimate in [QceEstimate::Recursive, QceEstimate::Lattice] {
            let options = MergeOptions {
                estimate,
                ..MergeOptions::default()
            };
            for merge in [MergeMode::Qce, MergeMode::Dynamic] {
                let qce = check_with(&source, search, merge, options);
                let label = format!("{search}, {merge}, {estimate}");
                assert_eq!(qce.stats.merges, Some(0), "{label}");
                // Every function got its estimate, and its cost is reported.
                assert_eq!(qce.stats.qce_unestimated, Some(0), "{label}");
                assert!(qce.stats.qce_us.is_some(), "{label}");
                assert_eq!(plain.stats.qce_us, None, "{label}");
                assert_eq!(statuses(&qce), statuses(&plain), "{label}");
                assert_eq!(qce.stats.paths, plain.stats.paths, "{label}");
                // Kept concrete, `a` answers the loop's branches without the solver.
                assert!(
                    qce.stats.queries < aggressive.stats.queries,
                    "{label}: {} vs {}",
                    qce.stats.queries,
                    aggressive.stats.queries
                );
            }
        }
        // A limit-cost above the hot variable's estimate lets the merge through.
        let lenient = MergeOptions {
            limit_cost: 1000.0,
            ..MergeOptions::default()
        };
        let merged = check_with(&source, search, MergeMode::Qce, lenient);
        assert_eq!(merged.stats.merges, aggressive.stats.merges, "{search}");
        // Symbolic on both sides, the hot variable does not stop the merge (PLDI'12).
        let symbolic = hot_program(true);
        let merged = check(&symbolic, search, MergeMode::Qce);
        assert!(merged.stats.merges.unwrap() >= 1, "{search}");
        assert_eq!(
            statuses(&merged),
            statuses(&check(&symbolic, search, MergeMode::None)),
            "{search}"
        );
    }
}

/// Eight sequential if/else on inputs whose sides differ only in what they output and in a
/// variable that is symbolic on both sides and never tested (seed 002's listing 4.6).
fn cold_program() -> String {
    let mut body = String::from("main() {\n  var s, k, t;\n  s = 0;\n  t = 0;\n");
    for _ in 0..8 {
        body.push_str(
            "  k = input;\n  if (k > 0) { output 1; t = k; } else { output 2; t = 0 - k; }\n",
        );
    }
    body.push_str("  assert(s == 0);\n  return s;\n}\n");
    body
}

#[test]
fn dynamic_merging_meets_under_every_search_strategy() {
    let source = cold_program();
    let plain = check(&source, SearchStrategy::Dfs, MergeMode::None);
    assert_eq!(plain.stats.paths, 256);
    for search in SearchStrategy::ALL {
        for merge in [MergeMode::Qce, MergeMode::Dynamic] {
            let merged = check(&source, search, merge);
            assert_eq!(merged.stats.merges, Some(8), "{search}, {merge}");
            assert!(merged.stats.states <= 16, "{search}, {merge}");
            assert_eq!(merged.stats.paths, 256, "{search}, {merge}");
            assert_eq!(statuses(&merged), statuses(&plain), "{search}, {merge}");
        }
    }
    // Without the window (δ = 0) nothing runs a state toward its partner: depth-first search
    // runs each path to its end before its sibling reaches the join.
    let no_window = MergeOptions {
        delta: 0,
        ..MergeOptions::default()
    };
    let unforwarded = check_with(&source, SearchStrategy::Dfs, MergeMode::Dynamic, no_window);
    assert!(unforwarded.stats.merges.unwrap() < 8);
    assert_eq!(unforwarded.stats.paths, 256);
}

#[test]
fn merging_ten_sequential_ifs_keeps_the_verdicts_with_few_states() {
    let source = program();
    for search in [SearchStrategy::Dfs, SearchStrategy::Bfs] {
        let plain = check(&source, search, MergeMode::None);
        let merged = check(&source, search, MergeMode::Aggressive);
        assert_eq!(plain.stats.states, 1024, "{search}");
        assert!(
            merged.stats.states <= 32,
            "{search}: {}",
            merged.stats.states
        );
        assert_eq!(merged.stats.paths, plain.stats.paths, "{search}");
        assert_eq!(statuses(&merged), statuses(&plain), "{search}");
        let violated: Vec<_> = merged
            .properties()
            .iter()
            .filter(|p| p.verdict.status() == Status::Violated)
            .collect();
        assert_eq!(violated.len(), 1, "{search}");
        let (witness, confirmed) = violated[0].verdict.witness().expect("a witness");
        assert!(confirmed);
        assert!(
            witness.inputs.iter().all(|&k| k > 0),
            "{:?}",
            witness.inputs
        );
        // The merged state's trace follows the constituent the model chose: ten `then`s.
        let branches: Vec<bool> = witness
            .trace
            .iter()
            .filter_map(|step| match step.event {
                Event::Branch { condition } => Some(condition),
                _ => None,
            })
            .collect();
        assert_eq!(branches, vec![true; 10]);
    }
}
