//! A function's control-flow graph as plain adjacency lists over `u32` nodes, forward or
//! reversed (with a virtual exit), so that one dominator algorithm serves both directions.

use crate::cfg::{Function, Terminator};

pub(super) struct Graph {
    pub succs: Vec<Vec<u32>>,
    pub preds: Vec<Vec<u32>>,
}

impl Graph {
    /// Node `i` is block `i`; successor lists keep the terminator's order (then, else).
    pub fn forward(func: &Function) -> Graph {
        let succs: Vec<Vec<u32>> = func
            .blocks
            .iter()
            .map(|b| b.successors().map(|s| s.0).collect())
            .collect();
        Graph::from_succs(succs)
    }

    /// The reversed graph plus node `blocks.len()`, the virtual exit, whose successors are the
    /// blocks ending in `Return`.
    pub fn backward_with_exit(func: &Function) -> Graph {
        let n = func.blocks.len();
        let mut succs = vec![Vec::new(); n + 1];
        for (i, block) in func.blocks.iter().enumerate() {
            for s in block.successors() {
                succs[s.index()].push(i as u32);
            }
            if matches!(block.term, Terminator::Return(_)) {
                succs[n].push(i as u32);
            }
        }
        Graph::from_succs(succs)
    }

    fn from_succs(mut succs: Vec<Vec<u32>>) -> Graph {
        let mut preds = vec![Vec::new(); succs.len()];
        for (i, list) in succs.iter_mut().enumerate() {
            // A branch with both arms to one block is one edge for these analyses; its two
            // copies are adjacent in every list built above.
            list.dedup();
            for &s in list.iter() {
                preds[s as usize].push(i as u32);
            }
        }
        Graph { succs, preds }
    }

    pub fn len(&self) -> usize {
        self.succs.len()
    }

    /// Nodes reachable from `root`, in reverse postorder of a depth-first search that visits
    /// successors last-to-first, so that the order lists a node's successors in list order
    /// when nothing else constrains them (a `then` block before its `else`).
    pub fn reverse_postorder(&self, root: u32) -> Vec<u32> {
        if root as usize >= self.len() {
            return Vec::new();
        }
        let mut visited = vec![false; self.len()];
        let mut postorder = Vec::with_capacity(self.len());
        let mut stack: Vec<(u32, usize)> = vec![(root, self.succs[root as usize].len())];
        visited[root as usize] = true;
        while let Some(top) = stack.last_mut() {
            let (node, remaining) = *top;
            if remaining == 0 {
                postorder.push(node);
                stack.pop();
                continue;
            }
            top.1 -= 1;
            let next = self.succs[node as usize][remaining - 1];
            if !visited[next as usize] {
                visited[next as usize] = true;
                stack.push((next, self.succs[next as usize].len()));
            }
        }
        postorder.reverse();
        postorder
    }
}
