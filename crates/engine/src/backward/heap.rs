//! The backward heap (P §4, Fig. 4–5): one array per field, versioned going backwards, and the
//! input heap as helper arrays `f_in`, behind the [`SymbolicHeap`] trait so that other heap
//! models can plug into the searches.
//!
//! References are words: null is 0, a cell made by `alloc` at site k is the positive k, a cell of
//! the input heap is negative. A field write going backwards makes the field's array a new
//! version: `f^i = store(f^(i+1), r, v)` (the higher version is the earlier state). Reading a
//! pointer field adds `select(f_in, r) <= 0` permanently (input cells point to null or input
//! cells; for an allocated `r` it only constrains garbage that `alloc` overwrites); with typed
//! cells, a slot that holds pointers in some kinds of cell only gets it for `r` of those kinds. At a solver
//! call the current versions are assumed equal to the `f_in` arrays and the unassigned
//! references to be input references, as temporary assumptions: going further back may still
//! show that a reference was allocated. Reference variables are versioned like numbers by the
//! searches (their η is the search's variable map), so this module owns only the fields.
//! When the entry reaches several kinds of input cell, a tag array `tag_in` types them (the
//! constraints of `typing::CellTyping`: the kind of a dereferenced cell, of a pointer read, of an
//! input reference). Nothing here decides which assumptions to make permanent or when to solve.

use std::collections::BTreeMap;

use rustc_hash::FxHashMap;
use symex_smt::{Sort, TermId, TermResult, TermStore};

use crate::backward::ops::FieldSlot;
use crate::backward::typing::CellTyping;
use crate::common::terms::{int_const, WIDTH};
use crate::error::EngineError;

/// A heap model for backward symbolic execution (the thesis's `ISymbolicHeap`, T §7.2, with
/// the paper's merge).
pub trait SymbolicHeap {
    /// What the heap knows at one node.
    type State: Clone + Default;

    /// READ←: the value of `base.field` at `state`, with the read's constraints.
    fn read(
        &mut self,
        store: &mut TermStore,
        state: &Self::State,
        base: TermId,
        field: FieldSlot,
    ) -> Result<HeapRead, EngineError>;

    /// WRITE←: `base.field = value` going backwards: the state moves to the earlier heap and the
    /// constraints relating the two are returned.
    fn write(
        &mut self,
        store: &mut TermStore,
        state: &mut Self::State,
        base: TermId,
        field: FieldSlot,
        value: TermId,
    ) -> Result<Vec<TermId>, EngineError>;

    /// NEW←: the reference made by allocation site `site` (distinct and positive per site).
    fn alloc(&mut self, store: &mut TermStore, site: u32) -> TermResult;

    /// MergeHeaps: one state for a node with several successors, and for each successor the
    /// conditions that join its state to the merged one.
    fn merge(
        &mut self,
        store: &mut TermStore,
        deps: &[&Self::State],
    ) -> Result<(Self::State, Vec<Vec<TermId>>), EngineError>;

    /// The `f_in` arrays made so far, by field: what a model must give for the input heap.
    fn input_arrays(&self) -> Vec<(FieldSlot, TermId)>;

    /// GETASSUMPTIONS←: the heap at `state` is the input heap and `input_refs` (the references
    /// not yet assigned going backwards) point into it, to cells of their tag, or are null.
    fn assumptions(
        &mut self,
        store: &mut TermStore,
        state: &Self::State,
        input_refs: &[InputRef],
    ) -> Result<Vec<TermId>, EngineError>;
}

/// What a field read gives and requires.
pub struct HeapRead {
    pub value: TermId,
    /// Required by the dereference itself: the base is not null (and of a kind with the field).
    pub access: Vec<TermId>,
    /// Required of the value, wherever it is used: a pointer comes from a closed input heap (and
    /// points to cells of the field's pointee kind).
    pub content: Vec<TermId>,
}

/// A reference not yet assigned at a solver call, and the tag of the cells it points to when
/// input cells are typed (`typing`).
#[derive(Clone, Copy, Debug)]
pub struct InputRef {
    pub term: TermId,
    pub tag: Option<u32>,
}

/// The current version of every field array (absent: version 0).
pub type FieldVersions = BTreeMap<FieldSlot, u32>;

/// The array-theory heap of P §4.
pub struct ArrayHeap {
    /// `arrays[f][i]` is the array variable `f^i`.
    arrays: Vec<FxHashMap<u32, TermId>>,
    input: Vec<Option<TermId>>,
    /// The `f_in` arrays a constraint has used: the ones a model must give.
    input_used: Vec<bool>,
    names: Vec<String>,
    ref_fields: Vec<bool>,
    /// Per field, the one value it has in every input cell (a front end's bookkeeping).
    fixed_inputs: Vec<Option<i32>>,
    /// Fields any operation touched: the assumptions equate only these with their `f_in`.
    used: Vec<bool>,
    array_sort: Option<Sort>,
    /// The kinds of input cells, when they need telling apart; `tags` is their array `tag_in`
    /// (input reference -> tag), made on first use.
    typing: Option<CellTyping>,
    tags: Option<TermId>,
    tags_used: bool,
}

impl ArrayHeap {
    /// A heap over the fields `names` (the last one is the cell content), `ref_fields` telling
    /// which hold pointers.
    pub fn new(names: Vec<String>, ref_fields: Vec<bool>) -> ArrayHeap {
        let n = names.len();
        ArrayHeap {
            arrays: vec![FxHashMap::default(); n],
            input: vec![None; n],
            input_used: vec![false; n],
            names,
            ref_fields,
            fixed_inputs: vec![None; n],
            used: vec![false; n],
            array_sort: None,
            typing: None,
            tags: None,
            tags_used: false,
        }
    }

    /// The same heap with typed input cells (`None`: untyped, for entries that reach one kind).
    pub fn with_typing(mut self, typing: Option<CellTyping>) -> ArrayHeap {
        self.typing = typing;
        self
    }

    /// The same heap where the input cells hold `fixed[f]` in field `f` where that is a value
    /// (`Graph::fixed_inputs`).
    pub fn with_fixed_inputs(mut self, fixed: Vec<Option<i32>>) -> ArrayHeap {
        self.fixed_inputs = fixed;
        self
    }

    /// Makes the input arrays (`f_in` of every field, `tag_in` with typed cells) before any
    /// constraint needs them. Z3's search depends on the order in which symbols are made (its
    /// time on one degree-counting query varied 7× under a mere renaming), so symbols made when
    /// a check first needs them would make the formula at the entry depend on which checks came
    /// before; made first, `conj-loops`' entry formula is `conj-never`'s when nothing was pruned.
    pub fn declare_inputs(&mut self, store: &mut TermStore) -> Result<(), EngineError> {
        for f in 0..self.names.len() {
            self.input_term(store, f)?;
        }
        if self.typing.is_some() {
            self.tag_term(store)?;
        }
        Ok(())
    }

    fn tag_term(&mut self, store: &mut TermStore) -> Result<TermId, EngineError> {
        if let Some(t) = self.tags {
            return Ok(t);
        }
        let sort = self.sort(store)?;
        let t = store.var("tag_in".to_string(), sort)?;
        self.tags = Some(t);
        Ok(t)
    }

    /// `select(tag_in, r) = tag`: `r` is a cell of kind `tag`.
    fn has_tag(
        &mut self,
        store: &mut TermStore,
        r: TermId,
        tag: u32,
    ) -> Result<TermId, EngineError> {
        let tags = self.tag_term(store)?;
        self.tags_used = true;
        let read = store.select(tags, r)?;
        let tag = int_const(store, tag as i32)?;
        Ok(store.eq(read, tag)?)
    }

    /// What dereferencing `base` for `field` requires: `base` is not null and, with typed cells,
    /// of a kind that has the field.
    pub fn access(
        &mut self,
        store: &mut TermStore,
        base: TermId,
        field: FieldSlot,
    ) -> Result<Vec<TermId>, EngineError> {
        let mut out = vec![non_null(store, base)?];
        let owners = self
            .typing
            .as_ref()
            .and_then(|t| t.slot(field))
            .and_then(|slot| slot.owners.clone());
        if let Some(owners) = owners {
            let mut any = Vec::with_capacity(owners.len());
            for owner in owners {
                any.push(self.has_tag(store, base, owner)?);
            }
            out.push(store.or_all(&any)?);
        }
        Ok(out)
    }

    /// With typed cells: `value`, read from `base.field`, is an input reference only of the
    /// field's pointee kind (per kind of `base` where the kinds having the field disagree).
    fn pointee_facts(
        &mut self,
        store: &mut TermStore,
        base: TermId,
        field: FieldSlot,
        value: TermId,
    ) -> Result<Vec<TermId>, EngineError> {
        let Some(slot) = self.typing.as_ref().and_then(|t| t.slot(field)).cloned() else {
            return Ok(Vec::new());
        };
        if slot.pointees.is_empty() {
            return Ok(Vec::new());
        }
        let input = is_input(store, value)?;
        if let Some(pointee) = slot.uniform_pointee {
            let typed = self.has_tag(store, value, pointee)?;
            return Ok(vec![store.implies(input, typed)?]);
        }
        let mut out = Vec::with_capacity(slot.pointees.len());
        for (owner, pointee) in slot.pointees {
            let of_owner = self.has_tag(store, base, owner)?;
            let typed = self.has_tag(store, value, pointee)?;
            let typed = store.implies(input, typed)?;
            out.push(store.implies(of_owner, typed)?);
        }
        Ok(out)
    }

    fn sort(&mut self, store: &mut TermStore) -> Result<Sort, EngineError> {
        if let Some(sort) = self.array_sort {
            return Ok(sort);
        }
        let sort = store.array_sort(Sort::BitVec(WIDTH), Sort::BitVec(WIDTH))?;
        self.array_sort = Some(sort);
        Ok(sort)
    }

    /// The array variable `f^version`.
    pub fn array(
        &mut self,
        store: &mut TermStore,
        field: FieldSlot,
        version: u32,
    ) -> Result<TermId, EngineError> {
        let f = field as usize;
        self.used[f] = true;
        if let Some(&t) = self.arrays[f].get(&version) {
            return Ok(t);
        }
        let sort = self.sort(store)?;
        let t = store.var(format!("{}^{version}", self.names[f]), sort)?;
        self.arrays[f].insert(version, t);
        Ok(t)
    }

    /// The helper array `f_in`: the field in the input heap.
    pub fn input_array(
        &mut self,
        store: &mut TermStore,
        field: FieldSlot,
    ) -> Result<TermId, EngineError> {
        let f = field as usize;
        self.input_used[f] = true;
        self.input_term(store, f)
    }

    fn input_term(&mut self, store: &mut TermStore, f: usize) -> Result<TermId, EngineError> {
        if let Some(t) = self.input[f] {
            return Ok(t);
        }
        let sort = self.sort(store)?;
        let t = match self.fixed_inputs.get(f).copied().flatten() {
            // A front end's bookkeeping field has one value in every input cell.
            Some(value) => {
                let value = int_const(store, value)?;
                store.const_array(sort, value)?
            }
            None => store.var(format!("{}_in", self.names[f]), sort)?,
        };
        self.input[f] = Some(t);
        Ok(t)
    }

    pub fn is_ref_field(&self, field: FieldSlot) -> bool {
        self.ref_fields
            .get(field as usize)
            .copied()
            .unwrap_or(false)
    }

    /// `select(f_in, base) <= 0`: what a pointer read adds for the closed input heap.
    pub fn closed_input(
        &mut self,
        store: &mut TermStore,
        base: TermId,
        field: FieldSlot,
    ) -> Result<TermId, EngineError> {
        let input = self.input_array(store, field)?;
        let read = store.select(input, base)?;
        Ok(at_most_zero(store, read)?)
    }

    /// The closed input heap at a read of `base.field`: unconditional for a pointer field, and
    /// per kind of `base` for a slot that holds pointers in some kinds of cell only (a cell's
    /// content, a field name that is a number in another record type).
    fn closed_input_facts(
        &mut self,
        store: &mut TermStore,
        base: TermId,
        field: FieldSlot,
    ) -> Result<Vec<TermId>, EngineError> {
        let slot = self.typing.as_ref().and_then(|t| t.slot(field));
        if self.is_ref_field(field) || slot.is_some_and(|slot| slot.only_pointers) {
            return Ok(vec![self.closed_input(store, base, field)?]);
        }
        let owners = slot
            .map(|slot| slot.pointer_owners.clone())
            .unwrap_or_default();
        let mut out = Vec::with_capacity(owners.len());
        for owner in owners {
            let of_owner = self.has_tag(store, base, owner)?;
            let closed = self.closed_input(store, base, field)?;
            out.push(store.implies(of_owner, closed)?);
        }
        Ok(out)
    }

    fn version(state: &FieldVersions, field: FieldSlot) -> u32 {
        state.get(&field).copied().unwrap_or(0)
    }
}

/// `t <= 0` (signed): null or an input reference.
pub fn at_most_zero(store: &mut TermStore, t: TermId) -> TermResult {
    let zero = int_const(store, 0)?;
    store.bv_sle(t, zero)
}

/// `t < 0` (signed): an input reference.
fn is_input(store: &mut TermStore, t: TermId) -> TermResult {
    let zero = int_const(store, 0)?;
    store.bv_slt(t, zero)
}

/// `t != 0`: not null.
pub fn non_null(store: &mut TermStore, t: TermId) -> TermResult {
    let zero = int_const(store, 0)?;
    store.neq(t, zero)
}

impl SymbolicHeap for ArrayHeap {
    type State = FieldVersions;

    fn read(
        &mut self,
        store: &mut TermStore,
        state: &FieldVersions,
        base: TermId,
        field: FieldSlot,
    ) -> Result<HeapRead, EngineError> {
        let array = self.array(store, field, Self::version(state, field))?;
        let value = store.select(array, base)?;
        let access = self.access(store, base, field)?;
        let mut content = self.closed_input_facts(store, base, field)?;
        content.extend(self.pointee_facts(store, base, field, value)?);
        Ok(HeapRead {
            value,
            access,
            content,
        })
    }

    fn write(
        &mut self,
        store: &mut TermStore,
        state: &mut FieldVersions,
        base: TermId,
        field: FieldSlot,
        value: TermId,
    ) -> Result<Vec<TermId>, EngineError> {
        let later = Self::version(state, field);
        let earlier = later + 1;
        state.insert(field, earlier);
        let after = self.array(store, field, later)?;
        let before = self.array(store, field, earlier)?;
        let written = store.store(before, base, value)?;
        let mut out = vec![store.eq(after, written)?];
        out.extend(self.access(store, base, field)?);
        Ok(out)
    }

    fn alloc(&mut self, store: &mut TermStore, site: u32) -> TermResult {
        int_const(store, site as i32)
    }

    fn merge(
        &mut self,
        store: &mut TermStore,
        deps: &[&FieldVersions],
    ) -> Result<(FieldVersions, Vec<Vec<TermId>>), EngineError> {
        let mut merged = FieldVersions::new();
        for dep in deps {
            for (&f, &v) in dep.iter() {
                let slot = merged.entry(f).or_insert(0);
                *slot = (*slot).max(v);
            }
        }
        let mut joins = Vec::with_capacity(deps.len());
        for dep in deps {
            let mut conds = Vec::new();
            for (&f, &max) in &merged {
                let own = Self::version(dep, f);
                if own < max {
                    let a = self.array(store, f, own)?;
                    let b = self.array(store, f, max)?;
                    conds.push(store.eq(a, b)?);
                }
            }
            joins.push(conds);
        }
        Ok((merged, joins))
    }

    /// With typed cells, `tag_in` comes last, as the pseudo-slot after the content
    /// (`Graph::tag_slot`).
    fn input_arrays(&self) -> Vec<(FieldSlot, TermId)> {
        let tag_slot = self.names.len() as FieldSlot;
        self.input
            .iter()
            .zip(&self.input_used)
            .enumerate()
            .filter_map(|(f, (t, &used))| t.filter(|_| used).map(|t| (f as FieldSlot, t)))
            .chain(self.tags.filter(|_| self.tags_used).map(|t| (tag_slot, t)))
            .collect()
    }

    fn assumptions(
        &mut self,
        store: &mut TermStore,
        state: &FieldVersions,
        input_refs: &[InputRef],
    ) -> Result<Vec<TermId>, EngineError> {
        let mut out = Vec::new();
        for f in 0..self.used.len() {
            if !self.used[f] {
                continue;
            }
            let field = f as FieldSlot;
            let current = self.array(store, field, Self::version(state, field))?;
            let input = self.input_array(store, field)?;
            out.push(store.eq(current, input)?);
        }
        for r in input_refs {
            out.push(at_most_zero(store, r.term)?);
            if let (Some(tag), true) = (r.tag, self.typing.is_some()) {
                let input = is_input(store, r.term)?;
                let typed = self.has_tag(store, r.term, tag)?;
                out.push(store.implies(input, typed)?);
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use symex_smt::Node;

    #[test]
    fn writes_version_backwards_and_merges_join_versions() {
        let mut store = TermStore::new();
        let mut heap = ArrayHeap::new(vec!["next".into(), "*".into()], vec![true, false]);
        let r = store.bv_var("r", WIDTH).unwrap();
        let v = store.bv_var("v", WIDTH).unwrap();
        let mut state = FieldVersions::new();
        let conds = heap.write(&mut store, &mut state, r, 0, v).unwrap();
        assert_eq!(state.get(&0), Some(&1));
        // next^0 = store(next^1, r, v)
        let next0 = heap.array(&mut store, 0, 0).unwrap();
        let next1 = heap.array(&mut store, 0, 1).unwrap();
        let expected = store.store(next1, r, v).unwrap();
        let expected = store.eq(next0, expected).unwrap();
        assert_eq!(conds[0], expected);
        let (merged, joins) = heap
            .merge(&mut store, &[&state, &FieldVersions::new()])
            .unwrap();
        assert_eq!(merged.get(&0), Some(&1));
        assert!(joins[0].is_empty());
        assert_eq!(joins[1], vec![store.eq(next0, next1).unwrap()]);
        let read = heap.read(&mut store, &merged, r, 0).expect("read");
        assert!(matches!(store.node(read.value), Node::App2(..)));
        assert_eq!(read.access.len(), 1, "non-null");
        assert_eq!(read.content.len(), 1, "closed input heap");
    }
}
