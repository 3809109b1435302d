//! The corpora (micro-c and the project's C programs) under a solver that never decides:
//! every engine (and POSE for entries that take pointers), every file, with an SMT-LIB2
//! process that answers `unknown` to each check. What the engines may still conclude is what
//! they conclude without the solver (concrete paths, syntactic checks, model reuse), so every
//! answer must agree with the file's header: no violation it does not list, no counterexample
//! that does not replay, no listed violation answered `safe`, no bounded file `safe`
//! everywhere. An `unknown` is always allowed: that is the right answer to a question the
//! solver left open. This catches an engine that reads the solver's `unknown` as `unsat`
//! (a wrong `safe`, or a branch dropped) or as `sat` (a counterexample without a model).

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;

use symex_corpus::{CorpusFile, Origin};
use symex_engine::backward::{check_backward, BackwardOptions};
use symex_engine::common::entry::resolve_entry;
use symex_engine::{
    check_forward, check_structural, CheckOptions, HeapModel, SolverChoice, StructuralOptions,
};
use symex_ir::cfg::Module;
use symex_report::{Report, Status};
use symex_smt::Dialect;
use symex_syntax::types::TypeTable;

mod support;
use support::check_report;

/// The unwinding of the bounded engines for files whose header gives none.
const UNBOUNDED_UNWIND: u32 = 4;

/// A solver process that reads SMT-LIB2 and answers every `check-sat` with `unknown` (with a
/// reason when asked), written once per test (`tag`: the tests run at once).
fn undecided_solver(tag: &str) -> SolverChoice {
    let script =
        "while read -r line; do\n  case \"$line\" in\n    *check-sat*) echo unknown ;;\n    \
                  *reason-unknown*) echo '(:reason-unknown \"never decides\")' ;;\n  esac\ndone\n";
    let path: PathBuf = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("symex-undecided-{}-{tag}.sh", std::process::id()));
    std::fs::write(&path, script).expect("the fake solver's script");
    SolverChoice::Process {
        command: format!("sh {}", path.display()),
        dialect: Dialect::Generic,
    }
}

/// Every engine's report of `file` (lowered to `module` with `types`) under `solver`.
fn reports(
    (module, types): (&Module, &TypeTable),
    file: &CorpusFile,
    solver: &SolverChoice,
) -> Result<Vec<(&'static str, Report)>, String> {
    let entry = file.entry_function();
    let options = CheckOptions {
        solver: solver.clone(),
        // Short: what a search finds without the solver it finds at once; the rest is `unknown`.
        timeout: Some(Duration::from_millis(500)),
        unwind: file.bound,
        ..CheckOptions::default()
    };
    let bounded = CheckOptions {
        unwind: Some(support::unwind_for(file).unwrap_or(UNBOUNDED_UNWIND)),
        ..options.clone()
    };
    let (source, name) = (&file.source, &file.name);
    let forward = check_forward(module, types, source, name, entry, &options);
    let backward = BackwardOptions::default();
    let backward = check_backward(module, types, source, name, entry, &bounded, &backward);
    let structural = StructuralOptions::default();
    let structural = check_structural(module, types, source, name, entry, &bounded, &structural);
    let mut reports = vec![
        ("forward", forward.map_err(|e| format!("forward: {e}"))?),
        ("backward", backward.map_err(|e| format!("backward: {e}"))?),
        (
            "structural",
            structural.map_err(|e| format!("structural: {e}"))?,
        ),
    ];
    // Entries that take pointers (the heap drivers): POSE's questions (`ite` chains over
    // aliases) are other questions than lazy initialization's.
    if resolve_entry(module, types, entry).is_ok_and(|setup| setup.has_pointers()) {
        let pose = CheckOptions {
            heap: HeapModel::Pose,
            ..options
        };
        let pose = check_forward(module, types, source, name, entry, &pose);
        reports.push(("forward-pose", pose.map_err(|e| format!("pose: {e}"))?));
    }
    Ok(reports)
}

/// Checks every file of `files` (each lowered by `lower`) under every engine with the solver
/// that never decides, and fails with every wrong answer; also fails where an engine left
/// fewer than `open_at_least` properties open for the solver's sake (the test means something
/// only if the engines did ask it).
fn assert_never_wrong(
    tag: &str,
    files: &[CorpusFile],
    lower: impl Fn(&CorpusFile) -> Result<(Module, TypeTable), String>,
    open_at_least: usize,
) {
    let solver = undecided_solver(tag);
    let mut failures = Vec::new();
    let mut left_open = BTreeMap::new();
    for file in files {
        let reports =
            lower(file).and_then(|(module, types)| reports((&module, &types), file, &solver));
        let reports = match reports {
            Ok(reports) => reports,
            Err(e) => {
                failures.push(format!("{}: {e}", file.label()));
                continue;
            }
        };
        for (engine, report) in reports {
            let problems = check_report(file, &report, |_| true);
            (problems.into_iter())
                .for_each(|p| failures.push(format!("{} [{engine}]: {p}", file.label())));
            let open = (report.properties().iter())
                .filter(|p| p.verdict.status() == Status::Unknown)
                .filter(|p| {
                    p.verdict
                        .reason()
                        .is_some_and(|r| r.contains("never decides"))
                })
                .count();
            *left_open.entry(engine).or_insert(0) += open;
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    for (engine, open) in left_open {
        assert!(
            open >= open_at_least,
            "{engine}: only {open} properties left open by the solver"
        );
    }
}

#[test]
fn no_engine_answers_wrongly_when_the_solver_never_decides() {
    let files = symex_corpus::all_files().expect("the corpus loads");
    assert_never_wrong(
        "micro-c",
        &files,
        |file| {
            let front = symex_syntax::analyze(&file.source).map_err(|e| format!("{e:?}"))?;
            let types = front.types.map_err(|_| "does not type-check".to_string())?;
            Ok((symex_ir::lower(&front.program), types))
        },
        20,
    );
}

/// The same for the project's C corpus (`corpus/c`, `corpus/c-memory`), through the C front
/// end.
#[test]
fn no_engine_answers_wrongly_on_c_when_the_solver_never_decides() {
    let mut paths: Vec<PathBuf> = ["c", "c-memory"]
        .iter()
        .flat_map(|dir| {
            let dir = symex_corpus::project_corpus_dir().join(dir);
            std::fs::read_dir(dir).expect("the C corpus exists")
        })
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "c"))
        .collect();
    paths.sort();
    let files: Vec<CorpusFile> = (paths.iter())
        .map(|path| symex_corpus::load(path, Origin::Project).expect("the header parses"))
        .collect();
    assert_never_wrong(
        "c",
        &files,
        |file| {
            let name = file.path.to_string_lossy();
            let translated = symex_c::translate(&name, &file.source, symex_c::Options::default())
                .map_err(|e| e.render(&file.name, &file.source))?;
            Ok((translated.module, translated.types))
        },
        20,
    );
}
