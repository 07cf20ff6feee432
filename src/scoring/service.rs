//! The scoring service behind the proxy: a score's identity is its definition hash plus the
//! spec version, the judge and the prompts; lookups go to memory (moka) first. With the
//! heuristic judge a miss is scored on the spot. With a model judge a miss gets the heuristic's
//! score at once (provisional) while one background call per key, bounded by the judge's
//! concurrency, fetches the real one; when it lands, listeners hear which upstream changed.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::{Notify, broadcast};

use crate::judge::{Judge, heuristic};
use crate::policy::ScoreState;
use crate::store::writer::StoreWriter;
use crate::store::{Sighting, Store, StoredKey};
use crate::tdqs::SPEC_VERSION;
use crate::tdqs::definition::ToolDefinition;
use crate::tdqs::gates::{Gate, evaluate_gates};
use crate::tdqs::json::JsString;
use crate::tdqs::signals::{ContextSignals, context_signals};
use crate::tdqs::tool_score::{ToolScore, judged_score, no_description_score};

/// How long a failed model call keeps a key from being retried.
const FAILURE_BACKOFF: Duration = Duration::from_secs(60);

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
}

impl Scored {
    pub fn provisional(&self) -> bool {
        !matches!(self.state, ScoreState::Final(_))
    }
}

pub struct ScoringService {
    judge: Judge,
    store: Option<(Arc<dyn Store>, StoreWriter)>,
    /// Last hash recorded per (upstream, tool), and when, to write sightings sparingly.
    sightings: Mutex<HashMap<(String, String), (String, std::time::Instant)>>,
    finals: moka::sync::Cache<ScoreKey, Arc<ToolScore>>,
    heuristics: moka::sync::Cache<String, Arc<ToolScore>>,
    failed: moka::sync::Cache<ScoreKey, ()>,
    in_flight: Mutex<HashMap<ScoreKey, Arc<Notify>>>,
    changes: broadcast::Sender<Arc<str>>,
    /// Bumped whenever a background judgement lands: anything decided from scores before
    /// (a rendered list) is stale.
    generation: std::sync::atomic::AtomicU64,
}

impl ScoringService {
    /// A service keeping scores in memory only.
    pub fn new(judge: Judge, max_entries: u64) -> Arc<Self> {
        Self::build(judge, max_entries, None)
    }

    /// A service backed by a store: warmed from it now, written to in the background.
    pub fn with_store(judge: Judge, max_entries: u64, store: Arc<dyn Store>) -> Arc<Self> {
        let writer = StoreWriter::start(store.clone());
        let svc = Self::build(judge, max_entries, Some((store, writer)));
        svc.warm(max_entries as usize);
        svc
    }

    fn build(judge: Judge, max_entries: u64, store: Option<(Arc<dyn Store>, StoreWriter)>) -> Arc<Self> {
        Arc::new(ScoringService {
            judge,
            store,
            sightings: Mutex::new(HashMap::new()),
            finals: moka::sync::Cache::new(max_entries),
            heuristics: moka::sync::Cache::new(max_entries),
            failed: moka::sync::Cache::builder().max_capacity(max_entries).time_to_live(FAILURE_BACKOFF).build(),
            in_flight: Mutex::new(HashMap::new()),
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
        let write = {
            let Ok(mut seen) = self.sightings.lock() else { return };
            let entry = seen.get(&(upstream.to_owned(), tool.to_owned())).cloned();
            match entry {
                Some((h, at)) if h == hash && now.duration_since(at) < Duration::from_secs(60) => false,
                previous => {
                    if let Some((old, _)) = previous.filter(|(h, _)| h != hash) {
                        tracing::info!(upstream, tool, old_hash = %old, new_hash = %hash, "tool definition changed");
                    }
                    seen.insert((upstream.to_owned(), tool.to_owned()), (hash.to_owned(), now));
                    true
                }
            }
        };
        if write && let Some((_, writer)) = &self.store {
            let ms = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_millis() as i64)
                .unwrap_or(0);
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
    pub fn score(self: &Arc<Self>, upstream: &str, tool: &ToolDefinition, siblings: &[JsString]) -> Scored {
        let signals = context_signals(tool);
        let gate = evaluate_gates(tool);
        let key = self.key(&signals);
        if let Some(s) = self.finals.get(&key) {
            crate::telemetry::metrics().cache_lookup(crate::telemetry::CacheResult::Hit);
            return final_scored(s, &key.judge);
        }
        crate::telemetry::metrics().cache_lookup(crate::telemetry::CacheResult::Miss);
        let heuristic = self.heuristic(tool, &signals, gate, siblings);
        if matches!(self.judge, Judge::Heuristic) || gate == Gate::NoDescription {
            // Nothing to wait for: the heuristic is the judge, or no judge is needed.
            self.keep(key.clone(), heuristic.clone());
            return final_scored(heuristic, &key.judge);
        }
        let state = if self.failed.contains_key(&key) {
            ScoreState::JudgeFailed(heuristic.tdqs)
        } else {
            self.start(upstream, key, tool, siblings, signals, gate);
            ScoreState::Provisional(heuristic.tdqs)
        };
        Scored { score: heuristic, state, judge: heuristic::HEURISTIC_JUDGE_ID.to_owned() }
    }

    /// Like [`score`](Self::score), but waits up to `wait` for a pending model answer.
    pub async fn score_waiting(
        self: &Arc<Self>,
        upstream: &str,
        tool: &ToolDefinition,
        siblings: &[JsString],
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
        siblings: &[JsString],
    ) -> Arc<ToolScore> {
        if let Some(s) = self.heuristics.get(&signals.input_hash) {
            return s;
        }
        let score = Arc::new(match gate {
            Gate::NoDescription => no_description_score(&tool.name, signals.clone()),
            _ => judged_score(&tool.name, signals.clone(), gate, &heuristic::judge_tool(tool, signals, siblings)),
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
        siblings: &[JsString],
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
            (self.clone(), Arc::<str>::from(upstream), tool.clone(), siblings.to_vec());
        tokio::spawn(async move {
            // The store first: a restart or another replica may have judged this already.
            if let Some((store, _)) = &svc.store {
                let (store, stored_key) = (store.clone(), Self::stored_key(&key));
                let found = tokio::task::spawn_blocking(move || store.get_score(&stored_key)).await;
                if let Ok(Ok(Some(v))) = found
                    && let Ok(score) = serde_json::from_value::<ToolScore>(v)
                {
                    crate::telemetry::metrics().cache_lookup(crate::telemetry::CacheResult::Store);
                    svc.finals.insert(key.clone(), Arc::new(score));
                    svc.finish(&key, &notify, upstream);
                    return;
                }
            }
            match svc.judge.judge_tool(&tool, &signals, &siblings).await {
                Ok(j) => {
                    let score = judged_score(&tool.name, signals, gate, &j);
                    svc.keep(key.clone(), Arc::new(score));
                }
                Err(e) => {
                    tracing::warn!(name: "tdqs.judge_failed", upstream = %upstream, tool = %tool.name, judge = %key.judge, error = %e, "judge failed; the heuristic score stands in");
                    svc.failed.insert(key.clone(), ());
                }
            }
            svc.finish(&key, &notify, upstream);
        });
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

fn final_scored(score: Arc<ToolScore>, judge: &str) -> Scored {
    Scored { state: ScoreState::Final(score.tdqs), score, judge: judge.to_owned() }
}
