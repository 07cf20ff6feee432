//! The `[policy]` section: its keys (every one optional, so an upstream or a rule can override
//! just some), and their resolution into the policy in force, defaults first, then
//! `[policy]`, then `[upstream.policy]`, then a matching rule.

use serde::{Deserialize, Serialize};

use crate::settings::{ConfigError, invalid};
use crate::tdqs::score::{Tenths, Tier};
use crate::tdqs::threat::Severity;

#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq, Default)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    Observe,
    #[default]
    Annotate,
    Enforce,
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq, Default)]
#[serde(rename_all = "lowercase")]
pub enum Pending {
    /// Serve the heuristic score at once.
    #[default]
    Provisional,
    /// Wait up to `wait_ms` for the judge, then fall back to provisional.
    Wait,
    /// Show the tool, unjudged, until the score is in.
    Allow,
    /// Hide the tool until the score is in.
    Hide,
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq, Default)]
#[serde(rename_all = "lowercase")]
pub enum FailMode {
    /// The judge is unavailable: use the heuristic score.
    #[default]
    Open,
    /// The judge is unavailable: hide what cannot be judged.
    Closed,
}

/// What the policy does with a tool whose definition carries a threat finding.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum ThreatAction {
    /// Hide the tool (and remove poisoned server instructions) under enforce.
    Hide,
    /// Keep the tool; the findings go to the annotation, logs, metrics and the admin API.
    Flag,
    /// Do not analyse definitions for threats at all.
    Off,
}

/// What a pinned upstream's new tool name (after its first listing) gets.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq, Default)]
#[serde(rename_all = "lowercase")]
pub enum PinNew {
    /// Held for approval like a changed definition (a rename cannot buy trust on first use).
    #[default]
    Hold,
    /// Approved on first sight, as on the upstream's first listing.
    Trust,
}

/// Policy keys; every one optional so an upstream can override just some of them.
#[derive(Debug, Clone, Deserialize, Serialize, Default)]
#[serde(deny_unknown_fields)]
pub struct PolicyConfig {
    pub mode: Option<Mode>,
    pub min_tier: Option<String>,
    pub min_score: Option<f64>,
    pub pending: Option<Pending>,
    pub wait_ms: Option<u64>,
    pub dry_run: Option<bool>,
    pub fail: Option<FailMode>,
    /// Rug-pull protection: a tool whose definition changed since it was approved is hidden
    /// (enforce) or flagged until approved again.
    pub pin: Option<bool>,
    #[serde(default)]
    pub allow: Vec<String>,
    #[serde(default)]
    pub deny: Vec<String>,
    /// `hide` (the default under enforce) | `flag` (the default otherwise) | `off`.
    pub threats: Option<ThreatAction>,
    /// The lowest finding severity the policy acts on (default `high`).
    pub threat_severity: Option<Severity>,
    /// Tools kept visible despite a threat: the operator's deliberate exception (`allow`
    /// does not override a threat).
    #[serde(default)]
    pub allow_threats: Vec<String>,
    /// On a pinned upstream, a tool name first seen after the first listing: `hold` | `trust`.
    pub pin_new_tools: Option<PinNew>,
    /// Per-identity rules (`[[policy.rule]]`), tried in order; see `policy::rules`.
    #[serde(default, skip_serializing)]
    pub rule: Vec<crate::policy::rules::RuleConfig>,
}

/// The policy in force for one upstream: defaults, then `[policy]`, then `[upstream.policy]`.
#[derive(Debug, Clone, PartialEq)]
pub struct Policy {
    pub mode: Mode,
    /// Tools scoring below this are hidden under enforce.
    pub minimum: Tenths,
    pub pending: Pending,
    pub wait_ms: u64,
    pub dry_run: bool,
    pub fail: FailMode,
    pub pin: bool,
    pub allow: Vec<String>,
    pub deny: Vec<String>,
    pub threats: ThreatAction,
    pub threat_severity: Severity,
    pub allow_threats: Vec<String>,
    pub pin_new_tools: PinNew,
}

/// The policy `p` sets on top of `base`; `key` names `p`'s table in errors.
pub fn resolve(key: &str, p: &PolicyConfig, base: Option<&PolicyConfig>) -> Result<Policy, ConfigError> {
    let base = base.cloned().unwrap_or_default();
    let pick = |a: Option<f64>, b: Option<f64>| a.or(b);
    let (tier, score) = if p.min_tier.is_some() || p.min_score.is_some() {
        (p.min_tier.clone(), p.min_score)
    } else {
        (base.min_tier.clone(), base.min_score)
    };
    if tier.is_some() && score.is_some() {
        return Err(invalid(format!("{key}.min_score"), "set min_tier or min_score, not both"));
    }
    let minimum = match (tier, pick(score, None)) {
        (Some(t), _) => Tier::parse(&t)
            .and_then(Tier::minimum)
            .ok_or_else(|| invalid(format!("{key}.min_tier"), format!("\"{t}\" is not one of A, B, C, D")))?,
        (None, Some(s)) if (0.0..=5.0).contains(&s) => Tenths((s * 10.0).round() as u32),
        (None, Some(s)) => return Err(invalid(format!("{key}.min_score"), format!("{s} is not between 0 and 5"))),
        (None, None) => Tenths(30),
    };
    let mut allow = base.allow.clone();
    allow.extend(p.allow.iter().cloned());
    let mut deny = base.deny.clone();
    deny.extend(p.deny.iter().cloned());
    let mut allow_threats = base.allow_threats.clone();
    allow_threats.extend(p.allow_threats.iter().cloned());
    let mode = p.mode.or(base.mode).unwrap_or_default();
    let threats = p.threats.or(base.threats).unwrap_or(if mode == Mode::Enforce {
        ThreatAction::Hide
    } else {
        ThreatAction::Flag
    });
    Ok(Policy {
        mode,
        minimum,
        pending: p.pending.or(base.pending).unwrap_or_default(),
        wait_ms: p.wait_ms.or(base.wait_ms).unwrap_or(3000),
        dry_run: p.dry_run.or(base.dry_run).unwrap_or(false),
        fail: p.fail.or(base.fail).unwrap_or_default(),
        pin: p.pin.or(base.pin).unwrap_or(false),
        allow,
        deny,
        threats,
        threat_severity: p.threat_severity.or(base.threat_severity).unwrap_or(Severity::High),
        allow_threats,
        pin_new_tools: p.pin_new_tools.or(base.pin_new_tools).unwrap_or_default(),
    })
}

/// `over`'s keys on top of `base`'s, as one policy table (the tier or score pair goes
/// together, lists add up; rules are not carried).
pub fn overlay(base: &PolicyConfig, over: &PolicyConfig) -> PolicyConfig {
    let threshold_set = over.min_tier.is_some() || over.min_score.is_some();
    PolicyConfig {
        mode: over.mode.or(base.mode),
        min_tier: if threshold_set { over.min_tier.clone() } else { base.min_tier.clone() },
        min_score: if threshold_set { over.min_score } else { base.min_score },
        pending: over.pending.or(base.pending),
        wait_ms: over.wait_ms.or(base.wait_ms),
        dry_run: over.dry_run.or(base.dry_run),
        fail: over.fail.or(base.fail),
        pin: over.pin.or(base.pin),
        allow: base.allow.iter().chain(&over.allow).cloned().collect(),
        deny: base.deny.iter().chain(&over.deny).cloned().collect(),
        threats: over.threats.or(base.threats),
        threat_severity: over.threat_severity.or(base.threat_severity),
        allow_threats: base.allow_threats.iter().chain(&over.allow_threats).cloned().collect(),
        pin_new_tools: over.pin_new_tools.or(base.pin_new_tools),
        rule: Vec::new(),
    }
}

pub fn default_policy() -> Policy {
    Policy {
        mode: Mode::Annotate,
        minimum: Tenths(30),
        pending: Pending::Provisional,
        wait_ms: 3000,
        dry_run: false,
        fail: FailMode::Open,
        pin: false,
        allow: vec![],
        deny: vec![],
        threats: ThreatAction::Flag,
        threat_severity: Severity::High,
        allow_threats: vec![],
        pin_new_tools: PinNew::Hold,
    }
}
