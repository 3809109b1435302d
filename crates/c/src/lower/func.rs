//! One function definition lowered: its signature, its scopes of local variables, the targets of
//! `break`, `continue` and `goto`, and the block bookkeeping of the shared
//! [`FunctionBuilder`]. Statements are in `stmt`, expressions in `expr`.
//!
//! Every local is a `var` of the IR (it may be read before it is assigned: an `uninit` check);
//! the IR pass `promote_assigned_vars` afterwards drops the checks of locals that every path
//! assigns before reading. Nothing here decides what a statement means.

use std::collections::{HashMap, HashSet};

use lang_c::ast::{ArraySize, Declaration, DeclarationSpecifier, DerivedDeclarator, Ellipsis};
use lang_c::ast::{BinaryOperator, BlockItem, Expression, Initializer, Statement};
use lang_c::ast::{FunctionDefinition, ParameterDeclaration, StorageClassSpecifier};
use lang_c::span::Node;
use lang_c::visit::Visit;
use symex_ir::build::FunctionBuilder;
use symex_ir::cfg::{
    BlockId, Check, FuncId, Function, InstKind, Layout, LocalId, LocalInfo, LocalKind, Operand,
    Place, Projection, Property, Rvalue, Terminator, Width,
};
use symex_syntax::span::Span;
use symex_syntax::types::Type;

use super::elements::Location;
use super::memory::IrTypes;
use super::nondet_locals::{Block, Landing};
use super::types::{self, base_type, declarator_shape, plain_type, unparenthesized, CType, Shape};
use super::Unit;
use crate::error::CError;

/// Statements and expressions nested deeper than this are refused (the lowering recurses).
pub(crate) const MAX_NESTING: u32 = 2_000;

/// Parameters and the other source locals, with their types, for the type table.
pub(super) type DeclaredLocals = (Vec<(String, Type)>, Vec<(String, Type)>);

pub(super) struct Lowered {
    pub function: Function,
    pub locals: DeclaredLocals,
}

/// A label of the function being lowered, from its first mention on.
pub(super) struct LabelEntry {
    block: BlockId,
    pub(super) defined: bool,
    /// The count of locals at the first mention (by a `goto` before the definition, the
    /// declarations from there on may be skipped: `FnCx::note_skippable`).
    first_mention: usize,
    /// With `Options::nondet_locals`, the landing of each `goto` before the definition: the
    /// variables that read inputs declared after it and in scope at the label read new ones
    /// on the way, or where their block starts (`FnCx::land`). A landing that skips nothing
    /// is a block with a `goto` only.
    landings: Vec<Landing>,
    /// With `Options::nondet_locals`, the variables that read inputs in scope at the
    /// definition: a `goto` after it from outside their scope reads them again
    /// (`FnCx::reentered`).
    pub(super) in_scope: Vec<(LocalId, CType)>,
    /// The open blocks at the definition that read inputs where they start
    /// (`FnCx::reading_at_entry`): a `goto` after it from outside one of them is refused.
    pub(super) reading_at_entry: Vec<(u32, usize)>,
}

/// A call being inlined into `main` (see `lower/mod.rs`): `return` assigns `result` and goes to
/// `exit`.
pub(super) struct Inlined {
    pub name: String,
    pub result: LocalId,
    pub exit: BlockId,
    /// The first of the callee's locals (the ones before are the caller's).
    pub first_local: usize,
    /// The index in `scopes` of the callee's body's outermost block.
    pub body_scope: usize,
    /// Whether the call may run again (it is in a loop, after a label, or inside such a
    /// call): its variables are then the same IR locals in every run.
    pub repeats: bool,
    /// The parameters that name an array of the caller (`Argument::Array`).
    pub array_params: Vec<String>,
}

/// What an inlined call passes to a parameter.
pub(super) enum Argument {
    Value(Operand),
    /// The caller's array local, and its element type: the parameter names that array, as C
    /// passes arrays (by a pointer to their first element), without a pointer value.
    Array(LocalId, CType),
    /// A value and the type the parameter takes instead of its declared one: a view
    /// (`lower/views.rs`), or a pointer into an array for an array parameter (an array
    /// member's elements, which no array local holds).
    Typed(Operand, CType),
}

/// Inlining stops when `main` grows beyond this many blocks.
const MAX_INLINED_BLOCKS: usize = 200_000;

/// Where `break` and `continue` go inside the innermost loop or `switch`.
#[derive(Clone, Copy)]
pub(super) struct Jumps {
    pub brk: BlockId,
    /// `None` inside a `switch` that is not in a loop.
    pub cont: Option<BlockId>,
}

/// The cases of the `switch` being lowered: each label converted to `ty`, the promoted type of
/// the controlling value (two labels equal after the conversion are one label twice).
#[derive(Default)]
pub(super) struct Cases {
    pub ty: Option<CType>,
    pub values: Vec<(i64, BlockId)>,
    pub default: Option<BlockId>,
    /// The first local declared inside the `switch` (a `case` label may skip those).
    pub first_local: usize,
    /// The blocks the `switch` is inside (`FnCx::open_blocks`): its dispatch jumps from there.
    pub open_blocks: Vec<u32>,
}

pub(super) struct FnCx<'u, 'a> {
    pub unit: &'u Unit<'a>,
    pub properties: &'u mut Vec<Property>,
    pub b: FunctionBuilder,
    /// The function's result type (`return` converts to it).
    pub result: CType,
    pub(super) scopes: Vec<HashMap<String, (LocalId, CType)>>,
    /// Beside each scope, its block as `Options::nondet_locals` sees it.
    pub(super) blocks: Vec<Block>,
    /// The blocks opened so far (the next [`Block::serial`]).
    blocks_opened: u32,
    pub jumps: Vec<Jumps>,
    pub cases: Vec<Cases>,
    pub(super) labels: HashMap<String, LabelEntry>,
    depth: u32,
    /// The function's name (globals are `main`'s locals), or of the call being inlined.
    name: String,
    /// Whether this is `main`, whose calls are inlined where functions share globals.
    pub is_main: bool,
    /// The globals as `main`'s locals: the outermost scope of an inlined call.
    pub(super) globals_scope: HashMap<String, (LocalId, CType)>,
    /// The global whose initializer is being lowered (`struct list_head g = { &g, &g };`
    /// points to a variable that lives until the program ends).
    global_being_defined: Option<String>,
    /// The calls being inlined, innermost last.
    pub inlined: Vec<Inlined>,
    /// The index in `scopes` of the function body's outermost block.
    body_scope: usize,
    /// The array locals and their dimensions (`lower/array.rs`).
    pub arrays: HashMap<LocalId, Vec<u32>>,
    /// The variables that are arrays of one in a cell (`ElementFacts::singletons`): their
    /// address is a pointer into an array.
    pub singletons: HashSet<LocalId>,
    /// The C type of every declared local (of an array: its elements').
    pub local_types: HashMap<LocalId, CType>,
    /// `main`'s count of live heap objects, where leaks are checked (`lower/leaks.rs`).
    pub live_objects: Option<LocalId>,
    /// The pointers made from integers (`lower/integer_pointers.rs`).
    pub integer_pointers: HashSet<LocalId>,
    /// The hidden parameters that point to the globals, where globals are passed by
    /// reference ([`super::Unit::globals_by_reference`]): a global named here is the object
    /// its parameter points to.
    pub by_reference: HashSet<LocalId>,
    /// The causes of `unmodelled` guards by their condition, for guards that travel with an
    /// access and are emitted where it happens ([`FnCx::unmodelled_guard_cause`]).
    pub guard_causes: HashMap<LocalId, &'static str>,
    /// The causes of the `unmodelled` checks a construct may emit, by its span
    /// ([`FnCx::unmodelled_cause`]).
    pub pending_causes: Vec<(Span, &'static str)>,
    /// The pointers to the `char`s an allocation of a number of bytes made
    /// (`lower/allocation.rs`): converted to another type, a clearer refusal.
    pub byte_allocations: HashSet<LocalId>,
    /// The type of the objects the allocation of a number of bytes lowered next makes: the
    /// pointee of the pointer type its result is converted to at once (`int *a = malloc(n)`,
    /// `(int *)malloc(n)`; `lower/allocation.rs`). `None`: `char`s.
    pub byte_allocation_as: Option<CType>,
    /// The pointee `T` of the pointer type the result of the call lowered next converts to at
    /// once, where that call is of a defined function returning `void *`: an allocator
    /// (`struct node *n = safe_malloc(sizeof *n);`), inlined with [`FnCx::allocator_object`]
    /// (`lower/allocation.rs`, "Allocators").
    pub allocator_call: Option<CType>,
    /// Inside the body of an allocator inlined for a `T *` ([`FnCx::allocator_call`]): `T`.
    pub allocator_object: Option<CType>,
    /// The type of the one object the allocation of a number of bytes lowered next makes: an
    /// allocation converted at once to `void *` inside an inlined allocator for a `T *`.
    pub allocation_in_allocator: Option<CType>,
}

/// The name of a definition.
pub(super) fn name(
    unit: &Unit<'_>,
    definition: &Node<FunctionDefinition>,
) -> Result<String, CError> {
    match declarator_shape(&definition.node.declarator.node).0 {
        Some(name) => Ok(name),
        None => Err(CError::invalid(
            "a function definition without a name",
            unit.at(definition.span),
        )),
    }
}

/// The name, parameter types and result type of a definition, with its types checked.
pub(super) fn signature(
    unit: &Unit<'_>,
    definition: &Node<FunctionDefinition>,
) -> Result<(String, Vec<CType>, CType), CError> {
    let (name, params) = function_parameters(unit, definition)?;
    let result = result_type(unit, definition)?;
    Ok((name, params.iter().map(|p| p.ty).collect(), result))
}

/// The result type of a definition.
pub(super) fn result_type(
    unit: &Unit<'_>,
    definition: &Node<FunctionDefinition>,
) -> Result<CType, CError> {
    let base = base_type(unit, &definition.node.specifiers)?;
    let levels = match declarator_shape(&definition.node.declarator.node).1 {
        Shape::Function(_, levels) => levels,
        _ => 0,
    };
    let ty = unit.types.borrow_mut().pointer_levels(base, levels);
    let ty = complete(unit, ty, unit.at(definition.span))?;
    // A pointer into arrays where `lower/elements.rs` chose one for the result.
    let name = declarator_shape(&definition.node.declarator.node).0;
    let location = Location::Result(name.as_deref().unwrap_or_default());
    Ok(super::element_pointer::representation(unit, location, ty))
}

/// `ty`, unless it is a struct whose definition has not been seen or is outside the subset.
pub(super) fn complete(unit: &Unit<'_>, ty: CType, at: usize) -> Result<CType, CError> {
    let types = unit.types.borrow();
    let CType::Struct(id) = ty else {
        return Ok(ty);
    };
    if let Some(refusal) = types.refusal(id) {
        return Err(refusal.clone());
    }
    match types.fields(id) {
        Some(_) => Ok(ty),
        None => Err(CError::invalid(
            format!("`{}` is used before its definition", types.struct_name(id)),
            at,
        )),
    }
}

/// A parameter: its name, where it is declared and its type.
/// A parameter of a definition.
pub(super) struct Parameter {
    pub name: String,
    pub span: Span,
    /// Its type; an array parameter's element type.
    pub ty: CType,
    /// For an array parameter (`int a[]`, `int m[][3]`): the sizes of its dimensions after
    /// the first. Only an inlined call can pass it an array (`FnCx::bind_array`).
    pub array: Option<Vec<u32>>,
}

/// The name and the parameters of a definition.
pub(super) fn parameters(
    unit: &Unit<'_>,
    definition: &Node<FunctionDefinition>,
) -> Result<(String, Vec<Parameter>), CError> {
    let at = unit.at(definition.span);
    let def = &definition.node;
    if !def.declarations.is_empty() {
        return Err(CError::unsupported("K&R-style parameter declarations", at));
    }
    let (name, shape) = declarator_shape(&def.declarator.node);
    let Some(name) = name else {
        return Err(CError::invalid("a function definition without a name", at));
    };
    let Shape::Function(declarator, _) = shape else {
        return Err(CError::unsupported(
            format!("the declarator of `{name}` ({})", shape.describe()),
            at,
        ));
    };
    base_type(unit, &def.specifiers)?;
    let mut params = Vec::new();
    let Some(declarator) = declarator else {
        return Ok((name, params));
    };
    if declarator.node.ellipsis == Ellipsis::Some {
        return Err(CError::unsupported(
            format!("variadic function `{name}`"),
            unit.at(declarator.span),
        ));
    }
    for param in &declarator.node.parameters {
        if let Some(p) = parameter(unit, &name, param)? {
            params.push(p);
        }
    }
    Ok((name, params))
}

/// The parameters of a definition lowered as a function of its own, which an array
/// parameter cannot be (the IR passes no pointer into an array). `main`'s array parameters
/// that its body never names are left out (`int main(int argc, char *argv[])` of programs
/// that read no arguments: nothing of the program depends on them).
fn function_parameters(
    unit: &Unit<'_>,
    definition: &Node<FunctionDefinition>,
) -> Result<(String, Vec<Parameter>), CError> {
    let (name, mut params) = parameters(unit, definition)?;
    if name == "main" {
        let body = &definition.node.statement;
        params.retain(|p| {
            let mut finds = Finds(&p.name, false);
            finds.visit_statement(&body.node, &body.span);
            p.array.is_none() || finds.1
        });
    }
    if let Some(array) = params.iter().find(|p| p.array.is_some()) {
        if name == "main" {
            return Err(CError::unsupported(
                super::MAIN_READS_ARGV,
                array.span.start as usize,
            ));
        }
        return Err(CError::unsupported(
            "parameters of array types, other than in a call whose argument is an array \
             variable (such a call is inlined)",
            array.span.start as usize,
        ));
    }
    Ok((name, params))
}

/// One parameter of the function `function`; `None` for the `void` of `f(void)`.
fn parameter(
    unit: &Unit<'_>,
    function: &str,
    param: &Node<ParameterDeclaration>,
) -> Result<Option<Parameter>, CError> {
    let at = unit.at(param.span);
    let ty = base_type(unit, &param.node.specifiers)?;
    let Some(declarator) = &param.node.declarator else {
        return match ty {
            CType::Void => Ok(None),
            _ => Err(CError::invalid("a parameter without a name", at)),
        };
    };
    let (name, shape) = declarator_shape(&declarator.node);
    match (name, shape, ty) {
        (None, Shape::Plain(0), CType::Void) => Ok(None),
        // Of an array typedef's type: an array parameter (a pointer to its first row in C).
        (Some(name), Shape::Plain(0), CType::Array(id)) => {
            let (element, dims) = unit.types.borrow().array(id);
            Ok(Some(Parameter {
                name,
                span: unit.map.span(param.span),
                ty: complete(unit, element, at)?,
                array: Some(dims[1..].to_vec()),
            }))
        }
        (_, Shape::Plain(0), CType::Void) => Err(CError::invalid("a parameter of type `void`", at)),
        (
            Some(name),
            shape @ (Shape::Plain(_)
            | Shape::FunctionPointer { array: false, .. }
            | Shape::ArrayPointer { .. }),
            ty,
        ) => {
            let plain = plain_type(unit, &mut unit.types.borrow_mut(), ty, &shape, at)?;
            let ty = complete(unit, plain.unwrap_or(ty), at)?;
            let ty = super::element_pointer::variable_type(unit, function, &name, ty);
            let span = unit.map.span(param.span);
            Ok(Some(Parameter {
                name,
                span,
                ty,
                array: None,
            }))
        }
        (Some(name), Shape::Array(levels), ty) => {
            let ty = unit.types.borrow_mut().pointer_levels(ty, levels);
            // An array typedef's dimensions come after the declarator's.
            let (ty, typedef_dims) = match ty {
                CType::Array(id) => unit.types.borrow().array(id),
                _ => (ty, Vec::new()),
            };
            let ty = complete(unit, ty, at)?;
            let derived = &unparenthesized(declarator).node.derived[levels as usize..];
            let mut inner = Vec::with_capacity(derived.len() - 1 + typedef_dims.len());
            for part in &derived[1..] {
                let size = match &part.node {
                    DerivedDeclarator::Array(array) => match &array.node.size {
                        ArraySize::VariableExpression(e) | ArraySize::StaticExpression(e) => {
                            Some(types::file_constant(unit, e)?)
                        }
                        _ => None,
                    },
                    _ => None,
                };
                match size.and_then(|n| u32::try_from(n).ok()) {
                    Some(n) if n > 0 => inner.push(n),
                    _ => {
                        return Err(CError::unsupported(
                            "array parameters whose inner dimensions are not positive integer \
                             constants",
                            at,
                        ))
                    }
                }
            }
            let span = unit.map.span(param.span);
            // Where `lower/elements.rs` made it a pointer into arrays (a recursive function's
            // array parameter), it is one, as in C: to the first element (`int a[]`) or to
            // the first of the arrays it is made of (`int m[][3]` is `int (*m)[3]`).
            let location = super::elements::Location::Variable(function, &name);
            if typedef_dims.is_empty() && unit.elements.points_into_arrays(location) {
                let mut types = unit.types.borrow_mut();
                let pointee = match inner.is_empty() {
                    true => ty,
                    false => types.array_of(ty, inner.clone()),
                };
                let pointer = types.pointer_to(pointee);
                drop(types);
                let pointer = super::element_pointer::variable_type(unit, function, &name, pointer);
                if let CType::Element(_) = pointer {
                    return Ok(Some(Parameter {
                        name,
                        span,
                        ty: pointer,
                        array: None,
                    }));
                }
            }
            inner.extend(typedef_dims);
            Ok(Some(Parameter {
                name,
                span,
                ty,
                array: Some(inner),
            }))
        }
        (None, Shape::Plain(_), _) => Err(CError::invalid("a parameter without a name", at)),
        (_, shape, _) => Err(CError::unsupported(
            format!("parameters of {}", shape.describe()),
            at,
        )),
    }
}

pub(super) fn lower_function(
    unit: &Unit<'_>,
    properties: &mut Vec<Property>,
    id: FuncId,
    definition: &Node<FunctionDefinition>,
) -> Result<Lowered, CError> {
    let (name, params) = function_parameters(unit, definition)?;
    // A user of globals passed by reference gets a pointer to each after its own parameters.
    let hidden: &[(String, CType)] = match unit.global_users.contains(&name) {
        true => &unit.globals_by_reference,
        false => &[],
    };
    let locals = (params.iter())
        .map(|p| (p.name.clone(), p.span, p.ty))
        .chain(hidden.iter().map(|(global, _)| {
            let span = unit.map.span(definition.span);
            (hidden_parameter(global), span, CType::Void)
        }))
        .map(|(name, span, ty)| LocalInfo {
            name,
            kind: LocalKind::Param,
            span,
            address_taken: false,
            width: ty.width(),
            unsigned: ty.is_unsigned(),
            layout: Layout::Plain,
        })
        .collect();
    let mut cx = FnCx {
        unit,
        properties,
        b: FunctionBuilder::new(id, locals),
        result: result_type(unit, definition)?,
        scopes: vec![HashMap::new()],
        blocks: vec![Block::new(0)],
        blocks_opened: 1,
        jumps: Vec::new(),
        cases: Vec::new(),
        labels: HashMap::new(),
        depth: 0,
        name: name.clone(),
        is_main: name == "main",
        globals_scope: HashMap::new(),
        global_being_defined: None,
        inlined: Vec::new(),
        body_scope: 0,
        arrays: HashMap::new(),
        singletons: HashSet::new(),
        local_types: HashMap::new(),
        live_objects: None,
        integer_pointers: HashSet::new(),
        byte_allocations: HashSet::new(),
        byte_allocation_as: None,
        allocator_call: None,
        allocator_object: None,
        allocation_in_allocator: None,
        by_reference: HashSet::new(),
        guard_causes: HashMap::new(),
        pending_causes: Vec::new(),
    };
    for (i, Parameter { name, span, ty, .. }) in params.iter().enumerate() {
        cx.local_types.insert(LocalId(i as u32), *ty);
        if cx.scopes[0]
            .insert(name.clone(), (LocalId(i as u32), *ty))
            .is_some()
        {
            return Err(CError::invalid(
                format!("parameter `{name}` is declared twice"),
                span.start as usize,
            ));
        }
    }
    for (k, (global, ty)) in hidden.iter().enumerate() {
        let local = LocalId((params.len() + k) as u32);
        cx.by_reference.insert(local);
        cx.local_types.insert(local, *ty);
        cx.globals_scope.insert(global.clone(), (local, *ty));
        // A static local is named in its own function's body, by its declaration.
        if !global.contains('.') {
            cx.scopes[0].insert(global.clone(), (local, *ty));
        }
    }
    // A caller converts its arguments; an entry function's parameters come from outside (the
    // engines' symbols), so each narrow parameter is brought into its type's range first.
    for (i, Parameter { span, ty, .. }) in params.iter().enumerate() {
        let param = Operand::Local(LocalId(i as u32));
        let converted = cx.convert(param, *ty, *span);
        if converted != param {
            let value = symex_ir::cfg::Rvalue::Use(converted);
            let dst = LocalId(i as u32);
            cx.b.emit(symex_ir::cfg::InstKind::Assign { dst, value }, *span);
        }
    }
    if name == "main" {
        // C's `argc` is never negative (C11 5.1.2.2.1); any other value is an input.
        if let Some(Parameter {
            ty: CType::Int,
            span,
            ..
        }) = params.first()
        {
            let argc = Operand::Local(LocalId(0));
            let nonnegative = Rvalue::Binary(symex_ir::cfg::BinOp::Ge, argc, Operand::Const(0));
            let nonnegative = cx.temp(nonnegative, *span);
            cx.b.emit(symex_ir::cfg::InstKind::Assume(nonnegative), *span);
        }
        cx.define_globals()?;
        let start = unit.map.span(definition.span);
        cx.start_counting_objects(Span::new(start.start as usize, start.start as usize + 1));
    }
    // A parameter whose address is taken is copied into an object in memory of the same
    // name, in a scope of its own around the body.
    cx.push_scope();
    for (i, Parameter { name, span, ty, .. }) in params.iter().enumerate() {
        if cx.is_address_taken(name, false) {
            let local = cx.declare(name, *ty, false, *span)?;
            cx.bind(local, *ty, Operand::Local(LocalId(i as u32)), *span);
        }
    }
    // The body's braces open the next scope.
    cx.body_scope = cx.scopes.len();
    cx.statement(&definition.node.statement)?;
    undefined_labels(&cx.labels, &name, unit.at(definition.span))?;
    // Falling off the end returns 0 (what `main` does; for other functions the value is
    // unused in a defined program, but a mutated one may use it: null for a pointer, as every
    // open block returns it). Blocks opened after a jump and never reached are dropped by the
    // layout.
    let end = unit.map.span(definition.span);
    let end = Span::new(end.end.saturating_sub(1) as usize, end.end as usize);
    if cx.b.current_is_reached() {
        cx.check_no_leak(end);
        // A struct (or an element pointer's record) has no such value to fall back on: a
        // caller would read a number where it expects a record.
        if matches!(cx.result, CType::Struct(_) | CType::Element(_)) {
            let ty = unit.types.borrow().describe(cx.result);
            return Err(CError::unsupported(
                format!(
                    "the end of `{name}`, a function returning `{ty}`, reached without a \
                     `return` (the value is undefined)"
                ),
                unit.at(definition.span),
            ));
        }
    }
    let zero = match cx.result {
        CType::Pointer(_) => Operand::Null,
        ty => ty.constant(0),
    };
    cx.b.terminate_open_blocks(&Terminator::Return(zero), end);
    let types = unit.types.borrow();
    let mut ir_types = IrTypes::new(
        &types,
        &unit.boxed_members,
        (unit.frees, unit.type_tags),
        &unit.containers,
    );
    let declared: Vec<(String, Type)> = cx.b.locals[params.len()..]
        .iter()
        .enumerate()
        .filter(|(_, l)| l.kind != LocalKind::Temp)
        .map(|(i, l)| {
            let local = LocalId((params.len() + i) as u32);
            let ty = cx.local_types.get(&local).copied().unwrap_or(CType::Int);
            let array = cx.arrays.contains_key(&local) || cx.singletons.contains(&local);
            let ty = match array {
                true => ir_types.array(ty),
                false if l.address_taken => ir_types.object(ty),
                false => ir_types.value(ty),
            };
            (l.name.clone(), ty)
        })
        .collect();
    let mut param_types: Vec<(String, Type)> = (params.iter())
        .map(|p| (p.name.clone(), ir_types.value(p.ty)))
        .collect();
    for (global, ty) in hidden {
        let pointer = Type::Pointer(Box::new(ir_types.object(*ty)));
        param_types.push((hidden_parameter(global), pointer));
    }
    drop(types);
    let span = unit.map.span(definition.span);
    let function =
        cx.b.finish(name, span, (params.len() + hidden.len()) as u32);
    Ok(Lowered {
        function: symex_ir::lower::in_reverse_postorder(function),
        locals: (param_types, declared),
    })
}

/// The name of the hidden parameter pointing to the global `global` (a `#` name:
/// bookkeeping, which traces leave out).
fn hidden_parameter(global: &str) -> String {
    format!("#global {global}")
}

impl FnCx<'_, '_> {
    /// A pointer to the global `name` (passed by reference, [`super::Unit::globals_by_reference`]):
    /// in `main` the address of its cell, elsewhere the hidden parameter.
    pub fn global_pointer(&mut self, name: &str, span: Span) -> Result<Operand, CError> {
        let Some(&(local, _)) = self.globals_scope.get(name) else {
            // Only where a parameter of `main` hides the global (`define_globals`).
            return Err(CError::unsupported(
                format!(
                    "a parameter of `main` named like the global `{name}`, which a recursive \
                     function uses"
                ),
                span.start as usize,
            ));
        };
        Ok(match self.by_reference.contains(&local) {
            true => Operand::Local(local),
            false => self.variable_address(name, local, span),
        })
    }

    pub fn at(&self, span: lang_c::span::Span) -> usize {
        self.unit.at(span)
    }

    /// The name of the function whose body is being lowered (of the call being inlined).
    pub fn function_name(&self) -> &str {
        &self.name
    }

    pub fn span(&self, span: lang_c::span::Span) -> Span {
        self.unit.map.span(span)
    }

    /// Counts one level of nesting; refuses input nested deeper than [`MAX_NESTING`].
    pub fn enter(&mut self, span: lang_c::span::Span) -> Result<(), CError> {
        self.depth += 1;
        if self.depth > MAX_NESTING {
            return Err(CError::unsupported(
                format!("statements or expressions nested more than {MAX_NESTING} deep"),
                self.at(span),
            ));
        }
        Ok(())
    }

    pub fn leave(&mut self) {
        self.depth -= 1;
    }

    pub fn push_scope(&mut self) {
        self.scopes.push(HashMap::new());
        self.blocks.push(Block::new(self.blocks_opened));
        self.blocks_opened += 1;
    }

    pub fn pop_scope(&mut self) {
        self.scopes.pop();
        self.blocks.pop();
    }

    /// Whether the file takes the address of the variable `name` declared here (a global
    /// or `static` local where `static_storage`), or points into it as an array.
    pub fn is_address_taken(&self, name: &str, static_storage: bool) -> bool {
        let (function, local) = self.variable_key(name, static_storage);
        self.address_taken_in(function, local)
    }

    /// Whether the file takes the address of the variable `name` of `function` (`""`: the
    /// global).
    pub fn address_taken_in(&self, function: &str, name: &str) -> bool {
        let key = (function.to_string(), name.to_string());
        self.unit.address_taken.contains(&key)
    }

    /// Declares a local of type `ty` in the innermost scope.
    /// A scalar whose address the file takes lives in memory (see `memory.rs`), like structs:
    /// the local then holds an object, not a number of `ty`'s width.
    pub fn declare(
        &mut self,
        name: &str,
        ty: CType,
        static_storage: bool,
        span: Span,
    ) -> Result<LocalId, CError> {
        let address_taken = self.is_address_taken(name, static_storage);
        let local = self.b.add_local(LocalInfo {
            name: name.to_string(),
            kind: LocalKind::Var,
            span,
            address_taken,
            width: if address_taken {
                Width::W32
            } else {
                ty.width()
            },
            unsigned: !address_taken && ty.is_unsigned(),
            layout: Layout::Plain,
        });
        self.local_types.insert(local, ty);
        if address_taken && !static_storage {
            let object = match ty {
                CType::Array(id) => self.unit.types.borrow().array(id).0,
                _ => ty,
            };
            let object = self.unit.types.borrow_mut().erased(object);
            self.unit.local_object_types.borrow_mut().insert(object);
        }
        if address_taken && self.is_singleton(name, ty, static_storage) {
            self.singletons.insert(local);
            self.b.locals[local.index()].layout = Layout::One;
        }
        self.name_in_scope(name, local, ty, span.start as usize)?;
        Ok(local)
    }

    /// Whether the variable `name` of type `ty` is an array of one
    /// (`ElementFacts::singletons`): of a type arrays hold without boxes, and not a global
    /// that recursive functions reach through a pointer to its object.
    fn is_singleton(&self, name: &str, ty: CType, static_storage: bool) -> bool {
        let (function, local) = self.variable_key(name, static_storage);
        let key = (function.to_string(), local.to_string());
        let held = ty.is_scalar() || (matches!(ty, CType::Struct(_)) && !self.has_boxes(ty));
        let by_reference = static_storage && !self.unit.globals_by_reference.is_empty();
        held && !by_reference && self.unit.elements.singletons.contains(&key)
    }

    /// `value`, the object a variable of `local` holds, as what the local holds: in an array
    /// of one where it is a singleton.
    pub fn held_by(&mut self, local: LocalId, value: Operand, span: Span) -> Operand {
        match self.singletons.contains(&local) {
            true => self.temp(Rvalue::Array(vec![value]), span),
            false => value,
        }
    }

    /// Makes `name` denote `local` (of type `ty`) in the innermost scope.
    fn name_in_scope(
        &mut self,
        name: &str,
        local: LocalId,
        ty: CType,
        at: usize,
    ) -> Result<(), CError> {
        let scope = self.scopes.last_mut().expect("a function has a scope");
        match scope.insert(name.to_string(), (local, ty)) {
            None => Ok(()),
            Some(_) => Err(CError::invalid(
                format!("`{name}` is declared twice in the same scope"),
                at,
            )),
        }
    }

    /// `extern int g;` inside a function: `g` names the global again (hiding locals of that
    /// name); a function declaration is ignored, as at file scope.
    pub fn extern_local_declaration(&mut self, d: &Declaration) -> Result<(), CError> {
        for init in &d.declarators {
            let at = self.at(init.node.declarator.span);
            let (Some(name), shape) = declarator_shape(&init.node.declarator.node) else {
                continue;
            };
            if matches!(shape, Shape::Function(..)) {
                continue;
            }
            match self.globals_scope.get(&name) {
                Some(&(local, ty)) => self.name_in_scope(&name, local, ty, at)?,
                None => return Err(self.unavailable_global(&name, at)),
            }
        }
        Ok(())
    }

    /// `static int x = 0;` inside a function: `x` names the global `function.x` (defined, with
    /// its initializer, when `main` starts; `lower/mod.rs`), so it keeps its value from call to
    /// call. Its function is inlined into `main` where the globals are.
    pub fn static_local_declaration(&mut self, d: &Declaration) -> Result<(), CError> {
        for init in &d.declarators {
            let at = self.at(init.node.declarator.span);
            let Some(name) = declarator_shape(&init.node.declarator.node).0 else {
                continue;
            };
            let global = super::static_local_name(&self.name, &name);
            if let Some(Err(e)) = self.unit.globals.get(&global).map(|g| &g.ty) {
                return Err(e.clone());
            }
            let Some(&(local, ty)) = self.globals_scope.get(&global) else {
                return Err(CError::unsupported(
                    format!(
                        "the `static` local `{name}` in `{}` on its own (static locals are \
                         globals, which are locals of `main`, which inlines its calls: check \
                         from `main`)",
                        self.name
                    ),
                    at,
                ));
            };
            self.name_in_scope(&name, local, ty, at)?;
        }
        Ok(())
    }

    /// Whether a variable (local, parameter or global) of this name is in scope.
    pub fn is_visible(&self, name: &str) -> bool {
        self.scopes.iter().any(|s| s.contains_key(name)) || self.unit.globals.contains_key(name)
    }

    /// The local a name denotes in the current scopes, and its type.
    pub fn lookup(&self, name: &str, at: usize) -> Result<(LocalId, CType), CError> {
        if let Some(&local) = self.scopes.iter().rev().find_map(|s| s.get(name)) {
            return Ok(local);
        }
        Err(self.unavailable_global(name, at))
    }

    /// The address of the variable `name` (denoting `local`, which lives in a cell), noting
    /// where the variable ends before the program: its function's return ends it
    /// ([`FnCx::end_lifetimes`]); the end of an inner block does not, where C ends it too (a
    /// stack address: SV-COMP's `valid-memsafety` then cannot be `TRUE`).
    pub fn variable_address(&mut self, name: &str, local: LocalId, span: Span) -> Operand {
        if !self.lives_until_exit(name, local) {
            self.unit.ends_variables.set(true);
            if !(self.is_outermost(name) && self.unit.lifetimes) {
                self.unit.stack_addresses.set(true);
            }
            self.note_revived(local);
        }
        Operand::Local(self.b.assign_temp(Rvalue::AddrOf(local), span))
    }

    /// The index in `scopes` of the outermost block of the body being lowered (an inlined
    /// call's, inside one).
    pub fn body_scope(&self) -> usize {
        match self.inlined.last() {
            Some(inlined) => inlined.body_scope,
            None => self.body_scope,
        }
    }

    /// Notes where `local`, whose address is taken, belongs to an inlined call that may run
    /// again: the next run's declaration would make it live again for a pointer kept from the
    /// last run: its end is not set (`Unit::stack_addresses`).
    pub fn note_revived(&self, local: LocalId) {
        if (self.inlined.iter()).any(|i| i.repeats && local.index() >= i.first_local) {
            self.unit.stack_addresses.set(true);
        }
    }

    /// Notes, at a label, where a jump to it may skip the declaration of a variable whose end
    /// [`FnCx::end_lifetimes`] sets (it would read the variable's cell before any
    /// declaration made it): the variables in scope from the local `first` on, for a `case`
    /// label those declared inside its `switch`, for another label those declared after its
    /// first `goto` (none where every `goto` to it comes after it).
    pub fn note_skippable(&self, first: usize) {
        if !self.unit.lifetimes {
            return;
        }
        let skippable = (self.in_scope_since(first).into_iter())
            .any(|(local, ty)| self.ends_with_function(local, ty));
        if skippable {
            self.unit.stack_addresses.set(true);
        }
    }

    /// The variables in scope here declared when the function had `first` locals or later
    /// (not globals, nor a caller's where a call is inlined), each once, in the order of their
    /// declarations.
    pub fn in_scope_since(&self, first: usize) -> Vec<(LocalId, CType)> {
        let first = first.max(self.inlined.last().map_or(0, |i| i.first_local));
        let mut variables: Vec<(LocalId, CType)> = (self.scopes.iter().skip(1))
            .flat_map(|scope| scope.values().copied())
            .filter(|&(local, _)| local.index() >= first)
            // Globals (`static` locals among them) are named in the body's scopes too where
            // `main` declares them (`first` is 0 for `main`'s labels).
            .filter(|(local, _)| !self.globals_scope.values().any(|(g, _)| g == local))
            .collect();
        variables.sort_by_key(|&(local, _)| local);
        variables.dedup_by_key(|&mut (local, _)| local);
        variables
    }

    /// Whether [`FnCx::end_lifetimes`] sets the end of the variable `local` of type `ty` (one
    /// of [`FnCx::in_scope_since`]): it lives in a cell, or it is a struct with boxes (not an
    /// array's elements').
    fn ends_with_function(&self, local: LocalId, ty: CType) -> bool {
        let array = self.arrays.contains_key(&local);
        self.b.locals[local.index()].address_taken
            || (!array && self.in_memory(local) && self.has_boxes(ty))
    }

    /// Whether the variable `name` is one of the outermost block of the body being lowered
    /// (or a parameter): every return of the function has it in scope.
    pub fn is_outermost(&self, name: &str) -> bool {
        let declared_in = self.scopes.iter().rposition(|s| s.contains_key(name));
        declared_in.is_some_and(|scope| scope <= self.body_scope())
    }

    /// The end of the current function's variables at its return (or an inlined call's, at
    /// the end of the call), where the file takes addresses of variables that end: each
    /// variable in scope that lives in a cell, and each box of a struct variable, gets the
    /// state `DEAD`, so an access through a pointer kept to it is `use-after-return`. `main`'s
    /// own variables live until the program ends. A variable of an inner block the return
    /// leaves is ended; one whose block ended before is not (C ends it there).
    pub fn end_lifetimes(&mut self, span: Span) {
        if !self.unit.lifetimes || (self.is_main && self.inlined.is_empty()) {
            return;
        }
        self.end_variables(span);
    }

    /// Sets the end of the variables in scope that [`FnCx::end_lifetimes`] ends, here (also
    /// `main`'s, where the leak check needs them ended: `lower/leaks.rs`). Only in a file whose
    /// objects have heap states.
    pub fn end_variables(&mut self, span: Span) {
        let mut ending = self.in_scope_since(0);
        ending.retain(|&(local, ty)| self.ends_with_function(local, ty));
        for (local, ty) in ending {
            let in_cell = self.b.locals[local.index()].address_taken;
            let array = self.arrays.contains_key(&local);
            let boxes = !array && self.in_memory(local) && self.has_boxes(ty);
            self.check(Check::Init(Place::local(local)), span);
            if boxes {
                for owner in self.boxes_of(&Place::local(local), ty, span) {
                    self.set_heap_state(owner, super::memory::DEAD, span);
                }
            }
            if !in_cell {
                continue;
            }
            let state = Operand::Const(super::memory::DEAD);
            let mut place = Place::local(local);
            if array || self.singletons.contains(&local) {
                let index = Operand::Const(0);
                let array = place.clone();
                self.check(Check::InBounds { array, index }, span);
                place.projections.push(Projection::Index(index));
            }
            let heap = self.field_id(super::memory::HEAP_FIELD);
            place.projections.push(Projection::Field(heap));
            self.b.emit(
                InstKind::Store {
                    place,
                    value: state,
                },
                span,
            );
        }
    }

    /// Whether the variable `name` (denoting `local` here) lives as long as the program: a
    /// global, a `static` local, or a local of `main`'s outermost block (or a parameter of
    /// `main`), outside inlined code, where nothing calls `main`. A pointer to it can never
    /// outlive it.
    pub fn lives_until_exit(&self, name: &str, local: LocalId) -> bool {
        if self.global_being_defined.as_deref() == Some(name)
            || (self.globals_scope.values()).any(|&(global, _)| global == local)
        {
            return true;
        }
        let declared_in = self
            .scopes
            .iter()
            .rposition(|scope| scope.contains_key(name));
        self.is_main
            && !self.unit.main_called
            && self.inlined.is_empty()
            && declared_in.is_some_and(|scope| scope <= self.body_scope)
    }

    /// Why the global `name` is not in scope here (or why there is no such name).
    fn unavailable_global(&self, name: &str, at: usize) -> CError {
        let Some(global) = self.unit.globals.get(name) else {
            if let Some(why) = self.unit.types.borrow().enum_refusal(name) {
                return why.clone();
            }
            return CError::invalid(format!("`{name}` is not declared"), at);
        };
        let problem = match &global.ty {
            Err(e) => return e.clone(),
            Ok(_) if !global.defined => {
                format!("the global variable `{name}`, which is declared `extern` and not defined")
            }
            Ok(_) => format!(
                "the global variable `{name}` in `{}` on its own (globals are locals of `main`, \
                 which inlines its calls: check from `main`)",
                self.name
            ),
        };
        CError::unsupported(problem, at)
    }

    /// `main`'s prologue: every defined global of a supported type becomes a local of the
    /// outermost scope (a parameter of the same name hides it), set to its initializer or 0.
    fn define_globals(&mut self) -> Result<(), CError> {
        let unit = self.unit;
        for name in &unit.global_order {
            let global = &unit.globals[name];
            let (Ok(ty), true) = (&global.ty, global.defined) else {
                continue;
            };
            if self.scopes[0].contains_key(name) {
                continue;
            }
            let declarator = global.declarator;
            let (span, at) = (self.span(declarator.span), self.at(declarator.span));
            // A `static` local's initializer may name the file's enumeration constants, which
            // a parameter of `main` would hide here.
            if let (Some(init), true) = (global.init, name.contains('.')) {
                let hidden = (self.scopes[0].keys())
                    .filter(|p| !self.globals_scope.contains_key(*p))
                    .find(|p| initializer_mentions(init, p));
                if let Some(parameter) = hidden {
                    return Err(CError::unsupported(
                        format!(
                            "the initializer of the `static` local `{name}` names `{parameter}`, \
                             which a parameter of `main` hides where it is set"
                        ),
                        at,
                    ));
                }
            }
            let ty = complete(unit, *ty, at)?;
            // A `static` local's initializer sees its function's `static`s defined before it
            // (`static int *sp = &sx;`).
            let function = name.split_once('.').map(|(function, _)| function);
            self.push_scope();
            if let Some(function) = function {
                let statics: Vec<(String, (LocalId, CType))> = (self.globals_scope.iter())
                    .filter_map(|(global, &entry)| {
                        let (owner, local) = global.split_once('.')?;
                        (owner == function).then(|| (local.to_string(), entry))
                    })
                    .collect();
                for (local, (id, ty)) in statics {
                    self.name_in_scope(&local, id, ty, at)?;
                }
            }
            self.global_being_defined = Some(name.clone());
            let defined = self.define_global(name, declarator, ty, global.init, span);
            self.global_being_defined = None;
            self.pop_scope();
            let local = defined?;
            // A pointer may have become a pointer into arrays (`lower/elements.rs`).
            let ty = self.local_types.get(&local).copied().unwrap_or(ty);
            // Declared in the scope of the function's `static`s: `main`'s outermost names it.
            self.name_in_scope(name, local, ty, at)?;
            self.globals_scope.insert(name.clone(), (local, ty));
        }
        Ok(())
    }

    /// Declares the global `name` (of type `ty`, declared by `declarator`) in the scope
    /// innermost now, set to `init` or zero.
    fn define_global(
        &mut self,
        name: &str,
        declarator: &Node<lang_c::ast::Declarator>,
        ty: CType,
        init: Option<&Node<Initializer>>,
        span: Span,
    ) -> Result<LocalId, CError> {
        Ok(match declarator_shape(&declarator.node).1 {
            Shape::Array(levels)
            | Shape::FunctionPointer {
                array: true,
                levels,
                ..
            } => self.declare_array((name, declarator), ty, levels, init, true)?,
            // Of an array typedef's type.
            Shape::Plain(0) if matches!(ty, CType::Array(_)) => {
                self.declare_array((name, declarator), ty, 0, init, true)?
            }
            _ => self.define_variable(name, ty, init, true, span)?,
        })
    }

    /// The call `name(args)` inlined into `main`: the callee's body lowered in place, in scopes
    /// of its own under the globals' scope, with its own labels and `break`/`continue`
    /// targets; its `return`s go to the block after the call. Recursion is refused.
    pub fn inline_call(
        &mut self,
        name: &str,
        definition: &Node<FunctionDefinition>,
        params: &[Parameter],
        args: Vec<Argument>,
        span: Span,
        at: usize,
    ) -> Result<(Operand, CType), CError> {
        if self.inlined.iter().any(|i| i.name == name) {
            return Err(CError::unsupported(
                format!(
                    "the recursive function `{name}` in a program whose calls are inlined into \
                     `main` (its functions share global variables and one of them is an array, \
                     which only inlining shares; `--inline-calls`; or, where leaks are checked, \
                     it may allocate, free or exit)"
                ),
                at,
            ));
        }
        if self.b.block_count() > MAX_INLINED_BLOCKS {
            return Err(CError::unsupported(
                format!(
                    "inlining the calls of `main` (functions share global variables, or \
                     `--inline-calls`) beyond {MAX_INLINED_BLOCKS} blocks"
                ),
                at,
            ));
        }
        let result_type = result_type(self.unit, definition)?;
        let result = self.b.new_temp(span, result_type.width());
        let exit = self.b.new_block();
        let repeats = !self.jumps.is_empty()
            || !self.labels.is_empty()
            || self.inlined.last().is_some_and(|i| i.repeats);
        let outer_blocks =
            std::mem::replace(&mut self.blocks, vec![Block::new(self.blocks_opened)]);
        self.blocks_opened += 1;
        let outer = (
            std::mem::replace(&mut self.scopes, vec![self.globals_scope.clone()]),
            std::mem::take(&mut self.labels),
            std::mem::take(&mut self.jumps),
            std::mem::take(&mut self.cases),
            std::mem::replace(&mut self.result, result_type),
            std::mem::replace(&mut self.name, name.to_string()),
        );
        let array_params = params
            .iter()
            .zip(&args)
            .filter(|(_, arg)| matches!(arg, Argument::Array(..)))
            .map(|(param, _)| param.name.clone())
            .collect();
        self.inlined.push(Inlined {
            name: name.to_string(),
            result,
            exit,
            first_local: self.b.locals.len(),
            // The parameters' scope, then the body's braces.
            body_scope: 2,
            repeats,
            array_params,
        });
        self.push_scope();
        let body = self.inline_body(params, args, definition);
        self.inlined.pop();
        let labels = std::mem::replace(&mut self.labels, outer.1);
        (self.scopes, self.jumps, self.cases, self.result, self.name) =
            (outer.0, outer.2, outer.3, outer.4, outer.5);
        self.blocks = outer_blocks;
        body?;
        undefined_labels(&labels, name, self.unit.at(definition.span))?;
        // Falling off the end returns 0, as for a function of its own.
        self.b.emit(
            InstKind::Assign {
                dst: result,
                value: Rvalue::Use(result_type.constant(0)),
            },
            span,
        );
        self.b.goto(exit, span);
        self.b.switch_to(exit);
        let ty = if result_type == CType::Void {
            CType::Int
        } else {
            result_type
        };
        Ok((Operand::Local(result), ty))
    }

    /// The parameters set to the arguments, then the body.
    fn inline_body(
        &mut self,
        params: &[Parameter],
        args: Vec<Argument>,
        definition: &Node<FunctionDefinition>,
    ) -> Result<(), CError> {
        for (param, arg) in params.iter().zip(args) {
            match arg {
                Argument::Value(value) => {
                    let local = self.declare(&param.name, param.ty, false, param.span)?;
                    self.bind(local, param.ty, value, param.span);
                }
                Argument::Array(array, element) => {
                    self.name_in_scope(&param.name, array, element, param.span.start as usize)?;
                }
                Argument::Typed(value, ty) => {
                    let local = self.declare(&param.name, ty, false, param.span)?;
                    self.bind(local, ty, value, param.span);
                }
            }
        }
        self.statement(&definition.node.statement)
    }

    /// Sets the new local `local` of type `ty` to `value` (as an object if it lives in memory).
    fn bind(&mut self, local: LocalId, ty: CType, value: Operand, span: Span) {
        let value = match self.in_memory(local) && ty.is_scalar() {
            true => self.object_of(ty, &[value], span),
            false => value,
        };
        let value = Rvalue::Use(self.held_by(local, value, span));
        self.b.emit(InstKind::Assign { dst: local, value }, span);
    }

    /// The block of label `name`, created at its first mention.
    pub fn label(&mut self, name: &str) -> BlockId {
        if let Some(label) = self.labels.get(name) {
            return label.block;
        }
        let block = self.b.new_block();
        let label = LabelEntry {
            block,
            defined: false,
            first_mention: self.b.locals.len(),
            landings: Vec::new(),
            in_scope: Vec::new(),
            reading_at_entry: Vec::new(),
        };
        self.labels.insert(name.to_string(), label);
        block
    }

    /// Where `goto name` jumps: the label's block, or for a label not defined yet under
    /// `Options::nondet_locals` a block of this `goto`'s own, which [`FnCx::land`] fills when
    /// the label is defined.
    pub fn goto_target(&mut self, name: &str) -> BlockId {
        let block = self.label(name);
        if !self.unit.options.nondet_locals || self.labels[name].defined {
            return block;
        }
        let landing = Landing {
            block: self.b.new_block(),
            locals: self.b.locals.len(),
            inside: self.blocks.iter().map(|block| block.serial).collect(),
        };
        let block = landing.block;
        let label = self.labels.get_mut(name).expect("just created");
        label.landings.push(landing);
        block
    }

    /// Takes the landings of the `goto`s that came before label `name`'s definition.
    pub fn take_landings(&mut self, name: &str) -> Vec<Landing> {
        (self.labels.get_mut(name)).map_or_else(Vec::new, |l| std::mem::take(&mut l.landings))
    }

    /// The count of locals where a `goto` first named label `name` before its definition
    /// (`usize::MAX` where none did).
    pub fn label_jumped_from(&self, name: &str) -> usize {
        match self.labels.get(name) {
            Some(label) if !label.defined => label.first_mention,
            _ => usize::MAX,
        }
    }

    /// Marks label `name` defined; a second definition is an error.
    pub fn define_label(&mut self, name: &str, at: usize) -> Result<BlockId, CError> {
        let block = self.label(name);
        let in_scope = match self.unit.options.nondet_locals {
            true => self.declared_since(0),
            false => Vec::new(),
        };
        let reading_at_entry = self.reading_at_entry();
        let entry = self.labels.get_mut(name).expect("just created");
        if entry.defined {
            return Err(CError::invalid(
                format!("label `{name}` is defined twice"),
                at,
            ));
        }
        entry.defined = true;
        entry.in_scope = in_scope;
        entry.reading_at_entry = reading_at_entry;
        Ok(block)
    }

    /// Ends the current block with `goto target` and continues in a fresh block (unreachable
    /// unless a label or case later makes it a target).
    pub fn jump(&mut self, target: BlockId, span: Span) {
        self.b.goto(target, span);
        let next = self.b.new_block();
        self.b.switch_to(next);
    }

    pub fn check(&mut self, check: Check, span: Span) {
        if let Check::Condition {
            holds,
            kind: symex_ir::cfg::PropertyKind::Unmodelled,
        } = check
        {
            let guard = match holds {
                Operand::Local(holds) => self.guard_causes.get(&holds).copied(),
                _ => None,
            };
            let pending = (self.pending_causes.iter()).filter(|(at, _)| *at == span);
            let causes = guard.into_iter().chain(pending.map(|(_, cause)| *cause));
            let mut recorded = self.unit.unmodelled_causes.borrow_mut();
            recorded.extend(causes.map(|cause| (span, cause)));
        }
        self.b.emit_check(self.properties, check, span);
    }

    /// Says why a run that fails an `unmodelled` check the construct at `span` emits leaves
    /// what symex models: [`FnCx::check`] records it for each such check emitted at `span`
    /// (`Translated::unmodelled_causes`), so that the report names this cause, where the
    /// kind alone names every one. A construct that emits no such check records nothing.
    pub fn unmodelled_cause(&mut self, span: Span, cause: &'static str) {
        self.pending_causes.push((span, cause));
    }

    /// Records the cause of an `unmodelled` guard whose condition is `holds` (a guard of an
    /// access, emitted where the access happens: [`FnCx::check`] records it at that span).
    pub fn unmodelled_guard_cause(&mut self, holds: Operand, cause: &'static str) {
        if let Operand::Local(holds) = holds {
            self.guard_causes.insert(holds, cause);
        }
    }

    /// The `unmodelled` check that `holds` is not 0, here, with its own cause.
    pub fn check_modelled(&mut self, holds: Operand, cause: &'static str, span: Span) {
        self.unmodelled_guard_cause(holds, cause);
        let kind = symex_ir::cfg::PropertyKind::Unmodelled;
        self.check(Check::Condition { holds, kind }, span);
    }
}

/// An error for a `goto` of function `name` whose label the function never defines.
fn undefined_labels(
    labels: &HashMap<String, LabelEntry>,
    name: &str,
    at: usize,
) -> Result<(), CError> {
    match labels.iter().find(|(_, label)| !label.defined) {
        Some((label, _)) => Err(CError::invalid(
            format!("`goto {label}` names no label of `{name}`"),
            at,
        )),
        None => Ok(()),
    }
}

/// Whether `static` or `_Thread_local` is among the specifiers (locals that outlive a call).
pub(super) fn is_extern(specifiers: &[Node<DeclarationSpecifier>]) -> bool {
    specifiers.iter().any(|s| {
        matches!(
            &s.node,
            DeclarationSpecifier::StorageClass(c) if c.node == StorageClassSpecifier::Extern
        )
    })
}

pub(super) fn has_static_storage(specifiers: &[Node<DeclarationSpecifier>]) -> bool {
    specifiers.iter().any(|s| {
        matches!(
            &s.node,
            DeclarationSpecifier::StorageClass(c)
                if matches!(c.node, StorageClassSpecifier::Static | StorageClassSpecifier::ThreadLocal)
        )
    })
}

/// Whether the body of `definition` starts by assigning its parameter `name` a value that
/// does not read it (`l = head;`), so that the argument passed is never used.
pub(super) fn overwrites_first(definition: &Node<FunctionDefinition>, name: &str) -> bool {
    let Statement::Compound(items) = &definition.node.statement.node else {
        return false;
    };
    let Some(BlockItem::Statement(first)) = items.first().map(|item| &item.node) else {
        return false;
    };
    let Statement::Expression(Some(e)) = &first.node else {
        return false;
    };
    let Expression::BinaryOperator(assign) = &e.node else {
        return false;
    };
    let assigns = assign.node.operator.node == BinaryOperator::Assign
        && matches!(&assign.node.lhs.node, Expression::Identifier(id) if id.node.name == name);
    assigns && !mentions(&assign.node.rhs, name)
}

/// Whether the identifier `name` occurs in `e`.
pub(super) fn mentions(e: &Node<Expression>, name: &str) -> bool {
    let mut finds = Finds(name, false);
    finds.visit_expression(&e.node, &e.span);
    finds.1
}

/// Whether the identifier `name` occurs in `initializer`.
pub(super) fn initializer_mentions(initializer: &Node<Initializer>, name: &str) -> bool {
    let mut finds = Finds(name, false);
    finds.visit_initializer(&initializer.node, &initializer.span);
    finds.1
}

/// Finds an identifier by its name (a variable's or a function's: the names of members in
/// `s.m` and in `.m =` designators are not looked at).
struct Finds<'n>(&'n str, bool);

impl<'ast> Visit<'ast> for Finds<'_> {
    fn visit_identifier(&mut self, id: &'ast lang_c::ast::Identifier, _: &'ast lang_c::span::Span) {
        self.1 |= id.name == self.0;
    }

    fn visit_member_expression(
        &mut self,
        e: &'ast lang_c::ast::MemberExpression,
        _: &'ast lang_c::span::Span,
    ) {
        self.visit_expression(&e.expression.node, &e.expression.span);
    }

    fn visit_designator(
        &mut self,
        d: &'ast lang_c::ast::Designator,
        span: &'ast lang_c::span::Span,
    ) {
        if !matches!(d, lang_c::ast::Designator::Member(_)) {
            lang_c::visit::visit_designator(self, d, span);
        }
    }
}
