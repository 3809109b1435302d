//! The union-find graph of type terms that inference solves on.
//!
//! Nodes are type variables; each class (root) carries a [`Term`] with child nodes, so recursive
//! types are simply cycles. Union by rank and path compression keep unification near-linear.
//! Each class also keeps the [`Origin`] of the construct that first gave it its constructor,
//! which is what type errors point at.
//!
//! A strict [`Store::unify`] is transactional: on a conflict every change it made is undone, so
//! the error can show both types as they were before, and the caller then redoes it with
//! [`Store::unify_lenient`], which merges what agrees and leaves each clashing pair apart (so
//! both sides keep the type they had, and an independent error elsewhere is never hidden by a
//! class that absorbed the mistake). This module reports nothing itself.

use crate::span::Span;

use super::export::{Shape, ShapeSource};

pub(super) type Node = u32;

/// Why a class got its constructor: the construct at [`Origin::span`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Why<'p> {
    NumberLiteral,
    Input,
    /// Operand of the operator with this symbol.
    Operand(&'static str),
    /// Result of the operator with this symbol.
    OperatorResult(&'static str),
    /// Condition of `if`, `while`, `assert` or `assume`.
    Condition(&'static str),
    Output,
    ArrayIndex,
    Null,
    Alloc,
    AddressOf,
    Dereference,
    FieldAccess(&'p str),
    Indexing,
    RecordLiteral,
    ArrayLiteral,
}

impl Why<'_> {
    /// A noun phrase completing "from this …".
    pub(super) fn describe(self) -> String {
        match self {
            Why::NumberLiteral => "number literal".to_string(),
            Why::Input => "`input`".to_string(),
            Why::Operand(op) => format!("operand of `{op}`"),
            Why::OperatorResult(op) => format!("result of `{op}`"),
            Why::Condition(keyword) => format!("condition of `{keyword}`"),
            Why::Output => "`output`".to_string(),
            Why::ArrayIndex => "array index".to_string(),
            Why::Null => "`null`".to_string(),
            Why::Alloc => "`alloc`".to_string(),
            Why::AddressOf => "`&`".to_string(),
            Why::Dereference => "dereference".to_string(),
            Why::FieldAccess(field) => format!("field access `.{field}`"),
            Why::Indexing => "indexing `[…]`".to_string(),
            Why::RecordLiteral => "record literal".to_string(),
            Why::ArrayLiteral => "array literal".to_string(),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Origin<'p> {
    pub(super) span: Span,
    pub(super) why: Why<'p>,
}

/// One field of a record term.
#[derive(Clone, Debug)]
pub(super) struct FieldSlot<'p> {
    pub(super) name: &'p str,
    pub(super) ty: Node,
    /// Where the field was first named (a literal's field name or a `.f` access).
    pub(super) mention: Span,
}

/// A record type. A record literal makes a *closed* record (exactly these fields); a field
/// access makes an *open* one (at least these fields). Unifying two open records unites their
/// fields; an open with a closed one requires the open one's fields to exist in the closed one;
/// two closed ones must have the same fields. This is TIP's typing over the program's global
/// field list, where an absent field has the type ◇ and a field nobody named is a fresh
/// variable, without listing the absent or unnamed fields.
#[derive(Clone, Debug)]
pub(super) struct RecordTerm<'p> {
    /// Sorted by name, each name once.
    pub(super) fields: Vec<FieldSlot<'p>>,
    /// The record literal that closed it, if any.
    pub(super) closed_at: Option<Span>,
}

#[derive(Clone, Debug)]
pub(super) enum Term<'p> {
    /// Not constrained (yet).
    Var,
    Int,
    Pointer(Node),
    Array(Node),
    Record(Box<RecordTerm<'p>>),
}

/// Why a strict unification failed; nodes are the clashing classes.
#[derive(Clone, Debug)]
pub(super) enum Conflict<'p> {
    /// Two different constructors.
    Clash(Node, Node),
    /// A record without `field` (closed) met a record that has it.
    MissingField {
        closed: Node,
        field: &'p str,
        mention: Span,
    },
}

/// One change, recorded during a strict unification so it can be undone.
enum Undo<'p> {
    Parent(Node, Node),
    Rank(Node, u8),
    Class(Node, Term<'p>, Option<Origin<'p>>),
}

#[derive(Default)]
pub(super) struct Store<'p> {
    parent: Vec<Node>,
    rank: Vec<u8>,
    /// Meaningful at roots only.
    term: Vec<Term<'p>>,
    /// Meaningful at roots only; `None` while the class is a variable.
    origin: Vec<Option<Origin<'p>>>,
    undo: Vec<Undo<'p>>,
    recording: bool,
}

impl<'p> Store<'p> {
    pub(super) fn len(&self) -> usize {
        self.parent.len()
    }

    pub(super) fn fresh(&mut self) -> Node {
        self.push(Term::Var, None)
    }

    pub(super) fn constructed(&mut self, term: Term<'p>, span: Span, why: Why<'p>) -> Node {
        self.push(term, Some(Origin { span, why }))
    }

    /// A class with `term` and no origin (a graph rebuilt from a frozen table).
    pub(super) fn add(&mut self, term: Term<'p>) -> Node {
        self.push(term, None)
    }

    fn push(&mut self, term: Term<'p>, origin: Option<Origin<'p>>) -> Node {
        let node = self.parent.len() as Node;
        self.parent.push(node);
        self.rank.push(0);
        self.term.push(term);
        self.origin.push(origin);
        node
    }

    /// The root of `node`'s class, compressing the path.
    pub(super) fn find(&mut self, node: Node) -> Node {
        let root = self.root(node);
        let mut current = node;
        while current != root {
            let next = self.parent[current as usize];
            if next != root {
                self.set_parent(current, root);
            }
            current = next;
        }
        root
    }

    /// The root of `node`'s class, without changing anything.
    pub(super) fn root(&self, node: Node) -> Node {
        let mut current = node;
        loop {
            let parent = self.parent[current as usize];
            if parent == current {
                return current;
            }
            current = parent;
        }
    }

    pub(super) fn term(&self, node: Node) -> &Term<'p> {
        &self.term[self.root(node) as usize]
    }

    pub(super) fn origin(&self, node: Node) -> Option<Origin<'p>> {
        self.origin[self.root(node) as usize]
    }

    fn set_parent(&mut self, node: Node, parent: Node) {
        if self.recording {
            self.undo
                .push(Undo::Parent(node, self.parent[node as usize]));
        }
        self.parent[node as usize] = parent;
    }

    /// Unites two roots; the surviving root gets `term` and `origin`.
    fn link(&mut self, a: Node, b: Node, term: Term<'p>, origin: Option<Origin<'p>>) {
        let (rank_a, rank_b) = (self.rank[a as usize], self.rank[b as usize]);
        let (root, child) = if rank_a >= rank_b { (a, b) } else { (b, a) };
        self.set_parent(child, root);
        if rank_a == rank_b {
            if self.recording {
                self.undo.push(Undo::Rank(root, rank_a));
            }
            self.rank[root as usize] = rank_a.saturating_add(1);
        }
        let old_term = std::mem::replace(&mut self.term[root as usize], term);
        let old_origin = std::mem::replace(&mut self.origin[root as usize], origin);
        if self.recording {
            self.undo.push(Undo::Class(root, old_term, old_origin));
        }
    }

    /// Unifies or changes nothing: on a conflict, every change is undone.
    pub(super) fn unify(&mut self, a: Node, b: Node) -> Result<(), Conflict<'p>> {
        self.transaction(a, b, false)
    }

    /// Whether the two classes unify; changes nothing either way.
    pub(super) fn unifiable(&mut self, a: Node, b: Node) -> bool {
        self.transaction(a, b, true).is_ok()
    }

    /// A strict unification, undone on a conflict and, if `dry_run`, on success too.
    fn transaction(&mut self, a: Node, b: Node, dry_run: bool) -> Result<(), Conflict<'p>> {
        self.recording = true;
        self.undo.clear();
        let result = self.unify_all(a, b, false);
        if result.is_err() || dry_run {
            while let Some(change) = self.undo.pop() {
                match change {
                    Undo::Parent(node, parent) => self.parent[node as usize] = parent,
                    Undo::Rank(node, rank) => self.rank[node as usize] = rank,
                    Undo::Class(node, term, origin) => {
                        self.term[node as usize] = term;
                        self.origin[node as usize] = origin;
                    }
                }
            }
        }
        self.recording = false;
        self.undo.clear();
        result
    }

    /// Unifies what agrees, leaves clashing pairs apart and adds fields missing from closed
    /// records.
    pub(super) fn unify_lenient(&mut self, a: Node, b: Node) {
        // Lenient unification has no failure case.
        let _always_ok = self.unify_all(a, b, true);
    }

    fn unify_all(&mut self, a: Node, b: Node, lenient: bool) -> Result<(), Conflict<'p>> {
        let mut pending = vec![(a, b)];
        while let Some((x, y)) = pending.pop() {
            let (x, y) = (self.find(x), self.find(y));
            if x == y {
                continue;
            }
            let (origin_x, origin_y) = (self.origin[x as usize], self.origin[y as usize]);
            let merged = match (&self.term[x as usize], &self.term[y as usize]) {
                (Term::Var, other) | (other, Term::Var) => other.clone(),
                (Term::Int, Term::Int) => Term::Int,
                (Term::Pointer(p), Term::Pointer(q)) => {
                    pending.push((*p, *q));
                    Term::Pointer(*p)
                }
                (Term::Array(p), Term::Array(q)) => {
                    pending.push((*p, *q));
                    Term::Array(*p)
                }
                (Term::Record(r), Term::Record(s)) => {
                    match merge_records((x, r), (y, s), lenient, &mut pending) {
                        Ok(merged) => Term::Record(Box::new(merged)),
                        Err(conflict) => return Err(conflict),
                    }
                }
                _ if lenient => continue,
                _ => return Err(Conflict::Clash(x, y)),
            };
            // Keep the origin of the construct that gave the class its constructor first.
            let origin = match (origin_x, origin_y) {
                (Some(ox), Some(oy)) => Some(if oy.span.start < ox.span.start {
                    oy
                } else {
                    ox
                }),
                (ox, oy) => ox.or(oy),
            };
            self.link(x, y, merged, origin);
        }
        Ok(())
    }

    /// Roots whose term is a record, in node order.
    pub(super) fn record_roots(&self) -> impl Iterator<Item = (Node, &RecordTerm<'p>)> + '_ {
        (0..self.len() as Node).filter_map(move |node| match &self.term[node as usize] {
            Term::Record(record) if self.parent[node as usize] == node => Some((node, &**record)),
            _ => None,
        })
    }
}

/// The union of two record terms (`x`, `y` are their roots), pushing the pairs of same-named
/// fields to unify; fails if a closed side lacks a field of the other (unless `lenient`).
fn merge_records<'p>(
    (x, r): (Node, &RecordTerm<'p>),
    (y, s): (Node, &RecordTerm<'p>),
    lenient: bool,
    pending: &mut Vec<(Node, Node)>,
) -> Result<RecordTerm<'p>, Conflict<'p>> {
    let missing = |closed: Node, slot: &FieldSlot<'p>| Conflict::MissingField {
        closed,
        field: slot.name,
        mention: slot.mention,
    };
    let mut fields = Vec::with_capacity(r.fields.len().max(s.fields.len()));
    let (mut i, mut j) = (0, 0);
    loop {
        match (r.fields.get(i), s.fields.get(j)) {
            (Some(a), Some(b)) if a.name == b.name => {
                pending.push((a.ty, b.ty));
                let mention = if b.mention.start < a.mention.start {
                    b.mention
                } else {
                    a.mention
                };
                fields.push(FieldSlot {
                    mention,
                    ..a.clone()
                });
                i += 1;
                j += 1;
            }
            // Equal names were taken above, so `a` goes first unless `b` sorts before it.
            (Some(a), next) if !matches!(next, Some(b) if b.name < a.name) => {
                if s.closed_at.is_some() && !lenient {
                    return Err(missing(y, a));
                }
                fields.push(a.clone());
                i += 1;
            }
            (_, Some(b)) => {
                if r.closed_at.is_some() && !lenient {
                    return Err(missing(x, b));
                }
                fields.push(b.clone());
                j += 1;
            }
            _ => break,
        }
    }
    let closed_at = match (r.closed_at, s.closed_at) {
        (Some(a), Some(b)) => Some(if b.start < a.start { b } else { a }),
        (a, b) => a.or(b),
    };
    Ok(RecordTerm { fields, closed_at })
}

impl ShapeSource for Store<'_> {
    fn canonical(&self, id: u32) -> u32 {
        self.root(id)
    }

    fn shape(&self, id: u32) -> Shape {
        match self.term(id) {
            Term::Var => Shape::Unconstrained(self.root(id)),
            Term::Int => Shape::Int,
            Term::Pointer(target) => Shape::Pointer(self.root(*target)),
            Term::Array(element) => Shape::Array(self.root(*element)),
            Term::Record(record) => Shape::Record(
                record
                    .fields
                    .iter()
                    .map(|slot| (slot.name.to_string(), self.root(slot.ty)))
                    .collect(),
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn span(start: usize) -> Span {
        Span::new(start, start + 1)
    }

    fn int(store: &mut Store<'static>, at: usize) -> Node {
        store.constructed(Term::Int, span(at), Why::NumberLiteral)
    }

    fn record(store: &mut Store<'static>, fields: &[(&'static str, Node)], closed: bool) -> Node {
        let fields = fields
            .iter()
            .map(|&(name, ty)| FieldSlot {
                name,
                ty,
                mention: span(0),
            })
            .collect();
        let closed_at = closed.then(|| span(0));
        store.constructed(
            Term::Record(Box::new(RecordTerm { fields, closed_at })),
            span(0),
            Why::RecordLiteral,
        )
    }

    #[test]
    fn variables_take_the_constructor_and_its_origin() {
        let mut store = Store::default();
        let v = store.fresh();
        let i = int(&mut store, 7);
        assert!(store.unify(v, i).is_ok());
        assert!(matches!(store.term(v), Term::Int));
        assert_eq!(store.origin(v).map(|o| o.span), Some(span(7)));
    }

    #[test]
    fn earliest_origin_wins() {
        let mut store = Store::default();
        let late = int(&mut store, 20);
        let early = int(&mut store, 3);
        assert!(store.unify(late, early).is_ok());
        assert_eq!(store.origin(late).map(|o| o.span), Some(span(3)));
    }

    #[test]
    fn a_cycle_unifies_and_terminates() {
        // p = ↑{next: p} and q = ↑{next: ↑{next: q}} are the same infinite type.
        let mut store = Store::default();
        let p = store.fresh();
        let rp = record(&mut store, &[("next", p)], false);
        let pp = store.constructed(Term::Pointer(rp), span(1), Why::Alloc);
        assert!(store.unify(p, pp).is_ok());
        let q = store.fresh();
        let r2 = record(&mut store, &[("next", q)], false);
        let p2 = store.constructed(Term::Pointer(r2), span(1), Why::Alloc);
        let r1 = record(&mut store, &[("next", p2)], false);
        let p1 = store.constructed(Term::Pointer(r1), span(1), Why::Alloc);
        assert!(store.unify(q, p1).is_ok());
        assert!(store.unify(p, q).is_ok());
        assert_eq!(store.find(p), store.find(q));
    }

    #[test]
    fn a_failed_unification_changes_nothing() {
        let mut store = Store::default();
        let a = store.fresh();
        let b = int(&mut store, 1);
        let pa = store.constructed(Term::Pointer(a), span(2), Why::Alloc);
        let pb = store.constructed(Term::Pointer(b), span(3), Why::Alloc);
        let outer_a = store.constructed(Term::Array(pa), span(4), Why::ArrayLiteral);
        let outer_b = store.constructed(Term::Array(pb), span(5), Why::ArrayLiteral);
        let also_int = int(&mut store, 6);
        // [↑α] = [↑int] would succeed, but then α = int vs ↑β clashes first: build that case.
        let beta = store.fresh();
        let pointer_beta = store.constructed(Term::Pointer(beta), span(7), Why::Null);
        assert!(store.unify(a, pointer_beta).is_ok());
        let result = store.unify(outer_a, outer_b);
        assert!(matches!(result, Err(Conflict::Clash(..))));
        // Nothing was merged: the arrays, pointers and the int are still apart.
        assert_ne!(store.find(outer_a), store.find(outer_b));
        assert_ne!(store.find(pa), store.find(pb));
        assert!(matches!(store.term(a), Term::Pointer(_)));
        assert_eq!(store.origin(outer_a).map(|o| o.span), Some(span(4)));
        assert!(store.unify(b, also_int).is_ok());
        // The lenient redo merges the arrays and pointers but leaves the clash apart.
        store.unify_lenient(outer_a, outer_b);
        assert_eq!(store.find(outer_a), store.find(outer_b));
        assert_eq!(store.find(pa), store.find(pb));
        assert_ne!(store.find(a), store.find(b));
        assert!(matches!(store.term(a), Term::Pointer(_)));
        assert!(matches!(store.term(b), Term::Int));
    }

    #[test]
    fn open_and_closed_records() {
        let mut store = Store::default();
        let (v1, v2, v3) = (int(&mut store, 1), int(&mut store, 2), store.fresh());
        let closed = record(&mut store, &[("next", v1), ("val", v2)], true);
        let open = record(&mut store, &[("val", v3)], false);
        assert!(store.unify(open, closed).is_ok());
        assert!(matches!(store.term(v3), Term::Int));
        let unknown_field = store.fresh();
        let other = record(&mut store, &[("nxt", unknown_field)], false);
        match store.unify(other, closed) {
            Err(Conflict::MissingField {
                field, closed: c, ..
            }) => {
                assert_eq!(field, "nxt");
                assert_eq!(store.find(c), store.find(closed));
            }
            other => panic!("expected a missing field, got {other:?}"),
        }
        let (w1, w2) = (store.fresh(), store.fresh());
        let open_a = record(&mut store, &[("a", w1)], false);
        let open_b = record(&mut store, &[("b", w2)], false);
        assert!(store.unify(open_a, open_b).is_ok());
        match store.term(open_a) {
            Term::Record(r) => {
                let names: Vec<&str> = r.fields.iter().map(|f| f.name).collect();
                assert_eq!(names, vec!["a", "b"]);
                assert!(r.closed_at.is_none());
            }
            other => panic!("expected a record, got {other:?}"),
        }
        let closed_other = record(&mut store, &[("a", v1)], true);
        let closed_same = record(&mut store, &[("a", v2), ("b", v3)], true);
        assert!(store.unify(closed_other, closed_same).is_err());
    }
}
