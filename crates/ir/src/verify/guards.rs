//! Guard checks: within each block, every operation that can fail is preceded by its check.
//!
//! Walking a block in order, the checks passed so far are facts: `NonNull(p)`, `Init(*p)`,
//! `InBounds(place, i)`, and "var `x` is initialized" (from `Init(x)` or an assignment to `x`).
//! A fact dies when a local it mentions is reassigned, and an `InBounds` fact also when memory
//! may change (any `Store` or `Call`), since an array can then be replaced by a shorter one.
//! Facts are stamped with the versions of the locals they mention, so killing costs nothing.
//!
//! Required: a `var` operand is initialized; an access through `*p` has `NonNull(p)`, and
//! `Init(*p)` too when it reads the cell and the module takes the address of some `var`; an
//! access reading a `var` base has it initialized; each index projection has its `InBounds`.

use std::collections::{HashMap, HashSet};

use super::{At, Report};
use crate::cfg::*;

/// The versions of the locals a fact mentions, and the memory epoch for memory-dependent facts.
#[derive(Clone, PartialEq, Eq)]
struct Stamp {
    locals: Vec<(LocalId, u32)>,
    epoch: Option<u32>,
}

struct Facts<'f> {
    func: &'f Function,
    init_through_pointers: bool,
    version: Vec<u32>,
    epoch: u32,
    /// `var` locals assigned or checked so far in this block.
    initialized: HashSet<LocalId>,
    non_null: HashMap<Operand, Stamp>,
    init_cells: HashMap<Operand, Stamp>,
    in_bounds: HashMap<(Place, Operand), Stamp>,
}

pub(super) fn check_function(func: &Function, init_through_pointers: bool, report: &mut Report) {
    // Versions only ever grow, so they stay valid across blocks; the facts are per block.
    let mut facts = Facts {
        func,
        init_through_pointers,
        version: vec![0; func.locals.len()],
        epoch: 0,
        initialized: HashSet::new(),
        non_null: HashMap::new(),
        init_cells: HashMap::new(),
        in_bounds: HashMap::new(),
    };
    for (b, block) in func.blocks.iter().enumerate() {
        let b = BlockId(b as u32);
        facts.forget_all();
        for (i, inst) in block.insts.iter().enumerate() {
            let mut problems = Vec::new();
            facts.require_inst(&inst.kind, &mut problems);
            for problem in problems {
                report.at(b, At::Inst(i), problem);
            }
            facts.learn(&inst.kind);
        }
        let mut problems = Vec::new();
        if let Some(op) = block.term.operand() {
            facts.require_operand(op, &mut problems);
        }
        for problem in problems {
            report.at(b, At::Terminator, problem);
        }
    }
}

impl Facts<'_> {
    fn forget_all(&mut self) {
        self.initialized.clear();
        self.non_null.clear();
        self.init_cells.clear();
        self.in_bounds.clear();
    }

    fn name(&self, l: LocalId) -> &str {
        &self.func.local(l).name
    }

    fn stamp(&self, locals: impl IntoIterator<Item = LocalId>, memory: bool) -> Stamp {
        Stamp {
            locals: locals
                .into_iter()
                .map(|l| (l, self.version[l.index()]))
                .collect(),
            epoch: memory.then_some(self.epoch),
        }
    }

    fn is_current(&self, stamp: Option<&Stamp>) -> bool {
        stamp.is_some_and(|s| {
            s.locals.iter().all(|&(l, v)| self.version[l.index()] == v)
                && match s.epoch {
                    None => true,
                    Some(e) => e == self.epoch,
                }
        })
    }

    fn require_operand(&self, op: Operand, problems: &mut Vec<String>) {
        if let Operand::Local(l) = op {
            if self.func.local(l).kind == LocalKind::Var && !self.initialized.contains(&l) {
                problems.push(format!(
                    "`{}` read without a preceding Init check or assignment in this block",
                    self.name(l)
                ));
            }
        }
    }

    /// `reads_base`: the access reads the base (whole or to update part of it);
    /// `checking_init`: the place is the subject of an `Init` check, whose own base needs none.
    fn require_place(
        &self,
        place: &Place,
        reads_base: bool,
        checking_init: bool,
        problems: &mut Vec<String>,
    ) {
        match place.base {
            PlaceBase::Deref(p) => {
                if !self.is_current(self.non_null.get(&p)) {
                    problems.push(format!(
                        "access through {} without a preceding NonNull check",
                        self.operand_name(p)
                    ));
                }
                let needs_init = self.init_through_pointers && reads_base && !checking_init;
                if needs_init && !self.is_current(self.init_cells.get(&p)) {
                    problems.push(format!(
                        "read through {} without a preceding Init check of the cell",
                        self.operand_name(p)
                    ));
                }
            }
            PlaceBase::Local(l) => {
                let is_var = self.func.local(l).kind == LocalKind::Var;
                if is_var && reads_base && !checking_init && !self.initialized.contains(&l) {
                    problems.push(format!(
                        "`{}` accessed without a preceding Init check or assignment in this block",
                        self.name(l)
                    ));
                }
            }
        }
        for (k, proj) in place.projections.iter().enumerate() {
            if let Projection::Index(index) = *proj {
                let key = (place.prefix(k), index);
                if !self.is_current(self.in_bounds.get(&key)) {
                    problems.push(format!(
                        "index {} without a preceding InBounds check",
                        self.operand_name(index)
                    ));
                }
            }
        }
    }

    fn operand_name(&self, op: Operand) -> String {
        match op {
            Operand::Const(n) => n.to_string(),
            Operand::Const64(n) => format!("{n}L"),
            Operand::Null => "null".to_string(),
            Operand::Local(l) => format!("`{}`", self.name(l)),
        }
    }

    fn require_inst(&self, kind: &InstKind, problems: &mut Vec<String>) {
        kind.for_each_operand(|op| self.require_operand(op, problems));
        match kind {
            InstKind::Assign {
                value: Rvalue::Read(place) | Rvalue::Len(place),
                ..
            } => self.require_place(place, true, false, problems),
            InstKind::Store { place, .. } => {
                self.require_place(place, !place.projections.is_empty(), false, problems)
            }
            InstKind::Check { check, .. } => match check {
                Check::InBounds { array, .. } => self.require_place(array, true, false, problems),
                Check::Init(place) => self.require_place(place, true, true, problems),
                Check::Assert(_)
                | Check::Condition { .. }
                | Check::NonZero(_)
                | Check::NonNull(_)
                | Check::Reach => {}
            },
            _ => {}
        }
    }

    fn learn(&mut self, kind: &InstKind) {
        if let InstKind::Check { check, .. } = kind {
            match check {
                Check::NonNull(p) => {
                    let stamp = self.stamp(p.local(), false);
                    self.non_null.insert(*p, stamp);
                }
                Check::Init(place) if place.projections.is_empty() => match place.base {
                    PlaceBase::Local(l) => {
                        self.initialized.insert(l);
                    }
                    PlaceBase::Deref(p) => {
                        let stamp = self.stamp(p.local(), false);
                        self.init_cells.insert(p, stamp);
                    }
                },
                Check::InBounds { array, index } => {
                    let mut locals = Vec::new();
                    locals.extend(array.base_local());
                    array.for_each_operand(|op| locals.extend(op.local()));
                    locals.extend(index.local());
                    let stamp = self.stamp(locals, true);
                    self.in_bounds.insert((array.clone(), *index), stamp);
                }
                Check::Init(_)
                | Check::Assert(_)
                | Check::Condition { .. }
                | Check::NonZero(_)
                | Check::Reach => {}
            }
        }
        if let Some(dst) = kind.defined_local() {
            self.version[dst.index()] += 1;
            if self.func.local(dst).kind == LocalKind::Var {
                self.initialized.insert(dst);
            }
        }
        if matches!(kind, InstKind::Store { .. } | InstKind::Call { .. }) {
            self.epoch += 1;
        }
    }
}
