//! The expectation corpus checked with the backward engine under all six variants (one test
//! each): every
//! expected violation found within the file's bound (or the engine's default unwinding) and
//! replayed, no violation the header does not list, no unconfirmed counterexample, and every
//! bounded safe file answered `safe-up-to` (never `safe`) where the unwinding cut the search.
//! Properties in code the engine does not model (arrays, `&x`, record values in variables) must
//! say so (`unknown`), and a time limit may end a search `unknown`; nothing else is excused.

use std::time::Duration;

use symex_corpus::{CorpusFile, Verdict as Expected};
use symex_engine::backward::{check_backward, BackwardOptions, BseVariant};
use symex_engine::{CheckOptions, EngineError};
use symex_report::{Report, Status};

mod support;
use support::check_report;

fn options(variant: BseVariant, file: &CorpusFile) -> CheckOptions {
    let unwind = support::unwind_for(file);
    // A violation deeper than the default unwinding gets a longer limit: the conj variants
    // need about 2 s there.
    let deep = file.bound.is_none() && unwind.is_some();
    let seconds = if deep {
        10.0
    } else if variant.is_disjunct_propagation() {
        1.0
    } else {
        2.0
    };
    CheckOptions {
        unwind,
        timeout: Some(Duration::from_secs_f64(seconds)),
        ..CheckOptions::default()
    }
}

/// An `unknown` the engine is allowed: an unmodelled feature or the time limit.
fn excused(reason: Option<&str>) -> bool {
    reason.is_some_and(|r| r.contains("does not model") || r.contains("time limit"))
}

fn mismatches(file: &CorpusFile, variant: BseVariant) -> Vec<String> {
    let front = match symex_syntax::analyze(&file.source) {
        Ok(front) => front,
        Err(e) => return vec![format!("does not parse: {e:?}")],
    };
    let Ok(types) = front.types else {
        return vec!["does not type-check".into()];
    };
    let module = symex_ir::lower(&front.program);
    let backward = BackwardOptions {
        variant,
        ..BackwardOptions::default()
    };
    let result = run_backward(&module, &types, file, &options(variant, file), &backward);
    let report = match result {
        Ok(report) => report,
        Err(EngineError::UnsupportedEntry { .. }) => return Vec::new(),
        Err(e) => return vec![format!("engine error: {e}")],
    };
    check_report(file, &report, excused)
}

/// The backward engine on `file`'s entry function.
fn run_backward(
    module: &symex_ir::cfg::Module,
    types: &symex_syntax::types::TypeTable,
    file: &CorpusFile,
    options: &CheckOptions,
    backward: &BackwardOptions,
) -> Result<Report, EngineError> {
    check_backward(
        module,
        types,
        &file.source,
        &file.name,
        file.entry_function(),
        options,
        backward,
    )
}

/// Every corpus file under one variant; one test per variant, so that the test harness runs
/// them side by side.
fn corpus_under(variant: BseVariant) {
    support::assert_corpus(variant.name(), |file| mismatches(file, variant));
}

#[test]
fn corpus_under_disj_set() {
    corpus_under(BseVariant::DisjSet);
}

#[test]
fn corpus_under_disj_z3() {
    corpus_under(BseVariant::DisjZ3);
}

#[test]
fn corpus_under_disj_comb() {
    corpus_under(BseVariant::DisjComb);
}

#[test]
fn corpus_under_conj_never() {
    corpus_under(BseVariant::ConjNever);
}

#[test]
fn corpus_under_conj_always() {
    corpus_under(BseVariant::ConjAlways);
}

#[test]
fn corpus_under_conj_loops() {
    corpus_under(BseVariant::ConjLoops);
}

#[test]
fn the_seed_examples_get_their_verdicts() {
    let files = symex_corpus::all_files().expect("the corpus loads");
    let seed: Vec<&CorpusFile> = files
        .iter()
        .filter(|f| f.name.starts_with("bse_") && !f.name.starts_with("bse_degree"))
        .collect();
    assert!(seed.len() >= 9, "the seed's examples are in the corpus");
    for file in seed {
        let front = symex_syntax::analyze(&file.source).expect("parses");
        let types = front.types.expect("well typed");
        let module = symex_ir::lower(&front.program);
        let report = run_backward(
            &module,
            &types,
            file,
            &CheckOptions::default(),
            &BackwardOptions::default(),
        )
        .expect("the engine runs");
        for p in report.properties() {
            let expected = file.verdicts.iter().any(
                |v| matches!(v, Expected::Violated { kind, line } if *kind == p.kind && *line == p.line),
            );
            let status = p.verdict.status();
            if !expected {
                assert_eq!(
                    status,
                    Status::Safe,
                    "{} {} line {}",
                    file.name,
                    p.kind.name(),
                    p.line
                );
            }
        }
        for v in &file.verdicts {
            if let Expected::Violated { kind, line } = v {
                assert!(
                    report.properties().iter().any(|p| p.kind == *kind
                        && p.line == *line
                        && p.verdict.status() == Status::Violated),
                    "{}: {} line {line} not found",
                    file.name,
                    kind.name()
                );
            }
        }
    }
}

/// Entries whose parameters reach two kinds of record (typed input cells): every listed violation
/// is found and replayed under all six variants, and in `bse_typed_cells.uc` the assertions only
/// a list node and a tree node in one cell could break are proved, never `unknown` for want of a
/// well-typed model. Only the listed lines are searched (`--target`), with a generous time limit.
#[test]
fn typed_input_cells_under_all_six_variants() {
    let files = symex_corpus::all_files().expect("the corpus loads");
    let cases: [(&str, &[(u32, Status)]); 2] = [
        (
            "bse_typed_cells.uc",
            &[
                (13, Status::Safe),
                (17, Status::Safe),
                (26, Status::Violated),
            ],
        ),
        (
            "heap_ncll_add.uc",
            &[(17, Status::Violated), (24, Status::Violated)],
        ),
    ];
    let mut failures = Vec::new();
    for (name, lines) in cases {
        let file = files
            .iter()
            .find(|f| f.name == name)
            .expect("the file is in the corpus");
        let front = symex_syntax::analyze(&file.source).expect("parses");
        let types = front.types.expect("well typed");
        let module = symex_ir::lower(&front.program);
        for variant in BseVariant::ALL {
            for &(line, expected) in lines {
                let backward = BackwardOptions {
                    variant,
                    target: symex_engine::backward::Target::Property { line, column: None },
                };
                let options = CheckOptions {
                    timeout: Some(Duration::from_secs(60)),
                    ..CheckOptions::default()
                };
                let report = run_backward(&module, &types, file, &options, &backward)
                    .expect("the engine runs");
                let at: Vec<_> = report
                    .properties()
                    .iter()
                    .filter(|p| {
                        p.line == line
                            && p.verdict.reason() != Some("not a target of this run (--target)")
                    })
                    .collect();
                let answered = at.iter().any(|p| p.verdict.status() == expected)
                    && at.iter().all(|p| {
                        p.verdict.status() == Status::Safe
                            || (p.verdict.status() == Status::Violated
                                && p.verdict.witness().is_some_and(|(_, replayed)| replayed))
                    });
                if !answered {
                    failures.push(format!(
                        "{name} line {line} [{}]: {:?}",
                        variant.name(),
                        at.iter()
                            .map(|p| (p.kind.name(), p.verdict.status().name(), p.verdict.reason()))
                            .collect::<Vec<_>>()
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
