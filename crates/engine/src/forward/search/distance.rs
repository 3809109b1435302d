//! Distance (in IR instructions along the control-flow graph) from a location to the nearest
//! uncovered instruction, or to a call of a function that still has one.
//!
//! Block distances are computed for the whole module at once and recomputed only when coverage
//! changed (the coverage map's epoch); a location's distance then needs one scan of its block.
//! A state's distance also follows returns: past its function's return into the caller, at the
//! instruction after the call, and so on down its stack ([`Distances::of_stack`]).

use symex_ir::cfg::{BlockId, FuncId, Function, InstKind, Module, Terminator};

use crate::common::coverage::CoverageMap;

/// No uncovered instruction is reachable.
pub const FAR: u32 = u32::MAX;

#[derive(Debug, Default)]
pub struct Distances {
    epoch: Option<u64>,
    /// Per function: whether it has an uncovered instruction.
    uncovered_function: Vec<bool>,
    /// Per function and block: distance from the block's first instruction.
    from_block: Vec<Vec<u32>>,
    /// Per function and block: instructions from the block's first one to its function's
    /// return (the return terminator itself not counted).
    to_return: Vec<Vec<u32>>,
}

impl Distances {
    /// Brings the tables up to date with `coverage`.
    pub fn refresh(&mut self, module: &Module, coverage: &CoverageMap) {
        if self.epoch == Some(coverage.epoch()) {
            return;
        }
        self.epoch = Some(coverage.epoch());
        self.uncovered_function = module
            .functions
            .iter()
            .enumerate()
            .map(|(f, function)| {
                function.blocks.iter().enumerate().any(|(b, block)| {
                    (0..=block.insts.len())
                        .any(|i| !coverage.is_covered(FuncId(f as u32), BlockId(b as u32), i))
                })
            })
            .collect();
        if self.to_return.is_empty() {
            // Returns do not move with coverage: computed once.
            self.to_return = (module.functions.iter())
                .map(|function| {
                    let own = (function.blocks.iter())
                        .map(|block| {
                            matches!(block.term, Terminator::Return(_))
                                .then_some(block.insts.len() as u32)
                        })
                        .collect();
                    shortest(function, own)
                })
                .collect();
        }
        self.from_block = (module.functions.iter().enumerate())
            .map(|(f, function)| {
                let func = FuncId(f as u32);
                let own = (0..function.blocks.len())
                    .map(|b| self.distance_in_block(module, coverage, func, BlockId(b as u32), 0))
                    .collect();
                shortest(function, own)
            })
            .collect();
    }

    /// Instructions from `(block, index)` to the first interesting one in the same block.
    fn distance_in_block(
        &self,
        module: &Module,
        coverage: &CoverageMap,
        func: FuncId,
        block: BlockId,
        from: usize,
    ) -> Option<u32> {
        let body = module.function(func).block(block);
        (from..=body.insts.len())
            .find(|&i| {
                !coverage.is_covered(func, block, i)
                    || matches!(
                        body.insts.get(i).map(|inst| &inst.kind),
                        Some(InstKind::Call { func: callee, .. })
                            if self.uncovered_function.get(callee.index()).copied().unwrap_or(false)
                    )
            })
            .map(|i| (i - from) as u32)
    }

    /// The distance of the location `(func, block, index)`.
    pub fn of(
        &self,
        module: &Module,
        coverage: &CoverageMap,
        (func, block, index): (FuncId, BlockId, usize),
    ) -> u32 {
        let own = self.distance_in_block(module, coverage, func, block, index);
        from_location(
            &self.from_block[func.index()],
            module,
            (func, block, index),
            own,
        )
    }
}

/// Per block of `function`: the fewest instructions from the block's first one to a target,
/// where `own[b]` is the distance to a target inside block `b` (if it has one) and a block
/// without one goes on to its nearest successor (a fixpoint, loops included).
fn shortest(function: &Function, own: Vec<Option<u32>>) -> Vec<u32> {
    let mut best = vec![FAR; function.blocks.len()];
    loop {
        let mut changed = false;
        for (b, block) in function.blocks.iter().enumerate().rev() {
            let through = (block.successors().map(|s| best[s.index()]).min())
                .unwrap_or(FAR)
                .saturating_add(block.insts.len() as u32 + 1);
            let d = own[b].unwrap_or(through);
            if d < best[b] {
                best[b] = d;
                changed = true;
            }
        }
        if !changed {
            return best;
        }
    }
}

/// The distance from instruction `index` of a block, given the distance to a target later in
/// the same block (`own`) and the function's per-block table.
fn from_location(
    table: &[u32],
    module: &Module,
    (func, block, index): (FuncId, BlockId, usize),
    own: Option<u32>,
) -> u32 {
    own.unwrap_or_else(|| {
        let body = module.function(func).block(block);
        (body.successors().map(|s| table[s.index()]).min())
            .unwrap_or(FAR)
            .saturating_add((body.insts.len() + 1 - index) as u32)
    })
}

impl Distances {
    /// Instructions from the location to its function's return terminator.
    fn to_return_from(&self, module: &Module, location: (FuncId, BlockId, usize)) -> u32 {
        let (func, block, index) = location;
        let body = module.function(func).block(block);
        let own = matches!(body.term, Terminator::Return(_))
            .then(|| (body.insts.len().saturating_sub(index)) as u32);
        from_location(&self.to_return[func.index()], module, location, own)
    }

    /// The distance of a state whose frames are at `stack` (outermost first, each at its next
    /// instruction: a caller's is the one after the call): from the innermost location, or
    /// through the returns of the innermost frames into a caller, whichever is nearer.
    pub fn of_stack(
        &self,
        module: &Module,
        coverage: &CoverageMap,
        stack: &[(FuncId, BlockId, usize)],
    ) -> u32 {
        let mut best = FAR;
        let mut travelled: u32 = 0;
        for &location in stack.iter().rev() {
            best = best.min(travelled.saturating_add(self.of(module, coverage, location)));
            let to_return = self.to_return_from(module, location);
            if to_return == FAR || travelled == FAR {
                break;
            }
            // The return itself is one instruction.
            travelled = travelled.saturating_add(to_return.saturating_add(1));
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances_shrink_toward_uncovered_code() {
        let front = symex_syntax::analyze(
            "main() { var x; x = input; if (x > 0) { x = 1; } else { x = 2; } return x; }",
        )
        .expect("valid");
        let module = symex_ir::lower(&front.program);
        let main = FuncId(0);
        let mut coverage = CoverageMap::new(&module, main);
        let mut d = Distances::default();
        d.refresh(&module, &coverage);
        assert_eq!(d.of(&module, &coverage, (main, BlockId(0), 0)), 0);
        let entry_len = module.function(main).block(BlockId(0)).insts.len();
        for i in 0..=entry_len {
            coverage.cover_instruction(main, BlockId(0), i);
        }
        d.refresh(&module, &coverage);
        assert_eq!(
            d.of(&module, &coverage, (main, BlockId(0), 0)),
            entry_len as u32 + 1
        );
    }

    #[test]
    fn distances_follow_returns_into_the_caller() {
        let front = symex_syntax::analyze(
            "f() { return 1; }\nmain() { var x; x = f(); if (x > 0) { x = 2; } return x; }",
        )
        .expect("valid");
        let module = symex_ir::lower(&front.program);
        let f = module.function_by_name("f").unwrap();
        let main = module.function_by_name("main").unwrap();
        let mut coverage = CoverageMap::new(&module, main);
        // Everything of `f` covered: inside `f` alone nothing is left to reach.
        for (b, block) in module.function(f).blocks.iter().enumerate() {
            for i in 0..=block.insts.len() {
                coverage.cover_instruction(f, BlockId(b as u32), i);
            }
        }
        let mut d = Distances::default();
        d.refresh(&module, &coverage);
        let in_f = (f, BlockId(0), 0);
        assert_eq!(d.of(&module, &coverage, in_f), FAR);
        // From `f`'s start, through its return, to the call's next instruction in `main`.
        let call = module.function(main).blocks[0]
            .insts
            .iter()
            .position(|i| matches!(i.kind, InstKind::Call { .. }))
            .unwrap();
        let caller = (main, BlockId(0), call + 1);
        let through = d.of_stack(&module, &coverage, &[caller, in_f]);
        let f_len = module.function(f).blocks[0].insts.len() as u32;
        assert_eq!(through, f_len + 1 + d.of(&module, &coverage, caller));
        assert!(through < FAR);
    }
}
