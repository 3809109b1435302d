//! Every corpus program lowers to a module that verifies, prints, renders to DOT and
//! analyses without trouble; the corpus headers' error lines are property sites of the IR;
//! lowering is deterministic and scales to a 10,000-line program.

use std::path::{Path, PathBuf};

use symex_ir::analysis::{Dominators, LoopForest, PostDominators};
use symex_ir::{lower, verify, Module, PropertyKind};
use symex_syntax::ast::{Stmt, StmtKind};
use symex_syntax::span::LineIndex;

/// The shared expectation corpus (`$SYMEX_SHARED_CORPUS`, else the vendored `vendor/corpus`,
/// as the corpus crate finds it) and the project's own `corpus/`.
fn corpus_files() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let shared = std::env::var_os("SYMEX_SHARED_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("vendor/corpus"));
    let mut files = uc_files(&shared);
    assert!(!files.is_empty(), "no shared corpus in {shared:?}");
    files.extend(uc_files(&root.join("corpus")));
    files
}

fn uc_files(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "uc"))
        .collect();
    files.sort();
    files
}

fn whiles(stmts: &[Stmt]) -> usize {
    stmts
        .iter()
        .map(|s| match &s.kind {
            StmtKind::While { body, .. } => 1 + whiles(std::slice::from_ref(body)),
            StmtKind::If {
                then_branch,
                else_branch,
                ..
            } => {
                whiles(std::slice::from_ref(then_branch))
                    + else_branch
                        .as_ref()
                        .map_or(0, |e| whiles(std::slice::from_ref(e)))
            }
            StmtKind::Block(stmts) => whiles(stmts),
            _ => 0,
        })
        .sum()
}

/// `(kind, line)` of every `verdict: violated KIND line N` and `run: ... error=KIND line N`.
fn expected_errors(text: &str) -> Vec<(PropertyKind, u32)> {
    let mut found = Vec::new();
    for line in text.lines().filter_map(|l| l.strip_prefix("//! ")) {
        let words: Vec<&str> = line.split_whitespace().collect();
        for w in words.windows(3) {
            let kind =
                w[0].strip_prefix("error=")
                    .or(if words[0] == "verdict:" && w[0] != "violated" {
                        Some(w[0])
                    } else {
                        None
                    });
            if let (Some(kind), "line", Ok(n)) = (kind, w[1], w[2].parse::<u32>()) {
                let kind = PropertyKind::from_name(kind)
                    .unwrap_or_else(|| panic!("unknown kind {kind} in {line}"));
                found.push((kind, n));
            }
        }
    }
    found
}

fn check_analyses(module: &Module, program: &symex_syntax::ast::Program, path: &Path) {
    for (func, ast) in module.functions.iter().zip(&program.functions) {
        let dom = Dominators::compute(func);
        for b in func.block_ids() {
            assert!(dom.is_reachable(b), "{path:?}: unreachable block");
            if let Some(d) = dom.idom(b) {
                assert!(dom.strictly_dominates(d, b));
            }
        }
        let pdom = PostDominators::compute(func);
        assert!(func.block_ids().all(|b| pdom.reaches_exit(b)));
        let loops = LoopForest::compute(&dom);
        assert!(loops.is_reducible());
        assert_eq!(
            loops.loops.len(),
            whiles(&ast.body),
            "{path:?}: fn {}: one loop per while",
            func.name
        );
        assert_eq!(dom.frontiers().len(), func.blocks.len());
    }
}

#[test]
fn every_corpus_program_lowers_verifies_and_analyses() {
    let files = corpus_files();
    assert!(files.len() >= 60, "corpus not found: {} files", files.len());
    let mut error_sites = 0;
    for path in files {
        let text = std::fs::read_to_string(&path).expect("readable corpus file");
        let front = symex_syntax::analyze(&text)
            .unwrap_or_else(|d| panic!("{path:?}: front end rejected it: {d:?}"));
        let module = lower(&front.program);
        if let Err(errors) = verify(&module) {
            panic!("{path:?}: verifier:\n{}", errors.join("\n"));
        }
        check_analyses(&module, &front.program, &path);

        let lines = LineIndex::new(&text);
        for (kind, line) in expected_errors(&text) {
            error_sites += 1;
            assert!(
                module
                    .properties
                    .iter()
                    .any(|p| p.kind == kind && lines.start(p.span).line == line),
                "{path:?}: no {} property on line {line}",
                kind.name()
            );
        }

        let printed = symex_ir::print::print_module(&module, &lines);
        let again = symex_ir::print::print_module(&lower(&front.program), &lines);
        assert_eq!(printed, again, "{path:?}: lowering is not deterministic");
        assert!(symex_ir::dot::to_dot(&module).starts_with("digraph cfg {"));
    }
    assert!(
        error_sites >= 30,
        "only {error_sites} header error lines found"
    );
}

#[test]
fn a_ten_thousand_line_program_lowers_and_verifies() {
    let text = symex_gen::program_with_lines(10_000, 0);
    assert!(text.lines().count() >= 7_000);
    let front = symex_syntax::analyze(&text).expect("the generated program resolves");
    assert!(front.types.is_ok(), "the generated program is well typed");
    let module = lower(&front.program);
    verify(&module).expect("verifies");
    assert!(module.functions.len() > 50);
    check_analyses(&module, &front.program, Path::new("generated"));
}

#[test]
fn a_ten_thousand_line_function_lowers_and_verifies() {
    let text = symex_gen::single_function_with_lines(10_000, 0);
    let front = symex_syntax::analyze(&text).expect("the generated program resolves");
    assert!(front.types.is_ok(), "the generated program is well typed");
    let module = lower(&front.program);
    verify(&module).expect("verifies");
    check_analyses(&module, &front.program, Path::new("generated"));
}
