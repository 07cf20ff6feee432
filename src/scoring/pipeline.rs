//! The full TDQS pipeline for one server: every tool through stages 1-4 (judge calls in
//! parallel, bounded by the judge), then coherence, then the rollup with confirmed shadowing
//! risks written onto the dearer tools.

use futures_util::future::join_all;
use serde::Serialize;

use crate::judge::{Judge, JudgeError};
use crate::tdqs::SPEC_VERSION;
use crate::tdqs::definition::ToolDefinition;
use crate::tdqs::gates::evaluate_gates;
use crate::tdqs::json::JsString;
use crate::tdqs::prompt::coherence_inputs;
use crate::tdqs::report::ServerSummary;
use crate::tdqs::server::{ServerScore, rollup};
use crate::tdqs::signals::context_signals;
use crate::tdqs::tool_score::{ToolScore, judged_score, needs_judge, no_description_score};

/// Which rubric, judge and prompts produced a report: scores compare only under the same.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct JudgeStamp {
    /// `heuristic` or `openai`.
    pub kind: &'static str,
    /// `heuristic-1`, or the model id.
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

/// `score` output, in the reference's shape plus the judge stamp.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ScoreReport {
    pub generated_at: String,
    /// The judge identity (the reference calls this field `model`).
    pub model: String,
    pub judge: JudgeStamp,
    pub server: ServerSummary,
    pub server_score: ServerScore,
    pub spec_version: &'static str,
    pub tools: Vec<ToolScore>,
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
        let signals = context_signals(tool);
        let gate = evaluate_gates(tool);
        if !needs_judge(gate) {
            return Ok(no_description_score(&tool.name, signals));
        }
        let siblings: Vec<JsString> = names.iter().filter(|n| **n != &tool.name).map(|n| (*n).clone()).collect();
        match judge.judge_tool(tool, &signals, &siblings).await {
            Ok(j) => Ok(judged_score(&tool.name, signals, gate, &j)),
            Err(source) => Err(PipelineError::Tool { tool: tool.name.to_string_lossy(), source }),
        }
    }))
    .await;
    let mut scores = scored.into_iter().collect::<Result<Vec<_>, _>>()?;

    let (costed, candidates) = coherence_inputs(tools);
    let coherence = judge
        .judge_coherence(server_name, &costed, &candidates)
        .await
        .map_err(|source| PipelineError::Coherence { server: server_name.to_owned(), source })?;
    let server_score = rollup(tools.len(), &mut scores, Some(&coherence), &candidates);
    Ok(ScoreReport {
        generated_at,
        model: judge.identity(),
        judge: JudgeStamp::of(judge),
        server: ServerSummary { name: server_name.to_owned(), tool_count: tools.len() },
        server_score,
        spec_version: SPEC_VERSION,
        tools: scores,
    })
}
