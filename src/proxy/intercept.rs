//! The gateway's two interventions: scoring a `tools/list` result and applying the policy to
//! it, and refusing `tools/call` for tools the policy hides. Per upstream it remembers each
//! listed tool's latest decision, which is what a later call is checked against.

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

use super::roster::Roster;
use super::threats::{definition_value, summary};

mod verdict;
use verdict::report_new_cross;

/// `ttlMs` ceiling on a 2026-07-28 list while any score in it is provisional.
const PROVISIONAL_TTL_MS: u64 = 5_000;

/// The latest word on one listed tool.
#[derive(Clone, Debug)]
struct ToolState {
    definition: Option<ToolDefinition>,
    siblings: Siblings,
    scored: Option<Scored>,
    /// For a pinned upstream, whether this definition is approved.
    pin: Option<PinStatus>,
    decision: Decision,
    /// The definition as listed.
    raw: Arc<str>,
    /// When a list last carried this tool.
    listed_at: std::time::Instant,
    /// What the threat analysis read (the hashed definition), kept for cross-server checks.
    analysed: Option<Arc<serde_json::Value>>,
    /// The definition's own findings (cached by hash beside the score).
    threats: Findings,
    /// Findings against the other upstreams' tools, as of the last decision.
    cross: Vec<Finding>,
}

impl ToolState {
    fn findings(&self) -> impl Iterator<Item = &Finding> {
        self.threats.iter().chain(self.cross.iter())
    }

    fn worst(&self) -> Option<Severity> {
        self.findings().map(|f| f.severity).max()
    }

    /// The definition's hash: the score's input hash, or (unscorable) the listed text's.
    fn hash(&self) -> String {
        match &self.scored {
            Some(s) => s.score.context_signals.input_hash.clone(),
            None => raw_hash(&self.raw),
        }
    }
}

/// One listed tool as the admin API shows it.
#[derive(Clone, Debug, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolView {
    pub name: String,
    pub visible: bool,
    /// Why it is hidden (or, in a dry run, would be).
    pub hide_reason: Option<HideReason>,
    /// `final`, `provisional`, `judge_failed` or `unscorable`.
    pub state: &'static str,
    /// The judge whose score this is.
    pub judge: Option<String>,
    pub pin: Option<PinStatus>,
    /// The report entry (scores, justifications, flags, smells, signals).
    pub score: Option<Arc<crate::tdqs::tool_score::ToolScore>>,
    /// The definition as listed (JSON), when it could be parsed.
    pub definition: Option<serde_json::Value>,
    /// Threat findings: the definition's own and those against other upstreams' tools.
    pub threats: Vec<Finding>,
}

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
const REFUSALS_KEPT: usize = 200;
/// On a paginated upstream (where one answer is not the whole list), a tool no list has
/// carried for this long is taken as removed.
const UNLISTED_AFTER: std::time::Duration = std::time::Duration::from_secs(600);

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
    tools: Mutex<HashMap<String, ToolState>>,
    /// Held while the gateway lists the upstream itself to learn an unknown tool; holds when
    /// such a listing last succeeded.
    learning: tokio::sync::Mutex<Option<std::time::Instant>>,
    /// Rendered answers for tool arrays seen before (see [`Rendered`]), by [`prefix_key`].
    rendered: Mutex<HashMap<u64, Vec<Arc<Rendered>>>>,
    /// The latest server-level report, rebuilt when the set of tool definitions changes.
    report: Arc<Mutex<Option<Arc<ServerReport>>>>,
    refusals: Mutex<std::collections::VecDeque<RefusedCall>>,
    /// Whether the upstream has ever answered with more than one page.
    paginated: std::sync::atomic::AtomicBool,
    /// Hash of the last whole (single-page) list, whose tools are the ones that exist.
    last_whole: std::sync::atomic::AtomicU64,
    /// Tools one list may carry (`max_list_tools`).
    max_list_tools: usize,
    /// Every upstream's tool names (shared by the gateway), for cross-server findings.
    roster: Arc<Roster>,
    /// For `pin_new_tools = "hold"`: 0 before the first listing, 1 during it, 2 after it.
    pin_stage: std::sync::atomic::AtomicU8,
    /// Findings in the server's latest `instructions`, and whether they were removed.
    instructions: Mutex<Option<(Findings, bool)>>,
    /// For pinned upstreams, the latest approved definition seen of each tool name (hash,
    /// definition as listed), which a held new name is compared with.
    approved_seen: Mutex<HashMap<String, (String, Arc<str>)>>,
}

/// Approved definitions remembered per upstream for the approval view.
const APPROVED_KEPT: usize = 1000;

/// Description quality, coherence and overall for everything this upstream has listed: the
/// same report `tdqs-gateway score` writes.
#[derive(Clone, Debug)]
pub struct ServerReport {
    /// Identifies the set of definitions (and score states) the report is about.
    pub definitions_key: u64,
    pub report: ScoreReport,
    pub coherence_judge: String,
}

/// What a `tools` array became, valid while the scoring generation is unchanged. A repeat
/// list (the common case) then costs a read of the envelope, a comparison and a splice.
struct Rendered {
    generation: (u64, u64),
    /// The upstream's array text, compared on a hit (the key only finds candidates).
    original: Arc<str>,
    /// Its hash, which names a whole list in `last_whole`.
    hash: u64,
    /// The array to send, or `None` when nothing changes.
    output: Option<Arc<str>>,
    ttl_cap: Option<u64>,
    /// Why each removed tool was removed (for the `tdqs.tools.hidden` counter).
    hidden: Arc<[HideReason]>,
    /// The names of the tools in the array.
    names: Arc<[String]>,
}

/// Distinct arrays remembered per upstream before the memory is cleared.
const RENDERED_ENTRIES: usize = 256;

/// Bytes of a message, from its `tools` array on, that find remembered renderings.
const PREFIX_BYTES: usize = 256;

/// The key of remembered renderings for a message whose `tools` array starts `from_tools`
/// (the array's length is not known before it is matched, so the key is a prefix's).
fn prefix_key(from_tools: &[u8]) -> u64 {
    xxhash_rust::xxh3::xxh3_64(&from_tools[..from_tools.len().min(PREFIX_BYTES)])
}

/// A `tools/call` the gateway answers itself: what the error says (the exchange adds the id).
pub struct Refusal {
    pub tool: String,
    pub reason: HideReason,
    pub message: String,
    pub data: serde_json::Value,
}

/// After a listing that succeeded, how long a call to a tool it did not carry is refused as
/// unlisted without listing again (a client calling made-up names cannot make the gateway
/// list the upstream more often than this).
const RELEARN_AFTER: std::time::Duration = std::time::Duration::from_secs(2);

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
            instructions: Mutex::default(),
            approved_seen: Mutex::default(),
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
    fn touch(&self, names: &[String]) {
        let now = std::time::Instant::now();
        let mut map = self.tools.lock();
        for name in names {
            if let Some(s) = map.get_mut(name) {
                s.listed_at = now;
            }
        }
    }

    /// Every listed tool with its score and the policy's decision, in name order.
    pub fn snapshot(&self) -> Vec<ToolView> {
        let map = self.tools.lock();
        let mut views: Vec<ToolView> = map
            .iter()
            .map(|(name, s)| ToolView {
                name: name.clone(),
                visible: s.decision.visible,
                hide_reason: s.decision.hide_reason,
                state: match s.scored.as_ref().map(|sc| sc.state) {
                    Some(ScoreState::Final(_)) => "final",
                    Some(ScoreState::Provisional(_)) => "provisional",
                    Some(ScoreState::JudgeFailed(_)) => "judge_failed",
                    Some(ScoreState::Unscorable) | None => "unscorable",
                },
                judge: s.scored.as_ref().map(|sc| sc.judge.clone()),
                pin: s.pin,
                score: s.scored.as_ref().map(|sc| sc.score.clone()),
                definition: serde_json::from_str(&s.raw).ok(),
                threats: s.findings().cloned().collect(),
            })
            .collect();
        views.sort_by(|a, b| a.name.cmp(&b.name));
        views
    }

    /// Judges the named tool (or every listed tool) again now; the new scores replace the old
    /// ones and the decisions follow. Returns how many tools were judged.
    pub async fn rescore(&self, scoring: &Arc<ScoringService>, tool: Option<&str>) -> Result<usize, String> {
        let targets: Vec<(ToolDefinition, Siblings)> = {
            let map = self.tools.lock();
            map.iter()
                .filter(|(name, _)| tool.is_none_or(|t| t == name.as_str()))
                .filter_map(|(_, s)| Some((s.definition.clone()?, s.siblings.clone())))
                .collect()
        };
        if let Some(t) = tool
            && targets.is_empty()
        {
            return Err(format!("upstream {:?} has listed no scorable tool named {t:?}", self.name));
        }
        if tool.is_none() {
            scoring.forget_coherence();
            *self.report.lock() = None;
        }
        for (def, siblings) in &targets {
            scoring.rescore(&self.name, def, siblings).await.map_err(|e| e.to_string())?;
        }
        self.refresh(scoring);
        self.refresh_report(scoring);
        Ok(targets.len())
    }

    /// The most recent refused calls, newest last.
    pub fn refused_calls(&self) -> Vec<RefusedCall> {
        self.refusals.lock().iter().cloned().collect()
    }

    /// The current definition hash of each listed tool (all, or the one named).
    pub fn current_hashes(&self, tool: Option<&str>) -> Vec<(String, String)> {
        let map = self.tools.lock();
        let mut out: Vec<(String, String)> = map
            .iter()
            .filter(|(name, _)| tool.is_none_or(|t| t == name.as_str()))
            .filter_map(|(name, s)| Some((name.clone(), s.scored.as_ref()?.score.context_signals.input_hash.clone())))
            .collect();
        out.sort();
        out
    }

    /// The latest server report, once one was built.
    pub fn report(&self) -> Option<Arc<ServerReport>> {
        self.report.lock().clone()
    }

    /// Rebuilds the server report in the background when the set of listed definitions is
    /// not the one the current report is about.
    fn refresh_report(&self, scoring: &Arc<ScoringService>) {
        if self.rule.is_some() {
            // The report does not depend on the policy: the upstream's own view builds it.
            return;
        }
        let (key, tools) = {
            let map = self.tools.lock();
            let mut entries: Vec<(&String, &ToolState)> = map.iter().filter(|(_, s)| s.definition.is_some()).collect();
            entries.sort_by(|a, b| a.0.cmp(b.0));
            let mut h = xxhash_rust::xxh3::Xxh3::new();
            for (name, s) in &entries {
                h.update(name.as_bytes());
                if let Some(sc) = &s.scored {
                    h.update(sc.score.context_signals.input_hash.as_bytes());
                    h.update(&[u8::from(sc.provisional())]);
                }
            }
            let tools: Vec<(ToolDefinition, Option<Arc<crate::tdqs::tool_score::ToolScore>>)> = entries
                .iter()
                .filter_map(|(_, s)| Some((s.definition.clone()?, s.scored.as_ref().map(|sc| sc.score.clone()))))
                .collect();
            (h.digest(), tools)
        };
        if self.report().is_some_and(|r| r.definitions_key == key) || tools.is_empty() {
            return;
        }
        let (slot, scoring, name) = (self.report.clone(), scoring.clone(), self.name.clone());
        // Kept with the stored report, so the findings outlive a restart beside it.
        let threats = crate::admin::threat_report::threats_json(self);
        tokio::spawn(async move {
            let report = build_report(&name, key, tools, &scoring).await;
            let server = &report.report.server_score;
            tracing::info!(
                upstream = %name,
                overall = ?server.overall_score.map(|s| s.to_string()),
                overall_tier = ?server.overall_tier,
                description_quality = ?server.description_quality_score.map(|s| s.to_string()),
                coherence = ?server.coherence_score.map(|s| s.to_string()),
                "server report updated"
            );
            crate::telemetry::server_report(&name, server);
            if let Ok(mut json) = serde_json::to_value(&report.report) {
                if let Some(obj) = json.as_object_mut() {
                    obj.insert("threats".to_owned(), threats);
                }
                scoring.store_server_report(&name, json);
            }
            *slot.lock() = Some(Arc::new(report));
        });
    }

    /// Scores every tool of a list response and applies the policy. Returns the bytes to send
    /// on, or `None` to forward the original bytes (nothing to change, or not a list result).
    pub async fn rewrite_list(&self, scoring: &Arc<ScoringService>, bytes: &[u8]) -> Option<Vec<u8>> {
        self.rewrite_answer(scoring, bytes, |_| true).await
    }

    /// [`rewrite_list`](Self::rewrite_list) for an answer whose id (its JSON text) `wanted`
    /// accepts; any other message is `None` at the cost of reading its envelope.
    pub async fn rewrite_answer(
        &self,
        scoring: &Arc<ScoringService>,
        bytes: &[u8],
        wanted: impl Fn(&str) -> bool,
    ) -> Option<Vec<u8>> {
        self.inspect_answer(scoring, bytes, wanted).await.flatten()
    }

    /// Like [`rewrite_answer`](Self::rewrite_answer), telling a list answer left as it was
    /// (`Some(None)`) from a message that is not a list answer (`None`).
    pub async fn inspect_answer(
        &self,
        scoring: &Arc<ScoringService>,
        bytes: &[u8],
        wanted: impl Fn(&str) -> bool,
    ) -> Option<Option<Vec<u8>>> {
        let generation = (scoring.generation(), self.roster.generation());
        let mut hit = None;
        let Some(list) = ListResult::parse_with(bytes, &wanted, |from_tools| {
            let found = self.remembered(from_tools, generation)?;
            let len = found.original.len();
            hit = Some(found);
            Some(len)
        }) else {
            return self.rewrite_instructions(scoring, bytes, &wanted).map(Some);
        };
        if list.has_next_page() {
            self.paginated.store(true, std::sync::atomic::Ordering::Relaxed);
        }
        let whole_list = !list.has_next_page() && !self.paginated.load(std::sync::atomic::Ordering::Relaxed);
        // A whole list other than the last one seen changes which tools exist: the full path.
        let last_whole = self.last_whole.load(std::sync::atomic::Ordering::Relaxed);
        if let Some(r) = hit.filter(|r| !whole_list || r.hash == last_whole) {
            crate::telemetry::metrics().list_answered(&self.name, r.names.len(), r.hidden.iter().map(|h| h.as_str()));
            if !whole_list {
                self.touch(&r.names);
            }
            let private = self.private_lists && list.shared_scope();
            return match &r.output {
                Some(tools) => Some(Some(list.with_tools_scoped(tools, r.ttl_cap, private))),
                None if private => Some(Some(list.with_tools_scoped(list.tools_text(), r.ttl_cap, true))),
                None => Some(None),
            };
        }
        if list.tools().len() > self.max_list_tools {
            use super::uninspected::{Reason, error_for, fails_closed, note};
            let refused = fails_closed(&self.policy);
            note(&self.name, Reason::TooManyTools, refused);
            return Some(refused.then(|| error_for(list.id_text(), &self.name, Reason::TooManyTools)));
        }
        Some(self.render_list(scoring, generation, whole_list, list).await)
    }

    /// The rendering remembered for the array `from_tools` starts with, if still current.
    fn remembered(&self, from_tools: &[u8], generation: (u64, u64)) -> Option<Arc<Rendered>> {
        let map = self.rendered.lock();
        let candidates = map.get(&prefix_key(from_tools))?;
        candidates.iter().find(|r| r.generation == generation && from_tools.starts_with(r.original.as_bytes())).cloned()
    }

    /// Scores each tool, decides, remembers the decisions and the rendering: a list not seen
    /// before, or seen before the scores last changed.
    async fn render_list(
        &self,
        scoring: &Arc<ScoringService>,
        generation: (u64, u64),
        whole_list: bool,
        list: ListResult<'_>,
    ) -> Option<Vec<u8>> {
        let text = list.tools_text();
        let hash = xxhash_rust::xxh3::xxh3_64(text.as_bytes());
        let original: Arc<str> = Arc::from(text);
        let parsed: Vec<Option<ToolDefinition>> = list
            .tools()
            .iter()
            .enumerate()
            .map(|(i, raw)| {
                let v = js::parse(raw.get().as_bytes()).ok()?;
                // A name that is not text (a lone surrogate) cannot be matched to the calls that
                // name it: the tool is unscorable, which enforce hides.
                tool_from_object(v.as_object()?, i + 1).ok().filter(|t| !t.name.has_lone_surrogate())
            })
            .collect();
        // One copy of the names for the whole list; each tool's siblings share it.
        let names: Arc<[JsString]> = parsed.iter().flatten().map(|t| t.name.clone()).collect();
        let own_names = self.own_names(list.tools().iter().filter_map(|r| raw_name(r.get())));
        let others = self.roster.others(&self.name);
        let hold_new = self.hold_new(scoring);
        let mut states = Vec::with_capacity(parsed.len());
        for (i, def) in parsed.into_iter().enumerate() {
            if i % 64 == 63 {
                // A long list is scored in slices, so the runtime's threads keep serving other
                // requests and signals (SIGTERM) while it is.
                tokio::task::yield_now().await;
            }
            let Some(def) = def else {
                let raw = list.tools()[i].get();
                let name = raw_name(raw).unwrap_or_default();
                // Unscorable is not unread: what a client could still show a model is analysed.
                let analysed = serde_json::from_str::<serde_json::Value>(raw).ok().map(Arc::new);
                let raw_hash = raw_hash(raw);
                let threats = self.own_threats(scoring, &name, &raw_hash, analysed.as_deref());
                let cross = self.cross_threats(analysed.as_deref(), &raw_hash, &own_names, &others);
                let worst = threats.iter().chain(&cross).map(|f| f.severity).max();
                let decision = decide(&self.policy, &name, ScoreState::Unscorable, None, worst);
                let state = ToolState {
                    definition: None,
                    siblings: Siblings::default(),
                    scored: None,
                    pin: None,
                    decision,
                    raw: Arc::from(raw),
                    listed_at: std::time::Instant::now(),
                    analysed,
                    threats,
                    cross,
                };
                states.push((name, state));
                continue;
            };
            let siblings = Siblings::new(names.clone(), def.name.clone());
            let started = std::time::Instant::now();
            let scored = if self.policy.pending == Pending::Wait && self.policy.mode != Mode::Observe {
                let wait = std::time::Duration::from_millis(self.policy.wait_ms);
                scoring.score_waiting(&self.name, &def, &siblings, wait).await
            } else {
                scoring.score(&self.name, &def, &siblings)
            };
            let name = def.name.to_string_lossy();
            let hash = &scored.score.context_signals.input_hash;
            scoring.record_sighting(&self.name, &name, hash);
            crate::telemetry::scored(&self.name, &name, &scored.facts(), started);
            let pin = self.policy.pin.then(|| scoring.pins().check_or_hold(&self.name, &name, hash, hold_new));
            let analysed = (self.policy.threats != ThreatAction::Off).then(|| Arc::new(definition_value(&def)));
            let threats = self.own_threats(scoring, &name, hash, analysed.as_deref());
            let cross = self.cross_threats(analysed.as_deref(), hash, &own_names, &others);
            let worst = threats.iter().chain(&cross).map(|f| f.severity).max();
            let decision = decide(&self.policy, &name, scored.state, pin, worst);
            let raw = Arc::from(list.tools()[i].get());
            let listed_at = std::time::Instant::now();
            let state = ToolState {
                definition: Some(def),
                siblings,
                scored: Some(scored),
                pin,
                decision,
                raw,
                listed_at,
                analysed,
                threats,
                cross,
            };
            states.push((name, state));
        }
        if !list.has_next_page() && !states.iter().any(|(_, s)| s.pin == Some(PinStatus::Unverified)) {
            // The first listing is over (all its pages): later names are new.
            self.pin_stage.store(2, std::sync::atomic::Ordering::Relaxed);
        }
        let actions: Vec<ToolAction> = states.iter().map(|(_, s)| action(s)).collect();
        let provisional = states.iter().any(|(_, s)| s.scored.as_ref().is_some_and(Scored::provisional));
        let hidden: Arc<[HideReason]> =
            states.iter().filter(|(_, s)| !s.decision.visible).filter_map(|(_, s)| s.decision.hide_reason).collect();
        crate::telemetry::metrics().list_answered(&self.name, actions.len(), hidden.iter().map(|h| h.as_str()));
        let names: Arc<[String]> = states.iter().map(|(n, _)| n.clone()).collect();
        if whole_list {
            self.last_whole.store(hash, std::sync::atomic::Ordering::Relaxed);
        }
        {
            let mut map = self.tools.lock();
            if whole_list {
                // What this answer does not carry, the upstream no longer has.
                let carried: std::collections::HashSet<&str> = states.iter().map(|(n, _)| n.as_str()).collect();
                map.retain(|name, _| carried.contains(name.as_str()));
            } else {
                map.retain(|_, s| s.listed_at.elapsed() < UNLISTED_AFTER);
            }
            for (name, state) in states {
                // Log a decision when it is new or changed, not on every list.
                let before = map.get(&name).map(|s| (s.decision, s.pin));
                if before != Some((state.decision, state.pin))
                    && let Some(scored) = &state.scored
                {
                    log_decision(&self.name, self.rule.as_deref(), &name, scored, &state.decision, state.pin);
                }
                report_new_cross(&self.name, &name, map.get(&name).map(|s| &s.cross[..]), &state.cross);
                self.remember_approved(&name, &state);
                map.insert(name, state);
            }
            let names: Vec<(String, String)> = map.iter().map(|(n, s)| (n.clone(), s.hash())).collect();
            drop(map);
            // Another upstream's cross-server findings may depend on these names.
            if self.roster.set(&self.name, names) {
                tracing::debug!(upstream = %self.name, "tool names changed; other upstreams are decided again");
            }
        }
        self.refresh_report(scoring);
        let ttl_cap = provisional.then_some(PROVISIONAL_TTL_MS);
        let output: Option<Arc<str>> =
            (!actions.iter().all(|a| *a == ToolAction::Keep)).then(|| Arc::from(list.rendered_tools(&actions)));
        let rendered = Rendered { generation, original, hash, output: output.clone(), ttl_cap, names, hidden };
        {
            let mut m = self.rendered.lock();
            if m.values().map(Vec::len).sum::<usize>() >= RENDERED_ENTRIES {
                m.clear();
            }
            let same = m.entry(prefix_key(list.from_tools())).or_default();
            same.retain(|r| r.original != rendered.original);
            same.push(Arc::new(rendered));
        }
        let private = self.private_lists && list.shared_scope();
        match output {
            Some(tools) => Some(list.with_tools_scoped(&tools, ttl_cap, private)),
            None if private => Some(list.with_tools_scoped(list.tools_text(), ttl_cap, true)),
            None => None,
        }
    }

    /// The tools this view hides now, by name.
    pub fn hidden_tools(&self) -> Vec<String> {
        let map = self.tools.lock();
        let mut names: Vec<String> = map.iter().filter(|(_, s)| !s.decision.visible).map(|(n, _)| n.clone()).collect();
        names.sort();
        names
    }

    /// The audit line of a list answered for an identity: who, under which rule, and which
    /// tools it does not get to see.
    pub fn audit_list(&self, p: &crate::auth::Principal) {
        let hidden = self.hidden_tools();
        if !hidden.is_empty() {
            tracing::info!(
                name: "tdqs.list_filtered",
                upstream = %self.name,
                rule = self.rule.as_deref(),
                subject = %p.subject,
                client_id = p.client_id.as_deref(),
                issuer = %p.issuer,
                hidden = ?hidden,
                "tools hidden from this caller"
            );
        }
    }

    /// Whether a call to `tool` needs the gateway to list the upstream first: the policy
    /// enforces, the tool is not allow-listed, and no list carried it yet.
    pub fn needs_verdict(&self, tool: &str) -> bool {
        let p = &self.policy;
        if p.mode != Mode::Enforce || p.dry_run || p.allow.iter().any(|a| a == tool) {
            return false;
        }
        !self.tools.lock().contains_key(tool)
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

    /// Records a refusal (log, metric, the admin API's list) and describes it.
    fn refusal(
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
        tracing::info!(
            name: "tdqs.call_refused",
            upstream = %self.name,
            tool = %tool,
            reason = reason.as_str(),
            tdqs = score.map(|s| s.as_f64()),
            minimum = self.policy.minimum.as_f64(),
            rule = self.rule.as_deref(),
            subject = caller.map(|p| p.subject.as_str()),
            client_id = caller.and_then(|p| p.client_id.as_deref()),
            issuer = caller.map(|p| p.issuer.as_str()),
            "call refused"
        );
        crate::telemetry::metrics().call_blocked(&self.name, reason.as_str(), self.rule.as_deref());
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
        Refusal { tool: tool.to_owned(), reason, message: text, data }
    }

    /// Why a call to a tool the gateway has not seen listed is refused, if it is.
    fn unlisted_reason(&self, tool: &str) -> Option<HideReason> {
        let p = &self.policy;
        if p.mode != Mode::Enforce || p.dry_run || p.allow.iter().any(|a| a == tool) {
            None
        } else if p.deny.iter().any(|d| d == tool) {
            Some(HideReason::Denied)
        } else {
            Some(HideReason::Unlisted)
        }
    }

    /// Re-decides every remembered tool against the current scores (after a background
    /// judgement landed); true when any tool's visibility changed.
    /// Also the way cross-server findings are brought up to date when another upstream's
    /// tools changed.
    pub fn refresh(&self, scoring: &Arc<ScoringService>) -> bool {
        let others = self.roster.others(&self.name);
        let hold_new = self.hold_new(scoring);
        let mut map = self.tools.lock();
        let own_names: Vec<String> = map.keys().cloned().collect();
        let mut changed = false;
        for (name, state) in map.iter_mut() {
            let cross = self.cross_threats(state.analysed.as_deref(), &state.hash(), &own_names, &others);
            report_new_cross(&self.name, name, Some(&state.cross), &cross);
            state.cross = cross;
            let Some(def) = &state.definition else {
                let decision = decide(&self.policy, name, ScoreState::Unscorable, None, state.worst());
                changed |= decision.visible != state.decision.visible;
                state.decision = decision;
                continue;
            };
            let scored = scoring.score(&self.name, def, &state.siblings);
            crate::telemetry::tool_scored(&self.name, name, &scored.facts());
            let hash = &scored.score.context_signals.input_hash;
            let pin = self.policy.pin.then(|| scoring.pins().check_or_hold(&self.name, name, hash, hold_new));
            let decision = decide(&self.policy, name, scored.state, pin, state.worst());
            if decision.visible != state.decision.visible {
                changed = true;
                log_decision(&self.name, self.rule.as_deref(), name, &scored, &decision, pin);
            }
            state.scored = Some(scored);
            state.pin = pin;
            state.decision = decision;
            self.remember_approved(name, state);
        }
        changed
    }
}

/// Rolls up the scored tools with the coherence of the set (the configured judge's, the
/// heuristic's when it fails) into the report `score` would write.
async fn build_report(
    server: &str,
    key: u64,
    tools: Vec<(ToolDefinition, Option<Arc<crate::tdqs::tool_score::ToolScore>>)>,
    scoring: &Arc<ScoringService>,
) -> ServerReport {
    let mut scores: Vec<crate::tdqs::tool_score::ToolScore> =
        tools.iter().filter_map(|(_, s)| s.as_ref().map(|s| (**s).clone())).collect();
    let definitions: Vec<ToolDefinition> = tools.into_iter().map(|(d, _)| d).collect();
    let coherence = scoring.coherence(server, &definitions).await;
    let (_, candidates) = crate::tdqs::prompt::coherence_inputs(&definitions);
    let server_score =
        crate::tdqs::server::rollup(definitions.len(), &mut scores, Some(&coherence.judgement), &candidates);
    let judge = scoring.judge();
    let report = ScoreReport {
        generated_at: humantime::format_rfc3339_millis(std::time::SystemTime::now()).to_string(),
        model: judge.identity(),
        judge: crate::scoring::JudgeStamp::of(judge),
        server: crate::tdqs::report::ServerSummary { name: server.to_owned(), tool_count: definitions.len() },
        server_score,
        spec_version: SPEC_VERSION,
        tools: scores,
    };
    ServerReport { definitions_key: key, report, coherence_judge: coherence.judge }
}

fn action(state: &ToolState) -> ToolAction {
    if !state.decision.visible {
        return ToolAction::Drop;
    }
    match (&state.scored, state.decision.annotate) {
        (Some(s), true) => {
            let mut meta = score_meta(s, state.pin);
            // Only when there are findings: a clean tool's annotation is what it always was.
            let findings: Vec<&Finding> = state.findings().collect();
            if !findings.is_empty()
                && let Some(obj) = meta.as_object_mut()
            {
                obj.insert("threats".to_owned(), summary(&findings));
            }
            ToolAction::Annotate(meta)
        }
        _ => ToolAction::Keep,
    }
}

/// The object written under `_meta["tdqs-gateway/score"]`; pinned tools also say whether
/// their definition is the approved one.
pub fn score_meta(s: &Scored, pin: Option<PinStatus>) -> serde_json::Value {
    let t = &s.score;
    let mut meta = json!({
        "tdqs": t.tdqs,
        "tier": t.tier,
        "flags": t.flags,
        "serverFlags": t.server_flags,
        "smells": t.smells,
        "inputHash": t.context_signals.input_hash,
        "judge": s.judge,
        "specVersion": SPEC_VERSION,
        "provisional": s.provisional(),
    });
    if let (Some(pin), Some(obj)) = (pin, meta.as_object_mut()) {
        obj.insert("pin".to_owned(), json!(pin));
    }
    meta
}

/// The identity of a definition the engine could not read: a hash of its listed text.
fn raw_hash(raw: &str) -> String {
    format!("raw-{:016x}", xxhash_rust::xxh3::xxh3_64(raw.as_bytes()))
}

fn raw_name(raw: &str) -> Option<String> {
    serde_json::from_str::<serde_json::Value>(raw).ok()?.get("name")?.as_str().map(str::to_owned)
}

fn log_decision(upstream: &str, rule: Option<&str>, tool: &str, scored: &Scored, d: &Decision, pin: Option<PinStatus>) {
    if pin == Some(PinStatus::Changed) {
        tracing::warn!(
            upstream,
            tool,
            hash = %scored.score.context_signals.input_hash,
            hidden = !d.visible,
            "pinned tool definition changed; approve it with `tdqs-gateway approve`"
        );
    }
    if let Some(reason) = d.hide_reason {
        tracing::info!(
            name: "tdqs.tool_hidden",
            upstream,
            rule,
            tool,
            tdqs = %scored.score.tdqs,
            tier = %scored.score.tier,
            reason = reason.as_str(),
            hidden = !d.visible,
            judge = %scored.judge,
            provisional = scored.provisional(),
            "tool hidden by policy"
        );
    } else {
        tracing::debug!(upstream, tool, tdqs = %scored.score.tdqs, provisional = scored.provisional(), "tool scored");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(names: &[&str], next: Option<&str>) -> Vec<u8> {
        let tools: Vec<serde_json::Value> =
            names.iter().map(|n| json!({"name": n, "description": format!("Reads {n} records by id.")})).collect();
        let mut result = json!({"tools": tools});
        if let Some(c) = next {
            result["nextCursor"] = json!(c);
        }
        json!({"jsonrpc": "2.0", "id": 1, "result": result}).to_string().into_bytes()
    }

    fn listed(u: &UpstreamTools) -> Vec<String> {
        u.snapshot().into_iter().map(|t| t.name).collect()
    }

    #[tokio::test]
    async fn a_whole_list_drops_the_tools_it_no_longer_carries() {
        let cfg = crate::config::Config::default();
        let u = UpstreamTools::new("u".into(), cfg.effective_policy(&Default::default()));
        let scoring = ScoringService::new(crate::judge::Judge::Heuristic, 100);
        u.rewrite_list(&scoring, &answer(&["a", "b", "c"], None)).await;
        assert_eq!(listed(&u), ["a", "b", "c"]);
        u.rewrite_list(&scoring, &answer(&["a", "b"], None)).await;
        assert_eq!(listed(&u), ["a", "b"]);
        // Back to the first list, answered from the rendered cache: c exists again.
        u.rewrite_list(&scoring, &answer(&["a", "b", "c"], None)).await;
        assert_eq!(listed(&u), ["a", "b", "c"]);
    }

    #[tokio::test]
    async fn pages_of_a_paginated_list_add_up() {
        let cfg = crate::config::Config::default();
        let u = UpstreamTools::new("u".into(), cfg.effective_policy(&Default::default()));
        let scoring = ScoringService::new(crate::judge::Judge::Heuristic, 100);
        u.rewrite_list(&scoring, &answer(&["a", "b"], Some("p2"))).await;
        u.rewrite_list(&scoring, &answer(&["c"], None)).await;
        assert_eq!(listed(&u), ["a", "b", "c"], "the last page is not the whole list");
    }
}

#[cfg(test)]
mod scale_tests {
    use super::*;

    fn big_answer(n: usize, id: &str) -> Vec<u8> {
        let tools: Vec<serde_json::Value> = (0..n)
            .map(|i| json!({"name": format!("get_record_{i}"), "description": format!("Reads record {i} by its id and returns its fields.")}))
            .collect();
        format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{{"tools":{}}}}}"#, serde_json::Value::from(tools)).into_bytes()
    }

    fn upstream(mode: Mode, max: usize) -> UpstreamTools {
        let cfg = crate::config::Config::default();
        let mut policy = cfg.effective_policy(&Default::default());
        policy.mode = mode;
        UpstreamTools::new("u".into(), policy).with_max_list_tools(max)
    }

    #[tokio::test]
    async fn a_list_keeps_one_copy_of_its_names() {
        let u = upstream(Mode::Annotate, 1_000);
        let scoring = ScoringService::new(crate::judge::Judge::Heuristic, 10_000);
        let out = u.rewrite_list(&scoring, &big_answer(200, "1")).await.expect("annotated");
        let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(v["result"]["tools"].as_array().unwrap().len(), 200);
        // Counting, not timing: every tool's siblings are views of one shared list of 200
        // names (before, each tool held its own copy: 200 x 199 names).
        let map = u.tools.lock();
        let first = map.values().next().unwrap().siblings.clone();
        assert!(map.values().all(|s| s.siblings.shares_list_with(&first)));
        assert_eq!(first.to_vec().len() + 1, 200);
    }

    #[tokio::test]
    async fn a_list_over_the_cap_is_refused_under_enforce_and_passed_otherwise() {
        let scoring = ScoringService::new(crate::judge::Judge::Heuristic, 10_000);
        let enforce = upstream(Mode::Enforce, 10);
        let out = enforce.rewrite_list(&scoring, &big_answer(11, "\"a\"")).await.expect("refused");
        let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(v["id"], "a");
        assert_eq!(v["error"]["data"]["reason"], "too_many_tools");
        assert!(enforce.snapshot().is_empty(), "nothing scored");
        assert!(enforce.rewrite_list(&scoring, &big_answer(10, "1")).await.is_some(), "at the cap: scored");
        let annotate = upstream(Mode::Annotate, 10);
        assert!(annotate.rewrite_list(&scoring, &big_answer(11, "1")).await.is_none(), "passed on unscored");
    }
}
