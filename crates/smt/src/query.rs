//! The query layer that engines call (the KLEE lessons).
//!
//! A [`QueryEngine`] answers questions about a path condition (a slice of Boolean constraints)
//! through optional layers, each counted in [`QueryStats`]:
//!
//! 1. **fast path**: queries decided by simplification alone: a constant `false` constraint or
//!    query, a query whose negation is a constraint, nothing left to check;
//! 2. **independence**: only the constraints that share variables, transitively, with the
//!    query are sent (see `independence.rs`);
//! 3. **cache**: answers keyed by the sorted, hash-consed constraint set plus the query;
//! 4. **unsat subsets**: `unsat` when an earlier `unsat` question is part of this one
//!    (see `unsat_subsets.rs`);
//! 5. **model reuse**: `sat` when the models of earlier answers, combined over independent
//!    groups of constraints, satisfy the question (KLEE's counterexample cache, see
//!    `model_reuse.rs`).
//!
//! What reaches the solver is incremental: the engine mirrors the solver's stack (one scope per
//! question, holding the constraints it added). For a new query it keeps the longest run of
//! scopes whose constraints still belong to the path condition, pops the rest, and pushes the
//! constraints the query needs that are not asserted yet; the query itself is a check
//! assumption. A growing path condition thus costs one assertion per query. Keeping
//! already-asserted constraints of the path condition that independence would leave out does
//! not change the answer (they are part of the path condition, which is satisfiable), and it
//! costs the solver nothing new.
//!
//! Before all of them, a question about an engine's long [`PathCondition`] is answered `sat`
//! from the models kept per path where one extends (`path_models.rs`, part of model reuse): in
//! the time of the path's last few constraints, where the layers above cost its whole length.
//! Where none does, independence's groups of the path are kept per path too
//! (`path_groups.rs`), so the layers above see only the question's group: an `unsat` answer
//! costs the size of that group, not the path's length.
//!
//! As in KLEE, answers about a query (`may_be_true`, `must_be_true`,
//! `is_satisfiable(pc, Some(q))`) assume that the path condition itself is satisfiable, which
//! engines maintain; turn `independence` off if that may not hold. `is_satisfiable(pc, None)`
//! and `get_model` always consider the whole path condition. The engine owns the solver's
//! assertion stack: give it a fresh solver.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use rustc_hash::{FxHashMap, FxHashSet};

use crate::dump::Dumper;
use crate::error::SolverError;
use crate::eval::{eval_all_lazy, Assignment};
use crate::independence::Independence;
use crate::model_reuse::{complete, ModelCache};
use crate::path::PathCondition;
use crate::path_groups::PathGroups;
use crate::path_models::PathModels;
use crate::solver::{work_of, Model, SatResult, Solver, DEFAULT_TIMEOUT};
use crate::sort::Sort;
use crate::term::{Node, Op, TermId, TermStore, VarId};
use crate::unsat_subsets::UnsatSets;
use crate::value::Value;

/// Which layers are on, and the solver settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QueryOptions {
    /// Answer queries decided by simplification alone without the solver.
    pub fast_path: bool,
    /// Send only the constraints related to the query.
    pub independence: bool,
    /// Remember answers.
    pub cache: bool,
    /// Answer `sat` from the models of earlier answers where they satisfy the question.
    pub model_reuse: bool,
    /// Paths of an engine's [`PathCondition`] from this many constraints on are *long*: with
    /// model reuse, their questions are answered from the models kept per path first
    /// (`path_models.rs`), and with independence, their groups are kept per path
    /// (`path_groups.rs`). Below it the layers that look at the whole path are cheap, and the
    /// models they keep serve many paths (model reuse by groups and prefixes, which the path
    /// models would bypass: with path models from the first constraint, questions on the heap
    /// drivers' short paths that kept models answered went to the solver, `avl_find` at depth
    /// 11 under POSE from 4 s to past 60 s).
    pub long_path_from: usize,
    /// Answer `unsat` where an earlier unsatisfiable question is part of the question.
    pub unsat_subsets: bool,
    /// Time limit of each solver check.
    pub timeout: Option<Duration>,
    /// Write every query that reaches the solver into this directory.
    pub dump_dir: Option<PathBuf>,
}

impl Default for QueryOptions {
    /// Every layer on, [`DEFAULT_TIMEOUT`], no dumps.
    fn default() -> Self {
        QueryOptions {
            fast_path: true,
            independence: true,
            cache: true,
            model_reuse: true,
            long_path_from: 256,
            unsat_subsets: true,
            timeout: Some(DEFAULT_TIMEOUT),
            dump_dir: None,
        }
    }
}

impl QueryOptions {
    /// Every layer off: each query goes to the solver as it is.
    pub fn plain() -> Self {
        QueryOptions {
            fast_path: false,
            independence: false,
            cache: false,
            model_reuse: false,
            unsat_subsets: false,
            ..Self::default()
        }
    }
}

/// What the query layer has done.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct QueryStats {
    /// Questions asked (every public call).
    pub queries: u64,
    /// Answered by the fast path.
    pub fast_path: u64,
    /// Answered by the cache.
    pub cache_hits: u64,
    /// Answered `sat` by model reuse.
    pub model_hits: u64,
    /// Answered `unsat` by a kept unsatisfiable subset.
    pub unsat_subset_hits: u64,
    /// Checks sent to the solver.
    pub solver_queries: u64,
    /// Queries whose constraint set independence made smaller.
    pub independence_reduced: u64,
    /// Constraints independence left out, in total.
    pub constraints_dropped: u64,
    /// Answers that were sat / unsat / unknown (whoever gave them).
    pub sat: u64,
    /// See `sat`.
    pub unsat: u64,
    /// See `sat`.
    pub unknown: u64,
    /// Wall-clock time spent in the query layer, solver included.
    pub time: Duration,
}

/// The answer to a yes/no question about a path condition.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Answer {
    /// Yes.
    Yes,
    /// No.
    No,
    /// The solver could not tell; the reason.
    Unknown(String),
}

/// The answer to a model request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ModelResult {
    /// Satisfiable, with values for the variables asked.
    Sat(Model),
    /// Unsatisfiable.
    Unsat,
    /// The solver could not tell; the reason.
    Unknown(String),
}

/// The path condition a question is about: constraints, or an engine's [`PathCondition`]
/// (whose numbers let the query layer answer from the models it keeps per path).
#[derive(Clone, Copy, Debug)]
pub enum Constraints<'a> {
    /// A conjunction.
    Slice(&'a [TermId]),
    /// A path condition.
    Path(&'a PathCondition),
}

impl<'a> Constraints<'a> {
    /// The constraints as a slice (a path condition copied: linear in its length).
    fn terms(self) -> std::borrow::Cow<'a, [TermId]> {
        match self {
            Constraints::Slice(terms) => std::borrow::Cow::Borrowed(terms),
            Constraints::Path(path) => std::borrow::Cow::Owned(path.to_vec()),
        }
    }
}

impl<'a> From<&'a [TermId]> for Constraints<'a> {
    fn from(terms: &'a [TermId]) -> Self {
        Constraints::Slice(terms)
    }
}

impl<'a> From<&'a Vec<TermId>> for Constraints<'a> {
    fn from(terms: &'a Vec<TermId>) -> Self {
        Constraints::Slice(terms)
    }
}

impl<'a, const N: usize> From<&'a [TermId; N]> for Constraints<'a> {
    fn from(terms: &'a [TermId; N]) -> Self {
        Constraints::Slice(terms)
    }
}

impl<'a> From<&'a PathCondition> for Constraints<'a> {
    fn from(pc: &'a PathCondition) -> Self {
        Constraints::Path(pc)
    }
}

/// A satisfiability question after the fast path and independence.
enum Prepared {
    Decided(bool),
    Ask {
        constraints: Vec<TermId>,
        query: Option<TermId>,
    },
}

/// A solver and the constraints the query layer has asserted in it.
struct SolverStack<S> {
    solver: S,
    /// The constraints asserted in the solver, in order (a scope per question that added
    /// some: `scope_starts`).
    mirror: Vec<TermId>,
    in_mirror: FxHashSet<TermId>,
    /// Where each of the solver's scopes starts in `mirror`.
    scope_starts: Vec<usize>,
    /// Whether the solver's stack may differ from the mirror (after a solver error).
    stale: bool,
}

impl<S: Solver> SolverStack<S> {
    fn new(mut solver: S, options: &QueryOptions) -> Self {
        solver.set_timeout(options.timeout);
        SolverStack {
            solver,
            mirror: Vec::new(),
            in_mirror: FxHashSet::default(),
            scope_starts: Vec::new(),
            stale: true,
        }
    }
}

/// The query layer. See the module documentation.
pub struct QueryEngine<S: Solver> {
    /// The solver questions go to, and what the layer has asserted in it.
    stack: SolverStack<S>,
    /// A second solver for one kind of question (`QueryEngine::on_second_solver`), if given;
    /// the first while questions go to the second.
    second: Option<SolverStack<S>>,
    /// Whether questions go to the second solver.
    on_second: bool,
    options: QueryOptions,
    sat_cache: FxHashMap<Box<[TermId]>, bool>,
    model_cache: FxHashMap<Box<[TermId]>, Model>,
    models: ModelCache,
    path_models: PathModels,
    path_groups: PathGroups,
    /// The model of the last `sat` answer of the layers after the path models, if one was at
    /// hand (model reuse's, or the solver's), for the path models to learn.
    last_model: Option<Assignment>,
    unsat_sets: UnsatSets,
    independence: Independence,
    dumper: Option<Dumper>,
    stats: QueryStats,
    /// When the caller's whole search must end; checks are cut short to meet it.
    deadline: Option<Instant>,
    /// The solver work at which the caller's current piece of work must end
    /// ([`QueryEngine::set_work_share`]).
    work_share: Option<u64>,
    /// The solver's work as last read, and the solver checks made by then: the work grows
    /// only in checks, so until the next one it is not read again (reading asks Z3 for its
    /// statistics, and subsumption reads it at every join point).
    work_read: Option<(u64, u64)>,
}

impl<S: Solver> QueryEngine<S> {
    /// A query layer over `solver` (which should have no assertions yet).
    pub fn new(solver: S, options: QueryOptions) -> Result<Self, SolverError> {
        let dumper = match &options.dump_dir {
            Some(dir) => Some(Dumper::new(dir)?),
            None => None,
        };
        let mut engine = QueryEngine {
            stack: SolverStack::new(solver, &options),
            second: None,
            on_second: false,
            options,
            sat_cache: FxHashMap::default(),
            model_cache: FxHashMap::default(),
            models: ModelCache::default(),
            path_models: PathModels::default(),
            path_groups: PathGroups::default(),
            last_model: None,
            unsat_sets: UnsatSets::default(),
            independence: Independence::default(),
            dumper,
            stats: QueryStats::default(),
            deadline: None,
            work_share: None,
            work_read: None,
        };
        engine.reset()?;
        Ok(engine)
    }

    /// Bounds every later solver check by `deadline` (besides the per-query timeout), so a
    /// caller's overall time limit holds even inside a hard query; past it, checks answer
    /// unknown at once. The solver gets it as its hard deadline too ([`Solver::set_deadline`]).
    pub fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.deadline = deadline;
        self.stack.solver.set_deadline(deadline);
        if let Some(second) = &mut self.second {
            second.solver.set_deadline(deadline);
        }
    }

    /// Gives the layer a second solver (fresh, of the same kind), which the questions asked
    /// within [`QueryEngine::on_second_solver`] go to. Everything else is shared: caches,
    /// kept models, statistics, the time limit; the work counts both solvers'.
    pub fn add_second_solver(&mut self, solver: S) {
        let mut second = SolverStack::new(solver, &self.options);
        second.solver.set_deadline(self.deadline);
        self.second = Some(second);
    }

    /// Runs `ask` with its questions that reach a solver going to the second one, if there is
    /// one (else to the only one).
    ///
    /// Why: a question's time in Z3's incremental core depends on what the solver was asked
    /// before (what it learned and kept). A caller's side questions (`--subsume`'s coverage
    /// checks and invariant attempts) asked of the main solver change the time of the main
    /// questions after them: on a generated program one search step took 0.7 s in one run
    /// and not in another that let other checks through, at the same selection with the same
    /// path. On a solver of their own they leave the main one asked only the main questions
    /// (fewer, where the shared caches answer one from a side question).
    pub fn on_second_solver<T>(&mut self, ask: impl FnOnce(&mut Self) -> T) -> T {
        if self.on_second {
            return ask(self);
        }
        let Some(second) = &mut self.second else {
            return ask(self);
        };
        std::mem::swap(&mut self.stack, second);
        self.on_second = true;
        let result = ask(self);
        self.on_second = false;
        if let Some(second) = &mut self.second {
            std::mem::swap(&mut self.stack, second);
        }
        result
    }

    /// Ends a part of the search once the solver's work ([`QueryEngine::solver_work`]) has
    /// reached `end` (`None`: the part is over): from then on, checks answer unknown at once,
    /// without the solver. Unlike [`QueryEngine::set_deadline`], a check that starts before
    /// is not cut short, and the solver does not hear of it: cut short, a Z3 check leaves a
    /// solver that is rebuilt before its next check (`z3_backend.rs`), and cutting
    /// subsumption's checks at its share's end lost as many violations as this
    /// (docs/path-subsumption.md, "Bounds and costs").
    pub fn set_work_share(&mut self, end: Option<u64>) {
        self.work_share = end;
    }

    /// The solver's work so far, in the deterministic units of [`Solver::work`] (Z3's
    /// `rlimit count`), as of the last check (what a model read costs after it counts with the
    /// next check). A back end without such a count is charged its checks' time at
    /// [`crate::WORK_PER_SECOND`], which makes the figure depend on the machine.
    pub fn solver_work(&mut self) -> u64 {
        let checks = self.stats.solver_queries;
        if let Some((read_at, work)) = self.work_read {
            if read_at == checks {
                return work;
            }
        }
        let work = self.counted_work().unwrap_or_else(|| {
            let second = self.second.as_ref().map(|s| s.solver.stats().time);
            work_of(self.stack.solver.stats().time + second.unwrap_or_default())
        });
        self.work_read = Some((checks, work));
        work
    }

    /// The solvers' own count of their work ([`Solver::work`]), if they keep one.
    pub fn counted_work(&mut self) -> Option<u64> {
        let first = self.stack.solver.work()?;
        match &mut self.second {
            Some(second) => Some(first + second.solver.work()?),
            None => Some(first),
        }
    }

    /// The deadline of [`QueryEngine::set_deadline`], if any.
    pub fn deadline(&self) -> Option<Instant> {
        self.deadline
    }

    /// The options in force.
    pub fn options(&self) -> &QueryOptions {
        &self.options
    }

    /// What the query layer has done.
    pub fn stats(&self) -> &QueryStats {
        &self.stats
    }

    /// The solver underneath (the second within [`QueryEngine::on_second_solver`]).
    pub fn solver(&self) -> &S {
        &self.stack.solver
    }

    /// Forgets every cached answer.
    pub fn clear_cache(&mut self) {
        self.sat_cache.clear();
        self.model_cache.clear();
        self.models = ModelCache::default();
        self.path_models = PathModels::default();
        self.unsat_sets = UnsatSets::default();
    }

    /// Is `pc ∧ extra` satisfiable? (With `extra` and independence on, `pc` is assumed
    /// satisfiable.)
    pub fn is_satisfiable<'a>(
        &mut self,
        store: &TermStore,
        pc: impl Into<Constraints<'a>>,
        extra: Option<TermId>,
    ) -> Result<SatResult, SolverError> {
        let start = Instant::now();
        self.stats.queries += 1;
        let result = self.satisfiable_on(store, pc.into(), extra);
        if let Ok(r) = &result {
            self.count(r);
        }
        self.stats.time += start.elapsed();
        result
    }

    /// Does `cond` hold on every input satisfying `pc`? (`pc` is assumed satisfiable.)
    pub fn must_be_true<'a>(
        &mut self,
        store: &mut TermStore,
        pc: impl Into<Constraints<'a>>,
        cond: TermId,
    ) -> Result<Answer, SolverError> {
        check_bool(store, cond)?;
        let negated = store.not(cond)?;
        Ok(match self.is_satisfiable(store, pc, Some(negated))? {
            SatResult::Unsat => Answer::Yes,
            SatResult::Sat => Answer::No,
            SatResult::Unknown(r) => Answer::Unknown(r),
        })
    }

    /// Does `cond` hold on some input satisfying `pc`? (`pc` is assumed satisfiable.)
    pub fn may_be_true<'a>(
        &mut self,
        store: &TermStore,
        pc: impl Into<Constraints<'a>>,
        cond: TermId,
    ) -> Result<Answer, SolverError> {
        Ok(match self.is_satisfiable(store, pc, Some(cond))? {
            SatResult::Sat => Answer::Yes,
            SatResult::Unsat => Answer::No,
            SatResult::Unknown(r) => Answer::Unknown(r),
        })
    }

    /// What `pc` says about the variables of `terms`: its constraints connected to them
    /// through shared variables (directly or through other constraints), and those without
    /// variables, in the order of `pc`. The rest of `pc` is independent of them: where `pc`
    /// is satisfiable, any values of `terms` these constraints allow, `pc` allows too.
    pub fn constraints_about(
        &mut self,
        store: &TermStore,
        pc: &PathCondition,
        terms: &[TermId],
    ) -> Vec<TermId> {
        let vars = self.independence.vars_of_all(store, terms);
        if pc.len() >= self.options.long_path_from {
            self.path_groups
                .relevant_to(store, &mut self.independence, pc, &vars)
        } else {
            self.independence.relevant_to(store, &pc.to_vec(), &vars)
        }
    }

    /// The values of `terms` on some input satisfying `pc`, read from a model the query layer
    /// keeps: it never asks the solver, and `None` says nothing. A condition on `terms` that
    /// these values make false does not hold on every input satisfying `pc`, and this finds
    /// that out before the condition is built (path subsumption's coverage checks, where
    /// building it cost more than the rest of the check: docs/path-subsumption.md).
    pub fn known_values(
        &mut self,
        store: &TermStore,
        pc: &PathCondition,
        terms: &[TermId],
    ) -> Option<Vec<Value>> {
        if !self.options.model_reuse {
            return None;
        }
        let whole = long_path(pc.into(), &self.options).and_then(|path| {
            self.path_models
                .model_of(store, &mut self.independence, path)
        });
        let model = match whole {
            Some(model) => model,
            None => {
                let constraints = self.constraints_about(store, pc, terms);
                let reused =
                    self.models
                        .satisfies(store, &mut self.independence, &constraints, None)?;
                reused.model
            }
        };
        // A variable of `terms` the model leaves out is in no constraint of `pc` it was made
        // for, or only where its values decide the constraint without it (a branch of an `ite`
        // not taken; the rest of `pc` shares no variable with `terms`): any value will do.
        let vars = self.independence.vars_of_all(store, terms);
        let (model, _) = complete(store, model, &vars, &[]).ok()?;
        eval_all_lazy(store, terms, &model).ok()
    }

    /// Values of the variables `vars` on some input satisfying the whole of `pc`.
    pub fn get_model<'a>(
        &mut self,
        store: &TermStore,
        pc: impl Into<Constraints<'a>>,
        vars: &[TermId],
    ) -> Result<ModelResult, SolverError> {
        let start = Instant::now();
        self.stats.queries += 1;
        let result = self.model_on(store, pc.into(), vars);
        if let Ok(r) = &result {
            let as_sat = match r {
                ModelResult::Sat(_) => SatResult::Sat,
                ModelResult::Unsat => SatResult::Unsat,
                ModelResult::Unknown(why) => SatResult::Unknown(why.clone()),
            };
            self.count(&as_sat);
        }
        self.stats.time += start.elapsed();
        result
    }

    fn count(&mut self, r: &SatResult) {
        match r {
            SatResult::Sat => self.stats.sat += 1,
            SatResult::Unsat => self.stats.unsat += 1,
            SatResult::Unknown(_) => self.stats.unknown += 1,
        }
    }

    /// On a long path, the path models first, then [`QueryEngine::satisfiable`] (whose model
    /// they learn) on the question's group of the path.
    fn satisfiable_on(
        &mut self,
        store: &TermStore,
        pc: Constraints<'_>,
        extra: Option<TermId>,
    ) -> Result<SatResult, SolverError> {
        let path = long_path(pc, &self.options);
        let independence = self.options.independence;
        let relevant = |groups: &mut PathGroups, ind: &mut Independence, query| match path {
            Some(path) if independence => groups.relevant(store, ind, path, query),
            _ => pc.terms().into_owned(),
        };
        // The question's group, where a repair of the path models asked for it first.
        let mut group: Option<Vec<TermId>> = None;
        if let (Some(path), Some(query), true) = (path, extra, self.options.model_reuse) {
            check_bool(store, query)?;
            let groups = &mut self.path_groups;
            let answer =
                self.path_models
                    .answers(store, &mut self.independence, path, query, |ind| {
                        group.insert(relevant(groups, ind, query)).clone()
                    });
            if answer.is_some() {
                self.stats.model_hits += 1;
                return Ok(SatResult::Sat);
            }
        }
        let terms = match (path, extra) {
            (Some(path), Some(query)) if independence => {
                let group = group.unwrap_or_else(|| {
                    relevant(&mut self.path_groups, &mut self.independence, query)
                });
                let dropped = path.len() - group.len();
                if dropped > 0 {
                    self.stats.independence_reduced += 1;
                    self.stats.constraints_dropped += dropped as u64;
                }
                std::borrow::Cow::Owned(group)
            }
            _ => pc.terms(),
        };
        self.last_model = None;
        let result = self.satisfiable(store, &terms, extra)?;
        let learns = self.options.model_reuse;
        if let (Some(path), SatResult::Sat, Some(model), true) =
            (path, &result, self.last_model.take(), learns)
        {
            let kept = self
                .path_models
                .learn(store, &mut self.independence, path, extra, &model);
            if !kept {
                self.start_path_models(store, path, extra);
            }
        }
        Ok(result)
    }

    /// Starts the path models again on `path ∧ query` with a model of the whole of it, where
    /// learning kept none: the model at hand covers only the question's group, and the
    /// path's other constraints need values no default gives (a chain of kept models starts
    /// from the empty one only on a short path, and breaks where a state resumes whose
    /// prefixes' models were forgotten). One check of the whole path restarts a chain that
    /// answers the following questions in the time of their last constraints; without it,
    /// every later question of the path paid a solver call and an evaluation of the path.
    /// The question is answered already: nothing here changes the answer, and a failure
    /// (also a solver error: the next check resets the solver's stack) only keeps the path
    /// from asking again for a while ([`PathModels::may_start`]).
    fn start_path_models(
        &mut self,
        store: &TermStore,
        path: &PathCondition,
        query: Option<TermId>,
    ) {
        if !self.path_models.may_start(path) {
            return;
        }
        let kept = match self.whole_model(store, &path.to_vec(), query) {
            Ok(Some(model)) => {
                self.path_models
                    .learn(store, &mut self.independence, path, query, &model)
            }
            Ok(None) | Err(_) => false,
        };
        if !kept {
            self.path_models.start_failed(path);
        }
    }

    /// A model of every variable of `constraints` (a path condition) and `query`, from the
    /// models model reuse keeps or from the solver; `None` where neither gives one. Nothing
    /// is cached: the key would be the whole path, asked about once. The solver gets the
    /// whole path in one scope (the next question's group pops it) and `query` as an
    /// assumption.
    fn whole_model(
        &mut self,
        store: &TermStore,
        constraints: &[TermId],
        query: Option<TermId>,
    ) -> Result<Option<Assignment>, SolverError> {
        let mut all = constraints.to_vec();
        all.extend(query);
        let vars = self.independence.vars_of_all(store, &all);
        let reused = self
            .models
            .satisfies(store, &mut self.independence, constraints, query)
            .filter(|reused| vars.iter().all(|&v| reused.model.get(v).is_some()));
        if let Some(reused) = reused {
            return Ok(Some(reused.model));
        }
        if self.ask_solver(store, constraints, constraints, query)? != SatResult::Sat {
            return Ok(None);
        }
        self.solver_model(store, &vars)
    }

    fn satisfiable(
        &mut self,
        store: &TermStore,
        pc: &[TermId],
        extra: Option<TermId>,
    ) -> Result<SatResult, SolverError> {
        for &t in pc.iter().chain(extra.iter()) {
            check_bool(store, t)?;
        }
        let (constraints, query) = match self.prepare(store, pc, extra) {
            Prepared::Decided(sat) => {
                self.stats.fast_path += 1;
                return Ok(if sat {
                    SatResult::Sat
                } else {
                    SatResult::Unsat
                });
            }
            Prepared::Ask { constraints, query } => (constraints, query),
        };
        let key = self.options.cache.then(|| cache_key(&constraints, query));
        if let Some(k) = &key {
            if let Some(&sat) = self.sat_cache.get(k) {
                self.stats.cache_hits += 1;
                return Ok(if sat {
                    SatResult::Sat
                } else {
                    SatResult::Unsat
                });
            }
        }
        if self.options.unsat_subsets
            && !self.unsat_sets.is_empty()
            && self
                .unsat_sets
                .answers(&sorted_set(constraints.iter().chain(&query)))
        {
            self.stats.unsat_subset_hits += 1;
            if let Some(k) = key {
                self.sat_cache.insert(k, false);
            }
            return Ok(SatResult::Unsat);
        }
        if self.options.model_reuse {
            if let Some(reused) =
                self.models
                    .satisfies(store, &mut self.independence, &constraints, query)
            {
                self.stats.model_hits += 1;
                self.last_model = Some(reused.model.clone());
                if reused.built && query.is_some() {
                    // The path condition this query starts is asked about next.
                    let mut satisfied = constraints;
                    satisfied.extend(query);
                    let vars = self.independence.vars_of_all(store, &satisfied);
                    self.models.remember(&satisfied, &vars, &reused.model);
                } else if let Some(q) = query {
                    // The model of kept models satisfies the longer path condition too: the
                    // next question along this path finds it by its prefix (a sibling's
                    // model, kept later under the shorter prefix, would not do).
                    let mut satisfied = constraints;
                    satisfied.push(q);
                    self.models.remember_prefix(&satisfied, reused.model);
                }
                if let Some(k) = key {
                    self.sat_cache.insert(k, true);
                }
                return Ok(SatResult::Sat);
            }
        }
        let result = self.ask_solver(store, pc, &constraints, query)?;
        if result == SatResult::Unsat {
            self.remember_unsat(query);
        }
        if result == SatResult::Sat && self.options.model_reuse {
            let mut satisfied = constraints;
            satisfied.extend(query);
            self.remember_model(store, &satisfied)?;
        }
        if let Some(k) = key {
            match result {
                SatResult::Sat => {
                    self.sat_cache.insert(k, true);
                }
                SatResult::Unsat => {
                    self.sat_cache.insert(k, false);
                }
                SatResult::Unknown(_) => {}
            }
        }
        Ok(result)
    }

    /// The fast path and independence.
    fn prepare(&mut self, store: &TermStore, pc: &[TermId], extra: Option<TermId>) -> Prepared {
        let mut query = extra;
        let mut constraints: Vec<TermId> = pc.to_vec();
        if self.options.fast_path {
            if constraints.iter().any(|&c| store.as_bool(c) == Some(false))
                || query.is_some_and(|q| store.as_bool(q) == Some(false))
            {
                return Prepared::Decided(false);
            }
            constraints.retain(|&c| store.as_bool(c) != Some(true));
            if query.is_some_and(|q| store.as_bool(q) == Some(true)) {
                query = None;
            }
            if let Some(q) = query {
                let present: FxHashSet<TermId> = constraints.iter().copied().collect();
                let negation_present = match *store.node(q) {
                    Node::App1(Op::Not, inner) => present.contains(&inner),
                    _ => false,
                } || constraints
                    .iter()
                    .any(|&c| matches!(*store.node(c), Node::App1(Op::Not, inner) if inner == q));
                if negation_present {
                    return Prepared::Decided(false);
                }
                if present.contains(&q) {
                    if self.options.independence {
                        // pc ∧ q = pc, which is satisfiable by assumption.
                        return Prepared::Decided(true);
                    }
                    query = None;
                }
            }
            if query.is_none() && constraints.is_empty() {
                return Prepared::Decided(true);
            }
        }
        if self.options.independence {
            if let Some(q) = query {
                let before = constraints.len();
                constraints = self.independence.relevant(store, &constraints, q);
                let dropped = before - constraints.len();
                if dropped > 0 {
                    self.stats.independence_reduced += 1;
                    self.stats.constraints_dropped += dropped as u64;
                }
            }
        }
        Prepared::Ask { constraints, query }
    }

    /// Pops every scope of the solver.
    fn reset(&mut self) -> Result<(), SolverError> {
        self.stack.stale = true;
        while self.stack.solver.level() > 0 {
            self.stack.solver.pop()?;
        }
        self.stack.mirror.clear();
        self.stack.in_mirror.clear();
        self.stack.scope_starts.clear();
        self.stack.stale = false;
        Ok(())
    }

    /// Brings the solver's stack to a set `S` with `needed ⊆ S ⊆ pc`: keeps the longest run of
    /// scopes from the bottom whose constraints are all still in `pc`, pops the others, and
    /// pushes what is missing in one scope. Returns `S` in stack order.
    ///
    /// A scope per call, not per constraint: a path condition that grows by one constraint
    /// per question costs one scope either way, and questions that alternate between
    /// independent groups (a fresh input per loop round) cost one pop and one push each, not
    /// one per constraint of the group (a Z3 scope costs tens of microseconds, as much as a
    /// small check).
    fn sync(
        &mut self,
        store: &TermStore,
        pc: &[TermId],
        needed: &[TermId],
    ) -> Result<Vec<TermId>, SolverError> {
        if self.stack.stale {
            self.reset()?;
        }
        self.stack.stale = true;
        let in_pc: FxHashSet<TermId> = pc.iter().copied().collect();
        let keep = self
            .stack
            .mirror
            .iter()
            .take_while(|c| in_pc.contains(c))
            .count();
        while self.stack.mirror.len() > keep {
            self.stack.solver.pop()?;
            // Every constraint of the mirror is in a scope: `scope_starts` is not empty here.
            let start = self.stack.scope_starts.pop().unwrap_or(0);
            for c in self.stack.mirror.drain(start..) {
                self.stack.in_mirror.remove(&c);
            }
        }
        let missing: Vec<TermId> = needed
            .iter()
            .copied()
            .filter(|&c| self.stack.in_mirror.insert(c))
            .collect();
        if !missing.is_empty() {
            self.stack.solver.push()?;
            self.stack.scope_starts.push(self.stack.mirror.len());
            for c in missing {
                self.stack.solver.assert(store, c)?;
                self.stack.mirror.push(c);
            }
        }
        self.stack.stale = false;
        Ok(self.stack.mirror.clone())
    }

    /// Checks `needed ∧ query` (with `needed ⊆ pc`) incrementally.
    fn ask_solver(
        &mut self,
        store: &TermStore,
        pc: &[TermId],
        needed: &[TermId],
        query: Option<TermId>,
    ) -> Result<SatResult, SolverError> {
        // Past the deadline the solver is not touched at all (its stack is left as it is).
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            return Ok(SatResult::Unknown("the time limit was reached".into()));
        }
        if self.work_share.is_some_and(|end| self.solver_work() >= end) {
            return Ok(SatResult::Unknown(
                "this part of the search has used up its share of the solver's work".into(),
            ));
        }
        let sent = self.sync(store, pc, needed)?;
        if let Some(d) = &mut self.dumper {
            let mut all = sent;
            all.extend(query);
            d.dump(store, &all)?;
        }
        // A solver that stops at the deadline itself keeps the per-query limit: a limit
        // shrinking with the time left re-configured Z3 at moments that differ from run to run
        // (and turned its hand-over to the one-shot solver off near the end), so the same
        // check gave other models and counterexamples under `--timeout`, far from the limit.
        if let Some(deadline) = self
            .deadline
            .filter(|_| !self.stack.solver.keeps_deadline())
        {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Ok(SatResult::Unknown("the time limit was reached".into()));
            }
            let left = in_steps(left);
            let limit = self.options.timeout.map_or(left, |t| t.min(left));
            self.stack.solver.set_timeout(Some(limit));
        }
        self.stats.solver_queries += 1;
        let assumptions: Vec<TermId> = query.into_iter().collect();
        self.stack.solver.check(store, &assumptions)
    }

    /// Keeps the set of the last check, answered `unsat`, for unsat subsets: what the solver's
    /// stack held and `query`, not the constraints independence kept. Those answer the same
    /// only while the path condition is satisfiable, which an engine that goes on past an
    /// `unknown` answer cannot promise, and a kept set answers questions on any path.
    fn remember_unsat(&mut self, query: Option<TermId>) {
        if self.options.unsat_subsets {
            let checked = sorted_set(self.stack.mirror.iter().chain(&query));
            self.unsat_sets.remember(&checked);
        }
    }

    /// Keeps the solver's model of its last `sat` check, which satisfies `satisfied`, for
    /// model reuse. A solver that gives no model only costs the reuse.
    fn remember_model(
        &mut self,
        store: &TermStore,
        satisfied: &[TermId],
    ) -> Result<(), SolverError> {
        let vars = self.independence.vars_of_all(store, satisfied);
        if let Some(model) = self.solver_model(store, &vars)? {
            self.models.remember(satisfied, &vars, &model);
            // Learned for the path only where it covers every variable (as kept models).
            if vars.iter().all(|&v| model.get(v).is_some()) {
                self.last_model = Some(model);
            }
        }
        Ok(())
    }

    /// The values of `vars` in the model of the solver's last `sat` check; `None` where the
    /// solver gives no model (a protocol answer: then only model reuse misses it).
    fn solver_model(
        &mut self,
        store: &TermStore,
        vars: &[VarId],
    ) -> Result<Option<Assignment>, SolverError> {
        let terms: Vec<TermId> = vars.iter().map(|&v| store.var_info(v).term).collect();
        match self.stack.solver.model(store, &terms) {
            Ok(model) => Ok(Some(model.to_assignment(store))),
            Err(SolverError::Protocol(_)) => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// The path models first, then [`QueryEngine::model_of`] (whose model they learn).
    fn model_on(
        &mut self,
        store: &TermStore,
        pc: Constraints<'_>,
        vars: &[TermId],
    ) -> Result<ModelResult, SolverError> {
        let path = long_path(pc, &self.options).filter(|_| self.options.model_reuse);
        if let Some(path) = path {
            let found = self
                .path_models
                .model_of(store, &mut self.independence, path);
            if let Some(model) = found {
                check_vars(store, vars)?;
                self.stats.model_hits += 1;
                let values = defaults(store, vars, |v| {
                    store.var_id(v).and_then(|var| model.get(var).cloned())
                });
                return Ok(ModelResult::Sat(values));
            }
        }
        let terms = pc.terms();
        self.last_model = None;
        let result = self.model_of(store, &terms, vars)?;
        if let (Some(path), Some(model)) = (path, self.last_model.take()) {
            self.path_models
                .learn(store, &mut self.independence, path, None, &model);
        }
        Ok(result)
    }

    fn model_of(
        &mut self,
        store: &TermStore,
        pc: &[TermId],
        vars: &[TermId],
    ) -> Result<ModelResult, SolverError> {
        for &t in pc {
            check_bool(store, t)?;
        }
        check_vars(store, vars)?;
        let mut constraints = pc.to_vec();
        if self.options.fast_path {
            if constraints.iter().any(|&c| store.as_bool(c) == Some(false)) {
                self.stats.fast_path += 1;
                return Ok(ModelResult::Unsat);
            }
            constraints.retain(|&c| store.as_bool(c) != Some(true));
            if constraints.is_empty() {
                self.stats.fast_path += 1;
                return Ok(ModelResult::Sat(defaults(store, vars, |_| None)));
            }
        }
        let key = self.options.cache.then(|| cache_key(&constraints, None));
        if let Some(k) = &key {
            if let Some(m) = self.model_cache.get(k) {
                self.stats.cache_hits += 1;
                return Ok(ModelResult::Sat(defaults(store, vars, |v| {
                    m.get(v).cloned()
                })));
            }
            if self.sat_cache.get(k) == Some(&false) {
                self.stats.cache_hits += 1;
                return Ok(ModelResult::Unsat);
            }
        }
        if self.options.unsat_subsets
            && !self.unsat_sets.is_empty()
            && self.unsat_sets.answers(&sorted_set(constraints.iter()))
        {
            self.stats.unsat_subset_hits += 1;
            if let Some(k) = key {
                self.sat_cache.insert(k, false);
            }
            return Ok(ModelResult::Unsat);
        }
        if self.options.model_reuse {
            if let Some(reused) =
                self.models
                    .satisfies(store, &mut self.independence, &constraints, None)
            {
                self.stats.model_hits += 1;
                let model = defaults(store, vars, |v| {
                    store
                        .var_id(v)
                        .and_then(|var| reused.model.get(var).cloned())
                });
                return Ok(ModelResult::Sat(model));
            }
        }
        match self.ask_solver(store, pc, &constraints, None)? {
            SatResult::Unsat => {
                if let Some(k) = key {
                    self.sat_cache.insert(k, false);
                }
                self.remember_unsat(None);
                Ok(ModelResult::Unsat)
            }
            SatResult::Unknown(why) => Ok(ModelResult::Unknown(why)),
            SatResult::Sat => {
                // Ask for every variable of the constraints too, so the cached model serves
                // later requests for other variables.
                let mut wanted = store.vars_of(&constraints);
                wanted.extend(vars.iter().filter_map(|&v| store.var_id(v)));
                wanted.sort_unstable();
                wanted.dedup();
                let terms: Vec<TermId> = wanted.iter().map(|&v| store.var_info(v).term).collect();
                let full = match self.stack.solver.model(store, &terms) {
                    Ok(m) => m,
                    Err(SolverError::Protocol(why)) => {
                        return Ok(ModelResult::Unknown(format!("no model: {why}")))
                    }
                    Err(e) => return Err(e),
                };
                let answer = defaults(store, vars, |v| full.get(v).cloned());
                if self.options.model_reuse {
                    let vars = self.independence.vars_of_all(store, &constraints);
                    let assignment = full.to_assignment(store);
                    self.models.remember(&constraints, &vars, &assignment);
                    self.last_model = Some(assignment);
                }
                if let Some(k) = key {
                    self.sat_cache.insert(k.clone(), true);
                    self.model_cache.insert(k, full);
                }
                Ok(ModelResult::Sat(answer))
            }
        }
    }
}

/// How finely the time left before a deadline is passed on as a check's time limit.
const LIMIT_STEP: Duration = Duration::from_millis(100);

/// The time `left` before a deadline, rounded down to a multiple of [`LIMIT_STEP`] when it is
/// longer than two: it shrinks with every check, and each new limit re-configures the solver
/// (Z3: as long as a small check takes). A check then ends at most a step before the
/// deadline, answering `unknown` as it would at the deadline.
fn in_steps(left: Duration) -> Duration {
    if left < 2 * LIMIT_STEP {
        return left;
    }
    let steps = left.as_nanos() / LIMIT_STEP.as_nanos();
    LIMIT_STEP * u32::try_from(steps).unwrap_or(u32::MAX)
}

/// The values `value_of` gives `vars`, or their sorts' defaults (unconstrained variables).
fn defaults(
    store: &TermStore,
    vars: &[TermId],
    value_of: impl Fn(TermId) -> Option<Value>,
) -> Model {
    let mut m = Model::new();
    for &v in vars {
        let value = value_of(v).unwrap_or_else(|| Value::default_of(store.sorts(), store.sort(v)));
        m.insert(v, value);
    }
    m
}

/// `pc` if it is a path long enough for the models and groups kept per path
/// ([`QueryOptions::long_path_from`]).
fn long_path<'a>(pc: Constraints<'a>, options: &QueryOptions) -> Option<&'a PathCondition> {
    match pc {
        Constraints::Path(path) if path.len() >= options.long_path_from => Some(path),
        _ => None,
    }
}

/// Every term of `vars` is a variable of `store`.
fn check_vars(store: &TermStore, vars: &[TermId]) -> Result<(), SolverError> {
    for &v in vars {
        store.check_term(v)?;
        if store.var_id(v).is_none() {
            return Err(SolverError::Term(crate::TermError::Unknown(format!(
                "model request for term #{} (not a variable)",
                v.index()
            ))));
        }
    }
    Ok(())
}

fn check_bool(store: &TermStore, t: TermId) -> Result<(), SolverError> {
    match store.check_term(t)? {
        Sort::Bool => Ok(()),
        s => Err(SolverError::Term(crate::TermError::Sort {
            op: "query",
            expected: "Bool".into(),
            found: store.sort_name(s),
        })),
    }
}

/// The cache key: the sorted, de-duplicated constraints, then the query (if any) after a
/// separator that no term id can equal.
fn cache_key(constraints: &[TermId], query: Option<TermId>) -> Box<[TermId]> {
    let mut key: Vec<TermId> = constraints.to_vec();
    key.sort_unstable();
    key.dedup();
    if let Some(q) = query {
        key.push(SEPARATOR);
        key.push(q);
    }
    key.into_boxed_slice()
}

/// The sorted, de-duplicated terms (an unsatisfiable set's form).
fn sorted_set<'a>(terms: impl Iterator<Item = &'a TermId>) -> Vec<TermId> {
    let mut set: Vec<TermId> = terms.copied().collect();
    set.sort_unstable();
    set.dedup();
    set
}

/// Separates constraints from the query in cache keys (a store never reaches 2^32 terms).
const SEPARATOR: TermId = TermId::MAX;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Value;
    use crate::Z3Solver;

    fn engine(options: QueryOptions) -> QueryEngine<Z3Solver> {
        QueryEngine::new(Z3Solver::new().expect("z3"), options).expect("engine")
    }

    #[test]
    fn fast_path_answers_constants_and_negations() {
        let mut s = TermStore::new();
        let x = s.bv_var("x", 32).expect("var");
        let ten = s.bv_val(32, 10).expect("c");
        let c = s.bv_ult(x, ten).expect("c");
        let nc = s.not(c).expect("not");
        let f = s.bool_val(false).expect("f");
        let mut e = engine(QueryOptions::default());
        assert_eq!(e.is_satisfiable(&s, &[c], Some(f)), Ok(SatResult::Unsat));
        assert_eq!(e.is_satisfiable(&s, &[c], Some(nc)), Ok(SatResult::Unsat));
        assert_eq!(e.must_be_true(&mut s, &[c], c), Ok(Answer::Yes));
        assert_eq!(e.is_satisfiable(&s, &[], None), Ok(SatResult::Sat));
        assert_eq!(e.stats().fast_path, 4);
        assert_eq!(e.stats().solver_queries, 0);
    }

    #[test]
    fn known_values_come_from_a_kept_model_without_the_solver() {
        let mut s = TermStore::new();
        let x = s.bv_var("x", 32).expect("var");
        let y = s.bv_var("y", 32).expect("var");
        let ten = s.bv_val(32, 10).expect("c");
        let x_big = s.bv_ugt(x, ten).expect("c");
        let sum = s.bv_add(x, y).expect("t");
        let mut pc = PathCondition::new();
        pc.push(x_big);
        let mut e = engine(QueryOptions::default());
        assert_eq!(e.is_satisfiable(&s, &pc, None), Ok(SatResult::Sat));
        let asked = e.stats().solver_queries;
        let values = e.known_values(&s, &pc, &[x, sum]).expect("a kept model");
        assert_eq!(e.stats().solver_queries, asked);
        let bits = |v: &Value| v.as_bv().expect("a bit-vector").bits();
        // `x` as the path allows; `y`, of which the path says nothing, at its default.
        assert!(bits(&values[0]) > 10, "{values:?}");
        assert_eq!(bits(&values[1]), bits(&values[0]));
        // Without model reuse nothing is kept, so nothing is known.
        let mut plain = engine(QueryOptions::plain());
        assert_eq!(plain.is_satisfiable(&s, &pc, None), Ok(SatResult::Sat));
        assert_eq!(plain.known_values(&s, &pc, &[x]), None);
    }

    #[test]
    fn questions_on_the_second_solver_leave_the_first_as_it_was() {
        let mut s = TermStore::new();
        let x = s.bv_var("x", 32).expect("var");
        let mut pc = Vec::new();
        for k in [1000u128, 900, 800] {
            let bound = s.bv_val(32, k).expect("c");
            pc.push(s.bv_ult(x, bound).expect("c"));
        }
        let mut e = engine(QueryOptions::plain());
        e.add_second_solver(Z3Solver::new().expect("z3"));
        assert_eq!(e.is_satisfiable(&s, &pc[..1], None), Ok(SatResult::Sat));
        let first_work = e.solver_work();
        let (level, asked) = e.on_second_solver(|e| {
            let answer = e.is_satisfiable(&s, &pc, None);
            (e.solver().level(), answer)
        });
        assert_eq!(asked, Ok(SatResult::Sat));
        // The second solver got the whole path; the first kept its one constraint, and the
        // work counts both.
        assert_eq!(level, 1);
        assert_eq!(e.solver().level(), 1);
        assert!(e.solver_work() > first_work);
        assert_eq!(e.stats().solver_queries, 2);
        // Without a second solver, questions go to the only one.
        let mut single = engine(QueryOptions::plain());
        let level = single.on_second_solver(|e| {
            assert_eq!(e.is_satisfiable(&s, &pc, None), Ok(SatResult::Sat));
            e.solver().level()
        });
        assert_eq!((level, single.solver().level()), (1, 1));
    }

    #[test]
    fn cache_and_independence_are_counted() {
        let mut s = TermStore::new();
        let x = s.bv_var("x", 32).expect("var");
        let y = s.bv_var("y", 32).expect("var");
        let ten = s.bv_val(32, 10).expect("c");
        let cx = s.bv_ult(x, ten).expect("c");
        let cy = s.bv_ugt(y, ten).expect("c");
        let q = s.eq(x, ten).expect("q");
        let mut e = engine(QueryOptions::default());
        assert_eq!(e.may_be_true(&s, &[cx, cy], q), Ok(Answer::No));
        assert_eq!(e.may_be_true(&s, &[cy, cx], q), Ok(Answer::No));
        let st = e.stats().clone();
        assert_eq!((st.solver_queries, st.cache_hits), (1, 1));
        assert_eq!((st.independence_reduced, st.constraints_dropped), (2, 2));
        assert_eq!((st.queries, st.unsat), (2, 2));
    }

    #[test]
    fn an_unsatisfiable_question_answers_the_questions_that_contain_it() {
        let mut s = TermStore::new();
        let x = s.bv_var("x", 32).expect("var");
        let y = s.bv_var("y", 32).expect("var");
        let ten = s.bv_val(32, 10).expect("c");
        let x_small = s.bv_ult(x, ten).expect("c");
        let y_small = s.bv_ult(y, x).expect("c");
        let x_big = s.bv_ugt(x, ten).expect("q");
        let sum = s.bv_add(x, y).expect("t");
        let sum_big = s.bv_ugt(sum, ten).expect("q");
        for on in [true, false] {
            let mut e = engine(QueryOptions {
                unsat_subsets: on,
                ..QueryOptions::default()
            });
            // x < 10 ∧ x > 10, then the same with y's constraint and as a model request.
            assert_eq!(e.may_be_true(&s, &[x_small], x_big), Ok(Answer::No));
            assert_eq!(
                e.may_be_true(&s, &[x_small, y_small], x_big),
                Ok(Answer::No)
            );
            assert_eq!(
                e.get_model(&s, &[x_small, y_small, x_big], &[x]),
                Ok(ModelResult::Unsat)
            );
            // A satisfiable question is not answered by it.
            assert_eq!(
                e.may_be_true(&s, &[x_small, y_small], sum_big),
                Ok(Answer::Yes)
            );
            let st = e.stats().clone();
            let (hits, solver) = if on { (2, 2) } else { (0, 4) };
            assert_eq!(
                (st.unsat_subset_hits, st.solver_queries),
                (hits, solver),
                "{on}"
            );
        }
    }

    #[test]
    fn an_unsatisfiable_path_condition_leaves_no_wrong_unsat_set() {
        // The engine may go on with an unsatisfiable path condition (after `unknown`): a
        // question about `y` is then `unsat` because of the asserted `x` constraints, which
        // independence left out of it; `y == 1` alone must not be kept as unsatisfiable.
        let mut s = TermStore::new();
        let x = s.bv_var("x", 32).expect("var");
        let y = s.bv_var("y", 32).expect("var");
        let zero = s.bv_val(32, 0).expect("c");
        let one = s.bv_val(32, 1).expect("c");
        let x_neg = s.bv_slt(x, zero).expect("c");
        let x_pos = s.bv_sgt(x, zero).expect("c");
        let x_one = s.eq(x, one).expect("q");
        let y_one = s.eq(y, one).expect("q");
        // Model reuse would answer the `y` question from `y`'s own constraints (independence
        // takes the path condition to be satisfiable); the solver sees the whole of it.
        let mut e = engine(QueryOptions {
            model_reuse: false,
            ..QueryOptions::default()
        });
        let pc = [x_neg, x_pos];
        assert_eq!(e.may_be_true(&s, &pc, x_one), Ok(Answer::No));
        assert_eq!(e.may_be_true(&s, &pc, y_one), Ok(Answer::No));
        assert!(matches!(
            e.get_model(&s, &[y_one], &[y]),
            Ok(ModelResult::Sat(_))
        ));
        assert_eq!(e.is_satisfiable(&s, &[y_one], None), Ok(SatResult::Sat));
    }

    #[test]
    fn a_passed_deadline_answers_unknown_without_the_solver() {
        let mut s = TermStore::new();
        let x = s.bv_var("x", 32).expect("var");
        let ten = s.bv_val(32, 10).expect("c");
        let c = s.bv_ult(x, ten).expect("c");
        let mut e = engine(QueryOptions::plain());
        e.set_deadline(Some(Instant::now()));
        assert!(matches!(
            e.is_satisfiable(&s, &[c], None),
            Ok(SatResult::Unknown(_))
        ));
        assert_eq!(e.stats().solver_queries, 0);
        e.set_deadline(Some(Instant::now() + Duration::from_secs(60)));
        assert_eq!(e.is_satisfiable(&s, &[c], None), Ok(SatResult::Sat));
        assert_eq!(e.stats().solver_queries, 1);
    }

    #[test]
    fn a_used_up_work_share_answers_unknown_until_it_is_lifted() {
        let mut s = TermStore::new();
        let x = s.bv_var("x", 32).expect("var");
        let ten = s.bv_val(32, 10).expect("c");
        let c = s.bv_ult(x, ten).expect("c");
        let d = s.bv_ult(ten, x).expect("d");
        let mut e = engine(QueryOptions::plain());
        e.set_deadline(Some(Instant::now() + Duration::from_secs(60)));
        let before = e.solver_work();
        e.set_work_share(Some(before + 1));
        // A check that starts within the share runs to its end, and counts.
        assert_eq!(e.is_satisfiable(&s, &[c], None), Ok(SatResult::Sat));
        assert_eq!(e.stats().solver_queries, 1);
        assert!(e.solver_work() > before);
        assert!(matches!(
            e.is_satisfiable(&s, &[d], None),
            Ok(SatResult::Unknown(_))
        ));
        assert_eq!(e.stats().solver_queries, 1);
        // The search's own deadline is untouched: without the share, checks go on.
        e.set_work_share(None);
        assert_eq!(e.is_satisfiable(&s, &[d], None), Ok(SatResult::Sat));
        assert_eq!(e.stats().solver_queries, 2);
    }
    #[test]
    fn every_layer_gives_the_plain_answer_on_random_paths() {
        // Paths grown one satisfiable atom at a time over four 8-bit variables (some atoms tie
        // two variables together), with a question at every step: the layered engine
        // (independence, cache, model reuse) must answer as the plain one.
        let mut s = TermStore::new();
        let vars: Vec<TermId> = (0..4)
            .map(|i| s.bv_var(format!("v{i}"), 8).expect("var"))
            .collect();
        let mut seed = 0x9e37_79b9_u64;
        let mut next = |n: u64| {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            (seed >> 33) % n
        };
        let mut layered = engine(QueryOptions::default());
        let mut plain = engine(QueryOptions::plain());
        // The same questions about the same paths as engines keep them, forked and returned
        // to as a search does: the path models must answer as the plain engine.
        let mut by_path = engine(QueryOptions {
            long_path_from: 0,
            ..QueryOptions::default()
        });
        for _ in 0..40 {
            let mut pc: Vec<TermId> = Vec::new();
            let mut path = PathCondition::new();
            let mut forks: Vec<(Vec<TermId>, PathCondition)> = Vec::new();
            for _ in 0..10 {
                if next(4) == 0 {
                    if let Some((old_pc, old_path)) = forks.pop() {
                        (pc, path) = (old_pc, old_path);
                    }
                }
                let a = vars[next(4) as usize];
                let b = match next(3) {
                    0 => vars[next(4) as usize],
                    _ => s.bv_val(8, u128::from(next(256))).expect("c"),
                };
                let sum = s.bv_add(a, b).expect("t");
                let k = s.bv_val(8, u128::from(next(256))).expect("c");
                let atom = match next(3) {
                    0 => s.bv_ult(sum, k),
                    1 => s.eq(sum, k),
                    _ => s.bv_ugt(a, k),
                }
                .expect("atom");
                let atom = if next(2) == 0 {
                    s.not(atom).expect("not")
                } else {
                    atom
                };
                let expected = plain.is_satisfiable(&s, &pc, Some(atom)).expect("plain");
                let got = layered
                    .is_satisfiable(&s, &pc, Some(atom))
                    .expect("layered");
                assert_eq!(got, expected, "pc {pc:?}, query {atom:?}");
                let on_path = by_path.is_satisfiable(&s, &path, Some(atom));
                assert_eq!(on_path, Ok(expected.clone()), "path {pc:?}, query {atom:?}");
                if expected == SatResult::Sat {
                    forks.push((pc.clone(), path.clone()));
                    path.push(atom);
                    let ModelResult::Sat(model) = by_path.get_model(&s, &path, &vars).expect("m")
                    else {
                        panic!("path {pc:?} and {atom:?} are satisfiable");
                    };
                    let assignment = model.to_assignment(&s);
                    for &c in pc.iter().chain([&atom]) {
                        assert_eq!(crate::eval(&s, c, &assignment), Ok(Value::Bool(true)));
                    }
                    pc.push(atom);
                    // The path condition alone, once the engine kept the models of its parts.
                    let again = layered.is_satisfiable(&s, &pc, None).expect("layered");
                    assert_eq!(again, SatResult::Sat);
                }
            }
        }
        let stats = layered.stats();
        assert!(stats.model_hits > 0, "{stats:?}");
        let stats = by_path.stats();
        assert!(stats.model_hits > stats.solver_queries, "{stats:?}");
    }

    /// A walk that meets a new input at each step and wants it non-null and different from
    /// the ones before (a list walk under POSE): model reuse answers every step and the final
    /// model from kept models alone, the inputs of the independent first steps distinct too.
    #[test]
    fn fresh_inputs_are_tried_zero_and_distinct() {
        let mut s = TermStore::new();
        let mut e = engine(QueryOptions::default());
        let zero = s.bv_val(32, 0).expect("c");
        let inputs: Vec<TermId> = (0..6)
            .map(|i| s.bv_var(format!("n{i}"), 32).expect("var"))
            .collect();
        let mut pc: Vec<TermId> = Vec::new();
        for (i, &n) in inputs.iter().enumerate() {
            let non_null = s.neq(n, zero).expect("t");
            let null = s.eq(n, zero).expect("t");
            assert_eq!(e.is_satisfiable(&s, &pc, Some(null)), Ok(SatResult::Sat));
            assert_eq!(
                e.is_satisfiable(&s, &pc, Some(non_null)),
                Ok(SatResult::Sat)
            );
            pc.push(non_null);
            if i > 0 {
                let distinct = s.distinct(&inputs[..=i]).expect("t");
                assert_eq!(
                    e.is_satisfiable(&s, &pc, Some(distinct)),
                    Ok(SatResult::Sat)
                );
                pc.push(distinct);
            }
        }
        let ModelResult::Sat(model) = e.get_model(&s, &pc, &inputs).expect("model") else {
            panic!("the path condition is satisfiable");
        };
        let values: rustc_hash::FxHashSet<_> = inputs.iter().map(|&n| model.get(n)).collect();
        assert_eq!(values.len(), inputs.len(), "{model:?}");
        let stats = e.stats();
        assert_eq!(stats.solver_queries, 0, "{stats:?}");
    }

    #[test]
    fn plain_options_send_everything() {
        let mut s = TermStore::new();
        let x = s.bv_var("x", 32).expect("var");
        let ten = s.bv_val(32, 10).expect("c");
        let c = s.bv_ult(x, ten).expect("c");
        let mut e = engine(QueryOptions::plain());
        assert_eq!(e.must_be_true(&mut s, &[c], c), Ok(Answer::Yes));
        assert_eq!(e.must_be_true(&mut s, &[c], c), Ok(Answer::Yes));
        assert_eq!(e.stats().solver_queries, 2);
        assert_eq!(e.stats().fast_path + e.stats().cache_hits, 0);
    }

    #[test]
    fn models_cover_unconstrained_variables_and_come_from_the_cache() {
        let mut s = TermStore::new();
        let x = s.bv_var("x", 8).expect("var");
        let free = s.int_var("free").expect("var");
        let seven = s.bv_val(8, 7).expect("c");
        let c = s.eq(x, seven).expect("c");
        let mut e = engine(QueryOptions::default());
        for _ in 0..2 {
            match e.get_model(&s, &[c], &[x, free]) {
                Ok(ModelResult::Sat(m)) => {
                    assert_eq!(m.get(x).and_then(Value::as_bv).map(|v| v.bits()), Some(7));
                    assert_eq!(m.get(free), Some(&Value::Int(0)));
                }
                other => panic!("{other:?}"),
            }
        }
        assert_eq!(e.stats().cache_hits, 1);
        let ne = s.neq(x, seven).expect("ne");
        assert_eq!(e.get_model(&s, &[c, ne], &[x]), Ok(ModelResult::Unsat));
        assert!(e.get_model(&s, &[c], &[c]).is_err(), "not a variable");
    }

    #[test]
    fn the_solver_stack_reuses_the_common_prefix() {
        let mut s = TermStore::new();
        let x = s.bv_var("x", 32).expect("var");
        let mut pc = Vec::new();
        let mut e = engine(QueryOptions::plain());
        for i in 0..20u128 {
            let k = s.bv_val(32, 1000 - i).expect("c");
            pc.push(s.bv_ult(x, k).expect("c"));
            assert_eq!(e.is_satisfiable(&s, &pc, None), Ok(SatResult::Sat));
        }
        assert_eq!(e.solver().level(), 20);
        assert_eq!(e.is_satisfiable(&s, &pc[..3], None), Ok(SatResult::Sat));
        assert_eq!(e.solver().level(), 3);
        // A constraint from another path: everything after the common part is popped.
        let other = s.bv_var("y", 32).expect("var");
        let zero = s.bv_val(32, 0).expect("c");
        let c = s.eq(other, zero).expect("c");
        let path = [pc[0], c];
        assert_eq!(e.is_satisfiable(&s, &path, None), Ok(SatResult::Sat));
        assert_eq!(e.solver().level(), 2);
        // The constraints one question adds share a scope: a group of new ones costs one push.
        let fresh: Vec<TermId> = (0..5)
            .map(|i| {
                let z = s.bv_var(format!("z{i}"), 32).expect("var");
                s.bv_ult(z, x).expect("c")
            })
            .collect();
        assert_eq!(e.is_satisfiable(&s, &fresh, None), Ok(SatResult::Sat));
        assert_eq!(e.solver().level(), 1);
        assert_eq!(e.is_satisfiable(&s, &fresh[..2], None), Ok(SatResult::Sat));
        assert_eq!(e.solver().level(), 1, "popped whole, then pushed again");
        // Only the two are asserted now: the other three come back in a scope of their own.
        assert_eq!(e.is_satisfiable(&s, &fresh, None), Ok(SatResult::Sat));
        assert_eq!(e.solver().level(), 2);
    }

    /// `n` 32-bit inputs `a0`, `a1`, ….
    fn inputs(s: &mut TermStore, n: usize) -> Vec<TermId> {
        (0..n)
            .map(|i| s.bv_var(format!("a{i}"), 32).expect("var"))
            .collect()
    }

    /// A loop branching on each of many fresh inputs (`a[i - 1] < a[i]`, either way): every
    /// question about the growing path is answered from the path's own model, without the
    /// solver, and the final counterexample request too.
    #[test]
    fn path_models_answer_a_long_path_without_the_solver() {
        let mut s = TermStore::new();
        let mut e = engine(QueryOptions::default());
        let vars = inputs(&mut s, 2000);
        let mut pc = PathCondition::new();
        for w in vars.windows(2) {
            let less = s.bv_slt(w[0], w[1]).expect("c");
            let not_less = s.not(less).expect("c");
            assert_eq!(e.may_be_true(&s, &pc, less), Ok(Answer::Yes));
            assert_eq!(e.may_be_true(&s, &pc, not_less), Ok(Answer::Yes));
            pc.push(not_less);
        }
        // `a0 >= a1 >= …`: `a0 > a1` is possible (a repair of the path's model), `a1 > a0` not.
        let greater = s.bv_slt(vars[1], vars[0]).expect("c");
        assert_eq!(e.may_be_true(&s, &pc, greater), Ok(Answer::Yes));
        assert_eq!(e.stats().solver_queries, 0);
        let wrong = s.bv_slt(vars[0], vars[1]).expect("c");
        assert_eq!(e.may_be_true(&s, &pc, wrong), Ok(Answer::No));
        pc.push(greater);
        let ModelResult::Sat(model) = e.get_model(&s, &pc, &vars).expect("model") else {
            panic!("the path is satisfiable");
        };
        let value = |t: TermId| {
            model
                .get(t)
                .and_then(Value::as_bv)
                .expect("value")
                .to_i128()
        };
        assert!(value(vars[0]) > value(vars[1]));
        assert!(vars.windows(2).all(|w| value(w[0]) >= value(w[1])));
    }

    /// A constraint the path adds without a question (a heap access's clause) and then a
    /// question the path's model falsifies: the model, extended over the new constraint, is
    /// repaired for the question, without the solver (before, only a model of the whole path
    /// was repaired, and the question went to the solver with the whole path).
    #[test]
    fn path_models_repair_after_constraints_added_without_a_question() {
        let mut s = TermStore::new();
        let mut e = engine(QueryOptions::default());
        let vars = inputs(&mut s, 300);
        let mut pc = PathCondition::new();
        // Decreasing, so that values by number (increasing) do not extend an older model.
        for w in vars.windows(2) {
            let greater = s.bv_slt(w[1], w[0]).expect("c");
            assert_eq!(e.may_be_true(&s, &pc, greater), Ok(Answer::Yes));
            pc.push(greater);
        }
        let b = s.bv_var("b", 32).expect("var");
        let zero = s.bv_val(32, 0).expect("c");
        let b_zero = s.eq(b, zero).expect("c");
        pc.push(s.not(b_zero).expect("c"));
        let far = s.bv_val(32, -2_000_000i32 as u32 as u128).expect("c");
        let last_far = s.eq(vars[299], far).expect("c");
        assert_eq!(e.may_be_true(&s, &pc, last_far), Ok(Answer::Yes));
        assert_eq!(e.stats().solver_queries, 0);
    }

    /// A loop whose rounds each read a fresh input, take it apart by comparisons and go on
    /// where it is one number (a state machine's `input == k`). Once the path is long, the
    /// path models answer nearly every question: they start with one model of the whole
    /// path. Learning from the model of the question's group alone (the solver's, or model
    /// reuse's) never started them, since it leaves the older inputs at defaults that
    /// falsify their constraints: every question of the long path then went on to the
    /// layers after them and paid for the path's length.
    #[test]
    fn path_models_start_on_a_path_that_is_already_long() {
        let mut s = TermStore::new();
        let mut e = engine(QueryOptions::default());
        let long_from = QueryOptions::default().long_path_from;
        let one = s.bv_val(32, 1).expect("c");
        let six = s.bv_val(32, 6).expect("c");
        let mut pc = PathCondition::new();
        let (mut long_questions, mut passed_on_when_long) = (0, None);
        for i in 0..600 {
            let k = s.bv_var(format!("k{i}"), 32).expect("var");
            let below = s.bv_slt(k, one).expect("c");
            let above = s.bv_slt(six, k).expect("c");
            let is_one = s.eq(k, one).expect("c");
            for c in [below, above, is_one] {
                assert_eq!(e.may_be_true(&s, &pc, c), Ok(Answer::Yes));
                let not = s.not(c).expect("c");
                assert_eq!(e.may_be_true(&s, &pc, not), Ok(Answer::Yes));
                pc.push(not);
            }
            let number = s.bv_val(32, 2 + i % 5).expect("c");
            let is_number = s.eq(k, number).expect("c");
            assert_eq!(e.may_be_true(&s, &pc, is_number), Ok(Answer::Yes));
            pc.push(is_number);
            if pc.len() >= long_from {
                long_questions += 7;
                passed_on_when_long.get_or_insert(e.stats().independence_reduced);
            }
        }
        let passed_on = e.stats().independence_reduced - passed_on_when_long.unwrap_or(0);
        assert!(
            passed_on * 4 < long_questions,
            "{passed_on} of {long_questions} questions of the long path passed on"
        );
    }

    #[test]
    fn time_left_before_a_deadline_is_passed_on_in_steps() {
        let ms = Duration::from_millis;
        assert_eq!(in_steps(ms(150)), ms(150));
        assert_eq!(in_steps(ms(250)), ms(200));
        assert_eq!(in_steps(ms(4_999)), ms(4_900));
        assert_eq!(
            in_steps(Duration::from_secs(u64::MAX)),
            LIMIT_STEP * u32::MAX
        );
    }

    /// A loop that reads a fresh input in each round, ends the path where it is negative, and
    /// asks whether it is below -5 (`unsat`): each such question reaches the solver with the
    /// constraints on its own input only (the groups kept per path), and the solver's stack
    /// never holds the rest of the path.
    #[test]
    fn unsat_questions_on_a_long_path_see_only_their_group() {
        let mut s = TermStore::new();
        let mut e = engine(QueryOptions::default());
        let zero = s.bv_val(32, 0).expect("c");
        let minus_five = s.bv_val(32, (-5i128) as u128 & 0xffff_ffff).expect("c");
        let mut pc = PathCondition::new();
        let rounds = 600;
        let long_from = QueryOptions::default().long_path_from;
        for i in 0..rounds {
            let b = s.bv_var(format!("b{i}"), 32).expect("var");
            let negative = s.bv_slt(b, zero).expect("c");
            let not_negative = s.not(negative).expect("c");
            assert_eq!(e.may_be_true(&s, &pc, negative), Ok(Answer::Yes));
            pc.push(not_negative);
            let below = s.bv_slt(b, minus_five).expect("c");
            assert_eq!(e.may_be_true(&s, &pc, below), Ok(Answer::No), "round {i}");
            if pc.len() >= long_from {
                assert!(e.solver().level() <= 1, "round {i}");
            }
        }
        let long = (long_from..rounds).count() as u64;
        assert!(e.stats().independence_reduced >= long);
        assert!(e.stats().solver_queries <= rounds as u64);
    }

    /// A model kept for one path is never taken for another with the same constraints but a
    /// different history: numbers name prefixes, not their contents.
    #[test]
    fn path_models_are_kept_per_path() {
        let mut s = TermStore::new();
        let x = s.bv_var("x", 32).expect("var");
        let ten = s.bv_val(32, 10).expect("c");
        let small = s.bv_ult(x, ten).expect("c");
        let large = s.not(small).expect("c");
        let is_ten = s.eq(x, ten).expect("c");
        let mut e = engine(QueryOptions {
            long_path_from: 0,
            ..QueryOptions::default()
        });
        let mut a = PathCondition::new();
        a.push(large);
        assert_eq!(e.may_be_true(&s, &a, is_ten), Ok(Answer::Yes));
        let mut b = PathCondition::new();
        b.push(small);
        assert_eq!(e.may_be_true(&s, &b, is_ten), Ok(Answer::No));
        a.push(is_ten);
        assert_eq!(e.must_be_true(&mut s, &a, large), Ok(Answer::Yes));
    }
}
