//! Pointers to functions, as CBMC removes them: a function pointer is a 32-bit IR number
//! naming one of the file's defined functions that the program uses as a value (1 for the
//! first such function in the file, 2 for the next, ...), 0 for null; a call through one is a
//! chain of direct calls, one per function of exactly the pointer's type, chosen by comparing
//! the number ([`FnCx::call_through_pointer`]). So every engine and the interpreter run such
//! calls as the direct calls they are, with nothing new in the IR.
//!
//! Exact because a value of a function pointer type can only come from a function of that
//! type (a cast between function pointer types, or from an integer or a `void *`, is refused)
//! or from null. A call with a pointer that names none of them fails `null-deref` for null and
//! `invalid-pointer` otherwise (reachable only from values the program never made: `--entry`
//! refuses functions whose parameters reach a function pointer). Taking the address of a
//! function without a definition (a library function) or of `main` is refused.
//!
//! Nothing here decides which functions a pointer may hold beyond their type.

use std::collections::HashSet;

use lang_c::ast::{CallExpression, Expression, TranslationUnit};
use lang_c::span::Node;
use lang_c::visit::Visit;
use symex_ir::cfg::{BinOp, Check, InstKind, Operand, PropertyKind, Rvalue};
use symex_syntax::span::Span;

use super::func::FnCx;
use super::types::CType;
use crate::error::CError;

/// The `functions` that `unit` uses as values (named outside the callee position of a call),
/// in the order of their first such use. A function's number is its position plus 1.
pub(super) fn function_values(unit: &TranslationUnit, functions: &HashSet<&str>) -> Vec<String> {
    struct Values<'d> {
        functions: &'d HashSet<&'d str>,
        found: Vec<String>,
    }
    impl<'ast> Visit<'ast> for Values<'_> {
        fn visit_expression(&mut self, e: &'ast Expression, span: &'ast lang_c::span::Span) {
            match e {
                Expression::Identifier(id) => {
                    let name = id.node.name.as_str();
                    if self.functions.contains(name) && !self.found.iter().any(|f| f == name) {
                        self.found.push(name.to_string());
                    }
                }
                Expression::Call(call)
                    if matches!(call.node.callee.node, Expression::Identifier(_)) =>
                {
                    for argument in &call.node.arguments {
                        self.visit_expression(&argument.node, &argument.span);
                    }
                }
                _ => lang_c::visit::visit_expression(self, e, span),
            }
        }
    }
    let mut values = Values {
        functions,
        found: Vec::new(),
    };
    values.visit_translation_unit(unit);
    values.found
}

impl FnCx<'_, '_> {
    /// Whether `name`, in the current scopes, designates a function used as a value.
    pub(super) fn names_function_value(&self, name: &str) -> bool {
        !self.is_visible(name) && self.unit.function_values.iter().any(|f| f == name)
    }

    /// The value of the function designator `name` (`f` or `&f` used as a value): its number,
    /// of the type of a pointer to it.
    pub(super) fn function_designator(
        &mut self,
        name: &str,
        at: usize,
    ) -> Result<(Operand, CType), CError> {
        let ty = self.function_type(name, at)?;
        let position = self.unit.function_values.iter().position(|f| f == name);
        let number = position.map_or(0, |p| p + 1);
        Ok((Operand::Const(number as i32), ty))
    }

    /// The type of a pointer to the defined function `name`: its parameter and result types as
    /// C declares them.
    fn function_type(&self, name: &str, at: usize) -> Result<CType, CError> {
        // Each call through a pointer asks for the type of every function value: computed once.
        if let Some(&ty) = self.unit.function_value_types.borrow().get(name) {
            return Ok(ty);
        }
        if name == "main" {
            return Err(CError::unsupported("the address of `main`", at));
        }
        let Some(&definition) = self.unit.bodies.get(name) else {
            return Err(CError::unsupported(
                format!("the address of `{name}`, which has no definition"),
                at,
            ));
        };
        let (_, params) = super::func::parameters(self.unit, definition)?;
        if params.iter().any(|p| p.array.is_some()) {
            return Err(CError::unsupported(
                format!("the address of `{name}`, which has array parameters"),
                at,
            ));
        }
        let result = super::func::result_type(self.unit, definition)?;
        let mut types = self.unit.types.borrow_mut();
        let params = params.iter().map(|p| types.erased(p.ty)).collect();
        let result = types.erased(result);
        let ty = types.function_pointer(params, result);
        (self.unit.function_value_types.borrow_mut()).insert(name.to_string(), ty);
        Ok(ty)
    }

    /// Whether `e` names a function (so that `&e` is `e`).
    pub(super) fn is_function_designator(&self, e: &Node<Expression>) -> bool {
        matches!(&e.node, Expression::Identifier(id) if self.names_function_value(&id.node.name))
    }

    /// Whether `e` is a function pointer or names a function (so that `*e` is `e`).
    pub(super) fn is_function_value(&self, e: &Node<Expression>) -> bool {
        self.is_function_designator(e) || matches!(self.static_type(e), Some(CType::Function(_)))
    }

    /// A call whose callee is an expression (a function pointer): a direct call of each
    /// function of the pointer's type, the one whose number the pointer holds.
    pub(super) fn call_through_pointer(
        &mut self,
        call: &CallExpression,
        span: Span,
        at: usize,
    ) -> Result<(Operand, CType), CError> {
        let (pointer, ty) = self.typed(&call.callee)?;
        let CType::Function(signature) = ty else {
            let described = self.unit.types.borrow().describe(ty);
            return Err(CError::invalid(
                format!("a call of a value of type `{described}`, which is not a function"),
                at,
            ));
        };
        let (params, result) = self.unit.types.borrow().signature(signature).clone();
        if call.arguments.len() != params.len() {
            return Err(CError::invalid(
                format!(
                    "the function pointer takes {} argument(s) but {} were given",
                    params.len(),
                    call.arguments.len()
                ),
                at,
            ));
        }
        let mut candidates = Vec::new();
        for (position, name) in self.unit.function_values.iter().enumerate() {
            if self.function_type(name, at).ok() == Some(ty) {
                candidates.push((position + 1, name.clone()));
            }
        }
        let value = (result != CType::Void).then(|| self.b.new_temp(span, result.width()));
        let join = self.b.new_block();
        for (number, name) in candidates {
            let (this, next) = (self.b.new_block(), self.b.new_block());
            let is_this = Rvalue::Binary(BinOp::Eq, pointer, Operand::Const(number as i32));
            let is_this = self.temp(is_this, span);
            self.b.branch(is_this, this, next, span);
            self.b.switch_to(this);
            let (returned, returned_ty) = self.named_call(&name, call, span, at)?;
            if let Some(value) = value {
                let returned = self.coerce(returned, returned_ty, result, span, at)?;
                self.assign(value, returned, span);
            }
            self.b.goto(join, span);
            self.b.switch_to(next);
        }
        // No function of this type has the number: null, or a value the program never made.
        let not_null = self.temp(Rvalue::Binary(BinOp::Ne, pointer, Operand::Const(0)), span);
        let kind = PropertyKind::NullDeref;
        self.check(
            Check::Condition {
                holds: not_null,
                kind,
            },
            span,
        );
        let kind = PropertyKind::InvalidPointer;
        self.check(
            Check::Condition {
                holds: Operand::Const(0),
                kind,
            },
            span,
        );
        self.b.emit(InstKind::Assume(Operand::Const(0)), span);
        if let Some(value) = value {
            // Never read (the path ended above), but assigned on every path into `join`.
            let zero = self.blank_value(result, true, span);
            self.assign(value, zero, span);
        }
        self.b.goto(join, span);
        self.b.switch_to(join);
        match value {
            Some(value) => Ok((Operand::Local(value), result)),
            None => Ok((Operand::Const(0), CType::Int)),
        }
    }
}
