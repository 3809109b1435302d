//! SMT-LIB2 text for terms, declarations and whole query scripts.
//!
//! Variable symbols are `|name!k|`, where `name` is the display name with every character that
//! SMT-LIB forbids in quoted symbols (`|`, `\`, non-printable or non-ASCII characters)
//! replaced by `_`, and `k` is the variable's id: the id suffix keeps symbols unique even when
//! display names repeat or collide after replacement. Shared subterms are printed once, bound by
//! `let` (names `l_<term id>`, which contain no `!` and so can never clash with a variable
//! symbol); lets are grouped by depth so their nesting stays shallow. Printing is iterative
//! and linear in the size of the DAG. This module only produces text; it never talks to a
//! solver.

use rustc_hash::FxHashMap;

use crate::bv::BvConst;
use crate::sort::Sort;
use crate::term::{Node, Op, TermId, TermStore, VarId};

/// The symbol of a variable without the surrounding bars (also its name inside Z3).
pub fn symbol_text(store: &TermStore, v: VarId) -> String {
    let name = &store.var_info(v).name;
    let mut out = String::with_capacity(name.len() + 8);
    for ch in name.chars() {
        if ch.is_ascii_graphic() && ch != '|' && ch != '\\' || ch == ' ' {
            out.push(ch);
        } else {
            out.push('_');
        }
    }
    out.push('!');
    out.push_str(&v.index().to_string());
    out
}

/// The quoted SMT-LIB symbol of a variable, e.g. `|x@line 7!3|`.
pub fn symbol(store: &TermStore, v: VarId) -> String {
    format!("|{}|", symbol_text(store, v))
}

/// A bit-vector literal: `#x...` when the width is a multiple of 4, `#b...` otherwise.
pub fn bv_literal(c: BvConst) -> String {
    let w = c.width() as usize;
    if w % 4 == 0 {
        format!("#x{:0width$x}", c.bits(), width = w / 4)
    } else {
        format!("#b{:0width$b}", c.bits(), width = w)
    }
}

/// An integer literal: `5` or `(- 5)`.
pub fn int_literal(i: i128) -> String {
    if i < 0 {
        format!("(- {})", i.unsigned_abs())
    } else {
        i.to_string()
    }
}

/// `(declare-fun |x!0| () (_ BitVec 32))`.
pub fn declaration(store: &TermStore, v: VarId) -> String {
    format!(
        "(declare-fun {} () {})",
        symbol(store, v),
        store.sort_name(store.var_info(v).sort)
    )
}

/// The SMT-LIB2 text of `t`, with `let` bindings for shared subterms.
pub fn term(store: &TermStore, t: TermId) -> String {
    let mut out = String::new();
    write_term(store, t, &mut out);
    out
}

fn is_leaf(node: &Node) -> bool {
    matches!(
        node,
        Node::Bool(_) | Node::Bv(_) | Node::Int(_) | Node::Var(_)
    )
}

/// Appends the SMT-LIB2 text of `t` to `out`.
pub fn write_term(store: &TermStore, t: TermId, out: &mut String) {
    let order = store.postorder(&[t]);
    let mut uses: FxHashMap<TermId, u32> = FxHashMap::default();
    for &u in &order {
        for &c in store.node(u).args().iter() {
            *uses.entry(c).or_insert(0) += 1;
        }
    }
    let bound = |u: TermId| uses.get(&u).is_some_and(|&n| n >= 2) && !is_leaf(store.node(u));
    // below[u]: the deepest let level that u's expression refers to.
    let mut below: FxHashMap<TermId, u32> = FxHashMap::default();
    let mut levels: Vec<Vec<TermId>> = Vec::new();
    for &u in &order {
        let m = store
            .node(u)
            .args()
            .iter()
            .map(|c| {
                let b = below.get(c).copied().unwrap_or(0);
                if bound(*c) {
                    b + 1
                } else {
                    b
                }
            })
            .max()
            .unwrap_or(0);
        below.insert(u, m);
        if bound(u) {
            let level = m as usize;
            if levels.len() <= level {
                levels.resize(level + 1, Vec::new());
            }
            levels[level].push(u);
        }
    }
    let mut opened = 0;
    for group in &levels {
        if group.is_empty() {
            continue;
        }
        out.push_str("(let (");
        for (k, &u) in group.iter().enumerate() {
            if k > 0 {
                out.push(' ');
            }
            out.push_str("(l_");
            out.push_str(&u.index().to_string());
            out.push(' ');
            emit(store, u, &bound, out);
            out.push(')');
        }
        out.push_str(") ");
        opened += 1;
    }
    emit(store, t, &bound, out);
    for _ in 0..opened {
        out.push(')');
    }
}

enum Item {
    Term(TermId),
    Text(&'static str),
}

/// Writes the expression of `root` (its children by name when they are let-bound).
fn emit(store: &TermStore, root: TermId, bound: &dyn Fn(TermId) -> bool, out: &mut String) {
    let mut stack = vec![Item::Term(root)];
    let mut first = true;
    while let Some(item) = stack.pop() {
        let t = match item {
            Item::Text(s) => {
                out.push_str(s);
                continue;
            }
            Item::Term(t) => t,
        };
        if !first && bound(t) {
            out.push_str("l_");
            out.push_str(&t.index().to_string());
            continue;
        }
        first = false;
        let node = store.node(t);
        match *node {
            Node::Bool(b) => out.push_str(if b { "true" } else { "false" }),
            Node::Bv(c) => out.push_str(&bv_literal(c)),
            Node::Int(i) => out.push_str(&int_literal(i)),
            Node::Var(v) => out.push_str(&symbol(store, v)),
            _ => {
                out.push('(');
                write_head(store, node, out);
                stack.push(Item::Text(")"));
                for &c in node.args().iter().rev() {
                    stack.push(Item::Term(c));
                    stack.push(Item::Text(" "));
                }
            }
        }
    }
}

fn write_head(store: &TermStore, node: &Node, out: &mut String) {
    match *node {
        Node::ConstArray { sort, .. } => {
            out.push_str("(as const ");
            out.push_str(&store.sort_name(sort));
            out.push(')');
        }
        Node::Extract { hi, lo, .. } => out.push_str(&format!("(_ extract {hi} {lo})")),
        Node::ZeroExtend { by, .. } => out.push_str(&format!("(_ zero_extend {by})")),
        Node::SignExtend { by, .. } => out.push_str(&format!("(_ sign_extend {by})")),
        Node::App1(op, _) | Node::App2(op, _, _) | Node::App3(op, _, _, _) => {
            out.push_str(op.smtlib_name())
        }
        Node::Bool(_) | Node::Bv(_) | Node::Int(_) | Node::Var(_) => {}
    }
}

/// The narrowest standard logic covering `terms` (quantifier-free), or `ALL`; but integer
/// arrays are `QF_AUFLIA`, not the narrower `QF_ALIA`: a Z3 process sets its solvers up by the
/// logic, and decides the backward engine's integer-encoded queries about 5x faster under
/// `QF_AUFLIA` (BENCHMARKS.md).
pub fn logic_for(store: &TermStore, terms: &[TermId]) -> &'static str {
    let (mut bv, mut int, mut arrays, mut nonlinear, mut odd_arrays) =
        (false, false, false, false, false);
    let mut array_kinds = (false, false); // (bv -> bv seen, int -> int seen)
    for t in store.postorder(terms) {
        match store.sort(t) {
            Sort::BitVec(_) => bv = true,
            Sort::Int => int = true,
            s @ Sort::Array(_) => {
                arrays = true;
                match store.array_parts(s) {
                    Some((Sort::BitVec(_), Sort::BitVec(_))) => array_kinds.0 = true,
                    Some((Sort::Int, Sort::Int)) => array_kinds.1 = true,
                    _ => odd_arrays = true,
                }
            }
            Sort::Bool => {}
        }
        if let Node::App2(op @ (Op::IntMul | Op::IntDiv | Op::IntMod), a, b) = *store.node(t) {
            let constant = |x: TermId| store.as_int(x).is_some();
            let linear = match op {
                Op::IntMul => constant(a) || constant(b),
                _ => store.as_int(b).is_some_and(|d| d != 0),
            };
            nonlinear |= !linear;
        }
    }
    if odd_arrays || (bv && int) || (array_kinds.0 && array_kinds.1) {
        return "ALL";
    }
    match (arrays, bv, int, nonlinear) {
        (false, false, false, _) => "QF_UF",
        (false, true, false, _) => "QF_BV",
        (true, _, false, _) => "QF_ABV",
        (false, false, true, false) => "QF_LIA",
        (false, false, true, true) => "QF_NIA",
        (true, false, true, false) => "QF_AUFLIA",
        _ => "QF_ANIA",
    }
}

/// A standalone SMT-LIB2 script: logic, declarations of every variable used, one assert per
/// term, `(check-sat)` and `(exit)`.
pub fn script(store: &TermStore, asserts: &[TermId]) -> String {
    let mut out = String::new();
    out.push_str("(set-info :smt-lib-version 2.6)\n");
    out.push_str("(set-logic ");
    out.push_str(logic_for(store, asserts));
    out.push_str(")\n");
    for v in store.vars_of(asserts) {
        out.push_str(&declaration(store, v));
        out.push('\n');
    }
    for &t in asserts {
        out.push_str("(assert ");
        write_term(store, t, &mut out);
        out.push_str(")\n");
    }
    out.push_str("(check-sat)\n(exit)\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symbols_are_quoted_and_unique() {
        let mut s = TermStore::new();
        let a = s.bool_var("x|y\\z\n").expect("var");
        let b = s.bool_var("x|y\\z\n").expect("var");
        let sa = symbol(&s, s.var_id(a).expect("var"));
        let sb = symbol(&s, s.var_id(b).expect("var"));
        assert_eq!(sa, "|x_y_z_!0|");
        assert_ne!(sa, sb);
        let c = s.bool_var("input #3").expect("var");
        assert_eq!(term(&s, c), "|input #3!2|");
    }

    #[test]
    fn literals() {
        assert_eq!(bv_literal(BvConst::new(8, 0x2a).expect("c")), "#x2a");
        assert_eq!(bv_literal(BvConst::new(3, 5).expect("c")), "#b101");
        assert_eq!(int_literal(-5), "(- 5)");
        assert_eq!(
            int_literal(i128::MIN),
            "(- 170141183460469231731687303715884105728)"
        );
    }

    #[test]
    fn operators_and_sharing() {
        let mut s = TermStore::without_simplification();
        let x = s.bv_var("x", 8).expect("var");
        let one = s.bv_val(8, 1).expect("c");
        let a = s.bv_add(x, one).expect("add");
        let m = s.bv_mul(a, a).expect("mul");
        let e = s.extract(3, 0, m).expect("extract");
        let z = s.zero_extend(4, e).expect("zext");
        let c = s.bv_ult(z, m).expect("ult");
        assert_eq!(
            term(&s, c),
            "(let ((l_2 (bvadd |x!0| #x01))) (let ((l_3 (bvmul l_2 l_2))) \
             (bvult ((_ zero_extend 4) ((_ extract 3 0) l_3)) l_3)))"
        );
    }

    #[test]
    fn arrays_and_integers() {
        let mut s = TermStore::without_simplification();
        let arr = s.array_sort(Sort::Int, Sort::Int).expect("sort");
        let zero = s.int_val(0).expect("c");
        let k = s.const_array(arr, zero).expect("const");
        let n = s.int_var("n").expect("var");
        let m = s.int_val(-2).expect("c");
        let st = s.store(k, n, m).expect("store");
        let r = s.select(st, zero).expect("select");
        let neg = s.int_neg(r).expect("neg");
        assert_eq!(
            term(&s, neg),
            "(- (select (store ((as const (Array Int Int)) 0) |n!0| (- 2)) 0))"
        );
        let le = s.int_le(neg, n).expect("le");
        assert_eq!(logic_for(&s, &[le]), "QF_AUFLIA");
        let sq = s.int_mul(n, n).expect("mul");
        let gt = s.int_lt(zero, sq).expect("lt");
        assert_eq!(logic_for(&s, &[gt]), "QF_NIA");
    }

    #[test]
    fn scripts_declare_what_they_use() {
        let mut s = TermStore::new();
        let x = s.bv_var("x", 32).expect("var");
        let _unused = s.bv_var("unused", 32).expect("var");
        let ten = s.bv_val(32, 10).expect("c");
        let c = s.bv_slt(x, ten).expect("slt");
        let text = script(&s, &[c]);
        assert_eq!(
            text,
            "(set-info :smt-lib-version 2.6)\n(set-logic QF_BV)\n\
             (declare-fun |x!0| () (_ BitVec 32))\n(assert (bvslt |x!0| #x0000000a))\n\
             (check-sat)\n(exit)\n"
        );
    }
}
