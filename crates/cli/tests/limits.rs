//! Limits are promises (docs/exit-codes.md): generated programs with nested loops, arrays with
//! symbolic indices, heap records, null pointers, calls and divisions, and the corpus's heap
//! drivers, through every engine and variant with `--timeout 2`: each check must end within
//! 3 s, on its own, with a documented exit code and a JSON report. The long version (hundreds
//! of programs, every configuration on every program) is `cargo bench -p symex-cli --bench
//! limits`; its figures are in BENCHMARKS.md.

#[path = "support/limits.rs"]
mod limits;

use std::time::Duration;

/// The time limit of every check, and what a check may take in all.
const TIMEOUT_S: u64 = 2;
const ALLOWED: Duration = Duration::from_secs(3);

/// Generated programs (the benchmark's first seeds); each configuration meets every
/// `ROTATION`-th of them, so the whole set costs a quarter of all pairs on the CI machine.
const SEEDS: std::ops::Range<u64> = 100_000..100_024;
const ROTATION: usize = 4;

#[test]
fn every_engine_ends_within_its_time_limit_with_a_report() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("symex-limits-{}", std::process::id()));
    let programs = limits::generate(&dir, SEEDS);
    let jobs = limits::jobs(&programs, &limits::heap_drivers(), ROTATION);
    for &(config, _) in limits::PROGRAM_CONFIGS.iter().chain(limits::HEAP_CONFIGS) {
        assert!(
            jobs.iter().filter(|j| j.config == config).count() >= 6,
            "{config} runs on too few programs"
        );
    }
    let runs = limits::run_all(&jobs, TIMEOUT_S, Duration::from_secs(30), 2);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(runs.len(), jobs.len());
    let failures = limits::failures(&runs, ALLOWED);
    assert!(
        failures.is_empty(),
        "{} of {} checks overran --timeout {TIMEOUT_S} by more than 1 s or ended without a report:\n{}",
        failures.len(),
        runs.len(),
        failures.join("\n")
    );
}
