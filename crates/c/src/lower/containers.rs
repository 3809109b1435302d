//! `container_of`: from a pointer to a struct member back to its struct, as the Linux list
//! does (`(struct item *)((char *)p - offsetof(struct item, link))`, also spelt with
//! `typeof`, a statement expression and `(size_t) &((T *)0)->link`).
//!
//! A struct member whose address is taken lives in a box of its own (`lower/memory.rs`,
//! "Boxes"), which knows nothing of its struct; C finds the struct by subtracting the
//! member's offset from its address. So each pair of a struct type `T` and a member `m` that
//! the file's `container_of`s name is a [`Container`], and every object of `m`'s type `M`
//! gets two fields for it: `#owner.N`, a pointer to a `T`, and `#owner.N#unknown`.
//! * `&x->m` (the only way to a box's pointer) stores `x` into the box's `#owner.N`: a box
//!   belongs to one object for its whole life, so that is its struct. `&v.m` of a variable
//!   stores `&v` (the file is lowered again with `v`'s address taken where it was not). Where
//!   the struct has no pointer of its own (an array element, a nested member), it stores 1
//!   into `#owner.N#unknown` instead, and a `container_of` of that box stops at an
//!   `unmodelled` check.
//! * `container_of(p, T, m)` is `p`'s `#owner.N` where that is set. Where it is not, `p`
//!   points to no member `m` of a `T` (a list's head, a global `struct list_head`, or the
//!   member of another struct), and C's result points before `p`'s object, into no object:
//!   `list_for_each_entry` forms it at the end of every walk, only to compare `&pos->m` with
//!   the head. That result is a *phantom*: an object of type `T` whose member `m` is `p` and
//!   whose heap state is [`phantom_state`], made once per pointer and pair (kept in `p`'s
//!   `#owner.N`), so that two `container_of`s of one head are one pointer, as in C. `&pos->m`
//!   of a phantom gives `p` back; every other access of it, its other members' addresses
//!   and `free` of it stop at an `unmodelled` check (C leaves them undefined).
//!
//! The struct of a freed (or dead) member is its freed struct, whose accesses fail their own
//! checks; a `container_of` of a null pointer or of a freed object that is no member stops at
//! an `unmodelled` check. Heap states are on in a file with containers (the phantom's state
//! needs them): the file is lowered again once the pairs are known, since they are found
//! while lowering, and so is a member not yet in a box. Only a member of `T` itself (not
//! `m.n` of a nested one) is followed; other forms are refused or `unmodelled` as before.

use symex_ir::cfg::{BinOp, InstKind, Operand, PlaceBase, PropertyKind, Rvalue, Width};
use symex_syntax::span::Span;

use super::func::FnCx;
use super::memory::{HeapOwner, Memory};
use super::types::CType;

/// A struct type and a member of it of struct type, which a `container_of` of the file
/// names; numbered from 1 in the order the lowering found them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Container {
    pub owner: CType,
    pub member: String,
    pub member_type: CType,
}

/// The base of the heap states of phantoms: container `N`'s is `PHANTOM_BASE + N`.
const PHANTOM_BASE: i32 = 16;

/// The heap state of a phantom of container `number` (see the module comment).
pub(super) fn phantom_state(number: usize) -> i32 {
    PHANTOM_BASE + number as i32
}

/// The field of an object of a container's member type that holds its struct (or its
/// phantom), and the one that says its struct is not known.
pub(super) fn owner_fields(number: usize) -> (String, String) {
    let owner = format!("#owner.{number}");
    let unknown = format!("{owner}#unknown");
    (owner, unknown)
}

impl FnCx<'_, '_> {
    /// The containers (numbered from 1) whose member type is `ty`.
    pub(super) fn containers_of_member_type(&self, ty: CType) -> Vec<usize> {
        (self.unit.containers.iter().enumerate())
            .filter(|(_, c)| c.member_type == ty)
            .map(|(k, _)| k + 1)
            .collect()
    }

    /// The number of the container of `owner`'s member `member`, if a `container_of` names it.
    fn container_number(&self, owner: CType, member: &str) -> Option<usize> {
        (self.unit.containers.iter())
            .position(|c| c.owner == owner && c.member == member)
            .map(|k| k + 1)
    }

    /// The member of `owner` at byte `offset` whose type is `member_type`, as `container_of`
    /// names it.
    fn container_member(&self, owner: CType, offset: i64, member_type: CType) -> Option<String> {
        let CType::Struct(id) = owner else {
            return None;
        };
        let types = self.unit.types.borrow();
        if types.union_members(id).is_some() {
            return None;
        }
        let fields = types.fields(id)?.to_vec();
        let offsets = types.member_offsets(id)?;
        drop(types);
        fields
            .iter()
            .zip(offsets)
            .find(|((_, ty), at)| i64::from(*at) == offset && *ty == member_type)
            .map(|((name, _), _)| name.clone())
    }

    /// `(T *)((char *)p - k)` where `k` is the offset of a member `m` of `T` of the type `p`
    /// points to, whose address the file takes: `container_of(p, T, m)` (see the module
    /// comment). `None` where `e` is not of that form, for the caller to convert as it does.
    pub(super) fn container_of(
        &mut self,
        e: &lang_c::span::Node<lang_c::ast::Expression>,
        to: CType,
        span: Span,
    ) -> Result<Option<(Operand, CType)>, crate::error::CError> {
        use lang_c::ast::{BinaryOperator, Expression};
        let Expression::BinaryOperator(b) = &e.node else {
            return Ok(None);
        };
        let Expression::Cast(bytes) = &b.node.lhs.node else {
            return Ok(None);
        };
        if b.node.operator.node != BinaryOperator::Minus {
            return Ok(None);
        }
        let at = self.at(b.node.lhs.span);
        let byte_pointer = self.type_name_of(&bytes.node.type_name.node, at);
        let (CType::Pointer(owner), Ok(CType::Pointer(byte))) = (to, byte_pointer) else {
            return Ok(None);
        };
        if !matches!(self.pointee(byte), CType::SChar | CType::UChar) {
            return Ok(None);
        }
        let Ok((offset, _)) = super::constant::evaluate(self, &b.node.rhs) else {
            return Ok(None);
        };
        let owner = self.pointee(owner);
        let Some(CType::Pointer(from)) = self.typeof_type(&bytes.node.expression) else {
            return Ok(None);
        };
        let member_type = self.pointee(from);
        let Some(member) = self.container_member(owner, offset, member_type) else {
            return Ok(None);
        };
        let (pointer, from) = self.typed(&bytes.node.expression)?;
        if !matches!(from, CType::Pointer(_)) {
            return Err(crate::error::CError::unsupported(
                "`container_of` of a pointer into an array",
                at,
            ));
        }
        // Found by this lowering: the file is lowered again with the member in a box and the
        // container's fields, and this lowering's result is never used.
        if !self.member_boxed(&member, member_type) {
            let boxes = &self.unit.boxed_members;
            // Its box would hold an array of one, or it has boxes of its own.
            if boxes.singletons.contains(&member) || boxes.structs.contains(&member) {
                return Err(crate::error::CError::unsupported(
                    format!(
                        "`container_of` of the member `{member}` (its address is a pointer into \
                         an array, or it has members in boxes of its own)"
                    ),
                    at,
                ));
            }
            self.unit.struct_boxes.borrow_mut().insert(member);
            return Ok(Some((Operand::Null, to)));
        }
        let Some(number) = self.container_number(owner, &member) else {
            let container = Container {
                owner,
                member,
                member_type,
            };
            self.unit.wanted_containers.borrow_mut().push(container);
            return Ok(Some((Operand::Null, to)));
        };
        Ok(Some((self.owner_of(pointer, number, span), to)))
    }

    /// The struct (or the phantom) of container `number` that `pointer`'s object belongs to.
    fn owner_of(&mut self, pointer: Operand, number: usize, span: Span) -> Operand {
        let (owner_field, unknown_field) = owner_fields(number);
        let not_null = self.temp(Rvalue::Binary(BinOp::Ne, pointer, Operand::Null), span);
        self.check_modelled(not_null, "`container_of` of a null pointer", span);
        self.guard_pointee(pointer, span);
        let state = self.heap_state(HeapOwner::Object(pointer), span);
        let bad_states = self.bad_states();
        // An object made from an integer has no fields to read.
        let no_object = (bad_states.iter()).find(|(_, k)| *k == PropertyKind::InvalidPointer);
        if let Some(&(no_object, _)) = no_object {
            let holds = self.temp(
                Rvalue::Binary(BinOp::Ne, state, Operand::Const(no_object)),
                span,
            );
            self.check_modelled(
                holds,
                "`container_of` of a pointer made from an integer",
                span,
            );
        }
        let unknown = self.read_field(PlaceBase::Deref(pointer), &unknown_field, Width::W32, span);
        let known = self.temp(Rvalue::Binary(BinOp::Eq, unknown, Operand::Const(0)), span);
        self.check_modelled(
            known,
            "`container_of` of a member of an array element",
            span,
        );
        let owner = self.read_field(PlaceBase::Deref(pointer), &owner_field, Width::W32, span);
        let none = self.temp(Rvalue::Binary(BinOp::Eq, owner, Operand::Null), span);
        // A freed (or dead) member's struct is its freed struct, whose accesses fail their
        // own checks; an ended object that is no member has no phantom.
        let has_owner = self.temp(Rvalue::Binary(BinOp::Ne, owner, Operand::Null), span);
        let ended = [PropertyKind::UseAfterFree, PropertyKind::UseAfterReturn];
        for (bad, _) in bad_states.into_iter().filter(|(_, k)| ended.contains(k)) {
            let alive = self.temp(Rvalue::Binary(BinOp::Ne, state, Operand::Const(bad)), span);
            let holds = self.temp(Rvalue::Binary(BinOp::BitOr, alive, has_owner), span);
            self.check_modelled(holds, "`container_of` of a freed or dead list head", span);
        }
        let (make, join) = (self.b.new_block(), self.b.new_block());
        self.b.branch(none, make, join, span);
        self.b.switch_to(make);
        let phantom = self.phantom(pointer, number, span);
        self.guard_pointee(pointer, span);
        let place = self.field_place(PlaceBase::Deref(pointer), &owner_field);
        self.b.emit(
            InstKind::Store {
                place,
                value: phantom,
            },
            span,
        );
        self.b.goto(join, span);
        self.b.switch_to(join);
        self.guard_pointee(pointer, span);
        self.read_field(PlaceBase::Deref(pointer), &owner_field, Width::W32, span)
    }

    /// A fresh phantom of container `number` whose member is `pointer` (module comment).
    fn phantom(&mut self, pointer: Operand, number: usize, span: Span) -> Operand {
        let container = self.unit.containers[number - 1].clone();
        let object = self.blank_object(container.owner, false, false, span);
        let phantom = self.temp(Rvalue::Alloc(object), span);
        self.guard_pointee(phantom, span);
        let member = self.field_place(PlaceBase::Deref(phantom), &container.member);
        self.b.emit(
            InstKind::Store {
                place: member,
                value: pointer,
            },
            span,
        );
        let state = self.heap_place(HeapOwner::Object(phantom));
        let value = Operand::Const(phantom_state(number));
        self.b.emit(
            InstKind::Store {
                place: state,
                value,
            },
            span,
        );
        phantom
    }

    /// After `&x->member` (or `&v.member` of the variable `v`) of a struct of type `owner`
    /// gave `boxed`, the member's box: notes `x` (or `&v`) as the box's struct for the
    /// container of that member, or that its struct is not known where it has no pointer
    /// (module comment). `object` is the place of the struct where it is a whole object (`*x`,
    /// or `v`'s local), not a part of one. A variable whose address the file does not take is
    /// taken in the next lowering (`Unit::wanted_addresses`).
    pub(super) fn note_owner(
        &mut self,
        (object, owner, variable): (Option<PlaceBase>, CType, Option<&str>),
        member: &str,
        boxed: &Memory,
        span: Span,
    ) {
        let Some(number) = self.container_number(owner, member) else {
            return;
        };
        let PlaceBase::Deref(box_pointer) = boxed.place.base else {
            return;
        };
        let (owner_field, unknown_field) = owner_fields(number);
        let (field, value) = match (object, variable) {
            (Some(PlaceBase::Deref(x)), _) => (owner_field, x),
            (Some(PlaceBase::Local(local)), Some(name)) => {
                match self.b.locals[local.index()].address_taken {
                    true => (owner_field, self.variable_address(name, local, span)),
                    false => {
                        let key = self.unit.elements.variable_key(self.function_name(), name);
                        self.unit.wanted_addresses.borrow_mut().insert(key);
                        (unknown_field, Operand::Const(1))
                    }
                }
            }
            _ => (unknown_field, Operand::Const(1)),
        };
        self.guard_pointee(box_pointer, span);
        let place = self.field_place(PlaceBase::Deref(box_pointer), &field);
        self.b.emit(InstKind::Store { place, value }, span);
    }

    /// The checks before an access through `pointer` ([`FnCx::pointee_guards`]), here.
    fn guard_pointee(&mut self, pointer: Operand, span: Span) {
        for check in self.pointee_guards(pointer) {
            self.check(check, span);
        }
    }
}
