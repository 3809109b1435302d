//! Structure-preserving symbolic execution of one function (thesis ch. 3, Algorithms 1 and 2):
//! the function unwound into an acyclic graph, each block visited once in reverse postorder,
//! every definition built in the hash-consed term store, no path enumerated.
//!
//! The IR is not in SSA form, so every local is an abstract location like the heap: each
//! *location* ([`Loc`]: a local, its "assigned" flag, a heap slot, the next free address, the
//! input cursor, the control-flow context) has an `ExpList` of definitions by block. A read in
//! block `B` restricts `GP(B)` to that list (Definition 6: a predecessor's own definition, else
//! its nearest dominator's); a write replaces the block's definition and schedules a merge of
//! the location at the iterated dominance frontier of `B` (`Merge`, Algorithm 2), where the
//! merge is the same restriction. Locals never read across blocks (most temporaries) get no
//! merges (pruned SSA). Memory is exact: one SMT array per heap slot indexed by cell address,
//! writes are `store`s, so writes through pointers defined by γ need no restriction operator
//! of their own (the array term *is* the thesis's `e|_p^d[Λ ← Def_p]` for every `p` at once).
//!
//! The control-flow context of §3.2 is split in three: each block's *reachability* through
//! branch conditions (a join's is its dominator's and its gating condition, so a join every
//! path from its dominator reaches needs no branch condition at all), the *assumptions* met
//! (a location, `Cfc`), and the *checks passed* (a location, `Passed`: code after a failed
//! check does not run). A check adds `context ∧ ¬cond` to its property's goal. An instruction
//! the engine does not model adds the context to the `Unmodelled` goal and ends the path. Calls become summary operators (fresh variables, one per callee side
//! effect). Nothing here asks a solver.

use std::collections::{BTreeMap, BTreeSet};

use rustc_hash::{FxHashMap, FxHashSet};
use symex_ir::analysis::Dominators;
use symex_ir::cfg::{
    BlockId, Check, FieldId, FuncId, InstKind, LocalId, LocalKind, Module, Operand, Place,
    PlaceBase, Projection, Rvalue, Terminator,
};
use symex_ir::transform::Unwound;
use symex_report::Cut;
use symex_smt::{TermId, TermStore};

use crate::common::budget::Budget;
use crate::common::terms::{self, int_const};
use crate::error::EngineError;
use crate::structural::effects::{CutKind, Effect, Goal, Signatures, Slot};
use crate::structural::gating::{Gating, Gp, GpId};
use crate::structural::summary::{CallRecord, Formals, Summary, Vocabulary};
use crate::structural::value::{Shape, Step as ValStep, Val};

/// An abstract location of one activation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Loc {
    Local(LocalId),
    /// Whether a `var` local has been assigned.
    Assigned(LocalId),
    Heap(Slot),
    Next,
    Cursor,
    /// The assumptions met so far (`assume`, a cut, what callees assume): with the block's
    /// reachability, the condition under which control is here.
    Cfc,
    /// The checks passed so far (a failed check stops the run): kept apart from `Cfc` so that
    /// a callee's checks can be left out of a first, weaker VC (see `refine`).
    Passed,
}

type Step<T> = Result<T, Shape>;

/// Runs Algorithm 1 over `unwound` (function `func` of `module`) and returns its summary, or
/// the limit that ran out (`budget` is checked at every block: a function unwound into
/// hundreds of thousands of blocks took minutes past the time limit).
#[allow(clippy::too_many_arguments)]
pub fn summarize(
    module: &Module,
    sigs: &Signatures,
    known: &[Option<Summary>],
    vocab: &Vocabulary,
    store: &mut TermStore,
    func: FuncId,
    unwound: &Unwound,
    budget: &Budget,
) -> Result<Result<Summary, Cut>, EngineError> {
    let name = &module.function(func).name;
    let f = &unwound.func;
    let mut params = Vec::new();
    for p in f.params() {
        let bits = f.local(p).width.bits();
        params.push(store.bv_var(format!("{name}.{}", f.local(p).name), bits)?);
    }
    let mut heap = Vec::new();
    for &slot in &sigs.slots {
        let sort = vocab.word_array;
        heap.push((slot, store.var(format!("{name}.heap{slot:?}"), sort)?));
    }
    let formals = Formals {
        params,
        heap,
        next: store.bv_var(format!("{name}.next"), terms::WIDTH)?,
        cursor: store.bv_var(format!("{name}.cursor"), terms::WIDTH)?,
    };
    let dom = Dominators::compute(f);
    let preds = f.predecessors();
    let gating = Gating::new(f, &dom, &preds)?;
    let frontiers = dom.frontiers();
    let exec = Exec {
        module,
        sigs,
        known,
        vocab,
        store,
        func,
        unwound,
        dom,
        preds,
        gating,
        idf: iterated_frontiers(&frontiers),
        exposed: exposed_locals(unwound),
        merges: vec![BTreeSet::new(); f.blocks.len()],
        explist: FxHashMap::default(),
        current: FxHashMap::default(),
        written: BTreeSet::new(),
        conds: vec![None; f.blocks.len()],
        reach: vec![None; f.blocks.len()],
        gp_conds: FxHashMap::default(),
        block: BlockId(0),
        addresses: FxHashMap::default(),
        goals: BTreeMap::new(),
        calls: Vec::new(),
        operators: FxHashMap::default(),
        unmodelled: BTreeSet::new(),
        formals,
    };
    exec.run(budget)
}

struct Exec<'a> {
    module: &'a Module,
    sigs: &'a Signatures,
    /// The summaries made so far (callees before callers, recursion aside).
    known: &'a [Option<Summary>],
    vocab: &'a Vocabulary,
    store: &'a mut TermStore,
    func: FuncId,
    unwound: &'a Unwound,
    dom: Dominators,
    preds: Vec<Vec<BlockId>>,
    gating: Gating,
    idf: Vec<Vec<BlockId>>,
    /// Locals read in some block before that block assigns them: the only ones merged.
    exposed: FxHashSet<LocalId>,
    /// `Merge[B]`: the locations to merge when `B` is entered.
    merges: Vec<BTreeSet<Loc>>,
    /// `ExpList`: per location, the definition each block leaves.
    explist: FxHashMap<Loc, FxHashMap<BlockId, Val>>,
    /// The locations' values in the current block (reads are cached here too).
    current: FxHashMap<Loc, Val>,
    /// The locations the current block defines.
    written: BTreeSet<Loc>,
    /// Each branching block's condition, as a Boolean.
    conds: Vec<Option<TermId>>,
    /// Each block's reachability from the entry through branch conditions: for a join,
    /// its dominator's and the condition of its gating path expression, so a join that every
    /// path from its dominator reaches is exactly as reachable as the dominator.
    reach: Vec<Option<TermId>>,
    /// The condition under which a gating path expression leads to its block.
    gp_conds: FxHashMap<GpId, TermId>,
    block: BlockId,
    /// Cell addresses of address-taken locals.
    addresses: FxHashMap<LocalId, TermId>,
    goals: BTreeMap<Goal, Vec<TermId>>,
    calls: Vec<CallRecord>,
    operators: FxHashMap<TermId, (usize, Effect)>,
    unmodelled: BTreeSet<String>,
    formals: Formals,
}

impl Exec<'_> {
    fn run(mut self, budget: &Budget) -> Result<Result<Summary, Cut>, EngineError> {
        let f = &self.unwound.func;
        let address_taken: Vec<LocalId> = f
            .local_ids()
            .filter(|&l| f.local(l).address_taken)
            .collect();
        for (i, &l) in address_taken.iter().enumerate() {
            let offset = int_const(self.store, i as i32)?;
            let addr = self.store.bv_add(self.formals.next, offset)?;
            self.addresses.insert(l, addr);
        }
        let cuts: FxHashSet<BlockId> = self.unwound.cuts.iter().copied().collect();
        for b in f.block_ids() {
            if let Some(cut) = budget.exhausted() {
                return Ok(Err(cut));
            }
            self.block = b;
            // First: the entry's cells and the merges may ask whether control is here (a load
            // through a pointer adds its goal under the block's context).
            self.reach[b.index()] = Some(self.block_reach()?);
            if b == symex_ir::cfg::Function::ENTRY {
                self.lift(|this| this.enter_function(&address_taken))?;
            }
            self.perform_merges()?;
            if cuts.contains(&b) {
                let here = self.context().map_err(into_engine)?;
                self.add_goal(Goal::Cut(CutKind::Unwind), here);
            }
            let unwound = self.unwound;
            let block = &unwound.func.blocks[b.index()];
            for inst in &block.insts {
                self.lift(|this| this.instruction(&inst.kind))?;
            }
            self.lift(|this| this.terminator(&block.term))?;
            if b != self.unwound.exit {
                self.leave_block();
            }
        }
        self.finish().map(Ok)
    }

    /// Runs one step; a construct the engine does not model ends the path there (a cut).
    fn lift(&mut self, step: impl FnOnce(&mut Self) -> Step<()>) -> Result<(), EngineError> {
        match step(self) {
            Ok(()) => Ok(()),
            Err(Shape::Engine(e)) => Err(e),
            Err(Shape::Unmodelled(reason)) => self.cut_unmodelled(reason),
        }
    }

    /// Ends the path here at a construct the engine does not model: a cut, and no run goes on.
    fn cut_unmodelled(&mut self, reason: String) -> Result<(), EngineError> {
        let here = self.context().map_err(into_engine)?;
        self.add_goal(Goal::Cut(CutKind::Unmodelled), here);
        let no = self.store.bool_val(false)?;
        self.write(Loc::Cfc, Val::Term(no));
        self.unmodelled.insert(reason);
        Ok(())
    }

    fn finish(mut self) -> Result<Summary, EngineError> {
        let mut effects = BTreeMap::new();
        // A record returned, or values of different shapes merged into the result (null on
        // one path, a C pointer into an array on another): the callers cannot use it.
        let ret = match self.read(Loc::Local(self.unwound.ret)) {
            Ok(value) => value
                .word(self.store)
                .map_err(|_| Shape::Unmodelled("a record returned from a function".into())),
            Err(shape) => Err(shape),
        };
        let ret = match ret {
            Ok(t) => t,
            Err(Shape::Engine(e)) => return Err(e),
            Err(Shape::Unmodelled(reason)) => {
                self.cut_unmodelled(reason)?;
                int_const(self.store, 0)?
            }
        };
        let assumed = self.cfc().map_err(into_engine)?;
        let reach = self.reach[self.unwound.exit.index()].unwrap_or(assumed);
        let returns = self.store.and(reach, assumed)?;
        let passed = self.term(Loc::Passed).map_err(into_engine)?;
        for effect in self.sigs.effects(self.func) {
            let root = match effect {
                Effect::Ret => ret,
                Effect::Cfc => returns,
                Effect::Passed => passed,
                Effect::Heap(slot) => self.term(Loc::Heap(slot)).map_err(into_engine)?,
                Effect::Next => self.term(Loc::Next).map_err(into_engine)?,
                Effect::Cursor => self.term(Loc::Cursor).map_err(into_engine)?,
                Effect::Goal(goal) => match self.goals.get(&goal) {
                    Some(parts) => self.store.or_all(parts)?,
                    None => self.store.bool_val(false)?,
                },
            };
            effects.insert(effect, root);
        }
        Ok(Summary {
            formals: self.formals,
            effects,
            calls: self.calls,
            operators: self.operators,
            unmodelled: self.unmodelled,
        })
    }

    // ----- locations -------------------------------------------------------------------------

    fn read(&mut self, loc: Loc) -> Step<Val> {
        if let Some(v) = self.current.get(&loc) {
            return Ok(v.clone());
        }
        let v = match self.gating.of(self.block) {
            None => self.initial(loc)?,
            Some(gp) => {
                let mut memo = FxHashMap::default();
                self.restrict(gp, loc, &mut memo)?.unwrap_or(Val::Uninit)
            }
        };
        self.current.insert(loc, v.clone());
        Ok(v)
    }

    fn term(&mut self, loc: Loc) -> Step<TermId> {
        let v = self.read(loc)?;
        v.word(self.store)
    }

    fn write(&mut self, loc: Loc, v: Val) {
        self.current.insert(loc, v);
        self.written.insert(loc);
    }

    /// `GP(B)|_ExpList[loc]` (Definition 6); `None` for ∅.
    fn restrict(
        &mut self,
        gp: GpId,
        loc: Loc,
        memo: &mut FxHashMap<GpId, Option<Val>>,
    ) -> Step<Option<Val>> {
        if let Some(v) = memo.get(&gp) {
            return Ok(v.clone());
        }
        let v = match self.gating.node(gp) {
            Gp::Empty => None,
            Gp::Pred(p) => Some(self.reaching(p, loc)?),
            Gp::Gamma {
                branch,
                then,
                otherwise,
            } => {
                let a = self.restrict(then, loc, memo)?;
                let b = self.restrict(otherwise, loc, memo)?;
                match (a, b) {
                    (Some(a), Some(b)) => {
                        let c = self.conds[branch.index()].ok_or_else(|| {
                            EngineError::Internal("a gating condition not yet computed".into())
                        })?;
                        Some(Val::ite(self.store, c, &a, &b)?)
                    }
                    (a, None) => a,
                    (None, b) => b,
                }
            }
        };
        memo.insert(gp, v.clone());
        Ok(v)
    }

    /// The definition of `loc` at the end of `p`: `p`'s own, else its nearest dominator's.
    fn reaching(&mut self, p: BlockId, loc: Loc) -> Step<Val> {
        let mut at = Some(p);
        while let Some(d) = at {
            if let Some(v) = self.explist.get(&loc).and_then(|defs| defs.get(&d)) {
                return Ok(v.clone());
            }
            at = self.dom.idom(d);
        }
        self.initial(loc)
    }

    /// What a location holds on entry (the thesis initializes lazily, as here).
    fn initial(&mut self, loc: Loc) -> Step<Val> {
        let f = &self.unwound.func;
        Ok(match loc {
            Loc::Local(l) if l.0 < f.param_count => Val::Term(self.formals.params[l.index()]),
            Loc::Local(_) => Val::Uninit,
            Loc::Assigned(l) => {
                let assigned = f
                    .locals
                    .get(l.index())
                    .is_none_or(|i| i.kind != LocalKind::Var);
                Val::Term(self.store.bool_val(assigned)?)
            }
            Loc::Heap(slot) => Val::Term(
                self.formals
                    .heap(slot)
                    .ok_or_else(|| EngineError::Internal(format!("no heap formal for {slot:?}")))?,
            ),
            Loc::Next => {
                let cells = int_const(self.store, self.addresses.len() as i32)?;
                Val::Term(self.store.bv_add(self.formals.next, cells)?)
            }
            Loc::Cursor => Val::Term(self.formals.cursor),
            Loc::Cfc | Loc::Passed => Val::Term(self.store.bool_val(true)?),
        })
    }

    /// Algorithm 2: the locations scheduled for this block get one merged definition here.
    fn perform_merges(&mut self) -> Result<(), EngineError> {
        let scheduled = std::mem::take(&mut self.merges[self.block.index()]);
        for loc in scheduled {
            let merged = self.lift(|this| {
                let v = this.read(loc)?;
                this.write(loc, v);
                Ok(())
            });
            merged?;
        }
        Ok(())
    }

    /// Records the block's definitions and schedules their merges at `DF(B)^+`.
    fn leave_block(&mut self) {
        let b = self.block;
        for loc in std::mem::take(&mut self.written) {
            let Some(v) = self.current.get(&loc).cloned() else {
                continue;
            };
            self.explist.entry(loc).or_default().insert(b, v);
            let merged = match loc {
                Loc::Local(l) | Loc::Assigned(l) => self.exposed.contains(&l),
                _ => true,
            };
            if merged {
                for &x in &self.idf[b.index()] {
                    self.merges[x.index()].insert(loc);
                }
            }
        }
        self.current.clear();
    }

    fn cfc(&mut self) -> Step<TermId> {
        self.term(Loc::Cfc)
    }

    fn assume(&mut self, cond: TermId) -> Step<()> {
        self.conjoin(Loc::Cfc, cond)
    }

    fn conjoin(&mut self, loc: Loc, cond: TermId) -> Step<()> {
        let old = self.term(loc)?;
        let both = self.store.and(old, cond)?;
        self.write(loc, Val::Term(both));
        Ok(())
    }

    /// Whether control is here: the block is reached, its assumptions hold and its checks
    /// passed.
    fn context(&mut self) -> Step<TermId> {
        let reach = self.reach[self.block.index()].ok_or_else(|| {
            EngineError::Internal("a block's reachability not yet computed".into())
        })?;
        let assumed = self.cfc()?;
        let passed = self.term(Loc::Passed)?;
        let both = self.store.and(assumed, passed)?;
        Ok(self.store.and(reach, both)?)
    }

    fn add_goal(&mut self, goal: Goal, cond: TermId) {
        if self.store.as_bool(cond) == Some(false) {
            return;
        }
        self.goals.entry(goal).or_default().push(cond);
    }

    // ----- blocks ----------------------------------------------------------------------------

    /// The cells of address-taken locals: a parameter's holds the argument.
    fn enter_function(&mut self, address_taken: &[LocalId]) -> Step<()> {
        let f = &self.unwound.func;
        for &l in address_taken {
            let addr = self.addresses[&l];
            if l.0 < f.param_count {
                let v = Val::Term(self.formals.params[l.index()]);
                self.store_through(addr, &[], v)?;
            } else {
                if self.sigs.tracks_init {
                    let no = int_const(self.store, 0)?;
                    self.update_slot(Slot::Init, addr, no)?;
                }
            }
        }
        Ok(())
    }

    /// The block's reachability: the entry's is true; a single predecessor's, with the branch
    /// taken to get here (targets of branches have one predecessor); a join's, its immediate
    /// dominator's and the condition of its gating path expression.
    fn block_reach(&mut self) -> Result<TermId, EngineError> {
        let b = self.block;
        let preds = &self.preds[b.index()];
        let reach_of = |this: &Self, p: BlockId| {
            this.reach[p.index()].ok_or_else(|| {
                EngineError::Internal("a predecessor's reachability not yet computed".into())
            })
        };
        match preds.as_slice() {
            [] => Ok(self.store.bool_val(true)?),
            [p] => {
                let p = *p;
                let before = reach_of(self, p)?;
                let Terminator::Branch { then_block, .. } =
                    self.unwound.func.blocks[p.index()].term
                else {
                    return Ok(before);
                };
                let c = self.branch_cond(p)?;
                let c = if then_block == b {
                    c
                } else {
                    self.store.not(c)?
                };
                Ok(self.store.and(before, c)?)
            }
            _ => {
                let d = self
                    .dom
                    .idom(b)
                    .ok_or_else(|| EngineError::Internal("a join without a dominator".into()))?;
                let before = reach_of(self, d)?;
                let gp = self
                    .gating
                    .of(b)
                    .ok_or_else(|| EngineError::Internal("a join without a gating path".into()))?;
                let leads = self.gp_cond(gp)?;
                Ok(self.store.and(before, leads)?)
            }
        }
    }

    fn branch_cond(&self, p: BlockId) -> Result<TermId, EngineError> {
        self.conds[p.index()]
            .ok_or_else(|| EngineError::Internal("a branch condition not yet computed".into()))
    }

    /// The condition under which a gating path expression reaches a predecessor (not ∅).
    fn gp_cond(&mut self, gp: GpId) -> Result<TermId, EngineError> {
        if let Some(&c) = self.gp_conds.get(&gp) {
            return Ok(c);
        }
        let c = match self.gating.node(gp) {
            Gp::Empty => self.store.bool_val(false)?,
            Gp::Pred(_) => self.store.bool_val(true)?,
            Gp::Gamma {
                branch,
                then,
                otherwise,
            } => {
                let a = self.gp_cond(then)?;
                let b = self.gp_cond(otherwise)?;
                let c = self.branch_cond(branch)?;
                self.store.ite(c, a, b)?
            }
        };
        self.gp_conds.insert(gp, c);
        Ok(c)
    }

    fn terminator(&mut self, term: &Terminator) -> Step<()> {
        if let Terminator::Branch { cond, .. } = term {
            let w = self.word(*cond)?;
            let c = terms::truth(self.store, w)?;
            self.conds[self.block.index()] = Some(c);
        }
        Ok(())
    }

    // ----- instructions ----------------------------------------------------------------------

    fn instruction(&mut self, inst: &InstKind) -> Step<()> {
        match inst {
            InstKind::Assign { dst, value } => {
                let v = match (value, self.rvalue(value)?) {
                    // A heap word read into a narrower local keeps its low bits (only reads of
                    // memory: a mismatch elsewhere is a front end's error, not truncated).
                    (Rvalue::Read(place), Val::Term(t)) if self.in_heap(place) => {
                        let bits = self.unwound.func.local(*dst).width.bits();
                        Val::Term(self.fit(t, bits)?)
                    }
                    (_, v) => v,
                };
                self.assign(*dst, v)
            }
            InstKind::Store { place, value } => {
                let v = self.operand(*value)?;
                self.store_place(place, v)
            }
            InstKind::Call { dst, func, args } => self.call(*dst, *func, args),
            InstKind::Input { dst } => {
                let cursor = self.term(Loc::Cursor)?;
                let v = self.store.select(self.vocab.input, cursor)?;
                let one = int_const(self.store, 1)?;
                let next = self.store.bv_add(cursor, one)?;
                self.write(Loc::Cursor, Val::Term(next));
                self.assign(*dst, Val::Term(v))
            }
            InstKind::Output(op) => self.operand(*op).map(|_| ()),
            InstKind::Assume(op) => {
                let w = self.word(*op)?;
                let c = terms::truth(self.store, w)?;
                self.assume(c)
            }
            InstKind::Check { check, prop } => {
                let holds = self.check(check)?;
                let here = self.context()?;
                let fails = self.store.not(holds)?;
                let failing = self.store.and(fails, here)?;
                self.add_goal(Goal::Fail(*prop), failing);
                self.conjoin(Loc::Passed, holds)
            }
        }
    }

    fn check(&mut self, check: &Check) -> Step<TermId> {
        Ok(match check {
            Check::Assert(op) | Check::Condition { holds: op, .. } => {
                let w = self.word(*op)?;
                terms::truth(self.store, w)?
            }
            Check::NonZero(op) | Check::NonNull(op) => {
                let w = self.word(*op)?;
                let zero = terms::zero_like(self.store, w)?;
                self.store.neq(w, zero)?
            }
            Check::Init(place) => match (place.base, self.cell_of_local(place)) {
                (PlaceBase::Local(l), Some(_)) if !self.sigs.tracks_init => {
                    self.term(Loc::Assigned(l))?
                }
                (_, Some(addr)) => self.assigned_cell(addr)?,
                (PlaceBase::Local(l), None) => self.term(Loc::Assigned(l))?,
                (PlaceBase::Deref(p), None) => {
                    let p = self.word(p)?;
                    self.assigned_cell(p)?
                }
            },
            Check::Reach => self.store.bool_val(false)?,
            Check::InBounds { array, index } => {
                if self.cell_of_local(array).is_some() || matches!(array.base, PlaceBase::Deref(_))
                {
                    return Err(unmodelled("arrays in memory cells"));
                }
                let len = self.load(array)?.len()?;
                let i = self.word(*index)?;
                let zero = int_const(self.store, 0)?;
                let end = int_const(self.store, i32::try_from(len).unwrap_or(i32::MAX))?;
                let above = self.store.bv_sge(i, zero)?;
                let below = self.store.bv_slt(i, end)?;
                self.store.and(above, below)?
            }
        })
    }

    fn call(&mut self, dst: LocalId, callee: FuncId, args: &[Operand]) -> Step<()> {
        if args.len() != self.module.function(callee).param_count as usize {
            return Err(unmodelled("a call with the wrong number of arguments"));
        }
        let here = self.context()?;
        let mut actuals = Vec::new();
        for &a in args {
            actuals.push(
                self.word(a)
                    .map_err(|_| unmodelled("a record passed as an argument"))?,
            );
        }
        for &slot in &self.sigs.slots {
            actuals.push(self.term(Loc::Heap(slot))?);
        }
        actuals.push(self.term(Loc::Next)?);
        actuals.push(self.term(Loc::Cursor)?);
        let site = self.calls.len();
        let caller = &self.module.function(self.func).name;
        let callee_name = &self.module.function(callee).name;
        let mut results = BTreeMap::new();
        for effect in self.sigs.effects(callee) {
            // A side effect whose summary is already known to be a constant or one of the
            // callee's own inputs needs no operator: the caller uses it directly.
            if let Some(known) = self.known_effect(callee, effect, &actuals) {
                results.insert(effect, known);
                continue;
            }
            let name = format!("{callee_name}:{}@{caller}#{site}", effect.name(self.module));
            let returned = self.module.function(callee).returned_width();
            let sort = self.vocab.effect_sort(effect, returned.unwrap_or_default());
            let v = self.store.var(name, sort)?;
            results.insert(effect, v);
            self.operators.insert(v, (site, effect));
        }
        for (&effect, &v) in &results {
            match effect {
                Effect::Heap(slot) => self.write(Loc::Heap(slot), Val::Term(v)),
                Effect::Next => self.write(Loc::Next, Val::Term(v)),
                Effect::Cursor => self.write(Loc::Cursor, Val::Term(v)),
                Effect::Goal(goal) => {
                    let met = self.store.and(here, v)?;
                    self.add_goal(goal, met);
                }
                Effect::Cfc => self.assume(v)?,
                // The callee's checks count only in strict VCs (`refine`).
                Effect::Passed => {
                    let checked = self.store.implies(self.vocab.strict, v)?;
                    self.conjoin(Loc::Passed, checked)?;
                }
                Effect::Ret => {}
            }
        }
        self.calls.push(CallRecord { callee, actuals });
        let ret = results
            .get(&Effect::Ret)
            .copied()
            .ok_or_else(|| EngineError::Internal("a callee without a return effect".into()))?;
        self.assign(dst, Val::Term(ret))
    }

    /// The callee's side effect as the caller's term, when its summary (made before this
    /// function's, callees first) is a constant or a formal input.
    fn known_effect(
        &mut self,
        callee: FuncId,
        effect: Effect,
        actuals: &[TermId],
    ) -> Option<TermId> {
        let summary = self.known.get(callee.index())?.as_ref()?;
        let root = *summary.effects.get(&effect)?;
        if self.store.node(root).is_const() {
            return Some(root);
        }
        let position = summary.formals.all().iter().position(|&f| f == root)?;
        actuals.get(position).copied()
    }

    // ----- values ----------------------------------------------------------------------------

    fn operand(&mut self, op: Operand) -> Step<Val> {
        Ok(match op {
            Operand::Const(n) => Val::Term(int_const(self.store, n)?),
            Operand::Const64(n) => Val::Term(terms::int64_const(self.store, n)?),
            Operand::Null => Val::Term(int_const(self.store, 0)?),
            Operand::Local(l) => match self.addresses.get(&l) {
                Some(&addr) => self.load_through(addr, &[])?,
                None => self.read(Loc::Local(l))?,
            },
        })
    }

    /// The number or pointer `op` holds (an uninitialized local's, which only paths its `Init`
    /// check stopped read, is 0 of the local's width).
    fn word(&mut self, op: Operand) -> Step<TermId> {
        let v = self.operand(op)?;
        let w = v.word(self.store)?;
        match (op, v) {
            (Operand::Local(l), Val::Uninit) => {
                self.fit(w, self.unwound.func.local(l).width.bits())
            }
            _ => Ok(w),
        }
    }

    /// Whether `place` is in a heap cell, whose words may be wider than the reader's numbers.
    fn in_heap(&self, place: &Place) -> bool {
        self.cell_of_local(place).is_some() || matches!(place.base, PlaceBase::Deref(_))
    }

    /// `t` at `bits`: its low bits (a heap word read by a narrower reader), or zero-extended
    /// (a narrower value stored into a heap word, an uninitialized local's 0).
    fn fit(&mut self, t: TermId, bits: u32) -> Step<TermId> {
        let width = terms::width(self.store, t);
        Ok(match width.cmp(&bits) {
            std::cmp::Ordering::Equal => t,
            std::cmp::Ordering::Greater => self.store.extract(bits - 1, 0, t)?,
            std::cmp::Ordering::Less => self.store.zero_extend(bits - width, t)?,
        })
    }

    fn rvalue(&mut self, value: &Rvalue) -> Step<Val> {
        Ok(match value {
            Rvalue::Use(a) => self.operand(*a)?,
            Rvalue::Unary(op, a) => {
                let a = self.word(*a)?;
                Val::Term(terms::unary(self.store, *op, a)?)
            }
            Rvalue::Binary(op, a, b) => {
                let a = self.word(*a)?;
                let b = self.word(*b)?;
                Val::Term(terms::binary(self.store, *op, a, b)?)
            }
            Rvalue::Alloc(a) => {
                let v = self.operand(*a)?;
                let addr = self.term(Loc::Next)?;
                let one = int_const(self.store, 1)?;
                let next = self.store.bv_add(addr, one)?;
                self.write(Loc::Next, Val::Term(next));
                self.store_through(addr, &[], v)?;
                Val::Term(addr)
            }
            Rvalue::AddrOf(l) => Val::Term(
                *self
                    .addresses
                    .get(l)
                    .ok_or_else(|| unmodelled("the address of a local not marked address-taken"))?,
            ),
            Rvalue::Record(fields) => {
                let mut values: Vec<(FieldId, Val)> = Vec::with_capacity(fields.len());
                for &(f, a) in fields {
                    let v = self.operand(a)?;
                    if matches!(v, Val::Record(_)) {
                        return Err(unmodelled("a record inside a record"));
                    }
                    values.push((f, v));
                }
                Val::Record(values.into())
            }
            Rvalue::Array(items) => {
                let mut values = Vec::with_capacity(items.len());
                for &a in items {
                    values.push(self.operand(a)?);
                }
                Val::Array(values.into())
            }
            Rvalue::Read(place) => self.load(place)?,
            Rvalue::Len(place) => match self.load(place)? {
                Val::Array(items) => Val::Term(int_const(self.store, items.len() as i32)?),
                _ => return Err(unmodelled("the length of an array that is not one value")),
            },
            Rvalue::Unreached(_) | Rvalue::LiveObjects => {
                return Err(unmodelled("the heap objects left (memory leaks)"))
            }
        })
    }

    /// The cell address of a place whose base is an address-taken local.
    fn cell_of_local(&self, place: &Place) -> Option<TermId> {
        match place.base {
            PlaceBase::Local(l) => self.addresses.get(&l).copied(),
            PlaceBase::Deref(_) => None,
        }
    }

    fn load(&mut self, place: &Place) -> Step<Val> {
        if let Some(addr) = self.cell_of_local(place) {
            return self.load_through(addr, &place.projections);
        }
        match place.base {
            PlaceBase::Local(l) => {
                let v = self.read(Loc::Local(l))?;
                let steps = self.steps(&place.projections)?;
                v.project(self.store, &steps)
            }
            PlaceBase::Deref(p) => {
                let p = self.word(p)?;
                self.load_through(p, &place.projections)
            }
        }
    }

    /// Projections with their indices evaluated.
    fn steps(&mut self, projections: &[Projection]) -> Step<Vec<ValStep>> {
        projections
            .iter()
            .map(|proj| {
                Ok(match proj {
                    Projection::Field(f) => ValStep::Field(*f),
                    Projection::Index(i) => ValStep::Index(self.word(*i)?),
                })
            })
            .collect()
    }

    fn load_through(&mut self, addr: TermId, projections: &[Projection]) -> Step<Val> {
        match projections {
            [] => {
                if self.sigs.records_in_cells {
                    // A cell read whole must hold a plain value here: a record read whole
                    // through a pointer is not modelled.
                    let shape = self.select(Slot::Shape, addr)?;
                    let zero = terms::zero_like(self.store, shape)?;
                    let plain = self.store.eq(shape, zero)?;
                    let here = self.context()?;
                    let other = self.store.not(plain)?;
                    let record = self.store.and(here, other)?;
                    self.add_goal(Goal::Cut(CutKind::Unmodelled), record);
                    if self.store.as_bool(record) != Some(false) {
                        self.unmodelled
                            .insert("a record read whole through a pointer".into());
                    }
                    self.assume(plain)?;
                }
                Ok(Val::Term(self.select(Slot::Cell, addr)?))
            }
            [Projection::Field(f)] => Ok(Val::Term(self.select(Slot::Field(*f), addr)?)),
            _ => Err(unmodelled("arrays in memory cells")),
        }
    }

    /// Whether the cell at `addr` has been assigned.
    fn assigned_cell(&mut self, addr: TermId) -> Step<TermId> {
        if !self.sigs.tracks_init {
            return Ok(self.store.bool_val(true)?);
        }
        let flag = self.select(Slot::Init, addr)?;
        Ok(terms::truth(self.store, flag)?)
    }

    fn select(&mut self, slot: Slot, addr: TermId) -> Step<TermId> {
        let array = self.term(Loc::Heap(slot))?;
        Ok(self.store.select(array, addr)?)
    }

    fn update_slot(&mut self, slot: Slot, addr: TermId, value: TermId) -> Step<()> {
        let value = self.fit(value, self.vocab.heap_word)?;
        let array = self.term(Loc::Heap(slot))?;
        let updated = self.store.store(array, addr, value)?;
        self.write(Loc::Heap(slot), Val::Term(updated));
        Ok(())
    }

    fn assign(&mut self, dst: LocalId, v: Val) -> Step<()> {
        self.store_place(&Place::local(dst), v)
    }

    fn store_place(&mut self, place: &Place, v: Val) -> Step<()> {
        if let Some(addr) = self.cell_of_local(place) {
            if let PlaceBase::Local(l) = place.base {
                if self.unwound.func.local(l).kind == LocalKind::Var {
                    let yes = self.store.bool_val(true)?;
                    self.write(Loc::Assigned(l), Val::Term(yes));
                }
            }
            return self.store_through(addr, &place.projections, v);
        }
        match place.base {
            PlaceBase::Local(l) => {
                let v = if place.projections.is_empty() {
                    v
                } else {
                    let steps = self.steps(&place.projections)?;
                    let old = self.read(Loc::Local(l))?;
                    old.update(self.store, &steps, v)?
                };
                self.write(Loc::Local(l), v);
                if self.unwound.func.local(l).kind == LocalKind::Var {
                    let yes = self.store.bool_val(true)?;
                    self.write(Loc::Assigned(l), Val::Term(yes));
                }
                Ok(())
            }
            PlaceBase::Deref(p) => {
                let p = self.word(p)?;
                self.store_through(p, &place.projections, v)
            }
        }
    }

    fn store_through(&mut self, addr: TermId, projections: &[Projection], v: Val) -> Step<()> {
        match projections {
            [] => {
                let shape = match &v {
                    Val::Record(fields) => {
                        for (f, fv) in fields.iter() {
                            let w = fv.word(self.store)?;
                            self.update_slot(Slot::Field(*f), addr, w)?;
                        }
                        1
                    }
                    other => {
                        let w = other.word(self.store)?;
                        self.update_slot(Slot::Cell, addr, w)?;
                        0
                    }
                };
                if self.sigs.records_in_cells {
                    let s = int_const(self.store, shape)?;
                    self.update_slot(Slot::Shape, addr, s)?;
                }
                if !self.sigs.tracks_init {
                    return Ok(());
                }
                let yes = int_const(self.store, 1)?;
                self.update_slot(Slot::Init, addr, yes)
            }
            [Projection::Field(f)] => {
                let w = v.word(self.store)?;
                self.update_slot(Slot::Field(*f), addr, w)
            }
            _ => Err(unmodelled("arrays in memory cells")),
        }
    }
}

fn unmodelled(what: &str) -> Shape {
    Shape::Unmodelled(what.to_string())
}

fn into_engine(shape: Shape) -> EngineError {
    match shape {
        Shape::Engine(e) => e,
        Shape::Unmodelled(what) => EngineError::Internal(format!("unexpected unmodelled {what}")),
    }
}

/// `DF(B)^+` of every block.
fn iterated_frontiers(frontiers: &[Vec<BlockId>]) -> Vec<Vec<BlockId>> {
    (0..frontiers.len())
        .map(|b| {
            let mut seen = FxHashSet::default();
            let mut work: Vec<BlockId> = frontiers[b].clone();
            let mut out = Vec::new();
            while let Some(x) = work.pop() {
                if seen.insert(x) {
                    out.push(x);
                    work.extend(frontiers[x.index()].iter().copied());
                }
            }
            out.sort();
            out
        })
        .collect()
}

/// Locals some block reads before assigning them (the ones whose definitions must be merged).
fn exposed_locals(unwound: &Unwound) -> FxHashSet<LocalId> {
    let mut exposed = FxHashSet::default();
    for block in &unwound.func.blocks {
        let mut assigned = FxHashSet::default();
        let mut read = |l: LocalId, assigned: &FxHashSet<LocalId>| {
            if !assigned.contains(&l) {
                exposed.insert(l);
            }
        };
        for inst in &block.insts {
            inst.kind.for_each_operand(|op| {
                if let Operand::Local(l) = op {
                    read(l, &assigned);
                }
            });
            let place_base = match &inst.kind {
                InstKind::Assign {
                    value: Rvalue::Read(place),
                    ..
                } => place.base_local(),
                InstKind::Check {
                    check: Check::Init(place) | Check::InBounds { array: place, .. },
                    ..
                } => place.base_local(),
                InstKind::Store { place, .. } if !place.projections.is_empty() => {
                    place.base_local()
                }
                _ => None,
            };
            if let Some(l) = place_base {
                read(l, &assigned);
            }
            if let Some(l) = inst.kind.defined_local() {
                assigned.insert(l);
            }
        }
        if let Some(Operand::Local(l)) = block.term.operand() {
            read(l, &assigned);
        }
    }
    exposed
}
