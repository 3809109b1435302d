//! The expectation corpus checked with the forward engine: every `verdict:` line, `bound:` files
//! with `--unwind K`, `paths:` lines on unbounded explorations, and pointer-parameter entries
//! refused with `UnsupportedEntry`. All mismatches are collected and reported together.

use std::time::Duration;

use symex_corpus::{CorpusFile, Verdict as Expected};
use symex_engine::{
    check_forward, CheckOptions, EngineError, IndexMode, MergeMode, SearchStrategy,
};
use symex_report::{Report, Status};

/// Safe files whose loops run as many times as an input says: about 2^32 paths, which plain
/// forward execution cannot finish. They must end `unknown` on the time limit (never a wrong
/// verdict) until the path-explosion techniques (subsumption, summarization) land; every other
/// safe file without a bound must be proved `safe`.
const NEEDS_LOOP_TECHNIQUES: &[&str] = &[
    "loops_listing_3_2.uc",
    "loops_irregular_4_11.uc",
    "loops_nested_4_13.uc",
    "loops_niv_4_12.uc",
    "loops_subsumption_4_3_nowrap.uc",
    "loops_summarization_4_9.uc",
    "interp_input_exhausted.uc",
    "summarize_invariant_step.uc",
    "summarize_two_phases.uc",
];

/// With `--summarize`, the safe files whose loops the summaries cannot prove: an irregular
/// path interleaving (4.11, seed 002 §4.4.2.1), a nested loop (4.13: nested summaries are not
/// built yet), a guard on fresh inputs (4.12, a NIV condition), input read in a loop.
const NEEDS_LOOP_TECHNIQUES_WITH_SUMMARIES: &[&str] = &[
    "loops_irregular_4_11.uc",
    "loops_nested_4_13.uc",
    "loops_niv_4_12.uc",
    "interp_input_exhausted.uc",
];

fn options(search: SearchStrategy, file: &CorpusFile) -> CheckOptions {
    // Bounded files must finish; files that can only run out of time get a short limit.
    let seconds = if file.bound.is_some() {
        60.0
    } else if NEEDS_LOOP_TECHNIQUES.contains(&file.name.as_str()) {
        0.3
    } else {
        1.0
    };
    CheckOptions {
        search,
        unwind: file.bound,
        timeout: Some(Duration::from_secs_f64(seconds)),
        ..CheckOptions::default()
    }
}

/// What is wrong with the engine's answer on `file`, if anything.
fn mismatches(file: &CorpusFile, options: &CheckOptions, unfinished: &[&str]) -> Vec<String> {
    let front = match symex_syntax::analyze(&file.source) {
        Ok(front) => front,
        Err(e) => return vec![format!("does not parse: {e:?}")],
    };
    let Ok(types) = front.types else {
        return vec!["does not type-check".into()];
    };
    let module = symex_ir::lower(&front.program);
    let entry = file.entry_function();
    let result = check_forward(&module, &types, &file.source, &file.name, entry, options);
    let report = match result {
        Ok(report) => report,
        Err(EngineError::UnsupportedEntry { .. }) => return Vec::new(),
        Err(e) => return vec![format!("engine error: {e}")],
    };
    let mut problems = Vec::new();
    check_report(file, &report, unfinished, &mut problems);
    if let (Some(expected), true, None) = (file.paths, file.is_safe(), file.bound) {
        if report.stats.paths != expected {
            problems.push(format!(
                "paths: expected {expected}, got {}",
                report.stats.paths
            ));
        }
    }
    problems
}

fn check_report(
    file: &CorpusFile,
    report: &Report,
    unfinished: &[&str],
    problems: &mut Vec<String>,
) {
    for p in report.properties() {
        if let Some((_, false)) = p.verdict.witness() {
            problems.push(format!(
                "unconfirmed counterexample for {} line {}: {:?}",
                p.kind.name(),
                p.line,
                p.verdict.reason()
            ));
        }
    }
    if file.verdicts.is_empty() {
        // The file makes no claim (it only has `run:` lines).
        return;
    }
    for expected in &file.verdicts {
        if let Expected::Violated { kind, line } = expected {
            let found = report.properties().iter().any(|p| {
                p.kind == *kind && p.line == *line && p.verdict.status() == Status::Violated
            });
            if !found {
                problems.push(format!("missed violated {} line {line}", kind.name()));
            }
        }
    }
    for p in report.properties() {
        let status = p.verdict.status();
        let expected_violation = file.verdicts.iter().any(
            |v| matches!(v, Expected::Violated { kind, line } if *kind == p.kind && *line == p.line),
        );
        if status == Status::Violated && !expected_violation {
            problems.push(format!(
                "unexpected violation {} line {}",
                p.kind.name(),
                p.line
            ));
        }
        if file.is_safe() {
            let wanted = if file.bound.is_some() {
                Status::SafeUpTo
            } else {
                Status::Safe
            };
            let out_of_time = unfinished.contains(&file.name.as_str())
                && status == Status::Unknown
                && p.verdict.reason().is_some_and(|r| r.contains("time limit"));
            if status != wanted && !out_of_time && !(file.bound.is_some() && status == Status::Safe)
            {
                problems.push(format!(
                    "{} line {}: expected {}, got {} ({:?})",
                    p.kind.name(),
                    p.line,
                    wanted.name(),
                    status.name(),
                    p.verdict.reason()
                ));
            }
        }
    }
}

fn run_corpus(strategies: &[SearchStrategy], index_mode: IndexMode, merge: MergeMode) {
    let files = symex_corpus::all_files().expect("the corpus loads");
    assert!(!files.is_empty());
    let mut failures = Vec::new();
    for &search in strategies {
        for file in &files {
            let mut opts = options(search, file);
            opts.index_mode = index_mode;
            opts.merge = merge;
            for problem in mismatches(file, &opts, NEEDS_LOOP_TECHNIQUES) {
                failures.push(format!(
                    "[{search}, merge {merge}] {}: {problem}",
                    file.label()
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn corpus_verdicts_with_dfs_and_bfs() {
    run_corpus(
        &[SearchStrategy::Dfs, SearchStrategy::Bfs],
        IndexMode::Ite,
        MergeMode::None,
    );
}

/// Merged states stand for the paths they merged: every verdict and every `paths:` count of the
/// unmerged run must hold.
#[test]
fn corpus_verdicts_with_aggressive_merging() {
    run_corpus(
        &[SearchStrategy::Dfs, SearchStrategy::Bfs],
        IndexMode::Ite,
        MergeMode::Aggressive,
    );
}

#[test]
fn corpus_verdicts_with_the_other_strategies() {
    run_corpus(
        &[
            SearchStrategy::Random,
            SearchStrategy::RandomPath,
            SearchStrategy::Coverage,
            SearchStrategy::Klee,
        ],
        IndexMode::Ite,
        MergeMode::None,
    );
}

/// Every file with loop summarization: every verdict holds, every violation replays, and the
/// files the summaries prove (e.g. 4.9, 3.2, 4.3 without wrap-around) are `safe` without a
/// bound. Bounded files keep their bound (summaries cut nothing, so the plain iterations
/// around them are bounded as usual).
#[test]
fn corpus_verdicts_with_loop_summarization() {
    let files = symex_corpus::all_files().expect("the corpus loads");
    let mut failures = Vec::new();
    for file in &files {
        let mut opts = options(SearchStrategy::Dfs, file);
        opts.summarize = true;
        let unfinished = NEEDS_LOOP_TECHNIQUES_WITH_SUMMARIES;
        // Violations in bounded files are found early; summaries of periodic loops can make
        // the rest of such a search slow, which may end `unknown`.
        let seconds = if unfinished.contains(&file.name.as_str()) || file.verdicts.is_empty() {
            0.3
        } else if file.bound.is_some() {
            10.0
        } else {
            20.0
        };
        opts.timeout = Some(Duration::from_secs_f64(seconds));
        for problem in mismatches(file, &opts, unfinished) {
            failures.push(format!("[summarize] {}: {problem}", file.label()));
        }
    }
    assert!(
        failures.is_empty(),
        "{} mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn corpus_verdicts_with_forked_indices() {
    run_corpus(&[SearchStrategy::Dfs], IndexMode::Fork, MergeMode::None);
}

#[test]
fn pointer_parameter_entries_are_refused() {
    let files = symex_corpus::all_files().expect("the corpus loads");
    let file = files
        .iter()
        .find(|f| f.name == "pose_swap.uc")
        .expect("pose_swap.uc is in the corpus");
    let front = symex_syntax::analyze(&file.source).expect("parses");
    let types = front.types.expect("types");
    let module = symex_ir::lower(&front.program);
    let err = check_forward(
        &module,
        &types,
        &file.source,
        &file.name,
        file.entry_function(),
        &CheckOptions::default(),
    )
    .expect_err("pointer parameters are not supported yet");
    assert!(
        matches!(&err, EngineError::UnsupportedEntry { reason, .. } if reason.contains("not supported yet")),
        "{err}"
    );
}
