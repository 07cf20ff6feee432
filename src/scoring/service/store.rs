//! The service and its store: warmed from it at start, scores and sightings written to it in
//! the background, flushed at shutdown, and approvals made elsewhere read back.

use super::*;

impl ScoringService {
    /// The store, when there is one.
    pub fn store(&self) -> Option<&Arc<dyn Store>> {
        self.store.as_ref().map(|(s, _)| s)
    }

    /// Reads approvals back from the store every few seconds; a change re-decides every
    /// upstream (cheap: only pinned ones look at pins).
    pub(super) fn reload_pins_periodically(self: Arc<Self>) {
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

    /// Keeps the texts of a pinned upstream's listed definitions (tool, hash, text) in the
    /// store, in the background, each once per process.
    pub fn keep_definition_texts(&self, upstream: &str, listed: &[(&str, &str, &str)]) {
        if let Some((_, writer)) = &self.store {
            writer.definition_texts(self.pins.texts_to_keep(upstream, listed));
        }
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

    /// The store's health, when there is a store.
    pub fn store_health(&self) -> Option<&crate::store::writer::StoreHealth> {
        self.store.as_ref().map(|(_, w)| &*w.health)
    }

    /// Loads this judge's stored scores into memory, newest first, up to `limit`.
    pub(super) fn warm(&self, limit: usize) {
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

    pub(super) fn stored_key(key: &ScoreKey) -> StoredKey {
        StoredKey {
            input_hash: key.input_hash.clone(),
            spec_version: key.spec_version.to_owned(),
            judge: key.judge.clone(),
            prompts_sha256: key.prompts_sha256.clone().unwrap_or_default(),
        }
    }

    /// The service's key for a stored key of the same rubric, judge and prompts.
    pub(super) fn key_of_stored(&self, k: &StoredKey) -> Option<ScoreKey> {
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
    pub(super) fn keep(&self, key: ScoreKey, score: Arc<ToolScore>) {
        if let Some((_, writer)) = &self.store
            && let Ok(json) = serde_json::to_value(&*score)
        {
            writer.score(Self::stored_key(&key), json);
        }
        self.finals.insert(key, score);
    }
}
