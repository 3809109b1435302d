//! Loop summarization against plain execution on generated programs with nested loops (depth
//! 2 and 3, so outer loops are summarized with their inner loops' results): the same violated
//! properties where both searches finish the property, never a proof against a violation, no
//! unconfirmed counterexample, and the same report twice.
//!
//! Generated loops run at most `LOOP_BOUND` times, so plain execution with `--unwind` one more
//! explores every path; a summarized loop jumps over its iterations without counting them. A
//! property counts only when neither search left it `unknown` (a time limit on a slow query).

use std::collections::BTreeSet;
use std::time::Duration;

use symex_engine::{check_forward, CheckOptions};
use symex_gen::{generate, GenConfig};
use symex_report::{Report, Status};

const LOOP_BOUND: i32 = 3;

fn config(seed: u64) -> GenConfig {
    GenConfig {
        functions: 0,
        statements: 3,
        nested_statements: 2,
        max_block_depth: 3,
        max_loop_depth: 2 + (seed % 2) as usize,
        loop_percent: 20,
        for_percent: 35,
        if_percent: 20,
        max_loop_bound: LOOP_BOUND,
        errors: 1,
        divisions: false,
        heap: false,
        null_pointers: false,
        arrays: false,
        array_length: 4,
        symbolic_indices: false,
        calls: false,
        asserts: true,
        linear: true,
        input_bound_percent: 0,
        variables: None,
    }
}

fn check(source: &str, summarize: bool, seconds: u64) -> Report {
    let front = symex_syntax::analyze(source).expect("generated programs are valid");
    let types = front.types.expect("generated programs are well typed");
    let module = symex_ir::lower(&front.program);
    let options = CheckOptions {
        unwind: Some(LOOP_BOUND as u32 + 1),
        timeout: Some(Duration::from_secs(seconds)),
        summarize,
        ..CheckOptions::default()
    };
    check_forward(&module, &types, source, "gen.uc", "main", &options).expect("the engine runs")
}

/// (violated, decided) property indices of a report.
fn outcome(report: &Report) -> (BTreeSet<usize>, BTreeSet<usize>) {
    let mut violated = BTreeSet::new();
    let mut decided = BTreeSet::new();
    for (i, p) in report.properties().iter().enumerate() {
        match p.verdict.status() {
            Status::Violated => {
                violated.insert(i);
                decided.insert(i);
            }
            Status::Unknown => {}
            _ => {
                decided.insert(i);
            }
        }
    }
    (violated, decided)
}

/// Programs shaped like the thesis's (seed 002 §6.1): many number variables, so most loop
/// bodies assign values nobody reads later (which summaries replace by fresh ones), a
/// guaranteed error, divisions by computed values, and loop-invariant reads of an array and of
/// records (literal indices, pointers never null).
fn thesis_like(seed: u64) -> GenConfig {
    GenConfig {
        variables: Some(10),
        divisions: true,
        arrays: true,
        heap: true,
        linear: false,
        ..config(seed)
    }
}

#[test]
fn summaries_find_the_violations_plain_execution_finds() {
    compare(&config, 0..12);
}

#[test]
fn summaries_find_the_violations_plain_execution_finds_with_many_variables() {
    compare(&thesis_like, 0..6);
}

/// Plain execution against summaries on the programs of `config` for `seeds`.
fn compare(config: &dyn Fn(u64) -> GenConfig, seeds: std::ops::Range<u64>) {
    let mut failures = Vec::new();
    let mut summarized = 0;
    let mut found = 0;
    for seed in seeds {
        let source = generate(&config(seed), seed);
        let plain = check(&source, false, 2);
        let summary = check(&source, true, 2);
        for report in [&plain, &summary] {
            for p in report.properties() {
                if p.verdict.witness().is_some_and(|(_, confirmed)| !confirmed) {
                    failures.push(format!("seed {seed}: unconfirmed {:?}", p.verdict.reason()));
                }
            }
        }
        summarized += summary.stats.loops_summarized.unwrap_or(0);
        // A proof on one side and a violation on the other is a wrong answer, whatever the
        // time limits left undecided elsewhere.
        for (i, (p, q)) in plain
            .properties()
            .iter()
            .zip(summary.properties())
            .enumerate()
        {
            let (a, b) = (p.verdict.status(), q.verdict.status());
            if matches!(
                (a, b),
                (Status::Safe | Status::SafeUpTo, Status::Violated)
                    | (Status::Violated, Status::Safe)
            ) {
                failures.push(format!(
                    "seed {seed}: property {i} is {a:?} plainly, {b:?} with summaries\n{source}"
                ));
            }
        }
        let (plain_violated, plain_decided) = outcome(&plain);
        found += plain_violated.len();
        let (summary_violated, summary_decided) = outcome(&summary);
        let both: BTreeSet<usize> = plain_decided
            .intersection(&summary_decided)
            .copied()
            .collect();
        let plain_only: Vec<_> = plain_violated
            .difference(&summary_violated)
            .filter(|p| both.contains(p))
            .collect();
        let summary_only: Vec<_> = summary_violated
            .difference(&plain_violated)
            .filter(|p| both.contains(p))
            .collect();
        if !plain_only.is_empty() || !summary_only.is_empty() {
            failures.push(format!(
                "seed {seed}: violated by plain execution only {plain_only:?}, with summaries only {summary_only:?}\n{source}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(summarized > 0, "no generated loop was summarized");
    assert!(
        found > 0,
        "no violation to compare: the guaranteed errors were not reached"
    );
}

#[test]
fn summarized_checks_are_deterministic() {
    let source = generate(&config(5), 5);
    let run = || {
        let mut report = check(&source, true, 60);
        report.stats.clear_timings();
        report.to_json().expect("serializes")
    };
    assert_eq!(run(), run());
}

/// A C program's report under `--summarize` with a `seconds` time limit.
fn check_c(source: &str, seconds: u64) -> Report {
    check_c_with(source, seconds, symex_c::Options::default())
}

/// [`check_c`] with these front-end options.
fn check_c_with(source: &str, seconds: u64, front: symex_c::Options) -> Report {
    let translated = symex_c::translate_text(source, front).expect("valid C");
    let options = CheckOptions {
        timeout: Some(Duration::from_secs(seconds)),
        summarize: true,
        ..CheckOptions::default()
    };
    let (module, types) = (&translated.module, &translated.types);
    check_forward(module, types, source, "loop.c", "main", &options).expect("the engine runs")
}

/// C's unsigned loops (`x < n`, `x > 1` on `unsigned`) are summarized, wrap-around included:
/// a proof for 2^27 iterations without running them, and a counterexample whose only run takes
/// 10^7 iterations (about 60 million instructions, past the replay's fixed step limit): the
/// replay runs until the check's deadline instead, so the violation is confirmed, not left
/// `unknown`.
#[test]
fn unsigned_loops_are_summarized_and_long_counterexamples_replayed() {
    let safe = check_c(
        "void reach_error(void);\n\
         int main(void) { unsigned x = 0; while (x < 0x0fffffff) { x += 2; }\n\
         if (x % 2) reach_error(); return 0; }",
        60,
    );
    let wrapping = check_c(
        "void reach_error(void);\n\
         int main(void) { unsigned x = 10; while (x >= 10) { x += 2; }\n\
         if (x % 2) reach_error(); return 0; }",
        60,
    );
    for report in [&safe, &wrapping] {
        assert!(
            report
                .properties()
                .iter()
                .all(|p| p.verdict.status() == Status::Safe),
            "{}",
            report.to_json().expect("serializes")
        );
    }
    let long = check_c(
        "void reach_error(void);\n\
         int main(void) { unsigned x = 20000001; while (x > 1) { x -= 2; }\n\
         if (x % 2) reach_error(); return 0; }",
        120,
    );
    let violated: Vec<u32> = long
        .properties()
        .iter()
        .filter(|p| p.verdict.status() == Status::Violated)
        .map(|p| p.line)
        .collect();
    assert_eq!(violated, vec![3], "{}", long.to_json().expect("serializes"));
}

/// C's `k++` in an inner loop is `t = k; k = t + 1` with a temporary: `k` is still only added
/// to (the temporary's value at the end of an iteration is never read), so the outer loop
/// may change it between inner runs and both loops are summarized: `k == n * m` proves
/// `k >= 100` for n, m in 10..=10000 (SV-COMP's `loop-new/nested-1`; `unknown` at any time
/// limit before: the temporary made `k` a value the inner loop starts from); with the bound
/// 101 the violation at n = m = 10 is found.
#[test]
fn an_inner_loop_adding_through_temporaries_is_summarized() {
    let program = |bound: i32| {
        format!(
            "void reach_error(void);\nint main(void) {{ int n = __VERIFIER_nondet_int();\n\
             int m = __VERIFIER_nondet_int(); int k = 0, i, j;\n\
             if (!(10 <= n && n <= 10000)) return 0; if (!(10 <= m && m <= 10000)) return 0;\n\
             for (i = 0; i < n; i++) {{ for (j = 0; j < m; j++) {{ k++; }} }}\n\
             if (!(k >= {bound})) reach_error(); return 0; }}"
        )
    };
    let statuses = |report: &Report| -> Vec<(u32, Status)> {
        (report.properties().iter())
            .map(|p| (p.line, p.verdict.status()))
            .collect()
    };
    let safe = check_c(&program(100), 60);
    assert_eq!(statuses(&safe), [(6, Status::Safe)]);
    let violated = check_c(&program(101), 60);
    assert_eq!(statuses(&violated), [(6, Status::Violated)]);
}

/// A loop calling `__VERIFIER_assert`, inlined (`--inline-calls`): the path through
/// `reach_error(); abort();` ends the run inside the body (`assume 0`), like an exit, and the
/// other path is summarized: a proof over 2^27 iterations, and a violation at the 500,000th.
/// The function's own copy of the check, which no call reaches any more, and the inlined copy
/// are one property of the report.
#[test]
fn loops_with_a_path_that_aborts_are_summarized() {
    let source = |cond: &str| {
        format!(
            "extern void abort(void);\nvoid reach_error(void);\n\
             void __VERIFIER_assert(int c) {{ if (!c) {{ reach_error(); abort(); }} }}\n\
             int main(void) {{ unsigned x = 0;\n\
             while (x < 0x0fffffff) {{ x += 2; __VERIFIER_assert({cond}); }} return 0; }}"
        )
    };
    let inline = symex_c::Options {
        inline_calls: true,
        ..symex_c::Options::default()
    };
    let safe = check_c_with(&source("x <= 0x10000000"), 60, inline);
    let statuses: Vec<Status> = safe
        .properties()
        .iter()
        .map(|p| p.verdict.status())
        .collect();
    assert_eq!(
        statuses,
        vec![Status::Safe],
        "{}",
        safe.to_json().expect("serializes")
    );
    let violated = check_c_with(&source("x != 1000000"), 60, inline);
    assert!(
        violated
            .properties()
            .iter()
            .any(|p| p.verdict.status() == Status::Violated && p.line == 3),
        "{}",
        violated.to_json().expect("serializes")
    );
    assert!(violated.stats.loops_summarized.unwrap_or(0) >= 1);
}

/// SV-COMP's `loops-crafted-1/nested5-1` shape, inlined: four nested loops whose third has a
/// path through `__VERIFIER_error()` (a run can end inside it) that `v % 4` never takes. Every
/// loop is summarized: the inner runs are shown to leave normally, `v` (written by the
/// innermost loop, never read at entry) is no control local, and the inlined parameter `c`,
/// assigned before every read, need not hold a number at the outer headers. With `v % 5` the
/// error is reached at once.
#[test]
fn nests_of_four_with_an_ending_path_are_summarized() {
    let source = |m: u32| {
        format!(
            "extern void __VERIFIER_error(void);\n\
             void __VERIFIER_assert(int c) {{ if (!c) {{ __VERIFIER_error(); }} }}\n\
             int main(void) {{ unsigned w, x, z, v;\n\
             for (w = 0; w < 0x0fffffff; w++)\n\
             for (x = 0; x < 10; x++)\n\
             for (z = 0; z < 10; z++) {{\n\
             for (v = 0; v < 10; v++);\n\
             __VERIFIER_assert(v % {m}); }}\n\
             return 0; }}"
        )
    };
    let inline = symex_c::Options {
        inline_calls: true,
        ..symex_c::Options::default()
    };
    let safe = check_c_with(&source(4), 60, inline);
    let json = safe.to_json().expect("serializes");
    assert!(
        safe.properties()
            .iter()
            .all(|p| p.verdict.status() == Status::Safe),
        "{json}"
    );
    assert_eq!(safe.stats.loops_summarized, Some(4), "{json}");
    assert_eq!(safe.stats.loops_not_summarized, Some(0), "{json}");
    let violated = check_c_with(&source(5), 60, inline);
    assert!(
        violated
            .properties()
            .iter()
            .any(|p| p.verdict.status() == Status::Violated && p.line == 2),
        "{}",
        violated.to_json().expect("serializes")
    );
}

/// `corpus/summarize_inner_abort_reached.uc`: the inner run ends at a failing check where
/// `5 <= m < 10`. The state is split there: plain execution finds the violation, and the
/// summary serves the inputs where no inner run ends inside, so the assertion after the nest
/// is proved, not left `unknown`.
#[test]
fn states_are_split_where_an_inner_run_may_end_inside() {
    let source = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../corpus/summarize_inner_abort_reached.uc"
    ))
    .expect("corpus file");
    let front = symex_syntax::analyze(&source).expect("valid");
    let types = front.types.expect("well typed");
    let module = symex_ir::lower(&front.program);
    let options = CheckOptions {
        timeout: Some(Duration::from_secs(60)),
        summarize: true,
        ..CheckOptions::default()
    };
    let report = check_forward(&module, &types, &source, "nest.uc", "main", &options)
        .expect("the engine runs");
    let json = report.to_json().expect("serializes");
    let status = |line: u32| {
        report
            .properties()
            .iter()
            .find(|p| p.line == line && p.kind.name() == "assert")
            .map(|p| p.verdict.status())
    };
    assert_eq!(status(19), Some(Status::Violated), "{json}");
    assert_eq!(status(27), Some(Status::Safe), "{json}");
}
