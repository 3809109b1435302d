//! State matching (`--match-states`): a state that reaches a loop header equal, in everything
//! its future can observe, to a state that reached the same header before is pruned. From
//! there it can do exactly what the earlier state can, and that one is (or was) explored, so
//! pruning hides no violation: this is the visited set of explicit-state model checkers (SPIN,
//! Java PathFinder's state matching). It lets a search end on programs whose loops cycle
//! through finitely many states, such as reactive `while (1)` loops that read one of a few
//! inputs per round and keep a few small globals (SV-COMP's ECA and product-line tasks), where
//! every path is endless and nothing else ever stops.
//!
//! What a state's future observes: its call stack (functions, positions, where results go),
//! the values of its strongly live locals (`forward::live`; of a dead local only whether it is
//! assigned, if a whole-local `Init` check asks that of it anywhere), its memory, and, when
//! the bound is set, the counters `--unwind` and `--max-depth` cut at (a state with less budget
//! left may be cut where an equal one with more is not, so they are part of the match). Only
//! states whose observed values are all concrete are matched: then the path condition
//! constrains nothing the future reads, and neither do the symbols of inputs read so far
//! (future inputs are fresh either way). States of a heap model (pointer parameters) are never
//! matched, and no state is recorded once a query was answered `unknown` (its path condition
//! might be unsatisfiable).
//!
//! Snapshots are kept until the search ends, up to [`MAX_RECORDED_VALUES`] values in all; a
//! state larger than [`MAX_SNAPSHOT_VALUES`] is not matched, and a header where states do not
//! repeat ([`PATIENCE`]) stops being matched (building a snapshot at every arrival would cost
//! the state's size per iteration). Nothing here executes instructions or picks states; the
//! driver asks at every arrival at a loop header.

use rustc_hash::{FxHashMap, FxHashSet};
use symex_ir::cfg::{BlockId, FuncId, LocalId};
use symex_smt::TermStore;

use crate::forward::machine::Machine;
use crate::forward::state::State;
use crate::forward::value::SymValue;

/// The most values one snapshot may hold: larger states are not matched.
const MAX_SNAPSHOT_VALUES: usize = 1 << 14;

/// The most values all snapshots together may hold (about 24 bytes each); past it, states are
/// still matched against the snapshots kept, but no new one is recorded.
const MAX_RECORDED_VALUES: usize = 1 << 23;

/// Arrivals at a loop header after which matching stops there unless at least one in
/// [`MIN_MATCH_RATE`] was matched: a loop whose states do not repeat (a counter) would pay a
/// snapshot per iteration for nothing (a loop over a 10,000-element array, 200,000 iterations:
/// 0.5 s plain, 23.7 s matching every arrival).
const PATIENCE: u64 = 1000;

/// One arrival in this many must be matched for matching to go on at a header past
/// [`PATIENCE`].
const MIN_MATCH_RATE: u64 = 100;

/// The states seen at loop headers.
#[derive(Default)]
pub struct StateMatching {
    seen: FxHashSet<Snapshot>,
    recorded_values: usize,
    /// Per loop header: arrivals and matches there.
    headers: FxHashMap<(FuncId, BlockId), (u64, u64)>,
    /// States pruned because an equal one was seen.
    pub matched: u64,
}

/// What a state's future can observe, at a loop header.
#[derive(PartialEq, Eq, Hash)]
struct Snapshot {
    frames: Vec<Position>,
    /// The live locals' values, frame by frame, then every memory cell.
    values: Vec<SymValue>,
    /// One bit per dead local, frame by frame: whether it is assigned.
    dead_assigned: Vec<u64>,
    /// The symbolic forks so far, when `--max-depth` bounds them.
    depth: Option<u32>,
}

#[derive(PartialEq, Eq, Hash)]
struct Position {
    func: FuncId,
    block: BlockId,
    inst: usize,
    return_to: Option<LocalId>,
    /// The loops' iteration counts, when `--unwind` bounds them.
    iterations: Option<Vec<u32>>,
}

impl StateMatching {
    /// Whether `state` stands at a loop header where an equal state stood before: then the
    /// caller prunes it. Otherwise `false`, and the state is recorded if it can be matched at
    /// all, no query has been answered `unknown` yet, and the recorded snapshots' budget
    /// allows.
    pub fn revisits(&mut self, machine: &Machine<'_>, state: &State) -> bool {
        let Some(frame) = state.frame() else {
            return false;
        };
        let info = &machine.info.functions[frame.func.index()];
        if frame.inst != 0 || info.loops().loop_of_header(frame.block).is_none() {
            return false;
        }
        let (arrivals, matches) = self.headers.entry((frame.func, frame.block)).or_default();
        if *arrivals >= PATIENCE && *matches * MIN_MATCH_RATE < *arrivals {
            return false;
        }
        *arrivals += 1;
        let Some((snapshot, size)) = Snapshot::of(machine, state) else {
            return false;
        };
        if self.seen.contains(&snapshot) {
            *matches += 1;
            self.matched += 1;
            return true;
        }
        // A branch taken on a solver `unknown` may have left a path condition unsatisfiable:
        // such a state stands for no run, and an equal state that stands for one must not be
        // pruned by it. While no query has been answered `unknown`, every path condition was
        // decided satisfiable; after the first, no state is recorded. (Asking the solver
        // about each recorded state's whole path condition instead is a full check per state
        // on depth-first search's long paths, which kept models do not answer.)
        let sure = machine.queries.stats().unknown == 0;
        if sure && self.recorded_values + size <= MAX_RECORDED_VALUES {
            self.recorded_values += size;
            self.seen.insert(snapshot);
        }
        false
    }
}

impl Snapshot {
    /// The snapshot of `state` and what recording it costs (its scalars, words of dead bits
    /// and frames), or `None` if some value it observes is symbolic (or it is too large, or it
    /// has an input heap).
    fn of(machine: &Machine<'_>, state: &State) -> Option<(Snapshot, usize)> {
        let options = machine.options;
        if machine.heap.is_some() {
            return None;
        }
        let store = &machine.store;
        let mut snapshot = Snapshot {
            frames: Vec::with_capacity(state.stack.len()),
            values: Vec::new(),
            dead_assigned: Vec::new(),
            depth: options.max_depth.map(|_| state.depth),
        };
        let mut size = 0usize;
        let mut dead = 0usize;
        let top = state.stack.len() - 1;
        for (level, frame) in state.stack.iter().enumerate() {
            snapshot.frames.push(Position {
                func: frame.func,
                block: frame.block,
                inst: frame.inst,
                return_to: frame.return_to,
                iterations: options.unwind.map(|_| frame.iterations.clone()),
            });
            let function = &machine.module.functions[frame.func.index()];
            let info = &machine.info.functions[frame.func.index()];
            let liveness = info.liveness(function);
            let live = liveness.live_before(function, frame.block, frame.inst);
            // A caller's result local is written when the callee returns: its value now is
            // never read (unless it lives in a cell: then the local holds the cell's address).
            let overwritten = (level < top)
                .then(|| state.stack[level + 1].return_to)
                .flatten()
                .filter(|&l| !info.is_cell_backed(l));
            for (index, value) in frame.locals.iter().enumerate() {
                let local = LocalId(index as u32);
                if live.contains(local) && overwritten != Some(local) {
                    size += concrete_size(store, value)?;
                    snapshot.values.push(value.clone());
                } else if liveness.is_init_checked(local) {
                    if dead % 64 == 0 {
                        snapshot.dead_assigned.push(0);
                    }
                    if assigned(value)? {
                        if let Some(word) = snapshot.dead_assigned.last_mut() {
                            *word |= 1 << (dead % 64);
                        }
                    }
                    dead += 1;
                }
            }
            if size > MAX_SNAPSHOT_VALUES {
                return None;
            }
        }
        for value in state.memory.values() {
            size += concrete_size(store, value)?;
            if size > MAX_SNAPSHOT_VALUES {
                return None;
            }
            snapshot.values.push(value.clone());
        }
        let cost = size + snapshot.dead_assigned.len() + snapshot.frames.len();
        Some((snapshot, cost))
    }
}

/// How many scalars a value holds, if it holds no symbol (numbers are constant terms; cells
/// and null are concrete addresses; a heap model's references and conditional values are not).
fn concrete_size(store: &TermStore, value: &SymValue) -> Option<usize> {
    match value {
        SymValue::Int(t) => store.node(*t).is_const().then_some(1),
        SymValue::Null | SymValue::Cell(_) | SymValue::Uninit => Some(1),
        SymValue::Record(fields) => fields.iter().map(|(_, v)| concrete_size(store, v)).sum(),
        SymValue::Array(items) => items.iter().map(|v| concrete_size(store, v)).sum(),
        SymValue::Ite(..) | SymValue::Ref(_) => None,
    }
}

/// Whether a whole-local `Init` check finds the value assigned; `None` if that depends on a
/// condition.
fn assigned(value: &SymValue) -> Option<bool> {
    match value {
        SymValue::Uninit => Some(false),
        SymValue::Ite(_, a, b) => {
            let a = assigned(a)?;
            (a == assigned(b)?).then_some(a)
        }
        _ => Some(true),
    }
}

#[cfg(test)]
mod tests {
    use std::rc::Rc;

    use symex_ir::cfg::FieldId;

    use super::*;

    #[test]
    fn only_values_without_symbols_are_concrete() {
        let mut store = TermStore::new();
        let five = SymValue::Int(store.bv_val(32, 5).unwrap());
        let symbol = SymValue::Int(store.bv_var("#0", 32).unwrap());
        let record = |v: &SymValue| SymValue::Record(vec![(FieldId(0), v.clone())].into());
        assert_eq!(concrete_size(&store, &five), Some(1));
        assert_eq!(concrete_size(&store, &symbol), None);
        assert_eq!(concrete_size(&store, &record(&five)), Some(1));
        assert_eq!(concrete_size(&store, &record(&symbol)), None);
        let row = SymValue::Array(vec![five.clone(), SymValue::Null, SymValue::Uninit].into());
        assert_eq!(concrete_size(&store, &row), Some(3));
        let cond = store.bv_var("#1", 1).unwrap();
        let choice = SymValue::Ite(cond, Rc::new(five.clone()), Rc::new(SymValue::Null));
        assert_eq!(concrete_size(&store, &choice), None);
    }

    #[test]
    fn a_conditional_value_is_assigned_only_if_both_sides_agree() {
        let mut store = TermStore::new();
        let cond = store.bv_var("c", 1).unwrap();
        let five = SymValue::Int(store.bv_val(32, 5).unwrap());
        let both = SymValue::Ite(cond, Rc::new(five.clone()), Rc::new(SymValue::Null));
        let one = SymValue::Ite(cond, Rc::new(five.clone()), Rc::new(SymValue::Uninit));
        assert_eq!(assigned(&SymValue::Uninit), Some(false));
        assert_eq!(assigned(&five), Some(true));
        assert_eq!(assigned(&both), Some(true));
        assert_eq!(assigned(&one), None);
    }
}
