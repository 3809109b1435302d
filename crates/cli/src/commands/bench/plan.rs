//! What a benchmark runs: program sets (files, directories of `.uc` files, or `symex gen` flags
//! with a seed range) and configurations (named `symex check` flag lists), read from an
//! experiment file (JSON, `docs/bench.md`) or from the command line. Configurations are data:
//! any flag `symex check` accepts works without a change here. Nothing here runs a check.

use super::super::check::CheckArgs;
use super::super::gen::{program_text, GenArgs};
use crate::source;
use clap::Parser;
use serde::Deserialize;
use std::path::Path;

/// An experiment file: the sets, the configurations and the per-program time limit.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExperimentFile {
    /// A heading for the combined summary.
    #[serde(default)]
    pub title: Option<String>,
    /// Per-program time limit in seconds (`--timeout` overrides it).
    #[serde(default)]
    pub timeout: Option<f64>,
    pub sets: Vec<SetSpec>,
    pub configs: Vec<ConfigSpec>,
}

/// A program set as written: files and directories, or generator flags and seeds.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SetSpec {
    pub name: String,
    #[serde(default)]
    pub files: Vec<String>,
    /// `symex gen` flags (without `--seed`, `--count`, `--out`).
    #[serde(default)]
    pub gen: Option<String>,
    /// Seeds `A..B` (B excluded) of the generated programs.
    #[serde(default)]
    pub seeds: Option<String>,
}

/// A configuration as written: a name and the `symex check` flags it stands for.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConfigSpec {
    pub name: String,
    #[serde(default)]
    pub flags: String,
}

/// One program to check: a display name (its path, or `gen_<seed>.uc`) and its text.
pub struct Program {
    pub name: String,
    pub text: String,
}

/// A resolved program set.
pub struct ProgramSet {
    pub name: String,
    /// Where the programs come from (the generator flags and seeds, or the paths).
    pub origin: String,
    pub programs: Vec<Program>,
}

/// A validated configuration: its flags are known to parse as `symex check` flags.
#[derive(Clone, Debug)]
pub struct Config {
    pub name: String,
    pub flags: Vec<String>,
}

/// `symex gen`'s flags as a command line of their own.
#[derive(Parser)]
#[command(name = "symex gen", no_binary_name = true)]
struct GenLine {
    #[command(flatten)]
    args: GenArgs,
}

impl Config {
    /// Checks a configuration: a usable name and flags that `symex check` accepts, without
    /// `--timeout` (the bench sets the per-program limit).
    pub fn new(spec: &ConfigSpec) -> Result<Config, String> {
        check_name("configuration", &spec.name)?;
        let flags: Vec<String> = spec.flags.split_whitespace().map(String::from).collect();
        let config = Config {
            name: spec.name.clone(),
            flags,
        };
        let args = config
            .check_args("PROGRAM.uc", None)
            .map_err(|e| format!("configuration `{}`: {e}", spec.name))?;
        if args.timeout.is_some() {
            return Err(format!(
                "configuration `{}`: give the per-program time limit with `symex bench --timeout`, not in the configuration",
                spec.name
            ));
        }
        Ok(config)
    }

    /// Parses `NAME=FLAGS` (the `--config` option).
    pub fn from_option(text: &str) -> Result<Config, String> {
        let (name, flags) = text.split_once('=').ok_or_else(|| {
            format!("--config `{text}`: expected NAME=FLAGS, e.g. subsume=\"--subsume\"")
        })?;
        Config::new(&ConfigSpec {
            name: name.trim().to_string(),
            flags: flags.to_string(),
        })
    }

    /// The `symex check` arguments of this configuration for `program`, with the time limit.
    pub fn check_args(&self, program: &str, timeout: Option<f64>) -> Result<CheckArgs, String> {
        let mut line = self.flags.clone();
        line.push(program.to_string());
        let mut args = CheckArgs::from_words(line).map_err(|e| first_line(&e.to_string()))?;
        if timeout.is_some() {
            args.timeout = timeout;
        }
        Ok(args)
    }

    /// The flags as one string, for tables.
    pub fn flag_text(&self) -> String {
        if self.flags.is_empty() {
            "(none)".into()
        } else {
            self.flags.join(" ")
        }
    }
}

/// A clap error's message without its usage lines.
fn first_line(message: &str) -> String {
    message
        .lines()
        .next()
        .unwrap_or(message)
        .trim_start_matches("error: ")
        .to_string()
}

/// Set and configuration names become file names and table cells: keep them plain.
fn check_name(what: &str, name: &str) -> Result<(), String> {
    let plain = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '+'))
        && !name.starts_with('.');
    if plain {
        Ok(())
    } else {
        Err(format!(
            "{what} name `{name}`: use letters, digits, `-`, `_`, `.` and `+` only"
        ))
    }
}

/// Parses `A..B` into the seeds A, A+1, …, B-1.
pub fn parse_seeds(text: &str) -> Result<std::ops::Range<u64>, String> {
    let bad = || format!("seeds `{text}`: expected A..B with A < B, e.g. 0..40");
    let (a, b) = text.split_once("..").ok_or_else(bad)?;
    let a: u64 = a.trim().parse().map_err(|_| bad())?;
    let b: u64 = b.trim().parse().map_err(|_| bad())?;
    if a < b {
        Ok(a..b)
    } else {
        Err(bad())
    }
}

impl SetSpec {
    /// Reads or generates the set's programs, in a fixed order (files as listed, a directory's
    /// `.uc` files by name, generated programs by seed).
    pub fn resolve(&self) -> Result<ProgramSet, String> {
        check_name("set", &self.name)?;
        let context = |e: String| format!("set `{}`: {e}", self.name);
        let mut programs = Vec::new();
        let mut origin = Vec::new();
        for path in &self.files {
            programs.extend(files_at(path).map_err(context)?);
            origin.push(path.clone());
        }
        match (&self.gen, &self.seeds) {
            (Some(flags), seeds) => {
                let seeds = parse_seeds(seeds.as_deref().unwrap_or("0..10")).map_err(context)?;
                programs.extend(generated(flags, seeds.clone()).map_err(context)?);
                origin.push(format!(
                    "symex gen --seed S {} for S in {}..{}",
                    flags.trim(),
                    seeds.start,
                    seeds.end
                ));
            }
            (None, Some(_)) => return Err(context("`seeds` needs `gen`".into())),
            (None, None) => {}
        }
        if programs.is_empty() {
            return Err(context("no programs (give `files` or `gen`)".into()));
        }
        Ok(ProgramSet {
            name: self.name.clone(),
            origin: origin.join("; "),
            programs,
        })
    }
}

/// The program at `path`, or the `.uc` files directly inside the directory `path`, by name.
fn files_at(path: &str) -> Result<Vec<Program>, String> {
    let load = |p: &str| {
        source::load(p).map(|file| Program {
            name: file.name,
            text: file.text,
        })
    };
    if !Path::new(path).is_dir() {
        return Ok(vec![load(path)?]);
    }
    let entries = std::fs::read_dir(path).map_err(|e| format!("cannot read `{path}`: {e}"))?;
    let mut paths = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|e| format!("cannot read `{path}`: {e}"))?;
        let p = entry.path();
        if p.extension().is_some_and(|ext| ext == "uc") && p.is_file() {
            paths.push(p.to_string_lossy().into_owned());
        }
    }
    paths.sort();
    if paths.is_empty() {
        return Err(format!("`{path}` holds no `.uc` file"));
    }
    paths.iter().map(|p| load(p)).collect()
}

/// The programs `symex gen FLAGS --seed s` prints, for every seed of `seeds`.
fn generated(flags: &str, seeds: std::ops::Range<u64>) -> Result<Vec<Program>, String> {
    let words: Vec<&str> = flags.split_whitespace().collect();
    if let Some(word) = words
        .iter()
        .find(|w| ["--seed", "--count", "--out"].contains(&w.split('=').next().unwrap_or(w)))
    {
        return Err(format!(
            "`gen` flags must not contain `{word}` (the set's seeds choose the programs)"
        ));
    }
    let args = GenLine::try_parse_from(words)
        .map_err(|e| format!("`gen` flags: {}", first_line(&e.to_string())))?
        .args;
    let config = args
        .checked_config()
        .map_err(|e| format!("`gen` flags: {e}"))?;
    Ok(seeds
        .map(|seed| Program {
            name: format!("gen_{seed}.uc"),
            text: program_text(&config, seed),
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_are_half_open_ranges() {
        assert_eq!(parse_seeds("3..6"), Ok(3..6));
        assert!(parse_seeds("6..6").is_err());
        assert!(parse_seeds("x..2").is_err());
        assert!(parse_seeds("4").is_err());
    }

    #[test]
    fn configurations_accept_check_flags_only() {
        let c = Config::from_option("both=--subsume --summarize").expect("valid");
        assert_eq!(c.name, "both");
        assert_eq!(c.flags, ["--subsume", "--summarize"]);
        let args = c.check_args("p.uc", Some(2.5)).expect("parses");
        assert!(args.subsume && args.summarize);
        assert_eq!(args.timeout, Some(2.5));
        assert_eq!(args.file, "p.uc");
        assert_eq!(
            Config::from_option("plain=").expect("valid").flag_text(),
            "(none)"
        );
        let bad = Config::from_option("x=--no-such-flag").expect_err("unknown flag");
        assert!(
            bad.contains("configuration `x`") && bad.contains("--no-such-flag"),
            "{bad}"
        );
        assert!(Config::from_option("x=--timeout 3").is_err());
        assert!(Config::from_option("--subsume").is_err());
        assert!(Config::from_option("a b=--subsume").is_err());
    }

    #[test]
    fn generated_sets_are_the_programs_symex_gen_prints() {
        let spec = SetSpec {
            name: "g".into(),
            files: vec![],
            gen: Some("--functions 0 --statements 2".into()),
            seeds: Some("5..7".into()),
        };
        let set = spec.resolve().expect("valid");
        let names: Vec<&str> = set.programs.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["gen_5.uc", "gen_6.uc"]);
        assert!(set.programs[0]
            .text
            .starts_with("// symex gen --seed 5 --functions 0 --statements 2 "));
        let with_seed = SetSpec {
            gen: Some("--seed 3".into()),
            ..spec
        };
        assert!(with_seed.resolve().is_err());
    }
}
