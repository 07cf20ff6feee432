//! One upstream's tool table: what the gateway last decided about each tool it has listed,
//! under one policy (the upstream's own, or one identity rule's). A later call is checked
//! against it; a background judgement or another upstream's change re-decides it.

use super::*;

/// The latest word on one listed tool.
#[derive(Clone, Debug)]
pub(super) struct ToolState {
    pub(super) definition: Option<ToolDefinition>,
    pub(super) siblings: Siblings,
    pub(super) scored: Option<Scored>,
    /// For a pinned upstream, whether this definition is approved.
    pub(super) pin: Option<PinStatus>,
    pub(super) decision: Decision,
    /// The definition as listed.
    pub(super) raw: Arc<str>,
    /// When a list last carried this tool.
    pub(super) listed_at: std::time::Instant,
    /// What the threat analysis read (the hashed definition), kept for cross-server checks.
    pub(super) analysed: Option<Arc<serde_json::Value>>,
    /// The definition's own findings (cached by hash beside the score).
    pub(super) threats: Findings,
    /// Findings against the other upstreams' tools, as of the last decision.
    pub(super) cross: Vec<Finding>,
    /// The latest other definition under this name that was hidden for what it is, and when
    /// a list last carried it: while that is within [`SPLIT_VIEW`], this one is held hidden
    /// too, by every decision (a list's and a re-decision's alike).
    pub(super) hidden_copy: Option<(String, std::time::Instant)>,
}

/// A decision that hides a definition for what it is (a deny, its score, a threat, a pin),
/// not for want of a list, a score yet, or another definition's verdict.
pub(super) fn hidden_for_itself(d: &Decision) -> bool {
    !d.visible
        && !matches!(d.hide_reason, None | Some(HideReason::Unlisted | HideReason::Pending | HideReason::SplitView))
}

impl ToolState {
    pub(super) fn findings(&self) -> impl Iterator<Item = &Finding> {
        self.threats.iter().chain(self.cross.iter())
    }

    pub(super) fn worst(&self) -> Option<Severity> {
        self.findings().map(|f| f.severity).max()
    }

    /// Hidden for what it is (a deny, its score, a threat, a pin), not for want of a list, a
    /// score yet, or another definition's verdict.
    pub(super) fn hidden_on_its_own(&self) -> bool {
        hidden_for_itself(&self.decision)
    }

    /// The hidden definition of this name this state holds others to: itself when hidden for
    /// what it is (as last listed), else the hidden copy it carries under another hash.
    pub(super) fn held_copy(&self) -> Option<(String, std::time::Instant)> {
        match self.hidden_on_its_own() {
            true => Some((self.hash(), self.listed_at)),
            false => self.hidden_copy.clone().filter(|(hash, _)| *hash != self.hash()),
        }
    }

    /// What a policy sees of this definition: its score's state, pin and worst finding.
    pub(super) fn seen(&self) -> Seen {
        match &self.scored {
            Some(s) => Seen::Listed { state: s.state, pin: self.pin, threat: self.worst() },
            None => Seen::unscorable(self.worst()),
        }
    }

    /// Hides this definition, if visible, while another one under its name was recently
    /// hidden for what it is ([`SPLIT_VIEW`]).
    pub(super) fn hold_if_shadowed(&mut self) {
        let shadowed =
            self.hidden_copy.as_ref().is_some_and(|(hash, seen)| seen.elapsed() < SPLIT_VIEW && *hash != self.hash());
        if self.decision.visible && shadowed {
            self.decision.visible = false;
            self.decision.hide_reason = Some(HideReason::SplitView);
        }
    }

    /// The definition's hash: the score's input hash, or (unscorable) the listed text's.
    pub(super) fn hash(&self) -> String {
        match &self.scored {
            Some(s) => s.score.context_signals.input_hash.clone(),
            None => raw_hash(&self.raw),
        }
    }
}

/// On a paginated upstream (where one answer is not the whole list), a tool no list has
/// carried for this long is taken as removed.
pub(super) const UNLISTED_AFTER: std::time::Duration = std::time::Duration::from_secs(600);

/// One upstream's policy and what it decided about each tool it has listed.
pub struct UpstreamTools {
    pub name: String,
    pub policy: Policy,
    /// The identity rule this view of the upstream's tools is for (`None`: its own policy,
    /// which also builds the server report).
    pub rule: Option<Arc<str>>,
    /// Whether what callers see depends on who they are (the upstream has identity rules):
    /// 2026-07-28 lists then say `cacheScope: "private"`.
    pub private_lists: bool,
    pub(super) tools: Mutex<HashMap<String, ToolState>>,
    /// Held while the gateway lists the upstream itself to learn an unknown tool; holds when
    /// such a listing last succeeded.
    pub(super) learning: tokio::sync::Mutex<Option<std::time::Instant>>,
    /// Rendered answers for tool arrays seen before (see [`Rendered`]), by [`prefix_key`].
    pub(super) rendered: Mutex<HashMap<u64, Vec<Arc<Rendered>>>>,
    /// The latest server-level report, rebuilt when the set of tool definitions changes.
    pub(super) report: Arc<Mutex<Option<Arc<ServerReport>>>>,
    pub(super) refusals: Mutex<std::collections::VecDeque<RefusedCall>>,
    /// Whether the upstream has ever answered with more than one page.
    pub(super) paginated: std::sync::atomic::AtomicBool,
    /// Hash of the last whole (single-page) list, whose tools are the ones that exist.
    pub(super) last_whole: std::sync::atomic::AtomicU64,
    /// Tools one list may carry (`max_list_tools`).
    pub(super) max_list_tools: usize,
    /// Every upstream's tool names (shared by the gateway), for cross-server findings.
    pub(super) roster: Arc<Roster>,
    /// For `pin_new_tools = "hold"`: 0 before the first listing, 1 during it, 2 after it.
    pub(super) pin_stage: std::sync::atomic::AtomicU8,
    /// When the first listing began: it ends with its last page, or after
    /// [`super::verdict::FIRST_LISTING`] whatever pages an upstream says are still to come.
    pub(super) first_listing_at: std::sync::OnceLock<std::time::Instant>,
    /// The other views of the same upstream (its policy's and each identity rule's): a
    /// definition one of them lists replaces what the others remember under that name.
    pub(super) other_views: std::sync::OnceLock<Vec<std::sync::Weak<UpstreamTools>>>,
    /// Findings in the server's latest `instructions`, and whether they were removed.
    pub(super) instructions: Mutex<Option<(Findings, bool)>>,
    /// For pinned upstreams, the latest approved definition seen of each tool name (hash,
    /// definition as listed), which a held new name is compared with.
    pub(super) approved_seen: Mutex<HashMap<String, (String, Arc<str>)>>,
    /// Definitions another view of this upstream listed that this view's policy hides for what
    /// they are, by name (hash, when listed): hidden copies this view has not listed itself,
    /// which hold its own copies of those names as its table's do ([`ToolState::hidden_copy`]).
    pub(super) carried: Mutex<HashMap<String, (String, std::time::Instant)>>,
}

/// Approved definitions remembered per upstream for the approval view.
pub(super) const APPROVED_KEPT: usize = 1000;

impl UpstreamTools {
    pub fn new(name: String, policy: Policy) -> Self {
        UpstreamTools {
            name,
            policy,
            rule: None,
            private_lists: false,
            tools: Mutex::new(HashMap::new()),
            learning: tokio::sync::Mutex::new(None),
            rendered: Mutex::new(HashMap::new()),
            report: Arc::default(),
            refusals: Mutex::default(),
            paginated: Default::default(),
            last_whole: Default::default(),
            max_list_tools: crate::config::limits::max_list_tools(),
            roster: Arc::default(),
            pin_stage: Default::default(),
            first_listing_at: Default::default(),
            other_views: Default::default(),
            instructions: Mutex::default(),
            approved_seen: Mutex::default(),
            carried: Mutex::default(),
        }
    }

    /// The same, with lists longer than `max` refused (enforce) or passed on unscored.
    pub fn with_max_list_tools(mut self, max: usize) -> Self {
        self.max_list_tools = max;
        self
    }

    /// The upstream's tools as callers matching identity rule `rule` see them.
    pub fn for_rule(name: String, policy: Policy, rule: &str) -> Self {
        UpstreamTools { rule: Some(Arc::from(rule)), private_lists: true, ..UpstreamTools::new(name, policy) }
    }

    /// Notes that a page (answered from the rendered cache) carried these tools again.
    pub(super) fn touch(&self, names: &[String]) {
        let now = std::time::Instant::now();
        let mut map = self.tools.lock();
        for name in names {
            if let Some(s) = map.get_mut(name) {
                s.listed_at = now;
            }
        }
    }

    /// The tools this view hides now, by name.
    pub fn hidden_tools(&self) -> Vec<String> {
        let map = self.tools.lock();
        let mut names: Vec<String> = map.iter().filter(|(_, s)| !s.decision.visible).map(|(n, _)| n.clone()).collect();
        names.sort();
        names
    }

    /// Whether a call to `tool` needs the gateway to list the upstream first: the policy
    /// enforces, the tool is not allow-listed, and no list carried it yet.
    pub fn needs_verdict(&self, tool: &str) -> bool {
        crate::policy::needs_listing(&self.policy, tool) && !self.tools.lock().contains_key(tool)
    }

    /// Makes sure the upstream was listed before a call to `tool` is decided: one learn at a
    /// time per upstream (calls arriving meanwhile wait for it, up to `wait`), and none again
    /// within [`RELEARN_AFTER`] of one that succeeded (a tool it did not carry is refused as
    /// unlisted). `Err` when the listing failed or the wait ran out: the call is refused.
    pub async fn await_verdict<F, Fut>(&self, tool: &str, wait: std::time::Duration, learn: F) -> Result<(), String>
    where
        F: FnOnce() -> Fut,
        Fut: std::future::Future<Output = Result<(), String>>,
    {
        if !self.needs_verdict(tool) {
            return Ok(());
        }
        let Ok(mut last_ok) = tokio::time::timeout(wait, self.learning.lock()).await else {
            return Err(format!("another listing of the server was still running after {} ms", wait.as_millis()));
        };
        if !self.needs_verdict(tool) || last_ok.is_some_and(|t| t.elapsed() < RELEARN_AFTER) {
            return Ok(());
        }
        match tokio::time::timeout(wait, learn()).await {
            Ok(Ok(())) => {
                *last_ok = Some(std::time::Instant::now());
                Ok(())
            }
            Ok(Err(e)) => Err(e),
            Err(_) => Err(format!("listing the server took more than {} ms", wait.as_millis())),
        }
    }

    /// Re-decides every remembered tool against the current scores (after a background
    /// judgement landed); says whether any tool's visibility changed and what was scored.
    /// Also the way cross-server findings are brought up to date when another upstream's
    /// tools changed.
    pub fn refresh(&self, scoring: &Arc<ScoringService>) -> Refreshed {
        let others = self.roster.others(&self.name);
        let hold_new = self.hold_new(scoring);
        let mut map = self.tools.lock();
        let own_names: Vec<String> = map.keys().cloned().collect();
        let cross_names = Self::cross_names(&own_names, &others);
        let mut changed = false;
        let mut rescored = Vec::new();
        for (name, state) in map.iter_mut() {
            let cross = self.cross_threats(state.analysed.as_deref(), &state.hash(), &cross_names, &others);
            report_new_cross(&self.name, name, Some(&state.cross), &cross);
            state.cross = cross;
            let Some(def) = &state.definition else {
                let was_visible = state.decision.visible;
                state.decision = decide_tool(&self.policy, name, Seen::unscorable(state.worst()));
                state.hold_if_shadowed();
                changed |= was_visible != state.decision.visible;
                continue;
            };
            let scored = scoring.score(&self.name, def, &state.siblings);
            rescored.push((name.clone(), scored.clone()));
            let hash = &scored.score.context_signals.input_hash;
            let pin = self.policy.pin.then(|| scoring.pins().check_or_hold(&self.name, name, hash, hold_new));
            let was_visible = state.decision.visible;
            state.decision =
                decide_tool(&self.policy, name, Seen::Listed { state: scored.state, pin, threat: state.worst() });
            state.scored = Some(scored);
            state.pin = pin;
            // A re-decision reads the definition alone; what another definition of the name
            // showed still holds (the watchers run these at any time, also just after a list).
            state.hold_if_shadowed();
            if was_visible != state.decision.visible {
                changed = true;
                if let Some(scored) = &state.scored {
                    log_decision(&self.name, self.rule.as_deref(), name, scored, &state.decision, pin);
                }
            }
            self.remember_approved(name, state);
        }
        Refreshed { visible_changed: changed, rescored }
    }
}
