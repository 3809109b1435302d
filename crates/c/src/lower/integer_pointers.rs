//! Integers converted to pointers (`p->n = (void *)__VERIFIER_nondet_ulong();`): 0 is the null
//! pointer, any other value a pointer to *no object*.
//!
//! Such a pointer is modelled as a pointer to an object of its own whose heap state is
//! [`NO_OBJECT`] (no other field, no count in the leak check): reading or writing through it
//! fails the `invalid-pointer` check (SV-COMP's `valid-deref`), `free` of it the `invalid-free`
//! check (`valid-free`: only a live object may be freed), and it compares unequal to null, as
//! C's real pointers from such integers would. What it does not model is its address: so that
//! no comparison can take it for a real object's (or tell it apart from one), a file that
//! converts integers to pointers compares pointers only with null (others are refused), and
//! the heap-state checks are on (the file is lowered again with them when the conversion is
//! met: it is found only while typing).
//!
//! Nothing here decides where C converts; `coerce` (`lower/expr.rs`) calls in.

use symex_ir::cfg::{BinOp, Operand, Rvalue, Width};
use symex_syntax::span::Span;

use super::func::FnCx;
use super::memory::NO_OBJECT;
use super::types::CType;

impl FnCx<'_, '_> {
    /// `value`, a number of type `from`, as a pointer: null when its bits in a pointer are 0
    /// (in ILP32 a 64-bit integer loses its high half, as gcc's `-m32` code does), else a
    /// pointer to a fresh object that is no object (its heap state says so).
    pub(super) fn integer_pointer(&mut self, value: Operand, from: CType, span: Span) -> Operand {
        self.unit.converts_integers.set(true);
        let address = self.size_t();
        let value = self.convert_number(value, from, address, span);
        let nonzero = self.temp(Rvalue::Binary(BinOp::Ne, value, address.constant(0)), span);
        let result = self.b.new_temp(span, Width::W32);
        let (to_no_object, null, join) =
            (self.b.new_block(), self.b.new_block(), self.b.new_block());
        self.b.branch(nonzero, to_no_object, null, span);
        self.b.switch_to(to_no_object);
        let object = self.record(Vec::new(), NO_OBJECT, None, span);
        let cell = self.temp(Rvalue::Alloc(object), span);
        self.assign(result, cell, span);
        self.b.goto(join, span);
        self.b.switch_to(null);
        self.assign(result, Operand::Null, span);
        self.b.goto(join, span);
        self.b.switch_to(join);
        self.integer_pointers.insert(result);
        Operand::Local(result)
    }

    /// Whether `value` was made by [`FnCx::integer_pointer`]: it points to no object, so a
    /// `void *` holding it converts to any pointer type.
    pub(super) fn is_integer_pointer(&self, value: Operand) -> bool {
        matches!(value, Operand::Local(local) if self.integer_pointers.contains(&local))
    }
}
