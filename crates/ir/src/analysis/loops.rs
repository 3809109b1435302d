//! Natural loops and their nesting forest.
//!
//! A back edge is an edge `latch -> header` whose target dominates its source; the natural loop
//! of a header is the header plus every block that reaches one of its latches without passing
//! through the header (back edges sharing a header form one loop). Two natural loops with
//! different headers are disjoint or nested, so they form a forest. A retreating edge whose
//! target does not dominate its source makes the graph irreducible: it is reported in
//! [`LoopForest::irreducible_edges`] and forms no loop. micro-c's structured statements never
//! produce one, but hand-built or transformed graphs may.

use super::dominators::Dominators;
use crate::cfg::BlockId;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LoopId(pub u32);

impl LoopId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loop {
    pub header: BlockId,
    /// Sources of the back edges into the header, sorted.
    pub latches: Vec<BlockId>,
    /// Every block of the loop, header and nested loops included, sorted.
    pub blocks: Vec<BlockId>,
    /// The innermost loop strictly containing this one.
    pub parent: Option<LoopId>,
    /// Loops directly nested in this one, by header in reverse postorder.
    pub children: Vec<LoopId>,
    /// 1 for an outermost loop, 2 for a loop directly inside it, ...
    pub depth: u32,
    /// Edges `(inside, outside)` leaving the loop, sorted.
    pub exits: Vec<(BlockId, BlockId)>,
}

impl Loop {
    pub fn contains(&self, b: BlockId) -> bool {
        self.blocks.binary_search(&b).is_ok()
    }
}

#[derive(Clone, Debug)]
pub struct LoopForest {
    /// All loops, ordered by their header's reverse-postorder position, so a loop comes after
    /// every loop containing it.
    pub loops: Vec<Loop>,
    /// The outermost loops.
    pub roots: Vec<LoopId>,
    /// Retreating edges `(source, target)` to a block that does not dominate the source.
    pub irreducible_edges: Vec<(BlockId, BlockId)>,
    innermost: Vec<Option<LoopId>>,
}

impl LoopForest {
    /// The loops of the function whose dominators are `dom`.
    pub fn compute(dom: &Dominators) -> LoopForest {
        let n = dom.block_count();
        let mut irreducible_edges = Vec::new();
        // Headers in reverse postorder, each with its latches.
        let mut headers: Vec<(BlockId, Vec<BlockId>)> = Vec::new();
        let mut header_slot: Vec<Option<usize>> = vec![None; n];
        for source in dom.reverse_postorder() {
            for target in dom.successors(source) {
                let (Some(s), Some(t)) = (dom.rpo_index(source), dom.rpo_index(target)) else {
                    continue;
                };
                if t > s {
                    continue;
                }
                if !dom.dominates(target, source) {
                    irreducible_edges.push((source, target));
                    continue;
                }
                let slot = *header_slot[target.index()].get_or_insert_with(|| {
                    headers.push((target, Vec::new()));
                    headers.len() - 1
                });
                headers[slot].1.push(source);
            }
        }
        headers.sort_by_key(|(h, _)| dom.rpo_index(*h));
        irreducible_edges.sort_unstable();

        let mut loops = Vec::with_capacity(headers.len());
        let mut roots = Vec::new();
        let mut innermost: Vec<Option<LoopId>> = vec![None; n];
        let mut in_body = vec![false; n];
        for (header, mut latches) in headers {
            latches.sort_unstable();
            let blocks = natural_loop(dom, header, &latches, &mut in_body);
            let id = LoopId(loops.len() as u32);
            // Loops are visited outer first, so the last loop that claimed the header is the
            // innermost one containing this loop.
            let parent = innermost[header.index()];
            let depth = match parent {
                Some(p) => {
                    let parent_loop: &mut Loop = &mut loops[p.index()];
                    parent_loop.children.push(id);
                    parent_loop.depth + 1
                }
                None => {
                    roots.push(id);
                    1
                }
            };
            let mut exits = Vec::new();
            for &b in &blocks {
                innermost[b.index()] = Some(id);
                for s in dom.successors(b) {
                    if !in_body[s.index()] {
                        exits.push((b, s));
                    }
                }
            }
            for &b in &blocks {
                in_body[b.index()] = false;
            }
            exits.sort_unstable();
            loops.push(Loop {
                header,
                latches,
                blocks,
                parent,
                children: Vec::new(),
                depth,
                exits,
            });
        }
        LoopForest {
            loops,
            roots,
            irreducible_edges,
            innermost,
        }
    }

    pub fn get(&self, id: LoopId) -> &Loop {
        &self.loops[id.index()]
    }

    /// The innermost loop containing `b`, if any.
    pub fn innermost(&self, b: BlockId) -> Option<LoopId> {
        self.innermost.get(b.index()).copied().flatten()
    }

    /// How many loops contain `b` (0 outside every loop).
    pub fn depth(&self, b: BlockId) -> u32 {
        self.innermost(b).map_or(0, |l| self.get(l).depth)
    }

    /// The loop `b` is the header of, if any.
    pub fn loop_of_header(&self, b: BlockId) -> Option<LoopId> {
        self.innermost(b).filter(|&l| self.get(l).header == b)
    }

    /// The loops containing `b`, innermost first.
    pub fn enclosing(&self, b: BlockId) -> impl Iterator<Item = LoopId> + '_ {
        std::iter::successors(self.innermost(b), |&l| self.get(l).parent)
    }

    pub fn is_reducible(&self) -> bool {
        self.irreducible_edges.is_empty()
    }
}

/// The blocks of the natural loop, sorted; marks them in `in_body` (the caller clears it).
fn natural_loop(
    dom: &Dominators,
    header: BlockId,
    latches: &[BlockId],
    in_body: &mut [bool],
) -> Vec<BlockId> {
    let mut blocks = vec![header];
    in_body[header.index()] = true;
    let mut work: Vec<BlockId> = Vec::new();
    for &latch in latches {
        if !in_body[latch.index()] {
            in_body[latch.index()] = true;
            blocks.push(latch);
            work.push(latch);
        }
    }
    while let Some(b) = work.pop() {
        for p in dom.predecessors(b) {
            // Unreachable predecessors are not part of any loop.
            if !in_body[p.index()] && dom.is_reachable(p) {
                in_body[p.index()] = true;
                blocks.push(p);
                work.push(p);
            }
        }
    }
    blocks.sort_unstable();
    blocks
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{blocks, graph};

    fn forest(succs: &[&[u32]]) -> LoopForest {
        LoopForest::compute(&Dominators::compute(&graph(succs)))
    }

    #[test]
    fn straight_line_code_has_no_loops() {
        let f = forest(&[&[1, 2], &[3], &[3], &[]]);
        assert!(f.loops.is_empty());
        assert!(f.is_reducible());
        assert_eq!(f.depth(BlockId(3)), 0);
    }

    #[test]
    fn while_loop() {
        let f = forest(&[&[1], &[2, 3], &[1], &[]]);
        assert_eq!(f.loops.len(), 1);
        let l = f.get(LoopId(0));
        assert_eq!(l.header, BlockId(1));
        assert_eq!(l.latches, blocks(&[2]));
        assert_eq!(l.blocks, blocks(&[1, 2]));
        assert_eq!(l.exits, vec![(BlockId(1), BlockId(3))]);
        assert_eq!((l.parent, l.depth), (None, 1));
        assert_eq!(f.roots, vec![LoopId(0)]);
        assert_eq!(f.loop_of_header(BlockId(1)), Some(LoopId(0)));
        assert_eq!(f.loop_of_header(BlockId(2)), None);
    }

    #[test]
    fn nested_loops() {
        // 1: outer header (exit 6); 3: inner header (latch 4, exit to 5); 5: outer latch.
        let f = forest(&[&[1], &[2, 6], &[3], &[4, 5], &[3], &[1], &[]]);
        assert_eq!(f.loops.len(), 2);
        let (outer, inner) = (f.get(LoopId(0)), f.get(LoopId(1)));
        assert_eq!(outer.header, BlockId(1));
        assert_eq!(outer.blocks, blocks(&[1, 2, 3, 4, 5]));
        assert_eq!(outer.children, vec![LoopId(1)]);
        assert_eq!(outer.exits, vec![(BlockId(1), BlockId(6))]);
        assert_eq!(inner.header, BlockId(3));
        assert_eq!(inner.blocks, blocks(&[3, 4]));
        assert_eq!((inner.parent, inner.depth), (Some(LoopId(0)), 2));
        assert_eq!(inner.exits, vec![(BlockId(3), BlockId(5))]);
        assert_eq!(f.innermost(BlockId(4)), Some(LoopId(1)));
        assert_eq!(f.innermost(BlockId(5)), Some(LoopId(0)));
        assert_eq!(
            (
                f.depth(BlockId(4)),
                f.depth(BlockId(2)),
                f.depth(BlockId(6))
            ),
            (2, 1, 0)
        );
        assert_eq!(
            f.enclosing(BlockId(4)).collect::<Vec<_>>(),
            vec![LoopId(1), LoopId(0)]
        );
        assert!(outer.contains(BlockId(4)) && !inner.contains(BlockId(5)));
    }

    #[test]
    fn back_edges_to_one_header_form_one_loop() {
        let f = forest(&[&[1], &[2, 4], &[1, 3], &[1], &[]]);
        assert_eq!(f.loops.len(), 1);
        assert_eq!(f.loops[0].latches, blocks(&[2, 3]));
        assert_eq!(f.loops[0].blocks, blocks(&[1, 2, 3]));
    }

    #[test]
    fn sibling_loops_are_both_roots() {
        let f = forest(&[&[1], &[2, 3], &[1], &[4], &[5, 6], &[4], &[]]);
        assert_eq!(f.roots, vec![LoopId(0), LoopId(1)]);
        assert_eq!(f.loops[1].header, BlockId(4));
        assert_eq!(f.loops[1].parent, None);
    }

    #[test]
    fn self_loop() {
        let f = forest(&[&[1], &[1, 2], &[]]);
        assert_eq!(f.loops[0].blocks, blocks(&[1]));
        assert_eq!(f.loops[0].latches, blocks(&[1]));
    }

    #[test]
    fn irreducible_cycle_forms_no_loop() {
        let f = forest(&[&[1, 2], &[2], &[1, 3], &[]]);
        assert!(f.loops.is_empty());
        assert!(!f.is_reducible());
        assert_eq!(f.irreducible_edges, vec![(BlockId(1), BlockId(2))]);
    }

    #[test]
    fn unreachable_blocks_are_in_no_loop() {
        // 3 is unreachable and jumps into the loop body; 4 is an unreachable self-loop.
        let f = forest(&[&[1], &[2, 5], &[1], &[2], &[4], &[]]);
        assert_eq!(f.loops.len(), 1);
        assert_eq!(f.loops[0].blocks, blocks(&[1, 2]));
        assert_eq!(f.innermost(BlockId(3)), None);
        assert_eq!(f.innermost(BlockId(4)), None);
    }
}
