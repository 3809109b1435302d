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

/// The strongly live locals at the start of every block of one function.
pub struct Liveness {
    live_in: Vec<Bits>,
    /// The cell-backed locals.
    always: Bits,
    /// Locals some whole-local `Init` check asks about: only theirs is it observable whether
    /// they are assigned.
    init_checked: Bits,
}

impl Liveness {
    /// The analysis of `function`; `cell_backed` says which locals live in memory.
    pub fn of(function: &Function, cell_backed: &dyn Fn(LocalId) -> bool) -> Liveness {
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
                    transfer(&inst.kind, &mut live, &always);
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
        }
    }

    /// Whether `local` is strongly live at the start of `block`.
    pub fn live_at(&self, block: BlockId, local: LocalId) -> bool {
        self.live_in[block.index()].contains(local)
    }

    /// Whether some whole-local `Init` check of the function asks whether `local` is assigned.
    pub fn is_init_checked(&self, local: LocalId) -> bool {
        self.init_checked.contains(local)
    }

    /// The strongly live locals before instruction `inst` of `block` of `function` (the
    /// function this analysis is of); `inst` past the last instruction means before the
    /// terminator.
    pub fn live_before(&self, function: &Function, block: BlockId, inst: usize) -> Bits {
        if inst == 0 {
            return self.live_in[block.index()].clone();
        }
        let body = function.block(block);
        let mut live = live_out(body, &self.live_in, &self.always);
        for inst in body.insts.iter().skip(inst).rev() {
            transfer(&inst.kind, &mut live, &self.always);
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
fn transfer(inst: &InstKind, live: &mut Bits, always: &Bits) {
    match inst {
        InstKind::Assign { dst, value } => {
            let observed = live.contains(*dst);
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
                if !(matches!(place.base, PlaceBase::Local(_)) && place.projections.is_empty()) {
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
        Rvalue::Record(fields) => fields.iter().for_each(|(_, a)| use_operand(live, *a)),
        Rvalue::Array(items) => items.iter().for_each(|a| use_operand(live, *a)),
        Rvalue::Read(place) | Rvalue::Len(place) => use_place(live, place),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::forward::program::ProgramInfo;

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
