//! Forward-engine throughput when every path needs the solver (issue 24), side by side in one
//! run, on three kinds of workload:
//!
//! * programs of `n` independent input-driven branches
//!   (`x = input; if (x > k) { s = s + x; } else { s = s - k; }`), 2^n feasible paths, ending
//!   with no check (issue 4's original program), `assert(s != 123456789)` (violated, and a
//!   question about a sum of all inputs on every path) or `assert(s * 2 != 1)` (safe: `2s` is
//!   even, yet the solver must show it on every path);
//! * the shared corpus (every file whose entry is `main`), per search strategy;
//! * generated programs (calls, branches, bounded loops over linear arithmetic), per search
//!   strategy.
//!
//! For each workload and configuration: time, paths per second, questions asked and checks
//! sent to the solver per path, the shares of the questions the cache, unsat subsets and
//! model reuse answered, the engine's time per path over the interpreter's time per run, the
//! peak number of live states (of the workload's program with the most), that program's heap
//! per live state (a counting allocator: the Rust heap's peak growth during its check over its
//! peak live states; an upper bound of a state's share, since the term store and the caches
//! grow too, and without Z3's own memory), and the process's peak resident memory so far.
//! Every path is explored (`explore_all`), also after a violation.
//!
//! `cargo bench -p symex-engine --bench paths`

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::time::{Duration, Instant};

use symex_engine::{check_forward, CheckOptions, MergeMode, SearchStrategy};
use symex_gen::{generate, GenConfig};
use symex_interp::{Interpreter, RunConfig};

/// The system allocator, counting the bytes the current thread allocated and not yet freed,
/// and their peak (for memory per state; the engine runs on the bench's one thread). Per
/// thread, so that counting costs no atomic operation (they slowed the engine by 10 %).
struct Counting;

thread_local! {
    static IN_USE: Cell<isize> = const { Cell::new(0) };
    static PEAK: Cell<isize> = const { Cell::new(0) };
}

fn grew(bytes: isize) {
    // `try_with`: the thread's counters may be gone while it shuts down.
    let _ = IN_USE.try_with(|in_use| {
        let now = in_use.get() + bytes;
        in_use.set(now);
        let _ = PEAK.try_with(|peak| peak.set(peak.get().max(now)));
    });
}

/// The bytes in use now; the peak restarts from here.
fn reset_peak() -> isize {
    let now = IN_USE.with(Cell::get);
    PEAK.with(|peak| peak.set(now));
    now
}

// SAFETY: every method forwards to the system allocator with the caller's arguments and only
// adds bookkeeping in thread-local counters (which allocate nothing).
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded unchanged.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            grew(layout.size() as isize);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded unchanged.
        unsafe { System.dealloc(ptr, layout) };
        grew(-(layout.size() as isize));
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: forwarded unchanged.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            grew(new_size as isize - layout.size() as isize);
        }
        p
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// The program with `branches` branches and the final check `end` (none if empty).
fn branches_program(branches: u32, end: &str) -> String {
    let mut text = String::from("main() {\n  var x, s;\n  s = 0;\n");
    for k in 1..=branches {
        text.push_str(&format!(
            "  x = input;\n  if (x > {k}) {{ s = s + x; }} else {{ s = s - {k}; }}\n"
        ));
    }
    if !end.is_empty() {
        text.push_str(&format!("  assert({end});\n"));
    }
    text.push_str("  return s;\n}\n");
    text
}

/// The process's peak resident memory in MiB (Linux's `VmHWM`).
fn peak_mib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    Some(line.split_whitespace().nth(1)?.parse::<u64>().ok()? / 1024)
}

/// One program of a workload, with the inputs of concrete runs that time the interpreter.
struct Program {
    name: String,
    source: String,
    /// Extra configuration (a corpus file's loop bound).
    unwind: Option<u32>,
    runs: Vec<Vec<i32>>,
}

struct Workload {
    name: &'static str,
    programs: Vec<Program>,
    /// Each program's time limit (none for the branch programs: they finish).
    timeout: Option<Duration>,
    configs: Vec<(String, CheckOptions)>,
}

fn configured(search: SearchStrategy, f: impl FnOnce(&mut CheckOptions)) -> CheckOptions {
    let mut options = CheckOptions {
        search,
        seed: 1,
        // Every path, also after the violation is found: the figures are per path.
        explore_all: true,
        ..CheckOptions::default()
    };
    f(&mut options);
    options
}

fn every_search() -> Vec<(String, CheckOptions)> {
    SearchStrategy::ALL
        .iter()
        .map(|&s| (s.to_string(), configured(s, |_| {})))
        .collect()
}

fn branches(
    name: &'static str,
    n: u32,
    end: &str,
    configs: Vec<(String, CheckOptions)>,
) -> Workload {
    Workload {
        name,
        programs: vec![Program {
            name: name.to_string(),
            source: branches_program(n, end),
            unwind: None,
            // All inputs large: every `then` branch.
            runs: vec![vec![100; n as usize]],
        }],
        timeout: None,
        configs,
    }
}

/// The shared corpus's files whose entry is `main`, with the inputs of their `run:` lines.
fn corpus() -> Vec<Program> {
    let files = symex_corpus::all_files().expect("the corpus loads");
    files
        .into_iter()
        .filter(|f| f.entry.is_none() && f.origin == symex_corpus::Origin::Shared)
        .map(|f| Program {
            name: f.label(),
            runs: f.runs.iter().map(|r| r.input.clone()).collect(),
            unwind: f.bound,
            source: f.source,
        })
        .collect()
}

/// Twenty generated programs with calls, branches and bounded loops over linear arithmetic
/// (no division, heap, arrays or asserts: their paths end normally, so each counts as a
/// path), each run on ten input sequences.
fn generated() -> Vec<Program> {
    let config = GenConfig {
        functions: 2,
        statements: 6,
        nested_statements: 3,
        max_block_depth: 2,
        max_loop_depth: 1,
        loop_percent: 5,
        for_percent: 15,
        if_percent: 40,
        max_loop_bound: 3,
        divisions: false,
        heap: false,
        null_pointers: false,
        arrays: false,
        symbolic_indices: false,
        asserts: false,
        linear: true,
        ..GenConfig::default()
    };
    (0..20)
        .map(|seed| Program {
            name: format!("gen_{seed}"),
            source: generate(&config, seed),
            unwind: None,
            runs: (0..10)
                .map(|r: i32| {
                    (0..32)
                        .map(|i| (i * 7 + r * 13 + seed as i32) % 21 - 10)
                        .collect()
                })
                .collect(),
        })
        .collect()
}

fn workloads() -> Vec<Workload> {
    let dfs = SearchStrategy::Dfs;
    let no_reuse = configured(dfs, |o| o.query.model_reuse = false);
    let merged = configured(dfs, |o| o.merge = MergeMode::Aggressive);
    // The default search.
    let klee = SearchStrategy::Klee;
    let klee_merged = configured(klee, |o| o.merge = MergeMode::Aggressive);
    let mut violated = every_search();
    violated.push(("dfs --no-model-reuse".into(), no_reuse));
    violated.push(("dfs --merge aggressive".into(), merged.clone()));
    let both_searches = || {
        vec![
            ("dfs".into(), configured(dfs, |_| {})),
            ("dfs --merge aggressive".into(), merged.clone()),
            ("klee".into(), configured(klee, |_| {})),
            ("klee --merge aggressive".into(), klee_merged.clone()),
        ]
    };
    vec![
        branches("12 branches, no check", 12, "", every_search()),
        branches("12 branches, violated", 12, "s != 123456789", violated),
        branches("12 branches, safe", 12, "s * 2 != 1", both_searches()),
        branches(
            "16 branches, violated",
            16,
            "s != 123456789",
            both_searches(),
        ),
        branches(
            "16 branches, safe",
            16,
            "s * 2 != 1",
            vec![
                ("dfs --merge aggressive".into(), merged.clone()),
                ("klee --merge aggressive".into(), klee_merged.clone()),
            ],
        ),
        Workload {
            name: "shared corpus (2 s each)",
            programs: corpus(),
            timeout: Some(Duration::from_secs(2)),
            configs: every_search(),
        },
        Workload {
            name: "20 generated programs (2 s each)",
            programs: generated(),
            timeout: Some(Duration::from_secs(2)),
            configs: every_search(),
        },
    ]
}

/// The interpreter's mean time per run over every program's runs.
fn interpreter_time_per_run(programs: &[Program]) -> f64 {
    let (mut total, mut runs) = (0.0, 0u64);
    for program in programs {
        let front = symex_syntax::analyze(&program.source).expect("valid program");
        let module = symex_ir::lower(&front.program);
        let interpreter = Interpreter::new(&module).expect("valid module");
        let config = RunConfig::default().with_max_steps(10_000_000);
        let repeat = 200;
        let start = Instant::now();
        for _ in 0..repeat {
            for inputs in &program.runs {
                // How the run ends does not matter here, only how long it takes.
                let _ = interpreter.run_main(inputs, &config);
            }
        }
        total += start.elapsed().as_secs_f64();
        runs += repeat * program.runs.len() as u64;
    }
    total / runs.max(1) as f64
}

/// What one configuration did over a workload's programs.
#[derive(Default)]
struct Totals {
    elapsed: f64,
    paths: u64,
    queries: u64,
    solver_calls: u64,
    cache_hits: u64,
    unsat_subset_hits: u64,
    model_hits: u64,
    /// The most live states of one program, and that program's peak heap growth over them.
    peak_states: u64,
    bytes_per_state: f64,
}

fn run(workload: &Workload, options: &CheckOptions) -> Totals {
    let mut totals = Totals::default();
    for program in &workload.programs {
        let front = symex_syntax::analyze(&program.source).expect("valid program");
        let types = front.types.expect("and well typed");
        let module = symex_ir::lower(&front.program);
        let options = CheckOptions {
            timeout: workload.timeout,
            unwind: program.unwind,
            ..options.clone()
        };
        let before = reset_peak();
        let start = Instant::now();
        let report = check_forward(
            &module,
            &types,
            &program.source,
            &program.name,
            "main",
            &options,
        )
        .expect("the engine runs");
        totals.elapsed += start.elapsed().as_secs_f64();
        let growth = (PEAK.with(Cell::get) - before).max(0);
        let stats = &report.stats;
        let peak = stats.peak_states.unwrap_or(1).max(1);
        if peak > totals.peak_states {
            totals.peak_states = peak;
            totals.bytes_per_state = growth as f64 / peak as f64;
        }
        totals.paths += stats.paths;
        totals.queries += stats.queries;
        totals.solver_calls += stats.solver_calls.unwrap_or(0);
        totals.cache_hits += stats.cache_hits.unwrap_or(0);
        totals.unsat_subset_hits += stats.unsat_subset_hits.unwrap_or(0);
        totals.model_hits += stats.model_hits.unwrap_or(0);
    }
    totals
}

fn main() {
    println!(
        "| workload | configuration | paths | time | paths/s | questions / path | solver checks / \
         path | cache hits | unsat-subset hits | model-reuse hits | engine / interpreter per path \
         | peak live states | heap per live state | peak memory |"
    );
    println!("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for workload in workloads() {
        let interp_per_path = interpreter_time_per_run(&workload.programs);
        for (name, options) in &workload.configs {
            let t = run(&workload, options);
            let paths = t.paths.max(1) as f64;
            let share = |n: u64| 100.0 * n as f64 / t.queries.max(1) as f64;
            println!(
                "| {} | {name} | {} | {:.0} ms | {:.0} | {:.2} | {:.4} | {:.0} % | {:.1} % | {:.0} % | {:.0}× | {} | {:.1} KiB | {} MiB |",
                workload.name,
                t.paths,
                t.elapsed * 1e3,
                paths / t.elapsed,
                t.queries as f64 / paths,
                t.solver_calls as f64 / paths,
                share(t.cache_hits),
                share(t.unsat_subset_hits),
                share(t.model_hits),
                (t.elapsed / paths) / interp_per_path,
                t.peak_states,
                t.bytes_per_state / 1024.0,
                peak_mib().map_or("?".into(), |m| m.to_string()),
            );
        }
    }
}
