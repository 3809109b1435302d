//! Where the heap models of `crate::heap` enter the forward engine (entries with pointer
//! parameters only).
//!
//! Before an instruction runs, `prepare_heap_access` does what the model needs for it:
//! lazy initialization and lazier# resolve the input references the instruction compares or
//! dereferences (one successor per case; the instruction then runs in every successor), and
//! every model refines the objects a dereference reaches (POSE binds symbols and initializes
//! slots without forking). Lazy initialization also resolves a reference as soon as it is
//! loaded from an input object. A reference may be an `ite` term (a merged pointer or record
//! field, an element read at a symbolic index): the symbols at its leaves are resolved one
//! after the other, and a resolution replaces its symbol inside such terms too, so that every
//! leaf of a dereferenced reference is an object's identity or null before the access.
//! During the instruction, reads and writes through input references go to the heap model
//! (`read_through`, `write_input`). Nothing here checks properties or chooses states.

use rustc_hash::{FxHashMap, FxHashSet};

use symex_ir::cfg::{BinOp, Check, Inst, InstKind, Operand, Place, PlaceBase, Rvalue};
use symex_smt::{TermId, TermStore};

use crate::common::options::HeapModel;
use crate::error::EngineError;
use crate::forward::machine::{End, Machine, Outcome};
use crate::forward::state::{replace_locals, State};
use crate::forward::value::{address, Step, SymValue};
use crate::heap::{leaves, resolve_substitute, Access, Refined, Resolution};

type Result<T> = std::result::Result<T, EngineError>;

fn no_model() -> EngineError {
    EngineError::Internal("a heap access without a heap model".into())
}

/// What an instruction does with an input reference, for the resolution rules.
enum Use<'i> {
    /// Dereferences the operand (a place base or a null check).
    Deref(Operand, Option<&'i Place>, Access),
    /// Compares two operands.
    Compare(Operand, Operand),
}

impl Machine<'_> {
    /// The pointer a place goes through, if it may be an input reference.
    pub fn input_pointer(&mut self, state: &State, base: &PlaceBase) -> Result<Option<SymValue>> {
        if self.heap.is_none() {
            return Ok(None);
        }
        let PlaceBase::Deref(op) = *base else {
            return Ok(None);
        };
        let pointer = self.operand(state, op)?;
        Ok(pointer.has_ref().then_some(pointer))
    }

    /// The value at `steps` below what `pointer` points to (cells and input objects alike).
    pub fn read_through(
        &mut self,
        state: &State,
        pointer: &SymValue,
        steps: &[Step],
    ) -> Result<SymValue> {
        Ok(self
            .read_through_opt(state, pointer, steps, &mut FxHashMap::default())?
            .unwrap_or(SymValue::Uninit))
    }

    /// Each shared `ite` node of `pointer` is read once (see `value::address`).
    fn read_through_opt(
        &mut self,
        state: &State,
        pointer: &SymValue,
        steps: &[Step],
        memo: &mut FxHashMap<usize, Option<SymValue>>,
    ) -> Result<Option<SymValue>> {
        if let Some(known) = memo.get(&address(pointer)) {
            return Ok(known.clone());
        }
        let value = match pointer {
            SymValue::Ref(t) => {
                let ctx = self.heap.as_ref().ok_or_else(no_model)?;
                ctx.read(&mut self.store, &state.heap, *t, steps)?
            }
            SymValue::Cell(cell) => Some(state.memory.get(*cell)?.project(steps, &mut self.store)?),
            SymValue::Ite(c, a, b) => match (
                self.read_through_opt(state, a, steps, memo)?,
                self.read_through_opt(state, b, steps, memo)?,
            ) {
                (Some(x), Some(y)) => Some(SymValue::ite(&mut self.store, *c, x, y)?),
                (x, None) => x,
                (None, y) => y,
            },
            _ => None,
        };
        memo.insert(address(pointer), value.clone());
        Ok(value)
    }

    /// Writes `value` at `steps` through the input references `pointer` may be.
    pub fn write_input(
        &mut self,
        state: &mut State,
        pointer: &SymValue,
        steps: &[Step],
        value: SymValue,
    ) -> Result<()> {
        let always = self.store.bool_val(true)?;
        let ctx = self.heap.as_ref().ok_or_else(no_model)?;
        for (guard, t) in pointer.ref_targets(always, &mut self.store)? {
            ctx.write(
                &mut self.store,
                &mut state.heap,
                guard,
                t,
                steps,
                value.clone(),
            )?;
        }
        Ok(())
    }

    /// Resolves and refines what `inst` needs of the input heap. `Some` when the state forked
    /// (the instruction then runs in each successor at its next step) or was cut.
    pub fn prepare_heap_access(
        &mut self,
        state: &mut State,
        inst: &Inst,
    ) -> Result<Option<Outcome>> {
        let model = self.heap.as_ref().ok_or_else(no_model)?.model;
        let uses = uses_of(inst);
        if model != HeapModel::Pose {
            for u in &uses {
                if let Some(outcome) = self.resolve_use(state, u)? {
                    return Ok(Some(outcome));
                }
            }
        }
        for u in &uses {
            let Use::Deref(op, Some(place), access) = u else {
                continue;
            };
            let pointer = self.operand(state, *op)?;
            if !pointer.has_ref() {
                continue;
            }
            let steps = self.steps_of(state, place)?;
            let always = self.store.bool_val(true)?;
            let direct = matches!(pointer, SymValue::Ref(_));
            let access = match access {
                Access::Read => Access::Read,
                _ if direct => Access::DirectWrite,
                _ => Access::GuardedWrite,
            };
            for (_, t) in pointer.ref_targets(always, &mut self.store)? {
                let ctx = self.heap.as_mut().ok_or_else(no_model)?;
                let refined = ctx.refine(
                    &mut self.store,
                    &mut state.heap,
                    &mut state.pc,
                    t,
                    &steps,
                    access,
                )?;
                match refined {
                    Refined::Whole => {}
                    Refined::Narrowed(cut) => self.cuts.hit(cut),
                    Refined::Cut(cut) => return Ok(Some(Outcome::ended(End::Cut(cut)))),
                }
            }
        }
        if model == HeapModel::Li {
            // Lazy initialization resolves a reference when it is loaded (a getfield).
            if let InstKind::Assign {
                value: Rvalue::Read(place),
                ..
            } = &inst.kind
            {
                if matches!(place.base, PlaceBase::Deref(_)) {
                    let loaded = self.read_place(state, place)?;
                    if let Some(symbol) = self.unresolved(state, &loaded).first() {
                        return self.fork_resolutions(state, *symbol, true);
                    }
                }
            }
        }
        Ok(None)
    }

    /// LI and lazier#: resolves the first unresolved reference `u` needs.
    fn resolve_use(&mut self, state: &mut State, u: &Use<'_>) -> Result<Option<Outcome>> {
        let lazier = self.heap.as_ref().ok_or_else(no_model)?.model == HeapModel::Lazier;
        match *u {
            Use::Deref(op, ..) => {
                let pointer = self.operand(state, op)?;
                match self.unresolved(state, &pointer).first() {
                    Some(&symbol) => self.fork_resolutions(state, symbol, true),
                    None => Ok(None),
                }
            }
            Use::Compare(a, b) => {
                let (x, y) = (self.operand(state, a)?, self.operand(state, b)?);
                if !(x.has_ref() || y.has_ref()) {
                    return Ok(None);
                }
                // lazier#: a comparison with null only splits null / non-null.
                let with_null = matches!(x, SymValue::Null) || matches!(y, SymValue::Null);
                let mut symbols = self.unresolved(state, &x);
                symbols.extend(self.unresolved(state, &y));
                let full = !(lazier && with_null);
                for symbol in symbols {
                    let known = state.heap.non_null.contains(&symbol);
                    if full || !known {
                        return self.fork_resolutions(state, symbol, full);
                    }
                }
                Ok(None)
            }
        }
    }

    /// The input reference symbols in `value` that no resolution has replaced yet, the leaves
    /// of `ite` reference terms included: each is resolved in turn, as a plain symbol is.
    fn unresolved(&self, state: &State, value: &SymValue) -> Vec<TermId> {
        let mut out = Vec::new();
        collect_refs(&self.store, value, &mut out);
        out.retain(|&t| self.store.var_id(t).is_some() && state.heap.object_by_ident(t).is_none());
        out
    }

    /// One successor per case of `symbol`'s resolution: the state itself takes the first case
    /// and goes on; the others are forked. Cases cut by a bound end there.
    fn fork_resolutions(
        &mut self,
        state: &mut State,
        symbol: TermId,
        full: bool,
    ) -> Result<Option<Outcome>> {
        let ctx = self.heap.as_ref().ok_or_else(no_model)?;
        let cases: Vec<Resolution> = ctx.alternatives(&state.heap, symbol, full);
        let original = state.clone();
        let mut successors: Vec<State> = Vec::with_capacity(cases.len());
        for case in cases {
            let mut next = original.clone();
            let ctx = self.heap.as_ref().ok_or_else(no_model)?;
            match ctx.apply(&mut self.store, &mut next.heap, &mut next.pc, symbol, case)? {
                Ok(replaced) => {
                    for (symbol, value) in replaced {
                        substitute_in_state(&mut self.store, &mut next, symbol, value)?;
                    }
                    successors.push(next);
                }
                Err(cut) => {
                    self.cuts.hit(cut);
                    self.traces += 1;
                }
            }
        }
        let mut successors = successors.into_iter();
        let Some(first) = successors.next() else {
            return Ok(Some(Outcome::ended(End::Dropped)));
        };
        *state = first;
        let forked: Vec<State> = successors.collect();
        if forked.is_empty() {
            // One case only: nothing forked, the preparation goes on at the next step.
            return Ok(Some(Outcome::go_on()));
        }
        self.forks += forked.len() as u64;
        state.depth += 1;
        let forked = forked
            .into_iter()
            .map(|mut s| {
                s.depth += 1;
                s
            })
            .collect();
        Ok(Some(Outcome { end: None, forked }))
    }
}

/// The input references an instruction compares or dereferences.
fn uses_of(inst: &Inst) -> Vec<Use<'_>> {
    fn deref(place: &Place, access: Access) -> Option<Use<'_>> {
        match place.base {
            PlaceBase::Deref(op) => Some(Use::Deref(op, Some(place), access)),
            PlaceBase::Local(_) => None,
        }
    }
    let mut out = Vec::new();
    match &inst.kind {
        InstKind::Assign { value, .. } => match value {
            Rvalue::Read(place) | Rvalue::Len(place) => out.extend(deref(place, Access::Read)),
            Rvalue::Binary(BinOp::Eq | BinOp::Ne, a, b) => out.push(Use::Compare(*a, *b)),
            _ => {}
        },
        InstKind::Store { place, .. } => out.extend(deref(place, Access::DirectWrite)),
        InstKind::Check { check, .. } => match check {
            Check::NonNull(op) => out.push(Use::Deref(*op, None, Access::Read)),
            Check::Init(place) => out.extend(deref(place, Access::Read)),
            Check::InBounds { array, .. } => out.extend(deref(array, Access::Read)),
            Check::Assert(_) | Check::Condition { .. } | Check::NonZero(_) | Check::Reach => {}
        },
        _ => {}
    }
    out
}

/// The leaves of the reference terms in `value`, each once: a merged or indexed reference is
/// an `ite` term, and the symbols at its leaves are what lazy initialization resolves.
fn collect_refs(store: &TermStore, value: &SymValue, out: &mut Vec<TermId>) {
    collect_refs_once(store, value, out, &mut FxHashSet::default());
}

/// `collect_refs`, each shared value once (see `value::address`).
fn collect_refs_once(
    store: &TermStore,
    value: &SymValue,
    out: &mut Vec<TermId>,
    seen: &mut FxHashSet<usize>,
) {
    if !seen.insert(address(value)) {
        return;
    }
    match value {
        SymValue::Ref(t) => {
            for leaf in leaves(store, *t) {
                if !out.contains(&leaf) {
                    out.push(leaf);
                }
            }
        }
        SymValue::Ite(_, a, b) => {
            collect_refs_once(store, a, out, seen);
            collect_refs_once(store, b, out, seen);
        }
        SymValue::Record(fields) => fields
            .iter()
            .for_each(|(_, v)| collect_refs_once(store, v, out, seen)),
        SymValue::Array(items) => items
            .iter()
            .for_each(|v| collect_refs_once(store, v, out, seen)),
        _ => {}
    }
}

/// Replaces the reference `symbol` by `value` in every frame and cell of the state, inside
/// `ite` reference terms too.
fn substitute_in_state(
    store: &mut TermStore,
    state: &mut State,
    symbol: TermId,
    value: TermId,
) -> Result<()> {
    for frame in state.stack.iter_mut() {
        replace_locals(frame, |v| resolve_substitute(store, v, symbol, value))?;
    }
    state
        .memory
        .replace_values(|v| resolve_substitute(store, v, symbol, value))
}
