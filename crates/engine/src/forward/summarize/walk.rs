//! The paths of a loop body: every way from the loop header back to it, with the branch
//! conditions taken, the checks met and the values every local holds at the end, all over the
//! values at the start of the iteration (seed 002 §4.4.2: the vertices of the path dependency
//! automaton). A sequence of paths composes into one walk (a period of a cycle).
//!
//! Only bodies the closed forms can describe are enumerated: numeric assignments, `output`,
//! `assert`, division checks and `Init` checks of plain locals, branches, memory accesses (below),
//! and inner loops that have summaries (seed 002 §4.4.3). Calls, `input`, writes to
//! address-taken locals, construction of arrays, records and pointers, `assume`, `return` and
//! inner loops without summaries make the loop unsupported, with the reason, except `assume 0`
//! (C's `abort()`, as in `reach_error(); abort();`): a path that meets it ends the run there,
//! like a path that leaves the loop, and is no body path (`BodyPaths::aborts`). Nothing here
//! asks the solver.
//!
//! Memory: the locals an access names (the array or pointer, the indices) must be assigned
//! nowhere in the loop (`fixed`). Each distinct place read becomes a pseudo-local whose value
//! `apply` reads from the state at the header; each distinct place written (constant positions
//! only) a pseudo-local holding the last value written, which `apply` stores. No read may see a
//! write of the loop, so reads are loop-invariant. The checks guarding accesses (null, bounds,
//! initialization of memory) are invariant too, and `apply` requires that none can fail at the
//! header.
//!
//! An inner loop on a path becomes a *segment*: its effect is a set of fresh pseudo-locals (one
//! per local it writes, numbered after the function's own locals), which stand for its results
//! and which nothing in the outer body writes. A local the inner loop only accumulates into
//! (`s = s + d`, with `d` and the inner loop's course independent of `s`) becomes
//! `s + Δ`, Δ a pseudo-local; every other local it writes becomes its pseudo-local. Which values
//! the pseudo-locals take is the business of `apply`, which runs the inner summary from the
//! segment's entry values.

use std::rc::Rc;

use symex_ir::analysis::{Loop, LoopId};
use symex_ir::cfg::{
    BinOp, BlockId, Check, Function, InstKind, LocalId, Operand, Place, PlaceBase, Projection,
    PropId, Rvalue, Terminator, UnOp,
};

use crate::forward::summarize::expr::Expr;

/// Why a loop computing with 64-bit numbers is not summarized: closed forms are 32-bit.
const SIXTY_FOUR_BITS: &str = "it computes with 64-bit numbers";

/// More paths than this through one body: the loop is left to plain execution.
pub const MAX_PATHS: usize = 16;

/// Branch conditions (as numbers, non-zero is true) and the direction taken, in order.
pub type Conditions = Vec<(Rc<Expr>, bool)>;

/// One path through the body (or several in a row), from the header back to it.
#[derive(Clone, Debug)]
pub struct Walk {
    /// Branch conditions and the direction taken, in order.
    pub conds: Conditions,
    /// `assert` and division checks: the property and the number that must not be zero.
    pub checks: Vec<(PropId, Rc<Expr>)>,
    /// Each local's value at the end; `None` if the walk does not write it.
    pub env: Vec<Option<Rc<Expr>>>,
    /// The blocks in order, with the direction taken by the branch ending each (for coverage).
    pub steps: Vec<(BlockId, Option<bool>)>,
    /// The body paths this walk is made of (indices into the loop's paths).
    pub paths: Vec<usize>,
    /// Locals an `Init` check reads before the walk writes them: their start values must be
    /// initialized.
    pub inits: Vec<LocalId>,
    /// The inner loops run on the way, in order.
    pub segments: Vec<Segment>,
}

/// The memory a loop body reads and writes: each distinct place read or written, with its
/// pseudo-local, the checks guarding the accesses, and the locals the addresses name (which
/// nothing in the loop may assign).
#[derive(Clone, Debug, Default)]
pub struct MemoryReads {
    pub places: Vec<(Place, LocalId)>,
    /// Each distinct place written, with the pseudo-local holding the value written last.
    pub writes: Vec<(Place, LocalId)>,
    pub checks: Vec<Check>,
    pub fixed: Vec<LocalId>,
}

impl MemoryReads {
    fn fix(&mut self, local: LocalId) {
        if !self.fixed.contains(&local) {
            self.fixed.push(local);
        }
    }

    /// Notes the locals `place` names as fixed.
    fn fix_place(&mut self, place: &Place) {
        match place.base {
            PlaceBase::Local(l) => self.fix(l),
            PlaceBase::Deref(Operand::Local(l)) => self.fix(l),
            PlaceBase::Deref(_) => {}
        }
        for p in &place.projections {
            if let Projection::Index(Operand::Local(l)) = p {
                self.fix(*l);
            }
        }
    }

    pub fn check(&mut self, check: &Check) {
        if !self.checks.contains(check) {
            self.checks.push(check.clone());
        }
    }
}

/// What an outer loop's paths need to know of a loop directly inside it.
#[derive(Clone, Debug)]
pub struct Inner {
    pub id: LoopId,
    pub header: BlockId,
    /// Every block of the inner loop.
    pub blocks: Vec<BlockId>,
    /// The only block the inner loop leaves to (from its header).
    pub exit: BlockId,
    /// Locals whose values at the inner header decide the inner loop's course and the values
    /// it leaves in `written` (everything it reads except `accumulated`).
    pub control: Vec<LocalId>,
    /// Locals it writes: each leaves with a value decided by `control` (a local it never reads
    /// has none after a run that does not write it, see `apply`).
    pub written: Vec<LocalId>,
    /// Locals it only adds to, by amounts decided by `control`.
    pub accumulated: Vec<LocalId>,
    /// Locals its memory accesses name: the outer loop must not assign them either.
    pub fixed: Vec<LocalId>,
    /// The places it and the loops inside it read: the outer loop must not write them.
    pub reads: Vec<Place>,
}

/// One run of an inner loop on a path: the pseudo-locals standing for its results.
#[derive(Clone, Debug)]
pub struct Slot {
    /// Index into the outer loop's inner loops.
    pub inner: usize,
    /// The values of the inner loop's `control` locals at its header, over the outer
    /// iteration's start values.
    pub control: Vec<Rc<Expr>>,
    /// The values of its `accumulated` locals there.
    pub accumulated: Vec<Rc<Expr>>,
    /// Per `written` local of the inner loop, its pseudo-local (the value it leaves with).
    pub results: Vec<LocalId>,
    /// Per `accumulated` local, its pseudo-local (the amount added).
    pub deltas: Vec<LocalId>,
}

/// A slot on a walk, with its control entries as this walk sees them (composition substitutes
/// them like conditions).
#[derive(Clone, Debug)]
pub struct Segment {
    pub slot: usize,
    pub control: Vec<Rc<Expr>>,
}

impl Walk {
    fn empty(locals: usize) -> Walk {
        Walk {
            conds: Vec::new(),
            checks: Vec::new(),
            env: vec![None; locals],
            steps: Vec::new(),
            paths: Vec::new(),
            inits: Vec::new(),
            segments: Vec::new(),
        }
    }

    /// The current value of `local` on this walk.
    pub fn value(&self, local: LocalId) -> Rc<Expr> {
        self.env
            .get(local.index())
            .cloned()
            .flatten()
            .unwrap_or_else(|| Expr::start(local))
    }

    /// This walk followed by `next`: `next`'s conditions, checks and values read this walk's
    /// results.
    pub fn then(&self, next: &Walk) -> Walk {
        let subst = |l: LocalId| self.env.get(l.index()).cloned().flatten();
        let mut walk = self.clone();
        walk.conds
            .extend(next.conds.iter().map(|(c, d)| (c.substitute(&subst), *d)));
        walk.segments.extend(next.segments.iter().map(|s| Segment {
            slot: s.slot,
            control: s.control.iter().map(|e| e.substitute(&subst)).collect(),
        }));
        walk.checks
            .extend(next.checks.iter().map(|(p, e)| (*p, e.substitute(&subst))));
        for (slot, value) in walk.env.iter_mut().zip(&next.env) {
            if let Some(v) = value {
                *slot = Some(v.substitute(&subst));
            }
        }
        walk.steps.extend(next.steps.iter().copied());
        walk.paths.extend(next.paths.iter().copied());
        for &l in &next.inits {
            if self.env[l.index()].is_none() && !walk.inits.contains(&l) {
                walk.inits.push(l);
            }
        }
        walk
    }

    /// The locals whose start values the walk reads (they must hold numbers when it runs);
    /// the entries of the slots on it are in `slots`.
    pub fn reads(&self, slots: &[Slot]) -> Vec<LocalId> {
        let mut out = self.value_reads(slots);
        for &l in &self.inits {
            if !out.contains(&l) {
                out.push(l);
            }
        }
        out.sort();
        out
    }

    /// The locals whose start values the walk computes with ([`Walk::reads`] without those
    /// only checked for initialization).
    pub fn value_reads(&self, slots: &[Slot]) -> Vec<LocalId> {
        let mut out = Vec::new();
        for segment in &self.segments {
            let slot = &slots[segment.slot];
            for e in segment.control.iter().chain(&slot.accumulated) {
                e.starts(&mut out);
            }
        }
        for (c, _) in &self.conds {
            c.starts(&mut out);
        }
        for (_, e) in &self.checks {
            e.starts(&mut out);
        }
        for e in self.env.iter().flatten() {
            e.starts(&mut out);
        }
        out.sort();
        out
    }
}

/// More inner-loop runs than this on the paths of one body: left to plain execution (each
/// multiplies the cases a summary is applied in).
pub const MAX_SLOTS: usize = 4;

/// The paths of a loop body, the inner-loop runs on them, and the number of locals and
/// pseudo-locals the walks use.
pub struct BodyPaths {
    pub walks: Vec<Walk>,
    /// Some path through the body ends the run (`assume 0`) instead of coming back: such runs
    /// leave the summaries' walks like exits do, so plain execution follows them.
    pub aborts: bool,
    /// The branch conditions of each path that leaves the loop (over the values at the
    /// header): with `aborts`, they tell a run that leaves from one that ends inside.
    pub exits: Vec<Conditions>,
    pub slots: Vec<Slot>,
    pub memory: MemoryReads,
    pub width: usize,
}

/// Every path of the loop's body from its header back to it, or why there is none to give.
/// `inners` describes the loops directly inside it (all of which must have summaries).
pub fn body_paths(
    function: &Function,
    lp: &Loop,
    inners: &[Inner],
    cell_backed: &dyn Fn(LocalId) -> bool,
) -> Result<BodyPaths, String> {
    let locals = function.locals.len();
    let mut slots: Vec<Slot> = Vec::new();
    let mut memory = MemoryReads::default();
    let mut width = locals;
    let mut done = Vec::new();
    let mut aborts = false;
    let mut exits = Vec::new();
    // (block, walk, the only block to leave to when `block` is an inner header just run)
    let mut work = vec![(lp.header, Walk::empty(locals), None)];
    'blocks: while let Some((block, mut walk, leaving)) = work.pop() {
        let body = function.block(block);
        for inst in &body.insts {
            if instruction(&inst.kind, &mut walk, &mut memory, &mut width, cell_backed)?
                == Flow::Ends
            {
                aborts = true;
                continue 'blocks;
            }
        }
        let mut targets: Vec<(BlockId, Walk, Option<bool>)> = Vec::new();
        match body.term {
            Terminator::Goto(target) => targets.push((target, walk, None)),
            Terminator::Branch {
                cond,
                then_block,
                else_block,
            } => {
                let cond = operand(cond, &walk, cell_backed)?;
                if let Expr::Const(n) = *cond {
                    let target = if n != 0 { then_block } else { else_block };
                    targets.push((target, walk, Some(n != 0)));
                } else {
                    let mut other = walk.clone();
                    other.conds.push((cond.clone(), false));
                    walk.conds.push((cond, true));
                    targets.push((else_block, other, Some(false)));
                    targets.push((then_block, walk, Some(true)));
                }
            }
            Terminator::Return(_) => return Err("it returns from inside".into()),
        }
        for (target, mut walk, direction) in targets {
            if leaving.is_some_and(|exit| exit != target) {
                // The inner loop's run has ended: only its exit is taken here.
                continue;
            }
            walk.steps.push((block, direction));
            if walk.steps.len() > lp.blocks.len() {
                // A cycle inside the body that is not a described inner loop.
                return Err("it contains an inner loop without a summary".into());
            }
            if target == lp.header {
                done.push(walk);
            } else if let Some(at) = inners.iter().position(|i| i.header == target) {
                if slots.len() == MAX_SLOTS {
                    return Err(format!(
                        "its paths run inner loops more than {MAX_SLOTS} times"
                    ));
                }
                let slot = enter_inner(&mut walk, at, &inners[at], slots.len(), &mut width);
                slots.push(slot);
                work.push((target, walk, Some(inners[at].exit)));
            } else if inners.iter().any(|i| i.blocks.contains(&target)) {
                return Err("it enters an inner loop elsewhere than at its header".into());
            } else if lp.contains(target) {
                work.push((target, walk, None));
            } else {
                // Leaving the loop: an exit path, which plain execution follows.
                exits.push(walk.conds);
            }
        }
        if done.len() + work.len() > MAX_PATHS {
            return Err(format!("its body has more than {MAX_PATHS} paths"));
        }
    }
    for (i, walk) in done.iter_mut().enumerate() {
        walk.paths.push(i);
        walk.env.resize(width, None);
    }
    for inner in inners {
        memory.fixed.extend(inner.fixed.iter().copied());
    }
    memory.fixed.sort();
    memory.fixed.dedup();
    // Reads stand for the values at the header: nothing the loop writes may reach them, and
    // two pointers written through may alias (the order of the writes would matter). Checks
    // need no such care: writes only initialize, and never change a length or a pointer.
    let inner_reads = inners.iter().flat_map(|i| i.reads.iter());
    for read in memory.places.iter().map(|(p, _)| p).chain(inner_reads) {
        if memory.writes.iter().any(|(w, _)| overlaps(read, w)) {
            return Err("it reads memory it writes".into());
        }
    }
    let through_pointers = memory
        .writes
        .iter()
        .filter(|(w, _)| matches!(w.base, PlaceBase::Deref(_)))
        .count();
    if through_pointers > 1 {
        return Err("it writes through more than one pointer".into());
    }
    // The addresses accessed must not change: no write to a fixed local anywhere in the loop.
    // A local whose address is taken can change through any pointer write (and an array held
    // in one is memory itself), so it is never fixed: this is the one address-taken test for
    // memory accesses and their guards.
    if memory.fixed.iter().any(|&l| cell_backed(l)) {
        return Err("it accesses memory through a local whose address is taken".into());
    }
    for &block in &lp.blocks {
        for inst in &function.block(block).insts {
            let written = match inst.kind {
                InstKind::Assign { dst, .. }
                | InstKind::Call { dst, .. }
                | InstKind::Input { dst } => Some(dst),
                _ => None,
            };
            if written.is_some_and(|l| memory.fixed.contains(&l)) {
                return Err("it changes an array or pointer it reads memory through".into());
            }
        }
    }
    Ok(BodyPaths {
        walks: done,
        aborts,
        exits,
        slots,
        memory,
        width,
    })
}

/// Runs inner loop `at` on `walk` as slot `slot`: its results become fresh pseudo-locals
/// (numbered from `width` on, which grows).
fn enter_inner(walk: &mut Walk, at: usize, inner: &Inner, slot: usize, width: &mut usize) -> Slot {
    let mut fresh = || {
        let l = LocalId(*width as u32);
        *width += 1;
        l
    };
    let control: Vec<Rc<Expr>> = inner.control.iter().map(|&l| walk.value(l)).collect();
    let accumulated: Vec<Rc<Expr>> = inner.accumulated.iter().map(|&l| walk.value(l)).collect();
    let results: Vec<LocalId> = inner.written.iter().map(|_| fresh()).collect();
    let deltas: Vec<LocalId> = inner.accumulated.iter().map(|_| fresh()).collect();
    walk.env.resize(*width, None);
    for (&l, &result) in inner.written.iter().zip(&results) {
        walk.env[l.index()] = Some(Expr::start(result));
    }
    for ((&l, &delta), before) in inner.accumulated.iter().zip(&deltas).zip(&accumulated) {
        walk.env[l.index()] = Some(Expr::binary(BinOp::Add, before.clone(), Expr::start(delta)));
    }
    walk.segments.push(Segment {
        slot,
        control: control.clone(),
    });
    Slot {
        inner: at,
        control,
        accumulated,
        results,
        deltas,
    }
}

/// Whether a path goes on after an instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Flow {
    Next,
    /// `assume 0`, or a check that always fails: the run ends here.
    Ends,
}

fn instruction(
    kind: &InstKind,
    walk: &mut Walk,
    memory: &mut MemoryReads,
    width: &mut usize,
    cell_backed: &dyn Fn(LocalId) -> bool,
) -> Result<Flow, String> {
    match kind {
        InstKind::Assign { dst, value } => {
            if cell_backed(*dst) {
                return Err("it writes a local whose address is taken".into());
            }
            let value = match value {
                Rvalue::Use(op) => operand(*op, walk, cell_backed)?,
                Rvalue::Unary(UnOp::SignExtend | UnOp::ZeroExtend | UnOp::Truncate, _) => {
                    return Err(SIXTY_FOUR_BITS.into())
                }
                Rvalue::Unary(op, a) => Rc::new(Expr::Unary(*op, operand(*a, walk, cell_backed)?)),
                Rvalue::Binary(op, a, b) => Expr::binary(
                    *op,
                    operand(*a, walk, cell_backed)?,
                    operand(*b, walk, cell_backed)?,
                ),
                Rvalue::Read(place) => Expr::start(memory_read(place, memory, width)?),
                _ => return Err("it builds records, arrays or pointers".into()),
            };
            walk.env.resize(*width, None);
            walk.env[dst.index()] = Some(value);
        }
        InstKind::Output(op) => {
            operand(*op, walk, cell_backed)?;
        }
        InstKind::Check { check, prop } => match check {
            // A check that always fails (the error call of older versions of SV-COMP's
            // `__VERIFIER_assert`, which do not `abort()`) ends every run that reaches it, as
            // `assume 0` does.
            Check::Assert(Operand::Const(0))
            | Check::NonZero(Operand::Const(0))
            | Check::Condition {
                holds: Operand::Const(0),
                ..
            } => return Ok(Flow::Ends),
            Check::Assert(op) | Check::Condition { holds: op, .. } | Check::NonZero(op) => {
                let value = operand(*op, walk, cell_backed)?;
                walk.checks.push((*prop, value));
            }
            Check::Init(place) => match (place.base, place.projections.is_empty()) {
                // The start value is read, so it must be a number when the walk runs.
                (PlaceBase::Local(l), true) if !cell_backed(l) => {
                    if walk.env[l.index()].is_none() && !walk.inits.contains(&l) {
                        walk.inits.push(l);
                    }
                }
                _ => guard(check, memory),
            },
            Check::NonNull(op) => {
                guard(check, memory);
                match op {
                    Operand::Local(l) => memory.fix(*l),
                    _ => return Err("it dereferences a constant".into()),
                }
            }
            Check::InBounds { array, index } => {
                guard(check, memory);
                memory.fix_place(array);
                if let Operand::Local(l) = index {
                    memory.fix(*l);
                }
            }
            Check::Reach => return Err("it holds a reachability target".into()),
        },
        InstKind::Call { .. } => return Err("it calls a function".into()),
        InstKind::Input { .. } => return Err("it reads input".into()),
        InstKind::Store { place, value } => {
            let value = operand(*value, walk, cell_backed)?;
            let written = memory_write(place, memory, width)?;
            walk.env.resize(*width, None);
            walk.env[written.index()] = Some(value);
        }
        InstKind::Assume(Operand::Const(0)) => return Ok(Flow::Ends),
        InstKind::Assume(_) => return Err("it contains an assume".into()),
    }
    Ok(Flow::Next)
}

/// Records a check guarding a memory read (invariant, like the read).
fn guard(check: &Check, memory: &mut MemoryReads) {
    if let Check::Init(place) = check {
        memory.fix_place(place);
    }
    memory.check(check);
}

/// The pseudo-local of the value a write to `place` leaves (one per distinct place; numbered
/// from `width` on). Only places at constant positions: a local's element or field, or a field
/// of the cell a fixed pointer points to.
fn memory_write(
    place: &Place,
    memory: &mut MemoryReads,
    width: &mut usize,
) -> Result<LocalId, String> {
    if !matches!(
        place.base,
        PlaceBase::Local(_) | PlaceBase::Deref(Operand::Local(_))
    ) {
        return Err("it writes through a constant".into());
    }
    if !place.projections.iter().all(constant_projection) {
        return Err("it writes memory at an index the loop computes".into());
    }
    memory.fix_place(place);
    Ok(pseudo_local(&mut memory.writes, place, width))
}

/// The pseudo-local of `place` in `places`, a new one (numbered `width`) if it has none yet.
fn pseudo_local(places: &mut Vec<(Place, LocalId)>, place: &Place, width: &mut usize) -> LocalId {
    if let Some((_, l)) = places.iter().find(|(p, _)| p == place) {
        return *l;
    }
    let l = LocalId(*width as u32);
    *width += 1;
    places.push((place.clone(), l));
    l
}

fn constant_projection(p: &Projection) -> bool {
    matches!(
        p,
        Projection::Field(_) | Projection::Index(Operand::Const(_))
    )
}

/// Whether a read of `read` may see what a write to `written` stored: the same local with
/// overlapping constant positions or a computed one, or any two dereferences (pointers may
/// alias).
fn overlaps(read: &Place, written: &Place) -> bool {
    match (read.base, written.base) {
        (PlaceBase::Local(a), PlaceBase::Local(b)) => {
            a == b
                && (!read.projections.iter().all(constant_projection)
                    || read
                        .projections
                        .iter()
                        .zip(&written.projections)
                        .all(|(x, y)| x == y))
        }
        (PlaceBase::Deref(_), PlaceBase::Deref(_)) => true,
        _ => false,
    }
}

/// The pseudo-local of a read of `place` (one per distinct place; numbered from `width` on).
fn memory_read(
    place: &Place,
    memory: &mut MemoryReads,
    width: &mut usize,
) -> Result<LocalId, String> {
    if matches!(
        place.base,
        PlaceBase::Deref(Operand::Const(_) | Operand::Null)
    ) {
        return Err("it dereferences a constant".into());
    }
    memory.fix_place(place);
    Ok(pseudo_local(&mut memory.places, place, width))
}

/// The value of `op` on `walk`. A local whose address is taken is refused: a write through a
/// pointer can change it, and the walk would take its start value for an invariant.
fn operand(
    op: Operand,
    walk: &Walk,
    cell_backed: &dyn Fn(LocalId) -> bool,
) -> Result<Rc<Expr>, String> {
    match op {
        Operand::Const(n) => Ok(Expr::constant(n)),
        Operand::Const64(_) => Err(SIXTY_FOUR_BITS.into()),
        Operand::Local(l) if cell_backed(l) => {
            Err("it reads a local whose address is taken".into())
        }
        Operand::Local(l) => Ok(walk.value(l)),
        Operand::Null => Err("it compares pointers".into()),
    }
}
