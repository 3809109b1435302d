//! Disjunct propagation (P Fig. 2 and Fig. 4, after Snugglebug): each node's state is a formula
//! in DNF over fixed symbols, operations are substitutions, and the solver is asked once, at the
//! entry, with the input-heap assumptions.
//!
//! The three measured representations (P §5): `disj-set` keeps a set of disjuncts and rewrites
//! each one separately, `disj-z3` keeps one disjunction term, `disj-comb` keeps a set whose
//! merges become one disjunction item. The term store's simplifying constructors are `Simplify`.
//! Nothing here builds the graph or a witness.

use rustc_hash::{FxHashMap, FxHashSet};
use symex_smt::{SatResult, Solver, TermId, TermStore};

use crate::backward::encode::{self, EntryModel, InputSymbols, SearchOutcome, SearchStats};
use crate::backward::heap::{ArrayHeap, FieldVersions, InputRef, SymbolicHeap};
use crate::backward::model::read_entry_model;
use crate::backward::ops::{Graph, Op, VarId};
use crate::backward::options::BseVariant;
use crate::backward::restarts::{self, FreshSolver};
use crate::common::budget::Budget;
use crate::common::terms::WIDTH;
use crate::error::EngineError;

/// The fixed symbol of each program variable (substituted away as the search goes back).
pub(super) struct Symbols {
    vars: Vec<Option<TermId>>,
    inputs: InputSymbols,
}

impl Symbols {
    pub(super) fn new(graph: &Graph) -> Symbols {
        Symbols {
            vars: vec![None; graph.vars.len()],
            inputs: InputSymbols::default(),
        }
    }

    fn var(
        &mut self,
        store: &mut TermStore,
        graph: &Graph,
        v: VarId,
    ) -> Result<TermId, EngineError> {
        if let Some(t) = self.vars[v as usize] {
            return Ok(t);
        }
        let t = store.bv_var(graph.vars[v as usize].name.clone(), WIDTH)?;
        self.vars[v as usize] = Some(t);
        Ok(t)
    }
}

/// Runs one disjunct-propagation search of `graph`.
pub fn search(
    graph: &Graph,
    variant: BseVariant,
    store: &mut TermStore,
    heap: &mut ArrayHeap,
    solver: &mut dyn Solver,
    fresh_solver: &FreshSolver<'_>,
    budget: &Budget,
) -> Result<(SearchOutcome, SearchStats), EngineError> {
    let mut stats = SearchStats::default();
    let mut symbols = Symbols::new(graph);
    let no_fields = FieldVersions::new();
    let mut states = match node_conditions(
        graph,
        variant,
        store,
        heap,
        &mut symbols,
        budget,
        &mut stats,
    )? {
        Ok(states) => states,
        Err(outcome) => return Ok((outcome, stats)),
    };
    let Some(entry) = states[graph.entry as usize].take() else {
        return Ok((SearchOutcome::Unreachable, stats));
    };
    let formula = store.or_all(&entry)?;
    // GetConditionDisjHeap: the reference symbols still in the formula are input references.
    let present: FxHashSet<TermId> = store
        .vars_of(&[formula])
        .into_iter()
        .map(|v| store.var_info(v).term)
        .collect();
    let input_refs: Vec<InputRef> = symbols
        .vars
        .iter()
        .enumerate()
        .filter_map(|(v, t)| {
            t.filter(|t| graph.vars[v].is_ref && present.contains(t))
                .map(|term| InputRef {
                    term,
                    tag: graph.vars[v].pointee_tag,
                })
        })
        .collect();
    let assumptions = heap.assumptions(store, &no_fields, &input_refs)?;
    stats.solver_calls += 1;
    // The only check of this solver: everything is asserted, so Z3 answers in its
    // non-incremental mode (as in conj's entry check).
    let mut all = vec![formula];
    all.extend(assumptions);
    for &a in &all {
        solver.assert(store, a)?;
    }
    let (result, mut restarted) =
        restarts::check_entry(false, solver, &all, fresh_solver, store, budget, &mut stats)?;
    let solver: &mut dyn Solver = match restarted.as_deref_mut() {
        Some(restarted) => restarted,
        None => solver,
    };
    let outcome = match result {
        SatResult::Unsat => SearchOutcome::Unreachable,
        SatResult::Unknown(reason) => SearchOutcome::Unknown(reason),
        SatResult::Sat => {
            let params = entry_params(graph, &symbols.vars);
            let model: EntryModel = read_entry_model(
                solver,
                store,
                &params,
                &symbols.inputs,
                graph.inputs,
                &heap.input_arrays(),
            )?;
            SearchOutcome::Reached(model)
        }
    };
    Ok((outcome, stats))
}

/// The condition at every node, computed in reverse topological order (the column of P Table 1):
/// `None` where no path to the target is left, else its disjuncts (one item where the variant
/// keeps one disjunction). `Err` when the search ends before the entry.
#[allow(clippy::type_complexity)]
pub(super) fn node_conditions(
    graph: &Graph,
    variant: BseVariant,
    store: &mut TermStore,
    heap: &mut ArrayHeap,
    symbols: &mut Symbols,
    budget: &Budget,
    stats: &mut SearchStats,
) -> Result<Result<Vec<Option<Vec<TermId>>>, SearchOutcome>, EngineError> {
    let relevant = graph.reaches_sink();
    let mut states: Vec<Option<Vec<TermId>>> = vec![None; graph.nodes.len()];
    let top = store.bool_val(true)?;
    states[graph.sink as usize] = Some(vec![top]);
    let no_fields = FieldVersions::new();
    for &n in graph.topological_order().iter().rev() {
        if n == graph.sink || !relevant[n as usize] {
            continue;
        }
        if let Some(cut) = budget.exhausted() {
            return Ok(Err(SearchOutcome::Stopped(cut)));
        }
        stats.nodes += 1;
        let node = &graph.nodes[n as usize];
        let mut items: Vec<TermId> = Vec::new();
        let mut live_deps = 0;
        for edge in &node.succs {
            let Some(dep) = &states[edge.to as usize] else {
                continue;
            };
            live_deps += 1;
            let mut var = |s: &mut TermStore, v: VarId| symbols.var(s, graph, v);
            let c = encode::cond(store, edge.cond, &mut var)?;
            for &d in dep {
                items.push(store.and(c, d)?);
            }
        }
        items = simplify(store, variant, items, live_deps > 1)?;
        for located in node.ops.iter().rev() {
            if items.is_empty() {
                break;
            }
            let rewrite = match &located.op {
                Op::Unsupported(reason) => {
                    return Ok(Err(SearchOutcome::Unsupported(reason.clone())))
                }
                op => step(store, graph, heap, symbols, op, &no_fields)?,
            };
            let mut next = Vec::with_capacity(items.len());
            for t in items {
                // One node can hold thousands of disjuncts (`disj-set` on degree counting with
                // b >= 5: seconds per node), so the limit is looked at per disjunct.
                if let Some(cut) = budget.exhausted() {
                    return Ok(Err(SearchOutcome::Stopped(cut)));
                }
                let mut u = if rewrite.map.is_empty() {
                    t
                } else {
                    store.substitute(t, &rewrite.map)?
                };
                if !rewrite.facts.is_empty() {
                    let mut all = rewrite.facts.clone();
                    all.push(u);
                    u = store.and_all(&all)?;
                }
                next.push(u);
            }
            items = simplify(store, variant, next, false)?;
        }
        states[n as usize] = (!items.is_empty()).then_some(items);
    }
    Ok(Ok(states))
}

/// The entry parameters' current terms, in order.
pub fn entry_params(graph: &Graph, terms: &[Option<TermId>]) -> Vec<Option<TermId>> {
    let count = graph
        .vars
        .iter()
        .filter_map(|v| v.entry_param)
        .max()
        .map_or(0, |m| m + 1);
    let mut params = vec![None; count];
    for (v, info) in graph.vars.iter().enumerate() {
        if let Some(i) = info.entry_param {
            params[i] = terms.get(v).copied().flatten();
        }
    }
    params
}

/// Bounds the next check by what is left of the time limit.
pub fn set_remaining(solver: &mut dyn Solver, budget: &Budget) {
    if let Some(left) = budget.remaining() {
        let ms = left.as_millis().max(1) as u64;
        let capped = match solver.timeout() {
            Some(t) if t < std::time::Duration::from_millis(ms) => t,
            _ => std::time::Duration::from_millis(ms),
        };
        solver.set_timeout(Some(capped));
    }
}

/// One operation as a substitution plus facts to conjoin (P Fig. 2 and Fig. 4).
struct Rewrite {
    map: FxHashMap<TermId, TermId>,
    facts: Vec<TermId>,
}

fn step(
    store: &mut TermStore,
    graph: &Graph,
    heap: &mut ArrayHeap,
    symbols: &mut Symbols,
    op: &Op,
    fields: &FieldVersions,
) -> Result<Rewrite, EngineError> {
    let mut map = FxHashMap::default();
    let mut facts = Vec::new();
    let mut var = |s: &mut TermStore, v: VarId| symbols.var(s, graph, v);
    match *op {
        Op::Assign { dst, value } => {
            let target = var(store, dst)?;
            let value = encode::expr(store, value, &mut var)?;
            map.insert(target, value);
        }
        Op::Input { dst, symbol } => {
            let target = var(store, dst)?;
            let value = symbols.inputs.get(store, symbol)?;
            map.insert(target, value);
        }
        Op::Load { dst, base, field } => {
            let target = var(store, dst)?;
            let base = encode::atom(store, base, &mut var)?;
            let read = heap.read(store, fields, base, field)?;
            map.insert(target, read.value);
            facts.extend(read.access);
            facts.extend(read.content);
        }
        Op::Store { base, field, value } => {
            let base = encode::atom(store, base, &mut var)?;
            let value = encode::atom(store, value, &mut var)?;
            let array = heap.array(store, field, 0)?;
            let written = store.store(array, base, value)?;
            map.insert(array, written);
            facts.extend(heap.access(store, base, field)?);
        }
        Op::Alloc { dst, site } => {
            let target = var(store, dst)?;
            map.insert(target, heap.alloc(store, site)?);
        }
        Op::Require(cond) => facts.push(encode::cond(store, cond, &mut var)?),
        Op::Unsupported(_) => {}
    }
    Ok(Rewrite { map, facts })
}

/// `Simplify` and the variant's representation: false disjuncts dropped, duplicates merged
/// (hash-consing makes equal disjuncts the same term), and one disjunction where the variant
/// keeps one.
fn simplify(
    store: &mut TermStore,
    variant: BseVariant,
    items: Vec<TermId>,
    merged_several: bool,
) -> Result<Vec<TermId>, EngineError> {
    let mut seen = FxHashSet::default();
    let mut kept: Vec<TermId> = items
        .into_iter()
        .filter(|&t| store.as_bool(t) != Some(false) && seen.insert(t))
        .collect();
    let single = match variant {
        BseVariant::DisjZ3 => true,
        BseVariant::DisjComb => merged_several,
        _ => false,
    };
    if single && kept.len() > 1 {
        let one = store.or_all(&kept)?;
        kept = vec![one];
        if store.as_bool(one) == Some(false) {
            kept.clear();
        }
    }
    Ok(kept)
}
