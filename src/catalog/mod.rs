//! The catalogue: per upstream, the tools it has listed and what the gateway decided about
//! each, under the upstream's policy and under each identity rule's. It is the gateway's
//! central domain object: the proxy feeds it `tools/list` answers and asks it about calls;
//! the admin API reads and acts on it.
//!
//! - `table`: one view's tool table (the decisions a call is checked against)
//! - `list`: the list path (parse, score, decide, render)
//! - `render_cache`: remembered renderings of repeat lists
//! - `refusals`: refusing calls, and the refusals kept for the audit
//! - `report`: the server report built in the background
//! - `view`: what the admin API shows and does
//! - `verdict`: threats and pins in a decision, the server's instructions
//! - `roster`: every upstream's tool names, for cross-server findings
//! - `threats`: what the threat analysis reads of a tool, and how findings are shown

mod list;
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

// Locks that cannot be poisoned: a panic elsewhere must never turn a refusal into a pass.
use parking_lot::Mutex;

use serde_json::json;

use crate::mcp::tools_list::{ListResult, ToolAction};
use crate::policy::settings::{Mode, Pending, Policy, ThreatAction};
use crate::policy::{Decision, HideReason, ScoreState, decide, refusal_message};
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
pub use refusals::{Caller, Refusal, RefusedCall};
pub use report::ServerReport;
pub use table::UpstreamTools;
pub use view::ToolView;

use list::*;
use refusals::*;
use render_cache::*;
use roster::Roster;
use table::*;
use threats::{definition_value, summary};
use verdict::report_new_cross;
