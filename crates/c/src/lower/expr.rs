//! C expressions lowered to operands, evaluated left to right: arithmetic and comparisons on
//! `int` (wrapping, like micro-c), `&&`/`||`/`?:` as branches, assignments, `++`/`--`, calls of
//! defined functions and SV-COMP's built-in functions. A read of a local variable copies it into
//! a temporary right after its `uninit` check, so that later blocks of the same expression see
//! the value that was read.

use lang_c::ast::{
    BinaryOperator, BlockItem, CallExpression, Expression, MemberOperator, Statement, UnaryOperator,
};
use lang_c::span::Node;
use lang_c::visit::Visit;
use symex_ir::cfg::{
    BinOp, BlockId, Check, InstKind, LocalId, LocalKind, Operand, Place, PlaceBase, PropertyKind,
    Rvalue, UnOp, Width,
};
use symex_syntax::span::Span;

use super::array::Indexing;
use super::constant;
use super::element_pointer::element_conversion_refusal;
use super::func::{Argument, FnCx};
use super::literal::{integer_constant, string_bytes};
use super::memory::{HeapOwner, LValue, Memory};
use super::types::{type_name, CType, PointeeId};
use crate::error::CError;

/// Calls that fail the `unreach-call` property: SV-COMP's error functions and the targets of
/// `assert` from `<assert.h>`.
pub(super) const ERROR_FUNCTIONS: &[&str] = &[
    "reach_error",
    "__VERIFIER_error",
    "__assert_fail",
    "__assert_perror_fail",
    "__assert",
];

/// Calls that end the run without an error.
pub(super) const EXIT_FUNCTIONS: &[&str] = &["abort", "exit", "_Exit", "__VERIFIER_abort"];

/// The IR operator of a C arithmetic, bitwise or comparison operator (or of the operation of a
/// compound assignment) on operands of type `ty`.
fn arithmetic(op: &BinaryOperator, ty: CType) -> Option<BinOp> {
    use BinaryOperator as B;
    let unsigned = ty.is_unsigned();
    let pick = |signed: BinOp, unsigned_op: BinOp| if unsigned { unsigned_op } else { signed };
    Some(match op {
        B::Multiply | B::AssignMultiply => BinOp::Mul,
        B::Divide | B::AssignDivide => pick(BinOp::Div, BinOp::UDiv),
        B::Modulo | B::AssignModulo => pick(BinOp::Rem, BinOp::URem),
        B::Plus | B::AssignPlus => BinOp::Add,
        B::Minus | B::AssignMinus => BinOp::Sub,
        B::BitwiseAnd | B::AssignBitwiseAnd => BinOp::BitAnd,
        B::BitwiseOr | B::AssignBitwiseOr => BinOp::BitOr,
        B::BitwiseXor | B::AssignBitwiseXor => BinOp::BitXor,
        B::Less => pick(BinOp::Lt, BinOp::ULt),
        B::Greater => pick(BinOp::Gt, BinOp::UGt),
        B::LessOrEqual => pick(BinOp::Le, BinOp::ULe),
        B::GreaterOrEqual => pick(BinOp::Ge, BinOp::UGe),
        B::Equals => BinOp::Eq,
        B::NotEquals => BinOp::Ne,
        _ => return None,
    })
}

/// That the call of `name` has `expected` arguments.
pub(super) fn arity(
    name: &str,
    call: &CallExpression,
    expected: usize,
    at: usize,
) -> Result<(), CError> {
    match call.arguments.len() == expected {
        true => Ok(()),
        false => Err(CError::invalid(
            format!(
                "`{name}` takes {expected} argument(s) but {} were given",
                call.arguments.len()
            ),
            at,
        )),
    }
}

fn is_comparison(op: &BinaryOperator) -> bool {
    use BinaryOperator as B;
    matches!(
        op,
        B::Less | B::Greater | B::LessOrEqual | B::GreaterOrEqual | B::Equals | B::NotEquals
    )
}

/// Whether `op` shifts (`<<`, `>>` and their assignments), and left if so.
fn shift(op: &BinaryOperator) -> Option<bool> {
    use BinaryOperator as B;
    match op {
        B::ShiftLeft | B::AssignShiftLeft => Some(true),
        B::ShiftRight | B::AssignShiftRight => Some(false),
        _ => None,
    }
}

fn is_compound_assignment(op: &BinaryOperator) -> bool {
    use BinaryOperator as B;
    matches!(
        op,
        B::AssignMultiply
            | B::AssignDivide
            | B::AssignModulo
            | B::AssignPlus
            | B::AssignMinus
            | B::AssignBitwiseAnd
            | B::AssignBitwiseOr
            | B::AssignBitwiseXor
    )
}

impl FnCx<'_, '_> {
    /// The value of `e`, with its side effects emitted.
    pub fn value(&mut self, e: &Node<Expression>) -> Result<Operand, CError> {
        self.typed(e).map(|(value, _)| value)
    }

    /// The value of `e` and its type (`int` or `unsigned int`; `void` values are 0).
    pub fn typed(&mut self, e: &Node<Expression>) -> Result<(Operand, CType), CError> {
        self.enter(e.span)?;
        let result = self.value_kind(e);
        self.leave();
        result
    }

    /// The value of `e` converted to `to` as assignment, initialization, an argument, `return`
    /// or a cast converts it ([`FnCx::coerce`]).
    pub fn converted(
        &mut self,
        e: &Node<Expression>,
        to: CType,
        span: Span,
        at: usize,
    ) -> Result<Operand, CError> {
        let (value, from) = self.typed_as_allocation(e, to)?;
        self.coerce(value, from, to, span, at)
    }

    /// [`FnCx::typed`], where an allocation of a number of bytes whose result converts at once
    /// to a pointer to `to`'s pointee makes objects of that type (`lower/allocation.rs`).
    fn typed_as_allocation(
        &mut self,
        e: &Node<Expression>,
        to: CType,
    ) -> Result<(Operand, CType), CError> {
        self.byte_allocation_as = self.byte_allocation_target(e, to);
        self.allocator_call = self.allocator_target(e, to);
        self.allocation_in_allocator = match self.allocates_void_bytes(e, to) {
            true => self.void_allocation_object(),
            false => None,
        };
        let result = self.typed(e);
        self.byte_allocation_as = None;
        self.allocator_call = None;
        self.allocation_in_allocator = None;
        result
    }

    /// Ends the current block with a branch on `e`: `then_bb` if it is non-zero. `&&`, `||` and
    /// `!` branch directly instead of computing 0 or 1.
    pub fn branch(
        &mut self,
        e: &Node<Expression>,
        then_bb: BlockId,
        else_bb: BlockId,
    ) -> Result<(), CError> {
        self.enter(e.span)?;
        let result = self.branch_kind(e, then_bb, else_bb);
        self.leave();
        result
    }

    fn branch_kind(
        &mut self,
        e: &Node<Expression>,
        then_bb: BlockId,
        else_bb: BlockId,
    ) -> Result<(), CError> {
        match &e.node {
            Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::LogicalAnd => {
                let right = self.b.new_block();
                self.branch(&b.node.lhs, right, else_bb)?;
                self.b.switch_to(right);
                self.branch(&b.node.rhs, then_bb, else_bb)
            }
            Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::LogicalOr => {
                let right = self.b.new_block();
                self.branch(&b.node.lhs, then_bb, right)?;
                self.b.switch_to(right);
                self.branch(&b.node.rhs, then_bb, else_bb)
            }
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Negate => {
                self.branch(&u.node.operand, else_bb, then_bb)
            }
            _ => {
                let (cond, ty) = self.typed(e)?;
                let span = self.span(e.span);
                let cond = self.truth(cond, ty, span, self.at(e.span))?;
                self.b.branch(cond, then_bb, else_bb, span);
                Ok(())
            }
        }
    }

    pub(super) fn temp(&mut self, value: Rvalue, span: Span) -> Operand {
        Operand::Local(self.b.assign_temp(value, span))
    }

    /// The value of local `local` now: checked for initialization if it is a `var`, and
    /// copied unless it is a temporary (a parameter is assigned too: `n++` reads the old `n`).
    fn read_local(&mut self, local: LocalId, span: Span) -> Operand {
        match self.b.locals[local.index()].kind {
            LocalKind::Temp => return Operand::Local(local),
            LocalKind::Var => self.check(Check::Init(Place::local(local)), span),
            LocalKind::Param | LocalKind::Assigned => {}
        }
        self.temp(Rvalue::Use(Operand::Local(local)), span)
    }

    pub(super) fn assign(&mut self, local: LocalId, value: Operand, span: Span) {
        let value = Rvalue::Use(value);
        self.b.emit(InstKind::Assign { dst: local, value }, span);
    }

    /// `value` of integer type `from` converted to integer type `to`, as C converts: to a
    /// 64-bit type by sign or zero extension (by `from`'s signedness; a value of a narrower
    /// type is in its range already), from one by truncation (`_Bool`: whether it is
    /// non-zero), then within 32 bits as [`FnCx::convert`] does.
    pub fn convert_number(
        &mut self,
        value: Operand,
        from: CType,
        to: CType,
        span: Span,
    ) -> Operand {
        match (from.width(), to.width()) {
            (Width::W32, Width::W64) => {
                let unsigned = from.promoted().is_unsigned();
                match value {
                    Operand::Const(n) if unsigned => Operand::Const64(i64::from(n as u32)),
                    Operand::Const(n) => Operand::Const64(i64::from(n)),
                    _ => {
                        let op = if unsigned {
                            UnOp::ZeroExtend
                        } else {
                            UnOp::SignExtend
                        };
                        self.temp(Rvalue::Unary(op, value), span)
                    }
                }
            }
            (Width::W64, Width::W32) if to == CType::Bool => match value {
                Operand::Const64(n) => Operand::Const(i32::from(n != 0)),
                _ => self.temp(Rvalue::Binary(BinOp::Ne, value, Operand::Const64(0)), span),
            },
            (Width::W64, Width::W32) => {
                let low = match value {
                    Operand::Const64(n) => Operand::Const(n as i32),
                    _ => self.temp(Rvalue::Unary(UnOp::Truncate, value), span),
                };
                self.convert(low, to, span)
            }
            _ => self.convert(value, to, span),
        }
    }

    /// [`FnCx::index_value`] with an `unmodelled` check, whose cause is `cause` (recorded only
    /// where there is a check: a 32-bit value needs none).
    pub(super) fn unmodelled_index(
        &mut self,
        value: Operand,
        ty: CType,
        cause: &'static str,
        span: Span,
    ) -> Operand {
        if ty.width() != Width::W32 {
            self.unmodelled_cause(span, cause);
        }
        self.index_value(value, ty, PropertyKind::Unmodelled, span)
    }

    /// `value` of integer type `ty` as a 32-bit index or count: a 64-bit value is first checked
    /// (a check of `kind`) to lie within `int`, where every index of an array symex models
    /// does, then truncated.
    pub(super) fn index_value(
        &mut self,
        value: Operand,
        ty: CType,
        kind: PropertyKind,
        span: Span,
    ) -> Operand {
        if ty.width() == Width::W32 {
            return value;
        }
        let within = match value {
            Operand::Const64(n) => Some(i32::try_from(n).is_ok() && (n >= 0 || ty == CType::Long)),
            _ => None,
        };
        let holds = match within {
            Some(true) => None,
            Some(false) => Some(Operand::Const(0)),
            // `value + 2^31 < 2^32` read as unsigned; an unsigned value below 2^31.
            None if ty == CType::Long => {
                let shifted = Rvalue::Binary(BinOp::Add, value, Operand::Const64(1 << 31));
                let shifted = self.temp(shifted, span);
                Some(self.temp(
                    Rvalue::Binary(BinOp::ULt, shifted, Operand::Const64(1 << 32)),
                    span,
                ))
            }
            None => Some(self.temp(
                Rvalue::Binary(BinOp::ULt, value, Operand::Const64(1 << 31)),
                span,
            )),
        };
        if let Some(holds) = holds {
            self.check(Check::Condition { holds, kind }, span);
        }
        self.convert_number(value, ty, CType::Int, span)
    }

    /// `value` (a 32-bit number, or a number of `to`'s width) converted to `to`: the value of
    /// type `to` with the same low bits, as C converts to a narrower type (`_Bool`: whether it
    /// is non-zero). A value of a narrow type is kept in that range, so reading it back needs
    /// nothing. Conversions between the widths are [`FnCx::convert_number`]'s.
    pub fn convert(&mut self, value: Operand, to: CType, span: Span) -> Operand {
        let (mask, sign) = match to {
            CType::Int
            | CType::UInt
            | CType::Long
            | CType::ULong
            | CType::Void
            | CType::Pointer(_)
            | CType::Element(_)
            | CType::Struct(_)
            | CType::Array(_)
            | CType::Function(_)
            | CType::Byte(_) => return value,
            CType::Bool => {
                let nonzero = Rvalue::Binary(BinOp::Ne, value, Operand::Const(0));
                return match value {
                    Operand::Const(n) => Operand::Const(i32::from(n != 0)),
                    _ => self.temp(nonzero, span),
                };
            }
            CType::UChar => (0xff, None),
            CType::UShort => (0xffff, None),
            CType::SChar => (0xff, Some(0x80)),
            CType::Short => (0xffff, Some(0x8000)),
        };
        if let Operand::Const(n) = value {
            let low = n & mask;
            return Operand::Const(sign.map_or(low, |s| (low ^ s) - s));
        }
        let low = self.temp(
            Rvalue::Binary(BinOp::BitAnd, value, Operand::Const(mask)),
            span,
        );
        match sign {
            None => low,
            // Sign extension: flip the sign bit, then subtract its weight.
            Some(s) => {
                let flipped =
                    self.temp(Rvalue::Binary(BinOp::BitXor, low, Operand::Const(s)), span);
                self.temp(Rvalue::Binary(BinOp::Sub, flipped, Operand::Const(s)), span)
            }
        }
    }

    /// What `e` designates (a variable, `*p`, a member, an array element whose indices this
    /// evaluates), and its type. Nothing is checked yet: the checks are the lvalue's guards.
    fn lvalue(&mut self, e: &Node<Expression>) -> Result<(LValue, CType), CError> {
        let at = self.at(e.span);
        if let Some(element) = self.element(e)? {
            return Ok(element);
        }
        match &e.node {
            Expression::Identifier(id) => {
                let (local, ty) = self.scalar(&id.node.name, at)?;
                Ok((self.local_lvalue(local), ty))
            }
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Indirection => {
                self.deref(&u.node.operand, at)
            }
            Expression::Member(m)
                if m.node.operator.node == MemberOperator::Direct
                    && is_value_expression(&m.node.expression) =>
            {
                Err(CError::unsupported(
                    "this expression as an lvalue (a member of a struct value, which only \
                     reads take)",
                    at,
                ))
            }
            Expression::Member(m) => match self.member(e, m)? {
                (_, CType::Array(_)) => Err(CError::unsupported(
                    format!(
                        "the array member `{}` used as a value (assigned whole, used as a \
                         pointer or passed to a function; its elements are supported so far)",
                        m.node.identifier.node.name
                    ),
                    at,
                )),
                member => Ok(member),
            },
            _ => Err(CError::unsupported(
                "this expression as an lvalue (variables, `*p`, members and array elements can \
                 be assigned so far)",
                at,
            )),
        }
    }

    /// The member `e` (`s.f`, `p->f`) and its type: a boxed scalar member's box, or the member
    /// itself (an array member too, which only [`FnCx::element`] indexes).
    pub fn member(
        &mut self,
        e: &Node<Expression>,
        m: &Node<lang_c::ast::MemberExpression>,
    ) -> Result<(LValue, CType), CError> {
        self.member_at(e, m, Indexing::Access)
    }

    /// [`FnCx::member`] for `purpose`: for an address (`&p->f`), a boxed member's struct is
    /// checked as `FnCx::unbox_array_for_address` says.
    fn member_at(
        &mut self,
        e: &Node<Expression>,
        m: &Node<lang_c::ast::MemberExpression>,
        purpose: Indexing,
    ) -> Result<(LValue, CType), CError> {
        let at = self.at(e.span);
        if m.node.operator.node == MemberOperator::Direct && is_value_expression(&m.node.expression)
        {
            return self.member_of_value(e, m);
        }
        let (object, ty) = match m.node.operator.node {
            MemberOperator::Direct => self.lvalue(&m.node.expression)?,
            MemberOperator::Indirect => self.deref(&m.node.expression, at)?,
        };
        self.member_of((object, ty), e, m, purpose)
    }

    /// A pointer to the first element of the array member `m` (`e`), into its box: C's value
    /// of the member (`char *p = s.name`, `f(s.data)`, `s.m + 1`), which points to its
    /// elements or, for several dimensions, its rows; or, `whole`, `&s.a`, which points to
    /// the array.
    fn member_start(
        &mut self,
        e: &Node<Expression>,
        m: &Node<lang_c::ast::MemberExpression>,
        whole: bool,
        span: Span,
        at: usize,
    ) -> Result<(Operand, CType), CError> {
        let name = &m.node.identifier.node.name;
        let member = self.member(e, m)?;
        if let (LValue::Union(part), CType::Array(id)) = member {
            // A union's array of one dimension: a view of its bytes (`lower/unions.rs`).
            let (element, dims) = self.unit.types.borrow().array(id);
            if whole || dims.len() > 1 {
                return Err(super::unions::unsupported_part("a pointer to arrays", at));
            }
            let first = self.union_element(part, Operand::Const(0), element, span);
            let LValue::Byte(first) = first else {
                return Err(super::unions::unsupported_part("a pointer", at));
            };
            return Ok(first.address);
        }
        let (LValue::Memory(member), CType::Array(id)) = member else {
            return Err(CError::invalid(
                format!("`{name}` is not an array member"),
                at,
            ));
        };
        let pointee = {
            let mut types = self.unit.types.borrow_mut();
            let (element, dims) = types.array(id);
            match whole {
                true => types.array_of(element, dims),
                false => types.decayed_pointee(element, &dims),
            }
        };
        let mut first = self.unbox_array_for_address(&member, span);
        (first.place.projections).push(symex_ir::cfg::Projection::Index(Operand::Const(0)));
        self.element_address(first, pointee, true, span, at)
    }

    /// A member of a struct *value* (`make(3).y`, `(c ? s : t).x`): read from the record the
    /// expression gives. C has no lvalue there, so only reads come here.
    fn member_of_value(
        &mut self,
        e: &Node<Expression>,
        m: &Node<lang_c::ast::MemberExpression>,
    ) -> Result<(LValue, CType), CError> {
        let (value, ty) = self.typed(&m.node.expression)?;
        match (value, ty) {
            (Operand::Local(record), CType::Struct(_)) => {
                let object = (LValue::Memory(Memory::local(record)), ty);
                self.member_of(object, e, m, Indexing::Access)
            }
            _ => Err(CError::invalid(
                format!(
                    "a member `{}` of something other than a struct",
                    m.node.identifier.node.name
                ),
                self.at(e.span),
            )),
        }
    }

    /// The member `m` of `object`, of C type `ty` (through the anonymous members it lies in).
    fn member_of(
        &mut self,
        (object, ty): (LValue, CType),
        e: &Node<Expression>,
        m: &Node<lang_c::ast::MemberExpression>,
        purpose: Indexing,
    ) -> Result<(LValue, CType), CError> {
        let at = self.at(e.span);
        let name = &m.node.identifier.node.name;
        super::func::complete(self.unit, ty, at)?;
        let path = match ty {
            CType::Struct(id) => self.unit.types.borrow().member_path(id, name),
            _ => None,
        };
        let Some(path) = path else {
            return Err(CError::invalid(
                format!(
                    "`{}` has no member `{name}`",
                    self.unit.types.borrow().describe(ty)
                ),
                at,
            ));
        };
        let mut member = (object, ty);
        for (_, step, _) in path {
            member = self.member_named(member, &step, e, purpose)?;
        }
        Ok(member)
    }

    /// The member `name` of `object`, of C type `ty`, for the member expression `e`.
    fn member_named(
        &mut self,
        (object, ty): (LValue, CType),
        name: &str,
        e: &Node<Expression>,
        purpose: Indexing,
    ) -> Result<(LValue, CType), CError> {
        let at = self.at(e.span);
        let (field, union) = match ty {
            CType::Struct(id) => {
                let types = self.unit.types.borrow();
                (
                    types.member_type(id, name),
                    types.union_members(id).is_some(),
                )
            }
            _ => (None, false),
        };
        let span = self.span(e.span);
        match (object, field) {
            (LValue::Memory(memory), Some(field)) if union => {
                let CType::Struct(id) = ty else {
                    return Err(CError::invalid(
                        "internal error: a member of a non-union",
                        at,
                    ));
                };
                Ok((self.union_member(memory, (id, name), field, span), field))
            }
            (LValue::Union(part), Some(field)) => {
                let CType::Struct(id) = ty else {
                    return Err(CError::invalid(
                        "internal error: a member of a non-struct",
                        at,
                    ));
                };
                let member = self.union_struct_member(part, (id, name), field, span, at)?;
                Ok((member, field))
            }
            (LValue::Memory(memory), Some(field)) => {
                // The struct's own place where it is a whole object (`lower/containers.rs`).
                let whole = memory.place.projections.is_empty() && memory.prefix.is_empty();
                let object = whole.then_some(memory.place.base);
                let member = memory.member(name);
                match self.member_boxed(name, field) {
                    true => {
                        let span = self.span(e.span);
                        let member = match purpose {
                            Indexing::Access => member,
                            Indexing::Address => self.guarded_for_address(&member, span),
                        };
                        let boxed = match field {
                            CType::Struct(_) => self.unbox_struct(&member, span),
                            _ => self.unbox(&member, span),
                        };
                        if matches!((purpose, field), (Indexing::Address, CType::Struct(_))) {
                            let variable = match &e.node {
                                Expression::Member(m)
                                    if m.node.operator.node == MemberOperator::Direct =>
                                {
                                    match &m.node.expression.node {
                                        Expression::Identifier(id) => Some(id.node.name.as_str()),
                                        _ => None,
                                    }
                                }
                                _ => None,
                            };
                            self.note_owner((object, ty, variable), name, &boxed, span);
                        }
                        Ok((LValue::Memory(boxed), field))
                    }
                    false => Ok((LValue::Memory(member), field)),
                }
            }
            (_, None) => Err(CError::invalid(
                format!(
                    "`{}` has no member `{name}`",
                    self.unit.types.borrow().describe(ty)
                ),
                at,
            )),
            (LValue::Register(_) | LValue::Byte(_), Some(_)) => Err(CError::invalid(
                "internal error: a struct variable outside memory",
                at,
            )),
        }
    }

    /// `*e`: the object the pointer `e` points to, guarded by its `null-deref` check (and its
    /// `uninit` check of the cell where the file takes addresses).
    fn deref(&mut self, e: &Node<Expression>, at: usize) -> Result<(LValue, CType), CError> {
        // `*a` and `a->f` of an array are its first element (also where an inlined call's
        // parameter names the caller's array, which has no pointer value).
        if let Some(first) = self.first_element(e) {
            return Ok(first);
        }
        let (pointer, ty) = self.typed(e)?;
        if let CType::Element(p) = ty {
            let pointee = self.unit.types.borrow().pointee(p);
            let span = self.span(e.span);
            return Ok(self.element_lvalue((pointer, ty), pointee, None, span));
        }
        let pointee = match ty {
            CType::Pointer(p) => self.unit.types.borrow().pointee(p),
            _ => CType::Void,
        };
        if !(pointee.is_scalar() || matches!(pointee, CType::Struct(_))) {
            return Err(CError::unsupported(
                format!(
                    "the dereference of a value of type `{}`",
                    self.unit.types.borrow().describe(ty)
                ),
                at,
            ));
        }
        Ok((LValue::Memory(self.object_memory(pointer)), pointee))
    }

    /// The object `pointer` (a pointer to a whole object) points to, guarded by its checks.
    pub(super) fn object_memory(&self, pointer: Operand) -> Memory {
        Memory {
            place: Place {
                base: PlaceBase::Deref(pointer),
                projections: Vec::new(),
            },
            prefix: String::new(),
            guards: self.pointee_guards(pointer),
            heap: Some(HeapOwner::Object(pointer)),
            literal: false,
        }
    }

    /// `value` of type `from` converted to `to` where C converts implicitly (assignment,
    /// initialization, argument, `return`) or by a cast: integers as [`FnCx::convert`] does,
    /// a pointer to `_Bool` by comparing it with null, the constant 0 to a null pointer, other
    /// integers to pointers as `lower/integer_pointers.rs` does (and such a `void *` to any
    /// pointer type), and a pointer or struct to its own type. Other conversions (between
    /// pointer types, from pointers to integers) are refused.
    pub fn coerce(
        &mut self,
        value: Operand,
        from: CType,
        to: CType,
        span: Span,
        at: usize,
    ) -> Result<Operand, CError> {
        if from.is_number() && to.is_number() {
            return Ok(self.convert_number(value, from, to, span));
        }
        let null_constant = matches!(value, Operand::Null)
            || (from.is_number() && matches!(value, Operand::Const(0) | Operand::Const64(0)));
        match (from, to) {
            _ if from == to => Ok(value),
            (_, CType::Pointer(_)) if null_constant => Ok(Operand::Null),
            (_, CType::Function(_)) if null_constant => Ok(Operand::Const(0)),
            (CType::Function(_), CType::Bool) => {
                Ok(self.temp(Rvalue::Binary(BinOp::Ne, value, Operand::Const(0)), span))
            }
            (_, CType::Element(_)) if null_constant => {
                Ok(self.element_value(Operand::Null, Operand::Const(0), span))
            }
            (CType::Pointer(_), CType::Bool) => {
                Ok(self.temp(Rvalue::Binary(BinOp::Ne, value, Operand::Null), span))
            }
            (CType::Element(_), CType::Bool) => Ok(self.element_truth(value, span)),
            // Into a variable that holds a view: the value is no view of the same objects.
            _ if self.is_view(to) => {
                let types = self.unit.types.borrow();
                Err(CError::unsupported(
                    format!(
                        "a value of type `{}` where a view of {} is kept (a variable that holds a \
                         view, a pointer made by a cast from a pointer to other integers, holds \
                         only views of the same objects)",
                        types.describe(from),
                        self.view_objects(from, to),
                    ),
                    at,
                ))
            }
            _ if self.is_view(from) => {
                let types = self.unit.types.borrow();
                Err(CError::unsupported(
                    format!(
                        "a view (a pointer to integers made by a cast from a pointer to {}) \
                         converted to `{}`: views are kept only in expressions, in local \
                         variables declared with one as initializer or assigned one before any \
                         other use, and in the parameters of inlined calls, and convert back \
                         only by a cast to their objects' type",
                        self.view_objects(from, to),
                        types.describe(to)
                    ),
                    at,
                ))
            }
            (_, CType::Pointer(_)) if from.is_number() => {
                Ok(self.integer_pointer(value, from, span))
            }
            (CType::Pointer(_), CType::Pointer(_)) if self.is_integer_pointer(value) => Ok(value),
            // `void *` as a generic pointer (`lower/generic_pointers.rs`).
            (CType::Pointer(_), CType::Pointer(void)) if self.pointee(void) == CType::Void => {
                Ok(value)
            }
            (CType::Pointer(void), CType::Pointer(target)) if self.pointee(void) == CType::Void => {
                let target = self.pointee(target);
                Ok(self.generic_to_typed(value, target, span))
            }
            (_, CType::Element(_)) if from.is_number() || self.is_integer_pointer(value) => {
                Err(CError::unsupported(
                    "an integer converted to a pointer where pointers into arrays are kept (the \
                     variable takes part in pointer arithmetic or indexing): integers convert \
                     only to pointers that are not moved",
                    at,
                ))
            }
            _ if matches!(value, Operand::Local(l) if self.byte_allocations.contains(&l)) => {
                let types = self.unit.types.borrow();
                Err(CError::unsupported(
                    format!(
                        "an allocation of a number of bytes, made `char`s, converted to `{}`: \
                         an allocation makes the objects of the pointer type its result is \
                         converted to at once (`{0} p = malloc(n);`, `({0})malloc(n)`), or of \
                         the type its size names (`n * sizeof(T)`)",
                        types.describe(to)
                    ),
                    at,
                ))
            }
            // A pointer to arrays and a pointer to their elements (`int (*)[3]` and `int *`):
            // both index one row-major array by its elements (`lower/array.rs`).
            (CType::Element(p), CType::Element(q)) if self.same_scalars(p, q) => Ok(value),
            _ if let Some(reason) = element_conversion_refusal(from, to) => {
                let types = self.unit.types.borrow();
                let (from, to) = (types.describe(from), types.describe(to));
                Err(CError::unsupported(
                    format!("{reason}: `{from}` to `{to}`"),
                    at,
                ))
            }
            _ => {
                let types = self.unit.types.borrow();
                Err(CError::unsupported(
                    format!(
                        "the conversion of `{}` to `{}` (pointers convert only to their own \
                         type, to and from `void *`, and from the null constant)",
                        types.describe(from),
                        types.describe(to)
                    ),
                    at,
                ))
            }
        }
    }

    /// The truth of `value` of type `ty` as a number (a pointer is true when it is not null).
    pub(super) fn truth(
        &mut self,
        value: Operand,
        ty: CType,
        span: Span,
        at: usize,
    ) -> Result<Operand, CError> {
        match ty {
            CType::Pointer(_) => {
                Ok(self.temp(Rvalue::Binary(BinOp::Ne, value, Operand::Null), span))
            }
            CType::Element(_) => Ok(self.element_truth(value, span)),
            CType::Function(_) => {
                Ok(self.temp(Rvalue::Binary(BinOp::Ne, value, Operand::Const(0)), span))
            }
            CType::Struct(_) => Err(CError::invalid("a struct used as a condition", at)),
            _ => Ok(value),
        }
    }

    /// `a == b` or `a != b` where one side is a pointer: both must be pointers of the same type
    /// or the null constant; pointers into arrays are also ordered (`lower/element_pointer.rs`).
    fn compare_pointers(
        &mut self,
        op: &BinaryOperator,
        (a, a_ty): (Operand, CType),
        (b, b_ty): (Operand, CType),
        span: Span,
        at: usize,
    ) -> Result<(Operand, CType), CError> {
        if let Some(element) = [a_ty, b_ty]
            .into_iter()
            .find(|t| matches!(t, CType::Element(_)))
        {
            let op = match arithmetic(op, CType::Int).filter(|_| is_comparison(op)) {
                Some(op) => op,
                None => return Err(CError::unsupported("this operator on pointers", at)),
            };
            let neither_null = !is_null_constant(a) && !is_null_constant(b);
            let a = self.coerce(a, a_ty, element, span, at)?;
            let b = self.coerce(b, b_ty, element, span, at)?;
            if neither_null {
                self.not_dangling(a, element, span);
                self.not_dangling(b, element, span);
            }
            return Ok((self.element_comparison(op, a, b, span), CType::Int));
        }
        let op = match op {
            BinaryOperator::Equals => BinOp::Eq,
            BinaryOperator::NotEquals => BinOp::Ne,
            _ => {
                return Err(CError::unsupported(
                    "this operator on pointers to whole objects or structs (arithmetic and \
                     ordering apply to pointers into arrays)",
                    at,
                ))
            }
        };
        let (a_generic, b_generic) = (self.is_generic(a_ty), self.is_generic(b_ty));
        let objects = a_generic || b_generic;
        let neither_null = !is_null_constant(a) && !is_null_constant(b);
        if objects && !self.unit.boxed_members.is_empty() && neither_null {
            // A struct and its first member share an address in C; their objects here do not.
            return Err(CError::unsupported(
                "a comparison of `void *` pointers in a file that takes addresses of members (a \
                 struct and its first member have one address in C, but are objects of their \
                 own here)",
                at,
            ));
        }
        let (a, b) = match (a_ty, b_ty) {
            (CType::Function(_), _) => (a, self.coerce(b, b_ty, a_ty, span, at)?),
            (_, CType::Function(_)) => (self.coerce(a, a_ty, b_ty, span, at)?, b),
            // Compared as `void *`: the other side converts to it unchecked.
            _ if b_generic && !a_generic => (self.coerce(a, a_ty, b_ty, span, at)?, b),
            (CType::Pointer(_), _) => (a, self.coerce(b, b_ty, a_ty, span, at)?),
            _ => (self.coerce(a, a_ty, b_ty, span, at)?, b),
        };
        let addresses = !matches!(a_ty, CType::Function(_)) && !matches!(b_ty, CType::Function(_));
        if self.unit.integer_pointers && addresses && neither_null {
            return Err(CError::unsupported(
                "a comparison of two pointers in a file that converts integers to pointers \
                 (their addresses are not modelled: only comparisons with null are)",
                at,
            ));
        }
        if matches!(a_ty, CType::Struct(_)) || matches!(b_ty, CType::Struct(_)) {
            return Err(CError::unsupported("comparisons of structs", at));
        }
        if addresses && !is_null_constant(a) && !is_null_constant(b) {
            let common = match a_ty {
                _ if b_generic && !a_generic => b_ty,
                CType::Pointer(_) => a_ty,
                _ => b_ty,
            };
            self.not_dangling(a, common, span);
            self.not_dangling(b, common, span);
        }
        Ok((self.temp(Rvalue::Binary(op, a, b), span), CType::Int))
    }

    /// The type of the compound literal `literal` (at `span`) and the leaves its initializer
    /// list gives an object of it (`Types::leaves` order): a struct or a scalar; arrays are
    /// refused (`type_name` refuses their type).
    fn compound_literal(
        &mut self,
        literal: &lang_c::ast::CompoundLiteral,
        span: lang_c::span::Span,
        at: usize,
    ) -> Result<(CType, Vec<Operand>), CError> {
        let ty = self.type_name_of(&literal.type_name.node, at)?;
        if !(ty.is_scalar() || matches!(ty, CType::Struct(_))) {
            return Err(CError::unsupported(
                "compound literals of this type (structs and scalars are supported)",
                at,
            ));
        }
        let list = lang_c::ast::Initializer::List(literal.initializer_list.clone());
        let mut leaves = Vec::new();
        self.initial_leaves(ty, &Node::new(list, span), &mut leaves)?;
        Ok((ty, leaves))
    }

    /// Whether the pointees `p` and `q`, one of them arrays, are made of the same scalars
    /// (`int[3]` and `int`, `int[2][3]` and `int[3]`).
    fn same_scalars(&self, p: PointeeId, q: PointeeId) -> bool {
        let types = self.unit.types.borrow();
        let innermost = |pointee: PointeeId| match types.pointee(pointee) {
            CType::Array(id) => (types.array(id).0, true),
            other => (other, false),
        };
        let ((a, a_array), (b, b_array)) = (innermost(p), innermost(q));
        a == b && a.is_scalar() && (a_array || b_array)
    }

    /// The variable `name`, which must not be an array (arrays are not values here).
    pub(super) fn scalar(&self, name: &str, at: usize) -> Result<(LocalId, CType), CError> {
        let (local, ty) = self.lookup(name, at)?;
        if self.arrays.contains_key(&local) {
            return Err(CError::unsupported(
                format!(
                    "the array `{name}` used as a value (assigned whole, used as a pointer or \
                     passed to a function without a definition; its elements, and passing it \
                     to a defined function, are supported so far)"
                ),
                at,
            ));
        }
        Ok((local, ty))
    }

    /// The current value of what `lvalue` names (its guards run here).
    fn read_lvalue(&mut self, lvalue: &LValue, ty: CType, span: Span) -> Operand {
        match lvalue {
            LValue::Register(local) => self.read_local(*local, span),
            LValue::Memory(memory) => self.read_memory(memory, ty, false, span),
            LValue::Byte(byte) => self.read_byte(byte, span),
            LValue::Union(part) => self.read_union_part(part, span),
        }
    }

    /// Writes `value`; `checked` when [`FnCx::read_lvalue`] just read the same lvalue, with
    /// nothing that may change memory in between. Returns the value the lvalue then holds, the
    /// value of C's assignment expression: `value`, but for a bit-field its low bits
    /// (`y = (f.a = 9)` is 1 for `unsigned a : 3`).
    pub(super) fn write_lvalue(
        &mut self,
        lvalue: &LValue,
        ty: CType,
        value: Operand,
        checked: bool,
        span: Span,
    ) -> Operand {
        match lvalue {
            LValue::Register(local) => self.assign(*local, value, span),
            LValue::Memory(memory) => return self.write_memory(memory, ty, value, checked, span),
            LValue::Byte(byte) => self.write_byte(byte, value, checked, span),
            LValue::Union(part) => self.write_union_part(part, value, span),
        }
        value
    }

    /// An lvalue of an integer type (the operand of a shift).
    fn arithmetic_lvalue(&mut self, e: &Node<Expression>) -> Result<(LValue, CType), CError> {
        let (lvalue, ty) = self.lvalue(e)?;
        self.arithmetic_operand(ty, e)?;
        Ok((lvalue, ty))
    }

    /// An lvalue of an integer type or an element pointer (`p++`, `p += k`).
    fn pointer_or_arithmetic_lvalue(
        &mut self,
        e: &Node<Expression>,
    ) -> Result<(LValue, CType), CError> {
        let (lvalue, ty) = self.lvalue(e)?;
        if !matches!(ty, CType::Element(_)) {
            self.arithmetic_operand(ty, e)?;
        }
        Ok((lvalue, ty))
    }

    /// Refuses arithmetic on `e` of type `ty` unless it is an integer.
    fn arithmetic_operand(&self, ty: CType, e: &Node<Expression>) -> Result<(), CError> {
        match ty.is_number() {
            true => Ok(()),
            false => Err(CError::unsupported(
                "arithmetic on pointers to whole objects (`&x`, `malloc`'s object, a member) or \
                 on structs (pointer arithmetic applies to pointers into arrays)",
                self.at(e.span),
            )),
        }
    }

    /// `value << amount` or `value >> amount` for a `value` of (promoted) type `ty`: the amount
    /// (promoted on its own) must be below `ty`'s width read as unsigned, which excludes the
    /// negative ones (C leaves other amounts undefined: a `shift-out-of-range` check); it is
    /// then converted to `ty`'s width, which keeps it. A right shift of an unsigned type fills
    /// with zeros, of a signed one with the sign (what gcc does). A left shift of a signed
    /// value that does not fit wraps, or fails the `overflow` check where it is asked for.
    fn shift(
        &mut self,
        left: bool,
        value: Operand,
        amount: Operand,
        ty: CType,
        span: Span,
    ) -> Operand {
        let bits = i64::from(ty.width().bits());
        let amount_width = amount.width(&self.b.locals).unwrap_or_default();
        let limit = match amount_width {
            Width::W32 => Operand::Const(bits as i32),
            Width::W64 => Operand::Const64(bits),
        };
        let holds = self.temp(Rvalue::Binary(BinOp::ULt, amount, limit), span);
        let kind = PropertyKind::ShiftOutOfRange;
        self.check(Check::Condition { holds, kind }, span);
        let amount = match (amount_width, ty.width()) {
            (Width::W32, Width::W64) => self.convert_number(amount, CType::UInt, ty, span),
            (Width::W64, Width::W32) => self.convert_number(amount, CType::ULong, ty, span),
            _ => amount,
        };
        let op = match (left, ty.is_unsigned()) {
            (true, _) => BinOp::Shl,
            (false, true) => BinOp::LShr,
            (false, false) => BinOp::AShr,
        };
        let result = self.temp(Rvalue::Binary(op, value, amount), span);
        if op == BinOp::Shl {
            self.check_overflow(BinOp::Shl, value, amount, result, ty, span);
        }
        result
    }

    /// `a op b` on operands of (common) type `ty`, with the divisor check of `/` and `%` and
    /// the `overflow` check where it is asked for.
    fn binary(&mut self, op: BinOp, a: Operand, b: Operand, ty: CType, span: Span) -> Operand {
        if op.divides() {
            self.check(Check::NonZero(b), span);
        }
        let result = self.temp(Rvalue::Binary(op, a, b), span);
        self.check_overflow(op, a, b, result, ty, span);
        result
    }

    /// With [`crate::Options::signed_overflow`], the `overflow` check of `result = a op b` on
    /// `int`s or `long long`s (`ty`; the narrower types are promoted to `int` before
    /// arithmetic, so only these overflow): C leaves a result outside the type undefined. `Neg`
    /// is `0 - b`. The check follows the wrapped result, which the IR defines; nothing is
    /// emitted for an operator that cannot overflow or for constant operands whose result
    /// fits.
    fn check_overflow(
        &mut self,
        op: BinOp,
        a: Operand,
        b: Operand,
        result: Operand,
        ty: CType,
        span: Span,
    ) {
        if matches!(ty, CType::Int | CType::Long) && self.unit.options.signed_overflow {
            self.check_signed_fit(op, a, b, result, PropertyKind::Overflow, span);
        }
    }

    /// The check (of kind `kind`) that `result = a op b`, wrapped to the operands' width, is
    /// the exact result on signed operands; nothing where constant operands fit, or for an
    /// operator that cannot overflow.
    pub(super) fn check_signed_fit(
        &mut self,
        op: BinOp,
        a: Operand,
        b: Operand,
        result: Operand,
        kind: PropertyKind,
        span: Span,
    ) {
        let constants = match (a, b) {
            (Operand::Const(x), Operand::Const(y)) => Some((i64::from(x), i64::from(y), 32)),
            (Operand::Const64(x), Operand::Const64(y)) => Some((x, y, 64)),
            _ => None,
        };
        if let Some((x, y, bits)) = constants {
            // The exact result, in 128 bits, against the width's range.
            let (x, y) = (i128::from(x), i128::from(y));
            let exact = match op {
                BinOp::Add => Some(x + y),
                BinOp::Sub => Some(x - y),
                BinOp::Mul => Some(x * y),
                BinOp::Div | BinOp::Rem if y == -1 => Some(-x),
                BinOp::Shl => u32::try_from(y).ok().filter(|&y| y < bits).map(|y| x << y),
                _ => Some(0),
            };
            let range = -(1i128 << (bits - 1))..(1i128 << (bits - 1));
            if exact.is_some_and(|r| range.contains(&r)) {
                return;
            }
        }
        let width = a.width(&self.b.locals).unwrap_or_default();
        let (zero, min, minus_one) = match width {
            Width::W32 => (
                Operand::Const(0),
                Operand::Const(i32::MIN),
                Operand::Const(-1),
            ),
            Width::W64 => (
                Operand::Const64(0),
                Operand::Const64(i64::MIN),
                Operand::Const64(-1),
            ),
        };
        let mut op2 = |op: BinOp, x: Operand, y: Operand| self.temp(Rvalue::Binary(op, x, y), span);
        let holds = match op {
            // The sum overflows exactly when both operands have the sign the result lacks.
            BinOp::Add => {
                let (x, y) = (op2(BinOp::BitXor, a, result), op2(BinOp::BitXor, b, result));
                let both = op2(BinOp::BitAnd, x, y);
                op2(BinOp::Ge, both, zero)
            }
            // The difference overflows exactly when the operands' signs differ and the
            // result's sign is not the minuend's.
            BinOp::Sub => {
                let (x, y) = (op2(BinOp::BitXor, a, b), op2(BinOp::BitXor, a, result));
                let both = op2(BinOp::BitAnd, x, y);
                op2(BinOp::Ge, both, zero)
            }
            BinOp::Mul => op2(BinOp::MulFits, a, b),
            // `INT_MIN / -1` (and `INT_MIN % -1`, undefined with it in C11).
            BinOp::Div | BinOp::Rem => {
                let x = op2(BinOp::Ne, a, min);
                let y = op2(BinOp::Ne, b, minus_one);
                op2(BinOp::BitOr, x, y)
            }
            // `a << b` (with `b` below the width, checked first) fits when shifting back gives
            // `a`.
            BinOp::Shl => {
                let back = op2(BinOp::AShr, result, b);
                op2(BinOp::Eq, back, a)
            }
            _ => return,
        };
        self.check(Check::Condition { holds, kind }, span);
    }

    /// The value of `e`, which must be an integer (arithmetic on pointers is not supported).
    fn number(&mut self, e: &Node<Expression>) -> Result<(Operand, CType), CError> {
        let (value, ty) = self.typed(e)?;
        self.arithmetic_operand(ty, e)?;
        Ok((value, ty))
    }

    /// `e` as an array subscript or an element count, which C requires to be an integer.
    pub(super) fn subscript(&mut self, e: &Node<Expression>) -> Result<(Operand, CType), CError> {
        let (value, ty) = self.typed(e)?;
        match ty.is_number() {
            true => Ok((value, ty)),
            false => Err(CError::invalid(
                "an array subscript or element count that is not an integer",
                self.at(e.span),
            )),
        }
    }

    /// `&e`: the address of a variable (which then lives in memory), or `&*p`, which is `p`.
    fn address(
        &mut self,
        e: &Node<Expression>,
        span: Span,
        at: usize,
    ) -> Result<(Operand, CType), CError> {
        match &e.node {
            // `&(struct pt){1, 2}`: a fresh object holding the literal's value (its lifetime,
            // the enclosing block's, is not modelled, as for other locals).
            Expression::CompoundLiteral(literal) => {
                let (ty, leaves) = self.compound_literal(&literal.node, e.span, at)?;
                let object = self.object_of(ty, &leaves, span);
                let pointer = self.temp(Rvalue::Alloc(object), span);
                self.unit.stack_addresses.set(true);
                Ok((pointer, self.unit.types.borrow_mut().pointer_to(ty)))
            }
            // `&a` of an array: a pointer to arrays, into the array as a whole.
            Expression::Identifier(id) if self.array_variable(e).is_some() => {
                let (local, element) = self.array_variable(e).unwrap_or((LocalId(0), CType::Int));
                let dims = self.arrays[&local].clone();
                let array = self.unit.types.borrow_mut().array_of(element, dims);
                self.array_start((local, array), &id.node.name, span, at)
            }
            Expression::Identifier(id) => {
                let (local, ty) = self.scalar(&id.node.name, at)?;
                if self.singletons.contains(&local) {
                    return self.array_start((local, ty), &id.node.name, span, at);
                }
                let pointer = match self.by_reference.contains(&local) {
                    true => Operand::Local(local),
                    false => self.variable_address(&id.node.name, local, span),
                };
                Ok((pointer, self.unit.types.borrow_mut().pointer_to(ty)))
            }
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Indirection => {
                let (pointer, ty) = self.typed(&u.node.operand)?;
                match ty {
                    CType::Pointer(_) | CType::Element(_) => Ok((pointer, ty)),
                    _ => Err(CError::invalid("`*` of a value that is not a pointer", at)),
                }
            }
            Expression::Member(m)
                if (self.unit.types.borrow())
                    .bit_field_named(&m.node.identifier.node.name)
                    .is_some() =>
            {
                Err(CError::invalid(
                    format!(
                        "the address of the bit-field `{}` (C has no pointers to bit-fields)",
                        m.node.identifier.node.name
                    ),
                    at,
                ))
            }
            // `&s.a` of an array member: a pointer to arrays, into its box.
            Expression::Member(m) if matches!(self.static_type(e), Some(CType::Array(_))) => {
                self.member_start(e, m, true, span, at)
            }
            // A union's scalar: a view of its bytes (`lower/unions.rs`).
            Expression::Member(m) if self.in_union(e) => {
                match self.member_at(e, m, Indexing::Address)?.0 {
                    LValue::Byte(bytes) => Ok(bytes.address),
                    _ => Err(super::unions::unsupported_part("the address", at)),
                }
            }
            // A boxed member: its box (`lower/memory.rs`), which outlives a local struct.
            Expression::Member(m)
                if self
                    .unit
                    .boxed_members
                    .contains(&m.node.identifier.node.name) =>
            {
                // A struct variable's boxes end with it where it is a variable of its
                // function's outermost block (`FnCx::end_lifetimes`); other members' boxes
                // (an array element's, an inner block's variable's) are not ended.
                let ended = struct_variable(&m.node)
                    .and_then(|name| Some((name, self.lookup(name, at).ok()?.0)))
                    .is_some_and(|(name, local)| {
                        self.lives_until_exit(name, local) || {
                            self.unit.ends_variables.set(true);
                            self.note_revived(local);
                            self.is_outermost(name)
                        }
                    });
                // Through a pointer (not an inlined call's array parameter): a stack address
                // only where a local object of the file has the struct's type (else it is a
                // global's or a heap object's, whose end is modelled, `free` freeing the
                // boxes, or never comes), which the end of the lowering decides
                // (`Unit::member_address_pointees`).
                if !(ended && self.unit.lifetimes) {
                    match self.pointee_through_pointer(&m.node) {
                        Some(ty) => {
                            self.unit.member_address_pointees.borrow_mut().insert(ty);
                        }
                        None => self.unit.stack_addresses.set(true),
                    }
                }
                let name = &m.node.identifier.node.name;
                if let Some(ty @ CType::Struct(_)) = self.static_type(e) {
                    if self.unit.boxed_members.singletons.contains(name) {
                        return Err(CError::unsupported(
                            format!(
                                "the address of the struct member `{name}` as a pointer into \
                                 an array (moved, indexed, compared with one, or passed where \
                                 an array element is; the address of a scalar member is)"
                            ),
                            at,
                        ));
                    }
                    // Found by this lowering: the file is lowered again with the member in
                    // a box (`BoxedMembers::structs`), and this value is never used.
                    if !self.unit.boxed_members.structs.contains(name) {
                        self.unit.struct_boxes.borrow_mut().insert(name.clone());
                        return Ok((Operand::Null, self.unit.types.borrow_mut().pointer_to(ty)));
                    }
                }
                let (lvalue, ty) = self.member_at(e, m, Indexing::Address)?;
                let boxed = self.member_boxed(name, ty);
                match (lvalue, boxed) {
                    (LValue::Memory(Memory { place, .. }), true) => {
                        match (place.base, &place.projections[..]) {
                            (PlaceBase::Deref(pointer), []) => {
                                Ok((pointer, self.unit.types.borrow_mut().pointer_to(ty)))
                            }
                            // A box holding an array of one: a pointer into it.
                            (PlaceBase::Deref(pointer), [symex_ir::cfg::Projection::Index(_)]) => {
                                Ok((
                                    self.element_value(pointer, Operand::Const(0), span),
                                    self.unit.types.borrow_mut().element_pointer_to(ty),
                                ))
                            }
                            _ => Err(CError::invalid(
                                "internal error: a boxed member outside its box",
                                at,
                            )),
                        }
                    }
                    _ => Err(CError::unsupported(
                        "the address of a struct member whose struct has an array member or a \
                         member whose address is taken (a box inside a box)",
                        at,
                    )),
                }
            }
            // `&m[i]` of a row is a pointer to arrays.
            Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index => {
                let whole_row = self.row_of(e).is_some();
                self.subscript_address(e, whole_row, span, at)
            }
            _ => Err(CError::unsupported(
                "the address of an expression (pointers to scalar members, whole variables and \
                 heap objects only so far)",
                at,
            )),
        }
    }

    /// 1 or 0 in a temporary, by branching on `e`.
    fn truth_value(&mut self, e: &Node<Expression>, span: Span) -> Result<Operand, CError> {
        let result = self.b.new_temp(span, Width::W32);
        let (yes, no, join) = (self.b.new_block(), self.b.new_block(), self.b.new_block());
        self.branch(e, yes, no)?;
        for (block, value) in [(yes, 1), (no, 0)] {
            self.b.switch_to(block);
            self.assign(result, Operand::Const(value), span);
            self.b.goto(join, span);
        }
        self.b.switch_to(join);
        Ok(Operand::Local(result))
    }

    fn value_kind(&mut self, e: &Node<Expression>) -> Result<(Operand, CType), CError> {
        let span = self.span(e.span);
        let at = self.at(e.span);
        let unsupported = |what: &str| Err(CError::unsupported(what.to_string(), at));
        match &e.node {
            Expression::Identifier(id) if self.enum_constant(&id.node.name).is_some() => {
                let value = self.enum_constant(&id.node.name).unwrap_or_default();
                Ok((Operand::Const(value), CType::Int))
            }
            Expression::Identifier(id) if self.array_variable(e).is_some() => {
                let array = self.array_variable(e).unwrap_or((LocalId(0), CType::Int));
                let pointee = self.decayed_pointee(array.0, array.1);
                self.array_start((array.0, pointee), &id.node.name, span, at)
            }
            Expression::Identifier(id) if self.names_function_value(&id.node.name) => {
                self.function_designator(&id.node.name, at)
            }
            Expression::Member(m) if matches!(self.static_type(e), Some(CType::Array(_))) => {
                self.member_start(e, m, false, span, at)
            }
            // A row of an array (`m[i]`, `*p` of a pointer to arrays) is a pointer to its
            // first element.
            Expression::BinaryOperator(_) | Expression::UnaryOperator(_)
                if self.row_of(e).is_some() =>
            {
                self.subscript_address(e, false, span, at)
            }
            Expression::Member(m)
                if m.node.operator.node == MemberOperator::Direct
                    && is_value_expression(&m.node.expression) =>
            {
                let (lvalue, ty) = self.member_of_value(e, m)?;
                Ok((self.read_lvalue(&lvalue, ty, span), ty))
            }
            Expression::Identifier(_) | Expression::Member(_) => {
                let (lvalue, ty) = self.lvalue(e)?;
                Ok((self.read_lvalue(&lvalue, ty, span), ty))
            }
            Expression::Constant(c) => integer_constant(&c.node, self.unit.options.data_model, at)
                .map(|(n, ty)| (ty.constant(n), ty)),
            Expression::UnaryOperator(u) => {
                let operand = &u.node.operand;
                match u.node.operator.node {
                    UnaryOperator::Plus => {
                        let (a, ty) = self.number(operand)?;
                        Ok((a, ty.promoted()))
                    }
                    UnaryOperator::Minus => {
                        let (a, ty) = self.number(operand)?;
                        let ty = ty.promoted();
                        let result = self.temp(Rvalue::Unary(UnOp::Neg, a), span);
                        self.check_overflow(BinOp::Sub, ty.constant(0), a, result, ty, span);
                        Ok((result, ty))
                    }
                    UnaryOperator::Complement => {
                        let (a, ty) = self.number(operand)?;
                        let ty = ty.promoted();
                        Ok((self.temp(Rvalue::Unary(UnOp::BitNot, a), span), ty))
                    }
                    UnaryOperator::Negate => {
                        let (a, ty) = self.typed(operand)?;
                        let a = self.truth(a, ty, span, at)?;
                        Ok((self.temp(Rvalue::Unary(UnOp::Not, a), span), CType::Int))
                    }
                    UnaryOperator::PreIncrement
                    | UnaryOperator::PreDecrement
                    | UnaryOperator::PostIncrement
                    | UnaryOperator::PostDecrement => {
                        let op = &u.node.operator.node;
                        let (lvalue, ty) = self.pointer_or_arithmetic_lvalue(operand)?;
                        let old = self.read_lvalue(&lvalue, ty, span);
                        let step = match op {
                            UnaryOperator::PreIncrement | UnaryOperator::PostIncrement => {
                                BinOp::Add
                            }
                            _ => BinOp::Sub,
                        };
                        let new = match ty {
                            CType::Element(_) => {
                                let one = (Operand::Const(1), CType::Int);
                                self.pointer_offset((old, ty), one, step == BinOp::Sub, span)
                            }
                            // A narrower type is promoted to `int`, where adding 1 cannot
                            // overflow.
                            _ => {
                                let new = self.binary(step, old, ty.constant(1), ty, span);
                                self.convert(new, ty, span)
                            }
                        };
                        let new = self.write_lvalue(&lvalue, ty, new, true, span);
                        let post = matches!(
                            op,
                            UnaryOperator::PostIncrement | UnaryOperator::PostDecrement
                        );
                        Ok((if post { old } else { new }, ty))
                    }
                    // `&f` and `*f` of a function are `f`, and `*p` of a function pointer is
                    // `p` again (C calls through either).
                    UnaryOperator::Address if self.is_function_designator(operand) => {
                        self.typed(operand)
                    }
                    UnaryOperator::Indirection if self.is_function_value(operand) => {
                        self.typed(operand)
                    }
                    UnaryOperator::Address => self.address(operand, span, at),
                    UnaryOperator::Indirection => {
                        let (lvalue, ty) = self.lvalue(e)?;
                        Ok((self.read_lvalue(&lvalue, ty, span), ty))
                    }
                }
            }
            Expression::BinaryOperator(b) => {
                let op = &b.node.operator.node;
                match op {
                    BinaryOperator::LogicalAnd | BinaryOperator::LogicalOr => {
                        Ok((self.truth_value(e, span)?, CType::Int))
                    }
                    BinaryOperator::Index => {
                        let (lvalue, ty) = self.lvalue(e)?;
                        Ok((self.read_lvalue(&lvalue, ty, span), ty))
                    }
                    BinaryOperator::Assign => {
                        if let Some(assigned) = self.assign_view(&b.node.lhs, &b.node.rhs, span)? {
                            return Ok(assigned);
                        }
                        let (lvalue, ty) = self.lvalue(&b.node.lhs)?;
                        let value = self.converted(&b.node.rhs, ty, span, at)?;
                        let value = self.write_lvalue(&lvalue, ty, value, false, span);
                        Ok((value, ty))
                    }
                    op if shift(op).is_some() => {
                        let left = shift(op) == Some(true);
                        let compound = matches!(
                            op,
                            BinaryOperator::AssignShiftLeft | BinaryOperator::AssignShiftRight
                        );
                        if compound {
                            // The operand first: C leaves the order open, and so nothing that
                            // may change memory comes between the element's read and write.
                            let (lvalue, ty) = self.arithmetic_lvalue(&b.node.lhs)?;
                            let (amount, _) = self.number(&b.node.rhs)?;
                            let old = self.read_lvalue(&lvalue, ty, span);
                            let new = self.shift(left, old, amount, ty.promoted(), span);
                            let new = self.convert(new, ty, span);
                            let new = self.write_lvalue(&lvalue, ty, new, true, span);
                            Ok((new, ty))
                        } else {
                            // Each operand is promoted on its own; the result has the left's type.
                            let (value, ty) = self.number(&b.node.lhs)?;
                            let (amount, _) = self.number(&b.node.rhs)?;
                            let ty = ty.promoted();
                            Ok((self.shift(left, value, amount, ty, span), ty))
                        }
                    }
                    op if is_compound_assignment(op) => {
                        // The operand first, as for the compound shifts above.
                        let (lvalue, ty) = self.pointer_or_arithmetic_lvalue(&b.node.lhs)?;
                        let (operand, operand_ty) = self.number(&b.node.rhs)?;
                        let old = self.read_lvalue(&lvalue, ty, span);
                        if let CType::Element(_) = ty {
                            let subtract = match op {
                                BinaryOperator::AssignPlus => false,
                                BinaryOperator::AssignMinus => true,
                                _ => return unsupported("this operator on a pointer"),
                            };
                            let offset = (operand, operand_ty);
                            let new = self.pointer_offset((old, ty), offset, subtract, span);
                            self.write_lvalue(&lvalue, ty, new, true, span);
                            return Ok((new, ty));
                        }
                        let common = ty.common(operand_ty);
                        let arith =
                            arithmetic(op, common).expect("compound assignments are arithmetic");
                        let old = self.convert_number(old, ty, common, span);
                        let operand = self.convert_number(operand, operand_ty, common, span);
                        let new = self.binary(arith, old, operand, common, span);
                        let new = self.convert_number(new, common, ty, span);
                        let new = self.write_lvalue(&lvalue, ty, new, true, span);
                        Ok((new, ty))
                    }
                    op => {
                        let (lhs, lhs_ty) = self.typed(&b.node.lhs)?;
                        let (rhs, rhs_ty) = self.typed(&b.node.rhs)?;
                        let additive = matches!(op, BinaryOperator::Plus | BinaryOperator::Minus);
                        let subtract = *op == BinaryOperator::Minus;
                        match (lhs_ty, rhs_ty) {
                            (CType::Element(_), CType::Element(_)) if subtract => {
                                return Ok(self.pointer_difference((lhs, rhs), lhs_ty, span));
                            }
                            (CType::Element(_), offset) if additive && offset.is_number() => {
                                let offset = (rhs, rhs_ty);
                                let moved =
                                    self.pointer_offset((lhs, lhs_ty), offset, subtract, span);
                                return Ok((moved, lhs_ty));
                            }
                            (offset, CType::Element(_))
                                if additive && !subtract && offset.is_number() =>
                            {
                                let offset = (lhs, lhs_ty);
                                let moved = self.pointer_offset((rhs, rhs_ty), offset, false, span);
                                return Ok((moved, rhs_ty));
                            }
                            _ => {}
                        }
                        if !lhs_ty.is_number() || !rhs_ty.is_number() {
                            return self.compare_pointers(
                                op,
                                (lhs, lhs_ty),
                                (rhs, rhs_ty),
                                span,
                                at,
                            );
                        }
                        let common = lhs_ty.common(rhs_ty);
                        match arithmetic(op, common) {
                            Some(arith) => {
                                let lhs = self.convert_number(lhs, lhs_ty, common, span);
                                let rhs = self.convert_number(rhs, rhs_ty, common, span);
                                let ty = if is_comparison(op) {
                                    CType::Int
                                } else {
                                    common
                                };
                                Ok((self.binary(arith, lhs, rhs, common, span), ty))
                            }
                            None => unsupported("this operator"),
                        }
                    }
                }
            }
            Expression::Conditional(c) => {
                let result = self.b.new_temp(span, Width::W32);
                let (yes, no, join) = (self.b.new_block(), self.b.new_block(), self.b.new_block());
                self.branch(&c.node.condition, yes, no)?;
                // Each side's value is assigned at the end of its side once both types are
                // known (a pointer on one side turns a 0 on the other into null).
                let mut sides = Vec::with_capacity(2);
                for (block, side) in [
                    (yes, &c.node.then_expression),
                    (no, &c.node.else_expression),
                ] {
                    self.b.switch_to(block);
                    let (value, ty) = self.typed(side)?;
                    sides.push((self.b.current(), value, ty));
                }
                let ty = match (sides[0].2, sides[1].2) {
                    (a, b) if a.is_number() && b.is_number() => a.common(b),
                    (CType::Element(_), _) => sides[0].2,
                    (_, CType::Element(_)) => sides[1].2,
                    (CType::Pointer(_) | CType::Function(_), _) => sides[0].2,
                    (_, other) => other,
                };
                for (end, value, from) in sides {
                    self.b.switch_to(end);
                    let value = self.coerce(value, from, ty, span, at)?;
                    self.assign(result, value, span);
                    self.b.goto(join, span);
                }
                self.b.switch_to(join);
                // Known only now that both sides are lowered.
                self.b.locals[result.index()].width = ty.width();
                Ok((Operand::Local(result), ty))
            }
            Expression::Comma(list) => {
                let mut last = (Operand::Const(0), CType::Int);
                for item in list.iter() {
                    last = self.typed(item)?;
                }
                Ok(last)
            }
            Expression::Call(call) => self.call(&call.node, span, at),
            Expression::Cast(cast) => {
                let ty = self.type_name_of(&cast.node.type_name.node, at)?;
                match ty {
                    CType::Void => {
                        self.typed(&cast.node.expression)?;
                        Ok((Operand::Const(0), CType::Int))
                    }
                    // A cast to its own C type keeps the representation (`(int *)a` of a
                    // pointer into an array, `(int **)malloc(n * sizeof(int *))`).
                    CType::Pointer(_) => {
                        if let Some(owner) = self.container_of(&cast.node.expression, ty, span)? {
                            return Ok(owner);
                        }
                        let (value, from) = self.typed_as_allocation(&cast.node.expression, ty)?;
                        let mut types = self.unit.types.borrow_mut();
                        if types.erased(from) == types.erased(ty) {
                            return Ok((value, from));
                        }
                        drop(types);
                        // Between a pointer to arrays and one to their elements (`(int *)m`):
                        // the same index into one row-major array.
                        if let (CType::Element(p), CType::Pointer(q)) = (from, ty) {
                            if self.same_scalars(p, q) {
                                let pointee = self.pointee(q);
                                let mut types = self.unit.types.borrow_mut();
                                return Ok((value, types.element_pointer_to(pointee)));
                            }
                        }
                        if let Some(view) = self.view_conversion(value, from, ty, span, at)? {
                            return Ok(view);
                        }
                        Ok((self.coerce(value, from, ty, span, at)?, ty))
                    }
                    // `(size_t) &((T *)0)->m`, `offsetof(T, m)` in old code.
                    _ if constant::null_member_address(&cast.node.expression).is_some() => {
                        let (value, ty) = constant::evaluate(self, e)?;
                        Ok((ty.constant(value), ty))
                    }
                    _ => Ok((self.converted(&cast.node.expression, ty, span, at)?, ty)),
                }
            }
            Expression::SizeOfTy(t) => {
                let ty = self.type_name_of(&t.node.0.node, at)?;
                let size = self.unit.types.borrow().size_of_type(ty, at)?;
                Ok(self.size_value(size))
            }
            // The operand is not evaluated.
            Expression::SizeOfVal(v) => match self.size_of_expression(&v.node.0) {
                Some(size) => Ok(self.size_value(size)),
                // `sizeof(size_t)` without `<stddef.h>`: the name, not `sizeof`, is the problem.
                None => match &v.node.0.node {
                    Expression::Identifier(id)
                        if !self.is_visible(&id.node.name)
                            && !self.unit.functions.contains_key(&id.node.name) =>
                    {
                        match self.lookup(&id.node.name, at) {
                            Err(undeclared) => Err(undeclared),
                            Ok(_) => unsupported("`sizeof` of this expression"),
                        }
                    }
                    _ => unsupported("`sizeof` of this expression"),
                },
            },
            Expression::Statement(statement) => self.statement_expression(statement),
            Expression::StringLiteral(literal) => self.string_value(&literal.node, span, at),
            Expression::AlignOf(_) | Expression::OffsetOf(_) => {
                let (value, ty) = constant::evaluate(self, e)?;
                Ok((ty.constant(value), ty))
            }
            Expression::VaArg(_) => unsupported("`va_arg`"),
            Expression::GenericSelection(_) => unsupported("`_Generic`"),
            Expression::CompoundLiteral(literal) => {
                let (ty, leaves) = self.compound_literal(&literal.node, e.span, at)?;
                match ty.is_scalar() {
                    true => Ok((leaves[0], ty)),
                    false => Ok((self.object_of(ty, &leaves, span), ty)),
                }
            }
        }
    }

    /// Whether `name` is an array parameter of the inlined call being lowered (it names the
    /// caller's array, but C sees a pointer).
    fn is_array_parameter(&self, name: &str) -> bool {
        (self.inlined.last()).is_some_and(|i| i.array_params.iter().any(|p| p == name))
    }

    /// `sizeof` of an array variable, in bytes.
    pub(super) fn array_size(&self, e: &Node<Expression>) -> Option<i32> {
        let Expression::Identifier(id) = &e.node else {
            return None;
        };
        // An array parameter is a pointer in C: its `sizeof` is not the array's.
        if self.is_array_parameter(&id.node.name) {
            return None;
        }
        let (local, ty) = self.lookup(&id.node.name, self.at(e.span)).ok()?;
        let dims = self.arrays.get(&local)?;
        let elements: i64 = dims.iter().map(|&d| i64::from(d)).product();
        let size = self.unit.types.borrow().size(ty)?;
        i32::try_from(elements * i64::from(size)).ok()
    }

    /// The type of `e` without evaluating it, for the expressions whose type is plain to see:
    /// variables, members, integer constants, and the operators whose result is promoted.
    pub(super) fn static_type(&self, e: &Node<Expression>) -> Option<CType> {
        let at = self.at(e.span);
        match &e.node {
            Expression::Identifier(id) if self.enum_constant(&id.node.name).is_some() => {
                Some(CType::Int)
            }
            Expression::Identifier(id) => self.scalar(&id.node.name, at).ok().map(|(_, ty)| ty),
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Indirection => {
                let (CType::Pointer(p) | CType::Element(p)) =
                    self.decayed_static_type(&u.node.operand)?
                else {
                    return None;
                };
                let mut types = self.unit.types.borrow_mut();
                let pointee = types.pointee(p);
                // `*m` of `int m[2][3]` (or of a pointer to arrays) is its first row, which
                // decays in turn.
                (types.decayed(pointee)).or_else(|| Some(types.designated(pointee)))
            }
            Expression::Constant(c) => integer_constant(&c.node, self.unit.options.data_model, at)
                .ok()
                .map(|(_, ty)| ty),
            // A cast to a pointer type may keep the operand's representation: not typed here.
            Expression::CompoundLiteral(literal) => {
                self.type_name_of(&literal.node.type_name.node, at).ok()
            }
            Expression::Cast(cast) => self
                .type_name_of(&cast.node.type_name.node, at)
                .ok()
                .filter(|ty| ty.is_number()),
            Expression::SizeOfTy(_) | Expression::SizeOfVal(_) => Some(self.size_t()),
            Expression::Member(m) => {
                let indirect = m.node.operator.node == MemberOperator::Indirect;
                let object = match self.array_variable(&m.node.expression) {
                    // `a->f` of an array `a` is `a[0].f`.
                    Some((_, element)) if indirect => element,
                    _ => match (indirect, self.static_type(&m.node.expression)?) {
                        (false, object) => object,
                        (true, CType::Pointer(p) | CType::Element(p)) => {
                            self.unit.types.borrow().pointee(p)
                        }
                        (true, _) => return None,
                    },
                };
                let CType::Struct(id) = object else {
                    return None;
                };
                let name = &m.node.identifier.node.name;
                self.unit.types.borrow().member_type(id, name)
            }
            Expression::UnaryOperator(u) => match u.node.operator.node {
                UnaryOperator::Negate => Some(CType::Int),
                UnaryOperator::Minus | UnaryOperator::Plus | UnaryOperator::Complement => self
                    .static_type(&u.node.operand)
                    .filter(|ty| ty.is_number())
                    .map(CType::promoted),
                // The operand's own type, not promoted.
                UnaryOperator::PostIncrement
                | UnaryOperator::PreIncrement
                | UnaryOperator::PostDecrement
                | UnaryOperator::PreDecrement => self.static_type(&u.node.operand),
                _ => None,
            },
            Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index => {
                self.indexed_static_type(e)
            }
            Expression::BinaryOperator(b) => {
                let op = &b.node.operator.node;
                let assigns = matches!(
                    op,
                    BinaryOperator::Assign
                        | BinaryOperator::AssignShiftLeft
                        | BinaryOperator::AssignShiftRight
                ) || is_compound_assignment(op);
                if assigns {
                    // An assignment has its left operand's type.
                    return self.static_type(&b.node.lhs);
                }
                // A comparison is an `int` whatever its operands (`sizeof(f(x) == 1)` in
                // `<assert.h>`'s `assert`).
                if is_comparison(op)
                    || matches!(op, BinaryOperator::LogicalAnd | BinaryOperator::LogicalOr)
                {
                    return Some(CType::Int);
                }
                let (lhs, rhs) = (
                    self.decayed_static_type(&b.node.lhs)?,
                    self.decayed_static_type(&b.node.rhs)?,
                );
                match (op, lhs, rhs) {
                    // The difference of two pointers into an array: C's `ptrdiff_t`.
                    (BinaryOperator::Minus, CType::Element(_), CType::Element(_)) => {
                        return Some(self.ptrdiff_t());
                    }
                    // Pointer arithmetic on a pointer into an array.
                    (BinaryOperator::Plus | BinaryOperator::Minus, CType::Element(_), offset)
                        if offset.is_number() =>
                    {
                        return Some(lhs);
                    }
                    (BinaryOperator::Plus, offset, CType::Element(_)) if offset.is_number() => {
                        return Some(rhs);
                    }
                    _ => {}
                }
                match op {
                    // Each operand of a shift is promoted on its own; the left's type wins.
                    BinaryOperator::ShiftLeft | BinaryOperator::ShiftRight
                        if lhs.is_number() && rhs.is_number() =>
                    {
                        Some(lhs.promoted())
                    }
                    // Pointer arithmetic on pointers to whole objects has no type here (it is
                    // refused): `sizeof(p + 1)` is refused, not given an `int`'s size.
                    op if arithmetic(op, CType::Int).is_some()
                        && !is_compound_assignment(op)
                        && lhs.is_number()
                        && rhs.is_number() =>
                    {
                        Some(lhs.common(rhs))
                    }
                    _ => None,
                }
            }
            // A call of a function of the file (not of a variable of the same name).
            Expression::Call(call) => match &call.node.callee.node {
                Expression::Identifier(id) if self.scalar(&id.node.name, at).is_err() => {
                    self.unit.functions.get(&id.node.name).map(|s| s.result)
                }
                _ => None,
            },
            Expression::Conditional(c) => {
                self.static_type(&c.node.condition)?;
                let then = self.static_type(&c.node.then_expression)?;
                let other = self.static_type(&c.node.else_expression)?;
                match (then, other) {
                    (a, b) if a.is_number() && b.is_number() => Some(a.common(b)),
                    // Two structs or pointers of one type; an array would decay to a pointer.
                    (a, b) if a == b && !matches!(a, CType::Array(_)) => Some(a),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// The struct type (erased) that `p` points to in `p->m`, where `p` is a pointer rather
    /// than an array (an inlined call's array parameter names the caller's array).
    fn pointee_through_pointer(&self, m: &lang_c::ast::MemberExpression) -> Option<CType> {
        if m.operator.node != MemberOperator::Indirect
            || self.array_variable(&m.expression).is_some()
        {
            return None;
        }
        let (CType::Pointer(p) | CType::Element(p)) = self.static_type(&m.expression)? else {
            return None;
        };
        let pointee = self.pointee(p);
        Some(self.unit.types.borrow_mut().erased(pointee))
    }

    /// Records the type of every `typeof(expression)` that `visit` finds, for the type
    /// layer to read (`Unit::typeof_types`): called before the types of a declaration or a
    /// type name are asked for, here where its variables are in view. Inner ones first, as
    /// an outer one's expression may name them (`typeof(((typeof(*m) *)0)->list)`, the
    /// Linux list's `container_of`). An expression whose type is not plain to see is left
    /// out: its `typeof` is refused where the type is asked for.
    fn note_typeofs<'ast>(&self, visit: impl FnOnce(&mut TypeOfs<'ast>)) {
        let mut found = TypeOfs::default();
        visit(&mut found);
        for e in found.expressions.into_iter().rev() {
            if let Some(ty) = self.typeof_type(e) {
                self.unit.typeof_types.borrow_mut().insert(e.span.start, ty);
            }
        }
    }

    /// [`FnCx::note_typeofs`] of a declaration's specifiers.
    pub(super) fn note_declaration_typeofs(
        &self,
        specifiers: &[Node<lang_c::ast::DeclarationSpecifier>],
    ) {
        self.note_typeofs(|found| {
            for specifier in specifiers {
                found.visit_declaration_specifier(&specifier.node, &specifier.span);
            }
        });
    }

    /// The type a type name denotes ([`type_name`]), its `typeof`s found here first.
    pub(super) fn type_name_of(
        &self,
        name: &lang_c::ast::TypeName,
        at: usize,
    ) -> Result<CType, CError> {
        self.note_typeofs(|found| {
            for specifier in &name.specifiers {
                found.visit_specifier_qualifier(&specifier.node, &specifier.span);
            }
        });
        type_name(self.unit, name, at)
    }

    /// The type `typeof(e)` names: [`FnCx::static_type`], and besides it the forms of
    /// pointers GNU C's macros use it on (a variable, `*p`, `((T *)0)->member`, a cast).
    pub(super) fn typeof_type(&self, e: &Node<Expression>) -> Option<CType> {
        let at = self.at(e.span);
        let pointee = |ty: CType| match ty {
            CType::Pointer(p) | CType::Element(p) => Some(self.unit.types.borrow().pointee(p)),
            _ => None,
        };
        let ty = match &e.node {
            Expression::Cast(cast) => self.type_name_of(&cast.node.type_name.node, at).ok()?,
            Expression::Identifier(id) if self.enum_constant(&id.node.name).is_none() => {
                self.scalar(&id.node.name, at).ok()?.1
            }
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Indirection => {
                pointee(self.typeof_type(&u.node.operand)?)?
            }
            // `&head`, `&x->link`: a pointer to the object's type (not to an array's).
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Address => {
                let object = self.typeof_type(&u.node.operand)?;
                if matches!(object, CType::Array(_) | CType::Function(_)) {
                    return None;
                }
                self.unit.types.borrow_mut().pointer_to(object)
            }
            Expression::Member(m) => {
                let object = self.typeof_type(&m.node.expression)?;
                let object = match m.node.operator.node {
                    MemberOperator::Indirect => pointee(object)?,
                    MemberOperator::Direct => object,
                };
                let CType::Struct(id) = object else {
                    return None;
                };
                let types = self.unit.types.borrow();
                types.member_type(id, &m.node.identifier.node.name)?
            }
            _ => self.static_type(e)?,
        };
        // A pointer into arrays is, as a C type, the pointer it is: what a declaration of
        // that type holds is decided for the declared variable (`lower/elements.rs`).
        Some(self.unit.types.borrow_mut().erased(ty))
    }

    /// The type of `e` as an operand of a binary operator, without evaluating it: an array
    /// variable or array member decays into a pointer to its first element (a pointer to
    /// arrays for several dimensions: `m + 1` of `int m[2][3]`).
    pub(super) fn decayed_static_type(&self, e: &Node<Expression>) -> Option<CType> {
        let array = match self.array_variable(e) {
            Some((local, element)) => {
                let dims = self.arrays.get(&local)?.clone();
                self.unit.types.borrow_mut().array_of(element, dims)
            }
            None => self.static_type(e)?,
        };
        let decayed = self.unit.types.borrow_mut().decayed(array);
        decayed.or(Some(array))
    }

    /// The type of `a[i]…[k]` without evaluating it: an element of an array variable or an
    /// array member indexed in every dimension, a pointer into a row indexed in all but the
    /// last (`m[i]`), or what a pointer points to (`p[i]`).
    fn indexed_static_type(&self, e: &Node<Expression>) -> Option<CType> {
        if let Some(row) = self.row_of(e) {
            return Some(row);
        }
        let (base, indices) = self.row_subscripts(e);
        if let Some((element, dims)) = self.static_dimensions(base) {
            return (dims.len() == indices).then_some(element);
        }
        match self.static_type(base)? {
            CType::Pointer(p) | CType::Element(p) if indices == 1 => {
                let types = self.unit.types.borrow();
                Some(types.designated(types.pointee(p)))
            }
            _ => None,
        }
    }

    /// GNU's `({ ...; e; })`: the statements, then the value of the last expression statement
    /// (0 when there is none: the `void` of `assert`'s expansion).
    fn statement_expression(
        &mut self,
        statement: &Node<Statement>,
    ) -> Result<(Operand, CType), CError> {
        let Statement::Compound(items) = &statement.node else {
            return Err(CError::unsupported(
                "this statement expression",
                self.at(statement.span),
            ));
        };
        self.push_scope();
        self.open_block(items, self.span(statement.span), self.at(statement.span));
        let mut value = (Operand::Const(0), CType::Int);
        for (i, item) in items.iter().enumerate() {
            let last = i + 1 == items.len();
            match &item.node {
                BlockItem::Statement(s) => match (&s.node, last) {
                    (Statement::Expression(Some(e)), true) => value = self.typed(e)?,
                    _ => self.statement(s)?,
                },
                BlockItem::Declaration(d) => self.local_declaration(d)?,
                BlockItem::StaticAssert(a) => {
                    return Err(CError::unsupported("`_Static_assert`", self.at(a.span)))
                }
            }
        }
        self.close_block(self.span(statement.span));
        self.pop_scope();
        Ok(value)
    }

    /// What a call of an error function without a definition does (`__assert_fail`, the
    /// target of a failing `assert`): fails the `unreach-call` property, or, as an ordinary
    /// call (`Options::ordinary_error_calls`), aborts the run.
    pub(super) fn fail_error_call(&mut self, span: Span) {
        if self.unit.options.ordinary_error_calls {
            self.end_run(span);
        } else {
            self.check(Check::Assert(Operand::Const(0)), span);
        }
    }

    /// Ends the run without an error, as `exit` and `abort` do: after the check that no object
    /// is left live where leaks are checked.
    fn end_run(&mut self, span: Span) {
        self.check_none_live_at_exit(span);
        self.b.emit(InstKind::Assume(Operand::Const(0)), span);
    }

    fn call(
        &mut self,
        call: &CallExpression,
        span: Span,
        at: usize,
    ) -> Result<(Operand, CType), CError> {
        match &call.callee.node {
            Expression::Identifier(callee) if !self.is_visible(&callee.node.name) => {
                self.named_call(&callee.node.name, call, span, at)
            }
            _ => self.call_through_pointer(call, span, at),
        }
    }

    /// A call of the function `name` (defined, or one symex knows) with `call`'s arguments.
    pub(super) fn named_call(
        &mut self,
        name: &str,
        call: &CallExpression,
        span: Span,
        at: usize,
    ) -> Result<(Operand, CType), CError> {
        let arity = |expected: usize| arity(name, call, expected, at);
        // Taken before the arguments are lowered: it is this call's.
        let allocator = self.allocator_call.take();
        let error_function = ERROR_FUNCTIONS.contains(&name);
        let defined = self.unit.bodies.contains_key(name);
        if error_function && !self.unit.options.ordinary_error_calls {
            // The arguments (`__assert_fail`'s message strings) are never needed.
            self.fail_error_call(span);
            return Ok((Operand::Const(0), CType::Int));
        }
        // As ordinary calls, the error functions without a definition abort (`__assert_fail`
        // and SV-COMP's old `__VERIFIER_error` do), except `reach_error`, which SV-COMP's
        // tasks define.
        if error_function && !defined && name == "reach_error" {
            return Err(CError::unsupported(
                "a call of `reach_error`, which has no definition, as an ordinary call",
                at,
            ));
        }
        if EXIT_FUNCTIONS.contains(&name) || (error_function && !defined) {
            if !error_function {
                for argument in &call.arguments {
                    self.value(argument)?;
                }
            }
            self.end_run(span);
            return Ok((Operand::Const(0), CType::Int));
        }
        match name {
            "malloc" | "alloca" | "__builtin_alloca" | "calloc" => {
                arity(if name == "calloc" { 2 } else { 1 })?;
                return self.allocation(name, call, span, at);
            }
            "free" => {
                arity(1)?;
                self.free(&call.arguments[0], span, at)?;
                return Ok((Operand::Const(0), CType::Void));
            }
            "realloc" => {
                arity(2)?;
                return self.allocation(name, call, span, at);
            }
            "strdup" | "strndup" if !defined => {
                arity(if name == "strdup" { 1 } else { 2 })?;
                return self.strdup(name, &call.arguments, span, at);
            }
            _ if super::library::MEMORY_FUNCTIONS.contains(&name)
                && !self.unit.bodies.contains_key(name) =>
            {
                let (_, arguments) = super::library::memory_function(name);
                arity(arguments)?;
                return self.memory_function(name, call, span, at);
            }
            _ => {}
        }
        if let Some(result) = self.convention_call(name, call, span, at)? {
            return Ok(result);
        }
        // Inlined: every call of `main` where functions share globals (or on request), a call
        // that may change or check the count of live objects where leaks are checked, and a
        // call passing an array variable, whose parameter then names the caller's array.
        // An array, or a pointer into one for a function that cannot be called on its own
        // (an array parameter takes it only by inlining).
        // A recursive function takes arrays as pointers (`lower/elements.rs`): its calls are
        // not inlined for them.
        let passes_array = !self.unit.elements.recursive.contains(name)
            && call.arguments.iter().any(|a| {
                let pointer = || {
                    self.points_into_array(a)
                        || matches!(self.decayed_static_type(a), Some(CType::Element(_)))
                };
                self.array_variable(a).is_some()
                    || (self.unit.unavailable.contains_key(name) && pointer())
            });
        // A view reaches a function only so (`lower/views.rs`).
        let passes_view = call.arguments.iter().any(|a| self.is_view_expression(a));
        if passes_view && self.inlined.iter().any(|i| i.name == name) {
            return Err(CError::unsupported(
                format!(
                    "a view passed to the recursive function `{name}` (views reach \
                     functions by inlining their calls)"
                ),
                at,
            ));
        }
        let inlined = self.unit.inline_calls || self.unit.counting_calls.contains(name);
        if (inlined && self.is_main || passes_array || passes_view || allocator.is_some())
            && name != "main"
        {
            if let Some(&definition) = self.unit.bodies.get(name) {
                let (_, params) = super::func::parameters(self.unit, definition)?;
                arity(params.len())?;
                let mut args = Vec::with_capacity(params.len());
                for (argument, param) in call.arguments.iter().zip(&params) {
                    let unread =
                        self.unread_argument(definition, (&param.name, param.ty), argument);
                    args.push(match unread {
                        Some(zero) => Argument::Value(zero),
                        None => self.argument(argument, (name, param), span)?,
                    });
                }
                // An allocator's allocations make its caller's type; no other call's do.
                let outer = std::mem::replace(&mut self.allocator_object, allocator);
                let result = self.inline_call(name, definition, &params, args, span, at);
                self.allocator_object = outer;
                return result;
            }
        }
        if let Some(reason) = self.unit.unavailable.get(name) {
            return Err(CError {
                message: format!("a call of `{name}`, which uses {}", reason.message),
                ..reason.clone()
            });
        }
        if name == "main" && self.unit.globals.values().any(|g| g.defined) {
            return Err(CError::unsupported(
                "a call of `main` in a program with global variables (they are `main`'s locals)",
                at,
            ));
        }
        let Some(signature) = self.unit.functions.get(name) else {
            if name == "asm" {
                // gcc's GNU dialect reads `asm(...)` as `__asm__`; the parser as a call.
                return Err(CError::unsupported("inline assembly", at));
            }
            return Err(CError::unsupported(
                format!(
                    "a call of `{name}`, which has no definition (the known functions without one \
                     are SV-COMP's `__VERIFIER_*`, `reach_error`, `abort` and `exit`)"
                ),
                at,
            ));
        };
        let (func, result) = (signature.id, signature.result);
        let params = signature.params.clone();
        arity(params.len())?;
        let names = match self.unit.bodies.get(name) {
            Some(&definition) => super::func::parameters(self.unit, definition)?.1,
            None => Vec::new(),
        };
        let mut args = Vec::with_capacity(params.len());
        for (k, (argument, &ty)) in call.arguments.iter().zip(&params).enumerate() {
            let at = self.at(argument.span);
            let unread = match (self.unit.bodies.get(name), names.get(k)) {
                (Some(&definition), Some(param)) => {
                    self.unread_argument(definition, (&param.name, ty), argument)
                }
                _ => None,
            };
            args.push(match unread {
                Some(zero) => zero,
                None => self.converted(argument, ty, span, at)?,
            });
        }
        if self.unit.global_users.contains(name) {
            for (global, _) in &self.unit.globals_by_reference {
                args.push(self.global_pointer(global, span)?);
            }
        }
        let dst = self.b.new_temp(span, result.width());
        self.b.emit(InstKind::Call { dst, func, args }, span);
        let result = if result == CType::Void {
            CType::Int
        } else {
            result
        };
        Ok((Operand::Local(dst), result))
    }

    /// What a call passes for the variable `argument` to the scalar parameter `param` of
    /// `callee`, whose body starts by overwriting it (`l = head;`): the value is never used, so
    /// it is not read (an uninitialized variable passed there is no `uninit` read, as a
    /// sanitizer sees it) and the parameter gets its type's zero. `None` otherwise.
    fn unread_argument(
        &mut self,
        callee: &Node<lang_c::ast::FunctionDefinition>,
        (param, ty): (&str, CType),
        argument: &Node<Expression>,
    ) -> Option<Operand> {
        let Expression::Identifier(id) = &argument.node else {
            return None;
        };
        let variable = self.scalar(&id.node.name, self.at(argument.span)).is_ok();
        if !variable || !ty.is_scalar() || !super::func::overwrites_first(callee, param) {
            return None;
        }
        Some(match ty {
            CType::Pointer(_) => Operand::Null,
            CType::Element(_) => {
                let span = self.span(argument.span);
                self.element_value(Operand::Null, Operand::Const(0), span)
            }
            _ => ty.constant(0),
        })
    }

    /// The value of the enumeration constant `name`, unless a variable of that name hides it.
    fn enum_constant(&self, name: &str) -> Option<i32> {
        match self.is_visible(name) {
            true => None,
            false => self.unit.types.borrow().enum_constant(name),
        }
    }

    /// A size in bytes as the value of C's `size_t`.
    fn size_value(&self, size: i32) -> (Operand, CType) {
        let size_t = self.size_t();
        (size_t.constant(i64::from(size)), size_t)
    }

    /// C's `ptrdiff_t`, the type of a difference of pointers: `long` in LP64, `int` in ILP32.
    pub(super) fn ptrdiff_t(&self) -> CType {
        match self.unit.options.data_model {
            crate::DataModel::Lp64 => CType::Long,
            crate::DataModel::Ilp32 => CType::Int,
        }
    }

    /// C's `size_t`, an unsigned integer as wide as a pointer: `unsigned long` (64 bits in
    /// LP64), `unsigned int` in ILP32.
    pub(super) fn size_t(&self) -> CType {
        super::types::size_type(self.unit.options.data_model)
    }

    /// The value of an integer constant expression (an array size, a designator, a `case`
    /// label), as its type's bits.
    pub fn constant(&self, e: &Node<Expression>) -> Result<i64, CError> {
        constant::evaluate(self, e).map(|(value, _)| value)
    }

    /// `sizeof e` in bytes, where the type of `e` is plain to see without evaluating it.
    fn size_of_expression(&self, e: &Node<Expression>) -> Option<i32> {
        if let Expression::StringLiteral(literal) = &e.node {
            let bytes = string_bytes(&literal.node, self.at(e.span)).ok()?;
            return i32::try_from(bytes.len()).ok();
        }
        let pointer_size = || {
            let pointer = self.unit.types.borrow_mut().pointer_to(CType::Int);
            self.unit.types.borrow().size(pointer)
        };
        // A value that is an array (or a string) decays to a pointer where it is no operand of
        // `sizeof` or `&` itself.
        let decays = |e: &Node<Expression>| {
            matches!(e.node, Expression::StringLiteral(_)) || self.array_size(e).is_some()
        };
        let is_pointer = |e: &Node<Expression>| {
            decays(e)
                || matches!(
                    self.static_type(e),
                    Some(CType::Pointer(_) | CType::Element(_))
                )
        };
        match &e.node {
            // An array parameter is a pointer in C: its `sizeof` is a pointer's.
            Expression::Identifier(id) if self.is_array_parameter(&id.node.name) => {
                return pointer_size();
            }
            Expression::Comma(items) => {
                let last = items.last()?;
                return match decays(last) {
                    true => pointer_size(),
                    false => self.size_of_expression(last),
                };
            }
            Expression::UnaryOperator(u) => match u.node.operator.node {
                UnaryOperator::Address => return pointer_size(),
                UnaryOperator::Indirection => {
                    if let Expression::UnaryOperator(inner) = &u.node.operand.node {
                        if inner.node.operator.node == UnaryOperator::Address {
                            return self.size_of_expression(&inner.node.operand);
                        }
                    }
                }
                _ => {}
            },
            Expression::BinaryOperator(b)
                if b.node.operator.node == BinaryOperator::Index
                    && matches!(b.node.lhs.node, Expression::StringLiteral(_)) =>
            {
                return self.unit.types.borrow().size(CType::SChar);
            }
            // `c ? p : 0` is a pointer where either side is one (the other a null constant).
            Expression::Conditional(c)
                if is_pointer(&c.node.then_expression) || is_pointer(&c.node.else_expression) =>
            {
                return pointer_size();
            }
            _ => {}
        }
        self.array_size(e).or_else(|| self.row_size(e)).or_else(|| {
            let ty = self.static_type(e).filter(|_| self.indices_valid(e))?;
            self.unit.types.borrow().size(ty)
        })
    }

    /// Whether `e`, an index that `sizeof` does not evaluate, is still a valid one: a number
    /// whose type is plain to see (its names declared).
    fn is_index(&self, e: &Node<Expression>) -> bool {
        self.static_type(e).is_some_and(CType::is_number)
    }

    /// Whether every index of the subscripts `e` ends with is valid ([`FnCx::is_index`]).
    fn indices_valid(&self, mut e: &Node<Expression>) -> bool {
        while let Expression::BinaryOperator(b) = &e.node {
            if b.node.operator.node != BinaryOperator::Index {
                break;
            }
            if !self.is_index(&b.node.rhs) {
                return false;
            }
            e = &b.node.lhs;
        }
        true
    }

    /// `sizeof` of a part of an array named by fewer indices than it has dimensions (`m[0]`,
    /// `*m`, `s.cube[1]`, `p[1]` and `*p` of a pointer to arrays): the remaining dimensions'
    /// elements.
    fn row_size(&self, e: &Node<Expression>) -> Option<i32> {
        let row = self.row_type(e).filter(|_| self.indices_valid(e))?;
        self.unit.types.borrow().size(row)
    }
}

impl constant::Scope for FnCx<'_, '_> {
    fn data_model(&self) -> crate::DataModel {
        self.unit.options.data_model
    }

    fn text(&self, span: lang_c::span::Span) -> &str {
        self.unit
            .preprocessed
            .get(span.start..span.end)
            .unwrap_or_default()
    }

    fn offset(&self, span: lang_c::span::Span) -> usize {
        self.at(span)
    }

    fn enum_constant(&self, name: &str) -> Option<i32> {
        FnCx::enum_constant(self, name)
    }

    fn type_name(&self, name: &lang_c::ast::TypeName, at: usize) -> Result<CType, CError> {
        self.type_name_of(name, at)
    }

    fn size_of_expression(&self, e: &Node<Expression>) -> Option<i32> {
        FnCx::size_of_expression(self, e)
    }

    fn types(&self) -> std::cell::Ref<'_, super::types::Types> {
        self.unit.types.borrow()
    }
}

/// Whether `e` gives a value that designates no object (a call, `?:`, a comma, an
/// assignment, a statement expression): a member of it is only read.
fn is_value_expression(e: &Node<Expression>) -> bool {
    match &e.node {
        Expression::Call(_)
        | Expression::Conditional(_)
        | Expression::Comma(_)
        | Expression::Statement(_)
        | Expression::CompoundLiteral(_) => true,
        Expression::BinaryOperator(b) => b.node.operator.node == BinaryOperator::Assign,
        // A member of a value is a value (`mk().inner.x`).
        Expression::Member(m) => {
            m.node.operator.node == MemberOperator::Direct
                && is_value_expression(&m.node.expression)
        }
        _ => false,
    }
}

/// The variable whose (nested) member `m` is, `s` of `s.a.b`: none through a pointer or an
/// array element.
fn struct_variable(m: &lang_c::ast::MemberExpression) -> Option<&str> {
    if m.operator.node != MemberOperator::Direct {
        return None;
    }
    match &m.expression.node {
        Expression::Identifier(id) => Some(&id.node.name),
        Expression::Member(inner) => struct_variable(&inner.node),
        _ => None,
    }
}

/// Whether `operand` is the null pointer constant (`NULL`, `0`).
fn is_null_constant(operand: Operand) -> bool {
    matches!(operand, Operand::Null | Operand::Const(0))
}

/// The expressions of the `typeof`s inside a declaration or a type name, outer ones first
/// ([`FnCx::note_typeofs`]).
#[derive(Default)]
pub(super) struct TypeOfs<'ast> {
    expressions: Vec<&'ast Node<Expression>>,
}

impl<'ast> lang_c::visit::Visit<'ast> for TypeOfs<'ast> {
    fn visit_type_of(&mut self, of: &'ast lang_c::ast::TypeOf, span: &'ast lang_c::span::Span) {
        if let lang_c::ast::TypeOf::Expression(e) = of {
            self.expressions.push(e);
        }
        lang_c::visit::visit_type_of(self, of, span);
    }
}
