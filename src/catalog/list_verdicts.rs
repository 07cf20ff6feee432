//! What a `tools/list` answer carried, as the list path returns it next to the answer to
//! send: how many tools the upstream listed, why each removed one was removed, and, for a
//! list evaluated afresh, each tool's score with the instant its scoring started. The list
//! path only evaluates and keeps state; the edge that answers (the exchange, or
//! [`rewrite_answer`](UpstreamTools::rewrite_answer)) records the telemetry of the answer from
//! this value, with [`ListVerdicts::record`].

use super::*;

/// What one `tools/list` answer was, for telemetry.
#[derive(Debug)]
pub struct ListVerdicts {
    /// Tools in the answer, as the upstream listed them.
    pub listed: usize,
    /// One reason per tool taken out of the answer.
    pub hidden: Arc<[HideReason]>,
    /// The tools scored while answering, in list order; empty for an answer remembered from
    /// an earlier list (nothing was scored for it).
    pub scorings: Vec<Scoring>,
}

/// One tool scored while a list was answered.
#[derive(Debug)]
pub struct Scoring {
    pub tool: String,
    pub scored: Scored,
    /// When its scoring started (the start of its `tdqs.score` span).
    pub started: std::time::Instant,
}

impl ListVerdicts {
    /// The telemetry of one answer of `upstream`'s: each scored tool's gauge, event and span,
    /// then the listed and hidden counts.
    pub fn record(&self, upstream: &str) {
        for s in &self.scorings {
            crate::telemetry::scored(upstream, &s.tool, &s.scored.facts(), s.started);
        }
        crate::telemetry::metrics().list_answered(upstream, self.listed, self.hidden.iter().map(|h| h.as_str()));
    }
}
