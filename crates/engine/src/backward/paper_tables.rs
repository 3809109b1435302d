//! The paper's worked example (P §4.3): AddSmaller's CFG of Fig. 6(b), one operation per node as
//! the paper draws it, and the condition at every node under disjunct propagation (Table 1) and
//! conjunct combination (Table 2), compared with the tables as sets of disjuncts of sets of
//! atoms, written in the paper's notation.
//!
//! Modulo naming: `rv > rnv` is written `rnv < rv` (the term store builds `>` as a flipped `<`);
//! an edge tests a variable (`lt` for `v < tv`, `gt` for `rv > rnv`) that the node assigns, so
//! the paper's edge comparisons appear as these variables' definitions; conjunct combination
//! versions every variable (`rn^0`) and, where branches disagree, merges into a fresh version
//! equated in each branch (the digest's pitfall 9) instead of reusing one branch's symbol.
//! The digest's list of typos in P §4.3 (Table 2's "field read" at writes) is not copied.

use std::collections::BTreeSet;

use symex_ir::cfg::{BinOp, FuncId, LocalId};
use symex_smt::{
    Model, Node, Op as TermOp, SatResult, Solver, SolverError, SolverStats, TermId, TermStore,
};
use symex_syntax::span::Span;

use crate::backward::conj;
use crate::backward::disj::{self, Symbols};
use crate::backward::driver::search_variant;
use crate::backward::encode::{SearchOutcome, SearchStats};
use crate::backward::heap::ArrayHeap;
use crate::backward::ops::{
    Atom, Cond, Edge, Expr, Graph, Located, Node as GraphNode, Op, VarId, VarInfo, VarKind,
};
use crate::backward::options::BseVariant;
use crate::common::budget::Budget;
use crate::common::options::SolverChoice;
use crate::common::solver::solver_backend;
use crate::error::EngineError;

const VAL: u32 = 0;
const NEXT: u32 = 1;
const VARS: [&str; 11] = [
    "this", "v", "n", "tv", "tn", "r", "rv", "rn", "rnv", "lt", "gt",
];

fn var(name: &str) -> VarId {
    VARS.iter()
        .position(|v| *v == name)
        .expect("a variable of Fig. 6") as VarId
}

fn at(name: &str) -> Atom {
    Atom::Var(var(name))
}

/// Fig. 6(b): node k is the paper's n_k; n13 is the sink (the assertion fails), n14 returns.
fn add_smaller() -> Graph {
    let ops: Vec<Vec<Op>> = vec![
        vec![],
        vec![Op::Alloc {
            dst: var("n"),
            site: 1,
        }],
        vec![Op::Store {
            base: at("n"),
            field: VAL,
            value: at("v"),
        }],
        vec![
            Op::Load {
                dst: var("tv"),
                base: at("this"),
                field: VAL,
            },
            Op::Assign {
                dst: var("lt"),
                value: Expr::Binary(BinOp::Lt, at("v"), at("tv")),
            },
        ],
        vec![Op::Store {
            base: at("n"),
            field: NEXT,
            value: at("this"),
        }],
        vec![Op::Assign {
            dst: var("r"),
            value: Expr::Use(at("n")),
        }],
        vec![Op::Load {
            dst: var("tn"),
            base: at("this"),
            field: NEXT,
        }],
        vec![Op::Store {
            base: at("n"),
            field: NEXT,
            value: at("tn"),
        }],
        vec![Op::Store {
            base: at("this"),
            field: NEXT,
            value: at("n"),
        }],
        vec![Op::Assign {
            dst: var("r"),
            value: Expr::Use(at("this")),
        }],
        vec![Op::Load {
            dst: var("rv"),
            base: at("r"),
            field: VAL,
        }],
        vec![Op::Load {
            dst: var("rn"),
            base: at("r"),
            field: NEXT,
        }],
        vec![
            Op::Load {
                dst: var("rnv"),
                base: at("rn"),
                field: VAL,
            },
            Op::Assign {
                dst: var("gt"),
                value: Expr::Binary(BinOp::Gt, at("rv"), at("rnv")),
            },
        ],
        vec![],
        vec![],
    ];
    let edges: Vec<Vec<(Cond, u32)>> = vec![
        vec![(Cond::True, 1)],
        vec![(Cond::True, 2)],
        vec![(Cond::True, 3)],
        vec![(Cond::nonzero(at("lt")), 4), (Cond::zero(at("lt")), 6)],
        vec![(Cond::True, 5)],
        vec![(Cond::True, 10)],
        vec![(Cond::True, 7)],
        vec![(Cond::True, 8)],
        vec![(Cond::True, 9)],
        vec![(Cond::True, 10)],
        vec![(Cond::True, 11)],
        vec![(Cond::True, 12)],
        vec![(Cond::nonzero(at("gt")), 13), (Cond::zero(at("gt")), 14)],
        vec![],
        vec![],
    ];
    let located = |op| Located {
        op,
        func: FuncId(0),
        span: Span::new(0, 0),
    };
    let nodes = ops
        .into_iter()
        .zip(edges)
        .map(|(ops, succs)| GraphNode {
            ops: ops.into_iter().map(located).collect(),
            succs: succs
                .into_iter()
                .map(|(cond, to)| Edge {
                    cond,
                    to,
                    branch: None,
                    call: None,
                })
                .collect(),
            loop_entry: false,
        })
        .collect();
    let refs = ["this", "n", "tn", "r", "rn"];
    let vars = VARS
        .iter()
        .enumerate()
        .map(|(i, name)| VarInfo {
            name: name.to_string(),
            frame: 0,
            func: FuncId(0),
            kind: VarKind::Local(LocalId(i as u32)),
            is_ref: refs.contains(name),
            pointee_tag: None,
            entry_param: match *name {
                "this" => Some(0),
                "v" => Some(1),
                _ => None,
            },
        })
        .collect();
    Graph {
        nodes,
        entry: 0,
        sink: 13,
        vars,
        inputs: 0,
        field_slots: 3,
        ref_fields: vec![false, true, false],
        fixed_inputs: vec![None; 3],
        target_origin: None,
        typing: None,
    }
}

/// A fresh Z3 solver, for the entry check after intermediate ones.
fn fresh_z3() -> Result<Box<dyn Solver>, EngineError> {
    Ok(solver_backend(&SolverChoice::Z3)?)
}

fn heap() -> ArrayHeap {
    ArrayHeap::new(
        vec!["val".into(), "next".into(), "cell".into()],
        vec![false, true, false],
    )
}

/// A term in the paper's notation (conjunctions and disjunctions are flattened by the callers).
fn show(store: &TermStore, t: TermId) -> String {
    let s = |t| show(store, t);
    match store.node(t) {
        Node::Var(v) => store.var_info(*v).name.clone(),
        Node::Bv(c) => (c.bits() as u32 as i32).to_string(),
        Node::Bool(b) => b.to_string(),
        Node::App1(TermOp::Not, x) => match store.node(*x) {
            Node::App2(TermOp::Eq, a, b) => match (
                truth_value(store, *a, *b).or(truth_value(store, *b, *a)),
                store.as_bv(*a),
            ) {
                // `ite(c, 1, 0) ≠ 0`: our encoding of a comparison used as a condition.
                (Some(c), _) => s(c),
                (None, Some(_)) => format!("{} ≠ {}", s(*b), s(*a)),
                (None, None) => format!("{} ≠ {}", s(*a), s(*b)),
            },
            _ => negated(store, *x),
        },
        Node::App2(TermOp::Eq, a, b) => match (
            truth_value(store, *a, *b).or(truth_value(store, *b, *a)),
            store.as_bv(*a),
        ) {
            (Some(c), _) => negated(store, c),
            (None, Some(_)) => format!("{} = {}", s(*b), s(*a)),
            (None, None) => format!("{} = {}", s(*a), s(*b)),
        },
        Node::App2(TermOp::BvSlt, a, b) => format!("{} < {}", s(*a), s(*b)),
        Node::App2(TermOp::BvSle, a, b) => format!("{} ≤ {}", s(*a), s(*b)),
        Node::App2(TermOp::Select, a, i) => format!("read({}, {})", s(*a), s(*i)),
        Node::App2(TermOp::Implies, a, b) => format!("{} ⟹ {}", s(*a), s(*b)),
        Node::App3(TermOp::Store, a, i, v) => format!("write({}, {}, {})", s(*a), s(*i), s(*v)),
        Node::App3(TermOp::Ite, c, _, _) => format!("[{}]", s(*c)),
        other => format!("{other:?}"),
    }
}

/// `¬c` in the paper's notation.
fn negated(store: &TermStore, c: TermId) -> String {
    match store.node(c) {
        Node::App2(TermOp::BvSlt, a, b) => format!("{} ≥ {}", show(store, *a), show(store, *b)),
        Node::App2(TermOp::BvSle, a, b) => format!("{} > {}", show(store, *a), show(store, *b)),
        _ => format!("¬({})", show(store, c)),
    }
}

/// `c` when `a = b` is `ite(c, 1, 0) = 0` (a truth value compared with zero).
fn truth_value(store: &TermStore, a: TermId, b: TermId) -> Option<TermId> {
    let zero = store.as_bv(b).is_some_and(|z| z.is_zero());
    match store.node(a) {
        Node::App3(TermOp::Ite, c, one, other)
            if zero
                && store.as_bv(*one).is_some_and(|o| o.bits() == 1)
                && store.as_bv(*other).is_some_and(|z| z.is_zero()) =>
        {
            Some(*c)
        }
        _ => None,
    }
}

/// The operands of nested applications of `op` (an `and` or `or` tree).
fn flatten(store: &TermStore, t: TermId, op: TermOp, out: &mut Vec<TermId>) {
    match store.node(t) {
        Node::App2(o, a, b) if *o == op => {
            flatten(store, *a, op, out);
            flatten(store, *b, op, out);
        }
        _ => out.push(t),
    }
}

type Conjunction = BTreeSet<String>;

fn conjunction(store: &TermStore, t: TermId) -> Conjunction {
    let mut atoms = Vec::new();
    flatten(store, t, TermOp::And, &mut atoms);
    atoms
        .into_iter()
        .filter(|&a| store.as_bool(a) != Some(true))
        .map(|a| show(store, a))
        .collect()
}

/// The disjunctive normal form of the disjunction of `items`, as sets (`disj-z3` and `disj-comb`
/// keep conjunctions of disjunctions where `disj-set` keeps the disjuncts apart).
fn dnf(store: &TermStore, items: &[TermId]) -> BTreeSet<Conjunction> {
    items.iter().flat_map(|&t| term_dnf(store, t)).collect()
}

fn term_dnf(store: &TermStore, t: TermId) -> BTreeSet<Conjunction> {
    match store.node(t) {
        Node::App2(TermOp::Or, a, b) => {
            let mut out = term_dnf(store, *a);
            out.extend(term_dnf(store, *b));
            out
        }
        Node::App2(TermOp::And, a, b) => {
            let (left, right) = (term_dnf(store, *a), term_dnf(store, *b));
            let mut out = BTreeSet::new();
            for l in &left {
                for r in &right {
                    out.insert(l.union(r).cloned().collect());
                }
            }
            out
        }
        _ if store.as_bool(t) == Some(true) => BTreeSet::from([Conjunction::new()]),
        _ if store.as_bool(t) == Some(false) => BTreeSet::new(),
        _ => BTreeSet::from([BTreeSet::from([show(store, t)])]),
    }
}

/// Table 1's rows; disjunct propagation calls the current field arrays `val^0` and `next^0`.
fn expected(rows: &[&[&str]]) -> BTreeSet<Conjunction> {
    let versioned = |a: &str| a.replace("(val,", "(val^0,").replace("(next,", "(next^0,");
    rows.iter()
        .map(|atoms| atoms.iter().map(|a| versioned(a)).collect())
        .collect()
}

/// P Table 1, in our notation (rows n0..n12; n13 is `true`).
fn table_1() -> Vec<(u32, BTreeSet<Conjunction>)> {
    let w = "write(val, n, v)";
    let w1 = "write(val, 1, v)";
    vec![
        (12, expected(&[&["read(val, rn) < rv", "rn ≠ 0"]])),
        (
            11,
            expected(&[&[
                "read(val, read(next, r)) < rv",
                "read(next, r) ≠ 0",
                "read(next_in, r) ≤ 0",
                "r ≠ 0",
            ]]),
        ),
        (
            10,
            expected(&[&[
                "read(val, read(next, r)) < read(val, r)",
                "read(next, r) ≠ 0",
                "read(next_in, r) ≤ 0",
                "r ≠ 0",
            ]]),
        ),
        (
            9,
            expected(&[&[
                "read(val, read(next, this)) < read(val, this)",
                "read(next, this) ≠ 0",
                "read(next_in, this) ≤ 0",
                "this ≠ 0",
            ]]),
        ),
        (
            8,
            expected(&[&[
                "read(val, n) < read(val, this)",
                "n ≠ 0",
                "read(next_in, this) ≤ 0",
                "this ≠ 0",
            ]]),
        ),
        (
            5,
            expected(&[&[
                "read(val, read(next, n)) < read(val, n)",
                "read(next, n) ≠ 0",
                "read(next_in, n) ≤ 0",
                "n ≠ 0",
            ]]),
        ),
        (
            4,
            expected(&[&[
                "read(val, this) < read(val, n)",
                "this ≠ 0",
                "read(next_in, n) ≤ 0",
                "n ≠ 0",
            ]]),
        ),
        (
            3,
            expected(&[
                &[
                    "v ≥ read(val, this)",
                    "read(val, n) < read(val, this)",
                    "n ≠ 0",
                    "read(next_in, this) ≤ 0",
                    "this ≠ 0",
                ],
                &[
                    "v < read(val, this)",
                    "read(val, this) < read(val, n)",
                    "this ≠ 0",
                    "read(next_in, n) ≤ 0",
                    "n ≠ 0",
                ],
            ]),
        ),
        (
            2,
            expected(&[
                &[
                    &format!("v ≥ read({w}, this)"),
                    &format!("v < read({w}, this)"),
                    "n ≠ 0",
                    "read(next_in, this) ≤ 0",
                    "this ≠ 0",
                ],
                &[
                    &format!("v < read({w}, this)"),
                    &format!("read({w}, this) < v"),
                    "this ≠ 0",
                    "read(next_in, n) ≤ 0",
                    "n ≠ 0",
                ],
            ]),
        ),
        (
            1,
            expected(&[
                &[
                    &format!("v ≥ read({w1}, this)"),
                    &format!("v < read({w1}, this)"),
                    "read(next_in, this) ≤ 0",
                    "this ≠ 0",
                ],
                &[
                    &format!("v < read({w1}, this)"),
                    &format!("read({w1}, this) < v"),
                    "this ≠ 0",
                    "read(next_in, 1) ≤ 0",
                ],
            ]),
        ),
    ]
}

#[test]
fn disjunct_propagation_reproduces_table_1() {
    let graph = add_smaller();
    let mut rows = table_1();
    // n7 and n6 leave n8's condition unchanged (`next` no longer occurs), n0 leaves n1's.
    let n8 = rows.iter().find(|r| r.0 == 8).map(|r| r.1.clone()).unwrap();
    let n1 = rows.iter().find(|r| r.0 == 1).map(|r| r.1.clone()).unwrap();
    rows.extend([(7, n8.clone()), (6, n8), (0, n1)]);
    for variant in [
        BseVariant::DisjSet,
        BseVariant::DisjZ3,
        BseVariant::DisjComb,
    ] {
        let mut store = TermStore::new();
        let mut heap = heap();
        let mut symbols = Symbols::new(&graph);
        let mut stats = SearchStats::default();
        let states = disj::node_conditions(
            &graph,
            variant,
            &mut store,
            &mut heap,
            &mut symbols,
            &Budget::untimed(),
            &mut stats,
        )
        .unwrap()
        .unwrap_or_else(|_| panic!("{variant}: the search ended early"));
        for (node, want) in &rows {
            let items = states[*node as usize].as_ref().expect("a live node");
            assert_eq!(&dnf(&store, items), want, "{variant}, node n{node}");
        }
        assert_eq!(
            states[13].as_deref(),
            Some(&[store.bool_val(true).unwrap()][..])
        );
        // n14 does not lead to the target.
        assert!(states[14].is_none());
    }
}

/// Keeps what conjunct combination asserts, so that each node's `c_n ⟹ ψ_n` can be read back.
struct Recorder {
    inner: Box<dyn Solver>,
    asserted: Vec<TermId>,
}

impl Solver for Recorder {
    fn name(&self) -> String {
        self.inner.name()
    }
    fn push(&mut self) -> Result<(), SolverError> {
        self.inner.push()
    }
    fn pop(&mut self) -> Result<(), SolverError> {
        self.inner.pop()
    }
    fn level(&self) -> usize {
        self.inner.level()
    }
    fn assert(&mut self, store: &TermStore, term: TermId) -> Result<(), SolverError> {
        self.asserted.push(term);
        self.inner.assert(store, term)
    }
    fn check(
        &mut self,
        store: &TermStore,
        assumptions: &[TermId],
    ) -> Result<SatResult, SolverError> {
        self.inner.check(store, assumptions)
    }
    fn model(&mut self, store: &TermStore, vars: &[TermId]) -> Result<Model, SolverError> {
        self.inner.model(store, vars)
    }
    fn set_timeout(&mut self, timeout: Option<std::time::Duration>) {
        self.inner.set_timeout(timeout)
    }
    fn timeout(&self) -> Option<std::time::Duration> {
        self.inner.timeout()
    }
    fn stats(&self) -> &SolverStats {
        self.inner.stats()
    }

    fn work(&mut self) -> Option<u64> {
        self.inner.work()
    }
}

/// `ψ_n` of every node: the right side of the asserted `c_n ⟹ ψ_n`, by n.
fn conj_conditions(store: &TermStore, asserted: &[TermId]) -> Vec<(u32, TermId)> {
    asserted
        .iter()
        .filter_map(|&t| match store.node(t) {
            Node::App2(TermOp::Implies, c, body) => match store.node(*c) {
                Node::Var(v) => {
                    let name = &store.var_info(*v).name;
                    name.strip_prefix('c')?.parse().ok().map(|n| (n, *body))
                }
                _ => None,
            },
            _ => None,
        })
        .collect()
}

/// P Table 2 in our notation: per node, the conjuncts of `ψ_n` (the disjunction of a merge is
/// one conjunct, shown as `{...} ∨ {...}` with each side's conjuncts sorted).
fn table_2() -> Vec<(u32, Vec<&'static str>)> {
    vec![
        (
            12,
            vec![
                "c13",
                "gt^0 ≠ 0",
                "gt^0 = [rnv^0 < rv^0]",
                "rnv^0 = read(val^0, rn^0)",
                "rn^0 ≠ 0",
            ],
        ),
        (
            11,
            vec![
                "c12",
                "rn^0 = read(next^0, r^0)",
                "r^0 ≠ 0",
                "read(next_in, r^0) ≤ 0",
            ],
        ),
        (10, vec!["c11", "rv^0 = read(val^0, r^0)", "r^0 ≠ 0"]),
        // η9 = η10[r → undef, this → r]: a copy only renames.
        (9, vec!["c10"]),
        (8, vec!["c9", "next^0 = write(next^1, r^0, n^0)", "r^0 ≠ 0"]),
        (
            7,
            vec!["c8", "next^1 = write(next^2, n^0, tn^0)", "n^0 ≠ 0"],
        ),
        (
            6,
            vec![
                "c7",
                "tn^0 = read(next^2, r^0)",
                "r^0 ≠ 0",
                "read(next_in, r^0) ≤ 0",
            ],
        ),
        // η5 = η10[r → undef, n → r].
        (5, vec!["c10"]),
        (
            4,
            vec!["c5", "next^0 = write(next^1, r^0, this^0)", "r^0 ≠ 0"],
        ),
        // MergeHeaps joins next^1 = next^2 in the then-branch. The environments disagree on `n`
        // (then r^0, else n^0) and `this` (then this^0, else r^0): each gets a fresh version
        // equated in each branch (the paper's `r = n` and `r = this`, without reusing one
        // branch's symbol). Both edges test the node's one `lt`, as the paper's `v < tv` and
        // `v ≥ tv` test one comparison.
        (
            3,
            vec![
                "{c4, lt^0 ≠ 0, next^1 = next^2, r^0 = n^1, this^0 = this^1} ∨ \
                 {c6, lt^0 = 0, n^0 = n^1, r^0 = this^1}",
                "lt^0 = [v^0 < tv^0]",
                "tv^0 = read(val^0, this^1)",
                "this^1 ≠ 0",
            ],
        ),
        (2, vec!["c3", "val^0 = write(val^1, n^1, v^0)", "n^1 ≠ 0"]),
        (1, vec!["c2", "n^1 = 1"]),
        (0, vec!["c1"]),
    ]
}

fn conjuncts(store: &TermStore, t: TermId) -> BTreeSet<String> {
    let mut atoms = Vec::new();
    flatten(store, t, TermOp::And, &mut atoms);
    atoms
        .into_iter()
        .filter(|&a| store.as_bool(a) != Some(true))
        .map(|a| {
            let mut sides = Vec::new();
            flatten(store, a, TermOp::Or, &mut sides);
            if sides.len() == 1 {
                return show(store, a);
            }
            let shown: BTreeSet<String> = sides
                .iter()
                .map(|&s| {
                    let c: Vec<String> = conjunction(store, s).into_iter().collect();
                    format!("{{{}}}", c.join(", "))
                })
                .collect();
            shown.into_iter().collect::<Vec<_>>().join(" ∨ ")
        })
        .collect()
}

#[test]
fn conjunct_combination_reproduces_table_2() {
    let graph = add_smaller();
    for variant in [
        BseVariant::ConjNever,
        BseVariant::ConjAlways,
        BseVariant::ConjLoops,
    ] {
        let mut store = TermStore::new();
        let mut heap = heap();
        let mut solver = Recorder {
            inner: solver_backend(&SolverChoice::Z3).unwrap(),
            asserted: Vec::new(),
        };
        let (outcome, _) = conj::search(
            &graph,
            variant,
            &mut store,
            &mut heap,
            &mut solver,
            &fresh_z3,
            &Budget::untimed(),
        )
        .unwrap();
        // The assertion holds: UNSAT at n0 (P §4.3).
        assert!(matches!(outcome, SearchOutcome::Unreachable), "{variant}");
        let conditions = conj_conditions(&store, &solver.asserted);
        for (node, want) in table_2() {
            let Some((_, body)) = conditions.iter().find(|(n, _)| *n == node) else {
                // conj-always solves at every node and prunes n2 already (UNSAT there), so
                // n1 and n0 get no condition; the other variants reach n0.
                assert!(
                    variant == BseVariant::ConjAlways && node < 2,
                    "{variant}: no ψ for n{node}"
                );
                continue;
            };
            let want: BTreeSet<String> = want.iter().map(|s| s.to_string()).collect();
            assert_eq!(conjuncts(&store, *body), want, "{variant}, node n{node}");
        }
    }
}

#[test]
fn both_families_prove_the_assertion() {
    let graph = add_smaller();
    for variant in BseVariant::ALL {
        let mut store = TermStore::new();
        let mut heap = heap();
        let mut solver = solver_backend(&SolverChoice::Z3).unwrap();
        let (outcome, _) = search_variant(
            &graph,
            variant,
            &mut store,
            &mut heap,
            &mut *solver,
            &fresh_z3,
            &Budget::untimed(),
        )
        .unwrap();
        assert!(matches!(outcome, SearchOutcome::Unreachable), "{variant}");
    }
}
