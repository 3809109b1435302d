//! What the backward engine needs from the inferred types: which named locals hold pointers (the
//! input-heap assumptions apply to them), which fields hold pointers (reads of them get the
//! closed-input-heap constraint), the record shape behind a pointer (to write an input
//! heap's objects), and the types pointers point to (the cell kinds of `typing`).
//!
//! Temporaries have no named type; they are never assumed to be pointers, which only weakens the
//! assumptions made at intermediate solver calls (see `conj`). Nothing here builds terms.

use rustc_hash::{FxHashMap, FxHashSet};
use symex_ir::cfg::{LocalKind, Module};
use symex_syntax::types::{Type, TypeTable};

/// How a field name is used across the program's record types.
#[derive(Clone, Copy, Debug, Default)]
struct FieldUse {
    pointer: bool,
    other: bool,
}

/// The type facts of one module.
pub struct TypeFacts<'t> {
    types: &'t TypeTable,
    fields: FxHashMap<String, FieldUse>,
    /// Every type some pointer of the program points to, in the order first met.
    pointees: Vec<Type>,
}

impl<'t> TypeFacts<'t> {
    pub fn new(module: &Module, types: &'t TypeTable) -> TypeFacts<'t> {
        let mut facts = TypeFacts {
            types,
            fields: FxHashMap::default(),
            pointees: Vec::new(),
        };
        let mut seen = FxHashSet::default();
        for function in &module.functions {
            for local in &function.locals {
                if local.kind == LocalKind::Temp {
                    continue;
                }
                if let Some(ty) = types.local_type(&function.name, &local.name) {
                    facts.visit(&ty, &mut seen, 0);
                }
            }
            if let Some(Type::Function(_, result)) = types.function_type(&function.name) {
                facts.visit(&result, &mut seen, 0);
            }
        }
        // Every cell a run makes is the pointee of an `alloc` or `&x` expression, so the
        // expressions' types cover the cells no named variable reaches (`(alloc {f: 1})->f`).
        for ty in types.expression_types() {
            facts.visit(&ty, &mut seen, 0);
        }
        facts
    }

    fn visit(&mut self, ty: &Type, seen: &mut FxHashSet<Type>, depth: u32) {
        if depth > 16 || !seen.insert(ty.clone()) {
            return;
        }
        let unfolded = ty.unfold().into_owned();
        match &unfolded {
            Type::Pointer(target) => {
                if !self.pointees.contains(target) {
                    self.pointees.push(target.as_ref().clone());
                }
                self.visit(target, seen, depth + 1)
            }
            Type::Record(fields) => {
                for (name, field_ty) in fields {
                    let entry = self.fields.entry(name.clone()).or_default();
                    if field_ty.is_pointer() {
                        entry.pointer = true;
                    } else if !matches!(field_ty, Type::Var(_) | Type::Unknown) {
                        entry.other = true;
                    }
                    self.visit(field_ty, seen, depth + 1);
                }
            }
            _ => {}
        }
    }

    /// Every type a pointer of the program points to (named variables', results' and
    /// expressions' types).
    pub fn pointee_types(&self) -> &[Type] {
        &self.pointees
    }

    /// Whether `name` holds a pointer in every record type that has it.
    pub fn is_ref_field(&self, name: &str) -> bool {
        self.fields
            .get(name)
            .is_some_and(|use_| use_.pointer && !use_.other)
    }

    /// The type of a parameter or `var` local.
    pub fn local_type(&self, function: &str, local: &str) -> Option<Type> {
        self.types.local_type(function, local)
    }

    /// Whether a parameter or `var` local holds a pointer.
    pub fn is_ref_local(&self, function: &str, local: &str) -> bool {
        self.local_type(function, local)
            .is_some_and(|ty| ty.is_pointer())
    }
}
