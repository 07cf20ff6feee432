//! What the proxy and the scoring service call when something worth reporting happens: one
//! call per event records the metric, the span and the structured log event together, so the
//! call sites in the proxy stay one line each.

use std::time::Instant;

use super::metrics::ToolPoint;
use super::{metrics, traces};
use crate::tdqs::server::ServerScore;

/// What telemetry records of one tool's score (the scoring service's answer, seen from here:
/// telemetry depends on no other part of the gateway).
pub struct ScoreFacts<'a> {
    pub tdqs: f64,
    pub tier: &'static str,
    /// The identity of the judge that gave the score.
    pub judge: &'a str,
    pub provisional: bool,
    pub input_hash: &'a str,
    /// Whether the score cache held the score already.
    pub cache: super::CacheResult,
}

fn point(scored: &ScoreFacts) -> ToolPoint {
    ToolPoint {
        tdqs: scored.tdqs,
        tier: scored.tier,
        judge: metrics().server(scored.judge),
        provisional: scored.provisional,
    }
}

/// A tool's current score: the `tdqs.tool.score` gauge, and a `tool score changed` event
/// when it moved (a model's answer replacing the heuristic's, a new definition).
pub fn tool_scored(server: &str, tool: &str, scored: &ScoreFacts) {
    let new = point(scored);
    if let Some(old) = metrics().tool_scored(server, tool, new.clone()) {
        tracing::info!(
            name: "tdqs.score_changed",
            upstream = server,
            tool,
            old_tdqs = old.tdqs,
            tdqs = new.tdqs,
            old_tier = old.tier,
            tier = new.tier,
            judge = %new.judge,
            provisional = new.provisional,
            input_hash = %scored.input_hash,
            "tool score changed"
        );
    }
}

/// A tool scored while answering a list: [`tool_scored`], plus a `tdqs.score` span under the
/// request's span covering the time since `started`.
pub fn scored(server: &str, tool: &str, scored: &ScoreFacts, started: Instant) {
    tool_scored(server, tool, scored);
    traces::scoring_span(server, tool, scored, started);
}

/// A new server report: the `tdqs.server.score` gauge's three components.
pub fn server_report(server: &str, report: &ServerScore) {
    let m = metrics();
    let f = |t: Option<crate::tdqs::score::Tenths>| t.map(|t| t.as_f64());
    m.server_scored(server, "description_quality", f(report.description_quality_score));
    m.server_scored(server, "coherence", f(report.coherence_score));
    m.server_scored(server, "overall", f(report.overall_score));
}
