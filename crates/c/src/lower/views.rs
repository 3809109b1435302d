//! Views: a pointer to one integer type made by a cast from a pointer to objects of another
//! (`(unsigned char *)&x`, `(char *)a` of an `int` array, `(unsigned char *)s` of a `char`
//! string, `(int *)buf` of a `char` buffer, `(unsigned *)p` of an `int *`), through which C
//! reads and writes the objects' bytes. Where views come from lives here; what an access
//! through one does, `lower/view_access.rs`.
//!
//! A view is an element pointer (`lower/element_pointer.rs`) whose index counts bytes and
//! whose pointee, a [`CType::Byte`], says what it sees ([`View`]): the integer type it reads
//! (its *unit*: `unsigned char`, or `int` over `char`s), the objects' integer type, and whether
//! its cell holds one object (a variable or `malloc`'s object) or an array of them. So
//! comparisons and null are the element pointer's; arithmetic moves by the unit's size.
//!
//! A cast back to the objects' type (`(int *)p`) checks that the view points at an object's
//! first byte (`unmodelled` otherwise). Views of structs whose members are integers, `_Bool`s
//! and pointers see their integer leaves' bytes at C's offsets (a byte of padding is
//! `unmodelled` to read, one of a pointer to read or write, a byte other than 0 or 1 to write
//! into a `_Bool`); views of `_Bool`, pointers, arrays and structs with array members or
//! bit-fields are refused.
//! Views live only in temporaries, in local variables declared with one as their initializer
//! (`lower/stmt.rs`) or assigned one before any other use, and in the parameters of inlined
//! calls (a call passing a view is inlined,
//! as one passing an array is): a view stored in memory, returned or passed to a function that
//! is not inlined is refused, so no file-wide choice of representation is needed. Nothing here
//! decides where a cast makes one (`lower/expr.rs`).

use lang_c::ast::{BinaryOperator, Expression, Initializer, UnaryOperator};
use lang_c::span::Node;
use symex_ir::cfg::{BinOp, Check, LocalId, Operand, PropertyKind, Rvalue};
use symex_syntax::span::Span;

use super::func::{mentions, Argument, FnCx, Parameter};
use super::types::{CType, View};
use crate::error::CError;

impl FnCx<'_, '_> {
    /// `U *name = e;` (`U` an integer type, `name` a local outside memory) where `e` is a view,
    /// read as `U`s, or `T *name = (T *)e;` of a view `e` of `T`s: declares `name` with the
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
        let unit = match ty {
            CType::Pointer(p) if is_integer(self.pointee(p)) => Some(self.pointee(p)),
            _ => None,
        };
        let makes_view = unit.is_some() && self.is_view_expression(e);
        // `(int *)(b + 4)` of a view `b`: a pointer into an array or to one object, which only
        // the view's cell says.
        let ends_view = matches!(&e.node,
            Expression::Cast(c) if self.is_view_expression(&c.node.expression));
        // `e` is evaluated before `name` is declared: it must not name it.
        if !(makes_view || ends_view)
            || static_storage
            || self.is_address_taken(name, false)
            || mentions(e, name)
        {
            return Ok(None);
        }
        let at = self.at(e.span);
        let (value, from) = self.typed(e)?;
        // A view reads as the variable's type says (`char *c = (unsigned char *)&x;`).
        let viewed = self.unit.types.borrow().view_of(from);
        if let (Some(view), Some(unit)) = (viewed, unit) {
            let ty = self
                .unit
                .types
                .borrow_mut()
                .view_pointer(View { unit, ..view });
            let local = self.declare(name, ty, false, span)?;
            self.assign(local, value, span);
            return Ok(Some(local));
        }
        let (function, local_name) = self.variable_key(name, false);
        let declared = super::element_pointer::variable_type(self.unit, function, local_name, ty);
        let mut types = self.unit.types.borrow_mut();
        let own_type = ends_view && types.erased(from) == types.erased(declared);
        drop(types);
        let ty = if own_type { from } else { declared };
        let value = self.coerce(value, from, ty, span, at)?;
        let local = self.declare(name, ty, false, span)?;
        self.assign(local, value, span);
        Ok(Some(local))
    }

    /// `p = e` where `p` is a local declared without a view (`unsigned char *p;`, as C89
    /// declares at a block's start) that nothing has read or assigned yet, and `e` a view:
    /// `p` takes the view's type (read as its declared type) from here on, as if declared with
    /// `e`. `None`, with nothing lowered, where that is not so; the assignment is then an
    /// ordinary one (which refuses a view).
    pub(super) fn assign_view(
        &mut self,
        lhs: &Node<Expression>,
        rhs: &Node<Expression>,
        span: Span,
    ) -> Result<Option<(Operand, CType)>, CError> {
        let Expression::Identifier(id) = &lhs.node else {
            return Ok(None);
        };
        let name = &id.node.name;
        let Some(scope) = self.scopes.iter().rposition(|s| s.contains_key(name)) else {
            return Ok(None);
        };
        let (local, declared) = self.scopes[scope][name];
        let unit = match declared {
            CType::Pointer(p) | CType::Element(p) if is_integer(self.pointee(p)) => self.pointee(p),
            _ => return Ok(None),
        };
        let register = !self.b.locals[local.index()].address_taken;
        if !register
            || !self.is_view_expression(rhs)
            || mentions(rhs, name)
            // Scans the function's instructions so far: last.
            || self.b.mentions(local)
        {
            return Ok(None);
        }
        let (value, from) = self.typed(rhs)?;
        let Some(view) = self.unit.types.borrow().view_of(from) else {
            let at = self.at(rhs.span);
            let value = self.coerce(value, from, declared, span, at)?;
            self.assign(local, value, span);
            return Ok(Some((value, declared)));
        };
        let ty = self
            .unit
            .types
            .borrow_mut()
            .view_pointer(View { unit, ..view });
        self.scopes[scope].insert(name.clone(), (local, ty));
        self.local_types.insert(local, ty);
        self.assign(local, value, span);
        Ok(Some((value, ty)))
    }

    /// What an inlined call passes for the view `argument` to `param`: the view, which a
    /// parameter of a pointer to integers that lives in no memory takes, read as its type.
    pub(super) fn view_argument(
        &mut self,
        argument: &Node<Expression>,
        (callee, param): (&str, &Parameter),
        span: Span,
        at: usize,
    ) -> Result<Argument, CError> {
        let (value, ty) = self.typed(argument)?;
        let unit = match param.ty {
            CType::Pointer(p) | CType::Element(p) if is_integer(self.pointee(p)) => {
                Some(self.pointee(p))
            }
            _ => None,
        };
        let view = self.unit.types.borrow().view_of(ty);
        match (view, unit) {
            (Some(view), Some(unit))
                if param.array.is_none() && !self.address_taken_in(callee, &param.name) =>
            {
                // The parameter reads as its own type says.
                let ty = self
                    .unit
                    .types
                    .borrow_mut()
                    .view_pointer(View { unit, ..view });
                Ok(Argument::Typed(value, ty))
            }
            _ => Ok(Argument::Value(self.coerce(value, ty, param.ty, span, at)?)),
        }
    }

    /// Whether `e` is a view, as far as its type is plain to see before it is evaluated: a cast
    /// to a pointer to integers of a pointer to other integers (or of a view),
    /// a variable holding a view, or arithmetic, `&p[i]`, `?:` or `,` on one.
    pub(super) fn is_view_expression(&self, e: &Node<Expression>) -> bool {
        match &e.node {
            Expression::Cast(c) => {
                let at = self.at(e.span);
                let Ok(CType::Pointer(p)) = self.type_name_of(&c.node.type_name.node, at) else {
                    return false;
                };
                let target = self.pointee(p);
                let operand = &c.node.expression;
                is_integer(target)
                    && (self.is_view_expression(operand)
                        || self.pointed_type(operand).is_some_and(|object| {
                            object != target && (self.viewable(object) || self.is_union(object))
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
                let element_of_view = matches!(&u.node.operand.node, Expression::BinaryOperator(b)
                    if b.node.operator.node == BinaryOperator::Index
                        && self.is_view_expression(&b.node.lhs));
                // A union's scalars are views of its bytes (`lower/unions.rs`).
                element_of_view || self.in_union(&u.node.operand)
            }
            // A union's array used as a pointer (`lower/unions.rs`).
            Expression::Member(_) => {
                self.in_union(e) && matches!(self.static_type(e), Some(CType::Array(_)))
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
    /// array, a row of one (`m[1]`), a pointer variable, arithmetic on one.
    fn pointed_type(&self, e: &Node<Expression>) -> Option<CType> {
        if let Some(CType::Element(p)) = self.row_of(e) {
            return Some(self.pointee(p));
        }
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
    /// view; `None` where it does neither.
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
            (Some(view), _) if target == view.object => {
                Ok(Some(self.viewed_objects(value, view, span)))
            }
            (Some(view), _) if is_integer(target) => {
                let view = View {
                    unit: target,
                    ..view
                };
                let ty = self.unit.types.borrow_mut().view_pointer(view);
                Ok(Some((value, ty)))
            }
            (Some(_), _) => Ok(None),
            (None, CType::Element(p) | CType::Pointer(p)) if is_integer(target) => {
                // A pointer to arrays points to their elements' bytes (`(char *)m` of `int
                // m[2][3]`), and to those elements themselves (`(int *)m`: no view).
                let (object, from) = match self.pointee(p) {
                    CType::Array(id) => {
                        let element = self.unit.types.borrow().array(id).0;
                        let pointer = self.unit.types.borrow_mut().element_pointer_to(element);
                        (element, pointer)
                    }
                    object => (object, from),
                };
                if object == target || object == CType::Void {
                    return Ok(None);
                }
                if let Some(bytes) = self.union_bytes_pointer((value, from), target, span) {
                    return Ok(Some(bytes));
                }
                if object == CType::Bool {
                    return Err(CError::unsupported(
                        "a view of the bytes of `_Bool` objects (a byte other than 0 or 1 \
                         written into one has no `_Bool` value)",
                        at,
                    ));
                }
                if !self.viewable(object) {
                    let described = self.unit.types.borrow().describe(object);
                    return Err(CError::unsupported(
                        format!(
                            "a view of the bytes of `{described}` objects (the bytes of \
                             integers and of structs of integers, `_Bool`s and pointers are \
                             modelled, a pointer's bytes stopping the run; not those of \
                             pointers themselves, arrays, structs with array members or \
                             bit-fields, or structs with a member whose address is taken)"
                        ),
                        at,
                    ));
                }
                Ok(Some(self.view_of_objects((value, from), target, span)))
            }
            _ => Ok(None),
        }
    }

    /// The view as `unit`s of the integers the pointer `value` of type `from` (a pointer to a
    /// whole object or into an array) points to.
    pub(super) fn view_of_objects(
        &mut self,
        (value, from): (Operand, CType),
        unit: CType,
        span: Span,
    ) -> (Operand, CType) {
        let (CType::Pointer(p) | CType::Element(p)) = from else {
            return (value, from);
        };
        let object = self.pointee(p);
        let whole = matches!(from, CType::Pointer(_));
        let view = View {
            unit,
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
        let cause = "a view cast back to the objects' type off an object's first byte";
        self.unmodelled_cause(span, cause);
        let kind = PropertyKind::Unmodelled;
        let [element, part] = match view.whole {
            true => [Operand::Const(0), index],
            false => self.object_and_offset(index, size, span),
        };
        let holds = self.temp(Rvalue::Binary(BinOp::Eq, part, Operand::Const(0)), span);
        self.check(Check::Condition { holds, kind }, span);
        let mut types = self.unit.types.borrow_mut();
        match view.whole {
            true => (base, types.pointer_to(view.object)),
            false => {
                drop(types);
                let pointer = self.element_value(base, element, span);
                (
                    pointer,
                    self.unit.types.borrow_mut().element_pointer_to(view.object),
                )
            }
        }
    }

    /// What the view among `from` and `to` sees, for messages (`int` objects).
    pub(super) fn view_objects(&self, from: CType, to: CType) -> String {
        let types = self.unit.types.borrow();
        match types.view_of(from).or_else(|| types.view_of(to)) {
            Some(view) => format!("`{}` objects", types.describe(view.object)),
            None => "other objects".to_string(),
        }
    }

    /// Whether a view may see the bytes of objects of type `object`: integers but `_Bool`,
    /// and structs whose leaves are integers or pointers (whose bytes stop a run `unmodelled`),
    /// all in the struct's record (no member's address taken:
    /// such a member lives in a box of its own, `lower/memory.rs`).
    pub(super) fn viewable(&self, object: CType) -> bool {
        is_integer(object)
            || (self.unit.types.borrow().byte_layout(object).is_some() && !self.has_boxes(object))
    }

    /// Whether `ty` is a view's type.
    pub(super) fn is_view(&self, ty: CType) -> bool {
        self.unit.types.borrow().view_of(ty).is_some()
    }

    /// `sizeof` of the integer or struct type `object`.
    pub(super) fn object_size(&self, object: CType) -> i32 {
        self.unit.types.borrow().size(object).unwrap_or(1)
    }

    /// `index * size` of an element index: the index of the element's first byte (an
    /// `unmodelled` check where it would not fit 32 bits).
    pub(super) fn scaled(&mut self, index: Operand, size: i32, span: Span) -> Operand {
        self.scaled_for(index, size, "a byte offset beyond `int`", span)
    }

    /// [`FnCx::scaled`], its `unmodelled` check standing for `cause`.
    pub(super) fn scaled_for(
        &mut self,
        index: Operand,
        size: i32,
        cause: &'static str,
        span: Span,
    ) -> Operand {
        let size = Operand::Const(size);
        let scaled = self.temp(Rvalue::Binary(BinOp::Mul, index, size), span);
        self.unmodelled_cause(span, cause);
        let kind = PropertyKind::Unmodelled;
        self.check_signed_fit(BinOp::Mul, index, size, scaled, kind, span);
        scaled
    }
}

/// Whether `ty` is an integer type a view may read or see (not `_Bool`).
pub(super) fn is_integer(ty: CType) -> bool {
    ty.is_number() && ty != CType::Bool
}
