//! Reading standard input, where the file does not define the functions: `scanf` of numbers
//! and characters, and `getchar`. What a run reads is symbolic input (`symex run --input`),
//! including whether the read succeeds, since a program that trusts its input is the kind of
//! program symex is for:
//!
//! * `scanf(format, p1, ..., pn)` first reads the count `k` it returns (an input, assumed
//!   within -1, C's `EOF`, and n); then each of the first `k` conversions (those with an
//!   argument) writes an input of its type through its pointer. A read that fails leaves the
//!   rest unassigned, so a later read of one is the `uninit` check, as in C.
//! * `getchar()` is an input within -1 (`EOF`) and 255.
//!
//! The format must be a string literal of integer and character conversions (`%d %i %u %x %o
//! %c` with `hh h l ll` lengths, `%*d` skipping, `%%`, other characters); `%s`, `%[`, floating
//! point, `%p` and `%n` are refused, and so is an argument whose pointee type is not the
//! conversion's.

use lang_c::ast::{CallExpression, Expression};
use symex_ir::cfg::{BinOp, InstKind, Operand, Rvalue};
use symex_syntax::span::Span;

use super::func::FnCx;
use super::types::CType;
use crate::error::CError;
use crate::DataModel;

/// C's `EOF`.
const EOF: i32 = -1;

/// The functions lowered here.
pub(super) const INPUT_FUNCTIONS: &[&str] = &["scanf", "getchar"];

/// One conversion of a `scanf` format: the type it writes, or `None` where `*` suppresses the
/// assignment.
fn conversions(format: &str, model: DataModel) -> Result<Vec<Option<CType>>, String> {
    let mut out = Vec::new();
    let mut chars = format.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '%' {
            continue;
        }
        if chars.peek() == Some(&'%') {
            chars.next();
            continue;
        }
        let suppressed = chars.peek() == Some(&'*');
        if suppressed {
            chars.next();
        }
        while chars.peek().is_some_and(char::is_ascii_digit) {
            chars.next();
        }
        let mut length = String::new();
        while let Some(&l) = chars.peek().filter(|l| "hlzjt".contains(**l)) {
            length.push(l);
            chars.next();
        }
        let conversion = chars.next().ok_or("a `%` at the end")?;
        let wide = |signed: CType, unsigned: CType| match model {
            DataModel::Lp64 => Some(if signed == CType::Long {
                signed
            } else {
                unsigned
            }),
            DataModel::Ilp32 => Some(if signed == CType::Long {
                CType::Int
            } else {
                CType::UInt
            }),
        };
        let ty = match (conversion, length.as_str()) {
            ('d' | 'i', "") => Some(CType::Int),
            ('d' | 'i', "hh") => Some(CType::SChar),
            ('d' | 'i', "h") => Some(CType::Short),
            ('d' | 'i', "l") => wide(CType::Long, CType::ULong),
            ('d' | 'i', "ll") => Some(CType::Long),
            ('u' | 'x' | 'X' | 'o', "") => Some(CType::UInt),
            ('u' | 'x' | 'X' | 'o', "hh") => Some(CType::UChar),
            ('u' | 'x' | 'X' | 'o', "h") => Some(CType::UShort),
            ('u' | 'x' | 'X' | 'o', "l" | "z") => wide(CType::ULong, CType::ULong),
            ('u' | 'x' | 'X' | 'o', "ll") => Some(CType::ULong),
            ('c', "") => Some(CType::SChar),
            (other, length) => {
                return Err(format!(
                    "the conversion `%{length}{other}` (numbers and single characters are read)"
                ))
            }
        };
        out.push(if suppressed { None } else { ty });
    }
    Ok(out)
}

impl FnCx<'_, '_> {
    /// A call of one of the [`INPUT_FUNCTIONS`] (the file does not define it).
    pub(super) fn input_function(
        &mut self,
        name: &str,
        call: &CallExpression,
        span: Span,
        at: usize,
    ) -> Result<(Operand, CType), CError> {
        match name {
            "getchar" => {
                if !call.arguments.is_empty() {
                    return Err(CError::invalid("`getchar` takes no arguments", at));
                }
                Ok((self.bounded_input(EOF, 255, span), CType::Int))
            }
            _ => self.scanf(call, span, at),
        }
    }

    /// An `int` input assumed within `low..=high`.
    fn bounded_input(&mut self, low: i32, high: i32, span: Span) -> Operand {
        let value = self.input(CType::Int, span);
        for within in [
            Rvalue::Binary(BinOp::Le, Operand::Const(low), value),
            Rvalue::Binary(BinOp::Le, value, Operand::Const(high)),
        ] {
            let within = self.temp(within, span);
            self.b.emit(InstKind::Assume(within), span);
        }
        value
    }

    /// `scanf(format, pointers...)` (see the module comment).
    fn scanf(
        &mut self,
        call: &CallExpression,
        span: Span,
        at: usize,
    ) -> Result<(Operand, CType), CError> {
        let Some((format, pointers)) = call.arguments.split_first() else {
            return Err(CError::invalid("`scanf` without a format", at));
        };
        let Expression::StringLiteral(literal) = &format.node else {
            return Err(CError::unsupported(
                "`scanf` with a format that is not a string literal",
                at,
            ));
        };
        let text: String = literal.node.concat();
        let conversions = conversions(&text, self.unit.options.data_model)
            .map_err(|why| CError::unsupported(format!("`scanf` with {why}"), at))?;
        let assigned: Vec<CType> = conversions.into_iter().flatten().collect();
        if assigned.len() != pointers.len() {
            return Err(CError::invalid(
                format!(
                    "`scanf`'s format assigns {} value(s) but {} pointer(s) were given",
                    assigned.len(),
                    pointers.len()
                ),
                at,
            ));
        }
        let mut targets = Vec::with_capacity(pointers.len());
        for (pointer, &ty) in pointers.iter().zip(&assigned) {
            let (_, pointer_ty, target) = self.memory_target("scanf", pointer)?;
            let matches = {
                let mut types = self.unit.types.borrow_mut();
                types.erased(target.ty()) == types.erased(ty)
            };
            if !matches {
                let types = self.unit.types.borrow();
                return Err(CError::unsupported(
                    format!(
                        "`scanf` of a `{}` into a `{}` (C leaves a conversion into another type \
                         undefined)",
                        types.describe(ty),
                        types.describe(pointer_ty)
                    ),
                    self.at(pointer.span),
                ));
            }
            targets.push(target);
        }
        let count = self.bounded_input(EOF, targets.len() as i32, span);
        for (j, target) in targets.into_iter().enumerate() {
            let (read, next) = (self.b.new_block(), self.b.new_block());
            let reached = Rvalue::Binary(BinOp::Lt, Operand::Const(j as i32), count);
            let reached = self.temp(reached, span);
            self.b.branch(reached, read, next, span);
            self.b.switch_to(read);
            let value = self.input(target.ty(), span);
            let memory = self.target_memory(target, span);
            self.write_memory(&memory, target.ty(), value, false, span);
            self.b.goto(next, span);
            self.b.switch_to(next);
        }
        Ok((count, CType::Int))
    }
}
