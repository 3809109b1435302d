//! Temporaries are assigned before use on every path from the entry.
//!
//! Only a temporary read before any assignment in its own block ("upward-exposed") needs a look
//! across blocks. For each such read, a backward search from the block's predecessors stops at
//! blocks that assign the temporary; reaching the entry block means some path from the entry
//! arrives without an assignment. Lowered code keeps these searches tiny (a short-circuit
//! result is assigned in the join's predecessors), so the check stays linear in practice.

use std::collections::HashSet;

use super::{for_each_read_local, At, Report};
use crate::cfg::*;

/// A temporary read in a block before the block assigns it.
struct Exposed {
    temp: LocalId,
    block: BlockId,
    at: At,
}

pub(super) fn check_function(func: &Function, report: &mut Report) {
    let is_temp = |l: LocalId| matches!(func.local(l).kind, LocalKind::Temp | LocalKind::Assigned);
    let mut exposed = Vec::new();
    // (block, temp) for every temporary a block assigns.
    let mut assigns: HashSet<(BlockId, LocalId)> = HashSet::new();
    for (b, block) in func.blocks.iter().enumerate() {
        let b = BlockId(b as u32);
        for (i, inst) in block.insts.iter().enumerate() {
            for_each_read_local(&inst.kind, |l| {
                if is_temp(l) && !assigns.contains(&(b, l)) {
                    exposed.push(Exposed {
                        temp: l,
                        block: b,
                        at: At::Inst(i),
                    });
                }
            });
            if let Some(dst) = inst.kind.defined_local().filter(|&d| is_temp(d)) {
                assigns.insert((b, dst));
            }
        }
        if let Some(Operand::Local(l)) = block.term.operand() {
            if is_temp(l) && !assigns.contains(&(b, l)) {
                exposed.push(Exposed {
                    temp: l,
                    block: b,
                    at: At::Terminator,
                });
            }
        }
    }
    if exposed.is_empty() {
        return;
    }
    let preds = func.predecessors();
    // Visit marks, one generation per search, so no search clears the array.
    let mut seen = vec![0u32; func.blocks.len()];
    for (generation, e) in (1u32..).zip(&exposed) {
        if unassigned_path_exists(e, &preds, &assigns, &mut seen, generation) {
            let name = &func.local(e.temp).name;
            report.at(
                e.block,
                e.at,
                format!("temporary `{name}` may be read before it is assigned"),
            );
        }
    }
}

/// Whether some path from the entry reaches `e.block` without assigning `e.temp`.
fn unassigned_path_exists(
    e: &Exposed,
    preds: &[Vec<BlockId>],
    assigns: &HashSet<(BlockId, LocalId)>,
    seen: &mut [u32],
    generation: u32,
) -> bool {
    if e.block == Function::ENTRY {
        return true;
    }
    let mut work = vec![e.block];
    seen[e.block.index()] = generation;
    while let Some(b) = work.pop() {
        for &p in &preds[b.index()] {
            if seen[p.index()] == generation || assigns.contains(&(p, e.temp)) {
                continue;
            }
            if p == Function::ENTRY {
                return true;
            }
            seen[p.index()] = generation;
            work.push(p);
        }
    }
    false
}
