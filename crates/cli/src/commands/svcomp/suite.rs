//! `symex svcomp --suite DIR`: every task under `DIR` with a ground truth for the property
//! (`--property`, default `unreach-call`), each checked by a `symex svcomp TASK --stats` process
//! with the time limit, scored with SV-COMP's scheme (+2 a correct TRUE, +1 a correct FALSE,
//! -32 a wrong TRUE, -16 a wrong FALSE, 0 UNKNOWN) into one table (Markdown, CSV or JSON) with
//! the time and peak memory of each task. A wrong answer is a bug in symex: the command then
//! exits 101. Nothing here checks a program itself.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use serde::Serialize;

use super::{read_task, SvcompArgs};
use crate::exit::Exit;

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum TableFormat {
    Markdown,
    Csv,
    Json,
}

#[derive(Serialize)]
struct Row {
    task: String,
    expected: bool,
    /// The violated sub-property of an expected `FALSE` (`valid-deref`).
    #[serde(skip_serializing_if = "Option::is_none")]
    expected_subproperty: Option<String>,
    /// `TRUE`, `FALSE`, `FALSE(<sub-property>)`, `UNKNOWN`, or `ERROR` where the task's run
    /// gave no answer.
    answer: String,
    /// Why the run gave no answer (its first error line).
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
    /// `correct`, `wrong`, `unknown` or `error` (0 points, as an unknown).
    outcome: &'static str,
    points: i32,
    millis: u64,
    peak_kib: Option<u64>,
}

/// Every `.yml` file under `dir`, sorted.
fn task_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(folder) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&folder) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|e| e == "yml") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// The outcome and points of `answer` (`TRUE`, `FALSE`, `FALSE(<sub-property>)` or
/// `UNKNOWN`) against the expected verdict and, for `FALSE`, its sub-property: a `FALSE` that
/// names another sub-property is wrong.
fn points(expected: bool, subproperty: Option<&str>, answer: &str) -> (&'static str, i32) {
    let answered_sub = answer
        .strip_prefix("FALSE(")
        .and_then(|rest| rest.strip_suffix(')'));
    let is_false = answer == "FALSE" || answered_sub.is_some();
    match (expected, answer) {
        (true, "TRUE") => ("correct", 2),
        (false, "TRUE") => ("wrong", -32),
        (true, _) if is_false => ("wrong", -16),
        (false, _) if is_false => match (subproperty, answered_sub) {
            (Some(expected), Some(answered)) if expected != answered => ("wrong", -16),
            _ => ("correct", 1),
        },
        _ => ("unknown", 0),
    }
}

/// Runs one task in its own process.
fn check(
    task: &Path,
    name: &str,
    property: &str,
    (expected, subproperty): (bool, Option<&str>),
    args: &SvcompArgs,
) -> Row {
    let exe = std::env::current_exe().unwrap_or_else(|_| PathBuf::from("symex"));
    let timeout = args.timeout.to_string();
    let out = Command::new(exe)
        .args([
            "--color",
            "never",
            "svcomp",
            "--stats",
            "--property",
            property,
        ])
        .args(["--timeout", &timeout])
        .arg(task)
        .output();
    let (answer, millis, peak_kib) = match out {
        Ok(out) => {
            let stdout = String::from_utf8_lossy(&out.stdout);
            let stderr = String::from_utf8_lossy(&out.stderr);
            let answer = stdout
                .lines()
                .find_map(|l| l.strip_prefix(&format!("{property}: ")))
                .map(|a| a.split(' ').next().unwrap_or("UNKNOWN").to_string())
                .ok_or_else(|| {
                    let first = stderr.lines().find_map(|l| l.strip_prefix("error: "));
                    let code = out
                        .status
                        .code()
                        .map_or("a signal".into(), |c| c.to_string());
                    first.map_or_else(|| format!("exit {code}"), str::to_string)
                });
            let stats = stderr.lines().find_map(|l| l.strip_prefix("stats: "));
            let number = |text: Option<&str>| text.and_then(|t| t.trim().parse::<u64>().ok());
            let millis = number(stats.and_then(|s| s.split(" ms").next()));
            let kib = number(stats.and_then(|s| s.split(", ").nth(1)?.split(" KiB").next()));
            (answer, millis.unwrap_or(0), kib)
        }
        Err(e) => (Err(format!("cannot run symex: {e}")), 0, None),
    };
    let (answer, error) = match answer {
        Ok(answer) => (answer, None),
        Err(why) => ("ERROR".to_string(), Some(why)),
    };
    let (outcome, points) = match error {
        Some(_) => ("error", 0),
        None => points(expected, subproperty, &answer),
    };
    Row {
        task: name.to_string(),
        expected,
        expected_subproperty: subproperty.filter(|_| !expected).map(str::to_string),
        answer,
        error,
        outcome,
        points,
        millis,
        peak_kib,
    }
}

pub fn run(dir: &Path, args: &SvcompArgs) -> Exit {
    let property = args
        .property
        .clone()
        .unwrap_or_else(|| "unreach-call".into());
    if !dir.is_dir() {
        diag!("error: `{}` is not a folder of tasks", dir.display());
        return Exit::Usage;
    }
    let mut jobs = Vec::new();
    for file in task_files(dir) {
        let task = match read_task(&file) {
            Ok(task) => task,
            Err(why) => {
                diag!("warning: skipping `{}`: {why}", file.display());
                continue;
            }
        };
        let properties = task.resolved(&file);
        let entry = (properties.iter())
            .find(|p| p.name == property)
            .map(|p| p.entry);
        if let Some((expected, entry)) = entry.and_then(|p| Some((p.expected_verdict?, p))) {
            let name = file.strip_prefix(dir).unwrap_or(&file).with_extension("");
            let name = name.to_string_lossy().into_owned();
            jobs.push((file.clone(), name, expected, entry.subproperty.clone()));
        }
    }
    if jobs.is_empty() {
        diag!(
            "error: no task under `{}` states a verdict for `{property}`",
            dir.display()
        );
        return Exit::Usage;
    }
    let next = AtomicUsize::new(0);
    let rows: Mutex<Vec<(usize, Row)>> = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..args.jobs.unwrap_or(1).max(1) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some((file, name, expected, subproperty)) = jobs.get(i) else {
                    break;
                };
                let expected = (*expected, subproperty.as_deref());
                let row = check(file, name, &property, expected, args);
                rows.lock().expect("no panic holds it").push((i, row));
            });
        }
    });
    let mut rows = rows.into_inner().expect("no panic holds it");
    rows.sort_by_key(|(i, _)| *i);
    let rows: Vec<Row> = rows.into_iter().map(|(_, row)| row).collect();
    crate::stdout::print(&render(&rows, &property, args));
    if rows.iter().any(|r| r.outcome == "wrong") {
        diag!("internal error: symex answered wrongly (see the `wrong` rows)");
        return Exit::Internal;
    }
    if let Some(failed) = rows.iter().find(|r| r.outcome == "error") {
        diag!(
            "error: the task `{}` gave no answer: {}",
            failed.task,
            failed.error.as_deref().unwrap_or_default()
        );
        return Exit::ProgramError;
    }
    Exit::Success
}

fn render(rows: &[Row], property: &str, args: &SvcompArgs) -> String {
    let count = |outcome: &str, answer: &str| {
        rows.iter()
            .filter(|r| {
                // `FALSE(valid-deref)` is a `FALSE` too.
                let named = r.answer == answer || r.answer.starts_with(&format!("{answer}("));
                r.outcome == outcome && (answer.is_empty() || named)
            })
            .count()
    };
    let score: i32 = rows.iter().map(|r| r.points).sum();
    let seconds: f64 = rows.iter().map(|r| r.millis as f64 / 1000.0).sum();
    match args.format.unwrap_or(TableFormat::Markdown) {
        TableFormat::Json => {
            let doc = serde_json::json!({
                "property": property,
                "timeout_s": args.timeout,
                "score": score,
                "tasks": rows,
            });
            format!(
                "{}\n",
                serde_json::to_string_pretty(&doc).unwrap_or_default()
            )
        }
        TableFormat::Csv => {
            let mut out = String::from("task,expected,answer,outcome,points,time_s,peak_mib\n");
            for r in rows {
                out.push_str(&cells(r).join(","));
                out.push('\n');
            }
            out
        }
        TableFormat::Markdown => {
            let mut out = format!(
                "`{property}`, {} s per task: **score {score}**; {} correct ({} TRUE, {} FALSE), \
                 {} wrong, {} unknown, {} without an answer, of {} tasks; {seconds:.1} s in all\n\n",
                args.timeout,
                count("correct", ""),
                count("correct", "TRUE"),
                count("correct", "FALSE"),
                count("wrong", ""),
                count("unknown", ""),
                count("error", ""),
                rows.len()
            );
            out.push_str(
                "| task | expected | answer | outcome | points | time (s) | peak memory (MiB) |\n",
            );
            out.push_str("|---|---|---|---|---:|---:|---:|\n");
            for r in rows {
                out.push_str(&format!("| {} |\n", cells(r).join(" | ")));
            }
            out
        }
    }
}

/// A row's columns as text, for both table formats.
fn cells(r: &Row) -> Vec<String> {
    vec![
        r.task.clone(),
        match (r.expected, &r.expected_subproperty) {
            (true, _) => "TRUE".to_string(),
            (false, Some(sub)) => format!("FALSE({sub})"),
            (false, None) => "FALSE".to_string(),
        },
        r.answer.clone(),
        r.outcome.to_string(),
        r.points.to_string(),
        format!("{:.2}", r.millis as f64 / 1000.0),
        r.peak_kib
            .map_or_else(|| "?".into(), |k| format!("{:.1}", k as f64 / 1024.0)),
    ]
}
