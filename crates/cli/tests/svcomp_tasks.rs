//! SV-COMP's public tasks (vendored in `vendor/sv-comp`, ground truth in `MANIFEST.tsv`) through
//! `symex svcomp TASK.yml --property P` with a short time limit, for the properties symex
//! answers (`unreach-call`, `no-overflow`, `valid-memsafety`). A wrong answer (`TRUE` where the
//! property is violated, `FALSE` where it holds or with another sub-property) or a crash fails
//! the test; a task outside the supported
//! C subset must be refused cleanly (`unsupported: …` on stderr), which scores as UNKNOWN. The
//! number of correct answers per property may only go up. Every `FALSE` must come with a
//! violation witness whose inputs, run by `symex run`, fail at its target line.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// Seconds per task (the CI machine has two cores; two tasks run at a time).
const TIMEOUT: &str = "2";

/// The properties checked, with the correct answers on the development machine (see
/// docs/c-frontend.md) as a regression guard, a few below the measured counts: at 2 s per
/// task, back-to-back runs differ by up to three answers.
const PROPERTIES: [(&str, usize); 3] = [
    ("unreach-call", 55),
    ("no-overflow", 21),
    ("valid-memsafety", 12),
];

/// Tasks whose expected verdict contradicts C for the file as vendored, with the answer C
/// gives. Both compute with the literal `2147483648`, a `long` in LP64 (a `long long` in
/// ILP32), so `(-2147483648 + -1) + 23` and `(-2147483648 / -1) - 1` are 64-bit arithmetic
/// without overflow whose results fit `int` (gcc with `-fsanitize=undefined` agrees); the
/// ground truth `false` belongs to the original source, where `int minInt = -2147483647 - 1;`
/// makes the operations `int`s. symex answers what C says (BENCHMARKS.md, "Session 29").
const DISPUTED: [(&str, &str, Answer); 2] = [
    (
        "no-overflow",
        "signedintegeroverflow-regression/AdditionIntMin",
        Answer::True,
    ),
    (
        "no-overflow",
        "signedintegeroverflow-regression/Division-1",
        Answer::True,
    ),
];

fn sv_comp_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../vendor/sv-comp")
}

/// What `symex svcomp` answered.
#[derive(Debug, PartialEq)]
enum Answer {
    True,
    /// With the sub-property, where the property has them (`valid-deref`).
    False(Option<String>),
    Unknown,
    /// UNKNOWN because the program is outside the supported subset.
    Refused,
}

/// One task's answer for `property`, or what went wrong.
fn run_task(task: &Task, property: &str) -> Result<Answer, String> {
    let (yml, program, data_model) = (&task.yml, &task.program, task.data_model.as_str());
    let task = task.name.as_str();
    let witness = std::env::temp_dir().join(format!(
        "symex-witness-{}-{}-{property}.yml",
        std::process::id(),
        task.replace('/', "_")
    ));
    let out = Command::new(env!("CARGO_BIN_EXE_symex"))
        .args([
            "svcomp",
            "--property",
            property,
            "--timeout",
            TIMEOUT,
            "--witness",
        ])
        .args([&witness, yml])
        .output()
        .expect("symex runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let line = stdout.trim();
    let answer = line
        .strip_prefix(property)
        .and_then(|a| a.strip_prefix(": "));
    let answer = match (out.status.code(), answer) {
        (Some(0), Some("TRUE")) => Answer::True,
        (Some(10), Some(a)) if a.starts_with("FALSE") => {
            check_witness(&witness, program, property, data_model)
                .map_err(|e| format!("{task}: {e}"))?;
            let sub = a.strip_prefix("FALSE(").and_then(|s| s.strip_suffix(')'));
            Answer::False(sub.map(String::from))
        }
        (Some(20), Some(a)) if a.starts_with("UNKNOWN (the program is outside") => {
            if !stderr.starts_with("unsupported: ") {
                return Err(format!("{task}: refused without saying what: {stderr}"));
            }
            Answer::Refused
        }
        (Some(20), Some(a)) if a.starts_with("UNKNOWN") => Answer::Unknown,
        (code, _) => return Err(format!("{task}: exit {code:?}, `{line}`: {stderr}")),
    };
    std::fs::remove_file(&witness).ok();
    Ok(answer)
}

/// The `__VERIFIER_nondet_*` function whose call closes at `line`:`column` (from 1).
fn callee_at(text: &str, line: Option<u64>, column: Option<u64>) -> String {
    let (Some(line), Some(column)) = (line, column) else {
        return String::new();
    };
    let Some(line) = text.lines().nth(line as usize - 1) else {
        return String::new();
    };
    let before = &line[..(column as usize).min(line.len())];
    match before.rfind("__VERIFIER_nondet_") {
        Some(at) => before[at..]
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect(),
        None => String::new(),
    }
}

/// Whether the input function returns a 64-bit type in the data model (`ilp32` or `lp64`).
fn wide_nondet(callee: &str, data_model: &str) -> bool {
    match callee.trim_start_matches("__VERIFIER_nondet_") {
        "longlong" | "ulonglong" => true,
        "long" | "ulong" | "size_t" => data_model != "ilp32",
        _ => false,
    }
}

/// Reads a violation witness back: its `\result == v` values, run by `symex run` as the
/// program's inputs, must fail at the line of its `target` waypoint.
fn check_witness(
    witness: &Path,
    program: &Path,
    property: &str,
    data_model: &str,
) -> Result<(), String> {
    let text = std::fs::read_to_string(witness).map_err(|e| format!("no witness: {e}"))?;
    let entries: serde_yaml_ng::Value =
        serde_yaml_ng::from_str(&text).map_err(|e| format!("the witness is no YAML: {e}"))?;
    let entry = &entries[0];
    if entry["entry_type"].as_str() != Some("violation_sequence")
        || entry["metadata"]["format_version"].as_str() != Some("2.0")
    {
        return Err(format!("not a format 2.0 violation witness:\n{text}"));
    }
    let text = std::fs::read_to_string(program).map_err(|e| format!("no program: {e}"))?;
    let mut inputs = Vec::new();
    let mut target = None;
    for segment in entry["content"].as_sequence().into_iter().flatten() {
        let waypoint = &segment["segment"][0]["waypoint"];
        match waypoint["type"].as_str() {
            Some("function_return") => {
                let value = waypoint["constraint"]["value"].as_str().unwrap_or("");
                let number = value
                    .strip_prefix("\\result == ")
                    .and_then(|n| n.parse::<i128>().ok())
                    .ok_or_else(|| format!("a constraint that is not `\\result == N`: {value}"))?;
                let location = &waypoint["location"];
                let callee = callee_at(
                    &text,
                    location["line"].as_u64(),
                    location["column"].as_u64(),
                );
                // `symex run` reads 32-bit inputs: an unsigned value wraps to its bits, and a
                // 64-bit one is two inputs, the high half first.
                if wide_nondet(&callee, data_model) {
                    inputs.push(((number >> 32) as i32).to_string());
                }
                inputs.push((number as i32).to_string());
            }
            Some("target") => target = waypoint["location"]["line"].as_u64(),
            other => return Err(format!("an unexpected waypoint {other:?}")),
        }
    }
    let target = target.ok_or("no target waypoint")?;
    let mut run = Command::new(env!("CARGO_BIN_EXE_symex"));
    run.arg("run").arg(program);
    if !inputs.is_empty() {
        run.arg(format!("--input={}", inputs.join(",")));
    }
    run.args(["--data-model", data_model]);
    if property == "no-overflow" {
        run.arg("--signed-overflow");
    }
    if property != "unreach-call" {
        run.arg("--ordinary-error-calls");
    }
    if property == "valid-memsafety" {
        run.arg("--memory-leaks");
    }
    let out = run.env("NO_COLOR", "1").output().expect("symex runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let name = program.file_name().unwrap_or_default().to_string_lossy();
    if out.status.code() != Some(3) || !stderr.contains(&format!("{name}:{target}:")) {
        return Err(format!(
            "the witness's inputs {inputs:?} do not fail at line {target}: {stderr}"
        ));
    }
    Ok(())
}

/// The expected verdict of every task for `property`, from the manifest: `unreach_call` and
/// `valid_memsafety` have their own columns, the others are `name:verdict` items of
/// `other_properties`.
fn tasks_for(property: &str) -> Vec<Task> {
    let dir = sv_comp_dir();
    let manifest = std::fs::read_to_string(dir.join("MANIFEST.tsv")).expect("the manifest");
    let mut tasks = Vec::new();
    for row in manifest.lines().skip(1) {
        let columns: Vec<&str> = row.split('\t').collect();
        let task = columns[0];
        let expected = match property {
            "unreach-call" => Some(columns[2]),
            "valid-memsafety" => Some(columns[3]),
            _ => columns[9]
                .split(';')
                .find_map(|item| item.strip_prefix(property)?.strip_prefix(':')),
        };
        let expected = match expected {
            Some("true") => Answer::True,
            Some("false") => Answer::False(None),
            Some(other) => match other.strip_prefix("false(") {
                Some(sub) => Answer::False(Some(sub.trim_end_matches(')').to_string())),
                None => continue,
            },
            _ => continue,
        };
        let yml = dir.join(format!("{task}.yml"));
        let program = yml.with_file_name(columns[1]);
        tasks.push(Task {
            name: task.to_string(),
            yml,
            program,
            expected,
            data_model: columns[4].to_lowercase(),
        });
    }
    tasks
}

struct Task {
    name: String,
    yml: PathBuf,
    program: PathBuf,
    expected: Answer,
    /// `ilp32` or `lp64`, as `symex run --data-model` takes it.
    data_model: String,
}

#[test]
fn tasks_get_no_wrong_answer() {
    let tasks: Vec<(&str, usize, Task)> = PROPERTIES
        .iter()
        .enumerate()
        .flat_map(|(p, (property, _))| {
            tasks_for(property)
                .into_iter()
                .map(move |t| (*property, p, t))
        })
        .collect();
    // Two tasks at a time: the machine has two cores and each check uses one.
    let next = AtomicUsize::new(0);
    let outcomes: Mutex<Vec<(usize, Result<Answer, String>)>> = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some((property, _, task)) = tasks.get(i) else {
                    break;
                };
                let outcome = run_task(task, property);
                outcomes
                    .lock()
                    .expect("no panic holds it")
                    .push((i, outcome));
            });
        }
    });
    // Per property: correct, unknown, refused.
    let mut counts = [[0usize; 3]; PROPERTIES.len()];
    let mut failures = Vec::new();
    for (i, outcome) in outcomes.into_inner().expect("no panic holds it") {
        let (property, p, task) = &tasks[i];
        let disputed = DISPUTED
            .iter()
            .find(|(prop, name, _)| prop == property && *name == task.name);
        let (task, expected) = (&task.name, disputed.map_or(&task.expected, |(_, _, c)| c));
        match outcome {
            Err(problem) => failures.push(format!("{property}: {problem}")),
            Ok(Answer::Refused) => counts[*p][2] += 1,
            Ok(Answer::Unknown) => counts[*p][1] += 1,
            Ok(answer) if answer == *expected => counts[*p][0] += 1,
            Ok(answer) => failures.push(format!(
                "{property}: {task}: WRONG {answer:?}, expected {expected:?}"
            )),
        }
    }
    for ((property, at_least), [correct, unknown, refused]) in PROPERTIES.iter().zip(counts) {
        eprintln!("SV-COMP {property}: {correct} correct, {unknown} unknown, {refused} refused");
        failures.extend((correct < *at_least).then(|| {
            format!("{property}: only {correct} correct answers (at least {at_least} before)")
        }));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
