//! Type inference for micro-c: unification over recursive types, as TIP's type analysis
//! (Møller & Schwartzbach, *Static Program Analysis*, ch. 3), and the [`TypeTable`] that later
//! layers query ("is this parameter an int or a pointer", "the fields of the record behind this
//! pointer").
//!
//! Types are `int`, pointers `↑τ`, records `{f: τ, …}`, arrays `[τ]` and (for functions only)
//! `(τ1, …, τn) -> τ`. Inference gives every expression and local a node in a union-find graph
//! (`store`), walks the program once (`infer`) and unifies as each construct demands, on the
//! cyclic graph, so linked lists and trees get recursive types; reading a type out (`export`)
//! closes cycles with μ binders: `μα.↑{next: α, val: int}`.
//!
//! **Records.** TIP types records over the program's global field list, an absent field having
//! the type ◇. We use the equivalent, more readable form: a record literal gives a *closed*
//! record (exactly its fields), a field access `e.f` an *open* one (at least `f`); an open record
//! acquires the fields of what it meets, and a closed record never gains a field. So `{val, next}`
//! nodes form one recursive type, records of different shapes stay apart, and using a field a
//! record lacks is an error where TIP would only fail once ◇ meets another type. Only the fields
//! that some construct names are listed. A record held in a record field is rejected ("records do
//! not nest"); records may be array elements and pointer targets.
//!
//! **Functions** are monomorphic (as in TIP) and never values (resolution rejects that);
//! `main`'s result is not constrained beyond its `return`.
//!
//! **Errors** show both conflicting types as they were before the failed unification, the
//! construct that demanded it (primary label) and the constructs that gave each side its
//! constructor (secondary labels); inference then goes on, merging what agrees and leaving the
//! clashing pair apart, so each side keeps the type it first had: independent errors are all
//! reported (in source order, deduplicated), and a later use that contradicts a variable's first
//! type is reported where it happens.
//! Types are static: the concrete interpreter may still run an ill-typed program (a field that
//! holds an int and later a pointer), but [`infer`] rejects it.
//!
//! This module must not report name errors (that is [`crate::resolve`]'s job: unknown names get
//! fresh type variables here) and never panics; it is near-linear in the program size.

mod export;
mod infer;
mod input_heap;
mod store;

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::fmt;

use crate::ast::{NodeId, Program};
use crate::diag::Diagnostic;

use export::{export, Shape, ShapeSource};
use store::{Store, Term};

pub use export::{MAX_TYPE_DEPTH, MAX_TYPE_NODES};
pub use input_heap::UnsupportedInputHeap;

/// A micro-c type, as read out of the solved graph.
///
/// Recursive types are finite trees with μ binders: `Recursive(b, body)` binds `RecVar(b)` in
/// `body` (binder numbers are local to one exported type). Use [`Type::unfold`] or the helpers
/// ([`Type::pointee`], [`Type::record_fields`], …), which see through one μ, rather than matching
/// `Recursive` by hand. `Display` prints the notation of `microc.md`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    Int,
    Pointer(Box<Type>),
    /// Fields sorted by name.
    Record(Vec<(String, Type)>),
    Array(Box<Type>),
    /// Parameter types and result type of a function.
    Function(Vec<Type>, Box<Type>),
    /// A type nothing constrains (numbered per table: equal numbers are the same variable).
    Var(u32),
    /// `μb.body`
    Recursive(u32, Box<Type>),
    /// An occurrence of the enclosing `Recursive` with this binder.
    RecVar(u32),
    /// Not available: cut beyond [`MAX_TYPE_DEPTH`] levels or [`MAX_TYPE_NODES`] nodes, or
    /// asked for an expression that is not in the table. Printed as `?`.
    Unknown,
}

impl Type {
    /// The type with its outer μ binders unfolded once (`μα.τ` becomes `τ[α := μα.τ]`); other
    /// types are returned as they are.
    pub fn unfold(&self) -> Cow<'_, Type> {
        let mut current = Cow::Borrowed(self);
        while let Type::Recursive(binder, body) = current.as_ref() {
            let unfolded = substitute(body, *binder, current.as_ref());
            current = Cow::Owned(unfolded);
        }
        current
    }

    pub fn is_int(&self) -> bool {
        matches!(self.unfold().as_ref(), Type::Int)
    }

    pub fn is_pointer(&self) -> bool {
        matches!(self.unfold().as_ref(), Type::Pointer(_))
    }

    pub fn is_record(&self) -> bool {
        matches!(self.unfold().as_ref(), Type::Record(_))
    }

    pub fn is_array(&self) -> bool {
        matches!(self.unfold().as_ref(), Type::Array(_))
    }

    /// The type a pointer points to.
    pub fn pointee(&self) -> Option<Type> {
        match self.unfold().as_ref() {
            Type::Pointer(target) => Some(target.as_ref().clone()),
            _ => None,
        }
    }

    /// The element type of an array.
    pub fn element(&self) -> Option<Type> {
        match self.unfold().as_ref() {
            Type::Array(element) => Some(element.as_ref().clone()),
            _ => None,
        }
    }

    /// The fields of a record, sorted by name; for a pointer to a record, use
    /// `ty.pointee().and_then(|r| r.record_fields())`.
    pub fn record_fields(&self) -> Option<Vec<(String, Type)>> {
        match self.unfold().as_ref() {
            Type::Record(fields) => Some(fields.clone()),
            _ => None,
        }
    }

    /// The type of one field of a record.
    pub fn field(&self, name: &str) -> Option<Type> {
        match self.unfold().as_ref() {
            Type::Record(fields) => fields
                .iter()
                .find(|(field, _)| field == name)
                .map(|(_, ty)| ty.clone()),
            _ => None,
        }
    }
}

impl Type {
    /// Whether both denote the same (possibly infinite) type, wherever their μ binders sit:
    /// `μα.↑{next: α}` and `↑μβ.{next: ↑β}` are equivalent, though not `==`. Type variables are
    /// equivalent only to themselves.
    pub fn equivalent(&self, other: &Type) -> bool {
        // Coinductive: a pair already being compared is assumed equal, which is sound for the
        // regular trees μ types denote, and finite because unfolding yields finitely many terms.
        let mut assumed: HashSet<(Type, Type)> = HashSet::new();
        let mut pending = vec![(self.clone(), other.clone())];
        while let Some((a, b)) = pending.pop() {
            let (a, b) = (a.unfold().into_owned(), b.unfold().into_owned());
            if assumed.contains(&(a.clone(), b.clone())) {
                continue;
            }
            match (&a, &b) {
                (Type::Int, Type::Int) | (Type::Unknown, Type::Unknown) => {}
                (Type::Var(x), Type::Var(y)) | (Type::RecVar(x), Type::RecVar(y)) if x == y => {}
                (Type::Pointer(x), Type::Pointer(y)) | (Type::Array(x), Type::Array(y)) => {
                    pending.push((x.as_ref().clone(), y.as_ref().clone()));
                }
                (Type::Record(xs), Type::Record(ys)) if xs.len() == ys.len() => {
                    for ((name_x, x), (name_y, y)) in xs.iter().zip(ys) {
                        if name_x != name_y {
                            return false;
                        }
                        pending.push((x.clone(), y.clone()));
                    }
                }
                (Type::Function(xs, x), Type::Function(ys, y)) if xs.len() == ys.len() => {
                    pending.extend(xs.iter().cloned().zip(ys.iter().cloned()));
                    pending.push((x.as_ref().clone(), y.as_ref().clone()));
                }
                _ => return false,
            }
            assumed.insert((a, b));
        }
        true
    }
}

/// `body` with the free occurrences of `RecVar(binder)` replaced by `replacement`.
fn substitute(body: &Type, binder: u32, replacement: &Type) -> Type {
    let go = |ty: &Type| Box::new(substitute(ty, binder, replacement));
    match body {
        Type::RecVar(b) if *b == binder => replacement.clone(),
        Type::Int | Type::Var(_) | Type::RecVar(_) | Type::Unknown => body.clone(),
        Type::Pointer(target) => Type::Pointer(go(target)),
        Type::Array(element) => Type::Array(go(element)),
        Type::Record(fields) => Type::Record(
            fields
                .iter()
                .map(|(name, ty)| (name.clone(), substitute(ty, binder, replacement)))
                .collect(),
        ),
        Type::Function(params, result) => Type::Function(
            params
                .iter()
                .map(|ty| substitute(ty, binder, replacement))
                .collect(),
            go(result),
        ),
        // An inner binder with the same number shadows ours.
        Type::Recursive(b, _) if *b == binder => body.clone(),
        Type::Recursive(b, inner) => Type::Recursive(*b, go(inner)),
    }
}

/// Greek letters for variables; `μ` is the binder symbol and `ο` looks like `o`, so both are left out.
const VARIABLE_NAMES: [char; 22] = [
    'α', 'β', 'γ', 'δ', 'ε', 'ζ', 'η', 'θ', 'ι', 'κ', 'λ', 'ν', 'ξ', 'π', 'ρ', 'σ', 'τ', 'υ', 'φ',
    'χ', 'ψ', 'ω',
];

/// Names for the variables and binders of one printed type, in order of appearance.
#[derive(Default)]
struct VariableNames {
    names: HashMap<(bool, u32), usize>,
}

impl VariableNames {
    fn name(&mut self, is_binder: bool, number: u32) -> String {
        let next = self.names.len();
        let index = *self.names.entry((is_binder, number)).or_insert(next);
        let letter = VARIABLE_NAMES[index % VARIABLE_NAMES.len()];
        match index / VARIABLE_NAMES.len() {
            0 => letter.to_string(),
            round => format!("{letter}{round}"),
        }
    }
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write(f, &mut VariableNames::default())
    }
}

/// Two types printed with one naming of their variables, so that a variable they share gets the
/// same letter in both (each printed alone, both would start at `α`).
pub fn display_pair(first: &Type, second: &Type) -> (String, String) {
    struct Shared<'a> {
        ty: &'a Type,
        names: &'a std::cell::RefCell<VariableNames>,
    }
    impl fmt::Display for Shared<'_> {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            self.ty.write(f, &mut self.names.borrow_mut())
        }
    }
    let names = std::cell::RefCell::new(VariableNames::default());
    let first = Shared {
        ty: first,
        names: &names,
    }
    .to_string();
    let second = Shared {
        ty: second,
        names: &names,
    }
    .to_string();
    (first, second)
}

impl Type {
    fn write(&self, f: &mut fmt::Formatter<'_>, names: &mut VariableNames) -> fmt::Result {
        match self {
            Type::Int => f.write_str("int"),
            Type::Pointer(target) => {
                f.write_str("↑")?;
                target.write(f, names)
            }
            Type::Record(fields) => {
                f.write_str("{")?;
                for (i, (name, ty)) in fields.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{name}: ")?;
                    ty.write(f, names)?;
                }
                f.write_str("}")
            }
            Type::Array(element) => {
                f.write_str("[")?;
                element.write(f, names)?;
                f.write_str("]")
            }
            Type::Function(params, result) => {
                f.write_str("(")?;
                for (i, param) in params.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    param.write(f, names)?;
                }
                f.write_str(") -> ")?;
                result.write(f, names)
            }
            Type::Var(number) => f.write_str(&names.name(false, *number)),
            Type::Recursive(binder, body) => {
                write!(f, "μ{}.", names.name(true, *binder))?;
                body.write(f, names)
            }
            Type::RecVar(binder) => f.write_str(&names.name(true, *binder)),
            Type::Unknown => f.write_str("?"),
        }
    }
}

/// The types of a well-typed program: of every expression, every function and every local.
///
/// Internally a frozen copy of the solved graph (one [`Shape`] per class); each query reads a
/// [`Type`] out of it, so a query costs the size of the type it returns.
#[derive(Clone, Debug)]
pub struct TypeTable {
    shapes: Vec<Shape>,
    /// Whether each class is a closed record (made by a record literal).
    closed: Vec<bool>,
    /// Class of each expression, indexed by [`NodeId`].
    expr_classes: Vec<Option<u32>>,
    /// In source order.
    functions: Vec<FunctionTypes>,
}

#[derive(Clone, Debug)]
struct FunctionTypes {
    name: String,
    params: Vec<u32>,
    result: u32,
    /// Parameters then `var` variables, each name once.
    locals: Vec<(String, u32)>,
}

impl FunctionTypes {
    /// The same names with every class (or graph node) `c` replaced by `class(c)`.
    fn map_classes(&self, class: impl Fn(u32) -> u32) -> FunctionTypes {
        FunctionTypes {
            name: self.name.clone(),
            params: self.params.iter().map(|&c| class(c)).collect(),
            result: class(self.result),
            locals: (self.locals.iter())
                .map(|(name, c)| (name.clone(), class(*c)))
                .collect(),
        }
    }
}

impl ShapeSource for TypeTable {
    fn canonical(&self, id: u32) -> u32 {
        id
    }

    fn shape(&self, id: u32) -> Shape {
        self.shapes
            .get(id as usize)
            .cloned()
            .unwrap_or(Shape::Unknown)
    }
}

/// Infers the types of `program`. Run it on a program that parsed and resolved without errors;
/// on anything else it still terminates without panicking, but its answer means little.
pub fn infer(program: &Program) -> Result<TypeTable, Vec<Diagnostic>> {
    let (solution, diagnostics) = infer::solve(program);
    if !diagnostics.is_empty() {
        return Err(diagnostics);
    }
    Ok(TypeTable::freeze(program, solution))
}

/// A solved graph copied into dense classes: the shape of each class, which classes are closed
/// records (kept so that [`TypeTable::input_heap_view`] can unify again), and the class of each
/// graph node.
struct FrozenGraph {
    shapes: Vec<Shape>,
    closed: Vec<bool>,
    class_of_node: Vec<u32>,
}

impl FrozenGraph {
    /// Numbers classes in node order and type variables in class order.
    fn new(store: &Store<'_>) -> FrozenGraph {
        let mut class_of_root: HashMap<u32, u32> = HashMap::new();
        for node in 0..store.len() as u32 {
            let root = store.root(node);
            let next = class_of_root.len() as u32;
            class_of_root.entry(root).or_insert(next);
        }
        let class_of_node: Vec<u32> = (0..store.len() as u32)
            .map(|node| class_of_root[&store.root(node)])
            .collect();
        let mut shapes = vec![Shape::Unknown; class_of_root.len()];
        let mut closed = vec![false; class_of_root.len()];
        let mut variables = 0;
        let mut roots: Vec<(u32, u32)> = class_of_root
            .iter()
            .map(|(&root, &id)| (id, root))
            .collect();
        roots.sort_unstable();
        for (id, root) in roots {
            let class = |node: u32| class_of_node[node as usize];
            shapes[id as usize] = match store.term(root) {
                Term::Var => {
                    variables += 1;
                    Shape::Unconstrained(variables - 1)
                }
                Term::Int => Shape::Int,
                Term::Pointer(target) => Shape::Pointer(class(*target)),
                Term::Array(element) => Shape::Array(class(*element)),
                Term::Record(record) => {
                    closed[id as usize] = record.closed_at.is_some();
                    Shape::Record(
                        record
                            .fields
                            .iter()
                            .map(|slot| (slot.name.to_string(), class(slot.ty)))
                            .collect(),
                    )
                }
            };
        }
        FrozenGraph {
            shapes,
            closed,
            class_of_node,
        }
    }

    fn class(&self, node: u32) -> u32 {
        self.class_of_node
            .get(node as usize)
            .copied()
            .unwrap_or(u32::MAX)
    }
}

impl TypeTable {
    /// The table of a program whose types are declared rather than inferred (a front end whose
    /// source language states them, such as C): each function by its name, its parameters and
    /// its other locals with their types; results are `int`. The types are built of `Int`,
    /// `Array`, `Record` (fields sorted by name, closed: made by record values) and `Pointer`.
    pub fn declared<'a>(
        functions: impl IntoIterator<Item = (&'a str, &'a [(String, Type)], &'a [(String, Type)])>,
    ) -> TypeTable {
        let mut table = TypeTable {
            shapes: Vec::new(),
            closed: Vec::new(),
            expr_classes: Vec::new(),
            functions: Vec::new(),
        };
        let int = table.intern(&Type::Int);
        for (name, params, locals) in functions {
            let params: Vec<(String, u32)> = params
                .iter()
                .map(|(n, ty)| (n.clone(), table.intern(ty)))
                .collect();
            let mut all = params.clone();
            all.extend(locals.iter().map(|(n, ty)| (n.clone(), table.intern(ty))));
            table.functions.push(FunctionTypes {
                name: name.to_string(),
                params: params.iter().map(|(_, class)| *class).collect(),
                result: int,
                locals: all,
            });
        }
        table
    }

    /// The class of a declared type, shared with an equal one already interned.
    fn intern(&mut self, ty: &Type) -> u32 {
        self.intern_bound(ty, &mut Vec::new())
    }

    /// [`TypeTable::intern`] inside the μ binders `binders` (each with its class, innermost
    /// last): a recursive type is a class of its own whose shape points back to it.
    fn intern_bound(&mut self, ty: &Type, binders: &mut Vec<(u32, u32)>) -> u32 {
        let shape = match ty {
            Type::Recursive(binder, body) => {
                let class = self.shapes.len() as u32;
                self.shapes.push(Shape::Unknown);
                self.closed.push(false);
                binders.push((*binder, class));
                let shape = self.declared_shape(body, binders);
                binders.pop();
                self.closed[class as usize] = matches!(shape, Shape::Record(_));
                self.shapes[class as usize] = shape;
                return class;
            }
            Type::RecVar(binder) => {
                if let Some(&(_, class)) = binders.iter().rev().find(|(b, _)| b == binder) {
                    return class;
                }
                Shape::Unknown
            }
            _ => self.declared_shape(ty, binders),
        };
        if let Some(class) = self.shapes.iter().position(|s| *s == shape) {
            return class as u32;
        }
        self.closed.push(matches!(shape, Shape::Record(_)));
        self.shapes.push(shape);
        self.shapes.len() as u32 - 1
    }

    /// The shape of a declared type that is not a μ binder or variable, its parts interned.
    fn declared_shape(&mut self, ty: &Type, binders: &mut Vec<(u32, u32)>) -> Shape {
        match ty {
            Type::Pointer(to) => Shape::Pointer(self.intern_bound(to, binders)),
            Type::Array(of) => Shape::Array(self.intern_bound(of, binders)),
            Type::Record(fields) => Shape::Record(
                fields
                    .iter()
                    .map(|(name, ty)| (name.clone(), self.intern_bound(ty, binders)))
                    .collect(),
            ),
            Type::Unknown => Shape::Unknown,
            _ => Shape::Int,
        }
    }

    /// Copies the solved graph into dense classes.
    fn freeze(program: &Program, solution: infer::Solution<'_>) -> TypeTable {
        let graph = FrozenGraph::new(&solution.store);
        let expr_classes = solution
            .expr_nodes
            .iter()
            .map(|node| node.map(|node| graph.class(node)))
            .collect();
        let functions = program
            .functions
            .iter()
            .zip(&solution.functions)
            .map(|(function, nodes)| {
                FunctionTypes {
                    name: function.name.name.clone(),
                    params: nodes.params.clone(),
                    result: nodes.result,
                    locals: (nodes.locals.iter())
                        .map(|&(name, node)| (name.to_string(), node))
                        .collect(),
                }
                .map_classes(|node| graph.class(node))
            })
            .collect();
        TypeTable {
            shapes: graph.shapes,
            closed: graph.closed,
            expr_classes,
            functions,
        }
    }

    /// This table over the classes of `store`, a graph with one node per class of this table in
    /// which some classes were unified since.
    fn refreeze(&self, store: &Store<'_>) -> TypeTable {
        let graph = FrozenGraph::new(store);
        TypeTable {
            expr_classes: self
                .expr_classes
                .iter()
                .map(|class| class.map(|c| graph.class(c)))
                .collect(),
            functions: (self.functions.iter())
                .map(|function| function.map_classes(|c| graph.class(c)))
                .collect(),
            shapes: graph.shapes,
            closed: graph.closed,
        }
    }

    /// The type of an expression of the program this table was inferred for
    /// ([`Type::Unknown`] for an id from elsewhere).
    pub fn expr_type(&self, id: NodeId) -> Type {
        match self.expr_classes.get(id.0 as usize).copied().flatten() {
            Some(class) => export(self, class),
            None => Type::Unknown,
        }
    }

    /// The types of the program's expressions, each distinct class once, in class order.
    pub fn expression_types(&self) -> impl Iterator<Item = Type> + '_ {
        let mut classes: Vec<u32> = self.expr_classes.iter().flatten().copied().collect();
        classes.sort_unstable();
        classes.dedup();
        classes.into_iter().map(|class| export(self, class))
    }

    /// The type of a parameter or `var` variable of `function`.
    pub fn local_type(&self, function: &str, name: &str) -> Option<Type> {
        let function = self.function_types(function)?;
        let (_, class) = function.locals.iter().find(|(local, _)| local == name)?;
        Some(export(self, *class))
    }

    /// `(τ1, …, τn) -> τ` of a function (the first one of that name).
    pub fn function_type(&self, name: &str) -> Option<Type> {
        self.function_types(name)
            .map(|function| self.signature(function))
    }

    fn function_types(&self, name: &str) -> Option<&FunctionTypes> {
        self.functions.iter().find(|function| function.name == name)
    }

    fn signature(&self, function: &FunctionTypes) -> Type {
        Type::Function(
            function
                .params
                .iter()
                .map(|&class| export(self, class))
                .collect(),
            Box::new(export(self, function.result)),
        )
    }

    /// The listing of `symex types`: each function's type, then its parameters and variables,
    /// in source order, one per line (`  n: int`).
    pub fn render(&self, program: &Program) -> String {
        let mut out = String::new();
        for (index, function) in program.functions.iter().enumerate() {
            let name = &function.name.name;
            let Some(types) = self
                .functions
                .get(index)
                .filter(|types| types.name == *name)
            else {
                continue;
            };
            out.push_str(&format!("{name}: {}\n", self.signature(types)));
            for (local, class) in &types.locals {
                out.push_str(&format!("  {local}: {}\n", export(self, *class)));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests;
