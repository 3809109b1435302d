//! Convenience accessors over the [`crate::cfg`] types: lookups by id, constructors for places,
//! and visitors over the operands an instruction reads and the local it defines.
//!
//! Kept apart from `cfg.rs` so that the data contract stays a plain list of types. These are
//! inherent methods, usable from any crate; nothing here changes a type's shape.

use crate::analysis::init_checks_that_hold;
use crate::cfg::*;

impl Function {
    /// The width of the numbers the function returns, by its first `return` of a number
    /// (`None`: it returns only `null`; the verifier checks that the others agree).
    pub fn returned_width(&self) -> Option<Width> {
        self.blocks.iter().find_map(|block| match block.term {
            Terminator::Return(op) => op.width(&self.locals),
            _ => None,
        })
    }
}

impl Module {
    /// Whether some function holds or makes a 64-bit number (see
    /// [`InstKind::computes_with_64_bits`]).
    pub fn has_64_bit_numbers(&self) -> bool {
        self.functions.iter().any(|f| {
            f.locals.iter().any(|l| l.width == Width::W64)
                || f.blocks
                    .iter()
                    .flat_map(|b| &b.insts)
                    .any(|i| i.kind.computes_with_64_bits())
        })
    }

    pub fn function(&self, id: FuncId) -> &Function {
        &self.functions[id.index()]
    }

    pub fn field_name(&self, id: FieldId) -> &str {
        &self.fields[id.index()]
    }

    /// Whether every cell holds a record: a front end's objects, whose field table starts with
    /// [`crate::cfg::SCALAR_OBJECT_FIELDS`] (C's: a scalar is `{value, #assigned}`), so that a
    /// whole cell read or written through a pointer is a record copy (`*p = *q`), never one
    /// number.
    pub fn cells_hold_records(&self) -> bool {
        self.fields.len() >= 2
            && self.fields[..2]
                .iter()
                .zip(crate::cfg::SCALAR_OBJECT_FIELDS)
                .all(|(field, scalar)| field == scalar)
    }

    pub fn property(&self, id: PropId) -> &Property {
        &self.properties[id.index()]
    }

    /// The first function with this name.
    pub fn function_by_name(&self, name: &str) -> Option<FuncId> {
        self.functions
            .iter()
            .position(|f| f.name == name)
            .map(|i| FuncId(i as u32))
    }

    /// Per property: whether every check of it holds by its constant operand (`x / 2`, `x % 2`,
    /// `assert(1)`) or reads a local every path has assigned before it (the `uninit` checks of
    /// `var n; n = input;`), so that no run can fail it whatever the search explores.
    pub fn infallible_properties(&self) -> Vec<bool> {
        let mut infallible = vec![true; self.properties.len()];
        for function in &self.functions {
            let assigned = init_checks_that_hold(function);
            for (block, holds) in function.blocks.iter().zip(&assigned) {
                for (inst, &assigned) in block.insts.iter().zip(holds) {
                    if let InstKind::Check { check, prop } = &inst.kind {
                        if !assigned && !check.holds_by_constant() {
                            infallible[prop.index()] = false;
                        }
                    }
                }
            }
        }
        infallible
    }

    /// The functions `func` calls, each once, in id order.
    pub fn callees(&self, func: FuncId) -> Vec<FuncId> {
        let mut out: Vec<FuncId> = (self.function(func).blocks.iter())
            .flat_map(|b| &b.insts)
            .filter_map(|inst| match inst.kind {
                InstKind::Call { func, .. } => Some(func),
                _ => None,
            })
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    /// Every function, each after the functions it calls (a call back into a function still
    /// being ordered, i.e. recursion, is ignored): a postorder of the call graph from each
    /// function in id order, callees visited in id order.
    pub fn callees_first(&self) -> Vec<FuncId> {
        let n = self.functions.len();
        // 0 new, 1 on the stack, 2 done.
        let mut state = vec![0u8; n];
        let mut order = Vec::with_capacity(n);
        // Callees still to visit, last first.
        let pending_of = |f: FuncId| {
            let mut callees = self.callees(f);
            callees.reverse();
            callees
        };
        for root in (0..n).map(|i| FuncId(i as u32)) {
            if state[root.index()] != 0 {
                continue;
            }
            let mut stack = vec![(root, pending_of(root))];
            state[root.index()] = 1;
            while let Some((func, pending)) = stack.last_mut() {
                match pending.pop() {
                    Some(callee) if state[callee.index()] == 0 => {
                        state[callee.index()] = 1;
                        stack.push((callee, pending_of(callee)));
                    }
                    Some(_) => {}
                    None => {
                        state[func.index()] = 2;
                        order.push(*func);
                        stack.pop();
                    }
                }
            }
        }
        order
    }

    /// Per function: whether a run of `entry` can call it (directly or through other calls).
    pub fn functions_reachable_from(&self, entry: FuncId) -> Vec<bool> {
        let mut reachable = vec![false; self.functions.len()];
        let mut work = vec![entry];
        while let Some(f) = work.pop() {
            if std::mem::replace(&mut reachable[f.index()], true) {
                continue;
            }
            for inst in self.function(f).blocks.iter().flat_map(|b| &b.insts) {
                if let InstKind::Call { func, .. } = &inst.kind {
                    work.push(*func);
                }
            }
        }
        reachable
    }

    /// The interned id of a field name, if any record of the program uses it.
    pub fn field_id(&self, name: &str) -> Option<FieldId> {
        self.fields
            .iter()
            .position(|f| f == name)
            .map(|i| FieldId(i as u32))
    }
}

impl Function {
    pub fn block_ids(&self) -> impl Iterator<Item = BlockId> {
        (0..self.blocks.len() as u32).map(BlockId)
    }

    pub fn local_ids(&self) -> impl Iterator<Item = LocalId> {
        (0..self.locals.len() as u32).map(LocalId)
    }

    /// Predecessors of every block, each list in increasing block order without duplicates.
    pub fn predecessors(&self) -> Vec<Vec<BlockId>> {
        let mut preds = vec![Vec::new(); self.blocks.len()];
        for (i, block) in self.blocks.iter().enumerate() {
            for succ in block.successors() {
                let list: &mut Vec<BlockId> = &mut preds[succ.index()];
                if list.last() != Some(&BlockId(i as u32)) {
                    list.push(BlockId(i as u32));
                }
            }
        }
        preds
    }
}

impl Block {
    pub fn successors(&self) -> impl Iterator<Item = BlockId> + '_ {
        self.term.successors()
    }
}

impl Check {
    /// The check's operand is a constant that satisfies it: it cannot fail.
    pub fn holds_by_constant(&self) -> bool {
        match self {
            Check::Assert(op) | Check::Condition { holds: op, .. } | Check::NonZero(op) => {
                matches!(op, Operand::Const(c) if *c != 0)
                    || matches!(op, Operand::Const64(c) if *c != 0)
            }
            Check::NonNull(_) | Check::InBounds { .. } | Check::Init(_) | Check::Reach => false,
        }
    }
}

impl Operand {
    /// The width of the number the operand gives, `None` for `null` (`locals`: the function's).
    pub fn width(self, locals: &[LocalInfo]) -> Option<Width> {
        match self {
            Operand::Const(_) => Some(Width::W32),
            Operand::Const64(_) => Some(Width::W64),
            Operand::Null => None,
            Operand::Local(l) => locals.get(l.index()).map(|info| info.width),
        }
    }

    pub fn local(self) -> Option<LocalId> {
        match self {
            Operand::Local(l) => Some(l),
            Operand::Const(_) | Operand::Const64(_) | Operand::Null => None,
        }
    }
}

impl Place {
    /// The whole local `l`.
    pub fn local(l: LocalId) -> Place {
        Place {
            base: PlaceBase::Local(l),
            projections: Vec::new(),
        }
    }

    /// The whole cell `*p`.
    pub fn deref(p: Operand) -> Place {
        Place {
            base: PlaceBase::Deref(p),
            projections: Vec::new(),
        }
    }

    /// The place made of the base and the first `len` projections.
    pub fn prefix(&self, len: usize) -> Place {
        Place {
            base: self.base,
            projections: self.projections[..len].to_vec(),
        }
    }

    /// The local at the base, if the place is not behind a pointer.
    pub fn base_local(&self) -> Option<LocalId> {
        match self.base {
            PlaceBase::Local(l) => Some(l),
            PlaceBase::Deref(_) => None,
        }
    }

    /// Operands the place reads to be located: the pointer of a deref base, then the indices.
    pub fn for_each_operand(&self, mut f: impl FnMut(Operand)) {
        if let PlaceBase::Deref(p) = self.base {
            f(p);
        }
        for proj in &self.projections {
            if let Projection::Index(i) = proj {
                f(*i);
            }
        }
    }
}

impl Rvalue {
    /// The width of the number the rvalue computes, where its operands decide it (`None` for
    /// what memory holds, pointers and aggregates).
    pub fn width(&self, locals: &[LocalInfo]) -> Option<Width> {
        match self {
            Rvalue::Use(op) => op.width(locals),
            Rvalue::Unary(UnOp::Not | UnOp::Truncate, _)
            | Rvalue::Len(_)
            | Rvalue::Unreached(_)
            | Rvalue::LiveObjects => Some(Width::W32),
            Rvalue::Unary(UnOp::SignExtend | UnOp::ZeroExtend, _) => Some(Width::W64),
            Rvalue::Unary(UnOp::Neg | UnOp::BitNot, op) => op.width(locals),
            Rvalue::Binary(op, _, _) if op.yields_truth() => Some(Width::W32),
            Rvalue::Binary(_, a, b) => a.width(locals).or(b.width(locals)),
            Rvalue::Read(_)
            | Rvalue::Alloc(_)
            | Rvalue::AddrOf(_)
            | Rvalue::Record(_)
            | Rvalue::Array(_) => None,
        }
    }

    /// Operands read, including those that locate a place (a place's base local is not one:
    /// see [`Place::base_local`]).
    pub fn for_each_operand(&self, mut f: impl FnMut(Operand)) {
        match self {
            Rvalue::Use(a) | Rvalue::Unary(_, a) | Rvalue::Alloc(a) => f(*a),
            Rvalue::Binary(_, a, b) => {
                f(*a);
                f(*b);
            }
            Rvalue::AddrOf(_) | Rvalue::LiveObjects => {}
            Rvalue::Record(fields) => fields.iter().for_each(|(_, a)| f(*a)),
            Rvalue::Array(items) | Rvalue::Unreached(items) => items.iter().for_each(|a| f(*a)),
            Rvalue::Read(place) | Rvalue::Len(place) => place.for_each_operand(f),
        }
    }
}

impl Check {
    /// Operands read by the check, including those that locate its place.
    pub fn for_each_operand(&self, mut f: impl FnMut(Operand)) {
        match self {
            Check::Assert(a)
            | Check::Condition { holds: a, .. }
            | Check::NonZero(a)
            | Check::NonNull(a) => f(*a),
            Check::InBounds { array, index } => {
                array.for_each_operand(&mut f);
                f(*index);
            }
            Check::Init(place) => place.for_each_operand(f),
            Check::Reach => {}
        }
    }
}

impl InstKind {
    /// Every operand the instruction reads, in evaluation order.
    pub fn for_each_operand(&self, mut f: impl FnMut(Operand)) {
        match self {
            InstKind::Assign { value, .. } => value.for_each_operand(f),
            InstKind::Store { place, value } => {
                place.for_each_operand(&mut f);
                f(*value);
            }
            InstKind::Call { args, .. } => args.iter().for_each(|a| f(*a)),
            InstKind::Input { .. } => {}
            InstKind::Output(a) | InstKind::Assume(a) => f(*a),
            InstKind::Check { check, .. } => check.for_each_operand(f),
        }
    }

    /// Whether the instruction makes or converts a 64-bit number (a 64-bit constant operand, a
    /// conversion between the widths): where every 64-bit number of a program comes from, so
    /// an engine that models only 32 bits refuses these and meets no other.
    pub fn computes_with_64_bits(&self) -> bool {
        let mut wide = matches!(
            self,
            InstKind::Assign {
                value: Rvalue::Unary(UnOp::SignExtend | UnOp::ZeroExtend | UnOp::Truncate, _),
                ..
            }
        );
        self.for_each_operand(|op| wide |= matches!(op, Operand::Const64(_)));
        wide
    }

    /// The local the instruction assigns as a whole, if any (a `Store` to a bare local counts;
    /// a `Store` into part of a local or into memory does not).
    pub fn defined_local(&self) -> Option<LocalId> {
        match self {
            InstKind::Assign { dst, .. } | InstKind::Call { dst, .. } | InstKind::Input { dst } => {
                Some(*dst)
            }
            InstKind::Store { place, .. } if place.projections.is_empty() => place.base_local(),
            InstKind::Store { .. }
            | InstKind::Output(_)
            | InstKind::Check { .. }
            | InstKind::Assume(_) => None,
        }
    }
}

impl Terminator {
    /// The operand the terminator reads, if any.
    pub fn operand(&self) -> Option<Operand> {
        match *self {
            Terminator::Goto(_) => None,
            Terminator::Branch { cond, .. } => Some(cond),
            Terminator::Return(value) => Some(value),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::cfg::Check;

    #[test]
    fn only_a_satisfying_constant_makes_a_check_infallible() {
        use crate::cfg::{LocalId, Operand, PropertyKind};
        let holds = [
            Check::NonZero(Operand::Const(2)),
            Check::Assert(Operand::Const(-1)),
            Check::Condition {
                holds: Operand::Const(1),
                kind: PropertyKind::ShiftOutOfRange,
            },
        ];
        assert!(holds.iter().all(Check::holds_by_constant));
        let open = [
            Check::NonZero(Operand::Const(0)),
            Check::NonZero(Operand::Local(LocalId(0))),
            Check::Assert(Operand::Const(0)),
            Check::NonNull(Operand::Const(1)),
            Check::Reach,
        ];
        assert!(!open.iter().any(Check::holds_by_constant));
    }

    #[test]
    fn a_property_is_infallible_when_every_check_of_it_is() {
        use crate::cfg::PropertyKind;
        let source = "f(x) { return x % 2 + 10 / x; } main() { return f(1); }";
        let front = symex_syntax::analyze(source).expect("valid");
        let module = crate::lower(&front.program);
        let kinds: Vec<_> = module.properties.iter().map(|p| p.kind).collect();
        assert_eq!(kinds, vec![PropertyKind::DivByZero; 2]);
        assert_eq!(module.infallible_properties(), vec![true, false]);
    }

    #[test]
    fn an_uninit_check_after_an_assignment_on_every_path_is_infallible() {
        use crate::cfg::PropertyKind;
        // `x` is read after an assignment on every path; `y` only on one of them; `z`'s first
        // read comes before its assignment, its second after.
        let source = "main() { var x, y, z; x = input; if (x) { y = 1; } \
                      if (z) { x = 2; } z = 3; return x + y + z; }";
        let front = symex_syntax::analyze(source).expect("valid");
        let module = crate::lower(&front.program);
        let uninit: Vec<(&str, bool)> = module
            .properties
            .iter()
            .zip(module.infallible_properties())
            .filter(|(p, _)| p.kind == PropertyKind::Uninit)
            .map(|(p, holds)| (&source[p.span.start as usize..p.span.end as usize], holds))
            .collect();
        let expected = [
            ("x", true),
            ("z", false),
            ("x", true),
            ("y", false),
            ("z", true),
        ];
        assert_eq!(uninit, expected);
    }

    #[test]
    fn callees_come_before_their_callers_and_recursion_is_cut() {
        let source = "main() { return f(1) + g(2); } f(x) { return g(x) + f(x - 1); } \
                      g(x) { return x; }";
        let front = symex_syntax::analyze(source).expect("valid");
        let module = crate::lower(&front.program);
        let id = |name: &str| module.function_by_name(name).expect("defined");
        assert_eq!(module.callees(id("f")), {
            let mut both = vec![id("f"), id("g")];
            both.sort();
            both
        });
        assert_eq!(module.callees_first(), vec![id("g"), id("f"), id("main")]);
    }

    #[test]
    fn reachable_functions_follow_calls_from_the_entry() {
        let source = "f(x) { return g(x); } g(x) { return x; } h() { return 1; } \
                      main() { return f(2); }";
        let front = symex_syntax::analyze(source).expect("valid");
        let module = crate::lower(&front.program);
        let id = |name: &str| module.function_by_name(name).expect("defined");
        let reachable = module.functions_reachable_from(id("main"));
        let named = |name: &str| reachable[id(name).index()];
        assert!(named("main") && named("f") && named("g") && !named("h"));
        assert_eq!(
            module.functions_reachable_from(id("h"))[id("h").index()..=id("h").index()],
            [true]
        );
    }
}
