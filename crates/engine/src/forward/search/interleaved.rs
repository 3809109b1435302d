//! Several strategies taking turns, one selection each (KLEE's interleaved searcher; `klee`
//! interleaves random-path and coverage). Every strategy sees every update.

use crate::forward::search::{SearchView, Searcher};
use crate::forward::state::StateId;

pub struct Interleaved {
    searchers: Vec<Box<dyn Searcher>>,
    turn: usize,
}

impl Interleaved {
    pub fn new(searchers: Vec<Box<dyn Searcher>>) -> Interleaved {
        Interleaved { searchers, turn: 0 }
    }
}

impl Searcher for Interleaved {
    fn update(&mut self, current: Option<StateId>, added: &[StateId], removed: &[StateId]) {
        for s in &mut self.searchers {
            s.update(current, added, removed);
        }
    }

    fn resume(&mut self, resumed: &[StateId]) {
        for s in &mut self.searchers {
            s.resume(resumed);
        }
    }

    fn select(&mut self, view: &SearchView<'_>) -> Option<StateId> {
        let count = self.searchers.len();
        let searcher = self.searchers.get_mut(self.turn % count.max(1))?;
        self.turn = self.turn.wrapping_add(1);
        searcher.select(view)
    }

    fn draws_at_random(&self) -> bool {
        self.searchers.iter().any(|s| s.draws_at_random())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::forward::search::bfs::Bfs;
    use crate::forward::search::dfs::Dfs;
    use crate::forward::search::testing::{first_selection, selection_order};

    #[test]
    fn strategies_take_turns() {
        let mut both = Interleaved::new(vec![Box::new(Bfs::default()), Box::new(Dfs::default())]);
        let order = selection_order(&mut both, 4);
        // bfs picks 0, dfs the newest (1), bfs the front of its queue again (0, which the
        // fork moved behind 1, and 1 behind 2 after it forked).
        assert_eq!(&order[..3], &[0, 1, 0]);
    }

    #[test]
    fn every_strategy_resumes_as_it_would_alone() {
        let mut alone = Dfs::default();
        let mut both = Interleaved::new(vec![Box::new(Dfs::default()), Box::new(Bfs::default())]);
        for searcher in [&mut alone as &mut dyn Searcher, &mut both] {
            searcher.update(None, &[0, 1], &[]);
            searcher.update(Some(1), &[], &[1, 0]);
            searcher.resume(&[1, 0]);
        }
        // Depth-first takes the first turn: the first state to wait, as alone.
        assert_eq!(first_selection(&mut both), first_selection(&mut alone));
        assert_eq!(first_selection(&mut alone), Some(1));
    }
}
