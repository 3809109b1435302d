//! The execution tree (seed 002 §3, KLEE's process tree): every fork makes the forking state's
//! leaf an inner node whose children are the leaves of the resulting states.
//!
//! Random-path search walks it from the root, choosing a child uniformly at each inner node,
//! so a state's chance is 2^-depth rather than 1/#states: states deep in a loop-heavy subtree do
//! not starve the rest. Ended states' leaves are removed, inner nodes left without children
//! with them, and an inner node left with one child is replaced by that child. A state that
//! waits (parked at a loop header by `--subsume`) keeps its leaf, *suspended*: walks pass by
//! subtrees without a runnable leaf, and when it runs again it is drawn as often as before it
//! waited (re-inserting it at the root made every released state as likely as half the tree,
//! which sent the search round loops). Nothing here executes or owns states.
//!
//! A walk's choice at a node is drawn from the node's *key* (a hash of the branches from the
//! root to it, not of the order nodes were made in) and how often walks have passed the node,
//! not from one stream for the whole tree. So what happens in one subtree never shifts the
//! draws in another: when `--subsume` ends or parks the states of one subtree, every other
//! subtree is explored in the same order as without it, only entered at least as often. With
//! one stream, every state subsumption removed changed every later choice, and a random
//! search found a violation later (or not within its time) in some runs (issue 26).

use std::cell::Cell;

use rustc_hash::FxHashMap;

use crate::common::rng::mix;
use crate::forward::state::StateId;

#[derive(Debug)]
struct Node {
    parent: Option<usize>,
    children: Vec<usize>,
    /// Set on leaves: the live state they stand for.
    state: Option<StateId>,
    /// How many leaves of this subtree are runnable (not suspended).
    runnable: u32,
    /// Where the node stands: a hash of the branches taken from the root to it.
    key: u64,
    /// How many walks have passed this inner node (drawn from, with `key`).
    walks: Cell<u64>,
}

#[derive(Debug, Default)]
pub struct ExecTree {
    nodes: Vec<Node>,
    free: Vec<usize>,
    root: Option<usize>,
    leaf_of: FxHashMap<StateId, usize>,
    /// Off for searches that never walk the tree: a fork updates the counts of every node
    /// above it, which on a path of 100,000 pending forks (depth-first search through a loop
    /// over a large array) costs more than the rest of the search.
    untracked: bool,
    /// For an untracked tree that keys its states ([`ExecTree::keyed`]): each live state's
    /// key, derived at each fork as a leaf's is (states put back by [`ExecTree::insert`] get
    /// keys of their own).
    keys: Option<FxHashMap<StateId, u64>>,
    /// How many states [`ExecTree::insert`] has put under the root, which keys them.
    inserted: u64,
}

impl ExecTree {
    pub fn new(root_state: StateId) -> ExecTree {
        let mut tree = ExecTree::default();
        let root = tree.new_node(None, Some(root_state), ROOT_KEY);
        tree.root = Some(root);
        tree
    }

    /// A tree that records nothing, for searches that do not draw from it
    /// ([`ExecTree::random_leaf`] finds no leaf).
    pub fn untracked() -> ExecTree {
        ExecTree {
            untracked: true,
            ..ExecTree::default()
        }
    }

    /// A tree that records only its states' keys ([`ExecTree::key_of`]), for searches that
    /// draw per state but never walk: one map entry per fork instead of a count per node above.
    pub fn keyed(root_state: StateId) -> ExecTree {
        let keys = [(root_state, ROOT_KEY)].into_iter().collect();
        ExecTree {
            keys: Some(keys),
            ..ExecTree::untracked()
        }
    }

    /// Where `state` stands: a hash of the branches taken from the root to it, the same
    /// whatever else was forked, parked or ended meanwhile. `None` for a state the tree does
    /// not know (every state, in an untracked tree that keys nothing).
    pub fn key_of(&self, state: StateId) -> Option<u64> {
        match &self.keys {
            Some(keys) => keys.get(&state).copied(),
            None => self.leaf_of.get(&state).map(|&leaf| self.nodes[leaf].key),
        }
    }

    fn new_node(&mut self, parent: Option<usize>, state: Option<StateId>, key: u64) -> usize {
        let node = Node {
            parent,
            children: Vec::new(),
            state,
            runnable: u32::from(state.is_some()),
            key,
            walks: Cell::new(0),
        };
        let index = match self.free.pop() {
            Some(i) => {
                self.nodes[i] = node;
                i
            }
            None => {
                self.nodes.push(node);
                self.nodes.len() - 1
            }
        };
        if let Some(s) = state {
            self.leaf_of.insert(s, index);
        }
        index
    }

    /// `state` forked into itself and `others`.
    pub fn fork(&mut self, state: StateId, others: &[StateId]) {
        if let Some(keys) = &mut self.keys {
            if let (Some(&key), false) = (keys.get(&state), others.is_empty()) {
                keys.insert(state, mix(key, 0));
                for (branch, &other) in (1..).zip(others) {
                    keys.insert(other, mix(key, branch));
                }
            }
        }
        if self.untracked {
            return;
        }
        let Some(&leaf) = self.leaf_of.get(&state) else {
            return;
        };
        if others.is_empty() {
            return;
        }
        self.nodes[leaf].state = None;
        let key = self.nodes[leaf].key;
        let first = self.new_node(Some(leaf), Some(state), mix(key, 0));
        self.nodes[first].runnable = self.nodes[leaf].runnable;
        self.nodes[leaf].children.push(first);
        for (branch, &other) in (1..).zip(others) {
            let child = self.new_node(Some(leaf), Some(other), mix(key, branch));
            self.nodes[leaf].children.push(child);
        }
        self.add_runnable(leaf, others.len() as i64);
    }

    /// Adds `delta` to the runnable count of `node` and of every node above it.
    fn add_runnable(&mut self, node: usize, delta: i64) {
        let mut at = Some(node);
        while let Some(n) = at {
            let count = &mut self.nodes[n].runnable;
            *count = (i64::from(*count) + delta) as u32;
            at = self.nodes[n].parent;
        }
    }

    /// `state` waits: walks pass its leaf by until [`ExecTree::resume`].
    pub fn suspend(&mut self, state: StateId) {
        if let Some(&leaf) = self.leaf_of.get(&state) {
            if self.nodes[leaf].runnable == 1 {
                self.add_runnable(leaf, -1);
            }
        }
    }

    /// `state` runs again, where it stood in the tree.
    pub fn resume(&mut self, state: StateId) {
        if let Some(&leaf) = self.leaf_of.get(&state) {
            if self.nodes[leaf].runnable == 0 {
                self.add_runnable(leaf, 1);
            }
        }
    }

    /// `state` (back from waiting at a merge point) becomes a leaf again, a child of the root.
    pub fn insert(&mut self, state: StateId) {
        if let Some(keys) = &mut self.keys {
            self.inserted += 1;
            keys.entry(state)
                .or_insert(mix(ROOT_KEY, u64::MAX - self.inserted));
        }
        if self.untracked || self.leaf_of.contains_key(&state) {
            return;
        }
        self.inserted += 1;
        let Some(root) = self.root else {
            let root = self.new_node(None, Some(state), mix(ROOT_KEY, self.inserted));
            self.root = Some(root);
            return;
        };
        if let Some(s) = self.nodes[root].state {
            self.fork(s, &[state]);
        } else {
            // Counted down from the top: never a fork's branch number (0, 1, 2, ...).
            let key = mix(self.nodes[root].key, u64::MAX - self.inserted);
            let leaf = self.new_node(Some(root), Some(state), key);
            self.nodes[root].children.push(leaf);
            self.add_runnable(root, 1);
        }
    }

    /// `state` ended: its leaf goes, and so do inner nodes left empty; an inner node left with
    /// one child is replaced by that child (a walk would take it with certainty anyway), so a
    /// walk's length is the number of live forks above a state, not of every fork ever made.
    pub fn remove(&mut self, state: StateId) {
        if let Some(keys) = &mut self.keys {
            keys.remove(&state);
        }
        let Some(mut node) = self.leaf_of.remove(&state) else {
            return;
        };
        let runnable = self.nodes[node].runnable;
        self.add_runnable(node, -i64::from(runnable));
        self.nodes[node].state = None;
        loop {
            let parent = self.nodes[node].parent;
            self.free.push(node);
            match parent {
                Some(p) => {
                    self.nodes[p].children.retain(|&c| c != node);
                    match self.nodes[p].children.as_slice() {
                        [] => node = p,
                        &[only] => return self.splice_out(p, only),
                        _ => return,
                    }
                }
                None => {
                    self.root = None;
                    return;
                }
            }
        }
    }

    /// Puts `child`, the only child of the inner node `node`, in `node`'s place.
    fn splice_out(&mut self, node: usize, child: usize) {
        let grandparent = self.nodes[node].parent;
        self.nodes[child].parent = grandparent;
        match grandparent {
            Some(g) => {
                for c in &mut self.nodes[g].children {
                    if *c == node {
                        *c = child;
                    }
                }
            }
            None => self.root = Some(child),
        }
        self.nodes[node].children.clear();
        self.free.push(node);
    }

    /// How many inner nodes lie above `state`'s leaf.
    #[cfg(test)]
    fn depth_of(&self, state: StateId) -> Option<usize> {
        let mut node = *self.leaf_of.get(&state)?;
        let mut depth = 0;
        while let Some(parent) = self.nodes[node].parent {
            depth += 1;
            node = parent;
        }
        Some(depth)
    }

    /// A runnable state reached by a random walk from the root, choosing uniformly among the
    /// children with a runnable leaf below. The choice at a node is drawn from `seed`, the
    /// node's key and how often walks passed it; a drawn child without a runnable leaf is
    /// replaced by a second draw among those with one, so a child that is there in two runs is
    /// taken in the second at least whenever it was in the first.
    pub fn random_leaf(&self, seed: u64) -> Option<StateId> {
        let mut node = self.root?;
        loop {
            let n = &self.nodes[node];
            if n.runnable == 0 {
                return None;
            }
            if let Some(state) = n.state {
                return Some(state);
            }
            let walks = n.walks.get();
            n.walks.set(walks + 1);
            let draw = mix(mix(seed, n.key), walks);
            let first = n.children[(draw % n.children.len() as u64) as usize];
            node = if self.nodes[first].runnable > 0 {
                first
            } else {
                let open = n.children.iter().filter(|&&c| self.nodes[c].runnable > 0);
                let second = mix(draw, 1) % open.clone().count() as u64;
                *open.clone().nth(second as usize)?
            };
        }
    }
}

/// The root's key; any constant does.
const ROOT_KEY: u64 = 0x5EED_F7EE;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forks_and_removals_keep_the_leaves_live() {
        let mut tree = ExecTree::new(0);
        tree.fork(0, &[1]);
        tree.fork(1, &[2, 3]);
        let seed = 1;
        for _ in 0..50 {
            let s = tree.random_leaf(seed).unwrap();
            assert!(s <= 3);
        }
        tree.remove(0);
        for _ in 0..50 {
            assert_ne!(tree.random_leaf(seed), Some(0));
        }
        tree.remove(1);
        tree.remove(2);
        assert_eq!(tree.random_leaf(seed), Some(3));
        tree.remove(3);
        assert_eq!(tree.random_leaf(seed), None);
        tree.insert(4);
        assert_eq!(tree.random_leaf(seed), Some(4));
        tree.insert(5);
        tree.remove(4);
        assert_eq!(tree.random_leaf(seed), Some(5));
        tree.fork(5, &[6]);
        tree.insert(7);
        let seen: Vec<_> = (0..50).filter_map(|_| tree.random_leaf(seed)).collect();
        assert!(seen.contains(&7) && seen.contains(&6));
    }

    #[test]
    fn an_inner_node_left_with_one_child_is_replaced_by_it() {
        let mut tree = ExecTree::new(0);
        tree.fork(0, &[1]);
        tree.fork(1, &[2]);
        tree.remove(0);
        // Only the fork of 1 into 1 and 2 is left: each is drawn about half the time.
        let seed = 5;
        let ones = (0..1000)
            .filter(|_| tree.random_leaf(seed) == Some(1))
            .count();
        assert!((400..600).contains(&ones), "{ones}");
        assert_eq!(tree.depth_of(1), Some(1));
        tree.remove(2);
        assert_eq!(tree.depth_of(1), Some(0));
        assert_eq!(tree.random_leaf(seed), Some(1));
        tree.fork(1, &[3]);
        let seen: Vec<_> = (0..50).filter_map(|_| tree.random_leaf(seed)).collect();
        assert!(seen.contains(&1) && seen.contains(&3));
    }

    #[test]
    fn a_shallow_state_is_picked_about_half_the_time() {
        let mut tree = ExecTree::new(0);
        tree.fork(0, &[1]);
        tree.fork(1, &[2]);
        tree.fork(2, &[3]);
        let seed = 9;
        let zeros = (0..1000)
            .filter(|_| tree.random_leaf(seed) == Some(0))
            .count();
        assert!((400..600).contains(&zeros), "{zeros}");
    }

    #[test]
    fn a_suspended_state_is_never_drawn_and_comes_back_in_its_place() {
        let mut tree = ExecTree::new(0);
        tree.fork(0, &[1]);
        tree.fork(1, &[2]);
        tree.suspend(0);
        let seed = 3;
        for _ in 0..100 {
            assert_ne!(tree.random_leaf(seed), Some(0));
        }
        tree.suspend(1);
        tree.suspend(2);
        assert_eq!(tree.random_leaf(seed), None);
        tree.resume(0);
        tree.resume(1);
        tree.resume(2);
        // Back at depth 1 (not re-inserted at the root): drawn about half the time.
        let zeros = (0..1000)
            .filter(|_| tree.random_leaf(seed) == Some(0))
            .count();
        assert!((400..600).contains(&zeros), "{zeros}");
        tree.suspend(2);
        tree.remove(2);
        let seen: Vec<_> = (0..50).filter_map(|_| tree.random_leaf(seed)).collect();
        assert!(seen.contains(&0) && seen.contains(&1));
    }

    #[test]
    fn a_subtree_is_walked_in_the_same_order_whatever_happens_beside_it() {
        let grow = || {
            let mut tree = ExecTree::new(0);
            tree.fork(0, &[1]);
            tree.fork(0, &[2]);
            tree.fork(2, &[4, 5]);
            tree.fork(1, &[3]);
            tree
        };
        let both = grow();
        let mut alone = grow();
        alone.suspend(1);
        alone.remove(3);
        let subtree = [0, 2, 4, 5];
        let inside: Vec<_> = (0..400)
            .filter_map(|_| both.random_leaf(11))
            .filter(|s| subtree.contains(s))
            .collect();
        let only: Vec<_> = (0..400).filter_map(|_| alone.random_leaf(11)).collect();
        assert!(inside.len() > 100 && only.len() == 400);
        assert_eq!(inside[..], only[..inside.len()]);
    }

    #[test]
    fn a_keyed_tree_keys_states_as_a_walked_one_does() {
        let grow = |tree: &mut ExecTree| {
            tree.fork(0, &[1]);
            tree.fork(1, &[2, 3]);
            tree.remove(0);
            tree.fork(3, &[4]);
        };
        let (mut walked, mut keyed) = (ExecTree::new(0), ExecTree::keyed(0));
        grow(&mut walked);
        grow(&mut keyed);
        for state in 1..=4 {
            assert!(keyed.key_of(state).is_some());
            assert_eq!(keyed.key_of(state), walked.key_of(state));
        }
        assert_eq!(keyed.key_of(0), None);
        assert_eq!(ExecTree::untracked().key_of(0), None);
    }
}
