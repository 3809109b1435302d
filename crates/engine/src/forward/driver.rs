//! The forward engine's main loop and its report.
//!
//! The driver owns the live states, the execution tree and the searcher: it asks the searcher
//! for a state, runs it until it forks or ends (or a step budget passes), records forks and
//! ends, and enforces the global limits (time, memory, live states, `--stop-on-first`). At the
//! end every property gets its verdict from `Verdict::conclude` with the cuts the search met.
//! Nothing here executes instructions (the machine does) or chooses states (the searchers do).

use std::time::Instant;

use rustc_hash::FxHashMap;
use symex_ir::cfg::{Module, PropId};
use symex_report::{Cut, Finding, Report, Stats, Verdict};
use symex_syntax::types::TypeTable;

use crate::common::entry::resolve_entry;
use crate::common::options::CheckOptions;
use crate::common::solver::query_engine;
use crate::error::EngineError;
use crate::forward::machine::{End, Machine};
use crate::forward::progress::{Progress, Status};
use crate::forward::search::{searcher, SearchView};
use crate::forward::state::{State, StateId};
use crate::forward::tree::ExecTree;

/// Steps a selected state may run before the searcher is asked again (unless it forks or
/// ends first); it also bounds how long the time limit can go unchecked.
const RUN_BUDGET: usize = 10_000;

/// How often (in selections) the resident memory is read for `--max-memory`.
const MEMORY_CHECK_INTERVAL: u64 = 64;

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
    let setup = resolve_entry(module, types, entry)?;
    let mut queries = query_engine(&options.solver, &options.query)?;
    // The time limit covers solver calls too: one hard query must not outlive the check.
    queries.set_deadline(options.timeout.map(|limit| start + limit));
    let mut machine = Machine::new(module, source, setup, options, queries)?;
    let summary = explore(&mut machine, options, start)?;
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
        let verdict = Verdict::conclude(prop, finding, &cuts);
        let entry = machine
            .locator
            .property(prop, verdict)
            .ok_or_else(|| EngineError::Internal(format!("no property #{p}")))?;
        properties.push(entry);
    }
    let query_stats = machine.queries.stats();
    let stats = Stats {
        paths: summary.paths,
        states: summary.states,
        queries: query_stats.queries,
        solver_ms: query_stats.time.as_millis() as u64,
        time_ms: start.elapsed().as_millis() as u64,
        forks: Some(machine.forks),
        coverage: Some(machine.coverage.summary(module)),
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
    /// `--stop-on-first` ended the search with states left.
    stopped_early: bool,
}

fn explore(
    machine: &mut Machine<'_>,
    options: &CheckOptions,
    start: Instant,
) -> Result<Summary, EngineError> {
    let mut states: FxHashMap<StateId, State> = FxHashMap::default();
    states.insert(0, machine.initial_state()?);
    let mut tree = ExecTree::new(0);
    let mut searcher = searcher(options.search, options.seed);
    searcher.update(None, &[0], &[]);
    let mut summary = Summary {
        paths: 0,
        states: 1,
        stopped_early: false,
    };
    let mut next_id: StateId = 1;
    let mut progress = Progress::new(options.progress);
    let mut selections = 0u64;
    loop {
        if states.is_empty() {
            break;
        }
        if let Some(cut) = limit_reached(options, start, selections) {
            machine.cuts.hit(cut);
            break;
        }
        selections += 1;
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
        for _ in 0..RUN_BUDGET {
            let outcome = machine.step(&mut state)?;
            forked.extend(outcome.forked);
            if outcome.end.is_some() {
                end = outcome.end;
                break;
            }
            if !forked.is_empty() || (options.stop_on_first && machine.found_violation) {
                break;
            }
        }
        let added: Vec<StateId> = forked
            .into_iter()
            .map(|s| {
                let new_id = next_id;
                next_id += 1;
                states.insert(new_id, s);
                new_id
            })
            .collect();
        tree.fork(id, &added);
        summary.states += added.len() as u64;
        let removed = match end {
            Some(end) => {
                tree.remove(id);
                match end {
                    End::Returned => summary.paths += 1,
                    End::Cut(cut) => machine.cuts.hit(cut),
                    End::Dropped | End::Failed => {}
                }
                vec![id]
            }
            None => {
                states.insert(id, state);
                Vec::new()
            }
        };
        searcher.update(Some(id), &added, &removed);
        if options.stop_on_first && machine.found_violation {
            summary.stopped_early = !states.is_empty();
            break;
        }
        if let Some(max) = options.max_states {
            if states.len() > max {
                machine.cuts.hit(Cut::States(max as u64));
                break;
            }
        }
        if progress.due() {
            progress.show(&Status {
                paths: summary.paths,
                live_states: states.len(),
                queries: machine.queries.stats().queries,
                coverage: machine.coverage.summary(machine.module).instructions,
                elapsed: start.elapsed(),
            });
        }
    }
    progress.finish();
    Ok(summary)
}

/// The time or memory limit that has run out, if any.
fn limit_reached(options: &CheckOptions, start: Instant, selections: u64) -> Option<Cut> {
    if let Some(limit) = options.timeout {
        if start.elapsed() >= limit {
            return Some(Cut::Timeout {
                ms: limit.as_millis() as u64,
            });
        }
    }
    if let Some(mib) = options.max_memory_mb {
        if selections % MEMORY_CHECK_INTERVAL == 0 && resident_mib().is_some_and(|m| m >= mib) {
            return Some(Cut::Memory { mib });
        }
    }
    None
}

/// The process's resident memory in MiB (Linux; `None` elsewhere).
fn resident_mib() -> Option<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * 4096 / (1024 * 1024))
}
