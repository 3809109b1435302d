//! `void *` as a generic pointer: any pointer to a whole object converts to `void *` and back
//! unchanged (the IR pointer is the same), and the conversion back is checked. C allows the
//! round trip only to the object's own type (another type reads its bytes as that type, which
//! symex does not model: objects are typed records, not bytes). So in a file that converts
//! `void *` to another pointer type, every object carries the tag of the type it was made as
//! (`lower/memory.rs`, [`TYPE_FIELD`]), and the conversion of a pointer that is not null
//! checks that the tag is the target's pointee: otherwise the run stops at an `unmodelled`
//! check (the report says `unknown` for what it could hide), never a guess.
//!
//! This is what generic containers need (`void *` lists whose items have one of several
//! struct types, as SV-COMP's `dll_of_dll` builds them). A pointer into an array as a
//! `void *` is refused (`lower/element_pointer.rs`), and so is `void **` to `T **`.

use symex_ir::cfg::{BinOp, Check, Operand, PlaceBase, PropertyKind, Rvalue};
use symex_syntax::span::Span;

use super::func::FnCx;
use super::memory::TYPE_FIELD;
use super::types::CType;

impl FnCx<'_, '_> {
    /// The type a pointer type's values point to.
    pub(super) fn pointee(&self, id: super::types::PointeeId) -> CType {
        self.unit.types.borrow().pointee(id)
    }

    /// Whether `ty` is `void *`.
    pub(super) fn is_generic(&self, ty: CType) -> bool {
        matches!(ty, CType::Pointer(p) if self.pointee(p) == CType::Void)
    }

    /// `pointer`, a `void *`, as a pointer to objects of type `pointee`: null stays null;
    /// otherwise its object must have been made as `pointee` (`unmodelled` where not). The
    /// check is emitted once the file is lowered with type tags (the first lowering only
    /// finds that it needs them).
    pub(super) fn generic_to_typed(
        &mut self,
        pointer: Operand,
        pointee: CType,
        span: Span,
    ) -> Operand {
        self.unit.converts_generic.set(true);
        if !self.unit.type_tags || pointer == Operand::Null {
            return pointer;
        }
        let (object, join) = (self.b.new_block(), self.b.new_block());
        let not_null = self.temp(Rvalue::Binary(BinOp::Ne, pointer, Operand::Null), span);
        self.b.branch(not_null, object, join, span);
        self.b.switch_to(object);
        // The IR's guards of an access (they hold here).
        for guard in self.pointee_guards(pointer) {
            self.check(guard, span);
        }
        let place = self.field_place(PlaceBase::Deref(pointer), TYPE_FIELD);
        let tag = Operand::Local(self.b.assign_temp(Rvalue::Read(place), span));
        let wanted = Operand::Const(self.unit.type_tag(Some(pointee)));
        let holds = self.temp(Rvalue::Binary(BinOp::Eq, tag, wanted), span);
        let cause = "a `void *` converted to a pointer to another type than its object's";
        self.unmodelled_cause(span, cause);
        let kind = PropertyKind::Unmodelled;
        self.check(Check::Condition { holds, kind }, span);
        self.b.goto(join, span);
        self.b.switch_to(join);
        pointer
    }
}
