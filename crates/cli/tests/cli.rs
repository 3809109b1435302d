//! End-to-end tests of the `symex` binary: output streams, messages and documented exit codes.

use std::io::Write;
use std::process::{Command, Output};

#[path = "support/run.rs"]
mod run;
use run::symex;

/// Writes `text` to a fresh temporary `.uc` file and returns its path.
fn program(name: &str, text: &[u8]) -> String {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("symex-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::File::create(&path)
        .and_then(|mut f| f.write_all(text))
        .expect("temp file");
    path.to_string_lossy().into_owned()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Asserts that the run ended with exit code `code` and that its stderr mentions `text`.
fn exits_mentioning(out: &Output, code: i32, text: &str) {
    assert_eq!(out.status.code(), Some(code), "{}", stderr(out));
    assert!(stderr(out).contains(text), "{}", stderr(out));
}

fn example(name: &str) -> String {
    format!("{}/../../examples/{name}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn run_prints_outputs_on_stdout_and_the_result_on_stderr() {
    let out = symex(&["run", &example("factorial.uc"), "--input", "5"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out), "120\n");
    assert!(stderr(&out).contains("result: 0"), "{}", stderr(&out));
}

#[test]
fn run_accepts_negative_inputs_and_entry_arguments() {
    let p = program(
        "entry.uc",
        b"f(a, b) { return a - b; }\nmain() { output input; return 0; }\n",
    );
    let out = symex(&["run", &p, "--input", "-3,4"]);
    assert_eq!(stdout(&out), "-3\n");
    let out = symex(&["run", &p, "--entry", "f", "--args", "-2,5"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stderr(&out).contains("result: -7"), "{}", stderr(&out));
}

#[test]
fn runtime_error_has_kind_location_and_exit_code_3() {
    let out = symex(&["run", &example("division.uc"), "--input", "7"]);
    assert_eq!(out.status.code(), Some(3));
    let err = stderr(&out);
    assert!(err.contains("division by zero"), "{err}");
    assert!(err.contains("division.uc:5:"), "{err}");
}

#[test]
fn failed_assume_exits_4() {
    let p = program(
        "assume.uc",
        b"main() { var x; x = input; assume(x > 0); return x; }\n",
    );
    assert_eq!(symex(&["run", &p, "--input", "0"]).status.code(), Some(4));
    assert_eq!(symex(&["run", &p, "--input", "1"]).status.code(), Some(0));
}

#[test]
fn syntax_errors_are_located_and_exit_1() {
    let p = program(
        "syntax.uc",
        b"main() {\n  var x;\n  x = 1\n  return x +;\n}\n",
    );
    let out = symex(&["run", &p]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("syntax.uc:3:8"), "{err}");
    assert!(err.contains("expected `;`"), "{err}");
    assert!(err.contains("expected an expression"), "{err}");
    assert!(err.contains("2 errors"), "{err}");
}

#[test]
fn non_utf8_and_missing_files_are_clear_errors() {
    let p = program("latin1.uc", b"main() {\n  return 0; // caf\xe9\n}\n");
    let out = symex(&["run", &p]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("not valid UTF-8"), "{}", stderr(&out));
    assert!(stderr(&out).contains(":2:"), "{}", stderr(&out));
    let out = symex(&["run", "/nonexistent/file.uc"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("cannot read"), "{}", stderr(&out));
    // An empty file has no line a diagnostic could point at: it is named as empty.
    let empty = program("empty.uc", b"\n  \n");
    exits_mentioning(&symex(&["check", &empty]), 1, "is empty");
}

#[test]
fn bad_command_lines_exit_2() {
    assert_eq!(
        symex(&["run", &example("factorial.uc"), "--frobnicate"])
            .status
            .code(),
        Some(2)
    );
    assert_eq!(
        symex(&["run", &example("factorial.uc"), "--input", "1,x"])
            .status
            .code(),
        Some(2)
    );
    assert_eq!(symex(&["launch"]).status.code(), Some(2));
    let out = symex(&["run", &example("factorial.uc"), "--entry", "nosuch"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("nosuch"), "{}", stderr(&out));
}

/// An option the chosen engine does not read is refused with the engine's name, never ignored;
/// the options an engine does read (also given at their default values) are accepted.
#[test]
fn options_the_engine_does_not_use_are_refused() {
    let program = example("division.uc");
    for (engine, option) in [
        ("backward", ["--merge", "aggressive"]),
        ("backward", ["--search", "bfs"]),
        ("structural", ["--bse-variant", "disj-set"]),
        ("forward", ["--refine", "eager"]),
        ("structural", ["--max-states", "10"]),
        ("backward", ["--replay-timeout", "10"]),
    ] {
        let out = symex(&["check", &program, "--engine", engine, option[0], option[1]]);
        assert_eq!(out.status.code(), Some(2), "{engine} {option:?}");
        let message = stderr(&out);
        assert!(
            message.contains(option[0]) && message.contains(&format!("the {engine} engine")),
            "{message}"
        );
    }
    for (engine, option) in [
        ("backward", ["--bse-variant", "disj-set"]),
        ("backward", ["--seed", "3"]),
        ("structural", ["--refine", "eager"]),
        ("forward", ["--search", "dfs"]),
    ] {
        let out = symex(&["check", &program, "--engine", engine, option[0], option[1]]);
        assert_eq!(
            out.status.code(),
            Some(10),
            "{engine} {option:?}: {}",
            stderr(&out)
        );
    }
}

#[test]
fn type_errors_are_warnings_for_run_and_errors_for_types() {
    let p = program(
        "dyn.uc",
        b"main() { var r; r = alloc {f: 1}; r->f = null; output 7; return 0; }\n",
    );
    let out = symex(&["run", &p]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out), "7\n");
    assert!(
        stderr(&out).contains("Warning: type mismatch"),
        "{}",
        stderr(&out)
    );
    let out = symex(&["types", &p]);
    exits_mentioning(&out, 1, "Error: type mismatch");
}

#[test]
fn types_prints_every_function_and_variable() {
    let out = symex(&["types", &example("list_length.uc")]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    for name in ["length", "main", "l", "n", "a", "b"] {
        assert!(text.contains(name), "{name} missing in:\n{text}");
    }
}

#[test]
fn cfg_prints_text_and_dot() {
    let out = symex(&["cfg", &example("division.uc")]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).contains("main"), "{}", stdout(&out));
    let out = symex(&["cfg", "--dot", &example("division.uc")]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).starts_with("digraph"), "{}", stdout(&out));
}

#[test]
fn too_deep_programs_are_rejected_cleanly() {
    let deep = format!(
        "main() {{ return {}1{}; }}",
        "(".repeat(5000),
        ")".repeat(5000)
    );
    let p = program("deep.uc", deep.as_bytes());
    let out = symex(&["run", &p]);
    exits_mentioning(&out, 1, "too deeply nested");
    // The parser leaves out a function it gives up on: no "no `main`" error besides.
    let index = format!(
        "main() {{ var x; x = [1]; return x{}; }}",
        "[0]".repeat(300)
    );
    let p = program("deep_index.uc", index.as_bytes());
    let out = symex(&["check", &p]);
    exits_mentioning(&out, 1, "too deeply nested");
    assert!(!stderr(&out).contains("no `main`"), "{}", stderr(&out));
}

/// A time limit too large for a deadline is refused (it panicked: `Instant` plus 1e19 s
/// overflows), by every command that takes one.
#[test]
fn time_limits_beyond_any_run_are_refused() {
    let factorial = example("factorial.uc");
    for args in [
        vec!["check", factorial.as_str(), "--timeout", "1e19"],
        vec!["check", factorial.as_str(), "--timeout", "1e300"],
        vec!["check", factorial.as_str(), "--replay-timeout", "1e300"],
        vec!["bench", factorial.as_str(), "--timeout", "1e20"],
    ] {
        exits_mentioning(&symex(&args), 2, "at most 1000000000");
    }
}

/// The foundation's done criterion, literally: the `symex run` binary reproduces every `run:`
/// line of both corpora (outputs on stdout, result or located runtime error on stderr).
#[test]
fn symex_run_reproduces_every_corpus_run_line() {
    let files = symex_corpus::all_files().expect("the corpus loads");
    let mut failures = Vec::new();
    let mut checked = 0;
    for file in &files {
        let path = file.path.to_string_lossy().into_owned();
        for run in &file.runs {
            let input: Vec<String> = run.input.iter().map(i32::to_string).collect();
            let mut args = vec!["run", path.as_str()];
            let joined = input.join(",");
            if !input.is_empty() {
                args.extend(["--input", joined.as_str()]);
            }
            let out = symex(&args);
            let (stdout, stderr) = (stdout(&out), stderr(&out));
            let outputs: Vec<String> = run.output.iter().map(|n| format!("{n}\n")).collect();
            let mut ok = stdout == outputs.concat();
            ok &= match run.end {
                symex_corpus::ExpectedEnd::Result(n) => {
                    out.status.code() == Some(0) && stderr.contains(&format!("result: {n}\n"))
                }
                symex_corpus::ExpectedEnd::Error { kind, line } => {
                    out.status.code() == Some(3)
                        && stderr.contains(&format!("{} here", kind.name()))
                        && stderr.contains(&format!("{path}:{line}:"))
                }
            };
            if !ok {
                failures.push(format!(
                    "{path} (header line {}):\nstdout:\n{stdout}\nstderr:\n{stderr}",
                    run.header_line
                ));
            }
            checked += 1;
        }
    }
    assert!(checked > 100, "only {checked} run lines found");
    assert!(
        failures.is_empty(),
        "{} of {checked} run lines differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn check_exit_codes_say_violated_safe_or_bounded() {
    let out = symex(&["check", &example("division.uc")]);
    assert_eq!(out.status.code(), Some(10), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("replay: symex run"),
        "{}",
        stdout(&out)
    );

    let safe = program(
        "safe.uc",
        b"main() { var x; x = input; if (x != 0) { x = 10 / x; } return x; }\n",
    );
    let out = symex(&["check", &safe]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        stdout(&out),
        stderr(&out)
    );

    let out = symex(&["check", &safe, "--merge", "aggressive", "--stats"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let out = symex(&["check", &example("division.uc"), "--merge", "aggressive"]);
    assert_eq!(out.status.code(), Some(10), "{}", stderr(&out));
    let out = symex(&["check", &safe, "--merge", "lattice"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    for merge in ["qce", "dynamic"] {
        let out = symex(&[
            "check",
            &example("division.uc"),
            "--merge",
            merge,
            "--stats",
        ]);
        assert_eq!(out.status.code(), Some(10), "{merge}: {}", stderr(&out));
        assert!(stdout(&out).contains("states merged"), "{}", stdout(&out));
    }
    let out = symex(&[
        "check",
        &safe,
        "--merge",
        "qce",
        "--qce-estimate",
        "lattice",
        "--qce-kappa",
        "3",
        "--qce-beta",
        "0.5",
        "--qce-alpha",
        "0.1",
        "--qce-limit-cost",
        "2",
        "--dsm-delta",
        "8",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let out = symex(&["check", &safe, "--merge", "qce", "--qce-alpha=-1"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("--qce-alpha"), "{}", stderr(&out));

    // A recursive check that holds within the bound; `r`'s `uninit` checks cannot fail (every
    // path assigns it first), so they are `safe` whatever the bound.
    let bounded = program(
        "bounded.uc",
        b"fac(n) { var r; if (n <= 1) { r = 1; } else { r = n * fac(n - 1); }\n\
          assert(r != 7); return r; }\nmain() { return fac(input); }\n",
    );
    let out = symex(&["check", &bounded, "--unwind", "3"]);
    assert_eq!(out.status.code(), Some(20), "{}", stdout(&out));
    assert!(stdout(&out).contains("safe up to 3"), "{}", stdout(&out));
    assert!(
        !stdout(&out).contains("assert: safe\n"),
        "a bounded search said safe:\n{}",
        stdout(&out)
    );
}

/// A path deeper than the interpreter's call-depth limit cannot be replayed: the property is
/// `unknown` with the limit named (exit 20), neither `violated` nor an internal error.
#[test]
fn a_counterexample_past_the_interpreters_limits_is_unknown() {
    let deep = program(
        "deep.uc",
        b"f(n) { var r; r = 0; if (n == 0) { assert(0); } else { r = f(n - 1); } return r; }\n\
          main() { var r; r = f(100005); return r; }\n",
    );
    let out = symex(&["check", &deep]);
    assert_eq!(out.status.code(), Some(20), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("assert: unknown (a counterexample was found that the interpreter could not replay: the run hit a limit: call depth"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn stop_on_first_ends_the_search_at_a_violation_of_the_named_kinds() {
    // The division fails first (for `x == 0`), the assertion later on the path that goes on.
    let two = program(
        "two_violations.uc",
        b"main() { var x; var y; x = input; y = 10 / x; assert(x != 5); return y; }\n",
    );
    let stopped = "assert: unknown (the search stopped at the first violation";
    for (option, assert_found) in [
        ("--stop-on-first", false),
        ("--stop-on-first=div-by-zero", false),
        ("--stop-on-first=assert", true),
        ("--stop-on-first=overflow,assert", true),
    ] {
        let out = symex(&["check", option, &two]);
        assert_eq!(out.status.code(), Some(10), "{option}: {}", stderr(&out));
        let text = stdout(&out);
        assert!(text.contains("division by zero"), "{option}: {text}");
        assert_eq!(
            text.contains("assertion failure"),
            assert_found,
            "{option}: {text}"
        );
        assert_eq!(text.contains(stopped), !assert_found, "{option}: {text}");
    }
    let out = symex(&["check", "--stop-on-first=bogus", &two]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("no property kind `bogus`"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn an_input_struct_copied_whole_keeps_its_members_ranges() {
    // The input heap gives any number; a narrow member and a bit-field read from it keep
    // their types' ranges, also where the struct is copied whole (the review of session 38).
    let source = "struct S { unsigned a : 3; unsigned char c; };
        void reach_error(void);
        int f(struct S *p) { struct S s = *p; if (s.a > 7 || s.c > 255) reach_error();
          return s.a + s.c; }
        int main(void) { return 0; }\n";
    let file = program("input_ranges.c", source.as_bytes());
    let out = symex(&["check", "--entry", "f", &file]);
    assert!(stdout(&out).contains("assert: safe"), "{}", stdout(&out));
}

#[test]
fn an_unmodelled_check_names_its_own_cause() {
    // A heap array of a computed length forks over 1 to 64: the runs beyond stop at an
    // `unmodelled` check whose reason names that cause, not every cause of the kind.
    let source = "#include <stdlib.h>
        extern int __VERIFIER_nondet_int(void);
        void reach_error(void);
        int main(void) { int n = __VERIFIER_nondet_int(); int *a = malloc(n * sizeof(int));
          a[0] = 1; if (a[0] != 1) reach_error(); return 0; }\n";
    let file = program("forked_length.c", source.as_bytes());
    let out = symex(&["check", &file]);
    let text = stdout(&out);
    assert!(text.contains("unmodelled: unknown (a run leaves what symex models here (a heap array of a computed length outside 1 to 64"), "{text}");
    assert!(
        text.contains("assert: unknown (a run may leave what symex models at line 4 (a heap array"),
        "{text}"
    );
    assert!(
        !text.contains("`free` of a pointer into an object"),
        "{text}"
    );
}

#[test]
fn stats_say_why_a_loop_has_no_summary() {
    let file = format!(
        "{}/../../corpus/summarize_nested_unsummarized.uc",
        env!("CARGO_MANIFEST_DIR")
    );
    let out = symex(&["check", &file, "--summarize", "--stats", "--timeout", "20"]);
    let text = stdout(&out);
    assert!(
        text.contains("loops without summary  line 14: an inner loop starts from values the outer loop changes"),
        "{text}"
    );
}

#[test]
fn check_json_is_the_documented_shape_and_deterministic() {
    let args = [
        "check",
        &example("list_length.uc"),
        "--format",
        "json",
        "--search",
        "random-path",
        "--seed",
        "7",
    ];
    let first = symex(&args);
    assert_eq!(first.status.code(), Some(10), "{}", stderr(&first));
    let json = stdout(&first);
    let report = symex_report::Report::from_json(&json).expect("the report reads back");
    let violated: Vec<_> = report
        .properties()
        .iter()
        .filter(|p| p.verdict.status() == symex_report::Status::Violated)
        .collect();
    assert_eq!(violated.len(), 1, "{json}");
    for key in [
        "\"program\"",
        "\"engine\"",
        "\"entry\"",
        "\"properties\"",
        "\"stats\"",
        "\"confirmed\": true",
    ] {
        assert!(json.contains(key), "{key} missing in {json}");
    }
    let second = symex(&args);
    assert_eq!(
        without_timings(&json),
        without_timings(&stdout(&second)),
        "same options and seed must give the same report"
    );
}

/// A time limit far from reached changes nothing: the same report as without one, run after
/// run (a per-query limit that shrank with the time left, below the 10 s per query from the
/// start under a limit of 8 s, re-configured Z3 at moments that differed from run to run: 3
/// different counterexamples in 8 runs of this program).
#[test]
fn a_time_limit_not_reached_leaves_the_report_as_it_is() {
    let generated = symex(&["gen", "--seed", "5004", "--errors", "2"]);
    let path = program("gen_5004.uc", &generated.stdout);
    let args = [
        "check", &path, "--search", "klee", "--seed", "3", "--format", "json",
    ];
    let unlimited = without_timings(&stdout(&symex(&args)));
    for _ in 0..4 {
        let limited = symex(&[&args[..], &["--timeout", "8"]].concat());
        assert_eq!(without_timings(&stdout(&limited)), unlimited);
    }
}

/// The report with its wall-clock fields removed: the only bytes allowed to differ between runs.
fn without_timings(json: &str) -> String {
    let mut report = symex_report::Report::from_json(json).expect("the report reads back");
    report.stats.clear_timings();
    report.to_json().expect("serializes")
}

#[test]
fn check_refuses_what_it_cannot_analyse() {
    let ill_typed = program(
        "ill.uc",
        b"main() { var r; r = alloc {f: 1}; r->f = null; return 0; }\n",
    );
    assert_eq!(symex(&["check", &ill_typed]).status.code(), Some(1));
    let out = symex(&["check", &example("factorial.uc"), "--entry", "nosuch"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("nosuch"), "{}", stderr(&out));
    let record = program(
        "rec.uc",
        b"f(r) { return r.f; }\nmain() { return f({f: 1}); }\n",
    );
    let out = symex(&["check", &record, "--entry", "f"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("not supported"), "{}", stderr(&out));
    assert_eq!(
        symex(&["check", &example("factorial.uc"), "--search", "sideways"])
            .status
            .code(),
        Some(2)
    );
    assert_eq!(
        symex(&["check", &example("factorial.uc"), "--timeout", "-1"])
            .status
            .code(),
        Some(2)
    );
    let out = symex(&["check", &example("factorial.uc"), "--replay-timeout", "0"]);
    exits_mentioning(&out, 2, "--replay-timeout");
}

/// `--replay-timeout`: a summarized loop's counterexample (about 33 million iterations to
/// replay, seconds in the interpreter) found at once is confirmed after the check's own
/// limit; without the option the same check may not confirm it in time, and never says
/// `safe`.
#[test]
fn a_long_replay_may_outlive_the_check() {
    let source = program(
        "long_replay.c",
        b"extern void reach_error(void);\n\
          int main(void) {\n\
            unsigned int x = 0x03fffff1;\n\
            while (x > 1) x -= 2;\n\
            if (x % 2) reach_error();\n\
            return 0;\n\
          }\n",
    );
    let check = ["check", &source, "--summarize", "--timeout", "0.5"];
    let out = symex(&[&check[..], &["--replay-timeout", "120"]].concat());
    assert_eq!(out.status.code(), Some(10), "{}", stdout(&out));
    assert!(stdout(&out).contains("replay: "), "{}", stdout(&out));
    let out = symex(&check);
    assert!(
        matches!(out.status.code(), Some(10 | 20)),
        "{}",
        stdout(&out)
    );
}

#[test]
fn check_entry_with_integer_parameters() {
    let p = program(
        "entry_int.uc",
        b"f(a, b) { assert(a + b != 12345); return 0; }\nmain() { return 0; }\n",
    );
    let out = symex(&["check", &p, "--entry", "f"]);
    assert_eq!(out.status.code(), Some(10), "{}", stdout(&out));
    assert!(
        stdout(&out).contains("--entry f --args"),
        "{}",
        stdout(&out)
    );
}

/// A library function is analysed and run on its own: `--entry f` needs no `main`, for every
/// engine and for the printed replay line; without `--entry` the missing `main` is an error
/// whose help names the option.
#[test]
fn entry_functions_need_no_main() {
    let p = program("library.uc", b"f(a) { return 10 / a; }\n");
    for engine in ["forward", "backward", "structural"] {
        let out = symex(&["check", &p, "--entry", "f", "--engine", engine]);
        assert_eq!(out.status.code(), Some(10), "{engine}: {}", stderr(&out));
    }
    let out = symex(&["run", &p, "--entry", "f", "--args", "0"]);
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    let out = symex(&["check", &p]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("--entry f"), "{}", stderr(&out));
}

#[test]
fn a_missing_solver_binary_is_named() {
    let out = Command::new(env!("CARGO_BIN_EXE_symex"))
        .args(["check", &example("division.uc"), "--solver", "cvc5"])
        .env("PATH", "/nonexistent")
        .output()
        .expect("the symex binary runs");
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("cvc5"), "{}", stderr(&out));
}

const HEAP_PROGRAM: &[u8] = b"length(l) {
  var n;
  n = 0;
  while (l != null && n < 10) { l = l->next; n = n + 1; }
  return n;
}
second(l) { return l->next->val; }
main() { return 0; }
";

#[test]
fn run_with_a_heap_file_measures_a_three_node_list() {
    let p = program("heap_list.uc", HEAP_PROGRAM);
    let heap = program(
        "heap_list.json",
        br#"{"args": {"l": {"ref": "a"}},
             "objects": {"a": {"record": {"val": 1, "next": {"ref": "b"}}},
                         "b": {"record": {"val": 2, "next": {"ref": "c"}}},
                         "c": {"record": {"val": 3, "next": null}}}}"#,
    );
    let out = symex(&["run", &p, "--entry", "length", "--heap", &heap]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stderr(&out).contains("result: 3"), "{}", stderr(&out));
    let out = symex(&["run", &p, "--entry", "second", "--heap", &heap]);
    assert!(stderr(&out).contains("result: 2"), "{}", stderr(&out));
}

#[test]
fn run_with_a_heap_file_follows_a_cycle() {
    let p = program("heap_cycle.uc", HEAP_PROGRAM);
    let heap = program(
        "heap_cycle.json",
        br#"{"args": {"l": {"ref": "x"}},
             "objects": {"x": {"record": {"val": 1, "next": {"ref": "y"}}},
                         "y": {"record": {"val": 2, "next": {"ref": "x"}}}}}"#,
    );
    let out = symex(&["run", &p, "--entry", "length", "--heap", &heap]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stderr(&out).contains("result: 10"), "{}", stderr(&out));
}

#[test]
fn run_with_a_heap_file_reports_a_null_deref_through_an_input_field() {
    let p = program("heap_null.uc", HEAP_PROGRAM);
    let heap = program(
        "heap_null.json",
        br#"{"args": {"l": {"ref": "a"}},
             "objects": {"a": {"record": {"val": 1, "next": null}}}}"#,
    );
    let out = symex(&["run", &p, "--entry", "second", "--heap", &heap]);
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("null dereference"), "{err}");
    assert!(err.contains("heap_null.uc:7:"), "{err}");
}

#[test]
fn bad_heap_files_exit_2_and_name_the_problem() {
    let p = program("heap_bad.uc", HEAP_PROGRAM);
    let malformed = program("heap_malformed.json", br#"{"args": {"l": null},}"#);
    let out = symex(&["run", &p, "--entry", "length", "--heap", &malformed]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("heap_malformed.json"), "{err}");
    assert!(err.contains("malformed heap JSON"), "{err}");
    assert!(err.contains("line 1 column"), "{err}");

    let dangling = program(
        "heap_dangling.json",
        br#"{"args": {"l": {"ref": "a"}},
             "objects": {"a": {"record": {"val": 1, "next": {"ref": "b"}}}}}"#,
    );
    let out = symex(&["run", &p, "--entry", "length", "--heap", &dangling]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("object `a`, field `next`: reference to object `b`"),
        "{}",
        stderr(&out)
    );

    let missing = program("heap_missing.json", br#"{"args": {}}"#);
    let out = symex(&["run", &p, "--entry", "length", "--heap", &missing]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("no value for parameter `l`"),
        "{}",
        stderr(&out)
    );

    let out = symex(&[
        "run", &p, "--entry", "length", "--heap", &missing, "--args", "1",
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let out = symex(&[
        "run",
        &p,
        "--entry",
        "length",
        "--heap",
        "/nonexistent/heap.json",
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("cannot read heap file"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn gen_is_deterministic_well_typed_and_writes_count_files() {
    let once = symex(&["gen", "--seed", "3"]);
    assert_eq!(once.status.code(), Some(0), "{}", stderr(&once));
    let twice = symex(&["gen", "--seed", "3"]);
    assert_eq!(stdout(&once), stdout(&twice));
    assert_ne!(stdout(&once), stdout(&symex(&["gen", "--seed", "4"])));
    assert!(stdout(&once).starts_with("// symex gen --seed 3 "));
    // Sizes out of range are refused at once (100 million statements ran on and on).
    for (flag, value) in [("--block-statements", "0"), ("--statements", "100000000")] {
        assert_eq!(
            symex(&["gen", flag, value]).status.code(),
            Some(2),
            "{flag}"
        );
    }
    let p = program("gen_3.uc", &once.stdout);
    let types = symex(&["types", &p]);
    assert_eq!(types.status.code(), Some(0), "{}", stderr(&types));

    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("symex-gen-test-{}", std::process::id()));
    let dir_arg = dir.to_string_lossy().into_owned();
    let out = symex(&[
        "gen",
        "--seed",
        "3",
        "--count",
        "3",
        "--out",
        &dir_arg,
        "--errors",
        "2",
        "--no-heap",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .expect("the output directory exists")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["gen_3.uc", "gen_4.uc", "gen_5.uc"]);
    let first = std::fs::read_to_string(dir.join("gen_3.uc")).expect("readable");
    assert!(
        first.contains("--errors 2 ") && first.contains("--no-heap"),
        "{first}"
    );
    assert!(!first.contains("alloc"), "{first}");
    // The header reproduces the file.
    let flags: Vec<&str> = first
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("// symex "))
        .expect("header")
        .split(' ')
        .collect();
    assert_eq!(stdout(&symex(&flags)), first);
    let _ = std::fs::remove_dir_all(&dir);

    let out = symex(&["gen", "--loop-prob", "60", "--for-prob", "50"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let out = symex(&["gen", "--count", "2"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
}

/// A pointer-parameter entry under each heap model: the null dereference is violated with an
/// input heap, `stats` counts traces, and `--heap-dot` draws the heap.
#[test]
fn check_pointer_entries_with_heap_models() {
    let pointer = program(
        "ptr.uc",
        b"f(p) { return p->val; }\nmain() { var x; x = alloc {val: 1}; return f(x); }\n",
    );
    for model in ["li", "lazier", "pose"] {
        let dot = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("symex-heap-{model}-{}.dot", std::process::id()));
        let dot_arg = dot.to_string_lossy().to_string();
        let out = symex(&[
            "check",
            &pointer,
            "--entry",
            "f",
            "--heap",
            model,
            "--format",
            "json",
            "--heap-dot",
            &dot_arg,
        ]);
        assert_eq!(out.status.code(), Some(10), "{model}: {}", stderr(&out));
        let json = String::from_utf8_lossy(&out.stdout).to_string();
        assert!(json.contains("\"traces\""), "{json}");
        assert!(json.contains("\"peak_rss_kb\""), "{json}");
        let drawing = std::fs::read_to_string(&dot).expect("the dot file");
        assert!(drawing.contains("p = null"), "{drawing}");
        let _ = std::fs::remove_file(&dot);
    }
    let out = symex(&["check", &pointer, "--entry", "f", "--heap", "nope"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn reach_answers_with_exit_codes_and_refuses_lines_without_statements() {
    let path = program(
        "reach.uc",
        b"main() {\n  var a;\n  a = input;\n  if (a > 5) {\n    if (a < 3) {\n      output 1;\n    }\n    output 2;\n  }\n  return 0;\n}\n",
    );
    for engine in ["forward", "backward", "structural"] {
        let reached = symex(&[
            "check", &path, "--engine", engine, "--reach", "8", "--format", "json",
        ]);
        assert_eq!(
            reached.status.code(),
            Some(10),
            "{engine}: {}",
            stderr(&reached)
        );
        let json = stdout(&reached);
        assert!(
            json.contains("\"kind\": \"reach\"") && json.contains("\"violated\""),
            "{json}"
        );
        let unreachable = symex(&["check", &path, "--engine", engine, "--reach", "6"]);
        assert_eq!(
            unreachable.status.code(),
            Some(0),
            "{engine}: {}",
            stdout(&unreachable)
        );
        let blank = symex(&["check", &path, "--engine", engine, "--reach", "2"]);
        assert_eq!(blank.status.code(), Some(2), "{engine}");
        assert!(
            stderr(&blank).contains("line 2 holds no statement"),
            "{}",
            stderr(&blank)
        );
    }
    let both = symex(&[
        "check", &path, "--engine", "backward", "--reach", "8", "--target", "8",
    ]);
    assert_eq!(both.status.code(), Some(2));
    // A `--target` where no property starts would check nothing.
    let typo = symex(&["check", &path, "--engine", "backward", "--target", "999"]);
    exits_mentioning(&typo, 2, "--target 999: no property starts there");
}

#[test]
fn dump_smt_writes_every_check_of_every_engine() {
    let path = program(
        "dump.uc",
        b"main() {\n  var a;\n  a = input;\n  assert(a * 3 != 21);\n  return 0;\n}\n",
    );
    for engine in ["forward", "backward", "structural"] {
        let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("symex-dump-{engine}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let dir_arg = dir.to_string_lossy().into_owned();
        let out = symex(&["check", &path, "--engine", engine, "--dump-smt", &dir_arg]);
        assert_eq!(out.status.code(), Some(10), "{engine}: {}", stderr(&out));
        let files: Vec<_> = std::fs::read_dir(&dir)
            .expect("the dump directory exists")
            .map(|e| e.expect("a directory entry").path())
            .collect();
        assert!(!files.is_empty(), "{engine}: no query written");
        for file in &files {
            let text = std::fs::read_to_string(file).expect("a query file");
            assert!(
                text.contains("(check-sat)") && text.contains("(assert"),
                "{engine}: {}: {text}",
                file.display()
            );
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn the_structural_engine_refines_lazily_or_inlines_and_reports_its_statistics() {
    let path = program(
        "structural.uc",
        b"next(x) {\n  return x + 1;\n}\n\nmain() {\n  var a, b;\n  a = input;\n  b = next(a);\n  assert(b != 14);\n  return b;\n}\n",
    );
    for refine in ["lazy", "eager"] {
        let out = symex(&[
            "check",
            &path,
            "--engine",
            "structural",
            "--refine",
            refine,
            "--format",
            "json",
        ]);
        assert_eq!(out.status.code(), Some(10), "{refine}: {}", stderr(&out));
        let json = stdout(&out);
        for key in [
            "\"engine\": \"structural\"",
            "\"vcs\"",
            "\"refinements\"",
            "\"term_nodes\"",
        ] {
            assert!(json.contains(key), "{refine}: {key} missing: {json}");
        }
        // a = 13 is the only failing input: the replayed counterexample says so.
        let text = symex(&["check", &path, "--engine", "structural", "--refine", refine]);
        assert!(stdout(&text).contains("inputs: 13\n"), "{}", stdout(&text));
    }
    let out = symex(&[
        "check",
        &path,
        "--engine",
        "structural",
        "--refine",
        "sometimes",
    ]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn svcomp_answers_a_task_and_refuses_bad_ones_clearly() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../vendor/sv-comp");
    let task = dir.join("loop-simple/nested_1b.yml");
    let task = task.to_string_lossy();
    let out = symex(&[
        "svcomp",
        &task,
        "--property",
        "unreach-call",
        "--timeout",
        "10",
    ]);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "unreach-call: FALSE\n"
    );
    assert_eq!(out.status.code(), Some(10));
    let out = symex(&["svcomp", &task, "--property", "no-such-property"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("has no property `no-such-property`"));
    let out = symex(&["svcomp", "does-not-exist.yml"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).starts_with("error: cannot read the task"));
    // A task that lists no property: nothing printed and exit 0 would read as all TRUE.
    let bare = program(
        "bare.yml",
        b"format_version: '2.0'\ninput_files: 'nested_1b.c'\n",
    );
    exits_mentioning(
        &symex(&["svcomp", &bare]),
        1,
        "lists no verification property",
    );
    exits_mentioning(
        &symex(&["svcomp", &task, "--timeout", "1e19"]),
        2,
        "at most",
    );
    let missing = symex(&["svcomp", "--suite", "no-such-folder"]);
    exits_mentioning(&missing, 2, "`no-such-folder` is not a folder of tasks");
    // SV-COMP's tasks are C: a micro-c input is refused as such, not through an option the
    // user never gave.
    program("task_input.uc", b"main() { return 0; }\n");
    let micro_c = program(
        "micro_c.yml",
        b"format_version: '2.0'\ninput_files: 'task_input.uc'\nproperties:\n  - property_file: ../properties/unreach-call.prp\n    expected_verdict: true\n",
    );
    exits_mentioning(&symex(&["svcomp", &micro_c]), 1, "is not a C file");
    // What a task says is read, not guessed: a data model other than ILP32 and LP64 (it was
    // taken for ILP32), a format other than 2.0 or 1.x, a property file that cannot be read
    // (the witness states its formula), and a property told by its formula, not its name.
    program("nested_1b.c", b"int main(void) { return 0; }\n");
    for (yml, why) in [
        ("options:\n  data_model: lp64\n", "the data model `lp64`"),
        ("options:\n  language: Java\n", "the language `Java`"),
    ] {
        let bad = program(
            "bad_model.yml",
            format!(
                "format_version: '2.0'\ninput_files: 'nested_1b.c'\nproperties:\n  \
                 - property_file: unreach-call.prp\n{yml}"
            )
            .as_bytes(),
        );
        exits_mentioning(&symex(&["svcomp", &bad]), 1, why);
    }
    let old = program(
        "old_format.yml",
        b"format_version: '3.7'\ninput_files: 'nested_1b.c'\n",
    );
    exits_mentioning(&symex(&["svcomp", &old]), 1, "format_version 3.7");
    let unread = program(
        "unread.yml",
        b"format_version: '2.0'\ninput_files: 'nested_1b.c'\nproperties:\n  \
          - property_file: nowhere/unreach-call.prp\n",
    );
    exits_mentioning(
        &symex(&["svcomp", &unread]),
        1,
        "cannot read the property file `nowhere/unreach-call.prp`",
    );
    program("renamed.prp", b"CHECK( init(main()), LTL(G ! overflow) )\n");
    let renamed = program(
        "renamed.yml",
        b"format_version: '2.0'\ninput_files: 'nested_1b.c'\nproperties:\n  \
          - property_file: renamed.prp\n",
    );
    let out = symex(&["svcomp", &renamed, "--timeout", "10"]);
    assert_eq!(stdout(&out), "no-overflow: TRUE\n");
    exits_mentioning(
        &symex(&["svcomp", &renamed, "--format", "csv"]),
        2,
        "options of --suite",
    );
}

#[test]
fn svcomp_suite_scores_a_folder_of_tasks() {
    let vendor = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../vendor/sv-comp");
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("symex-suite-{}", std::process::id()));
    let tasks = dir.join("loop-simple");
    std::fs::create_dir_all(&tasks).unwrap();
    for name in ["nested_1", "nested_1b"] {
        for ext in ["yml", "c"] {
            let file = format!("{name}.{ext}");
            std::fs::copy(vendor.join("loop-simple").join(&file), tasks.join(&file)).unwrap();
        }
    }
    let properties = dir.join("properties");
    std::fs::create_dir_all(&properties).unwrap();
    let prp = "unreach-call.prp";
    std::fs::copy(vendor.join("properties").join(prp), properties.join(prp)).unwrap();
    let dir_text = dir.to_string_lossy();
    let out = symex(&[
        "svcomp",
        "--suite",
        &dir_text,
        "--timeout",
        "10",
        "--format",
        "csv",
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let table = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = table.lines().collect();
    assert_eq!(
        lines[0],
        "task,expected,answer,outcome,points,time_s,peak_mib"
    );
    assert!(
        lines[1].starts_with("loop-simple/nested_1,TRUE,TRUE,correct,2,"),
        "{table}"
    );
    assert!(
        lines[2].starts_with("loop-simple/nested_1b,FALSE,FALSE,correct,1,"),
        "{table}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// Writes the C program `source` as `{stem}.c` and a `valid-memsafety` task for it as
/// `{stem}.yml` (LP64, the given expected verdict); returns the task's path.
fn memsafety_task(stem: &str, source: &str, expected: bool) -> String {
    task(stem, source, "valid-memsafety", expected)
}

/// A task (format 2.0, LP64) of the C program `source` under `property`.
/// Writes SV-COMP's property file `{property}.prp` beside the test's programs (symex tells a
/// task's properties by their formulas).
fn property_file(property: &str) {
    let formula = match property {
        "unreach-call" => "CHECK( init(main()), LTL(G ! call(reach_error())) )\n",
        "no-overflow" => "CHECK( init(main()), LTL(G ! overflow) )\n",
        "valid-memsafety" => {
            "CHECK( init(main()), LTL(G valid-free) )\nCHECK( init(main()), LTL(G valid-deref) )\n\
             CHECK( init(main()), LTL(G valid-memtrack) )\n\
             CHECK( init(main()), LTL(G valid-memcleanup) )\n"
        }
        other => panic!("no formula for {other}"),
    };
    program(&format!("{property}.prp"), formula.as_bytes());
}

fn task(stem: &str, source: &str, property: &str, expected: bool) -> String {
    property_file(property);
    let c_file = program(&format!("{stem}.c"), source.as_bytes());
    let name = std::path::Path::new(&c_file)
        .file_name()
        .expect("a file name")
        .to_string_lossy()
        .into_owned();
    let task = format!(
        "format_version: '2.0'\ninput_files: '{name}'\nproperties:\n  - property_file: \
         {property}.prp\n    expected_verdict: {expected}\noptions:\n  language: C\n  \
         data_model: LP64\n"
    );
    program(&format!("{stem}.yml"), task.as_bytes())
}

/// `free` in `valid-memsafety`: a second `free` is `FALSE(valid-free)`, a read of a freed
/// object `FALSE(valid-deref)`, each with a witness.
#[test]
fn svcomp_memsafety_names_the_violated_free_property() {
    let cases = [
        ("free(p); free(p);", "valid-memsafety: FALSE(valid-free)"),
        ("free(p); return *p;", "valid-memsafety: FALSE(valid-deref)"),
    ];
    for (i, (body, answer)) in cases.into_iter().enumerate() {
        let source = format!(
            "extern void *malloc(unsigned long); extern void free(void *);
             int main() {{ int *p = malloc(sizeof(int)); *p = 1; {body} return 0; }}\n"
        );
        let task = memsafety_task(&format!("free{i}"), &source, false);
        let (_, written) = witnessed(&task, answer);
        assert!(written.contains("violation_sequence"), "{written}");
    }
}

/// `symex svcomp` reads an uninitialized integer local, and the numbers of a small array or
/// struct of integers, as arbitrary values (SV-COMP's and CBMC's reading): `TRUE` for every
/// value, `FALSE` where one reaches the error (the witness has no waypoint for them), and a
/// new value on each run of a declaration in a loop (the same value twice would make the
/// loop's task `TRUE`).
#[test]
fn svcomp_reads_uninitialized_locals_as_inputs() {
    // (body, expected verdict, the witness's waypoints of `__VERIFIER_nondet_*` calls)
    let cases: [(&str, bool, &[&str]); 8] = [
        ("int c; if (c > 5) { if (c < 3) reach_error(); }", true, &[]),
        // Arrays and structs of integers read one input per number.
        (
            "char m[4]; struct { short a; int b; } s; \
             if (m[3] == 9 && s.b == m[3] + 1) reach_error();",
            false,
            &[],
        ),
        (
            "int a[3]; int v = __VERIFIER_nondet_int(); a[1] = v; \
             if (a[1] != v) reach_error();",
            true,
            &[],
        ),
        (
            "int c; unsigned char b; if (c == 7 && b == 200) reach_error();",
            false,
            &[],
        ),
        (
            "int seen = 0; for (int i = 0; i < 2; i++) { int k; if (i == 0) seen = k; \
             else if (k != seen) reach_error(); }",
            false,
            &[],
        ),
        // A `goto` inside a variable's block past its declaration keeps the value the block
        // gave it since it started (C11 6.2.4), and finds it indeterminate before that.
        (
            "int k = 0; { again: if (k) goto L; int x; x = 5; k = 1; goto again; \
             L: if (x != 5) reach_error(); }",
            true,
            &[],
        ),
        (
            "int k = 1; { if (k) goto L; int x; x = 5; L: if (x != 5) reach_error(); }",
            false,
            &[],
        ),
        // A 64-bit local's two inputs come before the call's two: only the call's, joined,
        // are a waypoint.
        (
            "long long w; long long v = __VERIFIER_nondet_longlong(); \
             if (w == 3 && v == 4294967301LL) reach_error();",
            false,
            &["\\result == 4294967301"],
        ),
    ];
    for (i, (body, expected, waypoints)) in cases.into_iter().enumerate() {
        let source = format!(
            "extern void abort(void); void reach_error(void) {{ abort(); }}
             extern long long __VERIFIER_nondet_longlong(void);
             extern int __VERIFIER_nondet_int(void);
             int main() {{ {body} return 0; }}\n"
        );
        let task = task(&format!("uninit{i}"), &source, "unreach-call", expected);
        let answer = if expected {
            "unreach-call: TRUE"
        } else {
            "unreach-call: FALSE"
        };
        let (_, written) = witnessed(&task, answer);
        assert_eq!(
            written.contains("violation_sequence"),
            !expected,
            "{written}"
        );
        assert_eq!(
            written.matches("function_return").count(),
            waypoints.len(),
            "{written}"
        );
        for waypoint in waypoints {
            assert!(written.contains(waypoint), "{written}");
        }
    }
}

/// `unreach-call` lets `int` arithmetic wrap around, but a counterexample that reaches the
/// error only through a signed overflow (undefined behaviour, which SV-COMP's tasks assume
/// away) is no `FALSE`: `UNKNOWN`, with the overflow's place. Where a run without one reaches
/// the error too, the answer is `FALSE` with that run's witness.
#[test]
fn svcomp_reaching_the_error_through_a_signed_overflow_is_no_false() {
    let head = "extern int __VERIFIER_nondet_int(void); extern void abort(void);
                void reach_error(void) { abort(); }
                int main() { int x = __VERIFIER_nondet_int();";
    let cases = [
        (
            "if (x > 0) { int y = x + 1; if (y < 0) reach_error(); } return 0; }",
            "unreach-call: UNKNOWN (",
        ),
        (
            "int y = x + 1; if (y < x) reach_error(); if (x == 5) reach_error(); return 0; }",
            "unreach-call: FALSE",
        ),
    ];
    for (i, (body, answer)) in cases.into_iter().enumerate() {
        let source = format!("{head}\n{body}\n");
        let task = task(&format!("wraps{i}"), &source, "unreach-call", false);
        let witness = program(&format!("wraps{i}.witness.yml"), b"");
        let out = symex(&["svcomp", &task, "--timeout", "20", "--witness", &witness]);
        let text = stdout(&out);
        assert!(text.contains(answer), "{text}{}", stderr(&out));
        if answer.contains("UNKNOWN") {
            assert!(text.contains("signed overflow at 4:"), "{text}");
        } else {
            let written = std::fs::read_to_string(&witness).expect("the witness is written");
            assert!(written.contains("\\result == 5"), "{written}");
        }
    }
}

/// Asserts that `symex svcomp TASK --timeout 10` answers `answer`.
fn svcomp_answers(task: &str, answer: &str) {
    let out = symex(&["svcomp", task, "--timeout", "10"]);
    assert!(
        stdout(&out).contains(answer),
        "{}{}",
        stdout(&out),
        stderr(&out)
    );
}

/// Runs `symex svcomp TASK --witness W`, which must answer `answer`: the witness's path and
/// text (empty where no answer is `FALSE`, and no file is written).
fn witnessed(task: &str, answer: &str) -> (String, String) {
    let witness = format!("{task}.witness");
    let out = symex(&["svcomp", task, "--timeout", "10", "--witness", &witness]);
    assert!(
        stdout(&out).contains(answer),
        "{}{}",
        stdout(&out),
        stderr(&out)
    );
    let written = std::fs::read_to_string(&witness).unwrap_or_default();
    (witness, written)
}

/// Checks each `(stem, source, answer)` as a `valid-memsafety` task `{prefix}_{stem}`: a
/// `FALSE` answer with a witness that the validator confirms, any other as it is.
fn memsafety_cases(
    prefix: &str,
    cases: impl IntoIterator<Item = (&'static str, String, &'static str)>,
) {
    for (stem, source, answer) in cases {
        let expected = answer.ends_with("TRUE");
        let task = memsafety_task(&format!("{prefix}_{stem}"), &source, expected);
        if answer.contains("FALSE") {
            let (witness, _) = witnessed(&task, answer);
            validation(&task, &witness, 10, "witness confirmed");
        } else {
            svcomp_answers(&task, answer);
        }
    }
}

/// A 64-bit input is two inputs to symex; the witness gives the call's value as one number.
#[test]
fn svcomp_witnesses_join_the_halves_of_a_64_bit_input() {
    let source = "extern long __VERIFIER_nondet_long(void);
                  int main() { int a[2]; long k = __VERIFIER_nondet_long();
                  if (k == 4294967297L) a[2] = 1; return 0; }\n";
    let task = memsafety_task("wide_input", source, false);
    let (witness, written) = witnessed(&task, "valid-memsafety: FALSE(valid-deref)");
    assert!(written.contains("\\result == 4294967297"), "{written}");
    // `--validate` runs the program on the witness's values (the 64-bit one as symex's two
    // inputs) and confirms the violation at its target.
    validation(
        &task,
        &witness,
        10,
        "valid-memsafety: witness confirmed: FALSE(valid-deref) at",
    );
    // Another value does not reach it.
    let changed = program(
        "wide_input.changed.yml",
        written.replace("4294967297", "4294967296").as_bytes(),
    );
    validation(
        &task,
        &changed,
        20,
        "witness not confirmed (the run ends without a violation",
    );
    // A file that is no violation witness is refused.
    let out = symex(&["svcomp", &task, "--validate", &task]);
    exits_mentioning(&out, 1, "violation_sequence");
}

#[test]
fn nondet_locals_are_inputs_on_request_and_their_replay_line_runs() {
    let p = program(
        "indeterminate.c",
        b"void reach_error(void);\n\
          int main(void) {\n  int c;\n  if (c == 42)\n    reach_error();\n  return 0;\n}\n",
    );
    // Without the option the read of `c` is the `uninit` check, and ends the path.
    let out = symex(&["check", &p]);
    assert_eq!(out.status.code(), Some(10), "{}", stdout(&out));
    assert!(stdout(&out).contains("uninit"), "{}", stdout(&out));
    assert!(!stdout(&out).contains("reach_error"), "{}", stdout(&out));
    let out = symex(&["check", "--nondet-locals", &p]);
    assert_eq!(out.status.code(), Some(10), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(!text.contains("uninit"), "{text}");
    let replay = replay_line(&text);
    assert!(replay.contains(" --nondet-locals --input 42"), "{replay}");
    let out = run_replay(replay);
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
}

/// The command of the first `replay:` line of a report (without `symex`).
fn replay_line(text: &str) -> &str {
    text.lines()
        .find_map(|l| l.trim().strip_prefix("replay: symex "))
        .unwrap_or_else(|| panic!("no replay line: {text}"))
}

/// Runs a replay line's command.
fn run_replay(replay: &str) -> std::process::Output {
    let words: Vec<&str> = replay.split_whitespace().collect();
    symex(&words)
}

#[test]
fn signed_overflow_is_checked_on_request_and_its_replay_line_runs() {
    let p = program(
        "overflow.c",
        b"int __VERIFIER_nondet_int(void);\n\
          int main(void) {\n  int x = __VERIFIER_nondet_int();\n  if (x > 1000)\n    return x * 3;\n  return 0;\n}\n",
    );
    // Without the option `int` arithmetic wraps around and nothing is checked.
    let out = symex(&["check", &p]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    let out = symex(&["check", "--signed-overflow", &p]);
    assert_eq!(out.status.code(), Some(10), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("signed integer overflow"), "{text}");
    let replay = replay_line(&text);
    assert!(replay.contains(" --signed-overflow"), "{replay}");
    let out = run_replay(replay);
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("signed integer overflow"),
        "{}",
        stderr(&out)
    );
    // The data model is repeated in the replay line too.
    let out = symex(&["check", "--signed-overflow", "--data-model", "ilp32", &p]);
    assert!(
        stdout(&out).contains(" --signed-overflow --data-model ilp32 --input"),
        "{}",
        stdout(&out)
    );
    // micro-c's numbers wrap by definition: the option is a usage error there.
    let out = symex(&["check", "--signed-overflow", &example("factorial.uc")]);
    exits_mentioning(&out, 2, "applies to C programs");
}

#[test]
fn a_c_file_is_preprocessed_with_the_macros_of_its_data_model() {
    // The headers' limits and gcc's own macros follow `--data-model`: under ILP32 a `long`
    // compared with `LONG_MAX` meets a 32-bit constant (a 64-bit one, as a plain `gcc -E`
    // gives, made the comparison never true: a wrong `TRUE`).
    let p = program(
        "limits.c",
        b"#include <limits.h>\n#include <stddef.h>\n#include <stdint.h>\n#include <assert.h>\n\
          int main(void) {\n  long m = LONG_MAX;\n  assert(m == 2147483647L);\n\
          assert(SIZE_MAX == 4294967295U && __SIZEOF_LONG__ == 4 && sizeof(size_t) == 4);\n\
          #ifdef __LP64__\n  assert(0);\n#endif\n  return 0;\n}\n",
    );
    let out = symex(&["check", "--data-model", "ilp32", &p]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        stdout(&out),
        stderr(&out)
    );
    let out = symex(&["check", "--data-model", "lp64", &p]);
    assert_eq!(
        out.status.code(),
        Some(10),
        "{}{}",
        stdout(&out),
        stderr(&out)
    );
}

#[test]
fn c_arrays_are_checked_by_the_forward_and_structural_engines_and_unknown_to_backward() {
    let p = program(
        "arrays.c",
        b"int __VERIFIER_nondet_int(void);\nvoid reach_error(void);\n\
          int main(void) {\n  int a[4];\n  int i;\n  for (i = 0; i < 4; i++) a[i] = 2 * i;\n\
          \x20 int k = __VERIFIER_nondet_int();\n  if (k >= 0 && k < 4 && a[k] == 6) reach_error();\n\
          \x20 return a[k & 3];\n}\n",
    );
    // The structural engine unwinds loops once unless told more (thesis default).
    for (engine, unwind) in [("forward", "100"), ("structural", "5")] {
        let out = symex(&[
            "check", "--engine", engine, "--unwind", unwind, "--format", "json", &p,
        ]);
        assert_eq!(out.status.code(), Some(10), "{engine}: {}", stderr(&out));
        let json = stdout(&out);
        // The reach_error call on line 8 fails for k = 3, and nothing else can.
        let report: serde_json::Value = serde_json::from_str(&json).expect("a JSON report");
        let violated: Vec<(String, u64)> = report["properties"]
            .as_array()
            .expect("properties")
            .iter()
            .filter(|p| p["status"] == "violated")
            .map(|p| {
                (
                    p["kind"].as_str().unwrap_or("").to_string(),
                    p["line"].as_u64().unwrap_or(0),
                )
            })
            .collect();
        assert_eq!(violated, [("assert".to_string(), 8)], "{engine}: {json}");
        let inputs = report["properties"]
            .as_array()
            .and_then(|ps| ps.iter().find(|p| p["status"] == "violated"))
            .map(|p| p["counterexample"]["inputs"].clone());
        assert_eq!(inputs, Some(serde_json::json!([3])), "{engine}: {json}");
    }
    let out = symex(&["check", "--engine", "backward", &p]);
    assert_eq!(out.status.code(), Some(20), "{}", stdout(&out));
    assert!(
        stdout(&out).contains("does not model arrays"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn a_reader_that_closes_the_pipe_early_is_no_internal_error() {
    // `symex check … | head -c 1`: the report cannot be written in full, which is no bug.
    let mut child = Command::new(env!("CARGO_BIN_EXE_symex"))
        .args(["check", "examples/list_length.uc", "--format", "json"])
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("symex starts");
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("symex ends");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_ne!(out.status.code(), Some(101), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn an_entry_function_left_out_of_a_c_program_is_refused_with_its_reason() {
    // `counter` uses a `static` local (a global, which only `main` has): it is left out, so
    // `--entry counter` says why instead of "no function named".
    let p = program(
        "static_local.c",
        b"int counter(void) { static int calls; calls++; return calls; }\n\
          int main(void) { return counter() + counter(); }\n",
    );
    let out = symex(&["check", "--entry", "counter", &p]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("the `static` local `calls` in `counter` on its own"),
        "{}",
        stderr(&out)
    );
    let out = symex(&["run", &p]);
    assert!(stderr(&out).contains("result: 3"), "{}", stderr(&out));
}

#[test]
fn c_programs_with_64_bit_inputs_are_decided_and_replayed() {
    // A 64-bit input is two 32-bit inputs, the high half first: a violation that needs a
    // value beyond 32 bits is found, and its inputs replay with `symex run`.
    let violated = program(
        "wide_violated.c",
        b"long __VERIFIER_nondet_long(void);\nvoid reach_error(void);\n\
          int main(void) {\n  long x = __VERIFIER_nondet_long();\n  if (x == 123456789012L) reach_error();\n  return 0;\n}\n",
    );
    let out = symex(&["check", &violated]);
    assert_eq!(out.status.code(), Some(10), "{}", stdout(&out));
    assert!(
        stdout(&out).contains("inputs: 28,-1097262572"),
        "{}",
        stdout(&out)
    );
    let out = symex(&["run", &violated, "--input", "28,-1097262572"]);
    assert!(
        stderr(&out).contains("assertion failed"),
        "{}",
        stderr(&out)
    );
    let holds = program(
        "wide_holds.c",
        b"long __VERIFIER_nondet_long(void);\nvoid reach_error(void);\n\
          int main(void) {\n  long x = __VERIFIER_nondet_long();\n  if (x > 1000 && x < 10) reach_error();\n  return 0;\n}\n",
    );
    let out = symex(&["check", &holds]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
}

/// `valid-memsafety` is `TRUE` only where symex checks all of it: not where a leak is not
/// checked (`malloc` with a global pointer), nor where a pointer can outlive a local object
/// (`&` of a local or a member, `alloca`: symex keeps such objects alive, so a dangling
/// pointer would go unnoticed); a leak where `main` returns is `FALSE(valid-memtrack)`.
#[test]
fn svcomp_memsafety_is_true_only_where_memory_is_fully_checked() {
    let cases = [
        ("int a[2]; a[1] = 1; return a[1];", "valid-memsafety: TRUE"),
        ("int *p = &g; *p = 1; return g;", "valid-memsafety: TRUE"),
        (
            "struct s v; int *p = &v.a; *p = 1; return v.a;",
            "valid-memsafety: UNKNOWN",
        ),
        (
            // A function's return ends its variables (`use-after-return`).
            "return *dangling(); } int *dangling(void) { struct s t; t.a = 1; return &t.a;",
            "valid-memsafety: FALSE(valid-deref)",
        ),
        (
            "return *var(); } int *var(void) { int x = 1; return &x;",
            "valid-memsafety: FALSE(valid-deref)",
        ),
        (
            "return use(); } int use(void) { int x = 1; int *p = &x; return *p;",
            "valid-memsafety: TRUE",
        ),
        (
            // `main`'s outermost locals live until the program ends; a block's do not.
            "int x = 1; int *p = &x; return *p;",
            "valid-memsafety: TRUE",
        ),
        (
            "int *p; { int x = 1; p = &x; } return *p;",
            "valid-memsafety: UNKNOWN",
        ),
        (
            "int *p = alloca(sizeof(int)); *p = 1; return *p;",
            "valid-memsafety: UNKNOWN",
        ),
        (
            "int *p = malloc(sizeof(int)); *p = 1; return *p;",
            "valid-memsafety: FALSE(valid-memtrack)",
        ),
        (
            "int *p = malloc(sizeof(int)); *p = 1; int r = *p; free(p); return r;",
            "valid-memsafety: TRUE",
        ),
        (
            // A global (here a `static` local) may still point to it: not lost, not checked.
            "static int *kept; kept = malloc(sizeof(int)); return 0;",
            "valid-memsafety: UNKNOWN",
        ),
        (
            // Counting objects inlines the calls that allocate, free or exit; a recursive `f`
            // that does none of these stays a call.
            "malloc(sizeof(int)); return f(3); } int f(int n) { return n ? f(n - 1) : 0;",
            "valid-memsafety: FALSE(valid-memtrack)",
        ),
        (
            // One that does cannot be inlined: the objects left are counted by their heap
            // states (refused before session 68, so never `TRUE`).
            "return f(3); } int f(int n) { free(malloc(sizeof(int))); return n ? f(n - 1) : 0;",
            "valid-memsafety: TRUE",
        ),
        (
            "return f(3); } int f(int n) { int *p = malloc(sizeof(int)); if (n == 2) return 0; \
             free(p); return n ? f(n - 1) : 0;",
            "valid-memsafety: FALSE(valid-memtrack)",
        ),
        (
            // A leak on a path that never ends is never checked: no search follows it to its end.
            "int x = 4; while (1) { malloc(sizeof(int)); x = x / 2; }",
            "valid-memsafety: UNKNOWN",
        ),
        (
            // `abort` in a called function, with the object lost before: not decided.
            "int *p = malloc(sizeof(int)); p = 0; die(); return 0; } void die(void) { abort();",
            "valid-memsafety: UNKNOWN",
        ),
    ];
    for (i, (body, answer)) in cases.into_iter().enumerate() {
        let source = format!(
            "extern void *malloc(unsigned long); extern void *alloca(unsigned long);
             extern void free(void *); extern void abort(void); int f(int); void die(void);
             struct s {{ int a; int b; }};
             int g; int *dangling(void); int *var(void); int use(void);
             int main() {{ {body} }}\n"
        );
        let task = memsafety_task(&format!("leaks{i}"), &source, true);
        let out = symex(&["svcomp", &task, "--timeout", "10"]);
        assert!(
            stdout(&out).contains(answer),
            "{body}: {}{}",
            stdout(&out),
            stderr(&out)
        );
    }
}

/// A reader that closes the pipe (`symex run P 2>&1 | head -1`) ends the output, not the run:
/// the exit code is the command's own, never a panic's 101.
#[test]
fn closed_output_pipes_end_quietly_with_the_normal_code() {
    let p = program(
        "closed_pipe.uc",
        b"main() {\n  var x;\n  x = input;\n  assert(x < 5);\n  return 0;\n}\n",
    );
    for (args, code) in [
        (vec!["run", p.as_str(), "--input", "7"], 3),
        (vec!["check", p.as_str()], 10),
    ] {
        for closed in ["stdout", "stderr"] {
            let mut command = Command::new(env!("CARGO_BIN_EXE_symex"));
            command.args(&args).env("NO_COLOR", "1");
            command.stdout(std::process::Stdio::piped());
            command.stderr(std::process::Stdio::piped());
            let mut child = command.spawn().expect("the symex binary runs");
            // The read end closes before the child has written anything.
            match closed {
                "stdout" => drop(child.stdout.take()),
                _ => drop(child.stderr.take()),
            }
            let status = child.wait().expect("symex ends");
            assert_eq!(status.code(), Some(code), "{args:?} with {closed} closed");
        }
    }
}

/// `--entry` of a C function whose parameters reach what an input heap cannot stand for is
/// refused: boxed struct members, 64-bit integers in memory. A 64-bit parameter itself is a
/// 64-bit symbol (session 31): its counterexample's argument needs more than 32 bits, and
/// `symex run --args` replays it.
#[test]
fn c_entry_functions_are_refused_where_inputs_cannot_stand_for_c_values() {
    let p = program(
        "entries.c",
        b"void reach_error(void);\nstruct s { int a, b; };\n\
          int *first(struct s *q) { return &q->a; }\n\
          int f(struct s *p) { if (!p) return 0; p->a = 1; if (p->a != 1) reach_error(); return 0; }\n\
          int g(long x) { if (x == 7 || x > 2147483647L) return 1; return 0; }\n\
          int h(long *x) { return *x == 7; }\n\
          int wide(long x) { if (x > 4294967296L) reach_error(); return 0; }\n\
          int main(void) { return 0; }\n",
    );
    let out = symex(&["check", "--entry", "f", &p]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("`f` on its own"), "{}", stderr(&out));
    let out = symex(&["check", "--entry", "h", &p]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("a parameter points to a 64-bit integer"),
        "{}",
        stderr(&out)
    );
    let out = symex(&["check", "--entry", "wide", &p, "--format", "json"]);
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let properties = report["properties"].as_array().expect("properties");
    let violated = (properties.iter())
        .find(|p| p["status"] == "violated")
        .expect("a violation");
    let args = &violated["counterexample"]["args"];
    let x = args["x"].as_i64().expect("a number");
    assert!(x > 4_294_967_296, "{report}");
    let x = x.to_string();
    let out = symex(&["run", &p, "--entry", "wide", "--args", &x]);
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
}

/// `symex report RUN.json --html` makes the page `check --html` made from the same run; a
/// missing or malformed report and an unreadable program are usage errors that say which.
#[test]
fn report_turns_a_saved_json_report_into_the_same_html_page() {
    let page = program("direct.html", b"");
    let out = symex(&[
        "check",
        &example("list_length.uc"),
        "--format",
        "json",
        "--html",
        &page,
    ]);
    assert_eq!(out.status.code(), Some(10), "{}", stderr(&out));
    let run = program("run.json", &out.stdout);
    let again = program("again.html", b"");
    let out = symex(&["report", &run, "--html", &again]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let direct = std::fs::read_to_string(&page).unwrap();
    assert!(direct.contains("<!DOCTYPE html>") && direct.contains("list_length.uc"));
    assert_eq!(std::fs::read_to_string(&again).unwrap(), direct);

    let out = symex(&["report", &program("nothing.json", b"{}"), "--html", &again]);
    exits_mentioning(&out, 2, "is not a symex JSON report");
    let out = symex(&["report", "/nonexistent/run.json", "--html", &again]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("cannot read"), "{}", stderr(&out));
    let moved = String::from_utf8_lossy(&std::fs::read(&run).unwrap())
        .replace(&example("list_length.uc"), "/nonexistent/list_length.uc");
    let moved = program("moved.json", moved.as_bytes());
    let out = symex(&["report", &moved, "--html", &again]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--source"), "{}", stderr(&out));
    let out = symex(&[
        "report",
        &moved,
        "--html",
        &again,
        "--source",
        &example("list_length.uc"),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

/// A safe program whose check takes as long as its `--timeout`: 2^16 paths, each asking the
/// solver about a sum of inputs.
fn slow_program() -> String {
    let mut text = String::from("main() {\n  var s, x;\n  s = 0;\n");
    for i in 0..16 {
        text.push_str(&format!(
            "  x = input;\n  assume(x < 100);\n  assume(x > -100);\n  if (x > {i}) {{ s = s + x; }}\n"
        ));
    }
    text.push_str("  assert(s != 123456789);\n  return 0;\n}\n");
    program("slow.uc", text.as_bytes())
}

/// On a terminal (a pseudo-terminal from `script`), a check shows its progress bar on stderr:
/// the figures and the time left of `--timeout`; on a pipe, and with `--quiet`, nothing, and
/// `--quiet` leaves only the summary line of the text report.
#[test]
fn the_progress_bar_shows_on_a_terminal_only_and_not_when_quiet() {
    let p = slow_program();
    let bin = env!("CARGO_BIN_EXE_symex");
    let on_terminal = |extra: &str| {
        let command = format!("'{bin}' check '{p}' --timeout 1.5 {extra}");
        let out = Command::new("script")
            .args(["-qec", &command, "/dev/null"])
            .env("NO_COLOR", "1")
            .output()
            .expect("script runs");
        assert_eq!(out.status.code(), Some(20), "{}", stdout(&out));
        stdout(&out)
    };
    let shown = on_terminal("");
    assert!(shown.contains("s left"), "{shown}");
    assert!(shown.contains("properties "), "{shown}");
    let quiet = on_terminal("--quiet");
    assert!(!quiet.contains("s left"), "{quiet}");
    assert_eq!(quiet.trim().lines().count(), 1, "{quiet}");
    assert!(quiet.trim().starts_with("summary: "), "{quiet}");

    let out = symex(&["check", &p, "--timeout", "1"]);
    assert_eq!(out.status.code(), Some(20));
    assert!(!stderr(&out).contains("s left"), "{}", stderr(&out));
}

/// Every exit code of the README's table is what a command returns in the situation the table
/// names (30, an allocation that fails, cannot be made to happen on purpose), and the table
/// lists every code the binary uses.
#[test]
fn exit_codes_in_the_readme_are_what_commands_return() {
    let readme = std::fs::read_to_string(format!("{}/../../README.md", env!("CARGO_MANIFEST_DIR")))
        .expect("the README");
    let table = &readme[readme.find("## Exit codes").expect("an exit-code section")..];
    let codes: Vec<i32> = table
        .lines()
        .skip_while(|l| !l.starts_with("| code"))
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .map(|l| l.split('|').nth(1).unwrap().trim().parse().expect("a code"))
        .collect();
    assert_eq!(codes, [0, 1, 2, 3, 4, 5, 10, 20, 30, 101]);

    let division = example("division.uc");
    let broken = program("broken.uc", b"main() { return 1 }\n");
    let assume = program(
        "assume.uc",
        b"main() { var x; x = input; assume(x > 0); return x; }\n",
    );
    let deep = program(
        "deep.uc",
        b"f(n) { return f(n + 1); }\nmain() { return f(0); }\n",
    );
    let bounded = program(
        "bounded.uc",
        b"main() { var i; i = 0; while (i < input) { i = i + 1; } assert(i < 100); return 0; }\n",
    );
    // A test whose recorded end is not what the run does: a bug in symex, as `replay` sees it.
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("symex-exit-codes-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("test000001.json"),
        format!(
            r#"{{"program": "{division}", "entry": "main", "inputs": [1], "args": {{}},
                "end": {{"kind": "failed", "property": "div-by-zero", "line": 5, "column": 7}}}}"#
        ),
    )
    .unwrap();
    let dir = dir.to_string_lossy().into_owned();
    let cases: [(i32, Vec<&str>); 9] = [
        (0, vec!["run", &division, "--input", "1"]),
        (1, vec!["check", &broken]),
        (2, vec!["check", &division, "--no-such-option"]),
        (3, vec!["run", &division, "--input", "7"]),
        (4, vec!["run", &assume, "--input", "0"]),
        (5, vec!["run", &deep]),
        (10, vec!["check", &division]),
        (20, vec!["check", &bounded, "--unwind", "3"]),
        (101, vec!["replay", &dir, &division]),
    ];
    for (code, args) in cases {
        let out = symex(&args);
        assert_eq!(out.status.code(), Some(code), "{args:?}: {}", stderr(&out));
    }
}

/// A C counterexample's path shows objects by name, the `free` that released one, and none of
/// the front end's bookkeeping fields.
#[test]
fn a_pointer_into_an_array_is_shown_as_the_elements_address() {
    let file = format!(
        "{}/../../corpus/c-memory/pointer_walk_overrun.c",
        env!("CARGO_MANIFEST_DIR")
    );
    let out = symex(&["check", &file]);
    assert_eq!(out.status.code(), Some(10), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("p = &buf[0]") && text.contains("p = &buf[3]"),
        "{text}"
    );
    assert!(
        !text.contains("#base") && !text.contains("#index"),
        "{text}"
    );
}

#[test]
fn heap_arrays_and_pointer_members_are_shown_as_element_addresses() {
    let corpus = format!("{}/../../corpus/c-memory", env!("CARGO_MANIFEST_DIR"));
    let out = symex(&["check", &format!("{corpus}/buffer_member_overrun.c")]);
    assert_eq!(out.status.code(), Some(10), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("b.data = &o1[0]"), "{text}");
    assert!(
        !text.contains("#index") && !text.contains("#base"),
        "{text}"
    );
    // `free` of a heap array is a step of its own, before the read after it.
    let out = symex(&["check", &format!("{corpus}/heap_array_reads.c")]);
    assert_eq!(out.status.code(), Some(10), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("a = &o1[0]"), "{text}");
    let free = text.find("free o1").expect("the free step");
    let failure = text.find("use of freed memory here").expect("the failure");
    assert!(free < failure, "{text}");
}

#[test]
fn a_use_after_free_path_shows_the_free_and_no_bookkeeping() {
    let file = format!(
        "{}/../../corpus/c-memory/member_pointer_after_free.c",
        env!("CARGO_MANIFEST_DIR")
    );
    let out = symex(&["check", &file]);
    assert_eq!(out.status.code(), Some(10), "{}", stderr(&out));
    let text = stdout(&out);
    let free = text.find("free o3").expect("the free step");
    let failure = text.find("use of freed memory here").expect("the failure");
    assert!(free < failure, "{text}");
    // The boxes of the members are objects of one scalar each, shown as that scalar.
    assert!(text.contains("new o3 = {value: &o1, next: &o2}"), "{text}");
    assert!(
        text.contains("new o1 = ?") && text.contains("o1 = 5"),
        "{text}"
    );
    assert!(
        !text.contains("#assigned") && !text.contains("#heap"),
        "{text}"
    );
}

/// Each waypoint names the function whose definition holds its line, although the portfolio's
/// runs inline `main`'s calls (the IR then names `main` for all of them): the input is read in
/// `read_input`, the error reached in `__VERIFIER_assert`.
#[test]
fn svcomp_witness_waypoints_name_the_function_they_are_in() {
    let source = "extern int __VERIFIER_nondet_int(void); extern void abort(void);
                  void reach_error(void) { abort(); }
                  void __VERIFIER_assert(int c) { if (!c) reach_error(); }
                  int read_input(void) { return __VERIFIER_nondet_int(); }
                  int main() { int x = read_input(); __VERIFIER_assert(x != 7); return 0; }\n";
    let task = task("waypoint_functions", source, "unreach-call", false);
    let (_, written) = witnessed(&task, "unreach-call: FALSE");
    let entries: serde_yaml_ng::Value = serde_yaml_ng::from_str(&written).expect("YAML");
    let functions: Vec<(&str, &str)> = (entries[0]["content"].as_sequence().into_iter())
        .flatten()
        .map(|segment| {
            let waypoint = &segment["segment"][0]["waypoint"];
            let kind = waypoint["type"].as_str().unwrap_or_default();
            (
                kind,
                waypoint["location"]["function"]
                    .as_str()
                    .unwrap_or_default(),
            )
        })
        .collect();
    assert_eq!(
        functions,
        [
            ("function_return", "read_input"),
            ("target", "__VERIFIER_assert")
        ],
        "{written}"
    );
}

/// An `UNKNOWN` because the limit ran out says so with the limit given, not only with the share
/// of it that the last configuration had.
#[test]
fn svcomp_unknown_at_the_limit_names_the_whole_limit() {
    let source = "extern unsigned __VERIFIER_nondet_uint(void); extern void abort(void);
                  void reach_error(void) { abort(); }
                  int main() { unsigned s = 0;
                    for (unsigned a = 0; a < 4000000000u; a++) s ^= __VERIFIER_nondet_uint();
                    if (s == 7) reach_error(); return 0; }\n";
    let task = task("limit_ran_out", source, "unreach-call", true);
    let out = symex(&["svcomp", &task, "--timeout", "2"]);
    let text = stdout(&out);
    assert!(
        text.contains(
            "unreach-call: UNKNOWN (the limit of 2 s ran out; in the last configuration,"
        ),
        "{text}{}",
        stderr(&out)
    );
}

/// A write into a string literal is a check of its own: `check` reports it with its replayed
/// input, and `svcomp` names no sub-property for it, so no property is `TRUE` over it.
#[test]
fn a_write_into_a_string_literal_is_its_own_violation() {
    let source = "extern int __VERIFIER_nondet_int(void);
                  int main() { char *s = \"abc\"; if (__VERIFIER_nondet_int() == 7) s[0] = 'x';
                  return s[0]; }\n";
    let p = program("literal_write.c", source.as_bytes());
    let out = symex(&["check", &p]);
    assert_eq!(out.status.code(), Some(10), "{}", stdout(&out));
    assert!(
        stdout(&out).contains("write into a string literal"),
        "{}",
        stdout(&out)
    );
    assert!(stdout(&out).contains("--input 7"), "{}", stdout(&out));
    for property in ["unreach-call", "valid-memsafety", "no-overflow"] {
        let task = task(&format!("literal_write_{property}"), source, property, true);
        let out = symex(&["svcomp", &task, "--timeout", "10"]);
        assert!(
            stdout(&out).contains(&format!("{property}: UNKNOWN (the literal-write property")),
            "{}{}",
            stdout(&out),
            stderr(&out)
        );
    }
}

/// Runs `symex svcomp TASK --validate WITNESS`: it must exit with `code` and say `says`.
fn validation(task: &str, witness: &str, code: i32, says: &str) {
    let out = symex(&["svcomp", task, "--validate", witness]);
    assert_eq!(
        out.status.code(),
        Some(code),
        "{}{}",
        stdout(&out),
        stderr(&out)
    );
    assert!(stdout(&out).contains(says), "{}", stdout(&out));
}

/// `--validate` follows the witness's values to the calls they name, in order: a value at
/// another place leaves its call unconstrained, a violation reached only through a signed
/// overflow is not confirmed under `unreach-call`, nor is a value the call's type cannot
/// return, and with several properties the witness's specification chooses one.
#[test]
fn validation_follows_values_to_their_calls() {
    let source = "extern int __VERIFIER_nondet_int(void); extern void abort(void);
                  void reach_error(void) { abort(); }
                  int main() { int x = __VERIFIER_nondet_int();
                  if (x == 5) reach_error();
                  int y = x + 2147483000; if (y < 0 && x > 0) reach_error(); return 0; }\n";
    let task = task("validate_places", source, "unreach-call", false);
    let (witness, written) = witnessed(&task, "unreach-call: FALSE");
    validation(
        &task,
        &witness,
        10,
        "unreach-call: witness confirmed: FALSE at",
    );
    // The value's column moved off the call: the run never reaches the call it names.
    let column = written
        .lines()
        .find(|l| l.trim().starts_with("column:"))
        .expect("a column")
        .to_string();
    let elsewhere = format!("{}: 1", column.split(':').next().unwrap_or_default());
    let moved = program(
        "validate_places.moved.yml",
        written.replacen(&column, &elsewhere, 1).as_bytes(),
    );
    validation(&task, &moved, 20, "never reaches the call");
    // 647 + 2147483000 overflows on the way to the second error call.
    let overflowing = program(
        "validate_places.overflow.yml",
        written
            .replace("\\result == 5", "\\result == 648")
            .as_bytes(),
    );
    validation(&task, &overflowing, 20, "signed overflow at");
    // 2^32 + 5 is 5 taken modulo an `int`'s width, but no `int` call returns it.
    let impossible = program(
        "validate_places.impossible.yml",
        written
            .replace("\\result == 5", "\\result == 4294967301")
            .as_bytes(),
    );
    validation(&task, &impossible, 20, "which its type cannot return");
}

/// A violation that needs the value of an uninitialized local has a witness without it (the
/// format states the values of calls): `--witness` says that `--validate` does not confirm it.
#[test]
fn a_witness_that_cannot_state_an_input_is_flagged() {
    let source = "extern void abort(void); void reach_error(void) { abort(); }
                  int main() { int c; if (c == 42) reach_error(); return 0; }\n";
    let task = task("unstated_input", source, "unreach-call", false);
    let witness = format!("{task}.witness");
    let out = symex(&["svcomp", &task, "--timeout", "10", "--witness", &witness]);
    assert!(
        stdout(&out).contains("unreach-call: FALSE"),
        "{}",
        stdout(&out)
    );
    assert!(
        stderr(&out).contains("is not confirmed by `--validate`"),
        "{}",
        stderr(&out)
    );
    validation(&task, &witness, 20, "witness not confirmed");
}

/// Where the task has several properties, the witness's specification says which one it is for.
#[test]
fn validation_takes_the_property_from_the_witness() {
    let source = "extern int __VERIFIER_nondet_int(void); extern void abort(void);
                  void reach_error(void) { abort(); }
                  int main() { if (__VERIFIER_nondet_int() == 3) reach_error(); return 0; }\n";
    let c_file = program("two_properties.c", source.as_bytes());
    property_file("valid-memsafety");
    property_file("unreach-call");
    let task = program(
        "two_properties.yml",
        b"format_version: '2.0'\ninput_files: 'two_properties.c'\nproperties:\n  \
          - property_file: valid-memsafety.prp\n    expected_verdict: true\n  \
          - property_file: unreach-call.prp\n    expected_verdict: false\n\
          options:\n  language: C\n  data_model: LP64\n",
    );
    assert!(c_file.ends_with("two_properties.c"));
    let witness = format!("{task}.witness");
    let out = symex(&[
        "svcomp",
        &task,
        "--property",
        "unreach-call",
        "--timeout",
        "10",
        "--witness",
        &witness,
    ]);
    assert!(
        stdout(&out).contains("unreach-call: FALSE"),
        "{}",
        stdout(&out)
    );
    validation(
        &task,
        &witness,
        10,
        "unreach-call: witness confirmed: FALSE at",
    );
    // A specification of none of them: the property must be given.
    let written = std::fs::read_to_string(&witness).expect("the witness is written");
    let other = program(
        "two_properties.other.yml",
        written
            .replace("G ! call(reach_error())", "F end")
            .as_bytes(),
    );
    let out = symex(&["svcomp", &task, "--validate", &other]);
    exits_mentioning(&out, 2, "give --property");
}

/// A task's witness file holds an entry per property found violated: `--validate` takes the
/// entry whose specification is the property's (it replayed the first entry's values for
/// every property), and a property the task lists twice is checked once.
#[test]
fn validation_takes_the_entry_of_the_property() {
    let source = "extern int __VERIFIER_nondet_int(void);\nvoid reach_error() {}\n\
                  int main(void) { int x = __VERIFIER_nondet_int();\n\
                  if (x > 5) { reach_error(); }\n  int y = x + 1;\n  return y; }\n";
    program("both_properties.c", source.as_bytes());
    property_file("unreach-call");
    property_file("no-overflow");
    let task = program(
        "both_properties.yml",
        b"format_version: '2.0'\ninput_files: 'both_properties.c'\nproperties:\n  \
          - property_file: unreach-call.prp\n  - property_file: no-overflow.prp\n  \
          - property_file: unreach-call.prp\noptions:\n  language: C\n  data_model: ILP32\n",
    );
    let witness = format!("{task}.witness");
    let out = symex(&["svcomp", &task, "--timeout", "10", "--witness", &witness]);
    assert_eq!(stdout(&out), "unreach-call: FALSE\nno-overflow: FALSE\n");
    for property in ["unreach-call", "no-overflow"] {
        let out = symex(&[
            "svcomp",
            &task,
            "--validate",
            &witness,
            "--property",
            property,
        ]);
        assert_eq!(out.status.code(), Some(10), "{}", stdout(&out));
        assert!(
            stdout(&out).contains("witness confirmed"),
            "{}",
            stdout(&out)
        );
    }
}

/// SV-COMP's allocator functions (`safe_malloc`, `ldv_malloc`): inlined for the type their
/// caller converts the result to, so a list built through one is checked; a use after `free`
/// is `FALSE(valid-deref)` with a witness that replays, and freeing every node is `TRUE`.
#[test]
fn svcomp_follows_allocator_functions() {
    let program_with = |tail: &str| {
        format!(
            "#include <stdlib.h>
             extern int __VERIFIER_nondet_int(void);
             struct node {{ int v; struct node *next; }};
             void *safe_malloc(size_t size) {{ void *p = malloc(size); if (!p) abort(); return p; }}
             int main(void) {{
               struct node *head = safe_malloc(sizeof *head);
               head->v = __VERIFIER_nondet_int();
               head->next = safe_malloc(sizeof(struct node));
               head->next->v = 2; head->next->next = 0;
               struct node *second = head->next;
               free(head->next);
               {tail}
               free(head);
               return 0;
             }}\n"
        )
    };
    let task = memsafety_task(
        "allocator_uaf",
        &program_with("if (head->v == 7) return second->v;"),
        false,
    );
    let (witness, _) = witnessed(&task, "valid-memsafety: FALSE(valid-deref)");
    validation(&task, &witness, 10, "witness confirmed");
    let task = memsafety_task("allocator_freed", &program_with("second = 0;"), true);
    svcomp_answers(&task, "valid-memsafety: TRUE");
}

/// Allocators of allocators, as SV-COMP's `memsafety` tasks write them: `zalloc_or_die` calls
/// `calloc_model`, which returns `memset`'s result; both are inlined for the caller's type, the
/// `memset` writing that object. A struct the file never defines (`struct opaque *`) gets an
/// object that holds only its number of bytes (for `memset`). Freeing every node is `TRUE`; a
/// second `free` is `FALSE(valid-free)`, and so is one of the opaque object; a `memset` past
/// its bytes or after its `free` is `FALSE(valid-deref)`; a zero-byte one is not followed.
#[test]
fn svcomp_follows_allocators_of_allocators() {
    let program_with = |size: &str, tail: &str| {
        let (clear, tail) = tail.split_once('|').unwrap_or(("", tail));
        format!(
            "#include <stdlib.h>
             #include <string.h>
             extern int __VERIFIER_nondet_int(void);
             struct node {{ struct node *next; struct opaque *data; int v; }};
             static void *calloc_model(size_t n, size_t size) {{
               void *ptr = malloc(n * size);
               return memset(ptr, 0, n * size);
             }}
             static void *zalloc_or_die(unsigned size) {{
               void *ptr = calloc_model(1U, size);
               if (ptr) return ptr;
               abort();
             }}
             int main(void) {{
               struct node *head = 0;
               int c = 0;
               do {{
                 struct node *item = zalloc_or_die(sizeof *item);
                 item->data = zalloc_or_die({size});
                 if (item->v != 0) return 1;
                 item->next = head;
                 head = item;
                 c++;
               }} while (c < 3 && __VERIFIER_nondet_int());
               while (head) {{
                 struct node *next = head->next;
                 {clear}
                 free(head->data);
                 {tail}
                 free(head);
                 head = next;
               }}
               return 0;
             }}\n"
        )
    };
    let cases = [
        ("freed", program_with("119U", ""), "valid-memsafety: TRUE"),
        (
            "twice",
            program_with("119U", "free(head);"),
            "valid-memsafety: FALSE(valid-free)",
        ),
        (
            "opaque_twice",
            program_with("119U", "free(head->data);"),
            "valid-memsafety: FALSE(valid-free)",
        ),
        (
            "opaque_cleared",
            program_with("119U", "memset(head->data, 1, 119);|"),
            "valid-memsafety: TRUE",
        ),
        (
            "opaque_overrun",
            program_with("119U", "memset(head->data, 1, 120);|"),
            "valid-memsafety: FALSE(valid-deref)",
        ),
        (
            "opaque_freed",
            program_with(
                "119U",
                "if (__VERIFIER_nondet_int()) memset(head->data, 0, 4);",
            ),
            "valid-memsafety: FALSE(valid-deref)",
        ),
        (
            "no_bytes",
            program_with("0U", ""),
            "valid-memsafety: UNKNOWN",
        ),
    ];
    memsafety_cases("allocators", cases);
}

/// Memory that is only ever a `void *` (`void *p = malloc(n);`, a `void *` member given
/// `malloc(119U)`, also of a typedef'd anonymous struct): an object of no type, kept,
/// compared and freed; freeing it twice is `FALSE(valid-free)`, losing it
/// `FALSE(valid-memtrack)`, and a conversion to another pointer type is not followed
/// (`UNKNOWN`), nor is an allocation of no bytes.
#[test]
fn svcomp_keeps_untyped_memory_as_a_void_pointer() {
    let program_with = |body: &str| {
        format!(
            "#include <stdlib.h>
             extern int __VERIFIER_nondet_int(void);
             struct item {{ void *proto; struct item *next; }};
             typedef struct {{ void *lo; void *hi; }} pair;
             static void alloc_pair(pair *d) {{ d->lo = malloc(16); d->hi = malloc(24); }}
             int main(void) {{
               struct item *x = malloc(sizeof *x);
               x->proto = malloc(119U);
               void *p = malloc(8);
               {body}
               return 0;
             }}\n"
        )
    };
    let cases = [
        (
            "freed",
            "free(x->proto); free(x); free(p);",
            "valid-memsafety: TRUE",
        ),
        (
            "twice",
            "void *q = x->proto; free(x); free(q); free(p); if (__VERIFIER_nondet_int()) free(q);",
            "valid-memsafety: FALSE(valid-free)",
        ),
        (
            "lost",
            "free(x->proto); free(x); if (__VERIFIER_nondet_int()) free(p);",
            "valid-memsafety: FALSE(valid-memtrack)",
        ),
        (
            "typedef",
            "pair d; alloc_pair(&d); free(d.lo); free(d.hi); free(x->proto); free(x); free(p);",
            "valid-memsafety: TRUE",
        ),
        (
            "typed",
            "int *n = p; *n = 1; free(x->proto); free(x); free(p);",
            "valid-memsafety: UNKNOWN",
        ),
        (
            "no_bytes",
            "free(p); p = malloc(0); free(x->proto); free(x); free(p);",
            "valid-memsafety: UNKNOWN",
        ),
    ];
    memsafety_cases(
        "untyped",
        cases.map(|(stem, body, answer)| (stem, program_with(body), answer)),
    );
}

/// The Linux list's walks (`list_for_each_entry` through `container_of`, with `typeof` and
/// statement expressions), as SV-COMP's `ldv-sets` model a set of held locks: a lock taken
/// twice is `FALSE` with a witness that replays, locks taken and released in turn `TRUE`.
#[test]
fn svcomp_follows_linux_lists_through_container_of() {
    let program_with = |calls: &str| {
        format!(
            "#include <stdlib.h>
             #include <stddef.h>
             void reach_error(void) {{ abort(); }}
             extern int __VERIFIER_nondet_int(void);
             struct list_head {{ struct list_head *next, *prev; }};
             #define entry_of(p, type, member) ({{ const typeof(((type *)0)->member) *__mptr = (p); \\
                 (type *)((char *)__mptr - offsetof(type, member)); }})
             #define for_each(pos, head, member) \\
                 for (pos = entry_of((head)->next, typeof(*pos), member); &pos->member != (head); \\
                      pos = entry_of(pos->member.next, typeof(*pos), member))
             struct held {{ int lock; struct list_head link; }};
             struct list_head locks = {{ &locks, &locks }};
             int holds(int lock) {{
               struct held *h;
               for_each(h, &locks, link) if (h->lock == lock) return 1;
               return 0;
             }}
             void take(int lock) {{
               if (holds(lock)) reach_error();
               struct held *h = malloc(sizeof *h);
               if (!h) abort();
               h->lock = lock;
               h->link.next = locks.next; h->link.prev = &locks;
               locks.next->prev = &h->link; locks.next = &h->link;
             }}
             void release(int lock) {{
               struct held *h;
               for_each(h, &locks, link) if (h->lock == lock) {{
                 h->link.prev->next = h->link.next; h->link.next->prev = h->link.prev;
                 free(h);
                 return;
               }}
               reach_error();
             }}
             int main(void) {{
               int a = __VERIFIER_nondet_int(), b = __VERIFIER_nondet_int();
               if (a == b) return 0;
               {calls}
               return 0;
             }}\n"
        )
    };
    let twice = task(
        "lock_twice",
        &program_with("take(a); take(b); release(a); take(b);"),
        "unreach-call",
        false,
    );
    let (witness, _) = witnessed(&twice, "unreach-call: FALSE");
    validation(&twice, &witness, 10, "witness confirmed");
    let calls = "take(a); take(b); release(a); take(a); release(b); release(a);";
    let in_turn = task("lock_in_turn", &program_with(calls), "unreach-call", true);
    svcomp_answers(&in_turn, "unreach-call: TRUE");
    // Every entry freed, the head a global pointing to itself: no leak, no invalid access
    // (the walks' ends are the head's phantom, never accessed).
    let in_turn = memsafety_task("lock_in_turn_memory", &program_with(calls), true);
    svcomp_answers(&in_turn, "valid-memsafety: TRUE");
    // A lock still held at the end is reachable from the global head: no leak in SV-COMP's
    // sense, which symex does not decide (it is no `FALSE`).
    let kept = memsafety_task("lock_kept", &program_with("take(a);"), true);
    svcomp_answers(&kept, "valid-memsafety: UNKNOWN");
}

/// `valid-memsafety` of heap lists where the file also has local objects: a local list head
/// does not keep a heap list's memory from `TRUE`, while a pointer to a local struct whose
/// function returned (whose end symex does not set for its members) is never `TRUE`.
#[test]
fn svcomp_memory_of_heap_lists_beside_local_objects() {
    let list = "#include <stdlib.h>
         #include <stddef.h>
         struct list_head { struct list_head *next, *prev; };
         struct item { int value; struct list_head link; };
         void add(struct list_head *head, int value) {
           struct item *it = malloc(sizeof *it);
           if (!it) abort();
           it->value = value;
           it->link.next = head->next; it->link.prev = head;
           head->next->prev = &it->link; head->next = &it->link;
         }
         void drop(struct list_head *head) {
           while (head->next != head) {
             struct list_head *first = head->next;
             struct item *it = (struct item *)((char *)first - offsetof(struct item, link));
             head->next = first->next; first->next->prev = head;
             free(it);
           }
         }";
    let local_head = format!(
        "{list}
         int main(void) {{
           struct list_head head = {{ &head, &head }};
           add(&head, 1); add(&head, 2); drop(&head);
           return 0;
         }}\n"
    );
    let task = memsafety_task("local_head", &local_head, true);
    svcomp_answers(&task, "valid-memsafety: TRUE");
    let dangling = format!(
        "{list}
         struct item *made(void) {{ struct item local; local.value = 1; return &local; }}
         int main(void) {{
           struct item *gone = made();
           struct list_head *link = &gone->link;
           return link->next == 0;
         }}\n"
    );
    let task = memsafety_task("dangling_member", &dangling, false);
    let out = symex(&["svcomp", &task, "--timeout", "10"]);
    assert!(
        !stdout(&out).contains("TRUE"),
        "{}{}",
        stdout(&out),
        stderr(&out)
    );
}

/// `valid-memtrack` where a global list head holds the objects (the shape of SV-COMP's
/// `ldv-memsafety` `memleaks_*` tasks): an object the program let go is lost
/// (`FALSE(valid-memtrack)`, with a witness), and so is one reached only through a variable
/// of `main`, which ends with it; what the head still reaches at `main`'s return is not
/// claimed either way (`UNKNOWN`: reached is no proof of reachable in C).
#[test]
fn svcomp_memtrack_follows_the_pointers_of_the_globals() {
    let list = "#include <stdlib.h>
         #include <stddef.h>
         int __VERIFIER_nondet_int(void);
         struct list_head { struct list_head *next, *prev; };
         struct list_head global_list = { &global_list, &global_list };
         struct item { int value; struct list_head link; };
         void add(int value) {
           struct item *it = malloc(sizeof *it);
           if (!it) return;
           it->value = value;
           it->link.next = global_list.next; it->link.prev = &global_list;
           global_list.next->prev = &it->link; global_list.next = &it->link;
         }";
    let sum = "int sum(void) {
           int total = 0;
           for (struct list_head *p = global_list.next; p != &global_list; p = p->next)
             total += ((struct item *)((char *)p - offsetof(struct item, link)))->value;
           return total;
         }";
    let kept = format!("{list}\n{sum}\n int main(void) {{ add(1); add(2); return sum() != 3; }}\n");
    let task = memsafety_task("global_list_kept", &kept, true);
    svcomp_answers(&task, "valid-memsafety: UNKNOWN");
    let emptied = format!(
        "{list}\n{sum}
         int main(void) {{
           add(1);
           if (__VERIFIER_nondet_int()) {{ global_list.next = &global_list; global_list.prev = &global_list; }}
           return sum();
         }}\n"
    );
    let task = memsafety_task("global_list_emptied", &emptied, false);
    let (witness, written) = witnessed(&task, "valid-memsafety: FALSE(valid-memtrack)");
    assert!(
        written.contains("violation_sequence"),
        "{witness}: {written}"
    );
    let through_main = "#include <stdlib.h>
         int **where;
         int main(void) { int *p = malloc(sizeof *p); where = &p; return 0; }\n";
    let task = memsafety_task("global_to_main_variable", through_main, false);
    svcomp_answers(&task, "valid-memsafety: FALSE(valid-memtrack)");
    // A stack address that escapes blocks `TRUE` whatever the search does: its reason is
    // the one named.
    let escaping = "#include <stdlib.h>
         int *keep;
         int main(void) {
           int *p = malloc(sizeof *p);
           { int x = 1; keep = &x; }
           free(p);
           return 0;
         }\n";
    let task = memsafety_task("escaping_stack_address", escaping, true);
    let out = symex(&["svcomp", &task, "--timeout", "10"]);
    assert!(
        stdout(&out).contains("UNKNOWN (the program takes addresses of local objects"),
        "{}{}",
        stdout(&out),
        stderr(&out)
    );
    let without_container_of = format!("{list}\n int main(void) {{ add(1); return 0; }}\n");
    let task = memsafety_task("global_list_boxes", &without_container_of, true);
    svcomp_answers(&task, "valid-memsafety: UNKNOWN");
}

/// `--max-depth` ends a path at its bound, as KLEE's does: it followed one side of the branch
/// on, so a loop over an input's range ran without end (a review found it).
#[test]
fn max_depth_ends_paths_at_the_bound() {
    let p = program(
        "depth_loop.uc",
        b"main() {\n  var n, i, s;\n  n = input;\n  i = 0;\n  s = 0;\n  while (i < n) {\n    \
          s = s + 2;\n    i = i + 1;\n  }\n  assert(s % 2 == 0);\n  return s;\n}\n",
    );
    let out = symex(&["check", &p, "--max-depth", "5", "--timeout", "30"]);
    assert_eq!(out.status.code(), Some(20), "{}", stdout(&out));
    assert!(
        stdout(&out).contains("10:3 assert: safe up to 5"),
        "{}",
        stdout(&out)
    );
}

/// A C input heap reads as the program's own members: counterexamples leave out the
/// bookkeeping fields that hold their input values (`x#assigned`, `#heap`, a scalar object's
/// `#assigned`), and a hand-written document without them runs (it stopped at "the record
/// has no field `x#assigned`": a review found it).
#[test]
fn c_input_heaps_need_no_bookkeeping_fields() {
    let p = program(
        "bookkeeping.c",
        b"#include <stdlib.h>\nstruct node { int x; struct node *next; };\n\
          int f(struct node *p, int *q) {\n  if (p && q && p->x == 3 && *q == 4) free(p);\n  \
          return p ? p->x : 0;\n}\nint main(void) { return 0; }\n",
    );
    let out = symex(&["check", &p, "--entry", "f"]);
    assert!(!stdout(&out).contains('#'), "{}", stdout(&out));
    let heap = r#"{"args":{"p":{"ref":"o1"},"q":{"ref":"o2"}},"objects":{"o1":{"record":{"x":3}},"o2":{"record":{"value":4}}}}"#;
    let out = symex(&["run", &p, "--entry", "f", "--heap", heap]);
    exits_mentioning(&out, 3, "use-after-free");
}
