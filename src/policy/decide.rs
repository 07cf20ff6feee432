//! The one decision: what the gateway does with a tool, for listing it, for re-deciding it when
//! a score lands or another upstream changes, and for a call to a tool no list has carried.
//! Beside it, the two questions the list and call paths ask the policy before deciding: wait
//! for the configured judge, and list the upstream to learn an unknown tool.

use super::settings::{FailMode, Mode, Pending, Policy, ThreatAction};
use super::{Decision, HideReason, PinStatus, ScoreState};
use crate::tdqs::threat::Severity;

/// What the gateway knows about a tool when it decides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seen {
    /// A list carried it: its score state, (pinned upstreams) its pin status, and the worst
    /// threat finding of its definition.
    Listed { state: ScoreState, pin: Option<PinStatus>, threat: Option<Severity> },
    /// No list carried it (not yet, not since a restart, or it does not exist).
    Unlisted,
}

impl Seen {
    /// A listed tool the engine could not read.
    pub fn unscorable(threat: Option<Severity>) -> Seen {
        Seen::Listed { state: ScoreState::Unscorable, pin: None, threat }
    }
}

/// Whether the policy acts on a definition whose worst finding is `threat`: the threat is at
/// or above the policy's severity, threats are not off, and `allow_threats` does not name the
/// tool. Under `flag` this only reports; hiding is [`decide_tool`]'s, under enforce.
pub fn threat_applies(policy: &Policy, tool: &str, threat: Option<Severity>) -> bool {
    policy.threats != ThreatAction::Off
        && threat.is_some_and(|s| s >= policy.threat_severity)
        && !policy.allow_threats.iter().any(|a| a == tool)
}

/// Whether poisoned server `instructions` are removed (rather than only flagged).
pub fn hides_threats(policy: &Policy) -> bool {
    policy.mode == Mode::Enforce && policy.threats == ThreatAction::Hide
}

/// Whether a list waits (up to `wait_ms`) for the configured judge instead of answering with
/// the heuristic's provisional score. Observing never holds a client up.
pub fn waits_for_judge(policy: &Policy) -> bool {
    policy.pending == Pending::Wait && policy.mode != Mode::Observe
}

/// Whether a call to `tool` that no list has carried needs the upstream listed first: only an
/// enforcing policy (not a dry run) has anything to refuse, and an allow-listed tool passes
/// whatever its verdict.
pub fn needs_listing(policy: &Policy, tool: &str) -> bool {
    policy.mode == Mode::Enforce && !policy.dry_run && !allowed(policy, tool)
}

fn allowed(policy: &Policy, tool: &str) -> bool {
    super::names::any_names(&policy.allow, tool)
}

fn denied(policy: &Policy, tool: &str) -> bool {
    super::names::any_names(&policy.deny, tool)
}

/// Decides for one tool. Outside enforce nothing is hidden; a changed pin or a threat is then
/// only reported (annotation, logs). A threat wins over `allow`: only `allow_threats` makes an
/// exception for it. A dry run is visible and says why it would not be.
pub fn decide_tool(policy: &Policy, tool: &str, seen: Seen) -> Decision {
    let (state, pin, threat) = match seen {
        Seen::Listed { state, pin, threat } => (Some(state), pin, threat),
        Seen::Unlisted => (None, None, None),
    };
    let annotate = policy.mode != Mode::Observe && state.is_some_and(|s| s != ScoreState::Unscorable);
    if policy.mode != Mode::Enforce {
        return Decision { visible: true, annotate, hide_reason: None };
    }
    let reason = if hides_threats(policy) && threat_applies(policy, tool, threat) {
        Some(HideReason::Threat)
    } else if allowed(policy, tool) {
        None
    } else if denied(policy, tool) {
        Some(HideReason::Denied)
    } else if pin == Some(PinStatus::Changed) {
        Some(HideReason::PinChanged)
    } else if pin == Some(PinStatus::New) {
        Some(HideReason::PinNew)
    } else if pin == Some(PinStatus::Unverified) && policy.fail == FailMode::Closed {
        Some(HideReason::PinUnverified)
    } else {
        match state {
            // No verdict, so no call.
            None => Some(HideReason::Unlisted),
            Some(ScoreState::Final(s)) => (s < policy.minimum).then_some(HideReason::BelowMinimum),
            Some(ScoreState::Provisional(s)) => match policy.pending {
                Pending::Hide => Some(HideReason::Pending),
                Pending::Allow => None,
                Pending::Provisional | Pending::Wait => (s < policy.minimum).then_some(HideReason::BelowMinimum),
            },
            Some(ScoreState::JudgeFailed(s)) => match policy.fail {
                FailMode::Closed => Some(HideReason::JudgeFailed),
                FailMode::Open => (s < policy.minimum).then_some(HideReason::BelowMinimum),
            },
            // `fail` is about the judge being unavailable; a definition the engine cannot read
            // (a number beyond any double, nesting past the limit, a name that is not text)
            // cannot be judged by anyone, so enforce hides it whatever `fail` says.
            Some(ScoreState::Unscorable) => Some(HideReason::Unscorable),
        }
    };
    Decision { visible: reason.is_none() || policy.dry_run, annotate, hide_reason: reason }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::refusal_message;
    use crate::tdqs::score::Tenths;

    fn decide(p: &Policy, tool: &str, state: ScoreState, pin: Option<PinStatus>, threat: Option<Severity>) -> Decision {
        decide_tool(p, tool, Seen::Listed { state, pin, threat })
    }

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
            pin_new_tools: crate::policy::settings::PinNew::Hold,
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
    fn deny_everything_allow_a_few() {
        let mut p = policy(Mode::Enforce);
        (p.deny, p.allow) = (vec!["*".into()], vec!["read_*".into(), "echo".into()]);
        let good = ScoreState::Final(Tenths(50));
        assert_eq!(decide(&p, "write_file", good, None, None).hide_reason, Some(HideReason::Denied));
        assert!(decide(&p, "read_file", good, None, None).visible);
        assert!(decide(&p, "echo", ScoreState::Final(Tenths(10)), None, None).visible, "allow wins over the score");
        let d = decide(&p, "read_secrets", good, None, Some(Severity::High));
        assert_eq!(d.hide_reason, Some(HideReason::Threat), "never over a threat");
        assert_eq!(decide_tool(&p, "write_file", Seen::Unlisted).hide_reason, Some(HideReason::Denied));
        assert!(!needs_listing(&p, "read_file") && needs_listing(&p, "write_file"));
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
    fn an_unlisted_tool_is_refused_only_by_an_enforcing_policy() {
        let p = policy(Mode::Enforce);
        let d = decide_tool(&p, "t", Seen::Unlisted);
        assert_eq!((d.visible, d.hide_reason, d.annotate), (false, Some(HideReason::Unlisted), false));
        assert_eq!(decide_tool(&p, "rm", Seen::Unlisted).hide_reason, Some(HideReason::Denied));
        assert!(decide_tool(&p, "echo", Seen::Unlisted).visible, "allow passes without a verdict");
        assert!(decide_tool(&policy(Mode::Annotate), "t", Seen::Unlisted).visible);
        assert!(needs_listing(&p, "t") && !needs_listing(&p, "echo"));
        assert!(!needs_listing(&policy(Mode::Annotate), "t"));
        let mut dry = policy(Mode::Enforce);
        dry.dry_run = true;
        assert!(!needs_listing(&dry, "t"));
        let d = decide_tool(&dry, "t", Seen::Unlisted);
        assert!(d.visible && d.hide_reason == Some(HideReason::Unlisted), "a dry run says what it would refuse");
    }

    #[test]
    fn only_a_policy_that_acts_waits_for_the_judge() {
        let mut p = policy(Mode::Enforce);
        assert!(!waits_for_judge(&p));
        p.pending = Pending::Wait;
        assert!(waits_for_judge(&p));
        p.mode = Mode::Annotate;
        assert!(waits_for_judge(&p));
        p.mode = Mode::Observe;
        assert!(!waits_for_judge(&p));
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
