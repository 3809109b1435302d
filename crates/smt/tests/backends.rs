//! One test suite, run against every back end: Z3 through the C API, `z3 -in` and cvc5 as
//! SMT-LIB2 processes, and `z3 -in` driven as a generic SMT-LIB2 solver. Models are checked with the crate's own evaluator, and the 32-bit
//! division semantics are checked against the solvers themselves.

mod common;

use std::time::{Duration, Instant};

use symex_smt::{
    eval, BvConst, Model, SatResult, Solver, SolverError, Sort, TermId, TermStore, Value,
};

/// Every assertion holds under the model.
fn assert_model_satisfies(store: &TermStore, model: &Model, constraints: &[TermId]) {
    let asg = model.to_assignment(store);
    for &c in constraints {
        assert_eq!(
            eval(store, c, &asg),
            Ok(Value::Bool(true)),
            "the model violates {}",
            symex_smt::printer::term(store, c)
        );
    }
}

fn sat_and_unsat(mut s: impl Solver) {
    let mut st = TermStore::new();
    let x = st.bv_var("x", 32).expect("var");
    let ten = st.bv_val(32, 10).expect("c");
    let five = st.bv_val(32, 5).expect("c");
    let gt = st.bv_ugt(x, ten).expect("c");
    let lt = st.bv_ult(x, five).expect("c");
    s.assert(&st, gt).expect("assert");
    assert_eq!(s.check(&st, &[]), Ok(SatResult::Sat));
    let m = s.model(&st, &[x]).expect("model");
    assert_model_satisfies(&st, &m, &[gt]);
    s.assert(&st, lt).expect("assert");
    assert_eq!(s.check(&st, &[]), Ok(SatResult::Unsat));
    assert_eq!(s.model(&st, &[x]), Err(SolverError::NoModel));
    let stats = s.stats();
    assert_eq!((stats.checks, stats.sat, stats.unsat), (2, 1, 1));
}

fn push_and_pop(mut s: impl Solver) {
    let mut st = TermStore::new();
    let p = st.bool_var("p").expect("var");
    let np = st.not(p).expect("not");
    s.assert(&st, p).expect("assert");
    s.push().expect("push");
    s.assert(&st, np).expect("assert");
    assert_eq!(s.level(), 1);
    assert_eq!(s.check(&st, &[]), Ok(SatResult::Unsat));
    s.pop().expect("pop");
    assert_eq!(s.check(&st, &[]), Ok(SatResult::Sat));
    assert_eq!(s.pop(), Err(SolverError::PopEmpty));
    // Variables first declared inside a popped scope can be used again.
    s.push().expect("push");
    let q = st.bool_var("q").expect("var");
    s.assert(&st, q).expect("assert");
    assert_eq!(s.check(&st, &[]), Ok(SatResult::Sat));
    s.pop().expect("pop");
    let nq = st.not(q).expect("not");
    s.assert(&st, nq).expect("assert");
    assert_eq!(s.check(&st, &[]), Ok(SatResult::Sat));
    let m = s.model(&st, &[p, q]).expect("model");
    assert_eq!(m.get(q), Some(&Value::Bool(false)));
}

fn assumptions(mut s: impl Solver) {
    let mut st = TermStore::new();
    let x = st.bv_var("x", 8).expect("var");
    let three = st.bv_val(8, 3).expect("c");
    let four = st.bv_val(8, 4).expect("c");
    let is3 = st.eq(x, three).expect("c");
    let is4 = st.eq(x, four).expect("c");
    let small = st.bv_ult(x, four).expect("c");
    s.assert(&st, small).expect("assert");
    assert_eq!(s.check(&st, &[is3]), Ok(SatResult::Sat));
    let m = s.model(&st, &[x]).expect("model");
    assert_eq!(m.get(x).and_then(Value::as_bv).map(|v| v.bits()), Some(3));
    assert_eq!(s.check(&st, &[is4]), Ok(SatResult::Unsat));
    assert_eq!(s.check(&st, &[is3, is4]), Ok(SatResult::Unsat));
    // Assumptions are forgotten after the check.
    assert_eq!(s.check(&st, &[]), Ok(SatResult::Sat));
    assert_eq!(s.level(), 0);
    // A variable first seen in an assumption.
    let y = st.bv_var("y", 8).expect("var");
    let y_big = st.bv_ugt(y, four).expect("c");
    assert_eq!(s.check(&st, &[y_big]), Ok(SatResult::Sat));
    let m = s.model(&st, &[y]).expect("model");
    assert_model_satisfies(&st, &m, &[y_big]);
    assert_eq!(s.check(&st, &[y_big]), Ok(SatResult::Sat));
}

fn models_of_every_sort(mut s: impl Solver) {
    let mut st = TermStore::new();
    let mut cs = Vec::new();
    let b = st.bool_var("b").expect("var");
    cs.push(b);
    let mut vars = vec![b];
    for w in [1u32, 8, 32, 64, 128] {
        let v = st.bv_var(format!("bv{w}"), w).expect("var");
        let k = st.bv_val(w, u128::MAX / 3).expect("c");
        cs.push(st.eq(v, k).expect("c"));
        vars.push(v);
    }
    let n = st.int_var("n").expect("var");
    let big = st.int_val(-(1i128 << 100)).expect("c");
    cs.push(st.int_lt(n, big).expect("c"));
    let three = st.int_val(3).expect("c");
    let two = st.int_val(2).expect("c");
    let m3 = st.int_mod(n, three).expect("mod");
    cs.push(st.eq(m3, two).expect("c"));
    vars.push(n);
    // Arrays: bv -> bv, int -> bool, and an array of arrays.
    let abv = st
        .array_sort(Sort::BitVec(32), Sort::BitVec(8))
        .expect("sort");
    let a = st.var("heap", abv).expect("var");
    for (i, v) in [(1u128, 5u128), (2, 7), (1000, 255)] {
        let iv = st.bv_val(32, i).expect("c");
        let vv = st.bv_val(8, v).expect("c");
        let r = st.select(a, iv).expect("select");
        cs.push(st.eq(r, vv).expect("c"));
    }
    let aib = st.array_sort(Sort::Int, Sort::Bool).expect("sort");
    let f = st.var("flags", aib).expect("var");
    let at = st.select(f, n).expect("select");
    cs.push(at);
    let nested = st.array_sort(Sort::Int, abv).expect("sort");
    let h = st.var("heaps", nested).expect("var");
    let inner = st.select(h, two).expect("select");
    let one32 = st.bv_val(32, 1).expect("c");
    let cell = st.select(inner, one32).expect("select");
    let nine = st.bv_val(8, 9).expect("c");
    cs.push(st.eq(cell, nine).expect("c"));
    vars.extend([a, f, h]);
    for &c in &cs {
        s.assert(&st, c).expect("assert");
    }
    assert_eq!(s.check(&st, &[]), Ok(SatResult::Sat));
    let m = s.model(&st, &vars).expect("model");
    assert_eq!(m.len(), vars.len());
    assert_model_satisfies(&st, &m, &cs);
    // A variable the solver never saw gets its sort's default.
    let unseen = st.bv_var("unseen", 16).expect("var");
    let m = s.model(&st, &[unseen]).expect("model");
    assert_eq!(
        m.get(unseen),
        Some(&Value::Bv(BvConst::new(16, 0).expect("c")))
    );
}

/// The solver computes 32-bit `+ - * / %` (signed and unsigned) exactly as our folding does.
fn thirty_two_bit_semantics(mut s: impl Solver) {
    let mut st = TermStore::new();
    let x = st.bv_var("x", 32).expect("var");
    let y = st.bv_var("y", 32).expect("var");
    type Fold = fn(BvConst, BvConst) -> BvConst;
    let ops: Vec<(TermId, Fold)> = vec![
        (st.bv_add(x, y).expect("op"), BvConst::bvadd),
        (st.bv_sub(x, y).expect("op"), BvConst::bvsub),
        (st.bv_mul(x, y).expect("op"), BvConst::bvmul),
        (st.bv_sdiv(x, y).expect("op"), BvConst::bvsdiv),
        (st.bv_srem(x, y).expect("op"), BvConst::bvsrem),
        (st.bv_udiv(x, y).expect("op"), BvConst::bvudiv),
        (st.bv_urem(x, y).expect("op"), BvConst::bvurem),
        (st.bv_ashr(x, y).expect("op"), BvConst::bvashr),
    ];
    let results: Vec<TermId> = (0..ops.len())
        .map(|i| st.bv_var(format!("r{i}"), 32).expect("var"))
        .collect();
    for (&(op, _), &r) in ops.iter().zip(&results) {
        let e = st.eq(r, op).expect("eq");
        s.assert(&st, e).expect("assert");
    }
    let cases = [
        (i32::MIN, -1),
        (i32::MIN, 0),
        (-7, 2),
        (7, -2),
        (-7, 0),
        (7, 0),
        (i32::MAX, i32::MAX),
        (-1, 40),
    ];
    for (a, b) in cases {
        let av = st.bv_signed(32, i128::from(a)).expect("c");
        let bv = st.bv_signed(32, i128::from(b)).expect("c");
        let ea = st.eq(x, av).expect("eq");
        let eb = st.eq(y, bv).expect("eq");
        assert_eq!(s.check(&st, &[ea, eb]), Ok(SatResult::Sat));
        let m = s.model(&st, &results).expect("model");
        let ca = BvConst::from_i128(32, i128::from(a)).expect("c");
        let cb = BvConst::from_i128(32, i128::from(b)).expect("c");
        for (&(_, fold), &r) in ops.iter().zip(&results) {
            assert_eq!(m.get(r), Some(&Value::Bv(fold(ca, cb))), "{a} op {b}");
        }
    }
}

fn names_are_quoted_and_unique(mut s: impl Solver) {
    let mut st = TermStore::new();
    let a = st.bv_var("x@line 7 |weird\\ name\n", 8).expect("var");
    let b = st.bv_var("x@line 7 |weird\\ name\n", 8).expect("var");
    let c = st.int_var("n.next.val").expect("var");
    let d = st.int_var("#3").expect("var");
    let ne = st.neq(a, b).expect("c");
    let lt = st.int_lt(c, d).expect("c");
    s.assert(&st, ne).expect("assert");
    s.assert(&st, lt).expect("assert");
    assert_eq!(s.check(&st, &[]), Ok(SatResult::Sat));
    let m = s.model(&st, &[a, b, c, d]).expect("model");
    assert_ne!(m.get(a), m.get(b));
    assert_model_satisfies(&st, &m, &[ne, lt]);
}

/// Factoring the prime 2^62 - 57 into two 32-bit factors (unsatisfiable, but z3 cannot show
/// it within 20 s): no solver finishes it in milliseconds.
fn hard_query(st: &mut TermStore) -> TermId {
    let x = st.bv_var("p", 64).expect("var");
    let y = st.bv_var("q", 64).expect("var");
    let prod = st.bv_mul(x, y).expect("mul");
    let n = st.bv_val(64, (1u128 << 62) - 57).expect("c");
    let one = st.bv_val(64, 1).expect("c");
    let bound = st.bv_val(64, 1u128 << 32).expect("c");
    let parts = [
        st.eq(prod, n).expect("c"),
        st.bv_ugt(x, one).expect("c"),
        st.bv_ugt(y, one).expect("c"),
        st.bv_ult(x, bound).expect("c"),
        st.bv_ult(y, bound).expect("c"),
    ];
    st.and_all(&parts).expect("and")
}

fn timeouts_are_unknown(mut s: impl Solver) {
    let mut st = TermStore::new();
    let hard = hard_query(&mut st);
    s.set_timeout(Some(Duration::from_millis(100)));
    assert_eq!(s.timeout(), Some(Duration::from_millis(100)));
    s.push().expect("push");
    s.assert(&st, hard).expect("assert");
    let start = Instant::now();
    let r = s.check(&st, &[]).expect("check");
    assert!(matches!(r, SatResult::Unknown(_)), "{r:?}");
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "{:?}",
        start.elapsed()
    );
    assert_eq!(s.stats().unknown, 1);
    // The solver is still usable.
    s.pop().expect("pop");
    let p = st.bool_var("p").expect("var");
    assert_eq!(s.check(&st, &[p]), Ok(SatResult::Sat));
}

fn misuse_is_an_error(mut s: impl Solver) {
    let mut st = TermStore::new();
    let other = TermStore::new();
    let x = st.bv_var("x", 8).expect("var");
    let p = st.bool_var("p").expect("var");
    assert!(matches!(s.assert(&st, x), Err(SolverError::Term(_))));
    s.assert(&st, p).expect("assert");
    assert_eq!(s.check(&other, &[]), Err(SolverError::ForeignStore));
    assert_eq!(s.check(&st, &[]), Ok(SatResult::Sat));
    assert!(s.model(&st, &[p, x]).is_ok());
    let not_a_var = st.not(p).expect("not");
    assert!(s.model(&st, &[not_a_var]).is_err());
}

fn deep_terms(mut s: impl Solver) {
    let mut st = TermStore::new();
    let x = st.bv_var("x", 32).expect("var");
    let one = st.bv_val(32, 1).expect("c");
    let mut t = x;
    for _ in 0..3000 {
        t = st.bv_add(t, one).expect("add");
    }
    let zero = st.bv_val(32, 0).expect("c");
    let e = st.eq(t, zero).expect("eq");
    s.assert(&st, e).expect("assert");
    assert_eq!(s.check(&st, &[]), Ok(SatResult::Sat));
    let m = s.model(&st, &[x]).expect("model");
    assert_eq!(
        m.get(x).and_then(Value::as_bv).map(|v| v.bits()),
        Some(u128::from(0u32.wrapping_sub(3000)))
    );
}

fn shared_subterms(mut s: impl Solver) {
    // Each level uses the previous one three times: printed without lets this would be
    // 3^40 nodes. (Non-associative operators: cvc5 flattens `bvadd` chains.)
    let mut st = TermStore::new();
    let x = st.bv_var("x", 64).expect("var");
    let one = st.bv_val(64, 1).expect("c");
    let mut t = x;
    for i in 0..40u128 {
        let k = st.bv_val(64, 1000 * i).expect("c");
        let small = st.bv_ult(t, k).expect("c");
        let half = st.bv_lshr(t, one).expect("c");
        t = st.ite(small, t, half).expect("ite");
    }
    let e = st.bv_ule(t, x).expect("c");
    let big = st.bv_val(64, 1 << 50).expect("c");
    let x_big = st.bv_ugt(x, big).expect("c");
    s.assert(&st, e).expect("assert");
    s.assert(&st, x_big).expect("assert");
    assert_eq!(s.check(&st, &[]), Ok(SatResult::Sat));
    let m = s.model(&st, &[x]).expect("model");
    assert_model_satisfies(&st, &m, &[e, x_big]);
}

macro_rules! suite {
    ($($backend:ident => $make:expr;)*) => {$(
        mod $backend {
            use super::*;
            #[test] fn sat_and_unsat() { super::sat_and_unsat($make) }
            #[test] fn push_and_pop() { super::push_and_pop($make) }
            #[test] fn assumptions() { super::assumptions($make) }
            #[test] fn models_of_every_sort() { super::models_of_every_sort($make) }
            #[test] fn thirty_two_bit_semantics() { super::thirty_two_bit_semantics($make) }
            #[test] fn names_are_quoted_and_unique() { super::names_are_quoted_and_unique($make) }
            #[test] fn timeouts_are_unknown() { super::timeouts_are_unknown($make) }
            #[test] fn misuse_is_an_error() { super::misuse_is_an_error($make) }
            #[test] fn deep_terms() { super::deep_terms($make) }
            #[test] fn shared_subterms() { super::shared_subterms($make) }
        }
    )*};
}

suite! {
    z3_api => common::z3_api();
    z3_process => common::z3_process();
    cvc5_process => common::cvc5_process();
    // No dialect quirks: assumptions in a temporary scope, no time-limit option (the
    // wall-clock limit kills the process).
    z3_process_generic => common::process(symex_smt::ProcessConfig::new(
        "z3",
        &["-in", "-smt2"],
        symex_smt::Dialect::Generic,
    ));
}
