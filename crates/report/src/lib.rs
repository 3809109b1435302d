//! The report model shared by every engine, and its renderers (layer 6 of
//! `docs/architecture.md`).
//!
//! An engine, for each property, turns what it found ([`Finding`]) and what cut its search
//! ([`Cuts`]) into a [`Verdict`] with [`Verdict::conclude`], the only way to a `safe` or
//! `safe-up-to` verdict (it downgrades when anything cut the search) and to a `violated` one (it
//! needs the interpreter's [`Replay`] of the [`Witness`]). A [`Locator`] gives each verdict its function and
//! `line:column`; [`Report::new`] collects them with the [`Stats`]. The CLI then renders
//! [`Report::to_text`], [`Report::to_json`] (schema: `docs/report-json.md`) or
//! [`Report::to_sarif`], prints
//! [`Stats::table`] for `--stats`, and exits with [`Report::exit_class`].
//!
//! ```text
//! let loc = Locator::new(&module, &source);
//! let verdict = Verdict::conclude(prop, Finding::NotReached, &cuts);
//! let report = Report::new(file, "forward", "main", vec![loc.property(prop, verdict)?], stats);
//! print!("{}", report.to_text(&source, color));
//! std::process::exit(report.exit_class().code());
//! ```
//!
//! Nothing here explores programs, calls a solver, runs the interpreter, prints or exits.

mod counterexample;
mod cuts;
pub mod heap_dot;
pub mod html;
mod json;
mod kind;
mod locate;
mod path_test;
mod property;
mod report;
#[cfg(test)]
mod sample;
mod sarif;
mod stats;
pub mod svcomp;
mod text;
mod trace;
mod value;
mod verdict;

pub use counterexample::{Counterexample, Replay, Unconfirmed, Witness};
pub use cuts::{Cut, Cuts};
pub use json::ReadError;
pub use locate::Locator;
pub use path_test::{PathEnd, PathTest};
pub use property::PropertyReport;
pub use report::{Counts, ExitClass, Report};
pub use stats::{Coverage, Ratio, Stats};
pub use trace::{Event, TraceStep};
pub use value::{ArgValue, Args, Fields, Uninit};
pub use verdict::{Finding, Status, Verdict};
