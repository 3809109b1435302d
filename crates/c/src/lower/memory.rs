//! C's objects in memory, over the IR's values: what a struct, a variable whose address is
//! taken, an array element and a heap object look like, and how an lvalue is read and written.
//!
//! **Layout.** An object is an IR record with two fields per scalar *leaf* (an integer or a
//! pointer, inside nested structs too): the leaf's value and whether it was assigned. A scalar
//! object's fields are `value` and `#assigned`; a struct's leaf at the dotted path `x.y` has the
//! fields `x.y` and `x.y#assigned` (a `#` marks bookkeeping, which traces leave out). A leaf
//! that points into arrays (`lower/element_pointer.rs`) has a third field, its index
//! (`x.y#index`), beside `x.y`, which holds the pointer to the array's cell. Records never nest
//! (every engine models flat records in cells, as micro-c has them), so a struct inside a
//! struct is a range of its parent's fields.
//! C leaves a member, element or `malloc`ed object indeterminate until it is assigned: reading
//! a leaf whose flag is 0 is an `uninit` check, as for scalar locals.
//!
//! **Heap state.** In a file that calls `free`, every object also has the field [`HEAP_FIELD`]:
//! [`NOT_HEAP`] for variables and `alloca`, [`LIVE`] for a `malloc`ed object, [`FREED`] once
//! `free` released it. Every access through a pointer checks that its object is not freed
//! (`use-after-free`), and `free` that it is live (`invalid-free`). Only `malloc` and `free`
//! write the field: a struct value read whole carries `NOT_HEAP`, and a whole object stored
//! through a pointer is stored leaf by leaf, so copying a struct never changes an object's
//! state.
//!
//! **Boxes.** C can point into an object (`&s.f`, `&p->f`), the IR only to a whole cell. So a
//! scalar member whose name `&` is applied to anywhere in the file (decided by name, as for
//! variables) lives in an object of its own, its *box*: the struct's leaf holds a pointer to
//! the box (always assigned), `&p->f` is that pointer, and `p->f` is the box's scalar. A box
//! belongs to its struct object: every object made (a declaration, `malloc`, an initializer)
//! gets fresh boxes, a struct *value* (a copy: an argument, `s = t`) gets fresh boxes holding
//! the copied members, a store of a whole struct copies into the boxes already there (so
//! pointers to them stay valid), and `free` frees the boxes with their struct. A box's heap
//! state is [`MEMBER`]: `free` of it is a pointer into an object, valid in C only for the first
//! member, so it is an `unmodelled` check rather than an `invalid-free`. In an array variable of
//! such structs every element is an object of its own, made with its boxes when the array is
//! (`array.rs`, at most 4096 of them); in a heap array, each element gets boxes of its own by a
//! loop after the array is made (`allocation.rs`), and `free` of the array frees every
//! element's boxes; array members of them are refused. A member whose address reaches a
//! pointer into arrays ([`BoxedMembers::singletons`]: `sum(&s.y, 1)`) has a box holding an
//! array of one record (`Leaf::OneBox`), so that `&s.y` is an element pointer into it;
//! its heap state is that element's, as an array's.
//!
//! **Array members** (`int a[16]` in a struct) are boxed the same way, always: the box holds the
//! member's IR array value of element objects (as an array variable's local does,
//! `array.rs`), and the struct's leaf holds the pointer (always assigned). The box belongs to
//! its struct by the rules above (fresh for every object made and every struct value, a
//! whole-struct store copies the array into the box already there). It counts as no heap
//! object (`lower/leaks.rs`). Every access to an element through the struct checks the heap
//! state of the struct, *at the access* ([`FnCx::unbox_array`]): the
//! struct's check when the box pointer is read is not enough, since C stores after evaluating
//! the right side (`p->a[0] = (free(p), 1)` writes freed memory). A whole struct read or stored
//! reads or writes its array boxes right after its own `use-after-free` check. A pointer into
//! the box (`&s.a[i]`, `s.a` as a value: `lower/element_pointer.rs`; `&s.a`, a pointer to arrays) does
//! not know its struct, so it checks the box's own state, its first element's heap field, as
//! for any array: `free` of the struct sets it [`FREED`] with the struct's, and it is
//! [`NOT_HEAP`] (`free` of it is `invalid-free`) but for the struct's first member, whose
//! address is the struct's: [`MEMBER`], as a scalar box. An array member
//! whose elements have boxes is never indexed (refused): one filler object shares its boxes.
//!
//! **Lvalues.** A scalar local whose address is never taken is an IR local of its own
//! ([`LValue::Register`]). Everything else is an object at an IR place, reached after checks
//! (`null-deref` of the pointer, `out-of-bounds` of each index, also into an array member's
//! box): [`LValue::Memory`].
//! Nothing here decides which C expressions denote which lvalue (`expr.rs`, `array.rs`).

use std::collections::HashSet;

use symex_ir::cfg::{
    BinOp, Check, FieldId, InstKind, LocalId, Operand, Place, PlaceBase, Projection, PropId,
    PropertyKind, Rvalue, Width,
};
use symex_syntax::span::Span;
use symex_syntax::types::Type;

use super::containers::{owner_fields, phantom_state, Container};
use super::func::FnCx;
use super::types::{CType, Types};

/// The fields of a scalar object (the module's field table starts with them, in this order).
pub(super) const SCALAR_FIELDS: [&str; 2] = symex_ir::cfg::SCALAR_OBJECT_FIELDS;

/// The heap state of an object (see the module comment); `#` keeps it apart from the members'
/// dotted paths.
pub(super) const HEAP_FIELD: &str = symex_ir::cfg::HEAP_STATE_FIELD;
pub(super) const NOT_HEAP: i32 = 0;
pub(super) const LIVE: i32 = symex_ir::cfg::HEAP_LIVE;
pub(super) const FREED: i32 = symex_ir::cfg::HEAP_FREED;
pub(super) const MEMBER: i32 = 3;
/// The state of the object a pointer made from an integer points to (`lower/integer_pointers.rs`).
pub(super) const NO_OBJECT: i32 = 4;
/// The state of a variable whose function returned (`FnCx::end_lifetimes`).
pub(super) const DEAD: i32 = 5;

/// The type an object was made as, in a file that converts `void *` to other pointer types
/// (`lower/generic_pointers.rs`): [`super::Unit::type_tag`] of its C type, 0 for no object.
pub(super) const TYPE_FIELD: &str = "#type";

/// How many bytes an opaque object (of a struct the file never defines, `FnCx::is_opaque`) was
/// made with: all that `memset` through a pointer to one needs, since C reaches its bytes in
/// no other way.
pub(super) const BYTES_FIELD: &str = "#bytes";

/// Why an access of a phantom (`lower/containers.rs`) stops a run.
const PHANTOM_ACCESS: &str = "an access through `container_of` of a pointer to no member (a \
                              list's head)";

/// The assigned flag of a string literal's character: assigned (reads pass their `uninit`
/// check, which asks for a flag that is not 0), and not to be written.
pub(super) const READ_ONLY: i32 = 2;

/// The member names whose scalar members live in boxes of their own (`&` is applied to them:
/// `&s.f`, `&p->f`), and those of them whose address reaches a pointer into arrays
/// (`ElementFacts::singleton_members`): their box holds an array of one, as a variable's cell
/// does for such a variable.
#[derive(Debug, Default)]
pub(super) struct BoxedMembers {
    pub names: HashSet<String>,
    pub singletons: HashSet<String>,
    /// The names of struct-typed members whose address a lowering of the file took: those
    /// live in boxes (`Leaf::StructBox`; found by lowering, since a name alone does not say
    /// whether `&s.a` is of a struct member).
    pub structs: HashSet<String>,
}

impl BoxedMembers {
    pub fn contains(&self, name: &str) -> bool {
        self.names.contains(name)
    }

    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }
}

/// Whether an object of type `ty` has boxed leaves.
pub(super) fn has_boxes(types: &Types, boxed_members: &BoxedMembers, ty: CType) -> bool {
    if ty.is_scalar() {
        return false;
    }
    let leaves = stored_leaves(types, boxed_members, ty);
    leaves
        .iter()
        .any(|(path, leaf)| leaf_kind(boxed_members, path, *leaf) != Leaf::Inline)
}

/// The leaves of an object of type `ty` as memory holds them: [`Types::leaves`], where a
/// struct member in a box of its own ([`struct_boxed`]) is one leaf of its struct type.
pub(super) fn stored_leaves(
    types: &Types,
    boxed_members: &BoxedMembers,
    ty: CType,
) -> Vec<(String, CType)> {
    types.leaves_until(ty, &|name, field| {
        struct_boxed(types, boxed_members, name, field)
    })
}

/// Whether the struct member `name` of type `field` lives in a box of its own: `&` is applied
/// to its name (`&s.inner`, `&p->link`), and its own objects have no boxes (a box inside a
/// box is not modelled: the address of such a member is refused) but for a union's bytes
/// (`lower/unions.rs`): copies, `free` and ends of life follow that one box inside.
pub(super) fn struct_boxed(
    types: &Types,
    boxed_members: &BoxedMembers,
    name: &str,
    field: CType,
) -> bool {
    let CType::Struct(id) = field else {
        return false;
    };
    if !boxed_members.structs.contains(name) {
        return false;
    }
    let inner_boxes = stored_leaves(types, boxed_members, field)
        .iter()
        .filter(|(path, leaf)| leaf_kind(boxed_members, path, *leaf) != Leaf::Inline)
        .count();
    let union_bytes_only = types.union_members(id).is_some() && inner_boxes == 1;
    inner_boxes == 0 || union_bytes_only
}

/// Where a leaf of an object lives (see the module comment).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Leaf {
    /// In the object's record: its value and flag fields.
    Inline,
    /// A scalar member whose address is taken: in a box holding its value and flag.
    ScalarBox,
    /// A scalar member whose address reaches a pointer into arrays: in a box holding an array
    /// of one record of its value and flag (C counts every object as an array of one).
    OneBox,
    /// An array member: in a box holding its array value.
    ArrayBox,
    /// A struct member whose address is taken: in a box holding its record.
    StructBox,
}

/// Where the leaf at `path` of type `leaf` lives.
fn leaf_kind(boxed_members: &BoxedMembers, path: &str, leaf: CType) -> Leaf {
    let member = path.rsplit('.').next().unwrap_or(path);
    match leaf {
        CType::Array(_) => Leaf::ArrayBox,
        // Only a boxed struct member is a leaf of struct type (`stored_leaves`).
        CType::Struct(_) => Leaf::StructBox,
        _ if leaf.is_scalar() && boxed_members.singletons.contains(member) => Leaf::OneBox,
        _ if leaf.is_scalar() && boxed_members.contains(member) => Leaf::ScalarBox,
        _ => Leaf::Inline,
    }
}

/// The IR field names of the leaf at `path` (`""`: the object is the scalar): its value and its
/// flag.
pub(super) fn leaf_fields(path: &str) -> (String, String) {
    match path {
        "" => (SCALAR_FIELDS[0].into(), SCALAR_FIELDS[1].into()),
        _ => (
            path.to_string(),
            format!("{path}{}", symex_ir::cfg::ASSIGNED_FLAG_SUFFIX),
        ),
    }
}

/// The IR field holding the index of an element-pointer leaf whose value field (the pointer to
/// its array's cell) is `value_field`.
pub(super) fn index_field(value_field: &str) -> String {
    format!("{value_field}{}", super::element_pointer::INDEX_FIELD)
}

/// `path` inside the member at `prefix`.
fn join(prefix: &str, path: &str) -> String {
    match (prefix, path) {
        ("", _) => path.to_string(),
        (_, "") => prefix.to_string(),
        _ => format!("{prefix}.{path}"),
    }
}

/// Something a C expression designates.
#[derive(Clone, Debug)]
pub(super) enum LValue {
    /// A scalar local that lives in no memory cell: read with its `Init` check, written by
    /// assignment.
    Register(LocalId),
    Memory(Memory),
    /// Bytes of objects, through a view (`lower/views.rs`).
    Byte(super::view_access::ByteLValue),
    /// A struct or an array inside a union (`lower/unions.rs`).
    Union(super::unions::UnionPart),
}

/// The object at `place`, or the member at the dotted path `prefix` of the struct there.
#[derive(Clone, Debug)]
pub(super) struct Memory {
    pub place: Place,
    pub prefix: String,
    /// The checks that make `place` valid, in order (run before the first access).
    pub guards: Vec<Check>,
    /// Whose heap state guards every access (the `use-after-free` check, where the file frees
    /// memory; the guards make it valid to read): `p`'s object for `*p` and its members, a
    /// scalar box for its scalar, for an element of an array member its struct
    /// ([`FnCx::unbox_array`]), and for an element reached through an element pointer the
    /// array it points into. `None` for variables and their elements.
    pub heap: Option<HeapOwner>,
    /// Whether the object may be a character of a string literal, which C does not let a
    /// program write (`lower/element_pointer.rs`): a write checks its flag first.
    pub literal: bool,
}

/// The object whose heap state guards an access ([`Memory::heap`]).
#[derive(Clone, Copy, Debug)]
pub(super) enum HeapOwner {
    /// The object this pointer points to: its own state.
    Object(Operand),
    /// The array in the cell this pointer points to (a heap array, `lower/allocation.rs`, or
    /// an array variable's cell): the state of its first element, which every C array has.
    Array(Operand),
}

impl Memory {
    /// The whole object held by a local.
    pub fn local(local: LocalId) -> Memory {
        Memory {
            place: Place::local(local),
            prefix: String::new(),
            guards: vec![Check::Init(Place::local(local))],
            heap: None,
            literal: false,
        }
    }

    /// The first element of the array local `array`.
    pub fn first_element(array: LocalId) -> Memory {
        let index = Operand::Const(0);
        Memory {
            place: Place {
                base: PlaceBase::Local(array),
                projections: vec![Projection::Index(index)],
            },
            prefix: String::new(),
            guards: vec![
                Check::Init(Place::local(array)),
                Check::InBounds {
                    array: Place::local(array),
                    index,
                },
            ],
            heap: None,
            literal: false,
        }
    }

    /// The member `name` of this struct object.
    pub fn member(mut self, name: &str) -> Memory {
        self.prefix = join(&self.prefix, name);
        self
    }

    pub(super) fn field(&self, field: FieldId) -> Place {
        let mut place = self.place.clone();
        place.projections.push(Projection::Field(field));
        place
    }

    /// Whether the place has an index, whose check a store ends (the IR's guard rule).
    fn indexed(&self) -> bool {
        self.place
            .projections
            .iter()
            .any(|p| matches!(p, Projection::Index(_)))
    }
}

impl FnCx<'_, '_> {
    /// Whether the local holds an object in memory (a struct, or a variable whose address is
    /// taken) rather than a scalar of its own.
    pub fn in_memory(&self, local: LocalId) -> bool {
        self.b.locals[local.index()].address_taken
            || matches!(self.local_types.get(&local), Some(CType::Struct(_)))
    }

    /// What the local denotes (for the hidden parameter of a global passed by reference,
    /// the global it points to).
    pub fn local_lvalue(&self, local: LocalId) -> LValue {
        if self.by_reference.contains(&local) {
            return LValue::Memory(self.object_memory(Operand::Local(local)));
        }
        if self.singletons.contains(&local) {
            return LValue::Memory(Memory::first_element(local));
        }
        match self.in_memory(local) {
            true => LValue::Memory(Memory::local(local)),
            false => LValue::Register(local),
        }
    }

    /// The field id of an IR field name.
    pub fn field_id(&self, name: &str) -> FieldId {
        self.unit.field(name)
    }

    /// An object's record of `fields` (any order), made as the C type `made_as` (`None`: no
    /// object), with the heap state `state` where the file frees memory and the type's tag
    /// where the file converts `void *` to other pointer types.
    pub(super) fn record(
        &mut self,
        mut fields: Vec<(FieldId, Operand)>,
        state: i32,
        made_as: Option<CType>,
        span: Span,
    ) -> Operand {
        if self.unit.frees {
            fields.push((self.field_id(HEAP_FIELD), Operand::Const(state)));
        }
        if self.unit.type_tags {
            let tag = self.unit.type_tag(made_as);
            fields.push((self.field_id(TYPE_FIELD), Operand::Const(tag)));
        }
        if let Some(ty) = made_as {
            for number in self.containers_of_member_type(ty) {
                let (owner, unknown) = owner_fields(number);
                fields.push((self.field_id(&owner), Operand::Null));
                fields.push((self.field_id(&unknown), Operand::Const(0)));
            }
        }
        fields.sort_by_key(|&(f, _)| f);
        Operand::Local(self.b.assign_temp(Rvalue::Record(fields), span))
    }

    /// Whether an object of type `ty` has boxed leaves.
    pub fn has_boxes(&self, ty: CType) -> bool {
        has_boxes(&self.unit.types.borrow(), &self.unit.boxed_members, ty)
    }

    /// The fields of the leaf at `path` (`first`: the object's first, at its address) holding
    /// `value` (assigned or not; an array member's value is its array), where a boxed leaf gets
    /// a fresh box and an element pointer is split into its cell and its index.
    pub(super) fn leaf_of(
        &mut self,
        (path, first): (&str, bool),
        leaf: CType,
        value: Operand,
        assigned: Operand,
        span: Span,
    ) -> Vec<(FieldId, Operand)> {
        let (value_field, flag) = leaf_fields(path);
        let kind = leaf_kind(&self.unit.boxed_members, path, leaf);
        let (value, assigned) = match kind {
            Leaf::ScalarBox | Leaf::OneBox => {
                let one = kind == Leaf::OneBox;
                (
                    self.new_box(value, assigned, (leaf, one), span),
                    Operand::Const(1),
                )
            }
            Leaf::ArrayBox => {
                let pointer = Operand::Local(self.b.assign_temp(Rvalue::Alloc(value), span));
                // `free` of a pointer to its first element frees the struct where it is the
                // struct's first member (`lower/allocation.rs`).
                if self.unit.frees && first {
                    self.set_heap_state(HeapOwner::Array(pointer), MEMBER, span);
                }
                (pointer, Operand::Const(1))
            }
            Leaf::StructBox => {
                // `value` is a struct value's record: the box is a member's, as a scalar's.
                let pointer = Operand::Local(self.b.assign_temp(Rvalue::Alloc(value), span));
                if self.unit.frees {
                    self.set_heap_state(HeapOwner::Object(pointer), MEMBER, span);
                }
                (pointer, Operand::Const(1))
            }
            Leaf::Inline if leaf.is_number() => {
                (self.bit_field_value(path, value, leaf, span), assigned)
            }
            Leaf::Inline if matches!(leaf, CType::Element(_)) => {
                let [cell, index] = self.element_parts(value, span);
                return vec![
                    (self.field_id(&value_field), cell),
                    (self.field_id(&index_field(&value_field)), index),
                    (self.field_id(&flag), assigned),
                ];
            }
            Leaf::Inline => (value, assigned),
        };
        vec![
            (self.field_id(&value_field), value),
            (self.field_id(&flag), assigned),
        ]
    }

    /// A pointer to a fresh box holding `value` of type `leaf`, as an array of one where `one`.
    fn new_box(
        &mut self,
        value: Operand,
        assigned: Operand,
        (leaf, one): (CType, bool),
        span: Span,
    ) -> Operand {
        let fields = vec![
            (self.field_id(SCALAR_FIELDS[0]), value),
            (self.field_id(SCALAR_FIELDS[1]), assigned),
        ];
        let mut object = self.record(fields, MEMBER, Some(leaf), span);
        if one {
            object = self.temp(Rvalue::Array(vec![object]), span);
        }
        Operand::Local(self.b.assign_temp(Rvalue::Alloc(object), span))
    }

    /// A fresh object of type `ty`: every leaf `0` (null for pointers; an array member's
    /// elements too), assigned or not (C's zero initialization of static storage and `calloc`,
    /// or an indeterminate object), on the heap (`malloc`, `calloc`) or not.
    pub fn blank_object(&mut self, ty: CType, assigned: bool, heap: bool, span: Span) -> Operand {
        let leaves = self.stored_leaves(ty);
        let mut fields = Vec::with_capacity(2 * leaves.len());
        for (k, (path, leaf)) in leaves.into_iter().enumerate() {
            let zero = self.blank_value(leaf, assigned, span);
            let assigned = Operand::Const(i32::from(assigned));
            fields.extend(self.leaf_of((&path, k == 0), leaf, zero, assigned, span));
        }
        let state = if heap { LIVE } else { NOT_HEAP };
        self.record(fields, state, Some(ty), span)
    }

    /// The value `0` of the leaf type `leaf` (null for a pointer), and for an array member a
    /// blank array of its elements, assigned or not.
    pub fn blank_value(&mut self, leaf: CType, assigned: bool, span: Span) -> Operand {
        match leaf {
            CType::Pointer(_) => Operand::Null,
            CType::Element(_) => self.element_value(Operand::Null, Operand::Const(0), span),
            CType::Array(id) => {
                let (element, dims) = self.unit.types.borrow().array(id);
                let array = self.array_of_elements(element, &dims, None, assigned, span);
                Operand::Local(self.b.assign_temp(array, span))
            }
            CType::Struct(_) => self.blank_object(leaf, assigned, false, span),
            _ => leaf.constant(0),
        }
    }

    /// The object of type `ty` whose leaves are `values` (in [`Types::leaves`] order), all
    /// assigned (an array member's elements carry their own flags).
    pub fn object_of(&mut self, ty: CType, values: &[Operand], span: Span) -> Operand {
        self.object_in_state(ty, values, false, span)
    }

    /// [`FnCx::object_of`], on the heap (a live heap object) or not.
    pub fn object_in_state(
        &mut self,
        ty: CType,
        values: &[Operand],
        heap: bool,
        span: Span,
    ) -> Operand {
        let leaves = self.stored_leaves(ty);
        let mut fields = Vec::with_capacity(2 * leaves.len());
        let mut values = values.iter().copied();
        for (k, (path, leaf)) in leaves.into_iter().enumerate() {
            let value = match leaf {
                // A boxed struct member takes the values of its own leaves.
                CType::Struct(_) => {
                    let count = self.unit.types.borrow().leaves(leaf).len();
                    let inner: Vec<Operand> = values.by_ref().take(count).collect();
                    self.object_of(leaf, &inner, span)
                }
                _ => values.next().unwrap_or(Operand::Const(0)),
            };
            let one = Operand::Const(1);
            fields.extend(self.leaf_of((&path, k == 0), leaf, value, one, span));
        }
        let state = if heap { LIVE } else { NOT_HEAP };
        self.record(fields, state, Some(ty), span)
    }

    /// [`stored_leaves`] of `ty`.
    pub(super) fn stored_leaves(&self, ty: CType) -> Vec<(String, CType)> {
        stored_leaves(&self.unit.types.borrow(), &self.unit.boxed_members, ty)
    }

    /// Whether the member `name` of type `field` lives in a box of its own (`lower/memory.rs`
    /// "Boxes"): a scalar whose name `&` is applied to, or such a struct without boxes of its
    /// own.
    pub fn member_boxed(&self, name: &str, field: CType) -> bool {
        let boxed = &self.unit.boxed_members;
        (field.is_scalar() && boxed.contains(name))
            || struct_boxed(&self.unit.types.borrow(), boxed, name, field)
    }

    /// The box of the boxed member `member` (a scalar's, or an array member's): its struct's
    /// guards run, then the pointer read.
    pub fn unbox(&mut self, member: &Memory, span: Span) -> Memory {
        let pointer = self.box_pointer(member, span);
        let name = member.prefix.rsplit('.').next().unwrap_or_default();
        if self.unit.boxed_members.singletons.contains(name) {
            return self.one_box(pointer);
        }
        self.object_memory(pointer)
    }

    /// The box of the boxed struct member `member` ([`FnCx::unbox`]; never an array of one).
    pub fn unbox_struct(&mut self, member: &Memory, span: Span) -> Memory {
        let pointer = self.box_pointer(member, span);
        self.object_memory(pointer)
    }

    /// The pointer to the box of the boxed member `member`, read after its struct's guards.
    fn box_pointer(&mut self, member: &Memory, span: Span) -> Operand {
        self.guard(member, span);
        let (value_field, _) = leaf_fields(&member.prefix);
        let read = Rvalue::Read(member.field(self.field_id(&value_field)));
        Operand::Local(self.b.assign_temp(read, span))
    }

    /// The box of the array member `member` ([`FnCx::unbox`]), whose elements are guarded at
    /// every access by the heap state of `member`'s struct: the box is freed with its struct
    /// and has no state of its own. The struct's check when the box pointer is read is not
    /// enough: in `p->a[0] = (free(p), 1)` the store comes after the right side, so after the
    /// free. Where the file frees memory, the struct's pointer guards therefore run again
    /// before the box's (the state is read at the access, maybe in another block).
    pub fn unbox_array(&mut self, member: &Memory, span: Span) -> Memory {
        let mut boxed = self.unbox(member, span);
        boxed.heap = member.heap.filter(|_| self.unit.frees);
        if let Some(owner) = boxed.heap {
            let mut guards = self.owner_guards(owner);
            guards.append(&mut boxed.guards);
            boxed.guards = guards;
        }
        boxed
    }

    /// The box of the array member `member` where C only computes an address from it
    /// (`t[k].name` used as a pointer, `&t[k].name[j]`): see [`FnCx::guarded_for_address`].
    /// Pointers made from the box check its own heap state when used.
    pub fn unbox_array_for_address(&mut self, member: &Memory, span: Span) -> Memory {
        let checked = self.guarded_for_address(member, span);
        self.unbox_array(&checked, span)
    }

    /// The boxed member `member` after its struct's checks, where C only computes an address
    /// from it (`&t[k].x`, `t[k].name`): the struct is not accessed in C, so where an access of
    /// it would fail (it lies outside its array, is freed, or the pointer to it is null), C's
    /// address arithmetic left the objects, which C leaves undefined but is no invalid access:
    /// an `unmodelled` check comes before each of the struct's checks. The result has no
    /// guards left (reading the box pointer needs none but these).
    pub fn guarded_for_address(&mut self, member: &Memory, span: Span) -> Memory {
        let cause = "a member's address computed from a struct outside its array, freed or null";
        let temp = |cx: &mut Self, value| Operand::Local(cx.b.assign_temp(value, span));
        for check in &member.guards {
            let holds = match check {
                Check::NonNull(pointer) => Some(temp(
                    self,
                    Rvalue::Binary(BinOp::Ne, *pointer, Operand::Null),
                )),
                Check::InBounds { array, index } => {
                    let length = temp(self, Rvalue::Len(array.clone()));
                    let low = temp(self, Rvalue::Binary(BinOp::Ge, *index, Operand::Const(0)));
                    let high = temp(self, Rvalue::Binary(BinOp::Lt, *index, length));
                    Some(temp(self, Rvalue::Binary(BinOp::BitAnd, low, high)))
                }
                _ => None,
            };
            if let Some(holds) = holds {
                self.check_modelled(holds, cause, span);
            }
            self.check(check.clone(), span);
        }
        if let (true, Some(owner)) = (self.unit.frees, member.heap) {
            let state = self.heap_state(owner, span);
            for (bad, _) in self.bad_states_of(member) {
                let holds = temp(self, Rvalue::Binary(BinOp::Ne, state, Operand::Const(bad)));
                self.check_modelled(holds, cause, span);
            }
        }
        Memory {
            guards: Vec::new(),
            heap: None,
            ..member.clone()
        }
    }

    /// The field `field` of the record at `base` (a local holding one, or `*pointer`), read
    /// into a temporary of `width` (the field's numbers; pointers and flags: 32 bits).
    pub(super) fn read_field(
        &mut self,
        base: PlaceBase,
        field: &str,
        width: Width,
        span: Span,
    ) -> Operand {
        let place = self.field_place(base, field);
        Operand::Local(self.b.assign_temp_of(Rvalue::Read(place), width, span))
    }

    /// The field `field` of the record at `base`.
    pub(super) fn field_place(&self, base: PlaceBase, field: &str) -> Place {
        Place {
            base,
            projections: vec![Projection::Field(self.field_id(field))],
        }
    }

    /// The value (of `width`) and flag in the box `pointer` points to, read after its guards.
    fn box_contents(&mut self, pointer: Operand, width: Width, span: Span) -> [Operand; 2] {
        for check in self.pointee_guards(pointer) {
            self.check(check, span);
        }
        let [value, flag] = SCALAR_FIELDS;
        let base = PlaceBase::Deref(pointer);
        [
            self.read_field(base, value, width, span),
            self.read_field(base, flag, Width::W32, span),
        ]
    }

    /// The value and flag of the scalar leaf at `path` (of type `leaf`) of the struct value
    /// `record`: its fields, or a boxed leaf's box contents.
    pub(super) fn record_leaf(
        &mut self,
        record: LocalId,
        path: &str,
        leaf: CType,
        span: Span,
    ) -> [Operand; 2] {
        let (value_field, flag_field) = leaf_fields(path);
        let from = PlaceBase::Local(record);
        match leaf_kind(&self.unit.boxed_members, path, leaf) {
            Leaf::ScalarBox => {
                let pointer = self.read_field(from, &value_field, Width::W32, span);
                self.box_contents(pointer, leaf.width(), span)
            }
            Leaf::OneBox => {
                let pointer = self.read_field(from, &value_field, Width::W32, span);
                self.one_box_contents(pointer, leaf.width(), span)
            }
            _ => [
                self.read_field(from, &value_field, leaf.width(), span),
                self.read_field(from, &flag_field, Width::W32, span),
            ],
        }
    }

    /// The value (of `width`) and flag of the one element of the box `pointer` points to (an
    /// array of one), read after its guards.
    fn one_box_contents(&mut self, pointer: Operand, width: Width, span: Span) -> [Operand; 2] {
        let element = self.one_box_element(pointer, span);
        SCALAR_FIELDS.map(|field| {
            let width = if field == SCALAR_FIELDS[0] {
                width
            } else {
                Width::W32
            };
            let read = Rvalue::Read(element.field(self.field_id(field)));
            Operand::Local(self.b.assign_temp_of(read, width, span))
        })
    }

    /// The one element of the box `pointer` points to (an array of one), after its guards.
    fn one_box_element(&mut self, pointer: Operand, span: Span) -> Memory {
        let element = self.one_box(pointer);
        for check in &element.guards {
            self.check(check.clone(), span);
        }
        element
    }

    /// The one element of the box `pointer` points to (an array of one), guarded as a box is
    /// and by the bounds check the IR asks before an index; its heap state is its own, as an
    /// array's (`free` of its struct sets it).
    fn one_box(&self, pointer: Operand) -> Memory {
        let index = Operand::Const(0);
        let array = Place {
            base: PlaceBase::Deref(pointer),
            projections: Vec::new(),
        };
        let mut guards = self.pointee_guards(pointer);
        guards.push(Check::InBounds { array, index });
        Memory {
            place: Place {
                base: PlaceBase::Deref(pointer),
                projections: vec![Projection::Index(index)],
            },
            prefix: String::new(),
            guards,
            heap: Some(HeapOwner::Array(pointer)),
            literal: false,
        }
    }

    /// The array in the box `pointer` points to, read whole after its guards.
    fn array_box_contents(&mut self, pointer: Operand, span: Span) -> Operand {
        for check in self.pointee_guards(pointer) {
            self.check(check, span);
        }
        let place = Place {
            base: PlaceBase::Deref(pointer),
            projections: Vec::new(),
        };
        Operand::Local(self.b.assign_temp(Rvalue::Read(place), span))
    }

    /// The value of the struct member of type `ty` in the box `pointer` points to, read after
    /// its guards (it has no boxes of its own: [`struct_boxed`]).
    fn struct_box_contents(&mut self, pointer: Operand, ty: CType, span: Span) -> Operand {
        let boxed = self.object_memory(pointer);
        self.read_memory(&boxed, ty, false, span)
    }

    /// The boxes of the object at `object` (of type `ty`, its guards ran), as the owners of
    /// their heap states: a scalar box's own, an array box's first element's.
    pub(super) fn boxes_of(&mut self, object: &Place, ty: CType, span: Span) -> Vec<HeapOwner> {
        let leaves = self.stored_leaves(ty);
        let mut boxes = Vec::new();
        for (path, leaf) in leaves {
            let kind = leaf_kind(&self.unit.boxed_members, &path, leaf);
            let owner: fn(Operand) -> HeapOwner = match kind {
                Leaf::ScalarBox | Leaf::StructBox => HeapOwner::Object,
                Leaf::ArrayBox | Leaf::OneBox => HeapOwner::Array,
                Leaf::Inline => continue,
            };
            let mut field = object.clone();
            let name = leaf_fields(&path).0;
            field
                .projections
                .push(Projection::Field(self.field_id(&name)));
            let held = Operand::Local(self.b.assign_temp(Rvalue::Read(field), span));
            boxes.push(owner(held));
            // A union in a box of its own has its bytes' box inside (`struct_boxed`).
            if kind == Leaf::StructBox && self.has_boxes(leaf) {
                for check in self.pointee_guards(held) {
                    self.check(check, span);
                }
                let inner = Place {
                    base: PlaceBase::Deref(held),
                    projections: Vec::new(),
                };
                boxes.extend(self.boxes_of(&inner, leaf, span));
            }
        }
        boxes
    }

    /// Sets the heap state of `owner` to `state`, after the checks that reach it.
    pub(super) fn set_heap_state(&mut self, owner: HeapOwner, state: i32, span: Span) {
        for check in self.owner_guards(owner) {
            self.check(check, span);
        }
        let place = self.heap_place(owner);
        let value = Operand::Const(state);
        self.b.emit(InstKind::Store { place, value }, span);
    }

    /// Runs the guards of `memory`, returning their property ids (to repeat them after a
    /// store that ends an index check); then, for an object reached through a pointer in a
    /// file that frees memory, the `use-after-free` check.
    pub(super) fn guard(&mut self, memory: &Memory, span: Span) -> Vec<PropId> {
        let props = memory
            .guards
            .iter()
            .map(|check| {
                let prop = PropId(self.properties.len() as u32);
                self.check(check.clone(), span);
                prop
            })
            .collect();
        if let (true, Some(owner)) = (self.unit.frees, memory.heap) {
            let state = self.heap_state(owner, span);
            for (bad, kind) in self.bad_states_of(memory) {
                let holds = Rvalue::Binary(BinOp::Ne, state, Operand::Const(bad));
                let holds = Operand::Local(self.b.assign_temp(holds, span));
                if kind == PropertyKind::Unmodelled {
                    self.unmodelled_guard_cause(holds, PHANTOM_ACCESS);
                }
                self.check(Check::Condition { holds, kind }, span);
            }
        }
        props
    }

    /// Before the pointer `pointer` (of type `ty`: to an object, or into an array) is compared
    /// with another pointer: where the file frees memory or ends variables' lives, the
    /// `unmodelled` check that, unless null, it does not point to an object whose life ended.
    /// C makes such a pointer's value indeterminate, and a real allocator may give the freed
    /// address to a new object (`free(y); x = malloc(4); if (x == y)` may take its branch:
    /// SV-COMP's `cmp-freed-ptr`), while every object here has an identity of its own, so the
    /// comparison's answer would not be C's.
    pub(super) fn not_dangling(&mut self, pointer: Operand, ty: CType, span: Span) {
        let ended: Vec<i32> = [(FREED, self.unit.frees), (DEAD, self.unit.lifetimes)]
            .into_iter()
            .filter_map(|(state, tracked)| tracked.then_some(state))
            .collect();
        let not_null = match ty {
            _ if ended.is_empty() => return,
            CType::Pointer(_) => self.temp(Rvalue::Binary(BinOp::Ne, pointer, Operand::Null), span),
            CType::Element(_) => self.element_truth(pointer, span),
            _ => return,
        };
        let (checked, done) = (self.b.new_block(), self.b.new_block());
        self.b.branch(not_null, checked, done, span);
        self.b.switch_to(checked);
        let owner = match ty {
            CType::Element(_) => HeapOwner::Array(self.element_parts(pointer, span)[0]),
            _ => HeapOwner::Object(pointer),
        };
        for check in self.owner_guards(owner) {
            self.check(check, span);
        }
        let state = self.heap_state(owner, span);
        let cause = "a pointer to a freed object or to a variable whose function returned, \
                     compared with another pointer";
        self.unmodelled_cause(span, cause);
        for bad in ended {
            let holds = self.temp(Rvalue::Binary(BinOp::Ne, state, Operand::Const(bad)), span);
            let kind = PropertyKind::Unmodelled;
            self.check(Check::Condition { holds, kind }, span);
        }
        self.b.goto(done, span);
        self.b.switch_to(done);
    }

    /// The heap states an accessed object must not have, with the property each fails:
    /// freed; made from an integer (`NO_OBJECT`, only in files that make such pointers); a
    /// variable whose function returned (`DEAD`, only where ends of life are set).
    pub(super) fn bad_states(&self) -> Vec<(i32, PropertyKind)> {
        let phantoms = (1..=self.unit.containers.len())
            .map(|number| (phantom_state(number), PropertyKind::Unmodelled, true));
        let states = [
            (FREED, PropertyKind::UseAfterFree, true),
            (
                NO_OBJECT,
                PropertyKind::InvalidPointer,
                self.unit.integer_pointers,
            ),
            (DEAD, PropertyKind::UseAfterReturn, self.unit.lifetimes),
        ];
        (states.into_iter().chain(phantoms))
            .filter_map(|(state, kind, checked)| checked.then_some((state, kind)))
            .collect()
    }

    /// [`FnCx::bad_states`] of the object `memory` is (a member of): but for the phantoms
    /// whose member it is (`lower/containers.rs`), since `pos->link` of the phantom of
    /// `container_of(head, T, link)` is `*head`.
    fn bad_states_of(&self, memory: &Memory) -> Vec<(i32, PropertyKind)> {
        let own_phantoms: Vec<i32> = (self.unit.containers.iter().enumerate())
            .filter(|(_, c)| c.member == memory.prefix)
            .map(|(k, _)| phantom_state(k + 1))
            .collect();
        let mut states = self.bad_states();
        states.retain(|(bad, _)| !own_phantoms.contains(bad));
        states
    }

    /// The heap-state field of `owner` (its [`FnCx::owner_guards`] ran).
    pub(super) fn heap_place(&self, owner: HeapOwner) -> Place {
        match owner {
            HeapOwner::Object(pointer) => self.field_place(PlaceBase::Deref(pointer), HEAP_FIELD),
            HeapOwner::Array(cell) => Place {
                base: PlaceBase::Deref(cell),
                projections: vec![
                    Projection::Index(Operand::Const(0)),
                    Projection::Field(self.field_id(HEAP_FIELD)),
                ],
            },
        }
    }

    /// The heap state of `owner` (its [`FnCx::owner_guards`] ran).
    pub(super) fn heap_state(&mut self, owner: HeapOwner, span: Span) -> Operand {
        let place = self.heap_place(owner);
        Operand::Local(self.b.assign_temp(Rvalue::Read(place), span))
    }

    /// The checks before reading the heap state of `owner`: its pointer's guards, and for an
    /// array that its first element is in bounds (it always is: a C array is never empty).
    pub(super) fn owner_guards(&self, owner: HeapOwner) -> Vec<Check> {
        match owner {
            HeapOwner::Object(pointer) => self.pointee_guards(pointer),
            HeapOwner::Array(cell) => {
                let mut guards = self.pointee_guards(cell);
                guards.push(Check::InBounds {
                    array: Place {
                        base: PlaceBase::Deref(cell),
                        projections: Vec::new(),
                    },
                    index: Operand::Const(0),
                });
                guards
            }
        }
    }

    /// The checks before an access of the object `pointer` points to: `null-deref`, and
    /// where the file takes addresses of variables, the IR's `uninit` check of the cell.
    pub fn pointee_guards(&self, pointer: Operand) -> Vec<Check> {
        let mut guards = vec![Check::NonNull(pointer)];
        if !self.unit.address_taken.is_empty() {
            guards.push(Check::Init(Place {
                base: PlaceBase::Deref(pointer),
                projections: Vec::new(),
            }));
        }
        guards
    }

    /// `free(pointer)`, `pointer` not null and to an object of type `ty`: the `invalid-free`
    /// check that its object is live, then the object is freed, with its boxes. Where the
    /// file has boxes, `pointer` may point to one (into an object): the `unmodelled` check
    /// comes first.
    pub fn release(&mut self, pointer: Operand, ty: CType, span: Span) {
        for check in self.pointee_guards(pointer) {
            self.check(check, span);
        }
        let state = self.heap_state(HeapOwner::Object(pointer), span);
        let mut conditions = Vec::new();
        if !self.unit.boxed_members.is_empty() {
            let into_object = Rvalue::Binary(BinOp::Ne, state, Operand::Const(MEMBER));
            conditions.push((into_object, PropertyKind::Unmodelled));
            self.unmodelled_cause(span, "`free` of a pointer into an object");
        }
        for number in 1..=self.unit.containers.len() {
            let phantom = Rvalue::Binary(BinOp::Ne, state, Operand::Const(phantom_state(number)));
            conditions.push((phantom, PropertyKind::Unmodelled));
            self.unmodelled_cause(span, PHANTOM_ACCESS);
        }
        let live = Rvalue::Binary(BinOp::Eq, state, Operand::Const(LIVE));
        conditions.push((live, PropertyKind::InvalidFree));
        for (holds, kind) in conditions {
            let holds = Operand::Local(self.b.assign_temp(holds, span));
            self.check(Check::Condition { holds, kind }, span);
        }
        let object = Place {
            base: PlaceBase::Deref(pointer),
            projections: Vec::new(),
        };
        let boxes = match ty {
            CType::Struct(_) => self.boxes_of(&object, ty, span),
            _ => Vec::new(),
        };
        let place = self.heap_place(HeapOwner::Object(pointer));
        let value = Operand::Const(FREED);
        self.b.emit(InstKind::Store { place, value }, span);
        for owner in boxes {
            self.set_heap_state(owner, FREED, span);
        }
        self.count_objects(-1, span);
    }

    /// The guards again, as the same properties (after a store, for a second store).
    fn reguard(&mut self, memory: &Memory, props: &[PropId], span: Span) {
        for (check, &prop) in memory.guards.iter().zip(props) {
            if matches!(check, Check::InBounds { .. }) {
                let check = check.clone();
                self.b.emit(InstKind::Check { check, prop }, span);
            }
        }
    }

    /// Reads the scalar leaf at `path` of the object, of type `ty`: its flag checked
    /// (`uninit`), then its value (an element pointer's two fields joined).
    fn read_leaf(&mut self, memory: &Memory, path: &str, ty: CType, span: Span) -> Operand {
        let (value, flag) = leaf_fields(&join(&memory.prefix, path));
        let holds = Rvalue::Read(memory.field(self.field_id(&flag)));
        let holds = Operand::Local(self.b.assign_temp(holds, span));
        let kind = PropertyKind::Uninit;
        self.check(Check::Condition { holds, kind }, span);
        let read = |cx: &mut Self, field: &str, width: Width| {
            let value = Rvalue::Read(memory.field(cx.field_id(field)));
            Operand::Local(cx.b.assign_temp_of(value, width, span))
        };
        let cell = read(self, &value, ty.width());
        match ty {
            CType::Element(_) => {
                let index = read(self, &index_field(&value), Width::W32);
                self.element_value(cell, index, span)
            }
            _ => self.in_range(cell, ty, (memory, &join(&memory.prefix, path)), span),
        }
    }

    /// `value`, read from `memory` as a number of type `ty`, in `ty`'s range: an object reached
    /// through a pointer may be an entry function's input, whose members the input heap gives
    /// as any 32-bit numbers (the program's own stores keep every value in its range, so this
    /// changes no other value).
    pub(super) fn in_range(
        &mut self,
        value: Operand,
        ty: CType,
        (memory, path): (&Memory, &str),
        span: Span,
    ) -> Operand {
        match memory.place.base {
            PlaceBase::Deref(_) if ty.is_number() => {
                let value = self.convert(value, ty, span);
                self.bit_field_value(path, value, ty, span)
            }
            _ => value,
        }
    }

    /// `value`, stored into the member at `path` of type `ty`, as a bit-field keeps it (its
    /// low bits, sign-extended where its declared type is signed, as gcc does); another
    /// member's unchanged.
    pub(super) fn bit_field_value(
        &mut self,
        path: &str,
        value: Operand,
        ty: CType,
        span: Span,
    ) -> Operand {
        let name = path.rsplit('.').next().unwrap_or(path);
        let Some(field) = self.unit.types.borrow().bit_field_named(name) else {
            return value;
        };
        let bits = match ty.width() {
            Width::W32 => 32,
            Width::W64 => 64,
        };
        if field.width >= bits || ty == CType::Bool {
            return value;
        }
        let shift = ty.constant(i64::from(bits - field.width));
        let up = self.temp(Rvalue::Binary(BinOp::Shl, value, shift), span);
        let down = if field.signed {
            BinOp::AShr
        } else {
            BinOp::LShr
        };
        self.temp(Rvalue::Binary(down, up, shift), span)
    }

    /// Whether [`FnCx::in_range`] may change a leaf of an object of type `ty`: a number
    /// narrower than `int` or wider, or a bit-field.
    fn narrows(&self, ty: CType) -> bool {
        let types = self.unit.types.borrow();
        let narrowed = |(path, leaf): &(String, CType)| {
            let name = path.rsplit('.').next().unwrap_or(path);
            leaf.is_number() && !matches!(leaf, CType::Int | CType::UInt)
                || types.bit_field_named(name).is_some()
        };
        types.leaves(ty).iter().any(narrowed)
    }

    /// The value of type `ty` that `memory` holds; `checked` when its guards just ran.
    pub fn read_memory(
        &mut self,
        memory: &Memory,
        ty: CType,
        checked: bool,
        span: Span,
    ) -> Operand {
        if !checked {
            self.guard(memory, span);
        }
        if ty.is_scalar() {
            return self.read_leaf(memory, "", ty, span);
        }
        // Through a pointer, a leaf that `in_range` narrows is read on its own.
        let narrowed = matches!(memory.place.base, PlaceBase::Deref(_)) && self.narrows(ty);
        if memory.prefix.is_empty() && !self.unit.frees && !self.has_boxes(ty) && !narrowed {
            let whole = Rvalue::Read(memory.place.clone());
            return Operand::Local(self.b.assign_temp(whole, span));
        }
        // A struct inside a struct (or any struct where objects have a heap state, which a
        // value does not carry, or boxes, which a copy does not share): its leaves copied into
        // a record of its own. Copying a struct copies indeterminate members too, so the flags
        // are copied, not checked.
        let leaves = self.stored_leaves(ty);
        let mut fields = Vec::with_capacity(2 * leaves.len());
        // Every leaf is read before any is made into the copy: making one may store (a fresh
        // box's heap state), which ends the checks the reads of `memory` rely on.
        let mut read_leaves = Vec::with_capacity(leaves.len());
        for (path, leaf) in leaves {
            let (value, flag) = leaf_fields(&join(&memory.prefix, &path));
            let read = |cx: &mut Self, outer: &str, width: Width| {
                let read = Rvalue::Read(memory.field(cx.field_id(outer)));
                Operand::Local(cx.b.assign_temp_of(read, width, span))
            };
            if let CType::Element(_) = leaf {
                // Its two fields and its flag, copied as they are.
                let (inner_value, inner_flag) = leaf_fields(&path);
                for (inner, outer) in [
                    (index_field(&inner_value), index_field(&value)),
                    (inner_value, value),
                    (inner_flag, flag),
                ] {
                    let field = read(self, &outer, Width::W32);
                    fields.push((self.field_id(&inner), field));
                }
                continue;
            }
            let kind = leaf_kind(&self.unit.boxed_members, &path, leaf);
            // A boxed leaf's field holds the box's pointer.
            let held = match kind {
                Leaf::Inline => leaf.width(),
                Leaf::ScalarBox | Leaf::OneBox | Leaf::ArrayBox | Leaf::StructBox => Width::W32,
            };
            let [value, flag] = [read(self, &value, held), read(self, &flag, Width::W32)];
            let [value, flag] = match kind {
                Leaf::ScalarBox => self.box_contents(value, leaf.width(), span),
                Leaf::OneBox => self.one_box_contents(value, leaf.width(), span),
                Leaf::ArrayBox => [self.array_box_contents(value, span), flag],
                Leaf::StructBox => [self.struct_box_contents(value, leaf, span), flag],
                Leaf::Inline => {
                    let full = join(&memory.prefix, &path);
                    [self.in_range(value, leaf, (memory, &full), span), flag]
                }
            };
            read_leaves.push((path, leaf, value, flag));
        }
        // A copied array member carries its first element's heap state (`MEMBER` for a first
        // member, as the box it is read from was made): its fresh box needs no store of it.
        for (path, leaf, value, flag) in read_leaves {
            fields.extend(self.leaf_of((&path, false), leaf, value, flag, span));
        }
        self.record(fields, NOT_HEAP, Some(ty), span)
    }

    /// Stores `value` of type `ty` into `memory`; `checked` when its guards just ran. Returns
    /// the value stored: `value`, but for a bit-field its low bits (C's value of the
    /// assignment, `y = (f.a = 9)` is 1 for `unsigned a : 3`).
    pub fn write_memory(
        &mut self,
        memory: &Memory,
        ty: CType,
        value: Operand,
        checked: bool,
        span: Span,
    ) -> Operand {
        self.write_memory_flagged(memory, ty, (value, Operand::Const(1)), checked, span)
    }

    /// [`FnCx::write_memory`] of a scalar `value` whose assigned flag is `assigned` (copied
    /// from another object by `memcpy`; 1 for a store); a struct value carries its flags.
    pub(super) fn write_memory_flagged(
        &mut self,
        memory: &Memory,
        ty: CType,
        (value, assigned): (Operand, Operand),
        checked: bool,
        span: Span,
    ) -> Operand {
        let value = match ty.is_number() {
            true => self.bit_field_value(&memory.prefix, value, ty, span),
            false => value,
        };
        let props = if checked {
            None
        } else {
            Some(self.guard(memory, span))
        };
        if memory.literal {
            // C leaves writing a string literal undefined (C11 6.4.5p7), a check of its own.
            let (_, flag) = leaf_fields(&memory.prefix);
            let flag = Rvalue::Read(memory.field(self.field_id(&flag)));
            let flag = Operand::Local(self.b.assign_temp(flag, span));
            let writable = Rvalue::Binary(BinOp::Ne, flag, Operand::Const(READ_ONLY));
            let holds = Operand::Local(self.b.assign_temp(writable, span));
            let kind = PropertyKind::LiteralWrite;
            self.check(Check::Condition { holds, kind }, span);
        }
        // A struct with boxes goes leaf by leaf (below), into the boxes already there, and so
        // does a scalar with a flag of its own.
        let whole = memory.prefix.is_empty()
            && !self.has_boxes(ty)
            && (!ty.is_scalar() || assigned == Operand::Const(1));
        if whole && memory.place.projections.is_empty() {
            if let PlaceBase::Local(local) = memory.place.base {
                let whole_value = if ty.is_scalar() {
                    self.object_of(ty, &[value], span)
                } else {
                    value
                };
                let whole = Rvalue::Use(whole_value);
                self.b.emit(
                    InstKind::Assign {
                        dst: local,
                        value: whole,
                    },
                    span,
                );
                return value;
            }
        }
        // Where objects have a heap state, a whole object stored through a pointer goes leaf by
        // leaf (below), keeping the state of the object it overwrites.
        let through_pointer = matches!(memory.place.base, PlaceBase::Deref(_));
        if whole && !(self.unit.frees && through_pointer) {
            let whole_value = if ty.is_scalar() {
                self.object_of(ty, &[value], span)
            } else {
                value
            };
            let place = memory.place.clone();
            self.b.emit(
                InstKind::Store {
                    place,
                    value: whole_value,
                },
                span,
            );
            return value;
        }
        // A member: each leaf field stored on its own; a store ends the index checks of the
        // place, so they are repeated (as the same properties) before the next store.
        let mut stores: Vec<(String, Operand)> = Vec::new();
        // The boxes to copy: the field holding the target's box, the source's box, and which
        // kind of box they are.
        let mut box_copies: Vec<(String, Operand, Leaf, CType)> = Vec::new();
        if let CType::Element(_) = ty {
            let (value_field, flag) = leaf_fields(&memory.prefix);
            let [cell, index] = self.element_parts(value, span);
            // The index first (traces show the cell's store that follows as the element's
            // address).
            stores.push((index_field(&value_field), index));
            stores.push((value_field, cell));
            stores.push((flag, Operand::Const(1)));
        } else if ty.is_scalar() {
            let (value_field, flag) = leaf_fields(&memory.prefix);
            stores.push((value_field, value));
            stores.push((flag, assigned));
        } else {
            let record = match value {
                Operand::Local(record) => record,
                other => self.b.assign_temp(Rvalue::Use(other), span),
            };
            let leaves = self.stored_leaves(ty);
            for (path, leaf) in leaves {
                let (inner_value, inner_flag) = leaf_fields(&path);
                let (value_field, flag) = leaf_fields(&join(&memory.prefix, &path));
                let from_record = PlaceBase::Local(record);
                let kind = leaf_kind(&self.unit.boxed_members, &path, leaf);
                if kind != Leaf::Inline {
                    let source = self.read_field(from_record, &inner_value, Width::W32, span);
                    box_copies.push((value_field, source, kind, leaf));
                    continue;
                }
                // An element pointer's index first (traces show the cell's store that follows
                // as the element's address).
                let mut copied = Vec::with_capacity(3);
                if let CType::Element(_) = leaf {
                    let index = (index_field(&inner_value), index_field(&value_field));
                    copied.push((index.0, index.1, Width::W32));
                }
                copied.push((inner_value, value_field, leaf.width()));
                copied.push((inner_flag, flag, Width::W32));
                for (inner, outer, width) in copied {
                    let read = self.read_field(from_record, &inner, width, span);
                    stores.push((outer, read));
                }
            }
        }
        let mut stored = false;
        for (field, value) in stores {
            if stored && memory.indexed() {
                self.guard_again(memory, props.as_deref(), span);
            }
            let place = memory.field(self.field_id(&field));
            self.b.emit(InstKind::Store { place, value }, span);
            stored = true;
        }
        for (field, source, kind, leaf) in box_copies {
            if stored && memory.indexed() {
                self.guard_again(memory, props.as_deref(), span);
            }
            self.copy_box(memory, &field, source, (kind, leaf), span);
            stored = true;
        }
        value
    }

    /// The guards of `memory` once more after a store ended its index checks: the same
    /// properties `props` where this store made them, else (the caller's guards ran as
    /// properties of their own) new ones.
    fn guard_again(&mut self, memory: &Memory, props: Option<&[PropId]>, span: Span) {
        match props {
            Some(props) => self.reguard(memory, props, span),
            None => {
                self.guard(memory, span);
            }
        }
    }

    /// Copies the contents of the box `source` into the box of the same kind that the field
    /// `field` of `memory` holds (a whole-struct store keeps the target's boxes); the box
    /// holds the member of type `leaf`.
    fn copy_box(
        &mut self,
        memory: &Memory,
        field: &str,
        source: Operand,
        (kind, leaf): (Leaf, CType),
        span: Span,
    ) {
        let width = leaf.width();
        if kind == Leaf::StructBox {
            let record = self.struct_box_contents(source, leaf, span);
            let read = Rvalue::Read(memory.field(self.field_id(field)));
            let target = Operand::Local(self.b.assign_temp(read, span));
            let boxed = self.object_memory(target);
            self.write_memory(&boxed, leaf, record, false, span);
            return;
        }
        let contents = match kind {
            Leaf::ArrayBox => vec![self.array_box_contents(source, span)],
            Leaf::OneBox => self.one_box_contents(source, width, span).to_vec(),
            _ => self.box_contents(source, width, span).to_vec(),
        };
        let read = Rvalue::Read(memory.field(self.field_id(field)));
        let target = Operand::Local(self.b.assign_temp(read, span));
        let places: Vec<Place> = match kind {
            Leaf::ArrayBox => {
                for check in self.pointee_guards(target) {
                    self.check(check, span);
                }
                vec![Place {
                    base: PlaceBase::Deref(target),
                    projections: Vec::new(),
                }]
            }
            Leaf::OneBox => {
                let element = self.one_box_element(target, span);
                (SCALAR_FIELDS.iter())
                    .map(|field| element.field(self.field_id(field)))
                    .collect()
            }
            _ => {
                for check in self.pointee_guards(target) {
                    self.check(check, span);
                }
                SCALAR_FIELDS
                    .iter()
                    .map(|field| self.field_place(PlaceBase::Deref(target), field))
                    .collect()
            }
        };
        for (k, (place, value)) in places.into_iter().zip(contents).enumerate() {
            // A store ends the bounds check of the one box's element: the next needs it again.
            if kind == Leaf::OneBox && k > 0 {
                self.one_box_element(target, span);
            }
            self.b.emit(InstKind::Store { place, value }, span);
        }
    }
}

/// The IR types of C's values and objects, for the type table the engines read.
pub(super) struct IrTypes<'t> {
    types: &'t Types,
    boxed_members: &'t BoxedMembers,
    /// Whether objects have the heap-state field.
    frees: bool,
    /// Whether objects have the type-tag field.
    type_tags: bool,
    /// The containers (`lower/containers.rs`): objects of their member types hold their
    /// structs.
    containers: &'t [Container],
    /// The structs being expanded, outermost first: a pointer back to one is a μ variable.
    open: Vec<(CType, u32, bool)>,
}

impl<'t> IrTypes<'t> {
    pub fn new(
        types: &'t Types,
        boxed_members: &'t BoxedMembers,
        (frees, type_tags): (bool, bool),
        containers: &'t [Container],
    ) -> IrTypes<'t> {
        IrTypes {
            types,
            boxed_members,
            frees,
            type_tags,
            containers,
            open: Vec::new(),
        }
    }

    /// The type of a value of `ty` in an IR local (a scalar, or a struct's record).
    pub fn value(&mut self, ty: CType) -> Type {
        match ty {
            CType::Pointer(p) => {
                let pointee = self.types.pointee(p);
                Type::Pointer(Box::new(self.object(pointee)))
            }
            CType::Struct(_) => self.object(ty),
            // A record of the array's cell and an index (`lower/element_pointer.rs`).
            CType::Element(p) => {
                let cell = self.array_cell(p);
                let mut fields = vec![
                    (super::element_pointer::BASE_FIELD.to_string(), cell),
                    (super::element_pointer::INDEX_FIELD.to_string(), Type::Int),
                ];
                fields.sort_by(|a, b| a.0.cmp(&b.0));
                Type::Record(fields)
            }
            _ => Type::Int,
        }
    }

    /// The type of a pointer to the cell of an array of objects that `p` points to (an element
    /// pointer's cell).
    fn array_cell(&mut self, p: super::types::PointeeId) -> Type {
        let (pointee, whole) = match self.types.pointee(p) {
            // A view's cell holds its objects (`lower/views.rs`).
            CType::Byte(view) => {
                let view = self.types.view(view);
                (view.object, view.whole)
            }
            pointee => (pointee, false),
        };
        let object = self.object(pointee);
        match whole {
            true => Type::Pointer(Box::new(object)),
            false => Type::Pointer(Box::new(Type::Array(Box::new(object)))),
        }
    }

    /// The type of an array of objects of type `element` (with any dimensions: the IR array
    /// holds them in row-major order, `lower/array.rs`).
    pub fn array(&mut self, element: CType) -> Type {
        Type::Array(Box::new(self.object(element)))
    }

    /// The type of an object of type `ty` in memory (a flat record, see the module comment;
    /// an array member's box holds an array of objects).
    pub fn object(&mut self, ty: CType) -> Type {
        if ty == CType::Void {
            return Type::Unknown;
        }
        if let CType::Array(id) = ty {
            let (element, _) = self.types.array(id);
            return self.array(element);
        }
        if let Some(entry) = self.open.iter_mut().find(|(open, _, _)| *open == ty) {
            entry.2 = true;
            return Type::RecVar(entry.1);
        }
        let binder = self.open.len() as u32;
        self.open.push((ty, binder, false));
        let mut fields = Vec::new();
        for (path, leaf) in stored_leaves(self.types, self.boxed_members, ty) {
            let (value, flag) = leaf_fields(&path);
            if let CType::Element(p) = leaf {
                let cell = self.array_cell(p);
                fields.push((index_field(&value), Type::Int));
                fields.push((value, cell));
                fields.push((flag, Type::Int));
                continue;
            }
            let leaf = match leaf_kind(self.boxed_members, &path, leaf) {
                Leaf::Inline => self.value(leaf),
                Leaf::ScalarBox | Leaf::ArrayBox | Leaf::StructBox => {
                    Type::Pointer(Box::new(self.object(leaf)))
                }
                Leaf::OneBox => Type::Pointer(Box::new(self.array(leaf))),
            };
            fields.push((value, leaf));
            fields.push((flag, Type::Int));
        }
        if self.frees {
            fields.push((HEAP_FIELD.to_string(), Type::Int));
        }
        if let CType::Struct(id) = ty {
            if self.types.fields(id).is_none() && self.types.refusal(id).is_none() {
                fields.push((BYTES_FIELD.to_string(), Type::Int));
            }
        }
        if self.type_tags {
            fields.push((TYPE_FIELD.to_string(), Type::Int));
        }
        for (k, container) in self.containers.iter().enumerate() {
            if container.member_type == ty {
                let (owner, unknown) = owner_fields(k + 1);
                fields.push((owner, Type::Pointer(Box::new(self.object(container.owner)))));
                fields.push((unknown, Type::Int));
            }
        }
        fields.sort_by(|a, b| a.0.cmp(&b.0));
        let recursive = self.open.pop().is_some_and(|(_, _, used)| used);
        let record = Type::Record(fields);
        if recursive {
            Type::Recursive(binder, Box::new(record))
        } else {
            record
        }
    }
}
