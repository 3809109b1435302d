//! A task's program run again on given inputs, lowered as a report or a property says: for
//! a witness's input sites, a witness's validation, and the overflow check of a counterexample.
//! Nothing here decides an answer.

use std::time::Instant;

use symex_c::Translated;
use symex_interp::{Entry, Interpreter, RunConfig, RunEnd};
use symex_syntax::span::Span;

use super::translate;
use crate::commands::check::CheckArgs;
use crate::source::SourceFile;

/// The program lowered with the front-end options `words` (a report's `frontend`, or a
/// property's flags with the data model); where counting heap objects is refused (a recursive
/// function), without it, as the portfolio's checks then run.
pub(super) fn lower(file: &SourceFile, mut words: Vec<String>) -> Result<Translated, String> {
    words.push(file.name.clone());
    let mut frontend = CheckArgs::from_words(words)
        .map_err(|e| format!("the front-end options do not parse: {e}"))?
        .frontend;
    translate(file, frontend)
        .or_else(|| {
            frontend.memory_leaks = false;
            translate(file, frontend)
        })
        .ok_or_else(|| "the program is outside the supported subset".into())
}

/// Where a rerun's inputs come from.
pub(super) enum Given<'a> {
    /// These numbers, in order.
    Numbers(&'a [i32]),
    /// Each chosen from the span of the instruction that reads it.
    Chosen(&'a mut dyn FnMut(Span) -> i32),
}

/// Runs the lowered program's `main` until `deadline` on the `given` inputs: how it ended, and
/// where it read each input (all of them, not only the first events of a trace).
pub(super) fn run(
    lowered: &Translated,
    given: Given,
    deadline: Instant,
) -> Result<(RunEnd, Vec<Span>), String> {
    let module = &lowered.module;
    let interpreter = Interpreter::new(module).map_err(|e| format!("{e:?}"))?;
    let entry = Entry::main(module).map_err(|e| e.to_string())?;
    let config = RunConfig::default()
        .with_deadline(deadline)
        .with_input_sites();
    let outcome = match given {
        Given::Numbers(inputs) => interpreter.run(&entry, inputs, &config),
        Given::Chosen(choose) => interpreter.run_choosing(&entry, choose, &config),
    };
    let outcome = outcome.map_err(|e| e.to_string())?;
    Ok((outcome.end, outcome.input_sites.unwrap_or_default()))
}
