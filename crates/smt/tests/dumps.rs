//! Dumped queries are standalone SMT-LIB2 files that the z3 and cvc5 binaries accept and answer
//! as the engine did.

mod common;

use symex_smt::{QueryEngine, QueryOptions, SatResult, Sort, TermStore};

#[test]
fn dumped_queries_replay_in_z3_and_cvc5() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("symex-smt-dumps-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let options = QueryOptions {
        dump_dir: Some(dir.clone()),
        ..QueryOptions::plain()
    };
    let mut engine = QueryEngine::new(common::z3_api(), options).expect("engine");
    let mut st = TermStore::new();

    let x = st.bv_var("x@line 7", 32).expect("var");
    let same_name = st.bv_var("x@line 7", 32).expect("var");
    let n = st.int_var("n.next.val").expect("var");
    let heap_sort = st
        .array_sort(Sort::BitVec(32), Sort::BitVec(8))
        .expect("sort");
    let heap = st.var("input heap |#3|", heap_sort).expect("var");
    let ten = st.bv_val(32, 10).expect("c");
    let minus_one = st.bv_signed(32, -1).expect("c");
    let seven = st.int_val(7).expect("c");

    let mut expected = Vec::new();
    let mut ask = |engine: &mut QueryEngine<_>, st: &TermStore, pc: &[_]| {
        let r = engine.is_satisfiable(st, pc, None).expect("query");
        assert!(!matches!(r, SatResult::Unknown(_)), "{r:?}");
        expected.push(if r == SatResult::Sat { "sat" } else { "unsat" });
    };
    // Bit-vectors, signed division, two variables with one display name.
    let q = st.bv_sdiv(x, minus_one).expect("sdiv");
    let c1 = st.bv_sgt(q, ten).expect("c");
    let c2 = st.neq(x, same_name).expect("c");
    ask(&mut engine, &st, &[c1, c2]);
    let c3 = st.bv_sgt(x, ten).expect("c");
    ask(&mut engine, &st, &[c1, c3]);
    // Integers.
    let m = st.int_mod(n, seven).expect("mod");
    let c4 = st.eq(m, seven).expect("c");
    ask(&mut engine, &st, &[c4]);
    let c5 = st.int_gt(m, seven).expect("c");
    let c6 = st.int_lt(n, seven).expect("c");
    let c56 = st.or(c5, c6).expect("or");
    ask(&mut engine, &st, &[c56]);
    // Arrays with a shared subterm.
    let idx = st.bv_add(x, ten).expect("add");
    let byte = st.select(heap, idx).expect("select");
    let b2 = st.bv_val(8, 2).expect("c");
    let written = st.store(heap, idx, b2).expect("store");
    let back = st.select(written, x).expect("select");
    let c7 = st.eq(back, byte).expect("c");
    let c8 = st.neq(byte, b2).expect("c");
    ask(&mut engine, &st, &[c7, c8]);

    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("dump dir")
        .map(|e| e.expect("entry").path())
        .collect();
    files.sort();
    assert_eq!(files.len(), expected.len());
    for (file, want) in files.iter().zip(&expected) {
        let path = file.to_str().expect("utf-8 path");
        let z3 = common::run_binary("z3", &[path]);
        let cvc5 = common::run_binary("cvc5", &[path]);
        let text = std::fs::read_to_string(file).expect("read");
        assert_eq!(&z3, want, "z3 on {path}:\n{text}");
        assert_eq!(&cvc5, want, "cvc5 on {path}:\n{text}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A solver wrapped for dumping writes each check as what it was asked: the assertions of the
/// open scopes (not those of popped ones) and the check's assumptions, numbered in one sequence
/// across solvers sharing the dumper; the binaries answer each file as the solver did.
#[test]
fn a_dumping_solver_writes_each_check_with_its_open_scopes_and_assumptions() {
    use std::sync::{Arc, Mutex};
    use symex_smt::{Dumper, DumpingSolver, Solver};

    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("symex-smt-solver-dumps-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let dumper = Arc::new(Mutex::new(Dumper::new(&dir).expect("dumper")));
    let mut st = TermStore::new();
    let x = st.bv_var("x", 32).expect("var");
    let five = st.bv_val(32, 5).expect("c");
    let big = st.bv_sgt(x, five).expect("c");
    let small = st.bv_slt(x, five).expect("c");
    let is_five = st.eq(x, five).expect("c");

    let mut first = DumpingSolver::new(common::z3_api(), Arc::clone(&dumper));
    first.assert(&st, big).expect("assert");
    first.push().expect("push");
    first.assert(&st, small).expect("assert");
    let mut answers = vec![first.check(&st, &[]).expect("check")];
    first.pop().expect("pop");
    answers.push(first.check(&st, &[is_five]).expect("check"));
    let mut second = DumpingSolver::new(common::z3_api(), Arc::clone(&dumper));
    second.assert(&st, small).expect("assert");
    answers.push(second.check(&st, &[]).expect("check"));
    assert_eq!(
        answers,
        [SatResult::Unsat, SatResult::Unsat, SatResult::Sat]
    );

    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("dump dir")
        .map(|e| e.expect("entry").path())
        .collect();
    files.sort();
    assert_eq!(files.len(), answers.len());
    let asserts = |text: &str| text.matches("(assert").count();
    let texts: Vec<String> = files
        .iter()
        .map(|f| std::fs::read_to_string(f).expect("read"))
        .collect();
    // Both scopes; the base scope and the assumption; the second solver's own assertion.
    assert_eq!(
        texts.iter().map(|t| asserts(t)).collect::<Vec<_>>(),
        [2, 2, 1]
    );
    for ((file, answer), text) in files.iter().zip(&answers).zip(&texts) {
        let want = if *answer == SatResult::Sat {
            "sat"
        } else {
            "unsat"
        };
        let z3 = common::run_binary("z3", &[file.to_str().expect("utf-8 path")]);
        assert_eq!(z3, want, "{text}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
