//! Fuzzing the whole front end and the interpreter, for a bounded number of cases: random token
//! streams, mutated corpus files, and generated well-typed programs. Whatever the input, nothing
//! may panic, overflow the stack or hang; every program that passes the front end must lower to
//! IR that verifies, and the interpreter must never report a broken IR invariant. Generated
//! programs are well-typed by construction, so the front end must accept them outright.

use proptest::prelude::*;
use symex_gen::mutate::{mutate, mutation};
use symex_interp::{Interpreter, RunConfig, RunEnd};

/// Steps per run: enough for generated programs, small enough to keep the test fast.
const MAX_STEPS: u64 = 200_000;

/// What the pipeline did with one text, for the assertions of each test.
#[derive(Debug, PartialEq)]
enum Stage {
    Rejected,
    IllTyped,
    Ran(RunSummary),
}

#[derive(Debug, PartialEq)]
enum RunSummary {
    Returned,
    RuntimeError,
    AssumeFailed,
    TypeError,
    Limit,
}

/// Runs text through parse, resolve, types, lower, verify and the interpreter, on a thread with
/// a large stack as the `symex` binary does (debug builds have large frames).
fn pipeline(text: String) -> Stage {
    std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(move || pipeline_on_this_thread(&text))
        .expect("spawn")
        .join()
        .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
}

fn pipeline_on_this_thread(text: &str) -> Stage {
    let frontend = match symex_syntax::analyze(text) {
        Ok(frontend) => frontend,
        Err(errors) => {
            assert!(!errors.is_empty());
            for e in &errors {
                // Rendering must cope with any span the front end produced.
                let _ = e.render("fuzz.uc", text, false);
            }
            return Stage::Rejected;
        }
    };
    let typed = frontend.types.is_ok();
    if let Ok(table) = &frontend.types {
        let _ = table.render(&frontend.program);
    }
    let module = symex_ir::lower(&frontend.program);
    if let Err(problems) = symex_ir::verify(&module) {
        panic!("lowered IR does not verify: {problems:?}\nprogram:\n{text}");
    }
    let interpreter = Interpreter::new(&module).expect("lowered modules are well-formed");
    let outcome = interpreter
        .run_main(
            &[3, -1, 0, 7],
            &RunConfig::default().with_max_steps(MAX_STEPS),
        )
        .expect("main exists and takes no parameters");
    let summary = match outcome.end {
        RunEnd::Returned(_) => RunSummary::Returned,
        RunEnd::RuntimeError { .. } => RunSummary::RuntimeError,
        RunEnd::AssumeFailed { .. } => RunSummary::AssumeFailed,
        RunEnd::TypeError { .. } => RunSummary::TypeError,
        RunEnd::LimitExceeded { .. } => RunSummary::Limit,
        RunEnd::IrInvariant { message, .. } => {
            panic!("IR invariant broken: {message}\nprogram:\n{text}")
        }
    };
    if typed {
        assert_ne!(
            summary,
            RunSummary::TypeError,
            "a well-typed program hit a runtime type error:\n{text}"
        );
        Stage::Ran(summary)
    } else {
        Stage::IllTyped
    }
}

const VOCABULARY: &[&str] = &[
    "main",
    "f",
    "x",
    "y",
    "p",
    "(",
    ")",
    "{",
    "}",
    "[",
    "]",
    ",",
    ";",
    ":",
    ".",
    "->",
    "=",
    "==",
    "!=",
    "<",
    "<=",
    ">",
    ">=",
    "+",
    "-",
    "*",
    "/",
    "%",
    "!",
    "&&",
    "||",
    "&",
    "var",
    "return",
    "if",
    "else",
    "while",
    "output",
    "input",
    "alloc",
    "null",
    "assert",
    "assume",
    "0",
    "1",
    "7",
    "2147483647",
    "2147483648",
    "/*",
    "*/",
    "//",
    "\n",
    "#",
    "é",
];

/// A plausible program skeleton so token soup often reaches the later stages.
fn token_program() -> impl Strategy<Value = String> {
    (
        prop::collection::vec(prop::sample::select(VOCABULARY), 0..40),
        prop::collection::vec(prop::sample::select(VOCABULARY), 0..80),
        any::<bool>(),
    )
        .prop_map(|(decls, body, wrap)| {
            let decls = decls.join(" ");
            let body = body.join(" ");
            if wrap {
                format!("f(x) {{ var y; {decls} return x; }}\nmain() {{ var x, y, p; {body} return 0; }}")
            } else {
                format!("{decls} {body}")
            }
        })
}

fn corpus_texts() -> &'static [String] {
    static TEXTS: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    TEXTS.get_or_init(|| {
        let files = symex_corpus::all_files().expect("the corpus loads");
        files.into_iter().map(|f| f.source).collect()
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn random_token_streams_never_crash(text in token_program()) {
        pipeline(text);
    }

    #[test]
    fn mutated_corpus_files_never_crash(
        pick in any::<prop::sample::Index>(),
        mutations in prop::collection::vec(mutation(VOCABULARY), 1..6),
    ) {
        let text = mutate(pick.get::<String>(corpus_texts()), &mutations);
        pipeline(text);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn generated_programs_pass_the_front_end_and_run(
        seed in any::<u64>(),
        functions in 0..5usize,
        statements in 1..12usize,
        max_block_depth in 0..4usize,
        (max_loop_depth, loop_percent, for_percent, input_bound_percent, errors) in (0..4usize, 0..40u32, 0..40u32, 0..=100u32, 0..4usize),
        [heap, arrays, null_pointers, symbolic_indices, calls, divisions, linear] in prop::array::uniform7(any::<bool>()),
        variables in prop::option::of(1..20usize),
    ) {
        let config = symex_gen::GenConfig {
            functions,
            variables,
            statements,
            max_block_depth,
            max_loop_depth,
            loop_percent,
            for_percent,
            input_bound_percent,
            errors,
            heap,
            arrays,
            null_pointers,
            symbolic_indices,
            calls,
            divisions,
            linear,
            ..symex_gen::GenConfig::default()
        };
        let text = symex_gen::generate(&config, seed);
        let stage = pipeline(text.clone());
        prop_assert!(matches!(stage, Stage::Ran(_)), "generated program rejected ({stage:?}):\n{text}");
    }
}

#[test]
fn every_corpus_file_runs_through_the_pipeline() {
    for text in corpus_texts() {
        assert!(matches!(pipeline(text.clone()), Stage::Ran(_)));
    }
}
