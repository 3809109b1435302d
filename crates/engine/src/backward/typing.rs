//! Typed input cells: which kind of cell (a record, by its field names, or a cell holding a
//! number or a pointer) each input reference points to, as a tag the heap constrains, so that a
//! model cannot put records of two types in one input cell.
//!
//! Built only when the entry's pointer parameters reach more than one kind of cell: with one kind
//! no model can confuse two input cells, and the searches get no tag constraint at all. Only
//! negative (input) references are ever constrained: an allocated cell is positive and never
//! shares a number with an input cell, so `alloc` needs no tag. The kinds and owners here must
//! cover every cell a run can make (every record literal of the module is a kind), because
//! `conj-always` and `conj-loops` prune at intermediate nodes where an allocated cell may stand
//! for an input one: a missing kind would make a real path unsatisfiable. Nothing here builds
//! terms (the heap does) or reads a model (the witness does).

use std::collections::{BTreeMap, BTreeSet};

use symex_ir::cfg::{InstKind, Module, Rvalue};
use symex_syntax::types::Type;

use crate::backward::ops::FieldSlot;
use crate::backward::types::TypeFacts;

/// How deep pointers to pointers are told apart (`***int` and deeper all get no kind).
const MAX_POINTER_DEPTH: u32 = 4;

/// What an input cell holds, as far as the interpreter and the heap document can tell apart.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum CellKind {
    /// A record, by its sorted field names (two record types with the same names are one kind:
    /// coarser kinds only weaken the constraints).
    Record(Vec<String>),
    /// A cell holding a number (`alloc 5`).
    Int,
    /// A cell holding a pointer to cells of the inner kind (`alloc p`).
    Pointer(Box<CellKind>),
}

/// The kind of cell a pointer to `pointee` points to; `None` when the type does not say (a type
/// variable, an array, pointers nested too deep).
pub fn cell_kind(pointee: &Type) -> Option<CellKind> {
    kind_at(pointee, 0)
}

fn kind_at(ty: &Type, depth: u32) -> Option<CellKind> {
    match ty.unfold().as_ref() {
        Type::Int => Some(CellKind::Int),
        Type::Record(fields) => Some(CellKind::Record(
            fields.iter().map(|(name, _)| name.clone()).collect(),
        )),
        Type::Pointer(target) if depth < MAX_POINTER_DEPTH => {
            kind_at(target, depth + 1).map(|k| CellKind::Pointer(Box::new(k)))
        }
        _ => None,
    }
}

/// The constraints of one field slot (the cell content slot included).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SlotTyping {
    /// The tags of the kinds that have the slot, when not every kind has it: a dereferenced
    /// input reference is of one of them. `None`: no constraint.
    pub owners: Option<Vec<u32>>,
    /// `(owner, pointee)`: a pointer read from a cell of tag `owner` is null, allocated, or an
    /// input reference of tag `pointee`. Owners whose pointee kind is not known are absent.
    pub pointees: Vec<(u32, u32)>,
    /// Whether every owner has the same pointee, so the constraint needs no test of the owner.
    pub uniform_pointee: Option<u32>,
}

/// The cell kinds of one module and entry, numbered (tag = index in `kinds`), and what each field
/// slot requires of the tags.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CellTyping {
    kinds: Vec<CellKind>,
    slots: Vec<SlotTyping>,
}

impl CellTyping {
    /// The typing for `entry` with parameters `params`, or `None` when its pointer parameters
    /// reach at most one kind of cell (no tags needed).
    pub fn for_entry(
        module: &Module,
        facts: &TypeFacts<'_>,
        entry: &str,
        params: &[String],
    ) -> Option<CellTyping> {
        if input_kinds(facts, entry, params).len() <= 1 {
            return None;
        }
        Some(CellTyping::new(module, facts))
    }

    fn new(module: &Module, facts: &TypeFacts<'_>) -> CellTyping {
        // kind -> slot -> the pointee kinds seen for it (None: a pointer of unknown kind).
        let mut shapes: BTreeMap<CellKind, BTreeMap<FieldSlot, BTreeSet<Option<CellKind>>>> =
            BTreeMap::new();
        let cell_slot = module.fields.len() as FieldSlot;
        let slot_of = |name: &str| {
            module
                .fields
                .iter()
                .position(|f| f == name)
                .map(|i| i as FieldSlot)
        };
        for pointee in facts.pointee_types() {
            let Some(kind) = cell_kind(pointee) else {
                continue;
            };
            let slots = shapes.entry(kind.clone()).or_default();
            match (&kind, pointee.record_fields()) {
                (CellKind::Record(_), Some(fields)) => {
                    for (name, field_ty) in fields {
                        let Some(slot) = slot_of(&name) else {
                            continue;
                        };
                        let seen = slots.entry(slot).or_default();
                        if let Some(target) = field_ty.pointee() {
                            seen.insert(cell_kind(&target));
                        }
                    }
                }
                (CellKind::Pointer(inner), _) => {
                    slots
                        .entry(cell_slot)
                        .or_default()
                        .insert(Some(inner.as_ref().clone()));
                }
                _ => {
                    slots.entry(cell_slot).or_default();
                }
            }
        }
        // Every record a run can allocate is a kind, even one no named variable has.
        for function in &module.functions {
            for inst in function.blocks.iter().flat_map(|b| &b.insts) {
                if let InstKind::Assign {
                    value: Rvalue::Record(fields),
                    ..
                } = &inst.kind
                {
                    let mut names: Vec<String> = fields
                        .iter()
                        .filter_map(|(f, _)| module.fields.get(f.0 as usize).cloned())
                        .collect();
                    names.sort();
                    let slots = shapes.entry(CellKind::Record(names)).or_default();
                    for (f, _) in fields {
                        slots.entry(f.0).or_default();
                    }
                }
            }
        }
        // Pointee kinds are kinds too (they are visited as pointees, but be sure).
        let pointee_kinds: Vec<CellKind> = shapes
            .values()
            .flat_map(|slots| slots.values().flatten().flatten().cloned())
            .collect();
        for kind in pointee_kinds {
            shapes.entry(kind).or_default();
        }
        let kinds: Vec<CellKind> = shapes.keys().cloned().collect();
        let tag = |kind: &CellKind| kinds.iter().position(|k| k == kind).map(|i| i as u32);
        let mut slots = vec![SlotTyping::default(); cell_slot as usize + 1];
        for (slot, typing) in slots.iter_mut().enumerate() {
            let slot = slot as FieldSlot;
            let mut owners = Vec::new();
            for (owner, (_, kind_slots)) in shapes.iter().enumerate() {
                let Some(seen) = kind_slots.get(&slot) else {
                    continue;
                };
                owners.push(owner as u32);
                // A pointer to a type variable is one the program never dereferences, compares
                // with a typed pointer or passes on (each would give the variable a type): only its
                // nullness is observed, so it constrains nothing and may as well point to a cell
                // of the known kind.
                let known: Vec<&CellKind> = seen.iter().flatten().collect();
                if let [pointee] = known.as_slice() {
                    if let Some(p) = tag(pointee) {
                        typing.pointees.push((owner as u32, p));
                    }
                }
            }
            let first = typing.pointees.first().map(|&(_, p)| p);
            if typing.pointees.len() == owners.len()
                && typing.pointees.iter().all(|&(_, p)| Some(p) == first)
            {
                typing.uniform_pointee = first;
            }
            // The content slot is never an owner constraint: a cell holding a plain value may have
            // a type no named variable shows (`*(alloc 5)`).
            if slot != cell_slot && !owners.is_empty() && owners.len() < kinds.len() {
                typing.owners = Some(owners);
            }
        }
        CellTyping { kinds, slots }
    }

    /// The tag of the cells a pointer to `pointee` points to.
    pub fn tag_of(&self, pointee: &Type) -> Option<u32> {
        let kind = cell_kind(pointee)?;
        self.kinds.iter().position(|k| *k == kind).map(|i| i as u32)
    }

    /// The constraints of field slot `slot`.
    pub fn slot(&self, slot: FieldSlot) -> Option<&SlotTyping> {
        self.slots.get(slot as usize)
    }

    /// The kinds, by tag.
    pub fn kinds(&self) -> &[CellKind] {
        &self.kinds
    }
}

/// The kinds of the cells reachable from the entry's pointer parameters, through pointer fields
/// and pointer contents.
pub fn input_kinds(facts: &TypeFacts<'_>, entry: &str, params: &[String]) -> BTreeSet<CellKind> {
    let mut kinds = BTreeSet::new();
    let mut seen = rustc_hash::FxHashSet::default();
    let mut work: Vec<Type> = params
        .iter()
        .filter_map(|name| facts.local_type(entry, name))
        .filter_map(|ty| ty.pointee())
        .collect();
    while let Some(ty) = work.pop() {
        if seen.len() > 256 || !seen.insert(ty.clone()) {
            continue;
        }
        if let Some(kind) = cell_kind(&ty) {
            kinds.insert(kind);
        }
        if let Some(target) = ty.pointee() {
            work.push(target);
        } else if let Some(fields) = ty.record_fields() {
            work.extend(fields.into_iter().filter_map(|(_, t)| t.pointee()));
        }
    }
    kinds
}
