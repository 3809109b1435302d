//! Lowering benchmark: front end, lowering, verifier and analyses on a generated 10,000-line
//! program (`cargo bench -p symex-ir`). Prints the best of several runs of each phase; the
//! target is front end plus lowering well under 0.5 s.

use std::time::{Duration, Instant};

use symex_ir::analysis::{Dominators, LoopForest, PostDominators};

fn best_of<T>(runs: usize, mut f: impl FnMut() -> T) -> (Duration, T) {
    let mut best = Duration::MAX;
    let mut last = None;
    for _ in 0..runs {
        let start = Instant::now();
        let value = f();
        best = best.min(start.elapsed());
        last = Some(value);
    }
    (best, last.expect("at least one run"))
}

fn main() {
    println!("-- about 10,000 lines in many functions");
    measure(&symex_gen::program_with_lines(10_000, 0));
    println!("-- about 10,000 lines in one function");
    measure(&symex_gen::single_function_with_lines(10_000, 0));
}

fn measure(text: &str) {
    let lines = text.lines().count();
    let (front_time, front) = best_of(5, || symex_syntax::analyze(text).expect("resolves"));
    let (lower_time, module) = best_of(5, || symex_ir::lower(&front.program));
    let (verify_time, verdict) = best_of(5, || symex_ir::verify(&module));
    verdict.expect("verifies");
    let (analyses_time, loops) = best_of(5, || {
        module
            .functions
            .iter()
            .map(|f| {
                let dom = Dominators::compute(f);
                let _ = PostDominators::compute(f).frontiers();
                let _ = dom.frontiers();
                LoopForest::compute(&dom).loops.len()
            })
            .sum::<usize>()
    });
    let insts: usize = module
        .functions
        .iter()
        .flat_map(|f| &f.blocks)
        .map(|b| b.insts.len() + 1)
        .sum();
    println!("program: {lines} lines, {insts} instructions, {loops} loops");
    println!("front end (parse, resolve, types): {front_time:?}");
    println!("lower:                             {lower_time:?}");
    println!(
        "front end + lower:                 {:?}",
        front_time + lower_time
    );
    println!("verify:                            {verify_time:?}");
    println!("analyses:                          {analyses_time:?}");
}
