//! Gating path expressions (thesis Definition 4): for each block of an acyclic graph, which
//! predecessor control comes from, as a tree of the branch conditions met between the block's
//! immediate dominator and the block.
//!
//! `GP(B)` is computed over the region between `idom(B)` and `B` only (every block on a path
//! from `idom(B)` to `B` is dominated by `idom(B)`), in reverse postorder backwards, so the
//! total work is bounded by the sum of the regions' sizes (quadratic in the worst case, as the
//! thesis's Theorem 1 allows, linear on structured code). Nodes are hash-consed, and the
//! canonical form `γ̄(c, B, B) = B` holds by construction. Nothing here builds terms: the
//! conditions are the blocks whose branches they are.

use rustc_hash::FxHashMap;
use symex_ir::analysis::Dominators;
use symex_ir::cfg::{BlockId, Function, Terminator};

use crate::error::EngineError;

/// A node of a gating path expression.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Gp {
    /// No path: this side of a branch never reaches the block.
    Empty,
    /// Control arrives from this predecessor.
    Pred(BlockId),
    /// The branch of `branch` decides: its `then` side, or its `else` side.
    Gamma {
        branch: BlockId,
        then: GpId,
        otherwise: GpId,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GpId(u32);

/// The gating path expressions of one acyclic function.
pub struct Gating {
    nodes: Vec<Gp>,
    ids: FxHashMap<Gp, GpId>,
    /// `None` for the entry block (no predecessor).
    of_block: Vec<Option<GpId>>,
}

impl Gating {
    /// The expressions of every block of `func`, whose blocks must be numbered in reverse
    /// postorder (every edge goes to a higher number), as [`symex_ir::transform::unwind`] does.
    pub fn new(
        func: &Function,
        dom: &Dominators,
        preds: &[Vec<BlockId>],
    ) -> Result<Gating, EngineError> {
        let mut gating = Gating {
            nodes: Vec::new(),
            ids: FxHashMap::default(),
            of_block: vec![None; func.blocks.len()],
        };
        let empty = gating.intern(Gp::Empty);
        for b in func.block_ids() {
            gating.of_block[b.index()] = match preds[b.index()].as_slice() {
                [] => None,
                [p] => Some(gating.intern(Gp::Pred(*p))),
                _ => {
                    let d = dom.idom(b).ok_or_else(|| {
                        EngineError::Internal(format!("join block {} has no dominator", b.0))
                    })?;
                    Some(gating.join(func, d, b, empty))
                }
            };
        }
        Ok(gating)
    }

    /// `GP(b)` for a join `b` whose immediate dominator is `d`.
    fn join(&mut self, func: &Function, d: BlockId, b: BlockId, empty: GpId) -> GpId {
        let base = d.index();
        let len = b.index() - base;
        // sel[x - base]: which predecessor of `b` control reaches from `x`, or Empty.
        let mut sel: Vec<GpId> = vec![empty; len];
        for x in (base..b.index()).rev() {
            let at = |y: BlockId, sel: &[GpId], this: &mut Gating| -> GpId {
                if y == b {
                    this.intern(Gp::Pred(BlockId(x as u32)))
                } else if y.index() > base && y.index() < b.index() {
                    sel[y.index() - base]
                } else {
                    empty
                }
            };
            sel[x - base] = match func.blocks[x].term {
                Terminator::Goto(y) => at(y, &sel, self),
                Terminator::Branch {
                    then_block,
                    else_block,
                    ..
                } => {
                    let then = at(then_block, &sel, self);
                    let otherwise = at(else_block, &sel, self);
                    if then == otherwise {
                        then
                    } else {
                        self.intern(Gp::Gamma {
                            branch: BlockId(x as u32),
                            then,
                            otherwise,
                        })
                    }
                }
                Terminator::Return(_) => empty,
            };
        }
        sel[0]
    }

    fn intern(&mut self, node: Gp) -> GpId {
        if let Some(&id) = self.ids.get(&node) {
            return id;
        }
        let id = GpId(self.nodes.len() as u32);
        self.nodes.push(node);
        self.ids.insert(node, id);
        id
    }

    /// `GP(b)`; `None` for the entry block.
    pub fn of(&self, b: BlockId) -> Option<GpId> {
        self.of_block[b.index()]
    }

    pub fn node(&self, id: GpId) -> Gp {
        self.nodes[id.0 as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use symex_ir::transform::unwind;

    fn gating(source: &str) -> (Function, Gating) {
        let front = symex_syntax::analyze(source).expect("valid program");
        let module = symex_ir::lower(&front.program);
        let u = unwind(&module.functions[0], 1, 10_000).expect("unwinds");
        let dom = Dominators::compute(&u.func);
        let preds = u.func.predecessors();
        let g = Gating::new(&u.func, &dom, &preds).expect("an unwound graph");
        (u.func, g)
    }

    #[test]
    fn a_diamond_join_is_gated_by_its_branch() {
        let (f, g) =
            gating("main() { var x, y; x = input; if (x) { y = 1; } else { y = 2; } return y; }");
        let preds = f.predecessors();
        let join = f
            .block_ids()
            .find(|b| preds[b.index()].len() == 2)
            .expect("a join");
        match g.node(g.of(join).expect("not the entry")) {
            Gp::Gamma {
                then, otherwise, ..
            } => {
                assert!(matches!(g.node(then), Gp::Pred(_)));
                assert!(matches!(g.node(otherwise), Gp::Pred(_)));
                assert_ne!(then, otherwise);
            }
            other => panic!("expected a gamma, found {other:?}"),
        }
    }

    #[test]
    fn nested_branches_nest_gammas_and_equal_sides_collapse() {
        let (f, g) = gating(
            "main() { var a, b, y; a = input; b = input; y = 0; if (a) { if (b) { y = 1; } } return y; }",
        );
        let preds = f.predecessors();
        let joins: Vec<BlockId> = f
            .block_ids()
            .filter(|b| preds[b.index()].len() == 2)
            .collect();
        assert_eq!(joins.len(), 2);
        // The outer join's expression decides on `a`, then (on the `then` side) on nothing
        // more: the inner join is a single predecessor there.
        let outer = g.of(*joins.last().expect("outer join")).expect("gated");
        assert!(matches!(g.node(outer), Gp::Gamma { .. }));
    }
}
