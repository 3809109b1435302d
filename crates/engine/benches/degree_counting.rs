//! The AskTheCode paper's Table 3 (seed 001, §5): the degree-counting benchmark under the six
//! backward variants, all twelve `(a, b)` rows, our times beside the paper's.
//!
//! Each cell runs `check_backward` on `symex_gen::degree::degree_counting(a)` with loops
//! unwound `b` times, targeting the assertion, under a per-cell time limit (the whole check and
//! every solver call, wall clock). Every cell and seed runs in a **fresh process** (this binary,
//! started again with `--cell`), after two warm-up checks of row (0, 1) under the same variant:
//! Z3's allocations and global tables carry over between checks in one process and moved small
//! cells by up to 1.7× depending on which cells ran before, and the first two checks of a
//! process pay for new memory (Z3 4.8.12 fills two 8.5 MB tables for every context: about 9 ms
//! of page faults while the memory is new, 1 ms later; BENCHMARKS.md). A row's variants are
//! measured seed by seed in turn, so that the cells a ratio compares are measured minutes
//! apart at most. A process whose next run is ten seconds past the limit is killed (Z3 can sit
//! in one call long past its limit); the run counts as the limit, `(limit, killed)`.
//!
//! A cell's time is the CPU time of the thread that ran it (engine and in-process Z3,
//! `CLOCK_THREAD_CPUTIME_ID`), so that other jobs on a shared machine do not count; it is the
//! median of `--runs` runs, or the single run when it took longer than two seconds. With
//! `--seeds N` each cell runs under the seeds 0 to N − 1 (`CheckOptions::seed`, which seeds Z3's
//! search) and its time is the median over the seeds: Z3's time on a satisfiable query moves
//! 2–5× with its seed, so one seed is one draw. A variant takes no more seeds once one took
//! longer than two seconds (its cell is the median of the seeds run, the upper middle of an
//! even number). Without that clock wall time is used and said. Every finished cell's verdict is
//! checked against the paper's rule (violated, with a replayed counterexample, iff
//! `a + 2 <= b`; otherwise `safe-up-to b`); a wrong verdict makes the runner exit 1. A cell that
//! ran out of time is shown as `≥ T (limit)`, T its CPU time until then, and counts as at least
//! T in the ratios.
//!
//! ```sh
//! cargo bench -p symex-engine --bench degree_counting -- [--timeout S] [--runs N] [--seeds N] [--rows A:B,..] [--variants V,..]
//! ```
//!
//! Defaults: 60 s per cell, 3 runs, 1 seed, all rows, all variants. The table is Markdown for
//! BENCHMARKS.md. This is a long runner (tens of minutes with the defaults), not a test.

use std::fmt::Display;
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, ExitCode, Stdio};
use std::str::FromStr;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use symex_engine::backward::{check_backward, BackwardOptions, BseVariant, Target};
use symex_engine::CheckOptions;
use symex_gen::degree::{
    degree_counting, refutable, ASSERT_COLUMN, ASSERT_LINE, TABLE3_PAPER_MS, TABLE3_ROWS,
};
use symex_report::Status;

/// A single run longer than this is not repeated.
const LONG_RUN: Duration = Duration::from_secs(2);

/// How long past its limit a cell's process may run before it is killed.
const OVERRUN: Duration = Duration::from_secs(10);

/// The row of the warm-up checks each cell's process runs first (their times are not counted).
const WARM_UP: (u32, u32) = (0, 1);

/// How many warm-up checks: the first two checks of a process pay for new memory (page faults
/// in Z3's context tables, about 9 ms each on degree counting), later ones reuse it.
const WARM_UPS: usize = 2;

struct Config {
    timeout: Duration,
    runs: usize,
    seeds: u64,
    rows: Vec<(u32, u32)>,
    variants: Vec<BseVariant>,
    /// Set in a cell's own process: the row, variant and seed to run.
    cell: Option<CellJob>,
}

#[derive(Clone, Copy)]
struct CellJob {
    a: u32,
    b: u32,
    variant: BseVariant,
    seed: u64,
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
}

/// `text` parsed, or an error that says where it came from.
fn parse_in<T: FromStr>(text: &str, context: &str) -> Result<T, String>
where
    T::Err: Display,
{
    text.parse().map_err(|e| format!("{context}: {e}"))
}

fn parse_args() -> Result<Config, String> {
    let mut config = Config {
        timeout: Duration::from_secs(60),
        runs: 3,
        seeds: 1,
        rows: TABLE3_ROWS.to_vec(),
        variants: BseVariant::ALL.to_vec(),
        cell: None,
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
                        let context = format!("row `{row}`");
                        let a = parse_in(a, &context)?;
                        let b = parse_in(b, &context)?;
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
            "--cell" => {
                let job = value()?;
                let parts: Vec<&str> = job.split(':').collect();
                let [a, b, variant, seed] = parts[..] else {
                    return Err(format!("--cell `{job}` is not A:B:VARIANT:SEED"));
                };
                let context = format!("--cell `{job}`");
                config.cell = Some(CellJob {
                    a: parse_in(a, &context)?,
                    b: parse_in(b, &context)?,
                    variant: parse_in(variant, &context)?,
                    seed: parse_in(seed, &context)?,
                });
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

/// The prefix of the lines a cell's process writes for the runner; the runner passes any other
/// line of its stdout on to stderr.
const PROTOCOL: &str = "@cell ";

/// Whether a cell's process goes on to another run after this one.
fn continues(cell: &Cell) -> bool {
    matches!(cell, Cell::Agrees(t) if *t <= LONG_RUN)
}

/// Writes `cell` for the runner, flushed, so that the runner has the runs done before a kill;
/// whether it could.
fn report(cell: &Cell) -> bool {
    let text = match cell {
        Cell::Agrees(t) => format!("agrees {}", t.as_nanos()),
        Cell::NoAnswer { wall, cpu, reason } => {
            format!("noanswer {} {} {reason}", wall.as_nanos(), cpu.as_nanos())
        }
        Cell::Wrong(what) => format!("wrong {what}"),
    };
    let mut stdout = std::io::stdout().lock();
    writeln!(stdout, "{PROTOCOL}{}", text.replace('\n', " "))
        .and_then(|()| stdout.flush())
        .is_ok()
}

/// A cell's process: the warm-up checks, then up to `runs` runs of the cell (one when it is
/// long), each reported as one line for [`parse_run`].
fn run_cell(job: CellJob, config: &Config) -> ExitCode {
    let (a, b) = WARM_UP;
    for _ in 0..WARM_UPS {
        // The rule holds for the warm-up row too; a verdict against it is reported as the cell's.
        if let Cell::Wrong(what) =
            run_once(a, b, job.variant, config.timeout, job.seed).unwrap_or_else(Cell::Wrong)
        {
            report(&Cell::Wrong(format!("warm-up row ({a}, {b}): {what}")));
            return ExitCode::FAILURE;
        }
    }
    for _ in 0..config.runs {
        let cell = run_once(job.a, job.b, job.variant, config.timeout, job.seed)
            .unwrap_or_else(Cell::Wrong);
        if !report(&cell) || !continues(&cell) {
            break;
        }
    }
    ExitCode::SUCCESS
}

/// One protocol line of a cell's process, without its prefix.
fn parse_run(line: &str) -> Cell {
    let nanos = |text: &str| text.parse().map(Duration::from_nanos);
    let (kind, rest) = line.split_once(' ').unwrap_or((line, ""));
    let parsed = match kind {
        "agrees" => nanos(rest).map(Cell::Agrees).ok(),
        "noanswer" => {
            let mut fields = rest.splitn(3, ' ');
            match (fields.next().map(nanos), fields.next().map(nanos)) {
                (Some(Ok(wall)), Some(Ok(cpu))) => Some(Cell::NoAnswer {
                    wall,
                    cpu,
                    reason: fields.next().unwrap_or("").to_string(),
                }),
                _ => None,
            }
        }
        "wrong" => Some(Cell::Wrong(rest.to_string())),
        _ => None,
    };
    parsed.unwrap_or_else(|| Cell::Wrong(format!("unreadable line from a cell's process: {line}")))
}

/// The runs of one cell under one seed, in the cell's own process; a process that overruns the
/// limit is killed and its run counts as no answer after the limit, and one that fails is a
/// wrong cell.
fn runs_in_process(job: CellJob, config: &Config) -> Result<Vec<Cell>, String> {
    let exe = std::env::current_exe().map_err(|e| format!("this runner's path: {e}"))?;
    let mut child = Command::new(exe)
        .args([
            "--cell",
            &format!("{}:{}:{}:{}", job.a, job.b, job.variant.name(), job.seed),
            "--timeout",
            &config.timeout.as_secs_f64().to_string(),
            "--runs",
            &config.runs.to_string(),
        ])
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| format!("starting a cell's process: {e}"))?;
    let stdout = child
        .stdout
        .take()
        .ok_or("a cell's process without stdout")?;
    let (lines_tx, lines) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if lines_tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut cells: Vec<Cell> = Vec::new();
    // The first run comes after the warm-ups; each gets the limit and the overrun allowance.
    let mut since = Instant::now();
    let mut allowance = (WARM_UPS as u32 + 1) * config.timeout + OVERRUN;
    let mut killed = false;
    while cells.len() < config.runs && cells.last().is_none_or(continues) {
        match lines.recv_timeout(allowance.saturating_sub(since.elapsed())) {
            Ok(line) => match line.strip_prefix(PROTOCOL) {
                Some(text) => {
                    cells.push(parse_run(text));
                    since = Instant::now();
                    allowance = config.timeout + OVERRUN;
                }
                None => eprintln!("{line}"),
            },
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
            Err(mpsc::RecvTimeoutError::Timeout) => {
                // Killing may fail only when the process just ended.
                let _ = child.kill();
                killed = true;
                cells.push(Cell::NoAnswer {
                    wall: since.elapsed(),
                    cpu: config.timeout,
                    reason: "killed: the process overran the limit".into(),
                });
            }
        }
    }
    let status = child.wait().map_err(|e| format!("a cell's process: {e}"))?;
    if !status.success() && !killed && !matches!(cells.last(), Some(Cell::Wrong(_))) {
        cells.push(Cell::Wrong(format!(
            "a cell's process ended with {status} after {} run(s)",
            cells.len()
        )));
    }
    if cells.is_empty() {
        return Err(format!("a cell's process ended without a run ({status})"));
    }
    Ok(cells)
}

/// One seed's time of a cell: the median of its runs, or the run that did not agree.
fn seed_time(job: CellJob, config: &Config) -> Result<Duration, Cell> {
    let mut times = Vec::new();
    for cell in runs_in_process(job, config).map_err(Cell::Wrong)? {
        match cell {
            Cell::Agrees(t) => times.push(t),
            other => return Err(other),
        }
    }
    Ok(median(&mut times))
}

fn median(times: &mut [Duration]) -> Duration {
    times.sort();
    times[times.len() / 2]
}

/// The cells of one row, in the order of `config.variants`: seed by seed, every variant in turn,
/// so that the variants of a row are measured close together in time (the host's speed drifts
/// by up to 2× over minutes, and the ratios compare cells of one row). A cell's time is the
/// median over its seeds; a variant takes no more seeds after a long one, or after a run
/// without the rule's verdict (which is then the cell).
fn measure_row(a: u32, b: u32, config: &Config) -> Vec<Cell> {
    let variants = &config.variants;
    let mut times: Vec<Vec<Duration>> = vec![Vec::new(); variants.len()];
    let mut ended: Vec<Option<Cell>> = variants.iter().map(|_| None).collect();
    for seed in 0..config.seeds {
        for (i, &variant) in variants.iter().enumerate() {
            if ended[i].is_some() {
                continue;
            }
            let job = CellJob {
                a,
                b,
                variant,
                seed,
            };
            match seed_time(job, config) {
                Ok(time) => {
                    times[i].push(time);
                    if time > LONG_RUN {
                        ended[i] = Some(Cell::Agrees(median(&mut times[i])));
                    }
                }
                Err(cell) => ended[i] = Some(cell),
            }
        }
    }
    ended
        .into_iter()
        .zip(&mut times)
        .map(|(cell, times)| cell.unwrap_or_else(|| Cell::Agrees(median(times))))
        .collect()
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
    if let Some(job) = config.cell {
        return run_cell(job, &config);
    }
    let clock = if thread_cpu().is_some() {
        "CPU time of the checking thread"
    } else {
        "wall time (no thread CPU clock)"
    };
    println!(
        "Degree counting (P Table 3): {clock}; each cell and seed in a fresh process after {WARM_UPS} warm-up checks, a row's variants seed by seed; per-cell limit {:.0} s (wall), median of {} run(s) (one if longer than {} s), median over {} seed(s) (the first if longer).\n",
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
        for (&variant, cell) in config.variants.iter().zip(measure_row(a, b, &config)) {
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
                Cell::NoAnswer { wall, cpu, reason }
                    if *wall + Duration::from_millis(500) >= config.timeout =>
                {
                    let killed = if reason.starts_with("killed") {
                        ", killed"
                    } else {
                        ""
                    };
                    format!("≥ {} (limit{killed})", show(*cpu))
                }
                Cell::NoAnswer { cpu, reason, .. } => {
                    format!("unknown after {} ({reason})", show(*cpu))
                }
                Cell::Wrong(what) => {
                    wrong += 1;
                    format!("**WRONG: {what}**")
                }
            };
            row.push_str(&format!(" {text} ({paper_ms}) |"));
            cells.push((variant, cell));
        }
        let find = |v: BseVariant| cells.iter().find(|(w, _)| *w == v).map(|(_, c)| c);
        let never = find(BseVariant::ConjNever).and_then(bound);
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
        let loops = match (find(BseVariant::ConjLoops).and_then(bound), never) {
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
