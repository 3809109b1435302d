//! Values the path fixes (`PathCondition::constrain`, `symex_smt`'s `implied.rs`): the forward
//! engine rewrites branch conditions and check conditions with the numbers its path fixes
//! (by an equality, by bounds that leave one number, through an equality between terms), so
//! what they decide reaches no solver, and the answers stay those of the plain question.

use symex_engine::{check_forward, CheckOptions};
use symex_report::{Report, Status};

fn check(source: &str) -> Report {
    let front = symex_syntax::analyze(source).expect("valid");
    let types = front.types.expect("typed");
    let module = symex_ir::lower(&front.program);
    check_forward(
        &module,
        &types,
        source,
        "p.uc",
        "main",
        &CheckOptions::default(),
    )
    .expect("runs")
}

/// `main` reading `x`, `y`, `z`, with `body` where the bounds `0 < x < 2` and `x == s` (for
/// `s = 2y - 2z + 1`) hold.
fn program(body: &str) -> String {
    format!(
        "main() {{\n  var x, y, z, s;\n  x = input;\n  y = input;\n  z = input;\n  \
         s = 2 * y - 2 * z + 1;\n  if (x > 0) {{\n    if (x < 2) {{\n      if (x == s) {{\n\
         {body}\n      }}\n    }}\n  }}\n  return 0;\n}}\n"
    )
}

fn queries(report: &Report) -> u64 {
    report.stats.queries
}

#[test]
fn a_branch_and_a_check_the_fixed_values_decide_cost_no_query() {
    // On the path `s` is 1: the product is 1 * 1 * 0 whatever `y` and `z` are, as decided as
    // the constant condition `0 == 0`. The sum is written out again: the local `s` gets the
    // number itself (implied-value concretization); the sum is the same term, which the
    // condition's rewriting replaces.
    let with = |condition: &str| {
        let branch = format!("        if ({condition}) {{ y = 0; }} else {{ y = 1 / 0; }}");
        let check_ = format!("        assert({condition});");
        (check(&program(&branch)), check(&program(&check_)))
    };
    let (branch, check_) = with(
        "t * t * (-t / -2) == 0"
            .replace('t', "(2 * y - 2 * z + 1)")
            .as_str(),
    );
    let (constant_branch, constant_check) = with("0 == 0");
    assert_eq!(
        queries(&branch),
        queries(&constant_branch),
        "{:?}",
        branch.stats
    );
    assert_eq!(
        queries(&check_),
        queries(&constant_check),
        "{:?}",
        check_.stats
    );
    for report in [&branch, &check_] {
        let statuses: Vec<Status> = (report.properties().iter())
            .map(|p| p.verdict.status())
            .collect();
        assert!(statuses.iter().all(|&s| s == Status::Safe), "{statuses:?}");
    }
}

#[test]
fn a_condition_the_fixed_values_leave_open_is_still_asked() {
    // `y * s != 7 * s` is `y != 7` on the path: violated for y = z = 7.
    let report = check(&program("        assert(y * s != 7 * s);"));
    let violated: Vec<u32> = (report.properties().iter())
        .filter(|p| p.verdict.status() == Status::Violated)
        .map(|p| p.line)
        .collect();
    assert_eq!(violated, [10], "{report:?}");
}
