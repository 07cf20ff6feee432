//! Report documents in the reference's JSON shapes (camelCase keys, dimension keys in
//! snake_case). Fields are declared in the order they serialize.

use serde::{Deserialize, Serialize};

use super::lint::{LintFinding, LintedTool, ServerLint};
use super::shadow::ShadowCandidate;

/// The server a report is about.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ServerSummary {
    pub name: String,
    pub tool_count: usize,
}

/// `lint` output.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LintReport {
    pub findings: Vec<std::sync::Arc<LintFinding>>,
    pub generated_at: String,
    pub server: ServerSummary,
    pub shadow_candidates: Vec<ShadowCandidate>,
    pub spec_version: &'static str,
    pub tools: Vec<LintedTool>,
}

impl LintReport {
    /// Stamps a lint with its server and time (the caller owns the clock).
    pub fn new(server_name: String, lint: ServerLint, generated_at: String) -> Self {
        LintReport {
            server: ServerSummary { name: server_name, tool_count: lint.tools.len() },
            findings: lint.findings,
            generated_at,
            shadow_candidates: lint.shadow_candidates,
            spec_version: super::SPEC_VERSION,
            tools: lint.tools,
        }
    }
}
