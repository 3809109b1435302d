//! The dominator tree of a rooted graph, by the iterative algorithm of Cooper, Harvey and
//! Kennedy ("A Simple, Fast Dominance Algorithm", 2001) over reverse postorder, with dominance
//! frontiers and constant-time dominance queries (pre/post numbering of the tree).
//!
//! Generic over [`Graph`] so that dominators (forward graph, entry root) and post-dominators
//! (reversed graph, virtual-exit root) share it. Nodes unreachable from the root are outside
//! the tree: no immediate dominator, dominated by nothing, dominating nothing.

use super::graph::Graph;

const NONE: u32 = u32::MAX;

pub(super) struct DomTree {
    graph: Graph,
    root: u32,
    /// Immediate dominator; the root's is itself; `NONE` outside the tree.
    idom: Vec<u32>,
    order: Vec<u32>,
    rpo_index: Vec<u32>,
    children: Vec<Vec<u32>>,
    /// Entry and exit times of a depth-first walk of the tree.
    enter: Vec<u32>,
    leave: Vec<u32>,
}

impl DomTree {
    pub fn build(graph: Graph, root: u32) -> DomTree {
        let n = graph.len();
        if root as usize >= n {
            // An empty function: nothing is in the tree.
            return DomTree {
                graph,
                root,
                idom: Vec::new(),
                order: Vec::new(),
                rpo_index: Vec::new(),
                children: Vec::new(),
                enter: Vec::new(),
                leave: Vec::new(),
            };
        }
        let order = graph.reverse_postorder(root);
        let mut rpo_index = vec![NONE; n];
        for (i, &b) in order.iter().enumerate() {
            rpo_index[b as usize] = i as u32;
        }
        let mut idom = vec![NONE; n];
        idom[root as usize] = root;
        let mut changed = true;
        while changed {
            changed = false;
            for &b in order.iter().skip(1) {
                let mut new_idom = NONE;
                for &p in &graph.preds[b as usize] {
                    if idom[p as usize] == NONE {
                        continue;
                    }
                    new_idom = if new_idom == NONE {
                        p
                    } else {
                        intersect(&idom, &rpo_index, p, new_idom)
                    };
                }
                if idom[b as usize] != new_idom {
                    idom[b as usize] = new_idom;
                    changed = true;
                }
            }
        }
        let mut children = vec![Vec::new(); n];
        for &b in order.iter().skip(1) {
            children[idom[b as usize] as usize].push(b);
        }
        let (enter, leave) = number_tree(&children, root, n);
        DomTree {
            graph,
            root,
            idom,
            order,
            rpo_index,
            children,
            enter,
            leave,
        }
    }

    pub fn in_tree(&self, node: u32) -> bool {
        self.idom[node as usize] != NONE
    }

    /// The immediate dominator; `None` for the root and for nodes outside the tree.
    pub fn idom(&self, node: u32) -> Option<u32> {
        match self.idom[node as usize] {
            NONE => None,
            _ if node == self.root => None,
            d => Some(d),
        }
    }

    /// Whether every path from the root to `b` goes through `a` (reflexive).
    pub fn dominates(&self, a: u32, b: u32) -> bool {
        self.in_tree(a)
            && self.in_tree(b)
            && self.enter[a as usize] <= self.enter[b as usize]
            && self.leave[b as usize] <= self.leave[a as usize]
    }

    pub fn children(&self, node: u32) -> &[u32] {
        &self.children[node as usize]
    }

    /// Nodes of the tree in reverse postorder of the graph.
    pub fn order(&self) -> &[u32] {
        &self.order
    }

    pub fn rpo_index(&self, node: u32) -> Option<u32> {
        match self.rpo_index[node as usize] {
            NONE => None,
            i => Some(i),
        }
    }

    pub fn graph(&self) -> &Graph {
        &self.graph
    }

    /// The dominance frontier of every node, each sorted: the nodes where its dominance ends
    /// (Cooper, Harvey and Kennedy's "runner" formulation).
    pub fn frontiers(&self) -> Vec<Vec<u32>> {
        let mut frontiers: Vec<Vec<u32>> = vec![Vec::new(); self.graph.len()];
        for &b in &self.order {
            let preds = &self.graph.preds[b as usize];
            if preds.len() < 2 {
                continue;
            }
            let stop = self.idom[b as usize];
            for &p in preds {
                let mut runner = p;
                while self.in_tree(runner) && runner != stop {
                    let list = &mut frontiers[runner as usize];
                    if list.last() == Some(&b) {
                        break;
                    }
                    list.push(b);
                    runner = self.idom[runner as usize];
                }
            }
        }
        for list in &mut frontiers {
            list.sort_unstable();
        }
        frontiers
    }
}

fn intersect(idom: &[u32], rpo_index: &[u32], mut a: u32, mut b: u32) -> u32 {
    while a != b {
        while rpo_index[a as usize] > rpo_index[b as usize] {
            a = idom[a as usize];
        }
        while rpo_index[b as usize] > rpo_index[a as usize] {
            b = idom[b as usize];
        }
    }
    a
}

/// Entry/exit numbers of an iterative depth-first walk of the tree.
fn number_tree(children: &[Vec<u32>], root: u32, n: usize) -> (Vec<u32>, Vec<u32>) {
    let mut enter = vec![NONE; n];
    let mut leave = vec![NONE; n];
    let mut clock = 0;
    let mut stack: Vec<(u32, usize)> = vec![(root, 0)];
    enter[root as usize] = clock;
    clock += 1;
    while let Some(top) = stack.last_mut() {
        let (node, next) = *top;
        if let Some(&child) = children[node as usize].get(next) {
            top.1 += 1;
            enter[child as usize] = clock;
            clock += 1;
            stack.push((child, 0));
        } else {
            leave[node as usize] = clock;
            clock += 1;
            stack.pop();
        }
    }
    (enter, leave)
}
