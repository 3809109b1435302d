//! Variable-length arrays (C99's `int a[n];` in a block) rewritten, before anything else reads
//! the file, into what they are at run time: storage for `n` elements on the stack and a pointer
//! to its first one, `T *a = __builtin_alloca(n * sizeof *a)`; one with constant inner
//! dimensions, `int a[n][3]`, into a pointer to its rows, `int (*a)[3] = __builtin_alloca(n *
//! sizeof *a)`. The size is evaluated once, where the declaration is, as C evaluates it; the
//! allocation (`lower/allocation.rs`) forks the run over the lengths it models and stops it
//! `unmodelled` on any other (0, negative or beyond the forked lengths: C leaves a size below 1
//! undefined), and every subscript of the pointer is checked against the length
//! (`out-of-bounds`), as for the array. The storage never ends, as `alloca`'s does not: neither
//! the block's end nor the function's return ends it, so a pointer kept past them is not
//! caught (`svcomp`'s `valid-memsafety` then answers no `TRUE`: `Translated::stack_addresses`).
//!
//! Where the pointer and the array differ, the rest of the block is refused: `sizeof a` (the
//! array's size, known only at run time), `&a` (a pointer to the whole array), and assigning or
//! moving `a` (C forbids it); so is a size that names the array's own name (the size's name is
//! another variable in C, whose scope of `a` starts after its declarator), and a label in the
//! array's scope that a jump from outside may reach (C forbids it: a `case` of a `switch`
//! around it, a label a `goto` outside names). So are a variable dimension other than the first
//! (`int a[3][n]`), and variable-length arrays outside a block's declarations (file scope, where
//! C forbids them, `static`, and a `for` statement's first clause), which stay as they were for
//! the lowering to refuse.
//!
//! A size is variable when it names something other than an enumeration constant outside a
//! `sizeof`, or calls a function: decided by syntax, before types are known. A constant-looking
//! size that is no integer constant expression after all is refused by the lowering, as before.
//! Nothing here lowers anything.

use std::collections::{HashMap, HashSet};

use lang_c::ast::{
    ArraySize, BinaryOperator, BinaryOperatorExpression, BlockItem, CallExpression, Declaration,
    DeclarationSpecifier, Declarator, DeclaratorKind, DerivedDeclarator, Enumerator, Expression,
    ExternalDeclaration, Identifier, InitDeclarator, Initializer, Label, OffsetOfExpression,
    SizeOfVal, Statement, StorageClassSpecifier, TranslationUnit, TypeName, UnaryOperator,
    UnaryOperatorExpression,
};
use lang_c::span::{Node, Span};
use lang_c::visit::{self, Visit};

use crate::error::CError;
use crate::source_map::SourceMap;

/// The function whose call a variable-length array becomes.
const STACK_ALLOCATION: &str = "__builtin_alloca";

/// Rewrites every variable-length array declared in a block of `unit`'s functions (see the
/// module comment); an error where a use of one differs between the array and the pointer.
pub(crate) fn rewrite(unit: &mut TranslationUnit, map: &SourceMap) -> Result<(), CError> {
    let mut enumerators = EnumerationConstants::default();
    enumerators.visit_translation_unit(unit);
    for external in &mut unit.0 {
        if let ExternalDeclaration::FunctionDefinition(definition) = &mut external.node {
            let mut gotos = Gotos::default();
            gotos.visit_statement(&definition.node.statement.node, &definition.span);
            let rewriter = Rewriter {
                enumeration_constants: &enumerators.names,
                gotos: gotos.targets,
                map,
            };
            rewriter.statement(&mut definition.node.statement)?;
        }
    }
    Ok(())
}

/// How many `goto`s name each label, in a function or a part of one.
#[derive(Default)]
struct Gotos {
    targets: HashMap<String, usize>,
}

impl<'ast> Visit<'ast> for Gotos {
    fn visit_statement(&mut self, statement: &'ast Statement, span: &'ast Span) {
        if let Statement::Goto(label) = statement {
            *self.targets.entry(label.node.name.clone()).or_default() += 1;
        }
        visit::visit_statement(self, statement, span);
    }
}

/// The names of the file's enumeration constants: the only identifiers a constant size names
/// outside `sizeof`.
#[derive(Default)]
struct EnumerationConstants {
    names: HashSet<String>,
}

impl<'ast> Visit<'ast> for EnumerationConstants {
    fn visit_enumerator(&mut self, enumerator: &'ast Enumerator, span: &'ast Span) {
        self.names.insert(enumerator.identifier.node.name.clone());
        visit::visit_enumerator(self, enumerator, span);
    }
}

struct Rewriter<'a> {
    enumeration_constants: &'a HashSet<String>,
    /// The `goto`s of the function being rewritten, by label.
    gotos: HashMap<String, usize>,
    map: &'a SourceMap,
}

impl Rewriter<'_> {
    fn statement(&self, statement: &mut Node<Statement>) -> Result<(), CError> {
        match &mut statement.node {
            Statement::Compound(items) => self.block(items),
            Statement::Labeled(l) => self.statement(&mut l.node.statement),
            Statement::If(i) => {
                self.statement(&mut i.node.then_statement)?;
                match &mut i.node.else_statement {
                    Some(e) => self.statement(e),
                    None => Ok(()),
                }
            }
            Statement::Switch(s) => self.statement(&mut s.node.statement),
            Statement::While(w) => self.statement(&mut w.node.statement),
            Statement::DoWhile(d) => self.statement(&mut d.node.statement),
            Statement::For(f) => self.statement(&mut f.node.statement),
            _ => Ok(()),
        }
    }

    fn block(&self, items: &mut [Node<BlockItem>]) -> Result<(), CError> {
        for position in 0..items.len() {
            let (before, rest) = items.split_at_mut(position + 1);
            match &mut before[position].node {
                BlockItem::Declaration(declaration) => {
                    for (index, name) in self.declaration(declaration)? {
                        let later = &declaration.node.declarators[index + 1..];
                        refuse_array_uses(&name, later, rest, self.map)?;
                        self.refuse_jumps_into(&name, later, rest)?;
                    }
                }
                BlockItem::Statement(statement) => self.statement(statement)?,
                BlockItem::StaticAssert(_) => {}
            }
        }
        Ok(())
    }

    /// Refuses a label in the scope of the variable-length array `name` (its declaration's
    /// `later` declarators and the `rest` of its block) that a jump from outside it may reach
    /// (C forbids jumping past the declaration of a variably modified type): a `case` or
    /// `default` of a `switch` around the array, or a label a `goto` outside names.
    fn refuse_jumps_into(
        &self,
        name: &str,
        later: &[Node<InitDeclarator>],
        rest: &[Node<BlockItem>],
    ) -> Result<(), CError> {
        let mut inside = Labels::default();
        for init in later {
            inside.visit_init_declarator(&init.node, &init.span);
        }
        for item in rest {
            inside.visit_block_item(&item.node, &item.span);
        }
        let from_outside = |label: &String| {
            let all = self.gotos.get(label).copied().unwrap_or(0);
            all > inside.gotos.targets.get(label).copied().unwrap_or(0)
        };
        let jump = (inside.switch_labels.first().copied())
            .or_else(|| (inside.labels.iter()).find_map(|(l, at)| from_outside(l).then_some(*at)));
        match jump {
            Some(at) => Err(CError::invalid(
                format!(
                    "a jump into the scope of the variable-length array `{name}` (C forbids it)"
                ),
                self.map.offset(at),
            )),
            None => Ok(()),
        }
    }

    /// Rewrites the variable-length arrays `declaration` declares, returning their positions
    /// among its declarators and their names.
    fn declaration(
        &self,
        declaration: &mut Node<Declaration>,
    ) -> Result<Vec<(usize, String)>, CError> {
        let automatic = !declaration.node.specifiers.iter().any(|s| {
            matches!(&s.node, DeclarationSpecifier::StorageClass(c)
                if matches!(c.node, StorageClassSpecifier::Static
                    | StorageClassSpecifier::Extern
                    | StorageClassSpecifier::Typedef))
        });
        let mut names = Vec::new();
        if !automatic {
            return Ok(names);
        }
        for (index, init) in declaration.node.declarators.iter_mut().enumerate() {
            let declarator = &mut init.node.declarator;
            let DeclaratorKind::Identifier(name) = &declarator.node.kind.node else {
                continue;
            };
            let name = name.clone();
            // The element's pointer levels come first, then the dimensions, outermost first.
            let first_array = declarator
                .node
                .derived
                .iter()
                .position(|d| matches!(d.node, DerivedDeclarator::Array(_)));
            let Some(first_array) = first_array else {
                continue;
            };
            let sizes: Vec<Option<&Node<Expression>>> = declarator.node.derived[first_array..]
                .iter()
                .map(|d| match &d.node {
                    DerivedDeclarator::Array(a) => match &a.node.size {
                        ArraySize::VariableExpression(e) | ArraySize::StaticExpression(e) => {
                            Some(&**e)
                        }
                        _ => None,
                    },
                    _ => None,
                })
                .collect();
            let variable: Vec<bool> = (sizes.iter())
                .map(|size| size.is_some_and(|e| self.is_variable(e)))
                .collect();
            if !variable.iter().any(|&v| v) {
                continue;
            }
            let at = self.map.offset(declarator.span.start);
            if variable[1..].iter().any(|&v| v) {
                return Err(CError::unsupported(
                    format!(
                        "the variable-length array `{}` with a variable dimension other than \
                         its first",
                        name.node.name
                    ),
                    at,
                ));
            }
            if first_array > 0 && declarator.node.derived.len() > first_array + 1 {
                return Err(CError::unsupported(
                    format!(
                        "the variable-length array `{}` of arrays of pointers",
                        name.node.name
                    ),
                    at,
                ));
            }
            if init.node.initializer.is_some() {
                return Err(CError::invalid(
                    format!(
                        "the variable-length array `{}` has an initializer (C forbids it)",
                        name.node.name
                    ),
                    at,
                ));
            }
            let Some(size) = sizes[0].cloned() else {
                continue;
            };
            // The array's name is not in scope in its own declarator (C11 6.2.1p7), but it
            // would be in the allocation's.
            let mut own = ArrayUses {
                name: &name.node.name,
                found: None,
                any_use: true,
            };
            own.visit_expression(&size.node, &size.span);
            if own.found.is_some() {
                return Err(CError::unsupported(
                    format!(
                        "the variable-length array `{}` sized by another variable of its name",
                        name.node.name
                    ),
                    at,
                ));
            }
            let span = declarator.span;
            as_pointer(&mut declarator.node, first_array, span);
            init.node.initializer = Some(Node::new(
                Initializer::Expression(Box::new(stack_allocation(&name, size))),
                span,
            ));
            names.push((index, name.node.name));
        }
        Ok(names)
    }

    /// Whether the size `e` may differ from run to run (see the module comment).
    fn is_variable(&self, e: &Node<Expression>) -> bool {
        let mut finder = VariableSize {
            enumeration_constants: self.enumeration_constants,
            found: false,
        };
        finder.visit_expression(&e.node, &e.span);
        finder.found
    }
}

struct VariableSize<'a> {
    enumeration_constants: &'a HashSet<String>,
    found: bool,
}

impl<'ast> Visit<'ast> for VariableSize<'_> {
    fn visit_identifier(&mut self, identifier: &'ast Identifier, _: &'ast Span) {
        self.found |= !self.enumeration_constants.contains(&identifier.name);
    }

    fn visit_call_expression(&mut self, _: &'ast CallExpression, _: &'ast Span) {
        self.found = true;
    }

    // `sizeof` and `_Alignof` do not evaluate their operand (a variable-length array type in
    // one is refused by the lowering).
    fn visit_expression(&mut self, expression: &'ast Expression, span: &'ast Span) {
        match expression {
            Expression::SizeOfVal(_) | Expression::SizeOfTy(_) | Expression::AlignOf(_) => {}
            _ => visit::visit_expression(self, expression, span),
        }
    }

    // A type names no variable (a cast's `size_t`, a `struct` tag).
    fn visit_type_name(&mut self, _: &'ast TypeName, _: &'ast Span) {}

    // `offsetof`'s member names are no variables.
    fn visit_offset_of_expression(&mut self, _: &'ast OffsetOfExpression, _: &'ast Span) {}
}

/// `declarator`'s dimension at `first_array` (its first) made a pointer: `a[n]` becomes `*a`,
/// `a[n][3]` becomes `(*a)[3]` (a declarator inside one, as the parser gives it).
fn as_pointer(declarator: &mut Declarator, first_array: usize, span: Span) {
    let pointer = Node::new(DerivedDeclarator::Pointer(Vec::new()), span);
    if declarator.derived.len() == first_array + 1 {
        declarator.derived[first_array] = pointer;
        return;
    }
    let inner = Declarator {
        kind: declarator.kind.clone(),
        derived: vec![pointer],
        extensions: Vec::new(),
    };
    declarator.kind = Node::new(
        DeclaratorKind::Declarator(Box::new(Node::new(inner, span))),
        span,
    );
    declarator.derived.remove(first_array);
}

/// `__builtin_alloca((size) * sizeof *name)`, located at the declarator's name (an allocation
/// is known by where its callee starts: `lower/elements.rs`).
fn stack_allocation(name: &Node<Identifier>, size: Node<Expression>) -> Node<Expression> {
    fn node<T>(value: T, at: &Node<Identifier>) -> Node<T> {
        Node::new(value, at.span)
    }
    let element = node(
        Expression::UnaryOperator(Box::new(node(
            UnaryOperatorExpression {
                operator: node(UnaryOperator::Indirection, name),
                operand: Box::new(node(Expression::Identifier(Box::new(name.clone())), name)),
            },
            name,
        ))),
        name,
    );
    let bytes = node(
        Expression::BinaryOperator(Box::new(node(
            BinaryOperatorExpression {
                operator: node(BinaryOperator::Multiply, name),
                lhs: Box::new(size),
                rhs: Box::new(node(
                    Expression::SizeOfVal(Box::new(node(SizeOfVal(Box::new(element)), name))),
                    name,
                )),
            },
            name,
        ))),
        name,
    );
    let callee = Identifier {
        name: STACK_ALLOCATION.to_string(),
    };
    node(
        Expression::Call(Box::new(node(
            CallExpression {
                callee: Box::new(node(
                    Expression::Identifier(Box::new(node(callee, name))),
                    name,
                )),
                arguments: vec![bytes],
            },
            name,
        ))),
        name,
    )
}

/// Refuses, in the rest of the block after the declaration of the variable-length array
/// `name` (and in its declaration's `later` declarators, sizes included), a use that means the
/// array rather than the pointer it became (see the module comment). Names are not resolved: a use of another
/// variable of the same name in an inner block is refused too.
fn refuse_array_uses(
    name: &str,
    later: &[Node<InitDeclarator>],
    rest: &[Node<BlockItem>],
    map: &SourceMap,
) -> Result<(), CError> {
    let mut uses = ArrayUses {
        name,
        found: None,
        any_use: false,
    };
    for init in later {
        uses.visit_init_declarator(&init.node, &init.span);
    }
    for item in rest {
        uses.visit_block_item(&item.node, &item.span);
    }
    match uses.found {
        Some((what, at)) => Err(CError::unsupported(
            format!("{what} of the variable-length array `{name}`"),
            map.offset(at),
        )),
        None => Ok(()),
    }
}

struct ArrayUses<'a> {
    name: &'a str,
    found: Option<(&'static str, usize)>,
    /// Whether every mention of the name counts, not only the uses that mean the array.
    any_use: bool,
}

impl ArrayUses<'_> {
    fn names_it(&self, e: &Node<Expression>) -> bool {
        matches!(&e.node, Expression::Identifier(i) if i.node.name == self.name)
    }

    fn found(&mut self, what: &'static str, span: &Span) {
        self.found.get_or_insert((what, span.start));
    }
}

impl<'ast> Visit<'ast> for ArrayUses<'_> {
    fn visit_expression(&mut self, expression: &'ast Expression, span: &'ast Span) {
        if let Expression::Identifier(i) = expression {
            if self.any_use && i.node.name == self.name {
                self.found("a mention", span);
            }
        }
        if let Expression::SizeOfVal(size_of) = expression {
            if self.names_it(&size_of.node.0) {
                self.found("`sizeof`", span);
            }
        }
        visit::visit_expression(self, expression, span);
    }

    fn visit_unary_operator_expression(
        &mut self,
        unary: &'ast UnaryOperatorExpression,
        span: &'ast Span,
    ) {
        if self.names_it(&unary.operand) {
            match unary.operator.node {
                UnaryOperator::Address => self.found("the address `&`", span),
                UnaryOperator::PreIncrement
                | UnaryOperator::PreDecrement
                | UnaryOperator::PostIncrement
                | UnaryOperator::PostDecrement => self.found("a change", span),
                _ => {}
            }
        }
        visit::visit_unary_operator_expression(self, unary, span);
    }

    fn visit_binary_operator_expression(
        &mut self,
        binary: &'ast BinaryOperatorExpression,
        span: &'ast Span,
    ) {
        let assigns = matches!(
            binary.operator.node,
            BinaryOperator::Assign
                | BinaryOperator::AssignMultiply
                | BinaryOperator::AssignDivide
                | BinaryOperator::AssignModulo
                | BinaryOperator::AssignPlus
                | BinaryOperator::AssignMinus
                | BinaryOperator::AssignShiftLeft
                | BinaryOperator::AssignShiftRight
                | BinaryOperator::AssignBitwiseAnd
                | BinaryOperator::AssignBitwiseXor
                | BinaryOperator::AssignBitwiseOr
        );
        if assigns && self.names_it(&binary.lhs) {
            self.found("an assignment", span);
        }
        visit::visit_binary_operator_expression(self, binary, span);
    }
}

/// The labels in a part of a function: `case` and `default` labels of `switch` statements
/// around it (not of one inside it), every named label, and the `goto`s inside it.
#[derive(Default)]
struct Labels {
    switch_labels: Vec<usize>,
    labels: Vec<(String, usize)>,
    gotos: Gotos,
}

impl<'ast> Visit<'ast> for Labels {
    fn visit_statement(&mut self, statement: &'ast Statement, span: &'ast Span) {
        match statement {
            Statement::Labeled(l) => match &l.node.label.node {
                Label::Identifier(name) => self.labels.push((name.node.name.clone(), span.start)),
                Label::Case(_) | Label::CaseRange(_) | Label::Default => {
                    self.switch_labels.push(span.start)
                }
            },
            Statement::Goto(_) => self.gotos.visit_statement(statement, span),
            // Its own `case` labels are jumps within it; its named labels and `goto`s count.
            Statement::Switch(inner) => {
                let mut nested = Labels::default();
                nested.visit_statement(&inner.node.statement.node, &inner.node.statement.span);
                self.labels.extend(nested.labels);
                for (label, count) in nested.gotos.targets {
                    *self.gotos.targets.entry(label).or_default() += count;
                }
                return;
            }
            _ => {}
        }
        visit::visit_statement(self, statement, span);
    }
}
