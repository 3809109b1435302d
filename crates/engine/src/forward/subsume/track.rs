//! The blocks a state has run, kept for path subsumption: when the path ends, the annotation is
//! carried back along them (`wp.rs`).
//!
//! One entry per block visit, and one more each time a call returns into the middle of a block;
//! which instructions of the block ran follows from the next entry. Forked states share the
//! common prefix (`Rc`), so recording costs one node per block and forking costs nothing.
//! Nothing here computes annotations.

use std::rc::Rc;

use symex_ir::cfg::{BlockId, FuncId};

use crate::forward::state::State;

/// Where a run of one block began.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Visit {
    pub func: FuncId,
    pub block: BlockId,
    /// The first instruction run (0 unless a call returned into the block).
    pub start: usize,
    /// Frames on the stack, the visited one included.
    pub depth: usize,
    /// The interned return sites of the callers (`Subsumption::context`).
    pub context: u32,
    /// `input`s read before the visit.
    pub inputs_read: u32,
}

#[derive(Debug)]
struct Node {
    visit: Visit,
    prev: Option<Rc<Node>>,
}

impl Drop for Node {
    /// Unlinks iteratively: a long path must not overflow the stack when it is dropped.
    fn drop(&mut self) {
        let mut next = self.prev.take();
        while let Some(node) = next {
            match Rc::try_unwrap(node) {
                Ok(mut node) => next = node.prev.take(),
                Err(_) => break,
            }
        }
    }
}

/// A state's visits, newest first.
#[derive(Clone, Debug, Default)]
pub struct Track {
    last: Option<Rc<Node>>,
}

impl Track {
    /// The newest visit.
    pub fn last(&self) -> Option<&Visit> {
        self.last.as_deref().map(|n| &n.visit)
    }

    pub fn push(&mut self, visit: Visit) {
        let prev = self.last.take();
        self.last = Some(Rc::new(Node { visit, prev }));
    }

    /// The visits, newest first.
    pub fn newest_first(&self) -> impl Iterator<Item = &Visit> {
        std::iter::successors(self.last.as_deref(), |n| n.prev.as_deref()).map(|n| &n.visit)
    }
}

/// Whether the state is about to begin a new visit: at a block's first instruction, or back in
/// a caller's block after a return.
pub fn begins_visit(state: &State) -> bool {
    let Some(frame) = state.frame() else {
        return false;
    };
    frame.inst == 0
        || state.annotation_track.last().is_none_or(|v| {
            v.depth != state.stack.len() || v.func != frame.func || v.block != frame.block
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn visit(block: u32) -> Visit {
        Visit {
            func: FuncId(0),
            block: BlockId(block),
            start: 0,
            depth: 1,
            context: 0,
            inputs_read: 0,
        }
    }

    #[test]
    fn forks_share_their_prefix_and_long_tracks_drop() {
        let mut a = Track::default();
        a.push(visit(0));
        let mut b = a.clone();
        a.push(visit(1));
        b.push(visit(2));
        let blocks = |t: &Track| t.newest_first().map(|v| v.block.0).collect::<Vec<_>>();
        assert_eq!(blocks(&a), [1, 0]);
        assert_eq!(blocks(&b), [2, 0]);
        let mut long = Track::default();
        for i in 0..1_000_000 {
            long.push(visit(i % 7));
        }
        drop(long);
    }
}
