//! Facts about a function's plain locals that hold in every run, read off its instructions:
//! which locals are initialized on every way to a block, and which locals can only ever hold a
//! fresh allocation (never null) or an array literal of at least some length, and the low bits
//! every path agrees on (`symex_ir::analysis::LowBits`), and the bits every path keeps a value
//! within (`symex_ir::analysis::ValueBits`). Subsumption uses them to decide `null-deref` and
//! `out-of-bounds` checks on such locals and to propose initialization atoms, congruences and
//! bounds as loop-invariant candidates.
//!
//! Every fact must hold for every state of every run (initialization is monotone: no IR
//! instruction makes a local uninitialized again). Nothing here looks at states or terms.

use symex_ir::analysis::{LowBits, ValueBits};
use symex_ir::cfg::{
    BinOp, BlockId, Check, Function, InstKind, LocalId, LocalKind, Operand, Rvalue, Terminator,
};

use crate::forward::program::FunctionInfo;

/// What a plain local can hold, over all of its whole assignments.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Holds {
    /// Not assigned as a whole yet (by the instructions scanned so far).
    Nothing,
    /// Only fresh cells (`alloc`, `&x`): never null.
    Cells,
    /// Only array literals, the shortest of this length.
    Arrays(u64),
    /// Anything else.
    Unknown,
}

impl Holds {
    fn join(self, other: Holds) -> Holds {
        match (self, other) {
            (Holds::Nothing, x) | (x, Holds::Nothing) => x,
            (Holds::Cells, Holds::Cells) => Holds::Cells,
            (Holds::Arrays(a), Holds::Arrays(b)) => Holds::Arrays(a.min(b)),
            _ => Holds::Unknown,
        }
    }
}

pub struct FunctionFacts {
    holds: Vec<Holds>,
    /// Per block: per local, whether it is initialized on every way to the block's start.
    init_at: Vec<Vec<bool>>,
    low_bits: LowBits,
    value_bits: ValueBits,
}

impl FunctionFacts {
    pub fn compute(function: &Function, info: &FunctionInfo) -> FunctionFacts {
        let locals = function.locals.len();
        let mut holds = vec![Holds::Nothing; locals];
        for (l, local) in function.locals.iter().enumerate() {
            // A parameter holds whatever the caller passed; a cell-backed local may be written
            // through a pointer.
            if local.kind == LocalKind::Param || info.is_cell_backed(LocalId(l as u32)) {
                holds[l] = Holds::Unknown;
            }
        }
        // A copy `p = q` holds what `q` holds: iterate to the fixed point (the joins only go
        // up a finite lattice).
        let mut changed = true;
        while changed {
            changed = false;
            for inst in function.blocks.iter().flat_map(|b| &b.insts) {
                let (dst, held) = match &inst.kind {
                    InstKind::Assign { dst, value } => (
                        *dst,
                        match value {
                            Rvalue::Alloc(_) | Rvalue::AddrOf(_) => Holds::Cells,
                            Rvalue::Array(items) => Holds::Arrays(items.len() as u64),
                            Rvalue::Use(Operand::Local(from)) => {
                                holds.get(from.index()).copied().unwrap_or(Holds::Unknown)
                            }
                            _ => Holds::Unknown,
                        },
                    ),
                    InstKind::Store { place, .. } => match super::semantics::plain_local(place) {
                        Some(l) => (l, Holds::Unknown),
                        // A part of an aggregate: its length and address stay.
                        None => continue,
                    },
                    InstKind::Input { dst } | InstKind::Call { dst, .. } => (*dst, Holds::Unknown),
                    _ => continue,
                };
                if let Some(h) = holds.get_mut(dst.index()) {
                    let joined = h.join(held);
                    if joined != *h {
                        *h = joined;
                        changed = true;
                    }
                }
            }
        }
        FunctionFacts {
            holds,
            init_at: definitely_initialized(function),
            low_bits: LowBits::compute(function),
            value_bits: ValueBits::compute(function),
        }
    }

    /// Whether the local, once initialized, is never null.
    pub fn never_null(&self, local: LocalId) -> bool {
        self.holds.get(local.index()) == Some(&Holds::Cells)
    }

    /// The least length of the arrays the local can hold, once initialized.
    pub fn array_len(&self, local: LocalId) -> Option<u64> {
        match self.holds.get(local.index()) {
            Some(Holds::Arrays(n)) => Some(*n),
            _ => None,
        }
    }

    /// The `var` locals initialized on every way to the block's start.
    pub fn initialized_at(&self, function: &Function, block: BlockId) -> Vec<LocalId> {
        let Some(flags) = self.init_at.get(block.index()) else {
            return Vec::new();
        };
        flags
            .iter()
            .enumerate()
            .filter(|&(l, &init)| {
                init && function
                    .locals
                    .get(l)
                    .is_some_and(|i| i.kind == LocalKind::Var)
            })
            .map(|(l, _)| LocalId(l as u32))
            .collect()
    }

    /// The source variables (not temporaries, not in memory, not known to hold only cells or
    /// array literals) that the loop of `header` assigns: the ones whose order (`i <= k`) may
    /// be an invariant of the loop.
    pub fn assigned_in_loop(
        &self,
        function: &Function,
        info: &FunctionInfo,
        header: BlockId,
    ) -> Vec<LocalId> {
        let loops = info.loops();
        let Some(id) = loops.loop_of_header(header) else {
            return Vec::new();
        };
        let mut locals = Vec::new();
        for &b in &loops.get(id).blocks {
            for inst in &function.block(b).insts {
                let (InstKind::Assign { dst, .. } | InstKind::Input { dst }) = inst.kind else {
                    continue;
                };
                let number = self.holds.get(dst.index()) == Some(&Holds::Unknown);
                if number
                    && function.local(dst).kind != LocalKind::Temp
                    && !info.is_cell_backed(dst)
                    && !locals.contains(&dst)
                {
                    locals.push(dst);
                }
            }
        }
        locals.sort();
        locals
    }

    /// `(local, bits, value)`: the source variables (not temporaries, not in memory) whose low
    /// `bits` bits are `value` on every way to the block's start.
    pub fn congruences_at(
        &self,
        function: &Function,
        info: &FunctionInfo,
        block: BlockId,
    ) -> Vec<(LocalId, u32, u32)> {
        (0..function.locals.len() as u32)
            .map(LocalId)
            .filter(|&l| function.local(l).kind != LocalKind::Temp && !info.is_cell_backed(l))
            .filter_map(|l| {
                let (bits, value) = self.low_bits.at(block, l)?;
                Some((l, bits, value))
            })
            .collect()
    }

    /// `(local, bits)`: the source variables (not temporaries, not in memory) below `2^bits`,
    /// read as unsigned, on every way to the block's start (`bits` below their width).
    pub fn bounds_at(
        &self,
        function: &Function,
        info: &FunctionInfo,
        block: BlockId,
    ) -> Vec<(LocalId, u32)> {
        (0..function.locals.len() as u32)
            .map(LocalId)
            .filter(|&l| function.local(l).kind != LocalKind::Temp && !info.is_cell_backed(l))
            .filter_map(|l| {
                let bits = self
                    .value_bits
                    .at(block, l, function.local(l).width.bits())?;
                Some((l, bits))
            })
            .collect()
    }

    /// The comparisons that guard a failing assertion inside the loop of `header`: for every
    /// branch of the loop to a block that starts with `check assert 0` (C's `if (...)
    /// reach_error();`), the comparison it branches on, over source variables (not in memory)
    /// or constants read in the branch's block, and whether the error lies where it holds.
    /// `level < 0 || level > 2` guards its error by `level < 0` and by `level > 2`.
    pub fn error_guards(
        &self,
        function: &Function,
        info: &FunctionInfo,
        header: BlockId,
    ) -> Vec<(BinOp, Operand, Operand, bool)> {
        let loops = info.loops();
        let Some(id) = loops.loop_of_header(header) else {
            return Vec::new();
        };
        let fails_at_once = |b: BlockId| {
            matches!(
                function.block(b).insts.first().map(|i| &i.kind),
                Some(InstKind::Check {
                    check: Check::Assert(Operand::Const(0)),
                    ..
                })
            )
        };
        let mut guards = Vec::new();
        for &b in &loops.get(id).blocks {
            let block = function.block(b);
            let Terminator::Branch {
                cond: Operand::Local(cond),
                then_block,
                else_block,
            } = block.term
            else {
                continue;
            };
            let error_when = match (fails_at_once(then_block), fails_at_once(else_block)) {
                (true, false) => true,
                (false, true) => false,
                _ => continue,
            };
            // The operands as the block computed them: a temporary copied from a variable.
            let source = |op: Operand| match op {
                Operand::Local(t) if function.local(t).kind == LocalKind::Temp => {
                    block.insts.iter().find_map(|i| match &i.kind {
                        InstKind::Assign {
                            dst,
                            value: Rvalue::Use(Operand::Local(x)),
                        } if *dst == t => Some(Operand::Local(*x)),
                        _ => None,
                    })
                }
                Operand::Local(x) => Some(Operand::Local(x)),
                constant => Some(constant),
            };
            let number = |op: &Operand| match op {
                Operand::Local(x) => {
                    function.local(*x).kind != LocalKind::Temp
                        && !info.is_cell_backed(*x)
                        && self.holds.get(x.index()) == Some(&Holds::Unknown)
                }
                Operand::Const(_) | Operand::Const64(_) => true,
                Operand::Null => false,
            };
            let compared = block.insts.iter().find_map(|i| match &i.kind {
                InstKind::Assign {
                    dst,
                    value: Rvalue::Binary(op, a, b),
                } if *dst == cond && op.yields_truth() => Some((*op, *a, *b)),
                _ => None,
            });
            let Some((op, a, b)) = compared else {
                continue;
            };
            if let (Some(a), Some(b)) = (source(a), source(b)) {
                if number(&a) && number(&b) && !guards.contains(&(op, a, b, error_when)) {
                    guards.push((op, a, b, error_when));
                }
            }
        }
        guards
    }

    /// The source variables the block `header` reads (a loop condition's operands: `i < n`
    /// reads `i` and `n`), and whether it compares any two numbers as unsigned.
    pub fn read_at_header(
        &self,
        function: &Function,
        info: &FunctionInfo,
        header: BlockId,
    ) -> (Vec<LocalId>, bool) {
        let mut read = Vec::new();
        let mut unsigned = false;
        for inst in &function.block(header).insts {
            let InstKind::Assign { value, .. } = &inst.kind else {
                continue;
            };
            // C's front end loads each operand into a temporary first; micro-c compares the
            // variables themselves (`%1 = i < n`).
            let operands: &[Operand] = match value {
                Rvalue::Use(x) => std::slice::from_ref(x),
                Rvalue::Binary(op, a, b) => {
                    unsigned |= matches!(op, BinOp::ULt | BinOp::ULe | BinOp::UGt | BinOp::UGe);
                    &[*a, *b]
                }
                _ => &[],
            };
            for x in operands.iter().filter_map(|o| match o {
                Operand::Local(x) => Some(*x),
                _ => None,
            }) {
                if function.local(x).kind != LocalKind::Temp
                    && !info.is_cell_backed(x)
                    && self.holds.get(x.index()) == Some(&Holds::Unknown)
                    && !read.contains(&x)
                {
                    read.push(x)
                }
            }
        }
        read.sort();
        (read, unsigned)
    }
}

/// Must-initialization: a forward data flow, meet = intersection, from the parameters.
fn definitely_initialized(function: &Function) -> Vec<Vec<bool>> {
    let locals = function.locals.len();
    let blocks = function.blocks.len();
    // Blocks not reached yet start at "everything" (the top of the meet).
    let mut at_start: Vec<Option<Vec<bool>>> = vec![None; blocks];
    if blocks == 0 {
        return Vec::new();
    }
    let entry: Vec<bool> = (0..locals)
        .map(|l| l < function.param_count as usize)
        .collect();
    at_start[0] = Some(entry);
    let mut changed = true;
    while changed {
        changed = false;
        for b in 0..blocks {
            let Some(mut flags) = at_start[b].clone() else {
                continue;
            };
            let block = &function.blocks[b];
            for inst in &block.insts {
                let dst = match &inst.kind {
                    InstKind::Assign { dst, .. }
                    | InstKind::Input { dst }
                    | InstKind::Call { dst, .. } => Some(*dst),
                    InstKind::Store { place, .. } => super::semantics::plain_local(place),
                    _ => None,
                };
                if let Some(flag) = dst.and_then(|d| flags.get_mut(d.index())) {
                    *flag = true;
                }
            }
            for succ in block.term.successors() {
                let Some(slot) = at_start.get_mut(succ.index()) else {
                    continue;
                };
                let met = match slot {
                    None => flags.clone(),
                    Some(old) => old.iter().zip(&flags).map(|(a, b)| *a && *b).collect(),
                };
                if slot.as_ref() != Some(&met) {
                    *slot = Some(met);
                    changed = true;
                }
            }
        }
    }
    at_start
        .into_iter()
        .map(|flags| flags.unwrap_or_else(|| vec![false; locals]))
        .collect()
}

/// Whether an operand is a local known never to be null once initialized.
pub fn never_null_operand(facts: &FunctionFacts, op: Operand) -> Option<LocalId> {
    match op {
        Operand::Local(l) if facts.never_null(l) => Some(l),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::forward::program::ProgramInfo;

    /// The locals the first loop header of `source`'s `main` reads, by name.
    fn read_at_first_header(source: &str) -> Vec<String> {
        let front = symex_syntax::analyze(source).expect("a valid program");
        let module = symex_ir::lower(&front.program);
        let info = ProgramInfo::new(&module);
        let (function, info) = (&module.functions[0], &info.functions[0]);
        let header = (function.blocks.iter().enumerate())
            .flat_map(|(i, b)| b.term.successors().filter(move |s| s.index() <= i))
            .next()
            .expect("a loop");
        let facts = FunctionFacts::compute(function, info);
        let (read, _) = facts.read_at_header(function, info, header);
        read.iter()
            .map(|&l| function.local(l).name.clone())
            .collect()
    }

    /// micro-c compares the variables themselves (`%1 = i < n`), C loads them into temporaries
    /// first: both give the loop condition's operands, the source of the `i <= n` candidates.
    #[test]
    fn a_header_comparing_variables_reads_them() {
        let source =
            "main() { var i, n; n = input; i = 0; while (i < n) { i = i + 1; } return i; }";
        assert_eq!(read_at_first_header(source), vec!["i", "n"]);
    }
}
