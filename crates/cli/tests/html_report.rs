//! The HTML report (`--html`, `symex report`) in a real headless browser: Debian's Chromium,
//! driven by Playwright from `tests/browser/drive.mjs`. The page is loaded from a file, the
//! right-arrow key steps through the counterexample, and after every step the highlighted
//! source line and the values shown must be the ones the report's trace gives. The page must
//! fetch nothing and log no error.
//!
//! `scripts/test.sh` installs Chromium and the driver's one npm package and sets
//! `SYMEX_BROWSER_TESTS=require`, so CI always runs these tests; elsewhere, without the
//! browser, they say so and pass.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value as Json;
use symex_report::{Event, Report, TraceStep};

#[path = "support/run.rs"]
mod run;
use run::symex;

fn repo(path: &str) -> String {
    format!("{}/../../{path}", env!("CARGO_MANIFEST_DIR"))
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("symex-html-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir.join(name)
}

fn driver_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/browser")
}

fn chromium() -> PathBuf {
    std::env::var_os("CHROMIUM").map_or_else(|| PathBuf::from("/usr/bin/chromium"), PathBuf::from)
}

/// Whether the browser and the driver are installed; without them the test is skipped, unless
/// `SYMEX_BROWSER_TESTS=require` (CI), where that is a failure.
fn browser_available() -> bool {
    let node = Command::new("node").arg("--version").output().is_ok();
    let playwright = driver_dir().join("node_modules/playwright-core").is_dir();
    let available = node && playwright && chromium().exists();
    if !available {
        let how = "scripts/test.sh installs them (apt-get install chromium; npm ci in \
                   crates/cli/tests/browser)";
        assert!(
            std::env::var("SYMEX_BROWSER_TESTS").as_deref() != Ok("require"),
            "the browser tests need node, Playwright and Chromium: {how}"
        );
        eprintln!("skipped: no headless browser here ({how})");
    }
    available
}

/// Checks `program` with `options`, writing the JSON report and the HTML page; returns both.
fn check(program: &str, options: &[&str], name: &str) -> (Report, PathBuf) {
    let page = scratch(&format!("{name}.html"));
    let page_text = page.to_string_lossy().into_owned();
    let mut args = vec!["check", program, "--format", "json", "--html", &page_text];
    args.extend_from_slice(options);
    let out = symex(&args);
    assert_eq!(
        out.status.code(),
        Some(10),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report = Report::from_json(&String::from_utf8_lossy(&out.stdout)).expect("a JSON report");
    (report, page)
}

fn trace_of(report: &Report) -> Vec<TraceStep> {
    let json: Json = serde_json::from_str(&report.to_json().unwrap()).unwrap();
    let violated = json["properties"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["status"] == "violated")
        .expect("a violation");
    serde_json::from_value(violated["counterexample"]["trace"].clone()).unwrap()
}

/// Loads `page`, presses the right arrow `presses` times; what the page showed each time.
fn drive(page: &Path, presses: usize, screenshot: &Path) -> Vec<Json> {
    let out = Command::new("node")
        .arg(driver_dir().join("drive.mjs"))
        .arg(page)
        .arg(presses.to_string())
        .arg(screenshot)
        .env("CHROMIUM", chromium())
        .output()
        .expect("node runs");
    assert!(
        out.status.success(),
        "the driver failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let result: Json = serde_json::from_slice(&out.stdout).expect("the driver prints JSON");
    assert_eq!(result["errors"], Json::Array(vec![]), "script errors");
    assert_eq!(result["requests"], Json::Array(vec![]), "the page fetched");
    let shot = std::fs::metadata(screenshot).expect("a screenshot");
    assert!(shot.len() > 10_000, "an empty screenshot");
    result["observations"].as_array().unwrap().clone()
}

/// After each step: the step's line is the highlighted one, and a value it assigns is the
/// value shown. Returns how many shown values were checked.
fn assert_follows(trace: &[TraceStep], observations: &[Json]) -> usize {
    let mut checked = 0;
    for (i, seen) in observations.iter().enumerate() {
        let step = &trace[i];
        assert_eq!(seen["step"], i + 1, "{seen}");
        assert_eq!(seen["line"], step.line, "step {}: {seen}", i + 1);
        if let Event::Assign { var, value } = &step.event {
            assert_eq!(
                seen["vars"][var],
                value.to_string(),
                "step {}: {seen}",
                i + 1
            );
            checked += 1;
        }
    }
    checked
}

#[test]
fn stepping_through_a_counterexample_moves_the_line_and_the_values() {
    if !browser_available() {
        return;
    }
    let (report, page) = check(&repo("examples/list_length.uc"), &[], "list_length");
    let trace = trace_of(&report);
    let presses = 20.min(trace.len() - 1);
    let observations = drive(&page, presses, &scratch("list_length.png"));
    assert_eq!(observations.len(), presses + 1);
    assert!(assert_follows(&trace, &observations) >= 3);
    // The line and a variable's value change as the trace goes on.
    let lines: Vec<&Json> = observations.iter().map(|o| &o["line"]).collect();
    assert!(lines.windows(2).any(|w| w[0] != w[1]));
    let values: Vec<&Json> = observations.iter().map(|o| &o["vars"]["n"]).collect();
    assert!(values.windows(2).any(|w| w[0] != w[1] && !w[0].is_null()));
    // The objects `alloc` made are drawn once made.
    let last = observations.last().unwrap();
    assert_eq!(last["heap_objects"], serde_json::json!(["o1", "o2"]));
}

#[test]
fn an_input_heap_is_drawn_and_written_step_by_step() {
    if !browser_available() {
        return;
    }
    let program = repo("vendor/corpus/heap_alias_two_params.uc");
    let options = ["--engine", "backward", "--entry", "set_both"];
    let (report, page) = check(&program, &options, "alias");
    let trace = trace_of(&report);
    let observations = drive(&page, trace.len() - 1, &scratch("alias.png"));
    assert_follows(&trace, &observations);
    for seen in &observations {
        assert_eq!(seen["vars"]["p"], "&o1");
        assert_eq!(seen["heap_objects"], serde_json::json!(["o1"]));
    }
}

#[test]
fn a_c_program_shows_its_objects_and_frees_without_bookkeeping() {
    if !browser_available() {
        return;
    }
    let program = repo("corpus/c-memory/member_pointer_after_free.c");
    let (report, page) = check(&program, &[], "member_pointer");
    let trace = trace_of(&report);
    let observations = drive(&page, trace.len() - 1, &scratch("member_pointer.png"));
    assert_follows(&trace, &observations);
    let text: Vec<String> = observations
        .iter()
        .map(|o| o["text"].as_str().unwrap().to_string())
        .collect();
    assert!(text.iter().any(|t| t.contains("new o3")), "{text:?}");
    // `free(n)` is a step of its own, and the object is drawn freed from then on.
    let freed_at = text
        .iter()
        .position(|t| t.contains("free o3"))
        .expect("a free step");
    assert_eq!(observations[freed_at]["freed"][0], "o3");
    assert_eq!(observations[freed_at - 1]["freed"], serde_json::json!([]));
    assert!(
        !text
            .iter()
            .any(|t| t.contains("#assigned") || t.contains("#heap")),
        "{text:?}"
    );
}

#[test]
fn a_64_bit_value_beyond_2_pow_53_is_shown_exactly() {
    if !browser_available() {
        return;
    }
    // A JavaScript number would show 2^53 + 1 as 2^53.
    let program = scratch("wide.c");
    std::fs::write(
        &program,
        "extern void reach_error(void);\nint main() {\n  long long big = 9007199254740993LL;\n  \
         long long next = big + 2;\n  if (next > 0) reach_error();\n  return 0;\n}\n",
    )
    .expect("the program is written");
    let (report, page) = check(&program.to_string_lossy(), &[], "wide");
    let trace = trace_of(&report);
    let observations = drive(&page, trace.len() - 1, &scratch("wide.png"));
    assert!(assert_follows(&trace, &observations) >= 2);
    let last = observations.last().unwrap();
    assert_eq!(last["vars"]["big"], "9007199254740993");
    assert_eq!(last["vars"]["next"], "9007199254740995");
}
