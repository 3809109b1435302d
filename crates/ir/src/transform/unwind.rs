//! Loop unwinding: a function's graph made acyclic by copying each loop body once per
//! iteration, up to K iterations, with one exit block that every `Return` reaches.
//!
//! A copy of a block is keyed by the block and the iteration count of every loop enclosing it
//! (counted from the loop's last entry), so nested loops unwind independently. The (K+1)-th
//! back edge of a loop leads to a *cut block* instead: `assume(0)`, then the exit. Cut blocks
//! are listed in [`Unwound::cuts`] so that engines can say "safe up to K" where one may run.
//! Critical edges (from a conditional branch to a block with several predecessors) are split
//! with an empty block, so every branch target has one predecessor: an engine can attach the
//! branch's condition to the target block. Every `Return` becomes an assignment of a fresh
//! local followed by a jump to the one exit block, which returns that local.
//!
//! The result is renumbered in reverse postorder. It keeps the original locals (plus the
//! return local) and spans, so diagnostics and properties still point into the source. It is
//! meant for engines: the concrete interpreter always runs the original function.

use rustc_hash::FxHashMap;

use crate::analysis::{Dominators, LoopForest, LoopId};
use crate::cfg::{
    Block, BlockId, Function, Inst, InstKind, LocalId, LocalInfo, LocalKind, Operand, Terminator,
};

/// A function unwound into an acyclic graph.
#[derive(Clone, Debug)]
pub struct Unwound {
    /// The acyclic function; block 0 is the entry, blocks are in reverse postorder.
    pub func: Function,
    /// The block every path ends in: it returns [`Unwound::ret`].
    pub exit: BlockId,
    /// The local holding the value returned.
    pub ret: LocalId,
    /// Blocks standing for a loop iteration beyond K (they assume false).
    pub cuts: Vec<BlockId>,
}

/// Why a function cannot be unwound.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UnwindError {
    /// A retreating edge to a block that does not dominate its source.
    Irreducible,
    /// The copies would exceed the given number of blocks.
    TooLarge { blocks: usize },
}

/// Unwinds every loop of `func` to `k` iterations; refuses to make more than `max_blocks` blocks.
pub fn unwind(func: &Function, k: u32, max_blocks: usize) -> Result<Unwound, UnwindError> {
    let dom = Dominators::compute(func);
    let loops = LoopForest::compute(&dom);
    if !loops.irreducible_edges.is_empty() {
        return Err(UnwindError::Irreducible);
    }
    let mut builder = Builder {
        func,
        loops: &loops,
        k,
        max_blocks,
        blocks: Vec::new(),
        keys: FxHashMap::default(),
        work: Vec::new(),
        cuts: Vec::new(),
        ret: LocalId(func.locals.len() as u32),
    };
    builder.run()
}

/// A copy of a block: the block and the iterations of its enclosing loops, outermost first.
type Key = (BlockId, Vec<u32>);

/// A terminator whose targets are still keys.
enum Pending {
    Goto(Target),
    Branch(Operand, Target, Target),
    Return(Operand),
}

#[derive(Clone)]
enum Target {
    Copy(Key),
    Cut,
}

struct Builder<'a> {
    func: &'a Function,
    loops: &'a LoopForest,
    k: u32,
    max_blocks: usize,
    blocks: Vec<(Block, Option<Pending>)>,
    keys: FxHashMap<Key, usize>,
    work: Vec<Key>,
    cuts: Vec<usize>,
    ret: LocalId,
}

impl Builder<'_> {
    fn run(&mut self) -> Result<Unwound, UnwindError> {
        let entry: Key = (Function::ENTRY, Vec::new());
        self.copy_of(entry)?;
        while let Some(key) = self.work.pop() {
            let index = self.keys[&key];
            let original = self.func.block(key.0);
            let pending = match &original.term {
                Terminator::Goto(t) => Pending::Goto(self.target(&key, *t)),
                Terminator::Branch {
                    cond,
                    then_block,
                    else_block,
                } => Pending::Branch(
                    *cond,
                    self.target(&key, *then_block),
                    self.target(&key, *else_block),
                ),
                Terminator::Return(op) => Pending::Return(*op),
            };
            for target in match &pending {
                Pending::Goto(t) => vec![t.clone()],
                Pending::Branch(_, a, b) => vec![a.clone(), b.clone()],
                Pending::Return(_) => Vec::new(),
            } {
                if let Target::Copy(key) = target {
                    self.copy_of(key)?;
                }
            }
            self.blocks[index].1 = Some(pending);
        }
        self.finish()
    }

    /// The index of the copy `key`, made (and queued) on first use.
    fn copy_of(&mut self, key: Key) -> Result<usize, UnwindError> {
        if let Some(&i) = self.keys.get(&key) {
            return Ok(i);
        }
        let original = self.func.block(key.0);
        let i = self.push(Block {
            insts: original.insts.clone(),
            term: Terminator::Return(Operand::Const(0)),
            term_span: original.term_span,
        })?;
        self.keys.insert(key.clone(), i);
        self.work.push(key);
        Ok(i)
    }

    fn push(&mut self, block: Block) -> Result<usize, UnwindError> {
        if self.blocks.len() >= self.max_blocks {
            return Err(UnwindError::TooLarge {
                blocks: self.max_blocks,
            });
        }
        self.blocks.push((block, None));
        Ok(self.blocks.len() - 1)
    }

    /// Where the edge `from -> to` of the original graph leads in the unwound one.
    fn target(&self, from: &Key, to: BlockId) -> Target {
        let from_loops = self.enclosing(from.0);
        let to_loops = self.enclosing(to);
        let mut counts = Vec::with_capacity(to_loops.len());
        for (depth, &l) in to_loops.iter().enumerate() {
            let inherited = from_loops
                .get(depth)
                .filter(|&&fl| fl == l)
                .map(|_| from.1[depth]);
            let is_header = self.loops.get(l).header == to;
            match inherited {
                // A back edge: one more iteration of `l`.
                Some(n) if is_header => {
                    if n + 1 > self.k {
                        return Target::Cut;
                    }
                    counts.push(n + 1);
                }
                Some(n) => counts.push(n),
                // Entering `l` from outside.
                None => counts.push(0),
            }
        }
        Target::Copy((to, counts))
    }

    /// The loops containing `b`, outermost first.
    fn enclosing(&self, b: BlockId) -> Vec<LoopId> {
        let mut chain: Vec<LoopId> = self.loops.enclosing(b).collect();
        chain.reverse();
        chain
    }

    fn finish(&mut self) -> Result<Unwound, UnwindError> {
        let span = self.func.span;
        let exit = self.push(Block {
            insts: Vec::new(),
            term: Terminator::Return(Operand::Local(self.ret)),
            term_span: span,
        })?;
        // Resolve targets; cut edges get a block each, and so do critical edges.
        let mut preds = vec![0usize; self.blocks.len()];
        let resolved: Vec<Option<Pending>> =
            self.blocks.iter_mut().map(|(_, p)| p.take()).collect();
        let index_of = |t: &Target, keys: &FxHashMap<Key, usize>| match t {
            Target::Copy(key) => Some(keys[key]),
            Target::Cut => None,
        };
        for p in resolved.iter().flatten() {
            match p {
                Pending::Goto(t) => {
                    if let Some(i) = index_of(t, &self.keys) {
                        preds[i] += 1;
                    }
                }
                Pending::Branch(_, a, b) => {
                    for t in [a, b] {
                        if let Some(i) = index_of(t, &self.keys) {
                            preds[i] += 1;
                        }
                    }
                }
                Pending::Return(_) => preds[exit] += 1,
            }
        }
        for (index, pending) in resolved.into_iter().enumerate() {
            let Some(pending) = pending else { continue };
            let span = self.blocks[index].0.term_span;
            let term = match pending {
                Pending::Goto(t) => Terminator::Goto(self.edge(&t, exit, span, false, &preds)?),
                Pending::Branch(cond, a, b) => Terminator::Branch {
                    cond,
                    then_block: self.edge(&a, exit, span, true, &preds)?,
                    else_block: self.edge(&b, exit, span, true, &preds)?,
                },
                Pending::Return(op) => {
                    self.blocks[index].0.insts.push(Inst {
                        kind: InstKind::Assign {
                            dst: self.ret,
                            value: crate::cfg::Rvalue::Use(op),
                        },
                        span,
                    });
                    Terminator::Goto(BlockId(exit as u32))
                }
            };
            self.blocks[index].0.term = term;
        }
        Ok(self.renumber(exit))
    }

    /// The block an edge enters: the copy itself, a new cut block, or (for a branch into a
    /// join) an empty block in between.
    fn edge(
        &mut self,
        target: &Target,
        exit: usize,
        span: symex_syntax::span::Span,
        from_branch: bool,
        preds: &[usize],
    ) -> Result<BlockId, UnwindError> {
        let goto = |to: usize| Block {
            insts: Vec::new(),
            term: Terminator::Goto(BlockId(to as u32)),
            term_span: span,
        };
        Ok(BlockId(match target {
            Target::Cut => {
                let mut block = goto(exit);
                block.insts.push(Inst {
                    kind: InstKind::Assume(Operand::Const(0)),
                    span,
                });
                let i = self.push(block)?;
                self.cuts.push(i);
                i as u32
            }
            Target::Copy(key) => {
                let i = self.keys[key];
                if from_branch && preds[i] > 1 {
                    self.push(goto(i))? as u32
                } else {
                    i as u32
                }
            }
        }))
    }

    /// The function with blocks in reverse postorder (the lowering's own renumbering).
    fn renumber(&mut self, exit: usize) -> Unwound {
        let mut locals = self.func.locals.clone();
        locals.push(LocalInfo {
            name: "%ret".into(),
            kind: LocalKind::Temp,
            span: self.func.span,
            address_taken: false,
            width: self.func.returned_width().unwrap_or_default(),
            unsigned: false,
            layout: Default::default(),
        });
        let raw = Function {
            name: self.func.name.clone(),
            span: self.func.span,
            param_count: self.func.param_count,
            locals,
            blocks: self.blocks.drain(..).map(|(b, _)| b).collect(),
        };
        let (func, new_id) = crate::lower::layout::renumbered(raw);
        // Every block made here is reachable: copies are made for edges, cut and split
        // blocks for edges, and the exit for returns and cuts.
        let map = |b: usize| new_id[b].unwrap_or(BlockId(b as u32));
        let mut cuts: Vec<BlockId> = self.cuts.iter().map(|&c| map(c)).collect();
        cuts.sort();
        Unwound {
            func,
            exit: map(exit),
            ret: self.ret,
            cuts,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::LoopForest;

    fn function(source: &str, name: &str) -> Function {
        let front = symex_syntax::analyze(source).expect("valid program");
        let module = crate::lower(&front.program);
        module
            .functions
            .into_iter()
            .find(|f| f.name == name)
            .expect("function")
    }

    fn is_acyclic(func: &Function) -> bool {
        let loops = LoopForest::compute(&Dominators::compute(func));
        loops.loops.is_empty() && loops.irreducible_edges.is_empty()
    }

    #[test]
    fn a_loop_is_copied_k_times_and_cut_after() {
        let f = function(
            "main() { var i; i = 0; while (i < 10) { i = i + 1; } return i; }",
            "main",
        );
        for k in 0..4 {
            let u = unwind(&f, k, 10_000).expect("unwinds");
            assert!(is_acyclic(&u.func), "k = {k}");
            assert_eq!(u.cuts.len(), 1, "one back edge beyond K");
            let assigns = u
                .func
                .blocks
                .iter()
                .flat_map(|b| &b.insts)
                .filter(|i| {
                    matches!(
                        &i.kind,
                        InstKind::Assign {
                            value: crate::cfg::Rvalue::Binary(..),
                            ..
                        }
                    )
                })
                .count();
            // K back edges taken: the header's `i < 10` and the body's `i + 1` K + 1 times each.
            assert_eq!(assigns, 2 * (k as usize + 1), "k = {k}");
        }
    }

    #[test]
    fn every_path_ends_in_the_one_exit_and_branch_targets_have_one_predecessor() {
        let f = function(
            "main() { var i, j, s; i = input; s = 0; while (i > 0) { j = i; while (j > 0) { if (j % 2 == 0) { s = s + 1; } j = j - 1; } i = i - 1; } if (s > 3) { s = 1; } return s; }",
            "main",
        );
        let u = unwind(&f, 2, 10_000).expect("unwinds");
        assert!(is_acyclic(&u.func));
        let mut preds = vec![0; u.func.blocks.len()];
        for b in &u.func.blocks {
            for s in b.term.successors() {
                preds[s.index()] += 1;
            }
        }
        for (i, b) in u.func.blocks.iter().enumerate() {
            match &b.term {
                Terminator::Return(_) => assert_eq!(BlockId(i as u32), u.exit),
                Terminator::Branch {
                    then_block,
                    else_block,
                    ..
                } => {
                    assert_eq!(preds[then_block.index()], 1);
                    assert_eq!(preds[else_block.index()], 1);
                }
                Terminator::Goto(_) => {}
            }
        }
        // Reverse postorder: every edge goes forward.
        for (i, b) in u.func.blocks.iter().enumerate() {
            assert!(b.term.successors().all(|s| s.index() > i));
        }
    }

    #[test]
    fn a_size_limit_is_an_error_not_a_hang() {
        let f = function(
            "main() { var i, j, k; i = 0; while (i < 9) { j = 0; while (j < 9) { k = 0; while (k < 9) { k = k + 1; } j = j + 1; } i = i + 1; } return 0; }",
            "main",
        );
        assert_eq!(
            unwind(&f, 50, 1_000).unwrap_err(),
            UnwindError::TooLarge { blocks: 1_000 }
        );
    }
}
