//! The backward engine's entry point: one backward search per target property, each on the
//! graph unwound for it, with a fresh solver; findings and cuts go to `Verdict::conclude`.
//!
//! A reached target's model becomes a witness (arguments, input heap, inputs, path) that the
//! interpreter replays. Nothing here builds terms or decides a verdict.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use symex_ir::cfg::{Check, InstKind, Module, PlaceBase, PropId};
use symex_report::{Cut, Cuts, Finding, Locator, Report, Stats, Witness};
use symex_smt::{
    Dumper, DumpingSolver, IntEncodingSolver, SharedDumper, Solver, SolverError, TermStore, Z3Param,
};
use symex_syntax::types::{Type, TypeTable};

use crate::backward::encode::{SearchOutcome, SearchStats};
use crate::backward::heap::ArrayHeap;
use crate::backward::ops::{Graph, Op};
use crate::backward::options::{BackwardOptions, BseVariant, Target, DEFAULT_UNWIND};
use crate::backward::restarts::FreshSolver;
use crate::backward::types::TypeFacts;
use crate::backward::typing::CellTyping;
use crate::backward::walk::{walk, HeapSnapshot};
use crate::backward::{conj, disj, graph, witness};
use crate::common::budget::Budget;
use crate::common::entry::input_heap_types;
use crate::common::options::CheckOptions;
use crate::common::progress::ProgressUpdate;
use crate::common::reach::reach_module;
use crate::common::replay::replay_full;
use crate::common::solver::solver_backend_tuned;
use crate::common::verdict;
use crate::error::EngineError;

/// A report and, for `--heap-dot`, the heap graphs of the first counterexample's path.
pub struct BackwardOutcome {
    pub report: Report,
    pub heap_dot: Option<String>,
}

/// Checks the properties of `module` by backward symbolic execution from each one to `entry`.
pub fn check_backward(
    module: &Module,
    types: &TypeTable,
    source: &str,
    program_name: &str,
    entry: &str,
    options: &CheckOptions,
    backward: &BackwardOptions,
) -> Result<Report, EngineError> {
    check_backward_traced(
        module,
        types,
        source,
        program_name,
        entry,
        options,
        backward,
    )
    .map(|outcome| outcome.report)
}

/// [`check_backward`], also giving the heap graphs of the first violation's path.
pub fn check_backward_traced(
    module: &Module,
    types: &TypeTable,
    source: &str,
    program_name: &str,
    entry: &str,
    options: &CheckOptions,
    backward: &BackwardOptions,
) -> Result<BackwardOutcome, EngineError> {
    let start = Instant::now();
    let budget = Budget::new(start, options.timeout, options.max_memory_mb);
    let reach = match backward.target {
        Target::Reach { line } => Some(reach_module(module, source, line)?),
        _ => None,
    };
    let module = reach
        .as_ref()
        .map_or(module, |(instrumented, _)| instrumented);
    let types = input_heap_types(types, entry)?;
    let facts = TypeFacts::new(module, &types);
    let entry_func = module
        .function_by_name(entry)
        .ok_or_else(|| EngineError::UnknownEntry(entry.to_string()))?;
    let params = entry_parameters(module, &facts, entry)?;
    let typing = CellTyping::for_entry(module, &facts, entry, &params);
    let locator = Locator::new(module, source);
    let unwind = options.unwind.unwrap_or(DEFAULT_UNWIND);
    let dumper = match &options.query.dump_dir {
        Some(dir) => Some(Arc::new(Mutex::new(Dumper::new(dir)?))),
        None => None,
    };
    if let Target::Property { line, column } = backward.target {
        let any = (0..module.properties.len())
            .any(|p| selected(&locator, PropId(p as u32), backward.target));
        if !any {
            let at = column.map_or_else(|| line.to_string(), |c| format!("{line}:{c}"));
            return Err(EngineError::BadTarget(format!(
                "--target {at}: no property starts there (a typo would check nothing; \
                 `symex check` without --target lists the properties with their lines and columns)"
            )));
        }
    }
    let mut properties = Vec::with_capacity(module.properties.len());
    let mut totals = SearchStats::default();
    let mut heap_dot = None;
    let infallible = verdict::cannot_fail(module, entry_func);
    for p in 0..module.properties.len() {
        options.progress.publish(ProgressUpdate {
            queries: Some(totals.solver_calls),
            decided: Some(p as u64),
            properties: Some(module.properties.len() as u64),
            ..ProgressUpdate::default()
        });
        let prop = PropId(p as u32);
        if reach.as_ref().is_some_and(|&(_, target)| target != prop) {
            // The reach check stops every run at the line: the other properties are left out.
            continue;
        }
        let mut cuts = Cuts::new();
        let finding = if !selected(&locator, prop, backward.target) {
            Finding::GaveUp {
                reason: "not a target of this run (--target)".into(),
            }
        } else if let Some(reason) = unmodelled_check(module, prop) {
            Finding::GaveUp { reason }
        } else if let Some(cut) = budget.exhausted() {
            // Once a limit has run out, the properties left are not started.
            cuts.hit(cut);
            Finding::NotReached
        } else {
            let built = graph::build(
                module,
                &facts,
                typing.as_ref(),
                entry_func,
                prop,
                unwind,
                &budget,
            );
            let (graph, graph_cuts) = match built {
                Ok(built) => built,
                Err(cut) => {
                    cuts.hit(cut);
                    properties.push(conclude(
                        &locator,
                        &infallible,
                        prop,
                        Finding::NotReached,
                        &cuts,
                    )?);
                    continue;
                }
            };
            cuts.merge(&graph_cuts);
            let (outcome, stats) = search(&graph, backward, options, &budget, dumper.as_ref())?;
            // A search may prune every path before it meets an operation it does not model,
            // yet that operation (a write through `&x`) may be what makes the target
            // reachable: only a found violation (replayed) is trusted on such a graph.
            let outcome = match (unmodelled_operation(&graph), outcome) {
                (Some(reason), SearchOutcome::Unreachable | SearchOutcome::Unknown(_)) => {
                    SearchOutcome::Unsupported(reason)
                }
                (_, outcome) => outcome,
            };
            totals.nodes += stats.nodes;
            totals.solver_calls += stats.solver_calls;
            totals.solver_time += stats.solver_time;
            match outcome {
                SearchOutcome::Unreachable => Finding::NotReached,
                SearchOutcome::Unknown(reason) => {
                    // A solver call that the time limit cut short answers `unknown` too.
                    cuts.hit(budget.exhausted().unwrap_or(Cut::SolverUnknown { reason }));
                    Finding::NotReached
                }
                SearchOutcome::Stopped(cut) => {
                    cuts.hit(cut);
                    Finding::NotReached
                }
                SearchOutcome::Unsupported(reason) => Finding::GaveUp {
                    reason: format!("the backward engine does not model {reason}"),
                },
                SearchOutcome::Reached(model) => {
                    let kind = module.properties[p].kind;
                    let path = walk(&graph, &model, &locator, Some(kind))?;
                    let tags = witness::CellTags {
                        typing: graph.typing.as_ref(),
                        tag_slot: graph.tag_slot(),
                    };
                    let Ok((args, heap)) =
                        witness::entry_arguments(module, &facts, tags, entry, &params, &model)
                    else {
                        // A cell of a type without a kind got two types: such a model is no
                        // heap a run can build, so the property stays open, not unconfirmed.
                        let finding = Finding::GaveUp {
                            reason: ILL_TYPED.into(),
                        };
                        properties.push(conclude(&locator, &infallible, prop, finding, &cuts)?);
                        continue;
                    };
                    let mut found = Witness {
                        inputs: path.inputs.clone(),
                        args,
                        heap,
                        trace: Vec::new(),
                    };
                    // The trace is the interpreter's, as for every engine (with the heap
                    // writes); the walk's own stays for a witness the replay does not confirm.
                    let replayed = replay_full(module, entry, &found, Some(&locator), None);
                    found.trace = match replayed.replay {
                        symex_report::Replay::Failed(_) => replayed.trace,
                        _ => path.trace.clone(),
                    };
                    let replay = replayed.replay;
                    if heap_dot.is_none() {
                        heap_dot = Some(render_heaps(module, &graph, &path.heaps));
                    }
                    Finding::Reached {
                        witness: found,
                        replay,
                    }
                }
            }
        };
        properties.push(conclude(&locator, &infallible, prop, finding, &cuts)?);
    }
    let stats = Stats {
        paths: 0,
        states: totals.nodes,
        queries: totals.solver_calls,
        solver_ms: totals.solver_time.as_millis() as u64,
        time_ms: start.elapsed().as_millis() as u64,
        ..Stats::default()
    };
    Ok(BackwardOutcome {
        report: Report::new(program_name, "backward", entry, properties, stats),
        heap_dot,
    })
}

/// Search settings of Z3 for the backward engine's array formulas, measured on degree counting
/// (BENCHMARKS.md): without the redundant bit-level equality axioms (`smt.bv.eq_axioms`) the
/// unsatisfiable queries are 2–4× faster (equalities and disequalities of words are still
/// decided, only without the extra propagation), and always trying `false` first
/// (`smt.phase_selection` 0) helps the hardest ones again. Neither changes an answer.
const BACKWARD_Z3_PARAMS: &[(&str, Z3Param)] = &[
    ("smt.bv.eq_axioms", Z3Param::Bool(false)),
    ("smt.phase_selection", Z3Param::Uint(0)),
];

/// Search settings of Z3's bare core for the integer-encoded queries, measured on degree
/// counting (BENCHMARKS.md "Z3's core and settings for the integer queries"): `false` first
/// (`smt.phase_selection` 0) as above, Z3's older simplex-based arithmetic solver
/// (`smt.arith.solver` 2), and no extensionality axioms (`smt.array.extensional`): the encoding
/// gives every array equality in a negative position its own witness index
/// (`IntEncodingSolver`), and a positive one needs no axiom, so they would only repeat what the
/// formula says. None changes an answer on these queries; the last one would on formulas
/// without the witnesses, so it belongs to `IntEncodingSolver`'s inner solver only.
const INTEGER_Z3_PARAMS: &[(&str, Z3Param)] = &[
    ("smt.phase_selection", Z3Param::Uint(0)),
    ("smt.arith.solver", Z3Param::Uint(2)),
    ("smt.array.extensional", Z3Param::Bool(false)),
];

/// The logic of conjunct combination's queries as integer arithmetic (`IntEncodingSolver`):
/// an in-process Z3 is then its bare core with [`INTEGER_Z3_PARAMS`], a Z3 process is told the
/// logic (`solver_backend_tuned`).
const INTEGER_LOGIC: &str = "QF_AUFLIA";

/// `base` and `--seed`, which seeds Z3's search too (its low 32 bits). Those being 0 leaves Z3's
/// own default alone: Z3 4.8.12 searches differently when given `smt.random_seed` 0 than when
/// not.
fn z3_params(base: &[(&'static str, Z3Param)], seed: u64) -> Vec<(&'static str, Z3Param)> {
    let low_bits = seed as u32;
    let seed = (low_bits != 0).then_some(("smt.random_seed", Z3Param::Uint(low_bits)));
    base.iter().copied().chain(seed).collect()
}

/// Runs the chosen variant on one graph with a fresh solver and term store; with `dumper`, every
/// check is also written as a query file (`--dump-smt`).
pub fn search(
    graph: &Graph,
    backward: &BackwardOptions,
    options: &CheckOptions,
    budget: &Budget,
    dumper: Option<&SharedDumper>,
) -> Result<(SearchOutcome, SearchStats), EngineError> {
    let mut store = TermStore::new();
    let mut names = Vec::new();
    for f in 0..graph.field_slots {
        names.push(field_name(graph, f));
    }
    let mut heap = ArrayHeap::new(names, graph.ref_fields.clone())
        .with_typing(graph.typing.clone())
        .with_fixed_inputs(graph.fixed_inputs.clone());
    heap.declare_inputs(&mut store)?;
    let choice = options.solver.clone();
    let timeout = options.query.timeout.or(Some(Duration::from_secs(3600)));
    let deadline = budget.deadline();
    let dumper = dumper.cloned();
    let integer_params = z3_params(INTEGER_Z3_PARAMS, options.seed);
    let backward_params = z3_params(BACKWARD_Z3_PARAMS, options.seed);
    let backend = move |logic: Option<&str>| -> Result<Box<dyn Solver>, SolverError> {
        let params = match logic {
            Some(_) => &integer_params,
            None => &backward_params,
        };
        let mut solver = solver_backend_tuned(&choice, logic, params)?;
        solver.set_timeout(timeout);
        solver.set_deadline(deadline);
        Ok(match &dumper {
            Some(d) => Box::new(DumpingSolver::new(solver, Arc::clone(d))),
            None => solver,
        })
    };
    // Measured on degree counting (BENCHMARKS.md): conjunct combination's entry checks and
    // `conj-loops`' bounded loop-entry checks are decided many times faster over the integers;
    // `conj-always`' unbounded checks under assumptions near the entry (Z3's incremental core)
    // are several times slower, and disjunct propagation's deep formulas slower still.
    let integers = matches!(
        backward.variant,
        BseVariant::ConjNever | BseVariant::ConjLoops
    );
    let new_solver = || -> Result<Box<dyn Solver>, EngineError> {
        if !integers {
            return Ok(backend(None)?);
        }
        let bit_vectors = backend.clone();
        Ok(Box::new(IntEncodingSolver::new(
            backend(Some(INTEGER_LOGIC))?,
            Box::new(move || bit_vectors(None)),
        )))
    };
    let mut solver = new_solver()?;
    search_variant(
        graph,
        backward.variant,
        &mut store,
        &mut heap,
        &mut *solver,
        &new_solver,
        budget,
    )
}

/// Runs `variant`'s search of `graph`: disjunct propagation or conjunct combination.
pub(super) fn search_variant(
    graph: &Graph,
    variant: BseVariant,
    store: &mut TermStore,
    heap: &mut ArrayHeap,
    solver: &mut dyn Solver,
    fresh_solver: &FreshSolver<'_>,
    budget: &Budget,
) -> Result<(SearchOutcome, SearchStats), EngineError> {
    if variant.is_disjunct_propagation() {
        disj::search(graph, variant, store, heap, solver, fresh_solver, budget)
    } else {
        conj::search(graph, variant, store, heap, solver, fresh_solver, budget)
    }
}

fn field_name(graph: &Graph, slot: u32) -> String {
    if slot == graph.cell_slot() {
        "cell".to_string()
    } else {
        format!("f{slot}")
    }
}

fn render_heaps(module: &Module, graph: &Graph, heaps: &[HeapSnapshot]) -> String {
    witness::heap_dot(module, &graph.ref_fields, heaps)
}

/// The entry's parameter names; records and arrays cannot be inputs of this engine.
fn entry_parameters(
    module: &Module,
    facts: &TypeFacts<'_>,
    entry: &str,
) -> Result<Vec<String>, EngineError> {
    let func = module
        .function_by_name(entry)
        .ok_or_else(|| EngineError::UnknownEntry(entry.to_string()))?;
    let function = module.function(func);
    let mut params = Vec::new();
    for local in function.params() {
        let name = function.local(local).name.clone();
        let ty = facts.local_type(entry, &name).unwrap_or(Type::Unknown);
        if ty.is_record() || ty.is_array() {
            return Err(EngineError::UnsupportedEntry {
                function: entry.to_string(),
                parameter: name,
                reason: format!(
                    "the backward engine takes numbers and pointers only (this one is {ty})"
                ),
            });
        }
        params.push(name);
    }
    Ok(params)
}

/// The first operation of `graph` the engine does not model, if there is one.
fn unmodelled_operation(graph: &Graph) -> Option<String> {
    graph
        .nodes
        .iter()
        .flat_map(|node| &node.ops)
        .find_map(|located| match &located.op {
            Op::Unsupported(reason) => Some(reason.clone()),
            _ => None,
        })
}

/// Why the check of `prop` cannot be a target, if it cannot.
fn unmodelled_check(module: &Module, prop: PropId) -> Option<String> {
    for function in &module.functions {
        for inst in function.blocks.iter().flat_map(|b| &b.insts) {
            if let InstKind::Check { check, prop: p } = &inst.kind {
                if *p != prop {
                    continue;
                }
                return match check {
                    Check::InBounds { .. } => {
                        Some("the backward engine does not model arrays".into())
                    }
                    Check::Init(place)
                        if !place.projections.is_empty()
                            || !matches!(place.base, PlaceBase::Local(_)) =>
                    {
                        Some("the backward engine does not model cells reached through `&x`".into())
                    }
                    _ => None,
                };
            }
        }
    }
    None
}

/// Whether `--target` selects the property (located by the report's line index: counting
/// lines from the file's start for each property was quadratic on large files).
fn selected(locator: &Locator<'_>, prop: PropId, target: Target) -> bool {
    match target {
        Target::AllProperties | Target::Reach { .. } => true,
        Target::Property { line, column } => {
            let at = locator.at(locator.module().properties[prop.0 as usize].span);
            at.line == line && column.is_none_or(|col| col == at.column)
        }
    }
}

const ILL_TYPED: &str = "the backward engine does not model the types of input cells of this entry (its model gave one cell two kinds)";

/// The report entry of `prop`: its verdict from `finding` and `cuts` ([`verdict::conclude`]).
fn conclude(
    locator: &Locator<'_>,
    infallible: &[bool],
    prop: PropId,
    finding: Finding,
    cuts: &Cuts,
) -> Result<symex_report::PropertyReport, EngineError> {
    locator
        .property(prop, verdict::conclude(infallible, prop, finding, cuts))
        .ok_or_else(|| EngineError::Internal(format!("no property #{}", prop.0)))
}

#[cfg(test)]
mod tests {
    use symex_smt::{SatResult, TermStore};

    use super::*;
    use crate::common::options::SolverChoice;

    /// Z3 drops every parameter given with one it does not know, the limits too: the integer
    /// solver, set up as `search` sets it up, must still honour a conflict limit.
    #[test]
    fn the_integer_solver_keeps_its_limits_under_the_engine_parameters() {
        let mut s = TermStore::new();
        let x = s.bv_var("x", 32).expect("var");
        let y = s.bv_var("y", 32).expect("var");
        let one = s.bv_val(32, 1).expect("c");
        let bound = s.bv_val(32, 1 << 16).expect("c");
        let mut parts = Vec::new();
        for v in [x, y] {
            parts.push(s.bv_ugt(v, one).expect("ugt"));
            parts.push(s.bv_ult(v, bound).expect("ult"));
        }
        let product = s.bv_mul(x, y).expect("mul");
        let target = s.bv_val(32, 65_521 * 65_519).expect("c");
        parts.push(s.eq(product, target).expect("eq"));
        let query = s.and_all(&parts).expect("and");
        let params = z3_params(INTEGER_Z3_PARAMS, 7);
        let mut z3 =
            solver_backend_tuned(&SolverChoice::Z3, Some(INTEGER_LOGIC), &params).expect("z3");
        assert!(z3.set_conflict_limit(Some(10)));
        z3.assert(&s, query).expect("assert");
        assert!(matches!(z3.check(&s, &[]), Ok(SatResult::Unknown(_))));
        assert!(z3.set_conflict_limit(None));
        assert_eq!(z3.check(&s, &[]), Ok(SatResult::Sat));
    }
}
