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

/// How deep pointers to pointers are told apart: cells holding pointers nested deeper are one
/// kind, [`CellKind::Deep`] inside [`MAX_POINTER_DEPTH`] + 1 pointers.
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
    /// Whatever lies behind [`MAX_POINTER_DEPTH`] pointers (`μα.↑α`, `↑↑↑↑↑int`): only ever the
    /// inner kind of a `Pointer`, never a kind of its own, so no cell is told it is not one.
    Deep,
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
        // A cell holding a pointer is never a record or a number, however deep the chain.
        Type::Pointer(_) => Some(CellKind::Pointer(Box::new(CellKind::Deep))),
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
    /// The owners whose cells hold a pointer in the slot in every type of theirs: an input cell
    /// of such a tag holds null or an input reference there (the closed input heap).
    pub pointer_owners: Vec<u32>,
    /// Whether every owner is a pointer owner (and there is one), so the closed-input
    /// constraint needs no test of the owner.
    pub only_pointers: bool,
}

/// What the types of one kind put in one slot.
#[derive(Clone, Debug, Default)]
struct SlotUse {
    /// The pointee kinds of the pointers seen there (`None`: a pointer of unknown kind).
    pointees: BTreeSet<Option<CellKind>>,
    /// Whether some type puts something else there (a number, an array, a type variable).
    other: bool,
}

impl SlotUse {
    fn holds(&mut self, ty: &Type) {
        match ty.pointee() {
            Some(target) => {
                self.pointees.insert(cell_kind(&target));
            }
            None => self.other = true,
        }
    }

    fn holds_only_pointers(&self) -> bool {
        !self.pointees.is_empty() && !self.other
    }
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
        let mut shapes: BTreeMap<CellKind, BTreeMap<FieldSlot, SlotUse>> = BTreeMap::new();
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
                        slots.entry(slot).or_default().holds(&field_ty);
                    }
                }
                _ => slots.entry(cell_slot).or_default().holds(pointee),
            }
        }
        // Every record a run can allocate is a kind, even one no expression's type shows.
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
            .flat_map(|slots| {
                slots
                    .values()
                    .flat_map(|u| u.pointees.iter().flatten())
                    .cloned()
            })
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
                if seen.holds_only_pointers() {
                    typing.pointer_owners.push(owner as u32);
                }
                // A pointer to a type variable is one the program never dereferences, compares
                // with a typed pointer or passes on (each would give the variable a type): only its
                // nullness is observed, so it constrains nothing and may as well point to a cell
                // of the known kind.
                let known: Vec<&CellKind> = seen.pointees.iter().flatten().collect();
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
            typing.only_pointers =
                !owners.is_empty() && typing.pointer_owners.len() == owners.len();
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

#[cfg(test)]
mod tests {
    use super::*;

    fn typing_of(source: &str, entry: &str) -> Option<CellTyping> {
        let front = symex_syntax::analyze(source).expect("parses");
        let types = front.types.expect("well typed");
        let module = symex_ir::lower(&front.program);
        let facts = TypeFacts::new(&module, &types);
        let func = module.function_by_name(entry).expect("entry");
        let function = module.function(func);
        let params: Vec<String> = function
            .params()
            .map(|l| function.local(l).name.clone())
            .collect();
        CellTyping::for_entry(&module, &facts, entry, &params)
    }

    fn record(names: &[&str]) -> CellKind {
        CellKind::Record(names.iter().map(|n| n.to_string()).collect())
    }

    /// The tag of the record kind with fields `names`.
    fn tag_of(typing: &CellTyping, names: &[&str]) -> u32 {
        typing
            .kinds()
            .iter()
            .position(|k| *k == record(names))
            .expect("a kind") as u32
    }

    #[test]
    fn pointers_nested_deeper_than_the_limit_are_one_kind_of_pointer_cell() {
        let deep = symex_syntax::types::Type::Recursive(
            0,
            Box::new(Type::Pointer(Box::new(Type::RecVar(0)))),
        );
        let mut expected = CellKind::Pointer(Box::new(CellKind::Deep));
        for _ in 0..MAX_POINTER_DEPTH {
            expected = CellKind::Pointer(Box::new(expected));
        }
        assert_eq!(cell_kind(&deep), Some(expected));
        assert_eq!(cell_kind(&Type::Pointer(Box::new(Type::Var(0)))), None);
    }

    #[test]
    fn one_kind_of_input_cell_needs_no_tags() {
        // `n = n->next` makes the list type recursive: every input cell is a {next, val}.
        let source = "f(l) { var n, s; n = l; s = 0; \
                      while (n != null) { s = s + n->val; n = n->next; } return s; }\n\
                      main() { var a, k; a = alloc {val: 1, next: null}; \
                      k = alloc {key: 2}; output k->key; return f(a); }";
        assert_eq!(typing_of(source, "f"), None);
    }

    #[test]
    fn degree_counting_needs_no_tags() {
        // Table 3's benchmark must not pay for typed cells: one kind of cell, no tag constraint.
        let source = symex_gen::degree::degree_counting(3);
        assert_eq!(typing_of(&source, "degree_counting"), None);
    }

    #[test]
    fn partial_record_types_are_kinds_of_their_own() {
        // Records are closed: `l->next` has type {next}, so it can never be `l` itself.
        let source = "f(l) { var n; n = l->next; if (n != null) { n = n->next; } \
                      return l->val; }\n\
                      main() { var a; a = alloc {val: 1, next: null}; return f(a); }";
        let typing = typing_of(source, "f").expect("two kinds");
        assert_eq!(
            typing.kinds(),
            &[record(&["next"]), record(&["next", "val"])]
        );
    }

    #[test]
    fn a_field_of_two_kinds_with_different_pointees_is_typed_per_owner() {
        // `link` is a field of both {link, n} and {link, m}, pointing to {v} and {w} cells.
        let source = "f(a, b) { var x, y; x = a->link; y = b->link; \
                      return x->v + y->w + a->n + b->m; }\n\
                      main() { var a, b; \
                      a = alloc {link: alloc {v: 1}, n: 2}; \
                      b = alloc {link: alloc {w: 3}, m: 4}; return f(a, b); }";
        let typing = typing_of(source, "f").expect("four kinds of input cell");
        let tag = |names: &[&str]| tag_of(&typing, names);
        let (an, bm, v, w) = (
            tag(&["link", "n"]),
            tag(&["link", "m"]),
            tag(&["v"]),
            tag(&["w"]),
        );
        let front = symex_syntax::analyze(source).expect("parses");
        let module = symex_ir::lower(&front.program);
        let slot = |name: &str| module.fields.iter().position(|f| f == name).expect("field") as u32;
        let link = typing.slot(slot("link")).expect("slot");
        assert_eq!(link.owners, Some(vec![an.min(bm), an.max(bm)]));
        let mut pointees = link.pointees.clone();
        pointees.sort();
        let mut expected = vec![(an, v), (bm, w)];
        expected.sort();
        assert_eq!(pointees, expected);
        assert_eq!(link.uniform_pointee, None);
        let n = typing.slot(slot("n")).expect("slot");
        assert_eq!(n.owners, Some(vec![an]));
        assert!(n.pointees.is_empty());
        // The content slot never restricts owners.
        let content = typing.slot(module.fields.len() as u32).expect("slot");
        assert_eq!(content.owners, None);
    }

    #[test]
    fn slots_holding_pointers_in_some_kinds_only_name_those_kinds() {
        // The content slot holds a pointer in `↑int` cells, a number in `int` cells; `f` is a
        // pointer in {f} and a number in {f, g}, a type only an expression has.
        let source = "h(qq, p) { var t, u; t = *qq; u = p->f; return *t + *u; }\n\
                      main() { output (alloc {f: 1, g: 2})->f; \
                      return h(alloc alloc 3, alloc {f: alloc 5}); }";
        let typing = typing_of(source, "h").expect("several kinds");
        let tag = |kind: &CellKind| typing.kinds().iter().position(|k| k == kind).unwrap() as u32;
        let front = symex_syntax::analyze(source).expect("parses");
        let module = symex_ir::lower(&front.program);
        let slot = |name: &str| module.fields.iter().position(|f| f == name).expect("field") as u32;
        let content = typing.slot(module.fields.len() as u32).expect("slot");
        assert_eq!(
            content.pointer_owners,
            vec![tag(&CellKind::Pointer(Box::new(CellKind::Int)))]
        );
        assert!(!content.only_pointers);
        let f = typing.slot(slot("f")).expect("slot");
        assert_eq!(f.pointer_owners, vec![tag(&record(&["f"]))]);
        assert!(!f.only_pointers);
        assert!(typing.kinds().contains(&record(&["f", "g"])));
        // A record of kind {f} holding a number, made only by an expression: an allocated cell
        // that may stand for an input one at an intermediate check, so {f} is no longer one.
        let source = source.replace("{f: 1, g: 2}", "{f: 1}");
        let typing = typing_of(&source, "h").expect("several kinds");
        let front = symex_syntax::analyze(&source).expect("parses");
        let module = symex_ir::lower(&front.program);
        let f = module.fields.iter().position(|f| f == "f").expect("field") as u32;
        assert!(typing.slot(f).expect("slot").pointer_owners.is_empty());
    }

    #[test]
    fn a_list_and_a_tree_sharing_a_field_name() {
        let source = "f(l, t) { var n, s, r; n = l->next; s = t->left; r = 0; \
                      if (n != null && s != null) { r = n->val + s->val; } return r; }\n\
                      main() { return f(alloc {val: 1, next: null}, \
                      alloc {val: 2, left: null, right: null}); }";
        let typing = typing_of(source, "f").expect("three kinds");
        let tag = |names: &[&str]| tag_of(&typing, names);
        let (list, tree, cell) = (
            tag(&["next", "val"]),
            tag(&["left", "right", "val"]),
            tag(&["val"]),
        );
        let front = symex_syntax::analyze(source).expect("parses");
        let module = symex_ir::lower(&front.program);
        let slot = |name: &str| module.fields.iter().position(|f| f == name).expect("field") as u32;
        let next = typing.slot(slot("next")).expect("slot");
        assert_eq!(next.owners, Some(vec![list]));
        // `n` and `s` read only `val`: their cells are {val} records (closed record types), which
        // a list's `next` and a tree's `left` may share.
        assert_eq!(next.uniform_pointee, Some(cell));
        let left = typing.slot(slot("left")).expect("slot");
        assert_eq!(left.owners, Some(vec![tree]));
        assert_eq!(left.uniform_pointee, Some(cell));
        // `val` is a field of every kind: no owner constraint, one array for both.
        assert_eq!(typing.slot(slot("val")).expect("slot").owners, None);
    }
}
