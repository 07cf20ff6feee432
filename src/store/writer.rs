//! Writes to the store without making anyone wait: a thread drains a bounded queue and writes
//! in batches. A failing store is reported (log, health flag) and the batch is kept to retry,
//! up to a bound, so scores catch up when the store comes back; nothing here can block or
//! crash proxying.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, TrySendError, sync_channel};

use super::{Sighting, Store, StoredKey};

/// Queued writes at most; past it the newest are dropped with a warning (they heal: a score
/// not stored is judged again after a restart, and sightings recur).
const QUEUE: usize = 10_000;
/// Pending writes kept across store failures.
const RETRY_LIMIT: usize = 50_000;

enum Write {
    Score(StoredKey, serde_json::Value),
    Sighting(Sighting),
}

/// Health as `/readyz` reports it.
#[derive(Default)]
pub struct StoreHealth {
    failing: AtomicBool,
    last_error: Mutex<Option<String>>,
}

impl StoreHealth {
    pub fn is_failing(&self) -> bool {
        self.failing.load(Ordering::Relaxed)
    }

    pub fn last_error(&self) -> Option<String> {
        self.last_error.lock().ok().and_then(|e| e.clone())
    }
}

/// The handle the scoring service and the proxy write through.
#[derive(Clone)]
pub struct StoreWriter {
    tx: SyncSender<Write>,
    pub health: Arc<StoreHealth>,
}

impl StoreWriter {
    pub fn start(store: Arc<dyn Store>) -> StoreWriter {
        let (tx, rx) = sync_channel(QUEUE);
        let health = Arc::new(StoreHealth::default());
        let h = health.clone();
        std::thread::Builder::new()
            .name("store-writer".into())
            .spawn(move || drain(store, rx, h))
            .map(|_| ())
            .unwrap_or_else(|e| tracing::error!(error = %e, "cannot start the store writer; scores stay in memory"));
        StoreWriter { tx, health }
    }

    pub fn score(&self, key: StoredKey, report: serde_json::Value) {
        self.send(Write::Score(key, report));
    }

    pub fn sighting(&self, s: Sighting) {
        self.send(Write::Sighting(s));
    }

    fn send(&self, w: Write) {
        if let Err(TrySendError::Full(_)) = self.tx.try_send(w) {
            tracing::warn!("store write queue full; a write was dropped");
        }
    }
}

fn drain(store: Arc<dyn Store>, rx: Receiver<Write>, health: Arc<StoreHealth>) {
    let mut scores: Vec<(StoredKey, serde_json::Value)> = Vec::new();
    let mut sightings: Vec<Sighting> = Vec::new();
    let mut backoff = Duration::from_millis(100);
    loop {
        // Gather a batch: wait for the first write, then take what else is queued.
        let wait = if scores.is_empty() && sightings.is_empty() { Duration::from_secs(3600) } else { backoff };
        match rx.recv_timeout(wait) {
            Ok(w) => push(w, &mut scores, &mut sightings),
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) if scores.is_empty() && sightings.is_empty() => return,
            Err(RecvTimeoutError::Disconnected) => {}
        }
        while let Ok(w) = rx.try_recv() {
            push(w, &mut scores, &mut sightings);
            if scores.len() + sightings.len() >= 512 {
                break;
            }
        }
        let result = store.put_scores(&scores).and_then(|_| store.record_sightings(&sightings));
        match result {
            Ok(()) => {
                scores.clear();
                sightings.clear();
                backoff = Duration::from_millis(100);
                if health.failing.swap(false, Ordering::Relaxed) {
                    tracing::info!("store is back; pending writes caught up");
                }
            }
            Err(e) => {
                if !health.failing.swap(true, Ordering::Relaxed) {
                    tracing::error!(error = %e, "store write failed; serving from memory and retrying");
                }
                if let Ok(mut last) = health.last_error.lock() {
                    *last = Some(e.to_string());
                }
                let excess = (scores.len() + sightings.len()).saturating_sub(RETRY_LIMIT);
                if excess > 0 {
                    sightings.drain(..excess.min(sightings.len()));
                }
                std::thread::sleep(backoff);
                backoff = (backoff * 2).min(Duration::from_secs(10));
            }
        }
    }
}

fn push(w: Write, scores: &mut Vec<(StoredKey, serde_json::Value)>, sightings: &mut Vec<Sighting>) {
    match w {
        Write::Score(k, v) => scores.push((k, v)),
        Write::Sighting(s) => sightings.push(s),
    }
}
