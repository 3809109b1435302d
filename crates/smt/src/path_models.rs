//! Models kept per path: `sat` answers about a long path condition in the time of its last
//! few constraints.
//!
//! Every other layer of the query engine looks at the whole path condition for each question
//! (independence, the cache's key, model reuse's groups), which is right for short paths and
//! costs the path's length for long ones: a loop that branches on each of 100,000 array
//! elements asks 100,000 questions on one path, each about a path condition up to 100,000
//! constraints long. Here a model of a whole path condition is kept under the number of the
//! prefix it satisfies ([`PathCondition`]: a number names one prefix of one path). A question
//! `pc ∧ q` looks for the model of the longest prefix of `pc` among its last few
//! ([`WALK_BACK`]), extends it to the variables the rest of `pc` and `q` bring in (defaults,
//! then values by number) and evaluates only the rest and `q`: if all hold, the model satisfies
//! `pc ∧ q`, the answer is `sat`, and the model is kept for `pc ∧ q` (the path the answer
//! starts). Models are persistent maps ([`Assignment`]), so keeping one costs the variables it
//! adds, not the path's.
//!
//! Only `sat` is answered, and only with a model that satisfies every constraint: a miss says
//! nothing, and the caller's other layers go on. A model the solver (or model reuse) gives for
//! the constraints independence kept is learned too ([`PathModels::learn`]): the model of the
//! longest prefix found, overlaid with it, is kept when it satisfies the rest of the path.
//! A chain of kept models needs a model of the path where it starts: a path is looked at as
//! one only from 256 constraints on, where no earlier model is kept, and a state may resume
//! after its prefixes' models were forgotten. There the query layer starts the chain with one
//! model of the whole path. Nothing here talks to a solver.

use rustc_hash::{FxHashMap, FxHashSet};

use crate::eval::Assignment;
use crate::independence::Independence;
use crate::model_reuse::{extend, repair};
use crate::path::PathCondition;
use crate::term::{TermId, TermStore};

/// How many constraints back from a path's end a kept model is looked for: a state's next
/// question usually follows its parent's by one constraint (a branch), a few after a check or
/// a heap access added some without asking.
const WALK_BACK: usize = 8;

/// How many constraints a path adds, after a model of its whole condition was asked for and
/// not found, before it asks again.
const RESTART_GAP: usize = 256;

/// Models kept in one generation (a bound on memory: the models share their entries, and
/// each keeps what it changed). When the newer generation is full, the older one is
/// forgotten, so the models of the latest questions always stay.
const GENERATION: usize = 1 << 13;

/// A model of the prefix the number names, or of that prefix and one more constraint
/// (`(number, term)`: the path a `sat` answer about the prefix and `term` starts, before the
/// engine adds `term` and numbers it).
type Models = FxHashMap<(u64, Option<TermId>), Assignment>;

/// The models kept per path prefix. See the module documentation.
#[derive(Debug, Default)]
pub(crate) struct PathModels {
    newer: Models,
    older: Models,
    /// The prefixes of which a model of the whole was asked for and not found.
    unstartable: FxHashSet<u64>,
}

/// A model of a path's prefix, and how long the prefix is.
struct Found {
    model: Assignment,
    len: usize,
}

impl PathModels {
    /// A model of `pc ∧ query` if a kept model of a recent prefix of `pc` extends to one; it is
    /// kept for `pc ∧ query`. `relevant` gives the constraints of `pc` that `query` depends on
    /// (asked only to repair a model of the whole path).
    pub(crate) fn answers(
        &mut self,
        store: &TermStore,
        independence: &mut Independence,
        pc: &PathCondition,
        query: TermId,
        relevant: impl FnOnce(&mut Independence) -> Vec<TermId>,
    ) -> Option<Assignment> {
        let found = self.longest_prefix(pc)?;
        let rest = rest_of(pc, found.len, None);
        let whole = extend(store, independence, found.model, &rest).ok()?;
        let model = match extend(store, independence, whole, &[query]) {
            Ok(model) => model,
            // A model of the whole path that falsifies only the query: model reuse's repair,
            // over the constraints the query depends on (repair changes only the query's
            // variables and checks every given constraint that mentions one). The path may
            // have added constraints without asking since the model was kept (a heap access's
            // clauses): the model extended over them is a model of the whole path too.
            Err(model) => {
                let vars = independence.vars_of(store, query).to_vec();
                let constraints = relevant(independence);
                repair(store, independence, model, &vars, &constraints, query)?
            }
        };
        self.keep(pc, Some(query), model.clone());
        Some(model)
    }

    /// A model of the whole of `pc`, if a kept model of a recent prefix extends to one.
    pub(crate) fn model_of(
        &mut self,
        store: &TermStore,
        independence: &mut Independence,
        pc: &PathCondition,
    ) -> Option<Assignment> {
        let found = self.longest_prefix(pc)?;
        if found.len == pc.len() {
            return Some(found.model);
        }
        let rest = rest_of(pc, found.len, None);
        let model = extend(store, independence, found.model, &rest).ok()?;
        self.keep(pc, None, model.clone());
        Some(model)
    }

    /// Keeps a model of `pc ∧ query` made of `partial` (a model of the constraints of `pc`
    /// that `query` depends on, and of `query`; or of all of them) and the model of the
    /// longest recent prefix of `pc` (or none: then the whole of `pc` is evaluated), where
    /// together they satisfy the rest of `pc` and `query`; whether one was kept. Where none
    /// is, the caller may start the chain again with a model of the whole path
    /// ([`PathModels::may_start`]).
    pub(crate) fn learn(
        &mut self,
        store: &TermStore,
        independence: &mut Independence,
        pc: &PathCondition,
        query: Option<TermId>,
        partial: &Assignment,
    ) -> bool {
        let (mut model, len) = match self.longest_prefix(pc) {
            Some(found) => (found.model, found.len),
            None => (Assignment::new(), 0),
        };
        model.extend(partial);
        let rest = rest_of(pc, len, query);
        match extend(store, independence, model, &rest) {
            Ok(model) => {
                self.keep(pc, query, model);
                true
            }
            Err(_) => false,
        }
    }

    /// Whether a model of the whole of `pc` is worth asking for, to start the models of its
    /// prefixes again where [`PathModels::learn`] kept none: not if such a request failed for
    /// one of its last [`RESTART_GAP`] prefixes (a path whose whole condition the solver does
    /// not decide would otherwise pay a whole-path check for every question). Asked only
    /// where learning failed, which has evaluated the path already.
    pub(crate) fn may_start(&self, pc: &PathCondition) -> bool {
        if self.unstartable.is_empty() {
            return true;
        }
        let len = pc.len();
        !(len.saturating_sub(RESTART_GAP)..=len)
            .any(|k| self.unstartable.contains(&pc.number_of_prefix(k)))
    }

    /// Notes that no model of the whole of `pc` was found.
    pub(crate) fn start_failed(&mut self, pc: &PathCondition) {
        if self.unstartable.len() >= GENERATION {
            self.unstartable.clear();
        }
        self.unstartable.insert(pc.number_of_prefix(pc.len()));
    }

    /// The kept model of the longest prefix of `pc` among its last [`WALK_BACK`] (the empty
    /// prefix has the empty model when the path is no longer than that).
    fn longest_prefix(&self, pc: &PathCondition) -> Option<Found> {
        let len = pc.len();
        let shortest = len.saturating_sub(WALK_BACK);
        (shortest..=len).rev().find_map(|k| {
            if k == 0 {
                return Some(Found {
                    model: Assignment::new(),
                    len: 0,
                });
            }
            let parent = pc.number_of_prefix(k - 1);
            let last = pc.get(k - 1);
            let keys = [(pc.number_of_prefix(k), None), (parent, last)];
            keys.iter()
                .find_map(|key| self.newer.get(key).or_else(|| self.older.get(key)))
                .map(|model| Found {
                    model: model.clone(),
                    len: k,
                })
        })
    }

    /// Keeps `model` for `pc ∧ query`, as a persistent map: the next model kept along the
    /// path is this one and a few more variables, and shares the rest with it (flat maps
    /// copied whole cost 0.9 GB on 2,000 rounds of one input each, 16,384 models kept).
    fn keep(&mut self, pc: &PathCondition, query: Option<TermId>, model: Assignment) {
        if self.newer.len() >= GENERATION {
            self.older = std::mem::take(&mut self.newer);
        }
        self.newer
            .insert((pc.number_of_prefix(pc.len()), query), model.into_shared());
    }
}

/// The constraints of `pc` after its first `len`, and `query`.
fn rest_of(pc: &PathCondition, len: usize, query: Option<TermId>) -> Vec<TermId> {
    (len..pc.len())
        .filter_map(|i| pc.get(i))
        .chain(query)
        .collect()
}
