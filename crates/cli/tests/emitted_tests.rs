//! `symex check --emit-tests DIR` and `symex replay DIR FILE` on the whole corpus: every
//! emitted test ends in the interpreter as the engine recorded it, and where the search was
//! complete (every property `safe` or `violated`), the tests cover exactly the instructions and
//! branch directions the engine reports as covered. (Where a bound or the time limit cut the
//! search, paths alive at the end have no test, and tests of cut paths run on past the bound:
//! the two figures may differ there.)

use std::path::Path;
use std::process::Command;
use std::sync::Mutex;

use serde_json::Value as Json;
use symex_corpus::{all_files, CorpusFile};

fn symex(args: &[String], root: &Path) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_symex"))
        .args(args)
        .current_dir(root)
        .env("NO_COLOR", "1")
        .output()
        .expect("symex runs");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn covered(coverage: &Json) -> (u64, u64) {
    (
        coverage["instructions"]["covered"].as_u64().unwrap_or(0),
        coverage["branches"]["covered"].as_u64().unwrap_or(0),
    )
}

/// Checks one file; a description of what is wrong, and whether its search was complete.
fn check_file(file: &CorpusFile, scratch: &Path) -> (Vec<String>, bool) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let program = file.path.to_string_lossy().into_owned();
    let dir = scratch.join(file.label().replace('/', "_"));
    let dir_text = dir.to_string_lossy().into_owned();
    let mut args: Vec<String> = ["check", &program, "--entry", file.entry_function()]
        .map(String::from)
        .to_vec();
    args.extend(
        [
            "--timeout",
            "3",
            "--format",
            "json",
            "--emit-tests",
            &dir_text,
        ]
        .map(String::from),
    );
    if let Some(bound) = file.bound {
        args.extend(["--unwind".to_string(), bound.to_string()]);
    }
    let (_, report, stderr) = symex(&args, &root);
    let Ok(report) = serde_json::from_str::<Json>(&report) else {
        return (
            vec![format!("{}: no report: {stderr}", file.label())],
            false,
        );
    };
    // Complete: every property decided by a search that ran to its end (a property that
    // cannot fail is `safe` also after a time limit).
    let complete = report["stats"]["search_cuts"].is_null()
        && report["properties"]
            .as_array()
            .unwrap()
            .iter()
            .all(|p| p["status"] == "safe" || p["status"] == "violated");
    let written = std::fs::read_dir(&dir).map_or(0, |d| d.count());
    if written == 0 {
        // No path ended (an endless loop under the time limit): nothing to replay.
        return (
            if complete {
                vec![format!("{}: a complete search wrote no test", file.label())]
            } else {
                Vec::new()
            },
            complete,
        );
    }
    let replay: Vec<String> = ["replay", &dir_text, &program, "--format", "json"]
        .map(String::from)
        .to_vec();
    let (code, summary, stderr) = symex(&replay, &root);
    let mut problems = Vec::new();
    let Ok(summary) = serde_json::from_str::<Json>(&summary) else {
        return (
            vec![format!("{}: no replay summary: {stderr}", file.label())],
            complete,
        );
    };
    if code != Some(0) || summary["mismatches"] != Json::Array(vec![]) {
        problems.push(format!("{}: {}", file.label(), summary["mismatches"]));
    }
    let engine = covered(&report["stats"]["coverage"]);
    let tests = covered(&summary["coverage"]);
    if complete && engine != tests {
        problems.push(format!(
            "{}: the engine covered {engine:?} (instructions, branch directions), its tests {tests:?}",
            file.label()
        ));
    }
    (problems, complete)
}

#[test]
fn emitted_tests_replay_as_recorded_and_cover_what_the_engine_covered() {
    let files = all_files().expect("the corpus loads");
    let scratch = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("symex-emitted-{}", std::process::id()));
    let next = Mutex::new(files.iter());
    let results = Mutex::new((Vec::new(), 0usize));
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| loop {
                let Some(file) = next.lock().unwrap().next() else {
                    break;
                };
                let (problems, complete) = check_file(file, &scratch);
                let mut results = results.lock().unwrap();
                results.0.extend(problems);
                results.1 += usize::from(complete);
            });
        }
    });
    let _ = std::fs::remove_dir_all(&scratch);
    let (problems, complete) = results.into_inner().unwrap();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(complete >= 50, "only {complete} complete searches compared");
}
