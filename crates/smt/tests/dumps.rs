//! Dumped queries are standalone SMT-LIB2 files that the z3 and cvc5 binaries accept and answer
//! as the engine did.

mod common;

use symex_smt::{QueryEngine, QueryOptions, SatResult, Sort, TermStore};

#[test]
fn dumped_queries_replay_in_z3_and_cvc5() {
    let dir = std::env::temp_dir().join(format!("symex-smt-dumps-{}", std::process::id()));
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
