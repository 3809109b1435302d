//! Robustness of the interpreter on everything the corpus lowers to: every function of every
//! corpus program, run with small integer arguments and a few input lists, must end (within a
//! step budget) without a panic and without breaking an IR invariant. Type errors are expected
//! here (pointer parameters receive numbers) and are fine.

use symex_interp::{ArgValue, Entry, Interpreter, RunConfig, RunEnd};

const INPUTS: [&[i32]; 4] = [&[], &[0, 0, 0], &[1, -1, 2, 3], &[i32::MIN, i32::MAX, 7]];
const ARGUMENTS: [i32; 4] = [0, 1, -1, i32::MIN];

#[test]
fn every_function_runs_to_a_clean_end() {
    let files = symex_corpus::all_files().unwrap_or_else(|errors| panic!("{errors:?}"));
    let config = RunConfig::default().with_max_steps(200_000);
    let mut problems = Vec::new();
    let mut runs = 0;
    for file in &files {
        let Ok(frontend) = symex_syntax::analyze(&file.source) else {
            problems.push(format!("{}: front end rejected it", file.label()));
            continue;
        };
        let module = symex_ir::lower(&frontend.program);
        let interp = match Interpreter::new(&module) {
            Ok(interp) => interp,
            Err(e) => {
                problems.push(format!("{}: {e}", file.label()));
                continue;
            }
        };
        for function in &module.functions {
            for arg in ARGUMENTS {
                let args = vec![ArgValue::Int(arg); function.param_count as usize];
                let Ok(entry) = Entry::new(&module, &function.name, args) else {
                    problems.push(format!("{}: no entry {}", file.label(), function.name));
                    continue;
                };
                for input in INPUTS {
                    runs += 1;
                    match interp.run(&entry, input, &config) {
                        Ok(outcome) => {
                            if let RunEnd::IrInvariant { message, span } = outcome.end {
                                problems.push(format!(
                                    "{}: {}({arg}) on {input:?}: {message} at {span:?}",
                                    file.label(),
                                    function.name
                                ));
                            }
                        }
                        Err(e) => problems.push(format!("{}: {e}", file.label())),
                    }
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(runs > 1000, "only {runs} runs");
}
