//! The AskTheCode paper's Table 3 (seed 001, §5): the degree-counting benchmark under the six
//! backward variants, all twelve `(a, b)` rows, our times beside the paper's.
//!
//! Each cell runs `check_backward` in process on `symex_gen::degree::degree_counting(a)` with
//! loops unwound `b` times, targeting the assertion, under a per-cell time limit (the whole
//! check and every solver call, wall clock). A cell's time is the CPU time of the thread that
//! ran it (engine and in-process Z3, `CLOCK_THREAD_CPUTIME_ID`), so that other jobs on a
//! shared machine do not count; it is the median of `--runs` runs, or the single run when it
//! took longer than two seconds. With `--seeds N` each cell runs under the seeds 0 to N − 1
//! (`CheckOptions::seed`, which seeds Z3's search) and its time is the median over the seeds:
//! Z3's time on a satisfiable query moves 2–5× with its seed, so one seed is one draw. A cell
//! longer than two seconds keeps its first seed's time. Without that clock wall time is used and said. Every finished
//! cell's verdict is checked against the paper's rule (violated, with a replayed
//! counterexample, iff `a + 2 <= b`; otherwise `safe-up-to b`); a wrong verdict makes the
//! runner exit 1. A cell that ran out of time is
//! shown as `≥ T (limit)`, T its CPU time until then, and counts as at least T in the ratios.
//!
//! ```sh
//! cargo bench -p symex-engine --bench degree_counting -- [--timeout S] [--runs N] [--seeds N] [--rows A:B,..] [--variants V,..]
//! ```
//!
//! Defaults: 60 s per cell, 3 runs, 1 seed, all rows, all variants. The table is Markdown for
//! BENCHMARKS.md. This is a long runner (tens of minutes with the defaults), not a test.

use std::process::ExitCode;
use std::time::{Duration, Instant};

use symex_engine::backward::{check_backward, BackwardOptions, BseVariant, Target};
use symex_engine::CheckOptions;
use symex_gen::degree::{
    degree_counting, refutable, ASSERT_COLUMN, ASSERT_LINE, TABLE3_PAPER_MS, TABLE3_ROWS,
};
use symex_report::Status;

/// A single run longer than this is not repeated.
const LONG_RUN: Duration = Duration::from_secs(2);

struct Config {
    timeout: Duration,
    runs: usize,
    seeds: u64,
    rows: Vec<(u32, u32)>,
    variants: Vec<BseVariant>,
}

/// What one cell came to.
enum Cell {
    /// The rule's verdict, in this time.
    Agrees(Duration),
    /// No answer within the limit (or the solver's `unknown`), after this wall and CPU time.
    NoAnswer {
        wall: Duration,
        cpu: Duration,
        reason: String,
    },
    /// A verdict against the rule: a soundness or completeness bug.
    Wrong(String),
    NotRun,
}

fn parse_args() -> Result<Config, String> {
    let mut config = Config {
        timeout: Duration::from_secs(60),
        runs: 3,
        seeds: 1,
        rows: TABLE3_ROWS.to_vec(),
        variants: BseVariant::ALL.to_vec(),
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        // `cargo bench` passes `--bench` to every bench binary.
        if arg == "--bench" {
            continue;
        }
        let mut value = || args.next().ok_or_else(|| format!("{arg} needs a value"));
        match arg.as_str() {
            "--timeout" => {
                let seconds: f64 = value()?.parse().map_err(|e| format!("--timeout: {e}"))?;
                if !(seconds > 0.0 && seconds.is_finite()) {
                    return Err("--timeout must be a positive number of seconds".into());
                }
                config.timeout = Duration::from_secs_f64(seconds);
            }
            "--runs" => {
                config.runs = value()?.parse().map_err(|e| format!("--runs: {e}"))?;
                config.runs = config.runs.max(1);
            }
            "--seeds" => {
                config.seeds = value()?.parse().map_err(|e| format!("--seeds: {e}"))?;
                config.seeds = config.seeds.max(1);
            }
            "--rows" => {
                config.rows = value()?
                    .split(',')
                    .map(|row| {
                        let (a, b) = row
                            .split_once(':')
                            .ok_or_else(|| format!("row `{row}` is not A:B"))?;
                        let a = a.parse().map_err(|e| format!("row `{row}`: {e}"))?;
                        let b = b.parse().map_err(|e| format!("row `{row}`: {e}"))?;
                        Ok((a, b))
                    })
                    .collect::<Result<_, String>>()?;
            }
            "--variants" => {
                config.variants = value()?
                    .split(',')
                    .map(str::parse)
                    .collect::<Result<_, String>>()?;
            }
            other => return Err(format!("unknown argument `{other}`")),
        }
    }
    Ok(config)
}

/// The CPU time this thread has used, if the system tells it. `CLOCK_THREAD_CPUTIME_ID`,
/// not `/proc/thread-self/schedstat`: that file is brought up to date only at scheduler ticks
/// (4 ms here), too coarse for cells of 10–20 ms.
fn thread_cpu() -> Option<Duration> {
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `now` is a valid, writable `timespec`.
    let status = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut now) };
    let seconds = u64::try_from(now.tv_sec).ok()?;
    let nanos = u32::try_from(now.tv_nsec).ok()?;
    (status == 0).then(|| Duration::new(seconds, nanos))
}

/// One run of one cell: the time and the assertion's verdict.
fn run_once(
    a: u32,
    b: u32,
    variant: BseVariant,
    timeout: Duration,
    seed: u64,
) -> Result<Cell, String> {
    let source = degree_counting(a);
    let front = symex_syntax::analyze(&source).map_err(|e| format!("{e:?}"))?;
    let types = front.types.map_err(|e| format!("{e:?}"))?;
    let module = symex_ir::lower(&front.program);
    let mut options = CheckOptions {
        unwind: Some(b),
        timeout: Some(timeout),
        seed,
        ..CheckOptions::default()
    };
    options.query.timeout = Some(timeout);
    // Any backward option added later keeps its default here.
    #[allow(clippy::needless_update)]
    let backward = BackwardOptions {
        variant,
        target: Target::Property {
            line: ASSERT_LINE,
            column: Some(ASSERT_COLUMN),
        },
        ..BackwardOptions::default()
    };
    let start = Instant::now();
    let cpu_start = thread_cpu();
    let report = check_backward(
        &module,
        &types,
        &source,
        "degree_counting.uc",
        "degree_counting",
        &options,
        &backward,
    )
    .map_err(|e| format!("engine error: {e}"))?;
    let wall = start.elapsed();
    let elapsed = match (cpu_start, thread_cpu()) {
        (Some(before), Some(after)) => after.saturating_sub(before),
        _ => wall,
    };
    let property = report
        .properties()
        .iter()
        .find(|p| p.line == ASSERT_LINE && p.kind.name() == "assert")
        .ok_or("no assertion in the report")?;
    let status = property.verdict.status();
    let replayed = property.verdict.witness().map(|(_, confirmed)| confirmed);
    let reason = property.verdict.reason().unwrap_or("").to_string();
    Ok(match (status, refutable(a, b)) {
        (Status::Violated, true) if replayed == Some(true) => Cell::Agrees(elapsed),
        (Status::SafeUpTo, false) => Cell::Agrees(elapsed),
        (Status::Unknown, _) => Cell::NoAnswer {
            wall,
            cpu: elapsed,
            reason,
        },
        _ => Cell::Wrong(format!(
            "{} (replayed: {replayed:?}) {reason}",
            status.name()
        )),
    })
}

/// The median over the seeds of each seed's median of up to `runs` runs; one run, and one
/// seed, when it is long.
fn measure(a: u32, b: u32, variant: BseVariant, config: &Config) -> Result<Cell, String> {
    let mut per_seed = Vec::new();
    for seed in 0..config.seeds {
        let mut times = Vec::new();
        for _ in 0..config.runs {
            match run_once(a, b, variant, config.timeout, seed)? {
                Cell::Agrees(t) => {
                    times.push(t);
                    if t > LONG_RUN {
                        break;
                    }
                }
                other => return Ok(other),
            }
        }
        times.sort();
        let time = times[times.len() / 2];
        per_seed.push(time);
        if time > LONG_RUN {
            break;
        }
    }
    per_seed.sort();
    Ok(Cell::Agrees(per_seed[per_seed.len() / 2]))
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn show(d: Duration) -> String {
    let m = ms(d);
    if m >= 10_000.0 {
        format!("{:.1} s", m / 1000.0)
    } else {
        format!("{m:.0} ms")
    }
}

/// A cell's time for the ratios: exact, or a lower bound when it ran out of time.
fn bound(cell: &Cell) -> Option<(f64, bool)> {
    match cell {
        Cell::Agrees(t) => Some((ms(*t), true)),
        Cell::NoAnswer { cpu, .. } => Some((ms(*cpu), false)),
        _ => None,
    }
}

fn main() -> ExitCode {
    let config = match parse_args() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("degree_counting: {e}");
            return ExitCode::from(2);
        }
    };
    let clock = if thread_cpu().is_some() {
        "CPU time of the checking thread"
    } else {
        "wall time (no thread CPU clock)"
    };
    println!(
        "Degree counting (P Table 3): {clock}; per-cell limit {:.0} s (wall), median of {} run(s) (one if longer than {} s), median over {} seed(s) (the first if longer).\n",
        config.timeout.as_secs_f64(),
        config.runs,
        LONG_RUN.as_secs(),
        config.seeds
    );
    let mut header = String::from("| (a, b) | rule |");
    let mut line = String::from("|---|---|");
    for v in &config.variants {
        header.push_str(&format!(" {} (paper) |", v.paper_name()));
        line.push_str("---:|");
    }
    header.push_str(" best disj ÷ conj-never | conj-loops ÷ conj-never |");
    line.push_str("---:|---:|");
    println!("{header}\n{line}");
    let mut wrong = 0;
    let mut loops_ratios = Vec::new();
    let mut speedups = Vec::new();
    for &(a, b) in &config.rows {
        let paper = TABLE3_ROWS
            .iter()
            .position(|&row| row == (a, b))
            .map(|i| TABLE3_PAPER_MS[i]);
        let rule = if refutable(a, b) {
            "violated"
        } else {
            "safe-up-to"
        };
        let mut row = format!("| ({a}, {b}) | {rule} |");
        let mut cells = Vec::new();
        for &variant in &config.variants {
            let cell = measure(a, b, variant, &config).unwrap_or_else(Cell::Wrong);
            let paper_ms = paper
                .and_then(|p| {
                    BseVariant::ALL
                        .iter()
                        .position(|&v| v == variant)
                        .map(|i| p[i])
                })
                .map_or("–".to_string(), |p| p.to_string());
            let text = match &cell {
                Cell::Agrees(t) => show(*t),
                Cell::NoAnswer { wall, cpu, .. }
                    if *wall + Duration::from_millis(500) >= config.timeout =>
                {
                    format!("≥ {} (limit)", show(*cpu))
                }
                Cell::NoAnswer { cpu, reason, .. } => {
                    format!("unknown after {} ({reason})", show(*cpu))
                }
                Cell::Wrong(what) => {
                    wrong += 1;
                    format!("**WRONG: {what}**")
                }
                Cell::NotRun => "–".to_string(),
            };
            row.push_str(&format!(" {text} ({paper_ms}) |"));
            cells.push((variant, cell));
        }
        let find = |v: BseVariant| {
            cells
                .iter()
                .find(|(w, _)| *w == v)
                .map_or(&Cell::NotRun, |(_, c)| c)
        };
        let never = bound(find(BseVariant::ConjNever));
        let best_disj = cells
            .iter()
            .filter(|(v, _)| v.is_disjunct_propagation())
            .filter_map(|(_, c)| bound(c))
            .min_by(|x, y| x.0.total_cmp(&y.0));
        let speedup = match (best_disj, never) {
            (Some((d, exact)), Some((n, true))) => {
                speedups.push(d / n);
                format!("{}{:.1}×", if exact { "" } else { "≥ " }, d / n)
            }
            _ => "–".to_string(),
        };
        let loops = match (bound(find(BseVariant::ConjLoops)), never) {
            (Some((l, true)), Some((n, true))) => {
                loops_ratios.push(l / n);
                format!("{:.2}", l / n)
            }
            _ => "–".to_string(),
        };
        println!("{row} {speedup} | {loops} |");
    }
    if !speedups.is_empty() {
        let min = speedups.iter().copied().fold(f64::INFINITY, f64::min);
        println!(
            "\nbest disjunct propagation ÷ conj-never: at least {min:.1}× on the {} row(s) where conj-never answered",
            speedups.len()
        );
    }
    if !loops_ratios.is_empty() {
        let mean = loops_ratios.iter().sum::<f64>() / loops_ratios.len() as f64;
        println!(
            "conj-loops ÷ conj-never: mean {:.2} over {} row(s) (target ≤ 1.25)",
            mean,
            loops_ratios.len()
        );
    }
    if wrong > 0 {
        eprintln!("{wrong} cell(s) with a verdict against the rule a + 2 <= b");
        return ExitCode::from(1);
    }
    ExitCode::SUCCESS
}
