//! The structural engine's entry point: every function unwound and summarized once, then one
//! VC per property (its calling contexts are summary operators, expanded on demand), decided by
//! abstraction and refinement on one incremental solver; a falsifying model becomes inputs
//! that the interpreter replays.
//!
//! After a property's VC holds, the cut goals say what it holds *for*: if an instruction the
//! engine does not model can be reached the property is `unknown`; if a loop iteration or a
//! recursive call beyond K can be reached it is `safe up to K`. Each cut goal is decided once
//! per check. Nothing here builds summaries or decides a verdict: `Verdict::conclude` does.

use std::time::{Duration, Instant};

use symex_ir::cfg::{FuncId, Module, PropId, Width};
use symex_ir::transform::{unwind, UnwindError};
use symex_report::{ArgValue, Args, Cut, Cuts, Finding, Locator, Report, Stats, Witness};
use symex_smt::{Dumper, DumpingSolver, Model, TermId, TermStore, Value};
use symex_syntax::types::TypeTable;

use crate::common::budget::Budget;
use crate::common::options::CheckOptions;
use crate::common::progress::ProgressUpdate;
use crate::common::reach::{reach_module, reach_report};
use crate::common::replay::replay_full;
use crate::common::solver::solver_with_handover;
use crate::common::terms::{value_as_i32, value_as_i64};
use crate::common::verdict;
use crate::error::EngineError;
use crate::structural::effects::{CutKind, Effect, Goal, Signatures};
use crate::structural::exec::summarize;
use crate::structural::instances::Instances;
use crate::structural::refine::{Decision, Refiner};
use crate::structural::summary::{Summary, Vocabulary};

/// How long Z3's incremental core may try a VC's query before its one-shot bit-blasting solver
/// takes it over. Measured (BENCHMARKS.md, "Structural engine: solver set-up"): the incremental
/// core is slow on the heap arrays of generated programs (10 s for a program the one-shot
/// solver decides in 5 s), the one-shot solver on chains of products (recursive factorial).
const ONE_SHOT_AFTER: Duration = Duration::from_millis(30);

/// Inputs past the model's explicit ones offered to a replay (it keeps those it reads).
const INPUT_PADDING: usize = 1024;

/// Positions of the input array read from a model (no run reads more within the bounds).
const MAX_EXPLICIT_INPUTS: i32 = 1 << 20;

/// The thesis's limit for one VC.
const VC_LIMIT: Duration = Duration::from_secs(10);

/// The thesis unwinds every loop once.
pub const DEFAULT_UNWIND: u32 = 1;

/// Blocks one function may have after unwinding (beyond it the check gives up, not hangs).
const MAX_UNWOUND_BLOCKS: usize = 2_000_000;

/// How summary operators are expanded.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RefineMode {
    /// On demand, guided by falsifying models (the thesis's structural refinement).
    #[default]
    Lazy,
    /// Every operator of a VC's cone before its first check (inlining, for comparison).
    Eager,
}

impl RefineMode {
    pub fn name(self) -> &'static str {
        match self {
            RefineMode::Lazy => "lazy",
            RefineMode::Eager => "eager",
        }
    }
}

/// Options of the structural engine beside [`CheckOptions`].
#[derive(Clone, Copy, Debug, Default)]
pub struct StructuralOptions {
    pub refine: RefineMode,
    /// `--reach LINE`: decide only whether a statement of the line runs.
    pub reach: Option<u32>,
}

/// Checks every property of `module` reachable from `entry` by structure-preserving symbolic
/// execution with structural abstraction and refinement.
pub fn check_structural(
    module: &Module,
    types: &TypeTable,
    source: &str,
    program_name: &str,
    entry: &str,
    options: &CheckOptions,
    structural: &StructuralOptions,
) -> Result<Report, EngineError> {
    match structural.reach {
        Some(line) => {
            let (instrumented, target) = reach_module(module, source, line)?;
            let report = check_properties(
                &instrumented,
                types,
                source,
                program_name,
                entry,
                options,
                structural,
                Some(target),
            )?;
            Ok(reach_report(report))
        }
        None => check_properties(
            module,
            types,
            source,
            program_name,
            entry,
            options,
            structural,
            None,
        ),
    }
}

#[allow(clippy::too_many_arguments)]
fn check_properties(
    module: &Module,
    types: &TypeTable,
    source: &str,
    program_name: &str,
    entry: &str,
    options: &CheckOptions,
    structural: &StructuralOptions,
    only: Option<PropId>,
) -> Result<Report, EngineError> {
    let start = Instant::now();
    let budget = Budget::new(start, options.timeout, options.max_memory_mb);
    let entry_func = module
        .function_by_name(entry)
        .ok_or_else(|| EngineError::UnknownEntry(entry.to_string()))?;
    let locator = Locator::new(module, source);
    let unwind_bound = options.unwind.unwrap_or(DEFAULT_UNWIND);
    let report =
        |properties, stats| Report::new(program_name, "structural", entry, properties, stats);
    let infallible = verdict::cannot_fail(module, entry_func);
    let give_up_all = |reason: String| -> Result<Report, EngineError> {
        let mut properties = Vec::new();
        for p in 0..module.properties.len() {
            let verdict = verdict::conclude(
                &infallible,
                PropId(p as u32),
                Finding::GaveUp {
                    reason: reason.clone(),
                },
                &Cuts::new(),
            );
            properties.extend(locator.property(PropId(p as u32), verdict));
        }
        let stats = Stats {
            time_ms: start.elapsed().as_millis() as u64,
            ..Stats::default()
        };
        Ok(report(properties, stats))
    };
    if let Some(param) = pointer_parameter(module, types, entry_func) {
        return give_up_all(format!(
            "the structural engine does not model input heaps (parameter `{param}` of `{entry}` is not a number)"
        ));
    }

    let mut store = TermStore::new();
    let heap_word = match module.has_64_bit_numbers() {
        true => Width::W64,
        false => Width::W32,
    };
    let vocab = Vocabulary::new(&mut store, heap_word)?;
    let sigs = Signatures::new(module);
    let mut known: Vec<Option<Summary>> = vec![None; module.functions.len()];
    // With K = 0 every call is a cut instance (one activation is more than K), which only the
    // instances record: a callee's constant side effects (no cut reached, for a function that
    // does not recurse) may not stand in for a call then, or its cut goes unseen (`safe`
    // where a callee's assertion fails).
    let no_shortcuts: Vec<Option<Summary>> = vec![None; module.functions.len()];
    for func in module.callees_first() {
        let function = module.function(func);
        let unwound = match unwind(function, unwind_bound, MAX_UNWOUND_BLOCKS) {
            Ok(u) => u,
            Err(UnwindError::Irreducible) => {
                return give_up_all(format!(
                    "the structural engine does not model the irreducible loops of `{}`",
                    function.name
                ))
            }
            Err(UnwindError::TooLarge { blocks }) => {
                return give_up_all(format!(
                    "the structural engine does not model `{}` unwound {unwind_bound} times: more than {blocks} blocks",
                    function.name
                ))
            }
        };
        let shortcuts = if unwind_bound == 0 {
            &no_shortcuts
        } else {
            &known
        };
        let summary = summarize(
            module, &sigs, shortcuts, &vocab, &mut store, func, &unwound, &budget,
        )?;
        let stopped = summary
            .as_ref()
            .err()
            .cloned()
            .or_else(|| budget.exhausted());
        if let Some(cut) = stopped {
            return give_up_all(format!("{cut} while building summaries"));
        }
        known[func.index()] = summary.ok();
    }
    let summaries: Vec<Summary> = known.into_iter().flatten().collect();
    let summary_nodes = store.len();
    let unmodelled: Vec<String> = {
        let mut all: Vec<String> = summaries
            .iter()
            .flat_map(|s| s.unmodelled.iter().cloned())
            .collect();
        all.sort();
        all.dedup();
        all
    };

    let mut instances = Instances::new(&summaries, unwind_bound);
    let root = instances.root(&mut store, entry_func)?;
    let params = summaries[entry_func.index()].formals.params.clone();
    let mut wanted = params.clone();
    wanted.push(vocab.input);
    let mut solver = solver_with_handover(&options.solver, ONE_SHOT_AFTER)?;
    if let Some(dir) = &options.query.dump_dir {
        let dumper = std::sync::Arc::new(std::sync::Mutex::new(Dumper::new(dir)?));
        solver = Box::new(DumpingSolver::new(solver, dumper));
    }
    solver.set_timeout(options.query.timeout);
    solver.set_deadline(budget.deadline());
    let mut refiner = Refiner::new(
        store,
        solver,
        instances,
        structural.refine == RefineMode::Eager,
        vocab.strict,
        &budget,
    );
    refiner.query_timeout = options.query.timeout;
    // The thesis gives each VC 10 s; under a time limit, half of that, so that one hard VC
    // leaves time for the others (and a VC lifted through a thousand contexts may use it).
    refiner.vc_limit = options.timeout.map_or(VC_LIMIT, |limit| limit / 2);

    let mut cut_answers: Vec<(CutKind, Option<Decision>)> = Vec::new();
    let mut properties = Vec::with_capacity(module.properties.len());
    for p in 0..module.properties.len() {
        options.progress.publish(ProgressUpdate {
            queries: Some(refiner.stats.queries),
            decided: Some(p as u64),
            properties: Some(module.properties.len() as u64),
            ..ProgressUpdate::default()
        });
        let prop = PropId(p as u32);
        if only.is_some_and(|target| target != prop) {
            continue;
        }
        let mut cuts = Cuts::new();
        let witness_of = |model: &Model| {
            let (args, inputs, pad) = model_inputs(module, entry_func, &params, vocab.input, model);
            replayed_witness(module, entry, &locator, args, inputs, pad)
        };
        let mut confirmed = None;
        // The strict VC does not assume the checks before the goal hold, so its model may fail
        // one of them first: then it is no counterexample of this property, which is left
        // undecided (the other property is decided on its own).
        let mut fails_first = None;
        let decision = if holds_in_every_context(&mut refiner, module, entry_func, prop)? {
            Decision::Unreachable
        } else {
            let goal = refiner.instances.instantiate(
                &mut refiner.store,
                root,
                Effect::Goal(Goal::Fail(prop)),
            )?;
            // The weak VC first: its `Unreachable` is final, and its model is a counterexample
            // whenever the replay confirms it; otherwise the callees' checks must count.
            match refiner.decide(goal, &wanted, false)? {
                Decision::Reached(model) => {
                    let (witness, replay) = witness_of(&model);
                    if replay == symex_report::Replay::Failed(prop) {
                        confirmed = Some((witness, replay));
                        Decision::Reached(model)
                    } else {
                        let strict = refiner.decide(goal, &wanted, true)?;
                        if let Decision::Reached(model) = &strict {
                            let (witness, replay) = witness_of(model);
                            match replay {
                                symex_report::Replay::Failed(other) if other != prop => {
                                    fails_first = Some(other);
                                }
                                _ => confirmed = Some((witness, replay)),
                            }
                        }
                        strict
                    }
                }
                other => other,
            }
        };
        let finding = match decision {
            Decision::Reached(_) if fails_first.is_some() => Finding::GaveUp {
                reason: format!(
                    "the structural engine's model of a run that fails it fails another check \
                     first (property #{}), which its VC does not rule out",
                    fails_first.map_or(0, |p| p.0)
                ),
            },
            Decision::Reached(model) => {
                let (witness, replay) = confirmed.unwrap_or_else(|| witness_of(&model));
                Finding::Reached { witness, replay }
            }
            Decision::Stopped(cut) => {
                cuts.hit(cut);
                Finding::NotReached
            }
            Decision::Unknown(reason) => {
                cuts.hit(Cut::SolverUnknown { reason });
                Finding::NotReached
            }
            Decision::Unreachable => {
                let mut finding = Finding::NotReached;
                let kinds = [CutKind::Unmodelled, CutKind::Unwind, CutKind::Recursion]
                    .into_iter()
                    .filter(|&k| k != CutKind::Unmodelled || !unmodelled.is_empty());
                for kind in kinds {
                    let reachable = cut_reachable(&mut refiner, &mut cut_answers, root, kind)?;
                    match (kind, reachable) {
                        (_, CutAnswer::No) => {}
                        (CutKind::Unmodelled, _) => {
                            finding = Finding::GaveUp {
                                reason: format!(
                                    "the structural engine does not model {}",
                                    unmodelled.join(", ")
                                ),
                            }
                        }
                        (CutKind::Unwind, _) => cuts.hit(Cut::Unwind(unwind_bound)),
                        (CutKind::Recursion, _) => cuts.hit(Cut::Inline(unwind_bound)),
                    }
                }
                finding
            }
        };
        let verdict = verdict::conclude(&infallible, prop, finding, &cuts);
        properties.extend(locator.property(prop, verdict));
    }
    let (total, expanded) = refiner.instances.counts();
    let stats = Stats {
        paths: 0,
        states: 0,
        queries: refiner.stats.queries,
        solver_ms: refiner.stats.solver_time.as_millis() as u64,
        time_ms: start.elapsed().as_millis() as u64,
        vcs: Some(refiner.stats.vcs),
        refinements: Some(refiner.stats.refinements),
        summaries_expanded: Some(expanded as u64),
        summaries_total: Some(total as u64),
        term_nodes: Some(summary_nodes as u64),
        ..Stats::default()
    };
    Ok(report(properties, stats))
}

/// Whether the property's VC holds in its own function whatever the function is given (then it
/// is not lifted into the callers: §4.2.4). A VC of the entry function is never checked twice.
fn holds_in_every_context(
    refiner: &mut Refiner<'_>,
    module: &Module,
    entry: FuncId,
    prop: PropId,
) -> Result<bool, EngineError> {
    let func = module.property(prop).func;
    if func == entry {
        return Ok(false);
    }
    let free = refiner.instances.free(&mut refiner.store, func)?;
    let goal =
        refiner
            .instances
            .instantiate(&mut refiner.store, free, Effect::Goal(Goal::Fail(prop)))?;
    Ok(matches!(
        refiner.decide(goal, &[], false)?,
        Decision::Unreachable
    ))
}

/// A parameter of the entry that holds a pointer, record or array.
fn pointer_parameter(module: &Module, types: &TypeTable, entry: FuncId) -> Option<String> {
    let f = module.function(entry);
    f.params().map(|p| f.local(p).name.clone()).find(|name| {
        types.local_type(&f.name, name).is_some_and(|ty| {
            let ty = ty.unfold().into_owned();
            ty.is_pointer() || ty.is_record() || ty.is_array()
        })
    })
}

enum CutAnswer {
    No,
    Maybe,
}

/// Whether some path of the entry reaches a cut of `kind` (decided once per check; a goal the
/// solver could not decide counts as reachable).
fn cut_reachable(
    refiner: &mut Refiner<'_>,
    answers: &mut Vec<(CutKind, Option<Decision>)>,
    root: usize,
    kind: CutKind,
) -> Result<CutAnswer, EngineError> {
    if let Some((_, known)) = answers.iter().find(|(k, _)| *k == kind) {
        return Ok(match known {
            Some(Decision::Unreachable) => CutAnswer::No,
            _ => CutAnswer::Maybe,
        });
    }
    let goal =
        refiner
            .instances
            .instantiate(&mut refiner.store, root, Effect::Goal(Goal::Cut(kind)))?;
    let decision = refiner.decide(goal, &[], false)?;
    let answer = match decision {
        Decision::Unreachable => CutAnswer::No,
        _ => CutAnswer::Maybe,
    };
    answers.push((kind, Some(decision)));
    Ok(answer)
}

/// The entry's arguments and the explicit inputs in `model`, and the value the model gives every
/// later input.
fn model_inputs(
    module: &Module,
    entry: FuncId,
    params: &[TermId],
    input: TermId,
    model: &Model,
) -> (Args, Vec<i32>, i32) {
    let f = module.function(entry);
    let mut args = Args::new();
    for (p, &t) in f.params().zip(params) {
        let n = model.get(t).and_then(value_as_i64).unwrap_or(0);
        args.push(f.local(p).name.clone(), ArgValue::Int(n));
    }
    let Some(Value::Array(array)) = model.get(input) else {
        return (args, Vec::new(), 0);
    };
    let mut explicit: Vec<(i32, i32)> = array
        .entries()
        .filter_map(|(i, v)| Some((value_as_i32(i)?, value_as_i32(v)?)))
        .filter(|&(i, _)| (0..MAX_EXPLICIT_INPUTS).contains(&i))
        .collect();
    explicit.sort();
    let pad = value_as_i32(array.default_value()).unwrap_or(0);
    let len = explicit.last().map_or(0, |&(i, _)| i as usize + 1);
    let mut inputs = vec![pad; len];
    for (i, v) in explicit {
        inputs[i as usize] = v;
    }
    (args, inputs, pad)
}

/// The counterexample of `model`, replayed: the model's explicit inputs and then its default
/// value (`pad`) are offered, the run keeps those it reads, and that is replayed again; the
/// final replay's events are the trace.
fn replayed_witness(
    module: &Module,
    entry: &str,
    locator: &Locator<'_>,
    args: Args,
    mut inputs: Vec<i32>,
    pad: i32,
) -> (Witness, symex_report::Replay) {
    inputs.extend(std::iter::repeat_n(pad, INPUT_PADDING));
    let mut witness = Witness {
        inputs,
        args,
        heap: None,
        trace: Vec::new(),
    };
    let mut replayed = replay_full(module, entry, &witness, Some(locator), None);
    if let Some(read) = replayed.inputs_read.filter(|&n| n < witness.inputs.len()) {
        witness.inputs.truncate(read);
        replayed = replay_full(module, entry, &witness, Some(locator), None);
    }
    witness.trace = replayed.trace;
    (witness, replayed.replay)
}
