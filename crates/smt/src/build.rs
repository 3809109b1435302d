//! The public term constructors of [`TermStore`].
//!
//! Every constructor checks the sorts of its arguments and returns a [`TermError`] (never a
//! panic) when they are wrong. In a simplifying store (the default) the node is then handed to
//! the rewrite rules of `simplify.rs`; in a store made by
//! [`TermStore::without_simplification`] it is hash-consed as written. Derived forms (`ugt`,
//! `sge`, `distinct`, n-ary `and`, ...) are expressed through the core operators, so the node
//! set stays small. This module must not contain rewrite rules.

use crate::bv::{check_width, BvConst};
use crate::error::TermError;
use crate::simplify;
use crate::sort::Sort;
use crate::term::{Node, Op, TermId, TermStore};

/// The result of a term constructor.
pub type TermResult = Result<TermId, TermError>;

macro_rules! bv_binary {
    ($($(#[$doc:meta])* $name:ident => $op:ident;)*) => {$(
        $(#[$doc])*
        pub fn $name(&mut self, a: TermId, b: TermId) -> TermResult {
            let w = self.same_bv(Op::$op.smtlib_name(), a, b)?;
            self.mk(Node::App2(Op::$op, a, b), Sort::BitVec(w))
        }
    )*};
}

macro_rules! bv_compare {
    ($($(#[$doc:meta])* $name:ident => $op:ident;)*) => {$(
        $(#[$doc])*
        pub fn $name(&mut self, a: TermId, b: TermId) -> TermResult {
            self.same_bv(Op::$op.smtlib_name(), a, b)?;
            self.mk(Node::App2(Op::$op, a, b), Sort::Bool)
        }
    )*};
}

macro_rules! int_binary {
    ($($(#[$doc:meta])* $name:ident => $op:ident, $sort:expr;)*) => {$(
        $(#[$doc])*
        pub fn $name(&mut self, a: TermId, b: TermId) -> TermResult {
            self.int_arg(Op::$op.smtlib_name(), a)?;
            self.int_arg(Op::$op.smtlib_name(), b)?;
            self.mk(Node::App2(Op::$op, a, b), $sort)
        }
    )*};
}

macro_rules! bool_binary {
    ($($(#[$doc:meta])* $name:ident => $op:ident;)*) => {$(
        $(#[$doc])*
        pub fn $name(&mut self, a: TermId, b: TermId) -> TermResult {
            self.bool_arg(Op::$op.smtlib_name(), a)?;
            self.bool_arg(Op::$op.smtlib_name(), b)?;
            self.mk(Node::App2(Op::$op, a, b), Sort::Bool)
        }
    )*};
}

impl TermStore {
    /// Interns `node` after simplification (if this store simplifies).
    pub(crate) fn mk(&mut self, node: Node, sort: Sort) -> TermResult {
        if self.simplify {
            simplify::rewrite(self, node, sort)
        } else {
            self.intern(node, sort)
        }
    }

    fn sort_error(&self, op: &'static str, expected: &str, found: Sort) -> TermError {
        TermError::Sort {
            op,
            expected: expected.to_string(),
            found: self.sort_name(found),
        }
    }

    fn bool_arg(&self, op: &'static str, t: TermId) -> Result<(), TermError> {
        match self.check_term(t)? {
            Sort::Bool => Ok(()),
            s => Err(self.sort_error(op, "Bool", s)),
        }
    }

    fn int_arg(&self, op: &'static str, t: TermId) -> Result<(), TermError> {
        match self.check_term(t)? {
            Sort::Int => Ok(()),
            s => Err(self.sort_error(op, "Int", s)),
        }
    }

    fn bv_arg(&self, op: &'static str, t: TermId) -> Result<u32, TermError> {
        match self.check_term(t)? {
            Sort::BitVec(w) => Ok(w),
            s => Err(self.sort_error(op, "a bit-vector", s)),
        }
    }

    fn same_bv(&self, op: &'static str, a: TermId, b: TermId) -> Result<u32, TermError> {
        let wa = self.bv_arg(op, a)?;
        let wb = self.bv_arg(op, b)?;
        if wa == wb {
            Ok(wa)
        } else {
            Err(self.sort_error(op, &format!("(_ BitVec {wa})"), Sort::BitVec(wb)))
        }
    }

    fn same_sort(&self, op: &'static str, a: TermId, b: TermId) -> Result<Sort, TermError> {
        let sa = self.check_term(a)?;
        let sb = self.check_term(b)?;
        if sa == sb {
            Ok(sa)
        } else {
            Err(self.sort_error(op, &self.sort_name(sa), sb))
        }
    }

    // ----- constants -------------------------------------------------------------------

    /// The Boolean constant `b`.
    pub fn bool_val(&mut self, b: bool) -> TermResult {
        self.intern(Node::Bool(b), Sort::Bool)
    }

    /// The bit-vector constant `value mod 2^width`.
    pub fn bv_val(&mut self, width: u32, value: u128) -> TermResult {
        let c = BvConst::new(width, value)?;
        self.bv_const(c)
    }

    /// The two's-complement bit-vector constant `value` in `width` bits (truncating).
    pub fn bv_signed(&mut self, width: u32, value: i128) -> TermResult {
        let c = BvConst::from_i128(width, value)?;
        self.bv_const(c)
    }

    /// The bit-vector constant `c`.
    pub fn bv_const(&mut self, c: BvConst) -> TermResult {
        self.intern(Node::Bv(c), Sort::BitVec(c.width()))
    }

    /// The integer constant `value`.
    pub fn int_val(&mut self, value: i128) -> TermResult {
        self.intern(Node::Int(value), Sort::Int)
    }

    /// The array of sort `sort` whose every element is `value`.
    pub fn const_array(&mut self, sort: Sort, value: TermId) -> TermResult {
        let sv = self.check_term(value)?;
        match self.array_parts(sort) {
            Some((_, elem)) if elem == sv => self.mk(Node::ConstArray { sort, value }, sort),
            Some((_, elem)) => Err(self.sort_error("const", &self.sort_name(elem), sv)),
            None => Err(self.sort_error("const", "an array sort", sort)),
        }
    }

    /// A fresh bit-vector variable.
    pub fn bv_var(&mut self, name: impl Into<String>, width: u32) -> TermResult {
        let w = check_width("bit-vector variable", u64::from(width))?;
        self.var(name, Sort::BitVec(w))
    }

    /// A fresh Boolean variable.
    pub fn bool_var(&mut self, name: impl Into<String>) -> TermResult {
        self.var(name, Sort::Bool)
    }

    /// A fresh integer variable.
    pub fn int_var(&mut self, name: impl Into<String>) -> TermResult {
        self.var(name, Sort::Int)
    }

    // ----- Boolean ---------------------------------------------------------------------

    /// `(not a)`.
    pub fn not(&mut self, a: TermId) -> TermResult {
        self.bool_arg("not", a)?;
        self.mk(Node::App1(Op::Not, a), Sort::Bool)
    }

    bool_binary! {
        /// `(and a b)`.
        and => And;
        /// `(or a b)`.
        or => Or;
        /// `(xor a b)`.
        xor => Xor;
        /// `(=> a b)`.
        implies => Implies;
    }

    /// The conjunction of `args` (`true` when empty).
    pub fn and_all(&mut self, args: &[TermId]) -> TermResult {
        let mut acc = self.bool_val(true)?;
        for &a in args {
            acc = self.and(acc, a)?;
        }
        Ok(acc)
    }

    /// The disjunction of `args` (`false` when empty).
    pub fn or_all(&mut self, args: &[TermId]) -> TermResult {
        let mut acc = self.bool_val(false)?;
        for &a in args {
            acc = self.or(acc, a)?;
        }
        Ok(acc)
    }

    /// `(ite c a b)`.
    pub fn ite(&mut self, c: TermId, a: TermId, b: TermId) -> TermResult {
        self.bool_arg("ite", c)?;
        let s = self.same_sort("ite", a, b)?;
        self.mk(Node::App3(Op::Ite, c, a, b), s)
    }

    /// `(= a b)` for terms of any one sort.
    pub fn eq(&mut self, a: TermId, b: TermId) -> TermResult {
        self.same_sort("=", a, b)?;
        self.mk(Node::App2(Op::Eq, a, b), Sort::Bool)
    }

    /// `(not (= a b))`.
    pub fn neq(&mut self, a: TermId, b: TermId) -> TermResult {
        let e = self.eq(a, b)?;
        self.not(e)
    }

    /// `(distinct args...)`, as the conjunction of pairwise disequalities (`true` for fewer
    /// than two arguments).
    pub fn distinct(&mut self, args: &[TermId]) -> TermResult {
        let mut acc = self.bool_val(true)?;
        for (i, &a) in args.iter().enumerate() {
            for &b in &args[i + 1..] {
                let d = self.neq(a, b)?;
                acc = self.and(acc, d)?;
            }
        }
        Ok(acc)
    }

    // ----- bit-vectors -----------------------------------------------------------------

    /// `(bvnot a)`.
    pub fn bv_not(&mut self, a: TermId) -> TermResult {
        let w = self.bv_arg("bvnot", a)?;
        self.mk(Node::App1(Op::BvNot, a), Sort::BitVec(w))
    }

    /// `(bvneg a)`.
    pub fn bv_neg(&mut self, a: TermId) -> TermResult {
        let w = self.bv_arg("bvneg", a)?;
        self.mk(Node::App1(Op::BvNeg, a), Sort::BitVec(w))
    }

    bv_binary! {
        /// `(bvand a b)`.
        bv_and => BvAnd;
        /// `(bvor a b)`.
        bv_or => BvOr;
        /// `(bvxor a b)`.
        bv_xor => BvXor;
        /// `(bvadd a b)`, wrapping around.
        bv_add => BvAdd;
        /// `(bvsub a b)`, wrapping around.
        bv_sub => BvSub;
        /// `(bvmul a b)`, wrapping around.
        bv_mul => BvMul;
        /// `(bvudiv a b)`; by zero gives all ones.
        bv_udiv => BvUdiv;
        /// `(bvsdiv a b)`; truncates toward zero; by zero gives `a <s 0 ? 1 : -1`.
        bv_sdiv => BvSdiv;
        /// `(bvurem a b)`; by zero gives `a`.
        bv_urem => BvUrem;
        /// `(bvsrem a b)`; sign of the dividend; by zero gives `a`.
        bv_srem => BvSrem;
        /// `(bvshl a b)`.
        bv_shl => BvShl;
        /// `(bvlshr a b)`.
        bv_lshr => BvLshr;
        /// `(bvashr a b)`.
        bv_ashr => BvAshr;
    }

    bv_compare! {
        /// `(bvult a b)`.
        bv_ult => BvUlt;
        /// `(bvule a b)`.
        bv_ule => BvUle;
        /// `(bvslt a b)`.
        bv_slt => BvSlt;
        /// `(bvsle a b)`.
        bv_sle => BvSle;
    }

    /// `(bvugt a b)`, built as `(bvult b a)`.
    pub fn bv_ugt(&mut self, a: TermId, b: TermId) -> TermResult {
        self.bv_ult(b, a)
    }

    /// `(bvuge a b)`, built as `(bvule b a)`.
    pub fn bv_uge(&mut self, a: TermId, b: TermId) -> TermResult {
        self.bv_ule(b, a)
    }

    /// `(bvsgt a b)`, built as `(bvslt b a)`.
    pub fn bv_sgt(&mut self, a: TermId, b: TermId) -> TermResult {
        self.bv_slt(b, a)
    }

    /// `(bvsge a b)`, built as `(bvsle b a)`.
    pub fn bv_sge(&mut self, a: TermId, b: TermId) -> TermResult {
        self.bv_sle(b, a)
    }

    /// `((_ extract hi lo) a)`: bits `hi` down to `lo` of `a`.
    pub fn extract(&mut self, hi: u32, lo: u32, a: TermId) -> TermResult {
        let w = self.bv_arg("extract", a)?;
        if lo > hi || hi >= w {
            return Err(TermError::Extract { hi, lo, width: w });
        }
        self.mk(Node::Extract { hi, lo, arg: a }, Sort::BitVec(hi - lo + 1))
    }

    /// `((_ zero_extend by) a)`.
    pub fn zero_extend(&mut self, by: u32, a: TermId) -> TermResult {
        let w = self.bv_arg("zero_extend", a)?;
        let nw = check_width("zero_extend", u64::from(w) + u64::from(by))?;
        self.mk(Node::ZeroExtend { by, arg: a }, Sort::BitVec(nw))
    }

    /// `((_ sign_extend by) a)`.
    pub fn sign_extend(&mut self, by: u32, a: TermId) -> TermResult {
        let w = self.bv_arg("sign_extend", a)?;
        let nw = check_width("sign_extend", u64::from(w) + u64::from(by))?;
        self.mk(Node::SignExtend { by, arg: a }, Sort::BitVec(nw))
    }

    /// `(concat hi lo)`: `hi` supplies the high bits.
    pub fn concat(&mut self, hi: TermId, lo: TermId) -> TermResult {
        let wh = self.bv_arg("concat", hi)?;
        let wl = self.bv_arg("concat", lo)?;
        let w = check_width("concat", u64::from(wh) + u64::from(wl))?;
        self.mk(Node::App2(Op::Concat, hi, lo), Sort::BitVec(w))
    }

    // ----- arrays ----------------------------------------------------------------------

    fn array_arg(&self, op: &'static str, a: TermId) -> Result<(Sort, Sort, Sort), TermError> {
        let s = self.check_term(a)?;
        match self.array_parts(s) {
            Some((i, e)) => Ok((s, i, e)),
            None => Err(self.sort_error(op, "an array", s)),
        }
    }

    /// `(select a i)`.
    pub fn select(&mut self, a: TermId, i: TermId) -> TermResult {
        let (_, is, es) = self.array_arg("select", a)?;
        let si = self.check_term(i)?;
        if si != is {
            return Err(self.sort_error("select", &self.sort_name(is), si));
        }
        self.mk(Node::App2(Op::Select, a, i), es)
    }

    /// `(store a i v)`.
    pub fn store(&mut self, a: TermId, i: TermId, v: TermId) -> TermResult {
        let (s, is, es) = self.array_arg("store", a)?;
        let si = self.check_term(i)?;
        if si != is {
            return Err(self.sort_error("store", &self.sort_name(is), si));
        }
        let sv = self.check_term(v)?;
        if sv != es {
            return Err(self.sort_error("store", &self.sort_name(es), sv));
        }
        self.mk(Node::App3(Op::Store, a, i, v), s)
    }

    // ----- integers --------------------------------------------------------------------

    /// `(- a)`.
    pub fn int_neg(&mut self, a: TermId) -> TermResult {
        self.int_arg("-", a)?;
        self.mk(Node::App1(Op::IntNeg, a), Sort::Int)
    }

    int_binary! {
        /// `(+ a b)`.
        int_add => IntAdd, Sort::Int;
        /// `(- a b)`.
        int_sub => IntSub, Sort::Int;
        /// `(* a b)`.
        int_mul => IntMul, Sort::Int;
        /// `(div a b)`: Euclidean division (SMT-LIB leaves division by zero unspecified).
        int_div => IntDiv, Sort::Int;
        /// `(mod a b)`: Euclidean remainder, always non-negative.
        int_mod => IntMod, Sort::Int;
        /// `(<= a b)`.
        int_le => IntLe, Sort::Bool;
        /// `(< a b)`.
        int_lt => IntLt, Sort::Bool;
    }

    /// `(>= a b)`, built as `(<= b a)`.
    pub fn int_ge(&mut self, a: TermId, b: TermId) -> TermResult {
        self.int_le(b, a)
    }

    /// `(> a b)`, built as `(< b a)`.
    pub fn int_gt(&mut self, a: TermId, b: TermId) -> TermResult {
        self.int_lt(b, a)
    }

    // ----- whole-term simplification ---------------------------------------------------

    /// Rebuilds `t` bottom-up through the simplifying constructors (whether or not this store
    /// simplifies as it builds). The result has the same meaning as `t`.
    pub fn simplify(&mut self, t: TermId) -> TermResult {
        self.check_term(t)?;
        let saved = self.simplify;
        self.simplify = true;
        let result = self.simplify_all(t);
        self.simplify = saved;
        result
    }

    fn simplify_all(&mut self, t: TermId) -> TermResult {
        self.rebuild(t, |_, _| None, Unchanged::Rebuilt)
    }

    /// `t` with every occurrence of a key of `replace` replaced by its value (of the same sort),
    /// rebuilt bottom-up through the constructors, so the result is simplified as far as this
    /// store simplifies. Replacements are simultaneous: a value is not itself rewritten.
    pub fn substitute(
        &mut self,
        t: TermId,
        replace: &rustc_hash::FxHashMap<TermId, TermId>,
    ) -> TermResult {
        self.check_term(t)?;
        if replace.is_empty() {
            return Ok(t);
        }
        self.rebuild(t, |_, u| replace.get(&u).copied(), Unchanged::Kept)
    }

    /// [`TermStore::substitute`] with the replacements given by a lookup: `replacement(store,
    /// u)` answers what replaces `u` (an existing term of `u`'s sort), or `None` to keep it.
    pub fn replace_where(
        &mut self,
        t: TermId,
        replacement: impl Fn(&TermStore, TermId) -> Option<TermId>,
    ) -> TermResult {
        self.check_term(t)?;
        self.rebuild(t, replacement, Unchanged::Kept)
    }

    /// Rebuilds `t` bottom-up, with each term that `given` answers for replaced by its answer
    /// (and not looked into); a node none of whose arguments changed is rebuilt through the
    /// constructors only if `unchanged` says so.
    fn rebuild(
        &mut self,
        t: TermId,
        given: impl Fn(&TermStore, TermId) -> Option<TermId>,
        unchanged: Unchanged,
    ) -> TermResult {
        let mut map: rustc_hash::FxHashMap<TermId, TermId> = rustc_hash::FxHashMap::default();
        let order = self.postorder_where(&[t], |u| match given(self, u) {
            Some(r) => {
                map.insert(u, r);
                false
            }
            None => true,
        });
        for (&from, &to) in &map {
            if self.sort(from) != self.sort(to) {
                return Err(TermError::Sort {
                    op: "substitute",
                    expected: self.sort_name(self.sort(from)),
                    found: self.sort_name(self.sort(to)),
                });
            }
        }
        for u in order {
            let node = *self.node(u);
            let old = node.args();
            let mut args = old;
            for c in args.iter_mut() {
                *c = map.get(c).copied().unwrap_or(*c);
            }
            // A leaf is itself.
            if old.is_empty() || (unchanged == Unchanged::Kept && *args == *old) {
                continue;
            }
            let new = self.mk(node.with_args(&args), self.sort(u))?;
            map.insert(u, new);
        }
        Ok(map.get(&t).copied().unwrap_or(t))
    }
}

/// What [`TermStore::rebuild`] does with a node none of whose arguments changed.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Unchanged {
    /// Kept as it is: a substitution changes only what mentions what it replaces, and most of
    /// a large term usually stays as it was (a subsumption annotation carried back through an
    /// assignment to one local); a node built through the constructors is simplified already.
    Kept,
    /// Rebuilt through the constructors, to simplify a term built without simplification.
    Rebuilt,
}

#[cfg(test)]
mod tests {
    use super::*;
    use rustc_hash::FxHashMap;

    #[test]
    fn sorts_are_checked() {
        let mut s = TermStore::new();
        let x = s.bv_var("x", 32).expect("var");
        let y = s.bv_var("y", 8).expect("var");
        let b = s.bool_var("b").expect("var");
        let e = s.bv_add(x, y).expect_err("widths differ");
        assert!(e.to_string().contains("bvadd"), "{e}");
        assert!(s.and(b, x).is_err());
        assert!(s.ite(b, x, y).is_err());
        assert!(s.extract(32, 0, x).is_err());
        assert!(s.extract(3, 4, x).is_err());
        assert!(s.bv_var("w", 129).is_err());
        assert!(s.bv_val(200, 1).is_err());
        let wide = s.bv_var("wide", 100).expect("var");
        assert!(s.concat(wide, x).is_err());
        assert!(s.zero_extend(29, wide).is_err());
        let arr = s
            .array_sort(Sort::BitVec(32), Sort::BitVec(8))
            .expect("sort");
        let a = s.var("a", arr).expect("var");
        assert!(s.select(a, y).is_err());
        assert!(s.store(a, x, x).is_err());
        assert!(s.const_array(arr, x).is_err());
        assert!(s.select(x, x).is_err());
    }

    #[test]
    fn derived_forms() {
        let mut s = TermStore::without_simplification();
        let x = s.bv_var("x", 32).expect("var");
        let y = s.bv_var("y", 32).expect("var");
        assert_eq!(s.bv_ugt(x, y), s.bv_ult(y, x));
        assert_eq!(s.bv_sge(x, y), s.bv_sle(y, x));
        let d = s.distinct(&[x, y]).expect("distinct");
        assert_eq!(s.sort(d), Sort::Bool);
        let t = s.and_all(&[]).expect("and");
        assert_eq!(s.as_bool(t), Some(true));
    }

    #[test]
    fn simplify_rebuilds_a_raw_term() {
        let mut s = TermStore::without_simplification();
        let x = s.bv_var("x", 32).expect("var");
        let zero = s.bv_val(32, 0).expect("const");
        let t = s.bv_add(x, zero).expect("add");
        assert_ne!(t, x);
        assert_eq!(s.simplify(t), Ok(x));
        assert!(!s.simplifies(), "the store's mode is restored");
    }

    #[test]
    fn substitution_is_simultaneous_and_simplifies() {
        let mut s = TermStore::new();
        let x = s.bv_var("x", 32).expect("var");
        let y = s.bv_var("y", 32).expect("var");
        let b = s.bool_var("b").expect("var");
        let sum = s.bv_add(x, y).expect("add");
        let t = s.bv_slt(sum, x).expect("slt");
        let zero = s.bv_val(32, 0).expect("const");
        let swap: FxHashMap<TermId, TermId> = [(x, y), (y, x)].into_iter().collect();
        let swapped = s.substitute(t, &swap).expect("substitute");
        let expected = s.bv_slt(sum, y).expect("slt");
        assert_eq!(
            swapped, expected,
            "x + y is commutative, only the right side changes"
        );
        let zero_y: FxHashMap<TermId, TermId> = [(y, zero)].into_iter().collect();
        let folded = s.substitute(t, &zero_y).expect("substitute");
        assert_eq!(s.as_bool(folded), Some(false), "x < x folds");
        let wrong: FxHashMap<TermId, TermId> = [(x, b)].into_iter().collect();
        assert!(s.substitute(t, &wrong).is_err());
    }

    #[test]
    fn substitution_keeps_what_does_not_mention_its_keys() {
        let mut s = TermStore::new();
        let x = s.bv_var("x", 32).expect("var");
        let y = s.bv_var("y", 32).expect("var");
        let z = s.bv_var("z", 32).expect("var");
        let one = s.bv_val(32, 1).expect("const");
        let seven = s.bv_val(32, 7).expect("const");
        let left = s.bv_add(x, one).expect("add");
        let left = s.bv_slt(left, y).expect("slt");
        let right = s.bv_slt(z, x).expect("slt");
        let t = s.and(left, right).expect("and");
        let absent: FxHashMap<TermId, TermId> = [(seven, y)].into_iter().collect();
        let nodes = s.len();
        assert_eq!(
            s.substitute(t, &absent),
            Ok(t),
            "no key occurs: the term itself"
        );
        assert_eq!(s.len(), nodes, "and nothing is built");
        let only_z: FxHashMap<TermId, TermId> = [(z, y)].into_iter().collect();
        let changed = s.substitute(t, &only_z).expect("substitute");
        let expected_right = s.bv_slt(y, x).expect("slt");
        assert_eq!(changed, s.and(left, expected_right).expect("and"));
    }
}
