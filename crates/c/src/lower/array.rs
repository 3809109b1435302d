//! Local arrays of integers (`int a[N]`, `char m[2][3]`, with constant sizes): each is an IR
//! array value in a local, whose elements are records of the element's `value` and whether it
//! was `assigned`. C leaves an element that was never assigned indeterminate; reading one is an
//! `uninit` check (a `Check::Condition` on `assigned`), as for scalar locals. An initializer
//! (`= {1, 2}`, the rest 0) assigns every element. Every access checks its indices
//! (`out-of-bounds`), and a write stores the whole element record at once, so the bounds
//! checks of a write need no repeating between its two fields.
//!
//! Arrays as values (an array passed to a function, compared, assigned whole, decayed to a
//! pointer) are refused. Nothing here reads the IR back.

use lang_c::ast::{ArraySize, DerivedDeclarator, Expression, Initializer};
use lang_c::span::Node;
use symex_ir::cfg::{
    Check, FieldId, InstKind, LocalId, LocalKind, Operand, Place, PlaceBase, Projection,
    PropertyKind, Rvalue,
};
use symex_syntax::span::Span;
use symex_syntax::types::Type;

use super::func::FnCx;
use super::types::CType;
use crate::error::CError;

/// The fields of an element record (the module's field table lists their names in this order).
pub(super) const VALUE: FieldId = FieldId(0);
pub(super) const ASSIGNED: FieldId = FieldId(1);
pub(super) const FIELD_NAMES: [&str; 2] = ["value", "assigned"];

/// Arrays larger than this many elements in all are refused (each element is a value of every
/// state that holds the array).
const MAX_ELEMENTS: u64 = 1 << 20;

/// Something an assignment writes: a variable, or an element of an array (the place of its
/// record, indices already evaluated).
pub(super) enum LValue {
    Local(LocalId),
    Element { array: LocalId, place: Place },
}

/// The IR type of an array local with these dimensions.
pub(super) fn array_type(dims: &[u32]) -> Type {
    let element = Type::Record(vec![
        (FIELD_NAMES[ASSIGNED.index()].to_string(), Type::Int),
        (FIELD_NAMES[VALUE.index()].to_string(), Type::Int),
    ]);
    dims.iter()
        .fold(element, |inner, _| Type::Array(Box::new(inner)))
}

impl FnCx<'_, '_> {
    /// Declares the array `name` of elements of type `ty` whose declarator has these derived
    /// parts (all arrays of constant size), with its initializer.
    pub fn declare_array(
        &mut self,
        name: &str,
        ty: CType,
        derived: &[&DerivedDeclarator],
        initializer: Option<&Node<Initializer>>,
        span: Span,
        at: usize,
    ) -> Result<(), CError> {
        let mut dims = Vec::with_capacity(derived.len());
        for part in derived {
            let DerivedDeclarator::Array(array) = part else {
                return Err(CError::unsupported("arrays of pointers or functions", at));
            };
            let size = match &array.node.size {
                ArraySize::VariableExpression(e) | ArraySize::StaticExpression(e) => {
                    self.constant(e).ok()
                }
                _ => None,
            };
            match size {
                Some(n) if n > 0 => dims.push(n as u32),
                _ => {
                    return Err(CError::unsupported(
                        "arrays whose size is not a positive integer constant",
                        at,
                    ))
                }
            }
        }
        let elements: u64 = dims.iter().map(|&d| u64::from(d)).product();
        if elements > MAX_ELEMENTS {
            return Err(CError::unsupported(
                format!("arrays of more than {MAX_ELEMENTS} elements"),
                at,
            ));
        }
        let local = self.declare(name, ty, span)?;
        self.arrays.insert(local, dims.clone());
        let values =
            match initializer.map(|i| &i.node) {
                None => None,
                Some(Initializer::List(items)) => {
                    let mut values = Vec::with_capacity(items.len());
                    for item in items {
                        let at = self.at(item.span);
                        match (&item.node.designation[..], &item.node.initializer.node) {
                            ([], Initializer::Expression(e)) if dims.len() == 1 => {
                                let value = self.value(e)?;
                                values.push(self.convert(value, ty, span));
                            }
                            ([], Initializer::Expression(e)) if self.constant(e) == Ok(0) => {
                                values.push(Operand::Const(0));
                            }
                            _ => return Err(CError::unsupported(
                                "this array initializer (designators, nested lists and lists of \
                                 multi-dimensional arrays other than `{0}`)",
                                at,
                            )),
                        }
                    }
                    if values.len() > dims[0] as usize && dims.len() == 1 {
                        return Err(CError::invalid(
                            format!(
                                "more initializers than the {} elements of `{name}`",
                                dims[0]
                            ),
                            at,
                        ));
                    }
                    Some(values)
                }
                Some(Initializer::Expression(_)) => {
                    return Err(CError::invalid(
                        format!("the array `{name}` is initialized with an expression"),
                        at,
                    ))
                }
            };
        let record = |cx: &mut Self, value: Operand, assigned: i32| {
            let fields = vec![(VALUE, value), (ASSIGNED, Operand::Const(assigned))];
            Operand::Local(cx.b.assign_temp(Rvalue::Record(fields), span))
        };
        // Built from the innermost dimension out; an initializer assigns every element.
        let assigned = i32::from(values.is_some());
        let filler = record(self, Operand::Const(0), assigned);
        let innermost = dims[dims.len() - 1] as usize;
        let mut row: Vec<Operand> = match &values {
            Some(values) if dims.len() == 1 => {
                let mut row: Vec<Operand> = values.iter().map(|&v| record(self, v, 1)).collect();
                row.resize(innermost, filler);
                row
            }
            _ => vec![filler; innermost],
        };
        for &dim in dims[..dims.len() - 1].iter().rev() {
            let inner = Operand::Local(self.b.assign_temp(Rvalue::Array(row), span));
            row = vec![inner; dim as usize];
        }
        let value = Rvalue::Array(row);
        self.b.emit(InstKind::Assign { dst: local, value }, span);
        Ok(())
    }

    /// `a[i]...[k]` with one index per dimension of the array local `a`: the place of the
    /// element's record, its indices evaluated (no check yet), and the element type. `None`
    /// when `e` is not a subscript of an array local.
    pub fn element(&mut self, e: &Node<Expression>) -> Result<Option<(LValue, CType)>, CError> {
        let mut indices = Vec::new();
        let mut base = e;
        while let Expression::BinaryOperator(b) = &base.node {
            if b.node.operator.node != lang_c::ast::BinaryOperator::Index {
                break;
            }
            indices.push(&b.node.rhs);
            base = &b.node.lhs;
        }
        let Expression::Identifier(id) = &base.node else {
            return Ok(None);
        };
        if indices.is_empty() {
            return Ok(None);
        }
        let at = self.at(base.span);
        let (array, ty) = self.lookup(&id.node.name, at)?;
        let Some(dims) = self.arrays.get(&array) else {
            return Err(CError::unsupported(
                format!(
                    "subscripts of `{}`, which is not an array (pointers are not supported yet)",
                    id.node.name
                ),
                at,
            ));
        };
        if indices.len() != dims.len() {
            return Err(CError::unsupported(
                format!(
                    "`{}` with {} of its {} indices (a part of an array used as a pointer)",
                    id.node.name,
                    indices.len(),
                    dims.len()
                ),
                self.at(e.span),
            ));
        }
        indices.reverse();
        let mut projections = Vec::with_capacity(indices.len());
        for index in indices {
            let index = self.value(index)?;
            // A variable index is copied, so that its value is the one checked and used.
            let index = match index {
                Operand::Local(l) if self.b.locals[l.index()].kind != LocalKind::Temp => {
                    Operand::Local(self.b.assign_temp(Rvalue::Use(index), self.span(e.span)))
                }
                other => other,
            };
            projections.push(Projection::Index(index));
        }
        let place = Place {
            base: PlaceBase::Local(array),
            projections,
        };
        Ok(Some((LValue::Element { array, place }, ty)))
    }

    /// The bounds checks of an element's indices (and the array's own `Init` check).
    fn check_element(&mut self, array: LocalId, place: &Place, span: Span) {
        self.check(Check::Init(Place::local(array)), span);
        for (k, projection) in place.projections.iter().enumerate() {
            let Projection::Index(index) = *projection else {
                continue;
            };
            let outer = Place {
                base: place.base,
                projections: place.projections[..k].to_vec(),
            };
            self.check(
                Check::InBounds {
                    array: outer,
                    index,
                },
                span,
            );
        }
    }

    /// The element's value: its indices checked, then that it was assigned.
    pub fn read_element(&mut self, array: LocalId, place: &Place, span: Span) -> Operand {
        self.check_element(array, place, span);
        let field = |field: FieldId| {
            let mut place = place.clone();
            place.projections.push(Projection::Field(field));
            Rvalue::Read(place)
        };
        let holds = Operand::Local(self.b.assign_temp(field(ASSIGNED), span));
        let kind = PropertyKind::Uninit;
        self.check(Check::Condition { holds, kind }, span);
        Operand::Local(self.b.assign_temp(field(VALUE), span))
    }

    /// Stores `value` as the element's value, assigned; `checked` when a read of the same
    /// element did not just check its indices.
    pub fn write_element(
        &mut self,
        array: LocalId,
        place: &Place,
        value: Operand,
        checked: bool,
        span: Span,
    ) {
        if !checked {
            self.check_element(array, place, span);
        }
        let fields = vec![(VALUE, value), (ASSIGNED, Operand::Const(1))];
        let record = Operand::Local(self.b.assign_temp(Rvalue::Record(fields), span));
        let place = place.clone();
        self.b.emit(
            InstKind::Store {
                place,
                value: record,
            },
            span,
        );
    }
}
