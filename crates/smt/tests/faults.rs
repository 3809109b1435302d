//! Bad solvers: a process that hangs, prints garbage, dies, reports an error, or is missing.
//! Each check answers `unknown` with the reason (and the next check starts a new process);
//! only a missing program is an error, and it names the program.

mod common;

use std::time::{Duration, Instant};

use symex_smt::{
    Dialect, ModelResult, ProcessConfig, ProcessSolver, QueryEngine, QueryOptions, SatResult,
    Solver, SolverError, TermStore, Value,
};

fn fake(script: &str, dialect: Dialect) -> ProcessSolver {
    let mut config = ProcessConfig::new("sh", &["-c", script], dialect);
    config.grace = Duration::from_millis(300);
    config.response_timeout = Duration::from_secs(2);
    common::process(config)
}

fn unknown_reason(r: SatResult) -> String {
    match r {
        SatResult::Unknown(why) => why,
        other => panic!("expected unknown, got {other:?}"),
    }
}

#[test]
fn a_hanging_solver_is_killed_at_its_deadline() {
    let mut s = fake("sleep 100", Dialect::Generic);
    s.set_timeout(Some(Duration::from_millis(200)));
    let mut st = TermStore::new();
    let p = st.bool_var("p").expect("var");
    s.assert(&st, p).expect("assert");
    for round in 0..2 {
        let start = Instant::now();
        let why = unknown_reason(s.check(&st, &[]).expect("check"));
        assert!(why.contains("timeout"), "{why}");
        assert!(
            start.elapsed() < Duration::from_secs(3),
            "round {round}: {:?}",
            start.elapsed()
        );
    }
    assert_eq!(s.stats().restarts, 1, "the second check ran a new process");
    assert_eq!(s.stats().unknown, 2);
}

#[test]
fn garbage_is_unknown() {
    let mut s = fake("echo garbage", Dialect::Generic);
    let st = TermStore::new();
    let why = unknown_reason(s.check(&st, &[]).expect("check"));
    // Depending on timing, the garbage arrives before or after our writes fail.
    assert!(why.contains("garbage"), "{why}");
}

#[test]
fn a_solver_that_exits_is_unknown() {
    let mut s = common::process(ProcessConfig::new("false", &[], Dialect::Generic));
    let st = TermStore::new();
    let why = unknown_reason(s.check(&st, &[]).expect("check"));
    assert!(
        why.contains("solver died") && why.contains("`false`"),
        "{why}"
    );
}

#[test]
fn a_solver_error_is_unknown() {
    let mut s = fake("echo '(error \"boom\")'; cat > /dev/null", Dialect::Generic);
    let st = TermStore::new();
    let why = unknown_reason(s.check(&st, &[]).expect("check"));
    assert!(
        why.contains("solver error") && why.contains("boom"),
        "{why}"
    );
}

#[test]
fn a_missing_solver_is_an_error_naming_it() {
    let err = ProcessSolver::new(ProcessConfig::new(
        "symex-no-such-solver",
        &["--incremental"],
        Dialect::Generic,
    ))
    .err()
    .expect("cannot start");
    assert!(matches!(err, SolverError::Spawn { .. }));
    assert!(err.to_string().contains("`symex-no-such-solver`"), "{err}");
}

#[test]
fn after_a_fault_the_solver_restarts_and_replays_its_stack() {
    // The first process prints garbage; later ones are a real z3.
    let flag = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("symex-smt-flaky-{}", std::process::id()));
    let _ = std::fs::remove_file(&flag);
    let script = format!(
        "if [ -e '{f}' ]; then exec z3 -in -smt2; else touch '{f}'; echo garbage; fi",
        f = flag.display()
    );
    let mut s = fake(&script, Dialect::Z3);
    let mut st = TermStore::new();
    let x = st.bv_var("x", 8).expect("var");
    let five = st.bv_val(8, 5).expect("c");
    let ten = st.bv_val(8, 10).expect("c");
    let above = st.bv_ugt(x, five).expect("c");
    let below = st.bv_ult(x, ten).expect("c");
    s.assert(&st, above).expect("assert");
    s.push().expect("push");
    s.assert(&st, below).expect("assert");
    let why = unknown_reason(s.check(&st, &[]).expect("check"));
    assert!(why.contains("garbage"), "{why}");
    assert_eq!(s.check(&st, &[]), Ok(SatResult::Sat));
    let m = s.model(&st, &[x]).expect("model");
    let v = m.get(x).and_then(Value::as_bv).expect("bv").bits();
    assert!(v > 5 && v < 10, "{v}");
    s.pop().expect("pop");
    let twenty = st.bv_val(8, 20).expect("c");
    let is20 = st.eq(x, twenty).expect("c");
    assert_eq!(s.check(&st, &[is20]), Ok(SatResult::Sat));
    assert_eq!(s.stats().restarts, 1);
    let _ = std::fs::remove_file(&flag);
}

#[test]
fn a_solver_that_dies_before_the_model_gives_unknown_to_the_engine() {
    // Answers `sat` to the first check-sat, then exits.
    let script = "while read l; do case \"$l\" in *check-sat*) echo sat; exit 0;; esac; done";
    let s = fake(script, Dialect::Generic);
    let mut st = TermStore::new();
    let x = st.int_var("x").expect("var");
    let zero = st.int_val(0).expect("c");
    let c = st.int_lt(zero, x).expect("c");
    let mut engine = QueryEngine::new(s, QueryOptions::plain()).expect("engine");
    match engine.get_model(&st, &[c], &[x]) {
        // Depending on timing the death shows as a closed pipe or a closed output.
        Ok(ModelResult::Unknown(why)) => assert!(why.starts_with("no model"), "{why}"),
        other => panic!("{other:?}"),
    }
    // The engine goes on: the next query restarts the (fake) solver.
    let r = engine.is_satisfiable(&st, &[c], None).expect("query");
    assert_eq!(r, SatResult::Sat);
    assert_eq!(engine.stats().unknown, 1);
}
