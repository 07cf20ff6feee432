//! The heuristic judge (being written; this stand-in keeps the crate building).

use crate::tdqs::answer::{CoherenceJudgement, ToolJudgement};
use crate::tdqs::definition::ToolDefinition;
use crate::tdqs::json::JsString;
use crate::tdqs::prompt::CoherenceTool;
use crate::tdqs::shadow::ShadowCandidate;
use crate::tdqs::signals::ContextSignals;

pub const HEURISTIC_JUDGE_ID: &str = "heuristic-1";

pub fn judge_tool(
    _tool: &ToolDefinition,
    _signals: &ContextSignals,
    _siblings: &[JsString],
) -> ToolJudgement {
    unimplemented!()
}

pub fn judge_coherence(
    _server: &str,
    _tools: &[CoherenceTool<'_>],
    _c: &[ShadowCandidate],
) -> CoherenceJudgement {
    unimplemented!()
}
