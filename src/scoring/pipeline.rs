//! The full TDQS pipeline for one server: every tool through stages 1-4 (judge calls in
//! parallel, bounded by the judge), then coherence, then the rollup with confirmed shadowing
//! risks written onto the dearer tools.

use futures_util::future::join_all;
use serde::{Deserialize, Deserializer, Serialize};

use crate::judge::{Judge, JudgeError};
use crate::tdqs::SPEC_VERSION;
use crate::tdqs::answer::CoherenceJudgement;
use crate::tdqs::definition::ToolDefinition;
use crate::tdqs::json::JsString;
use crate::tdqs::prompt::coherence_inputs;
use crate::tdqs::report::ServerSummary;
use crate::tdqs::server::{ServerScore, rollup};
use crate::tdqs::shadow::ShadowCandidate;
use crate::tdqs::tool_score::{Prepared, ToolScore};

/// One of a few strings this build knows. An alias because serde's derive takes a literal
/// `&'static str` field for one borrowed from the input, and would then read reports only
/// from `'static` text; the `deserialize_with` functions below map the input onto the known
/// strings instead.
pub type Known = &'static str;

/// Which rubric, judge and prompts produced a report: scores compare only under the same.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct JudgeStamp {
    /// `heuristic` or `openai`.
    #[serde(deserialize_with = "judge_kind")]
    pub kind: Known,
    /// `heuristic-9`, or the model id.
    pub identity: String,
    /// SHA-256 of the tool-scoring system prompt (model judges only).
    pub tool_prompt_sha256: Option<String>,
    /// SHA-256 of the coherence system prompt (model judges only).
    pub coherence_prompt_sha256: Option<String>,
}

impl JudgeStamp {
    pub fn of(judge: &Judge) -> JudgeStamp {
        JudgeStamp {
            kind: judge.kind(),
            identity: judge.identity(),
            tool_prompt_sha256: judge.prompts().map(|p| p.tool_scoring_sha256.clone()),
            coherence_prompt_sha256: judge.prompts().map(|p| p.coherence_sha256.clone()),
        }
    }
}

/// `score` output, in the reference's shape plus the judge stamp. Read back from the store
/// after a restart, so it deserializes too.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ScoreReport {
    pub generated_at: String,
    /// The judge identity (the reference calls this field `model`).
    pub model: String,
    pub judge: JudgeStamp,
    pub server: ServerSummary,
    pub server_score: ServerScore,
    #[serde(deserialize_with = "spec_version")]
    pub spec_version: Known,
    pub tools: Vec<ToolScore>,
}

/// The kinds of judge this build has; a stored report of another kind is not this build's.
fn judge_kind<'de, D: Deserializer<'de>>(d: D) -> Result<&'static str, D::Error> {
    let kind = String::deserialize(d)?;
    ["heuristic", "openai"]
        .into_iter()
        .find(|k| *k == kind)
        .ok_or_else(|| serde::de::Error::custom(format!("judge kind {kind:?} is unknown to this build")))
}

/// Only reports of this build's spec version compare with its scores.
fn spec_version<'de, D: Deserializer<'de>>(d: D) -> Result<&'static str, D::Error> {
    let version = String::deserialize(d)?;
    if version == SPEC_VERSION {
        Ok(SPEC_VERSION)
    } else {
        Err(serde::de::Error::custom(format!("TDQS {version} report; this build scores TDQS {SPEC_VERSION}")))
    }
}

/// A tool the judge could not score, and why.
#[derive(Debug, thiserror::Error)]
pub enum PipelineError {
    #[error("judging tool {tool:?} failed: {source}")]
    Tool {
        tool: String,
        #[source]
        source: JudgeError,
    },
    #[error("judging the coherence of server {server:?} failed: {source}")]
    Coherence {
        server: String,
        #[source]
        source: JudgeError,
    },
}

/// Scores a whole server with `judge`. `generated_at` is the caller's clock.
pub async fn score_server(
    server_name: &str,
    tools: &[ToolDefinition],
    judge: &Judge,
    generated_at: String,
) -> Result<ScoreReport, PipelineError> {
    let names: Vec<&JsString> = tools.iter().map(|t| &t.name).collect();
    let names = &names;
    let scored = join_all(tools.iter().map(|tool| async move {
        let prepared = Prepared::of(tool);
        if let Some(score) = prepared.unjudged(&tool.name) {
            return Ok(score);
        }
        let siblings: Vec<JsString> = names.iter().filter(|n| **n != &tool.name).map(|n| (*n).clone()).collect();
        let name = tool.name.to_string_lossy();
        let call = judge.score_tool(tool, &prepared, &siblings);
        match super::timed::timed(judge, "judge tool", Some(&name), call).await {
            Ok(score) => Ok(score),
            Err(source) => Err(PipelineError::Tool { tool: tool.name.to_string_lossy(), source }),
        }
    }))
    .await;
    let scores = scored.into_iter().collect::<Result<Vec<_>, _>>()?;

    let (costed, candidates) = coherence_inputs(tools);
    let call = judge.judge_coherence(server_name, &costed, &candidates);
    let coherence = super::timed::timed(judge, "judge coherence", None, call)
        .await
        .map_err(|source| PipelineError::Coherence { server: server_name.to_owned(), source })?;
    Ok(assemble_report(server_name, tools.len(), scores, &coherence, &candidates, judge, generated_at))
}

/// The server report from its tools' scores and the coherence of their set: the one assembly
/// behind `tdqs-gateway score` and the gateway's background report, so the two agree.
pub fn assemble_report(
    server_name: &str,
    tool_count: usize,
    mut scores: Vec<ToolScore>,
    coherence: &CoherenceJudgement,
    candidates: &[ShadowCandidate],
    judge: &Judge,
    generated_at: String,
) -> ScoreReport {
    let server_score = rollup(tool_count, &mut scores, Some(coherence), candidates);
    ScoreReport {
        generated_at,
        model: judge.identity(),
        judge: JudgeStamp::of(judge),
        server: ServerSummary { name: server_name.to_owned(), tool_count },
        server_score,
        spec_version: SPEC_VERSION,
        tools: scores,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tdqs::definition::parse_tools;

    /// A report as the store keeps it (JSON) comes back equal, and renders the same.
    #[tokio::test]
    async fn a_stored_report_reads_back_equal() {
        let doc = serde_json::json!({"tools": [
            {"name": "search_files", "description": "Search files under a folder by name pattern. Returns paths; read-only. Use read_file to open one.",
             "inputSchema": {"type": "object", "properties": {"pattern": {"type": "string", "description": "Glob, e.g. *.rs"},
                 "limit": {"type": "integer", "description": "At most this many paths"}}, "required": ["pattern"]},
             "annotations": {"readOnlyHint": true}},
            {"name": "read_file", "description": "Reads a file.", "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}}}},
            {"name": "delete_file", "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}}},
             "annotations": {"readOnlyHint": true, "destructiveHint": true}}
        ]});
        let parsed = parse_tools(&crate::tdqs::json::parse(doc.to_string().as_bytes()).unwrap()).unwrap();
        let report =
            score_server("files \"local\"", &parsed.tools, &Judge::Heuristic, "2026-11-30T06:00:00.000Z".into())
                .await
                .unwrap();
        // Every optional part present, so all of them go through the round trip.
        assert!(report.server_score.coherence_justifications.is_some() && report.server_score.overall_tier.is_some());
        assert!(report.tools.iter().any(|t| !t.flags.is_empty()));
        let stored = serde_json::to_value(&report).unwrap();
        let back: ScoreReport = serde_json::from_value(stored.clone()).unwrap();
        assert_eq!(back, report);
        assert_eq!(serde_json::to_value(&back).unwrap(), stored);

        let mut other = stored;
        other["specVersion"] = "0.9".into();
        let e = serde_json::from_value::<ScoreReport>(other).unwrap_err().to_string();
        assert!(e.contains("TDQS 0.9"), "{e}");
    }
}
