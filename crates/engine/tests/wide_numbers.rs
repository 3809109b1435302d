//! 64-bit numbers in the IR, through every engine: the forward engine computes with them
//! exactly (a violation that needs more than 32 bits is found and replays; one that 32-bit
//! arithmetic would wrongly report or miss is decided right), its techniques (subsumption,
//! summaries) stay sound over them, and the engines that model only 32 bits answer `unknown`.
//!
//! The programs are built as IR, each pinning one construct (C's `long long` through the front
//! end: `c_wide_integers.rs`).

use std::time::Duration;

use symex_engine::{check_forward, CheckOptions};
use symex_ir::build::FunctionBuilder;
use symex_ir::cfg::*;
use symex_report::{Report, Status};
use symex_syntax::span::Span;

mod support;

/// `main() { x = input; w = sext(x); ...body(w)...; return 0; }`, verified.
fn program(body: impl FnOnce(&mut FunctionBuilder, &mut Vec<Property>, Operand)) -> Module {
    let span = Span::default();
    let mut properties = Vec::new();
    let mut b = FunctionBuilder::new(FuncId(0), Vec::new());
    let x = b.new_temp(span, Width::W32);
    b.emit(InstKind::Input { dst: x }, span);
    let w = b.assign_temp(Rvalue::Unary(UnOp::SignExtend, Operand::Local(x)), span);
    body(&mut b, &mut properties, Operand::Local(w));
    b.terminate_open_blocks(&Terminator::Return(Operand::Const(0)), span);
    let module = Module {
        functions: vec![b.finish("main".into(), span, 0)],
        fields: Vec::new(),
        properties,
    };
    if let Err(errors) = symex_ir::verify(&module) {
        panic!("verifier: {errors:#?}");
    }
    module
}

/// `assert(a op b)`.
fn assert_that(
    b: &mut FunctionBuilder,
    properties: &mut Vec<Property>,
    op: BinOp,
    a: Operand,
    c: Operand,
) {
    let holds = b.assign_temp(Rvalue::Binary(op, a, c), Span::default());
    // Each assertion on a line of its own in `SOURCE`: a report has one property per position.
    let at = properties.len();
    b.emit_check(
        properties,
        Check::Assert(Operand::Local(holds)),
        Span::new(at, at + 1),
    );
}

/// The text the reports locate the assertions in: one line per assertion.
const SOURCE: &str = "\n\n\n\n\n\n\n\n";

/// `i = start; while (condition) i = i + step;` over a 64-bit variable `i` (a source variable,
/// so subsumption proposes invariants of it); `condition` is emitted at the header. Returns
/// `i`, with the builder in the exit block.
fn counting_loop(
    b: &mut FunctionBuilder,
    start: Rvalue,
    condition: impl FnOnce(&mut FunctionBuilder, LocalId) -> Operand,
    step: i64,
) -> LocalId {
    let span = Span::default();
    let i = b.add_local(LocalInfo {
        name: "i".into(),
        kind: LocalKind::Assigned,
        span,
        address_taken: false,
        width: Width::W64,
        unsigned: false,
        layout: Default::default(),
    });
    b.emit(
        InstKind::Assign {
            dst: i,
            value: start,
        },
        span,
    );
    let (header, body, exit) = (b.new_block(), b.new_block(), b.new_block());
    b.goto(header, span);
    b.switch_to(header);
    let go_on = condition(b, i);
    b.branch(go_on, body, exit, span);
    b.switch_to(body);
    let next = Rvalue::Binary(BinOp::Add, Operand::Local(i), Operand::Const64(step));
    b.emit(
        InstKind::Assign {
            dst: i,
            value: next,
        },
        span,
    );
    b.goto(header, span);
    b.switch_to(exit);
    i
}

fn options() -> CheckOptions {
    CheckOptions {
        timeout: Some(Duration::from_secs(20)),
        ..CheckOptions::default()
    }
}

fn forward(module: &Module, options: &CheckOptions) -> Report {
    let types = types();
    check_forward(module, &types, SOURCE, "wide", "main", options).expect("the forward check runs")
}

/// The types of a `main` without parameters (the engines read only the entry's).
fn types() -> symex_syntax::types::TypeTable {
    let front = symex_syntax::analyze("main() { return 0; }").expect("valid");
    front.types.expect("typed")
}

/// The report's one property is `safe`.
fn assert_safe(report: &Report) {
    let verdict = &report.properties()[0].verdict;
    assert_eq!(statuses(report), [Status::Safe], "{verdict:?}");
}

fn statuses(report: &Report) -> Vec<Status> {
    report
        .properties()
        .iter()
        .map(|p| p.verdict.status())
        .collect()
}

/// `w * w` of a 32-bit input does not wrap in 64 bits: it is 2^62 - 2^32 + 1 for ±(2^31 - 1);
/// and `4 * w` is never 2^33 (in 32 bits it would be 0 for `w = 0`).
#[test]
fn products_beyond_32_bits_are_exact() {
    let module = program(|b, properties, w| {
        let span = Span::default();
        let square = Operand::Local(b.assign_temp(Rvalue::Binary(BinOp::Mul, w, w), span));
        assert_that(
            b,
            properties,
            BinOp::Ne,
            square,
            Operand::Const64(0x3fff_ffff_0000_0001),
        );
        let four = Rvalue::Binary(BinOp::Mul, w, Operand::Const64(4));
        let quadruple = Operand::Local(b.assign_temp(four, span));
        assert_that(
            b,
            properties,
            BinOp::Ne,
            quadruple,
            Operand::Const64(1 << 33),
        );
    });
    let report = forward(&module, &options());
    assert_eq!(statuses(&report), [Status::Violated, Status::Safe]);
    let (_, confirmed) = report.properties()[0].verdict.witness().expect("a witness");
    assert!(confirmed, "the interpreter replays the violation");
}

/// Truncation and zero extension: the low half of `w + 2^32` is the input again, and the input
/// zero-extended is below 2^32.
#[test]
fn conversions_keep_the_low_bits() {
    let module = program(|b, properties, w| {
        let span = Span::default();
        let shifted = Operand::Local(b.assign_temp(
            Rvalue::Binary(BinOp::Add, w, Operand::Const64(1 << 32)),
            span,
        ));
        let low = Operand::Local(b.assign_temp(Rvalue::Unary(UnOp::Truncate, shifted), span));
        let back = Operand::Local(b.assign_temp(Rvalue::Unary(UnOp::SignExtend, low), span));
        assert_that(b, properties, BinOp::Eq, back, w);
        let input = Operand::Local(b.assign_temp(Rvalue::Unary(UnOp::Truncate, w), span));
        let unsigned = Operand::Local(b.assign_temp(Rvalue::Unary(UnOp::ZeroExtend, input), span));
        assert_that(
            b,
            properties,
            BinOp::Lt,
            unsigned,
            Operand::Const64(1 << 32),
        );
        // Equal to 2^32 - 1 for the input -1: a violation.
        assert_that(
            b,
            properties,
            BinOp::Ne,
            unsigned,
            Operand::Const64(0xffff_ffff),
        );
    });
    let report = forward(&module, &options());
    assert_eq!(
        statuses(&report),
        [Status::Safe, Status::Safe, Status::Violated]
    );
}

/// A loop over a 64-bit counter: `i = w; while (i < w + 10) i = i + 1; assert(i == w + 10)`,
/// safe for every input, under subsumption (its placeholders and congruences take the
/// counter's width) and summaries (which leave a 64-bit loop to execution).
#[test]
fn loop_techniques_stay_sound_over_64_bit_counters() {
    let module = program(|b, properties, w| {
        let span = Span::default();
        let end = Operand::Local(
            b.assign_temp(Rvalue::Binary(BinOp::Add, w, Operand::Const64(10)), span),
        );
        let below = |b: &mut FunctionBuilder, i: LocalId| {
            let below = Rvalue::Binary(BinOp::Lt, Operand::Local(i), end);
            Operand::Local(b.assign_temp(below, span))
        };
        let i = counting_loop(b, Rvalue::Use(w), below, 1);
        assert_that(b, properties, BinOp::Eq, Operand::Local(i), end);
    });
    for options in [
        CheckOptions {
            subsume: true,
            ..options()
        },
        CheckOptions {
            summarize: true,
            ..options()
        },
        options(),
    ] {
        // Near the top of the 64-bit range `w + 10` does not wrap (`w` is a 32-bit input).
        assert_safe(&forward(&module, &options));
    }
}

/// The structural engine computes with 64-bit numbers too (`w` is 7 for the input 7, and `w`
/// is never 2^32 + 7); the backward engine models 32-bit numbers only: `unknown`, with the
/// reason.
#[test]
fn the_structural_engine_decides_and_the_backward_engine_answers_unknown() {
    let module = program(|b, properties, w| {
        assert_that(b, properties, BinOp::Ne, w, Operand::Const64(7));
        assert_that(b, properties, BinOp::Ne, w, Operand::Const64((1 << 32) + 7));
    });
    let types = types();
    let reports = support::backward_and_structural((&module, &types), SOURCE, "wide", &options());
    let [(_, backward), (_, structural)] = &reports[..] else {
        panic!("two reports");
    };
    assert_eq!(statuses(structural), [Status::Violated, Status::Safe]);
    let (_, confirmed) = structural.properties()[0]
        .verdict
        .witness()
        .expect("a witness");
    assert!(confirmed, "the interpreter replays the violation");
    for verdict in backward.properties().iter().map(|p| &p.verdict) {
        assert_eq!(verdict.status(), Status::Unknown);
        let reason = verdict.reason().unwrap_or_default();
        assert!(reason.contains("64-bit numbers"), "{reason}");
    }
}

/// `i = w * 2; while (input) i = i + 2; assert((i & 1) == 0)`: safe for every number of
/// iterations, which subsumption proves with the congruence `i & 1 == 0` of a 64-bit counter.
#[test]
fn subsumption_proves_an_invariant_of_a_64_bit_counter() {
    let module = program(|b, properties, w| {
        let span = Span::default();
        let more = |b: &mut FunctionBuilder, _| {
            let more = b.new_temp(span, Width::W32);
            b.emit(InstKind::Input { dst: more }, span);
            Operand::Local(more)
        };
        let double = Rvalue::Binary(BinOp::Mul, w, Operand::Const64(2));
        let i = counting_loop(b, double, more, 2);
        let odd = Rvalue::Binary(BinOp::BitAnd, Operand::Local(i), Operand::Const64(1));
        let odd = Operand::Local(b.assign_temp(odd, span));
        assert_that(b, properties, BinOp::Eq, odd, Operand::Const64(0));
    });
    let options = CheckOptions {
        subsume: true,
        ..options()
    };
    assert_safe(&forward(&module, &options));
}
