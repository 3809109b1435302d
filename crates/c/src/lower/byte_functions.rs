//! `memcpy`, `memmove` and `memset` byte by byte, through views
//! (`lower/views.rs`): a copy between objects of different integer or struct-of-integer types
//! (`memcpy(&x, buf, 4)` of a `char` buffer into an `int`, `memcpy(buf, &s, sizeof s)`,
//! `unsigned` into `int`), and either function through a view. `lower/library.rs` copies and sets whole objects of one type;
//! it hands these cases here.
//!
//! Both pointers are seen as views of their objects and the bytes go one by one in a loop, each
//! access checked as a view's is (bounds, `null-deref`, heap state). A source byte of an object
//! never assigned stops the run `unmodelled` (C copies indeterminate bytes; symex would have to
//! invent them); a destination object never assigned may be written only from its first byte
//! on by a copy that writes all of its bytes (else `unmodelled`: the other bytes would stay
//! indeterminate). Overlapping `memcpy` is `unmodelled` as in `lower/library.rs`; `memmove`
//! copies from the last byte down where the destination lies after the source in one cell.

use lang_c::ast::Expression;
use lang_c::span::Node;
use symex_ir::cfg::{BinOp, Operand, PropertyKind, Rvalue};
use symex_syntax::span::Span;

use super::func::FnCx;
use super::types::{CType, View};
use super::view_access::ByteLValue;
use crate::error::CError;

/// A pointer seen as a view of its objects' bytes: its value, type and view.
type Bytes = (Operand, CType, View);

impl FnCx<'_, '_> {
    /// Whether a copy from a pointer of type `from` to one of type `to` goes byte by byte:
    /// either is a view, or they point to integers of different types.
    pub(super) fn copies_bytes(&self, to: CType, from: CType) -> bool {
        if self.is_view(to) || self.is_view(from) {
            return true;
        }
        let viewable = |ty: CType| match ty {
            CType::Pointer(p) | CType::Element(p) => {
                let pointee = self.pointee(p);
                self.viewable(pointee).then_some(pointee)
            }
            _ => None,
        };
        matches!((viewable(to), viewable(from)), (Some(a), Some(b)) if a != b)
    }

    /// The pointer `(value, ty)`, an argument of `name`, as a view of its objects' bytes.
    pub(super) fn bytes_of(
        &mut self,
        name: &str,
        (value, ty): (Operand, CType),
        span: Span,
        at: usize,
    ) -> Result<Bytes, CError> {
        let viewed = self.unit.types.borrow().view_of(ty);
        let (value, ty) = match ty {
            // A view of any unit, as bytes (its index counts bytes already).
            _ if let Some(view) = viewed => {
                let view = View {
                    unit: CType::UChar,
                    ..view
                };
                (value, self.unit.types.borrow_mut().view_pointer(view))
            }
            CType::Pointer(p) | CType::Element(p) if self.viewable(self.pointee(p)) => {
                self.view_of_objects((value, ty), CType::UChar, span)
            }
            _ => return Err(self.byte_refusal(name, ty, at)),
        };
        let view = self.unit.types.borrow().view_of(ty);
        let view = view.ok_or_else(|| self.byte_refusal(name, ty, at))?;
        Ok((value, ty, view))
    }

    fn byte_refusal(&self, name: &str, ty: CType, at: usize) -> CError {
        let described = self.unit.types.borrow().describe(ty);
        CError::unsupported(
            format!(
                "`{name}` byte by byte through a `{described}` (the bytes of integers and of \
                 structs of integers, `_Bool`s and pointers are modelled, a pointer's bytes \
                 stopping the run; not those of pointers themselves or other structs)"
            ),
            at,
        )
    }

    /// The number of bytes `size` says, as a 32-bit count (`unmodelled` beyond `int`).
    pub(super) fn byte_count(
        &mut self,
        size: &Node<Expression>,
        span: Span,
    ) -> Result<Operand, CError> {
        let (bytes, ty) = self.typed(size)?;
        if !ty.is_number() {
            let at = self.at(size.span);
            return Err(CError::invalid("a size that is not a number", at));
        }
        let size_t = self.size_t();
        let bytes = self.convert_number(bytes, ty, size_t, span);
        let cause = "a size of more than 2^31 bytes";
        Ok(self.unmodelled_index(bytes, size_t, cause, span))
    }

    /// `memset(destination, byte, size)` byte by byte through the view `destination`.
    pub(super) fn set_bytes(
        &mut self,
        name: &str,
        destination: (Operand, CType),
        byte: Operand,
        size: &Node<Expression>,
        span: Span,
        at: usize,
    ) -> Result<(), CError> {
        let to = self.bytes_of(name, destination, span, at)?;
        let count = self.byte_count(size, span)?;
        self.each_below(count, false, span, |cx, k| {
            let left = cx.temp(Rvalue::Binary(BinOp::Sub, count, k), span);
            let byte_at = cx.byte_at(to, k, span);
            cx.guard_first_byte(&byte_at, span);
            cx.store_byte(&byte_at, byte, Some(left), span);
        });
        Ok(())
    }

    /// `memcpy(destination, source, size)` (and, `overlapping`, `memmove`) byte by byte.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn copy_bytes(
        &mut self,
        name: &str,
        destination: (Operand, CType),
        source: (Operand, CType),
        size: &Node<Expression>,
        overlapping: bool,
        span: Span,
        at: usize,
    ) -> Result<(), CError> {
        let to = self.bytes_of(name, destination, span, at)?;
        let from = self.bytes_of(name, source, span, at)?;
        let count = self.byte_count(size, span)?;
        self.copy_in_order((to.0, from.0), count, overlapping, span, |cx, reversed| {
            cx.copy_byte_loop((to, from), count, reversed, span)
        });
        Ok(())
    }

    /// Copies `count` bytes from `from` to `to`, from the last down where `reversed`.
    fn copy_byte_loop(
        &mut self,
        (to, from): (Bytes, Bytes),
        count: Operand,
        reversed: bool,
        span: Span,
    ) {
        let cause = "a byte copied from an integer never assigned, or into one that the copy \
                     does not fill from its first byte";
        self.unmodelled_cause(span, cause);
        self.each_below(count, reversed, span, |cx, k| {
            let source = cx.byte_at(from, k, span);
            let value = cx.load_byte(&source, PropertyKind::Unmodelled, span);
            // Backwards, an object's first byte comes last: no object is filled whole.
            let left = match reversed {
                true => Operand::Const(0),
                false => cx.temp(Rvalue::Binary(BinOp::Sub, count, k), span),
            };
            let target = cx.byte_at(to, k, span);
            cx.guard_first_byte(&target, span);
            cx.store_byte(&target, value, Some(left), span);
        });
    }

    /// The byte `k` bytes after the one the view `bytes` points at.
    fn byte_at(&mut self, (value, ty, view): Bytes, k: Operand, span: Span) -> ByteLValue {
        self.byte_lvalue((value, ty), view, Some((k, CType::Int)), span)
    }
}
