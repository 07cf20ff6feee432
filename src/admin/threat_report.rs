//! Threat findings in the server report the admin API serves: the JSON gains a `threats`
//! object shaped like `tdqs-gateway scan`'s (every listed tool, with or without findings, and
//! the server's instructions), the markdown a section after the scores.

use serde_json::Value;

use crate::tdqs::threat::Finding;

/// A markdown section listing every finding of a `UpstreamTools::threats_json` value (nothing to say
/// when there is none).
pub fn threats_markdown(threats: &Value) -> String {
    let findings = |v: &Value| -> Vec<Finding> { serde_json::from_value(v.clone()).unwrap_or_default() };
    let mut rows: Vec<(String, Finding)> = Vec::new();
    for t in threats["tools"].as_array().into_iter().flatten() {
        let name = t["name"].as_str().unwrap_or_default();
        rows.extend(findings(&t["threats"]).into_iter().map(|f| (name.to_owned(), f)));
    }
    rows.extend(findings(&threats["server"]["threats"]).into_iter().map(|f| ("(server instructions)".to_owned(), f)));
    if rows.is_empty() {
        return "\n## Threats\n\nNo threat findings in the listed definitions.\n".to_owned();
    }
    let mut out =
        String::from("\n## Threats\n\n| Tool | Kind | Severity | Field | Evidence |\n|---|---|---|---|---|\n");
    for (tool, f) in &rows {
        let mut evidence = f.evidence.clone();
        if let Some(d) = &f.decoded {
            evidence.push_str(" → decoded: ");
            evidence.push_str(d);
        }
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} |\n",
            cell(tool),
            cell(&f.kind),
            f.severity.as_str(),
            cell(&f.field),
            code(&evidence)
        ));
    }
    if threats["server"]["instructionsRemoved"] == true {
        out.push_str("\nThe server's instructions were removed from its initialize answers.\n");
    }
    out
}

/// Text safe in a table cell: no pipes or line breaks.
fn cell(s: &str) -> String {
    s.replace('|', "\\|").replace(['\n', '\r'], " ")
}

/// A code span that no backtick in `s` can close early.
fn code(s: &str) -> String {
    let s = cell(s);
    let longest = s.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest + 1);
    format!("{fence} {s} {fence}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_finding_is_a_row() {
        let threats = json!({
            "tools": [
                {"name": "a", "threats": [{"kind": "concealment", "severity": "high", "field": "#/description", "evidence": "do not tell", "decoded": null}]},
                {"name": "b", "threats": []}
            ],
            "server": {"threats": [{"kind": "exfiltration", "severity": "medium", "field": "#/instructions", "evidence": "id_rsa", "decoded": "x"}], "instructionsRemoved": true}
        });
        let md = threats_markdown(&threats);
        assert!(md.contains("| a | concealment | high | #/description | ` do not tell ` |"), "{md}");
        assert!(md.contains("| (server instructions) | exfiltration | medium |") && md.contains("decoded: x"), "{md}");
        assert!(md.contains("were removed"), "{md}");
        assert!(threats_markdown(&json!({})).contains("No threat findings"));
    }

    #[test]
    fn evidence_cannot_break_the_table_or_the_span() {
        assert_eq!(code("a|b`c"), "`` a\\|b`c ``");
        assert_eq!(cell("x\ny"), "x y");
    }
}
