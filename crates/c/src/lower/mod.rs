//! A parsed translation unit lowered into a [`Module`]: declarations are read first (function
//! signatures, typedefs, globals), then every function body is lowered (`func`, `stmt`, `expr`).
//!
//! File-scope variables become locals of `main` initialized on entry (their initializer, or 0
//! as for static storage), which is exact because `main` runs once (a call of `main` is refused
//! in a program with globals). Where another function mentions a global, every call in `main`
//! is inlined (`FnCx::inline_call`), so that the globals stay `main`'s locals. Where such a
//! program is recursive, the globals live in cells of `main` instead and reach the functions
//! that use them as hidden pointer parameters ([`Unit::globals_by_reference`]). The other
//! functions are still lowered on their own where they can be.
//!
//! Types are resolved in `types`; anything outside the supported subset is a [`CError`] with
//! kind `Unsupported` at the construct. Nothing here runs the preprocessor or the parser.

mod allocation;
mod array;
mod array_init;
mod byte_functions;
mod constant;
mod containers;
pub(crate) mod conventions;
mod element_pointer;
mod elements;
mod expr;
mod func;
mod function_pointers;
mod generic_pointers;
mod integer_pointers;
mod leaks;
mod library;
mod literal;
mod memory;
mod nondet_locals;
mod output;
mod stmt;
mod strings;
mod types;
mod unions;
mod variable_length;
mod view_access;
mod views;

use std::cell::{Cell, RefCell};
use std::collections::{HashMap, HashSet};

use lang_c::ast::{
    Declaration, DeclarationSpecifier, Declarator, ExternalDeclaration, FunctionDefinition,
    Identifier, Initializer, StorageClassSpecifier, TranslationUnit,
};
use lang_c::span::Node;
use lang_c::visit::Visit;
use symex_ir::cfg::{FieldId, FuncId, Module, Property};
use symex_syntax::types::TypeTable;

use crate::error::CError;
use crate::source_map::SourceMap;
use crate::{Options, Translated};
use elements::VariableKey;
use types::{declarator_shape, CType, Shape, Types};

/// What a call needs to know about a defined function.
struct Signature {
    id: FuncId,
    /// The parameters' types.
    params: Vec<CType>,
    result: CType,
}

/// A file-scope variable (see the module comment).
struct Global<'a> {
    /// Its type, or why it is outside the subset (a use is refused with the reason).
    ty: Result<CType, CError>,
    /// The initializer of its definition.
    init: Option<&'a Node<Initializer>>,
    /// Whether it is defined, not only declared `extern`.
    defined: bool,
    /// Its declarator in the definition with the initializer (else in the first declaration).
    declarator: &'a Node<Declarator>,
}

/// The unit-wide facts every function body is lowered against.
struct Unit<'a> {
    map: &'a SourceMap,
    /// The text the parser read (spans are offsets into it).
    preprocessed: &'a str,
    options: Options,
    functions: HashMap<String, Signature>,
    typedefs: HashMap<String, Result<CType, String>>,
    /// The pointer and struct types met so far (struct definitions are read as they come).
    types: RefCell<Types>,
    /// The IR's field names; `FieldId(i)` is the i-th.
    fields: RefCell<Vec<String>>,
    /// The variables whose address the file takes (or that are arrays pointed into), by
    /// [`VariableKey`]: `&x` in a function names its own `x` where it declares one.
    address_taken: HashSet<VariableKey>,
    /// Every member name that `&` is applied to (`&s.f`, `&p->f`): a scalar member of that
    /// name lives in an object of its own, its *box* (`lower/memory.rs`).
    boxed_members: memory::BoxedMembers,
    /// The element pointers and the arrays in cells (`lower/elements.rs`).
    elements: elements::ElementFacts,
    /// Whether the file calls `free` or `realloc`, converts integers to pointers or takes
    /// addresses of variables that end before the program: then objects have a heap state
    /// (`lower/memory.rs`).
    frees: bool,
    /// Whether the file takes addresses of variables that end before the program, as a
    /// lowering of it found: a function's return then ends its variables
    /// (`FnCx::end_lifetimes`), and an access to one after it is `use-after-return`.
    lifetimes: bool,
    /// Whether this lowering took the address of a variable that ends before the program.
    ends_variables: Cell<bool>,
    /// Whether ends of life were given up: a lowering with `lifetimes` pointed to an object
    /// whose end it does not set (`stack_addresses`), so no end is modelled, and no
    /// `use-after-return` check claims what it cannot see.
    lifetimes_refused: bool,
    /// The struct-typed members whose address this lowering took (`BoxedMembers::structs`).
    struct_boxes: RefCell<HashSet<String>>,
    /// Whether the file converts integers to pointers (`lower/integer_pointers.rs`), as a
    /// lowering of it found; then pointers compare only with null.
    integer_pointers: bool,
    /// Whether this lowering converted an integer to a pointer.
    converts_integers: Cell<bool>,
    /// Whether objects carry the tag of the type they were made as, because the file converts
    /// `void *` to other pointer types (`lower/generic_pointers.rs`), as a lowering of it found.
    type_tags: bool,
    /// Whether this lowering converted a `void *` to another pointer type.
    converts_generic: Cell<bool>,
    /// The types objects were made as, tagged 1, 2, ... in this order.
    tagged_types: RefCell<Vec<CType>>,
    /// Whether the file calls `main` (then `main`'s locals end with its inner calls).
    main_called: bool,
    /// File-scope variables by name, and their names in the order of their first declaration.
    globals: HashMap<String, Global<'a>>,
    global_order: Vec<String>,
    /// Whether a function other than `main` mentions a global: `main`'s calls are inlined.
    inline_calls: bool,
    /// Where a function that mentions globals is recursive (inlining cannot go there): the
    /// globals live in cells of `main`, and every function that reaches them (a *user*) gets
    /// a pointer to each as a hidden parameter (`FnCx::global_pointer`). Their names and
    /// types, in declaration order; empty otherwise.
    globals_by_reference: Vec<(String, CType)>,
    /// The users of [`Unit::globals_by_reference`].
    global_users: HashSet<String>,
    /// Where leaks are checked, the functions whose calls may change or check the count of
    /// live objects, `main`'s local: their calls are inlined (`lower/leaks.rs`).
    counting_calls: HashSet<String>,
    /// The functions the program uses as values (`f` or `&f` outside a call's callee),
    /// numbered from 1 in this order (`lower/function_pointers.rs`); only defined ones can
    /// be taken.
    function_values: Vec<String>,
    /// The types of pointers to the function values, as far as asked
    /// (`lower/function_pointers.rs`).
    function_value_types: RefCell<HashMap<String, CType>>,
    /// The functions declared at file scope (with a definition or without).
    declared_functions: HashSet<String>,
    /// Every function definition by name (the inlined calls lower them in place).
    bodies: HashMap<String, &'a Node<FunctionDefinition>>,
    /// Functions left out of the module, with the reason: a call of one is refused.
    unavailable: HashMap<String, CError>,
    /// Whether a `malloc` or `calloc` is lowered.
    allocates_heap: Cell<bool>,
    /// Why each `unmodelled` check stops a run, by the check's span
    /// (`Translated::unmodelled_causes`).
    unmodelled_causes: RefCell<Vec<(symex_syntax::span::Span, &'static str)>>,
    /// Whether the address of a local object whose end symex does not set is taken: a
    /// variable of an inner block, one a jump may skip the declaration of or an inlined call
    /// that runs again makes live again (`FnCx::note_revived`, `FnCx::note_skippable`), a
    /// member of a struct other than a variable of a function's outermost block, a compound
    /// literal, `alloca`'s object; or, where `lifetimes` is off, of any variable that ends
    /// before the program.
    stack_addresses: Cell<bool>,
    /// The struct members `container_of` reaches their structs through, numbered from 1
    /// (`lower/containers.rs`): objects of their types hold their structs.
    containers: Vec<containers::Container>,
    /// The containers this lowering met.
    wanted_containers: RefCell<Vec<containers::Container>>,
    /// The variables whose member's box this lowering found a `container_of` may need the
    /// struct of: the next lowering takes their addresses (`FnCx::note_owner`).
    wanted_addresses: RefCell<HashSet<VariableKey>>,
    /// The types of the local objects a pointer may point to (variables and parameters whose
    /// address is taken, arrays pointed into; an array's element type), as this lowering
    /// finds them (`FnCx::declare`).
    local_object_types: RefCell<HashSet<CType>>,
    /// The types of the structs whose boxed members' addresses this lowering took through a
    /// pointer (`&p->m`): stack addresses where a local object has one of them, which the
    /// end of the lowering decides (a type defined inside a function is another type in
    /// each lowering, so no earlier lowering can say).
    member_address_pointees: RefCell<HashSet<CType>>,
    /// The type of each `typeof(expression)` met so far, by the expression's start: found by
    /// the function body it is in, where its variables are in view (`FnCx::note_typeofs`).
    typeof_types: RefCell<HashMap<usize, CType>>,
    /// Whether heap objects are counted for the `memory-leak` check (`Options::memory_leaks`,
    /// and the program allocates).
    track_leaks: bool,
    /// Whether the objects left are counted by their heap states (`Rvalue::LiveObjects`)
    /// rather than by a count in `main`: where a function that allocates, frees or exits is
    /// recursive, and so cannot be inlined into `main` (`lower/leaks.rs`).
    live_by_state: bool,
    /// Whether a global can hold a pointer: an object still allocated when `main` returns may
    /// be reachable from it, so it is not a certain leak (`lower/leaks.rs`).
    globals_hold_pointers: bool,
}

impl Unit<'_> {
    fn at(&self, span: lang_c::span::Span) -> usize {
        self.map.offset(span.start)
    }

    /// The tag of objects made as the type `made_as` (`lower/generic_pointers.rs`): its
    /// position among the tagged types plus 1 (C's view of the type: a pointer into arrays
    /// is the pointer it is), 0 for no object.
    fn type_tag(&self, made_as: Option<CType>) -> i32 {
        let Some(ty) = made_as else {
            return 0;
        };
        let ty = self.types.borrow_mut().erased(ty);
        let mut tagged = self.tagged_types.borrow_mut();
        let position = match tagged.iter().position(|&t| t == ty) {
            Some(position) => position,
            None => {
                tagged.push(ty);
                tagged.len() - 1
            }
        };
        position as i32 + 1
    }

    /// The id of an IR field name, added at its first use.
    fn field(&self, name: &str) -> FieldId {
        let mut fields = self.fields.borrow_mut();
        let index = match fields.iter().position(|f| f == name) {
            Some(index) => index,
            None => {
                fields.push(name.to_string());
                fields.len() - 1
            }
        };
        FieldId(index as u32)
    }
}

fn is_typedef(specifiers: &[Node<DeclarationSpecifier>]) -> bool {
    specifiers.iter().any(|s| {
        matches!(
            &s.node,
            DeclarationSpecifier::StorageClass(c) if c.node == StorageClassSpecifier::Typedef
        )
    })
}

pub(crate) use func::MAX_NESTING;
pub(crate) use variable_length::rewrite as rewrite_variable_length_arrays;

pub(crate) fn lower_unit<'a>(
    unit: &'a TranslationUnit,
    preprocessed: &'a str,
    map: &'a SourceMap,
    options: Options,
) -> Result<Translated, CError> {
    let (ampersand_taken, boxed_members) = addresses_taken(unit);
    let elements = elements::element_facts(unit);
    let mut called = Callees::default();
    called.visit_translation_unit(unit);
    let called = called.names;
    // An array pointed into lives in a cell, as a variable whose address is taken.
    // `&x` in a function that declares an `x` names it, unless a block scope or a later
    // declaration leaves the global `x` in view there (by name, block scopes ignored, both
    // are taken).
    let mut address_taken: HashSet<VariableKey> = HashSet::new();
    for (function, name) in &ampersand_taken {
        address_taken.insert((String::new(), name.clone()));
        address_taken.insert(elements.variable_key(function, name));
    }
    address_taken.extend(elements.cell_arrays.iter().cloned());
    let mut heap_states = calls(&called, &["free", "realloc"]);
    let mut context = Unit {
        map,
        preprocessed,
        options,
        functions: HashMap::new(),
        typedefs: HashMap::new(),
        types: RefCell::new(Types::new(options.data_model)),
        fields: RefCell::new(memory::SCALAR_FIELDS.map(String::from).to_vec()),
        address_taken,
        boxed_members: memory::BoxedMembers {
            names: boxed_members,
            singletons: elements.singleton_members.clone(),
            structs: HashSet::new(),
        },
        struct_boxes: RefCell::new(HashSet::new()),
        elements,
        frees: heap_states,
        integer_pointers: false,
        lifetimes: false,
        ends_variables: Cell::new(false),
        lifetimes_refused: false,
        converts_integers: Cell::new(false),
        type_tags: false,
        converts_generic: Cell::new(false),
        tagged_types: RefCell::new(Vec::new()),
        main_called: calls(&called, &["main"]),
        globals: HashMap::new(),
        global_order: Vec::new(),
        inline_calls: false,
        globals_by_reference: Vec::new(),
        global_users: HashSet::new(),
        counting_calls: HashSet::new(),
        function_values: Vec::new(),
        declared_functions: HashSet::new(),
        function_value_types: RefCell::new(HashMap::new()),
        bodies: HashMap::new(),
        unavailable: HashMap::new(),
        allocates_heap: Cell::new(false),
        unmodelled_causes: RefCell::new(Vec::new()),
        stack_addresses: Cell::new(false),
        typeof_types: RefCell::new(HashMap::new()),
        local_object_types: RefCell::new(HashSet::new()),
        member_address_pointees: RefCell::new(HashSet::new()),
        containers: Vec::new(),
        wanted_containers: RefCell::new(Vec::new()),
        wanted_addresses: RefCell::new(HashSet::new()),
        track_leaks: false,
        live_by_state: false,
        globals_hold_pointers: false,
    };
    // Definitions by name, in source order.
    let mut definitions: Vec<(String, &'a Node<FunctionDefinition>)> = Vec::new();
    let mut extents = Vec::new();
    for external in &unit.0 {
        match &external.node {
            ExternalDeclaration::Declaration(declaration) => {
                declare(&mut context, declaration, None)?;
            }
            ExternalDeclaration::FunctionDefinition(definition) => {
                let name = func::name(&context, definition)?;
                extents.push((name.clone(), map.span(definition.span)));
                if expr::ERROR_FUNCTIONS.contains(&name.as_str())
                    && !context.options.ordinary_error_calls
                {
                    // Calls of it are the property itself; its body is never run.
                    continue;
                }
                if definitions.iter().any(|(other, _)| *other == name) {
                    let at = context.at(definition.span);
                    return Err(CError::invalid(format!("`{name}` is defined twice"), at));
                }
                // A `static` local is a global under the name `function.local`; its
                // initializer may name the functions declared so far, this one among them.
                context.declared_functions.insert(name.clone());
                for declaration in static_locals(definition) {
                    declare(&mut context, declaration, Some(&name))?;
                }
                definitions.push((name, definition));
            }
            ExternalDeclaration::StaticAssert(s) => {
                return Err(CError::unsupported("`_Static_assert`", context.at(s.span)));
            }
        }
    }
    context.bodies = definitions.iter().map(|(n, d)| (n.clone(), *d)).collect();
    let functions = (context.bodies.keys()).chain(&context.declared_functions);
    let functions: HashSet<&str> = functions.map(String::as_str).collect();
    context.function_values = function_pointers::function_values(unit, &functions);
    context.globals_hold_pointers = globals_can_hold_pointers(&context);
    context.track_leaks =
        context.options.memory_leaks && calls(&called, ALLOCATORS) && !context.main_called;
    // Where a global may still point to an object at the end, the leak check asks which
    // objects the globals reach, which it tells by their heap states (`lower/leaks.rs`).
    if context.track_leaks && context.globals_hold_pointers {
        heap_states = true;
        context.frees = true;
    }
    // The count of live objects is a local of `main`, as the globals are: the calls that
    // reach it are inlined, the ones that allocate or free and the ones that may end the run
    // in `exit` or `abort`, where the count is checked too (`lower/leaks.rs`). A recursion
    // cannot be inlined: there the objects left are counted by their heap states instead.
    let graph = call_graph(&definitions, &functions, &context.function_values);
    if context.track_leaks {
        let counting = leaks::counting_functions(&graph);
        let recursive = recursive_functions(&graph);
        if counting.iter().any(|name| recursive.contains(name)) {
            context.live_by_state = true;
            heap_states = true;
            context.frees = true;
        } else {
            context.counting_calls = counting;
        }
    }
    let mentions: HashSet<String> = (definitions.iter())
        .filter(|(name, definition)| {
            name != "main"
                && (mentions_a_global(&context, definition)
                    || !static_locals(definition).is_empty())
        })
        .map(|(name, _)| name.clone())
        .collect();
    context.inline_calls = context.options.inline_calls || !mentions.is_empty();
    if !context.options.inline_calls
        && !mentions.is_empty()
        && !recursive_functions(&graph).is_empty()
    {
        if let Some(globals) = globals_by_reference(&context) {
            context.inline_calls = false;
            context.global_users = reaching(&graph, mentions);
            context.global_users.remove("main");
            context
                .address_taken
                .extend(globals.iter().map(|(name, _)| global_key(name)));
            context.globals_by_reference = globals;
        }
    }
    drop(functions);
    // A function outside the subset (often an inline function of a system header) is left out
    // rather than refusing the file; a call of it is refused with its reason. Leaving one out
    // can make its callers fail, so this repeats until every remaining function lowers.
    loop {
        context.functions.clear();
        // What the last lowering found about ends of life is the final one's to find again,
        // and so are the causes of its `unmodelled` checks (a function it lowered may be left
        // out now, with its checks).
        context.stack_addresses.set(false);
        context.unmodelled_causes.borrow_mut().clear();
        let mut next_id = 0;
        for (name, definition) in &definitions {
            if context.unavailable.contains_key(name) {
                continue;
            }
            match func::signature(&context, definition) {
                Ok((_, params, result)) => {
                    let id = FuncId(next_id);
                    next_id += 1;
                    let signature = Signature { id, params, result };
                    context.functions.insert(name.clone(), signature);
                }
                Err(e) => {
                    context.unavailable.insert(name.clone(), e);
                }
            }
        }
        let mut properties: Vec<Property> = Vec::new();
        let mut functions = Vec::with_capacity(definitions.len());
        let mut declared_locals = Vec::with_capacity(definitions.len());
        let mut failed = false;
        for (name, definition) in &definitions {
            let Some(signature) = context.functions.get(name) else {
                continue;
            };
            match func::lower_function(&context, &mut properties, signature.id, definition) {
                Ok(lowered) => {
                    declared_locals.push(lowered.locals);
                    functions.push(lowered.function);
                }
                Err(e) => {
                    context.unavailable.insert(name.clone(), e);
                    failed = true;
                }
            }
        }
        let local_objects = context.local_object_types.take();
        let pointees = context.member_address_pointees.take();
        if pointees.iter().any(|ty| local_objects.contains(ty)) {
            context.stack_addresses.set(true);
        }
        if failed {
            continue;
        }
        // Lowered again with what such pointers need, in every function.
        if context.converts_integers.get() && !context.integer_pointers {
            context.integer_pointers = true;
            context.frees = true;
            context.unavailable.clear();
            continue;
        }
        let known = context.containers.len();
        for container in context.wanted_containers.take() {
            if !context.containers.contains(&container) {
                context.containers.push(container);
            }
        }
        if context.containers.len() > known {
            context.frees = true;
            context.unavailable.clear();
            continue;
        }
        let wanted = context.wanted_addresses.take();
        if !wanted.is_subset(&context.address_taken) {
            context.address_taken.extend(wanted);
            context.unavailable.clear();
            continue;
        }
        let wanted = context.struct_boxes.take();
        if !wanted.is_subset(&context.boxed_members.structs) {
            context.boxed_members.structs.extend(wanted);
            context.unavailable.clear();
            continue;
        }
        if context.lifetimes && context.stack_addresses.get() {
            context.lifetimes = false;
            context.lifetimes_refused = true;
            context.frees =
                heap_states || context.integer_pointers || !context.containers.is_empty();
            context.unavailable.clear();
            continue;
        }
        if context.ends_variables.get() && !context.lifetimes && !context.lifetimes_refused {
            context.lifetimes = true;
            context.frees = true;
            context.unavailable.clear();
            continue;
        }
        if context.converts_generic.get() && !context.type_tags {
            context.type_tags = true;
            context.unavailable.clear();
            continue;
        }
        if let Some(e) = context.unavailable.get("main") {
            return Err(e.clone());
        }
        let fields = context.fields.borrow().clone();
        let mut translated = finish(functions, fields, properties, &declared_locals)?;
        translated.allocates_heap = context.allocates_heap.get();
        translated.unmodelled_causes = context.unmodelled_causes.take();
        translated.unmodelled_causes.sort_unstable();
        translated.unmodelled_causes.dedup();
        translated.leaks_checked = context.track_leaks;
        translated.stack_addresses = context.stack_addresses.get();
        translated.definitions = extents;
        translated.not_entries = entry_facts(&context);
        translated.left_out = context.unavailable.into_iter().collect();
        translated.left_out.sort_by(|a, b| a.0.cmp(&b.0));
        return Ok(translated);
    }
}

/// Every identifier and every member name that `&` is applied to in the unit.
fn addresses_taken(unit: &TranslationUnit) -> (HashSet<VariableKey>, HashSet<String>) {
    #[derive(Default)]
    struct Addresses {
        /// `(function, name)` of each `&name` (the function `""` outside any).
        variables: HashSet<VariableKey>,
        members: HashSet<String>,
        function: String,
    }
    impl<'ast> Visit<'ast> for Addresses {
        fn visit_function_definition(
            &mut self,
            definition: &'ast FunctionDefinition,
            span: &'ast lang_c::span::Span,
        ) {
            self.function = declarator_shape(&definition.declarator.node)
                .0
                .unwrap_or_default();
            lang_c::visit::visit_function_definition(self, definition, span);
            self.function.clear();
        }

        fn visit_unary_operator_expression(
            &mut self,
            e: &'ast lang_c::ast::UnaryOperatorExpression,
            span: &'ast lang_c::span::Span,
        ) {
            if e.operator.node == lang_c::ast::UnaryOperator::Address {
                match &e.operand.node {
                    lang_c::ast::Expression::Identifier(id) => {
                        let key = (self.function.clone(), id.node.name.clone());
                        self.variables.insert(key);
                    }
                    lang_c::ast::Expression::Member(m) => {
                        self.members.insert(m.node.identifier.node.name.clone());
                    }
                    _ => {}
                }
            }
            lang_c::visit::visit_unary_operator_expression(self, e, span);
        }
    }
    let mut addresses = Addresses::default();
    addresses.visit_translation_unit(unit);
    (addresses.variables, addresses.members)
}

/// The functions whose objects `free` releases (and that can leak).
const ALLOCATORS: &[&str] = &["malloc", "calloc", "realloc", "strdup", "strndup"];

/// The names of the functions called by name in what it visits, and whether it calls
/// through a function pointer (a callee that is an expression; [`Callees::of_definition`]
/// also counts a name declared as a variable there).
#[derive(Default)]
pub(super) struct Callees {
    pub names: HashSet<String>,
    pub through_pointers: bool,
}

impl Callees {
    /// The callees of a function definition: a callee named like one of its parameters or
    /// locals is a call through a pointer (shadowing a function of that name).
    pub(super) fn of_definition(definition: &Node<FunctionDefinition>) -> Callees {
        #[derive(Default)]
        struct Declared(Vec<String>);
        impl<'ast> Visit<'ast> for Declared {
            fn visit_declarator_kind(
                &mut self,
                kind: &'ast lang_c::ast::DeclaratorKind,
                span: &'ast lang_c::span::Span,
            ) {
                if let lang_c::ast::DeclaratorKind::Identifier(id) = kind {
                    self.0.push(id.node.name.clone());
                }
                lang_c::visit::visit_declarator_kind(self, kind, span);
            }
        }
        let mut callees = Callees::default();
        callees.visit_function_definition(&definition.node, &definition.span);
        let mut declared = Declared::default();
        declared.visit_function_definition(&definition.node, &definition.span);
        // The definition's own name is declared once by the definition itself.
        let own = declarator_shape(&definition.node.declarator.node).0;
        let variables = |name: &String| {
            let count = declared.0.iter().filter(|d| *d == name).count();
            count > usize::from(own.as_ref() == Some(name))
        };
        callees.through_pointers |= callees.names.iter().any(variables);
        callees
    }
}

impl<'ast> Visit<'ast> for Callees {
    fn visit_call_expression(
        &mut self,
        call: &'ast lang_c::ast::CallExpression,
        span: &'ast lang_c::span::Span,
    ) {
        match &call.callee.node {
            lang_c::ast::Expression::Identifier(id) => {
                self.names.insert(id.node.name.clone());
            }
            _ => self.through_pointers = true,
        }
        lang_c::visit::visit_call_expression(self, call, span);
    }
}

/// The call graph of the definitions: each function's callees by name. A call through a
/// function pointer (a callee that is an expression, a name declared as a variable in the
/// function, or a name that is none of the file's `functions`) may call any of the
/// `function_values`.
pub(super) fn call_graph<'d>(
    definitions: &'d [(String, &Node<FunctionDefinition>)],
    functions: &HashSet<&str>,
    function_values: &[String],
) -> Vec<(&'d String, HashSet<String>)> {
    definitions
        .iter()
        .map(|(name, definition)| {
            let mut callees = Callees::of_definition(definition);
            let variables = (callees.names.iter()).any(|n| !functions.contains(n.as_str()));
            if callees.through_pointers || variables {
                callees.names.extend(function_values.iter().cloned());
            }
            (name, callees.names)
        })
        .collect()
}

/// The functions of `graph` that are in `start` or call one of them, directly or not.
pub(super) fn reaching(
    graph: &[(&String, HashSet<String>)],
    start: HashSet<String>,
) -> HashSet<String> {
    let mut reached = start;
    loop {
        let before = reached.len();
        for (name, callees) in graph {
            if callees.iter().any(|callee| reached.contains(callee)) {
                reached.insert((*name).clone());
            }
        }
        if reached.len() == before {
            return reached;
        }
    }
}

/// The functions of `graph` that can call themselves, directly or not.
pub(super) fn recursive_functions(graph: &[(&String, HashSet<String>)]) -> HashSet<String> {
    let callees: HashMap<&String, &HashSet<String>> = graph
        .iter()
        .map(|(name, callees)| (*name, callees))
        .collect();
    let calls_itself = |name: &String| {
        let mut seen: HashSet<&String> = HashSet::new();
        let mut work: Vec<&String> = callees[name].iter().collect();
        while let Some(next) = work.pop() {
            if next == name {
                return true;
            }
            if seen.insert(next) {
                work.extend(callees.get(next).into_iter().flat_map(|more| more.iter()));
            }
        }
        false
    };
    (graph.iter())
        .filter(|(name, _)| calls_itself(name))
        .map(|(name, _)| (*name).clone())
        .collect()
}

/// The defined globals (and `static` locals) with their types as variables, in declaration
/// order, if each can be passed by a pointer to its cell; `None` where one is an array
/// (arrays are passed only by inlining).
fn globals_by_reference(context: &Unit<'_>) -> Option<Vec<(String, CType)>> {
    let mut globals = Vec::new();
    for name in &context.global_order {
        let global = &context.globals[name];
        let (Ok(ty), true) = (&global.ty, global.defined) else {
            continue;
        };
        let array = matches!(
            declarator_shape(&global.declarator.node).1,
            Shape::Array(_) | Shape::FunctionPointer { array: true, .. }
        );
        if array {
            return None;
        }
        let (function, local) = name.split_once('.').unwrap_or(("", name));
        let ty = element_pointer::variable_type(context, function, local, *ty);
        globals.push((name.clone(), ty));
    }
    Some(globals)
}

/// Whether one of the functions `names` is `called`.
fn calls(called: &HashSet<String>, names: &[&str]) -> bool {
    names.iter().any(|name| called.contains(*name))
}

/// Whether a defined global (or `static` local) can hold a pointer: a pointer, or a struct
/// (or array of them) with a pointer member. Memory it points to when `main` returns is not
/// lost, which a count of live objects cannot tell.
fn globals_can_hold_pointers(context: &Unit<'_>) -> bool {
    let types = context.types.borrow();
    context
        .globals
        .values()
        .any(|global| global.ty.as_ref().is_ok_and(|&ty| types.holds_pointers(ty)))
}

/// Why a `main` that reads `argv` is refused.
const MAIN_READS_ARGV: &str = "`main` reading its program arguments (`argv`), which symex does \
     not model; give the program its inputs by `__VERIFIER_nondet_*` calls";

/// The functions that cannot be analysed on their own (`--entry`), sorted by name: those whose
/// parameters reach a struct with boxes or element-pointer members, or a 64-bit integer (an
/// input heap's numbers are 32-bit).
fn entry_facts(context: &Unit<'_>) -> Vec<(String, CError)> {
    let types = context.types.borrow();
    let mut not_entries = Vec::new();
    for (name, signature) in &context.functions {
        // Every type a parameter's value reaches, through pointers and struct leaves: the
        // parameters' own types first, then those reached through them.
        let mut reached: Vec<CType> = signature.params.clone();
        let params = reached.len();
        let mut next = 0;
        while let Some(&ty) = reached.get(next) {
            next += 1;
            let inner: Vec<CType> = match ty {
                CType::Pointer(p) => vec![types.pointee(p)],
                CType::Struct(_) => types.leaves(ty).into_iter().map(|(_, t)| t).collect(),
                CType::Array(id) => vec![types.array(id).0],
                _ => Vec::new(),
            };
            for t in inner {
                if !reached[params..].contains(&t) {
                    reached.push(t);
                }
            }
        }
        let boxed = |&ty: &CType| memory::has_boxes(&types, &context.boxed_members, ty);
        let element_member = |&ty: &CType| {
            (types.leaves(ty).iter()).any(|(_, leaf)| matches!(leaf, CType::Element(_)))
        };
        let container_member = |&ty: &CType| context.containers.iter().any(|c| c.member_type == ty);
        let refusal = reached.iter().find_map(|ty| match ty {
            CType::Struct(_) if container_member(ty) => Some(
                "a parameter reaches a struct that `container_of` finds the struct of (the input \
                 heap would give it any struct)",
            ),
            CType::Struct(_) if boxed(ty) => Some(
                "a parameter reaches a struct with a member in a box (its address is taken, or \
                 it is an array; the input heap would give the boxes any values)",
            ),
            CType::Struct(_) if element_member(ty) => Some(
                "a parameter reaches a struct with a pointer into arrays as a member (the input \
                 heap has no arrays)",
            ),
            // `int main(int argc, char **argv)` whose body reads `argv`.
            CType::Element(_) if name == "main" => Some(MAIN_READS_ARGV),
            CType::Element(_) => Some(
                "a parameter is or reaches a pointer into arrays (the input heap has no arrays)",
            ),
            CType::Void => Some(
                "a parameter reaches a `void *` (the input heap would give it an object of no \
                 known type)",
            ),
            CType::Function(_) => Some(
                "a parameter reaches a function pointer (an input would be any number, not one \
                 of the file's functions)",
            ),
            // A 64-bit parameter is a 64-bit symbol; input heaps hold 32-bit numbers.
            CType::Long | CType::ULong if reached[params..].contains(ty) => {
                Some("a parameter points to a 64-bit integer (input heaps hold 32-bit numbers)")
            }
            _ => None,
        });
        let refusal = match context.global_users.contains(name) {
            true => Some(
                "it uses global variables, which `main` passes to it by pointers (an input \
                 heap would give them any values)",
            ),
            false => refusal,
        };
        if let Some(refusal) = refusal {
            let at = context.at(context.bodies[name].span);
            let message = match refusal {
                MAIN_READS_ARGV => refusal.to_string(),
                _ => format!("`{name}` on its own: {refusal}; check it from `main`"),
            };
            let reason = CError::unsupported(message, at);
            not_entries.push((name.clone(), reason));
        }
    }
    not_entries.sort_by(|a, b| a.0.cmp(&b.0));
    not_entries
}

/// Whether `initializer` names a variable or a function (an identifier in an expression
/// other than an enumeration constant defined so far).
fn names_something(context: &Unit<'_>, initializer: &Node<Initializer>, function: &str) -> bool {
    struct Names<'c, 'a> {
        context: &'c Unit<'a>,
        function: &'c str,
        named: bool,
    }
    impl<'ast> Visit<'ast> for Names<'_, '_> {
        fn visit_expression(
            &mut self,
            e: &'ast lang_c::ast::Expression,
            span: &'ast lang_c::span::Span,
        ) {
            if let lang_c::ast::Expression::Identifier(id) = e {
                let name = &id.node.name;
                let context = self.context;
                let constant = context.types.borrow().enum_constant(name).is_some();
                // A `static` local of the function declared before, or a global or function
                // that no local of the function hides: what C allows there (`&sx`, `&g`).
                let statics = context
                    .globals
                    .contains_key(&static_local_name(self.function, name));
                let file_scope = context
                    .elements
                    .variable_key(self.function, name)
                    .0
                    .is_empty();
                let global = file_scope && context.globals.contains_key(name);
                // A function's address is a constant too (`static int (*f)(void) = g;`).
                let function = file_scope && context.declared_functions.contains(name);
                self.named |= !(constant || statics || global || function);
            }
            lang_c::visit::visit_expression(self, e, span);
        }
    }
    let mut names = Names {
        context,
        function,
        named: false,
    };
    names.visit_initializer(&initializer.node, &initializer.span);
    names.named
}

/// The global that the `static` local `local` of `function` is.
pub(super) fn static_local_name(function: &str, local: &str) -> String {
    format!("{function}.{local}")
}

/// The variable key of the global `name`: a `static` local (`function.local`) keeps its
/// function's key for it, as `lower/elements.rs` and `&x` in its function know it.
pub(super) fn global_key(name: &str) -> VariableKey {
    match name.split_once('.') {
        Some((function, local)) => (function.to_string(), local.to_string()),
        None => (String::new(), name.to_string()),
    }
}

/// The declarations of `static` locals in a definition's body.
fn static_locals(definition: &Node<FunctionDefinition>) -> Vec<&Node<Declaration>> {
    struct Statics<'ast>(Vec<&'ast Node<Declaration>>);
    impl<'ast> Visit<'ast> for Statics<'ast> {
        fn visit_block_item(
            &mut self,
            item: &'ast lang_c::ast::BlockItem,
            span: &'ast lang_c::span::Span,
        ) {
            if let lang_c::ast::BlockItem::Declaration(d) = item {
                if func::has_static_storage(&d.node.specifiers) {
                    self.0.push(d);
                }
            }
            lang_c::visit::visit_block_item(self, item, span);
        }
    }
    let mut statics = Statics(Vec::new());
    statics.visit_statement(
        &definition.node.statement.node,
        &definition.node.statement.span,
    );
    statics.0
}

/// Whether the definition mentions the name of a defined global (shadowing ignored: a false
/// alarm only inlines calls that did not need it).
fn mentions_a_global(context: &Unit<'_>, definition: &Node<FunctionDefinition>) -> bool {
    struct Mentions<'u, 'a> {
        globals: &'u HashMap<String, Global<'a>>,
        found: bool,
    }
    impl<'ast> Visit<'ast> for Mentions<'_, '_> {
        fn visit_identifier(&mut self, identifier: &'ast Identifier, _: &'ast lang_c::span::Span) {
            self.found |= self
                .globals
                .get(&identifier.name)
                .is_some_and(|g| g.defined);
        }
    }
    let mut mentions = Mentions {
        globals: &context.globals,
        found: false,
    };
    mentions.visit_function_definition(&definition.node, &definition.span);
    mentions.found
}

/// The module of the lowered functions, checked, with its type table.
fn finish(
    functions: Vec<symex_ir::cfg::Function>,
    fields: Vec<String>,
    properties: Vec<Property>,
    declared_locals: &[func::DeclaredLocals],
) -> Result<Translated, CError> {
    let module = symex_ir::promote_assigned_vars(Module {
        functions,
        fields,
        properties,
    });
    if let Err(problems) = symex_ir::verify(&module) {
        return Err(CError {
            kind: crate::ErrorKind::Invalid,
            message: format!(
                "internal error: the C lowering produced IR that breaks its invariants: {problems:?}"
            ),
            offset: None,
        });
    }
    let types = TypeTable::declared(
        module
            .functions
            .iter()
            .zip(declared_locals)
            .map(|(f, (params, locals))| (f.name.as_str(), params.as_slice(), locals.as_slice())),
    );
    Ok(Translated {
        module,
        types,
        left_out: Vec::new(),
        not_entries: Vec::new(),
        allocates_heap: false,
        unmodelled_causes: Vec::new(),
        leaks_checked: false,
        stack_addresses: false,
        definitions: Vec::new(),
    })
}

/// Declares the variables of a file-scope declaration, or of a `static` local declaration in
/// the function `local_to` (each then named `function.local`): typedefs are recorded,
/// prototypes need nothing, variables are remembered as globals (a definition's initializer
/// with them).
fn declare<'a>(
    context: &mut Unit<'a>,
    declaration: &'a Node<Declaration>,
    local_to: Option<&str>,
) -> Result<(), CError> {
    let declaration = &declaration.node;
    if is_typedef(&declaration.specifiers) {
        let base = types::base_type(context, &declaration.specifiers);
        for init in &declaration.declarators {
            let (name, shape) = declarator_shape(&init.node.declarator.node);
            let at = context.at(init.span);
            let extensions = init.node.declarator.node.extensions.iter();
            let layout = types::layout_refusal(extensions, at).map(|e| Err(e.message));
            let ty = match &base {
                _ if let Some(refused) = layout => refused,
                Ok(ty) => {
                    let types = &mut context.types.borrow_mut();
                    let declarator = (&init.node.declarator, &shape);
                    let named = match shape {
                        Shape::Array(_) => {
                            types::array_typedef(context, types, *ty, declarator, at).map(Some)
                        }
                        _ => types::plain_type(context, types, *ty, &shape, at),
                    };
                    match named {
                        Ok(Some(ty)) => Ok(ty),
                        Ok(None) => Err(shape.describe().to_string()),
                        Err(e) => Err(e.message),
                    }
                }
                Err(e) => Err(e.message.clone()),
            };
            if let Some(name) = name {
                context.typedefs.insert(name, ty);
            }
        }
        return Ok(());
    }
    let is_extern = func::is_extern(&declaration.specifiers);
    let base = types::base_type(context, &declaration.specifiers);
    for init in &declaration.declarators {
        let declarator = &init.node.declarator;
        let (name, shape) = declarator_shape(&declarator.node);
        let Some(name) = name else { continue };
        let name = match local_to {
            Some(function) => {
                // `&x` names the local, whose key (`global_key`) the global keeps.
                static_local_name(function, &name)
            }
            None => name,
        };
        let at = context.at(declarator.span);
        let ty = match (&base, shape) {
            (_, Shape::Function(..)) => {
                context.declared_functions.insert(name);
                continue;
            }
            (Ok(CType::Void), Shape::Plain(0)) => {
                Err(CError::invalid("a variable of type `void`", at))
            }
            // An array's type is its elements' (`FnCx::define_globals` reads the dimensions).
            (Ok(ty), Shape::Array(_) | Shape::FunctionPointer { array: true, .. }) => {
                let types = &mut context.types.borrow_mut();
                types::array_element(context, types, *ty, &shape, at).map(|(element, _)| element)
            }
            (
                Ok(ty),
                Shape::Plain(_) | Shape::FunctionPointer { .. } | Shape::ArrayPointer { .. },
            ) => {
                let types = &mut context.types.borrow_mut();
                let plain = types::plain_type(context, types, *ty, &shape, at);
                plain.map(|plain| plain.unwrap_or(*ty))
            }
            (Ok(_), other) => Err(CError::unsupported(
                format!("{} (global variable `{name}`)", other.describe()),
                at,
            )),
            (Err(e), _) => Err(e.clone()),
        };
        let initializer = init.node.initializer.as_ref();
        // A `static` local's problem refuses its function (a use of it), not the file.
        let ty = match (local_to, ty) {
            (Some(_), Ok(_)) if context.globals.contains_key(&name) => Err(CError::unsupported(
                format!("two `static` locals of one name (`{name}`)"),
                at,
            )),
            // Its initializer is lowered at `main`'s start, where the function's other
            // `static`s are put in scope (C allows only constants and addresses of statics
            // there); enumeration constants are the file's (`FnCx::define_globals` checks that
            // no parameter of `main` hides one or a global).
            (Some(function), Ok(_))
                if initializer.is_some_and(|i| names_something(context, i, function)) =>
            {
                Err(CError::unsupported(
                    format!(
                        "the initializer of the `static` local `{name}` names a function or a \
                         variable other than a `static` or a global"
                    ),
                    at,
                ))
            }
            (_, ty) => ty,
        };
        if local_to.is_some() {
            if let (Some(global), Err(e)) = (context.globals.get_mut(&name), &ty) {
                global.ty = Err(e.clone());
                continue;
            }
        }
        if !context.globals.contains_key(&name) {
            context.global_order.push(name.clone());
        }
        let global = context.globals.entry(name.clone()).or_insert(Global {
            ty,
            init: None,
            defined: false,
            declarator,
        });
        if let Some(initializer) = initializer {
            if global.init.is_some() {
                return Err(CError::invalid(
                    format!("`{name}` is initialized twice"),
                    at,
                ));
            }
            global.init = Some(initializer);
            global.declarator = declarator;
        } else if !is_extern && !global.defined {
            // The first definition gives the dimensions (`extern int a[]; int a[10];`).
            global.declarator = declarator;
        }
        global.defined |= !is_extern || initializer.is_some();
    }
    Ok(())
}
