//! Query count estimation (`--merge qce|dynamic`; Kuznetsov et al. PLDI'12 §3, seed 002
//! §4.3.1 and §5.4.3.2): per function, block and local, an estimate of how many later solver
//! queries depend on the local's value at the block's start, and of all later queries there.
//! [`Estimates::similar`] turns the estimates into the merge decision.
//!
//! Queries are the branches (their condition), the checks (their operands; not `Init` checks,
//! which need the solver only when a merged side is uninitialized) and the `assume`s of the IR. A value flows backward through
//! assignments: `x = e` gives every local of `e` the cost of `x` and kills `x`; a store into
//! part of a local aggregate gives the stored value and the index the aggregate's cost; a call
//! gives each argument the cost of the result plus the callee's estimate for the parameter
//! (callees first; a recursive call adds nothing), and the result of a function that is
//! called somewhere counts as one query (the estimate is intraprocedural otherwise: callers
//! usually test results). Memory cells behind pointers are not variables of the estimate. Two estimates:
//! * recursive: the sum over the paths of the graph with every loop's body unrolled κ times (a
//!   back edge taken for the κ-th time reaches a header that may only exit) and each side of a
//!   two-way branch weighted β: the thesis's recursion, computed bottom-up over the unrolled
//!   (acyclic) graph so that it needs no call stack;
//! * lattice: the least fixpoint of the same transfer with sums at branches, every value capped
//!   at [`LATTICE_CAP`] (the thesis's bound, which makes loops converge).
//!
//! Estimates only choose which states merge; every merge is exact, so a poor estimate costs
//! time, never a verdict. A function whose estimate outgrows [`CELL_LIMIT`] or
//! [`LATTICE_WORK_LIMIT`] (or whose graph is irreducible) gets none, and states in it are
//! never merged by `qce`: the limits are counts, not clocks, so the same input gives the same
//! merges. Nothing here runs states.

use rustc_hash::{FxHashMap, FxHashSet};
use symex_ir::analysis::LoopId;
use symex_ir::cfg::{BlockId, Check, FuncId, Function, InstKind, LocalId, Module, Rvalue};
use symex_ir::Terminator;

use crate::common::options::{MergeOptions, QceEstimate};
use crate::forward::machine::Machine;
use crate::forward::program::{FunctionInfo, ProgramInfo};
use crate::forward::state::State;
use crate::forward::value::SymValue;

/// The thesis's cap on a lattice value.
pub const LATTICE_CAP: f64 = 10.0;

/// The most values (one per local and node) an estimate of one function may keep before the
/// function gets none: the recursive
/// estimate keeps a vector as wide as the function's locals (temporaries included) for each
/// (block, loop budget) node it evaluates, so a limit on nodes alone let nested loops of a
/// large function fill gigabytes. 2^22 values are 32 MiB: for a function of 30 locals, about
/// the 200,000 nodes that were the limit before.
pub const CELL_LIMIT: usize = 1 << 22;

/// The most values the lattice estimate of one function may compute (its rounds until the
/// fixpoint, times its blocks, times its locals) before the function gets none: a count, not
/// a clock, about a tenth of a second.
pub const LATTICE_WORK_LIMIT: usize = 1 << 26;

/// The estimate of one function: per block, the cost of every local at the block's start and,
/// last, the cost of all queries.
#[derive(Clone, Debug, PartialEq)]
pub struct FunctionEstimate {
    at_block: Vec<Vec<f64>>,
}

impl FunctionEstimate {
    /// Estimated later queries that depend on `local` at the start of `block`.
    pub fn cost(&self, block: BlockId, local: LocalId) -> f64 {
        self.at_block
            .get(block.index())
            .and_then(|v| v.get(local.index()))
            .copied()
            .unwrap_or(0.0)
    }

    /// Estimated later queries at the start of `block`, whatever they depend on.
    pub fn total(&self, block: BlockId) -> f64 {
        self.at_block
            .get(block.index())
            .and_then(|v| v.last())
            .copied()
            .unwrap_or(0.0)
    }
}

/// The estimates of a module's functions; `None` where the estimate gave up.
pub struct Estimates {
    functions: Vec<Option<FunctionEstimate>>,
    options: MergeOptions,
}

impl Estimates {
    /// Estimates every function of `module`, callees before callers.
    pub fn compute(module: &Module, info: &ProgramInfo, options: &MergeOptions) -> Estimates {
        let mut functions: Vec<Option<FunctionEstimate>> = vec![None; module.functions.len()];
        let mut called = vec![false; module.functions.len()];
        for f in 0..module.functions.len() {
            for callee in module.callees(FuncId(f as u32)) {
                called[callee.index()] = true;
            }
        }
        for func in module.callees_first() {
            let function = module.function(func);
            let entries: Vec<Option<&[f64]>> = functions
                .iter()
                .map(|e| {
                    e.as_ref()
                        .and_then(|e| e.at_block.first().map(Vec::as_slice))
                })
                .collect();
            let transfer = Transfer {
                function,
                callee_entry: &entries,
                cap: (options.estimate == QceEstimate::Lattice).then_some(LATTICE_CAP),
                result_is_used: called[func.index()],
            };
            let fi = &info.functions[func.index()];
            let estimate = match options.estimate {
                QceEstimate::Recursive => recursive(&transfer, fi, options),
                QceEstimate::Lattice => lattice(&transfer),
            };
            functions[func.index()] = estimate;
        }
        Estimates {
            functions,
            options: *options,
        }
    }

    /// How many functions got no estimate (over a limit, or irreducible).
    pub fn unestimated(&self) -> usize {
        self.functions.iter().filter(|f| f.is_none()).count()
    }

    pub fn function(&self, func: FuncId) -> Option<&FunctionEstimate> {
        self.functions.get(func.index()).and_then(Option::as_ref)
    }

    /// Whether merging `a` and `b` (at the same place with the same call stack) is expected to
    /// pay: the estimated queries of the locals that differ, that are hot (above α times all
    /// queries there) and that are not symbolic in both states (PLDI'12: merging two symbolic
    /// values adds little; turning a concrete value symbolic adds queries) sum to less than
    /// `limit-cost`. A frame of a function without an estimate refuses the merge. Each frame
    /// is judged at the start of its block (a caller's frame stands after the call).
    pub fn similar(&self, machine: &Machine<'_>, a: &State, b: &State) -> bool {
        let mut charged = 0.0;
        for (x, y) in a.stack.iter().zip(&b.stack) {
            if std::rc::Rc::ptr_eq(x, y) {
                continue;
            }
            let Some(estimate) = self.function(x.func) else {
                return false;
            };
            let info = &machine.info.functions[x.func.index()];
            let threshold = self.options.alpha * estimate.total(x.block);
            for (i, (u, v)) in x.locals.iter().zip(y.locals.iter()).enumerate() {
                let local = LocalId(i as u32);
                let (Some(u), Some(v)) = (
                    effective_value(info, a, local, u),
                    effective_value(info, b, local, v),
                ) else {
                    return false;
                };
                if u == v {
                    continue;
                }
                let cost = estimate.cost(x.block, local);
                if cost > threshold && !(is_symbolic(machine, u) && is_symbolic(machine, v)) {
                    charged += cost;
                }
            }
        }
        charged < self.options.limit_cost
    }
}

/// A local's value: its cell's content for a cell-backed local.
fn effective_value<'s>(
    info: &FunctionInfo,
    state: &'s State,
    local: LocalId,
    value: &'s SymValue,
) -> Option<&'s SymValue> {
    match value {
        SymValue::Cell(cell) if info.is_cell_backed(local) => state.memory.get(*cell).ok(),
        other => Some(other),
    }
}

/// Whether a value is symbolic (a term that is not a constant, or an ite of merged values);
/// pointers and aggregates count as concrete.
fn is_symbolic(machine: &Machine<'_>, value: &SymValue) -> bool {
    match value {
        SymValue::Int(t) | SymValue::Ref(t) => machine.store.as_bv(*t).is_none(),
        SymValue::Ite(..) => true,
        SymValue::Null
        | SymValue::Cell(_)
        | SymValue::Record(_)
        | SymValue::Array(_)
        | SymValue::Logged(_)
        | SymValue::Uninit => false,
    }
}

/// The backward transfer of one block: from the costs after its terminator's successors are
/// combined to the costs at its start.
struct Transfer<'a> {
    function: &'a Function,
    /// Per function, its estimate at its entry, if it has one yet.
    callee_entry: &'a [Option<&'a [f64]>],
    cap: Option<f64>,
    /// The function is called somewhere: its result counts as one query (callers test it).
    result_is_used: bool,
}

impl Transfer<'_> {
    fn width(&self) -> usize {
        self.function.locals.len() + 1
    }

    fn add(&self, q: &mut [f64], i: usize, x: f64) {
        if let Some(slot) = q.get_mut(i) {
            *slot += x;
            if let Some(cap) = self.cap {
                *slot = slot.min(cap);
            }
        }
    }

    /// One query reading `locals`.
    fn query(&self, q: &mut [f64], locals: &[LocalId]) {
        for l in locals {
            self.add(q, l.index(), 1.0);
        }
        let total = q.len() - 1;
        self.add(q, total, 1.0);
    }

    /// `dst` is overwritten by a value computed from `sources` (plus `extra` per source).
    fn flow(&self, q: &mut [f64], dst: LocalId, sources: &[LocalId], extra: &[f64]) {
        let cost = q.get(dst.index()).copied().unwrap_or(0.0);
        if let Some(slot) = q.get_mut(dst.index()) {
            *slot = 0.0;
        }
        for (i, s) in sources.iter().enumerate() {
            self.add(q, s.index(), cost + extra.get(i).copied().unwrap_or(0.0));
        }
    }

    fn block(&self, block: BlockId, mut q: Vec<f64>) -> Vec<f64> {
        let body = self.function.block(block);
        match body.term {
            Terminator::Branch { cond, .. } => {
                self.query(&mut q, &cond.local().into_iter().collect::<Vec<_>>());
            }
            Terminator::Return(value) if self.result_is_used => {
                self.query(&mut q, &value.local().into_iter().collect::<Vec<_>>());
            }
            Terminator::Return(_) | Terminator::Goto(_) => {}
        }
        for inst in body.insts.iter().rev() {
            let mut read = Vec::new();
            match &inst.kind {
                // An `Init` check asks the solver only when one merged side is uninitialized:
                // not counted.
                InstKind::Check {
                    check: Check::Init(_),
                    ..
                } => {}
                InstKind::Check { check, .. } => {
                    check.for_each_operand(|op| read.extend(op.local()));
                    dedup(&mut read);
                    self.query(&mut q, &read);
                }
                InstKind::Assume(op) => {
                    read.extend(op.local());
                    self.query(&mut q, &read);
                }
                InstKind::Assign { dst, value } => {
                    value.for_each_operand(|op| read.extend(op.local()));
                    if let Rvalue::Read(place) | Rvalue::Len(place) = value {
                        read.extend(place.base_local());
                    }
                    dedup(&mut read);
                    self.flow(&mut q, *dst, &read, &[]);
                }
                InstKind::Store { place, value } => match place.base_local() {
                    Some(whole) if place.projections.is_empty() => {
                        read.extend(value.local());
                        self.flow(&mut q, whole, &read, &[]);
                    }
                    Some(aggregate) => {
                        place.for_each_operand(|op| read.extend(op.local()));
                        read.extend(value.local());
                        dedup(&mut read);
                        let cost = q.get(aggregate.index()).copied().unwrap_or(0.0);
                        for l in read {
                            self.add(&mut q, l.index(), cost);
                        }
                    }
                    None => {}
                },
                InstKind::Call { dst, func, args } => {
                    let entry = self.callee_entry.get(func.index()).copied().flatten();
                    let mut extra = Vec::with_capacity(args.len());
                    for (i, arg) in args.iter().enumerate() {
                        if let Some(l) = arg.local() {
                            read.push(l);
                            extra.push(entry.and_then(|e| e.get(i)).copied().unwrap_or(0.0));
                        }
                    }
                    self.flow(&mut q, *dst, &read, &extra);
                    let callee_total = entry.and_then(|e| e.last()).copied().unwrap_or(0.0);
                    let total = q.len() - 1;
                    self.add(&mut q, total, callee_total);
                }
                InstKind::Input { dst } => {
                    if let Some(slot) = q.get_mut(dst.index()) {
                        *slot = 0.0;
                    }
                }
                InstKind::Output(_) => {}
            }
        }
        q
    }

    /// The block's successors with the weight of each (β for the sides of a two-way branch).
    fn successors(&self, block: BlockId, beta: f64) -> Vec<(BlockId, f64)> {
        match self.function.block(block).term {
            Terminator::Goto(t) => vec![(t, 1.0)],
            Terminator::Branch {
                then_block,
                else_block,
                ..
            } if then_block == else_block => vec![(then_block, 1.0)],
            Terminator::Branch {
                then_block,
                else_block,
                ..
            } => vec![(then_block, beta), (else_block, beta)],
            Terminator::Return(_) => Vec::new(),
        }
    }
}

fn dedup(locals: &mut Vec<LocalId>) {
    locals.sort_unstable();
    locals.dedup();
}

/// A node of the unrolled graph: a block and, per loop containing it (outermost first), how
/// many more times its body may run.
type Node = (BlockId, Vec<u32>);

/// The recursive estimate (seed 002 §4.3.1): evaluated over the acyclic unrolled graph in
/// post-order with an explicit stack.
fn recursive(
    transfer: &Transfer<'_>,
    info: &FunctionInfo,
    options: &MergeOptions,
) -> Option<FunctionEstimate> {
    let loops = info.loops();
    if !loops.is_reducible() {
        return None;
    }
    let function = transfer.function;
    let enclosing = |b: BlockId| -> Vec<LoopId> {
        let mut v: Vec<LoopId> = loops.enclosing(b).collect();
        v.reverse();
        v
    };
    // Successor nodes of a node, with weights.
    let children = |(block, budget): &Node| -> Vec<(Node, f64)> {
        let around = enclosing(*block);
        // A header whose loop has no more iterations may only leave the loop.
        let closed = loops.loop_of_header(*block).filter(|&l| {
            around
                .iter()
                .position(|&x| x == l)
                .is_some_and(|i| budget.get(i) == Some(&0))
        });
        transfer
            .successors(*block, options.beta)
            .into_iter()
            .filter(|(s, _)| closed.is_none_or(|l| !loops.get(l).contains(*s)))
            .map(|(s, w)| {
                let back = match info.edge_kind(*block, s) {
                    crate::forward::program::EdgeKind::Back(l) => Some(LoopId(l as u32)),
                    _ => None,
                };
                let child_budget = enclosing(s)
                    .into_iter()
                    .map(|l| match around.iter().position(|&x| x == l) {
                        Some(i) if back == Some(l) => budget[i].saturating_sub(1),
                        Some(i) => budget[i],
                        None => options.kappa,
                    })
                    .collect();
                ((s, child_budget), w)
            })
            .collect()
    };
    let mut memo: FxHashMap<Node, Vec<f64>> = FxHashMap::default();
    // Nodes whose children are being evaluated. The unrolled graph is acyclic, so a node met
    // again before its value is known was reached along another path and is already on the
    // stack: expanding it once keeps the stack within the node count (the paths through the
    // unrolled graph are exponentially many; expanding per path once ran out of memory).
    let mut entered: FxHashSet<Node> = FxHashSet::default();
    let mut at_block = Vec::with_capacity(function.blocks.len());
    for b in function.block_ids() {
        let root: Node = (b, vec![options.kappa; enclosing(b).len()]);
        let mut stack: Vec<(Node, bool)> = vec![(root.clone(), false)];
        while let Some((node, expanded)) = stack.pop() {
            if memo.contains_key(&node) {
                continue;
            }
            let kids = children(&node);
            if expanded {
                let mut out = vec![0.0; transfer.width()];
                for (kid, w) in &kids {
                    let value = memo.get(kid)?;
                    for (o, v) in out.iter_mut().zip(value) {
                        *o += w * v;
                    }
                }
                let value = transfer.block(node.0, out);
                memo.insert(node, value);
            } else if entered.insert(node.clone()) {
                if entered.len() * transfer.width() > CELL_LIMIT {
                    return None;
                }
                let missing: Vec<Node> = kids
                    .into_iter()
                    .map(|(k, _)| k)
                    .filter(|k| !memo.contains_key(k) && !entered.contains(k))
                    .collect();
                stack.push((node, true));
                stack.extend(missing.into_iter().map(|k| (k, false)));
            }
        }
        at_block.push(memo.get(&root)?.clone());
    }
    Some(FunctionEstimate { at_block })
}

/// The lattice estimate (seed 002 §5.4.3.2): the least fixpoint of the transfer with sums at
/// branches and every value capped, by round-robin iteration in post-order.
fn lattice(transfer: &Transfer<'_>) -> Option<FunctionEstimate> {
    let function = transfer.function;
    let n = function.blocks.len();
    if n * transfer.width() > CELL_LIMIT {
        return None;
    }
    let mut at_block = vec![vec![0.0; transfer.width()]; n];
    let order: Vec<BlockId> = {
        let mut rpo = symex_ir::analysis::reverse_postorder(function);
        rpo.reverse();
        rpo
    };
    let mut visits = 0usize;
    loop {
        let mut changed = false;
        for &b in &order {
            visits += transfer.width();
            if visits > LATTICE_WORK_LIMIT {
                return None;
            }
            let mut out = vec![0.0; transfer.width()];
            for (s, w) in transfer.successors(b, 1.0) {
                for (o, v) in out.iter_mut().zip(&at_block[s.index()]) {
                    *o = (*o + w * v).min(LATTICE_CAP);
                }
            }
            let value = transfer.block(b, out);
            if value != at_block[b.index()] {
                at_block[b.index()] = value;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    Some(FunctionEstimate { at_block })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn estimate(source: &str, options: MergeOptions) -> (Module, Estimates) {
        let front = symex_syntax::analyze(source).expect("valid");
        let module = symex_ir::lower(&front.program);
        let info = ProgramInfo::new(&module);
        let estimates = Estimates::compute(&module, &info, &options);
        (module, estimates)
    }

    fn local(module: &Module, func: FuncId, name: &str) -> LocalId {
        let f = module.function(func);
        LocalId(f.locals.iter().position(|l| l.name == name).expect("local") as u32)
    }

    /// The first block with several ways in (the join after the `if`, or the loop header).
    fn first_join(module: &Module) -> BlockId {
        let info = ProgramInfo::new(module);
        module.functions[0]
            .block_ids()
            .find(|&b| info.functions[0].is_join(b))
            .expect("a join")
    }

    const STRAIGHT: &str = "main() { var x, a, b; x = input; a = 1; \
        if (x > 0) { a = 2; } else { a = 3; } \
        if (a > 2) { b = 1; } else { b = 2; } \
        if (a > x) { b = 3; } \
        return 10 / b; }";

    #[test]
    fn recursive_counts_queries_along_both_sides_of_every_branch() {
        let (module, est) = estimate(STRAIGHT, MergeOptions::default());
        let main = FuncId(0);
        let join = first_join(&module);
        let e = est.function(main).expect("estimated");
        let (a, x, b) = (
            local(&module, main, "a"),
            local(&module, main, "x"),
            local(&module, main, "b"),
        );
        // From the first join: `a > 2` (1 query), then on each of its two sides `a > x`
        // (1 each): 3 queries on `a`; `x` only in `a > x` (2); `b` is assigned on both sides
        // of `a > 2` before the division reads it (0).
        assert_eq!(e.cost(join, a), 3.0);
        assert_eq!(e.cost(join, x), 2.0);
        assert_eq!(e.cost(join, b), 0.0);
        // All queries: `a > 2`; per side `a > x` and the division check on both of its sides
        // (1 + 2 × 3); `Init` checks are not queries.
        assert_eq!(e.total(join), 7.0);
        // β halves each side: `a > 2` once, `a > x` twice at weight 1/2.
        let half = MergeOptions {
            beta: 0.5,
            ..MergeOptions::default()
        };
        let (_, est) = estimate(STRAIGHT, half);
        assert_eq!(est.function(main).unwrap().cost(join, a), 2.0);
    }

    const LOOP: &str = "main() { var i, n, s; n = input; i = 0; s = 0; \
        while (i < n) { s = s + i; i = i + 1; } \
        return 100 / s; }";

    #[test]
    fn recursive_unrolls_loops_kappa_times() {
        let main = FuncId(0);
        for kappa in [0u32, 1, 2, 5] {
            let options = MergeOptions {
                kappa,
                ..MergeOptions::default()
            };
            let (module, est) = estimate(LOOP, options);
            let header = first_join(&module);
            let e = est.function(main).unwrap();
            let k = f64::from(kappa);
            // `i < n` is asked at every header visit: κ runs of the body and the exit check.
            assert_eq!(
                e.cost(header, local(&module, main, "n")),
                k + 1.0,
                "κ {kappa}"
            );
            // `s` is checked by the division after each of the κ + 1 exits.
            assert_eq!(
                e.cost(header, local(&module, main, "s")),
                k + 1.0,
                "κ {kappa}"
            );
            // `i` feeds the guard and, through `s = s + i`, the division after every later
            // exit: 1 + 2 + ... + (κ + 1).
            assert_eq!(
                e.cost(header, local(&module, main, "i")),
                (k + 1.0) * (k + 2.0) / 2.0,
                "κ {kappa}"
            );
        }
    }

    #[test]
    fn lattice_caps_loop_values_and_kills_assigned_locals() {
        let options = MergeOptions {
            estimate: QceEstimate::Lattice,
            ..MergeOptions::default()
        };
        let main = FuncId(0);
        let (module, est) = estimate(LOOP, options);
        let header = first_join(&module);
        let e = est.function(main).unwrap();
        // The loop feeds the header's queries back into themselves until the cap.
        assert_eq!(e.cost(header, local(&module, main, "n")), LATTICE_CAP);
        assert_eq!(e.cost(header, local(&module, main, "i")), LATTICE_CAP);
        let (module, est) = estimate(STRAIGHT, options);
        let join = first_join(&module);
        let e = est.function(main).unwrap();
        // No loop: sums at branches, as the recursive estimate with β = 1.
        assert_eq!(e.cost(join, local(&module, main, "a")), 3.0);
        assert_eq!(e.cost(join, local(&module, main, "x")), 2.0);
        assert_eq!(e.cost(join, local(&module, main, "b")), 0.0);
    }

    #[test]
    fn calls_add_the_callees_estimate_for_the_parameter() {
        let source = "f(p) { var r; r = 0; if (p > 0) { r = 1; } return r; } \
            main() { var x, y; x = input; y = f(x); return y; }";
        let (module, est) = estimate(source, MergeOptions::default());
        let f = module.function_by_name("f").unwrap();
        let main = module.function_by_name("main").unwrap();
        let entry = est.function(f).unwrap();
        // `p > 0`; `r` is assigned before it is returned (the return counts as a query on `r`).
        assert_eq!(entry.cost(BlockId(0), LocalId(0)), 1.0);
        assert_eq!(entry.total(BlockId(0)), 3.0);
        let m = est.function(main).unwrap();
        // At main's entry `x` is read later by `input` assignment: killed there.
        assert_eq!(m.cost(BlockId(0), local(&module, main, "x")), 0.0);
        // A recursive function still gets an estimate (its self-call adds nothing).
        let (module, est) = estimate(
            "g(n) { var r; r = 0; if (n > 0) { r = g(n - 1); } return r; } \
             main() { return g(input); }",
            MergeOptions::default(),
        );
        let g = module.function_by_name("g").unwrap();
        assert!(est.function(g).unwrap().cost(BlockId(0), LocalId(0)) >= 1.0);
    }

    #[test]
    fn an_oversized_unrolling_gives_no_estimate() {
        // Five nested loops unrolled 30 times each: far more nodes than the limit.
        let source = "main() { var a, b, c, d, e, n; n = input; a = 0; \
            while (a < n) { b = 0; while (b < n) { c = 0; while (c < n) { d = 0; \
            while (d < n) { e = 0; while (e < n) { e = e + 1; } d = d + 1; } c = c + 1; } \
            b = b + 1; } a = a + 1; } return 0; }";
        let options = MergeOptions {
            kappa: 30,
            ..MergeOptions::default()
        };
        let (_, est) = estimate(source, options);
        assert!(est.function(FuncId(0)).is_none());
        let (_, est) = estimate(source, MergeOptions::default());
        assert!(est.function(FuncId(0)).is_some());
    }

    #[test]
    fn a_wide_function_gives_up_within_the_memory_limit() {
        // Five nested loops around a body of over a thousand temporaries: each node is as wide
        // as the function's locals (a limit on nodes alone kept gigabytes of values here).
        let body = "x = (x + 1) * (x - 1) + x * 3; ".repeat(400);
        let source = format!(
            "main() {{ var a, b, c, d, e, x, n; n = input; x = 0; a = 0; \
             while (a < n) {{ b = 0; while (b < n) {{ c = 0; while (c < n) {{ d = 0; \
             while (d < n) {{ e = 0; while (e < n) {{ {body} e = e + 1; }} d = d + 1; }} \
             c = c + 1; }} b = b + 1; }} a = a + 1; }} return x; }}"
        );
        let options = MergeOptions {
            kappa: 10,
            ..MergeOptions::default()
        };
        let (module, est) = estimate(&source, options);
        let width = module.functions[0].locals.len();
        assert!(width > 1000, "{width}");
        assert!(est.function(FuncId(0)).is_none());
        assert_eq!(est.unestimated(), 1);
    }
}
