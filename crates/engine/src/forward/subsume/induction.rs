//! Loop headers: turning the annotation the explored paths left at a header into an inductive
//! invariant that covers every number of iterations (seed 002 §4.2.1, §5.4.2).
//!
//! The candidates are the atoms of the header's annotation (the conjuncts of its disjuncts).
//! Every path of the loop body is run once from a *general* state whose locals are the
//! placeholders themselves; a path ends when it comes back to the header, leaves the loop, or
//! reaches the header of a nested loop. Houdini-style, candidates that some body path does not
//! preserve are dropped until the rest, `I`, is preserved by every path. `I` is an annotation
//! (no state satisfying it reaches an error) when, in addition, every body path passes its
//! checks under `I`, and every path that leaves the loop or enters a nested loop arrives where
//! the annotation there holds. By induction on the iterations, a state satisfying `I` at the
//! header can fail no check. The thesis's per-loop counter `_t` is not needed: states that come
//! round a back edge wait (the driver parks them) instead of being counted.
//! Nothing here changes annotations (the caller adds `I`) or runs states.

use rustc_hash::FxHashMap;
use symex_ir::cfg::{BlockId, InstKind, LocalId, Module, Terminator};
use symex_smt::{Node, Op, SatResult, TermId, TermStore};

use crate::common::solver::Queries;
use crate::error::EngineError;
use crate::forward::program::ProgramInfo;
use crate::forward::subsume::placeholders::{Placeholders, Role};
use crate::forward::subsume::semantics::{self, Locals};
use crate::forward::subsume::Location;

type Result<T> = std::result::Result<T, EngineError>;

/// Body paths enumerated at most; a bigger body is not tried.
const MAX_PATHS: usize = 256;

/// Solver queries one attempt may ask. Past it every question is answered "not shown", which
/// only drops candidates or keeps a stronger invariant: never a wrong one.
pub const QUERY_BUDGET: u32 = 300;

/// The locals of the loop's frame along one body path.
#[derive(Clone)]
struct PathLocals {
    /// Per local: its number (`None`: not a number) and whether it is initialized.
    values: Vec<(Option<TermId>, TermId)>,
    cell_backed: Vec<bool>,
}

impl Locals for PathLocals {
    fn number(&mut self, _: &mut TermStore, local: LocalId) -> Result<Option<TermId>> {
        if self.cell_backed.get(local.index()).copied().unwrap_or(true) {
            return Ok(None);
        }
        Ok(self.values.get(local.index()).and_then(|v| v.0))
    }

    fn initialized(&mut self, _: &mut TermStore, local: LocalId) -> Result<Option<TermId>> {
        if self.cell_backed.get(local.index()).copied().unwrap_or(true) {
            return Ok(None);
        }
        Ok(self.values.get(local.index()).map(|v| v.1))
    }
}

/// One path from the header.
struct LoopPath {
    locals: PathLocals,
    /// Branch and `assume` conditions taken.
    conditions: Vec<TermId>,
    /// The conditions of the checks passed on the way.
    checks: Vec<TermId>,
    /// `None`: back at the header; otherwise the block where the path left the body.
    left_at: Option<BlockId>,
}

pub struct Induction<'a> {
    pub store: &'a mut TermStore,
    pub queries: &'a mut Queries,
    pub ph: &'a mut Placeholders,
    pub module: &'a Module,
    pub info: &'a ProgramInfo,
    pub annotations: &'a FxHashMap<Location, TermId>,
    pub location: Location,
    /// The loop's frame (0 = the entry's).
    pub frame: usize,
    /// Queries left ([`QUERY_BUDGET`]).
    pub budget: u32,
}

impl Induction<'_> {
    /// An inductive annotation for the header, if one of the candidates gives one.
    ///
    /// Houdini gives the strongest inductive subset of the candidates; it may hold only where
    /// the loop exits at once (a candidate like `¬(i < n)` is preserved vacuously), so the
    /// subset is then weakened, candidate by candidate, as long as it stays inductive and safe.
    pub fn invariant(&mut self, annotation: TermId) -> Result<Option<TermId>> {
        let Some(paths) = self.body_paths()? else {
            return Ok(None);
        };
        let mut candidates = self.atoms(annotation);
        loop {
            let kept = self.preserved(&candidates, &paths)?;
            if kept.is_empty() {
                return Ok(None);
            }
            if kept.len() == candidates.len() {
                break;
            }
            candidates = kept;
        }
        if !self.safe(&candidates, &paths)? {
            return Ok(None);
        }
        let mut i = candidates.len();
        while i > 0 {
            i -= 1;
            let mut weaker = candidates.clone();
            weaker.remove(i);
            if self.preserved(&weaker, &paths)?.len() == weaker.len()
                && self.safe(&weaker, &paths)?
            {
                candidates = weaker;
            }
        }
        Ok(Some(self.store.and_all(&candidates)?))
    }

    /// The candidates that every path back to the header preserves, assuming all of them.
    fn preserved(&mut self, candidates: &[TermId], paths: &[LoopPath]) -> Result<Vec<TermId>> {
        let invariant = self.store.and_all(candidates)?;
        // Usually all of them are: one query per path shows it.
        let mut all = true;
        for path in paths.iter().filter(|p| p.left_at.is_none()) {
            let after = self.at_end_of(path, invariant)?;
            if !self.valid(invariant, path, after, true)? {
                all = false;
                break;
            }
        }
        if all {
            return Ok(candidates.to_vec());
        }
        let mut kept = Vec::with_capacity(candidates.len());
        for &atom in candidates {
            let mut preserved = true;
            for path in paths.iter().filter(|p| p.left_at.is_none()) {
                let after = self.at_end_of(path, atom)?;
                if !self.valid(invariant, path, after, true)? {
                    preserved = false;
                    break;
                }
            }
            if preserved {
                kept.push(atom);
            }
        }
        Ok(kept)
    }

    /// Whether, under the candidates, every path passes its checks and every path that leaves
    /// the loop (or enters a nested one) arrives where the annotation holds.
    fn safe(&mut self, candidates: &[TermId], paths: &[LoopPath]) -> Result<bool> {
        let invariant = self.store.and_all(candidates)?;
        for path in paths {
            let checks = self.store.and_all(&path.checks)?;
            let goal = match path.left_at {
                None => checks,
                Some(block) => {
                    let (context, func, _) = self.location;
                    let Some(&there) = self.annotations.get(&(context, func, block)) else {
                        return Ok(false);
                    };
                    let there = self.at_end_of(path, there)?;
                    self.store.and(checks, there)?
                }
            };
            if !self.valid(invariant, path, goal, false)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Does `invariant ∧ path ⇒ goal` hold (assuming the path's checks pass when `assume_checks`)?
    fn valid(
        &mut self,
        invariant: TermId,
        path: &LoopPath,
        goal: TermId,
        assume_checks: bool,
    ) -> Result<bool> {
        if self.budget == 0 {
            return Ok(false);
        }
        self.budget -= 1;
        let mut facts = vec![invariant];
        facts.extend(&path.conditions);
        if assume_checks {
            facts.extend(&path.checks);
        }
        let negated = self.store.not(goal)?;
        facts.push(negated);
        Ok(matches!(
            self.queries.is_satisfiable(self.store, &facts, None)?,
            SatResult::Unsat
        ))
    }

    /// `t` (about the header's state) about the state at the end of `path`.
    fn at_end_of(&mut self, path: &LoopPath, t: TermId) -> Result<TermId> {
        let mut map = FxHashMap::default();
        for var in self.store.vars_of(&[t]) {
            let term = self.store.var_info(var).term;
            match self.ph.role(var) {
                Some(Role::Value(f, l)) if f == self.frame => {
                    match path.locals.values.get(l.index()) {
                        Some((Some(v), _)) => {
                            map.insert(term, *v);
                        }
                        _ => {
                            let any = self.ph.any_value(self.store)?;
                            map.insert(term, any);
                        }
                    }
                }
                Some(Role::Init(f, l)) if f == self.frame => {
                    if let Some((_, init)) = path.locals.values.get(l.index()) {
                        map.insert(term, *init);
                    }
                }
                _ => {}
            }
        }
        Ok(self.store.substitute(t, &map)?)
    }

    /// The conjuncts of the disjuncts of `annotation` that speak only of locals (no inputs, no
    /// unknown values), without repetition, in a fixed order.
    fn atoms(&self, annotation: TermId) -> Vec<TermId> {
        let mut disjuncts = Vec::new();
        flatten(self.store, annotation, Op::Or, &mut disjuncts);
        let mut atoms = Vec::new();
        for d in disjuncts {
            let mut conjuncts = Vec::new();
            flatten(self.store, d, Op::And, &mut conjuncts);
            for c in conjuncts {
                let about_locals = self
                    .store
                    .vars_of(&[c])
                    .into_iter()
                    .all(|v| matches!(self.ph.role(v), Some(Role::Value(..) | Role::Init(..))));
                if about_locals && !atoms.contains(&c) {
                    atoms.push(c);
                }
            }
        }
        atoms
    }

    /// Every path of the loop from its header, or `None` when the loop is beyond this check
    /// (calls, returns, memory checks, too many paths).
    fn body_paths(&mut self) -> Result<Option<Vec<LoopPath>>> {
        let (_, func, header) = self.location;
        let info = &self.info.functions[func.index()];
        let Some(id) = info.loops().loop_of_header(header) else {
            return Ok(None);
        };
        let body = info.loops().get(id);
        let function = &self.module.functions[func.index()];
        let mut values = Vec::with_capacity(function.locals.len());
        for l in 0..function.locals.len() {
            let local = LocalId(l as u32);
            let value = self.ph.value(self.store, self.frame, local)?;
            let init = self.ph.init(self.store, self.frame, local)?;
            values.push((Some(value), init));
        }
        let start = LoopPath {
            locals: PathLocals {
                values,
                cell_backed: info.cell_backed.clone(),
            },
            conditions: Vec::new(),
            checks: Vec::new(),
            left_at: None,
        };
        let mut done = Vec::new();
        let mut work = vec![(header, start)];
        while let Some((block_id, mut path)) = work.pop() {
            if done.len() + work.len() > MAX_PATHS {
                return Ok(None);
            }
            let block = function.block(block_id);
            for inst in &block.insts {
                let env = &mut path.locals;
                match &inst.kind {
                    InstKind::Assign { dst, value } => {
                        let v = semantics::rvalue(self.store, env, value)?;
                        set(self.store, env, *dst, v)?;
                    }
                    InstKind::Store { place, value } => {
                        if let Some(l) = semantics::plain_local(place) {
                            let v = semantics::operand(self.store, env, *value)?;
                            set(self.store, env, l, v)?;
                        }
                    }
                    InstKind::Input { dst } => {
                        let v = self.ph.any_value(self.store)?;
                        set(self.store, env, *dst, Some(v))?;
                    }
                    InstKind::Output(_) => {}
                    InstKind::Check { check, .. } => {
                        match semantics::check_passes(self.store, env, check)? {
                            Some(c) => path.checks.push(c),
                            None => return Ok(None),
                        }
                    }
                    InstKind::Assume(op) => match semantics::condition(self.store, env, *op)? {
                        Some(c) => path.conditions.push(c),
                        None => return Ok(None),
                    },
                    InstKind::Call { .. } => return Ok(None),
                }
            }
            let mut targets: Vec<(BlockId, Option<TermId>)> = Vec::new();
            match block.term {
                Terminator::Goto(t) => targets.push((t, None)),
                Terminator::Branch {
                    cond,
                    then_block,
                    else_block,
                } => {
                    let Some(c) = semantics::condition(self.store, &mut path.locals, cond)? else {
                        return Ok(None);
                    };
                    let not_c = self.store.not(c)?;
                    targets.push((then_block, Some(c)));
                    targets.push((else_block, Some(not_c)));
                }
                Terminator::Return(_) => return Ok(None),
            }
            for (target, condition) in targets {
                if condition.is_some_and(|c| self.store.as_bool(c) == Some(false)) {
                    continue;
                }
                let mut next = LoopPath {
                    locals: path.locals.clone(),
                    conditions: path.conditions.clone(),
                    checks: path.checks.clone(),
                    left_at: None,
                };
                next.conditions.extend(condition);
                let nested = target != header && info.loops().loop_of_header(target).is_some();
                if target == header {
                    done.push(next);
                } else if !body.contains(target) || nested {
                    next.left_at = Some(target);
                    done.push(next);
                } else {
                    work.push((target, next));
                }
            }
        }
        Ok(Some(done))
    }
}

fn set(
    store: &mut TermStore,
    env: &mut PathLocals,
    local: LocalId,
    value: Option<TermId>,
) -> Result<()> {
    if let Some(slot) = env.values.get_mut(local.index()) {
        *slot = (value, store.bool_val(true)?);
    }
    Ok(())
}

/// The arguments of nested `op` applications at the top of `t` (`t` itself if it is not one).
fn flatten(store: &TermStore, t: TermId, op: Op, out: &mut Vec<TermId>) {
    match *store.node(t) {
        Node::App2(o, a, b) if o == op => {
            flatten(store, a, op, out);
            flatten(store, b, op, out);
        }
        _ => out.push(t),
    }
}
