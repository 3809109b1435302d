//! A lowering clean-up for front ends whose variables are mostly initialized where declared (C):
//! a `var` local that every path from the entry assigns before each of its reads can never be
//! read uninitialized, so its `Init` checks can never fail. Such a local becomes
//! [`LocalKind::Assigned`], its checks are dropped and the remaining properties renumbered.
//!
//! Micro-c does not use it (its corpus lists every `uninit` property). It never changes what a
//! program computes; it only removes properties that hold on every path.

use crate::analysis::must_assigned::{init_checked_local, MustAssigned};
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

fn promote_in(function: &mut Function, dropped: &mut [bool]) {
    let candidates: Vec<LocalId> = function
        .local_ids()
        .filter(|&l| MustAssigned::applies_to(function, l))
        .collect();
    if candidates.is_empty() {
        return;
    }
    let promoted: Vec<LocalId> = {
        let analysis = MustAssigned::of(function, &candidates);
        let assigned = analysis.before_every_read(&candidates);
        (candidates.iter().zip(assigned))
            .filter_map(|(&local, assigned)| assigned.then_some(local))
            .collect()
    };
    for local in promoted {
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
            width: Width::W32,
            unsigned: false,
            layout: Default::default(),
        }
    }

    /// `x` assigned then read; `y` read on a path where it may be unassigned.
    fn module() -> Module {
        let mut properties = Vec::new();
        let mut b = FunctionBuilder::new(FuncId(0), vec![var("x"), var("y")]);
        let (x, y) = (LocalId(0), LocalId(1));
        let s = Span::default();
        let t = b.new_temp(s, Width::W32);
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
