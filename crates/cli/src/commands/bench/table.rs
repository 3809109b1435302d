//! The measurements of a benchmark and their tables: one record per (configuration, program)
//! run, the per-configuration summary, and the Markdown, CSV and JSON writers. Pure data and
//! text: nothing here runs a check or touches the file system.

use serde::Serialize;
use std::fmt::Write;
use symex_report::{ExitClass, Report};

/// How one run ended, from the bench's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Outcome {
    /// Every property `safe`: proved, no bound or limit involved.
    Safe,
    /// At least one confirmed violation.
    Error,
    /// No violation, and the per-program time limit ran out.
    Timeout,
    /// No violation, not timed out, every open property `safe-up-to` (a bound in the flags).
    Bounded,
    /// No violation, not timed out, some property `unknown` (memory, solver, state limit).
    Unknown,
    /// An unconfirmed counterexample: a bug in symex (exit 101).
    #[serde(rename = "internal-error")]
    Internal,
    /// The program or the configuration was refused (exit 1 or 2 of `symex check`).
    Rejected,
}

impl Outcome {
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Safe => "safe",
            Outcome::Error => "error",
            Outcome::Timeout => "timeout",
            Outcome::Bounded => "bounded",
            Outcome::Unknown => "unknown",
            Outcome::Internal => "internal-error",
            Outcome::Rejected => "rejected",
        }
    }

    /// Whether the run settled the program: proved it safe or found an error.
    pub fn decided(self) -> bool {
        matches!(self, Outcome::Safe | Outcome::Error)
    }
}

/// One run: a configuration on a program.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Run {
    pub config: String,
    pub program: String,
    pub outcome: Outcome,
    /// Distinct violated properties.
    pub violated: usize,
    pub safe: usize,
    pub safe_up_to: usize,
    pub unknown: usize,
    /// Paths explored (merged states count the paths they stand for).
    pub paths: u64,
    pub queries: u64,
    /// IR instructions covered, and coverable, when the engine measures coverage.
    pub covered: u64,
    pub coverable: u64,
    /// Wall-clock time of the whole run (front end, lowering, engine, replay), ms.
    pub time_ms: u64,
}

impl Run {
    /// The record of a finished check. `limit_ms` is the per-program time limit: a run
    /// without a violation whose engine clock reached it counts as a timeout (the limit may
    /// surface as a timeout cut or as a solver query cancelled at the deadline).
    pub fn from_report(
        config: &str,
        program: &str,
        report: &Report,
        limit_ms: u64,
        time_ms: u64,
    ) -> Run {
        let counts = report.counts();
        let outcome = match report.exit_class() {
            ExitClass::InternalError => Outcome::Internal,
            ExitClass::Violation => Outcome::Error,
            ExitClass::AllSafe => Outcome::Safe,
            ExitClass::Inconclusive if report.stats.time_ms >= limit_ms => Outcome::Timeout,
            ExitClass::Inconclusive if counts.unknown == 0 => Outcome::Bounded,
            ExitClass::Inconclusive => Outcome::Unknown,
        };
        let (covered, coverable) = report
            .stats
            .coverage
            .map_or((0, 0), |c| (c.instructions.covered, c.instructions.total));
        Run {
            config: config.into(),
            program: program.into(),
            outcome,
            violated: counts.violated,
            safe: counts.safe,
            safe_up_to: counts.safe_up_to,
            unknown: counts.unknown + counts.internal_errors,
            paths: report.stats.paths,
            queries: report.stats.queries,
            covered,
            coverable,
            time_ms,
        }
    }

    /// The record of a run `symex check` refused.
    pub fn rejected(config: &str, program: &str, time_ms: u64) -> Run {
        Run {
            config: config.into(),
            program: program.into(),
            outcome: Outcome::Rejected,
            violated: 0,
            safe: 0,
            safe_up_to: 0,
            unknown: 0,
            paths: 0,
            queries: 0,
            covered: 0,
            coverable: 0,
            time_ms,
        }
    }
}

/// One configuration's totals over a program set.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Summary {
    pub config: String,
    pub flags: String,
    pub programs: usize,
    pub paths: u64,
    pub covered: u64,
    pub coverable: u64,
    /// Distinct violated properties, summed over the programs.
    pub errors: usize,
    pub programs_with_error: usize,
    pub proved_safe: usize,
    pub bounded: usize,
    pub timeouts: usize,
    pub unknown: usize,
    pub internal_errors: usize,
    pub rejected: usize,
    pub time_ms: u64,
    pub queries: u64,
    /// The configuration the time ratio compares with (the first of the list).
    pub baseline: String,
    /// Programs both this configuration and the baseline decided (safe or error found).
    pub common_decided: usize,
    /// Time of this configuration and of the baseline on those programs, ms.
    pub common_time_ms: u64,
    pub baseline_common_time_ms: u64,
}

impl Summary {
    /// Totals of `runs` (those of configuration `config`).
    pub fn of(config: &str, flags: &str, runs: &[Run]) -> Summary {
        let mut s = Summary {
            config: config.into(),
            flags: flags.into(),
            ..Summary::default()
        };
        for run in runs.iter().filter(|r| r.config == config) {
            s.programs += 1;
            s.paths += run.paths;
            s.covered += run.covered;
            s.coverable += run.coverable;
            s.errors += run.violated;
            s.time_ms += run.time_ms;
            s.queries += run.queries;
            let slot = match run.outcome {
                Outcome::Safe => &mut s.proved_safe,
                Outcome::Error => &mut s.programs_with_error,
                Outcome::Timeout => &mut s.timeouts,
                Outcome::Bounded => &mut s.bounded,
                Outcome::Unknown => &mut s.unknown,
                Outcome::Internal => &mut s.internal_errors,
                Outcome::Rejected => &mut s.rejected,
            };
            *slot += 1;
        }
        s
    }

    /// Adds the time comparison with configuration `baseline` on the programs both decided:
    /// the overhead (above 1×) or speed-up of this configuration where both give an answer.
    pub fn with_baseline(mut self, baseline: &str, runs: &[Run]) -> Summary {
        self.baseline = baseline.into();
        let decided = |config: &str, program: &str| {
            runs.iter()
                .find(|r| r.config == config && r.program == program && r.outcome.decided())
        };
        for run in runs
            .iter()
            .filter(|r| r.config == self.config && r.outcome.decided())
        {
            if let Some(base) = decided(baseline, &run.program) {
                self.common_decided += 1;
                self.common_time_ms += run.time_ms;
                self.baseline_common_time_ms += base.time_ms;
            }
        }
        self
    }

    /// `1.21× (4)`: time relative to the baseline on the 4 programs both decided; `-` if none.
    pub fn relative_time_text(&self) -> String {
        if self.common_decided == 0 {
            return "-".into();
        }
        let ratio = self.common_time_ms as f64 / self.baseline_common_time_ms.max(1) as f64;
        format!("{ratio:.2}× ({})", self.common_decided)
    }

    /// Instruction coverage in percent with one decimal, or `-` when nothing was measured.
    pub fn coverage_text(&self) -> String {
        if self.coverable == 0 {
            "-".into()
        } else {
            format!(
                "{:.1} %",
                self.covered as f64 * 100.0 / self.coverable as f64
            )
        }
    }
}

const SUMMARY_COLUMNS: [&str; 15] = [
    "config",
    "flags",
    "programs",
    "paths",
    "instr. coverage",
    "errors found",
    "programs with error",
    "proved safe",
    "safe up to K",
    "timeouts",
    "unknown",
    "internal errors",
    "total time (s)",
    "solver queries",
    "time vs first (both decided)",
];

fn summary_cells(s: &Summary) -> [String; 15] {
    [
        s.config.clone(),
        s.flags.clone(),
        s.programs.to_string(),
        s.paths.to_string(),
        s.coverage_text(),
        s.errors.to_string(),
        s.programs_with_error.to_string(),
        s.proved_safe.to_string(),
        s.bounded.to_string(),
        s.timeouts.to_string(),
        (s.unknown + s.rejected).to_string(),
        s.internal_errors.to_string(),
        format!("{:.1}", s.time_ms as f64 / 1000.0),
        s.queries.to_string(),
        s.relative_time_text(),
    ]
}

/// The summary as a Markdown table, one row per configuration (flags in code spans).
pub fn summary_markdown(summaries: &[Summary]) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "| {} |", SUMMARY_COLUMNS.join(" | "));
    let aligns: Vec<&str> = SUMMARY_COLUMNS
        .iter()
        .enumerate()
        .map(|(i, _)| if i < 2 { "---" } else { "---:" })
        .collect();
    let _ = writeln!(out, "|{}|", aligns.join("|"));
    for s in summaries {
        let mut cells = summary_cells(s);
        cells[1] = format!("`{}`", cells[1]);
        let _ = writeln!(out, "| {} |", cells.join(" | "));
    }
    out
}

/// The summary as CSV (RFC 4180 quoting), one row per configuration.
pub fn summary_csv(summaries: &[Summary]) -> String {
    let mut out = csv_row(SUMMARY_COLUMNS.iter().map(|c| c.to_string()));
    for s in summaries {
        out += &csv_row(summary_cells(s).into_iter());
    }
    out
}

/// Every run as CSV, one row per (configuration, program), in run order.
pub fn runs_csv(runs: &[Run]) -> String {
    let header = [
        "config",
        "program",
        "outcome",
        "violated",
        "safe",
        "safe_up_to",
        "unknown",
        "paths",
        "queries",
        "instructions_covered",
        "instructions_total",
        "time_ms",
    ];
    let mut out = csv_row(header.iter().map(|c| c.to_string()));
    for r in runs {
        out += &csv_row(
            [
                r.config.clone(),
                r.program.clone(),
                r.outcome.name().to_string(),
                r.violated.to_string(),
                r.safe.to_string(),
                r.safe_up_to.to_string(),
                r.unknown.to_string(),
                r.paths.to_string(),
                r.queries.to_string(),
                r.covered.to_string(),
                r.coverable.to_string(),
                r.time_ms.to_string(),
            ]
            .into_iter(),
        );
    }
    out
}

/// The summary and the runs as one JSON document.
pub fn to_json(
    set: &str,
    origin: &str,
    timeout_s: f64,
    summaries: &[Summary],
    runs: &[Run],
) -> String {
    #[derive(Serialize)]
    struct Document<'a> {
        set: &'a str,
        origin: &'a str,
        timeout_s: f64,
        summary: &'a [Summary],
        runs: &'a [Run],
    }
    let doc = Document {
        set,
        origin,
        timeout_s,
        summary: summaries,
        runs,
    };
    // Plain structs of strings and numbers always serialize.
    serde_json::to_string_pretty(&doc).unwrap_or_default() + "\n"
}

fn csv_row(cells: impl Iterator<Item = String>) -> String {
    let quoted: Vec<String> = cells
        .map(|c| {
            if c.contains([',', '"', '\n', '\r']) {
                format!("\"{}\"", c.replace('"', "\"\""))
            } else {
                c
            }
        })
        .collect();
    quoted.join(",") + "\n"
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(config: &str, outcome: Outcome, violated: usize, paths: u64, time_ms: u64) -> Run {
        Run {
            violated,
            paths,
            queries: paths * 2,
            covered: 3,
            coverable: 4,
            ..Run {
                outcome,
                time_ms,
                ..Run::rejected(config, "p.uc", 0)
            }
        }
    }

    fn runs() -> Vec<Run> {
        vec![
            run("plain", Outcome::Safe, 0, 4, 100),
            run("plain", Outcome::Error, 2, 1, 200),
            run("plain", Outcome::Timeout, 0, 7, 1000),
            run("sub", Outcome::Safe, 0, 1, 50),
            run("sub", Outcome::Internal, 0, 0, 10),
        ]
    }

    #[test]
    fn summaries_total_their_own_configuration() {
        let s = Summary::of("plain", "", &runs());
        assert_eq!(s.programs, 3);
        assert_eq!(s.paths, 12);
        assert_eq!(s.queries, 24);
        assert_eq!(s.errors, 2);
        assert_eq!(s.programs_with_error, 1);
        assert_eq!(s.proved_safe, 1);
        assert_eq!(s.timeouts, 1);
        assert_eq!(s.time_ms, 1300);
        assert_eq!(s.coverage_text(), "75.0 %");
        let t = Summary::of("sub", "--subsume", &runs());
        assert_eq!((t.programs, t.proved_safe, t.internal_errors), (2, 1, 1));
        assert_eq!(Summary::of("none", "", &runs()).coverage_text(), "-");
    }

    #[test]
    fn time_is_compared_on_programs_both_configurations_decided() {
        let on = |config: &str, program: &str, outcome: Outcome, time_ms: u64| Run {
            outcome,
            ..Run::rejected(config, program, time_ms)
        };
        let runs = [
            on("plain", "a.uc", Outcome::Safe, 100),
            on("plain", "b.uc", Outcome::Error, 300),
            on("plain", "c.uc", Outcome::Timeout, 1000),
            on("sub", "a.uc", Outcome::Safe, 150),
            on("sub", "b.uc", Outcome::Timeout, 1000),
            on("sub", "c.uc", Outcome::Safe, 20),
        ];
        let sub = Summary::of("sub", "", &runs).with_baseline("plain", &runs);
        assert_eq!(
            (
                sub.common_decided,
                sub.common_time_ms,
                sub.baseline_common_time_ms
            ),
            (1, 150, 100)
        );
        assert_eq!(sub.relative_time_text(), "1.50× (1)");
        let plain = Summary::of("plain", "", &runs).with_baseline("plain", &runs);
        assert_eq!(plain.relative_time_text(), "1.00× (2)");
        let none = Summary::of("x", "", &runs).with_baseline("plain", &runs);
        assert_eq!(none.relative_time_text(), "-");
    }

    #[test]
    fn markdown_has_one_row_per_configuration() {
        let summaries = [
            Summary::of("plain", "(none)", &runs()),
            Summary::of("sub", "--subsume", &runs()),
        ];
        let md = summary_markdown(&summaries);
        let lines: Vec<&str> = md.lines().collect();
        assert_eq!(lines.len(), 4);
        assert!(lines[0].starts_with("| config | flags | programs | paths |"));
        assert!(lines[1].starts_with("|---|---|---:|"));
        assert_eq!(
            lines[2],
            "| plain | `(none)` | 3 | 12 | 75.0 % | 2 | 1 | 1 | 0 | 1 | 0 | 0 | 1.3 | 24 | - |"
        );
        assert_eq!(
            lines[3],
            "| sub | `--subsume` | 2 | 1 | 75.0 % | 0 | 0 | 1 | 0 | 0 | 0 | 1 | 0.1 | 2 | - |"
        );
    }

    #[test]
    fn csv_quotes_what_needs_quoting() {
        assert_eq!(
            csv_row(["a".into(), "b,c".into(), "say \"x\"".into()].into_iter()),
            "a,\"b,c\",\"say \"\"x\"\"\"\n"
        );
        let csv = summary_csv(&[Summary::of("plain", "--search bfs", &runs())]);
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0].split(',').count(), 15);
        assert_eq!(
            lines[1],
            "plain,--search bfs,3,12,75.0 %,2,1,1,0,1,0,0,1.3,24,-"
        );
        let runs_csv = runs_csv(&runs());
        assert_eq!(runs_csv.lines().count(), 6);
        assert_eq!(
            runs_csv.lines().nth(2),
            Some("plain,p.uc,error,2,0,0,0,1,2,3,4,200")
        );
    }

    #[test]
    fn json_holds_summary_and_runs() {
        let summaries = [Summary::of("plain", "", &runs())];
        let json = to_json("s", "files", 2.0, &summaries, &runs());
        let value: serde_json::Value = serde_json::from_str(&json).expect("valid JSON");
        assert_eq!(value["set"], "s");
        assert_eq!(value["summary"][0]["proved_safe"], 1);
        assert_eq!(value["runs"].as_array().map(Vec::len), Some(5));
        assert_eq!(value["runs"][2]["outcome"], "timeout");
        assert_eq!(value["runs"][4]["outcome"], "internal-error");
    }
}
