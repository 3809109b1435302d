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
}
