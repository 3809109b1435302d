//! `symex run FILE`: a concrete run with the reference interpreter (of `main`, or of `--entry f`
//! with `--args` numbers or a `--heap` JSON file, `docs/heap-json.md`).
//!
//! `output` numbers stream to stdout as they happen; the result and any stop reason go to
//! stderr, so stdout is exactly the program's output.

use super::load_program;
use crate::exit::Exit;
use crate::source::{ColorChoice, SourceFile};
use std::io::Write;
use symex_interp::{Entry, HeapError, Interpreter, RunConfig, RunEnd, Value};
use symex_ir::cfg::Module;
use symex_ir::PropertyKind;
use symex_syntax::diag::Diagnostic;

#[derive(clap::Args)]
pub struct RunArgs {
    /// The program: micro-c (`.uc`) or C (`.c`, preprocessed `.i`).
    pub file: String,
    /// The input list, read by `input` in order (then -1 once exhausted), e.g. `--input 5,-3`.
    #[arg(long, value_delimiter = ',', allow_hyphen_values = true)]
    pub input: Vec<i32>,
    /// Run this function instead of `main`.
    #[arg(long)]
    pub entry: Option<String>,
    /// Integer arguments of the entry function, e.g. `--args 1,-2` (64-bit numbers for
    /// parameters of 64 bits).
    #[arg(
        long,
        value_delimiter = ',',
        allow_hyphen_values = true,
        requires = "entry"
    )]
    pub args: Vec<i64>,
    /// A JSON file with the entry's arguments and the input heap its pointer parameters point
    /// into (`docs/heap-json.md`), or that document itself (a value starting with `{`, as the
    /// `replay:` lines of counterexamples give it); gives every argument, so it excludes `--args`.
    #[arg(
        long,
        value_name = "FILE|JSON",
        requires = "entry",
        conflicts_with = "args"
    )]
    pub heap: Option<String>,
    /// Stop after this many IR instructions (exit code 5).
    #[arg(long)]
    pub max_steps: Option<u64>,
    /// Maximum number of active calls.
    #[arg(long, default_value_t = symex_interp::DEFAULT_MAX_CALL_DEPTH)]
    pub max_call_depth: usize,
    #[command(flatten)]
    pub frontend: super::FrontendArgs,
}

pub fn run(args: &RunArgs, color: ColorChoice) -> Exit {
    let entry = args.entry.as_deref().unwrap_or("main");
    let (file, lowered) = match load_program(&args.file, args.frontend, entry, color) {
        Ok(loaded) => loaded,
        Err(exit) => return exit,
    };
    lowered.warn_type_errors(&file, color);
    let module = lowered.module;
    let interpreter = match Interpreter::new(&module) {
        Ok(interpreter) => interpreter,
        Err(e) => {
            diag!("internal error: the lowered program is malformed: {e}");
            return Exit::Internal;
        }
    };
    let entry = match (&args.entry, &args.heap) {
        (Some(name), Some(heap)) => heap_entry(&module, name, heap),
        (None, _) => Entry::main(&module).map_err(|e| e.to_string()),
        (Some(name), None) => {
            Entry::with_numbers(&module, name, &args.args).map_err(|e| e.to_string())
        }
    };
    let entry = match entry {
        Ok(entry) => entry,
        Err(message) => {
            diag!("error: {message}");
            return Exit::Usage;
        }
    };
    let mut config = RunConfig::default().with_max_call_depth(args.max_call_depth);
    config.max_steps = args.max_steps;

    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut sink = |n: i32| {
        // A closed pipe (e.g. `| head`) must not abort the run's verdict.
        let _ = writeln!(out, "{n}");
    };
    let outcome = match interpreter.run_with_sink(&entry, &args.input, &config, &mut sink) {
        Ok(outcome) => outcome,
        Err(e) => {
            diag!("error: {e}");
            return Exit::Usage;
        }
    };
    let _ = out.flush();
    report_end(&file, &outcome.end, color)
}

/// The entry `name` with the arguments and input heap of `heap`: the document itself when it
/// starts with `{` (no file name does in practice), else the JSON file at that path.
fn heap_entry(module: &Module, name: &str, heap: &str) -> Result<Entry, String> {
    let (json, origin) = if heap.trim_start().starts_with('{') {
        (heap.to_string(), "the --heap document".to_string())
    } else {
        let json = std::fs::read_to_string(heap)
            .map_err(|e| format!("cannot read heap file `{heap}`: {e}"))?;
        (json, format!("heap file `{heap}`"))
    };
    Entry::with_heap_json(module, name, &json).map_err(|e| match e {
        HeapError::UnknownFunction(_) => e.to_string(),
        _ => format!("{origin}: {e}"),
    })
}

fn report_end(file: &SourceFile, end: &RunEnd, color: ColorChoice) -> Exit {
    let stop = |diag: Diagnostic, exit: Exit| {
        file.emit_plain(&[diag], color);
        exit
    };
    match end {
        RunEnd::Returned(value) => {
            match value {
                Value::Int(n) => diag!("result: {n}"),
                Value::Int64(n) => diag!("result: {n}"),
                other => diag!("result: a {} (not a number)", other.kind_name()),
            }
            Exit::Success
        }
        RunEnd::RuntimeError { kind, span, .. } => stop(
            Diagnostic::error(*span, format!("runtime error: {}", describe(*kind)))
                .with_label(format!("{} here", kind.name())),
            Exit::RuntimeError,
        ),
        RunEnd::AssumeFailed { span } => stop(
            Diagnostic::warning(
                *span,
                "assumption failed: the input is outside the precondition",
            )
            .with_label("this `assume` does not hold"),
            Exit::AssumeFailed,
        ),
        RunEnd::TypeError { message, span } => stop(
            Diagnostic::error(*span, format!("runtime type error: {message}")),
            Exit::Aborted,
        ),
        RunEnd::LimitExceeded { limit, span } => stop(
            Diagnostic::error(*span, format!("run stopped: {limit}"))
                .with_label("while executing this"),
            Exit::Aborted,
        ),
        RunEnd::IrInvariant { message, span } => stop(
            Diagnostic::error(*span, format!("internal error: {message}"))
                .with_note("this is a bug in symex; please report it with the program"),
            Exit::Internal,
        ),
    }
}

/// The runtime error as a phrase.
fn describe(kind: PropertyKind) -> &'static str {
    match kind {
        PropertyKind::Assert => "assertion failed",
        PropertyKind::DivByZero => "division by zero",
        PropertyKind::NullDeref => "null dereference",
        PropertyKind::OutOfBounds => "index out of bounds",
        PropertyKind::Uninit => "read of an uninitialized variable",
        PropertyKind::Reach => "reached the target line",
        PropertyKind::ShiftOutOfRange => "shift amount out of range",
        PropertyKind::Overflow => "signed integer overflow",
        PropertyKind::Unmodelled => "a value or an operation outside what symex models",
        PropertyKind::UseAfterFree => "use of freed memory",
        PropertyKind::UseAfterReturn => "use of a local variable after its function returned",
        PropertyKind::InvalidPointer => "access through a pointer to no object",
        PropertyKind::InvalidFree => "invalid free",
        PropertyKind::LiteralWrite => "write into a string literal",
        PropertyKind::MemoryLeak => "memory leak",
    }
}
