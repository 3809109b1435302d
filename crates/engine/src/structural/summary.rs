//! A function's summary: for each side effect (`effects`), one root in the shared term graph,
//! over the function's formal inputs ([`Formals`]) and the summary operators of its calls.
//!
//! A summary operator is a variable standing for one side effect of one call site
//! (`g:ret@f#2`); [`CallRecord`] keeps what the call passed (its actuals, in the callee's formal
//! order) so that `instances` can replace the operator by the callee's summary later; a side
//! effect whose summary was already known to be a constant or an input has no operator. Plain
//! data: `exec` builds it, `instances` reads it.

use std::collections::{BTreeMap, BTreeSet};

use rustc_hash::FxHashMap;
use symex_ir::cfg::{FuncId, Width};
use symex_smt::{Sort, TermId, TermStore};

use crate::common::terms::WIDTH;
use crate::structural::effects::{Effect, Slot};

/// The sorts and global variables every summary shares.
pub struct Vocabulary {
    /// Words indexed by 32-bit addresses: every heap slot (flags are 0 or 1, since Z3's
    /// one-shot solver describes Boolean arrays in its models by lambdas). A word has 32 bits,
    /// or 64 in a module that computes with 64-bit numbers: a slot (a field name) may hold
    /// numbers of either width, so a narrower value is stored zero-extended and a read takes
    /// the low bits its reader's width asks for (`exec`).
    pub word_array: Sort,
    /// The bits of a heap word.
    pub heap_word: u32,
    /// The program's input numbers (32-bit), by position.
    pub input: TermId,
    /// Whether callees' checks count in the control-flow context (a strict VC) or not (a weak
    /// one, which only over-approximates the paths: see `refine`).
    pub strict: TermId,
}

impl Vocabulary {
    pub fn new(
        store: &mut TermStore,
        heap_word: Width,
    ) -> Result<Vocabulary, symex_smt::TermError> {
        let word = Sort::BitVec(WIDTH);
        let heap_word = heap_word.bits();
        let word_array = store.array_sort(word, Sort::BitVec(heap_word))?;
        let input_array = store.array_sort(word, word)?;
        let input = store.var("input", input_array)?;
        let strict = store.bool_var("strict")?;
        Ok(Vocabulary {
            word_array,
            heap_word,
            input,
            strict,
        })
    }

    /// The sort of a side effect's root, for a function returning numbers of `returned`.
    pub fn effect_sort(&self, effect: Effect, returned: Width) -> Sort {
        match effect {
            Effect::Ret => Sort::BitVec(returned.bits()),
            Effect::Next | Effect::Cursor => Sort::BitVec(WIDTH),
            Effect::Heap(_) => self.word_array,
            Effect::Cfc | Effect::Passed | Effect::Goal(_) => Sort::Bool,
        }
    }
}

/// The inputs of a function's summaries: parameters, the heap on entry (one array per slot),
/// the next free address and the number of inputs read before the call.
#[derive(Clone, Debug)]
pub struct Formals {
    pub params: Vec<TermId>,
    pub heap: Vec<(Slot, TermId)>,
    pub next: TermId,
    pub cursor: TermId,
}

impl Formals {
    /// Every formal, in the order of [`CallRecord::actuals`].
    pub fn all(&self) -> Vec<TermId> {
        let mut all = self.params.clone();
        all.extend(self.heap.iter().map(|&(_, t)| t));
        all.push(self.next);
        all.push(self.cursor);
        all
    }

    pub fn heap(&self, slot: Slot) -> Option<TermId> {
        self.heap.iter().find(|(s, _)| *s == slot).map(|&(_, t)| t)
    }
}

/// One call site of a summarized function.
#[derive(Clone, Debug)]
pub struct CallRecord {
    pub callee: FuncId,
    /// What the call passes for each of the callee's formals ([`Formals::all`] order).
    pub actuals: Vec<TermId>,
}

/// The summaries of one function.
#[derive(Clone, Debug)]
pub struct Summary {
    pub formals: Formals,
    /// One root per side effect; a goal with no root is never met (`false`).
    pub effects: BTreeMap<Effect, TermId>,
    pub calls: Vec<CallRecord>,
    /// Summary operator -> (call site index, side effect).
    pub operators: FxHashMap<TermId, (usize, Effect)>,
    /// What the function does that the engine does not model (the `Unmodelled` cut's reasons).
    pub unmodelled: BTreeSet<String>,
}
