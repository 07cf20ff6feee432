//! What the gateway does with a scored tool: observe (nothing), annotate (add the score), or
//! enforce (hide tools below the minimum, denied tools, and by the pending/fail rules). Pure:
//! the same inputs always give the same decision, and a dry run reports what it would hide.

pub mod rules;

use serde::Serialize;

use crate::config::{FailMode, Mode, Pending, Policy};
use crate::scoring::pins::PinStatus;
use crate::tdqs::score::{Tenths, Tier};

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
}

impl HideReason {
    pub fn as_str(self) -> &'static str {
        match self {
            HideReason::BelowMinimum => "below_minimum",
            HideReason::Denied => "denied",
            HideReason::Pending => "pending",
            HideReason::JudgeFailed => "judge_failed",
            HideReason::Unscorable => "unscorable",
            HideReason::PinChanged => "pin_changed",
            HideReason::PinUnverified => "pin_unverified",
            HideReason::Unlisted => "unlisted",
        }
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

/// Decides for one tool by name, score state and (for pinned upstreams) pin status. Outside
/// enforce nothing is hidden; a changed pin is then only reported (annotation, logs).
pub fn decide(policy: &Policy, tool: &str, state: ScoreState, pin: Option<PinStatus>) -> Decision {
    let annotate = policy.mode != Mode::Observe && state != ScoreState::Unscorable;
    if policy.mode != Mode::Enforce {
        return Decision { visible: true, annotate, hide_reason: None };
    }
    let reason = if policy.allow.iter().any(|a| a == tool) {
        None
    } else if policy.deny.iter().any(|d| d == tool) {
        Some(HideReason::Denied)
    } else if pin == Some(PinStatus::Changed) {
        Some(HideReason::PinChanged)
    } else if pin == Some(PinStatus::Unverified) && policy.fail == FailMode::Closed {
        Some(HideReason::PinUnverified)
    } else {
        match state {
            ScoreState::Final(s) => (s < policy.minimum).then_some(HideReason::BelowMinimum),
            ScoreState::Provisional(s) => match policy.pending {
                Pending::Hide => Some(HideReason::Pending),
                Pending::Allow => None,
                Pending::Provisional | Pending::Wait => (s < policy.minimum).then_some(HideReason::BelowMinimum),
            },
            ScoreState::JudgeFailed(s) => match policy.fail {
                FailMode::Closed => Some(HideReason::JudgeFailed),
                FailMode::Open => (s < policy.minimum).then_some(HideReason::BelowMinimum),
            },
            ScoreState::Unscorable => match policy.fail {
                FailMode::Closed => Some(HideReason::Unscorable),
                FailMode::Open => None,
            },
        }
    };
    Decision { visible: reason.is_none() || policy.dry_run, annotate, hide_reason: reason }
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
        (HideReason::PinUnverified, _) => format!(
            "Tool \"{tool}\" is hidden by tdqs-gateway: its approved definitions cannot be checked right now and the policy fails closed."
        ),
        (HideReason::Unlisted, _) => format!(
            "Tool \"{tool}\" is refused by tdqs-gateway: the server's tool list does not carry it, so it has no score."
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

#[cfg(test)]
mod tests {
    use super::*;

    fn policy(mode: Mode) -> Policy {
        Policy {
            mode,
            minimum: Tenths(30),
            pending: Pending::Provisional,
            wait_ms: 0,
            dry_run: false,
            fail: FailMode::Open,
            pin: true,
            allow: vec!["echo".into()],
            deny: vec!["rm".into()],
        }
    }

    #[test]
    fn modes() {
        let low = ScoreState::Final(Tenths(21));
        assert_eq!(
            decide(&policy(Mode::Observe), "t", low, None),
            Decision { visible: true, annotate: false, hide_reason: None }
        );
        assert_eq!(
            decide(&policy(Mode::Annotate), "t", low, None),
            Decision { visible: true, annotate: true, hide_reason: None }
        );
        let d = decide(&policy(Mode::Enforce), "t", low, None);
        assert_eq!((d.visible, d.hide_reason), (false, Some(HideReason::BelowMinimum)));
        assert!(decide(&policy(Mode::Enforce), "t", ScoreState::Final(Tenths(30)), None).visible);
        assert!(decide(&policy(Mode::Enforce), "echo", low, None).visible, "allow wins over the score");
        let d = decide(&policy(Mode::Enforce), "rm", ScoreState::Final(Tenths(50)), None);
        assert_eq!(d.hide_reason, Some(HideReason::Denied));
    }

    #[test]
    fn pending_fail_and_dry_run() {
        let mut p = policy(Mode::Enforce);
        p.pending = Pending::Hide;
        assert_eq!(decide(&p, "t", ScoreState::Provisional(Tenths(45)), None).hide_reason, Some(HideReason::Pending));
        p.pending = Pending::Allow;
        assert!(decide(&p, "t", ScoreState::Provisional(Tenths(10)), None).visible);
        p.fail = FailMode::Closed;
        assert_eq!(
            decide(&p, "t", ScoreState::JudgeFailed(Tenths(45)), None).hide_reason,
            Some(HideReason::JudgeFailed)
        );
        assert_eq!(decide(&p, "t", ScoreState::Unscorable, None).hide_reason, Some(HideReason::Unscorable));
        p.dry_run = true;
        let d = decide(&p, "t", ScoreState::Final(Tenths(10)), None);
        assert!(d.visible && d.hide_reason == Some(HideReason::BelowMinimum));
    }

    #[test]
    fn pins_hide_only_under_enforce() {
        let high = ScoreState::Final(Tenths(45));
        let d = decide(&policy(Mode::Enforce), "t", high, Some(PinStatus::Changed));
        assert_eq!((d.visible, d.hide_reason), (false, Some(HideReason::PinChanged)));
        assert!(decide(&policy(Mode::Enforce), "t", high, Some(PinStatus::Approved)).visible);
        assert!(decide(&policy(Mode::Annotate), "t", high, Some(PinStatus::Changed)).visible);
        assert!(decide(&policy(Mode::Enforce), "echo", high, Some(PinStatus::Changed)).visible, "allow wins");
        let mut p = policy(Mode::Enforce);
        assert!(decide(&p, "t", high, Some(PinStatus::Unverified)).visible, "fails open");
        p.fail = FailMode::Closed;
        let d = decide(&p, "t", high, Some(PinStatus::Unverified));
        assert_eq!(d.hide_reason, Some(HideReason::PinUnverified));
    }

    #[test]
    fn refusal_says_score_tier_and_minimum() {
        let m = refusal_message("get_x", HideReason::BelowMinimum, Some(Tenths(21)), Tenths(30));
        assert_eq!(
            m,
            "Tool \"get_x\" is hidden by tdqs-gateway: its TDQS score 2.1 (tier C) is below the minimum 3.0 (tier B)."
        );
    }
}
