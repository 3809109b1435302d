//! Conjunct combination (P Fig. 3 and Fig. 5, after UFO): each node `n` gets a control literal
//! `c_n` and one permanent assertion `c_n => join ∧ op`, over versioned variables and field
//! arrays; the solver is incremental, and the input-heap assumptions of a check are passed as
//! check assumptions (forgotten after it; the back end accepts any Boolean term, T §8.1's
//! push/assert/pop emulation is not needed).
//!
//! A variable's current symbol lives in the node's environment (the paper's η for references and
//! `vers` for numbers, one map here): an assignment removes the target and equates its symbol
//! with the right-hand side, a copy into a target whose source is still unknown only renames
//! (Fig. 5's reference assignment), and a variable first met gets a fresh symbol (`Init`). So a
//! variable assigned going backwards is never the "current" symbol that an assumption makes an
//! input reference (the digest's soundness trap of the thesis's `GETASSUMPTIONS`). Where
//! branches bind a variable to different symbols, or some branch does not bind it (it assigns
//! the variable, so the value before is free there), the merge binds it to a fresh one and
//! equates it in the disjuncts of the branches that bind it, so no unintended alias arises and
//! no branch's value constrains another's.
//!
//! `conj-never` asks the solver only at the entry, `conj-always` at every node, `conj-loops` where
//! a loop is entered (the first iteration's header) and at the entry; an `unsat` prunes the node (`¬c_n`). At an intermediate
//! node the assumptions (the heap there is an input heap, unassigned named pointers are input
//! references) are sound for pruning: the cells allocated before that node can be renamed into
//! the input heap. Nothing here builds the graph or a witness.

use std::collections::BTreeMap;
use std::time::Instant;

use symex_smt::{SatResult, Solver, TermId, TermStore};

use crate::backward::disj::{entry_params, set_remaining};
use crate::backward::encode::{self, InputSymbols, SearchOutcome, SearchStats};
use crate::backward::heap::{InputRef, SymbolicHeap};
use crate::backward::model::read_entry_model;
use crate::backward::ops::{Atom, Edge, Expr, Graph, NodeId, Op, VarId};
use crate::backward::options::BseVariant;
use crate::backward::restarts::{self, FreshSolver};
use crate::common::budget::Budget;
use crate::common::terms::WIDTH;
use crate::error::EngineError;

type Env = BTreeMap<VarId, TermId>;

/// Z3's resource count allowed to each of `conj-loops`' checks at loop entries: enough for the
/// small formulas near the target, where pruning is cheap, and far less than the whole query,
/// which the check at the outermost loop's entry already is. Measured on degree counting with
/// the integer encoding (BENCHMARKS.md): 100 000 units (a quarter of the bit-vector entry check
/// of (0, 3)) made `conj-loops` 1.2–1.8× `conj-never` on the b = 3 and 4 rows, 10 000 1.06–1.26×
/// (session 10; `conj-never` has got faster since, and the ratio there is now 1.25–1.6, the
/// loop checks' fixed cost). Less would be cheaper still, but loses the pruning: over both
/// corpora, 678 of 886 loop-entry checks prune at 10 000 units, 224 of 950 at 1 000.
const LOOP_ENTRY_CHECK_RLIMIT: u32 = 10_000;

/// What conjunct combination knows at one node.
#[derive(Clone)]
struct ConjState<H: Clone> {
    control: TermId,
    env: Env,
    heap: H,
}

/// Fresh versioned symbols per variable (`x^0`, `x^1`, ...).
struct Versions {
    next: Vec<u32>,
}

impl Versions {
    fn fresh(
        &mut self,
        store: &mut TermStore,
        graph: &Graph,
        v: VarId,
    ) -> Result<TermId, EngineError> {
        let k = self.next[v as usize];
        self.next[v as usize] += 1;
        Ok(store.bv_var(format!("{}^{k}", graph.vars[v as usize].name), WIDTH)?)
    }
}

/// The current symbol of `v` in `env`, made fresh when `v` is met for the first time.
fn current(
    store: &mut TermStore,
    graph: &Graph,
    versions: &mut Versions,
    env: &mut Env,
    v: VarId,
) -> Result<TermId, EngineError> {
    if let Some(&t) = env.get(&v) {
        return Ok(t);
    }
    let t = versions.fresh(store, graph, v)?;
    env.insert(v, t);
    Ok(t)
}

/// Runs one conjunct-combination search of `graph` with the heap model `heap`.
pub fn search<H: SymbolicHeap>(
    graph: &Graph,
    variant: BseVariant,
    store: &mut TermStore,
    heap: &mut H,
    solver: &mut dyn Solver,
    fresh_solver: &FreshSolver<'_>,
    budget: &Budget,
) -> Result<(SearchOutcome, SearchStats), EngineError> {
    // Everything asserted so far, for moving to a fresh solver at the entry.
    let mut asserted: Vec<TermId> = Vec::new();
    let mut stats = SearchStats::default();
    let mut versions = Versions {
        next: vec![0; graph.vars.len()],
    };
    let mut inputs = InputSymbols::default();
    let relevant = graph.reaches_sink();
    let entry_path = graph.entry_path(&relevant);
    // The nodes checked before the entry. A loop entry on the entry's one path is left to the
    // entry's check: nothing lies between them that pruning could save.
    let checked_early = |n: NodeId| {
        n != graph.entry
            && n != graph.sink
            && relevant[n as usize]
            && match variant {
                BseVariant::ConjAlways => true,
                BseVariant::ConjLoops => {
                    graph.nodes[n as usize].loop_entry && !entry_path[n as usize]
                }
                _ => false,
            }
    };
    let order: Vec<NodeId> = graph.topological_order().into_iter().rev().collect();
    // Past the last of them, the entry check goes to a fresh solver (below), and asserting into
    // this one would only translate terms that no check reads.
    let last_early = order.iter().rposition(|&n| checked_early(n));
    let mut states: Vec<Option<ConjState<H::State>>> = vec![None; graph.nodes.len()];
    states[graph.sink as usize] = Some(ConjState {
        control: store.bool_var(format!("c{}", graph.sink))?,
        env: Env::new(),
        heap: H::State::default(),
    });
    for (position, &n) in order.iter().enumerate() {
        if n == graph.sink || !relevant[n as usize] {
            continue;
        }
        if let Some(cut) = budget.exhausted() {
            return Ok((SearchOutcome::Stopped(cut), stats));
        }
        let node = &graph.nodes[n as usize];
        // MergeConj: the successors' environments, conditions and heaps.
        let deps: Vec<(&Edge, &ConjState<H::State>)> = node
            .succs
            .iter()
            .filter_map(|edge| Some((edge, states[edge.to as usize].as_ref()?)))
            .collect();
        if deps.is_empty() {
            continue;
        }
        stats.nodes += 1;
        let mut bindings: BTreeMap<VarId, Vec<(usize, TermId)>> = BTreeMap::new();
        for (d, (_, dep)) in deps.iter().enumerate() {
            for (&v, &t) in &dep.env {
                bindings.entry(v).or_default().push((d, t));
            }
        }
        let mut joins: Vec<Vec<TermId>> = vec![Vec::new(); deps.len()];
        let mut env = Env::new();
        for (v, bound) in bindings {
            let first = bound[0].1;
            // A successor that does not bind `v` (it assigns `v`, or never reads it) leaves the
            // value free: sharing another successor's symbol would constrain it there too.
            if bound.len() == deps.len() && bound.iter().all(|&(_, t)| t == first) {
                env.insert(v, first);
                continue;
            }
            let merged = versions.fresh(store, graph, v)?;
            for (d, t) in bound {
                joins[d].push(store.eq(merged, t)?);
            }
            env.insert(v, merged);
        }
        // The edge conditions read the node's exit values: the merged symbols (equal to each
        // successor's in its own disjunct), and one symbol per variable first read by a
        // condition, whichever edge reads it. Encoding them per successor would give a branch
        // variable one symbol per edge and a third joining them.
        let mut conds = Vec::with_capacity(deps.len());
        for (edge, _) in &deps {
            let mut var =
                |s: &mut TermStore, v: VarId| current(s, graph, &mut versions, &mut env, v);
            conds.push(encode::cond(store, edge.cond, &mut var)?);
        }
        let heap_states: Vec<&H::State> = deps.iter().map(|(_, dep)| &dep.heap).collect();
        let (mut heap_state, heap_joins) = heap.merge(store, &heap_states)?;
        let mut disjuncts = Vec::with_capacity(deps.len());
        for (d, ((_, dep), cond)) in deps.iter().zip(&conds).enumerate() {
            let mut parts = vec![dep.control, *cond];
            parts.extend(joins[d].iter().copied());
            parts.extend(heap_joins[d].iter().copied());
            disjuncts.push(store.and_all(&parts)?);
        }
        let mut body = vec![store.or_all(&disjuncts)?];
        for located in node.ops.iter().rev() {
            if let Op::Unsupported(reason) = &located.op {
                return Ok((SearchOutcome::Unsupported(reason.clone()), stats));
            }
            operation(
                store,
                graph,
                heap,
                &mut versions,
                &mut inputs,
                &mut env,
                &mut heap_state,
                &located.op,
                &mut body,
            )?;
        }
        let control = store.bool_var(format!("c{n}"))?;
        let condition = store.and_all(&body)?;
        let psi = store.implies(control, condition)?;
        if stats.solver_calls == 0 || last_early.is_some_and(|last| position <= last) {
            solver.assert(store, psi)?;
        }
        asserted.push(psi);
        let state = ConjState {
            control,
            env,
            heap: heap_state,
        };
        let is_entry = n == graph.entry;
        if !is_entry && !checked_early(n) {
            states[n as usize] = Some(state);
            continue;
        }
        // GetConditionConjHeap: c_n with the temporary input-heap assumptions.
        let input_refs: Vec<InputRef> = state
            .env
            .iter()
            .filter(|(v, _)| graph.vars[**v as usize].is_ref)
            .map(|(v, &term)| InputRef {
                term,
                tag: graph.vars[*v as usize].pointee_tag,
            })
            .collect();
        let assumptions = heap.assumptions(store, &state.heap, &input_refs)?;
        stats.solver_calls += 1;
        // The assumptions are temporary (forgotten after the check): going further back may
        // still show that an "input" reference was allocated. At the entry nothing lies further
        // back, so they are asserted: a solver never checked before then answers in Z3's
        // non-incremental mode, several times faster on these array formulas (measured in
        // BENCHMARKS.md).
        //
        // A Z3 solver once checked under assumptions stays in its incremental mode, so after
        // intermediate checks (`conj-always`, `conj-loops`) the entry check goes to a fresh
        // solver given the same assertions (the pruned nodes' `¬c_n` among them): several times
        // faster on degree counting (BENCHMARKS.md), the same formula. A fresh context, not a
        // new solver in the old one: the old context's history (the terms its checks made)
        // changes Z3's search, and on the satisfiable rows by up to 5× either way.
        let mut assumed = assumptions;
        assumed.push(control);
        if is_entry {
            let mut fresh: Box<dyn Solver>;
            let first: &mut dyn Solver = if stats.solver_calls > 1 {
                fresh = fresh_solver()?;
                for &a in &asserted {
                    fresh.assert(store, a)?;
                }
                &mut *fresh
            } else {
                &mut *solver
            };
            for &a in &assumed {
                first.assert(store, a)?;
            }
            let all: Vec<TermId> = asserted.iter().chain(&assumed).copied().collect();
            let (result, mut restarted) =
                restarts::check_entry(true, first, &all, fresh_solver, store, budget, &mut stats)?;
            let outcome = match result {
                SatResult::Unsat => SearchOutcome::Unreachable,
                SatResult::Unknown(reason) => SearchOutcome::Unknown(reason),
                SatResult::Sat => {
                    let terms: Vec<Option<TermId>> = (0..graph.vars.len() as VarId)
                        .map(|v| state.env.get(&v).copied())
                        .collect();
                    let params = entry_params(graph, &terms);
                    let answering: &mut dyn Solver = match restarted.as_deref_mut() {
                        Some(restarted) => restarted,
                        None => first,
                    };
                    SearchOutcome::Reached(read_entry_model(
                        answering,
                        store,
                        &params,
                        &inputs,
                        graph.inputs,
                        &heap.input_arrays(),
                    )?)
                }
            };
            return Ok((outcome, stats));
        }
        // `conj-loops`' checks before the entry are bounded by a resource count: only `unsat`
        // prunes, so one that runs out is taken like a `sat` one (no pruning), which is sound.
        // A count, not a time limit, so that the report does not depend on the load.
        let bounded = variant == BseVariant::ConjLoops;
        solver.set_resource_limit(bounded.then_some(LOOP_ENTRY_CHECK_RLIMIT));
        set_remaining(solver, budget);
        let started = Instant::now();
        let result = solver.check(store, &assumed)?;
        stats.solver_time += started.elapsed();
        match result {
            SatResult::Unsat => {
                let pruned = store.not(control)?;
                solver.assert(store, pruned)?;
                asserted.push(pruned);
            }
            SatResult::Sat | SatResult::Unknown(_) => states[n as usize] = Some(state),
        }
    }
    Ok((SearchOutcome::Unreachable, stats))
}

/// ProcessOperationConj(Heap) for one operation, going backwards: updates the environment and
/// heap state and pushes the operation's constraints onto `body`.
#[allow(clippy::too_many_arguments)]
fn operation<H: SymbolicHeap>(
    store: &mut TermStore,
    graph: &Graph,
    heap: &mut H,
    versions: &mut Versions,
    inputs: &mut InputSymbols,
    env: &mut Env,
    heap_state: &mut H::State,
    op: &Op,
    body: &mut Vec<TermId>,
) -> Result<(), EngineError> {
    match *op {
        Op::Assign { dst, value } => {
            let Some(target) = env.remove(&dst) else {
                return Ok(());
            };
            if let Expr::Use(Atom::Var(source)) = value {
                if let std::collections::btree_map::Entry::Vacant(slot) = env.entry(source) {
                    slot.insert(target);
                    return Ok(());
                }
            }
            let mut var = |s: &mut TermStore, v: VarId| current(s, graph, versions, env, v);
            let value = encode::expr(store, value, &mut var)?;
            body.push(store.eq(target, value)?);
        }
        Op::Input { dst, symbol } => {
            if let Some(target) = env.remove(&dst) {
                let value = inputs.get(store, symbol)?;
                body.push(store.eq(target, value)?);
            }
        }
        Op::Load { dst, base, field } => {
            // The target leaves the environment before the base is looked up, so `x = x->next`
            // reads through the earlier `x` (P Fig. 5, lines 30–31).
            let target = env.remove(&dst);
            let mut var = |s: &mut TermStore, v: VarId| current(s, graph, versions, env, v);
            let base = encode::atom(store, base, &mut var)?;
            let read = heap.read(store, heap_state, base, field)?;
            // The dereference's constraints always; the value's only when it matters.
            body.extend(read.access);
            if let Some(target) = target {
                body.push(store.eq(target, read.value)?);
                body.extend(read.content);
            }
        }
        Op::Store { base, field, value } => {
            let mut var = |s: &mut TermStore, v: VarId| current(s, graph, versions, env, v);
            let base = encode::atom(store, base, &mut var)?;
            let value = encode::atom(store, value, &mut var)?;
            body.extend(heap.write(store, heap_state, base, field, value)?);
        }
        Op::Alloc { dst, site } => {
            if let Some(target) = env.remove(&dst) {
                let cell = heap.alloc(store, site)?;
                body.push(store.eq(target, cell)?);
            }
        }
        Op::Require(cond) => {
            let mut var = |s: &mut TermStore, v: VarId| current(s, graph, versions, env, v);
            body.push(encode::cond(store, cond, &mut var)?);
        }
        Op::Unsupported(_) => {}
    }
    Ok(())
}
