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

use lang_c::ast::{BinaryOperator as B, Expression as E, TypeName, UnaryOperator as U};
use lang_c::span::{Node, Span};

use super::literal::integer_constant;
use super::types::CType;
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
    /// `sizeof` of a complete type, in bytes.
    fn size(&self, ty: CType) -> Option<i32>;
    /// `sizeof` of an expression (not evaluated), if its type is plain to see here.
    fn size_of_expression(&self, e: &Node<E>) -> Option<i32>;
}

/// An integer constant: the value (its type's bits; an `unsigned long long` above
/// `i64::MAX` comes as its bits) and its C type.
pub(super) type Constant = (i64, CType);

/// The value and type of the integer constant expression `e`.
pub(super) fn evaluate(scope: &dyn Scope, e: &Node<E>) -> Result<Constant, CError> {
    let at = scope.offset(e.span);
    match &e.node {
        E::Constant(c) => integer_constant(&c.node, scope.data_model(), at),
        E::Identifier(id) => match scope.enum_constant(&id.node.name) {
            Some(value) => Ok((i64::from(value), CType::Int)),
            None => Err(not_constant(format!("`{}`", id.node.name), at)),
        },
        E::UnaryOperator(u) => unary(scope, u.node.operator.node.clone(), &u.node.operand, at),
        E::BinaryOperator(b) => binary(
            scope,
            b.node.operator.node.clone(),
            &b.node.lhs,
            &b.node.rhs,
            at,
        ),
        E::Conditional(c) => {
            let (condition, _) = evaluate(scope, &c.node.condition)?;
            let then = evaluate(scope, &c.node.then_expression)?;
            let other = evaluate(scope, &c.node.else_expression)?;
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
            let (value, _) = evaluate(scope, &cast.node.expression)?;
            Ok((convert(value, ty), ty))
        }
        E::SizeOfTy(t) => {
            let ty = scope.type_name(&t.node.0.node, at)?;
            match scope.size(ty) {
                Some(size) if ty != CType::Void => Ok(size_value(scope, size)),
                _ => Err(CError::unsupported("`sizeof` of this type", at)),
            }
        }
        E::SizeOfVal(v) => match scope.size_of_expression(&v.node.0) {
            Some(size) => Ok(size_value(scope, size)),
            None => Err(CError::unsupported("`sizeof` of this expression", at)),
        },
        _ => Err(not_constant("this expression".into(), at)),
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

/// `value` of type `from` converted to `to` as C converts integers: reduced modulo 2^n into an
/// unsigned or narrower type (gcc's choice for signed targets), `!= 0` for `_Bool`.
/// (Values are kept as their type's bits, so the source type adds nothing.)
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

/// The result `value` of an operation in type `ty`: reduced modulo 2^n when unsigned, refused
/// when signed and out of range.
fn result(value: i128, ty: CType, at: usize) -> Result<Constant, CError> {
    if ty.is_unsigned() {
        return Ok((convert(value as i64, ty), ty));
    }
    match fits(value, ty) {
        true => Ok((value as i64, ty)),
        false => Err(undefined("a signed result outside its type", at)),
    }
}

fn unary(scope: &dyn Scope, op: U, operand: &Node<E>, at: usize) -> Result<Constant, CError> {
    let (value, ty) = evaluate(scope, operand)?;
    let promoted = ty.promoted();
    let x = wide(convert(value, promoted), promoted);
    match op {
        U::Plus => Ok((x as i64, promoted)),
        U::Minus => result(-x, promoted, at),
        U::Complement => result_bits(!x, promoted),
        U::Negate => Ok((i64::from(x == 0), CType::Int)),
        _ => Err(not_constant("this operator".into(), at)),
    }
}

fn binary(
    scope: &dyn Scope,
    op: B,
    lhs: &Node<E>,
    rhs: &Node<E>,
    at: usize,
) -> Result<Constant, CError> {
    // `&&` and `||` do not evaluate their right operand once the left decides.
    if matches!(op, B::LogicalAnd | B::LogicalOr) {
        let (left, _) = evaluate(scope, lhs)?;
        let decided = (op == B::LogicalAnd) == (left == 0);
        if decided {
            return Ok((i64::from(left != 0), CType::Int));
        }
        let (right, _) = evaluate(scope, rhs)?;
        return Ok((i64::from(right != 0), CType::Int));
    }
    let (a, a_ty) = evaluate(scope, lhs)?;
    let (b, b_ty) = evaluate(scope, rhs)?;
    if matches!(op, B::ShiftLeft | B::ShiftRight) {
        return shift(op, (a, a_ty), (b, b_ty), at);
    }
    let ty = a_ty.common(b_ty);
    let (x, y) = (wide(convert(a, ty), ty), wide(convert(b, ty), ty));
    let truth = |holds: bool| Ok((i64::from(holds), CType::Int));
    match op {
        B::Plus => result(x + y, ty, at),
        B::Minus => result(x - y, ty, at),
        B::Multiply => result(x * y, ty, at),
        B::Divide | B::Modulo if y == 0 => Err(undefined("a division by zero", at)),
        B::Divide => result(x / y, ty, at),
        // Rust's `%` truncates toward zero as C's does; `INT_MIN % -1` is undefined in C.
        B::Modulo => result(x / y, ty, at).and_then(|_| result(x % y, ty, at)),
        B::BitwiseAnd => result_bits(x & y, ty),
        B::BitwiseOr => result_bits(x | y, ty),
        B::BitwiseXor => result_bits(x ^ y, ty),
        B::Less => truth(x < y),
        B::Greater => truth(x > y),
        B::LessOrEqual => truth(x <= y),
        B::GreaterOrEqual => truth(x >= y),
        B::Equals => truth(x == y),
        B::NotEquals => truth(x != y),
        _ => Err(not_constant("this operator".into(), at)),
    }
}

/// A bitwise result: the operands are in range, so is the result's bit pattern.
fn result_bits(value: i128, ty: CType) -> Result<Constant, CError> {
    Ok((convert(value as i64, ty), ty))
}

/// `a << b` or `a >> b`: each operand promoted on its own, the result of the left's type.
fn shift(op: B, (a, a_ty): Constant, (b, b_ty): Constant, at: usize) -> Result<Constant, CError> {
    let ty = a_ty.promoted();
    let bits: i128 = match ty.width() {
        symex_ir::cfg::Width::W64 => 64,
        symex_ir::cfg::Width::W32 => 32,
    };
    let amount = wide(convert(b, b_ty.promoted()), b_ty.promoted());
    if !(0..bits).contains(&amount) {
        return Err(undefined(
            "a shift by a negative amount or by the width or more",
            at,
        ));
    }
    let x = wide(convert(a, ty), ty);
    match op {
        B::ShiftLeft if x < 0 => Err(undefined("a left shift of a negative number", at)),
        B::ShiftLeft => result(x << amount, ty, at),
        _ => Ok(((x >> amount) as i64, ty)),
    }
}
