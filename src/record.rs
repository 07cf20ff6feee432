//! What the operator sees of the catalogue's decisions. The catalogue decides, keeps state and
//! returns what it did ([`crate::catalog::ListVerdicts`], [`Refreshed`], [`Rescored`],
//! [`Refusal`]); it writes no metric, span or audit line itself. The edges that call it (the
//! exchange answering a list or refusing a call, the watchers re-deciding after a judgement,
//! the admin API) hand those values here, so each is recorded the same way whichever edge
//! saw it, and the server reports they ask for are built in the background here.

use std::sync::Arc;

use crate::catalog::{ListVerdicts, Refreshed, Refusal, ReportJob};
use crate::scoring::service::ScoringService;

/// One list answer of `upstream`'s: each tool scored while answering (gauge, event, span),
/// then the listed and hidden counts, or, for a list too long to score, that it was not
/// inspected; then the server report, when the set of definitions changed.
pub fn list_answered(upstream: &str, verdicts: ListVerdicts, scoring: &Arc<ScoringService>) {
    if let Some(refused) = verdicts.too_long {
        let reason = crate::policy::uninspected::Reason::TooManyTools;
        crate::policy::uninspected::note(upstream, reason, refused);
        return;
    }
    for s in &verdicts.scorings {
        crate::telemetry::scored(upstream, &s.tool, &s.scored.facts(), s.started);
    }
    crate::telemetry::metrics().list_answered(upstream, verdicts.listed, verdicts.hidden.iter().map(|h| h.as_str()));
    if let Some(job) = verdicts.report {
        report(job, scoring);
    }
}

/// A view's tools re-decided: each new score's gauge and event. Returns whether any tool's
/// visibility changed.
pub fn refreshed(upstream: &str, r: &Refreshed) -> bool {
    for (tool, scored) in &r.rescored {
        crate::telemetry::tool_scored(upstream, tool, &scored.facts());
    }
    r.visible_changed
}

/// Builds a server report in the background and records it once built.
pub fn report(job: ReportJob, scoring: &Arc<ScoringService>) {
    let scoring = scoring.clone();
    tokio::spawn(async move {
        let upstream = job.upstream.clone();
        let report = job.run(&scoring).await;
        let server = &report.report.server_score;
        tracing::info!(
            upstream = %upstream,
            overall = ?server.overall_score.map(|s| s.to_string()),
            overall_tier = ?server.overall_tier,
            description_quality = ?server.description_quality_score.map(|s| s.to_string()),
            coherence = ?server.coherence_score.map(|s| s.to_string()),
            "server report updated"
        );
        crate::telemetry::server_report(&upstream, server);
    });
}

/// The audit line and the counter of a refused `tools/call`.
pub fn call_refused(r: &Refusal) {
    tracing::info!(
        name: "tdqs.call_refused",
        upstream = %r.upstream,
        tool = %r.tool,
        reason = r.reason.as_str(),
        tdqs = r.score.map(|s| s.as_f64()),
        minimum = r.minimum.as_f64(),
        rule = r.rule.as_deref(),
        subject = r.caller.as_ref().map(|p| p.subject.as_str()),
        client_id = r.caller.as_ref().and_then(|p| p.client_id.as_deref()),
        issuer = r.caller.as_ref().map(|p| p.issuer.as_str()),
        "call refused"
    );
    crate::telemetry::metrics().call_blocked(&r.upstream, r.reason.as_str(), r.rule.as_deref());
}
