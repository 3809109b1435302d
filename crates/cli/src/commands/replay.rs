//! `symex replay DIR FILE`: runs every test that `symex check --emit-tests DIR` wrote through
//! the reference interpreter, checks that each path ends as the engine recorded (returned, the
//! same failing property at the same place, a failed assumption; a cut path is not compared,
//! since a concrete run goes on past the bound), and measures what the tests cover: source
//! lines, IR instructions and branch directions (the units of the engine's own `coverage`
//! statistic), as a text summary, JSON, and an `lcov` file for genhtml or an IDE.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::{Path, PathBuf};

use clap::Args;
use serde::Serialize;
use symex_engine::common::coverage::CoverageMap;
use symex_engine::common::replay::REPLAY_STEP_LIMIT;
use symex_interp::{Entry, Interpreter, RunConfig, RunCoverage, RunEnd};
use symex_ir::cfg::{Module, Terminator};
use symex_report::{Coverage, Event, Locator, PathEnd, PathTest};
use symex_syntax::span::{LineIndex, Span};

use super::FrontendArgs;
use crate::exit::Exit;
use crate::source::ColorChoice;

#[derive(Args, Debug)]
pub struct ReplayArgs {
    /// The folder `symex check --emit-tests DIR` wrote.
    pub dir: PathBuf,
    /// The program the tests were made from.
    pub file: String,
    #[command(flatten)]
    pub frontend: FrontendArgs,
    /// Also write the coverage in lcov's format to FILE (genhtml, IDE coverage views).
    #[arg(long, value_name = "FILE")]
    pub lcov: Option<PathBuf>,
    /// Output format of the summary.
    #[arg(long, value_enum, default_value_t = ReplayFormat::Text)]
    pub format: ReplayFormat,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ReplayFormat {
    Text,
    Json,
}

/// What the tests did, together.
#[derive(Debug, Serialize)]
struct Summary {
    tests: usize,
    /// Tests whose run ended as recorded.
    matched: usize,
    /// Tests of cut paths (not compared).
    cut: usize,
    /// Tests whose run ended otherwise, with what happened.
    mismatches: Vec<String>,
    /// Source lines with code: covered and total.
    lines: Ratio,
    /// IR instructions and branch directions of the functions the entry can call.
    coverage: Coverage,
}

#[derive(Debug, Default, Serialize)]
struct Ratio {
    covered: usize,
    total: usize,
}

pub fn run(args: &ReplayArgs, color: ColorChoice) -> Exit {
    let tests = match load_tests(&args.dir) {
        Ok(tests) => tests,
        Err(message) => {
            diag!("error: {message}");
            return Exit::Usage;
        }
    };
    let Some((_, first)) = tests.first() else {
        diag!("error: `{}` holds no test (test*.json)", args.dir.display());
        return Exit::Usage;
    };
    let entry = first.entry.clone();
    let words = args.frontend.words();
    for (path, test) in &tests {
        if test.entry != entry {
            diag!(
                "error: `{}` starts at `{}`, the others at `{entry}`: replay one check's tests",
                path.display(),
                test.entry
            );
            return Exit::Usage;
        }
        if !same_file(&test.program, &args.file) {
            diag!(
                "error: `{}` is a test of `{}`, not of `{}`",
                path.display(),
                test.program,
                args.file
            );
            return Exit::Usage;
        }
        if test.frontend != words {
            diag!(
                "error: `{}` was made with the front-end options `{}`; pass the same options",
                path.display(),
                test.frontend.join(" ")
            );
            return Exit::Usage;
        }
    }
    let (file, lowered) = match super::load_program(&args.file, args.frontend, &entry, color) {
        Ok(loaded) => loaded,
        Err(exit) => return exit,
    };
    let hash = super::sha256_hex(&file.text);
    let changed =
        (tests.iter()).find(|(_, t)| t.program_sha256.as_ref().is_some_and(|h| *h != hash));
    if let Some((path, _)) = changed {
        diag!(
            "error: `{}` is a test of another text of `{}`: the program changed since the tests \
             were made; make them again (`symex check --emit-tests`)",
            path.display(),
            args.file
        );
        return Exit::Usage;
    }
    let module = &lowered.module;
    let Some(entry_id) = module.function_by_name(&entry) else {
        diag!("error: the program has no function `{entry}`");
        return Exit::Usage;
    };
    let interpreter = match Interpreter::new(module) {
        Ok(interpreter) => interpreter,
        Err(e) => {
            diag!("internal error: the interpreter refused the program: {e:?}");
            return Exit::Internal;
        }
    };
    let locator = Locator::new(module, &file.text);
    let lines = LineIndex::new(&file.text);
    let reachable = module.functions_reachable_from(entry_id);
    let mut map = CoverageMap::new(module, entry_id);
    let mut line_hits: BTreeMap<u32, usize> = code_lines(module, &reachable, &lines)
        .into_iter()
        .map(|line| (line, 0))
        .collect();
    let mut branch_hits = branch_sites(module, &reachable, &lines);
    let mut summary = Summary {
        tests: tests.len(),
        matched: 0,
        cut: 0,
        mismatches: Vec::new(),
        lines: Ratio::default(),
        coverage: Coverage::default(),
    };
    for (path, test) in &tests {
        let entry_point = match entry_of(module, test) {
            Ok(entry_point) => entry_point,
            Err(message) => {
                diag!("error: `{}`: {message}", path.display());
                return Exit::Usage;
            }
        };
        let config = RunConfig::default()
            .with_coverage()
            .with_max_steps(REPLAY_STEP_LIMIT);
        let outcome = match interpreter.run(&entry_point, &test.inputs, &config) {
            Ok(outcome) => outcome,
            Err(e) => {
                diag!(
                    "error: `{}`: the interpreter refused the entry: {e}",
                    path.display()
                );
                return Exit::Usage;
            }
        };
        match (
            &test.end,
            ended_as(&test.end, &outcome.end, module, &locator),
        ) {
            (PathEnd::Cut { .. }, _) => summary.cut += 1,
            (_, true) => summary.matched += 1,
            (_, false) => summary.mismatches.push(format!(
                "{}: the engine's path {}, the run {}",
                path.display(),
                recorded_end(&test.end),
                run_end(&outcome.end, module, &locator)
            )),
        }
        if let Some(coverage) = &outcome.coverage {
            add_run(
                module,
                &reachable,
                &lines,
                coverage,
                &mut map,
                &mut line_hits,
                &mut branch_hits,
            );
        }
    }
    summary.coverage = map.summary(module);
    summary.lines = Ratio {
        covered: line_hits.values().filter(|&&n| n > 0).count(),
        total: line_hits.len(),
    };
    if let Some(path) = &args.lcov {
        let source =
            std::fs::canonicalize(&file.name).unwrap_or_else(|_| PathBuf::from(&file.name));
        let text = lcov(&source, &line_hits, &branch_hits);
        if let Err(e) = std::fs::write(path, text) {
            diag!("error: cannot write `{}`: {e}", path.display());
            return Exit::Usage;
        }
    }
    match args.format {
        ReplayFormat::Json => match serde_json::to_string_pretty(&summary) {
            Ok(json) => crate::stdout::print(&format!("{json}\n")),
            Err(e) => {
                diag!("internal error: cannot write the summary as JSON: {e}");
                return Exit::Internal;
            }
        },
        ReplayFormat::Text => crate::stdout::print(&text_summary(&summary)),
    }
    // A test that does not end as recorded is a bug in symex, as an unconfirmed
    // counterexample is.
    if summary.mismatches.is_empty() {
        Exit::Success
    } else {
        Exit::Internal
    }
}

/// Whether two paths name one file (by their canonical paths; by name when one is gone).
fn same_file(a: &str, b: &str) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => Path::new(a).file_name() == Path::new(b).file_name(),
    }
}

/// The tests of `dir` (`test*.json`), by file name.
fn load_tests(dir: &Path) -> Result<Vec<(PathBuf, PathTest)>, String> {
    let entries =
        std::fs::read_dir(dir).map_err(|e| format!("cannot read `{}`: {e}", dir.display()))?;
    let mut paths: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or_default();
            name.starts_with("test") && name.ends_with(".json")
        })
        .collect();
    paths.sort();
    paths
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path)
                .map_err(|e| format!("cannot read `{}`: {e}", path.display()))?;
            let test = PathTest::from_json(&text)
                .map_err(|e| format!("`{}` is not a symex test: {e}", path.display()))?;
            Ok((path, test))
        })
        .collect()
}

fn entry_of(module: &Module, test: &PathTest) -> Result<Entry, String> {
    if let Some(heap) = &test.heap {
        return Entry::with_heap_value(module, &test.entry, heap).map_err(|e| e.to_string());
    }
    let mut numbers = Vec::new();
    for (name, value) in test.args.iter() {
        match value {
            symex_report::ArgValue::Int(n) => numbers.push(*n),
            other => {
                return Err(format!(
                    "argument `{name}` is {other} but the test has no heap"
                ))
            }
        }
    }
    Entry::with_numbers(module, &test.entry, &numbers).map_err(|e| e.to_string())
}

/// Whether a run's end is the recorded one.
fn ended_as(recorded: &PathEnd, end: &RunEnd, module: &Module, locator: &Locator<'_>) -> bool {
    match (recorded, end) {
        (PathEnd::Returned, RunEnd::Returned(_)) => true,
        (PathEnd::AssumeFailed, RunEnd::AssumeFailed { .. }) => true,
        (
            PathEnd::Failed {
                property,
                line,
                column,
            },
            RunEnd::RuntimeError { prop, kind, .. },
        ) => {
            let site = module.property(*prop);
            let at = locator.step(site.func, site.span, Event::Fail { kind: *kind });
            kind == property && (at.line, at.column) == (*line, *column)
        }
        _ => false,
    }
}

/// How the engine's path ended, in words.
fn recorded_end(end: &PathEnd) -> String {
    match end {
        PathEnd::Returned => "returned".into(),
        PathEnd::Failed {
            property,
            line,
            column,
        } => format!("failed `{}` at {line}:{column}", property.name()),
        PathEnd::AssumeFailed => "stopped at an assumption".into(),
        PathEnd::Cut { reason } => format!("was cut ({reason})"),
    }
}

/// How the interpreter's run ended, in words.
fn run_end(end: &RunEnd, module: &Module, locator: &Locator<'_>) -> String {
    match end {
        RunEnd::Returned(value) => match value.as_int() {
            Some(n) => format!("returned {n}"),
            None => "returned".into(),
        },
        RunEnd::RuntimeError { prop, kind, .. } => {
            let site = module.property(*prop);
            let at = locator.step(site.func, site.span, Event::Fail { kind: *kind });
            format!("failed `{}` at {}:{}", kind.name(), at.line, at.column)
        }
        RunEnd::AssumeFailed { .. } => "stopped at an assumption".into(),
        RunEnd::TypeError { message, .. } => format!("stopped at a type error ({message})"),
        RunEnd::LimitExceeded { limit, .. } => format!("stopped at the limit {limit}"),
        RunEnd::IrInvariant { message, .. } => format!("broke an IR invariant ({message})"),
    }
}

/// The source lines that hold code of the functions the entry can call.
fn code_lines(module: &Module, reachable: &[bool], lines: &LineIndex) -> Vec<u32> {
    let mut found = Vec::new();
    for_each_instruction(module, reachable, |_, _, _, span| {
        if let Some(line) = line_of(lines, span) {
            found.push(line);
        }
    });
    found
}

/// Calls `visit(function, block, index, span)` for every instruction and terminator (index
/// `insts.len()`) of the reachable functions.
fn for_each_instruction(
    module: &Module,
    reachable: &[bool],
    mut visit: impl FnMut(usize, usize, usize, Span),
) {
    for (f, function) in module.functions.iter().enumerate() {
        if !reachable[f] {
            continue;
        }
        for (b, block) in function.blocks.iter().enumerate() {
            for (i, inst) in block.insts.iter().enumerate() {
                visit(f, b, i, inst.span);
            }
            visit(f, b, block.insts.len(), block.term_span);
        }
    }
}

/// The line of a span that comes from the source (the lowering gives made-up code an empty
/// span at the start).
fn line_of(lines: &LineIndex, span: Span) -> Option<u32> {
    (span != Span::default()).then(|| lines.start(span).line)
}

fn add_run(
    module: &Module,
    reachable: &[bool],
    lines: &LineIndex,
    coverage: &RunCoverage,
    map: &mut CoverageMap,
    line_hits: &mut BTreeMap<u32, usize>,
    branch_hits: &mut BTreeMap<(usize, usize), BranchSite>,
) {
    map.add_run(coverage);
    let mut lines_run = Vec::new();
    for_each_instruction(module, reachable, |f, b, i, span| {
        if coverage.instructions[f][b][i] {
            lines_run.extend(line_of(lines, span));
        }
    });
    lines_run.sort_unstable();
    lines_run.dedup();
    for line in lines_run {
        *line_hits.entry(line).or_default() += 1;
    }
    for (&(f, b), site) in branch_hits.iter_mut() {
        for (taken, &ran) in site.taken.iter_mut().zip(&coverage.branches[f][b]) {
            *taken += usize::from(ran);
        }
    }
}

/// A conditional branch: its source line, and how many tests took each direction (then, else).
#[derive(Debug, Default)]
struct BranchSite {
    line: Option<u32>,
    taken: [usize; 2],
}

/// Every conditional branch of the reachable functions, by function and block.
fn branch_sites(
    module: &Module,
    reachable: &[bool],
    lines: &LineIndex,
) -> BTreeMap<(usize, usize), BranchSite> {
    let mut sites = BTreeMap::new();
    for (f, function) in module.functions.iter().enumerate() {
        if !reachable[f] {
            continue;
        }
        for (b, block) in function.blocks.iter().enumerate() {
            if matches!(block.term, Terminator::Branch { .. }) {
                let line = line_of(lines, block.term_span);
                sites.insert(
                    (f, b),
                    BranchSite {
                        line,
                        taken: [0; 2],
                    },
                );
            }
        }
    }
    sites
}

/// The lcov tracefile: one record for the program, with line and branch hits (a hit count is
/// the number of tests that executed the line or took the direction).
fn lcov(
    source: &Path,
    line_hits: &BTreeMap<u32, usize>,
    branch_hits: &BTreeMap<(usize, usize), BranchSite>,
) -> String {
    let mut out = format!("TN:\nSF:{}\n", source.display());
    for (line, hits) in line_hits {
        let _ = writeln!(out, "DA:{line},{hits}");
    }
    let _ = writeln!(out, "LF:{}", line_hits.len());
    let _ = writeln!(out, "LH:{}", line_hits.values().filter(|&&n| n > 0).count());
    let mut found = 0;
    let mut hit = 0;
    for (number, site) in branch_hits.values().enumerate() {
        let Some(line) = site.line else { continue };
        for (direction, &taken) in site.taken.iter().enumerate() {
            let _ = writeln!(out, "BRDA:{line},{number},{direction},{taken}");
            found += 1;
            hit += usize::from(taken > 0);
        }
    }
    let _ = writeln!(out, "BRF:{found}\nBRH:{hit}");
    out.push_str("end_of_record\n");
    out
}

fn text_summary(s: &Summary) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} tests: {} ended as recorded, {} of cut paths (not compared), {} otherwise",
        s.tests,
        s.matched,
        s.cut,
        s.mismatches.len()
    );
    for mismatch in &s.mismatches {
        let _ = writeln!(out, "  {mismatch}");
    }
    let _ = writeln!(out, "lines: {}/{}", s.lines.covered, s.lines.total);
    let _ = writeln!(out, "instructions: {}", s.coverage.instructions);
    let _ = writeln!(out, "branches: {}", s.coverage.branches);
    out
}
