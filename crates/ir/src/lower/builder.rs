//! The state of lowering one micro-c function: its names (scope), the shared
//! [`FunctionBuilder`] that holds its blocks, and the module-wide tables (field names, property
//! sites) it appends to.
//!
//! Only bookkeeping lives here; what to emit for each construct is in `expr`, `place` and
//! `stmt`. Every block created is later filled and terminated by those modules.

use std::collections::HashMap;
use std::ops::{Deref, DerefMut};

use symex_syntax::ast::Ident;
use symex_syntax::span::Span;

use super::scan::{Scan, Scope};
use crate::build::FunctionBuilder;
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

pub(super) struct FnLowerer<'a, 'p> {
    pub scan: &'a Scan<'p>,
    scope: &'a Scope<'p>,
    shared: &'a mut Shared,
    builder: FunctionBuilder,
}

/// The block and instruction bookkeeping is the shared [`FunctionBuilder`]'s.
impl Deref for FnLowerer<'_, '_> {
    type Target = FunctionBuilder;

    fn deref(&self) -> &FunctionBuilder {
        &self.builder
    }
}

impl DerefMut for FnLowerer<'_, '_> {
    fn deref_mut(&mut self) -> &mut FunctionBuilder {
        &mut self.builder
    }
}

impl<'a, 'p> FnLowerer<'a, 'p> {
    pub fn new(scan: &'a Scan<'p>, shared: &'a mut Shared, func: FuncId) -> Self {
        let scope = &scan.scopes[func.index()];
        FnLowerer {
            scan,
            scope,
            shared,
            builder: FunctionBuilder::new(func, scope.locals.clone()),
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

    /// Emits a check and registers its property site, spanning the construct that fails.
    pub fn emit_check(&mut self, check: Check, span: Span) {
        self.builder
            .emit_check(&mut self.shared.properties, check, span);
    }

    pub fn finish(self, name: &Ident, span: Span, param_count: u32) -> Function {
        self.builder.finish(name.name.clone(), span, param_count)
    }
}
