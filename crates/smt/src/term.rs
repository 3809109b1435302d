//! The hash-consed term graph.
//!
//! A [`TermStore`] is an arena of immutable [`Node`]s addressed by [`TermId`]s; a hash index
//! over the arena guarantees that structurally equal terms get the same id (hash-consing), so
//! term equality is id equality and a term is a DAG with maximal sharing. The index stores
//! only ids (4 bytes a slot) and compares candidates against the arena, which keeps it small
//! enough to stay in cache. Free variables live in a
//! side table keyed by [`VarId`]: two variables with the same display name are still distinct.
//!
//! This module owns storage, interning and traversal only. The public constructors (with their
//! sort checks) are in `build.rs`, the rewrite rules in `simplify.rs`. Nothing here recurses
//! on term depth: traversals use explicit stacks, so deep terms cannot overflow the stack.

use std::hash::{Hash, Hasher};
use std::ops::{Deref, DerefMut};
use std::sync::atomic::{AtomicU64, Ordering};

use hashbrown::hash_table::{Entry, HashTable};
use rustc_hash::{FxHashSet, FxHasher};

use crate::bv::BvConst;
use crate::error::TermError;
use crate::sort::{Sort, SortTable};

/// A term: an index into one [`TermStore`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct TermId(u32);

impl TermId {
    /// An id that no store ever hands out (stores stop one short of it).
    pub(crate) const MAX: TermId = TermId(u32::MAX);

    /// The index of the term in its store (terms are numbered in creation order).
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A free variable: an index into the store's variable table.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct VarId(u32);

impl VarId {
    /// The index of the variable in its store (variables are numbered in creation order).
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// The identity of a store, so that solvers can refuse terms from another store.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct StoreId(u64);

static NEXT_STORE_ID: AtomicU64 = AtomicU64::new(1);

/// Operators of applications. Parameterised operators (extract, extensions) and constant arrays
/// have their own [`Node`] variants.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum Op {
    /// Boolean negation.
    Not,
    /// Boolean conjunction.
    And,
    /// Boolean disjunction.
    Or,
    /// Boolean exclusive or.
    Xor,
    /// Boolean implication.
    Implies,
    /// Equality of two terms of the same sort.
    Eq,
    /// If-then-else.
    Ite,
    /// Bitwise not.
    BvNot,
    /// Two's-complement negation.
    BvNeg,
    /// Bitwise and.
    BvAnd,
    /// Bitwise or.
    BvOr,
    /// Bitwise exclusive or.
    BvXor,
    /// Wrap-around addition.
    BvAdd,
    /// Wrap-around subtraction.
    BvSub,
    /// Wrap-around multiplication.
    BvMul,
    /// Unsigned division.
    BvUdiv,
    /// Signed division (truncating).
    BvSdiv,
    /// Unsigned remainder.
    BvUrem,
    /// Signed remainder (sign of the dividend).
    BvSrem,
    /// Shift left.
    BvShl,
    /// Logical shift right.
    BvLshr,
    /// Arithmetic shift right.
    BvAshr,
    /// Unsigned less-than.
    BvUlt,
    /// Unsigned less-or-equal.
    BvUle,
    /// Signed less-than.
    BvSlt,
    /// Signed less-or-equal.
    BvSle,
    /// Concatenation (first argument supplies the high bits).
    Concat,
    /// Array read.
    Select,
    /// Array write.
    Store,
    /// Integer negation.
    IntNeg,
    /// Integer addition.
    IntAdd,
    /// Integer subtraction.
    IntSub,
    /// Integer multiplication.
    IntMul,
    /// Integer (Euclidean) division.
    IntDiv,
    /// Integer (Euclidean) remainder.
    IntMod,
    /// Integer less-or-equal.
    IntLe,
    /// Integer less-than.
    IntLt,
}

impl Op {
    /// The SMT-LIB2 name of the operator.
    pub fn smtlib_name(self) -> &'static str {
        match self {
            Op::Not => "not",
            Op::And => "and",
            Op::Or => "or",
            Op::Xor => "xor",
            Op::Implies => "=>",
            Op::Eq => "=",
            Op::Ite => "ite",
            Op::BvNot => "bvnot",
            Op::BvNeg => "bvneg",
            Op::BvAnd => "bvand",
            Op::BvOr => "bvor",
            Op::BvXor => "bvxor",
            Op::BvAdd => "bvadd",
            Op::BvSub => "bvsub",
            Op::BvMul => "bvmul",
            Op::BvUdiv => "bvudiv",
            Op::BvSdiv => "bvsdiv",
            Op::BvUrem => "bvurem",
            Op::BvSrem => "bvsrem",
            Op::BvShl => "bvshl",
            Op::BvLshr => "bvlshr",
            Op::BvAshr => "bvashr",
            Op::BvUlt => "bvult",
            Op::BvUle => "bvule",
            Op::BvSlt => "bvslt",
            Op::BvSle => "bvsle",
            Op::Concat => "concat",
            Op::Select => "select",
            Op::Store => "store",
            Op::IntNeg | Op::IntSub => "-",
            Op::IntAdd => "+",
            Op::IntMul => "*",
            Op::IntDiv => "div",
            Op::IntMod => "mod",
            Op::IntLe => "<=",
            Op::IntLt => "<",
        }
    }

    /// Whether the arguments of a binary application may be swapped.
    pub fn is_commutative(self) -> bool {
        matches!(
            self,
            Op::And
                | Op::Or
                | Op::Xor
                | Op::Eq
                | Op::BvAnd
                | Op::BvOr
                | Op::BvXor
                | Op::BvAdd
                | Op::BvMul
                | Op::IntAdd
                | Op::IntMul
        )
    }
}

/// One node of the term graph.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Node {
    /// A Boolean constant.
    Bool(bool),
    /// A bit-vector constant.
    Bv(BvConst),
    /// An integer constant.
    Int(i128),
    /// A free variable.
    Var(VarId),
    /// The array of the given (array) sort whose every element is `value`.
    ConstArray {
        /// The array sort.
        sort: Sort,
        /// The element.
        value: TermId,
    },
    /// A unary application.
    App1(Op, TermId),
    /// A binary application.
    App2(Op, TermId, TermId),
    /// A ternary application (`ite`, `store`).
    App3(Op, TermId, TermId, TermId),
    /// `((_ extract hi lo) arg)`.
    Extract {
        /// High bit (inclusive).
        hi: u32,
        /// Low bit (inclusive).
        lo: u32,
        /// The argument.
        arg: TermId,
    },
    /// `((_ zero_extend by) arg)`.
    ZeroExtend {
        /// Number of bits added.
        by: u32,
        /// The argument.
        arg: TermId,
    },
    /// `((_ sign_extend by) arg)`.
    SignExtend {
        /// Number of bits added.
        by: u32,
        /// The argument.
        arg: TermId,
    },
}

/// The children of a node (at most three), usable as a slice.
#[derive(Clone, Copy, Debug)]
pub struct Args {
    ids: [TermId; 3],
    len: u8,
}

impl Deref for Args {
    type Target = [TermId];
    fn deref(&self) -> &[TermId] {
        &self.ids[..usize::from(self.len)]
    }
}

impl DerefMut for Args {
    fn deref_mut(&mut self) -> &mut [TermId] {
        &mut self.ids[..usize::from(self.len)]
    }
}

impl Node {
    /// The children of this node, in order.
    pub fn args(&self) -> Args {
        let z = TermId(0);
        let (ids, len) = match *self {
            Node::Bool(_) | Node::Bv(_) | Node::Int(_) | Node::Var(_) => ([z, z, z], 0),
            Node::ConstArray { value, .. } => ([value, z, z], 1),
            Node::App1(_, a)
            | Node::Extract { arg: a, .. }
            | Node::ZeroExtend { arg: a, .. }
            | Node::SignExtend { arg: a, .. } => ([a, z, z], 1),
            Node::App2(_, a, b) => ([a, b, z], 2),
            Node::App3(_, a, b, c) => ([a, b, c], 3),
        };
        Args { ids, len }
    }

    /// The same node with its children replaced (in order) by `new`.
    pub(crate) fn with_args(&self, new: &[TermId]) -> Node {
        let at = |i: usize| new.get(i).copied().unwrap_or(TermId(0));
        match *self {
            Node::Bool(_) | Node::Bv(_) | Node::Int(_) | Node::Var(_) => *self,
            Node::ConstArray { sort, .. } => Node::ConstArray { sort, value: at(0) },
            Node::App1(op, _) => Node::App1(op, at(0)),
            Node::App2(op, _, _) => Node::App2(op, at(0), at(1)),
            Node::App3(op, _, _, _) => Node::App3(op, at(0), at(1), at(2)),
            Node::Extract { hi, lo, .. } => Node::Extract { hi, lo, arg: at(0) },
            Node::ZeroExtend { by, .. } => Node::ZeroExtend { by, arg: at(0) },
            Node::SignExtend { by, .. } => Node::SignExtend { by, arg: at(0) },
        }
    }

    /// Whether the node is a constant (Boolean, bit-vector or integer).
    pub fn is_const(&self) -> bool {
        matches!(self, Node::Bool(_) | Node::Bv(_) | Node::Int(_))
    }
}

fn hash_node(node: &Node) -> u64 {
    let mut h = FxHasher::default();
    node.hash(&mut h);
    h.finish()
}

/// What the store knows about a variable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VarInfo {
    /// The display name (any characters; not necessarily unique).
    pub name: String,
    /// The sort.
    pub sort: Sort,
    /// The term that stands for the variable.
    pub term: TermId,
}

/// The arena of hash-consed terms. See the module documentation.
#[derive(Debug)]
pub struct TermStore {
    id: StoreId,
    nodes: Vec<Node>,
    sorts: Vec<Sort>,
    index: HashTable<TermId>,
    vars: Vec<VarInfo>,
    sort_table: SortTable,
    pub(crate) simplify: bool,
}

impl Default for TermStore {
    fn default() -> Self {
        Self::new()
    }
}

impl TermStore {
    /// An empty store whose constructors simplify (constant folding and local rewrites).
    pub fn new() -> Self {
        TermStore {
            id: StoreId(NEXT_STORE_ID.fetch_add(1, Ordering::Relaxed)),
            nodes: Vec::new(),
            sorts: Vec::new(),
            index: HashTable::new(),
            vars: Vec::new(),
            sort_table: SortTable::default(),
            simplify: true,
        }
    }

    /// An empty store whose constructors only check sorts and hash-cons, without rewriting.
    pub fn without_simplification() -> Self {
        TermStore {
            simplify: false,
            ..Self::new()
        }
    }

    /// Whether the constructors of this store simplify.
    pub fn simplifies(&self) -> bool {
        self.simplify
    }

    /// The identity of this store.
    pub fn id(&self) -> StoreId {
        self.id
    }

    /// The number of distinct terms.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the store has no terms.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Whether `t` is a term of this store (by range; ids from another store may alias).
    pub fn contains(&self, t: TermId) -> bool {
        t.index() < self.nodes.len()
    }

    /// The sort of `t`, or an error if `t` is not a term of this store.
    pub fn check_term(&self, t: TermId) -> Result<Sort, TermError> {
        self.sorts
            .get(t.index())
            .copied()
            .ok_or_else(|| TermError::Unknown(format!("term #{}", t.0)))
    }

    /// The node of `t`.
    ///
    /// # Panics
    /// If `t` was not made by this store (like indexing a slice out of bounds); use
    /// [`TermStore::check_term`] first for identifiers of unknown origin.
    pub fn node(&self, t: TermId) -> &Node {
        &self.nodes[t.index()]
    }

    /// The sort of `t`.
    ///
    /// # Panics
    /// If `t` was not made by this store (see [`TermStore::node`]).
    pub fn sort(&self, t: TermId) -> Sort {
        self.sorts[t.index()]
    }

    /// The table of array sorts.
    pub fn sorts(&self) -> &SortTable {
        &self.sort_table
    }

    /// The array sort from `index` to `element`.
    pub fn array_sort(&mut self, index: Sort, element: Sort) -> Result<Sort, TermError> {
        self.sort_table.array(index, element)
    }

    /// The index and element sorts of an array sort.
    pub fn array_parts(&self, sort: Sort) -> Option<(Sort, Sort)> {
        self.sort_table.array_parts(sort)
    }

    /// The SMT-LIB2 text of a sort.
    pub fn sort_name(&self, sort: Sort) -> String {
        self.sort_table.to_smtlib(sort)
    }

    /// A fresh variable of the given sort. Every call makes a new variable, even with a name
    /// used before; the name is for display (and SMT-LIB dumps) only.
    pub fn var(&mut self, name: impl Into<String>, sort: Sort) -> Result<TermId, TermError> {
        self.sort_table.check(sort)?;
        let id = VarId(
            u32::try_from(self.vars.len())
                .map_err(|_| TermError::Unknown("variable (the table is full)".into()))?,
        );
        let term = self.intern(Node::Var(id), sort)?;
        self.vars.push(VarInfo {
            name: name.into(),
            sort,
            term,
        });
        Ok(term)
    }

    /// The variable table entry of `v`.
    ///
    /// # Panics
    /// If `v` was not made by this store.
    pub fn var_info(&self, v: VarId) -> &VarInfo {
        &self.vars[v.index()]
    }

    /// The variable that `t` is, if it is one.
    pub fn var_id(&self, t: TermId) -> Option<VarId> {
        match self.nodes.get(t.index()) {
            Some(Node::Var(v)) => Some(*v),
            _ => None,
        }
    }

    /// The number of variables made so far.
    pub fn num_vars(&self) -> usize {
        self.vars.len()
    }

    /// The value of `t` if it is a Boolean constant.
    pub fn as_bool(&self, t: TermId) -> Option<bool> {
        match self.nodes.get(t.index()) {
            Some(Node::Bool(b)) => Some(*b),
            _ => None,
        }
    }

    /// The value of `t` if it is a bit-vector constant.
    pub fn as_bv(&self, t: TermId) -> Option<BvConst> {
        match self.nodes.get(t.index()) {
            Some(Node::Bv(c)) => Some(*c),
            _ => None,
        }
    }

    /// The value of `t` if it is an integer constant.
    pub fn as_int(&self, t: TermId) -> Option<i128> {
        match self.nodes.get(t.index()) {
            Some(Node::Int(i)) => Some(*i),
            _ => None,
        }
    }

    /// The id of `node`, adding it if it is new. The caller guarantees that `sort` is the
    /// sort of `node` and that the node's children belong to this store.
    pub(crate) fn intern(&mut self, node: Node, sort: Sort) -> Result<TermId, TermError> {
        let hash = hash_node(&node);
        let nodes = &self.nodes;
        let entry = self.index.entry(
            hash,
            |id| nodes[id.index()] == node,
            |id| hash_node(&nodes[id.index()]),
        );
        match entry {
            Entry::Occupied(e) => Ok(*e.get()),
            Entry::Vacant(e) => {
                let id = u32::try_from(self.nodes.len())
                    .ok()
                    .filter(|&i| i < u32::MAX)
                    .map(TermId)
                    .ok_or_else(|| TermError::Unknown("term (the store is full)".into()))?;
                e.insert(id);
                self.nodes.push(node);
                self.sorts.push(sort);
                Ok(id)
            }
        }
    }

    /// Whether `t` multiplies, divides or takes the remainder of two non-constant
    /// bit-vectors (Z3 bit-blasts each into a circuit of its own).
    pub fn is_nonlinear(&self, t: TermId) -> bool {
        match *self.node(t) {
            Node::App2(op, a, b) => {
                matches!(
                    op,
                    Op::BvMul | Op::BvUdiv | Op::BvSdiv | Op::BvUrem | Op::BvSrem
                ) && !self.node(a).is_const()
                    && !self.node(b).is_const()
            }
            _ => false,
        }
    }

    /// Whether the terms below `roots` hold more than `limit` distinct nonlinear terms
    /// ([`TermStore::is_nonlinear`]); stops looking once they do.
    pub fn more_nonlinear_than(&self, roots: &[TermId], limit: usize) -> bool {
        let mut seen = FxHashSet::default();
        let mut stack: Vec<TermId> = roots.to_vec();
        let mut count = 0;
        while let Some(t) = stack.pop() {
            if !seen.insert(t) {
                continue;
            }
            if self.is_nonlinear(t) {
                count += 1;
                if count > limit {
                    return true;
                }
            }
            stack.extend(self.node(t).args().iter().copied());
        }
        false
    }

    /// Every term reachable from `roots`, each once, children before parents.
    pub fn postorder(&self, roots: &[TermId]) -> Vec<TermId> {
        self.postorder_where(roots, |_| true)
    }

    /// Like [`TermStore::postorder`], but only through terms for which `enter` is true: the
    /// others are neither listed nor looked into (used to translate only what is new).
    pub fn postorder_where(
        &self,
        roots: &[TermId],
        mut enter: impl FnMut(TermId) -> bool,
    ) -> Vec<TermId> {
        let mut out = Vec::new();
        let mut seen: FxHashSet<TermId> = FxHashSet::default();
        // (term, children already pushed?)
        let mut stack: Vec<(TermId, bool)> = roots.iter().rev().map(|&t| (t, false)).collect();
        while let Some((t, expanded)) = stack.pop() {
            if expanded {
                out.push(t);
                continue;
            }
            if !seen.insert(t) || !enter(t) {
                continue;
            }
            stack.push((t, true));
            for &c in self.node(t).args().iter().rev() {
                if !seen.contains(&c) {
                    stack.push((c, false));
                }
            }
        }
        out
    }

    /// The variables occurring in `roots`, sorted and without repetition.
    pub fn vars_of(&self, roots: &[TermId]) -> Vec<VarId> {
        let mut vars: Vec<VarId> = self
            .postorder(roots)
            .into_iter()
            .filter_map(|t| self.var_id(t))
            .collect();
        vars.sort_unstable();
        vars
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn structurally_equal_terms_share_an_id() {
        let mut s = TermStore::without_simplification();
        let x = s.var("x", Sort::BitVec(32)).expect("var");
        let one = s.bv_val(32, 1).expect("const");
        let a = s.bv_add(x, one).expect("add");
        let b = s.bv_add(x, one).expect("add");
        assert_eq!(a, b);
        let n = s.len();
        let _ = s.bv_add(x, one).expect("add");
        assert_eq!(s.len(), n, "a cache hit adds no node");
    }

    #[test]
    fn variables_with_the_same_name_are_distinct() {
        let mut s = TermStore::new();
        let a = s.var("x@line 7", Sort::Bool).expect("var");
        let b = s.var("x@line 7", Sort::Bool).expect("var");
        assert_ne!(a, b);
        let (va, vb) = (s.var_id(a).expect("var"), s.var_id(b).expect("var"));
        assert_eq!(s.var_info(va).name, s.var_info(vb).name);
        assert_eq!(s.var_info(va).term, a);
    }

    #[test]
    fn nonlinear_terms_are_counted_once_each() {
        let mut s = TermStore::without_simplification();
        let x = s.var("x", Sort::BitVec(32)).expect("var");
        let y = s.var("y", Sort::BitVec(32)).expect("var");
        let two = s.bv_val(32, 2).expect("const");
        let by_constant = s.bv_mul(x, two).expect("mul");
        assert!(!s.is_nonlinear(by_constant));
        let product = s.bv_mul(x, y).expect("mul");
        let quotient = s.bv_udiv(product, y).expect("div");
        assert!(s.is_nonlinear(product) && s.is_nonlinear(quotient));
        // `product` is shared: two distinct nonlinear terms, not three.
        let sum = s.bv_add(quotient, product).expect("add");
        assert!(s.more_nonlinear_than(&[sum, by_constant], 1));
        assert!(!s.more_nonlinear_than(&[sum, by_constant], 2));
    }

    #[test]
    fn postorder_visits_children_first_once() {
        let mut s = TermStore::without_simplification();
        let x = s.var("x", Sort::Int).expect("var");
        let y = s.var("y", Sort::Int).expect("var");
        let a = s.int_add(x, y).expect("add");
        let b = s.int_mul(a, a).expect("mul");
        let order = s.postorder(&[b, a]);
        assert_eq!(order.len(), 4);
        let pos = |t| order.iter().position(|&u| u == t).expect("present");
        assert!(pos(x) < pos(a) && pos(y) < pos(a) && pos(a) < pos(b));
        assert_eq!(s.vars_of(&[b]).len(), 2);
    }

    #[test]
    fn deep_terms_do_not_overflow_the_stack() {
        let mut s = TermStore::without_simplification();
        let x = s.var("x", Sort::BitVec(8)).expect("var");
        let mut t = x;
        for _ in 0..200_000 {
            t = s.bv_not(t).expect("not");
        }
        assert_eq!(s.postorder(&[t]).len(), 200_001);
    }

    #[test]
    fn foreign_ids_are_reported() {
        let s = TermStore::new();
        assert!(s.check_term(TermId(5)).is_err());
        assert!(!s.contains(TermId(0)));
    }
}
