//! The C library functions over memory that symex lowers into the loops they are: `memset`,
//! `memcpy` and `memmove` here, the string functions and `memcmp` in `lower/strings.rs` (and
//! their `__builtin_` names), where the file does not define them.
//!
//! Memory is objects of C types here, not bytes (`lower/memory.rs`), so the functions work on
//! whole objects of the type their pointer argument has: `memset(p, c, n)` and
//! `memcpy(p, q, n)` with `p` (and `q`) of type `T *` write `n / sizeof(T)` objects of type
//! `T`, one after another through a pointer into an array (the next elements, each one
//! checked against the array's bounds: `out-of-bounds`, SV-COMP's `valid-deref`) or the one
//! object a pointer to a whole object points to. A size that is not a whole number of objects,
//! or more than one object through a pointer to a whole object (its neighbours in memory are
//! not modelled), stops the run at an `unmodelled` check: `unknown`, never a guess.
//!
//! * `memset` writes the byte `c` into every byte: the value of an integer object whose bytes
//!   are all `c`. For objects with pointers or arrays inside only `c == 0` (null, 0) is
//!   modelled; another byte is refused where it is a constant and stops the run `unmodelled`
//!   where it is not.
//! * `memcpy` copies objects as a struct assignment does, indeterminate parts included (their
//!   assigned flags are copied: reading them later is the `uninit` check, not the copy).
//!   Overlapping arrays are copied element by element from the first (C leaves them
//!   undefined).
//!   `memmove` copies from the last object down where the destination lies after the source
//!   in one array.
//!
//! Copies between integers of different types, and either function through a character
//! view, go byte by byte (`lower/byte_functions.rs`). `void *` arguments, whose objects' type
//! only the run knows, are refused (the caller's pointer of its own type works).

use lang_c::ast::{CallExpression, Expression};
use lang_c::span::Node;
use symex_ir::cfg::{BinOp, Check, Operand, PlaceBase, PropertyKind, Rvalue, UnOp, Width};
use symex_syntax::span::Span;

use super::func::FnCx;
use super::memory::{leaf_fields, Memory, BYTES_FIELD};
use super::types::CType;
use crate::error::CError;

/// The functions lowered here, by the names a program calls them.
pub(super) const MEMORY_FUNCTIONS: &[&str] = &[
    "memset",
    "memcpy",
    "memmove",
    "strlen",
    "strchr",
    "strrchr",
    "strstr",
    "memchr",
    "strcpy",
    "strcmp",
    "strcat",
    "strncpy",
    "strncmp",
    "memcmp",
    "__builtin_memset",
    "__builtin_memcpy",
    "__builtin_memmove",
    "__builtin_strlen",
    "__builtin_strchr",
    "__builtin_strrchr",
    "__builtin_strstr",
    "__builtin_memchr",
    "__builtin_strcpy",
    "__builtin_strcmp",
    "__builtin_strcat",
    "__builtin_strncpy",
    "__builtin_strncmp",
    "__builtin_memcmp",
];

/// The library function a name calls (without `__builtin_`) and its number of arguments.
pub(super) fn memory_function(name: &str) -> (&str, usize) {
    let function = name.trim_start_matches("__builtin_");
    let arguments = match function {
        "strlen" => 1,
        "strcpy" | "strcmp" | "strcat" | "strchr" | "strrchr" | "strstr" => 2,
        _ => 3,
    };
    (function, arguments)
}

/// Whether the memory function `name` (a [`MEMORY_FUNCTIONS`] name) takes pointers into
/// arrays of characters: the string functions and `memchr`.
pub(super) fn reads_characters(name: &str) -> bool {
    let function = memory_function(name).0;
    function.starts_with("str") || function == "memchr"
}

/// The positions of the memory function `name`'s pointer arguments.
pub(super) fn pointer_arguments(name: &str) -> std::ops::Range<usize> {
    match memory_function(name) {
        ("strchr" | "strrchr" | "memchr", _) => 0..1,
        (_, arguments) => 0..arguments.min(2),
    }
}

/// Whether the value of the memory function `name` points into its first argument's array
/// (the copies return their destination, the searches where they found something).
pub(super) fn returns_into_first_argument(name: &str) -> bool {
    matches!(
        memory_function(name).0,
        "strchr" | "strrchr" | "strstr" | "memchr" | "strcpy" | "strcat" | "strncpy"
    )
}

/// Where a memory function writes or reads: the object a pointer to a whole object points to,
/// or the elements from the one a pointer into an array points to; of type `ty`.
#[derive(Clone, Copy)]
pub(super) enum Target {
    Object(Operand, CType),
    Elements(Operand, CType),
}

impl Target {
    pub(super) fn ty(self) -> CType {
        match self {
            Target::Object(_, ty) | Target::Elements(_, ty) => ty,
        }
    }
}

impl FnCx<'_, '_> {
    /// A call of one of the [`MEMORY_FUNCTIONS`] (its arity checked).
    pub(super) fn memory_function(
        &mut self,
        name: &str,
        call: &CallExpression,
        span: Span,
        at: usize,
    ) -> Result<(Operand, CType), CError> {
        let arguments = &call.arguments;
        match memory_function(name).0 {
            "memset" => self.memset(name, arguments, span, at),
            "memcpy" => self.copy(name, arguments, false, span, at),
            "memmove" => self.copy(name, arguments, true, span, at),
            "strcpy" => self.strcpy(name, arguments, false, span, at),
            "strcat" => self.strcpy(name, arguments, true, span, at),
            "strchr" => self.strchr(name, arguments, false, span, at),
            "strrchr" => self.strchr(name, arguments, true, span, at),
            "strstr" => self.strstr(name, arguments, span, at),
            "memchr" => self.memchr(name, arguments, span, at),
            "strncpy" => self.strncpy(name, arguments, span, at),
            "strcmp" => self.strcmp(name, arguments, None, span, at),
            "strncmp" => self.strcmp(name, arguments, Some(&arguments[2]), span, at),
            "memcmp" => self.memcmp(name, arguments, span),
            _ => self.strlen(name, &arguments[0], span, at),
        }
    }

    /// The argument `argument` of `name` that C passes as an `int` (`what` it is: a byte, a
    /// character), converted to one; anything but a number is refused.
    pub(super) fn int_argument(
        &mut self,
        name: &str,
        argument: &Node<Expression>,
        what: &str,
        span: Span,
        at: usize,
    ) -> Result<Operand, CError> {
        let (value, ty) = self.typed(argument)?;
        if !ty.is_number() {
            return Err(CError::invalid(
                format!("`{name}` of a {what} that is not a number"),
                at,
            ));
        }
        Ok(self.convert_number(value, ty, CType::Int, span))
    }

    /// `memset(destination, byte, size)`; its value is `destination`.
    fn memset(
        &mut self,
        name: &str,
        arguments: &[Node<Expression>],
        span: Span,
        at: usize,
    ) -> Result<(Operand, CType), CError> {
        let (pointer, pointer_ty) = self.memory_operand(&arguments[0])?;
        let byte = self.int_argument(name, &arguments[1], "byte", span, at)?;
        if self.is_view(pointer_ty) {
            let size = &arguments[2];
            self.set_bytes(name, (pointer, pointer_ty), byte, size, span, at)?;
            return Ok((pointer, pointer_ty));
        }
        let target = match (self.allocator_object, pointer_ty) {
            // In an allocator inlined for a `T *` (`void *p = malloc(n); return memset(p, 0,
            // n);`), the `void *` is converted to `T *` as the caller's conversion makes it,
            // with that conversion's check that the object is a `T`.
            (Some(object), CType::Pointer(p)) if self.pointee(p) == CType::Void => {
                let typed = self.unit.types.borrow_mut().pointer_to(object);
                let converted = self.coerce(pointer, pointer_ty, typed, span, at)?;
                self.target(name, (converted, typed), at)?
            }
            _ => self.target(name, (pointer, pointer_ty), at)?,
        };
        let ty = target.ty();
        if let (Target::Object(object, _), true) = (target, self.is_opaque(ty)) {
            self.set_opaque_bytes(object, &arguments[2], span)?;
            return Ok((pointer, pointer_ty));
        }
        let value = self.filled_object(name, ty, byte, span, at)?;
        let count = self.object_count(&arguments[2], ty, span)?;
        self.for_each_object(count, &[target], false, span, |cx, memory| {
            cx.write_memory(&memory[0], ty, value, false, span);
        });
        Ok((pointer, pointer_ty))
    }

    /// `memset` of `size` bytes of the opaque object `object` points to (`FnCx::is_opaque`):
    /// nothing C can read back, so only the checks that the object is there (not null, not
    /// freed) and that the bytes lie within it.
    fn set_opaque_bytes(
        &mut self,
        object: Operand,
        size: &Node<Expression>,
        span: Span,
    ) -> Result<(), CError> {
        let (size, size_ty) = self.subscript(size)?;
        let cause = "a `memset` of more bytes than `int` holds";
        let size = self.unmodelled_index(size, size_ty, cause, span);
        let memory = self.object_memory(object);
        self.guard(&memory, span);
        let made = self.read_field(PlaceBase::Deref(object), BYTES_FIELD, Width::W32, span);
        let within = self.temp(Rvalue::Binary(BinOp::Le, size, made), span);
        let kind = PropertyKind::OutOfBounds;
        self.check(
            Check::Condition {
                holds: within,
                kind,
            },
            span,
        );
        Ok(())
    }

    /// `memcpy(destination, source, size)` and, `overlapping`, `memmove`: its value is
    /// `destination`. `memmove` copies from the last object where the destination lies after
    /// the source in one array, so each object is read before it is overwritten.
    fn copy(
        &mut self,
        name: &str,
        arguments: &[Node<Expression>],
        overlapping: bool,
        span: Span,
        at: usize,
    ) -> Result<(Operand, CType), CError> {
        // Two unions of one type are copied whole (every byte's flag, pointer members too);
        // a union and other memory, byte by byte.
        let destination = self.typed(&arguments[0])?;
        let source = self.typed(&arguments[1])?;
        let whole_unions = destination.1 == source.1
            && matches!(destination.1, CType::Pointer(p) if self.is_union(self.pointee(p)));
        let ((pointer, pointer_ty), source) = match whole_unions {
            true => (destination, source),
            false => (
                self.as_memory_operand(destination, span),
                self.as_memory_operand(source, span),
            ),
        };
        if self.copies_bytes(pointer_ty, source.1) {
            let size = &arguments[2];
            self.copy_bytes(
                name,
                (pointer, pointer_ty),
                source,
                size,
                overlapping,
                span,
                at,
            )?;
            return Ok((pointer, pointer_ty));
        }
        let to = self.target(name, (pointer, pointer_ty), at)?;
        let from = self.target(name, source, self.at(arguments[1].span))?;
        let ty = to.ty();
        let same = {
            let mut types = self.unit.types.borrow_mut();
            types.erased(ty) == types.erased(from.ty())
        };
        if !same {
            return Err(CError::unsupported(
                format!("`{name}` between objects of different types (memory is not bytes here)"),
                at,
            ));
        }
        if matches!(ty, CType::Element(_)) {
            return Err(CError::unsupported(
                format!("`{name}` of pointers into arrays kept in memory"),
                at,
            ));
        }
        let count = self.object_count(&arguments[2], ty, span)?;
        let copy = |cx: &mut Self, memory: Vec<Memory>| {
            cx.copy_object(&memory[0], &memory[1], ty, span);
        };
        let (Target::Elements(to_pointer, _), Target::Elements(from_pointer, _)) = (to, from)
        else {
            self.for_each_object(count, &[from, to], false, span, copy);
            return Ok((pointer, pointer_ty));
        };
        self.copy_in_order(
            (to_pointer, from_pointer),
            count,
            overlapping,
            span,
            |cx, reversed| cx.for_each_object(count, &[from, to], reversed, span, copy),
        );
        Ok((pointer, pointer_ty))
    }

    /// Runs `copy` (given whether to go from the last unit down) for a copy of `count` units
    /// from the pointer `from` to `to` into arrays (element pointers or views): `memcpy`
    /// (not `overlapping`) of overlapping units is undefined in C, so the run stops
    /// `unmodelled` there; `memmove` copies from the last unit down where the destination
    /// starts after the source in one array, so each unit is read before it is overwritten.
    pub(super) fn copy_in_order(
        &mut self,
        (to, from): (Operand, Operand),
        count: Operand,
        overlapping: bool,
        span: Span,
        mut copy: impl FnMut(&mut Self, bool),
    ) {
        let [to_cell, to_index] = self.element_parts(to, span);
        let [from_cell, from_index] = self.element_parts(from, span);
        let same_array = self.temp(Rvalue::Binary(BinOp::Eq, to_cell, from_cell), span);
        if !overlapping {
            let distance = self.temp(Rvalue::Binary(BinOp::Sub, to_index, from_index), span);
            let negated = self.temp(Rvalue::Unary(UnOp::Neg, distance), span);
            let [apart, apart_back] =
                [distance, negated].map(|d| self.temp(Rvalue::Binary(BinOp::Ge, d, count), span));
            let apart = self.temp(Rvalue::Binary(BinOp::BitOr, apart, apart_back), span);
            let other_array = self.temp(Rvalue::Unary(UnOp::Not, same_array), span);
            let holds = self.temp(Rvalue::Binary(BinOp::BitOr, other_array, apart), span);
            self.unmodelled_cause(span, "a copy between overlapping objects");
            let kind = PropertyKind::Unmodelled;
            self.check(Check::Condition { holds, kind }, span);
            copy(self, false);
            return;
        }
        let after = self.temp(Rvalue::Binary(BinOp::Gt, to_index, from_index), span);
        let backwards = self.temp(Rvalue::Binary(BinOp::BitAnd, same_array, after), span);
        let (last_first, first_first, join) =
            (self.b.new_block(), self.b.new_block(), self.b.new_block());
        self.b.branch(backwards, last_first, first_first, span);
        for (block, reversed) in [(last_first, true), (first_first, false)] {
            self.b.switch_to(block);
            copy(self, reversed);
            self.b.goto(join, span);
        }
        self.b.switch_to(join);
    }

    /// Copies the object of type `ty` at `source` into `destination`, as it is (a scalar's
    /// assigned flag too).
    fn copy_object(&mut self, source: &Memory, destination: &Memory, ty: CType, span: Span) {
        if ty.is_scalar() {
            // The value and whether it is assigned, as they are.
            self.guard(source, span);
            let (value_field, flag_field) = leaf_fields(&source.prefix);
            let [value, flag] =
                [(value_field, ty.width()), (flag_field, Width::W32)].map(|(field, width)| {
                    let read = Rvalue::Read(source.field(self.field_id(&field)));
                    Operand::Local(self.b.assign_temp_of(read, width, span))
                });
            // Assigned or not: a string literal's character is assigned and read-only, its
            // copy only assigned.
            let assigned = self.temp(Rvalue::Binary(BinOp::Ne, flag, Operand::Const(0)), span);
            self.write_memory_flagged(destination, ty, (value, assigned), false, span);
        } else {
            let value = self.read_memory(source, ty, false, span);
            self.write_memory(destination, ty, value, false, span);
        }
    }

    /// The pointer argument `argument` of `name`, its type and where it points.
    pub(super) fn memory_target(
        &mut self,
        name: &str,
        argument: &Node<Expression>,
    ) -> Result<(Operand, CType, Target), CError> {
        let at = self.at(argument.span);
        let (pointer, ty) = self.memory_operand(argument)?;
        let target = self.target(name, (pointer, ty), at)?;
        Ok((pointer, ty, target))
    }

    /// The value of the pointer argument `e` of a function over memory, which C converts to
    /// `void *`: a pointer to arrays (an array of several dimensions as a value, `&a`) is a
    /// pointer to their first element, whose bytes are the arrays' (the same element pointer,
    /// as a cast between them keeps it).
    pub(super) fn memory_operand(
        &mut self,
        e: &Node<Expression>,
    ) -> Result<(Operand, CType), CError> {
        let value = self.typed(e)?;
        Ok(self.as_memory_operand(value, self.span(e.span)))
    }

    /// [`FnCx::memory_operand`] of the pointer `pointer` of type `ty`, evaluated.
    fn as_memory_operand(
        &mut self,
        (pointer, ty): (Operand, CType),
        span: Span,
    ) -> (Operand, CType) {
        // A union's bytes (`lower/unions.rs`).
        if let Some(bytes) = self.union_bytes_pointer((pointer, ty), CType::UChar, span) {
            return bytes;
        }
        let CType::Element(p) = ty else {
            return (pointer, ty);
        };
        let mut types = self.unit.types.borrow_mut();
        let element = types.flattened(types.pointee(p));
        (pointer, types.element_pointer_to(element))
    }

    /// Where the pointer argument `pointer` of type `ty` of `name` points.
    fn target(
        &mut self,
        name: &str,
        (pointer, ty): (Operand, CType),
        at: usize,
    ) -> Result<Target, CError> {
        let target = match ty {
            CType::Pointer(p) => Target::Object(pointer, self.pointee(p)),
            CType::Element(p) => Target::Elements(pointer, self.pointee(p)),
            _ => {
                return Err(CError::invalid(
                    format!("`{name}` of an argument that is not a pointer"),
                    at,
                ))
            }
        };
        let pointee = target.ty();
        // An opaque object's bytes are only counted (`FnCx::set_opaque_bytes`).
        let opaque = self.is_opaque(pointee) && memory_function(name).0 != "memset";
        let modelled = !opaque && (pointee.is_scalar() || matches!(pointee, CType::Struct(_)));
        if !modelled {
            let described = self.unit.types.borrow().describe(ty);
            return Err(CError::unsupported(
                format!(
                    "`{name}` through a `{described}` (symex needs the type of the objects: \
                     memory is objects of C types, not bytes)"
                ),
                at,
            ));
        }
        Ok(target)
    }

    /// The number of objects of type `ty` in `size` bytes (a 32-bit count): the `unmodelled`
    /// check that it is a whole number of them.
    pub(super) fn object_count(
        &mut self,
        size: &Node<Expression>,
        ty: CType,
        span: Span,
    ) -> Result<Operand, CError> {
        let size_t = self.size_t();
        let (bytes, bytes_ty) = self.typed(size)?;
        if !bytes_ty.is_number() {
            let at = self.at(size.span);
            return Err(CError::invalid("a size that is not a number", at));
        }
        let bytes = self.convert_number(bytes, bytes_ty, size_t, span);
        let each = self.unit.types.borrow().size(ty).unwrap_or(1);
        if each == 0 {
            let described = self.unit.types.borrow().describe(ty);
            return Err(CError::unsupported(
                format!("a memory function over objects of `{described}`, which has no bytes"),
                self.at(size.span),
            ));
        }
        let each = size_t.constant(i64::from(each));
        let rest = self.temp(Rvalue::Binary(BinOp::URem, bytes, each), span);
        let whole = self.temp(Rvalue::Binary(BinOp::Eq, rest, size_t.constant(0)), span);
        let cause = "a size that is no whole number of the objects a memory function gets \
                     (a part of an object), or beyond `int` of them";
        self.unmodelled_cause(span, cause);
        let kind = PropertyKind::Unmodelled;
        self.check(Check::Condition { holds: whole, kind }, span);
        let count = self.temp(Rvalue::Binary(BinOp::UDiv, bytes, each), span);
        Ok(self.index_value(count, size_t, PropertyKind::Unmodelled, span))
    }

    /// Runs `each` on the memory of the k-th object of every target, for k from 0 below
    /// `count` (read as unsigned; from the last down where `reversed`). A target that is one whole object has only the 0th: a
    /// count above 1 stops the run at an `unmodelled` check (what lies beyond the object is
    /// not modelled).
    pub(super) fn for_each_object(
        &mut self,
        count: Operand,
        targets: &[Target],
        reversed: bool,
        span: Span,
        mut each: impl FnMut(&mut Self, Vec<Memory>),
    ) {
        if targets.iter().any(|t| matches!(t, Target::Object(..))) {
            let one_at_most = Rvalue::Binary(BinOp::ULe, count, Operand::Const(1));
            let holds = self.temp(one_at_most, span);
            let cause = "a memory function over more than the one object a pointer points to";
            self.unmodelled_cause(span, cause);
            let kind = PropertyKind::Unmodelled;
            self.check(Check::Condition { holds, kind }, span);
        }
        self.each_below(count, reversed, span, |cx, k| {
            let memory = (targets.iter())
                .map(|&target| cx.object_at(target, k, span))
                .collect();
            each(cx, memory);
        });
    }

    /// Runs `body` for every `k` from 0 below `count` (read as unsigned), from the last down
    /// where `reversed` (`count - 1 - k`).
    pub(super) fn each_below(
        &mut self,
        count: Operand,
        reversed: bool,
        span: Span,
        mut body: impl FnMut(&mut Self, Operand),
    ) {
        self.counted_loop(
            span,
            |cx, k| cx.temp(Rvalue::Binary(BinOp::ULt, k, count), span),
            |cx, k| {
                let k = match reversed {
                    true => {
                        let last =
                            cx.temp(Rvalue::Binary(BinOp::Sub, count, Operand::Const(1)), span);
                        cx.temp(Rvalue::Binary(BinOp::Sub, last, k), span)
                    }
                    false => k,
                };
                body(cx, k);
            },
        );
    }

    /// The memory of the `k`-th object of `target` (a whole object is its 0th: `k` is not
    /// read).
    fn object_at(&mut self, target: Target, k: Operand, span: Span) -> Memory {
        match target {
            Target::Object(pointer, _) => self.object_memory(pointer),
            Target::Elements(pointer, ty) => {
                self.element_memory((pointer, ty), Some((k, CType::Int)), span)
            }
        }
    }

    /// The value of an object of type `ty` whose every byte is `byte` (an `int`; its low 8
    /// bits count).
    fn filled_object(
        &mut self,
        name: &str,
        ty: CType,
        byte: Operand,
        span: Span,
        at: usize,
    ) -> Result<Operand, CError> {
        let leaves = self.unit.types.borrow().leaves(ty);
        let bit_field = |path: &str| {
            let name = path.rsplit('.').next().unwrap_or(path);
            self.unit.types.borrow().bit_field_named(name).is_some()
        };
        let integers_only = (leaves.iter())
            .all(|(path, leaf)| leaf.is_number() && *leaf != CType::Bool && !bit_field(path));
        if !integers_only {
            // Only 0 is a value of a pointer, `_Bool`, array member or bit-field in every byte
            // (a bit-field's bits sit beside other members' in its bytes).
            match byte {
                Operand::Const(b) if b & 0xff == 0 => {}
                Operand::Const(_) => {
                    return Err(CError::unsupported(
                        format!(
                            "`{name}` with a byte other than 0 over pointers, `_Bool`s, array \
                             members or bit-fields (their bytes are not modelled)"
                        ),
                        at,
                    ))
                }
                _ => {
                    let low = self.temp(
                        Rvalue::Binary(BinOp::BitAnd, byte, Operand::Const(0xff)),
                        span,
                    );
                    let zero = self.temp(Rvalue::Binary(BinOp::Eq, low, Operand::Const(0)), span);
                    let cause = "`memset` of pointers, `_Bool`s or array members with a byte \
                                 other than 0";
                    self.unmodelled_cause(span, cause);
                    let kind = PropertyKind::Unmodelled;
                    self.check(Check::Condition { holds: zero, kind }, span);
                }
            }
            return Ok(match ty {
                CType::Struct(_) => self.blank_object(ty, true, false, span),
                _ => self.blank_value(ty, true, span),
            });
        }
        let low = self.temp(
            Rvalue::Binary(BinOp::BitAnd, byte, Operand::Const(0xff)),
            span,
        );
        let mut values = Vec::with_capacity(leaves.len());
        for (_, leaf) in &leaves {
            let bytes = self.unit.types.borrow().size(*leaf).unwrap_or(1);
            // Every byte `low`: `low` times 0x0101…01.
            let ones = (0..bytes).fold(0i64, |ones, _| (ones << 8) | 1);
            let wide = self.convert_number(low, CType::Int, CType::ULong, span);
            let filled = Rvalue::Binary(BinOp::Mul, wide, Operand::Const64(ones));
            let filled = self.temp(filled, span);
            values.push(self.convert_number(filled, CType::ULong, *leaf, span));
        }
        Ok(match ty {
            CType::Struct(_) => self.object_of(ty, &values, span),
            _ => values[0],
        })
    }

    /// `for (k = 0; condition(k); k++) body(k);` with a fresh 32-bit `k`; the value of `k`
    /// when the loop ends.
    pub(super) fn counted_loop(
        &mut self,
        span: Span,
        mut condition: impl FnMut(&mut Self, Operand) -> Operand,
        mut body: impl FnMut(&mut Self, Operand),
    ) -> Operand {
        let k = self.b.new_temp(span, Width::W32);
        self.assign(k, Operand::Const(0), span);
        let (header, inside, exit) = (self.b.new_block(), self.b.new_block(), self.b.new_block());
        self.b.goto(header, span);
        self.b.switch_to(header);
        let index = Operand::Local(k);
        let cond = condition(self, index);
        self.b.branch(cond, inside, exit, span);
        self.b.switch_to(inside);
        body(self, index);
        let next = self.temp(Rvalue::Binary(BinOp::Add, index, Operand::Const(1)), span);
        self.assign(k, next, span);
        self.b.goto(header, span);
        self.b.switch_to(exit);
        index
    }
}
