//! `IntEncodingSolver` against ground truth: random formulas over 4-bit numbers decided by
//! enumerating every assignment, random array formulas against Z3 on bit-vectors, and the
//! cases the encoding must get right by construction (ranges after `pop`, arrays that differ
//! only where no bit-vector index reaches, the fall-back to bit-vectors).

mod common;

use common::Rng;
use symex_smt::{
    eval, Assignment, IntEncodingSolver, SatResult, Solver, Sort, TermId, TermStore, Value,
    Z3Param, Z3Solver,
};

const W: u32 = 4;

/// The integer solver as the backward engine sets it up: Z3's core without its extensionality
/// axioms (the encoding's witnesses must say where two arrays differ) and with its older
/// arithmetic solver.
fn encoding_solver() -> IntEncodingSolver {
    let fallback =
        || -> Result<Box<dyn Solver>, symex_smt::SolverError> { Ok(Box::new(Z3Solver::new()?)) };
    let mut core = Z3Solver::core().expect("z3");
    core.set_param("smt.array.extensional", Z3Param::Bool(false))
        .expect("param");
    core.set_param("smt.arith.solver", Z3Param::Uint(2))
        .expect("param");
    IntEncodingSolver::new(Box::new(core), Box::new(fallback))
}

struct Vars {
    x: TermId,
    y: TermId,
    b: TermId,
}

/// A random 4-bit term; `linear` keeps to the operations with an integer encoding.
fn number(rng: &mut Rng, st: &mut TermStore, v: &Vars, depth: u32, linear: bool) -> TermId {
    if depth == 0 || rng.below(4) == 0 {
        return match rng.below(3) {
            0 => st.bv_val(W, u128::from(rng.pick(&[0u8, 1, 7, 8, 9, 15]))),
            1 => Ok(v.x),
            _ => Ok(v.y),
        }
        .expect("leaf");
    }
    let a = number(rng, st, v, depth - 1, linear);
    let b = number(rng, st, v, depth - 1, linear);
    let constant = st
        .bv_val(W, u128::from(rng.pick(&[2u8, 3, 5, 15])))
        .expect("c");
    let shift = st
        .bv_val(W, u128::from(rng.pick(&[1u8, 2, 3, 4])))
        .expect("c");
    match (linear, rng.below(11)) {
        (_, 0) => st.bv_add(a, b),
        (_, 1) => st.bv_sub(a, b),
        (_, 2) => st.bv_neg(a),
        (_, 3) => st.bv_not(a),
        (_, 4) => st.bv_mul(a, constant),
        (_, 5) => st.bv_shl(a, shift),
        (_, 6) => {
            let c = truth(rng, st, v, depth - 1, linear);
            st.ite(c, a, b)
        }
        (_, 7) => {
            let low = st.extract(1, 0, a).expect("extract");
            if rng.below(2) == 0 {
                st.sign_extend(W - 2, low)
            } else {
                st.zero_extend(W - 2, low)
            }
        }
        (true, _) => st.bv_add(a, constant),
        (false, 8) => st.bv_mul(a, b),
        (false, 9) => st.bv_udiv(a, b),
        (false, _) => st.bv_and(a, b),
    }
    .expect("well-sorted")
}

fn truth(rng: &mut Rng, st: &mut TermStore, v: &Vars, depth: u32, linear: bool) -> TermId {
    if depth == 0 || rng.below(3) == 0 {
        let a = number(rng, st, v, depth.saturating_sub(1), linear);
        let b = number(rng, st, v, depth.saturating_sub(1), linear);
        return match rng.below(6) {
            0 => st.bv_slt(a, b),
            1 => st.bv_sle(a, b),
            2 => st.bv_ult(a, b),
            3 => st.bv_ule(a, b),
            4 => Ok(v.b),
            _ => st.eq(a, b),
        }
        .expect("atom");
    }
    let p = truth(rng, st, v, depth - 1, linear);
    let q = truth(rng, st, v, depth - 1, linear);
    match rng.below(5) {
        0 => st.and(p, q),
        1 => st.or(p, q),
        2 => st.not(p),
        3 => st.implies(p, q),
        _ => st.xor(p, q),
    }
    .expect("well-sorted")
}

/// Whether some assignment of the 4-bit `x`, `y` and the Boolean `b` makes `f` true.
fn satisfiable_by_enumeration(st: &TermStore, v: &Vars, f: TermId) -> bool {
    (0..16u128).any(|x| {
        (0..16u128).any(|y| {
            [false, true].into_iter().any(|b| {
                let mut a = Assignment::new();
                a.insert(st.var_id(v.x).expect("var"), Value::Bv(bv(x)));
                a.insert(st.var_id(v.y).expect("var"), Value::Bv(bv(y)));
                a.insert(st.var_id(v.b).expect("var"), Value::Bool(b));
                eval(st, f, &a).expect("eval") == Value::Bool(true)
            })
        })
    })
}

fn bv(n: u128) -> symex_smt::BvConst {
    symex_smt::BvConst::new(W, n).expect("bv")
}

/// Checks `f` alone and returns the answer, after checking its model when `sat`.
fn decide(st: &TermStore, f: TermId) -> (SatResult, bool) {
    let mut s = encoding_solver();
    s.assert(st, f).expect("assert");
    let result = s.check(st, &[]).expect("check");
    if result == SatResult::Sat {
        let vars: Vec<TermId> = st
            .vars_of(&[f])
            .into_iter()
            .map(|v| st.var_info(v).term)
            .collect();
        let model = s.model(st, &vars).expect("model");
        assert_eq!(
            eval(st, f, &model.to_assignment(st)).expect("eval"),
            Value::Bool(true),
            "the model falsifies the formula"
        );
    }
    (result, s.fell_back())
}

fn vars(st: &mut TermStore) -> Vars {
    Vars {
        x: st.bv_var("x", W).expect("x"),
        y: st.bv_var("y", W).expect("y"),
        b: st.bool_var("b").expect("b"),
    }
}

#[test]
fn linear_formulas_agree_with_enumeration_without_falling_back() {
    let mut rng = Rng::new(7);
    let (mut sat, mut unsat) = (0, 0);
    for _ in 0..300 {
        let mut st = TermStore::without_simplification();
        let v = vars(&mut st);
        let f = truth(&mut rng, &mut st, &v, 4, true);
        let expected = satisfiable_by_enumeration(&st, &v, f);
        let (result, fell_back) = decide(&st, f);
        assert!(!fell_back, "a linear formula fell back to bit-vectors");
        assert_eq!(result.is_sat(), expected, "answer {result:?}");
        assert_eq!(result.is_unsat(), !expected, "answer {result:?}");
        if expected {
            sat += 1;
        } else {
            unsat += 1;
        }
    }
    // Both answers are exercised, not just the easy one.
    assert!(sat > 30 && unsat > 20, "sat {sat}, unsat {unsat}");
}

#[test]
fn other_formulas_fall_back_and_still_agree_with_enumeration() {
    let mut rng = Rng::new(11);
    let mut fell = 0;
    for _ in 0..150 {
        let mut st = TermStore::without_simplification();
        let v = vars(&mut st);
        let f = truth(&mut rng, &mut st, &v, 4, false);
        let expected = satisfiable_by_enumeration(&st, &v, f);
        let (result, fell_back) = decide(&st, f);
        assert_eq!(result.is_sat(), expected, "answer {result:?}");
        assert_eq!(result.is_unsat(), !expected, "answer {result:?}");
        fell += usize::from(fell_back);
    }
    assert!(fell > 20, "only {fell} formulas fell back");
}

#[test]
fn array_formulas_agree_with_bit_vector_z3() {
    let mut rng = Rng::new(3);
    for _ in 0..150 {
        let mut st = TermStore::without_simplification();
        let v = vars(&mut st);
        let sort = st
            .array_sort(Sort::BitVec(W), Sort::BitVec(W))
            .expect("sort");
        let m = st.var("m", sort).expect("m");
        let n = st.var("n", sort).expect("n");
        let mut atoms = Vec::new();
        for _ in 0..4 {
            let i = number(&mut rng, &mut st, &v, 2, true);
            let e = number(&mut rng, &mut st, &v, 2, true);
            let written = st.store(m, i, e).expect("store");
            let j = number(&mut rng, &mut st, &v, 1, true);
            let read = st.select(written, j).expect("select");
            let other = number(&mut rng, &mut st, &v, 2, true);
            let atom = match rng.below(4) {
                0 => st.eq(written, n),
                1 => st.bv_slt(read, other),
                2 => st.eq(read, other),
                _ => st.eq(m, n),
            }
            .expect("atom");
            atoms.push(if rng.below(3) == 0 {
                st.not(atom).expect("not")
            } else {
                atom
            });
        }
        let f = st.and_all(&atoms).expect("and");
        let mut bits = Z3Solver::new().expect("z3");
        bits.assert(&st, f).expect("assert");
        let expected = bits.check(&st, &[]).expect("check");
        let (result, fell_back) = decide(&st, f);
        assert!(!fell_back);
        assert_eq!(result, expected);
    }
}

#[test]
fn arrays_differ_only_where_a_bit_vector_index_reaches() {
    // m != n although they agree at every one of the 16 indices: unsatisfiable, but two integer
    // arrays could differ at index 100.
    let mut st = TermStore::new();
    let sort = st
        .array_sort(Sort::BitVec(W), Sort::BitVec(W))
        .expect("sort");
    let m = st.var("m", sort).expect("m");
    let n = st.var("n", sort).expect("n");
    let mut atoms = vec![st.neq(m, n).expect("neq")];
    for i in 0..16 {
        let i = st.bv_val(W, i).expect("i");
        let (a, b) = (st.select(m, i).expect("a"), st.select(n, i).expect("b"));
        atoms.push(st.eq(a, b).expect("eq"));
    }
    let f = st.and_all(&atoms).expect("and");
    assert_eq!(decide(&st, f).0, SatResult::Unsat);
}

#[test]
fn integer_indexed_arrays_differ_where_their_witness_says() {
    // The backward engine's heap arrays are indexed by integers. With Z3's extensionality
    // axioms off, only the encoding's witness makes `m != store(m, i, 3)` mean `m[i] != 3`.
    let mut st = TermStore::without_simplification();
    let sort = st.array_sort(Sort::Int, Sort::BitVec(W)).expect("sort");
    let m = st.var("m", sort).expect("m");
    let i = st.var("i", Sort::Int).expect("i");
    let three = st.bv_val(W, 3).expect("3");
    let written = st.store(m, i, three).expect("store");
    let differ = st.neq(m, written).expect("neq");
    assert_eq!(decide(&st, differ), (SatResult::Sat, false));
    let old = st.select(m, i).expect("select");
    let was_three = st.eq(old, three).expect("eq");
    let both = st.and(differ, was_three).expect("and");
    assert_eq!(decide(&st, both), (SatResult::Unsat, false));
}

#[test]
fn a_new_solver_has_the_time_limit_of_the_one_it_wraps() {
    assert_eq!(
        encoding_solver().timeout(),
        Some(symex_smt::DEFAULT_TIMEOUT)
    );
}

#[test]
fn ranges_hold_again_after_a_pop() {
    // x is first met inside a scope; after the pop it must still be a 4-bit number.
    let mut st = TermStore::new();
    let x = st.bv_var("x", W).expect("x");
    let seven = st.bv_val(W, 7).expect("7");
    let one = st.bv_val(W, 1).expect("1");
    let mut s = encoding_solver();
    s.push().expect("push");
    let small = st.bv_slt(x, seven).expect("lt");
    s.assert(&st, small).expect("assert");
    assert_eq!(s.check(&st, &[]).expect("check"), SatResult::Sat);
    s.pop().expect("pop");
    // x + 1 <s x holds only for x = 7 (wrap-around), so x is 7 in any model.
    let next = st.bv_add(x, one).expect("add");
    let wraps = st.bv_slt(next, x).expect("lt");
    s.assert(&st, wraps).expect("assert");
    assert_eq!(s.check(&st, &[]).expect("check"), SatResult::Sat);
    let model = s.model(&st, &[x]).expect("model");
    assert_eq!(model.get(x), Some(&Value::Bv(bv(7))));
    let beyond = st.bv_slt(seven, x).expect("lt");
    assert_eq!(s.check(&st, &[beyond]).expect("check"), SatResult::Unsat);
}

#[test]
fn a_range_asserted_in_a_popped_scope_is_enforced_again() {
    // x's range is deferred at the base level. Only a model that breaks it satisfies
    // `7 <s x` over the integers, so the check inside the scope asserts it there; after the
    // pop the solver has forgotten that assertion and must enforce the range again.
    let mut st = TermStore::new();
    let x = st.bv_var("x", W).expect("x");
    let seven = st.bv_val(W, 7).expect("7");
    let three = st.bv_val(W, 3).expect("3");
    let mut s = encoding_solver();
    let not_three = st.neq(x, three).expect("neq");
    s.assert(&st, not_three).expect("assert");
    let beyond = st.bv_slt(seven, x).expect("lt");
    for _ in 0..2 {
        s.push().expect("push");
        s.assert(&st, beyond).expect("assert");
        assert_eq!(s.check(&st, &[]).expect("check"), SatResult::Unsat);
        s.pop().expect("pop");
    }
    // The same under an assumption, and a model that keeps the range afterwards.
    assert_eq!(s.check(&st, &[beyond]).expect("check"), SatResult::Unsat);
    assert_eq!(s.check(&st, &[]).expect("check"), SatResult::Sat);
    let model = s.model(&st, &[x]).expect("model");
    assert_ne!(model.get(x), Some(&Value::Bv(bv(3))));
}

#[test]
fn a_resource_limited_check_does_not_refine() {
    // Under a resource limit the caller takes `unknown` for an answer: a `sat` with ranges
    // still deferred answers `unknown` instead of reading the model and starting another round.
    let mut st = TermStore::new();
    let x = st.bv_var("x", W).expect("x");
    let seven = st.bv_val(W, 7).expect("7");
    let mut s = encoding_solver();
    let beyond = st.bv_slt(seven, x).expect("lt");
    s.assert(&st, beyond).expect("assert");
    s.set_resource_limit(Some(1_000_000));
    assert!(matches!(
        s.check(&st, &[]).expect("check"),
        SatResult::Unknown(_)
    ));
    s.set_resource_limit(None);
    assert_eq!(s.check(&st, &[]).expect("check"), SatResult::Unsat);
}

#[test]
fn falling_back_replays_every_open_scope() {
    let mut st = TermStore::new();
    let x = st.bv_var("x", W).expect("x");
    let y = st.bv_var("y", W).expect("y");
    let three = st.bv_val(W, 3).expect("3");
    let mut s = encoding_solver();
    // The solver fallen back to keeps the time limit of the one it replaces.
    s.set_timeout(Some(std::time::Duration::from_secs(7)));
    let base = st.eq(x, three).expect("eq");
    s.assert(&st, base).expect("assert");
    s.push().expect("push");
    let scoped = st.bv_ult(y, x).expect("lt");
    s.assert(&st, scoped).expect("assert");
    // y & x = y: no integer encoding.
    let both = st.bv_and(y, x).expect("and");
    let masked = st.eq(both, y).expect("eq");
    s.assert(&st, masked).expect("assert");
    assert!(s.fell_back());
    assert_eq!(s.timeout(), Some(std::time::Duration::from_secs(7)));
    let two = st.bv_val(W, 2).expect("2");
    let is_two = st.eq(y, two).expect("eq");
    // 2 & 3 = 2 and 2 < 3.
    assert_eq!(s.check(&st, &[is_two]).expect("check"), SatResult::Sat);
    s.pop().expect("pop");
    let big = st.bv_ult(x, y).expect("lt");
    assert_eq!(s.check(&st, &[big]).expect("check"), SatResult::Sat);
    let four = st.bv_val(W, 4).expect("4");
    let not_three = st.eq(x, four).expect("eq");
    assert_eq!(s.check(&st, &[not_three]).expect("check"), SatResult::Unsat);
    assert_eq!(s.level(), 0);
}
