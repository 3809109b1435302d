//! What a function can do to its caller, known before any function is executed: the heap
//! slots it may write, whether it allocates or reads `input`, and the properties that may fail
//! inside it or its callees (its *goals*). Summaries have one side effect per item here
//! (thesis §3.2.3, "one pure function per side effect"), so call sites know their summary
//! operators before the callee's summary exists, and recursion needs no special order.
//!
//! The sets are syntactic and transitive over the call graph (a least fixpoint), so they may
//! name effects a run never has: a side effect a function does not have is the identity
//! (its summary is the caller's own value), never a wrong one. Nothing here builds terms.

use std::collections::BTreeSet;

use symex_ir::analysis::reverse_postorder;
use symex_ir::cfg::{
    FieldId, FuncId, Function, InstKind, LocalId, LocalKind, Module, PlaceBase, PropId, Rvalue,
};

/// A part of the heap, kept as one SMT array indexed by cell address.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Slot {
    /// The plain value of a cell (`alloc 5`, `*p`, an address-taken local).
    Cell,
    /// One field of a cell holding a record.
    Field(FieldId),
    /// Whether the cell has been assigned, 1 or 0 (cells of address-taken `var` locals start
    /// unassigned).
    Init,
    /// What the cell holds: 0 a plain value, 1 a record (only in programs with records).
    Shape,
}

/// Why a path was not followed to its end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CutKind {
    /// A loop iteration beyond `--unwind`.
    Unwind,
    /// A call nested deeper than `--unwind` activations of one function.
    Recursion,
    /// An instruction the engine does not model.
    Unmodelled,
}

/// What a VC asks: can this property fail, or can this kind of cut be reached?
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Goal {
    Fail(PropId),
    Cut(CutKind),
}

/// One side effect of a function, the root of one summary.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Effect {
    /// The value returned.
    Ret,
    /// The heap slot after the call.
    Heap(Slot),
    /// The next free cell address after the call.
    Next,
    /// The number of inputs read after the call.
    Cursor,
    /// Whether the call returns, as far as its assumptions (and cuts) go.
    Cfc,
    /// Whether the call's checks all pass.
    Passed,
    /// Whether the goal is met inside the call.
    Goal(Goal),
}

impl Effect {
    /// A short name for summary operators (`f:ret`, `f:next`, `f:fail#3`).
    pub fn name(&self, module: &Module) -> String {
        match self {
            Effect::Ret => "ret".into(),
            Effect::Heap(Slot::Cell) => "*cell".into(),
            Effect::Heap(Slot::Field(f)) => format!("*.{}", module.field_name(*f)),
            Effect::Heap(Slot::Init) => "*init".into(),
            Effect::Heap(Slot::Shape) => "*shape".into(),
            Effect::Next => "next".into(),
            Effect::Cursor => "cursor".into(),
            Effect::Cfc => "cfc".into(),
            Effect::Passed => "passed".into(),
            Effect::Goal(Goal::Fail(p)) => format!("fail#{}", p.0),
            Effect::Goal(Goal::Cut(k)) => format!("cut-{k:?}").to_lowercase(),
        }
    }
}

/// The side effects of every function of a module.
pub struct Signatures {
    /// Every heap slot of the module, in order.
    pub slots: Vec<Slot>,
    /// Whether some cell may hold a record (then whole-cell reads are checked with `Shape`).
    pub records_in_cells: bool,
    /// Whether cells need the `Init` slot: only where some address-taken `var` local may be
    /// unassigned when its address is taken. Otherwise every cell a pointer reaches is assigned
    /// (`alloc` assigns, and `&x` comes after `x = …`), and an address-taken local's own reads
    /// are checked by its `Assigned` location like any local's.
    pub tracks_init: bool,
    functions: Vec<Signature>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Signature {
    writes_heap: bool,
    allocates: bool,
    reads_input: bool,
    props: BTreeSet<PropId>,
    callees: BTreeSet<FuncId>,
}

impl Signatures {
    pub fn new(module: &Module) -> Signatures {
        let records = module.functions.iter().any(|f| {
            f.blocks.iter().flat_map(|b| &b.insts).any(|i| {
                matches!(
                    &i.kind,
                    InstKind::Assign {
                        value: Rvalue::Record(_),
                        ..
                    }
                )
            })
        });
        let tracks_init = module.functions.iter().any(address_taken_before_assigned);
        let mut slots = vec![Slot::Cell];
        if tracks_init {
            slots.push(Slot::Init);
        }
        slots.extend((0..module.fields.len() as u32).map(|f| Slot::Field(FieldId(f))));
        if records {
            slots.push(Slot::Shape);
        }
        let mut functions: Vec<Signature> = module
            .functions
            .iter()
            .map(|_| Signature::default())
            .collect();
        for (p, prop) in module.properties.iter().enumerate() {
            functions[prop.func.index()].props.insert(PropId(p as u32));
        }
        for (i, f) in module.functions.iter().enumerate() {
            let sig = &mut functions[i];
            if f.locals.iter().any(|l| l.address_taken) {
                sig.allocates = true;
                sig.writes_heap = true;
            }
            for inst in f.blocks.iter().flat_map(|b| &b.insts) {
                match &inst.kind {
                    InstKind::Assign {
                        value: Rvalue::Alloc(_),
                        ..
                    } => {
                        sig.allocates = true;
                        sig.writes_heap = true;
                    }
                    InstKind::Store { place, .. } => {
                        let local_cell = match place.base {
                            PlaceBase::Deref(_) => true,
                            PlaceBase::Local(l) => f.local(l).address_taken,
                        };
                        sig.writes_heap |= local_cell;
                    }
                    InstKind::Input { .. } => sig.reads_input = true,
                    InstKind::Call { func, .. } => {
                        sig.callees.insert(*func);
                    }
                    _ => {}
                }
            }
        }
        // Least fixpoint over the call graph.
        loop {
            let mut changed = false;
            for i in 0..functions.len() {
                let callees: Vec<FuncId> = functions[i].callees.iter().copied().collect();
                for c in callees {
                    let callee = functions[c.index()].clone();
                    let sig = &mut functions[i];
                    let before = (
                        sig.writes_heap,
                        sig.allocates,
                        sig.reads_input,
                        sig.props.len(),
                    );
                    sig.writes_heap |= callee.writes_heap;
                    sig.allocates |= callee.allocates;
                    sig.reads_input |= callee.reads_input;
                    sig.props.extend(callee.props.iter().copied());
                    changed |= before
                        != (
                            sig.writes_heap,
                            sig.allocates,
                            sig.reads_input,
                            sig.props.len(),
                        );
                }
            }
            if !changed {
                break;
            }
        }
        Signatures {
            slots,
            records_in_cells: records,
            tracks_init,
            functions,
        }
    }

    /// The side effects of `func`, in a fixed order.
    pub fn effects(&self, func: FuncId) -> Vec<Effect> {
        let sig = &self.functions[func.index()];
        let mut effects = vec![Effect::Ret, Effect::Cfc, Effect::Passed];
        if sig.writes_heap {
            effects.extend(self.slots.iter().map(|&s| Effect::Heap(s)));
        }
        if sig.allocates {
            effects.push(Effect::Next);
        }
        if sig.reads_input {
            effects.push(Effect::Cursor);
        }
        effects.extend(self.goals(func).into_iter().map(Effect::Goal));
        effects
    }

    /// The goals a call of `func` may meet: its properties and its callees', and every cut.
    pub fn goals(&self, func: FuncId) -> Vec<Goal> {
        let mut goals: Vec<Goal> = self.functions[func.index()]
            .props
            .iter()
            .map(|&p| Goal::Fail(p))
            .collect();
        goals.extend([CutKind::Unwind, CutKind::Recursion, CutKind::Unmodelled].map(Goal::Cut));
        goals
    }
}

/// Whether `&x` may be taken of a `var` local `x` that is not assigned on every path to it (a
/// must-analysis over the function's graph, loops included).
fn address_taken_before_assigned(f: &Function) -> bool {
    let var = |l: LocalId| f.local(l).kind == LocalKind::Var;
    if !f
        .locals
        .iter()
        .any(|l| l.address_taken && l.kind == LocalKind::Var)
    {
        return false;
    }
    let order = reverse_postorder(f);
    let preds = f.predecessors();
    let all = vec![true; f.locals.len()];
    // Locals assigned on every path to each block's end; `None` until the block is reached.
    let mut out: Vec<Option<Vec<bool>>> = vec![None; f.blocks.len()];
    let mut early = false;
    let mut changed = true;
    while changed {
        changed = false;
        for &b in &order {
            let mut assigned = if b == Function::ENTRY {
                vec![false; f.locals.len()]
            } else {
                let mut meet = all.clone();
                for p in &preds[b.index()] {
                    if let Some(o) = &out[p.index()] {
                        meet.iter_mut().zip(o).for_each(|(m, &x)| *m &= x);
                    }
                }
                meet
            };
            for inst in &f.block(b).insts {
                if let InstKind::Assign {
                    value: Rvalue::AddrOf(l),
                    ..
                } = inst.kind
                {
                    early |= var(l) && !assigned[l.index()];
                }
                if let Some(l) = inst.kind.defined_local() {
                    assigned[l.index()] = true;
                }
            }
            if out[b.index()].as_ref() != Some(&assigned) {
                out[b.index()] = Some(assigned);
                changed = true;
            }
        }
    }
    early
}

#[cfg(test)]
mod tests {
    use super::*;

    fn module(source: &str) -> Module {
        let front = symex_syntax::analyze(source).expect("valid program");
        symex_ir::lower(&front.program)
    }

    #[test]
    fn effects_are_transitive_over_calls() {
        let m = module(
            "w(p) { *p = 1; return 0; } r() { return input; } f(p) { var a; a = w(p); return r(); } main() { var x, y; y = f(&x); return 0; }",
        );
        let s = Signatures::new(&m);
        let id = |name| m.function_by_name(name).expect("function");
        let f = s.effects(id("f"));
        assert!(f.contains(&Effect::Heap(Slot::Cell)));
        assert!(f.contains(&Effect::Cursor));
        assert!(!f.contains(&Effect::Next), "f allocates nothing");
        let r = s.effects(id("r"));
        assert!(!r.contains(&Effect::Heap(Slot::Cell)));
        assert!(
            s.effects(id("main")).contains(&Effect::Next),
            "&x makes a cell"
        );
        assert!(s.tracks_init, "x is unassigned when &x is taken");
    }

    #[test]
    fn cells_need_no_assigned_flags_when_every_address_taken_local_is_assigned_first() {
        let assigned = module("main() { var x, p; x = 1; if (x) { p = &x; } return 0; }");
        assert!(!Signatures::new(&assigned).tracks_init);
        let one_path =
            module("main() { var x, p, c; c = input; if (c) { x = 1; } p = &x; return 0; }");
        assert!(Signatures::new(&one_path).tracks_init);
    }
}
