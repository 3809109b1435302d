//! The backward engine's program form: an acyclic graph of nodes holding the paper's atomic
//! operations (P §3.1), with conditions on the edges and one sink that stands for "the target
//! failed".
//!
//! Every micro-c value (number, null, pointer) is one 32-bit word here: null is 0, a cell made by
//! `alloc` is a positive number, a cell of the input heap is negative (P §4.1). A variable is a
//! local of one inlined activation ([`VarInfo`]). Plain data: `graph` builds it, `disj` and
//! `conj` read it backwards, `walk` runs it forwards.

use symex_ir::cfg::{BinOp, FuncId, LocalId, UnOp};
use symex_syntax::span::Span;

use crate::backward::typing::CellTyping;

/// A program variable of the unwound graph.
pub type VarId = u32;
/// A node of the unwound graph.
pub type NodeId = u32;
/// A field slot: `FieldId(i)` of the module is slot `i`; [`Graph::cell_slot`] is the content of
/// a cell that holds a plain value (`alloc 5`, `*p`).
pub type FieldSlot = u32;

/// What a variable stands for in its activation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VarKind {
    /// A parameter, `var` or temporary of the function.
    Local(LocalId),
    /// Whether a `var` local has been assigned (1) or not (0): the `uninit` checks read it.
    Init(LocalId),
    /// One field of a record value held by a temporary until `alloc` puts it in a cell.
    RecordField(LocalId, u32),
}

#[derive(Clone, Debug)]
pub struct VarInfo {
    /// For display: `name` or `name@frame` for inlined activations.
    pub name: String,
    /// The activation (0 is the entry function's).
    pub frame: u32,
    pub func: FuncId,
    pub kind: VarKind,
    /// Known to hold a pointer (from the inferred types): input-heap assumptions apply to it.
    pub is_ref: bool,
    /// For a pointer whose cells are typed (`typing`): the tag of the cells it points to, so an
    /// input reference it holds is of that tag.
    pub pointee_tag: Option<u32>,
    /// A parameter of the entry function: an input of the check.
    pub entry_param: Option<usize>,
}

impl VarInfo {
    /// A temporary of the lowering (`%k`): its value is never shown in a trace.
    pub fn is_temporary(&self) -> bool {
        matches!(self.kind, VarKind::Local(_)) && self.name.starts_with('%')
    }
}

/// A value an operation reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Atom {
    /// A number; null is `Const(0)`.
    Const(i32),
    Var(VarId),
}

/// The right-hand side of a scalar assignment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Expr {
    Use(Atom),
    Unary(UnOp, Atom),
    Binary(BinOp, Atom, Atom),
}

/// An edge condition or a required fact: a value tested against zero. The graph builder tests
/// variables; `simplify` folds the expressions of temporaries into the tests that read them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cond {
    True,
    NonZero(Expr),
    Zero(Expr),
}

impl Cond {
    /// `a != 0`.
    pub fn nonzero(a: Atom) -> Cond {
        Cond::NonZero(Expr::Use(a))
    }

    /// `a == 0`.
    pub fn zero(a: Atom) -> Cond {
        Cond::Zero(Expr::Use(a))
    }
}

/// One atomic operation of P §3.1 (with `input` and passing checks added).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Op {
    /// `dst = value` (scalar or reference assignment, reference comparison included).
    Assign { dst: VarId, value: Expr },
    /// `dst = input`: the value of input symbol `symbol` (one per node, so one per path step).
    Input { dst: VarId, symbol: u32 },
    /// `dst = base.field` (reference or scalar read).
    Load {
        dst: VarId,
        base: Atom,
        field: FieldSlot,
    },
    /// `base.field = value`.
    Store {
        base: Atom,
        field: FieldSlot,
        value: Atom,
    },
    /// `dst = new`: the cell numbered `site` (unique in the graph, positive).
    Alloc { dst: VarId, site: u32 },
    /// A check that passes or an `assume`: the run continues only if the condition holds.
    Require(Cond),
    /// An instruction this engine does not model (arrays, `&x`, record values in variables).
    Unsupported(String),
}

/// An operation and the source construct it comes from.
#[derive(Clone, Debug)]
pub struct Located {
    pub op: Op,
    pub func: FuncId,
    pub span: Span,
}

/// How the program goes from one node to the next.
#[derive(Clone, Debug)]
pub struct Edge {
    pub cond: Cond,
    pub to: NodeId,
    /// The branch this edge decides, for traces: its function, span and the condition's value.
    pub branch: Option<(FuncId, Span, bool)>,
    /// This edge enters an inlined call (for traces).
    pub call: Option<CallSite>,
}

/// An inlined call entered by an edge: where it is, the callee, and the callee's parameter
/// variables (assigned the arguments by the operations before the edge), in order.
#[derive(Clone, Debug)]
pub struct CallSite {
    pub caller: FuncId,
    pub span: Span,
    pub callee: FuncId,
    pub params: Vec<VarId>,
}

#[derive(Clone, Debug, Default)]
pub struct Node {
    /// Executed in order before leaving the node.
    pub ops: Vec<Located>,
    pub succs: Vec<Edge>,
    /// The node enters a loop from outside (the copy of its header for the first iteration):
    /// `conj-loops` solves here, at the paper's "entry nodes of loops".
    pub loop_entry: bool,
}

/// The unwound program for one target.
#[derive(Clone, Debug)]
pub struct Graph {
    pub nodes: Vec<Node>,
    pub entry: NodeId,
    /// Reached exactly when the target fails; it has no operations and no successors.
    pub sink: NodeId,
    pub vars: Vec<VarInfo>,
    /// Number of input symbols (`Op::Input::symbol` is below it).
    pub inputs: u32,
    /// Number of field slots, the cell slot included.
    pub field_slots: u32,
    /// Slots known to hold pointers: reads of them get the closed-input-heap constraint.
    pub ref_fields: Vec<bool>,
    /// Per slot, the one value a front end's bookkeeping field has in every input cell
    /// (`symex_ir::cfg::input_bookkeeping`); `None` for fields whose values are inputs.
    pub fixed_inputs: Vec<Option<i32>>,
    /// The target's origin, for the trace's last step.
    pub target_origin: Option<(FuncId, Span)>,
    /// The tags of input cells, when the entry reaches more than one kind of cell.
    pub typing: Option<CellTyping>,
}

impl Graph {
    /// The slot of a cell's plain content.
    pub fn cell_slot(&self) -> FieldSlot {
        self.field_slots - 1
    }

    /// The pseudo-slot of the input cells' tags among a model's input arrays (after the content).
    pub fn tag_slot(&self) -> FieldSlot {
        self.field_slots
    }

    /// The nodes in an order where every edge goes forward (the graph is acyclic by
    /// construction).
    pub fn topological_order(&self) -> Vec<NodeId> {
        let mut indegree = vec![0u32; self.nodes.len()];
        for node in &self.nodes {
            for edge in &node.succs {
                indegree[edge.to as usize] += 1;
            }
        }
        let mut ready: Vec<NodeId> = (0..self.nodes.len() as NodeId)
            .filter(|&n| indegree[n as usize] == 0)
            .collect();
        ready.reverse();
        let mut order = Vec::with_capacity(self.nodes.len());
        while let Some(n) = ready.pop() {
            order.push(n);
            for edge in self.nodes[n as usize].succs.iter().rev() {
                let d = &mut indegree[edge.to as usize];
                *d -= 1;
                if *d == 0 {
                    ready.push(edge.to);
                }
            }
        }
        order
    }

    /// The nodes on the entry's one path among the nodes that reach the sink (`relevant`, from
    /// [`Graph::reaches_sink`]): the entry, then, while the last node has exactly one relevant
    /// successor, that successor; the node where the path branches is the last one on it.
    /// Nothing but these lies between such a node and the entry, so a check there can prune
    /// nothing that the entry's check would not.
    pub fn entry_path(&self, relevant: &[bool]) -> Vec<bool> {
        let mut on_path = vec![false; self.nodes.len()];
        let mut n = self.entry;
        while relevant[n as usize] && !on_path[n as usize] {
            on_path[n as usize] = true;
            let mut next = self.nodes[n as usize]
                .succs
                .iter()
                .map(|edge| edge.to)
                .filter(|&to| relevant[to as usize]);
            match (next.next(), next.next()) {
                (Some(only), None) => n = only,
                _ => break,
            }
        }
        on_path
    }

    /// Which nodes have a path to the sink (the only ones the backward search visits).
    pub fn reaches_sink(&self) -> Vec<bool> {
        let mut preds: Vec<Vec<NodeId>> = vec![Vec::new(); self.nodes.len()];
        for (n, node) in self.nodes.iter().enumerate() {
            for edge in &node.succs {
                preds[edge.to as usize].push(n as NodeId);
            }
        }
        let mut seen = vec![false; self.nodes.len()];
        let mut stack = vec![self.sink];
        seen[self.sink as usize] = true;
        while let Some(n) = stack.pop() {
            for &p in &preds[n as usize] {
                if !seen[p as usize] {
                    seen[p as usize] = true;
                    stack.push(p);
                }
            }
        }
        seen
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A graph of bare nodes with the edges `edges`, entered at node 0, failing at `sink`.
    fn graph(nodes: usize, edges: &[(NodeId, NodeId)], sink: NodeId) -> Graph {
        let mut g = Graph {
            nodes: vec![Node::default(); nodes],
            entry: 0,
            sink,
            vars: Vec::new(),
            inputs: 0,
            field_slots: 1,
            ref_fields: vec![false],
            fixed_inputs: vec![None],
            target_origin: None,
            typing: None,
        };
        for &(from, to) in edges {
            g.nodes[from as usize].succs.push(Edge {
                cond: Cond::True,
                to,
                branch: None,
                call: None,
            });
        }
        g
    }

    #[test]
    fn the_entry_path_ends_where_it_branches_towards_the_sink() {
        // 0 → 1 → 2 ⇉ {3, 4} → 5 (sink); 1 → 6 does not reach the sink.
        let g = graph(
            7,
            &[(0, 1), (1, 2), (1, 6), (2, 3), (2, 4), (3, 5), (4, 5)],
            5,
        );
        let path = g.entry_path(&g.reaches_sink());
        assert_eq!(path, [true, true, true, false, false, false, false]);
    }

    #[test]
    fn a_straight_graph_is_all_entry_path() {
        let g = graph(3, &[(0, 1), (1, 2)], 2);
        assert_eq!(g.entry_path(&g.reaches_sink()), [true, true, true]);
    }
}
