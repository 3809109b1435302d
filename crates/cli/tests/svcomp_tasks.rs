//! SV-COMP's public tasks (vendored in `vendor/sv-comp`, ground truth in `MANIFEST.tsv`) through
//! `symex check` with a short time limit, read as `unreach-call` answers. A wrong answer (`TRUE`
//! where a call of `reach_error` is reachable or `FALSE` where none is) or a crash fails the
//! test; a task outside the supported C subset must be refused cleanly (`unsupported: …`, exit
//! 1), which scores as UNKNOWN. The number of correct answers may only go up.

use std::path::{Path, PathBuf};
use std::process::Command;

use symex_report::svcomp::{unreach_call, SvVerdict};
use symex_report::Report;

/// Correct answers today (nested_1–6, count_by_1 TRUE; nested_1b FALSE): a regression guard.
const CORRECT_AT_LEAST: usize = 8;

fn sv_comp_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../vendor/sv-comp")
}

#[test]
fn unreach_call_tasks_get_no_wrong_answer() {
    let dir = sv_comp_dir();
    let manifest = std::fs::read_to_string(dir.join("MANIFEST.tsv")).expect("the manifest");
    let (mut correct, mut unknown, mut refused) = (0, 0, 0);
    let mut failures = Vec::new();
    for row in manifest.lines().skip(1) {
        let columns: Vec<&str> = row.split('\t').collect();
        let (task, input, expected) = (columns[0], columns[1], columns[2]);
        let expected = match expected {
            "true" => SvVerdict::True,
            "false" => SvVerdict::False,
            _ => continue,
        };
        let folder = Path::new(task).parent().expect("category/name");
        let file = dir.join(folder).join(input);
        let out = Command::new(env!("CARGO_BIN_EXE_symex"))
            .args(["check", "--timeout", "3", "--format", "json"])
            .arg(&file)
            .output()
            .expect("symex runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        let answer = match out.status.code() {
            Some(1) => {
                if !stderr.starts_with("unsupported: ") {
                    failures.push(format!("{task}: refused without saying what: {stderr}"));
                }
                refused += 1;
                continue;
            }
            Some(0 | 10 | 20) => {
                let report = Report::from_json(&String::from_utf8_lossy(&out.stdout))
                    .unwrap_or_else(|e| panic!("{task}: unreadable report: {e}"));
                unreach_call(&report)
            }
            other => {
                failures.push(format!("{task}: exit {other:?}: {stderr}"));
                continue;
            }
        };
        match answer {
            SvVerdict::Unknown(_) => unknown += 1,
            answer if answer == expected => correct += 1,
            answer => failures.push(format!("{task}: WRONG {answer}, expected {expected}")),
        }
    }
    eprintln!("SV-COMP unreach-call: {correct} correct, {unknown} unknown, {refused} refused");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(
        correct >= CORRECT_AT_LEAST,
        "only {correct} correct answers (at least {CORRECT_AT_LEAST} before)"
    );
}
