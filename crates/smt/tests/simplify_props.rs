//! Simplification never changes meaning.
//!
//! Random term recipes are built three ways: in a store without simplification (plain
//! constructors), in a simplifying store, and by `TermStore::simplify` of the plain term. All
//! three are evaluated with the crate's evaluator under the same random assignment and must
//! agree. A second property checks that 32-bit constant folding equals the concrete
//! interpreter's `i32::wrapping_*` arithmetic.

mod common;

use common::Rng;
use proptest::prelude::*;
use symex_smt::{eval, ArrayValue, Assignment, BvConst, EvalError, Sort, TermId, TermStore, Value};

/// A term recipe, realised identically in any store.
#[derive(Clone, Debug)]
enum R {
    BvVar(usize),
    BvConst(u32, u128),
    BvUn(&'static str, Box<R>),
    BvBin(&'static str, Box<R>, Box<R>),
    Extract(u32, u32, Box<R>),
    ZeroExt(u32, Box<R>),
    SignExt(u32, Box<R>),
    Concat(Box<R>, Box<R>),
    BoolVar(usize),
    BoolConst(bool),
    Not(Box<R>),
    BoolBin(&'static str, Box<R>, Box<R>),
    Ite(Box<R>, Box<R>, Box<R>),
    Eq(Box<R>, Box<R>),
    ArrVar,
    ConstArr(Box<R>),
    Store(Box<R>, Box<R>, Box<R>),
    Select(Box<R>, Box<R>),
    IntVar(usize),
    IntConst(i128),
    IntNeg(Box<R>),
    IntBin(&'static str, Box<R>, Box<R>),
}

const BV_UN: &[&str] = &["bvnot", "bvneg"];
const BV_BIN: &[&str] = &[
    "bvand", "bvor", "bvxor", "bvadd", "bvsub", "bvmul", "bvudiv", "bvsdiv", "bvurem", "bvsrem",
    "bvshl", "bvlshr", "bvashr",
];
const BV_CMP: &[&str] = &[
    "bvult", "bvule", "bvslt", "bvsle", "bvugt", "bvuge", "bvsgt", "bvsge",
];
const BOOL_BIN: &[&str] = &["and", "or", "xor", "=>"];
const INT_BIN: &[&str] = &["+", "-", "*", "div", "mod"];
const INT_CMP: &[&str] = &["<=", "<", ">=", ">"];

/// Generates recipes for a main bit-vector width `w` (the width of variables and arrays).
struct Gen {
    rng: Rng,
    w: u32,
}

impl Gen {
    fn bv_const(&mut self, width: u32) -> R {
        let ones = if width == 128 {
            u128::MAX
        } else {
            (1u128 << width) - 1
        };
        let min = 1u128 << (width - 1);
        let v = match self.rng.below(8) {
            0 => 0,
            1 => 1,
            2 => ones,
            3 => min,
            4 => min - 1,
            5 => u128::from(width),
            _ => (u128::from(self.rng.next()) << 64 | u128::from(self.rng.next())) & ones,
        };
        R::BvConst(width, v)
    }

    fn bv(&mut self, width: u32, depth: u32) -> R {
        let leaf = depth == 0 || self.rng.below(4) == 0;
        if leaf {
            return if self.rng.below(2) == 0 {
                self.bv_const(width)
            } else {
                self.bv_var_of_width(width)
            };
        }
        let d = depth - 1;
        match self.rng.below(12) {
            0 => R::BvUn(self.rng.pick(BV_UN), Box::new(self.bv(width, d))),
            1..=3 => R::BvBin(
                self.rng.pick(BV_BIN),
                Box::new(self.bv(width, d)),
                Box::new(self.bv(width, d)),
            ),
            4 => R::Ite(
                Box::new(self.boolean(d)),
                Box::new(self.bv(width, d)),
                Box::new(self.bv(width, d)),
            ),
            5 => {
                let extra = self.rng.below(u64::from(128 - width).min(8) + 1) as u32;
                let src = width + extra;
                let lo = self.rng.below(u64::from(extra) + 1) as u32;
                R::Extract(lo + width - 1, lo, Box::new(self.bv(src, d)))
            }
            6 if width >= 2 => {
                let inner = 1 + self.rng.below(u64::from(width - 1)) as u32;
                let arg = Box::new(self.bv(inner, d));
                if self.rng.below(2) == 0 {
                    R::ZeroExt(width - inner, arg)
                } else {
                    R::SignExt(width - inner, arg)
                }
            }
            7 if width >= 2 => {
                let low = 1 + self.rng.below(u64::from(width - 1)) as u32;
                R::Concat(Box::new(self.bv(width - low, d)), Box::new(self.bv(low, d)))
            }
            8 if width == self.w => R::Select(Box::new(self.array(d)), Box::new(self.bv(width, d))),
            10 | 11 if width >= 2 => self.narrow_idiom(width, d),
            _ => self.bv_var_of_width(width),
        }
    }

    /// What a C front end builds for `char` and `short` arithmetic: masks, the sign-extension
    /// idiom `((x & m) ^ s) - s`, operations on two equally extended values, and the low bits
    /// of those (the narrowing rules' inputs).
    fn narrow_idiom(&mut self, width: u32, d: u32) -> R {
        let inner = 1 + self.rng.below(u64::from(width - 1)) as u32;
        let mask = R::BvConst(width, (1u128 << inner) - 1);
        let sign = R::BvConst(width, 1u128 << (inner - 1));
        let x = Box::new(self.bv(width, d));
        let masked = R::BvBin("bvand", x, Box::new(mask));
        match self.rng.below(if width < 128 { 4 } else { 3 }) {
            0 => masked,
            1 => R::BvBin(
                "bvsub",
                Box::new(R::BvBin("bvxor", Box::new(masked), Box::new(sign.clone()))),
                Box::new(sign),
            ),
            2 => {
                let (a, b) = self.extended_pair(width, inner, d);
                R::BvBin(self.rng.pick(BV_BIN), Box::new(a), Box::new(b))
            }
            _ => {
                let (a, b) = self.extended_pair(width + 1, inner, d);
                let op = self
                    .rng
                    .pick(&["bvadd", "bvsub", "bvmul", "bvand", "bvor", "bvxor"]);
                R::Extract(
                    width - 1,
                    0,
                    Box::new(R::BvBin(op, Box::new(a), Box::new(b))),
                )
            }
        }
    }

    /// Two `width`-bit extensions of `inner`-bit terms, of one kind (or one of them a constant).
    fn extended_pair(&mut self, width: u32, inner: u32, d: u32) -> (R, R) {
        let sign = self.rng.below(2) == 0;
        let ext = |gen: &mut Self| {
            if gen.rng.below(4) == 0 {
                return gen.bv_const(width);
            }
            let arg = Box::new(gen.bv(inner, d));
            if sign {
                R::SignExt(width - inner, arg)
            } else {
                R::ZeroExt(width - inner, arg)
            }
        };
        (ext(self), ext(self))
    }

    fn bv_var_of_width(&mut self, width: u32) -> R {
        let v = R::BvVar(self.rng.below(3) as usize);
        match width.cmp(&self.w) {
            std::cmp::Ordering::Equal => v,
            std::cmp::Ordering::Less => R::Extract(width - 1, 0, Box::new(v)),
            std::cmp::Ordering::Greater => R::SignExt(width - self.w, Box::new(v)),
        }
    }

    fn array(&mut self, depth: u32) -> R {
        if depth == 0 || self.rng.below(3) == 0 {
            return if self.rng.below(3) == 0 {
                R::ConstArr(Box::new(self.bv_const(self.w)))
            } else {
                R::ArrVar
            };
        }
        let d = depth - 1;
        match self.rng.below(3) {
            0 => R::Ite(
                Box::new(self.boolean(d)),
                Box::new(self.array(d)),
                Box::new(self.array(d)),
            ),
            _ => R::Store(
                Box::new(self.array(d)),
                Box::new(self.bv(self.w, d)),
                Box::new(self.bv(self.w, d)),
            ),
        }
    }

    fn int(&mut self, depth: u32) -> R {
        if depth == 0 || self.rng.below(4) == 0 {
            return if self.rng.below(2) == 0 {
                R::IntConst(self.rng.pick(&[0, 1, -1, 2, -3, 7, 100, -1000]))
            } else {
                R::IntVar(self.rng.below(2) as usize)
            };
        }
        let d = depth - 1;
        match self.rng.below(5) {
            0 => R::IntNeg(Box::new(self.int(d))),
            1 => R::Ite(
                Box::new(self.boolean(d)),
                Box::new(self.int(d)),
                Box::new(self.int(d)),
            ),
            _ => R::IntBin(
                self.rng.pick(INT_BIN),
                Box::new(self.int(d)),
                Box::new(self.int(d)),
            ),
        }
    }

    fn boolean(&mut self, depth: u32) -> R {
        if depth == 0 || self.rng.below(5) == 0 {
            return if self.rng.below(3) == 0 {
                R::BoolConst(self.rng.below(2) == 0)
            } else {
                R::BoolVar(self.rng.below(2) as usize)
            };
        }
        let d = depth - 1;
        match self.rng.below(10) {
            0 => R::Not(Box::new(self.boolean(d))),
            1 => R::BoolBin(
                self.rng.pick(BOOL_BIN),
                Box::new(self.boolean(d)),
                Box::new(self.boolean(d)),
            ),
            2 => R::Ite(
                Box::new(self.boolean(d)),
                Box::new(self.boolean(d)),
                Box::new(self.boolean(d)),
            ),
            3 | 4 => R::BoolBin(
                self.rng.pick(BV_CMP),
                Box::new(self.bv(self.w, d)),
                Box::new(self.bv(self.w, d)),
            ),
            5 => R::Eq(Box::new(self.bv(self.w, d)), Box::new(self.bv(self.w, d))),
            6 if self.w >= 2 && self.rng.below(2) == 0 => {
                let inner = 1 + self.rng.below(u64::from(self.w - 1)) as u32;
                let (a, b) = self.extended_pair(self.w, inner, d);
                if self.rng.below(3) == 0 {
                    R::Eq(Box::new(a), Box::new(b))
                } else {
                    R::BoolBin(self.rng.pick(BV_CMP), Box::new(a), Box::new(b))
                }
            }
            6 => R::BoolBin(
                self.rng.pick(INT_CMP),
                Box::new(self.int(d)),
                Box::new(self.int(d)),
            ),
            7 => R::Eq(Box::new(self.int(d)), Box::new(self.int(d))),
            8 => R::Eq(Box::new(self.array(d)), Box::new(self.array(d))),
            _ => R::Eq(Box::new(self.boolean(d)), Box::new(self.boolean(d))),
        }
    }
}

/// The variables of one store, in a fixed creation order.
struct Vars {
    bv: [TermId; 3],
    boolean: [TermId; 2],
    int: [TermId; 2],
    arr: TermId,
}

fn make_vars(st: &mut TermStore, w: u32) -> Vars {
    let bv = [0, 1, 2].map(|i| st.bv_var(format!("x{i}"), w).expect("var"));
    let boolean = [0, 1].map(|i| st.bool_var(format!("p{i}")).expect("var"));
    let int = [0, 1].map(|i| st.int_var(format!("n{i}")).expect("var"));
    let sort = st
        .array_sort(Sort::BitVec(w), Sort::BitVec(w))
        .expect("sort");
    let arr = st.var("mem", sort).expect("var");
    Vars {
        bv,
        boolean,
        int,
        arr,
    }
}

fn realize(st: &mut TermStore, v: &Vars, r: &R) -> TermId {
    let go = |st: &mut TermStore, r: &R| realize(st, v, r);
    let t = match r {
        R::BvVar(i) => Ok(v.bv[*i]),
        R::BvConst(w, x) => st.bv_val(*w, *x),
        R::BoolVar(i) => Ok(v.boolean[*i]),
        R::BoolConst(b) => st.bool_val(*b),
        R::IntVar(i) => Ok(v.int[*i]),
        R::IntConst(i) => st.int_val(*i),
        R::ArrVar => Ok(v.arr),
        R::BvUn(op, a) => {
            let a = go(st, a);
            match *op {
                "bvnot" => st.bv_not(a),
                _ => st.bv_neg(a),
            }
        }
        R::BvBin(op, a, b) => {
            let (a, b) = (go(st, a), go(st, b));
            match *op {
                "bvand" => st.bv_and(a, b),
                "bvor" => st.bv_or(a, b),
                "bvxor" => st.bv_xor(a, b),
                "bvadd" => st.bv_add(a, b),
                "bvsub" => st.bv_sub(a, b),
                "bvmul" => st.bv_mul(a, b),
                "bvudiv" => st.bv_udiv(a, b),
                "bvsdiv" => st.bv_sdiv(a, b),
                "bvurem" => st.bv_urem(a, b),
                "bvsrem" => st.bv_srem(a, b),
                "bvshl" => st.bv_shl(a, b),
                "bvlshr" => st.bv_lshr(a, b),
                _ => st.bv_ashr(a, b),
            }
        }
        R::Extract(hi, lo, a) => {
            let a = go(st, a);
            st.extract(*hi, *lo, a)
        }
        R::ZeroExt(by, a) => {
            let a = go(st, a);
            st.zero_extend(*by, a)
        }
        R::SignExt(by, a) => {
            let a = go(st, a);
            st.sign_extend(*by, a)
        }
        R::Concat(a, b) => {
            let (a, b) = (go(st, a), go(st, b));
            st.concat(a, b)
        }
        R::Not(a) => {
            let a = go(st, a);
            st.not(a)
        }
        R::BoolBin(op, a, b) => {
            let (a, b) = (go(st, a), go(st, b));
            match *op {
                "and" => st.and(a, b),
                "or" => st.or(a, b),
                "xor" => st.xor(a, b),
                "=>" => st.implies(a, b),
                "bvult" => st.bv_ult(a, b),
                "bvule" => st.bv_ule(a, b),
                "bvslt" => st.bv_slt(a, b),
                "bvsle" => st.bv_sle(a, b),
                "bvugt" => st.bv_ugt(a, b),
                "bvuge" => st.bv_uge(a, b),
                "bvsgt" => st.bv_sgt(a, b),
                "bvsge" => st.bv_sge(a, b),
                "<=" => st.int_le(a, b),
                "<" => st.int_lt(a, b),
                ">=" => st.int_ge(a, b),
                _ => st.int_gt(a, b),
            }
        }
        R::Ite(c, a, b) => {
            let (c, a, b) = (go(st, c), go(st, a), go(st, b));
            st.ite(c, a, b)
        }
        R::Eq(a, b) => {
            let (a, b) = (go(st, a), go(st, b));
            st.eq(a, b)
        }
        R::ConstArr(e) => {
            let e = go(st, e);
            let sort = st.sort(v.arr);
            st.const_array(sort, e)
        }
        R::Store(a, i, e) => {
            let (a, i, e) = (go(st, a), go(st, i), go(st, e));
            st.store(a, i, e)
        }
        R::Select(a, i) => {
            let (a, i) = (go(st, a), go(st, i));
            st.select(a, i)
        }
        R::IntNeg(a) => {
            let a = go(st, a);
            st.int_neg(a)
        }
        R::IntBin(op, a, b) => {
            let (a, b) = (go(st, a), go(st, b));
            match *op {
                "+" => st.int_add(a, b),
                "-" => st.int_sub(a, b),
                "*" => st.int_mul(a, b),
                "div" => st.int_div(a, b),
                _ => st.int_mod(a, b),
            }
        }
    };
    t.unwrap_or_else(|e| panic!("recipe {r:?} is ill-sorted: {e}"))
}

fn assignment(rng: &mut Rng, st: &TermStore, v: &Vars, w: u32) -> Assignment {
    let mut asg = Assignment::new();
    let bv = |rng: &mut Rng| {
        let raw = u128::from(rng.next()) << 64 | u128::from(rng.next());
        let small = u128::from(rng.below(4));
        let bits = if rng.below(3) == 0 { small } else { raw };
        Value::Bv(BvConst::new(w, bits).expect("width"))
    };
    for &x in &v.bv {
        asg.insert(st.var_id(x).expect("var"), bv(rng));
    }
    for &p in &v.boolean {
        asg.insert(st.var_id(p).expect("var"), Value::Bool(rng.below(2) == 0));
    }
    for &n in &v.int {
        let value = rng.below(41) as i128 - 20;
        asg.insert(st.var_id(n).expect("var"), Value::Int(value));
    }
    let mut array = ArrayValue::constant(bv(rng));
    for _ in 0..rng.below(4) {
        array.set(bv(rng), bv(rng));
    }
    asg.insert(st.var_id(v.arr).expect("var"), Value::Array(array));
    asg
}

/// Evaluates and compares; `None` when the plain term overflows `i128` (not a
/// simplification question).
fn check_recipe(seed: u64, w: u32) -> Option<()> {
    let mut rng = Rng::new(seed);
    let mut gen = Gen {
        rng: Rng::new(seed ^ 0x9e37_79b9_7f4a_7c15),
        w,
    };
    let recipe = match gen.rng.below(3) {
        0 => gen.boolean(5),
        1 => gen.bv(w, 5),
        _ => gen.int(4),
    };
    let mut plain = TermStore::without_simplification();
    let mut simp = TermStore::new();
    let vp = make_vars(&mut plain, w);
    let vs = make_vars(&mut simp, w);
    let tp = realize(&mut plain, &vp, &recipe);
    let ts = realize(&mut simp, &vs, &recipe);
    let tr = plain.simplify(tp).expect("simplify");
    // Both stores made their variables in the same order, so the ids coincide.
    let asg = assignment(&mut rng, &plain, &vp, w);
    let expected = match eval(&plain, tp, &asg) {
        Err(EvalError::Overflow(_)) => return None,
        other => other.expect("the plain term evaluates"),
    };
    let show = |st: &TermStore, t| symex_smt::printer::term(st, t);
    assert_eq!(
        eval(&simp, ts, &asg).as_ref(),
        Ok(&expected),
        "simplifying constructors changed the meaning of\n  {}\ninto\n  {}",
        show(&plain, tp),
        show(&simp, ts)
    );
    assert_eq!(
        eval(&plain, tr, &asg).as_ref(),
        Ok(&expected),
        "simplify() changed the meaning of\n  {}\ninto\n  {}",
        show(&plain, tp),
        show(&plain, tr)
    );
    Some(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    #[test]
    fn simplification_preserves_meaning(
        seed in any::<u64>(),
        w in prop::sample::select(vec![1u32, 3, 8, 32, 64, 128]),
    ) {
        let _ = check_recipe(seed, w);
    }
}

fn special_i32() -> impl Strategy<Value = i32> {
    prop_oneof![
        any::<i32>(),
        Just(i32::MIN),
        Just(i32::MAX),
        Just(-1),
        Just(0),
        Just(1),
        -8i32..8,
    ]
}

/// Folds `op` on two 32-bit constants in a simplifying store.
fn fold32(op: fn(&mut TermStore, TermId, TermId) -> symex_smt::TermResult, a: i32, b: i32) -> i32 {
    let mut st = TermStore::new();
    let ca = st.bv_signed(32, i128::from(a)).expect("c");
    let cb = st.bv_signed(32, i128::from(b)).expect("c");
    let t = op(&mut st, ca, cb).expect("op");
    let c = st.as_bv(t).expect("constants fold to a constant");
    c.bits() as u32 as i32
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    /// The concrete interpreter uses `i32::wrapping_*` (division guarded against zero).
    #[test]
    fn thirty_two_bit_folding_matches_wrapping_arithmetic(a in special_i32(), b in special_i32()) {
        prop_assert_eq!(fold32(TermStore::bv_add, a, b), a.wrapping_add(b));
        prop_assert_eq!(fold32(TermStore::bv_sub, a, b), a.wrapping_sub(b));
        prop_assert_eq!(fold32(TermStore::bv_mul, a, b), a.wrapping_mul(b));
        if b != 0 {
            prop_assert_eq!(fold32(TermStore::bv_sdiv, a, b), a.wrapping_div(b));
            prop_assert_eq!(fold32(TermStore::bv_srem, a, b), a.wrapping_rem(b));
            prop_assert_eq!(fold32(TermStore::bv_udiv, a, b) as u32, (a as u32) / (b as u32));
            prop_assert_eq!(fold32(TermStore::bv_urem, a, b) as u32, (a as u32) % (b as u32));
        } else {
            // SMT-LIB: division by zero is defined.
            prop_assert_eq!(fold32(TermStore::bv_sdiv, a, b), if a < 0 { 1 } else { -1 });
            prop_assert_eq!(fold32(TermStore::bv_srem, a, b), a);
            prop_assert_eq!(fold32(TermStore::bv_udiv, a, b), -1);
            prop_assert_eq!(fold32(TermStore::bv_urem, a, b), a);
        }
        let mut st = TermStore::new();
        let ca = st.bv_signed(32, i128::from(a)).expect("c");
        let cb = st.bv_signed(32, i128::from(b)).expect("c");
        let lt = st.bv_slt(ca, cb).expect("slt");
        prop_assert_eq!(st.as_bool(lt), Some(a < b));
        let ult = st.bv_ult(ca, cb).expect("ult");
        prop_assert_eq!(st.as_bool(ult), Some((a as u32) < (b as u32)));
    }
}

#[test]
fn generated_terms_exercise_the_rules() {
    // Guard against a generator that only ever produces trivial terms: across seeds the
    // simplifying store must produce strictly smaller terms often.
    let mut shrunk = 0;
    for seed in 1..300u64 {
        let mut gen = Gen {
            rng: Rng::new(seed),
            w: 8,
        };
        let recipe = gen.boolean(5);
        let mut plain = TermStore::without_simplification();
        let mut simp = TermStore::new();
        let vp = make_vars(&mut plain, 8);
        let vs = make_vars(&mut simp, 8);
        let tp = realize(&mut plain, &vp, &recipe);
        let ts = realize(&mut simp, &vs, &recipe);
        if simp.postorder(&[ts]).len() < plain.postorder(&[tp]).len() {
            shrunk += 1;
        }
    }
    assert!(shrunk > 100, "only {shrunk} of 299 terms simplified");
}
