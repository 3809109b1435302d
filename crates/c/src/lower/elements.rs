//! Which pointers point into arrays, and which arrays must live in memory cells so that they
//! can be pointed into: decided for the whole file before any body is lowered, by name, as `&x`
//! decides which variables live in cells.
//!
//! A C pointer of the subset is an IR pointer to a whole cell; a pointer into an array (an
//! *element pointer*, `lower/element_pointer.rs`) is a pair of the array's cell and an index.
//! Both have one C type, so the choice is made per *location* from how the file uses it. The
//! locations are variables (by name per function: a local or parameter, else a global, block
//! scopes ignored), struct members (by name, in every struct: `s.data` and `p->data` are one),
//! results of defined functions (their `return`s and calls), allocations (`malloc(...)`
//! calls), and what another location's pointers point to (`*q`, `a[i]`, `m[i]` of `int **m`):
//! unification in the manner of Steensgaard's points-to analysis.
//! Assignments (and `==`, and arguments of defined functions) join their two sides into one
//! class, and joining two classes joins what they point to, so `q = p` makes both element
//! pointers or neither, at every level (`int **`). A class is one of element pointers when
//! pointer arithmetic (`p + k`, `p++`, `p -= k`), an ordering (`p < q`) or a subscript (`p[i]`
//! is `*(p + i)`) applies to it, or it is assigned an array, `&a[i]`, a string literal, the
//! result of pointer arithmetic, or an allocation that counts objects (`malloc(n *
//! sizeof(T))`, which then makes an array; one that joins such a class makes an array of one).
//! An array that decays into an element pointer, or whose element's address is taken, lives in
//! a cell. A cast that makes a character view (`(unsigned char *)&x` of an integer variable,
//! `lower/views.rs`) or ends one (`(int *)b` of a character variable) joins nothing: the view
//! is no pointer of its objects' class, and its objects stay what the rest of the file makes
//! them (an array operand lives in a cell).
//!
//! A variable whose address reaches an element pointer is an array of one (C counts every
//! object so): every `&x` of it is one class, and where that class is one of element pointers
//! the variable is one of [`ElementFacts::singletons`]. A parameter declared as an array that
//! its function moves (`s++`) is a pointer into the caller's array, as a recursive function's
//! array parameters are.
//!
//! The choice only decides representations ([`ElementFacts::representation`]): a location
//! chosen wrongly (an element pointer that is also assigned a pointer to a whole object) is
//! refused when it is lowered, never mis-translated. Nothing here emits IR.

use std::collections::{HashMap, HashSet};

use lang_c::ast::{
    BinaryOperator, CallExpression, CastExpression, Declaration, DeclarationSpecifier, Declarator,
    DeclaratorKind, DerivedDeclarator, Designator, Expression, FunctionDefinition, InitDeclarator,
    Initializer, ParameterDeclaration, SpecifierQualifier, StorageClassSpecifier,
    StructDeclaration, TranslationUnit, TypeSpecifier, UnaryOperator,
};
use lang_c::span::{Node, Span};
use lang_c::visit::{self, Visit};

use super::allocation::{allocation_size, ALLOCATING_FUNCTIONS, DUPLICATING_FUNCTIONS};
use super::expr::ERROR_FUNCTIONS;
use super::library::{
    pointer_arguments, reads_characters, returns_into_first_argument, MEMORY_FUNCTIONS,
};
use super::output::{is_output_function, printed_strings};
use super::types::{declarator_shape, CType, Shape, Types};

/// A variable: the function it is a local or parameter of (`""` for a global), and its name.
/// Members and allocations have keys of the same shape, under a function name no C function
/// has ([`MEMBER`], [`ALLOCATION`]).
pub(super) type VariableKey = (String, String);

/// The function of allocations' keys: an allocation is named by where its callee's name
/// starts in the file.
const ALLOCATION: &str = "#allocation";

/// The function of struct members' keys: a member is one location by its name, in every
/// struct, as `&` decides which members live in boxes.
const MEMBER: &str = "#member";

fn member_key(name: &str) -> VariableKey {
    (MEMBER.to_string(), name.to_string())
}

/// The function of results' keys: a defined function's result is one location, joined with
/// what its `return`s give and read by its calls.
const RESULT: &str = "#result";

fn result_key(function: &str) -> VariableKey {
    (RESULT.to_string(), function.to_string())
}

fn allocation_key(start: usize) -> VariableKey {
    (ALLOCATION.to_string(), start.to_string())
}

/// Where the allocation `call` starts, if it is one (the file does not define the function):
/// an allocating function's or a duplicating one's (`strdup`).
fn allocation_start(
    call: &CallExpression,
    parameters: &HashMap<String, Vec<String>>,
) -> Option<usize> {
    let Expression::Identifier(callee) = &call.callee.node else {
        return None;
    };
    let name = callee.node.name.as_str();
    let allocates = ALLOCATING_FUNCTIONS.contains(&name) || DUPLICATING_FUNCTIONS.contains(&name);
    (allocates && !parameters.contains_key(name)).then_some(call.callee.span.start)
}

/// The name of the function `call` calls, if it names one.
fn callee_name(call: &CallExpression) -> Option<&str> {
    match &call.callee.node {
        Expression::Identifier(callee) => Some(callee.node.name.as_str()),
        _ => None,
    }
}

/// Whether `operator` is `++` or `--`, either side.
fn moves(operator: &UnaryOperator) -> bool {
    matches!(
        operator,
        UnaryOperator::PreIncrement
            | UnaryOperator::PreDecrement
            | UnaryOperator::PostIncrement
            | UnaryOperator::PostDecrement
    )
}

/// Whether `e` is the address of a struct member (`&s.f`, `&p->f`).
fn is_member_address(e: &Node<Expression>) -> bool {
    matches!(&e.node, Expression::UnaryOperator(u)
        if u.node.operator.node == UnaryOperator::Address
            && matches!(u.node.operand.node, Expression::Member(_)))
}

/// The variable that `name` denotes inside `function`, by the names declared in each function
/// (`locals`): its local or parameter, else the global.
fn variable_key(
    locals: &HashMap<String, HashSet<String>>,
    function: &str,
    name: &str,
) -> VariableKey {
    let local = (locals.get(function)).is_some_and(|names| names.contains(name));
    match local {
        true => (function.to_string(), name.to_string()),
        false => (String::new(), name.to_string()),
    }
}

/// Whether the allocation `call` makes an array: it counts objects, resizes one (`realloc`)
/// or copies a string (`strdup`).
fn makes_array(call: &CallExpression) -> bool {
    callee_name(call).is_some_and(|name| {
        name == "realloc"
            || DUPLICATING_FUNCTIONS.contains(&name)
            || allocation_size(name, &call.arguments).is_some_and(|size| size.count.is_some())
    })
}

/// Whether the allocation `call` is a `malloc` or `calloc` of a number of bytes (no `sizeof`
/// in its size).
fn allocates_bytes(call: &CallExpression) -> bool {
    callee_name(call).is_some_and(|name| {
        matches!(name, "malloc" | "calloc")
            && allocation_size(name, &call.arguments).is_some_and(|size| size.each.is_none())
    })
}

/// The file's element pointers and cell arrays.
#[derive(Debug, Default)]
pub(super) struct ElementFacts {
    /// The class of each location's key.
    nodes: HashMap<VariableKey, usize>,
    /// For each class (by node): whether its pointers are element pointers, and the class of
    /// what they point to.
    element: Vec<bool>,
    pointee: Vec<Option<usize>>,
    /// The arrays that live in cells, by variable key, as `&x` decides it for variables
    /// (`Unit::address_taken`, which they join).
    pub cell_arrays: HashSet<VariableKey>,
    /// The names declared in each function (its parameters and locals, block scopes ignored).
    locals: HashMap<String, HashSet<String>>,
    /// Whether a string literal is used as a value (a pointer to its characters), not only
    /// to initialize a character array or as an argument of an output or error function: then
    /// writes through pointers to characters check that they do not write into one.
    pub literal_values: bool,
    /// Whether some struct has an array member (whose box a pointer may point into: its
    /// first element's heap state is `MEMBER`, `lower/memory.rs`).
    pub array_members: bool,
    /// The defined functions that can call themselves (their array parameters are pointers).
    pub recursive: HashSet<String>,
    /// The variables (not arrays) whose address reaches a pointer into arrays (`sum(&x, 1)`
    /// for `int sum(int *v, int n)` that indexes `v`, `p = c ? &x : a`): each is an array of
    /// one in a cell, as C's object model makes any object (`FnCx::singletons`, `lower/func.rs`).
    pub singletons: HashSet<VariableKey>,
    /// The scalar members (by name) whose address reaches a pointer into arrays
    /// (`sum(&s.x, 1)`): their box holds an array of one (`lower/memory.rs`, `BoxedMembers`).
    pub singleton_members: HashSet<String>,
}

/// A location whose type [`ElementFacts::representation`] decides.
#[derive(Clone, Copy, Debug)]
pub(super) enum Location<'a> {
    /// The variable `name` of `function` (`""`: a global).
    Variable(&'a str, &'a str),
    /// The elements of the array variable `name` of `function`.
    Elements(&'a str, &'a str),
    /// Struct members of this name.
    Member(&'a str),
    /// The objects of the allocation whose callee's name starts here.
    Allocated(usize),
    /// The result of the defined function of this name.
    Result(&'a str),
}

impl ElementFacts {
    /// The variable that `name` denotes inside `function`: its local or parameter of that
    /// name (block scopes ignored), else the global.
    pub fn variable_key(&self, function: &str, name: &str) -> VariableKey {
        variable_key(&self.locals, function, name)
    }

    fn node(&self, key: VariableKey) -> Option<usize> {
        self.nodes.get(&key).copied()
    }

    fn location(&self, location: Location<'_>) -> Option<usize> {
        let key = |function: &str, name: &str| (function.to_string(), name.to_string());
        match location {
            Location::Variable(function, name) => self.node(key(function, name)),
            Location::Elements(function, name) => {
                self.node(key(function, name)).and_then(|n| self.pointee[n])
            }
            Location::Member(name) => self.node(member_key(name)),
            Location::Allocated(start) => self
                .node(allocation_key(start))
                .and_then(|n| self.pointee[n]),
            Location::Result(function) => self.node(result_key(function)),
        }
    }

    /// Whether the pointers at `location` point into arrays (its class is one of element
    /// pointers).
    pub fn points_into_arrays(&self, location: Location<'_>) -> bool {
        self.location(location).is_some_and(|n| self.element[n])
    }

    /// Whether the allocation whose callee's name starts at `start` makes an array: it counts
    /// objects, or its result reaches an element pointer (`lower/allocation.rs`).
    pub fn is_element_allocation(&self, start: usize) -> bool {
        (self.node(allocation_key(start))).is_some_and(|n| self.element[n])
    }

    /// The type a value of the declared type `ty` has at `location`: each pointer level an
    /// element pointer where its class is one and it points to what arrays hold (scalars and
    /// structs) or it points to arrays, else as declared.
    pub fn representation(&self, location: Location<'_>, ty: CType, types: &mut Types) -> CType {
        self.represent(self.location(location), ty, types)
    }

    fn represent(&self, node: Option<usize>, ty: CType, types: &mut Types) -> CType {
        let (CType::Pointer(p) | CType::Element(p)) = ty else {
            return ty;
        };
        let pointee = types.pointee(p);
        let inner = match pointee {
            CType::Pointer(_) | CType::Element(_) => {
                let inner_node = node.and_then(|n| self.pointee[n]);
                self.represent(inner_node, pointee, types)
            }
            _ => pointee,
        };
        let CType::Pointer(q) = types.pointer_to(inner) else {
            return ty;
        };
        let element = node.is_some_and(|n| self.element[n]);
        let arrays_hold = inner.is_scalar() || matches!(inner, CType::Struct(_));
        // A pointer to arrays (`int (*p)[3]`) points into an array of them, always: the rows
        // of a multi-dimensional array (`lower/array.rs`), or one array (`&a`).
        match (element && arrays_hold) || matches!(inner, CType::Array(_)) {
            true => CType::Element(q),
            false => CType::Pointer(q),
        }
    }
}

/// What the file's declarations say: the names local to each function, which variables are
/// arrays, and which have an integer type other than a character type at their base (`int x`,
/// `unsigned *p`, `long a[4]`): a cast of a pointer to them to a character pointer makes a
/// character view (`lower/views.rs`), not a pointer of their class.
#[derive(Default)]
struct Declarations {
    locals: HashMap<String, HashSet<String>>,
    /// The array variables, and their dimensions.
    arrays: HashMap<VariableKey, usize>,
    /// The arrays declared by array parts and no array typedef (`int a[]`, `int m[][3]`).
    declared_arrays: HashSet<VariableKey>,
    /// The variables declared as pointers to arrays (`int (*p)[3]`), which point into arrays.
    array_pointers: HashSet<VariableKey>,
    function: Option<String>,
    /// The typedef names of character types and of the other integer types (at any pointer
    /// level), and whether the declaration being visited has one of each at its base.
    typedefs: HashMap<String, Base>,
    base: Base,
    bases: HashMap<VariableKey, Base>,
    /// The typedef names of array types with their dimensions, and those of the one at the
    /// base of the declaration being visited (0: none; its plain declarators then declare
    /// arrays).
    array_typedefs: HashMap<String, usize>,
    array_base: usize,
    /// Struct member names declared as arrays somewhere (with their dimensions where first
    /// declared), and as anything else somewhere (members are one location by name: only a
    /// name that is an array in every struct decays as one).
    array_members: HashMap<String, usize>,
    other_members: HashSet<String>,
    /// Struct member names declared `void *` somewhere, and as anything else somewhere (an
    /// allocation of bytes assigned to a name that is `void *` in every struct makes no array).
    void_pointer_members: HashSet<String>,
    typed_members: HashSet<String>,
    /// The variables that are assigned or moved (`a = e`, `a += k`, `a++`): an array among
    /// them is a parameter (C assigns no array), and so a pointer into the caller's array.
    modified: HashSet<VariableKey>,
}

impl Declarations {
    /// `e` is assigned or moved: note the variable it names.
    fn modifies(&mut self, e: &Node<Expression>) {
        let (Expression::Identifier(id), Some(function)) = (&e.node, &self.function) else {
            return;
        };
        let key = variable_key(&self.locals, function, &id.node.name);
        self.modified.insert(key);
    }

    /// Whether the member `name` is a `void *` in every struct that has one.
    fn void_pointer_member(&self, name: &str) -> bool {
        self.void_pointer_members.contains(name) && !self.typed_members.contains(name)
    }

    /// The dimensions of the member `name` where it is an array in every struct that has
    /// one.
    fn array_member(&self, name: &str) -> Option<usize> {
        let dimensions = self.array_members.get(name).copied();
        dimensions.filter(|_| !self.other_members.contains(name))
    }
}

/// Whether `specifiers` name one of the array typedefs.
fn names_array_typedef<'s>(
    mut specifiers: impl Iterator<Item = &'s TypeSpecifier>,
    array_typedefs: &HashMap<String, usize>,
) -> usize {
    specifiers
        .find_map(|s| match s {
            TypeSpecifier::TypedefName(name) => array_typedefs.get(&name.node.name).copied(),
            _ => None,
        })
        .unwrap_or(0)
}

fn declaration_types(
    specifiers: &[Node<DeclarationSpecifier>],
) -> impl Iterator<Item = &TypeSpecifier> {
    specifiers.iter().filter_map(|s| match &s.node {
        DeclarationSpecifier::TypeSpecifier(t) => Some(&t.node),
        _ => None,
    })
}

/// The type specifiers among a type name's or a member's specifiers and qualifiers.
fn qualified_types(
    specifiers: &[Node<SpecifierQualifier>],
) -> impl Iterator<Item = &TypeSpecifier> {
    specifiers.iter().filter_map(|s| match &s.node {
        SpecifierQualifier::TypeSpecifier(t) => Some(&t.node),
        _ => None,
    })
}

/// The dimensions of the array that `declarator` (of `shape`) declares, 0 if none: its array
/// parts, then those of an array typedef at its base (`array_base`, 0 if none).
fn array_dimensions(declarator: &Declarator, shape: &Shape<'_>, array_base: usize) -> usize {
    match shape {
        Shape::Array(_) => match &declarator.kind.node {
            // `int (m[2])[3]`.
            DeclaratorKind::Declarator(inner) if declarator.derived.is_empty() => {
                array_dimensions(&inner.node, shape, array_base)
            }
            _ => {
                let derived = declarator.derived.iter();
                let parts = derived.filter(|d| matches!(d.node, DerivedDeclarator::Array(_)));
                parts.count() + array_base
            }
        },
        Shape::Plain(0) => array_base,
        _ => 0,
    }
}

/// The base type of a declaration, as far as character views care.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Base {
    Character,
    /// An integer type other than a character type.
    Integer,
    Struct,
    #[default]
    Other,
}

/// The base type that `specifiers` name, given the file's `typedefs`.
fn base_of<'s>(
    specifiers: impl Iterator<Item = &'s TypeSpecifier>,
    typedefs: &HashMap<String, Base>,
) -> Base {
    let mut base = Base::Other;
    for specifier in specifiers {
        match specifier {
            TypeSpecifier::Char => return Base::Character,
            TypeSpecifier::Short
            | TypeSpecifier::Int
            | TypeSpecifier::Long
            | TypeSpecifier::Signed
            | TypeSpecifier::Unsigned
            | TypeSpecifier::Bool => base = Base::Integer,
            TypeSpecifier::Struct(_) => return Base::Struct,
            TypeSpecifier::TypedefName(name) => {
                return typedefs.get(&name.node.name).copied().unwrap_or_default()
            }
            _ => {}
        }
    }
    base
}

fn declaration_base(
    specifiers: &[Node<DeclarationSpecifier>],
    typedefs: &HashMap<String, Base>,
) -> Base {
    base_of(declaration_types(specifiers), typedefs)
}

/// The base type of the pointer type `cast` converts to, if it is one of one level
/// (`(unsigned char *)`, `(int *)`).
fn cast_pointer_base(cast: &CastExpression, typedefs: &HashMap<String, Base>) -> Option<Base> {
    let name = &cast.type_name.node;
    let types = qualified_types(&name.specifiers);
    let one_pointer = name.declarator.as_ref().is_some_and(
        |d| matches!(&d.node.derived[..], [p] if matches!(p.node, DerivedDeclarator::Pointer(_))),
    );
    one_pointer.then(|| base_of(types, typedefs))
}

/// The subtraction of `cast` where it is the form of `container_of`, `(T *)((char *)p - k)`:
/// a struct pointer made from a member's (`lower/containers.rs`).
fn container_subtraction<'c>(
    cast: &'c CastExpression,
    typedefs: &HashMap<String, Base>,
) -> Option<&'c lang_c::ast::BinaryOperatorExpression> {
    // A struct's (or, through `typeof`, one of a type not known here); a view of integers
    // moved back by bytes is no `container_of`.
    let to_object =
        cast_pointer_base(cast, typedefs).is_some_and(|b| matches!(b, Base::Struct | Base::Other));
    let Expression::BinaryOperator(b) = &cast.expression.node else {
        return None;
    };
    let bytes = matches!(&b.node.lhs.node, Expression::Cast(c)
        if cast_pointer_base(&c.node, typedefs) == Some(Base::Character));
    (to_object && bytes && b.node.operator.node == BinaryOperator::Minus).then_some(&b.node)
}

/// The variable whose storage the pointer `e` is made from (`&x`, `a`, `&a[i]`, `p + k`).
fn root_variable(e: &Node<Expression>) -> Option<&str> {
    match &e.node {
        Expression::Identifier(id) => Some(&id.node.name),
        Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Address => {
            root_variable(&u.node.operand)
        }
        Expression::BinaryOperator(b) => match b.node.operator.node {
            BinaryOperator::Index => root_variable(&b.node.lhs),
            BinaryOperator::Plus | BinaryOperator::Minus => {
                root_variable(&b.node.lhs).or_else(|| root_variable(&b.node.rhs))
            }
            _ => None,
        },
        Expression::Cast(c) => root_variable(&c.node.expression),
        _ => None,
    }
}

impl<'ast> Visit<'ast> for Declarations {
    fn visit_declaration(&mut self, declaration: &'ast Declaration, span: &'ast Span) {
        let base = declaration_base(&declaration.specifiers, &self.typedefs);
        let typedef = declaration.specifiers.iter().any(|s| {
            matches!(
                s.node,
                DeclarationSpecifier::StorageClass(ref c)
                    if c.node == StorageClassSpecifier::Typedef
            )
        });
        let array_base = names_array_typedef(
            declaration_types(&declaration.specifiers),
            &self.array_typedefs,
        );
        if typedef {
            for init in &declaration.declarators {
                let declarator = &init.node.declarator.node;
                let (name, shape) = declarator_shape(declarator);
                if let Some(name) = name {
                    self.typedefs.insert(name.clone(), base);
                    let dimensions = array_dimensions(declarator, &shape, array_base);
                    if dimensions > 0 {
                        self.array_typedefs.insert(name, dimensions);
                    }
                }
            }
            // A typedef names no variable, but the struct it may define has members
            // (`typedef struct { void *lo; } T;`).
            for specifier in &declaration.specifiers {
                self.visit_declaration_specifier(&specifier.node, &specifier.span);
            }
            return;
        }
        self.base = base;
        self.array_base = array_base;
        visit::visit_declaration(self, declaration, span);
        self.base = Base::Other;
        self.array_base = 0;
    }

    fn visit_parameter_declaration(
        &mut self,
        parameter: &'ast ParameterDeclaration,
        span: &'ast Span,
    ) {
        let outer = (self.base, self.array_base);
        self.base = declaration_base(&parameter.specifiers, &self.typedefs);
        self.array_base = names_array_typedef(
            declaration_types(&parameter.specifiers),
            &self.array_typedefs,
        );
        visit::visit_parameter_declaration(self, parameter, span);
        (self.base, self.array_base) = outer;
    }

    fn visit_function_definition(
        &mut self,
        definition: &'ast FunctionDefinition,
        span: &'ast Span,
    ) {
        let name = declarator_shape(&definition.declarator.node).0;
        self.function = name.clone();
        if let Some(name) = name {
            self.locals.entry(name).or_default();
        }
        visit::visit_function_definition(self, definition, span);
        self.function = None;
    }

    fn visit_binary_operator_expression(
        &mut self,
        e: &'ast lang_c::ast::BinaryOperatorExpression,
        span: &'ast Span,
    ) {
        use BinaryOperator as B;
        if matches!(e.operator.node, B::Assign | B::AssignPlus | B::AssignMinus) {
            self.modifies(&e.lhs);
        }
        visit::visit_binary_operator_expression(self, e, span);
    }

    fn visit_unary_operator_expression(
        &mut self,
        e: &'ast lang_c::ast::UnaryOperatorExpression,
        span: &'ast Span,
    ) {
        if moves(&e.operator.node) {
            self.modifies(&e.operand);
        }
        visit::visit_unary_operator_expression(self, e, span);
    }

    fn visit_declarator(&mut self, declarator: &'ast Declarator, span: &'ast Span) {
        let (name, shape) = declarator_shape(declarator);
        match (&shape, &self.function) {
            // A prototype's parameters name nothing.
            (Shape::Function(..), None) => return,
            (Shape::Function(..), Some(_)) => {}
            (_, function) => {
                if let Some(name) = name {
                    let function = function.clone().unwrap_or_default();
                    if !function.is_empty() {
                        self.locals
                            .entry(function.clone())
                            .or_default()
                            .insert(name.clone());
                    }
                    self.bases
                        .insert((function.clone(), name.clone()), self.base);
                    let dimensions = array_dimensions(declarator, &shape, self.array_base);
                    let key = (function, name);
                    if matches!(shape, Shape::ArrayPointer { levels: 1, .. })
                        || (matches!(shape, Shape::Plain(1)) && self.array_base > 0)
                    {
                        self.array_pointers.insert(key.clone());
                    }
                    if dimensions > 0 && self.array_base == 0 {
                        self.declared_arrays.insert(key.clone());
                    }
                    if dimensions > 0 {
                        self.arrays.insert(key, dimensions);
                    }
                }
            }
        }
        visit::visit_declarator(self, declarator, span);
    }

    // Members are not variables: only which of them are arrays is noted.
    fn visit_struct_declaration(&mut self, declaration: &'ast StructDeclaration, _: &'ast Span) {
        let StructDeclaration::Field(field) = declaration else {
            return;
        };
        let types = qualified_types(&field.node.specifiers);
        let array_base = names_array_typedef(types, &self.array_typedefs);
        let void =
            qualified_types(&field.node.specifiers).any(|t| matches!(t, TypeSpecifier::Void));
        for declarator in &field.node.declarators {
            let Some(declarator) = &declarator.node.declarator else {
                continue;
            };
            let (Some(name), shape) = declarator_shape(&declarator.node) else {
                continue;
            };
            match void && matches!(shape, Shape::Plain(1)) {
                true => self.void_pointer_members.insert(name.clone()),
                false => self.typed_members.insert(name.clone()),
            };
            match array_dimensions(&declarator.node, &shape, array_base) {
                0 => self.other_members.insert(name),
                dimensions => {
                    self.array_members.entry(name).or_insert(dimensions);
                    true
                }
            };
        }
    }
}

/// Union-find over locations, with what makes a class element pointers and what its pointers
/// point to.
#[derive(Default)]
struct Classes {
    index: HashMap<VariableKey, usize>,
    parent: Vec<usize>,
    element: Vec<bool>,
    pointee: Vec<Option<usize>>,
}

impl Classes {
    /// A fresh class of no name (what `&x` gives, or what a class points to).
    fn fresh(&mut self) -> usize {
        let id = self.parent.len();
        self.parent.push(id);
        self.element.push(false);
        self.pointee.push(None);
        id
    }

    fn id(&mut self, key: &VariableKey) -> usize {
        if let Some(&id) = self.index.get(key) {
            return id;
        }
        let id = self.fresh();
        self.index.insert(key.clone(), id);
        id
    }

    /// The root of `id`'s class, without shortening the path.
    fn find(&self, mut id: usize) -> usize {
        while self.parent[id] != id {
            id = self.parent[id];
        }
        id
    }

    fn root(&mut self, mut id: usize) -> usize {
        while self.parent[id] != id {
            self.parent[id] = self.parent[self.parent[id]];
            id = self.parent[id];
        }
        id
    }

    /// The class of what `id`'s pointers point to.
    fn pointee(&mut self, id: usize) -> usize {
        let root = self.root(id);
        match self.pointee[root] {
            Some(pointee) => pointee,
            None => {
                let pointee = self.fresh();
                self.pointee[root] = Some(pointee);
                pointee
            }
        }
    }

    /// Joins two classes, and so what they point to.
    fn union(&mut self, a: usize, b: usize) {
        let mut pending = vec![(a, b)];
        while let Some((a, b)) = pending.pop() {
            let (a, b) = (self.root(a), self.root(b));
            if a == b {
                continue;
            }
            self.parent[b] = a;
            self.element[a] |= self.element[b];
            match (self.pointee[a], self.pointee[b]) {
                (Some(x), Some(y)) => pending.push((x, y)),
                (None, Some(y)) => self.pointee[a] = Some(y),
                _ => {}
            }
        }
    }

    fn mark(&mut self, id: usize) {
        let root = self.root(id);
        self.element[root] = true;
    }

    fn is_element(&mut self, id: usize) -> bool {
        let root = self.root(id);
        self.element[root]
    }
}

/// The classes an expression's value may come from, and whether it points into an array
/// whatever they are (`&a[i]`, pointer arithmetic, a string literal).
#[derive(Clone, Default)]
struct Sources {
    classes: Vec<usize>,
    element: bool,
}

/// The second walk: assignments, arithmetic and calls.
struct Uses<'d> {
    declarations: &'d Declarations,
    /// Parameters of each defined function, in order.
    parameters: &'d HashMap<String, Vec<String>>,
    function: String,
    classes: Classes,
    /// The classes of array variables, and their keys.
    arrays: HashMap<usize, VariableKey>,
    /// The classes of the rows of multi-dimensional arrays (among [`Uses::arrays`]).
    rows: HashSet<usize>,
    /// A parameter and the sources of an argument passed to it, and whether its function is
    /// recursive: joined only where either side is an element pointer (an array passed to a
    /// parameter that is only indexed stays the caller's array, `FnCx::argument`) or an array
    /// reaches a recursive function (which is not inlined); what they point to is joined at
    /// once.
    bindings: Vec<(usize, Sources, bool)>,
    /// The defined functions that can call themselves.
    recursive: &'d HashSet<String>,
    /// The defined functions that return `void *` ([`void_pointer_functions`]).
    allocators: HashSet<String>,
    /// Whether the declaration being visited declares `void` (its `void *` declarators then
    /// hold an allocator's allocation of bytes as one object).
    declares_void: bool,
    /// The allocations (by where their callee's name starts) converted at once to `void *`:
    /// a `void *` variable's initializer or assigned value, or an allocator's `return`.
    void_allocations: HashSet<usize>,
    /// The names the function being visited declares `void *`, so far.
    void_pointers: HashSet<String>,
    cells: HashSet<VariableKey>,
    literal_values: bool,
    /// The subscripts that another subscript indexes (`m[i]` of `m[i][j]`), by address.
    inner_subscripts: HashSet<*const lang_c::ast::BinaryOperatorExpression>,
    /// The `*m` that a subscript indexes (`(*m)[j]`), by address: `row_value` decides them.
    subscripted_rows: HashSet<*const lang_c::ast::UnaryOperatorExpression>,
    /// The subtractions of `container_of`s ([`container_subtraction`]), by address: no
    /// arithmetic on their pointer.
    container_subtractions: HashSet<*const lang_c::ast::BinaryOperatorExpression>,
    /// The one class of every `&x` of each variable `x` that is not an array; of a member's
    /// address `&s.f` (`f` not an array member), under the key `("#member", "f")`.
    addresses: HashMap<VariableKey, usize>,
}

impl Uses<'_> {
    /// Notes `e` (without its casts) as an allocation converted at once to `void *`, if it is
    /// one.
    fn note_void_allocation(&mut self, e: &Node<Expression>) {
        let mut e = e;
        while let Expression::Cast(c) = &e.node {
            e = &c.node.expression;
        }
        if let Expression::Call(call) = &e.node {
            if let Some(start) = allocation_start(&call.node, self.parameters) {
                self.void_allocations.insert(start);
            }
        }
    }

    /// `e`, a subscript that no subscript indexes, names a row (`m[i]` of `int m[2][3]`,
    /// `(*c)[i]` of `int c[2][3][4]`): a pointer into the array, which then lives in a cell
    /// (also under `sizeof`, which costs only time).
    fn row_value(&mut self, e: &lang_c::ast::BinaryOperatorExpression) {
        let mut indices = 1;
        let mut base = &e.lhs;
        while let Expression::BinaryOperator(b) = &base.node {
            if b.node.operator.node != BinaryOperator::Index {
                break;
            }
            indices += 1;
            base = &b.node.lhs;
        }
        // `*m` is `m[0]`.
        if let Expression::UnaryOperator(u) = &base.node {
            if u.node.operator.node == UnaryOperator::Indirection {
                indices += 1;
                base = &u.node.operand;
            }
        }
        let Expression::Identifier(id) = &base.node else {
            return;
        };
        let key = self.key(&id.node.name);
        if (self.declarations.arrays.get(&key)).is_some_and(|&dimensions| dimensions > indices) {
            self.cells.insert(key);
        }
    }

    fn key(&self, name: &str) -> VariableKey {
        variable_key(&self.declarations.locals, &self.function, name)
    }

    /// The class of the variable `name`.
    fn variable(&mut self, name: &str) -> usize {
        let key = self.key(name);
        let id = self.classes.id(&key);
        if let Some(&dimensions) = self.declarations.arrays.get(&key) {
            self.array_class(id, key, dimensions);
        }
        id
    }

    /// Whether `cast` makes or ends a character view (`lower/views.rs`): a cast to a
    /// character pointer of a pointer made from a variable of another integer type, or back,
    /// or a cast to a pointer to integers of a pointer made from a struct variable.
    fn makes_view(&self, cast: &CastExpression) -> bool {
        let declarations = self.declarations;
        let target = cast_pointer_base(cast, &declarations.typedefs);
        let source = root_variable(&cast.expression)
            .and_then(|name| declarations.bases.get(&self.key(name)).copied());
        matches!(
            (target, source),
            (Some(Base::Character), Some(Base::Integer | Base::Struct))
                | (Some(Base::Integer), Some(Base::Character | Base::Struct))
        )
    }

    /// Notes that `class` is the array `key` of `dimensions`, and so are its rows: what it
    /// points to, but for the last dimension (`m[i]` of `int m[2][3]` decays as an array
    /// does, `lower/array.rs`).
    fn array_class(&mut self, mut class: usize, key: VariableKey, dimensions: usize) {
        self.arrays.insert(class, key.clone());
        for _ in 1..dimensions {
            class = self.classes.pointee(class);
            self.arrays.insert(class, key.clone());
            self.rows.insert(class);
        }
    }

    /// The array whose class (or one of whose rows' classes) `id` is in, if any: by class,
    /// since joining makes what a pointer to arrays points to one class with the rows.
    fn array_key(&self, id: usize) -> Option<VariableKey> {
        let root = self.classes.find(id);
        (self.arrays.iter())
            .find(|(&class, _)| self.classes.find(class) == root)
            .map(|(_, key)| key.clone())
    }

    fn is_array(&self, id: usize) -> bool {
        self.array_key(id).is_some()
    }

    /// Whether `id` is in the class of a row of a multi-dimensional array.
    fn is_row(&self, id: usize) -> bool {
        let root = self.classes.find(id);
        self.rows.iter().any(|&row| self.classes.find(row) == root)
    }

    fn sources(&mut self, e: &Node<Expression>) -> Sources {
        let mut sources = Sources::default();
        self.collect(e, &mut sources);
        sources
    }

    /// What the pointers of `sources` point to.
    fn pointees(&mut self, sources: Sources) -> Sources {
        let classes = (sources.classes.into_iter())
            .map(|class| self.classes.pointee(class))
            .collect();
        Sources {
            classes,
            element: false,
        }
    }

    fn collect(&mut self, e: &Node<Expression>, out: &mut Sources) {
        match &e.node {
            Expression::Identifier(id) => {
                let class = self.variable(&id.node.name);
                out.classes.push(class);
            }
            Expression::Member(m) => {
                let name = &m.node.identifier.node.name;
                let key = member_key(name);
                let class = self.classes.id(&key);
                // An array member decays as an array variable does (its box is its cell).
                if let Some(dimensions) = self.declarations.array_member(name) {
                    self.array_class(class, key, dimensions);
                }
                out.classes.push(class);
            }
            Expression::UnaryOperator(u) => match u.node.operator.node {
                UnaryOperator::Address => {
                    let operand = &u.node.operand;
                    out.element |= matches!(&operand.node,
                        Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index);
                    // A pointer to what the operand designates; every `&x` of a variable is
                    // one class, so that all of them are element pointers once one is (`x`
                    // is then an array of one).
                    let designated = self.sources(operand);
                    let variable = match &operand.node {
                        Expression::Identifier(id) => Some(self.key(&id.node.name))
                            .filter(|key| !self.declarations.arrays.contains_key(key)),
                        Expression::Member(m) => Some(member_key(&m.node.identifier.node.name))
                            .filter(|key| self.declarations.array_member(&key.1).is_none()),
                        _ => None,
                    };
                    let pointer = match variable {
                        Some(key) => {
                            let address = (key.0.clone(), format!("&{}", key.1));
                            let pointer = self.classes.id(&address);
                            self.addresses.insert(key, pointer);
                            pointer
                        }
                        None => self.classes.fresh(),
                    };
                    let pointee = self.classes.pointee(pointer);
                    for class in designated.classes {
                        self.classes.union(pointee, class);
                    }
                    out.classes.push(pointer);
                }
                UnaryOperator::Indirection => {
                    let pointers = self.sources(&u.node.operand);
                    out.classes.extend(self.pointees(pointers).classes);
                }
                // Arithmetic on a pointer gives a pointer into an array (on an integer, the
                // mark is never read).
                ref operator if moves(operator) => {
                    out.element = true;
                    self.collect(&u.node.operand, out)
                }
                _ => {}
            },
            Expression::BinaryOperator(b) => match b.node.operator.node {
                BinaryOperator::Plus
                | BinaryOperator::Minus
                | BinaryOperator::AssignPlus
                | BinaryOperator::AssignMinus => {
                    out.element = true;
                    self.collect(&b.node.lhs, out);
                    self.collect(&b.node.rhs, out);
                }
                BinaryOperator::Assign => self.collect(&b.node.lhs, out),
                BinaryOperator::Index => {
                    let pointers = self.sources(&b.node.lhs);
                    out.classes.extend(self.pointees(pointers).classes);
                }
                _ => {}
            },
            // A character view of integer objects is no pointer of their class: the objects
            // stay what the rest of the file makes them (an array operand lives in a cell).
            Expression::Cast(c) if self.makes_view(&c.node) => {
                self.decays(&c.node.expression, false)
            }
            // A member's address cast to a pointer (`(unsigned char *)&v.a`, a view of its
            // box, `lower/views.rs`) joins nothing: beyond the member lie its struct's other
            // members, which a box of one does not hold.
            Expression::Cast(c) if is_member_address(&c.node.expression) => {}
            // `container_of` points to another object than its operand (`lower/containers.rs`).
            Expression::Cast(c)
                if container_subtraction(&c.node, &self.declarations.typedefs).is_some() => {}
            // An array cast to a pointer decays (`*(long long *)a`): it lives in a cell.
            Expression::Cast(c) => {
                let typedefs = &self.declarations.typedefs;
                if cast_pointer_base(&c.node, typedefs).is_some() {
                    self.decays(&c.node.expression, false);
                }
                self.collect(&c.node.expression, out)
            }
            Expression::Call(call) => {
                // A defined function's result.
                if let Some(name) = callee_name(&call.node) {
                    if self.parameters.contains_key(name) {
                        out.classes.push(self.classes.id(&result_key(name)));
                    }
                }
                // The string functions that return a pointer into their first argument's array.
                if let Some(name) = callee_name(&call.node) {
                    let returns_first = !self.parameters.contains_key(name)
                        && MEMORY_FUNCTIONS.contains(&name)
                        && returns_into_first_argument(name);
                    if let (true, Some(first)) = (returns_first, call.node.arguments.first()) {
                        self.collect(first, out);
                    }
                }
                if let Some(start) = allocation_start(&call.node, self.parameters) {
                    out.classes.push(self.classes.id(&allocation_key(start)));
                    // `realloc(p, ...)` moves `p`'s objects: one class with `p`.
                    if let (Some("realloc"), Some(old)) =
                        (callee_name(&call.node), call.node.arguments.first())
                    {
                        self.collect(old, out);
                    }
                }
            }
            Expression::StringLiteral(_) => out.element = true,
            Expression::Conditional(c) => {
                self.collect(&c.node.then_expression, out);
                self.collect(&c.node.else_expression, out);
            }
            Expression::Comma(items) => {
                if let Some(last) = items.last() {
                    self.collect(last, out);
                }
            }
            _ => {}
        }
    }

    /// `target = source`: one class; an array makes it element pointers into the array (which
    /// lives in a cell), and `&a[i]` or arithmetic element pointers.
    fn assign(&mut self, target: usize, sources: Sources) {
        if sources.element {
            self.classes.mark(target);
        }
        for class in sources.classes {
            match self.array_key(class) {
                Some(array) => {
                    self.classes.mark(target);
                    self.cells.insert(array);
                    let (into, elements) =
                        (self.classes.pointee(target), self.classes.pointee(class));
                    self.classes.union(into, elements);
                }
                None => self.classes.union(target, class),
            }
        }
    }

    /// `lhs == rhs`: both sides in one class, which an array or an element address on either
    /// side makes element pointers.
    fn compare(&mut self, lhs: &Node<Expression>, rhs: &Node<Expression>) {
        let mut sources = self.sources(lhs);
        let right = self.sources(rhs);
        sources.element |= right.element;
        sources.classes.extend(right.classes);
        let Some(first) = sources
            .classes
            .iter()
            .find(|&&c| !self.is_array(c))
            .copied()
        else {
            return;
        };
        self.assign(first, sources);
    }

    /// A pointer argument of a library function over memory (`lower/library.rs`): an array
    /// decays into a pointer to its first element, so it lives in a cell; a pointer stays
    /// what the rest of the file makes it, but for a string (`strlen`'s), which points into an
    /// array of characters.
    fn decays(&mut self, argument: &Node<Expression>, string: bool) {
        for class in self.sources(argument).classes {
            match self.array_key(class) {
                Some(array) => {
                    self.cells.insert(array);
                }
                None if string => self.classes.mark(class),
                None => {}
            }
        }
    }

    /// Operands of pointer arithmetic, of an ordering or of a subscript: element pointers if
    /// pointers (an array operand decays, so it lives in a cell; a subscripted array is
    /// indexed where it is).
    fn arithmetic(&mut self, operand: &Node<Expression>, subscript: bool) {
        let sources = self.sources(operand);
        for class in sources.classes {
            match self.array_key(class) {
                Some(array) if !subscript => {
                    self.cells.insert(array);
                }
                Some(_) => {}
                None => self.classes.mark(class),
            }
        }
    }
}

impl<'ast> Visit<'ast> for Uses<'_> {
    fn visit_cast_expression(&mut self, cast: &'ast CastExpression, span: &'ast Span) {
        if let Some(subtraction) = container_subtraction(cast, &self.declarations.typedefs) {
            self.container_subtractions.insert(subtraction);
        }
        visit::visit_cast_expression(self, cast, span);
    }

    fn visit_declaration(&mut self, declaration: &'ast Declaration, span: &'ast Span) {
        let outer = self.declares_void;
        self.declares_void = declaration.specifiers.iter().any(|s| {
            matches!(&s.node, DeclarationSpecifier::TypeSpecifier(t) if matches!(t.node, TypeSpecifier::Void))
        });
        visit::visit_declaration(self, declaration, span);
        self.declares_void = outer;
    }

    fn visit_function_definition(
        &mut self,
        definition: &'ast FunctionDefinition,
        span: &'ast Span,
    ) {
        self.function = declarator_shape(&definition.declarator.node)
            .0
            .unwrap_or_default();
        self.void_pointers.clear();
        visit::visit_function_definition(self, definition, span);
        self.function.clear();
    }

    fn visit_statement(&mut self, statement: &'ast lang_c::ast::Statement, span: &'ast Span) {
        // `return e;` assigns the function's result.
        if let lang_c::ast::Statement::Return(Some(e)) = statement {
            if self.allocators.contains(&self.function) {
                self.note_void_allocation(e);
            }
            if !self.function.is_empty() {
                let result = self.classes.id(&result_key(&self.function));
                let sources = self.sources(e);
                self.assign(result, sources);
            }
        }
        visit::visit_statement(self, statement, span);
    }

    fn visit_init_declarator(&mut self, init: &'ast InitDeclarator, span: &'ast Span) {
        let (name, shape) = declarator_shape(&init.declarator.node);
        let void_pointer = self.declares_void && matches!(shape, Shape::Plain(1));
        match (void_pointer, &name) {
            (true, Some(name)) => self.void_pointers.insert(name.clone()),
            // A declaration of another type shadows the name from here on.
            (false, Some(name)) => self.void_pointers.remove(name),
            _ => false,
        };
        match (name, init.initializer.as_ref().map(|i| &i.node)) {
            (Some(name), Some(Initializer::Expression(e))) => {
                if void_pointer {
                    self.note_void_allocation(e);
                }
                // `char s[] = "ab"` copies the characters: the literal is not a value.
                if matches!(shape, Shape::Array(_))
                    && matches!(e.node, Expression::StringLiteral(_))
                {
                    return;
                }
                let target = self.variable(&name);
                let sources = self.sources(e);
                self.assign(target, sources);
            }
            // An array's items are its elements (`char *names[] = {"a", "b"}`).
            (Some(name), Some(Initializer::List(items))) if matches!(shape, Shape::Array(_)) => {
                let array = self.variable(&name);
                let elements = self.classes.pointee(array);
                for item in items {
                    if let (true, Initializer::Expression(e)) = (
                        item.node.designation.is_empty(),
                        &item.node.initializer.node,
                    ) {
                        let sources = self.sources(e);
                        self.assign(elements, sources);
                    }
                }
            }
            _ => {}
        }
        visit::visit_init_declarator(self, init, span);
    }

    /// An item of a braced initializer: `.member = e` assigns the member; any array named by
    /// an item decays (into an array of pointers or a pointer member), so it lives in a cell.
    fn visit_initializer_list_item(
        &mut self,
        item: &'ast lang_c::ast::InitializerListItem,
        span: &'ast Span,
    ) {
        if let Initializer::Expression(e) = &item.initializer.node {
            let sources = self.sources(e);
            match &item.designation[..] {
                [Node {
                    node: Designator::Member(member),
                    ..
                }] => {
                    let target = self.classes.id(&member_key(&member.node.name));
                    self.assign(target, sources);
                }
                _ => {
                    for class in sources.classes {
                        if let Some(array) = self.array_key(class) {
                            self.cells.insert(array);
                        }
                    }
                }
            }
        }
        visit::visit_initializer_list_item(self, item, span);
    }

    fn visit_string_literal(&mut self, _: &'ast lang_c::ast::StringLiteral, _: &'ast Span) {
        self.literal_values = true;
    }

    fn visit_binary_operator_expression(
        &mut self,
        e: &'ast lang_c::ast::BinaryOperatorExpression,
        span: &'ast Span,
    ) {
        use BinaryOperator as B;
        if e.operator.node == B::Index {
            match &e.lhs.node {
                Expression::BinaryOperator(inner) => {
                    self.inner_subscripts.insert(&inner.node);
                }
                Expression::UnaryOperator(row) => {
                    self.subscripted_rows.insert(&row.node);
                }
                _ => {}
            }
            if !self.inner_subscripts.contains(&std::ptr::from_ref(e)) {
                self.row_value(e);
            }
        }
        match e.operator.node {
            B::Assign => {
                let void_pointer = match &e.lhs.node {
                    Expression::Identifier(id) => self.void_pointers.contains(&id.node.name),
                    Expression::Member(m) => {
                        (self.declarations).void_pointer_member(&m.node.identifier.node.name)
                    }
                    _ => false,
                };
                if void_pointer {
                    self.note_void_allocation(&e.rhs);
                }
                let targets = self.sources(&e.lhs);
                let sources = self.sources(&e.rhs);
                for target in targets.classes {
                    if !self.is_array(target) {
                        self.assign(target, sources.clone());
                    }
                }
            }
            B::Index => self.arithmetic(&e.lhs, true),
            B::AssignPlus | B::AssignMinus => self.arithmetic(&e.lhs, false),
            B::Minus if self.container_subtractions.contains(&(e as *const _)) => {}
            B::Plus | B::Minus | B::Less | B::Greater | B::LessOrEqual | B::GreaterOrEqual => {
                // An operand that is itself a sum marks what its own operands do, when the
                // walk reaches it: marking it here too made a chain of `n` sums cost `n^2`
                // (a 200,000-term sum ran for minutes).
                for operand in [&e.lhs, &e.rhs] {
                    let sum = matches!(&operand.node, Expression::BinaryOperator(b)
                        if matches!(b.node.operator.node, B::Plus | B::Minus));
                    if !sum {
                        self.arithmetic(operand, false);
                    }
                }
            }
            // Compared pointers have one representation: both sides join one class (`p ==
            // a` compares with the array's first element).
            B::Equals | B::NotEquals => self.compare(&e.lhs, &e.rhs),
            _ => {}
        }
        visit::visit_binary_operator_expression(self, e, span);
    }

    fn visit_unary_operator_expression(
        &mut self,
        e: &'ast lang_c::ast::UnaryOperatorExpression,
        span: &'ast Span,
    ) {
        match e.operator.node {
            ref operator if moves(operator) => self.arithmetic(&e.operand, false),
            UnaryOperator::Address => {
                // `&a[i]`, `&m[i][j]`.
                let mut operand = &e.operand;
                while let Expression::BinaryOperator(b) = &operand.node {
                    if b.node.operator.node != B::Index {
                        break;
                    }
                    operand = &b.node.lhs;
                }
                if let (Expression::Identifier(id), false) =
                    (&operand.node, std::ptr::eq(operand, &e.operand))
                {
                    let key = self.key(&id.node.name);
                    if self.declarations.arrays.contains_key(&key) {
                        self.cells.insert(key);
                    }
                }
            }
            // `*m` of a multi-dimensional array is its first row, a pointer into it (as
            // `m[0]`); where a subscript indexes it, `row_value` decides.
            UnaryOperator::Indirection
                if !self.subscripted_rows.contains(&std::ptr::from_ref(e)) =>
            {
                if let Expression::Identifier(id) = &e.operand.node {
                    let key = self.key(&id.node.name);
                    if (self.declarations.arrays.get(&key))
                        .is_some_and(|&dimensions| dimensions > 1)
                    {
                        self.cells.insert(key);
                    }
                }
            }
            _ => {}
        }
        visit::visit_unary_operator_expression(self, e, span);
    }

    fn visit_call_expression(&mut self, call: &'ast lang_c::ast::CallExpression, span: &'ast Span) {
        if let Some(start) = allocation_start(call, self.parameters) {
            // A number of bytes converted to `void *` makes one object: in an allocator, of
            // its caller's type; elsewhere an opaque one (`lower/allocation.rs`).
            let void_bytes = allocates_bytes(call) && self.void_allocations.contains(&start);
            if makes_array(call) && !void_bytes {
                let class = self.classes.id(&allocation_key(start));
                self.classes.mark(class);
            }
        }
        if let Expression::Identifier(callee) = &call.callee.node {
            let name = callee.node.name.as_str();
            if let Some(parameters) = self.parameters.get(name) {
                for (parameter, argument) in parameters.iter().zip(&call.arguments) {
                    let parameter = self.classes.id(&(name.to_string(), parameter.clone()));
                    let sources = self.sources(argument);
                    // What they point to is one class whatever they are (an array's elements
                    // are what a pointer to them points to).
                    for &class in &sources.classes {
                        let (into, from) =
                            (self.classes.pointee(parameter), self.classes.pointee(class));
                        self.classes.union(into, from);
                    }
                    let recursive = self.recursive.contains(name);
                    self.bindings.push((parameter, sources, recursive));
                }
            }
            // The pointer arguments of library functions over memory (`lower/library.rs`)
            // and of KLEE's `klee_make_symbolic` (`lower/conventions.rs`).
            let pointer_arguments = match name {
                _ if self.parameters.contains_key(name) => 0..0,
                _ if MEMORY_FUNCTIONS.contains(&name) => pointer_arguments(name),
                _ if DUPLICATING_FUNCTIONS.contains(&name) => 0..1,
                "klee_make_symbolic" => 0..1,
                _ => 0..0,
            };
            let string = (MEMORY_FUNCTIONS.contains(&name) && reads_characters(name))
                || DUPLICATING_FUNCTIONS.contains(&name);
            for argument in call.arguments.get(pointer_arguments).unwrap_or_default() {
                self.decays(argument, string);
            }
            // Their literal arguments are never evaluated (`FnCx::output_statement`,
            // `FnCx::call`), unless a definition makes them ordinary calls; the strings an
            // output function prints are read as arrays of characters.
            let output = is_output_function(name)
                && !self.parameters.contains_key(name)
                && !self.declarations.bases.contains_key(&self.key(name));
            if output {
                for argument in printed_strings(name, call) {
                    self.decays(argument, true);
                }
            }
            let unevaluated =
                output || ERROR_FUNCTIONS.contains(&name) && !self.parameters.contains_key(name);
            if unevaluated {
                for argument in &call.arguments {
                    if !matches!(argument.node, Expression::StringLiteral(_)) {
                        self.visit_expression(&argument.node, &argument.span);
                    }
                }
                return;
            }
        }
        visit::visit_call_expression(self, call, span);
    }
}

use BinaryOperator as B;

/// The defined functions that can call themselves (by name: a call through a function pointer
/// is not followed, so such a function keeps array parameters, which only inlining passes,
/// and its recursive call is refused).
fn recursive_functions(unit: &TranslationUnit) -> HashSet<String> {
    let definitions: Vec<(String, &Node<FunctionDefinition>)> = (unit.0.iter())
        .filter_map(|declaration| match &declaration.node {
            lang_c::ast::ExternalDeclaration::FunctionDefinition(definition) => {
                let name = declarator_shape(&definition.node.declarator.node).0?;
                Some((name, definition))
            }
            _ => None,
        })
        .collect();
    let functions: HashSet<&str> = definitions.iter().map(|(name, _)| name.as_str()).collect();
    super::recursive_functions(&super::call_graph(&definitions, &functions, &[]))
}

/// The parameter names of each function definition.
fn parameters(unit: &TranslationUnit) -> HashMap<String, Vec<String>> {
    let mut out = HashMap::new();
    for declaration in &unit.0 {
        let lang_c::ast::ExternalDeclaration::FunctionDefinition(definition) = &declaration.node
        else {
            continue;
        };
        let (Some(name), Shape::Function(Some(declarator), _)) =
            declarator_shape(&definition.node.declarator.node)
        else {
            continue;
        };
        let names = declarator
            .node
            .parameters
            .iter()
            .filter_map(|p| p.node.declarator.as_ref())
            .filter_map(|d| declarator_shape(&d.node).0)
            .collect();
        out.insert(name, names);
    }
    out
}

/// The defined functions declared to return `void *`: the allocators whose allocations of a
/// number of bytes make no array by themselves (`lower/allocation.rs`, "Allocators").
fn void_pointer_functions(unit: &TranslationUnit) -> HashSet<String> {
    let mut out = HashSet::new();
    for declaration in &unit.0 {
        let lang_c::ast::ExternalDeclaration::FunctionDefinition(definition) = &declaration.node
        else {
            continue;
        };
        let void = definition.node.specifiers.iter().any(|s| {
            matches!(&s.node, DeclarationSpecifier::TypeSpecifier(t) if matches!(t.node, TypeSpecifier::Void))
        });
        if let (Some(name), Shape::Function(_, 1), true) = (
            declarator_shape(&definition.node.declarator.node).0,
            declarator_shape(&definition.node.declarator.node).1,
            void,
        ) {
            out.insert(name);
        }
    }
    out
}

/// The element pointers and cell arrays of the file (see the module comment).
pub(super) fn element_facts(unit: &TranslationUnit) -> ElementFacts {
    let mut declarations = Declarations::default();
    declarations.visit_translation_unit(unit);
    let parameters = parameters(unit);
    // A recursive function is lowered on its own, not inlined, and a parameter that is
    // moved cannot name the caller's array: such array parameters are what C makes them,
    // pointers into the caller's arrays (to their rows, for several dimensions).
    let mut pointer_parameters = Vec::new();
    let recursive = recursive_functions(unit);
    for (function, names) in &parameters {
        let whole = recursive.contains(function);
        for name in names {
            let key = (function.clone(), name.clone());
            let pointer = whole || declarations.modified.contains(&key);
            if pointer && declarations.declared_arrays.contains(&key) {
                declarations.arrays.remove(&key);
                pointer_parameters.push(key);
            }
        }
    }
    pointer_parameters.sort();
    let mut uses = Uses {
        declarations: &declarations,
        parameters: &parameters,
        function: String::new(),
        classes: Classes::default(),
        arrays: HashMap::new(),
        rows: HashSet::new(),
        bindings: Vec::new(),
        recursive: &recursive,
        allocators: void_pointer_functions(unit),
        declares_void: false,
        void_allocations: HashSet::new(),
        void_pointers: HashSet::new(),
        cells: HashSet::new(),
        literal_values: false,
        inner_subscripts: HashSet::new(),
        subscripted_rows: HashSet::new(),
        container_subtractions: HashSet::new(),
        addresses: HashMap::new(),
    };
    uses.visit_translation_unit(unit);
    for key in pointer_parameters
        .iter()
        .chain(&declarations.array_pointers)
    {
        let class = uses.classes.id(key);
        uses.classes.mark(class);
    }
    // A binding joins its sides once either is an element pointer; joining may make another
    // binding's side one, so until nothing changes.
    let bindings = std::mem::take(&mut uses.bindings);
    let mut done = vec![false; bindings.len()];
    loop {
        let mut changed = false;
        for (k, (parameter, sources, recursive)) in bindings.iter().enumerate() {
            // An array parameter that lives in a cell names the caller's array, which must.
            let parameter_in_cell =
                (uses.array_key(*parameter)).is_some_and(|key| uses.cells.contains(&key));
            if parameter_in_cell {
                for class in &sources.classes {
                    if let Some(array) = uses.array_key(*class) {
                        changed |= uses.cells.insert(array);
                    }
                }
            }
            if done[k] {
                continue;
            }
            // A row passed is a pointer into its array, which inlining cannot name; so is an
            // array passed to a recursive function.
            let element = sources.element
                || sources.classes.iter().any(|&c| uses.is_row(c))
                || (*recursive && sources.classes.iter().any(|&c| uses.is_array(c)))
                || uses.classes.is_element(*parameter)
                || (sources.classes.iter())
                    .any(|&c| !uses.is_array(c) && uses.classes.is_element(c));
            if element {
                let sources = Sources {
                    classes: sources.classes.clone(),
                    element: true,
                };
                uses.assign(*parameter, sources);
                done[k] = true;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    let (mut singletons, mut singleton_members) = (HashSet::new(), HashSet::new());
    for (key, class) in &uses.addresses {
        if !uses.classes.is_element(*class) {
            continue;
        }
        match key.0 == MEMBER {
            true => singleton_members.insert(key.1.clone()),
            false => singletons.insert(key.clone()),
        };
    }
    // Settled: every node's class by its root.
    let classes = &mut uses.classes;
    let count = classes.parent.len();
    let roots: Vec<usize> = (0..count).map(|id| classes.root(id)).collect();
    let element = roots.iter().map(|&root| classes.element[root]).collect();
    let pointee = (roots.iter())
        .map(|&root| classes.pointee[root].map(|p| roots[p]))
        .collect();
    let nodes = (classes.index.iter())
        .map(|(key, &id)| (key.clone(), roots[id]))
        .collect();
    ElementFacts {
        nodes,
        element,
        pointee,
        // An array member lives in its box already.
        cell_arrays: (uses.cells.iter())
            .filter(|(function, _)| function != MEMBER)
            .cloned()
            .collect(),
        locals: declarations.locals.clone(),
        literal_values: uses.literal_values,
        array_members: !declarations.array_members.is_empty(),
        recursive,
        singletons,
        singleton_members,
    }
}
