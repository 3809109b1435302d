//! Instruction and branch-direction coverage over the functions reachable from the entry.
//!
//! An instruction is every IR instruction and every terminator; a branch direction is one of
//! the two successors of a conditional branch. Totals count only functions the entry can call
//! (transitively), so a report's percentages mean "of the code this check could run". Engines
//! mark what their paths execute; nothing here explores.

use symex_interp::RunCoverage;
use symex_ir::cfg::{BlockId, FuncId, Module, Terminator};
use symex_report::{Coverage, Ratio};

pub struct CoverageMap {
    /// The flags, in the interpreter's shape (one per instruction and terminator, two per
    /// conditional branch), so that a concrete run's coverage merges in directly.
    flags: RunCoverage,
    reachable: Vec<bool>,
    /// Bumped whenever something new is covered, so that cached distances can be refreshed.
    epoch: u64,
}

impl CoverageMap {
    pub fn new(module: &Module, entry: FuncId) -> CoverageMap {
        CoverageMap {
            flags: RunCoverage::new(module),
            reachable: module.functions_reachable_from(entry),
            epoch: 0,
        }
    }

    /// Marks instruction `index` of the block (`index == insts.len()` is the terminator).
    pub fn cover_instruction(&mut self, func: FuncId, block: BlockId, index: usize) {
        if let Some(flag) = self.flags.instructions[func.index()][block.index()].get_mut(index) {
            if !*flag {
                *flag = true;
                self.epoch += 1;
            }
        }
    }

    /// Marks a direction (`true`: then) of the block's conditional branch.
    pub fn cover_branch(&mut self, func: FuncId, block: BlockId, direction: bool) {
        let flag = &mut self.flags.branches[func.index()][block.index()][usize::from(!direction)];
        if !*flag {
            *flag = true;
            self.epoch += 1;
        }
    }

    /// Adds what a concrete run of the same module executed.
    pub fn add_run(&mut self, run: &RunCoverage) {
        let pairs = self.flags.instructions.iter_mut().flatten().flatten();
        for (flag, &ran) in pairs.zip(run.instructions.iter().flatten().flatten()) {
            *flag |= ran;
        }
        let pairs = self.flags.branches.iter_mut().flatten().flatten();
        for (flag, &ran) in pairs.zip(run.branches.iter().flatten().flatten()) {
            *flag |= ran;
        }
        self.epoch += 1;
    }

    pub fn is_covered(&self, func: FuncId, block: BlockId, index: usize) -> bool {
        self.flags.instructions[func.index()][block.index()]
            .get(index)
            .copied()
            .unwrap_or(true)
    }

    pub fn epoch(&self) -> u64 {
        self.epoch
    }

    /// The report's coverage figures.
    pub fn summary(&self, module: &Module) -> Coverage {
        let mut instructions = Ratio::default();
        let mut branches = Ratio::default();
        for (f, function) in module.functions.iter().enumerate() {
            if !self.reachable[f] {
                continue;
            }
            for (b, block) in function.blocks.iter().enumerate() {
                let flags = &self.flags.instructions[f][b];
                instructions.total += flags.len() as u64;
                instructions.covered += flags.iter().filter(|&&c| c).count() as u64;
                if matches!(block.term, Terminator::Branch { .. }) {
                    branches.total += 2;
                    let directions = &self.flags.branches[f][b];
                    branches.covered += directions.iter().filter(|&&c| c).count() as u64;
                }
            }
        }
        Coverage {
            instructions,
            branches,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn totals_cover_only_reachable_functions() {
        let front = symex_syntax::analyze(
            "dead() { return 1; } f(x) { if (x) { x = 2; } return x; } main() { return f(1); }",
        )
        .expect("valid");
        let module = symex_ir::lower(&front.program);
        let main = module.function_by_name("main").expect("main");
        let f = module.function_by_name("f").expect("f");
        let mut map = CoverageMap::new(&module, main);
        let before = map.summary(&module);
        assert_eq!(before.branches.total, 2);
        assert_eq!(before.instructions.covered, 0);
        map.cover_instruction(f, BlockId(0), 0);
        map.cover_branch(f, BlockId(0), true);
        let epoch = map.epoch();
        map.cover_branch(f, BlockId(0), true);
        assert_eq!(map.epoch(), epoch);
        let after = map.summary(&module);
        assert_eq!(after.branches.covered, 1);
        assert_eq!(after.instructions.covered, 1);
        assert!(map.is_covered(f, BlockId(0), 0));
    }
}
