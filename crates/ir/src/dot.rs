//! Graphviz rendering of a module (`symex cfg --dot`): one cluster per function, one
//! record-shaped node per block listing its instructions, edges labelled `T`/`F` for the two
//! arms of a branch. Deterministic; instruction text is that of [`crate::print`].

use std::fmt::Write;

use crate::cfg::*;
use crate::print::{inst_text, terminator_text};

pub fn to_dot(module: &Module) -> String {
    let mut out = String::new();
    out.push_str("digraph cfg {\n");
    out.push_str("  node [shape=record, fontname=\"monospace\"];\n");
    for (f, func) in module.functions.iter().enumerate() {
        let _ = writeln!(out, "  subgraph cluster_f{f} {{");
        let _ = writeln!(out, "    label=\"{}\";", escape_string(&func.name));
        for (b, block) in func.blocks.iter().enumerate() {
            let mut label = format!("bb{b}|");
            for inst in &block.insts {
                label.push_str(&escape_record(&inst_text(module, func, &inst.kind)));
                label.push_str("\\l");
            }
            label.push('|');
            label.push_str(&escape_record(&terminator_text(module, func, &block.term)));
            label.push_str("\\l");
            let _ = writeln!(out, "    f{f}_bb{b} [label=\"{{{label}}}\"];");
        }
        for (b, block) in func.blocks.iter().enumerate() {
            match block.term {
                Terminator::Goto(t) => {
                    let _ = writeln!(out, "    f{f}_bb{b} -> f{f}_bb{};", t.0);
                }
                Terminator::Branch {
                    then_block,
                    else_block,
                    ..
                } => {
                    let _ = writeln!(
                        out,
                        "    f{f}_bb{b} -> f{f}_bb{} [label=\"T\"];",
                        then_block.0
                    );
                    let _ = writeln!(
                        out,
                        "    f{f}_bb{b} -> f{f}_bb{} [label=\"F\"];",
                        else_block.0
                    );
                }
                Terminator::Return(_) => {}
            }
        }
        out.push_str("  }\n");
    }
    out.push_str("}\n");
    out
}

/// Text inside a record label: the record syntax characters and quotes are backslash-escaped.
fn escape_record(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\\' | '"' | '{' | '}' | '|' | '<' | '>' => {
                out.push('\\');
                out.push(c);
            }
            '\n' => out.push_str("\\l"),
            _ => out.push(c),
        }
    }
    out
}

/// Text inside a plain quoted attribute.
fn escape_string(text: &str) -> String {
    text.replace('\\', "\\\\").replace('"', "\\\"")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::lower_ok;

    #[test]
    fn clusters_records_and_labelled_branches() {
        let module = lower_ok("main() { var r; r = {f: 1}; if (r.f < 2) { output 1; } return 0; }");
        assert_eq!(
            to_dot(&module),
            r#"digraph cfg {
  node [shape=record, fontname="monospace"];
  subgraph cluster_f0 {
    label="main";
    f0_bb0 [label="{bb0|r = \{f: 1\}\lcheck uninit r\l%0 = r.f\l%1 = %0 \< 2\l|branch %1 ? bb1 : bb2\l}"];
    f0_bb1 [label="{bb1|output 1\l|goto bb2\l}"];
    f0_bb2 [label="{bb2||return 0\l}"];
    f0_bb0 -> f0_bb1 [label="T"];
    f0_bb0 -> f0_bb2 [label="F"];
    f0_bb1 -> f0_bb2;
  }
}
"#
        );
    }

    #[test]
    fn escaping() {
        assert_eq!(
            escape_record(r#"a|b{c}<d>"e"\"#),
            r#"a\|b\{c\}\<d\>\"e\"\\"#
        );
        assert_eq!(escape_string(r#"x"y\"#), r#"x\"y\\"#);
    }
}
