//! SV-COMP's public tasks (vendored in `vendor/sv-comp`, ground truth in `MANIFEST.tsv`) through
//! `symex svcomp TASK.yml --property unreach-call` with a short time limit. A wrong answer
//! (`TRUE` where a call of `reach_error` is reachable or `FALSE` where none is) or a crash fails
//! the test; a task outside the supported C subset must be refused cleanly (`unsupported: …` on
//! stderr), which scores as UNKNOWN. The number of correct answers may only go up.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// Correct answers on the development machine (see docs/c-frontend.md): a regression guard.
const CORRECT_AT_LEAST: usize = 29;

fn sv_comp_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../vendor/sv-comp")
}

/// What `symex svcomp` answered.
#[derive(Debug, PartialEq)]
enum Answer {
    True,
    False,
    Unknown,
    /// UNKNOWN because the program is outside the supported subset.
    Refused,
}

/// One task's answer, or what went wrong.
fn run_task(task: &str, yml: &Path) -> Result<Answer, String> {
    let out = Command::new(env!("CARGO_BIN_EXE_symex"))
        .args(["svcomp", "--property", "unreach-call", "--timeout", "3"])
        .arg(yml)
        .output()
        .expect("symex runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let answer = match (out.status.code(), stdout.trim()) {
        (Some(0), "unreach-call: TRUE") => Answer::True,
        (Some(10), "unreach-call: FALSE") => Answer::False,
        (Some(20), line) if line.starts_with("unreach-call: UNKNOWN (the program is outside") => {
            if !stderr.starts_with("unsupported: ") {
                return Err(format!("{task}: refused without saying what: {stderr}"));
            }
            Answer::Refused
        }
        (Some(20), line) if line.starts_with("unreach-call: UNKNOWN") => Answer::Unknown,
        (code, line) => return Err(format!("{task}: exit {code:?}, `{line}`: {stderr}")),
    };
    Ok(answer)
}

#[test]
fn unreach_call_tasks_get_no_wrong_answer() {
    let dir = sv_comp_dir();
    let manifest = std::fs::read_to_string(dir.join("MANIFEST.tsv")).expect("the manifest");
    let mut tasks = Vec::new();
    for row in manifest.lines().skip(1) {
        let columns: Vec<&str> = row.split('\t').collect();
        let (task, expected) = (columns[0], columns[2]);
        let expected = match expected {
            "true" => Answer::True,
            "false" => Answer::False,
            _ => continue,
        };
        tasks.push((task.to_string(), dir.join(format!("{task}.yml")), expected));
    }
    // Two tasks at a time: the machine has two cores and each check uses one.
    let next = AtomicUsize::new(0);
    let outcomes: Mutex<Vec<(usize, Result<Answer, String>)>> = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some((task, yml, _)) = tasks.get(i) else {
                    break;
                };
                let outcome = run_task(task, yml);
                outcomes
                    .lock()
                    .expect("no panic holds it")
                    .push((i, outcome));
            });
        }
    });
    let (mut correct, mut unknown, mut refused) = (0, 0, 0);
    let mut failures = Vec::new();
    for (i, outcome) in outcomes.into_inner().expect("no panic holds it") {
        let (task, _, expected) = &tasks[i];
        match outcome {
            Err(problem) => failures.push(problem),
            Ok(Answer::Refused) => refused += 1,
            Ok(Answer::Unknown) => unknown += 1,
            Ok(answer) if answer == *expected => correct += 1,
            Ok(answer) => failures.push(format!("{task}: WRONG {answer:?}, expected {expected:?}")),
        }
    }
    eprintln!("SV-COMP unreach-call: {correct} correct, {unknown} unknown, {refused} refused");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(
        correct >= CORRECT_AT_LEAST,
        "only {correct} correct answers (at least {CORRECT_AT_LEAST} before)"
    );
}
