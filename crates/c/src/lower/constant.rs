//! Integer constant expressions (C11 §6.6): the values of array sizes, designators, `case`
//! labels and enumerators, computed as the program would compute them at run time, with C's
//! types: literals typed by C's rule, integer promotions, the usual arithmetic conversions,
//! casts to integer types, `sizeof`, and every operator C allows there (`+ - * / % << >> & | ^
//! ~ !`, comparisons, `&& ||`, `?:`).
//!
//! An expression whose value C leaves undefined (a division by zero, a signed result outside
//! its type, a shift by a negative amount or by the width or more, a left shift of a negative
//! number) is refused with the reason, never folded to a guess; so is anything that is not a
//! constant (a variable, a call, a comma, a cast to a pointer). What a name or a type name
//! means comes from the caller's [`Scope`]: nothing here looks up declarations itself.

use lang_c::ast::{
    BinaryOperator as B, Expression as E, OffsetMember, TypeName, UnaryOperator as U,
};
use lang_c::span::{Node, Span};

use super::literal::integer_constant;
use super::types::{CType, Types};
use crate::error::{CError, ErrorKind};
use crate::DataModel;

/// What a constant expression may name, as the place where it stands sees it.
pub(super) trait Scope {
    fn data_model(&self) -> DataModel;
    /// The source offset of `span` (for messages).
    fn offset(&self, span: Span) -> usize;
    /// The value of the enumeration constant `name`, unless a variable hides it.
    fn enum_constant(&self, name: &str) -> Option<i32>;
    /// The type a type name denotes (in a cast or `sizeof`).
    fn type_name(&self, name: &TypeName, at: usize) -> Result<CType, CError>;
    /// `sizeof` of an expression (not evaluated), if its type is plain to see here.
    fn size_of_expression(&self, e: &Node<E>) -> Option<i32>;
    /// The unit's types (sizes and layouts).
    fn types(&self) -> std::cell::Ref<'_, Types>;
    /// The text the parser read at `span`.
    fn text(&self, span: Span) -> &str;
}

/// An integer constant: the value (its type's bits; an `unsigned long long` above
/// `i64::MAX` comes as its bits) and its C type.
pub(super) type Constant = (i64, CType);

/// The value and type of the integer constant expression `e`.
pub(super) fn evaluate(scope: &dyn Scope, e: &Node<E>) -> Result<Constant, CError> {
    Evaluation {
        scope,
        evaluated: true,
    }
    .of(e)
}

/// An evaluation of a constant expression, or of an operand C does not evaluate (the arm of
/// `?:` not taken, §6.6p3): there a value C leaves undefined is no error, only its type
/// matters.
#[derive(Clone, Copy)]
struct Evaluation<'s> {
    scope: &'s dyn Scope,
    evaluated: bool,
}

impl Evaluation<'_> {
    fn unevaluated(self) -> Self {
        Evaluation {
            evaluated: false,
            ..self
        }
    }

    /// `Err` of an undefined value where the operand is evaluated, else `value`.
    fn undefined(self, what: &str, at: usize, value: Constant) -> Result<Constant, CError> {
        match self.evaluated {
            true => Err(undefined(what, at)),
            false => Ok(value),
        }
    }

    fn of(self, e: &Node<E>) -> Result<Constant, CError> {
        let scope = self.scope;
        let at = scope.offset(e.span);
        match &e.node {
            E::Constant(c) => integer_constant(&c.node, scope.data_model(), at),
            E::Identifier(id) => match scope.enum_constant(&id.node.name) {
                Some(value) => Ok((i64::from(value), CType::Int)),
                None => Err(not_constant(format!("`{}`", id.node.name), at)),
            },
            E::UnaryOperator(u) => self.unary(u.node.operator.node.clone(), &u.node.operand, at),
            E::BinaryOperator(b) => {
                self.binary(b.node.operator.node.clone(), &b.node.lhs, &b.node.rhs, at)
            }
            E::Conditional(c) => {
                let (condition, _) = self.of(&c.node.condition)?;
                let taken = |yes: bool| if yes { self } else { self.unevaluated() };
                let then = taken(condition != 0).of(&c.node.then_expression)?;
                let other = taken(condition == 0).of(&c.node.else_expression)?;
                let ty = then.1.common(other.1);
                let (value, _) = if condition != 0 { then } else { other };
                Ok((convert(value, ty), ty))
            }
            E::Cast(cast) => {
                let ty = scope.type_name(&cast.node.type_name.node, at)?;
                if !ty.is_number() {
                    return Err(not_constant(
                        "a cast to a type other than an integer".into(),
                        at,
                    ));
                }
                // `(size_t) &((T *)0)->m`: the old spelling of `offsetof(T, m)`.
                if let Some((base, members)) = null_member_address(&cast.node.expression) {
                    let Ok(CType::Pointer(p)) = scope.type_name(base, at) else {
                        return Err(not_constant("this address".into(), at));
                    };
                    let pointee = scope.types().pointee(p);
                    let steps = members.into_iter().map(OffsetStep::Member);
                    let offset = self.offset_of(pointee, steps, at)?;
                    return Ok((convert(i64::from(offset), ty), ty));
                }
                let (value, _) = self.of(&cast.node.expression)?;
                Ok((convert(value, ty), ty))
            }
            E::SizeOfTy(t) => {
                let ty = scope.type_name(&t.node.0.node, at)?;
                let size = scope.types().size_of_type(ty, at)?;
                Ok(size_value(scope, size))
            }
            E::SizeOfVal(v) => match scope.size_of_expression(&v.node.0) {
                Some(size) => Ok(size_value(scope, size)),
                None => Err(CError::unsupported("`sizeof` of this expression", at)),
            },
            E::AlignOf(t) => {
                let ty = scope.type_name(&t.node.0.node, at)?;
                // GNU's `__alignof__` is the preferred alignment, C11's `_Alignof` the one
                // members get: they differ for `long long` on i386 (8 and 4).
                let gnu = scope.text(t.span).starts_with("__alignof");
                let types = scope.types();
                let alignment = match gnu {
                    true => types.preferred_alignment(ty),
                    false => types.alignment(ty),
                };
                match alignment {
                    Some(align) if ty != CType::Void => Ok(size_value(scope, align)),
                    _ => Err(CError::unsupported("`_Alignof` of this type", at)),
                }
            }
            E::OffsetOf(o) => {
                let ty = scope.type_name(&o.node.type_name.node, at)?;
                let designator = &o.node.designator.node;
                let first = std::iter::once(OffsetStep::Member(&designator.base.node.name));
                let rest = designator.members.iter().map(|m| match &m.node {
                    OffsetMember::Member(name) => OffsetStep::Member(&name.node.name),
                    OffsetMember::Index(index) => OffsetStep::Index(index),
                    OffsetMember::IndirectMember(_) => OffsetStep::Unsupported,
                });
                let offset = self.offset_of(ty, first.chain(rest), at)?;
                Ok(size_value(scope, offset))
            }
            _ => Err(not_constant("this expression".into(), at)),
        }
    }

    /// The result `value` of an operation in type `ty`: reduced modulo 2^n when unsigned,
    /// undefined when signed and out of range.
    fn result(self, value: i128, ty: CType, at: usize) -> Result<Constant, CError> {
        if ty.is_unsigned() || fits(value, ty) {
            return Ok((convert(value as i64, ty), ty));
        }
        let wrapped = (convert(value as i64, ty), ty);
        self.undefined("a signed result outside its type", at, wrapped)
    }

    fn unary(self, op: U, operand: &Node<E>, at: usize) -> Result<Constant, CError> {
        let (value, ty) = self.of(operand)?;
        let promoted = ty.promoted();
        let x = wide(convert(value, promoted), promoted);
        match op {
            U::Plus => Ok((x as i64, promoted)),
            U::Minus => self.result(-x, promoted, at),
            U::Complement => Ok((convert(!x as i64, promoted), promoted)),
            U::Negate => Ok((i64::from(x == 0), CType::Int)),
            _ => Err(not_constant("this operator".into(), at)),
        }
    }

    fn binary(self, op: B, lhs: &Node<E>, rhs: &Node<E>, at: usize) -> Result<Constant, CError> {
        // `&&` and `||` do not evaluate their right operand once the left decides.
        if matches!(op, B::LogicalAnd | B::LogicalOr) {
            let (left, _) = self.of(lhs)?;
            let decided = (op == B::LogicalAnd) == (left == 0);
            let (right, _) = match decided {
                true => self.unevaluated().of(rhs)?,
                false => self.of(rhs)?,
            };
            let value = if decided { left != 0 } else { right != 0 };
            return Ok((i64::from(value), CType::Int));
        }
        let (a, a_ty) = self.of(lhs)?;
        let (b, b_ty) = self.of(rhs)?;
        if matches!(op, B::ShiftLeft | B::ShiftRight) {
            return self.shift(op, (a, a_ty), (b, b_ty), at);
        }
        let ty = a_ty.common(b_ty);
        let (x, y) = (wide(convert(a, ty), ty), wide(convert(b, ty), ty));
        let truth = |holds: bool| Ok((i64::from(holds), CType::Int));
        match op {
            B::Plus => self.result(x + y, ty, at),
            B::Minus => self.result(x - y, ty, at),
            B::Multiply => self.result(x * y, ty, at),
            B::Divide | B::Modulo if y == 0 => self.undefined("a division by zero", at, (0, ty)),
            B::Divide => self.result(x / y, ty, at),
            // Rust's `%` truncates toward zero as C's does; `INT_MIN % -1` is undefined in C
            // (its quotient is).
            B::Modulo => self
                .result(x / y, ty, at)
                .and_then(|_| self.result(x % y, ty, at)),
            B::BitwiseAnd => Ok((convert((x & y) as i64, ty), ty)),
            B::BitwiseOr => Ok((convert((x | y) as i64, ty), ty)),
            B::BitwiseXor => Ok((convert((x ^ y) as i64, ty), ty)),
            B::Less => truth(x < y),
            B::Greater => truth(x > y),
            B::LessOrEqual => truth(x <= y),
            B::GreaterOrEqual => truth(x >= y),
            B::Equals => truth(x == y),
            B::NotEquals => truth(x != y),
            _ => Err(not_constant("this operator".into(), at)),
        }
    }

    /// `a << b` or `a >> b`: each operand promoted on its own, the result of the left's type.
    fn shift(
        self,
        op: B,
        (a, a_ty): Constant,
        (b, b_ty): Constant,
        at: usize,
    ) -> Result<Constant, CError> {
        let ty = a_ty.promoted();
        let bits: i128 = match ty.width() {
            symex_ir::cfg::Width::W64 => 64,
            symex_ir::cfg::Width::W32 => 32,
        };
        let amount = wide(convert(b, b_ty.promoted()), b_ty.promoted());
        if !(0..bits).contains(&amount) {
            let what = "a shift by a negative amount or by the width or more";
            return self.undefined(what, at, (0, ty));
        }
        let x = wide(convert(a, ty), ty);
        match op {
            B::ShiftLeft if x < 0 => {
                self.undefined("a left shift of a negative number", at, (0, ty))
            }
            B::ShiftLeft => self.result(x << amount, ty, at),
            _ => Ok(((x >> amount) as i64, ty)),
        }
    }

    /// `offsetof(ty, m.n[k]…)`: the byte offset of the member the steps designate in C's
    /// layout.
    fn offset_of<'e>(
        self,
        ty: CType,
        steps: impl Iterator<Item = OffsetStep<'e>>,
        at: usize,
    ) -> Result<i32, CError> {
        let unsupported = || CError::unsupported("this `offsetof` (a member of a struct)", at);
        // Where the walk stands: a type and, inside an array member, its dimensions left.
        let (mut current, mut dims, mut offset) = (ty, Vec::new(), 0i64);
        for step in steps {
            match step {
                OffsetStep::Unsupported => return Err(unsupported()),
                OffsetStep::Member(name) => {
                    let types = self.scope.types();
                    let (CType::Struct(id), true) = (current, dims.is_empty()) else {
                        return Err(unsupported());
                    };
                    let Some(path) = types.member_path(id, name) else {
                        return Err(CError::invalid(format!("no member `{name}` here"), at));
                    };
                    // Through the anonymous members it lies in; a union's members are all at
                    // its start.
                    for (container, step, _) in &path {
                        if types.union_members(*container).is_some() {
                            continue;
                        }
                        let fields = types.fields(*container).unwrap_or_default();
                        let k = fields.iter().position(|(f, _)| f == step);
                        let offsets = types.member_offsets(*container);
                        let (Some(k), Some(offsets)) = (k, offsets) else {
                            return Err(unsupported());
                        };
                        offset += i64::from(offsets[k]);
                    }
                    let member = path.last().map_or(CType::Int, |step| step.2);
                    (current, dims) = match member {
                        CType::Array(array) => types.array(array),
                        ty => (ty, Vec::new()),
                    };
                }
                OffsetStep::Index(index) => {
                    let Some(&d) = dims.first() else {
                        return Err(unsupported());
                    };
                    let (k, _) = self.of(index)?;
                    if k < 0 || k >= i64::from(d) {
                        return Err(CError::invalid("an `offsetof` index outside its array", at));
                    }
                    let inner: i64 = dims[1..].iter().map(|&d| i64::from(d)).product();
                    let element = self.scope.types().size(current).ok_or_else(unsupported)?;
                    offset += k * inner * i64::from(element);
                    dims.remove(0);
                }
            }
        }
        i32::try_from(offset).map_err(|_| unsupported())
    }
}

/// An array dimension from its constant expression's value: `None` where the size is not a
/// constant (a variable-length array, which the caller refuses in its own words), the error
/// where C leaves the value undefined.
pub(super) fn dimension(value: Result<i64, CError>) -> Result<Option<i64>, CError> {
    match value {
        Ok(n) => Ok(Some(n)),
        Err(e) if e.kind == ErrorKind::Invalid => Err(e),
        Err(_) => Ok(None),
    }
}

fn not_constant(what: String, at: usize) -> CError {
    CError::unsupported(
        format!("{what} in an integer constant expression (not a constant)"),
        at,
    )
}

fn undefined(what: &str, at: usize) -> CError {
    CError::invalid(
        format!("a constant expression whose value C leaves undefined ({what})"),
        at,
    )
}

/// A size as the `size_t` it is: `unsigned long` in LP64, `unsigned int` in ILP32.
fn size_value(scope: &dyn Scope, size: i32) -> Constant {
    let ty = match scope.data_model() {
        DataModel::Lp64 => CType::ULong,
        DataModel::Ilp32 => CType::UInt,
    };
    (i64::from(size), ty)
}

/// `value` (its type's bits) converted to `to` as C converts integers: reduced modulo 2^n into
/// an unsigned or narrower type (gcc's choice for signed targets), `!= 0` for `_Bool`. The
/// source type adds nothing, since values are kept as their type's bits.
fn convert(value: i64, to: CType) -> i64 {
    match to {
        CType::Bool => i64::from(value != 0),
        CType::SChar => i64::from(value as i8),
        CType::UChar => i64::from(value as u8),
        CType::Short => i64::from(value as i16),
        CType::UShort => i64::from(value as u16),
        CType::Int => i64::from(value as i32),
        CType::UInt => i64::from(value as u32),
        _ => value,
    }
}

/// Whether `value` (mathematically, as an `i128`) is a value of `ty`.
fn fits(value: i128, ty: CType) -> bool {
    let (low, high): (i128, i128) = match ty {
        CType::Int => (i32::MIN.into(), i32::MAX.into()),
        CType::UInt => (0, u32::MAX.into()),
        CType::Long => (i64::MIN.into(), i64::MAX.into()),
        CType::ULong => (0, u64::MAX.into()),
        _ => return false,
    };
    (low..=high).contains(&value)
}

/// The mathematical value of `bits` read as `ty`.
fn wide(bits: i64, ty: CType) -> i128 {
    match ty {
        CType::ULong => i128::from(bits as u64),
        _ => i128::from(bits),
    }
}

/// A step of an `offsetof` designator: a member, an index, or one outside the subset
/// (`->`).
enum OffsetStep<'e> {
    Member(&'e String),
    Index(&'e Node<E>),
    Unsupported,
}

/// `&((T *)0)->m.n`, the address of a member of the struct a null pointer of type `T *` would
/// point to: the type name `T *` and the member names, outermost first.
pub(super) fn null_member_address(e: &Node<E>) -> Option<(&lang_c::ast::TypeName, Vec<&String>)> {
    let E::UnaryOperator(u) = &e.node else {
        return None;
    };
    if u.node.operator.node != lang_c::ast::UnaryOperator::Address {
        return None;
    }
    let mut names = Vec::new();
    let mut current = &u.node.operand;
    loop {
        let E::Member(m) = &current.node else {
            return None;
        };
        names.push(&m.node.identifier.node.name);
        current = &m.node.expression;
        if m.node.operator.node == lang_c::ast::MemberOperator::Indirect {
            break;
        }
    }
    let E::Cast(cast) = &current.node else {
        return None;
    };
    let E::Constant(zero) = &cast.node.expression.node else {
        return None;
    };
    let lang_c::ast::Constant::Integer(zero) = &zero.node else {
        return None;
    };
    if &*zero.number != "0" {
        return None;
    }
    names.reverse();
    Some((&cast.node.type_name.node, names))
}
