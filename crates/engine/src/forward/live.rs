//! Strong liveness of a function's locals (faint-variable analysis): a local is *strongly live*
//! at a point if its current value may reach something observable there or later: a branch
//! condition, a check's operand, memory, a call, `output`, `assume`, `return`, or an assignment
//! to a local that is itself strongly live. A value assigned to a local that is not strongly
//! live is never observed, so a summary may replace it by any number (seed 002 §4.4.1 calls
//! such assignments "same effect after any number of iterations" when they read only
//! invariants; here the value may be anything), and state matching may ignore it.
//!
//! `Init` checks of whole locals are not uses: they ask whether the local was assigned, not
//! what it holds, and a summary that replaces a value keeps the local assigned (`apply`
//! requires it to hold a number before; `matching` compares whether dead locals are
//! assigned). Locals whose address is taken live in memory and are always live. Nothing here
//! decides what a summary or a match does.
//!
//! [`Liveness::reads_of`] is the plain analysis beside it: a local is live where anything may
//! still read it (an assignment to a dead local and a whole-local `Init` check too), so a
//! dead local's value may be forgotten altogether (`Locals::forget`).

use std::ops::Range;

use symex_ir::cfg::{Block, BlockId, Rvalue, Terminator};
use symex_ir::cfg::{Check, Function, InstKind, LocalId, Operand, Place, PlaceBase, Projection};

/// A set of locals, one bit per local.
#[derive(Clone, PartialEq, Eq)]
pub struct Bits(Vec<u64>);

impl Bits {
    fn new(locals: usize) -> Bits {
        Bits(vec![0; locals.div_ceil(64)])
    }
    pub fn contains(&self, l: LocalId) -> bool {
        self.0[l.index() / 64] >> (l.index() % 64) & 1 == 1
    }
    /// Whether any local numbered in `range` is in the set, a word at a time.
    pub fn any_in(&self, range: Range<usize>) -> bool {
        let mut at = range.start;
        while at < range.end {
            let (word, offset) = (at / 64, at % 64);
            let width = (64 - offset).min(range.end - at);
            let mask = if width == 64 {
                u64::MAX
            } else {
                (1 << width) - 1
            };
            if self.0.get(word).is_some_and(|w| (w >> offset) & mask != 0) {
                return true;
            }
            at += width;
        }
        false
    }
    fn insert(&mut self, l: LocalId) {
        self.0[l.index() / 64] |= 1 << (l.index() % 64);
    }
    fn remove(&mut self, l: LocalId) {
        self.0[l.index() / 64] &= !(1 << (l.index() % 64));
    }
    fn union_with(&mut self, other: &Bits) {
        for (a, b) in self.0.iter_mut().zip(&other.0) {
            *a |= b;
        }
    }
}

/// The live locals (strongly, or plainly for [`Liveness::reads_of`]) at the start of every
/// block of one function.
pub struct Liveness {
    live_in: Vec<Bits>,
    /// The cell-backed locals.
    always: Bits,
    /// Locals some whole-local `Init` check asks about: only theirs is it observable whether
    /// they are assigned.
    init_checked: Bits,
    uses: Uses,
}

/// What makes a local live.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Uses {
    /// Its value may reach something observable (strong liveness).
    Observed,
    /// Something may read it.
    Reads,
}

impl Liveness {
    /// The strong liveness of `function`; `cell_backed` says which locals live in memory.
    pub fn of(function: &Function, cell_backed: &dyn Fn(LocalId) -> bool) -> Liveness {
        Liveness::compute(function, cell_backed, Uses::Observed)
    }

    /// The plain liveness of `function`: where a local may still be read at all.
    pub fn reads_of(function: &Function, cell_backed: &dyn Fn(LocalId) -> bool) -> Liveness {
        Liveness::compute(function, cell_backed, Uses::Reads)
    }

    fn compute(function: &Function, cell_backed: &dyn Fn(LocalId) -> bool, uses: Uses) -> Liveness {
        let locals = function.locals.len();
        let blocks = function.blocks.len();
        let mut always = Bits::new(locals);
        for l in (0..locals as u32).map(LocalId) {
            if cell_backed(l) {
                always.insert(l);
            }
        }
        let mut init_checked = Bits::new(locals);
        for inst in function.blocks.iter().flat_map(|b| &b.insts) {
            if let InstKind::Check {
                check: Check::Init(place),
                ..
            } = &inst.kind
            {
                if let (PlaceBase::Local(l), true) = (place.base, place.projections.is_empty()) {
                    init_checked.insert(l);
                }
            }
        }
        let mut live_in = vec![always.clone(); blocks];
        // Blocks are numbered in reverse postorder: going backwards converges in few rounds.
        let mut changed = true;
        while changed {
            changed = false;
            for b in (0..blocks).rev() {
                let block = function.block(BlockId(b as u32));
                let mut live = live_out(block, &live_in, &always);
                for inst in block.insts.iter().rev() {
                    transfer(&inst.kind, &mut live, &always, uses);
                }
                if live != live_in[b] {
                    live_in[b] = live;
                    changed = true;
                }
            }
        }
        Liveness {
            live_in,
            always,
            init_checked,
            uses,
        }
    }

    /// Whether `local` is live (as the analysis counts it) at the start of `block`.
    pub fn live_at(&self, block: BlockId, local: LocalId) -> bool {
        self.live_in[block.index()].contains(local)
    }

    /// The live locals at the start of `block`.
    pub fn live_in(&self, block: BlockId) -> &Bits {
        &self.live_in[block.index()]
    }

    /// The locals some whole-local `Init` check of the function asks about.
    pub fn init_checked(&self) -> &Bits {
        &self.init_checked
    }

    /// Whether some whole-local `Init` check of the function asks whether `local` is assigned.
    pub fn is_init_checked(&self, local: LocalId) -> bool {
        self.init_checked.contains(local)
    }

    /// The live locals (as the analysis counts them) before instruction `inst` of `block` of `function` (the
    /// function this analysis is of); `inst` past the last instruction means before the
    /// terminator.
    pub fn live_before(&self, function: &Function, block: BlockId, inst: usize) -> Bits {
        if inst == 0 {
            return self.live_in[block.index()].clone();
        }
        let body = function.block(block);
        let mut live = live_out(body, &self.live_in, &self.always);
        for inst in body.insts.iter().skip(inst).rev() {
            transfer(&inst.kind, &mut live, &self.always, self.uses);
        }
        live
    }
}

/// The live set before `block`'s terminator, given the live sets at block starts.
fn live_out(block: &Block, live_in: &[Bits], always: &Bits) -> Bits {
    let mut live = always.clone();
    for succ in block.term.successors() {
        live.union_with(&live_in[succ.index()]);
    }
    match block.term {
        Terminator::Branch { cond, .. } => use_operand(&mut live, cond),
        Terminator::Return(op) => use_operand(&mut live, op),
        Terminator::Goto(_) => {}
    }
    live
}

/// The live set before `inst`, given the live set after it.
fn transfer(inst: &InstKind, live: &mut Bits, always: &Bits, uses: Uses) {
    match inst {
        InstKind::Assign { dst, value } => {
            let observed = live.contains(*dst) || uses == Uses::Reads;
            if !always.contains(*dst) {
                live.remove(*dst);
            }
            if observed {
                use_rvalue(live, value);
            }
        }
        InstKind::Store { place, value } => {
            use_place(live, place);
            use_operand(live, *value);
        }
        InstKind::Call { dst, args, .. } => {
            if !always.contains(*dst) {
                live.remove(*dst);
            }
            for &a in args {
                use_operand(live, a);
            }
        }
        InstKind::Input { dst } => {
            if !always.contains(*dst) {
                live.remove(*dst);
            }
        }
        InstKind::Output(op) | InstKind::Assume(op) => use_operand(live, *op),
        InstKind::Check { check, .. } => match check {
            Check::Assert(op)
            | Check::Condition { holds: op, .. }
            | Check::NonZero(op)
            | Check::NonNull(op) => use_operand(live, *op),
            Check::InBounds { array, index } => {
                use_place(live, array);
                use_operand(live, *index);
            }
            Check::Init(place) => {
                let whole_local =
                    matches!(place.base, PlaceBase::Local(_)) && place.projections.is_empty();
                if !whole_local || uses == Uses::Reads {
                    use_place(live, place);
                }
            }
            Check::Reach => {}
        },
    }
}

fn use_operand(live: &mut Bits, op: Operand) {
    if let Operand::Local(l) = op {
        live.insert(l);
    }
}

fn use_place(live: &mut Bits, place: &Place) {
    match place.base {
        PlaceBase::Local(l) => live.insert(l),
        PlaceBase::Deref(op) => use_operand(live, op),
    }
    for p in &place.projections {
        if let Projection::Index(op) = p {
            use_operand(live, *op);
        }
    }
}

fn use_rvalue(live: &mut Bits, value: &Rvalue) {
    match value {
        Rvalue::Use(a) | Rvalue::Unary(_, a) | Rvalue::Alloc(a) => use_operand(live, *a),
        Rvalue::Binary(_, a, b) => {
            use_operand(live, *a);
            use_operand(live, *b);
        }
        Rvalue::AddrOf(l) => live.insert(*l),
        Rvalue::LiveObjects => {}
        Rvalue::Record(fields) => fields.iter().for_each(|(_, a)| use_operand(live, *a)),
        Rvalue::Array(items) | Rvalue::Unreached(items) => {
            items.iter().for_each(|a| use_operand(live, *a))
        }
        Rvalue::Read(place) | Rvalue::Len(place) => use_place(live, place),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::forward::program::ProgramInfo;

    #[test]
    fn any_in_looks_at_the_range_only() {
        let mut bits = Bits::new(200);
        bits.insert(LocalId(70));
        bits.insert(LocalId(199));
        assert!(bits.any_in(64..80));
        assert!(bits.any_in(70..71));
        assert!(!bits.any_in(71..199));
        assert!(!bits.any_in(0..70));
        assert!(bits.any_in(0..200));
        assert!(bits.any_in(190..200));
        assert!(!bits.any_in(128..192));
        assert!(!bits.any_in(5..5));
    }

    /// Whether each named local is strongly live where the first loop of `main` exits.
    fn live_at_exit(source: &str, names: &[&str]) -> Vec<bool> {
        let front = symex_syntax::analyze(source).expect("valid");
        let module = symex_ir::lower(&front.program);
        let info = ProgramInfo::new(&module);
        let function = &module.functions[0];
        let live = Liveness::of(function, &|l| info.functions[0].is_cell_backed(l));
        let exit = info.functions[0].loops().loops[0].exits[0].1;
        names
            .iter()
            .map(|n| {
                let at = function.locals.iter().position(|l| l.name == *n);
                live.live_at(exit, LocalId(at.expect("local") as u32))
            })
            .collect()
    }

    /// Inside a block: a local is live before an instruction when a later one reads it
    /// before anything overwrites it (what state matching compares of a caller's frame).
    #[test]
    fn liveness_before_each_instruction_of_a_block() {
        let source = "main() { var a, b; a = input; b = a + 1; a = 5; return a + b; }";
        let front = symex_syntax::analyze(source).expect("valid");
        let module = symex_ir::lower(&front.program);
        let function = &module.functions[0];
        let live = Liveness::of(function, &|_| false);
        let local = |name: &str| {
            let at = function.locals.iter().position(|l| l.name == name);
            LocalId(at.expect("local") as u32)
        };
        let (a, b) = (local("a"), local("b"));
        let block = BlockId(0);
        let insts = &function.block(block).insts;
        let position = |wanted: &dyn Fn(&InstKind) -> bool| {
            insts
                .iter()
                .position(|i| wanted(&i.kind))
                .expect("instruction")
        };
        let read = position(&|k| matches!(k, InstKind::Input { dst } if *dst == a));
        let sum = position(&|k| matches!(k, InstKind::Assign { dst, .. } if *dst == b));
        let five = position(
            &|k| matches!(k, InstKind::Assign { dst, value: Rvalue::Use(Operand::Const(_)) } if *dst == a),
        );
        let both = |at: usize| {
            let before = live.live_before(function, block, at);
            (before.contains(a), before.contains(b))
        };
        assert_eq!(both(read), (false, false));
        assert_eq!(both(sum), (true, false));
        assert_eq!(both(five), (false, true));
        assert_eq!(both(five + 1), (true, true));
    }

    #[test]
    fn values_only_feeding_dead_assignments_are_not_live() {
        // y feeds only itself and z, which nothing reads; x feeds the return value.
        let source = "main() { var i, n, x, y, z; n = input; x = 0; y = 1; z = 0; i = 0; \
                      while (i < n) { y = y * 3 + x; z = y; x = x + 1; i = i + 1; } \
                      return x; }";
        assert_eq!(
            live_at_exit(source, &["x", "y", "z", "i"]),
            vec![true, false, false, false]
        );
    }

    /// The plain analysis counts every read: `y` at the loop's header is read by the body
    /// (which strong liveness ignores, since nothing observes it; `z` is overwritten first),
    /// and `a`, read into a dead `b` after an `Init` check of it, is live there.
    #[test]
    fn reads_of_counts_every_read() {
        let source = "main() { var i, n, x, y, z; n = input; x = 0; y = 1; z = 0; i = 0; \
                      while (i < n) { y = y * 3 + x; z = y; x = x + 1; i = i + 1; } \
                      return x; }";
        let front = symex_syntax::analyze(source).expect("valid");
        let module = symex_ir::lower(&front.program);
        let info = ProgramInfo::new(&module);
        let function = &module.functions[0];
        let header = info.functions[0].loops().loops[0].header;
        let local = |n: &str| {
            let at = function.locals.iter().position(|l| l.name == n);
            LocalId(at.expect("local") as u32)
        };
        let strong = Liveness::of(function, &|_| false);
        let reads = Liveness::reads_of(function, &|_| false);
        let at_header = |live: &Liveness| ["x", "y", "z"].map(|n| live.live_at(header, local(n)));
        assert_eq!(at_header(&strong), [true, false, false]);
        // `z` is overwritten before the body reads it.
        assert_eq!(at_header(&reads), [true, true, false]);
        // `b = a` reads `a` after the `Init` check of it; `b` is never read.
        let source = "main() { var a, b; if (input > 0) { a = 1; } b = a; return 0; }";
        let front = symex_syntax::analyze(source).expect("valid");
        let module = symex_ir::lower(&front.program);
        let function = &module.functions[0];
        let a = LocalId(
            function
                .locals
                .iter()
                .position(|l| l.name == "a")
                .expect("a") as u32,
        );
        let is_check = |i: &symex_ir::cfg::Inst| matches!(&i.kind, InstKind::Check { check: Check::Init(p), .. } if p.base == PlaceBase::Local(a));
        let checked = (0..function.blocks.len() as u32)
            .map(BlockId)
            .find(|&b| function.block(b).insts.iter().any(is_check))
            .expect("an Init check of `a`");
        assert!(!Liveness::of(function, &|_| false).live_at(checked, a));
        assert!(Liveness::reads_of(function, &|_| false).live_at(checked, a));
    }

    #[test]
    fn conditions_checks_and_outer_iterations_keep_values_live() {
        // After the inner loop, y is divided by (a check) and read by the outer guard.
        let source = "main() { var i, j, n, y, r; n = input; y = 1; i = 0; r = 0; \
                      while (i < n + y) { j = 0; while (j < 3) { y = y * 2; j = j + 1; } \
                      r = 10 / y; i = i + 1; } return r; }";
        let front = symex_syntax::analyze(source).expect("valid");
        let module = symex_ir::lower(&front.program);
        let info = ProgramInfo::new(&module);
        let function = &module.functions[0];
        let live = Liveness::of(function, &|_| false);
        let forest = info.functions[0].loops();
        let inner = forest
            .loops
            .iter()
            .find(|l| l.depth == 2)
            .expect("inner loop");
        let y = function
            .locals
            .iter()
            .position(|l| l.name == "y")
            .expect("y");
        assert!(live.live_at(inner.exits[0].1, LocalId(y as u32)));
    }
}
