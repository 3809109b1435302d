//! One module per subcommand; shared steps (load, analyse, report front-end errors) live here.

pub mod bench;
pub mod cfg;
pub mod check;
pub mod gen;
pub mod replay;
pub mod report;
pub mod run;
pub mod svcomp;
pub mod types;

use crate::exit::Exit;
use crate::source::{self, ColorChoice, SourceFile};
use symex_syntax::diag::Diagnostic;
use symex_syntax::Frontend;

/// The program file argument shared by commands that take nothing else.
#[derive(clap::Args)]
pub struct FileArg {
    /// The micro-c program (`.uc`).
    pub file: String,
}

/// A program lowered for the interpreter and the engines, by either front end: micro-c, or C
/// (`.c`, `.i`) through `symex-c`.
pub struct Lowered {
    pub module: symex_ir::Module,
    /// The static types; micro-c's type errors are kept for the caller to judge (`run` and `cfg`
    /// only warn, `check` refuses). C's types are declared, never in error.
    pub types: Result<symex_syntax::types::TypeTable, Vec<Diagnostic>>,
    /// C: why each `unmodelled` check stops a run, by its span (`Translated::unmodelled_causes`).
    pub unmodelled_causes: Vec<(symex_syntax::span::Span, &'static str)>,
}

impl Lowered {
    /// What the `unmodelled` checks that start where `span` starts stand for, for the
    /// report's reasons (a report is one property per position and kind, whatever the
    /// checks' ends).
    pub fn unmodelled_cause(&self, span: symex_syntax::span::Span) -> Option<String> {
        let mut causes: Vec<&str> = (self.unmodelled_causes.iter())
            .filter(|(at, _)| at.start == span.start)
            .map(|(_, cause)| *cause)
            .collect();
        causes.sort_unstable();
        causes.dedup();
        (!causes.is_empty()).then(|| causes.join(", or "))
    }

    /// Prints type errors as warnings: for commands that work on ill-typed programs too.
    pub fn warn_type_errors(&self, file: &SourceFile, color: ColorChoice) {
        if let Err(errors) = &self.types {
            let warnings: Vec<Diagnostic> = errors
                .iter()
                .cloned()
                .map(|d| Diagnostic {
                    severity: symex_syntax::diag::Severity::Warning,
                    ..d
                })
                .collect();
            file.emit(&warnings, color);
        }
    }
}

/// Options of the C front end, shared by `check`, `run` and `cfg` so that a counterexample
/// replays against the program it was found in.
#[derive(clap::Args, Clone, Copy, Debug, Default)]
pub struct FrontendArgs {
    /// C programs: check every arithmetic operation on `int`s for a result outside `int` (the
    /// `overflow` property, SV-COMP's `no-overflow`); without it signed arithmetic wraps around.
    #[arg(long)]
    pub signed_overflow: bool,
    /// C programs: the data model, `lp64` (x86-64 Linux, `long` has 64 bits) or `ilp32`
    /// (`gcc -m32`, `long` has 32 bits).
    #[arg(long, value_enum, default_value_t = DataModelArg::Lp64)]
    pub data_model: DataModelArg,
    /// C programs: calls of `reach_error` are ordinary calls of its definition, and
    /// `__assert_fail` and `__VERIFIER_error` end the run as `abort` does, instead of being the
    /// `assert` property (SV-COMP's properties other than `unreach-call`).
    #[arg(long)]
    pub ordinary_error_calls: bool,
    /// C programs: inline every call `main` makes, so that loop summarization and path
    /// subsumption see the bodies of functions called in loops (a recursive call is then
    /// refused).
    #[arg(long)]
    pub inline_calls: bool,
    /// C programs: check that every heap object is freed when `main` returns (the
    /// `memory-leak` property, SV-COMP's `valid-memtrack`; where a global variable can hold a
    /// pointer, an object left is `unknown`, not a leak); `main`'s calls are then inlined.
    #[arg(long)]
    pub memory_leaks: bool,
    /// C programs: a local variable declared without an initializer (`int x;`, also a struct
    /// of integers or an array of up to 256 numbers) starts with an arbitrary value, inputs
    /// (again where a jump skips its declaration), as CBMC and SV-COMP's tasks read C, instead
    /// of an `uninit` check where it is read (pointers, unions and larger arrays still start
    /// indeterminate).
    #[arg(long)]
    pub nondet_locals: bool,
    /// C programs: what `malloc`, `alloca` and `realloc` make (objects of integers or structs
    /// of integers, arrays of them of up to 256 numbers) starts with arbitrary values, inputs,
    /// as SV-COMP's tasks read C, instead of an `uninit` check where it is read (pointers,
    /// unions and larger arrays still start indeterminate).
    #[arg(long)]
    pub nondet_heap: bool,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DataModelArg {
    Ilp32,
    #[default]
    Lp64,
}

impl FrontendArgs {
    pub(crate) fn c_options(self) -> symex_c::Options {
        symex_c::Options {
            signed_overflow: self.signed_overflow,
            ordinary_error_calls: self.ordinary_error_calls,
            inline_calls: self.inline_calls,
            memory_leaks: self.memory_leaks,
            nondet_locals: self.nondet_locals,
            nondet_heap: self.nondet_heap,
            data_model: match self.data_model {
                DataModelArg::Ilp32 => symex_c::DataModel::Ilp32,
                DataModelArg::Lp64 => symex_c::DataModel::Lp64,
            },
        }
    }

    /// The options as command-line words, without the defaults (a report keeps them so that
    /// its `replay:` lines lower the program the same way).
    pub fn words(self) -> Vec<String> {
        let mut words = Vec::new();
        if self.signed_overflow {
            words.push("--signed-overflow".to_string());
        }
        if self.data_model == DataModelArg::Ilp32 {
            words.extend(["--data-model".to_string(), "ilp32".to_string()]);
        }
        if self.ordinary_error_calls {
            words.push("--ordinary-error-calls".to_string());
        }
        if self.inline_calls {
            words.push("--inline-calls".to_string());
        }
        if self.memory_leaks {
            words.push("--memory-leaks".to_string());
        }
        if self.nondet_locals {
            words.push("--nondet-locals".to_string());
        }
        if self.nondet_heap {
            words.push("--nondet-heap".to_string());
        }
        words
    }
}

/// The SHA-256 of `text` in hexadecimal (an SV-COMP witness's input hash, a test's program).
pub fn sha256_hex(text: &str) -> String {
    use sha2::{Digest, Sha256};
    hex(&Sha256::digest(text.as_bytes()))
}

/// `bytes` in lower-case hexadecimal.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Loads a program file and lowers it (see [`lower_file`]).
pub fn load_program(
    path: &str,
    frontend: FrontendArgs,
    entry: &str,
    color: ColorChoice,
) -> Result<(SourceFile, Lowered), Exit> {
    let file = load(path)?;
    let lowered = lower_file(&file, frontend, entry, color)?;
    Ok((file, lowered))
}

/// Lowers a loaded program with the front end its extension names, for a run that starts at
/// `entry` (a micro-c program needs `main` only when that is the entry). Errors are printed
/// (`unsupported: ... at file:line:col` for C) and end in [`Exit::ProgramError`].
pub fn lower_file(
    file: &SourceFile,
    frontend: FrontendArgs,
    entry: &str,
    color: ColorChoice,
) -> Result<Lowered, Exit> {
    if symex_c::is_c_file(&file.name) {
        return match symex_c::translate(&file.name, &file.text, frontend.c_options()) {
            Ok(translated) => {
                let refused = (translated.left_out.iter())
                    .chain(&translated.not_entries)
                    .find(|(f, _)| f == entry);
                if let Some((_, reason)) = refused {
                    diag!("{}", reason.render(&file.name, &file.text));
                    return Err(Exit::ProgramError);
                }
                Ok(Lowered {
                    module: translated.module,
                    types: Ok(translated.types),
                    unmodelled_causes: translated.unmodelled_causes,
                })
            }
            Err(e) => {
                diag!("{}", e.render(&file.name, &file.text));
                Err(Exit::ProgramError)
            }
        };
    }
    if let Some(flag) = frontend.words().first() {
        let why = match flag.as_str() {
            "--signed-overflow" | "--data-model" => {
                "micro-c's numbers are 32 bits and wrap around by definition"
            }
            "--memory-leaks" => "micro-c has no `free`: its heap is never released",
            "--nondet-locals" | "--nondet-heap" => {
                "micro-c has no indeterminate values: a read of a variable never assigned is an \
                 `uninit` error"
            }
            "--inline-calls" => "micro-c has no globals, whose sharing inlining serves",
            _ => "micro-c has no error functions such as `reach_error`",
        };
        diag!("error: {flag} applies to C programs ({why})");
        return Err(Exit::Usage);
    }
    let frontend = analyze(file, entry, color)?;
    Ok(Lowered {
        module: symex_ir::lower(&frontend.program),
        types: frontend.types,
        unmodelled_causes: Vec::new(),
    })
}

/// Loads and analyses a program. On failure the errors are printed and the exit code returned.
/// Type errors are left in `Frontend::types` for the caller to judge.
pub fn load_and_analyze(path: &str, color: ColorChoice) -> Result<(SourceFile, Frontend), Exit> {
    let file = load(path)?;
    let frontend = analyze(&file, "main", color)?;
    Ok((file, frontend))
}

/// Loads a program file; a file that cannot be read is reported and ends in
/// [`Exit::ProgramError`].
/// The longest time limit a command takes, in seconds: beyond any run, and far below where a
/// deadline (`Instant` plus the limit) overflows (`--timeout 1e19` panicked).
pub const MAX_SECONDS: f64 = 1e9;

/// What is wrong with `seconds` as a time limit, if anything: it must be positive, finite
/// and at most [`MAX_SECONDS`].
pub fn time_limit_error(seconds: f64) -> Option<String> {
    let fits = seconds.is_finite() && seconds > 0.0 && seconds <= MAX_SECONDS;
    (!fits).then(|| {
        format!(
            "must be a positive number of seconds, at most {}, not {seconds}",
            MAX_SECONDS as u64
        )
    })
}

pub fn load(path: &str) -> Result<SourceFile, Exit> {
    source::load(path).map_err(|message| {
        diag!("error: {message}");
        Exit::ProgramError
    })
}

/// Analyses a loaded program for a run that starts at `entry`; syntax and name errors are
/// printed and end in [`Exit::ProgramError`]. Type errors are left in `Frontend::types` for
/// the caller to judge.
pub fn analyze(file: &SourceFile, entry: &str, color: ColorChoice) -> Result<Frontend, Exit> {
    symex_syntax::analyze_for_entry(&file.text, entry).map_err(|errors| {
        file.emit(&errors, color);
        Exit::ProgramError
    })
}
