//! Every `replay:` line that `symex check` prints works as printed: run through a shell, it
//! stops with a runtime error at the violated property's `line:column`. Checked on every
//! corpus file with a violation under every engine (from the file's entry); the backward
//! engine's counterexamples of entries that take pointers carry input heaps (the replay line
//! quotes the heap document inline).

use std::path::Path;
use std::process::Command;
use std::sync::Mutex;

use symex_corpus::{all_files, CorpusFile, Verdict};

/// The `replay:` lines of a check's text output, each with the `line:col` of the diagnostic it
/// belongs to.
fn replay_lines(output: &str) -> Vec<(String, String)> {
    let mut at = None;
    let mut lines = Vec::new();
    for line in output.lines() {
        if let Some(start) = line.find("╭─[") {
            let location = line[start + "╭─[".len()..].trim_end_matches(']');
            let mut parts = location.rsplitn(3, ':');
            let column = parts.next().unwrap_or_default();
            let row = parts.next().unwrap_or_default();
            at = Some(format!("{row}:{column}"));
        } else if let Some(command) = line.trim_start().strip_prefix("replay: ") {
            let location = at.take().expect("a replay line under a diagnostic");
            lines.push((command.to_string(), location));
        }
    }
    lines
}

/// Checks `file` with `engine`; returns a description of every replay line that does not
/// reproduce its violation, and how many replay lines there were.
fn check_replays(file: &CorpusFile, engine: &str) -> (Vec<String>, usize) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let relative = file.path.strip_prefix(&root).unwrap_or(&file.path);
    let mut args = vec![
        "check".to_string(),
        relative.to_string_lossy().into_owned(),
        "--engine".into(),
        engine.into(),
        "--entry".into(),
        file.entry_function().into(),
        "--timeout".into(),
        "5".into(),
    ];
    if let Some(bound) = file.bound {
        args.extend(["--unwind".into(), bound.to_string()]);
    }
    let out = Command::new(env!("CARGO_BIN_EXE_symex"))
        .args(&args)
        .current_dir(&root)
        .env("NO_COLOR", "1")
        .output()
        .expect("symex runs");
    let text = String::from_utf8_lossy(&out.stdout);
    let replays = replay_lines(&text);
    let mut problems = Vec::new();
    for (command, location) in &replays {
        let Some(rest) = command.strip_prefix("symex ") else {
            problems.push(format!("{}: not a symex command: {command}", file.label()));
            continue;
        };
        let shell = format!("'{}' {rest}", env!("CARGO_BIN_EXE_symex"));
        let run = Command::new("sh")
            .arg("-c")
            .arg(&shell)
            .current_dir(&root)
            .env("NO_COLOR", "1")
            .output()
            .expect("sh runs");
        let stderr = String::from_utf8_lossy(&run.stderr);
        if run.status.code() != Some(3) || !stderr.contains(&format!(":{location}]")) {
            problems.push(format!(
                "{} [{engine}]: `{command}` exited {:?}, expected a runtime error at {location}: {stderr}",
                file.label(),
                run.status.code()
            ));
        }
    }
    (problems, replays.len())
}

fn has_violation(file: &CorpusFile) -> bool {
    file.verdicts
        .iter()
        .any(|v| matches!(v, Verdict::Violated { .. }))
}

#[test]
fn every_printed_replay_line_reproduces_its_violation() {
    let files = all_files().expect("the corpus loads");
    let mut jobs: Vec<(&CorpusFile, &str)> = Vec::new();
    for file in files.iter().filter(|f| has_violation(f)) {
        for engine in ["forward", "backward", "structural"] {
            jobs.push((file, engine));
        }
    }
    let next = Mutex::new(jobs.into_iter());
    let results = Mutex::new((Vec::new(), 0usize, 0usize));
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| loop {
                let Some((file, engine)) = next.lock().unwrap().next() else {
                    break;
                };
                let (problems, count) = check_replays(file, engine);
                let mut results = results.lock().unwrap();
                results.0.extend(problems);
                results.1 += count;
                if engine == "backward" && file.entry.is_some() && count > 0 {
                    results.2 += 1;
                }
            });
        }
    });
    let (problems, replays, backward) = results.into_inner().unwrap();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    // The corpus has violations enough, and input heaps among them.
    assert!(replays >= 50, "only {replays} replay lines");
    assert!(
        backward >= 5,
        "only {backward} files with input-heap replays"
    );
}
