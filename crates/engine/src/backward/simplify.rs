//! Simplification of the unwound graph before a search, the last step of P §3.1's preprocessing:
//! it shrinks the formulas of every search variant without changing which runs reach the sink.
//!
//! * Constants go forwards: a variable that holds the same constant on every path to an
//!   operation is replaced by it there (loop counters become one number per unwound iteration),
//!   and checks that then always pass are dropped (chiefly the `uninit` checks of variables
//!   assigned on every path).
//! * A temporary that a node computes and reads only in one test of its own (`%t = a < b`, then a
//!   branch on `%t`) is folded into that test, so the searches meet `a < b` instead of a symbol
//!   equated with it (conjunct combination would make one per unwound copy).
//!
//! Neither changes a trace: temporaries are not shown, and a passing check has no step. References
//! are never made constants (an `alloc`'s number stays the heap model's business). Nothing here
//! searches or decides a verdict.

use rustc_hash::{FxHashMap, FxHashSet};
use symex_report::Cut;
use symex_smt::TermStore;

use crate::backward::encode;
use crate::backward::ops::{Atom, Cond, Expr, Graph, Located, Op, VarId};
use crate::common::budget::Budget;
use crate::error::EngineError;

/// Simplifies `graph` in place; `Err` with the cut of the check's limit that ran out first
/// (the graph is then left half simplified and must not be searched).
pub fn simplify(graph: &mut Graph, budget: &Budget) -> Result<(), Cut> {
    propagate_constants(graph, budget)?;
    fold_temporaries(graph, budget)
}

type Constants = FxHashMap<VarId, i32>;

fn propagate_constants(graph: &mut Graph, budget: &Budget) -> Result<(), Cut> {
    let mut folder = TermStore::new();
    let mut at_start: Vec<Option<Constants>> = vec![None; graph.nodes.len()];
    for n in graph.topological_order() {
        budget.check()?;
        let mut known = at_start[n as usize].take().unwrap_or_default();
        let node = &mut graph.nodes[n as usize];
        node.ops.retain_mut(|located| {
            let op = &mut located.op;
            match op {
                Op::Assign { dst, value } => {
                    *value = substitute_expr(&known, *value);
                    match constant_value(&mut folder, *value) {
                        Some(k) if !graph.vars[*dst as usize].is_ref => known.insert(*dst, k),
                        _ => known.remove(dst),
                    };
                }
                Op::Input { dst, .. } | Op::Alloc { dst, .. } => {
                    known.remove(dst);
                }
                Op::Load { dst, base, .. } => {
                    *base = substitute(&known, *base);
                    known.remove(dst);
                }
                Op::Store { base, value, .. } => {
                    *base = substitute(&known, *base);
                    *value = substitute(&known, *value);
                }
                Op::Require(cond) => {
                    *cond = substitute_cond(&known, *cond);
                    return !always_holds(&mut folder, *cond);
                }
                Op::Unsupported(_) => {}
            }
            true
        });
        for edge in &mut node.succs {
            edge.cond = substitute_cond(&known, edge.cond);
            if always_holds(&mut folder, edge.cond) {
                edge.cond = Cond::True;
            }
            // Meet: what holds on every path into the successor.
            match &mut at_start[edge.to as usize] {
                slot @ None => *slot = Some(known.clone()),
                Some(theirs) => theirs.retain(|v, k| known.get(v) == Some(k)),
            }
        }
    }
    Ok(())
}

fn substitute(known: &Constants, a: Atom) -> Atom {
    match a {
        Atom::Var(v) => known.get(&v).map_or(a, |&k| Atom::Const(k)),
        Atom::Const(_) => a,
    }
}

fn substitute_expr(known: &Constants, e: Expr) -> Expr {
    match e {
        Expr::Use(a) => Expr::Use(substitute(known, a)),
        Expr::Unary(op, a) => Expr::Unary(op, substitute(known, a)),
        Expr::Binary(op, a, b) => Expr::Binary(op, substitute(known, a), substitute(known, b)),
    }
}

fn substitute_cond(known: &Constants, c: Cond) -> Cond {
    match c {
        Cond::True => Cond::True,
        Cond::NonZero(e) => Cond::NonZero(substitute_expr(known, e)),
        Cond::Zero(e) => Cond::Zero(substitute_expr(known, e)),
    }
}

/// The value of an expression over constants only (with the searches' own semantics: the term
/// store folds it).
fn constant_value(folder: &mut TermStore, e: Expr) -> Option<i32> {
    if expr_atoms(e).any(|a| matches!(a, Atom::Var(_))) {
        return None;
    }
    let mut no_var = |_: &mut TermStore, _: VarId| -> Result<_, EngineError> {
        Err(EngineError::Internal("a variable in a constant".into()))
    };
    let t = encode::expr(folder, e, &mut no_var).ok()?;
    folder.as_bv(t).map(|bv| bv.bits() as u32 as i32)
}

fn always_holds(folder: &mut TermStore, c: Cond) -> bool {
    match c {
        Cond::True => true,
        Cond::NonZero(e) => constant_value(folder, e).is_some_and(|k| k != 0),
        Cond::Zero(e) => constant_value(folder, e) == Some(0),
    }
}

fn expr_atoms(e: Expr) -> impl Iterator<Item = Atom> {
    let (a, b) = match e {
        Expr::Use(a) | Expr::Unary(_, a) => (a, None),
        Expr::Binary(_, a, b) => (a, Some(b)),
    };
    std::iter::once(a).chain(b)
}

fn expr_vars(e: Expr) -> impl Iterator<Item = VarId> {
    expr_atoms(e).filter_map(|a| match a {
        Atom::Var(v) => Some(v),
        Atom::Const(_) => None,
    })
}

fn cond_vars(c: Cond) -> impl Iterator<Item = VarId> {
    let e = match c {
        Cond::True => None,
        Cond::NonZero(e) | Cond::Zero(e) => Some(e),
    };
    e.into_iter().flat_map(expr_vars)
}

/// The variables an operation reads and the one it defines.
fn reads_and_def(op: &Op) -> (Vec<VarId>, Option<VarId>) {
    let vars = |atoms: &[Atom]| -> Vec<VarId> {
        atoms
            .iter()
            .filter_map(|a| match a {
                Atom::Var(v) => Some(*v),
                Atom::Const(_) => None,
            })
            .collect()
    };
    match *op {
        Op::Assign { dst, value } => (expr_vars(value).collect(), Some(dst)),
        Op::Input { dst, .. } | Op::Alloc { dst, .. } => (Vec::new(), Some(dst)),
        Op::Load { dst, base, .. } => (vars(&[base]), Some(dst)),
        Op::Store { base, value, .. } => (vars(&[base, value]), None),
        Op::Require(c) => (cond_vars(c).collect(), None),
        Op::Unsupported(_) => (Vec::new(), None),
    }
}

/// The variables read before being written on some path from each node's start.
fn live_at_start(graph: &Graph, budget: &Budget) -> Result<Vec<FxHashSet<VarId>>, Cut> {
    let mut live: Vec<FxHashSet<VarId>> = vec![FxHashSet::default(); graph.nodes.len()];
    for n in graph.topological_order().into_iter().rev() {
        budget.check()?;
        let node = &graph.nodes[n as usize];
        let mut set = live_at_exit(graph, &live, n);
        for located in node.ops.iter().rev() {
            let (reads, def) = reads_and_def(&located.op);
            if let Some(d) = def {
                set.remove(&d);
            }
            set.extend(reads);
        }
        live[n as usize] = set;
    }
    Ok(live)
}

/// The variables live when `n` is left: read by its edges or live in a successor.
fn live_at_exit(graph: &Graph, live: &[FxHashSet<VarId>], n: u32) -> FxHashSet<VarId> {
    let mut set = FxHashSet::default();
    for edge in &graph.nodes[n as usize].succs {
        set.extend(live[edge.to as usize].iter().copied());
        set.extend(cond_vars(edge.cond));
    }
    set
}

fn fold_temporaries(graph: &mut Graph, budget: &Budget) -> Result<(), Cut> {
    let live = live_at_start(graph, budget)?;
    for n in 0..graph.nodes.len() {
        budget.check()?;
        let mut after: FxHashSet<VarId> = FxHashSet::default();
        for edge in &graph.nodes[n].succs {
            after.extend(live[edge.to as usize].iter().copied());
        }
        // The edges' tests: a temporary that only they read is folded into all of them.
        let mut tested: Vec<VarId> = graph.nodes[n]
            .succs
            .iter()
            .filter_map(|edge| tested_var(edge.cond))
            .collect();
        tested.sort_unstable();
        tested.dedup();
        for t in tested {
            let node = &graph.nodes[n];
            let sole_reader = node.succs.iter().all(|edge| {
                tested_var(edge.cond) == Some(t) || !cond_vars(edge.cond).any(|v| v == t)
            });
            if !sole_reader || after.contains(&t) || !graph.vars[t as usize].is_temporary() {
                continue;
            }
            let Some((def, value)) = foldable_definition(&node.ops, t, node.ops.len()) else {
                continue;
            };
            let node = &mut graph.nodes[n];
            node.ops.remove(def);
            for edge in &mut node.succs {
                if tested_var(edge.cond) == Some(t) {
                    edge.cond = with_expr(edge.cond, value);
                }
            }
        }
        // The node's own checks: a temporary read by one check and nothing after it.
        let mut i = 0;
        while i < graph.nodes[n].ops.len() {
            let node = &graph.nodes[n];
            let folded = match node.ops[i].op {
                Op::Require(c) => tested_var(c).filter(|&t| {
                    graph.vars[t as usize].is_temporary()
                        && !after.contains(&t)
                        && !node.succs.iter().any(|e| cond_vars(e.cond).any(|v| v == t))
                        && !node.ops[i + 1..]
                            .iter()
                            .any(|l| reads_and_def(&l.op).0.contains(&t))
                }),
                _ => None,
            }
            .and_then(|t| foldable_definition(&node.ops, t, i));
            match folded {
                Some((def, value)) => {
                    let node = &mut graph.nodes[n];
                    if let Op::Require(c) = &mut node.ops[i].op {
                        *c = with_expr(*c, value);
                    }
                    node.ops.remove(def);
                    // The check moved one place up; look at the operation now at `i`.
                }
                None => i += 1,
            }
        }
    }
    Ok(())
}

/// The variable a test reads when it is just that variable.
fn tested_var(c: Cond) -> Option<VarId> {
    match c {
        Cond::NonZero(Expr::Use(Atom::Var(t))) | Cond::Zero(Expr::Use(Atom::Var(t))) => Some(t),
        _ => None,
    }
}

fn with_expr(c: Cond, e: Expr) -> Cond {
    match c {
        Cond::True => Cond::True,
        Cond::NonZero(_) => Cond::NonZero(e),
        Cond::Zero(_) => Cond::Zero(e),
    }
}

/// The last definition of `t` among `ops[..use_at]` when it is an assignment that can move to
/// the use: nothing between reads `t` or changes what its value reads.
fn foldable_definition(ops: &[Located], t: VarId, use_at: usize) -> Option<(usize, Expr)> {
    let def = ops[..use_at]
        .iter()
        .rposition(|l| reads_and_def(&l.op).1 == Some(t))?;
    let Op::Assign { value, .. } = ops[def].op else {
        return None;
    };
    let between = &ops[def + 1..use_at];
    let clobbered = between.iter().any(|l| {
        let (reads, written) = reads_and_def(&l.op);
        reads.contains(&t) || written.is_some_and(|w| expr_vars(value).any(|v| v == w))
    });
    (!clobbered).then_some((def, value))
}

#[cfg(test)]
mod tests {
    use symex_ir::cfg::{PropId, PropertyKind};

    use super::*;
    use crate::backward::graph;
    use crate::backward::ops::VarKind;
    use crate::backward::types::TypeFacts;

    /// The simplified graph of `entry` for its first assertion, unwound `unwind` times.
    fn graph_of(source: &str, entry: &str, unwind: u32) -> Graph {
        let front = symex_syntax::analyze(source).expect("parses");
        let types = front.types.expect("well typed");
        let module = symex_ir::lower(&front.program);
        let facts = TypeFacts::new(&module, &types);
        let func = module.function_by_name(entry).expect("entry");
        let prop = module
            .properties
            .iter()
            .position(|p| p.kind == PropertyKind::Assert)
            .expect("an assertion");
        let budget = Budget::untimed();
        graph::build(
            &module,
            &facts,
            None,
            func,
            PropId(prop as u32),
            unwind,
            &budget,
        )
        .expect("no limit")
        .0
    }

    fn ops(graph: &Graph) -> impl Iterator<Item = &Op> {
        graph.nodes.iter().flat_map(|n| n.ops.iter().map(|l| &l.op))
    }

    fn conds(graph: &Graph) -> impl Iterator<Item = Cond> + '_ {
        let edges = graph
            .nodes
            .iter()
            .flat_map(|n| n.succs.iter().map(|e| e.cond));
        let checks = ops(graph).filter_map(|op| match op {
            Op::Require(c) => Some(*c),
            _ => None,
        });
        edges.chain(checks)
    }

    #[test]
    fn checks_of_variables_assigned_on_every_path_are_dropped() {
        let source = "f(x) { var y; if (x > 0) { y = 1; } else { y = x; } \
                      assert(y != 7); return y; }\nmain() { return f(1); }";
        let graph = graph_of(source, "f", 2);
        let init_read = conds(&graph)
            .any(|c| cond_vars(c).any(|v| matches!(graph.vars[v as usize].kind, VarKind::Init(_))));
        assert!(!init_read, "an uninit check of `y` is left");
    }

    #[test]
    fn a_loop_counter_is_a_number_in_each_unwound_iteration() {
        let source = "f(x) { var i; i = 0; while (i < x) { i = i + 1; } \
                      assert(i != 2); return i; }\nmain() { return f(1); }";
        let graph = graph_of(source, "f", 3);
        // Only the assertion after the loop, where the iterations' exits meet, reads `i`.
        let increments_i = ops(&graph).any(|op| {
            matches!(op, Op::Assign { value, .. }
                if expr_vars(*value).any(|v| graph.vars[v as usize].name == "i"))
        });
        assert!(!increments_i, "`i` is still computed from `i`");
        // The loop test compares the input with the iteration's count.
        let tests_count = conds(&graph).any(|c| {
            matches!(
                c,
                Cond::NonZero(Expr::Binary(_, Atom::Const(1), Atom::Var(_)))
                    | Cond::NonZero(Expr::Binary(_, Atom::Var(_), Atom::Const(1)))
            )
        });
        assert!(tests_count, "no test of the count 1 against `x`");
    }

    #[test]
    fn a_branch_tests_the_comparison_instead_of_its_temporary() {
        let source = "f(x, y) { var r; r = 0; if (x < y) { r = 1; } assert(x != y); return r; }\n\
                      main() { return f(1, 2); }";
        let graph = graph_of(source, "f", 2);
        let temporaries_tested = conds(&graph)
            .flat_map(cond_vars)
            .any(|v| graph.vars[v as usize].is_temporary());
        assert!(!temporaries_tested, "a test still reads a temporary");
        let assigns_temporary = ops(&graph).any(
            |op| matches!(op, Op::Assign { dst, .. } if graph.vars[*dst as usize].is_temporary()),
        );
        assert!(!assigns_temporary, "a folded temporary is still assigned");
    }

    /// A hand-made graph: node 0 runs `ops` and branches on `tested` to the sink (1) or to
    /// node 2, which runs `later`.
    fn branching(ops: Vec<Op>, tested: VarId, later: Vec<Op>) -> Graph {
        let located = |op| Located {
            op,
            func: symex_ir::cfg::FuncId(0),
            span: symex_syntax::span::Span::default(),
        };
        let edge = |cond, to| crate::backward::ops::Edge {
            cond,
            to,
            branch: None,
            call: None,
        };
        let nodes = vec![
            crate::backward::ops::Node {
                ops: ops.into_iter().map(located).collect(),
                succs: vec![
                    edge(Cond::nonzero(Atom::Var(tested)), 1),
                    edge(Cond::zero(Atom::Var(tested)), 2),
                ],
                loop_entry: false,
            },
            crate::backward::ops::Node::default(),
            crate::backward::ops::Node {
                ops: later.into_iter().map(located).collect(),
                succs: vec![edge(Cond::True, 1)],
                loop_entry: false,
            },
        ];
        let var = |i: u32, name: &str| crate::backward::ops::VarInfo {
            name: name.into(),
            frame: 0,
            func: symex_ir::cfg::FuncId(0),
            kind: VarKind::Local(symex_ir::cfg::LocalId(i)),
            is_ref: false,
            pointee_tag: None,
            entry_param: (i < 2).then_some(i as usize),
        };
        Graph {
            nodes,
            entry: 0,
            sink: 1,
            vars: vec![var(0, "a"), var(1, "b"), var(2, "%t")],
            inputs: 0,
            field_slots: 1,
            ref_fields: vec![false],
            fixed_inputs: vec![None],
            target_origin: None,
            typing: None,
        }
    }

    const A: Atom = Atom::Var(0);
    const B: Atom = Atom::Var(1);
    const T: VarId = 2;

    fn less(a: Atom, b: Atom) -> Expr {
        Expr::Binary(symex_ir::cfg::BinOp::Lt, a, b)
    }

    /// `%t = a < b`.
    fn define_t() -> Op {
        Op::Assign {
            dst: T,
            value: less(A, B),
        }
    }

    #[test]
    fn a_temporary_read_after_the_node_is_kept() {
        let define = define_t();
        let read_later = Op::Require(Cond::nonzero(Atom::Var(T)));
        let mut graph = branching(vec![define.clone()], T, vec![read_later]);
        fold_temporaries(&mut graph, &Budget::untimed()).expect("no limit");
        assert_eq!(graph.nodes[0].ops[0].op, define);
        assert_eq!(graph.nodes[0].succs[0].cond, Cond::nonzero(Atom::Var(T)));
    }

    #[test]
    fn a_temporary_whose_operand_changes_before_the_test_is_kept() {
        let define = define_t();
        let change_a = Op::Assign {
            dst: 0,
            value: Expr::Use(Atom::Const(5)),
        };
        let mut graph = branching(vec![define.clone(), change_a], T, vec![]);
        fold_temporaries(&mut graph, &Budget::untimed()).expect("no limit");
        assert_eq!(graph.nodes[0].ops.len(), 2);
        assert_eq!(graph.nodes[0].succs[1].cond, Cond::zero(Atom::Var(T)));
    }

    #[test]
    fn a_temporary_only_the_branch_reads_is_folded_into_both_edges() {
        let mut graph = branching(vec![define_t()], T, vec![]);
        fold_temporaries(&mut graph, &Budget::untimed()).expect("no limit");
        assert!(graph.nodes[0].ops.is_empty());
        assert_eq!(graph.nodes[0].succs[0].cond, Cond::NonZero(less(A, B)));
        assert_eq!(graph.nodes[0].succs[1].cond, Cond::Zero(less(A, B)));
    }
}
