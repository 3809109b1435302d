//! Graphviz for input heaps (docs/heap-json.md): one node per argument and per object, one
//! edge per reference, so aliasing and cycles are visible.
//!
//! Reads the heap document of a witness as it is; nothing here checks it (the interpreter
//! does when it replays the witness).

use serde_json::Value as Json;

use crate::report::Report;
use crate::verdict::Verdict;

/// Every violated property's input heap as one `digraph`, a cluster per property.
pub fn report_heaps_dot(report: &Report) -> String {
    let mut out =
        String::from("digraph input_heaps {\n  node [shape=record, fontname=\"monospace\"];\n");
    for (i, property) in report.properties().iter().enumerate() {
        let Verdict::Violated(counterexample) = &property.verdict else {
            continue;
        };
        let Some(heap) = &counterexample.witness().heap else {
            continue;
        };
        out.push_str(&format!(
            "  subgraph cluster_{i} {{\n    label=\"{} line {}\";\n",
            property.kind.name(),
            property.line
        ));
        out.push_str(&heap_body(heap, &format!("p{i}_")));
        out.push_str("  }\n");
    }
    out.push_str("}\n");
    out
}

/// The nodes and edges of one heap document, node names prefixed by `prefix`.
pub fn heap_body(heap: &Json, prefix: &str) -> String {
    let mut out = String::new();
    let empty = serde_json::Map::new();
    let args = heap.get("args").and_then(Json::as_object).unwrap_or(&empty);
    let objects = heap
        .get("objects")
        .and_then(Json::as_object)
        .unwrap_or(&empty);
    for (name, value) in args {
        out.push_str(&format!(
            "    {prefix}arg_{} [shape=plaintext, label=\"{}\"];\n",
            ident(name),
            escape(&format!("{name} = {}", scalar(value)))
        ));
        if let Some(target) = reference(value) {
            out.push_str(&format!(
                "    {prefix}arg_{} -> {prefix}obj_{};\n",
                ident(name),
                ident(target)
            ));
        }
    }
    for (id, object) in objects {
        let (fields, edges): (Vec<String>, Vec<(String, &str)>) = match object.get("record") {
            Some(Json::Object(fields)) => {
                let labels = fields
                    .iter()
                    .map(|(f, v)| format!("<{}> {}: {}", ident(f), escape(f), escape(&scalar(v))))
                    .collect();
                let edges = fields
                    .iter()
                    .filter_map(|(f, v)| reference(v).map(|t| (format!(":{}", ident(f)), t)))
                    .collect();
                (labels, edges)
            }
            _ => {
                let value = object.get("value").unwrap_or(&Json::Null);
                let edges = reference(value)
                    .map(|t| (String::new(), t))
                    .into_iter()
                    .collect();
                (vec![escape(&scalar(value))], edges)
            }
        };
        out.push_str(&format!(
            "    {prefix}obj_{} [label=\"{{{} | {}}}\"];\n",
            ident(id),
            escape(id),
            fields.join(" | ")
        ));
        for (port, target) in edges {
            out.push_str(&format!(
                "    {prefix}obj_{}{port} -> {prefix}obj_{};\n",
                ident(id),
                ident(target)
            ));
        }
    }
    out
}

fn reference(value: &Json) -> Option<&str> {
    value.get("ref").and_then(Json::as_str)
}

fn scalar(value: &Json) -> String {
    match value {
        Json::Null => "null".into(),
        Json::Number(n) => n.to_string(),
        other => match reference(other) {
            Some(target) => format!("&{target}"),
            None => other.to_string(),
        },
    }
}

/// A Graphviz identifier from any id: letters, digits and `_`, the rest as hex codes.
fn ident(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_string()
            } else {
                format!("_{:x}", c as u32)
            }
        })
        .collect()
}

fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(c, '"' | '{' | '}' | '|' | '<' | '>' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cycles_and_aliases_become_edges() {
        let heap = serde_json::json!({
            "args": {"p": {"ref": "o1"}, "q": {"ref": "o1"}, "n": 3},
            "objects": {"o1": {"record": {"next": {"ref": "o1"}, "val": 7}}}
        });
        let body = heap_body(&heap, "x_");
        assert!(body.contains("x_arg_p -> x_obj_o1;"), "{body}");
        assert!(body.contains("x_arg_q -> x_obj_o1;"), "{body}");
        assert!(body.contains("x_obj_o1:next -> x_obj_o1;"), "{body}");
        assert!(body.contains("n = 3"), "{body}");
        assert!(body.contains("val: 7"), "{body}");
    }
}
