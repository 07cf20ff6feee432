//! What the gateway does with a scored tool: observe (nothing), annotate (add the score), or
//! enforce (hide tools below the minimum, denied tools, and by the pending/fail rules). Pure:
//! the same inputs always give the same decision, and a dry run reports what it would hide.

pub mod rules;
pub mod settings;
pub mod uninspected;

use serde::Serialize;

use crate::tdqs::score::{Tenths, Tier};
use crate::tdqs::threat::Severity;
use settings::{FailMode, Mode, Pending, Policy, ThreatAction};

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
            HideReason::PinNew => "pin_new",
            HideReason::Threat => "threat",
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

/// Whether the policy acts on a definition whose worst finding is `threat`: the threat is at
/// or above the policy's severity, threats are not off, and `allow_threats` does not name the
/// tool. Under `flag` this only reports; hiding is [`decide`]'s, under enforce.
pub fn threat_applies(policy: &Policy, tool: &str, threat: Option<Severity>) -> bool {
    policy.threats != ThreatAction::Off
        && threat.is_some_and(|s| s >= policy.threat_severity)
        && !policy.allow_threats.iter().any(|a| a == tool)
}

/// Whether poisoned server `instructions` are removed (rather than only flagged).
pub fn hides_threats(policy: &Policy) -> bool {
    policy.mode == Mode::Enforce && policy.threats == ThreatAction::Hide
}

/// Decides for one tool by name, score state, (for pinned upstreams) pin status and the worst
/// threat finding of its definition. Outside enforce nothing is hidden; a changed pin or a
/// threat is then only reported (annotation, logs). A threat wins over `allow`: only
/// `allow_threats` makes an exception for it.
pub fn decide(
    policy: &Policy,
    tool: &str,
    state: ScoreState,
    pin: Option<PinStatus>,
    threat: Option<Severity>,
) -> Decision {
    let annotate = policy.mode != Mode::Observe && state != ScoreState::Unscorable;
    if policy.mode != Mode::Enforce {
        return Decision { visible: true, annotate, hide_reason: None };
    }
    let reason = if hides_threats(policy) && threat_applies(policy, tool, threat) {
        Some(HideReason::Threat)
    } else if policy.allow.iter().any(|a| a == tool) {
        None
    } else if policy.deny.iter().any(|d| d == tool) {
        Some(HideReason::Denied)
    } else if pin == Some(PinStatus::Changed) {
        Some(HideReason::PinChanged)
    } else if pin == Some(PinStatus::New) {
        Some(HideReason::PinNew)
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
            // `fail` is about the judge being unavailable; a definition the engine cannot read
            // (a number beyond any double, nesting past the limit, a name that is not text)
            // cannot be judged by anyone, so enforce hides it whatever `fail` says.
            ScoreState::Unscorable => Some(HideReason::Unscorable),
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
        (HideReason::PinNew, _) => format!(
            "Tool \"{tool}\" is hidden by tdqs-gateway: it is new on a pinned server since its first listing; an operator must approve it (tdqs-gateway approve)."
        ),
        (HideReason::Threat, _) => format!(
            "Tool \"{tool}\" is hidden by tdqs-gateway: its definition carries instructions or hidden content aimed at the agent (see data.threats)."
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
            threats: if mode == Mode::Enforce { ThreatAction::Hide } else { ThreatAction::Flag },
            threat_severity: Severity::High,
            allow_threats: vec!["vetted".into()],
            pin_new_tools: settings::PinNew::Hold,
        }
    }

    #[test]
    fn modes() {
        let low = ScoreState::Final(Tenths(21));
        assert_eq!(
            decide(&policy(Mode::Observe), "t", low, None, None),
            Decision { visible: true, annotate: false, hide_reason: None }
        );
        assert_eq!(
            decide(&policy(Mode::Annotate), "t", low, None, None),
            Decision { visible: true, annotate: true, hide_reason: None }
        );
        let d = decide(&policy(Mode::Enforce), "t", low, None, None);
        assert_eq!((d.visible, d.hide_reason), (false, Some(HideReason::BelowMinimum)));
        assert!(decide(&policy(Mode::Enforce), "t", ScoreState::Final(Tenths(30)), None, None).visible);
        assert!(decide(&policy(Mode::Enforce), "echo", low, None, None).visible, "allow wins over the score");
        let d = decide(&policy(Mode::Enforce), "rm", ScoreState::Final(Tenths(50)), None, None);
        assert_eq!(d.hide_reason, Some(HideReason::Denied));
    }

    #[test]
    fn pending_fail_and_dry_run() {
        let mut p = policy(Mode::Enforce);
        p.pending = Pending::Hide;
        assert_eq!(
            decide(&p, "t", ScoreState::Provisional(Tenths(45)), None, None).hide_reason,
            Some(HideReason::Pending)
        );
        p.pending = Pending::Allow;
        assert!(decide(&p, "t", ScoreState::Provisional(Tenths(10)), None, None).visible);
        p.fail = FailMode::Closed;
        assert_eq!(
            decide(&p, "t", ScoreState::JudgeFailed(Tenths(45)), None, None).hide_reason,
            Some(HideReason::JudgeFailed)
        );
        assert_eq!(decide(&p, "t", ScoreState::Unscorable, None, None).hide_reason, Some(HideReason::Unscorable));
        p.fail = FailMode::Open;
        let d = decide(&p, "t", ScoreState::Unscorable, None, None);
        assert_eq!((d.visible, d.hide_reason), (false, Some(HideReason::Unscorable)), "fail = open does not show it");
        p.dry_run = true;
        let d = decide(&p, "t", ScoreState::Final(Tenths(10)), None, None);
        assert!(d.visible && d.hide_reason == Some(HideReason::BelowMinimum));
    }

    #[test]
    fn pins_hide_only_under_enforce() {
        let high = ScoreState::Final(Tenths(45));
        let d = decide(&policy(Mode::Enforce), "t", high, Some(PinStatus::Changed), None);
        assert_eq!((d.visible, d.hide_reason), (false, Some(HideReason::PinChanged)));
        assert!(decide(&policy(Mode::Enforce), "t", high, Some(PinStatus::Approved), None).visible);
        assert!(decide(&policy(Mode::Annotate), "t", high, Some(PinStatus::Changed), None).visible);
        assert!(decide(&policy(Mode::Enforce), "echo", high, Some(PinStatus::Changed), None).visible, "allow wins");
        let mut p = policy(Mode::Enforce);
        assert!(decide(&p, "t", high, Some(PinStatus::Unverified), None).visible, "fails open");
        p.fail = FailMode::Closed;
        let d = decide(&p, "t", high, Some(PinStatus::Unverified), None);
        assert_eq!(d.hide_reason, Some(HideReason::PinUnverified));
    }

    #[test]
    fn a_threat_hides_under_enforce_and_allow_does_not_override_it() {
        let high = ScoreState::Final(Tenths(45));
        let p = policy(Mode::Enforce);
        let d = decide(&p, "t", high, None, Some(Severity::High));
        assert_eq!((d.visible, d.hide_reason), (false, Some(HideReason::Threat)));
        let d = decide(&p, "echo", high, None, Some(Severity::High));
        assert_eq!(d.hide_reason, Some(HideReason::Threat), "allow is not an exception for a threat");
        assert!(decide(&p, "vetted", high, None, Some(Severity::High)).visible, "allow_threats is");
        let d = decide(&p, "rm", high, None, Some(Severity::High));
        assert_eq!(d.hide_reason, Some(HideReason::Threat), "the threat is the reason given");
        assert!(decide(&p, "t", high, None, Some(Severity::Medium)).visible, "below the severity");
        assert!(decide(&p, "t", high, None, None).visible);
    }

    #[test]
    fn threat_severity_flag_off_and_other_modes() {
        let high = ScoreState::Final(Tenths(45));
        let mut p = policy(Mode::Enforce);
        p.threat_severity = Severity::Low;
        assert_eq!(decide(&p, "t", high, None, Some(Severity::Low)).hide_reason, Some(HideReason::Threat));
        p.threats = ThreatAction::Flag;
        assert!(decide(&p, "t", high, None, Some(Severity::High)).visible, "flag reports, never hides");
        assert!(threat_applies(&p, "t", Some(Severity::High)));
        p.threats = ThreatAction::Off;
        assert!(!threat_applies(&p, "t", Some(Severity::High)));
        assert!(decide(&p, "t", high, None, Some(Severity::High)).visible);
        for mode in [Mode::Observe, Mode::Annotate] {
            let mut p = policy(mode);
            p.threats = ThreatAction::Hide;
            assert!(decide(&p, "t", high, None, Some(Severity::High)).visible, "nothing hides outside enforce");
            assert!(!hides_threats(&p));
        }
        let mut p = policy(Mode::Enforce);
        p.dry_run = true;
        let d = decide(&p, "t", high, None, Some(Severity::High));
        assert!(d.visible && d.hide_reason == Some(HideReason::Threat), "a dry run reports what it would hide");
    }

    #[test]
    fn a_new_name_on_a_pinned_upstream_is_held() {
        let high = ScoreState::Final(Tenths(45));
        let d = decide(&policy(Mode::Enforce), "t", high, Some(PinStatus::New), None);
        assert_eq!((d.visible, d.hide_reason), (false, Some(HideReason::PinNew)));
        assert!(decide(&policy(Mode::Annotate), "t", high, Some(PinStatus::New), None).visible);
        assert!(refusal_message("t", HideReason::PinNew, None, Tenths(30)).contains("approve"));
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
