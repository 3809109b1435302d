//! Braced initializers of arrays (C11 §6.7.9): which element each item of `{…}` sets, for
//! arrays of any number of dimensions and of structs. Nested lists set a sub-array or a
//! struct element; designators `[k] =` move to an element; an item without braces where an
//! aggregate is expected starts C's *brace elision*: the aggregate takes the next items of the
//! same list, one per scalar it holds (`int m[2][2] = {1, 2, 3, 4}`, `struct pt v[2] = {1, 2,
//! 3, 4}`), until it is full or an item has a designator. Elements no item sets are zero.
//!
//! The result is each element's leaves (`Types::leaves` order), row-major; `array.rs` builds
//! the array value from them. Anything whose meaning would need more of §6.7.9 is refused with
//! its reason, never approximated: an item without a designator after a nested designator
//! (`[i][j] = v, w`: C goes on inside the row), ranges, braces
//! inside an elided aggregate, elision into a struct with an array member, a struct value as
//! an item. Nothing here reads the IR back.

use lang_c::ast::{Designator, Expression, Initializer, InitializerListItem};
use lang_c::span::Node;
use symex_ir::cfg::Operand;
use symex_syntax::span::Span;

use super::func::FnCx;
use super::literal::string_bytes;
use super::types::{CType, MAX_ELEMENTS};
use crate::error::CError;

/// Each element's leaves, row-major; `None` for an element no item sets (zero).
pub type Elements = Vec<Option<Vec<Operand>>>;

/// The leaves of elements that brace elision reached, `None` for a leaf it did not.
type ElidedElements = Vec<Vec<Option<Operand>>>;

impl FnCx<'_, '_> {
    /// The elements that the braced list `items` gives the array `name` of elements of type
    /// `ty`, whose first dimension is `first` (`None`: as many as the list sets, `int a[] =
    /// {…}`) and whose other dimensions are `inner`.
    pub fn list_elements(
        &mut self,
        name: &str,
        ty: CType,
        first: Option<u32>,
        inner: &[u32],
        items: &[Node<InitializerListItem>],
        span: Span,
    ) -> Result<Elements, CError> {
        // `char s[] = {"ab"}`: a string in braces sets the characters as without them.
        if let ([item], true) = (items, inner.is_empty()) {
            if let Initializer::Expression(e) = &item.node.initializer.node {
                if item.node.designation.is_empty() && self.is_string_row(e, ty) {
                    return self.string_row(e, ty, first, span);
                }
            }
        }
        let stride: usize = inner.iter().map(|&d| d as usize).product();
        let mut out: Elements = Vec::new();
        let mut index = 0usize;
        let mut i = 0;
        // After `[i][j] = v` or `[i].m = v`, C goes on inside the element or row: an item
        // without a designator there is refused rather than placed by this list.
        let mut inside = false;
        while i < items.len() {
            let item = &items[i];
            let at = self.at(item.span);
            match item.node.designation.as_slice() {
                [] if inside => {
                    return Err(CError::unsupported(
                        "an item without a designator after a nested designator (`[i][j] = v, \
                         w`: give `w` its own designator)",
                        at,
                    ))
                }
                [] => {}
                [designator] => index = self.array_designator(designator, at)?,
                [designator, path @ ..] => {
                    index = self.array_designator(designator, at)?;
                    let dims = (first, inner);
                    self.nested_designation(name, ty, dims, (index, path), item, &mut out, span)?;
                    inside = true;
                    i += 1;
                    continue;
                }
            }
            inside = false;
            if first.is_some_and(|n| index >= n as usize) {
                return Err(CError::invalid(
                    format!(
                        "more initializers than the {} elements of `{name}`",
                        first.unwrap_or_default()
                    ),
                    at,
                ));
            }
            let from = make_room(&mut out, index, stride, at)?;
            let initializer = &item.node.initializer;
            match &initializer.node {
                Initializer::List(sub) if !inner.is_empty() => {
                    let elements =
                        self.list_elements(name, ty, Some(inner[0]), &inner[1..], sub, span)?;
                    out[from..from + elements.len()].clone_from_slice(&elements);
                    i += 1;
                }
                Initializer::Expression(e) if inner.len() == 1 && self.is_string_row(e, ty) => {
                    let row = self.string_row(e, ty, Some(inner[0]), span)?;
                    out[from..from + row.len()].clone_from_slice(&row);
                    i += 1;
                }
                Initializer::Expression(e) if !inner.is_empty() || !ty.is_scalar() => {
                    if matches!(self.static_type(e), Some(CType::Struct(_))) {
                        return Err(CError::unsupported(
                            "a struct value inside an initializer list (write the braces of \
                             every nested struct)",
                            self.at(e.span),
                        ));
                    }
                    let (elements, next) = self.elided_elements(ty, stride, items, i, span)?;
                    for (k, leaves) in elements.into_iter().enumerate() {
                        let slot = &mut out[from + k];
                        *slot = Some(self.overwritten(ty, slot.take(), leaves, span));
                    }
                    i = next;
                }
                _ => {
                    let mut leaves = Vec::new();
                    self.initial_leaves(ty, initializer, &mut leaves)?;
                    out[from] = Some(leaves);
                    i += 1;
                }
            }
            index += 1;
        }
        if let Some(n) = first {
            out.resize(n as usize * stride, None);
        }
        Ok(out)
    }

    /// The element a `[k]` designator names.
    fn array_designator(&self, designator: &Node<Designator>, at: usize) -> Result<usize, CError> {
        let Designator::Index(e) = &designator.node else {
            return Err(CError::unsupported(
                "this designator in an array initializer (only `[k] =`)",
                at,
            ));
        };
        self.constant(e)
            .ok()
            .and_then(|k| usize::try_from(k).ok())
            .ok_or_else(|| {
                CError::unsupported(
                    "an array designator that is not a constant of at least 0",
                    at,
                )
            })
    }

    /// Sets in `out` what the item `[index]` followed by the designators `path` names: `[j]…`
    /// moves into the row (a whole element, or a row given in braces), then `.m…` into the
    /// struct element (`designated_leaves`).
    #[allow(clippy::too_many_arguments)]
    fn nested_designation(
        &mut self,
        name: &str,
        ty: CType,
        (first, inner): (Option<u32>, &[u32]),
        (index, path): (usize, &[Node<Designator>]),
        item: &Node<InitializerListItem>,
        out: &mut Elements,
        span: Span,
    ) -> Result<(), CError> {
        let at = self.at(item.span);
        let mut dims = inner;
        let mut flat = index;
        let mut bound = first.map(|n| n as usize);
        let mut rest = path;
        while let (Some(&d), [designator, tail @ ..]) = (dims.first(), rest) {
            if !matches!(designator.node, Designator::Index(_)) {
                break;
            }
            let j = self.array_designator(designator, at)?;
            if j >= d as usize {
                return Err(CError::invalid(
                    format!("a designator past the {d} elements of a row of `{name}`"),
                    at,
                ));
            }
            flat = flat * d as usize + j;
            bound = bound.map(|n| n * d as usize);
            dims = &dims[1..];
            rest = tail;
        }
        if bound.is_some_and(|n| flat >= n) {
            return Err(CError::invalid(
                format!("more initializers than the elements of `{name}`"),
                at,
            ));
        }
        let stride: usize = dims.iter().map(|&d| d as usize).product();
        let from = make_room(out, flat, stride, at)?;
        let initializer = &item.node.initializer;
        match (dims, rest, &initializer.node) {
            // A whole element.
            ([], [], _) => {
                let mut leaves = Vec::new();
                self.initial_leaves(ty, initializer, &mut leaves)?;
                out[from] = Some(leaves);
            }
            // A part of a struct element.
            ([], path, _) => {
                let old = out[from].take();
                out[from] = Some(self.designated_leaves(ty, old, path, item, span)?);
            }
            // A row, in its braces.
            (row, [], Initializer::List(sub)) => {
                let elements = self.list_elements(name, ty, Some(row[0]), &row[1..], sub, span)?;
                out[from..from + elements.len()].clone_from_slice(&elements);
            }
            _ => {
                return Err(CError::unsupported(
                    "a nested designator naming a row without braces or a member of a row",
                    at,
                ))
            }
        }
        Ok(())
    }

    /// Brace elision: at most `count` elements of type `ty` from the expressions of `items`
    /// from the `i`-th on (its designator, if any, is the caller's), one per leaf, until an
    /// item has a designator; each element's leaves (`None` for a leaf no item reached: the
    /// last element may be set only in part), and the index of the first item not taken.
    pub(super) fn elided_elements(
        &mut self,
        ty: CType,
        count: usize,
        items: &[Node<InitializerListItem>],
        mut i: usize,
        span: Span,
    ) -> Result<(ElidedElements, usize), CError> {
        let leaves = self.unit.types.borrow().leaves(ty);
        let start = i;
        let mut out = Vec::new();
        while out.len() < count {
            let mut values = Vec::with_capacity(leaves.len());
            for (_, leaf) in &leaves {
                let Some(item) = items.get(i) else { break };
                if i > start && !item.node.designation.is_empty() {
                    break;
                }
                let at = self.at(item.span);
                let Initializer::Expression(e) = &item.node.initializer.node else {
                    return Err(CError::unsupported(
                        "braces inside an aggregate whose own braces are left out (write the \
                         braces of every array row and struct)",
                        at,
                    ));
                };
                // An array member takes items only as `0`, the list's last (`{0}`: all zero).
                if !leaf.is_scalar() {
                    if i + 1 == items.len() && self.constant(e) == Ok(0) {
                        values.push(None);
                        i += 1;
                        continue;
                    }
                    return Err(CError::unsupported(
                        "an initializer without braces for a struct with an array member or a \
                         union (write its braces)",
                        at,
                    ));
                }
                values.push(Some(self.converted(e, *leaf, span, at)?));
                i += 1;
            }
            if values.is_empty() {
                break;
            }
            let full = values.len() == leaves.len();
            values.resize(leaves.len(), None);
            out.push(values);
            if !full {
                break;
            }
        }
        Ok((out, i))
    }

    /// The leaves of an element of type `ty` that held `old` (`None`: nothing yet) after an
    /// elided list set the leaves `new` names: a designator may come back to an element and
    /// set only some of its leaves (`{{1, 2}, [0] = 3}` leaves `y` at 2, C11 §6.7.9p19).
    pub(super) fn overwritten(
        &mut self,
        ty: CType,
        old: Option<Vec<Operand>>,
        new: Vec<Option<Operand>>,
        span: Span,
    ) -> Vec<Operand> {
        let old = match old {
            Some(old) => old,
            None => self.zero_leaves(ty, span),
        };
        old.into_iter()
            .zip(new)
            .map(|(old, new)| new.unwrap_or(old))
            .collect()
    }

    /// Whether `e` is a string literal that sets a row of characters.
    fn is_string_row(&self, e: &Node<Expression>, ty: CType) -> bool {
        ty.is_char() && matches!(e.node, Expression::StringLiteral(_))
    }

    /// The characters of the string literal `e` as a row of `len` characters (`None`: the
    /// literal's with its 0), 0 after them (the literal's 0 dropped where the row has exactly
    /// its characters, as C says).
    fn string_row(
        &mut self,
        e: &Node<Expression>,
        ty: CType,
        len: Option<u32>,
        span: Span,
    ) -> Result<Elements, CError> {
        let at = self.at(e.span);
        let Expression::StringLiteral(literal) = &e.node else {
            return Err(CError::invalid("a string literal was expected", at));
        };
        let bytes = string_bytes(&literal.node, at)?;
        // An array sized by its initializer has the literal's characters and its 0.
        let len = len.unwrap_or(u32::try_from(bytes.len()).unwrap_or(u32::MAX));
        if bytes.len() - 1 > len as usize {
            return Err(CError::invalid(
                format!("a string longer than the {len} characters of its row"),
                at,
            ));
        }
        // The whole row: a string sets every character of it, 0 after its own.
        let mut row: Elements = bytes
            .iter()
            .take(len as usize)
            .map(|&b| Some(vec![self.convert(Operand::Const(i32::from(b)), ty, span)]))
            .collect();
        row.resize(len as usize, None);
        Ok(row)
    }
}

/// `out` long enough for the `index`-th row of `stride` elements (at most [`MAX_ELEMENTS`]
/// in all); the row's first element.
fn make_room(out: &mut Elements, index: usize, stride: usize, at: usize) -> Result<usize, CError> {
    let (from, to) = (index * stride, (index + 1) * stride);
    if to as u64 > MAX_ELEMENTS {
        return Err(CError::unsupported(
            format!("arrays of more than {MAX_ELEMENTS} elements"),
            at,
        ));
    }
    if out.len() < to {
        out.resize(to, None);
    }
    Ok(from)
}
