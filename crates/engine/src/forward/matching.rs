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
//! left may be cut where an equal one with more is not, so they are part of the match), and
//! what its path condition says about the symbols those values hold. Values are compared as
//! terms (hash-consed: the same symbols in the same expressions). A state whose values are
//! all concrete matches an equal one whatever the path conditions (they constrain nothing the
//! future reads; future inputs are fresh either way). A state with symbolic values matches an
//! earlier one with the same values whose constraints on those symbols (`constraints_about`:
//! the ones connected to them) are all among its own: every way its future can go is then
//! open to the earlier state too (the rest of the earlier path condition is independent of
//! what the future reads, and satisfiable, as every path condition is while no query was
//! answered `unknown`). The common case costs no look at the constraints: a
//! state whose path condition extends the earlier one's (the same state one round later).
//! States of a heap model (pointer parameters) are never matched, and no state is recorded
//! once a query was answered `unknown` (its path condition might be unsatisfiable).
//!
//! Snapshots are kept until the search ends, up to [`MAX_RECORDED_VALUES`] values in all; a
//! state larger than [`MAX_SNAPSHOT_VALUES`] is not matched, and a header where states do not
//! repeat ([`PATIENCE`]) stops being matched (building a snapshot at every arrival would cost
//! the state's size per iteration). Nothing here executes instructions or picks states; the
//! driver asks at every arrival at a loop header.

use rustc_hash::{FxHashMap, FxHashSet};
use symex_ir::cfg::{BlockId, FuncId, LocalId};
use symex_smt::{PathCondition, TermId, TermStore};

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

/// The most path conditions kept for one symbolic snapshot: each is compared with every
/// state that arrives with the same values.
const MAX_CONDITIONS: usize = 16;

/// The states seen at loop headers.
#[derive(Default)]
pub struct StateMatching {
    /// Snapshots without symbols.
    seen: FxHashSet<Snapshot>,
    /// Snapshots with symbols, and the path conditions of the states recorded with them.
    seen_symbolic: FxHashMap<Snapshot, Vec<Recorded>>,
    recorded_values: usize,
    /// Per loop header: arrivals and matches there.
    headers: FxHashMap<(FuncId, BlockId), (u64, u64)>,
    /// States pruned because an equal one was seen.
    pub matched: u64,
}

/// The path condition of a state recorded with a symbolic snapshot, and (once asked) its
/// constraints on the snapshot's symbols.
struct Recorded {
    pc: PathCondition,
    about: Option<Box<[TermId]>>,
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

/// A state's snapshot, what recording it costs (its scalars, words of dead bits and frames),
/// and the symbolic terms among its values (equal snapshots hold the same ones).
struct Arrival {
    snapshot: Snapshot,
    cost: usize,
    symbols: Vec<TermId>,
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
    pub fn revisits(&mut self, machine: &mut Machine<'_>, state: &State) -> bool {
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
        let Some(Arrival {
            snapshot,
            cost,
            symbols,
        }) = Snapshot::of(machine, state)
        else {
            return false;
        };
        let seen = match symbols.is_empty() {
            true => self.seen.contains(&snapshot),
            false => (self.seen_symbolic.get_mut(&snapshot))
                .is_some_and(|earlier| says_no_more(machine, &symbols, earlier, &state.pc)),
        };
        if seen {
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
        if sure && self.recorded_values + cost <= MAX_RECORDED_VALUES {
            if symbols.is_empty() {
                self.recorded_values += cost;
                self.seen.insert(snapshot);
            } else {
                let conditions = self.seen_symbolic.entry(snapshot).or_default();
                if conditions.len() < MAX_CONDITIONS {
                    self.recorded_values += cost;
                    conditions.push(Recorded {
                        pc: state.pc.clone(),
                        about: None,
                    });
                }
            }
        }
        false
    }
}

/// Whether one of the `earlier` path conditions says nothing about `symbols` that `pc` does
/// not say too: it is a prefix of `pc`, or its constraints on `symbols` (those connected to
/// them) are all constraints of `pc`. Each of those is connected to `symbols` through
/// constraints that are all among them, so where they are in `pc`, they are among `pc`'s own
/// constraints on `symbols`: the comparison needs only those (found from the groups the query
/// layer keeps for the current path), not the whole of `pc`.
fn says_no_more(
    machine: &mut Machine<'_>,
    symbols: &[TermId],
    earlier: &mut [Recorded],
    pc: &PathCondition,
) -> bool {
    if earlier.iter().any(|old| pc.extends(&old.pc)) {
        return true;
    }
    let store = &machine.store;
    let queries = &mut machine.queries;
    let own: FxHashSet<TermId> = queries
        .constraints_about(store, pc, symbols)
        .into_iter()
        .collect();
    earlier.iter_mut().any(|old| {
        let about = old
            .about
            .get_or_insert_with(|| queries.constraints_about(store, &old.pc, symbols).into());
        about.iter().all(|c| own.contains(c))
    })
}

impl Snapshot {
    /// The snapshot of `state`, or `None` if it is too large or has an input heap.
    fn of(machine: &Machine<'_>, state: &State) -> Option<Arrival> {
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
        let mut symbols = Vec::new();
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
                    size += scalars(store, value, &mut symbols)?;
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
            size += scalars(store, value, &mut symbols)?;
            if size > MAX_SNAPSHOT_VALUES {
                return None;
            }
            snapshot.values.push(value.clone());
        }
        let cost = size + snapshot.dead_assigned.len() + snapshot.frames.len();
        Some(Arrival {
            snapshot,
            cost,
            symbols,
        })
    }
}

/// How many scalars a value holds (numbers and symbolic terms, cells and null), adding the
/// symbolic terms to `symbols`; `None` for a heap model's references, which are not matched.
fn scalars(store: &TermStore, value: &SymValue, symbols: &mut Vec<TermId>) -> Option<usize> {
    match value {
        SymValue::Int(t) => {
            if !store.node(*t).is_const() {
                symbols.push(*t);
            }
            Some(1)
        }
        SymValue::Null | SymValue::Cell(_) | SymValue::Uninit => Some(1),
        SymValue::Record(fields) => fields.iter().map(|(_, v)| scalars(store, v, symbols)).sum(),
        SymValue::Array(items) => items.iter().map(|v| scalars(store, v, symbols)).sum(),
        // Too large to match by value.
        SymValue::Logged(_) => None,
        SymValue::Ite(cond, a, b) => {
            symbols.push(*cond);
            Some(scalars(store, a, symbols)? + scalars(store, b, symbols)?)
        }
        SymValue::Ref(_) => None,
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
    fn scalars_are_counted_and_symbols_collected() {
        let mut store = TermStore::new();
        let five = SymValue::Int(store.bv_val(32, 5).unwrap());
        let x = store.bv_var("#0", 32).unwrap();
        let cond = store.bv_var("#1", 1).unwrap();
        let symbol = SymValue::Int(x);
        let record = |v: &SymValue| SymValue::Record(vec![(FieldId(0), v.clone())].into());
        let count = |v: &SymValue| {
            let mut symbols = Vec::new();
            scalars(&store, v, &mut symbols).map(|n| (n, symbols))
        };
        assert_eq!(count(&five), Some((1, vec![])));
        assert_eq!(count(&symbol), Some((1, vec![x])));
        assert_eq!(count(&record(&five)), Some((1, vec![])));
        assert_eq!(count(&record(&symbol)), Some((1, vec![x])));
        let row = SymValue::array(vec![five.clone(), SymValue::Null, SymValue::Uninit]);
        assert_eq!(count(&row), Some((3, vec![])));
        let choice = SymValue::Ite(cond, Rc::new(five.clone()), Rc::new(symbol.clone()));
        assert_eq!(count(&choice), Some((2, vec![cond, x])));
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
