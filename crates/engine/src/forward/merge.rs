//! State merging (`--merge aggressive`, seed 002 §4.3 and §5.4.3): two states at the same
//! place with the same call stack become one state that stands for both.
//!
//! The merged path condition is the shared prefix of both lists followed by one disjunction
//! `c1 ∨ c2` of the two suffixes; every local and cell that differs becomes `ite(c1, v1, v2)`
//! (a bit-vector ite for numbers, `SymValue::Ite` for pointers, aggregates and uninitialized
//! values). Cell ids are per-state addresses, so merging memory cell by cell under the same
//! condition keeps each side's aliasing exactly: under `c1` the merged state *is* the first
//! state, under `¬c1` the second. [`PathCount`] remembers which paths the state stands for.
//! A cell that only one state allocated is that state's value; the other state holds no
//! pointer to it, but a count over all cells would see it on both sides, so its heap state
//! is guarded by its side's condition ([`allocated_only_where`]).
//!
//! The merge is exact because live states stand for disjoint sets of inputs: a fork pushes `c`
//! on one side and `¬c` on the other, and a merge unites two disjoint sets. So the suffixes of
//! two live states' path conditions exclude each other, and `c1` tells the constituents apart.
//!
//! Nothing here decides when or where to merge (the driver does) and nothing here merges
//! states that could not be merged exactly: different frames (functions, blocks, instruction
//! indices, return destinations, loop counters, cell-backed locals), different numbers of
//! inputs read (input symbols are named by order) or a path condition that is a prefix of the
//! other's are refused.

use std::rc::Rc;

use symex_ir::cfg::FieldId;
use symex_smt::{
    connected, eval, eval_all, Assignment, BvConst, ModelResult, TermId, TermStore, Value,
};
use symex_smt::{PathCondition, VarId};

use crate::common::budget::Budget;
use crate::common::terms;
use crate::error::EngineError;
use crate::forward::machine::Machine;
use crate::forward::state::{Frame, Stack, State};
use crate::forward::value::{CellId, SymValue};

type Result<T> = std::result::Result<T, EngineError>;

/// The paths a state stands for: one, or the paths of two merged states told apart by the
/// condition the merge put into the ite values.
///
/// A merged state's later branches may keep only some of its constituents, so the count is
/// exact only by asking which constituents' conditions are still consistent with the path
/// condition ([`Machine::count_paths`]); a merge whose path condition has grown since only
/// by constraints that share no variable with the constituents' conditions (directly or
/// through the path condition) knows its count without asking: such a constraint keeps or
/// drops every constituent alike, and the state is feasible.
#[derive(Clone, Debug, Default)]
pub struct PathCount(Option<Rc<Split>>);

#[derive(Debug)]
struct Split {
    /// Where the `then` constituents are (the first state's path-condition suffix).
    cond: TermId,
    then: PathCount,
    other: PathCount,
    /// The length of the merged path condition (it only grows afterwards).
    pc_len: usize,
    /// The number of paths right after the merge, if it was known without a query.
    total: Option<u64>,
    /// The variables of the conditions of this split and of the splits below it.
    vars: Box<[VarId]>,
}

impl Drop for Split {
    /// Unlinks iteratively: a loop that merges on every iteration nests splits deeply.
    fn drop(&mut self) {
        let mut work: Vec<Rc<Split>> = Vec::new();
        work.extend(self.then.0.take());
        work.extend(self.other.0.take());
        while let Some(split) = work.pop() {
            if let Ok(mut split) = Rc::try_unwrap(split) {
                work.extend(split.then.0.take());
                work.extend(split.other.0.take());
            }
        }
    }
}

impl PathCount {
    /// The count of a state whose path condition is `pc`, if it is known without a query.
    fn known(&self, store: &TermStore, pc: &PathCondition) -> Option<u64> {
        let split = match &self.0 {
            None => return Some(1),
            Some(split) => split,
        };
        let total = split.total?;
        if pc.len() == split.pc_len {
            return Some(total);
        }
        let pc = pc.to_vec();
        let added = pc.get(split.pc_len..)?;
        let unaffected = added.is_empty() || !connected(store, &pc, added, &split.vars);
        unaffected.then_some(total)
    }

    /// The variables the splits of this count mention.
    fn vars(&self) -> &[VarId] {
        self.0.as_ref().map_or(&[], |split| &split.vars)
    }
}

/// Whether `a` and `b` are at the same place with the same call stack and input count.
pub fn mergeable(machine: &Machine<'_>, a: &State, b: &State) -> bool {
    a.inputs_read == b.inputs_read
        && a.heap == b.heap
        && a.stack.len() == b.stack.len()
        && a.stack
            .iter()
            .zip(&b.stack)
            .all(|(x, y)| Rc::ptr_eq(x, y) || same_frame(machine, x, y))
}

fn same_frame(machine: &Machine<'_>, x: &Frame, y: &Frame) -> bool {
    if x.func != y.func
        || x.block != y.block
        || x.inst != y.inst
        || x.return_to != y.return_to
        || x.iterations != y.iterations
        || x.locals.len() != y.locals.len()
    {
        return false;
    }
    let info = &machine.info.functions[x.func.index()];
    x.locals
        .iter()
        .zip(y.locals.iter())
        .enumerate()
        .all(|(i, (u, v))| !info.cell_backed.get(i).copied().unwrap_or(false) || u == v)
}

impl Machine<'_> {
    /// `a` and `b` as one state, or `None` when they cannot be merged exactly.
    pub fn merge_states(&mut self, a: &State, b: &State) -> Result<Option<State>> {
        if !mergeable(self, a, b) {
            return Ok(None);
        }
        let shared = a.pc.shared_prefix_len(&b.pc);
        let (rest_a, rest_b) = (a.pc.after(shared), b.pc.after(shared));
        if rest_a.is_empty() || rest_b.is_empty() {
            return Ok(None);
        }
        let c1 = self.store.and_all(&rest_a)?;
        let c2 = self.store.and_all(&rest_b)?;
        if self.store.as_bool(c1).is_some() || self.store.as_bool(c2).is_some() {
            return Ok(None);
        }
        let mut pc = a.pc.prefix(shared);
        pc.push(self.store.or(c1, c2)?);
        let mut stack = Stack::new();
        for (x, y) in a.stack.iter().zip(&b.stack) {
            if Rc::ptr_eq(x, y) {
                stack.push_back(Rc::clone(x));
                continue;
            }
            let store = &mut self.store;
            let locals = (x.locals).zip_with(&y.locals, |u, v| {
                SymValue::ite(store, c1, u.clone(), v.clone())
            })?;
            stack.push_back(Rc::new(Frame {
                func: x.func,
                block: x.block,
                inst: x.inst,
                locals,
                return_to: x.return_to,
                iterations: x.iterations.clone(),
            }));
        }
        let store = &mut self.store;
        let mut memory = a.memory.zip_with(&b.memory, |u, v| {
            SymValue::ite(store, c1, u.clone(), v.clone())
        })?;
        if let Some(field) = self.info.heap_state {
            let (shorter, on_longer_side) = match a.memory.cell_count() >= b.memory.cell_count() {
                true => (b.memory.cell_count(), c1),
                false => (a.memory.cell_count(), self.store.not(c1)?),
            };
            for cell in shorter..memory.cell_count() {
                let value = memory.get_mut(CellId(cell as u32))?;
                allocated_only_where(&mut self.store, value, field, on_longer_side)?;
            }
        }
        let total = match (
            a.paths.known(&self.store, &a.pc),
            b.paths.known(&self.store, &b.pc),
        ) {
            (Some(x), Some(y)) => Some(x + y),
            _ => None,
        };
        let mut vars = self.store.vars_of(&[c1]);
        vars.extend_from_slice(a.paths.vars());
        vars.extend_from_slice(b.paths.vars());
        vars.sort_unstable();
        vars.dedup();
        let paths = PathCount(Some(Rc::new(Split {
            cond: c1,
            then: a.paths.clone(),
            other: b.paths.clone(),
            pc_len: pc.len(),
            total,
            vars: vars.into_boxed_slice(),
        })));
        Ok(Some(State {
            stack,
            memory,
            pc,
            inputs_read: a.inputs_read,
            // The larger depth: `--max-depth` may cut the merged state earlier, never later.
            depth: a.depth.max(b.depth),
            paths,
            // One constituent's blocks: annotations carried back along them hold for that
            // constituent's prefix; the other prefix just leaves none.
            annotation_track: a.annotation_track.clone(),
            // `mergeable` asked for equal input heaps.
            heap: a.heap.clone(),
        }))
    }

    /// The number of paths an ended state stands for: its constituents whose conditions are
    /// still consistent with its path condition (a solver `unknown` counts the constituent).
    ///
    /// The constituents are visited depth first; a model found for one side of a split is
    /// evaluated on the splits below it. The other side first tries that model repaired with
    /// a model of its own condition alone (a cached query once per condition): where the
    /// repaired model satisfies every constraint, the side is consistent without a query.
    /// Otherwise each consistent constituent costs about one query and each inconsistent
    /// subtree one. Once `budget` is spent, every subtree not yet visited counts as one path:
    /// the count of a run that a limit cut is a statistic, not a verdict.
    pub fn count_paths(&mut self, state: &State, budget: &Budget) -> Result<u64> {
        if let Some(n) = state.paths.known(&self.store, &state.pc) {
            return Ok(n);
        }
        let mut vars: Vec<TermId> = self
            .input_vars
            .get(..state.inputs_read as usize)
            .ok_or_else(|| EngineError::Internal("an input without its symbol".into()))?
            .to_vec();
        vars.extend(&self.arg_vars);
        let mut constraints = state.pc.to_vec();
        // (subtree, how many constraints it is under, the side condition to add, a model of
        // those constraints and the side if one is known, else a model of the constraints
        // alone to repair).
        type Item = (
            PathCount,
            usize,
            Option<TermId>,
            Option<Rc<Assignment>>,
            Option<Rc<Assignment>>,
        );
        let mut work: Vec<Item> = vec![(state.paths.clone(), constraints.len(), None, None, None)];
        let mut total = 0;
        while let Some((node, len, side, mut witness, hint)) = work.pop() {
            if budget.exhausted().is_some() {
                return Ok(total + 1 + work.len() as u64);
            }
            constraints.truncate(len);
            if let Some(side) = side {
                constraints.push(side);
                if witness.is_none() {
                    if let Some(hint) = hint {
                        witness = self.repaired(&constraints, side, &hint)?;
                    }
                }
                if witness.is_none() {
                    match self.model_of(&constraints, &vars)? {
                        Side::Dead => continue,
                        Side::Alive(model) => witness = model,
                    }
                }
            }
            match &node.0 {
                None => total += 1,
                Some(split) => {
                    let len = constraints.len();
                    let not = self.store.not(split.cond)?;
                    let holds = witness
                        .as_deref()
                        .and_then(|m| eval(&self.store, split.cond, m).ok())
                        .and_then(|v| v.as_bool());
                    let (then_model, other_model) = match holds {
                        Some(true) => (witness.clone(), None),
                        Some(false) => (None, witness.clone()),
                        None => (None, None),
                    };
                    work.push((
                        split.other.clone(),
                        len,
                        Some(not),
                        other_model,
                        witness.clone(),
                    ));
                    work.push((
                        split.then.clone(),
                        len,
                        Some(split.cond),
                        then_model,
                        witness,
                    ));
                }
            }
        }
        Ok(total)
    }

    /// `hint` with the variables of `side` set to a model of `side` alone, if that satisfies
    /// every one of `constraints` (which end with `side`).
    fn repaired(
        &mut self,
        constraints: &[TermId],
        side: TermId,
        hint: &Assignment,
    ) -> Result<Option<Rc<Assignment>>> {
        let side_vars: Vec<TermId> = (self.store.vars_of(&[side]).into_iter())
            .map(|v| self.store.var_info(v).term)
            .collect();
        let ModelResult::Sat(model) = self.queries.get_model(&self.store, &[side], &side_vars)?
        else {
            return Ok(None);
        };
        let mut candidate = hint.clone();
        candidate.extend(&model.to_assignment(&self.store));
        let values = match eval_all(&self.store, constraints, &candidate) {
            Ok(values) => values,
            Err(_) => return Ok(None),
        };
        let holds = values.iter().all(|v| *v == Value::Bool(true));
        Ok(holds.then(|| Rc::new(candidate)))
    }

    /// Whether `constraints` are consistent, with a model of `vars` when the solver gives one.
    fn model_of(&mut self, constraints: &[TermId], vars: &[TermId]) -> Result<Side> {
        Ok(
            match self.queries.get_model(&self.store, constraints, vars)? {
                ModelResult::Unsat => Side::Dead,
                ModelResult::Unknown(_) => Side::Alive(None),
                ModelResult::Sat(model) => {
                    let mut assignment = model.to_assignment(&self.store);
                    for &var in vars {
                        if let Some(id) = self.store.var_id(var) {
                            if assignment.get(id).is_none() {
                                let width = terms::width(&self.store, var);
                                assignment.insert(id, Value::Bv(BvConst::from_i128(width, 0)?));
                            }
                        }
                    }
                    Side::Alive(Some(Rc::new(assignment)))
                }
            },
        )
    }
}

/// What the solver said about one side of a split while counting.
enum Side {
    Dead,
    /// Consistent; the model, unless the solver answered `unknown`.
    Alive(Option<Rc<Assignment>>),
}

/// A cell that only one side of a merge allocated exists only under that side's condition
/// `exists`: its heap state becomes `ite(exists, state, 0)`, 0 being no heap object, so that
/// `Rvalue::LiveObjects` counts it on that side alone (`forward/reachability.rs`). Its other
/// fields need nothing: the other side holds no pointer to it.
fn allocated_only_where(
    store: &mut TermStore,
    value: &mut SymValue,
    field: FieldId,
    exists: TermId,
) -> Result<()> {
    match value {
        SymValue::Record(fields) => {
            let Some(at) = fields.iter().position(|(f, _)| *f == field) else {
                return Ok(());
            };
            let SymValue::Int(state) = fields[at].1 else {
                return Ok(());
            };
            let none = terms::int_const(store, 0)?;
            let guarded = store.ite(exists, state, none)?;
            let mut copy = fields.to_vec();
            copy[at].1 = SymValue::Int(guarded);
            *fields = copy.into();
        }
        SymValue::Array(elements) => {
            if let Some(first) = Rc::make_mut(elements).get_mut(0) {
                allocated_only_where(store, first, field, exists)?;
            }
        }
        SymValue::Ite(_, then, other) => {
            allocated_only_where(store, Rc::make_mut(then), field, exists)?;
            allocated_only_where(store, Rc::make_mut(other), field, exists)?;
        }
        _ => {}
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::common::terms;
    use crate::forward::machine::with_machine;
    use crate::forward::value::CellId;

    /// Two states forked on `#0 > 0` from `state`: the first writes `a` (local 0), the
    /// second leaves it; both point local 1 at different cells.
    fn split(machine: &mut Machine<'_>, mut state: State) -> (State, State, TermId) {
        let x = machine.input_var(0).unwrap();
        state.inputs_read = 1;
        let prefix = machine.store.bv_var("p", 32).unwrap();
        let zero = terms::int_const(&mut machine.store, 0).unwrap();
        let common = machine.store.bv_sge(prefix, zero).unwrap();
        state.pc.push(common);
        let shared = state.memory.alloc(SymValue::Int(zero));
        let other_cell = state.memory.alloc(SymValue::Uninit);
        let cond = machine.store.bv_sgt(x, zero).unwrap();
        let not = machine.store.not(cond).unwrap();
        let (mut a, mut b) = (state.clone(), state);
        a.pc.push(cond);
        b.pc.push(not);
        machine
            .write_local(&mut a, symex_ir::cfg::LocalId(0), SymValue::Int(x))
            .unwrap();
        machine
            .write_local(&mut a, symex_ir::cfg::LocalId(1), SymValue::Cell(shared))
            .unwrap();
        machine
            .write_local(
                &mut b,
                symex_ir::cfg::LocalId(1),
                SymValue::Cell(other_cell),
            )
            .unwrap();
        let seven = terms::int_const(&mut machine.store, 7).unwrap();
        b.memory.set(other_cell, SymValue::Int(seven)).unwrap();
        (a, b, cond)
    }

    #[test]
    fn values_become_ites_and_the_path_condition_a_disjunction() {
        with_machine("main() { var a, p; a = input; return a; }", |m, state| {
            let (a, b, cond) = split(m, state);
            let merged = m.merge_states(&a, &b).unwrap().expect("mergeable");
            assert_eq!(merged.pc.len(), 2);
            assert_eq!(merged.pc.get(0), a.pc.get(0));
            let not = m.store.not(cond).unwrap();
            let disjunction = m.store.or(cond, not).unwrap();
            assert_eq!(merged.pc.get(1), Some(disjunction));
            let frame = merged.frame().unwrap();
            // `a`: initialized on one side only; the `Init` check sees `¬cond`.
            assert!(matches!(&frame.locals[0], SymValue::Ite(c, _, _) if *c == cond));
            let uninit = frame.locals[0].uninit_at(&[], &mut m.store).unwrap();
            assert_eq!(m.store.as_bool(uninit), None);
            // The pointer keeps each side's target, under each side's condition.
            let t = m.store.bool_val(true).unwrap();
            let all = frame.locals[1].targets(t, &mut m.store).unwrap();
            assert_eq!(all[0].0, m.store.and(t, cond).unwrap());
            assert_eq!(
                all.iter().map(|x| x.1).collect::<Vec<_>>(),
                [CellId(0), CellId(1)]
            );
            // The cell the second side wrote: 7 there, uninitialized on the first side.
            let cell = merged.memory.get(CellId(1)).unwrap();
            assert!(matches!(cell, SymValue::Ite(..)));
            assert_eq!(
                merged.memory.get(CellId(0)).unwrap(),
                a.memory.get(CellId(0)).unwrap()
            );
            assert_eq!(merged.paths.known(&m.store, &merged.pc), Some(2));
            assert_eq!(m.count_paths(&merged, &Budget::untimed()).unwrap(), 2);
        });
    }

    #[test]
    fn pointers_keep_each_sides_aliasing() {
        with_machine(
            "main() { var a, p, q; a = input; return a; }",
            |m, state| {
                let (mut a, mut b, cond) = split(m, state);
                // `q` aliases `p` on the first side only.
                let q = symex_ir::cfg::LocalId(2);
                m.write_local(&mut a, q, SymValue::Cell(CellId(0))).unwrap();
                m.write_local(&mut b, q, SymValue::Cell(CellId(0))).unwrap();
                let merged = m.merge_states(&a, &b).unwrap().expect("mergeable");
                let frame = merged.frame().unwrap();
                let alias = frame.locals[1]
                    .pointer_eq(&frame.locals[2], &mut m.store)
                    .unwrap();
                let t = m.store.bool_val(true).unwrap();
                let f = m.store.bool_val(false).unwrap();
                assert_eq!(alias, m.store.ite(cond, t, f).unwrap());
                let null = frame.locals[2].is_null(&mut m.store).unwrap();
                assert_eq!(m.store.as_bool(null), Some(false));
            },
        );
    }

    #[test]
    fn numbers_merge_into_one_bit_vector_ite() {
        with_machine("main() { var a, p; a = input; return a; }", |m, state| {
            let (mut a, mut b, cond) = split(m, state);
            let one = terms::int_const(&mut m.store, 1).unwrap();
            let two = terms::int_const(&mut m.store, 2).unwrap();
            m.write_local(&mut a, symex_ir::cfg::LocalId(0), SymValue::Int(one))
                .unwrap();
            m.write_local(&mut b, symex_ir::cfg::LocalId(0), SymValue::Int(two))
                .unwrap();
            let merged = m.merge_states(&a, &b).unwrap().expect("mergeable");
            let expected = m.store.ite(cond, one, two).unwrap();
            assert_eq!(merged.frame().unwrap().locals[0], SymValue::Int(expected));
        });
    }

    #[test]
    fn different_places_inputs_or_nested_conditions_do_not_merge() {
        with_machine("main() { var a, p; a = input; return a; }", |m, state| {
            let (a, b, cond) = split(m, state);
            let mut later = b.clone();
            later.inputs_read = 2;
            assert!(m.merge_states(&a, &later).unwrap().is_none());
            let mut moved = b.clone();
            moved.frame_mut().unwrap().inst += 1;
            assert!(m.merge_states(&a, &moved).unwrap().is_none());
            let mut looped = b.clone();
            if let Some(n) = looped.frame_mut().unwrap().iterations.first_mut() {
                *n += 1;
                assert!(m.merge_states(&a, &looped).unwrap().is_none());
            }
            // A path condition that is a prefix of the other's: the paths overlap.
            let mut inner = a.clone();
            let x = m.input_var(0).unwrap();
            let five = terms::int_const(&mut m.store, 5).unwrap();
            let more = m.store.bv_sgt(x, five).unwrap();
            inner.pc.push(more);
            assert!(m.merge_states(&a, &inner).unwrap().is_none());
            // After a further constraint, only the constituents it allows are counted.
            let mut merged = m.merge_states(&a, &b).unwrap().expect("mergeable");
            merged.pc.push(more);
            assert_eq!(merged.paths.known(&m.store, &merged.pc), None);
            assert_eq!(m.count_paths(&merged, &Budget::untimed()).unwrap(), 1);
            let not = m.store.not(cond).unwrap();
            merged.pc.pop();
            merged.pc.push(not);
            assert_eq!(m.count_paths(&merged, &Budget::untimed()).unwrap(), 1);
        });
    }
}
