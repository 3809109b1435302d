//! Reading a class of a (possibly cyclic) type graph out as a finite [`Type`] tree.
//!
//! The walk follows the graph depth-first; reaching a class that is still being expanded closes
//! a cycle, which becomes a μ binder at that class (`μα.↑{next: α, val: int}`). Binders are
//! numbered in the order the walk needs them, so one graph class always reads out the same way.
//! The tree is cut (as [`Type::Unknown`]) beyond [`MAX_TYPE_DEPTH`] levels or [`MAX_TYPE_NODES`]
//! nodes, which only adversarial programs reach: it keeps every later recursive walk over a
//! `Type` shallow and a shared sub-graph from expanding exponentially.

use std::collections::HashMap;

use super::Type;

/// Deepest nesting of an exported type; below it, [`Type::Unknown`].
pub const MAX_TYPE_DEPTH: usize = 200;
/// Most constructor nodes in one exported type; beyond it, [`Type::Unknown`].
pub const MAX_TYPE_NODES: usize = 4096;

/// The constructor of one class, with children as class ids.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Shape {
    /// A type variable with this number.
    Unconstrained(u32),
    /// Not available (an id outside the graph).
    Unknown,
    Int,
    Pointer(u32),
    Array(u32),
    /// Fields sorted by name.
    Record(Vec<(String, u32)>),
}

/// A type graph: the solver's union-find, or the frozen graph of a [`super::TypeTable`].
pub(super) trait ShapeSource {
    /// The representative of `id`'s class (cycle detection compares these).
    fn canonical(&self, id: u32) -> u32;
    /// The constructor of `id`'s class; children are canonical.
    fn shape(&self, id: u32) -> Shape;
}

pub(super) fn export(source: &dyn ShapeSource, id: u32) -> Type {
    let mut exporter = Exporter {
        source,
        expanding: HashMap::new(),
        next_binder: 0,
        nodes: 0,
    };
    exporter.class(source.canonical(id), 0)
}

struct Exporter<'a> {
    source: &'a dyn ShapeSource,
    /// Classes on the current path, with the binder given to them once a cycle reaches them.
    expanding: HashMap<u32, Option<u32>>,
    next_binder: u32,
    nodes: usize,
}

impl Exporter<'_> {
    fn class(&mut self, id: u32, depth: usize) -> Type {
        if let Some(binder) = self.expanding.get_mut(&id) {
            let binder = match *binder {
                Some(existing) => existing,
                None => {
                    let fresh = self.next_binder;
                    *binder = Some(fresh);
                    self.next_binder += 1;
                    fresh
                }
            };
            return Type::RecVar(binder);
        }
        if depth >= MAX_TYPE_DEPTH || self.nodes >= MAX_TYPE_NODES {
            return Type::Unknown;
        }
        self.nodes += 1;
        let shape = self.source.shape(id);
        self.expanding.insert(id, None);
        let ty = match shape {
            Shape::Unconstrained(var) => Type::Var(var),
            Shape::Unknown => Type::Unknown,
            Shape::Int => Type::Int,
            Shape::Pointer(target) => Type::Pointer(Box::new(self.class(target, depth + 1))),
            Shape::Array(element) => Type::Array(Box::new(self.class(element, depth + 1))),
            Shape::Record(fields) => Type::Record(
                fields
                    .into_iter()
                    .map(|(name, field)| (name, self.class(field, depth + 1)))
                    .collect(),
            ),
        };
        match self.expanding.remove(&id) {
            Some(Some(binder)) => Type::Recursive(binder, Box::new(ty)),
            _ => ty,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A graph given as a list of shapes indexed by class id.
    struct Graph(Vec<Shape>);

    impl ShapeSource for Graph {
        fn canonical(&self, id: u32) -> u32 {
            id
        }
        fn shape(&self, id: u32) -> Shape {
            self.0.get(id as usize).cloned().unwrap_or(Shape::Unknown)
        }
    }

    #[test]
    fn a_linked_list_gets_one_binder() {
        // 0 = ↑1, 1 = {next: 0, val: 2}, 2 = int
        let graph = Graph(vec![
            Shape::Pointer(1),
            Shape::Record(vec![("next".into(), 0), ("val".into(), 2)]),
            Shape::Int,
        ]);
        let list = export(&graph, 0);
        assert_eq!(list.to_string(), "μα.↑{next: α, val: int}");
        assert_eq!(export(&graph, 1).to_string(), "μα.{next: ↑α, val: int}");
    }

    #[test]
    fn a_tree_and_nested_cycles() {
        // 0 = ↑1, 1 = {left: 0, right: 0, up: 3}, 3 = ↑4, 4 = {down: 0, me: 3}
        let graph = Graph(vec![
            Shape::Pointer(1),
            Shape::Record(vec![
                ("left".into(), 0),
                ("right".into(), 0),
                ("up".into(), 2),
            ]),
            Shape::Pointer(3),
            Shape::Record(vec![("down".into(), 0), ("me".into(), 2)]),
        ]);
        assert_eq!(
            export(&graph, 0).to_string(),
            "μα.↑{left: α, right: α, up: μβ.↑{down: α, me: β}}"
        );
    }

    #[test]
    fn sharing_without_a_cycle_is_expanded() {
        let graph = Graph(vec![
            Shape::Record(vec![("a".into(), 1), ("b".into(), 1)]),
            Shape::Pointer(2),
            Shape::Unconstrained(7),
        ]);
        assert_eq!(export(&graph, 0).to_string(), "{a: ↑α, b: ↑α}");
    }

    #[test]
    fn deep_and_wide_types_are_cut() {
        // A chain of pointers deeper than the limit.
        let mut chain: Vec<Shape> = (1..=1000).map(Shape::Pointer).collect();
        chain.push(Shape::Int);
        let deep = export(&Graph(chain), 0);
        let text = deep.to_string();
        assert!(text.ends_with('?'), "{text}");
        assert_eq!(text.chars().filter(|&c| c == '↑').count(), MAX_TYPE_DEPTH);
        // A shared sub-graph that would expand to 2^40 nodes.
        let mut dag: Vec<Shape> = (0..40)
            .map(|i| Shape::Record(vec![("a".into(), 2 * i + 1), ("b".into(), 2 * i + 1)]))
            .flat_map(|record| [record, Shape::Unknown])
            .collect();
        for i in 0..40 {
            dag[2 * i + 1] = Shape::Pointer(2 * i as u32 + 2);
        }
        dag.push(Shape::Int);
        let wide = export(&Graph(dag), 0);
        assert!(wide.to_string().len() < 200_000);
    }
}
