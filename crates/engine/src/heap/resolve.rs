//! Lazy initialization (Khurshid, Păsăreanu, Visser) and lazier# (Deng et al.): the case
//! analysis that resolves an input reference symbol, one successor per case (digest §5).
//!
//! * LI: null, each type-compatible object materialized before (in order), a fresh object;
//! * lazier#, comparing with null: null or "some non-null object" (resolved later);
//! * lazier#, dereferencing a symbol known non-null: the aliases and a fresh object.
//!
//! Under lazier# the aliases of a dereferenced reference also include the references known
//! non-null but not materialized that were created before it (the paper's receiver `this`,
//! materialized first by LI, is such a reference in micro-c: `assume(self != null)`); the
//! alias case materializes one object for both.
//!
//! A resolution replaces the symbol by 0 or by the object's identity constant, also where it
//! is a leaf of an `ite` reference term (`substitute`); the forward engine substitutes it in
//! the state's locals and cells, `apply` in the input objects.
//! Nothing here decides when to resolve (the forward engine's hooks do).

use std::rc::Rc;

use symex_report::Cut;
use symex_smt::{Node, Op, PathCondition, TermId, TermStore};

use crate::error::EngineError;
use crate::forward::value::SymValue;
use crate::heap::access::leaves;
use crate::heap::context::HeapContext;
use crate::heap::objects::{HeapState, InputObject};

type Result<T> = std::result::Result<T, EngineError>;

/// One case of the analysis.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Resolution {
    Null,
    /// The `index`-th object of the state's input heap.
    Alias(usize),
    /// lazier#: the same object as an older reference known non-null, materialized now.
    AliasNonNull(TermId),
    Fresh,
    /// lazier#: non-null, not yet resolved.
    NonNull,
}

impl HeapContext {
    /// The cases for `symbol`: `full` enumerates objects (a dereference or LI), otherwise
    /// only null / non-null (a lazier# null comparison).
    pub fn alternatives(&self, heap: &HeapState, symbol: TermId, full: bool) -> Vec<Resolution> {
        let known_non_null = heap.non_null.contains(&symbol);
        let mut out = Vec::new();
        if !known_non_null {
            out.push(Resolution::Null);
        }
        if !full {
            if !known_non_null {
                out.push(Resolution::NonNull);
            }
            return out;
        }
        let pointee = self.input_symbol(symbol).map(|s| s.pointee);
        for (i, object) in heap.objects.iter().enumerate() {
            if pointee.is_some_and(|p| self.compatible(p, object.pointee)) {
                out.push(Resolution::Alias(i));
            }
        }
        let order = self.input_symbol(symbol).map(|s| s.order);
        for &other in &heap.non_null {
            let Some(o) = self.input_symbol(other) else {
                continue;
            };
            let older = order.is_some_and(|mine| o.order < mine);
            if other != symbol && older && pointee.is_some_and(|p| self.compatible(p, o.pointee)) {
                out.push(Resolution::AliasNonNull(other));
            }
        }
        out.push(Resolution::Fresh);
        out
    }

    /// Applies one case to a state's input heap and path condition: the symbols replaced and
    /// their values (none for `NonNull`), or the cut of a heap-size bound.
    pub fn apply(
        &self,
        store: &mut TermStore,
        heap: &mut HeapState,
        pc: &mut PathCondition,
        symbol: TermId,
        case: Resolution,
    ) -> Result<std::result::Result<Vec<(TermId, TermId)>, Cut>> {
        let pointee = self
            .input_symbol(symbol)
            .map(|s| s.pointee)
            .ok_or_else(|| EngineError::Internal("resolving a non-reference".into()))?;
        let value = match case {
            Resolution::NonNull => {
                let zero = store.bv_val(32, 0)?;
                let null = store.eq(symbol, zero)?;
                pc.push(store.not(null)?);
                heap.non_null.push(symbol);
                return Ok(Ok(Vec::new()));
            }
            Resolution::Null => store.bv_val(32, 0)?,
            Resolution::Alias(i) => {
                let object = &mut heap.objects[i];
                // An object first seen through an unconstrained type takes the more precise one.
                if object.pointee != pointee && self.compatible(object.pointee, pointee) {
                    let free = self.type_of(object.pointee).unfold().as_ref().clone();
                    if matches!(free, symex_syntax::types::Type::Var(_)) {
                        object.pointee = pointee;
                    }
                }
                object.ident
            }
            Resolution::Fresh | Resolution::AliasNonNull(_) => {
                if let Some(cut) = self.heap_size_cut(heap.objects.len() + 1) {
                    return Ok(Err(cut));
                }
                let ident = HeapContext::object_constant(store, heap.objects.len())?;
                heap.objects.push(InputObject {
                    ident,
                    symbol,
                    pointee,
                    slots: Vec::new(),
                    initial: Vec::new(),
                });
                ident
            }
        };
        let mut replaced = vec![(symbol, value)];
        if let Resolution::AliasNonNull(other) = case {
            replaced.push((other, value));
        }
        for &(symbol, value) in &replaced {
            heap.non_null.retain(|&s| s != symbol);
            heap.resolved.push((symbol, value));
            for object in heap.objects.iter_mut() {
                for (_, slot) in object.slots.iter_mut() {
                    if let Some(new) = substitute(store, slot, symbol, value)? {
                        *slot = new;
                    }
                }
            }
        }
        Ok(Ok(replaced))
    }
}

/// `value` with the reference `symbol` replaced by `by` wherever it is a leaf of a reference
/// term; `None` if it is nowhere. Merges (`SymValue::ite` of two references, of two records
/// field by field) and reads at symbolic indices make references `ite` terms over symbols and
/// identities, so a symbol replaced only where it is the whole term would stay unresolved
/// inside them; `TermStore::substitute` rebuilds such a term through the simplifying
/// constructors, which fold it once its leaves are equal constants.
pub fn substitute(
    store: &mut TermStore,
    value: &SymValue,
    symbol: TermId,
    by: TermId,
) -> Result<Option<SymValue>> {
    Ok(match value {
        SymValue::Ref(t) if *t == symbol => Some(SymValue::Ref(by)),
        // Only an `ite` term has leaves other than itself (and walking costs an allocation for
        // every reference of the state at every resolution).
        SymValue::Ref(t)
            if matches!(store.node(*t), Node::App3(Op::Ite, ..))
                && leaves(store, *t).contains(&symbol) =>
        {
            let replace = std::iter::once((symbol, by)).collect();
            Some(SymValue::Ref(store.substitute(*t, &replace)?))
        }
        SymValue::Record(fields) => {
            let mut changed = Vec::with_capacity(fields.len());
            for (_, v) in fields.iter() {
                changed.push(substitute(store, v, symbol, by)?);
            }
            if changed.iter().all(Option::is_none) {
                return Ok(None);
            }
            let fields: Vec<_> = fields
                .iter()
                .zip(changed)
                .map(|((f, v), new)| (*f, new.unwrap_or_else(|| v.clone())))
                .collect();
            Some(SymValue::Record(fields.into()))
        }
        SymValue::Array(items) => {
            // Only the chunks that change are copied.
            match items.replaced(|v| substitute(store, v, symbol, by))? {
                Some(items) => Some(SymValue::Array(Rc::new(items))),
                None => return Ok(None),
            }
        }
        SymValue::Ite(c, a, b) => {
            let x = substitute(store, a, symbol, by)?;
            let y = substitute(store, b, symbol, by)?;
            if x.is_none() && y.is_none() {
                return Ok(None);
            }
            Some(SymValue::Ite(
                *c,
                Rc::new(x.unwrap_or_else(|| (**a).clone())),
                Rc::new(y.unwrap_or_else(|| (**b).clone())),
            ))
        }
        _ => None,
    })
}
