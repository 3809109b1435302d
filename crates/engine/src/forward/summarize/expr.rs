//! The numbers a loop body computes, as expressions over the values its locals had when the
//! iteration (or a sequence of iterations) started.
//!
//! `Start(x)` is x's value at the start; everything else is a 32-bit wrapping operation of the
//! IR. Expressions are shared (`Rc`), compose by substitution (one path after another) and turn
//! into solver terms once the start values are known. Here too live the two structural questions
//! the closed forms ask: "is this `x + d` with `d` free of changing locals" (an induction
//! variable) and "by how much does this change per iteration" (its slope). Nothing here talks
//! to the solver or decides whether a loop can be summarized.

use std::rc::Rc;

use rustc_hash::FxHashMap;
use symex_ir::cfg::{BinOp, LocalId, UnOp};
use symex_smt::{TermId, TermStore};

use crate::common::terms;
use crate::error::EngineError;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Expr {
    Const(i32),
    Start(LocalId),
    Unary(UnOp, Rc<Expr>),
    Binary(BinOp, Rc<Expr>, Rc<Expr>),
}

/// How an expression changes from one iteration to the next.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Slope {
    /// It does not change.
    Zero,
    /// It grows by this (loop-invariant) amount, modulo 2^32.
    By(Rc<Expr>),
}

impl Expr {
    pub fn constant(n: i32) -> Rc<Expr> {
        Rc::new(Expr::Const(n))
    }

    pub fn start(local: LocalId) -> Rc<Expr> {
        Rc::new(Expr::Start(local))
    }

    pub fn binary(op: BinOp, a: Rc<Expr>, b: Rc<Expr>) -> Rc<Expr> {
        Rc::new(Expr::Binary(op, a, b))
    }

    /// The value of an expression without locals (wrapping), if it has one here: sums,
    /// differences, products and negations of constants.
    pub fn constant_value(&self) -> Option<i32> {
        match self {
            Expr::Const(n) => Some(*n),
            Expr::Start(_) => None,
            Expr::Unary(UnOp::Neg, a) => Some(a.constant_value()?.wrapping_neg()),
            Expr::Binary(BinOp::Add, a, b) => {
                Some(a.constant_value()?.wrapping_add(b.constant_value()?))
            }
            Expr::Binary(BinOp::Sub, a, b) => {
                Some(a.constant_value()?.wrapping_sub(b.constant_value()?))
            }
            Expr::Binary(BinOp::Mul, a, b) => {
                Some(a.constant_value()?.wrapping_mul(b.constant_value()?))
            }
            _ => None,
        }
    }

    /// Every local whose start value the expression reads.
    pub fn starts(&self, out: &mut Vec<LocalId>) {
        match self {
            Expr::Const(_) => {}
            Expr::Start(l) => {
                if !out.contains(l) {
                    out.push(*l);
                }
            }
            Expr::Unary(_, a) => a.starts(out),
            Expr::Binary(_, a, b) => {
                a.starts(out);
                b.starts(out);
            }
        }
    }

    /// Whether the expression reads the start value of a local `pred` accepts.
    pub fn reads(&self, pred: &dyn Fn(LocalId) -> bool) -> bool {
        match self {
            Expr::Const(_) => false,
            Expr::Start(l) => pred(*l),
            Expr::Unary(_, a) => a.reads(pred),
            Expr::Binary(_, a, b) => a.reads(pred) || b.reads(pred),
        }
    }

    /// The expression with every `Start(x)` replaced by `value(x)` (when it gives one).
    pub fn substitute(self: &Rc<Expr>, value: &dyn Fn(LocalId) -> Option<Rc<Expr>>) -> Rc<Expr> {
        match &**self {
            Expr::Const(_) => self.clone(),
            Expr::Start(l) => value(*l).unwrap_or_else(|| self.clone()),
            Expr::Unary(op, a) => Rc::new(Expr::Unary(*op, a.substitute(value))),
            Expr::Binary(op, a, b) => {
                Rc::new(Expr::Binary(*op, a.substitute(value), b.substitute(value)))
            }
        }
    }

    /// `Some(d)` if the expression is `Start(x) + d` (written with `+` and `-` around one
    /// occurrence of `Start(x)`) and `d` does not read x.
    pub fn increment_of(self: &Rc<Expr>, x: LocalId) -> Option<Rc<Expr>> {
        let free = |e: &Rc<Expr>| !e.reads(&|l| l == x);
        match &**self {
            Expr::Start(l) if *l == x => Some(Expr::constant(0)),
            Expr::Binary(BinOp::Add, a, b) => {
                if free(b) {
                    a.increment_of(x)
                        .map(|d| Expr::binary(BinOp::Add, d, b.clone()))
                } else if free(a) {
                    b.increment_of(x)
                        .map(|d| Expr::binary(BinOp::Add, a.clone(), d))
                } else {
                    None
                }
            }
            Expr::Binary(BinOp::Sub, a, b) if free(b) => a
                .increment_of(x)
                .map(|d| Expr::binary(BinOp::Sub, d, b.clone())),
            _ => None,
        }
    }

    /// The per-iteration change of the expression when local `x` changes by `step(x)`
    /// (`Some(None)`: x does not change; `None`: x changes in no closed form). `None` if the
    /// expression is not affine in the changing locals (a product of two changing values, a
    /// division or comparison of one).
    pub fn slope(&self, step: &dyn Fn(LocalId) -> Option<Option<Rc<Expr>>>) -> Option<Slope> {
        let sum = |op: BinOp, a: Slope, b: Slope| match (a, b) {
            (Slope::Zero, Slope::Zero) => Slope::Zero,
            (Slope::By(d), Slope::Zero) => Slope::By(d),
            (Slope::Zero, Slope::By(d)) if op == BinOp::Add => Slope::By(d),
            (Slope::Zero, Slope::By(d)) => Slope::By(Rc::new(Expr::Unary(UnOp::Neg, d))),
            (Slope::By(d), Slope::By(e)) => Slope::By(Expr::binary(op, d, e)),
        };
        Some(match self {
            Expr::Const(_) => Slope::Zero,
            Expr::Start(l) => match step(*l)? {
                None => Slope::Zero,
                Some(d) => Slope::By(d),
            },
            Expr::Unary(UnOp::Neg, a) => match a.slope(step)? {
                Slope::Zero => Slope::Zero,
                Slope::By(d) => Slope::By(Rc::new(Expr::Unary(UnOp::Neg, d))),
            },
            Expr::Binary(op @ (BinOp::Add | BinOp::Sub), a, b) => {
                sum(*op, a.slope(step)?, b.slope(step)?)
            }
            Expr::Binary(BinOp::Mul, a, b) => match (a.slope(step)?, b.slope(step)?) {
                (Slope::Zero, Slope::Zero) => Slope::Zero,
                (Slope::By(d), Slope::Zero) => Slope::By(Expr::binary(BinOp::Mul, d, b.clone())),
                (Slope::Zero, Slope::By(d)) => Slope::By(Expr::binary(BinOp::Mul, a.clone(), d)),
                (Slope::By(_), Slope::By(_)) => return None,
            },
            Expr::Unary(_, a) => match a.slope(step)? {
                Slope::Zero => Slope::Zero,
                Slope::By(_) => return None,
            },
            Expr::Binary(_, a, b) => match (a.slope(step)?, b.slope(step)?) {
                (Slope::Zero, Slope::Zero) => Slope::Zero,
                _ => return None,
            },
        })
    }

    /// The expression as a 32-bit term, the start values given per local.
    pub fn to_term(
        self: &Rc<Expr>,
        store: &mut TermStore,
        start: &dyn Fn(LocalId) -> Option<TermId>,
    ) -> Result<TermId, EngineError> {
        let mut memo: FxHashMap<*const Expr, TermId> = FxHashMap::default();
        self.term_memo(store, start, &mut memo)
    }

    fn term_memo(
        self: &Rc<Expr>,
        store: &mut TermStore,
        start: &dyn Fn(LocalId) -> Option<TermId>,
        memo: &mut FxHashMap<*const Expr, TermId>,
    ) -> Result<TermId, EngineError> {
        let key = Rc::as_ptr(self);
        if let Some(&t) = memo.get(&key) {
            return Ok(t);
        }
        let term = match &**self {
            Expr::Const(n) => terms::int_const(store, *n)?,
            Expr::Start(l) => start(*l).ok_or_else(|| {
                EngineError::Internal(format!("no start value for local %{}", l.0))
            })?,
            Expr::Unary(op, a) => {
                let a = a.term_memo(store, start, memo)?;
                terms::unary(store, *op, a)?
            }
            Expr::Binary(op, a, b) => {
                let a = a.term_memo(store, start, memo)?;
                let b = b.term_memo(store, start, memo)?;
                terms::binary(store, *op, a, b)?
            }
        };
        memo.insert(key, term);
        Ok(term)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const X: LocalId = LocalId(0);
    const N: LocalId = LocalId(1);

    #[test]
    fn increments_are_recognized_through_sums() {
        let x = Expr::start(X);
        let n = Expr::start(N);
        let twice = Expr::binary(
            BinOp::Add,
            Expr::binary(BinOp::Add, x.clone(), Expr::constant(1)),
            n.clone(),
        );
        assert!(twice.increment_of(X).is_some());
        let minus = Expr::binary(BinOp::Sub, x.clone(), n.clone());
        assert!(minus.increment_of(X).is_some());
        let reversed = Expr::binary(BinOp::Sub, n.clone(), x.clone());
        assert_eq!(reversed.increment_of(X), None);
        let doubled = Expr::binary(BinOp::Add, x.clone(), x.clone());
        assert_eq!(doubled.increment_of(X), None);
    }

    #[test]
    fn slopes_are_affine_only() {
        let x = Expr::start(X);
        let n = Expr::start(N);
        let step =
            |l: LocalId| -> Option<Option<Rc<Expr>>> { Some((l == X).then(|| Expr::constant(2))) };
        let affine = Expr::binary(
            BinOp::Mul,
            Expr::binary(BinOp::Sub, n.clone(), x.clone()),
            n.clone(),
        );
        assert!(matches!(affine.slope(&step), Some(Slope::By(_))));
        let invariant = Expr::binary(BinOp::Div, n.clone(), Expr::constant(3));
        assert_eq!(invariant.slope(&step), Some(Slope::Zero));
        let square = Expr::binary(BinOp::Mul, x.clone(), x.clone());
        assert_eq!(square.slope(&step), None);
        let compared = Expr::binary(BinOp::Lt, x.clone(), n.clone());
        assert_eq!(compared.slope(&step), None);
    }
}
