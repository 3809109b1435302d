//! Must-assignment of `var` locals: at each instruction, whether every path from the entry has
//! assigned a given local before it. A `var` local starts uninitialized and each read of it is
//! guarded by an `Init` check; where the local is assigned on every path, that check cannot
//! fail. The C lowering drops every check of a local assigned before each of its reads for good
//! ([`crate::promote`]); every engine counts each single check that holds so as proved without
//! a search ([`crate::cfg::Module::infallible_properties`]), which matters for micro-c, whose
//! `var` declarations never carry a value. No IR instruction makes a local uninitialized again
//! (the interpreter gives a frame's locals no value only when it creates the frame), so what
//! holds on every path into a point holds there.
//!
//! Only whole, unaliased locals are analysed: a local whose address is taken can be assigned
//! through a pointer, which this analysis does not follow. It reads the IR and never changes it.

use crate::cfg::*;

/// Where a local is assigned on every path from the entry, for one local of one function.
pub struct MustAssigned<'f> {
    function: &'f Function,
    local: LocalId,
    /// Per block: assigned on every path to the block's start.
    at_start: Vec<bool>,
}

/// A point of a block: one of its instructions or its terminator.
#[derive(Clone, Copy)]
pub enum Point<'f> {
    Inst(usize, &'f InstKind),
    Term(&'f Terminator),
}

impl<'f> MustAssigned<'f> {
    /// Whether the analysis applies to `local`: a `var` local whose address is never taken.
    pub fn applies_to(function: &Function, local: LocalId) -> bool {
        let info = function.local(local);
        info.kind == LocalKind::Var && !info.address_taken
    }

    /// The fixed point for `local` (one of [`Self::applies_to`]'s); `predecessors` are the
    /// function's ([`Function::predecessors`]).
    pub fn of(function: &'f Function, predecessors: &[Vec<BlockId>], local: LocalId) -> Self {
        let blocks = function.blocks.len();
        let assigns_in: Vec<bool> = function
            .blocks
            .iter()
            .map(|b| b.insts.iter().any(|i| assigns(&i.kind, local)))
            .collect();
        // Start optimistic, as a must-analysis does, and lower to the fixed point. A block no
        // edge reaches (and the entry) starts unassigned.
        let mut at_end = vec![true; blocks];
        let at_start = |b: usize, at_end: &[bool]| {
            b != Function::ENTRY.index()
                && !predecessors[b].is_empty()
                && predecessors[b].iter().all(|p| at_end[p.index()])
        };
        let mut changed = true;
        while changed {
            changed = false;
            for b in 0..blocks {
                let value = assigns_in[b] || at_start(b, &at_end);
                if value != at_end[b] {
                    at_end[b] = value;
                    changed = true;
                }
            }
        }
        let at_start = (0..blocks).map(|b| at_start(b, &at_end)).collect();
        MustAssigned {
            function,
            local,
            at_start,
        }
    }

    /// Calls `visit` at every point of every block with whether the local is assigned on every
    /// path to it (before the instruction runs).
    pub fn for_each_point(&self, mut visit: impl FnMut(BlockId, Point<'f>, bool)) {
        let function = self.function;
        for (b, block) in function.blocks.iter().enumerate() {
            let id = BlockId(b as u32);
            let mut assigned = self.at_start[b];
            for (i, inst) in block.insts.iter().enumerate() {
                visit(id, Point::Inst(i, &inst.kind), assigned);
                assigned |= assigns(&inst.kind, self.local);
            }
            visit(id, Point::Term(&block.term), assigned);
        }
    }

    /// Whether every read of the local comes after an assignment on every path.
    pub fn before_every_read(&self) -> bool {
        let mut all = true;
        self.for_each_point(|_, point, assigned| {
            all &= assigned || !reads(point, self.local);
        });
        all
    }
}

/// The local an `Init` check of a whole local checks.
pub fn init_checked_local(kind: &InstKind) -> Option<LocalId> {
    match kind {
        InstKind::Check {
            check: Check::Init(place),
            ..
        } if place.projections.is_empty() => place.base_local(),
        _ => None,
    }
}

/// Per block, per instruction: whether it is an `Init` check of a whole local that every path
/// has assigned before it (so the check cannot fail).
pub fn init_checks_that_hold(function: &Function) -> Vec<Vec<bool>> {
    let mut holds: Vec<Vec<bool>> = function
        .blocks
        .iter()
        .map(|b| vec![false; b.insts.len()])
        .collect();
    let mut checked: Vec<LocalId> = function
        .blocks
        .iter()
        .flat_map(|b| &b.insts)
        .filter_map(|i| init_checked_local(&i.kind))
        .filter(|&l| MustAssigned::applies_to(function, l))
        .collect();
    checked.sort_unstable();
    checked.dedup();
    if checked.is_empty() {
        return holds;
    }
    let predecessors = function.predecessors();
    for local in checked {
        MustAssigned::of(function, &predecessors, local).for_each_point(|b, point, assigned| {
            if let Point::Inst(i, kind) = point {
                if assigned && init_checked_local(kind) == Some(local) {
                    holds[b.index()][i] = true;
                }
            }
        });
    }
    holds
}

/// Whether `point` reads `local`'s value (an `Init` check of it is not a read).
fn reads(point: Point<'_>, local: LocalId) -> bool {
    let kind = match point {
        Point::Inst(_, kind) => kind,
        Point::Term(Terminator::Branch { cond, .. }) => return *cond == Operand::Local(local),
        Point::Term(Terminator::Return(op)) => return *op == Operand::Local(local),
        Point::Term(Terminator::Goto(_)) => return false,
    };
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

/// Whether `kind` assigns the whole of `local` (a store into part of it does not).
fn assigns(kind: &InstKind, local: LocalId) -> bool {
    kind.defined_local() == Some(local)
}
