//! The options of `symex check` that engines read: search strategy, seed, bounds and limits,
//! array-index mode, solver choice and query layers.
//!
//! Plain data with `FromStr` for the command line's names; nothing here enforces a bound.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use symex_ir::cfg::PropertyKind;
use symex_smt::{Dialect, QueryOptions};

use crate::common::emitted::TestSink;
use crate::common::progress::ProgressSink;

/// How the forward engine picks the next state to run (`--search`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum SearchStrategy {
    /// Breadth first: the oldest state.
    Bfs,
    /// Depth first: the newest state.
    Dfs,
    /// Uniformly at random among live states.
    Random,
    /// KLEE's random walk down the execution tree.
    RandomPath,
    /// A state drawn with probability proportional to 1/distance to an uncovered instruction
    /// (the thesis's coverage search).
    Coverage,
    /// The state nearest to an uncovered instruction.
    CoverageNearest,
    /// Random-path and coverage, round robin: KLEE's default, and symex's (depth-first search
    /// follows an unbounded loop or recursion forever; docs/search.md).
    #[default]
    Klee,
}

impl SearchStrategy {
    pub const ALL: [SearchStrategy; 7] = [
        SearchStrategy::Bfs,
        SearchStrategy::Dfs,
        SearchStrategy::Random,
        SearchStrategy::RandomPath,
        SearchStrategy::Coverage,
        SearchStrategy::CoverageNearest,
        SearchStrategy::Klee,
    ];

    /// Whether the strategy draws states from the execution tree (random-path search).
    pub fn walks_tree(self) -> bool {
        matches!(self, SearchStrategy::RandomPath | SearchStrategy::Klee)
    }

    /// Whether the strategy draws per state, from the states' keys in the execution tree.
    pub fn keys_states(self) -> bool {
        self.walks_tree()
            || matches!(
                self,
                SearchStrategy::Coverage | SearchStrategy::CoverageNearest
            )
    }

    /// The `--search` name.
    pub fn name(self) -> &'static str {
        match self {
            SearchStrategy::Bfs => "bfs",
            SearchStrategy::Dfs => "dfs",
            SearchStrategy::Random => "random",
            SearchStrategy::RandomPath => "random-path",
            SearchStrategy::Coverage => "coverage",
            SearchStrategy::CoverageNearest => "coverage-nearest",
            SearchStrategy::Klee => "klee",
        }
    }
}

impl fmt::Display for SearchStrategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for SearchStrategy {
    type Err = String;

    fn from_str(s: &str) -> Result<SearchStrategy, String> {
        SearchStrategy::ALL
            .into_iter()
            .find(|strategy| strategy.name() == s)
            .ok_or_else(|| {
                let names: Vec<&str> = SearchStrategy::ALL.iter().map(|s| s.name()).collect();
                format!(
                    "unknown search strategy `{s}` (expected one of: {})",
                    names.join(", ")
                )
            })
    }
}

/// Which confirmed violation ends the search at once (`--stop-on-first`), before every
/// property is decided: none (the default), any, or one of some kinds. `symex svcomp` stops at
/// the first of its property's kinds, whose answer no later finding changes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum StopOnFirst {
    #[default]
    No,
    Any,
    OfKinds(Vec<PropertyKind>),
}

impl StopOnFirst {
    /// Whether a confirmed violation of a property of this kind ends the search. A failed
    /// `unmodelled` check is no violation (its property is never `violated`: the run left
    /// what symex models), so it ends the search only where its kind is named.
    pub fn stops_at(&self, kind: PropertyKind) -> bool {
        match self {
            StopOnFirst::No => false,
            StopOnFirst::Any => kind != PropertyKind::Unmodelled,
            StopOnFirst::OfKinds(kinds) => kinds.contains(&kind),
        }
    }
}

/// How a symbolic array index is handled (`--index-mode`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum IndexMode {
    /// Reads become ite chains over the elements, writes update every element under a guard.
    #[default]
    Ite,
    /// The state forks once per feasible concrete index.
    Fork,
}

impl IndexMode {
    pub fn name(self) -> &'static str {
        match self {
            IndexMode::Ite => "ite",
            IndexMode::Fork => "fork",
        }
    }
}

impl fmt::Display for IndexMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for IndexMode {
    type Err = String;

    fn from_str(s: &str) -> Result<IndexMode, String> {
        match s {
            "ite" => Ok(IndexMode::Ite),
            "fork" => Ok(IndexMode::Fork),
            _ => Err(format!(
                "unknown index mode `{s}` (expected one of: ite, fork)"
            )),
        }
    }
}

/// Whether and how the forward engine merges states (`--merge`, docs/state-merging.md).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum MergeMode {
    /// Every state stands for one path.
    #[default]
    None,
    /// Two states waiting at the same join point with the same call stack become one (seed 002
    /// §4.3, the thesis's `aggressive` strategy).
    Aggressive,
    /// As `Aggressive`, but only states whose differing variables are not hot by the query
    /// count estimate (Kuznetsov et al. PLDI'12 §3, seed 002 §4.3.1 and §5.4.3.2).
    Qce,
    /// Dynamic state merging (PLDI'12 §4, seed 002 §4.3.2): states are not held at join
    /// points; a state close to a join point where a state it could merge with stands is run
    /// first, and they merge when they meet if the query count estimate allows it.
    Dynamic,
}

impl MergeMode {
    pub const ALL: [MergeMode; 4] = [
        MergeMode::None,
        MergeMode::Aggressive,
        MergeMode::Qce,
        MergeMode::Dynamic,
    ];

    pub fn name(self) -> &'static str {
        match self {
            MergeMode::None => "none",
            MergeMode::Aggressive => "aggressive",
            MergeMode::Qce => "qce",
            MergeMode::Dynamic => "dynamic",
        }
    }

    /// Whether states are merged at all.
    pub fn merges(self) -> bool {
        self != MergeMode::None
    }

    /// Whether the query count estimate decides which states merge.
    pub fn uses_qce(self) -> bool {
        matches!(self, MergeMode::Qce | MergeMode::Dynamic)
    }
}

impl fmt::Display for MergeMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for MergeMode {
    type Err = String;

    fn from_str(s: &str) -> Result<MergeMode, String> {
        MergeMode::ALL
            .into_iter()
            .find(|m| m.name() == s)
            .ok_or_else(|| {
                format!(
                    "unknown merge mode `{s}` (expected one of: none, aggressive, qce, dynamic)"
                )
            })
    }
}

/// Which static estimate of future queries `--merge qce|dynamic` uses (`--qce-estimate`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum QceEstimate {
    /// Sums over the paths of the control-flow graph with every loop unrolled κ times and
    /// each side of a branch weighted β (seed 002 §4.3.1, PLDI'12 §3.2).
    #[default]
    Recursive,
    /// A backward dataflow analysis whose values are capped (seed 002 §5.4.3.2).
    Lattice,
}

impl QceEstimate {
    pub fn name(self) -> &'static str {
        match self {
            QceEstimate::Recursive => "recursive",
            QceEstimate::Lattice => "lattice",
        }
    }
}

impl fmt::Display for QceEstimate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for QceEstimate {
    type Err = String;

    fn from_str(s: &str) -> Result<QceEstimate, String> {
        match s {
            "recursive" => Ok(QceEstimate::Recursive),
            "lattice" => Ok(QceEstimate::Lattice),
            _ => Err(format!(
                "unknown query count estimate `{s}` (expected one of: recursive, lattice)"
            )),
        }
    }
}

/// The knobs of `--merge qce` and `--merge dynamic` (docs/state-merging.md has the defaults'
/// reasons).
#[derive(Clone, Copy, Debug)]
pub struct MergeOptions {
    pub estimate: QceEstimate,
    /// κ: how many times the recursive estimate runs every loop's body (seed 002's `kappa`).
    pub kappa: u32,
    /// α: a variable is hot at a location when its estimated queries exceed α times all the
    /// queries estimated there (PLDI'12's threshold fraction).
    pub alpha: f64,
    /// β: the weight of each side of a branch in the recursive estimate (PLDI'12).
    pub beta: f64,
    /// Two states merge only if the estimated queries of their differing hot variables sum to
    /// less than this (seed 002's `limit-cost`).
    pub limit_cost: f64,
    /// δ: `--merge dynamic` runs first a state at most this many IR instructions (along the
    /// control-flow graph) before a join point where a state it could merge with stands.
    pub delta: u32,
}

impl Default for MergeOptions {
    fn default() -> MergeOptions {
        MergeOptions {
            estimate: QceEstimate::Recursive,
            kappa: 1,
            alpha: 0.0,
            beta: 1.0,
            limit_cost: 1.0,
            delta: 32,
        }
    }
}

impl PartialEq for MergeOptions {
    /// Bit equality of the fractions: options are compared for identity, not arithmetic.
    fn eq(&self, other: &MergeOptions) -> bool {
        self.estimate == other.estimate
            && self.kappa == other.kappa
            && self.alpha.to_bits() == other.alpha.to_bits()
            && self.beta.to_bits() == other.beta.to_bits()
            && self.limit_cost.to_bits() == other.limit_cost.to_bits()
            && self.delta == other.delta
    }
}

impl Eq for MergeOptions {}

/// How pointer parameters of the entry become a symbolic input heap (`crate::heap`, seed 003).
/// POSE is the default: an entry with pointer parameters is checked under it unless `--heap`
/// says otherwise.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum HeapModel {
    /// Lazy initialization: every first use of an input reference forks on null, each
    /// compatible object materialized before, and a fresh object.
    Li,
    /// Lazier#: copies do not fork, a null comparison forks null / non-null, a dereference
    /// enumerates the aliases.
    Lazier,
    /// Path-optimal symbolic execution: aliasing as ite terms, forks only at branches.
    #[default]
    Pose,
}

impl HeapModel {
    pub const ALL: [HeapModel; 3] = [HeapModel::Li, HeapModel::Lazier, HeapModel::Pose];

    pub fn name(self) -> &'static str {
        match self {
            HeapModel::Li => "li",
            HeapModel::Lazier => "lazier",
            HeapModel::Pose => "pose",
        }
    }
}

impl fmt::Display for HeapModel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for HeapModel {
    type Err = String;

    fn from_str(s: &str) -> Result<HeapModel, String> {
        HeapModel::ALL
            .into_iter()
            .find(|m| m.name() == s)
            .ok_or_else(|| format!("unknown heap model `{s}` (expected one of: li, lazier, pose)"))
    }
}

/// What `stats.traces` counts (docs/heap-models.md).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum TraceRules {
    /// Every leaf: finished paths, failed paths, cut paths, and one error leaf for every check
    /// a path passes whose failure is possible.
    #[default]
    Full,
    /// The counting of seed 003: a dereference of an input reference implies it is non-null,
    /// so a possible null dereference adds no leaf (a forked null branch still does).
    Paper,
}

impl FromStr for TraceRules {
    type Err = String;

    fn from_str(s: &str) -> Result<TraceRules, String> {
        match s {
            "full" => Ok(TraceRules::Full),
            "paper" => Ok(TraceRules::Paper),
            _ => Err(format!(
                "unknown trace rules `{s}` (expected one of: full, paper)"
            )),
        }
    }
}

/// Which solver answers the queries.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum SolverChoice {
    /// Z3 through its C API, in process.
    #[default]
    Z3,
    /// An SMT-LIB2 solver process, e.g. `z3 -in -smt2` or `cvc5 --incremental --lang smt2`.
    Process { command: String, dialect: Dialect },
}

/// Everything `symex check` tells an engine. The default: klee search, seed 0, no bounds or limits,
/// ite index mode, no merging, in-process Z3 with every query layer on, no progress line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CheckOptions {
    pub search: SearchStrategy,
    /// Seeds every random choice (random, random-path, coverage ties, klee) and, in the
    /// backward engine, Z3's search (`smt.random_seed`).
    pub seed: u64,
    /// Wall-clock limit of the whole check.
    pub timeout: Option<Duration>,
    /// How long after the check's start a counterexample's replay may run, where that is later
    /// than `timeout` (forward engine): a summarized loop's counterexample may need seconds of
    /// concrete execution that a short check's limit would cut, leaving a real violation
    /// `unknown`; `symex svcomp`'s portfolio gives each configuration half the time the later
    /// ones have. The check itself still ends at `timeout`. Without `timeout`, the replay runs
    /// until this instead of a fixed number of instructions.
    pub replay_timeout: Option<Duration>,
    /// At most this many symbolic branch forks per path (KLEE's `--max-depth`).
    pub max_depth: Option<u32>,
    /// Loop iterations and recursion depth bound (see `forward::bounds`).
    pub unwind: Option<u32>,
    /// At most this many live states.
    pub max_states: Option<usize>,
    /// Approximate limit of the process's resident memory.
    pub max_memory_mb: Option<u64>,
    pub index_mode: IndexMode,
    /// State merging at join points (forward engine).
    pub merge: MergeMode,
    /// The knobs of `--merge qce` and `--merge dynamic`.
    pub merge_options: MergeOptions,
    /// Path subsumption by annotations (forward engine, `--subsume`).
    pub subsume: bool,
    /// Pruning states equal to one seen before at a loop header (forward engine,
    /// `--match-states`).
    pub match_states: bool,
    /// Which confirmed violation ends the search at once (`--stop-on-first`).
    pub stop_on_first: StopOnFirst,
    /// Keep searching once every property is decided (confirmed violated, or unable to fail),
    /// for the path count, the coverage or the tests of every path (`--emit-tests` implies
    /// it). Without it the forward engine stops there: nothing it could still find changes a
    /// verdict.
    pub explore_all: bool,
    /// Loop summarization at loop headers (forward engine, `forward/summarize`).
    pub summarize: bool,
    pub solver: SolverChoice,
    pub query: QueryOptions,
    /// Where the engine publishes its live figures (none by default).
    pub progress: ProgressSink,
    /// Where the forward engine puts one test per explored path (`--emit-tests`; none by
    /// default). With it, a failing check is asked on every path, also once its property has
    /// a counterexample.
    pub emit_tests: TestSink,
    /// The input-heap model for entries with pointer parameters.
    pub heap: HeapModel,
    /// What `stats.traces` counts.
    pub trace_rules: TraceRules,
    /// At most this many input objects per path (a cut beyond).
    pub max_heap_objects: Option<u32>,
    /// At most this many fields on the access path of an input reference (a cut beyond).
    pub max_access_depth: Option<u32>,
    /// The process ends right after this check (`symex check`): the forward engine leaves
    /// the states still pending when its search stops to the process's end instead of
    /// freeing them, which took 2.4 s past a 10 s limit for 1.8 GB of states (BENCHMARKS.md,
    /// "Forward engine: states of large memories"). Off by default: a process that goes on
    /// (`symex bench`, `svcomp`'s configurations, tests) needs the memory back.
    pub leave_states_to_exit: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `--stop-on-first` of any kind stops at a confirmed violation, never at a failed
    /// `unmodelled` check (no violation); named kinds stop at exactly those.
    #[test]
    fn stop_on_first_any_passes_unmodelled_findings_by() {
        assert!(StopOnFirst::Any.stops_at(PropertyKind::Assert));
        assert!(!StopOnFirst::Any.stops_at(PropertyKind::Unmodelled));
        assert!(!StopOnFirst::No.stops_at(PropertyKind::Assert));
        let named = StopOnFirst::OfKinds(vec![PropertyKind::Unmodelled]);
        assert!(named.stops_at(PropertyKind::Unmodelled));
        assert!(!named.stops_at(PropertyKind::Assert));
    }

    #[test]
    fn strategy_names_round_trip() {
        for s in SearchStrategy::ALL {
            assert_eq!(s.name().parse::<SearchStrategy>(), Ok(s));
        }
        let err = "dfx".parse::<SearchStrategy>().unwrap_err();
        assert!(err.contains("random-path"), "{err}");
        assert_eq!("fork".parse::<IndexMode>(), Ok(IndexMode::Fork));
        assert!("x".parse::<IndexMode>().is_err());
        assert_eq!("aggressive".parse::<MergeMode>(), Ok(MergeMode::Aggressive));
        assert_eq!(MergeMode::default().name(), "none");
        assert!("lattice".parse::<MergeMode>().is_err());
        for m in MergeMode::ALL {
            assert_eq!(m.name().parse::<MergeMode>(), Ok(m));
        }
        assert_eq!("lattice".parse::<QceEstimate>(), Ok(QceEstimate::Lattice));
        assert!("recursion".parse::<QceEstimate>().is_err());
        let mut other = MergeOptions::default();
        assert_eq!(other, MergeOptions::default());
        other.alpha = 0.5;
        assert_ne!(other, MergeOptions::default());
    }
}
