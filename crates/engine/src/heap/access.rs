//! Accesses through input references: refinement, reads and writes (seed 003 §3.2, digest §6).
//!
//! * `refine` is the paper's refinement relation: an unbound symbol becomes an object
//!   (Getfield r1, never a fork) and a ⊥ slot gets its initial value (Getfield r2), a fresh
//!   symbol `Z`; under POSE the clause `∧ (Y = Yi → Z = Zi)` over the compatible objects with
//!   an initial value joins the path condition (not the paper's `assume` chain), and the
//!   writes made so far are replayed over `Z`;
//! * `read` follows the reference term: Getfield c1 at a symbol, and for an `ite` of symbolic
//!   identities one chain over the identities it may denote (c2 through every `ite` would copy
//!   the term into each read); for constant identities c2 through the `ite`s;
//! * `write` is `update` generalized to any reference term `t`: every compatible object whose
//!   slot is initialized (and every object `t` may denote) gets `ite(ident = t, v, old)`; a
//!   write through a plain symbol sets its own slot to `v` without reading it (Fig. 3). Under
//!   POSE the write is also logged for the slots initialized later.
//!
//! Under lazy initialization and lazier# identities are constants, so the same code folds to
//! concrete accesses. Nothing here forks.

use std::cell::RefCell;
use std::rc::Rc;

use rustc_hash::FxHashMap;
use symex_ir::cfg::input_bookkeeping;
use symex_report::Cut;
use symex_smt::{Node, Op, PathCondition, TermId, TermStore};

use crate::common::options::HeapModel;
use crate::common::terms::int_const;
use crate::error::EngineError;
use crate::forward::value::{Step, SymValue};
use crate::heap::context::{HeapContext, SlotKind, TypeKey};
use crate::heap::objects::{HeapState, InputObject, Slot, Write};

type Result<T> = std::result::Result<T, EngineError>;

/// What an instruction does through a reference.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    Read,
    /// A write through exactly this reference (no other pointer alternative around it).
    DirectWrite,
    /// A write under a condition (the reference is one alternative of a pointer).
    GuardedWrite,
}

/// What a refinement leaves of a state's path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refined {
    /// The access goes on, on every input heap the path had.
    Whole,
    /// The access goes on, on the input heaps within a bound; the others are cut.
    Narrowed(Cut),
    /// The path ends at a bound.
    Cut(Cut),
}

/// The identities a reference term may denote, in first-occurrence order (null left out).
pub fn leaves(store: &TermStore, t: TermId) -> Vec<TermId> {
    let mut out = Vec::new();
    let mut seen = rustc_hash::FxHashSet::default();
    let mut work = vec![t];
    while let Some(t) = work.pop() {
        if !seen.insert(t) {
            continue;
        }
        match *store.node(t) {
            Node::App3(Op::Ite, _, a, b) => {
                work.push(b);
                work.push(a);
            }
            Node::Bv(bv) if bv.bits() == 0 => {}
            _ => out.push(t),
        }
    }
    out
}

/// [`leaves`] memoized per `ite` term, bottom-up: a term's leaves are its then-branch's
/// followed by its else-branch's new ones (the same first-occurrence order). POSE's writes
/// make every slot `ite(ident = t, v, old)`, so a reference read after many writes is an `ite`
/// DAG far larger than its few leaves, and every access asks for its leaves two or three
/// times (rbt_put at depth 10: minutes in one read). Terms are hash-consed, so an answer
/// holds for the store's life; the memo is emptied when it grows past `LEAF_MEMO_LIMIT`.
#[derive(Debug, Default)]
pub struct ReferenceLeaves(RefCell<FxHashMap<TermId, Rc<[TermId]>>>);

/// Most `ite` terms whose leaves [`ReferenceLeaves`] keeps.
const LEAF_MEMO_LIMIT: usize = 1 << 20;

impl ReferenceLeaves {
    /// The identities `t` may denote, in first-occurrence order (null left out).
    pub fn of(&self, store: &TermStore, t: TermId) -> Rc<[TermId]> {
        let mut memo = self.0.borrow_mut();
        if memo.len() > LEAF_MEMO_LIMIT {
            memo.clear();
        }
        let mut work = vec![(t, false)];
        while let Some((term, children_done)) = work.pop() {
            let Node::App3(Op::Ite, _, a, b) = *store.node(term) else {
                continue;
            };
            if memo.contains_key(&term) {
                continue;
            }
            if !children_done {
                work.extend([(term, true), (b, false), (a, false)]);
                continue;
            }
            let mut out: Vec<TermId> = own_leaves(store, &memo, a).to_vec();
            for leaf in own_leaves(store, &memo, b).iter() {
                if !out.contains(leaf) {
                    out.push(*leaf);
                }
            }
            memo.insert(term, out.into());
        }
        own_leaves(store, &memo, t)
    }
}

/// The leaves of `t` given those of every `ite` below it in `memo`.
fn own_leaves(
    store: &TermStore,
    memo: &FxHashMap<TermId, Rc<[TermId]>>,
    t: TermId,
) -> Rc<[TermId]> {
    match *store.node(t) {
        // Filled bottom-up by `of` before it asks; the walk is the fallback, not a panic.
        Node::App3(Op::Ite, ..) => match memo.get(&t) {
            Some(known) => Rc::clone(known),
            None => leaves(store, t).into(),
        },
        Node::Bv(bv) if bv.bits() == 0 => Rc::from([]),
        _ => Rc::from([t]),
    }
}

fn internal(message: String) -> EngineError {
    EngineError::Internal(message)
}

impl HeapContext {
    /// The slots an access with `steps` touches on an object of type `pointee`.
    pub fn slots_of(&self, pointee: TypeKey, steps: &[Step]) -> Vec<Slot> {
        match steps.first() {
            Some(Step::Field(f)) => vec![Some(*f)],
            _ if self.is_record(pointee) => self.fields(pointee).into_iter().map(Some).collect(),
            _ => vec![None],
        }
    }

    /// The pointee type of a reference's first alternative.
    fn pointee_of(&self, heap: &HeapState, store: &TermStore, t: TermId) -> Option<TypeKey> {
        let leaf = *self.leaves.of(store, t).first()?;
        match heap.object_by_ident(leaf) {
            Some(i) => Some(heap.objects[i].pointee),
            None => self.input_symbol(leaf).map(|s| s.pointee),
        }
    }

    /// Refinement before accessing `steps` through the reference `t`: binds its symbols
    /// (POSE) and initializes the slots the access needs. A bound may cut the path.
    pub fn refine(
        &mut self,
        store: &mut TermStore,
        heap: &mut HeapState,
        pc: &mut PathCondition,
        t: TermId,
        steps: &[Step],
        access: Access,
    ) -> Result<Refined> {
        let mut refined = Refined::Whole;
        for &leaf in self.leaves.of(store, t).iter() {
            let index = match heap.object_by_ident(leaf) {
                Some(i) => i,
                None if self.model == HeapModel::Pose => {
                    let (index, narrowed) = self.bind(store, heap, pc, leaf)?;
                    if let Some(cut) = narrowed {
                        refined = Refined::Narrowed(cut);
                    }
                    index
                }
                None => {
                    return Err(internal(format!(
                        "an access through an unresolved input reference (term {leaf:?})"
                    )))
                }
            };
            let pointee = heap.objects[index].pointee;
            for slot in self.slots_of(pointee, steps) {
                if heap.objects[index].slot(slot).is_some()
                    || (access == Access::DirectWrite && leaf == t && steps.len() <= 1)
                {
                    continue;
                }
                if let Some(cut) = self.initialize(store, heap, pc, index, slot)? {
                    return Ok(Refined::Cut(cut));
                }
            }
        }
        Ok(refined)
    }

    /// Getfield (r1): a new object for the symbol, which is null or distinct from every bound
    /// object of an incompatible type (compatible ones may alias: the `ite` terms say how; a
    /// symbol bound through one alternative of an `ite` may still be null on this path).
    ///
    /// Beyond `--max-heap-objects` N the path goes on where the bound identities denote at most
    /// N distinct objects (the new one null or an alias), and the heaps of more objects are
    /// cut: the [`Cut`] returned. So POSE's bound counts objects as lazy initialization's does
    /// (which cuts only the fresh case of a resolution), not the references bound.
    fn bind(
        &mut self,
        store: &mut TermStore,
        heap: &mut HeapState,
        pc: &mut PathCondition,
        symbol: TermId,
    ) -> Result<(usize, Option<Cut>)> {
        let pointee = self
            .input_symbol(symbol)
            .map(|s| s.pointee)
            .ok_or_else(|| internal(format!("no input symbol for term {symbol:?}")))?;
        let zero = store.bv_val(32, 0)?;
        let null = store.eq(symbol, zero)?;
        for other in &heap.objects {
            if !self.compatible(other.pointee, pointee) {
                let same = store.eq(symbol, other.ident)?;
                let distinct = store.not(same)?;
                pc.push(store.or(null, distinct)?);
            }
        }
        heap.objects.push(InputObject {
            ident: symbol,
            symbol,
            pointee,
            slots: Vec::new(),
            initial: Vec::new(),
        });
        let cut = self.heap_size_cut(heap.objects.len());
        if let (Some(_), Some(max)) = (&cut, self.max_objects) {
            let count = distinct_objects(store, heap)?;
            let max = store.bv_val(32, u128::from(max))?;
            pc.push(store.bv_ule(count, max)?);
        }
        Ok((heap.objects.len() - 1, cut))
    }

    /// Getfield (r2): the slot's initial value is a fresh symbol named by its access path (a
    /// front end's bookkeeping field has its input value, `input_bookkeeping`). Under POSE the
    /// input heap must stay a function: for every compatible object whose slot has an initial
    /// value, the clause `ident = other → initial = other's initial` joins the path condition
    /// (jPOSE's `Y.f = Z` clauses), and the writes made so far are replayed over the initial
    /// value (`ite(guard ∧ ident = t, v, …)`, what `write` gave the slots initialized before
    /// them). The paper's `assume` chain over every alias (`ite(ident = other, other's value,
    /// …)`) made a reference read from the heap an `ite` whose alternatives all got objects
    /// and slots of their own at the next dereference: the objects of a tree search doubled
    /// with each level (BENCHMARKS.md, "Heap models", sessions 35 and 54). With the clause a
    /// read-only walk keeps plain symbols as references, one object per step, and a slot
    /// initialized after writes holds one `ite` per write of its slot, not one per alias.
    fn initialize(
        &mut self,
        store: &mut TermStore,
        heap: &mut HeapState,
        pc: &mut PathCondition,
        index: usize,
        slot: Slot,
    ) -> Result<Option<Cut>> {
        let object = &heap.objects[index];
        let (ident, pointee) = (object.ident, object.pointee);
        let (base, depth) = match self.input_symbol(object.symbol) {
            Some(s) => (s.name.clone(), s.depth),
            None => return Err(internal("an object without its symbol".into())),
        };
        let name = match slot {
            Some(f) => format!("{base}.{}", self.field_name(f)),
            None => format!("*{base}"),
        };
        let bookkeeping = slot.and_then(|f| input_bookkeeping(self.field_name(f)));
        let initial = match self.slot_kind(pointee, slot) {
            SlotKind::Int => match bookkeeping {
                Some(value) => SymValue::Int(int_const(store, value)?),
                None => SymValue::Int(self.symbol(store, &name)?),
            },
            SlotKind::Pointer(target) => {
                if let Some(cut) = self.depth_cut(depth + 1) {
                    return Ok(Some(cut));
                }
                SymValue::Ref(self.reference(store, &name, target, depth + 1)?)
            }
        };
        let mut value = initial.clone();
        // One constraint for all of them: the query layers' work grows with the number of
        // constraints on the path, and a walk's k-th slot has k clauses.
        let mut clauses: Option<TermId> = None;
        if self.model == HeapModel::Pose {
            for other in &heap.objects {
                if other.ident == ident || !self.compatible(other.pointee, pointee) {
                    continue;
                }
                let Some(SymValue::Int(theirs) | SymValue::Ref(theirs)) = other.initial(slot)
                else {
                    continue;
                };
                let (SymValue::Int(mine) | SymValue::Ref(mine)) = initial else {
                    continue;
                };
                let alias = store.eq(ident, other.ident)?;
                let apart = store.not(alias)?;
                let agree = store.eq(mine, *theirs)?;
                let clause = store.or(apart, agree)?;
                if store.as_bool(clause) != Some(true) {
                    clauses = Some(match clauses {
                        Some(all) => store.and(all, clause)?,
                        None => clause,
                    });
                }
            }
            for write in heap.writes.iter().filter(|w| w.slot == slot) {
                if !write.pointees.iter().any(|&p| self.compatible(pointee, p)) {
                    continue;
                }
                let same = store.eq(ident, write.target)?;
                let cond = store.and(write.guard, same)?;
                value = SymValue::ite(store, cond, write.value.clone(), value)?;
            }
        }
        if let Some(clauses) = clauses {
            pc.push(clauses);
        }
        let object = &mut heap.objects[index];
        object.set_slot(slot, value);
        object.initial.push((slot, initial.clone()));
        heap.initial.push((index, slot, initial));
        Ok(None)
    }

    /// The value at `steps` through the refined reference `t` (`None` if `t` is null).
    pub fn read(
        &self,
        store: &mut TermStore,
        heap: &HeapState,
        t: TermId,
        steps: &[Step],
    ) -> Result<Option<SymValue>> {
        let pointee = match self.pointee_of(heap, store, t) {
            Some(p) => p,
            None => return Ok(None),
        };
        let slots = self.slots_of(pointee, steps);
        let value = match (steps.first(), slots.as_slice()) {
            (None, [None]) | (Some(_), _) => self.read_slot(store, heap, t, slots[0])?,
            (None, _) => {
                let mut fields = Vec::with_capacity(slots.len());
                for slot in &slots {
                    let (Some(f), Some(v)) = (slot, self.read_slot(store, heap, t, *slot)?) else {
                        return Ok(None);
                    };
                    fields.push((*f, v));
                }
                fields.sort_by_key(|(f, _)| *f);
                Some(SymValue::Record(fields.into()))
            }
        };
        match value {
            Some(v) => Ok(Some(v.project(steps.get(1..).unwrap_or(&[]), store)?)),
            None => Ok(None),
        }
    }

    /// Getfield through `t`. With symbolic identities (POSE) the read is one `ite` chain over
    /// the identities `t` may denote, `ite(t = Y1, H(Y1).f, … H(Ym).f)`, compared the way
    /// `write` compares. Getfield c2 taken literally (a read at every `ite` of `t`) copies the
    /// `ite` structure of `t`, slot chains included, into every read, so a list walk's
    /// references grew with the cube of its length (hasNull, max = 200: 87 s where the chain
    /// needs 1.7 s). The chain picks the first object whose identity equals `t`; aliases
    /// agree on every initialized slot under the path condition (`initialize` ties their
    /// initial values by a clause and replays the earlier writes, `write` updates every
    /// alias), so any of them gives the same value. With constant identities (lazy
    /// initialization, lazier#) `t`'s own conditions are all there is to keep, so the read
    /// follows them (c2 at every `ite`).
    fn read_slot(
        &self,
        store: &mut TermStore,
        heap: &HeapState,
        t: TermId,
        slot: Slot,
    ) -> Result<Option<SymValue>> {
        let targets = self.leaves.of(store, t);
        if targets.iter().all(|&leaf| store.node(leaf).is_const()) {
            return self.read_slot_through_ites(store, heap, t, slot);
        }
        let mut chain: Option<SymValue> = None;
        for &leaf in targets.iter().rev() {
            let value = self.slot_value(heap, leaf, slot)?;
            chain = Some(match chain {
                None => value,
                Some(rest) => {
                    let same = store.eq(t, leaf)?;
                    SymValue::ite(store, same, value, rest)?
                }
            });
        }
        Ok(chain)
    }

    /// The initialized `slot` of the object whose identity is `ident`.
    fn slot_value(&self, heap: &HeapState, ident: TermId, slot: Slot) -> Result<SymValue> {
        let index = heap
            .object_by_ident(ident)
            .ok_or_else(|| internal(format!("a read through an unbound reference ({ident:?})")))?;
        heap.objects[index]
            .slot(slot)
            .cloned()
            .ok_or_else(|| internal("a read of an uninitialized input slot".to_string()))
    }

    /// Getfield (c1) at the leaves, (c2) at every `ite`, memoized over the term graph.
    fn read_slot_through_ites(
        &self,
        store: &mut TermStore,
        heap: &HeapState,
        t: TermId,
        slot: Slot,
    ) -> Result<Option<SymValue>> {
        let mut memo: FxHashMap<TermId, Option<SymValue>> = FxHashMap::default();
        let mut work = vec![(t, false)];
        while let Some((node, children_done)) = work.pop() {
            if memo.contains_key(&node) {
                continue;
            }
            let value = match *store.node(node) {
                Node::App3(Op::Ite, c, a, b) => {
                    if !children_done {
                        work.extend([(node, true), (b, false), (a, false)]);
                        continue;
                    }
                    match (memo[&a].clone(), memo[&b].clone()) {
                        (Some(x), Some(y)) => Some(SymValue::ite(store, c, x, y)?),
                        (x, None) => x,
                        (None, y) => y,
                    }
                }
                Node::Bv(bv) if bv.bits() == 0 => None,
                _ => {
                    let index = heap.object_by_ident(node).ok_or_else(|| {
                        internal(format!("a read through an unbound reference ({node:?})"))
                    })?;
                    Some(heap.objects[index].slot(slot).cloned().ok_or_else(|| {
                        internal("a read of an uninitialized input slot".to_string())
                    })?)
                }
            };
            memo.insert(node, value);
        }
        Ok(memo.remove(&t).flatten())
    }

    /// Writes `value` at `steps` through the refined reference `t`, under `guard`.
    pub fn write(
        &self,
        store: &mut TermStore,
        heap: &mut HeapState,
        guard: TermId,
        t: TermId,
        steps: &[Step],
        value: SymValue,
    ) -> Result<()> {
        let Some(pointee) = self.pointee_of(heap, store, t) else {
            return Ok(());
        };
        match steps {
            [] if self.is_record(pointee) => {
                for slot in self.slots_of(pointee, steps) {
                    let Some(f) = slot else { continue };
                    let part = value.field(f).ok_or_else(|| {
                        internal(format!("a record without field #{}", f.index()))
                    })?;
                    self.write_slot(store, heap, guard, t, pointee, slot, part.clone())?;
                }
                Ok(())
            }
            [] => self.write_slot(store, heap, guard, t, pointee, None, value),
            [Step::Field(f)] => self.write_slot(store, heap, guard, t, pointee, Some(*f), value),
            _ => Err(internal(
                "a write below a field of an input object (arrays in input records are not supported)"
                    .into(),
            )),
        }
    }

    /// Putfield (c1), generalized: `update` every compatible initialized alias, then the
    /// denoted objects themselves.
    #[allow(clippy::too_many_arguments)]
    fn write_slot(
        &self,
        store: &mut TermStore,
        heap: &mut HeapState,
        guard: TermId,
        t: TermId,
        pointee: TypeKey,
        slot: Slot,
        value: SymValue,
    ) -> Result<()> {
        let targets = self.leaves.of(store, t);
        // An alias of any object `t` may denote is updated: compatibility is not transitive
        // (a free pointee is compatible with every type), so the first one's type alone could
        // leave an alias of another stale, and reads pick any alias (`read_slot`).
        let mut pointees = vec![pointee];
        pointees.extend(
            targets
                .iter()
                .filter_map(|&ident| heap.object_by_ident(ident))
                .map(|i| heap.objects[i].pointee),
        );
        let unconditional = store.as_bool(guard) == Some(true);
        for object in heap.objects.iter_mut() {
            let is_target = targets.contains(&object.ident);
            let Some(old) = object.slot(slot).cloned() else {
                if is_target {
                    // A direct write through this very symbol: the old value is never read.
                    object.set_slot(slot, value.clone());
                }
                continue;
            };
            if !is_target && !pointees.iter().any(|&p| self.compatible(object.pointee, p)) {
                continue;
            }
            let new = if object.ident == t && unconditional {
                value.clone()
            } else {
                let same = store.eq(object.ident, t)?;
                let cond = store.and(guard, same)?;
                SymValue::ite(store, cond, value.clone(), old)?
            };
            object.set_slot(slot, new);
        }
        if self.model == HeapModel::Pose {
            heap.writes.push(Write {
                slot,
                guard,
                target: t,
                pointees,
                value,
            });
        }
        Ok(())
    }
}

/// How many distinct non-null objects the identities bound in `heap` denote, a term extended
/// from the count `heap` keeps (each new identity counts when it is not null and differs from
/// every earlier one).
fn distinct_objects(store: &mut TermStore, heap: &mut HeapState) -> Result<TermId> {
    let (mut count, counted) = match heap.distinct_objects {
        Some(known) => known,
        None => (store.bv_val(32, 0)?, 0),
    };
    let (zero, one) = (store.bv_val(32, 0)?, store.bv_val(32, 1)?);
    for (i, object) in heap.objects.iter().enumerate().skip(counted) {
        let mut new = store.neq(object.ident, zero)?;
        for earlier in &heap.objects[..i] {
            let apart = store.neq(object.ident, earlier.ident)?;
            new = store.and(new, apart)?;
        }
        let counts = store.ite(new, one, zero)?;
        count = store.bv_add(count, counts)?;
    }
    heap.distinct_objects = Some((count, heap.objects.len()));
    Ok(count)
}
