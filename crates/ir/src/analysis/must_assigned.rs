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

use crate::analysis::reverse_postorder;
use crate::cfg::*;

/// Where each of a set of locals is assigned on every path from the entry, in one function:
/// one data flow for all of them (a bit per local), in reverse postorder. Only the sets at the
/// blocks' ends are kept (a block's start is the meet of its predecessors' ends).
pub struct MustAssigned<'f> {
    function: &'f Function,
    /// Bit index per local (`None`: not tracked).
    bit: Vec<Option<usize>>,
    /// How many locals are tracked.
    tracked: usize,
    predecessors: Vec<Vec<BlockId>>,
    /// Per block: the tracked locals assigned on every path to its end.
    at_end: Vec<Bits>,
}

/// A point of a block: one of its instructions or its terminator.
#[derive(Clone, Copy)]
pub enum Point<'f> {
    Inst(usize, &'f InstKind),
    Term(&'f Terminator),
}

/// A set of tracked locals, a bit each.
#[derive(Clone, PartialEq, Eq)]
pub struct Bits(Vec<u64>);

impl Bits {
    fn empty(len: usize) -> Bits {
        Bits(vec![0; len.div_ceil(64)])
    }

    fn full(len: usize) -> Bits {
        let mut bits = Bits(vec![u64::MAX; len.div_ceil(64)]);
        if len % 64 != 0 {
            if let Some(last) = bits.0.last_mut() {
                *last = (1u64 << (len % 64)) - 1;
            }
        }
        bits
    }

    fn insert(&mut self, i: usize) {
        self.0[i / 64] |= 1 << (i % 64);
    }

    fn contains(&self, i: usize) -> bool {
        self.0[i / 64] & (1 << (i % 64)) != 0
    }

    fn intersect(&mut self, other: &Bits) {
        for (a, b) in self.0.iter_mut().zip(&other.0) {
            *a &= b;
        }
    }
}

impl<'f> MustAssigned<'f> {
    /// Whether the analysis applies to `local`: a `var` local whose address is never taken.
    pub fn applies_to(function: &Function, local: LocalId) -> bool {
        let info = function.local(local);
        info.kind == LocalKind::Var && !info.address_taken
    }

    /// The fixed point for `locals` (each one [`Self::applies_to`] accepts).
    pub fn of(function: &'f Function, locals: &[LocalId]) -> Self {
        let mut bit = vec![None; function.locals.len()];
        for (i, local) in locals.iter().enumerate() {
            bit[local.index()] = Some(i);
        }
        // Start optimistic, as a must-analysis does, and lower to the fixed point.
        let mut analysis = MustAssigned {
            function,
            bit,
            tracked: locals.len(),
            predecessors: function.predecessors(),
            at_end: vec![Bits::full(locals.len()); function.blocks.len()],
        };
        let order = reverse_postorder(function);
        let mut changed = true;
        while changed {
            changed = false;
            for &b in &order {
                let mut end = analysis.at_start(b);
                for inst in &function.blocks[b.index()].insts {
                    analysis.assign(&mut end, &inst.kind);
                }
                if end != analysis.at_end[b.index()] {
                    analysis.at_end[b.index()] = end;
                    changed = true;
                }
            }
        }
        analysis
    }

    /// The tracked locals assigned on every path to the start of `block`: none at the entry
    /// and where no edge comes in.
    fn at_start(&self, block: BlockId) -> Bits {
        let preds = &self.predecessors[block.index()];
        if block == Function::ENTRY || preds.is_empty() {
            return Bits::empty(self.tracked);
        }
        let mut start = self.at_end[preds[0].index()].clone();
        for p in &preds[1..] {
            start.intersect(&self.at_end[p.index()]);
        }
        start
    }

    /// `set` after `kind` runs.
    fn assign(&self, set: &mut Bits, kind: &InstKind) {
        if let Some(i) = kind.defined_local().and_then(|l| self.bit[l.index()]) {
            set.insert(i);
        }
    }

    /// Calls `visit` at every point of every block with a test of whether a tracked local is
    /// assigned on every path to it (before the instruction runs).
    pub fn for_each_point(
        &self,
        mut visit: impl FnMut(BlockId, Point<'f>, &dyn Fn(LocalId) -> bool),
    ) {
        let function = self.function;
        for (b, block) in function.blocks.iter().enumerate() {
            let id = BlockId(b as u32);
            let mut assigned = self.at_start(id);
            for (i, inst) in block.insts.iter().enumerate() {
                let test = |l: LocalId| self.bit[l.index()].is_some_and(|i| assigned.contains(i));
                visit(id, Point::Inst(i, &inst.kind), &test);
                self.assign(&mut assigned, &inst.kind);
            }
            let test = |l: LocalId| self.bit[l.index()].is_some_and(|i| assigned.contains(i));
            visit(id, Point::Term(&block.term), &test);
        }
    }

    /// Per tracked local (in the order given to [`Self::of`]): whether every read of it comes
    /// after an assignment on every path.
    pub fn before_every_read(&self, locals: &[LocalId]) -> Vec<bool> {
        let mut all = vec![true; locals.len()];
        self.for_each_point(|_, point, assigned| {
            for local in read_locals(point) {
                if let Some(i) = self.bit[local.index()] {
                    if !assigned(local) {
                        all[i] = false;
                    }
                }
            }
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
    MustAssigned::of(function, &checked).for_each_point(|b, point, assigned| {
        if let Point::Inst(i, kind) = point {
            if init_checked_local(kind).is_some_and(assigned) {
                holds[b.index()][i] = true;
            }
        }
    });
    holds
}

/// The locals whose values `point` reads (an `Init` check of a local is not a read of it).
fn read_locals(point: Point<'_>) -> Vec<LocalId> {
    let kind = match point {
        Point::Inst(_, kind) => kind,
        Point::Term(Terminator::Branch { cond: op, .. } | Terminator::Return(op)) => {
            return op.local().into_iter().collect()
        }
        Point::Term(Terminator::Goto(_)) => return Vec::new(),
    };
    if init_checked_local(kind).is_some() {
        return Vec::new();
    }
    let mut read = Vec::new();
    kind.for_each_operand(|op| read.extend(op.local()));
    let place = match kind {
        InstKind::Assign {
            value: Rvalue::Read(place) | Rvalue::Len(place),
            ..
        } => Some(place),
        InstKind::Store { place, .. } => Some(place),
        InstKind::Check {
            check: Check::InBounds { array: place, .. } | Check::Init(place),
            ..
        } => Some(place),
        _ => None,
    };
    read.extend(place.and_then(Place::base_local));
    read
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 70 locals (two words of bits): every one assigned before its read except `v65`, which a
    /// branch may skip, and `v3`, read before its assignment.
    #[test]
    fn each_local_has_its_own_bit_across_words() {
        let names: Vec<String> = (0..70).map(|i| format!("v{i}")).collect();
        let mut body = format!(
            "main() {{ var c, {}; c = input; c = s(v3); ",
            names.join(", ")
        );
        for (i, name) in names.iter().enumerate() {
            if i == 65 {
                body.push_str(&format!("if (c) {{ {name} = 1; }} "));
            } else {
                body.push_str(&format!("{name} = {i}; "));
            }
        }
        body.push_str(&format!(
            "return s({}); }} s(x) {{ return x; }}",
            names.join(" + ")
        ));
        let front = symex_syntax::analyze(&body).expect("valid");
        let module = crate::lower(&front.program);
        let infallible = module.infallible_properties();
        let failing: Vec<&str> = module
            .properties
            .iter()
            .zip(&infallible)
            .filter(|(p, &holds)| p.kind == PropertyKind::Uninit && !holds)
            .map(|(p, _)| &body[p.span.start as usize..p.span.end as usize])
            .collect();
        assert_eq!(failing, ["v3", "v65"]);
    }
}
