//! What `malloc`, `calloc`, `alloca`, `realloc` and `free` lower to: a fresh object in a cell of
//! its own, or a fresh *heap array* (`malloc(n * sizeof(T))`, `calloc(n, sizeof(T))`) reached
//! through an element pointer (`lower/element_pointer.rs`); and the release of either.
//! `realloc(p, size)` makes a heap array like `malloc(size)`, copies the first elements of
//! `p`'s (as many as both have: the IR's `len` gives the old length), and frees `p`'s, after
//! the checks `free` makes (`realloc(NULL, size)` is `malloc(size)`); it never fails.
//!
//! **Sizes.** The objects' type comes from the size, `sizeof` of a complete type or a count
//! times it; any other size is a number of bytes, which make `char`s, unless the result is
//! converted at once to a pointer to another type `T` (`int *a = malloc(4 * n)`): then `n / 4`
//! `T`s ([`FnCx::byte_allocation_target`]; a number of bytes that is no whole number of `T`s is
//! refused where it is a constant and stops the run `unmodelled` where it is not, since a
//! character view could reach the bytes of the part of one). Which calls make arrays is decided
//! before lowering (`lower/elements.rs`): one with a count (a number of bytes is one), and one
//! whose result reaches a pointer into arrays (an array of one object).
//!
//! **Counts.** IR arrays have fixed lengths. A constant count makes one array (up to the limit
//! of declared arrays); any other count forks the run over the lengths 1 to
//! [`FORKED_LENGTHS`] by halves (six branches on a path, one path per length), as KLEE
//! concretizes a symbolic size, and an `unmodelled`
//! check stops a run whose count is 0 (C lets `malloc(0)` return null or not) or larger, so
//! its verdicts are `unknown`, never `safe`.
//!
//! **Heap state.** Where the file frees memory, a heap array's state is its first element's
//! (every element is made [`LIVE`]): `free` needs a pointer to the first element of a live
//! array (else `invalid-free`: the pointer was moved, freed before, or is not to the heap) and
//! marks that element [`FREED`]; every access through an element pointer checks it
//! ([`HeapOwner::Array`]). A heap array counts as one object for the leak count.
//!
//! **Structs with boxes** (a member whose address is taken, an array member:
//! `lower/memory.rs`): every element of a heap array of them gets boxes of its own, by a loop
//! over the fresh array (the IR stays small whatever the length), and `free` of the array
//! frees each element's boxes with it. `realloc` of such an array copies each element into
//! the new array's own boxes and frees the old ones (a pointer kept into an old element's box
//! then sees it freed; moving the records would share the boxes between the two arrays).
//!
//! **Arrays of arrays** (`int (*p)[3] = malloc(n * sizeof *p)`): one heap array of their
//! elements in row-major order, as a multi-dimensional array variable is; a computed `n`
//! forks over 1 to [`FORKED_LENGTHS`] arrays.
//!
//! **Allocators** (`void *safe_malloc(size_t n) { void *p = malloc(n); if (!p) abort();
//! return p; }`, SV-COMP's `ldv_malloc`): inside such a function an allocation of bytes has no
//! type, so it does not lower on its own; a call whose result converts at once to a `T *` to
//! one object (`struct node *x = safe_malloc(sizeof *x);`) is inlined, and there a `malloc` or
//! `calloc` of a number of bytes converted at once to `void *` makes one `T` (the type the
//! caller gives the memory, C's effective type), after an `unmodelled` check that the number
//! is `sizeof(T)` (objects are typed: more or fewer bytes would need bytes).
//! `lower/elements.rs` lets such an allocation (a `void *` variable's initializer or assigned
//! value, or the allocator's `return`) make no array by itself. Any other call of the
//! allocator stays refused. An allocator's call converted to `void *` inside an allocator
//! inlined for `T` is inlined for `T` as well (`zalloc_or_die` over `calloc_model`), and a
//! `memset` through a `void *` there writes a `T`. An allocator inlined for a struct the file
//! never defines makes an *opaque* object ([`FnCx::is_opaque`]), and so does, outside
//! allocators, an allocation of bytes converted at once to `void *` (`void *p = malloc(n);`,
//! `item->data = malloc(119U);` for a `void *` member): memory of no type, which the program
//! can keep, compare and free; a conversion to another pointer type stops the run
//! `unmodelled` (its type tag matches no type).
//!
//! Nothing here decides which variables hold element pointers.

use lang_c::ast::{BinaryOperator, CallExpression, Constant, Expression};
use lang_c::span::Node;
use symex_ir::cfg::{
    BinOp, BlockId, Check, InstKind, LocalId, Operand, Place, PlaceBase, Projection, PropertyKind,
    Rvalue, Width,
};
use symex_syntax::span::Span;

use super::element_pointer::representation;
use super::elements::Location;
use super::func::FnCx;
use super::memory::{HeapOwner, BYTES_FIELD, FREED, LIVE, MEMBER};
use super::types::CType;
use crate::error::CError;

/// The largest count of a heap array whose count is not a constant: the run forks over every
/// count from 1 to this one (see the module comment).
pub(super) const FORKED_LENGTHS: i32 = 64;

/// The functions that make objects: all but `alloca` on the heap.
pub(super) const ALLOCATING_FUNCTIONS: &[&str] =
    &["malloc", "calloc", "realloc", "alloca", "__builtin_alloca"];

/// The functions that make a heap array of characters holding a copy of a string
/// (`lower/strings.rs`): allocations that always make arrays.
pub(super) const DUPLICATING_FUNCTIONS: &[&str] = &["strdup", "strndup"];

/// The size arguments of an allocation: the `sizeof` giving each object's size (`None`: a
/// number of bytes, made `char`s), and how many objects (`None`: one).
pub(super) struct AllocationSize<'a> {
    pub each: Option<&'a Node<Expression>>,
    pub count: Option<&'a Node<Expression>>,
}

/// The size of the allocation `function(arguments)` (an allocating function): `sizeof(T)`, a
/// count times it (either order), or `calloc`'s count and `sizeof(T)` (either order);
/// `realloc`'s second argument; any other size of `malloc`, `alloca` or `realloc` is a count
/// of bytes, which are `char`s, and so is `calloc(n, 1)`. `None` for other `calloc`s without a
/// `sizeof`.
pub(super) fn allocation_size<'a>(
    function: &str,
    arguments: &'a [Node<Expression>],
) -> Option<AllocationSize<'a>> {
    let arguments = match (function, arguments) {
        ("realloc", [_, size]) => std::slice::from_ref(size),
        ("realloc", _) => return None,
        _ => arguments,
    };
    let (each, count) = match (function == "calloc", arguments) {
        (true, [a, b]) => match (is_sizeof(b), is_sizeof(a)) {
            (true, _) => (b, Some(a)),
            (false, true) => (a, Some(b)),
            // `calloc(n, 1)`: `n` bytes, which are `char`s.
            _ if is_one(b) || is_one(a) => {
                let count = Some(if is_one(b) { a } else { b }).filter(|n| !is_one(n));
                return Some(AllocationSize { each: None, count });
            }
            _ => return None,
        },
        (false, [size]) => {
            let bytes = size;
            let size = without_casts(size);
            match &size.node {
                _ if is_sizeof(size) => (size, None),
                Expression::BinaryOperator(m)
                    if m.node.operator.node == BinaryOperator::Multiply
                        && (is_sizeof(&m.node.rhs) || is_sizeof(&m.node.lhs)) =>
                {
                    match is_sizeof(&m.node.rhs) {
                        true => (&*m.node.rhs, Some(&*m.node.lhs)),
                        false => (&*m.node.lhs, Some(&*m.node.rhs)),
                    }
                }
                _ => {
                    let count = Some(bytes).filter(|count| !is_one(count));
                    return Some(AllocationSize { each: None, count });
                }
            }
        }
        _ => return None,
    };
    let each = Some(without_casts(each));
    let count = count.filter(|count| !is_one(count));
    Some(AllocationSize { each, count })
}

/// The name of the function `e` (without its casts) calls by name, and its arguments.
fn called(e: &Node<Expression>) -> Option<(&str, &[Node<Expression>])> {
    let Expression::Call(call) = &without_casts(e).node else {
        return None;
    };
    let Expression::Identifier(callee) = &call.node.callee.node else {
        return None;
    };
    Some((callee.node.name.as_str(), &call.node.arguments))
}

fn without_casts(mut e: &Node<Expression>) -> &Node<Expression> {
    while let Expression::Cast(c) = &e.node {
        e = &c.node.expression;
    }
    e
}

fn is_sizeof(e: &Node<Expression>) -> bool {
    matches!(
        without_casts(e).node,
        Expression::SizeOfTy(_) | Expression::SizeOfVal(_)
    )
}

fn is_one(e: &Node<Expression>) -> bool {
    matches!(&without_casts(e).node, Expression::Constant(c)
        if matches!(&c.node, Constant::Integer(i) if &*i.number == "1"))
}

impl FnCx<'_, '_> {
    /// `name(arguments)` for an allocating function `name` (its arity checked): a pointer to a
    /// fresh object, or an element pointer to the first of a fresh array's.
    pub fn allocation(
        &mut self,
        name: &str,
        call: &CallExpression,
        span: Span,
        at: usize,
    ) -> Result<(Operand, CType), CError> {
        let calloc = name == "calloc";
        let realloc = name == "realloc";
        let size_at = call.arguments.last().map_or(at, |size| self.at(size.span));
        let refusal = || {
            CError::unsupported(
                format!(
                    "`{name}` of a size other than `sizeof` of a complete type, a count times \
                     it (`n * sizeof(T)`, `calloc(n, sizeof(T))`) or a number of `char`s"
                ),
                size_at,
            )
        };
        let size = self
            .sized_allocation(name, &call.arguments)
            .ok_or_else(refusal)?;
        // A number of bytes converted at once to a pointer to `T` makes `T`s, if it is a whole
        // number of them.
        let bytes_as = self
            .byte_allocation_as
            .take()
            .filter(|_| size.each.is_none());
        let in_allocator = self
            .allocation_in_allocator
            .take()
            .filter(|_| size.each.is_none());
        let declared = match (size.each, bytes_as, in_allocator) {
            (Some(each), _, _) => self.sized_type(each, at)?.ok_or_else(refusal)?,
            (None, Some(ty), _) | (None, None, Some(ty)) => ty,
            (None, None, None) => CType::SChar,
        };
        let object_size = match bytes_as {
            Some(ty) => self.unit.types.borrow().size(ty),
            None => None,
        };
        let start = call.callee.span.start;
        let ty = representation(self.unit, Location::Allocated(start), declared);
        // `malloc` never fails (SV-COMP's convention); `calloc` zeroes its objects; `alloca`'s
        // object is not on the heap (`free` of it is invalid).
        let heap = name != "alloca" && name != "__builtin_alloca";
        let flag = match heap {
            true => &self.unit.allocates_heap,
            false => &self.unit.stack_addresses,
        };
        flag.set(true);
        // `realloc`'s old array, evaluated before its size.
        let old = match realloc {
            true => Some(self.released_pointer(&call.arguments[0])?),
            false => None,
        };
        let element_allocation = self.unit.elements.is_element_allocation(start);
        if matches!(ty, CType::Array(_)) && !element_allocation {
            return Err(CError::unsupported(
                format!(
                    "`{name}` of arrays (`sizeof` of an array type) whose result is kept where \
                     a pointer to one object is (a pointer to arrays, `int (*p)[3]`, holds \
                     them, and so does a pointer that is moved or indexed)"
                ),
                at,
            ));
        }
        let array = realloc
            || size.count.is_some()
            || object_size.is_some()
            || matches!(ty, CType::Array(_))
            || element_allocation;
        let bytes = size.each.is_none() && object_size.is_none() && in_allocator.is_none();
        let mut opaque_bytes = None;
        if let (Some(object), false) = (in_allocator, element_allocation) {
            let bytes = self.one_object_of_bytes(object, size.count, span)?;
            opaque_bytes = self.is_opaque(object).then_some(bytes);
        } else if in_allocator.is_some() {
            let message = match self.allocator_object {
                Some(_) => format!(
                    "`{name}` in an allocator whose result is kept where a pointer into arrays is \
                     (an allocator makes one object of its caller's type)"
                ),
                None => format!(
                    "`{name}` of a number of bytes converted to `void *` whose result reaches a \
                     pointer into arrays (such memory is one object of no type until a \
                     conversion gives it one: write `T *p = {name}(...)`)"
                ),
            };
            return Err(CError::unsupported(message, at));
        }
        if !array || in_allocator.is_some() {
            let inputs = self.starts_as_inputs(ty, 1, calloc);
            let object = match opaque_bytes {
                Some(bytes) => {
                    let state = if heap { LIVE } else { super::memory::NOT_HEAP };
                    let fields = vec![(self.field_id(BYTES_FIELD), bytes)];
                    self.record(fields, state, Some(ty), span)
                }
                None => self.fresh_object(ty, (calloc, inputs), heap, span),
            };
            let pointer = self.temp(Rvalue::Alloc(object), span);
            if heap {
                self.count_objects(1, span);
            }
            self.note_bytes(pointer, bytes);
            return Ok((pointer, self.unit.types.borrow_mut().pointer_to(ty)));
        }
        let count = match size.count {
            Some(count) => {
                let (count, count_ty) = self.subscript(count)?;
                let cause = "a heap array of a computed length beyond `int`";
                Some(self.unmodelled_index(count, count_ty, cause, span))
            }
            None => object_size.map(|_| Operand::Const(1)),
        };
        // The bytes must be a whole number of objects: a view of the objects' bytes
        // (`lower/views.rs`) could reach the bytes of a part of one.
        let count = match (count, object_size) {
            (Some(Operand::Const(bytes)), Some(each)) if bytes % each != 0 => {
                let ty = self.unit.types.borrow().describe(declared);
                return Err(CError::unsupported(
                    format!(
                        "`{name}` of {bytes} bytes as `{ty}` objects of {each} bytes (a number \
                         of bytes that is not a whole number of objects)"
                    ),
                    at,
                ));
            }
            (Some(Operand::Const(bytes)), Some(each)) => Some(Operand::Const(bytes / each)),
            (Some(bytes), Some(each)) => {
                let rest = self.temp(
                    Rvalue::Binary(BinOp::Rem, bytes, Operand::Const(each)),
                    span,
                );
                let whole = self.temp(Rvalue::Binary(BinOp::Eq, rest, Operand::Const(0)), span);
                let cause = "an allocation of a number of bytes that is no whole number of the \
                             objects its pointer points to";
                self.unmodelled_cause(span, cause);
                let kind = PropertyKind::Unmodelled;
                self.check(Check::Condition { holds: whole, kind }, span);
                Some(self.temp(
                    Rvalue::Binary(BinOp::Div, bytes, Operand::Const(each)),
                    span,
                ))
            }
            (count, _) => count,
        };
        // The objects as C's pointer sees them, and the IR array's elements: an array of
        // arrays (`int (*p)[3] = malloc(n * sizeof *p)`) is one array of their elements in
        // row-major order, as a multi-dimensional array variable is.
        let pointee = ty;
        let (ty, per_object) = match ty {
            CType::Array(id) => {
                let (element, dims) = self.unit.types.borrow().array(id);
                let per_object = dims.iter().map(|&d| u64::from(d)).product::<u64>();
                if per_object > super::types::MAX_ELEMENTS {
                    return Err(CError::unsupported(
                        format!(
                            "`{name}` of arrays of {per_object} elements each (at most {} \
                             elements are modelled)",
                            super::types::MAX_ELEMENTS
                        ),
                        at,
                    ));
                }
                (element, per_object as usize)
            }
            _ => (ty, 1),
        };
        let boxed = self.has_boxes(ty);
        let arrays_hold = match pointee {
            CType::Array(_) => ty.is_number() || (matches!(ty, CType::Struct(_)) && !boxed),
            _ => ty.is_scalar() || matches!(ty, CType::Struct(_)),
        };
        if !arrays_hold {
            return Err(CError::unsupported(
                format!(
                    "an array of `{}` made by `{name}` (heap arrays hold numbers, pointers and \
                     structs, and arrays of numbers and structs without boxes)",
                    self.unit.types.borrow().describe(pointee)
                ),
                at,
            ));
        }
        let element = self.blank_object(ty, calloc, heap, span);
        let cell = match count {
            None => self.array_cell(element, per_object, span),
            Some(Operand::Const(n)) => {
                let limit = match boxed {
                    true => super::array::MAX_BOXED_ELEMENTS as u64,
                    false => super::types::MAX_ELEMENTS / per_object as u64,
                };
                if n < 1 || u64::try_from(n).is_ok_and(|n| n > limit) {
                    let what = match object_size {
                        Some(each) => {
                            let ty = self.unit.types.borrow().describe(declared);
                            format!("bytes for {n} objects of `{ty}` ({each} bytes each)")
                        }
                        None => format!("{n} objects"),
                    };
                    return Err(CError::unsupported(
                        format!("`{name}` of {what} (1 to {limit} objects are modelled)"),
                        at,
                    ));
                }
                self.array_cell(element, n as usize * per_object, span)
            }
            Some(count) => {
                // The arrays of every length forked over hold at most `MAX_ELEMENTS` elements
                // together (the IR spells out each).
                let lengths = (FORKED_LENGTHS * (FORKED_LENGTHS + 1) / 2) as u64;
                if lengths * per_object as u64 > super::types::MAX_ELEMENTS {
                    return Err(CError::unsupported(
                        format!(
                            "`{name}` of a computed count of arrays of {per_object} elements each \
                             (a computed count forks over 1 to {FORKED_LENGTHS} arrays of at \
                             most {} elements)",
                            super::types::MAX_ELEMENTS / lengths
                        ),
                        at,
                    ));
                }
                self.forked_array_cell((element, per_object), count, span)
            }
        };
        let most = match count {
            None => 1,
            Some(Operand::Const(n)) => n as usize,
            Some(_) => FORKED_LENGTHS as usize,
        };
        let inputs = self.starts_as_inputs(ty, most.saturating_mul(per_object), calloc);
        if boxed || inputs {
            self.give_own_objects(cell, ty, (calloc, inputs), heap, span);
        }
        if let Some(old) = old {
            self.move_elements(old, pointee, cell, span, at)?;
        }
        if heap {
            self.count_objects(1, span);
        }
        let pointer = self.element_value(cell, Operand::Const(0), span);
        self.note_bytes(pointer, bytes);
        Ok((
            pointer,
            self.unit.types.borrow_mut().element_pointer_to(pointee),
        ))
    }

    /// An element pointer to the first of a fresh heap array of `count` `char`s (indeterminate;
    /// `count` computed: forked over as any computed count is), counted as one live object.
    pub(super) fn character_array(&mut self, count: Operand, span: Span) -> (Operand, CType) {
        self.unit.allocates_heap.set(true);
        let element = self.blank_object(CType::SChar, false, true, span);
        let cell = self.forked_array_cell((element, 1), count, span);
        self.count_objects(1, span);
        let pointer = self.element_value(cell, Operand::Const(0), span);
        let ty = self
            .unit
            .types
            .borrow_mut()
            .element_pointer_to(CType::SChar);
        (pointer, ty)
    }

    /// What the size arguments of the allocating function `name` count, where they fit a
    /// pattern: `sizeof` of an array variable or member (`malloc(sizeof buf)`,
    /// `malloc(sizeof s.a)`) is a number of bytes, as any size without `sizeof` is.
    fn sized_allocation<'e>(
        &self,
        name: &str,
        arguments: &'e [Node<Expression>],
    ) -> Option<AllocationSize<'e>> {
        let size = allocation_size(name, arguments)?;
        let array_bytes = size.each.is_some_and(|each| {
            let Expression::SizeOfVal(v) = &each.node else {
                return false;
            };
            let value = &v.node.0;
            self.array_size(value).is_some()
                || (matches!(value.node, Expression::Member(_))
                    && matches!(self.static_type(value), Some(CType::Array(_))))
        });
        if !array_bytes || name == "calloc" {
            return Some(size);
        }
        Some(AllocationSize {
            each: None,
            count: arguments.last().filter(|bytes| !is_one(bytes)),
        })
    }

    /// The type of the objects an allocation of a number of bytes makes where `e` (without its
    /// casts) is one and its value is converted at once to `to`, a pointer to a type other
    /// than `char` or `void` (else it makes `char`s).
    pub(super) fn byte_allocation_target(&self, e: &Node<Expression>, to: CType) -> Option<CType> {
        let (CType::Pointer(p) | CType::Element(p)) = to else {
            return None;
        };
        let pointee = self.unit.types.borrow().pointee(p);
        let (name, arguments) = called(e)?;
        // `char`s are what a number of bytes makes anyway.
        let typed = pointee != CType::SChar && pointee != CType::Void;
        (self.allocates_bytes(name, arguments) && typed).then_some(pointee)
    }

    /// The pointee `T` where `e` (without its casts) is a call of a defined function returning
    /// `void *` that does not lower on its own, whose result converts at once to `to`, a
    /// pointer `T *` to one object (not into arrays): an allocator's call, inlined for `T` (see
    /// the module comment).
    pub(super) fn allocator_target(&self, e: &Node<Expression>, to: CType) -> Option<CType> {
        let CType::Pointer(p) = to else {
            return None;
        };
        let pointee = self.pointee(p);
        let (name, _) = called(e)?;
        // A function that lowers on its own is called as one (an allocator never does: its
        // allocation of bytes converted to `void *` has no type).
        if !self.unit.unavailable.contains_key(name) {
            return None;
        }
        let definition = self.unit.bodies.get(name)?;
        let result = super::func::result_type(self.unit, definition).ok()?;
        let returns_void_pointer =
            matches!(result, CType::Pointer(r) if self.pointee(r) == CType::Void);
        if !returns_void_pointer {
            return None;
        }
        // An allocator's allocator (`void *p = calloc_model(1, n);` inside `zalloc_or_die`)
        // makes the type of the outer one's caller.
        match pointee {
            CType::Void => self.allocator_object,
            _ => Some(pointee),
        }
    }

    /// Whether `e` (without its casts) is a `malloc` or `calloc` of a number of bytes (no
    /// `sizeof` in its size), converted at once to `to`, a `void *`.
    pub(super) fn allocates_void_bytes(&self, e: &Node<Expression>, to: CType) -> bool {
        let CType::Pointer(p) = to else {
            return false;
        };
        // `alloca`'s object would die with the allocator's return in C, not when inlined.
        called(e).is_some_and(|(name, arguments)| {
            matches!(name, "malloc" | "calloc") && self.allocates_bytes(name, arguments)
        }) && self.pointee(p) == CType::Void
    }

    /// Whether `name(arguments)` is the library's allocation of a number of bytes (no `sizeof`
    /// in its size).
    fn allocates_bytes(&self, name: &str, arguments: &[Node<Expression>]) -> bool {
        let library = ALLOCATING_FUNCTIONS.contains(&name) && !self.unit.bodies.contains_key(name);
        library && (self.sized_allocation(name, arguments)).is_some_and(|s| s.each.is_none())
    }

    /// Remembers `pointer` as made by an allocation of a number of bytes, where `bytes`.
    fn note_bytes(&mut self, pointer: Operand, bytes: bool) {
        if let (true, Operand::Local(local)) = (bytes, pointer) {
            self.byte_allocations.insert(local);
        }
    }

    /// The type of the one object an allocation of bytes converted at once to `void *` makes:
    /// in an allocator inlined for a `T *`, a `T`; in an allocator's own body, none (it does
    /// not lower on its own); elsewhere an opaque object of untyped memory.
    pub(super) fn void_allocation_object(&self) -> Option<CType> {
        if self.allocator_object.is_some() {
            return self.allocator_object;
        }
        // `result` is the inlined call's while one is lowered.
        let allocator = self.is_generic(self.result);
        (!allocator).then(|| self.unit.types.borrow_mut().untyped_memory())
    }

    /// Whether `ty` is a struct the file never defines (`struct L5 *down = zalloc(119);`): C
    /// can only keep, compare, free, `memset` or convert a pointer to one, never read its bytes
    /// through it, so an allocation for it is an *opaque* object that holds only its number of
    /// bytes ([`BYTES_FIELD`], for `memset`; a conversion to another type is checked by the
    /// object's type tag, as every conversion of a `void *` is).
    pub(super) fn is_opaque(&self, ty: CType) -> bool {
        let types = self.unit.types.borrow();
        matches!(ty, CType::Struct(id) if types.fields(id).is_none() && types.refusal(id).is_none())
    }

    /// The `unmodelled` check that an allocation of `bytes` bytes inside an allocator inlined
    /// for a `T *` (`object` is `T`) makes exactly one `T`: symex's objects are typed, and the
    /// bytes beyond one or short of one would need bytes. For an opaque `T` ([`FnCx::is_opaque`]),
    /// that it makes some bytes. The number of bytes.
    fn one_object_of_bytes(
        &mut self,
        object: CType,
        bytes: Option<&Node<Expression>>,
        span: Span,
    ) -> Result<Operand, CError> {
        let opaque = self.is_opaque(object);
        let cause = match opaque {
            true => {
                "an allocation of no bytes for an object of no type (a struct the file never \
                 defines, or memory only ever a `void *`): C lets it be null or not"
            }
            false => {
                "an allocation of another size than one object of the type its allocator's \
                 caller converts it to"
            }
        };
        // No count: one byte (`malloc(1)`).
        let bytes = match bytes {
            Some(bytes) => {
                let (bytes, bytes_ty) = self.subscript(bytes)?;
                self.unmodelled_index(bytes, bytes_ty, cause, span)
            }
            None => Operand::Const(1),
        };
        // An opaque object has any size but none (a memory function writes one object of it
        // at most: `for_each_object` stops at a count above 1).
        let one = match opaque {
            true => self.temp(Rvalue::Binary(BinOp::Ne, bytes, Operand::Const(0)), span),
            false => {
                let size = self.unit.types.borrow().size(object).unwrap_or(0);
                self.temp(Rvalue::Binary(BinOp::Eq, bytes, Operand::Const(size)), span)
            }
        };
        self.unmodelled_cause(span, cause);
        let kind = PropertyKind::Unmodelled;
        self.check(Check::Condition { holds: one, kind }, span);
        Ok(bytes)
    }

    /// The type whose size the `sizeof` expression `each` takes, if complete and not an
    /// array.
    fn sized_type(&self, each: &Node<Expression>, at: usize) -> Result<Option<CType>, CError> {
        let ty = match &each.node {
            Expression::SizeOfTy(t) => Some(self.type_name_of(&t.node.0.node, at)?),
            // A row is an array here, not the pointer it decays into.
            Expression::SizeOfVal(v) => {
                (self.row_type(&v.node.0)).or_else(|| self.static_type(&v.node.0))
            }
            _ => None,
        };
        Ok(ty.filter(|&ty| ty != CType::Void && self.unit.types.borrow().size(ty).is_some()))
    }

    /// A pointer to a fresh cell holding an array of `length` copies of `element`.
    fn array_cell(&mut self, element: Operand, length: usize, span: Span) -> Operand {
        let array = self.temp(Rvalue::Array(vec![element; length]), span);
        self.temp(Rvalue::Alloc(array), span)
    }

    /// Whether `count` fresh objects of type `ty` that are not `calloc`'s start as inputs
    /// (`Options::nondet_heap`): C leaves them indeterminate, and SV-COMP's tasks read them as
    /// arbitrary values.
    fn starts_as_inputs(&self, ty: CType, count: usize, calloc: bool) -> bool {
        !calloc && self.unit.options.nondet_heap && self.number_leaves(ty, count).is_some()
    }

    /// A fresh object of type `ty`: zero where `calloc` makes it, new inputs where `inputs`
    /// (see [`FnCx::starts_as_inputs`]), else indeterminate.
    fn fresh_object(
        &mut self,
        ty: CType,
        (calloc, inputs): (bool, bool),
        heap: bool,
        span: Span,
    ) -> Operand {
        match inputs.then(|| self.number_leaves(ty, 1)).flatten() {
            Some(leaves) => {
                let values: Vec<Operand> = leaves.iter().map(|&l| self.input(l, span)).collect();
                self.object_in_state(ty, &values, heap, span)
            }
            None => self.blank_object(ty, calloc, heap, span),
        }
    }

    /// Makes each element of the fresh array in `cell` (blank objects of type `ty` that share
    /// one blank's boxes) an object of its own, with its own boxes (`lower/memory.rs`) and
    /// inputs where `inputs`: a loop over the array, so that the IR stays small whatever the
    /// length (a computed count forks over 64 of them).
    fn give_own_objects(
        &mut self,
        cell: Operand,
        ty: CType,
        (calloc, inputs): (bool, bool),
        heap: bool,
        span: Span,
    ) {
        self.each_element(cell, span, |cx, index| {
            let value = cx.fresh_object(ty, (calloc, inputs), heap, span);
            // Making the object may store (a box's heap state), which ends the checks.
            let place = cx.guarded_element(cell, index, span);
            cx.b.emit(InstKind::Store { place, value }, span);
        });
    }

    /// Runs `body` for the index of each element of the array in `cell`.
    fn each_element(&mut self, cell: Operand, span: Span, body: impl FnMut(&mut Self, Operand)) {
        for check in self.pointee_guards(cell) {
            self.check(check, span);
        }
        let array = Place {
            base: PlaceBase::Deref(cell),
            projections: Vec::new(),
        };
        let length = self.temp(Rvalue::Len(array), span);
        self.each_below(length, false, span, body);
    }

    /// The place of element `index` of the array in `cell`, after the checks that reach it.
    fn guarded_element(&mut self, cell: Operand, index: Operand, span: Span) -> Place {
        for check in self.pointee_guards(cell) {
            self.check(check, span);
        }
        let array = Place {
            base: PlaceBase::Deref(cell),
            projections: Vec::new(),
        };
        self.check(Check::InBounds { array, index }, span);
        Place {
            base: PlaceBase::Deref(cell),
            projections: vec![Projection::Index(index)],
        }
    }

    /// A pointer to a fresh cell holding an array of `count` objects, each `per_object` copies
    /// of `element` (C's array of arrays is a row-major run of their elements), `count` not
    /// a constant: the `unmodelled` check that it is within 1 to [`FORKED_LENGTHS`], then a
    /// binary search over the lengths (six branches on a path, not one per length).
    fn forked_array_cell(
        &mut self,
        (element, per_object): (Operand, usize),
        count: Operand,
        span: Span,
    ) -> Operand {
        let at_least_one = self.temp(Rvalue::Binary(BinOp::Ge, count, Operand::Const(1)), span);
        let at_most = Rvalue::Binary(BinOp::Le, count, Operand::Const(FORKED_LENGTHS));
        let at_most = self.temp(at_most, span);
        let holds = self.temp(Rvalue::Binary(BinOp::BitAnd, at_least_one, at_most), span);
        let cause = "a heap array of a computed length outside 1 to 64 (the lengths forked over)";
        self.unmodelled_cause(span, cause);
        let kind = PropertyKind::Unmodelled;
        self.check(Check::Condition { holds, kind }, span);
        let result = self.b.new_temp(span, Width::W32);
        let join = self.b.new_block();
        let made = (element, per_object, result, join);
        self.split_lengths(made, count, (1, FORKED_LENGTHS), span);
        self.b.switch_to(join);
        Operand::Local(result)
    }

    /// Branches on `count`, known to be within `lengths` (both ends included), down to one
    /// length, where the array of that many objects (`per_object` `element`s each) is made
    /// into `result` before `join`.
    fn split_lengths(
        &mut self,
        (element, per_object, result, join): (Operand, usize, LocalId, BlockId),
        count: Operand,
        (low, high): (i32, i32),
        span: Span,
    ) {
        if low == high {
            let cell = self.array_cell(element, low as usize * per_object, span);
            self.assign(result, cell, span);
            self.b.goto(join, span);
            return;
        }
        let middle = low + (high - low) / 2;
        let (lower, upper) = (self.b.new_block(), self.b.new_block());
        let cond = self.temp(
            Rvalue::Binary(BinOp::Le, count, Operand::Const(middle)),
            span,
        );
        self.b.branch(cond, lower, upper, span);
        let made = (element, per_object, result, join);
        self.b.switch_to(lower);
        self.split_lengths(made, count, (low, middle), span);
        self.b.switch_to(upper);
        self.split_lengths(made, count, (middle + 1, high), span);
    }

    /// The pointer `free` or `realloc` gets as `argument`, typed: a cast to `void *` (which
    /// C programs write there) is the pointer cast.
    fn released_pointer(
        &mut self,
        argument: &Node<Expression>,
    ) -> Result<(Operand, CType), CError> {
        if let Expression::Cast(cast) = &argument.node {
            let at = self.at(argument.span);
            let ty = self.type_name_of(&cast.node.type_name.node, at)?;
            let void = matches!(ty, CType::Pointer(p) if self.unit.types.borrow().pointee(p) == CType::Void);
            if void {
                let (pointer, from) = self.typed(&cast.node.expression)?;
                if matches!(from, CType::Pointer(_) | CType::Element(_)) {
                    return Ok((pointer, from));
                }
                return Ok((
                    self.coerce(pointer, from, ty, self.span(argument.span), at)?,
                    ty,
                ));
            }
        }
        self.typed(argument)
    }

    /// `free(argument)`.
    pub fn free(
        &mut self,
        argument: &Node<Expression>,
        span: Span,
        at: usize,
    ) -> Result<(), CError> {
        let (pointer, ty) = self.released_pointer(argument)?;
        if matches!(pointer, Operand::Null | Operand::Const(0)) {
            return Ok(());
        }
        let not_null = match ty {
            CType::Pointer(_) => self.temp(Rvalue::Binary(BinOp::Ne, pointer, Operand::Null), span),
            CType::Element(_) => self.element_truth(pointer, span),
            _ => {
                return Err(CError::invalid(
                    "`free` of a value that is not a pointer",
                    at,
                ))
            }
        };
        // `free(NULL)` does nothing.
        let (release, done) = (self.b.new_block(), self.b.new_block());
        self.b.branch(not_null, release, done, span);
        self.b.switch_to(release);
        match ty {
            CType::Pointer(p) => {
                let pointee = self.unit.types.borrow().pointee(p);
                self.release(pointer, pointee, span);
            }
            CType::Element(p) => {
                let types = self.unit.types.borrow();
                let element = types.flattened(types.pointee(p));
                drop(types);
                self.release_array(pointer, element, span);
            }
            _ => {}
        }
        self.b.goto(done, span);
        self.b.switch_to(done);
        Ok(())
    }

    /// `free(pointer)` of a non-null element pointer to objects of type `ty`: the
    /// `invalid-free` checks that it points to the first element of a live heap array, then
    /// the array is freed, with the boxes of its structs.
    fn release_array(&mut self, pointer: Operand, ty: CType, span: Span) {
        let cell = self.releasable_array(pointer, span);
        self.free_cell(cell, ty, span);
    }

    /// Frees the heap array of objects of type `ty` in `cell`, with the boxes of its structs.
    fn free_cell(&mut self, cell: Operand, ty: CType, span: Span) {
        if self.has_boxes(ty) {
            self.each_element(cell, span, |cx, index| {
                let element = cx.guarded_element(cell, index, span);
                for owner in cx.boxes_of(&element, ty, span) {
                    cx.set_heap_state(owner, FREED, span);
                }
            });
        }
        self.mark_freed(cell, span);
    }

    /// The cell of the array the non-null element pointer `pointer` points into, after the
    /// `invalid-free` checks that it points to the first element of a live heap array.
    fn releasable_array(&mut self, pointer: Operand, span: Span) -> Operand {
        let [cell, index] = self.element_parts(pointer, span);
        let first = self.temp(Rvalue::Binary(BinOp::Eq, index, Operand::Const(0)), span);
        let kind = PropertyKind::InvalidFree;
        self.check(Check::Condition { holds: first, kind }, span);
        let owner = HeapOwner::Array(cell);
        for check in self.owner_guards(owner) {
            self.check(check, span);
        }
        let state = self.heap_state(owner, span);
        // An array member's box: C frees the struct where the member is its first (`free(
        // s->data)`), which symex does not follow.
        if self.unit.elements.array_members {
            self.unmodelled_cause(span, "`free` of an array member's box");
            let into_object = self.temp(
                Rvalue::Binary(BinOp::Ne, state, Operand::Const(MEMBER)),
                span,
            );
            let kind = PropertyKind::Unmodelled;
            self.check(
                Check::Condition {
                    holds: into_object,
                    kind,
                },
                span,
            );
        }
        let live = self.temp(Rvalue::Binary(BinOp::Eq, state, Operand::Const(LIVE)), span);
        self.check(Check::Condition { holds: live, kind }, span);
        cell
    }

    /// Frees the heap array in `cell` (its checks ran).
    fn mark_freed(&mut self, cell: Operand, span: Span) {
        self.set_heap_state(HeapOwner::Array(cell), FREED, span);
        self.count_objects(-1, span);
    }

    /// `realloc`'s move of the array `old` points into (of `ty`s) to the fresh array in
    /// `cell`: nothing for null; else `free`'s checks, the first elements copied (as many as
    /// both arrays have), and the old array freed.
    fn move_elements(
        &mut self,
        (old, old_ty): (Operand, CType),
        ty: CType,
        cell: Operand,
        span: Span,
        at: usize,
    ) -> Result<(), CError> {
        if matches!(old, Operand::Null | Operand::Const(0)) {
            return Ok(());
        }
        let same = match old_ty {
            CType::Element(p) => self.unit.types.borrow().pointee(p) == ty,
            _ => false,
        };
        if !same {
            return Err(CError::unsupported(
                "`realloc` of a pointer other than one into an array of the objects it makes \
                 (the size's `sizeof` gives their type)",
                at,
            ));
        }
        let not_null = self.element_truth(old, span);
        let (moving, done) = (self.b.new_block(), self.b.new_block());
        self.b.branch(not_null, moving, done, span);
        self.b.switch_to(moving);
        let old_cell = self.releasable_array(old, span);
        let whole = |cell| Place {
            base: PlaceBase::Deref(cell),
            projections: Vec::new(),
        };
        let lengths = [old_cell, cell].map(|array| {
            for check in self.pointee_guards(array) {
                self.check(check, span);
            }
            self.temp(Rvalue::Len(whole(array)), span)
        });
        // for (k = 0; k < old length && k < new length; k++) new[k] = old[k];
        let in_both = |cx: &mut Self, index| {
            let [in_old, in_new] =
                lengths.map(|length| cx.temp(Rvalue::Binary(BinOp::Lt, index, length), span));
            cx.temp(Rvalue::Binary(BinOp::BitAnd, in_old, in_new), span)
        };
        let element = self.unit.types.borrow().flattened(ty);
        let boxed = self.has_boxes(element);
        self.counted_loop(span, in_both, |cx, index| {
            if boxed {
                // Into the fresh elements' own boxes (`give_own_objects`), so that a pointer
                // into an old element's box sees it freed.
                let from = cx.array_element(old_cell, index, element);
                let value = cx.read_memory(&from, element, false, span);
                let to = cx.array_element(cell, index, element);
                cx.write_memory(&to, element, value, false, span);
                return;
            }
            let from = cx.guarded_element(old_cell, index, span);
            let place = cx.guarded_element(cell, index, span);
            let value = cx.temp(Rvalue::Read(from), span);
            cx.b.emit(InstKind::Store { place, value }, span);
        });
        self.free_cell(old_cell, element, span);
        self.b.goto(done, span);
        self.b.switch_to(done);
        Ok(())
    }
}
