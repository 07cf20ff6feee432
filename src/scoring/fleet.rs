//! One model call per key across every gateway sharing a store. Before calling the judge a
//! replica claims the key in the store (a row with a lease, renewed while the call runs);
//! the others poll the store for the answer, and take the claim over if its holder dies and
//! the lease runs out. The store failing never stops judging: the call is then made without
//! a claim (at worst a duplicate call, never a lost score).
//!
//! Leases are renewed by a thread of their own, not by a task on the async runtime. A lease
//! says "this process is alive"; a busy runtime is not a dead process. Under load the
//! runtime's workers can be held for seconds by synchronous work (scoring a long list with
//! the heuristic), and a renewal task on them then misses its turn: the lease ran out while
//! the holder still meant to make its call, another replica took the claim over, and both
//! judged the same tool. The thread renews every claim this process holds in one statement.

use std::collections::HashSet;
use std::future::Future;
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::judge::JudgeError;
use crate::store::{Store, StoreError};

/// How often a waiting replica looks for the answer (and for an expired claim).
const POLL: Duration = Duration::from_millis(200);

/// Reads an answer from the store.
pub type Lookup = Arc<dyn Fn(&dyn Store) -> Result<Option<Value>, StoreError> + Send + Sync>;
/// Writes an answer to the store.
pub type Save = Box<dyn FnOnce(&dyn Store, &Value) -> Result<(), StoreError> + Send>;

/// Claims in one store under one owner name.
pub struct Fleet {
    store: Arc<dyn Store>,
    /// Unique per process: claims are by owner.
    owner: String,
    lease: Duration,
    /// How long a replica waits for another's answer before giving up (for now).
    patience: Duration,
    /// The keys this process holds claims on, which the renewal thread keeps alive.
    held: Held,
}

type Held = Arc<Mutex<HashSet<String>>>;

/// How an answer was had.
#[derive(Debug, PartialEq)]
pub enum Obtained {
    /// Already in the store (a restart, or another replica judged it).
    Stored(Value),
    /// Judged here, and stored before the claim was let go.
    Judged(Value),
}

/// Why there is no answer.
#[derive(Debug, thiserror::Error)]
pub enum OnceError {
    #[error(transparent)]
    Judge(#[from] JudgeError),
    #[error("another gateway is still judging this definition")]
    StillClaimed,
}

impl Fleet {
    pub fn new(store: Arc<dyn Store>, lease: Duration, patience: Duration) -> Fleet {
        let owner = format!("{}-{}", hostname(), uuid::Uuid::new_v4().simple());
        let held = Held::default();
        let (s, o, h) = (store.clone(), owner.clone(), Arc::downgrade(&held));
        if let Err(e) =
            std::thread::Builder::new().name("fleet-renew".into()).spawn(move || renew_held(&*s, &o, lease, h))
        {
            // Without it a claim lapses after one lease: a long call may be repeated elsewhere.
            tracing::warn!(error = %e, "cannot start the thread that renews claims");
        }
        Fleet { store, owner, lease, patience, held }
    }

    pub fn owner(&self) -> &str {
        &self.owner
    }

    /// The answer for `key`: from the store, or from `compute` run by exactly one replica.
    pub async fn once<F>(&self, key: &str, lookup: Lookup, compute: F, save: Save) -> Result<Obtained, OnceError>
    where
        F: Future<Output = Result<Value, JudgeError>>,
    {
        let deadline = Instant::now() + self.patience;
        let lease_ms = self.lease.as_millis() as i64;
        loop {
            match self.look(&lookup).await {
                Ok(Some(v)) => return Ok(Obtained::Stored(v)),
                Ok(None) => {}
                Err(e) => {
                    tracing::warn!(error = %e, key, "store unavailable; judging without a claim");
                    return self.judge_and_save(compute, save).await;
                }
            }
            // Armed before the claim is asked for: a caller that drops this future (a report
            // superseded by a newer list, a shutdown) must not leave a claim behind to lapse
            // with its lease while every other replica waits on it.
            let mut guard = ClaimGuard {
                store: self.store.clone(),
                held: self.held.clone(),
                key: key.to_owned(),
                owner: self.owner.clone(),
            };
            let claimed = self.claim(key, lease_ms).await;
            if matches!(claimed, Ok(true)) {
                lock(&self.held).insert(key.to_owned());
            } else {
                guard.disarm();
            }
            match claimed {
                Ok(true) => {
                    // The previous holder may have stored the answer and let go between our
                    // lookup and our claim.
                    if let Ok(Some(v)) = self.look(&lookup).await {
                        self.release_claim(key).await;
                        guard.disarm();
                        return Ok(Obtained::Stored(v));
                    }
                    // Stored before the claim is let go: a replica that claims the key next
                    // finds the answer in its second look instead of judging again.
                    let result = self.judge_and_save(compute, save).await;
                    self.release_claim(key).await;
                    guard.disarm();
                    return result;
                }
                Ok(false) if Instant::now() >= deadline => return Err(OnceError::StillClaimed),
                Ok(false) => tokio::time::sleep(POLL).await,
                Err(e) => {
                    tracing::warn!(error = %e, key, "store unavailable; judging without a claim");
                    return self.judge_and_save(compute, save).await;
                }
            }
        }
    }

    async fn judge_and_save<F>(&self, compute: F, save: Save) -> Result<Obtained, OnceError>
    where
        F: Future<Output = Result<Value, JudgeError>>,
    {
        let v = compute.await?;
        let stored = v.clone();
        if let Err(e) = self.blocking(move |s| save(s, &stored)).await {
            tracing::warn!(error = %e, "could not store a judgement; it is kept in memory");
        }
        Ok(Obtained::Judged(v))
    }

    async fn look(&self, lookup: &Lookup) -> Result<Option<Value>, StoreError> {
        let lookup = lookup.clone();
        self.blocking(move |s| lookup(s)).await
    }

    async fn release_claim(&self, key: &str) {
        // Out of the renewal set first; a renewal already on its way is harmless, since a
        // renewal only extends a claim that still exists.
        lock(&self.held).remove(key);
        let (k, owner) = (key.to_owned(), self.owner.clone());
        if let Err(e) = self.blocking(move |s| s.release(&k, &owner)).await {
            tracing::warn!(error = %e, key, "could not release a claim; it lapses with its lease");
        }
    }

    async fn claim(&self, key: &str, lease_ms: i64) -> Result<bool, StoreError> {
        let (k, owner) = (key.to_owned(), self.owner.clone());
        self.blocking(move |s| s.claim(&k, &owner, lease_ms)).await
    }

    async fn blocking<T, F>(&self, f: F) -> Result<T, StoreError>
    where
        T: Send + 'static,
        F: FnOnce(&dyn Store) -> Result<T, StoreError> + Send + 'static,
    {
        let store = self.store.clone();
        tokio::task::spawn_blocking(move || f(&*store))
            .await
            .unwrap_or_else(|e| Err(StoreError(format!("store task failed: {e}"))))
    }
}

/// Releases a claim when dropped unless disarmed (the normal paths release it themselves and
/// wait for that; this covers a cancelled caller). The release runs on the blocking pool.
struct ClaimGuard {
    store: Arc<dyn Store>,
    held: Held,
    key: String,
    owner: String,
}

impl ClaimGuard {
    fn disarm(&mut self) {
        self.key.clear();
    }
}

impl Drop for ClaimGuard {
    fn drop(&mut self) {
        if self.key.is_empty() {
            return;
        }
        let (store, key, owner) = (self.store.clone(), std::mem::take(&mut self.key), std::mem::take(&mut self.owner));
        lock(&self.held).remove(&key);
        let release = move || {
            if let Err(e) = store.release(&key, &owner) {
                tracing::warn!(error = %e, key, "could not release a dropped claim; it lapses with its lease");
            }
        };
        match tokio::runtime::Handle::try_current() {
            Ok(rt) => drop(rt.spawn_blocking(release)),
            Err(_) => release(),
        }
    }
}

/// Renews `held` every third of `lease` until the fleet is gone. Runs on its own thread (see
/// the module's doc).
fn renew_held(store: &dyn Store, owner: &str, lease: Duration, held: Weak<Mutex<HashSet<String>>>) {
    let lease_ms = lease.as_millis() as i64;
    loop {
        std::thread::sleep(lease / 3);
        let Some(set) = held.upgrade() else { return };
        let keys: Vec<String> = lock(&set).iter().cloned().collect();
        drop(set);
        if keys.is_empty() {
            continue;
        }
        match store.renew(&keys, owner, lease_ms) {
            Ok(kept) if kept.len() < keys.len() => {
                let kept: HashSet<String> = kept.into_iter().collect();
                let Some(set) = held.upgrade() else { return };
                let set = lock(&set);
                // A key released since the snapshot is not lost; one still held here is.
                for key in keys.iter().filter(|k| set.contains(*k) && !kept.contains(*k)) {
                    tracing::warn!(
                        key,
                        "a claim's lease ran out before it was renewed; another gateway may judge it too"
                    );
                }
            }
            Ok(_) => {}
            Err(e) => tracing::warn!(error = %e, claims = keys.len(), "could not renew claims"),
        }
    }
}

fn lock(held: &Mutex<HashSet<String>>) -> std::sync::MutexGuard<'_, HashSet<String>> {
    held.lock().unwrap_or_else(|e| e.into_inner())
}

fn hostname() -> String {
    std::env::var("HOSTNAME").ok().filter(|h| !h.is_empty()).unwrap_or_else(|| "gateway".to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::SqliteStore;
    use std::sync::atomic::{AtomicUsize, Ordering};

    fn fleet(store: &Arc<dyn Store>, lease_ms: u64) -> Fleet {
        Fleet::new(store.clone(), Duration::from_millis(lease_ms), Duration::from_secs(10))
    }

    fn lookup() -> Lookup {
        Arc::new(|s: &dyn Store| s.get_coherence("k"))
    }

    fn save() -> Save {
        Box::new(|s: &dyn Store, v: &Value| s.put_coherence("k", "srv", v))
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn two_replicas_judge_a_key_once() {
        let store: Arc<dyn Store> = Arc::new(SqliteStore::in_memory().unwrap());
        let calls = Arc::new(AtomicUsize::new(0));
        let run = |f: Fleet| {
            let calls = calls.clone();
            async move {
                let compute = async move {
                    calls.fetch_add(1, Ordering::SeqCst);
                    tokio::time::sleep(Duration::from_millis(300)).await;
                    Ok(serde_json::json!({"answer": 1}))
                };
                f.once("k", lookup(), compute, save()).await.unwrap()
            }
        };
        let (a, b) = tokio::join!(run(fleet(&store, 5_000)), run(fleet(&store, 5_000)));
        assert_eq!(calls.load(Ordering::SeqCst), 1);
        let judged = [&a, &b].iter().filter(|f| matches!(f, Obtained::Judged(_))).count();
        assert_eq!(judged, 1, "{a:?} {b:?}");
        let value = |f: &Obtained| match f {
            Obtained::Stored(v) | Obtained::Judged(v) => v.clone(),
        };
        assert_eq!((value(&a), value(&b)), (serde_json::json!({"answer": 1}), serde_json::json!({"answer": 1})));
    }

    #[test]
    fn a_claim_outlives_a_runtime_too_busy_to_renew_it() {
        let store: Arc<dyn Store> = Arc::new(SqliteStore::in_memory().unwrap());
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        let (f, other) = (fleet(&store, 1_000), store.clone());
        let compute = async move {
            // Synchronous work holds the runtime's only thread for twice the lease; then
            // another replica tries to take the key over.
            std::thread::sleep(Duration::from_millis(2_000));
            Ok(serde_json::json!({"taken_over": other.claim("k", "other", 1_000).unwrap()}))
        };
        let got = rt.block_on(f.once("k", lookup(), compute, save())).unwrap();
        assert_eq!(got, Obtained::Judged(serde_json::json!({"taken_over": false})), "the lease was kept alive");
    }

    #[tokio::test]
    async fn a_dead_holders_claim_is_taken_over_after_the_lease() {
        let store: Arc<dyn Store> = Arc::new(SqliteStore::in_memory().unwrap());
        assert!(store.claim("k", "dead-replica", 300).unwrap());
        let started = Instant::now();
        let got = fleet(&store, 300).once("k", lookup(), async { Ok(serde_json::json!(2)) }, save()).await.unwrap();
        assert_eq!(got, Obtained::Judged(serde_json::json!(2)));
        assert!(started.elapsed() >= Duration::from_millis(250), "waited for the lease");
        assert_eq!(store.get_coherence("k").unwrap(), Some(serde_json::json!(2)));
        assert!(store.claim("k", "other", 1000).unwrap(), "the claim was released");
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_cancelled_caller_lets_go_of_its_claim() {
        let store: Arc<dyn Store> = Arc::new(SqliteStore::in_memory().unwrap());
        let (started_tx, started_rx) = tokio::sync::oneshot::channel();
        let f = fleet(&store, 60_000);
        let task = tokio::spawn(async move {
            let compute = async move {
                let _ = started_tx.send(());
                std::future::pending::<()>().await;
                Ok(serde_json::json!(0))
            };
            f.once("k", lookup(), compute, save()).await
        });
        started_rx.await.unwrap(); // the claim is held and the judge call is running
        assert!(!store.claim("k", "other", 1000).unwrap(), "held while the call runs");
        task.abort();
        let _ = task.await;
        // The release runs on the blocking pool: wait for it, not for a clock.
        let mut released = false;
        for _ in 0..500 {
            if store.claim("k", "other", 1000).unwrap() {
                released = true;
                break;
            }
            tokio::task::yield_now().await;
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        assert!(released, "a dropped caller's claim is released, not left to its 60 s lease");
    }
}
