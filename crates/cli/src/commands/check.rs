//! `symex check FILE`: run an engine over every property and report verdicts.
//!
//! Wiring only: options become the engine's `CheckOptions`, the engine produces a
//! `symex_report::Report`, and the report's exit class becomes the exit code (0 all safe,
//! 10 a violation, 20 bounded or unknown, 101 an unconfirmed counterexample).

use crate::exit::Exit;
use crate::progress::Bar;
use crate::source::{ColorChoice, SourceFile};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;
use symex_engine::common::emitted::TestSink;
use symex_engine::common::progress::{Progress, ProgressSink};
use symex_engine::{
    CheckOptions, EngineError, HeapModel, IndexMode, MergeMode, MergeOptions, QceEstimate,
    SearchStrategy, SolverChoice, StopOnFirst, TraceRules,
};
use symex_ir::cfg::PropertyKind;
use symex_report::{PathTest, Report};
use symex_smt::{Dialect, QueryOptions};

#[derive(clap::Args)]
pub struct CheckArgs {
    /// The program: micro-c (`.uc`) or C (`.c`, preprocessed `.i`).
    pub file: String,
    /// The engine to run.
    #[arg(long, value_enum, default_value_t = EngineChoice::Forward)]
    pub engine: EngineChoice,
    /// Analyse this function (its parameters become symbolic inputs) instead of `main`.
    #[arg(long, default_value = "main")]
    pub entry: String,
    #[command(flatten)]
    pub frontend: super::FrontendArgs,
    /// Search strategy of the forward engine.
    #[arg(long, value_enum, default_value_t = SearchArg::Klee)]
    pub search: SearchArg,
    /// Seed of the random choices of `random`, `random-path`, `coverage`, `coverage-nearest` and
    /// `klee`, and of Z3's search in the backward engine.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Bound every loop's iterations and the recursion depth by K (verdicts become `safe-up-to K`).
    #[arg(long, value_name = "K")]
    pub unwind: Option<u32>,
    /// Stop the whole check after this many seconds (verdicts become `unknown`).
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true)]
    pub timeout: Option<f64>,
    /// Forward engine: let a counterexample's replay in the interpreter run until this many
    /// seconds after the start, where that is later than --timeout (a summarized loop's
    /// counterexample may need seconds of concrete execution); the search still ends at
    /// --timeout.
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true)]
    pub replay_timeout: Option<f64>,
    /// At most this many symbolic branch forks per path.
    #[arg(long, value_name = "N")]
    pub max_depth: Option<u32>,
    /// At most this many live states.
    #[arg(long, value_name = "N")]
    pub max_states: Option<usize>,
    /// Stop when the process's resident memory reaches this many MiB (undecided properties
    /// become `unknown`); default: 75 % of the machine's memory.
    #[arg(long, value_name = "MB")]
    pub max_memory: Option<u64>,
    /// Symbolic array indices: an ite over the elements, or a fork per feasible index.
    #[arg(long, value_enum, default_value_t = IndexArg::Ite)]
    pub index_mode: IndexArg,
    /// State merging of the forward engine: never, whenever two states meet at a join point
    /// with the same call stack (aggressive), only when the query count estimate expects it to
    /// pay (qce), or qce with fast-forwarding toward merge partners (dynamic).
    #[arg(long, value_enum, default_value_t = MergeArg::None)]
    pub merge: MergeArg,
    /// The query count estimate of `--merge qce|dynamic`.
    #[arg(long, value_enum, default_value_t = QceEstimateArg::Recursive)]
    pub qce_estimate: QceEstimateArg,
    /// κ: how many times the recursive estimate runs every loop body.
    #[arg(long, value_name = "K", default_value_t = 1)]
    pub qce_kappa: u32,
    /// α: a variable is hot when its estimated queries exceed α times all estimated queries.
    #[arg(long, value_name = "FRACTION", default_value_t = 0.0)]
    pub qce_alpha: f64,
    /// β: the weight of each side of a branch in the recursive estimate.
    #[arg(long, value_name = "WEIGHT", default_value_t = 1.0)]
    pub qce_beta: f64,
    /// States merge only if their differing hot variables' estimated queries sum below this.
    #[arg(long, value_name = "COST", default_value_t = 1.0)]
    pub qce_limit_cost: f64,
    /// δ: `--merge dynamic` runs first a state this many IR instructions or fewer before a
    /// join point where a state it could merge with stands.
    #[arg(long, value_name = "N", default_value_t = 32)]
    pub dsm_delta: u32,
    /// Path subsumption: prune a state whose path condition implies the annotation that
    /// explored, error-free paths left at its location; loop headers get inductive annotations.
    #[arg(long)]
    pub subsume: bool,
    /// State matching: prune a state that reaches a loop header equal, in every value its
    /// future reads, to a state seen there before (symbolic values the same terms, with every
    /// constraint the earlier state had on them); ends the search of loops that cycle through
    /// finitely many states.
    #[arg(long)]
    pub match_states: bool,
    /// Stop at the first confirmed violation; `--stop-on-first=KIND,...` only at one of these
    /// property kinds (`assert`, `overflow`, `out-of-bounds`, ...), as `symex svcomp` does
    #[arg(
        long,
        value_name = "KIND",
        num_args = 0..=1,
        require_equals = true,
        value_delimiter = ',',
        value_parser = parse_kind
    )]
    pub stop_on_first: Option<Vec<PropertyKind>>,
    /// Keep searching once every property is decided (for the path count and coverage of
    /// `--stats`); by default the forward engine stops there. `--emit-tests` implies it.
    #[arg(long, conflicts_with = "stop_on_first")]
    pub explore_all: bool,
    /// Loop summarization of the forward engine: jump over runs of loop iterations by
    /// symbolic iteration counts where the loop has closed forms (docs/loop-summarization.md).
    #[arg(long)]
    pub summarize: bool,
    /// The solver: Z3 in process, or an SMT-LIB2 solver process (`z3-process`, `cvc5`).
    #[arg(long, value_enum, default_value_t = SolverArg::Z3)]
    pub solver: SolverArg,
    /// Time limit of each solver query, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 10_000)]
    pub solver_timeout: u64,
    /// Turn off the query cache.
    #[arg(long)]
    pub no_cache: bool,
    /// Turn off constraint independence.
    #[arg(long)]
    pub no_independence: bool,
    /// Turn off model reuse (answering `sat` from the models of earlier answers).
    #[arg(long)]
    pub no_model_reuse: bool,
    /// Turn off answering `unsat` from earlier unsatisfiable questions a question contains.
    #[arg(long)]
    pub no_unsat_subsets: bool,
    /// Turn off answering queries by simplification alone.
    #[arg(long)]
    pub no_fast_path: bool,
    /// Write every query that reaches the solver to DIR as a standalone SMT-LIB2 file.
    #[arg(long, value_name = "DIR")]
    pub dump_smt: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Print the statistics table (text format).
    #[arg(long)]
    pub stats: bool,
    /// Input-heap model for an entry with pointer parameters (docs/heap-models.md).
    #[arg(long, value_enum, default_value_t = HeapArg::Pose)]
    pub heap: HeapArg,
    /// What `stats.traces` counts: every leaf (full) or the paper's rules (paper).
    #[arg(long, value_enum, default_value_t = TraceRulesArg::Full)]
    pub trace_rules: TraceRulesArg,
    /// At most N input-heap objects per path (a bound: `safe up to N`).
    #[arg(long, value_name = "N")]
    pub max_heap_objects: Option<u32>,
    /// At most N fields on the access path of an input reference (a bound).
    #[arg(long, value_name = "N")]
    pub max_access_depth: Option<u32>,
    /// Backward engine: which algorithm of the paper's Table 3 (default the fastest, conj-never).
    #[arg(long, value_name = "VARIANT", default_value = "conj-never", value_parser = parse_variant)]
    pub bse_variant: symex_engine::BseVariant,
    /// Backward engine: start only from the properties at LINE (or LINE:COL).
    #[arg(long, value_name = "LINE[:COL]", value_parser = parse_target, conflicts_with = "reach")]
    pub target: Option<symex_engine::backward::Target>,
    /// Is a statement of LINE executed by some input? (`violated` means reached, with a replayed
    /// witness; the report holds only this `reach` property.)
    #[arg(long, value_name = "LINE", value_parser = clap::value_parser!(u32).range(1..))]
    pub reach: Option<u32>,
    /// Structural engine: expand call summaries on demand (lazy) or all up front (eager).
    #[arg(long, value_enum, default_value_t = RefineArg::Lazy)]
    pub refine: RefineArg,
    /// Write heap graphs as Graphviz to FILE: the counterexamples' input heaps (forward engine),
    /// or the heap at each step of the first counterexample's path (backward engine).
    #[arg(long, value_name = "FILE")]
    pub heap_dot: Option<PathBuf>,
    /// Also write the report as one self-contained HTML page to FILE: the source with every
    /// verdict in the margin, each counterexample step by step with its variables and heap
    /// (docs/reports.md).
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// No progress bar, and of the text report only its summary line (JSON and SARIF stay
    /// complete).
    #[arg(long)]
    pub quiet: bool,
    /// Forward engine: write one replayable test per explored path to DIR (`test000001.json`,
    /// ...: inputs, arguments, input heap, how the path ended; earlier `test*.json` files there
    /// are removed); `symex replay DIR FILE` runs them and measures their coverage
    /// (docs/tests.md). Their inputs cost solver time within `--timeout`.
    #[arg(long, value_name = "DIR", conflicts_with = "reach")]
    pub emit_tests: Option<PathBuf>,
}

/// Where an engine hands what it finds while it runs (live figures, emitted tests) and what
/// it leaves when it stops.
#[derive(Clone, Debug, Default)]
pub struct Sinks {
    pub progress: ProgressSink,
    pub tests: TestSink,
    /// The process ends after this check, so what the engine leaves need not be freed
    /// (`CheckOptions::leave_states_to_exit`).
    pub process_ends: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum HeapArg {
    Li,
    Lazier,
    Pose,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum TraceRulesArg {
    Full,
    Paper,
}

fn parse_variant(s: &str) -> Result<symex_engine::BseVariant, String> {
    s.parse()
}

fn parse_kind(s: &str) -> Result<PropertyKind, String> {
    PropertyKind::from_name(s).ok_or_else(|| {
        let names: Vec<&str> = PropertyKind::ALL.iter().map(|k| k.name()).collect();
        format!("no property kind `{s}` (the kinds: {})", names.join(", "))
    })
}

fn parse_target(s: &str) -> Result<symex_engine::backward::Target, String> {
    s.parse()
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum EngineChoice {
    /// KLEE-style forward symbolic execution (seed 002).
    Forward,
    /// Backward symbolic execution with a heap in the theory of arrays (seeds 000/001).
    Backward,
    /// Structure-preserving symbolic execution with function summaries and structural
    /// abstraction/refinement (seed 004, Calysto).
    Structural,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum RefineArg {
    /// Expand a call's summary only when a falsifying model depends on it.
    Lazy,
    /// Inline every summary a VC can reach before its first check (for comparison).
    Eager,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum SearchArg {
    /// Breadth first: the oldest state.
    Bfs,
    /// Depth first: the newest state.
    Dfs,
    /// Uniformly at random among the live states.
    Random,
    /// KLEE's random walk down the execution tree.
    RandomPath,
    /// A state drawn with probability proportional to 1/distance to uncovered code, through
    /// returns into callers too (the thesis's coverage search).
    Coverage,
    /// The state nearest to uncovered code.
    CoverageNearest,
    /// Random-path and coverage, round robin (KLEE's default).
    Klee,
}

impl SearchArg {
    fn strategy(self) -> SearchStrategy {
        match self {
            SearchArg::Bfs => SearchStrategy::Bfs,
            SearchArg::Dfs => SearchStrategy::Dfs,
            SearchArg::Random => SearchStrategy::Random,
            SearchArg::RandomPath => SearchStrategy::RandomPath,
            SearchArg::Coverage => SearchStrategy::Coverage,
            SearchArg::CoverageNearest => SearchStrategy::CoverageNearest,
            SearchArg::Klee => SearchStrategy::Klee,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum IndexArg {
    Ite,
    Fork,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum MergeArg {
    None,
    Aggressive,
    Qce,
    Dynamic,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum QceEstimateArg {
    Recursive,
    Lattice,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum SolverArg {
    Z3,
    Z3Process,
    Cvc5,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Text,
    Json,
    /// SARIF 2.1.0, for code-scanning services and IDE viewers (docs/report-sarif.md).
    Sarif,
}

impl CheckArgs {
    /// The engine's options; the engine hands its live figures and tests to `sinks`.
    fn options(&self, sinks: &Sinks) -> CheckOptions {
        let search = self.search.strategy();
        let solver = match self.solver {
            SolverArg::Z3 => SolverChoice::Z3,
            SolverArg::Z3Process => SolverChoice::Process {
                command: "z3 -in -smt2".into(),
                dialect: Dialect::Z3,
            },
            SolverArg::Cvc5 => SolverChoice::Process {
                command: "cvc5 --incremental --lang smt2".into(),
                dialect: Dialect::Cvc5,
            },
        };
        CheckOptions {
            search,
            seed: self.seed,
            timeout: self.timeout.map(Duration::from_secs_f64),
            replay_timeout: self.replay_timeout.map(Duration::from_secs_f64),
            max_depth: self.max_depth,
            unwind: self.unwind,
            max_states: self.max_states,
            max_memory_mb: self.max_memory,
            index_mode: match self.index_mode {
                IndexArg::Ite => IndexMode::Ite,
                IndexArg::Fork => IndexMode::Fork,
            },
            merge: match self.merge {
                MergeArg::None => MergeMode::None,
                MergeArg::Aggressive => MergeMode::Aggressive,
                MergeArg::Qce => MergeMode::Qce,
                MergeArg::Dynamic => MergeMode::Dynamic,
            },
            merge_options: MergeOptions {
                estimate: match self.qce_estimate {
                    QceEstimateArg::Recursive => QceEstimate::Recursive,
                    QceEstimateArg::Lattice => QceEstimate::Lattice,
                },
                kappa: self.qce_kappa,
                alpha: self.qce_alpha,
                beta: self.qce_beta,
                limit_cost: self.qce_limit_cost,
                delta: self.dsm_delta,
            },
            subsume: self.subsume,
            match_states: self.match_states,
            stop_on_first: match &self.stop_on_first {
                None => StopOnFirst::No,
                Some(kinds) if kinds.is_empty() => StopOnFirst::Any,
                Some(kinds) => StopOnFirst::OfKinds(kinds.clone()),
            },
            explore_all: self.explore_all,
            summarize: self.summarize,
            solver,
            query: QueryOptions {
                fast_path: !self.no_fast_path,
                independence: !self.no_independence,
                cache: !self.no_cache,
                model_reuse: !self.no_model_reuse,
                unsat_subsets: !self.no_unsat_subsets,
                long_path_from: QueryOptions::default().long_path_from,
                timeout: Some(Duration::from_millis(self.solver_timeout)),
                dump_dir: self.dump_smt.clone(),
            },
            progress: sinks.progress.clone(),
            emit_tests: sinks.tests.clone(),
            leave_states_to_exit: sinks.process_ends,
            heap: match self.heap {
                HeapArg::Li => HeapModel::Li,
                HeapArg::Lazier => HeapModel::Lazier,
                HeapArg::Pose => HeapModel::Pose,
            },
            trace_rules: match self.trace_rules {
                TraceRulesArg::Full => TraceRules::Full,
                TraceRulesArg::Paper => TraceRules::Paper,
            },
            max_heap_objects: self.max_heap_objects,
            max_access_depth: self.max_access_depth,
        }
    }
}

/// `symex check`'s flags as a command line of their own (the program path comes last).
#[derive(clap::Parser)]
#[command(name = "symex check", no_binary_name = true)]
struct CheckLine {
    #[command(flatten)]
    args: CheckArgs,
}

impl CheckArgs {
    /// The arguments of `symex check WORDS...` (flags, then the program), refusing an option
    /// the chosen engine does not read ([`refuse_unused_options`]).
    pub fn from_words(words: Vec<String>) -> Result<CheckArgs, clap::Error> {
        use clap::{CommandFactory, FromArgMatches};
        let mut command = CheckLine::command();
        let matches = command.try_get_matches_from_mut(words)?;
        refuse_unused_options(&matches)
            .map_err(|message| command.error(clap::error::ErrorKind::ArgumentConflict, message))?;
        CheckLine::from_arg_matches(&matches).map(|line| line.args)
    }
}

/// The options that only some engines read, by their argument ids, with those engines.
const ENGINE_OPTIONS: &[(&str, &[EngineChoice])] = {
    use EngineChoice::{Backward, Forward, Structural};
    &[
        ("search", &[Forward]),
        ("seed", &[Forward, Backward]),
        ("max_depth", &[Forward]),
        ("max_states", &[Forward]),
        ("index_mode", &[Forward]),
        ("merge", &[Forward]),
        ("qce_estimate", &[Forward]),
        ("qce_kappa", &[Forward]),
        ("qce_alpha", &[Forward]),
        ("qce_beta", &[Forward]),
        ("qce_limit_cost", &[Forward]),
        ("dsm_delta", &[Forward]),
        ("subsume", &[Forward]),
        ("match_states", &[Forward]),
        ("stop_on_first", &[Forward]),
        ("explore_all", &[Forward]),
        ("summarize", &[Forward]),
        ("heap", &[Forward]),
        ("trace_rules", &[Forward]),
        ("max_heap_objects", &[Forward]),
        ("max_access_depth", &[Forward]),
        ("bse_variant", &[Backward]),
        ("target", &[Backward]),
        ("refine", &[Structural]),
        ("heap_dot", &[Forward, Backward]),
        ("emit_tests", &[Forward]),
        ("replay_timeout", &[Forward]),
    ]
};

/// An option given on the command line that the chosen engine does not read is an error that
/// names the engine (silently ignoring it would let a user believe it took effect).
pub fn refuse_unused_options(matches: &clap::ArgMatches) -> Result<(), String> {
    let engine = matches
        .get_one::<EngineChoice>("engine")
        .copied()
        .unwrap_or(EngineChoice::Forward);
    for (id, engines) in ENGINE_OPTIONS {
        let given = matches.value_source(id) == Some(clap::parser::ValueSource::CommandLine);
        if given && !engines.contains(&engine) {
            let users: Vec<String> = engines.iter().map(|e| engine_name(*e)).collect();
            return Err(format!(
                "--{} is not used by the {} engine (it applies to {})",
                id.replace('_', "-"),
                engine_name(engine),
                users.join(" and ")
            ));
        }
    }
    Ok(())
}

fn engine_name(engine: EngineChoice) -> String {
    use clap::ValueEnum;
    engine
        .to_possible_value()
        .map(|v| v.get_name().to_string())
        .unwrap_or_default()
}

pub fn run(args: &CheckArgs, color: ColorChoice) -> Exit {
    for (name, limit) in [
        ("--timeout", args.timeout),
        ("--replay-timeout", args.replay_timeout),
    ] {
        if let Some(why) = limit.and_then(super::time_limit_error) {
            diag!("error: {name} {why}");
            return Exit::Usage;
        }
    }
    for (name, value) in [
        ("--qce-alpha", args.qce_alpha),
        ("--qce-beta", args.qce_beta),
        ("--qce-limit-cost", args.qce_limit_cost),
    ] {
        if !(value.is_finite() && value >= 0.0) {
            diag!("error: {name} must be a non-negative number, not {value}");
            return Exit::Usage;
        }
    }
    let file = match super::load(&args.file) {
        Ok(file) => file,
        Err(exit) => return exit,
    };
    let mut sinks = Sinks::default();
    if let Some(dir) = &args.emit_tests {
        if let Err(e) = std::fs::create_dir_all(dir).and_then(|()| remove_tests(dir)) {
            diag!("error: cannot prepare `{}` for tests: {e}", dir.display());
            return Exit::Usage;
        }
        sinks.tests = TestSink::to(Arc::new(Mutex::new(Vec::new())));
    }
    // The bar only where a person watches: a terminal, and not `--quiet`.
    let bar = (std::io::stderr().is_terminal() && !args.quiet).then(|| {
        let progress = Arc::new(Progress::default());
        sinks.progress = ProgressSink::to(progress.clone());
        Bar::start(progress, args.timeout.map(Duration::from_secs_f64))
    });
    sinks.process_ends = true;
    let checked = check_source(args, &file, color, &sinks);
    if let Some(bar) = bar {
        bar.finish();
    }
    let report = match checked {
        Ok(report) => report,
        Err(exit) => return exit,
    };
    if let (Some(path), EngineChoice::Forward) = (&args.heap_dot, args.engine) {
        if let Err(e) = std::fs::write(path, symex_report::heap_dot::report_heaps_dot(&report)) {
            diag!("error: cannot write `{}`: {e}", path.display());
            return Exit::Usage;
        }
    }
    if let Some(path) = &args.html {
        if let Err(exit) = super::report::write_html(&report, &file.text, path) {
            return exit;
        }
    }
    if let (Some(dir), Some(tests)) = (&args.emit_tests, sinks.tests.get()) {
        let tests = std::mem::take(&mut *tests.lock().unwrap_or_else(PoisonError::into_inner));
        if let Err(exit) = write_tests(dir, (&report, &file.text), tests, args.quiet) {
            return exit;
        }
    }
    match args.format {
        Format::Json => match report.to_json() {
            Ok(json) => crate::stdout::print(&format!("{json}\n")),
            Err(e) => {
                diag!("internal error: cannot write the report as JSON: {e}");
                return Exit::Internal;
            }
        },
        Format::Sarif => match report.to_sarif() {
            Ok(sarif) => crate::stdout::print(&format!("{sarif}\n")),
            Err(e) => {
                diag!("internal error: cannot write the report as SARIF: {e}");
                return Exit::Internal;
            }
        },
        Format::Text if args.quiet => crate::stdout::print(&report.summary_line()),
        Format::Text => {
            crate::stdout::print(&report.to_text(&file.text, color.enabled()));
            if args.stats {
                crate::stdout::print(&report.stats.table());
            }
        }
    }
    report.exit_class().into()
}

/// Analyses a loaded program and runs the chosen engine on it: what `symex check` does before
/// rendering, shared with `symex bench` so both give the same numbers. On failure the reason is
/// printed and the exit code returned.
pub fn check_source(
    args: &CheckArgs,
    file: &SourceFile,
    color: ColorChoice,
    sinks: &Sinks,
) -> Result<Report, Exit> {
    let lowered = super::lower_file(file, args.frontend, &args.entry, color)?;
    // Every analysis refuses an ill-typed program (microc.md "Types").
    let types = match &lowered.types {
        Ok(types) => types,
        Err(errors) => {
            file.emit(errors, color);
            return Err(Exit::ProgramError);
        }
    };
    let module = &lowered.module;
    let report = match args.engine {
        EngineChoice::Forward => match args.reach {
            Some(line) => symex_engine::check_forward_reach(
                module,
                types,
                &file.text,
                &file.name,
                &args.entry,
                &args.options(sinks),
                line,
            ),
            None => symex_engine::check_forward(
                module,
                types,
                &file.text,
                &file.name,
                &args.entry,
                &args.options(sinks),
            ),
        },
        EngineChoice::Backward => {
            let target = match args.reach {
                Some(line) => symex_engine::backward::Target::Reach { line },
                None => args.target.unwrap_or_default(),
            };
            let backward = symex_engine::BackwardOptions {
                variant: args.bse_variant,
                target,
            };
            symex_engine::backward::check_backward_traced(
                module,
                types,
                &file.text,
                &file.name,
                &args.entry,
                &args.options(sinks),
                &backward,
            )
            .and_then(|outcome| {
                if let Some(path) = &args.heap_dot {
                    let dot = outcome
                        .heap_dot
                        .unwrap_or_else(|| "digraph heap {\n}\n".into());
                    std::fs::write(path, dot).map_err(|e| {
                        EngineError::Solver(format!("cannot write `{}`: {e}", path.display()))
                    })?;
                }
                Ok(outcome.report)
            })
        }
        EngineChoice::Structural => {
            let structural = symex_engine::StructuralOptions {
                refine: match args.refine {
                    RefineArg::Lazy => symex_engine::RefineMode::Lazy,
                    RefineArg::Eager => symex_engine::RefineMode::Eager,
                },
                reach: args.reach,
            };
            symex_engine::check_structural(
                module,
                types,
                &file.text,
                &file.name,
                &args.entry,
                &args.options(sinks),
                &structural,
            )
        }
    };
    let report = report.map(|mut report| {
        report.frontend = args.frontend.words();
        report.name_unmodelled_causes(|span| lowered.unmodelled_cause(span));
        report
    });
    report.map_err(|e| {
        diag!("error: {e}");
        match e {
            EngineError::UnknownEntry(_) | EngineError::BadTarget(_) | EngineError::Solver(_) => {
                Exit::Usage
            }
            EngineError::UnsupportedEntry { .. } => Exit::ProgramError,
            EngineError::Internal(_) => Exit::Internal,
        }
    })
}

/// Removes the tests an earlier check left in `dir`, so that the folder holds one check's.
fn remove_tests(dir: &Path) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        if name.starts_with("test") && name.ends_with(".json") {
            std::fs::remove_file(&path)?;
        }
    }
    Ok(())
}

/// Writes the tests of a check to `dir` as `test000001.json`, ..., in the order the search
/// ended their paths, each naming the program and the front end's options as the report does.
fn write_tests(
    dir: &Path,
    (report, text): (&Report, &str),
    tests: Vec<PathTest>,
    quiet: bool,
) -> Result<(), Exit> {
    let count = tests.len();
    let hash = super::sha256_hex(text);
    for (i, mut test) in tests.into_iter().enumerate() {
        test.program = report.program.clone();
        test.program_sha256 = Some(hash.clone());
        test.frontend = report.frontend.clone();
        let json = test.to_json().map_err(|e| {
            diag!("internal error: cannot write a test as JSON: {e}");
            Exit::Internal
        })?;
        let path = dir.join(format!("test{:06}.json", i + 1));
        std::fs::write(&path, json + "\n").map_err(|e| {
            diag!("error: cannot write `{}`: {e}", path.display());
            Exit::Usage
        })?;
    }
    if !quiet {
        diag!("{count} tests written to {}", dir.display());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `symex check` and the engine's `CheckOptions::default()` agree on the default search.
    #[test]
    fn the_default_search_is_the_engines() {
        let args = CheckArgs::from_words(vec!["p.uc".to_string()]).expect("parses");
        assert_eq!(args.search.strategy(), SearchStrategy::default());
    }
}
