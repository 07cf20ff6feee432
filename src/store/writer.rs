//! Writes to the store without making anyone wait: a thread drains a bounded queue and writes
//! in batches. A failing store is reported (log, health flag) and the batch is kept to retry,
//! up to a bound, so scores catch up when the store comes back; nothing here can block or
//! crash proxying.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, TrySendError, sync_channel};

use super::{DefinitionText, Sighting, Store, StoredKey};

/// Queued writes at most; past it the newest are dropped with a warning (they heal: a score
/// not stored is judged again after a restart, and sightings recur).
const QUEUE: usize = 10_000;
/// Pending writes kept across store failures.
const RETRY_LIMIT: usize = 50_000;

enum Write {
    Score(StoredKey, serde_json::Value),
    Sighting(Sighting),
    ServerReport(String, serde_json::Value),
    /// Pinned definitions' texts, for the approval views.
    Texts(Vec<DefinitionText>),
    /// Write what is queued now, then say so.
    Flush(SyncSender<()>),
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

    pub fn server_report(&self, upstream: String, report: serde_json::Value) {
        self.send(Write::ServerReport(upstream, report));
    }

    pub fn definition_texts(&self, texts: Vec<DefinitionText>) {
        if !texts.is_empty() {
            self.send(Write::Texts(texts));
        }
    }

    /// Waits (up to `wait`) until everything queued so far is written; false when it was not.
    pub fn flush(&self, wait: Duration) -> bool {
        let (tx, rx) = sync_channel(1);
        send_within(&self.tx, Write::Flush(tx), wait) && rx.recv_timeout(wait).is_ok()
    }

    fn send(&self, w: Write) {
        if let Err(TrySendError::Full(_)) = self.tx.try_send(w) {
            tracing::warn!("store write queue full; a write was dropped");
        }
    }
}

/// `try_send` retried until `wait` runs out (std has no timed send on sync channels).
fn send_within(tx: &SyncSender<Write>, mut w: Write, wait: Duration) -> bool {
    let deadline = std::time::Instant::now() + wait;
    loop {
        match tx.try_send(w) {
            Ok(()) => return true,
            Err(TrySendError::Full(back)) if std::time::Instant::now() < deadline => {
                w = back;
                std::thread::sleep(Duration::from_millis(5));
            }
            Err(_) => return false,
        }
    }
}

/// Writes waiting for the next batch.
#[derive(Default)]
struct Batch {
    scores: Vec<(StoredKey, serde_json::Value)>,
    sightings: Vec<Sighting>,
    /// Latest report per upstream (an older one is never worth writing).
    reports: std::collections::BTreeMap<String, serde_json::Value>,
    texts: Vec<DefinitionText>,
    /// Flush requests to answer once the batch is written.
    flushes: Vec<SyncSender<()>>,
}

impl Batch {
    fn len(&self) -> usize {
        self.scores.len() + self.sightings.len() + self.reports.len() + self.texts.len() + self.flushes.len()
    }

    fn push(&mut self, w: Write) {
        match w {
            Write::Score(k, v) => self.scores.push((k, v)),
            Write::Sighting(s) => self.sightings.push(s),
            Write::ServerReport(u, r) => {
                self.reports.insert(u, r);
            }
            Write::Texts(t) => self.texts.extend(t),
            Write::Flush(done) => self.flushes.push(done),
        }
    }

    fn write(&self, store: &dyn Store) -> Result<(), super::StoreError> {
        store.put_scores(&self.scores)?;
        store.record_sightings(&self.sightings)?;
        for (upstream, report) in &self.reports {
            store.put_server_report(upstream, report)?;
        }
        if !self.texts.is_empty() {
            store.put_definition_texts(&self.texts)?;
        }
        Ok(())
    }
}

fn drain(store: Arc<dyn Store>, rx: Receiver<Write>, health: Arc<StoreHealth>) {
    let mut batch = Batch::default();
    let mut backoff = Duration::from_millis(100);
    loop {
        // Gather a batch: wait for the first write, then take what else is queued.
        let wait = if batch.len() == 0 { Duration::from_secs(3600) } else { backoff };
        match rx.recv_timeout(wait) {
            Ok(w) => batch.push(w),
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) if batch.len() == 0 => return,
            Err(RecvTimeoutError::Disconnected) => {}
        }
        while let Ok(w) = rx.try_recv() {
            batch.push(w);
            if batch.len() >= 512 {
                break;
            }
        }
        match batch.write(&*store) {
            Ok(()) => {
                for done in batch.flushes.drain(..) {
                    let _ = done.try_send(());
                }
                batch = Batch::default();
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
                let excess = batch.len().saturating_sub(RETRY_LIMIT);
                if excess > 0 {
                    batch.sightings.drain(..excess.min(batch.sightings.len()));
                }
                std::thread::sleep(backoff);
                backoff = (backoff * 2).min(Duration::from_secs(10));
            }
        }
    }
}
