//! Path-condition-style query sequences through each back end, with and without the query
//! layers. A custom `harness = false` main: each configuration runs once (solver runs are
//! long and deterministic enough), and the table shows times side by side as ratios.
//!
//! The workload imitates a forward symbolic executor: 8 symbolic 32-bit inputs in 4
//! independent pairs; at every branch the engine asks whether the condition and its negation
//! are feasible under the current path condition, then follows a feasible side, so the path
//! condition grows by one constraint per branch. Conditions come from a pool, so they repeat
//! (as loop conditions do), and at one branch in ten the searcher switches to an older state
//! (the path condition is cut back), so paths share prefixes and questions recur. Every
//! question is one query: `QUERIES` queries in all.
//!
//! Run: `cargo bench -p symex-smt --bench queries [-- QUERIES [BACKEND...]]`
//! (default 10000 queries; back ends `z3-api`, `z3-process`, `cvc5-process`).

use std::time::{Duration, Instant};

use symex_smt::{
    ProcessConfig, ProcessSolver, QueryEngine, QueryOptions, SatResult, Solver, SolverError,
    TermId, TermStore, Z3Solver,
};

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// A branch: the condition, its negation, which side to prefer when both are feasible, and
/// (sometimes) a switch to another state first: the path condition is cut back to this
/// percentage of its length, as when a searcher picks an older state.
struct Branch {
    cond: TermId,
    negation: TermId,
    prefer_true: bool,
    switch_to: Option<usize>,
}

fn workload(st: &mut TermStore, branches: usize) -> Vec<Branch> {
    let mut rng = Rng(0x00c0_ffee);
    let inputs: Vec<TermId> = (0..8)
        .map(|i| st.bv_var(format!("input #{i}"), 32).expect("var"))
        .collect();
    let mut pool = Vec::new();
    for _ in 0..300 {
        let v = inputs[rng.below(8) as usize];
        let k = st.bv_val(32, u128::from(rng.below(1 << 20))).expect("c");
        let cond = match rng.below(5) {
            0 => st.bv_ult(v, k),
            1 => st.bv_ugt(v, k),
            2 => st.bv_slt(v, k),
            3 => {
                let mask = st.bv_val(32, 0xff).expect("c");
                let low = st.bv_and(v, mask).expect("and");
                let kk = st.bv_val(32, u128::from(rng.below(256))).expect("c");
                st.eq(low, kk)
            }
            _ => {
                // Pairs (0,1), (2,3), ...: inputs of one pair depend on each other.
                let i = rng.below(8) as usize;
                let partner = inputs[i ^ 1];
                let sum = st.bv_add(inputs[i], k).expect("add");
                st.bv_ult(sum, partner)
            }
        }
        .expect("cond");
        let negation = st.not(cond).expect("not");
        pool.push((cond, negation));
    }
    (0..branches)
        .map(|_| {
            let (cond, negation) = pool[rng.below(pool.len() as u64) as usize];
            Branch {
                cond,
                negation,
                prefer_true: rng.below(2) == 0,
                switch_to: (rng.below(10) == 0).then(|| rng.below(100) as usize),
            }
        })
        .collect()
}

/// Whatever answers the engine's questions.
trait Oracle {
    /// Is `pc ∧ q` satisfiable?
    fn ask(&mut self, pc: &[TermId], q: TermId) -> SatResult;
    /// The path condition grew by `c`.
    fn extend(&mut self, c: TermId);
    /// The path condition was cut back by `n` constraints.
    fn cut(&mut self, n: usize);
}

/// Follows the branches, asking about both sides of each.
fn explore(branches: &[Branch], oracle: &mut dyn Oracle) -> (usize, usize) {
    let mut pc: Vec<TermId> = Vec::new();
    let (mut sat, mut unknown) = (0, 0);
    for b in branches {
        if let Some(percent) = b.switch_to {
            let keep = pc.len() * percent / 100;
            oracle.cut(pc.len() - keep);
            pc.truncate(keep);
        }
        let t = oracle.ask(&pc, b.cond);
        let f = oracle.ask(&pc, b.negation);
        for r in [&t, &f] {
            match r {
                SatResult::Sat => sat += 1,
                SatResult::Unknown(_) => unknown += 1,
                SatResult::Unsat => {}
            }
        }
        let next = match (t.is_sat(), f.is_sat()) {
            (true, true) => Some(if b.prefer_true { b.cond } else { b.negation }),
            (true, false) => Some(b.cond),
            (false, true) => Some(b.negation),
            (false, false) => None,
        };
        if let Some(c) = next {
            if !pc.contains(&c) {
                pc.push(c);
                oracle.extend(c);
            }
        }
    }
    (sat, unknown)
}

/// The solver driven directly: the path condition is pushed incrementally, each query is a
/// check under one assumption.
struct Direct<'a> {
    solver: Box<dyn Solver>,
    st: &'a TermStore,
}

impl Oracle for Direct<'_> {
    fn ask(&mut self, _pc: &[TermId], q: TermId) -> SatResult {
        self.solver.check(self.st, &[q]).expect("check")
    }
    fn extend(&mut self, c: TermId) {
        self.solver.push().expect("push");
        self.solver.assert(self.st, c).expect("assert");
    }
    fn cut(&mut self, n: usize) {
        for _ in 0..n {
            self.solver.pop().expect("pop");
        }
    }
}

/// The query layer.
struct Layered<'a> {
    engine: QueryEngine<Box<dyn Solver>>,
    st: &'a TermStore,
}

impl Oracle for Layered<'_> {
    fn ask(&mut self, pc: &[TermId], q: TermId) -> SatResult {
        self.engine
            .is_satisfiable(self.st, pc, Some(q))
            .expect("query")
    }
    fn extend(&mut self, _c: TermId) {}
    fn cut(&mut self, _n: usize) {}
}

struct Row {
    backend: &'static str,
    layers: &'static str,
    time: Duration,
    solver_checks: u64,
    detail: String,
}

fn direct(solver: Box<dyn Solver>, st: &TermStore, branches: &[Branch]) -> (Duration, u64, String) {
    let mut oracle = Direct { solver, st };
    let start = Instant::now();
    let (sat, unknown) = explore(branches, &mut oracle);
    let time = start.elapsed();
    (
        time,
        oracle.solver.stats().checks,
        format!("sat {sat}, unknown {unknown}"),
    )
}

fn layered(
    solver: Box<dyn Solver>,
    options: QueryOptions,
    st: &TermStore,
    branches: &[Branch],
) -> (Duration, u64, String) {
    let engine = QueryEngine::new(solver, options).expect("engine");
    let mut oracle = Layered { engine, st };
    let start = Instant::now();
    let (sat, unknown) = explore(branches, &mut oracle);
    let time = start.elapsed();
    let s = oracle.engine.stats();
    (
        time,
        s.solver_queries,
        format!(
            "sat {sat}, unknown {unknown}; fast path {}, cache {}, independence dropped {} constraints",
            s.fast_path, s.cache_hits, s.constraints_dropped
        ),
    )
}

fn make(backend: &str) -> Box<dyn Solver> {
    let made: Result<Box<dyn Solver>, SolverError> = match backend {
        "z3-api" => Z3Solver::new().map(|s| Box::new(s) as Box<dyn Solver>),
        "z3-process" => ProcessSolver::new(ProcessConfig::z3()).map(|s| Box::new(s) as _),
        _ => ProcessSolver::new(ProcessConfig::cvc5()).map(|s| Box::new(s) as _),
    };
    made.unwrap_or_else(|e| panic!("cannot start {backend}: {e}"))
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let queries: usize = args.first().and_then(|a| a.parse().ok()).unwrap_or(10_000);
    let named: Vec<&str> = args.iter().skip(1).map(String::as_str).collect();
    let backends: Vec<&'static str> = ["z3-api", "z3-process", "cvc5-process"]
        .into_iter()
        .filter(|b| named.is_empty() || named.contains(b))
        .collect();
    let mut st = TermStore::new();
    let branches = workload(&mut st, queries / 2);
    let configs: [(&'static str, QueryOptions); 5] = [
        ("query layer, all off", QueryOptions::plain()),
        (
            "fast path only",
            QueryOptions {
                fast_path: true,
                ..QueryOptions::plain()
            },
        ),
        (
            "independence only",
            QueryOptions {
                independence: true,
                ..QueryOptions::plain()
            },
        ),
        (
            "cache only",
            QueryOptions {
                cache: true,
                ..QueryOptions::plain()
            },
        ),
        ("all on (default)", QueryOptions::default()),
    ];
    let mut rows = Vec::new();
    for &backend in &backends {
        let (time, solver_checks, detail) = direct(make(backend), &st, &branches);
        eprintln!("{backend:13} direct: {time:?}");
        rows.push(Row {
            backend,
            layers: "direct Solver (no query layer)",
            time,
            solver_checks,
            detail,
        });
        for (layers, options) in &configs {
            let (time, solver_checks, detail) =
                layered(make(backend), options.clone(), &st, &branches);
            eprintln!("{backend:13} {layers}: {time:?}");
            rows.push(Row {
                backend,
                layers,
                time,
                solver_checks,
                detail,
            });
        }
    }
    let baseline = rows.first().map(|r| r.time.as_secs_f64()).unwrap_or(1.0);
    println!(
        "{} queries ({} branches, a state switch at one branch in ten)",
        queries,
        queries / 2
    );
    println!(
        "| back end | layers | time (s) | queries/s | solver checks | vs z3-api direct | notes |"
    );
    println!("|---|---|---:|---:|---:|---:|---|");
    for r in &rows {
        let secs = r.time.as_secs_f64();
        println!(
            "| {} | {} | {:.3} | {:.0} | {} | {:.2}× | {} |",
            r.backend,
            r.layers,
            secs,
            queries as f64 / secs,
            r.solver_checks,
            secs / baseline,
            r.detail
        );
    }
}
