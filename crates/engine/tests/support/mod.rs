//! What the engines' corpus tests share: the comparison of a report with a file's header.

// Each test binary uses a part of this module.
#![allow(dead_code)]

pub mod sarif;

use std::collections::BTreeMap;
use symex_corpus::{CorpusFile, Verdict as Expected};

use symex_engine::backward::{check_backward, BackwardOptions};
use symex_engine::{check_forward, check_structural, CheckOptions, StructuralOptions};
use symex_ir::cfg::Module;
use symex_report::{Report, Status};
use symex_syntax::types::TypeTable;

/// Unbounded files whose violation lies deeper than the engines' default unwindings, with the
/// unwinding that reaches it. subsume_late_division (and its C version): the division fails in
/// the loop's 21st iteration.
const DEEP_VIOLATIONS: &[(&str, u32)] = &[
    ("subsume_late_division.uc", 22),
    ("subsume_late_division.c", 22),
];

/// The unwinding a bounded engine needs for `file`: its header's bound, else a deep
/// violation's, else none (the engine's own default).
pub fn unwind_for(file: &CorpusFile) -> Option<u32> {
    file.bound.or_else(|| {
        DEEP_VIOLATIONS
            .iter()
            .find(|(name, _)| *name == file.name)
            .map(|&(_, unwind)| unwind)
    })
}

/// What is wrong with `report` for `file`: an unconfirmed counterexample, a violation the
/// header does not list, a listed violation not found (unless its property is `unknown` for a
/// reason `excused` accepts), a safe file's property violated or unknown without excuse, or a
/// bounded safe file answered `safe` everywhere.
pub fn check_report(
    file: &CorpusFile,
    report: &Report,
    excused: fn(Option<&str>) -> bool,
) -> Vec<String> {
    // Every report the engines' corpus tests judge is also a valid SARIF log.
    let mut problems = sarif::problems(report);
    for p in report.properties() {
        if let Some((_, false)) = p.verdict.witness() {
            problems.push(format!(
                "unconfirmed counterexample for {} line {}: {:?}",
                p.kind.name(),
                p.line,
                p.verdict.reason()
            ));
        }
        let expected_violation = file.verdicts.iter().any(
            |v| matches!(v, Expected::Violated { kind, line } if *kind == p.kind && *line == p.line),
        );
        if p.verdict.status() == Status::Violated
            && !expected_violation
            && !file.verdicts.is_empty()
        {
            problems.push(format!(
                "unexpected violation {} line {}",
                p.kind.name(),
                p.line
            ));
        }
    }
    for expected in &file.verdicts {
        if let Expected::Violated { kind, line } = expected {
            let at: Vec<_> = report
                .properties()
                .iter()
                .filter(|p| p.kind == *kind && p.line == *line)
                .collect();
            let found = at.iter().any(|p| p.verdict.status() == Status::Violated);
            // Several properties may share the kind and line (e.g. two dereferences): the
            // expected violation may be any one of them that ran out of time.
            let allowed = at
                .iter()
                .any(|p| p.verdict.status() == Status::Unknown && excused(p.verdict.reason()));
            if !found && !allowed {
                problems.push(format!(
                    "missed violated {} line {line}: {:?}",
                    kind.name(),
                    at.iter()
                        .map(|p| (p.verdict.status().name(), p.verdict.reason()))
                        .collect::<Vec<_>>()
                ));
            }
        }
    }
    if file.is_safe() {
        for p in report.properties() {
            let status = p.verdict.status();
            let ok = match status {
                Status::Safe | Status::SafeUpTo => true,
                Status::Unknown => excused(p.verdict.reason()),
                Status::Violated => false,
            };
            if !ok {
                problems.push(format!(
                    "{} line {}: {} ({:?})",
                    p.kind.name(),
                    p.line,
                    status.name(),
                    p.verdict.reason()
                ));
            }
        }
        // The bound of a bounded safe file cuts the search somewhere: that must show.
        if file.bound.is_some()
            && !report
                .properties()
                .iter()
                .any(|p| matches!(p.verdict.status(), Status::SafeUpTo | Status::Unknown))
        {
            problems.push("a bounded safe file came out safe everywhere".into());
        }
    }
    problems
}

/// A property's identity across the two reports.
type Site = (String, u32, u32);

pub fn statuses(
    report: &Report,
    engine: &str,
    seed: u64,
    failures: &mut Vec<String>,
) -> BTreeMap<Site, Status> {
    let mut out = BTreeMap::new();
    for p in report.properties() {
        if let Some((_, false)) = p.verdict.witness() {
            failures.push(format!(
                "seed {seed} {engine}: unconfirmed counterexample for {} at {}:{}: {:?}",
                p.kind.name(),
                p.line,
                p.column,
                p.verdict.reason()
            ));
        }
        out.insert(
            (p.kind.name().to_string(), p.line, p.column),
            p.verdict.status(),
        );
    }
    out
}

/// Compares two engines' reports of one program: a property violated in one and `safe` in the
/// other, a property missing from the second, or an unconfirmed counterexample is a failure.
/// Returns how many violations both found.
pub fn agreeing_violations(
    first: &Report,
    second: &Report,
    engines: [&str; 2],
    seed: u64,
    source: &str,
    failures: &mut Vec<String>,
) -> usize {
    let a = statuses(first, engines[0], seed, failures);
    let b = statuses(second, engines[1], seed, failures);
    let mut agreed = 0;
    for (site, &fs) in &a {
        let Some(&bs) = b.get(site) else {
            failures.push(format!(
                "seed {seed}: {site:?} missing from the {} report",
                engines[1]
            ));
            continue;
        };
        let contradiction = (fs == Status::Violated && bs == Status::Safe)
            || (bs == Status::Violated && fs == Status::Safe);
        if contradiction {
            failures.push(format!(
                "seed {seed}: {site:?} is {} {} but {} {}\n{source}",
                fs.name(),
                engines[0],
                bs.name(),
                engines[1]
            ));
        }
        if fs == Status::Violated && bs == Status::Violated {
            agreed += 1;
        }
    }
    agreed
}

/// Checks every corpus file with `mismatches` (one configuration of one engine, named `label`)
/// and fails with every problem found, each prefixed with its file and the label.
pub fn assert_corpus(label: &str, mismatches: impl Fn(&CorpusFile) -> Vec<String>) {
    let files = symex_corpus::all_files().expect("the corpus loads");
    assert!(!files.is_empty());
    let failures: Vec<String> = files
        .iter()
        .flat_map(|file| {
            mismatches(file)
                .into_iter()
                .map(move |problem| format!("{} [{label}]: {problem}", file.label()))
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The forward, backward and structural engines' reports of `module` from `main`, each with
/// its default options and `options`.
pub fn every_engine(
    program: (&Module, &TypeTable),
    source: &str,
    name: &str,
    options: &CheckOptions,
) -> Vec<(&'static str, Report)> {
    let (module, types) = program;
    let forward = check_forward(module, types, source, name, "main", options);
    let mut reports = vec![("forward", forward.expect("the forward check runs"))];
    reports.extend(backward_and_structural(program, source, name, options));
    reports
}

/// The backward and structural engines' reports of `module` from `main` (the engines that may
/// answer `unknown` where they do not model a construct).
pub fn backward_and_structural(
    (module, types): (&Module, &TypeTable),
    source: &str,
    name: &str,
    options: &CheckOptions,
) -> Vec<(&'static str, Report)> {
    let backward = BackwardOptions::default();
    let backward = check_backward(module, types, source, name, "main", options, &backward);
    let structural = StructuralOptions::default();
    let structural = check_structural(module, types, source, name, "main", options, &structural);
    vec![
        ("backward", backward.expect("the backward check runs")),
        ("structural", structural.expect("the structural check runs")),
    ]
}
