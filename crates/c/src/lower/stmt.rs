//! C statements lowered into blocks: structured control flow, `switch` as a chain of
//! comparisons, `goto` to label blocks, and local declarations with their initializers. Code
//! after a jump goes into a fresh block that only a label or case can make reachable. An
//! initializer of a struct with an array member gives the member a list or a string (the
//! array variables' rules, `array.rs`), or `0` as the list's last item (`{0}`); other brace
//! elision is refused.

use lang_c::ast::{
    BlockItem, Declaration, Designator, Expression, ForInitializer, Initializer,
    InitializerListItem, Label, Statement,
};
use lang_c::span::Node;
use symex_ir::cfg::{BinOp, InstKind, LocalId, Operand, Rvalue, Terminator, Width};
use symex_syntax::span::Span;

use super::element_pointer;
use super::func::{
    complete, has_static_storage, initializer_mentions, is_extern, Cases, FnCx, Jumps,
};
use super::is_typedef;
use super::memory::LValue;
use super::types::{
    array_element, base_type, declarator_shape, is_anonymous, plain_type, ArrayId, CType, Shape,
    Types,
};
use crate::error::CError;

impl FnCx<'_, '_> {
    pub fn statement(&mut self, s: &Node<Statement>) -> Result<(), CError> {
        self.enter(s.span)?;
        let result = self.statement_kind(s);
        self.leave();
        result
    }

    fn statement_kind(&mut self, s: &Node<Statement>) -> Result<(), CError> {
        let span = self.span(s.span);
        let at = self.at(s.span);
        match &s.node {
            Statement::Compound(items) => {
                self.push_scope();
                self.open_block(items, span, at);
                for item in items {
                    match &item.node {
                        BlockItem::Declaration(d) => self.local_declaration(d)?,
                        BlockItem::Statement(st) => self.statement(st)?,
                        BlockItem::StaticAssert(a) => {
                            return Err(CError::unsupported("`_Static_assert`", self.at(a.span)))
                        }
                    }
                }
                // Falling off the end of a function's body returns: its variables end there,
                // while they are in scope.
                if self.scopes.len() == self.body_scope() + 1 && self.b.current_is_reached() {
                    let end = Span::new(span.end.saturating_sub(1) as usize, span.end as usize);
                    self.end_lifetimes(end);
                }
                self.close_block(span);
                self.pop_scope();
            }
            Statement::Expression(None) => {}
            Statement::Expression(Some(e)) => {
                if !self.output_statement(e)? {
                    self.value(e)?;
                }
            }
            Statement::If(n) => {
                let (then_bb, else_bb, join) =
                    (self.b.new_block(), self.b.new_block(), self.b.new_block());
                self.branch(&n.node.condition, then_bb, else_bb)?;
                self.b.switch_to(then_bb);
                self.statement(&n.node.then_statement)?;
                self.b.goto(join, span);
                self.b.switch_to(else_bb);
                if let Some(e) = &n.node.else_statement {
                    self.statement(e)?;
                }
                self.b.goto(join, span);
                self.b.switch_to(join);
            }
            Statement::While(n) => {
                let (header, body, exit) =
                    (self.b.new_block(), self.b.new_block(), self.b.new_block());
                self.b.goto(header, span);
                self.b.switch_to(header);
                self.branch(&n.node.expression, body, exit)?;
                self.b.switch_to(body);
                self.loop_body(&n.node.statement, exit, header)?;
                self.b.goto(header, span);
                self.b.switch_to(exit);
            }
            Statement::DoWhile(n) => {
                let (body, test, exit) =
                    (self.b.new_block(), self.b.new_block(), self.b.new_block());
                self.b.goto(body, span);
                self.b.switch_to(body);
                self.loop_body(&n.node.statement, exit, test)?;
                self.b.goto(test, span);
                self.b.switch_to(test);
                self.branch(&n.node.expression, body, exit)?;
                self.b.switch_to(exit);
            }
            Statement::For(n) => {
                self.push_scope();
                match &n.node.initializer.node {
                    ForInitializer::Empty => {}
                    ForInitializer::Expression(e) => {
                        self.value(e)?;
                    }
                    ForInitializer::Declaration(d) => self.local_declaration(d)?,
                    ForInitializer::StaticAssert(a) => {
                        return Err(CError::unsupported("`_Static_assert`", self.at(a.span)))
                    }
                }
                let header = self.b.new_block();
                let (body, step, exit) =
                    (self.b.new_block(), self.b.new_block(), self.b.new_block());
                self.b.goto(header, span);
                self.b.switch_to(header);
                match &n.node.condition {
                    Some(cond) => self.branch(cond, body, exit)?,
                    None => self.b.goto(body, span),
                }
                self.b.switch_to(body);
                self.loop_body(&n.node.statement, exit, step)?;
                self.b.goto(step, span);
                self.b.switch_to(step);
                if let Some(e) = &n.node.step {
                    self.value(e)?;
                }
                self.b.goto(header, span);
                self.b.switch_to(exit);
                self.pop_scope();
            }
            Statement::Goto(label) => {
                self.refuse_backward_entry(&label.node.name)?;
                let target = self.goto_target(&label.node.name);
                // Backward into the scope of variables that read inputs: they read new ones
                // on the way (`lower/nondet_locals.rs`).
                let reentered = self.reentered(&label.node.name);
                self.jump_reading(target, reentered, span);
            }
            Statement::Continue => match self.jumps.iter().rev().find_map(|j| j.cont) {
                Some(target) => self.jump(target, span),
                None => return Err(CError::invalid("`continue` outside a loop", at)),
            },
            Statement::Break => match self.jumps.last() {
                Some(j) => {
                    let target = j.brk;
                    self.jump(target, span);
                }
                None => return Err(CError::invalid("`break` outside a loop or `switch`", at)),
            },
            Statement::Return(value) => {
                let value = match value {
                    Some(e) => {
                        let result = self.result;
                        self.converted(e, result, span, at)?
                    }
                    None => self.result.constant(0),
                };
                self.end_lifetimes(span);
                match self.inlined.last() {
                    // A `return` of a call inlined into `main`: its result, then after the call.
                    Some(&super::func::Inlined { result, exit, .. }) => {
                        self.b.emit(
                            InstKind::Assign {
                                dst: result,
                                value: Rvalue::Use(value),
                            },
                            span,
                        );
                        self.jump(exit, span);
                    }
                    None => {
                        self.check_no_leak(span);
                        self.b.terminate(Terminator::Return(value), span);
                        let next = self.b.new_block();
                        self.b.switch_to(next);
                    }
                }
            }
            Statement::Labeled(n) => {
                let skipped_from = match &n.node.label.node {
                    Label::Identifier(name) => self.label_jumped_from(&name.node.name),
                    _ => self.cases.last().map_or(0, |cases| cases.first_local),
                };
                self.note_skippable(skipped_from);
                // Under `nondet_locals`, the jumps that may skip declarations of variables that
                // read inputs in scope here land on blocks that give them new inputs
                // (`FnCx::land`): the `goto`s before the label, or the `switch`'s dispatch.
                let mut landings = Vec::new();
                let target = match &n.node.label.node {
                    Label::Identifier(name) => {
                        landings = self.take_landings(&name.node.name);
                        self.define_label(&name.node.name, at)?
                    }
                    Label::Case(value) => {
                        let value = self.constant(value)?;
                        let block = self.b.new_block();
                        let dispatched =
                            self.dispatch_target(block, skipped_from, &mut landings, at)?;
                        let Some(cases) = self.cases.last_mut() else {
                            return Err(CError::invalid("`case` outside a `switch`", at));
                        };
                        let value = match cases.ty.map(CType::width) {
                            Some(Width::W32) => i64::from(value as i32),
                            _ => value,
                        };
                        if cases.values.iter().any(|&(v, _)| v == value) {
                            return Err(CError::invalid(format!("duplicate `case {value}`"), at));
                        }
                        cases.values.push((value, dispatched));
                        block
                    }
                    Label::Default => {
                        let block = self.b.new_block();
                        let dispatched =
                            self.dispatch_target(block, skipped_from, &mut landings, at)?;
                        let Some(cases) = self.cases.last_mut() else {
                            return Err(CError::invalid("`default` outside a `switch`", at));
                        };
                        if cases.default.replace(dispatched).is_some() {
                            return Err(CError::invalid("two `default` labels", at));
                        }
                        block
                    }
                    Label::CaseRange(_) => {
                        return Err(CError::unsupported("case ranges (`case a ... b`)", at))
                    }
                };
                self.b.goto(target, span);
                self.land(landings, target, span)?;
                self.b.switch_to(target);
                self.statement(&n.node.statement)?;
            }
            Statement::Switch(n) => {
                // The labels are converted to the promoted type of the value.
                let (value, ty) = self.typed(&n.node.expression)?;
                let ty = ty.promoted();
                let value = self.b.assign_temp(Rvalue::Use(value), span);
                // The dispatch stays open while the body is lowered: its comparisons need the
                // case labels the body defines.
                let dispatch = self.b.current();
                let (body, exit) = (self.b.new_block(), self.b.new_block());
                self.b.switch_to(body);
                let cont = self.jumps.last().and_then(|j| j.cont);
                self.jumps.push(Jumps { brk: exit, cont });
                self.cases.push(Cases {
                    ty: Some(ty),
                    first_local: self.b.locals.len(),
                    open_blocks: self.open_blocks(),
                    ..Cases::default()
                });
                let lowered = self.statement(&n.node.statement);
                self.jumps.pop();
                let cases = self.cases.pop().unwrap_or_default();
                lowered?;
                self.b.goto(exit, span);
                self.b.switch_to(dispatch);
                for (case, target) in cases.values {
                    let equal = Rvalue::Binary(BinOp::Eq, Operand::Local(value), ty.constant(case));
                    let equal = self.b.assign_temp(equal, span);
                    let next = self.b.new_block();
                    self.b.branch(Operand::Local(equal), target, next, span);
                    self.b.switch_to(next);
                }
                self.b.goto(cases.default.unwrap_or(exit), span);
                self.b.switch_to(exit);
            }
            Statement::Asm(_) => return Err(CError::unsupported("inline assembly", at)),
        }
        Ok(())
    }

    /// A loop body with its `break` and `continue` targets.
    fn loop_body(
        &mut self,
        body: &Node<Statement>,
        brk: symex_ir::cfg::BlockId,
        cont: symex_ir::cfg::BlockId,
    ) -> Result<(), CError> {
        self.jumps.push(Jumps {
            brk,
            cont: Some(cont),
        });
        let result = self.statement(body);
        self.jumps.pop();
        result
    }

    /// `int x = e, y;` inside a function.
    pub fn local_declaration(&mut self, declaration: &Node<Declaration>) -> Result<(), CError> {
        let at = self.at(declaration.span);
        let d = &declaration.node;
        if is_typedef(&d.specifiers) {
            return Err(CError::unsupported("typedefs inside a function", at));
        }
        if has_static_storage(&d.specifiers) {
            return self.static_local_declaration(d);
        }
        if is_extern(&d.specifiers) {
            return self.extern_local_declaration(d);
        }
        self.note_declaration_typeofs(&d.specifiers);
        let base = base_type(self.unit, &d.specifiers)?;
        for init in &d.declarators {
            let declarator = &init.node.declarator;
            let at = self.at(declarator.span);
            let span = self.span(declarator.span);
            let (name, shape) = declarator_shape(&declarator.node);
            let initializer = init.node.initializer.as_ref();
            match (name, shape) {
                // A variable of an array typedef's type is an array.
                (Some(name), Shape::Plain(0)) if matches!(base, CType::Array(_)) => {
                    self.declare_array((&name, declarator), base, 0, initializer, false)?;
                }
                (Some(name), Shape::Array(levels)) if base != CType::Void || levels > 0 => {
                    let ty = self.unit.types.borrow_mut().pointer_levels(base, levels);
                    let ty = complete(self.unit, ty, at)?;
                    self.declare_array((&name, declarator), ty, levels, initializer, false)?;
                }
                (Some(name), shape @ Shape::FunctionPointer { array: true, .. }) => {
                    let mut types = self.unit.types.borrow_mut();
                    let (ty, levels) = array_element(self.unit, &mut types, base, &shape, at)?;
                    drop(types);
                    self.declare_array((&name, declarator), ty, levels, initializer, false)?;
                }
                (
                    Some(name),
                    shape @ (Shape::Plain(_)
                    | Shape::FunctionPointer { .. }
                    | Shape::ArrayPointer { .. }),
                ) if base != CType::Void || !matches!(shape, Shape::Plain(0)) => {
                    let mut types = self.unit.types.borrow_mut();
                    let ty = plain_type(self.unit, &mut types, base, &shape, at)?;
                    drop(types);
                    let ty = complete(self.unit, ty.unwrap_or(base), at)?;
                    self.define_variable(&name, ty, initializer, false, span)?;
                }
                (_, Shape::Plain(_) | Shape::Array(_)) => {
                    return Err(CError::invalid("a variable of type `void`", at));
                }
                (_, Shape::Function(..)) => {
                    return Err(CError::unsupported(
                        "function declarations inside a function",
                        at,
                    ))
                }
                (_, shape) => return Err(CError::unsupported(shape.describe(), at)),
            }
        }
        Ok(())
    }

    /// The function and the name `lower/elements.rs` knows the variable `name` by: a `static`
    /// local is the global `function.local`, for which the choice was made as for the local.
    pub fn variable_key<'n>(&'n self, name: &'n str, static_storage: bool) -> (&'n str, &'n str) {
        match name.split_once('.') {
            Some((function, local)) if static_storage => (function, local),
            _ if static_storage => ("", name),
            _ => (self.function_name(), name),
        }
    }

    /// Declares the variable `name` of type `ty` in the innermost scope and sets it to its
    /// initializer; without one, to zero where it has static storage, to inputs where
    /// `Options::nondet_locals` takes its type so, and else an object in memory gets its
    /// indeterminate value (every leaf unassigned) and a scalar local stays uninitialized.
    pub fn define_variable(
        &mut self,
        name: &str,
        ty: CType,
        initializer: Option<&Node<Initializer>>,
        static_storage: bool,
        span: Span,
    ) -> Result<LocalId, CError> {
        if let Some(local) = self.define_view(name, ty, initializer, static_storage, span)? {
            return Ok(local);
        }
        let (function, local_name) = self.variable_key(name, static_storage);
        let ty = element_pointer::variable_type(self.unit, function, local_name, ty);
        let local = self.declare(name, ty, static_storage, span)?;
        let in_memory = self.in_memory(local);
        let value = match initializer {
            // SV-COMP's tasks read `int x;` as an input (`lower/nondet_locals.rs`).
            None if !static_storage && self.input_leaves(ty, 1).is_some() => {
                self.assign_input(local, ty, span);
                return Ok(local);
            }
            None if in_memory => self.blank_object(ty, static_storage, false, span),
            None if static_storage => match ty {
                CType::Pointer(_) => Operand::Null,
                CType::Element(_) => self.element_value(Operand::Null, Operand::Const(0), span),
                _ => ty.constant(0),
            },
            None => return Ok(local),
            // A whole struct: copied with its indeterminate members.
            Some(Node {
                node: Initializer::Expression(e),
                ..
            }) if matches!(ty, CType::Struct(_)) => {
                let at = self.at(e.span);
                self.converted(e, ty, span, at)?
            }
            // `struct item g = { 7, { &g.link, &g.link } };` (the Linux list's
            // `LIST_HEAD_INIT` of a member): the initializer takes the address of a member of
            // the object itself, which lives in a box the object holds. So the object is made
            // first, and its initializer stored into it as a whole struct is (into the boxes
            // already there).
            Some(initializer)
                if in_memory && self.has_boxes(ty) && initializer_mentions(initializer, name) =>
            {
                let blank = self.blank_object(ty, static_storage, false, span);
                let value = Rvalue::Use(self.held_by(local, blank, span));
                self.b.emit(InstKind::Assign { dst: local, value }, span);
                let mut leaves = Vec::new();
                self.initial_leaves(ty, initializer, &mut leaves)?;
                let value = self.object_of(ty, &leaves, span);
                let LValue::Memory(object) = self.local_lvalue(local) else {
                    return Err(CError::invalid(
                        "internal error: a struct variable outside memory",
                        span.start as usize,
                    ));
                };
                self.write_memory(&object, ty, value, false, span);
                return Ok(local);
            }
            Some(initializer) => {
                let mut leaves = Vec::new();
                self.initial_leaves(ty, initializer, &mut leaves)?;
                match (in_memory, ty.is_scalar()) {
                    (false, true) => leaves[0],
                    _ => self.object_of(ty, &leaves, span),
                }
            }
        };
        let value = Rvalue::Use(self.held_by(local, value, span));
        self.b.emit(InstKind::Assign { dst: local, value }, span);
        Ok(local)
    }

    /// The values of the leaves of an object of type `ty` (`Types::leaves` order) that
    /// `initializer` gives it: braces for structs (positional or `.member =`), members it does
    /// not name zero, as C says. A struct value inside braces is refused: its leaves would
    /// lose whether they were assigned.
    pub(super) fn initial_leaves(
        &mut self,
        ty: CType,
        initializer: &Node<Initializer>,
        out: &mut Vec<Operand>,
    ) -> Result<(), CError> {
        let at = self.at(initializer.span);
        let span = self.span(initializer.span);
        if self.is_union(ty) {
            let Initializer::List(items) = &initializer.node else {
                return Err(CError::unsupported(
                    "a union value inside braces (its bytes' flags would be lost; initialize \
                     its member)",
                    at,
                ));
            };
            return self.initial_union_leaves(ty, items, out, span);
        }
        let fields = match ty {
            CType::Struct(id) => self.unit.types.borrow().fields(id).map(<[_]>::to_vec),
            _ => None,
        };
        match (&initializer.node, fields) {
            (Initializer::Expression(e), None) => {
                let at = self.at(e.span);
                out.push(self.converted(e, ty, span, at)?);
            }
            (Initializer::List(items), None) => match items.as_slice() {
                [item] if item.node.designation.is_empty() => {
                    self.initial_leaves(ty, &item.node.initializer, out)?
                }
                _ => {
                    return Err(CError::unsupported(
                        "this initializer of a scalar (one expression in braces at most)",
                        at,
                    ))
                }
            },
            (Initializer::Expression(_), Some(_)) => {
                return Err(CError::unsupported(
                    "a struct value inside an initializer list (write the braces of every \
                     nested struct)",
                    at,
                ));
            }
            (Initializer::List(items), Some(fields)) => {
                let mut given: Vec<Option<Vec<Operand>>> = vec![None; fields.len()];
                let mut next = 0;
                let mut k = 0;
                // After `.a.b = v`, C goes on inside `a` (after `b`): an item without a
                // designator there is refused rather than placed by the outer list.
                let mut inside = false;
                while let Some(item) = items.get(k) {
                    let at = self.at(item.span);
                    let designation = item.node.designation.as_slice();
                    if designation.is_empty() && inside {
                        return Err(CError::unsupported(
                            "an item without a designator after a nested designator (`.a.b = \
                             v, w`: give `w` its own designator)",
                            at,
                        ));
                    }
                    // `.number = v` of a member of an anonymous member (C11): a designator
                    // inside that member.
                    if let Some(index) =
                        designation.first().and_then(|d| self.anonymous(&fields, d))
                    {
                        let old = given[index].take();
                        let values = self.anonymous_leaves(fields[index].1, old, item, span)?;
                        given[index] = Some(values);
                        next = index + 1;
                        inside = true;
                        k += 1;
                        continue;
                    }
                    if let [outer, path @ ..] = designation {
                        if !path.is_empty() {
                            let index =
                                member_index(&self.unit.types.borrow(), &fields, outer, at)?;
                            let field_ty = fields[index].1;
                            let old = given[index].take();
                            let values = self.designated_leaves(field_ty, old, path, item, span)?;
                            given[index] = Some(values);
                            next = index + 1;
                            inside = true;
                            k += 1;
                            continue;
                        }
                    }
                    inside = false;
                    let index = match designation {
                        [designator] => {
                            member_index(&self.unit.types.borrow(), &fields, designator, at)?
                        }
                        _ => next,
                    };
                    let Some((name, field_ty)) = fields.get(index) else {
                        return Err(CError::invalid("more initializers than members", at));
                    };
                    let mut values = Vec::new();
                    // The items this member takes: more than one by brace elision.
                    let mut taken = 1;
                    match (field_ty, &item.node.initializer.node) {
                        (CType::Array(array), _) => {
                            let last = k + 1 == items.len();
                            let initializer = &item.node.initializer;
                            let value = self.member_array(name, *array, initializer, last)?;
                            values.push(value);
                        }
                        // Brace elision (C11 §6.7.9p20): a struct member without its braces
                        // takes as many items as it has leaves.
                        (CType::Struct(_), Initializer::Expression(e))
                            if !matches!(self.static_type(e), Some(CType::Struct(_))) =>
                        {
                            let (mut elided, after) =
                                self.elided_elements(*field_ty, 1, items, k, span)?;
                            let set = elided.pop().unwrap_or_default();
                            values = self.overwritten(*field_ty, given[index].take(), set, span);
                            taken = after - k;
                        }
                        _ => self.initial_leaves(*field_ty, &item.node.initializer, &mut values)?,
                    }
                    given[index] = Some(values);
                    next = index + 1;
                    k += taken.max(1);
                }
                for ((_, field_ty), values) in fields.iter().zip(given) {
                    match values {
                        Some(values) => out.extend(values),
                        None => {
                            let zeros = self.zero_leaves(*field_ty, span);
                            out.extend(zeros);
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// The position among `fields` of the anonymous member whose own member the designator
    /// `.m` names, where no member of `fields` is `m`.
    fn anonymous(
        &self,
        fields: &[(String, CType)],
        designator: &Node<Designator>,
    ) -> Option<usize> {
        let Designator::Member(m) = &designator.node else {
            return None;
        };
        let name = &m.node.name;
        if fields.iter().any(|(f, _)| f == name) {
            return None;
        }
        let types = self.unit.types.borrow();
        fields.iter().position(|(f, ty)| {
            is_anonymous(f)
                && matches!(ty, CType::Struct(id)
                    if types.member_path(*id, name).is_some_and(|path| path.len() == 1))
        })
    }

    /// The leaves of the anonymous member of type `ty` (`old`: what earlier items set) after
    /// the item `.m… = init` that names its member `m`.
    fn anonymous_leaves(
        &mut self,
        ty: CType,
        old: Option<Vec<Operand>>,
        item: &Node<InitializerListItem>,
        span: Span,
    ) -> Result<Vec<Operand>, CError> {
        if !self.is_union(ty) {
            return self.designated_leaves(ty, old, &item.node.designation, item, span);
        }
        if item.node.designation.len() > 1 {
            return Err(CError::unsupported(
                "a nested designator into a member of an anonymous union",
                self.at(item.span),
            ));
        }
        let mut values = Vec::new();
        self.initial_union_leaves(ty, std::slice::from_ref(item), &mut values, span)?;
        Ok(values)
    }

    /// The leaves of a struct member of type `ty` (`old`: what earlier items set, else zero)
    /// after the item `.m.p… = init` sets the part that `path` (the designators after the
    /// member's) names: member designators down to a struct or a scalar.
    pub(super) fn designated_leaves(
        &mut self,
        ty: CType,
        old: Option<Vec<Operand>>,
        path: &[Node<Designator>],
        item: &Node<lang_c::ast::InitializerListItem>,
        span: Span,
    ) -> Result<Vec<Operand>, CError> {
        let at = self.at(item.span);
        let mut values = match old {
            Some(values) => values,
            None => self.zero_leaves(ty, span),
        };
        // The designated part's type and its dotted path among `ty`'s leaves; inside a union,
        // the designators left (`.v.i = 5`: `.i` of the union `v`).
        let (mut part, mut prefix) = (ty, String::new());
        let mut in_union = None;
        for (k, designator) in path.iter().enumerate() {
            let CType::Struct(id) = part else {
                return Err(CError::unsupported(
                    "a nested designator below a member that is not a struct (only `.a.b = v` \
                     through structs)",
                    at,
                ));
            };
            if self.is_union(part) {
                in_union = Some(&path[k..]);
                break;
            }
            let fields = self.unit.types.borrow().fields(id).map(<[_]>::to_vec);
            let fields = fields.unwrap_or_default();
            let index = member_index(&self.unit.types.borrow(), &fields, designator, at)?;
            let (name, field_ty) = &fields[index];
            if matches!(field_ty, CType::Array(_)) {
                return Err(CError::unsupported(
                    "a nested designator naming an array member (write the member's braces)",
                    at,
                ));
            }
            prefix = match prefix.is_empty() {
                true => name.clone(),
                false => format!("{prefix}.{name}"),
            };
            part = *field_ty;
        }
        let leaves = self.unit.types.borrow().leaves(ty);
        // (An empty prefix, a union's designators from the top: the whole object.)
        let inside = |path: &str| {
            prefix.is_empty()
                || path == prefix
                || path
                    .strip_prefix(prefix.as_str())
                    .is_some_and(|rest| rest.starts_with('.'))
        };
        let first = leaves.iter().position(|(path, _)| inside(path));
        let count = leaves.iter().filter(|(path, _)| inside(path)).count();
        let Some(first) = first else {
            return Err(CError::invalid("a designator naming no member", at));
        };
        let mut set = Vec::new();
        match in_union {
            Some(designation) => {
                let inner = InitializerListItem {
                    designation: designation.to_vec(),
                    initializer: item.node.initializer.clone(),
                };
                let inner = Node::new(inner, item.span);
                self.initial_union_leaves(part, std::slice::from_ref(&inner), &mut set, span)?;
            }
            None => self.initial_leaves(part, &item.node.initializer, &mut set)?,
        }
        values.splice(first..first + count, set);
        Ok(values)
    }

    /// The array value that `initializer` gives the array member `name` (its one
    /// leaf): a list or a string, as for an array variable. C's brace elision (`0` for the
    /// member, which initializes its first element and lets the next items go on with the
    /// rest) is accepted only for `0` as the list's `last` item (`{0}`), where it means a
    /// zero array; otherwise the member's braces are needed.
    fn member_array(
        &mut self,
        name: &str,
        array: ArrayId,
        initializer: &Node<Initializer>,
        last: bool,
    ) -> Result<Operand, CError> {
        let (at, span) = (self.at(initializer.span), self.span(initializer.span));
        let (element, dims) = self.unit.types.borrow().array(array);
        let value = match &initializer.node {
            Initializer::Expression(e) if !matches!(e.node, Expression::StringLiteral(_)) => {
                if !(last && self.constant(e) == Ok(0)) {
                    return Err(CError::unsupported(
                        format!(
                            "an initializer of the array member `{name}` without its braces \
                             (other than `{{0}}`)"
                        ),
                        at,
                    ));
                }
                self.array_of_elements(element, &dims, None, true, span)
            }
            _ => self.array_value((name, at), element, &dims, Some(initializer), false, span)?,
        };
        Ok(Operand::Local(self.b.assign_temp(value, span)))
    }

    /// The zero value of every leaf of `ty` (an array member's: an array of assigned zeros).
    pub(super) fn zero_leaves(&mut self, ty: CType, span: Span) -> Vec<Operand> {
        let leaves = self.unit.types.borrow().leaves(ty);
        leaves
            .into_iter()
            .map(|(_, leaf)| self.blank_value(leaf, true, span))
            .collect()
    }
}

/// The position among `fields` of the member a `.m` designator names.
fn member_index(
    types: &Types,
    fields: &[(String, CType)],
    designator: &Node<Designator>,
    at: usize,
) -> Result<usize, CError> {
    let Designator::Member(m) = &designator.node else {
        return Err(CError::unsupported(
            "this designator in a struct initializer",
            at,
        ));
    };
    let name = &m.node.name;
    fields.iter().position(|(f, _)| f == name).ok_or_else(|| {
        // A member of an anonymous member deeper than `FnCx::anonymous` takes.
        let anonymous = fields.iter().any(|(f, ty)| {
            is_anonymous(f)
                && matches!(ty, CType::Struct(id) if types.member_path(*id, name).is_some())
        });
        match anonymous {
            true => CError::unsupported(
                format!(
                    "a designator naming `{name}`, a member of an anonymous member nested in \
                     another (write the anonymous members' braces)"
                ),
                at,
            ),
            false => CError::invalid(format!("the struct has no member `{name}`"), at),
        }
    })
}
