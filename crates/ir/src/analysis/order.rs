//! Reverse postorder of a function's blocks: the iteration order of forward data-flow analyses
//! and the numbering that lowering gives blocks.

use super::graph::Graph;
use crate::cfg::{BlockId, Function};

/// The blocks reachable from the entry in reverse postorder; a `then` successor comes before
/// its `else` when nothing else orders them. Unreachable blocks are left out.
pub fn reverse_postorder(func: &Function) -> Vec<BlockId> {
    if func.blocks.is_empty() {
        return Vec::new();
    }
    Graph::forward(func)
        .reverse_postorder(Function::ENTRY.0)
        .into_iter()
        .map(BlockId)
        .collect()
}

/// The position of every block in [`reverse_postorder`], `None` for unreachable blocks.
pub fn rpo_numbers(func: &Function) -> Vec<Option<u32>> {
    let mut numbers = vec![None; func.blocks.len()];
    for (i, b) in reverse_postorder(func).into_iter().enumerate() {
        numbers[b.index()] = Some(i as u32);
    }
    numbers
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{blocks, graph};

    #[test]
    fn then_comes_before_else_and_join_last() {
        let diamond = graph(&[&[1, 2], &[3], &[3], &[]]);
        assert_eq!(reverse_postorder(&diamond), blocks(&[0, 1, 2, 3]));
        let swapped = graph(&[&[2, 1], &[3], &[3], &[]]);
        assert_eq!(reverse_postorder(&swapped), blocks(&[0, 2, 1, 3]));
    }

    #[test]
    fn loop_body_before_exit() {
        let f = graph(&[&[1], &[2, 3], &[1], &[]]);
        assert_eq!(reverse_postorder(&f), blocks(&[0, 1, 2, 3]));
    }

    #[test]
    fn unreachable_blocks_are_left_out() {
        let f = graph(&[&[2], &[2], &[]]);
        assert_eq!(reverse_postorder(&f), blocks(&[0, 2]));
        assert_eq!(rpo_numbers(&f), vec![Some(0), None, Some(1)]);
    }

    #[test]
    fn deep_chains_do_not_recurse() {
        let succs: Vec<Vec<u32>> = (0..100_000u32)
            .map(|i| if i + 1 < 100_000 { vec![i + 1] } else { vec![] })
            .collect();
        let refs: Vec<&[u32]> = succs.iter().map(|s| s.as_slice()).collect();
        let order = reverse_postorder(&graph(&refs));
        assert_eq!(order.len(), 100_000);
        assert_eq!(order[99_999], BlockId(99_999));
    }
}
