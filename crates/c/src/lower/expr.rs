//! C expressions lowered to operands, evaluated left to right: arithmetic and comparisons on
//! `int` (wrapping, like micro-c), `&&`/`||`/`?:` as branches, assignments, `++`/`--`, calls of
//! defined functions and SV-COMP's built-in functions. A read of a local variable copies it into
//! a temporary right after its `uninit` check, so that later blocks of the same expression see
//! the value that was read.

use lang_c::ast::{
    BinaryOperator, BlockItem, CallExpression, Constant, Expression, IntegerBase, IntegerSize,
    Statement, UnaryOperator,
};
use lang_c::span::Node;
use symex_ir::cfg::{
    BinOp, BlockId, Check, InstKind, LocalId, LocalKind, Operand, Place, Rvalue, Terminator, UnOp,
};
use symex_syntax::span::Span;

use super::func::FnCx;
use super::types::{declarator_shape, type_name_base, CType, Shape};
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
const EXIT_FUNCTIONS: &[&str] = &["abort", "exit", "_Exit", "__VERIFIER_abort"];

fn arithmetic(op: &BinaryOperator) -> Option<BinOp> {
    use BinaryOperator as B;
    Some(match op {
        B::Multiply | B::AssignMultiply => BinOp::Mul,
        B::Divide | B::AssignDivide => BinOp::Div,
        B::Modulo | B::AssignModulo => BinOp::Rem,
        B::Plus | B::AssignPlus => BinOp::Add,
        B::Minus | B::AssignMinus => BinOp::Sub,
        B::Less => BinOp::Lt,
        B::Greater => BinOp::Gt,
        B::LessOrEqual => BinOp::Le,
        B::GreaterOrEqual => BinOp::Ge,
        B::Equals => BinOp::Eq,
        B::NotEquals => BinOp::Ne,
        _ => return None,
    })
}

fn spelling(op: &BinaryOperator) -> &'static str {
    use BinaryOperator as B;
    match op {
        B::ShiftLeft => "<<",
        B::ShiftRight => ">>",
        B::BitwiseAnd => "&",
        B::BitwiseXor => "^",
        B::BitwiseOr => "|",
        B::AssignShiftLeft => "<<=",
        B::AssignShiftRight => ">>=",
        B::AssignBitwiseAnd => "&=",
        B::AssignBitwiseXor => "^=",
        B::AssignBitwiseOr => "|=",
        _ => "this operator",
    }
}

/// `sizeof(int)` in both data models (ILP32 and LP64).
const INT_SIZE: i32 = 4;

/// Whether `e` is built only of constructs whose value is an `int` in the subset (so that
/// `sizeof` may answer without evaluating it).
fn is_int_expression(e: &Expression) -> bool {
    match e {
        Expression::Identifier(_) => true,
        Expression::Constant(c) => matches!(c.node, Constant::Integer(_)),
        Expression::UnaryOperator(u) => {
            !matches!(
                u.node.operator.node,
                UnaryOperator::Address | UnaryOperator::Indirection
            ) && is_int_expression(&u.node.operand.node)
        }
        Expression::BinaryOperator(b) => {
            b.node.operator.node != BinaryOperator::Index
                && is_int_expression(&b.node.lhs.node)
                && is_int_expression(&b.node.rhs.node)
        }
        Expression::Conditional(c) => {
            is_int_expression(&c.node.condition.node)
                && is_int_expression(&c.node.then_expression.node)
                && is_int_expression(&c.node.else_expression.node)
        }
        Expression::Comma(list) => list.last().is_some_and(|e| is_int_expression(&e.node)),
        _ => false,
    }
}

fn is_compound_assignment(op: &BinaryOperator) -> bool {
    use BinaryOperator as B;
    matches!(
        op,
        B::AssignMultiply | B::AssignDivide | B::AssignModulo | B::AssignPlus | B::AssignMinus
    )
}

impl FnCx<'_, '_> {
    /// The `int` value of `e`, with its side effects emitted.
    pub fn value(&mut self, e: &Node<Expression>) -> Result<Operand, CError> {
        self.enter(e.span)?;
        let result = self.value_kind(e);
        self.leave();
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
                let cond = self.value(e)?;
                let span = self.span(e.span);
                self.b.terminate(
                    Terminator::Branch {
                        cond,
                        then_block: then_bb,
                        else_block: else_bb,
                    },
                    span,
                );
                Ok(())
            }
        }
    }

    fn temp(&mut self, value: Rvalue, span: Span) -> Operand {
        Operand::Local(self.b.assign_temp(value, span))
    }

    /// The value of local `local` now: checked for initialization and copied if it is a `var`.
    fn read_local(&mut self, local: LocalId, span: Span) -> Operand {
        if self.b.locals[local.index()].kind != LocalKind::Var {
            return Operand::Local(local);
        }
        self.check(Check::Init(Place::local(local)), span);
        self.temp(Rvalue::Use(Operand::Local(local)), span)
    }

    fn assign(&mut self, local: LocalId, value: Operand, span: Span) {
        let value = Rvalue::Use(value);
        self.b.emit(InstKind::Assign { dst: local, value }, span);
    }

    /// The variable an assignment writes.
    fn lvalue(&mut self, e: &Node<Expression>) -> Result<LocalId, CError> {
        match &e.node {
            Expression::Identifier(id) => self.lookup(&id.node.name, self.at(e.span)),
            _ => Err(CError::unsupported(
                "assignment to this expression (only variables can be assigned so far)",
                self.at(e.span),
            )),
        }
    }

    /// `a op b` with the divisor check of `/` and `%`.
    fn binary(&mut self, op: BinOp, a: Operand, b: Operand, span: Span) -> Operand {
        if matches!(op, BinOp::Div | BinOp::Rem) {
            self.check(Check::NonZero(b), span);
        }
        self.temp(Rvalue::Binary(op, a, b), span)
    }

    /// 1 or 0 in a temporary, by branching on `e`.
    fn truth_value(&mut self, e: &Node<Expression>, span: Span) -> Result<Operand, CError> {
        let result = self.b.new_temp(span);
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

    fn value_kind(&mut self, e: &Node<Expression>) -> Result<Operand, CError> {
        let span = self.span(e.span);
        let at = self.at(e.span);
        let unsupported = |what: &str| Err(CError::unsupported(what.to_string(), at));
        match &e.node {
            Expression::Identifier(id) => {
                let local = self.lookup(&id.node.name, at)?;
                Ok(self.read_local(local, span))
            }
            Expression::Constant(c) => integer_constant(&c.node, at).map(Operand::Const),
            Expression::UnaryOperator(u) => {
                let operand = &u.node.operand;
                match u.node.operator.node {
                    UnaryOperator::Plus => self.value(operand),
                    UnaryOperator::Minus => {
                        let a = self.value(operand)?;
                        Ok(self.temp(Rvalue::Unary(UnOp::Neg, a), span))
                    }
                    UnaryOperator::Negate => {
                        let a = self.value(operand)?;
                        Ok(self.temp(Rvalue::Unary(UnOp::Not, a), span))
                    }
                    UnaryOperator::PreIncrement
                    | UnaryOperator::PreDecrement
                    | UnaryOperator::PostIncrement
                    | UnaryOperator::PostDecrement => {
                        let op = &u.node.operator.node;
                        let local = self.lvalue(operand)?;
                        let old = self.read_local(local, span);
                        let step = match op {
                            UnaryOperator::PreIncrement | UnaryOperator::PostIncrement => {
                                BinOp::Add
                            }
                            _ => BinOp::Sub,
                        };
                        let new = self.temp(Rvalue::Binary(step, old, Operand::Const(1)), span);
                        self.assign(local, new, span);
                        let post = matches!(
                            op,
                            UnaryOperator::PostIncrement | UnaryOperator::PostDecrement
                        );
                        Ok(if post { old } else { new })
                    }
                    UnaryOperator::Complement => {
                        unsupported("the operator `~` (bitwise operators are not supported yet)")
                    }
                    UnaryOperator::Address | UnaryOperator::Indirection => {
                        unsupported("pointers (`&`, `*`) (not supported yet)")
                    }
                }
            }
            Expression::BinaryOperator(b) => {
                let op = &b.node.operator.node;
                match op {
                    BinaryOperator::LogicalAnd | BinaryOperator::LogicalOr => {
                        self.truth_value(e, span)
                    }
                    BinaryOperator::Assign => {
                        let local = self.lvalue(&b.node.lhs)?;
                        let value = self.value(&b.node.rhs)?;
                        self.assign(local, value, span);
                        Ok(value)
                    }
                    BinaryOperator::Index => {
                        unsupported("array subscripts (arrays are not supported yet)")
                    }
                    op if is_compound_assignment(op) => {
                        let local = self.lvalue(&b.node.lhs)?;
                        let old = self.read_local(local, span);
                        let operand = self.value(&b.node.rhs)?;
                        let arith = arithmetic(op).expect("compound assignments are arithmetic");
                        let new = self.binary(arith, old, operand, span);
                        self.assign(local, new, span);
                        Ok(new)
                    }
                    op => match arithmetic(op) {
                        Some(arith) => {
                            let lhs = self.value(&b.node.lhs)?;
                            let rhs = self.value(&b.node.rhs)?;
                            Ok(self.binary(arith, lhs, rhs, span))
                        }
                        None => unsupported(&format!(
                            "the operator `{}` (bitwise operators are not supported yet)",
                            spelling(op)
                        )),
                    },
                }
            }
            Expression::Conditional(c) => {
                let result = self.b.new_temp(span);
                let (yes, no, join) = (self.b.new_block(), self.b.new_block(), self.b.new_block());
                self.branch(&c.node.condition, yes, no)?;
                for (block, side) in [
                    (yes, &c.node.then_expression),
                    (no, &c.node.else_expression),
                ] {
                    self.b.switch_to(block);
                    let value = self.value(side)?;
                    self.assign(result, value, span);
                    self.b.goto(join, span);
                }
                self.b.switch_to(join);
                Ok(Operand::Local(result))
            }
            Expression::Comma(list) => {
                let mut last = Operand::Const(0);
                for item in list.iter() {
                    last = self.value(item)?;
                }
                Ok(last)
            }
            Expression::Call(call) => self.call(&call.node, span, at),
            Expression::Cast(cast) => {
                let type_name = &cast.node.type_name.node;
                let plain = type_name
                    .declarator
                    .as_ref()
                    .is_none_or(|d| matches!(declarator_shape(&d.node).1, Shape::Plain));
                let ty = type_name_base(self.unit, &type_name.specifiers, at)?;
                if !plain {
                    return unsupported("casts to pointer or array types");
                }
                let value = self.value(&cast.node.expression)?;
                Ok(match ty {
                    CType::Int => value,
                    CType::Void => Operand::Const(0),
                })
            }
            Expression::StringLiteral(_) => unsupported("string literals"),
            Expression::Member(_) => unsupported("struct members (structs are not supported yet)"),
            Expression::SizeOfTy(t) => {
                let type_name = &t.node.0.node;
                let plain = type_name
                    .declarator
                    .as_ref()
                    .is_none_or(|d| matches!(declarator_shape(&d.node).1, Shape::Plain));
                match type_name_base(self.unit, &type_name.specifiers, at)? {
                    CType::Int if plain => Ok(Operand::Const(INT_SIZE)),
                    _ => unsupported("`sizeof` of a type other than `int`"),
                }
            }
            // The operand is not evaluated; in the subset every expression is an `int`.
            Expression::SizeOfVal(v) => match is_int_expression(&v.node.0.node) {
                true => Ok(Operand::Const(INT_SIZE)),
                false => unsupported("`sizeof` of this expression"),
            },
            Expression::AlignOf(_) => unsupported("`_Alignof`"),
            Expression::OffsetOf(_) => unsupported("`offsetof`"),
            Expression::VaArg(_) => unsupported("`va_arg`"),
            Expression::GenericSelection(_) => unsupported("`_Generic`"),
            Expression::CompoundLiteral(_) => unsupported("compound literals"),
            Expression::Statement(statement) => self.statement_expression(statement),
        }
    }

    /// GNU's `({ ...; e; })`: the statements, then the value of the last expression statement
    /// (0 when there is none: the `void` of `assert`'s expansion).
    fn statement_expression(&mut self, statement: &Node<Statement>) -> Result<Operand, CError> {
        let Statement::Compound(items) = &statement.node else {
            return Err(CError::unsupported(
                "this statement expression",
                self.at(statement.span),
            ));
        };
        self.push_scope();
        let mut value = Operand::Const(0);
        for (i, item) in items.iter().enumerate() {
            let last = i + 1 == items.len();
            match &item.node {
                BlockItem::Statement(s) => match (&s.node, last) {
                    (Statement::Expression(Some(e)), true) => value = self.value(e)?,
                    _ => self.statement(s)?,
                },
                BlockItem::Declaration(d) => self.local_declaration(d)?,
                BlockItem::StaticAssert(a) => {
                    return Err(CError::unsupported("`_Static_assert`", self.at(a.span)))
                }
            }
        }
        self.pop_scope();
        Ok(value)
    }

    fn call(&mut self, call: &CallExpression, span: Span, at: usize) -> Result<Operand, CError> {
        let Expression::Identifier(callee) = &call.callee.node else {
            return Err(CError::unsupported("calls through function pointers", at));
        };
        let name = callee.node.name.as_str();
        let arity = |expected: usize| {
            if call.arguments.len() == expected {
                Ok(())
            } else {
                Err(CError::invalid(
                    format!(
                        "`{name}` takes {expected} argument(s) but {} were given",
                        call.arguments.len()
                    ),
                    at,
                ))
            }
        };
        if ERROR_FUNCTIONS.contains(&name) {
            // The arguments (`__assert_fail`'s message strings) are never needed.
            self.check(Check::Assert(Operand::Const(0)), span);
            return Ok(Operand::Const(0));
        }
        if EXIT_FUNCTIONS.contains(&name) {
            for argument in &call.arguments {
                self.value(argument)?;
            }
            self.b.emit(InstKind::Assume(Operand::Const(0)), span);
            return Ok(Operand::Const(0));
        }
        match name {
            "__VERIFIER_nondet_int" => {
                arity(0)?;
                let dst = self.b.new_temp(span);
                self.b.emit(InstKind::Input { dst }, span);
                return Ok(Operand::Local(dst));
            }
            "__VERIFIER_assume" => {
                arity(1)?;
                let cond = self.value(&call.arguments[0])?;
                self.b.emit(InstKind::Assume(cond), span);
                return Ok(Operand::Const(0));
            }
            nondet if nondet.starts_with("__VERIFIER_nondet_") => {
                return Err(CError::unsupported(
                    format!("`{nondet}` (only `int` inputs are supported so far)"),
                    at,
                ));
            }
            _ => {}
        }
        let Some(signature) = self.unit.functions.get(name) else {
            return Err(CError::unsupported(
                format!(
                    "a call of `{name}`, which has no definition (the known functions without one \
                     are SV-COMP's `__VERIFIER_*`, `reach_error`, `abort` and `exit`)"
                ),
                at,
            ));
        };
        let (func, params) = (signature.id, signature.params);
        arity(params)?;
        let mut args = Vec::with_capacity(params);
        for argument in &call.arguments {
            args.push(self.value(argument)?);
        }
        let dst = self.b.new_temp(span);
        self.b.emit(InstKind::Call { dst, func, args }, span);
        Ok(Operand::Local(dst))
    }

    /// The value of an integer constant expression (a `case` label).
    pub fn constant(&self, e: &Node<Expression>) -> Result<i32, CError> {
        let at = self.at(e.span);
        match &e.node {
            Expression::Constant(c) => integer_constant(&c.node, at),
            Expression::UnaryOperator(u) => {
                let value = self.constant(&u.node.operand)?;
                match u.node.operator.node {
                    UnaryOperator::Minus => Ok(value.wrapping_neg()),
                    UnaryOperator::Plus => Ok(value),
                    UnaryOperator::Negate => Ok(i32::from(value == 0)),
                    _ => Err(CError::unsupported("this constant expression", at)),
                }
            }
            Expression::BinaryOperator(b) => {
                let (x, y) = (self.constant(&b.node.lhs)?, self.constant(&b.node.rhs)?);
                match b.node.operator.node {
                    BinaryOperator::Plus => Ok(x.wrapping_add(y)),
                    BinaryOperator::Minus => Ok(x.wrapping_sub(y)),
                    BinaryOperator::Multiply => Ok(x.wrapping_mul(y)),
                    _ => Err(CError::unsupported("this constant expression", at)),
                }
            }
            _ => Err(CError::unsupported(
                "a `case` label that is not an integer constant",
                at,
            )),
        }
    }
}

/// An integer literal of type `int`; others (unsigned, long, too large) are refused.
fn integer_constant(constant: &Constant, at: usize) -> Result<i32, CError> {
    let integer = match constant {
        Constant::Integer(integer) => integer,
        Constant::Float(_) => {
            return Err(CError::unsupported("floating-point constants", at));
        }
        Constant::Character(_) => {
            return Err(CError::unsupported("character constants", at));
        }
    };
    if integer.suffix.unsigned
        || integer.suffix.size != IntegerSize::Int
        || integer.suffix.imaginary
    {
        return Err(CError::unsupported(
            "integer constants with a `u` or `l` suffix (only `int` is supported so far)",
            at,
        ));
    }
    let radix = match integer.base {
        IntegerBase::Decimal => 10,
        IntegerBase::Octal => 8,
        IntegerBase::Hexadecimal => 16,
        IntegerBase::Binary => 2,
    };
    let digits = integer.number.trim_start_matches('0');
    let value = if digits.is_empty() {
        Some(0)
    } else {
        u64::from_str_radix(digits, radix).ok()
    };
    match value.and_then(|v| i32::try_from(v).ok()) {
        Some(v) => Ok(v),
        None => Err(CError::unsupported(
            format!(
                "the constant `{}`, which does not fit in `int` (only `int` is supported so far)",
                integer.number
            ),
            at,
        )),
    }
}
