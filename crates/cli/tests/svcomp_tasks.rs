//! SV-COMP's public tasks (vendored in `vendor/sv-comp`, ground truth in `MANIFEST.tsv`) through
//! `symex svcomp TASK.yml --property P` with a short time limit, for the properties symex
//! answers (`unreach-call`, `no-overflow`, `valid-memsafety`). A wrong answer (`TRUE` where the
//! property is violated, `FALSE` where it holds or with another sub-property) or a crash fails
//! the test; a task outside the supported
//! C subset must be refused cleanly (`unsupported: …` on stderr), which scores as UNKNOWN. The
//! number of correct answers per property may only go up. Every `FALSE` must come with a
//! violation witness that `symex svcomp --validate` confirms (its values, run by the
//! interpreter, fail the property at its target line).

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
    let yml = &task.yml;
    let task = task.name.as_str();
    let witness = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!(
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
            check_witness(&witness, yml, property).map_err(|e| format!("{task}: {e}"))?;
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

/// Validates a violation witness with `symex svcomp --validate`: the program, run on the
/// witness's values, must fail the property at the witness's target.
fn check_witness(witness: &Path, yml: &Path, property: &str) -> Result<(), String> {
    let text = std::fs::read_to_string(witness).map_err(|e| format!("no witness: {e}"))?;
    if !text.contains("format_version: '2.0'") {
        return Err(format!("not a format 2.0 witness:\n{text}"));
    }
    let out = Command::new(env!("CARGO_BIN_EXE_symex"))
        .args(["svcomp", "--property", property, "--validate"])
        .args([witness, yml])
        .output()
        .expect("symex runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    if out.status.code() != Some(10) || !stdout.contains("witness confirmed") {
        let stderr = String::from_utf8_lossy(&out.stderr);
        return Err(format!("the witness is not confirmed: {stdout}{stderr}"));
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
        tasks.push(Task {
            name: task.to_string(),
            yml: dir.join(format!("{task}.yml")),
            expected,
        });
    }
    tasks
}

struct Task {
    name: String,
    yml: PathBuf,
    expected: Answer,
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
