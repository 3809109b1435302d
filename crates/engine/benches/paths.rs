//! Forward-engine throughput when every path needs the solver (issue 24), side by side in one
//! run. The programs have `n` independent input-driven branches
//! (`x = input; if (x > k) { s = s + x; } else { s = s - k; }`), 2^n feasible paths, and end
//! in one of three ways: no check (issue 4's original program), `assert(s != 123456789)`
//! (violated, and a question about a sum of all inputs on every path) or `assert(s * 2 != 1)`
//! (safe: `2s` is even, yet the solver must show it on every path). For each workload and
//! configuration: time, paths per second, questions asked and checks sent to the solver per
//! path, the cache's and model reuse's shares of the questions, the engine's time per path
//! over the interpreter's, and the process's peak memory so far.
//!
//! `cargo bench -p symex-engine --bench paths`

use std::time::Instant;

use symex_engine::{check_forward, CheckOptions, MergeMode, SearchStrategy};
use symex_interp::{Interpreter, RunConfig};

/// The program with `branches` branches and the final check `end` (none if empty).
fn program(branches: u32, end: &str) -> String {
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

struct Workload {
    name: &'static str,
    branches: u32,
    end: &'static str,
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

fn workloads() -> Vec<Workload> {
    let every_search = |f: fn(&mut CheckOptions)| {
        SearchStrategy::ALL
            .iter()
            .map(|&s| (s.to_string(), configured(s, f)))
            .collect::<Vec<_>>()
    };
    let dfs = SearchStrategy::Dfs;
    let no_reuse = configured(dfs, |o| o.query.model_reuse = false);
    let merged = configured(dfs, |o| o.merge = MergeMode::Aggressive);
    // The default search.
    let klee = SearchStrategy::Klee;
    let klee_merged = configured(klee, |o| o.merge = MergeMode::Aggressive);
    vec![
        Workload {
            name: "12 branches, no check",
            branches: 12,
            end: "",
            configs: every_search(|_| {}),
        },
        Workload {
            name: "12 branches, violated",
            branches: 12,
            end: "s != 123456789",
            configs: {
                let mut c = every_search(|_| {});
                c.push(("dfs --no-model-reuse".into(), no_reuse.clone()));
                c.push(("dfs --merge aggressive".into(), merged.clone()));
                c
            },
        },
        Workload {
            name: "12 branches, safe",
            branches: 12,
            end: "s * 2 != 1",
            configs: vec![
                ("dfs".into(), configured(dfs, |_| {})),
                ("dfs --merge aggressive".into(), merged.clone()),
                ("klee".into(), configured(klee, |_| {})),
                ("klee --merge aggressive".into(), klee_merged.clone()),
            ],
        },
        Workload {
            name: "16 branches, violated",
            branches: 16,
            end: "s != 123456789",
            configs: vec![
                ("dfs".into(), configured(dfs, |_| {})),
                ("dfs --merge aggressive".into(), merged.clone()),
                ("klee".into(), configured(klee, |_| {})),
                ("klee --merge aggressive".into(), klee_merged.clone()),
            ],
        },
        Workload {
            name: "16 branches, safe",
            branches: 16,
            end: "s * 2 != 1",
            configs: vec![
                ("dfs --merge aggressive".into(), merged),
                ("klee --merge aggressive".into(), klee_merged),
            ],
        },
    ]
}

fn main() {
    println!(
        "| workload | configuration | paths | time | paths/s | questions / path | solver checks / \
         path | cache hits | model-reuse hits | engine / interpreter per path | peak memory |"
    );
    println!("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for workload in workloads() {
        let source = program(workload.branches, workload.end);
        let front = symex_syntax::analyze(&source).expect("the benchmark program is valid");
        let types = front.types.expect("and well typed");
        let module = symex_ir::lower(&front.program);
        // The interpreter's time for one path (all inputs large: every `then` branch).
        let interpreter = Interpreter::new(&module).expect("valid module");
        let inputs = vec![100; workload.branches as usize];
        let runs = 20_000;
        let start = Instant::now();
        for _ in 0..runs {
            interpreter
                .run_main(&inputs, &RunConfig::default())
                .expect("main runs");
        }
        let interp_per_path = start.elapsed().as_secs_f64() / runs as f64;
        for (name, options) in &workload.configs {
            let start = Instant::now();
            let report = check_forward(&module, &types, &source, "paths.uc", "main", options)
                .expect("the engine runs");
            let elapsed = start.elapsed().as_secs_f64();
            let stats = &report.stats;
            let paths = stats.paths.max(1) as f64;
            let share =
                |n: Option<u64>| 100.0 * n.unwrap_or(0) as f64 / stats.queries.max(1) as f64;
            println!(
                "| {} | {name} | {} | {:.0} ms | {:.0} | {:.2} | {:.4} | {:.0} % | {:.0} % | {:.0}× | {} MiB |",
                workload.name,
                stats.paths,
                elapsed * 1e3,
                paths / elapsed,
                stats.queries as f64 / paths,
                stats.solver_calls.unwrap_or(0) as f64 / paths,
                share(stats.cache_hits),
                share(stats.model_hits),
                (elapsed / paths) / interp_per_path,
                peak_mib().map_or("?".into(), |m| m.to_string()),
            );
        }
    }
}
