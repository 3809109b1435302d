//! Verifier tests: lowered programs pass; each broken invariant is reported, located.

use symex_syntax::span::Span;

use super::verify;
use crate::cfg::*;
use crate::test_support::{graph, lower_ok};

fn errors(module: &Module) -> Vec<String> {
    verify(module).err().unwrap_or_default()
}

fn single(func: Function) -> Module {
    Module {
        functions: vec![func],
        fields: Vec::new(),
        properties: Vec::new(),
    }
}

/// Removes the first instruction of the first function matching `pred`.
fn remove_first(module: &mut Module, pred: impl Fn(&InstKind) -> bool) {
    for block in &mut module.functions[0].blocks {
        if let Some(at) = block.insts.iter().position(|i| pred(&i.kind)) {
            block.insts.remove(at);
            return;
        }
    }
    panic!("no instruction to remove");
}

fn is_check(kind: &InstKind, k: PropertyKind) -> bool {
    matches!(kind, InstKind::Check { check, .. } if check.kind() == k)
}

fn assert_reports(module: &Module, fragment: &str) {
    let errors = errors(module);
    assert!(
        errors.iter().any(|e| e.contains(fragment)),
        "expected an error containing {fragment:?}, got {errors:#?}"
    );
}

#[test]
fn missing_null_check() {
    let mut m = lower_ok("main() { var p; p = alloc 1; return *p; }");
    remove_first(&mut m, |k| is_check(k, PropertyKind::NullDeref));
    assert_reports(
        &m,
        "fn main: bb0[2]: access through `p` without a preceding NonNull check",
    );
}

#[test]
fn missing_init_check_of_a_var() {
    let mut m = lower_ok("main() { var x; if (input) { x = 1; } output x; return 0; }");
    remove_first(&mut m, |k| is_check(k, PropertyKind::Uninit));
    assert_reports(
        &m,
        "fn main: bb2[0]: `x` read without a preceding Init check",
    );
    // In the block that assigns it, a var needs no check.
    let mut m = lower_ok("main() { var x; x = input; output x; return 0; }");
    remove_first(&mut m, |k| is_check(k, PropertyKind::Uninit));
    assert_eq!(verify(&m), Ok(()));
}

#[test]
fn an_init_check_in_another_block_does_not_count() {
    let mut m = lower_ok("main() { var x; x = 1; if (x) { output x; } return 0; }");
    let then_block = &mut m.functions[0].blocks[1].insts;
    assert!(is_check(&then_block[0].kind, PropertyKind::Uninit));
    then_block.remove(0);
    assert_reports(&m, "fn main: bb1[0]: `x` read without");
}

#[test]
fn missing_bounds_check() {
    let mut m = lower_ok("main() { var a; a = [1]; return a[0]; }");
    remove_first(&mut m, |k| is_check(k, PropertyKind::OutOfBounds));
    assert_reports(&m, "index 0 without a preceding InBounds check");
}

#[test]
fn a_store_between_bounds_check_and_access_invalidates_it() {
    let mut m = lower_ok("main() { var a, b; a = [1]; b = a[0]; return 0; }");
    let insts = &mut m.functions[0].blocks[0].insts;
    let read = insts
        .iter()
        .position(|i| {
            matches!(
                i.kind,
                InstKind::Assign {
                    value: Rvalue::Read(_),
                    ..
                }
            )
        })
        .expect("the read");
    let store = Inst {
        kind: InstKind::Store {
            place: Place::local(LocalId(0)),
            value: Operand::Const(0),
        },
        span: Span::default(),
    };
    insts.insert(read, store);
    assert_reports(&m, "without a preceding InBounds check");
}

#[test]
fn reassigning_the_pointer_invalidates_its_null_check() {
    let mut m = lower_ok("main() { var p; p = alloc 1; return *p; }");
    let insts = &mut m.functions[0].blocks[0].insts;
    let read = insts.len() - 1;
    let reassign = Inst {
        kind: InstKind::Assign {
            dst: LocalId(0),
            value: Rvalue::Use(Operand::Null),
        },
        span: Span::default(),
    };
    insts.insert(read, reassign);
    assert_reports(&m, "without a preceding NonNull check");
}

#[test]
fn missing_cell_init_check_when_a_var_address_is_taken() {
    let mut m = lower_ok("main() { var x, p; x = 1; p = &x; return *p; }");
    remove_first(
        &mut m,
        |k| matches!(k, InstKind::Check { check: Check::Init(place), .. } if place.base_local().is_none()),
    );
    assert_reports(
        &m,
        "read through `p` without a preceding Init check of the cell",
    );
}

#[test]
fn temporary_assigned_on_one_path_only() {
    let mut m = lower_ok("main() { var x; x = input && input; return x; }");
    // Drop the `%0 = 0` arm of the short circuit.
    let func = &mut m.functions[0];
    let zero_arm = func
        .blocks
        .iter()
        .position(|b| {
            matches!(
                b.insts.as_slice(),
                [Inst {
                    kind: InstKind::Assign {
                        value: Rvalue::Use(Operand::Const(0)),
                        ..
                    },
                    ..
                }]
            )
        })
        .expect("the 0 arm");
    func.blocks[zero_arm].insts.clear();
    assert_reports(&m, "temporary `%0` may be read before it is assigned");
}

#[test]
fn temporary_read_in_the_entry_before_assignment() {
    let mut m = lower_ok("main() { return 1 + input; }");
    m.functions[0].blocks[0].insts.remove(0);
    assert_reports(
        &m,
        "fn main: bb0[0]: temporary `%0` may be read before it is assigned",
    );
}

#[test]
fn ids_out_of_range() {
    let mut f = graph(&[&[5], &[]]);
    f.blocks[1].term = Terminator::Return(Operand::Local(LocalId(9)));
    let errors = errors(&single(f));
    assert!(errors.contains(&"fn g: bb0 terminator: jump to bb5, out of range".to_string()));
    assert!(errors.contains(&"fn g: bb1 terminator: local 9 out of range".to_string()));
}

#[test]
fn unsorted_record_and_wrong_arity_and_foreign_property() {
    let mut m = lower_ok("f(a) { return a; } main() { var r; r = {a: 1, b: 2}; return f(1); }");
    let main = &mut m.functions[1];
    for inst in &mut main.blocks[0].insts {
        match &mut inst.kind {
            InstKind::Assign {
                value: Rvalue::Record(fields),
                ..
            } => fields.reverse(),
            InstKind::Call { args, .. } => args.push(Operand::Null),
            _ => {}
        }
    }
    main.blocks[0].insts.push(Inst {
        kind: InstKind::Check {
            check: Check::Assert(Operand::Const(1)),
            prop: PropId(7),
        },
        span: Span::default(),
    });
    assert_reports(&m, "record fields not strictly sorted by id");
    assert_reports(&m, "call of `f` with 2 arguments, it takes 1");
    assert_reports(&m, "property #7 out of range");
}

#[test]
fn property_kind_and_function_must_match_the_check() {
    let mut m = lower_ok("main() { var x; x = 1; assert(x); return 0; }");
    m.properties[0].kind = PropertyKind::DivByZero;
    m.properties[1].func = FuncId(3);
    assert_reports(&m, "uninit check registered as a div-by-zero property (#0)");
    assert_reports(&m, "property #1: function 3 out of range");
}

#[test]
fn entry_with_predecessors_and_unreachable_blocks() {
    let errors = errors(&single(graph(&[&[1], &[0, 2], &[], &[2]])));
    assert!(errors
        .iter()
        .any(|e| e.contains("the entry block has predecessors")));
    assert!(errors.contains(&"fn g: bb3 terminator: block unreachable from the entry".to_string()));
}

#[test]
fn parameters_come_first_and_addresses_are_of_marked_locals() {
    let mut f = graph(&[&[]]);
    f.locals.push(LocalInfo {
        name: "t".to_string(),
        kind: LocalKind::Temp,
        span: Span::default(),
        address_taken: false,
        width: Width::W32,
        unsigned: false,
        layout: Default::default(),
    });
    f.blocks[0].insts.push(Inst {
        kind: InstKind::Assign {
            dst: LocalId(1),
            value: Rvalue::AddrOf(LocalId(0)),
        },
        span: Span::default(),
    });
    f.param_count = 2;
    let errors = errors(&single(f));
    assert!(errors
        .iter()
        .any(|e| e.contains("the first 2 locals must be exactly the parameters")));
    assert!(errors
        .iter()
        .any(|e| e.contains("address of `c`, which is not marked address-taken")));
}

#[test]
fn a_function_without_blocks() {
    let mut f = graph(&[]);
    f.param_count = 1;
    assert_eq!(
        errors(&single(f)),
        vec!["fn g: no blocks (the entry block is required)".to_string()]
    );
}

#[test]
fn the_length_of_an_array_is_guarded_like_a_read_of_it() {
    let mut m = lower_ok("main() { var p, n; p = alloc [1, 2]; n = *p; return 0; }");
    // `n = *p` becomes `n = len(*p)`: still guarded by the same checks.
    let mut replaced = 0;
    for block in &mut m.functions[0].blocks {
        for inst in &mut block.insts {
            if let InstKind::Assign { value, .. } = &mut inst.kind {
                if let Rvalue::Read(place) = value {
                    if matches!(place.base, PlaceBase::Deref(_)) {
                        *value = Rvalue::Len(place.clone());
                        replaced += 1;
                    }
                }
            }
        }
    }
    assert_eq!(replaced, 1);
    assert!(errors(&m).is_empty(), "{:#?}", errors(&m));
    remove_first(&mut m, |k| is_check(k, PropertyKind::NullDeref));
    assert_reports(&m, "without a preceding NonNull check");
}

#[test]
fn numbers_of_two_widths_do_not_mix() {
    let span = Span::default();
    let mut f = graph(&[&[]]);
    let local = |name: &str, width| LocalInfo {
        name: name.to_string(),
        kind: LocalKind::Temp,
        span,
        address_taken: false,
        width,
        unsigned: false,
        layout: Default::default(),
    };
    f.locals.push(local("wide", Width::W64));
    f.locals.push(local("narrow", Width::W32));
    let assign = |dst: u32, value| Inst {
        kind: InstKind::Assign {
            dst: LocalId(dst),
            value,
        },
        span,
    };
    let (c, wide) = (Operand::Local(LocalId(0)), LocalId(1));
    f.blocks[0].insts = vec![
        // Well formed: the extension, 64-bit arithmetic, a comparison's 32-bit truth value.
        assign(1, Rvalue::Unary(UnOp::SignExtend, c)),
        assign(
            1,
            Rvalue::Binary(BinOp::Mul, Operand::Local(wide), Operand::Const64(3)),
        ),
        assign(
            2,
            Rvalue::Binary(BinOp::Lt, Operand::Local(wide), Operand::Const64(5)),
        ),
        assign(2, Rvalue::Unary(UnOp::Truncate, Operand::Local(wide))),
        // Broken: a 32-bit operand in 64-bit arithmetic, a 64-bit value into a 32-bit local.
        assign(1, Rvalue::Binary(BinOp::Add, Operand::Local(wide), c)),
        assign(2, Rvalue::Use(Operand::Const64(1))),
    ];
    assert_eq!(
        errors(&single(f)),
        [
            "fn g: bb0[4]: the right operand `c` has 32 bits where 64 are needed",
            "fn g: bb0[5]: the destination `narrow` has 32 bits where 64 are needed",
        ]
    );
}
