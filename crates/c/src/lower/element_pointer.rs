//! Element pointers: C pointers into arrays (`p = a`, `&a[i]`, `p + k`, `p++`, `*p`, `p[i]`,
//! `p->f`, `p - q`, `p < q`), for the variables `lower/elements.rs` chose.
//!
//! The IR points only to whole cells, so an element pointer is an IR record of two fields: the
//! pointer to the cell holding the array ([`BASE_FIELD`]; the array variable's own cell, or an
//! array member's box) and an index into it ([`INDEX_FIELD`]), counted in elements as C's
//! pointer arithmetic counts. The null pointer is the record of null and 0. Every access
//! through one checks `null-deref` of the cell, then the index against the array's length
//! (`out-of-bounds`, SV-COMP's `valid-deref`), so arithmetic may leave the array (C allows one
//! past the end, and programs compute `a - 1` without reading it): only a dereference checks.
//! Where index arithmetic could wrap around 32 bits (an `unsigned` offset of 2^31 or more, a
//! sum beyond `int`), or two pointers into different objects are subtracted or ordered (C
//! leaves both undefined), an `unmodelled` check stops the run, so the report says `unknown`
//! rather than follow an index that is not C's.
//!
//! Where the file frees memory, an access also checks the array's heap state (its first
//! element's, `lower/allocation.rs`): `use-after-free` of a freed heap array.
//!
//! An element pointer lives where `lower/elements.rs` chose one (a variable, a struct member,
//! an array element, what a pointer points to: in memory as two fields, `lower/memory.rs`), a
//! parameter, or a temporary: a conversion to or from a pointer to a whole object (a result,
//! a `malloc` of one object that reaches no element pointer) is refused (a variable's or a
//! scalar member's address that reaches one is a pointer into an array of one). A pointer into
//! an array member's box checks the box's heap state, which `free` of its struct sets
//! (`lower/memory.rs`). A multi-dimensional array is one IR array in row-major order
//! (`lower/array.rs`), so a pointer into one of its rows indexes the whole array. Nothing here
//! decides which locations hold element pointers.

use symex_ir::cfg::{
    BinOp, Check, LocalId, Operand, Place, PlaceBase, Projection, PropertyKind, Rvalue, Width,
};
use symex_syntax::span::Span;

use super::elements::Location;
use super::func::FnCx;
use super::literal::string_bytes;
use super::memory::{HeapOwner, LValue, Memory, NOT_HEAP, READ_ONLY, SCALAR_FIELDS};
use super::types::CType;
use super::Unit;
use crate::error::CError;

/// The field of an element pointer's record holding the pointer to the array's cell.
pub(super) const BASE_FIELD: &str = symex_ir::cfg::ELEMENT_POINTER_FIELDS[0];
/// The field of an element pointer's record holding the index into the array.
pub(super) const INDEX_FIELD: &str = symex_ir::cfg::ELEMENT_POINTER_FIELDS[1];

/// The type of the variable `name` of `function` (`""` for a global) declared as `ty`: with
/// element pointers where `lower/elements.rs` chose them (at any pointer level) and they point
/// to what arrays hold (a scalar or a struct), else `ty`.
pub(super) fn variable_type(unit: &Unit<'_>, function: &str, name: &str, ty: CType) -> CType {
    representation(unit, Location::Variable(function, name), ty)
}

/// The type a value declared as `ty` has at `location` (`ElementFacts::representation`).
pub(super) fn representation(unit: &Unit<'_>, location: Location<'_>, ty: CType) -> CType {
    let mut types = unit.types.borrow_mut();
    unit.elements.representation(location, ty, &mut types)
}

/// Why a value of type `from` does not convert to `to` where one of them is an element
/// pointer; `None` where neither is.
pub(super) fn element_conversion_refusal(from: CType, to: CType) -> Option<&'static str> {
    match (from, to) {
        (CType::Element(_), CType::Pointer(_)) => Some(
            "a pointer into an array (an array, `&a[i]` or pointer arithmetic) where a pointer \
             to a whole object is kept (a struct member, memory or a result)",
        ),
        (CType::Pointer(_), CType::Element(_)) => Some(
            "a pointer to a whole object (a result, a member's address cast) in a variable that \
             also points into arrays",
        ),
        (CType::Element(_), _) | (_, CType::Element(_)) => {
            Some("a conversion between a pointer into an array and another type")
        }
        _ => None,
    }
}

impl FnCx<'_, '_> {
    /// The element pointer to element `index` of the array in the cell `base`.
    pub fn element_value(&mut self, base: Operand, index: Operand, span: Span) -> Operand {
        let mut fields = vec![
            (self.field_id(BASE_FIELD), base),
            (self.field_id(INDEX_FIELD), index),
        ];
        fields.sort_by_key(|&(f, _)| f);
        Operand::Local(self.b.assign_temp(Rvalue::Record(fields), span))
    }

    /// The cell and the index of the element pointer `value`.
    pub(super) fn element_parts(&mut self, value: Operand, span: Span) -> [Operand; 2] {
        let record = match value {
            Operand::Local(record) => record,
            other => self.b.assign_temp(Rvalue::Use(other), span),
        };
        [BASE_FIELD, INDEX_FIELD]
            .map(|field| self.read_field(PlaceBase::Local(record), field, Width::W32, span))
    }

    /// What the array `local` (of elements of type `element`) points to used as a value: its
    /// elements, or for several dimensions its rows (a pointer to arrays).
    pub fn decayed_pointee(&self, local: LocalId, element: CType) -> CType {
        let dims = self.arrays.get(&local).map_or(&[][..], Vec::as_slice);
        self.unit.types.borrow_mut().decayed_pointee(element, dims)
    }

    /// A pointer to the start of the array `local` (named `name`; or of a variable that is an
    /// array of one), typed as pointing to `pointee`s: its elements, its rows (the array used
    /// as a value) or the array itself (`&a`).
    pub fn array_start(
        &mut self,
        (local, pointee): (LocalId, CType),
        name: &str,
        span: Span,
        at: usize,
    ) -> Result<(Operand, CType), CError> {
        if !self.b.locals[local.index()].address_taken {
            return Err(self.decay_refusal(name, at));
        }
        let cell = self.variable_address(name, local, span);
        let value = self.element_value(cell, Operand::Const(0), span);
        Ok((
            value,
            self.unit.types.borrow_mut().element_pointer_to(pointee),
        ))
    }

    fn decay_refusal(&self, name: &str, at: usize) -> CError {
        CError::unsupported(
            format!(
                "the array `{name}` used as a pointer here (arrays of one dimension decay \
                 where they are assigned to a pointer variable, passed to a parameter that \
                 points into arrays, or used in pointer arithmetic or comparisons; rows of \
                 arrays (`m[i]`) likewise, and any array passed to a function over memory)"
            ),
            at,
        )
    }

    /// `&e` of the element `memory` (of type `ty`) that `FnCx::element` designates: its guards
    /// but the bounds check run (C allows the address one past the end). `named`: the array is
    /// a variable or a member, not reached through a pointer into it.
    pub fn element_address(
        &mut self,
        memory: Memory,
        ty: CType,
        named: bool,
        span: Span,
        at: usize,
    ) -> Result<(Operand, CType), CError> {
        let [Projection::Index(index)] = memory.place.projections[..] else {
            return Err(CError::unsupported(
                "the address of an element of a multi-dimensional array",
                at,
            ));
        };
        if !memory.prefix.is_empty() {
            return Err(CError::invalid(
                "internal error: an element inside a record",
                at,
            ));
        }
        for check in memory.guards {
            if !matches!(check, Check::InBounds { .. }) {
                self.check(check, span);
            }
        }
        let cell = match memory.place.base {
            // An array member's box ends with its struct, which may be a local; an element
            // reached through a pointer lives as long as what the pointer reached.
            PlaceBase::Deref(pointer) => {
                if named {
                    self.unit.stack_addresses.set(true);
                }
                pointer
            }
            PlaceBase::Local(local) if self.b.locals[local.index()].address_taken => {
                let name = self.b.locals[local.index()].name.clone();
                self.variable_address(&name, local, span)
            }
            PlaceBase::Local(_) => {
                return Err(CError::unsupported(
                    "the address of an element of this array (symex decides before lowering \
                     which arrays are pointed into, and this one was not)",
                    at,
                ))
            }
        };
        let pointer = self.unit.types.borrow_mut().element_pointer_to(ty);
        Ok((self.element_value(cell, index, span), pointer))
    }

    /// What `*p` designates for the element pointer `value` of type `ty` to objects of type
    /// `pointee`, moved by `offset` elements (`p[i]`): the object, or bytes of objects where
    /// `p` is a view (`lower/views.rs`); and its type.
    pub fn element_lvalue(
        &mut self,
        (value, ty): (Operand, CType),
        pointee: CType,
        offset: Option<(Operand, CType)>,
        span: Span,
    ) -> (LValue, CType) {
        if let CType::Byte(view) = pointee {
            let view = self.unit.types.borrow().view(view);
            let byte = self.byte_lvalue((value, ty), view, offset, span);
            return (LValue::Byte(byte), view.unit);
        }
        let memory = self.element_memory((value, pointee), offset, span);
        (LValue::Memory(memory), pointee)
    }

    /// The object the element pointer `value` (to objects of type `pointee`) points to, moved
    /// by `offset` elements (`p[i]`): guarded by `null-deref` of its cell and the bounds of
    /// its index.
    pub fn element_memory(
        &mut self,
        (value, pointee): (Operand, CType),
        offset: Option<(Operand, CType)>,
        span: Span,
    ) -> Memory {
        let [base, index] = self.element_parts(value, span);
        let index = match offset {
            Some(offset) => self.moved_index(index, offset, false, span),
            None => index,
        };
        self.array_element(base, index, pointee)
    }

    /// The element `index` (of type `pointee`) of the array in the cell `base`, guarded as
    /// [`FnCx::element_memory`] says.
    pub(super) fn array_element(
        &mut self,
        base: Operand,
        index: Operand,
        pointee: CType,
    ) -> Memory {
        let cell = Place {
            base: PlaceBase::Deref(base),
            projections: Vec::new(),
        };
        // Where the file frees memory, the array may be a freed heap array.
        let heap = self.unit.frees.then_some(HeapOwner::Array(base));
        let mut guards = match heap {
            Some(owner) => self.owner_guards(owner),
            None => self.pointee_guards(base),
        };
        guards.push(Check::InBounds { array: cell, index });
        Memory {
            place: Place {
                base: PlaceBase::Deref(base),
                projections: vec![Projection::Index(index)],
            },
            prefix: String::new(),
            guards,
            heap,
            literal: self.unit.elements.literal_values && pointee == CType::SChar,
        }
    }

    /// A string literal as a value: an element pointer to the first of its characters (its 0
    /// included), in a fresh cell, each marked [`READ_ONLY`].
    pub fn string_value(
        &mut self,
        literal: &[String],
        span: Span,
        at: usize,
    ) -> Result<(Operand, CType), CError> {
        let flag = self.field_id(SCALAR_FIELDS[1]);
        let value = self.field_id(SCALAR_FIELDS[0]);
        let mut characters = Vec::new();
        for byte in string_bytes(literal, at)? {
            let character = self.convert(Operand::Const(i32::from(byte)), CType::SChar, span);
            let fields = vec![(value, character), (flag, Operand::Const(READ_ONLY))];
            characters.push(self.record(fields, NOT_HEAP, Some(CType::SChar), span));
        }
        let array = Operand::Local(self.b.assign_temp(Rvalue::Array(characters), span));
        let cell = Operand::Local(self.b.assign_temp(Rvalue::Alloc(array), span));
        let pointer = self
            .unit
            .types
            .borrow_mut()
            .element_pointer_to(CType::SChar);
        Ok((self.element_value(cell, Operand::Const(0), span), pointer))
    }

    /// `index ± offset` (an integer of type `ty`, counted in elements), with the `unmodelled`
    /// checks where the sum would not be C's: an offset beyond `int`, or a result beyond it.
    pub(super) fn moved_index(
        &mut self,
        index: Operand,
        (offset, ty): (Operand, CType),
        subtract: bool,
        span: Span,
    ) -> Operand {
        let kind = PropertyKind::Unmodelled;
        let cause = "a pointer into an array moved beyond `int` elements";
        self.unmodelled_cause(span, cause);
        let offset = self.index_value(offset, ty, kind, span);
        if ty.promoted().is_unsigned() && !matches!(offset, Operand::Const(n) if n >= 0) {
            let below = Rvalue::Binary(BinOp::Ge, offset, Operand::Const(0));
            let holds = Operand::Local(self.b.assign_temp(below, span));
            self.check(Check::Condition { holds, kind }, span);
        }
        let op = if subtract { BinOp::Sub } else { BinOp::Add };
        if offset == Operand::Const(0) {
            return index;
        }
        let moved = Operand::Local(self.b.assign_temp(Rvalue::Binary(op, index, offset), span));
        self.check_signed_fit(op, index, offset, moved, kind, span);
        moved
    }

    /// `pointer ± offset` for an element pointer `pointer`.
    pub fn element_offset(
        &mut self,
        pointer: Operand,
        offset: (Operand, CType),
        subtract: bool,
        span: Span,
    ) -> Operand {
        let [base, index] = self.element_parts(pointer, span);
        let index = self.moved_index(index, offset, subtract, span);
        self.element_value(base, index, span)
    }

    /// The indices of two element pointers, after the `unmodelled` check that they point into
    /// one array (C leaves subtracting or ordering pointers into different objects undefined).
    fn same_array_indices(&mut self, a: Operand, b: Operand, span: Span) -> [Operand; 2] {
        let [base_a, index_a] = self.element_parts(a, span);
        let [base_b, index_b] = self.element_parts(b, span);
        let same = Rvalue::Binary(BinOp::Eq, base_a, base_b);
        let holds = Operand::Local(self.b.assign_temp(same, span));
        self.unmodelled_cause(span, "pointers into two arrays subtracted or ordered");
        let kind = PropertyKind::Unmodelled;
        self.check(Check::Condition { holds, kind }, span);
        [index_a, index_b]
    }

    /// `a - b` of two element pointers: the distance in elements, of C's `ptrdiff_t`.
    pub fn element_difference(&mut self, a: Operand, b: Operand, span: Span) -> (Operand, CType) {
        let [index_a, index_b] = self.same_array_indices(a, b, span);
        let difference = Rvalue::Binary(BinOp::Sub, index_a, index_b);
        let difference = Operand::Local(self.b.assign_temp(difference, span));
        self.unmodelled_cause(span, "a distance of two pointers beyond `int` elements");
        let kind = PropertyKind::Unmodelled;
        self.check_signed_fit(BinOp::Sub, index_a, index_b, difference, kind, span);
        let ptrdiff = self.ptrdiff_t();
        (
            self.convert_number(difference, CType::Int, ptrdiff, span),
            ptrdiff,
        )
    }

    /// `a op b` for two element pointers (or one and the null pointer) and a comparison `op`:
    /// equality compares cells and indices; an ordering compares indices in one array.
    pub fn element_comparison(&mut self, op: BinOp, a: Operand, b: Operand, span: Span) -> Operand {
        let temp = |cx: &mut Self, value| Operand::Local(cx.b.assign_temp(value, span));
        match op {
            BinOp::Eq | BinOp::Ne => {
                let [base_a, index_a] = self.element_parts(a, span);
                let [base_b, index_b] = self.element_parts(b, span);
                let bases = temp(self, Rvalue::Binary(op, base_a, base_b));
                let indices = temp(self, Rvalue::Binary(op, index_a, index_b));
                let join = if op == BinOp::Eq {
                    BinOp::BitAnd
                } else {
                    BinOp::BitOr
                };
                temp(self, Rvalue::Binary(join, bases, indices))
            }
            _ => {
                let [index_a, index_b] = self.same_array_indices(a, b, span);
                temp(self, Rvalue::Binary(op, index_a, index_b))
            }
        }
    }

    /// Whether the element pointer `value` is not null.
    pub fn element_truth(&mut self, value: Operand, span: Span) -> Operand {
        let [base, _] = self.element_parts(value, span);
        Operand::Local(
            self.b
                .assign_temp(Rvalue::Binary(BinOp::Ne, base, Operand::Null), span),
        )
    }
}
