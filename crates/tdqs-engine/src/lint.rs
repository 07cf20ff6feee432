//! Lint: the deterministic checklist (no model). Per tool in a fixed rule order, then one
//! `shadow-candidate` warning per prefilter pair on the dearer tool.

use std::borrow::Cow;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::definition::ToolDefinition;
use super::gates::{Gate, evaluate_gates};
use super::json::JsString;
use super::score::ToolFlag;
use super::shadow::{CostedTool, ShadowCandidate, shadow_candidates};
use super::signals::{ContextSignals, context_signals};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[derive(strum::IntoStaticStr)]
#[strum(serialize_all = "lowercase")]
pub enum LintSeverity {
    Error,
    Warning,
    Info,
}

impl LintSeverity {
    pub fn as_str(self) -> &'static str {
        self.into()
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[derive(strum::IntoStaticStr)]
#[strum(serialize_all = "kebab-case")]
pub enum Rule {
    NoDescription,
    TautologicalDescription,
    MissingAnnotations,
    UndocumentedParameters,
    NoOutputSchema,
    ShadowCandidate,
}

impl Rule {
    pub fn as_str(self) -> &'static str {
        self.into()
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LintFinding {
    pub rule: Rule,
    pub severity: LintSeverity,
    pub tool: JsString,
    pub message: String,
}

/// One tool's lint result.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LintedTool {
    pub name: JsString,
    pub context_signals: ContextSignals,
    pub flags: Vec<ToolFlag>,
    /// Shared with the server's list (no copies).
    pub findings: Vec<Arc<LintFinding>>,
}

/// Lint of a whole server: tools in input order, and every finding in report order.
#[derive(Clone, Debug, PartialEq)]
pub struct ServerLint {
    pub tools: Vec<LintedTool>,
    pub findings: Vec<Arc<LintFinding>>,
    pub shadow_candidates: Vec<ShadowCandidate>,
}

impl ServerLint {
    pub fn count(&self, severity: LintSeverity) -> usize {
        self.findings.iter().filter(|f| f.severity == severity).count()
    }
}

/// The tool flags the gates alone decide.
pub fn gate_flags(gate: Gate) -> Vec<ToolFlag> {
    match gate {
        Gate::Pass => vec![],
        Gate::NoDescription => vec![ToolFlag::NoDescription],
        Gate::Tautological => vec![ToolFlag::TautologicalDescription],
    }
}

pub fn lint_tools(tools: &[ToolDefinition]) -> ServerLint {
    let mut linted: Vec<LintedTool> = tools.iter().map(lint_tool).collect();
    let costed: Vec<CostedTool> =
        linted.iter().map(|t| CostedTool { name: &t.name, cost: t.context_signals.invocation_cost }).collect();
    let candidates = shadow_candidates(&costed);
    let mut findings: Vec<Arc<LintFinding>> =
        Vec::with_capacity(linted.iter().map(|t| t.findings.len()).sum::<usize>() + candidates.len());
    findings.extend(linted.iter().flat_map(|t| t.findings.iter().cloned()));
    for c in &candidates {
        let (tool, cheaper) = (display(&c.tool), display(&c.cheaper_sibling));
        let (mut cost, mut cheaper_cost) = (itoa::Buffer::new(), itoa::Buffer::new());
        let f = Arc::new(LintFinding {
            rule: Rule::ShadowCandidate,
            severity: LintSeverity::Warning,
            tool: c.tool.clone(),
            message: concat(&[
                &tool,
                " costs ",
                cost.format(c.invocation_cost),
                " to call, ",
                &cheaper,
                " only ",
                cheaper_cost.format(c.cheaper_sibling_invocation_cost),
                ": an agent may reach for the cheaper tool even when this one fits. \
                 If the two overlap, make their purposes disjoint and say so in both descriptions, or merge them. \
                 Only the coherence judge can confirm the overlap.",
            ]),
        });
        if let Some(t) = linted.iter_mut().find(|t| t.name == c.tool) {
            t.findings.push(f.clone());
        }
        findings.push(f);
    }
    ServerLint { tools: linted, findings, shadow_candidates: candidates }
}

/// A name as messages show it (lone surrogates as U+FFFD), borrowed when it is valid text.
fn display(s: &JsString) -> Cow<'_, str> {
    match s.as_str() {
        Some(s) => Cow::Borrowed(s),
        None => Cow::Owned(s.to_string_lossy()),
    }
}

/// `parts` joined into a string allocated once at its final size: every finding carries a
/// message, so this runs for most tools.
fn concat(parts: &[&str]) -> String {
    let mut out = String::with_capacity(parts.iter().map(|p| p.len()).sum());
    for p in parts {
        out.push_str(p);
    }
    out
}

fn lint_tool(tool: &ToolDefinition) -> LintedTool {
    let s = context_signals(tool);
    let gate = evaluate_gates(tool);
    let a = s.annotation_values;
    let no_annotations =
        a.read_only.is_none() && a.destructive.is_none() && a.idempotent.is_none() && a.open_world.is_none();
    let undocumented = s.param_count > 0 && s.schema_description_coverage < 80;
    // Sized for every finding this tool can get here, plus a possible shadow candidate.
    let count = usize::from(gate != Gate::Pass)
        + usize::from(no_annotations)
        + usize::from(undocumented)
        + usize::from(!s.has_output_schema);
    let mut findings = Vec::with_capacity(count + 1);
    let name = display(&tool.name);
    let name = name.as_ref();
    let mut add = |rule, severity, message: String| {
        findings.push(Arc::new(LintFinding { rule, severity, tool: tool.name.clone(), message }));
    };
    match gate {
        Gate::NoDescription => add(
            Rule::NoDescription,
            LintSeverity::Error,
            concat(&[name, " has no description: it scores 1 on every dimension (tier D) without reaching the judge."]),
        ),
        Gate::Tautological => add(
            Rule::TautologicalDescription,
            LintSeverity::Error,
            concat(&[
                name,
                "'s description only repeats its name or title, which caps Purpose Clarity at 2. \
                 Say in one sentence what it does: the action, the resource, the scope.",
            ]),
        ),
        Gate::Pass => {}
    }
    if no_annotations {
        add(
            Rule::MissingAnnotations,
            LintSeverity::Warning,
            concat(&[
                name,
                " sets none of readOnlyHint, destructiveHint, idempotentHint, openWorldHint, so its \
                 description alone must tell an agent whether calling it is safe.",
            ]),
        );
    }
    if undocumented {
        let severity = if s.schema_description_coverage < 50 { LintSeverity::Warning } else { LintSeverity::Info };
        let (mut described, mut params, mut coverage) = (itoa::Buffer::new(), itoa::Buffer::new(), itoa::Buffer::new());
        add(
            Rule::UndocumentedParameters,
            severity,
            concat(&[
                name,
                ": ",
                described.format(s.params_with_descriptions),
                " of ",
                params.format(s.param_count),
                " parameters carry a schema description (",
                coverage.format(s.schema_description_coverage),
                "%). Describe the rest in the schema, or the description has to explain them.",
            ]),
        );
    }
    if !s.has_output_schema {
        add(
            Rule::NoOutputSchema,
            LintSeverity::Info,
            concat(&[name, " declares no output schema, so its description must explain what comes back."]),
        );
    }
    LintedTool { name: tool.name.clone(), context_signals: s, flags: gate_flags(gate), findings }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::definition::parse_tools;
    use crate::json::parse;

    #[test]
    fn every_rule_says_the_same_message() {
        let src = r#"[
            {"name":"bare"},
            {"name":"echo","description":"Echo"},
            {"name":"big\ud800","description":"Does big things.","inputSchema":{"properties":{"a":{},"b":{},"c":{},"d":{},"e":{"description":"e"}},"required":["a","b","c","d","e"]},"outputSchema":{"type":"object"},"annotations":{"readOnlyHint":true}},
            {"name":"mid","description":"Mid.","inputSchema":{"properties":{"a":{"description":"a"},"b":{"description":"b"},"c":{"description":"c"},"d":{}}}}
        ]"#;
        let tools = parse_tools(&parse(src.as_bytes()).unwrap()).map(|p| p.tools);
        // A lone surrogate is refused at validation; build that tool directly.
        let tools = tools.unwrap_or_else(|_| {
            let mut v = parse_tools(&parse(src.replace(r"\ud800", "").as_bytes()).unwrap()).unwrap().tools;
            v[2].name = JsString::from_code_points(&[0x62, 0x69, 0x67, 0xD800]);
            v
        });
        let lint = lint_tools(&tools);
        let got: Vec<(Rule, LintSeverity, String)> =
            lint.findings.iter().map(|f| (f.rule, f.severity, f.message.clone())).collect();
        let big = "big\u{FFFD}";
        let expected = vec![
            (Rule::NoDescription, LintSeverity::Error, "bare has no description: it scores 1 on every dimension (tier D) without reaching the judge.".to_owned()),
            (Rule::MissingAnnotations, LintSeverity::Warning, "bare sets none of readOnlyHint, destructiveHint, idempotentHint, openWorldHint, so its description alone must tell an agent whether calling it is safe.".to_owned()),
            (Rule::NoOutputSchema, LintSeverity::Info, "bare declares no output schema, so its description must explain what comes back.".to_owned()),
            (Rule::TautologicalDescription, LintSeverity::Error, "echo's description only repeats its name or title, which caps Purpose Clarity at 2. Say in one sentence what it does: the action, the resource, the scope.".to_owned()),
            (Rule::MissingAnnotations, LintSeverity::Warning, "echo sets none of readOnlyHint, destructiveHint, idempotentHint, openWorldHint, so its description alone must tell an agent whether calling it is safe.".to_owned()),
            (Rule::NoOutputSchema, LintSeverity::Info, "echo declares no output schema, so its description must explain what comes back.".to_owned()),
            (Rule::UndocumentedParameters, LintSeverity::Warning, format!("{big}: 1 of 5 parameters carry a schema description (20%). Describe the rest in the schema, or the description has to explain them.")),
            (Rule::MissingAnnotations, LintSeverity::Warning, "mid sets none of readOnlyHint, destructiveHint, idempotentHint, openWorldHint, so its description alone must tell an agent whether calling it is safe.".to_owned()),
            (Rule::UndocumentedParameters, LintSeverity::Info, "mid: 3 of 4 parameters carry a schema description (75%). Describe the rest in the schema, or the description has to explain them.".to_owned()),
            (Rule::NoOutputSchema, LintSeverity::Info, "mid declares no output schema, so its description must explain what comes back.".to_owned()),
            (Rule::ShadowCandidate, LintSeverity::Warning, format!("{big} costs 5 to call, bare only 0: an agent may reach for the cheaper tool even when this one fits. If the two overlap, make their purposes disjoint and say so in both descriptions, or merge them. Only the coherence judge can confirm the overlap.")),
        ];
        assert_eq!(got, expected);
        // Each tool holds its own findings, shadow candidate included.
        assert_eq!(lint.tools[2].findings.len(), 2);
    }
}
