//! `Options::nondet_locals`: a local variable declared without an initializer starts with an
//! arbitrary value, an input read where the declaration runs (again on every run of it), as
//! CBMC and SV-COMP read C's indeterminate values. Integers, structs whose leaves are all
//! integers (bit-fields keep their low bits), and arrays of them up to [`MAX_INPUT_LEAVES`]
//! numbers in all take inputs, leaf by leaf in `Types::leaves` order, elements in row-major
//! order; everything else (pointers, unions, structs with pointers or array members, larger
//! arrays) stays indeterminate, its reads `uninit` checks as without the option.
//!
//! A jump past such a declaration to a label in its scope makes the variable indeterminate
//! only where it enters the variable's block (C11 6.2.4: its lifetime starts at the block's
//! entry, its value is indeterminate from there until the declaration runs, and again each
//! time the declaration runs): a jump from outside lands on a block that reads the skipped
//! variables again, forward ([`FnCx::land`]) or backward ([`FnCx::reentered`]); a `goto`
//! inside the block keeps whatever value the variable holds, so such a variable reads its
//! inputs where its block starts instead ([`FnCx::open_block`]): a jump backward inside the
//! block may have run the declaration since. Such a block that a jump from outside (a `goto`,
//! a `switch`'s dispatch) may enter after its start is refused ([`FnCx::refuse_entry`]): that
//! jump would skip the inputs. Nothing here decides where the jumps go.

use lang_c::ast::{BlockItem, DeclarationSpecifier, Label, Statement, StorageClassSpecifier};
use lang_c::span::Node;
use lang_c::visit::Visit;
use symex_ir::cfg::{BlockId, InstKind, LocalId, Operand, Rvalue};
use symex_syntax::span::Span;

use super::array_init::Elements;
use super::func::FnCx;
use super::types::CType;
use crate::error::CError;

/// The most numbers an array (or struct) declared without an initializer, or what an
/// allocation makes (`Options::nondet_heap`), reads as inputs; a larger one stays
/// indeterminate. An array of 100,000 elements that a loop fills before it
/// reads them would otherwise read 100,000 inputs on every path (and list them in every
/// replay line).
pub(super) const MAX_INPUT_LEAVES: usize = 256;

/// A jump that may skip declarations of variables that read inputs, to a label not lowered
/// yet: the block it jumps to, which [`FnCx::land`] fills.
pub(super) struct Landing {
    pub block: BlockId,
    /// The count of locals where the jump is: the variables declared from there on are the
    /// ones it may skip.
    pub locals: usize,
    /// The [`Block::serial`]s of the blocks the jump is inside (for a `switch`'s dispatch,
    /// those the `switch` is inside).
    pub inside: Vec<u32>,
}

/// A block (a scope of [`FnCx::scopes`], at the same position) under `Options::nondet_locals`.
pub(super) struct Block {
    /// Tells this block from every other of the function (a [`Landing`] records the blocks
    /// its jump is inside).
    pub serial: u32,
    /// Where a block that may need them reads inputs at its start ([`FnCx::open_block`]):
    /// the block that was current there (it ends with a `goto`) and the one its statements
    /// begin in.
    entry: Option<(BlockId, BlockId)>,
    /// The variables of this block that read inputs at its start.
    inputs_at_entry: Vec<(LocalId, CType)>,
    /// Where the block starts in the source (for a refusal).
    at: usize,
}

impl Block {
    pub fn new(serial: u32) -> Self {
        Block {
            serial,
            entry: None,
            inputs_at_entry: Vec::new(),
            at: 0,
        }
    }
}

/// Whether, among the block's `items`, a declaration of automatic variables comes after a
/// `goto` to a label that comes after it (each possibly nested in a statement, or in the
/// declaration's own initializers): the one shape where a `goto` inside a variable's block
/// may skip its declaration.
fn may_skip_inside(items: &[Node<BlockItem>]) -> bool {
    #[derive(Default)]
    struct Jumps<'ast> {
        gotos: Vec<&'ast str>,
        labels: Vec<&'ast str>,
    }
    impl<'ast> Visit<'ast> for Jumps<'ast> {
        fn visit_statement(&mut self, statement: &'ast Statement, span: &'ast lang_c::span::Span) {
            if let Statement::Goto(label) = statement {
                self.gotos.push(&label.node.name);
            }
            lang_c::visit::visit_statement(self, statement, span);
        }
        fn visit_label(&mut self, label: &'ast Label, span: &'ast lang_c::span::Span) {
            if let Label::Identifier(name) = label {
                self.labels.push(&name.node.name);
            }
            lang_c::visit::visit_label(self, label, span);
        }
    }
    let jumps: Vec<Jumps> = (items.iter())
        .map(|item| {
            let mut jumps = Jumps::default();
            jumps.visit_block_item(&item.node, &item.span);
            jumps
        })
        .collect();
    let automatic = |item: &Node<BlockItem>| match &item.node {
        BlockItem::Declaration(d) => !(d.node.specifiers.iter()).any(|s| {
            matches!(&s.node, DeclarationSpecifier::StorageClass(class) if matches!(
                class.node,
                StorageClassSpecifier::Static
                    | StorageClassSpecifier::ThreadLocal
                    | StorageClassSpecifier::Extern
                    | StorageClassSpecifier::Typedef
            ))
        }),
        _ => false,
    };
    (0..items.len()).filter(|&i| automatic(&items[i])).any(|i| {
        let before = jumps[..=i].iter().flat_map(|j| &j.gotos);
        let after: Vec<&str> = jumps[i..]
            .iter()
            .flat_map(|j| j.labels.iter().copied())
            .collect();
        before.into_iter().any(|goto| after.contains(goto))
    })
}

impl FnCx<'_, '_> {
    /// The leaf types of `count` objects of type `ty` that `Options::nondet_locals` reads as
    /// inputs (see [`FnCx::number_leaves`]).
    pub(super) fn input_leaves(&self, ty: CType, count: usize) -> Option<Vec<CType>> {
        (self.unit.options.nondet_locals)
            .then(|| self.number_leaves(ty, count))
            .flatten()
    }

    /// The leaf types of one of `count` objects of type `ty` that may start as inputs: an
    /// integer, or a struct (not a union) whose leaves are all integers (members in boxes
    /// too); `None` for any other type, or where the objects have more than
    /// [`MAX_INPUT_LEAVES`] leaves together.
    pub(super) fn number_leaves(&self, ty: CType, count: usize) -> Option<Vec<CType>> {
        if self.is_union(ty) {
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
        let leaves = (self.input_leaves(ty, 1)).expect("a variable that reads inputs");
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

    /// Fills each landing block with new inputs for the variables in scope here whose
    /// declaration its jump skipped into their block, then goes to `target`. C makes such a
    /// variable indeterminate: its IR local would otherwise still hold the inputs an earlier
    /// run of its declaration read (in a loop), and a `TRUE` would not cover every value. A
    /// skipped variable of a block the jump is inside keeps its value (a jump backward inside
    /// the block may have run its declaration): it reads inputs where its block starts.
    pub fn land(
        &mut self,
        landings: Vec<Landing>,
        target: BlockId,
        span: Span,
    ) -> Result<(), CError> {
        let reading = self.reading_at_entry();
        for landing in landings {
            self.refuse_entry(&reading, &landing.inside)?;
            self.b.switch_to(landing.block);
            let mut entered = Vec::new();
            for variable in self.declared_since(landing.locals) {
                let scope = (self.scopes.iter())
                    .rposition(|scope| scope.values().any(|&(local, _)| local == variable.0));
                // `may_skip_inside` opened an entry for every block a `goto` inside it may
                // skip a declaration of, and `refuse_entry` made sure the jump is inside
                // every open one.
                match scope.map(|scope| &mut self.blocks[scope]) {
                    Some(block) if block.entry.is_some() => {
                        if !block.inputs_at_entry.contains(&variable) {
                            block.inputs_at_entry.push(variable);
                        }
                    }
                    _ => entered.push(variable),
                }
            }
            self.assign_inputs(entered, span);
            self.b.goto(target, span);
        }
        Ok(())
    }

    /// At the start of a block (after its scope is pushed; `at` where it starts) whose
    /// `items` have the shape of [`may_skip_inside`]: a block of its own for the statements,
    /// so that [`FnCx::close_block`] can put the inputs [`FnCx::land`] finds its variables
    /// need on the way to it.
    pub fn open_block(&mut self, items: &[Node<BlockItem>], span: Span, at: usize) {
        if !self.unit.options.nondet_locals || !may_skip_inside(items) {
            return;
        }
        let (entry, statements) = (self.b.current(), self.b.new_block());
        self.b.goto(statements, span);
        self.b.switch_to(statements);
        let block = self.blocks.last_mut().expect("a block has a scope");
        (block.entry, block.at) = (Some((entry, statements)), at);
    }

    /// The [`Block::serial`]s of the open blocks that read inputs where they start, and where
    /// each starts: a label records them, so that a `goto` backward to it from outside one of
    /// them is refused ([`FnCx::refuse_entry`]).
    pub fn reading_at_entry(&self) -> Vec<(u32, usize)> {
        (self.blocks.iter())
            .filter(|block| block.entry.is_some())
            .map(|block| (block.serial, block.at))
            .collect()
    }

    /// Refuses a jump to a label inside the blocks `entered` (from [`FnCx::reading_at_entry`])
    /// from inside only the blocks `inside`: it would enter a block that reads inputs where it
    /// starts after that start, and skip them. C makes the block's variables indeterminate
    /// there, while a `goto` inside the block keeps their values; the one set of inputs at the
    /// start cannot give both.
    pub fn refuse_entry(&self, entered: &[(u32, usize)], inside: &[u32]) -> Result<(), CError> {
        match entered.iter().find(|(serial, _)| !inside.contains(serial)) {
            Some(&(_, at)) => Err(CError::unsupported(
                "a jump from outside into the middle of a block in which a `goto` may skip a \
                 declaration (with `--nondet-locals`: C keeps the variable's value for the \
                 `goto` inside and makes it indeterminate for the jump from outside, which \
                 symex tells apart only where the block is entered at its start)",
                at,
            )),
            None => Ok(()),
        }
    }

    /// Refuses a `goto` here to the defined label `name` from outside a block that reads
    /// inputs where it starts and holds the label ([`FnCx::refuse_entry`]).
    pub fn refuse_backward_entry(&self, name: &str) -> Result<(), CError> {
        match self.labels.get(name).filter(|label| label.defined) {
            Some(label) => self.refuse_entry(&label.reading_at_entry, &self.open_blocks()),
            None => Ok(()),
        }
    }

    /// The [`Block::serial`]s of the open blocks: a jump from here is inside them.
    pub fn open_blocks(&self) -> Vec<u32> {
        self.blocks.iter().map(|block| block.serial).collect()
    }

    /// At the end of a block (before its scope is popped): the inputs at its start, where
    /// [`FnCx::open_block`] left room for them.
    pub fn close_block(&mut self, span: Span) {
        let block = self.blocks.last_mut().expect("a block has a scope");
        let Some((entry, statements)) = block.entry.take() else {
            return;
        };
        let inputs = std::mem::take(&mut block.inputs_at_entry);
        if inputs.is_empty() {
            return;
        }
        let (here, reading) = (self.b.current(), self.b.new_block());
        self.b.switch_to(reading);
        self.assign_inputs(inputs, span);
        self.b.goto(statements, span);
        self.b.redirect(entry, reading);
        self.b.switch_to(here);
    }

    /// The variables that read inputs in scope at the (defined) label `name` but not here: a
    /// `goto` from here jumps backward into their scope, where C makes them indeterminate.
    pub fn reentered(&self, name: &str) -> Vec<(LocalId, CType)> {
        let Some(label) = self
            .labels
            .get(name)
            .filter(|l| l.defined && !l.in_scope.is_empty())
        else {
            return Vec::new();
        };
        let here = self.declared_since(0);
        (label.in_scope.iter())
            .filter(|(local, _)| !here.iter().any(|(declared, _)| declared == local))
            .copied()
            .collect()
    }

    /// Ends the current block with a jump to `target` that first sets each of `variables`
    /// to new inputs (a block of its own on the way where there are any), and goes on in a
    /// fresh block.
    pub fn jump_reading(&mut self, target: BlockId, variables: Vec<(LocalId, CType)>, span: Span) {
        if variables.is_empty() {
            return self.jump(target, span);
        }
        let landing = self.b.new_block();
        self.jump(landing, span);
        let next = self.b.current();
        self.b.switch_to(landing);
        self.assign_inputs(variables, span);
        self.b.goto(target, span);
        self.b.switch_to(next);
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
    /// `first` on), a landing block added to `landings`. A dispatch into the middle of a block
    /// that reads inputs where it starts is refused ([`FnCx::refuse_entry`]).
    pub fn dispatch_target(
        &mut self,
        block: BlockId,
        first: usize,
        landings: &mut Vec<Landing>,
        at: usize,
    ) -> Result<BlockId, CError> {
        let Some(inside) = self.cases.last().map(|cases| cases.open_blocks.clone()) else {
            return Err(CError::invalid("`case` outside a `switch`", at));
        };
        self.refuse_entry(&self.reading_at_entry(), &inside)?;
        if !self.unit.options.nondet_locals || self.declared_since(first).is_empty() {
            return Ok(block);
        }
        let landing = self.b.new_block();
        landings.push(Landing {
            block: landing,
            locals: first,
            inside,
        });
        Ok(landing)
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
