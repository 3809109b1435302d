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
use super::types::{CType, View};

/// The bytes of objects a view designates (`*p`, [`super::memory::LValue::Byte`]): one per
/// byte of its unit, least significant first.
#[derive(Clone, Debug)]
pub(super) struct ByteLValue {
    pub parts: Vec<BytePart>,
    pub view: View,
    /// The view pointing at the first byte (`&p[i]`), and its type.
    pub address: (Operand, CType),
}

/// One byte: the object it belongs to, with its guards, and how many bits it lies above the
/// object's least significant bit.
#[derive(Clone, Debug)]
pub(super) struct BytePart {
    pub memory: Memory,
    pub shift: Operand,
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
                    false => PropertyKind::Unmodelled,
                };
                memory.guards.push(Check::Condition { holds, kind });
                (memory, index)
            }
            false => {
                let shift = Operand::Const(size.trailing_zeros() as i32);
                let element = self.temp(Rvalue::Binary(BinOp::AShr, index, shift), span);
                let part = Rvalue::Binary(BinOp::BitAnd, index, Operand::Const(size - 1));
                let part = self.temp(part, span);
                (self.array_element(base, element, view.object), part)
            }
        };
        let shift = self.temp(Rvalue::Binary(BinOp::Mul, part, Operand::Const(8)), span);
        BytePart { memory, shift }
    }

    /// `pointer ± offset` (an integer of type `ty`, in units) for a pointer into an array or a
    /// view, whose index moves by its unit's size.
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
        let units = self.index_value(offset, ty, PropertyKind::Unmodelled, span);
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
        let kind = PropertyKind::Unmodelled;
        self.check(Check::Condition { holds: whole, kind }, span);
        let units = self.temp(Rvalue::Binary(BinOp::Div, difference, unit), span);
        (units, ptrdiff)
    }

    /// The size of the units a pointer of type `ty` moves by, in its index's counts: a view's
    /// unit in bytes, 1 for a pointer into an array of objects.
    fn unit_size(&self, ty: CType) -> i32 {
        match self.unit.types.borrow().view_of(ty) {
            Some(view) => self.object_size(view.unit),
            None => 1,
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
        let [value, _] = self.object_fields(&part.memory, object, kind, span);
        let width = object.width();
        let shift = self.widened(part.shift, width, span);
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
        let value = Rvalue::Read(memory.field(self.field_id(&value_field)));
        let value = Operand::Local(self.b.assign_temp_of(value, object.width(), span));
        [value, assigned]
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
    /// others run here, each before its byte is stored). A write into an object
    /// never assigned is `unmodelled` (its other bytes are indeterminate), unless `fills`
    /// holds: the same operation writes the object's other bytes next (a copy of whole
    /// objects, one byte at a time).
    pub(super) fn store_byte(
        &mut self,
        bytes: &ByteLValue,
        value: Operand,
        fills: Option<Operand>,
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
            self.store_part(part, bytes.view.object, byte, fills, span);
        }
    }

    /// Stores the low 8 bits of `byte` as the byte `part` of an object of type `object`.
    fn store_part(
        &mut self,
        part: &BytePart,
        object: CType,
        byte: Operand,
        fills: Option<Operand>,
        span: Span,
    ) {
        let memory = &part.memory;
        if self.object_size(object) == 1 {
            let value = self.convert(byte, object, span);
            self.write_memory(memory, object, value, true, span);
            return;
        }
        let (value_field, flag_field) = leaf_fields(&memory.prefix);
        let width = object.width();
        let old = match fills {
            None => self.object_fields(memory, object, PropertyKind::Unmodelled, span)[0],
            Some(fills) => {
                // An object never assigned starts from 0: every byte of it is written next.
                let flag = Rvalue::Read(memory.field(self.field_id(&flag_field)));
                let flag = self.temp(flag, span);
                let assigned = self.temp(Rvalue::Binary(BinOp::Ne, flag, Operand::Const(0)), span);
                let holds = self.temp(Rvalue::Binary(BinOp::BitOr, assigned, fills), span);
                let kind = PropertyKind::Unmodelled;
                self.check(Check::Condition { holds, kind }, span);
                let old = Rvalue::Read(memory.field(self.field_id(&value_field)));
                let old = Operand::Local(self.b.assign_temp_of(old, width, span));
                let keep = self.temp(Rvalue::Unary(UnOp::Neg, assigned), span);
                let keep = self.widened(keep, width, span);
                self.temp(Rvalue::Binary(BinOp::BitAnd, old, keep), span)
            }
        };
        let shift = self.widened(part.shift, width, span);
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
        let merged = self.temp(Rvalue::Binary(BinOp::BitOr, kept, placed), span);
        let merged = self.convert(merged, object, span);
        self.write_memory(memory, object, merged, true, span);
    }

    /// The 32-bit `value` as a number of `width`.
    fn widened(&mut self, value: Operand, width: Width, span: Span) -> Operand {
        match width {
            Width::W64 => self.convert_number(value, CType::Int, CType::Long, span),
            Width::W32 => value,
        }
    }
}
