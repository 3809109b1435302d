//! Differential test: random queries through the Z3 C API back end and the process back end
//! (cvc5, and z3 as a process) must get the same sat/unsat answers (unknown excluded), and
//! every model must satisfy the query under the crate's own evaluator.

mod common;

use std::time::Duration;

use common::Rng;
use symex_smt::{eval, SatResult, Solver, Sort, TermId, TermStore, Value};

struct Vocabulary {
    bv: Vec<TermId>,
    ints: Vec<TermId>,
    bools: Vec<TermId>,
    mem: TermId,
}

fn bv_term(rng: &mut Rng, st: &mut TermStore, v: &Vocabulary, depth: u32) -> TermId {
    if depth == 0 || rng.below(3) == 0 {
        return if rng.below(3) == 0 {
            st.bv_val(
                8,
                u128::from(rng.pick(&[0u8, 1, 2, 7, 100, 127, 128, 200, 255])),
            )
            .expect("c")
        } else {
            rng.pick(&v.bv)
        };
    }
    let a = bv_term(rng, st, v, depth - 1);
    let b = bv_term(rng, st, v, depth - 1);
    match rng.below(14) {
        0 => st.bv_add(a, b),
        1 => st.bv_sub(a, b),
        2 => st.bv_mul(a, b),
        3 => st.bv_udiv(a, b),
        4 => st.bv_sdiv(a, b),
        5 => st.bv_urem(a, b),
        6 => st.bv_srem(a, b),
        7 => st.bv_and(a, b),
        8 => st.bv_xor(a, b),
        9 => st.bv_ashr(a, b),
        10 => st.bv_shl(a, b),
        11 => {
            let lo = st.extract(3, 0, a).expect("extract");
            st.sign_extend(4, lo)
        }
        12 => st.select(v.mem, a),
        _ => {
            let c = bool_atom(rng, st, v, depth - 1);
            st.ite(c, a, b)
        }
    }
    .expect("well-sorted")
}

fn int_term(rng: &mut Rng, st: &mut TermStore, v: &Vocabulary, depth: u32) -> TermId {
    if depth == 0 || rng.below(3) == 0 {
        return if rng.below(2) == 0 {
            st.int_val(i128::from(rng.pick(&[-5i8, -1, 0, 1, 3, 10])))
                .expect("c")
        } else {
            rng.pick(&v.ints)
        };
    }
    let a = int_term(rng, st, v, depth - 1);
    match rng.below(5) {
        0 => {
            let b = int_term(rng, st, v, depth - 1);
            st.int_add(a, b)
        }
        1 => {
            let b = int_term(rng, st, v, depth - 1);
            st.int_sub(a, b)
        }
        2 => {
            let k = st.int_val(i128::from(rng.pick(&[-3i8, 2, 5]))).expect("c");
            st.int_mul(a, k)
        }
        // Division only by non-zero constants: SMT-LIB leaves division by zero open.
        3 => {
            let k = st.int_val(i128::from(rng.pick(&[-4i8, 3, 7]))).expect("c");
            st.int_div(a, k)
        }
        _ => {
            let k = st.int_val(i128::from(rng.pick(&[-4i8, 3, 7]))).expect("c");
            st.int_mod(a, k)
        }
    }
    .expect("well-sorted")
}

fn bool_atom(rng: &mut Rng, st: &mut TermStore, v: &Vocabulary, depth: u32) -> TermId {
    match rng.below(8) {
        0 => rng.pick(&v.bools),
        1..=4 => {
            let a = bv_term(rng, st, v, depth);
            let b = bv_term(rng, st, v, depth);
            match rng.below(5) {
                0 => st.bv_ult(a, b),
                1 => st.bv_sle(a, b),
                2 => st.bv_uge(a, b),
                3 => st.eq(a, b),
                _ => st.neq(a, b),
            }
            .expect("well-sorted")
        }
        _ => {
            let a = int_term(rng, st, v, depth);
            let b = int_term(rng, st, v, depth);
            match rng.below(3) {
                0 => st.int_le(a, b),
                1 => st.int_gt(a, b),
                _ => st.eq(a, b),
            }
            .expect("well-sorted")
        }
    }
}

fn query(rng: &mut Rng, st: &mut TermStore, v: &Vocabulary) -> Vec<TermId> {
    (0..1 + rng.below(5))
        .map(|_| {
            let a = bool_atom(rng, st, v, 2);
            if rng.below(4) == 0 {
                let b = bool_atom(rng, st, v, 1);
                st.or(a, b).expect("or")
            } else {
                a
            }
        })
        .collect()
}

fn answer(s: &mut dyn Solver, st: &TermStore, q: &[TermId], vars: &[TermId]) -> SatResult {
    s.push().expect("push");
    for &c in q {
        s.assert(st, c).expect("assert");
    }
    let r = s.check(st, &[]).expect("check");
    if r == SatResult::Sat {
        let m = s.model(st, vars).expect("model");
        let asg = m.to_assignment(st);
        for &c in q {
            assert_eq!(
                eval(st, c, &asg),
                Ok(Value::Bool(true)),
                "{}: model violates {}",
                s.name(),
                symex_smt::printer::term(st, c)
            );
        }
    }
    s.pop().expect("pop");
    r
}

#[test]
fn back_ends_agree_on_random_queries() {
    let mut st = TermStore::new();
    let sort = st
        .array_sort(Sort::BitVec(8), Sort::BitVec(8))
        .expect("sort");
    let v = Vocabulary {
        bv: (0..3)
            .map(|i| st.bv_var(format!("x{i}"), 8).expect("var"))
            .collect(),
        ints: (0..2)
            .map(|i| st.int_var(format!("n{i}")).expect("var"))
            .collect(),
        bools: (0..2)
            .map(|i| st.bool_var(format!("p{i}")).expect("var"))
            .collect(),
        mem: st.var("mem", sort).expect("var"),
    };
    let vars: Vec<TermId> =
        v.bv.iter()
            .chain(&v.ints)
            .chain(&v.bools)
            .copied()
            .chain([v.mem])
            .collect();
    let mut solvers: Vec<Box<dyn Solver>> = vec![
        Box::new(common::z3_api()),
        Box::new(common::cvc5_process()),
        Box::new(common::z3_process()),
    ];
    for s in &mut solvers {
        s.set_timeout(Some(Duration::from_secs(5)));
    }
    let mut rng = Rng::new(0x5eed);
    let (mut sat, mut unsat, mut compared) = (0, 0, 0);
    for round in 0..150 {
        let q = query(&mut rng, &mut st, &v);
        let answers: Vec<SatResult> = solvers
            .iter_mut()
            .map(|s| answer(s.as_mut(), &st, &q, &vars))
            .collect();
        let decided: Vec<&SatResult> = answers
            .iter()
            .filter(|r| !matches!(r, SatResult::Unknown(_)))
            .collect();
        if let Some(first) = decided.first() {
            for other in &decided {
                assert_eq!(
                    first,
                    other,
                    "round {round}: back ends disagree ({answers:?}) on\n{}",
                    q.iter()
                        .map(|&c| symex_smt::printer::term(&st, c))
                        .collect::<Vec<_>>()
                        .join("\n")
                );
            }
            compared += 1;
            match first {
                SatResult::Sat => sat += 1,
                _ => unsat += 1,
            }
        }
    }
    assert!(
        compared >= 140,
        "too many unknowns: only {compared} compared"
    );
    assert!(
        sat >= 20 && unsat >= 20,
        "unbalanced sample: {sat} sat, {unsat} unsat"
    );
}
