//! The self-contained HTML report (`symex check --html FILE`, `symex report RUN.json --html
//! FILE`): the JSON report and the program's source embedded in one page together with its
//! stylesheet and script (`html/`), so that it opens offline and fetches nothing. The page
//! shows the source with every property's verdict in the margin, each counterexample step by
//! step with the variables and the heap drawn at every step (docs/reports.md).
//!
//! Rendering only: the page draws what the report says and decides nothing.

use crate::report::Report;

const TEMPLATE: &str = include_str!("html/report.html");
const STYLE: &str = include_str!("html/report.css");
const SCRIPT: &str = include_str!("html/report.js");

/// The largest magnitude JavaScript's numbers (doubles) hold exactly: 2^53.
const EXACT_IN_JAVASCRIPT: u64 = 1 << 53;

/// The page for `report` of the program whose text is `source`.
pub fn render(report: &Report, source: &str) -> Result<String, serde_json::Error> {
    let mut report_value = serde_json::to_value(report)?;
    exact_in_javascript(&mut report_value);
    let report_json = script_json(&serde_json::to_string(&report_value)?);
    let source_json = script_json(&serde_json::to_string(source)?);
    let mut page = String::with_capacity(TEMPLATE.len() + SCRIPT.len() + report_json.len());
    let mut rest = TEMPLATE;
    // One pass over the template: text put in is never searched for placeholders again.
    while let Some(open) = rest.find("{{") {
        page.push_str(&rest[..open]);
        let after = &rest[open + 2..];
        let Some(close) = after.find("}}") else {
            page.push_str(&rest[open..]);
            rest = "";
            break;
        };
        match &after[..close] {
            "version" => page.push_str(env!("CARGO_PKG_VERSION")),
            "title" => page.push_str(&escape_text(&report.program)),
            "css" => page.push_str(STYLE),
            "js" => page.push_str(SCRIPT),
            "report" => page.push_str(&report_json),
            "source" => page.push_str(&source_json),
            other => {
                page.push_str("{{");
                page.push_str(other);
                page.push_str("}}");
            }
        }
        rest = &after[close + 2..];
    }
    page.push_str(rest);
    Ok(page)
}

/// Every integer of `value` that a JavaScript number would round (a 64-bit trace value beyond
/// 2^53) as `{"int": "<digits>"}`, which the page's script shows as its digits.
fn exact_in_javascript(value: &mut serde_json::Value) {
    use serde_json::Value;
    match value {
        Value::Number(n)
            if n.as_i64()
                .map_or(n.is_u64(), |i| i.unsigned_abs() > EXACT_IN_JAVASCRIPT) =>
        {
            *value = serde_json::json!({ "int": n.to_string() });
        }
        Value::Array(items) => items.iter_mut().for_each(exact_in_javascript),
        Value::Object(fields) => fields.values_mut().for_each(exact_in_javascript),
        _ => {}
    }
}

/// JSON that may sit inside a `<script>` element: no `<` (so no `</script>` or `<!--`), which
/// occurs in JSON only inside strings, where `\u003c` means the same.
fn script_json(json: &str) -> String {
    json.replace('<', "\\u003c")
}

/// `text` as HTML/XML character data or attribute value.
pub fn escape_text(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sample;

    #[test]
    fn integers_beyond_2_pow_53_reach_the_script_as_digits() {
        let mut value = serde_json::json!({
            "small": [9007199254740992_i64, -9007199254740992_i64, 3],
            "wide": { "value": 9007199254740993_i64 },
            "negative": i64::MIN,
            "unsigned": u64::MAX,
            "ratio": 0.5,
        });
        exact_in_javascript(&mut value);
        let expected = serde_json::json!({
            "small": [9007199254740992_i64, -9007199254740992_i64, 3],
            "wide": { "value": { "int": "9007199254740993" } },
            "negative": { "int": "-9223372036854775808" },
            "unsigned": { "int": "18446744073709551615" },
            "ratio": 0.5,
        });
        assert_eq!(value, expected);
    }

    #[test]
    fn the_page_embeds_report_source_style_and_script_and_nothing_external() {
        let report = sample::report();
        let source = "main() {\n  return 1 / 0; // </script><!-- {{js}}\n}\n";
        let plain = render(&report, "main() {\n  return 0;\n}\n").unwrap();
        assert!(plain.starts_with("<!DOCTYPE html>"));
        assert!(!plain.contains("{{"), "every placeholder filled");
        let page = render(&report, source).unwrap();
        // The source's `{{js}}` is text of the program, not a placeholder.
        assert_eq!(page.matches("{{js}}").count(), 1);
        // The source's text cannot end the script element or open a comment.
        assert_eq!(page.matches("</script>").count(), 3);
        assert!(!page.contains("<!--"));
        // Offline: no address the browser would fetch.
        for fetch in ["src=\"http", "href=\"http", "@import", "url(http", "fetch("] {
            assert!(!page.contains(fetch), "{fetch}");
        }
        let start = page.find("id=\"symex-report\"").unwrap();
        let json = &page[page[start..].find('>').unwrap() + start + 1..];
        let json = &json[..json.find("</script>").unwrap()];
        let back = Report::from_json(json).unwrap();
        assert_eq!(back, sample::without_spans(report));
    }
}
