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
use symex_report::svcomp::{unreach_call, SvVerdict};

use super::check::{check_source, CheckArgs};
use crate::exit::Exit;
use crate::source::ColorChoice;

#[derive(clap::Args)]
pub struct SvcompArgs {
    /// The task definition (`.yml`, format 2.0).
    pub task: PathBuf,
    /// Check only this property: `unreach-call` (the others are not supported yet and answer
    /// `UNKNOWN`).
    #[arg(long, value_name = "NAME")]
    pub property: Option<String>,
    /// Time limit for each property, in seconds, shared by the portfolio's configurations.
    #[arg(long, value_name = "SECONDS", default_value_t = 60.0)]
    pub timeout: f64,
}

/// The forward configurations tried in turn, with their share of the time limit: plain
/// depth-first search first (finds violations fastest), then path subsumption (proves loops
/// whose states repeat), then loop summarization. Measured on the public tasks
/// (docs/c-frontend.md).
const PORTFOLIO: &[(&[&str], f64)] = &[(&[], 0.25), (&["--subsume"], 0.5), (&["--summarize"], 1.0)];

/// The properties SV-COMP verifies (coverage properties are for test generation).
const VERIFICATION_PROPERTIES: &[&str] = &[
    "unreach-call",
    "no-overflow",
    "valid-memsafety",
    "valid-memcleanup",
    "termination",
];

#[derive(Deserialize)]
struct Task {
    input_files: InputFiles,
    #[serde(default)]
    properties: Vec<PropertyEntry>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum InputFiles {
    One(String),
    Many(Vec<String>),
}

#[derive(Deserialize)]
struct PropertyEntry {
    property_file: String,
}

/// The property's name: the property file's stem (`../properties/unreach-call.prp`).
fn property_name(entry: &PropertyEntry) -> String {
    Path::new(&entry.property_file)
        .file_stem()
        .map_or_else(String::new, |s| s.to_string_lossy().into_owned())
}

pub fn run(args: &SvcompArgs, color: ColorChoice) -> Exit {
    if !(args.timeout.is_finite() && args.timeout > 0.0) {
        eprintln!("error: --timeout must be a positive number of seconds");
        return Exit::Usage;
    }
    let task = match std::fs::read_to_string(&args.task)
        .map_err(|e| e.to_string())
        .and_then(|text| serde_yaml_ng::from_str::<Task>(&text).map_err(|e| e.to_string()))
    {
        Ok(task) => task,
        Err(e) => {
            eprintln!("error: cannot read the task `{}`: {e}", args.task.display());
            return Exit::ProgramError;
        }
    };
    let input = match &task.input_files {
        InputFiles::One(file) => file.clone(),
        InputFiles::Many(files) if files.len() == 1 => files[0].clone(),
        InputFiles::Many(_) => {
            eprintln!("error: tasks with several input files are not supported");
            return Exit::ProgramError;
        }
    };
    let program = args.task.parent().unwrap_or(Path::new(".")).join(input);
    let mut names: Vec<String> = task
        .properties
        .iter()
        .map(property_name)
        .filter(|name| VERIFICATION_PROPERTIES.contains(&name.as_str()))
        .collect();
    if let Some(only) = &args.property {
        if !names.contains(only) {
            eprintln!(
                "error: the task has no property `{only}` (it has: {})",
                names.join(", ")
            );
            return Exit::Usage;
        }
        names.retain(|name| name == only);
    }
    let mut exit = Exit::Success;
    for name in &names {
        let answer = match name.as_str() {
            "unreach-call" => match check_unreach_call(&program, args.timeout, color) {
                Ok(answer) => answer,
                Err(code) => return code,
            },
            _ => SvVerdict::Unknown("this property is not supported yet".into()),
        };
        println!("{name}: {answer}");
        exit = match (&answer, exit) {
            (SvVerdict::False, _) | (_, Exit::Violation) => Exit::Violation,
            (SvVerdict::Unknown(_), _) | (_, Exit::Inconclusive) => Exit::Inconclusive,
            (SvVerdict::True, other) => other,
        };
    }
    exit
}

/// `unreach-call` through the portfolio. A program outside the supported subset is an
/// `UNKNOWN` with the refusal (printed on stderr); other failures end the command.
fn check_unreach_call(program: &Path, timeout: f64, color: ColorChoice) -> Result<SvVerdict, Exit> {
    let file = super::load(&program.to_string_lossy())?;
    let start = Instant::now();
    let mut last = SvVerdict::Unknown("no configuration ran".into());
    for (flags, share_end) in PORTFOLIO {
        let left = timeout * share_end - start.elapsed().as_secs_f64();
        if left <= 0.0 {
            continue;
        }
        let mut words: Vec<String> = flags.iter().map(|f| f.to_string()).collect();
        words.extend([
            "--timeout".to_string(),
            format!("{left:.3}"),
            file.name.clone(),
        ]);
        let args = CheckArgs::from_words(words).map_err(|e| {
            eprintln!("internal error: a portfolio configuration does not parse: {e}");
            Exit::Internal
        })?;
        let report = match check_source(&args, &file, color, false) {
            Ok(report) => report,
            Err(Exit::ProgramError) => {
                return Ok(SvVerdict::Unknown(
                    "the program is outside the supported subset".into(),
                ))
            }
            Err(other) => return Err(other),
        };
        last = unreach_call(&report);
        if !matches!(last, SvVerdict::Unknown(_)) {
            break;
        }
    }
    Ok(last)
}
