//! The free variables of annotations: one per (frame, local) for its value and one for whether
//! it is initialized, one per input read after the annotated location, and unique variables that
//! stand for "any value" (a callee's uninitialized locals, inputs read inside a loop body).
//!
//! An annotation talks about the state at its location through these variables; checking a
//! state against it replaces them by the state's values (`Subsumption::covers`). They live in the
//! engine's term store under names starting with `@`, which no program symbol has. Nothing here
//! builds annotations.

use rustc_hash::FxHashMap;
use symex_ir::cfg::LocalId;
use symex_smt::{TermId, TermStore, VarId};

use crate::common::terms::WIDTH;
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
    values: FxHashMap<(usize, LocalId), TermId>,
    inits: FxHashMap<(usize, LocalId), TermId>,
    later_inputs: Vec<TermId>,
    path_inputs: Vec<TermId>,
    /// Scratch variables for one check, reused across checks.
    scratch_values: Vec<TermId>,
    scratch_bools: Vec<TermId>,
    roles: FxHashMap<VarId, Role>,
    unique: u64,
}

type Result<T> = std::result::Result<T, EngineError>;

impl Placeholders {
    pub fn role(&self, var: VarId) -> Option<Role> {
        self.roles.get(&var).copied()
    }

    fn make(
        &mut self,
        store: &mut TermStore,
        name: String,
        bool_sort: bool,
        role: Role,
    ) -> Result<TermId> {
        let t = if bool_sort {
            store.bool_var(name)?
        } else {
            store.bv_var(name, WIDTH)?
        };
        if let Some(v) = store.var_id(t) {
            self.roles.insert(v, role);
        }
        Ok(t)
    }

    pub fn value(&mut self, store: &mut TermStore, frame: usize, local: LocalId) -> Result<TermId> {
        if let Some(&t) = self.values.get(&(frame, local)) {
            return Ok(t);
        }
        let t = self.make(
            store,
            format!("@f{frame}.{}", local.0),
            false,
            Role::Value(frame, local),
        )?;
        self.values.insert((frame, local), t);
        Ok(t)
    }

    pub fn init(&mut self, store: &mut TermStore, frame: usize, local: LocalId) -> Result<TermId> {
        if let Some(&t) = self.inits.get(&(frame, local)) {
            return Ok(t);
        }
        let t = self.make(
            store,
            format!("@init{frame}.{}", local.0),
            true,
            Role::Init(frame, local),
        )?;
        self.inits.insert((frame, local), t);
        Ok(t)
    }

    pub fn later_input(&mut self, store: &mut TermStore, k: u32) -> Result<TermId> {
        while self.later_inputs.len() <= k as usize {
            let j = self.later_inputs.len() as u32;
            let t = self.make(store, format!("@next{j}"), false, Role::LaterInput(j))?;
            self.later_inputs.push(t);
        }
        Ok(self.later_inputs[k as usize])
    }

    pub fn path_input(&mut self, store: &mut TermStore, k: u32) -> Result<TermId> {
        while self.path_inputs.len() <= k as usize {
            let j = self.path_inputs.len() as u32;
            let t = self.make(store, format!("@input{j}"), false, Role::PathInput(j))?;
            self.path_inputs.push(t);
        }
        Ok(self.path_inputs[k as usize])
    }

    /// A number that occurs nowhere else.
    pub fn any_value(&mut self, store: &mut TermStore) -> Result<TermId> {
        self.unique += 1;
        self.make(store, format!("@any{}", self.unique), false, Role::Any)
    }

    /// The `k`-th scratch number or truth value of one check (`Role::Any`).
    pub fn scratch(&mut self, store: &mut TermStore, k: usize, boolean: bool) -> Result<TermId> {
        let (pool, prefix) = if boolean {
            (&self.scratch_bools, "@b")
        } else {
            (&self.scratch_values, "@v")
        };
        if let Some(&t) = pool.get(k) {
            return Ok(t);
        }
        let name = format!("{prefix}{k}");
        let t = self.make(store, name, boolean, Role::Any)?;
        let pool = if boolean {
            &mut self.scratch_bools
        } else {
            &mut self.scratch_values
        };
        // Scratch numbers are asked for in order, so the pool grows one at a time.
        pool.push(t);
        Ok(t)
    }
}
