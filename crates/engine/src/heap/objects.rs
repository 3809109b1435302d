//! The input heap of one state: the objects materialized so far, the initial value of every
//! slot a path initialized (in order), the resolutions lazy initialization made and the
//! references lazier# knows to be non-null.
//!
//! A slot that is absent is the paper's ⊥: not accessed yet, its initial value still free.
//! Nothing here builds terms or forks.

use symex_ir::cfg::FieldId;
use symex_smt::TermId;

use crate::forward::value::SymValue;
use crate::heap::context::TypeKey;

/// A field of a record object, or the whole cell of a non-record pointee (`alloc 5`).
pub type Slot = Option<FieldId>;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputObject {
    /// Its identity: the symbol that bound it (POSE) or a nonzero constant (LI, lazier#).
    pub ident: TermId,
    /// The input reference symbol it was materialized for (names its slots' symbols).
    pub symbol: TermId,
    pub pointee: TypeKey,
    /// The current value of every initialized slot.
    pub slots: Vec<(Slot, SymValue)>,
    /// The initial value of every slot a read initialized (a slot first written directly has
    /// none: its initial value is never observed).
    pub initial: Vec<(Slot, SymValue)>,
}

impl InputObject {
    pub fn slot(&self, slot: Slot) -> Option<&SymValue> {
        self.slots.iter().find(|(s, _)| *s == slot).map(|(_, v)| v)
    }

    pub fn initial(&self, slot: Slot) -> Option<&SymValue> {
        self.initial
            .iter()
            .find(|(s, _)| *s == slot)
            .map(|(_, v)| v)
    }

    pub fn set_slot(&mut self, slot: Slot, value: SymValue) {
        match self.slots.iter_mut().find(|(s, _)| *s == slot) {
            Some(entry) => entry.1 = value,
            None => self.slots.push((slot, value)),
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HeapState {
    /// In materialization order (the order of POSE's clauses and read chains).
    pub objects: Vec<InputObject>,
    /// `(object, slot, initial value)` in the order the slots were initialized: the first
    /// initialization of a cell's slot fixes the input heap's value.
    pub initial: Vec<(usize, Slot, SymValue)>,
    /// `(symbol, value)`: lazy initialization resolved the symbol to null (0) or an object's
    /// identity constant.
    pub resolved: Vec<(TermId, TermId)>,
    /// lazier#: symbols known non-null but not yet resolved to an object.
    pub non_null: Vec<TermId>,
    /// POSE: every write through an input reference, in order. A slot initialized later
    /// replays them over its initial value, as if it had been initialized before them.
    pub writes: Vec<Write>,
    /// POSE beyond `--max-heap-objects`: how many distinct non-null objects the first `.1`
    /// bound identities denote, a term (made at the first binding beyond the bound).
    pub distinct_objects: Option<(TermId, usize)>,
}

/// A write `value` at `slot` through the reference `target` under `guard`, reaching the
/// objects of a type compatible with one of `pointees`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Write {
    pub slot: Slot,
    pub guard: TermId,
    pub target: TermId,
    pub pointees: Vec<TypeKey>,
    pub value: SymValue,
}

impl HeapState {
    pub fn object_by_ident(&self, ident: TermId) -> Option<usize> {
        self.objects.iter().position(|o| o.ident == ident)
    }

    /// The value lazy initialization gave `symbol`, if any.
    pub fn resolution(&self, symbol: TermId) -> Option<TermId> {
        self.resolved
            .iter()
            .find(|(s, _)| *s == symbol)
            .map(|&(_, v)| v)
    }
}
