//! `--reach LINE` for both engines: the module with the line's reach property
//! ([`symex_ir::instrument_reach`]) and a report narrowed to that property.
//!
//! The property is found, confirmed (the interpreter's replay stops on it exactly when the line
//! runs) and concluded like any other; the other properties of the instrumented module are left
//! out of the report, since its reach check stops every run at the line (their verdicts there
//! would say nothing about the program). Nothing here searches.

use symex_ir::cfg::{Module, PropId, PropertyKind};
use symex_report::Report;

use crate::error::EngineError;

/// The module with the reach property of `line` (lowered from `source`), and its id.
pub fn reach_module(
    module: &Module,
    source: &str,
    line: u32,
) -> Result<(Module, PropId), EngineError> {
    symex_ir::instrument_reach(module, source, line)
        .map_err(|e| EngineError::BadTarget(e.to_string()))
}

/// `report` with only its reach property.
pub fn reach_report(report: Report) -> Report {
    let only: Vec<_> = report
        .properties()
        .iter()
        .filter(|p| p.kind == PropertyKind::Reach)
        .cloned()
        .collect();
    Report::new(
        report.program,
        report.engine,
        report.entry,
        only,
        report.stats,
    )
}
