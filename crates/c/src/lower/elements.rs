//! Which pointer variables point into arrays, and which arrays must live in memory cells so that
//! they can be pointed into: decided for the whole file before any body is lowered, by name, as
//! `&x` decides which variables live in cells.
//!
//! A C pointer of the subset is an IR pointer to a whole cell; a pointer into an array (an
//! *element pointer*, `lower/element_pointer.rs`) is a pair of the array's cell and an index.
//! Both have one C type, so the choice is made per variable, from how the file uses it: a
//! variable is an element pointer when pointer arithmetic (`p + k`, `p++`, `p -= k`) or an
//! ordering (`p < q`) applies to it, or when it is assigned (initialized, passed as an argument
//! of a defined function) an array, `&a[i]`, a string literal, the result of pointer arithmetic,
//! or another element pointer, or is subscripted (`p[i]` is `*(p + i)`). A struct member is
//! such a variable by its name (in every struct: `s.data` and `p->data` are one), and an
//! allocation is an array when it counts objects (`malloc(n * sizeof(T))`) or its result joins
//! such a class. Assignments (and `==`) join their two sides into one class
//! (union-find), so that `q = p` makes both element pointers or neither. An array that decays into an element pointer, or whose element's address is taken,
//! lives in a cell. Names are resolved per function (a local or parameter of the function, else
//! a global), ignoring block scopes.
//!
//! The choice only decides representations: a variable chosen wrongly (an element pointer that
//! is also assigned `&x` or `malloc`'s object) is refused when it is lowered, never
//! mis-translated. Nothing here emits IR.

use std::collections::{HashMap, HashSet};

use lang_c::ast::{
    BinaryOperator, CallExpression, Declarator, Designator, Expression, FunctionDefinition,
    InitDeclarator, Initializer, StructDeclaration, TranslationUnit, UnaryOperator,
};
use lang_c::span::{Node, Span};
use lang_c::visit::{self, Visit};

use super::allocation::{allocation_size, ALLOCATING_FUNCTIONS};
use super::expr::{ERROR_FUNCTIONS, OUTPUT_FUNCTIONS};
use super::types::{declarator_shape, Shape};

/// A variable: the function it is a local or parameter of (`""` for a global), and its name.
/// An allocation (`malloc(...)`) is a variable of the function [`ALLOCATION`] named by where
/// its callee's name starts in the file, so that it joins a class like a variable.
pub(super) type VariableKey = (String, String);

/// The function of allocations' keys (not a C name).
const ALLOCATION: &str = "#allocation";

/// The function of struct members' keys (not a C name): a member is one variable by its name,
/// in every struct, as `&` decides which members live in boxes.
const MEMBER: &str = "#member";

fn member_key(name: &str) -> VariableKey {
    (MEMBER.to_string(), name.to_string())
}

/// The key of the allocation `call`, if it is one (the file does not define the function).
fn allocation_key(
    call: &CallExpression,
    parameters: &HashMap<String, Vec<String>>,
) -> Option<VariableKey> {
    let Expression::Identifier(callee) = &call.callee.node else {
        return None;
    };
    let name = callee.node.name.as_str();
    (ALLOCATING_FUNCTIONS.contains(&name) && !parameters.contains_key(name))
        .then(|| (ALLOCATION.to_string(), call.callee.span.start.to_string()))
}

/// Whether the allocation `call` makes more than one object (so an array).
fn counts_objects(call: &CallExpression) -> bool {
    let calloc =
        matches!(&call.callee.node, Expression::Identifier(id) if id.node.name == "calloc");
    allocation_size(calloc, &call.arguments).is_some_and(|size| size.count.is_some())
}

/// The file's element pointers and the arrays that live in cells.
#[derive(Debug, Default)]
pub(super) struct ElementFacts {
    pointers: HashSet<VariableKey>,
    /// The allocations that make arrays: where their callee's name starts.
    allocations: HashSet<usize>,
    /// The names of the pointer members that point into arrays (in every struct).
    members: HashSet<String>,
    /// The names of the arrays that live in cells: by name, as `&x` decides it for variables
    /// (`Unit::address_taken`, which they join).
    pub cell_arrays: HashSet<String>,
    /// Whether a string literal is used as a value (a pointer to its characters), not only
    /// to initialize a character array or as an argument of an output or error function: then
    /// writes through pointers to characters check that they do not write into one.
    pub literal_values: bool,
}

impl ElementFacts {
    /// Whether the variable `name` of `function` (`""` for a global) is an element pointer.
    pub fn is_element_pointer(&self, function: &str, name: &str) -> bool {
        self.pointers
            .contains(&(function.to_string(), name.to_string()))
    }

    /// Whether pointer members named `name` (in any struct) are element pointers.
    pub fn is_element_member(&self, name: &str) -> bool {
        self.members.contains(name)
    }

    /// Whether the allocation whose callee's name starts at `start` makes an array: it counts
    /// objects, or its result reaches an element pointer (`lower/allocation.rs`).
    pub fn is_element_allocation(&self, start: usize) -> bool {
        self.allocations.contains(&start)
    }
}

/// What the file's declarations say: the names local to each function, and which variables
/// are arrays.
#[derive(Default)]
struct Declarations {
    locals: HashMap<String, HashSet<String>>,
    arrays: HashSet<VariableKey>,
    function: Option<String>,
}

impl<'ast> Visit<'ast> for Declarations {
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
                    if matches!(shape, Shape::Array(_)) {
                        self.arrays.insert((function, name));
                    }
                }
            }
        }
        visit::visit_declarator(self, declarator, span);
    }

    // Members are not variables.
    fn visit_struct_declaration(&mut self, _: &'ast StructDeclaration, _: &'ast Span) {}
}

/// Union-find over variables, with what makes a class element pointers.
#[derive(Default)]
struct Classes {
    index: HashMap<VariableKey, usize>,
    parent: Vec<usize>,
    element: Vec<bool>,
}

impl Classes {
    fn id(&mut self, key: &VariableKey) -> usize {
        if let Some(&id) = self.index.get(key) {
            return id;
        }
        let id = self.parent.len();
        self.parent.push(id);
        self.element.push(false);
        self.index.insert(key.clone(), id);
        id
    }

    fn root(&mut self, mut id: usize) -> usize {
        while self.parent[id] != id {
            self.parent[id] = self.parent[self.parent[id]];
            id = self.parent[id];
        }
        id
    }

    fn union(&mut self, a: &VariableKey, b: &VariableKey) {
        let (a, b) = (self.id(a), self.id(b));
        let (a, b) = (self.root(a), self.root(b));
        if a != b {
            self.parent[b] = a;
            self.element[a] |= self.element[b];
        }
    }

    fn mark(&mut self, key: &VariableKey) {
        let id = self.id(key);
        let root = self.root(id);
        self.element[root] = true;
    }

    fn is_element(&mut self, key: &VariableKey) -> bool {
        let id = self.id(key);
        let root = self.root(id);
        self.element[root]
    }
}

/// The names an expression's pointer value may come from, and whether it points into an array
/// whatever they are (`&a[i]`, pointer arithmetic, a string literal).
#[derive(Default)]
struct Sources {
    names: Vec<VariableKey>,
    element: bool,
}

/// The second walk: assignments, arithmetic and calls.
struct Uses<'d> {
    declarations: &'d Declarations,
    /// Parameters of each defined function, in order.
    parameters: &'d HashMap<String, Vec<String>>,
    function: String,
    classes: Classes,
    /// A parameter and the sources of an argument passed to it: joined only where either side
    /// is an element pointer (an array passed to a parameter that is only indexed stays the
    /// caller's array, `FnCx::argument`).
    bindings: Vec<(VariableKey, Sources)>,
    cells: HashSet<VariableKey>,
    literal_values: bool,
}

impl Uses<'_> {
    fn key(&self, name: &str) -> VariableKey {
        let local = self
            .declarations
            .locals
            .get(&self.function)
            .is_some_and(|names| names.contains(name));
        match local {
            true => (self.function.clone(), name.to_string()),
            false => (String::new(), name.to_string()),
        }
    }

    fn is_array(&self, key: &VariableKey) -> bool {
        self.declarations.arrays.contains(key)
    }

    fn sources(&self, e: &Node<Expression>) -> Sources {
        let mut sources = Sources::default();
        self.collect(e, &mut sources);
        sources
    }

    fn collect(&self, e: &Node<Expression>, out: &mut Sources) {
        match &e.node {
            Expression::Identifier(id) => out.names.push(self.key(&id.node.name)),
            Expression::UnaryOperator(u) => match u.node.operator.node {
                UnaryOperator::Address => {
                    out.element |= matches!(&u.node.operand.node,
                        Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index)
                }
                // Arithmetic on a pointer gives a pointer into an array (on an integer, the
                // mark is never read).
                UnaryOperator::PreIncrement
                | UnaryOperator::PreDecrement
                | UnaryOperator::PostIncrement
                | UnaryOperator::PostDecrement => {
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
                _ => {}
            },
            Expression::Cast(c) => self.collect(&c.node.expression, out),
            Expression::Member(m) => out.names.push(member_key(&m.node.identifier.node.name)),
            Expression::Call(call) => {
                if let Some(key) = allocation_key(&call.node, self.parameters) {
                    out.names.push(key);
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

    /// `target = source`: one class; an array or `&a[i]` makes it element pointers, and the
    /// arrays live in cells.
    fn assign(&mut self, target: &VariableKey, sources: Sources) {
        if sources.element {
            self.classes.mark(target);
        }
        for name in &sources.names {
            if self.is_array(name) {
                self.classes.mark(target);
                self.cells.insert(name.clone());
            } else {
                self.classes.union(target, name);
            }
        }
    }

    /// `lhs == rhs`: the variables of both sides in one class, which an array or an element
    /// address on either side makes element pointers.
    fn compare(&mut self, lhs: &Node<Expression>, rhs: &Node<Expression>) {
        let mut sources = self.sources(lhs);
        let right = self.sources(rhs);
        sources.element |= right.element;
        sources.names.extend(right.names);
        let Some(first) = sources.names.iter().find(|n| !self.is_array(n)).cloned() else {
            return;
        };
        self.assign(&first, sources);
    }

    /// Operands of pointer arithmetic or of an ordering: element pointers if pointers (and an
    /// array operand decays, so it lives in a cell).
    fn arithmetic(&mut self, operand: &Node<Expression>) {
        match &operand.node {
            Expression::Identifier(id) => {
                let key = self.key(&id.node.name);
                match self.is_array(&key) {
                    true => {
                        self.cells.insert(key);
                    }
                    false => self.classes.mark(&key),
                }
            }
            Expression::Member(m) => self.classes.mark(&member_key(&m.node.identifier.node.name)),
            _ => {}
        }
    }

    /// The base of a subscript `base[i]`, which is `*(base + i)`: an element pointer if a
    /// pointer (an array variable is indexed where it is).
    fn subscript(&mut self, base: &Node<Expression>) {
        match &base.node {
            Expression::Identifier(id) if !self.is_array(&self.key(&id.node.name)) => {
                self.arithmetic(base)
            }
            Expression::Member(_) => self.arithmetic(base),
            _ => {}
        }
    }
}

impl<'ast> Visit<'ast> for Uses<'_> {
    fn visit_function_definition(
        &mut self,
        definition: &'ast FunctionDefinition,
        span: &'ast Span,
    ) {
        self.function = declarator_shape(&definition.declarator.node)
            .0
            .unwrap_or_default();
        visit::visit_function_definition(self, definition, span);
        self.function.clear();
    }

    fn visit_init_declarator(&mut self, init: &'ast InitDeclarator, span: &'ast Span) {
        let (name, shape) = declarator_shape(&init.declarator.node);
        if let (Some(name), Some(Initializer::Expression(e))) =
            (name, init.initializer.as_ref().map(|i| &i.node))
        {
            // `char s[] = "ab"` copies the characters: the literal is not a value.
            if matches!(shape, Shape::Array(_)) && matches!(e.node, Expression::StringLiteral(_)) {
                return;
            }
            let target = self.key(&name);
            let sources = self.sources(e);
            self.assign(&target, sources);
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
                }] => self.assign(&member_key(&member.node.name), sources),
                _ => {
                    let arrays: Vec<VariableKey> = (sources.names.into_iter())
                        .filter(|n| self.is_array(n))
                        .collect();
                    self.cells.extend(arrays);
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
        match e.operator.node {
            B::Assign => {
                let target = match &e.lhs.node {
                    Expression::Identifier(id) => Some(self.key(&id.node.name)),
                    Expression::Member(m) => Some(member_key(&m.node.identifier.node.name)),
                    _ => None,
                };
                if let Some(target) = target {
                    let sources = self.sources(&e.rhs);
                    self.assign(&target, sources);
                }
            }
            B::Index => self.subscript(&e.lhs),
            B::AssignPlus | B::AssignMinus => self.arithmetic(&e.lhs),
            B::Plus | B::Minus | B::Less | B::Greater | B::LessOrEqual | B::GreaterOrEqual => {
                self.arithmetic(&e.lhs);
                self.arithmetic(&e.rhs);
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
            UnaryOperator::PreIncrement
            | UnaryOperator::PreDecrement
            | UnaryOperator::PostIncrement
            | UnaryOperator::PostDecrement => self.arithmetic(&e.operand),
            UnaryOperator::Address => {
                if let Expression::BinaryOperator(b) = &e.operand.node {
                    if let (B::Index, Expression::Identifier(id)) =
                        (b.node.operator.node.clone(), &b.node.lhs.node)
                    {
                        let key = self.key(&id.node.name);
                        if self.is_array(&key) {
                            self.cells.insert(key);
                        }
                    }
                }
            }
            _ => {}
        }
        visit::visit_unary_operator_expression(self, e, span);
    }

    fn visit_call_expression(&mut self, call: &'ast lang_c::ast::CallExpression, span: &'ast Span) {
        if let Some(key) = allocation_key(call, self.parameters) {
            if counts_objects(call) {
                self.classes.mark(&key);
            }
        }
        if let Expression::Identifier(callee) = &call.callee.node {
            let name = callee.node.name.as_str();
            if let Some(parameters) = self.parameters.get(name) {
                for (parameter, argument) in parameters.iter().zip(&call.arguments) {
                    let parameter = (name.to_string(), parameter.clone());
                    let sources = self.sources(argument);
                    self.bindings.push((parameter, sources));
                }
            }
            // Their literal arguments are never evaluated (`FnCx::output_statement`,
            // `FnCx::call`), unless a definition makes them ordinary calls.
            let unevaluated = (OUTPUT_FUNCTIONS.contains(&name) || ERROR_FUNCTIONS.contains(&name))
                && !self.parameters.contains_key(name);
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

/// The element pointers and cell arrays of the file (see the module comment).
pub(super) fn element_facts(unit: &TranslationUnit) -> ElementFacts {
    let mut declarations = Declarations::default();
    declarations.visit_translation_unit(unit);
    let parameters = parameters(unit);
    let mut uses = Uses {
        declarations: &declarations,
        parameters: &parameters,
        function: String::new(),
        classes: Classes::default(),
        bindings: Vec::new(),
        cells: HashSet::new(),
        literal_values: false,
    };
    uses.visit_translation_unit(unit);
    // A binding joins its sides once either is an element pointer; joining may make another
    // binding's side one, so until nothing changes.
    let bindings = std::mem::take(&mut uses.bindings);
    let is_array = |name: &VariableKey| declarations.arrays.contains(name);
    let mut done = vec![false; bindings.len()];
    loop {
        let mut changed = false;
        for (k, (parameter, sources)) in bindings.iter().enumerate() {
            // An array parameter that lives in a cell names the caller's array, which must.
            if uses.cells.contains(parameter) {
                for name in sources.names.iter().filter(|n| is_array(n)) {
                    changed |= uses.cells.insert(name.clone());
                }
            }
            if done[k] {
                continue;
            }
            let element = sources.element
                || uses.classes.is_element(parameter)
                || (sources.names.iter()).any(|n| !is_array(n) && uses.classes.is_element(n));
            if element {
                let sources = Sources {
                    names: sources.names.clone(),
                    element: true,
                };
                uses.assign(parameter, sources);
                done[k] = true;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    let mut facts = ElementFacts {
        cell_arrays: uses.cells.iter().map(|(_, name)| name.clone()).collect(),
        literal_values: uses.literal_values,
        ..ElementFacts::default()
    };
    let keys: Vec<VariableKey> = uses.classes.index.keys().cloned().collect();
    for key in keys {
        if !uses.classes.is_element(&key) {
            continue;
        }
        match key.0.as_str() {
            ALLOCATION => facts.allocations.extend(key.1.parse::<usize>()),
            MEMBER => {
                facts.members.insert(key.1);
            }
            _ => {
                facts.pointers.insert(key);
            }
        }
    }
    facts
}
