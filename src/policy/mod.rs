//! What the gateway does with a scored tool: observe (nothing), annotate (add the score), or
//! enforce (hide tools below the minimum, denied tools, and by the pending/fail rules). Pure:
//! the same inputs always give the same decision, and a dry run reports what it would hide.

mod decide;
pub mod names;
pub mod rules;
pub mod settings;
pub mod uninspected;

pub use decide::{Seen, decide_tool, hides_threats, needs_listing, threat_applies, waits_for_judge};

use serde::Serialize;

use crate::tdqs::score::{Tenths, Tier};

/// Where a pinned tool's current definition stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PinStatus {
    /// The hash is approved.
    Approved,
    /// The definition changed since it was approved.
    Changed,
    /// The approvals could not be read from the store yet.
    Unverified,
    /// A tool name first seen after the upstream's first listing, held for approval
    /// (`pin_new_tools = "hold"`): a renamed tool does not get trust on first use.
    New,
}

impl PinStatus {
    /// Whether an operator's approval would make the tool visible (changed, or new).
    pub fn awaits_approval(self) -> bool {
        matches!(self, PinStatus::Changed | PinStatus::New)
    }
}

/// Where a tool's score stands when the policy looks at it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoreState {
    /// The configured judge's score.
    Final(Tenths),
    /// The heuristic's score while the configured judge's is pending.
    Provisional(Tenths),
    /// The configured judge failed; the heuristic's score stands in.
    JudgeFailed(Tenths),
    /// The definition could not be scored at all (it breaks the tool schema).
    Unscorable,
}

/// Why a tool is (or, in a dry run, would be) hidden.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
#[derive(strum::IntoStaticStr)]
#[strum(serialize_all = "snake_case")]
pub enum HideReason {
    BelowMinimum,
    Denied,
    Pending,
    JudgeFailed,
    Unscorable,
    /// Pinned, and the definition changed since it was approved.
    PinChanged,
    /// Pinned, and the approvals could not be read (the policy fails closed).
    PinUnverified,
    /// Called, but not in the upstream's list when the gateway listed it (or it could not be
    /// listed): no verdict, so no call.
    Unlisted,
    /// Pinned, and the name is new since the upstream's first listing (a rename must not
    /// buy trust on first use).
    PinNew,
    /// The definition carries a threat finding at or above the policy's severity.
    Threat,
    /// The upstream showed another definition under the same name that is hidden: a duplicate
    /// in one list, or a different definition in another recent listing (another session's,
    /// the gateway's own). One name carries one verdict, the stricter.
    SplitView,
}

impl HideReason {
    pub fn as_str(self) -> &'static str {
        self.into()
    }
}

/// The policy's answer for one tool.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decision {
    /// Whether clients see the tool (and may call it).
    pub visible: bool,
    /// Whether the tool carries the score in `_meta`.
    pub annotate: bool,
    /// Why it is hidden; in a dry run, why it would be.
    pub hide_reason: Option<HideReason>,
}

/// The message a refused `tools/call` carries.
pub fn refusal_message(tool: &str, reason: HideReason, score: Option<Tenths>, minimum: Tenths) -> String {
    let min_tier = Tier::of(minimum);
    match (reason, score) {
        (HideReason::Denied, _) => format!("Tool \"{tool}\" is denied by the tdqs-gateway policy for this server."),
        (HideReason::Pending, _) => {
            format!(
                "Tool \"{tool}\" is hidden by tdqs-gateway until its quality score is in; list tools again shortly."
            )
        }
        (HideReason::PinChanged, _) => format!(
            "Tool \"{tool}\" is hidden by tdqs-gateway: its definition changed since it was approved; an operator must approve the new definition (tdqs-gateway approve)."
        ),
        (HideReason::PinNew, _) => format!(
            "Tool \"{tool}\" is hidden by tdqs-gateway: it is new on a pinned server since its first listing; an operator must approve it (tdqs-gateway approve)."
        ),
        (HideReason::Threat, _) => format!(
            "Tool \"{tool}\" is hidden by tdqs-gateway: its definition carries instructions or hidden content aimed at the agent (see data.threats)."
        ),
        (HideReason::SplitView, _) => format!(
            "Tool \"{tool}\" is hidden by tdqs-gateway: the server has shown another definition under this name that is hidden."
        ),
        (HideReason::PinUnverified, _) => format!(
            "Tool \"{tool}\" is hidden by tdqs-gateway: its approved definitions cannot be checked right now and the policy fails closed."
        ),
        (HideReason::Unlisted, _) => format!(
            "Tool \"{tool}\" is hidden by tdqs-gateway: the server's tool list does not carry it, so it has no score."
        ),
        (HideReason::JudgeFailed, _) | (HideReason::Unscorable, _) => {
            format!(
                "Tool \"{tool}\" is hidden by tdqs-gateway: its definition could not be scored and the policy fails closed."
            )
        }
        (HideReason::BelowMinimum, Some(s)) => format!(
            "Tool \"{tool}\" is hidden by tdqs-gateway: its TDQS score {s} (tier {}) is below the minimum {minimum} (tier {min_tier}).",
            Tier::of(s)
        ),
        (HideReason::BelowMinimum, None) => {
            format!("Tool \"{tool}\" is hidden by tdqs-gateway: its score is below the minimum {minimum}.")
        }
    }
}
