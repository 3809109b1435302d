//! Differential test: on generated loop-free programs, every property that some concrete run
//! over a small input range violates must be reported violated by the engine (concrete runs
//! are a subset of all inputs), and no counterexample may be unconfirmed. Also: the same check
//! twice gives the same JSON (timing fields aside). Both without and with state merging; and
//! every merge mode reports the same set of violated properties as plain execution; and every
//! layer of the query optimizer, turned off, leaves every decided verdict as it was.

use std::collections::BTreeSet;

use symex_engine::{check_forward, CheckOptions, MergeMode, SearchStrategy};
use symex_gen::{generate, GenConfig};
use symex_interp::{Entry, Interpreter, RunConfig, RunEnd};
use symex_report::Status;

/// Programs of two shapes: larger ones without division, and small single-function ones with
/// division by computed values (nested symbolic divisions make solver queries take seconds, so
/// they stay shallow here). Every third program's array has 40 elements: written at a computed
/// index it becomes a write log in the forward engine (`forward/write_log.rs`), which merges
/// turn back into elements.
fn config(seed: u64) -> GenConfig {
    let base = GenConfig {
        array_length: if seed % 3 == 0 { 40 } else { 4 },
        functions: 1,
        statements: 5,
        nested_statements: 2,
        max_block_depth: 2,
        loop_percent: 0,
        for_percent: 0,
        if_percent: 30,
        linear: true,
        divisions: false,
        ..GenConfig::default()
    };
    if seed % 2 == 0 {
        base
    } else {
        GenConfig {
            functions: 0,
            statements: 4,
            divisions: true,
            ..base
        }
    }
}

/// Every input vector of length `len` over `-3..=3`.
fn inputs(len: usize) -> Vec<Vec<i32>> {
    let mut all = vec![Vec::new()];
    for _ in 0..len {
        all = all
            .into_iter()
            .flat_map(|v| {
                (-3..=3).map(move |x| {
                    let mut w = v.clone();
                    w.push(x);
                    w
                })
            })
            .collect();
    }
    all
}

#[test]
fn concrete_violations_are_found_symbolically() {
    let mut failures = Vec::new();
    for seed in 0..30 {
        let source = generate(&config(seed), seed);
        let front = symex_syntax::analyze(&source).expect("generated programs are valid");
        let types = front.types.expect("generated programs are well typed");
        let module = symex_ir::lower(&front.program);
        let interpreter = Interpreter::new(&module).expect("valid module");
        let entry = Entry::main(&module).expect("main");
        let mut concrete = BTreeSet::new();
        for input in inputs(3) {
            let run = interpreter
                .run(
                    &entry,
                    &input,
                    &RunConfig::default().with_max_steps(1_000_000),
                )
                .expect("runs");
            if let RunEnd::RuntimeError { prop, .. } = run.end {
                concrete.insert(prop.index());
            }
        }
        // `qce` and `dynamic` on alternate seeds (the next test compares them with plain).
        let estimated = if seed % 4 < 2 {
            MergeMode::Qce
        } else {
            MergeMode::Dynamic
        };
        for merge in [MergeMode::None, MergeMode::Aggressive, estimated] {
            let options = CheckOptions {
                search: if seed % 2 == 0 {
                    SearchStrategy::Dfs
                } else {
                    SearchStrategy::Bfs
                },
                // Some generated queries take a solver tens of seconds (even linear ones with
                // wrap-around); a property left `unknown` by the time limit is not a miss, and
                // the limit bounds solver calls too.
                timeout: Some(std::time::Duration::from_secs(2)),
                merge,
                ..CheckOptions::default()
            };
            let report = check_forward(&module, &types, &source, "gen.uc", "main", &options)
                .expect("the engine runs");
            for p in report.properties() {
                if p.verdict.witness().is_some_and(|(_, confirmed)| !confirmed) {
                    failures.push(format!(
                        "seed {seed}, merge {merge}: unconfirmed {:?}",
                        p.verdict.reason()
                    ));
                }
            }
            for &prop in &concrete {
                let site = &module.properties[prop];
                let symbolic = report.properties().iter().any(|p| {
                    p.span == Some(site.span)
                        && p.kind == site.kind
                        && p.verdict.status() == Status::Violated
                });
                let timed_out = report
                    .properties()
                    .iter()
                    .any(|p| p.span == Some(site.span) && p.verdict.status() == Status::Unknown);
                if !symbolic && !timed_out {
                    failures.push(format!(
                        "seed {seed}, merge {merge}: {} at {:?} violated concretely, not symbolically",
                        site.kind.name(),
                        site.span
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_same_check_gives_the_same_json() {
    let runs = SearchStrategy::ALL
        .into_iter()
        .flat_map(|search| MergeMode::ALL.map(|merge| (search, merge)));
    for (search, merge) in runs {
        let source = generate(&config(7), 7);
        let front = symex_syntax::analyze(&source).expect("valid");
        let types = front.types.expect("typed");
        let module = symex_ir::lower(&front.program);
        let options = CheckOptions {
            search,
            seed: 3,
            max_states: Some(2_000),
            merge,
            ..CheckOptions::default()
        };
        let run = || {
            let mut report =
                check_forward(&module, &types, &source, "gen.uc", "main", &options).expect("runs");
            report.stats.clear_timings();
            report.to_json().expect("serializes")
        };
        assert_eq!(run(), run(), "{search}, merge {merge}");
    }
}

/// Under a time limit that the search does not reach, `--subsume` gives the same report
/// (solver work included) run after run: its payoff cap counts deterministic solver work, not
/// time (a cap in time once decided by the machine's load whether a proof was made).
#[test]
fn subsumption_under_a_time_limit_gives_the_same_json() {
    for seed in [3, 7, 11] {
        let source = generate(&config(seed), seed);
        let front = symex_syntax::analyze(&source).expect("valid");
        let types = front.types.expect("typed");
        let module = symex_ir::lower(&front.program);
        let options = CheckOptions {
            seed,
            subsume: true,
            timeout: Some(std::time::Duration::from_secs(120)),
            max_states: Some(2_000),
            ..CheckOptions::default()
        };
        let run = || {
            let mut report =
                check_forward(&module, &types, &source, "gen.uc", "main", &options).expect("runs");
            assert!(report.stats.solver_work.is_some(), "Z3 counts its work");
            report.stats.clear_timings();
            report.to_json().expect("serializes")
        };
        assert_eq!(run(), run(), "seed {seed}");
    }
}

/// Merging never hides or invents an error: on generated programs every merge mode (both
/// estimates for `qce`) reports exactly the violated properties plain execution reports,
/// whenever neither run left a property `unknown`.
#[test]
fn merging_reaches_the_same_errors_as_plain_execution() {
    use symex_engine::{MergeOptions, QceEstimate};
    let mut compared = 0;
    let mut failures = Vec::new();
    for seed in 100..116 {
        let source = generate(&config(seed), seed);
        let front = symex_syntax::analyze(&source).expect("valid");
        let types = front.types.expect("typed");
        let module = symex_ir::lower(&front.program);
        let run = |merge: MergeMode, estimate: QceEstimate| {
            let options = CheckOptions {
                search: SearchStrategy::ALL[seed as usize % SearchStrategy::ALL.len()],
                seed,
                timeout: Some(std::time::Duration::from_secs(2)),
                merge,
                merge_options: MergeOptions {
                    estimate,
                    ..MergeOptions::default()
                },
                ..CheckOptions::default()
            };
            let report =
                check_forward(&module, &types, &source, "gen.uc", "main", &options).expect("runs");
            let unknown = report
                .properties()
                .iter()
                .any(|p| p.verdict.status() == Status::Unknown);
            let violated: BTreeSet<(u32, u32)> = report
                .properties()
                .iter()
                .filter(|p| p.verdict.status() == Status::Violated)
                .map(|p| (p.line, p.column))
                .collect();
            (violated, unknown)
        };
        let (plain, plain_unknown) = run(MergeMode::None, QceEstimate::Recursive);
        for (merge, estimate) in [
            (MergeMode::Aggressive, QceEstimate::Recursive),
            (MergeMode::Qce, QceEstimate::Recursive),
            (MergeMode::Qce, QceEstimate::Lattice),
            (MergeMode::Dynamic, QceEstimate::Recursive),
        ] {
            let (merged, unknown) = run(merge, estimate);
            if plain_unknown || unknown {
                continue;
            }
            compared += 1;
            if merged != plain {
                failures.push(format!(
                    "seed {seed}, {merge} ({estimate}): {merged:?}, plain {plain:?}"
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(compared >= 30, "only {compared} comparisons finished");
}

/// Every layer of the query optimizer (fast path, independence, cache, unsat subsets, model
/// reuse) turned off one at a time, and all of them at once, must decide every property as the
/// default does: the layers only save solver calls. A property left `unknown` by the time limit in either
/// run is not compared.
#[test]
fn query_layers_do_not_change_verdicts() {
    use symex_smt::QueryOptions;
    type Variant = (&'static str, fn(&mut QueryOptions));
    let variants: [Variant; 6] = [
        ("no fast path", |q| q.fast_path = false),
        ("no independence", |q| q.independence = false),
        ("no cache", |q| q.cache = false),
        ("no model reuse", |q| q.model_reuse = false),
        ("no unsat subsets", |q| q.unsat_subsets = false),
        ("plain", |q| *q = QueryOptions::plain()),
    ];
    let mut failures = Vec::new();
    for seed in 0..8 {
        let source = generate(&config(seed), seed);
        let front = symex_syntax::analyze(&source).expect("generated programs are valid");
        let types = front.types.expect("generated programs are well typed");
        let module = symex_ir::lower(&front.program);
        let base = CheckOptions {
            timeout: Some(std::time::Duration::from_secs(2)),
            ..CheckOptions::default()
        };
        let decided = |options: &CheckOptions| {
            let report = check_forward(&module, &types, &source, "gen.uc", "main", options)
                .expect("the engine runs");
            report
                .properties()
                .iter()
                .map(|p| (p.span, p.kind, p.verdict.status()))
                .collect::<Vec<_>>()
        };
        let reference = decided(&base);
        for (name, turn_off) in variants {
            let mut options = base.clone();
            turn_off(&mut options.query);
            for (a, b) in reference.iter().zip(decided(&options)) {
                let undecided = [a.2, b.2].contains(&Status::Unknown);
                if a.0 != b.0 || (!undecided && a.2 != b.2) {
                    failures.push(format!("seed {seed}, {name}: {a:?} against {b:?}"));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
