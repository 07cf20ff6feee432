//! The scoring service behind the proxy: a score's identity is its definition hash plus the
//! spec version, the judge and the prompts; lookups go to memory (moka) first. With the
//! heuristic judge a miss is scored on the spot. With a model judge a miss gets the heuristic's
//! score at once (provisional) while one background call per key, bounded by the judge's
//! concurrency, fetches the real one; when it lands, listeners hear which upstream changed.
//! With a store, that call is made once across every gateway sharing it (see `fleet.rs`).
//! Coherence answers are kept the same way, by server name and the set of definitions.
//!
//! Long: the cache, the background judgements, the fleet claims and the coherence call share
//! one key and one in-flight table; splitting them by responsibility is still to do.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::{Notify, broadcast};

use super::fleet::{Fetched, Fleet, OnceError};
use super::pins::Pins;
use super::siblings::Siblings;
use crate::judge::{Judge, heuristic};
use crate::policy::ScoreState;
use crate::store::writer::StoreWriter;
use crate::store::{Sighting, Store, StoredKey};
use crate::tdqs::SPEC_VERSION;
use crate::tdqs::answer::{CoherenceJudgement, parse_coherence_answer};
use crate::tdqs::definition::ToolDefinition;
use crate::tdqs::gates::{Gate, evaluate_gates};
use crate::tdqs::prompt::coherence_inputs;
use crate::tdqs::signals::{ContextSignals, context_signals};
use crate::tdqs::tool_score::{ToolScore, judged_score, no_description_score};
use crate::telemetry::{CacheResult, ScoreFacts};

/// How long a failed model call keeps a key from being retried.
const FAILURE_BACKOFF: Duration = Duration::from_secs(60);
/// How long a replica waits for another replica's judgement before leaving the key for later.
const FLEET_PATIENCE: Duration = Duration::from_secs(600);
/// How often approvals made elsewhere (the CLI, another replica) are read back.
const PIN_RELOAD: Duration = Duration::from_secs(5);

/// What makes two scores comparable: same definition, rubric, judge and prompts.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ScoreKey {
    pub input_hash: String,
    pub spec_version: &'static str,
    pub judge: String,
    pub prompts_sha256: Option<String>,
}

/// A tool's score as the policy sees it.
#[derive(Clone, Debug)]
pub struct Scored {
    pub score: Arc<ToolScore>,
    pub state: ScoreState,
    /// Identity of the judge that produced `score`.
    pub judge: String,
    /// Whether the score cache already held the score (for the scoring span).
    pub cache: CacheResult,
}

impl Scored {
    pub fn provisional(&self) -> bool {
        !matches!(self.state, ScoreState::Final(_))
    }

    /// The score as telemetry records it.
    pub fn facts(&self) -> ScoreFacts<'_> {
        ScoreFacts {
            tdqs: self.score.tdqs.as_f64(),
            tier: self.score.tier.as_str(),
            judge: &self.judge,
            provisional: self.provisional(),
            input_hash: &self.score.context_signals.input_hash,
            cache: self.cache,
        }
    }
}

/// A coherence answer and the identity of the judge that gave it.
#[derive(Clone, Debug)]
pub struct Coherence {
    pub judgement: Arc<CoherenceJudgement>,
    pub judge: String,
}

pub struct ScoringService {
    judge: Judge,
    store: Option<(Arc<dyn Store>, StoreWriter)>,
    /// Claims on model calls, when there is a store and a model judge.
    fleet: Option<Fleet>,
    pins: Arc<Pins>,
    threats: super::threats::ThreatCache,
    coherence: moka::sync::Cache<String, Coherence>,
    coherence_failed: moka::sync::Cache<String, ()>,
    /// One coherence judgement per key at a time in this process.
    coherence_locks: Mutex<HashMap<String, Arc<tokio::sync::Mutex<()>>>>,
    /// Last hash recorded per (upstream, tool), and when, to write sightings sparingly.
    sightings: moka::sync::Cache<(String, String), (String, std::time::Instant)>,
    finals: moka::sync::Cache<ScoreKey, Arc<ToolScore>>,
    heuristics: moka::sync::Cache<String, Arc<ToolScore>>,
    failed: moka::sync::Cache<ScoreKey, ()>,
    in_flight: Mutex<HashMap<ScoreKey, Arc<Notify>>>,
    /// Background judgements writing out their siblings at once (the judge's concurrency).
    sibling_slots: tokio::sync::Semaphore,
    changes: broadcast::Sender<Arc<str>>,
    /// Bumped whenever a background judgement lands: anything decided from scores before
    /// (a rendered list) is stale.
    generation: std::sync::atomic::AtomicU64,
}

/// How much the in-memory caches may hold: `max_entries` bounds the caches counted in entries
/// (sightings, coherence, failures) and the store warm-up; `max_bytes` the score caches
/// (see `weight.rs`).
#[derive(Clone, Copy, Debug)]
pub struct CacheLimits {
    pub max_entries: u64,
    pub max_bytes: u64,
}

impl CacheLimits {
    /// `max_entries` with the default byte cap.
    pub fn entries(max_entries: u64) -> Self {
        CacheLimits { max_entries, max_bytes: crate::config::CacheConfig::default().max_bytes }
    }
}

impl ScoringService {
    /// A service keeping scores in memory only.
    pub fn new(judge: Judge, max_entries: u64) -> Arc<Self> {
        Self::with_limits(judge, CacheLimits::entries(max_entries))
    }

    /// A service keeping scores in memory only, within `limits`.
    pub fn with_limits(judge: Judge, limits: CacheLimits) -> Arc<Self> {
        Self::build(judge, limits, None, Duration::from_secs(30))
    }

    /// The score caches' approximate bytes and entries (pending evictions applied first).
    pub fn cache_footprint(&self) -> (u64, u64) {
        self.finals.run_pending_tasks();
        self.heuristics.run_pending_tasks();
        (
            self.finals.weighted_size() + self.heuristics.weighted_size(),
            self.finals.entry_count() + self.heuristics.entry_count(),
        )
    }

    /// Pinned definitions.
    pub fn pins(&self) -> &Arc<Pins> {
        &self.pins
    }

    /// Threat findings, kept by definition hash beside the scores.
    pub fn threats(&self) -> &super::threats::ThreatCache {
        &self.threats
    }

    /// The store, when there is one.
    pub fn store(&self) -> Option<&Arc<dyn Store>> {
        self.store.as_ref().map(|(s, _)| s)
    }

    /// Something outside scoring (a pin approval) changed decisions about `upstream`.
    pub fn decisions_changed(&self, upstream: &str) {
        self.generation.fetch_add(1, std::sync::atomic::Ordering::AcqRel);
        let _ = self.changes.send(Arc::from(upstream));
    }

    /// Reads approvals back from the store every few seconds; a change re-decides every
    /// upstream (cheap: only pinned ones look at pins).
    fn reload_pins_periodically(self: Arc<Self>) {
        if tokio::runtime::Handle::try_current().is_err() {
            return;
        }
        let weak = Arc::downgrade(&self);
        drop(self);
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(PIN_RELOAD).await;
                let Some(svc) = weak.upgrade() else { return };
                let pins = svc.pins.clone();
                match tokio::task::spawn_blocking(move || pins.reload()).await {
                    Ok(Ok(true)) => svc.decisions_changed("*"),
                    Ok(Ok(false)) => {}
                    Ok(Err(e)) => tracing::debug!(error = %e, "cannot reload pins; keeping the ones in memory"),
                    Err(_) => {}
                }
            }
        });
    }

    /// Writes what is queued for the store (at shutdown), waiting at most `wait`, then lets
    /// the store make itself complete on disk.
    pub fn flush_store(&self, wait: Duration) -> bool {
        let Some((store, writer)) = &self.store else { return true };
        let flushed = writer.flush(wait);
        if let Err(e) = store.checkpoint() {
            tracing::warn!(error = %e, "store checkpoint at shutdown failed; the next start recovers it");
        }
        flushed
    }

    /// Keeps an upstream's latest server report in the store (in the background).
    pub fn store_server_report(&self, upstream: &str, report: serde_json::Value) {
        if let Some((_, writer)) = &self.store {
            writer.server_report(upstream.to_owned(), report);
        }
    }

    /// A service backed by a store: warmed from it now, written to in the background; model
    /// calls claimed in it for `lease` at a time.
    pub fn with_store(judge: Judge, max_entries: u64, store: Arc<dyn Store>, lease: Duration) -> Arc<Self> {
        Self::with_store_limits(judge, CacheLimits::entries(max_entries), store, lease)
    }

    /// [`with_store`](Self::with_store) within `limits`.
    pub fn with_store_limits(judge: Judge, limits: CacheLimits, store: Arc<dyn Store>, lease: Duration) -> Arc<Self> {
        let writer = StoreWriter::start(store.clone());
        let svc = Self::build(judge, limits, Some((store, writer)), lease);
        svc.warm(limits.max_entries as usize);
        svc.clone().reload_pins_periodically();
        svc
    }

    fn build(
        judge: Judge,
        limits: CacheLimits,
        store: Option<(Arc<dyn Store>, StoreWriter)>,
        lease: Duration,
    ) -> Arc<Self> {
        let max_entries = limits.max_entries;
        let (finals_bytes, heuristics_bytes) = super::weight::split(limits.max_bytes);
        let fleet = match (&judge, &store) {
            (Judge::Model { .. }, Some((s, _))) => Some(Fleet::new(s.clone(), lease, FLEET_PATIENCE)),
            _ => None,
        };
        let pins = Arc::new(Pins::new(store.as_ref().map(|(s, _)| s.clone())));
        let sibling_slots = tokio::sync::Semaphore::new(judge.concurrency());
        Arc::new(ScoringService {
            judge,
            store,
            fleet,
            pins,
            threats: super::threats::ThreatCache::new(max_entries),
            coherence: moka::sync::Cache::new(max_entries.min(10_000)),
            coherence_failed: moka::sync::Cache::builder().max_capacity(10_000).time_to_live(FAILURE_BACKOFF).build(),
            coherence_locks: Mutex::new(HashMap::new()),
            sightings: moka::sync::Cache::new(max_entries),
            finals: super::weight::finals_cache(finals_bytes),
            heuristics: super::weight::heuristics_cache(heuristics_bytes),
            failed: moka::sync::Cache::builder().max_capacity(max_entries).time_to_live(FAILURE_BACKOFF).build(),
            in_flight: Mutex::new(HashMap::new()),
            sibling_slots,
            changes: broadcast::channel(256).0,
            generation: std::sync::atomic::AtomicU64::new(0),
        })
    }

    pub fn judge(&self) -> &Judge {
        &self.judge
    }

    /// The store's health, when there is a store.
    pub fn store_health(&self) -> Option<&crate::store::writer::StoreHealth> {
        self.store.as_ref().map(|(_, w)| &*w.health)
    }

    /// Loads this judge's stored scores into memory, newest first, up to `limit`.
    fn warm(&self, limit: usize) {
        let Some((store, _)) = &self.store else { return };
        match store.scores_for_judge(&self.judge.identity(), limit) {
            Ok(rows) => {
                let mut n = 0;
                for (k, v) in rows {
                    if let (Some(key), Ok(score)) = (self.key_of_stored(&k), serde_json::from_value::<ToolScore>(v)) {
                        self.finals.insert(key, Arc::new(score));
                        n += 1;
                    }
                }
                tracing::info!(scores = n, judge = %self.judge.identity(), "scores loaded from the store");
            }
            Err(e) => tracing::error!(error = %e, "cannot read scores from the store; starting from memory"),
        }
    }

    fn stored_key(key: &ScoreKey) -> StoredKey {
        StoredKey {
            input_hash: key.input_hash.clone(),
            spec_version: key.spec_version.to_owned(),
            judge: key.judge.clone(),
            prompts_sha256: key.prompts_sha256.clone().unwrap_or_default(),
        }
    }

    /// The service's key for a stored key of the same rubric, judge and prompts.
    fn key_of_stored(&self, k: &StoredKey) -> Option<ScoreKey> {
        let prompts = self.judge.prompts().map(|p| p.tool_scoring_sha256.clone()).unwrap_or_default();
        (k.spec_version == SPEC_VERSION && k.judge == self.judge.identity() && k.prompts_sha256 == prompts).then(|| {
            ScoreKey {
                input_hash: k.input_hash.clone(),
                spec_version: SPEC_VERSION,
                judge: k.judge.clone(),
                prompts_sha256: self.judge.prompts().map(|p| p.tool_scoring_sha256.clone()),
            }
        })
    }

    /// Keeps a final score in memory and, in the background, in the store.
    fn keep(&self, key: ScoreKey, score: Arc<ToolScore>) {
        if let Some((_, writer)) = &self.store
            && let Ok(json) = serde_json::to_value(&*score)
        {
            writer.score(Self::stored_key(&key), json);
        }
        self.finals.insert(key, score);
    }

    /// Notes that `upstream` lists `tool` with definition `hash`: a new hash for a known name
    /// is logged as a definition change; sightings reach the store at most once a minute per
    /// unchanged definition.
    pub fn record_sighting(&self, upstream: &str, tool: &str, hash: &str) {
        let now = std::time::Instant::now();
        let key = (upstream.to_owned(), tool.to_owned());
        let write = match self.sightings.get(&key) {
            Some((h, at)) if h == hash && now.duration_since(at) < Duration::from_secs(60) => false,
            previous => {
                if let Some((old, _)) = previous.filter(|(h, _)| h != hash) {
                    tracing::info!(upstream, tool, old_hash = %old, new_hash = %hash, "tool definition changed");
                    crate::telemetry::metrics().definition_changed(upstream);
                }
                self.sightings.insert(key, (hash.to_owned(), now));
                true
            }
        };
        if write && let Some((_, writer)) = &self.store {
            let ms = crate::store::now_ms();
            writer.sighting(Sighting {
                upstream: upstream.to_owned(),
                tool: tool.to_owned(),
                input_hash: hash.to_owned(),
                first_seen: ms,
                last_seen: ms,
            });
        }
    }

    /// The current scoring generation (see the field).
    pub fn generation(&self) -> u64 {
        self.generation.load(std::sync::atomic::Ordering::Acquire)
    }

    /// Names of upstreams whose scores changed after a background judgement.
    pub fn subscribe(&self) -> broadcast::Receiver<Arc<str>> {
        self.changes.subscribe()
    }

    fn key(&self, signals: &ContextSignals) -> ScoreKey {
        ScoreKey {
            input_hash: signals.input_hash.clone(),
            spec_version: SPEC_VERSION,
            judge: self.judge.identity(),
            prompts_sha256: self.judge.prompts().map(|p| p.tool_scoring_sha256.clone()),
        }
    }

    /// Scores without waiting: a cached or heuristic answer now, a model call in the background.
    pub fn score(self: &Arc<Self>, upstream: &str, tool: &ToolDefinition, siblings: &Siblings) -> Scored {
        let signals = context_signals(tool);
        let gate = evaluate_gates(tool);
        let key = self.key(&signals);
        if let Some(s) = self.finals.get(&key) {
            crate::telemetry::metrics().cache_lookup(CacheResult::Hit);
            return final_scored(s, &key.judge, CacheResult::Hit);
        }
        crate::telemetry::metrics().cache_lookup(CacheResult::Miss);
        let heuristic = self.heuristic(tool, &signals, gate, siblings);
        if matches!(self.judge, Judge::Heuristic) || gate == Gate::NoDescription {
            // Nothing to wait for: the heuristic is the judge, or no judge is needed.
            self.keep(key.clone(), heuristic.clone());
            return final_scored(heuristic, &key.judge, CacheResult::Miss);
        }
        let state = if self.failed.contains_key(&key) {
            ScoreState::JudgeFailed(heuristic.tdqs)
        } else {
            self.start(upstream, key, tool, siblings, signals, gate);
            ScoreState::Provisional(heuristic.tdqs)
        };
        Scored { score: heuristic, state, judge: heuristic::HEURISTIC_JUDGE_ID.to_owned(), cache: CacheResult::Miss }
    }

    /// Like [`score`](Self::score), but waits up to `wait` for a pending model answer.
    pub async fn score_waiting(
        self: &Arc<Self>,
        upstream: &str,
        tool: &ToolDefinition,
        siblings: &Siblings,
        wait: Duration,
    ) -> Scored {
        let first = self.score(upstream, tool, siblings);
        if !matches!(first.state, ScoreState::Provisional(_)) {
            return first;
        }
        let key = self.key(&first.score.context_signals);
        let notify = self.in_flight.lock().ok().and_then(|m| m.get(&key).cloned());
        if let Some(n) = notify {
            let notified = n.notified();
            if !self.finals.contains_key(&key) && !self.failed.contains_key(&key) {
                let _ = tokio::time::timeout(wait, notified).await;
            }
        }
        self.score(upstream, tool, siblings)
    }

    fn heuristic(
        &self,
        tool: &ToolDefinition,
        signals: &ContextSignals,
        gate: Gate,
        siblings: &Siblings,
    ) -> Arc<ToolScore> {
        if let Some(s) = self.heuristics.get(&signals.input_hash) {
            return s;
        }
        let score = Arc::new(match gate {
            Gate::NoDescription => no_description_score(&tool.name, signals.clone()),
            _ => judged_score(
                &tool.name,
                signals.clone(),
                gate,
                &heuristic::judge_tool(tool, signals, &siblings.to_vec()),
            ),
        });
        self.heuristics.insert(signals.input_hash.clone(), score.clone());
        score
    }

    /// Starts one background judgement per key; later callers find it in flight.
    fn start(
        self: &Arc<Self>,
        upstream: &str,
        key: ScoreKey,
        tool: &ToolDefinition,
        siblings: &Siblings,
        signals: ContextSignals,
        gate: Gate,
    ) {
        let notify = Arc::new(Notify::new());
        {
            let Ok(mut map) = self.in_flight.lock() else { return };
            if map.contains_key(&key) {
                return;
            }
            map.insert(key.clone(), notify.clone());
        }
        let (svc, upstream, tool, siblings) =
            (self.clone(), Arc::<str>::from(upstream), tool.clone(), siblings.clone());
        tokio::spawn(async move {
            let judge = async {
                // The names are written out only while one of the judge's slots is held, so
                // a big list's pending judgements do not each hold a copy of the list.
                let _slot = svc.sibling_slots.acquire().await;
                let name = tool.name.to_string_lossy();
                let names = siblings.to_vec();
                let call = svc.judge.score_tool(&tool, signals, gate, &names);
                let score = super::timed::timed(&svc.judge, "judge tool", Some(&name), call).await?;
                serde_json::to_value(&score).map_err(|e| crate::judge::JudgeError::Setup(e.to_string()))
            };
            let outcome = match &svc.fleet {
                // Once across the fleet: the store may hold it (a restart, another replica),
                // or another replica may be judging it right now.
                Some(fleet) => {
                    let (lookup_key, save_key) = (Self::stored_key(&key), Self::stored_key(&key));
                    let claim = format!(
                        "tool:{}:{}:{}:{}",
                        key.input_hash, key.spec_version, key.judge, save_key.prompts_sha256
                    );
                    fleet
                        .once(
                            &claim,
                            Arc::new(move |s: &dyn Store| s.get_score(&lookup_key)),
                            judge,
                            Box::new(move |s: &dyn Store, v: &serde_json::Value| {
                                s.put_scores(&[(save_key, v.clone())])
                            }),
                        )
                        .await
                }
                None => judge.await.map(Fetched::Judged).map_err(OnceError::from),
            };
            if matches!(outcome, Ok(Fetched::Stored(_))) {
                crate::telemetry::metrics().cache_lookup(CacheResult::Store);
            }
            match outcome {
                Ok(Fetched::Stored(v) | Fetched::Judged(v)) => match serde_json::from_value::<ToolScore>(v) {
                    Ok(score) => {
                        svc.finals.insert(key.clone(), Arc::new(score));
                    }
                    Err(e) => tracing::warn!(hash = %key.input_hash, error = %e, "a stored score does not read back"),
                },
                Err(OnceError::StillClaimed) => {
                    tracing::info!(upstream = %upstream, tool = %tool.name, "another gateway is still judging this tool");
                }
                Err(OnceError::Judge(e)) => {
                    tracing::warn!(name: "tdqs.judge_failed", upstream = %upstream, tool = %tool.name, judge = %key.judge, error = %e, "judge failed; the heuristic score stands in");
                    svc.failed.insert(key.clone(), ());
                }
            }
            svc.finish(&key, &notify, upstream);
        });
    }

    /// Judges `tool` again now with the configured judge, replacing the stored score (an
    /// operator asked). Waits for the answer; listeners hear about the change.
    pub async fn rescore(
        self: &Arc<Self>,
        upstream: &str,
        tool: &ToolDefinition,
        siblings: &Siblings,
    ) -> Result<Scored, crate::judge::JudgeError> {
        let signals = context_signals(tool);
        let gate = evaluate_gates(tool);
        let key = self.key(&signals);
        let score = match gate {
            Gate::NoDescription => no_description_score(&tool.name, signals),
            _ => {
                let name = tool.name.to_string_lossy();
                let names = siblings.to_vec();
                let call = self.judge.score_tool(tool, signals, gate, &names);
                super::timed::timed(&self.judge, "judge tool", Some(&name), call).await?
            }
        };
        let score = Arc::new(score);
        self.failed.invalidate(&key);
        self.keep(key.clone(), score.clone());
        self.generation.fetch_add(1, std::sync::atomic::Ordering::AcqRel);
        let _ = self.changes.send(Arc::from(upstream));
        Ok(final_scored(score, &key.judge, CacheResult::Miss))
    }

    /// Forgets the coherence answers kept in memory, so the next report judges the set again
    /// (an operator asked for a re-score of a server).
    pub fn forget_coherence(&self) {
        self.coherence.invalidate_all();
        self.coherence_failed.invalidate_all();
    }

    /// A background judgement is over: wake waiters, tell listeners.
    fn finish(&self, key: &ScoreKey, notify: &Notify, upstream: Arc<str>) {
        self.generation.fetch_add(1, std::sync::atomic::Ordering::AcqRel);
        if let Ok(mut map) = self.in_flight.lock() {
            map.remove(key);
        }
        notify.notify_waiters();
        let _ = self.changes.send(upstream);
    }
}

impl ScoringService {
    /// The coherence of a set of definitions: from memory, the store, or one judge call (one
    /// per key across a fleet); the heuristic's when the model fails (retried after a while).
    pub async fn coherence(&self, server: &str, definitions: &[ToolDefinition]) -> Coherence {
        let (costed, candidates) = coherence_inputs(definitions);
        let heuristic = || Coherence {
            judgement: Arc::new(heuristic::judge_coherence(server, &costed, &candidates)),
            judge: heuristic::HEURISTIC_JUDGE_ID.to_owned(),
        };
        if matches!(self.judge, Judge::Heuristic) {
            return heuristic();
        }
        let key = self.coherence_key(server, definitions);
        if let Some(c) = self.coherence.get(&key) {
            return c;
        }
        if self.coherence_failed.contains_key(&key) {
            return heuristic();
        }
        let lock = {
            let mut locks = self.coherence_locks.lock().unwrap_or_else(|e| e.into_inner());
            locks.entry(key.clone()).or_default().clone()
        };
        let _turn = lock.lock().await;
        if let Some(c) = self.coherence.get(&key) {
            return c;
        }
        if self.coherence_failed.contains_key(&key) {
            return heuristic();
        }
        let judge = async {
            let call = self.judge.judge_coherence(server, &costed, &candidates);
            let c = super::timed::timed(&self.judge, "judge coherence", None, call).await?;
            Ok(c.to_answer())
        };
        let outcome = match &self.fleet {
            Some(fleet) => {
                let (k1, k2, srv) = (key.clone(), key.clone(), server.to_owned());
                fleet
                    .once(
                        &format!("coherence:{key}"),
                        Arc::new(move |s: &dyn Store| s.get_coherence(&k1)),
                        judge,
                        Box::new(move |s: &dyn Store, v: &serde_json::Value| s.put_coherence(&k2, &srv, v)),
                    )
                    .await
            }
            None => judge.await.map(Fetched::Judged).map_err(OnceError::from),
        };
        let result = match outcome {
            Ok(Fetched::Stored(v) | Fetched::Judged(v)) => match parse_coherence_answer(&v.to_string()) {
                Ok(j) => {
                    let c = Coherence { judgement: Arc::new(j), judge: self.judge.identity() };
                    self.coherence.insert(key.clone(), c.clone());
                    c
                }
                Err(e) => {
                    tracing::warn!(upstream = server, error = %e, "a stored coherence answer does not read back");
                    heuristic()
                }
            },
            Err(OnceError::StillClaimed) => heuristic(),
            Err(OnceError::Judge(e)) => {
                tracing::warn!(upstream = server, error = %e, "coherence judge failed; the heuristic stands in");
                self.coherence_failed.insert(key.clone(), ());
                heuristic()
            }
        };
        self.coherence_locks.lock().unwrap_or_else(|e| e.into_inner()).remove(&key);
        result
    }

    /// Server name, the sorted definition hashes, the rubric, the judge and its prompt.
    fn coherence_key(&self, server: &str, definitions: &[ToolDefinition]) -> String {
        use sha2::Digest;
        let mut hashes: Vec<String> = definitions.iter().map(|d| context_signals(d).input_hash).collect();
        hashes.sort();
        let mut h = sha2::Sha256::new();
        for part in [server, SPEC_VERSION, &self.judge.identity()] {
            h.update(part.as_bytes());
            h.update([0]);
        }
        if let Some(p) = self.judge.prompts() {
            h.update(p.coherence_sha256.as_bytes());
        }
        for hash in &hashes {
            h.update([0]);
            h.update(hash.as_bytes());
        }
        h.finalize().iter().map(|b| format!("{b:02x}")).collect()
    }
}

fn final_scored(score: Arc<ToolScore>, judge: &str, cache: CacheResult) -> Scored {
    Scored { state: ScoreState::Final(score.tdqs), score, judge: judge.to_owned(), cache }
}
