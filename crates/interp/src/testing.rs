//! Builders for hand-made IR modules in unit tests (compiled for tests only).

use symex_ir::cfg::{
    Block, FieldId, FuncId, Function, Inst, InstKind, LocalId, LocalInfo, LocalKind, Module,
    Operand, Place, PlaceBase, Projection, Property, PropertyKind, Rvalue, Terminator, Width,
};
use symex_syntax::span::Span;

pub(crate) fn module(functions: Vec<Function>) -> Module {
    Module {
        functions,
        fields: vec!["f".into(), "g".into(), "next".into()],
        properties: Vec::new(),
    }
}

/// A function whose first `params` of `locals` locals are parameters, the rest `var` locals.
pub(crate) fn function(name: &str, params: u32, locals: u32, blocks: Vec<Block>) -> Function {
    Function {
        name: name.into(),
        span: Span::default(),
        param_count: params,
        locals: (0..locals)
            .map(|i| LocalInfo {
                name: format!("l{i}"),
                kind: if i < params {
                    LocalKind::Param
                } else {
                    LocalKind::Var
                },
                span: Span::default(),
                address_taken: false,
                width: Width::W32,
                unsigned: false,
                layout: Default::default(),
            })
            .collect(),
        blocks,
    }
}

pub(crate) fn block(insts: Vec<Inst>, term: Terminator) -> Block {
    Block {
        insts,
        term,
        term_span: Span::new(900, 901),
    }
}

/// An instruction at span 1..2 (tests that care about spans use [`inst_at`]).
pub(crate) fn inst(kind: InstKind) -> Inst {
    Inst {
        kind,
        span: Span::new(1, 2),
    }
}

pub(crate) fn inst_at(kind: InstKind, start: usize) -> Inst {
    Inst {
        kind,
        span: Span::new(start, start + 1),
    }
}

pub(crate) fn assign(dst: u32, value: Rvalue) -> Inst {
    inst(InstKind::Assign {
        dst: LocalId(dst),
        value,
    })
}

pub(crate) fn local(n: u32) -> Operand {
    Operand::Local(LocalId(n))
}

pub(crate) fn call(dst: u32, func: u32, args: Vec<Operand>) -> Inst {
    inst(InstKind::Call {
        dst: LocalId(dst),
        func: FuncId(func),
        args,
    })
}

pub(crate) fn place(base: PlaceBase, projections: Vec<Projection>) -> Place {
    Place { base, projections }
}

pub(crate) fn local_place(n: u32, projections: Vec<Projection>) -> Place {
    place(PlaceBase::Local(LocalId(n)), projections)
}

pub(crate) fn field(n: u32) -> Projection {
    Projection::Field(FieldId(n))
}

pub(crate) fn property(kind: PropertyKind) -> Property {
    Property {
        kind,
        func: FuncId(0),
        span: Span::new(100, 101),
    }
}

pub(crate) fn c(n: i32) -> Operand {
    Operand::Const(n)
}

pub(crate) fn index(op: Operand) -> Projection {
    Projection::Index(op)
}

pub(crate) fn binary(dst: u32, op: symex_ir::cfg::BinOp, a: Operand, b: Operand) -> Inst {
    assign(dst, Rvalue::Binary(op, a, b))
}

pub(crate) fn check(check: symex_ir::cfg::Check, prop: u32) -> Inst {
    inst(InstKind::Check {
        check,
        prop: symex_ir::cfg::PropId(prop),
    })
}

/// A module with one property of each kind: `PropId(k)` has kind number k in the order
/// Assert, DivByZero, NullDeref, OutOfBounds, Uninit, at span `100+k..101+k`.
pub(crate) fn with_properties(mut m: Module) -> Module {
    m.properties = [
        PropertyKind::Assert,
        PropertyKind::DivByZero,
        PropertyKind::NullDeref,
        PropertyKind::OutOfBounds,
        PropertyKind::Uninit,
    ]
    .into_iter()
    .enumerate()
    .map(|(k, kind)| Property {
        kind,
        func: FuncId(0),
        span: Span::new(100 + k, 101 + k),
    })
    .collect();
    m
}

pub(crate) fn mark_address_taken(f: &mut Function, local: u32) {
    f.locals[local as usize].address_taken = true;
}

pub(crate) fn run_with(m: &Module, input: &[i32], config: &crate::RunConfig) -> crate::RunOutcome {
    crate::Interpreter::new(m)
        .expect("valid module")
        .run_main(input, config)
        .expect("main exists")
}

pub(crate) fn run(m: &Module, input: &[i32]) -> crate::RunOutcome {
    run_with(m, input, &crate::RunConfig::default())
}

/// The returned number, or a panic describing how the run ended.
pub(crate) fn returned(m: &Module, input: &[i32]) -> i32 {
    let outcome = run(m, input);
    outcome
        .end
        .returned_int()
        .unwrap_or_else(|| panic!("run did not return a number: {:?}", outcome.end))
}

/// `main` with `locals` locals running `insts`, then returning `ret`.
pub(crate) fn straight(locals: u32, insts: Vec<Inst>, ret: Operand) -> Module {
    with_properties(module(vec![function(
        "main",
        0,
        locals,
        vec![block(insts, Terminator::Return(ret))],
    )]))
}
