//! Numbers have one width per operation: every operand a local or a constant gives is checked
//! against the widths the operation needs (see [`Operand`]), and every assigned local's declared
//! [`Width`] against the width of what it receives.
//!
//! Memory is untyped: a value read from or stored into a cell or part of an aggregate is not
//! checked here (the interpreter stops at a mixed operation as a type fault). `null` is not a
//! number and has no width; a pointer-holding local has the default width, which its uses
//! (copies, `==` with another pointer) agree on.

use super::{At, Report};
use crate::cfg::*;

fn width(func: &Function, op: Operand) -> Option<Width> {
    op.width(&func.locals)
}

fn name(func: &Function, op: Operand) -> String {
    match op {
        Operand::Const(n) => n.to_string(),
        Operand::Const64(n) => format!("{n}L"),
        Operand::Null => "null".into(),
        Operand::Local(l) => format!("`{}`", func.local(l).name),
    }
}

/// Checks one function; `module` gives the callees' parameter and return widths.
pub(super) fn check_function(module: &Module, func: &Function, report: &mut Report) {
    for (b, block) in func.blocks.iter().enumerate() {
        let b = BlockId(b as u32);
        for (i, inst) in block.insts.iter().enumerate() {
            let mut need = |op: Operand, wanted: Width, role: &str| {
                if let Some(found) = width(func, op).filter(|&w| w != wanted) {
                    report.at(
                        b,
                        At::Inst(i),
                        format!(
                            "{role} {} has {} bits where {} are needed",
                            name(func, op),
                            found.bits(),
                            wanted.bits()
                        ),
                    );
                }
            };
            match &inst.kind {
                InstKind::Assign { dst, value } => {
                    match value {
                        Rvalue::Unary(op, a) => {
                            let from = match op {
                                UnOp::SignExtend | UnOp::ZeroExtend => Some(Width::W32),
                                UnOp::Truncate => Some(Width::W64),
                                UnOp::Neg | UnOp::BitNot => Some(func.local(*dst).width),
                                UnOp::Not => None,
                            };
                            if let Some(from) = from {
                                need(*a, from, "the operand");
                            }
                        }
                        Rvalue::Binary(_, x, y) => {
                            if let Some(w) = width(func, *x).or(width(func, *y)) {
                                need(*x, w, "the left operand");
                                need(*y, w, "the right operand");
                            }
                        }
                        Rvalue::Len(place) | Rvalue::Read(place) => place_indices(place, &mut need),
                        Rvalue::Use(_)
                        | Rvalue::Alloc(_)
                        | Rvalue::AddrOf(_)
                        | Rvalue::Record(_)
                        | Rvalue::Array(_)
                        | Rvalue::Unreached(_)
                        | Rvalue::LiveObjects => {}
                    }
                    if let Some(w) = value.width(&func.locals) {
                        need(Operand::Local(*dst), w, "the destination");
                    }
                }
                InstKind::Store { place, value } => {
                    place_indices(place, &mut need);
                    if let (Some(l), true) = (place.base_local(), place.projections.is_empty()) {
                        if let Some(w) = width(func, *value) {
                            need(Operand::Local(l), w, "the destination");
                        }
                    }
                }
                InstKind::Call {
                    dst,
                    func: callee,
                    args,
                } => {
                    let Some(callee) = module.functions.get(callee.index()) else {
                        continue;
                    };
                    for (arg, param) in args.iter().zip(callee.params()) {
                        need(*arg, callee.local(param).width, "the argument");
                    }
                    if let Some(w) = callee.returned_width() {
                        need(Operand::Local(*dst), w, "the destination");
                    }
                }
                InstKind::Input { dst } => need(Operand::Local(*dst), Width::W32, "the input"),
                InstKind::Output(op) => need(*op, Width::W32, "the output"),
                InstKind::Check {
                    check: Check::InBounds { array, index },
                    ..
                } => {
                    place_indices(array, &mut need);
                    need(*index, Width::W32, "the index");
                }
                InstKind::Check { check, .. } => {
                    if let Check::Init(place) = check {
                        place_indices(place, &mut need);
                    }
                }
                InstKind::Assume(_) => {}
            }
        }
    }
    if let Some(mixed) = mixed_returns(func) {
        report.function(mixed);
    }
}

/// Every index of a place is a 32-bit number.
fn place_indices(place: &Place, need: &mut impl FnMut(Operand, Width, &str)) {
    for projection in &place.projections {
        if let Projection::Index(index) = projection {
            need(*index, Width::W32, "the index");
        }
    }
}

/// A message if the function returns numbers of both widths.
fn mixed_returns(func: &Function) -> Option<String> {
    let first = func.returned_width()?;
    func.blocks.iter().find_map(|block| match block.term {
        Terminator::Return(op) => width(func, op).filter(|&w| w != first).map(|w| {
            format!(
                "returns {} ({} bits) and numbers of {} bits",
                name(func, op),
                w.bits(),
                first.bits()
            )
        }),
        _ => None,
    })
}
