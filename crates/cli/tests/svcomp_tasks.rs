//! SV-COMP's public tasks (vendored in `vendor/sv-comp`, ground truth in `MANIFEST.tsv`) through
//! `symex check` with a short time limit, read as `unreach-call` answers. A wrong answer (`TRUE`
//! where a call of `reach_error` is reachable or `FALSE` where none is) or a crash fails the
//! test; a task outside the supported C subset must be refused cleanly (`unsupported: …`, exit
//! 1), which scores as UNKNOWN. The number of correct answers may only go up.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use symex_report::svcomp::{unreach_call, SvVerdict};
use symex_report::Report;

/// Correct answers on the development machine (20 of 93): a regression guard.
const CORRECT_AT_LEAST: usize = 20;

fn sv_comp_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../vendor/sv-comp")
}

/// One task's outcome: `Ok(answer)` from a report, `Err(None)` for a clean refusal,
/// `Err(Some(problem))` for anything else.
type Outcome = Result<SvVerdict, Option<String>>;

fn run_task(task: &str, file: &Path) -> Outcome {
    let out = Command::new(env!("CARGO_BIN_EXE_symex"))
        .args(["check", "--timeout", "3", "--format", "json"])
        .arg(file)
        .output()
        .expect("symex runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    match out.status.code() {
        Some(1) if stderr.starts_with("unsupported: ") => Err(None),
        Some(1) => Err(Some(format!(
            "{task}: refused without saying what: {stderr}"
        ))),
        Some(0 | 10 | 20) => match Report::from_json(&String::from_utf8_lossy(&out.stdout)) {
            Ok(report) => Ok(unreach_call(&report)),
            Err(e) => Err(Some(format!("{task}: unreadable report: {e}"))),
        },
        other => Err(Some(format!("{task}: exit {other:?}: {stderr}"))),
    }
}

#[test]
fn unreach_call_tasks_get_no_wrong_answer() {
    let dir = sv_comp_dir();
    let manifest = std::fs::read_to_string(dir.join("MANIFEST.tsv")).expect("the manifest");
    let mut tasks = Vec::new();
    for row in manifest.lines().skip(1) {
        let columns: Vec<&str> = row.split('\t').collect();
        let (task, input, expected) = (columns[0], columns[1], columns[2]);
        let expected = match expected {
            "true" => SvVerdict::True,
            "false" => SvVerdict::False,
            _ => continue,
        };
        let folder = Path::new(task).parent().expect("category/name");
        tasks.push((task.to_string(), dir.join(folder).join(input), expected));
    }
    // Two tasks at a time: the machine has two cores and each check uses one.
    let next = AtomicUsize::new(0);
    let outcomes: Mutex<Vec<(usize, Outcome)>> = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some((task, file, _)) = tasks.get(i) else {
                    break;
                };
                let outcome = run_task(task, file);
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
            Err(None) => refused += 1,
            Err(Some(problem)) => failures.push(problem),
            Ok(SvVerdict::Unknown(_)) => unknown += 1,
            Ok(answer) if answer == *expected => correct += 1,
            Ok(answer) => failures.push(format!("{task}: WRONG {answer}, expected {expected}")),
        }
    }
    eprintln!("SV-COMP unreach-call: {correct} correct, {unknown} unknown, {refused} refused");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(
        correct >= CORRECT_AT_LEAST,
        "only {correct} correct answers (at least {CORRECT_AT_LEAST} before)"
    );
}
