//! Lint: the deterministic checklist (no model). Per tool in a fixed rule order, then one
//! `shadow-candidate` warning per prefilter pair on the dearer tool.

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
pub enum Severity {
    Error,
    Warning,
    Info,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
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
        match self {
            Rule::NoDescription => "no-description",
            Rule::TautologicalDescription => "tautological-description",
            Rule::MissingAnnotations => "missing-annotations",
            Rule::UndocumentedParameters => "undocumented-parameters",
            Rule::NoOutputSchema => "no-output-schema",
            Rule::ShadowCandidate => "shadow-candidate",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Finding {
    pub rule: Rule,
    pub severity: Severity,
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
    pub findings: Vec<Arc<Finding>>,
}

/// Lint of a whole server: tools in input order, and every finding in report order.
#[derive(Clone, Debug, PartialEq)]
pub struct ServerLint {
    pub tools: Vec<LintedTool>,
    pub findings: Vec<Arc<Finding>>,
    pub shadow_candidates: Vec<ShadowCandidate>,
}

impl ServerLint {
    pub fn count(&self, severity: Severity) -> usize {
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
    let mut findings: Vec<Arc<Finding>> = linted.iter().flat_map(|t| t.findings.iter().cloned()).collect();
    for c in &candidates {
        let f = Arc::new(Finding {
            rule: Rule::ShadowCandidate,
            severity: Severity::Warning,
            tool: c.tool.clone(),
            message: format!(
                "{} costs {} to call, {} only {}: an agent may reach for the cheaper tool even when this one fits. \
                 If the two overlap, make their purposes disjoint and say so in both descriptions, or merge them. \
                 Only the coherence judge can confirm the overlap.",
                c.tool, c.invocation_cost, c.cheaper_sibling, c.cheaper_sibling_invocation_cost
            ),
        });
        if let Some(t) = linted.iter_mut().find(|t| t.name == c.tool) {
            t.findings.push(f.clone());
        }
        findings.push(f);
    }
    ServerLint { tools: linted, findings, shadow_candidates: candidates }
}

fn lint_tool(tool: &ToolDefinition) -> LintedTool {
    let s = context_signals(tool);
    let gate = evaluate_gates(tool);
    let name = &tool.name;
    let mut findings = Vec::new();
    let mut add = |rule, severity, message: String| {
        findings.push(Arc::new(Finding { rule, severity, tool: name.clone(), message }));
    };
    match gate {
        Gate::NoDescription => add(
            Rule::NoDescription,
            Severity::Error,
            format!("{name} has no description: it scores 1 on every dimension (tier D) without reaching the judge."),
        ),
        Gate::Tautological => add(
            Rule::TautologicalDescription,
            Severity::Error,
            format!(
                "{name}'s description only repeats its name or title, which caps Purpose Clarity at 2. \
                 Say in one sentence what it does: the action, the resource, the scope."
            ),
        ),
        Gate::Pass => {}
    }
    let a = s.annotation_values;
    if a.read_only.is_none() && a.destructive.is_none() && a.idempotent.is_none() && a.open_world.is_none() {
        add(
            Rule::MissingAnnotations,
            Severity::Warning,
            format!(
                "{name} sets none of readOnlyHint, destructiveHint, idempotentHint, openWorldHint, so its \
                 description alone must tell an agent whether calling it is safe."
            ),
        );
    }
    if s.param_count > 0 && s.schema_description_coverage < 80 {
        let severity = if s.schema_description_coverage < 50 { Severity::Warning } else { Severity::Info };
        add(
            Rule::UndocumentedParameters,
            severity,
            format!(
                "{name}: {} of {} parameters carry a schema description ({}%). Describe the rest in the schema, \
                 or the description has to explain them.",
                s.params_with_descriptions, s.param_count, s.schema_description_coverage
            ),
        );
    }
    if !s.has_output_schema {
        add(
            Rule::NoOutputSchema,
            Severity::Info,
            format!("{name} declares no output schema, so its description must explain what comes back."),
        );
    }
    LintedTool { name: tool.name.clone(), context_signals: s, flags: gate_flags(gate), findings }
}
