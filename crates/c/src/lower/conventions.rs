//! The functions by which verification tools' users write inputs, assumptions and assertions,
//! where the file does not define them:
//!
//! * SV-COMP: `__VERIFIER_nondet_<type>()` (an input of that type; `_pointer`, an address
//!   followed only where it is null), `__VERIFIER_assume(c)`;
//! * CBMC: `nondet_<type>()`, `__CPROVER_assume(c)`, `__CPROVER_assert(c, message)`;
//! * KLEE: `klee_make_symbolic(p, size, name)` (every integer of the objects `p` points to an
//!   input, as `memset` walks them: `lower/library.rs`), `klee_int(name)`,
//!   `klee_range(low, high, name)` (an input in `low..high`), `klee_assume(c)`,
//!   `klee_assert(c)`;
//! * C itself: `assert(c)` in a file without `<assert.h>` (whose macro it would be): a failing
//!   one is a call of `__assert_fail`, as with the header (`FnCx::fail_error_call`).
//!
//! An input is the next symbolic input of `symex run --input` (32-bit numbers; a 64-bit type
//! reads two, the high half first), converted to the type. An assumption ends the runs where
//! it is false; an assertion is an `assert` check. Names, messages and the types of other
//! `nondet` functions are not guessed: an unknown input type is refused.

use lang_c::ast::CallExpression;
use symex_ir::cfg::{BinOp, Check, InstKind, Operand, PropertyKind, Rvalue, UnOp, Width};
use symex_syntax::span::Span;

use super::func::FnCx;
use super::types::{size_type, CType};
use crate::error::CError;
use crate::DataModel;

/// The type of the input the function `name` returns, by its suffix after
/// `__VERIFIER_nondet_` (SV-COMP) or `nondet_` (CBMC): SV-COMP's names, the fixed-width ones
/// (`u8` … `u64`, `s8` … `s64`, `loff_t`, `ssize_t`) and the spelled-out ones some tasks
/// declare (`unsigned_int`, `unsigned_long`, `long_long`);
/// `Err` for such a name of a type symex does not model, `None` for other names.
fn input_type(name: &str, model: DataModel) -> Option<Result<CType, ()>> {
    let suffix =
        (name.strip_prefix("__VERIFIER_nondet_")).or_else(|| name.strip_prefix("nondet_"))?;
    let ilp32 = model == DataModel::Ilp32;
    Some(Ok(match suffix {
        "int" | "s32" => CType::Int,
        "uint" | "unsigned" | "unsigned_int" | "u32" => CType::UInt,
        "char" | "s8" => CType::SChar,
        "uchar" | "unsigned_char" | "u8" => CType::UChar,
        "short" | "s16" => CType::Short,
        "ushort" | "unsigned_short" | "u16" => CType::UShort,
        "bool" | "_Bool" => CType::Bool,
        "long" | "ssize_t" if ilp32 => CType::Int,
        "ulong" | "unsigned_long" | "size_t" if ilp32 => CType::UInt,
        "long" | "ssize_t" | "longlong" | "long_long" | "s64" | "loff_t" => CType::Long,
        "ulong" | "unsigned_long" | "size_t" | "ulonglong" | "unsigned_long_long" | "u64" => {
            CType::ULong
        }
        _ => return Some(Err(())),
    }))
}

/// [`input_type`] as the crate's users see it (`symex_c::input_type`).
pub(crate) fn public_input_type(name: &str, model: DataModel) -> Option<crate::InputType> {
    if is_nondet_pointer(name) {
        // An address, read as a `size_t` (`convention_call`).
        return Some(size_type(model).input_type());
    }
    Some(input_type(name, model)?.ok()?.input_type())
}

/// Whether `name` is the input function of an arbitrary address.
fn is_nondet_pointer(name: &str) -> bool {
    matches!(name, "__VERIFIER_nondet_pointer" | "nondet_pointer")
}

impl FnCx<'_, '_> {
    /// `name(arguments)` if `name` is one of the conventions' functions (see the module
    /// comment) and the file does not define it: its value and type.
    pub(super) fn convention_call(
        &mut self,
        name: &str,
        call: &CallExpression,
        span: Span,
        at: usize,
    ) -> Result<Option<(Operand, CType)>, CError> {
        if self.unit.bodies.contains_key(name) {
            return Ok(None);
        }
        let arguments = &call.arguments;
        let arity = |expected: usize| super::expr::arity(name, call, expected, at);
        let nothing = (Operand::Const(0), CType::Int);
        if is_nondet_pointer(name) {
            // SV-COMP never settled whether a non-null one points to memory (sv-benchmarks
            // issue 767; the function left its rules): only the null address is followed, any
            // other stops the run `unmodelled`, so no answer depends on either reading.
            arity(0)?;
            let address = self.size_t();
            let value = self.input(address, span);
            let zero = address.constant(0);
            let holds = self.temp(Rvalue::Binary(BinOp::Eq, value, zero), span);
            self.unmodelled_cause(
                span,
                "a non-null `__VERIFIER_nondet_pointer()`, which may or may not point to memory",
            );
            let kind = PropertyKind::Unmodelled;
            self.check(Check::Condition { holds, kind }, span);
            let ty = self.unit.types.borrow_mut().pointer_to(CType::Void);
            return Ok(Some((Operand::Null, ty)));
        }
        if let Some(ty) = input_type(name, self.unit.options.data_model) {
            let Ok(ty) = ty else {
                return Err(CError::unsupported(
                    format!("`{name}` (an input of a type symex does not model)"),
                    at,
                ));
            };
            arity(0)?;
            return Ok(Some((self.input(ty, span), ty)));
        }
        match name {
            "__VERIFIER_assume" | "__CPROVER_assume" | "klee_assume" => {
                arity(1)?;
                let condition = self.condition(&arguments[0], span)?;
                self.b.emit(InstKind::Assume(condition), span);
                Ok(Some(nothing))
            }
            "__CPROVER_assert" | "klee_assert" => {
                arity(if name == "klee_assert" { 1 } else { 2 })?;
                let condition = self.condition(&arguments[0], span)?;
                self.check(Check::Assert(condition), span);
                Ok(Some(nothing))
            }
            "assert" => {
                // `<assert.h>`'s macro, called in a file that left the header out (a C
                // compiler would find no such function; CBMC reads it as the macro, and so do
                // SV-COMP's ground truths): a failing one calls `__assert_fail`.
                arity(1)?;
                let (holds, fails) = (self.b.new_block(), self.b.new_block());
                self.branch(&arguments[0], holds, fails)?;
                self.b.switch_to(fails);
                self.fail_error_call(span);
                self.b.goto(holds, span);
                self.b.switch_to(holds);
                Ok(Some((Operand::Const(0), CType::Void)))
            }
            "klee_int" => {
                arity(1)?;
                Ok(Some((self.input(CType::Int, span), CType::Int)))
            }
            "klee_range" => {
                arity(3)?;
                let [low, high] = [&arguments[0], &arguments[1]].map(|bound| {
                    self.typed(bound)
                        .map(|(value, ty)| self.convert_number(value, ty, CType::Int, span))
                });
                let (low, high) = (low?, high?);
                let value = self.input(CType::Int, span);
                for in_range in [
                    Rvalue::Binary(BinOp::Le, low, value),
                    Rvalue::Binary(BinOp::Lt, value, high),
                ] {
                    let in_range = self.temp(in_range, span);
                    self.b.emit(InstKind::Assume(in_range), span);
                }
                Ok(Some((value, CType::Int)))
            }
            "klee_make_symbolic" => {
                arity(3)?;
                self.make_symbolic(call, span, at)?;
                Ok(Some(nothing))
            }
            _ => Ok(None),
        }
    }

    /// The truth of the condition `e` (a number or a pointer).
    fn condition(
        &mut self,
        e: &lang_c::span::Node<lang_c::ast::Expression>,
        span: Span,
    ) -> Result<Operand, CError> {
        let (value, ty) = self.typed(e)?;
        self.truth(value, ty, span, self.at(e.span))
    }

    /// The next input as a value of the integer type `ty`.
    pub(super) fn input(&mut self, ty: CType, span: Span) -> Operand {
        let input = |cx: &mut Self| {
            let dst = cx.b.new_temp(span, Width::W32);
            cx.b.emit(InstKind::Input { dst }, span);
            Operand::Local(dst)
        };
        match ty.width() {
            Width::W32 => {
                let raw = input(self);
                self.convert(raw, ty, span)
            }
            // Two inputs, the high half first: every 64-bit number is one pair.
            Width::W64 => {
                let (high, low) = (input(self), input(self));
                let high = self.temp(Rvalue::Unary(UnOp::ZeroExtend, high), span);
                let high = self.temp(Rvalue::Binary(BinOp::Shl, high, Operand::Const64(32)), span);
                let low = self.temp(Rvalue::Unary(UnOp::ZeroExtend, low), span);
                self.temp(Rvalue::Binary(BinOp::BitOr, high, low), span)
            }
        }
    }

    /// `klee_make_symbolic(pointer, size, name)`: every integer of the objects of the size
    /// from `pointer` on becomes an input, object by object, leaf by leaf.
    fn make_symbolic(
        &mut self,
        call: &CallExpression,
        span: Span,
        at: usize,
    ) -> Result<(), CError> {
        const NAME: &str = "klee_make_symbolic";
        let (_, _, target) = self.memory_target(NAME, &call.arguments[0])?;
        let ty = target.ty();
        let leaves = self.unit.types.borrow().leaves(ty);
        if !leaves.iter().all(|(_, leaf)| leaf.is_number()) {
            return Err(CError::unsupported(
                format!("`{NAME}` of objects with pointers or arrays inside"),
                at,
            ));
        }
        let count = self.object_count(&call.arguments[1], ty, span)?;
        self.for_each_object(count, &[target], false, span, |cx, memory| {
            let values: Vec<Operand> = leaves
                .iter()
                .map(|&(_, leaf)| cx.input(leaf, span))
                .collect();
            let value = match ty {
                CType::Struct(_) => cx.object_of(ty, &values, span),
                _ => values[0],
            };
            cx.write_memory(&memory[0], ty, value, false, span);
        });
        Ok(())
    }
}
