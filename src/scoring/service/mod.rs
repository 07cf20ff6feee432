//! The scoring service behind the proxy: a score's identity is its definition hash plus the
//! spec version, the judge and the prompts; lookups go to memory (moka) first. With the
//! heuristic judge a miss is scored on the spot. With a model judge a miss gets the heuristic's
//! score at once (provisional) while one background call per key, bounded by the judge's
//! concurrency, fetches the real one; when it lands, listeners hear which upstream changed.
//! With a store, that call is made once across every gateway sharing it (see `fleet.rs`).
//! Coherence answers are kept the same way, by server name and the set of definitions.
//!
//! - `tools`: one tool's score (cached, heuristic, background judgement, re-score)
//! - `coherence`: a server's coherence judgement
//! - `sightings`: which definition each upstream lists under each name
//! - `store`: warming from the store, writing to it, flushing at shutdown, reloading pins

mod coherence;
mod sightings;
mod store;
mod tools;

pub use coherence::Coherence;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::{Notify, broadcast};

use crate::judge::{Judge, heuristic};
use crate::policy::ScoreState;
use crate::scoring::fleet::{Fleet, Obtained, OnceError};
use crate::scoring::pins::Pins;
use crate::scoring::siblings::Siblings;
use crate::store::writer::StoreWriter;
use crate::store::{Sighting, Store, StoredKey};
use crate::tdqs::SPEC_VERSION;
use crate::tdqs::answer::{CoherenceJudgement, parse_coherence_answer};
use crate::tdqs::definition::ToolDefinition;
use crate::tdqs::gates::Gate;
use crate::tdqs::prompt::coherence_inputs;
use crate::tdqs::signals::{ContextSignals, context_signals};
use crate::tdqs::tool_score::{Prepared, ToolScore};
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

pub struct ScoringService {
    judge: Judge,
    store: Option<(Arc<dyn Store>, StoreWriter)>,
    /// Claims on model calls, when there is a store and a model judge.
    fleet: Option<Fleet>,
    pins: Arc<Pins>,
    threats: crate::scoring::threats::ThreatCache,
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
    pub fn threats(&self) -> &crate::scoring::threats::ThreatCache {
        &self.threats
    }

    /// Something outside scoring (a pin approval) changed decisions about `upstream`.
    pub fn decisions_changed(&self, upstream: &str) {
        self.generation.fetch_add(1, std::sync::atomic::Ordering::AcqRel);
        let _ = self.changes.send(Arc::from(upstream));
    }

    fn build(
        judge: Judge,
        limits: CacheLimits,
        store: Option<(Arc<dyn Store>, StoreWriter)>,
        lease: Duration,
    ) -> Arc<Self> {
        let max_entries = limits.max_entries;
        let (finals_bytes, heuristics_bytes) = crate::scoring::weight::split(limits.max_bytes);
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
            threats: crate::scoring::threats::ThreatCache::new(max_entries),
            coherence: moka::sync::Cache::new(max_entries.min(10_000)),
            coherence_failed: moka::sync::Cache::builder().max_capacity(10_000).time_to_live(FAILURE_BACKOFF).build(),
            coherence_locks: Mutex::new(HashMap::new()),
            sightings: moka::sync::Cache::new(max_entries),
            finals: crate::scoring::weight::finals_cache(finals_bytes),
            heuristics: crate::scoring::weight::heuristics_cache(heuristics_bytes),
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
}
