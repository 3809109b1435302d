//! Forward-engine throughput on a loop-free program with 4,096 feasible paths (issue 4's target:
//! exploring them all with Z3 in under 2 s). For each search strategy: total time, paths per
//! second, the solver's share of the time, and the ratio of the engine's time per path to the
//! interpreter's time for running one such path concretely.
//!
//! `cargo bench -p symex-engine --bench paths`

use std::time::Instant;

use symex_engine::{check_forward, CheckOptions, SearchStrategy};
use symex_interp::{Interpreter, RunConfig};

/// Twelve independent input-driven branches: 2^12 = 4,096 feasible paths of about 50 IR
/// instructions each.
fn program() -> String {
    let mut text = String::from("main() {\n  var x, s;\n  s = 0;\n");
    for k in 1..=12 {
        text.push_str(&format!(
            "  x = input;\n  if (x > {k}) {{ s = s + x; }} else {{ s = s - {k}; }}\n"
        ));
    }
    text.push_str("  return s;\n}\n");
    text
}

fn main() {
    let source = program();
    let front = symex_syntax::analyze(&source).expect("the benchmark program is valid");
    let types = front.types.expect("and well typed");
    let module = symex_ir::lower(&front.program);

    // The interpreter's time for one path (all inputs large: every `then` branch).
    let interpreter = Interpreter::new(&module).expect("valid module");
    let inputs = [100; 12];
    let runs = 20_000;
    let start = Instant::now();
    let mut steps = 0;
    for _ in 0..runs {
        let outcome = interpreter
            .run_main(&inputs, &RunConfig::default())
            .expect("main runs");
        steps = outcome.steps;
    }
    let interp_per_path = start.elapsed().as_secs_f64() / runs as f64;
    println!(
        "program: 4,096 paths, {steps} IR instructions per path; interpreter: {:.2} µs per path",
        interp_per_path * 1e6
    );
    println!(
        "{:<12} {:>6} {:>9} {:>10} {:>8} {:>9} {:>14}",
        "search", "paths", "time", "paths/s", "queries", "solver", "engine/interp"
    );
    for search in SearchStrategy::ALL {
        let options = CheckOptions {
            search,
            seed: 1,
            ..CheckOptions::default()
        };
        let start = Instant::now();
        let report = check_forward(&module, &types, &source, "paths.uc", "main", &options)
            .expect("the engine runs");
        let elapsed = start.elapsed().as_secs_f64();
        let stats = &report.stats;
        assert_eq!(stats.paths, 4096, "{search} explored {} paths", stats.paths);
        println!(
            "{:<12} {:>6} {:>7.0}ms {:>10.0} {:>8} {:>8.0}% {:>13.0}x",
            search.to_string(),
            stats.paths,
            elapsed * 1e3,
            stats.paths as f64 / elapsed,
            stats.queries,
            100.0 * stats.solver_ms as f64 / (elapsed * 1e3),
            (elapsed / stats.paths as f64) / interp_per_path,
        );
    }
}
