//! `symex bench`: runs program sets under a list of configurations, each run with a
//! per-program time limit, and writes per-set tables (Markdown, CSV, JSON) and a plot (SVG).
//!
//! Runs are in process and one at a time: each goes through [`check::check_source`], exactly
//! what `symex check` runs, with the configuration's flags and `--timeout`, so a table's row
//! can be reproduced with `symex check`. The engine enforces the time limit itself (solver
//! queries included); memory can be bounded with `--max-memory` in a configuration. Nothing
//! here decides a verdict or changes an engine's behaviour.

mod plan;
mod svg;
mod table;

use super::check;
use crate::exit::Exit;
use crate::source::{ColorChoice, SourceFile};
use plan::{Config, ConfigSpec, ExperimentFile, ProgramSet, SetSpec};
use std::fmt::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;
use table::{Run, Summary};

/// The per-program time limit when neither the command line nor the experiment file gives one.
const DEFAULT_TIMEOUT_S: f64 = 10.0;

#[derive(clap::Args)]
pub struct BenchArgs {
    /// Programs: `.uc` files, or directories whose `.uc` files are taken (one set, `programs`).
    pub paths: Vec<String>,
    /// An experiment file (JSON): program sets, configurations, time limit (docs/bench.md).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["paths", "gen", "configs"])]
    pub experiment: Option<PathBuf>,
    /// Generate the programs with these `symex gen` flags (one set, `generated`).
    #[arg(long, value_name = "FLAGS", allow_hyphen_values = true)]
    pub gen: Option<String>,
    /// The seeds of the generated programs, `A..B` (B excluded).
    #[arg(long, value_name = "A..B", default_value = "0..10", requires = "gen")]
    pub seeds: String,
    /// A configuration `NAME=FLAGS` (`symex check` flags, e.g. `sub="--subsume"`); repeat it.
    #[arg(long = "config", value_name = "NAME=FLAGS", allow_hyphen_values = true)]
    pub configs: Vec<String>,
    /// Per-program time limit in seconds (default: the experiment's, else 10).
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true)]
    pub timeout: Option<f64>,
    /// Only these sets of the experiment file (repeat it); default all.
    #[arg(long = "set", value_name = "NAME", requires = "experiment")]
    pub sets: Vec<String>,
    /// Write `DIR/<set>/{summary.md,summary.csv,summary.json,runs.csv,plot.svg}` and
    /// `DIR/summary.md`; without it the summary goes to stdout only.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
}

/// Everything to run, resolved and validated before the first run.
struct Plan {
    title: String,
    timeout_s: f64,
    sets: Vec<ProgramSet>,
    configs: Vec<Config>,
}

pub fn run(args: &BenchArgs) -> Exit {
    let plan = match plan(args) {
        Ok(plan) => plan,
        Err(message) => {
            diag!("error: {message}");
            return Exit::Usage;
        }
    };
    let mut combined = format!(
        "# {}\n\nPer-program time limit {} s; configurations run in process, one program at a \
         time (`symex bench`, docs/bench.md).\n",
        plan.title, plan.timeout_s
    );
    let mut internal_errors = 0;
    for set in &plan.sets {
        let runs = run_set(set, &plan);
        internal_errors += runs
            .iter()
            .filter(|r| r.outcome == table::Outcome::Internal)
            .count();
        let summaries: Vec<Summary> = plan
            .configs
            .iter()
            .map(|c| {
                Summary::of(&c.name, &c.flag_text(), &runs)
                    .with_baseline(&plan.configs[0].name, &runs)
            })
            .collect();
        let section = format!(
            "\n## {} ({} programs)\n\nPrograms: `{}`\n\n{}",
            set.name,
            set.programs.len(),
            set.origin,
            table::summary_markdown(&summaries)
        );
        crate::stdout::print(&section);
        combined += &section;
        if let Some(dir) = &args.out {
            if let Err(message) = write_set(&dir.join(&set.name), set, &plan, &summaries, &runs) {
                diag!("error: {message}");
                return Exit::Usage;
            }
        }
    }
    if let Some(dir) = &args.out {
        let path = dir.join("summary.md");
        if let Err(e) = std::fs::write(&path, combined) {
            diag!("error: cannot write `{}`: {e}", path.display());
            return Exit::Usage;
        }
    }
    if internal_errors > 0 {
        // An unconfirmed counterexample is a bug in symex: the tables are written, but the
        // exit code must not let a script take the run for a clean one.
        diag!("error: {internal_errors} run(s) ended with an internal error (see the tables)");
        return Exit::Internal;
    }
    Exit::Success
}

/// The plan from the experiment file or from the command line.
fn plan(args: &BenchArgs) -> Result<Plan, String> {
    let (title, file_timeout, set_specs, configs) = match &args.experiment {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| format!("cannot read `{}`: {e}", path.display()))?;
            let file: ExperimentFile =
                serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
            let mut sets = file.sets;
            if let Some(missing) = args
                .sets
                .iter()
                .find(|n| !sets.iter().any(|s| &s.name == *n))
            {
                return Err(format!("{}: no set named `{missing}`", path.display()));
            }
            if !args.sets.is_empty() {
                sets.retain(|s| args.sets.contains(&s.name));
            }
            let configs = file
                .configs
                .iter()
                .map(Config::new)
                .collect::<Result<Vec<_>, _>>()?;
            let title = file.title.unwrap_or_else(|| path.display().to_string());
            (title, file.timeout, sets, configs)
        }
        None => {
            let mut sets = Vec::new();
            if !args.paths.is_empty() {
                sets.push(SetSpec {
                    name: "programs".into(),
                    files: args.paths.clone(),
                    gen: None,
                    seeds: None,
                });
            }
            if let Some(flags) = &args.gen {
                sets.push(SetSpec {
                    name: "generated".into(),
                    files: Vec::new(),
                    gen: Some(flags.clone()),
                    seeds: Some(args.seeds.clone()),
                });
            }
            let configs = args
                .configs
                .iter()
                .map(|c| Config::from_option(c))
                .collect::<Result<Vec<_>, _>>()?;
            ("symex bench".to_string(), None, sets, configs)
        }
    };
    if set_specs.is_empty() {
        return Err("no programs: give files or directories, --gen, or --experiment".into());
    }
    let timeout_s = args.timeout.or(file_timeout).unwrap_or(DEFAULT_TIMEOUT_S);
    if let Some(why) = super::time_limit_error(timeout_s) {
        return Err(format!("the time limit {why}"));
    }
    let configs = if configs.is_empty() {
        vec![Config::new(&ConfigSpec {
            name: "default".into(),
            flags: String::new(),
        })?]
    } else {
        configs
    };
    if let Some(dup) = configs
        .iter()
        .enumerate()
        .find(|(i, c)| configs[..*i].iter().any(|d| d.name == c.name))
    {
        return Err(format!("two configurations are named `{}`", dup.1.name));
    }
    let sets = set_specs
        .iter()
        .map(SetSpec::resolve)
        .collect::<Result<Vec<_>, _>>()?;
    if let Some((i, set)) = sets
        .iter()
        .enumerate()
        .find(|(i, s)| sets[..*i].iter().any(|t| t.name == s.name))
    {
        return Err(format!(
            "set {} is named `{}` like an earlier set",
            i + 1,
            set.name
        ));
    }
    Ok(Plan {
        title,
        timeout_s,
        sets,
        configs,
    })
}

/// Every configuration on every program of `set`, configuration by configuration.
fn run_set(set: &ProgramSet, plan: &Plan) -> Vec<Run> {
    let limit_ms = (plan.timeout_s * 1000.0).round() as u64;
    let mut runs = Vec::new();
    for config in &plan.configs {
        for program in &set.programs {
            let start = Instant::now();
            let file = SourceFile {
                name: program.name.clone(),
                text: program.text.clone(),
            };
            let report = config
                .check_args(&program.name, Some(plan.timeout_s))
                .map_err(|e| diag!("error: {e}"))
                .and_then(|args| {
                    check::check_source(&args, &file, ColorChoice::Never, &check::Sinks::default())
                        .map_err(|_| ())
                });
            let time_ms = start.elapsed().as_millis() as u64;
            let run = match report {
                Ok(report) => {
                    Run::from_report(&config.name, &program.name, &report, limit_ms, time_ms)
                }
                Err(()) => Run::rejected(&config.name, &program.name, time_ms),
            };
            diag!(
                "{} / {} / {}: {} ({} ms, {} paths)",
                set.name,
                config.name,
                program.name,
                run.outcome.name(),
                run.time_ms,
                run.paths
            );
            runs.push(run);
        }
    }
    runs
}

/// Writes one set's tables and plot into `dir`.
fn write_set(
    dir: &Path,
    set: &ProgramSet,
    plan: &Plan,
    summaries: &[Summary],
    runs: &[Run],
) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create `{}`: {e}", dir.display()))?;
    let names: Vec<String> = plan.configs.iter().map(|c| c.name.clone()).collect();
    let mut md = String::new();
    let _ = writeln!(
        md,
        "# {}: {} programs, time limit {} s\n\nPrograms: `{}`\n",
        set.name,
        set.programs.len(),
        plan.timeout_s,
        set.origin
    );
    md += &table::summary_markdown(summaries);
    let _ = writeln!(md, "\n![programs decided over time](plot.svg)");
    let files = [
        ("summary.md", md),
        ("summary.csv", table::summary_csv(summaries)),
        (
            "summary.json",
            table::to_json(&set.name, &set.origin, plan.timeout_s, summaries, runs),
        ),
        ("runs.csv", table::runs_csv(runs)),
        (
            "plot.svg",
            svg::decided_over_time(
                &format!("{}: programs decided within t", set.name),
                &names,
                runs,
                set.programs.len(),
                plan.timeout_s,
            ),
        ),
    ];
    for (name, text) in files {
        let path = dir.join(name);
        std::fs::write(&path, text)
            .map_err(|e| format!("cannot write `{}`: {e}", path.display()))?;
    }
    Ok(())
}
