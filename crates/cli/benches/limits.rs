//! The long version of the limits stress test: hundreds of generated programs and the corpus's
//! heap drivers through every engine and variant, each `symex check` with `--timeout`, measured
//! from outside; prints per configuration the runs, how many ended without a report, the
//! slowest run and the worst overrun of the limit, then the slowest runs.
//!
//! `cargo bench -p symex-cli --bench limits -- [PROGRAMS] [TIMEOUT_S]` (defaults 300 and 2;
//! two runs at a time). Figures go to BENCHMARKS.md ("Limits").

#[path = "../tests/support/limits.rs"]
mod limits;

use std::time::{Duration, Instant};

/// The first seed of the generated programs (the CI test uses the first few dozen).
const FIRST_SEED: u64 = 100_000;

fn main() {
    let numbers: Vec<u64> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let programs = numbers.first().copied().unwrap_or(300);
    let timeout_s = numbers.get(1).copied().unwrap_or(2);
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("symex-limits-bench-{}", std::process::id()));
    let files = limits::generate(&dir, FIRST_SEED..FIRST_SEED + programs);
    let jobs = limits::jobs(&files, &limits::heap_drivers(), 1);
    let started = Instant::now();
    let runs = limits::run_all(&jobs, timeout_s, Duration::from_secs(60), 2);
    let total = started.elapsed();
    let limit = Duration::from_secs(timeout_s);
    println!(
        "{} runs ({programs} generated programs and {} heap drivers), --timeout {timeout_s}, two at a time, {:.0} s in all\n",
        runs.len(),
        limits::heap_drivers().len(),
        total.as_secs_f64()
    );
    println!("| configuration | runs | time in all (s) | without a report | over limit + 1 s | slowest run (s) | worst overrun (s) |");
    println!("|---|---:|---:|---:|---:|---:|---:|");
    let configs = limits::PROGRAM_CONFIGS.iter().chain(limits::HEAP_CONFIGS);
    for &(config, _) in configs {
        let of: Vec<&limits::Run> = runs.iter().filter(|r| r.job.config == config).collect();
        let slowest = of.iter().map(|r| r.wall).max().unwrap_or_default();
        let time: Duration = of.iter().map(|r| r.wall).sum();
        println!(
            "| {config} | {} | {:.0} | {} | {} | {:.2} | {:.2} |",
            of.len(),
            time.as_secs_f64(),
            of.iter().filter(|r| !r.reported()).count(),
            of.iter()
                .filter(|r| r.wall > limit + Duration::from_secs(1))
                .count(),
            slowest.as_secs_f64(),
            slowest.saturating_sub(limit).as_secs_f64(),
        );
    }
    let mut slowest: Vec<&limits::Run> = runs.iter().collect();
    slowest.sort_by_key(|r| std::cmp::Reverse(r.wall));
    println!("\nslowest runs:");
    for run in slowest.iter().take(10) {
        println!("  {}", run.describe());
    }
    let _ = std::fs::remove_dir_all(&dir);
}
