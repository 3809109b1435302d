//! Dominators and post-dominators of a function's blocks, and their frontiers.
//!
//! `a` dominates `b` when every path from the entry to `b` passes through `a`; `a`
//! post-dominates `b` when every path from `b` to a `Return` passes through `a`. Post-dominance
//! is dominance on the reversed graph rooted at a virtual exit that every `Return` block jumps
//! to, so a function with several returns (after transformations) is handled. The dominance
//! frontier gives the join points of SSA construction; the post-dominance frontier of `b` is the
//! set of branches `b` is control dependent on.

use super::domtree::DomTree;
use super::graph::Graph;
use crate::cfg::{BlockId, Function};

pub struct Dominators {
    tree: DomTree,
}

impl Dominators {
    pub fn compute(func: &Function) -> Dominators {
        let graph = Graph::forward(func);
        let tree = DomTree::build(graph, Function::ENTRY.0);
        Dominators { tree }
    }

    /// Whether the block is reachable from the entry (unreachable blocks have no dominators).
    pub fn is_reachable(&self, b: BlockId) -> bool {
        self.tree.in_tree(b.0)
    }

    /// The immediate dominator; `None` for the entry and unreachable blocks.
    pub fn idom(&self, b: BlockId) -> Option<BlockId> {
        self.tree.idom(b.0).map(BlockId)
    }

    /// Whether `a` dominates `b` (reflexive; false if either is unreachable).
    pub fn dominates(&self, a: BlockId, b: BlockId) -> bool {
        self.tree.dominates(a.0, b.0)
    }

    pub fn strictly_dominates(&self, a: BlockId, b: BlockId) -> bool {
        a != b && self.dominates(a, b)
    }

    /// The blocks `b` immediately dominates, in reverse postorder.
    pub fn children(&self, b: BlockId) -> impl Iterator<Item = BlockId> + '_ {
        self.tree.children(b.0).iter().map(|&c| BlockId(c))
    }

    /// Reachable blocks in reverse postorder (the order of [`super::reverse_postorder`]).
    pub fn reverse_postorder(&self) -> impl Iterator<Item = BlockId> + '_ {
        self.tree.order().iter().map(|&b| BlockId(b))
    }

    /// The position of `b` in reverse postorder, `None` if unreachable.
    pub fn rpo_index(&self, b: BlockId) -> Option<u32> {
        self.tree.rpo_index(b.0)
    }

    /// The dominance frontier of every block, each list sorted.
    pub fn frontiers(&self) -> Vec<Vec<BlockId>> {
        to_blocks(self.tree.frontiers(), self.tree.graph().len())
    }

    /// Successors of `b`, each once (the order analyses use).
    pub(super) fn successors(&self, b: BlockId) -> impl Iterator<Item = BlockId> + '_ {
        self.tree.graph().succs[b.index()]
            .iter()
            .map(|&s| BlockId(s))
    }

    /// Predecessors of `b`, each once, reachable or not.
    pub(super) fn predecessors(&self, b: BlockId) -> impl Iterator<Item = BlockId> + '_ {
        self.tree.graph().preds[b.index()]
            .iter()
            .map(|&p| BlockId(p))
    }

    pub(super) fn block_count(&self) -> usize {
        self.tree.graph().len()
    }
}

pub struct PostDominators {
    tree: DomTree,
    exit: u32,
}

impl PostDominators {
    pub fn compute(func: &Function) -> PostDominators {
        let graph = Graph::backward_with_exit(func);
        let exit = func.blocks.len() as u32;
        let tree = DomTree::build(graph, exit);
        PostDominators { tree, exit }
    }

    /// Whether some path leads from `b` to a `Return` (otherwise `b` has no post-dominators).
    pub fn reaches_exit(&self, b: BlockId) -> bool {
        self.tree.in_tree(b.0)
    }

    /// The immediate post-dominator: the first block every path from `b` to a return must
    /// pass. `None` when that is the virtual exit (as for a `Return` block) or when `b`
    /// reaches no return (see [`PostDominators::reaches_exit`]).
    pub fn ipdom(&self, b: BlockId) -> Option<BlockId> {
        self.tree.idom(b.0).filter(|&d| d != self.exit).map(BlockId)
    }

    /// Whether `a` post-dominates `b` (reflexive; false if either reaches no return).
    pub fn post_dominates(&self, a: BlockId, b: BlockId) -> bool {
        self.tree.dominates(a.0, b.0)
    }

    /// The post-dominance frontier of every block, each list sorted: `b` runs only if one of
    /// the branches in `frontiers()[b]` goes its way (control dependence).
    pub fn frontiers(&self) -> Vec<Vec<BlockId>> {
        to_blocks(self.tree.frontiers(), self.exit as usize)
    }
}

/// The first `blocks` lists, as block ids (dropping the virtual exit's entry, if any).
fn to_blocks(lists: Vec<Vec<u32>>, blocks: usize) -> Vec<Vec<BlockId>> {
    lists
        .into_iter()
        .take(blocks)
        .map(|l| l.into_iter().map(BlockId).collect())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{blocks, graph};

    fn idoms(dom: &Dominators, n: u32) -> Vec<Option<u32>> {
        (0..n).map(|b| dom.idom(BlockId(b)).map(|d| d.0)).collect()
    }

    fn ipdoms(pdom: &PostDominators, n: u32) -> Vec<Option<u32>> {
        (0..n)
            .map(|b| pdom.ipdom(BlockId(b)).map(|d| d.0))
            .collect()
    }

    #[test]
    fn diamond() {
        let f = graph(&[&[1, 2], &[3], &[3], &[]]);
        let dom = Dominators::compute(&f);
        assert_eq!(idoms(&dom, 4), vec![None, Some(0), Some(0), Some(0)]);
        assert!(dom.dominates(BlockId(0), BlockId(3)));
        assert!(dom.dominates(BlockId(3), BlockId(3)));
        assert!(!dom.strictly_dominates(BlockId(3), BlockId(3)));
        assert!(!dom.dominates(BlockId(1), BlockId(3)));
        assert_eq!(
            dom.children(BlockId(0)).collect::<Vec<_>>(),
            blocks(&[1, 2, 3])
        );
        assert_eq!(
            dom.frontiers(),
            vec![vec![], blocks(&[3]), blocks(&[3]), vec![]]
        );

        let pdom = PostDominators::compute(&f);
        assert_eq!(ipdoms(&pdom, 4), vec![Some(3), Some(3), Some(3), None]);
        assert!(pdom.post_dominates(BlockId(3), BlockId(0)));
        assert!(!pdom.post_dominates(BlockId(1), BlockId(0)));
        // Blocks 1 and 2 run depending on the branch in block 0.
        assert_eq!(
            pdom.frontiers(),
            vec![vec![], blocks(&[0]), blocks(&[0]), vec![]]
        );
    }

    #[test]
    fn while_loop() {
        let f = graph(&[&[1], &[2, 3], &[1], &[]]);
        let dom = Dominators::compute(&f);
        assert_eq!(idoms(&dom, 4), vec![None, Some(0), Some(1), Some(1)]);
        let df = dom.frontiers();
        assert_eq!(df[1], blocks(&[1]));
        assert_eq!(df[2], blocks(&[1]));
        let pdom = PostDominators::compute(&f);
        assert_eq!(ipdoms(&pdom, 4), vec![Some(1), Some(3), Some(1), None]);
        // The body is control dependent on the loop test, and so is the test itself.
        let pdf = pdom.frontiers();
        assert_eq!(pdf[2], blocks(&[1]));
        assert_eq!(pdf[1], blocks(&[1]));
    }

    #[test]
    fn unreachable_blocks_have_no_dominators() {
        // 1 is unreachable but jumps into 2; 3 loops on itself, unreachable and exit-less.
        let f = graph(&[&[2], &[2], &[], &[3]]);
        let dom = Dominators::compute(&f);
        assert!(!dom.is_reachable(BlockId(1)));
        assert_eq!(dom.idom(BlockId(1)), None);
        assert_eq!(dom.idom(BlockId(2)), Some(BlockId(0)));
        assert!(!dom.dominates(BlockId(1), BlockId(2)));
        assert!(!dom.dominates(BlockId(1), BlockId(1)));
        assert_eq!(dom.rpo_index(BlockId(3)), None);
        assert!(dom.frontiers().iter().all(|df| df.is_empty()));

        let pdom = PostDominators::compute(&f);
        assert!(pdom.reaches_exit(BlockId(1)));
        assert_eq!(pdom.ipdom(BlockId(1)), Some(BlockId(2)));
        assert!(!pdom.reaches_exit(BlockId(3)));
        assert_eq!(pdom.ipdom(BlockId(3)), None);
    }

    #[test]
    fn several_returns_join_at_the_virtual_exit() {
        let f = graph(&[&[1, 2], &[], &[]]);
        let pdom = PostDominators::compute(&f);
        assert_eq!(ipdoms(&pdom, 3), vec![None, None, None]);
        assert!(pdom.reaches_exit(BlockId(0)));
        assert!(!pdom.post_dominates(BlockId(1), BlockId(0)));
    }

    #[test]
    fn infinite_loop_reaches_no_exit() {
        let f = graph(&[&[1], &[1]]);
        let pdom = PostDominators::compute(&f);
        assert!(!pdom.reaches_exit(BlockId(0)));
        assert!(!pdom.post_dominates(BlockId(1), BlockId(0)));
        let dom = Dominators::compute(&f);
        assert_eq!(dom.idom(BlockId(1)), Some(BlockId(0)));
    }

    #[test]
    fn irreducible_cycle_is_dominated_by_the_entry_only() {
        // 1 and 2 form a cycle entered at both.
        let f = graph(&[&[1, 2], &[2], &[1, 3], &[]]);
        let dom = Dominators::compute(&f);
        assert_eq!(idoms(&dom, 4), vec![None, Some(0), Some(0), Some(2)]);
        let df = dom.frontiers();
        assert_eq!(df[1], blocks(&[2]));
        assert_eq!(df[2], blocks(&[1]));
    }

    #[test]
    fn branch_with_both_arms_to_one_block() {
        let f = graph(&[&[1, 1], &[]]);
        let dom = Dominators::compute(&f);
        assert_eq!(dom.idom(BlockId(1)), Some(BlockId(0)));
        assert!(dom.frontiers().iter().all(|df| df.is_empty()));
        let pdom = PostDominators::compute(&f);
        assert_eq!(pdom.ipdom(BlockId(0)), Some(BlockId(1)));
    }

    #[test]
    fn empty_function() {
        let f = graph(&[]);
        let dom = Dominators::compute(&f);
        assert_eq!(dom.reverse_postorder().count(), 0);
        let pdom = PostDominators::compute(&f);
        assert!(pdom.frontiers().is_empty());
    }
}
