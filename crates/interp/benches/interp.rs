//! Interpreter throughput in IR instructions per second (terminators included), on recursive
//! Fibonacci, an iterative loop and the Brainfuck interpreter of `corpus/course_brainfuck.uc`.
//!
//! `cargo bench -p symex-interp` (or `cargo bench -p symex-interp -- fib` to filter by name).
//! Each case runs a few times; the best and median rates are printed. Figures are recorded in
//! `BENCHMARKS.md`.

use std::time::Instant;

use symex_interp::{Interpreter, RunConfig};

const REPETITIONS: usize = 5;

const FIB: &str = "
fib(n) {
  var r;
  if (n < 2) {
    r = n;
  } else {
    r = fib(n - 1) + fib(n - 2);
  }
  return r;
}
main() {
  return fib(input);
}
";

const LOOP: &str = "
main() {
  var i, n, s;
  n = input;
  i = 0;
  s = 0;
  while (i < n) {
    s = s + i * i % 7;
    i = i + 1;
  }
  return s;
}
";

const BRAINFUCK: &str = include_str!("../../../corpus/course_brainfuck.uc");

/// Brainfuck: three nested loops of 30 (27,000 increments), printing 27000.
const BF_NESTED: &str = "++++++++++++++++++++++++++++++[>++++++++++++++++++++++++++++++[>++++++++++++++++++++++++++++++[>+<-]<-]<-]>>>.";

/// Brainfuck: the first 20 Fibonacci numbers by unit moves between cells.
const BF_FIB: &str = "++++++++++++++++++++>>+<<[>.[->>+<<]>[-<+>>+<]>[-<+>]<<<-]";

fn bf_input(program: &str) -> Vec<i32> {
    program.bytes().map(i32::from).chain([0]).collect()
}

struct Case {
    name: &'static str,
    source: &'static str,
    input: Vec<i32>,
}

fn main() {
    let filter: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let cases = [
        Case {
            name: "fib(30) recursive",
            source: FIB,
            input: vec![30],
        },
        Case {
            name: "loop 3,000,000 iterations",
            source: LOOP,
            input: vec![3_000_000],
        },
        Case {
            name: "brainfuck nested loops 30^3",
            source: BRAINFUCK,
            input: bf_input(BF_NESTED),
        },
        Case {
            name: "brainfuck fibonacci 20",
            source: BRAINFUCK,
            input: bf_input(BF_FIB),
        },
    ];
    println!(
        "{:<30} {:>14} {:>10} {:>12} {:>12}",
        "case", "instructions", "best ms", "best Mi/s", "median Mi/s"
    );
    for case in cases
        .iter()
        .filter(|c| filter.is_empty() || filter.iter().any(|f| c.name.contains(f.as_str())))
    {
        bench(case);
    }
}

fn bench(case: &Case) {
    let frontend = match symex_syntax::analyze(case.source) {
        Ok(frontend) => frontend,
        Err(diags) => {
            eprintln!("{}: front end error: {}", case.name, diags[0].message);
            return;
        }
    };
    let module = symex_ir::lower(&frontend.program);
    let interp = match Interpreter::new(&module) {
        Ok(interp) => interp,
        Err(e) => {
            eprintln!("{}: {e}", case.name);
            return;
        }
    };
    let config = RunConfig::default();
    let mut seconds = Vec::with_capacity(REPETITIONS);
    let mut steps = 0;
    for _ in 0..REPETITIONS {
        let start = Instant::now();
        let outcome = match interp.run_main(&case.input, &config) {
            Ok(outcome) => outcome,
            Err(e) => {
                eprintln!("{}: {e}", case.name);
                return;
            }
        };
        seconds.push(start.elapsed().as_secs_f64());
        steps = outcome.steps;
        std::hint::black_box(outcome);
    }
    seconds.sort_by(f64::total_cmp);
    let rate = |s: f64| steps as f64 / s / 1e6;
    println!(
        "{:<30} {:>14} {:>10.1} {:>12.1} {:>12.1}",
        case.name,
        steps,
        seconds[0] * 1e3,
        rate(seconds[0]),
        rate(seconds[REPETITIONS / 2])
    );
}
