//! The catalogue: per upstream, the tools it has listed and what the gateway decided about
//! each, under the upstream's policy and under each identity rule's. It is the gateway's
//! central domain object: the proxy feeds it `tools/list` answers and asks it about calls;
//! the admin API reads and acts on it.
//!
//! - `table`: one view's tool table (the decisions a call is checked against)
//! - `list`: the list path (parse, evaluate, record, keep, render)
//! - `list_verdicts`: what a list answer carried, returned with it for the edge to record
//! - `evaluate`: each listed tool scored, analysed and decided, returned as verdicts
//! - `render_cache`: remembered renderings of repeat lists
//! - `refusals`: refusing calls, and the refusals kept for the audit
//! - `report`: the server report built in the background
//! - `view`: what the admin API shows and does
//! - `verdict`: threats and pins in a decision, the server's instructions
//! - `roster`: every upstream's tool names, for cross-server findings
//! - `threats`: what the threat analysis reads of a tool, and how findings are shown

mod evaluate;
mod list;
mod list_verdicts;
mod refusals;
mod render_cache;
mod report;
pub mod roster;
mod table;
pub mod threats;
mod verdict;
mod view;

#[cfg(test)]
mod tests;

use std::collections::HashMap;
use std::sync::Arc;

use bytes::Bytes;

// Locks that cannot be poisoned: a panic elsewhere must never turn a refusal into a pass.
use parking_lot::Mutex;

use serde_json::json;

use crate::mcp::spliced::Spliced;
use crate::mcp::tools_list::{ListResult, ToolAction};
use crate::policy::settings::{Policy, ThreatAction};
use crate::policy::{Decision, HideReason, ScoreState, Seen, decide_tool, refusal_message};
use crate::scoring::ScoreReport;
use crate::scoring::pins::PinStatus;
use crate::scoring::service::{Scored, ScoringService};
use crate::scoring::siblings::Siblings;
use crate::scoring::threats::Findings;
use crate::tdqs::SPEC_VERSION;
use crate::tdqs::definition::{ToolDefinition, tool_from_object};
use crate::tdqs::json::{self as js, JsString};
use crate::tdqs::score::Tier;
use crate::tdqs::threat::{Finding, Severity};

pub use list::score_meta;
pub use list_verdicts::{ListVerdicts, Scoring};
pub use refusals::{Caller, Refusal, RefusedCall};
pub use report::ServerReport;
pub use table::UpstreamTools;
pub use view::ToolView;

use evaluate::*;
use list::*;
use refusals::*;
use render_cache::*;
use roster::Roster;
use table::*;
use threats::{definition_value, summary};
use verdict::report_new_cross;

/// Every upstream's tools, under its own policy and under each of its identity rules, and
/// the names all upstreams list (for cross-server findings).
pub struct Catalog {
    /// Per upstream, its tools under its own policy.
    pub upstreams: crate::by_name::ByName<Arc<UpstreamTools>>,
    /// Per upstream, its identity rules in the order they are tried, each with the tools
    /// (decisions, refusals, rendered lists) under that rule's policy.
    pub rules: crate::by_name::ByName<Vec<(crate::policy::rules::RuleConfig, Arc<UpstreamTools>)>>,
    /// Every upstream's current tool names.
    pub roster: Arc<Roster>,
    /// Upstreams whose visible tool set changed after a refined score or another upstream's
    /// change: their listening clients are sent `notifications/tools/list_changed`.
    list_changed: tokio::sync::broadcast::Sender<Arc<str>>,
}

impl Catalog {
    /// One table per upstream and per identity rule, from the validated configuration.
    pub fn from_config(config: &crate::config::Config) -> Catalog {
        let roster = Arc::new(Roster::default());
        let view = |tools: UpstreamTools, u: &crate::config::UpstreamConfig| {
            Arc::new(tools.with_roster(roster.clone()).with_max_list_tools(u.max_list_tools))
        };
        // Each upstream's policy and its rules' policies resolved once, here.
        let resolved: Vec<_> = config.upstreams.iter().map(|u| (u, config.rule_policies(u))).collect();
        let upstreams = resolved
            .iter()
            .map(|(u, rules)| {
                let mut tools = UpstreamTools::new(u.name.clone(), config.effective_policy(u));
                tools.private_lists = !rules.is_empty();
                (u.name.clone(), view(tools, u))
            })
            .collect();
        let rules = resolved
            .into_iter()
            .map(|(u, rules)| {
                let views = rules
                    .into_iter()
                    .map(|(rule, policy)| {
                        let tools = UpstreamTools::for_rule(u.name.clone(), policy, &rule.name);
                        (rule, view(tools, u))
                    })
                    .collect();
                (u.name.clone(), views)
            })
            .collect();
        let catalog = Catalog { upstreams, rules, roster, list_changed: tokio::sync::broadcast::channel(256).0 };
        for name in catalog.upstreams.keys() {
            let views = catalog.all_views(name);
            for (i, view) in views.iter().enumerate() {
                let others = views.iter().enumerate().filter(|(j, _)| *j != i).map(|(_, v)| Arc::downgrade(v));
                let _ = view.other_views.set(others.collect());
            }
        }
        catalog
    }

    /// The tools of `upstream` as `caller` may see them: under the first rule that matches
    /// the caller, else under the upstream's policy.
    pub fn tools_for(&self, upstream: &str, caller: Option<&crate::auth::Principal>) -> Option<Arc<UpstreamTools>> {
        let rules = self.rules.get(upstream).map(Vec::as_slice).unwrap_or_default();
        match crate::policy::rules::select(rules, caller) {
            Some((_, tools)) => Some(tools.clone()),
            None => self.upstreams.get(upstream).cloned(),
        }
    }

    /// Every view of an upstream's tools: its policy's, then each rule's.
    pub fn all_views(&self, upstream: &str) -> Vec<Arc<UpstreamTools>> {
        let rules = self.rules.get(upstream).into_iter().flatten().map(|(_, t)| t.clone());
        self.upstreams.get(upstream).cloned().into_iter().chain(rules).collect()
    }

    /// Names of upstreams whose visible tools changed (see [`Catalog::watch`]).
    pub fn list_changes(&self) -> tokio::sync::broadcast::Receiver<Arc<str>> {
        self.list_changed.subscribe()
    }

    /// Keeps the decisions current while the gateway runs: when a background judgement
    /// lands, that upstream's views are re-decided; when one upstream's tool names change,
    /// every other upstream is (its cross-server findings may change). Each upstream whose
    /// visible tools changed is announced on [`Catalog::list_changes`].
    pub fn watch(self: &Arc<Self>, scoring: &Arc<ScoringService>) {
        let (catalog, scoring_rx, svc) = (Arc::downgrade(self), scoring.subscribe(), Arc::downgrade(scoring));
        tokio::spawn(watch_refinements(catalog.clone(), svc.clone(), scoring_rx));
        tokio::spawn(watch_roster(catalog, svc, self.roster.subscribe()));
    }
}

async fn watch_refinements(
    catalog: std::sync::Weak<Catalog>,
    scoring: std::sync::Weak<ScoringService>,
    mut rx: tokio::sync::broadcast::Receiver<Arc<str>>,
) {
    use tokio::sync::broadcast::error::RecvError;
    loop {
        let upstream = match rx.recv().await {
            Ok(u) => u,
            Err(RecvError::Lagged(_)) => continue,
            Err(RecvError::Closed) => return,
        };
        let (Some(catalog), Some(scoring)) = (catalog.upgrade(), scoring.upgrade()) else { return };
        let mut changed = false;
        for tools in catalog.all_views(&upstream) {
            changed |= tools.refresh(&scoring);
        }
        if changed {
            tracing::info!(upstream = %upstream, "visible tools changed after scoring; notifying sessions");
            let _ = catalog.list_changed.send(upstream);
        }
    }
}

async fn watch_roster(
    catalog: std::sync::Weak<Catalog>,
    scoring: std::sync::Weak<ScoringService>,
    mut rx: tokio::sync::broadcast::Receiver<Arc<str>>,
) {
    use tokio::sync::broadcast::error::RecvError;
    loop {
        let changed = match rx.recv().await {
            Ok(u) => Some(u),
            // Missed some: re-decide everyone.
            Err(RecvError::Lagged(_)) => None,
            Err(RecvError::Closed) => return,
        };
        let (Some(catalog), Some(scoring)) = (catalog.upgrade(), scoring.upgrade()) else { return };
        for name in catalog.upstreams.keys() {
            if changed.as_deref().is_some_and(|c| c == name.as_str()) {
                continue;
            }
            // Every view: an identity rule's table holds its own verdicts, and a look-alike
            // that appeared elsewhere must hide the tool in it too.
            let mut visible_changed = false;
            for tools in catalog.all_views(name) {
                visible_changed |= tools.refresh(&scoring);
            }
            if visible_changed {
                tracing::info!(upstream = %name, cause = ?changed.as_deref(), "visible tools changed after another upstream's tools changed; notifying sessions");
                let _ = catalog.list_changed.send(Arc::from(name.as_str()));
            }
        }
    }
}
