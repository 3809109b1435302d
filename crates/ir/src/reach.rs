//! `--reach LINE`: the module with "a statement of this line is executed" added as a property.
//!
//! Every instruction or terminator whose source construct starts on the line belongs to the line.
//! In each block holding one, a [`Check::Reach`] (which never holds) goes right before the first
//! of them, and all these checks name one new property of kind `reach`. Engines then search for
//! it as for any check, and the interpreter confirms a witness exactly when its run executes the
//! line: the replay stops on that property. Nothing else changes (no instruction moves, the other
//! properties keep their numbers), so runs that do not reach the line behave as before.

use std::fmt;

use symex_syntax::span::{LineIndex, Span};

use crate::cfg::{Check, FuncId, Inst, InstKind, Module, PropId, Property, PropertyKind};

/// The line has no instruction or terminator (a blank line, a comment, `}` or `else`, a `var`
/// declaration without initializer, a function header).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NoStatement {
    pub line: u32,
}

impl fmt::Display for NoStatement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {} holds no statement to reach (blank, a comment, a brace, a declaration without \
             initializer or a function header)",
            self.line
        )
    }
}

impl std::error::Error for NoStatement {}

/// `module` (lowered from `source`) with the reach property of `line`, and that property's id.
pub fn instrument_reach(
    module: &Module,
    source: &str,
    line: u32,
) -> Result<(Module, PropId), NoStatement> {
    let index = LineIndex::new(source);
    let on_line = |span: Span| index.start(span).line == line;
    // (function, block, position of the first construct of the line, its span)
    let mut sites: Vec<(usize, usize, usize, Span)> = Vec::new();
    for (f, function) in module.functions.iter().enumerate() {
        for (b, block) in function.blocks.iter().enumerate() {
            let first = block
                .insts
                .iter()
                .position(|inst| on_line(inst.span))
                .map(|i| (i, block.insts[i].span))
                .or_else(|| {
                    on_line(block.term_span).then_some((block.insts.len(), block.term_span))
                });
            if let Some((position, span)) = first {
                sites.push((f, b, position, span));
            }
        }
    }
    let Some(&(func, _, _, span)) = sites.iter().min_by_key(|site| (site.3.start, site.0)) else {
        return Err(NoStatement { line });
    };
    let mut out = module.clone();
    let prop = PropId(out.properties.len() as u32);
    out.properties.push(Property {
        kind: PropertyKind::Reach,
        func: FuncId(func as u32),
        span,
    });
    for (f, b, position, span) in sites {
        out.functions[f].blocks[b].insts.insert(
            position,
            Inst {
                kind: InstKind::Check {
                    check: Check::Reach,
                    prop,
                },
                span,
            },
        );
    }
    Ok((out, prop))
}

#[cfg(test)]
mod tests {
    use super::*;

    const SOURCE: &str = "f(a) {\n  var x;\n  x = 0;\n  while (a > 0) {\n    x = x + 1;\n    a = a - 1;\n  }\n  return x;\n}\nmain() {\n  var r;\n  r = f(3);\n  return r;\n}\n";

    fn module() -> Module {
        let front = symex_syntax::analyze(SOURCE).expect("the test program is valid");
        crate::lower(&front.program)
    }

    fn reach_checks(module: &Module, prop: PropId) -> Vec<(usize, usize)> {
        let mut found = Vec::new();
        for (f, function) in module.functions.iter().enumerate() {
            for (b, block) in function.blocks.iter().enumerate() {
                for inst in &block.insts {
                    if let InstKind::Check { check, prop: p } = &inst.kind {
                        if *p == prop {
                            assert_eq!(*check, Check::Reach);
                            found.push((f, b));
                        }
                    }
                }
            }
        }
        found
    }

    #[test]
    fn a_statement_line_gets_one_property_checked_in_each_of_its_blocks() {
        let original = module();
        let (instrumented, prop) = instrument_reach(&original, SOURCE, 5).unwrap();
        assert_eq!(prop.index(), original.properties.len());
        let property = &instrumented.properties[prop.index()];
        assert_eq!(property.kind, PropertyKind::Reach);
        assert_eq!(instrumented.functions[property.func.index()].name, "f");
        assert_eq!(LineIndex::new(SOURCE).start(property.span).line, 5);
        assert_eq!(reach_checks(&instrumented, prop).len(), 1);
        assert!(crate::verify(&instrumented).is_ok());
        // The loop header's line: its condition and the gotos into the header are on it.
        let (instrumented, prop) = instrument_reach(&original, SOURCE, 4).unwrap();
        assert!(reach_checks(&instrumented, prop).len() >= 2);
        assert!(crate::verify(&instrumented).is_ok());
        // A `return` terminator alone on its line.
        let (instrumented, prop) = instrument_reach(&original, SOURCE, 13).unwrap();
        assert_eq!(reach_checks(&instrumented, prop).len(), 1);
        assert_eq!(
            instrumented.properties[..prop.index()],
            original.properties[..]
        );
    }

    #[test]
    fn lines_without_statements_are_refused() {
        let original = module();
        for line in [1, 2, 7, 9, 11, 99] {
            assert_eq!(
                instrument_reach(&original, SOURCE, line).map(|(_, p)| p),
                Err(NoStatement { line }),
                "line {line}"
            );
        }
        assert!(NoStatement { line: 2 }.to_string().contains("line 2"));
    }
}
