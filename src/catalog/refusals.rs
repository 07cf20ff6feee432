//! Refusing `tools/call`: a call to a tool the policy hides, or that no list has carried, is
//! answered by the gateway; the most recent refusals are kept for the admin API.

use super::*;

/// A `tools/call` the gateway refused.
#[derive(Clone, Debug, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RefusedCall {
    /// Unix milliseconds.
    pub at: i64,
    pub tool: String,
    pub reason: HideReason,
    /// Who made the call (with `[auth]` on).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub principal: Option<Caller>,
    /// The identity rule whose policy refused it (none: the upstream's policy).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<Arc<str>>,
}

/// A caller as the audit trail names it.
#[derive(Clone, Debug, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Caller {
    pub subject: String,
    pub client_id: Option<String>,
    pub issuer: String,
}

impl Caller {
    pub fn of(p: &crate::auth::Principal) -> Caller {
        Caller { subject: p.subject.clone(), client_id: p.client_id.clone(), issuer: p.issuer.clone() }
    }
}

/// Refused calls remembered per upstream (the most recent).
pub(super) const REFUSALS_KEPT: usize = 200;
/// A `tools/call` the gateway answers itself: what the error says (the exchange adds the id),
/// and who refused whom, for the edge that answers to record (log and metric).
pub struct Refusal {
    pub tool: String,
    pub reason: HideReason,
    pub message: String,
    pub data: serde_json::Value,
    pub upstream: String,
    /// The identity rule whose policy refused it (none: the upstream's policy).
    pub rule: Option<Arc<str>>,
    pub score: Option<crate::tdqs::score::Tenths>,
    pub minimum: crate::tdqs::score::Tenths,
    pub caller: Option<Caller>,
}

/// After a listing that succeeded, how long a call to a tool it did not carry is refused as
/// unlisted without listing again (a client calling made-up names cannot make the gateway
/// list the upstream more often than this).
pub(super) const RELEARN_AFTER: std::time::Duration = std::time::Duration::from_secs(2);

impl UpstreamTools {
    /// A refusal for a `tools/call` naming a hidden (or, under enforce, unknown) tool; `None`
    /// lets the call through.
    pub fn refuse_call(&self, tool: &str) -> Option<Refusal> {
        self.refuse_call_by(tool, None)
    }

    /// [`refuse_call`](Self::refuse_call) for an authenticated caller, who is named in the
    /// audit trail.
    pub fn refuse_call_by(&self, tool: &str, caller: Option<&crate::auth::Principal>) -> Option<Refusal> {
        let (reason, score, threats) = {
            let map = self.tools.lock();
            match map.get(tool) {
                Some(state) if state.decision.visible => return None,
                Some(state) => (
                    state.decision.hide_reason?,
                    state.scored.as_ref().map(|s| s.score.tdqs),
                    summary(&state.findings().collect::<Vec<_>>()),
                ),
                // Not listed through this gateway (yet, or since a restart): the deny list still
                // holds, and an enforcing policy refuses what it has no verdict on.
                None => (self.unlisted_reason(tool)?, None, json!([])),
            }
        };
        let text = refusal_message(tool, reason, score, self.policy.minimum);
        Some(self.refusal(tool, reason, score, text, threats, caller))
    }

    /// A refusal for a call to a tool the gateway could not learn about (the listing failed).
    pub fn refuse_unlearned(&self, tool: &str, why: &str, caller: Option<&crate::auth::Principal>) -> Refusal {
        let text = format!(
            "Tool \"{tool}\" is hidden by tdqs-gateway: the server's tools could not be listed to score it ({why})."
        );
        self.refusal(tool, HideReason::Unlisted, None, text, json!([]), caller)
    }

    /// Keeps a refusal in the admin API's list and describes it.
    pub(super) fn refusal(
        &self,
        tool: &str,
        reason: HideReason,
        score: Option<crate::tdqs::score::Tenths>,
        text: String,
        threats: serde_json::Value,
        caller: Option<&crate::auth::Principal>,
    ) -> Refusal {
        let mut data = json!({
            "tool": tool,
            "reason": reason.as_str(),
            "tdqs": score.map(|s| s.as_f64()),
            "tier": score.map(|s| Tier::of(s).as_str()),
            "minimum": self.policy.minimum.as_f64(),
            "minimumTier": Tier::of(self.policy.minimum).as_str(),
        });
        if reason == HideReason::Threat {
            data["threats"] = threats;
        }
        {
            let mut r = self.refusals.lock();
            if r.len() >= REFUSALS_KEPT {
                r.pop_front();
            }
            r.push_back(RefusedCall {
                at: crate::store::now_ms(),
                tool: tool.to_owned(),
                reason,
                principal: caller.map(Caller::of),
                rule: self.rule.clone(),
            });
        }
        Refusal {
            tool: tool.to_owned(),
            reason,
            message: text,
            data,
            upstream: self.name.clone(),
            rule: self.rule.clone(),
            score,
            minimum: self.policy.minimum,
            caller: caller.map(Caller::of),
        }
    }

    /// Why a call to a tool the gateway has not seen listed is refused, if it is.
    pub(super) fn unlisted_reason(&self, tool: &str) -> Option<HideReason> {
        let d = decide_tool(&self.policy, tool, Seen::Unlisted);
        if d.visible { None } else { d.hide_reason }
    }
}
