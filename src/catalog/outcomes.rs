//! What the catalogue's operations return for their caller to act on: the catalogue decides
//! and keeps state, and never writes telemetry; the edge that called it (the exchange for a
//! list answer, the refresh watchers, the admin API) records from these values and runs the
//! server report they may ask for.
//!
//! - [`ListVerdicts`]: what a `tools/list` answer carried (how many tools the upstream listed,
//!   why each removed one was removed, and for a list evaluated afresh each tool's score with
//!   the instant its scoring started)
//! - [`Refreshed`]: what re-deciding a view's tools changed
//! - [`Rescored`]: what judging tools again on request did

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
    /// A list with more tools than `max_list_tools` is not scored: `Some(refused)`, whether the
    /// policy refused it (enforce) or let it pass as it came.
    pub too_long: Option<bool>,
    /// The server report to rebuild, when the set of definitions changed.
    pub report: Option<ReportJob>,
}

/// One tool scored while a list was answered.
#[derive(Debug)]
pub struct Scoring {
    pub tool: String,
    pub scored: Scored,
    /// When its scoring started (the start of its `tdqs.score` span).
    pub started: std::time::Instant,
}

/// What re-deciding a view's remembered tools did.
#[derive(Debug, Default)]
pub struct Refreshed {
    /// Whether any tool's visibility changed (its listening clients are then told).
    pub visible_changed: bool,
    /// Each tool scored again, with its new score.
    pub rescored: Vec<(String, Scored)>,
}

/// What judging a view's tools again on request did.
#[derive(Debug)]
pub struct Rescored {
    /// How many tools a judge was asked about.
    pub judged: usize,
    pub refreshed: Refreshed,
    pub report: Option<ReportJob>,
}
