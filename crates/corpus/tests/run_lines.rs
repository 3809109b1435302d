//! The concrete interpreter against every `run:` line of the corpus (shared and project).
//!
//! For each run: front end (type errors tolerated: the interpreter is dynamically typed),
//! lowering, then `main` on the run's input; the printed numbers and the result, or the error
//! kind and the source line of the failing property's span, must match. Every mismatch of every
//! file is collected and reported at the end, not just the first.

use symex_corpus::{CorpusFile, ExpectedEnd, RunLine};
use symex_interp::{Interpreter, RunConfig, RunEnd};
use symex_syntax::span::LineIndex;

/// Generous for the corpus (the largest run takes about a million steps), small enough that a
/// non-terminating regression fails fast instead of hanging the suite.
const MAX_STEPS: u64 = 50_000_000;

#[test]
fn every_run_line_matches_the_interpreter() {
    let files = symex_corpus::all_files().unwrap_or_else(|errors| {
        let list: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
        panic!("corpus headers do not parse:\n{}", list.join("\n"))
    });
    let mut mismatches = Vec::new();
    let mut checked = 0;
    for file in &files {
        match run_file(file) {
            Ok(count) => checked += count,
            Err(problems) => mismatches.extend(problems),
        }
    }
    assert!(
        mismatches.is_empty(),
        "{} mismatch(es):\n{}",
        mismatches.len(),
        mismatches.join("\n")
    );
    assert!(checked >= 100, "only {checked} run lines checked");
    eprintln!("{checked} run lines of {} corpus files match", files.len());
}

/// Checks every run line of `file`; the number checked, or every mismatch.
fn run_file(file: &CorpusFile) -> Result<usize, Vec<String>> {
    if file.runs.is_empty() {
        return Ok(0);
    }
    let label = file.label();
    let frontend = symex_syntax::analyze(&file.source).map_err(|diags| {
        let index = LineIndex::new(&file.source);
        vec![format!(
            "{label}: front end rejected the program: {}",
            diags
                .first()
                .map_or(String::new(), |d| d.headline(&label, &index))
        )]
    })?;
    let module = symex_ir::lower(&frontend.program);
    let interp = Interpreter::new(&module).map_err(|e| {
        vec![format!(
            "{label}: interpreter refused the lowered module: {e}"
        )]
    })?;
    let index = LineIndex::new(&file.source);
    let config = RunConfig::default().with_max_steps(MAX_STEPS);
    let problems: Vec<String> = file
        .runs
        .iter()
        .filter_map(|run| check_run(&interp, &index, &config, run).err())
        .map(|problem| format!("{label}: {problem}"))
        .collect();
    if problems.is_empty() {
        Ok(file.runs.len())
    } else {
        Err(problems)
    }
}

fn check_run(
    interp: &Interpreter,
    index: &LineIndex,
    config: &RunConfig,
    run: &RunLine,
) -> Result<(), String> {
    let outcome = interp
        .run_main(&run.input, config)
        .map_err(|e| format!("run line {}: cannot run main: {e}", run.header_line))?;
    let end_matches = match (&run.end, &outcome.end) {
        (ExpectedEnd::Result(n), end) => end.returned_int() == Some(*n),
        (ExpectedEnd::Error { kind, line }, RunEnd::RuntimeError { kind: k, span, .. }) => {
            kind == k && index.start(*span).line == *line
        }
        (ExpectedEnd::Error { .. }, _) => false,
    };
    if end_matches && outcome.outputs == run.output {
        return Ok(());
    }
    Err(format!(
        "run line {}: input={} expected output={} {}, got output={} {}",
        run.header_line,
        list(&run.input),
        list(&run.output),
        run.end,
        list(&outcome.outputs),
        describe(&outcome.end, index)
    ))
}

fn list(numbers: &[i32]) -> String {
    numbers
        .iter()
        .map(i32::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

/// A run's end in the header's words where possible.
fn describe(end: &RunEnd, index: &LineIndex) -> String {
    match end {
        RunEnd::Returned(value) => match value.as_int() {
            Some(n) => format!("result={n}"),
            None => format!("returned {}", value.kind_name()),
        },
        RunEnd::RuntimeError { kind, span, .. } => {
            format!("error={} line {}", kind.name(), index.start(*span).line)
        }
        RunEnd::AssumeFailed { span } => format!("assume failed at {}", index.start(*span)),
        RunEnd::TypeError { message, span } => {
            format!("type error at {}: {message}", index.start(*span))
        }
        RunEnd::LimitExceeded { limit, span } => format!("{limit} at {}", index.start(*span)),
        RunEnd::IrInvariant { message, span } => {
            format!("IR invariant broken at {}: {message}", index.start(*span))
        }
    }
}
