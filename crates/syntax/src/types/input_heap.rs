//! The types an analysis gives the input heap of an entry function: every pair of input cell
//! types that may be one object merged into one type.
//!
//! Inference types a record by the fields the program names, and a field access makes an *open*
//! record ("at least these fields"). Two pointers whose record types never meet in the program
//! may still point to one object of an input heap: with `q = p->next`, `p` is `↑{next: ↑R, val}`
//! and `R = {val}` is open, so `p->next == p` is a well-typed input. Likewise a cell holding `↑α`
//! and one holding `↑{val}` may be one cell. The heap engines let two input references alias only
//! when their pointee types are equal, so they need the types of such references made equal
//! first. [`TypeTable::input_heap_view`] unifies every pair of cell types reachable from the
//! entry's parameters that unify in the program's own graph (exactly the pairs some well-typed
//! input heap makes one object), and refuses when merging one pair spoils another (`A` may be a
//! `B` or a `C`, but no object is both): one type per input object cannot describe that heap.
//!
//! A pointer to a type variable `α` is left free (the engines let it alias anything), which is
//! sound only while no construct reads or writes an `α` cell's content: then the program sees
//! nothing of the cell but its address, which only meets other `↑α` pointers and null. So the
//! merge may bind `α` (a cell type unified with another): that picks one type for cells whose
//! type nobody observes. An entry that does touch such content (`t = *p` with `p : ↑α`, there is
//! an expression of type `α`) is refused: that cell may be a record another pointer writes. This
//! module changes no table in place and reports nothing itself.

use std::borrow::Cow;
use std::collections::HashSet;
use std::fmt;

use crate::span::Span;

use super::export::{export, Shape};
use super::store::{FieldSlot, RecordTerm, Store, Term};
use super::{display_pair, TypeTable};

/// Why an entry's input heap cannot be given one type per object.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnsupportedInputHeap {
    /// The parameter through which the offending type is reached.
    pub parameter: String,
    /// Starts with "not supported: ".
    pub reason: String,
}

impl fmt::Display for UnsupportedInputHeap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.reason)
    }
}

impl TypeTable {
    /// This table with the cell types reachable from `function`'s parameters merged wherever two
    /// of them may be one input object (the table itself when nothing merges).
    pub fn input_heap_view(
        &self,
        function: &str,
    ) -> Result<Cow<'_, TypeTable>, UnsupportedInputHeap> {
        let Some(types) = self.function_types(function) else {
            return Ok(Cow::Borrowed(self));
        };
        let pointees = self.reachable_pointees(&types.params);
        let mut cells = Vec::with_capacity(pointees.len());
        for &(class, root) in &pointees {
            match self.shapes.get(class as usize) {
                Some(Shape::Unconstrained(_)) if self.has_values_of(class) => {
                    return Err(UnsupportedInputHeap {
                        parameter: self.param_name(function, root),
                        reason: format!(
                            "not supported: it reads or writes the content of input cells whose \
                             type nothing constrains (`{}`); such a cell may be any other input \
                             cell, which symex cannot model",
                            export(self, class)
                        ),
                    });
                }
                Some(Shape::Unconstrained(_) | Shape::Unknown) | None => {}
                Some(_) => cells.push((class, root)),
            }
        }
        if cells.len() < 2 {
            return Ok(Cow::Borrowed(self));
        }
        let mut merged = self.graph();
        let mut pristine = self.graph();
        let mut changed = false;
        for (i, &(first, root)) in cells.iter().enumerate() {
            for &(second, _) in &cells[i + 1..] {
                if merged.find(first) == merged.find(second) {
                    continue;
                }
                if merged.unify(first, second).is_ok() {
                    changed = true;
                } else if pristine.unifiable(first, second) {
                    let (first, second) = display_pair(&export(self, first), &export(self, second));
                    return Err(UnsupportedInputHeap {
                        parameter: self.param_name(function, root),
                        reason: format!(
                            "not supported: an object of its input heap of type `{first}` may be \
                             one of type `{second}`, or one of a type that never is; symex gives \
                             each input object one type, which cannot describe both"
                        ),
                    });
                }
            }
        }
        Ok(if changed {
            Cow::Owned(self.refreeze(&merged))
        } else {
            Cow::Borrowed(self)
        })
    }

    /// The classes pointers reachable from the parameter classes `params` point to (through
    /// pointers, array elements and fields), in breadth-first order, each with the index of the
    /// first parameter reaching it.
    fn reachable_pointees(&self, params: &[u32]) -> Vec<(u32, usize)> {
        let mut seen = HashSet::new();
        let mut pointees = Vec::new();
        let mut queue: std::collections::VecDeque<(u32, usize)> =
            params.iter().enumerate().map(|(i, &c)| (c, i)).collect();
        while let Some((class, root)) = queue.pop_front() {
            if !seen.insert(class) {
                continue;
            }
            match self.shapes.get(class as usize) {
                Some(Shape::Pointer(child)) => {
                    if !pointees.iter().any(|&(c, _)| c == *child) {
                        pointees.push((*child, root));
                    }
                    queue.push_back((*child, root));
                }
                Some(Shape::Array(child)) => queue.push_back((*child, root)),
                Some(Shape::Record(fields)) => {
                    queue.extend(fields.iter().map(|&(_, child)| (child, root)));
                }
                _ => {}
            }
        }
        pointees
    }

    /// Whether some expression, variable, parameter or result has the type `class` itself.
    fn has_values_of(&self, class: u32) -> bool {
        self.expr_classes.contains(&Some(class))
            || self.functions.iter().any(|function| {
                function.result == class
                    || function.params.contains(&class)
                    || function.locals.iter().any(|&(_, c)| c == class)
            })
    }

    /// The table's classes as a fresh graph, node `i` being class `i`.
    fn graph(&self) -> Store<'_> {
        let mut store = Store::default();
        for (class, shape) in self.shapes.iter().enumerate() {
            let term = match shape {
                Shape::Unconstrained(_) | Shape::Unknown => Term::Var,
                Shape::Int => Term::Int,
                Shape::Pointer(target) => Term::Pointer(*target),
                Shape::Array(element) => Term::Array(*element),
                Shape::Record(fields) => Term::Record(Box::new(RecordTerm {
                    fields: fields
                        .iter()
                        .map(|(name, ty)| FieldSlot {
                            name: name.as_str(),
                            ty: *ty,
                            mention: Span::default(),
                        })
                        .collect(),
                    closed_at: self.closed[class].then(Span::default),
                })),
            };
            store.add(term);
        }
        store
    }

    fn param_name(&self, function: &str, index: usize) -> String {
        self.function_types(function)
            .and_then(|types| types.locals.get(index))
            .map(|(name, _)| name.clone())
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use crate::types::Type;

    fn table(source: &str) -> crate::types::TypeTable {
        let front = crate::analyze(source).expect("valid program");
        front.types.expect("well typed")
    }

    fn view_type(source: &str, function: &str, local: &str) -> Type {
        let table = table(source);
        let view = table
            .input_heap_view(function)
            .expect("one type per object");
        view.local_type(function, local).expect("a local")
    }

    #[test]
    fn a_field_read_may_lead_back_to_its_own_object() {
        let source = "g(p) { var q; q = p->next; q->val = 1; return 0; } main() { return 0; }";
        assert_eq!(
            table(source).local_type("g", "q").unwrap().to_string(),
            "↑{val: int}"
        );
        let p = view_type(source, "g", "p");
        let q = view_type(source, "g", "q");
        assert!(p.equivalent(&q), "{p} and {q}");
        assert_eq!(p.to_string(), "↑μα.{next: ↑α, val: int}");
    }

    #[test]
    fn two_parameters_of_unifiable_types_get_one_type() {
        let source =
            "h(p, q) { p->val = 1; q->val = 2; return q->next->val; } main() { return 0; }";
        let p = view_type(source, "h", "p");
        let q = view_type(source, "h", "q");
        assert!(p.equivalent(&q), "{p} and {q}");
    }

    #[test]
    fn types_that_cannot_be_one_object_stay_apart() {
        let source = "h(p, q) { p->val = 1; q->val = null; return 0; } main() { return 0; }";
        let table = table(source);
        let view = table.input_heap_view("h").unwrap();
        assert!(matches!(view, std::borrow::Cow::Borrowed(_)));
        let (p, q) = (
            view.local_type("h", "p").unwrap(),
            view.local_type("h", "q").unwrap(),
        );
        assert!(!p.equivalent(&q));
    }

    #[test]
    fn closed_records_keep_their_fields() {
        // `q`'s records are closed `{val, next}`; `p`'s open `{data}` cannot be one of them.
        let source = "h(p, q) { p->data = 1; q->val = 2; return 0; } \
                      main() { var n; n = alloc {val: 0, next: null}; return h(null, n); }";
        let table = table(source);
        let view = table.input_heap_view("h").unwrap();
        assert!(matches!(view, std::borrow::Cow::Borrowed(_)));
    }

    #[test]
    fn an_object_that_may_be_of_two_incompatible_types_is_refused() {
        // `p`'s record may be `a`'s ({x: int}) or `b`'s ({x: pointer}), not both.
        let source = "h(p) { var s, t; s = p->a; t = p->b; s->x = 1; t->x = null; return 0; } \
                      main() { return 0; }";
        let err = table(source).input_heap_view("h").unwrap_err();
        assert_eq!(err.parameter, "p");
        assert!(err.to_string().starts_with("not supported: "), "{err}");
        // One naming for both types: the `α` of the second is the first's.
        assert!(
            err.to_string()
                .contains("`{a: ↑{x: int}, b: ↑{x: ↑α}}` may be one of type `{x: ↑α}`"),
            "{err}"
        );
    }

    #[test]
    fn pointer_cells_of_unifiable_types_get_one_type() {
        let source = "f(pp, qq) { var r; *qq = alloc {val: 1}; *pp = null; r = *qq; \
                      r->val = 2; return 0; } main() { return 0; }";
        let pp = view_type(source, "f", "pp");
        let qq = view_type(source, "f", "qq");
        assert!(pp.equivalent(&qq), "{pp} and {qq}");
    }

    #[test]
    fn the_content_of_unconstrained_cells_is_refused() {
        // `t = *p` reads a cell whose type nothing constrains; `q`'s record may be that cell.
        let source = "h(p, q) { var t; t = *p; q->val = 7; *p = t; return 0; } \
                      main() { return 0; }";
        let err = table(source).input_heap_view("h").unwrap_err();
        assert_eq!(err.parameter, "p");
        assert!(err.reason.contains("nothing constrains"), "{err}");
        // Compared with null only, such a pointer is fine.
        let source = "h(p, q) { if (p == null) { q->val = 7; } return 0; } main() { return 0; }";
        assert!(table(source).input_heap_view("h").is_ok());
    }

    #[test]
    fn an_entry_without_records_is_unchanged() {
        let source = "f(n) { return n + 1; } main() { return f(2); }";
        let table = table(source);
        assert!(matches!(
            table.input_heap_view("f").unwrap(),
            std::borrow::Cow::Borrowed(_)
        ));
    }
}
