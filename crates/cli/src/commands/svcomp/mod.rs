//! `symex svcomp TASK.yml`: an SV-COMP verification task (task-definition format 2.0) checked
//! property by property, answered in the competition's words: `<property>: TRUE`,
//! `<property>: FALSE(<sub-property>)` or `<property>: UNKNOWN (<reason>)`.
//!
//! The program goes through `symex check` (`check::check_source`) under a portfolio of forward
//! configurations that share the time limit; each is sound, so the first `TRUE` or `FALSE` is
//! the answer, and a `FALSE` is always a replayed counterexample. The report is read by
//! `symex_report::svcomp`. Nothing here formats reports or runs an engine directly.

use std::path::{Path, PathBuf};
use std::time::Instant;

use serde::Deserialize;
use symex_interp::RunEnd;
use symex_ir::cfg::PropertyKind;
use symex_report::svcomp::{answer, SvVerdict};
use symex_report::Report;

mod rerun;
mod suite;
mod undefined;
mod validate;
mod witness;

use super::check::{check_source, CheckArgs, Sinks};
use super::FrontendArgs;
use crate::exit::Exit;
use crate::source::ColorChoice;
use crate::source::SourceFile;

#[derive(clap::Args)]
pub struct SvcompArgs {
    /// The task definition (`.yml`, format 2.0).
    #[arg(required_unless_present = "suite", conflicts_with = "suite")]
    pub task: Option<PathBuf>,
    /// Score every task under this folder with SV-COMP's scheme (see `svcomp/suite.rs`).
    #[arg(long, value_name = "DIR")]
    pub suite: Option<PathBuf>,
    /// With `--suite`: tasks checked at the same time (each a `symex svcomp` process)
    /// [default: 1].
    #[arg(long)]
    pub jobs: Option<usize>,
    /// With `--suite`: the table's format [default: markdown].
    #[arg(long, value_enum)]
    pub format: Option<suite::TableFormat>,
    /// Print the time and the peak memory of the task on stderr at the end.
    #[arg(long)]
    pub stats: bool,
    /// Check only this property of the task: `unreach-call`, `no-overflow` or
    /// `valid-memsafety` (another one the task lists answers `UNKNOWN`, with the reason; one
    /// it does not list is an error, exit 2); with `--suite`, the property scored (default
    /// `unreach-call`).
    #[arg(long, value_name = "NAME")]
    pub property: Option<String>,
    /// Write a violation witness (YAML, format 2.0) of every `FALSE` answer to this file (not
    /// written where no answer is `FALSE`).
    #[arg(long, value_name = "FILE", conflicts_with = "suite")]
    pub witness: Option<PathBuf>,
    /// Validate this violation witness (YAML, format 2.0) instead of checking: run the
    /// program on its values and confirm that it fails the property at the witness's target
    /// (the property from --property, else from the witness's specification).
    #[arg(long, value_name = "WITNESS", conflicts_with_all = ["suite", "witness"])]
    pub validate: Option<PathBuf>,
    /// Time limit for each property, in seconds, shared by the portfolio's configurations.
    #[arg(
        long,
        value_name = "SECONDS",
        default_value_t = 60.0,
        allow_negative_numbers = true
    )]
    pub timeout: f64,
}

/// The forward configurations tried in turn, each until its share of the time limit has
/// passed: a short first try of loop summarization and of path subsumption (each decides its
/// loops in well under a second when it can, and each can spend the whole limit where the other
/// would be quick: subsumption's invariant attempts on `gauss_sum`, summaries on loops they do
/// not model), then depth-first search (finds violations fastest; with state matching, it
/// also ends where loops cycle through finitely many states), a short random-path
/// search (depth-first search can follow an unbounded loop forever, as in `list-2`, where the
/// violation needs one iteration of each of two `while (nondet)` loops), then path subsumption
/// (proves loops whose states repeat), then loop summarization. Summaries and subsumption see
/// the loop bodies with `main`'s calls inlined ([`INLINE`]: neither follows a call inside a
/// loop, and SV-COMP's tasks call `__VERIFIER_assert` in theirs). Measured on the public tasks
/// (docs/c-frontend.md). Each names its search: the portfolio was measured with depth-first
/// search under the summaries and subsumption, whatever `symex check`'s default.
const PORTFOLIO: &[(&[&str], f64)] = &[
    (&["--summarize", INLINE, "--search", "dfs"], 0.05),
    (&["--subsume", INLINE, "--search", "dfs"], 0.1),
    (&["--search", "dfs", "--match-states"], 0.4),
    (&["--search", "random-path"], 0.45),
    (&["--subsume", INLINE, "--search", "dfs"], 0.65),
    (&["--summarize", INLINE, "--search", "dfs"], 1.0),
];

/// The seconds the configuration at `position` of [`PORTFOLIO`] may run, `elapsed` seconds
/// into a limit of `timeout`: until its share ends, but at least half its slot (the time
/// between the previous share's end and its own), so that a configuration that ended late
/// (freeing a large search's states takes seconds) does not cost the next one its turn; never
/// past the limit, and `None` once the limit has passed.
fn time_left(position: usize, timeout: f64, elapsed: f64) -> Option<f64> {
    let share_end = PORTFOLIO[position].1;
    let share_start = position.checked_sub(1).map_or(0.0, |p| PORTFOLIO[p].1);
    let half_slot = (share_end - share_start) * timeout / 2.0;
    let left = (timeout * share_end - elapsed)
        .max(half_slot)
        .min(timeout - elapsed);
    (left > 0.0).then_some(left)
}

/// The front-end flag that inlines `main`'s calls; a configuration runs without it when the
/// program cannot be inlined (recursion, size).
const INLINE: &str = "--inline-calls";

/// A property symex answers: the `symex check` flags its checks need, and the kinds of check
/// whose violation falsifies it, each with the sub-property a `FALSE` names.
struct Supported {
    name: &'static str,
    flags: &'static [&'static str],
    kinds: &'static [(PropertyKind, Option<&'static str>)],
    /// Whether `TRUE` also needs what symex does not check of memory (`unchecked_memory`):
    /// leaks (`valid-memtrack`) and pointers that outlive a local object (`valid-deref`).
    memory_unchecked: bool,
    /// Whether its runs let signed arithmetic wrap around (no `overflow` checks), so that a
    /// counterexample may pass through undefined behaviour (`undefined.rs`).
    wraps_around: bool,
}

/// The front-end flag of the `overflow` checks.
const SIGNED_OVERFLOW: &str = "--signed-overflow";

/// The front-end flag of the `memory-leak` check (`valid-memtrack`).
const MEMORY_LEAKS: &str = "--memory-leaks";

/// The front-end flag that reads `int x;` as an input: SV-COMP's tasks use uninitialized
/// locals as arbitrary values (`int c; if (c > 5)`), and their verdicts are for every value.
const NONDET_LOCALS: &str = "--nondet-locals";

/// The front-end flag that reads what `malloc` makes as inputs: the tasks read a heap object
/// never written as an arbitrary value (`cstrlen_unsafe` walks a string whose characters but
/// the last it never sets), and their verdicts are for every value.
const NONDET_HEAP: &str = "--nondet-heap";

/// Outside `unreach-call` the error functions are ordinary calls (C's meaning): `reach_error`
/// runs its definition, and `__assert_fail` aborts.
const SUPPORTED: &[Supported] = &[
    Supported {
        name: "unreach-call",
        flags: &[NONDET_LOCALS, NONDET_HEAP],
        kinds: &[(PropertyKind::Assert, None)],
        memory_unchecked: false,
        wraps_around: true,
    },
    Supported {
        name: "no-overflow",
        flags: &[
            SIGNED_OVERFLOW,
            "--ordinary-error-calls",
            NONDET_LOCALS,
            NONDET_HEAP,
        ],
        kinds: &[(PropertyKind::Overflow, None)],
        memory_unchecked: false,
        wraps_around: false,
    },
    Supported {
        name: "valid-memsafety",
        flags: &[
            "--ordinary-error-calls",
            MEMORY_LEAKS,
            NONDET_LOCALS,
            NONDET_HEAP,
        ],
        kinds: &[
            (PropertyKind::NullDeref, Some("valid-deref")),
            (PropertyKind::OutOfBounds, Some("valid-deref")),
            (PropertyKind::UseAfterFree, Some("valid-deref")),
            (PropertyKind::UseAfterReturn, Some("valid-deref")),
            (PropertyKind::InvalidPointer, Some("valid-deref")),
            (PropertyKind::InvalidFree, Some("valid-free")),
            (PropertyKind::MemoryLeak, Some("valid-memtrack")),
        ],
        memory_unchecked: true,
        wraps_around: true,
    },
];

impl Supported {
    /// The answer as SV-COMP prints it (`FALSE(valid-deref)` for a sub-property).
    fn show(&self, answer: &SvVerdict) -> String {
        match answer {
            SvVerdict::False(kind) => match self.kinds.iter().find(|(k, _)| k == kind) {
                Some((_, Some(sub))) => format!("FALSE({sub})"),
                _ => "FALSE".to_string(),
            },
            other => other.to_string(),
        }
    }

    fn targets(&self) -> Vec<PropertyKind> {
        self.kinds.iter().map(|&(kind, _)| kind).collect()
    }

    /// The option that ends a search at the first confirmed violation of the property, whose
    /// `FALSE` nothing found later changes. A leak is not among them: it answers only where
    /// nothing else is violated (`symex_report::svcomp::answer`), and is found where `main`
    /// returns, after what else its path does.
    fn stop_on_first(&self) -> String {
        let kinds: Vec<&str> = self
            .targets()
            .into_iter()
            .filter(|&kind| kind != PropertyKind::MemoryLeak)
            .map(PropertyKind::name)
            .collect();
        format!("--stop-on-first={}", kinds.join(","))
    }
}

/// The properties SV-COMP verifies (coverage properties are for test generation).
const VERIFICATION_PROPERTIES: &[&str] = &[
    "unreach-call",
    "no-overflow",
    "valid-memsafety",
    "valid-memcleanup",
    "termination",
];

#[derive(Deserialize)]
pub(super) struct Task {
    /// `2.0` (or `1.x`, which has the same fields symex reads).
    format_version: Option<serde_yaml_ng::Value>,
    input_files: InputFiles,
    #[serde(default)]
    pub properties: Vec<PropertyEntry>,
    #[serde(default)]
    options: TaskOptions,
}

#[derive(Deserialize, Default)]
struct TaskOptions {
    /// `ILP32` or `LP64`.
    data_model: Option<String>,
    /// `C`.
    language: Option<String>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum InputFiles {
    One(String),
    Many(Vec<String>),
}

#[derive(Deserialize)]
pub(super) struct PropertyEntry {
    property_file: String,
    /// The ground truth, where the task states it.
    pub expected_verdict: Option<bool>,
    /// The violated sub-property of a `false` verdict (`valid-deref` of `valid-memsafety`).
    pub subproperty: Option<String>,
}

/// Reads a task definition, refusing one whose format, language or data model symex would
/// read as something else (a data model it took for ILP32 would check another program).
pub(super) fn read_task(path: &Path) -> Result<Task, String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let task = serde_yaml_ng::from_str::<Task>(&text).map_err(|e| e.to_string())?;
    let version = match &task.format_version {
        Some(serde_yaml_ng::Value::String(v)) => v.clone(),
        Some(serde_yaml_ng::Value::Number(v)) => v.to_string(),
        _ => return Err("no `format_version` (2.0)".into()),
    };
    if !(version.starts_with("1.") || version.starts_with("2.")) {
        return Err(format!(
            "format_version {version} (symex reads 2.0 and 1.x)"
        ));
    }
    if let Some(language) = task.options.language.as_deref().filter(|&l| l != "C") {
        return Err(format!("the language `{language}` (symex checks C tasks)"));
    }
    if let Some(model) =
        (task.options.data_model.as_deref()).filter(|m| !["ILP32", "LP64"].contains(m))
    {
        return Err(format!("the data model `{model}` (ILP32 or LP64)"));
    }
    Ok(task)
}

/// A property a task lists, as its property file states it.
pub(super) struct TaskProperty<'t> {
    /// `unreach-call`, `no-overflow`, ...: told by the file's formula (as BenchExec tells it),
    /// or by the file's name where the file cannot be read or states no formula symex knows.
    pub name: String,
    /// The file's formula (a witness's `specification`); `None` where it cannot be read.
    pub formula: Option<String>,
    pub entry: &'t PropertyEntry,
}

impl Task {
    /// The task's properties, their property files read beside the task file `task_path`.
    pub(super) fn resolved(&self, task_path: &Path) -> Vec<TaskProperty<'_>> {
        let folder = task_path.parent().unwrap_or(Path::new("."));
        (self.properties.iter())
            .map(|entry| {
                let formula = std::fs::read_to_string(folder.join(&entry.property_file))
                    .ok()
                    .map(|text| text.trim().to_string());
                let stem = Path::new(&entry.property_file)
                    .file_stem()
                    .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
                let name = formula.as_deref().and_then(property_of_formula);
                TaskProperty {
                    name: name.map_or(stem, str::to_string),
                    formula,
                    entry,
                }
            })
            .collect()
    }
}

/// The property a property file's formula states, for the ones SV-COMP's C tasks use.
fn property_of_formula(formula: &str) -> Option<&'static str> {
    let states = |atom: &str| formula.contains(atom);
    Some(if states("call(reach_error())") && !states("COVER") {
        "unreach-call"
    } else if states("G ! overflow") {
        "no-overflow"
    } else if states("valid-deref") || states("valid-free") || states("valid-memtrack") {
        // (SV-COMP's `valid-memsafety.prp` states `valid-memcleanup` too.)
        "valid-memsafety"
    } else if states("valid-memcleanup") {
        "valid-memcleanup"
    } else if states("F end") {
        "termination"
    } else {
        return None;
    })
}

pub fn run(args: &SvcompArgs, color: ColorChoice) -> Exit {
    if let Some(why) = super::time_limit_error(args.timeout) {
        diag!("error: --timeout {why}");
        return Exit::Usage;
    }
    if let Some(dir) = &args.suite {
        return suite::run(dir, args);
    }
    // (clap's `requires` let them pass beside the task, which conflicts with `--suite`.)
    if args.jobs.is_some() || args.format.is_some() {
        diag!("error: --jobs and --format are options of --suite (one task prints its answers)");
        return Exit::Usage;
    }
    let Some(task_path) = &args.task else {
        diag!("error: give a task or --suite DIR");
        return Exit::Usage;
    };
    // Before the analysis, not after its answers are printed.
    if let Some(why) = args.witness.as_deref().and_then(unwritable) {
        diag!("error: cannot write the witness: {why}");
        return Exit::Usage;
    }
    let start = Instant::now();
    let task = match read_task(task_path) {
        Ok(task) => task,
        Err(e) => {
            diag!("error: cannot read the task `{}`: {e}", task_path.display());
            return Exit::ProgramError;
        }
    };
    let input = match &task.input_files {
        InputFiles::One(file) => file.clone(),
        InputFiles::Many(files) if files.len() == 1 => files[0].clone(),
        InputFiles::Many(_) => {
            diag!("error: tasks with several input files are not supported");
            return Exit::ProgramError;
        }
    };
    let program = task_path.parent().unwrap_or(Path::new(".")).join(&input);
    if !program.extension().is_some_and(|e| e == "c" || e == "i") {
        diag!(
            "error: the task's input `{}` is not a C file (`.c` or `.i`): SV-COMP's tasks are C \
             programs; `symex check` takes micro-c",
            program.display()
        );
        return Exit::ProgramError;
    }
    let mut properties = task.resolved(task_path);
    properties.retain(|p| VERIFICATION_PROPERTIES.contains(&p.name.as_str()));
    // A property listed twice is checked once.
    let mut names: Vec<String> = Vec::new();
    for property in &properties {
        if !names.contains(&property.name) {
            names.push(property.name.clone());
        }
    }
    if names.is_empty() {
        // Nothing printed and exit 0 would read as "every answer TRUE".
        diag!(
            "error: the task `{}` lists no verification property ({}): nothing to check",
            task_path.display(),
            VERIFICATION_PROPERTIES.join(", ")
        );
        return Exit::ProgramError;
    }
    if let Some(only) = &args.property {
        if !names.contains(only) {
            diag!(
                "error: the task has no property `{only}` (it has: {})",
                names.join(", ")
            );
            return Exit::Usage;
        }
        names.retain(|name| name == only);
    }
    // A property checked needs its formula: a witness states it, and a file that cannot be
    // read may not be the property its name says.
    let unread = (properties.iter()).find(|p| {
        p.formula.is_none() && names.contains(&p.name) && SUPPORTED.iter().any(|s| s.name == p.name)
    });
    if let Some(unread) = unread {
        diag!(
            "error: cannot read the property file `{}` of the task `{}`",
            unread.entry.property_file,
            task_path.display()
        );
        return Exit::ProgramError;
    }
    let file = match super::load(&program.to_string_lossy()) {
        Ok(file) => file,
        Err(code) => return code,
    };
    if let Some(path) = &args.validate {
        let witness = match std::fs::read_to_string(path) {
            Ok(text) => validate::parse(&text),
            Err(e) => Err(format!("cannot read it: {e}")),
        };
        let witnesses = match witness {
            Ok(witnesses) => witnesses,
            Err(why) => {
                diag!("error: the witness `{}`: {why}", path.display());
                return Exit::ProgramError;
            }
        };
        let candidates: Vec<(&Supported, String)> = (names.iter())
            .filter_map(|name| SUPPORTED.iter().find(|s| s.name == name))
            .map(|s| (s, specification(&properties, s.name)))
            .collect();
        let (property, witness) = match validate::property_of(&witnesses, &candidates) {
            Ok(chosen) => chosen,
            Err(why) => {
                diag!("error: the witness `{}`: {why}", path.display());
                return Exit::Usage;
            }
        };
        return validate::run(&file, property, data_model(&task), witness, args.timeout);
    }
    let mut exit = Exit::Success;
    let mut witnesses = String::new();
    let last_checked = (names.iter()).rposition(|name| SUPPORTED.iter().any(|s| s.name == name));
    for (position, name) in names.iter().enumerate() {
        let Some(supported) = SUPPORTED.iter().find(|s| s.name == name) else {
            crate::stdout::print(&format!(
                "{name}: UNKNOWN (this property is not supported yet)\n"
            ));
            exit = worse(exit, Exit::Inconclusive);
            continue;
        };
        let model = data_model(&task);
        let process_ends = Some(position) == last_checked;
        let limits = (args.timeout, process_ends);
        let (answer, report) = match portfolio(&file, supported, model, limits, color) {
            Ok(answered) => answered,
            Err(code) => return code,
        };
        crate::stdout::print(&format!("{name}: {}\n", supported.show(&answer)));
        if let (SvVerdict::False(kind), Some(report), Some(_)) = (&answer, &report, &args.witness) {
            let deadline = Instant::now() + std::time::Duration::from_secs_f64(args.timeout);
            let rerun = |inputs: &[i32]| {
                let program = rerun::lower(&file, report.frontend.clone()).ok()?;
                let (end, sites) =
                    rerun::run(&program, rerun::Given::Numbers(inputs), deadline).ok()?;
                // Only the run of the report's counterexample has its input sites.
                let failed = matches!(end, RunEnd::RuntimeError { kind: k, .. } if k == *kind);
                failed.then_some((program, sites))
            };
            let facts = witness::TaskFacts {
                file_name: input.as_str(),
                text: &file.text,
                specification: specification(&properties, name),
                data_model: c_data_model(data_model(&task)),
                rerun: &rerun,
            };
            match witness::violation_witness(report, *kind, &facts) {
                Some(written) => {
                    // A witness states the values of calls only: say where a validator that
                    // chooses the other inputs itself would not reach the violation.
                    let replayed = validate::parse(&written).and_then(|entries| {
                        let entry = entries.first().ok_or("no entry")?;
                        validate::replay(&file, supported, model, entry, deadline)
                    });
                    if let Err(why) = replayed {
                        diag!("warning: the witness of {name} is not confirmed by `--validate`: {why}");
                    }
                    witnesses.push_str(&written);
                }
                None => {
                    diag!("warning: the violation of {name} could not be run again for its witness")
                }
            }
        }
        exit = worse(
            exit,
            match answer {
                SvVerdict::False(_) => Exit::Violation,
                SvVerdict::Unknown(_) => Exit::Inconclusive,
                SvVerdict::True => Exit::Success,
            },
        );
    }
    if let Some(path) = &args.witness {
        if witnesses.is_empty() {
            // An empty file would read as a witness that says nothing.
            diag!("note: no witness written to `{}`", path.display());
        } else if let Err(e) = std::fs::write(path, &witnesses) {
            diag!("error: cannot write the witness `{}`: {e}", path.display());
            return Exit::Usage;
        }
    }
    if args.stats {
        let peak = peak_memory_kib().map_or_else(|| "?".to_string(), |kib| kib.to_string());
        diag!(
            "stats: {} ms, {peak} KiB peak memory",
            start.elapsed().as_millis()
        );
    }
    exit
}

/// Why no witness can be written at `path`, where that can be told before writing: a folder,
/// or a file in a folder that does not exist.
fn unwritable(path: &Path) -> Option<String> {
    let folder = path.parent().filter(|p| !p.as_os_str().is_empty());
    if path.is_dir() {
        Some(format!("`{}` is a folder", path.display()))
    } else if folder.is_some_and(|f| !f.is_dir()) {
        Some(format!("there is no folder `{}`", folder?.display()))
    } else {
        None
    }
}

/// `--data-model`'s word as the C front end's option.
fn c_data_model(word: &str) -> symex_c::DataModel {
    match word {
        "lp64" => symex_c::DataModel::Lp64,
        _ => symex_c::DataModel::Ilp32,
    }
}

/// The task's data model as `symex check --data-model` takes it (ILP32 when the task says
/// nothing, SV-COMP's default).
fn data_model(task: &Task) -> &'static str {
    match task.options.data_model.as_deref() {
        Some("LP64") => "lp64",
        _ => "ilp32",
    }
}

/// The formula of the property `name` (a witness's `specification`), which [`run`] made sure
/// was read for every property it checks.
fn specification(properties: &[TaskProperty<'_>], name: &str) -> String {
    (properties.iter())
        .find(|p| p.name == name)
        .and_then(|p| p.formula.clone())
        .unwrap_or_else(|| name.to_string())
}

/// One property through the portfolio: each configuration runs `symex check` with the
/// property's flags, and its report answers; the report is returned with the answer. A program
/// outside the supported subset is an `UNKNOWN` with the refusal (printed on stderr); other
/// failures end the command.
///
/// Where the property's runs let signed arithmetic wrap around
/// ([`Supported::wraps_around`]), a `FALSE` stands only if its counterexample does not
/// overflow on the way (`undefined.rs`). One that does sends the same configuration and the
/// later ones again with the `overflow` checks on, which end every path at its first overflow:
/// a violation they find needs none, and a `TRUE` of theirs holds only for runs without
/// undefined behaviour, so it answers `UNKNOWN`, as does a search that finds nothing.
///
/// `process_ends`: nothing follows this property in the process, so a configuration that may
/// run until the limit leaves its pending states to the process's exit
/// (`Sinks::process_ends`): freeing gigabytes of them took seconds past the limit.
fn portfolio(
    file: &SourceFile,
    property: &Supported,
    data_model: &str,
    (timeout, process_ends): (f64, bool),
    color: ColorChoice,
) -> Result<(SvVerdict, Option<Report>), Exit> {
    let start = Instant::now();
    let deadline = start + std::time::Duration::from_secs_f64(timeout);
    let mut last = (SvVerdict::Unknown("no configuration ran".into()), None);
    let mut first = true;
    let mut inlines = None;
    let mut leaks = None;
    // What a counterexample of a run without the overflow checks has on its way.
    let mut undefined_at: Option<undefined::OnTheWay> = None;
    let mut configurations = PORTFOLIO.iter().enumerate().peekable();
    while let Some(&(position, &(techniques, _))) = configurations.peek() {
        let elapsed = start.elapsed().as_secs_f64();
        let Some(left) = time_left(position, timeout, elapsed) else {
            configurations.next();
            continue;
        };
        let sinks = Sinks {
            process_ends: process_ends && left >= timeout - elapsed,
            ..Sinks::default()
        };
        let overflow_checks = undefined_at.is_some().then_some(SIGNED_OVERFLOW);
        let mut words: Vec<String> = techniques
            .iter()
            .chain(property.flags)
            .chain(&overflow_checks)
            .map(|f| f.to_string())
            .collect();
        words.extend([
            property.stop_on_first(),
            "--data-model".to_string(),
            data_model.to_string(),
            "--timeout".to_string(),
            format!("{left:.3}"),
            // A counterexample found in a short slot may replay past it, for half the time the
            // later configurations have (a replay that never ends leaves them the other half).
            "--replay-timeout".to_string(),
            format!("{:.3}", left + (timeout - elapsed - left).max(0.0) / 2.0),
            file.name.clone(),
        ]);
        let mut args = CheckArgs::from_words(words).map_err(|e| {
            diag!("internal error: a portfolio configuration does not parse: {e}");
            Exit::Internal
        })?;
        // Counting heap objects inlines the calls that allocate, which a recursive one
        // refuses: the other checks of the property are then made without it.
        if args.frontend.memory_leaks {
            // Whether counting objects lowers at all (every call inlined), whatever this
            // configuration's own inlining.
            let frontend = FrontendArgs {
                inline_calls: false,
                ..args.frontend
            };
            args.frontend.memory_leaks =
                *leaks.get_or_insert_with(|| translate(file, frontend).is_some());
        }
        if args.frontend.inline_calls {
            let frontend = args.frontend;
            args.frontend.inline_calls =
                *inlines.get_or_insert_with(|| translate(file, frontend).is_some());
        }
        // A program without a single check cannot fail one: no search is needed.
        if first {
            first = false;
            if let Some(lowered) = translate(file, args.frontend) {
                if lowered.module.properties.is_empty() {
                    let answer = match unchecked_memory_reason(property, file, args.frontend, None)
                    {
                        Some(why) => SvVerdict::Unknown(why.into()),
                        None => SvVerdict::True,
                    };
                    return Ok((answer, None));
                }
            }
        }
        let report = match check_source(&args, file, color, &sinks) {
            Ok(report) => report,
            Err(Exit::ProgramError) => {
                let why = "the program is outside the supported subset";
                return Ok((SvVerdict::Unknown(why.into()), None));
            }
            Err(other) => return Err(other),
        };
        let mut answer = answer(&report, &property.targets());
        if answer == SvVerdict::True {
            let run = Some((techniques, &report));
            if let Some(why) = unchecked_memory_reason(property, file, args.frontend, run) {
                answer = SvVerdict::Unknown(why.into());
            }
        }
        let unchecked_false = match &answer {
            SvVerdict::False(kind) if property.wraps_around && undefined_at.is_none() => {
                Some(*kind)
            }
            _ => None,
        };
        if let Some(kind) = unchecked_false {
            let overflow =
                undefined::overflow_on_the_way(file, args.frontend, &report, kind, deadline);
            if let Some(at) = overflow {
                // This configuration again, with the overflow checks.
                undefined_at = Some(at);
                let why = "no time was left for a run with the overflow checks";
                last = (SvVerdict::Unknown(why.into()), None);
                continue;
            }
        }
        if let (Some(at), SvVerdict::True) = (&undefined_at, &answer) {
            let why = format!(
                "the error is reached only through undefined behaviour: the counterexample \
                 found {at}, and no run without a signed overflow reaches the error"
            );
            return Ok((SvVerdict::Unknown(why), Some(report)));
        }
        let decided = !matches!(answer, SvVerdict::Unknown(_));
        last = (answer, Some(report));
        if decided {
            break;
        }
        configurations.next();
    }
    if let (Some(at), (SvVerdict::Unknown(why), _)) = (&undefined_at, &mut last) {
        *why = format!(
            "the counterexample found {at}, and no run without a signed overflow was found to \
             reach the error: {why}"
        );
    }
    // The last configuration's report names its own share of the limit: say whose it was.
    if let (SvVerdict::Unknown(why), Some(_)) = &mut last {
        if start.elapsed().as_secs_f64() >= timeout {
            *why = format!("the limit of {timeout} s ran out; in the last configuration, {why}");
        }
    }
    Ok(last)
}

/// The task's program lowered, without printing a refusal (`symex check` prints it).
fn translate(file: &SourceFile, frontend: FrontendArgs) -> Option<symex_c::Translated> {
    symex_c::translate(&file.name, &file.text, frontend.c_options()).ok()
}

/// Why `property` cannot be `TRUE` for this program although every check holds in `run` (the
/// configuration's techniques and its report; `None` where no search ran), the program lowered
/// with `frontend`, the options of that run:
/// * it allocates heap memory and its leaks (`valid-memtrack`) are not checked: counting
///   objects was refused (a recursive function, whose calls cannot be inlined; where a global
///   can hold a pointer, an object left at the end is an `unmodelled` failure of the run);
/// * or it points to objects whose lifetime C ends (a local's address, a member's, `alloca`'s
///   object), which symex keeps alive, so a pointer that outlives its object is not caught;
/// * or its leaks are checked, but no search followed every path to its end: a leak on a path
///   that never ends is never checked (the C front end's `lower/leaks.rs`), so `TRUE` needs a
///   run without path subsumption or loop summaries, and without a state pruned by state
///   matching (they cut such paths), that explored all paths (no time limit or bound cut it,
///   and it did not stop early).
///
/// `None` if none of these.
fn unchecked_memory_reason(
    property: &Supported,
    file: &SourceFile,
    frontend: FrontendArgs,
    run: Option<(&[&str], &Report)>,
) -> Option<&'static str> {
    if !property.memory_unchecked {
        return None;
    }
    let Some(lowered) = translate(file, frontend) else {
        return Some("the program is outside the supported subset");
    };
    if lowered.allocates_heap && !lowered.leaks_checked {
        return Some(
            "the program allocates heap memory and its leaks (valid-memtrack) are not \
             checked: counting objects was refused (a recursive function or a call of `main`: \
             the count needs every call inlined)",
        );
    }
    // What no configuration can overcome first: the reason the answer stays `UNKNOWN`.
    if lowered.stack_addresses {
        return Some(
            "the program takes addresses of local objects whose end of life symex does not \
             model (a variable of an inner block, a struct member, a compound literal, \
             `alloca`'s object or a variable-length array, and any variable where a jump may \
             skip a declaration or an inlined call runs again: a pointer that outlives one is \
             not checked; a function's return ends its variables otherwise)",
        );
    }
    if lowered.allocates_heap {
        let every_path_ended = run.is_some_and(|(techniques, report)| {
            // A matching run that pruned no state is the plain search it extends.
            let cuts_endless_paths = techniques
                .iter()
                .any(|t| matches!(*t, "--subsume" | "--summarize"))
                || (techniques.contains(&"--match-states")
                    && report.stats.matched.is_some_and(|n| n > 0));
            !cuts_endless_paths
                && report.stats.search_cuts.is_empty()
                && !report.stats.stopped_decided
        });
        if !every_path_ended {
            return Some(
                "a leak on a path that never ends is not checked, and no search here followed \
                 every path to its end (valid-memtrack needs a complete search without path \
                 subsumption, state matching or loop summaries)",
            );
        }
    }
    None
}

/// The command's exit code so far, with one more answer's: a `FALSE` wins, then an `UNKNOWN`.
fn worse(so_far: Exit, next: Exit) -> Exit {
    let rank = |e: Exit| match e {
        Exit::Violation => 2,
        Exit::Inconclusive => 1,
        _ => 0,
    };
    if rank(next) > rank(so_far) {
        next
    } else {
        so_far
    }
}

/// The process's peak resident memory in KiB (Linux's `VmHWM`; `None` elsewhere).
fn peak_memory_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::{time_left, PORTFOLIO};

    #[test]
    fn a_configuration_runs_until_its_share_ends() {
        let left = time_left(2, 20.0, 3.0).unwrap();
        assert!((left - (20.0 * PORTFOLIO[2].1 - 3.0)).abs() < 1e-9);
    }

    #[test]
    fn a_late_start_still_leaves_half_the_slot() {
        // The random-path configuration's slot is 40 % to 45 % of the limit: at 20 s, 8 s to
        // 9 s. Started at 9.6 s it still runs half of its 1 s.
        let random_path = PORTFOLIO
            .iter()
            .position(|(flags, _)| flags.contains(&"random-path"))
            .unwrap();
        let slot = (PORTFOLIO[random_path].1 - PORTFOLIO[random_path - 1].1) * 20.0;
        let left = time_left(random_path, 20.0, 9.6).unwrap();
        assert!((left - slot / 2.0).abs() < 1e-9);
    }

    #[test]
    fn no_configuration_runs_past_the_limit() {
        for position in 0..PORTFOLIO.len() {
            assert_eq!(time_left(position, 20.0, 20.0), None);
            let left = time_left(position, 20.0, 19.9).unwrap();
            assert!(left <= 0.1 + 1e-9, "{position}: {left}");
        }
    }
}
