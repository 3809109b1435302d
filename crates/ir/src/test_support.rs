//! Helpers for unit tests: functions built from a bare successor list, and lowering of
//! micro-c snippets through the real front end.

use symex_syntax::span::{LineIndex, Span};

use crate::cfg::*;

/// A function whose block `i` jumps to `succs[i]`: no successor is a `Return`, one a `Goto`,
/// two a `Branch` (then, else) on a parameter.
pub fn graph(succs: &[&[u32]]) -> Function {
    let blocks = succs
        .iter()
        .map(|s| Block {
            insts: Vec::new(),
            term: match *s {
                [] => Terminator::Return(Operand::Const(0)),
                [t] => Terminator::Goto(BlockId(*t)),
                [t, e] => Terminator::Branch {
                    cond: Operand::Local(LocalId(0)),
                    then_block: BlockId(*t),
                    else_block: BlockId(*e),
                },
                _ => panic!("a block has at most two successors"),
            },
            term_span: Span::default(),
        })
        .collect();
    Function {
        name: "g".to_string(),
        span: Span::default(),
        param_count: 1,
        locals: vec![LocalInfo {
            name: "c".to_string(),
            kind: LocalKind::Param,
            span: Span::default(),
            address_taken: false,
            width: Width::W32,
            unsigned: false,
            layout: Default::default(),
        }],
        blocks,
    }
}

pub fn blocks(ids: &[u32]) -> Vec<BlockId> {
    ids.iter().map(|&i| BlockId(i)).collect()
}

/// Lowers a program that must pass the front end, and verifies the result.
/// The first loop header of `function` (the target of its first back edge, a block jumping
/// backwards) and its local named `name`.
pub fn first_header_and_local(function: &Function, name: &str) -> (BlockId, LocalId) {
    let local = function
        .locals
        .iter()
        .position(|l| l.name == name)
        .map(|i| LocalId(i as u32))
        .expect("local");
    let header = function
        .blocks
        .iter()
        .enumerate()
        .flat_map(|(i, b)| b.term.successors().filter(move |s| s.index() <= i))
        .next()
        .expect("a loop");
    (header, local)
}

pub fn lower_ok(text: &str) -> Module {
    let front = match symex_syntax::analyze(text) {
        Ok(front) => front,
        Err(diagnostics) => panic!("front end rejected the test program: {diagnostics:?}"),
    };
    let module = crate::lower(&front.program);
    if let Err(errors) = crate::verify(&module) {
        panic!("verifier: {errors:#?}");
    }
    module
}

/// The printed IR of `text`'s function `name`.
pub fn printed(text: &str, name: &str) -> String {
    let module = lower_ok(text);
    let id = module
        .function_by_name(name)
        .unwrap_or_else(|| panic!("no function {name}"));
    crate::print::print_function(&module, id, &LineIndex::new(text))
}

/// Printed instructions and terminators of a function without the comments and header,
/// one per line: the form lowering tests compare against.
pub fn body(text: &str, name: &str) -> String {
    printed(text, name)
        .lines()
        .skip(2)
        .map(|line| line.split(" ; ").next().unwrap_or(line).trim_end())
        .map(|line| format!("{line}\n"))
        .collect()
}
