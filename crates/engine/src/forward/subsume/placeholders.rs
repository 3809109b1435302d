//! The free variables of annotations: one per (frame, local) for its value and one for whether
//! it is initialized, one per input read after the annotated location, and unique variables that
//! stand for "any value" (a callee's uninitialized locals, inputs read inside a loop body).
//!
//! An annotation talks about the state at its location through these variables; checking a
//! state against it replaces them by the state's values (`Subsumption::covers`). They live in the
//! engine's term store under names starting with `@`, which no program symbol has. Nothing here
//! builds annotations.

use rustc_hash::FxHashMap;
use symex_ir::cfg::{LocalId, Width};
use symex_smt::{Sort, TermId, TermStore, VarId};

use crate::common::terms::{self, WIDTH};
use crate::error::EngineError;

/// What a placeholder stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// The value of a local of the frame at this index (0 = the entry's frame).
    Value(usize, LocalId),
    /// Whether that local is initialized.
    Init(usize, LocalId),
    /// The input read this many inputs after the annotated location.
    LaterInput(u32),
    /// The input with this absolute number, while a path is being walked back.
    PathInput(u32),
    /// Any value: universally quantified in every use.
    Any,
}

#[derive(Default)]
pub struct Placeholders {
    /// Keyed by width too: the frame at one index may run functions whose locals of one number
    /// have different widths.
    values: FxHashMap<(usize, LocalId, Width), TermId>,
    inits: FxHashMap<(usize, LocalId), TermId>,
    later_inputs: Vec<TermId>,
    path_inputs: Vec<TermId>,
    /// Scratch variables for one check, per sort, reused across checks.
    scratch: FxHashMap<Sort, Vec<TermId>>,
    roles: FxHashMap<VarId, Role>,
    unique: u64,
}

type Result<T> = std::result::Result<T, EngineError>;

/// The sort of the numbers of a width.
fn number_sort(width: Width) -> Sort {
    Sort::BitVec(width.bits())
}

impl Placeholders {
    pub fn role(&self, var: VarId) -> Option<Role> {
        self.roles.get(&var).copied()
    }

    fn make(
        &mut self,
        store: &mut TermStore,
        name: String,
        sort: Sort,
        role: Role,
    ) -> Result<TermId> {
        let t = match sort {
            Sort::BitVec(bits) => store.bv_var(name, bits)?,
            _ => store.bool_var(name)?,
        };
        if let Some(v) = store.var_id(t) {
            self.roles.insert(v, role);
        }
        Ok(t)
    }

    /// The value of `local` (declared of `width`) of the frame at index `frame`.
    pub fn value(
        &mut self,
        store: &mut TermStore,
        frame: usize,
        local: LocalId,
        width: Width,
    ) -> Result<TermId> {
        if let Some(&t) = self.values.get(&(frame, local, width)) {
            return Ok(t);
        }
        let name = match width {
            Width::W32 => format!("@f{frame}.{}", local.0),
            Width::W64 => format!("@f{frame}.{}w", local.0),
        };
        let t = self.make(store, name, number_sort(width), Role::Value(frame, local))?;
        self.values.insert((frame, local, width), t);
        Ok(t)
    }

    pub fn init(&mut self, store: &mut TermStore, frame: usize, local: LocalId) -> Result<TermId> {
        if let Some(&t) = self.inits.get(&(frame, local)) {
            return Ok(t);
        }
        let t = self.make(
            store,
            format!("@init{frame}.{}", local.0),
            Sort::Bool,
            Role::Init(frame, local),
        )?;
        self.inits.insert((frame, local), t);
        Ok(t)
    }

    pub fn later_input(&mut self, store: &mut TermStore, k: u32) -> Result<TermId> {
        while self.later_inputs.len() <= k as usize {
            let j = self.later_inputs.len() as u32;
            let t = self.make(store, format!("@next{j}"), INPUT, Role::LaterInput(j))?;
            self.later_inputs.push(t);
        }
        Ok(self.later_inputs[k as usize])
    }

    pub fn path_input(&mut self, store: &mut TermStore, k: u32) -> Result<TermId> {
        while self.path_inputs.len() <= k as usize {
            let j = self.path_inputs.len() as u32;
            let t = self.make(store, format!("@input{j}"), INPUT, Role::PathInput(j))?;
            self.path_inputs.push(t);
        }
        Ok(self.path_inputs[k as usize])
    }

    /// A number of `width` that occurs nowhere else.
    pub fn any_value(&mut self, store: &mut TermStore, width: Width) -> Result<TermId> {
        self.unique += 1;
        let name = format!("@any{}", self.unique);
        self.make(store, name, number_sort(width), Role::Any)
    }

    /// A number of the width of the number `t` that occurs nowhere else.
    pub fn any_like(&mut self, store: &mut TermStore, t: TermId) -> Result<TermId> {
        let width = match terms::width(store, t) {
            WIDTH => Width::W32,
            _ => Width::W64,
        };
        self.any_value(store, width)
    }

    /// The `k`-th scratch variable of `sort` (a number or a truth value) of one check
    /// (`Role::Any`).
    pub fn scratch(&mut self, store: &mut TermStore, k: usize, sort: Sort) -> Result<TermId> {
        if let Some(&t) = self.scratch.get(&sort).and_then(|pool| pool.get(k)) {
            return Ok(t);
        }
        let name = match sort {
            Sort::Bool => format!("@b{k}"),
            Sort::BitVec(32) => format!("@v{k}"),
            _ => format!("@v{k}w"),
        };
        let t = self.make(store, name, sort, Role::Any)?;
        // Scratch variables are asked for in order, so each pool grows one at a time.
        self.scratch.entry(sort).or_default().push(t);
        Ok(t)
    }
}

/// The sort of inputs (32-bit numbers).
pub const INPUT: Sort = Sort::BitVec(WIDTH);
