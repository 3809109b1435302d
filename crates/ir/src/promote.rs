//! A lowering clean-up for front ends whose variables are mostly initialized where declared (C):
//! a `var` local that every path from the entry assigns before each of its reads can never be
//! read uninitialized, so its `Init` checks can never fail. Such a local becomes
//! [`LocalKind::Assigned`], its checks are dropped and the remaining properties renumbered.
//!
//! Micro-c does not use it (its corpus lists every `uninit` property). It never changes what a
//! program computes; it only removes properties that hold on every path.

use crate::cfg::*;

/// `module` with the provably passing `Init` checks of plain `var` locals removed.
pub fn promote_assigned_vars(mut module: Module) -> Module {
    let mut dropped = vec![false; module.properties.len()];
    for function in &mut module.functions {
        promote_in(function, &mut dropped);
    }
    if !dropped.contains(&true) {
        return module;
    }
    let mut new_id = Vec::with_capacity(dropped.len());
    let mut next = 0u32;
    for &gone in &dropped {
        new_id.push(PropId(next));
        if !gone {
            next += 1;
        }
    }
    for function in &mut module.functions {
        for block in &mut function.blocks {
            for inst in &mut block.insts {
                if let InstKind::Check { prop, .. } = &mut inst.kind {
                    *prop = new_id[prop.index()];
                }
            }
        }
    }
    let mut index = 0;
    module.properties.retain(|_| {
        index += 1;
        !dropped[index - 1]
    });
    module
}

/// The local an `Init` check of a whole local checks.
fn init_checked_local(kind: &InstKind) -> Option<LocalId> {
    match kind {
        InstKind::Check {
            check: Check::Init(place),
            ..
        } if place.projections.is_empty() => place.base_local(),
        _ => None,
    }
}

/// Whether `kind` reads `local`'s value (an `Init` check of it is not a read).
fn reads(kind: &InstKind, local: LocalId) -> bool {
    if init_checked_local(kind) == Some(local) {
        return false;
    }
    let mut found = false;
    kind.for_each_operand(|op| found |= op == Operand::Local(local));
    let place = match kind {
        InstKind::Assign {
            value: Rvalue::Read(place),
            ..
        } => Some(place),
        InstKind::Store { place, .. } => Some(place),
        InstKind::Check {
            check: Check::InBounds { array: place, .. } | Check::Init(place),
            ..
        } => Some(place),
        _ => None,
    };
    found || place.is_some_and(|p| p.base_local() == Some(local))
}

fn assigns(kind: &InstKind, local: LocalId) -> bool {
    kind.defined_local() == Some(local)
        || matches!(kind, InstKind::Store { place, .. }
            if place.projections.is_empty() && place.base == PlaceBase::Local(local))
}

fn promote_in(function: &mut Function, dropped: &mut [bool]) {
    let candidates: Vec<LocalId> = function
        .local_ids()
        .filter(|&l| {
            let info = function.local(l);
            info.kind == LocalKind::Var && !info.address_taken
        })
        .collect();
    if candidates.is_empty() {
        return;
    }
    let predecessors = function.predecessors();
    for local in candidates {
        if assigned_before_every_read(function, &predecessors, local) {
            function.locals[local.index()].kind = LocalKind::Assigned;
            for block in &mut function.blocks {
                block.insts.retain(|inst| {
                    let checks_it = init_checked_local(&inst.kind) == Some(local);
                    if let (true, InstKind::Check { prop, .. }) = (checks_it, &inst.kind) {
                        dropped[prop.index()] = true;
                    }
                    !checks_it
                });
            }
        }
    }
}

/// Must-assignment: is `local` assigned on every path from the entry before each read?
fn assigned_before_every_read(
    function: &Function,
    predecessors: &[Vec<BlockId>],
    local: LocalId,
) -> bool {
    let blocks = function.blocks.len();
    let assigns_in: Vec<bool> = function
        .blocks
        .iter()
        .map(|b| b.insts.iter().any(|i| assigns(&i.kind, local)))
        .collect();
    // `assigned_at_end[b]`: assigned on every path to the end of `b` (start optimistic, as a
    // must-analysis does, and lower to the fixed point).
    let mut assigned_at_end = vec![true; blocks];
    let at_start = |b: usize, at_end: &[bool]| {
        b != Function::ENTRY.index()
            && !predecessors[b].is_empty()
            && predecessors[b].iter().all(|p| at_end[p.index()])
    };
    let mut changed = true;
    while changed {
        changed = false;
        for b in 0..blocks {
            let value = assigns_in[b] || at_start(b, &assigned_at_end);
            if value != assigned_at_end[b] {
                assigned_at_end[b] = value;
                changed = true;
            }
        }
    }
    for (b, block) in function.blocks.iter().enumerate() {
        let mut assigned = at_start(b, &assigned_at_end);
        for inst in &block.insts {
            if !assigned && reads(&inst.kind, local) {
                return false;
            }
            assigned |= assigns(&inst.kind, local);
        }
        let term_reads = match &block.term {
            Terminator::Branch { cond, .. } => *cond == Operand::Local(local),
            Terminator::Return(op) => *op == Operand::Local(local),
            Terminator::Goto(_) => false,
        };
        if !assigned && term_reads {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::build::FunctionBuilder;
    use symex_syntax::span::Span;

    fn var(name: &str) -> LocalInfo {
        LocalInfo {
            name: name.into(),
            kind: LocalKind::Var,
            span: Span::default(),
            address_taken: false,
        }
    }

    /// `x` assigned then read; `y` read on a path where it may be unassigned.
    fn module() -> Module {
        let mut properties = Vec::new();
        let mut b = FunctionBuilder::new(FuncId(0), vec![var("x"), var("y")]);
        let (x, y) = (LocalId(0), LocalId(1));
        let s = Span::default();
        let t = b.new_temp(s);
        b.emit(InstKind::Input { dst: t }, s);
        b.emit(
            InstKind::Assign {
                dst: x,
                value: Rvalue::Use(Operand::Const(1)),
            },
            s,
        );
        let (then_bb, join) = (b.new_block(), b.new_block());
        b.terminate(
            Terminator::Branch {
                cond: Operand::Local(t),
                then_block: then_bb,
                else_block: join,
            },
            s,
        );
        b.switch_to(then_bb);
        b.emit(
            InstKind::Assign {
                dst: y,
                value: Rvalue::Use(Operand::Const(2)),
            },
            s,
        );
        b.goto(join, s);
        b.switch_to(join);
        b.emit_check(&mut properties, Check::Init(Place::local(x)), s);
        b.emit_check(&mut properties, Check::Init(Place::local(y)), s);
        let sum = b.assign_temp(
            Rvalue::Binary(BinOp::Add, Operand::Local(x), Operand::Local(y)),
            s,
        );
        b.terminate(Terminator::Return(Operand::Local(sum)), s);
        Module {
            functions: vec![b.finish("main".into(), s, 0)],
            fields: Vec::new(),
            properties,
        }
    }

    #[test]
    fn only_locals_assigned_on_every_path_lose_their_checks() {
        let module = promote_assigned_vars(module());
        let f = &module.functions[0];
        assert_eq!(f.locals[0].kind, LocalKind::Assigned);
        assert_eq!(f.locals[1].kind, LocalKind::Var);
        assert_eq!(module.properties.len(), 1);
        let remaining: Vec<PropId> = f
            .blocks
            .iter()
            .flat_map(|b| &b.insts)
            .filter_map(|i| match i.kind {
                InstKind::Check { prop, .. } => Some(prop),
                _ => None,
            })
            .collect();
        assert_eq!(remaining, [PropId(0)]);
        assert!(crate::verify(&module).is_ok());
    }
}
