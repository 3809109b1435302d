//! `Options::nondet_locals`: a local variable declared without an initializer starts with an
//! arbitrary value, an input read where the declaration runs (again on every run of it), as
//! CBMC and SV-COMP read C's indeterminate values. Integers, structs whose leaves are all
//! integers (bit-fields keep their low bits), and arrays of them up to [`MAX_INPUT_LEAVES`]
//! numbers in all take inputs, leaf by leaf in `Types::leaves` order, elements in row-major
//! order; everything else (pointers, unions, structs with pointers or array members, larger
//! arrays) stays indeterminate, its reads `uninit` checks as without the option.
//!
//! A jump past such a declaration to a label in its scope lands on a block that reads the
//! skipped variables again: forward ([`FnCx::land`]) or backward into their block
//! ([`FnCx::reentered`]). Nothing here decides where the jumps go.

use symex_ir::cfg::{BlockId, InstKind, LocalId, Operand, Rvalue};
use symex_syntax::span::Span;

use super::array_init::Elements;
use super::func::FnCx;
use super::types::CType;

/// The most numbers an array (or struct) declared without an initializer reads as inputs; a
/// larger one stays indeterminate. An array of 100,000 elements that a loop fills before it
/// reads them would otherwise read 100,000 inputs on every path (and list them in every
/// replay line).
pub(super) const MAX_INPUT_LEAVES: usize = 256;

impl FnCx<'_, '_> {
    /// The leaf types of `count` objects of type `ty` that `Options::nondet_locals` reads as
    /// inputs (the leaves of one object): an integer, or a struct (not a union) whose leaves
    /// are all integers (members in boxes too); `None` for any other type, or where the
    /// objects have more than [`MAX_INPUT_LEAVES`] leaves.
    pub(super) fn input_leaves(&self, ty: CType, count: usize) -> Option<Vec<CType>> {
        if !self.unit.options.nondet_locals || self.is_union(ty) {
            return None;
        }
        let leaves: Vec<CType> = match ty {
            CType::Struct(_) => (self.unit.types.borrow().leaves(ty).into_iter())
                .map(|(_, leaf)| leaf)
                .collect(),
            _ => vec![ty],
        };
        let within = leaves.len().checked_mul(count)? <= MAX_INPUT_LEAVES;
        (within && leaves.iter().all(|leaf| leaf.is_number())).then_some(leaves)
    }

    /// Sets the variable `local` of type `ty` (one that [`FnCx::input_leaves`] takes) to
    /// new inputs.
    pub fn assign_input(&mut self, local: LocalId, ty: CType, span: Span) {
        let leaves = self.input_leaves(ty, 1).unwrap_or_default();
        let values: Vec<Operand> = leaves.iter().map(|&leaf| self.input(leaf, span)).collect();
        let value = match ty {
            CType::Struct(_) => self.object_of(ty, &values, span),
            _ if self.in_memory(local) => self.object_of(ty, &values, span),
            _ => values[0],
        };
        let value = Rvalue::Use(self.held_by(local, value, span));
        self.b.emit(InstKind::Assign { dst: local, value }, span);
    }

    /// The leaves of `count` array elements of type `ty` as new inputs, where
    /// [`FnCx::input_leaves`] takes them.
    pub(super) fn input_elements(
        &mut self,
        ty: CType,
        count: usize,
        span: Span,
    ) -> Option<Elements> {
        let leaves = self.input_leaves(ty, count)?;
        let element = |cx: &mut Self| leaves.iter().map(|&leaf| cx.input(leaf, span)).collect();
        Some((0..count).map(|_| Some(element(self))).collect())
    }

    /// Sets the array variable `local` (elements of type `ty`, dimensions `dims`) to new
    /// inputs where [`FnCx::input_leaves`] takes its elements.
    fn assign_input_array(&mut self, local: LocalId, ty: CType, dims: &[u32], span: Span) {
        let count = dims.iter().map(|&d| d as usize).product();
        if let Some(values) = self.input_elements(ty, count, span) {
            let value = self.array_of_elements(ty, dims, Some(values), true, span);
            self.b.emit(InstKind::Assign { dst: local, value }, span);
        }
    }

    /// Fills each landing block (`landing`, the count of locals where its jump was) with new
    /// inputs for the variables in scope here that the jump skipped the declaration of, then
    /// goes to `target`. C makes such a variable indeterminate: its IR local would otherwise
    /// still hold the inputs an earlier run of its declaration read (in a loop), and a `TRUE`
    /// would not cover every value.
    pub fn land(&mut self, landings: Vec<(BlockId, usize)>, target: BlockId, span: Span) {
        for (landing, locals) in landings {
            self.b.switch_to(landing);
            let skipped = self.declared_since(locals);
            self.assign_inputs(skipped, span);
            self.b.goto(target, span);
        }
    }

    /// The variables that read inputs in scope at the (defined) label `name` but not here: a
    /// `goto` from here jumps backward into their scope, where C makes them indeterminate.
    pub fn reentered(&self, name: &str) -> Vec<(LocalId, CType)> {
        let Some(label) = self.labels.get(name).filter(|label| label.defined) else {
            return Vec::new();
        };
        let here = self.declared_since(0);
        (label.in_scope.iter())
            .filter(|variable| !here.contains(variable))
            .copied()
            .collect()
    }

    /// Sets each of `variables` (from [`FnCx::declared_since`]) to new inputs.
    pub fn assign_inputs(&mut self, variables: Vec<(LocalId, CType)>, span: Span) {
        for (local, ty) in variables {
            match self.arrays.get(&local).cloned() {
                Some(dims) => self.assign_input_array(local, ty, &dims, span),
                None => self.assign_input(local, ty, span),
            }
        }
    }

    /// The block a `switch`'s dispatch jumps to for the case label whose block is `block`:
    /// where the dispatch skips declarations of variables that read inputs (the locals from
    /// `first` on), a landing block added to `landings`.
    pub fn dispatch_target(
        &mut self,
        block: BlockId,
        first: usize,
        landings: &mut Vec<(BlockId, usize)>,
    ) -> BlockId {
        if !self.unit.options.nondet_locals || self.declared_since(first).is_empty() {
            return block;
        }
        let landing = self.b.new_block();
        landings.push((landing, first));
        landing
    }

    /// The variables of [`FnCx::in_scope_since`]`(locals)` whose declarations read inputs (an
    /// array with its element type, as `declare_array` records it).
    pub fn declared_since(&self, locals: usize) -> Vec<(LocalId, CType)> {
        let mut declared = self.in_scope_since(locals);
        declared.retain(|(local, ty)| {
            let count = self
                .arrays
                .get(local)
                .map_or(1, |dims| dims.iter().map(|&d| d as usize).product());
            self.input_leaves(*ty, count).is_some()
        });
        declared
    }
}
