//! The forward data flow that `low_bits` and `value_bits` share: at every block start, one fact
//! per local that holds on every path from the entry.
//!
//! Parameters and address-taken locals (which live in memory) start unknown, the others
//! unassigned; an assignment sets its local's fact from the right side, a call, an input or a
//! store into a local aggregate makes it unknown. A join takes the facts of both sides; a local
//! unassigned on one side keeps the other's (a read of it there fails its `Init` check). The
//! facts must form a lattice of finite height under `join`, so the fixed point comes. Reads the
//! IR only.

use std::collections::VecDeque;

use super::order::reverse_postorder;
use crate::cfg::{Function, InstKind, Place, PlaceBase, Rvalue};

/// A fact about one local's value.
pub(super) trait LocalFact: Copy + PartialEq {
    /// Not assigned on any path so far (the bottom of the lattice).
    const UNASSIGNED: Self;
    /// Nothing known (the top).
    const UNKNOWN: Self;
    /// What holds on either of two paths.
    fn join(self, other: Self) -> Self;
    /// The fact of `value`, given the facts of the locals it reads.
    fn of_rvalue(facts: &[Self], value: &Rvalue) -> Self;
}

/// Per block: the fact of every local at its start, `None` for a block no path reaches.
pub(super) fn solve<F: LocalFact>(function: &Function) -> Vec<Option<Vec<F>>> {
    let locals = function.locals.len();
    let mut at_start: Vec<Option<Vec<F>>> = vec![None; function.blocks.len()];
    let Some(entry) = at_start.first_mut() else {
        return at_start;
    };
    let mut start = vec![F::UNASSIGNED; locals];
    for (i, info) in function.locals.iter().enumerate() {
        if i < function.param_count as usize || info.address_taken {
            start[i] = F::UNKNOWN;
        }
    }
    *entry = Some(start);
    let order = reverse_postorder(function);
    let mut queued = vec![false; function.blocks.len()];
    let mut work: VecDeque<_> = order.into_iter().collect();
    for b in &work {
        queued[b.index()] = true;
    }
    while let Some(b) = work.pop_front() {
        queued[b.index()] = false;
        let Some(mut facts) = at_start[b.index()].clone() else {
            continue;
        };
        for inst in &function.block(b).insts {
            let written = match &inst.kind {
                InstKind::Assign { dst, value } => Some((*dst, F::of_rvalue(&facts, value))),
                InstKind::Call { dst, .. } | InstKind::Input { dst } => Some((*dst, F::UNKNOWN)),
                InstKind::Store {
                    place:
                        Place {
                            base: PlaceBase::Local(dst),
                            ..
                        },
                    ..
                } => Some((*dst, F::UNKNOWN)),
                _ => None,
            };
            if let Some((dst, fact)) = written {
                if !function.local(dst).address_taken {
                    facts[dst.index()] = fact;
                }
            }
        }
        for succ in function.block(b).term.successors() {
            let joined = match &at_start[succ.index()] {
                None => facts.clone(),
                Some(old) => old.iter().zip(&facts).map(|(o, n)| o.join(*n)).collect(),
            };
            if at_start[succ.index()].as_ref() != Some(&joined) {
                at_start[succ.index()] = Some(joined);
                if !queued[succ.index()] {
                    queued[succ.index()] = true;
                    work.push_back(succ);
                }
            }
        }
    }
    at_start
}
