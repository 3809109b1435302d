//! The corpus under a solver that never decides: every engine, every file, with an SMT-LIB2
//! process that answers `unknown` to each check. What the engines may still conclude is what
//! they conclude without the solver (concrete paths, syntactic checks, model reuse), so every
//! answer must agree with the file's header: no violation it does not list, no counterexample
//! that does not replay, no listed violation answered `safe`, no bounded file `safe`
//! everywhere. An `unknown` is always allowed: that is the right answer to a question the
//! solver left open. This catches an engine that reads the solver's `unknown` as `unsat`
//! (a wrong `safe`, or a branch dropped) or as `sat` (a counterexample without a model).

use std::path::PathBuf;
use std::time::Duration;

use symex_corpus::CorpusFile;
use symex_engine::backward::{check_backward, BackwardOptions};
use symex_engine::{
    check_forward, check_structural, CheckOptions, SolverChoice, StructuralOptions,
};
use symex_report::{Report, Status};
use symex_smt::Dialect;

mod support;
use support::check_report;

/// The unwinding of the bounded engines for files whose header gives none.
const UNBOUNDED_UNWIND: u32 = 4;

/// A solver process that reads SMT-LIB2 and answers every `check-sat` with `unknown` (with a
/// reason when asked), written once per test process.
fn undecided_solver() -> SolverChoice {
    let script =
        "while read -r line; do\n  case \"$line\" in\n    *check-sat*) echo unknown ;;\n    \
                  *reason-unknown*) echo '(:reason-unknown \"never decides\")' ;;\n  esac\ndone\n";
    let path: PathBuf =
        std::env::temp_dir().join(format!("symex-undecided-{}.sh", std::process::id()));
    std::fs::write(&path, script).expect("the fake solver's script");
    SolverChoice::Process {
        command: format!("sh {}", path.display()),
        dialect: Dialect::Generic,
    }
}

/// Every engine's report of `file` under `solver`.
fn reports(
    file: &CorpusFile,
    solver: &SolverChoice,
) -> Result<Vec<(&'static str, Report)>, String> {
    let front = symex_syntax::analyze(&file.source).map_err(|e| format!("{e:?}"))?;
    let types = front.types.map_err(|_| "does not type-check".to_string())?;
    let module = symex_ir::lower(&front.program);
    let entry = file.entry_function();
    let options = CheckOptions {
        solver: solver.clone(),
        timeout: Some(Duration::from_secs(1)),
        unwind: file.bound,
        ..CheckOptions::default()
    };
    let bounded = CheckOptions {
        unwind: Some(support::unwind_for(file).unwrap_or(UNBOUNDED_UNWIND)),
        ..options.clone()
    };
    let (source, name) = (&file.source, &file.name);
    let forward = check_forward(&module, &types, source, name, entry, &options);
    let backward = BackwardOptions::default();
    let backward = check_backward(&module, &types, source, name, entry, &bounded, &backward);
    let structural = StructuralOptions::default();
    let structural = check_structural(&module, &types, source, name, entry, &bounded, &structural);
    Ok(vec![
        ("forward", forward.map_err(|e| format!("forward: {e}"))?),
        ("backward", backward.map_err(|e| format!("backward: {e}"))?),
        (
            "structural",
            structural.map_err(|e| format!("structural: {e}"))?,
        ),
    ])
}

#[test]
fn no_engine_answers_wrongly_when_the_solver_never_decides() {
    let solver = undecided_solver();
    let files = symex_corpus::all_files().expect("the corpus loads");
    let mut failures = Vec::new();
    // How many properties each engine left open for the solver's sake: the test means
    // something only if the engines did ask it.
    let mut left_open = [("forward", 0), ("backward", 0), ("structural", 0)];
    for file in &files {
        let reports = match reports(file, &solver) {
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
            let count = left_open.iter_mut().find(|(e, _)| *e == engine);
            count.expect("an engine of the list").1 += open;
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    for (engine, open) in left_open {
        assert!(
            open >= 20,
            "{engine}: only {open} properties left open by the solver"
        );
    }
}
