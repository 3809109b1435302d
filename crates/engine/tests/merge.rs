//! State merging (`--merge aggressive`) on a program built to explode: ten sequential if/else
//! on inputs. Merging must create far fewer states than the 2^10 of plain forward execution
//! while every verdict, the path count and the counterexample's replay stay the same. It does
//! not test when merging pays off in time (the path count asks the solver per constituent).

use symex_engine::{check_forward, CheckOptions, MergeMode, SearchStrategy};
use symex_report::{Event, Report, Status};

fn program() -> String {
    let mut body = String::from("main() {\n  var s, k;\n  s = 0;\n");
    for _ in 0..10 {
        body.push_str("  k = input;\n  if (k > 0) { s = s + 1; } else { s = s - 1; }\n");
    }
    body.push_str("  assert(s != 10);\n  assert(s < 11);\n  return s;\n}\n");
    body
}

fn check(source: &str, search: SearchStrategy, merge: MergeMode) -> Report {
    let front = symex_syntax::analyze(source).expect("valid");
    let types = front.types.expect("typed");
    let module = symex_ir::lower(&front.program);
    let options = CheckOptions {
        search,
        merge,
        ..CheckOptions::default()
    };
    check_forward(&module, &types, source, "ifs.uc", "main", &options).expect("runs")
}

#[test]
fn merging_ten_sequential_ifs_keeps_the_verdicts_with_few_states() {
    let source = program();
    for search in [SearchStrategy::Dfs, SearchStrategy::Bfs] {
        let plain = check(&source, search, MergeMode::None);
        let merged = check(&source, search, MergeMode::Aggressive);
        assert_eq!(plain.stats.states, 1024, "{search}");
        assert!(
            merged.stats.states <= 32,
            "{search}: {}",
            merged.stats.states
        );
        assert_eq!(merged.stats.paths, plain.stats.paths, "{search}");
        let statuses = |r: &Report| -> Vec<(u32, u32, Status)> {
            r.properties()
                .iter()
                .map(|p| (p.line, p.column, p.verdict.status()))
                .collect()
        };
        assert_eq!(statuses(&merged), statuses(&plain), "{search}");
        let violated: Vec<_> = merged
            .properties()
            .iter()
            .filter(|p| p.verdict.status() == Status::Violated)
            .collect();
        assert_eq!(violated.len(), 1, "{search}");
        let (witness, confirmed) = violated[0].verdict.witness().expect("a witness");
        assert!(confirmed);
        assert!(
            witness.inputs.iter().all(|&k| k > 0),
            "{:?}",
            witness.inputs
        );
        // The merged state's trace follows the constituent the model chose: ten `then`s.
        let branches: Vec<bool> = witness
            .trace
            .iter()
            .filter_map(|step| match step.event {
                Event::Branch { condition } => Some(condition),
                _ => None,
            })
            .collect();
        assert_eq!(branches, vec![true; 10]);
    }
}
