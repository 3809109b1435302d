//! The SARIF form of a report checked against the official SARIF 2.1.0 schema
//! (`vendor/sarif/sarif-schema-2.1.0.json`).

use std::sync::OnceLock;

use symex_report::Report;

const SCHEMA: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../vendor/sarif/sarif-schema-2.1.0.json"
);

/// The compiled schema, once per test binary.
fn schema() -> &'static (boon::Schemas, boon::SchemaIndex) {
    static SCHEMA_INDEX: OnceLock<(boon::Schemas, boon::SchemaIndex)> = OnceLock::new();
    SCHEMA_INDEX.get_or_init(|| {
        let text = std::fs::read_to_string(SCHEMA).expect("the vendored SARIF schema");
        let json: serde_json::Value = serde_json::from_str(&text).expect("the schema is JSON");
        let mut schemas = boon::Schemas::new();
        let mut compiler = boon::Compiler::new();
        compiler
            .add_resource("sarif-schema-2.1.0.json", json)
            .expect("the schema loads");
        let index = compiler
            .compile("sarif-schema-2.1.0.json", &mut schemas)
            .expect("the schema compiles");
        (schemas, index)
    })
}

/// Why the report's SARIF form is not a valid SARIF 2.1.0 log (empty when it is).
pub fn problems(report: &Report) -> Vec<String> {
    let sarif = match report.to_sarif() {
        Ok(sarif) => sarif,
        Err(e) => return vec![format!("no SARIF: {e}")],
    };
    let log: serde_json::Value = match serde_json::from_str(&sarif) {
        Ok(log) => log,
        Err(e) => return vec![format!("the SARIF is not JSON: {e}")],
    };
    let (schemas, index) = schema();
    match schemas.validate(&log, *index) {
        Ok(()) => Vec::new(),
        Err(e) => vec![format!("the SARIF breaks the 2.1.0 schema: {e:#}")],
    }
}
