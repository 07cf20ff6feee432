//! The user messages sent to a judge: tool scoring in its 1.3 form and server coherence.
//! Everything shown to a model has U+0000 removed; schemas are shown in the author's order.

use super::canonical::to_author_pretty;
use super::cost::InvocationCost;
use super::definition::ToolDefinition;
use super::json::{JsObject, JsString, JsValue};
use super::shadow::{CostedTool, ShadowCandidate, shadow_candidates};
use super::signals::ContextSignals;

/// Text without U+0000, lone surrogates shown as U+FFFD.
pub fn sanitize(s: &JsString) -> String {
    s.to_string_lossy().replace('\0', "")
}

fn without_nul(v: &JsValue) -> JsValue {
    let clean = |s: &JsString| JsString::from(sanitize(s));
    match v {
        JsValue::String(s) => JsValue::String(clean(s)),
        JsValue::Array(a) => JsValue::Array(a.iter().map(without_nul).collect()),
        JsValue::Object(o) => JsValue::Object(o.iter().map(|(k, v)| (clean(k), without_nul(v))).collect()),
        other => other.clone(),
    }
}

fn pretty(o: &JsObject) -> String {
    to_author_pretty(&without_nul(&JsValue::Object(o.clone())))
}

/// The tool-scoring message (spec 1.3): no invocation cost, no byte count, and the output
/// schema itself instead of a has-output-schema flag.
pub fn tool_scoring_message(tool: &ToolDefinition, signals: &ContextSignals, siblings: &[JsString]) -> String {
    let none = |s: Option<String>, fallback: &str| s.unwrap_or_else(|| fallback.to_owned());
    let title = tool.title.as_ref().map(sanitize).unwrap_or_else(|| "null".to_owned());
    let description = tool.description.as_ref().map(sanitize).unwrap_or_default();
    let input = none(tool.input_schema.as_ref().map(pretty), "{}");
    let output = none(tool.output_schema.as_ref().map(pretty), "None provided");
    let annotations = none(tool.annotations.as_ref().map(pretty), "None provided");
    let siblings = if siblings.is_empty() {
        "None".to_owned()
    } else {
        siblings.iter().map(sanitize).collect::<Vec<_>>().join("\n")
    };
    let b = |v: bool| if v { "true" } else { "false" };
    [
        format!("TOOL NAME: {}", sanitize(&tool.name)),
        format!("TITLE: {title}"),
        String::new(),
        "DESCRIPTION:".to_owned(),
        format!("\"{description}\""),
        String::new(),
        "<input-schema>".to_owned(),
        input,
        "</input-schema>".to_owned(),
        String::new(),
        "<output-schema>".to_owned(),
        output,
        "</output-schema>".to_owned(),
        String::new(),
        "<annotations>".to_owned(),
        annotations,
        "</annotations>".to_owned(),
        String::new(),
        "CONTEXT SIGNALS:".to_owned(),
        format!("- Parameter count: {}", signals.param_count),
        format!("- Required parameters: {}", signals.required_param_count),
        format!("- Schema description coverage: {}%", signals.schema_description_coverage),
        format!("- Parameters with enums: {}", signals.params_with_enums),
        format!("- Has nested objects: {}", b(signals.has_nested_objects)),
        String::new(),
        "<sibling-tools>".to_owned(),
        siblings,
        "</sibling-tools>".to_owned(),
        String::new(),
        "Respond with JSON only.".to_owned(),
    ]
    .join("\n")
}

/// One tool as the coherence judge sees it.
pub struct CoherenceTool<'a> {
    pub name: &'a JsString,
    pub description: Option<&'a JsString>,
    pub cost: InvocationCost,
}

/// What the coherence judge is given for a tool set: each tool with its invocation cost, and
/// the shadow candidates among them.
pub fn coherence_inputs(tools: &[ToolDefinition]) -> (Vec<CoherenceTool<'_>>, Vec<ShadowCandidate>) {
    let costed: Vec<CoherenceTool> = tools
        .iter()
        .map(|t| CoherenceTool {
            name: &t.name,
            description: t.description.as_ref(),
            cost: super::cost::invocation_cost(t.input_schema.as_ref()),
        })
        .collect();
    let costs: Vec<CostedTool> = costed.iter().map(|c| CostedTool { name: c.name, cost: c.cost.cost() }).collect();
    let candidates = shadow_candidates(&costs);
    (costed, candidates)
}

/// The coherence message: every tool with its cost parts, then the shadow candidates.
pub fn coherence_message(server_name: &str, tools: &[CoherenceTool<'_>], candidates: &[ShadowCandidate]) -> String {
    let mut lines = vec![
        format!("SERVER NAME: {}", server_name.replace('\0', "")),
        format!("TOOL COUNT: {}", tools.len()),
        String::new(),
        "<tools>".to_owned(),
    ];
    for t in tools {
        let c = t.cost;
        let desc = t.description.map(sanitize).unwrap_or_else(|| "(no description)".to_owned());
        lines.push(format!(
            "- {} [cost {}: {} required, depth {}, {} union choices]: {desc}",
            sanitize(t.name),
            c.cost(),
            c.required_field_count,
            c.schema_depth,
            c.union_choice_count
        ));
    }
    lines.extend(["</tools>".to_owned(), String::new(), "<shadow-candidates>".to_owned()]);
    if candidates.is_empty() {
        lines.push("None".to_owned());
    }
    for c in candidates {
        lines.push(format!(
            "{} (cost {}) may be shadowed by {} (cost {})",
            sanitize(&c.tool),
            c.invocation_cost,
            sanitize(&c.cheaper_sibling),
            c.cheaper_sibling_invocation_cost
        ));
    }
    lines.extend(["</shadow-candidates>".to_owned(), String::new(), "Respond with JSON only.".to_owned()]);
    lines.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::definition::parse_tools;
    use crate::json::parse;
    use crate::signals::context_signals;

    #[test]
    fn tool_message_layout() {
        let doc = parse(br#"{"name":"get_calls","title":"Get Calls","description":"List\u0000 calls.","inputSchema":{"type":"object","properties":{"limit":{"type":"integer"}}}}"#).unwrap();
        let t = &parse_tools(&doc).unwrap().tools[0];
        let m = tool_scoring_message(t, &context_signals(t), &["other".into()]);
        let expected = "TOOL NAME: get_calls\nTITLE: Get Calls\n\nDESCRIPTION:\n\"List calls.\"\n\n<input-schema>\n{\n  \"type\": \"object\",\n  \"properties\": {\n    \"limit\": {\n      \"type\": \"integer\"\n    }\n  }\n}\n</input-schema>\n\n<output-schema>\nNone provided\n</output-schema>\n\n<annotations>\nNone provided\n</annotations>\n\nCONTEXT SIGNALS:\n- Parameter count: 1\n- Required parameters: 0\n- Schema description coverage: 0%\n- Parameters with enums: 0\n- Has nested objects: false\n\n<sibling-tools>\nother\n</sibling-tools>\n\nRespond with JSON only.";
        assert_eq!(m, expected);
    }
}
