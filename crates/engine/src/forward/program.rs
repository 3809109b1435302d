//! What the forward engine computes once per function before exploring: which locals live in
//! cells, the natural loops (for `--unwind`) and the join points (for `--merge`); and, when
//! first asked, strong liveness (for `--summarize` and `--match-states`).
//!
//! Nothing here executes or changes the IR.

use std::cell::OnceCell;
use std::rc::Rc;

use symex_ir::analysis::{Dominators, LoopForest};
use symex_ir::cfg::{BlockId, FieldId, Function, InstKind, LocalId, Module, Rvalue};

use crate::forward::live::Liveness;

/// How a control-flow edge relates to the loops of its function.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EdgeKind {
    /// Back to the header of loop `usize` from inside it: one more iteration.
    Back(usize),
    /// Into the header of loop `usize` from outside: the loop starts afresh.
    Enter(usize),
    Plain,
}

pub struct FunctionInfo {
    /// Locals that live in a memory cell (their address is taken).
    pub cell_backed: Vec<bool>,
    /// Blocks with more than one way in (the entry counts the call as one): where states merge.
    pub joins: Vec<bool>,
    /// Reverse-postorder position per block (unreachable blocks last): which parked state
    /// goes on first.
    pub rpo: Vec<u32>,
    loops: LoopForest,
    liveness: OnceCell<Rc<Liveness>>,
    reads: OnceCell<Rc<Liveness>>,
}

impl FunctionInfo {
    fn new(function: &Function) -> FunctionInfo {
        let mut cell_backed: Vec<bool> = function.locals.iter().map(|l| l.address_taken).collect();
        // Trust the instructions over the flag, as the interpreter does.
        for inst in function.blocks.iter().flat_map(|b| &b.insts) {
            if let InstKind::Assign {
                value: Rvalue::AddrOf(local),
                ..
            } = inst.kind
            {
                if let Some(flag) = cell_backed.get_mut(local.index()) {
                    *flag = true;
                }
            }
        }
        let mut ways_in = vec![0usize; function.blocks.len()];
        if let Some(entry) = ways_in.get_mut(Function::ENTRY.index()) {
            *entry += 1;
        }
        for block in &function.blocks {
            for succ in block.successors() {
                if let Some(n) = ways_in.get_mut(succ.index()) {
                    *n += 1;
                }
            }
        }
        let dominators = Dominators::compute(function);
        FunctionInfo {
            joins: ways_in.iter().map(|&n| n > 1).collect(),
            rpo: (0..function.blocks.len())
                .map(|b| dominators.rpo_index(BlockId(b as u32)).unwrap_or(u32::MAX))
                .collect(),
            cell_backed,
            loops: LoopForest::compute(&dominators),
            liveness: OnceCell::new(),
            reads: OnceCell::new(),
        }
    }

    /// Strong liveness of `function`'s locals (`function` is the one this is the information
    /// of), computed on the first call.
    pub fn liveness(&self, function: &Function) -> Rc<Liveness> {
        Rc::clone(
            self.liveness
                .get_or_init(|| Rc::new(Liveness::of(function, &|l| self.is_cell_backed(l)))),
        )
    }

    /// Plain liveness of `function`'s locals (where they may still be read), computed on the
    /// first call.
    pub fn reads(&self, function: &Function) -> Rc<Liveness> {
        Rc::clone(
            self.reads
                .get_or_init(|| Rc::new(Liveness::reads_of(function, &|l| self.is_cell_backed(l)))),
        )
    }

    /// The function's natural loops.
    pub fn loops(&self) -> &LoopForest {
        &self.loops
    }

    pub fn loop_count(&self) -> usize {
        self.loops.loops.len()
    }

    pub fn edge_kind(&self, from: BlockId, to: BlockId) -> EdgeKind {
        match self.loops.loop_of_header(to) {
            Some(id) if self.loops.get(id).contains(from) => EdgeKind::Back(id.index()),
            Some(id) => EdgeKind::Enter(id.index()),
            None => EdgeKind::Plain,
        }
    }

    pub fn is_cell_backed(&self, local: LocalId) -> bool {
        self.cell_backed
            .get(local.index())
            .copied()
            .unwrap_or(false)
    }

    pub fn is_join(&self, block: BlockId) -> bool {
        self.joins.get(block.index()).copied().unwrap_or(false)
    }
}

/// Per-function information for a whole module.
pub struct ProgramInfo {
    pub functions: Vec<FunctionInfo>,
    /// The field that holds objects' heap states, if any object has one (looked up once: the
    /// leak counts and every merge read it).
    pub heap_state: Option<FieldId>,
}

impl ProgramInfo {
    pub fn new(module: &Module) -> ProgramInfo {
        ProgramInfo {
            functions: module.functions.iter().map(FunctionInfo::new).collect(),
            heap_state: symex_ir::unreached::heap_state_field(module),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loops_and_cells_are_found() {
        let front = symex_syntax::analyze(
            "main() { var i, x, p; i = 0; p = &x; while (i < 3) { i = i + 1; } return i; }",
        )
        .expect("valid");
        let module = symex_ir::lower(&front.program);
        let info = ProgramInfo::new(&module);
        let main = &info.functions[0];
        assert_eq!(main.loop_count(), 1);
        assert!(main.is_cell_backed(LocalId(1)));
        assert!(!main.is_cell_backed(LocalId(0)));
        let function = &module.functions[0];
        let mut kinds = Vec::new();
        for (b, block) in function.blocks.iter().enumerate() {
            for succ in block.successors() {
                kinds.push(main.edge_kind(BlockId(b as u32), succ));
            }
        }
        assert!(kinds.contains(&EdgeKind::Back(0)));
        assert!(kinds.contains(&EdgeKind::Enter(0)));
        // The loop header is entered from before the loop and from its body.
        assert_eq!(main.joins.iter().filter(|&&j| j).count(), 1);
    }
}
