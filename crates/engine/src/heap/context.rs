//! What one heap-model check shares across its states: the model and its bounds, the input
//! reference symbols (name, pointee type, access-path depth) and the interned pointee types.
//!
//! Symbols are interned by access path (`s.next.val`), so every state names the initial value
//! of the same location with the same term. Nothing here touches a state.

use rustc_hash::FxHashMap;
use symex_ir::cfg::{FieldId, Module};
use symex_report::Cut;
use symex_smt::{TermId, TermStore};
use symex_syntax::types::Type;

use crate::common::options::{CheckOptions, HeapModel, TraceRules};
use crate::common::terms::{self, WIDTH};
use crate::error::EngineError;
use crate::heap::access::ReferenceLeaves;

/// An interned pointee type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TypeKey(pub u32);

/// An input reference symbol.
#[derive(Clone, Debug)]
pub struct InputSymbol {
    pub name: String,
    pub pointee: TypeKey,
    /// Fields on its access path (0 for a parameter).
    pub depth: u32,
    /// Creation order (parameters first, in order).
    pub order: u32,
}

/// The value kind of a slot, from the pointee type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SlotKind {
    Int,
    Pointer(TypeKey),
}

pub struct HeapContext {
    pub model: HeapModel,
    pub rules: TraceRules,
    pub max_objects: Option<u32>,
    pub max_depth: Option<u32>,
    symbols: FxHashMap<TermId, InputSymbol>,
    interned: FxHashMap<String, TermId>,
    types: Vec<Type>,
    field_names: Vec<String>,
    /// `slot_kind`'s answers: it interns the slot's pointee type, a linear search comparing
    /// types up to μ unfolding, and POSE asks it at every slot initialization.
    slot_kinds: FxHashMap<(TypeKey, Option<FieldId>), SlotKind>,
    /// The identities of reference terms, memoized.
    pub leaves: ReferenceLeaves,
}

impl HeapContext {
    pub fn new(module: &Module, options: &CheckOptions) -> HeapContext {
        HeapContext {
            model: options.heap,
            rules: options.trace_rules,
            max_objects: options.max_heap_objects,
            max_depth: options.max_access_depth,
            symbols: FxHashMap::default(),
            interned: FxHashMap::default(),
            types: Vec::new(),
            field_names: module.fields.clone(),
            slot_kinds: FxHashMap::default(),
            leaves: ReferenceLeaves::default(),
        }
    }

    /// The pointee type's key (types are compared up to μ unfolding).
    pub fn intern_type(&mut self, ty: &Type) -> TypeKey {
        if let Some(i) = self.types.iter().position(|t| t.equivalent(ty)) {
            return TypeKey(i as u32);
        }
        self.types.push(ty.clone());
        TypeKey(self.types.len() as u32 - 1)
    }

    pub fn type_of(&self, key: TypeKey) -> &Type {
        &self.types[key.0 as usize]
    }

    /// Whether objects of the two pointee types may be one cell: the same type, or a type
    /// nothing constrains.
    pub fn compatible(&self, a: TypeKey, b: TypeKey) -> bool {
        a == b || self.is_free(a) || self.is_free(b)
    }

    fn is_free(&self, key: TypeKey) -> bool {
        matches!(
            self.type_of(key).unfold().as_ref(),
            Type::Var(_) | Type::Unknown
        )
    }

    /// Whether the pointee is a record (its slots are fields) rather than one value.
    pub fn is_record(&self, key: TypeKey) -> bool {
        self.type_of(key).is_record()
    }

    /// The fields of a record pointee, as module field ids (fields the module never names are
    /// left out: no instruction can access them).
    pub fn fields(&self, key: TypeKey) -> Vec<FieldId> {
        let fields = self.type_of(key).record_fields().unwrap_or_default();
        fields
            .iter()
            .filter_map(|(name, _)| self.field_id(name))
            .collect()
    }

    fn field_id(&self, name: &str) -> Option<FieldId> {
        self.field_names
            .iter()
            .position(|n| n == name)
            .map(|i| FieldId(i as u32))
    }

    pub fn field_name(&self, field: FieldId) -> &str {
        self.field_names
            .get(field.index())
            .map(String::as_str)
            .unwrap_or("?")
    }

    /// What a slot of an object of pointee type `key` holds.
    pub fn slot_kind(&mut self, key: TypeKey, field: Option<FieldId>) -> SlotKind {
        if let Some(&kind) = self.slot_kinds.get(&(key, field)) {
            return kind;
        }
        let kind = self.slot_kind_uncached(key, field);
        self.slot_kinds.insert((key, field), kind);
        kind
    }

    fn slot_kind_uncached(&mut self, key: TypeKey, field: Option<FieldId>) -> SlotKind {
        let ty = match field {
            Some(f) => {
                let name = self.field_name(f).to_string();
                self.type_of(key).field(&name)
            }
            None => Some(self.type_of(key).clone()),
        };
        match ty.and_then(|t| t.pointee()) {
            Some(pointee) => SlotKind::Pointer(self.intern_type(&pointee)),
            None => SlotKind::Int,
        }
    }

    /// The input reference symbol named `name` (made on first use).
    pub fn reference(
        &mut self,
        store: &mut TermStore,
        name: &str,
        pointee: TypeKey,
        depth: u32,
    ) -> Result<TermId, EngineError> {
        let term = self.symbol(store, name)?;
        let order = self.symbols.len() as u32;
        self.symbols.entry(term).or_insert_with(|| InputSymbol {
            name: name.to_string(),
            pointee,
            depth,
            order,
        });
        Ok(term)
    }

    /// The number symbol named `name` (made on first use).
    pub fn symbol(&mut self, store: &mut TermStore, name: &str) -> Result<TermId, EngineError> {
        if let Some(&t) = self.interned.get(name) {
            return Ok(t);
        }
        let t = store.bv_var(name.to_string(), WIDTH)?;
        self.interned.insert(name.to_string(), t);
        Ok(t)
    }

    /// The input reference symbol behind a term, if it is one.
    pub fn input_symbol(&self, term: TermId) -> Option<&InputSymbol> {
        self.symbols.get(&term)
    }

    /// The identity constant of the `index`-th object made by lazy initialization.
    pub fn object_constant(store: &mut TermStore, index: usize) -> Result<TermId, EngineError> {
        Ok(terms::int_const(store, index as i32 + 1)?)
    }

    /// The cut for an object beyond `--max-heap-objects`, if `count` objects exceed it.
    pub fn heap_size_cut(&self, count: usize) -> Option<Cut> {
        self.max_objects
            .filter(|&max| count > max as usize)
            .map(Cut::HeapSize)
    }

    /// The cut for an access path beyond `--max-access-depth`.
    pub fn depth_cut(&self, depth: u32) -> Option<Cut> {
        self.max_depth
            .filter(|&max| depth > max)
            .map(Cut::AccessDepth)
    }
}
