//! Depth-first search: the newest state runs, so one path is followed to its end before its
//! siblings; memory stays small, but a long loop can hold the search.

use crate::forward::search::{SearchView, Searcher};
use crate::forward::state::StateId;

#[derive(Debug, Default)]
pub struct Dfs {
    stack: Vec<StateId>,
}

impl Searcher for Dfs {
    fn update(&mut self, _current: Option<StateId>, added: &[StateId], removed: &[StateId]) {
        self.stack.extend(added);
        for id in removed {
            if self.stack.last() == Some(id) {
                self.stack.pop();
            } else if let Some(at) = self.stack.iter().rposition(|s| s == id) {
                self.stack.remove(at);
            }
        }
    }

    /// The first to wait goes on top: without waiting it would have run on at once, before
    /// every state forked while it waited. Put back as forked (the last to wait on top), a
    /// state that unrolled an unbounded inner loop ran on forever above the one whose path
    /// the search without `--subsume` follows to a violation in milliseconds (BENCHMARKS.md,
    /// "Does `--subsume` lose violations?").
    fn resume(&mut self, resumed: &[StateId]) {
        self.stack.extend(resumed.iter().rev());
    }

    fn select(&mut self, _view: &SearchView<'_>) -> Option<StateId> {
        self.stack.last().copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::forward::search::testing::selection_order;

    #[test]
    fn follows_the_newest_state() {
        let order = selection_order(&mut Dfs::default(), 6);
        assert_eq!(order, vec![0, 1, 2, 1, 3, 4]);
    }

    #[test]
    fn resumes_the_first_state_to_wait_first() {
        let mut dfs = Dfs::default();
        dfs.update(None, &[0, 1], &[]);
        // 1 and then 0 parked; 2 was forked meanwhile and is still running.
        dfs.update(Some(1), &[], &[1, 0]);
        dfs.update(None, &[2], &[]);
        dfs.resume(&[1, 0]);
        assert_eq!(dfs.stack, vec![2, 0, 1]);
    }
}
