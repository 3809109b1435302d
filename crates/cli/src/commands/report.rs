//! `symex report RUN.json --html FILE`: a saved JSON report (`symex check --format json`) as a
//! self-contained HTML page, with the program's source read from the path the report names
//! (or `--source`). Also the one writer of HTML pages that `symex check --html` uses.

use std::path::{Path, PathBuf};

use clap::Args;
use symex_report::Report;

use crate::exit::Exit;

#[derive(Args, Debug)]
pub struct ReportArgs {
    /// The JSON report, as `symex check --format json` prints it.
    #[arg(value_name = "RUN.json")]
    pub report: PathBuf,
    /// Write the report as one self-contained HTML page to FILE (docs/reports.md).
    #[arg(long, value_name = "FILE", required = true)]
    pub html: PathBuf,
    /// The checked program's source (default: the `program` path the report names).
    #[arg(long, value_name = "FILE")]
    pub source: Option<PathBuf>,
}

pub fn run(args: &ReportArgs) -> Exit {
    let text = match std::fs::read_to_string(&args.report) {
        Ok(text) => text,
        Err(e) => {
            diag!("error: cannot read `{}`: {e}", args.report.display());
            return Exit::Usage;
        }
    };
    let report = match Report::from_json(&text) {
        Ok(report) => report,
        Err(e) => {
            diag!(
                "error: `{}` is not a symex JSON report: {e}",
                args.report.display()
            );
            return Exit::Usage;
        }
    };
    let source_path = args
        .source
        .clone()
        .unwrap_or_else(|| PathBuf::from(&report.program));
    let source = match std::fs::read_to_string(&source_path) {
        Ok(source) => source,
        Err(e) => {
            diag!(
                "error: cannot read the program `{}` that the report checked: {e} \
                 (name it with --source FILE)",
                source_path.display()
            );
            return Exit::Usage;
        }
    };
    match write_html(&report, &source, &args.html) {
        Ok(()) => Exit::Success,
        Err(exit) => exit,
    }
}

/// Writes `report` over `source` as an HTML page to `path`; a failure is printed.
pub fn write_html(report: &Report, source: &str, path: &Path) -> Result<(), Exit> {
    let page = symex_report::html::render(report, source).map_err(|e| {
        diag!("internal error: cannot write the report as HTML: {e}");
        Exit::Internal
    })?;
    std::fs::write(path, page).map_err(|e| {
        diag!("error: cannot write `{}`: {e}", path.display());
        Exit::Usage
    })
}
