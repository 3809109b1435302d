//! The rewrite rules behind the simplifying constructors.
//!
//! [`rewrite`] receives a well-sorted node whose children are already simplified and returns an
//! equivalent term: constant folding (with the exact SMT-LIB bit-vector semantics of `bv.rs`),
//! neutral and absorbing elements, `ite` with a constant condition or equal branches,
//! read-over-write with equal or distinct constant indices, double negation, `x = x`,
//! equality of distinct constants, extract-over-extract/concat/extension, a canonical
//! argument order for commutative operators, and the narrowing of arithmetic on extended values
//! (`narrow.rs`). Every rule is local (it looks at the children's nodes, the narrowing rules
//! a few levels deeper) and sound for all assignments; it must never change a term's meaning
//! (the property tests in `tests/simplify_props.rs` check this). Integer folding uses checked
//! `i128` arithmetic and leaves the term alone on overflow or on division by zero (which
//! SMT-LIB leaves unspecified).

mod narrow;

use crate::build::TermResult;
use crate::bv::BvConst;
use crate::sort::Sort;
use crate::term::{Node, Op, TermId, TermStore};

/// Simplifies `node` (of sort `sort`) and interns the result.
pub(crate) fn rewrite(st: &mut TermStore, node: Node, sort: Sort) -> TermResult {
    match node {
        Node::App1(op, a) => unary(st, op, a, sort),
        Node::App2(op, a, b) => binary(st, op, a, b, sort),
        Node::App3(Op::Ite, c, a, b) => ite(st, c, a, b, sort),
        Node::App3(Op::Store, a, i, v) => store(st, a, i, v, sort),
        Node::Extract { hi, lo, arg } => extract(st, hi, lo, arg, sort),
        Node::ZeroExtend { by, arg } | Node::SignExtend { by, arg } => {
            if by == 0 {
                return Ok(arg);
            }
            match st.as_bv(arg) {
                Some(c) => {
                    let folded = match node {
                        Node::ZeroExtend { .. } => c.zero_extend(by)?,
                        _ => c.sign_extend(by)?,
                    };
                    st.bv_const(folded)
                }
                None => st.intern(node, sort),
            }
        }
        _ => st.intern(node, sort),
    }
}

fn unary(st: &mut TermStore, op: Op, a: TermId, sort: Sort) -> TermResult {
    let inner = *st.node(a);
    match op {
        Op::Not => {
            if let Some(b) = st.as_bool(a) {
                return st.bool_val(!b);
            }
            if let Node::App1(Op::Not, x) = inner {
                return Ok(x);
            }
        }
        Op::BvNot | Op::BvNeg => {
            if let Some(c) = st.as_bv(a) {
                let folded = if op == Op::BvNot {
                    c.bvnot()
                } else {
                    c.bvneg()
                };
                return st.bv_const(folded);
            }
            if let Node::App1(inner_op, x) = inner {
                if inner_op == op {
                    return Ok(x);
                }
            }
        }
        Op::IntNeg => {
            if let Some(v) = st.as_int(a).and_then(i128::checked_neg) {
                return st.int_val(v);
            }
            if let Node::App1(Op::IntNeg, x) = inner {
                return Ok(x);
            }
        }
        _ => {}
    }
    st.intern(Node::App1(op, a), sort)
}

/// Folds a binary bit-vector operator on two constants.
fn fold_bv(op: Op, x: BvConst, y: BvConst) -> Option<Folded> {
    Some(match op {
        Op::BvAnd => Folded::Bv(x.bvand(y)),
        Op::BvOr => Folded::Bv(x.bvor(y)),
        Op::BvXor => Folded::Bv(x.bvxor(y)),
        Op::BvAdd => Folded::Bv(x.bvadd(y)),
        Op::BvSub => Folded::Bv(x.bvsub(y)),
        Op::BvMul => Folded::Bv(x.bvmul(y)),
        Op::BvUdiv => Folded::Bv(x.bvudiv(y)),
        Op::BvSdiv => Folded::Bv(x.bvsdiv(y)),
        Op::BvUrem => Folded::Bv(x.bvurem(y)),
        Op::BvSrem => Folded::Bv(x.bvsrem(y)),
        Op::BvShl => Folded::Bv(x.bvshl(y)),
        Op::BvLshr => Folded::Bv(x.bvlshr(y)),
        Op::BvAshr => Folded::Bv(x.bvashr(y)),
        Op::BvUlt => Folded::Bool(x.bvult(y)),
        Op::BvUle => Folded::Bool(x.bvule(y)),
        Op::BvSlt => Folded::Bool(x.bvslt(y)),
        Op::BvSle => Folded::Bool(x.bvsle(y)),
        Op::Concat => Folded::Bv(x.concat(y).ok()?),
        _ => return None,
    })
}

/// Folds a binary integer operator on two constants (`None` on overflow or division by zero).
fn fold_int(op: Op, x: i128, y: i128) -> Option<Folded> {
    Some(match op {
        Op::IntAdd => Folded::Int(x.checked_add(y)?),
        Op::IntSub => Folded::Int(x.checked_sub(y)?),
        Op::IntMul => Folded::Int(x.checked_mul(y)?),
        Op::IntDiv => Folded::Int(x.checked_div_euclid(y)?),
        Op::IntMod => Folded::Int(x.checked_rem_euclid(y)?),
        Op::IntLe => Folded::Bool(x <= y),
        Op::IntLt => Folded::Bool(x < y),
        _ => return None,
    })
}

enum Folded {
    Bool(bool),
    Bv(BvConst),
    Int(i128),
}

fn emit(st: &mut TermStore, f: Folded) -> TermResult {
    match f {
        Folded::Bool(b) => st.bool_val(b),
        Folded::Bv(c) => st.bv_const(c),
        Folded::Int(i) => st.int_val(i),
    }
}

fn binary(st: &mut TermStore, op: Op, a: TermId, b: TermId, sort: Sort) -> TermResult {
    // Constant folding.
    if let (Some(x), Some(y)) = (st.as_bv(a), st.as_bv(b)) {
        if let Some(f) = fold_bv(op, x, y) {
            return emit(st, f);
        }
    }
    if let (Some(x), Some(y)) = (st.as_int(a), st.as_int(b)) {
        if let Some(f) = fold_int(op, x, y) {
            return emit(st, f);
        }
    }
    let (a, b) = if op.is_commutative() && b < a {
        (b, a)
    } else {
        (a, b)
    };
    let simplified = match op {
        Op::And | Op::Or | Op::Xor | Op::Implies | Op::Eq => boolean(st, op, a, b)?,
        Op::Select => Some(select(st, a, b, sort)?),
        Op::IntAdd | Op::IntSub | Op::IntMul | Op::IntDiv | Op::IntMod | Op::IntLe | Op::IntLt => {
            integer(st, op, a, b)?
        }
        _ => bitvector(st, op, a, b)?,
    };
    if let Some(t) = simplified {
        return Ok(t);
    }
    match narrow::binary(st, op, a, b)? {
        Some(t) => Ok(t),
        None => st.intern(Node::App2(op, a, b), sort),
    }
}

/// Whether `a` is `(not b)` or `b` is `(not a)`.
fn complementary(st: &TermStore, a: TermId, b: TermId) -> bool {
    matches!(st.node(a), Node::App1(Op::Not, x) if *x == b)
        || matches!(st.node(b), Node::App1(Op::Not, x) if *x == a)
}

fn boolean(
    st: &mut TermStore,
    op: Op,
    a: TermId,
    b: TermId,
) -> Result<Option<TermId>, crate::TermError> {
    let (ca, cb) = (st.as_bool(a), st.as_bool(b));
    Ok(Some(match op {
        Op::And => match (ca, cb) {
            (Some(false), _) | (_, Some(false)) => st.bool_val(false)?,
            (Some(true), _) => b,
            (_, Some(true)) => a,
            _ if a == b => a,
            _ if complementary(st, a, b) => st.bool_val(false)?,
            _ => return Ok(None),
        },
        Op::Or => match (ca, cb) {
            (Some(true), _) | (_, Some(true)) => st.bool_val(true)?,
            (Some(false), _) => b,
            (_, Some(false)) => a,
            _ if a == b => a,
            _ if complementary(st, a, b) => st.bool_val(true)?,
            _ => return Ok(None),
        },
        Op::Xor => match (ca, cb) {
            (Some(x), Some(y)) => st.bool_val(x != y)?,
            (Some(false), _) => b,
            (_, Some(false)) => a,
            (Some(true), _) => st.not(b)?,
            (_, Some(true)) => st.not(a)?,
            _ if a == b => st.bool_val(false)?,
            _ if complementary(st, a, b) => st.bool_val(true)?,
            _ => return Ok(None),
        },
        Op::Implies => match (ca, cb) {
            (Some(false), _) | (_, Some(true)) => st.bool_val(true)?,
            (Some(true), _) => b,
            (_, Some(false)) => st.not(a)?,
            _ if a == b => st.bool_val(true)?,
            _ => return Ok(None),
        },
        Op::Eq => {
            if a == b {
                return Ok(Some(st.bool_val(true)?));
            }
            if distinct_values(st, a, b) {
                return Ok(Some(st.bool_val(false)?));
            }
            match (ca, cb) {
                (Some(true), _) => b,
                (_, Some(true)) => a,
                (Some(false), _) => st.not(b)?,
                (_, Some(false)) => st.not(a)?,
                _ if st.sort(a) == Sort::Bool && complementary(st, a, b) => st.bool_val(false)?,
                _ => return Ok(None),
            }
        }
        _ => return Ok(None),
    }))
}

/// Whether `a` and `b` (distinct ids) are known to denote different values: two different
/// constants, or two constant arrays with different constant elements.
fn distinct_values(st: &TermStore, a: TermId, b: TermId) -> bool {
    let (na, nb) = (st.node(a), st.node(b));
    if na.is_const() && nb.is_const() {
        return a != b;
    }
    match (na, nb) {
        (Node::ConstArray { value: x, .. }, Node::ConstArray { value: y, .. }) => {
            x != y && distinct_values(st, *x, *y)
        }
        _ => false,
    }
}

fn bitvector(
    st: &mut TermStore,
    op: Op,
    a: TermId,
    b: TermId,
) -> Result<Option<TermId>, crate::TermError> {
    let (ca, cb) = (st.as_bv(a), st.as_bv(b));
    let is = |c: Option<BvConst>, p: fn(BvConst) -> bool| c.is_some_and(p);
    let zero = |st: &mut TermStore, like: TermId| -> TermResult {
        match st.sort(like) {
            Sort::BitVec(w) => st.bv_const(BvConst::zero(w)),
            _ => Ok(like),
        }
    };
    let width = match st.sort(a) {
        Sort::BitVec(w) => w,
        _ => return Ok(None),
    };
    Ok(Some(match op {
        Op::BvAnd => {
            if is(ca, BvConst::is_zero) || is(cb, BvConst::is_ones) || a == b {
                a
            } else if is(cb, BvConst::is_zero) || is(ca, BvConst::is_ones) {
                b
            } else {
                return Ok(None);
            }
        }
        Op::BvOr => {
            if is(ca, BvConst::is_zero) || is(cb, BvConst::is_ones) {
                b
            } else if is(cb, BvConst::is_zero) || is(ca, BvConst::is_ones) || a == b {
                a
            } else {
                return Ok(None);
            }
        }
        Op::BvXor => {
            if is(ca, BvConst::is_zero) {
                b
            } else if is(cb, BvConst::is_zero) {
                a
            } else if a == b {
                zero(st, a)?
            } else if is(ca, BvConst::is_ones) {
                st.bv_not(b)?
            } else if is(cb, BvConst::is_ones) {
                st.bv_not(a)?
            } else {
                return Ok(None);
            }
        }
        Op::BvAdd => {
            if is(ca, BvConst::is_zero) {
                b
            } else if is(cb, BvConst::is_zero) {
                a
            } else if let Some(t) =
                fold_constant_sum(st, ca.or(cb), if ca.is_some() { b } else { a })?
            {
                t
            } else {
                return Ok(None);
            }
        }
        Op::BvSub => {
            if is(cb, BvConst::is_zero) {
                a
            } else if a == b {
                zero(st, a)?
            } else if is(ca, BvConst::is_zero) {
                st.bv_neg(b)?
            } else {
                return Ok(None);
            }
        }
        Op::BvMul => {
            if is(ca, BvConst::is_zero) || is(cb, BvConst::is_one) {
                a
            } else if is(cb, BvConst::is_zero) || is(ca, BvConst::is_one) {
                b
            } else {
                return Ok(None);
            }
        }
        Op::BvUdiv | Op::BvSdiv if is(cb, BvConst::is_one) => a,
        Op::BvUdiv if is(cb, BvConst::is_zero) => st.bv_const(BvConst::ones(width))?,
        Op::BvUrem | Op::BvSrem if is(cb, BvConst::is_one) => zero(st, a)?,
        Op::BvUrem | Op::BvSrem if is(cb, BvConst::is_zero) => a,
        Op::BvShl | Op::BvLshr | Op::BvAshr => {
            if is(cb, BvConst::is_zero) || is(ca, BvConst::is_zero) {
                a
            } else if op != Op::BvAshr && cb.is_some_and(|c| c.bits() >= u128::from(width)) {
                zero(st, a)?
            } else {
                return Ok(None);
            }
        }
        Op::BvUlt if a == b || is(cb, BvConst::is_zero) || is(ca, BvConst::is_ones) => {
            st.bool_val(false)?
        }
        Op::BvUle if a == b || is(ca, BvConst::is_zero) || is(cb, BvConst::is_ones) => {
            st.bool_val(true)?
        }
        Op::BvSlt if a == b => st.bool_val(false)?,
        Op::BvSle if a == b => st.bool_val(true)?,
        _ => return Ok(None),
    }))
}

/// `c1 + (c2 + y)` (either operand order) as `(c1 + c2) + y`: a counter incremented in a loop
/// is one addition of a constant, not a chain as long as the loop ran (the solver re-reads the
/// chain in every query of the path).
fn fold_constant_sum(
    st: &mut TermStore,
    c1: Option<BvConst>,
    other: TermId,
) -> Result<Option<TermId>, crate::TermError> {
    let Some(c1) = c1 else {
        return Ok(None);
    };
    let Node::App2(Op::BvAdd, x, y) = *st.node(other) else {
        return Ok(None);
    };
    let (c2, rest) = match (st.as_bv(x), st.as_bv(y)) {
        (Some(c2), _) => (c2, y),
        (_, Some(c2)) => (c2, x),
        _ => return Ok(None),
    };
    let sum = st.bv_const(c1.bvadd(c2))?;
    Ok(Some(st.bv_add(sum, rest)?))
}

fn integer(
    st: &mut TermStore,
    op: Op,
    a: TermId,
    b: TermId,
) -> Result<Option<TermId>, crate::TermError> {
    let (ca, cb) = (st.as_int(a), st.as_int(b));
    Ok(Some(match op {
        Op::IntAdd if ca == Some(0) => b,
        Op::IntAdd if cb == Some(0) => a,
        Op::IntSub if cb == Some(0) => a,
        Op::IntSub if a == b => st.int_val(0)?,
        Op::IntSub if ca == Some(0) => st.int_neg(b)?,
        Op::IntMul if ca == Some(0) || cb == Some(1) => a,
        Op::IntMul if cb == Some(0) || ca == Some(1) => b,
        Op::IntDiv if cb == Some(1) => a,
        Op::IntMod if cb == Some(1) || cb == Some(-1) => st.int_val(0)?,
        Op::IntLe if a == b => st.bool_val(true)?,
        Op::IntLt if a == b => st.bool_val(false)?,
        _ => return Ok(None),
    }))
}

/// Read-over-write: walks down a chain of stores while the indices are provably different
/// constants; stops at an equal index (the stored value) or a constant array (its element).
fn select(st: &mut TermStore, mut a: TermId, i: TermId, sort: Sort) -> TermResult {
    loop {
        match *st.node(a) {
            Node::App3(Op::Store, inner, j, v) => {
                if j == i {
                    return Ok(v);
                }
                if st.node(i).is_const() && st.node(j).is_const() {
                    a = inner;
                    continue;
                }
                break;
            }
            Node::ConstArray { value, .. } => return Ok(value),
            _ => break,
        }
    }
    st.intern(Node::App2(Op::Select, a, i), sort)
}

fn store(st: &mut TermStore, a: TermId, i: TermId, v: TermId, sort: Sort) -> TermResult {
    // Writing back what is already there.
    if let Node::App2(Op::Select, arr, j) = *st.node(v) {
        if arr == a && j == i {
            return Ok(a);
        }
    }
    if let Node::ConstArray { value, .. } = *st.node(a) {
        if value == v {
            return Ok(a);
        }
    }
    // A write hides an earlier write to the same index.
    if let Node::App3(Op::Store, inner, j, _) = *st.node(a) {
        if j == i {
            return st.store(inner, i, v);
        }
    }
    st.intern(Node::App3(Op::Store, a, i, v), sort)
}

fn ite(st: &mut TermStore, c: TermId, a: TermId, b: TermId, sort: Sort) -> TermResult {
    if let Some(cv) = st.as_bool(c) {
        return Ok(if cv { a } else { b });
    }
    if a == b {
        return Ok(a);
    }
    if let Node::App1(Op::Not, x) = *st.node(c) {
        return st.ite(x, b, a);
    }
    if sort == Sort::Bool {
        match (st.as_bool(a), st.as_bool(b)) {
            (Some(true), Some(false)) => return Ok(c),
            (Some(false), Some(true)) => return st.not(c),
            (Some(true), None) => return st.or(c, b),
            (None, Some(false)) => return st.and(c, a),
            _ => {}
        }
    }
    // Nested ite on the same condition.
    if let Node::App3(Op::Ite, c2, x, _) = *st.node(a) {
        if c2 == c {
            return st.ite(c, x, b);
        }
    }
    if let Node::App3(Op::Ite, c2, _, y) = *st.node(b) {
        if c2 == c {
            return st.ite(c, a, y);
        }
    }
    st.intern(Node::App3(Op::Ite, c, a, b), sort)
}

fn extract(st: &mut TermStore, hi: u32, lo: u32, arg: TermId, sort: Sort) -> TermResult {
    let width = match st.sort(arg) {
        Sort::BitVec(w) => w,
        _ => return st.intern(Node::Extract { hi, lo, arg }, sort),
    };
    if lo == 0 && hi + 1 == width {
        return Ok(arg);
    }
    if let Some(c) = st.as_bv(arg) {
        return st.bv_const(c.extract(hi, lo));
    }
    if lo == 0 {
        if let Some(t) = narrow::extract_low(st, hi, arg)? {
            return Ok(t);
        }
    }
    match *st.node(arg) {
        Node::Extract { lo: l2, arg: x, .. } => st.extract(hi + l2, lo + l2, x),
        Node::App2(Op::Concat, h, l) => {
            let wl = match st.sort(l) {
                Sort::BitVec(w) => w,
                _ => return st.intern(Node::Extract { hi, lo, arg }, sort),
            };
            if hi < wl {
                st.extract(hi, lo, l)
            } else if lo >= wl {
                st.extract(hi - wl, lo - wl, h)
            } else {
                st.intern(Node::Extract { hi, lo, arg }, sort)
            }
        }
        Node::ZeroExtend { arg: x, .. } => {
            let wx = match st.sort(x) {
                Sort::BitVec(w) => w,
                _ => return st.intern(Node::Extract { hi, lo, arg }, sort),
            };
            if hi < wx {
                st.extract(hi, lo, x)
            } else if lo >= wx {
                st.bv_const(BvConst::zero(hi - lo + 1))
            } else {
                st.intern(Node::Extract { hi, lo, arg }, sort)
            }
        }
        _ => st.intern(Node::Extract { hi, lo, arg }, sort),
    }
}

#[cfg(test)]
mod tests {
    use crate::sort::Sort;
    use crate::term::{Node, TermStore};

    fn store() -> TermStore {
        TermStore::new()
    }

    #[test]
    fn neutral_and_absorbing_elements() {
        let mut s = store();
        let x = s.bv_var("x", 32).expect("var");
        let zero = s.bv_val(32, 0).expect("c");
        let one = s.bv_val(32, 1).expect("c");
        let ones = s.bv_signed(32, -1).expect("c");
        assert_eq!(s.bv_add(x, zero), Ok(x));
        assert_eq!(s.bv_add(zero, x), Ok(x));
        assert_eq!(s.bv_mul(x, one), Ok(x));
        assert_eq!(s.bv_mul(x, zero), Ok(zero));
        assert_eq!(s.bv_and(x, zero), Ok(zero));
        assert_eq!(s.bv_or(x, ones), Ok(ones));
        assert_eq!(s.bv_sub(x, x), Ok(zero));
        assert_eq!(s.bv_xor(x, x), Ok(zero));
        assert_eq!(s.bv_udiv(x, zero), Ok(ones));
        assert_eq!(s.bv_urem(x, zero), Ok(x));
        assert_eq!(s.bv_srem(x, zero), Ok(x));
        let b = s.bool_var("b").expect("var");
        let t = s.bool_val(true).expect("c");
        let f = s.bool_val(false).expect("c");
        assert_eq!(s.and(t, b), Ok(b));
        assert_eq!(s.or(f, b), Ok(b));
        assert_eq!(s.and(f, b), Ok(f));
        let nb = s.not(b).expect("not");
        assert_eq!(s.not(nb), Ok(b));
        assert_eq!(s.and(b, nb), Ok(f));
        assert_eq!(s.or(nb, b), Ok(t));
    }

    /// A counter incremented k times is `x + k`, however the additions were nested; constants
    /// that cancel leave `x`.
    #[test]
    fn constant_sums_fold() {
        let mut s = store();
        let x = s.bv_var("x", 32).expect("var");
        let mut counter = x;
        for _ in 0..5 {
            let one = s.bv_val(32, 1).expect("c");
            counter = s.bv_add(one, counter).expect("add");
        }
        let five = s.bv_val(32, 5).expect("c");
        assert_eq!(Ok(counter), s.bv_add(x, five));
        let minus_five = s.bv_signed(32, -5).expect("c");
        assert_eq!(s.bv_add(counter, minus_five), Ok(x));
    }

    #[test]
    fn commutative_operators_are_canonical() {
        let mut s = store();
        let x = s.bv_var("x", 32).expect("var");
        let y = s.bv_var("y", 32).expect("var");
        assert_eq!(s.bv_add(x, y), s.bv_add(y, x));
        assert_eq!(s.eq(x, y), s.eq(y, x));
    }

    #[test]
    fn ite_rules() {
        let mut s = store();
        let c = s.bool_var("c").expect("var");
        let x = s.bv_var("x", 8).expect("var");
        let y = s.bv_var("y", 8).expect("var");
        let t = s.bool_val(true).expect("c");
        let f = s.bool_val(false).expect("c");
        assert_eq!(s.ite(c, x, x), Ok(x));
        assert_eq!(s.ite(t, x, y), Ok(x));
        assert_eq!(s.ite(f, x, y), Ok(y));
        assert_eq!(s.ite(c, t, f), Ok(c));
        let nc = s.not(c).expect("not");
        assert_eq!(s.ite(c, f, t), Ok(nc));
        assert_eq!(s.ite(nc, x, y), s.ite(c, y, x));
    }

    #[test]
    fn equalities() {
        let mut s = store();
        let x = s.int_var("x").expect("var");
        let three = s.int_val(3).expect("c");
        let four = s.int_val(4).expect("c");
        let t = s.bool_val(true).expect("c");
        let f = s.bool_val(false).expect("c");
        assert_eq!(s.eq(x, x), Ok(t));
        assert_eq!(s.eq(three, four), Ok(f));
        let b = s.bool_var("b").expect("var");
        assert_eq!(s.eq(b, t), Ok(b));
    }

    #[test]
    fn read_over_write() {
        let mut s = store();
        let arr = s
            .array_sort(Sort::BitVec(32), Sort::BitVec(8))
            .expect("sort");
        let a = s.var("a", arr).expect("var");
        let i1 = s.bv_val(32, 1).expect("c");
        let i2 = s.bv_val(32, 2).expect("c");
        let v = s.bv_var("v", 8).expect("var");
        let w = s.bv_var("w", 8).expect("var");
        let a1 = s.store(a, i1, v).expect("store");
        let a2 = s.store(a1, i2, w).expect("store");
        assert_eq!(s.select(a2, i2), Ok(w));
        assert_eq!(s.select(a2, i1), Ok(v));
        let i3 = s.bv_val(32, 3).expect("c");
        let direct = s.select(a, i3).expect("select");
        assert_eq!(s.select(a2, i3), Ok(direct));
        // A symbolic index stops the walk.
        let j = s.bv_var("j", 32).expect("var");
        let sel = s.select(a2, j).expect("select");
        assert!(matches!(s.node(sel), Node::App2(_, arr2, _) if *arr2 == a2));
        let zero = s.bv_val(8, 0).expect("c");
        let k = s.const_array(arr, zero).expect("const");
        assert_eq!(s.select(k, j), Ok(zero));
    }

    #[test]
    fn extract_rules() {
        let mut s = store();
        let x = s.bv_var("x", 8).expect("var");
        let y = s.bv_var("y", 8).expect("var");
        assert_eq!(s.extract(7, 0, x), Ok(x));
        let xy = s.concat(x, y).expect("concat");
        assert_eq!(s.extract(7, 0, xy), Ok(y));
        assert_eq!(s.extract(15, 8, xy), Ok(x));
        let e = s.extract(11, 4, xy).expect("extract");
        let e2 = s.extract(5, 2, e).expect("extract");
        assert_eq!(Ok(e2), s.extract(9, 6, xy));
        let z = s.zero_extend(24, x).expect("zext");
        let hi = s.extract(31, 8, z).expect("extract");
        assert_eq!(s.as_bv(hi).map(|c| c.bits()), Some(0));
        assert_eq!(s.extract(7, 0, z), Ok(x));
    }

    #[test]
    fn integer_folding_avoids_overflow_and_division_by_zero() {
        let mut s = store();
        let max = s.int_val(i128::MAX).expect("c");
        let one = s.int_val(1).expect("c");
        let zero = s.int_val(0).expect("c");
        let sum = s.int_add(max, one).expect("add");
        assert_eq!(s.as_int(sum), None, "overflow is left symbolic");
        let d = s.int_div(one, zero).expect("div");
        assert_eq!(s.as_int(d), None, "division by zero is left symbolic");
        let m7 = s.int_val(-7).expect("c");
        let two = s.int_val(2).expect("c");
        let q = s.int_div(m7, two).expect("div");
        let r = s.int_mod(m7, two).expect("mod");
        assert_eq!((s.as_int(q), s.as_int(r)), (Some(-4), Some(1)), "Euclidean");
    }
}
