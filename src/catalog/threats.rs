//! The gateway's side of threat findings: what the engine reads of a listed tool (the
//! definition it hashed, so a finding is cached under the hash it belongs to), and how
//! findings are shown to clients (annotation, refusal data).

use serde_json::{Map, Value, json};

use crate::mcp::lossy::{object, string};
use crate::tdqs::definition::ToolDefinition;
use crate::tdqs::threat::Finding;

/// The definition as JSON, exactly the fields the engine hashed. A lone surrogate (which
/// JSON text may carry and a client decodes) becomes U+FFFD, itself a visible oddity.
pub fn definition_value(def: &ToolDefinition) -> Value {
    let mut m = Map::new();
    m.insert("name".into(), string(&def.name));
    let mut opt = |key: &str, v: Option<Value>| {
        if let Some(v) = v {
            m.insert(key.into(), v);
        }
    };
    opt("title", def.title.as_ref().map(string));
    opt("description", def.description.as_ref().map(string));
    opt("inputSchema", def.input_schema.as_ref().map(object));
    opt("outputSchema", def.output_schema.as_ref().map(object));
    opt("annotations", def.annotations.as_ref().map(object));
    Value::Object(m)
}

/// `[{kind, severity}]`, one entry per distinct pair, worst first: what a client or a refused
/// caller is told (the evidence stays with the operator).
pub fn summary(findings: &[&Finding]) -> Value {
    let mut pairs: Vec<(crate::tdqs::threat::Severity, &str)> =
        findings.iter().map(|f| (f.severity, f.kind.as_str())).collect();
    pairs.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(b.1)));
    pairs.dedup();
    Value::Array(pairs.into_iter().map(|(s, k)| json!({ "kind": k, "severity": s.as_str() })).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tdqs::threat::Severity;

    fn finding(kind: &str, severity: Severity) -> Finding {
        Finding { kind: kind.into(), severity, field: "#/description".into(), evidence: "x".into(), decoded: None }
    }

    #[test]
    fn summary_is_distinct_pairs_worst_first() {
        let (a, b, c) = (finding("b", Severity::Low), finding("a", Severity::High), finding("b", Severity::Low));
        assert_eq!(
            summary(&[&a, &b, &c]),
            json!([{"kind": "a", "severity": "high"}, {"kind": "b", "severity": "low"}])
        );
    }

    #[test]
    fn the_value_carries_every_hashed_field() {
        let v = crate::tdqs::json::parse(
            br#"{"name":"t","description":"d","inputSchema":{"type":"object","properties":{"p":{"default":"x"}}},"annotations":{"title":"a"},"extra":1}"#,
        )
        .unwrap();
        let def = crate::tdqs::definition::tool_from_object(v.as_object().unwrap(), 1).unwrap();
        let out = definition_value(&def);
        assert_eq!(out["inputSchema"]["properties"]["p"]["default"], "x");
        assert_eq!(out["annotations"]["title"], "a");
        assert!(out.get("extra").is_none());
    }
}
