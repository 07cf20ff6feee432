//! The catalogue: per upstream, the tools it has listed and what the gateway decided about
//! each, under the upstream's policy and under each identity rule's. It is the gateway's
//! central domain object: the proxy feeds it `tools/list` answers and asks it about calls;
//! the admin API reads and acts on it.
//!
//! - `table`: one view's tool table (the decisions a call is checked against)
//! - `list`: the list path (parse, evaluate, record, keep, render)
//! - `outcomes`: what the operations return for the edge to record (the catalogue writes no
//!   telemetry)
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
mod outcomes;
mod refusals;
mod render_cache;
mod report;
pub mod roster;
mod split_view;
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
pub use outcomes::{ListVerdicts, Refreshed, Rescored, Scoring};
pub use refusals::{Caller, Refusal, RefusedCall};
pub use report::{ReportJob, ServerReport};
pub use table::UpstreamTools;
pub use view::ToolView;

use evaluate::*;
use list::*;
use refusals::*;
use render_cache::*;
use roster::Roster;
use split_view::SPLIT_VIEW;
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

    /// Names of upstreams whose visible tools changed (see [`Catalog::announce`]).
    pub fn list_changes(&self) -> tokio::sync::broadcast::Receiver<Arc<str>> {
        self.list_changed.subscribe()
    }

    /// Tells the listening clients of `upstream` that its visible tools changed (see
    /// `server::refresh`, which keeps the decisions current).
    pub fn announce(&self, upstream: Arc<str>) {
        let _ = self.list_changed.send(upstream);
    }
}
