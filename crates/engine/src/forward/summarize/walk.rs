//! The paths of a loop body: every way from the loop header back to it, with the branch
//! conditions taken, the checks met and the values every local holds at the end, all over the
//! values at the start of the iteration (seed 002 §4.4.2: the vertices of the path dependency
//! automaton). A sequence of paths composes into one walk (a period of a cycle).
//!
//! Only bodies the closed forms can describe are enumerated: numeric assignments, `output`,
//! `assert`, division checks and `Init` checks of plain locals, branches. Calls, `input`,
//! memory (arrays, records, pointers, address-taken locals), `assume`, `return` and inner loops
//! make the loop unsupported, with the reason. Nothing here asks the solver.

use std::rc::Rc;

use symex_ir::analysis::Loop;
use symex_ir::cfg::{
    BlockId, Check, Function, InstKind, LocalId, Operand, PlaceBase, PropId, Rvalue, Terminator,
};

use crate::forward::summarize::expr::Expr;

/// More paths than this through one body: the loop is left to plain execution.
pub const MAX_PATHS: usize = 16;

/// One path through the body (or several in a row), from the header back to it.
#[derive(Clone, Debug)]
pub struct Walk {
    /// Branch conditions (as numbers, non-zero is true) and the direction taken, in order.
    pub conds: Vec<(Rc<Expr>, bool)>,
    /// `assert` and division checks: the property and the number that must not be zero.
    pub checks: Vec<(PropId, Rc<Expr>)>,
    /// Each local's value at the end; `None` if the walk does not write it.
    pub env: Vec<Option<Rc<Expr>>>,
    /// The blocks in order, with the direction taken by the branch ending each (for coverage).
    pub steps: Vec<(BlockId, Option<bool>)>,
    /// The body paths this walk is made of (indices into the loop's paths).
    pub paths: Vec<usize>,
    /// Locals an `Init` check reads before the walk writes them: their start values must be
    /// initialized.
    pub inits: Vec<LocalId>,
}

impl Walk {
    fn empty(locals: usize) -> Walk {
        Walk {
            conds: Vec::new(),
            checks: Vec::new(),
            env: vec![None; locals],
            steps: Vec::new(),
            paths: Vec::new(),
            inits: Vec::new(),
        }
    }

    /// The current value of `local` on this walk.
    pub fn value(&self, local: LocalId) -> Rc<Expr> {
        self.env[local.index()]
            .clone()
            .unwrap_or_else(|| Expr::start(local))
    }

    /// This walk followed by `next`: `next`'s conditions, checks and values read this walk's
    /// results.
    pub fn then(&self, next: &Walk) -> Walk {
        let subst = |l: LocalId| self.env[l.index()].clone();
        let mut walk = self.clone();
        walk.conds
            .extend(next.conds.iter().map(|(c, d)| (c.substitute(&subst), *d)));
        walk.checks
            .extend(next.checks.iter().map(|(p, e)| (*p, e.substitute(&subst))));
        for (slot, value) in walk.env.iter_mut().zip(&next.env) {
            if let Some(v) = value {
                *slot = Some(v.substitute(&subst));
            }
        }
        walk.steps.extend(next.steps.iter().copied());
        walk.paths.extend(next.paths.iter().copied());
        for &l in &next.inits {
            if self.env[l.index()].is_none() && !walk.inits.contains(&l) {
                walk.inits.push(l);
            }
        }
        walk
    }

    /// The locals whose start values the walk reads (they must hold numbers when it runs).
    pub fn reads(&self) -> Vec<LocalId> {
        let mut out = self.inits.clone();
        for (c, _) in &self.conds {
            c.starts(&mut out);
        }
        for (_, e) in &self.checks {
            e.starts(&mut out);
        }
        for e in self.env.iter().flatten() {
            e.starts(&mut out);
        }
        out.sort();
        out
    }
}

/// Every path of the loop's body from its header back to it, or why there is none to give.
pub fn body_paths(
    function: &Function,
    lp: &Loop,
    cell_backed: &dyn Fn(LocalId) -> bool,
) -> Result<Vec<Walk>, String> {
    if !lp.children.is_empty() {
        return Err("it contains another loop".into());
    }
    let mut done = Vec::new();
    let mut work = vec![(lp.header, Walk::empty(function.locals.len()))];
    while let Some((block, mut walk)) = work.pop() {
        let body = function.block(block);
        for inst in &body.insts {
            instruction(&inst.kind, &mut walk, cell_backed)?;
        }
        let mut follow = |target: BlockId, mut walk: Walk, direction: Option<bool>| {
            walk.steps.push((block, direction));
            if target == lp.header {
                done.push(walk);
            } else if lp.contains(target) {
                work.push((target, walk));
            }
            // Leaving the loop: an exit path, which plain execution follows.
        };
        match body.term {
            Terminator::Goto(target) => follow(target, walk, None),
            Terminator::Branch {
                cond,
                then_block,
                else_block,
            } => {
                let cond = operand(cond, &walk)?;
                if let Expr::Const(n) = *cond {
                    let target = if n != 0 { then_block } else { else_block };
                    follow(target, walk, Some(n != 0));
                } else {
                    let mut other = walk.clone();
                    other.conds.push((cond.clone(), false));
                    walk.conds.push((cond, true));
                    follow(else_block, other, Some(false));
                    follow(then_block, walk, Some(true));
                }
            }
            Terminator::Return(_) => return Err("it returns from inside".into()),
        }
        if done.len() + work.len() > MAX_PATHS {
            return Err(format!("its body has more than {MAX_PATHS} paths"));
        }
    }
    for (i, walk) in done.iter_mut().enumerate() {
        walk.paths.push(i);
    }
    Ok(done)
}

fn instruction(
    kind: &InstKind,
    walk: &mut Walk,
    cell_backed: &dyn Fn(LocalId) -> bool,
) -> Result<(), String> {
    match kind {
        InstKind::Assign { dst, value } => {
            if cell_backed(*dst) {
                return Err("it writes a local whose address is taken".into());
            }
            let value = match value {
                Rvalue::Use(op) => operand(*op, walk)?,
                Rvalue::Unary(op, a) => Rc::new(Expr::Unary(*op, operand(*a, walk)?)),
                Rvalue::Binary(op, a, b) => {
                    Expr::binary(*op, operand(*a, walk)?, operand(*b, walk)?)
                }
                _ => return Err("it uses memory (arrays, records or pointers)".into()),
            };
            walk.env[dst.index()] = Some(value);
        }
        InstKind::Output(op) => {
            operand(*op, walk)?;
        }
        InstKind::Check { check, prop } => match check {
            Check::Assert(op) | Check::NonZero(op) => {
                let value = operand(*op, walk)?;
                walk.checks.push((*prop, value));
            }
            Check::Init(place) => match (place.base, place.projections.is_empty()) {
                // The start value is read, so it must be a number when the walk runs.
                (PlaceBase::Local(l), true) if !cell_backed(l) => {
                    if walk.env[l.index()].is_none() && !walk.inits.contains(&l) {
                        walk.inits.push(l);
                    }
                }
                _ => return Err("it checks memory for initialization".into()),
            },
            _ => return Err("it uses memory (arrays, records or pointers)".into()),
        },
        InstKind::Call { .. } => return Err("it calls a function".into()),
        InstKind::Input { .. } => return Err("it reads input".into()),
        InstKind::Store { .. } => return Err("it writes memory".into()),
        InstKind::Assume(_) => return Err("it contains an assume".into()),
    }
    Ok(())
}

fn operand(op: Operand, walk: &Walk) -> Result<Rc<Expr>, String> {
    match op {
        Operand::Const(n) => Ok(Expr::constant(n)),
        Operand::Local(l) => Ok(walk.value(l)),
        Operand::Null => Err("it compares pointers".into()),
    }
}
