//! The forward engine's main loop and its report.
//!
//! The driver owns the live states, the execution tree and the searcher: it asks the searcher
//! for a state, runs it until it forks or ends (or a step budget passes), records forks and
//! ends, and enforces the global limits (time, memory, live states, `--stop-on-first`). At the
//! end every property gets its verdict from `Verdict::conclude` with the cuts the search met.
//!
//! With `--merge aggressive` or `qce` a state that arrives at a join point (the first
//! instruction of a block with several ways in) stops its run and waits there: it is merged
//! into a waiting state with the same call stack if there is one (with `qce`: one the query
//! count estimate finds similar), else it waits itself. Waiting states leave the searcher and
//! the execution tree; when no other state can run, the earliest waiting states (in reverse
//! postorder of their frames) go back and run past the join point. With `--merge dynamic` a
//! state stops at a join point too, but stays live: it is merged into a similar live state
//! standing there, if any, and the searcher is wrapped in `dynamic::FastForward`.
//! With `--summarize` every step goes through the summarizer, which jumps over runs of loop
//! iterations at loop headers and otherwise steps as the machine does.
//! Nothing here executes instructions (the machine does), merges two states (`merge` does),
//! summarizes loops (`summarize` does) or chooses states (the searchers do).

use std::cmp::{Ordering, Reverse};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use rustc_hash::FxHashMap;
use symex_ir::cfg::{BlockId, FuncId, Module, PropId};
use symex_report::{Cut, Finding, Report, Stats};
use symex_syntax::types::TypeTable;

use crate::common::budget::{peak_rss_kb, Budget};
use crate::common::entry::resolve_entry;
use crate::common::options::{CheckOptions, MergeMode};
use crate::common::progress::ProgressUpdate;
use crate::common::solver::{query_engine, solver_with_handover, ONE_SHOT_AFTER};
use crate::common::verdict;
use crate::error::EngineError;
use crate::forward::dynamic::{FastForward, JoinIndex};
use crate::forward::machine::{End, Machine};
use crate::forward::matching::StateMatching;
use crate::forward::qce::Estimates;
use crate::forward::search::{searcher, SearchView, Searcher};
use crate::forward::state::{State, StateId};
use crate::forward::subsume::{Location, PathEnd, Subsumption};
use crate::forward::summarize::Summarizer;
use crate::forward::tree::ExecTree;
use symex_report::PathEnd as TestEnd;

/// How often the search publishes its figures to a progress sink.
const PUBLISH_EVERY: Duration = Duration::from_millis(50);

/// Steps a selected state may run before the searcher is asked again (unless it forks or
/// ends first); it also bounds how long the time limit can go unchecked.
const RUN_BUDGET: usize = 10_000;

/// How many steps of one run go by between two looks at the time and memory limits.
const STEPS_PER_POLL: usize = 64;

/// How many selections of other states a group parked at a loop header (`--subsume`) waits
/// for more paths to end before its header is tried anyway. Waiting until no other state can
/// run starved them behind any loop without a bound (each iteration forks a state that parks
/// at the enclosing header, and the inner loop never runs out of states).
const PARK_PATIENCE: u64 = 32;

/// How many solver queries of other states a parked group waits at most, whichever of this
/// and [`PARK_PATIENCE`] comes first. One selection may ask hundreds (a run of
/// [`RUN_BUDGET`] steps round a loop that checks a division at each): counted in selections
/// alone, the wait let the few runnable states spend whole seconds while the states that the
/// search without `--subsume` would have run sat parked, and a violation beyond them was
/// found seconds later or not at all (BENCHMARKS.md, "Does `--subsume` lose violations?").
const PARK_PATIENCE_QUERIES: u64 = 256;

/// Checks every property of `module` reachable from `entry` by forward symbolic execution.
///
/// `types` must come from a program that type-checked (the caller refuses ill-typed ones);
/// `source` is the program text (for line and column numbers) and `program_name` the name the
/// report shows.
pub fn check_forward(
    module: &Module,
    types: &TypeTable,
    source: &str,
    program_name: &str,
    entry: &str,
    options: &CheckOptions,
) -> Result<Report, EngineError> {
    let start = Instant::now();
    let budget = Budget::new(start, options.timeout, options.max_memory_mb);
    let setup = resolve_entry(module, types, entry)?;
    let infallible = verdict::cannot_fail(module, setup.func);
    let mut queries = query_engine(&options.solver, &options.query)?;
    if options.subsume {
        // Subsumption's questions go to a solver of their own, so that the search's solver is
        // asked only the search's questions (`QueryEngine::on_second_solver`).
        queries.add_second_solver(solver_with_handover(&options.solver, ONE_SHOT_AFTER)?);
    }
    // The time limit covers solver calls too: one hard query must not outlive the check.
    queries.set_deadline(budget.deadline());
    let mut machine = Machine::new(module, source, setup, options, queries)?;
    let summary = explore(&mut machine, options, &budget, &infallible)?;
    let mut properties = Vec::with_capacity(module.properties.len());
    for (p, finding) in machine.findings.iter_mut().enumerate() {
        let prop = PropId(p as u32);
        let finding = match finding.take() {
            Some(found) => found,
            None if summary.stopped_early => Finding::GaveUp {
                reason: "the search stopped at the first violation (--stop-on-first)".into(),
            },
            None => Finding::NotReached,
        };
        let mut cuts = machine.cuts.clone();
        cuts.merge(&machine.property_cuts[p]);
        let verdict = verdict::conclude(&infallible, prop, finding, &cuts);
        let entry = machine
            .locator
            .property(prop, verdict)
            .ok_or_else(|| EngineError::Internal(format!("no property #{p}")))?;
        properties.push(entry);
    }
    let solver_work = machine.queries.counted_work();
    let query_stats = machine.queries.stats();
    let stats = Stats {
        paths: summary.paths,
        states: summary.states,
        peak_states: Some(summary.peak_live),
        queries: query_stats.queries,
        solver_ms: query_stats.time.as_millis() as u64,
        time_ms: start.elapsed().as_millis() as u64,
        solver_calls: Some(query_stats.solver_queries),
        solver_work,
        cache_hits: Some(query_stats.cache_hits),
        model_hits: Some(query_stats.model_hits),
        unsat_subset_hits: Some(query_stats.unsat_subset_hits),
        forks: Some(machine.forks),
        merges: options.merge.merges().then_some(summary.merges),
        qce_us: summary.qce.map(|q| q.us),
        qce_unestimated: summary.qce.map(|q| q.unestimated),
        subsumed: options.subsume.then_some(summary.subsumed),
        loop_invariants: summary.loop_invariants,
        subsume_unpaid_work: summary.subsume_unpaid_work,
        matched: summary.matched,
        coverage: Some(machine.coverage.summary(module)),
        traces: machine.heap.is_some().then_some(machine.traces),
        peak_rss_kb: machine.heap.as_ref().and_then(|_| peak_rss_kb()),
        loops_summarized: summary.loops.map(|(summarized, _)| summarized),
        loops_not_summarized: summary.loops.map(|(_, plain)| plain),
        loops_refused: summary.loops_refused,
        stopped_decided: summary.stopped_decided,
        search_cuts: machine.cuts.iter().map(ToString::to_string).collect(),
        term_nodes: Some(machine.store.len() as u64),
        ..Stats::default()
    };
    Ok(Report::new(
        program_name,
        "forward",
        entry,
        properties,
        stats,
    ))
}

struct Summary {
    paths: u64,
    states: u64,
    /// The most states alive at once (running, waiting at a merge point, or parked).
    peak_live: u64,
    /// `--stop-on-first` ended the search with states left.
    stopped_early: bool,
    /// Every property was decided with states left (and `--explore-all` was off).
    stopped_decided: bool,
    /// States pruned by `--subsume`.
    subsumed: u64,
    /// Loop headers proved inductive by `--subsume`.
    loop_invariants: Option<u64>,
    /// Solver work that `--subsume` spent for nothing (under a time limit).
    subsume_unpaid_work: Option<u64>,
    /// States pruned by `--match-states`.
    matched: Option<u64>,
    /// With `--summarize`: loops summarized at least once, loops reached but run plainly.
    loops: Option<(u64, u64)>,
    /// With `--summarize`: why each loop reached has no summary, as `line L: reason`.
    loops_refused: Vec<String>,
    /// Pairs of states merged into one (`--merge`).
    merges: u64,
    /// With `--merge qce|dynamic`: the query count estimates' cost.
    qce: Option<QceFigures>,
}

/// What computing the query count estimates took, before the search (the thesis's
/// `precomputeVariableCosts`, seed 002 Tables 6.2 and 6.3).
#[derive(Clone, Copy)]
struct QceFigures {
    us: u64,
    /// Functions that got no estimate (over `qce`'s limits, or irreducible).
    unestimated: u64,
}

/// Why a state stopped running before the searcher is asked again.
enum Stop {
    /// The machine ended its path.
    Ended(End),
    /// `--subsume` pruned it with this annotation.
    Subsumed(symex_smt::TermId),
    /// `--match-states` pruned it: an equal state stood at its loop header before.
    Matched,
    /// It waits at a loop header for the header's invariant (`--subsume`).
    Parked,
}

fn explore(
    machine: &mut Machine<'_>,
    options: &CheckOptions,
    budget: &Budget,
    infallible: &[bool],
) -> Result<Summary, EngineError> {
    let explore_all = options.explore_all || options.emit_tests.is_on();
    // Properties that need a confirmed violation to be decided (the rest cannot fail).
    let undecided = infallible.iter().filter(|&&cannot| !cannot).count();
    // States stop at join points to be merged there.
    let merging = options.merge.merges();
    // They wait there until nothing else can run (not with `dynamic`).
    let holding = matches!(options.merge, MergeMode::Aggressive | MergeMode::Qce);
    let estimating = Instant::now();
    let estimates = options
        .merge
        .uses_qce()
        .then(|| Estimates::compute(machine.module, &machine.info, &options.merge_options));
    let qce = estimates.as_ref().map(|e| QceFigures {
        us: estimating.elapsed().as_micros() as u64,
        unestimated: e.unestimated() as u64,
    });
    let mut states: FxHashMap<StateId, State> = FxHashMap::default();
    states.insert(0, machine.initial_state()?);
    let mut waiting = Waiting::default();
    let mut standing = JoinIndex::default();
    let mut tree = if options.search.walks_tree() {
        ExecTree::new(0)
    } else if options.search.keys_states() {
        ExecTree::keyed(0)
    } else {
        ExecTree::untracked()
    };
    let mut searcher = searcher(options.search, options.seed);
    if options.merge == MergeMode::Dynamic {
        searcher = Box::new(FastForward::new(
            searcher,
            machine.module,
            &machine.info,
            options.merge_options.delta,
        ));
    }
    searcher.update(None, &[0], &[]);
    let parking = !searcher.draws_at_random();
    let mut summary = Summary {
        paths: 0,
        states: 1,
        peak_live: 1,
        qce,
        stopped_early: false,
        stopped_decided: false,
        subsumed: 0,
        loop_invariants: None,
        subsume_unpaid_work: None,
        matched: None,
        loops: None,
        loops_refused: Vec::new(),
        merges: 0,
    };
    let mut subsumption = options.subsume.then(|| Subsumption::new(budget.deadline()));
    let mut matching = options.match_states.then(StateMatching::default);
    let mut parked = Parked::default();
    let mut summarizer = options.summarize.then(Summarizer::new);
    let mut next_id: StateId = 1;
    let mut published: Option<Instant> = None;
    let mut selections: u64 = 0;
    loop {
        if states.is_empty()
            && !waiting.release(machine, &mut states, &mut tree, &mut *searcher)
            && !parked.release(
                None,
                machine,
                subsumption.as_mut(),
                &mut states,
                &mut tree,
                &mut *searcher,
            )?
        {
            break;
        }
        if let Some(key) = parked.overdue(SearchClock::now(selections, machine)) {
            parked.release(
                Some(key),
                machine,
                subsumption.as_mut(),
                &mut states,
                &mut tree,
                &mut *searcher,
            )?;
        }
        selections += 1;
        if let Some(cut) = budget.exhausted() {
            machine.cuts.hit(cut);
            break;
        }
        let selected = {
            let view = SearchView {
                states: &states,
                tree: &tree,
                module: machine.module,
                coverage: &machine.coverage,
            };
            searcher.select(&view)
        };
        let Some(id) = selected else {
            break;
        };
        let mut state = states
            .remove(&id)
            .ok_or_else(|| EngineError::Internal(format!("the searcher chose dead state {id}")))?;
        let mut forked = Vec::new();
        let mut end = None;
        for step in 0..RUN_BUDGET {
            // A step can be long (a symbolic memory access builds a term per cell), so the
            // limits are looked at within a run too; the state then waits in `states`.
            if step % STEPS_PER_POLL == STEPS_PER_POLL - 1 && budget.exhausted().is_some() {
                break;
            }
            if let Some(subsumption) = subsumption.as_mut() {
                if let Some(stop) = subsumption_stop(machine, subsumption, &state, parking)? {
                    end = Some(stop);
                    break;
                }
                subsumption.before_step(&mut state);
            }
            let (mut outcome, summarized) = match summarizer.as_mut() {
                Some(summarizer) => summarizer.step(machine, &mut state)?,
                None => (machine.step(&mut state)?, false),
            };
            if let Some(subsumption) = subsumption.as_mut() {
                if summarized {
                    // A summary changes values without running the loop's blocks: annotations
                    // cannot be carried back across it, so the blocks before it are forgotten.
                    state.annotation_track = Default::default();
                    for s in &mut outcome.forked {
                        s.annotation_track = Default::default();
                    }
                } else if !outcome.forked.is_empty() {
                    subsumption.forked(&machine.info, &state);
                }
            }
            if let Some(matching) = matching.as_mut() {
                outcome.forked.retain(|s| !matching.revisits(machine, s));
            }
            forked.extend(outcome.forked);
            if let Some(ended) = outcome.end {
                end = Some(Stop::Ended(ended));
                break;
            }
            if matching
                .as_mut()
                .is_some_and(|m| m.revisits(machine, &state))
            {
                end = Some(Stop::Matched);
                break;
            }
            if !forked.is_empty() || machine.stop_now || (merging && at_join(machine, &state)) {
                break;
            }
        }
        let mut added = Vec::with_capacity(forked.len());
        for s in forked {
            let new_id = next_id;
            next_id += 1;
            summary.states += 1;
            if merging && at_join(machine, &s) {
                let merged = if holding {
                    waiting.arrive(machine, estimates.as_ref(), new_id, s)?
                } else {
                    meet(
                        machine,
                        estimates.as_ref(),
                        &mut standing,
                        &mut states,
                        new_id,
                        s,
                    )?
                };
                if merged {
                    summary.merges += 1;
                } else if !holding {
                    added.push(new_id);
                }
            } else {
                states.insert(new_id, s);
                added.push(new_id);
            }
        }
        tree.fork(id, &added);
        let removed = match end {
            Some(Stop::Parked) => {
                tree.suspend(id);
                let now = SearchClock::now(selections, machine);
                parked.park(machine, subsumption.as_mut(), id, state, now)?;
                vec![id]
            }
            Some(end) => {
                tree.remove(id);
                if matches!(end, Stop::Ended(ref e) if *e != End::Dropped)
                    || matches!(end, Stop::Subsumed(_) | Stop::Matched)
                {
                    machine.traces += 1;
                }
                let path_end = match end {
                    Stop::Ended(End::Returned) => {
                        summary.paths += machine.count_paths(&state, budget)?;
                        machine.emit_test(&state, None, TestEnd::Returned)?;
                        Some(PathEnd::Returned)
                    }
                    Stop::Ended(End::Cut(cut)) => {
                        let reason = cut.to_string();
                        machine.cuts.hit(cut);
                        machine.emit_test(&state, None, TestEnd::Cut { reason })?;
                        None
                    }
                    Stop::Ended(End::Dropped) => Some(PathEnd::Dropped),
                    // A matched state leaves no annotation: its equal twin's paths leave theirs.
                    Stop::Ended(End::Failed) | Stop::Parked | Stop::Matched => None,
                    Stop::Subsumed(annotation) => {
                        summary.subsumed += 1;
                        Some(PathEnd::Subsumed(annotation))
                    }
                };
                if let (Some(subsumption), Some(path_end)) = (subsumption.as_mut(), path_end) {
                    subsumption.path_ended(
                        &mut machine.store,
                        machine.module,
                        &machine.info,
                        &state,
                        path_end,
                    )?;
                }
                vec![id]
            }
            None if holding && at_join(machine, &state) => {
                tree.remove(id);
                if waiting.arrive(machine, estimates.as_ref(), id, state)? {
                    summary.merges += 1;
                }
                vec![id]
            }
            None if merging && at_join(machine, &state) => {
                if meet(
                    machine,
                    estimates.as_ref(),
                    &mut standing,
                    &mut states,
                    id,
                    state,
                )? {
                    summary.merges += 1;
                    tree.remove(id);
                    vec![id]
                } else {
                    Vec::new()
                }
            }
            None => {
                states.insert(id, state);
                Vec::new()
            }
        };
        searcher.update(Some(id), &added, &removed);
        let live = states.len() + waiting.states.len() + parked.len();
        summary.peak_live = summary.peak_live.max(live as u64);
        if machine.stop_now {
            summary.stopped_early = live > 0;
            break;
        }
        if !explore_all
            && machine.confirmed_violations >= undecided
            && machine.all_decided(infallible)
        {
            summary.stopped_decided = live > 0;
            break;
        }
        if let Some(max) = options.max_states {
            if live > max {
                machine.cuts.hit(Cut::States(max as u64));
                break;
            }
        }
        if options.progress.is_on() && published.is_none_or(|t| t.elapsed() >= PUBLISH_EVERY) {
            published = Some(Instant::now());
            // Confirmed so far, and the properties that cannot fail (decided before the search).
            let decided = machine.confirmed_violations + (infallible.len() - undecided);
            options.progress.publish(ProgressUpdate {
                paths: Some(summary.paths),
                states: Some(live as u64),
                queries: Some(machine.queries.stats().queries),
                decided: Some(decided as u64),
                properties: Some(machine.module.properties.len() as u64),
            });
        }
    }
    summary.subsume_unpaid_work = subsumption.as_ref().and_then(Subsumption::unpaid_work);
    summary.loop_invariants = subsumption.map(|s| s.invariants);
    summary.matched = matching.as_ref().map(|m| m.matched);
    if let Some(summarizer) = &summarizer {
        summary.loops_refused = (summarizer.refusals())
            .map(|(func, id, reason)| {
                let function = &machine.module.functions[func.index()];
                let header = machine.info.functions[func.index()].loops().get(id).header;
                let block = &function.blocks[header.index()];
                let span = block
                    .insts
                    .first()
                    .map_or(block.term_span, |inst| inst.span);
                format!("line {}: {reason}", machine.locator.at(span).line)
            })
            .collect();
    }
    summary.loops = summarizer.map(|s| s.loop_counts());
    if options.leave_states_to_exit {
        std::mem::forget((states, waiting, parked, matching));
    }
    Ok(summary)
}

/// With `--subsume`, at a join point: pruned if the annotation there covers the state. If it
/// came round a loop whose header may yet get an invariant: parked for the attempt if
/// `parking`, else the attempt is made at once (under a search that draws at random, parking
/// would change every later draw: docs/path-subsumption.md, "Loops"), and the state is pruned
/// if the new invariant covers it.
fn subsumption_stop(
    machine: &mut Machine<'_>,
    subsumption: &mut Subsumption,
    state: &State,
    parking: bool,
) -> Result<Option<Stop>, EngineError> {
    if !at_join(machine, state) {
        return Ok(None);
    }
    if let Some(annotation) = subsumption.covers(&mut machine.store, &mut machine.queries, state)? {
        return Ok(Some(Stop::Subsumed(annotation)));
    }
    if !subsumption.wants_invariant(machine.module, &machine.info, state, &mut machine.queries) {
        return Ok(None);
    }
    if parking {
        return Ok(Some(Stop::Parked));
    }
    let Some(location) = subsumption.location(state) else {
        return Ok(None);
    };
    if try_invariant(machine, subsumption, location, state)? {
        if let Some(annotation) =
            subsumption.covers(&mut machine.store, &mut machine.queries, state)?
        {
            return Ok(Some(Stop::Subsumed(annotation)));
        }
    }
    Ok(None)
}

/// Subsumption's attempt to make the annotation at the loop header `location` an invariant,
/// from `state` (one that came round the loop); whether it proved one.
fn try_invariant(
    machine: &mut Machine<'_>,
    subsumption: &mut Subsumption,
    location: Location,
    state: &State,
) -> Result<bool, EngineError> {
    subsumption.try_invariant(
        &mut machine.store,
        &mut machine.queries,
        machine.module,
        &machine.info,
        location,
        state,
    )
}

/// A parked group's key: deeper loops first, then by location.
type ParkKey = (Reverse<u32>, Location);

/// States parked at loop headers (`--subsume`), innermost loops first.
#[derive(Default)]
struct Parked {
    groups: BTreeMap<ParkKey, ParkedGroup>,
}

/// How far the search has gone: how long a parked group has waited is told by it.
#[derive(Clone, Copy)]
struct SearchClock {
    selections: u64,
    queries: u64,
}

impl SearchClock {
    fn now(selections: u64, machine: &Machine<'_>) -> SearchClock {
        SearchClock {
            selections,
            queries: machine.queries.stats().solver_queries,
        }
    }

    /// Whether a group parked at `since` has waited long enough: [`PARK_PATIENCE`] selections
    /// or [`PARK_PATIENCE_QUERIES`] solver queries, whichever comes first.
    fn overdue_since(self, since: SearchClock) -> bool {
        since.selections + PARK_PATIENCE <= self.selections
            || since.queries + PARK_PATIENCE_QUERIES <= self.queries
    }
}

/// The states parked at one header, and when the first came.
struct ParkedGroup {
    since: SearchClock,
    states: Vec<(StateId, State)>,
}

impl Parked {
    fn len(&self) -> usize {
        self.groups.values().map(|g| g.states.len()).sum()
    }

    fn park(
        &mut self,
        machine: &Machine<'_>,
        subsumption: Option<&mut Subsumption>,
        id: StateId,
        state: State,
        since: SearchClock,
    ) -> Result<(), EngineError> {
        let location = subsumption.and_then(|s| s.location(&state));
        let (Some(location), Some(frame)) = (location, state.frame()) else {
            // `wants_invariant` asks only for states with both; dropping one would hide its paths.
            return Err(EngineError::Internal(
                "a state parked outside a loop header".into(),
            ));
        };
        let depth = machine.info.functions[frame.func.index()]
            .loops()
            .depth(frame.block);
        self.groups
            .entry((Reverse(depth), location))
            .or_insert_with(|| ParkedGroup {
                since,
                states: Vec::new(),
            })
            .states
            .push((id, state));
        Ok(())
    }

    /// The first group that has waited long enough by `now`.
    fn overdue(&self, now: SearchClock) -> Option<ParkKey> {
        self.groups
            .iter()
            .find(|(_, group)| now.overdue_since(group.since))
            .map(|(&key, _)| key)
    }

    /// Tries the header of the group `key` (the innermost, if `None`) as an invariant and
    /// sends the group's states back to run (they are checked against the header's annotation
    /// first); `false` if no such group is parked.
    fn release(
        &mut self,
        key: Option<ParkKey>,
        machine: &mut Machine<'_>,
        subsumption: Option<&mut Subsumption>,
        states: &mut FxHashMap<StateId, State>,
        tree: &mut ExecTree,
        searcher: &mut dyn Searcher,
    ) -> Result<bool, EngineError> {
        let group = match key {
            Some(key) => self.groups.remove_entry(&key),
            None => self.groups.pop_first(),
        };
        let (Some(subsumption), Some(((_, location), ParkedGroup { states: group, .. }))) =
            (subsumption, group)
        else {
            return Ok(false);
        };
        if let Some((_, parked)) = group.first() {
            try_invariant(machine, subsumption, location, parked)?;
        }
        let ids: Vec<StateId> = group.iter().map(|&(id, _)| id).collect();
        for (id, state) in group {
            states.insert(id, state);
            tree.resume(id);
        }
        searcher.resume(&ids);
        Ok(true)
    }
}

/// Whether the state is at the first instruction of a join point (a merge point).
fn at_join(machine: &Machine<'_>, state: &State) -> bool {
    state.frame().is_some_and(|frame| {
        frame.inst == 0 && machine.info.functions[frame.func.index()].is_join(frame.block)
    })
}

/// With `--merge dynamic`: `state` stands at a join point; merged into a live state standing
/// there that it is similar to (`true`), else live itself and standing there.
fn meet(
    machine: &mut Machine<'_>,
    estimates: Option<&Estimates>,
    standing: &mut JoinIndex,
    states: &mut FxHashMap<StateId, State>,
    id: StateId,
    state: State,
) -> Result<bool, EngineError> {
    let Some(frame) = state.frame() else {
        return Err(EngineError::Internal("a state without a frame".into()));
    };
    let key = (state.stack.len(), frame.func, frame.block);
    for other in standing.standing(key, states) {
        let Some(partner) = states.get(&other) else {
            continue;
        };
        if !estimates.is_none_or(|e| e.similar(machine, partner, &state)) {
            continue;
        }
        if let Some(merged) = machine.merge_states(partner, &state)? {
            states.insert(other, merged);
            return Ok(true);
        }
    }
    standing.insert(key, id);
    states.insert(id, state);
    Ok(false)
}

/// States waiting at join points for others to merge with (`--merge aggressive|qce`).
#[derive(Default)]
struct Waiting {
    states: FxHashMap<StateId, State>,
    /// The waiting states per stack depth and place, in arrival order.
    at: FxHashMap<(usize, FuncId, BlockId), Vec<StateId>>,
}

impl Waiting {
    /// `state` arrived at a join point: merged into a waiting state with the same call stack
    /// (and similar by the estimates, if given; `true`), or waiting itself.
    fn arrive(
        &mut self,
        machine: &mut Machine<'_>,
        estimates: Option<&Estimates>,
        id: StateId,
        state: State,
    ) -> Result<bool, EngineError> {
        let Some(frame) = state.frame() else {
            return Err(EngineError::Internal("a state without a frame".into()));
        };
        let key = (state.stack.len(), frame.func, frame.block);
        let ids = self.at.entry(key).or_default();
        for other in ids.iter() {
            let Some(waiting) = self.states.get_mut(other) else {
                continue;
            };
            if !estimates.is_none_or(|e| e.similar(machine, waiting, &state)) {
                continue;
            }
            if let Some(merged) = machine.merge_states(waiting, &state)? {
                *waiting = merged;
                return Ok(true);
            }
        }
        ids.push(id);
        self.states.insert(id, state);
        Ok(false)
    }

    /// Moves the earliest waiting states back to the live ones; `false` if none waits.
    fn release(
        &mut self,
        machine: &Machine<'_>,
        states: &mut FxHashMap<StateId, State>,
        tree: &mut ExecTree,
        searcher: &mut dyn Searcher,
    ) -> bool {
        let order = |state: &State| -> Vec<(u32, usize)> {
            state
                .stack
                .iter()
                .map(|f| {
                    let rpo = &machine.info.functions[f.func.index()].rpo;
                    (
                        rpo.get(f.block.index()).copied().unwrap_or(u32::MAX),
                        f.inst,
                    )
                })
                .collect()
        };
        let mut keyed: Vec<(Vec<(u32, usize)>, StateId)> = self
            .states
            .iter()
            .map(|(&id, state)| (order(state), id))
            .collect();
        keyed.sort_by(|(a, x), (b, y)| earlier(a, b).then(x.cmp(y)));
        let Some((first, _)) = keyed.first() else {
            return false;
        };
        let released: Vec<StateId> = keyed
            .iter()
            .take_while(|(key, _)| key == first)
            .map(|&(_, id)| id)
            .collect();
        for &id in &released {
            if let Some(state) = self.states.remove(&id) {
                if let Some(frame) = state.frame() {
                    let key = (state.stack.len(), frame.func, frame.block);
                    if let Some(ids) = self.at.get_mut(&key) {
                        ids.retain(|&other| other != id);
                        if ids.is_empty() {
                            self.at.remove(&key);
                        }
                    }
                }
                states.insert(id, state);
                tree.insert(id);
            }
        }
        searcher.update(None, &released, &[]);
        true
    }
}

/// Program order of two call stacks given as (reverse-postorder block, instruction) per frame
/// from the entry's: a frame earlier in its function comes first, and a deeper stack comes
/// before the caller that has returned past the same point.
fn earlier(a: &[(u32, usize)], b: &[(u32, usize)]) -> Ordering {
    for (x, y) in a.iter().zip(b) {
        match x.cmp(y) {
            Ordering::Equal => {}
            other => return other,
        }
    }
    b.len().cmp(&a.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use symex_ir::cfg::{BlockId, FuncId};

    #[test]
    fn a_parked_group_waits_a_few_selections_or_queries() {
        let key = (Reverse(1), (0, FuncId(0), BlockId(1)));
        let at = |selections, queries| SearchClock {
            selections,
            queries,
        };
        let mut parked = Parked::default();
        parked.groups.insert(
            key,
            ParkedGroup {
                since: at(10, 1_000),
                states: Vec::new(),
            },
        );
        assert_eq!(parked.overdue(at(10 + PARK_PATIENCE - 1, 1_000)), None);
        assert_eq!(parked.overdue(at(10 + PARK_PATIENCE, 1_000)), Some(key));
        // One selection that asked the solver hundreds of times is a long wait too.
        assert_eq!(
            parked.overdue(at(11, 1_000 + PARK_PATIENCE_QUERIES - 1)),
            None
        );
        assert_eq!(
            parked.overdue(at(11, 1_000 + PARK_PATIENCE_QUERIES)),
            Some(key)
        );
    }
}
