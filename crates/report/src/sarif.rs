//! The SARIF 2.1.0 form of a report (`symex check --format sarif`), for code-scanning services
//! and IDE viewers (docs/report-sarif.md).
//!
//! One run of the tool `symex`; one rule per property kind the report has (`assert`,
//! `null-deref`, ...); one result per property that is not `safe`: a `violated` one is a `fail`
//! at level `error` whose counterexample is a code flow (one thread-flow location per trace step,
//! with the values of the variables assigned so far as its `state`), and an undecided one
//! (`unknown`, `safe up to K`, an unconfirmed counterexample) is `open` (SARIF's "the tool could
//! not tell") with the reason. Keys come out in a fixed order, so the same report gives the same
//! bytes. Nothing here decides a verdict.

use std::collections::BTreeMap;

use serde::Serialize;
use symex_ir::cfg::PropertyKind;

use crate::counterexample::Witness;
use crate::kind;
use crate::property::PropertyReport;
use crate::report::Report;
use crate::trace::Event;
use crate::verdict::Verdict;

const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";

impl Report {
    /// The report as a SARIF 2.1.0 log, pretty-printed (two-space indent, no trailing newline).
    pub fn to_sarif(&self) -> Result<String, serde_json::Error> {
        let mut kinds: Vec<PropertyKind> = self.properties().iter().map(|p| p.kind).collect();
        kinds.sort_by_key(|k| k.name());
        kinds.dedup();
        let rules = kinds.iter().map(|&k| rule(k)).collect();
        let results = self
            .properties()
            .iter()
            .filter_map(|p| {
                let index = kinds.iter().position(|&k| k == p.kind)?;
                result(self, p, index)
            })
            .collect();
        let log = Log {
            schema: SCHEMA,
            version: "2.1.0",
            runs: [Run {
                tool: Tool {
                    driver: Driver {
                        name: "symex",
                        version: env!("CARGO_PKG_VERSION"),
                        rules,
                    },
                },
                artifacts: [Artifact {
                    location: artifact(&self.program),
                }],
                results,
                properties: RunProperties {
                    engine: &self.engine,
                    entry: &self.entry,
                },
            }],
        };
        serde_json::to_string_pretty(&log)
    }
}

fn rule(kind: PropertyKind) -> Rule {
    Rule {
        id: kind.name(),
        short_description: Text {
            text: kind::failure(kind).to_string(),
        },
        full_description: Text {
            text: format!(
                "`{}` ({}): symex found an input that makes the program fail this check, and \
                 reports it only after its concrete interpreter ran that input to the same \
                 failure.",
                kind.name(),
                kind::failure(kind)
            ),
        },
        default_configuration: Configuration { level: "error" },
    }
}

/// The result of a property that is not `safe`.
fn result<'r>(report: &'r Report, p: &'r PropertyReport, rule_index: usize) -> Option<Res<'r>> {
    let (kind, level, message, code_flows, properties) = match &p.verdict {
        Verdict::Safe => return None,
        Verdict::Violated(cex) => {
            let w = cex.witness();
            let message = format!("{}: {}", kind::failure(p.kind), kind::label(p.kind));
            let properties = Some(ResultProperties {
                inputs: &w.inputs,
                replay: crate::text::replay_command(report, w),
            });
            (
                "fail",
                Some("error"),
                message,
                vec![code_flow(report, w)],
                properties,
            )
        }
        Verdict::SafeUpTo { bound, reason } => {
            let message = format!("not violated within the bound {bound} ({reason}); not proved");
            ("open", None, message, Vec::new(), None)
        }
        Verdict::Unknown { reason } => {
            ("open", None, format!("unknown: {reason}"), Vec::new(), None)
        }
        Verdict::Unconfirmed(u) => ("open", None, u.reason().to_string(), Vec::new(), None),
    };
    Some(Res {
        rule_id: p.kind.name(),
        rule_index,
        kind,
        level,
        message: Text { text: message },
        locations: [location(
            &report.program,
            &p.function,
            p.line,
            p.column,
            None,
        )],
        code_flows,
        properties,
    })
}

/// The counterexample's path: each step with its event as the message and the values the path
/// has given so far to variables, to parts of them and to heap objects (by the names the trace
/// uses: `n`, `a[2]`, `o1`, `o1.next`).
fn code_flow(report: &Report, w: &Witness) -> CodeFlow {
    let mut state: BTreeMap<String, Text> = BTreeMap::new();
    let locations = w
        .trace
        .iter()
        .enumerate()
        .map(|(order, step)| {
            match &step.event {
                Event::Assign { var: name, value }
                | Event::Store {
                    target: name,
                    value,
                }
                | Event::Alloc {
                    object: name,
                    value,
                } => {
                    let text = value.to_string();
                    state.insert(name.clone(), Text { text });
                }
                Event::Free { object } => {
                    let text = "freed".to_string();
                    state.insert(object.clone(), Text { text });
                }
                _ => {}
            }
            ThreadFlowLocation {
                location: location(
                    &report.program,
                    &step.function,
                    step.line,
                    step.column,
                    Some(step.event.to_string()),
                ),
                state: state.clone(),
                execution_order: order,
            }
        })
        .collect();
    CodeFlow {
        thread_flows: [ThreadFlow { locations }],
    }
}

fn location(
    program: &str,
    function: &str,
    line: u32,
    column: u32,
    message: Option<String>,
) -> Location {
    Location {
        physical_location: PhysicalLocation {
            artifact_location: artifact(program),
            region: Region {
                start_line: line.max(1),
                start_column: column.max(1),
            },
        },
        logical_locations: [LogicalLocation {
            name: function.to_string(),
            kind: "function",
        }],
        message: message.map(|text| Text { text }),
    }
}

/// The program as a relative URI reference: `/` separators, spaces and `%` escaped.
fn artifact(program: &str) -> ArtifactLocation {
    let uri = program
        .replace('\\', "/")
        .replace('%', "%25")
        .replace(' ', "%20");
    ArtifactLocation { uri }
}

#[derive(Serialize)]
struct Log<'r> {
    #[serde(rename = "$schema")]
    schema: &'static str,
    version: &'static str,
    runs: [Run<'r>; 1],
}

#[derive(Serialize)]
struct Run<'r> {
    tool: Tool,
    artifacts: [Artifact; 1],
    results: Vec<Res<'r>>,
    properties: RunProperties<'r>,
}

#[derive(Serialize)]
struct RunProperties<'r> {
    engine: &'r str,
    entry: &'r str,
}

#[derive(Serialize)]
struct Tool {
    driver: Driver,
}

#[derive(Serialize)]
struct Driver {
    name: &'static str,
    version: &'static str,
    rules: Vec<Rule>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Rule {
    id: &'static str,
    short_description: Text,
    full_description: Text,
    default_configuration: Configuration,
}

#[derive(Serialize)]
struct Configuration {
    level: &'static str,
}

#[derive(Clone, Serialize)]
struct Text {
    text: String,
}

#[derive(Serialize)]
struct Artifact {
    location: ArtifactLocation,
}

#[derive(Serialize)]
struct ArtifactLocation {
    uri: String,
}

/// A result (SARIF's `result` object).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Res<'r> {
    rule_id: &'static str,
    rule_index: usize,
    kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    level: Option<&'static str>,
    message: Text,
    locations: [Location; 1],
    #[serde(skip_serializing_if = "Vec::is_empty")]
    code_flows: Vec<CodeFlow>,
    #[serde(skip_serializing_if = "Option::is_none")]
    properties: Option<ResultProperties<'r>>,
}

#[derive(Serialize)]
struct ResultProperties<'r> {
    inputs: &'r [i32],
    replay: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Location {
    physical_location: PhysicalLocation,
    logical_locations: [LogicalLocation; 1],
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<Text>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PhysicalLocation {
    artifact_location: ArtifactLocation,
    region: Region,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Region {
    start_line: u32,
    start_column: u32,
}

#[derive(Serialize)]
struct LogicalLocation {
    name: String,
    kind: &'static str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct CodeFlow {
    thread_flows: [ThreadFlow; 1],
}

#[derive(Serialize)]
struct ThreadFlow {
    locations: Vec<ThreadFlowLocation>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ThreadFlowLocation {
    location: Location,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    state: BTreeMap<String, Text>,
    execution_order: usize,
}

#[cfg(test)]
mod tests {
    use serde_json::Value;

    use crate::sample;

    fn sarif() -> Value {
        let text = sample::report().to_sarif().expect("SARIF");
        serde_json::from_str(&text).expect("JSON")
    }

    #[test]
    fn every_property_but_the_safe_one_is_a_result_of_its_rule() {
        let log = sarif();
        let run = &log["runs"][0];
        let rules: Vec<&str> = run["tool"]["driver"]["rules"]
            .as_array()
            .expect("rules")
            .iter()
            .map(|r| r["id"].as_str().expect("an id"))
            .collect();
        assert_eq!(rules, ["assert", "div-by-zero", "uninit"]);
        let results = run["results"].as_array().expect("results");
        // Five properties, one safe: the violation fails, the rest are open.
        let kinds: Vec<(&str, &str, u64)> = results
            .iter()
            .map(|r| {
                let rule = r["ruleId"].as_str().expect("a rule");
                assert_eq!(
                    rules[r["ruleIndex"].as_u64().expect("an index") as usize],
                    rule
                );
                (rule, r["kind"].as_str().expect("a kind"), {
                    r["locations"][0]["physicalLocation"]["region"]["startLine"]
                        .as_u64()
                        .expect("a line")
                })
            })
            .collect();
        assert_eq!(
            kinds,
            [
                ("div-by-zero", "fail", 2),
                ("uninit", "open", 12),
                ("assert", "open", 16),
                ("uninit", "open", 17),
            ]
        );
        assert_eq!(results[0]["level"], "error");
        assert!(results.iter().skip(1).all(|r| r.get("level").is_none()));
        assert_eq!(log["version"], "2.1.0");
    }

    #[test]
    fn the_counterexample_is_a_code_flow_with_the_values_so_far() {
        let log = sarif();
        let violation = &log["runs"][0]["results"][0];
        let steps = violation["codeFlows"][0]["threadFlows"][0]["locations"]
            .as_array()
            .expect("steps");
        assert!(!steps.is_empty());
        for (order, step) in steps.iter().enumerate() {
            assert_eq!(step["executionOrder"].as_u64(), Some(order as u64));
            assert!(step["location"]["message"]["text"].is_string());
        }
        // A variable's value appears in the state from the step that assigns it on.
        let assigned = steps
            .iter()
            .position(|s| s.get("state").is_some())
            .expect("an assignment on the path");
        assert!(steps[assigned..].iter().all(|s| s.get("state").is_some()));
        assert_eq!(violation["properties"]["inputs"], serde_json::json!([5]));
        assert!(violation["properties"]["replay"]
            .as_str()
            .expect("a replay command")
            .starts_with("symex run p.uc"));
    }

    #[test]
    fn the_same_report_gives_the_same_bytes() {
        let report = sample::report();
        assert_eq!(report.to_sarif().ok(), report.to_sarif().ok());
    }
}
