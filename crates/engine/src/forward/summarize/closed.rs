//! Closed forms of a walk repeated k times (seed 002 §4.4.1): every local the walk writes is an
//! induction variable `x + d` with `d` loop-invariant (after k iterations `x + d·k`, modulo 2^32
//! like the program's own arithmetic), a *series* `s + e` with `e` affine in the induction
//! variables (`sn += i`: after k iterations `s + e0·k + g·k(k−1)/2`, `g` the per-iteration
//! growth of `e`), or derived: a value computed from invariants and induction variables only
//! (after k ≥ 1 iterations, its formula on the values of iteration k − 1). Conditions become
//! atoms `a op b` whose sides are affine in the iteration number (so they read no series).
//!
//! A walk that writes a local in any other way (`x = x * 2`, a value derived from a derived
//! value) or whose conditions or checks read a derived value or are not affine has no closed
//! form, and the loop is left to plain execution. Nor has a walk that runs an inner loop from
//! values it changes: the pseudo-locals of an inner loop's results are invariants only because
//! the inner loop starts from the same values at every iteration (seed 002 §4.4.3 "summarize the
//! inner loop first"; its results then are loop-invariant, and what it adds to an accumulator
//! is a loop-invariant step). Nothing here talks to the solver.

use std::rc::Rc;

use symex_ir::cfg::{BinOp, LocalId, PropId, UnOp};

use crate::forward::summarize::expr::{Expr, Slope};
use crate::forward::summarize::walk::{Slot, Walk};

/// How one local evolves over the iterations of a walk.
#[derive(Clone, Debug)]
pub enum Form {
    /// Grows by this invariant amount per iteration.
    Induction(Rc<Expr>),
    /// Grows by `amount` (on the iteration's start values), an expression of invariants and
    /// induction variables that itself grows by the invariant `growth` per iteration.
    Series { amount: Rc<Expr>, growth: Rc<Expr> },
    /// After an iteration it holds this expression of the iteration's start values (which
    /// reads invariants and induction variables only).
    Derived(Rc<Expr>),
    /// Its value is never observed after the loop nor by the loop's conditions, checks or
    /// other values (see `live`): after the walk it holds a fresh, unconstrained number.
    Havoc,
}

/// A condition of the walk in the form `a op b` (a signed or unsigned comparison), with the
/// slopes of both sides.
#[derive(Clone, Debug)]
pub struct Atom {
    pub op: BinOp,
    pub a: Rc<Expr>,
    pub b: Rc<Expr>,
    pub slope_a: Slope,
    pub slope_b: Slope,
    /// The atom holds at one iteration of a run at most (a divisibility test whose residue
    /// the step changes, see [`divisibility`]); both slopes are then `Zero`.
    pub once: bool,
}

impl Atom {
    /// An `==` whose sides move by different constant steps: it holds at one iteration, and
    /// not again before a side has left its range.
    pub fn meets_once(&self) -> bool {
        let step = |s: &Slope| match s {
            Slope::Zero => Some(0),
            Slope::By(d) => d.constant_value(),
        };
        self.op == BinOp::Eq
            && !self.once
            && matches!((step(&self.slope_a), step(&self.slope_b)), (Some(a), Some(b)) if a != b)
    }
}

#[derive(Clone, Debug)]
pub struct ClosedForm {
    pub walk: Walk,
    /// Per local; `None`: the walk leaves it unchanged.
    pub forms: Vec<Option<Form>>,
    pub atoms: Vec<Atom>,
    /// The walk's checks: property and the number that must not be zero.
    pub checks: Vec<(PropId, Rc<Expr>)>,
}

impl ClosedForm {
    /// The closed form of `walk` (whose inner-loop runs are `slots`), or why it has none;
    /// the locals of `havoc` that the walk changes get [`Form::Havoc`] (the caller has made
    /// sure that nothing but other locals of `havoc` reads them).
    pub fn of(walk: Walk, slots: &[Slot], havoc: &[LocalId]) -> Result<ClosedForm, String> {
        let locals = walk.env.len();
        let changed = |l: LocalId| {
            walk.env[l.index()]
                .as_ref()
                .is_some_and(|e| **e != Expr::Start(l))
        };
        let mut forms: Vec<Option<Form>> = vec![None; locals];
        for &l in havoc {
            if changed(l) {
                forms[l.index()] = Some(Form::Havoc);
            }
        }
        for l in (0..locals as u32).map(LocalId) {
            if !changed(l) || forms[l.index()].is_some() {
                continue;
            }
            let value = walk.value(l);
            if let Some(d) = value.increment_of(l) {
                if !d.reads(&changed) {
                    forms[l.index()] = Some(Form::Induction(d));
                }
            }
        }
        let is_induction = |forms: &[Option<Form>], l: LocalId| {
            matches!(forms[l.index()], Some(Form::Induction(_)))
        };
        let induction_step = |forms: &[Option<Form>], l: LocalId| -> Option<Option<Rc<Expr>>> {
            match &forms[l.index()] {
                None => Some(None),
                Some(Form::Induction(d)) => Some(Some(d.clone())),
                Some(_) => None,
            }
        };
        for l in (0..locals as u32).map(LocalId) {
            if !changed(l) || forms[l.index()].is_some() {
                continue;
            }
            let Some(amount) = walk.value(l).increment_of(l) else {
                continue;
            };
            if amount.reads(&|m| changed(m) && !is_induction(&forms, m)) {
                continue;
            }
            if let Some(Slope::By(growth)) = amount.slope(&|m| induction_step(&forms, m)) {
                forms[l.index()] = Some(Form::Series { amount, growth });
            }
        }
        for l in (0..locals as u32).map(LocalId) {
            if !changed(l) || forms[l.index()].is_some() {
                continue;
            }
            let value = walk.value(l);
            if value.reads(&|m| changed(m) && !is_induction(&forms, m)) {
                // (A value read from a series stays out too: derived values read inductions.)
                return Err(format!(
                    "local %{} changes in no closed form (x + invariant, or a value of invariants and induction variables)",
                    l.0
                ));
            }
            forms[l.index()] = Some(Form::Derived(value));
        }
        let step = |l: LocalId| induction_step(&forms, l);
        let mut atoms = Vec::new();
        for (cond, direction) in &walk.conds {
            let (op, a, b) = atom(cond, *direction);
            let (slope_a, slope_b, once) = match (a.slope(&step), b.slope(&step)) {
                (Some(slope_a), Some(slope_b)) => (slope_a, slope_b, false),
                _ => match divisibility(op, &a, &b, &step) {
                    Some(once) => (Slope::Zero, Slope::Zero, once),
                    None => {
                        return Err("a condition is not affine in the induction variables".into())
                    }
                },
            };
            atoms.push(Atom {
                op,
                a,
                b,
                slope_a,
                slope_b,
                once,
            });
        }
        let derived = |l: LocalId| matches!(forms[l.index()], Some(Form::Derived(_) | Form::Havoc));
        if walk.checks.iter().any(|(_, e)| e.reads(&derived)) {
            return Err("a check reads a value of the previous iteration".into());
        }
        // `g·k(k−1)/2` modulo 2^32 repeats after 2^33 iterations when g is odd, where everything
        // else repeats after 2^32; a phase is shorter than that only when some side of a
        // condition moves by a constant (it stays in range for fewer than 2^32 iterations).
        let bounded = atoms.iter().any(|a| {
            [&a.slope_a, &a.slope_b].into_iter().any(|s| match s {
                Slope::By(d) => d.constant_value().is_some_and(|c| c != 0),
                Slope::Zero => false,
            })
        });
        let even = |g: &Rc<Expr>| g.constant_value().is_some_and(|c| c % 2 == 0);
        if forms
            .iter()
            .any(|f| matches!(f, Some(Form::Series { growth, .. }) if !bounded && !even(growth)))
        {
            return Err(
                "a sum of an induction variable in a loop no condition bounds (its values repeat \
                 after 2^33 iterations)"
                    .into(),
            );
        }
        // Each inner loop must start from the values it starts from at the first iteration, and
        // the same values as the summary computes its results from.
        for segment in &walk.segments {
            if segment.control != slots[segment.slot].control
                || segment.control.iter().any(|e| e.reads(&changed))
            {
                return Err("an inner loop starts from values the outer loop changes".into());
            }
        }
        Ok(ClosedForm {
            checks: walk.checks.clone(),
            walk,
            forms,
            atoms,
        })
    }
}

/// How the truth of a divisibility test `e % c == 0` or `e % c != 0` (`op` and its sides `a`,
/// `b`) changes over the iterations, where `c` is a power of two and `e` moves by a constant
/// step `d`: `Some(false)` if it never changes (`c` divides `d`), `Some(true)` if it holds at
/// one iteration in a row at most (`==`: the residue 0 moves to `d`; `!=` modulo 2: the
/// residue alternates between 0 and 1), `None` otherwise (`x % 4 != 0` holds for three
/// iterations in a row while `x` counts up by one, and forever while it counts by two from an
/// odd number). Because `c` divides 2^32, the residue of `e` modulo `c` moves by `d` modulo
/// `c` at every step, wrap-around included, and signed and unsigned remainders are zero
/// alike. SV-COMP's `if (i % 2)` then takes its two paths in turn: a cycle of period (1, 1),
/// whose macro walk moves `i` by a multiple of 2, so the test is invariant there.
fn divisibility(
    op: BinOp,
    a: &Rc<Expr>,
    b: &Rc<Expr>,
    step: &dyn Fn(LocalId) -> Option<Option<Rc<Expr>>>,
) -> Option<bool> {
    if !matches!(op, BinOp::Eq | BinOp::Ne) {
        return None;
    }
    let ((Expr::Binary(BinOp::Rem | BinOp::URem, e, c), Expr::Const(0))
    | (Expr::Const(0), Expr::Binary(BinOp::Rem | BinOp::URem, e, c))) = (&**a, &**b)
    else {
        return None;
    };
    let c = match **c {
        Expr::Const(c) if c >= 2 && (c as u32).is_power_of_two() => c as u32,
        _ => return None,
    };
    let d = match e.slope(step)? {
        Slope::Zero => 0,
        Slope::By(d) => d.constant_value()? as u32 % c,
    };
    if d == 0 {
        return Some(false);
    }
    (op == BinOp::Eq || c == 2).then_some(true)
}

/// The comparison a branch condition taken in `direction` amounts to.
fn atom(cond: &Rc<Expr>, direction: bool) -> (BinOp, Rc<Expr>, Rc<Expr>) {
    match &**cond {
        Expr::Binary(op, a, b) if is_comparison(*op) => {
            let op = if direction { *op } else { negate(*op) };
            (op, a.clone(), b.clone())
        }
        Expr::Unary(UnOp::Not, e) => atom(e, !direction),
        _ => {
            let op = if direction { BinOp::Ne } else { BinOp::Eq };
            (op, cond.clone(), Expr::constant(0))
        }
    }
}

fn is_comparison(op: BinOp) -> bool {
    matches!(
        op,
        BinOp::Lt
            | BinOp::Le
            | BinOp::Gt
            | BinOp::Ge
            | BinOp::Eq
            | BinOp::Ne
            | BinOp::ULt
            | BinOp::ULe
            | BinOp::UGt
            | BinOp::UGe
    )
}

fn negate(op: BinOp) -> BinOp {
    match op {
        BinOp::Lt => BinOp::Ge,
        BinOp::Ge => BinOp::Lt,
        BinOp::Le => BinOp::Gt,
        BinOp::Gt => BinOp::Le,
        BinOp::Eq => BinOp::Ne,
        BinOp::Ne => BinOp::Eq,
        BinOp::ULt => BinOp::UGe,
        BinOp::UGe => BinOp::ULt,
        BinOp::ULe => BinOp::UGt,
        BinOp::UGt => BinOp::ULe,
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::forward::program::ProgramInfo;
    use crate::forward::summarize::walk::body_paths;

    /// The closed forms of the paths of the first loop of `main`, or the first reason why not.
    fn forms(source: &str) -> Result<Vec<ClosedForm>, String> {
        let front = symex_syntax::analyze(source).expect("valid");
        let module = symex_ir::lower(&front.program);
        let info = ProgramInfo::new(&module);
        let function = &module.functions[0];
        let lp = &info.functions[0].loops().loops[0];
        let body = body_paths(function, lp, &[], &|l| info.functions[0].is_cell_backed(l))?;
        body.walks
            .into_iter()
            .map(|w| ClosedForm::of(w, &body.slots, &[]))
            .collect()
    }

    #[test]
    fn induction_and_derived_values_are_classified() {
        let source = "main() { var i, n, a, b, c; i = 0; n = input; a = 0; c = input; \
                      while (i < n) { a = a + c; b = i; if (i < 10) { i = i + 1; } else { i = i + 2; } } \
                      return a + b; }";
        let forms = forms(source).expect("summarizable");
        assert_eq!(forms.len(), 2);
        for form in &forms {
            assert!(matches!(form.forms[0], Some(Form::Induction(_))), "i");
            assert!(
                matches!(form.forms[2], Some(Form::Induction(_))),
                "a += invariant c"
            );
            assert!(matches!(form.forms[3], Some(Form::Derived(_))), "b = i");
            assert!(form.forms[1].is_none() && form.forms[4].is_none());
            assert_eq!(form.atoms.len(), 2);
        }
    }

    #[test]
    fn loops_without_closed_forms_are_refused() {
        let refused = [
            ("main() { var x; x = input; while (x < 100) { x = x * 2; } return x; }", "closed form"),
            ("main() { var x, y; x = input; y = 0; while (x < 100) { x = x + y; y = y + 1; } return x; }", "closed form"),
            ("main() { var x; x = input; while (x < 100) { x = x + input; } return x; }", "input"),
            ("main() { var x, a; a = [1, 2]; x = 0; while (x < 2) { a[x] = 0; x = x + 1; } return x; }", "memory"),
            ("main() { var x, h; h = alloc {val: 1, next: null}; x = 0; while (x < 2) { x = x + h->val; h = h->next; } return x; }", "changes an array or pointer"),
            ("main() { var x, a; a = [1, 2]; x = 0; while (x < 2) { x = x + a[x]; } return x; }", "changes an array or pointer"),
            ("main() { var x; x = input; while (x * x < 100) { x = x + 1; } return x; }", "affine"),
            ("main() { var i, j; i = 0; while (i < 3) { j = 0; while (j < 3) { j = j + 1; } i = i + 1; } return i; }", "inner loop"),
        ];
        for (source, reason) in refused {
            let err = forms(source)
                .err()
                .unwrap_or_else(|| panic!("summarized: {source}"));
            assert!(err.contains(reason), "{source}: {err}");
        }
    }

    #[test]
    fn reads_of_memory_the_loop_never_writes_are_invariants() {
        // locals: i 0, n 1, s 2, a 3, h 4; the two reads become pseudo-locals 5 and 6.
        let source = "main() { var i, n, s, a, h; n = input; a = [1, 2, 3]; \
                      h = alloc {val: 4, next: null}; s = 0; i = 0; \
                      while (i < n) { s = s + a[2] * h->val; i = i + a[0]; } return s; }";
        let forms = forms(source).expect("summarizable");
        assert_eq!(forms.len(), 1);
        let reads_memory = |e: &Rc<Expr>| e.reads(&|l| l.index() >= 5);
        match &forms[0].forms[2] {
            Some(Form::Induction(d)) => assert!(reads_memory(d), "s grows by a[2] * h->val"),
            other => panic!("s: {other:?}"),
        }
        match &forms[0].forms[0] {
            Some(Form::Induction(d)) => assert!(reads_memory(d), "i grows by a[0]"),
            other => panic!("i: {other:?}"),
        }
    }

    /// The closed forms of the outer loop of `source`, its inner loop described by hand as
    /// `control` / `written` / `accumulated` locals.
    fn outer_forms(
        source: &str,
        control: &[u32],
        written: &[u32],
        accumulated: &[u32],
    ) -> Result<(Vec<ClosedForm>, Vec<Slot>), String> {
        use crate::forward::summarize::walk::Inner;
        let front = symex_syntax::analyze(source).expect("valid");
        let module = symex_ir::lower(&front.program);
        let info = ProgramInfo::new(&module);
        let function = &module.functions[0];
        let forest = info.functions[0].loops();
        let outer = &forest.loops[0];
        let inner_id = outer.children[0];
        let inner = forest.get(inner_id);
        let ids = |ls: &[u32]| ls.iter().map(|&l| LocalId(l)).collect::<Vec<_>>();
        let described = Inner {
            id: inner_id,
            header: inner.header,
            blocks: inner.blocks.clone(),
            exit: inner.exits[0].1,
            control: ids(control),
            written: ids(written),
            accumulated: ids(accumulated),
            fixed: Vec::new(),
            reads: Vec::new(),
        };
        let body = body_paths(function, outer, &[described], &|_| false)?;
        let forms = body
            .walks
            .into_iter()
            .map(|w| ClosedForm::of(w, &body.slots, &[]))
            .collect::<Result<Vec<_>, _>>()?;
        Ok((forms, body.slots))
    }

    #[test]
    fn an_inner_loop_from_invariant_values_gives_invariant_steps() {
        // locals: i 0, j 1, n 2, m 3, s 4
        let source = "main() { var i, j, n, m, s; n = input; m = input; i = 0; s = 0; \
                      while (i < n) { j = 0; while (j < m) { s = s + 1; j = j + 1; } i = i + 1; } \
                      return s; }";
        let (forms, slots) = outer_forms(source, &[1, 3], &[1], &[4]).expect("summarizable");
        assert_eq!(forms.len(), 1);
        assert_eq!(slots.len(), 1);
        let delta = slots[0].deltas[0];
        let result = slots[0].results[0];
        assert!(
            delta.index() >= 5 && result.index() >= 5,
            "pseudo-locals follow the locals"
        );
        let form = &forms[0];
        match &form.forms[4] {
            Some(Form::Induction(d)) => assert!(d.reads(&|l| l == delta), "s grows by the delta"),
            other => panic!("s: {other:?}"),
        }
        assert!(
            matches!(form.forms[1], Some(Form::Derived(_))),
            "j is the inner result"
        );
        assert!(matches!(form.forms[0], Some(Form::Induction(_))), "i");
        assert_eq!(
            slots[0].control[0].constant_value(),
            Some(0),
            "j starts at 0"
        );
    }

    #[test]
    fn an_inner_loop_from_changing_values_is_refused() {
        let source = "main() { var i, j, n, s; n = input; i = 0; s = 0; \
                      while (i < n) { j = 0; while (j < i) { s = s + 1; j = j + 1; } i = i + 1; } \
                      return s; }";
        let err = outer_forms(source, &[0, 1], &[1], &[3])
            .map(|_| ())
            .expect_err("refused");
        assert!(err.contains("changes"), "{err}");
    }
}
