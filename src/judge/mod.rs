//! Stage 3: judges. A model over any OpenAI-compatible endpoint, and the heuristic judge that
//! answers offline, deterministically, in microseconds, with the same answer contract.

/// The heuristic judge lives in the engine crate (pure, like the method it serves).
pub use tdqs_engine::heuristic;
pub mod openai;
pub mod prompts;

use crate::tdqs::answer::{CoherenceJudgement, ToolJudgement, parse_coherence_answer, parse_tool_answer};
use crate::tdqs::definition::ToolDefinition;
use crate::tdqs::json::JsString;
use crate::tdqs::prompt::{CoherenceTool, coherence_message, tool_scoring_message};
use crate::tdqs::shadow::ShadowCandidate;
use crate::tdqs::signals::ContextSignals;
use crate::tdqs::tool_score::{Prepared, ToolScore, disagreements};

pub use openai::{ModelClient, ModelSettings};
pub use prompts::Prompts;

/// Why a judge gave no usable answer. Messages never contain the API key.
#[derive(Debug, thiserror::Error)]
pub enum JudgeError {
    #[error("model client setup failed: {0}")]
    Setup(String),
    #[error("the model endpoint refused the request with HTTP {status}: {body}")]
    Refused { status: u16, body: String },
    #[error("no usable answer after {attempts} attempts; last problem: {last}")]
    Exhausted { attempts: u32, last: String },
}

impl JudgeError {
    /// A bounded name for metric labels and span status.
    pub fn kind(&self) -> &'static str {
        match self {
            JudgeError::Setup(_) => "setup",
            JudgeError::Refused { .. } => "refused",
            JudgeError::Exhausted { .. } => "exhausted",
        }
    }
}

/// Which judge: the one name for `[judge] kind`, `score --judge` and the reports' `judge.kind`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Deserialize, clap::ValueEnum, strum::IntoStaticStr)]
#[serde(rename_all = "lowercase")]
#[strum(serialize_all = "lowercase")]
pub enum JudgeKind {
    #[default]
    Heuristic,
    Openai,
}

/// A judge and everything that makes its scores comparable.
#[derive(Clone)]
pub enum Judge {
    /// Offline and deterministic; the default, the provisional score, the fallback.
    Heuristic,
    /// A model behind an OpenAI-compatible endpoint, with our (or the operator's) prompts.
    Model { client: ModelClient, prompts: Prompts },
}

impl Judge {
    /// What the judge is called in reports and score identities: `heuristic-9` or the model id.
    pub fn identity(&self) -> String {
        match self {
            Judge::Heuristic => heuristic::HEURISTIC_JUDGE_ID.to_owned(),
            Judge::Model { client, .. } => client.model().to_owned(),
        }
    }

    /// `"heuristic"` or `"openai"`.
    pub fn kind(&self) -> &'static str {
        match self {
            Judge::Heuristic => JudgeKind::Heuristic,
            Judge::Model { .. } => JudgeKind::Openai,
        }
        .into()
    }

    /// Judge calls in flight at most (1 for the heuristic, which runs on the spot).
    pub fn concurrency(&self) -> usize {
        match self {
            Judge::Heuristic => 1,
            Judge::Model { client, .. } => client.concurrency(),
        }
    }

    pub fn prompts(&self) -> Option<&Prompts> {
        match self {
            Judge::Heuristic => None,
            Judge::Model { prompts, .. } => Some(prompts),
        }
    }

    /// Scores one definition (stage 3).
    pub async fn judge_tool(
        &self,
        tool: &ToolDefinition,
        signals: &ContextSignals,
        siblings: &[JsString],
    ) -> Result<ToolJudgement, JudgeError> {
        match self {
            Judge::Heuristic => Ok(heuristic::judge_tool(tool, signals, siblings)),
            Judge::Model { client, prompts } => {
                let user = tool_scoring_message(tool, signals, siblings);
                client.complete(&prompts.tool_scoring, &user, parse_tool_answer).await
            }
        }
    }

    /// Judges one definition that needs a judge and applies stage 4. A model's answer is
    /// checked against the heuristic's reading of the same definition: the model's numbers
    /// stand, and the dimensions where the two differ by 3 or more are recorded on the score.
    pub async fn score_tool(
        &self,
        tool: &ToolDefinition,
        prepared: &Prepared,
        siblings: &[JsString],
    ) -> Result<ToolScore, JudgeError> {
        let answer = self.judge_tool(tool, &prepared.signals, siblings).await?;
        let mut score = prepared.finish(&tool.name, &answer);
        if let Judge::Model { .. } = self {
            let reading = heuristic::judge_tool(tool, &prepared.signals, siblings);
            score.disagreements = disagreements(&score, &prepared.finish(&tool.name, &reading));
            if !score.disagreements.is_empty() {
                let dims: Vec<&str> = score.disagreements.iter().map(|d| d.dimension.key()).collect();
                tracing::info!(tool = %tool.name, judge = %self.identity(), dimensions = ?dims, "the model's scores differ from the heuristic's reading by 3 or more");
            }
        }
        Ok(score)
    }

    /// Judges the tool set as a whole.
    pub async fn judge_coherence(
        &self,
        server_name: &str,
        tools: &[CoherenceTool<'_>],
        candidates: &[ShadowCandidate],
    ) -> Result<CoherenceJudgement, JudgeError> {
        match self {
            Judge::Heuristic => Ok(heuristic::judge_coherence(server_name, tools, candidates)),
            Judge::Model { client, prompts } => {
                let user = coherence_message(server_name, tools, candidates);
                client.complete(&prompts.coherence, &user, parse_coherence_answer).await
            }
        }
    }
}
