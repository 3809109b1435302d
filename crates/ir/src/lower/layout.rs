//! The last step of lowering: blocks renumbered in reverse postorder (the entry stays `bb0`, a
//! `then` branch comes before its `else`, a loop body before its exit), and blocks unreachable
//! from the entry dropped, so printed CFGs read top to bottom and every analysis sees only
//! reachable blocks.

use crate::analysis::reverse_postorder;
use crate::cfg::*;

/// `func` with its blocks renumbered in reverse postorder, unreachable blocks dropped.
pub fn in_reverse_postorder(func: Function) -> Function {
    renumbered(func).0
}

/// `func` with its blocks in reverse postorder, and each old block's new id (`None` for a
/// block unreachable from the entry, which is dropped). Also used by `transform::unwind`.
pub(crate) fn renumbered(mut func: Function) -> (Function, Vec<Option<BlockId>>) {
    let order = reverse_postorder(&func);
    let mut new_id = vec![None; func.blocks.len()];
    for (i, &old) in order.iter().enumerate() {
        new_id[old.index()] = Some(BlockId(i as u32));
    }
    let renumber = |b: BlockId| new_id[b.index()].unwrap_or(b);
    let mut old_blocks: Vec<Option<Block>> = func.blocks.drain(..).map(Some).collect();
    func.blocks = order
        .iter()
        .filter_map(|&old| old_blocks[old.index()].take())
        .map(|mut block| {
            block.term = match block.term {
                Terminator::Goto(t) => Terminator::Goto(renumber(t)),
                Terminator::Branch {
                    cond,
                    then_block,
                    else_block,
                } => Terminator::Branch {
                    cond,
                    then_block: renumber(then_block),
                    else_block: renumber(else_block),
                },
                Terminator::Return(value) => Terminator::Return(value),
            };
            block
        })
        .collect();
    (func, new_id)
}
