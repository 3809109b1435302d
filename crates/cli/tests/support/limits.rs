//! The limits stress harness (issue "limits are promises"), shared by the CI test
//! (`tests/limits.rs`, a few dozen programs) and the benchmark (`benches/limits.rs`, hundreds):
//! generated programs with loops, arrays, heap records, calls and divisions, and the heap
//! drivers of the corpus, each checked by the `symex` binary under every engine and variant with
//! a time limit. A run is measured from the outside (wall time of the process, exit code,
//! whether standard output parses as a JSON report), so a hang, an abort or a lost report is
//! seen as such. Nothing here judges verdicts: the corpus and differential tests do that.

#![allow(dead_code)] // each including target uses its own part

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The shape of the generated programs: the reproduction (nested loops, heap, null
/// pointers, arrays with symbolic indices, calls, divisions, assertions).
pub const GEN_FLAGS: &[&str] = &[
    "--functions",
    "1",
    "--statements",
    "4",
    "--block-statements",
    "3",
    "--block-depth",
    "2",
    "--loop-depth",
    "2",
    "--loop-prob",
    "10",
    "--for-prob",
    "15",
    "--input-bound-prob",
    "0",
    "--if-prob",
    "20",
    "--loop-bound",
    "3",
    "--errors",
    "0",
    "--divisions",
    "--heap",
    "--null",
    "--arrays",
    "--symbolic-indices",
    "--calls",
    "--asserts",
];

/// Every engine and variant, by name and `symex check` flags, for the generated programs.
pub const PROGRAM_CONFIGS: &[(&str, &[&str])] = &[
    ("forward", &[]),
    ("forward --subsume", &["--subsume"]),
    ("forward --merge aggressive", &["--merge", "aggressive"]),
    ("forward --merge qce", &["--merge", "qce"]),
    ("forward --merge dynamic", &["--merge", "dynamic"]),
    ("forward --summarize", &["--summarize"]),
    ("forward --search bfs", &["--search", "bfs"]),
    ("forward --index-mode fork", &["--index-mode", "fork"]),
    (
        "backward conj-never",
        &["--engine", "backward", "--unwind", "8"],
    ),
    (
        "backward conj-always",
        &[
            "--engine",
            "backward",
            "--unwind",
            "8",
            "--bse-variant",
            "conj-always",
        ],
    ),
    (
        "backward conj-loops",
        &[
            "--engine",
            "backward",
            "--unwind",
            "8",
            "--bse-variant",
            "conj-loops",
        ],
    ),
    (
        "backward disj-set",
        &[
            "--engine",
            "backward",
            "--unwind",
            "8",
            "--bse-variant",
            "disj-set",
        ],
    ),
    (
        "backward disj-z3",
        &[
            "--engine",
            "backward",
            "--unwind",
            "8",
            "--bse-variant",
            "disj-z3",
        ],
    ),
    (
        "backward disj-comb",
        &[
            "--engine",
            "backward",
            "--unwind",
            "8",
            "--bse-variant",
            "disj-comb",
        ],
    ),
    (
        "structural lazy",
        &["--engine", "structural", "--unwind", "8"],
    ),
    (
        "structural eager",
        &[
            "--engine",
            "structural",
            "--unwind",
            "8",
            "--refine",
            "eager",
        ],
    ),
];

/// The input-heap models, for the corpus's heap drivers (entries with pointer parameters).
pub const HEAP_CONFIGS: &[(&str, &[&str])] = &[
    ("forward --heap li", &["--heap", "li"]),
    ("forward --heap lazier", &["--heap", "lazier"]),
    ("forward --heap pose", &["--heap", "pose"]),
    (
        "backward (input heap)",
        &["--engine", "backward", "--unwind", "8"],
    ),
];

/// One check to run: the program, its entry, and the configuration.
#[derive(Clone, Debug)]
pub struct Job {
    pub program: PathBuf,
    pub entry: Option<String>,
    pub config: &'static str,
    pub flags: &'static [&'static str],
}

/// How one check ended, seen from outside.
#[derive(Clone, Debug)]
pub struct Run {
    pub job: Job,
    pub wall: Duration,
    /// The exit code; `None` when a signal ended it or the harness killed it.
    pub code: Option<i32>,
    /// Standard output parsed as a JSON report with a `properties` array.
    pub report: bool,
    pub stderr_tail: String,
}

impl Run {
    /// Ended on its own, with a documented check code and a JSON report.
    pub fn reported(&self) -> bool {
        self.report && matches!(self.code, Some(0 | 10 | 20))
    }

    /// The run on one line: program, configuration, wall time, exit, report, standard error.
    pub fn describe(&self) -> String {
        let entry = self
            .job
            .entry
            .as_ref()
            .map_or(String::new(), |e| format!(" --entry {e}"));
        format!(
            "{} [{}{entry}]: {:.2} s, exit {:?}, report {}: {}",
            self.job.program.display(),
            self.job.config,
            self.wall.as_secs_f64(),
            self.code,
            self.report,
            self.stderr_tail
        )
    }
}

/// The `symex` binary under test.
pub fn symex() -> &'static str {
    env!("CARGO_BIN_EXE_symex")
}

/// Writes programs of seeds `seeds` with [`GEN_FLAGS`] into `dir` (one `symex gen` call).
pub fn generate(dir: &Path, seeds: std::ops::Range<u64>) -> Vec<PathBuf> {
    std::fs::create_dir_all(dir).expect("a directory for the programs");
    let count = (seeds.end - seeds.start).to_string();
    let seed = seeds.start.to_string();
    let out = dir.to_str().expect("a UTF-8 path");
    let mut args = vec!["gen", "--seed", &seed, "--count", &count, "--out", out];
    args.extend_from_slice(GEN_FLAGS);
    let status = Command::new(symex())
        .args(&args)
        .status()
        .expect("symex gen runs");
    assert!(status.success(), "symex gen {args:?} failed");
    seeds.map(|s| dir.join(format!("gen_{s}.uc"))).collect()
}

/// The corpus's heap drivers with their entries (`//! entry:` headers of `heap_*.uc`).
pub fn heap_drivers() -> Vec<(PathBuf, String)> {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus");
    let mut drivers: Vec<(PathBuf, String)> = std::fs::read_dir(&corpus)
        .expect("the corpus directory")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("heap_") && n.ends_with(".uc"))
        })
        .filter_map(|p| {
            let text = std::fs::read_to_string(&p).ok()?;
            let entry = text
                .lines()
                .find_map(|l| l.strip_prefix("//! entry:"))?
                .trim()
                .to_string();
            Some((p, entry))
        })
        .collect();
    drivers.sort();
    drivers
}

/// The generated programs under the [`PROGRAM_CONFIGS`] entries, each configuration on every
/// `rotation`-th program (in turn, so that with `rotation` 1 every program meets every
/// configuration), then every heap driver under every [`HEAP_CONFIGS`] entry.
pub fn jobs(programs: &[PathBuf], drivers: &[(PathBuf, String)], rotation: usize) -> Vec<Job> {
    let mut jobs = Vec::new();
    for (p, program) in programs.iter().enumerate() {
        for (c, &(config, flags)) in PROGRAM_CONFIGS.iter().enumerate() {
            if (p + c) % rotation.max(1) != 0 {
                continue;
            }
            jobs.push(Job {
                program: program.clone(),
                entry: None,
                config,
                flags,
            });
        }
    }
    for (program, entry) in drivers {
        for &(config, flags) in HEAP_CONFIGS {
            jobs.push(Job {
                program: program.clone(),
                entry: Some(entry.clone()),
                config,
                flags,
            });
        }
    }
    jobs
}

/// Runs `job` with `--timeout timeout_s --format json`; a process still running
/// `kill_after` past the limit is killed (and counts as not reported).
pub fn run(job: &Job, timeout_s: u64, kill_after: Duration) -> Run {
    let timeout = timeout_s.to_string();
    let mut command = Command::new(symex());
    command
        .arg("check")
        .arg(&job.program)
        .args(["--format", "json", "--timeout", &timeout])
        .args(job.flags);
    if let Some(entry) = &job.entry {
        command.args(["--entry", entry]);
    }
    let started = Instant::now();
    let mut child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("symex starts");
    // The pipes are drained by threads so that a large report cannot block the child.
    let mut stdout = child.stdout.take().expect("piped");
    let mut stderr = child.stderr.take().expect("piped");
    let out = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = std::io::Read::read_to_string(&mut stdout, &mut text);
        text
    });
    let err = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = std::io::Read::read_to_string(&mut stderr, &mut text);
        text
    });
    let limit = Duration::from_secs(timeout_s) + kill_after;
    let status = loop {
        if let Some(status) = child.try_wait().expect("waiting for symex") {
            break Some(status);
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let wall = started.elapsed();
    let stdout = out.join().unwrap_or_default();
    let stderr = err.join().unwrap_or_default();
    let report = serde_json::from_str::<serde_json::Value>(&stdout)
        .is_ok_and(|v| v.get("properties").is_some_and(|p| p.is_array()));
    let tail_start = stderr.len().saturating_sub(300);
    let tail_start = (tail_start..stderr.len())
        .find(|&i| stderr.is_char_boundary(i))
        .unwrap_or(stderr.len());
    Run {
        job: job.clone(),
        wall,
        code: status.and_then(|s| s.code()),
        report,
        stderr_tail: stderr[tail_start..].trim().to_string(),
    }
}

/// Runs every job on `workers` threads (each run is one process), in job order.
pub fn run_all(jobs: &[Job], timeout_s: u64, kill_after: Duration, workers: usize) -> Vec<Run> {
    let next = Mutex::new(0usize);
    let runs: Mutex<Vec<Option<Run>>> = Mutex::new(vec![None; jobs.len()]);
    std::thread::scope(|scope| {
        for _ in 0..workers.max(1) {
            scope.spawn(|| loop {
                let i = {
                    let mut next = next.lock().expect("no panic holds it");
                    let i = *next;
                    *next += 1;
                    i
                };
                let Some(job) = jobs.get(i) else { break };
                let run = run(job, timeout_s, kill_after);
                runs.lock().expect("no panic holds it")[i] = Some(run);
            });
        }
    });
    runs.into_inner()
        .expect("no panic holds it")
        .into_iter()
        .flatten()
        .collect()
}

/// One line per run that overran `allowed` or ended without a report.
pub fn failures(runs: &[Run], allowed: Duration) -> Vec<String> {
    runs.iter()
        .filter(|r| r.wall > allowed || !r.reported())
        .map(Run::describe)
        .collect()
}
