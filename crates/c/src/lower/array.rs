//! Arrays (`int a[N]`, `char m[2][3]`, `struct s v[4]`, with constant sizes): each is an
//! IR array value in a local (a global array: a local of `main`, like every global) whose elements are objects in the layout of `memory.rs` (a
//! scalar's `value` and whether it was `assigned`, or a struct's leaves). C leaves an element
//! that was never assigned indeterminate; reading one is an `uninit` check, as for scalar
//! locals. An initializer (`= {1, 2}`, the rest 0) assigns every element. Every access checks
//! its indices (`out-of-bounds`). A multi-dimensional array is one IR array of its elements in
//! row-major order, each index checked against its own dimension, so that a row (`m[i]`) or
//! `&m[i][j]` is an element pointer into it (`lower/element_pointer.rs`), and a pointer to
//! arrays (`int (*p)[3]`) is one whose subscript moves it by whole arrays.
//!
//! A struct's array member (`s.a[i]`, `p->a[i]`) is indexed the same way, in the box that
//! holds its array (`memory.rs`): the struct's checks run when the box pointer is read, then
//! the box's and each index's, and every access checks the struct's heap state again
//! (`use-after-free`: the box is freed with its struct). Its array value is built here too
//! ([`FnCx::array_value`]).
//!
//! An array variable passed to a function is the caller's array under the parameter's name (the
//! call is inlined, `FnCx::argument`), unless the function moves the parameter or is recursive
//! (then the parameter is the pointer C makes it); an array or a row used as a pointer is an
//! element pointer to its first element, or row (`lower/element_pointer.rs`); other uses of
//! arrays as values (assigned whole) are refused. Nothing here reads the IR back.

use lang_c::ast::{ArraySize, Declarator, DerivedDeclarator, Expression, Initializer};
use lang_c::span::Node;
use symex_ir::cfg::{
    BinOp, Check, InstKind, Layout, LocalId, LocalKind, Operand, Place, PlaceBase, Projection,
    PropertyKind, Rvalue,
};
use symex_syntax::span::Span;

use super::array_init::Elements;
use super::constant;
use super::element_pointer;
use super::elements::Location;
use super::func::{initializer_mentions, Argument, FnCx, Parameter};
use super::literal::string_bytes;
use super::memory::{LValue, Memory};
use super::types::{array_dimensions, unparenthesized, CType};
use super::unions::UnionPart;
use crate::error::CError;

/// The name of the array variable or member `base`, for messages.
fn name_of(base: &Node<Expression>) -> &str {
    match &base.node {
        Expression::Identifier(id) => &id.node.name,
        Expression::Member(m) => &m.node.identifier.node.name,
        _ => "the array",
    }
}

/// The array that a subscript indexes.
enum Subscripted {
    /// An array variable.
    Variable(LocalId),
    /// A struct's array member, whose box holds the array (`lower/memory.rs`).
    Member(Memory),
    /// The array an element pointer points into (`lower/element_pointer.rs`): its value and
    /// type.
    Pointer(Operand, CType),
    /// An array member of a union (`lower/unions.rs`).
    Union(UnionPart),
}

/// Why an array is indexed: to use the element, or for its address (`&m[i][j]`, a row `m[i]`
/// used as a pointer).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Indexing {
    Access,
    Address,
}

/// What subscripts designate (`FnCx::indexed`): an element, or for an address a row, whose
/// dimensions are left.
struct Indexed {
    lvalue: LValue,
    element: CType,
    remaining: Vec<u32>,
    /// Whether the array is reached through a pointer into it (`p[i]`), not named (a variable
    /// or a member): an element's address then reaches no object the pointer did not.
    through_pointer: bool,
}

impl Indexed {
    /// An element through a pointer into its array.
    fn element(lvalue: LValue, element: CType) -> Indexed {
        Indexed {
            lvalue,
            element,
            remaining: Vec::new(),
            through_pointer: true,
        }
    }
}

/// The expression that the subscripts of `e` index, and the subscripts from the last to the
/// first (`m[i][j]`: `m`, then `j`, `i`).
fn subscripts(e: &Node<Expression>) -> (&Node<Expression>, Vec<&Node<Expression>>) {
    let mut indices = Vec::new();
    let mut base = e;
    while let Expression::BinaryOperator(b) = &base.node {
        if b.node.operator.node != lang_c::ast::BinaryOperator::Index {
            break;
        }
        indices.push(&*b.node.rhs);
        base = &b.node.lhs;
    }
    (base, indices)
}

/// Most elements of an array of structs with boxes (each element's boxes are made with it).
pub(super) const MAX_BOXED_ELEMENTS: i64 = 1 << 12;

impl FnCx<'_, '_> {
    /// Declares the array `name` of elements of type `ty` (its declarator's first `levels`
    /// parts are the elements' pointer levels, the rest arrays of constant size), with its
    /// initializer (a braced list, `array_init.rs`, or a string); without one, every element is
    /// 0 where it has static storage (a global), and indeterminate otherwise. Returns its local.
    pub fn declare_array(
        &mut self,
        (name, declarator): (&str, &Node<Declarator>),
        ty: CType,
        levels: u32,
        initializer: Option<&Node<Initializer>>,
        static_storage: bool,
    ) -> Result<LocalId, CError> {
        let (span, at) = (self.span(declarator.span), self.at(declarator.span));
        let (function, local_name) = self.variable_key(name, static_storage);
        // An array typedef's dimensions come after the declarator's (`row m[2]`).
        let (ty, typedef_dims) = match ty {
            CType::Array(id) => self.unit.types.borrow().array(id),
            _ => (ty, Vec::new()),
        };
        let location = Location::Elements(function, local_name);
        let ty = element_pointer::representation(self.unit, location, ty);
        let derived = &unparenthesized(declarator).node.derived[levels as usize..];
        let dimensions = derived.len() + typedef_dims.len();
        let string = self.string_initializer(initializer, ty, dimensions)?;
        let mut sizes = Vec::with_capacity(dimensions);
        for part in derived {
            let DerivedDeclarator::Array(array) = &part.node else {
                return Err(CError::unsupported("arrays of pointers or functions", at));
            };
            sizes.push(match &array.node.size {
                ArraySize::VariableExpression(e) | ArraySize::StaticExpression(e) => {
                    constant::dimension(self.constant(e))?
                }
                ArraySize::Unknown => string
                    .as_ref()
                    .and_then(|bytes| i64::try_from(bytes.len()).ok()),
                _ => None,
            });
        }
        sizes.extend(typedef_dims.iter().map(|&d| Some(i64::from(d))));
        // C's scope of `a` starts at its declarator, so `{{1, &a[1]}}` would read the array
        // before the initializer assigns it.
        if initializer.is_some_and(|i| initializer_mentions(i, local_name)) {
            return Err(CError::unsupported(
                format!("an initializer that names the array `{name}` it initializes"),
                at,
            ));
        }
        // `int a[] = {…}`: as many elements as the list sets.
        let unsized_first = matches!(derived.first().map(|d| &d.node),
            Some(DerivedDeclarator::Array(a)) if matches!(a.node.size, ArraySize::Unknown));
        let counted = match (sizes.split_first(), initializer.map(|i| &i.node)) {
            (Some((None, inner)), Some(Initializer::List(items))) if unsized_first => {
                let inner = array_dimensions(inner.to_vec(), false, at)?;
                let elements = self.list_elements(name, ty, None, &inner, items, span)?;
                let stride: usize = inner.iter().map(|&d| d as usize).product();
                let count = i64::try_from(elements.len() / stride).ok();
                let dims = array_dimensions(
                    std::iter::once(count).chain(inner.iter().map(|&d| Some(i64::from(d)))),
                    false,
                    at,
                )?;
                Some((dims, elements))
            }
            _ => None,
        };
        let dims = match &counted {
            Some((dims, _)) => dims.clone(),
            None => array_dimensions(sizes, false, at)?,
        };
        let elements: i64 = dims.iter().map(|&d| i64::from(d)).product();
        if self.has_boxes(ty) && elements > MAX_BOXED_ELEMENTS {
            // Each element is an object with boxes of its own, made when the array is.
            return Err(CError::unsupported(
                format!(
                    "arrays of more than {MAX_BOXED_ELEMENTS} structs with a member whose \
                     address is taken or of array type"
                ),
                at,
            ));
        }
        let local = self.declare(name, ty, static_storage, span)?;
        self.arrays.insert(local, dims.clone());
        if dims.len() > 1 {
            self.b.locals[local.index()].layout = Layout::RowMajor(dims.clone());
        }
        let value = match counted {
            Some((_, elements)) => self.array_of_elements(ty, &dims, Some(elements), true, span),
            None => self.array_value((name, at), ty, &dims, initializer, static_storage, span)?,
        };
        self.b.emit(InstKind::Assign { dst: local, value }, span);
        Ok(local)
    }

    /// The bytes of a string literal that initializes a one-dimensional character array
    /// (`char s[] = "ab"`), its 0 included.
    fn string_initializer(
        &self,
        initializer: Option<&Node<Initializer>>,
        ty: CType,
        dimensions: usize,
    ) -> Result<Option<Vec<u8>>, CError> {
        match initializer.map(|i| &i.node) {
            Some(Initializer::Expression(e)) if dimensions == 1 => match &e.node {
                Expression::StringLiteral(literal) if ty.is_char() => {
                    Ok(Some(string_bytes(&literal.node, self.at(e.span))?))
                }
                _ => Ok(None),
            },
            _ => Ok(None),
        }
    }

    /// The array value of the array `name` (declared at `at`) of elements of type `ty` with the
    /// dimensions `dims`, set by its initializer (a braced list, `array_init.rs`, or a string
    /// for characters); without one, every element is 0 where it has static storage, inputs
    /// where `Options::nondet_locals` takes them, and indeterminate otherwise.
    pub fn array_value(
        &mut self,
        (name, at): (&str, usize),
        ty: CType,
        dims: &[u32],
        initializer: Option<&Node<Initializer>>,
        static_storage: bool,
        span: Span,
    ) -> Result<Rvalue, CError> {
        let string = self.string_initializer(initializer, ty, dims.len())?;
        let values = match initializer.map(|i| &i.node) {
            // `lower/nondet_locals.rs`.
            None if !static_storage => {
                let count = dims.iter().map(|&d| d as usize).product();
                self.input_elements(ty, count, span)
            }
            None => None,
            Some(Initializer::List(items)) => {
                Some(self.list_elements(name, ty, Some(dims[0]), &dims[1..], items, span)?)
            }
            Some(Initializer::Expression(_)) if string.is_some() => {
                let bytes = string.unwrap_or_default();
                // C drops the 0 when the array has exactly the literal's characters.
                if bytes.len() - 1 > dims[0] as usize {
                    return Err(CError::invalid(
                        format!("a string longer than the {} elements of `{name}`", dims[0]),
                        at,
                    ));
                }
                let values = bytes.iter().take(dims[0] as usize);
                Some(
                    values
                        .map(|&b| Some(vec![self.convert(Operand::Const(i32::from(b)), ty, span)]))
                        .collect(),
                )
            }
            Some(Initializer::Expression(_)) => {
                return Err(CError::invalid(
                    format!("the array `{name}` is initialized with an expression"),
                    at,
                ))
            }
        };
        // An initializer assigns every element.
        let assigned = values.is_some() || static_storage;
        Ok(self.array_of_elements(ty, dims, values, assigned, span))
    }

    /// The array value with the dimensions `dims` (one IR array, row-major) whose elements
    /// are objects of type `ty` with the leaves `values` gives them, the rest (and all,
    /// without `values`) blank, assigned or not.
    pub fn array_of_elements(
        &mut self,
        ty: CType,
        dims: &[u32],
        values: Option<Elements>,
        assigned: bool,
        span: Span,
    ) -> Rvalue {
        // Elements whose structs have boxes are objects of their own, each with its own
        // boxes (`lower/memory.rs`); other elements may share one blank value.
        let filler = match self.has_boxes(ty) {
            true => None,
            false => Some(self.blank_object(ty, assigned, false, span)),
        };
        let total: usize = dims.iter().map(|&d| d as usize).product();
        let mut values = values.unwrap_or_default();
        values.resize(total, None);
        let elements = values
            .into_iter()
            .map(|element| match (element, filler) {
                (Some(leaves), _) => self.object_of(ty, &leaves, span),
                (None, Some(filler)) => filler,
                (None, None) => self.blank_object(ty, assigned, false, span),
            })
            .collect();
        Rvalue::Array(elements)
    }

    /// `a[i]...[k]` with one index per dimension of the array local `a`: the element, its
    /// indices evaluated (their checks are the element's guards), and the element type. `None`
    /// when `e` is not a subscript.
    pub fn element(&mut self, e: &Node<Expression>) -> Result<Option<(LValue, CType)>, CError> {
        Ok(self
            .indexed(e, Indexing::Access)?
            .map(|indexed| (indexed.lvalue, indexed.element)))
    }

    /// `&a[i]...[k]`, or a row `m[i]` used as a value (a pointer to its first element), for
    /// the subscripts `e` (of the expression at `span`, `at`): an element pointer. With
    /// `whole_row`, `&m[i]`: a pointer to the row itself (to arrays).
    pub fn subscript_address(
        &mut self,
        e: &Node<Expression>,
        whole_row: bool,
        span: Span,
        at: usize,
    ) -> Result<(Operand, CType), CError> {
        let Some(indexed) = self.indexed(e, Indexing::Address)? else {
            return Err(CError::invalid("internal error: no subscript", at));
        };
        let mut types = self.unit.types.borrow_mut();
        let pointee = match (whole_row, &indexed.remaining[..]) {
            (true, remaining) if !remaining.is_empty() => {
                types.array_of(indexed.element, remaining.to_vec())
            }
            (_, remaining) => types.decayed_pointee(indexed.element, remaining),
        };
        drop(types);
        match indexed.lvalue {
            LValue::Memory(memory) => {
                let named = !indexed.through_pointer;
                self.element_address(memory, pointee, named, span, at)
            }
            LValue::Byte(byte) => Ok(byte.address),
            LValue::Union(_) => Err(super::unions::unsupported_part("the address", at)),
            LValue::Register(_) => Err(CError::invalid(
                "internal error: an element outside memory",
                at,
            )),
        }
    }

    /// The type of the value of the row `e` designates, if it is one (a pointer to its first
    /// element, or to its first row): an array variable or member with fewer indices than its
    /// dimensions (`m[i]` of `int m[2][3]`), or a pointer to arrays with fewer than its
    /// pointee's dimensions and one (`p[i]` of `int (*p)[2][3]`, `*p`).
    pub(super) fn row_of(&self, e: &Node<Expression>) -> Option<CType> {
        let row = self.row_type(e)?;
        self.unit.types.borrow_mut().decayed(row)
    }

    /// The array type of the row `e` designates, if it is one ([`FnCx::row_of`]): `int[3]`
    /// for `m[i]` or `*m` of `int m[2][3]`, what `sizeof` measures.
    pub(super) fn row_type(&self, e: &Node<Expression>) -> Option<CType> {
        let (base, indices) = self.row_subscripts(e);
        if indices == 0 {
            return None;
        }
        let (element, dims) = self.static_dimensions(base)?;
        let remaining = dims.get(indices..).filter(|r| !r.is_empty())?.to_vec();
        Some(self.unit.types.borrow_mut().array_of(element, remaining))
    }

    /// The expression that the subscripts of `e` index and how many there are, `*p` of a
    /// pointer to arrays or of an array of several dimensions counting as `p[0]`.
    pub(super) fn row_subscripts<'e>(
        &self,
        e: &'e Node<Expression>,
    ) -> (&'e Node<Expression>, usize) {
        let (base, indices) = subscripts(e);
        match &base.node {
            Expression::UnaryOperator(u)
                if u.node.operator.node == lang_c::ast::UnaryOperator::Indirection
                    && (self.static_dimensions(&u.node.operand))
                        .is_some_and(|(_, d)| d.len() > 1) =>
            {
                (&u.node.operand, indices.len() + 1)
            }
            _ => (base, indices.len()),
        }
    }

    /// Whether `e` is a pointer to arrays (`int (*p)[3]`), by its type.
    pub(super) fn points_to_arrays(&self, e: &Node<Expression>) -> bool {
        let pointee = match self.static_type(e) {
            Some(CType::Element(p) | CType::Pointer(p)) => self.unit.types.borrow().pointee(p),
            _ => return false,
        };
        matches!(pointee, CType::Array(_))
    }

    /// The element type and the dimensions that subscripts of `base` go through, without
    /// evaluating it: an array variable's or member's; a pointer to arrays moves by its first
    /// subscript (a dimension 0 here: unbounded), then indexes its pointee's.
    pub(super) fn static_dimensions(&self, base: &Node<Expression>) -> Option<(CType, Vec<u32>)> {
        if let Some((local, element)) = self.array_variable(base) {
            return Some((element, self.arrays.get(&local)?.clone()));
        }
        let ty = self.static_type(base)?;
        let types = self.unit.types.borrow();
        match ty {
            CType::Array(id) => Some(types.array(id)),
            CType::Element(p) | CType::Pointer(p) => match types.pointee(p) {
                CType::Array(id) => {
                    let (element, inner) = types.array(id);
                    Some((element, std::iter::once(0).chain(inner).collect()))
                }
                _ => None,
            },
            _ => None,
        }
    }

    /// What the subscripts `e` designate, for `purpose`: an element of an array variable or
    /// member (all its indices given; for an address, also a row, fewer), of what a pointer
    /// into an array points to, or of the arrays a pointer to arrays points to (`p[i][j]`,
    /// `(*p)[j]`). `None` when `e` is not a subscript.
    ///
    /// A multi-dimensional array is one IR array of its elements in C's row-major order, so
    /// that a pointer into a row is an element pointer like any other: `m[i][j]` is element
    /// `i * 3 + j` of `int m[2][3]`, and each index is checked against its own dimension
    /// first, as C requires (`m[0][3]` is out of bounds even though element 3 exists). A
    /// pointer to arrays counts elements of the array it points into, so `p[i]` moves it by
    /// `i` whole arrays.
    fn indexed(
        &mut self,
        e: &Node<Expression>,
        purpose: Indexing,
    ) -> Result<Option<Indexed>, CError> {
        // `p[i]` of a pointer into an array, also where `p` is itself an element (`m[i][j]` of
        // `int **m`, `m[i]` being a value read from memory).
        if let Expression::BinaryOperator(b) = &e.node {
            let pointer = b.node.operator.node == lang_c::ast::BinaryOperator::Index
                && self.array_variable(&b.node.lhs).is_none()
                && self.row_of(&b.node.lhs).is_none()
                && !self.points_to_arrays(&b.node.lhs)
                && matches!(self.static_type(&b.node.lhs), Some(CType::Element(_)));
            if pointer {
                let (pointer, pointer_ty, ty) = self.subscripted_pointer(&b.node.lhs)?;
                let offset = self.subscript(&b.node.rhs)?;
                let span = self.span(e.span);
                let (lvalue, element) =
                    self.element_lvalue((pointer, pointer_ty), ty, Some(offset), span);
                return Ok(Some(Indexed::element(lvalue, element)));
            }
        }
        let (base, mut indices) = subscripts(e);
        indices.reverse();
        // `(*p)[j]` is `p[0][j]`, and `*p` is `p[0]`.
        let (base, leading_zero) = match self.row_subscripts(e) {
            (operand, n) if n > indices.len() => (operand, true),
            _ => (base, false),
        };
        if indices.is_empty() && !leading_zero {
            return Ok(None);
        }
        let span = self.span(e.span);
        let (array, element, dims) = self.subscripted(base)?;
        let mut raw = Vec::with_capacity(indices.len() + 1);
        if leading_zero {
            raw.push((Operand::Const(0), CType::Int));
        }
        for index in indices {
            raw.push(self.subscript(index)?);
        }
        if let (Subscripted::Pointer(pointer, pointer_ty), [offset]) = (&array, &raw[..]) {
            if dims.len() <= 1 {
                let (lvalue, element) =
                    self.element_lvalue((*pointer, *pointer_ty), element, Some(*offset), span);
                return Ok(Some(Indexed::element(lvalue, element)));
            }
        }
        let remaining = dims.get(raw.len()..).map(<[u32]>::to_vec);
        let remaining = match remaining {
            Some(remaining) if remaining.is_empty() || purpose == Indexing::Address => remaining,
            _ => {
                return Err(CError::unsupported(
                    format!(
                        "`{}` with {} of its {} indices (a part of an array used as a pointer: \
                         its rows are pointers to their first elements)",
                        name_of(base),
                        raw.len(),
                        dims.len()
                    ),
                    self.at(e.span),
                ))
            }
        };
        // The array's `Init` check (an array member's: its struct's guards, then its box's,
        // and its struct's heap state at every access), then the bounds of each index from the
        // outside in, then of the element's place in the IR array. A member is unboxed after
        // its indices are evaluated.
        let (base, mut guards, heap, values) = match array {
            Subscripted::Pointer(pointer, _) => {
                let pointer = (pointer, element);
                let memory = self.array_pointer_element(pointer, &raw, &dims[1..], purpose, span);
                return Ok(Some(Indexed {
                    lvalue: LValue::Memory(memory),
                    element,
                    remaining,
                    through_pointer: true,
                }));
            }
            Subscripted::Union(_) if !remaining.is_empty() => {
                return Err(super::unions::unsupported_part("a row", self.at(e.span)));
            }
            Subscripted::Union(part) => {
                let values = self.checked_indices(&raw, span);
                let bounds = self.dimension_bounds(&values, &dims, purpose, span);
                for check in bounds {
                    self.check(check, span);
                }
                let index = self.row_major_index(&values, &dims, span);
                let lvalue = self.union_element(part, index, element, span);
                return Ok(Some(Indexed {
                    lvalue,
                    element,
                    remaining,
                    through_pointer: false,
                }));
            }
            Subscripted::Variable(local) => (
                PlaceBase::Local(local),
                vec![Check::Init(Place::local(local))],
                None,
                self.checked_indices(&raw, span),
            ),
            Subscripted::Member(member) => {
                let values = self.checked_indices(&raw, span);
                let boxed = match purpose {
                    Indexing::Access => self.unbox_array(&member, span),
                    Indexing::Address => self.unbox_array_for_address(&member, span),
                };
                (boxed.place.base, boxed.guards, boxed.heap, values)
            }
        };
        let index = match &values[..] {
            [index] if dims.len() == 1 => *index,
            _ => {
                let bounds = self.dimension_bounds(&values, &dims, purpose, span);
                guards.extend(bounds);
                self.row_major_index(&values, &dims, span)
            }
        };
        guards.push(Check::InBounds {
            array: Place {
                base,
                projections: Vec::new(),
            },
            index,
        });
        let memory = Memory {
            place: Place {
                base,
                projections: vec![Projection::Index(index)],
            },
            prefix: String::new(),
            guards,
            heap,
            literal: false,
        };
        Ok(Some(Indexed {
            lvalue: LValue::Memory(memory),
            element,
            remaining,
            through_pointer: false,
        }))
    }

    /// The indices `raw` (numbers of their types) as `int`s, each `out-of-bounds` where it lies
    /// beyond `int`; a variable's copied, so that its value is the one checked and used.
    fn checked_indices(&mut self, raw: &[(Operand, CType)], span: Span) -> Vec<Operand> {
        let mut values = Vec::with_capacity(raw.len());
        for &(index, ty) in raw {
            let index = self.index_value(index, ty, PropertyKind::OutOfBounds, span);
            let index = match index {
                Operand::Local(l) if self.b.locals[l.index()].kind != LocalKind::Temp => {
                    Operand::Local(self.b.assign_temp(Rvalue::Use(index), span))
                }
                other => other,
            };
            values.push(index);
        }
        values
    }

    /// `p[i][j]...` of the pointer to arrays `pointer` (of dimensions `inner` of `element`s),
    /// its offsets
    /// `raw` (numbers of their types): `i` moves it by whole arrays (pointer arithmetic, so
    /// only where the index leaves `int` is it `unmodelled`), the rest are checked against
    /// their dimensions as an array's indices, and the element is then one of the array
    /// `pointer` points into.
    fn array_pointer_element(
        &mut self,
        (pointer, element): (Operand, CType),
        raw: &[(Operand, CType)],
        inner: &[u32],
        purpose: Indexing,
        span: Span,
    ) -> Memory {
        let [cell, index] = self.element_parts(pointer, span);
        let stride: i64 = inner.iter().map(|&d| i64::from(d)).product();
        let stride = i32::try_from(stride).unwrap_or(i32::MAX);
        let (offset, ty) = raw[0];
        let cause = "an index of a pointer to arrays beyond `int` elements";
        let offset = self.unmodelled_index(offset, ty, cause, span);
        let offset = self.scaled_for(offset, stride, cause, span);
        let moved = self.moved_index(index, (offset, CType::Int), false, span);
        let kind = PropertyKind::OutOfBounds;
        let rest: Vec<Operand> = (raw[1..].iter())
            .map(|&(index, ty)| self.index_value(index, ty, kind, span))
            .collect();
        let bounds = self.dimension_bounds(&rest, inner, purpose, span);
        let within = self.row_major_index(&rest, inner, span);
        // No check that the sum fits: `within` is below one array's elements once the bounds
        // hold, so where it wraps around, `moved` lay beyond the array and the sum is negative:
        // out of bounds either way.
        let flat = self.temp(Rvalue::Binary(BinOp::Add, moved, within), span);
        let mut memory = self.array_element(cell, flat, element);
        // Each index within its dimension first, then the element within the array.
        let last = memory.guards.len() - 1;
        memory.guards.splice(last..last, bounds);
        memory
    }

    /// The checks that each of `indices` lies within its dimension of `dims`. An access needs
    /// each below its dimension (`out-of-bounds`). An address needs no more than C lets a
    /// program compute: each index below its dimension but the last, which may be one past
    /// it (`&m[0][3]`); beyond that the element pointer's index would no longer be C's
    /// address (and could wrap around), so the run stops `unmodelled`.
    fn dimension_bounds(
        &mut self,
        indices: &[Operand],
        dims: &[u32],
        purpose: Indexing,
        span: Span,
    ) -> Vec<Check> {
        let last = indices.len() - 1;
        let mut checks = Vec::with_capacity(indices.len());
        for (k, (&index, &dim)) in indices.iter().zip(dims).enumerate() {
            let (limit, kind) = match purpose {
                Indexing::Access => (i64::from(dim), PropertyKind::OutOfBounds),
                Indexing::Address if k == last => (i64::from(dim) + 1, PropertyKind::Unmodelled),
                Indexing::Address => (i64::from(dim), PropertyKind::Unmodelled),
            };
            let holds = match index {
                Operand::Const(n) => Operand::Const(i32::from(n >= 0 && i64::from(n) < limit)),
                _ => {
                    let limit = Operand::Const(i32::try_from(limit).unwrap_or(i32::MAX));
                    let low = self.temp(Rvalue::Binary(BinOp::Ge, index, Operand::Const(0)), span);
                    let high = self.temp(Rvalue::Binary(BinOp::Lt, index, limit), span);
                    self.temp(Rvalue::Binary(BinOp::BitAnd, low, high), span)
                }
            };
            if kind == PropertyKind::Unmodelled {
                let cause = "an address of an element outside its array's dimensions";
                self.unmodelled_guard_cause(holds, cause);
            }
            checks.push(Check::Condition { holds, kind });
        }
        checks
    }

    /// The place in the array's row-major order of the element (or row) that `indices` name
    /// in an array of dimensions `dims`; folded where the indices are constants. Computed
    /// before the checks of [`FnCx::dimension_bounds`], which keep it from being used where
    /// it could have wrapped around.
    fn row_major_index(&mut self, indices: &[Operand], dims: &[u32], span: Span) -> Operand {
        let mut sum: Option<Operand> = None;
        for (k, &index) in indices.iter().enumerate() {
            let stride: i64 = dims[k + 1..].iter().map(|&d| i64::from(d)).product();
            let stride = i32::try_from(stride).unwrap_or(i32::MAX);
            let term = match index {
                Operand::Const(n) => Operand::Const(n.wrapping_mul(stride)),
                _ if stride == 1 => index,
                _ => self.temp(
                    Rvalue::Binary(BinOp::Mul, index, Operand::Const(stride)),
                    span,
                ),
            };
            sum = Some(match (sum, term) {
                (None, term) => term,
                (Some(Operand::Const(a)), Operand::Const(b)) => Operand::Const(a.wrapping_add(b)),
                (Some(a), b) => self.temp(Rvalue::Binary(BinOp::Add, a, b), span),
            });
        }
        sum.unwrap_or(Operand::Const(0))
    }

    /// The array that subscripts index (`base`): an array variable or a struct's array member
    /// (not yet unboxed: the indices are evaluated first), its element type and its
    /// dimensions; or an element pointer (evaluated) and its pointee type.
    fn subscripted(
        &mut self,
        base: &Node<Expression>,
    ) -> Result<(Subscripted, CType, Vec<u32>), CError> {
        let at = self.at(base.span);
        match &base.node {
            Expression::Identifier(id) if !self.points_to_arrays(base) => {
                let (array, ty) = self.lookup(&id.node.name, at)?;
                let Some(dims) = self.arrays.get(&array) else {
                    return Err(CError::unsupported(
                        format!(
                            "subscripts of `{}`, which is not an array or a pointer into one \
                             (pointers to structs with boxed members point to one object)",
                            id.node.name
                        ),
                        at,
                    ));
                };
                Ok((Subscripted::Variable(array), ty, dims.clone()))
            }
            Expression::Member(m) if !self.points_to_arrays(base) => {
                let (member, ty) = self.member(base, m)?;
                if let (LValue::Union(part), CType::Array(id)) = (&member, ty) {
                    let (element, dims) = self.unit.types.borrow().array(id);
                    return Ok((Subscripted::Union(part.clone()), element, dims));
                }
                let (LValue::Memory(member), CType::Array(id)) = (member, ty) else {
                    return Err(CError::unsupported(
                        format!(
                            "subscripts of the member `{}`, which is not an array (a pointer \
                             member that nothing in the file moves, orders or indexes points \
                             to one object)",
                            m.node.identifier.node.name
                        ),
                        at,
                    ));
                };
                let (element, dims) = self.unit.types.borrow().array(id);
                if self.has_boxes(element) {
                    // Its elements share the boxes of one filler object (`lower/memory.rs`).
                    return Err(CError::unsupported(
                        "elements of an array member whose structs have a member whose address \
                         is taken or of array type",
                        at,
                    ));
                }
                Ok((Subscripted::Member(member), element, dims))
            }
            _ => {
                let (pointer, pointer_ty, pointee) = self.subscripted_pointer(base)?;
                let pointer = Subscripted::Pointer(pointer, pointer_ty);
                match pointee {
                    // A pointer to arrays moves by its first subscript (a dimension 0 here).
                    CType::Array(id) => {
                        let (element, inner) = self.unit.types.borrow().array(id);
                        Ok((pointer, element, std::iter::once(0).chain(inner).collect()))
                    }
                    _ => Ok((pointer, pointee, Vec::new())),
                }
            }
        }
    }

    /// The element pointer `base` evaluates to, which a subscript indexes (`p[i]`, `(p +
    /// 1)[i]`), and its pointee type.
    fn subscripted_pointer(
        &mut self,
        base: &Node<Expression>,
    ) -> Result<(Operand, CType, CType), CError> {
        match self.typed(base)? {
            (pointer, ty @ CType::Element(p)) => {
                Ok((pointer, ty, self.unit.types.borrow().pointee(p)))
            }
            _ => Err(CError::unsupported(
                "this subscript (arrays declared as variables or as struct members, and pointers \
                 into arrays, can be indexed so far; a pointer to a whole object cannot)",
                self.at(base.span),
            )),
        }
    }

    /// `a[0]` where `e` names an array `a` of one dimension (what `*a` designates), and its
    /// element type.
    pub fn first_element(&mut self, e: &Node<Expression>) -> Option<(LValue, CType)> {
        let (array, ty) = self.array_variable(e)?;
        if self.arrays.get(&array)?.len() != 1 {
            return None;
        }
        Some((LValue::Memory(Memory::first_element(array)), ty))
    }

    /// The array local `e` names, and its element type, if it names one.
    pub fn array_variable(&self, e: &Node<Expression>) -> Option<(LocalId, CType)> {
        let Expression::Identifier(id) = &e.node else {
            return None;
        };
        let (local, ty) = self.lookup(&id.node.name, self.at(e.span)).ok()?;
        self.arrays.contains_key(&local).then_some((local, ty))
    }

    /// Whether `e` is a pointer into an array of one dimension: an array member, or a value
    /// of a pointer into arrays.
    pub(super) fn points_into_array(&self, e: &Node<Expression>) -> bool {
        use lang_c::ast::{BinaryOperator as B, UnaryOperator as U};
        let one_dimension = |e: &Node<Expression>| {
            (self.array_variable(e)).is_some_and(|(local, _)| self.arrays[&local].len() == 1)
        };
        match &e.node {
            // `&a[i]`, `a + k`, `p - k`.
            Expression::UnaryOperator(u) if u.node.operator.node == U::Address => {
                matches!(&u.node.operand.node,
                    Expression::BinaryOperator(b) if b.node.operator.node == B::Index)
            }
            Expression::BinaryOperator(b) if matches!(b.node.operator.node, B::Plus | B::Minus) => {
                [&b.node.lhs, &b.node.rhs]
                    .into_iter()
                    .any(|side| one_dimension(side) || self.points_into_array(side))
            }
            _ => match self.static_type(e) {
                Some(CType::Element(_)) => true,
                Some(CType::Array(id)) => self.unit.types.borrow().array(id).1.len() == 1,
                _ => false,
            },
        }
    }

    /// Whether `argument` is a pointer an array parameter of `element`s and inner dimensions
    /// `inner` takes: into an array of them (one dimension), or to arrays of `inner` (`s.g`
    /// of a member `int g[2][3]` for `int m[][3]`).
    fn passes_pointer(&self, argument: &Node<Expression>, element: CType, inner: &[u32]) -> bool {
        match inner.is_empty() {
            true => self.points_into_array(argument),
            false => {
                self.decayed_static_type(argument) == Some(self.parameter_pointer(element, inner))
            }
        }
    }

    /// The pointer C makes an array parameter of `element`s and inner dimensions `inner`: to
    /// its elements (`int a[]`), or to arrays of `inner` (`int m[][3]` is `int (*m)[3]`).
    fn parameter_pointer(&self, element: CType, inner: &[u32]) -> CType {
        let mut types = self.unit.types.borrow_mut();
        let pointee = match inner.is_empty() {
            true => element,
            false => types.array_of(element, inner.to_vec()),
        };
        types.element_pointer_to(pointee)
    }

    /// What an inlined call passes for `argument` to `param`: an array variable to an array
    /// parameter of the same element type and inner dimensions (or to a pointer to its
    /// elements, for one dimension), else the argument's value converted to the parameter's
    /// type.
    pub fn argument(
        &mut self,
        argument: &Node<Expression>,
        (callee, param): (&str, &Parameter),
        span: Span,
    ) -> Result<Argument, CError> {
        let at = self.at(argument.span);
        if self.is_view_expression(argument) {
            return self.view_argument(argument, (callee, param), span, at);
        }
        if let CType::Element(_) = param.ty {
            return Ok(Argument::Value(
                self.converted(argument, param.ty, span, at)?,
            ));
        }
        let Some((array, element)) = self.array_variable(argument) else {
            return match &param.array {
                // An array member (or another pointer into an array, or to its rows) for an
                // array parameter: the parameter is that pointer, as C passes it.
                Some(inner) if self.passes_pointer(argument, param.ty, inner) => {
                    let pointer = self.parameter_pointer(param.ty, inner);
                    let value = self.converted(argument, pointer, span, at)?;
                    Ok(Argument::Typed(value, pointer))
                }
                Some(_) => Err(CError::unsupported(
                    format!(
                        "an argument other than an array variable for the array parameter `{}`",
                        param.name
                    ),
                    at,
                )),
                None => Ok(Argument::Value(
                    self.converted(argument, param.ty, span, at)?,
                )),
            };
        };
        let inner = &self.arrays[&array][1..];
        let fits = match (&param.array, param.ty) {
            (Some(dims), ty) => ty == element && dims[..] == *inner,
            (None, CType::Pointer(p)) => {
                inner.is_empty() && self.unit.types.borrow().pointee(p) == element
            }
            (None, _) => false,
        };
        if !fits {
            return Err(CError::unsupported(
                format!(
                    "passing this array to the parameter `{}` of another type or shape",
                    param.name
                ),
                at,
            ));
        }
        Ok(Argument::Array(array, element))
    }
}
