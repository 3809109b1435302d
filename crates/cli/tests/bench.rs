//! End-to-end test of `symex bench`: tiny programs under two configurations; every number of
//! its tables must be what `symex check` reports on the same program with the same flags.

use std::path::{Path, PathBuf};

#[path = "support/run.rs"]
mod run;
use run::symex;

/// A fresh directory (one per test: tests run in parallel) with the three test programs.
fn programs(test: &str) -> PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("symex-bench-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("set")).expect("temp dir");
    let files = [
        // Safe, loop-free.
        (
            "a_safe.uc",
            "main() { var x; x = input; if (x > 3) { output x; } return 0; }\n",
        ),
        // One reachable division by zero.
        (
            "b_error.uc",
            "main() { var x, y; x = input; y = input; if (x == 7) { output 10 / y; } return 0; }\n",
        ),
        // An input-bounded loop stepping by a constant: plain execution cannot finish it,
        // loop summarization proves it.
        (
            "c_loop.uc",
            "main() { var n, i, s; n = input; i = 0; s = 0;\n  while (i < n) { s = s + 2; i = i + 1; }\n  return 100 / (s + 1); }\n",
        ),
    ];
    for (name, text) in files {
        std::fs::write(dir.join("set").join(name), text).expect("temp file");
    }
    dir
}

fn csv_rows(path: &Path) -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(path).expect("written");
    text.lines()
        .map(|l| l.split(',').map(String::from).collect())
        .collect()
}

#[test]
fn bench_tables_agree_with_symex_check() {
    let dir = programs("agree");
    let set = dir.join("set");
    let out_dir = dir.join("out");
    let out = symex(&[
        "bench",
        set.to_str().expect("utf-8"),
        "--config",
        "plain=",
        "--config",
        "sum=--summarize --search bfs",
        "--timeout",
        "1",
        "--out",
        out_dir.to_str().expect("utf-8"),
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("| plain | `(none)` | 3 |"),
        "summary on stdout:\n{stdout}"
    );
    let written = out_dir.join("programs");
    for name in [
        "summary.md",
        "summary.csv",
        "summary.json",
        "runs.csv",
        "plot.svg",
    ] {
        assert!(written.join(name).is_file(), "{name} written");
    }
    assert!(out_dir.join("summary.md").is_file());

    // Every run against `symex check --format json` with the configuration's flags.
    let runs = csv_rows(&written.join("runs.csv"));
    assert_eq!(
        runs[0][..8],
        [
            "config",
            "program",
            "outcome",
            "violated",
            "safe",
            "safe_up_to",
            "unknown",
            "paths"
        ]
    );
    assert_eq!(runs.len(), 1 + 2 * 3);
    let flags = |config: &str| -> Vec<&str> {
        match config {
            "plain" => vec![],
            _ => vec!["--summarize", "--search", "bfs"],
        }
    };
    for row in &runs[1..] {
        let (config, program, outcome) = (&row[0], &row[1], &row[2]);
        let mut args = vec![
            "check",
            program.as_str(),
            "--format",
            "json",
            "--timeout",
            "1",
        ];
        args.extend(flags(config));
        let check = symex(&args);
        let report: serde_json::Value = serde_json::from_slice(&check.stdout).expect("JSON report");
        let statuses: Vec<&str> = report["properties"]
            .as_array()
            .expect("properties")
            .iter()
            .map(|p| p["status"].as_str().expect("status"))
            .collect();
        let count = |s: &str| statuses.iter().filter(|t| **t == s).count().to_string();
        let expected_outcome = match check.status.code() {
            Some(0) => "safe",
            Some(10) => "error",
            Some(20) => "timeout",
            other => panic!("unexpected exit {other:?}"),
        };
        assert_eq!(outcome, expected_outcome, "{config} on {program}");
        assert_eq!(row[3], count("violated"), "{config} on {program}");
        assert_eq!(row[4], count("safe"), "{config} on {program}");
        assert_eq!(row[6], count("unknown"), "{config} on {program}");
        if outcome != "timeout" {
            // Runs that finish are deterministic: same paths and queries.
            assert_eq!(
                row[7],
                report["stats"]["paths"].to_string(),
                "{config} on {program}"
            );
            assert_eq!(
                row[8],
                report["stats"]["queries"].to_string(),
                "{config} on {program}"
            );
        }
    }
    let outcomes: Vec<(&str, &str, &str)> = runs[1..]
        .iter()
        .map(|r| {
            (
                r[0].as_str(),
                Path::new(&r[1])
                    .file_name()
                    .and_then(|n| n.to_str())
                    .unwrap_or(""),
                r[2].as_str(),
            )
        })
        .collect();
    assert_eq!(
        outcomes,
        [
            ("plain", "a_safe.uc", "safe"),
            ("plain", "b_error.uc", "error"),
            ("plain", "c_loop.uc", "timeout"),
            ("sum", "a_safe.uc", "safe"),
            ("sum", "b_error.uc", "error"),
            ("sum", "c_loop.uc", "safe"),
        ]
    );

    // The summary adds the runs up.
    let summary = csv_rows(&written.join("summary.csv"));
    assert_eq!(summary.len(), 3);
    let column = |name: &str| {
        summary[0]
            .iter()
            .position(|c| c == name)
            .unwrap_or_else(|| panic!("column {name}"))
    };
    let plain = &summary[1];
    let sum = &summary[2];
    assert_eq!(plain[column("proved safe")], "1");
    assert_eq!(sum[column("proved safe")], "2");
    assert_eq!(plain[column("timeouts")], "1");
    assert_eq!(sum[column("timeouts")], "0");
    assert_eq!(plain[column("errors found")], "1");
    assert_eq!(sum[column("errors found")], "1");
    let total = |config: &str, field: usize| -> u64 {
        runs[1..]
            .iter()
            .filter(|r| r[0] == config)
            .map(|r| r[field].parse::<u64>().expect("number"))
            .sum()
    };
    assert_eq!(sum[column("paths")], total("sum", 7).to_string());
    assert_eq!(sum[column("solver queries")], total("sum", 8).to_string());
    let svg = std::fs::read_to_string(written.join("plot.svg")).expect("svg");
    assert_eq!(svg.matches("<polyline").count(), 2);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_configurations_and_sets_are_usage_errors() {
    let dir = programs("usage");
    let set = dir.join("set");
    let set = set.to_str().expect("utf-8");
    let out = symex(&["bench", set, "--config", "x=--no-such-flag"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("configuration `x`"), "{err}");
    let out = symex(&["bench", set, "--config", "x=--timeout 2"]);
    assert_eq!(out.status.code(), Some(2));
    let out = symex(&["bench", "--gen", "--seed 3", "--seeds", "0..2"]);
    assert_eq!(out.status.code(), Some(2));
    let out = symex(&[
        "bench",
        "--gen",
        "--for-prob 90 --if-prob 20",
        "--seeds",
        "0..2",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let bad = dir.join("bad.json");
    std::fs::write(&bad, "{\"sets\": [], \"configs\": [], \"extra\": 1}").expect("write");
    let out = symex(&["bench", "--experiment", bad.to_str().expect("utf-8")]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("extra"));
    let _ = std::fs::remove_dir_all(&dir);
}
