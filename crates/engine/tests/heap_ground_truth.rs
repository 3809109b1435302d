//! The input-heap engines against concrete runs: on generated functions whose pointers keep
//! open record types (`symex_gen::lists::open_record_program`), every input heap of at most two
//! objects (all shapes: arguments and `next` fields null or any object; field values sampled) is
//! run by the interpreter, and a property that some run fails must not be `safe` or
//! `safe up to K` under lazy initialization, lazier#, POSE (also with aggressive state merging,
//! and lazy initialization with path subsumption) or the backward engine; nor under
//! `--max-heap-objects N` (N = 1, 2) where a heap of N objects fails it.
//!
//! This is rule 2 checked against ground truth rather than against another engine: the three
//! heap models and the backward engine once shared a flaw (objects of unequal open record types
//! never aliased) that no comparison between them could see.

use std::collections::BTreeSet;
use std::time::Duration;

use serde_json::{json, Map, Value};
use symex_engine::backward::{check_backward, BackwardOptions};
use symex_engine::common::replay::replay_witness;
use symex_engine::{check_forward, CheckOptions, EngineError, HeapModel, MergeMode};
use symex_ir::cfg::{Module, PropId};
use symex_report::{Replay, Report, Status, Witness};

/// Field values the sampled heaps use (the generated constants are -1 to 3).
const VALUES: [i64; 5] = [-1, 0, 1, 2, 3];
/// Value assignments tried per heap shape.
const SAMPLES: u64 = 12;

/// Null or one of the first `objects` objects, for each of `count` places.
fn pointer_choices(objects: usize, count: usize) -> Vec<Vec<Value>> {
    let options: Vec<Value> = std::iter::once(Value::Null)
        .chain((1..=objects).map(|i| json!({ "ref": format!("o{i}") })))
        .collect();
    let mut out = vec![Vec::new()];
    for _ in 0..count {
        out = out
            .into_iter()
            .flat_map(|prefix| {
                options.iter().map(move |option| {
                    let mut next = prefix.clone();
                    next.push(option.clone());
                    next
                })
            })
            .collect();
    }
    out
}

/// The input-heap documents for `f(p, q)`: every shape of at most `max_objects` objects, each
/// with `SAMPLES` value assignments of the integer fields the program names.
fn small_heaps(module: &Module, seed: u64, max_objects: usize) -> Vec<Value> {
    let has = |name: &str| module.fields.iter().any(|f| f == name);
    let mut rng = symex_gen::Rng::new(seed);
    let mut pick = || VALUES[rng.below(VALUES.len() as u64) as usize];
    let mut heaps = Vec::new();
    for objects in 0..=max_objects {
        let next_count = if has("next") { objects } else { 0 };
        for pointers in pointer_choices(objects, 2 + next_count) {
            for _ in 0..SAMPLES {
                let mut cells = Map::new();
                for i in 0..objects {
                    let mut record = Map::new();
                    for field in ["val", "data"] {
                        if has(field) {
                            record.insert(field.into(), json!(pick()));
                        }
                    }
                    if has("next") {
                        record.insert("next".into(), pointers[2 + i].clone());
                    }
                    cells.insert(format!("o{}", i + 1), json!({ "record": record }));
                }
                heaps.push(json!({
                    "args": { "p": pointers[0], "q": pointers[1] },
                    "objects": cells,
                }));
            }
        }
    }
    heaps
}

/// The properties some concrete run on an input heap of at most `max_objects` objects fails.
fn failing_properties(module: &Module, seed: u64, max_objects: usize) -> BTreeSet<PropId> {
    let mut failing = BTreeSet::new();
    for heap in small_heaps(module, seed, max_objects) {
        let witness = Witness {
            heap: Some(heap),
            ..Witness::default()
        };
        if let Replay::Failed(prop) = replay_witness(module, "f", &witness) {
            failing.insert(prop);
        }
    }
    failing
}

/// The failing properties a report calls `safe` or `safe up to K`.
fn wrongly_safe(module: &Module, failing: &BTreeSet<PropId>, report: &Report) -> Vec<String> {
    failing
        .iter()
        .filter_map(|prop| {
            let property = &module.properties[prop.0 as usize];
            let reported = report
                .properties()
                .iter()
                .find(|p| p.kind == property.kind && p.span == Some(property.span))?;
            matches!(reported.verdict.status(), Status::Safe | Status::SafeUpTo).then(|| {
                format!(
                    "{} at line {} is {} ({:?})",
                    reported.kind.name(),
                    reported.line,
                    reported.verdict.status().name(),
                    reported.verdict.reason()
                )
            })
        })
        .collect()
}

#[test]
fn no_engine_calls_safe_what_a_small_input_heap_fails() {
    let mut failures = Vec::new();
    let mut failing_total = 0;
    let mut refused = 0;
    for seed in 0..24 {
        let source = symex_gen::lists::open_record_program(seed);
        let front = symex_syntax::analyze(&source).expect("generated programs parse");
        let types = front.types.expect("generated programs are well typed");
        let module = symex_ir::lower(&front.program);
        let failing = failing_properties(&module, seed, 2);
        failing_total += failing.len();
        let options = |heap| CheckOptions {
            heap,
            timeout: Some(Duration::from_secs(20)),
            ..CheckOptions::default()
        };
        let mut reports = Vec::new();
        for model in HeapModel::ALL {
            let report = check_forward(&module, &types, &source, "gen.uc", "f", &options(model));
            reports.push((model.to_string(), report));
        }
        // The path-explosion techniques on input heaps: merged states and pruned ones.
        let merged = CheckOptions {
            merge: MergeMode::Aggressive,
            ..options(HeapModel::Pose)
        };
        let subsumed = CheckOptions {
            subsume: true,
            ..options(HeapModel::Li)
        };
        for (name, options) in [
            ("pose --merge aggressive", merged),
            ("li --subsume", subsumed),
        ] {
            let report = check_forward(&module, &types, &source, "gen.uc", "f", &options);
            reports.push((name.to_string(), report));
        }
        let backward = check_backward(
            &module,
            &types,
            &source,
            "gen.uc",
            "f",
            &options(HeapModel::default()),
            &BackwardOptions::default(),
        );
        reports.push(("backward".to_string(), backward));
        // `safe up to N` under `--max-heap-objects N` covers every heap of N objects, in every
        // model (POSE binds a reference per access path, not per object).
        let mut bounded = Vec::new();
        for (bound, failing) in [
            (1, failing_properties(&module, seed, 1)),
            (2, failing.clone()),
        ] {
            for model in HeapModel::ALL {
                let options = CheckOptions {
                    max_heap_objects: Some(bound),
                    ..options(model)
                };
                let report = check_forward(&module, &types, &source, "gen.uc", "f", &options);
                let engine = format!("{model} --max-heap-objects {bound}");
                bounded.push((engine, report, failing.clone()));
            }
        }
        let unbounded = reports.into_iter().map(|(e, r)| (e, r, failing.clone()));
        for (engine, report, failing) in unbounded.chain(bounded) {
            match report {
                Ok(report) => {
                    for wrong in wrongly_safe(&module, &failing, &report) {
                        failures.push(format!("seed {seed} {engine}: {wrong}\n{source}"));
                    }
                }
                // An entry whose input objects cannot each get one type is refused: honest.
                Err(EngineError::UnsupportedEntry { .. }) => refused += 1,
                Err(e) => failures.push(format!("seed {seed} {engine}: the check failed: {e}")),
            }
        }
    }
    assert!(
        failing_total > 20,
        "the small heaps failed only {failing_total} properties"
    );
    assert!(refused < 8, "{refused} checks refused their entry");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
