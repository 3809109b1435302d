//! Unions: an object of a union type is its bytes, and its members are views of them.
//!
//! A union is a struct with one array member, [`UNION_BYTES`]: `unsigned char` objects, one
//! per byte of the union (`Types::union_def` sizes it as C does: the largest member, rounded up
//! to the strictest alignment). Everything a struct with an array member does, a union does by
//! the same code (`lower/memory.rs`): variables, `malloc`, `free`, copies, arguments, results,
//! pointers to it, arrays of it, a member of a struct. A member `u.m` is the bytes from offset
//! 0 (a member of its struct member, `u.s.b`, or an element of its array member, `u.a[i]`, at
//! its offset inside) read and written as a view reads them (`lower/view_access.rs`): least
//! significant first, as on x86. So what C calls type punning, reading a member other than the
//! last one written, gives exactly the bytes a real machine holds (`u.i = 258; u.c[0]` is 2),
//! and a byte no member ever wrote is indeterminate: reading it is the `uninit` check. A member
//! of struct type read or written whole (`t = u.s`, `u.s = t`) copies its leaves' bytes and
//! their assigned flags, as a struct copy does.
//!
//! A pointer has no bytes in symex, so a pointer member is a field of its own beside the bytes,
//! and a store into it marks the bytes it covers as its own ([`POINTER_BYTE`]): it reads back
//! while they stay so (`uninit` where never written, `unmodelled` where another member wrote
//! them since), and a read of a marked byte as an integer is `unmodelled`. A union directly
//! inside a union is more of its bytes. `_Bool`, function pointers, pointers inside struct
//! members, bit-fields and unions inside struct members are refused by `Types::union_def`. Nothing here decides which expressions are union members
//! (`lower/expr.rs`, `lower/array.rs`).

use lang_c::ast::{
    BinaryOperator, Constant, Designator, Expression, Initializer, InitializerListItem,
    MemberOperator,
};
use lang_c::span::Node;
use symex_ir::cfg::{
    BinOp, Check, Operand, Place, PlaceBase, Projection, PropertyKind, Rvalue, Width,
};
use symex_syntax::span::Span;

use super::func::FnCx;
use super::memory::{leaf_fields, LValue, Memory, NOT_HEAP};
use super::types::{CType, StructId, View, UNION_BYTES};
use super::view_access::{ByteLValue, BytePart};
use crate::error::CError;

/// A part of a union of struct, array or pointer type (`u.s`, `u.a`, `u.p`), `offset` bytes
/// into the union object `union`. A part of integer type is a [`ByteLValue`] at once.
#[derive(Clone, Debug)]
pub(super) struct UnionPart {
    pub union: Memory,
    pub offset: Operand,
    pub ty: CType,
    /// For a pointer member, its name (its field) and the flag its bytes hold while it is the
    /// member last stored ([`POINTER_BYTE`] and the member's position).
    pub pointer: Option<(String, i32)>,
}

/// What a union's initializer gives it: its bytes (value and assigned flag) and the pointer
/// member it stores, if it stores one (its name and value).
struct UnionInitial {
    bytes: Vec<(Operand, Operand)>,
    pointer: Option<(String, Operand)>,
}

/// The least assigned flag of a byte that belongs to a pointer stored in a union: an integer
/// read of it is `unmodelled` (symex does not model a pointer's bytes).
pub(super) const POINTER_BYTE: i32 = 0x100;

impl FnCx<'_, '_> {
    /// Whether `ty` is a union type.
    pub(super) fn is_union(&self, ty: CType) -> bool {
        let CType::Struct(id) = ty else {
            return false;
        };
        self.unit.types.borrow().union_members(id).is_some()
    }

    /// Whether `e` designates a part of a union (`u.i`, `p->b[2]`, `t.v.s.x`), which is
    /// seen through a view of its bytes.
    pub(super) fn in_union(&self, e: &Node<Expression>) -> bool {
        match &e.node {
            Expression::Member(m) => {
                let object = match m.node.operator.node {
                    MemberOperator::Direct => self.static_type(&m.node.expression),
                    MemberOperator::Indirect => match self.static_type(&m.node.expression) {
                        Some(CType::Pointer(p) | CType::Element(p)) => Some(self.pointee(p)),
                        _ => None,
                    },
                };
                // The member lies in a union where a step to it is a union's member (also of
                // an anonymous union, `n.number`).
                let name = &m.node.identifier.node.name;
                let through_union = |id| {
                    let types = self.unit.types.borrow();
                    let path = types.member_path(id, name).unwrap_or_default();
                    path.iter()
                        .any(|(container, _, _)| types.union_members(*container).is_some())
                };
                matches!(object, Some(CType::Struct(id)) if through_union(id))
                    || m.node.operator.node == MemberOperator::Direct
                        && self.in_union(&m.node.expression)
            }
            Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index => {
                self.in_union(&b.node.lhs)
            }
            _ => false,
        }
    }

    /// The leaves of a union of type `ty` (its bytes, then its pointer members, as
    /// `Types::leaves` lists them) that the braced initializer `items` gives it: one item for
    /// its first member, or `.m = ` for the member `m`, as C says. The member's bytes are its
    /// value's; the others are 0, as the rest of an aggregate is (C leaves them unspecified;
    /// gcc stores 0).
    pub(super) fn initial_union_leaves(
        &mut self,
        ty: CType,
        items: &[Node<InitializerListItem>],
        out: &mut Vec<Operand>,
        span: Span,
    ) -> Result<(), CError> {
        let CType::Struct(id) = ty else {
            return Err(CError::invalid(
                "internal error: a union of no union type",
                0,
            ));
        };
        let initial = self.initial_union_bytes(ty, items, span)?;
        let bytes = self.byte_array(initial.bytes, span);
        out.push(bytes);
        let fields = self.unit.types.borrow().fields(id).map(<[_]>::to_vec);
        for (name, field) in fields.unwrap_or_default().into_iter().skip(1) {
            match &initial.pointer {
                Some((stored, value)) if *stored == name => out.push(*value),
                _ => out.push(self.blank_value(field, true, span)),
            }
        }
        Ok(())
    }

    /// The bytes, and the pointer member stored, that the braced initializer `items` gives a
    /// union of type `ty` ([`FnCx::initial_union_leaves`]).
    fn initial_union_bytes(
        &mut self,
        ty: CType,
        items: &[Node<InitializerListItem>],
        span: Span,
    ) -> Result<UnionInitial, CError> {
        let CType::Struct(id) = ty else {
            return Err(CError::invalid(
                "internal error: a union of no union type",
                0,
            ));
        };
        let members = self
            .unit
            .types
            .borrow()
            .union_members(id)
            .map(<[_]>::to_vec);
        let members = members.unwrap_or_default();
        let zero_byte = (Operand::Const(0), Operand::Const(1));
        let mut bytes = vec![zero_byte; self.object_size(ty) as usize];
        let mut pointer = None;
        match items {
            [] => {}
            [item] => {
                let at = self.at(item.span);
                let chosen = match &item.node.designation[..] {
                    [] => members.first().map(|m| (0, m)),
                    [Node {
                        node: Designator::Member(name),
                        ..
                    }] => (members.iter().enumerate()).find(|(_, (m, _))| *m == name.node.name),
                    _ => {
                        return Err(CError::unsupported(
                            "this designator of a union member (`.m =` is supported)",
                            at,
                        ))
                    }
                };
                let Some((position, (name, member))) = chosen else {
                    return Err(no_union_member(&self.unit.types.borrow(), id, item, at));
                };
                let initializer = &item.node.initializer;
                if member.is_scalar() && !member.is_number() {
                    let Initializer::Expression(e) = &initializer.node else {
                        return Err(union_initializer(at));
                    };
                    pointer = Some((name.clone(), self.converted(e, *member, span, at)?));
                    let mark = Operand::Const(POINTER_BYTE + position as i32);
                    let size = self.object_size(*member) as usize;
                    bytes[..size].fill((Operand::Const(0), mark));
                } else {
                    self.initial_member_bytes(*member, initializer, &mut bytes, span)?;
                }
            }
            [_, second, ..] => {
                return Err(CError::unsupported(
                    "more than one initializer of a union (C initializes one member)",
                    self.at(second.span),
                ))
            }
        }
        Ok(UnionInitial { bytes, pointer })
    }

    /// Sets `bytes` (from the union's start: value and assigned flag) to those of the integer,
    /// array or struct member of type `member` that `initializer` gives; `{0}` and `{}` leave
    /// them 0.
    fn initial_member_bytes(
        &mut self,
        member: CType,
        initializer: &Node<Initializer>,
        bytes: &mut [(Operand, Operand)],
        span: Span,
    ) -> Result<(), CError> {
        let at = self.at(initializer.span);
        let zero = match &initializer.node {
            Initializer::Expression(e) => is_zero(e),
            Initializer::List(inner) => match &inner[..] {
                [] => true,
                [only] => {
                    only.node.designation.is_empty()
                        && matches!(&only.node.initializer.node, Initializer::Expression(e) if is_zero(e))
                }
                _ => false,
            },
        };
        if zero {
            return Ok(());
        }
        // A union inside the union: its own bytes (it has no pointer member).
        if self.is_union(member) {
            let inner = match &initializer.node {
                Initializer::List(items) => self.initial_union_bytes(member, items, span)?.bytes,
                Initializer::Expression(e) => {
                    let value = self.converted(e, member, span, at)?;
                    self.union_value_bytes(value, member, span)
                }
            };
            bytes[..inner.len()].copy_from_slice(&inner);
            return Ok(());
        }
        // The member's scalars with their offsets, values and flags.
        let mut scalars: Vec<(CType, i32, Operand, Operand)> = Vec::new();
        match (member, &initializer.node) {
            (_, Initializer::Expression(e)) if member.is_number() => {
                let value = self.converted(e, member, span, at)?;
                scalars.push((member, 0, value, Operand::Const(1)));
            }
            // A struct value (`{.s = t}`): its leaves with their flags.
            (CType::Struct(_), Initializer::Expression(e)) => {
                let record = self.converted(e, member, span, at)?;
                let record = match record {
                    Operand::Local(record) => record,
                    other => self.b.assign_temp(Rvalue::Use(other), span),
                };
                for (path, leaf, offset) in self.union_leaves(member) {
                    let [value, flag] = self.record_leaf(record, &path, leaf, span);
                    scalars.push((leaf, offset, value, flag));
                }
            }
            (CType::Struct(_), Initializer::List(_)) => {
                let mut values = Vec::new();
                self.initial_leaves(member, initializer, &mut values)?;
                let leaves = self.union_leaves(member);
                for ((_, leaf, offset), value) in leaves.into_iter().zip(values) {
                    scalars.push((leaf, offset, value, Operand::Const(1)));
                }
            }
            (CType::Array(id), Initializer::List(items)) => {
                let (element, dims) = self.unit.types.borrow().array(id);
                let count: u32 = dims.iter().product();
                let size = self.object_size(element);
                if items.len() > count as usize {
                    return Err(CError::invalid("more initializers than the array has", at));
                }
                for (j, item) in items.iter().enumerate() {
                    let item_at = self.at(item.span);
                    let Initializer::Expression(e) = &item.node.initializer.node else {
                        return Err(union_initializer(item_at));
                    };
                    if !item.node.designation.is_empty() || !element.is_number() {
                        return Err(union_initializer(item_at));
                    }
                    let value = self.converted(e, element, span, item_at)?;
                    scalars.push((element, j as i32 * size, value, Operand::Const(1)));
                }
            }
            _ => return Err(union_initializer(at)),
        }
        for (ty, offset, value, flag) in scalars {
            for k in 0..self.object_size(ty) {
                let shift = ty.constant(8 * i64::from(k));
                let shifted = self.temp(Rvalue::Binary(BinOp::LShr, value, shift), span);
                let byte = self.convert_number(shifted, ty, CType::UChar, span);
                bytes[(offset + k) as usize] = (byte, flag);
            }
        }
        Ok(())
    }

    /// The bytes of the union the pointer `pointer` of type `ty` points to, as a view of
    /// `unit`s (`(unsigned char *)&u`, `memcpy(&u, buf, n)`): a pointer to its first byte.
    /// `None` where `ty` is no pointer to a whole union whose members all live in its bytes (a
    /// pointer member is a field beside them, which only a copy of the whole union copies).
    pub(super) fn union_bytes_pointer(
        &mut self,
        (pointer, ty): (Operand, CType),
        unit: CType,
        span: Span,
    ) -> Option<(Operand, CType)> {
        let CType::Pointer(p) = ty else {
            return None;
        };
        let CType::Struct(id) = self.pointee(p) else {
            return None;
        };
        if !self.unit.types.borrow().union_in_bytes(id) {
            return None;
        }
        let bytes = self.object_memory(pointer).member(UNION_BYTES);
        let boxed = self.unbox_array_for_address(&bytes, span);
        let PlaceBase::Deref(cell) = boxed.place.base else {
            return None;
        };
        let view = View {
            unit,
            object: CType::UChar,
            whole: false,
        };
        let first = self.element_value(cell, Operand::Const(0), span);
        Some((first, self.unit.types.borrow_mut().view_pointer(view)))
    }

    /// The member `name` of the union object `union` (`u.m`, `p->m`), of type `member`.
    pub(super) fn union_member(
        &mut self,
        union: Memory,
        (id, name): (StructId, &str),
        member: CType,
        span: Span,
    ) -> LValue {
        let position = (self.unit.types.borrow().union_members(id))
            .and_then(|members| members.iter().position(|(m, _)| m == name));
        let pointer = (!member.is_number() && member.is_scalar()).then(|| {
            (
                name.to_string(),
                POINTER_BYTE + position.unwrap_or(0) as i32,
            )
        });
        let part = UnionPart {
            union,
            offset: Operand::Const(0),
            ty: member,
            pointer,
        };
        self.union_lvalue(part, span)
    }

    /// The member `name` of the struct `part` inside a union (`u.s.b`).
    pub(super) fn union_struct_member(
        &mut self,
        part: UnionPart,
        (id, name): (StructId, &str),
        member: CType,
        span: Span,
        at: usize,
    ) -> Result<LValue, CError> {
        let offset = {
            let types = self.unit.types.borrow();
            let fields = types.fields(id).unwrap_or_default();
            let index = fields.iter().position(|(f, _)| f == name);
            let offsets = types.member_offsets(id);
            match types.union_members(id) {
                // A union inside the union: its members are at its start.
                Some(_) => Some(0),
                None => index.zip(offsets).map(|(index, offsets)| offsets[index]),
            }
        };
        let Some(offset) = offset else {
            return Err(CError::invalid(
                format!("internal error: no offset of the member `{name}`"),
                at,
            ));
        };
        let part = UnionPart {
            offset: self.plus(part.offset, offset, span),
            ty: member,
            ..part
        };
        Ok(self.union_lvalue(part, span))
    }

    /// The element at the row-major `index` (checked against the array's dimensions) of the
    /// array `part` inside a union, of type `element` (`u.a[i]`).
    pub(super) fn union_element(
        &mut self,
        part: UnionPart,
        index: Operand,
        element: CType,
        span: Span,
    ) -> LValue {
        let size = self.object_size(element);
        let bytes = self.scaled(index, size, span);
        let offset = self.temp(Rvalue::Binary(BinOp::Add, part.offset, bytes), span);
        let part = UnionPart {
            offset,
            ty: element,
            ..part
        };
        self.union_lvalue(part, span)
    }

    /// `part` as an lvalue: its bytes, where it is an integer.
    fn union_lvalue(&mut self, part: UnionPart, span: Span) -> LValue {
        match part.ty.is_number() {
            true => LValue::Byte(self.union_bytes(&part, part.offset, part.ty, span)),
            false => LValue::Union(part),
        }
    }

    /// The bytes of a `unit` at `offset` in the union of `part`, as a view over them sees them.
    fn union_bytes(
        &mut self,
        part: &UnionPart,
        offset: Operand,
        unit: CType,
        span: Span,
    ) -> ByteLValue {
        let size = self.object_size(unit);
        let (bytes, cell) = self.byte_objects(part, offset, size, span);
        let parts = (bytes.into_iter())
            .map(|memory| BytePart {
                memory,
                offset: Operand::Const(0),
            })
            .collect();
        let view = View {
            unit,
            object: CType::UChar,
            whole: false,
        };
        let view_type = self.unit.types.borrow_mut().view_pointer(view);
        ByteLValue {
            parts,
            view,
            address: (self.element_value(cell, offset, span), view_type),
        }
    }

    /// The `count` byte objects from `offset` in the union of `part`, each with its guards
    /// (the union's box read once), and the box.
    fn byte_objects(
        &mut self,
        part: &UnionPart,
        offset: Operand,
        count: i32,
        span: Span,
    ) -> (Vec<Memory>, Operand) {
        let bytes = part.union.clone().member(UNION_BYTES);
        let boxed = self.unbox_array(&bytes, span);
        let PlaceBase::Deref(cell) = boxed.place.base else {
            unreachable!("an array member's box is reached through its pointer")
        };
        let objects = (0..count)
            .map(|k| {
                let index = self.plus(offset, k, span);
                let array = Place {
                    base: PlaceBase::Deref(cell),
                    projections: Vec::new(),
                };
                let mut guards = boxed.guards.clone();
                guards.push(Check::InBounds { array, index });
                Memory {
                    place: Place {
                        base: PlaceBase::Deref(cell),
                        projections: vec![Projection::Index(index)],
                    },
                    prefix: String::new(),
                    guards,
                    heap: boxed.heap,
                    literal: false,
                }
            })
            .collect();
        (objects, cell)
    }

    /// The value and assigned flag of each of the `count` bytes from `offset` in the union of
    /// `part`, read after their guards, without checks of their own.
    fn raw_bytes(
        &mut self,
        part: &UnionPart,
        offset: Operand,
        count: i32,
        span: Span,
    ) -> Vec<[Operand; 2]> {
        let (objects, _) = self.byte_objects(part, offset, count, span);
        objects
            .iter()
            .map(|byte| {
                self.guard(byte, span);
                self.raw_fields(byte, span)
            })
            .collect()
    }

    /// Stores each of `bytes` (a value and its assigned flag) from `offset` in the union of
    /// `part`.
    fn store_raw_bytes(
        &mut self,
        part: &UnionPart,
        offset: Operand,
        bytes: &[(Operand, Operand)],
        span: Span,
    ) {
        let (objects, _) = self.byte_objects(part, offset, bytes.len() as i32, span);
        for (object, &stored) in objects.iter().zip(bytes) {
            self.write_memory_flagged(object, CType::UChar, stored, false, span);
        }
    }

    /// The value of the struct, union or pointer `part` inside a union.
    pub(super) fn read_union_part(&mut self, part: &UnionPart, span: Span) -> Operand {
        if self.is_union(part.ty) {
            return self.read_inner_union(part, span);
        }
        let Some((name, mark)) = &part.pointer else {
            return self.read_union_struct(part, span);
        };
        // Its bytes must have been written by this member: never written is `uninit`,
        // written by another member `unmodelled`.
        let size = self.object_size(part.ty);
        let bytes = self.raw_bytes(part, part.offset, size, span);
        let flags: Vec<Operand> = bytes.iter().map(|[_, flag]| *flag).collect();
        let cause = "the bytes of a union member read as a pointer after another member wrote them";
        self.unmodelled_cause(span, cause);
        for (compare, mark, kind) in [
            (BinOp::Ne, 0, PropertyKind::Uninit),
            (BinOp::Eq, *mark, PropertyKind::Unmodelled),
        ] {
            let holds = self.all(
                &flags,
                |cx, flag| cx.temp(Rvalue::Binary(compare, flag, Operand::Const(mark)), span),
                span,
            );
            self.check(Check::Condition { holds, kind }, span);
        }
        let field = part.union.clone().member(name);
        self.read_memory(&field, part.ty, false, span)
    }

    /// Stores `value` into the struct, union or pointer `part` inside a union.
    pub(super) fn write_union_part(&mut self, part: &UnionPart, value: Operand, span: Span) {
        if self.is_union(part.ty) {
            return self.write_inner_union(part, value, span);
        }
        let Some((name, mark)) = &part.pointer else {
            return self.write_union_struct(part, value, span);
        };
        let field = part.union.clone().member(name);
        self.write_memory(&field, part.ty, value, false, span);
        let marked = (Operand::Const(0), Operand::Const(*mark));
        let size = self.object_size(part.ty) as usize;
        self.store_raw_bytes(part, part.offset, &vec![marked; size], span);
    }

    /// The union `part` inside a union read whole: a union value of its bytes, each with its
    /// assigned flag.
    fn read_inner_union(&mut self, part: &UnionPart, span: Span) -> Operand {
        let size = self.object_size(part.ty);
        let bytes = self.raw_bytes(part, part.offset, size, span);
        let bytes = bytes
            .into_iter()
            .map(|[value, flag]| (value, flag))
            .collect();
        let bytes = self.byte_array(bytes, span);
        self.object_of(part.ty, &[bytes], span)
    }

    /// An array value of `unsigned char` objects of the values and assigned flags `bytes`.
    fn byte_array(&mut self, bytes: Vec<(Operand, Operand)>, span: Span) -> Operand {
        let objects = bytes
            .into_iter()
            .map(|(value, flag)| {
                let fields = self.leaf_of(("", true), CType::UChar, value, flag, span);
                self.record(fields, NOT_HEAP, Some(CType::UChar), span)
            })
            .collect();
        self.temp(Rvalue::Array(objects), span)
    }

    /// The bytes (value and assigned flag) of the union value `value` of type `ty`.
    fn union_value_bytes(
        &mut self,
        value: Operand,
        ty: CType,
        span: Span,
    ) -> Vec<(Operand, Operand)> {
        let record = match value {
            Operand::Local(record) => record,
            other => self.b.assign_temp(Rvalue::Use(other), span),
        };
        let from = PlaceBase::Local(record);
        let cell = self.read_field(from, UNION_BYTES, Width::W32, span);
        (0..self.object_size(ty))
            .map(|k| {
                let source = self.array_element(cell, Operand::Const(k), CType::UChar);
                self.guard(&source, span);
                let [byte, flag] = self.raw_fields(&source, span);
                (byte, flag)
            })
            .collect()
    }

    /// Stores the union value `value` into the union `part` inside a union: each byte with its
    /// assigned flag.
    fn write_inner_union(&mut self, part: &UnionPart, value: Operand, span: Span) {
        let bytes = self.union_value_bytes(value, part.ty, span);
        self.store_raw_bytes(part, part.offset, &bytes, span);
    }

    /// The conjunction of `test` of each of `values` (1 for none).
    fn all(
        &mut self,
        values: &[Operand],
        test: impl Fn(&mut Self, Operand) -> Operand,
        span: Span,
    ) -> Operand {
        let mut all = Operand::Const(1);
        for &value in values {
            let holds = test(self, value);
            all = match all {
                Operand::Const(1) => holds,
                _ => self.temp(Rvalue::Binary(BinOp::BitAnd, all, holds), span),
            };
        }
        all
    }

    /// The struct `part` inside a union read whole (`t = u.s`): each leaf from its bytes,
    /// assigned where all of them are (a copy keeps a member indeterminate, as C's does).
    fn read_union_struct(&mut self, part: &UnionPart, span: Span) -> Operand {
        let leaves = self.union_leaves(part.ty);
        let mut fields = Vec::with_capacity(2 * leaves.len());
        for (path, leaf, at) in leaves {
            let offset = self.plus(part.offset, at, span);
            let bytes = self.union_bytes(part, offset, leaf, span);
            let (mut value, mut assigned) = (None, None);
            for (k, byte) in bytes.parts.iter().enumerate() {
                self.guard(&byte.memory, span);
                let [byte_value, flag] = self.raw_fields(&byte.memory, span);
                let widened = self.convert_number(byte_value, CType::UChar, leaf, span);
                let shift = leaf.constant(8 * k as i64);
                let placed = self.temp(Rvalue::Binary(BinOp::Shl, widened, shift), span);
                self.not_pointer_byte(flag, span);
                let set = self.temp(Rvalue::Binary(BinOp::Ne, flag, Operand::Const(0)), span);
                value = Some(match value {
                    None => placed,
                    Some(low) => self.temp(Rvalue::Binary(BinOp::BitOr, low, placed), span),
                });
                assigned = Some(match assigned {
                    None => set,
                    Some(all) => self.temp(Rvalue::Binary(BinOp::BitAnd, all, set), span),
                });
            }
            let (Some(value), Some(assigned)) = (value, assigned) else {
                continue;
            };
            let value = self.convert(value, leaf, span);
            fields.extend(self.leaf_of((&path, false), leaf, value, assigned, span));
        }
        self.record(fields, NOT_HEAP, Some(part.ty), span)
    }

    /// Stores the struct value `record` into the struct `part` inside a union (`u.s = t`):
    /// each leaf's bytes, with the leaf's assigned flag.
    fn write_union_struct(&mut self, part: &UnionPart, record: Operand, span: Span) {
        let record = match record {
            Operand::Local(record) => record,
            other => self.b.assign_temp(Rvalue::Use(other), span),
        };
        for (path, leaf, at) in self.union_leaves(part.ty) {
            let [value, flag] = self.record_leaf(record, &path, leaf, span);
            let offset = self.plus(part.offset, at, span);
            let bytes = self.union_bytes(part, offset, leaf, span);
            for (k, byte) in bytes.parts.iter().enumerate() {
                let shift = leaf.constant(8 * k as i64);
                let shifted = self.temp(Rvalue::Binary(BinOp::LShr, value, shift), span);
                let low = self.convert_number(shifted, leaf, CType::UChar, span);
                let stored = (low, flag);
                self.write_memory_flagged(&byte.memory, CType::UChar, stored, false, span);
            }
        }
    }

    /// The integer leaves of the struct `ty` with their byte offsets (a union's struct members
    /// have only those: `Types::union_def`).
    fn union_leaves(&self, ty: CType) -> Vec<(String, CType, i32)> {
        self.unit
            .types
            .borrow()
            .integer_layout(ty)
            .unwrap_or_default()
    }

    /// Where a union of the file has a pointer member, the check that the byte whose flag is
    /// `flag` holds no part of a stored pointer (`unmodelled`: its bytes are not modelled).
    pub(super) fn not_pointer_byte(&mut self, flag: Operand, span: Span) {
        if self.unit.types.borrow().pointer_unions {
            let below = Rvalue::Binary(BinOp::Lt, flag, Operand::Const(POINTER_BYTE));
            let holds = self.temp(below, span);
            let cause = "the bytes of a pointer stored in a union read as another member";
            self.unmodelled_cause(span, cause);
            let kind = PropertyKind::Unmodelled;
            self.check(Check::Condition { holds, kind }, span);
        }
    }

    /// The value and flag fields of the byte `memory`, read without checks.
    fn raw_fields(&mut self, memory: &Memory, span: Span) -> [Operand; 2] {
        let (value, flag) = leaf_fields("");
        let width = Width::W32;
        [value, flag].map(|field| {
            let place = memory.field(self.field_id(&field));
            Operand::Local(self.b.assign_temp_of(Rvalue::Read(place), width, span))
        })
    }

    /// `offset + k` bytes, folded where `offset` is a constant.
    fn plus(&mut self, offset: Operand, k: i32, span: Span) -> Operand {
        match (offset, k) {
            (_, 0) => offset,
            (Operand::Const(n), _) => Operand::Const(n + k),
            _ => self.temp(Rvalue::Binary(BinOp::Add, offset, Operand::Const(k)), span),
        }
    }
}

/// Why a part of a union cannot be used as `what` (its address, a pointer): only its scalars'
/// bytes and its structs' values are modelled.
pub(super) fn unsupported_part(what: &str, at: usize) -> CError {
    CError::unsupported(
        format!(
            "{what} of a struct, array or pointer member of a union (their members and \
             elements, and their values read or assigned, are supported)"
        ),
        at,
    )
}

/// Whether `e` is the constant 0.
fn is_zero(e: &Node<Expression>) -> bool {
    matches!(&e.node, Expression::Constant(c)
        if matches!(&c.node, Constant::Integer(i) if &*i.number == "0"))
}

/// The refusal of an initializer of a union's member other than an expression, a list of
/// expressions for an array, braces or a value for a struct, or `{0}`.
fn union_initializer(at: usize) -> CError {
    CError::unsupported(
        "this initializer of a union member (an expression; for an array member, a list of \
         expressions; for a struct member, its braces or a struct value; `{0}`)",
        at,
    )
}

/// The error for a designator `.m` of the union `id` that names none of its members: a member
/// of an anonymous member is not taken there (`unsupported`); another name is no member.
fn no_union_member(
    types: &super::types::Types,
    id: StructId,
    item: &Node<InitializerListItem>,
    at: usize,
) -> CError {
    let name = match item.node.designation.first().map(|d| &d.node) {
        Some(Designator::Member(m)) => m.node.name.as_str(),
        _ => "",
    };
    match types.member_path(id, name) {
        Some(_) => CError::unsupported(
            format!(
                "a designator naming `{name}`, a member of an anonymous member of a union \
                 (write the anonymous member's braces)"
            ),
            at,
        ),
        None => CError::invalid(format!("the union has no member `{name}`"), at),
    }
}
