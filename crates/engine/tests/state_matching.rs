//! State matching (`--match-states`) against ground truth: generated reactive programs (a loop
//! that reads one of three inputs per round and updates a few variables of small domains by
//! guarded rules, with an assertion over them) are finite-state machines, whose reachable
//! states this test enumerates itself. Matching must make the search end with exactly the
//! machine's answer: `safe` when no reachable state breaks the assertion, a confirmed
//! violation when one does, under depth- and breadth-first search. Plain depth-first search
//! does not end on a safe one. A second family reads a `mode` before the loop and guards
//! some rules by it (`mode < t`): the states then hold a symbol, and are matched only where
//! the path conditions agree on it; the ground truth takes every class of modes apart.

use std::collections::{BTreeSet, VecDeque};
use std::time::Duration;

use symex_engine::{check_forward, CheckOptions, SearchStrategy};
use symex_gen::Rng;
use symex_report::{Report, Status};

const VARIABLES: usize = 3;
/// Each variable takes values 0..DOMAIN.
const DOMAIN: u64 = 3;
const INPUTS: u64 = 3;

/// Modes are compared with thresholds below this: modes from it on behave alike.
const MODES: u64 = 3;

/// `if (k == input && v[guard] == value && mode < below) { v[target] = new; v[other] =
/// other_new; }` (without the mode's test where `below` is `None`).
struct Rule {
    input: u64,
    guard: usize,
    value: u64,
    mode_below: Option<u64>,
    updates: [(usize, u64); 2],
}

/// A reactive machine: the first rule that applies fires each round; then the assertion
/// `!(v[a] == x && v[b] == y)` is checked.
struct Machine {
    rules: Vec<Rule>,
    forbidden: [(usize, u64); 2],
    /// Whether a `mode` input is read before the loop (some rules test it).
    moded: bool,
}

impl Machine {
    fn generate(seed: u64) -> Machine {
        Machine::generate_with(seed, false)
    }

    /// A machine whose rules test a `mode` read before the loop, about every other one.
    fn generate_moded(seed: u64) -> Machine {
        Machine::generate_with(seed, true)
    }

    fn generate_with(seed: u64, moded: bool) -> Machine {
        let mut rng = Rng::new(seed);
        let mut pick = |bound: u64| rng.below(bound);
        let rules = (0..4 + pick(3))
            .map(|_| {
                let rule = Rule {
                    input: 1 + pick(INPUTS),
                    guard: pick(VARIABLES as u64) as usize,
                    value: pick(DOMAIN),
                    updates: [
                        (pick(VARIABLES as u64) as usize, pick(DOMAIN)),
                        (pick(VARIABLES as u64) as usize, pick(DOMAIN)),
                    ],
                    mode_below: None,
                };
                let mode_below = (moded && pick(2) == 0).then(|| 1 + pick(MODES));
                Rule { mode_below, ..rule }
            })
            .collect();
        let forbidden = [
            (0, 1 + pick(DOMAIN - 1)),
            (1 + pick(VARIABLES as u64 - 1) as usize, pick(DOMAIN)),
        ];
        Machine {
            rules,
            forbidden,
            moded,
        }
    }

    fn step(&self, state: [u64; VARIABLES], input: u64, mode: u64) -> [u64; VARIABLES] {
        let mut next = state;
        if let Some(rule) = self.rules.iter().find(|r| {
            r.input == input && state[r.guard] == r.value && r.mode_below.is_none_or(|t| mode < t)
        }) {
            for &(target, value) in &rule.updates {
                next[target] = value;
            }
        }
        next
    }

    fn breaks_assertion(&self, state: [u64; VARIABLES]) -> bool {
        self.forbidden.iter().all(|&(v, x)| state[v] == x)
    }

    /// Whether some mode and sequence of rounds reach a state that breaks the assertion.
    fn violable(&self) -> bool {
        (0..=MODES).any(|mode| self.violable_in(mode))
    }

    fn violable_in(&self, mode: u64) -> bool {
        let mut seen = BTreeSet::from([[0; VARIABLES]]);
        let mut queue = VecDeque::from([[0; VARIABLES]]);
        while let Some(state) = queue.pop_front() {
            for input in 1..=INPUTS {
                let next = self.step(state, input, mode);
                if self.breaks_assertion(next) {
                    return true;
                }
                if seen.insert(next) {
                    queue.push_back(next);
                }
            }
        }
        false
    }

    fn micro_c(&self) -> String {
        let names: Vec<String> = (0..VARIABLES).map(|v| format!("v{v}")).collect();
        let mut chain = String::new();
        for rule in self.rules.iter().rev() {
            let updates: String = rule
                .updates
                .iter()
                .map(|&(t, x)| format!("{} = {x}; ", names[t]))
                .collect();
            let mode = match rule.mode_below {
                Some(t) => format!(" && mode < {t}"),
                None => String::new(),
            };
            let body = format!(
                "if (k == {} && {} == {}{mode}) {{ {updates}}}",
                rule.input, names[rule.guard], rule.value
            );
            chain = if chain.is_empty() {
                body
            } else {
                format!("{body} else {{ {chain} }}")
            };
        }
        let [(a, x), (b, y)] = self.forbidden;
        let (mode_var, mode_read) = match self.moded {
            true => (", mode", "mode = input;\n  "),
            false => ("", ""),
        };
        format!(
            "main() {{\n  var {vars}, k, running{mode_var};\n  {mode_read}{init}\n  running = 1;\n  \
             while (running == 1) {{\n    k = input;\n    \
             if (k < 1 || k > {INPUTS}) {{ running = 0; }} else {{\n      {chain}\n      \
             assert({} != {x} || {} != {y});\n    }}\n  }}\n  return 0;\n}}\n",
            names[a],
            names[b],
            vars = names.join(", "),
            init = names
                .iter()
                .map(|n| format!("{n} = 0;"))
                .collect::<Vec<_>>()
                .join(" "),
        )
    }
}

fn check(source: &str, options: &CheckOptions) -> Report {
    let front = symex_syntax::analyze(source).expect("valid");
    let types = front.types.expect("typed");
    let module = symex_ir::lower(&front.program);
    check_forward(&module, &types, source, "p.uc", "main", options).expect("runs")
}

/// The status of the program's only `assert`.
fn assertion(report: &Report) -> (Status, bool) {
    let p = report
        .properties()
        .iter()
        .find(|p| p.kind == symex_ir::cfg::PropertyKind::Assert)
        .expect("an assert");
    let confirmed = p.verdict.witness().is_some_and(|(_, confirmed)| confirmed);
    (p.verdict.status(), confirmed)
}

/// `search` with state matching, within a limit no run of these tests comes near.
fn with_matching(search: SearchStrategy) -> CheckOptions {
    CheckOptions {
        search,
        match_states: true,
        timeout: Some(Duration::from_secs(20)),
        ..CheckOptions::default()
    }
}

/// What depth- and breadth-first search with matching answered on 40 generated machines.
struct Outcomes {
    /// The machines' answers, whether they break the assertion in every mode, and whether
    /// some rule tests the mode (then every state holds its symbol).
    answers: BTreeSet<(Status, bool, bool)>,
    /// States pruned, over all runs.
    matched: u64,
}

/// Fails on any answer other than the machine's.
fn decide_machines(generate: fn(u64) -> Machine) -> Outcomes {
    let mut outcomes = Outcomes {
        answers: BTreeSet::new(),
        matched: 0,
    };
    let mut failures = Vec::new();
    for seed in 0..40 {
        let machine = generate(seed);
        let source = machine.micro_c();
        let expected = if machine.violable() {
            Status::Violated
        } else {
            Status::Safe
        };
        let in_every_mode = (0..=MODES).all(|m| machine.violable_in(m));
        let tests_mode = machine.rules.iter().any(|r| r.mode_below.is_some());
        outcomes
            .answers
            .insert((expected, in_every_mode, tests_mode));
        for search in [SearchStrategy::Dfs, SearchStrategy::Bfs] {
            let options = with_matching(search);
            let report = check(&source, &options);
            outcomes.matched += report.stats.matched.unwrap_or(0);
            let (status, confirmed) = assertion(&report);
            if status != expected || (status == Status::Violated && !confirmed) {
                failures.push(format!(
                    "seed {seed}, {search}: expected {expected:?}, got {status:?} (confirmed \
                     {confirmed})\n{source}"
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    outcomes
}

#[test]
fn matching_decides_generated_reactive_machines_as_their_state_graphs_do() {
    let outcomes = decide_machines(Machine::generate);
    // Both answers occur, so the test can catch a wrong one of either kind.
    let answers: BTreeSet<Status> = outcomes.answers.iter().map(|&(a, ..)| a).collect();
    assert_eq!(answers.len(), 2, "{answers:?}");
}

/// Machines whose rules test a symbolic `mode`: states hold its symbol, and a state is pruned
/// only by one whose constraints on the mode are all among its own. A state that took
/// `mode < 2` must not be pruned by an equal one that took `mode >= 2` (the machine may break
/// the assertion only in some modes), and the search must still end.
#[test]
fn matching_decides_machines_with_a_symbolic_mode() {
    let outcomes = decide_machines(Machine::generate_moded);
    // Modes matter: some machines break the assertion in some modes only; and some safe
    // machine keeps the mode live, so that its search ends only by matching symbolic states.
    let answers = &outcomes.answers;
    let some = |wanted: &dyn Fn(&(Status, bool, bool)) -> bool| answers.iter().any(wanted);
    assert!(
        some(&|&(status, every, _)| status == Status::Violated && !every),
        "{answers:?}"
    );
    assert!(
        some(&|&(status, _, tests_mode)| status == Status::Safe && tests_mode),
        "{answers:?}"
    );
    assert!(outcomes.matched > 0);
}

/// Two states that reach `x == 1` with the same values but opposite constraints on the
/// symbolic `mode`: only the one with `mode >= 1` goes on to break the assertion, so neither
/// may prune the other. The test on the mode is written both ways round, so that whichever
/// side the search follows first, in one of them the harmless state arrives first.
#[test]
fn symbolic_states_match_only_where_their_constraints_agree() {
    for test in ["mode < 1", "mode >= 1"] {
        let source = format!(
            "main() {{\n  var x, k, mode, running;\n  mode = input;\n  x = 0;\n  \
             running = 1;\n  while (running == 1) {{\n    k = input;\n    \
             if (k < 1 || k > 2) {{ running = 0; }} else {{\n      \
             if (k == 1 && x == 0) {{ if ({test}) {{ x = 1; }} else {{ x = 1; }} }}\n      \
             if (k == 2 && x == 1 && mode >= 1) {{ x = 2; }}\n      \
             assert(x != 2);\n    }}\n  }}\n  return 0;\n}}\n"
        );
        for search in [SearchStrategy::Dfs, SearchStrategy::Bfs] {
            let options = with_matching(search);
            let (status, confirmed) = assertion(&check(&source, &options));
            assert_eq!(
                (status, confirmed),
                (Status::Violated, true),
                "{search}: {source}"
            );
        }
    }
}

/// Without matching, depth-first search follows one endless round after another: the same
/// machines stay undecided (the reason matching exists).
#[test]
fn plain_depth_first_search_does_not_end_on_a_reactive_machine() {
    let machine = (0..40)
        .map(Machine::generate)
        .find(|m| !m.violable())
        .expect("a safe machine");
    let options = CheckOptions {
        search: SearchStrategy::Dfs,
        timeout: Some(Duration::from_millis(300)),
        ..CheckOptions::default()
    };
    let report = check(&machine.micro_c(), &options);
    assert_eq!(assertion(&report).0, Status::Unknown);
    let matched = check(
        &machine.micro_c(),
        &CheckOptions {
            match_states: true,
            timeout: Some(Duration::from_secs(20)),
            ..options
        },
    );
    assert_eq!(assertion(&matched).0, Status::Safe);
    assert!(matched.stats.matched.is_some_and(|n| n > 0));
}

/// Under `--unwind`, the iteration counts are part of a state: a state that reaches the header
/// with fewer iterations left is not pruned by an equal one seen with more left. Here `x`
/// reaches 1 in one round (input 1) or in three (inputs 2, 3, 2), and 3 two rounds of input 1
/// later: within the bound only on the short way. A search that takes the long way first must
/// not prune the short way's `x == 1` by it. The branches are written in all four orders, so
/// that some order takes the long way first whichever side depth-first search follows first.
#[test]
fn bounds_keep_their_meaning_under_matching() {
    let step =
        "if (x == 0) { x = 1; } else { if (x == 1) { x = 2; } else { if (x == 2) { x = 3; } } }";
    let detour = "if (x == 0) { x = 5; } else { if (x == 6) { x = 1; } }";
    let back = "if (x == 5) { x = 6; }";
    let choose = |k: u32, on: &str, off: &str, swapped: bool| {
        if swapped {
            format!("if (k != {k}) {{ {off} }} else {{ {on} }}")
        } else {
            format!("if (k == {k}) {{ {on} }} else {{ {off} }}")
        }
    };
    for order in 0..4 {
        let rest = choose(2, detour, back, order & 2 != 0);
        let body = choose(1, step, &rest, order & 1 != 0);
        let source = format!(
            "main() {{\n  var x, k, n;\n  x = 0;\n  n = 0;\n  while (n == 0) {{\n    \
             k = input;\n    {body}\n    assert(x != 3);\n  }}\n  return 0;\n}}\n"
        );
        for search in [SearchStrategy::Dfs, SearchStrategy::Bfs] {
            let bounded = CheckOptions {
                search,
                unwind: Some(3),
                ..CheckOptions::default()
            };
            assert_eq!(assertion(&check(&source, &bounded)).0, Status::Violated);
            let matched = CheckOptions {
                match_states: true,
                ..bounded
            };
            let (status, confirmed) = assertion(&check(&source, &matched));
            assert_eq!(
                (status, confirmed),
                (Status::Violated, true),
                "{search}: {source}"
            );
        }
    }
    // A loop whose states repeat within the bound: `safe up to` it, `safe` without it.
    let toggle = "main() {\n  var x, k, n;\n  x = 0;\n  n = 0;\n  while (n == 0) {\n    \
                  k = input;\n    if (k == 1) { x = 1 - x; }\n    assert(x != 5);\n  }\n  \
                  return 0;\n}\n";
    let bounded = CheckOptions {
        match_states: true,
        unwind: Some(3),
        ..CheckOptions::default()
    };
    assert_eq!(assertion(&check(toggle, &bounded)).0, Status::SafeUpTo);
    let unbounded = CheckOptions {
        unwind: None,
        ..bounded
    };
    assert_eq!(assertion(&check(toggle, &unbounded)).0, Status::Safe);
}
