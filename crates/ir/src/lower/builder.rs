//! The state of lowering one function: its locals, the blocks built so far, the block being
//! filled, and the module-wide tables (field names, property sites) it appends to.
//!
//! Only bookkeeping lives here; what to emit for each construct is in `expr`, `place` and
//! `stmt`. Every block created is later filled and terminated by those modules.

use std::collections::HashMap;

use symex_syntax::ast::Ident;
use symex_syntax::span::Span;

use super::scan::{Scan, Scope};
use crate::cfg::*;

/// Module-wide tables shared by the lowering of all functions.
#[derive(Default)]
pub(super) struct Shared {
    pub fields: Vec<String>,
    field_ids: HashMap<String, FieldId>,
    pub properties: Vec<Property>,
}

impl Shared {
    /// Tables whose field ids follow the order of `names`.
    pub fn with_fields(names: &[String]) -> Shared {
        let mut shared = Shared::default();
        for name in names {
            shared.intern_field(name);
        }
        shared
    }

    pub fn intern_field(&mut self, name: &str) -> FieldId {
        if let Some(&id) = self.field_ids.get(name) {
            return id;
        }
        let id = FieldId(self.fields.len() as u32);
        self.fields.push(name.to_string());
        self.field_ids.insert(name.to_string(), id);
        id
    }
}

struct OpenBlock {
    insts: Vec<Inst>,
    term: Option<(Terminator, Span)>,
}

pub(super) struct FnLowerer<'a, 'p> {
    pub scan: &'a Scan<'p>,
    scope: &'a Scope<'p>,
    shared: &'a mut Shared,
    pub func: FuncId,
    pub locals: Vec<LocalInfo>,
    blocks: Vec<OpenBlock>,
    current: BlockId,
    temp_count: u32,
}

impl<'a, 'p> FnLowerer<'a, 'p> {
    pub fn new(scan: &'a Scan<'p>, shared: &'a mut Shared, func: FuncId) -> Self {
        let scope = &scan.scopes[func.index()];
        FnLowerer {
            scan,
            scope,
            shared,
            func,
            locals: scope.locals.clone(),
            blocks: vec![OpenBlock {
                insts: Vec::new(),
                term: None,
            }],
            current: Function::ENTRY,
            temp_count: 0,
        }
    }

    /// The local a resolved name denotes.
    ///
    /// # Panics
    /// If the name is not a parameter or `var` of the function: `lower` requires a program that
    /// passed name resolution.
    pub fn local_named(&self, ident: &Ident) -> LocalId {
        match self.scope.names.get(ident.name.as_str()) {
            Some(&id) => id,
            None => panic!(
                "lower: unresolved variable `{}` (lowering requires a resolved program)",
                ident.name
            ),
        }
    }

    /// The function a call names.
    ///
    /// # Panics
    /// If no function has that name (see [`FnLowerer::local_named`]).
    pub fn function_named(&self, ident: &Ident) -> FuncId {
        match self.scan.functions.get(ident.name.as_str()) {
            Some(&id) => id,
            None => panic!(
                "lower: call of unknown function `{}` (lowering requires a resolved program)",
                ident.name
            ),
        }
    }

    pub fn kind_of(&self, local: LocalId) -> LocalKind {
        self.locals[local.index()].kind
    }

    pub fn is_address_taken(&self, local: LocalId) -> bool {
        self.locals[local.index()].address_taken
    }

    pub fn field(&mut self, name: &str) -> FieldId {
        self.shared.intern_field(name)
    }

    pub fn new_temp(&mut self, span: Span) -> LocalId {
        let id = LocalId(self.locals.len() as u32);
        self.locals.push(LocalInfo {
            name: format!("%{}", self.temp_count),
            kind: LocalKind::Temp,
            span,
            address_taken: false,
        });
        self.temp_count += 1;
        id
    }

    pub fn new_block(&mut self) -> BlockId {
        self.blocks.push(OpenBlock {
            insts: Vec::new(),
            term: None,
        });
        BlockId(self.blocks.len() as u32 - 1)
    }

    /// Continues emitting into `block` (a fresh one, or one whose predecessors are all built).
    pub fn switch_to(&mut self, block: BlockId) {
        debug_assert!(self.blocks[block.index()].term.is_none());
        self.current = block;
    }

    pub fn emit(&mut self, kind: InstKind, span: Span) {
        let block = &mut self.blocks[self.current.index()];
        debug_assert!(block.term.is_none(), "emitting into a terminated block");
        block.insts.push(Inst { kind, span });
    }

    /// `dst = value` into a fresh temporary.
    pub fn assign_temp(&mut self, value: Rvalue, span: Span) -> LocalId {
        let dst = self.new_temp(span);
        self.emit(InstKind::Assign { dst, value }, span);
        dst
    }

    /// Emits a check and registers its property site, spanning the construct that fails.
    pub fn emit_check(&mut self, check: Check, span: Span) {
        let prop = PropId(self.shared.properties.len() as u32);
        self.shared.properties.push(Property {
            kind: check.kind(),
            func: self.func,
            span,
        });
        self.emit(InstKind::Check { check, prop }, span);
    }

    /// Ends the current block; the next emission needs a [`FnLowerer::switch_to`].
    pub fn terminate(&mut self, term: Terminator, span: Span) {
        let block = &mut self.blocks[self.current.index()];
        debug_assert!(block.term.is_none(), "block terminated twice");
        block.term = Some((term, span));
    }

    pub fn goto(&mut self, target: BlockId, span: Span) {
        self.terminate(Terminator::Goto(target), span);
    }

    pub fn finish(self, name: &Ident, span: Span, param_count: u32) -> Function {
        let blocks = self
            .blocks
            .into_iter()
            .map(|b| {
                let (term, term_span) = b.term.expect("lowering terminates every block it creates");
                Block {
                    insts: b.insts,
                    term,
                    term_span,
                }
            })
            .collect();
        Function {
            name: name.name.clone(),
            span,
            param_count,
            locals: self.locals,
            blocks,
        }
    }
}
