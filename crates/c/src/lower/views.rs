//! Character views: a `char *`, `signed char *` or `unsigned char *` made by a cast from a
//! pointer to integer objects (`(unsigned char *)&x`, `(char *)a` of an `int` array,
//! `(unsigned char *)s` of a `char` string), through which C reads and writes the objects'
//! bytes.
//!
//! A view is an element pointer (`lower/element_pointer.rs`) whose index counts bytes and
//! whose pointee, a [`CType::Byte`], says what it sees ([`View`]): the character type it reads
//! as, the objects' integer type, and whether its cell holds one object (a variable or
//! `malloc`'s object) or an array of them. So arithmetic, differences, comparisons and null
//! are the element pointer's. Byte `b` is byte `b mod size` of object `b div size`, least
//! significant first (x86 is little-endian): read as the object's value shifted and masked,
//! written by storing the object back with that byte replaced. The object's own checks guard
//! every access (`null-deref`, the array's bounds, `use-after-free`); in a view of one object,
//! the byte's index is an `out-of-bounds` check of its own (`unmodelled` in a file that boxes
//! members: the object may be a member's box, past which C's bytes are the struct's next
//! members). A read of a byte of an object
//! never assigned is `uninit`, as any read; a write is `unmodelled`, since C leaves the
//! object's other bytes indeterminate, which symex does not model (a run stops `unknown`
//! there, never `safe`).
//!
//! A cast back to the objects' type (`(int *)p`) checks that the view points at an object's
//! first byte (`unmodelled` otherwise). Views of `_Bool`, pointers and structs are refused.
//! Views live only in temporaries, in local variables declared with one as their initializer
//! (`lower/stmt.rs`), and in the parameters of inlined calls (a call passing a view is inlined,
//! as one passing an array is): a view stored in memory, returned or passed to a function that
//! is not inlined is refused, so no file-wide choice of representation is needed. Nothing here decides where a cast makes one
//! (`lower/expr.rs`).

use lang_c::ast::{BinaryOperator, Expression, Initializer, UnaryOperator};
use lang_c::span::Node;
use symex_ir::cfg::{BinOp, Check, LocalId, Operand, PropertyKind, Rvalue, UnOp, Width};
use symex_syntax::span::Span;

use super::func::{mentions, Argument, FnCx, Parameter};
use super::memory::{leaf_fields, Memory};
use super::types::type_name;
use super::types::{CType, View};
use crate::error::CError;

/// A byte of an object seen through a character view ([`LValue::Byte`]).
#[derive(Clone, Debug)]
pub(super) struct ByteLValue {
    /// The object the byte belongs to, with its guards.
    pub memory: Memory,
    pub view: View,
    /// How many bits the byte lies above the object's least significant bit.
    pub shift: Operand,
    /// The view pointing at the byte (`&p[i]`), and its type.
    pub address: (Operand, CType),
}

impl FnCx<'_, '_> {
    /// `U *name = e;` (`U` a character type, `name` a local outside memory) where `e` is a
    /// character view, or `T *name = (T *)e;` of a view `e` of `T`s: declares `name` with the
    /// type of `e`'s value (the view's, or a pointer into an array or to one object, which only
    /// the view's cell says) and sets it. `None`, with nothing lowered, where `e` is neither;
    /// then the declaration is an ordinary one.
    pub fn define_view(
        &mut self,
        name: &str,
        ty: CType,
        initializer: Option<&Node<Initializer>>,
        static_storage: bool,
        span: Span,
    ) -> Result<Option<LocalId>, CError> {
        let Some(Node {
            node: Initializer::Expression(e),
            ..
        }) = initializer
        else {
            return Ok(None);
        };
        let character = matches!(ty, CType::Pointer(p) if self.pointee(p).is_char());
        let makes_view = character && self.is_view_expression(e);
        // `(int *)(b + 4)` of a view `b`: a pointer into an array or to one object, which only
        // the view's cell says.
        let ends_view = matches!(&e.node,
            Expression::Cast(c) if self.is_view_expression(&c.node.expression));
        // `e` is evaluated before `name` is declared: it must not name it.
        if !(makes_view || ends_view)
            || static_storage
            || self.unit.address_taken.contains(name)
            || mentions(e, name)
        {
            return Ok(None);
        }
        let at = self.at(e.span);
        let (value, from) = self.typed(e)?;
        let (function, local_name) = self.variable_key(name, false);
        let declared = super::element_pointer::variable_type(self.unit, function, local_name, ty);
        let mut types = self.unit.types.borrow_mut();
        let own_type = types.view_of(from).is_some()
            || (ends_view && types.erased(from) == types.erased(declared));
        drop(types);
        let ty = if own_type { from } else { declared };
        let value = self.coerce(value, from, ty, span, at)?;
        let local = self.declare(name, ty, span)?;
        self.assign(local, value, span);
        Ok(Some(local))
    }

    /// What an inlined call passes for the view `argument` to `param`: the view, which a
    /// parameter of a character pointer type that lives in no memory takes with its type.
    pub(super) fn view_argument(
        &mut self,
        argument: &Node<Expression>,
        param: &Parameter,
        span: Span,
        at: usize,
    ) -> Result<Argument, CError> {
        let (value, ty) = self.typed(argument)?;
        let character =
            matches!(param.ty, CType::Pointer(p) | CType::Element(p) if self.pointee(p).is_char());
        if !self.is_view(ty)
            || !character
            || param.array.is_some()
            || self.unit.address_taken.contains(&param.name)
        {
            return Ok(Argument::Value(self.coerce(value, ty, param.ty, span, at)?));
        }
        Ok(Argument::View(value, ty))
    }

    /// Whether `e` is a character view, as far as its type is plain to see before it is
    /// evaluated: a cast to a character pointer of a pointer to other integers (or of a view),
    /// a variable holding a view, or arithmetic, `&p[i]`, `?:` or `,` on one.
    pub(super) fn is_view_expression(&self, e: &Node<Expression>) -> bool {
        match &e.node {
            Expression::Cast(c) => {
                let at = self.at(e.span);
                let Ok(CType::Pointer(p)) = type_name(self.unit, &c.node.type_name.node, at) else {
                    return false;
                };
                let target = self.pointee(p);
                let operand = &c.node.expression;
                target.is_char()
                    && (self.is_view_expression(operand)
                        || self.pointed_type(operand).is_some_and(|object| {
                            object != target && object.is_number() && object != CType::Bool
                        }))
            }
            Expression::Identifier(id) => {
                let at = self.at(e.span);
                self.scalar(&id.node.name, at)
                    .is_ok_and(|(_, ty)| self.is_view(ty))
            }
            Expression::BinaryOperator(b) => match b.node.operator.node {
                BinaryOperator::Plus | BinaryOperator::Minus => {
                    self.is_view_expression(&b.node.lhs) || self.is_view_expression(&b.node.rhs)
                }
                _ => false,
            },
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Address => {
                matches!(&u.node.operand.node, Expression::BinaryOperator(b)
                    if b.node.operator.node == BinaryOperator::Index
                        && self.is_view_expression(&b.node.lhs))
            }
            Expression::Conditional(c) => {
                self.is_view_expression(&c.node.then_expression)
                    || self.is_view_expression(&c.node.else_expression)
            }
            Expression::Comma(items) => items.last().is_some_and(|e| self.is_view_expression(e)),
            _ => false,
        }
    }

    /// The type of what the pointer `e` points to, where plain to see: `&x`, `&a[i]`, an
    /// array, a pointer variable, arithmetic on one.
    fn pointed_type(&self, e: &Node<Expression>) -> Option<CType> {
        match &e.node {
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Address => {
                self.static_type(&u.node.operand)
            }
            Expression::Identifier(_) => match self.array_variable(e) {
                Some((_, element)) => Some(element),
                None => match self.static_type(e)? {
                    CType::Pointer(p) | CType::Element(p) => Some(self.pointee(p)),
                    _ => None,
                },
            },
            Expression::BinaryOperator(b) => match b.node.operator.node {
                BinaryOperator::Plus | BinaryOperator::Minus => self
                    .pointed_type(&b.node.lhs)
                    .or_else(|| self.pointed_type(&b.node.rhs)),
                _ => None,
            },
            _ => None,
        }
    }

    /// `value` of type `from` converted to the pointer type `to` where that makes or ends a
    /// character view; `None` where it does neither.
    pub fn view_conversion(
        &mut self,
        value: Operand,
        from: CType,
        to: CType,
        span: Span,
        at: usize,
    ) -> Result<Option<(Operand, CType)>, CError> {
        let CType::Pointer(target) = to else {
            return Ok(None);
        };
        let target = self.pointee(target);
        let viewed = self.unit.types.borrow().view_of(from);
        match (viewed, from) {
            (Some(view), _) if target.is_char() => {
                let view = View {
                    character: target,
                    ..view
                };
                Ok(Some((
                    value,
                    self.unit.types.borrow_mut().view_pointer(view),
                )))
            }
            (Some(view), _) if target == view.object => {
                Ok(Some(self.viewed_objects(value, view, span)))
            }
            (Some(_), _) => Ok(None),
            (None, CType::Element(p) | CType::Pointer(p)) if target.is_char() => {
                let object = self.pointee(p);
                if object == target || object == CType::Void {
                    return Ok(None);
                }
                if !object.is_number() {
                    let described = self.unit.types.borrow().describe(object);
                    return Err(CError::unsupported(
                        format!(
                            "a character view of `{described}` objects (the bytes of integers \
                             are modelled; not those of structs, pointers or arrays)"
                        ),
                        at,
                    ));
                }
                if object == CType::Bool {
                    return Err(CError::unsupported(
                        "a character view of `_Bool` objects (a byte other than 0 or 1 written \
                         into one has no `_Bool` value)",
                        at,
                    ));
                }
                Ok(Some(self.view_of_objects((value, from), target, span)))
            }
            _ => Ok(None),
        }
    }

    /// The view as `character`s of the integers the pointer `value` of type `from` (a pointer
    /// to a whole object or into an array) points to.
    pub(super) fn view_of_objects(
        &mut self,
        (value, from): (Operand, CType),
        character: CType,
        span: Span,
    ) -> (Operand, CType) {
        let (CType::Pointer(p) | CType::Element(p)) = from else {
            return (value, from);
        };
        let object = self.pointee(p);
        let whole = matches!(from, CType::Pointer(_));
        let view = View {
            character,
            object,
            whole,
        };
        let (base, index) = match whole {
            true => (value, Operand::Const(0)),
            false => {
                let [base, index] = self.element_parts(value, span);
                let size = self.object_size(object);
                (base, self.scaled(index, size, span))
            }
        };
        let pointer = self.element_value(base, index, span);
        (pointer, self.unit.types.borrow_mut().view_pointer(view))
    }

    /// `(T *)p` of a view `p` of `T` objects: a pointer to the object whose first byte it
    /// points at (`unmodelled` unless it points at one).
    fn viewed_objects(&mut self, value: Operand, view: View, span: Span) -> (Operand, CType) {
        let [base, index] = self.element_parts(value, span);
        let size = self.object_size(view.object);
        let kind = PropertyKind::Unmodelled;
        let holds = match view.whole {
            true => self.temp(Rvalue::Binary(BinOp::Eq, index, Operand::Const(0)), span),
            false => {
                let part = self.temp(
                    Rvalue::Binary(BinOp::BitAnd, index, Operand::Const(size - 1)),
                    span,
                );
                self.temp(Rvalue::Binary(BinOp::Eq, part, Operand::Const(0)), span)
            }
        };
        self.check(Check::Condition { holds, kind }, span);
        let mut types = self.unit.types.borrow_mut();
        match view.whole {
            true => (base, types.pointer_to(view.object)),
            false => {
                drop(types);
                let shift = Operand::Const(size.trailing_zeros() as i32);
                let element = self.temp(Rvalue::Binary(BinOp::AShr, index, shift), span);
                let pointer = self.element_value(base, element, span);
                (
                    pointer,
                    self.unit.types.borrow_mut().element_pointer_to(view.object),
                )
            }
        }
    }

    /// The byte the view `pointer` points at, moved by `offset` bytes (`p[i]`), and its
    /// character type.
    pub fn byte_lvalue(
        &mut self,
        (pointer, ty): (Operand, CType),
        view: View,
        offset: Option<(Operand, CType)>,
        span: Span,
    ) -> ByteLValue {
        let pointer = match offset {
            Some(offset) => self.element_offset(pointer, offset, false, span),
            None => pointer,
        };
        let [base, index] = self.element_parts(pointer, span);
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
        ByteLValue {
            memory,
            view,
            shift,
            address: (pointer, ty),
        }
    }

    /// The byte `byte` designates, as its character type (its guards run here): a byte of an
    /// object never assigned is an `uninit` read.
    pub fn read_byte(&mut self, byte: &ByteLValue, span: Span) -> Operand {
        self.load_byte(byte, PropertyKind::Uninit, span)
    }

    /// [`FnCx::read_byte`], where a byte of an object never assigned fails a check of `kind`.
    pub(super) fn load_byte(
        &mut self,
        byte: &ByteLValue,
        kind: PropertyKind,
        span: Span,
    ) -> Operand {
        self.guard(&byte.memory, span);
        let [object, _] = self.object_fields(byte, kind, span);
        let width = byte.view.object.width();
        let shift = self.widened(byte.shift, width, span);
        let shifted = self.temp(Rvalue::Binary(BinOp::LShr, object, shift), span);
        let low = match width {
            Width::W64 => self.convert_number(shifted, CType::ULong, CType::UInt, span),
            Width::W32 => shifted,
        };
        let low = self.temp(
            Rvalue::Binary(BinOp::BitAnd, low, Operand::Const(0xff)),
            span,
        );
        self.convert(low, byte.view.character, span)
    }

    /// The value of the object `byte` lies in and whether it is assigned, after the check of
    /// `kind` that it is.
    fn object_fields(&mut self, byte: &ByteLValue, kind: PropertyKind, span: Span) -> [Operand; 2] {
        let (value_field, flag_field) = leaf_fields(&byte.memory.prefix);
        let flag = Rvalue::Read(byte.memory.field(self.field_id(&flag_field)));
        let flag = self.temp(flag, span);
        let assigned = self.temp(Rvalue::Binary(BinOp::Ne, flag, Operand::Const(0)), span);
        self.check(
            Check::Condition {
                holds: assigned,
                kind,
            },
            span,
        );
        let value = Rvalue::Read(byte.memory.field(self.field_id(&value_field)));
        let value = Operand::Local(self.b.assign_temp_of(value, byte.view.object.width(), span));
        [value, assigned]
    }

    /// Stores `value` (of the view's character type) as the byte `byte` designates; `checked`
    /// when [`FnCx::read_byte`] just read it.
    pub fn write_byte(&mut self, byte: &ByteLValue, value: Operand, checked: bool, span: Span) {
        if !checked {
            self.guard(&byte.memory, span);
        }
        self.store_byte(byte, value, None, span);
    }

    /// Stores `value` as the byte `byte` designates, its guards run. A write into an object
    /// never assigned is `unmodelled` (its other bytes are indeterminate), unless `fills` holds:
    /// the same operation writes the object's other bytes next (a copy of whole objects).
    pub(super) fn store_byte(
        &mut self,
        byte: &ByteLValue,
        value: Operand,
        fills: Option<Operand>,
        span: Span,
    ) {
        let object = byte.view.object;
        if self.object_size(object) == 1 {
            let value = self.convert(value, object, span);
            self.write_memory(&byte.memory, object, value, true, span);
            return;
        }
        let (value_field, flag_field) = leaf_fields(&byte.memory.prefix);
        let width = object.width();
        let old = match fills {
            None => self.object_fields(byte, PropertyKind::Unmodelled, span)[0],
            Some(fills) => {
                // An object never assigned starts from 0: every byte of it is written next.
                let flag = Rvalue::Read(byte.memory.field(self.field_id(&flag_field)));
                let flag = self.temp(flag, span);
                let assigned = self.temp(Rvalue::Binary(BinOp::Ne, flag, Operand::Const(0)), span);
                let holds = self.temp(Rvalue::Binary(BinOp::BitOr, assigned, fills), span);
                let kind = PropertyKind::Unmodelled;
                self.check(Check::Condition { holds, kind }, span);
                let old = Rvalue::Read(byte.memory.field(self.field_id(&value_field)));
                let old = Operand::Local(self.b.assign_temp_of(old, width, span));
                let keep = self.temp(Rvalue::Unary(UnOp::Neg, assigned), span);
                let keep = self.widened(keep, width, span);
                self.temp(Rvalue::Binary(BinOp::BitAnd, old, keep), span)
            }
        };
        let shift = self.widened(byte.shift, width, span);
        let wide = |n: i32| match width {
            Width::W64 => Operand::Const64(i64::from(n)),
            Width::W32 => Operand::Const(n),
        };
        let mask = self.temp(Rvalue::Binary(BinOp::Shl, wide(0xff), shift), span);
        let cleared = self.temp(Rvalue::Binary(BinOp::BitXor, mask, wide(-1)), span);
        let kept = self.temp(Rvalue::Binary(BinOp::BitAnd, old, cleared), span);
        let low = self.temp(
            Rvalue::Binary(BinOp::BitAnd, value, Operand::Const(0xff)),
            span,
        );
        let low = match width {
            Width::W64 => self.convert_number(low, CType::Int, CType::Long, span),
            Width::W32 => low,
        };
        let placed = self.temp(Rvalue::Binary(BinOp::Shl, low, shift), span);
        let merged = self.temp(Rvalue::Binary(BinOp::BitOr, kept, placed), span);
        let merged = self.convert(merged, object, span);
        self.write_memory(&byte.memory, object, merged, true, span);
    }

    /// What the view among `from` and `to` sees, for messages (`int` objects).
    pub(super) fn view_objects(&self, from: CType, to: CType) -> String {
        let types = self.unit.types.borrow();
        match types.view_of(from).or_else(|| types.view_of(to)) {
            Some(view) => format!("`{}` objects", types.describe(view.object)),
            None => "other objects".to_string(),
        }
    }

    /// Whether `ty` is a character view's type.
    pub(super) fn is_view(&self, ty: CType) -> bool {
        self.unit.types.borrow().view_of(ty).is_some()
    }

    /// `sizeof` of the integer type `object`, a power of two.
    pub(super) fn object_size(&self, object: CType) -> i32 {
        self.unit.types.borrow().size(object).unwrap_or(1)
    }

    /// `index * size` of an element index: the index of the element's first byte (an
    /// `unmodelled` check where it would not fit 32 bits).
    fn scaled(&mut self, index: Operand, size: i32, span: Span) -> Operand {
        let size = Operand::Const(size);
        let scaled = self.temp(Rvalue::Binary(BinOp::Mul, index, size), span);
        let kind = PropertyKind::Unmodelled;
        self.check_signed_fit(BinOp::Mul, index, size, scaled, kind, span);
        scaled
    }

    /// The 32-bit `value` as a number of `width`.
    fn widened(&mut self, value: Operand, width: Width, span: Span) -> Operand {
        match width {
            Width::W64 => self.convert_number(value, CType::Int, CType::Long, span),
            Width::W32 => value,
        }
    }
}
