//! Breadth-first search: the oldest state runs; a state that forked goes to the back of the
//! queue, behind its children (KLEE's BFS), so paths advance one fork level at a time.

use std::collections::VecDeque;

use crate::forward::search::{SearchView, Searcher};
use crate::forward::state::StateId;

#[derive(Debug, Default)]
pub struct Bfs {
    queue: VecDeque<StateId>,
}

impl Searcher for Bfs {
    fn update(&mut self, current: Option<StateId>, added: &[StateId], removed: &[StateId]) {
        self.queue.extend(added);
        if let Some(c) = current {
            if !added.is_empty() && !removed.contains(&c) {
                if let Some(at) = self.queue.iter().position(|&s| s == c) {
                    self.queue.remove(at);
                    self.queue.push_back(c);
                }
            }
        }
        for id in removed {
            if self.queue.front() == Some(id) {
                self.queue.pop_front();
            } else if let Some(at) = self.queue.iter().position(|s| s == id) {
                self.queue.remove(at);
            }
        }
    }

    fn select(&mut self, _view: &SearchView<'_>) -> Option<StateId> {
        self.queue.front().copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::forward::search::testing::selection_order;

    #[test]
    fn runs_states_level_by_level() {
        let order = selection_order(&mut Bfs::default(), 8);
        assert_eq!(order, vec![0, 1, 0, 2, 1, 3, 2, 4]);
    }
}
