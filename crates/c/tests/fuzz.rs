//! Fuzzing the C front end and the interpreter on what it makes, for a bounded number of
//! cases: the project's C corpus (`corpus/c`, `corpus/c-memory`) mutated by characters and by C
//! tokens, under both data models and every option. Whatever the text, the front end must not
//! panic, overflow the stack or hang: it refuses the text with an error that renders, or it
//! makes IR that verifies (`translate_text` checks it) and that the interpreter runs without a
//! type fault or a broken IR invariant, which would both be lowering bugs.

use std::path::Path;

use proptest::prelude::*;
use symex_c::{translate_text, DataModel, Options};
use symex_gen::mutate::{mutate, mutation};
use symex_interp::{Interpreter, RunConfig, RunEnd};
use symex_ir::cfg::PropertyKind;

/// Steps per run: the corpus's programs finish far below it.
const MAX_STEPS: u64 = 200_000;

/// Tokens inserted into the texts: C's syntax, the subset's constructs and its refusals.
const VOCABULARY: &[&str] = &[
    "int",
    "unsigned",
    "long long",
    "char",
    "_Bool",
    "short",
    "void",
    "struct node",
    "*",
    "&",
    "(",
    ")",
    "{",
    "}",
    "[",
    "]",
    ";",
    ",",
    "->",
    ".",
    "=",
    "+=",
    "<<=",
    "++",
    "--",
    "-",
    "/",
    "%",
    "<<",
    ">>",
    "==",
    "<",
    "!",
    "~",
    "?",
    ":",
    "&&",
    "||",
    "sizeof",
    "sizeof(int)",
    "(void *)",
    "(int *)",
    "(long)",
    "(unsigned char)",
    "(unsigned char *)",
    "(char *)&x",
    "memcpy(p, &x, 3)",
    "memcmp(p, \"ab\", 2)",
    "0",
    "1",
    "-1",
    "2147483647",
    "4294967296LL",
    "0x80000000",
    "'a'",
    "\"s\"",
    "if",
    "else",
    "while",
    "for",
    "do",
    "switch",
    "case 1:",
    "default:",
    "break;",
    "continue;",
    "goto L;",
    "L:",
    "return",
    "malloc(sizeof(int))",
    "free(p)",
    "__VERIFIER_nondet_int()",
    "__VERIFIER_nondet_long()",
    "reach_error();",
    "abort();",
    "x",
    "p",
    "i",
    "main",
    "typedef",
    "enum",
    "static",
];

fn corpus_texts() -> &'static [String] {
    static TEXTS: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    TEXTS.get_or_init(|| {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus");
        let mut paths = Vec::new();
        for dir in ["c", "c-memory"] {
            for entry in std::fs::read_dir(root.join(dir)).expect("the C corpus exists") {
                let path = entry.expect("a directory entry").path();
                if path.extension().is_some_and(|e| e == "c") {
                    paths.push(path);
                }
            }
        }
        paths.sort();
        assert!(paths.len() >= 40, "the C corpus is missing files");
        // `translate_text` reads preprocessed text, which has no comments (no file here has
        // `//` inside a string).
        let without_comments = |text: String| -> String {
            let lines = text
                .lines()
                .map(|line| line.split("//").next().unwrap_or(""));
            lines.collect::<Vec<_>>().join("\n")
        };
        paths
            .iter()
            .map(|p| without_comments(std::fs::read_to_string(p).expect("a corpus file reads")))
            .collect()
    })
}

/// The text through the front end and, if it is accepted, the interpreter (whether it was);
/// on a thread with a large stack, as the `symex` binary runs it.
fn pipeline(text: String, options: Options) -> bool {
    std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(move || pipeline_on_this_thread(&text, options))
        .expect("spawn")
        .join()
        .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
}

fn pipeline_on_this_thread(text: &str, options: Options) -> bool {
    let translated = match translate_text(text, options) {
        Ok(translated) => translated,
        Err(e) => {
            // Rendering must cope with any location the front end reports.
            let _ = e.render("fuzz.c", text);
            return false;
        }
    };
    // Every cause the front end records belongs to an `unmodelled` check that starts there
    // (a report names it for that check).
    for (span, cause) in &translated.unmodelled_causes {
        assert!(
            (translated.module.properties.iter())
                .any(|p| p.kind == PropertyKind::Unmodelled && p.span.start == span.start),
            "the cause `{cause}` at {span:?} has no check\nprogram:\n{text}"
        );
    }
    let Ok(interpreter) = Interpreter::new(&translated.module) else {
        panic!("the module does not load\nprogram:\n{text}");
    };
    // `main` may take parameters in a mutated file: then there is nothing to run.
    let Ok(outcome) = interpreter.run_main(
        &[3, -1, 0, 7, 1, 2],
        &RunConfig::default().with_max_steps(MAX_STEPS),
    ) else {
        return false;
    };
    match outcome.end {
        RunEnd::TypeError { message, .. } => {
            panic!("the lowered IR mixes types: {message}\noptions: {options:?}\nprogram:\n{text}")
        }
        RunEnd::IrInvariant { message, .. } => {
            panic!("IR invariant broken: {message}\noptions: {options:?}\nprogram:\n{text}")
        }
        _ => true,
    }
}

fn options() -> impl Strategy<Value = Options> {
    (any::<[bool; 7]>()).prop_map(
        |[ilp32, overflow, ordinary, inline, leaks, nondet, nondet_heap]| Options {
            signed_overflow: overflow,
            ordinary_error_calls: ordinary,
            data_model: if ilp32 {
                DataModel::Ilp32
            } else {
                DataModel::Lp64
            },
            inline_calls: inline,
            memory_leaks: leaks,
            nondet_locals: nondet,
            nondet_heap,
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn mutated_c_corpus_files_never_crash(
        pick in any::<prop::sample::Index>(),
        mutations in prop::collection::vec(mutation(VOCABULARY), 1..6),
        options in options(),
    ) {
        let text = mutate(pick.get::<String>(corpus_texts()), &mutations);
        pipeline(text, options);
    }
}

/// The unmutated files: each runs under the default options, and none breaks under any.
#[test]
fn every_c_corpus_file_runs_under_every_option() {
    for text in corpus_texts() {
        assert!(
            pipeline(text.clone(), Options::default()),
            "refused:\n{text}"
        );
        for ilp32 in [false, true] {
            for flags in 0..8u8 {
                let options = Options {
                    signed_overflow: flags & 1 != 0,
                    ordinary_error_calls: flags & 2 != 0,
                    inline_calls: flags & 4 != 0,
                    memory_leaks: flags & 4 == 0,
                    // Both ways with each of the other flags, without doubling the runs.
                    nondet_locals: ilp32 ^ (flags & 2 == 0),
                    nondet_heap: ilp32 ^ (flags & 1 == 0),
                    data_model: if ilp32 {
                        DataModel::Ilp32
                    } else {
                        DataModel::Lp64
                    },
                };
                pipeline(text.clone(), options);
            }
        }
    }
}
