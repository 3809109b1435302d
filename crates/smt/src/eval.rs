//! The reference evaluator: the value of a term under an assignment of its variables.
//!
//! It is the semantic yardstick of the crate: the property tests compare the evaluation of a
//! term before and after simplification, and of solver models against the constraints.
//! Bit-vector operations use `bv.rs` (exact SMT-LIB semantics). Integer operations are exact
//! within `i128` and report [`EvalError::Overflow`] outside it. SMT-LIB leaves integer division
//! by zero unspecified; this evaluator fixes one interpretation (`x div 0 = 0`,
//! `x mod 0 = x`), which solvers are free not to share. Evaluation is iterative (no
//! recursion on term depth) and never panics on well-sorted terms of the given store.

use rustc_hash::{FxBuildHasher, FxHashMap};

use crate::error::EvalError;
use crate::sort::Sort;
use crate::term::{Node, Op, TermId, TermStore, VarId};
use crate::value::{ArrayValue, Value};

/// Values for variables. Small assignments (most models: a group of constraints) are a hash
/// map; from [`SHARED_FROM`] variables on, a persistent map whose copies share their entries,
/// so a model of a long path extended by a few new variables (the models the query layer
/// keeps per path) does not copy the values of all the others. (Persistent maps from 64
/// variables on cost model reuse 1.6 times the memory on `avl_find` under POSE, whose models
/// have a few hundred variables: each node has room for 32 entries.)
#[derive(Clone, Debug, Default)]
pub struct Assignment {
    values: Values,
}

/// Assignments from this many variables on are persistent maps.
const SHARED_FROM: usize = 1024;

type SharedValues =
    imbl::GenericHashMap<VarId, Value, FxBuildHasher, imbl::shared_ptr::DefaultSharedPtr>;

#[derive(Clone, Debug)]
enum Values {
    Small(FxHashMap<VarId, Value>),
    Shared(SharedValues),
}

impl Default for Values {
    fn default() -> Self {
        Values::Small(FxHashMap::default())
    }
}

impl Assignment {
    /// An empty assignment.
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets the value of `var`.
    pub fn insert(&mut self, var: VarId, value: Value) {
        match &mut self.values {
            Values::Small(map) if map.len() >= SHARED_FROM && !map.contains_key(&var) => {
                let mut shared: SharedValues = map.drain().collect();
                shared.insert(var, value);
                self.values = Values::Shared(shared);
            }
            Values::Small(map) => {
                map.insert(var, value);
            }
            Values::Shared(map) => {
                map.insert(var, value);
            }
        }
    }

    /// The same assignment as a persistent map, whatever its size: for assignments kept in
    /// many copies that differ in a few variables each (the models the query layer keeps
    /// per path prefix, each its parent's and the variables of one more constraint).
    pub(crate) fn into_shared(self) -> Assignment {
        match self.values {
            Values::Small(map) => Assignment {
                values: Values::Shared(map.into_iter().collect()),
            },
            shared @ Values::Shared(_) => Assignment { values: shared },
        }
    }

    /// The value of `var`, if set.
    pub fn get(&self, var: VarId) -> Option<&Value> {
        match &self.values {
            Values::Small(map) => map.get(&var),
            Values::Shared(map) => map.get(&var),
        }
    }

    /// Sets every variable `other` assigns to its value there.
    pub fn extend(&mut self, other: &Assignment) {
        for (var, value) in other.iter() {
            self.insert(var, value.clone());
        }
    }

    /// The assigned variables and their values, in no particular order.
    pub fn iter(&self) -> Box<dyn Iterator<Item = (VarId, &Value)> + '_> {
        match &self.values {
            Values::Small(map) => Box::new(map.iter().map(|(v, x)| (*v, x))),
            Values::Shared(map) => Box::new(map.iter().map(|(v, x)| (*v, x))),
        }
    }

    /// The assigned values.
    pub fn values(&self) -> impl Iterator<Item = &Value> {
        self.iter().map(|(_, value)| value)
    }

    /// The number of assigned variables.
    pub fn len(&self) -> usize {
        match &self.values {
            Values::Small(map) => map.len(),
            Values::Shared(map) => map.len(),
        }
    }

    /// Whether no variable is assigned.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl PartialEq for Assignment {
    /// The same variables with the same values, however stored.
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len()
            && self
                .iter()
                .all(|(var, value)| other.get(var) == Some(value))
    }
}

impl Eq for Assignment {}

/// The value of `t` under `asg`.
pub fn eval(store: &TermStore, t: TermId, asg: &Assignment) -> Result<Value, EvalError> {
    let mut all = eval_all(store, &[t], asg)?;
    all.pop()
        .ok_or_else(|| EvalError::Term("nothing was evaluated".into()))
}

/// The value of every subterm of `terms` under `asg` (for walks guided by a model).
pub fn eval_subterms(
    store: &TermStore,
    terms: &[TermId],
    asg: &Assignment,
) -> Result<FxHashMap<TermId, Value>, EvalError> {
    for &t in terms {
        store
            .check_term(t)
            .map_err(|e| EvalError::Term(e.to_string()))?;
    }
    let mut memo: FxHashMap<TermId, Value> = FxHashMap::default();
    for t in store.postorder(terms) {
        let v = eval_node(store, t, asg, &memo)?;
        memo.insert(t, v);
    }
    Ok(memo)
}

/// The values of `terms` under `asg`, in order, sharing the work on common subterms.
pub fn eval_all(
    store: &TermStore,
    terms: &[TermId],
    asg: &Assignment,
) -> Result<Vec<Value>, EvalError> {
    let memo = eval_subterms(store, terms, asg)?;
    values_in(&memo, terms)
}

/// The values `memo` holds for `terms`, in order.
fn values_in(memo: &FxHashMap<TermId, Value>, terms: &[TermId]) -> Result<Vec<Value>, EvalError> {
    terms
        .iter()
        .map(|t| {
            memo.get(t)
                .cloned()
                .ok_or_else(|| EvalError::Term("term was not evaluated".into()))
        })
        .collect()
}

/// The values of `terms` under `asg`, evaluating only what decides them ([`eval_lazy_into`]):
/// a variable occurring only in parts not evaluated need not be assigned.
pub fn eval_all_lazy(
    store: &TermStore,
    terms: &[TermId],
    asg: &Assignment,
) -> Result<Vec<Value>, EvalError> {
    let mut memo: FxHashMap<TermId, Value> = FxHashMap::default();
    eval_lazy_into(store, terms, asg, &mut memo)?;
    values_in(&memo, terms)
}

/// Evaluates each of `roots` into `memo` lazily: an `ite` evaluates its condition and then
/// only the branch it takes, `and`, `or` and `=>` their second argument only when the first
/// does not decide. Every value it computes is the one [`eval_all`] computes (the same
/// `eval_node` on the same children); it also succeeds where a variable occurring only in
/// parts not evaluated is unassigned, whose value cannot change the result. For model reuse,
/// where a path condition's `ite` chains are long and a model takes one branch of each.
pub(crate) fn eval_lazy_into(
    store: &TermStore,
    roots: &[TermId],
    asg: &Assignment,
    memo: &mut FxHashMap<TermId, Value>,
) -> Result<(), EvalError> {
    let mut stack: Vec<TermId> = Vec::new();
    for &root in roots {
        store
            .check_term(root)
            .map_err(|e| EvalError::Term(e.to_string()))?;
        stack.push(root);
        while let Some(&t) = stack.last() {
            if memo.contains_key(&t) {
                stack.pop();
                continue;
            }
            // `Ok(v)`: the value; `Err(c)`: child `c` is needed first.
            let step: Result<Value, TermId> = match *store.node(t) {
                Node::App3(Op::Ite, c, a, b) => match memo.get(&c) {
                    None => Err(c),
                    Some(cv) => {
                        let taken = if cv.as_bool().ok_or_else(|| ill("Boolean argument"))? {
                            a
                        } else {
                            b
                        };
                        memo.get(&taken).cloned().ok_or(taken)
                    }
                },
                Node::App2(op @ (Op::And | Op::Or | Op::Implies), a, b) => match memo.get(&a) {
                    None => Err(a),
                    Some(av) => {
                        let first = av.as_bool().ok_or_else(|| ill("Boolean argument"))?;
                        let decided = match op {
                            Op::And => (!first).then_some(false),
                            Op::Or => first.then_some(true),
                            _ => (!first).then_some(true),
                        };
                        match decided {
                            Some(v) => Ok(Value::Bool(v)),
                            None => memo.get(&b).cloned().ok_or(b),
                        }
                    }
                },
                ref node => match node.args().iter().find(|c| !memo.contains_key(c)) {
                    Some(&c) => Err(c),
                    None => Ok(eval_node(store, t, asg, memo)?),
                },
            };
            match step {
                Ok(v) => {
                    memo.insert(t, v);
                    stack.pop();
                }
                Err(child) => stack.push(child),
            }
        }
    }
    Ok(())
}

/// Whether every term of `terms` evaluates to true under `asg` ([`eval_lazy_into`]; an
/// evaluation error is `false`).
pub(crate) fn all_true_lazy(store: &TermStore, terms: &[TermId], asg: &Assignment) -> bool {
    let mut memo: FxHashMap<TermId, Value> = FxHashMap::default();
    terms.iter().all(|&t| {
        eval_lazy_into(store, &[t], asg, &mut memo).is_ok()
            && memo.get(&t) == Some(&Value::Bool(true))
    })
}

fn ill(what: &str) -> EvalError {
    EvalError::Term(format!("ill-sorted {what}"))
}

fn eval_node(
    store: &TermStore,
    t: TermId,
    asg: &Assignment,
    memo: &FxHashMap<TermId, Value>,
) -> Result<Value, EvalError> {
    let arg = |c: TermId| memo.get(&c).ok_or_else(|| ill("child"));
    let bv = |c: TermId| arg(c)?.as_bv().ok_or_else(|| ill("bit-vector argument"));
    let boolean = |c: TermId| arg(c)?.as_bool().ok_or_else(|| ill("Boolean argument"));
    let int = |c: TermId| arg(c)?.as_int().ok_or_else(|| ill("integer argument"));
    Ok(match *store.node(t) {
        Node::Bool(b) => Value::Bool(b),
        Node::Bv(c) => Value::Bv(c),
        Node::Int(i) => Value::Int(i),
        Node::Var(v) => {
            let info = store.var_info(v);
            let value = asg
                .get(v)
                .ok_or_else(|| EvalError::Unassigned(info.name.clone()))?;
            if !value.has_sort(store.sorts(), info.sort) {
                return Err(EvalError::WrongSort {
                    var: info.name.clone(),
                    sort: store.sort_name(info.sort),
                });
            }
            value.clone()
        }
        Node::ConstArray { value, .. } => Value::Array(ArrayValue::constant(arg(value)?.clone())),
        Node::Extract { hi, lo, arg: a } => Value::Bv(bv(a)?.extract(hi, lo)),
        Node::ZeroExtend { by, arg: a } => Value::Bv(
            bv(a)?
                .zero_extend(by)
                .map_err(|e| EvalError::Term(e.to_string()))?,
        ),
        Node::SignExtend { by, arg: a } => Value::Bv(
            bv(a)?
                .sign_extend(by)
                .map_err(|e| EvalError::Term(e.to_string()))?,
        ),
        Node::App1(op, a) => match op {
            Op::Not => Value::Bool(!boolean(a)?),
            Op::BvNot => Value::Bv(bv(a)?.bvnot()),
            Op::BvNeg => Value::Bv(bv(a)?.bvneg()),
            Op::IntNeg => Value::Int(int(a)?.checked_neg().ok_or(EvalError::Overflow("-"))?),
            _ => return Err(ill("unary application")),
        },
        Node::App2(op, a, b) => match op {
            Op::And => Value::Bool(boolean(a)? && boolean(b)?),
            Op::Or => Value::Bool(boolean(a)? || boolean(b)?),
            Op::Xor => Value::Bool(boolean(a)? != boolean(b)?),
            Op::Implies => Value::Bool(!boolean(a)? || boolean(b)?),
            Op::Eq => Value::Bool(values_equal(store, store.sort(a), arg(a)?, arg(b)?)),
            Op::Select => {
                let arr = arg(a)?.as_array().ok_or_else(|| ill("array argument"))?;
                arr.get(arg(b)?).clone()
            }
            Op::Concat => Value::Bv(
                bv(a)?
                    .concat(bv(b)?)
                    .map_err(|e| EvalError::Term(e.to_string()))?,
            ),
            Op::IntAdd
            | Op::IntSub
            | Op::IntMul
            | Op::IntDiv
            | Op::IntMod
            | Op::IntLe
            | Op::IntLt => int_binary(op, int(a)?, int(b)?)?,
            _ => bv_binary(op, bv(a)?, bv(b)?)?,
        },
        Node::App3(op, a, b, c) => match op {
            Op::Ite => {
                if boolean(a)? {
                    arg(b)?.clone()
                } else {
                    arg(c)?.clone()
                }
            }
            Op::Store => {
                let mut arr = arg(a)?
                    .as_array()
                    .ok_or_else(|| ill("array argument"))?
                    .clone();
                arr.set(arg(b)?.clone(), arg(c)?.clone());
                Value::Array(arr)
            }
            _ => return Err(ill("ternary application")),
        },
    })
}

/// Equality of two values of sort `sort` (extensional for arrays).
fn values_equal(store: &TermStore, sort: Sort, x: &Value, y: &Value) -> bool {
    match (x, y) {
        (Value::Array(a), Value::Array(b)) => {
            let domain = store
                .array_parts(sort)
                .and_then(|(i, _)| store.sorts().domain_size(i));
            a.equals(b, domain)
        }
        _ => x == y,
    }
}

fn bv_binary(op: Op, x: crate::BvConst, y: crate::BvConst) -> Result<Value, EvalError> {
    if x.width() != y.width() {
        return Err(ill("bit-vector widths"));
    }
    Ok(match op {
        Op::BvAnd => Value::Bv(x.bvand(y)),
        Op::BvOr => Value::Bv(x.bvor(y)),
        Op::BvXor => Value::Bv(x.bvxor(y)),
        Op::BvAdd => Value::Bv(x.bvadd(y)),
        Op::BvSub => Value::Bv(x.bvsub(y)),
        Op::BvMul => Value::Bv(x.bvmul(y)),
        Op::BvUdiv => Value::Bv(x.bvudiv(y)),
        Op::BvSdiv => Value::Bv(x.bvsdiv(y)),
        Op::BvUrem => Value::Bv(x.bvurem(y)),
        Op::BvSrem => Value::Bv(x.bvsrem(y)),
        Op::BvShl => Value::Bv(x.bvshl(y)),
        Op::BvLshr => Value::Bv(x.bvlshr(y)),
        Op::BvAshr => Value::Bv(x.bvashr(y)),
        Op::BvUlt => Value::Bool(x.bvult(y)),
        Op::BvUle => Value::Bool(x.bvule(y)),
        Op::BvSlt => Value::Bool(x.bvslt(y)),
        Op::BvSle => Value::Bool(x.bvsle(y)),
        _ => return Err(ill("bit-vector application")),
    })
}

fn int_binary(op: Op, x: i128, y: i128) -> Result<Value, EvalError> {
    let name = op.smtlib_name();
    let overflow = || EvalError::Overflow(name);
    Ok(match op {
        Op::IntAdd => Value::Int(x.checked_add(y).ok_or_else(overflow)?),
        Op::IntSub => Value::Int(x.checked_sub(y).ok_or_else(overflow)?),
        Op::IntMul => Value::Int(x.checked_mul(y).ok_or_else(overflow)?),
        Op::IntDiv if y == 0 => Value::Int(0),
        Op::IntDiv => Value::Int(x.checked_div_euclid(y).ok_or_else(overflow)?),
        Op::IntMod if y == 0 => Value::Int(x),
        Op::IntMod if y == 1 || y == -1 => Value::Int(0),
        Op::IntMod => Value::Int(x.rem_euclid(y)),
        Op::IntLe => Value::Bool(x <= y),
        Op::IntLt => Value::Bool(x < y),
        _ => return Err(ill("integer application")),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::BvConst;

    #[test]
    fn evaluates_bit_vectors_and_arrays() {
        let mut s = TermStore::without_simplification();
        let x = s.bv_var("x", 32).expect("var");
        let arr = s
            .array_sort(Sort::BitVec(32), Sort::BitVec(32))
            .expect("sort");
        let a = s.var("a", arr).expect("var");
        let one = s.bv_val(32, 1).expect("c");
        let sum = s.bv_add(x, one).expect("add");
        let stored = s.store(a, x, sum).expect("store");
        let read = s.select(stored, x).expect("select");
        let mut asg = Assignment::new();
        asg.insert(
            s.var_id(x).expect("var"),
            Value::Bv(BvConst::new(32, u128::from(u32::MAX)).expect("c")),
        );
        let zero = Value::Bv(BvConst::new(32, 0).expect("c"));
        asg.insert(
            s.var_id(a).expect("var"),
            Value::Array(ArrayValue::constant(zero.clone())),
        );
        assert_eq!(eval(&s, read, &asg), Ok(zero));
    }

    /// The lazy evaluation needs only the variables of the branches a model takes, and where
    /// both evaluations succeed they agree.
    #[test]
    fn lazy_evaluation_takes_one_branch_and_agrees_with_eval() {
        let mut s = TermStore::without_simplification();
        let x = s.bv_var("x", 32).expect("var");
        let y = s.bv_var("y", 32).expect("var");
        let zero = s.bv_val(32, 0).expect("c");
        let one = s.bv_val(32, 1).expect("c");
        let three = s.bv_val(32, 3).expect("c");
        let x_zero = s.eq(x, zero).expect("eq");
        let y_next = s.bv_add(y, one).expect("add");
        let chain = s.ite(x_zero, one, y_next).expect("ite");
        let y_big = s.bv_ugt(y, three).expect("ugt");
        let either = s.or(x_zero, y_big).expect("or");
        let bv = |n: u128| Value::Bv(BvConst::new(32, n).expect("c"));
        let var = |t| s.var_id(t).expect("var");
        let mut only_x = Assignment::new();
        only_x.insert(var(x), bv(1));
        assert!(eval(&s, chain, &only_x).is_err(), "y is unassigned");
        let mut memo = FxHashMap::default();
        assert!(eval_lazy_into(&s, &[chain], &only_x, &mut memo).is_err());
        only_x.insert(var(x), bv(0));
        let mut memo = FxHashMap::default();
        eval_lazy_into(&s, &[chain, either], &only_x, &mut memo).expect("y is not needed");
        assert_eq!(
            (memo[&chain].clone(), memo[&either].clone()),
            (bv(1), Value::Bool(true))
        );
        for (xv, yv) in [(0, 5), (0, 2), (7, 5), (7, 0)] {
            let mut full = Assignment::new();
            full.insert(var(x), bv(xv));
            full.insert(var(y), bv(yv));
            let mut memo = FxHashMap::default();
            eval_lazy_into(&s, &[chain, either], &full, &mut memo).expect("assigned");
            for t in [chain, either] {
                assert_eq!(Ok(memo[&t].clone()), eval(&s, t, &full), "x={xv} y={yv}");
            }
        }
    }

    /// Past [`SHARED_FROM`] variables an assignment is shared between its copies: a copy
    /// changed does not change the original, and equality does not depend on the storage.
    #[test]
    fn large_assignments_are_shared_between_copies() {
        let mut s = TermStore::new();
        let vars: Vec<VarId> = (0..SHARED_FROM + 10)
            .map(|i| {
                let t = s.bv_var(format!("v{i}"), 8).expect("var");
                s.var_id(t).expect("a variable")
            })
            .collect();
        let value = |k: u128| Value::Bv(crate::BvConst::new(8, k % 256).expect("c"));
        let mut small = Assignment::new();
        let mut large = Assignment::new();
        for (k, &var) in vars.iter().enumerate() {
            large.insert(var, value(k as u128));
            if k < 5 {
                small.insert(var, value(k as u128));
            }
        }
        assert!(matches!(large.values, Values::Shared(_)));
        let mut copy = large.clone();
        copy.insert(vars[0], value(200));
        assert_eq!(large.get(vars[0]), Some(&value(0)));
        assert_eq!(copy.get(vars[0]), Some(&value(200)));
        assert_ne!(copy, large);
        let mut rebuilt = Assignment::new();
        rebuilt.extend(&large);
        assert_eq!(rebuilt, large);
        let mut grown = small.clone();
        grown.extend(&large);
        assert_eq!(grown, large);
        assert_eq!(large.len(), vars.len());
    }

    #[test]
    fn reports_missing_and_ill_sorted_variables() {
        let mut s = TermStore::new();
        let x = s.int_var("n.next.val").expect("var");
        let e = eval(&s, x, &Assignment::new()).expect_err("unassigned");
        assert!(e.to_string().contains("n.next.val"));
        let mut asg = Assignment::new();
        asg.insert(s.var_id(x).expect("var"), Value::Bool(true));
        assert!(matches!(
            eval(&s, x, &asg),
            Err(EvalError::WrongSort { .. })
        ));
    }

    #[test]
    fn integer_semantics_are_euclidean() {
        assert_eq!(int_binary(Op::IntDiv, -7, 2), Ok(Value::Int(-4)));
        assert_eq!(int_binary(Op::IntMod, -7, 2), Ok(Value::Int(1)));
        assert_eq!(int_binary(Op::IntDiv, 7, -2), Ok(Value::Int(-3)));
        assert_eq!(int_binary(Op::IntMod, 7, -2), Ok(Value::Int(1)));
        assert_eq!(int_binary(Op::IntMod, i128::MIN, -1), Ok(Value::Int(0)));
        assert!(int_binary(Op::IntMul, i128::MAX, 2).is_err());
    }
}
