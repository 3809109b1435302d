//! What an access through a view (`lower/views.rs`) does: `*p`, `p[i]`, `p + k`, `p - q`.
//!
//! A view's index counts bytes; it moves by its unit's size (`p + 1` of an `int` view over
//! `char`s is 4 bytes on). A unit of `n` bytes at byte `b` is the bytes `b` to `b + n - 1`,
//! least significant first (x86 is little-endian), and byte `c` is byte `c mod size` of object
//! `c div size`: read as the object's value shifted and masked, written by storing the object
//! back with that byte replaced (and kept in its type's range). Each byte's object is guarded
//! by its own checks (`null-deref`, the array's bounds, `use-after-free`), so a unit that runs
//! past an array fails `out-of-bounds` at its first byte outside; in a view of one object the
//! byte's index is an `out-of-bounds` check of its own (`unmodelled` in a file that boxes
//! members: the object may be a member's box, past which C's bytes are the struct's next
//! members). A read of a byte of an object never assigned is `uninit`, as any read; a write
//! into one is `unmodelled`, since C leaves the object's other bytes indeterminate, which symex
//! does not model (a run stops `unknown` there, never `safe`), unless the same operation writes
//! all of its bytes (`lower/byte_functions.rs`).

use symex_ir::cfg::{BinOp, Check, Operand, PropertyKind, Rvalue, UnOp, Width};
use symex_syntax::span::Span;

use super::func::FnCx;
use super::memory::{leaf_fields, Memory};
use super::types::{ByteLayout, CType, View};

/// The bytes of objects a view designates (`*p`, [`super::memory::LValue::Byte`]): one per
/// byte of its unit, least significant first.
#[derive(Clone, Debug)]
pub(super) struct ByteLValue {
    pub parts: Vec<BytePart>,
    pub view: View,
    /// The view pointing at the first byte (`&p[i]`), and its type.
    pub address: (Operand, CType),
}

/// One byte: the object it belongs to, with its guards, and its offset in the object's bytes.
#[derive(Clone, Debug)]
pub(super) struct BytePart {
    pub memory: Memory,
    pub offset: Operand,
}

impl FnCx<'_, '_> {
    /// The unit the view `pointer` points at, moved by `offset` units (`p[i]`).
    pub fn byte_lvalue(
        &mut self,
        (pointer, ty): (Operand, CType),
        view: View,
        offset: Option<(Operand, CType)>,
        span: Span,
    ) -> ByteLValue {
        let pointer = match offset {
            Some(offset) => self.pointer_offset((pointer, ty), offset, false, span),
            None => pointer,
        };
        let [base, index] = self.element_parts(pointer, span);
        let unit = self.object_size(view.unit);
        let parts = (0..unit)
            .map(|j| {
                let at = match j {
                    0 => index,
                    _ => self.temp(Rvalue::Binary(BinOp::Add, index, Operand::Const(j)), span),
                };
                self.byte_part(base, at, view, span)
            })
            .collect();
        ByteLValue {
            parts,
            view,
            address: (pointer, ty),
        }
    }

    /// Byte `index` of the view's objects in the cell `base`.
    fn byte_part(&mut self, base: Operand, index: Operand, view: View, span: Span) -> BytePart {
        let size = self.object_size(view.object);
        let (memory, part) = match view.whole {
            true => {
                let mut memory = self.object_memory(base);
                let within = Rvalue::Binary(BinOp::ULt, index, Operand::Const(size));
                let holds = self.temp(within, span);
                // One object may be a member's box (`(unsigned char *)&s.a`): C's bytes go on
                // into the struct's next members there, which the box does not hold.
                let kind = match self.unit.boxed_members.is_empty() {
                    true => PropertyKind::OutOfBounds,
                    false => {
                        let cause = "a byte past one object reached through a view of it, \
                                     which may be a struct member's box";
                        self.unmodelled_guard_cause(holds, cause);
                        PropertyKind::Unmodelled
                    }
                };
                memory.guards.push(Check::Condition { holds, kind });
                (memory, index)
            }
            false => {
                let [element, part] = self.object_and_offset(index, size, span);
                (self.array_element(base, element, view.object), part)
            }
        };
        BytePart {
            memory,
            offset: part,
        }
    }

    /// The object a byte index of an array of objects of `size` bytes falls in (rounded down:
    /// a negative index is before the first object), and the byte's offset in it.
    pub(super) fn object_and_offset(
        &mut self,
        index: Operand,
        size: i32,
        span: Span,
    ) -> [Operand; 2] {
        if size.count_ones() == 1 {
            let shift = Operand::Const(size.trailing_zeros() as i32);
            let element = self.temp(Rvalue::Binary(BinOp::AShr, index, shift), span);
            let part = Rvalue::Binary(BinOp::BitAnd, index, Operand::Const(size - 1));
            return [element, self.temp(part, span)];
        }
        // Division truncates towards zero: a negative index first moves down by `size - 1`.
        let negative = self.temp(Rvalue::Binary(BinOp::Lt, index, Operand::Const(0)), span);
        let back = Rvalue::Binary(BinOp::Mul, negative, Operand::Const(size - 1));
        let back = self.temp(back, span);
        let lowered = self.temp(Rvalue::Binary(BinOp::Sub, index, back), span);
        let size = Operand::Const(size);
        let element = self.temp(Rvalue::Binary(BinOp::Div, lowered, size), span);
        let start = self.temp(Rvalue::Binary(BinOp::Mul, element, size), span);
        let part = self.temp(Rvalue::Binary(BinOp::Sub, index, start), span);
        [element, part]
    }

    /// `pointer ± offset` (an integer of type `ty`, in units) for a pointer into an array or a
    /// view, whose index moves by its unit's size (a pointer to arrays: by whole arrays).
    pub fn pointer_offset(
        &mut self,
        (pointer, pointer_ty): (Operand, CType),
        (offset, ty): (Operand, CType),
        subtract: bool,
        span: Span,
    ) -> Operand {
        let unit = self.unit_size(pointer_ty);
        if unit == 1 {
            return self.element_offset(pointer, (offset, ty), subtract, span);
        }
        let cause = "a view moved by an offset beyond `int`";
        let units = self.unmodelled_index(offset, ty, cause, span);
        let bytes = self.scaled(units, unit, span);
        self.element_offset(pointer, (bytes, CType::Int), subtract, span)
    }

    /// `a - b` of two pointers of type `ty` into one array, in its units (`ptrdiff_t`): a view's
    /// byte distance divided by its unit's size (`unmodelled` where it is no whole number).
    pub fn pointer_difference(
        &mut self,
        (a, b): (Operand, Operand),
        ty: CType,
        span: Span,
    ) -> (Operand, CType) {
        let (difference, ptrdiff) = self.element_difference(a, b, span);
        let unit = self.unit_size(ty);
        if unit == 1 {
            return (difference, ptrdiff);
        }
        let unit = ptrdiff.constant(i64::from(unit));
        let rest = self.temp(Rvalue::Binary(BinOp::Rem, difference, unit), span);
        let whole = self.temp(Rvalue::Binary(BinOp::Eq, rest, ptrdiff.constant(0)), span);
        let cause = "views subtracted whose distance is no whole number of their units";
        self.unmodelled_cause(span, cause);
        let kind = PropertyKind::Unmodelled;
        self.check(Check::Condition { holds: whole, kind }, span);
        let units = self.temp(Rvalue::Binary(BinOp::Div, difference, unit), span);
        (units, ptrdiff)
    }

    /// The size of the units a pointer of type `ty` moves by, in its index's counts: a view's
    /// unit in bytes, 1 for a pointer into an array of objects.
    /// How many places of its index a pointer of type `ty` moves by one: a view's unit's bytes,
    /// a pointer to arrays' elements of one array, else 1.
    fn unit_size(&self, ty: CType) -> i32 {
        let types = self.unit.types.borrow();
        if let Some(view) = types.view_of(ty) {
            drop(types);
            return self.object_size(view.unit);
        }
        match ty {
            CType::Element(p) => match types.pointee(p) {
                CType::Array(id) => {
                    let elements: i64 = types.array(id).1.iter().map(|&d| i64::from(d)).product();
                    i32::try_from(elements).unwrap_or(i32::MAX)
                }
                _ => 1,
            },
            _ => 1,
        }
    }

    /// Runs the guards of the first byte of `bytes` before a write ([`FnCx::store_byte`]
    /// guards the others, each right before it is stored: a store ends what a bounds check
    /// says).
    pub(super) fn guard_first_byte(&mut self, bytes: &ByteLValue, span: Span) {
        if let Some(first) = bytes.parts.first() {
            self.guard(&first.memory, span);
        }
    }

    /// The unit `bytes` designates, of the view's unit type (its guards run here): a byte of
    /// an object never assigned is an `uninit` read.
    pub fn read_byte(&mut self, bytes: &ByteLValue, span: Span) -> Operand {
        self.load_byte(bytes, PropertyKind::Uninit, span)
    }

    /// [`FnCx::read_byte`], where a byte of an object never assigned fails a check of `kind`.
    pub(super) fn load_byte(
        &mut self,
        bytes: &ByteLValue,
        kind: PropertyKind,
        span: Span,
    ) -> Operand {
        let unit = bytes.view.unit;
        let width = unit.width();
        let mut value = None;
        for (j, part) in bytes.parts.iter().enumerate() {
            self.guard(&part.memory, span);
            let byte = self.part_value(part, bytes.view.object, kind, span);
            let byte = match width {
                Width::W64 => self.convert_number(byte, CType::Int, CType::ULong, span),
                Width::W32 => byte,
            };
            let placed = match j {
                0 => byte,
                _ => {
                    let shift = unit.constant(8 * j as i64);
                    self.temp(Rvalue::Binary(BinOp::Shl, byte, shift), span)
                }
            };
            value = Some(match value {
                None => placed,
                Some(low) => self.temp(Rvalue::Binary(BinOp::BitOr, low, placed), span),
            });
        }
        let value = value.unwrap_or(Operand::Const(0));
        self.convert(value, unit, span)
    }

    /// The byte `part` holds (0 to 255, 32 bits), after the check of `kind` that its object
    /// (of type `object`) is assigned.
    fn part_value(
        &mut self,
        part: &BytePart,
        object: CType,
        kind: PropertyKind,
        span: Span,
    ) -> Operand {
        let layout = self.unit.types.borrow().byte_layout(object);
        if let Some(layout) = layout {
            return self.struct_byte(part, &layout, kind, span);
        }
        let [value, _] = self.object_fields(&part.memory, object, kind, span);
        self.byte_of(value, object, part.offset, span)
    }

    /// The byte `offset` (0 to the object's size - 1) of the integer `value` of type `object`
    /// (0 to 255, 32 bits).
    fn byte_of(&mut self, value: Operand, object: CType, offset: Operand, span: Span) -> Operand {
        let width = object.width();
        let bits = self.temp(Rvalue::Binary(BinOp::Mul, offset, Operand::Const(8)), span);
        let shift = self.widened(bits, width, span);
        let shifted = self.temp(Rvalue::Binary(BinOp::LShr, value, shift), span);
        let low = match width {
            Width::W64 => self.convert_number(shifted, CType::ULong, CType::UInt, span),
            Width::W32 => shifted,
        };
        self.temp(
            Rvalue::Binary(BinOp::BitAnd, low, Operand::Const(0xff)),
            span,
        )
    }

    /// The byte `part` of a struct (`layout`: its integer leaves and the bytes of its
    /// pointers): the byte of the integer leaf it lies in, chosen without branching (each
    /// leaf's byte masked by whether the offset lies in it), after the check of `kind` that
    /// that leaf is assigned. A byte of a pointer is `unmodelled`, and so is a padding byte (C
    /// leaves its value unspecified).
    fn struct_byte(
        &mut self,
        part: &BytePart,
        layout: &ByteLayout,
        kind: PropertyKind,
        span: Span,
    ) -> Operand {
        let cause = "a byte of a pointer member read through a view";
        self.not_opaque_byte(part, layout, cause, span);
        let mut byte = Operand::Const(0);
        let mut covered = Operand::Const(0);
        for (path, leaf, at) in &layout.integers {
            let memory = part.memory.clone().member(path);
            let [inside, offset] = self.leaf_offset(part.offset, *leaf, *at, span);
            let [value, assigned] = self.leaf_fields_read(&memory, *leaf, span);
            let outside = self.temp(Rvalue::Binary(BinOp::Eq, inside, Operand::Const(0)), span);
            let holds = self.temp(Rvalue::Binary(BinOp::BitOr, outside, assigned), span);
            self.check(Check::Condition { holds, kind }, span);
            let own = self.byte_of(value, *leaf, offset, span);
            let mask = self.temp(Rvalue::Unary(UnOp::Neg, inside), span);
            let own = self.temp(Rvalue::Binary(BinOp::BitAnd, own, mask), span);
            byte = self.temp(Rvalue::Binary(BinOp::BitOr, byte, own), span);
            covered = self.temp(Rvalue::Binary(BinOp::BitOr, covered, inside), span);
        }
        self.unmodelled_cause(span, "a byte of a struct's padding read through a view");
        let kind = PropertyKind::Unmodelled;
        self.check(
            Check::Condition {
                holds: covered,
                kind,
            },
            span,
        );
        byte
    }

    /// The `unmodelled` check (standing for `cause`) that the byte `part` of a struct lies in
    /// none of its pointer leaves, whose bytes symex does not model.
    fn not_opaque_byte(
        &mut self,
        part: &BytePart,
        layout: &ByteLayout,
        cause: &'static str,
        span: Span,
    ) {
        for &(at, size) in &layout.opaque {
            let relative = Rvalue::Binary(BinOp::Sub, part.offset, Operand::Const(at));
            let relative = self.temp(relative, span);
            let size = Operand::Const(size);
            let holds = self.temp(Rvalue::Binary(BinOp::UGe, relative, size), span);
            self.unmodelled_cause(span, cause);
            let kind = PropertyKind::Unmodelled;
            self.check(Check::Condition { holds, kind }, span);
        }
    }

    /// Whether the byte at `offset` of a struct lies in its leaf of type `leaf` at byte `at`
    /// (0 or 1), and its offset in the leaf (0 where it does not lie in it).
    fn leaf_offset(&mut self, offset: Operand, leaf: CType, at: i32, span: Span) -> [Operand; 2] {
        let size = Operand::Const(self.object_size(leaf));
        let relative = self.temp(Rvalue::Binary(BinOp::Sub, offset, Operand::Const(at)), span);
        let inside = self.temp(Rvalue::Binary(BinOp::ULt, relative, size), span);
        let offset = self.temp(Rvalue::Binary(BinOp::Mul, relative, inside), span);
        [inside, offset]
    }

    /// The value of the leaf at `memory` (of type `leaf`) and its assigned flag as 0 or 1,
    /// without a check.
    fn leaf_fields_read(&mut self, memory: &Memory, leaf: CType, span: Span) -> [Operand; 2] {
        let (value_field, flag_field) = leaf_fields(&memory.prefix);
        let flag = Rvalue::Read(memory.field(self.field_id(&flag_field)));
        let flag = self.temp(flag, span);
        let assigned = self.temp(Rvalue::Binary(BinOp::Ne, flag, Operand::Const(0)), span);
        let value = Rvalue::Read(memory.field(self.field_id(&value_field)));
        let value = Operand::Local(self.b.assign_temp_of(value, leaf.width(), span));
        [
            self.in_range(value, leaf, (memory, &memory.prefix), span),
            assigned,
        ]
    }

    /// Stores the low 8 bits of `byte` as the byte `part` of a struct: every integer leaf is
    /// stored again, the one the byte lies in with the byte replaced (assigned from then on),
    /// the others unchanged with their flags. Writing into a multi-byte leaf never assigned
    /// is `unmodelled` (unless the operation fills it, see [`FnCx::store_byte`]), as for an
    /// integer, and so is writing into a pointer, or a byte other than 0 or 1 into a `_Bool`;
    /// a byte of padding is written nowhere (a read of it is `unmodelled`).
    fn store_struct_byte(
        &mut self,
        part: &BytePart,
        layout: &ByteLayout,
        byte: Operand,
        written: Option<Operand>,
        span: Span,
    ) {
        let cause = "a byte of a pointer member written through a view";
        self.not_opaque_byte(part, layout, cause, span);
        // Every leaf is read before the first store, which ends the place's bounds checks.
        let mut stores = Vec::with_capacity(layout.integers.len());
        for (path, leaf, at) in &layout.integers {
            let leaf = *leaf;
            let memory = part.memory.clone().member(path);
            let [inside, offset] = self.leaf_offset(part.offset, leaf, *at, span);
            let [old, assigned] = self.leaf_fields_read(&memory, leaf, span);
            let width = leaf.width();
            let outside = self.temp(Rvalue::Binary(BinOp::Eq, inside, Operand::Const(0)), span);
            if leaf == CType::Bool {
                // Any other byte would be a trap representation of a `_Bool`.
                let low = Rvalue::Binary(BinOp::BitAnd, byte, Operand::Const(0xff));
                let low = self.temp(low, span);
                let bit = self.temp(Rvalue::Binary(BinOp::ULe, low, Operand::Const(1)), span);
                let holds = self.temp(Rvalue::Binary(BinOp::BitOr, outside, bit), span);
                let cause = "a byte other than 0 or 1 written into a `_Bool` through a view";
                self.unmodelled_cause(span, cause);
                let kind = PropertyKind::Unmodelled;
                self.check(Check::Condition { holds, kind }, span);
            }
            let fills = self.fills(offset, leaf, written, span);
            let old = self.write_base([old, assigned], leaf, Some(outside), fills, span);
            let merged = self.with_byte(old, leaf, offset, byte, span);
            let mask = self.temp(Rvalue::Unary(UnOp::Neg, inside), span);
            let mask = self.widened(mask, width, span);
            let new = self.temp(Rvalue::Binary(BinOp::BitAnd, merged, mask), span);
            let all_ones = match width {
                Width::W64 => Operand::Const64(-1),
                Width::W32 => Operand::Const(-1),
            };
            let unmask = self.temp(Rvalue::Binary(BinOp::BitXor, mask, all_ones), span);
            let unchanged = self.temp(Rvalue::Binary(BinOp::BitAnd, old, unmask), span);
            let value = self.temp(Rvalue::Binary(BinOp::BitOr, new, unchanged), span);
            let value = self.convert(value, leaf, span);
            let flag = self.temp(Rvalue::Binary(BinOp::BitOr, assigned, inside), span);
            stores.push((memory, leaf, value, flag));
        }
        for (i, (memory, leaf, value, flag)) in stores.into_iter().enumerate() {
            // The later leaves' guards run again before their stores.
            self.write_memory_flagged(&memory, leaf, (value, flag), i == 0, span);
        }
    }

    /// The value of the object at `memory` (of type `object`) and whether it is assigned, after
    /// the check of `kind` that it is.
    fn object_fields(
        &mut self,
        memory: &Memory,
        object: CType,
        kind: PropertyKind,
        span: Span,
    ) -> [Operand; 2] {
        let (value_field, flag_field) = leaf_fields(&memory.prefix);
        let flag = Rvalue::Read(memory.field(self.field_id(&flag_field)));
        let flag = self.temp(flag, span);
        let assigned = self.temp(Rvalue::Binary(BinOp::Ne, flag, Operand::Const(0)), span);
        let holds = assigned;
        self.check(Check::Condition { holds, kind }, span);
        if object == CType::UChar {
            self.not_pointer_byte(flag, span);
        }
        let value = Rvalue::Read(memory.field(self.field_id(&value_field)));
        let value = Operand::Local(self.b.assign_temp_of(value, object.width(), span));
        [
            self.in_range(value, object, (memory, &memory.prefix), span),
            assigned,
        ]
    }

    /// Stores `value` (of the view's unit type) as the unit `bytes` designates; `checked` when
    /// [`FnCx::read_byte`] just read it.
    pub fn write_byte(&mut self, bytes: &ByteLValue, value: Operand, checked: bool, span: Span) {
        if !checked {
            self.guard_first_byte(bytes, span);
        }
        self.store_byte(bytes, value, None, span);
    }

    /// Stores `value` as the unit `bytes` designates, the guards of its first byte run (the
    /// others run here, each before its byte is stored). A write into an integer never
    /// assigned is `unmodelled` (its other bytes are indeterminate), unless the same operation
    /// fills it: `written` counts the bytes it writes from this unit's first byte on (a copy
    /// of whole objects, one byte at a time), and the byte is an integer's first with all of
    /// that integer's bytes among them.
    pub(super) fn store_byte(
        &mut self,
        bytes: &ByteLValue,
        value: Operand,
        written: Option<Operand>,
        span: Span,
    ) {
        let unit = bytes.view.unit;
        for (j, part) in bytes.parts.iter().enumerate() {
            let byte = match j {
                0 => value,
                _ => {
                    let shift = unit.constant(8 * j as i64);
                    self.temp(Rvalue::Binary(BinOp::LShr, value, shift), span)
                }
            };
            let byte = match unit.width() {
                Width::W64 => self.convert_number(byte, CType::ULong, CType::UInt, span),
                Width::W32 => byte,
            };
            if j > 0 {
                self.guard(&part.memory, span);
            }
            let written = match (written, j) {
                (Some(count), 1..) => {
                    let j = Operand::Const(j as i32);
                    Some(self.temp(Rvalue::Binary(BinOp::Sub, count, j), span))
                }
                (written, _) => written,
            };
            self.store_part(part, bytes.view.object, byte, written, span);
        }
    }

    /// Stores the low 8 bits of `byte` as the byte `part` of an object of type `object`.
    fn store_part(
        &mut self,
        part: &BytePart,
        object: CType,
        byte: Operand,
        written: Option<Operand>,
        span: Span,
    ) {
        let layout = self.unit.types.borrow().byte_layout(object);
        if let Some(layout) = layout {
            return self.store_struct_byte(part, &layout, byte, written, span);
        }
        let memory = &part.memory;
        if self.object_size(object) == 1 {
            let value = self.convert(byte, object, span);
            self.write_memory(memory, object, value, true, span);
            return;
        }
        let [old, assigned] = self.leaf_fields_read(memory, object, span);
        let fills = self.fills(part.offset, object, written, span);
        let old = self.write_base([old, assigned], object, None, fills, span);
        let merged = self.with_byte(old, object, part.offset, byte, span);
        let merged = self.convert(merged, object, span);
        self.write_memory(memory, object, merged, true, span);
    }

    /// Whether a write of `written` bytes from the byte `offset` of an integer of type `ty` on
    /// fills it: it starts at the integer's first byte and writes all of them.
    fn fills(
        &mut self,
        offset: Operand,
        ty: CType,
        written: Option<Operand>,
        span: Span,
    ) -> Option<Operand> {
        let written = written?;
        let size = Operand::Const(self.object_size(ty));
        let first = self.temp(Rvalue::Binary(BinOp::Eq, offset, Operand::Const(0)), span);
        let whole = self.temp(Rvalue::Binary(BinOp::Ge, written, size), span);
        Some(self.temp(Rvalue::Binary(BinOp::BitAnd, first, whole), span))
    }

    /// The value a byte write into the integer `old` of type `ty` (assigned or not) starts
    /// from: writing into a multi-byte integer never assigned is `unmodelled` (its other bytes
    /// are indeterminate) unless `fills` (the same operation writes all its bytes: it starts
    /// from 0) or `elsewhere` (the write goes to another leaf of a struct).
    fn write_base(
        &mut self,
        [old, assigned]: [Operand; 2],
        ty: CType,
        elsewhere: Option<Operand>,
        fills: Option<Operand>,
        span: Span,
    ) -> Operand {
        if self.object_size(ty) == 1 {
            return old;
        }
        let mut holds = assigned;
        for excuse in [elsewhere, fills].into_iter().flatten() {
            holds = self.temp(Rvalue::Binary(BinOp::BitOr, holds, excuse), span);
        }
        let cause = "a byte written through a view into an integer never assigned";
        self.unmodelled_cause(span, cause);
        let kind = PropertyKind::Unmodelled;
        self.check(Check::Condition { holds, kind }, span);
        if fills.is_none() {
            return old;
        }
        let keep = self.temp(Rvalue::Unary(UnOp::Neg, assigned), span);
        let keep = self.widened(keep, ty.width(), span);
        self.temp(Rvalue::Binary(BinOp::BitAnd, old, keep), span)
    }

    /// The integer `old` of type `object` with its byte `offset` replaced by the low 8 bits of
    /// `byte` (not yet in the type's range).
    fn with_byte(
        &mut self,
        old: Operand,
        object: CType,
        offset: Operand,
        byte: Operand,
        span: Span,
    ) -> Operand {
        let width = object.width();
        let bits = self.temp(Rvalue::Binary(BinOp::Mul, offset, Operand::Const(8)), span);
        let shift = self.widened(bits, width, span);
        let wide = |n: i32| match width {
            Width::W64 => Operand::Const64(i64::from(n)),
            Width::W32 => Operand::Const(n),
        };
        let mask = self.temp(Rvalue::Binary(BinOp::Shl, wide(0xff), shift), span);
        let cleared = self.temp(Rvalue::Binary(BinOp::BitXor, mask, wide(-1)), span);
        let kept = self.temp(Rvalue::Binary(BinOp::BitAnd, old, cleared), span);
        let low = Rvalue::Binary(BinOp::BitAnd, byte, Operand::Const(0xff));
        let low = self.temp(low, span);
        let low = match width {
            Width::W64 => self.convert_number(low, CType::Int, CType::Long, span),
            Width::W32 => low,
        };
        let placed = self.temp(Rvalue::Binary(BinOp::Shl, low, shift), span);
        self.temp(Rvalue::Binary(BinOp::BitOr, kept, placed), span)
    }

    /// The 32-bit `value` as a number of `width`.
    fn widened(&mut self, value: Operand, width: Width, span: Span) -> Operand {
        match width {
            Width::W64 => self.convert_number(value, CType::Int, CType::Long, span),
            Width::W32 => value,
        }
    }
}
